//! `xcover gridcheck merge --verify K|all [--verify-seed S]`: the audit of gridcheck parts.
//! A part forged under a valid checksum chain (a puzzle deleted, a puzzle that is none
//! inserted, a chunk's counters or id changed) merges with exit 0 without it; the audit
//! refuses it (exit 1, nothing on stdout), naming the part and the chunk. `--verify K`
//! catches one forged chunk among a part's u at the rate the README states (K/u), honest
//! parts pass with every K, and bad values are usage errors.
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{gridcheck, stderr};
use common::{GRID18, MASK6};
#[path = "common/frames.rs"]
mod frames;

/// The run the parts come from: 82 puzzles of 18 clues in 54 chunks.
const RUN: [&str; 5] = ["--clues", "18", "--mask", MASK6, GRID18];

fn run(args: &[&str]) -> Output {
    gridcheck(args).output().unwrap()
}

/// The unsharded run's stdout (its puzzles, one a line).
fn one_run() -> String {
    let output = run(&RUN);
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8(output.stdout).unwrap()
}

/// The parts of `n` shards of [`RUN`] (plus `extra` arguments), written into `dir`.
fn parts(dir: &Path, n: usize, extra: &[&str]) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let output = run(&[&RUN[..], extra, &["--shard", &shard]].concat());
            assert!(output.status.success(), "{shard}: {}", stderr(&output));
            let path = dir.join(format!("p{i}"));
            std::fs::write(&path, &output.stdout).unwrap();
            path
        })
        .collect()
}

/// `xcover gridcheck merge OPTIONS PARTS...`.
fn merge(parts: &[PathBuf], options: &[&str]) -> Output {
    let names: Vec<&str> = parts.iter().map(|p| p.to_str().unwrap()).collect();
    run(&[&["merge"][..], options, &names].concat())
}

/// Rewrites the part at `path` with `edit` applied to its records (header first, trailer
/// left out), the checksum chain and trailer computed again: a forgery no checksum sees.
fn forge(path: &Path, edit: impl FnOnce(&mut Vec<(String, String)>)) {
    forge_file(path, true, edit);
}

/// [`forge`] for a part (`closed`, with a trailer) or a journal.
fn forge_file(path: &Path, closed: bool, edit: impl FnOnce(&mut Vec<(String, String)>)) {
    let bytes = std::fs::read(path).unwrap();
    let (magic, frames) = frames::frames(&bytes);
    let kept = frames.len() - usize::from(closed);
    assert_eq!(frames.last().unwrap().tag == "end", closed);
    let mut records: Vec<(String, String)> = frames[..kept]
        .iter()
        .map(|f| (f.tag.clone(), f.text()))
        .collect();
    let before = records.clone();
    edit(&mut records);
    assert_ne!(records, before, "the forgery changed nothing");
    let records: Vec<(&str, Vec<u8>)> = records
        .iter()
        .map(|(tag, text)| (tag.as_str(), text.clone().into_bytes()))
        .collect();
    std::fs::write(path, frames::forge(&magic, &records, closed)).unwrap();
}

/// Deletes the `nth` puzzle record of a part.
fn delete_puzzle(records: &mut Vec<(String, String)>, nth: usize) {
    let at = records
        .iter()
        .enumerate()
        .filter(|(_, (tag, _))| tag == "puzzle")
        .nth(nth)
        .map(|(at, _)| at)
        .expect("a part with puzzles");
    records.remove(at);
}

/// The forgery passes a plain merge: exit 0 and another output than the one run's.
fn passes_without_audit(parts: &[PathBuf], one: &str) {
    let plain = merge(parts, &[]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_ne!(
        String::from_utf8_lossy(&plain.stdout),
        one,
        "nothing forged"
    );
}

/// An audit refused the parts or the journal: exit 1, nothing on stdout, a message with
/// `wanted` and with `verdict` (`not merged` for parts, `a forged or wrong journal` for a
/// journal), and no word of a passed audit or a merge.
fn refused(output: &Output, verdict: &str, wanted: &[&str]) {
    let e = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{e}");
    assert!(output.stdout.is_empty(), "{e}");
    for w in wanted {
        assert!(e.contains(w), "wanted `{w}`: {e}");
    }
    assert!(e.contains(verdict) && !e.contains("audit passed"), "{e}");
    assert!(!e.contains("merged from"), "{e}");
}

/// What a refused merge says.
const NOT_MERGED: &str = "not merged";
/// What a refused journal says.
const FORGED_JOURNAL: &str = "a forged or wrong journal";

/// The chance that an audit of `k` units among `u` meets one of `f` forged ones:
/// 1 - C(u-f, k) / C(u, k), the rate the README states.
fn caught_rate(u: u64, f: u64, k: u64) -> f64 {
    let missed: f64 = (0..k)
        .map(|i| (u - f - i) as f64 / (u - i) as f64)
        .product();
    1.0 - missed
}

/// The chunk records of a part.
fn chunk_count(part: &Path) -> u64 {
    let (_, frames) = frames::frames(&std::fs::read(part).unwrap());
    frames.iter().filter(|f| f.tag == "chunk").count() as u64
}

#[test]
fn a_deleted_puzzle_is_caught_by_verify_all() {
    let dir = tempfile::tempdir().unwrap();
    let one = one_run();
    let ps = parts(dir.path(), 2, &[]);
    forge(&ps[0], |r| delete_puzzle(r, 3));
    passes_without_audit(&ps, &one);
    let out = merge(&ps, &["--verify", "all"]);
    refused(
        &out,
        NOT_MERGED,
        &["p0: grid 1/1 chunk ", "which the part lacks"],
    );
}

#[test]
fn an_inserted_puzzle_is_caught_by_every_audit() {
    let dir = tempfile::tempdir().unwrap();
    let one = one_run();
    let ps = parts(dir.path(), 2, &[]);
    // A clue of a real puzzle moved to another free cell of the grid: of the run's clue
    // count, inside its grid and mask, and no puzzle (the one run lists every puzzle).
    let forced: Vec<usize> = MASK6
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'1')
        .map(|(i, _)| i)
        .collect();
    let real = one.lines().next().unwrap().as_bytes().to_vec();
    let fake = (0..81)
        .flat_map(|from| (0..81).map(move |to| (from, to)))
        .filter(|&(from, to)| real[from] != b'0' && real[to] == b'0' && !forced.contains(&from))
        .map(|(from, to)| {
            let mut cells = real.clone();
            cells[to] = GRID18.as_bytes()[to];
            cells[from] = b'0';
            String::from_utf8(cells).unwrap()
        })
        .find(|p| !one.lines().any(|l| l == p))
        .expect("a clue set that is no puzzle");
    forge(&ps[1], |r| {
        let at = r
            .iter()
            .position(|(tag, text)| tag == "puzzle" && text[2..83] > *fake)
            .unwrap_or(r.len());
        r.insert(at, ("puzzle".into(), format!("0 {fake}\n")));
    });
    passes_without_audit(&ps, &one);
    for k in ["all", "1"] {
        let out = merge(&ps, &["--verify", k]);
        refused(
            &out,
            NOT_MERGED,
            &[&format!(
                "p1: grid 1/1: {fake} is a puzzle with more than one solution"
            )],
        );
    }
}

#[test]
fn forged_counters_and_chunk_ids_are_caught_by_verify_all() {
    let dir = tempfile::tempdir().unwrap();
    let ps = parts(dir.path(), 2, &[]);
    // One more node in a chunk of part 1.
    forge(&ps[1], |r| {
        let chunk = r.iter_mut().find(|(tag, _)| tag == "chunk").unwrap();
        let w: Vec<u64> = chunk
            .1
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        chunk.1 = format!("{} {} {} {}\n", w[0], w[1], w[2] + 1, w[3]);
    });
    let out = merge(&ps, &["--verify", "all"]);
    refused(&out, NOT_MERGED, &["p1: grid 1/1 chunk ", "other counters"]);

    // A chunk's id changed to one no shard has (its puzzles could go with it).
    let ps = parts(dir.path(), 2, &[]);
    forge(&ps[0], |r| {
        let last = r.iter().rposition(|(tag, _)| tag == "chunk").unwrap();
        let w: Vec<&str> = r[last].1.split_whitespace().collect();
        r[last].1 = format!("{} {} {} {}\n", w[0], 0xfe_fefe, w[2], w[3]);
    });
    let plain = merge(&ps, &[]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let out = merge(&ps, &["--verify", "all"]);
    refused(
        &out,
        NOT_MERGED,
        &["p0: grid 1/1: chunk 16711422 is not a chunk of shard 0/2"],
    );
}

#[test]
fn verify_k_catches_a_deleted_puzzle_at_the_stated_rate() {
    let dir = tempfile::tempdir().unwrap();
    let ps = parts(dir.path(), 2, &[]);
    forge(&ps[0], |r| delete_puzzle(r, 0));
    let u = chunk_count(&ps[0]);
    let k = 5;
    let seeds = 160u64;
    let mut caught = 0u64;
    for seed in 0..seeds {
        let s = seed.to_string();
        let out = merge(&ps, &["--verify", &k.to_string(), "--verify-seed", &s]);
        let e = stderr(&out);
        assert!(
            e.contains(&format!("with seed {seed} (--verify-seed {seed}")),
            "{e}"
        );
        match out.status.code() {
            Some(1) => {
                refused(
                    &out,
                    NOT_MERGED,
                    &[
                        "p0: grid 1/1 chunk ",
                        "which the part lacks",
                        &format!("(audit seed {seed})"),
                    ],
                );
                caught += 1;
            }
            Some(0) => assert!(e.contains("audit passed: 10 chunks"), "{e}"),
            other => panic!("seed {seed}: status {other:?}: {e}"),
        }
    }
    // The puzzle is found by one chunk of the part's u: caught with probability k/u; the
    // count over the seeds is within 3.5 standard deviations of its mean (a fixed set of
    // seeds: deterministic).
    let p = caught_rate(u, 1, k);
    assert!((p - k as f64 / u as f64).abs() < 1e-9);
    let (mean, sd) = (p * seeds as f64, (p * (1.0 - p) * seeds as f64).sqrt());
    assert!(
        (caught as f64 - mean).abs() <= 3.5 * sd,
        "caught {caught} of {seeds}, expected {mean:.1} ± {sd:.1} (u = {u}, k = {k})"
    );
    // A seed repeats its choice; K at least u scans every chunk of the part.
    let again = |seed: &str| merge(&ps, &["--verify", "5", "--verify-seed", seed]);
    let (a, b) = (again("11"), again("11"));
    assert_eq!((a.status.code(), stderr(&a)), (b.status.code(), stderr(&b)));
    let out = merge(&ps, &["--verify", &u.to_string()]);
    refused(&out, NOT_MERGED, &["which the part lacks"]);
}

#[test]
fn honest_parts_pass_with_every_k() {
    let dir = tempfile::tempdir().unwrap();
    let one = one_run();
    let ps = parts(dir.path(), 3, &[]);
    let most = ps.iter().map(|p| chunk_count(p)).max().unwrap();
    let plain = merge(&ps, &[]);
    let mut amounts: Vec<String> = (1..=most + 1).map(|k| k.to_string()).collect();
    amounts.push("all".into());
    for k in &amounts {
        let out = merge(&ps, &["--verify", k]);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "--verify {k}: {e}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), one, "--verify {k}");
        assert!(
            e.contains("audit passed") && e.contains("the 82 puzzles"),
            "{e}"
        );
        // The merge's summary line is the plain merge's.
        assert!(e.ends_with(&stderr(&plain)), "{e}");
    }
    // A run whose UA list came from a file is audited with that file again.
    let ua = dir.path().join("ua");
    let saved = run(&[&RUN[..], &["--save-ua", ua.to_str().unwrap()]].concat());
    assert!(saved.status.success(), "{}", stderr(&saved));
    let sub = dir.path().join("from-file");
    std::fs::create_dir(&sub).unwrap();
    let ps = parts(&sub, 2, &["--ua-file", ua.to_str().unwrap()]);
    let out = merge(&ps, &["--verify", "all"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("give it with --ua-file F"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    let out = merge(&ps, &["--verify", "all", "--ua-file", ua.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), one);
}

#[test]
fn bad_verify_values_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ps = parts(dir.path(), 2, &[]);
    for bad in [
        &["--verify", "0"][..],
        &["--verify", "-3"],
        &["--verify", "some"],
        &["--verify", "18446744073709551616"],
        &["--verify-seed", "3"],
        &["--verify", "2", "--verify-seed", "x"],
        &["--verify", "2", "--verify-seed", "-1"],
        &["--ua-file", "ua"],
    ] {
        let out = merge(&ps, bad);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {e}");
        assert!(out.stdout.is_empty(), "{bad:?}");
        assert!(e.contains("Usage: xcover gridcheck merge"), "{bad:?}: {e}");
    }
    let names: Vec<&str> = ps.iter().map(|p| p.to_str().unwrap()).collect();
    let last = run(&[&["merge"][..], &names, &["--verify"]].concat());
    assert_eq!(last.status.code(), Some(2), "{}", stderr(&last));
    // The help says how to audit and at what rate.
    let help = run(&["merge", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8(help.stdout).unwrap();
    for needle in [
        "--verify K|all",
        "--verify-seed S",
        "--ua-file F",
        "1 - C(u-f,K)/C(u,K)",
    ] {
        assert!(help.contains(needle), "`{needle}' missing from:\n{help}");
    }
}

/// `xcover gridcheck RUN EXTRA --checkpoint JOURNAL`.
fn journaled(journal: &Path, extra: &[&str]) -> Output {
    let j = journal.to_str().unwrap();
    run(&[&RUN[..], extra, &["--checkpoint", j]].concat())
}

#[test]
fn a_journal_is_audited_before_it_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let one = one_run();
    let journal = dir.path().join("journal");
    let first = journaled(&journal, &[]);
    assert_eq!(String::from_utf8_lossy(&first.stdout), one);
    // An honest journal passes, with every amount and thread count (`0`: one a core), and
    // the resume prints the one run.
    for (k, threads) in [("1", "1"), ("7", "2"), ("54", "0"), ("all", "0")] {
        let out = journaled(&journal, &["--resume", "--verify", k, "--threads", threads]);
        let e = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{e}");
        assert!(
            e.contains("audit passed") && e.contains("its 82 puzzles"),
            "{e}"
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), one);
    }
    let honest = std::fs::read(&journal).unwrap();

    // A puzzle deleted: a plain resume prints one fewer, exit 0; the audit refuses.
    forge_file(&journal, false, |r| delete_puzzle(r, 5));
    let forged = std::fs::read(&journal).unwrap();
    let plain = journaled(&journal, &["--resume"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_ne!(String::from_utf8_lossy(&plain.stdout), one);
    let out = journaled(&journal, &["--resume", "--verify", "all"]);
    refused(
        &out,
        FORGED_JOURNAL,
        &["grid 1/1 chunk ", "which the journal lacks"],
    );
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        forged,
        "the journal was changed"
    );

    // A clue set that is no puzzle, inserted: refused by any audit.
    std::fs::write(&journal, &honest).unwrap();
    let real = one.lines().next().unwrap();
    let forced: Vec<usize> = MASK6
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'1')
        .map(|(i, _)| i)
        .collect();
    let from = real
        .bytes()
        .enumerate()
        .position(|(i, b)| b != b'0' && !forced.contains(&i))
        .unwrap();
    let fake = (0..81)
        .filter(|&to| real.as_bytes()[to] == b'0')
        .map(|to| {
            let mut cells = real.as_bytes().to_vec();
            cells[to] = GRID18.as_bytes()[to];
            cells[from] = b'0';
            String::from_utf8(cells).unwrap()
        })
        .find(|p| !one.lines().any(|l| l == p))
        .unwrap();
    forge_file(&journal, false, |r| {
        r.insert(1, ("puzzle".into(), format!("0 {fake}\n")));
    });
    let out = journaled(&journal, &["--resume", "--verify", "1"]);
    refused(
        &out,
        FORGED_JOURNAL,
        &[&format!(
            "grid 1/1: {fake} is a puzzle with more than one solution"
        )],
    );

    // A shard's journal keeps counters: one forged is caught.
    let shard = dir.path().join("shard-journal");
    let part = journaled(&shard, &["--shard", "1/2"]);
    assert!(part.status.success(), "{}", stderr(&part));
    forge_file(&shard, false, |r| {
        let chunk = r.iter_mut().find(|(tag, _)| tag == "chunk").unwrap();
        let (id, counts) = chunk.1.trim_end().split_once(' ').unwrap();
        let w: Vec<u64> = counts.split(':').map(|w| w.parse().unwrap()).collect();
        chunk.1 = format!("{id} {}:{}:{}\n", w[0], w[1], w[2] + 1);
    });
    let out = journaled(&shard, &["--shard", "1/2", "--resume", "--verify", "all"]);
    refused(&out, FORGED_JOURNAL, &["grid 1/1 chunk ", "other counters"]);

    // Usage errors: without --resume, a bad K, a seed alone, with --stop-at-first.
    for bad in [
        &["--verify", "all"][..],
        &["--resume", "--verify", "0"],
        &["--resume", "--verify", "x"],
        &["--resume", "--verify-seed", "1"],
        &["--resume", "--verify", "1", "--stop-at-first"],
    ] {
        let out = journaled(&journal, bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

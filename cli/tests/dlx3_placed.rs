//! A second pass that writes the text in place (issue 39, finding 10, for `m1`-`m8`): the
//! first pass keeps the units' text lengths (`--lengths-only`), `merge --plan` creates the
//! print file at its final size, each shard writes its units at their offsets there, and
//! the merge checks the small records only. The print file must be the plain run's
//! stdout, byte for byte, and the merge's stderr the plain run's stderr.
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
#[path = "common/frames.rs"]
mod frames;

use common::{queens, stderr, xcover};
use frames::{forge, frames};

fn ok(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A run of `n` shards of `letters` on `input`, both passes, in `dir`.
struct Run {
    dir: PathBuf,
    input: String,
    letters: Vec<String>,
    n: u64,
}

impl Run {
    fn part(&self, i: u64) -> PathBuf {
        self.dir.join(format!("part-{i}"))
    }
    fn placed(&self, i: u64) -> PathBuf {
        self.dir.join(format!("placed-{i}"))
    }
    fn plan(&self) -> PathBuf {
        self.dir.join("plan")
    }
    fn out(&self) -> PathBuf {
        self.dir.join("OUT")
    }

    fn shard(&self, i: u64, extra: &[&str]) -> Output {
        let shard = format!("{i}/{}", self.n);
        let mut a = vec!["dlx3", "--shard", &shard];
        a.extend_from_slice(extra);
        a.extend(self.letters.iter().map(String::as_str));
        xcover(&a, &self.input)
    }

    fn first_pass(&self) {
        for i in 0..self.n {
            let p = self.part(i);
            ok(
                &self.shard(i, &["--lengths-only", "--output", s(&p)]),
                "first pass",
            );
        }
        self.make_plan();
    }

    /// `merge --plan PLAN --print-file OUT` over the parts.
    fn make_plan(&self) {
        let (plan, out) = (self.plan(), self.out());
        let mut a = vec!["dlx3", "merge", "--plan", s(&plan), "--print-file", s(&out)];
        let parts: Vec<PathBuf> = (0..self.n).map(|i| self.part(i)).collect();
        a.extend(parts.iter().map(|p| s(p)));
        let o = xcover(&a, "");
        ok(&o, "plan");
        assert!(
            stderr(&o).contains("writes them in place"),
            "{}",
            stderr(&o)
        );
    }

    fn second_pass(&self, i: u64, resume: bool) -> Output {
        let (plan, out, placed) = (self.plan(), self.out(), self.placed(i));
        let mut a = vec![
            "--second-pass",
            s(&plan),
            "--print-file",
            s(&out),
            "--output",
            s(&placed),
        ];
        if resume {
            a.push("--resume");
        }
        self.shard(i, &a)
    }

    fn both_passes(&self) {
        self.first_pass();
        for i in 0..self.n {
            ok(&self.second_pass(i, false), "second pass");
        }
    }

    /// `merge [extra] --print-file OUT` over the parts and the placed parts `placed`.
    fn merge(&self, extra: &[&str], placed: &[PathBuf]) -> Output {
        let out = self.out();
        let mut a = vec!["dlx3", "merge", "--print-file", s(&out)];
        a.extend_from_slice(extra);
        let parts: Vec<PathBuf> = (0..self.n).map(|i| self.part(i)).collect();
        a.extend(parts.iter().chain(placed).map(|p| s(p)));
        xcover(&a, "")
    }

    fn all_placed(&self) -> Vec<PathBuf> {
        (0..self.n).map(|i| self.placed(i)).collect()
    }
}

fn run(dir: &Path, name: &str, input: &str, letters: &[&str], n: u64) -> Run {
    let dir = dir.join(name);
    std::fs::create_dir(&dir).unwrap();
    Run {
        dir,
        input: input.to_owned(),
        letters: letters.iter().map(|l| l.to_string()).collect(),
        n,
    }
}

#[test]
fn the_print_file_is_the_plain_runs_stdout_for_m1_m2_m8_and_1_3_4_shards() {
    let dir = tempfile::tempdir().unwrap();
    let input = queens(9);
    // m2 with progress reports: the merge explores the units that hold one again, for
    // the report, and prints their text nowhere (the print file has it).
    for letters in [&["m1"][..], &["m2", "v1", "d100000"], &["m8", "v1"]] {
        let mut a = vec!["dlx3"];
        a.extend_from_slice(letters);
        let plain = xcover(&a, &input);
        ok(&plain, "plain run");
        assert!(!plain.stdout.is_empty());
        for n in [1, 3, 4] {
            let r = run(
                dir.path(),
                &format!("{}-{n}", letters[0]),
                &input,
                letters,
                n,
            );
            r.both_passes();
            let merged = r.merge(&[], &r.all_placed());
            ok(&merged, "merge");
            let text = std::fs::read(r.out()).unwrap();
            assert!(
                text == plain.stdout,
                "{letters:?} {n} shards: the print file differs"
            );
            assert!(merged.stdout.is_empty(), "the merge prints no text");
            assert_eq!(stderr(&merged), stderr(&plain), "{letters:?} {n} shards");
        }
    }
}

#[test]
fn a_missing_duplicated_damaged_or_forged_placed_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), "r", &queens(8), &["m1"], 3);
    r.both_passes();
    ok(&r.merge(&[], &r.all_placed()), "the genuine merge");
    let refused = |placed: &[PathBuf], says: &str| {
        let o = r.merge(&[], placed);
        assert_eq!(o.status.code(), Some(1), "{says}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).contains(says),
            "wanted {says:?} in {}",
            stderr(&o)
        );
    };
    let [p0, p1, p2] = [r.placed(0), r.placed(1), r.placed(2)];
    refused(&[p0.clone(), p1.clone()], "shard 2/3 is missing");
    refused(&[p0.clone(), p1.clone(), p2.clone(), p1.clone()], "again");
    // Records of shard 1 edited under a valid chain: one dropped, one repeated, a length
    // or an offset changed, a count forged.
    let bytes = std::fs::read(&p1).unwrap();
    let (magic, fr) = frames(&bytes);
    let body: Vec<(&str, Vec<u8>)> = fr[..fr.len() - 1]
        .iter()
        .map(|f| (f.tag.as_str(), f.payload.clone()))
        .collect();
    assert!(body.len() > 4, "shard 1 places a few units");
    let edit = |name: &str, frames: Vec<(&str, Vec<u8>)>| {
        let p = r.dir.join(name);
        std::fs::write(&p, forge(&magic, &frames, true)).unwrap();
        vec![p0.clone(), p, p2.clone()]
    };
    let mut dropped = body.clone();
    dropped.remove(3);
    refused(&edit("dropped", dropped), "was due");
    let mut repeated = body.clone();
    repeated.insert(3, body[3].clone());
    refused(&edit("repeated", repeated), "was due");
    let words = |f: &(&str, Vec<u8>)| -> Vec<String> {
        String::from_utf8(f.1.clone())
            .unwrap()
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    for (at, what, says) in [
        (2, "length", "was due"),
        (1, "offset", "was due"),
        (4, "count", "counters differ"),
    ] {
        let mut w = words(&body[3]);
        let v: u64 = w[at].parse().unwrap();
        w[at] = (v + 1).to_string();
        let mut forged = body.clone();
        forged[3].1 = format!("{}\n", w.join(" ")).into_bytes();
        refused(&edit(what, forged), says);
    }
    // A damaged byte (no valid chain); a part cut before its trailer.
    let mut damaged = bytes.clone();
    let at = fr[3].start + fr[3].payload.len() / 2 + 20;
    damaged[at] ^= 1;
    let p = r.dir.join("damaged");
    std::fs::write(&p, damaged).unwrap();
    refused(&[p0.clone(), p, p2.clone()], "damaged");
    let p = r.dir.join("cut");
    std::fs::write(&p, &bytes[..fr[fr.len() - 1].start]).unwrap();
    refused(&[p0.clone(), p, p2.clone()], "did not finish");
    // A print file of another size.
    let text = std::fs::read(r.out()).unwrap();
    std::fs::write(r.out(), &text[..text.len() - 1]).unwrap();
    refused(&r.all_placed(), "not merged");
    std::fs::write(r.out(), &text).unwrap();
    ok(&r.merge(&[], &r.all_placed()), "the genuine merge again");
}

#[test]
fn a_shard_run_again_gives_the_same_file_and_verify_catches_edited_text() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), "r", &queens(9), &["m2"], 4);
    r.both_passes();
    let want = std::fs::read(r.out()).unwrap();
    // The print file scrambled, then every shard's second pass run again from scratch:
    // the same bytes at the same offsets.
    std::fs::write(r.out(), vec![b'#'; want.len()]).unwrap();
    for i in 0..r.n {
        std::fs::remove_file(r.placed(i)).unwrap();
        ok(&r.second_pass(i, true), "a rerun");
    }
    assert!(
        std::fs::read(r.out()).unwrap() == want,
        "a rerun wrote other bytes"
    );
    // A finished second pass resumed does nothing; the merge passes with --verify.
    ok(&r.second_pass(1, true), "resume of a finished one");
    let o = r.merge(&["--verify", "1"], &r.all_placed());
    ok(&o, "verify");
    assert!(stderr(&o).contains("agree with the CRCs"), "{}", stderr(&o));
    // A byte of the text edited: the plain merge cannot see it (it reads no text), the
    // audit does.
    let mut edited = want.clone();
    let mid = edited.len() / 2;
    edited[mid] = if edited[mid] == b'x' { b'y' } else { b'x' };
    std::fs::write(r.out(), &edited).unwrap();
    ok(&r.merge(&[], &r.all_placed()), "plain merge");
    let o = r.merge(&["--verify", "1"], &r.all_placed());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("CRC-32C differs"), "{}", stderr(&o));
    // A second pass refuses a print file that is not the plan's size, and the plan
    // refuses to take over a file of another size.
    std::fs::write(r.out(), b"someone's file").unwrap();
    std::fs::remove_file(r.placed(0)).unwrap();
    let o = r.second_pass(0, false);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not this plan's print file"),
        "{}",
        stderr(&o)
    );
    let (plan, out, p0) = (r.plan(), r.out(), r.part(0));
    let mut a = vec!["dlx3", "merge", "--plan", s(&plan), "--print-file", s(&out)];
    let parts: Vec<PathBuf> = (0..r.n).map(|i| r.part(i)).collect();
    a.extend(parts.iter().map(|p| s(p)));
    let o = xcover(&a, "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), b"someone's file");
    let _ = p0;
}

#[test]
fn runs_the_placement_cannot_serve_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = queens(8);
    // --lengths-only outside m1-m8.
    let o = xcover(&["dlx3", "--shard", "0/2", "--lengths-only", "m9"], &input);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("m1 to m8"), "{}", stderr(&o));
    // A solution limit: the search may end inside a unit, so the plan says no.
    let r = run(dir.path(), "t", &input, &["m1", "t50"], 2);
    for i in 0..2 {
        let p = r.part(i);
        ok(
            &r.shard(i, &["--lengths-only", "--output", s(&p)]),
            "first pass",
        );
    }
    let (plan, out, a0, a1) = (r.plan(), r.out(), r.part(0), r.part(1));
    let o = xcover(
        &[
            "dlx3",
            "merge",
            "--plan",
            s(&plan),
            "--print-file",
            s(&out),
            s(&a0),
            s(&a1),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("a solution limit"), "{}", stderr(&o));
    assert!(!out.exists());
    // Without a second pass, such parts still merge (the units explored again).
    let plain = xcover(&["dlx3", "m1", "t50"], &input);
    let merged = xcover(&["dlx3", "merge", s(&a0), s(&a1)], "");
    ok(&merged, "merge without a second pass");
    assert!(merged.stdout == plain.stdout);
    assert_eq!(stderr(&merged), stderr(&plain));
}

#[test]
fn a_print_file_made_again_or_replaced_is_refused_with_the_old_placed_parts() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), "r", &queens(8), &["m1"], 2);
    r.both_passes();
    ok(&r.merge(&[], &r.all_placed()), "the genuine merge");
    let want = std::fs::read(r.out()).unwrap();
    let refused = |o: &Output, says: &str| {
        assert_eq!(o.status.code(), Some(1), "{says}: {}", stderr(o));
        assert!(o.stdout.is_empty());
        assert!(stderr(o).contains(says), "wanted {says:?} in {}", stderr(o));
    };
    // The print file deleted by hand and the plan made again: a new file of zeros, which
    // the finished shards' placed parts do not name.
    std::fs::remove_file(r.out()).unwrap();
    std::fs::remove_file(r.plan()).unwrap();
    r.make_plan();
    let zeros = std::fs::read(r.out()).unwrap();
    assert!(zeros.len() == want.len() && zeros.iter().all(|&b| b == 0));
    refused(
        &r.merge(&[], &r.all_placed()),
        "not the print file the plan made",
    );
    let before = std::fs::read(r.placed(0)).unwrap();
    refused(&r.second_pass(0, true), "not this plan's placed part");
    assert_eq!(std::fs::read(r.placed(0)).unwrap(), before, "untouched");
    assert!(std::fs::read(r.out()).unwrap() == zeros, "untouched");
    // One shard run again under the new plan, the other's part kept: refused too.
    std::fs::remove_file(r.placed(0)).unwrap();
    ok(&r.second_pass(0, false), "shard 0 again");
    refused(&r.merge(&[], &r.all_placed()), "another plan");
    std::fs::remove_file(r.placed(1)).unwrap();
    ok(&r.second_pass(1, false), "shard 1 again");
    ok(&r.merge(&[], &r.all_placed()), "the merge of the new plan");
    assert!(std::fs::read(r.out()).unwrap() == want);
    // The print file replaced by another file of the same size (renamed over it).
    let other = r.dir.join("other");
    std::fs::write(&other, vec![b'\n'; want.len()]).unwrap();
    std::fs::rename(&other, r.out()).unwrap();
    refused(
        &r.merge(&[], &r.all_placed()),
        "not the print file the plan made",
    );
    refused(&r.second_pass(1, true), "not the print file the plan made");
    // The plan made again keeps a file of its size, with a new nonce: the old placed
    // parts are refused by a resumed second pass, and new ones are needed.
    std::fs::remove_file(r.plan()).unwrap();
    r.make_plan();
    refused(&r.second_pass(1, true), "not this plan's placed part");
    for i in 0..r.n {
        std::fs::remove_file(r.placed(i)).unwrap();
        ok(&r.second_pass(i, false), "again");
    }
    ok(
        &r.merge(&[], &r.all_placed()),
        "the merge after the plan kept the file",
    );
    assert!(std::fs::read(r.out()).unwrap() == want);
}

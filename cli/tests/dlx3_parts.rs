//! Part files of `xcover dlx3 --shard`, through the binary: damage is refused, never
//! laundered into an answer; one writer per part; bounded reads of parts and stdin;
//! merge's write errors; a bounded shard count; parts sized by what `m<n>` prints, and
//! the merge equal to the one-process run for every spacing.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;

use common::{langford, queens, stderr};

fn xcover() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
}

/// Runs `xcover dlx3 args` with `input` on stdin.
fn dlx3(args: &[&str], input: &[u8]) -> Output {
    let mut cmd = xcover();
    cmd.arg("dlx3").args(args);
    common::run_with_input(cmd, input)
}

fn merge(files: &[PathBuf]) -> Output {
    xcover()
        .args(["dlx3", "merge"])
        .args(files)
        .output()
        .unwrap()
}

/// `merge --threads N`: workers explore again the units that hold a printed solution.
fn merge_threads(files: &[PathBuf], threads: &str) -> Output {
    xcover()
        .args(["dlx3", "merge", "--threads", threads])
        .args(files)
        .output()
        .unwrap()
}

/// Asserts a refusal: exit 1, nothing on stdout, a message containing each of `says`.
fn refused(o: &Output, says: &[&str]) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for s in says {
        assert!(e.contains(s), "wanted {s:?} in {e}");
    }
}

/// Writes shard `i/n`'s part of `args` on `input` to `dir/p<i>` (`--output`).
fn part(dir: &Path, input: &[u8], args: &[&str], i: u64, n: u64) -> PathBuf {
    let p = dir.join(format!("p{i}"));
    let shard = format!("{i}/{n}");
    let a = [
        &["--shard", &shard, "--output", p.to_str().unwrap()][..],
        args,
    ]
    .concat();
    let out = dlx3(&a, input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    p
}

fn parts(dir: &Path, input: &[u8], args: &[&str], n: u64) -> Vec<PathBuf> {
    (0..n).map(|i| part(dir, input, args, i, n)).collect()
}

/// The frames of a durable file (see `cli/src/durable`): the magic line, then each
/// frame's tag and payload. Enough of the format to forge files with valid checksums.
mod frames {
    use crc::{Crc, CRC_32_ISCSI};

    const C: Crc<u32> = Crc::<u32>::new(&CRC_32_ISCSI);

    pub fn read(bytes: &[u8]) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
        let nl = bytes.iter().position(|&c| c == b'\n').unwrap();
        let magic = bytes[..=nl].to_vec();
        let mut at = nl + 1;
        let mut frames = Vec::new();
        while at < bytes.len() {
            let nl = at + bytes[at..].iter().position(|&c| c == b'\n').unwrap();
            let line = std::str::from_utf8(&bytes[at..nl]).unwrap();
            let mut w = line.split(' ');
            let (tag, len) = (
                w.next().unwrap(),
                w.next().unwrap().parse::<usize>().unwrap(),
            );
            frames.push((tag.to_string(), bytes[nl + 1..nl + 1 + len].to_vec()));
            at = nl + 1 + len;
        }
        (magic, frames)
    }

    /// The file of these frames, checksums and trailer computed afresh.
    pub fn write(magic: &[u8], frames: &[(String, Vec<u8>)]) -> Vec<u8> {
        let mut out = magic.to_vec();
        let mut prev = C.checksum(magic);
        let records = frames
            .iter()
            .filter(|(t, _)| t != "head" && t != "end")
            .count();
        let trailer = ("end".to_string(), format!("{records}\n").into_bytes());
        let body = frames.iter().filter(|(t, _)| t != "end");
        for (tag, payload) in body.chain(std::iter::once(&trailer)) {
            let mut d = C.digest();
            d.update(&prev.to_le_bytes());
            d.update(format!("{tag} {}\n", payload.len()).as_bytes());
            d.update(payload);
            prev = d.finalize();
            let text = format!("{tag} {} {prev:08x}", payload.len());
            out.extend(format!("{text} {:08x}\n", C.checksum(text.as_bytes())).bytes());
            out.extend_from_slice(payload);
        }
        out
    }
}

#[test]
fn a_damaged_solution_is_not_laundered_by_a_resume() {
    let dir = tempfile::tempdir().unwrap();
    let q = queens(8);
    let ps = parts(dir.path(), q.as_bytes(), &["m1"], 3);
    let good = fs::read(&ps[1]).unwrap();
    let at = good.windows(4).position(|w| w == b" r4 ").unwrap() + 2;
    let mut bad = good.clone();
    bad[at] = b'5';
    fs::write(&ps[1], &bad).unwrap();
    refused(&merge(&ps), &["p1", "record"]);
    let a = [
        "--shard",
        "1/3",
        "--output",
        ps[1].to_str().unwrap(),
        "--resume",
        "m1",
    ];
    let resumed = dlx3(&a, q.as_bytes());
    refused(&resumed, &["p1", "record", "damaged"]);
    assert!(
        fs::read(&ps[1]).unwrap() == bad,
        "a refused resume changed the part"
    );
    refused(&merge(&ps), &["p1"]);
    // Bytes after a trailer: a part with garbage, a part twice.
    fs::write(&ps[1], [&good[..], b"x"].concat()).unwrap();
    refused(&merge(&ps), &["p1", "after its trailer"]);
    fs::write(&ps[1], [&good[..], &good[..]].concat()).unwrap();
    refused(&merge(&ps), &["p1", "after its trailer"]);
    // Without --resume an existing part is not replaced.
    let again = dlx3(&[a[0], a[1], a[2], a[3], "m1"], q.as_bytes());
    refused(&again, &["p1", "--resume"]);
}

#[test]
fn two_writers_on_one_part() {
    let dir = tempfile::tempdir().unwrap();
    let input = langford(11);
    let p = dir.path().join("p");
    let a = ["--shard", "0/2", "--output", p.to_str().unwrap(), "m0"];
    let mut first = xcover()
        .arg("dlx3")
        .args(a)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    first
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut waited = Duration::ZERO;
    while fs::metadata(&p).map_or(0, |m| m.len()) == 0 {
        std::thread::sleep(Duration::from_millis(2));
        waited += Duration::from_millis(2);
        assert!(waited < Duration::from_secs(60), "no part");
    }
    let second = dlx3(&[&a[..], &["--resume"]].concat(), input.as_bytes());
    let done = first.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    refused(&second, &["in use by another xcover process"]);
    // The first writer's part is whole: the bytes a shard writes to stdout.
    let streamed = dlx3(&["--shard", "0/2", "m0"], input.as_bytes());
    assert!(fs::read(&p).unwrap() == streamed.stdout, "the part differs");
}

#[test]
fn reads_are_bounded() {
    let out = xcover()
        .args(["dlx3", "merge", "--max-memory", "1M", "/dev/zero"])
        .output()
        .unwrap();
    refused(&out, &["/dev/zero"]);
    // A frame that claims more than the limit.
    let dir = tempfile::tempdir().unwrap();
    let q = queens(6);
    let ps = parts(dir.path(), q.as_bytes(), &["m1"], 1);
    let (magic, mut f) = frames::read(&fs::read(&ps[0]).unwrap());
    f[1].1 = vec![b'x'; 3 << 20];
    fs::write(&ps[0], frames::write(&magic, &f)).unwrap();
    let out = xcover()
        .args(["dlx3", "merge", "--max-memory", "1M"])
        .arg(&ps[0])
        .output()
        .unwrap();
    refused(&out, &["p0", "limit"]);
    // An endless standard input.
    let mut child = xcover()
        .args(["dlx3", "--max-memory", "1M", "m0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = b"a b\n".repeat(1 << 14);
        // Until the reader goes away (bounded, should it never).
        for _ in 0..10_000 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than the limit"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn merge_reports_write_errors() {
    let dir = tempfile::tempdir().unwrap();
    let q = queens(8);
    let ps = parts(dir.path(), q.as_bytes(), &["m1"], 2);
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = xcover()
        .args(["dlx3", "merge"])
        .args(&ps)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("can't write standard output"),
        "{}",
        stderr(&out)
    );
    // A shard writing its part to a full stdout.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = xcover()
        .args(["dlx3", "--shard", "0/2", "m1"])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(q.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("No space left"), "{}", stderr(&out));
}

#[test]
fn the_shard_count_is_bounded() {
    let q = queens(6);
    let out = dlx3(&["--shard", "16777216/16777217", "m1"], q.as_bytes());
    assert_eq!(out.status.code(), Some(255), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("at most 65536 shards"),
        "{}",
        stderr(&out)
    );
    // A header forged (valid checksums) with a huge N.
    let dir = tempfile::tempdir().unwrap();
    let ps = parts(dir.path(), q.as_bytes(), &["m1"], 1);
    let (magic, mut f) = frames::read(&fs::read(&ps[0]).unwrap());
    let head = String::from_utf8(f[0].1.clone()).unwrap();
    f[0].1 = head
        .replace("shard 0 1", "shard 16777216 16777217")
        .into_bytes();
    fs::write(&ps[0], frames::write(&magic, &f)).unwrap();
    refused(&merge(&ps), &["p0", "16777217"]);
}

#[test]
fn a_forged_counts_only_record_is_caught_when_its_unit_is_explored_again() {
    let dir = tempfile::tempdir().unwrap();
    let q = queens(8);
    let args = ["m9"];
    let ps = parts(dir.path(), q.as_bytes(), &args, 3);
    let one = dlx3(&args, q.as_bytes());
    let merged = merge(&ps);
    assert_eq!(merged.stdout, one.stdout);
    assert_eq!(stderr(&merged), stderr(&one));
    // Units in order with their counts: find one that holds a printed solution.
    let mut units = Vec::new();
    for (i, p) in ps.iter().enumerate() {
        let (_, f) = frames::read(&fs::read(p).unwrap());
        for (j, (tag, payload)) in f.iter().enumerate() {
            if tag == "unit" {
                let w: Vec<u64> = String::from_utf8_lossy(payload)
                    .split([' ', '\n'])
                    .take(3)
                    .map(|x| x.parse().unwrap())
                    .collect();
                units.push((w[0], w[1], i, j));
            }
        }
    }
    units.sort_unstable();
    let mut base = 0;
    let (_, _, i, j) = *units
        .iter()
        .find(|&&(_, c, _, _)| {
            let held = (base + c) / 9 > base / 9;
            base += c;
            held
        })
        .expect("a unit with a printed solution");
    let (magic, mut f) = frames::read(&fs::read(&ps[i]).unwrap());
    let text = String::from_utf8(f[j].1.clone()).unwrap();
    let mut w: Vec<String> = text.splitn(4, ' ').map(String::from).collect();
    w[2] = (w[2].parse::<u64>().unwrap() + 1).to_string();
    f[j].1 = w.join(" ").into_bytes();
    fs::write(&ps[i], frames::write(&magic, &f)).unwrap();
    // Refused, and nothing printed: the unit is the first to print, and what it printed
    // is held until its counters are checked.
    for out in [merge(&ps), merge_threads(&ps, "3")] {
        let says = format!("p{i}: unit");
        refused(&out, &[&says, "disagrees with the unit explored again"]);
    }
}

/// The merge prints a record's due solutions as one block: with `m3` and `m8`, units whose
/// bodies come in several `body` records (shards under `--max-memory 128K` hold 8 KiB of
/// text), the solution numbers run on across the records and the one process's printed
/// solutions are the merge's, byte for byte.
#[test]
fn solutions_numbered_across_body_records_print_as_one_process_prints() {
    let input = langford(12);
    for m in ["m3", "m8"] {
        let dir = tempfile::tempdir().unwrap();
        let ps = parts(
            dir.path(),
            input.as_bytes(),
            &[m, "--max-memory", "128K"],
            3,
        );
        let bodies = ps
            .iter()
            .flat_map(|p| frames::read(&fs::read(p).unwrap()).1)
            .filter(|f| f.0 == "body")
            .count();
        assert!(bodies > 100, "{m}: only {bodies} body records");
        let one = dlx3(&[m], input.as_bytes());
        let merged = merge(&ps);
        assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
        assert!(merged.stdout == one.stdout, "{m}: stdout differs");
        assert_eq!(stderr(&merged), stderr(&one), "{m}");
    }
}

/// Langford pairs n=12 (216,288 solutions) in 4 shards: the parts keep what `m<n>` can
/// print, and the merge prints what one process prints, stdout and stderr.
#[test]
fn parts_are_sized_by_what_is_printed() {
    let input = langford(12);
    for (args, at_most) in [
        (&["m1000"][..], Some(1 << 20)),
        (&["m0"], Some(1 << 20)),
        (&["m50"], Some(1 << 20)),
        (&["m7"], None),
        (&["m1"], None),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let ps = parts(dir.path(), input.as_bytes(), args, 4);
        for p in &ps {
            let len = fs::metadata(p).unwrap().len();
            if let Some(max) = at_most {
                assert!(len <= max, "{args:?}: {} has {len} bytes", p.display());
            }
        }
        let one = dlx3(args, input.as_bytes());
        for merged in [merge(&ps), merge_threads(&ps, "2")] {
            assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
            assert!(merged.stdout == one.stdout, "{args:?}: stdout differs");
            assert_eq!(stderr(&merged), stderr(&one), "{args:?}");
        }
    }
}

/// CRC-32C, the function that named a part's input before the part format's version 3.
fn crc32c(bytes: &[u8]) -> u32 {
    crc::Crc::<u32>::new(&crc::CRC_32_ISCSI).checksum(bytes)
}

/// `text` with its bytes `at..at + 4` chosen so that its CRC-32C is `target`. A CRC is
/// affine over GF(2) in the bits of the text, and four consecutive bytes reach every
/// value: the 32 columns (the CRC's change for each bit) are solved for by elimination.
fn forced_crc(text: &[u8], at: usize, target: u32) -> Vec<u8> {
    let with = |x: u32| {
        let mut t = text.to_vec();
        t[at..at + 4].copy_from_slice(&x.to_le_bytes());
        crc32c(&t)
    };
    let c0 = with(0);
    // A basis of the columns by leading bit: (column, the bits of x that give it).
    let mut basis: [Option<(u32, u32)>; 32] = [None; 32];
    let reduce = |basis: &[Option<(u32, u32)>; 32], mut v: u32, mut x: u32| {
        for bit in (0..32).rev() {
            if let Some((col, bits)) = basis[bit].filter(|_| v >> bit & 1 == 1) {
                v ^= col;
                x ^= bits;
            }
        }
        (v, x)
    };
    for i in 0..32 {
        let (v, x) = reduce(&basis, with(1 << i) ^ c0, 1 << i);
        if v != 0 {
            basis[31 - v.leading_zeros() as usize] = Some((v, x));
        }
    }
    let (rest, x) = reduce(&basis, target ^ c0, 0);
    assert_eq!(rest, 0, "four bytes reach every CRC");
    let mut t = text.to_vec();
    t[at..at + 4].copy_from_slice(&x.to_le_bytes());
    t
}

/// Two inputs of one length and one CRC-32C (a comment line's four bytes adjusted), with
/// other matrices: their parts once merged as one run's (280 solutions of Langford 8 for
/// 300, exit 0). The SHA-256 in the header tells them apart.
#[test]
fn parts_of_two_inputs_with_one_crc_are_not_one_run() {
    let a_matrix = langford(8);
    // Another option: `6 s1 s7` for `6 s1 s8` (another matrix, as many units).
    let b_matrix = a_matrix.replacen("\n6 s1 s8\n", "\n6 s1 s7\n", 1);
    assert_ne!(a_matrix, b_matrix);
    let a = format!("| abcde\n{a_matrix}").into_bytes();
    // Bytes 2..6 are forced; the fifth varies until they are bytes a comment can hold.
    let b = (b'a'..=b'z')
        .map(|fill| {
            let text = format!("| abcd{}\n{b_matrix}", fill as char);
            forced_crc(text.as_bytes(), 2, crc32c(&a))
        })
        .find(|b| !b[2..6].iter().any(|c| matches!(c, b'\n' | b'\r' | 0)))
        .expect("a CRC forced with bytes a comment line can hold");
    assert_eq!((a.len(), crc32c(&a)), (b.len(), crc32c(&b)));
    assert_ne!(a, b);
    let dir = tempfile::tempdir().unwrap();
    let p0 = part(dir.path(), &a, &["m0"], 0, 2);
    let other = dir.path().join("other");
    fs::create_dir(&other).unwrap();
    let p1 = part(&other, &b, &["m0"], 1, 2);
    // Each input's own search differs: the mix would be a wrong answer.
    assert_ne!(stderr(&dlx3(&["m0"], &a)), stderr(&dlx3(&["m0"], &b)));
    refused(&merge(&[p0, p1]), &["a part of another run"]);
}

/// Parts of Langford 7 (`m0`, counts only) in 2 shards, with unit record `nth` of part 1
/// forged under a valid chain: its count one more. Returns the parts, the one-process
/// stderr, and the number of units part 1 holds.
fn forged_parts(dir: &Path, nth: usize) -> (Vec<PathBuf>, String, u64) {
    let input = langford(7);
    let ps = parts(dir, input.as_bytes(), &["m0"], 2);
    let one = stderr(&dlx3(&["m0"], input.as_bytes()));
    let (magic, mut f) = frames::read(&fs::read(&ps[1]).unwrap());
    let units: Vec<usize> = (0..f.len()).filter(|&i| f[i].0 == "unit").collect();
    let j = units[nth];
    let text = String::from_utf8(f[j].1.clone()).unwrap();
    let mut w: Vec<String> = text.splitn(3, ' ').map(String::from).collect();
    w[1] = (w[1].parse::<u64>().unwrap() + 1).to_string();
    f[j].1 = w.join(" ").into_bytes();
    fs::write(&ps[1], frames::write(&magic, &f)).unwrap();
    (ps, one, units.len() as u64)
}

fn merge_verify(ps: &[PathBuf], verify: &[&str]) -> Output {
    xcover()
        .args(["dlx3", "merge"])
        .args(verify)
        .args(ps)
        .output()
        .unwrap()
}

/// The chance that an audit of `k` units among `u` meets one of `f` forged ones:
/// 1 - C(u-f, k) / C(u, k), the rate the README states.
fn caught_rate(u: u64, f: u64, k: u64) -> f64 {
    let missed: f64 = (0..k)
        .map(|i| (u - f - i) as f64 / (u - i) as f64)
        .product();
    1.0 - missed
}

#[test]
fn a_forged_count_is_caught_by_verify_all() {
    let dir = tempfile::tempdir().unwrap();
    let (ps, one, _) = forged_parts(dir.path(), 3);
    // Without an audit, the forgery passes: another total, exit 0.
    let plain = merge(&ps);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_ne!(stderr(&plain), one, "the forged count changed nothing");
    let out = merge_verify(&ps, &["--verify", "all"]);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(out.stdout.is_empty());
    assert!(
        e.contains("p1: unit") && e.contains("the audit explored it again"),
        "{e}"
    );
    assert!(!e.contains("Altogether"), "{e}");
    // Genuine parts pass the audit and merge to the one-process answer.
    let good_dir = tempfile::tempdir().unwrap();
    let input = langford(7);
    let good = parts(good_dir.path(), input.as_bytes(), &["m0"], 2);
    let out = merge_verify(&good, &["--verify", "all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("audit passed"), "{}", stderr(&out));
    let altogether = one.lines().last().unwrap();
    assert!(stderr(&out).contains(altogether), "{}", stderr(&out));
}

#[test]
fn verify_k_catches_a_forged_count_at_the_stated_rate() {
    let dir = tempfile::tempdir().unwrap();
    let (ps, _, u) = forged_parts(dir.path(), 5);
    let k = 20;
    let seeds = 120u64;
    let mut caught = 0u64;
    for seed in 0..seeds {
        let s = seed.to_string();
        let out = merge_verify(&ps, &["--verify", "20", "--verify-seed", &s]);
        let e = stderr(&out);
        assert!(e.contains(&format!("seed {seed}")), "{e}");
        match out.status.code() {
            Some(1) => {
                assert!(e.contains("the audit explored it again"), "{e}");
                caught += 1;
            }
            Some(0) => assert!(e.contains("audit passed"), "{e}"),
            other => panic!("seed {seed}: status {other:?}: {e}"),
        }
    }
    // One forged unit among u: caught with probability k/u; the count over the seeds is
    // within 3.5 standard deviations of its mean (a fixed set of seeds: deterministic).
    let p = caught_rate(u, 1, k);
    assert!((p - k as f64 / u as f64).abs() < 1e-9);
    let (mean, sd) = (p * seeds as f64, (p * (1.0 - p) * seeds as f64).sqrt());
    assert!(
        (caught as f64 - mean).abs() <= 3.5 * sd,
        "caught {caught} of {seeds}, expected {mean:.1} ± {sd:.1} (u = {u}, k = {k})"
    );
    // A seed repeats its choice; K at least u audits every unit of the part.
    let a = merge_verify(&ps, &["--verify", "20", "--verify-seed", "7"]);
    let b = merge_verify(&ps, &["--verify", "20", "--verify-seed", "7"]);
    assert_eq!((a.status.code(), stderr(&a)), (b.status.code(), stderr(&b)));
    let every = u.to_string();
    let out = merge_verify(&ps, &["--verify", &every]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // Bad values are usage errors.
    for bad in [
        &["--verify", "0"][..],
        &["--verify", "some"],
        &["--verify-seed", "3"],
    ] {
        let out = merge_verify(&ps, bad);
        assert_eq!(out.status.code(), Some(255), "{bad:?}: {}", stderr(&out));
    }
}

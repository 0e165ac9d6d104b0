//! A shard that keeps solution bodies (`m1`) holds a unit's text in bounded memory
//! whatever the unit's size (issue 39, finding 4): the bodies go to the part in records
//! of bounded size as they come, and the merge prints them as it reads them.
use std::fs::File;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
#[path = "common/frames.rs"]
mod frames;

use common::stderr;

/// A problem whose first unit (of the 4096 the split makes) holds `c2 * 4097`
/// solutions, the others one each: item A has 4096 options; the first covers A alone and
/// leaves C2 (`c2` options) and C1 (4097) to choose, the others cover everything at once.
fn one_big_unit(c2: usize) -> String {
    let mut text = String::from("A C1 C2\nA\n");
    text.push_str(&"A C1 C2\n".repeat(4095));
    text.push_str(&"C2\n".repeat(c2));
    text.push_str(&"C1\n".repeat(4097));
    text
}

/// Runs `xcover args` with `input` (a file) on stdin, stdout and stderr to files in
/// `dir`; returns the output and the child's peak resident set in bytes, the largest
/// `VmHWM` (a high-water mark) read from /proc while it runs. (getrusage of a child
/// would count the memory of this process, which the child shares until its exec.)
fn run_measured(dir: &Path, args: &[&str], input: &Path) -> (Output, u64) {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(File::open(input).unwrap())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        let hwm = std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .unwrap_or(0);
        peak = peak.max(hwm * 1024);
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    assert!(peak > 0, "no reading of {status_file}");
    let output = Output {
        status,
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    };
    (output, peak)
}

#[test]
fn an_m1_shard_streams_a_big_unit_within_max_memory_and_merges_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dlx");
    // 128 * 4097 + 4095 = 528,511 solutions, about 30 MB of output, most in unit 0.
    std::fs::write(&input, one_big_unit(128)).unwrap();
    let plain = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(["dlx3", "m1"])
        .stdin(File::open(&input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert!(plain.stdout.len() > 25 << 20, "the unit's text is large");

    let part = dir.path().join("p0");
    let limit = 16u64 << 20;
    let (shard, peak) = run_measured(
        dir.path(),
        &[
            "dlx3",
            "m1",
            "--shard",
            "0/1",
            "--output",
            part.to_str().unwrap(),
            "--max-memory",
            "16M",
        ],
        &input,
    );
    assert_eq!(shard.status.code(), Some(0), "{}", stderr(&shard));
    // The text alone is twice the limit: a shard holding the unit whole cannot stay
    // under it. The bound leaves room for the program itself.
    assert!(
        peak < limit + (8 << 20),
        "peak resident set {peak} bytes under --max-memory 16M"
    );

    let merged = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(["dlx3", "merge"])
        .arg(&part)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert!(merged.stdout == plain.stdout, "merged stdout differs");
    assert_eq!(stderr(&merged), stderr(&plain));
}

#[test]
fn a_shard_killed_inside_a_big_unit_resumes_to_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dlx");
    std::fs::write(&input, one_big_unit(64)).unwrap();
    let plain = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(["dlx3", "m1"])
        .stdin(File::open(&input).unwrap())
        .output()
        .unwrap();
    let part = dir.path().join("p0");
    let args = [
        "dlx3",
        "m1",
        "--shard",
        "0/1",
        "--output",
        part.to_str().unwrap(),
        "--max-memory",
        "4M",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(File::open(&input).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once some of unit 0's bodies are in the part, before the unit ends.
    let t0 = std::time::Instant::now();
    while std::fs::metadata(&part).map_or(0, |m| m.len()) < 1 << 20 {
        assert!(t0.elapsed().as_secs() < 60, "no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read(&part).unwrap();
    let bodies = text.windows(6).filter(|w| w == b"\nbody ").count();
    assert!(bodies > 0, "killed inside the unit (its bodies begun)");
    let resumed = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .arg("--resume")
        .stdin(File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let merged = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(["dlx3", "merge"])
        .arg(&part)
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert!(merged.stdout == plain.stdout, "merged stdout differs");
    assert_eq!(stderr(&merged), stderr(&plain));
}

/// Memory the system refuses (a `ulimit -v` under what the run needs) ends xcover with
/// a message and exit status 1, never an abort: here `--threads` workers, which hold a
/// unit's text until the coordinator prints it, under 50 MB of address space.
#[test]
fn an_allocation_the_system_refuses_is_a_message_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dlx");
    std::fs::write(&input, one_big_unit(128)).unwrap();
    let script = format!(
        "ulimit -v 50000 && exec '{}' dlx3 m1 --threads 2 < '{}' > /dev/null",
        env!("CARGO_BIN_EXE_xcover"),
        input.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("xcover: out of memory"), "{err}");
}

/// `merge --verify all` audits a part whose big unit came in `body` records: it passes on
/// the genuine part (the audit digests the unit's bodies as they come, as the shard
/// streamed them) and prints the plain run's bytes; a body edited under a valid chain
/// passes a merge without an audit, and the audit refuses it, printing nothing.
#[test]
fn verify_all_audits_a_unit_in_body_records() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.dlx");
    // 16 * 4097 + 4095 = 69,647 solutions, most in unit 0: body records under 4M.
    std::fs::write(&input, one_big_unit(16)).unwrap();
    let xcover = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xcover"))
            .args(args)
            .stdin(File::open(&input).unwrap())
            .output()
            .unwrap()
    };
    let plain = xcover(&["dlx3", "m1"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let part = dir.path().join("p0");
    let p = part.to_str().unwrap();
    let shard = xcover(&[
        "dlx3",
        "m1",
        "--shard",
        "0/1",
        "--output",
        p,
        "--max-memory",
        "4M",
    ]);
    assert_eq!(shard.status.code(), Some(0), "{}", stderr(&shard));
    let (magic, frames) = frames::frames(&std::fs::read(&part).unwrap());
    let bodies: Vec<usize> = (0..frames.len())
        .filter(|&i| frames[i].tag == "body")
        .collect();
    assert!(bodies.len() >= 2, "{} body records", bodies.len());

    let audited = xcover(&["dlx3", "merge", "--verify", "all", "--max-memory", "4M", p]);
    let e = stderr(&audited);
    assert_eq!(audited.status.code(), Some(0), "{e}");
    assert!(
        audited.stdout == plain.stdout,
        "audited merge's stdout differs"
    );
    assert!(e.contains("audit passed"), "{e}");

    // A forger's edit of the second body record: one option of one solution for another
    // of the same length, the chain made valid again.
    let mut forged: Vec<(&str, Vec<u8>)> = frames
        .iter()
        .filter(|f| f.tag != "end")
        .map(|f| (f.tag.as_str(), f.payload.clone()))
        .collect();
    let payload = &mut forged[bodies[1]].1;
    let text_at = payload.iter().position(|&c| c == b'\n').unwrap() + 1;
    let at = text_at
        + payload[text_at..]
            .windows(2)
            .position(|w| w == b"C1")
            .expect("a C1 in the bodies");
    payload[at + 1] = b'2';
    std::fs::write(&part, frames::forge(&magic, &forged, true)).unwrap();
    let unaudited = xcover(&["dlx3", "merge", p]);
    assert_eq!(unaudited.status.code(), Some(0), "{}", stderr(&unaudited));
    assert!(
        unaudited.stdout != plain.stdout,
        "the forgery changed nothing"
    );
    let refused = xcover(&["dlx3", "merge", "--verify", "all", "--max-memory", "4M", p]);
    let e = stderr(&refused);
    assert_eq!(refused.status.code(), Some(1), "{e}");
    assert!(
        refused.stdout.is_empty(),
        "an audit that fails prints nothing"
    );
    assert!(
        e.contains("unit 0") && e.contains("found other solutions"),
        "{e}"
    );
}

//! `xcover dlx3` stopped by SIGINT / SIGTERM ends like a `T` timeout: one line saying why,
//! then the closing reports of the search so far, and exit status 130 / 143. A `T` run
//! given the interrupted run's mem count stops at the same place: same reports, same
//! solution count, the same node count give or take the one node the timeout check
//! starts.
use std::io::Write;
use std::process::Output;
use std::time::{Duration, Instant};

mod common;
use common::{queens, send_signal, spawn_xcover};

/// Runs `xcover dlx3 args` on `input`; sends `signal` (e.g. `-INT`) after `delay`.
fn run(input: &str, args: &[&str], signal: Option<(&str, Duration)>) -> Output {
    let mut child = spawn_xcover(&[&["dlx3"], args].concat());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    if let Some((signal, delay)) = signal {
        std::thread::sleep(delay);
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before {delay:?}"
        );
        send_signal(&child, signal);
        let sent = Instant::now();
        let output = child.wait_with_output().unwrap();
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{:?}",
            sent.elapsed()
        );
        return output;
    }
    child.wait_with_output().unwrap()
}

/// The numbers of `Altogether A solutions, I+M mems, U updates, C cleansings, B bytes,
/// N nodes, ccost P%.`
fn altogether(stderr: &str) -> Vec<u64> {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("Altogether "))
        .unwrap_or_else(|| panic!("no statistics in {stderr}"));
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect()
}

/// Every run of digits replaced by `#`: the shape of a report.
fn shape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn sigint_and_sigterm_end_like_a_timeout_with_the_statistics_so_far() {
    let input = queens(16);
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        // v129: basics and the level profile.
        let stopped = run(
            &input,
            &["m0", "v129"],
            Some((signal, Duration::from_millis(700))),
        );
        let stderr = String::from_utf8(stopped.stderr).unwrap();
        assert_eq!(stopped.status.code(), Some(status), "{signal}: {stderr}");
        assert!(stopped.stdout.is_empty());
        assert!(stderr.contains("\nINTERRUPTED!\nProfile:\n"), "{stderr}");
        let so_far = altogether(&stderr);
        let (count, mems, nodes) = (so_far[0], so_far[2], so_far[6]);
        assert!(count > 0 && nodes > count, "{stderr}");

        let timeout = format!("T{mems}");
        let timed = run(&input, &["m0", "v129", &timeout], None);
        let timed_err = String::from_utf8(timed.stderr).unwrap();
        assert_eq!(timed.status.code(), Some(0), "{timed_err}");
        assert_eq!(
            shape(&stderr.replace("INTERRUPTED!", "TIMEOUT!")),
            shape(&timed_err),
            "same reports"
        );
        let at_timeout = altogether(&timed_err);
        assert_eq!(at_timeout[0], count, "solutions");
        assert_eq!(at_timeout[1], so_far[1], "input mems");
        assert!(
            at_timeout[2] >= mems && at_timeout[2] - mems < 100_000,
            "mems"
        );
        assert!(
            at_timeout[6] - nodes <= 1,
            "nodes {nodes} vs {}",
            at_timeout[6]
        );
    }
}

#[test]
fn a_signal_with_solutions_printed_keeps_stdout_whole() {
    // m1 on a long search: every solution line block printed so far is complete.
    let stopped = run(
        &queens(13),
        &["m1", "v1"],
        Some(("-INT", Duration::from_millis(400))),
    );
    let stderr = String::from_utf8(stopped.stderr).unwrap();
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    let stdout = String::from_utf8(stopped.stdout).unwrap();
    let count = altogether(&stderr)[0];
    let headers = stdout.lines().filter(|l| l.ends_with(':')).count() as u64;
    assert_eq!(headers, count, "one printed solution per counted solution");
    assert!(stdout.is_empty() || stdout.ends_with('\n'));
}

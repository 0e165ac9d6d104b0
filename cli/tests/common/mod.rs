//! Helpers shared by the `xcover` integration tests (each test file that needs them says
//! `mod common;`): the shared 17-clue list, a seeded random generator, the n-queens DLX3
//! input, a batch of relabeled grids and a runner of the `xcover` binary.
#![allow(dead_code)] // each test file uses a different subset

use std::io::Write;

use std::process::{Child, Command, Output, Stdio};

#[path = "../../../core/tests/support/data.rs"]
mod data;
#[allow(unused_imports)] // each test file uses a different subset
pub use data::*;

/// n queens for `xcover dlx3`: rows and columns primary, diagonals secondary (minutes of
/// search for n = 16).
pub fn queens(n: usize) -> String {
    let mut out = String::new();
    for j in 0..n {
        out.push_str(&format!("r{j} c{j} "));
    }
    out.push('|');
    for t in 0..2 * n - 1 {
        out.push_str(&format!(" a{t} b{t}"));
    }
    out.push('\n');
    for j in 0..n {
        for k in 0..n {
            out.push_str(&format!("r{j} c{k} a{} b{}\n", j + k, n - 1 - j + k));
        }
    }
    out
}

/// Langford pairs: place 1, 1, 2, 2, ..., n, n in 2n slots with k numbers between the
/// two k's (Knuth's 7.2.2.1; each solution and its reversal are found).
pub fn langford(n: usize) -> String {
    let mut s: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    s.extend((0..2 * n).map(|i| format!("s{i}")));
    let mut text = s.join(" ") + "\n";
    for k in 1..=n {
        for i in 0..2 * n - k - 1 {
            text += &format!("{k} s{i} s{}\n", i + k + 1);
        }
    }
    text
}

/// A batch file's text: `grid` (81 digits) and `count - 1` relabelings of it (at most 5):
/// the same scan work, other puzzles.
pub fn relabeled_batch(grid: &str, count: usize) -> String {
    const MAPS: [&[u8; 9]; 5] = [
        b"234567891",
        b"918273645",
        b"345678912",
        b"192837465",
        b"567891234",
    ];
    let mut text = format!("{grid}\n");
    for map in &MAPS[..count - 1] {
        text.extend(grid.bytes().map(|c| char::from(map[usize::from(c - b'1')])));
        text.push('\n');
    }
    text
}

/// Starts `xcover args` with stdin, stdout and stderr piped.
pub fn spawn_xcover(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xcover")
}

/// Sends `signal` (`-INT`, `-TERM`, `-HUP`) to `child` with kill(2).
pub fn send_signal(child: &Child, signal: &str) {
    let number = match signal {
        "-INT" => libc::SIGINT,
        "-TERM" => libc::SIGTERM,
        "-HUP" => libc::SIGHUP,
        other => panic!("no such signal here: {other}"),
    };
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits pid_t");
    // SAFETY: kill takes two integers and touches no memory. The child has not been
    // waited for (`child` is still borrowed), so `pid` is still its own.
    let sent = unsafe { libc::kill(pid, number) };
    assert_eq!(
        sent,
        0,
        "kill {signal}: {}",
        std::io::Error::last_os_error()
    );
}

/// Runs `xcover args` with `stdin` as its input and waits for it.
pub fn xcover(args: &[&str], stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xcover"));
    cmd.args(args);
    run_with_input(cmd, stdin.as_bytes())
}

/// Runs `cmd` with `input` on stdin and stdout and stderr piped, and waits for it (a
/// program that stops reading early is not an error here).
pub fn run_with_input(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xcover");
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// `xcover gridcheck args` with stdin empty and stdout and stderr piped, to run with
/// `.output()` or `.spawn()`.
pub fn gridcheck(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xcover"));
    cmd.arg("gridcheck")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// A finished run's stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

//! Helpers shared by the `xcover` integration tests (each test file that needs them says
//! `mod common;`): the shared 17-clue list, a seeded random generator, the n-queens DLX3
//! input, the grid and masks of the gridcheck tests, a batch of relabeled grids and a
//! runner of the `xcover` binary.
#![allow(dead_code)] // each test file uses a different subset

use std::io::Write;

use std::process::{Child, Command, Output, Stdio};

#[path = "../../../core/tests/support/data.rs"]
mod data;
#[allow(unused_imports)] // each test file uses a different subset
pub use data::*;

/// The `xcover` binary under test.
pub const XCOVER: &str = env!("CARGO_BIN_EXE_xcover");

/// A solution grid of the 18-clue fixtures (`fixtures/gridcheck/cases18.tsv`, the first
/// case).
pub const GRID18: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
/// A mask forcing 6 cells of [`GRID18`]: 82 puzzles of 18 clues in 54 chunks, about 0.1 s
/// of scanning in release.
pub const MASK6: &str = "...1..1..11..........1.....1*";
/// A mask forcing 12 cells of [`GRID18`]: 81 puzzles of 18 clues in a few chunks, found at
/// once.
pub const MASK12: &str = "...1..1..11..........1.....11..1...........11.1.....1*";

/// n queens for `xcover dlx3`, as Knuth's `queens-dlx n` writes it (rows and columns
/// primary, diagonals secondary; minutes of search for n = 16).
pub fn queens(n: usize) -> String {
    let mut text = String::new();
    xcover_core::testing::write_queens_dlx(n, &mut text).expect("a board of 1 to 32");
    text
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

/// Starts `xcover args` with stdin, stdout and stderr piped, and the signals the tests
/// send at their default dispositions.
pub fn spawn_xcover(args: &[&str]) -> Child {
    signals_at_default(&mut Command::new(XCOVER))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xcover")
}

/// Starts `cmd`'s child with SIGINT, SIGTERM and SIGHUP at their default dispositions.
///
/// A child inherits ignored signals, and xcover keeps an ignored signal ignored on
/// purpose (a background job of a script must not stop on Ctrl-C). `cargo test` started
/// as such a job would hand the children an ignored SIGINT, and the tests that send it
/// would wait for an exit that never comes; they test the handlers, so they reset them.
pub fn signals_at_default(cmd: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls are allowed: signal(2) is one, and nothing is allocated.
    unsafe {
        cmd.pre_exec(|| {
            for number in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                if libc::signal(number, libc::SIG_DFL) == libc::SIG_ERR {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        })
    }
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
    let mut cmd = Command::new(XCOVER);
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
    let mut cmd = Command::new(XCOVER);
    signals_at_default(&mut cmd)
        .arg("gridcheck")
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

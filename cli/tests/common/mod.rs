//! Helpers shared by the `xcover` integration tests (each test file that needs them says
//! `mod common;`): the shared 17-clue list, a seeded random generator, the n-queens DLX3
//! input and a runner of the `xcover` binary.
#![allow(dead_code)] // each test file uses a different subset

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// Lines of `../shared/data/sudoku17.txt` (beside the repository, never copied into it);
/// `None` (test skipped, reason printed) only when XCOVER_SKIP_SHARED=1 and the file is
/// missing.
pub fn sudoku17() -> Option<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku17.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            text.lines()
                .map(str::to_owned)
                .filter(|l| !l.trim().is_empty())
                .collect(),
        ),
        Err(err) => {
            if std::env::var("XCOVER_SKIP_SHARED").as_deref() == Ok("1") {
                eprintln!("skipped: {} missing ({err})", path.display());
                None
            } else {
                panic!(
                    "{} is needed by this test and is missing: {err}; it must sit in ../shared \
                     beside the repository (set XCOVER_SKIP_SHARED=1 to skip)",
                    path.display()
                );
            }
        }
    }
}

/// SplitMix64: fixed-seed choices, so a failure can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn fraction(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

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

/// Sends `signal` (`-INT`, `-TERM`) to `child` with kill(2).
pub fn send_signal(child: &Child, signal: &str) {
    let number = match signal {
        "-INT" => libc::SIGINT,
        "-TERM" => libc::SIGTERM,
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
    let mut child = spawn_xcover(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

//! The progress bar of `xcover gridcheck` on a terminal: stderr is a pseudo-terminal here,
//! and what the program draws on it is read back from the master side.
use std::fs::File;
use std::io::Read;
use std::os::fd::FromRawFd;
use std::process::{Command, Stdio};

mod common;
use common::{GRID18, XCOVER};

/// A new pseudo-terminal: (master, slave).
fn open_pty() -> (File, File) {
    // SAFETY: plain libc calls on a descriptor this function owns; ptsname_r writes at
    // most `name.len()` bytes into `name`, NUL-terminated on success.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt failed");
        assert_eq!(libc::grantpt(master), 0, "grantpt failed");
        assert_eq!(libc::unlockpt(master), 0, "unlockpt failed");
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_str()
            .unwrap()
            .to_owned();
        let winsize = libc::winsize {
            ws_row: 24,
            ws_col: 100,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        libc::ioctl(master, libc::TIOCSWINSZ, &winsize);
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .expect("open the pty slave");
        (File::from_raw_fd(master), slave)
    }
}

/// A progress state drawn on the screen: (chunks done, chunks, found, ETA).
fn states(screen: &str) -> Vec<(u32, u32, u32, String)> {
    screen
        .split("grid 1/1: ")
        .skip(1)
        .filter_map(|s| {
            // `D/N chunks, F found, R chunks/s, ETA E [`
            let (done, rest) = s.split_once('/')?;
            let (chunks, rest) = rest.split_once(" chunks, ")?;
            let (found, rest) = rest.split_once(" found, ")?;
            let (_rate, rest) = rest.split_once(" chunks/s, ETA ")?;
            let (eta, _) = rest.split_once(" [")?;
            Some((
                done.parse().ok()?,
                chunks.parse().ok()?,
                found.parse().ok()?,
                eta.to_owned(),
            ))
        })
        .collect()
}

#[test]
fn a_terminal_gets_chunks_found_rate_and_eta_then_the_line_is_cleared() {
    let (mut master, slave) = open_pty();
    // 4 forced givens, 17 clues: 60 chunks, one puzzle, under a second on two threads.
    let child = Command::new(XCOVER)
        .args([
            "gridcheck",
            "--clues",
            "17",
            "--threads",
            "2",
            "--mask",
            "...1..1..11*",
            GRID18,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("run xcover");
    // Read the terminal until the child closes it (EIO on Linux once no slave is open).
    let reader = std::thread::spawn(move || {
        let mut screen = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = master.read(&mut buf) {
            screen.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&screen).into_owned()
    });
    let out = child.wait_with_output().unwrap();
    let screen = reader.join().unwrap();
    assert!(out.status.success(), "{screen}");
    assert_eq!(out.stdout.len(), 82, "one puzzle on stdout");
    let states = states(&screen);
    // The summary's chunk count (the scan's own split of the grid: 60 here).
    let chunks: u32 = screen
        .split("; chunks ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no chunk count in the summary: {screen:?}"));
    assert!(chunks > 1, "{screen:?}");
    // Drawn before the first chunk ends (no estimate yet), then with figures.
    assert_eq!(
        states.first(),
        Some(&(0, chunks, 0, "?".to_owned())),
        "{screen:?}"
    );
    assert!(states.len() >= 2, "{screen:?}");
    for pair in states.windows(2) {
        assert!(pair[0].0 <= pair[1].0 && pair[0].2 <= pair[1].2, "{pair:?}");
    }
    for (done, chunks, found, eta) in &states[1..] {
        assert!(*done <= *chunks && *found <= 1, "{screen:?}");
        if *done > 0 {
            assert!(eta.ends_with('s') || eta.ends_with('m'), "ETA {eta:?}");
        }
    }
    assert!(states.iter().any(|s| s.0 > 0), "{screen:?}");
    // The bar is erased before the summary line, which ends the output.
    let summary = screen
        .rfind("xcover gridcheck: grid 1/1: UA ")
        .expect("summary");
    let bar_end = screen[..summary].rfind(" chunks/s, ETA ").expect("a bar");
    assert!(
        screen[bar_end..summary].contains("\x1b[2K"),
        "{:?}",
        &screen[bar_end..summary]
    );
    assert!(!screen[summary..].contains(" chunks/s"), "{screen:?}");
    assert!(
        screen[summary..].trim_end().ends_with("(2 threads)"),
        "{screen:?}"
    );
}

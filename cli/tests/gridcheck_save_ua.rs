//! `xcover gridcheck --save-ua F`: written on every path (a fresh run, and a `--resume`
//! of a journal whose grid is finished), and refused, with nothing written, when F is one
//! of the run's own files (its journal, its grids, where the part or the puzzles go),
//! however the path is spelled.
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
use common::{gridcheck, stderr, GRID18, MASK6};

const ARGS: [&str; 6] = ["--clues", "18", "--mask", MASK6, "--threads", "1"];

fn run(extra: &[&str]) -> Output {
    gridcheck(&ARGS).args(extra).arg(GRID18).output().unwrap()
}

fn ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
}

fn refused(out: &Output, says: &str) {
    let e = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(e.contains("--save-ua") && e.contains(says), "{e}");
    assert!(out.stdout.is_empty());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_ua_list_is_saved_on_a_resume_of_a_finished_journal() {
    let dir = tempfile::tempdir().unwrap();
    let (journal, fresh, resumed) = (
        dir.path().join("j"),
        dir.path().join("fresh.ua"),
        dir.path().join("resumed.ua"),
    );
    ok(&run(&["--checkpoint", s(&journal), "--save-ua", s(&fresh)]));
    let before = fs::read(&journal).unwrap();
    let out = run(&[
        "--checkpoint",
        s(&journal),
        "--resume",
        "--save-ua",
        s(&resumed),
    ]);
    ok(&out);
    assert!(
        stderr(&out).contains("finished in an earlier run"),
        "{}",
        stderr(&out)
    );
    assert!(!fs::read(&fresh).unwrap().is_empty());
    assert_eq!(fs::read(&resumed).unwrap(), fs::read(&fresh).unwrap());
    assert_eq!(fs::read(&journal).unwrap(), before, "the journal changed");
}

#[test]
fn the_runs_own_files_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    // Not created yet: the same name is refused, and nothing is created.
    let out = run(&["--checkpoint", s(&journal), "--save-ua", s(&journal)]);
    refused(&out, "journal");
    assert!(!journal.exists());
    // A finished journal, named directly, through `..` and through a hard link.
    ok(&run(&["--checkpoint", s(&journal)]));
    let before = fs::read(&journal).unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let dotted = sub.join("..").join("j");
    let linked = dir.path().join("link");
    fs::hard_link(&journal, &linked).unwrap();
    for alias in [&journal, &dotted, &linked] {
        for resume in [false, true] {
            let mut a = vec!["--checkpoint", s(&journal), "--save-ua", s(alias)];
            if resume {
                a.push("--resume");
            }
            refused(&run(&a), "journal");
            assert_eq!(fs::read(&journal).unwrap(), before, "{alias:?}");
        }
    }
    // Where the part goes (stdout redirected to a file), and the grids file.
    let part = dir.path().join("part");
    fs::write(&part, b"earlier").unwrap();
    let out = Command::new(common::XCOVER)
        .arg("gridcheck")
        .args(ARGS)
        .args(["--shard", "0/2", "--save-ua", s(&part), GRID18])
        .stdin(Stdio::null())
        .stdout(fs::OpenOptions::new().append(true).open(&part).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("standard output"), "{}", stderr(&out));
    assert_eq!(fs::read(&part).unwrap(), b"earlier");
    let grids = dir.path().join("grids");
    fs::write(&grids, format!("{GRID18}\n")).unwrap();
    let out = gridcheck(&ARGS)
        .args(["--file", s(&grids), "--save-ua", s(&grids)])
        .output()
        .unwrap();
    refused(&out, "--file");
    assert_eq!(fs::read(&grids).unwrap(), format!("{GRID18}\n").as_bytes());
}

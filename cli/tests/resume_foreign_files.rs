//! `--resume` never takes a file that is not one of ours: parts and journals are born
//! whole (their header on disk before they get their name), so a file of zero bytes, or
//! one holding only the start of a magic line (`x`, `xcover`), is someone else's. Given
//! to `xcover dlx3 --shard --output F --resume` or to `xcover gridcheck --checkpoint F
//! --resume`, it stays byte for byte and the run exits non-zero with a message naming it.
use std::path::Path;
use std::process::Output;

mod common;
use common::{gridcheck, queens, stderr, xcover, GRID18, MASK6};

/// What a user's file may hold that an earlier xcover once took for a cut header.
fn foreign_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("zeros", vec![0; 4096]),
        ("zeros, just under 64 KiB", vec![0; 65535]),
        ("x", b"x".to_vec()),
        ("xcover", b"xcover".to_vec()),
        ("a dlx3 magic prefix", b"xcover-dlx3-pa".to_vec()),
        ("a journal magic prefix", b"xcover-gridcheck-jou".to_vec()),
        ("a prefix and zeros", [&b"xcover"[..], &[0; 300]].concat()),
    ]
}

fn refused_untouched(out: &Output, path: &Path, bytes: &[u8], what: &str) {
    let e = stderr(out);
    assert!(
        !out.status.success() && out.status.code().is_some(),
        "{what}: {:?} {e}",
        out.status
    );
    assert!(e.contains(&path.display().to_string()), "{what}: {e}");
    assert!(e.contains("not an xcover"), "{what}: {e}");
    assert_eq!(
        std::fs::read(path).unwrap(),
        bytes,
        "{what}: the file changed"
    );
}

#[test]
fn a_dlx3_resume_leaves_other_files_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("part");
    let q = queens(6);
    for (what, bytes) in foreign_files() {
        std::fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        let out = xcover(
            &["dlx3", "--shard", "0/2", "--output", p, "--resume", "m0"],
            &q,
        );
        refused_untouched(&out, &path, &bytes, what);
    }
    // Nothing was left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_gridcheck_resume_leaves_other_files_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal");
    for (what, bytes) in foreign_files() {
        std::fs::write(&path, &bytes).unwrap();
        let out = gridcheck(&["--clues", "18", "--mask", MASK6, "--threads", "1"])
            .arg("--checkpoint")
            .arg(&path)
            .args(["--resume", GRID18])
            .output()
            .unwrap();
        refused_untouched(&out, &path, &bytes, what);
        assert!(out.stdout.is_empty(), "{what}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

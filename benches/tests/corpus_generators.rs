//! The generators in `xcover_benches` reproduce the conformance corpus inputs byte for byte
//! (the corpus lives in `../shared/conformance/dlx3` beside the repository, as in CI).

use std::fs;
use std::path::PathBuf;

use xcover_benches::{queens_diag01_dlx, queens_dlx, queens_k_dlx};

fn corpus() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/dlx3");
    assert!(
        dir.is_dir(),
        "conformance corpus not found at {}",
        dir.display()
    );
    dir
}

fn input(case: &str) -> String {
    let path = corpus().join(case).join("input.dlx");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every corpus input made by `queens-dlx N` equals `queens_dlx(N)`.
#[test]
fn queens_dlx_matches_every_corpus_input_it_made() {
    const HEADER: &str = "| This data produced by queens-dlx ";
    let mut checked = Vec::new();
    for entry in fs::read_dir(corpus()).expect("readable corpus") {
        let path = entry.expect("dir entry").path().join("input.dlx");
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let Some(rest) = text.strip_prefix(HEADER) else {
            continue;
        };
        let n: usize = rest[..rest.find('\n').expect("header line")]
            .parse()
            .expect("n");
        assert!(
            queens_dlx(n) == text,
            "queens_dlx({n}) differs from {}",
            path.display()
        );
        checked.push(n);
    }
    checked.sort_unstable();
    checked.dedup();
    // the corpus has queens-dlx inputs for n = 1, 3, 4, ..., 10
    assert_eq!(checked, vec![1, 3, 4, 5, 6, 7, 8, 9, 10]);
}

#[test]
fn queens_k_dlx_matches_the_corpus() {
    assert!(queens_k_dlx(5, 3) == input("queens5_k3_all01"));
    assert!(queens_k_dlx(6, 5) == input("queens6_k5_all01"));
    assert!(queens_k_dlx(6, 5) == input("queens6_k5_s1"));
}

#[test]
fn queens_diag01_dlx_matches_the_corpus() {
    assert!(queens_diag01_dlx(4) == input("queens4_diag01_primary"));
    assert!(queens_diag01_dlx(4) == input("queens4_diag01_v7"));
    assert!(queens_diag01_dlx(6) == input("queens6_diag01_primary"));
}

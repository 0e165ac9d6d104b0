//! Large journals for measuring `--resume` against journal size (ignored: run by hand).
//! Writes `journal-<n>` for n = 10^4, 10^5, 10^6 distinct 17-clue puzzle records of one
//! grid, the grid marked done, into `$XCOVER_SYNTH_DIR`:
//!
//! ```text
//! XCOVER_SYNTH_DIR=/tmp/synth cargo test -p xcover-cli --test gridcheck_journal_size -- --ignored
//! xcover gridcheck --clues 17 --threads 1 --checkpoint /tmp/synth/journal-1000000 --resume GRID
//! ```
mod common;
use common::GRID18;

#[test]
#[ignore = "writes large files; for measurements"]
fn write_large_journals() {
    let dir = std::env::var("XCOVER_SYNTH_DIR").expect("XCOVER_SYNTH_DIR names a directory");
    for count in [10_000, 100_000, 1_000_000] {
        let path = format!("{dir}/journal-{count}");
        let _ = std::fs::remove_file(&path);
        let args = [
            "--clues",
            "17",
            "--threads",
            "1",
            "--checkpoint",
            &path,
            GRID18,
        ];
        xcover_cli::gridcheck::synthetic::write_journal(&args, count, true).unwrap();
    }
}

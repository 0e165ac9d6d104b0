//! The README's Rust section, tried as a new user tries it: the program after
//! `<!-- readme-rust-std -->` is copied into a new cargo project that depends on this
//! crate by path, built offline, run, and its output compared with the block after
//! `<!-- readme-rust-std-output -->`.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fenced block after `marker`.
fn block_after<'t>(text: &'t str, marker: &str) -> &'t str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker}"));
    let rest = &text[start..];
    let open = rest.find("```").expect("a block after the marker");
    let body = &rest[open..];
    let body = &body[body.find('\n').expect("a fence line") + 1..];
    &body[..body.find("```").expect("a closing fence")]
}

#[test]
fn the_readme_program_builds_in_a_new_project_and_prints_what_the_readme_shows() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(crate_dir.join("../README.md")).unwrap();
    let program = block_after(&readme, "<!-- readme-rust-std -->");
    let expected = block_after(&readme, "<!-- readme-rust-std-output -->");
    assert!(
        program.lines().count() <= 7,
        "five lines in main, as the README says"
    );

    // Kept between runs (under the target directory) so that a rerun builds little.
    let project = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-rust-std");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"readme-rust-std\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\nxcover-solver = {{ path = {:?} }}\n\n\
         # A project of its own, not a member of the repository's workspace.\n[workspace]\n",
        crate_dir.canonicalize().unwrap()
    );
    std::fs::write(project.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(project.join("src/main.rs"), program).unwrap();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--offline", "--quiet"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", project.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the README program failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

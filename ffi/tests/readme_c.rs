//! The README's complete C program, as a new C user copies it: extracted from README.md
//! (the block after `<!-- readme-c-program -->`), compiled with
//! `-std=c99 -Wall -Wextra -Werror -pedantic` against `include/` and the release
//! libxcover.a, run, and its output compared with the block the README says it prints
//! (after `<!-- readme-c-output -->`). A README edit that breaks the program, or a library
//! change that changes its output, fails here.
//!
//! Needs `cc` and `make`. Set XCOVER_SKIP_C=1 to skip (prints why).
use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The body of the fenced block that follows `marker` in `text`.
fn block_after<'t>(text: &'t str, marker: &str) -> &'t str {
    let after = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker}"))..];
    let open = after
        .find("```")
        .expect("a fenced block follows the marker");
    let body = &after[open..];
    let body = &body[body.find('\n').expect("fence line ends") + 1..];
    &body[..body.find("\n```").expect("the fenced block is closed") + 1]
}

#[test]
fn readme_c_program_compiles_strictly_and_prints_what_the_readme_says() {
    if std::env::var_os("XCOVER_SKIP_C").is_some_and(|v| v == "1") {
        eprintln!("XCOVER_SKIP_C=1: the README's C program is not built");
        return;
    }
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let program = block_after(&readme, "<!-- readme-c-program -->");
    let expected = block_after(&readme, "<!-- readme-c-output -->");

    let status = Command::new("make")
        .arg("-C")
        .arg(repo().join("c-examples"))
        .arg("lib")
        .status()
        .expect("make runs");
    assert!(status.success(), "building libxcover.a failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_relative() { repo().join(t) } else { t })
        .unwrap_or_else(|| repo().join("target"));
    let lib = target.join("release/libxcover.a");

    let dir = std::env::temp_dir().join(format!("xcover-readme-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("app.c");
    let binary = dir.join("app");
    std::fs::write(&source, program).unwrap();
    let cc = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(repo().join("include"))
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .arg(&lib)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "the README's C program does not compile:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&binary).output().expect("the program runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(run.status.success(), "exit status {:?}", run.status);
    assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
}

//! `xcover help`, the subcommands' help, and the usage errors' exit statuses.
use std::process::Output;

mod common;
use common::xcover;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_help_flag_and_h_print_the_top_level_help() {
    let help = xcover(&["help"], "");
    assert_eq!(help.status.code(), Some(0), "{}", stderr(&help));
    assert!(stderr(&help).is_empty(), "{}", stderr(&help));
    let text = stdout(&help);
    for needle in [
        "Usage:",
        "xcover dlx3",
        "xcover gridcheck",
        "xcover sudoku",
        "xcover help",
    ] {
        assert!(text.contains(needle), "{needle} missing from {text}");
    }
    for flag in ["--help", "-h"] {
        let out = xcover(&[flag], "");
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert_eq!(stdout(&out), text, "{flag}");
    }
    // `help help` is the same help; no subcommand at all is a usage error.
    assert_eq!(stdout(&xcover(&["help", "help"], "")), text);
    let none = xcover(&[], "");
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(stderr(&none), text);
}

#[test]
fn help_of_a_subcommand_is_its_own_help() {
    for (topic, direct) in [
        (&["help", "dlx3"][..], &["dlx3", "--help"][..]),
        (&["help", "gridcheck"][..], &["gridcheck", "--help"][..]),
        (&["help", "sudoku"][..], &["sudoku", "--help"][..]),
        (
            &["help", "sudoku", "count"][..],
            &["sudoku", "count", "--help"][..],
        ),
        (&["--help", "dlx3"][..], &["dlx3", "--help"][..]),
    ] {
        let via_help = xcover(topic, "");
        let own = xcover(direct, "");
        assert_eq!(
            via_help.status.code(),
            Some(0),
            "{topic:?}: {}",
            stderr(&via_help)
        );
        assert_eq!(own.status.code(), Some(0), "{direct:?}");
        assert!(!stdout(&own).is_empty(), "{direct:?}");
        assert_eq!(stdout(&via_help), stdout(&own), "{topic:?}");
    }
    assert!(stdout(&xcover(&["help", "sudoku", "count"], "")).contains("--limit"));
    // The top-level help sends readers there for the exit statuses.
    for sub in ["dlx3", "gridcheck", "sudoku"] {
        let help = stdout(&xcover(&["help", sub], ""));
        assert!(help.contains("Exit status: 0 "), "{sub}: {help}");
        assert!(
            help.contains(" 2 usage error") || sub == "dlx3",
            "{sub}: {help}"
        );
    }
    let unknown = xcover(&["help", "bogus"], "");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).starts_with("xcover: unknown subcommand `bogus'"));
    let unknown = xcover(&["bogus"], "");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).starts_with("xcover: unknown subcommand `bogus'"));
}

#[test]
fn dlx3_help_lists_the_exports_the_input_format_and_the_exit_statuses() {
    let help = stdout(&xcover(&["dlx3", "--help"], ""));
    for needle in [
        "--export-c FILE",
        "--export-rust FILE",
        "--name ID",
        "--max-memory SIZE",
        "--threads N",
        "--shard I/N",
        "--resume",
        "merge PART...",
        "--verify K|all",
        "--verify-seed S",
        "Input (Knuth's format)",
        "m:n|name",
        "name:c",
        "Exit status: 0 done; 102 input error",
        "255 usage error",
    ] {
        assert!(help.contains(needle), "`{needle}' missing from:\n{help}");
    }
    // The help's example is a valid input: two solutions (A and B sharing x's color, or
    // the option with both).
    let example: String = help
        .split("Example:\n")
        .nth(1)
        .expect("an example")
        .lines()
        .take_while(|l| l.starts_with("    "))
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    let run = xcover(&["dlx3", "m1"], &example);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("Altogether 2 solutions"),
        "{}",
        stderr(&run)
    );
    // Knuth's handling is untouched: `--help` among other arguments is a bad argument.
    let mixed = xcover(&["dlx3", "m1", "--help"], "");
    assert_eq!(mixed.status.code(), Some(255));
    assert!(stdout(&mixed).is_empty());
    assert!(stderr(&mixed).starts_with("Usage: xcover dlx3 [v<n>]"));
}

#[test]
fn export_usage_errors_exit_255_like_dlx3() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.dlx");
    std::fs::write(&file, "A B\nA\nB\n").unwrap();
    let file = file.to_str().unwrap();
    for args in [
        &["dlx3", "--export-c"][..],
        &["dlx3", "--export-rust"][..],
        &["dlx3", "--export-c", file, "--name"][..],
        &["dlx3", "--export-c", file, "m1"][..],
    ] {
        let out = xcover(args, "");
        assert_eq!(out.status.code(), Some(255), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(
            stderr(&out).starts_with("Usage: xcover dlx3 --export-c|--export-rust FILE"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let ok = xcover(&["dlx3", "--export-c", file, "--name", "m", "s3"], "");
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("m_image"));
    // A file that cannot be read is an I/O error, not a usage error.
    let missing = xcover(&["dlx3", "--export-c", "/nonexistent/m.dlx"], "");
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn a_subcommands_words_reach_it_as_given() {
    // A leading `--` is dlx3's to read, and Knuth's loop refuses it.
    let dashes = xcover(&["dlx3", "--", "m1"], "A\nA\n");
    assert_eq!(dashes.status.code(), Some(255), "{}", stderr(&dashes));
    assert!(stderr(&dashes).starts_with("Usage: xcover dlx3 [v<n>]"));
    // The top level's flags and options are clap's: an unknown one is a usage error.
    let bad = xcover(&["--bogus"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--bogus"), "{}", stderr(&bad));
    let version = xcover(&["-V"], "");
    assert_eq!(version.status.code(), Some(0));
    assert!(stdout(&version).starts_with("xcover "));
    // `--help` before a subcommand's words is the help of that subcommand.
    assert_eq!(
        stdout(&xcover(&["--help", "sudoku", "count"], "")),
        stdout(&xcover(&["sudoku", "count", "--help"], ""))
    );
}

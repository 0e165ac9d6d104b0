//! A merge that never redoes the search (issue 39, finding 10): with `m<n>` over 8 the
//! parts keep counts only; `merge --plan` turns them into each unit's first solution
//! number, a second pass of the shards (`--second-pass PLAN`) prints their own units, and
//! the merge only puts the pieces together: the plain run's bytes, for a few percent of
//! the search's CPU.
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

use common::{queens, stderr};

/// Runs `xcover args` (stdin from `input`, or none) and returns its output and its CPU
/// seconds (user + system, from wait4).
#[allow(clippy::zombie_processes)] // the child is waited for with wait4, for its rusage
fn timed(args: &[&str], input: Option<&Path>) -> (Output, f64) {
    let (dir, out, err) = {
        let d = tempfile::tempdir().unwrap();
        let (o, e) = (d.path().join("out"), d.path().join("err"));
        (d, o, e)
    };
    let stdin = input.map_or_else(Stdio::null, |p| File::open(p).unwrap().into());
    let child = Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(stdin)
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes one int and one rusage on this frame; the child is ours and
    // waited for nowhere else.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    use std::os::unix::process::ExitStatusExt as _;
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    };
    drop(dir);
    (output, cpu)
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// Both passes of `n` shards of `args` on `input` in `dir`: the parts, the plan, the
/// second-pass parts, and the CPU seconds of the first pass.
fn two_passes(
    dir: &Path,
    input: &Path,
    args: &[&str],
    n: u64,
) -> (Vec<PathBuf>, Vec<PathBuf>, f64) {
    let mut search = 0.0;
    let mut parts = Vec::new();
    for i in 0..n {
        let p = dir.join(format!("part-{i}"));
        let shard = format!("{i}/{n}");
        let a = [
            &["dlx3", "--shard", &shard, "--output", p.to_str().unwrap()][..],
            args,
        ]
        .concat();
        let (o, cpu) = timed(&a, Some(input));
        ok(&o);
        search += cpu;
        parts.push(p);
    }
    let plan = dir.join("plan");
    let mut a = vec!["dlx3", "merge", "--plan", plan.to_str().unwrap()];
    a.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let (o, _) = timed(&a, None);
    ok(&o);
    assert!(
        stderr(&o).contains("hold a printed solution"),
        "{}",
        stderr(&o)
    );
    let mut prints = Vec::new();
    for i in 0..n {
        let p = dir.join(format!("print-{i}"));
        let shard = format!("{i}/{n}");
        let a = [
            &[
                "dlx3",
                "--shard",
                &shard,
                "--second-pass",
                plan.to_str().unwrap(),
            ][..],
            &["--output", p.to_str().unwrap()],
            args,
        ]
        .concat();
        let (o, _) = timed(&a, Some(input));
        ok(&o);
        prints.push(p);
    }
    (parts, prints, search)
}

fn merge(files: &[&PathBuf]) -> (Output, f64) {
    let mut a = vec!["dlx3", "merge"];
    a.extend(files.iter().map(|p| p.to_str().unwrap()));
    timed(&a, None)
}

#[test]
fn the_merge_of_two_passes_prints_the_plain_run_for_a_few_percent_of_its_cpu() {
    let dir = tempfile::tempdir().unwrap();
    // Every 9th solution printed: most units hold one, and the text is large; every
    // 1000th, with progress reports among them, on a search ten times as long.
    for (n, args) in [(13, &["m9"][..]), (14, &["m1000", "v1", "d200000000"])] {
        let input = dir.path().join(format!("queens{n}.dlx"));
        std::fs::write(&input, queens(n)).unwrap();
        let (plain, _) = timed(&[&["dlx3"][..], args].concat(), Some(&input));
        ok(&plain);
        let run = dir.path().join(args[0]);
        std::fs::create_dir(&run).unwrap();
        let (parts, prints, search) = two_passes(&run, &input, args, 3);
        eprintln!("{args:?}: search {search:.3} s of CPU");
        let all: Vec<&PathBuf> = parts.iter().chain(&prints).collect();
        let (merged, cpu) = merge(&all);
        ok(&merged);
        assert!(
            merged.stdout == plain.stdout,
            "{args:?}: merged stdout differs"
        );
        assert_eq!(stderr(&merged), stderr(&plain), "{args:?}");
        // The merge explores nothing: a few percent of the search (which the merge of
        // counts-only parts alone redoes for every unit holding a printed solution).
        // With m9 the solutions' text is most of the merge's work, and the search of
        // 13 queens is short: its share is only measured on the longer search.
        assert!(
            n == 13 || cpu <= 0.05 * search,
            "{args:?}: the merge took {cpu:.3} s of CPU, the search {search:.3} s"
        );
    }
}

#[test]
fn second_pass_parts_must_be_the_runs_and_all_there() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dlx");
    std::fs::write(&input, queens(9)).unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let (parts, prints, _) = two_passes(&a, &input, &["m10"], 2);
    let (_, other, _) = two_passes(&b, &input, &["m11"], 2);
    // One missing; one of another run (another spacing); one given twice.
    let refused = |files: Vec<&PathBuf>, says: &str| {
        let (o, _) = merge(&files);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).contains(says),
            "wanted {says:?} in {}",
            stderr(&o)
        );
    };
    refused(
        vec![&parts[0], &parts[1], &prints[0]],
        "shard 1/2 is missing",
    );
    refused(
        vec![&parts[0], &parts[1], &prints[0], &other[1]],
        "another run",
    );
    refused(
        vec![&parts[0], &parts[1], &prints[0], &prints[1], &prints[1]],
        "again",
    );
    // A second pass with another run's plan is refused before it explores.
    let shard = ["dlx3", "--shard", "0/2", "--second-pass"];
    let plan_b = b.join("plan");
    let out = dir.path().join("x");
    let args = [
        &shard[..],
        &[
            plan_b.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "m10",
        ],
    ]
    .concat();
    let (o, _) = timed(&args, Some(&input));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("another run"), "{}", stderr(&o));
}

/// `merge --verify` audits the first pass's parts, alone: with second-pass parts or
/// `--plan` it is refused with a message that says so, before any output; on the first
/// pass's parts it passes and prints the plain run's bytes.
#[test]
fn verify_is_for_the_first_pass_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dlx");
    std::fs::write(&input, queens(8)).unwrap();
    let (parts, prints, _) = two_passes(dir.path(), &input, &["m10"], 2);
    let audit = |extra: &[&str], files: &[&PathBuf]| {
        let mut a = vec!["dlx3", "merge", "--verify", "all"];
        a.extend_from_slice(extra);
        a.extend(files.iter().map(|p| p.to_str().unwrap()));
        timed(&a, None).0
    };
    let plan = dir.path().join("plan2");
    for o in [
        audit(&[], &[&parts[0], &parts[1], &prints[0], &prints[1]]),
        audit(&["--plan", plan.to_str().unwrap()], &[&parts[0], &parts[1]]),
    ] {
        assert_eq!(o.status.code(), Some(255), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).contains("--verify audits a merge of the first pass's parts alone"),
            "{}",
            stderr(&o)
        );
    }
    assert!(!plan.exists(), "a refused --plan wrote its plan");
    let o = audit(&[], &[&parts[0], &parts[1]]);
    ok(&o);
    let (plain, _) = timed(&["dlx3", "m10"], Some(&input));
    ok(&plain);
    assert!(
        o.stdout == plain.stdout,
        "the audited merge's stdout differs"
    );
    assert!(stderr(&o).contains("audit passed"), "{}", stderr(&o));
}

//! `xcover gridcheck` as a command: output format, batch mode, errors (never a panic).
use std::process::Output;

mod common;

/// Runs `xcover gridcheck args` on `stdin`.
fn xcover(args: &[&str], stdin: &str) -> Output {
    let args: Vec<&str> = ["gridcheck"].iter().chain(args).copied().collect();
    common::xcover(&args, stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Fields of the first case of the reference tsv: (grid, puzzle17, cluemask, puzzles).
fn case() -> (String, String, String, Vec<String>) {
    let tsv = include_str!("fixtures/gridcheck/cases18.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let f: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| f[header.iter().position(|h| *h == name).unwrap()].to_owned();
    let puzzles = col("puzzles").split(';').map(str::to_owned).collect();
    (col("grid"), col("puzzle17"), col("cluemask"), puzzles)
}

fn assert_error(out: &Output, needle: &str) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "expected failure, stderr: {err}");
    assert!(err.contains(needle), "stderr `{err}` lacks `{needle}`");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn masked_scan_prints_the_reference_set_sorted() {
    let (grid, _, mask, mut expected) = case();
    let out = xcover(
        &[
            "--clues",
            "18",
            "--mask",
            &mask,
            "--ua-random",
            "50",
            "--threads",
            "2",
            &grid,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    expected.sort();
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines, expected);
    let err = text(&out.stderr);
    assert!(
        err.contains("UA ") && err.contains("clique") && err.contains("candidates checked"),
        "{err}"
    );
    assert!(err.contains(&format!("found {}", expected.len())), "{err}");
}

/// `--threads` as in every subcommand: one thread by default, `0` one per available core,
/// the same puzzles whatever the count; a bad count is a usage error.
#[test]
fn threads_default_to_one_and_zero_means_every_core() {
    let (grid, _, mask, _) = case();
    let scan = |threads: &[&str]| {
        let args = [
            &["--clues", "18", "--mask", &mask, "--ua-random", "50"],
            threads,
            &[&grid],
        ];
        let out = xcover(&args.concat(), "");
        assert!(out.status.success(), "{threads:?}: {}", text(&out.stderr));
        (out.stdout, text(&out.stderr))
    };
    let (plain, plain_err) = scan(&[]);
    assert!(plain_err.contains("(1 thread)"), "{plain_err}");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let (every_core, every_core_err) = scan(&["--threads", "0"]);
    let wanted = if cores == 1 {
        "(1 thread)".to_owned()
    } else {
        format!("({cores} threads)")
    };
    assert!(every_core_err.contains(&wanted), "{every_core_err}");
    assert_eq!(plain, every_core);
    assert_eq!(plain, scan(&["--threads", "3"]).0);
    for bad in ["x", "-1", "4097"] {
        let out = xcover(&[&format!("--threads={bad}"), &grid], "");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("wants a number of threads"),
            "{bad}"
        );
    }
}

/// On two threads or more a batch scans grids at once (as many as threads, each on its
/// share of them): the puzzles, in batch order, and every figure of the summary lines (all
/// but the seconds), in batch order too, are those of one thread, grid by grid. Five
/// threads over three grids give two lanes two threads and one lane one.
#[test]
fn a_batch_on_two_threads_prints_what_one_thread_prints() {
    let tsv = include_str!("fixtures/gridcheck/cases18.tsv");
    let header: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let grids: Vec<&str> = tsv
        .lines()
        .skip(1)
        .map(|line| line.split('\t').nth(column("grid")).unwrap())
        .collect();
    assert!(grids.len() >= 2, "the fixture has two cases or more");
    let (_, _, mask, _) = case();
    let input = format!("{}\n{}\n", grids.join("\n"), grids[0]);
    let scan = |threads: &str| {
        let args = [
            "--clues",
            "18",
            "--mask",
            &mask,
            "--ua-random",
            "50",
            "--threads",
            threads,
        ];
        let out = xcover(&args, &input);
        assert!(out.status.success(), "{threads}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        let figures: Vec<String> = stderr
            .lines()
            .map(|line| line.split("seconds:").next().unwrap().to_owned())
            .collect();
        let threads: Vec<String> = stderr
            .lines()
            .map(|line| {
                // `seconds: UA 0.1, prepare 0.0, scan 0.2 (2 threads)[; a note]`
                let tail = line.split("seconds:").nth(1).unwrap();
                let inside = tail.split('(').nth(1).unwrap();
                inside.split(')').next().unwrap().to_owned()
            })
            .collect();
        (text(&out.stdout), figures, threads)
    };
    let (one, one_figures, _) = scan("1");
    assert_eq!(one_figures.len(), grids.len() + 1, "{one_figures:?}");
    assert!(!one.is_empty(), "the first grid has puzzles");
    for (threads, each) in [
        ("2", &["1 thread"; 3][..]),
        ("3", &["1 thread"; 3]),
        ("5", &["2 threads", "2 threads", "1 thread"]),
    ] {
        let (out, figures, lanes) = scan(threads);
        assert_eq!(out, one, "{threads} threads");
        assert_eq!(figures, one_figures, "{threads} threads");
        // Lanes take grids in turn, so which lane scans which grid varies: the counts
        // are compared as a multiset.
        let (mut lanes, mut each) = (lanes, each.to_vec());
        lanes.sort_unstable();
        each.sort_unstable();
        assert_eq!(lanes, each, "{threads} threads");
    }
}

/// `--threads 2` means two threads at work: while a batch runs, the process never has more
/// than the main thread (which waits) and two lanes, each scanning its grid on its own
/// thread (a lone worker runs where it is called). Read from /proc/PID/task every
/// millisecond; a thread that has done its work but not yet ended is seen for far less
/// than the 50 ms allowed.
#[cfg(target_os = "linux")]
#[test]
fn a_batch_on_two_threads_never_runs_a_third() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    const ALLOWED: Duration = Duration::from_millis(50);
    let dir = tempfile::tempdir().unwrap();
    let batch = dir.path().join("batch.txt");
    std::fs::write(&batch, common::relabeled_batch(common::GRID18, 3)).unwrap();
    let mut child = Command::new(common::XCOVER)
        .args(["gridcheck", "--clues", "18", "--mask", "...1..1..11*"])
        .args(["--ua-random", "3000", "--threads", "2", "--file"])
        .arg(&batch)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xcover");
    let tasks = format!("/proc/{}/task", child.id());
    // The most threads seen at once, and the longest time more than three were seen.
    let (mut most, mut over_since, mut longest_over) = (0, None, Duration::ZERO);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // The directory is gone between the exit and the wait.
        if let Ok(entries) = std::fs::read_dir(&tasks) {
            let now = (entries.count(), Instant::now());
            most = most.max(now.0);
            if now.0 > 3 {
                let since = *over_since.get_or_insert(now.1);
                longest_over = longest_over.max(now.1 - since);
            } else {
                over_since = None;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(status.success());
    assert!(
        most >= 3,
        "the main thread and two workers were seen at once"
    );
    assert!(
        longest_over < ALLOWED,
        "{most} threads at once, more than three for {longest_over:?}"
    );
}

#[test]
fn batch_mode_prefixes_grid_and_reads_stdin() {
    let (grid, p17, _, _) = case();
    // Force all 17 clues: the first grid yields exactly the 17; a relabelled grid (digits
    // swapped 1<->2) yields its relabelled 17.
    let mask: String = p17
        .chars()
        .map(|c| if c == '0' { '.' } else { '1' })
        .collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                other => other,
            })
            .collect()
    };
    let input = format!("{grid}\n\n{}\n", swap(&grid));
    let out = xcover(
        &["--clues", "17", "--mask", &mask, "--ua-random", "0"],
        &input,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = format!("{grid}\t{p17}\n{}\t{}\n", swap(&grid), swap(&p17));
    assert_eq!(text(&out.stdout), expected);
}

#[test]
fn save_and_load_ua_agree() {
    let (grid, _, mask, _) = case();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.ua");
    let path = path.to_str().unwrap();
    let first = xcover(
        &[
            "-n",
            "18",
            "--mask",
            &mask,
            "--ua-random",
            "20",
            "--save-ua",
            path,
            &grid,
        ],
        "",
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    let second = xcover(&["-n", "18", "--mask", &mask, "--ua-file", path, &grid], "");
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(first.stdout, second.stdout);
    assert!(text(&second.stderr).contains("(loaded)"));
    // A wrong UA (a whole row) appended to the file is refused.
    let mut content = std::fs::read_to_string(path).unwrap();
    content.push_str("{11,12,13,14,15,16,17,18,19}\n");
    std::fs::write(path, content).unwrap();
    let third = xcover(&["-n", "18", "--mask", &mask, "--ua-file", path, &grid], "");
    assert_error(&third, "not an unavoidable set");
}

#[test]
fn bad_input_is_a_clear_error() {
    let (grid, _, _, _) = case();
    let mut bad_grid = grid.clone();
    bad_grid.replace_range(0..2, &grid[1..2].repeat(2));
    assert_error(&xcover(&[&bad_grid], ""), "bad grid");
    assert_error(&xcover(&["12345"], ""), "bad grid");
    assert_error(&xcover(&[], "not a grid\n"), "stdin line 1");
    assert_error(&xcover(&[], ""), "no grid");
    assert_error(&xcover(&["--clues", "0", &grid], ""), "out of range");
    assert_error(&xcover(&["--clues", "82", &grid], ""), "out of range");
    assert_error(
        &xcover(&["--mask", &"1".repeat(82), &grid], ""),
        "bad --mask: 82 characters; a mask is 81 characters",
    );
    assert_error(
        &xcover(&["--clues", "3", "--mask", "1111*", &grid], ""),
        "forces 4 givens",
    );
    assert_error(
        &xcover(&["--file", "/nonexistent/grids.txt"], ""),
        "opening",
    );
    assert_error(
        &xcover(&["--ua-file", "/nonexistent/ua.txt", &grid], ""),
        "reading",
    );
    assert_error(
        &xcover(&["--ua-file", "x", &grid, &grid], ""),
        "exactly one grid",
    );
    let usage = xcover(&["--bogus"], "");
    assert_eq!(usage.status.code(), Some(2));
    let help = xcover(&["--help"], "");
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("--stop-at-first"));
}

#[test]
fn a_mask_typo_is_an_error_not_a_whole_grid_scan() {
    let (grid, _, mask, _) = case();
    let started = std::time::Instant::now();
    for (bad, message) in [
        ("abc", "bad --mask: character 1 is `a`"),
        ("1111", "bad --mask: 4 characters; a mask is 81 characters"),
        (&mask[..80], "bad --mask: 80 characters"),
        ("1.1*0", "bad --mask: character 4 is `*`"),
    ] {
        let out = xcover(&["--clues", "18", "--mask", bad, &grid], "");
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert_error(&out, message);
        assert!(out.stdout.is_empty(), "{bad}");
        assert!(!text(&out.stderr).contains("UA "), "{bad}: a scan started");
    }
    let help = xcover(&["--help"], "");
    assert!(text(&help.stdout).contains("end a shorter mask with `*`"));
    // Refused before any UA generation: far below the 86 s of a whole-grid scan.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn a_short_mask_ending_in_a_star_leaves_the_rest_free() {
    let (grid, _, mask, _) = case();
    let short = format!("{}*", mask.trim_end_matches('.'));
    assert!(short.len() < 81);
    let args = |m: &str| {
        xcover(
            &["--clues", "18", "--mask", m, "--ua-random", "50", &grid],
            "",
        )
    };
    let full = args(&mask);
    let starred = args(&short);
    assert!(full.status.success(), "{}", text(&full.stderr));
    assert!(starred.status.success(), "{}", text(&starred.stderr));
    assert!(!full.stdout.is_empty());
    assert_eq!(full.stdout, starred.stdout);
}

/// Without a terminal (here a pipe) stderr gets the summary line and nothing else: no
/// progress bar, no carriage return, no escape sequence.
#[test]
fn no_progress_bar_without_a_terminal() {
    let (grid, _, mask, _) = case();
    let out = xcover(
        &["--clues", "18", "--mask", &mask, "--ua-random", "50", &grid],
        "",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("xcover gridcheck: grid 1/1: UA "), "{err}");
    // `(2 threads)`, or `(1 thread)` on a machine of one core.
    assert!(
        err.ends_with(" threads)\n") || err.ends_with(" (1 thread)\n"),
        "{err}"
    );
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
}

/// The UA count of a run's summary (`UA N (generated)`).
fn ua_generated(args: &[&str]) -> usize {
    let out = xcover(args, "");
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let rest = &err[err.find("UA ").expect("a UA figure") + 3..];
    rest[..rest.find(' ').unwrap()].parse().unwrap()
}

/// Without `--ua-random`, a 16-clue (or shorter) scan of a whole grid with 9 or more 4-cell
/// UA generates 400 random pseudo-puzzles without the 4-digit subsets, and one of a grid
/// with fewer the 4-digit subsets and 1000 (`ua::budget`): the list of the rich grid is
/// neither that of `--ua-random 1000` nor that of `--ua-random 400` (both with the
/// subsets), and the poor grid's is that of 1000. (`--clues 8`: generation and preparation
/// only.)
#[test]
fn the_default_ua_recipe_follows_the_grids_rectangles() {
    // 13 unavoidable rectangles, a short scan.
    let rich = "128465973534789261697231854271354698359876412486912735813647529965128347742593186";
    // 4, a long one.
    let poor = "216735498975684231843219675439572816527168349681493752192847563354926187768351924";
    let run = |grid: &str, random: Option<&str>| {
        let mut args = vec!["--clues", "8", "--threads", "1"];
        if let Some(r) = random {
            args.extend(["--ua-random", r]);
        }
        args.push(grid);
        ua_generated(&args)
    };
    let rich_default = run(rich, None);
    assert_ne!(rich_default, run(rich, Some("1000")));
    assert_ne!(rich_default, run(rich, Some("400")));
    assert_eq!(run(poor, None), run(poor, Some("1000")));
}

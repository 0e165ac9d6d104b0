//! The crate against Knuth's recorded runs in `../shared/conformance/dlx3`: for every case,
//! the same counters (solutions, mems, updates, cleansings, nodes), the same solutions in
//! the same order (those Knuth printed, compared option by option as sets of items), the
//! same input errors (message, position, line); the same again on several threads and
//! with the problem rebuilt in code under long names.
use std::path::{Path, PathBuf};

use xcover_solver::{Entry, ErrorKind, Problem, Solver, Stats};

/// Cases of more mems are not listed, nor run again on threads or rebuilt.
const HEAVY_MEMS: u64 = 50_000_000;

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/dlx3");
    dir.is_dir().then_some(dir)
}

/// What a case's arguments ask of the search.
#[derive(Default, Debug)]
struct Args {
    max_solutions: Option<u64>,
    timeout: Option<u64>,
    seed: Option<i32>,
    /// Knuth prints solution `n` iff `spacing != 0` and `spacing` divides `n`.
    spacing: u64,
}

/// The case's arguments, or `None` for those this crate has no equivalent of (a solution
/// limit of 0 or less, which Knuth's program takes as 1, or an argument that is not a
/// plain number).
fn args(text: &str) -> Option<Args> {
    let mut a = Args::default();
    // Knuth's loop: the first occurrence wins, so apply them last to first.
    for arg in text.split_whitespace().rev() {
        let (flag, rest) = arg.split_at(1);
        let number = || rest.parse::<i64>().ok();
        match flag {
            "t" => a.max_solutions = Some(u64::try_from(number()?).ok().filter(|&n| n > 0)?),
            "T" => a.timeout = Some(number()? as u64),
            "s" => a.seed = Some(i32::try_from(number()?).ok()?),
            "m" => a.spacing = u64::try_from(number()?).ok()?,
            "v" | "d" | "c" | "C" | "l" => {
                number()?;
            }
            "S" => {}
            _ => return None,
        }
    }
    Some(a)
}

fn solver(problem: &Problem, a: &Args) -> Solver {
    let mut s = problem.solver();
    if let Some(n) = a.max_solutions {
        s = s.max_solutions(n);
    }
    if let Some(t) = a.timeout {
        s = s.timeout_mems(t);
    }
    if let Some(seed) = a.seed {
        s = s.seed(seed);
    }
    s
}

/// Knuth's `Altogether C solutions, I+M mems, U updates, L cleansings, B bytes, N nodes`.
fn altogether(stderr: &str) -> Option<[u64; 6]> {
    let line = stderr.lines().find(|l| l.starts_with("Altogether "))?;
    let nums: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .filter_map(|w| w.parse().ok())
        .collect();
    // C, I, M, U, L, B, N, ccost
    Some([nums[0], nums[1], nums[2], nums[3], nums[4], nums[6]])
}

/// An option as a sorted list of its tokens (`name` or `name:c`).
type OptionSet = Vec<String>;

/// The solutions Knuth printed: (number, options without null moves).
fn printed(stdout: &str) -> Vec<(u64, Vec<OptionSet>)> {
    let mut out: Vec<(u64, Vec<OptionSet>)> = Vec::new();
    for line in stdout.lines() {
        if let Some(n) = line.strip_suffix(':').and_then(|n| n.parse().ok()) {
            out.push((n, Vec::new()));
        } else if let Some(last) = out.last_mut() {
            let body = line.rsplit_once(" (").map_or(line, |(b, _)| b).trim();
            if body.starts_with("null ") {
                continue;
            }
            let mut tokens: OptionSet = body.split_whitespace().map(String::from).collect();
            tokens.sort();
            last.1.push(tokens);
        }
    }
    out
}

fn mine(problem: &Problem, solver: &Solver) -> (Vec<Vec<usize>>, Vec<Vec<OptionSet>>, Stats) {
    let mut solutions = solver.solutions();
    let mut indices = Vec::new();
    let mut sets = Vec::new();
    for s in &mut solutions {
        let s = s.expect("no error");
        indices.push(s.options().to_vec());
        sets.push(
            s.iter()
                .map(|o| {
                    let mut t: OptionSet =
                        o.to_string().split_whitespace().map(String::from).collect();
                    t.sort();
                    t
                })
                .collect(),
        );
    }
    let _ = problem;
    (indices, sets, *solutions.stats().expect("ended"))
}

/// The problem rebuilt in code with long names (each item's name repeated past 8 bytes).
fn rebuilt(problem: &Problem) -> Problem {
    let long = |name: &str| format!("{name} / a name longer than Knuth allows");
    let mut b = Problem::builder();
    for item in problem.items() {
        b = match (item.is_secondary(), item.bounds()) {
            (true, _) => b.secondary(long(item.name())),
            (false, (lo, hi)) => b.primary_with_bounds(long(item.name()), lo, hi),
        };
    }
    for j in 0..problem.option_count() {
        let option = problem.option(j).unwrap();
        b = b.option(option.items().map(|(name, color)| match color {
            Some(c) => Entry::colored(long(name), c),
            None => Entry::new(long(name)),
        }));
    }
    b.build().expect("a parsed problem builds")
}

fn counters(s: &Stats) -> [u64; 5] {
    [s.solutions, s.mems, s.updates, s.cleansings, s.nodes]
}

#[test]
fn every_case_gives_knuths_solutions_counters_and_errors() {
    let Some(dir) = corpus() else {
        eprintln!("skipped: no ../shared/conformance/dlx3 beside the repository");
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("input.dlx").is_file())
        .collect();
    cases.sort();
    let (mut searched, mut refused, mut listed) = (0, 0, 0);
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let read = |f: &str| std::fs::read(case.join(f)).unwrap();
        let exit: i32 = String::from_utf8_lossy(&read("exit"))
            .trim()
            .parse()
            .unwrap();
        let Some(a) = args(&String::from_utf8_lossy(&read("args"))) else {
            continue;
        };
        let stderr = String::from_utf8_lossy(&read("stderr")).into_owned();
        let parsed = Problem::parse_bytes(&read("input.dlx"));
        if exit == 102 {
            // Knuth's report: `MESSAGE!` then `POS: LINE`.
            let err = parsed.expect_err(&name);
            let mut lines = stderr.lines().skip_while(|l| !l.ends_with('!'));
            let message = lines.next().unwrap();
            assert_eq!(format!("{}!", err.message()), message, "{name}");
            let (pos, text) = lines.next().unwrap().split_once(": ").unwrap();
            assert_eq!(err.position(), Some(pos.parse().unwrap()), "{name}");
            assert_eq!(err.line_text(), Some(text), "{name}");
            assert!(err.line().is_some(), "{name}");
            refused += 1;
            continue;
        }
        if exit != 0 && exit != 252 {
            continue; // usage errors: no equivalent here
        }
        let problem = parsed.unwrap_or_else(|e| panic!("{name}: {e}"));
        let solver = solver(&problem, &a);
        if exit == 252 {
            let err = solver.run().expect_err(&name);
            assert_eq!(err.kind(), ErrorKind::TooManyLevels, "{name}");
            continue;
        }
        let stats = solver.run().unwrap();
        // Without `v1` Knuth prints no counters.
        if let Some(want) = altogether(&stderr) {
            assert_eq!(
                [
                    stats.solutions,
                    stats.input_mems,
                    stats.mems,
                    stats.updates,
                    stats.cleansings,
                    stats.nodes
                ],
                want,
                "{name}: count, imems, mems, updates, cleansings, nodes"
            );
            searched += 1;
        }
        // Listing is slower: only where it stays small.
        if stats.mems > HEAVY_MEMS {
            continue;
        }
        let (indices, sets, listed_stats) = mine(&problem, &solver);
        assert_eq!(counters(&listed_stats), counters(&stats), "{name}");
        assert_eq!(indices.len() as u64, stats.solutions, "{name}");
        let knuth = printed(&String::from_utf8_lossy(&read("stdout")));
        let shown: Vec<(u64, Vec<OptionSet>)> = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u64 + 1, s.clone()))
            .filter(|(n, _)| a.spacing != 0 && n % a.spacing == 0)
            .collect();
        assert_eq!(shown, knuth, "{name}: the solutions Knuth printed");
        listed += 1;
        // Without Knuth's counters: the same solutions, nodes and end (with a timeout,
        // which is in mems, it counts them anyway).
        let fast = solver.clone().knuth_counters(false);
        let (ind, _, st) = mine(&problem, &fast);
        assert_eq!(ind, indices, "{name}: solutions without the counters");
        let search = |s: &Stats| (s.solutions, s.nodes, s.max_level, s.end);
        assert_eq!(search(&st), search(&stats), "{name} without the counters");
        assert_eq!(fast.count().unwrap(), stats.solutions, "{name}");
        // Run again on threads and rebuilt in code: in a debug build, the small cases.
        // The workspace's test profile compiles the engine optimized (Cargo.toml), so the
        // reruns cover every case up to HEAVY_MEMS.
        if a.seed.is_some() || stats.mems > HEAVY_MEMS {
            continue;
        }
        // Threads: one thread's counters and solutions, in order.
        for threads in [2, 3] {
            let s = solver.clone().threads(threads);
            assert_eq!(
                counters(&s.run().unwrap()),
                counters(&stats),
                "{name} on {threads}"
            );
            let (ind, _, st) = mine(&problem, &s);
            assert_eq!(ind, indices, "{name}: solutions on {threads} threads");
            assert_eq!(
                counters(&st),
                counters(&stats),
                "{name} listed on {threads}"
            );
        }
        // Built in code under long names: the same search.
        let built = rebuilt(&problem);
        let bs = solver_for(&built, &a);
        assert_eq!(
            counters(&bs.run().unwrap()),
            counters(&stats),
            "{name} built"
        );
        assert_eq!(mine(&built, &bs).0, indices, "{name}: built solutions");
    }
    eprintln!("{searched} searched, {refused} refused, {listed} listed");
    assert!(
        searched > 100 && refused > 20 && listed > 80,
        "{searched} {refused} {listed}"
    );
}

fn solver_for(problem: &Problem, a: &Args) -> Solver {
    solver(problem, a)
}

//! Oracle test for `xcover dlx3`: random small DLX3 problems are solved both by the engine
//! (through the `xcover` binary) and by a brute-force enumerator written here from the
//! *definition* of a DLX3 solution, and the two answers must agree exactly.
//!
//! Definition (dlx3.w intro, DLX2 colour controls): a solution is a set of distinct kept
//! options (options without primary items are ignored) such that
//! * every primary item j occurs in between a_j and b_j of the chosen options, and
//! * every secondary item either occurs in at most one chosen option, or all chosen options
//!   that contain it give it the same non-zero colour. (An uncoloured occurrence thus
//!   excludes every other occurrence, coloured or not.)
//!
//! dlx3 reports every such set exactly once. Identical option lines are distinct options,
//! so a problem with a duplicated line has solutions that print alike; the comparison is
//! therefore between *multisets* of solutions, each solution a multiset of option keys.

mod dlx3_support;

use std::collections::BTreeMap;

use dlx3_support::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use xcover_core::dlx3::{Dlx3, Event, HeapWorkspace, Move, Settings, Sinks};
use xcover_core::sink::Discard;

/// Every solution of `problem`, found by trying all subsets of the kept options.
fn brute_force(problem: &Problem) -> Vec<SolutionKey> {
    let kept: Vec<&OptionLine> = problem.kept().collect();
    brute_force_masks(problem)
        .into_iter()
        .map(|mask| {
            let mut key: SolutionKey = (0..kept.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| input_key(kept[i]))
                .collect();
            key.sort();
            key
        })
        .collect()
}

/// Every solution as a bit set of kept options (bit i = the (i+1)-th kept option).
fn brute_force_masks(problem: &Problem) -> Vec<u32> {
    let kept: Vec<&OptionLine> = problem.kept().collect();
    assert!(kept.len() < 20, "brute force is exponential");
    (0u32..(1 << kept.len()))
        .filter(|mask| {
            let chosen: Vec<&OptionLine> = (0..kept.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| kept[i])
                .collect();
            is_solution(problem, &chosen)
        })
        .collect()
}

/// Solves `problem` in-process through the core API (`Event::Solution`, `solution_move`)
/// and returns each solution as a bit set of kept options, checking null moves on the way.
/// `budget` is the mem budget per `run` call (small budgets exercise resumption).
fn core_api_masks(problem: &Problem, settings: Settings, budget: u64) -> Result<Vec<u32>, String> {
    let input = problem.text.as_bytes();
    let mut workspace = HeapWorkspace::for_input(input);
    let mut engine = Dlx3::new(workspace.as_mut_view(), settings).map_err(|e| e.to_string())?;
    engine
        .read_input(input, &mut Discard)
        .map_err(|e| e.to_string())?;
    let kept = problem.kept().count() as u64;
    if engine.option_count() != kept {
        return Err(format!("option_count {} != {kept}", engine.option_count()));
    }
    let mut masks = Vec::new();
    loop {
        let mut sinks = Sinks {
            out: &mut Discard,
            err: &mut Discard,
            shape: None,
        };
        match engine.run(budget, &mut sinks).map_err(|e| e.to_string())? {
            Event::BudgetExhausted => continue,
            Event::Done(_) => break,
            Event::Solution => {}
            Event::Unit(_) | Event::UnitDone(_) => {
                return Err("a unit event without a split level".into())
            }
        }
        let mut mask = 0u32;
        let mut nulls = Vec::new();
        for l in 0..engine.depth() {
            match engine.solution_move(l) {
                Some(Move::Option(n)) if n >= 1 && u64::from(n) <= kept => {
                    let bit = 1u32 << (n - 1);
                    if mask & bit != 0 {
                        return Err(format!("option {n} chosen twice"));
                    }
                    mask |= bit;
                }
                Some(Move::Null(k)) => {
                    let p = (k as usize)
                        .checked_sub(1)
                        .and_then(|i| problem.primaries.get(i))
                        .ok_or_else(|| format!("null move for item {k}, not primary"))?;
                    if p.lo == p.hi || nulls.contains(&k) {
                        return Err(format!("bad null move for {}", p.name));
                    }
                    nulls.push(k);
                }
                other => return Err(format!("level {l}: {other:?}")),
            }
        }
        masks.push(mask);
    }
    if engine.stats().count != masks.len() as u64 {
        return Err(format!(
            "stats().count {} != {} solutions",
            engine.stats().count,
            masks.len()
        ));
    }
    Ok(masks)
}

fn is_solution(problem: &Problem, chosen: &[&OptionLine]) -> bool {
    let primaries_ok = problem.primaries.iter().all(|p| {
        let uses = chosen
            .iter()
            .filter(|o| o.tokens.iter().any(|t| t.0 == p.name))
            .count();
        let uses = u32::try_from(uses).unwrap_or(u32::MAX);
        p.lo <= uses && uses <= p.hi
    });
    let secondaries_ok = problem.secondaries.iter().all(|s| {
        let colours: Vec<u8> = chosen
            .iter()
            .flat_map(|o| o.tokens.iter().filter(|t| t.0 == *s).map(|t| t.1))
            .collect();
        colours.len() <= 1 || colours.iter().all(|&c| c != 0 && c == colours[0])
    });
    primaries_ok && secondaries_ok
}

fn check(problem: &Problem) -> Result<(), TestCaseError> {
    // v1025 = basics + warnings (the default is v1025 too); m1 prints every solution.
    let (engine, count, run) =
        engine_solutions(problem, &["m1", "v1025"]).map_err(TestCaseError::fail)?;
    let expected: BTreeMap<SolutionKey, usize> = solution_multiset(brute_force(problem));
    let n_expected: usize = expected.values().sum();

    // stderr: the warnings for ignored options, the input summary, the statistics.
    let mut lines: Vec<&str> = run.stderr.lines().collect();
    let last = lines.pop().unwrap_or_default();
    let mut want = problem.warning_lines();
    want.push(problem.summary_line());
    prop_assert_eq!(lines, want, "stderr before the statistics line");
    prop_assert!(
        last.starts_with("Altogether "),
        "last stderr line {:?}",
        last
    );

    prop_assert_eq!(
        run.solutions.len(),
        n_expected,
        "number of printed solutions"
    );
    prop_assert_eq!(count, n_expected as u64, "count in the statistics line");
    prop_assert_eq!(engine, expected, "solutions differ");
    Ok(())
}

/// The engine with `m1 v0` prints nothing on stderr and the same solutions.
fn check_quiet(problem: &Problem) -> Result<(), TestCaseError> {
    let run = run_dlx3(&problem.text, &["m1", "v0"]).map_err(TestCaseError::fail)?;
    prop_assert_eq!(run.status, Some(0));
    prop_assert_eq!(run.stderr, "");
    let loud = run_dlx3(&problem.text, &["m1", "v1"]).map_err(TestCaseError::fail)?;
    prop_assert_eq!(run.stdout, loud.stdout);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    #[test]
    fn dlx3_agrees_with_brute_force(seed in problem_seed(4, 3, 10)) {
        let problem = Problem::build(&seed);
        check(&problem).map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{}", problem.text)))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(200) })]

    #[test]
    fn dlx3_v0_is_silent_and_prints_the_same(seed in problem_seed(3, 2, 6)) {
        let problem = Problem::build(&seed);
        check_quiet(&problem).map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{}", problem.text)))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(1000) })]

    /// The core API (no text output) finds exactly the brute-force solutions, identified by
    /// option number, also when randomized and when run in small mem slices.
    #[test]
    fn core_api_agrees_with_brute_force(
        seed in problem_seed(4, 3, 10),
        random in prop::option::of(any::<i32>()),
        budget in prop::sample::select(vec![1u64, 7, 100, u64::MAX]),
    ) {
        let problem = Problem::build(&seed);
        let settings = Settings::new()
            .verbosity(0)
            .random_seed(random.unwrap_or(0))
            .randomize(random.is_some());
        let mut got = core_api_masks(&problem, settings, budget)
            .map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{}", problem.text)))?;
        got.sort_unstable();
        let want = brute_force_masks(&problem);
        prop_assert_eq!(got, want, "input:\n{}", problem.text);
    }
}

/// The brute force itself on the example from dlx3.w's introduction (unique solution).
#[test]
fn brute_force_finds_knuths_example() {
    let text = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let opt = |toks: &[(&'static str, u8)]| OptionLine {
        tokens: toks.to_vec(),
        has_primary: true,
        raw: String::new(),
    };
    let problem = Problem {
        primaries: vec![
            Primary {
                name: "A",
                lo: 1,
                hi: 1,
                spelling: 0,
            },
            Primary {
                name: "B",
                lo: 1,
                hi: 1,
                spelling: 0,
            },
            Primary {
                name: "C",
                lo: 2,
                hi: 3,
                spelling: 0,
            },
        ],
        secondaries: vec!["X", "Y"],
        options: vec![
            opt(&[("A", 0), ("B", 0), ("X", b'0'), ("Y", b'0')]),
            opt(&[("A", 0), ("C", 0), ("X", b'1'), ("Y", b'1')]),
            opt(&[("C", 0), ("X", b'0')]),
            opt(&[("B", 0), ("X", b'1')]),
            opt(&[("C", 0), ("Y", b'1')]),
        ],
        text: text.to_owned(),
    };
    let sols = brute_force(&problem);
    assert_eq!(
        sols,
        vec![vec![
            option_key(&["A", "C", "X:1", "Y:1"]),
            option_key(&["B", "X:1"]),
            option_key(&["C", "Y:1"]),
        ]]
    );
}

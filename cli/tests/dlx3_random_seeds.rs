//! Randomized runs (`s<n>`) of `xcover dlx3` scramble the item lists and break ties at
//! random, so they find the solutions in another order — but they must find the same
//! multiset of solutions as the unrandomized run, and report the same count. A given seed
//! must also be deterministic: the same seed twice gives byte-identical output.

mod dlx3_support;

use dlx3_support::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn with_input(problem: &Problem, e: TestCaseError) -> TestCaseError {
    TestCaseError::fail(format!("{e}\ninput:\n{}", problem.text))
}

fn same_solutions_for_seeds(problem: &Problem, seeds: &[i32]) -> Result<(), TestCaseError> {
    let (plain, plain_count, plain_run) =
        engine_solutions(problem, &["m1", "v1"]).map_err(TestCaseError::fail)?;
    let n_plain: usize = plain.values().sum();
    prop_assert_eq!(
        plain_count,
        n_plain as u64,
        "count line vs printed solutions"
    );
    let summary = plain_run
        .stderr
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    for &seed in seeds {
        let arg = format!("s{seed}");
        let (random, random_count, random_run) =
            engine_solutions(problem, &["m1", "v1", &arg]).map_err(TestCaseError::fail)?;
        prop_assert_eq!(random_count, plain_count, "count with {}", arg);
        prop_assert_eq!(&random, &plain, "solutions with {}", arg);
        prop_assert_eq!(
            random_run.stderr.lines().next().unwrap_or_default(),
            summary.as_str(),
            "input summary with {}",
            arg
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(700) })]

    /// Two random seeds per problem (any i32, negative seeds included) against `m1 v1`.
    #[test]
    fn random_seeds_find_the_same_solutions(
        seed in problem_seed(5, 4, 14),
        s1 in any::<i32>(),
        s2 in 0i32..4,
    ) {
        let problem = Problem::build(&seed);
        same_solutions_for_seeds(&problem, &[s1, s2]).map_err(|e| with_input(&problem, e))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(150) })]

    /// The same seed twice: identical bytes on stdout and stderr.
    #[test]
    fn a_seed_is_deterministic(seed in problem_seed(4, 3, 10), s in any::<i32>()) {
        let problem = Problem::build(&seed);
        let arg = format!("s{s}");
        let first = run_dlx3(&problem.text, &["m1", &arg]).map_err(TestCaseError::fail)?;
        let second = run_dlx3(&problem.text, &["m1", &arg]).map_err(TestCaseError::fail)?;
        prop_assert_eq!(first.status, Some(0), "stderr {}", first.stderr);
        prop_assert_eq!(&first.stdout, &second.stdout);
        prop_assert_eq!(&first.stderr, &second.stderr);
    }
}

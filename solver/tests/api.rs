//! The crate's promises: the well-known queens counts from text and from the builder,
//! threads giving one thread's solutions and counters (limits included), seeds,
//! builder errors with Knuth's messages and the item, long names, stopping early.
use std::ops::ControlFlow;
use std::time::Instant;

use xcover_solver::{End, Entry, ErrorKind, InputError, Problem, Stats};

/// Knuth's `queens-dlx n` text (rows and columns primary, in organ-pipe order; the
/// diagonals secondary, corners left out).
fn queens_text(n: usize) -> String {
    let code =
        |x: usize| b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[x] as char;
    let mut s = format!("| This data produced by queens-dlx {n}\n");
    for j in 0..n {
        let t = if j & 1 == 1 {
            (n - 1 - j) >> 1
        } else {
            (n + j) >> 1
        };
        s += &format!("r{} c{} ", code(t), code(t));
    }
    s.push('|');
    for t in 1..2 * n - 2 {
        s += &format!(" a{} b{}", code(t), code(t));
    }
    s.push('\n');
    for j in 0..n {
        for k in 0..n {
            s += &format!("r{} c{}", code(j), code(k));
            let (a, b) = (j + k, n - 1 - j + k);
            if a != 0 && a != 2 * n - 2 {
                s += &format!(" a{}", code(a));
            }
            if b != 0 && b != 2 * n - 2 {
                s += &format!(" b{}", code(b));
            }
            s.push('\n');
        }
    }
    s
}

/// The same problem built in code with long names, in the same item and option order.
fn queens_built(n: usize) -> Problem {
    let text = Problem::parse(&queens_text(n)).unwrap();
    let long = |name: &str| format!("{name} (a name of more than eight bytes)");
    let mut b = Problem::builder();
    for item in text.items() {
        b = if item.is_secondary() {
            b.secondary(long(item.name()))
        } else {
            b.primary(long(item.name()))
        };
    }
    for j in 0..text.option_count() {
        b = b.option(text.option(j).unwrap().items().map(|(name, _)| long(name)));
    }
    b.build().unwrap()
}

fn listed(problem: &Problem, threads: usize, max: Option<u64>) -> (Vec<Vec<usize>>, Stats) {
    let mut solver = problem.solver().threads(threads);
    if let Some(m) = max {
        solver = solver.max_solutions(m);
    }
    let mut all = Vec::new();
    let mut solutions = solver.solutions();
    for s in &mut solutions {
        all.push(s.unwrap().options().to_vec());
    }
    (all, *solutions.stats().unwrap())
}

#[test]
fn queens_counts_are_the_known_ones() {
    // OEIS A000170.
    let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..).zip(&known) {
        if n < 2 {
            continue; // queens-dlx 1 has no diagonals
        }
        let text = Problem::parse(&queens_text(n)).unwrap();
        assert_eq!(text.count().unwrap(), want, "{n} queens");
        assert_eq!(text.solutions().count() as u64, want, "{n} queens listed");
        assert_eq!(queens_built(n).count().unwrap(), want, "{n} queens built");
        assert_eq!(
            text.solver().threads(3).count().unwrap(),
            want,
            "{n} on 3 threads"
        );
    }
}

#[test]
fn threads_give_one_threads_solutions_in_order() {
    let problem = Problem::parse(&queens_text(9)).unwrap();
    let (one, one_stats) = listed(&problem, 1, None);
    assert_eq!(one.len(), 352);
    for threads in [2, 4] {
        let (many, stats) = listed(&problem, threads, None);
        assert_eq!(many, one, "{threads} threads");
        assert_eq!(stats, one_stats, "{threads} threads");
        assert_eq!(problem.solver().threads(threads).run().unwrap(), one_stats);
    }
    // Limits fall inside units: the units holding them are explored in order.
    for max in [1, 7, 100, 351] {
        let (one, s1) = listed(&problem, 1, Some(max));
        let (many, s3) = listed(&problem, 3, Some(max));
        assert_eq!((one.len() as u64, s1.end), (max, End::SolutionLimit));
        assert_eq!((many, s3), (one, s1), "max {max}");
    }
    for mems in [1, 5_000, 200_000] {
        let one = problem.solver().timeout_mems(mems).run().unwrap();
        let many = problem
            .solver()
            .timeout_mems(mems)
            .threads(3)
            .run()
            .unwrap();
        assert_eq!(one.end, End::Timeout);
        assert_eq!(many, one, "timeout {mems}");
    }
}

#[test]
fn a_built_problem_searches_like_its_text() {
    for n in [5, 8] {
        let text = Problem::parse(&queens_text(n)).unwrap();
        let built = queens_built(n);
        let (a, sa) = listed(&text, 1, None);
        let (b, sb) = listed(&built, 1, None);
        assert_eq!(a, b, "{n}");
        assert_eq!(
            (sa.mems, sa.nodes, sa.updates),
            (sb.mems, sb.nodes, sb.updates)
        );
        // Names of any length come back in the solutions.
        let s = built.solutions().next().unwrap().unwrap();
        assert!(s.to_string().contains("(a name of more than eight bytes)"));
    }
}

#[test]
fn a_seed_reorders_the_same_solutions() {
    let problem = Problem::parse(&queens_text(6)).unwrap();
    let sorted = |mut v: Vec<Vec<usize>>| {
        v.iter_mut().for_each(|s| s.sort_unstable());
        v.sort();
        v
    };
    let plain = listed(&problem, 1, None).0;
    let order = |seed| {
        let mut v = Vec::new();
        for s in problem.solver().seed(seed).solutions() {
            v.push(s.unwrap().options().to_vec());
        }
        v
    };
    let (a, b, c) = (order(1), order(1), order(2));
    assert_eq!(a, b);
    assert_eq!(sorted(a.clone()), sorted(plain.clone()));
    assert_eq!(sorted(c.clone()), sorted(plain));
    // A seed changes the search (Knuth's s<n>): its counters are not the plain run's.
    let s1 = problem.solver().seed(1).run().unwrap();
    assert_eq!(s1, problem.solver().seed(1).threads(4).run().unwrap());
    assert_ne!(s1.mems, problem.solver().run().unwrap().mems);
}

#[test]
fn text_errors_carry_knuths_message_line_and_position() {
    let cases = [
        ("", InputError::NoItems, None),
        ("A B\nA C\n", InputError::UnknownItemName, Some(2)),
        ("| comment\nA A\n", InputError::DuplicateItemName, Some(2)),
        ("A LONGERTHAN8\nA\n", InputError::ItemNameTooLong, Some(1)),
        ("A | x\nA x:red\n", InputError::ColorNotSingle, Some(2)),
        ("A\nA\nA", InputError::OptionLineTooLong, Some(3)),
    ];
    for (text, kind, line) in cases {
        let err = Problem::parse(text).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Input(kind), "{text:?}");
        assert_eq!(err.message(), kind.message());
        if let Some(line) = line {
            assert_eq!(err.line(), Some(line), "{text:?}");
            let shown = text.lines().nth(line - 1).unwrap();
            assert_eq!(err.line_text(), Some(shown));
            assert!(err.to_string().starts_with(&format!("{}!", kind.message())));
            assert!(err.to_string().contains(&format!("line {line}")));
        }
        let _: &dyn std::error::Error = &err;
    }
    let io = Problem::from_reader(Failing).unwrap_err();
    assert_eq!(io.kind(), ErrorKind::Io);
}

struct Failing;

impl std::io::Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk on fire"))
    }
}

#[test]
fn builder_mistakes_are_knuths_errors_about_the_item() {
    use InputError::*;
    let b = || {
        Problem::builder()
            .primary("first item")
            .secondary("a secondary item")
    };
    let cases = [
        (Problem::builder(), Some(NoItems), None),
        (b().primary(""), Some(ItemNameEmpty), Some("")),
        (
            b().primary("first item"),
            Some(DuplicateItemName),
            Some("first item"),
        ),
        (
            b().secondary("first item"),
            Some(DuplicateItemName),
            Some("first item"),
        ),
        (
            b().primary_with_bounds("x", 0, 0),
            Some(UpperBoundZero),
            Some("x"),
        ),
        (
            b().primary_with_bounds("x", 3, 2),
            Some(LowerExceedsUpper),
            Some("x"),
        ),
        (
            b().option(["nobody"]),
            Some(UnknownItemName),
            Some("nobody"),
        ),
        (
            b().option(["first item", "first item"]),
            Some(DuplicateItemInOption),
            Some("first item"),
        ),
        (
            b().option([("first item", "red")]),
            Some(PrimaryColored),
            Some("first item"),
        ),
        (
            b().option([("a secondary item", "")]),
            None,
            Some("a secondary item"),
        ),
    ];
    for (builder, kind, item) in cases {
        let err = builder.build().unwrap_err();
        match kind {
            Some(kind) => assert_eq!(err.kind(), ErrorKind::Input(kind)),
            None => assert_eq!(err.kind(), ErrorKind::Builder),
        }
        assert_eq!(err.item(), item, "{err}");
    }
    // 300 colors on one item: more than one byte codes.
    let mut many = b();
    for c in 0..300 {
        many = many.option([
            Entry::new("first item"),
            Entry::colored("a secondary item", c.to_string()),
        ]);
    }
    assert_eq!(many.build().unwrap_err().kind(), ErrorKind::Builder);
    // Colors of any length, compared per item.
    let p = b()
        .secondary("another")
        .option(
            [
                ("first item", None),
                ("a secondary item", Some("crimson red")),
            ]
            .map(entry),
        )
        .option(
            [
                ("a secondary item", Some("crimson red")),
                ("another", Some("crimson red")),
            ]
            .map(entry),
        )
        .build()
        .unwrap();
    let s = p.solutions().next().unwrap().unwrap();
    assert_eq!(s.to_string(), "first item a secondary item:crimson red");
}

fn entry((name, color): (&str, Option<&str>)) -> Entry {
    match color {
        Some(c) => Entry::colored(name, c),
        None => Entry::new(name),
    }
}

#[test]
fn options_without_primary_items_keep_their_indices_in_the_builder() {
    let p = Problem::builder()
        .primary("a")
        .secondary("s")
        .option(["s"]) // dropped by the engine, as Knuth drops it
        .option(["a", "s"])
        .build()
        .unwrap();
    assert_eq!(p.option_count(), 2);
    let s = p.solutions().next().unwrap().unwrap();
    assert_eq!(s.options(), [1]);
}

#[test]
fn stopping_early_ends_the_search() {
    let problem = Problem::parse(&queens_text(13)).unwrap();
    let started = Instant::now();
    for threads in [1, 3] {
        let first: Vec<_> = problem
            .solver()
            .threads(threads)
            .solutions()
            .take(2)
            .collect();
        assert_eq!(first.len(), 2);
        let mut seen = 0;
        let stats = problem
            .solver()
            .threads(threads)
            .for_each_solution(|_| {
                seen += 1;
                if seen == 5 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .unwrap();
        assert_eq!((seen, stats.end), (5, End::Stopped));
    }
    // 13 queens has 73712 solutions: a search that went on would take far longer.
    assert!(started.elapsed().as_secs() < 60);
    assert_eq!(problem.solver().max_solutions(0).count().unwrap(), 0);
}

#[test]
fn a_search_too_deep_ends_with_knuths_error() {
    // Item A taken up to 600 times, one option per take: deeper than Knuth's 500 levels.
    let text = format!("0:600|A\n{}", "A\n".repeat(600));
    let problem = Problem::parse(&text).unwrap();
    for threads in [1, 2] {
        let err = problem.solver().threads(threads).run().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooManyLevels);
        assert_eq!(err.to_string(), "Too many levels!");
        let mut solutions = problem.solver().threads(threads).solutions();
        // The search dives to the limit before its first solution.
        let failure = solutions.next().unwrap().unwrap_err();
        assert_eq!(failure.kind(), ErrorKind::TooManyLevels);
        assert!(solutions.next().is_none() && solutions.stats().is_none());
    }
}

#[test]
fn an_interrupt_stops_a_long_search() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // 16 queens takes minutes to count: stopped after a moment instead.
    let problem = Problem::parse(&queens_text(16)).unwrap();
    for threads in [1, 3] {
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(200));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let started = Instant::now();
        let stats = problem
            .solver()
            .threads(threads)
            .interrupt(Arc::clone(&flag))
            .run()
            .unwrap();
        setter.join().unwrap();
        assert_eq!(stats.end, End::Stopped);
        assert!(
            stats.mems > 0 && started.elapsed().as_secs() < 30,
            "{threads} threads"
        );
        // The iterator too: it ends, without an error.
        let listed = problem
            .solver()
            .threads(threads)
            .interrupt(flag)
            .solutions()
            .count();
        assert_eq!(listed, 0);
    }
}

#[test]
fn solutions_read_across_batches_are_the_closures_in_order() {
    // 11 queens: 2,680 solutions, more than one batch of the search thread's hand-over.
    let problem = Problem::parse(&queens_text(11)).unwrap();
    let mut each = Vec::new();
    let stats = problem
        .solver()
        .for_each_solution(|s| {
            each.push(s.options().to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(each.len(), 2680);
    assert_eq!(stats.solutions, 2680);
    // Read in turn as slices and as solutions: the same ones, in the same order.
    let mut read = Vec::new();
    let mut solutions = problem.solutions();
    loop {
        let next = if read.len() % 2 == 0 {
            solutions.next_options().map(|o| o.unwrap().to_vec())
        } else {
            solutions.next().map(|s| s.unwrap().options().to_vec())
        };
        match next {
            Some(options) => read.push(options),
            None => break,
        }
    }
    assert_eq!(read, each);
    assert_eq!(solutions.stats().map(|s| s.solutions), Some(2680));
    assert!(solutions.next_options().is_none());
}

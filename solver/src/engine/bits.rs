//! The uncounted one-thread search of a small plain exact cover on core's bit-set engine
//! ([`xcover_core::bitcover`]): the same tree as DLX3's uncounted search (solutions in
//! the same order, the same nodes and deepest level), a node in fewer instructions
//! (docs/PERFORMANCE.md, "A bitset engine for small exact covers").
use std::ops::ControlFlow;

use xcover_core::bitcover::{
    BitCover, Layout, Matrix, Step, WorkspaceView, COUNTS, MAX_PRIMARY, MAX_WORDS, WORD_BITS,
};
use xcover_core::dlx3::Dlx3;

use super::{Limits, Stop, Visitor, SLICE_NODES};
use crate::error::{Error, ErrorKind};
use crate::stats::{End, Stats};

/// A loaded engine's problem as the bit-set engine reads it.
pub(super) struct Tables {
    primary: usize,
    items: usize,
    starts: Vec<u32>,
    entries: Vec<(u32, i32)>,
}

impl Tables {
    /// The problem of `e` (loaded, not searched yet), or `None` unless it is a plain
    /// exact cover (primary items first, each with bounds [1,1]) of at most
    /// `64 * MAX_WORDS` options and [`MAX_PRIMARY`] primary items.
    pub(super) fn of(e: &Dlx3<'_>) -> Option<Tables> {
        let items = e.item_count();
        let primary = (1..=items).take_while(|&k| !e.is_secondary(k)).count();
        let plain = (1..=primary as u32).all(|k| e.item_bounds(k) == Some((1, 1)));
        let options = usize::try_from(e.option_count()).ok()?;
        if !plain || primary > MAX_PRIMARY || options > WORD_BITS * MAX_WORDS {
            return None;
        }
        // Each option's nodes in order, read off the node array in one pass.
        let nodes = e.nodes();
        let mut option_of = vec![0u32; nodes.len()];
        e.node_options(&mut option_of);
        let mut starts = vec![0u32];
        let mut entries = Vec::new();
        let mut current = 1;
        for (node, &j) in nodes.iter().zip(&option_of) {
            if j == 0 {
                continue;
            }
            while j > current {
                starts.push(entries.len() as u32);
                current += 1;
            }
            let n = node.wide();
            entries.push((n.itm as u32 - 1, n.color));
        }
        starts.push(entries.len() as u32);
        // Every option has a primary item (the engine drops the others), so every one
        // has a node; a problem without options (`starts` [0, 0]) is left to DLX3.
        (starts.len() == options + 1).then_some(Tables {
            primary,
            items: items as usize,
            starts,
            entries,
        })
    }

    fn matrix(&self) -> Matrix<'_> {
        Matrix {
            primary: self.primary,
            items: self.items,
            starts: &self.starts,
            entries: &self.entries,
        }
    }

    /// Searches as `sequential` does with `uncounted` (`kept` maps the engine's options
    /// to the problem's indices).
    pub(super) fn search(
        &self,
        kept: &[usize],
        limits: &Limits,
        visitor: Option<&mut dyn Visitor>,
        stop: Stop<'_>,
    ) -> Result<Stats, Error> {
        let words = self
            .starts
            .len()
            .saturating_sub(1)
            .div_ceil(WORD_BITS)
            .max(1);
        macro_rules! on {
            ($($w:literal)*) => {
                match words {
                    $($w => self.search_in::<$w>(kept, limits, visitor, stop),)*
                    _ => Err(Error::new(ErrorKind::Engine, "too many options for the bit sets")),
                }
            };
        }
        on!(1 2 3 4 5 6 7 8)
    }

    fn search_in<const W: usize>(
        &self,
        kept: &[usize],
        limits: &Limits,
        mut visitor: Option<&mut dyn Visitor>,
        stop: Stop<'_>,
    ) -> Result<Stats, Error> {
        let m = self.matrix();
        let bad = |e: xcover_core::bitcover::BitError| Error::new(ErrorKind::Engine, e.message());
        let l = Layout::of::<W>(&m).map_err(bad)?;
        let mut sets = [l.options, l.primary, l.levels, l.levels].map(|n| vec![[0u64; W]; n]);
        let [conflicts, item_options, live, candidates] = &mut sets;
        let mut prims = vec![0; l.options * l.stride];
        let mut counts = vec![0; l.levels * COUNTS];
        let mut chosen = vec![0; l.levels];
        let ws = WorkspaceView {
            conflicts,
            item_options,
            prims: &mut prims,
            live,
            candidates,
            counts: &mut counts,
            chosen: &mut chosen,
        };
        let mut s = BitCover::new(ws, &m).map_err(bad)?;
        let max = limits.max_solutions.unwrap_or(u64::MAX);
        // A solution limit stops at its solution, as DLX3's `maxcount` does.
        let every = visitor.is_some() || max != u64::MAX;
        let mut options = Vec::new();
        let end = loop {
            if stop.is_set() {
                break End::Stopped;
            }
            let flow = match s.run(SLICE_NODES, every) {
                Step::Done => break End::Exhausted,
                Step::Solution => match visitor.as_deref_mut() {
                    Some(v) => {
                        options.clear();
                        options.extend(s.solution().iter().map(|&j| kept[usize::from(j)]));
                        v.solution(&options)
                    }
                    None => ControlFlow::Continue(()),
                },
                Step::Paused => visitor
                    .as_deref_mut()
                    .map_or(ControlFlow::Continue(()), |v| v.pause()),
            };
            if flow.is_break() {
                break End::Stopped;
            }
            if s.solutions() >= max {
                // As `sequential` sees DLX3's end after its last solution.
                break if stop.is_set() {
                    End::Stopped
                } else {
                    End::SolutionLimit
                };
            }
        };
        Ok(Stats {
            solutions: s.solutions(),
            nodes: s.nodes(),
            max_level: s.max_level() as u32,
            end,
            ..Stats::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{describe_text, sequential, settings, with_engine, Limits, Stop, Visitor};
    use super::Tables;
    use crate::stats::Stats;
    use proptest::prelude::*;
    use std::ops::ControlFlow;
    use std::path::Path;

    /// Every solution's options, and a pause now and then.
    #[derive(Default)]
    struct Listed(Vec<Vec<usize>>);

    impl Visitor for Listed {
        fn solution(&mut self, options: &[usize]) -> ControlFlow<()> {
            self.0.push(options.to_vec());
            ControlFlow::Continue(())
        }
    }

    /// A search's solutions (none listed when counting) and the counters that do not
    /// depend on the engine.
    type Outcome = (Vec<Vec<usize>>, (u64, u64, u32, crate::End));

    fn outcome(listed: Listed, s: Stats) -> Outcome {
        (listed.0, (s.solutions, s.nodes, s.max_level, s.end))
    }

    /// `text` searched uncounted on bit sets (`None` if they do not take it) and on
    /// DLX3's lists, listing the solutions or only counting.
    fn both(text: &str, limits: &Limits, list: bool) -> (Option<Outcome>, Outcome) {
        let inner = describe_text(text.as_bytes()).expect("reads");
        let run = |bits: bool| {
            with_engine(&inner, settings(Some(limits)), |e| {
                let mut listed = Listed::default();
                let visitor = list.then_some(&mut listed as &mut dyn Visitor);
                let stats = if bits {
                    match Tables::of(e) {
                        Some(t) => t.search(&inner.kept, limits, visitor, Stop::default())?,
                        None => return Ok(None),
                    }
                } else {
                    sequential(e, &inner.kept, true, visitor, Stop::default())?
                };
                Ok(Some(outcome(listed, stats)))
            })
            .expect("searches")
        };
        (run(true), run(false).expect("DLX3 searches"))
    }

    fn uncounted(max_solutions: Option<u64>) -> Limits {
        Limits {
            max_solutions,
            uncounted: true,
            ..Limits::default()
        }
    }

    /// Knuth's text of a problem: `primary` primary items, `secondary` secondary ones,
    /// options as (item, color) lists with items numbered primary first.
    fn text_of(primary: usize, secondary: usize, options: &[Vec<(usize, u8)>]) -> String {
        let mut t: String = (0..primary).map(|k| format!("p{k} ")).collect();
        t += "|";
        (0..secondary).for_each(|k| t += &format!(" s{k}"));
        t += "\n";
        for o in options {
            let names: Vec<String> = o
                .iter()
                .map(|&(k, c)| match (k < primary, c) {
                    (true, _) => format!("p{k}"),
                    (false, 0) => format!("s{}", k - primary),
                    (false, c) => format!("s{}:{}", k - primary, (b'a' + c - 1) as char),
                })
                .collect();
            t += &names.join(" ");
            t += "\n";
        }
        t
    }

    /// An option: 1 to 3 primary items of `primary`, 0 to 2 secondary ones of
    /// `secondary`, each uncolored or one of 2 colors (items not repeated).
    fn option(primary: usize, secondary: usize) -> impl Strategy<Value = Vec<(usize, u8)>> {
        let p = proptest::collection::btree_set(0..primary, 1..=3.min(primary));
        let s = proptest::collection::btree_map(0..secondary.max(1), 0u8..3, 0..=2);
        (p, s).prop_map(move |(p, s)| {
            let mut o: Vec<(usize, u8)> = p.into_iter().map(|k| (k, 0)).collect();
            if secondary > 0 {
                o.extend(s.into_iter().map(|(k, c)| (primary + k, c)));
            }
            o
        })
    }

    fn problem() -> impl Strategy<Value = String> {
        (1usize..9, 0usize..4).prop_flat_map(|(primary, secondary)| {
            proptest::collection::vec(option(primary, secondary), 1..90)
                .prop_map(move |options| text_of(primary, secondary, &options))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The same solutions in the same order, nodes, deepest level and end, listed or
        /// counted, with and without a solution limit.
        #[test]
        fn bit_sets_search_as_dlx3_does(text in problem(), limit in 0u64..6) {
            let limits = uncounted((limit > 0).then_some(limit));
            for list in [true, false] {
                let (bits, dlx) = both(&text, &limits, list);
                prop_assert_eq!(bits, Some(dlx), "{}", text);
            }
        }
    }

    /// Every case of the conformance corpus that the bit sets take (a plain exact cover
    /// that fits) searches as DLX3's lists do.
    #[test]
    fn the_corpus_searches_alike() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/dlx3");
        let Ok(cases) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: no conformance corpus at {}", dir.display());
            return;
        };
        let (mut taken, mut left) = (0, 0);
        for case in cases {
            let path = case.expect("lists").path().join("input.dlx");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if describe_text(text.as_bytes()).is_err() {
                continue;
            }
            for limits in [uncounted(None), uncounted(Some(2))] {
                match both(&text, &limits, true) {
                    (Some(bits), dlx) => {
                        assert_eq!(bits, dlx, "{}", path.display());
                        taken += 1;
                    }
                    (None, _) => left += 1,
                }
            }
        }
        eprintln!("{taken} searches taken by the bit sets, {left} left to DLX3");
        assert!(taken > 40 && left > 40, "{taken} taken, {left} left");
    }

    /// 512 options fit the bit sets, 513 do not (DLX3 searches them), 255 primary items
    /// fit, 256 do not; the counts agree.
    #[test]
    fn a_problem_past_the_limits_goes_to_dlx3() {
        let options =
            |n: usize| "A B\n".to_owned() + &"A\nB\n".repeat(n / 2) + &"A\n".repeat(n % 2);
        for (n, fits) in [(512, true), (513, false)] {
            let text = options(n);
            let (bits, dlx) = both(&text, &uncounted(None), false);
            assert_eq!(bits.is_some(), fits, "{n}");
            assert_eq!(dlx.1 .0, ((n / 2) * (n - n / 2)) as u64);
            assert_eq!(bits.unwrap_or_else(|| dlx.clone()), dlx);
        }
        let items = |n: usize| {
            let names: Vec<String> = (0..n).map(|k| format!("I{k}")).collect();
            format!("{}\n{}\n", names.join(" "), names.join(" "))
        };
        for (n, fits) in [(255, true), (256, false)] {
            let (bits, dlx) = both(&items(n), &uncounted(None), true);
            assert_eq!(bits.is_some(), fits, "{n}");
            assert_eq!(dlx.0, [vec![0]]);
        }
        // Multiplicities are DLX3's.
        assert!(both("2|A B\nA\nA B\nA\n", &uncounted(None), true)
            .0
            .is_none());
    }

    /// A problem without options (left to DLX3; the engine keeps no option without a
    /// primary item) and one whose search ends at its first node: the same empty search.
    #[test]
    fn empty_problems_search_alike() {
        for (text, taken) in [("A\n", false), ("| A\nA\n", false), ("A B\nA\n", true)] {
            let (bits, dlx) = both(text, &uncounted(None), true);
            assert_eq!(dlx, (vec![], (0, 1, 0, crate::End::Exhausted)), "{text:?}");
            assert_eq!(bits.is_some(), taken, "{text:?}");
            assert_eq!(bits.unwrap_or_else(|| dlx.clone()), dlx, "{text:?}");
        }
    }
}

//! The one place that drives core's DLX3 engine: its settings ([`settings`]), its storage,
//! loading a problem into it, and its stepping calls (`run_silent`, `run_to_printed`,
//! `depth`, `solution_node`, `node_options`, `option_items`, the split of a search into units in
//! [`threads`]), and the choice of core's bit-set engine for the uncounted search of a
//! small plain exact cover ([`bits`]). Everything else in the crate sees only
//! [`describe_text`], [`check`] and [`search`].
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use xcover_core::dlx3::image::Width;
use xcover_core::dlx3::{
    Capacity, Dlx3, Dlx3Error, DoneReason, Event, FgetsLines, HeapWorkspace, Settings, Sinks,
    MAX_LEVEL,
};
use xcover_core::sink::{ByteSink, Discard};

use crate::error::{Error, ErrorKind};
use crate::problem::{Entries, Inner, Item, Source, Spec};
use crate::stats::{End, Stats};

mod bits;
pub(crate) mod knuth;
mod narrow;
mod threads;

/// Mems per engine call between looks at the stop flag (and, when listing, between
/// hand-overs of the solutions found so far): about a millisecond.
const SLICE: u64 = 1 << 20;

/// [`SLICE`] in search-tree nodes, for a search that does not count mems (`run_uncounted`):
/// about half a millisecond (queens 13 and the 6x6 tiles spend 280-350 mems a node).
const SLICE_NODES: u64 = 1 << 12;

/// What a search is asked for.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limits {
    /// Stop after this many solutions.
    pub max_solutions: Option<u64>,
    /// Stop when the search has spent this many mems (at a search-tree node).
    pub timeout: Option<u64>,
    /// Randomize the search with Knuth's `s<seed>`.
    pub seed: Option<i32>,
    /// Leave Knuth's mems, updates and cleansings uncounted (0 in the stats): the same
    /// search, faster. Ignored with a `timeout` (it is in mems) and on several threads
    /// (whose driver sums the units' counters).
    pub uncounted: bool,
}

/// The engine's settings: silent (no reports, no printing), with `limits` when given;
/// without, those of an engine exploring units for another (no limits, no randomizing).
/// The one function that knows core's `Settings`.
fn settings(limits: Option<&Limits>) -> Settings {
    let mut s = Settings::new()
        .verbosity(0)
        .print_interval(0)
        .report_interval_mems(0);
    if let Some(l) = limits {
        s = s.max_solutions(l.max_solutions.unwrap_or(u64::MAX));
        if let Some(t) = l.timeout {
            s = s.timeout_mems(t);
        }
        if let Some(seed) = l.seed {
            s = s.random_seed(seed);
        }
    }
    s
}

/// Flags that stop a search when one is set: the caller's (an interrupt) and the
/// iterator's (dropped).
#[derive(Clone, Copy, Default)]
pub(crate) struct Stop<'f>(pub [Option<&'f AtomicBool>; 2]);

impl Stop<'_> {
    fn is_set(&self) -> bool {
        self.0.iter().flatten().any(|f| f.load(Ordering::Relaxed))
    }
}

/// What a search hands out as it goes.
pub(crate) trait Visitor {
    /// A solution: the indices of its options in the problem (0-based, input order).
    fn solution(&mut self, options: &[usize]) -> ControlFlow<()>;
    /// The search paused between slices (a moment to hand over solutions found so far).
    fn pause(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// A byte sink into memory (the engine's error report).
struct Text(Vec<u8>);

impl ByteSink for Text {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// An engine error outside the input.
fn engine_error(e: Dlx3Error) -> Error {
    match e {
        Dlx3Error::Input { kind, .. } => Error::input(kind),
        Dlx3Error::TooManyLevels => Error::new(ErrorKind::TooManyLevels, e.message()),
        other => Error::new(ErrorKind::Engine, other.message()),
    }
}

/// Storage for `inner`: sized from the text as `xcover dlx3` sizes it, or from the built
/// problem (room for its items, entries and spacers, and [`levels`]).
fn storage(inner: &Inner) -> HeapWorkspace {
    match &inner.source {
        Source::Text(text) => HeapWorkspace::for_input(text),
        Source::Built(spec) => {
            let entries: usize = spec.options.iter().map(Vec::len).sum();
            let capacity = Capacity {
                item_slots: inner.items.len() + 2,
                node_slots: inner.items.len() + entries + spec.options.len() + 3,
            };
            HeapWorkspace::new(capacity, levels(inner))
        }
    }
}

/// The levels of the search of `inner`: Knuth's for a text, a level per possible move for
/// a built problem.
fn levels(inner: &Inner) -> usize {
    match &inner.source {
        Source::Text(_) => MAX_LEVEL,
        Source::Built(_) => {
            // Every move covers a primary item once more, or leaves one at its bound.
            let moves: u64 = inner
                .items
                .iter()
                .filter(|it| !it.is_secondary())
                .map(|it| u64::from(it.bounds().1) + 1)
                .sum();
            let levels = usize::try_from(moves)
                .unwrap_or(usize::MAX)
                .saturating_add(2);
            levels.max(MAX_LEVEL)
        }
    }
}

/// Reads `text` into `e` line by line; an error carries its line, Knuth's position and
/// the line as the command's report shows them.
fn read_text(e: &mut Dlx3<'_>, text: &[u8]) -> Result<(), Error> {
    let mut line = 0;
    let mut warnings = Discard;
    let result = FgetsLines::new(text)
        .try_for_each(|chunk| {
            line += 1;
            e.read_line(chunk, &mut warnings)
        })
        .and_then(|()| e.end_input(&mut warnings));
    result.map_err(|x| {
        let Dlx3Error::Input { kind, pos } = x else {
            return engine_error(x);
        };
        // The report is `MESSAGE!\nPOS: LINE\n`: keep LINE.
        let mut report = Text(Vec::new());
        e.write_error_report(&x, &mut report);
        let report = String::from_utf8_lossy(&report.0).into_owned();
        let shown = report
            .lines()
            .nth(1)
            .and_then(|l| l.split_once(": "))
            .map_or(String::new(), |(_, t)| t.to_owned());
        Error::input(kind).at_line(line.max(1), pos.max(0) as usize, shown)
    })
}

/// Adds the built problem `spec` to `e` with short internal names (core keeps at most 8
/// bytes per name; the user's names stay in the problem).
fn add_spec(e: &mut Dlx3<'_>, items: &[Item], spec: &Spec) -> Result<(), Error> {
    for (k, item) in items.iter().enumerate() {
        let name = format!("{k:x}");
        let (lo, hi) = item.bounds();
        let (lo, hi) = (i32::try_from(lo), i32::try_from(hi));
        let (Ok(lo), Ok(hi)) = (lo, hi) else {
            return Err(Error::new(ErrorKind::Builder, "Bound too large").with_item(item.name()));
        };
        e.add_item(name.as_bytes(), lo, hi, item.is_secondary())
            .map_err(|x| engine_error(x).with_item(item.name()))?;
    }
    let mut option = Vec::new();
    for entries in &spec.options {
        option.clear();
        option.extend(entries.iter().map(|&(k, color)| (k as u32 + 1, color)));
        e.add_option(&option, &mut Discard).map_err(engine_error)?;
    }
    e.end_input(&mut Discard).map_err(engine_error)
}

/// Runs `f` on an engine loaded with `inner` and `settings`.
fn with_engine<T>(
    inner: &Inner,
    settings: Settings,
    f: impl FnOnce(&mut Dlx3<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut ws = storage(inner);
    let mut e = Dlx3::new(ws.as_mut_view(), settings).map_err(engine_error)?;
    match &inner.source {
        Source::Text(text) => read_text(&mut e, text)?,
        Source::Built(spec) => add_spec(&mut e, &inner.items, spec)?,
    }
    f(&mut e)
}

/// Reads Knuth's text: its items (names, bounds, kind) and its options (entries with
/// colors), as the engine keeps them (options without primary items dropped).
pub(crate) fn describe_text(text: &[u8]) -> Result<Inner, Error> {
    let mut inner = Inner {
        source: Source::Text(text.to_vec()),
        items: Vec::new(),
        options: Vec::new(),
        kept: Vec::new(),
    };
    let (items, options) = with_engine(&inner, settings(None), |e| {
        let name = |k: u32| {
            let raw = e.item_name(k);
            let len = raw.iter().position(|&c| c == 0).unwrap_or(raw.len());
            String::from_utf8_lossy(&raw[..len]).into_owned()
        };
        let items: Vec<Item> = (1..=e.item_count())
            .map(|k| {
                let bounds = e
                    .item_bounds(k)
                    .map_or((0, 0), |(lo, hi)| (lo.max(0) as u32, hi.max(0) as u32));
                Item::new(name(k), e.is_secondary(k), bounds)
            })
            .collect();
        let mut buf = vec![(0u32, 0i32); items.len()];
        let options: Vec<Entries> = (1..=e.option_count())
            .map(|j| {
                let n = e.option_items(j as u32, &mut buf).min(buf.len());
                buf[..n]
                    .iter()
                    .map(|&(k, color)| {
                        let color = (color != 0)
                            .then(|| String::from_utf8_lossy(&[color as u8]).into_owned());
                        (k as usize - 1, color)
                    })
                    .collect()
            })
            .collect();
        Ok((items, options))
    })?;
    // The engine numbers exactly the options it keeps.
    inner.kept = (0..options.len()).collect();
    (inner.items, inner.options) = (items, options);
    Ok(inner)
}

/// Checks that a built problem loads (capacities, Knuth's limits).
pub(crate) fn check(inner: &Inner) -> Result<(), Error> {
    with_engine(inner, settings(None), |_| Ok(()))
}

/// Finds the options of the solutions of an engine: the option of every node, read once
/// (after the input), so that each move costs a look-up rather than a walk along its
/// option to the spacer (a third of the search thread's work per solution when the 6x6
/// tiles' 189,824 solutions were listed).
pub(crate) struct OptionsOf {
    /// The problem's index of the option of each node ([`NO_OPTION`] for none).
    option_of_node: Vec<usize>,
}

/// [`OptionsOf`]'s mark of a node in no option (an item's header, a spacer).
const NO_OPTION: usize = usize::MAX;

impl OptionsOf {
    /// The table of `e` (loaded), whose option numbers `kept` maps (1-based) to the
    /// problem's indices.
    pub(crate) fn new<W: Width>(e: &Dlx3<'_, W>, kept: &[usize]) -> OptionsOf {
        let mut numbers = vec![0; e.nodes().len()];
        e.node_options(&mut numbers);
        let option_of_node = numbers
            .iter()
            .map(|&n| {
                let k = (n as usize).checked_sub(1);
                k.and_then(|k| kept.get(k).copied()).unwrap_or(NO_OPTION)
            })
            .collect();
        OptionsOf { option_of_node }
    }

    /// The options of the solution `e` stopped at, as indices in the problem, in the
    /// order of the levels (null moves have none).
    pub(crate) fn of_solution<W: Width>(&self, e: &Dlx3<'_, W>, out: &mut Vec<usize>) {
        let depth = e.depth();
        out.clear();
        out.reserve(depth as usize);
        for l in 0..depth {
            let p = e.solution_node(l).map_or(usize::MAX, |p| p as usize);
            match self.option_of_node.get(p) {
                Some(&j) if j != NO_OPTION => out.push(j),
                _ => {}
            }
        }
    }
}

/// The counters of `e` and why it ended.
fn stats_of<W: Width>(e: &Dlx3<'_, W>, end: End) -> Stats {
    let s = e.stats();
    Stats {
        solutions: s.count,
        mems: s.mems,
        input_mems: s.imems,
        updates: s.updates,
        cleansings: s.cleansings,
        nodes: s.nodes,
        max_level: s.maxl,
        end,
    }
}

fn end_of(why: DoneReason) -> End {
    match why {
        DoneReason::Exhausted => End::Exhausted,
        DoneReason::SolutionLimit => End::SolutionLimit,
        DoneReason::Timeout => End::Timeout,
    }
}

/// Searches `inner` with `limits` on `threads` threads (a seeded search is one random
/// stream: it runs on one), handing each solution to `visitor` (when listing; without a
/// visitor it only counts). `stop` set from outside ends it (as [`End::Stopped`]), as does
/// the visitor's `Break`. The solutions and counters are one thread's.
pub(crate) fn search(
    inner: &Inner,
    limits: &Limits,
    threads: usize,
    visitor: Option<&mut dyn Visitor>,
    stop: Stop<'_>,
) -> Result<Stats, Error> {
    if limits.max_solutions == Some(0) {
        return Ok(Stats {
            end: End::SolutionLimit,
            ..Stats::default()
        });
    }
    with_engine(inner, settings(Some(limits)), |e| {
        if threads > 1 && limits.seed.is_none() {
            threads::search(inner, e, threads, visitor, stop)
        } else {
            let uncounted = limits.uncounted && limits.timeout.is_none();
            // Bit sets for a small plain exact cover (the same tree; they do not randomize).
            let bits = (uncounted && limits.seed.is_none())
                .then(|| bits::Tables::of(e))
                .flatten();
            if let Some(bits) = bits {
                let stats = bits.search(&inner.kept, limits, visitor, stop)?;
                return Ok(Stats {
                    input_mems: e.stats().imems,
                    ..stats
                });
            }
            // 16-bit links when they fit (they do not randomize).
            let narrow = (uncounted && limits.seed.is_none())
                .then(|| narrow::Narrow::of(e, levels(inner)))
                .flatten();
            if let Some(mut narrow) = narrow {
                let mut small = narrow.engine(e).map_err(engine_error)?;
                let stats = sequential(&mut small, &inner.kept, true, visitor, stop)?;
                return Ok(Stats {
                    input_mems: e.stats().imems,
                    ..stats
                });
            }
            sequential(e, &inner.kept, uncounted, visitor, stop)
        }
    })
}

/// The search on this thread (`uncounted`: without mems, updates and cleansings).
fn sequential<W: Width>(
    e: &mut Dlx3<'_, W>,
    kept: &[usize],
    uncounted: bool,
    mut visitor: Option<&mut dyn Visitor>,
    stop: Stop<'_>,
) -> Result<Stats, Error> {
    let mut options = Vec::new();
    let options_of = visitor.is_some().then(|| OptionsOf::new(e, kept));
    loop {
        if stop.is_set() {
            return Ok(stats_of(e, End::Stopped));
        }
        let event = match visitor {
            _ if uncounted => e.run_uncounted(SLICE_NODES, visitor.is_some()),
            Some(_) => e.run_silent(SLICE),
            // Counting: the engine's fastest loop, which stops only at the limit.
            None => {
                let mut sinks = Sinks {
                    out: &mut Discard,
                    err: &mut Discard,
                    shape: None,
                };
                e.run_to_printed(SLICE, &mut sinks)
            }
        }
        .map_err(engine_error)?;
        let flow = match (event, visitor.as_deref_mut()) {
            (Event::Done(why), _) => return Ok(stats_of(e, end_of(why))),
            (Event::Solution, Some(v)) => {
                if let Some(o) = &options_of {
                    o.of_solution(e, &mut options);
                }
                v.solution(&options)
            }
            (Event::BudgetExhausted, Some(v)) => v.pause(),
            _ => ControlFlow::Continue(()),
        };
        if flow.is_break() {
            return Ok(stats_of(e, End::Stopped));
        }
    }
}

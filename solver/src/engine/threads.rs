//! A search on several threads with one thread's solutions, order and counters, from
//! core's split of a search into units (`xcover_core::dlx3`, `split`): every trial on the
//! split level is a unit; workers, each with its own engine, explore the units they
//! claim (the next unclaimed one when they are free) and record what each gave; this
//! thread's engine walks the search in order and, at each unit, hands out the recorded
//! solutions and skips the unit with its totals (`skip_unit`), or explores the unit itself
//! when nobody has claimed it yet or when a limit falls inside it (`must_explore`).
use std::ops::ControlFlow;

use xcover_core::dlx3::{Dlx3, Event, Stats as CoreStats, UnitTotals};

use super::{
    end_of, engine_error, settings, stats_of, with_engine, OptionsOf, Stop, Visitor, SLICE,
};
use crate::error::Error;
use crate::problem::Inner;
use crate::stats::{End, Stats};
use crate::units::{Fetched, Pool, Walk, Worker};

/// Units per thread the split aims at: enough that the last units are small next to the
/// whole, so that no thread waits long for another.
const UNITS_PER_THREAD: u64 = 64;

/// How far ahead of the walk (in units) workers may explore: bounds the records held.
const WINDOW_PER_THREAD: u64 = 16;

/// What exploring one unit gave.
struct Record {
    /// The unit's counters (`maxl`: the deepest level its explorer had reached).
    stats: CoreStats,
    /// Its solutions, in order, as option indices (empty when counting).
    solutions: Vec<Vec<usize>>,
}

/// The search of `e` (loaded, at its start, with the user's limits) on `threads` threads.
pub(super) fn search(
    inner: &Inner,
    e: &mut Dlx3<'_>,
    threads: usize,
    visitor: Option<&mut dyn Visitor>,
    stop: Stop<'_>,
) -> Result<Stats, Error> {
    let units = UNITS_PER_THREAD.saturating_mul(threads as u64);
    let split = e.choose_split_level(units).map_err(engine_error)?;
    e.set_split_level(Some(split)).map_err(engine_error)?;
    let listing = visitor.is_some();
    let interrupted = || stop.is_set();
    // Fewer workers than asked (the system refused a thread): the walk explores the units
    // nobody claims, so the search only takes longer.
    let pool = Pool::new(threads - 1)
        .window(WINDOW_PER_THREAD.saturating_mul(threads as u64))
        .walk_explores_unclaimed()
        .allow_fewer_workers()
        .interrupted(&interrupted);
    pool.run(
        |w| worker(inner, split, listing, w, stop),
        |records| walk(e, &inner.kept, records, visitor, stop),
    )
    .map_err(|x| Error::new(crate::error::ErrorKind::Engine, x.to_string()))?
}

/// One worker: its own engine, exploring the units it claims (a unit left unfinished, on
/// any way out, is the walk's).
fn worker(inner: &Inner, split: u32, listing: bool, w: &Worker<'_, Record>, stop: Stop<'_>) {
    let _ = with_engine(inner, settings(None), |e| {
        e.set_split_level(Some(split)).map_err(engine_error)?;
        w.claim();
        // The counters at the root of the unit being explored, and its solutions.
        let mut current: Option<(CoreStats, Vec<Vec<usize>>)> = None;
        let mut options = Vec::new();
        let options_of = listing.then(|| OptionsOf::new(e, &inner.kept));
        loop {
            if w.claimed().is_none() || stop.is_set() || w.is_over() {
                return Ok(());
            }
            let event = if listing {
                e.run_silent(SLICE)
            } else {
                e.run_to_printed(
                    SLICE,
                    &mut xcover_core::dlx3::Sinks {
                        out: &mut xcover_core::sink::Discard,
                        err: &mut xcover_core::sink::Discard,
                        shape: None,
                    },
                )
            };
            match event.map_err(engine_error)? {
                Event::Unit(k) if Some(k) == w.claimed() => current = Some((e.stats(), Vec::new())),
                Event::Unit(_) => e.skip_unit(None).map_err(engine_error)?,
                Event::Solution => {
                    if let Some((_, solutions)) = current.as_mut() {
                        if let Some(o) = &options_of {
                            o.of_solution(e, &mut options);
                            solutions.push(options.clone());
                        }
                    }
                }
                Event::UnitDone(_) => {
                    if let Some((before, solutions)) = current.take() {
                        let stats = e.stats().since(&before);
                        w.finish(Record { stats, solutions });
                        w.claim();
                    }
                }
                Event::Done(_) => return Ok(()),
                Event::BudgetExhausted => {}
            }
        }
    });
}

/// The walk in order: the user's engine, its limits and its solutions.
fn walk(
    e: &mut Dlx3<'_>,
    kept: &[usize],
    records: &mut Walk<'_, Record>,
    mut visitor: Option<&mut dyn Visitor>,
    stop: Stop<'_>,
) -> Result<Stats, Error> {
    let mut options = Vec::new();
    let options_of = visitor.is_some().then(|| OptionsOf::new(e, kept));
    loop {
        if stop.is_set() {
            return Ok(stats_of(e, End::Stopped));
        }
        let event = e.run_silent(SLICE).map_err(engine_error)?;
        let flow = match event {
            Event::Done(why) => return Ok(stats_of(e, end_of(why))),
            Event::Unit(k) => match records.fetch(k) {
                // Nobody had claimed it, or its worker failed: explore it here.
                Fetched::Explore => ControlFlow::Continue(()),
                Fetched::Interrupted => ControlFlow::Break(()),
                Fetched::Record(rec) if e.must_explore(&rec.stats) => ControlFlow::Continue(()),
                Fetched::Record(rec) => {
                    let mut flow = ControlFlow::Continue(());
                    if let Some(v) = visitor.as_deref_mut() {
                        for s in &rec.solutions {
                            flow = v.solution(s);
                            if flow.is_break() {
                                break;
                            }
                        }
                    }
                    let totals = UnitTotals {
                        stats: rec.stats,
                        profile: &[],
                    };
                    e.skip_unit(Some(totals)).map_err(engine_error)?;
                    flow
                }
            },
            Event::Solution => match visitor.as_deref_mut() {
                Some(v) => {
                    if let Some(o) = &options_of {
                        o.of_solution(e, &mut options);
                    }
                    v.solution(&options)
                }
                None => ControlFlow::Continue(()),
            },
            Event::BudgetExhausted => match visitor.as_deref_mut() {
                Some(v) => v.pause(),
                None => ControlFlow::Continue(()),
            },
            Event::UnitDone(_) => ControlFlow::Continue(()),
        };
        if flow.is_break() {
            return Ok(stats_of(e, End::Stopped));
        }
    }
}

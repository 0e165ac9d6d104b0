//! A search on several threads with one thread's solutions, order and counters, from
//! core's split of a search into units (`xcover_core::dlx3`, `split`): every trial on the
//! split level is a unit; workers, each with its own engine, explore the units they
//! claim (the next unclaimed one when they are free) and record what each gave; this
//! thread's engine walks the search in order and, at each unit, hands out the recorded
//! solutions and skips the unit with its totals (`skip_unit`), or explores the unit itself
//! when nobody has claimed it yet or when a limit falls inside it (`must_explore`).
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use xcover_core::dlx3::{Dlx3, Event, Stats as CoreStats, UnitTotals};

use super::{
    end_of, engine_error, settings, stats_of, with_engine, OptionsOf, Stop, Visitor, SLICE,
};
use crate::error::Error;
use crate::problem::Inner;
use crate::stats::{End, Stats};

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

/// What the walk and the workers share.
#[derive(Default)]
struct Board {
    /// The next unit nobody has claimed.
    next: u64,
    /// The unit the walk is at.
    walk_at: u64,
    /// Finished units; `None`: its worker failed inside (the walk explores it again,
    /// which gives the error in order).
    done: BTreeMap<u64, Option<Record>>,
    /// The walk is over: workers stop.
    over: bool,
}

struct Shared {
    board: Mutex<Board>,
    changed: Condvar,
    window: u64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Claims the next unit for a worker, waiting while it is too far ahead of the walk;
    /// `None` when the walk is over.
    fn claim(&self) -> Option<u64> {
        let mut b = self.lock();
        while !b.over && b.next >= b.walk_at + self.window {
            b = self.changed.wait(b).unwrap_or_else(PoisonError::into_inner);
        }
        if b.over {
            return None;
        }
        b.next += 1;
        Some(b.next - 1)
    }

    fn finish(&self, k: u64, record: Option<Record>) {
        self.lock().done.insert(k, record);
        self.changed.notify_all();
    }
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
    let shared = Shared {
        board: Mutex::new(Board::default()),
        changed: Condvar::new(),
        window: WINDOW_PER_THREAD.saturating_mul(threads as u64),
    };
    let listing = visitor.is_some();
    std::thread::scope(|scope| {
        for w in 1..threads {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("xcover-solver worker {w}"))
                .spawn_scoped(scope, move || worker(inner, split, listing, shared, stop));
            // Fewer workers than asked (the system refused a thread): the walk explores
            // the units nobody claims, so the search only takes longer.
            if spawned.is_err() {
                break;
            }
        }
        let walked = walk(e, &inner.kept, &shared, visitor, stop);
        shared.lock().over = true;
        shared.changed.notify_all();
        walked
    })
}

/// One worker: its own engine, exploring the units it claims.
fn worker(inner: &Inner, split: u32, listing: bool, shared: &Shared, stop: Stop<'_>) {
    // The unit this worker has claimed and not finished: on any way out, it is marked
    // failed, so that the walk explores it rather than wait.
    let mut target = None;
    let _ = with_engine(inner, settings(None), |e| {
        e.set_split_level(Some(split)).map_err(engine_error)?;
        target = shared.claim();
        // The unit being explored and the counters at its root.
        let mut current: Option<(u64, CoreStats, Vec<Vec<usize>>)> = None;
        let mut options = Vec::new();
        let options_of = listing.then(|| OptionsOf::new(e, &inner.kept));
        loop {
            if target.is_none() || stop.is_set() {
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
            let event = match event {
                Ok(event) => event,
                Err(x) => return Err(engine_error(x)),
            };
            match event {
                Event::Unit(k) if Some(k) == target => current = Some((k, e.stats(), Vec::new())),
                Event::Unit(_) => e.skip_unit(None).map_err(engine_error)?,
                Event::Solution => {
                    if let Some((_, _, solutions)) = current.as_mut() {
                        if let Some(o) = &options_of {
                            o.of_solution(e, &mut options);
                            solutions.push(options.clone());
                        }
                    }
                }
                Event::UnitDone(k) => {
                    if let Some((j, before, solutions)) = current.take() {
                        let stats = e.stats().since(&before);
                        debug_assert_eq!(j, k);
                        shared.finish(j, Some(Record { stats, solutions }));
                        target = shared.claim();
                    }
                }
                Event::Done(_) => return Ok(()),
                Event::BudgetExhausted => {}
            }
        }
    });
    if let Some(k) = target {
        shared.finish(k, None);
    }
}

/// The walk in order: the user's engine, its limits and its solutions.
fn walk(
    e: &mut Dlx3<'_>,
    kept: &[usize],
    shared: &Shared,
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
            Event::Unit(k) => match fetch(shared, k, stop) {
                // Nobody had claimed it, or its worker failed: explore it here.
                None => ControlFlow::Continue(()),
                Some(rec) if e.must_explore(&rec.stats) => ControlFlow::Continue(()),
                Some(rec) => {
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

/// Unit `k`'s record, waiting for its worker; `None` when this thread must explore it
/// (nobody had claimed it: it is claimed here; or its worker failed; or `stop`).
fn fetch(shared: &Shared, k: u64, stop: Stop<'_>) -> Option<Record> {
    let mut b = shared.lock();
    b.walk_at = k;
    // Records of units before `k` are not needed any more (explored here instead).
    b.done = b.done.split_off(&k);
    shared.changed.notify_all();
    if b.next <= k {
        b.next = k + 1;
        return None;
    }
    loop {
        if let Some(rec) = b.done.remove(&k) {
            return rec;
        }
        if stop.is_set() {
            return None;
        }
        let (guard, _) = shared
            .changed
            .wait_timeout(b, std::time::Duration::from_millis(50))
            .unwrap_or_else(PoisonError::into_inner);
        b = guard;
    }
}

//! `xcover dlx3 merge --threads N`: the units of counts-only parts that hold a printed
//! solution (known from the recorded counts before the walk) are explored again on N
//! worker threads, ahead of the coordinator, which takes their records (with the
//! solutions' text) instead of exploring them itself. Each such record is checked against
//! the part's: the counters must agree, or the merge ends with an error naming the part
//! and the unit.
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use xcover_core::dlx3::{Dlx3, Settings};

use super::merge::Recorded;
use super::units::{self, coordinate, Fetched, Image, Output, UnitRecord, UnitSource, Walked};

/// How long the coordinator sleeps while a unit it needs is still being explored.
const POLL: Duration = Duration::from_millis(2);

/// What the workers of a merge explore.
pub(crate) struct Plan<'p> {
    /// Every unit's recorded count of solutions, `(unit, count)` in unit order.
    pub counts: &'p [(u64, u64)],
    /// The units to explore again, increasing.
    pub wanted: Vec<u64>,
}

impl<'p> Plan<'p> {
    /// The units a walk with `settings` explores again: those of a counts-only run that
    /// hold a printed solution. (Solutions found above the split level would shift the
    /// numbers; the coordinator explores any unit it needs that is not here, so this only
    /// has to be right in the common case.)
    pub fn new(settings: &Settings, counts: &'p [(u64, u64)]) -> Plan<'p> {
        let mut base = 0u64;
        let mut wanted = Vec::new();
        for &(k, c) in counts {
            if units::prints_within(settings, base, c) {
                wanted.push(k);
            }
            base = base.saturating_add(c);
        }
        Plan { counts, wanted }
    }
}

/// A finished unit from a worker: its record, or `None` when the worker failed inside it.
type Finished = (u64, Option<UnitRecord>);

/// The parts' records, with the units in `wanted` replaced by the workers' records.
struct Prefetched<'s> {
    recorded: &'s mut Recorded,
    wanted: &'s [u64],
    rx: Receiver<Finished>,
    early: BTreeMap<u64, Option<UnitRecord>>,
    interrupted: &'s dyn Fn() -> bool,
}

impl UnitSource for Prefetched<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, String> {
        let recorded = match self.recorded.unit(k)? {
            Fetched::Record(rec) => rec,
            other => return Ok(other),
        };
        if self.wanted.binary_search(&k).is_err() {
            return Ok(Fetched::Record(recorded));
        }
        loop {
            let mut disconnected = false;
            loop {
                match self.rx.try_recv() {
                    Ok((j, rec)) => {
                        self.early.insert(j, rec);
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        disconnected = true;
                        break;
                    }
                }
            }
            match self.early.remove(&k) {
                Some(Some(rec)) => {
                    if units::counters(&rec.stats) != units::counters(&recorded.stats) {
                        let name = self.recorded.name(k);
                        return Err(units::disagreement(&name, &recorded.stats, &rec.stats));
                    }
                    return Ok(Fetched::Record(rec));
                }
                // The worker failed in it: the coordinator explores it (and checks it).
                Some(None) => return Ok(Fetched::Record(recorded)),
                None if disconnected => return Ok(Fetched::Record(recorded)),
                None => {}
            }
            if (self.interrupted)() {
                return Ok(Fetched::Interrupted);
            }
            std::thread::sleep(POLL);
        }
    }

    fn name(&self, k: u64) -> String {
        self.recorded.name(k)
    }
}

/// Walks the merge of `recorded` on the coordinator (`engine`, the user's settings)
/// while `threads` workers explore the units of `plan` ahead of it.
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    split: u32,
    threads: usize,
    recorded: &mut Recorded,
    plan: &Plan<'_>,
    io: &mut dyn Output,
    interrupted: &dyn Fn() -> bool,
) -> Result<Walked, String> {
    let (counts, wanted) = (plan.counts, &plan.wanted[..]);
    let image = Image::of(engine);
    // The user's print rule: the workers number the solutions as the whole search does
    // (skipped units add their recorded counts), so they format only what is printed.
    let mut settings = units::worker_settings(engine.settings());
    settings.spacing = engine.settings().spacing;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Finished>();
    std::thread::scope(|scope| {
        for w in 0..threads.min(wanted.len()) {
            let tx = tx.clone();
            let (image, next, stop) = (&image, &next, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("dlx3 merge worker {w}"))
                .spawn_scoped(scope, move || {
                    let mut storage = image.storage();
                    let Ok(mut e) = image.engine(&mut storage, settings) else {
                        return;
                    };
                    // Claim the wanted units in increasing order, the next one when free.
                    let claim = || wanted.get(next.fetch_add(1, Ordering::Relaxed)).copied();
                    let target = Cell::new(claim());
                    if target.get().is_none() {
                        return;
                    }
                    let count = |k: u64| match counts.binary_search_by_key(&k, |&(j, _)| j) {
                        Ok(at) => counts[at].1,
                        Err(_) => 0,
                    };
                    let r = units::explore(
                        &mut e,
                        split,
                        |k| {
                            if Some(k) == target.get() {
                                units::Claim::ExplorePrinting
                            } else {
                                units::Claim::SkipCounting(count(k))
                            }
                        },
                        |k, rec| {
                            target.set(claim());
                            tx.send((k, Some(rec))).is_ok() && target.get().is_some()
                        },
                        &|| stop.load(Ordering::Relaxed),
                    );
                    if let Err((Some(k), _)) = r {
                        let _ = tx.send((k, None));
                    }
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(format!("can't start worker thread {w}: {e}"));
            }
        }
        drop(tx);
        let mut source = Prefetched {
            recorded,
            wanted,
            rx,
            early: BTreeMap::new(),
            interrupted,
        };
        let walked = coordinate(engine, split, &mut source, io);
        stop.store(true, Ordering::Relaxed);
        walked
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_that_hold_a_printed_solution() {
        let mut s = Settings::DEFAULT;
        s.spacing = 10;
        let counts = [(0, 4), (1, 5), (2, 1), (3, 0), (4, 12), (5, 3)];
        // Solutions 1-4, 5-9, 10, -, 11-22, 23-25: 10 and 20 are printed.
        assert_eq!(Plan::new(&s, &counts).wanted, vec![2, 4]);
        s.spacing = 0;
        assert!(Plan::new(&s, &counts).wanted.is_empty());
    }
}

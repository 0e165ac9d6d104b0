//! Worker threads that explore units of a split search ahead of the coordinator, for
//! `--threads` (every unit, the next unclaimed one when a worker is free) and for
//! `merge --threads` (the units that hold a printed solution). Each worker has its own
//! engine over the matrix; its records arrive in any order and are handed out in unit
//! order ([`Arrivals::wait`]).
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use xcover_core::dlx3::{Dlx3, Settings};

use super::units::{self, Claim, Image, UnitRecord, WalkError};

/// How long the coordinator sleeps while the unit it needs is still being explored.
const POLL: Duration = Duration::from_millis(2);

/// A finished unit from a worker: its record, or `None` when the worker failed inside
/// it (the coordinator then explores it, which reproduces the failure in order).
type Finished = (u64, Option<UnitRecord>);

/// What the workers do.
pub(crate) struct Work<'w> {
    /// The workers' settings (`Settings::for_units`).
    pub settings: Settings,
    /// The next unit for a free worker to explore; `None` when none is left. Units are
    /// handed out in increasing order.
    pub next: &'w (dyn Fn() -> Option<u64> + Sync),
    /// How a worker explores the unit it took.
    pub take: Claim,
    /// How a worker passes a unit it did not take.
    pub pass: &'w (dyn Fn(u64) -> Claim + Sync),
    /// The threads' name (a number is added).
    pub name: &'static str,
}

/// What became of a unit the coordinator waits for.
pub(crate) enum Arrival {
    /// A worker explored it.
    Record(UnitRecord),
    /// Its worker failed inside it, or every worker has stopped without it: the
    /// coordinator must explore it.
    Missing,
    /// A signal: stop waiting.
    Interrupted,
}

/// Unit records arriving from the workers in any order, handed out in unit order.
pub(crate) struct Arrivals<'s> {
    rx: Receiver<Finished>,
    early: BTreeMap<u64, Option<UnitRecord>>,
    interrupted: &'s dyn Fn() -> bool,
}

impl Arrivals<'_> {
    /// Waits for unit `k`'s record.
    pub fn wait(&mut self, k: u64) -> Arrival {
        loop {
            // Take whatever has arrived; the workers never wait for the coordinator.
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
                Some(Some(rec)) => return Arrival::Record(rec),
                Some(None) => return Arrival::Missing,
                None if disconnected => return Arrival::Missing,
                None => {}
            }
            if (self.interrupted)() {
                return Arrival::Interrupted;
            }
            // Poll rather than block: a coordinator woken by every finished unit (thousands
            // a second) would take the workers' cores from them.
            std::thread::sleep(POLL);
        }
    }
}

/// Runs `coordinate` on this thread while `threads` workers explore units of the search
/// of `engine` (at its start), split at `split`, as `work` says; the workers stop when
/// `coordinate` returns.
pub(crate) fn run<T>(
    engine: &mut Dlx3<'_>,
    split: u32,
    threads: usize,
    work: &Work<'_>,
    interrupted: &dyn Fn() -> bool,
    coordinate: impl FnOnce(&mut Dlx3<'_>, Arrivals<'_>) -> Result<T, WalkError>,
) -> Result<T, WalkError> {
    let image = Image::of(engine);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Finished>();
    std::thread::scope(|scope| {
        for w in 0..threads {
            let tx = tx.clone();
            let (image, stop) = (&image, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("{} {w}", work.name))
                .spawn_scoped(scope, move || worker(image, split, work, stop, &tx));
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(WalkError::Spawn {
                    worker: w,
                    error: e,
                });
            }
        }
        drop(tx);
        let arrivals = Arrivals {
            rx,
            early: BTreeMap::new(),
            interrupted,
        };
        let walked = coordinate(engine, arrivals);
        stop.store(true, Ordering::Relaxed);
        walked
    })
}

/// One worker: an engine of its own, taking units as `work` hands them out.
fn worker(
    image: &Image,
    split: u32,
    work: &Work<'_>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Finished>,
) {
    let mut storage = image.storage();
    let Ok(mut e) = image.engine(&mut storage, work.settings) else {
        return;
    };
    let target = Cell::new((work.next)());
    if target.get().is_none() {
        return;
    }
    let r = units::explore(
        &mut e,
        split,
        |k| {
            if Some(k) == target.get() {
                work.take
            } else {
                (work.pass)(k)
            }
        },
        |k, rec| {
            target.set((work.next)());
            tx.send((k, Some(rec))).is_ok() && target.get().is_some()
        },
        &|| stop.load(Ordering::Relaxed),
    );
    if let Err((Some(k), _)) = r {
        let _ = tx.send((k, None));
    }
}

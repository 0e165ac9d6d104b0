//! `xcover dlx3 --threads N`: workers explore the units of a split search, each taking the
//! next unclaimed unit when it is free; the main thread walks the search in order and
//! prints what one thread prints (see [`super::units`]).
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use xcover_core::dlx3::{Dlx3, Settings};

use super::units::{self, coordinate, Fetched, Image, Output, UnitRecord, UnitSource, Walked};

/// How long the coordinator sleeps while the unit it needs is still being explored.
const POLL: Duration = Duration::from_millis(2);

/// A finished unit from a worker: its record, or `None` when the worker failed inside
/// it (the main thread then explores it, which reproduces the failure in order).
type Finished = (u64, Option<UnitRecord>);

/// Unit records arriving from the workers in any order, handed out in unit order.
struct Arrivals<'s> {
    rx: Receiver<Finished>,
    early: BTreeMap<u64, Option<UnitRecord>>,
    interrupted: &'s dyn Fn() -> bool,
}

impl UnitSource for Arrivals<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, String> {
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
            if let Some(rec) = self.early.remove(&k) {
                return Ok(rec.map_or(Fetched::Explore, Fetched::Record));
            }
            if disconnected {
                // Every worker has stopped and nobody explored unit k.
                return Ok(Fetched::Explore);
            }
            if (self.interrupted)() {
                return Ok(Fetched::Interrupted);
            }
            // Poll rather than block: a coordinator woken by every finished unit (thousands
            // a second) would take the workers' cores from them (measured: 10-20 % more
            // CPU with two workers on two cores).
            std::thread::sleep(POLL);
        }
    }
}

/// Runs the search of `engine` (input read, settings the user's) on `threads` workers
/// plus the coordinating main thread, splitting at `split`.
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    split: u32,
    threads: usize,
    io: &mut dyn Output,
    interrupted: &dyn Fn() -> bool,
) -> Result<Walked, String> {
    let image = Image::of(engine);
    let settings: Settings = units::worker_settings(engine.settings());
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Finished>();
    std::thread::scope(|scope| {
        for w in 0..threads {
            let tx = tx.clone();
            let (image, next, stop) = (&image, &next, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("dlx3 worker {w}"))
                .spawn_scoped(scope, move || {
                    let mut storage = image.storage();
                    let Ok(mut e) = image.engine(&mut storage, settings) else {
                        return;
                    };
                    // Claim units in increasing order: the next one when free.
                    let target = Cell::new(next.fetch_add(1, Ordering::Relaxed));
                    let r = units::explore(
                        &mut e,
                        split,
                        |k| {
                            if k == target.get() {
                                units::Claim::Explore
                            } else {
                                units::Claim::Skip
                            }
                        },
                        |k, rec| {
                            target.set(next.fetch_add(1, Ordering::Relaxed));
                            tx.send((k, Some(rec))).is_ok()
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
        let mut arrivals = Arrivals {
            rx,
            early: BTreeMap::new(),
            interrupted,
        };
        let walked = coordinate(engine, split, &mut arrivals, io);
        stop.store(true, Ordering::Relaxed);
        walked
    })
}

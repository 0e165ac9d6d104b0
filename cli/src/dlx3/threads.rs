//! `xcover dlx3 --threads N`: workers explore the units of a split search, each taking the
//! next unclaimed unit when it is free; the main thread walks the search in order and
//! prints what one thread prints (see [`super::units`], [`super::pool`]).
use std::sync::atomic::{AtomicU64, Ordering};

use xcover_core::dlx3::Dlx3;

use super::pool::{self, Arrival, Arrivals, Work};
use super::units::{coordinate, Claim, Fetched, Output, UnitSource, WalkError, Walked};

/// The workers' records, in unit order; a unit nobody explored is explored here.
struct Arrived<'s>(Arrivals<'s>);

impl UnitSource for Arrived<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        Ok(match self.0.wait(k) {
            Arrival::Record(rec) => Fetched::Record(rec),
            Arrival::Missing => Fetched::Explore,
            Arrival::Interrupted => Fetched::Interrupted,
        })
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
) -> Result<Walked, WalkError> {
    let next = AtomicU64::new(0);
    let work = Work {
        settings: engine.settings().for_units(),
        // Every unit, in increasing order (the search ends the workers past the last).
        next: &|| Some(next.fetch_add(1, Ordering::Relaxed)),
        take: Claim::Explore,
        pass: &|_| Claim::Skip,
        name: "dlx3 worker",
    };
    pool::run(
        engine,
        split,
        threads,
        &work,
        interrupted,
        |engine, arrivals| coordinate(engine, split, &mut Arrived(arrivals), io),
    )
}

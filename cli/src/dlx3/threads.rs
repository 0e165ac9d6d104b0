//! `xcover dlx3 --threads N`: workers explore the units of a split search, each taking the
//! next unclaimed unit when it is free; the main thread walks the search in order and
//! prints what one thread prints (see [`super::units`], [`super::pool`]).
use xcover_core::dlx3::Dlx3;
use xcover_solver::units::Pool;

use super::pool::{self, Arrivals, Work};
use super::units::{coordinate, Claim, Fetched, Output, UnitSource, WalkError, Walked};

/// The workers' records, in unit order; a unit nobody explored is explored here.
impl UnitSource for Arrivals<'_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, WalkError> {
        Ok(self.fetch(k))
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
    let work = Work {
        settings: engine.settings().for_units(),
        take: Claim::Explore,
        pass: &|_| Claim::Skip,
        name: "dlx3 worker",
    };
    // Every unit, in increasing order (the search ends the workers past the last).
    let workers = Pool::new(threads);
    pool::run(
        engine,
        split,
        workers,
        &work,
        interrupted,
        |engine, arrivals| coordinate(engine, split, arrivals, io),
    )
}

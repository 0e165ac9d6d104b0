//! `xcover dlx3 merge --threads N`: the units of counts-only parts that hold a printed
//! solution (known from the recorded counts before the walk) are explored again on N
//! worker threads, ahead of the coordinator, which takes their records (with the
//! solutions' text) instead of exploring them itself. Each such record is checked against
//! the part's: the counters must agree, or the merge ends with an error naming the part
//! and the unit.
use xcover_core::dlx3::{Dlx3, Settings, UnitCounters};
use xcover_solver::units::Pool;

use super::merge::Recorded;
use super::pool::{self, Arrivals, Work};
use super::units::{self, coordinate, Claim, Fetched, Output, UnitSource, Walked};

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
            if settings.prints_any(base, c) {
                wanted.push(k);
            }
            base = base.saturating_add(c);
        }
        Plan { counts, wanted }
    }
}

/// The parts' records, with the units in `wanted` replaced by the workers' records.
struct Prefetched<'r, 's> {
    recorded: &'r mut Recorded,
    wanted: &'r [u64],
    arrivals: &'r mut Arrivals<'s>,
}

impl UnitSource for Prefetched<'_, '_> {
    fn unit(&mut self, k: u64) -> Result<Fetched, units::WalkError> {
        let recorded = match self.recorded.unit(k)? {
            Fetched::Record(rec) => rec,
            other => return Ok(other),
        };
        if self.wanted.binary_search(&k).is_err() {
            return Ok(Fetched::Record(recorded));
        }
        match self.arrivals.fetch(k) {
            Fetched::Record(rec) => {
                if UnitCounters::of(&rec.stats) != UnitCounters::of(&recorded.stats) {
                    let name = self.recorded.name(k);
                    return Err(units::disagreement(&name, &recorded.stats, &rec.stats));
                }
                Ok(Fetched::Record(rec))
            }
            // No worker has it: the coordinator explores it (and checks it).
            Fetched::Explore => Ok(Fetched::Record(recorded)),
            Fetched::Interrupted => Ok(Fetched::Interrupted),
        }
    }

    fn more(&mut self, k: u64) -> Result<units::UnitRecord, units::WalkError> {
        self.recorded.more(k)
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
) -> Result<Walked, units::WalkError> {
    let (counts, wanted) = (plan.counts, &plan.wanted[..]);
    // The user's print rule: the workers number the solutions as the whole search does
    // (skipped units add their recorded counts), so they format only what is printed.
    let settings = engine
        .settings()
        .for_units()
        .print_interval(engine.settings().get_print_interval());
    let count = |k: u64| match counts.binary_search_by_key(&k, |&(j, _)| j) {
        Ok(at) => counts[at].1,
        Err(_) => 0,
    };
    let work = Work {
        settings,
        take: Claim::ExplorePrinting,
        pass: &|k| Claim::SkipCounting(count(k)),
        name: "dlx3 merge worker",
    };
    // The wanted units in increasing order, the next one when a worker is free.
    let workers = Pool::new(threads.min(wanted.len())).only(wanted.iter().copied());
    pool::run(
        engine,
        split,
        workers,
        &work,
        interrupted,
        |engine, arrivals| {
            let mut source = Prefetched {
                recorded,
                wanted,
                arrivals,
            };
            coordinate(engine, split, &mut source, io)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_that_hold_a_printed_solution() {
        let s = Settings::new().print_interval(10);
        let counts = [(0, 4), (1, 5), (2, 1), (3, 0), (4, 12), (5, 3)];
        // Solutions 1-4, 5-9, 10, -, 11-22, 23-25: 10 and 20 are printed.
        assert_eq!(Plan::new(&s, &counts).wanted, vec![2, 4]);
        let s = s.print_interval(0);
        assert!(Plan::new(&s, &counts).wanted.is_empty());
    }
}

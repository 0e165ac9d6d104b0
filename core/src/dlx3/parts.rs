//! One part of N of a split search, run by one engine: it walks the shared part in full,
//! explores only its own units and keeps their counters, so that the parts' shares add up
//! to the sequential run's counters (see `split`). The C API's `dlx3_set_part` is this.
use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::event::Event;
use super::split::Part;
use super::stats::{Stats, UnitCounters};
use super::storage::Width;

/// The part an engine runs ([`Dlx3::start_part`], [`Dlx3::run_part`]) and the counters of
/// the units it explored.
///
/// ```
/// use xcover_core::dlx3::{Dlx3, Event, Part, Settings, Stats, UnitCounters, Workspace};
/// use xcover_core::sink::Discard;
///
/// let input = b"A B C\nA B\nC\nA\nB C\nB\n";
/// let whole = {
///     let mut ws: Workspace<8, 64, 8> = Workspace::new();
///     let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
///     e.read_input(input, &mut Discard)?;
///     while e.run_silent(u64::MAX)? != Event::Done(xcover_core::dlx3::DoneReason::Exhausted) {}
///     UnitCounters::of(&e.stats())
/// };
/// let mut sum = UnitCounters::ZERO;
/// for i in 0..2 {
///     let mut ws: Workspace<8, 64, 8> = Workspace::new();
///     let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
///     e.read_input(input, &mut Discard)?;
///     let mut run = e.start_part(Part::new(i, 2).unwrap(), 1)?;
///     while !matches!(e.run_part(&mut run, 10)?, Event::Done(_)) {}
///     sum = sum.wrapping_add(&UnitCounters::of(&run.share(&e)));
/// }
/// assert_eq!(sum, whole);
/// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartRun {
    part: Part,
    /// The explored units' counters; while the search is inside a unit, the counters at
    /// its root have been subtracted (wrapping), so adding the engine's current counters
    /// gives the share.
    units: UnitCounters,
}

impl Default for PartRun {
    /// Part 0 of 1: the whole search.
    fn default() -> PartRun {
        PartRun {
            part: Part::WHOLE,
            units: UnitCounters::ZERO,
        }
    }
}

impl PartRun {
    /// Which part this is.
    pub const fn part(&self) -> Part {
        self.part
    }

    /// This part's share of `e`'s counters (`e` is the engine that runs it): part 0 gets
    /// all its engine counted (the shared part and its own units); every other part the
    /// counters of its own units only, `maxl` the deepest level reached inside them (0 if
    /// none), `bytes` computed with that level and `imems` 0. Adding every part's share
    /// gives the sequential run's counters (`maxl` and `bytes` as the largest).
    pub fn share<W: Width>(&self, e: &Dlx3<'_, W>) -> Stats {
        let engine = e.stats();
        if self.part.index() == 0 {
            return engine;
        }
        let split = e.split_level().unwrap_or(u32::MAX);
        let mut units = self.units;
        if e.depth() > split {
            // Inside a unit: its root's counters were subtracted.
            units = units.wrapping_add(&UnitCounters::of(&engine));
        }
        // Only units reach below the split level, and an explored one always does.
        let maxl = if engine.maxl > split { engine.maxl } else { 0 };
        Stats {
            imems: 0,
            maxl,
            bytes: engine.bytes - 4 * u64::from(engine.maxl) + 4 * u64::from(maxl),
            ..units.into_stats(engine)
        }
    }
}

impl<W: Width> Dlx3<'_, W> {
    /// Makes this engine run `part` of a search split at `split_level` (the same in every
    /// part; [`choose_split_level`](Dlx3::choose_split_level) picks one); then call
    /// [`run_part`](Dlx3::run_part) instead of `run`. Refused as
    /// [`set_split_level`](Dlx3::set_split_level) refuses.
    pub fn start_part(&mut self, part: Part, split_level: u32) -> Result<PartRun, Dlx3Error> {
        self.set_split_level(Some(split_level))?;
        Ok(PartRun {
            part,
            units: UnitCounters::ZERO,
        })
    }

    /// [`run_silent`](Dlx3::run_silent) for one part: explores the part's own units, skips
    /// the others, and stops only at the part's solutions (those inside its units, and
    /// those of the shared part in part 0), at the end, or when about `budget` mems (at
    /// least 1) have been spent. Returns [`Event::Solution`], [`Event::BudgetExhausted`] or
    /// [`Event::Done`], never a unit event.
    pub fn run_part(&mut self, run: &mut PartRun, budget: u64) -> Result<Event, Dlx3Error> {
        let part = run.part;
        let split = self.split_level().unwrap_or(u32::MAX);
        let stop = self.stats.mems.saturating_add(budget.max(1));
        let event = loop {
            let mems = self.stats.mems;
            match self.run_silent(stop.saturating_sub(mems)) {
                // Owned: explored by the next run (which always makes a step, so a pause
                // never falls on a unit's root: the search is inside a unit iff it is
                // deeper than the split level).
                Ok(Event::Unit(k)) if part.owns(k) => {
                    run.units = run.units.wrapping_sub(&UnitCounters::of(&self.stats()));
                    continue;
                }
                Ok(Event::Unit(_)) => {
                    if let Err(e) = self.skip_unit(None) {
                        break Err(e);
                    }
                }
                Ok(Event::UnitDone(_)) => {
                    run.units = run.units.wrapping_add(&UnitCounters::of(&self.stats()));
                }
                // A solution of the shared part is part 0's.
                Ok(Event::Solution) if part.index() != 0 && self.depth() <= split => {}
                other => break other,
            }
            if self.stats.mems >= stop {
                break Ok(Event::BudgetExhausted);
            }
        };
        // A solution passed over is not this part's to show.
        self.at_solution = matches!(event, Ok(Event::Solution));
        event
    }
}

#[cfg(test)]
mod tests {
    use super::super::event::{DoneReason, Event};
    use super::super::phase::Stage;
    use super::super::split::Part;
    use super::super::stats::UnitCounters;
    use super::super::testutil::{parse, queens, settings, Buffers};
    use super::PartRun;
    use crate::sink::Discard;
    use std::string::String;
    use std::vec::Vec;

    #[test]
    fn the_stage_follows_the_life_of_an_engine() {
        let mut b = Buffers::new(8, 64, 8);
        let mut e = super::Dlx3::new(b.storage(), settings(&[])).unwrap();
        assert_eq!(e.stage(), Stage::Items);
        e.add_item(b"A", 1, 1, false).unwrap();
        e.add_item(b"B", 1, 1, false).unwrap();
        assert_eq!(e.stage(), Stage::Items);
        for option in [&[(1, 0)][..], &[(2, 0)], &[(1, 0), (2, 0)]] {
            e.add_option(option, &mut Discard).unwrap();
            assert_eq!(e.stage(), Stage::Options);
        }
        e.end_input(&mut Discard).unwrap();
        assert_eq!(e.stage(), Stage::Ready);
        // A budget of 0 still makes a step: the search has moved.
        let mut stages = Vec::new();
        loop {
            let event = e.run_silent(0).unwrap();
            stages.push((event, e.stage()));
            if let Event::Done(_) = event {
                break;
            }
        }
        for (event, stage) in &stages {
            let want = match event {
                Event::Solution => Stage::Solution,
                Event::Done(_) => Stage::Done,
                _ => Stage::Searching,
            };
            assert_eq!(*stage, want, "{stages:?}");
        }
        assert_eq!(stages.iter().filter(|s| s.0 == Event::Solution).count(), 2);
        // An input error changes nothing: the engine takes the next line.
        let mut b = Buffers::new(8, 64, 8);
        let mut e = super::Dlx3::new(b.storage(), settings(&[])).unwrap();
        assert!(e.read_line(b"A A\n", &mut Discard).is_err());
        assert_eq!(e.stage(), Stage::Items);
        assert!(e.read_line(b"A B\n", &mut Discard).is_ok());
        assert_eq!(e.stage(), Stage::Options);
    }

    #[test]
    fn parts_stop_only_at_their_own_solutions_and_add_up() {
        let text = queens(6);
        let mut b = Buffers::for_text(&text);
        let mut whole = parse(&mut b, &text, settings(&[]), &mut String::new()).unwrap();
        let mut solutions = 0;
        while whole.run_silent(u64::MAX).unwrap() == Event::Solution {
            solutions += 1;
        }
        // Split at 6, the solutions (6 moves) are in the shared part: part 0's, passed
        // over by the others.
        for split in [1, 3, 6] {
            let (mut found, mut sum) = (0, UnitCounters::ZERO);
            for i in 0..3 {
                let mut b = Buffers::for_text(&text);
                let mut e = parse(&mut b, &text, settings(&[]), &mut String::new()).unwrap();
                let mut run: PartRun = e.start_part(Part::new(i, 3).unwrap(), split).unwrap();
                assert_eq!(e.stage(), Stage::Ready);
                loop {
                    let event = e.run_part(&mut run, 7).unwrap();
                    let stage = e.stage();
                    match event {
                        Event::Solution => {
                            found += 1;
                            assert_eq!(stage, Stage::Solution);
                        }
                        Event::BudgetExhausted => assert_eq!(stage, Stage::Searching),
                        Event::Done(why) => {
                            assert_eq!((why, stage), (DoneReason::Exhausted, Stage::Done));
                            break;
                        }
                        other => panic!("a part never shows {other:?}"),
                    }
                }
                sum = sum.wrapping_add(&UnitCounters::of(&run.share(&e)));
            }
            assert_eq!(found, solutions, "split {split}");
            assert_eq!(sum, UnitCounters::of(&whole.stats()), "split {split}");
        }
    }
}

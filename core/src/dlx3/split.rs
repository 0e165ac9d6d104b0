//! Splitting one search into parts that run anywhere and add up exactly.
//!
//! With a *split level* `D` set, every trial of an option (or of a null move) on level `D`
//! is a *unit*: the subtree below it, numbered `0, 1, 2, ...` in the order the sequential
//! search meets them. Everything above the units (the levels up to `D` and the choices made
//! there) is the *shared* part, which every engine walks in full; it is cheap when `D` is
//! shallow, and [`Dlx3::choose_split_level`] picks the shallowest level with enough units.
//!
//! [`Dlx3::run`] stops with [`Event::Unit`] at the root of each unit. The caller then
//! either explores it (calls `run` again, which ends the unit with [`Event::UnitDone`]) or
//! skips it with [`Dlx3::skip_unit`]. Because dancing links restore the matrix exactly, the
//! shared part makes the same moves and spends the same mems whatever happened below, so:
//!
//! - the sequential run's counters are the shared part's plus the sum of the units'
//!   ([`UnitTotals`]); a skipped unit's totals, measured by whoever explored it, can be
//!   added at the skip and the engine then reports exactly what one run reports;
//! - its solutions are those of the shared part and of the units, in unit order.
//!
//! A static partition ([`Part`]) lets independent processes each explore their share.
//! Random tie breaks (`s<seed>`) make the shared part depend on the units (one random
//! stream), so such an engine refuses to split.
use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::event::Event;
use super::ops::Dancer;
use super::phase::{Label, Phase};
use super::stats::Stats;
use super::storage::Width;

/// What an explored unit added to the counters, to be added where the unit is skipped.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitTotals<'p> {
    /// The unit's share of the counters: `count`, `mems`, `cmems`, `updates`, `cleansings`
    /// and `nodes` are added; `maxl` is the deepest level reached inside the unit.
    pub stats: Stats,
    /// Nodes per level inside the unit (Knuth's profile, `v128`), from level `D + 1` on,
    /// where `D` is the split level; empty when not profiling.
    pub profile: &'p [u64],
}

/// A static share of the units: unit `k` belongs to part `k % count`. Round robin mixes
/// the light and heavy subtrees of each region of the tree into every part.
///
/// ```
/// use xcover_core::dlx3::Part;
///
/// let p = Part::new(1, 3).unwrap();
/// assert!(p.owns(4) && !p.owns(5));
/// assert!(Part::new(3, 3).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    index: u64,
    count: u64,
}

impl Part {
    /// Part 0 of 1: the whole search.
    pub const WHOLE: Part = Part { index: 0, count: 1 };

    /// The most parts [`Part::parse`] accepts (`--shard I/N` of both engines, and the
    /// headers of their part files): nothing is ever sized by an unchecked N.
    pub const MAX_COUNT: u64 = 65536;

    /// Parses `I/N`, part I (from 0) of N, with `I < N <= MAX_COUNT`: the one reading of
    /// `--shard I/N` for both engines.
    ///
    /// ```
    /// use xcover_core::dlx3::{Part, PartParseError};
    ///
    /// assert_eq!(Part::parse("2/5"), Ok(Part::new(2, 5).unwrap()));
    /// assert_eq!(Part::parse("3/2"), Err(PartParseError::IndexNotBelowCount));
    /// assert_eq!(Part::parse("0/0"), Err(PartParseError::NoParts));
    /// assert_eq!(Part::parse("0/65537"), Err(PartParseError::TooMany));
    /// assert_eq!(Part::parse("x/2"), Err(PartParseError::NotANumber));
    /// assert_eq!(Part::parse("3"), Err(PartParseError::NotIOverN));
    /// ```
    pub fn parse(text: &str) -> Result<Part, PartParseError> {
        let (index, count) = text.split_once('/').ok_or(PartParseError::NotIOverN)?;
        // Digits only: no sign, no spaces (`str::parse` would take a leading `+`).
        let number = |digits: &str| match digits.bytes().all(|b| b.is_ascii_digit()) {
            true => digits.parse::<u64>().map_err(|e| match e.kind() {
                core::num::IntErrorKind::PosOverflow => PartParseError::TooMany,
                _ => PartParseError::NotANumber,
            }),
            false => Err(PartParseError::NotANumber),
        };
        let (index, count) = (number(index), number(count));
        // A number of parts too large says so, whatever I is.
        let count = count?;
        if count > Part::MAX_COUNT {
            return Err(PartParseError::TooMany);
        }
        let index = index.map_err(|_| PartParseError::NotANumber)?;
        if count == 0 {
            return Err(PartParseError::NoParts);
        }
        Part::new(index, count).ok_or(PartParseError::IndexNotBelowCount)
    }

    /// Part `index` of `count` (`None` unless `index < count`).
    pub const fn new(index: u64, count: u64) -> Option<Part> {
        if index < count {
            Some(Part { index, count })
        } else {
            None
        }
    }

    /// Which part this is (0-based).
    pub const fn index(&self) -> u64 {
        self.index
    }

    /// How many parts there are.
    pub const fn count(&self) -> u64 {
        self.count
    }

    /// Whether unit `k` belongs to this part.
    pub const fn owns(&self, k: u64) -> bool {
        k % self.count == self.index
    }

    /// The grid checker's share, the same round robin over its units: the units of grid
    /// `grid` of a batch are its chunks in the order the checker prepares them, and chunk
    /// `chunk` of grid `grid` is unit `grid + chunk`, so it belongs to part
    /// `(grid + chunk) % count`. Each part gets a fair mix of light and heavy chunks,
    /// rotated by the grid so that grids with fewer chunks than parts do not all land on
    /// part 0; and no other grid's chunk count is needed to decide.
    ///
    /// ```
    /// use xcover_core::dlx3::Part;
    ///
    /// let p = Part::new(1, 3).unwrap();
    /// assert!(p.owns_chunk(0, 1) && p.owns_chunk(1, 0) && p.owns_chunk(2, 2));
    /// assert!(!p.owns_chunk(1, 1));
    /// assert!(Part::new(1, 3).unwrap().owns_chunk(u64::MAX, 1)); // 2^64 = 1 (mod 3)
    /// ```
    pub const fn owns_chunk(&self, grid: u64, chunk: u64) -> bool {
        // (grid + chunk) % count without the sum's overflow.
        let (g, c) = (grid % self.count, chunk % self.count);
        let sum = if g >= self.count - c {
            g - (self.count - c)
        } else {
            g + c
        };
        sum == self.index
    }

    /// The part, of `count` parts, that unit `k` belongs to (`None` if `count` is 0).
    ///
    /// ```
    /// use xcover_core::dlx3::Part;
    ///
    /// assert_eq!(Part::owner_of(7, 3), Part::new(1, 3));
    /// assert_eq!(Part::owner_of(7, 0), None);
    /// ```
    pub const fn owner_of(k: u64, count: u64) -> Option<Part> {
        match k.checked_rem(count) {
            Some(index) => Some(Part { index, count }),
            None => None,
        }
    }

    /// How many of the units `0 .. units` belong to this part.
    ///
    /// ```
    /// use xcover_core::dlx3::Part;
    ///
    /// let counts: Vec<u64> = (0..3).map(|i| Part::new(i, 3).unwrap().units_among(8)).collect();
    /// assert_eq!(counts, [3, 3, 2]);
    /// ```
    pub const fn units_among(&self, units: u64) -> u64 {
        units / self.count + (units % self.count > self.index) as u64
    }
}

impl core::str::FromStr for Part {
    type Err = PartParseError;

    /// [`Part::parse`].
    fn from_str(text: &str) -> Result<Part, PartParseError> {
        Part::parse(text)
    }
}

/// Why a text is not `I/N` ([`Part::parse`]); its message reads after the text, as in
/// `` `3/2`: I must be below N ``.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartParseError {
    /// No `/`.
    NotIOverN,
    /// I or N is not a number of decimal digits.
    NotANumber,
    /// N is 0.
    NoParts,
    /// N is over [`Part::MAX_COUNT`].
    TooMany,
    /// I is not below N.
    IndexNotBelowCount,
}

impl core::fmt::Display for PartParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PartParseError::NotIOverN => f.write_str("is not I/N (part I of N, e.g. 0/4)"),
            PartParseError::NotANumber => f.write_str("I or N is not a number"),
            PartParseError::NoParts => f.write_str("N must be at least 1"),
            PartParseError::TooMany => {
                write!(f, "N is too large: at most {} shards", Part::MAX_COUNT)
            }
            PartParseError::IndexNotBelowCount => {
                f.write_str("I must be below N (parts are numbered 0..N-1)")
            }
        }
    }
}

impl<W: Width> Dlx3<'_, W> {
    /// Makes every trial on `level` a unit: [`run`](Dlx3::run) then stops at each with
    /// [`Event::Unit`]. Call it after the input and before the first `run`; `None` turns
    /// splitting off.
    pub fn set_split_level(&mut self, level: Option<u32>) -> Result<(), Dlx3Error> {
        if !self.at_start() {
            return Err(Dlx3Error::OutOfOrder);
        }
        if W::RANDOMIZES && self.settings.randomizing {
            return Err(Dlx3Error::SplitUnsupported);
        }
        match level {
            Some(l) if l as usize + 1 >= self.levels.len() => Err(Dlx3Error::TooManyLevels),
            Some(l) => {
                self.split_level = l;
                Ok(())
            }
            None => {
                self.split_level = u32::MAX;
                Ok(())
            }
        }
    }

    /// The split level set by [`set_split_level`](Dlx3::set_split_level).
    pub fn split_level(&self) -> Option<u32> {
        (self.split_level != u32::MAX).then_some(self.split_level)
    }

    /// The number of units on `level`, found by walking the shared part with every unit
    /// skipped (silently, ignoring `t` and `T`); the engine is then back at the start.
    pub fn count_units(&mut self, level: u32) -> Result<u64, Dlx3Error> {
        self.set_split_level(Some(level))?;
        let (stats, tallies, thresh, settings) =
            (self.stats, self.tallies, self.thresh, self.settings);
        self.settings.maxcount = u64::MAX;
        self.settings.timeout = u64::MAX;
        let mut units = 0u64;
        let walked = loop {
            match self.run_silent(u64::MAX) {
                Ok(Event::Unit(_)) => {
                    units += 1;
                    if let Err(e) = self.skip_unit(None) {
                        break Err(e);
                    }
                }
                Ok(Event::Done(_)) => break Ok(units),
                Ok(_) => {}
                Err(e) => break Err(e),
            }
        };
        // Back to the start: the walk undid its moves; the counters and profile it made
        // are forgotten.
        for lv in self.levels.iter_mut().take(level as usize + 1) {
            lv.profile = 0;
        }
        (self.stats, self.tallies, self.thresh, self.settings) = (stats, tallies, thresh, settings);
        self.level = 0;
        self.units_seen = 0;
        self.split_level = u32::MAX;
        self.phase = Phase::Search(Label::Forward);
        walked
    }

    /// The shallowest split level with at least `min_units` units (or, if no level has
    /// that many, the shallowest of those with the most units), chosen by
    /// [`count_units`](Dlx3::count_units) from level 0 down. The result depends only on the
    /// matrix and `min_units`, so independent processes agree on it.
    pub fn choose_split_level(&mut self, min_units: u64) -> Result<u32, Dlx3Error> {
        let mut chosen = (0, 0);
        let deepest = self.levels.len().saturating_sub(1) as u32;
        for level in 0..deepest {
            let units = self.count_units(level)?;
            if units > chosen.1 {
                chosen = (level, units);
            }
            if units == 0 || units >= min_units {
                break;
            }
        }
        Ok(chosen.0)
    }

    /// Skips the unit that [`Event::Unit`] just announced: the search goes on after it as
    /// if it had been explored. `explored` gives its totals when another engine explored
    /// it (they are added, so this engine's counters stay those of the whole search);
    /// `None` leaves it out (its owner reports it).
    pub fn skip_unit(&mut self, explored: Option<UnitTotals<'_>>) -> Result<(), Dlx3Error> {
        if self.phase != Phase::Search(Label::Enter) {
            return Err(Dlx3Error::OutOfOrder);
        }
        let level = self.level as usize;
        if let Some(t) = explored {
            let first = level + 1;
            if t.profile.len() > self.levels.len().saturating_sub(first) {
                return Err(Dlx3Error::TooManyLevels);
            }
            for (lv, n) in self.levels[first..].iter_mut().zip(t.profile) {
                lv.profile = lv.profile.saturating_add(*n);
            }
            self.add_unit_stats(&t.stats);
        }
        // The state after the unit, reached without its moves or mems: the next option of
        // the item, or for a null move (always the item's last trial) the item reactivated
        // and the level left.
        if self.cur_node > self.layout.last_itm {
            let next = self.nodes[self.cur_node as usize].wide().down;
            self.cur_node = next;
            self.levels[level].choice = next;
            self.phase = Phase::Search(Label::Advance);
        } else {
            self.reactivate_uncounted(self.best_itm);
            self.phase = Phase::Search(Label::Backup);
        }
        Ok(())
    }

    /// Puts item `c` back into the active list without counting mems (they are the
    /// skipped unit's).
    fn reactivate_uncounted(&mut self, c: u32) {
        let mut d: Dancer<'_, W> = Dancer {
            nd: &mut *self.nodes,
            cl: &mut *self.items,
            last_itm: self.layout.last_itm,
            second: self.layout.second,
            colored: self.colored,
            pipelined: false,
            active: &mut self.active,
            mems: 0,
            tallies: &mut self.tallies,
        };
        d.reactivate(c);
    }

    /// Adds an explored unit's counters to this engine's (saturating: the totals come
    /// from the caller).
    fn add_unit_stats(&mut self, s: &Stats) {
        let st = &mut self.stats;
        st.count = st.count.saturating_add(s.count);
        st.mems = st.mems.saturating_add(s.mems);
        st.cmems = st.cmems.saturating_add(s.cmems);
        st.nodes = st.nodes.saturating_add(s.nodes);
        st.maxl = st.maxl.max(s.maxl);
        let t = &mut self.tallies;
        t.updates = t.updates.saturating_add(s.updates);
        t.cleansings = t.cleansings.saturating_add(s.cleansings);
        st.updates = self.tallies.updates;
        st.cleansings = self.tallies.cleansings;
    }

    /// Whether a unit with these totals, skipped here, would hide an event this engine
    /// must print or stop at: a progress report (`d`), the timeout (`T`) or the solution
    /// limit (`t`) falls inside it. Such a unit must be explored here instead.
    pub fn must_explore(&self, unit: &Stats) -> bool {
        let st = &self.settings;
        let end = self.stats.mems.saturating_add(unit.mems);
        (st.delta != 0 && end >= self.thresh)
            || end >= st.timeout
            || self.stats.count.saturating_add(unit.count) >= st.maxcount
    }

    /// Search-tree nodes seen on `level` so far (Knuth's profile; kept when `v128` is on).
    pub fn level_profile(&self, level: u32) -> u64 {
        self.levels.get(level as usize).map_or(0, |lv| lv.profile)
    }

    /// The profile below the split level (levels `D + 1 ..= maxl`, indexed as
    /// [`UnitTotals::profile`]) minus `earlier` (the same, taken before: at a unit's root,
    /// it gives what the unit added; empty, the profile itself). Empty without a split level.
    pub fn profile_below_split<'s>(&'s self, earlier: &'s [u64]) -> impl Iterator<Item = u64> + 's {
        let first = self.split_level.saturating_add(1);
        (first..=self.stats.maxl).enumerate().map(move |(i, l)| {
            let before = earlier.get(i).copied().unwrap_or(0);
            self.level_profile(l).saturating_sub(before)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{parse, queens, run_all, settings, Buffers, SEED};
    use super::super::{Dlx3, Event, Sinks, Stats};
    use super::{Part, UnitTotals};
    use std::string::String;
    use std::vec::Vec;

    /// The grid checker's rule is `(grid + chunk) % count`, also where the sum overflows,
    /// and gives every chunk to exactly one part.
    #[test]
    fn chunks_go_round_robin_to_exactly_one_part() {
        for count in [1u64, 2, 3, 7, u64::MAX - 1, u64::MAX] {
            for (grid, chunk) in [
                (0u64, 0u64),
                (5, 9),
                (u64::MAX, u64::MAX),
                (u64::MAX - 3, 8),
            ] {
                let want = ((u128::from(grid) + u128::from(chunk)) % u128::from(count)) as u64;
                let small = count < 10;
                let owners: Vec<u64> = if small {
                    (0..count)
                        .filter(|&i| Part::new(i, count).unwrap().owns_chunk(grid, chunk))
                        .collect()
                } else {
                    [want, want.wrapping_add(1) % count]
                        .into_iter()
                        .filter(|&i| Part::new(i, count).unwrap().owns_chunk(grid, chunk))
                        .collect()
                };
                assert_eq!(owners, [want], "grid {grid} chunk {chunk} of {count}");
            }
        }
    }

    /// What exploring one unit elsewhere gives: its totals, profile below the split level
    /// and the bodies of its solutions (without Knuth's `n:` line).
    struct Explored {
        stats: Stats,
        profile: Vec<u64>,
        solutions: Vec<String>,
    }

    /// Explores the units of `part` the way a worker does: settings that print each
    /// solution and nothing else, no limits.
    fn explore(text: &[u8], args: &[&str], split: u32, part: Part) -> Vec<(u64, Explored)> {
        let s = settings(args).for_units();
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, s, &mut warn).expect("parses");
        e.set_split_level(Some(split)).expect("splits");
        let mut units = Vec::new();
        let mut current: Option<(u64, Stats, Vec<u64>, Vec<String>)> = None;
        loop {
            let (mut out, mut err) = (String::new(), String::new());
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            let event = e.run(u64::MAX, &mut sinks).expect("runs");
            match event {
                Event::Unit(k) if part.owns(k) => {
                    let profile = e.profile_below_split(&[]).collect();
                    current = Some((k, e.stats(), profile, Vec::new()));
                }
                Event::Unit(_) => e.skip_unit(None).expect("skips"),
                Event::Solution => {
                    if let Some(c) = current.as_mut() {
                        let body = out.split_once('\n').map_or("", |(_, b)| b);
                        c.3.push(body.into());
                    }
                }
                Event::UnitDone(k) => {
                    let (start, before, profile0, solutions) = current.take().expect("in a unit");
                    assert_eq!(k, start);
                    let stats = e.stats().since(&before);
                    let profile = e.profile_below_split(&profile0).collect();
                    let explored = Explored {
                        stats,
                        profile,
                        solutions,
                    };
                    units.push((k, explored));
                }
                Event::BudgetExhausted => {}
                Event::Done(_) => return units,
            }
        }
    }

    /// The whole search's output, made by an engine that walks the shared part and adds
    /// the units explored by `parts` parts (exploring itself only the units that hold a
    /// report, the timeout or the solution limit), printing their solutions in order.
    fn coordinated(text: &[u8], args: &[&str], split: u32, parts: u64) -> (String, String) {
        let mut units: Vec<(u64, Explored)> = (0..parts)
            .flat_map(|i| explore(text, args, split, Part::new(i, parts).unwrap()))
            .collect();
        units.sort_by_key(|u| u.0);
        let st = settings(args);
        let mut b = Buffers::for_text(text);
        let mut err = String::new();
        let mut e = parse(&mut b, text, st, &mut err).expect("parses");
        e.set_split_level(Some(split)).expect("splits");
        let mut out = String::new();
        loop {
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            match e.run(3, &mut sinks).expect("runs") {
                Event::Unit(k) => {
                    let u = &units[k as usize].1;
                    assert_eq!(units[k as usize].0, k);
                    if e.must_explore(&u.stats) {
                        continue;
                    }
                    for (j, body) in u.solutions.iter().enumerate() {
                        let n = e.stats().count + 1 + j as u64;
                        if st.prints(n) {
                            out += &std::format!("{n}:\n{body}");
                        }
                    }
                    let profile = &u.profile[..];
                    e.skip_unit(Some(UnitTotals {
                        stats: u.stats,
                        profile,
                    }))
                    .expect("skips");
                }
                Event::Done(_) => break,
                _ => {}
            }
        }
        e.finish(&mut err);
        (out, err)
    }

    fn sequential(text: &[u8], args: &[&str]) -> (String, String) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let (out, err, _) = run_all(&mut e, u64::MAX).expect("runs");
        (out, warn + &err)
    }

    const BOUNDS: &[u8] = b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\nA\n";

    #[test]
    fn parts_add_up_to_the_sequential_run() {
        let q6 = queens(6);
        let q8 = queens(8);
        let inputs: [&[u8]; 4] = [SEED, BOUNDS, &q6, &q8];
        let arg_sets: [&[&str]; 5] = [
            &["m1", "v129"],
            &["m3", "v641"],
            &["m1", "v385", "d300"],
            &["m1", "t5"],
            &["m2", "T700"],
        ];
        for text in inputs {
            for args in arg_sets {
                let want = sequential(text, args);
                for split in 0..4 {
                    for parts in [1, 2, 3] {
                        assert_eq!(
                            coordinated(text, args, split, parts),
                            want,
                            "split {split}, {parts} parts, {args:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn exploring_every_unit_is_the_sequential_run() {
        let text = queens(7);
        let args = ["m1", "v129"];
        let want = sequential(&text, &args);
        let mut b = Buffers::for_text(&text);
        let mut warn = String::new();
        let mut e = parse(&mut b, &text, settings(&args), &mut warn).expect("parses");
        e.set_split_level(Some(2)).expect("splits");
        let (mut units, mut done) = (0, 0);
        let (mut out, mut err) = (String::new(), warn);
        loop {
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            match e.run(u64::MAX, &mut sinks).expect("runs") {
                Event::Unit(k) => {
                    assert_eq!(k, units);
                    units += 1;
                }
                Event::UnitDone(k) => {
                    assert_eq!(k, done);
                    done += 1;
                }
                Event::Done(_) => break,
                _ => {}
            }
        }
        e.finish(&mut err);
        assert_eq!((out, err), want);
        assert!(units > 7 && units == done, "{units} units");
    }

    #[test]
    fn unit_counts_and_the_chosen_level() {
        let text = queens(8);
        let mut b = Buffers::for_text(&text);
        let mut warn = String::new();
        let mut e: Dlx3 = parse(&mut b, &text, settings(&["m1"]), &mut warn).expect("parses");
        // Level 0 branches on one of the 8 rows or columns: 8 queens placements.
        assert_eq!(e.count_units(0), Ok(8));
        let deeper = e.count_units(1).unwrap();
        assert!(deeper > 8, "{deeper}");
        assert_eq!(e.choose_split_level(9), Ok(1));
        assert_eq!(e.choose_split_level(1), Ok(0));
        // Counting leaves the engine at the start: the run is the sequential one.
        let (out, err, _) = run_all(&mut e, u64::MAX).expect("runs");
        assert_eq!((out, warn + &err), sequential(&text, &["m1"]));
        // A chain (one unit on levels 0 and 1, none below): no level has 1000 units, and
        // the shallowest of those with the most is chosen.
        let mut b = Buffers::for_text(b"A B\nA\nB\n");
        let mut e = parse(&mut b, b"A B\nA\nB\n", settings(&[]), &mut String::new()).unwrap();
        assert_eq!(e.count_units(2), Ok(0));
        assert_eq!(e.count_units(1), Ok(1));
        assert_eq!(e.choose_split_level(1000), Ok(0));
    }

    #[test]
    fn misuse_is_refused() {
        let text = queens(5);
        let mut b = Buffers::for_text(&text);
        let mut warn = String::new();
        let mut e = parse(&mut b, &text, settings(&[]), &mut warn).expect("parses");
        assert_eq!(e.skip_unit(None), Err(super::Dlx3Error::OutOfOrder));
        assert_eq!(
            e.set_split_level(Some(100_000)),
            Err(super::Dlx3Error::TooManyLevels)
        );
        e.set_split_level(Some(0)).unwrap();
        assert!(matches!(e.run_silent(u64::MAX), Ok(Event::Unit(0))));
        // Splitting is set up before the search moves.
        assert_eq!(e.set_split_level(None), Err(super::Dlx3Error::OutOfOrder));
        let mut b = Buffers::for_text(&text);
        let mut e = parse(&mut b, &text, settings(&["s7"]), &mut warn).expect("parses");
        assert_eq!(
            e.set_split_level(Some(1)),
            Err(super::Dlx3Error::SplitUnsupported)
        );
    }
}

//! The search (Knuth's labels *forward*, *advance*, *backup*, *backdown*) as a resumable
//! state machine: [`Dlx3::run`] stops at solutions, at the end, or when a mem budget runs
//! out at a label, and a later call continues exactly where it stopped.
use super::choose::{TieBuf, INFTY};
use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::event::{DoneReason, Event, Sinks};
use super::ops::{Dancer, PRIMARY_ITEM};
use super::output::{write_name, View};
use super::phase::{Label, Phase};
use super::settings::{Settings, SHOW_CHOICES, SHOW_DETAILS, SHOW_FULL_STATE, SHOW_PROFILE};
use super::storage::Width;
use crate::sink::{ByteSink, Fmt};
use core::fmt::Write;

impl<W: Width> Dlx3<'_, W> {
    /// Runs the search until the next solution, the end, or until at least `budget` more
    /// mems have been spent (checked at Knuth's labels; at least one step is always made,
    /// so even a budget of 0 makes progress). Solutions are printed to
    /// `sinks.out` when `spacing` asks for it; traces and reports go to `sinks.err`.
    ///
    /// Calling again after [`Event::Solution`] or [`Event::BudgetExhausted`] continues; the
    /// totals and output are the same as for one uninterrupted run.
    pub fn run(&mut self, budget: u64, sinks: &mut Sinks<'_>) -> Result<Event, Dlx3Error> {
        self.search::<true, false, false, false, true, false>(budget, sinks, true)
    }

    /// [`run`](Dlx3::run), except that a solution it does not print (`spacing` is 0, or
    /// the count is not a multiple of it) does not stop the search: it is counted and the
    /// search goes on, as in Knuth's program. [`Event::Solution`] then means that a
    /// solution was printed, or that `maxcount` was reached. For a caller that only
    /// flushes output at solutions: returning at each of them costs more than finding a
    /// small one.
    pub fn run_to_printed(
        &mut self,
        budget: u64,
        sinks: &mut Sinks<'_>,
    ) -> Result<Event, Dlx3Error> {
        // The common case of `xcover dlx3` gets an instance of the loop without the
        // per-node tests for the profile, the move trace and the choice details (not in
        // firmware builds, which do not call this).
        let st = &self.settings;
        let lean = cfg!(not(target_os = "none"))
            && st.vbose & (SHOW_PROFILE | SHOW_CHOICES | SHOW_DETAILS) == 0
            && sinks.shape.is_none();
        // Long uncolored options get another instance, with the pipelined option walks
        // (`ops::walk_rest`): a run-time test in the one loop cost the other inputs 1-3%
        // more instructions. Randomized runs get one too, with the random choice inlined
        // (out of line in the others: there it costs the loop's register allocation),
        // unless the options are long: without the pipelined walks the randomized
        // pentomino run was slower though it ran fewer instructions (docs/PERFORMANCE.md).
        if lean && self.long_options {
            self.search::<true, true, true, false, true, false>(budget, sinks, false)
        } else if lean && W::RANDOMIZES && st.randomizing {
            self.search::<true, true, false, true, true, false>(budget, sinks, false)
        } else if lean {
            self.search::<true, true, false, false, true, false>(budget, sinks, false)
        } else {
            self.search::<true, false, false, false, true, false>(budget, sinks, false)
        }
    }

    /// [`run`](Dlx3::run) without any output: the same moves, solutions, counters and
    /// random stream, but nothing is printed, whatever the verbosity. Use it to count or to
    /// read solutions with [`solution_move`](Dlx3::solution_move); a program that calls
    /// only this links no formatting code.
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<8, 64, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT).unwrap();
    /// e.read_input(b"A B C\nA B\nC\nA\nB C\n", &mut Discard).unwrap();
    /// let mut solutions = 0;
    /// while e.run_silent(u64::MAX).unwrap() == Event::Solution {
    ///     solutions += 1;
    /// }
    /// assert_eq!(solutions, 2);
    /// ```
    pub fn run_silent(&mut self, budget: u64) -> Result<Event, Dlx3Error> {
        let (mut out, mut err) = (crate::sink::Discard, crate::sink::Discard);
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        self.search::<false, false, false, false, true, false>(budget, &mut sinks, true)
    }

    /// [`run_silent`](Dlx3::run_silent) for a caller that does not want Knuth's cost
    /// counters: the same moves, solutions, search-tree nodes and random stream, but no
    /// mems, updates or cleansings are counted (they stay as they were in
    /// [`stats`](Dlx3::stats)), and `budget` is in search-tree nodes instead of mems
    /// (checked at Knuth's labels; at least one step is always made). Counting is about a
    /// tenth of the work on small options (docs/PERFORMANCE.md). With `every_solution`
    /// false, only the last solution allowed (`maxcount`) stops it, as in
    /// [`run_to_printed`](Dlx3::run_to_printed) with nothing printed: for counting.
    ///
    /// A report interval and a timeout are measured in mems: with either in the settings
    /// (a `delta` or a `timeout` below the default), this counts after all, exactly as
    /// `run_silent` does (`budget` is then in mems).
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<8, 64, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT.report_interval_mems(0))
    ///     .unwrap();
    /// e.read_input(b"A B C\nA B\nC\nA\nB C\n", &mut Discard).unwrap();
    /// let mut solutions = 0;
    /// while e.run_uncounted(u64::MAX, true).unwrap() == Event::Solution {
    ///     solutions += 1;
    /// }
    /// assert_eq!((solutions, e.stats().mems), (2, 0));
    /// assert!(e.stats().nodes > 0);
    /// ```
    pub fn run_uncounted(&mut self, budget: u64, every_solution: bool) -> Result<Event, Dlx3Error> {
        let st = &self.settings;
        if st.delta != 0 || st.timeout < Settings::DEFAULT.timeout {
            let (mut out, mut err) = (crate::sink::Discard, crate::sink::Discard);
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            return self.search::<false, false, false, false, true, false>(
                budget,
                &mut sinks,
                every_solution,
            );
        }
        let (mut out, mut err) = (crate::sink::Discard, crate::sink::Discard);
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        // The instances of `run_to_printed`'s lean loop, without output and counters; plain
        // exact covers get their own (Algorithm C's steps, `EXACT`).
        let every = every_solution;
        match (
            self.long_options,
            W::RANDOMIZES && st.randomizing,
            self.exact_cover,
        ) {
            (true, _, true) => {
                self.search::<false, true, true, false, false, true>(budget, &mut sinks, every)
            }
            (true, _, false) => {
                self.search::<false, true, true, false, false, false>(budget, &mut sinks, every)
            }
            (false, true, _) => {
                self.search::<false, true, false, true, false, false>(budget, &mut sinks, every)
            }
            (false, false, true) => {
                self.search::<false, true, false, false, false, true>(budget, &mut sinks, every)
            }
            (false, false, false) => {
                self.search::<false, true, false, false, false, false>(budget, &mut sinks, every)
            }
        }
    }

    /// The search; with `PRINTS == false` every report, trace and solution printout is
    /// compiled out (the sinks are then never written). `LEAN` promises no profile, no
    /// move trace, no choice details and no shape, so those tests leave the loop (a
    /// separate instance: 1-3% fewer instructions, see docs/PERFORMANCE.md). With
    /// `every_solution == false` only a printed solution (or the last one allowed) stops
    /// it. `PIPE` lets `cover` and `uncover` use the pipelined walks when options are long
    /// (`Dlx3::long_options`). `RAND` inlines the random choice (`choose_random_inline`).
    #[inline(never)]
    fn search<
        const PRINTS: bool,
        const LEAN: bool,
        const PIPE: bool,
        const RAND: bool,
        const MEMS: bool,
        const EXACT: bool,
    >(
        &mut self,
        budget: u64,
        sinks: &mut Sinks<'_>,
        every_solution: bool,
    ) -> Result<Event, Dlx3Error> {
        let mut label = match self.phase {
            Phase::Search(l) => l,
            Phase::Done(r) => return Ok(Event::Done(r)),
            Phase::Failed(e) => return Err(e),
            Phase::ItemLine | Phase::Options => return Err(Dlx3Error::OutOfOrder),
        };
        let st = self.settings;
        let last_itm = self.layout.last_itm;
        let last_node = self.layout.last_node;
        let max_level = self.levels.len() as u32;
        let profiling = !LEAN && st.vbose & SHOW_PROFILE != 0;
        let tracing_choices = !LEAN && PRINTS && st.vbose & SHOW_CHOICES != 0;
        // `EXACT` (only when `exact_cover`): every primary item has bounds [1,1], so every
        // choice covers its item and no level tweaks (Knuth's Algorithm C); the bound and
        // slack tests leave the loop. The bounds are still counted down and up, so the
        // state is the general loop's at every stop. Firmware builds never set it (they do
        // not search uncounted): there a `false` known before the instances are made keeps
        // the search's code as it was (`EXACT` itself in the tests changed it, not its size).
        #[cfg(not(target_os = "none"))]
        let exact = EXACT;
        #[cfg(target_os = "none")]
        let exact = false;
        let exact_cover = exact || self.exact_cover;
        // The 64-bit choice is a second copy of the loop: left out of firmware builds,
        // whose code space is tight (the 128-bit loop makes the same choices).
        let small_keys = cfg!(not(target_os = "none")) && self.small_keys;
        // The traced choice is needed for random tie breaks, or to print details or the
        // shape; the mems are the same either way.
        // (`RAND` is only run when randomizing: its instance then has no plain choice.)
        let randomizing = W::RANDOMIZES && (RAND || st.randomizing);
        let plain_choice = !randomizing
            && (LEAN || !PRINTS || (st.vbose & SHOW_DETAILS == 0 && sinks.shape.is_none()));

        // Not counting, `mems` counts the search-tree nodes instead (the budget's measure
        // then; see `run_uncounted`). From 0: 1.5 % fewer instructions than from the
        // mems on queens 13. (Firmware builds never leave the counting, and the
        // conditional start changed their code.)
        #[cfg(not(target_os = "none"))]
        let start_mems = if MEMS { self.stats.mems } else { 0 };
        #[cfg(target_os = "none")]
        let start_mems = self.stats.mems;
        let mut d: Dancer<'_, W, MEMS> = Dancer {
            nd: &mut *self.nodes,
            cl: &mut *self.items,
            last_itm,
            second: self.layout.second,
            colored: self.colored,
            pipelined: PIPE && self.long_options,
            active: &mut self.active,
            mems: start_mems,
            tallies: &mut self.tallies,
        };
        let levels = &mut *self.levels;
        let names = &self.names;
        let mut rng = W::gb_flip(&mut self.rng);
        let mut level = self.level;
        let mut cur_node = self.cur_node;
        let mut best_itm = self.best_itm;
        let mut score = self.score;
        let mut count = self.stats.count;
        let mut nodes = self.stats.nodes;
        let mut cmems = self.stats.cmems;
        let mut maxl = self.stats.maxl;
        let mut thresh = self.thresh;
        // The mems at which the next progress report or the timeout is due.
        let next_event = |thresh: u64| {
            if st.delta != 0 {
                thresh.min(st.timeout)
            } else {
                st.timeout
            }
        };
        let mut event = next_event(thresh);
        let split_level = self.split_level;
        let mut units_seen = self.units_seen;
        let mut tie_buf = TieBuf::new();
        // A budget of at least 1 makes the first check pass, so every call makes progress.
        let limit = d.mems.saturating_add(budget.max(1));

        // The printable view of the current state (for reports, traces and solutions).
        macro_rules! view {
            () => {
                View {
                    nd: &*d.nd,
                    names,
                    levels: &*levels,
                    last_itm,
                    last_node,
                }
            };
        }
        let (outcome, next_phase) = 'search: loop {
            if d.mems >= limit {
                break (Ok(Event::BudgetExhausted), Phase::Search(label));
            }
            // Like Knuth's gotos, *forward* and *backdown* fall through into *advance*, and
            // *forward* and *backup* into *backdown*, without going back to the top: only
            // the other transitions, or a spent budget, take the jump on `label` (which
            // is then where the search resumes). The end of *advance* goes on into
            // *forward* through the inner loop with `entry` set to `Forward`: going
            // through the outer loop's top, the optimized code recomputed and spilled
            // values derived from `best_itm` (which *forward* does not read) on each pass,
            // 4% of the instructions on edges2x4. *forward* is tested before the `match`
            // on the other labels (1.3% fewer again; a `bool` for it instead of `entry`
            // saved less).
            let mut entry = label;
            loop {
                'enter: {
                    'advance: {
                        'backdown: {
                            if let Label::Forward = entry {
                                nodes += 1;
                                if !MEMS {
                                    d.mems += 1;
                                }
                                if profiling {
                                    levels[level as usize].profile += 1;
                                }
                                // Progress reports and the timeout: one compare with the
                                // mems of the first of them (`event`) on the usual pass.
                                if d.mems >= event {
                                    // The threshold moves on in a silent run too, so that a
                                    // printing run after it reports at the same mems as one
                                    // printing run would.
                                    let report_due = st.delta != 0 && d.mems >= thresh;
                                    if report_due {
                                        thresh = thresh.wrapping_add(st.delta);
                                    }
                                    if PRINTS && report_due {
                                        let v = view!();
                                        if st.vbose & SHOW_FULL_STATE != 0 {
                                            v.print_state(
                                                sinks.err,
                                                level,
                                                count,
                                                d.mems,
                                                maxl,
                                                st.show_levels_max,
                                            );
                                        } else {
                                            v.print_progress(
                                                sinks.err,
                                                level,
                                                count,
                                                d.mems,
                                                st.show_levels_max,
                                            );
                                        }
                                    }
                                    if d.mems >= st.timeout {
                                        if PRINTS {
                                            sinks.err.write_bytes(b"TIMEOUT!\n");
                                        }
                                        let r = DoneReason::Timeout;
                                        break 'search (Ok(Event::Done(r)), Phase::Done(r));
                                    }
                                    event = next_event(thresh);
                                }
                                // Choose the item to branch on.
                                let tmems = d.mems;
                                if plain_choice && exact_cover {
                                    (best_itm, score) = d.choose_exact();
                                } else if plain_choice && small_keys {
                                    (best_itm, score) = d.choose_small();
                                } else if plain_choice {
                                    (best_itm, score) = d.choose_plain();
                                } else {
                                    let lv = level as i32;
                                    let show_details = !LEAN
                                        && PRINTS
                                        && st.vbose & SHOW_DETAILS != 0
                                        && lv < st.show_choices_max
                                        && lv >= (maxl as i32).wrapping_sub(st.show_choices_gap);
                                    if show_details {
                                        let _ = write!(Fmt(sinks.err), "Level {level}:");
                                    }
                                    let rng = match rng.as_deref_mut() {
                                        Some(g) if randomizing => Some(g),
                                        _ => None,
                                    };
                                    let details: Option<&mut dyn ByteSink> = if show_details {
                                        Some(&mut *sinks.err)
                                    } else {
                                        None
                                    };
                                    (best_itm, score) = d.choose_traced::<PRINTS, RAND>(
                                        rng,
                                        details,
                                        names,
                                        exact_cover,
                                        &mut tie_buf,
                                    );
                                    if show_details {
                                        if score < INFTY {
                                            sinks.err.write_bytes(b" branching on ");
                                            write_name(sinks.err, &names.get(best_itm as usize));
                                            let _ = writeln!(Fmt(sinks.err), "({score})");
                                        } else {
                                            sinks.err.write_bytes(b" solution\n");
                                        }
                                    }
                                    if let Some(sh) =
                                        sinks.shape.as_mut().filter(|_| PRINTS && !LEAN)
                                    {
                                        if score < INFTY {
                                            let _ = write!(Fmt(sh), "{} ", score.max(0));
                                            write_name(*sh, &names.get(best_itm as usize));
                                            sh.write_bytes(b"\n");
                                        }
                                    }
                                }
                                cmems += d.mems - tmems;
                                if score <= 0 {
                                    label = Label::Backdown;
                                    if d.mems >= limit {
                                        continue 'search;
                                    }
                                    break 'backdown;
                                }
                                if score == INFTY {
                                    // Visit a solution.
                                    if let Some(sh) =
                                        sinks.shape.as_mut().filter(|_| PRINTS && !LEAN)
                                    {
                                        sh.write_bytes(b"sol\n");
                                    }
                                    count += 1;
                                    let printed = PRINTS && st.prints(count);
                                    if printed {
                                        let v = view!();
                                        v.print_solution(sinks.out, sinks.err, count, level);
                                    }
                                    if count >= st.maxcount {
                                        let r = DoneReason::SolutionLimit;
                                        break 'search (Ok(Event::Solution), Phase::Done(r));
                                    }
                                    label = Label::Backdown;
                                    if every_solution || printed {
                                        break 'search (Ok(Event::Solution), Phase::Search(label));
                                    }
                                    if d.mems >= limit {
                                        continue 'search;
                                    }
                                    break 'backdown;
                                }
                                // Enter the level.
                                let lv = &mut levels[level as usize];
                                lv.score = score;
                                lv.first_tweak = 0;
                                d.mems += 3;
                                cur_node = d.node(best_itm).down;
                                lv.choice = cur_node;
                                let it = d.item_mut(best_itm);
                                let bound = W::get_signed(it.bound) - 1;
                                it.set_bound(bound);
                                let slack = W::get_signed(it.slack);
                                if exact || (bound == 0 && slack == 0) {
                                    d.cover_kind::<PRIMARY_ITEM>(best_itm);
                                } else {
                                    d.mems += 1;
                                    lv.first_tweak = cur_node;
                                    if bound == 0 {
                                        d.cover(best_itm, true);
                                    }
                                }
                                label = Label::Advance;
                                if d.mems >= limit {
                                    continue 'search;
                                }
                                break 'advance;
                            }
                            // *forward* does not get here (it always jumps on).
                            match entry {
                                Label::Backup => {
                                    d.mems += 1;
                                    let it = d.item(best_itm);
                                    if exact || (it.bound == 0 && it.slack == 0) {
                                        d.uncover_kind::<PRIMARY_ITEM>(best_itm);
                                    } else {
                                        d.mems += 1;
                                        d.untweak(
                                            best_itm,
                                            levels[level as usize].first_tweak,
                                            it.bound != 0,
                                        );
                                    }
                                    d.mems += 2;
                                    d.add_bound(best_itm, 1);
                                    label = Label::Backdown;
                                    if d.mems >= limit {
                                        continue 'search;
                                    }
                                    break 'backdown;
                                }
                                Label::Forward | Label::Backdown => break 'backdown,
                                Label::Advance => break 'advance,
                                Label::Enter => break 'enter,
                            }
                        }
                        // Knuth's *backdown*.
                        if level == 0 {
                            let r = DoneReason::Exhausted;
                            break 'search (Ok(Event::Done(r)), Phase::Done(r));
                        }
                        level -= 1;
                        d.mems += 2;
                        let lv = levels[level as usize];
                        cur_node = lv.choice;
                        score = lv.score;
                        if cur_node < last_itm {
                            // A null move: reactivate the item, then back up.
                            best_itm = cur_node;
                            d.reactivate(best_itm);
                            label = Label::Backup;
                            if level == split_level {
                                let k = units_seen.wrapping_sub(1);
                                break 'search (Ok(Event::UnitDone(k)), Phase::Search(label));
                            }
                            continue 'search;
                        }
                        best_itm = d.node(cur_node).itm as u32;
                        d.uncover_rest::<EXACT>(cur_node);
                        d.mems += 2;
                        cur_node = d.node(cur_node).down;
                        levels[level as usize].choice = cur_node;
                        label = Label::Advance;
                        if level == split_level {
                            let k = units_seen.wrapping_sub(1);
                            break 'search (Ok(Event::UnitDone(k)), Phase::Search(label));
                        }
                        if d.mems >= limit {
                            continue 'search;
                        }
                    }
                    // Knuth's *advance*.
                    d.mems += 1;
                    let it = d.item(best_itm);
                    let cover_mode = exact || (it.bound == 0 && it.slack == 0);
                    if cover_mode {
                        if cur_node == best_itm {
                            label = Label::Backup;
                            continue 'search;
                        }
                    } else {
                        d.mems += 2;
                        if d.node(best_itm).itm <= it.bound.wrapping_sub(it.slack) {
                            label = Label::Backup;
                            continue 'search;
                        } else if cur_node != best_itm {
                            d.tweak(cur_node, it.bound != 0);
                        } else if it.bound != 0 {
                            d.deactivate(best_itm);
                        }
                    }
                    if tracing_choices && (level as i32) < st.show_choices_max {
                        let head = if cover_mode {
                            d.node(best_itm).down
                        } else {
                            levels[level as usize].first_tweak
                        };
                        let _ = write!(Fmt(sinks.err), "L{level}:");
                        let v = view!();
                        v.print_option(sinks.err, None, cur_node, head, score);
                    }
                    if level == split_level {
                        // The root of a unit: the caller explores it (`run` again) or skips it.
                        units_seen += 1;
                        let k = units_seen - 1;
                        break 'search (Ok(Event::Unit(k)), Phase::Search(Label::Enter));
                    }
                }
                // The end of *advance*: go down into the option.
                if cur_node > last_itm {
                    d.cover_rest::<EXACT>(cur_node);
                }
                level += 1;
                if level > maxl {
                    if level >= max_level {
                        break 'search (
                            Err(Dlx3Error::TooManyLevels),
                            Phase::Failed(Dlx3Error::TooManyLevels),
                        );
                    }
                    maxl = level;
                }
                label = Label::Forward;
                // Firmware builds go back through the top: the inner loop costs 270 bytes
                // of Cortex-M4 text, more than their budget leaves.
                if cfg!(target_os = "none") || d.mems >= limit {
                    continue 'search;
                }
                entry = Label::Forward;
            }
        };

        if MEMS {
            self.stats.mems = d.mems;
            self.stats.updates = self.tallies.updates;
            self.stats.cleansings = self.tallies.cleansings;
        }
        self.stats.count = count;
        self.stats.nodes = nodes;
        self.stats.cmems = cmems;
        self.stats.maxl = maxl;
        self.thresh = thresh;
        self.units_seen = units_seen;
        self.level = level;
        self.cur_node = cur_node;
        self.best_itm = best_itm;
        self.score = score;
        self.phase = next_phase;
        self.at_solution = matches!(outcome, Ok(Event::Solution));
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::super::image::{Item, Level, Node};
    use super::super::testutil::{parse, queens, run_all, settings, Buffers, SEED};
    use super::super::{Dlx3Error, Move, WorkspaceView};
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// (stdout, stderr, shape) of a whole run of `text` with `args`, `budget` mems per call.
    fn run_text(text: &[u8], args: &[&str], budget: u64) -> (String, String, String) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let (out, err, shape) = run_all(&mut e, budget).expect("runs");
        (out, warn + &err, shape)
    }

    /// (stdout, stderr) of a whole run of `text` with `args` through `run_to_printed` and no
    /// shape sink (its lean instance when the verbosity allows), `budget` mems per call.
    fn run_printed(text: &[u8], args: &[&str], budget: u64) -> (String, String) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let (mut out, mut err) = (String::new(), String::new());
        loop {
            let mut sinks = super::super::Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            if let super::super::Event::Done(_) =
                e.run_to_printed(budget, &mut sinks).expect("runs")
            {
                break;
            }
        }
        e.finish(&mut err);
        (out, warn + &err)
    }

    #[test]
    fn run_to_printed_matches_run() {
        let q6 = queens(6);
        let inputs: [(&[u8], &[&str]); 6] = [
            (SEED, &["m1", "v1"]),
            (&q6, &["m0", "v1"]),
            (&q6, &["m2", "v1", "d1000"]),
            (&q6, &["m0", "v1", "s3", "t3"]),
            (&q6, &["m1", "v131", "T2000"]),
            (
                b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\n",
                &["m1", "v1"],
            ),
        ];
        // Long options (a piece item and 5 cells each), so that `run_to_printed` takes
        // the instance with the pipelined walks.
        let mut strip = String::from("p0 p1 p2 p3");
        (0..20).for_each(|c| strip += &std::format!(" c{c}"));
        for p in 0..4 {
            for o in 0..16 {
                strip += &std::format!("\np{p}");
                (o..o + 5).for_each(|c| strip += &std::format!(" c{c}"));
            }
        }
        strip += "\n";
        {
            let mut b = Buffers::for_text(strip.as_bytes());
            let mut warn = String::new();
            let e = parse(&mut b, strip.as_bytes(), settings(&[]), &mut warn).expect("parses");
            assert!(e.long_options || cfg!(target_os = "none"));
        }
        let long: [(&[u8], &[&str]); 3] = [
            (strip.as_bytes(), &["m1", "v1"]),
            (strip.as_bytes(), &["m0", "v1", "s5"]),
            (strip.as_bytes(), &["m3", "v1", "d100"]),
        ];
        for (text, args) in inputs.into_iter().chain(long) {
            let (out, err, _) = run_text(text, args, u64::MAX);
            for budget in [u64::MAX, 7] {
                assert_eq!(
                    run_printed(text, args, budget),
                    (out.clone(), err.clone()),
                    "budget {budget} args {args:?}"
                );
            }
        }
    }

    /// The solutions (moves) and the final (count, nodes, mems, updates, cleansings) of a
    /// whole run of `text` with `args`: counted (`run_silent`) or not (`run_uncounted`,
    /// stopping at every solution or only at the end), `budget` per call.
    fn uncounted_run(
        text: &[u8],
        args: &[&str],
        budget: u64,
        mode: Option<bool>,
    ) -> (Vec<Vec<super::super::Move>>, [u64; 5]) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let mut solutions = Vec::new();
        loop {
            let event = match mode {
                None => e.run_silent(budget),
                Some(every) => e.run_uncounted(budget, every),
            };
            match event.expect("runs") {
                super::super::Event::Done(_) => break,
                super::super::Event::Solution if mode != Some(false) => {
                    solutions.push((0..e.depth()).filter_map(|l| e.solution_move(l)).collect());
                }
                _ => {}
            }
        }
        let s = e.stats();
        (
            solutions,
            [s.count, s.nodes, s.mems, s.updates, s.cleansings],
        )
    }

    #[test]
    fn run_uncounted_makes_the_same_search_without_the_counters() {
        let q7 = queens(7);
        // No progress reports (`d0`): their interval is in mems.
        let inputs: [(&[u8], &[&str]); 5] = [
            (SEED, &["d0"]),
            (&q7, &["d0"]),
            (&q7, &["d0", "s3"]),
            (&q7, &["d0", "t17"]),
            (b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\n", &["d0"]),
        ];
        for (text, args) in inputs {
            let (want, [count, nodes, mems, ..]) = uncounted_run(text, args, u64::MAX, None);
            assert!(count > 0 && mems > 0, "{args:?}");
            for budget in [u64::MAX, 1, 5] {
                let (got, counters) = uncounted_run(text, args, budget, Some(true));
                assert_eq!(got, want, "budget {budget} args {args:?}");
                assert_eq!(
                    counters,
                    [count, nodes, 0, 0, 0],
                    "budget {budget} args {args:?}"
                );
                let (_, counters) = uncounted_run(text, args, budget, Some(false));
                assert_eq!(
                    counters,
                    [count, nodes, 0, 0, 0],
                    "budget {budget} args {args:?}"
                );
            }
        }
        // A timeout or a report interval is in mems: then it counts, as `run_silent` does.
        for args in [&["d0", "T3000"][..], &["d1000"]] {
            let counted = uncounted_run(&q7, args, u64::MAX, None);
            assert!(counted.1[2] > 0);
            assert_eq!(uncounted_run(&q7, args, u64::MAX, Some(true)), counted);
        }
        assert!(uncounted_run(&q7, &["d0", "T3000"], u64::MAX, None).1[0] < 40);
    }

    /// A random problem from `seed` (a small linear congruential generator): 3 to 7
    /// primary items, up to 3 secondary ones, 4 to 23 options of 1 to 3 primary items and
    /// up to 2 secondary ones, uncolored or with color `a` or `b`. With `exact`, every
    /// primary item has bounds [1,1] (the uncounted search's `EXACT` instance); else
    /// some have `1:2` or `0:1`.
    fn random_problem(seed: u64, exact: bool) -> Vec<u8> {
        let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut next = |n: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % n
        };
        let (primaries, secondaries) = (3 + next(5), next(4));
        let mut text = String::new();
        for p in 0..primaries {
            text += match (exact, next(4)) {
                (false, 0) => "1:2|",
                (false, 1) => "0:1|",
                _ => "",
            };
            text += &std::format!("p{p} ");
        }
        if secondaries > 0 {
            text += "|";
            (0..secondaries).for_each(|s| text += &std::format!(" s{s}"));
        }
        text += "\n";
        for _ in 0..4 + next(20) {
            let mut items: Vec<String> = Vec::new();
            for _ in 0..1 + next(3) {
                let p = std::format!("p{}", next(primaries));
                if !items.contains(&p) {
                    items.push(p);
                }
            }
            for _ in 0..next(3) {
                if secondaries == 0 {
                    break;
                }
                let s = std::format!("s{}", next(secondaries));
                if !items
                    .iter()
                    .any(|i| i.split(':').next() == Some(s.as_str()))
                {
                    items.push(s + ["", ":a", ":b"][next(3) as usize]);
                }
            }
            text += &items.join(" ");
            text += "\n";
        }
        text.into_bytes()
    }

    /// Random problems, exact covers (the `EXACT` instance) and others, colored and not:
    /// the uncounted search makes the counted one's solutions and nodes, whatever the
    /// budget; and a search that alternates the two, call by call, too (every stop leaves
    /// the state the other instance expects).
    #[test]
    fn run_uncounted_makes_the_same_search_on_random_problems() {
        let mut exact_with_solutions = 0;
        for seed in 0..300 {
            let exact = seed % 3 != 0;
            let text = random_problem(seed, exact);
            for args in [&["d0"][..], &["d0", "m1"][..]] {
                let (want, [count, nodes, ..]) = uncounted_run(&text, args, u64::MAX, None);
                if exact && count > 0 {
                    exact_with_solutions += 1;
                }
                for budget in [u64::MAX, 1, 3] {
                    let (got, counters) = uncounted_run(&text, args, budget, Some(true));
                    assert_eq!(got, want, "seed {seed} budget {budget}");
                    assert_eq!(counters[..2], [count, nodes], "seed {seed} budget {budget}");
                    let (_, counters) = uncounted_run(&text, args, budget, Some(false));
                    assert_eq!(counters[..2], [count, nodes], "seed {seed} budget {budget}");
                }
                let mut b = Buffers::for_text(&text);
                let mut warn = String::new();
                let mut e = parse(&mut b, &text, settings(args), &mut warn).expect("parses");
                let head = text.split(|&c| c == b'\n').next().unwrap_or_default();
                assert_eq!(e.exact_cover, exact || !head.contains(&b':'), "seed {seed}");
                let mut got: Vec<Vec<super::super::Move>> = Vec::new();
                for call in 0.. {
                    let event = if call % 2 == 0 {
                        e.run_uncounted(2, true)
                    } else {
                        e.run_silent(2)
                    };
                    match event.expect("runs") {
                        super::super::Event::Done(_) => break,
                        super::super::Event::Solution => {
                            got.push((0..e.depth()).filter_map(|l| e.solution_move(l)).collect())
                        }
                        _ => {}
                    }
                }
                assert_eq!(got, want, "seed {seed}, alternating");
                assert_eq!(
                    (e.stats().count, e.stats().nodes),
                    (count, nodes),
                    "seed {seed}"
                );
            }
        }
        assert!(exact_with_solutions > 50, "{exact_with_solutions}");
    }

    #[test]
    fn seed_example_has_its_unique_solution() {
        let mut b = Buffers::for_text(SEED);
        let mut warn = String::new();
        let mut e = parse(&mut b, SEED, settings(&["m1"]), &mut warn).expect("parses");
        let mut out = String::new();
        let mut err = String::new();
        let mut moves = Vec::new();
        loop {
            let mut sinks = super::super::Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            match e.run(u64::MAX, &mut sinks).expect("runs") {
                super::super::Event::Solution => {
                    moves.extend((0..e.depth()).filter_map(|l| e.solution_move(l)))
                }
                super::super::Event::Done(_) => break,
                _ => {}
            }
        }
        assert_eq!(e.stats().count, 1);
        // The introduction: options "A C X:1 Y:1" (2), "B X:1" (4), "C Y:1" (5).
        let mut options: Vec<u32> = moves
            .iter()
            .filter_map(|m| {
                if let Move::Option(j) = m {
                    Some(*j)
                } else {
                    None
                }
            })
            .collect();
        options.sort_unstable();
        assert_eq!(options, [2, 4, 5]);
        assert!(out.starts_with("1:\n"), "{out}");
        let mut items = [(0u32, 0i32); 8];
        let n = e.option_items(2, &mut items);
        assert_eq!(
            &items[..n],
            &[(1, 0), (3, 0), (4, i32::from(b'1')), (5, i32::from(b'1'))]
        );
    }

    #[test]
    fn queens_counts() {
        for (n, solutions) in [(1, 1), (4, 2), (5, 10), (6, 4), (8, 92)] {
            let text = queens(n);
            let mut b = Buffers::for_text(&text);
            let mut warn = String::new();
            let mut e = parse(&mut b, &text, settings(&["v0"]), &mut warn).expect("parses");
            run_all(&mut e, u64::MAX).expect("runs");
            assert_eq!(e.stats().count, solutions, "queens {n}");
        }
    }

    #[test]
    fn budget_stops_resume_to_the_same_output() {
        let q6 = queens(6);
        let inputs: [(&[u8], &[&str]); 4] = [
            (SEED, &["m1", "v7", "d50"]),
            (&q6, &["m1", "v519", "d1000"]),
            (&q6, &["m1", "v385", "s3", "d777", "t3"]),
            (
                b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\n",
                &["m1", "v903", "T2000", "d50"],
            ),
        ];
        for (text, args) in inputs {
            let whole = run_text(text, args, u64::MAX);
            for budget in [0, 1, 7, 100] {
                assert_eq!(
                    run_text(text, args, budget),
                    whole,
                    "budget {budget} args {args:?}"
                );
            }
        }
    }

    /// `text` parsed, then searched again as a preloaded image with 16-bit links: the same
    /// solutions and counters.
    fn compact_run_matches(text: &[u8], args: &[&str]) -> u64 {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        let mut parsed = parse(&mut b, text, settings(args), &mut warn).expect("parses");
        let layout = parsed.layout();
        let mut items16: Vec<Item<u16>> = parsed
            .items()
            .iter()
            .map(|&i| Item::narrow(i).expect("fits"))
            .collect();
        let mut nodes16: Vec<Node<u16>> = parsed
            .nodes()
            .iter()
            .map(|&n| Node::narrow(n).expect("fits"))
            .collect();
        items16.push(Item::ZERO);
        nodes16.push(Node::ZERO);
        let names: Vec<_> = (0..items16.len() as u32)
            .map(|k| parsed.item_name(k))
            .collect();
        let (want, _, _) = run_all(&mut parsed, u64::MAX).expect("runs");
        let mut levels = vec![Level::ZERO; 500];
        let storage =
            WorkspaceView::with_shared_names(&mut items16, &names, &mut nodes16, &mut levels);
        let mut compact =
            super::super::Dlx3::preloaded(storage, settings(args), layout).expect("valid");
        let (got, _, _) = run_all(&mut compact, 7).expect("runs");
        assert_eq!(got, want);
        assert_eq!(compact.stats().mems, parsed.stats().mems);
        assert_eq!(compact.stats().nodes, parsed.stats().nodes);
        compact.stats().count
    }

    #[test]
    fn compact_links_search_like_wide_ones_past_the_bit_set() {
        // 300 primary items: more than a 16-bit engine's active-item bit set holds (256),
        // so the search walks the linked list; five pairs give 2^5 solutions.
        let mut text = String::new();
        for k in 0..300 {
            text += &std::format!("i{k} ");
        }
        text += "\n";
        for k in 0..300 {
            text += &std::format!("i{k}\n");
        }
        for k in 0..5 {
            text += &std::format!("i{} i{}\n", 2 * k, 2 * k + 1);
        }
        assert_eq!(compact_run_matches(text.as_bytes(), &["m1"]), 32);
        // And a colored problem with multiplicities (Knuth's example) in the bit set.
        assert_eq!(compact_run_matches(SEED, &["m1", "v3"]), 1);
    }

    #[test]
    fn preloaded_image_searches_like_the_parsed_one() {
        let text = queens(6);
        let mut b = Buffers::for_text(&text);
        let mut warn = String::new();
        let parsed = parse(&mut b, &text, settings(&["m1"]), &mut warn).expect("parses");
        let layout = parsed.layout();
        let (items, nodes): (Vec<_>, Vec<_>) = (parsed.items().to_vec(), parsed.nodes().to_vec());
        let mut image = Buffers::new(items.len() + 1, nodes.len() + 1, 500);
        image.items[..items.len()].copy_from_slice(&items);
        image.nodes[..nodes.len()].copy_from_slice(&nodes);
        let parsed_names: Vec<_> = (0..=items.len() as u32)
            .map(|k| parsed.item_name(k))
            .collect();
        let slots = image.names.len();
        image.names.copy_from_slice(&parsed_names[..slots]);
        let mut pre = super::super::Dlx3::preloaded(image.storage(), settings(&["m1"]), layout)
            .expect("valid image");
        let (out_pre, _, _) = run_all(&mut pre, u64::MAX).expect("runs");
        // The same image with 16-bit links makes the same moves.
        let names = parsed_names.clone();
        // One spare slot each, as the u32 image has.
        let narrow_item = |&i| Item::<u16>::narrow(i).unwrap();
        let narrow_node = |&n| Node::<u16>::narrow(n).unwrap();
        let mut items16: Vec<_> = items.iter().map(narrow_item).collect();
        let mut nodes16: Vec<_> = nodes.iter().map(narrow_node).collect();
        items16.push(Item::ZERO);
        nodes16.push(Node::ZERO);
        let mut levels16 = vec![Level::ZERO; 500];
        let storage16 =
            WorkspaceView::with_shared_names(&mut items16, &names, &mut nodes16, &mut levels16);
        let mut pre16 =
            super::super::Dlx3::preloaded(storage16, settings(&["m1"]), layout).expect("fits");
        let (out16, _, _) = run_all(&mut pre16, u64::MAX).expect("runs");
        assert_eq!(out16, out_pre);
        assert_eq!(pre16.stats(), pre.stats());
        let mut b2 = Buffers::for_text(&text);
        let mut again = parse(&mut b2, &text, settings(&["m1"]), &mut warn).expect("parses");
        let (out, _, _) = run_all(&mut again, u64::MAX).expect("runs");
        assert_eq!(out_pre, out);
        assert_eq!(pre.stats().mems, again.stats().mems);
        assert_eq!(pre.stats().count, 4);
        // An image without options is fine too (Knuth accepts an item line alone).
        let mut b3 = Buffers::for_text(b"A B\n");
        let empty = parse(&mut b3, b"A B\n", settings(&[]), &mut warn).expect("parses");
        let (el, ei, en) = (
            empty.layout(),
            empty.items().to_vec(),
            empty.nodes().to_vec(),
        );
        let mut image = Buffers::new(ei.len() + 1, en.len() + 1, 10);
        image.items[..ei.len()].copy_from_slice(&ei);
        image.nodes[..en.len()].copy_from_slice(&en);
        let mut e =
            super::super::Dlx3::preloaded(image.storage(), settings(&[]), el).expect("valid");
        run_all(&mut e, u64::MAX).expect("runs");
        assert_eq!(e.stats().count, 0);
        // A damaged image is refused.
        let mut bad = Buffers::new(items.len() + 1, nodes.len() + 1, 500);
        bad.items[..items.len()].copy_from_slice(&items);
        bad.nodes[..nodes.len()].copy_from_slice(&nodes);
        bad.nodes[nodes.len() - 2].down = 0;
        assert!(super::super::Dlx3::preloaded(bad.storage(), settings(&[]), layout).is_err());
    }

    #[test]
    fn too_many_levels() {
        // 6 items that must each be covered by its own option: depth 6 > 5 levels.
        let text = b"A B C D E F\nA\nB\nC\nD\nE\nF\n";
        let mut b = Buffers::for_text(text);
        b.levels.truncate(5);
        let mut warn = String::new();
        let mut e = parse(&mut b, text, settings(&[]), &mut warn).expect("parses");
        assert_eq!(
            run_all(&mut e, u64::MAX).err(),
            Some(Dlx3Error::TooManyLevels)
        );
        let mut b = Buffers::for_text(text);
        b.levels.truncate(7);
        let mut e = parse(&mut b, text, settings(&[]), &mut warn).expect("parses");
        assert!(run_all(&mut e, u64::MAX).is_ok());
    }

    #[test]
    fn zero_mems_statistics_do_not_divide_by_zero() {
        let (_, err, _) = run_text(SEED, &["T0"], u64::MAX);
        assert!(err.contains("TIMEOUT!\n"));
        assert!(err.ends_with("ccost 0%.\n"), "{err}");
    }
}

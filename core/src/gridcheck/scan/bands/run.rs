//! A band chunk's run: the tables and the two blocks loaded, then the kernel unit by unit,
//! each surviving pair's band-3 search step by step, each candidate to the final test. A
//! resumable state machine: `run` stops after its budget of steps and the next call goes
//! on.
use super::band3::{Band3, Pair};
use super::cursor::{Cursor, Y_RUN};
use super::geometry::{band_part, other_bands, transpose};
use super::plan::BandScan;
use super::sets;
use super::side::{hit_masks, unhit, valid_bits, Starts, BUCKETS};
use super::sizes::{Vector, WORDS};
use super::workspace::{carve, check, Carved};
use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::Grid;
use crate::gridcheck::scan::candidate::check_givens;
use crate::gridcheck::scan::chunk_id::ChunkId;
use crate::gridcheck::scan::{RunStats, RunStatus, ScanError};
use crate::gridcheck::solver::is_unique_with_grid;
use core::ops::ControlFlow;

/// What a chunk run on the band engine counted besides [`RunStats`]
/// (`ChunkRun::band_counts`); the counters of several runs add up.
///
/// ```
/// use xcover_core::gridcheck::scan::BandCounts;
///
/// let mut total = BandCounts { first_passed: 9, survivors: 4, refuted_at_root: 3, band3_nodes: 5 };
/// total += BandCounts { survivors: 1, band3_nodes: 1, ..BandCounts::default() };
/// assert_eq!((total.survivors, total.band3_nodes), (5, 6));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BandCounts {
    /// Pairs through the kernel's first words.
    pub first_passed: u64,
    /// Pairs through every cross UA: each searched in band 3.
    pub survivors: u64,
    /// Survivors whose band-3 packing refuted them before the search.
    pub refuted_at_root: u64,
    /// Nodes of the band-3 searches (a refuted root counts one).
    pub band3_nodes: u64,
}

impl core::ops::AddAssign for BandCounts {
    fn add_assign(&mut self, more: BandCounts) {
        self.first_passed += more.first_passed;
        self.survivors += more.survivors;
        self.refuted_at_root += more.refuted_at_root;
        self.band3_nodes += more.band3_nodes;
    }
}

/// The kernel unit under way: X set `x` and the Y sets that passed with it.
struct Unit {
    x: usize,
    x_meet3: Vector,
    survivors: [u16; Y_RUN],
    len: usize,
    at: usize,
}

/// One chunk of a band scan, run in budgeted slices over band words the caller keeps for
/// it (the same words at every call: they hold the blocks and the search's levels).
pub(crate) struct BandRun<'p> {
    scan: &'p BandScan<'p>,
    /// Band 3, the band of X and the band of Y.
    t: usize,
    p: usize,
    q: usize,
    /// Band 3's clues.
    z: u32,
    /// Each side's block number and set size.
    x_block: (usize, u32),
    y_block: (usize, u32),
    cross_valid: Vector,
    meet3_valid: Vector,
    /// Where the buckets of each side start; the cursor once the blocks are loaded.
    starts: (Starts, Starts),
    cursor: Option<Cursor>,
    unit: Unit,
    band3: Band3,
    /// The pair under the band-3 search.
    xy: u128,
    finished: Option<RunStatus>,
    stats: RunStats,
    counts: BandCounts,
    /// The final test: the uniqueness test (the tests put an accept-all in its place).
    pub(super) unique: fn(&Grid, Cells) -> bool,
}

impl<'p> BandRun<'p> {
    /// A run of `chunk` of `scan` in `words` (checked to be large enough).
    pub fn new(
        scan: &'p BandScan<'p>,
        words: &[u64],
        chunk: ChunkId,
    ) -> Result<BandRun<'p>, ScanError> {
        check(words, scan.block_sets())?;
        let parts = scan.chunk_parts(chunk).ok_or(ScanError::BadChunk)?;
        let t = parts.t;
        let (p, q) = other_bands(t);
        let vector_uas = scan.vector_uas();
        Ok(BandRun {
            scan,
            t,
            p,
            q,
            z: parts.split.z,
            x_block: (parts.x_block, parts.split.x),
            y_block: (parts.y_block, parts.split.y),
            cross_valid: valid_bits(scan.cross(t).len().min(vector_uas)),
            meet3_valid: valid_bits(scan.meet3(t).len().min(vector_uas)),
            starts: ([0; BUCKETS + 1], [0; BUCKETS + 1]),
            cursor: None,
            unit: Unit {
                x: 0,
                x_meet3: [0; WORDS],
                survivors: [0; Y_RUN],
                len: 0,
                at: 0,
            },
            band3: Band3::new(),
            xy: 0,
            finished: None,
            stats: RunStats::default(),
            counts: BandCounts::default(),
            unique: is_unique_with_grid,
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// The band engine's own counters so far.
    pub fn counts(&self) -> BandCounts {
        self.counts
    }

    /// Runs for about `budget` steps (a kernel unit, a band-3 node or a candidate each;
    /// loading the tables and the two blocks is the first) in `words` (those given to
    /// `new`, and at every call the same); every puzzle found is passed to `on_found`.
    /// Returning `Break` stops the run ([`RunStatus::Stopped`]).
    pub fn run<F>(&mut self, words: &mut [u64], budget: u64, on_found: &mut F) -> RunStatus
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        if let Some(status) = self.finished {
            return status;
        }
        let mut work = carve(words, self.scan.block_sets());
        let status = self.search(&mut work, budget, on_found);
        if status != RunStatus::BudgetExhausted {
            self.finished = Some(status);
        }
        status
    }

    /// The tables of band 3 (hit masks of the two other bands over the cross and meet-3 UA
    /// in the vectors, band-3 parts of the latter) and the two blocks, loaded.
    fn load(&mut self, work: &mut Carved<'_>) {
        let scan = self.scan;
        let (t, p, q) = (self.t, self.p, self.q);
        let vector_uas = scan.vector_uas();
        let (cross, meet3) = (scan.cross(t), scan.meet3(t));
        let (cross, meet3) = (
            &cross[..cross.len().min(vector_uas)],
            &meet3[..meet3.len().min(vector_uas)],
        );
        for (masks, (list, band)) in
            work.masks
                .iter_mut()
                .zip([(cross, p), (cross, q), (meet3, p), (meet3, q)])
        {
            hit_masks(list.iter().map(|&u| band_part(u, band)), masks);
        }
        for (slot, &u) in work.meet3_parts.iter_mut().zip(meet3) {
            *slot = u64::from(band_part(u, t));
        }
        let block_sets = scan.block_sets();
        for (side, band, (block, k), masks, starts) in [
            (
                &mut work.xs,
                p,
                self.x_block,
                &work.masks[0],
                &mut self.starts.0,
            ),
            (
                &mut work.ys,
                q,
                self.y_block,
                &work.masks[1],
                &mut self.starts.1,
            ),
        ] {
            let raw = &mut work.raw[..block_sets];
            let len = sets::fill(scan.inside(band), k, (block * block_sets) as u64, raw);
            side.load(&raw[..len], masks, &self.cross_valid, starts);
        }
        self.cursor = Some(Cursor::start(&self.starts.0, &self.starts.1));
    }

    fn search<F>(&mut self, work: &mut Carved<'_>, budget: u64, on_found: &mut F) -> RunStatus
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        let stop = self.stats.steps.saturating_add(budget);
        if self.cursor.is_none() && self.stats.steps < stop {
            self.stats.steps += 1;
            self.load(work);
        }
        let meet3 = self.scan.meet3(self.t);
        let overflow = &meet3[meet3.len().min(self.scan.vector_uas())..];
        while self.stats.steps < stop {
            self.stats.steps += 1;
            if self.band3.is_active() {
                let pair = Pair {
                    xy: self.xy,
                    t: self.t,
                    overflow,
                };
                let nodes = &mut self.counts.band3_nodes;
                if let Some(set) = self.band3.step(work.parts, &pair, nodes) {
                    let whole = self.xy | u128::from(set) << (27 * self.t);
                    let givens = if self.scan.stacks() {
                        transpose(whole)
                    } else {
                        whole
                    };
                    let (grid, options) = (self.scan.grid(), self.scan.options());
                    let stats = &mut self.stats;
                    let flow = check_givens(grid, options, self.unique, stats, givens, on_found);
                    if flow.is_break() {
                        return RunStatus::Stopped;
                    }
                }
                continue;
            }
            if self.unit.at < self.unit.len {
                let y = usize::from(self.unit.survivors[self.unit.at]);
                self.unit.at += 1;
                self.start_pair(work, y, overflow);
                continue;
            }
            let Some(cursor) = self.cursor.as_mut() else {
                break;
            };
            match cursor.next(&self.starts.0, &self.starts.1) {
                None => return RunStatus::Done,
                Some((x, ys)) => self.kernel_unit(work, x, ys),
            }
        }
        RunStatus::BudgetExhausted
    }

    /// X set `x` against the Y sets `ys`: the first words four at a time without a branch
    /// (one pair in a few hundred passes them), then the other words of those that pass.
    fn kernel_unit(&mut self, work: &Carved<'_>, x: usize, ys: core::ops::Range<usize>) {
        let (xs_side, ys_side) = (&work.xs, &work.ys);
        let x_first = xs_side.first[x];
        let x_rest = xs_side.rest_of(x);
        let run = &ys_side.first[ys.clone()];
        let mut len = 0usize;
        let mut passed_first = 0u64;
        let survivors = &mut self.unit.survivors;
        let mut pass = |j: usize| {
            passed_first += 1;
            let y = ys.start + j;
            if x_rest
                .iter()
                .zip(ys_side.rest_of(y))
                .all(|(a, b)| a & b == 0)
            {
                survivors[len] = y as u16;
                len += 1;
            }
        };
        let fours = run.chunks_exact(4);
        let tail = fours.remainder();
        for (i, four) in fours.enumerate() {
            let zero = |k: usize| u32::from(x_first & four[k] == 0) << k;
            let mut passed = zero(0) | zero(1) | zero(2) | zero(3);
            while passed != 0 {
                pass(4 * i + passed.trailing_zeros() as usize);
                passed &= passed - 1;
            }
        }
        for (k, &y_first) in tail.iter().enumerate() {
            if x_first & y_first == 0 {
                pass(run.len() - tail.len() + k);
            }
        }
        self.counts.first_passed += passed_first;
        self.unit.len = len;
        self.unit.at = 0;
        if len > 0 {
            let masks = &work.masks[2];
            self.unit.x_meet3 = unhit(xs_side.sets[x] as u32, masks, &self.meet3_valid);
        }
        self.unit.x = x;
    }

    /// The pair of X set `unit.x` and Y set `y`, through the kernel's words: tested on the
    /// cross UA beyond the vectors, then its band-3 parts read until their packing refutes
    /// it, or its band-3 search started.
    fn start_pair(&mut self, work: &mut Carved<'_>, y: usize, overflow: &[u128]) {
        let x = self.unit.x;
        let (x_set, y_set) = (work.xs.sets[x], work.ys.sets[y]);
        let xy = u128::from(x_set) << (27 * self.p) | u128::from(y_set) << (27 * self.q);
        let cross = self.scan.cross(self.t);
        if cross[cross.len().min(self.scan.vector_uas())..]
            .iter()
            .any(|&u| u & xy == 0)
        {
            return;
        }
        self.counts.survivors += 1;
        let y_meet3 = unhit(y_set as u32, work.masks[3], &self.meet3_valid);
        let mut pair_unhit = self.unit.x_meet3;
        for (word, y_word) in pair_unhit.iter_mut().zip(y_meet3) {
            *word &= y_word;
        }
        match gather(work.parts, &pair_unhit, work.meet3_parts, self.z) {
            None => {
                self.counts.band3_nodes += 1;
                self.counts.refuted_at_root += 1;
            }
            Some(root) => {
                self.xy = xy;
                let pair = Pair {
                    xy,
                    t: self.t,
                    overflow,
                };
                let nodes = &mut self.counts.band3_nodes;
                self.band3.start(work.parts, root, self.z, &pair, nodes);
            }
        }
    }
}

/// Writes to `parts` the band-3 parts of the UA whose bits `unhit` holds (band-3 part
/// smallest first), counting a greedy packing of them as it goes; `None` as soon as the
/// packing needs more than `clues` cells (most pairs end there, before the rest of their
/// parts are read), else how many were written.
fn gather(parts: &mut [u64], unhit: &Vector, all_parts: &[u64], clues: u32) -> Option<usize> {
    let (mut used, mut packed, mut len) = (0u32, 0u32, 0usize);
    for (w, &word) in unhit.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let part = all_parts[64 * w + bits.trailing_zeros() as usize];
            bits &= bits - 1;
            parts[len] = part;
            len += 1;
            if part as u32 & used == 0 {
                used |= part as u32;
                packed += 1;
                if packed > clues {
                    return None;
                }
            }
        }
    }
    Some(len)
}

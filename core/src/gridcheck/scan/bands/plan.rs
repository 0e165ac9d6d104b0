//! A grid's band scan, prepared: the orientation, the UA list laid out by how each set
//! meets the bands, the number of clue sets of each band and size, and the chunks.
use super::geometry::{
    band_part, bands_met, for_each_split, other_bands, split_at, transpose, Split, MAX_SPLITS,
};
use super::sets;
use super::sizes::{BLOCK_SETS, VECTOR_UAS};
use crate::gridcheck::grid::Grid;
use crate::gridcheck::scan::chunk_id::ChunkId;
use crate::gridcheck::scan::{ScanError, ScanOptions};
use crate::gridcheck::Cells;

/// Clue sets of each band by size (index: cells), for the sizes a split uses.
type Counts = [[u64; 28]; 3];

/// A whole-grid scan prepared for the band engine (see the [module](super)); its lists
/// live in the caller's work slice.
#[derive(Debug)]
pub(crate) struct BandScan<'a> {
    grid: &'a Grid,
    options: ScanOptions,
    /// Scanned as stacks: every list holds the transposed sets, and a puzzle is
    /// transposed back before its final test.
    stacks: bool,
    shape: Shape,
    /// Each band's UA lying inside it (band-local cells), smallest first.
    inside: [&'a [u128]; 3],
    /// With band 3 = t: the UA lying across the two other bands, smallest first.
    cross: [&'a [u128]; 3],
    /// With band 3 = t: the UA meeting band t; those in the vectors by the size of
    /// their part in band t (the band-3 search's packing takes them in this order), the
    /// rest by size (the leaves test them, the likeliest unhit first).
    meet3: [&'a [u128]; 3],
    counts: Counts,
}

/// Why [`prepare`] did not prepare a band scan.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// What the enumeration's preparation refuses too (options, storage, an empty UA).
    Scan(ScanError),
    /// A scan the band engine does not take (the enumeration runs it): a mask, or more
    /// splits or blocks than a chunk id numbers.
    NotTaken(&'static str),
}

impl From<ScanError> for Refused {
    fn from(e: ScanError) -> Refused {
        Refused::Scan(e)
    }
}

/// How a scan is cut: sets per block, UA per vector, and the orientation (`None`: the one
/// with fewer pairs). [`prepare`] uses [`Shape::DEFAULT`]; the tests make small ones, to
/// run every path on small lists.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub block_sets: usize,
    pub vector_uas: usize,
    pub stacks: Option<bool>,
}

impl Shape {
    pub const DEFAULT: Shape = Shape {
        block_sets: BLOCK_SETS,
        vector_uas: VECTOR_UAS,
        stacks: None,
    };
}

/// What a chunk id names: band 3, its split, and the X and Y blocks.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChunkParts {
    pub t: usize,
    pub split: Split,
    pub x_block: usize,
    pub y_block: usize,
}

/// Work entries [`prepare`] needs to take all of `ua_count` UA: the sorted list, then the
/// in-band lists, the cross lists and the three lists of sets meeting band 3 (a set meets
/// at most three bands), five entries a set kept.
#[cfg(test)]
pub(super) const fn work_entries(ua_count: usize) -> usize {
    ua_count.saturating_mul(6)
}

/// The UA a band scan keeps of `ua_count` in `work` entries: the smallest, as many as
/// their lists fit in what the sorted list leaves (all of them in six entries a UA).
const fn kept(ua_count: usize, work: usize) -> usize {
    let room = work.saturating_sub(ua_count) / 5;
    if room < ua_count {
        room
    } else {
        ua_count
    }
}

/// Prepares a band scan of `grid` for the whole-grid scan `options` (no forced givens or
/// empty cells), with the UA list `uas` (every entry a real UA of the grid). `work` must
/// hold at least as many entries as `uas`; the scan keeps the smallest UA whose lists fit
/// in the rest (all of them in six entries a UA: the list only prunes, so fewer cost
/// time, never a result).
pub(crate) fn prepare<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
) -> Result<BandScan<'a>, Refused> {
    prepare_shaped(grid, uas, options, work, Shape::DEFAULT)
}

/// [`prepare`] cut as `shape` says.
pub(super) fn prepare_shaped<'a>(
    grid: &'a Grid,
    uas: &[Cells],
    options: &ScanOptions,
    work: &'a mut [u128],
    shape: Shape,
) -> Result<BandScan<'a>, Refused> {
    let block_sets = shape.block_sets.clamp(1, BLOCK_SETS);
    let vector_uas = shape.vector_uas.min(VECTOR_UAS);
    let shape = Shape {
        block_sets,
        vector_uas,
        ..shape
    };
    options.check()?;
    if !options.mask.is_free() {
        return Err(Refused::NotTaken("a masked scan (it scans whole grids)"));
    }
    let n = uas.len();
    if work.len() < n {
        return Err(Refused::Scan(ScanError::StorageTooSmall {
            what: "band scan work list",
            needed: n,
            given: work.len(),
        }));
    }
    if let Some(index) = uas.iter().position(|u| u.is_empty()) {
        return Err(Refused::Scan(ScanError::EmptyUa { index }));
    }
    let clues = u32::from(options.clues);
    let kept = kept(n, work.len());
    let (sorted, rest) = work.split_at_mut(n);
    for (slot, ua) in sorted.iter_mut().zip(uas) {
        *slot = ua.0;
    }
    sorted.sort_unstable_by_key(|&u| (u.count_ones(), u));
    let sorted = &mut sorted[..kept];

    // The orientation with fewer XY pairs, from the counts of band sets alone.
    let rows = band_counts(sorted, rest, clues);
    for u in sorted.iter_mut() {
        *u = transpose(*u);
    }
    let cols = band_counts(sorted, rest, clues);
    let stacks = shape
        .stacks
        .unwrap_or(pair_count(&cols, clues) < pair_count(&rows, clues));
    if !stacks {
        for u in sorted.iter_mut() {
            *u = transpose(*u);
        }
    }
    // Still smallest first: a transposed set has as many cells.
    let counts = if stacks { cols } else { rows };
    check_blocks(&counts, clues, block_sets)?;

    // The lists, one after the other: in-band by band, cross by t, meeting band 3 by t.
    let mut ends = [0usize; 10];
    let mut at = 0;
    for (slot, band) in (0..3).enumerate() {
        for &u in sorted.iter() {
            if bands_met(u) == 1 << band {
                rest[at] = u128::from(band_part(u, band));
                at += 1;
            }
        }
        ends[slot + 1] = at;
    }
    for t in 0..3 {
        let (p, q) = other_bands(t);
        for &u in sorted.iter() {
            if bands_met(u) == 1 << p | 1 << q {
                rest[at] = u;
                at += 1;
            }
        }
        ends[4 + t] = at;
    }
    for t in 0..3 {
        at = lay_out_meet3(sorted, t, vector_uas, &mut rest[at..]) + at;
        ends[7 + t] = at;
    }
    let rest: &'a [u128] = rest;
    let (mut inside, mut cross, mut meet3) = ([&rest[..0]; 3], [&rest[..0]; 3], [&rest[..0]; 3]);
    for i in 0..3 {
        inside[i] = &rest[ends[i]..ends[i + 1]];
        cross[i] = &rest[ends[3 + i]..ends[4 + i]];
        meet3[i] = &rest[ends[6 + i]..ends[7 + i]];
    }
    Ok(BandScan {
        grid,
        options: *options,
        stacks,
        shape,
        inside,
        cross,
        meet3,
        counts,
    })
}

/// Writes to `out` the UA of `sorted` (smallest first) meeting band `t`: the first
/// `vector_uas` of them by the size of their part in band t, then the rest smallest first,
/// both ties in list order; returns how many. A counting sort by part size gives each set
/// its place in the first order; those placed beyond the vectors go on in list order.
fn lay_out_meet3(sorted: &[u128], t: usize, vector_uas: usize, out: &mut [u128]) -> usize {
    let mut next = [0usize; 28];
    for &u in sorted {
        let part = band_part(u, t);
        if part != 0 {
            next[part.count_ones() as usize] += 1;
        }
    }
    let total: usize = next.iter().sum();
    let mut start = 0;
    for slot in next.iter_mut() {
        (*slot, start) = (start, start + *slot);
    }
    let head = total.min(vector_uas);
    let mut tail = head;
    for &u in sorted {
        let part = band_part(u, t);
        if part == 0 {
            continue;
        }
        let place = &mut next[part.count_ones() as usize];
        if *place < head {
            out[*place] = u;
        } else {
            out[tail] = u;
            tail += 1;
        }
        *place += 1;
    }
    total
}

/// The band-set counts of each band and size a split of `clues` uses, for the orientation
/// `sorted` has (`scratch` holds the in-band lists meanwhile; it has room for all of
/// `sorted`).
fn band_counts(sorted: &[u128], scratch: &mut [u128], clues: u32) -> Counts {
    let mut counts = [[0u64; 28]; 3];
    for (band, band_counts) in counts.iter_mut().enumerate() {
        let mut len = 0;
        for &u in sorted {
            if bands_met(u) == 1 << band {
                scratch[len] = u128::from(band_part(u, band));
                len += 1;
            }
        }
        let mut used = [false; 28];
        for t in 0..3 {
            let (p, q) = other_bands(t);
            for_each_split(clues, t, |_, Split { x, y, .. }| {
                used[x as usize] |= p == band;
                used[y as usize] |= q == band;
            });
        }
        for (k, count) in band_counts.iter_mut().enumerate() {
            if used[k] {
                *count = sets::count(&scratch[..len], k as u32);
            }
        }
    }
    counts
}

/// The XY pairs of one orientation: over every band 3 and split, X sets times Y sets.
fn pair_count(counts: &Counts, clues: u32) -> u64 {
    let mut pairs = 0u64;
    for t in 0..3 {
        let (p, q) = other_bands(t);
        for_each_split(clues, t, |_, Split { x, y, .. }| {
            pairs =
                pairs.saturating_add(counts[p][x as usize].saturating_mul(counts[q][y as usize]));
        });
    }
    pairs
}

/// Blocks of `block_sets` a side of `sets` sets takes.
fn blocks(sets: u64, block_sets: usize) -> u64 {
    sets.div_ceil(block_sets as u64)
}

/// An error when a chunk id cannot number the scan's chunks.
fn check_blocks(counts: &Counts, clues: u32, block_sets: usize) -> Result<(), Refused> {
    for t in 0..3 {
        let (p, q) = other_bands(t);
        let mut widest = 0u64;
        let splits = for_each_split(clues, t, |_, Split { x, y, .. }| {
            let (nx, ny) = (counts[p][x as usize], counts[q][y as usize]);
            if nx > 0 && ny > 0 {
                let (bx, by) = (blocks(nx, block_sets), blocks(ny, block_sets));
                widest = widest.max(bx).max(by);
            }
        });
        if splits > MAX_SPLITS {
            return Err(Refused::NotTaken(
                "a clue count that splits over the bands in more ways than a chunk id holds",
            ));
        }
        if widest > 256 {
            return Err(Refused::NotTaken(
                "a band with more clue sets than a chunk id's 256 blocks hold",
            ));
        }
    }
    Ok(())
}

/// The chunks of a [`BandScan`], in order (see [`BandScan::chunks`]).
pub(crate) struct BandChunks<'s> {
    scan: &'s BandScan<'s>,
    /// Band 3 and split (`t * MAX_SPLITS + index`) of the chunks under way, their X and Y
    /// blocks, and the next (Y block, X block) among them.
    top: usize,
    blocks: (u64, u64),
    next: (u64, u64),
}

impl Iterator for BandChunks<'_> {
    type Item = ChunkId;

    fn next(&mut self) -> Option<ChunkId> {
        loop {
            let ((bx, by), (y_block, x_block)) = (self.blocks, self.next);
            if y_block < by && x_block < bx {
                self.next = if x_block + 1 < bx {
                    (y_block, x_block + 1)
                } else {
                    (y_block + 1, 0)
                };
                return Some(ChunkId {
                    top: self.top as u8,
                    second: x_block as u8,
                    third: y_block as u8,
                });
            }
            if self.top + 1 >= 3 * MAX_SPLITS {
                return None;
            }
            self.top += 1;
            self.blocks = self.scan.blocks_of(self.top);
            self.next = (0, 0);
        }
    }
}

impl<'a> BandScan<'a> {
    /// The grid scanned.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The scan's options.
    pub fn options(&self) -> &ScanOptions {
        &self.options
    }

    /// Whether the scan goes through the stacks (the orientation with fewer XY pairs).
    pub fn stacks(&self) -> bool {
        self.stacks
    }

    /// The chunks, each run by a [`super::BandRun`] on any thread: for each band 3 and
    /// split, each Y block with each X block (a thread that takes them in order meets the
    /// same Y block in a row, and shards dealt round-robin share out each split).
    pub fn chunks(&self) -> BandChunks<'_> {
        BandChunks {
            scan: self,
            top: 0,
            blocks: self.blocks_of(0),
            next: (0, 0),
        }
    }

    /// The X and Y blocks of the chunks with `top` (band 3 and split), 0 when none.
    fn blocks_of(&self, top: usize) -> (u64, u64) {
        let (t, index) = (top / MAX_SPLITS, top % MAX_SPLITS);
        let (p, q) = other_bands(t);
        match split_at(u32::from(self.options.clues), t, index) {
            Some(Split { x, y, .. }) => {
                let (nx, ny) = (self.counts[p][x as usize], self.counts[q][y as usize]);
                if nx > 0 && ny > 0 {
                    (
                        blocks(nx, self.shape.block_sets),
                        blocks(ny, self.shape.block_sets),
                    )
                } else {
                    (0, 0)
                }
            }
            None => (0, 0),
        }
    }

    /// What `chunk` names, if it is a chunk of this scan.
    pub(crate) fn chunk_parts(&self, chunk: ChunkId) -> Option<ChunkParts> {
        let top = usize::from(chunk.top);
        let (t, index) = (top / MAX_SPLITS, top % MAX_SPLITS);
        if t >= 3 {
            return None;
        }
        let split = split_at(u32::from(self.options.clues), t, index)?;
        let (bx, by) = self.blocks_of(top);
        let (x_block, y_block) = (usize::from(chunk.second), usize::from(chunk.third));
        ((x_block as u64) < bx && (y_block as u64) < by).then_some(ChunkParts {
            t,
            split,
            x_block,
            y_block,
        })
    }

    pub(super) fn block_sets(&self) -> usize {
        self.shape.block_sets
    }

    /// UA per vector (the cross and meet-3 lists beyond them are the overflow).
    pub(super) fn vector_uas(&self) -> usize {
        self.shape.vector_uas
    }

    pub(super) fn inside(&self, band: usize) -> &'a [u128] {
        self.inside[band]
    }

    pub(super) fn cross(&self, t: usize) -> &'a [u128] {
        self.cross[t]
    }

    pub(super) fn meet3(&self, t: usize) -> &'a [u128] {
        self.meet3[t]
    }
}

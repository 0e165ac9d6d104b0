//! A band decomposition of the whole-grid scan (blue's 17-clue scheme, as champagne
//! documents it), built to measure whether it is worth an engine (issue #40). It is a
//! measuring tool, not an engine: it allocates, recurses and runs to the end, and only the
//! bench programs call it. `band_scan` runs it against today's scan.
//!
//! An N-clue puzzle puts x, y and z clues in the three bands. Call "band 3" the first band
//! holding the most clues (so z ≥ ⌈N/3⌉, a band before it holds fewer than z clues and a band
//! after it at most z): every puzzle is then counted once, under one band 3 and one split.
//! Every UA lying inside one band must be hit by that band's clues, so each band's clue sets
//! are enumerated against its own UA alone ([`band_sets`]). A pair of sets X, Y of the two
//! other bands must hit the UA lying across those two bands: each set carries the bits of
//! the cross UA it leaves unhit, and the pair survives when their AND is zero
//! (`pair_survivors`, the kernel). Band 3 is searched only under the surviving pairs, for
//! z cells hitting the band-3 parts of the UA that X and Y leave unhit (`Band3`); a set
//! that passes every UA of the list goes to the uniqueness test. Stacks are bands of the
//! transposed grid, and each grid is scanned in the orientation with fewer XY pairs (known
//! from the counts of band sets alone, before any pair is tested).
//!
//! Every UA list is incomplete, so all the pruning is sound (a puzzle hits every real UA)
//! and the uniqueness test decides.
use std::time::Instant;
use xcover_core::gridcheck::{Cells, Grid};

/// Cells of one band, band-local (bit i = cell 27·band + i).
const BAND: u32 = (1 << 27) - 1;
/// 64-bit words of a set's vector over the cross UA (and over the band-3 UA).
const WORDS: usize = 16;
/// The words of the kernel's first test (the 64 smallest cross UA).
const FIRST: usize = 1;
/// The Y sets tested against every X in turn (a block stays in the first-level cache).
const Y_BLOCK: usize = 1024;

type Vector = [u64; WORDS];

/// Band `b`'s part of `cells`, band-local.
fn band_part(cells: u128, b: usize) -> u32 {
    (cells >> (27 * b)) as u32 & BAND
}

/// The bands `cells` meets, as bits 0-2.
fn bands_met(cells: u128) -> u32 {
    (0..3)
        .filter(|&b| band_part(cells, b) != 0)
        .map(|b| 1 << b)
        .sum()
}

/// `cells` with rows and columns swapped (stacks become bands).
pub fn transpose(cells: u128) -> u128 {
    let mut out = 0u128;
    let mut rest = cells;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        let (row, col) = (cell / 9, cell % 9);
        out |= 1u128 << (col * 9 + row);
    }
    out
}

/// `grid` with rows and columns swapped.
pub fn transpose_grid(grid: &Grid) -> Grid {
    let digits = grid.digits();
    let mut out = [0u8; 81];
    for (cell, slot) in out.iter_mut().enumerate() {
        *slot = digits[(cell % 9) * 9 + cell / 9];
    }
    Grid::from_digits(out).expect("a transposed grid is a grid")
}

/// Calls `f` with every `k`-subset of `mask`.
fn for_each_subset(mask: u32, k: u32, chosen: u32, f: &mut impl FnMut(u32)) {
    if k == 0 {
        f(chosen);
        return;
    }
    if mask.count_ones() < k {
        return;
    }
    let low = mask & mask.wrapping_neg();
    for_each_subset(mask & !low, k - 1, chosen | low, f);
    for_each_subset(mask & !low, k, chosen, f);
}

fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * u64::from(n - i) / u64::from(i + 1))
}

/// The hitting sets of `uas` with `k` cells among the cells not `forbidden`, each once:
/// branching on the first unhit UA, the i-th branch takes its i-th cell and forbids the
/// cells before it (the branches split the sets by their first cell in that UA). When
/// every UA is hit the rest is any choice of the cells left. `leaf(chosen, free, left)`
/// receives each such node.
fn hitting_nodes(
    uas: &[u32],
    chosen: u32,
    forbidden: u32,
    left: u32,
    leaf: &mut impl FnMut(u32, u32, u32),
) {
    let Some(&unhit) = uas.iter().find(|&&u| u & chosen == 0) else {
        leaf(chosen, BAND & !(chosen | forbidden), left);
        return;
    };
    if left == 0 {
        return;
    }
    let mut forbidden = forbidden;
    let mut cells = unhit & !forbidden;
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells &= cells - 1;
        hitting_nodes(uas, chosen | cell, forbidden, left - 1, leaf);
        forbidden |= cell;
    }
}

/// Every `k`-cell set of one band hitting each of `uas` (the UA inside the band, band-local).
pub fn band_sets(uas: &[u32], k: u32) -> Vec<u32> {
    let mut out = Vec::new();
    hitting_nodes(uas, 0, 0, k, &mut |chosen, free, left| {
        for_each_subset(free, left, chosen, &mut |set| out.push(set))
    });
    out
}

/// The number of [`band_sets`], without listing them.
pub fn count_band_sets(uas: &[u32], k: u32) -> u64 {
    let mut count = 0;
    hitting_nodes(uas, 0, 0, k, &mut |_, free, left| {
        count += binomial(free.count_ones(), left)
    });
    count
}

/// For each cell of one band, the bits of the UA (of a vector's list) whose part in that
/// band holds the cell.
fn hit_masks(parts: &[u32]) -> [Vector; 27] {
    let mut masks = [[0u64; WORDS]; 27];
    for (i, &part) in parts.iter().enumerate().take(64 * WORDS) {
        let mut cells = part;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            masks[cell][i / 64] |= 1 << (i % 64);
        }
    }
    masks
}

/// The bits of the UA of `valid` that `set` leaves unhit.
fn unhit(set: u32, masks: &[Vector; 27], valid: &Vector) -> Vector {
    let mut hit = [0u64; WORDS];
    let mut cells = set;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        for w in 0..WORDS {
            hit[w] |= masks[cell][w];
        }
    }
    let mut out = [0u64; WORDS];
    for w in 0..WORDS {
        out[w] = valid[w] & !hit[w];
    }
    out
}

fn valid_bits(count: usize) -> Vector {
    let mut valid = [0u64; WORDS];
    for (w, word) in valid.iter_mut().enumerate() {
        let bits = count.saturating_sub(64 * w).min(64);
        *word = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
    }
    valid
}

/// Key cross UA: a side's sets are grouped by which of the first `KEYS` cross UA they
/// leave unhit (a "bucket"), and a bucket of X meets only the buckets of Y disjoint from it.
const KEYS: usize = 8;
const BUCKETS: usize = 1 << KEYS;

/// One side's sets with their vectors over the cross UA, the first words apart (the
/// kernel's stream), grouped by bucket: bucket b is `starts[b]..starts[b + 1]`.
struct Side {
    sets: Vec<u32>,
    first: Vec<u64>,
    rest: Vec<[u64; WORDS - FIRST]>,
    starts: Vec<usize>,
}

impl Side {
    fn new(sets: &[u32], masks: &[Vector; 27], valid: &Vector) -> Side {
        // A counting sort by bucket (the keys' bits of the first word alone, then the whole
        // vector where the set goes).
        let bucket = |set: u32| {
            let mut hit = 0u64;
            let mut cells = set;
            while cells != 0 {
                hit |= masks[cells.trailing_zeros() as usize][0];
                cells &= cells - 1;
            }
            (valid[0] & !hit) as usize % BUCKETS
        };
        let buckets: Vec<u8> = sets.iter().map(|&set| bucket(set) as u8).collect();
        let mut starts = vec![0; BUCKETS + 1];
        for &b in &buckets {
            starts[usize::from(b) + 1] += 1;
        }
        for b in 0..BUCKETS {
            starts[b + 1] += starts[b];
        }
        let mut next = starts.clone();
        let mut side = Side {
            sets: vec![0; sets.len()],
            first: vec![0; sets.len()],
            rest: vec![[0; WORDS - FIRST]; sets.len()],
            starts,
        };
        for (&set, &b) in sets.iter().zip(&buckets) {
            let v = unhit(set, masks, valid);
            let at = &mut next[usize::from(b)];
            side.sets[*at] = set;
            side.first[*at] = v[0];
            side.rest[*at].copy_from_slice(&v[FIRST..]);
            *at += 1;
        }
        side
    }

    fn bucket(&self, b: usize) -> core::ops::Range<usize> {
        self.starts[b]..self.starts[b + 1]
    }
}

/// The kernel: calls `survivor(x, y)` for each pair of indices whose vectors' AND is zero.
/// Returns the pairs that passed the first words. Only disjoint buckets meet; within two
/// buckets the first words are tested four at a time without a branch (one pair in a few
/// hundred passes them).
fn pair_survivors(xs: &Side, ys: &Side, survivor: &mut impl FnMut(usize, usize)) -> u64 {
    let mut first_passed = 0u64;
    for a in 0..BUCKETS {
        let x_range = xs.bucket(a);
        if x_range.is_empty() {
            continue;
        }
        // Every subset b of the keys a leaves hit, the empty one included.
        let open = !a & (BUCKETS - 1);
        let mut b = open;
        loop {
            let y_range = ys.bucket(b);
            if !y_range.is_empty() {
                first_passed += dense_pairs(xs, x_range.clone(), ys, y_range, survivor);
            }
            if b == 0 {
                break;
            }
            b = (b - 1) & open;
        }
    }
    first_passed
}

/// The kernel over X sets `x_range` and Y sets `y_range` (a block of Y stays in the cache
/// while every X passes over it).
fn dense_pairs(
    xs: &Side,
    x_range: core::ops::Range<usize>,
    ys: &Side,
    y_range: core::ops::Range<usize>,
    survivor: &mut impl FnMut(usize, usize),
) -> u64 {
    let mut first_passed = 0u64;
    for y0 in y_range.clone().step_by(Y_BLOCK) {
        let block = &ys.first[y0..(y0 + Y_BLOCK).min(y_range.end)];
        for x in x_range.clone() {
            let xf = xs.first[x];
            let mut pass = |j: usize| {
                first_passed += 1;
                let y = y0 + j;
                let (xr, yr) = (&xs.rest[x], &ys.rest[y]);
                if (0..WORDS - FIRST).all(|w| xr[w] & yr[w] == 0) {
                    survivor(x, y);
                }
            };
            let fours = block.chunks_exact(4);
            let tail = fours.remainder();
            for (i, four) in fours.enumerate() {
                let zero = |k: usize| u32::from(xf & four[k] == 0) << k;
                let mut passed = zero(0) | zero(1) | zero(2) | zero(3);
                while passed != 0 {
                    pass(4 * i + passed.trailing_zeros() as usize);
                    passed &= passed - 1;
                }
            }
            for (k, &yf) in tail.iter().enumerate() {
                if xf & yf == 0 {
                    pass(block.len() - tail.len() + k);
                }
            }
        }
    }
    first_passed
}

/// What a scan counted.
#[derive(Clone, Debug, Default)]
pub struct BandStats {
    /// Scanned as stacks (the transposed grid).
    pub stacks: bool,
    /// XY pairs of the orientation scanned.
    pub pairs: u64,
    /// XY pairs of the orientation not scanned.
    pub other_pairs: u64,
    /// Pairs through the kernel's first words.
    pub first_passed: u64,
    /// Pairs through all the kernel's words and the cross UA beyond them: each searched in
    /// band 3.
    pub survivors: u64,
    /// Survivors the band-3 packing bound refutes at once.
    pub refuted_at_root: u64,
    /// Nodes of the band-3 searches.
    pub band3_nodes: u64,
    /// Whole sets that hit every UA of the list, each given the final test.
    pub candidates: u64,
    /// Seconds outside the pair loops: the grid's band sets and the orientation.
    pub seconds_sets: f64,
    /// Seconds in the pair loops: the sides' vectors (built per block), the kernel and the
    /// band-3 step.
    pub seconds_pairs: f64,
}

/// Band 3 under one surviving pair: z cells hitting the band-3 parts the pair leaves unhit.
struct Band3<'a> {
    /// Band-3 parts of the vectors' UA that the pair leaves unhit, smallest first; after
    /// them, each open node's parts still unhit (a level), and the UA beyond the vectors
    /// that a leaf found unhit.
    parts: Vec<u32>,
    /// The UA meeting band 3 beyond the vectors, smallest first, and the first of them
    /// not yet known to be hit.
    overflow: &'a [u128],
    overflow_from: usize,
    /// The pair's cells, and band 3's index.
    xy: u128,
    band3: usize,
    nodes: &'a mut u64,
}

impl Band3<'_> {
    /// Every set of `left` more cells (none `forbidden`) with `chosen` hitting each part of
    /// `parts[level]` (the parts the node's parent left unhit) and each UA beyond the
    /// vectors. One pass over them finds a greedy packing of those still unhit, disjoint on
    /// open cells (a lower bound on the cells still needed), and the one with the fewest
    /// open cells (the branch); only a node that branches copies the parts still unhit
    /// after the list, for its children (most nodes are pruned by the pass).
    fn search(
        &mut self,
        level: core::ops::Range<usize>,
        chosen: u32,
        forbidden: u32,
        left: u32,
        found: &mut impl FnMut(u32),
    ) {
        *self.nodes += 1;
        let (mut used, mut packed) = (0u32, 0u32);
        let (mut branch, mut branch_cells) = (0u32, u32::MAX);
        for &part in &self.parts[level.clone()] {
            if part & chosen != 0 {
                continue;
            }
            let open = part & !forbidden;
            if open == 0 {
                return;
            }
            if open & used == 0 {
                used |= open;
                packed += 1;
                if packed > left {
                    return;
                }
            }
            let cells = open.count_ones();
            if cells < branch_cells {
                (branch, branch_cells) = (open, cells);
            }
        }
        if branch_cells == u32::MAX {
            self.leaf(chosen, forbidden, left, found);
            return;
        }
        let next = self.parts.len();
        for i in level {
            let part = self.parts[i];
            if part & chosen == 0 {
                self.parts.push(part);
            }
        }
        let unhit = next..self.parts.len();
        let mut forbidden = forbidden;
        let mut cells = branch;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells &= cells - 1;
            self.search(unhit.clone(), chosen | cell, forbidden, left - 1, found);
            forbidden |= cell;
        }
        self.parts.truncate(next);
    }

    /// Every part is hit: the first UA beyond the vectors (from `overflow_from` on; those
    /// before it are hit by fewer cells) that `chosen` leaves unhit becomes the only part of
    /// a new level and the search goes on; when there is none, every choice of the `left`
    /// cells still open is a candidate.
    fn leaf(&mut self, chosen: u32, forbidden: u32, left: u32, found: &mut impl FnMut(u32)) {
        let whole = self.xy | u128::from(chosen) << (27 * self.band3);
        let from = self.overflow_from;
        match self.overflow[from..].iter().position(|&ua| ua & whole == 0) {
            None => for_each_subset(BAND & !(chosen | forbidden), left, chosen, found),
            Some(i) => {
                let part = band_part(self.overflow[from + i], self.band3);
                if part & !forbidden == 0 || left == 0 {
                    return;
                }
                let at = self.parts.len();
                self.parts.push(part);
                self.overflow_from = from + i + 1;
                self.search(at..at + 1, chosen, forbidden, left, found);
                self.overflow_from = from;
                self.parts.truncate(at);
            }
        }
    }
}

/// Appends to `parts` the band-3 parts of the UA whose bits `unhit` holds (in order: band-3
/// part smallest first), counting a greedy packing of them as it goes; `false` as soon as
/// the packing needs more than `clues` cells (most pairs end there, before the rest of
/// their parts are read).
fn gather_parts(parts: &mut Vec<u32>, unhit: &Vector, all_parts: &[u32], clues: u32) -> bool {
    let (mut used, mut packed) = (0u32, 0u32);
    for (w, &word) in unhit.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let part = all_parts[64 * w + bits.trailing_zeros() as usize];
            bits &= bits - 1;
            parts.push(part);
            if part & used == 0 {
                used |= part;
                packed += 1;
                if packed > clues {
                    return false;
                }
            }
        }
    }
    true
}

/// The sets of one band, by size, enumerated when first needed.
struct BandSetCache {
    uas: Vec<u32>,
    sets: Vec<Option<Vec<u32>>>,
    counts: Vec<Option<u64>>,
}

impl BandSetCache {
    fn new(uas: Vec<u32>) -> BandSetCache {
        BandSetCache {
            uas,
            sets: vec![None; 28],
            counts: vec![None; 28],
        }
    }
    fn count(&mut self, k: u32) -> u64 {
        let uas = &self.uas;
        *self.counts[k as usize].get_or_insert_with(|| count_band_sets(uas, k))
    }
    fn sets(&mut self, k: u32) -> &[u32] {
        let uas = &self.uas;
        self.sets[k as usize].get_or_insert_with(|| band_sets(uas, k))
    }
}

/// The splits of `clues` over the bands with `t` as band 3: (z, x, y) with x clues in the
/// lower other band p and y in the higher q; a band before `t` holds fewer than z clues.
fn splits(clues: u32, t: usize) -> Vec<(u32, u32, u32)> {
    let (p, q) = other_bands(t);
    let mut out = Vec::new();
    // At least one clue in band 3 (0 clues: no split, no puzzle).
    for z in clues.div_ceil(3).max(1)..=clues.min(27) {
        let (max_x, max_y) = (z - u32::from(p < t), z - u32::from(q < t));
        for x in 0..=(clues - z).min(max_x) {
            let y = clues - z - x;
            if y <= max_y {
                out.push((z, x, y));
            }
        }
    }
    out
}

fn other_bands(t: usize) -> (usize, usize) {
    match t {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// The XY pairs of one orientation (from the counts of band sets).
fn pair_count(caches: &mut [BandSetCache; 3], clues: u32) -> u64 {
    let mut pairs = 0;
    for t in 0..3 {
        let (p, q) = other_bands(t);
        for (_, x, y) in splits(clues, t) {
            let nx = caches[p].count(x);
            if nx > 0 {
                pairs += nx * caches[q].count(y);
            }
        }
    }
    pairs
}

fn band_caches(uas: &[u128]) -> [BandSetCache; 3] {
    let inside = |b: usize| {
        uas.iter()
            .filter(|&&u| bands_met(u) == 1 << b)
            .map(|&u| band_part(u, b))
            .collect::<Vec<u32>>()
    };
    [0, 1, 2].map(|b| BandSetCache::new(inside(b)))
}

/// How [`scan_with`] runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// UA per vector (at most 1,024): the cross UA beyond them are tested per surviving
    /// pair, the UA meeting band 3 beyond them at the band-3 search's leaves.
    pub vector_uas: usize,
    /// `Some(true)`: scan the stacks, `Some(false)`: the bands, `None`: whichever has fewer
    /// XY pairs.
    pub stacks: Option<bool>,
    /// The most sets of one side the kernel takes at a time (an engine's fixed storage);
    /// each block of X meets each block of Y.
    pub block_sets: usize,
}

impl Settings {
    /// Full vectors, the cheaper orientation, whole sides.
    pub const DEFAULT: Settings = Settings {
        vector_uas: 64 * WORDS,
        stacks: None,
        block_sets: usize::MAX,
    };
}

/// Every `clues`-cell set of `grid` hitting each UA of `uas` (real UA of the grid, any
/// number, any order) that `accept` takes, found through the bands (or the stacks) as
/// `settings` say; `accept` is given the grid and the set in the orientation scanned
/// (`band_scan` passes `solver::is_unique_with_grid`, the tests an accept-all). Returns
/// the sets sorted, and what the scan counted.
pub fn scan_with(
    grid: &Grid,
    uas: &[Cells],
    clues: u32,
    settings: Settings,
    accept: &mut impl FnMut(&Grid, Cells) -> bool,
) -> (Vec<Cells>, BandStats) {
    let started = Instant::now();
    let mut stats = BandStats::default();
    let in_vectors = settings.vector_uas.min(64 * WORDS);
    let mut by_size: Vec<u128> = uas.iter().map(|u| u.0).collect();
    by_size.sort_by_key(|u| (u.count_ones(), *u));
    let transposed: Vec<u128> = by_size.iter().map(|&u| transpose(u)).collect();
    let mut band_caches_rows = band_caches(&by_size);
    let mut band_caches_cols = band_caches(&transposed);
    let rows = pair_count(&mut band_caches_rows, clues);
    let cols = pair_count(&mut band_caches_cols, clues);
    stats.stacks = settings.stacks.unwrap_or(cols < rows);
    let (grid, uas, mut caches) = if stats.stacks {
        (transpose_grid(grid), transposed, band_caches_cols)
    } else {
        (*grid, by_size, band_caches_rows)
    };
    (stats.pairs, stats.other_pairs) = if stats.stacks {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let mut puzzles = Vec::new();
    let mut pair_seconds = 0.0;
    for t in 0..3 {
        let (p, q) = other_bands(t);
        let pq = 1 << p | 1 << q;
        // The cross UA of bands p and q (smallest first, as listed), and the UA meeting
        // band 3 (band-3 part smallest first: the packing bound takes them in this order).
        let cross: Vec<u128> = uas
            .iter()
            .copied()
            .filter(|&u| bands_met(u) == pq)
            .collect();
        let mut meet3: Vec<u128> = uas
            .iter()
            .copied()
            .filter(|&u| bands_met(u) & 1 << t != 0)
            .collect();
        meet3.sort_by_key(|&u| (band_part(u, t).count_ones(), u.count_ones()));
        let (cross, cross_overflow) = cross.split_at(cross.len().min(in_vectors));
        let (meet3, meet3_overflow) = meet3.split_at(meet3.len().min(in_vectors));
        let parts =
            |list: &[u128], b: usize| list.iter().map(|&u| band_part(u, b)).collect::<Vec<_>>();
        let cross_masks = [p, q].map(|b| hit_masks(&parts(cross, b)));
        let meet3_masks = [p, q].map(|b| hit_masks(&parts(meet3, b)));
        let (cross_valid, meet3_valid) = (valid_bits(cross.len()), valid_bits(meet3.len()));
        let meet3_parts = parts(meet3, t);
        // The leaves test the UA beyond the vectors smallest first (the likeliest unhit).
        let mut overflow = meet3_overflow.to_vec();
        overflow.sort_by_key(|u| u.count_ones());
        for (z, x, y) in splits(clues, t) {
            if caches[p].count(x) == 0 || caches[q].count(y) == 0 {
                continue;
            }
            let x_sets = caches[p].sets(x).to_vec();
            let y_sets = caches[q].sets(y).to_vec();
            let pairs_started = Instant::now();
            let mut parts_room = Vec::new();
            let mut nodes = 0u64;
            let (mut survivors, mut refuted, mut candidates) = (0u64, 0u64, 0u64);
            for y_block in y_sets.chunks(settings.block_sets.max(1)) {
                let ys = Side::new(y_block, &cross_masks[1], &cross_valid);
                for x_block in x_sets.chunks(settings.block_sets.max(1)) {
                    let xs = Side::new(x_block, &cross_masks[0], &cross_valid);
                    let mut x_meet3 = (usize::MAX, [0u64; WORDS]);
                    stats.first_passed += pair_survivors(&xs, &ys, &mut |xi, yi| {
                        let xy = u128::from(xs.sets[xi]) << (27 * p)
                            | u128::from(ys.sets[yi]) << (27 * q);
                        if cross_overflow.iter().any(|&u| u & xy == 0) {
                            return;
                        }
                        survivors += 1;
                        if x_meet3.0 != xi {
                            x_meet3 = (xi, unhit(xs.sets[xi], &meet3_masks[0], &meet3_valid));
                        }
                        let y_meet3 = unhit(ys.sets[yi], &meet3_masks[1], &meet3_valid);
                        let mut band3 = Band3 {
                            parts: core::mem::take(&mut parts_room),
                            overflow: &overflow,
                            overflow_from: 0,
                            xy,
                            band3: t,
                            nodes: &mut nodes,
                        };
                        let mut pair_unhit = x_meet3.1;
                        for (word, y_word) in pair_unhit.iter_mut().zip(y_meet3) {
                            *word &= y_word;
                        }
                        if gather_parts(&mut band3.parts, &pair_unhit, &meet3_parts, z) {
                            let all = 0..band3.parts.len();
                            band3.search(all, 0, 0, z, &mut |set| {
                                candidates += 1;
                                let whole = xy | u128::from(set) << (27 * t);
                                debug_assert!(uas.iter().all(|&u| u & whole != 0));
                                if accept(&grid, Cells(whole)) {
                                    puzzles.push(whole);
                                }
                            });
                        } else {
                            // The root, refuted by its packing before all its parts were read.
                            *band3.nodes += 1;
                            refuted += 1;
                        }
                        parts_room = band3.parts;
                        parts_room.clear();
                    });
                }
            }
            pair_seconds += pairs_started.elapsed().as_secs_f64();
            stats.survivors += survivors;
            stats.refuted_at_root += refuted;
            stats.band3_nodes += nodes;
            stats.candidates += candidates;
        }
    }
    if stats.stacks {
        for puzzle in &mut puzzles {
            *puzzle = transpose(*puzzle);
        }
    }
    puzzles.sort_unstable();
    stats.seconds_pairs = pair_seconds;
    stats.seconds_sets = started.elapsed().as_secs_f64() - pair_seconds;
    (puzzles.into_iter().map(Cells).collect(), stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The band sets are exactly the k-subsets that hit every UA, each once.
    #[test]
    fn band_sets_are_the_hitting_subsets() {
        let uas = [
            0b111,
            0b11000,
            0b1_0000_0001,
            0b110_0000_0000_0000_0000_0000_0000,
        ];
        for k in 0..=4 {
            let mut brute = Vec::new();
            for_each_subset(BAND, k, 0, &mut |s| {
                if uas.iter().all(|&u| u & s != 0) {
                    brute.push(s)
                }
            });
            let mut sets = band_sets(&uas, k);
            assert_eq!(sets.len() as u64, count_band_sets(&uas, k));
            sets.sort_unstable();
            brute.sort_unstable();
            assert_eq!(sets, brute, "k = {k}");
        }
    }

    /// Each split puts band 3 first among the bands holding the most clues, and every
    /// distribution of the clues over the bands has one split (none for no clue).
    #[test]
    fn every_distribution_has_one_split() {
        assert!((0..3).all(|t| splits(0, t).is_empty()));
        for clues in [1u32, 2, 5, 16, 17, 27] {
            let mut seen = std::collections::HashSet::new();
            for t in 0..3 {
                let (p, q) = other_bands(t);
                for (z, x, y) in splits(clues, t) {
                    let mut d = [0; 3];
                    (d[t], d[p], d[q]) = (z, x, y);
                    assert!(seen.insert(d), "{d:?} twice");
                }
            }
            let all = (0..=clues)
                .flat_map(|a| (0..=clues - a).map(move |b| (a, b)))
                .count();
            assert_eq!(seen.len(), all, "clues {clues}");
        }
    }

    /// The scan with every hitting set accepted is the brute-force list of the 4-cell sets
    /// hitting a few UA of a grid, in both orientations, with vectors too short for the
    /// list (so the cross UA beyond them and the leaves' UA are used too), and with the
    /// sides cut into blocks of 3 sets.
    #[test]
    fn the_scan_finds_every_hitting_set() {
        let grid = Grid::parse(
            b"128465973534789261697231854271354698359876412486912735813647529965128347742593186",
        )
        .unwrap();
        let recipe = xcover_core::gridcheck::ua::budget::Recipe::given(0);
        let all = recipe.generate_to_vec(&grid, 1, Cells::EMPTY).unwrap();
        // The UA that four cells spread over the bands hit: the hitting sets include them.
        let spread = Cells::from_cells(&[3, 31, 58, 76]);
        let uas: Vec<Cells> = all
            .iter()
            .copied()
            .filter(|u| !u.is_disjoint(spread))
            .step_by(3)
            .take(14)
            .collect();
        let kinds: std::collections::HashSet<u32> = uas.iter().map(|u| bands_met(u.0)).collect();
        assert!(kinds.len() >= 4, "UA of several kinds: {kinds:?}");
        let mut brute = Vec::new();
        for a in 0..81 {
            for b in a + 1..81 {
                let ab = 1u128 << a | 1u128 << b;
                for c in b + 1..81 {
                    for d in c + 1..81 {
                        let set = ab | 1u128 << c | 1u128 << d;
                        if uas.iter().all(|u| u.0 & set != 0) {
                            brute.push(Cells(set));
                        }
                    }
                }
            }
        }
        assert!(brute.contains(&spread));
        brute.sort_unstable_by_key(|c| c.0);
        for (vector_uas, stacks, block_sets) in [
            (1024, Some(false), usize::MAX),
            (1024, Some(true), usize::MAX),
            (2, None, usize::MAX),
            (0, Some(true), usize::MAX),
            (1024, None, 3),
        ] {
            let settings = Settings {
                vector_uas,
                stacks,
                block_sets,
            };
            let (found, stats) = scan_with(&grid, &uas, 4, settings, &mut |_, _| true);
            assert_eq!(found.len(), brute.len(), "{settings:?}");
            assert!(found == brute, "{settings:?}: other sets");
            assert_eq!(stats.candidates as usize, brute.len());
        }
        // The final test decides: the same scan with a test that refuses every other set.
        let mut count = 0;
        let (found, _) = scan_with(&grid, &uas, 4, Settings::DEFAULT, &mut |_, _| {
            count += 1;
            count % 2 == 0
        });
        assert_eq!(found.len(), brute.len() / 2);
    }

    #[test]
    fn transposing_twice_gives_back_the_cells() {
        let cells = 0x1234_5678_9abc_def0_1357_9bdf_u128 & Cells::ALL.0;
        assert_eq!(transpose(transpose(cells)), cells);
        assert_eq!(transpose(1 << 1), 1 << 9);
    }
}

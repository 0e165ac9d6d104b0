//! One side of the kernel: a block of one band's clue sets with their vectors over the
//! cross UA, grouped by bucket.
//!
//! A set's vector has a bit for each cross UA (of the first [`VECTOR_UAS`]) whose part in
//! the set's band the set leaves unhit; a pair X, Y hits every such UA when the AND of
//! their vectors is zero. The bucket of a set is its vector's first [`KEYS`] bits: a
//! bucket of X meets only the buckets of Y disjoint from it. The first words are stored
//! apart, as the kernel's stream.
use super::sizes::{Vector, VECTOR_UAS, WORDS};

/// Key cross UA (the vector's first bits) a bucket is made of.
pub(super) const KEYS: usize = 8;
pub(super) const BUCKETS: usize = 1 << KEYS;
/// Words of a vector after the first.
pub(super) const REST: usize = WORDS - 1;

/// For each cell of one band (27) the bits of the UA (of a vector's list) whose part in
/// that band holds the cell: `27 * WORDS` words.
pub(super) fn hit_masks(parts: impl Iterator<Item = u32>, masks: &mut [u64]) {
    masks.fill(0);
    for (i, part) in parts.enumerate().take(VECTOR_UAS) {
        let mut cells = part;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            masks[cell * WORDS + i / 64] |= 1 << (i % 64);
        }
    }
}

/// The bits of the first `count` UA of a vector's list.
pub(super) fn valid_bits(count: usize) -> Vector {
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

/// The bits of `valid` whose UA `set` (band-local) leaves unhit.
#[inline]
pub(super) fn unhit(set: u32, masks: &[u64], valid: &Vector) -> Vector {
    let mut out = *valid;
    let mut cells = set;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let mask = &masks[cell * WORDS..(cell + 1) * WORDS];
        for (word, &m) in out.iter_mut().zip(mask) {
            *word &= !m;
        }
    }
    out
}

/// The first word of `set`'s vector (its bucket in the low [`KEYS`] bits).
#[inline]
fn first_word(set: u32, masks: &[u64], valid: &Vector) -> u64 {
    let mut hit = 0u64;
    let mut cells = set;
    while cells != 0 {
        hit |= masks[cells.trailing_zeros() as usize * WORDS];
        cells &= cells - 1;
    }
    valid[0] & !hit
}

/// Where each bucket of a side starts: bucket b holds the sets `starts[b]..starts[b + 1]`
/// (a block has at most [`super::sizes::BLOCK_SETS`] sets).
pub(super) type Starts = [u16; BUCKETS + 1];

/// A side in caller storage: set i's cells, first word and other words.
pub(super) struct Side<'w> {
    pub sets: &'w mut [u64],
    pub first: &'w mut [u64],
    pub rest: &'w mut [u64],
}

impl Side<'_> {
    /// Loads the sets `raw`, sorted by bucket (a counting sort), with their vectors, and
    /// writes where the buckets start.
    pub fn load(&mut self, raw: &[u64], masks: &[u64], valid: &Vector, starts: &mut Starts) {
        let bucket = |set: u64| first_word(set as u32, masks, valid) as usize % BUCKETS;
        *starts = [0; BUCKETS + 1];
        for &set in raw {
            starts[bucket(set) + 1] += 1;
        }
        for b in 0..BUCKETS {
            starts[b + 1] += starts[b];
        }
        let mut next = *starts;
        for &set in raw {
            let vector = unhit(set as u32, masks, valid);
            let slot = &mut next[vector[0] as usize % BUCKETS];
            let at = *slot as usize;
            *slot += 1;
            self.sets[at] = set;
            self.first[at] = vector[0];
            self.rest[at * REST..(at + 1) * REST].copy_from_slice(&vector[1..]);
        }
    }

    /// Set `i`'s other words.
    #[inline]
    pub fn rest_of(&self, i: usize) -> &[u64] {
        &self.rest[i * REST..(i + 1) * REST]
    }
}

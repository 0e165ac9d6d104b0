//! The band engine's fixed sizes: a set's vector, the UA in it, the sets of a block.

/// 64-bit words of a set's vector over the cross UA (and over the UA meeting band 3).
pub(super) const WORDS: usize = 16;

/// UA in a vector: the cross UA beyond them are tested per surviving pair, the UA meeting
/// band 3 beyond them at the band-3 search's leaves.
pub(crate) const VECTOR_UAS: usize = 64 * WORDS;

/// Sets of one band in a block (a side of the kernel). Up to 17 clues a side holds at
/// most C(27, 8) = 2,220,075 sets, 136 blocks, so a chunk id's byte numbers them; with
/// more clues the UA inside the band keep a side far smaller, and a scan with a side of
/// more than 256 blocks stays on the enumeration.
pub(crate) const BLOCK_SETS: usize = 16_384;

pub(super) type Vector = [u64; WORDS];

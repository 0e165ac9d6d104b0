//! The band engine: a whole-grid scan through the bands (blue's 17-clue scheme, as
//! champagne documents it), several times faster than the enumeration on whole grids.
//!
//! An N-clue puzzle puts x, y and z clues in the three bands. Call "band 3" the first band
//! holding the most clues: every puzzle is then counted once, under one band 3 and one
//! split. Every UA inside one band must be hit by that band's clues, so each band's clue
//! sets are listed against its own UA alone. A pair of sets X, Y of the two other bands
//! must hit the UA lying across those two bands: each set carries the bits of the cross
//! UA it leaves unhit (its vector, over the first [`sizes::VECTOR_UAS`]), and the pair survives
//! when the AND of their vectors is zero (the kernel). Band 3 is searched only under the
//! surviving pairs, for z cells hitting the band-3 parts of the UA the pair leaves unhit;
//! a set that hits every UA of the list goes to the uniqueness test. Stacks are bands of
//! the transposed grid, and a grid is scanned in the orientation with fewer XY pairs
//! (known from the counts of band sets alone).
//!
//! The UA list is only a pruning device (a puzzle hits every real UA, and every candidate
//! gets the final test), so a missing UA costs time, never a result; as for
//! [`super::prepare()`], every UA given must be real. The session runs whole-grid scans
//! here when its workspace has band words ([`super::prepare_with_bands`]).
//!
//! A chunk is a band 3, a split, and a block of up to [`sizes::BLOCK_SETS`] sets on each side;
//! its [`ChunkId`] holds band 3 and the split in `top` (at most 254) and the two block
//! numbers. Storage: the grid's lists live in the reserve of the preparation's work slice
//! (a sorted copy of the list, then five entries a UA kept: the smallest that fit), and
//! each thread running chunks lends band words (about 4.9 MB, the two blocks and the
//! band-3 search's levels); a run's own state is a few KB.

mod band3;
mod cursor;
mod geometry;
mod plan;
mod run;
mod sets;
mod side;
mod sizes;
mod workspace;

#[cfg(test)]
mod tests;

pub(crate) use plan::{prepare, BandChunks, BandScan, Refused};
pub use run::BandCounts;
pub(crate) use run::BandRun;
pub(crate) use workspace::BAND_WORDS;

#[cfg(doc)]
use super::ChunkId;

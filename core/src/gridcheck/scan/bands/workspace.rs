//! Per-thread storage of a band run: the tables of one band 3, two sides and the band-3
//! search's levels, carved from one caller slice of `u64` (the band words of a
//! [`crate::gridcheck::scan::WorkspaceView`]).
use super::band3::PARTS;
use super::side::{Side, REST};
use super::sizes::{BLOCK_SETS, VECTOR_UAS, WORDS};
use crate::gridcheck::scan::ScanError;

/// Words of the hit masks: cross and meet-3 masks of the two other bands.
const MASK_WORDS: usize = 4 * 27 * WORDS;

/// Words a band run with blocks of `block_sets` sets needs.
pub(super) const fn words_for(block_sets: usize) -> usize {
    MASK_WORDS + VECTOR_UAS + PARTS + block_sets * (1 + 2 * (2 + REST))
}

/// Words a band run needs: about 4.9 MB.
pub(crate) const BAND_WORDS: usize = words_for(BLOCK_SETS);

/// The parts of a workspace a run uses.
pub(super) struct Carved<'w> {
    /// Hit masks: cross UA of X's band, of Y's band, meet-3 UA of X's band, of Y's band.
    pub masks: [&'w mut [u64]; 4],
    /// Band-3 parts of the meet-3 UA in the vectors.
    pub meet3_parts: &'w mut [u64],
    /// The band-3 search's levels.
    pub parts: &'w mut [u64],
    /// A block's sets as listed, before a side sorts them.
    pub raw: &'w mut [u64],
    pub xs: Side<'w>,
    pub ys: Side<'w>,
}

/// Checks that `words` can hold a run with blocks of `block_sets` sets.
pub(super) fn check(words: &[u64], block_sets: usize) -> Result<(), ScanError> {
    let needed = words_for(block_sets);
    if words.len() < needed {
        return Err(ScanError::StorageTooSmall {
            what: "band workspace",
            needed,
            given: words.len(),
        });
    }
    Ok(())
}

/// Cuts `words` (checked by [`check`]) into a run's parts for blocks of `block_sets` sets.
pub(super) fn carve(words: &mut [u64], block_sets: usize) -> Carved<'_> {
    let (masks, rest) = words.split_at_mut(MASK_WORDS);
    let (m0, masks) = masks.split_at_mut(27 * WORDS);
    let (m1, masks) = masks.split_at_mut(27 * WORDS);
    let (m2, m3) = masks.split_at_mut(27 * WORDS);
    let (meet3_parts, rest) = rest.split_at_mut(VECTOR_UAS);
    let (parts, rest) = rest.split_at_mut(PARTS);
    let (raw, rest) = rest.split_at_mut(block_sets);
    let (x_sets, rest) = rest.split_at_mut(block_sets);
    let (x_first, rest) = rest.split_at_mut(block_sets);
    let (x_rest, rest) = rest.split_at_mut(block_sets * REST);
    let (y_sets, rest) = rest.split_at_mut(block_sets);
    let (y_first, rest) = rest.split_at_mut(block_sets);
    let (y_rest, _) = rest.split_at_mut(block_sets * REST);
    Carved {
        masks: [m0, m1, m2, m3],
        meet3_parts,
        parts,
        raw,
        xs: Side {
            sets: x_sets,
            first: x_first,
            rest: x_rest,
        },
        ys: Side {
            sets: y_sets,
            first: y_first,
            rest: y_rest,
        },
    }
}

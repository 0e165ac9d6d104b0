//! A chunk's name: up to three bytes, the positions of the enumeration's first free
//! clues (or, on the band engine, band 3 with the split and two block numbers), as one
//! `u32` between machines.

/// "No filter" at a level.
pub(super) const NONE: u8 = u8::MAX;

/// Levels of the enumeration a chunk fixes (at most).
pub(crate) const CHUNK_LEVELS: usize = 3;

/// A chunk: the positions of the first three free clues in enumeration order (`255` =
/// any; a level left open leaves the levels below it open too). A scan on the band engine
/// names its chunks with the same three bytes: band 3 and the split (`top`, at most 254),
/// the X block and the Y block.
///
/// ```
/// use xcover_core::gridcheck::scan::ChunkId;
///
/// let chunk = ChunkId { top: 4, second: 0, third: 9 };
/// assert_eq!(ChunkId::from_u32(chunk.to_u32()), Some(chunk));
/// assert_eq!(ChunkId::from_u32(1 << 24), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkId {
    /// Iterator position of the first free clue placed, or 255 for any.
    pub top: u8,
    /// Iterator position of the second free clue placed, or 255 for any.
    pub second: u8,
    /// Iterator position of the third free clue placed, or 255 for any.
    pub third: u8,
}

impl ChunkId {
    /// The whole scan as one chunk.
    pub const WHOLE: ChunkId = ChunkId {
        top: NONE,
        second: NONE,
        third: NONE,
    };

    /// Compact number (for passing between machines): `top << 16 | second << 8 | third`.
    pub fn to_u32(self) -> u32 {
        u32::from(self.top) << 16 | u32::from(self.second) << 8 | u32::from(self.third)
    }

    /// Inverse of [`ChunkId::to_u32`].
    pub fn from_u32(value: u32) -> Option<ChunkId> {
        if value > 0xff_ffff {
            return None;
        }
        Some(ChunkId {
            top: (value >> 16) as u8,
            second: (value >> 8) as u8,
            third: value as u8,
        })
    }

    /// The positions fixed, level by level (`NONE` = open).
    fn levels(self) -> [u8; CHUNK_LEVELS] {
        [self.top, self.second, self.third]
    }

    /// Whether this id can name a chunk of a scan with `clues` free clues over `free`
    /// free cells: fixed levels come first, there are at most `clues` of them, and their
    /// positions are distinct free positions.
    pub(crate) fn fits(self, clues: u8, free: u8) -> bool {
        let levels = self.levels();
        let fixed = levels.iter().take_while(|&&p| p != NONE).count();
        let open_after = levels[fixed..].iter().all(|&p| p == NONE);
        let distinct = (0..fixed).all(|i| (0..i).all(|j| levels[i] != levels[j]));
        open_after
            && fixed <= usize::from(clues)
            && distinct
            && levels[..fixed].iter().all(|&p| p < free)
    }

    /// Restricts the branch of level `depth` to this chunk: when the level is fixed, only
    /// its position is tried and the branch cells before it (tried first in the whole
    /// run) are dead. Returns the branch and the dead cells.
    #[inline]
    pub(crate) fn restrict(self, depth: usize, branch: u128, dead: u128) -> (u128, u128) {
        match self.levels().get(depth) {
            Some(&position) if position != NONE => {
                let bit = 1u128 << position;
                if branch & bit == 0 {
                    (0, dead)
                } else {
                    (bit, dead | branch & (bit - 1))
                }
            }
            _ => (branch, dead),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_fit() {
        let id = ChunkId {
            top: 7,
            second: 3,
            third: 40,
        };
        assert_eq!(ChunkId::from_u32(id.to_u32()), Some(id));
        assert_eq!(
            ChunkId::from_u32(ChunkId::WHOLE.to_u32()),
            Some(ChunkId::WHOLE)
        );
        assert_eq!(ChunkId::from_u32(0x100_0000), None);
        assert!(id.fits(3, 41));
        assert!(!id.fits(2, 41), "more levels than clues");
        assert!(!id.fits(3, 40), "a position outside the free cells");
        let repeated = ChunkId { third: 7, ..id };
        assert!(!repeated.fits(3, 41));
        let gap = ChunkId { second: NONE, ..id };
        assert!(!gap.fits(3, 41), "a fixed level below an open one");
        assert!(ChunkId::WHOLE.fits(0, 0));
    }

    #[test]
    fn restrict_kills_the_cells_tried_before() {
        let id = ChunkId {
            top: 5,
            second: NONE,
            third: NONE,
        };
        let branch = 1u128 << 2 | 1 << 5 | 1 << 9;
        assert_eq!(id.restrict(0, branch, 1 << 60), (1 << 5, 1 << 60 | 1 << 2));
        assert_eq!(id.restrict(0, 1 << 9, 0), (0, 0));
        assert_eq!(id.restrict(1, branch, 0), (branch, 0));
    }
}

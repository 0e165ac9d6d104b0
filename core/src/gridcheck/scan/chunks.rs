//! Independent pieces of a scan: one chunk per placement of the first [`CHUNK_LEVELS`]
//! free clues of the enumeration (fewer when fewer clues are free; the whole scan when
//! every clue is forced).
//!
//! The enumeration places the clue of a level on the live cells of its branch set in
//! increasing position order, and a cell tried is dead for the siblings after it. A chunk
//! names the position taken at each of its levels; running it makes the cells its levels
//! skipped dead, exactly as the whole run would. So chunks can run on different threads or
//! machines, the union of their results is the scan's result, and no clue set belongs to
//! two chunks.
use super::prepare::Prepared;

/// "No filter" at a level.
const NONE: u8 = u8::MAX;

/// Levels of the enumeration a chunk fixes (at most).
pub(crate) const CHUNK_LEVELS: usize = 3;

/// A chunk: the positions of the first three free clues in enumeration order (`255` =
/// any; a level left open leaves the levels below it open too).
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

/// One level of the chunk walk.
#[derive(Copy, Clone, Debug, Default)]
struct Level {
    branch: u128,
    dead: u128,
    placed: u128,
    position: u8,
}

/// Iterator over the chunks of a prepared scan, in enumeration order.
///
/// `prepared.chunks()` lists the chunks, each run by a [`super::ChunkRun`] (on any
/// thread), and the union of their puzzles is the scan's (see the [scan example](super)).
pub struct Chunks<'p> {
    prepared: &'p Prepared<'p>,
    levels: [Level; CHUNK_LEVELS],
    /// Levels a chunk fixes: `min(free clues, CHUNK_LEVELS)`; 0 = the whole scan.
    depth: usize,
    /// Current level of the walk (`None` once finished).
    at: Option<usize>,
    whole_pending: bool,
}

impl<'p> Chunks<'p> {
    pub(crate) fn new(prepared: &'p Prepared<'p>) -> Chunks<'p> {
        let mut chunks = Chunks {
            prepared,
            levels: [Level::default(); CHUNK_LEVELS],
            depth: usize::from(prepared.free_clues()).min(CHUNK_LEVELS),
            at: None,
            whole_pending: false,
        };
        if prepared.impossible().is_some() {
            return chunks;
        }
        if chunks.depth == 0 {
            chunks.whole_pending = true;
            return chunks;
        }
        chunks.levels[0].branch = chunks.branch_after(0, 0);
        chunks.at = Some(0);
        chunks
    }

    /// The branch the enumeration takes after the clues `placed`: the live cells of the
    /// set its rule picks among the loaded sets they leave unhit
    /// ([`super::table::fewest_live`]), or every live cell when they hit all.
    fn branch_after(&self, placed: u128, dead: u128) -> u128 {
        let free = self.prepared.free_positions();
        let mut unhit = self
            .prepared
            .table_sets()
            .iter()
            .filter(|&&set| set & placed == 0);
        match unhit.next() {
            Some(&first) => super::table::fewest_live(first, unhit.copied(), dead),
            None => free & !dead,
        }
    }
}

impl Iterator for Chunks<'_> {
    type Item = ChunkId;

    fn next(&mut self) -> Option<ChunkId> {
        if self.whole_pending {
            self.whole_pending = false;
            return Some(ChunkId::WHOLE);
        }
        loop {
            let at = self.at?;
            let level = self.levels[at];
            if level.branch == 0 {
                self.at = at.checked_sub(1);
                continue;
            }
            let position = level.branch.trailing_zeros() as u8;
            let bit = 1u128 << position;
            self.levels[at].branch &= level.branch - 1;
            self.levels[at].dead |= bit;
            self.levels[at].position = position;
            if at + 1 == self.depth {
                let mut id = [NONE; CHUNK_LEVELS];
                for (slot, level) in id.iter_mut().zip(&self.levels[..self.depth]) {
                    *slot = level.position;
                }
                return Some(ChunkId {
                    top: id[0],
                    second: id[1],
                    third: id[2],
                });
            }
            let placed = level.placed | bit;
            let dead = level.dead | bit;
            self.levels[at + 1] = Level {
                branch: self.branch_after(placed, dead),
                dead,
                placed,
                position: NONE,
            };
            self.at = Some(at + 1);
        }
    }
}

impl Prepared<'_> {
    /// Whether `chunk` names a chunk of this scan (see [`ChunkId`]).
    pub fn chunk_fits(&self, chunk: ChunkId) -> bool {
        chunk.fits(self.free_clues(), self.free_cell_count())
    }

    /// The independent chunks of this scan, in a fixed order.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks::new(self)
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

//! Independent pieces of a scan: one chunk per placement of the two most significant free
//! clues (one for a single free clue; the whole scan when every clue is forced).
//!
//! Chunks can run on different threads or machines; the union of their results is the
//! scan's result and no clue set belongs to two chunks.
use super::Prepared;

/// "No filter" at a level.
const NONE: u8 = u8::MAX;

/// A chunk: the positions of the top free clue and of the next one (`255` = any).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkId {
    /// Iterator position of the most significant free clue, or 255 for any.
    pub top: u8,
    /// Iterator position of the second free clue, or 255 for any.
    pub second: u8,
}

impl ChunkId {
    /// The whole scan as one chunk.
    pub const WHOLE: ChunkId = ChunkId {
        top: NONE,
        second: NONE,
    };

    /// Compact number (for passing between machines).
    pub fn to_u32(self) -> u32 {
        u32::from(self.top) << 8 | u32::from(self.second)
    }

    /// Inverse of [`ChunkId::to_u32`].
    pub fn from_u32(value: u32) -> Option<ChunkId> {
        if value > 0xffff {
            return None;
        }
        Some(ChunkId {
            top: (value >> 8) as u8,
            second: value as u8,
        })
    }

    /// Position filter for search depth `depth` (0 = top free clue).
    pub(crate) fn filter(self, depth: usize) -> u128 {
        let position = match depth {
            0 => self.top,
            1 => self.second,
            _ => NONE,
        };
        if position == NONE {
            u128::MAX
        } else {
            1u128 << position
        }
    }
}

/// Iterator over the chunks of a prepared scan.
pub struct Chunks<'p> {
    prepared: &'p Prepared<'p>,
    /// Remaining top positions.
    tops: u128,
    /// Current top and its remaining second positions.
    top: u8,
    seconds: u128,
    whole_pending: bool,
}

impl<'p> Chunks<'p> {
    pub(crate) fn new(prepared: &'p Prepared<'p>) -> Chunks<'p> {
        let clues = prepared.free_clues();
        let mut chunks = Chunks {
            prepared,
            tops: 0,
            top: NONE,
            seconds: 0,
            whole_pending: false,
        };
        if prepared.impossible().is_some() {
            return chunks;
        }
        if clues == 0 {
            chunks.whole_pending = true;
            return chunks;
        }
        let head = prepared.kept().first().copied();
        chunks.tops = prepared.candidates(clues - 1, prepared.free_cell_count(), head);
        chunks
    }
}

impl Iterator for Chunks<'_> {
    type Item = ChunkId;

    fn next(&mut self) -> Option<ChunkId> {
        if self.whole_pending {
            self.whole_pending = false;
            return Some(ChunkId::WHOLE);
        }
        let clues = self.prepared.free_clues();
        loop {
            if self.seconds != 0 {
                let second = self.seconds.trailing_zeros() as u8;
                self.seconds &= self.seconds - 1;
                return Some(ChunkId {
                    top: self.top,
                    second,
                });
            }
            if self.tops == 0 {
                return None;
            }
            let top = self.tops.trailing_zeros() as u8;
            self.tops &= self.tops - 1;
            if clues == 1 {
                return Some(ChunkId { top, second: NONE });
            }
            // Head of the UA left unhit by the top clue.
            let head = self
                .prepared
                .kept()
                .iter()
                .find(|&&set| set >> top & 1 == 0)
                .copied();
            self.top = top;
            self.seconds = self.prepared.candidates(clues - 2, top, head);
        }
    }
}

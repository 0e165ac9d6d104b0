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
#[cfg(feature = "bands")]
use super::bands::BandChunks;
use super::chunk_id::{ChunkId, CHUNK_LEVELS, NONE};
use super::prepare::Prepared;

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
    /// The band engine's chunks, when it runs the scan.
    #[cfg(feature = "bands")]
    bands: Option<BandChunks<'p>>,
}

impl<'p> Chunks<'p> {
    pub(crate) fn new(prepared: &'p Prepared<'p>) -> Chunks<'p> {
        let mut chunks = Chunks {
            prepared,
            levels: [Level::default(); CHUNK_LEVELS],
            depth: usize::from(prepared.free_clues()).min(CHUNK_LEVELS),
            at: None,
            whole_pending: false,
            #[cfg(feature = "bands")]
            bands: None,
        };
        if prepared.impossible().is_some() {
            return chunks;
        }
        #[cfg(feature = "bands")]
        if let Some(bands) = prepared.band_scan() {
            chunks.bands = Some(bands.chunks());
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
        #[cfg(feature = "bands")]
        if let Some(bands) = &mut self.bands {
            return bands.next();
        }
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
    /// Whether `chunk` names a chunk of this scan (see [`ChunkId`]; the band engine's
    /// chunks are its own, see [`super::Engine::Bands`]).
    pub fn chunk_fits(&self, chunk: ChunkId) -> bool {
        #[cfg(feature = "bands")]
        if let Some(bands) = self.band_scan() {
            return bands.chunk_parts(chunk).is_some();
        }
        chunk.fits(self.free_clues(), self.free_cell_count())
    }

    /// The independent chunks of this scan, in a fixed order.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks::new(self)
    }
}

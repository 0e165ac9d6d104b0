//! A chunk's run, by the engine its scan was prepared for: the enumeration, or the band
//! engine over the workspace's band words.
#[cfg(feature = "bands")]
use super::bands::{BandCounts, BandRun};
use super::chunk_id::ChunkId;
use super::enumerate::Enumeration;
use super::error::ScanError;
use super::prepare::Prepared;
#[cfg(feature = "scan-profile")]
use super::stats::ScanProfile;
use super::stats::{RunStats, RunStatus};
use super::workspace::WorkspaceView;
use crate::gridcheck::cells::Cells;
use core::ops::ControlFlow;

/// The engine's run.
// The enumeration's run is the larger (its frames); boxing needs an allocator.
#[allow(clippy::large_enum_variant)]
enum Engine<'p, 'w> {
    Enumeration(Enumeration<'p, 'w>),
    /// The band run's state, and the workspace whose band words hold its blocks.
    #[cfg(feature = "bands")]
    Bands(BandRun<'p>, WorkspaceView<'w>),
}

/// A run over one chunk (or, on the enumeration, the whole scan with [`ChunkId::WHOLE`]),
/// by the engine the preparation chose ([`Prepared::engine`]).
///
/// A whole scan as one run, resumed in slices of 10 steps (the [scan example](super)
/// runs it chunk by chunk):
///
/// ```
/// use core::ops::ControlFlow;
/// use xcover_core::gridcheck::scan::{self, ChunkId, ChunkRun, RunStatus, ScanOptions, Workspace};
/// use xcover_core::gridcheck::{Cells, Grid};
///
/// let grid = Grid::parse(b"123456789456789123789123456214365897365897214897214365531642978642978531978531642")?;
/// let mut options = ScanOptions::new(78);
/// options.mask.givens = Cells::ALL - Cells::from_cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
/// let mut work = [0u128; scan::prepare_work_entries(0)];
/// let prepared = scan::prepare(&grid, &[], &options, &mut work)?;
/// let mut workspace: Box<Workspace<7>> = Box::default(); // 6 free clues + 1
/// let mut run = ChunkRun::new(&prepared, workspace.as_mut_view(), ChunkId::WHOLE)?;
/// let mut count = 0;
/// let mut on_found = |_: Cells| { count += 1; ControlFlow::Continue(()) };
/// while run.run(10, &mut on_found) == RunStatus::BudgetExhausted {}
/// assert_eq!(count, 84); // C(9, 6)
/// assert_eq!(run.stats().found, 84);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct ChunkRun<'p, 'w> {
    engine: Engine<'p, 'w>,
}

impl<'p, 'w> ChunkRun<'p, 'w> {
    /// A run of `chunk` with `workspace` (checked against [`WorkspaceSize::for_scan`]: a
    /// scan on the band engine needs its band words).
    ///
    /// [`WorkspaceSize::for_scan`]: super::WorkspaceSize::for_scan
    pub fn new(
        prepared: &'p Prepared<'p>,
        workspace: WorkspaceView<'w>,
        chunk: ChunkId,
    ) -> Result<ChunkRun<'p, 'w>, ScanError> {
        #[cfg(feature = "bands")]
        if let Some(bands) = prepared.band_scan() {
            let run = BandRun::new(bands, workspace.bands, chunk)?;
            return Ok(ChunkRun {
                engine: Engine::Bands(run, workspace),
            });
        }
        let engine = Engine::Enumeration(Enumeration::new(prepared, workspace, chunk)?);
        Ok(ChunkRun { engine })
    }

    /// Counters so far.
    pub fn stats(&self) -> RunStats {
        match &self.engine {
            Engine::Enumeration(run) => run.stats(),
            #[cfg(feature = "bands")]
            Engine::Bands(run, _) => run.stats(),
        }
    }

    /// The band engine's own counters so far (`None` on the enumeration).
    #[cfg(feature = "bands")]
    pub fn band_counts(&self) -> Option<BandCounts> {
        match &self.engine {
            Engine::Enumeration(_) => None,
            Engine::Bands(run, _) => Some(run.counts()),
        }
    }

    /// Where the placements so far went (zero on the band engine).
    #[cfg(feature = "scan-profile")]
    pub fn profile(&self) -> ScanProfile {
        match &self.engine {
            Engine::Enumeration(run) => run.profile(),
            #[cfg(feature = "bands")]
            Engine::Bands(..) => ScanProfile::ZERO,
        }
    }

    /// Gives the workspace view back (for the next chunk).
    pub fn into_view(self) -> WorkspaceView<'w> {
        match self.engine {
            Engine::Enumeration(run) => run.into_view(),
            #[cfg(feature = "bands")]
            Engine::Bands(_, view) => view,
        }
    }

    /// Runs for about `budget` steps; every puzzle found is passed to `on_found` (cells of
    /// the grid that are givens). Returning `Break` stops the run ([`RunStatus::Stopped`]).
    pub fn run<F>(&mut self, budget: u64, on_found: &mut F) -> RunStatus
    where
        F: FnMut(Cells) -> ControlFlow<()>,
    {
        match &mut self.engine {
            Engine::Enumeration(run) => run.run(budget, on_found),
            #[cfg(feature = "bands")]
            Engine::Bands(run, view) => run.run(view.bands, budget, on_found),
        }
    }
}

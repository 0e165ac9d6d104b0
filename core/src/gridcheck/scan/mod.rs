//! Grid scan: every N-clue sub-puzzle of a solution grid with a unique solution.
//!
//! Steps A–E follow the reference gridchecker; the enumeration is the hitting-set
//! enumeration of McGuire, Tugemann and Civario (2012):
//!
//! 1. step A: forced givens / forced empty cells ([`ClueMask`]) shrink or drop the UA;
//! 2. step B: a maximum clique of disjoint UA, smallest product of sizes, bounds the search;
//! 3. step C: member and cell order;
//! 4. step D: cells to iterator positions;
//! 5. step E: the smallest UA are kept ([`TruncationLimits`]), smallest first; a run loads
//!    up to [`TABLE_CAPACITY`] of them into its [`BitmapTable`];
//! 6. a resumable state machine ([`ChunkRun`]) enumerates hitting sets with dead clues
//!    (branch on the unhit set with the fewest live cells, packing bound and an exact
//!    test of tight packings, last-clue shortcut), split into independent [`Chunks`] by
//!    its first three clues.
//!
//! Every candidate that hits all loaded UA is checked with
//! [`crate::gridcheck::solver::is_unique_with_grid`], so the UA list is only a pruning
//! device: a missing UA costs time, never a result. Every UA given to [`prepare()`] must be
//! real (verify loaded lists with [`crate::gridcheck::ua::verify_ua`] first).
//!
//! Storage: [`prepare()`] works in a caller slice of `u128` ([`prepare_work_entries`]) and
//! keeps the retained UA there; each thread running chunks owns a [`Workspace`] or lends
//! a [`WorkspaceView`] ([`WorkspaceSize`] says how big).
//!
//! Scanning a masked grid, chunk by chunk, in budgeted slices:
//!
//! ```
//! use core::ops::ControlFlow;
//! use xcover_core::gridcheck::scan::{self, ChunkRun, ClueMask, RunStatus, ScanOptions, Workspace};
//! use xcover_core::gridcheck::ua::{generate, UaList};
//! use xcover_core::gridcheck::{Cells, Grid};
//!
//! let grid = Grid::parse(
//!     b"123456789456789123789123456214365897365897214897214365531642978642978531978531642",
//! )?;
//! // Rows 2 to 9 are givens, row 1 is free: the 74-clue puzzles take 2 of its 9 cells.
//! let mut options = ScanOptions::new(74);
//! options.mask = ClueMask::parse(&[[b'.'; 9].as_slice(), &[b'1'; 72]].concat())?;
//!
//! // Unavoidable sets of the grid that avoid the forced givens (a pruning aid only).
//! let (mut storage, mut scratch) = ([Cells::EMPTY; 512], [Cells::EMPTY; 1024]);
//! let mut uas = UaList::new(&mut storage);
//! generate::for_mask(&grid, 10, 1, options.mask.givens, &mut uas, &mut scratch)?;
//!
//! let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
//! let prepared = scan::prepare(&grid, uas.as_slice(), &options, &mut work)?;
//! let mut workspace: Box<Workspace<75>> = Box::default();
//! let mut found = Vec::new();
//! for chunk in prepared.chunks() {
//!     let mut run = ChunkRun::new(&prepared, workspace.as_mut_view(), chunk)?;
//!     let mut on_found = |givens: Cells| {
//!         found.push(givens);
//!         ControlFlow::Continue(())
//!     };
//!     while run.run(1000, &mut on_found) == RunStatus::BudgetExhausted {}
//! }
//! // Every row cell is forced by its column: all C(9, 2) = 36 choices are unique.
//! assert_eq!(found.len(), 36);
//! assert!(found.iter().all(|p| p.len() == 74));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

#[cfg(feature = "bands")]
mod bands;
mod bits;
mod candidate;
mod chunk_id;
mod chunk_run;
mod chunks;
mod clique;
mod enumerate;
mod error;
mod levels;
mod mask;
mod options;
mod prepare;
mod rating;
mod region_fit;
mod remap;
mod size_order;
mod stats;
mod table;
mod transpose;
mod truncate;
mod workspace;

#[cfg(feature = "bands")]
pub use bands::BandCounts;
pub use chunk_id::ChunkId;
pub use chunk_run::ChunkRun;
pub use chunks::Chunks;
pub use error::ScanError;
pub use mask::ClueMask;
pub use options::{ScanOptions, TruncationLimits};
#[cfg(feature = "bands")]
pub use prepare::prepare_with_bands;
pub use prepare::{prepare, prepare_work_entries, Engine, Impossible, PrepareStats, Prepared};
#[cfg(feature = "scan-profile")]
pub use stats::ScanProfile;
pub use stats::{RunStats, RunStatus};
pub use table::{BitmapTable, LevelState, TABLE_CAPACITY};
pub use workspace::{Workspace, WorkspaceSize, WorkspaceView};

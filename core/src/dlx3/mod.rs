//! Knuth's DLX3: exact cover with item multiplicities (bounds `a:b|name`) and color
//! controls, "Algorithm M" of TAOCP 7.2.2.1 in its dancing-links form.
//!
//! The engine reproduces the reference program byte for byte (solutions, traces, progress
//! reports, statistics including the mem counts) while owning no memory: it works in a
//! [`WorkspaceView`] the caller lends (of slices, or of an owned [`Workspace`]). Use:
//!
//! 1. [`Dlx3::new`] with a [`WorkspaceView`] and [`Settings`];
//! 2. [`Dlx3::read_line`] for each chunk of [`FgetsLines`] (or the builder calls
//!    [`Dlx3::add_item`] / [`Dlx3::add_option`]), then [`Dlx3::end_input`];
//! 3. [`Dlx3::run`] repeatedly (with a mem budget) until it returns [`Event::Done`], or
//!    [`Dlx3::for_each_solution`] / [`Dlx3::visit_solutions`] to be handed each solution;
//! 4. [`Dlx3::finish`] for the closing reports.
//!
//! All text goes as raw bytes to [`ByteSink`](crate::sink::ByteSink)s ([`Sinks`]); [`Dlx3::run_silent`] searches
//! without printing and links no formatting code.
//!
//! A search splits into *units* that engines anywhere explore apart and whose counters and
//! solutions add up, in order, to exactly the sequential run's: see `split` —
//! [`Dlx3::choose_split_level`], [`Dlx3::set_split_level`], [`Event::Unit`],
//! [`Dlx3::skip_unit`], [`UnitTotals`], [`Part`].
//!
//! Knuth's example of color controls, printed as his program prints it (`m1`: every
//! solution), in budgeted slices of the search:
//!
//! ```
//! use xcover_core::dlx3::{Dlx3, Event, Settings, Sinks, Workspace};
//! use xcover_core::sink::ByteSink;
//!
//! struct Text(Vec<u8>);
//! impl ByteSink for Text {
//!     fn write_bytes(&mut self, bytes: &[u8]) {
//!         self.0.extend_from_slice(bytes);
//!     }
//! }
//!
//! let mut settings = Settings::DEFAULT;
//! settings.apply_arg(b"m1");
//! let mut ws: Workspace<8, 64, 16> = Workspace::new();
//! let mut engine = Dlx3::new(ws.as_mut_view(), settings)?;
//! let (mut out, mut err) = (Text(Vec::new()), Text(Vec::new()));
//! let input: &[u8] = b"A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
//! engine.read_input(input, &mut err)?;
//! let mut sinks = Sinks { out: &mut out, err: &mut err, shape: None };
//! while !matches!(engine.run(100, &mut sinks)?, Event::Done(_)) {}
//! engine.finish(&mut err);
//! assert_eq!(engine.stats().count, 1);
//! let printed = String::from_utf8(out.0).unwrap();
//! assert!(printed.starts_with("1:\n") && printed.contains("C Y:1"));
//! # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
//! ```

mod active;
#[cfg(test)]
mod all_or_nothing_tests;
mod builder;
mod capacity;
mod choose;
mod create;
mod engine;
mod error;
mod event;
#[cfg(any(test, feature = "alloc"))]
mod heap;
pub mod image;
mod ops;
mod output;
mod parse;
mod parts;
mod phase;
#[cfg(any(test, feature = "testing"))]
pub(crate) mod queens;
mod query;
mod search;
mod settings;
mod split;
mod stats;
mod storage;
#[cfg(test)]
pub(crate) mod testutil;
mod unchecked;
mod visit;
mod word;

pub use capacity::{measure, measure_within, Capacity, FgetsLines};
pub use engine::Dlx3;
pub use error::{Dlx3Error, InputError};
pub use event::{DoneReason, Event, Move, Sinks};
#[cfg(any(test, feature = "alloc"))]
pub use heap::HeapWorkspace;
pub use parts::PartRun;
pub use phase::Stage;
pub use settings::{
    ArgOutcome, Settings, BUFSIZE, MAX_COLS, MAX_LEVEL, MAX_NODES, SHOW_BASICS, SHOW_CHOICES,
    SHOW_DETAILS, SHOW_FULL_STATE, SHOW_PROFILE, SHOW_TOTS, SHOW_WARNINGS,
};
pub use split::{Part, PartParseError, UnitTotals};
pub use stats::{Stats, UnitCounters};
pub use storage::{Name, Workspace, WorkspaceView};
pub use visit::{Solution, SolutionOption, Visit};

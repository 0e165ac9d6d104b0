//! The per-level state of a chunk run: which sets of the table are still unhit.
use super::limits::WORDS;
#[cfg(doc)]
use super::BitmapTable;
#[cfg(doc)]
use crate::gridcheck::scan::{WorkspaceSize, WorkspaceView};

/// One level of a chunk run: bit i set while set i of the [`BitmapTable`] is not hit yet.
///
/// Opaque: a [`WorkspaceView`] holds one per search level (free clues + 1,
/// [`WorkspaceSize`]), 96 bytes each, all-zero bits a valid value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct LevelState(pub(super) [u64; WORDS]);

impl LevelState {
    /// A state with no set unhit (what a fresh workspace holds).
    ///
    /// ```
    /// use xcover_core::gridcheck::scan::LevelState;
    ///
    /// let mut states = [LevelState::ZERO; 19];
    /// assert_eq!(core::mem::size_of_val(&states), 19 * 96);
    /// # let _ = &mut states;
    /// ```
    pub const ZERO: LevelState = LevelState([0; WORDS]);
}

impl Default for LevelState {
    fn default() -> Self {
        LevelState::ZERO
    }
}

/// The state type of the table's methods (its bits: `.0`).
pub(super) type State = LevelState;

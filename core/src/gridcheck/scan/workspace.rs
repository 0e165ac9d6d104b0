//! Per-thread storage of a chunk run: the bitmap table and one level state per search
//! level, and for the band engine its band words. Owned by a [`Workspace`] whose level
//! count is a const generic (usable in a `static`), or borrowed as a [`WorkspaceView`]
//! over caller buffers (what the C ABI carves from its byte buffer).
#[cfg(feature = "bands")]
use super::bands;
#[cfg(feature = "bands")]
use super::prepare::Engine;
use super::prepare::Prepared;
use super::table::{BitmapTable, LevelState};

/// The storage a chunk run needs: [`WorkspaceSize::for_scan`] for one prepared scan, or
/// [`WorkspaceSize::for_clues`] for every scan up to a clue count (to size a static).
///
/// ```
/// use xcover_core::gridcheck::scan::{Workspace, WorkspaceSize};
///
/// // Every scan of up to 17 clues fits in a workspace of 18 levels (about 41 KB).
/// const SIZE: WorkspaceSize = WorkspaceSize::for_clues(17);
/// static WORKSPACE: Workspace<{ SIZE.states }> = Workspace::new();
/// assert_eq!(SIZE.states, 18);
/// assert!(core::mem::size_of_val(&WORKSPACE) >= SIZE.bytes());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSize {
    /// Level states (one per free clue, and one for the root).
    pub states: usize,
    /// Band words (`WorkspaceView::with_bands`, with the `bands` feature):
    /// `WorkspaceSize::BAND_WORDS` for a scan on the band engine, 0 for the enumeration.
    pub band_words: usize,
}

impl WorkspaceSize {
    /// The band words a chunk run on the band engine needs (about 4.9 MB): two blocks of
    /// clue sets with their vectors, and the band-3 search's levels.
    #[cfg(feature = "bands")]
    pub const BAND_WORDS: usize = bands::BAND_WORDS;

    /// Enough for every enumeration scan of at most `clues` clues: a scan's free clues (its clue count
    /// less the forced givens) never exceed its clue count.
    pub const fn for_clues(clues: u8) -> WorkspaceSize {
        WorkspaceSize {
            states: clues as usize + 1,
            band_words: 0,
        }
    }

    /// What `prepared` needs: a state per free clue, plus the root's, and the band words
    /// when the band engine runs it.
    pub fn for_scan(prepared: &Prepared<'_>) -> WorkspaceSize {
        WorkspaceSize {
            states: usize::from(prepared.free_clues()) + 1,
            band_words: Self::band_words_for(prepared),
        }
    }

    #[cfg(feature = "bands")]
    fn band_words_for(prepared: &Prepared<'_>) -> usize {
        match prepared.engine() {
            Engine::Bands => Self::BAND_WORDS,
            Engine::Enumeration => 0,
        }
    }

    #[cfg(not(feature = "bands"))]
    fn band_words_for(_: &Prepared<'_>) -> usize {
        0
    }

    /// Bytes of caller storage this needs, the bitmap table included.
    pub const fn bytes(&self) -> usize {
        self.states * core::mem::size_of::<LevelState>()
            + core::mem::size_of::<BitmapTable>()
            + self.band_words * 8
    }
}

/// A chunk run's storage borrowed from the caller: the bitmap table and the level states
/// (at least [`WorkspaceSize::for_scan`]`.states` of them, checked by
/// [`super::ChunkRun::new`]).
///
/// ```
/// use xcover_core::gridcheck::scan::{BitmapTable, LevelState, WorkspaceView};
///
/// let mut table = Box::new(BitmapTable::new());
/// let mut states = vec![LevelState::ZERO; 18];
/// let view = WorkspaceView::new(&mut table, &mut states);
/// # drop(view);
/// ```
pub struct WorkspaceView<'w> {
    pub(crate) table: &'w mut BitmapTable,
    pub(crate) states: &'w mut [LevelState],
    #[cfg(feature = "bands")]
    pub(crate) bands: &'w mut [u64],
}

impl<'w> WorkspaceView<'w> {
    /// A view of caller buffers; sizes are checked when a run starts.
    pub fn new(table: &'w mut BitmapTable, states: &'w mut [LevelState]) -> Self {
        WorkspaceView {
            table,
            states,
            #[cfg(feature = "bands")]
            bands: &mut [],
        }
    }

    /// This view with band words (at least [`WorkspaceSize::BAND_WORDS`], checked when a
    /// run starts), which chunks of scans on the band engine need; a session whose
    /// workspace has them prepares whole-grid scans for that engine
    /// ([`super::prepare_with_bands`]).
    #[cfg(feature = "bands")]
    pub fn with_bands(self, words: &'w mut [u64]) -> Self {
        WorkspaceView {
            bands: words,
            ..self
        }
    }

    /// Whether this view holds band words enough for the band engine.
    #[cfg(feature = "bands")]
    pub fn has_bands(&self) -> bool {
        self.bands.len() >= WorkspaceSize::BAND_WORDS
    }
}

/// A chunk run's storage owned, with `LEVELS` level states (free clues + 1; see
/// [`WorkspaceSize::for_clues`]); `const`-constructible, so it can be a `static`.
///
/// ```
/// use xcover_core::gridcheck::scan::Workspace;
///
/// let mut workspace: Box<Workspace<18>> = Box::default();
/// let view = workspace.as_mut_view(); // hand this to `ChunkRun::new`
/// # drop(view);
/// ```
pub struct Workspace<const LEVELS: usize> {
    table: BitmapTable,
    states: [LevelState; LEVELS],
}

impl<const LEVELS: usize> Default for Workspace<LEVELS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const LEVELS: usize> Workspace<LEVELS> {
    /// Zeroed storage.
    pub const fn new() -> Self {
        Workspace {
            table: BitmapTable::new(),
            states: [LevelState::ZERO; LEVELS],
        }
    }

    /// Lends the storage to a chunk run.
    pub fn as_mut_view(&mut self) -> WorkspaceView<'_> {
        WorkspaceView::new(&mut self.table, &mut self.states)
    }
}

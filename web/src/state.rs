//! The instance's one run and its buffers, in the one global a wasm module can keep.
#[cfg(target_arch = "wasm32")]
use core::cell::{RefCell, RefMut};

use crate::buffers::Buffers;
use crate::dlx3::Dlx3Run;
use crate::gridcheck::GridRun;

/// What the instance is doing.
// One static holds it: its size (that of a grid scan's run, 7 KB) is paid once.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Run {
    /// Nothing yet.
    Idle,
    /// A DLX3 run (its settings chosen, perhaps its matrix read).
    Dlx3(Dlx3Run),
    /// A grid checker's scan.
    Grid(GridRun),
}

/// Everything the instance keeps between calls.
pub(crate) struct State {
    pub(crate) buffers: Buffers,
    pub(crate) run: Run,
}

/// The state with nothing in it.
const EMPTY: State = State {
    buffers: Buffers::new(),
    run: Run::Idle,
};

/// A cell for the instance's state: exported calls borrow it one at a time.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Global(RefCell<State>);

// Sound: wasm32-unknown-unknown without the `atomics` target feature has exactly one
// thread (a shared memory needs that feature, refused below), so the state is never
// reached from two threads; the RefCell catches a re-entrant borrow (none exists: no
// exported call calls another or calls out to JavaScript).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
compile_error!("the state cell assumes a single-threaded instance (no shared memory)");
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
unsafe impl Sync for Global {}

#[cfg(target_arch = "wasm32")]
static STATE: Global = Global(RefCell::new(EMPTY));

/// The state, for the duration of one exported call.
#[cfg(target_arch = "wasm32")]
pub(crate) fn state() -> RefMut<'static, State> {
    STATE.0.borrow_mut()
}

/// On the host (the crate's unit tests, clippy) the state is behind a mutex; a test holds
/// [`tests::one_at_a_time`](crate::tests) for its whole sequence of calls.
#[cfg(not(target_arch = "wasm32"))]
static STATE: std::sync::Mutex<State> = std::sync::Mutex::new(EMPTY);

/// The state, for the duration of one exported call.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn state() -> std::sync::MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

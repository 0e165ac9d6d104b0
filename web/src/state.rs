//! The instance's one run and its buffers, in the one global a wasm module can keep.
use core::cell::{RefCell, RefMut};

use crate::buffers::Buffers;
use crate::dlx3::Dlx3Run;
use crate::gridcheck::GridRun;

/// What the instance is doing.
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

/// A cell for the instance's state: exported calls borrow it one at a time.
pub(crate) struct Global(RefCell<State>);

// Sound: wasm32-unknown-unknown without the `atomics` target feature has exactly one
// thread (a shared memory needs that feature, refused below), so the state is never
// reached from two threads; the RefCell catches a re-entrant borrow (none exists: no
// exported call calls another or calls out to JavaScript).
#[cfg(target_feature = "atomics")]
compile_error!("the state cell assumes a single-threaded instance (no shared memory)");
#[allow(unsafe_code)]
unsafe impl Sync for Global {}

static STATE: Global = Global(RefCell::new(State {
    buffers: Buffers::new(),
    run: Run::Idle,
}));

/// The state, for the duration of one exported call.
pub(crate) fn state() -> RefMut<'static, State> {
    STATE.0.borrow_mut()
}

//! The one kind of global a wasm module can keep: a cell that exported calls borrow one at
//! a time. Each engine keeps its run in one (`dlx3::RUN`, `gridcheck::SCAN`), the buffers
//! in another (`buffers::BUFFERS`).

/// A global value, borrowed by one exported call at a time.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Global<T>(core::cell::RefCell<T>);

// Sound: wasm32-unknown-unknown without the `atomics` target feature has exactly one
// thread (a shared memory needs that feature, refused below), so a global is never
// reached from two threads; the RefCell catches a re-entrant borrow (none exists: no
// exported call calls another or calls out to JavaScript).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
compile_error!("the global cell assumes a single-threaded instance (no shared memory)");
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
unsafe impl<T> Sync for Global<T> {}

/// The borrow of a [`Global`] for one call.
#[cfg(target_arch = "wasm32")]
pub(crate) type Borrowed<T> = core::cell::RefMut<'static, T>;

#[cfg(target_arch = "wasm32")]
impl<T> Global<T> {
    pub(crate) const fn new(value: T) -> Global<T> {
        Global(core::cell::RefCell::new(value))
    }

    /// The value, for the duration of one exported call.
    pub(crate) fn get(&'static self) -> Borrowed<T> {
        self.0.borrow_mut()
    }
}

/// On the host (the crate's unit tests, clippy) a global is behind a mutex; the tests
/// take their turns (`tests::one_at_a_time`).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Global<T>(std::sync::Mutex<T>);

/// The borrow of a [`Global`] for one call.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Borrowed<T> = std::sync::MutexGuard<'static, T>;

#[cfg(not(target_arch = "wasm32"))]
impl<T> Global<T> {
    pub(crate) const fn new(value: T) -> Global<T> {
        Global(std::sync::Mutex::new(value))
    }

    /// The value, for the duration of one exported call.
    pub(crate) fn get(&'static self) -> Borrowed<T> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

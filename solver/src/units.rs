//! A split search on several threads: the one driver behind
//! [`Solver::threads`](crate::Solver::threads) and the `xcover` command's `--threads`,
//! `--checkpoint` and `merge --threads`.
//!
//! Core's engine splits a search into *units* (every trial on one level of the search
//! tree, numbered in the order one thread meets them). A [`Pool`] runs worker threads
//! that each claim the next unit nobody has claimed, explore it with an engine of their
//! own and hand back a record of what it gave; meanwhile this thread *walks* the search
//! in order and, at each unit, [fetches](Walk::fetch) the unit's record — in unit order,
//! whatever order the workers finished in — or is told to explore the unit itself (a
//! worker failed inside it, or nobody will explore it).
//!
//! The pool knows nothing of engines: what a record holds, how a worker makes its engine
//! and explores the unit it [claimed](Worker::claim) (and passes the others), and what the
//! walk does with a record, are the caller's. The crate's own threads record a unit's
//! solutions as option indices; the `xcover` command records the text Knuth's program
//! prints.
//!
//! ```
//! use xcover_solver::units::{Fetched, Pool};
//!
//! // Units 0..10; a worker's "exploration" of unit k records k * k.
//! let squares = Pool::new(2).run(
//!     |worker| {
//!         while let Some(k) = worker.claim() {
//!             if k >= 10 {
//!                 break; // past the last unit: this worker is done
//!             }
//!             worker.finish(k * k);
//!         }
//!     },
//!     |walk| {
//!         (0..10)
//!             .map(|k| match walk.fetch(k) {
//!                 Fetched::Record(square) => square,
//!                 // Nobody explored it: explore it here.
//!                 Fetched::Explore => k * k,
//!                 Fetched::Interrupted => unreachable!("no interrupt was given"),
//!             })
//!             .collect::<Vec<u64>>()
//!     },
//! )?;
//! assert_eq!(squares, [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]);
//! # Ok::<(), xcover_solver::units::SpawnError>(())
//! ```
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How long a walk woken by the workers waits at most before it looks at its interrupt
/// again.
const INTERRUPT_LOOK: Duration = Duration::from_millis(50);

/// Worker threads exploring the units of a split search ahead of a walk on this thread.
///
/// Built with [`Pool::new`] and the methods that follow it, run with [`Pool::run`]:
///
/// ```
/// use std::time::Duration;
/// use xcover_solver::units::{Fetched, Pool};
///
/// let pool = Pool::new(3)
///     .only([2, 5, 7]) // workers explore these units alone
///     .poll(Duration::from_millis(2))
///     .thread_name("doubler");
/// let doubled = pool.run(
///     |worker| {
///         while let Some(k) = worker.claim() {
///             worker.finish(2 * k);
///         }
///     },
///     |walk| match walk.fetch(5) {
///         Fetched::Record(r) => r,
///         _ => 10, // explored here
///     },
/// )?;
/// assert_eq!(doubled, 10);
/// # Ok::<(), xcover_solver::units::SpawnError>(())
/// ```
pub struct Pool<'a> {
    workers: usize,
    order: Order,
    window: Option<u64>,
    poll: Option<Duration>,
    walk_claims: bool,
    fewer: bool,
    name: String,
    interrupted: Option<&'a dyn Fn() -> bool>,
}

impl fmt::Debug for Pool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("workers", &self.workers)
            .field("window", &self.window)
            .field("poll", &self.poll)
            .field("walk_explores_unclaimed", &self.walk_claims)
            .field("allow_fewer_workers", &self.fewer)
            .field("thread_name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The units workers claim, in increasing order.
#[derive(Clone, Debug)]
enum Order {
    /// Every unit from this one on (the caller's worker stops past the last).
    From(u64),
    /// These units alone (increasing, without repeats).
    Only(Vec<u64>),
}

impl Order {
    /// The unit claimed `n`-th; `None` past the last.
    fn unit(&self, n: u64) -> Option<u64> {
        match self {
            Order::From(first) => first.checked_add(n),
            Order::Only(units) => usize::try_from(n).ok().and_then(|n| units.get(n)).copied(),
        }
    }

    /// Where unit `k` stands in the order; `None` when workers never claim it.
    fn position(&self, k: u64) -> Option<u64> {
        match self {
            Order::From(first) => k.checked_sub(*first),
            Order::Only(units) => units.binary_search(&k).ok().map(|n| n as u64),
        }
    }
}

impl<'a> Pool<'a> {
    /// A pool of `workers` threads besides this one (0: the walk explores every unit),
    /// claiming every unit from unit 0 on, as far ahead of the walk as they get, the walk
    /// waiting for them with a wake-up from each finished unit.
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(4);
    /// # let _ = pool;
    /// ```
    pub fn new(workers: usize) -> Pool<'a> {
        Pool {
            workers,
            order: Order::From(0),
            window: None,
            poll: None,
            walk_claims: false,
            fewer: false,
            name: "xcover-solver worker".to_owned(),
            interrupted: None,
        }
    }

    /// Workers claim every unit from `first` on (the units before are the walk's, say
    /// recorded already). Each worker decides when it is past the last unit (its engine's
    /// search ends): the pool does not know how many units there are.
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).starting_at(100);
    /// # let _ = pool;
    /// ```
    pub fn starting_at(mut self, first: u64) -> Pool<'a> {
        self.order = Order::From(first);
        self
    }

    /// Workers claim these units alone, in increasing order; [`Walk::fetch`] of any other
    /// unit says [`Fetched::Explore`] at once.
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).only([9, 3, 3, 40]); // 3, 9, 40
    /// # let _ = pool;
    /// ```
    pub fn only(mut self, units: impl IntoIterator<Item = u64>) -> Pool<'a> {
        let mut units: Vec<u64> = units.into_iter().collect();
        units.sort_unstable();
        units.dedup();
        self.order = Order::Only(units);
        self
    }

    /// A worker claims unit `k` only while `k` is less than `units` past the unit the walk
    /// is at (it waits otherwise): this bounds the records held at once. Without a window
    /// workers run as far ahead as they get.
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).window(32);
    /// # let _ = pool;
    /// ```
    pub fn window(mut self, units: u64) -> Pool<'a> {
        self.window = Some(units.max(1));
        self
    }

    /// The walk, waiting for a record, looks for it every `interval` instead of being
    /// woken by each finished unit: when units finish by the thousand a second, a walk
    /// woken by each would take the workers' cores from them.
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).poll(std::time::Duration::from_millis(2));
    /// # let _ = pool;
    /// ```
    pub fn poll(mut self, interval: Duration) -> Pool<'a> {
        self.poll = Some(interval);
        self
    }

    /// A unit no worker has claimed yet when the walk reaches it is explored by the walk
    /// ([`Fetched::Explore`]) instead of waited for. (A unit whose worker failed, or
    /// one no worker is left for, is explored by the walk either way.)
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).walk_explores_unclaimed();
    /// # let _ = pool;
    /// ```
    pub fn walk_explores_unclaimed(mut self) -> Pool<'a> {
        self.walk_claims = true;
        self
    }

    /// When the system refuses a thread, run with the workers started so far (the walk
    /// explores what they do not) instead of failing with a [`SpawnError`].
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).allow_fewer_workers();
    /// # let _ = pool;
    /// ```
    pub fn allow_fewer_workers(mut self) -> Pool<'a> {
        self.fewer = true;
        self
    }

    /// The workers' thread name (their number from 0 is added after a space).
    ///
    /// ```
    /// let pool = xcover_solver::units::Pool::new(2).thread_name("my search");
    /// # let _ = pool;
    /// ```
    pub fn thread_name(mut self, name: impl Into<String>) -> Pool<'a> {
        self.name = name.into();
        self
    }

    /// The walk stops waiting for a record when `interrupted` says so
    /// ([`Fetched::Interrupted`]); asked on the walk's thread, while it waits.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    ///
    /// let stop = AtomicBool::new(false);
    /// let interrupted = || stop.load(Ordering::Relaxed);
    /// let pool = xcover_solver::units::Pool::new(2).interrupted(&interrupted);
    /// # let _ = pool;
    /// ```
    pub fn interrupted(mut self, interrupted: &'a dyn Fn() -> bool) -> Pool<'a> {
        self.interrupted = Some(interrupted);
        self
    }

    /// Starts the workers, each running `work` (which claims units from its [`Worker`]
    /// and explores them), and runs `walk` on this thread; returns what `walk` returns
    /// when every worker has ended. When `walk` returns, [`Worker::is_over`] says so and
    /// claims end.
    ///
    /// A worker thread the system refuses ends the run with a [`SpawnError`] (the started
    /// workers end at once, `walk` is not run), unless [`Pool::allow_fewer_workers`].
    ///
    /// ```
    /// use xcover_solver::units::{Fetched, Pool};
    ///
    /// // A worker that fails inside unit 1 (here: gives up its claim) leaves it to the walk.
    /// let got = Pool::new(1).run(
    ///     |worker| {
    ///         while let Some(k) = worker.claim() {
    ///             if k == 1 || k > 2 {
    ///                 return;
    ///             }
    ///             worker.finish("worker");
    ///         }
    ///     },
    ///     |walk| {
    ///         (0..3)
    ///             .map(|k| match walk.fetch(k) {
    ///                 Fetched::Record(by) => by,
    ///                 _ => "walk",
    ///             })
    ///             .collect::<Vec<_>>()
    ///     },
    /// )?;
    /// assert_eq!(got, ["worker", "walk", "walk"]);
    /// # Ok::<(), xcover_solver::units::SpawnError>(())
    /// ```
    pub fn run<R: Send, T>(
        self,
        work: impl Fn(&Worker<'_, R>) + Sync,
        walk: impl FnOnce(&mut Walk<'_, R>) -> T,
    ) -> Result<T, SpawnError> {
        let first = self.order.unit(0).unwrap_or(0);
        let shared = Shared {
            board: Mutex::new(Board {
                next: 0,
                walk_at: first,
                done: BTreeMap::new(),
                working: 0,
            }),
            finished: Condvar::new(),
            moved: Condvar::new(),
            over: AtomicBool::new(false),
            order: self.order,
            window: self.window,
            wake_walk: self.poll.is_none(),
        };
        let end = |shared: &Shared<R>| {
            // Under the lock, so that no worker misses the wake-up between its look at
            // `over` and its wait.
            let _b = shared.lock();
            shared.over.store(true, Ordering::Relaxed);
            shared.moved.notify_all();
        };
        std::thread::scope(|scope| {
            for w in 0..self.workers {
                let (shared, work) = (&shared, &work);
                shared.lock().working += 1;
                let spawned = std::thread::Builder::new()
                    .name(format!("{} {w}", self.name))
                    .spawn_scoped(scope, move || {
                        let worker = Worker {
                            shared,
                            claimed: Cell::new(None),
                        };
                        work(&worker);
                    });
                if let Err(error) = spawned {
                    shared.lock().working -= 1;
                    if self.fewer {
                        break;
                    }
                    end(shared);
                    return Err(SpawnError { worker: w, error });
                }
            }
            let mut walking = Walk {
                shared: &shared,
                poll: self.poll,
                walk_claims: self.walk_claims,
                interrupted: self.interrupted,
            };
            let walked = walk(&mut walking);
            end(&shared);
            Ok(walked)
        })
    }
}

/// What the walk and the workers share.
struct Shared<R> {
    board: Mutex<Board<R>>,
    /// A worker finished a unit or ended (the walk waits on it, unless it polls).
    finished: Condvar,
    /// The walk moved on, or is over (workers wait on it at the window's edge).
    moved: Condvar,
    /// The walk is over: workers stop.
    over: AtomicBool,
    order: Order,
    window: Option<u64>,
    wake_walk: bool,
}

/// The board the walk and the workers write on.
struct Board<R> {
    /// How many units of the order are claimed (by a worker, or passed by the walk).
    next: u64,
    /// The unit the walk is at.
    walk_at: u64,
    /// Finished units; `None`: its worker failed inside (the walk explores it).
    done: BTreeMap<u64, Option<R>>,
    /// Workers running.
    working: usize,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, Board<R>> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Unit `k` is done (`None`: its worker failed inside it).
    fn finish(&self, k: u64, record: Option<R>) {
        self.lock().done.insert(k, record);
        if self.wake_walk {
            self.finished.notify_one();
        }
    }
}

/// A worker's side of a [`Pool`]: claims units and hands back their records.
///
/// A unit claimed and not finished when the worker claims the next or ends (its engine
/// failed inside the unit, say) is left to the walk, which explores it.
pub struct Worker<'s, R> {
    shared: &'s Shared<R>,
    claimed: Cell<Option<u64>>,
}

impl<R> fmt::Debug for Worker<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Worker")
            .field("claimed", &self.claimed.get())
            .finish_non_exhaustive()
    }
}

impl<R> Worker<'_, R> {
    /// Claims the next unit nobody has claimed, waiting while it is beyond the pool's
    /// [window](Pool::window); `None` when the walk is over or no unit is left to claim.
    ///
    /// ```
    /// use xcover_solver::units::{Fetched, Pool, Worker};
    ///
    /// let walked = Pool::new(1).only([4, 8]).run(
    ///     |worker: &Worker<'_, ()>| {
    ///         assert_eq!(worker.claim(), Some(4));
    ///         assert_eq!(worker.claim(), Some(8)); // 4 left unfinished: the walk's
    ///         assert_eq!(worker.claim(), None); // 8 too
    ///     },
    ///     |walk| walk.fetch(8),
    /// );
    /// assert_eq!(walked.unwrap(), Fetched::Explore);
    /// ```
    pub fn claim(&self) -> Option<u64> {
        self.give_up();
        let s = self.shared;
        let mut b = s.lock();
        loop {
            if s.over.load(Ordering::Relaxed) {
                return None;
            }
            let unit = s.order.unit(b.next)?;
            match s.window {
                Some(w) if unit >= b.walk_at.saturating_add(w) => {
                    b = s.moved.wait(b).unwrap_or_else(PoisonError::into_inner);
                }
                _ => {
                    b.next += 1;
                    self.claimed.set(Some(unit));
                    return Some(unit);
                }
            }
        }
    }

    /// The unit this worker claimed and has not finished.
    ///
    /// ```
    /// use xcover_solver::units::Pool;
    ///
    /// let _ = Pool::new(1).starting_at(7).run(
    ///     |worker| {
    ///         assert_eq!(worker.claimed(), None);
    ///         worker.claim();
    ///         assert_eq!(worker.claimed(), Some(7));
    ///         worker.finish(());
    ///         assert_eq!(worker.claimed(), None);
    ///     },
    ///     |walk| walk.fetch(7),
    /// );
    /// ```
    pub fn claimed(&self) -> Option<u64> {
        self.claimed.get()
    }

    /// Hands over the record of the unit claimed (nothing happens when none is).
    ///
    /// ```
    /// use xcover_solver::units::{Fetched, Pool};
    ///
    /// let got = Pool::new(1).run(
    ///     |worker| {
    ///         if let Some(k) = worker.claim() {
    ///             worker.finish(format!("unit {k}"));
    ///         }
    ///     },
    ///     |walk| match walk.fetch(0) {
    ///         Fetched::Record(text) => text,
    ///         _ => "explored here".to_owned(),
    ///     },
    /// );
    /// assert_eq!(got.unwrap(), "unit 0");
    /// ```
    pub fn finish(&self, record: R) {
        if let Some(k) = self.claimed.take() {
            self.shared.finish(k, Some(record));
        }
    }

    /// Whether the walk is over: a worker stops exploring (between steps of its engine).
    ///
    /// ```
    /// use xcover_solver::units::Pool;
    ///
    /// let _ = Pool::new(1).run(
    ///     |worker: &xcover_solver::units::Worker<'_, ()>| {
    ///         while !worker.is_over() {
    ///             std::thread::yield_now(); // a step of the search
    ///         }
    ///     },
    ///     |_walk| (), // the walk ends at once
    /// );
    /// ```
    pub fn is_over(&self) -> bool {
        self.shared.over.load(Ordering::Relaxed)
    }

    /// Leaves the unit claimed, if any, to the walk.
    fn give_up(&self) {
        if let Some(k) = self.claimed.take() {
            self.shared.finish(k, None);
        }
    }
}

impl<R> Drop for Worker<'_, R> {
    fn drop(&mut self) {
        self.give_up();
        self.shared.lock().working -= 1;
        if self.shared.wake_walk {
            self.shared.finished.notify_one();
        }
    }
}

/// The walk's side of a [`Pool`]: the units' records, in unit order.
pub struct Walk<'s, R> {
    shared: &'s Shared<R>,
    poll: Option<Duration>,
    walk_claims: bool,
    interrupted: Option<&'s dyn Fn() -> bool>,
}

impl<R> fmt::Debug for Walk<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("poll", &self.poll)
            .field("walk_explores_unclaimed", &self.walk_claims)
            .finish_non_exhaustive()
    }
}

/// What the walk gets for a unit ([`Walk::fetch`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched<R> {
    /// The record its worker handed over.
    Record(R),
    /// No record will come (its worker failed inside it, no worker claims it, or none is
    /// left): the walk explores it itself.
    Explore,
    /// The pool's [interrupt](Pool::interrupted) said to stop waiting.
    Interrupted,
}

impl<R> Walk<'_, R> {
    /// Unit `k`'s record, waiting for its worker. The walk asks for units in increasing
    /// order; the records of units before `k` not asked for are dropped, and workers may
    /// claim up to the [window](Pool::window) past `k`.
    ///
    /// ```
    /// use xcover_solver::units::{Fetched, Pool};
    ///
    /// let got = Pool::new(0).run(
    ///     |_worker: &xcover_solver::units::Worker<'_, u8>| {},
    ///     |walk| walk.fetch(0),
    /// );
    /// assert_eq!(got.unwrap(), Fetched::Explore); // no worker: the walk explores it
    /// ```
    pub fn fetch(&mut self, k: u64) -> Fetched<R> {
        let s = self.shared;
        let mut b = s.lock();
        if k >= b.walk_at {
            b.walk_at = k;
            // The records before `k` are not needed any more (explored here instead).
            b.done = b.done.split_off(&k);
            if s.window.is_some() {
                s.moved.notify_all();
            }
        }
        let Some(at) = s.order.position(k) else {
            return Fetched::Explore;
        };
        if at >= b.next && (self.walk_claims || b.working == 0) {
            // Nobody has claimed it: claimed here (and the units before it, passed).
            b.next = at + 1;
            return Fetched::Explore;
        }
        loop {
            if let Some(record) = b.done.remove(&k) {
                return record.map_or(Fetched::Explore, Fetched::Record);
            }
            if b.working == 0 {
                return Fetched::Explore;
            }
            if self.interrupted.is_some_and(|f| f()) {
                return Fetched::Interrupted;
            }
            b = match self.poll {
                Some(interval) => {
                    drop(b);
                    std::thread::sleep(interval);
                    s.lock()
                }
                None => {
                    let waited = s.finished.wait_timeout(b, INTERRUPT_LOOK);
                    waited.unwrap_or_else(PoisonError::into_inner).0
                }
            };
        }
    }
}

/// A worker thread could not start ([`Pool::run`]).
#[derive(Debug)]
pub struct SpawnError {
    /// The worker's number, from 0.
    pub worker: usize,
    /// The system's reason.
    pub error: std::io::Error,
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "can't start worker thread {}: {}",
            self.worker, self.error
        )
    }
}

impl std::error::Error for SpawnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

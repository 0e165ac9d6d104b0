//! Solving a problem: the settings of a search ([`Solver`]), its solutions as an iterator
//! ([`Solutions`]), and one solution ([`Solution`]).
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::engine::{self, Limits, Stop, Visitor};
use crate::error::Error;
use crate::problem::{OptionRef, Problem};
use crate::stats::Stats;

/// The settings of a search of a [`Problem`]: limits, a random seed, threads. Made by
/// [`Problem::solver`]; each setter returns the changed solver.
///
/// ```
/// use xcover_solver::{End, Problem};
///
/// let problem = Problem::parse("A B\nA\nB\nA B\n")?;
/// let stats = problem.solver().max_solutions(1).threads(2).run()?;
/// assert_eq!((stats.solutions, stats.end), (1, End::SolutionLimit));
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    problem: Problem,
    limits: Limits,
    threads: usize,
    interrupt: Option<Arc<AtomicBool>>,
}

impl Solver {
    pub(crate) fn new(problem: Problem) -> Solver {
        Solver {
            problem,
            limits: Limits::default(),
            threads: 1,
            interrupt: None,
        }
    }

    /// Stops after `n` solutions (Knuth's `t<n>`); 0 finds none.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A\nA\nA\nA\n")?;
    /// assert_eq!(p.solver().max_solutions(2).solutions().count(), 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn max_solutions(mut self, n: u64) -> Self {
        self.limits.max_solutions = Some(n);
        self
    }

    /// Stops when the search has spent `mems` memory accesses (Knuth's `T<n>`, checked at
    /// each search-tree node): a time limit that gives the same result on every machine.
    ///
    /// ```
    /// use xcover_solver::End;
    ///
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(p.solver().timeout_mems(1).run()?.end, End::Timeout);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn timeout_mems(mut self, mems: u64) -> Self {
        self.limits.timeout = Some(mems);
        self
    }

    /// Whether the search counts Knuth's mems, updates and cleansings (default: yes).
    /// Without them the same search, with the same solutions and nodes, runs faster
    /// (counting is about a tenth of the work on short options), and [`Stats`] shows 0 for
    /// them. They are counted anyway with a [`timeout_mems`](Solver::timeout_mems) (it is
    /// in mems) and on several threads. [`count`](Solver::count) never counts them.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// let fast = p.solver().knuth_counters(false).run()?;
    /// let knuth = p.solver().run()?;
    /// assert_eq!((fast.solutions, fast.nodes, fast.mems), (knuth.solutions, knuth.nodes, 0));
    /// assert!(knuth.mems > 0);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn knuth_counters(mut self, on: bool) -> Self {
        self.limits.uncounted = !on;
        self
    }

    /// Randomizes the order of the options and the tie breaks with `seed` (Knuth's
    /// `s<seed>`): the same seed, the same solutions in the same order. One random stream
    /// orders the whole search, so a seeded search runs on one thread.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(p.solver().seed(7).count()?, 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn seed(mut self, seed: i32) -> Self {
        self.limits.seed = Some(seed);
        self
    }

    /// Searches on `n` threads (0: one per core the system offers): the same solutions,
    /// in the same order, and the same [`Stats`], as one thread.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(p.solver().threads(4).run()?, p.solver().run()?);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = if n == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            n
        };
        self
    }

    /// Stops the search soon (within about a millisecond of search) after `flag` is set,
    /// from another thread or a signal handler: the counters so far are returned, with
    /// [`End::Stopped`](crate::End::Stopped), and the solutions end.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use std::sync::Arc;
    /// use xcover_solver::End;
    ///
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// let flag = Arc::new(AtomicBool::new(true)); // set before the search starts
    /// let stats = p.solver().interrupt(Arc::clone(&flag)).run()?;
    /// assert_eq!(stats.end, End::Stopped);
    /// flag.store(false, Ordering::Relaxed);
    /// assert_eq!(p.solver().interrupt(flag).run()?.end, End::Exhausted);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        self.interrupt = Some(flag);
        self
    }

    /// The caller's stop flag, if any.
    fn stop(&self) -> Stop<'_> {
        Stop([self.interrupt.as_deref(), None])
    }

    /// Searches without listing solutions; returns the counters.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(p.solver().run()?.solutions, 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn run(&self) -> Result<Stats, Error> {
        engine::search(
            &self.problem.inner,
            &self.limits,
            self.threads,
            None,
            self.stop(),
        )
    }

    /// The number of solutions (within the limits), found without listing them.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(p.solver().count()?, 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn count(&self) -> Result<u64, Error> {
        Ok(self.clone().knuth_counters(false).run()?.solutions)
    }

    /// Calls `f` with each solution, in order, until it returns `Break`; returns the
    /// counters. The solutions of [`solutions`](Solver::solutions), without a thread of
    /// their own.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    ///
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// let mut sizes = Vec::new();
    /// p.solver().for_each_solution(|s| {
    ///     sizes.push(s.options().len());
    ///     ControlFlow::Continue(())
    /// })?;
    /// assert_eq!(sizes, [2, 1]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn for_each_solution(
        &self,
        mut f: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> Result<Stats, Error> {
        struct Each<'f, F> {
            problem: &'f Problem,
            f: F,
        }
        impl<F: FnMut(&Solution) -> ControlFlow<()>> Visitor for Each<'_, F> {
            fn solution(&mut self, options: &[usize]) -> ControlFlow<()> {
                let s = Solution {
                    problem: self.problem.clone(),
                    options: options.to_vec(),
                };
                (self.f)(&s)
            }
        }
        let mut each = Each {
            problem: &self.problem,
            f: &mut f,
        };
        engine::search(
            &self.problem.inner,
            &self.limits,
            self.threads,
            Some(&mut each),
            self.stop(),
        )
    }

    /// The solutions, in the order of Knuth's program, found on a thread of their own (or
    /// the threads asked for) as the iterator is read. Dropping the iterator stops the
    /// search.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B C\nA B\nC\nA C\nB\n")?;
    /// let mut solutions = p.solver().solutions();
    /// let first = solutions.next().unwrap()?;
    /// assert_eq!(first.to_string(), "A B\nC");
    /// assert_eq!(solutions.count(), 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn solutions(&self) -> Solutions {
        Solutions::start(self.clone())
    }
}

/// Solutions handed from the search thread, in batches.
enum Message {
    Batch(Batch),
    End(Result<Stats, Error>),
}

/// Solutions found together: their options one after another, and where each one ends.
/// Two buffers a batch, not a `Vec` a solution: the search thread allocates nothing per
/// solution, and the reader frees nothing per solution.
#[derive(Default)]
struct Batch {
    options: Vec<usize>,
    ends: Vec<usize>,
}

/// Solutions found this far, handed over when the batch is full, or when the search pauses
/// and the batch has waited [`HAND_OVER_AFTER`].
struct Sender {
    tx: SyncSender<Message>,
    batch: Batch,
    /// When the batch's first solution was found.
    since: Instant,
    /// Whether a batch has gone: the first solution goes alone, at once.
    started: bool,
}

/// The most solutions handed over at once.
const BATCH: usize = 1024;

/// The most option indices handed over at once (512 KiB): long solutions go in smaller
/// batches, so that the batches on their way (four, and one being read) stay small.
const BATCH_ENTRIES: usize = 1 << 16;

/// How long a solution may wait in a batch that is not full (then it goes at the next
/// pause of the search, a slice later at most). A hand-over costs the two threads a wake-up
/// each: at every pause (every half millisecond) it was a tenth of the reader's time.
const HAND_OVER_AFTER: Duration = Duration::from_millis(5);

impl Sender {
    fn flush(&mut self) -> ControlFlow<()> {
        if self.batch.ends.is_empty() {
            return ControlFlow::Continue(());
        }
        let next = Batch {
            options: Vec::with_capacity(self.batch.options.len()),
            ends: Vec::with_capacity(self.batch.ends.len()),
        };
        let batch = std::mem::replace(&mut self.batch, next);
        match self.tx.send(Message::Batch(batch)) {
            Ok(()) => ControlFlow::Continue(()),
            // The iterator was dropped.
            Err(_) => ControlFlow::Break(()),
        }
    }
}

impl Visitor for Sender {
    fn solution(&mut self, options: &[usize]) -> ControlFlow<()> {
        if self.batch.ends.is_empty() {
            self.since = Instant::now();
        }
        self.batch.options.extend_from_slice(options);
        self.batch.ends.push(self.batch.options.len());
        // The first solution goes at once; then in batches.
        let full = self.batch.ends.len() >= BATCH || self.batch.options.len() >= BATCH_ENTRIES;
        if full || !self.started {
            self.started = true;
            return self.flush();
        }
        ControlFlow::Continue(())
    }

    fn pause(&mut self) -> ControlFlow<()> {
        if self.batch.ends.is_empty() || self.since.elapsed() < HAND_OVER_AFTER {
            return ControlFlow::Continue(());
        }
        self.flush()
    }
}

/// The solutions of a search, in order, as an iterator of `Result<Solution, Error>`
/// (an error ends it). See [`Solver::solutions`].
///
/// ```
/// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
/// let mut solutions = p.solutions();
/// for s in &mut solutions {
///     assert!(!s?.options().is_empty());
/// }
/// assert_eq!(solutions.stats().unwrap().solutions, 2);
/// # Ok::<(), xcover_solver::Error>(())
/// ```
pub struct Solutions {
    problem: Problem,
    rx: Receiver<Message>,
    /// The batch being read: its next solution, and where that one starts.
    pending: Batch,
    next: usize,
    start: usize,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    stats: Option<Stats>,
    error: Option<Error>,
    /// The search has ended (its stats or its error came).
    ended: bool,
}

impl Solutions {
    fn start(solver: Solver) -> Solutions {
        let (tx, rx) = mpsc::sync_channel(4);
        let stop = Arc::new(AtomicBool::new(false));
        let problem = solver.problem.clone();
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("xcover-solver search".into())
            .spawn(move || {
                let mut sender = Sender {
                    tx: tx.clone(),
                    batch: Batch::default(),
                    since: Instant::now(),
                    started: false,
                };
                let result = engine::search(
                    &solver.problem.inner,
                    &solver.limits,
                    solver.threads,
                    Some(&mut sender),
                    Stop([solver.interrupt.as_deref(), Some(&stop2)]),
                );
                let _ = sender.flush();
                let _ = tx.send(Message::End(result));
            });
        let (thread, error) = match thread {
            Ok(t) => (Some(t), None),
            Err(e) => (
                None,
                Some(Error::new(
                    crate::ErrorKind::Engine,
                    format!("can't start the search thread: {e}"),
                )),
            ),
        };
        Solutions {
            problem,
            rx,
            pending: Batch::default(),
            next: 0,
            start: 0,
            stop,
            thread,
            stats: None,
            error,
            ended: false,
        }
    }

    /// The counters of the search, once the iterator has returned `None` (or stopped at an
    /// error: then `None`).
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A\nA\n")?;
    /// let mut solutions = p.solutions();
    /// assert!(solutions.stats().is_none());
    /// solutions.by_ref().for_each(drop);
    /// assert_eq!(solutions.stats().map(|s| s.solutions), Some(1));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn stats(&self) -> Option<&Stats> {
        self.stats.as_ref()
    }
}

impl Solutions {
    /// Whether [`next`](Iterator::next) would answer without waiting for the search: a
    /// solution is found, or the search has ended. Waits at most `timeout` for that, so
    /// that a caller can do other work (look for Ctrl-C, update a display) while a long
    /// search looks for the next solution.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let p = xcover_solver::Problem::parse("A\nA\n")?;
    /// let mut solutions = p.solutions();
    /// while !solutions.wait(Duration::from_millis(50)) {}
    /// assert!(solutions.next().is_some());
    /// while !solutions.wait(Duration::from_millis(50)) {}
    /// assert!(solutions.next().is_none());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn wait(&mut self, timeout: std::time::Duration) -> bool {
        if self.next < self.pending.ends.len() || self.error.is_some() || self.ended {
            return true;
        }
        match self.rx.recv_timeout(timeout) {
            Ok(message) => self.take(message),
            Err(mpsc::RecvTimeoutError::Timeout) => return false,
            Err(mpsc::RecvTimeoutError::Disconnected) => self.ended = true,
        }
        true
    }

    /// Keeps what the search thread sent.
    fn take(&mut self, message: Message) {
        match message {
            Message::Batch(batch) => {
                self.pending = batch;
                (self.next, self.start) = (0, 0);
            }
            Message::End(Ok(stats)) => {
                self.stats = Some(stats);
                self.ended = true;
            }
            Message::End(Err(e)) => self.error = Some(e),
        }
    }
}

impl Solutions {
    /// Waits until the pending batch has a solution (`Ok`), the search failed (`Err`, once)
    /// or it ended (`None`).
    fn fill(&mut self) -> Option<Result<(), Error>> {
        loop {
            if self.next < self.pending.ends.len() {
                return Some(Ok(()));
            }
            if let Some(e) = self.error.take() {
                self.ended = true;
                return Some(Err(e));
            }
            if self.ended {
                return None;
            }
            match self.rx.recv() {
                Ok(message) => self.take(message),
                // The search thread is gone (it never is without a message).
                Err(_) => self.ended = true,
            }
        }
    }

    /// The next solution's options, as [`Solution::options`] gives them, without making a
    /// [`Solution`]: for a caller that hands many solutions on (the Python package) and
    /// needs only the indices. Reads the same solutions as [`next`](Iterator::next).
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// let mut solutions = p.solutions();
    /// assert_eq!(solutions.next_options().unwrap()?, [0, 1]);
    /// assert_eq!(solutions.next().unwrap()?.options(), [2]);
    /// assert!(solutions.next_options().is_none());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn next_options(&mut self) -> Option<Result<&[usize], Error>> {
        if let Err(e) = self.fill()? {
            return Some(Err(e));
        }
        let (start, end) = (self.start, self.pending.ends[self.next]);
        (self.next, self.start) = (self.next + 1, end);
        Some(Ok(&self.pending.options[start..end]))
    }
}

impl Iterator for Solutions {
    type Item = Result<Solution, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let problem = self.problem.clone();
        Some(self.next_options()?.map(|options| Solution {
            problem,
            options: options.to_vec(),
        }))
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Closing the channel unblocks a search waiting to hand over a batch; then wait
        // for it to stop (within a slice of the search).
        if let Some(t) = self.thread.take() {
            drop(std::mem::replace(&mut self.rx, mpsc::sync_channel(0).1));
            let _ = t.join();
        }
    }
}

impl fmt::Debug for Solutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions")
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// One solution: its options, by index in the problem and by their items' names.
/// `Display` writes each option on a line as Knuth's text writes it.
///
/// ```
/// let p = xcover_solver::Problem::parse("A B | x\nA x:1\nB x:1\nA B\n")?;
/// let s = p.solutions().next().unwrap()?;
/// assert_eq!(s.options(), [0, 1]);
/// let names: Vec<Vec<&str>> = s.iter().map(|o| o.items().map(|(n, _)| n).collect()).collect();
/// assert_eq!(names, [["A", "x"], ["B", "x"]]);
/// assert_eq!(s.to_string(), "A x:1\nB x:1");
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solution {
    problem: Problem,
    options: Vec<usize>,
}

impl Solution {
    /// The indices of the solution's options (0-based, in the problem's input order), in
    /// the order the search chose them.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\n")?;
    /// let s = p.solutions().next().unwrap()?;
    /// assert_eq!(s.options(), [0, 1]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn options(&self) -> &[usize] {
        &self.options
    }

    /// The solution's options, with their items' names and colors.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA B\n")?;
    /// let s = p.solutions().next().unwrap()?;
    /// let texts: Vec<String> = s.iter().map(|o| o.to_string()).collect();
    /// assert_eq!(texts, ["A B"]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = OptionRef<'_>> + '_ {
        self.options.iter().filter_map(|&j| self.problem.option(j))
    }

    /// The problem solved.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A\nA\n")?;
    /// let s = p.solutions().next().unwrap()?;
    /// assert_eq!(s.problem().items().len(), 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, option) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{option}")?;
        }
        Ok(())
    }
}

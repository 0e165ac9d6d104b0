//! Sudoku for Python: solve and count puzzles (one or a list), and the grid checker.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use xcover_solver::gridcheck::GridCheck;
use xcover_solver::sudoku::{self, Grid, Puzzle};

use crate::errors::to_py;
use crate::wait::TICK;

/// Puzzles solved or counted between looks for Ctrl-C.
const BATCH: usize = 64;

/// One puzzle (`str`) or a list of them; `true` when one.
fn puzzles(arg: &Bound<'_, PyAny>) -> PyResult<(Vec<Puzzle>, bool)> {
    if let Ok(s) = arg.cast::<PyString>() {
        return Ok((vec![Puzzle::parse(&s.to_cow()?).map_err(to_py)?], true));
    }
    let mut out = Vec::new();
    for p in arg.try_iter()? {
        let p = p?;
        let text = p.cast::<PyString>().map_err(|_| {
            PyValueError::new_err("a puzzle is a string of 81 cells (digits, 0 or . for empty)")
        })?;
        out.push(Puzzle::parse(&text.to_cow()?).map_err(to_py)?);
    }
    Ok((out, false))
}

/// `f` on every puzzle, without the GIL, in batches with looks for Ctrl-C between them.
fn each<T: Send>(
    py: Python<'_>,
    all: &[Puzzle],
    f: impl Fn(&Puzzle) -> T + Sync,
) -> PyResult<Vec<T>> {
    let mut out = Vec::with_capacity(all.len());
    for chunk in all.chunks(BATCH) {
        out.extend(py.detach(|| chunk.iter().map(&f).collect::<Vec<T>>()));
        py.check_signals()?;
    }
    Ok(out)
}

#[pyfunction]
pub(crate) fn sudoku_solve(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let (all, one) = puzzles(puzzle)?;
    let found = each(py, &all, |p| sudoku::solve(p).map(|g| g.to_string()))?;
    if one {
        Ok(found
            .into_iter()
            .next()
            .flatten()
            .into_pyobject(py)?
            .unbind())
    } else {
        Ok(PyList::new(py, found)?.into_any().unbind())
    }
}

#[pyfunction]
#[pyo3(signature = (puzzle, limit=2))]
pub(crate) fn sudoku_count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: i64,
) -> PyResult<Py<PyAny>> {
    let limit = match u32::try_from(limit) {
        Ok(n) if n >= 1 => n,
        _ => {
            return Err(PyValueError::new_err(format!(
                "limit must be from 1 to {}, not {limit}",
                u32::MAX
            )))
        }
    };
    let (all, one) = puzzles(puzzle)?;
    let counts = each(py, &all, |p| sudoku::count(p, limit))?;
    if one {
        Ok(counts[0].into_pyobject(py)?.into_any().unbind())
    } else {
        Ok(PyList::new(py, counts)?.into_any().unbind())
    }
}

/// Puzzles found and not yet read that a scan holds before it waits for Python.
const PENDING: usize = 4096;

/// What the scan's thread hands over: a puzzle as found, then how the scan ended
/// (`Ok(false)`: stopped).
enum Found {
    Puzzle(String),
    End(Result<bool, xcover_solver::Error>),
}

struct GridState {
    rx: Receiver<Found>,
    stop: Arc<AtomicBool>,
    /// The scan has ended, was stopped, or failed: the iterator is exhausted.
    done: bool,
}

/// The puzzles of a grid scan, handed to Python as the scan (on threads of its own,
/// without the GIL) finds them.
#[pyclass(module = "xcover_dlx", name = "GridPuzzles")]
pub(crate) struct GridPuzzles {
    state: Mutex<GridState>,
}

#[pymethods]
impl GridPuzzles {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let mut guard = self
            .state
            .try_lock()
            .map_err(|_| PyValueError::new_err("generator already executing"))?;
        let state = &mut *guard;
        if state.done {
            return Ok(None);
        }
        let found = loop {
            match state.rx.try_recv() {
                Ok(found) => break found,
                Err(TryRecvError::Disconnected) => break Found::End(Ok(false)),
                Err(TryRecvError::Empty) => {}
            }
            let rx = &mut state.rx;
            match py.detach(move || rx.recv_timeout(TICK)) {
                Ok(found) => break found,
                Err(RecvTimeoutError::Disconnected) => break Found::End(Ok(false)),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop_scan(state);
                        return Err(signal);
                    }
                }
            }
        };
        match found {
            Found::Puzzle(p) => Ok(Some(p)),
            Found::End(end) => {
                state.done = true;
                match end {
                    Ok(_) => Ok(None),
                    Err(e) => Err(to_py(e)),
                }
            }
        }
    }

    fn __repr__(&self) -> String {
        "<xcover_dlx.GridPuzzles>".to_owned()
    }
}

/// Stops the scan (within a slice, on its own threads) and ends the iterator. Dropping the
/// receiver frees a scan thread waiting to hand over a puzzle.
fn stop_scan(state: &mut GridState) {
    state.stop.store(true, Ordering::Relaxed);
    state.rx = mpsc::sync_channel(0).1;
    state.done = true;
}

impl Drop for GridPuzzles {
    fn drop(&mut self) {
        // A scan nobody reads any more stops.
        stop_scan(self.state.get_mut().unwrap_or_else(PoisonError::into_inner));
    }
}

#[pyfunction]
#[pyo3(signature = (grid, clues=17, *, mask=None, minimal=false, threads=1))]
pub(crate) fn gridcheck(
    grid: &str,
    clues: i64,
    mask: Option<&str>,
    minimal: bool,
    threads: i64,
) -> PyResult<GridPuzzles> {
    let grid = Grid::parse(grid).map_err(to_py)?;
    let clues = u32::try_from(clues)
        .map_err(|_| PyValueError::new_err(format!("clues must be from 1 to 81, not {clues}")))?;
    let threads = usize::try_from(threads)
        .map_err(|_| PyValueError::new_err(format!("threads must be >= 0, not {threads}")))?;
    let mut scan = GridCheck::new(&grid)
        .clues(clues)
        .minimal(minimal)
        .threads(threads.min(1024));
    if let Some(m) = mask {
        scan = scan.mask(m).map_err(to_py)?;
    }
    scan.check().map_err(to_py)?;
    // Bounded: a scan that finds puzzles faster than Python reads them waits (memory
    // stays bounded).
    let (tx, rx) = mpsc::sync_channel(PENDING);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("xcover_dlx gridcheck".into())
        .spawn(move || {
            // A dropped or stopped iterator has set `stop` and dropped the receiver:
            // sending fails, and the scan ends within a slice.
            let each = |p: Puzzle| {
                let _ = tx.send(Found::Puzzle(p.to_string()));
            };
            let end = scan.for_each_puzzle_until(&flag, &each);
            let _ = tx.send(Found::End(end));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("can't start the scan thread: {e}")))?;
    Ok(GridPuzzles {
        state: Mutex::new(GridState {
            rx,
            stop,
            done: false,
        }),
    })
}

//! Sudoku for Python: solve and count puzzles (one or a list), and the grid checker.
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use xcover_solver::gridcheck::GridCheck;
use xcover_solver::sudoku::{self, Grid, Puzzle};

use crate::errors::to_py;
use crate::wait::run_stoppable;

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

#[pyfunction]
#[pyo3(signature = (grid, clues=17, *, mask=None, minimal=false, threads=1))]
pub(crate) fn gridcheck<'py>(
    py: Python<'py>,
    grid: &str,
    clues: i64,
    mask: Option<&str>,
    minimal: bool,
    threads: i64,
) -> PyResult<Bound<'py, PyAny>> {
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
    let found = run_stoppable(py, move |stop| scan.puzzles_until(&stop))?.map_err(to_py)?;
    let texts: Vec<String> = found
        .unwrap_or_default()
        .iter()
        .map(Puzzle::to_string)
        .collect();
    PyList::new(py, texts)?.try_iter().map(|it| it.into_any())
}

//! Knuth's `dlx3` program for Python (`xcover_dlx.dlx3`): his letter arguments, his input
//! and his text, byte for byte what `xcover dlx3 ARGS < FILE` prints, over
//! `xcover_solver::knuth`. The search runs without the GIL on a thread of its own.
use std::sync::atomic::Ordering;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use xcover_solver::knuth::{self, Args};

use crate::problem::Stats;
use crate::wait::run_stoppable;

/// What a run of Knuth's program printed, and how it ended.
#[pyclass(module = "xcover_dlx", name = "Dlx3Run", frozen)]
pub(crate) struct Dlx3Run {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    returncode: i32,
    stats: Stats,
}

/// `bytes.decode("utf-8", "surrogateescape")`: text that encodes back to the same bytes.
fn text<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    PyBytes::new(py, bytes).call_method1("decode", ("utf-8", "surrogateescape"))
}

#[pymethods]
impl Dlx3Run {
    /// Standard output (the solutions), as text.
    #[getter]
    fn stdout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        text(py, &self.stdout)
    }

    /// Standard error (reports, traces, the closing statistics), as text.
    #[getter]
    fn stderr<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        text(py, &self.stderr)
    }

    /// Standard output as bytes.
    #[getter]
    fn stdout_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.stdout)
    }

    /// Standard error as bytes.
    #[getter]
    fn stderr_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.stderr)
    }

    /// The program's exit status: 0 done, 102 input error, 252 ``Too many levels!``.
    #[getter]
    fn returncode(&self) -> i32 {
        self.returncode
    }

    /// The counters of the search.
    #[getter]
    fn stats(&self) -> Stats {
        self.stats.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Dlx3Run(returncode={}, stdout=<{} bytes>, stderr=<{} bytes>)",
            self.returncode,
            self.stdout.len(),
            self.stderr.len()
        )
    }
}

/// Bytes of `obj`: `str` as UTF-8, or `bytes`.
fn bytes_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!("{what} must be str or bytes")))
}

/// The letter arguments: one string split at white space, or a sequence of strings.
fn words(args: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u8>>> {
    if args.cast::<PyString>().is_ok() || args.cast::<PyBytes>().is_ok() {
        let all = bytes_of(args, "args")?;
        return Ok(all
            .split(|c| c.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .map(<[u8]>::to_vec)
            .collect());
    }
    args.try_iter()
        .map_err(|_| PyTypeError::new_err("args must be a str or a sequence of str"))?
        .map(|w| bytes_of(&w?, "each argument"))
        .collect()
}

/// Runs Knuth's ``dlx3`` on ``input`` (his text format) with his letter arguments.
#[pyfunction]
#[pyo3(signature = (input, args = None))]
pub(crate) fn dlx3(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    args: Option<&Bound<'_, PyAny>>,
) -> PyResult<Dlx3Run> {
    let input = bytes_of(input, "input")?;
    let args = match args {
        Some(a) => words(a)?,
        None => Vec::new(),
    };
    let mut stderr = Vec::new();
    let Ok(parsed) = Args::parse(&args, &mut stderr) else {
        let usage = knuth::usage("dlx3");
        return Err(PyValueError::new_err(format!(
            "bad argument: {}",
            usage.trim_end()
        )));
    };
    let ran = run_stoppable(py, move |stop| {
        let mut stdout = Vec::new();
        let stopped = || stop.load(Ordering::Relaxed);
        let end = parsed.run_until(&input, &mut stdout, &mut stderr, &stopped);
        end.map(|end| (end, stdout, stderr))
    })?;
    // Writes into memory fail only when memory runs out.
    let (end, stdout, stderr) = ran.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(Dlx3Run {
        stdout,
        stderr,
        returncode: end.status,
        stats: Stats::from(&end.stats),
    })
}

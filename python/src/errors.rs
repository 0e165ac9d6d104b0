//! The one mapping of `xcover_solver::Error` to Python: the exception classes live in
//! `xcover_dlx/_errors.py` (a small hierarchy, bad input under `ValueError`); each carries
//! the message, line, position, line text and item of the Rust error.
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;
use xcover_solver::{Error, ErrorKind};

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn errors(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    ERRORS
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("xcover_dlx._errors")?.unbind())
        })
        .map(|m| m.bind(py))
}

/// The exception class for `kind`.
fn class_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Input(_) | ErrorKind::Builder => "InputError",
        ErrorKind::Sudoku => "SudokuError",
        ErrorKind::TooManyLevels => "TooManyLevelsError",
        _ => "SearchError",
    }
}

/// A short name of `kind` (`UnknownItemName`, `Builder`, `Sudoku`, ...).
pub(crate) fn kind_name(kind: ErrorKind) -> String {
    match kind {
        ErrorKind::Input(k) => format!("{k:?}"),
        other => format!("{other:?}"),
    }
}

/// The Python exception for `e`.
pub(crate) fn to_py(e: Error) -> PyErr {
    Python::attach(|py| {
        if e.kind() == ErrorKind::Io {
            return PyOSError::new_err(e.to_string());
        }
        let make = || -> PyResult<PyErr> {
            let class = errors(py)?.getattr(class_name(e.kind()))?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("message", e.message())?;
            kwargs.set_item("line", e.line())?;
            kwargs.set_item("position", e.position())?;
            kwargs.set_item("line_text", e.line_text())?;
            kwargs.set_item("item", e.item())?;
            let kind = kind_name(e.kind());
            kwargs.set_item("kind", kind)?;
            let exc = class.call((e.to_string(),), Some(&kwargs))?;
            Ok(PyErr::from_value(exc))
        };
        make().unwrap_or_else(|err| err)
    })
}

/// An input error raised by this crate itself (a Python value the solver never sees):
/// `InputError` with `message` (Knuth's wording where he has one) and the item's `repr`.
pub(crate) fn input_error(
    py: Python<'_>,
    kind: &str,
    message: &str,
    item: Option<String>,
) -> PyErr {
    let make = || -> PyResult<PyErr> {
        let class = errors(py)?.getattr("InputError")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("message", message)?;
        kwargs.set_item("item", item.as_deref())?;
        kwargs.set_item("kind", kind)?;
        // Knuth's messages end with `!` (as the Rust error's display writes them).
        let bang = if matches!(kind, "Matrix" | "Bounds" | "Builder") {
            ""
        } else {
            "!"
        };
        let text = match &item {
            Some(item) => format!("{message}{bang} (item `{item}`)"),
            None => format!("{message}{bang}"),
        };
        let exc = class.call((text,), Some(&kwargs))?;
        Ok(PyErr::from_value(exc))
    };
    make().unwrap_or_else(|_| PyValueError::new_err(message.to_owned()))
}

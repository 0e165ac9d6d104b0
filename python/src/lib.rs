//! The native part of the `xcover-dlx` Python package (`xcover_dlx._native`): PyO3
//! bindings over the `xcover-solver` crate. The Python API, its docstrings and stubs are in
//! `pysrc/xcover_dlx/`.
use pyo3::prelude::*;

mod errors;
mod knuth;
mod problem;
mod sudoku;
mod wait;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<problem::Problem>()?;
    m.add_class::<problem::Solutions>()?;
    m.add_class::<problem::Stats>()?;
    m.add_class::<sudoku::GridPuzzles>()?;
    m.add_class::<knuth::Dlx3Run>()?;
    m.add_function(wrap_pyfunction!(knuth::dlx3, m)?)?;
    m.add_function(wrap_pyfunction!(problem::covers, m)?)?;
    m.add_function(wrap_pyfunction!(problem::covers_bool, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::sudoku_solve, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::sudoku_count, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::gridcheck, m)?)?;
    Ok(())
}

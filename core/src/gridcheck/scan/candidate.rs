//! The solver check of a candidate the enumeration reaches.
use super::options::ScanOptions;
use super::prepare::Prepared;
use super::stats::RunStats;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::grid::Grid;
use crate::gridcheck::solver::is_unique_with_grid;
use core::ops::ControlFlow;

/// Solver check of the candidate whose free clues sit at `positions`; counts it in `stats`
/// and reports a puzzle to `on_found`.
pub(super) fn check_candidate<F>(
    prepared: &Prepared<'_>,
    stats: &mut RunStats,
    positions: u128,
    on_found: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(Cells) -> ControlFlow<()>,
{
    let givens = prepared.remap().cells_of(positions) | prepared.forced_givens().0;
    stats.steps += 1;
    let (grid, options) = (prepared.grid(), prepared.options());
    check_givens(grid, options, is_unique_with_grid, stats, givens, on_found)
}

/// Final test of the candidate `givens` of a scan of `grid` with `options` (every
/// engine's last step; `unique` is the uniqueness test, which the engines' tests replace):
/// counts it in `stats`, reports a puzzle to `on_found`, and says whether the run goes on.
pub(super) fn check_givens<F>(
    grid: &Grid,
    options: &ScanOptions,
    unique: fn(&Grid, Cells) -> bool,
    stats: &mut RunStats,
    givens: u128,
    on_found: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(Cells) -> ControlFlow<()>,
{
    stats.candidates += 1;
    stats.solver_calls += 1;
    if !unique(grid, Cells(givens)) {
        return ControlFlow::Continue(());
    }
    if options.minimal_only {
        let mut rest = givens;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest &= rest - 1;
            stats.solver_calls += 1;
            if unique(grid, Cells(givens & !cell)) {
                return ControlFlow::Continue(());
            }
        }
    }
    stats.found += 1;
    let flow = on_found(Cells(givens));
    if flow.is_break() || options.stop_at_first {
        return ControlFlow::Break(());
    }
    ControlFlow::Continue(())
}

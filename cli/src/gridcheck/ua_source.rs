//! The UA list of a grid: generated with the core generators, or loaded from a file and
//! verified (a set that is not a UA of the grid is refused), and saved.
use std::path::Path;

use crate::error::{cli_error, Context, Result};
use xcover_core::gridcheck::scan::ScanOptions;
use xcover_core::gridcheck::ua::budget::{self, Recipe};
use xcover_core::gridcheck::ua::{file, verify_ua, UaList};
use xcover_core::gridcheck::{Cells, Grid, GridcheckError};

/// Default number of random pseudo-puzzles for UA generation of a whole-grid scan, at
/// most: a grid with many 4-cell UA gets fewer ([`recipe`]). Measured on 200 random
/// grids: 1000 take 0.34 s less per grid than 3000 and leave 0.9% more placements, so the
/// mean time per grid is 4.5% lower (docs/PERFORMANCE.md, "UA generation per grid"); the
/// puzzles found never depend on it.
pub const DEFAULT_UA_RANDOM: u32 = budget::WHOLE_GRID_RANDOM;
/// Default number of random pseudo-puzzles for a masked scan (`budget::MASKED_RANDOM`).
pub const DEFAULT_UA_RANDOM_MASKED: u32 = budget::MASKED_RANDOM;

/// How `grid`'s UA list is generated for a scan with `options`: the 4-digit subsets and
/// `given` (`--ua-random`) random pseudo-puzzles when given, else the default recipe every
/// front end uses (`budget::scan_recipe`: per grid for a whole grid, 300 for a masked scan).
pub fn recipe(given: Option<u32>, grid: &Grid, options: &ScanOptions) -> Recipe {
    match given {
        Some(random) => Recipe::given(random),
        None => budget::scan_recipe(grid, options),
    }
}

/// Generates the UA list with `generate::for_mask`: all 4-digit subsets, then `random`
/// pseudo-puzzles of random blank cells (seeded: same seed, same list). Cells of `keep`
/// (forced givens of a masked scan) are never blanked. Every set is a real minimal UA.
pub fn generate(grid: &Grid, random: u32, seed: u64, keep: Cells) -> Result<Vec<Cells>> {
    generate_recipe(grid, Recipe::given(random), seed, keep)
}

/// Generates the UA list with `recipe` (`Recipe::generate`: all 4-digit subsets or not,
/// then `recipe.random` pseudo-puzzles of random blank cells; seeded: same seed, same
/// list). Cells of `keep` are never blanked. Every set is a real minimal UA.
pub fn generate_recipe(grid: &Grid, recipe: Recipe, seed: u64, keep: Cells) -> Result<Vec<Cells>> {
    recipe
        .generate_to_vec(grid, seed, keep)
        .map_err(|err| cli_error!("generating UA: {err}"))
}

/// True when `ua` is an unavoidable set of the grid (blanking it leaves several solutions).
pub fn verify(grid: &Grid, ua: Cells) -> bool {
    verify_ua(grid, ua)
}

/// Loads a UA file (81-char 0/1 masks or `{rc,rc,...}` lines) of at most `limit` bytes
/// (a larger one, or an endless pipe, is an error); every set is verified against the
/// grid and a wrong one is refused with its line number.
pub fn load(path: &Path, grid: &Grid, limit: u64) -> Result<Vec<Cells>> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
    let text = crate::memory::read_bounded(file, limit, &name).map_err(|e| cli_error!(e))?;
    let lines = text.split(|&b| b == b'\n').count();
    let mut storage = vec![Cells::EMPTY; lines];
    let mut list = UaList::new(&mut storage);
    file::read_verified(grid, &text, &mut list).map_err(|err| match err {
        GridcheckError::NotAUa { line } => {
            cli_error!(
                "{} line {line}: not an unavoidable set of the grid (refused)",
                path.display()
            )
        }
        other => cli_error!("{}: {other}", path.display()),
    })?;
    Ok(list.as_slice().to_vec())
}

/// Saves the list, one 81-char 0/1 mask per line.
pub fn save(path: &Path, uas: &[Cells]) -> Result<()> {
    let mut text = String::with_capacity(uas.len() * 82);
    file::write_masks(uas, &mut text).map_err(|e| cli_error!("writing UA: {e}"))?;
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

//! The options that choose a sample of grids and its UA lists, shared by the programs that
//! scan many grids (`grid_median`, `band_scan`):
//!
//! ```text
//! (--random K [--grid-seed S] | --file F) [--clues N] [--ua-random K] [--seed S]
//! ```
use crate::grids::{generate_default_uas, generate_uas};
use crate::number_arg;
use std::path::PathBuf;
use xcover_core::gridcheck::{Cells, Grid};

/// A sample of grids and how their UA lists are generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// `--random K`: K random grids (`grids::random_grids`).
    pub random: Option<usize>,
    /// `--grid-seed S` (default 1): the generator's seed for `--random`.
    pub grid_seed: u64,
    /// `--file F`: the grids of F.
    pub file: Option<PathBuf>,
    /// `--clues N` (default 16).
    pub clues: u8,
    /// `--ua-random K`: the 4-digit subsets and K random pseudo-puzzles; `None`: the
    /// command's recipe for the grid (`budget::whole_grid_recipe`).
    pub ua_random: Option<u32>,
    /// `--seed S` (default 1): the UA generation's seed.
    pub seed: u64,
}

impl Default for Sample {
    fn default() -> Sample {
        Sample {
            random: None,
            grid_seed: 1,
            file: None,
            clues: 16,
            ua_random: None,
            seed: 1,
        }
    }
}

impl Sample {
    /// Takes `arg` (and its value from `rest`) when it is one of the sample's options;
    /// `Ok(false)` when it is not.
    ///
    /// ```
    /// use xcover_benches::sample::Sample;
    ///
    /// let mut sample = Sample::default();
    /// let mut rest = ["12".to_string()].into_iter();
    /// assert_eq!(sample.take("--random", &mut rest), Ok(true));
    /// assert_eq!(sample.take("--list", &mut rest), Ok(false));
    /// assert_eq!(sample.random, Some(12));
    /// assert!(sample.take("--clues", &mut ["82".to_string()].into_iter()).is_err());
    /// ```
    pub fn take(
        &mut self,
        arg: &str,
        rest: &mut impl Iterator<Item = String>,
    ) -> Result<bool, String> {
        match arg {
            "--random" => self.random = Some(number_arg(rest.next(), "--random")? as usize),
            "--grid-seed" => self.grid_seed = number_arg(rest.next(), "--grid-seed")?,
            "--file" => self.file = Some(PathBuf::from(rest.next().ok_or("--file needs a file")?)),
            "--clues" => {
                self.clues = u8::try_from(number_arg(rest.next(), "--clues")?)
                    .ok()
                    .filter(|&c| usize::from(c) <= xcover_core::gridcheck::CELL_COUNT)
                    .ok_or("--clues: at most 81")?
            }
            "--ua-random" => {
                self.ua_random = Some(
                    u32::try_from(number_arg(rest.next(), "--ua-random")?)
                        .map_err(|_| "--ua-random: too large".to_string())?,
                )
            }
            "--seed" => self.seed = number_arg(rest.next(), "--seed")?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Checks the options taken: one of `--random K` (K ≥ 1) and `--file F`.
    pub fn check(&self) -> Result<(), String> {
        if self.random.is_some() == self.file.is_some() {
            return Err("give one of --random K and --file F".into());
        }
        if self.random == Some(0) {
            return Err("--random: at least one grid".into());
        }
        Ok(())
    }

    /// The UA list of `grid` as the options ask.
    pub fn uas(&self, grid: &Grid) -> Result<Vec<Cells>, String> {
        match self.ua_random {
            Some(random) => generate_uas(grid, random, self.seed),
            None => generate_default_uas(grid, self.clues, self.seed),
        }
    }
}

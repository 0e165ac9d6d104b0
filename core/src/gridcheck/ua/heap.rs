//! With the `alloc` feature: a recipe's whole UA list in a `Vec`, for programs with an
//! allocator (the command, `xcover-solver`, the browser module), which would otherwise each
//! size and grow the caller's storage by hand.

extern crate alloc;

use alloc::vec;
use alloc::vec::Vec;

use super::budget::Recipe;
use super::list::UaList;
use crate::gridcheck::cells::Cells;
use crate::gridcheck::error::GridcheckError;
use crate::gridcheck::grid::Grid;

/// Antichain scratch of one pseudo-puzzle (sets): no pseudo-puzzle of the generators has
/// come near it.
const SCRATCH: usize = 1 << 16;

/// First room for the list (sets): the 4-digit subsets' sets and about 32 a random
/// pseudo-puzzle, before duplicates merge.
fn first_capacity(recipe: &Recipe) -> u64 {
    16_384 + 32 * u64::from(recipe.random)
}

impl Recipe {
    /// Bytes [`Recipe::generate_to_vec`] allocates at first: the list's first room and the
    /// antichain scratch (more only when the distinct sets do not fit), for a caller that
    /// checks a memory limit before generating.
    ///
    /// ```
    /// use xcover_core::gridcheck::ua::budget::Recipe;
    ///
    /// assert!(Recipe::given(1000).first_bytes() < Recipe::given(3000).first_bytes());
    /// assert!(Recipe::given(u32::MAX).first_bytes() > 1 << 40);
    /// ```
    pub fn first_bytes(&self) -> u64 {
        (first_capacity(self) + SCRATCH as u64) * core::mem::size_of::<Cells>() as u64
    }

    /// Generates the list as [`Recipe::generate`] does, in storage that doubles until the
    /// distinct sets fit; returns them sorted and de-duplicated. Every other error of the
    /// generator is returned as it is.
    ///
    /// ```
    /// use xcover_core::gridcheck::ua::budget;
    /// use xcover_core::gridcheck::ua::verify_ua;
    /// use xcover_core::gridcheck::{Cells, Grid};
    ///
    /// let grid = Grid::parse(b"128465973534789261697231854271354698359876412486912735813647529965128347742593186")?;
    /// let uas = budget::whole_grid_recipe(&grid, 16).generate_to_vec(&grid, 1, Cells::EMPTY)?;
    /// assert!(uas.len() > 100);
    /// assert!(uas.windows(2).all(|pair| pair[0] != pair[1]));
    /// assert!(uas.iter().take(50).all(|&ua| verify_ua(&grid, ua)));
    /// # Ok::<(), xcover_core::gridcheck::GridcheckError>(())
    /// ```
    pub fn generate_to_vec(
        &self,
        grid: &Grid,
        seed: u64,
        keep: Cells,
    ) -> Result<Vec<Cells>, GridcheckError> {
        // A room that does not fit in memory fails there, as a larger one would later.
        let capacity = usize::try_from(first_capacity(self)).unwrap_or(usize::MAX);
        self.generate_growing(grid, seed, keep, capacity)
    }

    /// [`Recipe::generate_to_vec`] from room for `capacity` sets.
    fn generate_growing(
        &self,
        grid: &Grid,
        seed: u64,
        keep: Cells,
        mut capacity: usize,
    ) -> Result<Vec<Cells>, GridcheckError> {
        let mut scratch = vec![Cells::EMPTY; SCRATCH];
        loop {
            let mut storage = vec![Cells::EMPTY; capacity];
            let mut list = UaList::new(&mut storage);
            match self.generate(grid, seed, keep, &mut list, &mut scratch) {
                Ok(_) => {
                    list.dedup();
                    return Ok(list.as_slice().to_vec());
                }
                Err(GridcheckError::ListFull { .. }) => capacity *= 2,
                Err(err) => return Err(err),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &[u8; 81] =
        b"216735498975684231843219675439572816527168349681493752192847563354926187768351924";

    /// Storage too small at first grows until the distinct sets fit, and the list is the
    /// one generated with room to spare from the start.
    #[test]
    fn a_list_too_small_at_first_grows_to_the_same_sets() {
        let grid = Grid::parse(GRID).unwrap();
        let recipe = Recipe::given(20);
        let roomy = recipe.generate_to_vec(&grid, 7, Cells::EMPTY).unwrap();
        assert!(roomy.len() > 64, "{} sets", roomy.len());
        let grown = recipe.generate_growing(&grid, 7, Cells::EMPTY, 1).unwrap();
        assert_eq!(grown, roomy);
    }
}

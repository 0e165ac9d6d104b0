//! The seeded random grids of the benches (`xcover_benches::grids`).

use xcover_benches::grids::random_grids;
use xcover_core::gridcheck::Grid;

/// Every row, column and box of `grid` holds each digit once (checked here directly, not
/// through `Grid::from_digits`, which the generator itself calls).
fn is_solution(grid: &Grid) -> bool {
    let digits = grid.digits();
    let house_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u16;
        for cell in cells {
            seen |= 1 << digits[cell];
        }
        seen == 0b11_1111_1110
    };
    (0..9).all(|i| {
        house_ok(&mut (0..9).map(|c| i * 9 + c))
            && house_ok(&mut (0..9).map(|r| r * 9 + i))
            && house_ok(&mut (0..9).map(|k| (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3))
    })
}

#[test]
fn random_grids_are_solutions_repeatable_and_varied() {
    let grids = random_grids(40, 7);
    assert!(grids.iter().all(is_solution));
    // The same seed gives the same grids.
    assert_eq!(
        random_grids(40, 7)
            .iter()
            .map(|g| g.to_string())
            .collect::<Vec<_>>(),
        grids.iter().map(|g| g.to_string()).collect::<Vec<_>>()
    );
    // No two of them are equal, nor equal to another seed's grids.
    let mut texts: Vec<String> = grids.iter().map(|g| g.to_string()).collect();
    texts.extend(random_grids(40, 8).iter().map(|g| g.to_string()));
    let count = texts.len();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), count);
    // The first row is a random permutation, not always the same one.
    let first_rows: std::collections::BTreeSet<String> =
        texts.iter().map(|t| t[..9].to_string()).collect();
    assert!(
        first_rows.len() > 70,
        "{} distinct first rows",
        first_rows.len()
    );
}

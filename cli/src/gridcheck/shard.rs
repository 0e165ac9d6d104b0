//! `--shard I/N`: which (grid, chunk) units of a batch shard I of N runs.
//!
//! The units of grid `g` are its chunks in `Prepared::chunks` order (unit `j` is the j-th
//! chunk). Shard `I` takes unit `j` of grid `g` when `(g + j) % N == I`: the rule lives in
//! core, next to the DLX3 engine's (`xcover_core::dlx3::Part::owns_chunk`). Every shard
//! prepares every grid (UA generation and `prepare` run once per shard and grid), since a
//! grid's chunk list is known only then.

use std::fmt;

use xcover_core::dlx3::Part;

use crate::shared_args::ArgError;

/// Shard `index` of `count` (`index < count <= Part::MAX_COUNT`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// I, from 0.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// True when unit `unit` (the chunk's position in the grid's chunk list) of grid
    /// `grid` belongs to this shard: core's rule for both engines (`Part::owns_chunk`).
    pub fn owns(self, grid: usize, unit: usize) -> bool {
        Part::new(self.index as u64, self.count as u64)
            .is_some_and(|part| part.owns_chunk(grid as u64, unit as u64))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parses `I/N` with `1 <= N <= Part::MAX_COUNT` (clap value parser: an error here is a usage
/// error, exit 2; the part reader uses it too): core's parser, as `dlx3 --shard` reads it.
pub fn parse(text: &str) -> Result<Shard, ArgError> {
    let part = crate::shared_args::parse_shard(text)?;
    // Both fit: N <= Part::MAX_COUNT.
    Ok(Shard {
        index: part.index() as usize,
        count: part.count() as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        assert_eq!(parse("0/1"), Ok(Shard { index: 0, count: 1 }));
        for bad in [
            "5/5", "1/0", "0/0", "a/2", "1/b", "1", "", "/", "-1/2", "1/2/3",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(parse("4/4").unwrap_err().to_string().contains("below N"));
        assert!(parse("3").unwrap_err().to_string().contains("I/N"));
        assert!(parse("1/0").unwrap_err().to_string().contains("at least 1"));
        assert_eq!(
            parse("65535/65536"),
            Ok(Shard {
                index: 65535,
                count: 65536
            })
        );
        for huge in ["0/65537", "0/100000000000", "0/18446744073709551615"] {
            assert!(
                parse(huge)
                    .unwrap_err()
                    .to_string()
                    .contains("at most 65536"),
                "{huge}"
            );
        }
    }

    #[test]
    fn every_unit_has_exactly_one_shard_and_shares_are_even() {
        for count in 1..=7 {
            let mut per_shard = vec![0; count];
            for grid in 0..5 {
                for unit in 0..23 {
                    let owners: Vec<usize> = (0..count)
                        .filter(|&index| Shard { index, count }.owns(grid, unit))
                        .collect();
                    assert_eq!(owners.len(), 1, "grid {grid} unit {unit} of {count}");
                    per_shard[owners[0]] += 1;
                }
            }
            let (min, max) = (per_shard.iter().min(), per_shard.iter().max());
            assert!(max.unwrap() - min.unwrap() <= 5, "{per_shard:?}");
        }
    }
}

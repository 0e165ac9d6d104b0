//! The run's identity: everything a gridcheck result depends on (grids, N, mask, minimal,
//! stop-at-first, UA source, seed, counts, scan options, program version), as one line.
//! It heads journals and parts, so a journal is resumed and parts are merged only by the
//! same run; merge also reads the clue count and the mask back from it to check puzzles.
use crate::error::{cli_error, Result};
use xcover_core::gridcheck::scan::{ClueMask, ScanOptions};
use xcover_core::gridcheck::{Cells, Grid};

use super::args::Args;
use crate::memory;

/// The UA source's count of random pseudo-puzzles when none is given: chosen per grid
/// (`ua_source::recipe`). Earlier builds wrote `default` for a fixed count (1000 for
/// a whole grid, 300 for a masked scan), which `merge`'s audit still reads so.
pub(crate) const BY_GRID: &str = "by-grid";

/// The SHA-256 of `bytes`, 64 hex digits: a fixed, published function (stable across Rust
/// and crate versions), and one no one can make two inputs share (a CRC can be forced).
pub(crate) fn hash(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The fingerprint of a run with `args`, `options` over `grids`; reading a UA file stops
/// at `limit` bytes.
pub(crate) fn of_run(
    args: &Args,
    options: &ScanOptions,
    grids: &[Grid],
    limit: u64,
) -> Result<String> {
    let mut grid_text = String::with_capacity(grids.len() * 82);
    for grid in grids {
        grid_text.push_str(&format!("{grid}\n"));
    }
    let ua = match &args.ua_file {
        Some(path) => {
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| cli_error!("reading {name}: {e}"))?;
            let text = memory::read_bounded(file, limit, &name).map_err(|e| cli_error!(e))?;
            format!("file:{}", hash(&text))
        }
        None => format!(
            "generated:random={}:seed={}",
            args.ua_random.map_or(BY_GRID.to_owned(), |r| r.to_string()),
            args.seed
        ),
    };
    Ok(format!(
        "xcover={} clues={} mask={:032x}/{:032x} minimal={} first={} ua={ua} keep={} \
         options={} grids={}:{}",
        env!("CARGO_PKG_VERSION"),
        options.clues,
        options.mask.givens.0,
        options.mask.empties.0,
        u8::from(options.minimal_only),
        u8::from(options.stop_at_first),
        args.keep_ua.map_or("default".to_owned(), |k| k.to_string()),
        hash(format!("{options:?}").as_bytes()),
        grids.len(),
        hash(grid_text.as_bytes()),
    ))
}

/// What a reader checks each puzzle against: the run's clue count and mask.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PuzzleRules {
    pub clues: u8,
    pub mask: ClueMask,
}

impl PuzzleRules {
    /// The rules of a run with `options`.
    pub(crate) fn of(options: &ScanOptions) -> PuzzleRules {
        PuzzleRules {
            clues: options.clues,
            mask: options.mask,
        }
    }

    /// The rules written in a fingerprint (`clues=N mask=G/E`); `None` if it has none that
    /// make sense (a forged or foreign header).
    pub(crate) fn from_fingerprint(fingerprint: &str) -> Option<PuzzleRules> {
        let field = |key: &str| {
            fingerprint
                .split(' ')
                .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
        };
        let clues: u8 = field("clues")?.parse().ok()?;
        let (givens, empties) = field("mask")?.split_once('/')?;
        let cells = |hex: &str| {
            let bits = u128::from_str_radix(hex, 16).ok()?;
            (hex.len() == 32 && bits & !Cells::ALL.0 == 0).then_some(Cells(bits))
        };
        let mask = ClueMask {
            givens: cells(givens)?,
            empties: cells(empties)?,
        };
        let sane = (1..=81).contains(&clues)
            && mask.givens.is_disjoint(mask.empties)
            && mask.givens.len() <= u32::from(clues);
        sane.then_some(PuzzleRules { clues, mask })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_the_published_sha256() {
        // FIPS 180-2's example: SHA-256 of "abc".
        assert_eq!(
            hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn rules_read_back_from_a_fingerprint() {
        let fp = format!(
            "xcover=0.1.0 clues=18 mask={:032x}/{:032x} minimal=0",
            0b101u128, 0b10u128
        );
        let rules = PuzzleRules::from_fingerprint(&fp).unwrap();
        assert_eq!(rules.clues, 18);
        assert_eq!(rules.mask.givens, Cells(0b101));
        assert_eq!(rules.mask.empties, Cells(0b10));
        for bad in [
            "clues=18",
            "clues=0 mask=00000000000000000000000000000000/00000000000000000000000000000000",
            "clues=18 mask=1/0",
            "clues=18 mask=00000000000000000000000000000001/00000000000000000000000000000001",
            "clues=18 mask=ffffffffffffffffffffffffffffffff/00000000000000000000000000000000",
        ] {
            assert_eq!(PuzzleRules::from_fingerprint(bad), None, "{bad}");
        }
    }
}

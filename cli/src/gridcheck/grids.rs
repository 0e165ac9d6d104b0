//! Reading the grids to scan: arguments, a file, or stdin, one grid per line. Reads are
//! bounded: a line longer than [`MAX_LINE`] bytes is not a grid (so `/dev/zero` is an
//! error at once), and the whole input stops at the memory limit (so an endless pipe of
//! grids is an error, not an allocation that aborts the process).
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{bail, cli_error, Context, Result};
use xcover_core::gridcheck::Grid;

use crate::memory;

/// The longest line taken for a grid: 81 digits and room for spaces and a line end.
const MAX_LINE: usize = 256;

/// Memory a grid of the batch takes at most, beyond its line: the grid, its journal record
/// and its share of the fingerprint.
const GRID_BYTES: u64 = 512;

/// Parses one grid, naming where it came from in the error.
fn parse(text: &str, origin: &str) -> Result<Grid> {
    Grid::parse(text.trim().as_bytes()).map_err(|e| cli_error!("{origin}: bad grid: {e}"))
}

/// Grids from one line per grid (blank lines skipped), appended to `grids`; at most
/// `limit` bytes of input and of grids.
fn from_reader(reader: impl Read, name: &str, limit: u64, grids: &mut Vec<Grid>) -> Result<()> {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::with_capacity(MAX_LINE + 1);
    let mut total: u64 = 0;
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .with_context(|| format!("reading {name}"))?;
        if read == 0 {
            break;
        }
        if line.len() > MAX_LINE {
            bail!("{name} line {number}: longer than {MAX_LINE} bytes (not a grid)");
        }
        total += read as u64;
        let need = total.saturating_add((grids.len() as u64 + 1).saturating_mul(GRID_BYTES));
        if need > limit {
            bail!(
                "{name} is larger than the limit of {} ({limit} bytes) at line {number}; \
                 raise it with --max-memory SIZE",
                memory::Human(limit)
            );
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| cli_error!("{name} line {number}: bad grid: not text"))?;
        if text.trim().is_empty() {
            continue;
        }
        grids.push(parse(text, &format!("{name} line {number}"))?);
    }
    Ok(())
}

/// All grids: the arguments and `--file`; stdin when neither gives any. Reading stops
/// with an error at `limit` bytes.
pub(crate) fn collect(args: &[String], file: Option<&Path>, limit: u64) -> Result<Vec<Grid>> {
    let mut grids = Vec::new();
    for (i, text) in args.iter().enumerate() {
        grids.push(parse(text, &format!("argument {}", i + 1))?);
    }
    if let Some(path) = file {
        let name = path.display().to_string();
        let handle = std::fs::File::open(path).with_context(|| format!("opening {name}"))?;
        from_reader(handle, &name, limit, &mut grids)?;
    }
    if args.is_empty() && file.is_none() {
        from_reader(std::io::stdin().lock(), "stdin", limit, &mut grids)?;
    }
    Ok(grids)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    #[test]
    fn lines_and_totals_are_bounded() {
        let mut grids = Vec::new();
        from_reader(
            format!("{GRID}\n\n  {GRID}  \r\n").as_bytes(),
            "f",
            1 << 20,
            &mut grids,
        )
        .unwrap();
        assert_eq!(grids.len(), 2);
        let err = from_reader(std::io::repeat(0), "zero", 1 << 20, &mut grids).unwrap_err();
        assert!(
            err.to_string().contains("line 1: longer than 256 bytes"),
            "{err}"
        );
        let endless = std::io::repeat(b'\n').take(1 << 30);
        let err = from_reader(endless, "pipe", 4096, &mut grids).unwrap_err();
        assert!(err.to_string().contains("larger than the limit"), "{err}");
        let many = format!("{GRID}\n").repeat(100);
        let err = from_reader(many.as_bytes(), "many", 8192, &mut grids).unwrap_err();
        assert!(err.to_string().contains("--max-memory"), "{err}");
    }
}

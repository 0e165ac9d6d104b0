//! Reading the grids to scan: arguments, a file, or stdin.
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use xcover_core::gridcheck::Grid;

/// Parses one grid, naming where it came from in the error.
fn parse(text: &str, origin: &str) -> Result<Grid> {
    Grid::parse(text.trim().as_bytes()).map_err(|e| anyhow!("{origin}: bad grid: {e}"))
}

/// Grids from one line per grid (blank lines skipped).
fn from_reader(reader: impl Read, name: &str) -> Result<Vec<Grid>> {
    let mut grids = Vec::new();
    for (number, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.with_context(|| format!("reading {name}"))?;
        if line.trim().is_empty() {
            continue;
        }
        grids.push(parse(&line, &format!("{name} line {}", number + 1))?);
    }
    Ok(grids)
}

/// All grids: the arguments and `--file`; stdin when neither gives any.
pub fn collect(args: &[String], file: Option<&Path>) -> Result<Vec<Grid>> {
    let mut grids = Vec::new();
    for (i, text) in args.iter().enumerate() {
        grids.push(parse(text, &format!("argument {}", i + 1))?);
    }
    if let Some(path) = file {
        let name = path.display().to_string();
        let handle = std::fs::File::open(path).with_context(|| format!("opening {name}"))?;
        grids.extend(from_reader(handle, &name)?);
    }
    if args.is_empty() && file.is_none() {
        grids = from_reader(std::io::stdin().lock(), "stdin")?;
    }
    Ok(grids)
}

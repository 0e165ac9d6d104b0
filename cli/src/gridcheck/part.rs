//! The part file of a sharded run (`xcover gridcheck --shard I/N > part-I`), written here
//! and read back by `xcover gridcheck merge`.
//!
//! Text, one record per line:
//!
//! ```text
//! xcover-gridcheck-part 1 shard=I/N <fingerprint>   header: the run's arguments and input
//! grid <g> <81 digits> <chunks>|<summary>|<impossible> every grid, in batch order
//! chunk <g> <id> <nodes> <candidates>                each chunk of the grid this shard ran
//! puzzle <g> <81 chars>                              the grid's puzzles this shard found
//! end <records> <fnv64>                              trailer
//! ```
//!
//! Every shard writes a `grid` record for every grid (it prepared them all); its chunk
//! records (sorted by id) and puzzle records (sorted) follow. The trailer counts the
//! records between header and trailer and holds the FNV-1a hash (16 hex digits) of every
//! byte before it, so a part cut short or altered is refused. Nothing in a part depends on
//! timing or threads, so a shard resumed after a kill writes the same bytes.
use std::io::Write;

use anyhow::{anyhow, Result};

use super::journal::fnv64;
use super::shard::Shard;
use super::summary::{Counts, PreparedSummary};

/// First words of the header: the format and its version.
pub const MAGIC: &str = "xcover-gridcheck-part 1";

/// FNV-1a continued over `bytes` from the state `hash`.
fn fnv_update(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Writes a part file, counting and hashing as it goes.
pub struct PartWriter<W: Write> {
    out: W,
    records: u64,
    hash: u64,
}

impl<W: Write> PartWriter<W> {
    /// Starts a part of shard `shard` of the run `fingerprint` (writes the header).
    pub fn new(out: W, shard: Shard, fingerprint: &str) -> Result<Self> {
        let mut writer = PartWriter {
            out,
            records: 0,
            hash: fnv64(b""),
        };
        writer.put(&format!("{MAGIC} shard={shard} {fingerprint}\n"))?;
        Ok(writer)
    }

    fn put(&mut self, line: &str) -> Result<()> {
        self.hash = fnv_update(self.hash, line.as_bytes());
        self.out.write_all(line.as_bytes())?;
        Ok(())
    }

    /// Writes grid `index`'s records: the grid and its preparation, this shard's chunks
    /// (`(id, counters)`) and puzzles (81-char lines); sorts both.
    pub fn grid(
        &mut self,
        index: usize,
        grid: &str,
        prepared: &PreparedSummary,
        mut chunks: Vec<(u32, Counts)>,
        mut puzzles: Vec<String>,
    ) -> Result<()> {
        chunks.sort_unstable_by_key(|&(id, _)| id);
        puzzles.sort_unstable();
        puzzles.dedup();
        let mut text = format!("grid {index} {grid} {}\n", prepared.encode());
        for (id, counts) in &chunks {
            text.push_str(&format!(
                "chunk {index} {id} {} {}\n",
                counts.nodes, counts.candidates
            ));
        }
        for puzzle in &puzzles {
            text.push_str(&format!("puzzle {index} {puzzle}\n"));
        }
        self.records += 1 + chunks.len() as u64 + puzzles.len() as u64;
        self.put(&text)?;
        self.out.flush()?;
        Ok(())
    }

    /// Writes the trailer: the part is complete.
    pub fn finish(mut self) -> Result<()> {
        let trailer = format!("end {} {:016x}\n", self.records, self.hash);
        self.out.write_all(trailer.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }
}

/// One grid as a part file records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartGrid {
    /// The grid, 81 digits.
    pub grid: String,
    /// Its preparation figures.
    pub prepared: PreparedSummary,
    /// The chunks this shard ran: id and counters.
    pub chunks: Vec<(u32, Counts)>,
    /// The puzzles this shard found (81-char lines).
    pub puzzles: Vec<String>,
}

/// A complete part file.
#[derive(Debug)]
pub struct Part {
    /// Which shard of how many wrote it.
    pub shard: Shard,
    /// The run's fingerprint (arguments and input), as in the header.
    pub fingerprint: String,
    /// Every grid of the batch, in order.
    pub grids: Vec<PartGrid>,
}

/// Reads a part file; the errors say what is wrong (the caller names the file).
pub fn read(bytes: &[u8]) -> Result<Part> {
    let text = std::str::from_utf8(bytes).map_err(|_| anyhow!("not a gridcheck part file"))?;
    let header = text.lines().next().unwrap_or("");
    let Some(rest) = header
        .strip_prefix(MAGIC)
        .and_then(|r| r.strip_prefix(" shard="))
    else {
        if header.starts_with("xcover-gridcheck-part ") {
            return Err(anyhow!(
                "a part file of another format version (this xcover reads `{MAGIC}`)"
            ));
        }
        return Err(anyhow!("not a gridcheck part file"));
    };
    let (shard, fingerprint) = rest
        .split_once(' ')
        .ok_or_else(|| anyhow!("bad header `{header}`"))?;
    let shard = super::shard::parse(shard).map_err(|e| anyhow!("bad header: {e}"))?;
    // The trailer is the last line; without it (or its newline) the part is cut short.
    let body_end = text
        .strip_suffix('\n')
        .and_then(|t| t.rfind('\n'))
        .map(|p| p + 1)
        .filter(|_| text.ends_with('\n'))
        .ok_or_else(|| anyhow!("truncated (no trailer)"))?;
    let trailer = text[body_end..].trim_end_matches('\n');
    let Some((records, hash)) = trailer.strip_prefix("end ").and_then(|t| t.split_once(' ')) else {
        return Err(anyhow!("truncated (no trailer)"));
    };
    let body = &text[header.len() + 1..body_end.max(header.len() + 1)];
    let expected_hash = format!("{:016x}", fnv64(&bytes[..body_end]));
    let count = body.lines().count();
    if records != count.to_string() {
        return Err(anyhow!(
            "truncated or corrupt (the trailer says {records} records, {count} found)"
        ));
    }
    if hash != expected_hash {
        return Err(anyhow!("corrupt (checksum differs from the trailer's)"));
    }
    let mut grids: Vec<PartGrid> = Vec::new();
    for (number, line) in body.lines().enumerate() {
        let bad = || anyhow!("line {}: bad record `{line}`", number + 2);
        let mut words = line.splitn(3, ' ');
        let kind = words.next().unwrap_or("");
        let index: usize = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        let value = words.next().ok_or_else(bad)?;
        if kind == "grid" {
            if index != grids.len() {
                return Err(bad());
            }
            let (grid, prepared) = value.split_once(' ').ok_or_else(bad)?;
            let prepared = PreparedSummary::decode(prepared).ok_or_else(bad)?;
            grids.push(PartGrid {
                grid: grid.to_owned(),
                prepared,
                chunks: Vec::new(),
                puzzles: Vec::new(),
            });
            continue;
        }
        // Chunk and puzzle records belong to the grid record above them.
        if index + 1 != grids.len() {
            return Err(bad());
        }
        let current = grids.last_mut().ok_or_else(bad)?;
        match kind {
            "chunk" => {
                let numbers: Vec<u64> = value
                    .split(' ')
                    .map(|w| w.parse().ok())
                    .collect::<Option<_>>()
                    .ok_or_else(bad)?;
                let [id, nodes, candidates] = numbers[..] else {
                    return Err(bad());
                };
                let id = u32::try_from(id).map_err(|_| bad())?;
                current.chunks.push((id, Counts { nodes, candidates }));
            }
            "puzzle" if value.len() == 81 && !value.contains(' ') => {
                current.puzzles.push(value.to_owned());
            }
            _ => return Err(bad()),
        }
    }
    Ok(Part {
        shard,
        fingerprint: fingerprint.to_owned(),
        grids,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut writer =
            PartWriter::new(&mut bytes, Shard { index: 1, count: 3 }, "fp x=1").unwrap();
        let prepared = PreparedSummary {
            chunks: 2,
            text: "UA 5 (generated)".into(),
            impossible: String::new(),
        };
        let counts = Counts {
            nodes: 7,
            candidates: 3,
        };
        let puzzle = "1".repeat(81);
        writer
            .grid(
                0,
                &"9".repeat(81),
                &prepared,
                vec![(5, counts)],
                vec![puzzle.clone()],
            )
            .unwrap();
        writer
            .grid(1, &"8".repeat(81), &prepared, vec![], vec![])
            .unwrap();
        writer.finish().unwrap();
        bytes
    }

    #[test]
    fn a_written_part_reads_back() {
        let part = read(&sample()).unwrap();
        assert_eq!(part.shard, Shard { index: 1, count: 3 });
        assert_eq!(part.fingerprint, "fp x=1");
        assert_eq!(part.grids.len(), 2);
        assert_eq!(
            part.grids[0].chunks,
            vec![(
                5,
                Counts {
                    nodes: 7,
                    candidates: 3
                }
            )]
        );
        assert_eq!(part.grids[0].puzzles, vec!["1".repeat(81)]);
        assert!(part.grids[1].chunks.is_empty());
    }

    #[test]
    fn cut_or_altered_parts_are_refused() {
        let bytes = sample();
        for cut in [bytes.len() - 1, bytes.len() - 30, 100, 10] {
            let err = read(&bytes[..cut]).unwrap_err().to_string();
            assert!(
                err.contains("truncated") || err.contains("not a"),
                "{cut}: {err}"
            );
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        let altered = text.replace("chunk 0 5 7 3", "chunk 0 5 8 3");
        let err = read(altered.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");
        let dropped: String = text
            .lines()
            .filter(|l| !l.starts_with("puzzle"))
            .map(|l| format!("{l}\n"))
            .collect();
        let err = read(dropped.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("records"), "{err}");
        assert!(read(b"hello\n").unwrap_err().to_string().contains("not a"));
    }
}

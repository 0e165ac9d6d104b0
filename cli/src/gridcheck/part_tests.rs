//! Parts written and read back; the property tests over a real scan's part are in
//! `part_props.rs`.
use std::path::Path;

use super::*;
use crate::durable::Reader;

pub(super) const GRID: &str =
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

/// A fingerprint of a one-grid run for three-clue puzzles, nothing forced.
pub(super) fn fingerprint(grids: usize) -> String {
    format!(
        "xcover=0 clues=3 mask={:032x}/{:032x} minimal=0 grids={grids}:00",
        0, 0
    )
}

fn sample() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut writer = PartWriter::new(
        &mut bytes,
        Path::new("sample"),
        Shard { index: 1, count: 3 },
        &fingerprint(2),
    )
    .unwrap();
    let prepared = PreparedSummary {
        chunks: 2,
        text: "UA 5 (generated)".into(),
        impossible: String::new(),
    };
    let counts = Counts {
        nodes: 7,
        candidates: 3,
    };
    let puzzle = format!("123{}", "0".repeat(78));
    writer
        .grid(0, GRID, &prepared, vec![(5, counts)], vec![puzzle])
        .unwrap();
    writer.grid(1, GRID, &prepared, vec![], vec![]).unwrap();
    writer.finish().unwrap();
    bytes
}

pub(crate) fn read_bytes(bytes: &[u8]) -> Result<Part> {
    let name = Path::new("part-x");
    read_from(Reader::new(bytes, name, FORMAT, 1 << 30), name)
}

#[test]
fn a_written_part_reads_back() {
    let part = read_bytes(&sample()).unwrap();
    assert_eq!(part.shard, Shard { index: 1, count: 3 });
    assert_eq!(part.fingerprint, fingerprint(2));
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
    assert_eq!(
        part.grids[0].puzzles,
        vec![format!("123{}", "0".repeat(78))]
    );
    assert!(part.grids[1].chunks.is_empty());
}

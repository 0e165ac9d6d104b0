//! The workspace formulas the README states, checked against the code: gridcheck's
//! per-thread `WorkspaceSize` (its three modes), and that a chunk run refuses a workspace
//! one entry short of it.
use xcover_core::gridcheck::scan::bitmap768::{BitmapTable, WORDS};
use xcover_core::gridcheck::scan::wide::WIDE_WORDS;
use xcover_core::gridcheck::scan::{
    self, ChunkRun, ClueMask, ScanOptions, TruncationLimits, Workspace, WorkspaceSize,
};
use xcover_core::gridcheck::{Cells, Grid};

const GRID: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";

/// The README's bitmap table size, in bytes.
const BITMAP_TABLE_BYTES: usize = 20_256;

/// The README's formula: per thread, with `kept` UA kept and `free` free clues,
/// `16·list + 96·states + 512·wide + 20256` where `states = free + 1`,
/// `list = kept·(free − 1)` above 4096 kept sets (else 0), and `wide = free + 1` for
/// 769 ..= 4096 kept sets (else 0).
fn readme_bytes(kept: usize, free: usize) -> usize {
    let list = if kept > 4096 { kept * (free - 1) } else { 0 };
    let wide = if kept > 768 && kept <= 4096 {
        free + 1
    } else {
        0
    };
    16 * list + 96 * (free + 1) + 512 * wide + BITMAP_TABLE_BYTES
}

#[test]
fn the_constants_are_the_readmes() {
    assert_eq!(std::mem::size_of::<BitmapTable>(), BITMAP_TABLE_BYTES);
    assert_eq!(WORDS * 8, 96);
    assert_eq!(WIDE_WORDS * 16, 512);
}

#[test]
fn workspace_size_follows_the_formula_in_every_mode() {
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    let uas = xcover_cli::gridcheck::ua_source::generate(&grid, 3000, 1, Cells::EMPTY).unwrap();
    assert!(
        uas.len() > 4096,
        "{} UA: enough for the list mode",
        uas.len()
    );
    let masked = {
        let mut o = ScanOptions::new(18);
        o.mask = ClueMask::parse(b"...1..1..11..........1.....11..1...........11.1.....1").unwrap();
        o
    };
    let mut modes = Vec::new();
    for (options, keep) in [
        (ScanOptions::new(17), 600),  // bitmap mode only
        (ScanOptions::new(17), 2000), // wide mode
        (ScanOptions::new(16), 6000), // list mode
        (masked, 768),
    ] {
        let mut options = options;
        options.truncation = Some(TruncationLimits {
            small: keep * 3 / 4,
            total: keep,
        });
        let mut work = vec![0u128; scan::required_work_entries(uas.len(), &options)];
        let prepared = scan::prepare(&grid, &uas, &options, &mut work).unwrap();
        let kept = prepared.kept_len();
        let free = usize::from(prepared.free_clues());
        let size = WorkspaceSize::for_scan(&prepared);
        assert_eq!(
            size.bytes(),
            readme_bytes(kept, free),
            "kept {kept} free {free}"
        );
        modes.push((size.list_entries > 0, size.wide_states > 0));

        // Exactly that much storage runs a chunk; one state less is refused.
        let chunk = prepared.chunks().next().unwrap();
        let mut lists = vec![0u128; size.list_entries];
        let mut table = Box::new(BitmapTable::new());
        let mut states = vec![[0u64; WORDS]; size.states];
        let mut wide = vec![[0u128; WIDE_WORDS]; size.wide_states];
        let workspace = Workspace::new(&mut lists, &mut table, &mut states, &mut wide);
        assert!(ChunkRun::new(&prepared, workspace, chunk).is_ok());
        let short = size.states - 1;
        let workspace = Workspace::new(&mut lists, &mut table, &mut states[..short], &mut wide);
        assert!(ChunkRun::new(&prepared, workspace, chunk).is_err());
    }
    assert!(modes.contains(&(true, false)), "list mode seen: {modes:?}");
    assert!(modes.contains(&(false, true)), "wide mode seen: {modes:?}");
    assert!(
        modes.contains(&(false, false)),
        "bitmap mode seen: {modes:?}"
    );
}

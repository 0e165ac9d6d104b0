//! The workspace formulas the README states, checked against the code: gridcheck's
//! per-thread `WorkspaceSize` (the band engine's words included), and that a chunk run
//! refuses a workspace one state or one band word short of it.
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkRun, ClueMask, LevelState, ScanOptions, TruncationLimits,
    WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::{Cells, Grid};

const GRID: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";

/// The README's bitmap table size, in bytes.
const BITMAP_TABLE_BYTES: usize = 39_216;

/// The README's formula: per thread, with `free` free clues, `96·(free + 1) + 39216`.
fn readme_bytes(free: usize) -> usize {
    96 * (free + 1) + BITMAP_TABLE_BYTES
}

#[test]
fn the_constants_are_the_readmes() {
    assert_eq!(std::mem::size_of::<BitmapTable>(), BITMAP_TABLE_BYTES);
    assert_eq!(std::mem::size_of::<LevelState>(), 96);
}

#[test]
fn workspace_size_follows_the_formula() {
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    let uas = xcover_cli::gridcheck::ua_source::generate(&grid, 3000, 1, Cells::EMPTY).unwrap();
    let masked = {
        let mut o = ScanOptions::new(18);
        o.mask = ClueMask::parse(b"...1..1..11..........1.....11..1...........11.1.....1").unwrap();
        o
    };
    for (options, keep) in [
        (ScanOptions::new(17), 600),
        (ScanOptions::new(16), 6000),
        (masked, 768),
    ] {
        let mut options = options;
        options.truncation = Some(TruncationLimits { total: keep });
        let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
        let prepared = scan::prepare(&grid, &uas, &options, &mut work).unwrap();
        let free = usize::from(prepared.free_clues());
        let size = WorkspaceSize::for_scan(&prepared);
        assert_eq!(size.bytes(), readme_bytes(free), "free {free}");

        // Exactly that much storage runs a chunk; one state less is refused.
        let chunk = prepared.chunks().next().unwrap();
        let mut table = Box::new(BitmapTable::new());
        let mut states = vec![LevelState::ZERO; size.states];
        let workspace = WorkspaceView::new(&mut table, &mut states);
        assert!(ChunkRun::new(&prepared, workspace, chunk).is_ok());
        let short = size.states - 1;
        let workspace = WorkspaceView::new(&mut table, &mut states[..short]);
        assert!(ChunkRun::new(&prepared, workspace, chunk).is_err());
    }
}

/// The README's band words of a whole-grid scan on the band engine, in bytes per thread.
const BAND_BYTES: usize = 4_847_104;

#[test]
fn a_whole_grid_on_the_band_engine_adds_the_band_words() {
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    let uas = xcover_cli::gridcheck::ua_source::generate(&grid, 300, 1, Cells::EMPTY).unwrap();
    let options = ScanOptions::new(16);
    let mut work = vec![0u128; scan::prepare_work_entries(uas.len())];
    let prepared = scan::prepare_with_bands(&grid, &uas, &options, &mut work).unwrap();
    assert_eq!(prepared.engine(), scan::Engine::Bands);
    let size = WorkspaceSize::for_scan(&prepared);
    assert_eq!(size.band_words * 8, BAND_BYTES);
    assert_eq!(size.bytes(), readme_bytes(16) + BAND_BYTES);

    // Exactly that many band words run a chunk; one word less is refused.
    let chunk = prepared.chunks().next().unwrap();
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut words = vec![0u64; size.band_words];
    let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut words);
    assert!(ChunkRun::new(&prepared, workspace, chunk).is_ok());
    let short = size.band_words - 1;
    let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut words[..short]);
    assert!(ChunkRun::new(&prepared, workspace, chunk).is_err());
}

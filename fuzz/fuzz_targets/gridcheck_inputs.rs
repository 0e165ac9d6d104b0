//! Arbitrary bytes through the grid checker's input parsers (grid, puzzle, clue mask, UA
//! file lines), then a small budgeted scan. The input is split into lines:
//!
//! - line 0: control bytes (clue count offset, flags, UA generation, chunk, budget, and
//!   whether a whole grid runs on the band engine, as the command runs it);
//! - line 1: a solution grid (a fixed valid grid is used when it does not parse);
//! - line 2: a puzzle; line 3: a clue mask; the remaining lines: a UA file.
//!
//! Checked besides "no panic": a UA written out parses back to the same set; every set the
//! scan reads is verified; every puzzle the scan reports has N clues, respects the mask and
//! is unique (by the solver).
#![no_main]

use core::fmt::{self, Write};
use core::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use xcover_core::gridcheck::scan::{
    self, BitmapTable, ChunkId, ChunkRun, ClueMask, LevelState, RunStatus, ScanOptions,
    TruncationLimits, WorkspaceSize, WorkspaceView,
};
use xcover_core::gridcheck::ua::Antichain;
use xcover_core::gridcheck::ua::{self, file, generate, UaList};
use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

/// A valid grid (case c00 of cli/tests/fixtures/gridcheck/cases18.tsv).
const FALLBACK_GRID: &[u8] =
    b"216378945487259163359146782673521894948637251125894637591462378732985416864713529";

struct Text(String);

impl Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.0.len() < 1 << 16 {
            self.0.push_str(s);
        }
        Ok(())
    }
}

/// `XCOVER_FUZZ_TRACE=1` reports what an input exercised.
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("XCOVER_FUZZ_TRACE").is_some())
}

fn byte(control: &[u8], i: usize) -> u8 {
    control.get(i).copied().unwrap_or(0)
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 1 << 14 {
        return;
    }
    let mut lines = data.split(|&b| b == b'\n');
    let control = lines.next().unwrap_or(&[]);
    let grid_line = lines.next().unwrap_or(&[]);
    let puzzle_line = lines.next().unwrap_or(&[]);
    let mask_line = lines.next().unwrap_or(&[]);
    let rest_start = data
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(3)
        .map_or(data.len(), |(i, _)| i + 1);
    let ua_text = &data[rest_start..];

    // 1. Grid.
    let grid = Grid::parse(grid_line)
        .unwrap_or_else(|_| Grid::parse(FALLBACK_GRID).expect("fallback grid is valid"));
    let digits = *grid.digits();
    assert_eq!(
        Grid::from_digits(digits).ok(),
        Some(grid),
        "grid round trip"
    );

    // 2. Puzzle: parse, check against the grid, solve (limit 2).
    let mut puzzle_givens = Cells::EMPTY;
    if let Ok(p) = Puzzle::parse(puzzle_line) {
        let _ = p.clue_count();
        if p.check_against(&grid).is_ok() {
            puzzle_givens = p.givens();
            let unique = solver::is_unique_with_grid(&grid, p.givens());
            if unique {
                assert_eq!(
                    solver::count_solutions(&p, 2),
                    1,
                    "unique with grid, not alone"
                );
            }
        } else if p.clue_count() >= 17 {
            let _ = solver::count_solutions(&p, 2);
        }
        let back = Puzzle::from_digits(*p.digits()).expect("parsed puzzle digits re-read");
        assert_eq!(back.givens(), p.givens());
    }

    // 3. Clue mask: the input's, or forced givens taken from the puzzle / the grid.
    let parsed_mask = ClueMask::parse(mask_line);
    let mut mask = parsed_mask.unwrap_or(ClueMask::FREE);
    let want_forced = 10 + u32::from(byte(control, 0) % 6);
    let mut filler = if puzzle_givens.is_empty() {
        Cells::ALL
    } else {
        puzzle_givens
    };
    // Deterministic spread: steps of 7 from a cell chosen by the control bytes (7 is
    // prime to 81, so 81 steps visit every cell once).
    let mut cell = byte(control, 1) % 81;
    for _ in 0..81 {
        if mask.givens.len() >= want_forced {
            break;
        }
        if filler.contains(cell) && !mask.empties.contains(cell) {
            mask.givens.insert(cell);
            filler.remove(cell);
        }
        cell = (cell + 7) % 81;
    }

    // 4. UA: parse each line, read the file into a small list (plain and verified), generate.
    let mut written = Text(String::new());
    for line in ua_text.split(|&b| b == b'\n').take(200) {
        if let Ok(Some(set)) = file::parse_ua_line(line) {
            written.0.clear();
            file::write_masks(&[set], &mut written).expect("write a mask");
            let back = file::parse_ua_line(written.0.trim_end().as_bytes());
            assert_eq!(back, Ok(Some(set)), "mask round trip");
            written.0.clear();
            file::write_cell_lists(&[set], &mut written).expect("write a cell list");
            let back = file::parse_ua_line(written.0.trim_end().as_bytes());
            assert_eq!(back, Ok(Some(set)), "cell list round trip");
        }
    }
    let mut plain_storage = [Cells::EMPTY; 24];
    let mut plain = UaList::new(&mut plain_storage);
    let _ = file::read(ua_text, &mut plain);
    let mut storage = vec![Cells::EMPTY; 64 + 256];
    let mut list = UaList::new(&mut storage);
    if file::read_verified(&grid, ua_text, &mut list).is_err() {
        list.clear();
    }
    for &set in list.as_slice() {
        assert!(ua::verify_ua(&grid, set), "read_verified kept a non-UA");
    }
    let flags = byte(control, 2);
    let mut scratch = vec![Cells::EMPTY; 64 << (flags & 3)];
    let random = u32::from(byte(control, 3) % 4);
    let seed = u64::from(byte(control, 4));
    // Few blanks: every pseudo-puzzle's solutions are enumerated, and 54 blanks (the
    // CLI's) cost ~100 ms per input here.
    let blanks = 16 + u32::from(byte(control, 5) % 16);
    let _ = generate::from_random_blanks(&grid, random, blanks, seed, &mut list, &mut scratch);
    // All UA of two digits (18 blank cells each, cheap): enough to prune most scans.
    let _ = generate::from_digit_subsets(
        &grid,
        if flags & 4 != 0 { 3 } else { 2 },
        &mut list,
        &mut scratch,
    );
    if flags & 8 != 0 {
        let _ = generate::from_box_subsets(&grid, 2, &mut list, &mut scratch);
    }
    // A UA inside the blanks of the mask's free cells (a few), through the antichain.
    {
        let mut chain = Antichain::new(&mut scratch);
        let blank = mask.givens.complement().difference(mask.empties);
        if blank.len() <= 24 {
            generate::minimal_ua_inside(&grid, blank, &mut chain);
        }
    }
    list.dedup();
    let uas: Vec<Cells> = list.as_slice().to_vec();
    for &set in uas.iter().take(4) {
        assert!(ua::verify_ua(&grid, set), "generated set is not a UA");
        let _ = ua::is_minimal_ua(&grid, set);
    }

    if trace() {
        let bad = uas.iter().filter(|&&u| !ua::verify_ua(&grid, u)).count();
        let missed = uas
            .iter()
            .filter(|&&u| u.is_disjoint(puzzle_givens))
            .count();
        eprintln!(
            "{} UA ({bad} not verified, {missed} missed by the puzzle's givens); mask {} givens {} empties; puzzle {} givens",
            uas.len(),
            mask.givens.len(),
            mask.empties.len(),
            puzzle_givens.len()
        );
    }

    // 5. Scan: N = forced + a few (sometimes a bad count), small budget, one or two chunks.
    let forced = mask.givens.len() as u8;
    let clues = match byte(control, 6) % 16 {
        0 => 0,
        1 => 82,
        2 => forced.saturating_sub(1),
        k => forced.saturating_add(k % 4 + 1),
    };
    let mut options = ScanOptions::new(clues);
    options.mask = mask;
    options.stop_at_first = flags & 16 != 0;
    options.minimal_only = flags & 32 != 0;
    if flags & 64 != 0 {
        options.truncation = Some(TruncationLimits {
            total: usize::from(byte(control, 9)) * 4,
        });
    }
    let needed = scan::prepare_work_entries(uas.len());
    let short = flags & 128 != 0 && needed > 0;
    let mut work = vec![0u128; if short { needed - 1 } else { needed }];
    // As the command prepares it (a whole grid on the band engine), or the enumeration.
    let prepare = if byte(control, 14) & 1 != 0 {
        scan::prepare_with_bands
    } else {
        scan::prepare
    };
    let prepared = match prepare(&grid, &uas, &options, &mut work) {
        Ok(p) => p,
        Err(e) => {
            if trace() {
                eprintln!("prepare: {e}");
            }
            return;
        }
    };
    if trace() {
        eprintln!(
            "prepared: N {clues}, forced {} (+{} extra), free clues {}, kept {}, impossible {:?}",
            prepared.forced_givens().len(),
            prepared.extra_forced_givens().len(),
            prepared.free_clues(),
            prepared.kept_len(),
            prepared.impossible()
        );
    }
    assert!(!short, "prepare accepted a short work list");
    let _ = (
        prepared.forced_givens(),
        prepared.stats(),
        prepared.free_clues(),
    );
    let size = WorkspaceSize::for_scan(&prepared);
    let _ = size.bytes();
    let mut table = Box::new(BitmapTable::new());
    let mut states = vec![LevelState::ZERO; size.states];
    let mut band_words = vec![0u64; size.band_words];
    let mut chunks: Vec<ChunkId> = prepared.chunks().take(64).collect();
    // Also a chunk number straight from the input (may be invalid).
    let raw = u32::from(byte(control, 7)) << 16
        | u32::from(byte(control, 10)) << 8
        | u32::from(byte(control, 11));
    if let Some(c) = ChunkId::from_u32(raw) {
        chunks.insert(0, c);
    }
    let pick = usize::from(byte(control, 12));
    // The budget counts placements, and with few kept UA nearly every placement is a
    // solver call (~0.5 ms under ASan): keep the steps per input to a few thousand.
    let budget = 1 + u64::from(byte(control, 13) % 32) * 16;
    let whole_budget = if prepared.kept_len() > 0 { 5_000 } else { 500 };
    let mut found = Vec::new();
    for &chunk in chunks.iter().skip(pick % chunks.len().max(1)).take(2) {
        let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
        let Ok(mut run) = ChunkRun::new(&prepared, workspace, chunk) else {
            continue;
        };
        for _ in 0..4 {
            let status = run.run(budget, &mut |givens| {
                found.push(givens);
                if found.len() >= 8 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if status != RunStatus::BudgetExhausted {
                break;
            }
        }
        let _ = run.stats();
    }
    // Pausing changes nothing: a chunk that ends within `whole_budget` steps in one call
    // finds the same puzzles, in the same order, with the same counters, in slices.
    if let Some(&chunk) = chunks.get(pick % chunks.len().max(1)) {
        let mut whole_found = Vec::new();
        let mut sliced_found = Vec::new();
        let whole = {
            let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
            ChunkRun::new(&prepared, workspace, chunk)
                .ok()
                .map(|mut run| {
                    let status = run.run(whole_budget, &mut |g| {
                        whole_found.push(g);
                        ControlFlow::Continue(())
                    });
                    (status, run.stats())
                })
        };
        if let Some((RunStatus::Done, whole_stats)) = whole {
            let workspace = WorkspaceView::new(&mut table, &mut states).with_bands(&mut band_words);
            let mut run = ChunkRun::new(&prepared, workspace, chunk).expect("chunk ran before");
            let mut calls = 0u64;
            while run.run(budget, &mut |g| {
                sliced_found.push(g);
                ControlFlow::Continue(())
            }) == RunStatus::BudgetExhausted
            {
                calls += 1;
                assert!(calls <= 40_000, "sliced run does not end");
            }
            assert_eq!(
                whole_found, sliced_found,
                "slices of {budget} steps find other puzzles"
            );
            assert_eq!(
                whole_stats,
                run.stats(),
                "slices of {budget} steps count differently"
            );
            if trace() {
                eprintln!(
                    "compared chunk {chunk:?}: {} found, {:?}",
                    whole_found.len(),
                    whole_stats
                );
            }
        }
        found.extend(whole_found.iter().take(8));
    }
    for &givens in found.iter().take(4) {
        assert_eq!(
            givens.len(),
            u32::from(clues),
            "clue count of a found puzzle"
        );
        assert!(mask.givens.is_subset_of(givens), "forced givens dropped");
        assert!(givens.is_disjoint(mask.empties), "forced empty used");
        assert!(
            solver::is_unique_with_grid(&grid, givens),
            "found puzzle not unique"
        );
    }
});

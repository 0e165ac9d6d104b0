//! The `gridcheck_*` C API driven from Rust: whole scans against the fixture, chunks split
//! over two threads (one workspace each) and budgets of one step give the same puzzles,
//! the flags, the UA input, and the statuses of the life cycle.
use std::collections::BTreeSet;
use std::ffi::{c_char, c_void, CStr, CString};
use xcover::gridcheck::gridcheck_state::*;
use xcover::gridcheck::*;
use xcover::xcover_status::{self, *};
use xcover_core::gridcheck::solver::is_unique_with_grid;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

const GRID: &str =
    "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
const MASK: &str =
    "...1..1..11..........1.....11..1...........11.1.....1............................";

const LIMITS: gridcheck_limits = gridcheck_limits {
    max_ua: 1024,
    keep_ua: 768,
    ua_scratch: 4096,
    max_clues: 81,
};

/// A workspace in a Vec it owns (the Vec outlives the handle).
struct Ws {
    _buf: Vec<u64>,
    h: *mut gridcheck_workspace,
    bytes: usize,
}

// SAFETY: the handle points into `_buf`, owned by the same value; moving the Vec does not
// move its heap buffer, and a workspace is used by one thread at a time.
unsafe impl Send for Ws {}

fn new_ws(limits: &gridcheck_limits) -> Ws {
    let (mut bytes, mut align) = (0, 0);
    // SAFETY: valid locals; the buffer outlives the workspace (kept in Ws).
    unsafe {
        assert_eq!(
            gridcheck_workspace_size(limits, &mut bytes, &mut align),
            XCOVER_OK
        );
        assert_eq!(align, 8);
        let mut buf = vec![0u64; bytes.div_ceil(8)];
        let mut h = std::ptr::null_mut();
        assert_eq!(
            gridcheck_init(buf.as_mut_ptr().cast(), bytes, limits, &mut h),
            XCOVER_OK
        );
        Ws {
            _buf: buf,
            h,
            bytes,
        }
    }
}

fn cstr(text: &str) -> CString {
    CString::new(text).unwrap()
}

/// Grid, options, generated UA, prepare.
fn prepared(clues: u32, mask: Option<&str>, flags: u32) -> Ws {
    let ws = new_ws(&LIMITS);
    let mask = mask.map(cstr);
    // SAFETY: live handle; NUL-terminated texts.
    unsafe {
        assert_eq!(gridcheck_set_grid(ws.h, cstr(GRID).as_ptr()), XCOVER_OK);
        let mask_ptr = mask.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
        assert_eq!(
            gridcheck_set_options(ws.h, clues, mask_ptr, flags),
            XCOVER_OK
        );
        assert_eq!(gridcheck_generate_ua(ws.h, 300, 1), XCOVER_OK);
        assert_eq!(gridcheck_prepare(ws.h), XCOVER_OK);
    }
    ws
}

unsafe extern "C" fn collect(ctx: *mut c_void, puzzle: *const c_char) -> i32 {
    // SAFETY: ctx is the Vec<String> passed below; the library passes a C string.
    unsafe {
        let text = CStr::from_ptr(puzzle).to_str().unwrap().to_owned();
        (*ctx.cast::<Vec<String>>()).push(text);
    }
    0
}

/// Runs `chunk` to its end in steps of `budget`; returns the final status and the steps.
fn run_chunk(ws: &Ws, chunk: u32, budget: u64, found: &mut Vec<String>) -> (xcover_status, u32) {
    let mut calls = 0;
    // SAFETY: live handle; `found` outlives the calls.
    unsafe {
        assert_eq!(gridcheck_chunk_begin(ws.h, chunk), XCOVER_OK);
        loop {
            calls += 1;
            let s = gridcheck_step(
                ws.h,
                budget,
                Some(collect),
                (found as *mut Vec<String>).cast(),
            );
            if s != XCOVER_BUDGET_EXHAUSTED {
                return (s, calls);
            }
        }
    }
}

fn chunk_ids(ws: &Ws) -> Vec<u32> {
    let mut count = 0;
    let mut ids = vec![0u32; GRIDCHECK_MAX_CHUNKS];
    // SAFETY: live handle, ids has GRIDCHECK_MAX_CHUNKS slots.
    unsafe {
        assert_eq!(
            gridcheck_chunk_list(ws.h, ids.as_mut_ptr(), ids.len(), &mut count),
            XCOVER_OK
        );
    }
    ids.truncate(count);
    ids
}

fn stats(ws: &Ws) -> gridcheck_stats {
    let mut s = gridcheck_stats::default();
    // SAFETY: live handle, valid out pointer.
    assert_eq!(unsafe { gridcheck_get_stats(ws.h, &mut s) }, XCOVER_OK);
    s
}

fn fixture_c00() -> BTreeSet<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/fixtures/gridcheck/cases18.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!((row[3], row[5], row[7]), (GRID, MASK, "18"));
    row[11].split(';').map(str::to_owned).collect()
}

/// Every puzzle: `clues` givens of the grid, unique, the mask's givens kept.
fn check_puzzles(found: &[String], clues: usize) {
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    for line in found {
        let puzzle = Puzzle::parse(line.as_bytes()).unwrap();
        puzzle.check_against(&grid).unwrap();
        assert_eq!(puzzle.clue_count() as usize, clues, "{line}");
        assert!(is_unique_with_grid(&grid, puzzle.givens()), "{line}");
        for (m, p) in MASK.bytes().zip(line.bytes()) {
            assert!(m != b'1' || p != b'0', "{line} drops a forced given");
        }
    }
}

#[test]
fn chunks_in_one_step_budgets_give_the_fixture_puzzles() {
    let ws = prepared(18, Some(MASK), 0);
    let ids = chunk_ids(&ws);
    assert!(ids.len() > 50, "{} chunks", ids.len());
    let mut found = Vec::new();
    let mut pauses = 0;
    for &id in &ids {
        let (status, calls) = run_chunk(&ws, id, 1, &mut found);
        assert_eq!(status, XCOVER_DONE);
        pauses += calls - 1;
    }
    let set: BTreeSet<String> = found.iter().cloned().collect();
    assert_eq!(set.len(), found.len(), "a puzzle was reported twice");
    assert_eq!(set, fixture_c00());
    check_puzzles(&found, 18);
    let s = stats(&ws);
    // A budget of one step pauses the run every few steps (the last-two shortcut and a
    // solver check take several in one go).
    assert!(
        pauses > 100 && u64::from(pauses * 4) > s.steps,
        "budget 1 paused only {pauses} times in {} steps",
        s.steps
    );
    assert_eq!(s.found, 81);
    assert_eq!(s.chunks_done, ids.len() as u64);
    assert_eq!(s.forced_givens, 12);
    assert!(s.ua_count >= s.ua_after_forced && s.ua_kept > 0 && s.steps > 0);
    assert_eq!(s.impossible, GRIDCHECK_POSSIBLE);

    // The whole scan in one chunk and one call: same puzzles.
    let whole = prepared(18, Some(MASK), 0);
    let mut all = Vec::new();
    assert_eq!(
        run_chunk(&whole, GRIDCHECK_CHUNK_WHOLE, u64::MAX, &mut all),
        (XCOVER_DONE, 1)
    );
    assert_eq!(all.iter().cloned().collect::<BTreeSet<_>>(), set);
}

#[test]
fn two_threads_with_a_workspace_each_share_the_chunks() {
    let ids = &chunk_ids(&prepared(18, Some(MASK), 0));
    let halves: Vec<Vec<u32>> = (0..2)
        .map(|t| ids.iter().copied().skip(t).step_by(2).collect())
        .collect();
    let results: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = halves
            .iter()
            .map(|mine| {
                scope.spawn(move || {
                    let ws = prepared(18, Some(MASK), 0);
                    // Preparation is deterministic: the ids listed elsewhere are this scan's.
                    assert_eq!(&chunk_ids(&ws), ids);
                    let mut found = Vec::new();
                    for &id in mine {
                        assert_eq!(run_chunk(&ws, id, 5000, &mut found).0, XCOVER_DONE);
                    }
                    found
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let union: BTreeSet<String> = results.iter().flatten().cloned().collect();
    assert_eq!(results[0].len() + results[1].len(), union.len());
    assert_eq!(union, fixture_c00());
}

#[test]
fn minimal_and_stop_at_first_flags() {
    let ws = prepared(18, Some(MASK), GRIDCHECK_MINIMAL);
    let mut minimal = Vec::new();
    assert_eq!(
        run_chunk(&ws, GRIDCHECK_CHUNK_WHOLE, 10_000, &mut minimal).0,
        XCOVER_DONE
    );
    let all = fixture_c00();
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    // Exactly the fixture's puzzles none of whose clues can be removed.
    let expected: BTreeSet<String> = all
        .iter()
        .filter(|line| {
            let givens = Puzzle::parse(line.as_bytes()).unwrap().givens();
            givens
                .iter()
                .all(|c| !is_unique_with_grid(&grid, givens - Cells::single(c)))
        })
        .cloned()
        .collect();
    assert_eq!(minimal.iter().cloned().collect::<BTreeSet<_>>(), expected);

    let ws = prepared(18, Some(MASK), GRIDCHECK_STOP_AT_FIRST);
    let mut out = [0 as c_char; GRIDCHECK_PUZZLE_BYTES];
    // SAFETY: live handle, 82-byte output.
    unsafe {
        assert_eq!(
            gridcheck_last_puzzle(ws.h, out.as_mut_ptr(), out.len()),
            XCOVER_GRIDCHECK_NO_PUZZLE
        );
        assert_eq!(
            gridcheck_chunk_begin(ws.h, GRIDCHECK_CHUNK_WHOLE),
            XCOVER_OK
        );
        let mut status = XCOVER_BUDGET_EXHAUSTED;
        while status == XCOVER_BUDGET_EXHAUSTED {
            status = gridcheck_step(ws.h, 100, None, std::ptr::null_mut());
        }
        assert_eq!(status, XCOVER_STOPPED);
        assert_eq!(
            gridcheck_step(ws.h, 100, None, std::ptr::null_mut()),
            XCOVER_STOPPED
        );
        assert_eq!(
            gridcheck_last_puzzle(ws.h, out.as_mut_ptr(), out.len()),
            XCOVER_OK
        );
        let first = CStr::from_ptr(out.as_ptr()).to_str().unwrap();
        assert!(all.contains(first), "{first}");
    }
    assert_eq!(stats(&ws).found, 1);
}

#[test]
fn ua_input_is_verified_and_capacities_hold() {
    let limits = gridcheck_limits {
        max_ua: 2,
        ..LIMITS
    };
    let ws = new_ws(&limits);
    let grid = Grid::parse(GRID.as_bytes()).unwrap();
    // Digits 1 and 2 swapped: a UA, as a 0/1 mask and as a {rc,...} list.
    let pair = grid.cells_of_digit(1) | grid.cells_of_digit(2);
    let as_mask: String = (0..81u8)
        .map(|c| if pair.contains(c) { '1' } else { '0' })
        .collect();
    let as_list = format!(
        "{{{}}}",
        pair.iter()
            .map(|c| format!("{}{}", c / 9 + 1, c % 9 + 1))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut count = 0;
    // SAFETY: live handle, NUL-terminated texts.
    unsafe {
        assert_eq!(gridcheck_set_grid(ws.h, cstr(GRID).as_ptr()), XCOVER_OK);
        assert_eq!(
            gridcheck_add_ua(ws.h, cstr(&format!("{as_mask}\n")).as_ptr()),
            XCOVER_OK
        );
        assert_eq!(
            gridcheck_add_ua(ws.h, cstr("{11,12}").as_ptr()),
            XCOVER_GRIDCHECK_NOT_A_UA
        );
        assert_eq!(
            gridcheck_add_ua(ws.h, cstr("{1x}").as_ptr()),
            XCOVER_GRIDCHECK_BAD_UA_TEXT
        );
        assert_eq!(
            gridcheck_add_ua(ws.h, cstr(&"1".repeat(600)).as_ptr()),
            XCOVER_GRIDCHECK_BAD_UA_TEXT
        );
        assert_eq!(gridcheck_add_ua(ws.h, cstr(&as_list).as_ptr()), XCOVER_OK);
        assert_eq!(
            gridcheck_add_ua(ws.h, cstr(&as_list).as_ptr()),
            XCOVER_GRIDCHECK_UA_LIST_FULL
        );
        assert_eq!(gridcheck_ua_count(ws.h, &mut count), XCOVER_OK);
        assert_eq!(count, 2);
        assert_eq!(
            gridcheck_set_options(ws.h, 18, cstr(MASK).as_ptr(), 0),
            XCOVER_OK
        );
        assert_eq!(
            gridcheck_generate_ua(ws.h, 10, 1),
            XCOVER_GRIDCHECK_UA_LIST_FULL
        );
        assert_eq!(gridcheck_ua_count(ws.h, &mut count), XCOVER_OK);
        assert_eq!(count, 2);
        // Still usable (a scan with two UA is correct but slow, so only prepared here).
        assert_eq!(gridcheck_prepare(ws.h), XCOVER_OK);
    }
    assert_eq!(stats(&ws).ua_count, 2);
}

/// The state and the counters of a workspace.
fn state_and_stats(ws: &Ws) -> (u32, gridcheck_stats) {
    let mut state = 0;
    // SAFETY: live handle, valid out pointer.
    assert_eq!(unsafe { gridcheck_get_state(ws.h, &mut state) }, XCOVER_OK);
    (state, stats(ws))
}

/// A call of the C API on a workspace.
type Call = fn(&Ws) -> xcover_status;

/// Each call in order: the grid, the options, a UA, generation, the default generation,
/// prepare, the chunk list, a chunk begun, a step.
const CALLS: [(&str, Call); 9] = [
    // SAFETY (each): live handle; NUL-terminated texts; valid out pointers.
    ("set_grid", |ws| unsafe {
        gridcheck_set_grid(ws.h, cstr(GRID).as_ptr())
    }),
    ("set_options", |ws| unsafe {
        gridcheck_set_options(ws.h, 18, cstr(MASK).as_ptr(), 0)
    }),
    ("add_ua", |ws| unsafe {
        gridcheck_add_ua(
            ws.h,
            cstr(
                &GRID
                    .replace(['1', '2'], "1")
                    .replace(['3', '4', '5', '6', '7', '8', '9'], "0"),
            )
            .as_ptr(),
        )
    }),
    ("generate_ua", |ws| unsafe {
        gridcheck_generate_ua(ws.h, 300, 1)
    }),
    ("generate_default_ua", |ws| unsafe {
        gridcheck_generate_default_ua(ws.h, 1)
    }),
    ("prepare", |ws| unsafe { gridcheck_prepare(ws.h) }),
    ("chunk_list", |ws| unsafe {
        let mut count = 0;
        gridcheck_chunk_list(ws.h, std::ptr::null_mut(), 0, &mut count)
    }),
    ("chunk_begin", |ws| unsafe {
        gridcheck_chunk_begin(ws.h, GRIDCHECK_CHUNK_WHOLE)
    }),
    ("step", |ws| unsafe {
        gridcheck_step(ws.h, 1, None, std::ptr::null_mut())
    }),
];

/// The calls `allowed` (by index in CALLS) are left out; every other one is refused with
/// XCOVER_BAD_STATE and leaves the state and the counters as they were: the C state is the
/// session's phase, read from it, so a refused call cannot make them disagree.
fn out_of_order_calls_change_nothing(ws: &Ws, allowed: &[usize]) {
    let before = state_and_stats(ws);
    for (i, (name, call)) in CALLS.iter().enumerate() {
        if allowed.contains(&i) {
            continue;
        }
        assert_eq!(call(ws), XCOVER_BAD_STATE, "{name} in state {}", before.0);
        assert_eq!(state_and_stats(ws), before, "{name} in state {}", before.0);
    }
}

#[test]
fn every_call_out_of_order_is_refused_and_changes_nothing() {
    let ws = new_ws(&LIMITS);
    // The calls allowed in each state; the first of them moves on to the next state.
    let steps: [(&[usize], usize, gridcheck_state); 5] = [
        (&[0], 0, GRIDCHECK_STATE_GRID),
        (&[1, 2], 1, GRIDCHECK_STATE_OPTIONS),
        (&[1, 2, 3, 4, 5], 5, GRIDCHECK_STATE_PREPARED),
        (&[6, 7], 7, GRIDCHECK_STATE_RUNNING),
        (&[6, 7, 8], 8, GRIDCHECK_STATE_RUNNING),
    ];
    for (allowed, next, state) in steps {
        out_of_order_calls_change_nothing(&ws, allowed);
        if next == 5 {
            // The UA make the scan quick.
            assert_eq!(CALLS[3].1(&ws), XCOVER_OK);
        }
        let status = CALLS[next].1(&ws);
        assert!(
            matches!(status, XCOVER_OK | XCOVER_BUDGET_EXHAUSTED),
            "{}: {status:?}",
            CALLS[next].0
        );
        assert_eq!(state_and_stats(&ws).0, state as u32);
    }
    // Run to the end: CHUNK_DONE allows the same calls as RUNNING.
    // SAFETY: live handle.
    while unsafe { gridcheck_step(ws.h, 1000, None, std::ptr::null_mut()) }
        == XCOVER_BUDGET_EXHAUSTED
    {}
    assert_eq!(state_and_stats(&ws).0, GRIDCHECK_STATE_CHUNK_DONE as u32);
    out_of_order_calls_change_nothing(&ws, &[6, 7, 8]);
}

#[test]
fn life_cycle_states_and_reinit() {
    let ws = new_ws(&LIMITS);
    let mut state = 0;
    let state_of = |state: &mut u32| {
        // SAFETY: live (or released) handle inside ws's buffer; valid out pointer.
        unsafe { gridcheck_get_state(ws.h, state) }
    };
    assert_eq!(state_of(&mut state), XCOVER_OK);
    assert_eq!(state, GRIDCHECK_STATE_EMPTY as u32);
    // SAFETY: live handle; texts NUL-terminated; the buffer is ws's.
    unsafe {
        let mut other = std::ptr::null_mut();
        assert_eq!(
            gridcheck_init(ws.h.cast(), ws.bytes, &LIMITS, &mut other),
            XCOVER_ALREADY_INITIALIZED
        );
        assert_eq!(
            gridcheck_set_grid(ws.h, cstr(&GRID[1..]).as_ptr()),
            XCOVER_GRIDCHECK_BAD_GRID
        );
        assert_eq!(
            gridcheck_set_grid(ws.h, cstr(&format!("{GRID}\r\n")).as_ptr()),
            XCOVER_OK
        );
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_GRID as u32);
        assert_eq!(
            gridcheck_set_options(ws.h, 18, cstr(&format!("{MASK}1")).as_ptr(), 0),
            XCOVER_GRIDCHECK_BAD_MASK
        );
        assert_eq!(
            gridcheck_set_options(ws.h, 82, std::ptr::null(), 0),
            XCOVER_GRIDCHECK_BAD_CLUES
        );
        // Options can be changed until prepare.
        assert_eq!(
            gridcheck_set_options(ws.h, 17, std::ptr::null(), 0),
            XCOVER_OK
        );
        assert_eq!(
            gridcheck_set_options(ws.h, 18, cstr(MASK).as_ptr(), 0),
            XCOVER_OK
        );
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_OPTIONS as u32);
        assert_eq!(gridcheck_generate_ua(ws.h, 30, 9), XCOVER_OK);
        assert_eq!(gridcheck_prepare(ws.h), XCOVER_OK);
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_PREPARED as u32);
        assert_eq!(
            gridcheck_chunk_begin(ws.h, 0x1_0000),
            XCOVER_GRIDCHECK_BAD_CHUNK
        );
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_PREPARED as u32);
        assert_eq!(
            gridcheck_chunk_begin(ws.h, GRIDCHECK_CHUNK_WHOLE),
            XCOVER_OK
        );
        assert_eq!(
            gridcheck_step(ws.h, 1, None, std::ptr::null_mut()),
            XCOVER_BUDGET_EXHAUSTED
        );
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_RUNNING as u32);
        // Abandon it for a fresh whole run: the total counts both.
        assert_eq!(
            gridcheck_chunk_begin(ws.h, GRIDCHECK_CHUNK_WHOLE),
            XCOVER_OK
        );
        while gridcheck_step(ws.h, 1000, None, std::ptr::null_mut()) == XCOVER_BUDGET_EXHAUSTED {}
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_CHUNK_DONE as u32);
        assert_eq!(stats(&ws).found, 81);
        assert_eq!(stats(&ws).chunks_done, 1);
        assert_eq!(gridcheck_release(ws.h), XCOVER_OK);
        assert_eq!(state_of(&mut state), XCOVER_NOT_INITIALIZED);
        // The released buffer takes a new workspace.
        let mut again = std::ptr::null_mut();
        assert_eq!(
            gridcheck_init(ws.h.cast(), ws.bytes, &LIMITS, &mut again),
            XCOVER_OK
        );
        assert_eq!(again, ws.h);
        assert_eq!(state_of(&mut state), XCOVER_OK);
        assert_eq!(state, GRIDCHECK_STATE_EMPTY as u32);
    }
}

#[test]
fn impossible_scans_have_no_chunks() {
    // 12 forced givens, 13 clues, every other cell forced empty: the 13th clue has
    // nowhere to go.
    let empties: String = MASK
        .chars()
        .map(|c| if c == '1' { '1' } else { '0' })
        .collect();
    let ws = prepared(13, Some(&empties), 0);
    let s = stats(&ws);
    assert_ne!(s.impossible, GRIDCHECK_POSSIBLE);
    assert!(chunk_ids(&ws).is_empty());
    let mut found = Vec::new();
    assert_eq!(
        run_chunk(&ws, GRIDCHECK_CHUNK_WHOLE, 10, &mut found),
        (XCOVER_DONE, 1)
    );
    assert!(found.is_empty());
}

/// `gridcheck_get_grid_error` after `gridcheck_set_grid` of a text: the status it returned,
/// the fields, and the message.
fn grid_error_after(ws: &Ws, text: &[u8]) -> (xcover_status, gridcheck_grid_error, String) {
    let text = CString::new(text).unwrap();
    // SAFETY: live handle, NUL-terminated text, a local for the output.
    unsafe {
        let status = gridcheck_set_grid(ws.h, text.as_ptr());
        let mut why = std::mem::MaybeUninit::<gridcheck_grid_error>::uninit();
        assert_eq!(gridcheck_get_grid_error(ws.h, why.as_mut_ptr()), XCOVER_OK);
        let why = why.assume_init();
        let words = CStr::from_ptr(why.message.as_ptr())
            .to_str()
            .unwrap()
            .to_owned();
        (status, why, words)
    }
}

/// Every kind of bad grid text gets the detail the core parser gives (in the CLI's words,
/// the error's Display) and leaves the workspace EMPTY, ready for a good grid.
#[test]
fn a_refused_grid_says_why_like_the_core_parser() {
    use xcover_core::gridcheck::GridcheckError;
    use xcover_core::gridcheck::House;
    let ws = new_ws(&LIMITS);
    let good = GRID.as_bytes();
    let mut texts: Vec<Vec<u8>> = vec![Vec::new(), good[..80].to_vec(), good[..9].to_vec()];
    // Every pair of cells of the first and the last row swapped, each cell overwritten
    // with a letter or another digit: every house kind, digit, place and byte.
    for a in (0..9).chain(72..81) {
        for b in a + 1..(a / 9 + 1) * 9 {
            let mut t = good.to_vec();
            t.swap(a, b);
            texts.push(t);
        }
    }
    for cell in [0, 40, 80] {
        for byte in [b'0', b'x', 0xff, good[(cell + 1) % 81]] {
            let mut t = good.to_vec();
            t[cell] = byte;
            texts.push(t);
        }
    }
    let mut houses = BTreeSet::new();
    for text in &texts {
        let expected = Grid::parse(text).expect_err("every text is bad");
        let (status, why, words) = grid_error_after(&ws, text);
        assert_eq!(status, XCOVER_GRIDCHECK_BAD_GRID);
        assert_eq!(why.status, XCOVER_GRIDCHECK_BAD_GRID);
        assert_eq!(
            words,
            expected.to_string(),
            "{}",
            String::from_utf8_lossy(text)
        );
        match expected {
            GridcheckError::WrongLength(n) => {
                assert_eq!(
                    (why.kind, why.length as usize),
                    (GRIDCHECK_GRID_WRONG_LENGTH, n)
                )
            }
            GridcheckError::BadChar { pos, byte } => assert_eq!(
                (why.kind, why.position as usize, why.byte),
                (GRIDCHECK_GRID_BAD_CHAR, pos, u32::from(byte))
            ),
            GridcheckError::InvalidSolution { house, digit } => {
                let (kind, index) = match house {
                    House::Row(i) => (GRIDCHECK_HOUSE_ROW, i),
                    House::Column(i) => (GRIDCHECK_HOUSE_COLUMN, i),
                    House::Box(i) => (GRIDCHECK_HOUSE_BOX, i),
                };
                houses.insert(kind);
                assert_eq!(why.kind, GRIDCHECK_GRID_REPEATED_DIGIT);
                assert_eq!(
                    (why.digit, why.house, why.house_number),
                    (u32::from(digit), kind, u32::from(index) + 1)
                );
            }
            other => panic!("Grid::parse gave {other:?}"),
        }
    }
    // Swaps within a row repeat a digit in a column or a box, another digit in a row.
    assert_eq!(houses.len(), 3, "rows, columns and boxes: {houses:?}");
    // Too long: at most 84 bytes are read.
    let long = [good, good].concat();
    let (_, why, words) = grid_error_after(&ws, &long);
    assert_eq!((why.kind, why.length), (GRIDCHECK_GRID_WRONG_LENGTH, 84));
    assert_eq!(words, "expected 81 characters, found 84 or more");
    // A good grid clears the detail; the workspace takes it.
    let (status, why, words) = grid_error_after(&ws, good);
    assert_eq!(
        (status, why.status, why.kind),
        (XCOVER_OK, XCOVER_OK, GRIDCHECK_GRID_NONE)
    );
    assert_eq!(words, "");
    let mut state = 0;
    // SAFETY: live handle, a local for the output.
    unsafe {
        assert_eq!(gridcheck_get_state(ws.h, &mut state), XCOVER_OK);
        assert_eq!(
            gridcheck_get_grid_error(ws.h, std::ptr::null_mut()),
            XCOVER_NULL_POINTER
        );
        assert_eq!(gridcheck_release(ws.h), XCOVER_OK);
        let mut why = std::mem::MaybeUninit::<gridcheck_grid_error>::uninit();
        assert_eq!(
            gridcheck_get_grid_error(ws.h, why.as_mut_ptr()),
            XCOVER_NOT_INITIALIZED
        );
    }
    assert_eq!(state, GRIDCHECK_STATE_GRID as u32);
}

/// The UA count a fresh workspace holds after `generate` on `grid` for `clues` clues and
/// `mask`.
fn generated_count(
    grid: &str,
    clues: u32,
    mask: Option<&str>,
    generate: impl Fn(*mut gridcheck_workspace) -> xcover_status,
) -> usize {
    let limits = gridcheck_limits {
        max_ua: 1 << 15,
        keep_ua: 768,
        ua_scratch: 1 << 14,
        max_clues: 81,
    };
    let ws = new_ws(&limits);
    let mask = mask.map(cstr);
    let mut count = 0;
    // SAFETY: live handle; NUL-terminated texts; a valid out pointer.
    unsafe {
        assert_eq!(gridcheck_set_grid(ws.h, cstr(grid).as_ptr()), XCOVER_OK);
        let mask_ptr = mask.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
        assert_eq!(gridcheck_set_options(ws.h, clues, mask_ptr, 0), XCOVER_OK);
        assert_eq!(generate(ws.h), XCOVER_OK);
        assert_eq!(gridcheck_ua_count(ws.h, &mut count), XCOVER_OK);
    }
    count
}

/// `gridcheck_generate_default_ua` follows the command's recipe (`budget::scan_recipe`): on
/// a grid with 13 unavoidable rectangles a 16-clue whole-grid scan gets 400 random
/// pseudo-puzzles alone, a 17-clue one the 4-digit subsets and 1000, a masked scan the
/// 4-digit subsets and 300; each the list of `gridcheck_generate_ua`'s count or the
/// recipe's own.
#[test]
fn the_default_generation_follows_the_commands_recipe() {
    use xcover_core::gridcheck::scan::ScanOptions;
    use xcover_core::gridcheck::ua::budget::{self, Recipe};
    use xcover_core::gridcheck::ua::UaList;

    const RICH: &str =
        "128465973534789261697231854271354698359876412486912735813647529965128347742593186";
    let grid = Grid::parse(RICH.as_bytes()).unwrap();
    // SAFETY: `generated_count` passes the live handle of the workspace it made.
    let default = |h| unsafe { gridcheck_generate_default_ua(h, 1) };
    // The recipe's list, generated in Rust.
    let recipe_count = |clues: u32, mask: Option<&str>| {
        let mut options = ScanOptions::for_clues(clues).unwrap();
        if let Some(mask) = mask {
            options.mask = xcover_core::gridcheck::scan::ClueMask::parse(mask.as_bytes()).unwrap();
        }
        let recipe = budget::scan_recipe(&grid, &options);
        let (mut storage, mut scratch) = (vec![Cells::EMPTY; 1 << 15], vec![Cells::EMPTY; 1 << 14]);
        let mut list = UaList::new(&mut storage);
        recipe
            .generate(&grid, 1, options.mask.givens, &mut list, &mut scratch)
            .unwrap();
        (recipe, list.len())
    };

    let (recipe, count) = recipe_count(16, None);
    assert_eq!(
        recipe,
        Recipe {
            digit_subsets: false,
            random: budget::RICH_RANDOM
        }
    );
    assert_eq!(generated_count(RICH, 16, None, default), count);
    // SAFETY (each): a live handle.
    let thousand = generated_count(RICH, 16, None, |h| unsafe {
        gridcheck_generate_ua(h, 1000, 1)
    });
    assert_ne!(
        count, thousand,
        "the rich recipe is not the 4-digit subsets and 1000"
    );
    assert_eq!(generated_count(RICH, 17, None, default), thousand);
    let (recipe, count) = recipe_count(20, Some(MASK));
    assert_eq!(recipe, Recipe::given(budget::MASKED_RANDOM));
    // SAFETY: as `default` above, a live handle.
    let three_hundred = generated_count(RICH, 20, Some(MASK), |h| unsafe {
        gridcheck_generate_ua(h, 300, 1)
    });
    assert_eq!(generated_count(RICH, 20, Some(MASK), default), count);
    assert_eq!(count, three_hundred);
}

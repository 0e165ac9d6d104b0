//! One search run in N parts through the C ABI (`dlx3_set_part`): the parts' counters
//! added with `dlx3_stats_add` are one run's `dlx3_get_stats`, field by field, and their
//! solutions are one run's, each once, each part's in the order of one run; misuse is
//! refused and leaves the workspace usable.
use std::ffi::{c_char, CString};
use xcover::dlx3::{
    dlx3_add_item, dlx3_add_option, dlx3_choose_split_level, dlx3_get_part_stats, dlx3_get_state,
    dlx3_get_stats, dlx3_init, dlx3_parse, dlx3_parse_error, dlx3_set_part, dlx3_set_writers,
    dlx3_settings, dlx3_settings_default, dlx3_solution_len, dlx3_solution_option, dlx3_solve_step,
    dlx3_state, dlx3_stats, dlx3_stats_add, dlx3_text_capacity, dlx3_workspace,
    dlx3_workspace_size, dlx3_writers,
};
use xcover::{xcover_status, xcover_writer};

use xcover_status::{
    XCOVER_BAD_ARGUMENT, XCOVER_BAD_STATE, XCOVER_BUDGET_EXHAUSTED, XCOVER_DONE, XCOVER_MISALIGNED,
    XCOVER_NULL_POINTER, XCOVER_OK, XCOVER_SOLUTION,
};

/// Knuth's example of color controls with multiplicities (`2:3|C`).
const COLORS: &[u8] = b"| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
/// Bounds with slack: null moves on the split level.
const BOUNDS: &[u8] = b"2|A 1:3|B | X\nA X:a\nA B\nB X:b\nA B X:a\nB\nA\n";

/// n queens as Knuth's `queens-dlx` writes it (rows/columns primary, diagonals secondary).
fn queens(n: usize) -> Vec<u8> {
    let mut text = String::new();
    xcover_core::testing::write_queens_dlx(n, &mut text).expect("a board of 1 to 32");
    text.into_bytes()
}

/// A workspace over a buffer this owns.
struct Ws {
    _buf: Vec<u64>,
    ws: *mut dlx3_workspace,
}

fn settings(randomize: bool) -> dlx3_settings {
    // SAFETY: a valid out pointer.
    unsafe {
        let mut s = std::mem::zeroed();
        assert_eq!(dlx3_settings_default(&mut s), XCOVER_OK);
        s.verbosity = 0;
        if randomize {
            s.randomize = 1;
            s.random_seed = 7;
        }
        s
    }
}

/// A fresh workspace of `levels` levels (empty: state ITEMS) for `items` and `nodes`.
fn fresh(items: usize, nodes: usize, levels: usize, s: &dlx3_settings) -> Ws {
    let (mut size, mut align) = (0, 0);
    // SAFETY: valid locals; the buffer outlives the workspace (kept in Ws).
    unsafe {
        assert_eq!(
            dlx3_workspace_size(items, nodes, levels, &mut size, &mut align),
            XCOVER_OK
        );
        let mut buf = vec![0u64; size / 8 + 1];
        let mut ws = std::ptr::null_mut();
        let st = dlx3_init(
            buf.as_mut_ptr().cast(),
            size,
            items,
            nodes,
            levels,
            s,
            &mut ws,
        );
        assert_eq!(st, XCOVER_OK);
        Ws { _buf: buf, ws }
    }
}

/// A workspace with `text` parsed.
fn parsed(text: &[u8], s: &dlx3_settings) -> Ws {
    let (mut items, mut nodes) = (0, 0);
    // SAFETY: valid locals and a live workspace.
    unsafe {
        assert_eq!(
            dlx3_text_capacity(text.as_ptr(), text.len(), &mut items, &mut nodes),
            XCOVER_OK
        );
        let w = fresh(items.max(1), nodes, 50, s);
        let mut info = std::mem::zeroed::<dlx3_parse_error>();
        assert_eq!(
            dlx3_parse(w.ws, text.as_ptr(), text.len(), &mut info),
            XCOVER_OK
        );
        w
    }
}

/// A solution as its moves: (option number or DLX3_NULL_MOVE, item of a null move).
type Solution = Vec<(u32, u32)>;

fn solution(ws: *mut dlx3_workspace) -> Solution {
    let mut len = 0;
    // SAFETY: a live workspace that just returned XCOVER_SOLUTION; valid locals.
    unsafe {
        assert_eq!(dlx3_solution_len(ws, &mut len), XCOVER_OK);
        (0..len)
            .map(|l| {
                let (mut option, mut item) = (0, 0);
                assert_eq!(
                    dlx3_solution_option(ws, l, &mut option, &mut item),
                    XCOVER_OK
                );
                (option, item)
            })
            .collect()
    }
}

/// Steps with `budget` mems per call until XCOVER_DONE; the solutions found.
fn solve(ws: *mut dlx3_workspace, budget: u64) -> Vec<Solution> {
    let mut found = Vec::new();
    loop {
        // SAFETY: a live workspace.
        match unsafe { dlx3_solve_step(ws, budget) } {
            XCOVER_SOLUTION => found.push(solution(ws)),
            XCOVER_BUDGET_EXHAUSTED => {}
            XCOVER_DONE => return found,
            other => panic!("dlx3_solve_step: {other:?}"),
        }
    }
}

/// `solve` for a part, checking at every pause that the part's share only grows (inside a
/// unit as well as between units) and stays within its engine's counters.
fn solve_part(ws: *mut dlx3_workspace, budget: u64) -> Vec<Solution> {
    let mut found = Vec::new();
    let mut last = stats(ws, true);
    loop {
        // SAFETY: a live workspace.
        let status = unsafe { dlx3_solve_step(ws, budget) };
        let (share, engine) = (stats(ws, true), stats(ws, false));
        for (now, before, all) in [
            (share.mems, last.mems, engine.mems),
            (share.nodes, last.nodes, engine.nodes),
            (share.updates, last.updates, engine.updates),
            (share.solutions, last.solutions, engine.solutions),
        ] {
            assert!(before <= now && now <= all, "{before} {now} {all}");
        }
        assert!(share.max_level <= engine.max_level);
        last = share;
        match status {
            XCOVER_SOLUTION => found.push(solution(ws)),
            XCOVER_BUDGET_EXHAUSTED => {}
            XCOVER_DONE => return found,
            other => panic!("dlx3_solve_step: {other:?}"),
        }
    }
}

fn stats(ws: *mut dlx3_workspace, part: bool) -> dlx3_stats {
    let mut s = dlx3_stats::default();
    // SAFETY: a live workspace and a valid local.
    let st = unsafe {
        if part {
            dlx3_get_part_stats(ws, &mut s)
        } else {
            dlx3_get_stats(ws, &mut s)
        }
    };
    assert_eq!(st, XCOVER_OK);
    s
}

fn state(ws: *mut dlx3_workspace) -> dlx3_state {
    let mut raw = 0u32;
    // SAFETY: a live workspace and a valid local.
    assert_eq!(unsafe { dlx3_get_state(ws, &mut raw) }, XCOVER_OK);
    dlx3_state::from_u32(raw).expect("a state")
}

/// Whether `part` appears in `whole` in the same order (a subsequence).
fn in_order(part: &[Solution], whole: &[Solution]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|s| rest.any(|w| w == s))
}

/// Runs every part of `parts` of `text` split at `split` (each with its own workspace and
/// `budget` mems per step) and checks them against one run.
fn check_parts(
    text: &[u8],
    split: u32,
    parts: u64,
    budget: u64,
    one: &(dlx3_stats, Vec<Solution>),
) {
    let (want, whole) = one;
    let mut total = dlx3_stats::default();
    let mut all = Vec::new();
    for part in 0..parts {
        let w = parsed(text, &settings(false));
        // SAFETY: a live workspace.
        assert_eq!(
            unsafe { dlx3_set_part(w.ws, part, parts, split) },
            XCOVER_OK
        );
        let found = solve_part(w.ws, budget);
        let context = format!("split {split}, part {part} of {parts}, budget {budget}");
        assert!(in_order(&found, whole), "{context}: out of order");
        let share = stats(w.ws, true);
        assert_eq!(share.solutions, found.len() as u64, "{context}");
        if part == 0 {
            assert_eq!(share, stats(w.ws, false), "{context}: part 0 is its engine");
        } else {
            assert_eq!(share.input_mems, 0, "{context}");
        }
        // SAFETY: valid locals.
        assert_eq!(unsafe { dlx3_stats_add(&mut total, &share) }, XCOVER_OK);
        all.extend(found);
    }
    assert_eq!(
        &total, want,
        "split {split}, {parts} parts, budget {budget}"
    );
    let mut sorted = all.clone();
    sorted.sort();
    let mut expected = whole.clone();
    expected.sort();
    assert_eq!(
        sorted, expected,
        "split {split}, {parts} parts: the solutions"
    );
}

fn one_run(text: &[u8]) -> (dlx3_stats, Vec<Solution>) {
    let w = parsed(text, &settings(false));
    let found = solve(w.ws, u64::MAX);
    (stats(w.ws, false), found)
}

#[test]
fn parts_add_up_to_one_run() {
    let inputs: [(&str, Vec<u8>); 5] = [
        ("colors", COLORS.to_vec()),
        ("bounds", BOUNDS.to_vec()),
        ("queens 5", queens(5)),
        ("queens 6", queens(6)),
        ("queens 8", queens(8)),
    ];
    for (name, text) in &inputs {
        let one = one_run(text);
        assert!(one.0.solutions > 0, "{name}");
        for split in 0..4 {
            for parts in [1, 2, 3, 5] {
                check_parts(text, split, parts, u64::MAX, &one);
            }
        }
        // Paused often, inside units and between them.
        for budget in [1, 37] {
            check_parts(text, 1, 3, budget, &one);
        }
        // The engine's choice, for as many units as parts.
        for parts in [2u64, 5] {
            let w = parsed(text, &settings(false));
            let mut level = u32::MAX;
            // SAFETY: a live workspace and a valid local.
            assert_eq!(
                unsafe { dlx3_choose_split_level(w.ws, parts, &mut level) },
                XCOVER_OK
            );
            // The walk leaves the workspace at the start: one run from there is one run.
            assert_eq!(state(w.ws), dlx3_state::DLX3_STATE_READY);
            assert_eq!(
                stats(w.ws, false),
                stats(parsed(text, &settings(false)).ws, false)
            );
            assert!(level < 50, "{name}: level {level}");
            check_parts(text, level, parts, u64::MAX, &one);
        }
    }
}

#[test]
fn a_deep_split_leaves_everything_to_part_0() {
    // Below the deepest level of the search there are no units: the shared part is the
    // whole search, all part 0's.
    let text = queens(6);
    let one = one_run(&text);
    check_parts(&text, 20, 3, u64::MAX, &one);
    let w = parsed(&text, &settings(false));
    // SAFETY: a live workspace.
    assert_eq!(unsafe { dlx3_set_part(w.ws, 1, 3, 20) }, XCOVER_OK);
    assert!(solve(w.ws, u64::MAX).is_empty());
    let share = stats(w.ws, true);
    assert_eq!(
        (share.solutions, share.mems, share.nodes, share.max_level),
        (0, 0, 0, 0)
    );
}

/// `names` as C strings and the pointers to them.
fn c_names(names: &[&str]) -> (Vec<CString>, Vec<*const c_char>) {
    let owned: Vec<CString> = names.iter().map(|n| CString::new(*n).unwrap()).collect();
    let ptrs = owned.iter().map(|c| c.as_ptr()).collect();
    (owned, ptrs)
}

#[test]
fn a_built_matrix_is_ended_first() {
    let build = || {
        let w = fresh(3, 16, 8, &settings(false));
        // SAFETY: a live workspace and NUL-terminated names that outlive the calls.
        unsafe {
            for item in ["a", "b", "c"] {
                let (_keep, name) = c_names(&[item]);
                assert_eq!(dlx3_add_item(w.ws, name[0], 1, 1, 0), XCOVER_OK);
            }
            for option in [&["a", "b"][..], &["c"], &["a"], &["b", "c"]] {
                let (_keep, names) = c_names(option);
                let st = dlx3_add_option(w.ws, names.as_ptr(), std::ptr::null(), names.len());
                assert_eq!(st, XCOVER_OK);
            }
        }
        assert_eq!(state(w.ws), dlx3_state::DLX3_STATE_OPTIONS);
        w
    };
    let whole = build();
    let want_solutions = solve(whole.ws, u64::MAX);
    let want = stats(whole.ws, false);
    let mut total = dlx3_stats::default();
    let mut all = Vec::new();
    for part in 0..2 {
        let w = build();
        let mut level = 9;
        // SAFETY: a live workspace and valid locals.
        unsafe {
            assert_eq!(dlx3_choose_split_level(w.ws, 2, &mut level), XCOVER_OK);
            assert_eq!(level, 0);
            assert_eq!(state(w.ws), dlx3_state::DLX3_STATE_READY);
            assert_eq!(dlx3_set_part(w.ws, part, 2, level), XCOVER_OK);
            all.extend(solve(w.ws, u64::MAX));
            assert_eq!(dlx3_stats_add(&mut total, &stats(w.ws, true)), XCOVER_OK);
        }
    }
    all.sort();
    assert_eq!(all, want_solutions);
    assert_eq!(total, want);
    // A built matrix with options is ended by dlx3_set_part too.
    let w = build();
    // SAFETY: a live workspace.
    assert_eq!(unsafe { dlx3_set_part(w.ws, 1, 2, 0) }, XCOVER_OK);
    assert_eq!(state(w.ws), dlx3_state::DLX3_STATE_READY);
}

unsafe extern "C" fn ignore(_: *mut std::ffi::c_void, _: *const c_char, _: usize) {}

#[test]
fn misuse_is_refused_and_leaves_the_workspace_usable() {
    let text = queens(5);
    let one = one_run(&text);
    let w = parsed(&text, &settings(false));
    let ws = w.ws;
    let mut level = 0u32;
    let mut s = dlx3_stats::default();
    // SAFETY: live workspaces, valid locals; NULL and misaligned pointers are refused
    // before any use.
    unsafe {
        assert_eq!(dlx3_set_part(ws, 0, 0, 1), XCOVER_BAD_ARGUMENT);
        assert_eq!(dlx3_set_part(ws, 3, 3, 1), XCOVER_BAD_ARGUMENT);
        assert_eq!(dlx3_set_part(ws, u64::MAX, 2, 1), XCOVER_BAD_ARGUMENT);
        // Deeper than the 50 levels of the workspace.
        assert_eq!(dlx3_set_part(ws, 0, 2, 49), XCOVER_BAD_ARGUMENT);
        assert_eq!(dlx3_set_part(ws, 0, 2, u32::MAX), XCOVER_BAD_ARGUMENT);
        assert_eq!(
            dlx3_set_part(std::ptr::null_mut(), 0, 2, 1),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_choose_split_level(ws, 4, std::ptr::null_mut()),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_choose_split_level(std::ptr::null_mut(), 4, &mut level),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_get_part_stats(ws, std::ptr::null_mut()),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_get_part_stats(std::ptr::null_mut(), &mut s),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_stats_add(&mut s, std::ptr::null()),
            XCOVER_NULL_POINTER
        );
        assert_eq!(
            dlx3_stats_add(std::ptr::null_mut(), &s),
            XCOVER_NULL_POINTER
        );
        let mut words = [0u64; 12];
        let odd = words.as_mut_ptr().cast::<u8>().add(4).cast::<dlx3_stats>();
        assert_eq!(dlx3_stats_add(odd, &s), XCOVER_MISALIGNED);
        assert_eq!(dlx3_stats_add(&mut s, odd), XCOVER_MISALIGNED);
        // Without a part, the part's share is everything.
        assert_eq!(stats(ws, true), stats(ws, false));
        // Still usable: the part runs and adds up with the others.
        assert_eq!(state(ws), dlx3_state::DLX3_STATE_READY);
        assert_eq!(dlx3_set_part(ws, 1, 2, 1), XCOVER_OK);
        // Changing the part before the search starts.
        assert_eq!(dlx3_set_part(ws, 0, 2, 1), XCOVER_OK);
        // The split level is chosen before the part is set; writers are refused now.
        assert_eq!(dlx3_choose_split_level(ws, 4, &mut level), XCOVER_BAD_STATE);
        let writers = dlx3_writers {
            out: xcover_writer::DISCARD,
            err: xcover_writer::DISCARD,
            shape: xcover_writer::DISCARD,
        };
        assert_eq!(dlx3_set_writers(ws, &writers), XCOVER_BAD_STATE);
        assert_eq!(dlx3_solve_step(ws, 10), XCOVER_BUDGET_EXHAUSTED);
        // The search has started.
        assert_eq!(dlx3_set_part(ws, 0, 2, 1), XCOVER_BAD_STATE);
        let mut found = solve(ws, u64::MAX);
        assert_eq!(dlx3_set_part(ws, 0, 2, 1), XCOVER_BAD_STATE);
        assert_eq!(dlx3_choose_split_level(ws, 4, &mut level), XCOVER_BAD_STATE);
        let mut total = stats(ws, true);
        let other = parsed(&text, &settings(false));
        assert_eq!(dlx3_set_part(other.ws, 1, 2, 1), XCOVER_OK);
        found.extend(solve(other.ws, u64::MAX));
        assert_eq!(
            dlx3_stats_add(&mut total, &stats(other.ws, true)),
            XCOVER_OK
        );
        assert_eq!(total, one.0);
        found.sort();
        let mut want = one.1.clone();
        want.sort();
        assert_eq!(found, want);

        // A randomized search cannot be split; the workspace runs whole.
        let random = parsed(&text, &settings(true));
        assert_eq!(dlx3_set_part(random.ws, 0, 2, 1), XCOVER_BAD_ARGUMENT);
        assert_eq!(
            dlx3_choose_split_level(random.ws, 4, &mut level),
            XCOVER_BAD_ARGUMENT
        );
        assert_eq!(solve(random.ws, u64::MAX).len(), one.1.len());

        // Writers that print are refused; a workspace without items too.
        let printing = parsed(&text, &settings(false));
        let mut loud = writers;
        loud.err = xcover_writer {
            write: Some(ignore),
            ctx: std::ptr::null_mut(),
        };
        assert_eq!(dlx3_set_writers(printing.ws, &loud), XCOVER_OK);
        assert_eq!(dlx3_set_part(printing.ws, 0, 2, 1), XCOVER_BAD_STATE);
        assert_eq!(dlx3_set_writers(printing.ws, &writers), XCOVER_OK);
        assert_eq!(dlx3_set_part(printing.ws, 0, 2, 1), XCOVER_OK);
        let empty = fresh(3, 16, 8, &settings(false));
        assert_eq!(dlx3_set_part(empty.ws, 0, 2, 1), XCOVER_BAD_STATE);
        assert_eq!(
            dlx3_choose_split_level(empty.ws, 2, &mut level),
            XCOVER_BAD_STATE
        );
    }
}

/// The DLX3 conformance corpus (as ffi/tests/c_examples.rs finds it).
fn corpus() -> std::path::PathBuf {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fixtures = repo.join("cli/tests/fixtures/dlx3");
    if fixtures.join("queens8_m1").exists() {
        return fixtures;
    }
    repo.join("../shared/conformance/dlx3")
}

#[test]
fn corpus_matrices_with_colors_and_multiplicities_split_exactly() {
    let dir = corpus();
    let cases = [
        "bricks_slack",
        "color_many",
        "mult_mix_slack",
        "langford5_holes",
        "Ltet4x5_mult",
        "choose2to3of5",
    ];
    for case in cases {
        let text = std::fs::read(dir.join(case).join("input.dlx"))
            .unwrap_or_else(|e| panic!("{case} in {}: {e}", dir.display()));
        let one = one_run(&text);
        for split in 0..3 {
            for parts in [2, 3, 5] {
                check_parts(&text, split, parts, u64::MAX, &one);
            }
        }
        check_parts(&text, 1, 3, 23, &one);
    }
}

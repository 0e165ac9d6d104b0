//! The C API driven from Rust: reading options back (items and colors), the life cycle,
//! and the output callbacks carrying Knuth's bytes.
use std::ffi::{c_char, c_void, CStr};
use xcover::dlx3::{
    dlx3_get_stats, dlx3_init, dlx3_item_name, dlx3_option_item, dlx3_option_len, dlx3_parse,
    dlx3_parse_error, dlx3_set_writers, dlx3_settings, dlx3_settings_default, dlx3_solution_len,
    dlx3_solution_option, dlx3_solve_step, dlx3_stats, dlx3_text_capacity, dlx3_workspace,
    dlx3_workspace_size, dlx3_writers, DLX3_NULL_MOVE,
};
use xcover::{xcover_status, xcover_writer};

unsafe extern "C" fn collect(ctx: *mut c_void, bytes: *const c_char, len: usize) {
    // SAFETY: ctx is the Vec<u8> registered below; bytes/len come from the library.
    unsafe {
        (*ctx.cast::<Vec<u8>>())
            .extend_from_slice(std::slice::from_raw_parts(bytes.cast::<u8>(), len))
    };
}

struct Run {
    _buf: Vec<u64>,
    ws: *mut dlx3_workspace,
}

fn start(text: &[u8], settings: &dlx3_settings) -> (Run, xcover_status, dlx3_parse_error) {
    start_with(text, settings, &no_writers())
}

/// Every stream discarded.
fn no_writers() -> dlx3_writers {
    dlx3_writers {
        out: xcover_writer::DISCARD,
        err: xcover_writer::DISCARD,
        shape: xcover_writer::DISCARD,
    }
}

/// `start`, printing through `writers` from before the parse on.
fn start_with(
    text: &[u8],
    settings: &dlx3_settings,
    writers: &dlx3_writers,
) -> (Run, xcover_status, dlx3_parse_error) {
    let (mut items, mut nodes, mut size, mut align) = (0, 0, 0, 0);
    // SAFETY: all pointers are valid locals; the buffer outlives the workspace (kept in Run).
    unsafe {
        assert_eq!(
            dlx3_text_capacity(text.as_ptr(), text.len(), &mut items, &mut nodes),
            xcover_status::XCOVER_OK
        );
        assert_eq!(
            dlx3_workspace_size(items.max(1), nodes, 50, &mut size, &mut align),
            xcover_status::XCOVER_OK
        );
        let mut buf = vec![0u64; size / 8 + 1];
        let mut ws = std::ptr::null_mut();
        let st = dlx3_init(
            buf.as_mut_ptr().cast(),
            size,
            items.max(1),
            nodes,
            50,
            settings,
            &mut ws,
        );
        assert_eq!(st, xcover_status::XCOVER_OK);
        assert_eq!(dlx3_set_writers(ws, writers), xcover_status::XCOVER_OK);
        let mut info = std::mem::zeroed::<dlx3_parse_error>();
        let st = dlx3_parse(ws, text.as_ptr(), text.len(), &mut info);
        (Run { _buf: buf, ws }, st, info)
    }
}

fn quiet() -> dlx3_settings {
    // SAFETY: valid out pointer.
    unsafe {
        let mut s = std::mem::zeroed();
        dlx3_settings_default(&mut s);
        s.verbosity = 0;
        s
    }
}

#[test]
fn options_read_back_with_items_and_colors() {
    let (run, st, _) = start(b"A B | C D\nA C:x\nB C:x D\nB D:y\n", &quiet());
    assert_eq!(st, xcover_status::XCOVER_OK);
    let mut got = Vec::new();
    // SAFETY: run.ws is live; out pointers are locals.
    unsafe {
        for option in 1..=3u32 {
            let mut len = 0;
            assert_eq!(
                dlx3_option_len(run.ws, option, &mut len),
                xcover_status::XCOVER_OK
            );
            let mut items = Vec::new();
            for k in 0..len {
                let (mut item, mut color) = (0u32, 0u8);
                assert_eq!(
                    dlx3_option_item(run.ws, option, k, &mut item, &mut color),
                    xcover_status::XCOVER_OK
                );
                let mut name = [0 as c_char; 9];
                assert_eq!(
                    dlx3_item_name(run.ws, item, name.as_mut_ptr(), 9),
                    xcover_status::XCOVER_OK
                );
                let name = CStr::from_ptr(name.as_ptr()).to_str().unwrap().to_owned();
                items.push(if color == 0 {
                    name
                } else {
                    format!("{name}:{}", color as char)
                });
            }
            got.push(items.join(" "));
        }
        let mut len = 0;
        assert_eq!(
            dlx3_option_len(run.ws, 4, &mut len),
            xcover_status::XCOVER_BAD_ARGUMENT
        );
    }
    assert_eq!(got, ["A C:x", "B C:x D", "B D:y"]);
}

#[test]
fn solutions_and_knuths_bytes_flow_through_the_callbacks() {
    let mut out: Vec<u8> = Vec::new();
    let mut err: Vec<u8> = Vec::new();
    let mut settings = quiet();
    let mut writers = no_writers();
    settings.verbosity = 1;
    settings.spacing = 1;
    writers.out = xcover_writer {
        write: Some(collect),
        ctx: (&mut out as *mut Vec<u8>).cast(),
    };
    writers.err = xcover_writer {
        write: Some(collect),
        ctx: (&mut err as *mut Vec<u8>).cast(),
    };
    // Two ways to cover A (multiplicity 1..2 with slack) — includes a null move.
    let (run, st, _) = start_with(b"1:2|A B\nA B\nA\n", &settings, &writers);
    assert_eq!(st, xcover_status::XCOVER_OK);
    let mut moves = Vec::new();
    // SAFETY: run.ws is live; out pointers are locals.
    unsafe {
        loop {
            match dlx3_solve_step(run.ws, u64::MAX) {
                xcover_status::XCOVER_SOLUTION => {
                    let mut len = 0;
                    assert_eq!(
                        dlx3_solution_len(run.ws, &mut len),
                        xcover_status::XCOVER_OK
                    );
                    let mut sol = Vec::new();
                    for l in 0..len {
                        let (mut option, mut null_item) = (0, 0);
                        assert_eq!(
                            dlx3_solution_option(run.ws, l, &mut option, &mut null_item),
                            xcover_status::XCOVER_OK
                        );
                        sol.push(if option == DLX3_NULL_MOVE {
                            format!("null{null_item}")
                        } else {
                            option.to_string()
                        });
                    }
                    moves.push(sol.join(" "));
                }
                xcover_status::XCOVER_DONE => break,
                other => panic!("{other:?}"),
            }
        }
        let mut stats: dlx3_stats = std::mem::zeroed();
        assert_eq!(dlx3_get_stats(run.ws, &mut stats), xcover_status::XCOVER_OK);
        assert_eq!(stats.solutions as usize, moves.len());
        assert_eq!((stats.primary_items, stats.options), (2, 2));
    }
    let out = String::from_utf8(out).unwrap();
    let err = String::from_utf8(err).unwrap();
    // Each solution printed as "K:" plus one line per level: as many blocks as solutions.
    assert_eq!(out.matches(":\n").count(), moves.len(), "{out}");
    assert!(
        err.starts_with("(2 options, 2+0 items, 5 entries successfully read)\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!("Altogether {} solution", moves.len())),
        "{err}"
    );
    assert!(
        moves.len() >= 2 && moves.iter().any(|m| m.contains("null")),
        "{moves:?}"
    );
}

#[test]
fn parse_errors_report_knuths_position_and_the_line() {
    let mut err: Vec<u8> = Vec::new();
    let settings = quiet();
    let mut writers = no_writers();
    writers.err = xcover_writer {
        write: Some(collect),
        ctx: (&mut err as *mut Vec<u8>).cast(),
    };
    let text = b"A B\nA x|B\n";
    let (_run, st, info) = start_with(b"A x|B\n", &settings, &writers);
    assert_eq!(st, xcover_status::XCOVER_PARSE_ILLEGAL_DIGIT);
    assert_eq!(
        (info.line, info.position, info.line_offset, info.line_length),
        (1, 2, 0, 6)
    );
    // SAFETY: the message is a static C string.
    assert_eq!(
        unsafe { CStr::from_ptr(info.message) }.to_bytes(),
        b"Illegal digit in bound spec"
    );
    assert_eq!(err, b"Illegal digit in bound spec!\n2: A x|B\n\n");
    let (_run, st, info) = start(text, &quiet());
    assert_eq!(st, xcover_status::XCOVER_PARSE_UNKNOWN_ITEM_NAME);
    assert_eq!((info.line, info.position), (2, 2));
}

/// A small deterministic generator (xorshift) for the robustness test.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Runs the whole search with `budget` mems per call; returns (stdout bytes, counters, calls).
fn solve_with_budget(text: &[u8], budget: u64) -> Option<(Vec<u8>, dlx3_stats, u64)> {
    let mut out: Vec<u8> = Vec::new();
    let mut settings = quiet();
    let mut writers = no_writers();
    settings.spacing = 1;
    writers.out = xcover_writer {
        write: Some(collect),
        ctx: (&mut out as *mut Vec<u8>).cast(),
    };
    let (run, st, _) = start_with(text, &settings, &writers);
    if st != xcover_status::XCOVER_OK {
        assert!(
            xcover::xcover_status::is_parse_error(st),
            "unexpected {st:?}"
        );
        return None;
    }
    let mut calls = 0;
    // SAFETY: run.ws is live; out pointers are locals.
    let stats = unsafe {
        loop {
            calls += 1;
            match dlx3_solve_step(run.ws, budget) {
                xcover_status::XCOVER_SOLUTION | xcover_status::XCOVER_BUDGET_EXHAUSTED => {}
                xcover_status::XCOVER_DONE => break,
                xcover_status::XCOVER_TOO_MANY_LEVELS => return None,
                other => panic!("{other:?} for {:?}", String::from_utf8_lossy(text)),
            }
            assert!(calls < 10_000_000, "no progress");
        }
        let mut stats: dlx3_stats = std::mem::zeroed();
        assert_eq!(dlx3_get_stats(run.ws, &mut stats), xcover_status::XCOVER_OK);
        stats
    };
    drop(run);
    Some((out, stats, calls))
}

/// Random small texts (valid and not): parsing never misbehaves, and every matrix that parses
/// gives the same solutions and counters whether solved in one go or in slices of 1..40 mems.
#[test]
fn random_texts_parse_safely_and_slices_change_nothing() {
    let good: [&[u8]; 10] = [
        b"A", b"B", b"C", b"D", b"E", b"X", b"Y", b"X:a", b"Y:b", b"X:b",
    ];
    let bad: [&[u8]; 8] = [
        b"|",
        b":",
        b"Q",
        b"A:x",
        b"X:",
        b"TOOLONGNAME",
        b"2:3|F",
        b"X:ab",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut parsed, mut rejected) = (0, 0);
    for _ in 0..600 {
        let mut text = match rng.below(10) {
            0 => b"A B | C:\n".to_vec(),
            1 => b"| only a comment\n".to_vec(),
            _ => b"A B C 2:3|D 0:2|E | X Y\n".to_vec(),
        };
        for _ in 0..rng.below(12) {
            for _ in 0..1 + rng.below(4) {
                let token = if rng.below(25) == 0 {
                    bad[rng.below(8) as usize]
                } else {
                    good[rng.below(10) as usize]
                };
                text.extend_from_slice(token);
                text.push(if rng.below(6) == 0 { b'\t' } else { b' ' });
            }
            text.push(b'\n');
        }
        if rng.below(10) == 0 {
            text.pop(); // no final newline: Knuth's "line too long"
        }
        let Some((out, stats, _)) = solve_with_budget(&text, u64::MAX) else {
            rejected += 1;
            continue;
        };
        parsed += 1;
        let budget = 1 + rng.below(40);
        let (out2, stats2, calls) = solve_with_budget(&text, budget).expect("parses again");
        assert_eq!(
            out,
            out2,
            "budget {budget} changed the solutions of {:?}",
            String::from_utf8_lossy(&text)
        );
        assert_eq!(
            stats,
            stats2,
            "budget {budget} changed the counters of {:?}",
            String::from_utf8_lossy(&text)
        );
        assert!(calls > stats.solutions);
    }
    assert!(
        parsed > 50 && rejected > 50,
        "{parsed} parsed, {rejected} rejected: the generator needs tuning"
    );
}

/// Every error of `dlx3_add_item` / `dlx3_add_option` leaves the caller's whole buffer
/// byte for byte as it was (core checks before it changes anything; ffi only maps the
/// error), and the workspace then goes on: its state, and a search over what was added.
#[test]
fn builder_errors_leave_the_buffer_unchanged() {
    use xcover::dlx3::{dlx3_add_item, dlx3_add_option, dlx3_get_state, dlx3_state};
    use xcover_status::*;
    let (items, nodes, levels) = (4, 12, 8);
    let (mut size, mut align) = (0, 0);
    // SAFETY: valid locals; the buffer outlives the workspace; names are NUL-terminated.
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
            &quiet(),
            &mut ws,
        );
        assert_eq!(st, XCOVER_OK);
        let bytes = |buf: &Vec<u64>| buf.clone();
        let state = |ws| {
            let mut s = 0u32;
            assert_eq!(dlx3_get_state(ws, &mut s), XCOVER_OK);
            s
        };
        // `dlx3_add_option` assembles the option in a scratch area of the buffer, which
        // every call rewrites: so each refused call is made twice, and the second must
        // change no byte at all (the engine's core tests show the first changes nothing
        // of the engine either).
        let refused = |buf: &mut Vec<u64>, ws, want, call: &dyn Fn() -> xcover_status| {
            let state_before = state(ws);
            assert_eq!(call(), want);
            let before = bytes(buf);
            assert_eq!(call(), want);
            assert!(*buf == before, "{want:?} changed the buffer");
            assert_eq!(state(ws), state_before);
        };
        let item =
            |name: &CStr, lo, hi, secondary| dlx3_add_item(ws, name.as_ptr(), lo, hi, secondary);
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"X", 0, 0, 1)); // secondary first
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"A:", 1, 1, 0)); // a colon
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"A|", 1, 1, 0)); // a bar
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"A", 2, 1, 0)); // lo > hi
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"A", 0, 0, 0)); // hi = 0
        let a_and_x = [c"A".as_ptr(), c"X".as_ptr()];
        refused(&mut buf, ws, XCOVER_BAD_STATE, &|| {
            dlx3_add_option(ws, a_and_x.as_ptr(), std::ptr::null(), 2) // no items yet
        });
        assert_eq!(item(c"A", 1, 1, 0), XCOVER_OK);
        refused(&mut buf, ws, XCOVER_PARSE_DUPLICATE_ITEM_NAME, &|| {
            item(c"A", 1, 1, 0)
        });
        assert_eq!(item(c"X", 0, 0, 1), XCOVER_OK);
        refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| item(c"B", 1, 1, 0)); // after X
        for _ in 0..2 {
            // Before the first option (which closes the item list) and after it.
            let unknown = [c"A".as_ptr(), c"Q".as_ptr()];
            refused(&mut buf, ws, XCOVER_PARSE_UNKNOWN_ITEM_NAME, &|| {
                dlx3_add_option(ws, unknown.as_ptr(), std::ptr::null(), 2)
            });
            let twice = [c"A".as_ptr(), c"A".as_ptr()];
            refused(&mut buf, ws, XCOVER_PARSE_DUPLICATE_IN_OPTION, &|| {
                dlx3_add_option(ws, twice.as_ptr(), std::ptr::null(), 2)
            });
            refused(&mut buf, ws, XCOVER_PARSE_PRIMARY_COLORED, &|| {
                dlx3_add_option(ws, a_and_x.as_ptr(), c"x".as_ptr(), 2)
            });
            refused(&mut buf, ws, XCOVER_BAD_ARGUMENT, &|| {
                dlx3_add_option(ws, a_and_x.as_ptr(), b"\0 ".as_ptr().cast(), 2)
            });
            if state(ws) == dlx3_state::DLX3_STATE_ITEMS as u32 {
                assert_eq!(
                    dlx3_add_option(ws, a_and_x.as_ptr(), b"\0r".as_ptr().cast(), 2),
                    XCOVER_OK
                );
            }
        }
        // Nodes: headers 0..2, spacer 3, the option's 4, 5 and spacer 6; 12 slots take
        // one more option of two (7, 8, spacer 9) but not then a third.
        assert_eq!(
            dlx3_add_option(ws, a_and_x.as_ptr(), std::ptr::null(), 2),
            XCOVER_OK
        );
        refused(&mut buf, ws, XCOVER_TOO_MANY_NODES, &|| {
            dlx3_add_option(ws, a_and_x.as_ptr(), std::ptr::null(), 2)
        });
        assert_eq!(state(ws), dlx3_state::DLX3_STATE_OPTIONS as u32);
        let mut solutions = 0;
        loop {
            match dlx3_solve_step(ws, u64::MAX) {
                XCOVER_SOLUTION => solutions += 1,
                XCOVER_DONE => break,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(solutions, 2);
    }
}

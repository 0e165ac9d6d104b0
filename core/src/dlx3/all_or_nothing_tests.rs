//! Every builder and parse call is all-or-nothing: for each error it can return, the
//! engine is shown unchanged after it (the whole workspace for the builder calls; for
//! `read_line`, everything the engine holds and shows, the matrix up to its last node), and
//! the engine goes on as if the bad call had never been made.
use super::engine::Dlx3;
use super::testutil::{run_all, Buffers};
use super::{Dlx3Error, InputError, Settings, Stage};
use crate::sink::Discard;
use std::format;
use std::string::String;

/// Everything the engine holds: its record and the whole workspace.
fn whole(e: &Dlx3<'_>) -> String {
    let names: std::vec::Vec<_> = (0..e.items.len()).map(|k| e.names.get(k)).collect();
    format!(
        "{:?} {:?} {} {:?} {} | {:?} | {:?} | {:?} | {:?}",
        e.phase, e.layout, e.separator_seen, e.stats, e.last_pos, e.items, e.nodes, names, e.levels
    )
}

/// Everything the engine shows: its record and the matrix up to its last item and node
/// (a rejected option line leaves its scratch past the last node, which no call reads).
fn shown(e: &Dlx3<'_>) -> String {
    let names: std::vec::Vec<_> = (0..e.layout.last_itm).map(|k| e.item_name(k)).collect();
    format!(
        "{:?} {:?} {:?} {} {:?} {} | {:?} | {:?} | {:?} | {} {}",
        e.stage(),
        e.phase,
        e.layout,
        e.separator_seen,
        e.stats,
        e.last_pos,
        e.items(),
        e.nodes(),
        names,
        e.item_count(),
        e.option_count()
    )
}

fn input(kind: InputError) -> Dlx3Error {
    Dlx3Error::Input { kind, pos: 0 }
}

/// Calls `bad` on `e`, checks it fails with `want` and that `view` of the engine is the
/// same before and after.
fn refused(
    e: &mut Dlx3<'_>,
    view: fn(&Dlx3<'_>) -> String,
    want: Dlx3Error,
    bad: impl FnOnce(&mut Dlx3<'_>) -> Result<(), Dlx3Error>,
) {
    let before = view(e);
    let got = bad(e);
    assert_eq!(got, Err(want));
    assert_eq!(view(e), before, "{want:?} changed the engine");
}

fn item(e: &mut Dlx3<'_>, name: &[u8], lo: i32, hi: i32, sec: bool) -> Result<(), Dlx3Error> {
    e.add_item(name, lo, hi, sec).map(|_| ())
}

#[test]
fn every_add_item_error_changes_nothing() {
    // Item slots 6 (max_cols 4); nodes 5: room for headers 1..3 and the spacer, not for
    // a fourth header and the spacer after it.
    let mut b = Buffers::new(6, 5, 4);
    let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
    let ooo = Dlx3Error::OutOfOrder;
    refused(&mut e, whole, ooo, |e| item(e, b"X", 0, 0, true)); // secondary first
    refused(&mut e, whole, input(InputError::ItemNameEmpty), |e| {
        item(e, b"", 1, 1, false)
    });
    for bad in [&b"NINECHARS"[..], b"A B", b"A\0"] {
        refused(&mut e, whole, input(InputError::ItemNameTooLong), |e| {
            item(e, bad, 1, 1, false)
        });
    }
    refused(&mut e, whole, input(InputError::IllegalColon), |e| {
        item(e, b"A:", 1, 1, false)
    });
    refused(&mut e, whole, input(InputError::IllegalBar), |e| {
        item(e, b"A|", 1, 1, false)
    });
    refused(&mut e, whole, input(InputError::UpperBoundZero), |e| {
        item(e, b"A", 0, 0, false)
    });
    refused(&mut e, whole, input(InputError::IllegalDigit), |e| {
        item(e, b"A", -1, 1, false)
    });
    refused(&mut e, whole, input(InputError::LowerExceedsUpper), |e| {
        item(e, b"A", 2, 1, false)
    });
    item(&mut e, b"A", 1, 1, false).unwrap();
    refused(&mut e, whole, input(InputError::DuplicateItemName), |e| {
        item(e, b"A", 1, 1, false)
    });
    item(&mut e, b"B", 1, 1, false).unwrap();
    item(&mut e, b"X", 0, 0, true).unwrap();
    refused(&mut e, whole, ooo, |e| item(e, b"C", 1, 1, false)); // primary after secondary
    refused(&mut e, whole, input(InputError::TooManyNodes), |e| {
        item(e, b"Y", 0, 0, true) // its header would take the first spacer's node
    });
    // The engine goes on as if nothing had been tried.
    e.end_input(&mut Discard).unwrap();
    assert_eq!((e.item_count(), e.layout.second), (3, 3));
    refused(&mut e, whole, ooo, |e| item(e, b"Z", 0, 0, true)); // after the input

    let mut b = Buffers::new(4, 50, 4); // max_cols 2
    let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
    item(&mut e, b"A", 1, 1, false).unwrap();
    item(&mut e, b"B", 1, 1, false).unwrap();
    refused(&mut e, whole, input(InputError::TooManyItems), |e| {
        item(e, b"C", 1, 1, false)
    });
    // The first secondary item's error leaves no separator behind: a primary still fits.
    let mut b = Buffers::new(5, 50, 4);
    let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
    item(&mut e, b"A", 1, 1, false).unwrap();
    refused(&mut e, whole, input(InputError::DuplicateItemName), |e| {
        item(e, b"A", 0, 0, true)
    });
    item(&mut e, b"B", 1, 1, false).unwrap();
}

#[test]
fn every_add_option_and_end_input_error_changes_nothing() {
    let mut b = Buffers::new(8, 8, 4);
    let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
    refused(&mut e, whole, input(InputError::NoItems), |e| {
        e.add_option(&[(1, 0)], &mut Discard)
    });
    let no_items = Dlx3Error::Input {
        kind: InputError::NoItems,
        pos: 0,
    };
    refused(&mut e, whole, no_items, |e| e.end_input(&mut Discard));
    let a = e.add_item(b"A", 1, 1, false).unwrap();
    let bb = e.add_item(b"B", 1, 1, false).unwrap();
    let x = e.add_item(b"X", 0, 0, true).unwrap();
    // Before the first option (which closes the item list) and after it.
    for _ in 0..2 {
        refused(&mut e, whole, input(InputError::UnknownItemName), |e| {
            e.add_option(&[(a, 0), (9, 0)], &mut Discard)
        });
        refused(&mut e, whole, input(InputError::UnknownItemName), |e| {
            e.add_option(&[(0, 0)], &mut Discard)
        });
        refused(
            &mut e,
            whole,
            input(InputError::DuplicateItemInOption),
            |e| e.add_option(&[(a, 0), (x, 0), (a, 0)], &mut Discard),
        );
        refused(&mut e, whole, input(InputError::PrimaryColored), |e| {
            e.add_option(&[(bb, b'c')], &mut Discard)
        });
        refused(&mut e, whole, input(InputError::ColorNotSingle), |e| {
            e.add_option(&[(a, 0), (x, b' ')], &mut Discard)
        });
        // Closing: the spacer at node 4, then 5, 6, 7 and the spacer 8 do not fit in 8;
        // after the first option (nodes 5, 6, spacer 7) nothing more fits.
        refused(&mut e, whole, input(InputError::TooManyNodes), |e| {
            e.add_option(&[(a, 0), (bb, 0), (x, 0)], &mut Discard)
        });
        if e.stage() == Stage::Items {
            e.add_option(&[(a, 0), (bb, 0)], &mut Discard).unwrap();
        }
    }
    assert_eq!(e.option_count(), 1);
    e.end_input(&mut Discard).unwrap();
    refused(&mut e, whole, Dlx3Error::OutOfOrder, |e| {
        e.add_option(&[(a, 0)], &mut Discard)
    });
    refused(&mut e, whole, Dlx3Error::OutOfOrder, |e| {
        e.end_input(&mut Discard)
    });
    let (_, _, _) = run_all(&mut e, u64::MAX).unwrap();
    assert_eq!(e.stats().count, 1);
}

/// Reads `good` with `bad` (a line that fails with `want`) tried before its line number
/// `at`: the bad line changes nothing, and the run prints what `good` alone prints.
fn bad_line_changes_nothing(good: &[u8], at: usize, bad: &[u8], want: (InputError, i32)) {
    let settings = Settings::new().print_interval(1);
    let mut b = Buffers::for_text(good);
    let mut alone = Dlx3::new(b.storage(), settings).unwrap();
    alone.read_input(good, &mut Discard).unwrap();
    let expected = run_all(&mut alone, u64::MAX).unwrap();

    let mut b = Buffers::for_text(good);
    let mut e = Dlx3::new(b.storage(), settings).unwrap();
    let mut lines = good.split_inclusive(|&c| c == b'\n');
    for line in lines.by_ref().take(at) {
        e.read_line(line, &mut Discard).unwrap();
    }
    let (kind, pos) = want;
    refused(&mut e, shown, Dlx3Error::Input { kind, pos }, |e| {
        e.read_line(bad, &mut Discard)
    });
    for line in lines {
        e.read_line(line, &mut Discard).unwrap();
    }
    e.end_input(&mut Discard).unwrap();
    assert_eq!(
        run_all(&mut e, u64::MAX).unwrap(),
        expected,
        "after {:?}",
        core::str::from_utf8(bad)
    );
}

#[test]
fn every_read_line_error_changes_nothing() {
    use InputError::*;
    let good: &[u8] = b"A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let item_lines: &[(&[u8], InputError, i32)] = &[
        (b"A 0|B\n", UpperBoundZero, 4),
        (b"A x|B\n", IllegalDigit, 2),
        (b"3:2|A\n", LowerExceedsUpper, 4),
        (b"A | B | C\n", BarTwice, 6),
        (b"A | X:Y\n", IllegalColon, 4),
        (b"A | | B\n", IllegalBar, 4),
        (b"2:y\n", LowerWithoutUpper, 2),
        (b"123456789|A\n", ItemNameTooLong, 0),
        (b"2| A\n", ItemNameEmpty, 2),
        (b"A B A\n", DuplicateItemName, 4),
        (b"  A B", InputLineTooLong, 4),
    ];
    for &(bad, kind, pos) in item_lines {
        bad_line_changes_nothing(good, 0, bad, (kind, pos));
    }
    let option_lines: &[(&[u8], InputError, i32)] = &[
        (b"A B Q\n", UnknownItemName, 4),
        (b"A C X:1 A\n", DuplicateItemInOption, 8),
        (b"A:1 B\n", PrimaryColored, 0),
        (b"A X:12\n", ColorNotSingle, 2),
        (b"A X: \n", ColorNotSingle, 2),
        (b"A NINECHARS\n", ItemNameTooLong, 2),
        (b"A :1\n", EmptyItemName, 2),
        (b"A B", OptionLineTooLong, 2),
    ];
    for &(bad, kind, pos) in option_lines {
        for at in [1, 3, 6] {
            bad_line_changes_nothing(good, at, bad, (kind, pos));
        }
    }
    // No items at the end of the input, and an item line after `add_item`.
    let mut b = Buffers::new(8, 64, 8);
    let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
    e.read_line(b"| a comment\n", &mut Discard).unwrap();
    refused(
        &mut e,
        shown,
        Dlx3Error::Input {
            kind: NoItems,
            pos: 0,
        },
        |e| e.end_input(&mut Discard),
    );
    e.add_item(b"A", 1, 1, false).unwrap();
    refused(&mut e, whole, Dlx3Error::OutOfOrder, |e| {
        e.read_line(b"B\n", &mut Discard)
    });
}

#[test]
fn an_option_line_too_big_for_the_nodes_changes_nothing() {
    // Headers 1..3, spacer 4, two options of 2 nodes and a spacer: nodes 0..10. A node
    // capacity of 13 takes two more nodes but not their spacer.
    for randomize in [false, true] {
        let settings = Settings::new().random_seed(7).randomize(randomize);
        let mut b = Buffers::new(6, 13, 4);
        let mut e = Dlx3::new(b.storage(), settings).unwrap();
        for line in [&b"A B | X\n"[..], b"A X:1\n", b"B X:1\n"] {
            e.read_line(line, &mut Discard).unwrap();
        }
        for (bad, pos) in [(&b"A B\n"[..], 4), (b"A X:2\n", 6), (b"A B X\n", 4)] {
            refused(
                &mut e,
                shown,
                Dlx3Error::Input {
                    kind: InputError::TooManyNodes,
                    pos,
                },
                |e| e.read_line(bad, &mut Discard),
            );
        }
        // An option without primary items needs no spacer and is dropped.
        e.read_line(b"X\n", &mut Discard).unwrap();
        e.end_input(&mut Discard).unwrap();
        run_all(&mut e, u64::MAX).unwrap();
        assert_eq!(e.stats().count, 1);
    }
}

//! Helpers for the unit tests of the engine.
use super::heap::HeapArrays;
use super::{
    image::Width, Capacity, Dlx3, Dlx3Error, Event, HeapWorkspace, Settings, Sinks, WorkspaceView,
};
use crate::testing::write_queens_dlx;
use core::ops::{Deref, DerefMut};
use std::string::String;
use std::vec::Vec;

/// Heap storage for tests: core's heap form ([`HeapWorkspace`]), its arrays open (through
/// `Deref`) to the tests that edit a matrix by hand.
pub(super) struct Buffers(HeapWorkspace);

impl Buffers {
    pub fn new(item_slots: usize, node_slots: usize, levels: usize) -> Self {
        let capacity = Capacity {
            item_slots,
            node_slots,
        };
        Buffers(HeapWorkspace::new(capacity, levels))
    }

    /// Sized like the CLI sizes them for `text`.
    pub fn for_text(text: &[u8]) -> Self {
        Buffers(HeapWorkspace::for_input(text))
    }

    pub fn storage(&mut self) -> WorkspaceView<'_> {
        self.0.as_mut_view()
    }
}

impl Deref for Buffers {
    type Target = HeapArrays;
    fn deref(&self) -> &HeapArrays {
        &self.0.arrays
    }
}

impl DerefMut for Buffers {
    fn deref_mut(&mut self) -> &mut HeapArrays {
        &mut self.0.arrays
    }
}

/// Settings from Knuth's arguments, applied as his program applies them (last to first).
pub fn settings(args: &[&str]) -> Settings {
    let mut s = Settings::DEFAULT;
    for a in args.iter().rev() {
        s.apply_arg(a.as_bytes());
    }
    s
}

/// Reads `text` into a new engine; warnings go to `warn`.
pub(super) fn parse<'a>(
    b: &'a mut Buffers,
    text: &[u8],
    settings: Settings,
    warn: &mut String,
) -> Result<Dlx3<'a>, Dlx3Error> {
    let mut e = Dlx3::new(b.storage(), settings)?;
    e.read_input(text, warn)?;
    Ok(e)
}

/// Runs to the end with the given budget per call; returns (stdout, stderr, shape).
pub fn run_all<W: Width>(
    e: &mut Dlx3<'_, W>,
    budget: u64,
) -> Result<(String, String, String), Dlx3Error> {
    let (mut out, mut err, mut shape) = (String::new(), String::new(), String::new());
    loop {
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: Some(&mut shape),
        };
        match e.run(budget, &mut sinks)? {
            Event::Done(_) => break,
            Event::Solution | Event::BudgetExhausted | Event::Unit(_) | Event::UnitDone(_) => {}
        }
    }
    e.finish(&mut err);
    Ok((out, err, shape))
}

/// Knuth's example from the program's introduction.
pub const SEED: &[u8] = b"| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

/// n queens in the encoding of Knuth's `queens-dlx` (rows/columns primary, diagonals
/// secondary), as [`write_queens_dlx`] writes it.
pub fn queens(n: usize) -> Vec<u8> {
    let mut s = String::new();
    write_queens_dlx(n, &mut s).expect("1 <= n <= 32");
    s.into_bytes()
}

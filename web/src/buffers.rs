//! The module's side of the ABI's memory: the inbox JavaScript writes into and the two
//! output buffers (Knuth's stdout and stderr) it reads from. JavaScript only ever sees
//! offsets the module gave it, for lengths the module gave it.
use alloc::vec::Vec;

use xcover_core::sink::ByteSink;

use crate::state::{Borrowed, Global};

/// An output buffer the engines write to; a failed allocation is remembered, not fatal.
pub(crate) struct Output {
    pub(crate) bytes: Vec<u8>,
    /// Bytes dropped because the buffer could not grow.
    pub(crate) lost: usize,
}

impl Output {
    const fn new() -> Output {
        Output {
            bytes: Vec::new(),
            lost: 0,
        }
    }
}

impl ByteSink for Output {
    fn write_bytes(&mut self, bytes: &[u8]) {
        if self.bytes.try_reserve(bytes.len()).is_ok() {
            self.bytes.extend_from_slice(bytes);
        } else {
            self.lost += bytes.len();
        }
    }
}

impl core::fmt::Write for Output {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.write_bytes(s.as_bytes());
        Ok(())
    }
}

/// The inbox and the two outputs.
pub(crate) struct Buffers {
    pub(crate) inbox: Vec<u8>,
    /// Knuth's stdout: solutions (DLX3), puzzles (grid checker), the solution (Sudoku).
    pub(crate) out: Output,
    /// Knuth's stderr: reports, traces, error messages.
    pub(crate) err: Output,
}

impl Buffers {
    pub(crate) const fn new() -> Buffers {
        Buffers {
            inbox: Vec::new(),
            out: Output::new(),
            err: Output::new(),
        }
    }
}

/// The instance's buffers.
static BUFFERS: Global<Buffers> = Global::new(Buffers::new());

/// The buffers, for the duration of one exported call.
pub(crate) fn buffers() -> Borrowed<Buffers> {
    BUFFERS.get()
}

/// The address of a buffer in the module's memory, as JavaScript indexes it.
fn offset(bytes: &[u8]) -> u32 {
    bytes.as_ptr() as usize as u32
}

/// Makes the inbox `len` bytes long (zeroed) and returns its offset in the module's
/// memory, for JavaScript to write `len` bytes at; 0 when the memory cannot hold it.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn xc_inbox(len: u32) -> u32 {
    let mut bufs = buffers();
    let inbox = &mut bufs.inbox;
    inbox.clear();
    let len = len as usize;
    if inbox.try_reserve_exact(len).is_err() {
        return 0;
    }
    inbox.resize(len, 0);
    // An empty inbox still gets a real offset (the buffer may be dangling, but nothing is
    // read or written for 0 bytes).
    offset(inbox)
}

/// Offset of output `stream` (1 stdout, 2 stderr), 0 for another number.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn xc_output(stream: u32) -> u32 {
    let bufs = buffers();
    match stream {
        1 => offset(&bufs.out.bytes),
        2 => offset(&bufs.err.bytes),
        _ => 0,
    }
}

/// Length in bytes of output `stream` (1 stdout, 2 stderr), 0 for another number.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn xc_output_len(stream: u32) -> u32 {
    let bufs = buffers();
    match stream {
        1 => bufs.out.bytes.len() as u32,
        2 => bufs.err.bytes.len() as u32,
        _ => 0,
    }
}

/// Bytes dropped from both outputs because memory ran out (0 normally).
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn xc_output_lost() -> u32 {
    let bufs = buffers();
    (bufs.out.lost + bufs.err.lost) as u32
}

/// Empties both outputs (after JavaScript has read them); their room is kept.
#[no_mangle]
#[allow(unsafe_code)] // the exported name (the lint counts `no_mangle`); no unsafe code
pub extern "C" fn xc_drain() {
    let mut bufs = buffers();
    bufs.out.bytes.clear();
    bufs.err.bytes.clear();
}

//! Knuth's program on one thread, printing as he prints (see [`crate::knuth`]): the loop
//! of `xcover dlx3` without `--threads`, `--shard` or `--checkpoint`.
use std::fs::File;
use std::io::{self, BufWriter, Write};

use xcover_core::dlx3::{Dlx3, Dlx3Error, Event, HeapWorkspace, Settings, Sinks};
use xcover_core::sink::ByteSink;

use super::{end_of, stats_of};
use crate::stats::{End, Stats};

/// Which output a failed write went to.
///
/// ```
/// use xcover_solver::knuth::Stream;
/// assert_ne!(Stream::Stdout, Stream::Stderr);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stream {
    /// The solutions.
    Stdout,
    /// The reports and statistics.
    Stderr,
    /// The shape file of `S<file>`.
    Shape,
}

/// How the run ended: Knuth's error that ended it, if one did, and the counters.
pub(crate) type Ended = (Option<Dlx3Error>, Stats);

/// A failed write: to which output, and its error.
pub(crate) type Failed = (Stream, io::Error);

/// Mems per engine call; between calls stderr is flushed and `stop` asked (about 0.1 s at
/// 10^9 mems per second).
const MEM_SLICE: u64 = 1 << 26;

/// Core's byte sink over an `io::Write`: the bytes go out unchanged; the first failed
/// write is kept (and later writes dropped), for the caller to look at between calls.
struct Checked<W: Write> {
    inner: W,
    failed: Option<io::Error>,
    /// Flush after every write that ends a line (the shape file, which Knuth flushes).
    flush_lines: bool,
}

impl<W: Write> Checked<W> {
    fn new(inner: W) -> Self {
        Checked {
            inner,
            failed: None,
            flush_lines: false,
        }
    }

    fn flush(&mut self) {
        if self.failed.is_none() {
            if let Err(e) = self.inner.flush() {
                self.failed = Some(e);
            }
        }
    }

    /// Flushes, and gives the first failed write as the error of `stream`.
    fn check(&mut self, stream: Stream) -> Result<(), Failed> {
        self.flush();
        match self.failed.take() {
            Some(e) => Err((stream, e)),
            None => Ok(()),
        }
    }
}

impl<W: Write> ByteSink for Checked<W> {
    fn write_bytes(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            if let Err(e) = self.inner.write_all(bytes) {
                self.failed = Some(e);
            } else if self.flush_lines && bytes.last() == Some(&b'\n') {
                self.flush();
            }
        }
    }
}

/// Runs Knuth's program with `settings` on `input`, the shape going to `shape`; see
/// [`Args::run_until`](crate::knuth::Args::run_until).
pub(crate) fn run(
    settings: Settings,
    shape: Option<File>,
    input: &[u8],
    stdout: &mut impl Write,
    stderr: &mut impl Write,
    stop: &dyn Fn() -> bool,
) -> Result<Ended, Failed> {
    let mut out = Checked::new(stdout);
    let mut err = Checked::new(stderr);
    let mut shape = shape.map(|f| Checked {
        flush_lines: true,
        ..Checked::new(BufWriter::new(f))
    });
    let ended = |error: Option<Dlx3Error>, stats: Stats, err: &mut Checked<_>| {
        err.check(Stream::Stderr)?;
        Ok((error, stats))
    };
    let mut storage = HeapWorkspace::for_input(input);
    let mut engine = match Dlx3::new(storage.as_mut_view(), settings) {
        Ok(e) => e,
        Err(e) => {
            err.write_bytes(format!("{e}\n").as_bytes());
            return ended(Some(e), Stats::default(), &mut err);
        }
    };
    if let Err(e) = engine.read_input(input, &mut err) {
        engine.write_error_report(&e, &mut err);
        return ended(Some(e), Stats::default(), &mut err);
    }
    err.flush();
    let mut end = End::Exhausted;
    loop {
        if stop() {
            // Like the `T` timeout: say why, then the closing reports of the search so far.
            out.check(Stream::Stdout)?;
            err.write_bytes(b"INTERRUPTED!\n");
            end = End::Stopped;
            break;
        }
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: shape.as_mut().map(|s| s as &mut dyn ByteSink),
        };
        match engine.run_to_printed(MEM_SLICE, &mut sinks) {
            // A failed write (a closed pipe) ends the run at the solution it failed on.
            Ok(Event::Solution) => out.check(Stream::Stdout)?,
            Ok(Event::Done(why)) => {
                end = end_of(why);
                break;
            }
            Ok(_) => err.flush(),
            Err(e) => {
                out.flush();
                engine.write_error_report(&e, &mut err);
                return ended(Some(e), stats_of(&engine, end), &mut err);
            }
        }
    }
    out.check(Stream::Stdout)?;
    engine.finish(&mut err);
    if let Some(s) = shape.as_mut() {
        s.check(Stream::Shape)?;
    }
    ended(None, stats_of(&engine, end), &mut err)
}

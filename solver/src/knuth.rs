//! Knuth's `dlx3` program as a call: his letter arguments (`v`, `m`, `s`, `d`, `c`, `C`,
//! `l`, `t`, `T`, `S`), his input format, and his text, byte for byte what `xcover dlx3
//! ARGS < FILE` prints: the solutions on `stdout`; the reports, traces, warnings, the
//! closing statistics (`Altogether ...`) on `stderr`; the search-tree shape in the `S` file.
//!
//! The whole program in one call, [`run`]:
//!
//! ```
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let end = xcover_solver::knuth::run(["m1", "v1"], b"A B\nA\nB\nA B\n", &mut out, &mut err)?;
//! assert_eq!(end.status, 0);
//! assert_eq!(end.stats.solutions, 2);
//! assert_eq!(String::from_utf8_lossy(&out), "1:\n A (1 of 2)\n B (1 of 1)\n2:\n A B (2 of 2)\n");
//! let closing = String::from_utf8_lossy(&err).lines().last().unwrap_or_default().to_owned();
//! assert!(closing.starts_with("Altogether 2 solutions, 107+117 mems, 4 updates"));
//! # Ok::<(), xcover_solver::knuth::WriteError>(())
//! ```
//!
//! Or in two steps, the arguments first ([`Args::parse`]), so a caller can look at them
//! before reading the input (the `xcover` command does), then [`Args::run`].
use std::fmt;
use std::fs::File;
use std::io::{self, Write};

use xcover_core::dlx3::{ArgOutcome, Dlx3Error, Settings};

use crate::engine;
pub use crate::engine::knuth::Stream;
use crate::stats::{End, Stats};

/// Knuth's usage line for a program called `program` (what a bad argument gets on
/// stderr, with exit status 255).
///
/// ```
/// assert!(xcover_solver::knuth::usage("dlx3").starts_with("Usage: dlx3 [v<n>] [m<n>]"));
/// ```
pub fn usage(program: &str) -> String {
    format!(
        "Usage: {program} [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<bar>] < foo.dlx\n"
    )
}

/// Knuth's letter arguments, examined as his program examines them: from last to first
/// (the first occurrence of a letter wins), every `S<file>` created on the way (a file
/// that cannot be created gets his `Sorry, I can't open file` message on stderr and no
/// shape is written), a bad argument refused after all were examined.
///
/// ```
/// use xcover_solver::knuth::Args;
///
/// let args = Args::parse(["m1", "v0", "m5"], &mut std::io::sink()).expect("good arguments");
/// assert!(!args.has_shape_file());
/// assert!(Args::parse(["x1"], &mut std::io::sink()).is_err());
/// ```
#[derive(Debug)]
pub struct Args {
    settings: Settings,
    shape: Option<File>,
}

/// A bad letter argument (unknown letter, or a number that cannot be read): Knuth's
/// program prints [`usage`] and exits with status 255.
///
/// ```
/// let e = xcover_solver::knuth::Args::parse(["m"], &mut std::io::sink()).unwrap_err();
/// assert_eq!(e.to_string(), "bad argument");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadArgs;

impl fmt::Display for BadArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bad argument")
    }
}

impl std::error::Error for BadArgs {}

impl Args {
    /// Examines `args` (without the program's name), as bytes; `stderr` gets Knuth's
    /// message for a shape file that cannot be created (a failed write there is ignored,
    /// as his `fprintf`'s is).
    ///
    /// ```
    /// use xcover_solver::knuth::Args;
    ///
    /// let args = Args::parse(Vec::<String>::new(), &mut std::io::sink())?;
    /// assert_eq!(args.settings().get_verbosity(), 1025); // Knuth's default
    /// # Ok::<(), xcover_solver::knuth::BadArgs>(())
    /// ```
    pub fn parse<I, A>(args: I, stderr: &mut impl Write) -> Result<Args, BadArgs>
    where
        I: IntoIterator<Item = A>,
        A: AsRef<[u8]>,
    {
        let args: Vec<A> = args.into_iter().collect();
        let mut settings = Settings::DEFAULT;
        let mut shape = None;
        let mut bad = false;
        for arg in args.iter().rev() {
            match settings.apply_arg(arg.as_ref()) {
                ArgOutcome::Set => {}
                ArgOutcome::Bad => bad = true,
                ArgOutcome::ShapeFile(name) => {
                    // C string semantics: the name ends at a NUL byte.
                    let name = name.split(|&c| c == 0).next().unwrap_or_default();
                    shape = create(name);
                    if shape.is_none() {
                        let mut line = b"Sorry, I can't open file `".to_vec();
                        line.extend_from_slice(name);
                        line.extend_from_slice(b"' for writing!\n");
                        let _ = stderr.write_all(&line);
                    }
                }
            }
        }
        if bad {
            Err(BadArgs)
        } else {
            Ok(Args { settings, shape })
        }
    }

    /// The engine settings the arguments give (core's [`Settings`]).
    ///
    /// ```
    /// let args = xcover_solver::knuth::Args::parse(["m3"], &mut std::io::sink())?;
    /// assert_eq!(args.settings().get_print_interval(), 3);
    /// # Ok::<(), xcover_solver::knuth::BadArgs>(())
    /// ```
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether the arguments opened a shape file (`S<file>`).
    ///
    /// ```
    /// let args = xcover_solver::knuth::Args::parse(["v1"], &mut std::io::sink())?;
    /// assert!(!args.has_shape_file());
    /// # Ok::<(), xcover_solver::knuth::BadArgs>(())
    /// ```
    pub fn has_shape_file(&self) -> bool {
        self.shape.is_some()
    }

    /// The settings and the shape file, for a caller that drives core's engine itself
    /// (the `xcover` command's threads and shards).
    ///
    /// ```
    /// let (settings, shape) = xcover_solver::knuth::Args::parse(["t2"], &mut std::io::sink())?.into_parts();
    /// assert!(shape.is_none());
    /// # let _ = settings;
    /// # Ok::<(), xcover_solver::knuth::BadArgs>(())
    /// ```
    pub fn into_parts(self) -> (Settings, Option<File>) {
        (self.settings, self.shape)
    }

    /// Runs Knuth's program on `input` (his text format): [`Args::run_until`] never
    /// stopped from outside.
    ///
    /// ```
    /// use xcover_solver::knuth::Args;
    ///
    /// let args = Args::parse(["m1", "v0"], &mut std::io::sink()).expect("good arguments");
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// let end = args.run(b"A\nA\n", &mut out, &mut err)?;
    /// assert_eq!((end.status, out.as_slice(), err.len()), (0, &b"1:\n A (1 of 1)\n"[..], 0));
    /// # Ok::<(), xcover_solver::knuth::WriteError>(())
    /// ```
    pub fn run(
        self,
        input: &[u8],
        stdout: &mut impl Write,
        stderr: &mut impl Write,
    ) -> Result<Outcome, WriteError> {
        self.run_until(input, stdout, stderr, &|| false)
    }

    /// Runs Knuth's program on `input`, writing what it prints. Between slices of the
    /// search (about a tenth of a second each) `stderr` is flushed and `stop` asked;
    /// when it says true, the search ends like Knuth's `T` timeout: `INTERRUPTED!`, then
    /// the closing reports of the search so far, [`End::Stopped`]
    /// and status 130 (a shell's status after Ctrl-C).
    ///
    /// Bad input gets Knuth's report on `stderr` and his exit status in the [`Outcome`]
    /// (102; 252 for `Too many levels!`). A failed write to `stdout` ends the run at once
    /// (stdout is flushed after every solution), as does one to the shape file at the end;
    /// a failed write to `stderr` ends nothing (Knuth's `fprintf`), but is the error of
    /// an otherwise successful run.
    ///
    /// ```
    /// use xcover_solver::knuth::Args;
    ///
    /// let args = Args::parse(["v0"], &mut std::io::sink()).expect("good arguments");
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// let end = args.run_until(b"A\nA\nA\n", &mut out, &mut err, &|| true)?;
    /// assert_eq!((end.status, end.stats.end), (130, xcover_solver::End::Stopped));
    /// assert_eq!(err, b"INTERRUPTED!\n");
    /// # Ok::<(), xcover_solver::knuth::WriteError>(())
    /// ```
    pub fn run_until(
        self,
        input: &[u8],
        stdout: &mut impl Write,
        stderr: &mut impl Write,
        stop: &dyn Fn() -> bool,
    ) -> Result<Outcome, WriteError> {
        let (error, stats) =
            engine::knuth::run(self.settings, self.shape, input, stdout, stderr, stop)
                .map_err(|(stream, e)| WriteError::new(stream, e))?;
        let status = match (error, stats.end) {
            (Some(e), _) => e.exit_status(),
            (None, End::Stopped) => 130,
            (None, _) => 0,
        };
        Ok(Outcome {
            status,
            stats,
            error,
        })
    }
}

/// Creates the shape file `name` (bytes, as Knuth's `fopen` takes them).
fn create(name: &[u8]) -> Option<File> {
    #[cfg(unix)]
    let path = {
        use std::os::unix::ffi::OsStrExt;
        std::path::PathBuf::from(std::ffi::OsStr::from_bytes(name))
    };
    #[cfg(not(unix))]
    let path = std::path::PathBuf::from(String::from_utf8_lossy(name).into_owned());
    File::create(path).ok()
}

/// Everything Knuth's program does for `args` (without the program's name) and `input`,
/// usage message included: the text `xcover dlx3 ARGS < FILE` prints, and its exit
/// status in the [`Outcome`] (the usage line names the program `dlx3`).
///
/// ```
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let end = xcover_solver::knuth::run(["q"], b"A\nA\n", &mut out, &mut err)?;
/// assert_eq!(end.status, 255);
/// assert_eq!(String::from_utf8_lossy(&err), xcover_solver::knuth::usage("dlx3"));
/// # Ok::<(), xcover_solver::knuth::WriteError>(())
/// ```
pub fn run<I, A>(
    args: I,
    input: &[u8],
    stdout: &mut impl Write,
    stderr: &mut impl Write,
) -> Result<Outcome, WriteError>
where
    I: IntoIterator<Item = A>,
    A: AsRef<[u8]>,
{
    match Args::parse(args, stderr) {
        Ok(args) => args.run(input, stdout, stderr),
        Err(BadArgs) => {
            stderr
                .write_all(usage("dlx3").as_bytes())
                .and_then(|()| stderr.flush())
                .map_err(|e| WriteError::new(Stream::Stderr, e))?;
            Ok(Outcome {
                status: 255,
                stats: Stats::default(),
                error: None,
            })
        }
    }
}

/// How a run of Knuth's program ended.
///
/// ```
/// let end = xcover_solver::knuth::run(["v0"], b"A\nB\n", &mut std::io::sink(), &mut std::io::sink())?;
/// assert_eq!(end.status, 102); // `Unknown item name!`
/// assert_eq!(end.error.map(|e| e.message()), Some("Unknown item name"));
/// # Ok::<(), xcover_solver::knuth::WriteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Outcome {
    /// The exit status `xcover dlx3` gives: 0 done; 102 input error; 252 `Too many
    /// levels!`; 255 usage error; 130 stopped from outside; 1 storage the engine refused.
    pub status: i32,
    /// The counters of the search (zero when it did not start).
    pub stats: Stats,
    /// Knuth's error that ended the run (bad input, `Too many levels!`), already reported
    /// on stderr; `None` for a run that ended well, was stopped, or had bad arguments.
    pub error: Option<Dlx3Error>,
}

/// A failed write to one of the run's outputs: the one error type of this module.
///
/// ```
/// use std::io::{self, Write};
/// use xcover_solver::knuth::{run, Stream};
///
/// struct Full;
/// impl Write for Full {
///     fn write(&mut self, _: &[u8]) -> io::Result<usize> {
///         Err(io::Error::new(io::ErrorKind::Other, "no space"))
///     }
///     fn flush(&mut self) -> io::Result<()> { Ok(()) }
/// }
/// let e = run(["m1"], b"A\nA\n", &mut Full, &mut io::sink()).unwrap_err();
/// assert_eq!(e.stream(), Stream::Stdout);
/// assert_eq!(e.to_string(), "can't write standard output: no space");
/// ```
#[derive(Debug)]
pub struct WriteError {
    stream: Stream,
    error: io::Error,
}

impl WriteError {
    pub(crate) fn new(stream: Stream, error: io::Error) -> WriteError {
        WriteError { stream, error }
    }

    /// The output that failed.
    ///
    /// ```
    /// # use xcover_solver::knuth::{run, Stream};
    /// # struct Full;
    /// # impl std::io::Write for Full {
    /// #     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> { Err(std::io::ErrorKind::BrokenPipe.into()) }
    /// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// # }
    /// let e = run(["v1"], b"A\nA\n", &mut std::io::sink(), &mut Full).unwrap_err();
    /// assert_eq!(e.stream(), Stream::Stderr);
    /// ```
    pub fn stream(&self) -> Stream {
        self.stream
    }

    /// The write's error (`BrokenPipe` when the reader went away).
    ///
    /// ```
    /// # use xcover_solver::knuth::run;
    /// # struct Closed;
    /// # impl std::io::Write for Closed {
    /// #     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> { Err(std::io::ErrorKind::BrokenPipe.into()) }
    /// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// # }
    /// let e = run(["m1"], b"A\nA\n", &mut Closed, &mut std::io::sink()).unwrap_err();
    /// assert_eq!(e.io_error().kind(), std::io::ErrorKind::BrokenPipe);
    /// ```
    pub fn io_error(&self) -> &io::Error {
        &self.error
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.stream {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
            Stream::Shape => "the shape file",
        };
        write!(f, "can't write {what}: {}", self.error)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

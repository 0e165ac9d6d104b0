//! The command's one error type, [`CliError`]: a message and a [`Kind`], which alone
//! decides the exit status ([`CliError::exit_status`], the one table). Every subcommand
//! returns `Result<_, CliError>`; its `main` reports the error once ([`CliError::report`]).
use std::fmt;
use std::io::Write as _;

/// What went wrong, as far as the exit status is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The run failed: an unreadable, refused or damaged file, a failed write, too little
    /// memory. Status 1.
    Failure,
    /// A usage error of `gridcheck`, `sudoku` or the top level (clap's status): 2.
    Usage,
    /// A usage error of `dlx3` (and its export flags): Knuth's status, 255.
    KnuthUsage,
    /// Standard output is a closed pipe: quiet, with the status of a C program killed by
    /// SIGPIPE (128 + 13).
    BrokenPipe,
    /// A signal stopped the run: the shell's 128 + signal number.
    Interrupted(i32),
    /// One of Knuth's errors: the status core gives it ([`Dlx3Error::exit_status`]).
    ///
    /// [`Dlx3Error::exit_status`]: xcover_core::dlx3::Dlx3Error::exit_status
    Dlx3(xcover_core::dlx3::Dlx3Error),
}

/// An error of the `xcover` command: what to say (possibly nothing, when the output
/// already said it) and how the process ends.
#[derive(Debug)]
pub struct CliError {
    kind: Kind,
    /// The text after `COMMAND: `; empty when nothing more is to be said.
    message: String,
    /// A clap error (usage, or `--help` / `--version`, which clap reports as errors): clap
    /// prints it and gives its status.
    clap: Option<Box<clap::Error>>,
}

/// The command's result type.
pub type Result<T, E = CliError> = std::result::Result<T, E>;

impl CliError {
    /// An error of `kind` saying `message`.
    pub fn new(kind: Kind, message: impl Into<String>) -> CliError {
        CliError {
            kind,
            message: message.into(),
            clap: None,
        }
    }

    /// A failed run saying `message` (status 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError::new(Kind::Failure, message)
    }

    /// An error whose message the output already carries (Knuth's reports, `INTERRUPTED!`,
    /// a usage text): nothing more is printed.
    pub fn quiet(kind: Kind) -> CliError {
        CliError::new(kind, "")
    }

    /// A usage error of `xcover dlx3` (Knuth's status, 255) from clap's: its text without
    /// clap's `error: `, said after the command's name as every error is. Help and version,
    /// which clap reports as errors, stay clap's (printed, status 0).
    pub fn knuth_usage(e: clap::Error) -> CliError {
        if !e.use_stderr() {
            return CliError::from(e);
        }
        let text = e.render().to_string();
        let text = text.trim_end().trim_start_matches("error: ");
        CliError::new(Kind::KnuthUsage, text)
    }

    /// The error's kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The message (empty for a quiet error).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with `context: ` before its message (as a chain of causes reads).
    pub fn context(mut self, context: impl fmt::Display) -> CliError {
        self.message = if self.message.is_empty() {
            context.to_string()
        } else {
            format!("{context}: {}", self.message)
        };
        self
    }

    /// The process exit status: the one table of the command's statuses.
    pub fn exit_status(&self) -> i32 {
        if let Some(clap) = &self.clap {
            return clap.exit_code();
        }
        match self.kind {
            Kind::Failure => 1,
            Kind::Usage => 2,
            Kind::KnuthUsage => 255,
            Kind::BrokenPipe => 128 + libc::SIGPIPE,
            Kind::Interrupted(signal) => crate::signals::exit_status(signal),
            Kind::Dlx3(e) => e.exit_status(),
        }
    }

    /// Writes the error once, as `command: message` on stderr (clap's own text for a clap
    /// error, on stdout for `--help`), and returns the exit status. A failed write of help
    /// text is status 1; a failed write of an error message changes nothing (the run fails
    /// anyway).
    pub fn report(&self, command: &str) -> i32 {
        if let Some(clap) = &self.clap {
            return match clap.print() {
                Ok(()) => clap.exit_code(),
                Err(_) => 1,
            };
        }
        if !self.message.is_empty() {
            let _ = writeln!(std::io::stderr().lock(), "{command}: {}", self.message);
        }
        self.exit_status()
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.clap {
            Some(clap) => write!(f, "{clap}"),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CliError {}

/// `error: cause: cause…`, every message of a chain of causes once.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        let more = e.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = e.source();
    }
    text
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::failure(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::failure(message)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError::failure(chain(&e))
    }
}

impl From<crate::durable::DurableError> for CliError {
    fn from(e: crate::durable::DurableError) -> CliError {
        CliError::failure(chain(&e))
    }
}

impl From<xcover_core::dlx3::Dlx3Error> for CliError {
    fn from(e: xcover_core::dlx3::Dlx3Error) -> CliError {
        CliError::new(Kind::Dlx3(e), e.to_string())
    }
}

impl From<xcover_core::gridcheck::scan::ScanError> for CliError {
    fn from(e: xcover_core::gridcheck::scan::ScanError) -> CliError {
        CliError::failure(e.to_string())
    }
}

impl From<crate::memory::MemoryError> for CliError {
    fn from(e: crate::memory::MemoryError) -> CliError {
        CliError::failure(e.to_string())
    }
}

/// A bad `--shard` or `--threads` value outside clap (a part's header): clap reports it
/// as a usage error where it is an argument.
impl From<crate::shared_args::ArgError> for CliError {
    fn from(e: crate::shared_args::ArgError) -> CliError {
        CliError::failure(e.to_string())
    }
}

impl From<clap::Error> for CliError {
    fn from(e: clap::Error) -> CliError {
        CliError {
            kind: Kind::Usage,
            message: String::new(),
            clap: Some(Box::new(e)),
        }
    }
}

/// `context` / `with_context` on any result whose error becomes a [`CliError`]: the
/// context goes before the error's message, as `context: message`.
pub trait Context<T> {
    /// The error with `context: ` before its message.
    fn context(self, context: impl fmt::Display) -> Result<T>;
    /// The error with `f()` before its message, computed only on error.
    fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T>;
}

impl<T, E: Into<CliError>> Context<T> for std::result::Result<T, E> {
    fn context(self, context: impl fmt::Display) -> Result<T> {
        self.map_err(|e| e.into().context(context))
    }

    fn with_context<C: fmt::Display>(self, f: impl FnOnce() -> C) -> Result<T> {
        self.map_err(|e| e.into().context(f()))
    }
}

/// A failure ([`Kind::Failure`]) from a format string, or any error that converts.
macro_rules! cli_error {
    ($msg:literal $(,)?) => {
        $crate::error::CliError::failure(format!($msg))
    };
    ($fmt:literal, $($arg:tt)+) => {
        $crate::error::CliError::failure(format!($fmt, $($arg)+))
    };
    ($err:expr $(,)?) => {
        $crate::error::CliError::from($err)
    };
}

/// Returns a failure ([`Kind::Failure`]) from a format string.
macro_rules! bail {
    ($($arg:tt)+) => {
        return Err($crate::error::cli_error!($($arg)+))
    };
}

pub(crate) use {bail, cli_error};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_status() {
        let status = |kind| CliError::quiet(kind).exit_status();
        assert_eq!(status(Kind::Failure), 1);
        assert_eq!(status(Kind::Usage), 2);
        assert_eq!(status(Kind::KnuthUsage), 255);
        assert_eq!(status(Kind::BrokenPipe), 141);
        assert_eq!(status(Kind::Interrupted(libc::SIGTERM)), 143);
        let knuth = xcover_core::dlx3::Dlx3Error::TooManyLevels;
        assert_eq!(CliError::from(knuth).exit_status(), knuth.exit_status());
    }

    #[test]
    fn an_io_error_is_told_once() {
        let full = CliError::from(std::io::Error::from_raw_os_error(libc::ENOSPC));
        assert_eq!(full.kind(), Kind::Failure);
        assert_eq!(full.message().matches("No space left").count(), 1);
    }

    #[test]
    fn context_goes_before_the_message() {
        let e: Result<(), std::io::Error> = Err(std::io::ErrorKind::NotFound.into());
        let e = e.with_context(|| "reading grids.txt").unwrap_err();
        assert!(e.message().starts_with("reading grids.txt: "), "{e}");
        assert_eq!(CliError::quiet(Kind::Failure).context("x").message(), "x");
    }
}

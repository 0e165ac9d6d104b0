//! The arguments every subcommand reads alike:
//!
//! - `--shard I/N`: core's one parser ([`Part::parse`], with its one limit
//!   [`Part::MAX_COUNT`]), its error said after the text;
//! - `--threads N`: N worker threads, `0` one per available core; without it, one thread
//!   (so a plain run is reproducible and its bytes are the one-thread run's).
use std::fmt;

use xcover_core::dlx3::{Part, PartParseError};

/// The most threads `--threads` takes: more would only wait, and a typo like 10000000 is
/// refused rather than started.
pub const MAX_THREADS: usize = 4096;

/// A value of `--shard` or `--threads` that is refused: its text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// `--shard TEXT` is not a part I/N.
    Shard {
        /// The value given.
        text: String,
        /// Core's reason.
        error: PartParseError,
    },
    /// `--threads TEXT` is not a number of threads up to [`MAX_THREADS`].
    Threads {
        /// The value given.
        text: String,
    },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Shard { text, error } => write!(f, "`{text}`: {error}"),
            ArgError::Threads { text } => write!(
                f,
                "wants a number of threads, 0 for one per core (at most {MAX_THREADS}), not \
                 `{text}'"
            ),
        }
    }
}

impl std::error::Error for ArgError {}

/// Part I of N from `I/N`; the error names the text, e.g. `` `3/2`: I must be below N ``.
pub fn parse_shard(text: &str) -> Result<Part, ArgError> {
    Part::parse(text).map_err(|error| ArgError::Shard {
        text: text.to_owned(),
        error,
    })
}

/// `--threads N`: a number of threads, `0` for one per available core (see
/// [`worker_threads`]).
pub fn parse_threads(text: &str) -> Result<usize, ArgError> {
    match text.parse::<usize>() {
        // Digits only: `+2` is not a number of threads.
        Ok(n) if n <= MAX_THREADS && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ArgError::Threads {
            text: text.to_owned(),
        }),
    }
}

/// The worker threads of `--threads`: `None` (not given) is 1, `Some(0)` one per available
/// core, `Some(n)` n.
pub fn worker_threads(threads: Option<usize>) -> usize {
    match threads {
        None => 1,
        Some(0) => std::thread::available_parallelism().map_or(1, usize::from),
        Some(n) => n,
    }
}

/// `e` with `command`'s usage line when clap left it out (it does for a bad value):
/// every usage error of a subcommand shows how to call it.
pub fn with_usage(e: clap::Error, command: &mut clap::Command) -> clap::Error {
    let text = e.render().to_string();
    if !e.use_stderr() || text.contains("Usage:") {
        return e;
    }
    let first = text.split("\n\n").next().unwrap_or_default();
    command.error(e.kind(), first.trim_start_matches("error: "))
}

/// How much a `--verify K|all` audits (dlx3 units, gridcheck chunks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Amount {
    /// Every unit.
    All,
    /// This many units of each part (all of a part that has fewer).
    Units(u64),
}

/// A `--verify` value that is neither a number of chunks nor `all` (its text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AmountError(String);

impl std::fmt::Display for AmountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: a number of chunks (1 or more) or `all`", self.0)
    }
}

impl std::error::Error for AmountError {}

/// `--verify K|all` of `xcover gridcheck --resume` and `xcover gridcheck merge` (a clap
/// value parser: an error is a usage error).
pub(crate) fn parse_amount(text: &str) -> Result<Amount, AmountError> {
    match text {
        "all" => Ok(Amount::All),
        k => match k.parse::<u64>() {
            Ok(k) if k > 0 => Ok(Amount::Units(k)),
            _ => Err(AmountError(k.to_owned())),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shards_are_refused_with_the_text() {
        assert_eq!(parse_shard("2/5"), Ok(Part::new(2, 5).unwrap()));
        assert_eq!(parse_shard("65535/65536").ok(), Part::new(65535, 65536));
        for (bad, why) in [
            ("0/0", "at least 1"),
            ("3/2", "below N"),
            ("2/2", "below N"),
            ("junk", "is not I/N"),
            ("", "is not I/N"),
            ("a/2", "not a number"),
            ("1/b", "not a number"),
            ("-1/2", "not a number"),
            ("+1/2", "not a number"),
            (" 1/2", "not a number"),
            ("1/2/3", "not a number"),
            ("0/65537", "at most 65536 shards"),
            ("0/18446744073709551616", "at most 65536 shards"),
            ("18446744073709551616/2", "not a number"),
            ("16777216/16777217", "at most 65536 shards"),
        ] {
            let message = parse_shard(bad).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("`{bad}`: ")),
                "{bad}: {message}"
            );
            assert!(message.contains(why), "{bad}: {message}");
        }
    }

    #[test]
    fn threads_mean_the_same_everywhere() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert_eq!(parse_threads("0"), Ok(0));
        assert_eq!(parse_threads("4096"), Ok(MAX_THREADS));
        for bad in ["x", "-1", "+2", "", " 2", "4097", "99999999999999999999999"] {
            let message = parse_threads(bad).unwrap_err().to_string();
            assert!(message.contains(&format!("not `{bad}'")), "{message}");
            assert!(
                message.starts_with("wants a number of threads"),
                "{message}"
            );
        }
        assert_eq!(worker_threads(None), 1);
        assert_eq!(worker_threads(Some(3)), 3);
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(worker_threads(Some(0)), cores);
    }
}

//! The crate's one error type: what went wrong, and where (input line, position, item).
use std::fmt;

pub use xcover_core::dlx3::InputError;

/// What went wrong.
///
/// ```
/// use xcover_solver::{ErrorKind, InputError, Problem};
///
/// let err = Problem::parse("A\nB\n").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Input(InputError::UnknownItemName));
/// let err = Problem::builder().primary("a").secondary("s").option([("s", "")]).build();
/// assert_eq!(err.unwrap_err().kind(), ErrorKind::Builder);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Bad input, with Knuth's message (`Unknown item name`, ...): from text read by
    /// [`Problem::parse`](crate::Problem::parse), or from a [`ProblemBuilder`](crate::ProblemBuilder)
    /// call that the same text would have refused.
    Input(InputError),
    /// The search went deeper than its levels allow (Knuth's `Too many levels!`).
    TooManyLevels,
    /// A builder mistake that text cannot make, so Knuth has no message for it: an empty
    /// color, too many colors on one item, a bound too large (see [`Error::message`]).
    Builder,
    /// A Sudoku grid, puzzle or clue mask that cannot be read, or a grid scan that cannot
    /// be set up.
    Sudoku,
    /// Reading the input failed.
    Io,
    /// Anything else the engine refused (a bug if it happens: please report it).
    Engine,
}

/// The error of every fallible call in this crate.
///
/// Its [`Display`](fmt::Display) starts with the message the `xcover` command prints for
/// the same problem (Knuth's, for bad DLX input), followed by where it is: for text, the
/// 1-based line, Knuth's scan position in it and the line itself (its first 99 bytes, as
/// the command shows it); for the builder, the item concerned.
///
/// ```
/// use xcover_solver::{ErrorKind, InputError, Problem};
///
/// let err = Problem::parse("A B\nA C\n").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Input(InputError::UnknownItemName));
/// assert_eq!(err.message(), "Unknown item name");
/// assert_eq!((err.line(), err.position()), (Some(2), Some(2)));
/// assert_eq!(err.to_string(), "Unknown item name! (line 2, position 2: A C)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    line: Option<usize>,
    position: Option<usize>,
    line_text: Option<String>,
    item: Option<String>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            line: None,
            position: None,
            line_text: None,
            item: None,
        }
    }

    /// An input error with Knuth's message.
    pub(crate) fn input(kind: InputError) -> Error {
        Error::new(ErrorKind::Input(kind), kind.message())
    }

    /// This error at line `line` (1-based), scan position `position`, line text `text`.
    pub(crate) fn at_line(mut self, line: usize, position: usize, text: String) -> Error {
        (self.line, self.position, self.line_text) = (Some(line), Some(position), Some(text));
        self
    }

    /// This error about item `name`.
    pub(crate) fn with_item(mut self, name: &str) -> Error {
        self.item = Some(name.to_owned());
        self
    }

    /// What went wrong.
    ///
    /// ```
    /// use xcover_solver::{ErrorKind, Problem};
    ///
    /// let err = Problem::parse("").unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::Input(_)));
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message alone, without the place (for input errors, Knuth's text without `!`).
    ///
    /// ```
    /// let err = xcover_solver::Problem::parse("A A\nA\n").unwrap_err();
    /// assert_eq!(err.message(), "Duplicate item name");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The 1-based input line of an error in text.
    ///
    /// ```
    /// let err = xcover_solver::Problem::parse("A\nA\nB\n").unwrap_err();
    /// assert_eq!(err.line(), Some(3));
    /// ```
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// Knuth's scan position (0-based byte index) in the line of an error in text.
    ///
    /// ```
    /// let err = xcover_solver::Problem::parse("A | X\nA X:\n").unwrap_err();
    /// assert_eq!(err.position(), Some(2));
    /// ```
    pub fn position(&self) -> Option<usize> {
        self.position
    }

    /// The offending line of an error in text (its first 99 bytes, without the newline).
    ///
    /// ```
    /// let err = xcover_solver::Problem::parse("A\nB\n").unwrap_err();
    /// assert_eq!(err.line_text(), Some("B"));
    /// ```
    pub fn line_text(&self) -> Option<&str> {
        self.line_text.as_deref()
    }

    /// The item a builder error is about.
    ///
    /// ```
    /// let err = xcover_solver::Problem::builder().primary("a long name").option(["b"]).build();
    /// assert_eq!(err.unwrap_err().item(), Some("b"));
    /// ```
    pub fn item(&self) -> Option<&str> {
        self.item.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if matches!(self.kind, ErrorKind::Input(_) | ErrorKind::TooManyLevels) {
            f.write_str("!")?;
        }
        match (self.line, self.position, &self.line_text) {
            (Some(line), Some(pos), Some(text)) => {
                write!(f, " (line {line}, position {pos}: {text})")?
            }
            (Some(line), _, _) => write!(f, " (line {line})")?,
            _ => {}
        }
        if let Some(item) = &self.item {
            write!(f, " (item `{item}`)")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io, format!("can't read the input: {e}"))
    }
}

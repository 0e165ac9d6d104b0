//! The one error type of the DLX3 module, with Knuth's message texts: the one place they
//! are written (the C ABI's status messages are these strings).
use core::ffi::CStr;
use core::fmt;

/// An input error (Knuth's `panic(...)` messages while reading the matrix).
///
/// ```
/// use xcover_core::dlx3::InputError;
///
/// let kind = InputError::UnknownItemName;
/// assert_eq!(kind.to_string(), "Unknown item name");
/// assert_eq!(kind.message_cstr().to_bytes(), kind.message().as_bytes());
/// let _: &dyn core::error::Error = &kind;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// A line before or at the item line lacks its final newline (or is too long).
    InputLineTooLong,
    /// End of input before an item line.
    NoItems,
    /// `:` in an item name.
    IllegalColon,
    /// `|` in an item name.
    IllegalBar,
    /// Non-digit in a bound prefix.
    IllegalDigit,
    /// Upper bound 0.
    UpperBoundZero,
    /// `a > b` in `a:b|`.
    LowerExceedsUpper,
    /// `a:` not followed by `b|`.
    LowerWithoutUpper,
    /// Empty item name on the item line.
    ItemNameEmpty,
    /// More than 8 characters in a name.
    ItemNameTooLong,
    /// Same name twice on the item line.
    DuplicateItemName,
    /// More items than the storage holds.
    TooManyItems,
    /// Two separators on the item line.
    BarTwice,
    /// An option line lacks its final newline (or is too long).
    OptionLineTooLong,
    /// An option token with an empty name.
    EmptyItemName,
    /// An option names an unknown item.
    UnknownItemName,
    /// An option names an item twice.
    DuplicateItemInOption,
    /// Bad `:c` color syntax.
    ColorNotSingle,
    /// A color on a primary item.
    PrimaryColored,
    /// More nodes than the storage holds.
    TooManyNodes,
}

impl InputError {
    /// Every input error, in the order of Knuth's program.
    pub const ALL: [InputError; 20] = [
        InputError::InputLineTooLong,
        InputError::NoItems,
        InputError::IllegalColon,
        InputError::IllegalBar,
        InputError::IllegalDigit,
        InputError::UpperBoundZero,
        InputError::LowerExceedsUpper,
        InputError::LowerWithoutUpper,
        InputError::ItemNameEmpty,
        InputError::ItemNameTooLong,
        InputError::DuplicateItemName,
        InputError::TooManyItems,
        InputError::BarTwice,
        InputError::OptionLineTooLong,
        InputError::EmptyItemName,
        InputError::UnknownItemName,
        InputError::DuplicateItemInOption,
        InputError::ColorNotSingle,
        InputError::PrimaryColored,
        InputError::TooManyNodes,
    ];

    /// Knuth's message text (without the `!`), NUL-terminated for C.
    pub const fn message_cstr(self) -> &'static CStr {
        match self {
            InputError::InputLineTooLong => c"Input line way too long",
            InputError::NoItems => c"No items",
            InputError::IllegalColon => c"Illegal `:' in item name",
            InputError::IllegalBar => c"Illegal `|' in item name",
            InputError::IllegalDigit => c"Illegal digit in bound spec",
            InputError::UpperBoundZero => c"Upper bound is zero",
            InputError::LowerExceedsUpper => c"Lower bound exceeds upper bound",
            InputError::LowerWithoutUpper => c"Lower bound without upper bound",
            InputError::ItemNameEmpty => c"Item name empty",
            InputError::ItemNameTooLong => c"Item name too long",
            InputError::DuplicateItemName => c"Duplicate item name",
            InputError::TooManyItems => c"Too many items",
            InputError::BarTwice => c"Item name line contains | twice",
            InputError::OptionLineTooLong => c"Option line too long",
            InputError::EmptyItemName => c"Empty item name",
            InputError::UnknownItemName => c"Unknown item name",
            InputError::DuplicateItemInOption => c"Duplicate item name in this option",
            InputError::ColorNotSingle => c"Color must be a single character",
            InputError::PrimaryColored => c"Primary item must be uncolored",
            InputError::TooManyNodes => c"Too many nodes",
        }
    }

    /// Knuth's message text (without the `!`).
    pub const fn message(self) -> &'static str {
        match core::str::from_utf8(self.message_cstr().to_bytes()) {
            Ok(text) => text,
            // Every message above is ASCII.
            Err(_) => "",
        }
    }
}

impl fmt::Display for InputError {
    /// Knuth's message without the `!`, e.g. `Unknown item name`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl core::error::Error for InputError {}

/// Everything that can go wrong in the DLX3 engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dlx3Error {
    /// Bad input; `pos` is Knuth's scan position inside the offending line.
    Input {
        /// What is wrong.
        kind: InputError,
        /// Scan position (0-based byte index) in the line.
        pos: i32,
    },
    /// The search went `levels.len()` levels deep (Knuth: exit status 252).
    TooManyLevels,
    /// The storage cannot hold even the root item, its header and the level 0 state.
    StorageTooSmall,
    /// The storage has more node or item slots than its link width can address.
    StorageTooLarge,
    /// Randomizing (`s<seed>`) with 16-bit links, whose engines carry no generator.
    RandomizingUnsupported,
    /// A preloaded matrix image is not a structure the parser could have built.
    BadImage,
    /// A call that does not fit the engine's phase (e.g. `run` before `end_input`).
    OutOfOrder,
    /// Splitting a search with random tie breaks (`s<seed>`): its one random stream makes
    /// every part depend on the others.
    SplitUnsupported,
}

impl Dlx3Error {
    /// The exit status Knuth's program uses for this error.
    pub const fn exit_status(&self) -> i32 {
        match self {
            Dlx3Error::Input { .. } => 102,
            Dlx3Error::TooManyLevels => 252,
            Dlx3Error::StorageTooSmall
            | Dlx3Error::StorageTooLarge
            | Dlx3Error::RandomizingUnsupported
            | Dlx3Error::BadImage
            | Dlx3Error::OutOfOrder
            | Dlx3Error::SplitUnsupported => 1,
        }
    }
}

impl Dlx3Error {
    /// Knuth's message text without the final `!`, e.g. `Unknown item name`.
    pub const fn message(&self) -> &'static str {
        match self {
            Dlx3Error::Input { kind, .. } => kind.message(),
            Dlx3Error::TooManyLevels => "Too many levels",
            Dlx3Error::StorageTooSmall => "Storage too small",
            Dlx3Error::StorageTooLarge => "Storage too large for its link width",
            Dlx3Error::RandomizingUnsupported => "Randomizing needs 32-bit links",
            Dlx3Error::BadImage => "Bad matrix image",
            Dlx3Error::OutOfOrder => "Engine call out of order",
            Dlx3Error::SplitUnsupported => "A randomized search can't be split",
        }
    }
}

impl fmt::Display for Dlx3Error {
    /// The first line of Knuth's report, e.g. `Unknown item name!` or `Too many levels!`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}!", self.message())
    }
}

/// The message already names the [`InputError`] of bad input, so `source` is `None`.
impl core::error::Error for Dlx3Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn all_lists_each_input_error_once() {
        for (i, a) in InputError::ALL.iter().enumerate() {
            assert!(!a.message().is_empty() && a.message().is_ascii(), "{a:?}");
            for b in &InputError::ALL[i + 1..] {
                assert!(a != b && a.message() != b.message(), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn display_is_knuths_report_line() {
        let e = Dlx3Error::Input {
            kind: InputError::ColorNotSingle,
            pos: 3,
        };
        assert_eq!(e.to_string(), "Color must be a single character!");
        assert_eq!(InputError::NoItems.to_string(), "No items");
        assert_eq!(Dlx3Error::TooManyLevels.to_string(), "Too many levels!");
    }
}

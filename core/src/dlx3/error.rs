//! The one error type of the DLX3 module, with Knuth's message texts.
use core::fmt;

/// An input error (Knuth's `panic(...)` messages while reading the matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Knuth's message text (without the `!`).
    pub const fn message(self) -> &'static str {
        match self {
            InputError::InputLineTooLong => "Input line way too long",
            InputError::NoItems => "No items",
            InputError::IllegalColon => "Illegal `:' in item name",
            InputError::IllegalBar => "Illegal `|' in item name",
            InputError::IllegalDigit => "Illegal digit in bound spec",
            InputError::UpperBoundZero => "Upper bound is zero",
            InputError::LowerExceedsUpper => "Lower bound exceeds upper bound",
            InputError::LowerWithoutUpper => "Lower bound without upper bound",
            InputError::ItemNameEmpty => "Item name empty",
            InputError::ItemNameTooLong => "Item name too long",
            InputError::DuplicateItemName => "Duplicate item name",
            InputError::TooManyItems => "Too many items",
            InputError::BarTwice => "Item name line contains | twice",
            InputError::OptionLineTooLong => "Option line too long",
            InputError::EmptyItemName => "Empty item name",
            InputError::UnknownItemName => "Unknown item name",
            InputError::DuplicateItemInOption => "Duplicate item name in this option",
            InputError::ColorNotSingle => "Color must be a single character",
            InputError::PrimaryColored => "Primary item must be uncolored",
            InputError::TooManyNodes => "Too many nodes",
        }
    }
}

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

impl core::error::Error for Dlx3Error {}

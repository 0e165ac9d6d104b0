//! The one status code every exported function returns.
//!
//! Codes are grouped: 0..=15 progress (not errors), 16..=63 API misuse and capacity errors,
//! 64..=127 one code per Knuth input-error message (the message text is exactly Knuth's,
//! without the `!`; where in the text is reported separately in `dlx3_parse_error`),
//! 128..=191 the grid checker (`gridcheck_*`).
//! Numbers never change once published; new codes are only appended inside their group.
#![allow(non_camel_case_types)]

use xcover_core::dlx3::{Dlx3Error, InputError};

use core::ffi::c_char;

/// Defines the status enum and its message table from one list: each variant with its
/// documentation, number and message (as rustls-ffi's `u32_enum_builder!`). The parse
/// errors' messages are core's ([`InputError::message_cstr`]), written once. cbindgen does
/// not expand macros, so `ffi/tests/header.rs` hands it the same list as a plain enum (the
/// lines of the invocation below without their messages) and checks it against `ALL`.
macro_rules! status_table {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[doc = $doc:literal])* $variant:ident = $code:literal => $message:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[repr(u32)]
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $name {
            $( $(#[doc = $doc])* $variant = $code, )*
        }

        impl $name {
            /// The NUL-terminated message of this status (Knuth's exact words for parse
            /// errors).
            pub const fn message_cstr(self) -> &'static core::ffi::CStr {
                match self {
                    $( $name::$variant => $message, )*
                }
            }

            /// Every status, in the order of the table (numeric order: a test checks it).
            pub const ALL: [$name; [$($code),*].len()] = [$($name::$variant),*];
        }
    };
}

status_table! {
    /// Result of every `xcover_*`, `dlx3_*` and `gridcheck_*` function.
    ///
    /// In C this is a `uint32_t` (`typedef uint32_t xcover_status;`) with named constants.
    /// Use `xcover_status_message()` for a human-readable text.
    pub enum xcover_status {
        /// Success.
        XCOVER_OK = 0 => c"OK",
        /// `dlx3_solve_step`: a solution was found; read it, then call `dlx3_solve_step` again.
        XCOVER_SOLUTION = 1 => c"solution found",
        /// `dlx3_solve_step`: the search is over (finished, solution limit or mem timeout).
        XCOVER_DONE = 2 => c"search finished",
        /// `dlx3_solve_step`: the mem budget of this call is used up; call again to resume.
        XCOVER_BUDGET_EXHAUSTED = 3 => c"mem budget exhausted; call again to resume",
        /// `gridcheck_step`: the chunk stopped at a puzzle (stop-at-first, or the callback
        /// returned nonzero); it cannot be resumed (`gridcheck_step` keeps returning this).
        XCOVER_STOPPED = 4 => c"stopped at a puzzle",

        /// A required pointer argument was NULL.
        XCOVER_NULL_POINTER = 16 => c"null pointer argument",
        /// The caller's buffer (or an output array) is smaller than required.
        XCOVER_BUFFER_TOO_SMALL = 17 => c"buffer too small",
        /// A pointer is not aligned as required (see `*align` of the sizing function).
        XCOVER_MISALIGNED = 18 => c"misaligned pointer",
        /// The call is not allowed in the workspace's current state (call out of order).
        XCOVER_BAD_STATE = 19 => c"call not allowed in the workspace's current state",
        /// The handle does not point to an initialized workspace (bad magic number).
        XCOVER_NOT_INITIALIZED = 20 => c"workspace not initialized",
        /// The workspace was marked dead by an earlier error; only `dlx3_get_stats`, `dlx3_get_state`, `dlx3_release` and a
        /// new init over the same buffer are possible.
        XCOVER_DEAD = 21 => c"workspace is dead after an earlier error",
        /// Init over a buffer that still holds a live workspace (release it first).
        XCOVER_ALREADY_INITIALIZED = 22 => c"buffer already holds a live workspace",
        /// An argument value is out of range (index, count, bound, name length, setting).
        XCOVER_BAD_ARGUMENT = 23 => c"argument out of range",
        /// `dlx3_add_item`: more items than the capacity given at init (the workspace stays
        /// usable). `dlx3_parse` reports this as XCOVER_PARSE_TOO_MANY_ITEMS, Knuth's message.
        XCOVER_TOO_MANY_ITEMS = 24 => c"too many items for the workspace capacity",
        /// `dlx3_add_item` / `dlx3_add_option`: more nodes than the capacity given at init (the
        /// workspace stays usable). `dlx3_parse` reports this as XCOVER_PARSE_TOO_MANY_NODES, Knuth's message.
        XCOVER_TOO_MANY_NODES = 25 => c"too many nodes for the workspace capacity",
        /// The search needs more levels than the capacity given at init (Knuth: exit 252).
        XCOVER_TOO_MANY_LEVELS = 26 => c"Too many levels",
        /// A preloaded image is inconsistent (bad counts, indices or names).
        XCOVER_BAD_IMAGE = 27 => c"inconsistent preloaded image",
        /// An internal invariant failed; please report it. The workspace is dead.
        XCOVER_INTERNAL_ERROR = 28 => c"internal error",

        /// Knuth: `Input line way too long`.
        XCOVER_PARSE_INPUT_LINE_TOO_LONG = 64 => InputError::InputLineTooLong.message_cstr(),
        /// Knuth: `No items`.
        XCOVER_PARSE_NO_ITEMS = 65 => InputError::NoItems.message_cstr(),
        /// Knuth: ``Illegal `:' in item name``.
        XCOVER_PARSE_ILLEGAL_COLON = 66 => InputError::IllegalColon.message_cstr(),
        /// Knuth: ``Illegal `|' in item name``.
        XCOVER_PARSE_ILLEGAL_BAR = 67 => InputError::IllegalBar.message_cstr(),
        /// Knuth: `Illegal digit in bound spec`.
        XCOVER_PARSE_ILLEGAL_DIGIT = 68 => InputError::IllegalDigit.message_cstr(),
        /// Knuth: `Upper bound is zero`.
        XCOVER_PARSE_UPPER_BOUND_ZERO = 69 => InputError::UpperBoundZero.message_cstr(),
        /// Knuth: `Lower bound exceeds upper bound`.
        XCOVER_PARSE_LOWER_EXCEEDS_UPPER = 70 => InputError::LowerExceedsUpper.message_cstr(),
        /// Knuth: `Lower bound without upper bound`.
        XCOVER_PARSE_LOWER_WITHOUT_UPPER = 71 => InputError::LowerWithoutUpper.message_cstr(),
        /// Knuth: `Item name empty`.
        XCOVER_PARSE_ITEM_NAME_EMPTY = 72 => InputError::ItemNameEmpty.message_cstr(),
        /// Knuth: `Item name too long`.
        XCOVER_PARSE_ITEM_NAME_TOO_LONG = 73 => InputError::ItemNameTooLong.message_cstr(),
        /// Knuth: `Duplicate item name`.
        XCOVER_PARSE_DUPLICATE_ITEM_NAME = 74 => InputError::DuplicateItemName.message_cstr(),
        /// Knuth: `Too many items`.
        XCOVER_PARSE_TOO_MANY_ITEMS = 75 => InputError::TooManyItems.message_cstr(),
        /// Knuth: `Item name line contains | twice`.
        XCOVER_PARSE_BAR_TWICE = 76 => InputError::BarTwice.message_cstr(),
        /// Knuth: `Option line too long`.
        XCOVER_PARSE_OPTION_LINE_TOO_LONG = 77 => InputError::OptionLineTooLong.message_cstr(),
        /// Knuth: `Empty item name`.
        XCOVER_PARSE_EMPTY_ITEM_NAME = 78 => InputError::EmptyItemName.message_cstr(),
        /// Knuth: `Unknown item name`.
        XCOVER_PARSE_UNKNOWN_ITEM_NAME = 79 => InputError::UnknownItemName.message_cstr(),
        /// Knuth: `Duplicate item name in this option`.
        XCOVER_PARSE_DUPLICATE_IN_OPTION = 80 => InputError::DuplicateItemInOption.message_cstr(),
        /// Knuth: `Color must be a single character`.
        XCOVER_PARSE_COLOR_NOT_SINGLE_CHAR = 81 => InputError::ColorNotSingle.message_cstr(),
        /// Knuth: `Primary item must be uncolored`.
        XCOVER_PARSE_PRIMARY_COLORED = 82 => InputError::PrimaryColored.message_cstr(),
        /// Knuth: `Too many nodes`.
        XCOVER_PARSE_TOO_MANY_NODES = 83 => InputError::TooManyNodes.message_cstr(),

        /// `gridcheck_set_grid`: not a solution grid (81 digits 1..9, every row, column and
        /// box a permutation).
        XCOVER_GRIDCHECK_BAD_GRID = 128 => c"not a valid solution grid",
        /// `gridcheck_set_options`: the clue mask has more than 81 characters.
        XCOVER_GRIDCHECK_BAD_MASK = 129 => c"clue mask longer than 81 characters",
        /// `gridcheck_set_options`: the clue count is outside 1..=limits.max_clues.
        XCOVER_GRIDCHECK_BAD_CLUES = 130 => c"clue count out of range",
        /// `gridcheck_set_options`: the mask forces more givens than the clue count.
        XCOVER_GRIDCHECK_TOO_MANY_FORCED = 131 => c"the mask forces more givens than the clue count",
        /// `gridcheck_add_ua`: not a UA line (81 characters `0`/`1`, or `{rc,rc,...}`).
        XCOVER_GRIDCHECK_BAD_UA_TEXT = 132 => c"bad unavoidable-set text",
        /// `gridcheck_add_ua`: the set is not an unavoidable set of the grid (refused).
        XCOVER_GRIDCHECK_NOT_A_UA = 133 => c"not an unavoidable set of the grid",
        /// `gridcheck_add_ua` / `gridcheck_generate_ua` / `gridcheck_generate_default_ua`:
        /// the UA list is full (limits.max_ua).
        XCOVER_GRIDCHECK_UA_LIST_FULL = 134 => c"unavoidable-set list full",
        /// `gridcheck_chunk_begin`: the chunk id does not belong to this scan.
        XCOVER_GRIDCHECK_BAD_CHUNK = 135 => c"chunk id does not belong to this scan",
        /// `gridcheck_last_puzzle`: no puzzle has been found yet.
        XCOVER_GRIDCHECK_NO_PUZZLE = 136 => c"no puzzle found yet",
    }
}

impl xcover_status {
    /// The status with this number, if there is one.
    pub fn from_u32(code: u32) -> Option<xcover_status> {
        Self::ALL.iter().copied().find(|s| *s as u32 == code)
    }

    /// True for the progress codes OK, SOLUTION, DONE, BUDGET_EXHAUSTED and STOPPED.
    pub const fn is_success(self) -> bool {
        (self as u32) < 16
    }

    /// True for the parse-error group (one code per Knuth message).
    pub const fn is_parse_error(self) -> bool {
        let code = self as u32;
        code >= 64 && code < 128
    }

    /// True for the grid-checker group (128..=191).
    pub const fn is_gridcheck_error(self) -> bool {
        let code = self as u32;
        code >= 128 && code < 192
    }
}

/// An `xcover_status` as C passes it in: the header's type, but any number, since a C
/// enum variable (or the `uint32_t` of the typedef before C23) can hold one that names no
/// status, and a Rust enum must never. The header shows it as `xcover_status`
/// (`[export.rename]` in cbindgen.toml).
/// cbindgen:ignore
pub type xcover_status_value = u32;

/// Returns a static, NUL-terminated English message for `status` (Knuth's exact wording,
/// without the trailing `!`, for the `XCOVER_PARSE_*` codes). Any number is safe: one that
/// names no status gives `"unknown status"`. Never returns NULL; the string must not be
/// freed.
#[no_mangle]
pub extern "C" fn xcover_status_message(status: xcover_status_value) -> *const c_char {
    match xcover_status::from_u32(status) {
        Some(known) => known.message_cstr().as_ptr(),
        None => c"unknown status".as_ptr(),
    }
}

/// The status for an engine error.
pub fn status_of_error(e: Dlx3Error) -> xcover_status {
    use xcover_status::*;
    match e {
        Dlx3Error::Input { kind, .. } => match kind {
            InputError::InputLineTooLong => XCOVER_PARSE_INPUT_LINE_TOO_LONG,
            InputError::NoItems => XCOVER_PARSE_NO_ITEMS,
            InputError::IllegalColon => XCOVER_PARSE_ILLEGAL_COLON,
            InputError::IllegalBar => XCOVER_PARSE_ILLEGAL_BAR,
            InputError::IllegalDigit => XCOVER_PARSE_ILLEGAL_DIGIT,
            InputError::UpperBoundZero => XCOVER_PARSE_UPPER_BOUND_ZERO,
            InputError::LowerExceedsUpper => XCOVER_PARSE_LOWER_EXCEEDS_UPPER,
            InputError::LowerWithoutUpper => XCOVER_PARSE_LOWER_WITHOUT_UPPER,
            InputError::ItemNameEmpty => XCOVER_PARSE_ITEM_NAME_EMPTY,
            InputError::ItemNameTooLong => XCOVER_PARSE_ITEM_NAME_TOO_LONG,
            InputError::DuplicateItemName => XCOVER_PARSE_DUPLICATE_ITEM_NAME,
            InputError::TooManyItems => XCOVER_PARSE_TOO_MANY_ITEMS,
            InputError::BarTwice => XCOVER_PARSE_BAR_TWICE,
            InputError::OptionLineTooLong => XCOVER_PARSE_OPTION_LINE_TOO_LONG,
            InputError::EmptyItemName => XCOVER_PARSE_EMPTY_ITEM_NAME,
            InputError::UnknownItemName => XCOVER_PARSE_UNKNOWN_ITEM_NAME,
            InputError::DuplicateItemInOption => XCOVER_PARSE_DUPLICATE_IN_OPTION,
            InputError::ColorNotSingle => XCOVER_PARSE_COLOR_NOT_SINGLE_CHAR,
            InputError::PrimaryColored => XCOVER_PARSE_PRIMARY_COLORED,
            InputError::TooManyNodes => XCOVER_PARSE_TOO_MANY_NODES,
            // InputError is non_exhaustive: a future kind is at least reported as an error
            // (the test `every_input_error_has_its_parse_status` asks for its own code).
            _ => XCOVER_INTERNAL_ERROR,
        },
        Dlx3Error::TooManyLevels => XCOVER_TOO_MANY_LEVELS,
        Dlx3Error::StorageTooSmall => XCOVER_BUFFER_TOO_SMALL,
        Dlx3Error::StorageTooLarge | Dlx3Error::RandomizingUnsupported => XCOVER_BAD_ARGUMENT,
        Dlx3Error::BadImage => XCOVER_BAD_IMAGE,
        Dlx3Error::OutOfOrder => XCOVER_BAD_STATE,
        // A randomized search cannot be split into parts (`dlx3_set_part`).
        Dlx3Error::SplitUnsupported => XCOVER_BAD_ARGUMENT,
        // Dlx3Error is non_exhaustive: a future error is at least reported as an error.
        _ => XCOVER_INTERNAL_ERROR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_sorted_unique_and_complete() {
        for pair in xcover_status::ALL.windows(2) {
            assert!(
                (pair[0] as u32) < (pair[1] as u32),
                "{:?} {:?}",
                pair[0],
                pair[1]
            );
        }
        // The last parse code must be in ALL: a new variant forces a change of the array
        // length, and the table above is checked for order here.
        assert_eq!(
            xcover_status::ALL.last().copied(),
            Some(xcover_status::XCOVER_GRIDCHECK_NO_PUZZLE)
        );
        // Every group is contiguous from its first code (appended, never renumbered).
        for (first, end) in [(0u32, 16u32), (16, 64), (64, 128), (128, 192)] {
            let codes: std::vec::Vec<u32> = xcover_status::ALL
                .iter()
                .map(|s| *s as u32)
                .filter(|c| (first..end).contains(c))
                .collect();
            assert!(codes
                .iter()
                .enumerate()
                .all(|(i, &c)| c == first + i as u32));
        }
    }

    #[test]
    fn messages_are_nonempty_and_unknown_is_handled() {
        for status in xcover_status::ALL {
            assert!(!status.message_cstr().to_bytes().is_empty());
            assert_eq!(xcover_status::from_u32(status as u32), Some(status));
        }
        assert_eq!(xcover_status::from_u32(15), None);
        // SAFETY: xcover_status_message returns a pointer to a static C string.
        let unknown = unsafe { core::ffi::CStr::from_ptr(xcover_status_message(9999)) };
        assert_eq!(unknown.to_bytes(), b"unknown status");
    }

    #[test]
    fn every_input_error_has_its_parse_status() {
        let mut seen = std::vec::Vec::new();
        for kind in InputError::ALL {
            let status = status_of_error(Dlx3Error::Input { kind, pos: 0 });
            assert!(status.is_parse_error(), "{kind:?} -> {status:?}");
            assert_eq!(status.message_cstr(), kind.message_cstr(), "{kind:?}");
            seen.push(status);
        }
        // One code per kind, and every parse code belongs to a kind.
        let parse: std::vec::Vec<xcover_status> = xcover_status::ALL
            .into_iter()
            .filter(|s| s.is_parse_error())
            .collect();
        assert_eq!(seen, parse);
    }

    #[test]
    fn engine_messages_match_core() {
        let e = Dlx3Error::TooManyLevels;
        let status = status_of_error(e);
        assert_eq!(status.message_cstr().to_bytes(), e.message().as_bytes());
    }

    #[test]
    fn groups() {
        assert!(xcover_status::XCOVER_BUDGET_EXHAUSTED.is_success());
        assert!(!xcover_status::XCOVER_NULL_POINTER.is_success());
        assert!(xcover_status::XCOVER_PARSE_NO_ITEMS.is_parse_error());
        assert!(!xcover_status::XCOVER_TOO_MANY_LEVELS.is_parse_error());
        assert!(xcover_status::XCOVER_STOPPED.is_success());
        assert!(xcover_status::XCOVER_GRIDCHECK_NOT_A_UA.is_gridcheck_error());
        assert!(!xcover_status::XCOVER_GRIDCHECK_NOT_A_UA.is_success());
        assert!(!xcover_status::XCOVER_PARSE_TOO_MANY_NODES.is_gridcheck_error());
    }
}

//! The outcome of the last `gridcheck_set_grid` call, kept in the workspace, and its C
//! description (the core error's `Display`, written into a fixed array: no allocation).
//! `gridcheck_get_grid_error` (grid_error.rs) hands it to C.

use super::types::{
    gridcheck_grid_error, GRIDCHECK_GRID_BAD_CHAR, GRIDCHECK_GRID_MESSAGE_BYTES,
    GRIDCHECK_GRID_NONE, GRIDCHECK_GRID_REPEATED_DIGIT, GRIDCHECK_GRID_WRONG_LENGTH,
    GRIDCHECK_HOUSE_BOX, GRIDCHECK_HOUSE_COLUMN, GRIDCHECK_HOUSE_ROW,
};
use crate::status::xcover_status;
use core::ffi::c_char;
use core::fmt::Write as _;
use xcover_core::gridcheck::GridcheckError;
use xcover_core::gridcheck::House;

/// Characters `gridcheck_set_grid` reads at most before it calls a text too long: a
/// `WrongLength` of this many means "this many or more".
pub(crate) const GRID_READ_LIMIT: usize = 84;

/// What the last `gridcheck_set_grid` call returned, and what was wrong with its text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GridOutcome {
    /// The status it returned.
    pub status: xcover_status,
    /// The problem with the grid text, if that was the reason.
    pub problem: Option<GridcheckError>,
}

impl GridOutcome {
    /// Before any `gridcheck_set_grid`.
    pub(crate) const NONE: GridOutcome = GridOutcome {
        status: xcover_status::XCOVER_OK,
        problem: None,
    };

    /// The C description.
    pub fn describe(&self) -> gridcheck_grid_error {
        let mut info = gridcheck_grid_error {
            status: self.status,
            kind: GRIDCHECK_GRID_NONE,
            length: 0,
            position: 0,
            byte: 0,
            digit: 0,
            house: 0,
            house_number: 0,
            message: [0; GRIDCHECK_GRID_MESSAGE_BYTES],
        };
        let Some(problem) = self.problem else {
            return info;
        };
        match problem {
            GridcheckError::WrongLength(n) => {
                info.kind = GRIDCHECK_GRID_WRONG_LENGTH;
                info.length = n as u32;
            }
            GridcheckError::BadChar { pos, byte } => {
                info.kind = GRIDCHECK_GRID_BAD_CHAR;
                info.position = pos as u32;
                info.byte = byte.into();
            }
            GridcheckError::InvalidSolution { house, digit } => {
                info.kind = GRIDCHECK_GRID_REPEATED_DIGIT;
                info.digit = digit.into();
                let (kind, index) = match house {
                    House::Row(r) => (GRIDCHECK_HOUSE_ROW, r),
                    House::Column(c) => (GRIDCHECK_HOUSE_COLUMN, c),
                    House::Box(b) => (GRIDCHECK_HOUSE_BOX, b),
                };
                info.house = kind;
                info.house_number = u32::from(index) + 1;
            }
            // Grid::parse reports only the three above.
            _ => {}
        }
        let mut message = Message::default();
        // A message too long for the array is cut short (none is: the longest is 56 bytes);
        // `Message` never fails.
        let _ = write!(message, "{problem}");
        if problem == GridcheckError::WrongLength(GRID_READ_LIMIT) {
            let _ = message.write_str(" or more");
        }
        for (out, &byte) in info.message.iter_mut().zip(&message.bytes[..message.len]) {
            *out = byte as c_char;
        }
        info
    }
}

/// A message being written: at most `GRIDCHECK_GRID_MESSAGE_BYTES - 1` bytes (room for
/// the NUL), the rest cut off.
struct Message {
    bytes: [u8; GRIDCHECK_GRID_MESSAGE_BYTES - 1],
    len: usize,
}

impl Default for Message {
    fn default() -> Self {
        Message {
            bytes: [0; GRIDCHECK_GRID_MESSAGE_BYTES - 1],
            len: 0,
        }
    }
}

impl core::fmt::Write for Message {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let room = self.bytes.len() - self.len;
        let take = s.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    fn text(info: &gridcheck_grid_error) -> String {
        let bytes: std::vec::Vec<u8> = info
            .message
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn the_fields_and_words_follow_the_core_error() {
        let outcome = |problem| GridOutcome {
            status: xcover_status::XCOVER_GRIDCHECK_BAD_GRID,
            problem: Some(problem),
        };
        let repeated = outcome(GridcheckError::InvalidSolution {
            house: House::Column(0),
            digit: 9,
        })
        .describe();
        assert_eq!(repeated.kind, GRIDCHECK_GRID_REPEATED_DIGIT);
        assert_eq!(
            (repeated.digit, repeated.house, repeated.house_number),
            (9, GRIDCHECK_HOUSE_COLUMN, 1)
        );
        assert_eq!(
            text(&repeated),
            "not a valid solution: digit 9 appears twice in column 1"
        );
        let bad = outcome(GridcheckError::BadChar { pos: 80, byte: 0 }).describe();
        assert_eq!(
            (bad.kind, bad.position, bad.byte),
            (GRIDCHECK_GRID_BAD_CHAR, 80, 0)
        );
        assert_eq!(
            text(&bad),
            std::format!("{}", GridcheckError::BadChar { pos: 80, byte: 0 })
        );
        let long = outcome(GridcheckError::WrongLength(GRID_READ_LIMIT)).describe();
        assert_eq!((long.kind, long.length), (GRIDCHECK_GRID_WRONG_LENGTH, 84));
        assert_eq!(text(&long), "expected 81 characters, found 84 or more");
        let none = GridOutcome::NONE.describe();
        assert_eq!(
            (none.status, none.kind),
            (xcover_status::XCOVER_OK, GRIDCHECK_GRID_NONE)
        );
        assert_eq!(text(&none), "");
    }

    #[test]
    fn the_longest_messages_fit() {
        for problem in [
            GridcheckError::BadChar {
                pos: 80,
                byte: 0xff,
            },
            GridcheckError::BadChar {
                pos: 80,
                byte: b'x',
            },
            GridcheckError::InvalidSolution {
                house: House::Column(8),
                digit: 9,
            },
            GridcheckError::WrongLength(GRID_READ_LIMIT),
        ] {
            let full = std::format!("{problem}");
            assert!(
                full.len() + " or more".len() < GRIDCHECK_GRID_MESSAGE_BYTES,
                "{full}"
            );
        }
    }

    #[test]
    fn a_long_message_is_cut_and_stays_terminated() {
        let mut message = Message::default();
        let long = "x".repeat(200);
        write!(message, "{long}").unwrap();
        assert_eq!(message.len, GRIDCHECK_GRID_MESSAGE_BYTES - 1);
    }
}

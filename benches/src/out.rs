//! Standard output for the bench programs: a closed pipe (`grid_median ... | head`) ends
//! the program quietly with status 141, as a C tool killed by SIGPIPE would, instead of
//! the panic of `println!`; any other write error is reported and ends it with status 1.
use std::fmt;
use std::io::{self, Write};
use std::process;

/// Exit status of a program whose standard output was closed (128 + SIGPIPE).
const CLOSED_PIPE_STATUS: i32 = 141;

/// Writes `args` to standard output, ending the program on a write error (see the module).
pub fn write(args: fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        process::exit(exit_status(&e));
    }
}

/// The status to end with after the write error `e`; reports any error but a closed pipe.
fn exit_status(e: &io::Error) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CLOSED_PIPE_STATUS
    } else {
        eprintln!("standard output: {e}");
        1
    }
}

/// `print!` for the bench programs ([`fn@write`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` for the bench programs ([`fn@write`]).
#[macro_export]
macro_rules! outln {
    () => { $crate::out!("\n") };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_ends_quietly_and_other_errors_fail() {
        let closed = io::Error::from(io::ErrorKind::BrokenPipe);
        assert_eq!(exit_status(&closed), 141);
        let full = io::Error::other("no space left on device");
        assert_eq!(exit_status(&full), 1);
    }
}

//! Text for stdout outside the subcommands' own output paths (help, version).
use std::io::Write as _;

/// Writes `text` to stdout: status 0, or 1 with `argv0: can't write standard output: …`
/// on stderr when the write fails (a full disk), never the panic of `print!`.
pub fn print_checked(argv0: &str, text: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "{argv0}: can't write standard output: {e}"
            );
            1
        }
    }
}

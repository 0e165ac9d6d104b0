//! `xcover`: exact-cover toolkit. Subcommands: `dlx3` (Knuth's dlx3, byte for byte),
//! `gridcheck` (N-clue puzzles of a Sudoku grid) and `sudoku` (solve or count puzzles).
//! Invoked through a link named `dlx3`, the binary behaves as `xcover dlx3`.
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use xcover_cli::error::{CliError, Kind};
use xcover_cli::print::print_checked;

mod exit_on_oom;

/// An allocation failure is a message and exit status 1, never an abort.
#[global_allocator]
static ALLOCATOR: exit_on_oom::ExitOnOom = exit_on_oom::ExitOnOom;

const USAGE: &str = "\
xcover — exact cover toolkit

Usage:
  xcover dlx3 [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<file>]
              [--max-memory SIZE] [--threads N] < in.dlx
  xcover dlx3 --shard I/N [--output PART [--resume]] [letters] < in.dlx
  xcover dlx3 merge [--verify K|all] PART...  (prints what the unsharded run prints)
  xcover dlx3 --export-c|--export-rust FILE [--name ID] [s<n>] > matrix.h
  xcover gridcheck [OPTIONS] [GRID...]     (xcover gridcheck --help; --checkpoint/--resume)
  xcover gridcheck merge PART...           (the part files of --shard I/N runs)
  xcover sudoku solve|count < puzzles.txt  (xcover sudoku --help)
  xcover help [dlx3|gridcheck|sudoku [solve|count]]
  xcover --help | --version

Each subcommand's --help (or `xcover help SUBCOMMAND') describes its input, options and
exit status.
";

/// Runs `sub` with `rest` as its arguments; `None` for an unknown subcommand.
fn run_subcommand(sub: &str, rest: Vec<OsString>) -> Option<i32> {
    Some(match sub {
        "dlx3" => match rest.first().and_then(|a| a.to_str()) {
            Some("--export-c") | Some("--export-rust") => xcover_cli::export::export_main(&rest),
            _ => xcover_cli::dlx3::main("xcover dlx3", rest),
        },
        "gridcheck" => xcover_cli::gridcheck::main(rest),
        "sudoku" => xcover_cli::sudoku::main(rest),
        _ => return None,
    })
}

/// `xcover help [SUBCOMMAND [...]]`: the top-level help, or SUBCOMMAND's `--help`.
fn help(topic: &[OsString]) -> i32 {
    let Some(sub) = topic.first().map(|a| a.to_string_lossy().into_owned()) else {
        return print_checked("xcover", USAGE);
    };
    if sub == "help" {
        return help(&topic[1..]);
    }
    let mut rest = topic[1..].to_vec();
    rest.push(OsString::from("--help"));
    if sub == "dlx3" {
        // Knuth's argument rules: `--help` is only help when it is alone.
        rest = vec![OsString::from("--help")];
    }
    run_subcommand(&sub, rest).unwrap_or_else(|| unknown(&sub))
}

/// The usage error for an unknown subcommand.
fn unknown(sub: &str) -> i32 {
    let usage = USAGE.trim_end();
    let message = format!("unknown subcommand `{sub}'\n\n{usage}");
    CliError::new(Kind::Usage, message).report("xcover")
}

fn main() -> ExitCode {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let argv0 = args
        .first()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_else(|| "xcover".to_owned());
    let invoked_as = Path::new(&argv0)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let status = if invoked_as == "dlx3" {
        args.remove(0);
        xcover_cli::dlx3::main(&argv0, args)
    } else {
        let sub = args.get(1).map(|a| a.to_string_lossy().into_owned());
        let rest: Vec<OsString> = args.into_iter().skip(2).collect();
        match sub.as_deref() {
            Some("--version") | Some("-V") => {
                print_checked("xcover", &format!("xcover {}\n", env!("CARGO_PKG_VERSION")))
            }
            Some("help") | Some("--help") | Some("-h") => help(&rest),
            Some(other) => run_subcommand(other, rest).unwrap_or_else(|| unknown(other)),
            None => {
                let _ = write!(std::io::stderr(), "{USAGE}");
                2
            }
        }
    };
    ExitCode::from(u8::try_from(status & 0xff).unwrap_or(1))
}

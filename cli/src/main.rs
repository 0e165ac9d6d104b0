//! `xcover`: exact-cover toolkit. Subcommands: `dlx3` (Knuth's dlx3, byte for byte),
//! `gridcheck` (N-clue puzzles of a Sudoku grid) and `sudoku` (solve or count puzzles).
//! Invoked through a link named `dlx3`, the binary behaves as `xcover dlx3`.
//!
//! clap reads the top level (the subcommand, `help`, `--help`, `--version`); each
//! subcommand's arguments go to it as they are, for its own parser (Knuth's letters for
//! `dlx3`).
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use clap::{ArgAction, CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use xcover_cli::error::{CliError, Kind};
use xcover_cli::print::print_checked;

mod exit_on_oom;

/// An allocation failure is a message and exit status 1, never an abort.
#[global_allocator]
static ALLOCATOR: exit_on_oom::ExitOnOom = exit_on_oom::ExitOnOom;

/// The top level of `xcover`.
#[derive(Parser, Debug)]
#[command(
    name = "xcover",
    version,
    about = "xcover — exact cover toolkit",
    override_usage = "\
xcover dlx3 [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<file>]
                   [--max-memory SIZE] [--threads N] < in.dlx
       xcover dlx3 --shard I/N [--output PART [--resume]] [letters] < in.dlx
       xcover dlx3 merge [--verify K|all] PART...  (prints what the unsharded run prints)
       xcover dlx3 --export-c|--export-rust FILE [--name ID] [s<n>] > matrix.h
       xcover gridcheck [OPTIONS] [GRID...]     (xcover gridcheck --help; --checkpoint/--resume)
       xcover gridcheck merge PART...           (the part files of --shard I/N runs)
       xcover sudoku solve|count < puzzles.txt  (xcover sudoku --help)
       xcover help [dlx3|gridcheck|sudoku [solve|count]]
       xcover --help | --version",
    after_help = "Each subcommand's --help (or `xcover help SUBCOMMAND') describes its input, \
                  options and exit status.",
    // `--help SUBCOMMAND` is SUBCOMMAND's help: the flag is read, not acted on at once.
    disable_help_flag = true,
    disable_help_subcommand = true,
    arg_required_else_help = true,
    allow_external_subcommands = true,
    subcommand_value_name = "SUBCOMMAND",
    subcommand_help_heading = "Subcommands"
)]
struct Cli {
    /// Print help (of SUBCOMMAND, when one follows)
    #[arg(short, long, action = ArgAction::SetTrue)]
    help: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// A subcommand; its arguments, unparsed, for its own parser.
#[derive(Subcommand, Debug)]
enum Command {
    /// Exact cover with multiplicities and colors: Knuth's DLX3, byte for byte
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Dlx3 {
        /// Knuth's letters and the added options (`xcover dlx3 --help`)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Every N-clue puzzle with a unique solution inside Sudoku grids
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Gridcheck {
        /// Its options and grids (`xcover gridcheck --help`)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Solve or count Sudoku puzzles
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Sudoku {
        /// `solve` or `count` and their options (`xcover sudoku --help`)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Print this help, or a subcommand's
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Help {
        /// The subcommand (and its own subcommand)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        topic: Vec<OsString>,
    },
    /// Any other name: an unknown subcommand.
    #[command(external_subcommand)]
    Unknown(Vec<OsString>),
}

/// `xcover dlx3 ARGS` (`argv0` names the command in Knuth's messages).
fn dlx3(argv0: &str, args: Vec<OsString>) -> i32 {
    xcover_cli::dlx3::main(argv0, args)
}

/// Runs `command`.
fn run(command: Command) -> i32 {
    match command {
        Command::Dlx3 { args } => dlx3("xcover dlx3", args),
        Command::Gridcheck { args } => xcover_cli::gridcheck::main(args),
        Command::Sudoku { args } => xcover_cli::sudoku::main(args),
        Command::Help { topic } => help(&topic),
        Command::Unknown(name_and_args) => unknown(&name_and_args[0]),
    }
}

/// `xcover help [SUBCOMMAND [...]]`: the top-level help, or SUBCOMMAND's `--help`.
fn help(topic: &[OsString]) -> i32 {
    let Some(sub) = topic.first() else {
        let text = Cli::command().render_help().to_string();
        return print_checked("xcover", &text);
    };
    let mut rest = topic[1..].to_vec();
    rest.push(OsString::from("--help"));
    let command = match sub.to_str() {
        Some("help") => return help(&topic[1..]),
        // Knuth's argument rules: `--help` is only help when it is alone.
        Some("dlx3") => Command::Dlx3 {
            args: vec![OsString::from("--help")],
        },
        Some("gridcheck") => Command::Gridcheck { args: rest },
        Some("sudoku") => Command::Sudoku { args: rest },
        _ => return unknown(sub),
    };
    run(command)
}

/// The usage error for an unknown subcommand.
fn unknown(sub: &std::ffi::OsStr) -> i32 {
    let sub = sub.to_string_lossy();
    let usage = Cli::command().render_usage().to_string();
    let message = format!("unknown subcommand `{sub}'\n\n{}", usage.trim_end());
    CliError::new(Kind::Usage, message).report("xcover")
}

/// Reads the top level and runs the subcommand; the exit status.
fn xcover(args: Vec<OsString>) -> i32 {
    let cli = Cli::command()
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .map(|cli| with_raw_arguments(cli, &args));
    match cli {
        Err(e) => CliError::from(e).report("xcover"),
        Ok(Cli {
            help: true,
            command,
        }) => help(&command.map(topic_of).unwrap_or_default()),
        Ok(Cli {
            command: Some(command),
            ..
        }) => run(command),
        // `arg_required_else_help` answers a bare `xcover`; `xcover --help` is above.
        Ok(Cli { command: None, .. }) => help(&[]),
    }
}

/// `cli` with its subcommand's arguments exactly as given: clap drops a `--` that comes
/// first, which is the subcommand's to read (Knuth's loop refuses it; for gridcheck it ends
/// the options). The top level's own options take no value, so the subcommand is the first
/// word that is not an option.
fn with_raw_arguments(mut cli: Cli, args: &[OsString]) -> Cli {
    let Some(at) = args
        .iter()
        .skip(1)
        .position(|a| !a.as_encoded_bytes().starts_with(b"-"))
    else {
        return cli;
    };
    let raw = args[at + 2..].to_vec();
    match &mut cli.command {
        Some(Command::Dlx3 { args })
        | Some(Command::Gridcheck { args })
        | Some(Command::Sudoku { args })
        | Some(Command::Help { topic: args }) => *args = raw,
        Some(Command::Unknown(_)) | None => {}
    }
    cli
}

/// The subcommand and its arguments as words again (`xcover --help dlx3` is `help dlx3`).
fn topic_of(command: Command) -> Vec<OsString> {
    let (name, args) = match command {
        Command::Dlx3 { args } => ("dlx3", args),
        Command::Gridcheck { args } => ("gridcheck", args),
        Command::Sudoku { args } => ("sudoku", args),
        Command::Help { topic } => ("help", topic),
        Command::Unknown(name_and_args) => return name_and_args,
    };
    std::iter::once(OsString::from(name)).chain(args).collect()
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
        dlx3(&argv0, args)
    } else {
        xcover(args)
    };
    ExitCode::from(u8::try_from(status & 0xff).unwrap_or(1))
}

//! The options `xcover dlx3` adds to Knuth's letters, read by clap. None of his arguments
//! starts with `-`: his letters are the positional values, in their order, for his
//! argument loop (`args::parse_args`). A word that starts with `-` and is no option (an
//! unknown `--x`, `-5`, a `--`) is a bad letter: his loop gets it alone and answers with
//! his usage line, as his program does (only the `S<file>` of the other letters are not
//! opened first).
//!
//! `merge` is a clap subcommand, read as one only in the first place (after a letter or an
//! option it is one of Knuth's letters, a bad one, as his program has it); `--export-c`,
//! `--export-rust` and `--name` are options, alone with Knuth's `s<n>`.
use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{CommandFactory as _, FromArgMatches as _, Parser};
use xcover_core::dlx3::Part;

use super::merge_args::MergeArgs;
use crate::error::{CliError, Kind};
use crate::memory;
use crate::shared_args::{parse_shard, parse_threads, with_usage};

/// Knuth's letters and the added options.
#[derive(Debug, Default, Parser)]
#[command(
    name = "xcover dlx3",
    no_binary_name = true,
    // `--help` and `--version` are help only alone (`dlx3::main`); among letters, they
    // are bad letters, as Knuth's loop has them.
    disable_help_flag = true,
    disable_version_flag = true,
    // `merge` is the subcommand only as the first word: `m1 merge` is a bad letter.
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Extra {
    /// `merge`.
    #[command(subcommand)]
    pub command: Option<Dlx3Command>,
    /// Knuth's letters (`v<n> m<n> s<n> d<n> c<n> C<n> l<n> t<n> T<n> S<file>`), and every
    /// word that is not an added option.
    #[arg(value_name = "LETTERS")]
    pub letters: Vec<OsString>,
    /// `--max-memory SIZE`.
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size, allow_hyphen_values = true)]
    pub max_memory: Option<u64>,
    /// `--threads N` (0: one per core; see `shared_args::worker_threads`).
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_hyphen_values = true)]
    pub threads: Option<usize>,
    /// `--shard I/N`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, allow_hyphen_values = true)]
    pub shard: Option<Part>,
    /// `--output FILE` (the part file of a shard).
    #[arg(long, value_name = "PART", allow_hyphen_values = true)]
    pub output: Option<PathBuf>,
    /// `--resume` (continue the part file in `--output`).
    #[arg(long)]
    pub resume: bool,
    /// `--plan FILE` (merge: write the plan of a second pass instead of the output).
    #[arg(long, value_name = "PLAN", allow_hyphen_values = true)]
    pub plan: Option<PathBuf>,
    /// `--second-pass PLAN` (with `--shard`: print the shard's units the plan gives it).
    #[arg(long, value_name = "PLAN", allow_hyphen_values = true)]
    pub second_pass: Option<PathBuf>,
    /// `--lengths-only` (with `--shard`, `m1`-`m8`: the part keeps the lengths of the
    /// units' text for a second pass that writes it in place, `--print-file`).
    #[arg(long)]
    pub lengths_only: bool,
    /// `--print-file FILE` (with `--second-pass`: the output file the plan created, where
    /// the shard writes its units' text at their offsets).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub print_file: Option<PathBuf>,
    /// `--checkpoint FILE` (a one-process run that records how far it got).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub checkpoint: Option<PathBuf>,
    /// `--export-c FILE` (write FILE's matrix as a C header).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub export_c: Option<OsString>,
    /// `--export-rust FILE` (the same as Rust consts).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub export_rust: Option<OsString>,
    /// `--name ID` (the identifier prefix of the exported arrays).
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub name: Option<OsString>,
}

/// The subcommand of `xcover dlx3`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Dlx3Command {
    /// Print what the unsharded run prints from its shards' parts
    Merge(MergeArgs),
}

/// What `xcover dlx3 ARGS` asks for.
#[derive(Debug)]
pub(crate) enum Asked {
    /// A search with Knuth's letters and the added options.
    Search(Vec<OsString>, Box<Extra>),
    /// `merge`.
    Merge(MergeArgs),
    /// `--export-c` or `--export-rust`: the file, whether Rust, `--name`, Knuth's letters.
    Export(crate::export::Export),
}

/// `xcover dlx3` as clap reads it. It has no `--help` flag (Knuth's rule: help only
/// alone, `dlx3::main`), which clap passes on to its subcommands: `merge` gets its own.
fn command() -> clap::Command {
    Extra::command().mut_subcommand("merge", |merge| {
        merge.disable_help_flag(true).arg(
            clap::Arg::new("help")
                .long("help")
                .short('h')
                .help("Print help")
                .action(clap::ArgAction::Help),
        )
    })
}

/// `xcover dlx3 ARGS` read by [`command`].
fn parse(args: Vec<OsString>) -> Result<Extra, clap::Error> {
    let mut command = command();
    let matches = command.try_get_matches_from_mut(args)?;
    Extra::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
}

/// A usage error of `merge` (clap's, with merge's usage line), Knuth's status.
fn merge_usage(e: clap::Error) -> CliError {
    let mut command = command();
    let e = match command.find_subcommand_mut("merge") {
        Some(merge) => with_usage(e, merge),
        None => e,
    };
    CliError::knuth_usage(e)
}

/// Reads `xcover dlx3 ARGS`: a search, `merge` or an export; a bad option value is a
/// usage error (Knuth's status).
pub(crate) fn asked(args: Vec<OsString>) -> Result<Asked, CliError> {
    // clap takes `merge` as the subcommand exactly when it is the first word: an error
    // is then merge's, said with its usage line.
    let in_merge = args.first().is_some_and(|a| a == "merge");
    if in_merge {
        return match parse(args) {
            Ok(Extra {
                command: Some(Dlx3Command::Merge(merge)),
                ..
            }) if !merge.parts.is_empty() => Ok(Asked::Merge(merge)),
            Ok(_) => {
                let mut command = command();
                let (kind, why) = (ErrorKind::MissingRequiredArgument, "no part file given");
                let e = match command.find_subcommand_mut("merge") {
                    Some(merge) => merge.error(kind, why),
                    None => command.error(kind, why),
                };
                Err(merge_usage(e))
            }
            Err(e) => Err(merge_usage(e)),
        };
    }
    // A word of an export makes any usage error the export's (its usage line).
    let exporting = args.iter().any(|a| {
        let a = a.as_encoded_bytes();
        a.starts_with(b"--export-c") || a.starts_with(b"--export-rust")
    });
    let (letters, extra) = match take(args) {
        Ok(taken) => taken,
        Err(_) if exporting => return Err(crate::export::usage_error()),
        Err(e) => return Err(e),
    };
    let export = match (extra.export_c.clone(), extra.export_rust.clone()) {
        // clap could not read the export (an unknown word among its arguments).
        (None, None) if exporting => return Err(crate::export::usage_error()),
        (None, None) => return Ok(Asked::Search(letters, Box::new(extra))),
        (Some(file), None) => crate::export::Export::c(file),
        (None, Some(file)) => crate::export::Export::rust(file),
        (Some(_), Some(_)) => return Err(crate::export::usage_error()),
    };
    // An export reads a file and writes an image: none of the search's options apply.
    let searching = extra.max_memory.is_some()
        || extra.threads.is_some()
        || extra.shard.is_some()
        || extra.output.is_some()
        || extra.resume
        || extra.plan.is_some()
        || extra.second_pass.is_some()
        || extra.checkpoint.is_some();
    if searching {
        return Err(crate::export::usage_error());
    }
    Ok(Asked::Export(
        export.named(extra.name).with_letters(letters),
    ))
}

/// Splits `args` into Knuth's arguments and the added options; a bad option value is a
/// usage error (Knuth's status).
pub(crate) fn take(args: Vec<OsString>) -> Result<(Vec<OsString>, Extra), CliError> {
    // clap drops a `--` (the end of options); Knuth's loop refuses it.
    let dashes = args.iter().any(|a| a == "--");
    let (mut extra, unknown) = match parse(args) {
        Ok(extra) => (extra, false),
        Err(e) if e.kind() == ErrorKind::UnknownArgument => (Extra::default(), true),
        Err(e) => return Err(CliError::knuth_usage(e)),
    };
    if dashes || unknown {
        extra.letters.push(OsString::from("--"));
    }
    let refuse = |message: &str| Err(CliError::new(Kind::KnuthUsage, message));
    if extra.checkpoint.is_some() && (extra.shard.is_some() || extra.output.is_some()) {
        return refuse("--checkpoint is for a one-process run (a shard's part is its checkpoint)");
    }
    if extra.shard.is_none() && extra.output.is_some() {
        return refuse("--output goes with --shard I/N");
    }
    if extra.resume && extra.output.is_none() && extra.checkpoint.is_none() {
        return refuse(
            "--resume needs --checkpoint FILE, or --shard I/N --output FILE (the file to continue)",
        );
    }
    if extra.shard.is_none() && extra.second_pass.is_some() {
        return refuse("--second-pass PLAN goes with --shard I/N");
    }
    if extra.lengths_only && (extra.shard.is_none() || extra.second_pass.is_some()) {
        return refuse("--lengths-only goes with the first pass of --shard I/N");
    }
    if extra.print_file.is_some() && extra.second_pass.is_none() {
        return refuse("--print-file goes with --second-pass PLAN (and with merge)");
    }
    if extra.shard.is_some() && extra.threads.is_some_and(|t| t != 1) {
        return refuse("--shard runs on one thread (run more shards instead of --threads)");
    }
    if extra.name.is_some() && extra.export_c.is_none() && extra.export_rust.is_none() {
        // `--name` without an export is a bad letter, as any unknown option is.
        extra.letters.push(OsString::from("--"));
    }
    let letters = std::mem::take(&mut extra.letters);
    Ok((letters, extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn max_memory_is_taken_out_of_knuths_arguments() {
        let (rest, x) = take(args(&["m1", "--max-memory", "2K", "T5"])).unwrap();
        assert_eq!((rest, x.max_memory), (args(&["m1", "T5"]), Some(2048)));
        let (rest, x) = take(args(&["--max-memory=1M", "v0"])).unwrap();
        assert_eq!((rest, x.max_memory), (args(&["v0"]), Some(1 << 20)));
        assert!(take(args(&["m1", "--max-memory"])).is_err());
        assert!(take(args(&["--max-memory=1Z"])).is_err());
        // A word with a `-` that is no option, or a `--`, is a bad letter for Knuth's loop.
        for bad in [
            &["m1", "-max-memory=1"][..],
            &["--help", "m1"],
            &["m1", "--", "v0"],
        ] {
            let (rest, x) = take(args(bad)).unwrap();
            assert!(rest.contains(&OsString::from("--")), "{bad:?}: {rest:?}");
            assert_eq!(x.max_memory, None);
        }
        let (rest, _) = take(args(&["-", "m1"])).unwrap();
        assert_eq!(rest, args(&["-", "m1"]));
        let (rest, x) = take(args(&[])).unwrap();
        assert_eq!(
            (rest, format!("{x:?}")),
            (args(&[]), format!("{:?}", Extra::default()))
        );
    }

    #[test]
    fn threads_and_shards() {
        let (rest, x) = take(args(&["m1", "--threads", "3", "v0"])).unwrap();
        assert_eq!((rest, x.threads), (args(&["m1", "v0"]), Some(3)));
        assert_eq!(take(args(&["--threads=0"])).unwrap().1.threads, Some(0));
        let (_, x) = take(args(&["--shard", "2/5", "--output", "p", "--resume"])).unwrap();
        assert_eq!(x.shard, Part::new(2, 5));
        assert_eq!(x.output, Some(PathBuf::from("p")));
        assert!(x.resume);
        for bad in [
            &["--threads", "x"][..],
            &["--threads", "-1"],
            &["--threads"],
            &["--shard", "4/4"],
            &["--shard", "1/0"],
            &["--shard", "16777216/16777217"],
            &["--shard", "0/65537"],
            &["--shard", "1"],
            &["--shard", "a/b"],
            &["--shard", "0/2", "--threads", "2"],
            &["--output", "p"],
            &["--shard", "0/2", "--resume"],
            &["--resume=yes"],
            &["--second-pass", "plan"],
            &["--checkpoint", "c", "--shard", "0/2"],
            &["--checkpoint"],
            &["--resume"],
            &["--plan"],
            &["--lengths-only"],
            &["--shard", "0/2", "--lengths-only", "--second-pass", "p"],
            &["--shard", "0/2", "--print-file", "o"],
        ] {
            assert!(take(args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn merge_and_the_exports_are_clap_arguments() {
        use crate::export::Export;
        // `merge` is the subcommand as the first word only; after a letter it is a letter.
        assert!(
            matches!(asked(args(&["merge", "p0", "p1"])), Ok(Asked::Merge(m)) if m.parts.len() == 2)
        );
        let Ok(Asked::Search(letters, _)) = asked(args(&["m1", "merge"])) else {
            panic!("`m1 merge` is two letters");
        };
        assert_eq!(letters, args(&["m1", "merge"]));
        let none = asked(args(&["merge"])).unwrap_err();
        assert_eq!(none.exit_status(), 255);
        assert!(none.message().contains("no part file given"), "{none}");
        assert!(
            none.message().contains("Usage: xcover dlx3 merge"),
            "{none}"
        );
        // The export flags in any place, with `s<n>` and `--name`.
        let Ok(Asked::Export(x)) = asked(args(&["s3", "--export-rust", "-", "--name", "n"])) else {
            panic!("an export");
        };
        let want = Export::rust("-".into())
            .named(Some("n".into()))
            .with_letters(args(&["s3"]));
        assert_eq!(x, want);
        assert!(matches!(
            asked(args(&["--export-c", "f"])),
            Ok(Asked::Export(_))
        ));
        for bad in [
            &["--export-c", "f", "--export-rust", "g"][..],
            &["--export-c", "f", "--threads", "2"],
            &["--export-c"],
            &["--export-c", "f", "--name"],
            &["--export-c", "f", "-x"],
        ] {
            let e = asked(args(bad)).unwrap_err();
            assert_eq!(e.exit_status(), 255, "{bad:?}");
        }
        // `--name` without an export is a bad letter, for Knuth's usage line.
        let Ok(Asked::Search(letters, _)) = asked(args(&["--name", "n", "m1"])) else {
            panic!("a search with a bad letter");
        };
        assert!(letters.contains(&OsString::from("--")), "{letters:?}");
    }
}

#[cfg(test)]
mod merge_tests {
    //! `xcover dlx3 merge`'s options (`merge_args`), read as `xcover dlx3` reads them.
    use super::*;
    use crate::dlx3::verify::{Amount, Verify};
    use crate::error::{CliError, Kind};

    /// `xcover dlx3 merge ARGS` through clap's subcommand (`asked`); a usage error (or
    /// the help).
    fn parse(args: &[&str]) -> Result<MergeArgs, CliError> {
        let words = std::iter::once("merge").chain(args.iter().copied());
        match asked(words.map(OsString::from).collect())? {
            Asked::Merge(merge) => Ok(merge),
            other => panic!("{args:?} read as {other:?}"),
        }
    }

    #[test]
    fn options_are_read_and_bad_ones_refused() {
        let m = parse(&["--verify", "3", "a", "--verify-seed=9", "--threads=0"]).unwrap();
        assert_eq!(m.parts, ["a"]);
        let want = Verify {
            amount: Amount::Units(3),
            seed: Some(9),
        };
        assert_eq!((m.audit(), m.threads), (Some(want), Some(0)));
        let m = parse(&[
            "--verify=all",
            "--max-memory",
            "1M",
            "--plan",
            "p",
            "a",
            "b",
        ])
        .unwrap();
        assert_eq!(m.audit().map(|v| v.amount), Some(Amount::All));
        assert_eq!(
            (m.max_memory, m.plan),
            (Some(1 << 20), Some(PathBuf::from("p")))
        );
        assert_eq!(parse(&["a"]).unwrap().audit(), None);
        for bad in [
            &["a", "--verify", "0"][..],
            &["a", "--verify", "x"],
            &["a", "--verify"],
            &["a", "--verify-seed", "1"],
            &["a", "--threads", "-1"],
            &["a", "--shard", "0/2"],
            &["a", "--max-memory", "1Z"],
            &["a", "-x"],
            &[],
        ] {
            let e = parse(bad).err().unwrap_or_else(|| panic!("{bad:?} taken"));
            assert_eq!(
                (e.kind(), e.exit_status()),
                (Kind::KnuthUsage, 255),
                "{bad:?}"
            );
            assert!(
                e.message().contains("Usage: xcover dlx3 merge"),
                "{bad:?}: {e}"
            );
            assert!(!e.message().starts_with("error: "), "{bad:?}: {e}");
        }
        assert!(parse(&[])
            .err()
            .unwrap()
            .message()
            .contains("no part file given"));
        let help = parse(&["--help"]).err().unwrap();
        assert_eq!(help.exit_status(), 0);
    }
}

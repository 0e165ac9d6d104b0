//! The options `xcover dlx3` adds to Knuth's letters, read by clap. None of his arguments
//! starts with `-`: his letters are the positional values, in their order, for his
//! argument loop (`args::parse_args`). A word that starts with `-` and is no option (an
//! unknown `--x`, `-5`, a `--`) is a bad letter: his loop gets it alone and answers with
//! his usage line, as his program does (only the `S<file>` of the other letters are not
//! opened first).
use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::Parser;
use xcover_core::dlx3::Part;

use crate::error::{CliError, Kind};
use crate::memory;
use crate::shared_args::{parse_shard, parse_threads};

/// Knuth's letters and the added options.
#[derive(Debug, Default, PartialEq, Eq, Parser)]
#[command(
    name = "xcover dlx3",
    no_binary_name = true,
    // `--help` and `--version` are help only alone (`dlx3::main`); among letters, they
    // are bad letters, as Knuth's loop has them.
    disable_help_flag = true,
    disable_version_flag = true
)]
pub(crate) struct Extra {
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
}

/// Splits `args` into Knuth's arguments and the added options; a bad option value is a
/// usage error (Knuth's status).
pub(crate) fn take(args: Vec<OsString>) -> Result<(Vec<OsString>, Extra), CliError> {
    // clap drops a `--` (the end of options); Knuth's loop refuses it.
    let dashes = args.iter().any(|a| a == "--");
    let (mut extra, unknown) = match Extra::try_parse_from(args) {
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
        assert_eq!(take(args(&[])).unwrap(), (args(&[]), Extra::default()));
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
}

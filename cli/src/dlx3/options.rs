//! The options `xcover dlx3` adds to Knuth's letters. None of his arguments starts with
//! `-`, so they are taken out first and the rest goes to his argument loop.
use std::ffi::OsString;
use std::path::PathBuf;

use xcover_core::dlx3::Part;

use crate::memory;

/// The added options.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// `--max-memory SIZE`.
    pub max_memory: Option<u64>,
    /// `--threads N` (0: one per core; see `shared_args::worker_threads`).
    pub threads: Option<usize>,
    /// `--shard I/N`.
    pub shard: Option<Part>,
    /// `--output FILE` (the part file of a shard).
    pub output: Option<PathBuf>,
    /// `--resume` (continue the part file in `--output`).
    pub resume: bool,
    /// `--plan FILE` (merge: write the plan of a second pass instead of the output).
    pub plan: Option<PathBuf>,
    /// `--second-pass PLAN` (with `--shard`: print the shard's units the plan gives it).
    pub second_pass: Option<PathBuf>,
    /// `--checkpoint FILE` (a one-process run that records how far it got).
    pub checkpoint: Option<PathBuf>,
}

/// Splits `args` into Knuth's arguments and the added options; a bad option value is an
/// error message (a usage error).
pub(crate) fn take(args: Vec<OsString>) -> Result<(Vec<OsString>, Extra), String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut extra = Extra::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            rest.push(arg);
            continue;
        };
        if !text.starts_with("--") {
            rest.push(arg);
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (text.to_string(), None),
        };
        if name == "--resume" {
            if inline.is_some() {
                return Err("--resume takes no value".into());
            }
            extra.resume = true;
            continue;
        }
        let known = [
            "--max-memory",
            "--threads",
            "--shard",
            "--output",
            "--plan",
            "--second-pass",
            "--checkpoint",
        ];
        if !known.contains(&name.as_str()) {
            // Knuth's argument loop answers it with his usage line, as his program does.
            rest.push(arg);
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => args
                .next()
                .ok_or_else(|| format!("{name} needs a value (see --help)"))?
                .to_string_lossy()
                .into_owned(),
        };
        match name.as_str() {
            "--max-memory" => {
                let size = memory::parse_size(&value).map_err(|e| format!("--max-memory: {e}"))?;
                extra.max_memory = Some(size);
            }
            "--threads" => extra.threads = Some(parse_threads(&value)?),
            "--shard" => extra.shard = Some(parse_shard(&value)?),
            "--plan" => extra.plan = Some(PathBuf::from(value)),
            "--second-pass" => extra.second_pass = Some(PathBuf::from(value)),
            "--checkpoint" => extra.checkpoint = Some(PathBuf::from(value)),
            _ => extra.output = Some(PathBuf::from(value)),
        }
    }
    if extra.checkpoint.is_some() && (extra.shard.is_some() || extra.output.is_some()) {
        return Err(
            "--checkpoint is for a one-process run (a shard's part is its checkpoint)".into(),
        );
    }
    if extra.shard.is_none() && extra.output.is_some() {
        return Err("--output goes with --shard I/N".into());
    }
    if extra.resume && extra.output.is_none() && extra.checkpoint.is_none() {
        return Err(
            "--resume needs --checkpoint FILE, or --shard I/N --output FILE (the file to continue)"
                .into(),
        );
    }
    if extra.shard.is_none() && extra.second_pass.is_some() {
        return Err("--second-pass PLAN goes with --shard I/N".into());
    }
    if extra.shard.is_some() && extra.threads.is_some_and(|t| t != 1) {
        return Err("--shard runs on one thread (run more shards instead of --threads)".into());
    }
    Ok((rest, extra))
}

/// `--threads N`: a number of threads, 0 for one per core (as in every subcommand).
fn parse_threads(value: &str) -> Result<usize, String> {
    crate::shared_args::parse_threads(value).map_err(|e| format!("--threads {e}"))
}

/// `--shard I/N`: part I (0-based) of N (core's parser, as `gridcheck --shard` reads it).
fn parse_shard(value: &str) -> Result<Part, String> {
    crate::shared_args::parse_shard(value).map_err(|e| format!("--shard {e}"))
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
        let (rest, x) = take(args(&["m1", "-max-memory=1"])).unwrap();
        assert_eq!((rest, x.max_memory), (args(&["m1", "-max-memory=1"]), None));
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
        ] {
            assert!(take(args(bad)).is_err(), "{bad:?}");
        }
    }
}

//! `xcover dlx3`: a drop-in replacement for Knuth's `dlx3`, byte for byte (same arguments,
//! same output on stdout and stderr, same exit codes).
//!
//! Two additions: SIGINT, SIGTERM or SIGHUP during the search ends it like the `T` timeout
//! does (`INTERRUPTED!` instead of `TIMEOUT!`, then the closing reports so far) with exit
//! status 130 / 143 / 129; and `--max-memory SIZE` refuses an input whose storage would exceed SIZE
//! before allocating it.
mod args;
mod checkpoint;
mod merge;
mod merge_args;
mod options;
mod part_body;
mod part_file;
#[cfg(test)]
mod part_tests;
mod placed;
mod pool;
mod prefetch;
mod print_file;
mod second_pass;
mod shard;
mod sink;
mod threads;
mod units;
pub(crate) mod verify;

use std::ffi::OsString;
use std::io::Write as _;

use xcover_core::dlx3::{measure, Dlx3, DoneReason, HeapWorkspace, Part, MAX_LEVEL};

use xcover_core::dlx3::image::{Item, Level, Node};
use xcover_core::sink::ByteSink;

use self::args::parse_args;
use self::sink::IoSink;
use crate::error::{CliError, Kind};
use crate::memory;
use crate::signals::Signals;
use xcover_solver::knuth::Stream;

/// Runs `dlx3` with Knuth's arguments; `argv0` is what the usage message names.
/// Returns the process exit status.
pub fn main(argv0: &str, args: Vec<OsString>) -> i32 {
    if args.len() == 1 {
        let text = match args[0].to_str() {
            Some("--help") => Some(args::help_text(argv0)),
            Some("--version") => Some(format!(
                "{argv0} (xcover {}), after D. E. Knuth's DLX3\n",
                env!("CARGO_PKG_VERSION")
            )),
            _ => None,
        };
        if let Some(text) = text {
            return crate::print::print_checked(argv0, &text);
        }
    }
    let mut err = IoSink::new(std::io::BufWriter::new(std::io::stderr()));
    let ran = match options::asked(args) {
        Ok(options::Asked::Search(letters, extra)) => run_main(argv0, letters, *extra, &mut err),
        Ok(options::Asked::Merge(merge)) => merge_main(merge, &mut err),
        Ok(options::Asked::Export(export)) => crate::export::export(export),
        Err(e) => Err(e),
    };
    err.flush();
    let status = match ran {
        Ok(()) => 0,
        Err(e) => e.report(argv0),
    };
    stderr_checked(&err, status)
}

/// The exit status after stderr, which carries results too (the totals, `m0`'s only
/// one): a run that lost a write there fails (no message can be written).
fn stderr_checked(err: &Stderr, status: i32) -> i32 {
    if status == 0 && (err.failed.is_some() || err.broken_pipe) {
        1
    } else {
        status
    }
}

/// The error of a failed write to stdout, other than a closed pipe.
fn cant_write_stdout(e: std::io::Error) -> CliError {
    CliError::failure(format!("can't write standard output: {e}"))
}

/// A usage error of `dlx3` (Knuth's status).
fn usage(message: impl Into<String>) -> CliError {
    CliError::new(Kind::KnuthUsage, message)
}

/// The standard error stream of the command.
type Stderr = IoSink<std::io::BufWriter<std::io::Stderr>>;

/// A search (whole, threaded or one shard) with Knuth's arguments.
fn run_main(
    argv0: &str,
    args: Vec<OsString>,
    extra: options::Extra,
    err: &mut Stderr,
) -> Result<(), CliError> {
    let limit = extra.max_memory.unwrap_or_else(memory::default_limit);
    let Ok(knuth_args) = parse_args(&args, err) else {
        args::write_usage(err, argv0);
        return Err(CliError::quiet(Kind::KnuthUsage));
    };
    let settings = *knuth_args.settings();
    let shape = knuth_args.has_shape_file();
    if extra.plan.is_some() {
        return Err(usage("--plan goes with merge"));
    }
    if extra.shard.is_some() || extra.checkpoint.is_some() {
        if let Some(why) = settings.split_obstacle(shape) {
            let option = if extra.shard.is_some() {
                "--shard"
            } else {
                "--checkpoint"
            };
            return Err(usage(format!("{option} can't split a run with {why}")));
        }
    }
    if let Some(len) = stdin_file_len() {
        memory::check(len, limit, "the input file")?;
    }
    // Counted against the limit as it is read: an endless pipe ends in an error.
    let input = memory::read_bounded(std::io::stdin().lock(), limit, "standard input")?;
    // A split search keeps a copy of the matrix for making engines, and one per worker.
    let threads = crate::shared_args::worker_threads(extra.threads);
    let splittable = settings.split_obstacle(shape).is_none();
    let copies: u64 = match (&extra.shard, threads) {
        (Some(_), _) => 3,
        (None, t) if extra.checkpoint.is_some() => t.max(1) as u64 + 2,
        (None, t) if t > 1 && splittable => t as u64 + 2,
        _ => 1,
    };
    let need = storage_bytes(&measure(&input))
        .saturating_mul(copies)
        .saturating_add(input.len() as u64);
    let what = if copies > 1 {
        format!("the input, with {copies} copies of its matrix (one per engine)")
    } else {
        "the input".to_string()
    };
    memory::check(need, limit, &what)?;
    let job = match &extra.shard {
        Some(part) => Job::Shard {
            part: *part,
            args: &args,
            second_pass: extra.second_pass.as_deref(),
            print_file: extra.print_file.as_deref(),
            dest: shard::Destination {
                output: extra.output.as_deref(),
                resume: extra.resume,
                limit,
                lengths: extra.lengths_only,
            },
        },
        None => match &extra.checkpoint {
            Some(path) => Job::Checkpoint {
                args: &args,
                threads,
                ck: checkpoint::Checkpoint {
                    path,
                    resume: extra.resume,
                    limit,
                },
            },
            None if threads > 1 && splittable => Job::Threads { threads },
            // Knuth's program as he runs it, on one thread.
            None => return sequential(knuth_args, &input, err),
        },
    };
    solve(argv0, &input, settings, job, err)
}

/// `xcover dlx3 merge [OPTIONS] PART...` (the options: `merge_args`).
fn merge_main(args: merge_args::MergeArgs, err: &mut Stderr) -> Result<(), CliError> {
    // A usage error of `merge`, said after `merge: `.
    let merge_usage = |message: String| usage(message).context("merge");
    let (files, verify) = (&args.parts, args.audit());
    let limit = args.max_memory.unwrap_or_else(memory::default_limit);
    let mut placed_paths = Vec::new();
    let mut print_paths = Vec::new();
    let mut paths = Vec::new();
    for p in files.iter().map(std::path::PathBuf::from) {
        if placed::is_placed_part(&p) {
            placed_paths.push(p);
        } else if second_pass::is_print_part(&p) {
            print_paths.push(p);
        } else {
            paths.push(p);
        }
    }
    let parts = merge::check(&paths, limit, verify.is_some()).map_err(in_merge)?;
    let settings = match parse_args(&parts.args, err) {
        Ok(parsed) => *parsed.settings(),
        Err(_) => return Err(in_merge("the parts record bad arguments")),
    };
    if verify.is_some() && (args.plan.is_some() || !print_paths.is_empty()) {
        let why = "--verify audits a merge of the first pass's parts alone, not --plan or \
                   second-pass parts (the second pass prints what the audited counts plan)";
        return Err(merge_usage(why.to_owned()));
    }
    if let Some(plan) = &args.plan {
        if !print_paths.is_empty() || !placed_paths.is_empty() || parts.header().bodies {
            let why = "--plan is for the first pass's parts of a run that keeps counts only \
                       (m<n> with n over 8, or --lengths-only)";
            return Err(merge_usage(why.to_owned()));
        }
        let note = second_pass::write_plan(plan, &parts, &settings, args.print_file.as_deref())
            .map_err(in_merge)?;
        use std::fmt::Write as _;
        let _ = writeln!(err, "{note}");
        err.flush();
        return match err.failed.take() {
            Some(e) => Err(CliError::failure(format!(
                "can't write standard error: {e}"
            ))),
            None => Ok(()),
        };
    }
    let placed = match (&args.print_file, placed_paths.is_empty()) {
        (Some(file), false) if print_paths.is_empty() => {
            Some(placed::check(&parts, &settings, &placed_paths, file, limit).map_err(in_merge)?)
        }
        (None, true) => None,
        _ => {
            let why = "--print-file FILE and placed parts (of --second-pass PLAN --print-file \
                       FILE) go together, without other second-pass parts";
            return Err(merge_usage(why.to_owned()));
        }
    };
    let mut prints = if print_paths.is_empty() {
        None
    } else {
        Some(second_pass::check_prints(&parts, &settings, &print_paths, limit).map_err(in_merge)?)
    };
    let need = storage_bytes(&measure(&parts.input)).saturating_add(parts.input.len() as u64);
    memory::check(need, limit, "the parts' input").map_err(in_merge)?;
    let threads = crate::shared_args::worker_threads(args.threads);
    let job = Job::Merge {
        split: parts.split,
        parts: &parts,
        prints: prints.as_mut(),
        placed: placed.as_ref(),
        threads,
        verify,
    };
    solve("", &parts.input, settings, job, err)
}

/// A failure of `merge`, said after `merge: `.
fn in_merge(e: impl Into<CliError>) -> CliError {
    e.into().context("merge")
}

/// What `solve` does after reading the matrix.
enum Job<'j> {
    /// The whole search, on `threads` threads (more than one; one thread is
    /// [`sequential`]).
    Threads { threads: usize },
    /// The whole search on `threads` worker threads, recorded in a checkpoint.
    Checkpoint {
        args: &'j [OsString],
        threads: usize,
        ck: checkpoint::Checkpoint<'j>,
    },
    /// One shard's units, written as a part file.
    Shard {
        part: Part,
        args: &'j [OsString],
        /// `--second-pass PLAN`.
        second_pass: Option<&'j std::path::Path>,
        /// `--print-file FILE` (a second pass that writes in place).
        print_file: Option<&'j std::path::Path>,
        dest: shard::Destination<'j>,
    },
    /// The whole search's output from the shards' parts; `threads` explore again the
    /// units of counts-only parts that hold a printed solution.
    Merge {
        split: u32,
        parts: &'j merge::Parts,
        /// The second pass's parts, when the run had one.
        prints: Option<&'j mut second_pass::Prints>,
        /// The placed parts of a second pass in place, checked with the print file.
        placed: Option<&'j placed::Placements>,
        threads: usize,
        /// `--verify`: units explored again before anything is printed.
        verify: Option<verify::Verify>,
    },
}

/// Length of standard input when it is a regular file (known before reading it).
fn stdin_file_len() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.is_file().then_some(meta.len())
}

/// Bytes of the engine storage `solve` allocates for capacity `cap`.
pub fn storage_bytes(cap: &xcover_core::dlx3::Capacity) -> u64 {
    let item = std::mem::size_of::<Item>() + std::mem::size_of::<[u8; 8]>();
    let bytes = cap.item_slots as u128 * item as u128
        + cap.node_slots as u128 * std::mem::size_of::<Node>() as u128
        + MAX_LEVEL as u128 * std::mem::size_of::<Level>() as u128;
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// Reads the matrix and runs the job; returns the exit status.
fn solve(
    argv0: &str,
    input: &[u8],
    settings: xcover_core::dlx3::Settings,
    job: Job<'_>,
    err: &mut Stderr,
) -> Result<(), CliError> {
    let mut storage = HeapWorkspace::for_input(input);
    let mut engine = match Dlx3::new(storage.as_mut_view(), settings) {
        Ok(e) => e,
        Err(e) => {
            use std::fmt::Write as _;
            let _ = writeln!(err, "{e}");
            return Err(CliError::quiet(Kind::Dlx3(e)));
        }
    };
    if let Err(e) = engine.read_input(input, err) {
        engine.write_error_report(&e, err);
        return Err(CliError::quiet(Kind::Dlx3(e)));
    }
    err.flush();
    // The first SIGINT, SIGTERM or SIGHUP stops the search at the end of its slice; installed
    // only around the search, so a signal while the input is read ends the program as usual.
    let signals = Signals::install().ok();
    let received = || signals.as_ref().and_then(Signals::received);
    match job {
        Job::Shard {
            part,
            args,
            second_pass: pass2,
            print_file,
            dest,
        } => match (pass2, print_file) {
            (Some(plan), Some(file)) => placed::run(
                &mut engine,
                input,
                args,
                part,
                (plan, file),
                &dest,
                &received,
            ),
            (Some(plan), None) => {
                second_pass::run(&mut engine, input, args, part, plan, &dest, &received)
            }
            (None, _) => shard::run(&mut engine, input, args, part, &dest, &received),
        },
        Job::Merge {
            split,
            parts,
            mut prints,
            placed,
            threads,
            verify,
        } => {
            if let Some(v) = verify {
                audit(argv0, &engine, parts, v, err, &received).map_err(in_merge)?;
                if let Some(placed) = placed {
                    placed.verify_text().map_err(in_merge)?;
                    use std::fmt::Write as _;
                    let _ = writeln!(
                        err,
                        "{argv0}: merge: the print file's {} bytes agree with the CRCs \
                         their shards recorded",
                        placed.total()
                    );
                    err.flush();
                }
            }
            let mut source = merge::Recorded::open(parts).map_err(in_merge)?;
            let plan = prefetch::Plan::new(&settings, &parts.counts);
            // The merged output is what a long run was for: a failed write is an error.
            coordinated(&mut engine, err, &received, true, |engine, console| {
                let walked = if let Some(placed) = placed {
                    // The second pass wrote the text in place: nothing to print.
                    let mut with = placed::WithPlaced {
                        recorded: &mut source,
                        placed,
                    };
                    // A unit the walk explores itself (it holds a progress report) prints
                    // its text again: it is in the print file already, so it goes nowhere.
                    let mut text_elsewhere = TextElsewhere {
                        console,
                        discard: xcover_core::sink::Discard,
                    };
                    let walked = units::coordinate(engine, split, &mut with, &mut text_elsewhere)?;
                    let recorded: u64 = parts.counts.iter().map(|&(_, c)| c).sum();
                    let done = matches!(walked, units::Walked::Done(DoneReason::Exhausted));
                    if done && engine.stats().count != recorded {
                        let outside = engine.stats().count - recorded.min(engine.stats().count);
                        return Err(placed::PlacedError::OutsideUnits(outside).into());
                    }
                    walked
                } else if let Some(prints) = prints.as_deref_mut() {
                    // The second pass printed the units: nothing to explore.
                    let mut with = second_pass::WithPrints {
                        recorded: &mut source,
                        prints,
                    };
                    units::coordinate(engine, split, &mut with, console)?
                } else if threads > 1 && !plan.wanted.is_empty() {
                    let stop = || received().is_some();
                    let source = &mut source;
                    prefetch::run(engine, split, threads, source, &plan, console, &stop)?
                } else {
                    units::coordinate(engine, split, &mut source, console)?
                };
                // Every record was met only when the whole tree was walked.
                if matches!(walked, units::Walked::Done(DoneReason::Exhausted)) {
                    source.finished()?;
                    if let Some(prints) = prints {
                        prints.finished()?;
                    }
                }
                Ok(walked)
            })
        }
        Job::Checkpoint { args, threads, ck } => {
            coordinated(&mut engine, err, &received, true, |e, console| {
                checkpoint::run(e, input, args, &ck, threads, console, &received)
            })
        }
        Job::Threads { threads } => {
            let split = engine
                .choose_split_level(units::units_for(threads as u64))
                .map_err(|e| CliError::failure(format!("can't split the search: {e}")))?;
            coordinated(&mut engine, err, &received, true, |e, console| {
                threads::run(e, split, threads, console, &|| received().is_some())
            })
        }
    }
}

/// `merge --verify`: explores the chosen units again before the walk (see `verify`),
/// saying on stderr what it audits, with the seed that repeats the choice.
fn audit(
    argv0: &str,
    engine: &Dlx3<'_>,
    parts: &merge::Parts,
    v: verify::Verify,
    err: &mut Stderr,
    received: &dyn Fn() -> Option<i32>,
) -> Result<(), verify::AuditError> {
    use std::fmt::Write as _;
    let mut started = |seed: u64, amount: verify::Amount| {
        let what = match amount {
            verify::Amount::All => "every unit".to_owned(),
            verify::Amount::Units(k) => format!(
                "{k} units of each part, chosen at random with seed {seed} (--verify-seed \
                 {seed} repeats the choice)"
            ),
        };
        let _ = writeln!(err, "{argv0}: merge: auditing {what}");
        err.flush();
    };
    let audited = verify::audit(engine, parts, v, &mut started, &|| received().is_some())?;
    let _ = writeln!(
        err,
        "{argv0}: merge: audit passed: {} units explored again agree with their records \
         (seed {})",
        audited.units, audited.seed
    );
    err.flush();
    Ok(())
}

/// The standard output of the command.
type Stdout<'o> = IoSink<std::io::BufWriter<std::io::StdoutLock<'o>>>;

/// The coordinator's view of the terminal: stdout, stderr and the signal flag.
struct Console<'c, 'o> {
    out: &'c mut Stdout<'o>,
    err: &'c mut Stderr,
    received: &'c dyn Fn() -> Option<i32>,
    signal: Option<i32>,
    /// Whether a failed write to stdout ends the walk (merge) or is ignored as Knuth's
    /// unchecked `printf` ignores it.
    checked: bool,
}

impl units::Output for Console<'_, '_> {
    fn streams(&mut self) -> (&mut dyn ByteSink, &mut dyn ByteSink) {
        (&mut *self.out, &mut *self.err)
    }

    fn solutions_written(&mut self) -> bool {
        self.out.flush();
        // A checked stream stops at its first write error too.
        let failed = self.checked && self.out.failed.is_some();
        !self.out.broken_pipe && !failed
    }

    fn keep_going(&mut self) -> bool {
        self.err.flush();
        self.signal = (self.received)();
        self.signal.is_none()
    }
}

/// The console of a merge whose text a second pass wrote in place: the reports go to
/// stderr, and what the walk prints on stdout (the text of a unit it explores itself, for
/// a progress report there) nowhere, since the print file holds it.
struct TextElsewhere<'t, 'c, 'o> {
    console: &'t mut Console<'c, 'o>,
    discard: xcover_core::sink::Discard,
}

impl units::Output for TextElsewhere<'_, '_, '_> {
    fn streams(&mut self) -> (&mut dyn ByteSink, &mut dyn ByteSink) {
        (&mut self.discard, &mut *self.console.err)
    }

    fn solutions_written(&mut self) -> bool {
        units::Output::solutions_written(self.console)
    }

    fn keep_going(&mut self) -> bool {
        units::Output::keep_going(self.console)
    }
}

/// Runs a coordinated walk (`walk`) and ends it like the sequential run ends: the closing
/// reports, an error report, `INTERRUPTED!`, or quietly on a closed stdout. When `checked`,
/// a failed write to stdout (other than a closed pipe) ends it with a message and status 1.
fn coordinated(
    engine: &mut Dlx3<'_>,
    err: &mut Stderr,
    received: &dyn Fn() -> Option<i32>,
    checked: bool,
    walk: impl FnOnce(&mut Dlx3<'_>, &mut Console<'_, '_>) -> Result<units::Walked, units::WalkError>,
) -> Result<(), CliError> {
    let mut out = IoSink::new(std::io::BufWriter::new(std::io::stdout().lock()));
    let mut console = Console {
        out: &mut out,
        err: &mut *err,
        received,
        signal: None,
        checked,
    };
    let walked = walk(engine, &mut console);
    let signal = console.signal.or_else(received);
    out.flush();
    if checked && !out.broken_pipe {
        if let Some(e) = out.failed.take() {
            return Err(cant_write_stdout(e));
        }
    }
    let status = match walked {
        Ok(units::Walked::Done(_)) => Ok(()),
        Ok(units::Walked::Failed(e)) => {
            engine.write_error_report(&e, err);
            return Err(CliError::quiet(Kind::Dlx3(e)));
        }
        Ok(units::Walked::Stopped) if out.broken_pipe => {
            return Err(CliError::quiet(Kind::BrokenPipe))
        }
        Ok(units::Walked::Stopped) => {
            use std::fmt::Write as _;
            let _ = err.write_str("INTERRUPTED!\n");
            let signal = signal.unwrap_or(libc::SIGINT);
            Err(CliError::quiet(Kind::Interrupted(signal)))
        }
        // No totals: they would not be those of the whole search.
        Err(e) => return Err(e.into()),
    };
    engine.finish(err);
    if checked {
        std::io::stdout().flush().map_err(cant_write_stdout)?;
    }
    let _ = std::io::stdout().flush();
    status
}

/// The search on one thread, as Knuth's program runs it: `xcover_solver::knuth`, with the
/// command's signals (the first SIGINT, SIGTERM or SIGHUP ends the search like the `T`
/// timeout, `INTERRUPTED!` then the closing reports) and its statuses.
///
/// Threads, checkpoints and `merge --threads` run on the solver's unit driver too
/// (`xcover_solver::units`, through [`pool`]): it claims the units, runs the workers and
/// hands their records to the coordinator in unit order, while what a record holds and how
/// a unit is explored stay here (`units`): the solver's threads record a unit's solutions
/// as option indices, these record what Knuth's program prints for it (the solutions'
/// text, the `v128` profile below the split, the deepest level), spill it to part and
/// checkpoint files in bounded memory, and have the coordinator print the progress reports
/// and totals at the points one run prints them.
fn sequential(
    knuth_args: xcover_solver::knuth::Args,
    input: &[u8],
    err: &mut Stderr,
) -> Result<(), CliError> {
    // Installed when the search starts (the first look, after the input is read), so a
    // signal while the input is read ends the program as usual.
    let signals = std::cell::OnceCell::new();
    let received = || {
        signals
            .get_or_init(|| Signals::install().ok())
            .as_ref()
            .and_then(Signals::received)
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let end = knuth_args
        .run_until(input, &mut out, &mut err.as_io(), &|| received().is_some())
        .map_err(|e| match (e.stream(), e.io_error().kind()) {
            // As SIGPIPE ends Knuth's program: quietly.
            (Stream::Stdout, std::io::ErrorKind::BrokenPipe) => CliError::quiet(Kind::BrokenPipe),
            _ => CliError::failure(e.to_string()),
        })?;
    match (end.error, end.stats.end) {
        (Some(e), _) => Err(CliError::quiet(Kind::Dlx3(e))),
        (None, xcover_solver::End::Stopped) => {
            let signal = received().unwrap_or(libc::SIGINT);
            Err(CliError::quiet(Kind::Interrupted(signal)))
        }
        (None, _) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xcover_core::dlx3::Capacity;

    /// The README's figure: 24 bytes per item slot (item and name), 16 per node slot,
    /// 24 per level (500 levels); Knuth's full limits need about 1.5 GiB.
    #[test]
    fn storage_bytes_is_the_readme_formula() {
        let cap = Capacity {
            item_slots: 12,
            node_slots: 345,
        };
        assert_eq!(storage_bytes(&cap), 24 * 12 + 16 * 345 + 24 * 500);
        let knuth = storage_bytes(&Capacity::KNUTH);
        assert_eq!(knuth, 24 * 10_002 + 16 * 100_000_000 + 24 * 500);
    }
}

//! Knuth's command-line rules (arguments examined from last to first, so the first
//! occurrence of a letter wins; every `S<file>` opened; a bad argument refused after all
//! were examined) are `xcover_solver::knuth::Args`'s; here the usage and help texts.
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

use xcover_solver::knuth::{self, Args, BadArgs};

use super::sink::IoSink;

/// Applies `args` (without `argv[0]`) the way Knuth's loop does; `err` gets the message of
/// a shape file that cannot be created.
pub(crate) fn parse_args<W: std::io::Write>(
    args: &[OsString],
    err: &mut IoSink<W>,
) -> Result<Args, BadArgs> {
    Args::parse(args.iter().map(|a| a.as_bytes()), &mut err.as_io())
}

/// Knuth's usage line.
pub(crate) fn write_usage<W: std::io::Write>(err: &mut IoSink<W>, argv0: &str) {
    xcover_core::sink::ByteSink::write_bytes(err, knuth::usage(argv0).as_bytes());
}

/// Text for `--help`.
pub(crate) fn help_text(argv0: &str) -> String {
    format!(
        "Usage: {argv0} [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<file>] < foo.dlx
       {argv0} --threads N [letters] < foo.dlx
       {argv0} --checkpoint FILE [--resume] [--threads N] [letters] < foo.dlx
       {argv0} --shard I/N [--output PART [--resume]] [letters] < foo.dlx [> PART]
       {argv0} merge [--max-memory SIZE] [--threads N] [--verify K|all [--verify-seed S]] PART...
       {argv0} merge --plan PLAN PART...     (m<n> over 8: a second pass prints the units)
       {argv0} --shard I/N --second-pass PLAN [--output PRINT [--resume]] [letters] < foo.dlx
       {argv0} --export-c|--export-rust FILE [--name ID] [s<n>] > matrix.h

Exact cover with multiplicities and colors (Knuth's DLX3), byte-compatible with his program.
Reads the matrix from standard input; solutions go to standard output, everything else to
standard error. The first occurrence of a letter wins.

  v<n>  verbosity bits: 1 basics, 2 choices, 4 details, 128 profile, 256 full state,
        512 item totals, 1024 warnings (default 1025)
  m<n>  print every n-th solution (default 0: only count)
  s<n>  randomize with seed n
  d<n>  progress report every n mems (default 10000000000; 0 = never)
  c<n>  trace choices only below level n
  C<n>  truncate state reports after level n
  l<n>  show details only within n levels of the deepest so far
  t<n>  stop after n solutions
  T<n>  stop after n mems
  S<file>  write the search-tree shape to file

  --max-memory SIZE  refuse (exit 1) an input whose storage needs more than SIZE bytes
        (suffix K, M, G, T; default 4G, or 3/4 of the physical memory if less)

  --threads N        search on N threads (default 1; 0: one per core), printing exactly what
                     one thread prints; with s<n>, S<file> or the v2/v4 traces the search
                     stays on one thread (they follow one sequence of events)
  --checkpoint FILE  record each unit of the search in FILE as it is printed; with
                     --resume, print again what FILE holds and go on: the output is the
                     uninterrupted run's, byte for byte (--threads may differ)
  --shard I/N        explore part I of N (0 <= I < N <= 65536) of the search and write it
                     as a part file (to stdout, or to --output PART); s<n>, S<file>, v2/v4
                     refused. A part keeps every unit's counters, and the solutions' text
                     only with m1 to m8; with a larger m, merge explores again the few
                     units that hold a printed solution and checks their counters (or a
                     second pass prints them: merge --plan PLAN, then --second-pass PLAN)
  --output PART      the part file of --shard, written record by record (an existing
                     part is refused without --resume; one writer at a time)
  --resume           continue the part file of --output after a kill (a finished one is
                     left as it is; another run's or a damaged one is refused, untouched);
                     with no part yet, start one
  merge PART...      check that the parts are the N complete shards of one run (in any
                     order) and print exactly what the unsharded run prints; each part
                     read is bounded by --max-memory and printed from the very files
                     checked; a failed write, to stdout or stderr, is an error (exit 1);
                     --threads N (default 1; 0: one per core) explores those units ahead;
                     second-pass parts (--second-pass) given with the parts are printed
                     as they are, nothing explored
  --verify K|all     (merge) an audit: explore again K units of every part, chosen at
                     random (the seed is printed), or all of them, and refuse the parts
                     if one differs from its record (a forgery with valid checksums);
                     not with --plan or second-pass parts (audit the first pass's parts)
  --verify-seed S    (merge) the seed of --verify's choice, to repeat an audit

  --export-c FILE    write FILE's matrix (- for standard input) as a C header of const
                     arrays for dlx3_init_preloaded / dlx3_init_compact (see xcover.h)
  --export-rust FILE the same as Rust consts for Dlx3::preloaded
  --name ID          identifier prefix of the exported arrays (default: FILE's name)
        (with --export-*, only s<n> of the letters applies and no other option)

Input (Knuth's format): lines that start with `|' and blank lines are comments. The first
other line names the items: primary items, then a lone `|', then secondary items. A
primary item may carry a multiplicity, `n|name' (exactly n times) or `m:n|name' (m to n
times; default exactly once). Every later line is an option: the names of its items, a
secondary item optionally with a one-character color (`name:c'). Names have at most 8
characters; every line ends with a newline. Example:
    A B | x
    A x:1
    B x:1
    A B

Exit status: 0 done; 102 input error (Knuth's message and the line); 252 `Too many
levels!'; 255 usage error (a bad argument, also for --export-*, --threads, --shard); 1
input over --max-memory, a failed write (stdout, stderr, a part file, --export-*), or
parts that merge or its audit refuses; 130 / 143 / 129 interrupted by SIGINT / SIGTERM / SIGHUP; 141 standard
output closed (like SIGPIPE).

SIGINT, SIGTERM or SIGHUP during the search stops it like a T timeout: `INTERRUPTED!',
then the closing reports of the search so far.
"
    )
}

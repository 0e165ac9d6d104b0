//! `xcover gridcheck merge --verify K|all [--verify-seed S] [--ua-file F]`: an audit of the
//! parts. A checksum catches damage, never a forger, who can write any record with a valid
//! chain; so the merge scans again, with the shards' own code (`runner::run_chunks` over
//! core's `ChunkRun`), K chunks of every part chosen at random, and refuses the parts if
//! any chunk's counters differ from its record or it finds a puzzle its part lacks. A part
//! with `f` forged chunks among its `u` is caught with probability `1 - C(u-f, K) /
//! C(u, K)` (at least `K/u` for one); `all` scans every chunk (the search's cost again)
//! and also requires each part's puzzles to be exactly those its chunks find.
//!
//! Every audit also checks each puzzle of every part with the solver (a unique solution,
//! and minimal when the run asks for minimal puzzles), one solver call a puzzle: a puzzle
//! inserted into a part is caught whatever K. A grid holding a chosen chunk is prepared
//! again (its UA list and preparation, as the shards did), and every part's chunk list of
//! that grid must be exactly the chunks its shard owns, with the preparation figures the
//! parts record.
//!
//! `xcover gridcheck --checkpoint J --resume --verify K|all [--verify-seed S]` audits a
//! journal the same way before the run goes on (`audit_journal`): its puzzles with the
//! solver, K of its done chunks scanned again (a shard journal's counters compared too).
//!
//! The scan options are rebuilt from the parts' fingerprint (clues, mask, minimal, kept
//! UA) and checked against the digest of the options it holds; a run whose UA came from
//! `--ua-file` needs that file again (checked against the digest too).
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use crate::error::{bail, cli_error, Result};
use xcover_core::gridcheck::scan::{
    self, ChunkId, Prepared, ScanOptions, TruncationLimits, WorkspaceSize,
};
use xcover_core::gridcheck::solver::is_unique_with_grid;
use xcover_core::gridcheck::{Cells, Grid, Puzzle};

use super::args::Args;
use super::fingerprint::{self, PuzzleRules, BY_GRID};
use super::journal::GridRecord;
use super::part::Part;
use super::runner::{self, Control};
use super::summary::{self, Counts, PreparedSummary};
use super::ua_source::{self, DEFAULT_UA_RANDOM, DEFAULT_UA_RANDOM_MASKED};
use super::{output, shard::Shard};
use crate::dlx3::verify::{self as choice, Amount};
use crate::memory;

/// The audit asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verify {
    /// Every chunk, or this many of each part (all of a part that has fewer).
    pub amount: Amount,
    /// The seed of the random choice (`None`: a fresh one, printed).
    pub seed: Option<u64>,
    /// The UA file of a run that loaded its UA list (`--ua-file`).
    pub ua_file: Option<PathBuf>,
}

/// Audits the journal at `path` of a `--resume` with `args` (`--verify K|all`): every
/// puzzle it holds is checked with the solver, and K of the chunks it records as done
/// (chosen at random, the seed said on stderr) are scanned again, as the run scans them,
/// on its `--threads`; a puzzle one finds must be in the journal, and a shard journal's
/// counters must be the chunk's. `records` are the journal's, of `grids`. A signal in
/// `interrupt` ends the audit (an error). Reads only: the journal is left as it is.
pub(crate) fn audit_journal(
    args: &Args,
    options: &ScanOptions,
    path: &Path,
    grids: &[Grid],
    records: &[GridRecord],
    limit: u64,
    interrupt: &AtomicUsize,
) -> Result<()> {
    let amount = args.verify.ok_or_else(|| cli_error!("no --verify"))?;
    let seed = args.verify_seed.unwrap_or_else(choice::fresh_seed);
    let run = Run::of_args(args, options);
    let threads = crate::shared_args::worker_threads(args.threads);
    let name = path.display();
    let units: Vec<(usize, u32)> = records
        .iter()
        .enumerate()
        .flat_map(|(g, record)| {
            let mut ids: Vec<u32> = record.chunks_done.keys().copied().collect();
            ids.sort_unstable();
            ids.into_iter().map(move |id| (g, id))
        })
        .collect();
    let what = match amount {
        Amount::All => "every one".to_owned(),
        Amount::Units(k) => format!(
            "{k}, chosen at random with seed {seed} (--verify-seed {seed} repeats the choice),"
        ),
    };
    output::line(&format!(
        "xcover gridcheck: auditing {what} of the {} the journal {name} records as done",
        summary::count(units.len(), "chunk")
    ))?;
    let refuse = |message: String| {
        cli_error!(
            "checkpoint {name}: {message} (audit seed {seed}): a forged or wrong journal; \
             start anew without --resume (the journal is left as it is)"
        )
    };
    let grid_count = grids.len();
    let mut puzzles = 0usize;
    for (index, record) in records.iter().enumerate() {
        for &givens in &record.puzzles {
            if let Some(why) = not_a_puzzle(&grids[index], givens, options) {
                let text = Puzzle::from_grid(&grids[index], givens);
                let grid = index + 1;
                return Err(refuse(format!("grid {grid}/{grid_count}: {text} is {why}")));
            }
            puzzles += 1;
        }
    }
    let mut chosen: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    let mut state = seed;
    for j in pick(&mut state, units.len() as u64, amount) {
        let (g, id) = units[j as usize];
        chosen.entry(g).or_default().push(id);
    }
    let mut scanned = 0usize;
    for (&index, ids) in &chosen {
        let (grid, record) = (&grids[index], &records[index]);
        let label = format!("grid {}/{grid_count}", index + 1);
        with_prepared(&run, grid, &label, limit, threads, |prepared, figures| {
            let all: Vec<ChunkId> = prepared.chunks().collect();
            let mine: Vec<ChunkId> = match args.shard {
                Some(shard) => all
                    .iter()
                    .enumerate()
                    .filter(|&(unit, _)| shard.owns(index, unit))
                    .map(|(_, &c)| c)
                    .collect(),
                None => all,
            };
            record.check_chunks(path, index, &mine)?;
            if record.prepared.as_ref().is_some_and(|p| *p != figures) {
                return Err(refuse(format!(
                    "{label}: the audit prepared it again and found other figures"
                )));
            }
            let chunks: Vec<ChunkId> = ids.iter().filter_map(|&id| ChunkId::from_u32(id)).collect();
            let outcome = scan_chunks(prepared, &chunks, threads, &label, Some(interrupt))?;
            for (chunk, stats) in &outcome.stats {
                let id = chunk.to_u32();
                let found = Counts {
                    nodes: stats.steps,
                    candidates: stats.candidates,
                };
                match record.chunk_counts.get(&id) {
                    Some(want) if *want != found => {
                        return Err(refuse(format!(
                            "{label} chunk {id}: the audit scanned it again and found other \
                             counters (nodes, candidates: recorded {} {}, found {} {})",
                            want.nodes, want.candidates, found.nodes, found.candidates
                        )))
                    }
                    _ => {}
                }
            }
            if let Some(&missing) = outcome.found.iter().find(|g| !record.puzzles.contains(g)) {
                let text = Puzzle::from_grid(grid, missing).to_string();
                let chunk = finder(prepared, &chunks, grid, &text, &label)?;
                return Err(refuse(format!(
                    "{label} chunk {chunk}: the audit scanned it again and found puzzle \
                     {text}, which the journal lacks"
                )));
            }
            scanned += chunks.len();
            Ok(())
        })?;
    }
    output::line(&format!(
        "xcover gridcheck: audit passed: {scanned} chunks scanned again agree with the \
         journal, and its {puzzles} puzzles are puzzles (seed {seed})"
    ))?;
    Ok(())
}

/// One part of the merge, by the name it was given.
pub(crate) struct Named<'a> {
    pub name: &'a str,
    pub part: &'a Part,
}

/// Audits `parts` (checked by the merge: one run, each shard once, ordered by shard);
/// reads at most `limit` bytes of a UA file and keeps the scan's buffers under `limit`.
/// Says on stderr what it audits (with the seed) and that it passed.
pub(crate) fn audit(parts: &[Named<'_>], verify: &Verify, limit: u64) -> Result<()> {
    let seed = verify.seed.unwrap_or_else(choice::fresh_seed);
    let what = match verify.amount {
        Amount::All => "every chunk of every part".to_owned(),
        Amount::Units(k) => format!(
            "{k} chunks of each part, chosen at random with seed {seed} (--verify-seed {seed} \
             repeats the choice)"
        ),
    };
    let first = parts.first().ok_or_else(|| cli_error!("no part"))?.part;
    let run = Run::of(&first.fingerprint, verify.ua_file.as_ref(), limit)?;
    output::line(&format!("xcover gridcheck merge: auditing {what}"))?;
    let refuse = |message: String| cli_error!("{message} (audit seed {seed}); not merged");
    let grid_count = first.grids.len();
    let mut grids = Vec::with_capacity(grid_count);
    for part_grid in &first.grids {
        grids
            .push(Grid::parse(part_grid.grid.as_bytes()).map_err(|e| cli_error!("bad grid: {e}"))?);
    }
    let mut puzzles = 0usize;
    for named in parts {
        for (index, grid) in named.part.grids.iter().enumerate() {
            for text in &grid.puzzles {
                let givens = Puzzle::parse(text.as_bytes()).map(|p| p.givens());
                let why = match givens {
                    Ok(givens) => not_a_puzzle(&grids[index], givens, &run.options),
                    Err(_) => Some("not a puzzle"),
                };
                if let Some(why) = why {
                    return Err(refuse(format!(
                        "{}: grid {}/{grid_count}: {text} is {why}: a forged or wrong part",
                        named.name,
                        index + 1
                    )));
                }
                puzzles += 1;
            }
        }
    }
    let chosen = choose(parts, verify.amount, seed);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut scanned = 0usize;
    for (&index, picks) in &chosen {
        let label = format!("grid {}/{grid_count}", index + 1);
        let grid = &grids[index];
        with_prepared(&run, grid, &label, limit, threads, |prepared, figures| {
            let all: Vec<ChunkId> = prepared.chunks().collect();
            for named in parts {
                let recorded = &named.part.grids[index];
                if recorded.prepared != figures {
                    return Err(refuse(format!(
                        "{}: {label}: the audit prepared it again and found other figures \
                     (recorded `{}`, found `{}`): a forged part or one of another build",
                        named.name,
                        recorded.prepared.encode(),
                        figures.encode()
                    )));
                }
                let owned = owned_chunks(&all, named.part.shard, index);
                let ids: BTreeSet<u32> = recorded.chunks.iter().map(|&(id, _)| id).collect();
                if let Some(why) = chunk_difference(&ids, &owned, named.part.shard) {
                    return Err(refuse(format!(
                        "{}: {label}: {why}: a forged part",
                        named.name
                    )));
                }
            }
            for (&at, ids) in picks {
                let named = &parts[at];
                let recorded = &named.part.grids[index];
                let chunks: Vec<ChunkId> =
                    ids.iter().filter_map(|&id| ChunkId::from_u32(id)).collect();
                let outcome = scan_chunks(prepared, &chunks, threads, &label, None)?;
                for (chunk, stats) in &outcome.stats {
                    let id = chunk.to_u32();
                    let found = Counts {
                        nodes: stats.steps,
                        candidates: stats.candidates,
                    };
                    let want = recorded.chunks.iter().find(|&&(c, _)| c == id).map(|c| c.1);
                    if want != Some(found) {
                        let want = want.unwrap_or_default();
                        return Err(refuse(format!(
                            "{}: {label} chunk {id}: the audit scanned it again and found other \
                         counters (nodes, candidates: recorded {} {}, found {} {}): a forged \
                         or wrong part",
                            named.name, want.nodes, want.candidates, found.nodes, found.candidates
                        )));
                    }
                }
                let found = puzzle_texts(grid, &outcome.found);
                if let Some(missing) = found
                    .iter()
                    .find(|p| recorded.puzzles.binary_search(p).is_err())
                {
                    let chunk = finder(prepared, &chunks, grid, missing, &label)?;
                    return Err(refuse(format!(
                        "{}: {label} chunk {chunk}: the audit scanned it again and found puzzle \
                     {missing}, which the part lacks: a forged or wrong part",
                        named.name
                    )));
                }
                if verify.amount == Amount::All && found.len() != recorded.puzzles.len() {
                    let extra = recorded
                        .puzzles
                        .iter()
                        .find(|p| !found.contains(p))
                        .map_or("", String::as_str);
                    return Err(refuse(format!(
                        "{}: {label}: puzzle {extra} is found by none of the part's chunks: a \
                     forged or wrong part",
                        named.name
                    )));
                }
                scanned += chunks.len();
            }
            Ok(())
        })?;
    }
    output::line(&format!(
        "xcover gridcheck merge: audit passed: {scanned} chunks scanned again agree with \
         their parts, and the {puzzles} puzzles of the parts are puzzles (seed {seed})"
    ))?;
    Ok(())
}

/// Generates the UA list of `grid` and prepares its scan as the run did, within `limit`
/// bytes with the workspaces of `threads` workers; hands the preparation and its figures
/// to `audit`.
fn with_prepared<T>(
    run: &Run,
    grid: &Grid,
    label: &str,
    limit: u64,
    threads: usize,
    audit: impl FnOnce(&Prepared<'_>, PreparedSummary) -> Result<T>,
) -> Result<T> {
    let (uas, origin) = run.ua_list(grid, limit)?;
    let entries = scan::prepare_work_entries(uas.len());
    let buffers = (uas.len() as u64 + entries as u64).saturating_mul(16);
    memory::check(buffers, limit, "the audit (UA list and work buffer)")
        .map_err(|e| cli_error!(e))?;
    let mut work = vec![0u128; entries];
    // As the run's session: a whole grid on the band engine (its workers have band words).
    let prepared = scan::prepare_with_bands(grid, &uas, &run.options, &mut work)
        .map_err(|e| cli_error!("{label}: preparing the audit's scan: {e}"))?;
    let per_thread = WorkspaceSize::for_scan(&prepared).bytes() as u64;
    memory::check(
        buffers.saturating_add(per_thread.saturating_mul(threads as u64)),
        limit,
        "the audit's scan",
    )
    .map_err(|e| cli_error!(e))?;
    let figures = PreparedSummary::new(&prepared, origin);
    audit(&prepared, figures)
}

/// What the run's fingerprint says the shards scanned with.
struct Run {
    options: ScanOptions,
    ua: UaSource,
}

/// Where the shards took the UA list from.
enum UaSource {
    /// Generated with `random` pseudo-puzzles (`None`: the recipe `ua_source::recipe`
    /// chooses for each grid) and `seed`.
    Generated { random: Option<u32>, seed: u64 },
    /// Loaded from this file (its digest checked).
    File(PathBuf),
}

impl Run {
    /// The scan of a run with `args` and `options`.
    fn of_args(args: &Args, options: &ScanOptions) -> Run {
        let ua = match &args.ua_file {
            Some(path) => UaSource::File(path.clone()),
            None => UaSource::Generated {
                random: args.ua_random,
                seed: args.seed,
            },
        };
        Run {
            options: *options,
            ua,
        }
    }

    /// The scan of the run `fingerprint` (a part's header); `ua_file` is the run's UA
    /// file when it used one (read with at most `limit` bytes).
    fn of(fingerprint: &str, ua_file: Option<&PathBuf>, limit: u64) -> Result<Run> {
        let field = |key: &str| {
            fingerprint
                .split(' ')
                .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
                .ok_or_else(|| cli_error!("the parts' header has no `{key}` (a forged part?)"))
        };
        let version = field("xcover")?;
        if version != env!("CARGO_PKG_VERSION") {
            bail!(
                "the parts were written by xcover {version}; this is {}: audit them with the \
                 shards' version",
                env!("CARGO_PKG_VERSION")
            );
        }
        let rules = PuzzleRules::from_fingerprint(fingerprint).ok_or_else(|| {
            cli_error!("the parts' header has no clue count or mask that makes sense")
        })?;
        let mut options = ScanOptions::for_clues(u32::from(rules.clues))
            .map_err(|e| cli_error!("the parts' clue count: {e}"))?;
        options.mask = rules.mask;
        options.minimal_only = field("minimal")? == "1";
        options.stop_at_first = field("first")? == "1";
        options.truncation = match field("keep")? {
            "default" => None,
            k => Some(TruncationLimits {
                total: k
                    .parse()
                    .map_err(|_| cli_error!("the parts' header has a bad `keep={k}`"))?,
            }),
        };
        if fingerprint::hash(format!("{options:?}").as_bytes()) != field("options")? {
            bail!(
                "the scan options rebuilt from the parts' header do not match its digest (a \
                 forged part, or one of another build): the audit cannot scan as the shards did"
            );
        }
        let ua = field("ua")?;
        let ua = if let Some(digest) = ua.strip_prefix("file:") {
            let path = ua_file.ok_or_else(|| {
                cli_error!("the run loaded its UA list from a file: give it with --ua-file F")
            })?;
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| cli_error!("reading {name}: {e}"))?;
            let text = memory::read_bounded(file, limit, &name).map_err(|e| cli_error!(e))?;
            if fingerprint::hash(&text) != digest {
                bail!("--ua-file {name} is not the UA file of the run (its digest differs)");
            }
            UaSource::File(path.clone())
        } else {
            if ua_file.is_some() {
                bail!("--ua-file: the run generated its UA list, it loaded no file");
            }
            let generated = || -> Option<UaSource> {
                let rest = ua.strip_prefix("generated:random=")?;
                let (random, seed) = rest.split_once(":seed=")?;
                let random = match random {
                    BY_GRID => None,
                    // Parts of builds before the count was chosen per grid: a fixed count.
                    "default" if options.mask.is_free() => Some(DEFAULT_UA_RANDOM),
                    "default" => Some(DEFAULT_UA_RANDOM_MASKED),
                    r => Some(r.parse().ok()?),
                };
                Some(UaSource::Generated {
                    random,
                    seed: seed.parse().ok()?,
                })
            };
            generated()
                .ok_or_else(|| cli_error!("the parts' header has a bad UA source `ua={ua}`"))?
        };
        Ok(Run { options, ua })
    }

    /// The UA list of `grid` as the shards made it, and its origin for the figures.
    fn ua_list(&self, grid: &Grid, limit: u64) -> Result<(Vec<Cells>, &'static str)> {
        const UA_BYTES: u64 = std::mem::size_of::<Cells>() as u64;
        Ok(match &self.ua {
            UaSource::Generated { random, seed } => {
                let recipe = ua_source::recipe(*random, grid, &self.options);
                memory::check(recipe.first_bytes(), limit, "the audit's UA generation")
                    .map_err(|e| cli_error!(e))?;
                let keep = self.options.mask.givens;
                (
                    ua_source::generate_recipe(grid, recipe, *seed, keep)?,
                    "generated",
                )
            }
            UaSource::File(path) => (
                ua_source::load(path, grid, limit / (UA_BYTES + 1))?,
                "loaded",
            ),
        })
    }
}

/// Why `givens` (of a puzzle of `grid` checked for its form) are not a puzzle the scan
/// reports: another solution, or (with `--minimal`) a clue that can go.
fn not_a_puzzle(grid: &Grid, givens: Cells, options: &ScanOptions) -> Option<&'static str> {
    if !is_unique_with_grid(grid, givens) {
        return Some("a puzzle with more than one solution");
    }
    let removable = |cell: u8| is_unique_with_grid(grid, givens.difference(Cells::single(cell)));
    if options.minimal_only && givens.iter().any(removable) {
        return Some("not minimal (a clue can go) in a run of minimal puzzles");
    }
    None
}

/// The chunks to scan again: per grid, per part (its index in `parts`), the chunk ids.
/// Each part's units are its chunk records in file order; `min(K, u)` of its `u` are
/// chosen with Floyd's algorithm from one generator seeded with `seed`.
fn choose(
    parts: &[Named<'_>],
    amount: Amount,
    seed: u64,
) -> BTreeMap<usize, BTreeMap<usize, Vec<u32>>> {
    let mut state = seed;
    let mut chosen: BTreeMap<usize, BTreeMap<usize, Vec<u32>>> = BTreeMap::new();
    for (at, named) in parts.iter().enumerate() {
        let units: Vec<(usize, u32)> = named
            .part
            .grids
            .iter()
            .enumerate()
            .flat_map(|(g, grid)| grid.chunks.iter().map(move |&(id, _)| (g, id)))
            .collect();
        for j in pick(&mut state, units.len() as u64, amount) {
            let (g, id) = units[j as usize];
            chosen.entry(g).or_default().entry(at).or_default().push(id);
        }
    }
    chosen
}

/// `min(K, owned)` distinct numbers below `owned` (all with `All`), chosen with Floyd's
/// algorithm from the generator `state`: each set of that size equally likely.
fn pick(state: &mut u64, owned: u64, amount: Amount) -> BTreeSet<u64> {
    let k = match amount {
        Amount::All => owned,
        Amount::Units(k) => k.min(owned),
    };
    let mut picked = BTreeSet::new();
    for top in owned - k..owned {
        let j = choice::below(state, top + 1);
        if !picked.insert(j) {
            picked.insert(top);
        }
    }
    picked
}

/// The chunk ids shard `shard` owns of grid `index`, whose chunks are `all`.
fn owned_chunks(all: &[ChunkId], shard: Shard, index: usize) -> BTreeSet<u32> {
    all.iter()
        .enumerate()
        .filter(|&(unit, _)| shard.owns(index, unit))
        .map(|(_, c)| c.to_u32())
        .collect()
}

/// How a part's chunk ids of a grid differ from those its shard owns, if they do.
fn chunk_difference(ids: &BTreeSet<u32>, owned: &BTreeSet<u32>, shard: Shard) -> Option<String> {
    if let Some(id) = ids.difference(owned).next() {
        return Some(format!("chunk {id} is not a chunk of shard {shard}"));
    }
    owned
        .difference(ids)
        .next()
        .map(|id| format!("chunk {id} of shard {shard} is missing"))
}

/// What a scan of some chunks found: every puzzle, and each chunk's counters.
struct Scanned {
    found: Vec<Cells>,
    stats: Vec<(ChunkId, scan::RunStats)>,
}

/// Scans `chunks` of `prepared` to their end on `threads` workers, as a shard does.
fn scan_chunks(
    prepared: &Prepared<'_>,
    chunks: &[ChunkId],
    threads: usize,
    label: &str,
    interrupt: Option<&AtomicUsize>,
) -> Result<Scanned> {
    let control = Control {
        interrupt,
        ..Control::default()
    };
    let label = format!("audit {label}");
    let outcome = runner::run_chunks(prepared, chunks, threads, &label, control)?;
    if outcome.interrupted {
        bail!("{label}: interrupted");
    }
    if outcome.chunks_done != chunks.len() {
        bail!("{label}: the audit's scan ended early");
    }
    Ok(Scanned {
        found: outcome.found,
        stats: outcome.chunk_stats,
    })
}

/// The puzzles `found` of `grid` as sorted, distinct 81-char lines (as parts write them).
fn puzzle_texts(grid: &Grid, found: &[Cells]) -> Vec<String> {
    let mut texts: Vec<String> = found
        .iter()
        .map(|&givens| Puzzle::from_grid(grid, givens).to_string())
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts
}

/// Which of `chunks` finds `puzzle` (each scanned alone, on one thread): for a message
/// naming the chunk.
fn finder(
    prepared: &Prepared<'_>,
    chunks: &[ChunkId],
    grid: &Grid,
    puzzle: &str,
    label: &str,
) -> Result<u32> {
    for &chunk in chunks {
        let alone = scan_chunks(prepared, &[chunk], 1, label, None)?;
        if puzzle_texts(grid, &alone.found).iter().any(|p| p == puzzle) {
            return Ok(chunk.to_u32());
        }
    }
    bail!("{label}: puzzle {puzzle} was found, then by none of the chunks alone")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_list_is_compared_with_the_shards() {
        let shard = Shard { index: 1, count: 2 };
        let ids = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
        assert_eq!(chunk_difference(&ids(&[1, 3]), &ids(&[1, 3]), shard), None);
        let extra = chunk_difference(&ids(&[1, 3, 4]), &ids(&[1, 3]), shard).unwrap();
        assert!(
            extra.contains("chunk 4 is not a chunk of shard 1/2"),
            "{extra}"
        );
        let gone = chunk_difference(&ids(&[1]), &ids(&[1, 3]), shard).unwrap();
        assert!(gone.contains("chunk 3 of shard 1/2 is missing"), "{gone}");
    }
}

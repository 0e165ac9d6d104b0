//! `xcover dlx3 --shard I/N`: explores the I-th of N static parts of the search (units
//! `k` with `k % N == I`) and writes their records as a part file (see `part_file`),
//! to stdout or to `--output FILE`, which `--resume` continues after a kill.
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use xcover_core::dlx3::{Dlx3, Part};

use super::part_file::{Fnv, Header, Next, Reader, Writer};
use super::units::{self, Claim, Image};

/// Where a shard's part goes, and whether an earlier attempt is continued.
pub(crate) struct Destination<'p> {
    pub output: Option<&'p Path>,
    pub resume: bool,
}

/// The outcome of a shard run: `Ok(status)` or an error message and status.
pub(crate) type Outcome = Result<i32, (String, i32)>;

/// Runs shard `part` of the search of `engine` (input read with the user's settings).
pub(crate) fn run(
    engine: &mut Dlx3<'_>,
    input: &[u8],
    args: &[OsString],
    part: Part,
    dest: &Destination<'_>,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Outcome {
    let split = engine
        .choose_split_level(units::units_for(part.count()))
        .map_err(|e| (format!("can't split the search: {e}"), e.exit_status()))?;
    let header = Header {
        input_len: input.len() as u64,
        input_hash: Fnv::of(input),
        args: args.iter().map(|a| a.as_bytes().to_vec()).collect(),
        shard: part.index(),
        shards: part.count(),
        split,
    };
    let head = header.bytes((part.index() == 0).then_some(input));
    let io_err = |what: &str, e: std::io::Error| (format!("{what}: {e}"), 1);
    // The part file so far: a fresh one, or the whole records of an earlier attempt.
    let (sink, hash, units_done, last_done): (Box<dyn Write>, Fnv, u64, Option<LastRecord>) =
        match dest.output {
            None => {
                let mut out = BufWriter::new(std::io::stdout().lock());
                out.write_all(&head).map_err(|e| io_err("stdout", e))?;
                let mut h = Fnv::NEW;
                h.update(&head);
                (Box::new(out), h, 0, None)
            }
            Some(path) if dest.resume && path.exists() => {
                let name = path.display().to_string();
                match continue_part(path, &header, &head, part.index() == 0, input)? {
                    Resumed::Complete => return Ok(0),
                    Resumed::At {
                        offset,
                        hash,
                        units,
                        last,
                    } => {
                        let f = OpenOptions::new()
                            .write(true)
                            .open(path)
                            .map_err(|e| io_err(&name, e))?;
                        f.set_len(offset).map_err(|e| io_err(&name, e))?;
                        let mut w = BufWriter::new(f);
                        use std::io::Seek;
                        w.seek(std::io::SeekFrom::End(0))
                            .map_err(|e| io_err(&name, e))?;
                        let mut hash = hash;
                        if offset == 0 {
                            // Killed before its header was whole: start the file again.
                            w.write_all(&head).map_err(|e| io_err(&name, e))?;
                            hash.update(&head);
                        }
                        (Box::new(w), hash, units, last)
                    }
                }
            }
            Some(path) => {
                let name = path.display().to_string();
                let mut f = BufWriter::new(File::create(path).map_err(|e| io_err(&name, e))?);
                f.write_all(&head).map_err(|e| io_err(&name, e))?;
                let mut h = Fnv::NEW;
                h.update(&head);
                (Box::new(f), h, 0, None)
            }
        };
    let mut writer = Writer::new(sink, hash, units_done);
    let image = Image::of(engine);
    let mut storage = image.storage();
    let mut worker = image
        .engine(&mut storage, units::worker_settings(engine.settings()))
        .map_err(|e| (e.to_string(), e.exit_status()))?;
    let mut write_error = None;
    let stopped = std::cell::Cell::new(None);
    let explored = units::explore(
        &mut worker,
        split,
        |k| match last_done {
            // The records of a resumed part carry the engine's deepest level so far, so the
            // engine is brought to the depth it had there before it explores the rest.
            Some((last, deepest)) if k == last => Claim::SkipReaching(deepest),
            Some((last, _)) if k < last => Claim::Skip,
            _ if part.owns(k) => Claim::Explore,
            _ => Claim::Skip,
        },
        |k, rec| match writer.unit(k, &rec) {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        },
        &|| {
            let s = interrupted();
            stopped.set(s);
            s.is_some()
        },
    );
    if let Some(e) = write_error {
        return Err(io_err("can't write the part", e));
    }
    match explored {
        Ok(true) => {
            writer
                .finish()
                .map_err(|e| io_err("can't write the part", e))?;
            Ok(0)
        }
        Ok(false) => {
            let signal = stopped.get().unwrap_or(libc::SIGINT);
            let hint = if dest.output.is_some() {
                "; continue it with --resume"
            } else {
                ""
            };
            Err((
                format!("shard {}/{} interrupted{hint}", part.index(), part.count()),
                crate::signals::exit_status(signal),
            ))
        }
        Err((unit, e)) => {
            let place = unit.map_or(String::new(), |k| format!(" in unit {k}"));
            Err((format!("{e}{place}"), e.exit_status()))
        }
    }
}

/// The last unit an earlier attempt recorded, and the deepest level its records show.
type LastRecord = (u64, u32);

/// An earlier attempt at a part file.
enum Resumed {
    /// It is finished: nothing to do.
    Complete,
    /// Its whole records end at `offset` (0: not even its header is whole).
    At {
        offset: u64,
        hash: Fnv,
        units: u64,
        last: Option<LastRecord>,
    },
}

/// Reads an earlier attempt at this shard's part file.
fn continue_part(
    path: &Path,
    header: &Header,
    head: &[u8],
    with_input: bool,
    input: &[u8],
) -> Result<Resumed, (String, i32)> {
    let name = path.display();
    // A header cut short by a kill is a prefix of this run's header.
    let mut start = Vec::new();
    File::open(path)
        .and_then(|f| std::io::Read::take(f, head.len() as u64).read_to_end(&mut start))
        .map_err(|e| (format!("{name}: can't open it: {e}"), 1))?;
    if start.len() < head.len() && head.starts_with(&start) {
        return Ok(Resumed::At {
            offset: 0,
            hash: Fnv::NEW,
            units: 0,
            last: None,
        });
    }
    let mut r = Reader::open(path).map_err(|e| (format!("{name}: {e}"), 1))?;
    let (found, data) = r.header().map_err(|e| (format!("{name}: {e}"), 1))?;
    if found != *header || (with_input && data.as_deref() != Some(input)) {
        return Err((
            format!("{name}: a part of another run (other input, arguments or shard); not resumed"),
            1,
        ));
    }
    let (mut units, mut last) = (0, None);
    loop {
        let (offset, hash) = (r.offset, r.hash());
        match r.next() {
            Ok(Some(Next::Unit(k, rec))) => {
                units += 1;
                let deepest = last.map_or(0, |(_, d)| d);
                last = Some((k, rec.stats.maxl.max(deepest)));
            }
            Ok(Some(Next::End(_))) => return Ok(Resumed::Complete),
            // A record cut short (or damaged by the kill): continue before it.
            Ok(None) | Err(_) => {
                return Ok(Resumed::At {
                    offset,
                    hash,
                    units,
                    last,
                })
            }
        }
    }
}

//! Property tests of the part format, in process: real parts of small searches, damaged
//! in every way a disk, a kill or a wrong copy can damage them (each byte flipped, each
//! length cut, records deleted, repeated, swapped, parts concatenated) and records that
//! make no sense under valid checksums. Each case either resumes to exactly the bytes of
//! an uninterrupted run (only a torn tail can) or is refused naming the file, leaving it
//! as it was; a merge with it is refused or prints the one-run answer; nothing panics.
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use xcover_core::dlx3::{Dlx3, DoneReason, Event, HeapWorkspace, Part, Settings, Sinks, MAX_LEVEL};
use xcover_core::sink::ByteSink;
use xcover_core::testing::write_queens_dlx;

use super::args::parse_args;
use super::merge::{self, Recorded};
use super::part_file::{self, Header, PART, UNIT};
use super::shard::{self, Destination};
use super::sink::IoSink;
use super::units::{self, Walked};
use crate::durable::{Reader, Step, Writer};

const LIMIT: u64 = 1 << 30;

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn settings_of(args: &[OsString]) -> Settings {
    match parse_args(args, &mut IoSink::new(Vec::new())) {
        Ok(parsed) => *parsed.settings(),
        Err(_) => panic!("bad arguments {args:?}"),
    }
}

/// Runs `f` on an engine that has read `input`, with what reading it wrote to stderr.
fn with_engine<T>(
    input: &[u8],
    settings: Settings,
    f: impl FnOnce(&mut Dlx3<'_>, Vec<u8>) -> T,
) -> T {
    let mut storage = HeapWorkspace::for_input(input);
    let mut e = Dlx3::new(storage.as_mut_view(), settings).expect("engine");
    let mut summary = Buf::default();
    e.read_input(input, &mut summary).expect("input");
    f(&mut e, summary.0)
}

/// The one-run output: stdout and stderr.
fn one_run(input: &[u8], args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let (mut out, mut err) = (Buf::default(), Buf::default());
    let settings = settings_of(&os(args));
    with_engine(input, settings, |e, summary| {
        err.0 = summary;
        loop {
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: None,
            };
            if let Event::Done(_) = e.run(u64::MAX, &mut sinks).expect("runs") {
                break;
            }
        }
        e.finish(&mut err);
    });
    (out.0, err.0)
}

/// `xcover dlx3 --shard i/n --output path [--resume]`, in process.
fn write_part(
    input: &[u8],
    args: &[&str],
    (i, n): (u64, u64),
    path: &Path,
    resume: bool,
) -> Result<(), String> {
    let args = os(args);
    with_engine(input, settings_of(&args), |e, _| {
        let dest = Destination {
            output: Some(path),
            resume,
            limit: LIMIT,
            lengths: false,
        };
        shard::run(e, input, &args, Part::new(i, n).unwrap(), &dest, &|| None)
            .map_err(|e| e.to_string())
    })
}

/// Bytes written to a sink.
#[derive(Default)]
struct Buf(Vec<u8>);

impl ByteSink for Buf {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// A terminal that keeps what the coordinator writes.
#[derive(Default)]
struct Collect {
    out: Buf,
    err: Buf,
}

impl units::Output for Collect {
    fn streams(&mut self) -> (&mut dyn ByteSink, &mut dyn ByteSink) {
        (&mut self.out, &mut self.err)
    }
    fn solutions_written(&mut self) -> bool {
        true
    }
    fn keep_going(&mut self) -> bool {
        true
    }
}

/// `xcover dlx3 merge paths`, in process: stdout and stderr, or the refusal.
fn merge_parts(paths: &[PathBuf]) -> Result<(Vec<u8>, Vec<u8>), String> {
    merge_parts_with(paths, || {})
}

/// [`merge_parts`], calling `between` after the parts are checked and before the walk
/// reads them again (where a part may be replaced).
fn merge_parts_with(
    paths: &[PathBuf],
    between: impl FnOnce(),
) -> Result<(Vec<u8>, Vec<u8>), String> {
    let parts = merge::check(paths, LIMIT, false).map_err(|e| e.to_string())?;
    between();
    let settings = settings_of(&parts.args);
    let mut io = Collect::default();
    with_engine(&parts.input, settings, |e, summary| {
        io.err.0 = summary;
        let mut source = Recorded::open(&parts).map_err(|e| e.to_string())?;
        match units::coordinate(e, parts.split, &mut source, &mut io).map_err(|e| e.to_string())? {
            Walked::Done(why) => {
                if why == DoneReason::Exhausted {
                    source.finished().map_err(|e| e.to_string())?;
                }
                e.finish(&mut io.err);
                Ok(())
            }
            Walked::Failed(x) => Err(x.to_string()),
            Walked::Stopped => Err("stopped".into()),
        }
    })?;
    Ok((io.out.0, io.err.0))
}

/// The identity and the records of a part.
fn records_of(bytes: &[u8]) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let mut r = Reader::new(bytes, Path::new("part"), PART, LIMIT);
    let identity = r.header().expect("header");
    let mut records = Vec::new();
    while let Step::Record(rec) = r.next().expect("record") {
        records.push((rec.tag, rec.payload));
    }
    (identity, records)
}

/// A part with valid frames and checksums around whatever records it is given.
fn framed(identity: &[u8], records: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = Writer::stream(Vec::new(), Path::new("part"), PART, identity).unwrap();
    for (tag, payload) in records {
        w.record(tag, payload).unwrap();
    }
    w.finish().unwrap()
}

/// The parts of one run and what one run prints.
struct Run {
    dir: tempfile::TempDir,
    input: Vec<u8>,
    args: Vec<&'static str>,
    n: u64,
    parts: Vec<PathBuf>,
    one: (Vec<u8>, Vec<u8>),
}

impl Run {
    fn new(input: String, args: &[&'static str], n: u64) -> Run {
        let dir = tempfile::tempdir().unwrap();
        let input = input.into_bytes();
        let mut parts = Vec::new();
        for i in 0..n {
            let p = dir.path().join(format!("p{i}"));
            assert_eq!(write_part(&input, args, (i, n), &p, false), Ok(()));
            parts.push(p);
        }
        let one = one_run(&input, args);
        let run = Run {
            dir,
            input,
            args: args.to_vec(),
            n,
            parts,
            one,
        };
        assert_eq!(merge_parts(&run.parts), Ok(run.one.clone()), "{args:?}");
        run
    }

    fn original(&self, victim: u64) -> Vec<u8> {
        std::fs::read(&self.parts[victim as usize]).unwrap()
    }

    /// Checks a damaged copy `bytes` of part `victim`; `repairable` when it is a torn
    /// tail (a resume must then give the original bytes back).
    fn case(&self, victim: u64, bytes: &[u8], what: &str, repairable: bool) {
        let original = self.original(victim);
        // Merge: refused naming the file, or the one-run answer.
        let x = self.dir.path().join("x");
        std::fs::write(&x, bytes).unwrap();
        let mut files = self.parts.clone();
        files[victim as usize] = x.clone();
        match merge_parts(&files) {
            Ok(got) => assert!(got == self.one, "{what}: merge printed another answer"),
            Err(m) => assert!(m.contains(&x.display().to_string()), "{what}: {m}"),
        }
        if what.starts_with("forged") {
            // A counts-only record forged with valid checksums: only a merge that explores
            // its unit again can tell (the resume takes it as it takes any record).
            assert!(merge_parts(&files).is_err(), "{what}: merged");
            return;
        }
        // Resume: the uninterrupted run's bytes, or refused with the file untouched.
        let y = self.dir.path().join("y");
        std::fs::write(&y, bytes).unwrap();
        let resumed = write_part(&self.input, &self.args, (victim, self.n), &y, true);
        let after = std::fs::read(&y).unwrap();
        match resumed {
            Ok(()) => assert!(after == original, "{what}: resumed to other bytes"),
            Err(m) => {
                assert!(!repairable, "{what}: a torn tail refused: {m}");
                assert!(m.contains(&y.display().to_string()), "{what}: {m}");
                assert!(after == bytes, "{what}: a refused resume changed the file");
            }
        }
        assert!(
            !repairable || bytes == original || merge_parts(&files).is_err(),
            "{what}: a cut part merged"
        );
    }

    /// Every damage of part `victim` (positions sampled every `step` bytes).
    fn attack(&self, victim: u64, step: usize) {
        let original = self.original(victim);
        for at in (0..original.len()).step_by(step) {
            let mut b = original.clone();
            b[at] ^= 1;
            self.case(victim, &b, &format!("byte {at} flipped"), false);
        }
        // Parts are born whole: a cut inside the header is not a torn tail of ours.
        let header_end = crate::durable::testing::frame_ranges(&original)[0].end;
        for len in (0..original.len()).step_by(step) {
            let torn = len >= header_end || len == 0;
            self.case(victim, &original[..len], &format!("cut at {len}"), torn);
        }
        let (identity, records) = records_of(&original);
        assert!(framed(&identity, &records) == original);
        for i in 0..records.len() {
            let mut r = records.clone();
            r.remove(i);
            self.case(
                victim,
                &framed(&identity, &r),
                &format!("record {i} deleted"),
                false,
            );
            let mut r = records.clone();
            r.insert(i, records[i].clone());
            self.case(
                victim,
                &framed(&identity, &r),
                &format!("record {i} twice"),
                false,
            );
            if i + 1 < records.len() {
                let mut r = records.clone();
                r.swap(i, i + 1);
                let what = format!("records {i} and {} swapped", i + 1);
                self.case(victim, &framed(&identity, &r), &what, false);
            }
        }
        let other = self.original((victim + 1) % self.n);
        for (tail, what) in [
            (&original, "the part twice"),
            (&other, "another part after"),
        ] {
            let both = [&original[..], &tail[..]].concat();
            self.case(victim, &both, what, false);
        }
        self.meaning(victim, &identity, &records);
    }

    /// Records that make no sense, under valid checksums and a valid trailer.
    fn meaning(&self, victim: u64, identity: &[u8], records: &[(String, Vec<u8>)]) {
        let h = Header::parse(identity).unwrap();
        let units: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].0 == UNIT)
            .collect();
        let forge = |i: usize, what: &str, change: &dyn Fn(&mut u64, &mut units::UnitRecord)| {
            let (mut k, mut rec) = part_file::decode_unit(&records[i].1, &h).unwrap();
            change(&mut k, &mut rec);
            let mut r = records.to_vec();
            r[i].1 = part_file::encode_unit(k, &rec);
            self.case(victim, &framed(identity, &r), what, false);
        };
        for &i in &units {
            if h.bodies {
                forge(i, "count != bodies", &|_, r| r.stats.count += 1);
            } else if r_holds_printed(self, &h, records, i) {
                forge(i, "forged mems of a re-explored unit", &|_, r| {
                    r.stats.mems += 1
                });
                forge(i, "forged count of a re-explored unit", &|_, r| {
                    r.stats.count += 1
                });
            }
            forge(i, "a unit of another shard", &|k, _| *k += 1);
            forge(i, "a unit out of range", &|k, _| *k += h.units);
            forge(i, "counters that overflow", &|_, r| {
                r.stats.nodes = u64::MAX
            });
            forge(i, "a profile too long", &|_, r| {
                r.profile = vec![1; MAX_LEVEL]
            });
        }
    }
}

/// Whether unit record `i` of a counts-only part holds a solution the run prints (the
/// merge explores it again), judged from the one run's printed numbers.
fn r_holds_printed(run: &Run, h: &Header, records: &[(String, Vec<u8>)], i: usize) -> bool {
    // The solutions before the unit: those of the units before it in every part.
    let (k, rec) = part_file::decode_unit(&records[i].1, h).unwrap();
    let mut base = 0;
    for p in &run.parts {
        let (_, rs) = records_of(&std::fs::read(p).unwrap());
        for (tag, payload) in &rs {
            if tag == UNIT {
                let (j, r) = part_file::decode_unit(payload, h).unwrap();
                if j < k {
                    base += r.stats.count;
                }
            }
        }
    }
    settings_of(&os(&run.args)).prints_any(base, rec.stats.count)
}

fn queens(n: usize) -> String {
    let mut text = String::new();
    write_queens_dlx(n, &mut text).expect("a board of 1 to 32");
    text
}

#[test]
fn parts_with_bodies_resist_damage() {
    // Shard 0 (with the input) and one other; byte positions sampled (a prime step
    // meets every place in a frame line and in a payload).
    let run = Run::new(queens(6), &["m1"], 3);
    for victim in 0..2 {
        run.attack(victim, 7);
    }
}

#[test]
fn counts_only_parts_resist_damage() {
    let run = Run::new(queens(7), &["m9", "v129"], 2);
    for victim in 0..2 {
        run.attack(victim, 13);
    }
}

/// A part with unit record `nth`'s count raised by one, under a valid chain and trailer.
fn forged_count(original: &[u8], nth: usize) -> Vec<u8> {
    let (identity, mut records) = records_of(original);
    let h = Header::parse(&identity).unwrap();
    let i = (0..records.len())
        .filter(|&i| records[i].0 == UNIT)
        .nth(nth)
        .expect("a unit record");
    let (k, mut rec) = part_file::decode_unit(&records[i].1, &h).unwrap();
    rec.stats.count += 1;
    records[i].1 = part_file::encode_unit(k, &rec);
    framed(&identity, &records)
}

#[test]
fn a_part_renamed_over_during_the_merge_is_never_read() {
    // m0: counts only, nothing printed, so no unit is explored again and the walk takes
    // every count from the parts as the merge read them.
    let run = Run::new(queens(6), &["m0"], 2);
    let forged = run.dir.path().join("forged");
    std::fs::write(&forged, forged_count(&run.original(1), 0)).unwrap();
    // A valid chain: merged in place of part 1, the forgery changes the answer.
    let alone = merge_parts(&[run.parts[0].clone(), forged.clone()]).unwrap();
    assert_ne!(alone, run.one, "the forged count changes nothing");
    // Renamed over part 1 between the check and the walk: the merge prints what it
    // checked (the descriptor it opened), or refuses; never the replacement's answer.
    let got = merge_parts_with(&run.parts, || {
        std::fs::rename(&forged, &run.parts[1]).unwrap();
    });
    assert_eq!(got, Ok(run.one.clone()));
    // Rewritten in place (same file, other records): refused, not printed.
    let again = run.dir.path().join("again");
    assert_eq!(
        write_part(&run.input, &run.args, (1, 2), &again, false),
        Ok(())
    );
    let paths = [run.parts[0].clone(), again.clone()];
    let got = merge_parts_with(&paths, || {
        let bytes = forged_count(&std::fs::read(&run.parts[1]).unwrap(), 0);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&again)
            .unwrap();
        std::io::Write::write_all(&mut f, &bytes).unwrap();
        f.set_len(bytes.len() as u64).unwrap();
    });
    let err = got.expect_err("a part rewritten in place merged");
    assert!(err.contains("changed since the merge checked it"), "{err}");
}

/// The second pass's parts, like the first pass's, are read through the descriptors the
/// merge's check opened: one renamed over between the check and the walk (here by the
/// other shard's second-pass part, which read by its path would stop the walk) is never
/// read, and the merge prints the one-process run's bytes.
#[test]
fn a_second_pass_part_renamed_over_during_the_merge_is_never_read() {
    use super::second_pass;
    let input = queens(8).into_bytes();
    let args = ["m10"];
    let dir = tempfile::tempdir().unwrap();
    let at = |name: String| dir.path().join(name);
    let paths: Vec<PathBuf> = (0..2).map(|i| at(format!("part-{i}"))).collect();
    for (i, p) in paths.iter().enumerate() {
        assert_eq!(write_part(&input, &args, (i as u64, 2), p, false), Ok(()));
    }
    let parts = merge::check(&paths, LIMIT, false).unwrap();
    let settings = settings_of(&parts.args);
    let plan = at("plan".into());
    second_pass::write_plan(&plan, &parts, &settings, None).unwrap();
    let prints: Vec<PathBuf> = (0..2).map(|i| at(format!("print-{i}"))).collect();
    for (i, p) in prints.iter().enumerate() {
        let dest = Destination {
            output: Some(p),
            resume: false,
            limit: LIMIT,
            lengths: false,
        };
        let part = Part::new(i as u64, 2).unwrap();
        let done = with_engine(&input, settings, |e, _| {
            second_pass::run(e, &input, &os(&args), part, &plan, &dest, &|| None)
                .map_err(|e| e.to_string())
        });
        assert_eq!(done, Ok(()));
    }
    // Renamed over between the check and the walk: never read.
    let mut checked = second_pass::check_prints(&parts, &settings, &prints, LIMIT).unwrap();
    let copy = at("copy".into());
    std::fs::copy(&prints[0], &copy).unwrap();
    std::fs::rename(&copy, &prints[1]).unwrap();
    let (walked, out) = walk_with_prints(&parts, settings, &mut checked);
    assert_eq!(walked, Ok(()));
    assert_eq!(out, one_run(&input, &args));
    // Rewritten in place (the same file, other records).
    let again = at("again".into());
    let dest = Destination {
        output: Some(&again),
        resume: false,
        limit: LIMIT,
        lengths: false,
    };
    let part = Part::new(1, 2).unwrap();
    let done = with_engine(&input, settings, |e, _| {
        second_pass::run(e, &input, &os(&args), part, &plan, &dest, &|| None)
            .map_err(|e| e.to_string())
    });
    assert_eq!(done, Ok(()));
    let both = [prints[0].clone(), again.clone()];
    let parts = merge::check(&paths, LIMIT, false).unwrap();
    let mut checked = second_pass::check_prints(&parts, &settings, &both, LIMIT).unwrap();
    // The same frames, one solution's number edited, the chain made valid again.
    let bytes = std::fs::read(&again).unwrap();
    let mut r = Reader::new(&bytes[..], Path::new("print"), second_pass::PRINT, LIMIT);
    let identity = r.header().unwrap();
    let w = Writer::stream(
        Vec::new(),
        Path::new("print"),
        second_pass::PRINT,
        &identity,
    );
    let mut w = w.unwrap();
    let mut edited = false;
    while let Step::Record(mut rec) = r.next().unwrap() {
        let nl = rec.payload.iter().position(|&c| c == b'\n').unwrap();
        if let Some(i) = rec.payload[nl..].iter().position(|&c| c == b':') {
            let digit = &mut rec.payload[nl + i - 1];
            *digit = if *digit == b'1' { b'2' } else { b'1' };
            edited = true;
        }
        w.record(&rec.tag, &rec.payload).unwrap();
    }
    assert!(edited, "no solution text in the second-pass part");
    let forged = w.finish().unwrap();
    assert_eq!(forged.len(), bytes.len());
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(&again)
        .unwrap();
    std::io::Write::write_all(&mut f, &forged).unwrap();
    // What the merge read is what it checked (a small file is read whole at once), or
    // a refusal; never the edited text.
    match walk_with_prints(&parts, settings, &mut checked) {
        (Ok(()), out) => assert_eq!(out, one_run(&input, &args)),
        (Err(e), _) => assert!(e.contains("changed since the merge checked it"), "{e}"),
    }
}

/// The walk of a merge with second-pass parts `checked`, in process: its end, and the
/// stdout and stderr written.
fn walk_with_prints(
    parts: &merge::Parts,
    settings: Settings,
    checked: &mut super::second_pass::Prints,
) -> (Result<(), String>, (Vec<u8>, Vec<u8>)) {
    use super::second_pass;
    let mut io = Collect::default();
    let walked = with_engine(&parts.input, settings, |e, summary| {
        io.err.0 = summary;
        let mut source = Recorded::open(parts).map_err(|e| e.to_string())?;
        let mut with = second_pass::WithPrints {
            recorded: &mut source,
            prints: checked,
        };
        match units::coordinate(e, parts.split, &mut with, &mut io).map_err(|e| e.to_string())? {
            Walked::Done(DoneReason::Exhausted) => {
                source.finished().map_err(|e| e.to_string())?;
                checked.finished().map_err(|e| e.to_string())?;
                e.finish(&mut io.err);
                Ok(())
            }
            _ => Err("the walk did not finish".to_owned()),
        }
    });
    (walked, (io.out.0, io.err.0))
}

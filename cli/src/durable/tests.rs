//! The layer's promises, checked on every byte: any change is refused (naming the file
//! and record, the file left as it was), any cut resumes to exactly the bytes of an
//! uninterrupted run, and no input panics.
use std::path::Path;

use super::testing::frame_ranges;
use super::*;

const PART: Format = Format {
    magic: "xcover-test-part",
    version: 1,
    max_record: 1000,
    closed: true,
    noun: "part",
};

const JOURNAL: Format = Format {
    closed: false,
    noun: "journal",
    magic: "xcover-test-journal",
    ..PART
};

const IDENTITY: &[u8] = b"clues=17 grids=1:abc\n";

fn records() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("puzzle", b"0 1.3\n".to_vec()),
        ("chunk", b"0 513:99:7\n".to_vec()),
        ("data", vec![0, 10, 255, 32]),
        ("grid", b"".to_vec()),
        ("puzzle", b"1 ..5\n".to_vec()),
    ]
}

/// The bytes of a whole file of `format`.
fn whole(format: Format) -> Vec<u8> {
    let mut w = Writer::stream(Vec::new(), Path::new("mem"), format, IDENTITY).unwrap();
    for (tag, payload) in records() {
        w.record(tag, &payload).unwrap();
    }
    w.finish().unwrap()
}

/// Reads a closed file whole as merge does: its records, or the error.
fn read_strict(path: &Path) -> Result<Vec<Record>, DurableError> {
    let mut r = Reader::open(path, PART, 1 << 20)?;
    r.header()?;
    let mut out = Vec::new();
    while let Some(rec) = r.next_strict()? {
        out.push(rec);
    }
    Ok(out)
}

fn resume(path: &Path, format: Format) -> Result<Resumed, DurableError> {
    Writer::resume(path, format, IDENTITY, 1 << 20, &mut |_| Ok(()))
}

/// Resumes `path` and writes the records a run still has to write, then finishes.
fn resume_and_finish(path: &Path, format: Format) -> Result<(), DurableError> {
    match resume(path, format)? {
        Resumed::Complete(_) => Ok(()),
        Resumed::Open(mut w) => {
            for (tag, payload) in records().into_iter().skip(w.records() as usize) {
                w.record(tag, &payload)?;
            }
            w.finish().map(drop)
        }
    }
}

#[test]
fn a_file_reads_back_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p");
    std::fs::write(&path, whole(PART)).unwrap();
    let got = read_strict(&path).unwrap();
    let want: Vec<(String, Vec<u8>)> = records()
        .into_iter()
        .map(|(t, p)| (t.to_owned(), p))
        .collect();
    let got: Vec<(String, Vec<u8>)> = got.into_iter().map(|r| (r.tag, r.payload)).collect();
    assert_eq!(got, want);
    // A created file is the same bytes as a streamed one.
    let created = dir.path().join("c");
    let mut w = Writer::create(&created, PART, IDENTITY).unwrap();
    for (tag, payload) in records() {
        w.record(tag, &payload).unwrap();
    }
    assert_eq!(w.records(), 5);
    drop(w.finish().unwrap());
    assert_eq!(std::fs::read(&created).unwrap(), whole(PART));
}

#[test]
fn every_changed_byte_is_refused_and_the_file_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p");
    for format in [PART, JOURNAL] {
        let good = whole(format);
        for at in 0..good.len() {
            for flip in [0x01u8, 0x20, 0x80] {
                let mut bad = good.clone();
                bad[at] ^= flip;
                std::fs::write(&path, &bad).unwrap();
                let err = match resume(&path, format) {
                    Err(e) => e,
                    Ok(_) => panic!("{}: byte {at} ^ {flip:#x} resumed", format.noun),
                };
                assert!(err.is_bad_file(), "{err}");
                assert!(err.to_string().starts_with(&path.display().to_string()));
                assert_eq!(
                    std::fs::read(&path).unwrap(),
                    bad,
                    "byte {at} changed the file"
                );
                if format.closed {
                    assert!(read_strict(&path).is_err(), "byte {at} ^ {flip:#x} read");
                }
            }
        }
    }
}

#[test]
fn every_cut_resumes_to_the_bytes_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p");
    for format in [PART, JOURNAL] {
        let good = whole(format);
        for len in 0..=good.len() {
            // Cut, and cut with zero bytes after it (what a power loss can leave).
            for zeros in [0, 3, 200] {
                let mut cut = good[..len].to_vec();
                cut.resize(len + zeros, 0);
                std::fs::write(&path, &cut).unwrap();
                if format.closed && len < good.len() {
                    assert!(read_strict(&path).is_err(), "cut at {len} read as whole");
                }
                if len < header_len(&good) && len + zeros > 0 {
                    // Files are born whole: a file without a whole header is not ours.
                    let err = resume(&path, format).err().expect("a cut header resumed");
                    assert!(err.is_bad_file(), "cut at {len} + {zeros} zeros: {err}");
                    assert_eq!(std::fs::read(&path).unwrap(), cut, "cut at {len}");
                    continue;
                }
                if format.closed && len == good.len() && zeros > 0 {
                    // Nothing is written after a trailer: bytes there are not a cut.
                    let err = resume(&path, format).err().expect("zeros after a trailer");
                    assert!(matches!(err.problem, Problem::AfterTrailer), "{err}");
                    continue;
                }
                resume_and_finish(&path, format)
                    .unwrap_or_else(|e| panic!("cut at {len} + {zeros} zeros: {e}"));
                assert_eq!(
                    std::fs::read(&path).unwrap(),
                    good,
                    "{}: cut at {len} + {zeros} zeros",
                    format.noun
                );
            }
        }
    }
}

/// The length of the magic line and the header frame of `bytes` (a whole file's).
fn header_len(bytes: &[u8]) -> usize {
    frame_ranges(bytes)[0].end
}

/// The magic line and each frame of `bytes`, as byte strings.
fn frames(bytes: &[u8]) -> Vec<Vec<u8>> {
    let ranges = frame_ranges(bytes);
    let mut out = vec![bytes[..ranges[0].start].to_vec()];
    out.extend(ranges.into_iter().map(|r| bytes[r].to_vec()));
    out
}

#[test]
fn deleted_duplicated_moved_or_foreign_records_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p");
    let good = whole(PART);
    let f = frames(&good);
    assert_eq!(f.len(), 1 + 1 + 5 + 1, "magic, head, records, end");
    let join = |parts: Vec<&Vec<u8>>| parts.into_iter().flatten().copied().collect::<Vec<u8>>();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 2..f.len() - 1 {
        let mut v: Vec<&Vec<u8>> = f.iter().collect();
        v.remove(i);
        cases.push((format!("record {i} deleted"), join(v)));
        let mut v: Vec<&Vec<u8>> = f.iter().collect();
        v.insert(i, &f[i]);
        cases.push((format!("record {i} twice"), join(v)));
        if i + 1 < f.len() - 1 {
            let mut v: Vec<&Vec<u8>> = f.iter().collect();
            v.swap(i, i + 1);
            cases.push((format!("records {i} and {} swapped", i + 1), join(v)));
        }
    }
    cases.push((
        "the file twice".into(),
        [good.clone(), good.clone()].concat(),
    ));
    cases.push((
        "garbage after the trailer".into(),
        [good.clone(), b"x".to_vec()].concat(),
    ));
    // A record of another file (same format, another identity) put in.
    let mut other = Writer::stream(Vec::new(), Path::new("m"), PART, b"other").unwrap();
    other.record("puzzle", b"0 1.3\n").unwrap();
    let other = other.finish().unwrap();
    let mut v: Vec<&Vec<u8>> = f.iter().collect();
    let foreign = &frames(&other)[2];
    v[2] = foreign;
    cases.push(("a foreign record".into(), join(v)));
    for (what, bytes) in cases {
        std::fs::write(&path, &bytes).unwrap();
        let err = read_strict(&path)
            .err()
            .unwrap_or_else(|| panic!("{what}: read"));
        assert!(err.is_bad_file(), "{what}: {err}");
        assert!(resume(&path, PART).is_err(), "{what}: resumed");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: file changed");
    }
}

#[test]
fn a_trailer_in_a_journal_and_a_record_the_caller_refuses_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let mut w = Writer::stream(Vec::new(), &path, JOURNAL, IDENTITY).unwrap();
    w.record("puzzle", b"0 1\n").unwrap();
    let mut bytes = w.finish().unwrap();
    // An open format never has a trailer: forge one with a valid chain.
    let f = frames(&bytes);
    let chain = super::reader::tests_chain_after(&bytes, JOURNAL);
    let (end, _) = super::frame::encode(chain, "end", b"1\n");
    bytes.extend_from_slice(&end);
    assert_eq!(frames(&bytes).len(), f.len() + 1);
    std::fs::write(&path, &bytes).unwrap();
    let err = resume(&path, JOURNAL).err().unwrap();
    assert!(err.to_string().contains("record 2"), "{err}");

    let good = whole(JOURNAL);
    std::fs::write(&path, &good).unwrap();
    let refuse = &mut |r: &Record| {
        if r.tag == "data" {
            Err(Visit::Invalid("not a data record of this run".into()))
        } else {
            Ok(())
        }
    };
    let err = Writer::resume(&path, JOURNAL, IDENTITY, 1 << 20, refuse)
        .err()
        .unwrap();
    let text = err.to_string();
    assert!(
        text.contains("record 3") && text.contains("not a data record"),
        "{text}"
    );
    let stop = &mut |_: &Record| Err(Visit::Interrupted);
    let err = Writer::resume(&path, JOURNAL, IDENTITY, 1 << 20, stop)
        .err()
        .unwrap();
    assert!(matches!(err.problem, Problem::Interrupted), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

#[test]
fn other_files_are_never_truncated_or_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    let other_run = {
        let w = Writer::stream(Vec::new(), &path, JOURNAL, b"clues=18").unwrap();
        w.finish().unwrap()
    };
    let other_version = whole(JOURNAL)
        .iter()
        .copied()
        .skip("xcover-test-journal 1".len())
        .collect::<Vec<u8>>();
    let other_version = [b"xcover-test-journal 2".to_vec(), other_version].concat();
    for (what, bytes, expect) in [
        (
            "a text without a newline",
            b"my notes".to_vec(),
            "not an xcover journal",
        ),
        (
            "a text file",
            b"line one\nline two\n".to_vec(),
            "not an xcover journal",
        ),
        ("another run's journal", other_run, "another run"),
        (
            "another version's journal",
            other_version,
            "another format version",
        ),
        ("a part", whole(PART), "not an xcover journal"),
        ("a zero-filled file", vec![0; 1000], "not an xcover journal"),
        (
            "a zero-filled file, 64 KiB",
            vec![0; 65535],
            "not an xcover journal",
        ),
        ("a file `x`", b"x".to_vec(), "not an xcover journal"),
        (
            "a file `xcover`",
            b"xcover".to_vec(),
            "not an xcover journal",
        ),
        (
            "a prefix of the magic line",
            b"xcover-test-jour".to_vec(),
            "not an xcover journal",
        ),
        (
            "the magic line without its newline",
            b"xcover-test-journal 1".to_vec(),
            "lost its newline",
        ),
        (
            "a magic line whose newline was changed",
            whole(JOURNAL)
                .iter()
                .map(|&b| if b == b'\n' { b' ' } else { b })
                .collect(),
            "lost its newline",
        ),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        let err = resume(&path, JOURNAL).err().unwrap();
        assert!(err.to_string().contains(expect), "{what}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}");
        let err = Writer::create(&path, JOURNAL, IDENTITY).err();
        assert!(matches!(err.unwrap().problem, Problem::Exists), "{what}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}");
    }
    // Nothing is left beside the file (no temporary file of a refused create).
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_new_file_appears_whole_and_an_empty_one_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    // While the writer holds it, the file under its name has the whole header already.
    let w = Writer::create(&path, JOURNAL, IDENTITY).unwrap();
    let on_disk = std::fs::read(&path).unwrap();
    let mut r = Reader::new(&on_disk[..], &path, JOURNAL, 1 << 20);
    assert_eq!(r.header().unwrap(), IDENTITY);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    drop(w.finish().unwrap());
    // An empty file holds nothing: created over, or resumed as a fresh file.
    for resumed in [false, true] {
        std::fs::write(&path, b"").unwrap();
        let w = if resumed {
            match resume(&path, JOURNAL).unwrap() {
                Resumed::Open(w) => w,
                Resumed::Complete(_) => panic!("an empty file is complete"),
            }
        } else {
            Writer::create(&path, JOURNAL, IDENTITY).unwrap()
        };
        drop(w.finish().unwrap());
        let want = Writer::stream(Vec::new(), &path, JOURNAL, IDENTITY).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), want.finish().unwrap());
    }
}

#[test]
fn a_record_over_the_format_size_is_not_a_memory_matter() {
    let small = Format {
        max_record: 4,
        ..PART
    };
    let good = whole(PART);
    let mut r = Reader::new(&good[..], Path::new("p"), small, 1 << 20);
    let err = r.header().err().unwrap();
    let text = err.to_string();
    assert!(!text.contains("--max-memory"), "{text}");
    assert!(text.contains("fixed by the format"), "{text}");
}

#[test]
fn an_io_error_is_told_once_in_a_chain_of_causes() {
    let e = DurableError {
        path: "j".into(),
        noun: "journal",
        record: None,
        offset: None,
        problem: Problem::Io(std::io::Error::from_raw_os_error(libc::ENOSPC)),
    };
    let chained = crate::error::CliError::from(e).to_string();
    assert_eq!(chained.matches("No space left").count(), 1, "{chained}");
}

#[test]
fn one_writer_at_a_time_and_no_reader_while_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p");
    let mut first = Writer::create(&path, PART, IDENTITY).unwrap();
    first.record("puzzle", b"0 1\n").unwrap();
    let second = Writer::create(&path, PART, IDENTITY);
    assert!(matches!(second.err().unwrap().problem, Problem::Locked));
    let again = resume(&path, PART);
    assert!(matches!(again.err().unwrap().problem, Problem::Locked));
    let read = Reader::open(&path, PART, 1 << 20);
    let err = read.err().unwrap();
    assert!(err.to_string().contains("in use by another"), "{err}");
    first.record("puzzle", b"0 2\n").unwrap();
    drop(first.finish().unwrap());
    assert_eq!(read_strict(&path).unwrap().len(), 2);
    assert!(matches!(resume(&path, PART), Ok(Resumed::Complete(_))));
}

#[test]
fn reads_are_bounded() {
    let zero = std::io::repeat(0);
    let err = Reader::new(zero, Path::new("/dev/zero"), PART, 1 << 40)
        .header()
        .err()
        .unwrap();
    assert!(matches!(err.problem, Problem::NotThisFormat), "{err}");
    // An endless run of frame-like bytes stops at the frame line's bound.
    let endless = std::io::repeat(b'a');
    let mut r = Reader::new(endless, Path::new("pipe"), PART, 1 << 40);
    assert!(r.header().is_err());
    // The whole file against the caller's limit, a payload against the format's.
    let good = whole(PART);
    let mut r = Reader::new(&good[..], Path::new("p"), PART, 60);
    let err = r.header().and_then(|_| r.next()).err().unwrap();
    assert!(
        matches!(err.problem, Problem::TooLarge { limit: 60 }),
        "{err}"
    );
    let small = Format {
        max_record: 4,
        ..PART
    };
    let mut w = Writer::stream(Vec::new(), Path::new("p"), small, b"id").unwrap();
    assert!(w.record("data", b"12345").is_err());
    let mut r = Reader::new(&good[..], Path::new("p"), small, 1 << 20);
    let err = r.header().err().unwrap();
    assert!(
        matches!(err.problem, Problem::RecordTooLarge { limit: 4 }),
        "{err}"
    );
}

#[test]
fn a_failed_write_stops_the_writer() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    assert!(Writer::stream(Full, Path::new("out"), PART, b"id").is_err());
    let mut w = Writer::stream(Vec::new(), Path::new("p"), PART, b"id").unwrap();
    assert!(w.record("Bad", b"").is_err() && w.record("end", b"").is_err());
    if let Ok(f) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let err = Writer::stream(f, Path::new("/dev/full"), PART, b"id")
            .err()
            .unwrap();
        assert!(err.to_string().contains("/dev/full"), "{err}");
    }
}

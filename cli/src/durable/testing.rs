//! Frame-level surgery on durable files, for the tests of every format: where each frame
//! lies, and the files with one record deleted, repeated or moved. Reads the layout only
//! (checking the crcs is the reader's job), so the results are what damage would leave.
use std::ops::Range;

/// The byte ranges of the frames of `bytes` after its magic line (the header's first, a
/// trailer's last), for tests that cut, delete or move records. Reads the layout only.
pub(crate) fn frame_ranges(bytes: &[u8]) -> Vec<Range<usize>> {
    let newline = |from: usize| from + bytes[from..].iter().position(|&b| b == b'\n').unwrap();
    let mut at = newline(0) + 1;
    let mut out = Vec::new();
    while at < bytes.len() {
        let line_end = newline(at);
        let line = std::str::from_utf8(&bytes[at..line_end]).unwrap();
        let len: usize = line.split(' ').nth(1).unwrap().parse().unwrap();
        out.push(at..line_end + 1 + len);
        at = line_end + 1 + len;
    }
    out
}

/// One edit of a file's frames.
pub(crate) struct Edit {
    /// What was done, for a failure message (`record 3 deleted`).
    pub what: String,
    /// The edited file.
    pub bytes: Vec<u8>,
    /// A frame was deleted (not repeated or moved).
    pub deleted: bool,
    /// The edit only drops the last frame: a cut between records, which resumes.
    pub cut_at_end: bool,
}

/// `bytes` with each frame (header first) deleted, repeated after itself, and swapped
/// with the next one.
pub(crate) fn record_edits(bytes: &[u8]) -> Vec<Edit> {
    let frames = frame_ranges(bytes);
    let last = frames.len() - 1;
    let mut edits = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        edits.push(Edit {
            what: format!("record {i} deleted"),
            bytes: [&bytes[..frame.start], &bytes[frame.end..]].concat(),
            deleted: true,
            cut_at_end: i == last,
        });
        edits.push(Edit {
            what: format!("record {i} twice"),
            bytes: [
                &bytes[..frame.end],
                &bytes[frame.clone()],
                &bytes[frame.end..],
            ]
            .concat(),
            deleted: false,
            cut_at_end: false,
        });
        if let Some(next) = frames.get(i + 1) {
            let swapped = [
                &bytes[..frame.start],
                &bytes[next.clone()],
                &bytes[frame.clone()],
                &bytes[next.end..],
            ];
            edits.push(Edit {
                what: format!("records {i} and {} swapped", i + 1),
                bytes: swapped.concat(),
                deleted: false,
                cut_at_end: false,
            });
        }
    }
    edits
}

//! Reading the frames of a durable record file (a gridcheck journal or part) in tests:
//! where each frame starts and ends, its tag and its payload. Checks the layout only (the
//! crcs are the program's to check), so that tests can cut, delete or alter records.
#![allow(dead_code)] // each test file uses a different subset

/// One frame of a file.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Byte offset of its frame line.
    pub start: usize,
    /// Byte offset just after its payload.
    pub end: usize,
    pub tag: String,
    pub payload: Vec<u8>,
}

impl Frame {
    /// The payload as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.payload).into_owned()
    }
}

/// The magic line (without its newline) and every whole frame of `bytes`.
pub fn frames(bytes: &[u8]) -> (String, Vec<Frame>) {
    let magic_end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("a magic line");
    let magic = String::from_utf8(bytes[..magic_end].to_vec()).unwrap();
    let mut at = magic_end + 1;
    let mut frames = Vec::new();
    while at < bytes.len() {
        let Some(line_len) = bytes[at..].iter().position(|&b| b == b'\n') else {
            break;
        };
        let line = std::str::from_utf8(&bytes[at..at + line_len]).expect("a frame line");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 4, "frame line `{line}`");
        let len: usize = words[1].parse().expect("a length");
        let payload_start = at + line_len + 1;
        if payload_start + len > bytes.len() {
            break;
        }
        frames.push(Frame {
            start: at,
            end: payload_start + len,
            tag: words[0].to_owned(),
            payload: bytes[payload_start..payload_start + len].to_vec(),
        });
        at = payload_start + len;
    }
    (magic, frames)
}

/// A file with the magic line `magic` and the frames `(tag, payload)` (header first), the
/// crc chain computed as the durable layer does, and a trailer when `closed`: for forging
/// files that are well framed but mean something wrong.
pub fn forge(magic: &str, frames: &[(&str, Vec<u8>)], closed: bool) -> Vec<u8> {
    const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    let mut out = format!("{magic}\n").into_bytes();
    let mut chain = CRC.checksum(&out);
    let count = format!("{}\n", frames.len().saturating_sub(1)).into_bytes();
    let trailer = closed.then_some(("end", count));
    for (tag, payload) in frames.iter().map(|(t, p)| (*t, p.clone())).chain(trailer) {
        let mut digest = CRC.digest();
        digest.update(&chain.to_le_bytes());
        digest.update(format!("{tag} {}\n", payload.len()).as_bytes());
        digest.update(&payload);
        chain = digest.finalize();
        let line = format!("{tag} {} {chain:08x}", payload.len());
        let lcrc = CRC.checksum(line.as_bytes());
        out.extend_from_slice(format!("{line} {lcrc:08x}\n").as_bytes());
        out.extend_from_slice(&payload);
    }
    out
}

//! One frame: its line `<tag> <len> <crc> <lcrc>` and the chained CRC-32C.
//!
//! `crc` is CRC-32C over the previous frame's crc (4 bytes, little-endian), the tag, a
//! space, the length in decimal, a newline and the payload; `lcrc` is CRC-32C over the
//! line's text before it (`<tag> <len> <crc>`). Both are 8 lowercase hex digits, and the
//! length is canonical decimal, so a frame line has exactly one spelling.

/// CRC-32C (Castagnoli, the iSCSI polynomial) of `bytes`: the `crc32c` crate's, with the
/// processor's CRC32 instruction (SSE4.2, ARMv8) when it has one, found at run time, and
/// a table-driven fallback; the same function everywhere (the tests check it against the
/// `crc` crate's and RFC 3720's check value), so every file reads on every machine.
pub(crate) fn crc32c(bytes: &[u8]) -> u32 {
    crc32c::crc32c(bytes)
}

/// [`crc32c`] of the bytes whose CRC-32C is `crc` followed by `more`.
fn crc32c_append(crc: u32, more: &[u8]) -> u32 {
    crc32c::crc32c_append(crc, more)
}

/// The longest tag.
pub(super) const MAX_TAG: usize = 16;

/// The header frame's tag.
pub(super) const HEAD: &str = "head";
/// The trailer frame's tag.
pub(super) const END: &str = "end";

/// The magic line of a format: `<magic> <version>\n`.
pub(super) fn magic_line(magic: &str, version: u32) -> Vec<u8> {
    format!("{magic} {version}\n").into_bytes()
}

/// The chain's seed: the crc of the magic line.
pub(super) fn seed(magic_line: &[u8]) -> u32 {
    crc32c(magic_line)
}

/// Whether `tag` is a tag a frame may carry: 1 to 16 of `a-z`, `0-9`, `-`.
pub(super) fn valid_tag(tag: &str) -> bool {
    !tag.is_empty()
        && tag.len() <= MAX_TAG
        && tag
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The chained crc of a frame after the frame whose crc is `prev`.
pub(super) fn body_crc(prev: u32, tag: &str, payload: &[u8]) -> u32 {
    // The length's digits on the stack: a frame costs a few calls of the CRC, no string.
    let mut digits = [0u8; 20];
    let len = decimal_into(payload.len() as u64, &mut digits);
    let mut crc = crc32c(&prev.to_le_bytes());
    for piece in [tag.as_bytes(), b" ", &digits[..len], b"\n", payload] {
        crc = crc32c_append(crc, piece);
    }
    crc
}

/// Writes `n` in decimal at the start of `out` (20 bytes hold any u64); returns its length.
fn decimal_into(mut n: u64, out: &mut [u8]) -> usize {
    let mut digits = [0u8; 20];
    let mut len = 0;
    loop {
        digits[19 - len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out[..len].copy_from_slice(&digits[20 - len..]);
    len
}

/// A frame's bytes (line and payload) after the frame whose crc is `prev`, and its crc.
pub(super) fn encode(prev: u32, tag: &str, payload: &[u8]) -> (Vec<u8>, u32) {
    let crc = body_crc(prev, tag, payload);
    let text = format!("{tag} {} {crc:08x}", payload.len());
    let lcrc = crc32c(text.as_bytes());
    let mut frame = Vec::with_capacity(text.len() + 10 + payload.len());
    frame.extend_from_slice(text.as_bytes());
    frame.extend_from_slice(format!(" {lcrc:08x}\n").as_bytes());
    frame.extend_from_slice(payload);
    (frame, crc)
}

/// A frame line, checked by its own crc.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct FrameLine {
    pub tag: String,
    pub len: u64,
    pub crc: u32,
}

/// Parses a whole frame line (without its newline); `None` when it is not one, in its one
/// spelling, with a matching `lcrc`.
pub(super) fn parse_line(line: &[u8]) -> Option<FrameLine> {
    let text = std::str::from_utf8(line).ok()?;
    let mut words = text.split(' ');
    let (tag, len, crc, lcrc) = (words.next()?, words.next()?, words.next()?, words.next()?);
    if words.next().is_some() || !valid_tag(tag) {
        return None;
    }
    let covered = tag.len() + 1 + len.len() + 1 + crc.len();
    if crc32c(&line[..covered]) != hex8(lcrc)? {
        return None;
    }
    Some(FrameLine {
        tag: tag.to_owned(),
        len: decimal(len)?,
        crc: hex8(crc)?,
    })
}

/// Whether `bytes` (the end of a file, cut inside a frame line) can be the start of one.
pub(super) fn plausible_prefix(bytes: &[u8]) -> bool {
    bytes.len() < super::format::MAX_FRAME_LINE
        && bytes
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b' ')
}

/// 8 lowercase hex digits.
fn hex8(word: &str) -> Option<u32> {
    let ok = word.len() == 8
        && word
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    ok.then(|| u32::from_str_radix(word, 16).ok()).flatten()
}

/// Canonical decimal: digits, no leading zero but in `0`.
pub(super) fn decimal(word: &str) -> Option<u64> {
    let ok = !word.is_empty()
        && word.bytes().all(|b| b.is_ascii_digit())
        && (word == "0" || !word.starts_with('0'));
    ok.then(|| word.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_is_the_published_function() {
        // The check value of CRC-32C (RFC 3720 B.4): "123456789" -> e3069283.
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
    }

    #[test]
    fn crc32c_is_the_crc_crates_at_every_length_and_alignment() {
        // The files written before the hardware CRC (with the `crc` crate's table) read
        // the same: the two agree on every length around the vector widths, at every
        // start, and chained.
        const TABLE: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
        let bytes: Vec<u8> = (0u32..4099)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        for start in 0..9 {
            for len in (0..300).chain([1023, 1024, 1025, 4090]) {
                let piece = &bytes[start..start + len];
                assert_eq!(crc32c(piece), TABLE.checksum(piece), "{start} {len}");
            }
        }
        let (a, b) = bytes.split_at(1500);
        assert_eq!(crc32c_append(crc32c(a), b), TABLE.checksum(&bytes));
        let mut digest = TABLE.digest();
        for piece in [&7u32.to_le_bytes()[..], b"puzzle 5\n", b"0 12\n"] {
            digest.update(piece);
        }
        assert_eq!(body_crc(7, "puzzle", b"0 12\n"), digest.finalize());
    }

    #[test]
    fn a_frame_line_has_one_spelling() {
        let (frame, crc) = encode(7, "puzzle", b"0 12\n");
        let nl = frame.iter().position(|&b| b == b'\n').unwrap();
        let line = parse_line(&frame[..nl]).unwrap();
        assert_eq!((line.tag.as_str(), line.len, line.crc), ("puzzle", 5, crc));
        assert_eq!(&frame[nl + 1..], b"0 12\n");
        // Another previous crc, another crc: the chain.
        assert_ne!(encode(8, "puzzle", b"0 12\n").1, crc);
        let text = std::str::from_utf8(&frame[..nl]).unwrap();
        for other in [
            text.replacen(" 5 ", " 05 ", 1),
            text.to_uppercase(),
            text.replacen(' ', "  ", 1),
            format!("{text} "),
            text.replacen("puzzle", "puzzlf", 1),
        ] {
            assert_eq!(parse_line(other.as_bytes()), None, "{other}");
        }
        assert!(valid_tag("a-9") && !valid_tag("") && !valid_tag("A") && !valid_tag("a b"));
        assert!(!valid_tag(&"a".repeat(17)));
        assert_eq!(
            (decimal("0"), decimal("10"), decimal("01")),
            (Some(0), Some(10), None)
        );
    }
}

//! What an input asks of the caller before it is read: its lines as Knuth's `fgets` cuts
//! them ([`FgetsLines`]) and the storage it can need ([`measure`], [`Capacity`]), so that
//! storage sized from the text behaves exactly like Knuth's full-size arrays.
use super::settings::{is_space, BUFSIZE, MAX_COLS, MAX_NODES};

/// Splits input bytes exactly like repeated C `fgets(buf, 90003, stdin)`: each chunk ends
/// after a newline or after 90002 bytes; the last chunk may lack a newline.
///
/// ```
/// use xcover_core::dlx3::FgetsLines;
///
/// let lines: Vec<&[u8]> = FgetsLines::new(b"A B\nA\nB").collect();
/// assert_eq!(lines, [&b"A B\n"[..], b"A\n", b"B"]);
/// ```
#[derive(Clone, Debug)]
pub struct FgetsLines<'b> {
    rest: &'b [u8],
}

impl<'b> FgetsLines<'b> {
    /// Chunks of `input`.
    pub fn new(input: &'b [u8]) -> Self {
        FgetsLines { rest: input }
    }
}

impl<'b> Iterator for FgetsLines<'b> {
    type Item = &'b [u8];
    fn next(&mut self) -> Option<&'b [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let limit = self.rest.len().min(BUFSIZE - 1);
        let end = match self.rest[..limit].iter().position(|&c| c == b'\n') {
            Some(i) => i + 1,
            None => limit,
        };
        let (chunk, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(chunk)
    }
}

/// Storage an input can need, clamped to Knuth's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Item slots (items + 2), at most `MAX_COLS + 2`.
    pub item_slots: usize,
    /// Node slots, at most `MAX_NODES`.
    pub node_slots: usize,
}

impl Capacity {
    /// Knuth's compiled-in limits: 10000 items (10002 item slots), 100000000 nodes.
    pub const KNUTH: Capacity = Capacity {
        item_slots: MAX_COLS + 2,
        node_slots: MAX_NODES,
    };
}

/// A cheap upper bound of the storage `input` can need, clamped to Knuth's limits
/// ([`Capacity::KNUTH`]). With storage of this size the engine behaves exactly as with
/// Knuth's full-size arrays: an input that would overflow them gets the bound clamped to
/// the limit and hence the same error at the same place.
///
/// ```
/// use xcover_core::dlx3::{measure, Dlx3, Settings, WorkspaceView, MAX_LEVEL};
/// use xcover_core::dlx3::image::{Item, Level, Node};
/// use xcover_core::sink::Discard;
///
/// let text = b"A B C\nA B\nC\n";
/// let cap = measure(text);
/// let mut items = vec![Item::ZERO; cap.item_slots];
/// let mut names = vec![[0u8; 8]; cap.item_slots];
/// let mut nodes = vec![Node::ZERO; cap.node_slots];
/// let mut levels = vec![Level::ZERO; MAX_LEVEL];
/// let view = WorkspaceView::new(&mut items, &mut names, &mut nodes, &mut levels);
/// let mut engine = Dlx3::new(view, Settings::DEFAULT)?;
/// engine.read_input(text, &mut Discard)?; // always fits
/// assert_eq!(engine.item_count(), 3);
/// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
/// ```
pub fn measure(input: &[u8]) -> Capacity {
    measure_within(input, Capacity::KNUTH)
}

/// Like [`measure`], clamped to `limits` instead of Knuth's (a caller whose own limits
/// are smaller gets "Too many items"/"Too many nodes" exactly at those limits).
pub fn measure_within(input: &[u8], limits: Capacity) -> Capacity {
    // Every item and every option node comes from a token; every spacer from a line.
    let mut tokens: usize = 0;
    let mut lines: usize = 1;
    let mut in_token = false;
    for &c in input {
        if c == b'\n' {
            lines += 1;
        }
        let space = is_space(c) || c == 0;
        if !space && !in_token {
            tokens += 1;
        }
        in_token = !space;
    }
    Capacity {
        item_slots: tokens.saturating_add(2).min(limits.item_slots),
        node_slots: tokens
            .saturating_add(lines)
            .saturating_add(3)
            .min(limits.node_slots),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fgets_chunks() {
        let v: [u8; 5] = *b"a\nbc\n";
        let c: [&[u8]; 2] = [b"a\n", b"bc\n"];
        assert!(FgetsLines::new(&v).eq(c.iter().copied()));
        let c2: [&[u8]; 2] = [b"a\n", b"b"];
        assert!(FgetsLines::new(b"a\nb").eq(c2.iter().copied()));
        let long = [b'x'; BUFSIZE + 5];
        let lens: [usize; 2] = [BUFSIZE - 1, 6];
        assert!(FgetsLines::new(&long)
            .map(|c| c.len())
            .eq(lens.iter().copied()));
    }

    #[test]
    fn measure_bounds() {
        let c = measure(b"A B | C\nA C\nB\n");
        assert_eq!(c.item_slots, 7 + 2); // seven tokens (the bar counts) plus root and spare
        assert!(c.node_slots >= 1 + 4 + 3 + 2);
    }
}

//! Reading the matrix from text, line by line, exactly like Knuth's input routine: the
//! same layout, the same errors at the same scan positions, the same input mems.
use super::capacity::FgetsLines;
use super::engine::Dlx3;
use super::error::{Dlx3Error, InputError};
use super::phase::Phase;
use super::settings::{is_space, MAX_COLS, SHOW_BASICS, SHOW_TOTS, SHOW_WARNINGS};
use super::storage::{Item, Node};
use crate::sink::{ByteSink, Fmt};
use core::fmt::Write;

/// Whether a `|` met when the next item would be number `last_itm` really starts the
/// secondary items. Knuth marks "no separator yet" with `second == max_cols` (10000), so a
/// separator after exactly 9999 items is forgotten and the items after it become primary.
/// That quirk is reproduced at Knuth's value (whatever the storage size), and only there.
pub(super) fn separator_counts(last_itm: u32) -> bool {
    last_itm as usize != MAX_COLS
}

/// The byte at `i` of a C string (0 past its end).
#[inline]
fn at(line: &[u8], i: usize) -> u8 {
    line.get(i).copied().unwrap_or(0)
}

fn input_err(kind: InputError, pos: usize) -> Dlx3Error {
    Dlx3Error::Input {
        kind,
        pos: pos as i32,
    }
}

/// The decimal value of a bound prefix `line[p..p+j]`.
fn bound_prefix(line: &[u8], p: usize, j: usize) -> Result<i32, Dlx3Error> {
    let mut q: i32 = 0;
    for &c in &line[p..p + j] {
        if !c.is_ascii_digit() {
            return Err(input_err(InputError::IllegalDigit, p));
        }
        q = q.wrapping_mul(10).wrapping_add(i32::from(c - b'0'));
    }
    Ok(q)
}

impl Dlx3<'_> {
    /// Feeds one line of input, as returned by C `fgets` with Knuth's 90003-byte buffer
    /// (use [`FgetsLines`]). Warnings about ignored options go to `err`.
    pub fn read_line(&mut self, chunk: &[u8], err: &mut dyn ByteSink) -> Result<(), Dlx3Error> {
        let item_line = match self.phase {
            Phase::ItemLine => true,
            Phase::Options => false,
            Phase::Failed(e) => return Err(e),
            _ => return Err(Dlx3Error::OutOfOrder),
        };
        if item_line && self.layout.last_itm != 0 {
            return Err(Dlx3Error::OutOfOrder); // items were added with `add_item`
        }
        // An error leaves the engine as it was before the line (only the line kept for
        // error reports, `line_head`, is the bad line's): an item line writes nothing the
        // engine shows until its end, and an option line is checked whole
        // (`check_option_line`) before any of its nodes is linked in.
        let before = (
            self.phase,
            self.layout,
            self.separator_seen,
            self.stats,
            self.last_pos,
        );
        let r = self.read_line_inner(chunk, item_line, err);
        if r.is_err() {
            (
                self.phase,
                self.layout,
                self.separator_seen,
                self.stats,
                self.last_pos,
            ) = before;
        }
        r
    }

    fn read_line_inner(
        &mut self,
        chunk: &[u8],
        item_line: bool,
        err: &mut dyn ByteSink,
    ) -> Result<(), Dlx3Error> {
        // C string semantics: a NUL byte ends the line.
        let line = match chunk.iter().position(|&c| c == 0) {
            Some(n) => &chunk[..n],
            None => chunk,
        };
        let head = line.len().min(self.line_head.bytes.len());
        self.line_head.bytes[..head].copy_from_slice(&line[..head]);
        self.line_head.len = head as u8;
        self.stats.mems += 1;
        if line.last() != Some(&b'\n') {
            let kind = if item_line {
                InputError::InputLineTooLong
            } else {
                InputError::OptionLineTooLong
            };
            return Err(Dlx3Error::Input {
                kind,
                pos: (line.len() as i32).wrapping_sub(1),
            });
        }
        let mut p = 0;
        loop {
            self.stats.mems += 1;
            if is_space(at(line, p)) {
                p += 1;
            } else {
                break;
            }
        }
        self.last_pos = p as i32;
        let c = at(line, p);
        if c == b'|' || c == 0 {
            return Ok(()); // comment or blank line
        }
        if item_line {
            self.read_item_line(line, p)
        } else {
            self.check_option_line(line, p)?;
            self.read_option_line(line, p, err)
        }
    }

    /// Finds the first error Knuth's "Input the options" would meet on this line (the same
    /// error at the same position) without linking any node in, so that an option line
    /// either goes in whole or changes nothing. Duplicates are found as Knuth finds them,
    /// with the item's `aux` (its header's `color`) marking its node in this option; the
    /// old `aux` is kept meanwhile in the free node slot past `last_node` that the node
    /// will take, and put back before returning. Each such slot keeps the item's number
    /// (its `itm`), which `read_option_line` then uses instead of searching again.
    fn check_option_line(&mut self, line: &[u8], mut p: usize) -> Result<(), Dlx3Error> {
        let i = self.layout.last_node as usize;
        let (last, second) = (self.layout.last_itm, self.layout.second);
        let mut ln = i;
        let mut has_primary = false;
        let result = loop {
            if at(line, p) == 0 {
                // The spacer that closes a kept option.
                if has_primary && ln + 1 >= self.nodes.len() {
                    break Err(input_err(InputError::TooManyNodes, p));
                }
                break Ok(());
            }
            let mut name = [0u8; 8];
            let mut j = 0;
            while j < 8 {
                let c = at(line, p + j);
                if is_space(c) || c == b':' {
                    break;
                }
                name[j] = c;
                j += 1;
            }
            if j == 0 {
                break Err(input_err(InputError::EmptyItemName, p));
            }
            let after = at(line, p + j);
            if j == 8 && !is_space(after) && after != b':' {
                break Err(input_err(InputError::ItemNameTooLong, p));
            }
            let k = self.find_item(&name);
            if k == last {
                break Err(input_err(InputError::UnknownItemName, p));
            }
            let ku = k as usize;
            if self.nodes[ku].color >= i as i32 {
                break Err(input_err(InputError::DuplicateItemInOption, p));
            }
            if ln + 1 >= self.nodes.len() {
                break Err(input_err(InputError::TooManyNodes, p));
            }
            ln += 1;
            self.nodes[ln].itm = k as i32;
            self.nodes[ln].color = self.nodes[ku].color;
            self.nodes[ku].color = ln as i32;
            has_primary |= k < second;
            if after == b':' {
                if k < second {
                    break Err(input_err(InputError::PrimaryColored, p));
                }
                if is_space(at(line, p + j + 1)) || !is_space(at(line, p + j + 2)) {
                    break Err(input_err(InputError::ColorNotSingle, p));
                }
                p += 2;
            }
            p += j + 1;
            while is_space(at(line, p)) {
                p += 1;
            }
        };
        // Put every `aux` back, last node first.
        while ln > i {
            let k = self.nodes[ln].itm as usize;
            self.nodes[k].color = self.nodes[ln].color;
            ln -= 1;
        }
        result
    }

    /// Knuth's "Input the item names".
    fn read_item_line(&mut self, line: &[u8], mut p: usize) -> Result<(), Dlx3Error> {
        let max_cols = self.max_cols;
        self.layout.last_itm = 1;
        self.separator_seen = false;
        let (mut q, mut r) = (0i32, 0i32);
        loop {
            self.stats.mems += 1;
            if at(line, p) == 0 {
                break;
            }
            // Scan an item name, possibly prefixed by bounds.
            let mut stage = if self.separator_seen { 2 } else { 0 };
            let mut name = [0u8; 8];
            let mut j;
            'segment: loop {
                j = 0;
                while j < 8 {
                    self.stats.mems += 1;
                    let c = at(line, p + j);
                    if is_space(c) {
                        break;
                    }
                    if c == b':' {
                        if stage != 0 {
                            return Err(input_err(InputError::IllegalColon, p));
                        }
                        q = bound_prefix(line, p, j)?;
                        p += j + 1;
                        name = [0; 8];
                        r = q;
                        stage = 1;
                        continue 'segment;
                    } else if c == b'|' {
                        if stage > 1 {
                            return Err(input_err(InputError::IllegalBar, p));
                        }
                        q = bound_prefix(line, p, j)?;
                        p += j + 1;
                        name = [0; 8];
                        if q == 0 {
                            return Err(input_err(InputError::UpperBoundZero, p));
                        }
                        if stage == 0 {
                            r = q;
                        } else if r > q {
                            return Err(input_err(InputError::LowerExceedsUpper, p));
                        }
                        stage = 2;
                        continue 'segment;
                    }
                    self.stats.mems += 1;
                    name[j] = c;
                    j += 1;
                }
                break;
            }
            match stage {
                1 => return Err(input_err(InputError::LowerWithoutUpper, p)),
                0 => {
                    q = 1;
                    r = 1;
                }
                _ => {}
            }
            if j == 0 {
                return Err(input_err(InputError::ItemNameEmpty, p));
            }
            if j == 8 && !is_space(at(line, p + 8)) {
                return Err(input_err(InputError::ItemNameTooLong, p));
            }
            // Check for a duplicate: Knuth compares items 1, 2, ... up to the new slot.
            let last = self.layout.last_itm;
            let mut k = 1;
            while k < last && self.names.get(k as usize) != name {
                k += 1;
            }
            self.stats.mems += u64::from(k);
            if k < last {
                return Err(input_err(InputError::DuplicateItemName, p));
            }
            if last > max_cols {
                return Err(input_err(InputError::TooManyItems, p));
            }
            if last as usize >= self.nodes.len() {
                // Not in Knuth's program (his node array is always big enough for headers).
                return Err(input_err(InputError::TooManyNodes, p));
            }
            let Some(names) = self.names.as_mut() else {
                return Err(Dlx3Error::OutOfOrder);
            };
            let li = last as usize;
            names[li] = name;
            if !self.separator_seen {
                self.stats.mems += 3;
                self.items[li - 1].next = last;
                self.items[li] = Item {
                    prev: last - 1,
                    next: 0,
                    bound: q,
                    slack: q.wrapping_sub(r),
                };
            } else {
                self.stats.mems += 1;
                self.items[li] = Item {
                    prev: last,
                    next: last,
                    bound: 0,
                    slack: 0,
                };
            }
            self.stats.mems += 1;
            self.nodes[li] = Node {
                up: last,
                down: last,
                itm: 0,
                color: 0,
            };
            self.layout.last_itm = last + 1;
            p += j + 1;
            loop {
                self.stats.mems += 1;
                if is_space(at(line, p)) {
                    p += 1;
                } else {
                    break;
                }
            }
            if at(line, p) == b'|' {
                if self.separator_seen {
                    return Err(input_err(InputError::BarTwice, p));
                }
                self.layout.second = self.layout.last_itm;
                self.separator_seen = separator_counts(self.layout.last_itm);
                p += 1;
                loop {
                    self.stats.mems += 1;
                    if is_space(at(line, p)) {
                        p += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        self.close_item_list(p)
    }

    /// The end of Knuth's item-line code: fixes `second`, closes the active list and puts
    /// the first spacer after the headers. `p` is the position for a "Too many nodes".
    pub(super) fn close_item_list(&mut self, p: usize) -> Result<(), Dlx3Error> {
        // Checked before any change: an error leaves the engine as it was.
        let ln = self.layout.last_itm;
        if ln as usize >= self.nodes.len() {
            return Err(input_err(InputError::TooManyNodes, p));
        }
        if !self.separator_seen {
            self.layout.second = self.layout.last_itm;
        }
        let second = self.layout.second;
        self.stats.mems += 1;
        self.items[0].prev = second - 1;
        self.items[(second - 1) as usize].next = 0;
        self.layout.last_node = ln;
        self.stats.mems += 1;
        self.nodes[ln as usize] = Node::ZERO;
        self.phase = Phase::Options;
        Ok(())
    }

    /// Knuth's "Input the options" for one line, once `check_option_line` has passed it
    /// (and left each token's item number in the node the token takes).
    fn read_option_line(
        &mut self,
        line: &[u8],
        mut p: usize,
        err: &mut dyn ByteSink,
    ) -> Result<(), Dlx3Error> {
        let i = self.layout.last_node;
        let max_nodes = self.nodes.len();
        let mut has_primary = false;
        while at(line, p) != 0 {
            let mut name = [0u8; 8];
            let mut j = 0;
            while j < 8 {
                self.stats.mems += 1;
                let c = at(line, p + j);
                if is_space(c) || c == b':' {
                    break;
                }
                self.stats.mems += 1;
                name[j] = c;
                j += 1;
            }
            if j == 0 {
                return Err(input_err(InputError::EmptyItemName, p));
            }
            let after = at(line, p + j);
            if j == 8 && !is_space(after) && after != b':' {
                return Err(input_err(InputError::ItemNameTooLong, p));
            }
            if j < 8 {
                self.stats.mems += 1;
            }
            // `check_option_line` found the item (Knuth's search, whose mems are counted
            // here) and left its number in the node this token takes.
            let k = self.nodes[self.layout.last_node as usize + 1].itm as u32;
            self.stats.mems += u64::from(k) + 1;
            let ku = k as usize;
            self.stats.mems += 1;
            if self.nodes[ku].color >= i as i32 {
                return Err(input_err(InputError::DuplicateItemInOption, p));
            }
            let ln = self.layout.last_node + 1;
            self.layout.last_node = ln;
            if ln as usize >= max_nodes {
                return Err(input_err(InputError::TooManyNodes, p));
            }
            let lnu = ln as usize;
            self.stats.mems += 1;
            self.nodes[lnu].itm = k as i32;
            if k < self.layout.second {
                has_primary = true;
            }
            self.stats.mems += 1;
            let t = self.nodes[ku].itm.wrapping_add(1);
            self.insert_node(ku, lnu, t);
            if after != b':' {
                self.stats.mems += 1;
                self.nodes[lnu].color = 0;
            } else if k >= self.layout.second {
                self.stats.mems += 1;
                let color = at(line, p + j + 1);
                if is_space(color) {
                    return Err(input_err(InputError::ColorNotSingle, p));
                }
                self.stats.mems += 1;
                if !is_space(at(line, p + j + 2)) {
                    return Err(input_err(InputError::ColorNotSingle, p));
                }
                self.stats.mems += 1;
                self.nodes[lnu].color = i32::from(color);
                p += 2;
            } else {
                return Err(input_err(InputError::PrimaryColored, p));
            }
            p += j + 1;
            loop {
                self.stats.mems += 1;
                if is_space(at(line, p)) {
                    p += 1;
                } else {
                    break;
                }
            }
        }
        if !has_primary {
            if self.settings.vbose & SHOW_WARNINGS != 0 {
                err.write_bytes(b"Option ignored (no primary items): ");
                err.write_bytes(line);
            }
            self.stats.mems += 6 * self.discard_option(i);
        } else {
            self.stats.mems += 1;
            if !self.close_option(i) {
                return Err(input_err(InputError::TooManyNodes, p));
            }
            self.stats.mems += 2;
        }
        Ok(())
    }

    /// Knuth's removal of an option without primary items: unlinks the nodes after spacer
    /// `i` from their item lists, last to first (the item's `aux` forgets them), and
    /// returns how many were removed. Shared by the parser and the builder.
    pub(super) fn discard_option(&mut self, i: u32) -> u64 {
        let mut removed = 0;
        while self.layout.last_node > i {
            let ln = self.layout.last_node as usize;
            let k = self.nodes[ln].itm as usize;
            self.nodes[k].itm -= 1;
            self.nodes[k].color = i as i32 - 1;
            let Node { up: q, down: r, .. } = self.nodes[ln];
            self.nodes[q as usize].down = r;
            self.nodes[r as usize].up = q;
            self.layout.last_node -= 1;
            removed += 1;
        }
        removed
    }

    /// Ends the option that follows spacer `i` with a new spacer (which links back to the
    /// option's first node) and counts it. False when the node array has no room for the
    /// spacer (Knuth's "Too many nodes"). Shared by the parser and the builder.
    pub(super) fn close_option(&mut self, i: u32) -> bool {
        let ln = self.layout.last_node;
        self.nodes[i as usize].down = ln;
        let ln = ln + 1;
        self.layout.last_node = ln;
        if ln as usize >= self.nodes.len() {
            return false;
        }
        self.layout.options += 1;
        // Option numbers fit: there are fewer options than nodes (< 2^31).
        self.nodes[ln as usize] = Node {
            up: i + 1,
            down: 0,
            itm: -(self.layout.options as i32),
            color: 0,
        };
        true
    }

    /// Index of the item called `name` (the root never matches), or `last_itm`.
    fn find_item(&self, name: &[u8; 8]) -> u32 {
        let last = self.layout.last_itm;
        let want = u64::from_ne_bytes(*name);
        let mut k = 1;
        while k < last && u64::from_ne_bytes(self.names.get(k as usize)) != want {
            k += 1;
        }
        k
    }

    /// Links new node `ln` into item `k`'s list, whose new length is `t`.
    pub(super) fn insert_node(&mut self, k: usize, ln: usize, t: i32) {
        let nd = &mut *self.nodes;
        self.stats.mems += 1;
        nd[k].itm = t;
        nd[k].color = ln as i32;
        if !self.settings.randomizing {
            self.stats.mems += 4;
            let r = nd[k].up;
            nd[r as usize].down = ln as u32;
            nd[k].up = ln as u32;
            nd[ln].up = r;
            nd[ln].down = k as u32;
        } else {
            self.stats.mems += 4;
            let mut steps = self.rng.unif(t.max(1) as u32);
            self.stats.mems += 1;
            let mut r = k as u32;
            while steps > 0 {
                self.stats.mems += 1;
                r = nd[r as usize].down;
                steps -= 1;
            }
            self.stats.mems += 4;
            let q = nd[r as usize].up;
            nd[q as usize].down = ln as u32;
            nd[r as usize].up = ln as u32;
            nd[ln].up = q;
            nd[ln].down = r;
        }
    }

    /// Reads a whole input held in memory: every line as C `fgets` would split it
    /// ([`FgetsLines`]), then [`end_input`](Dlx3::end_input). Warnings and the input
    /// reports go to `err`; the first error stops the reading.
    pub fn read_input(&mut self, input: &[u8], err: &mut dyn ByteSink) -> Result<(), Dlx3Error> {
        for chunk in FgetsLines::new(input) {
            self.read_line(chunk, err)?;
        }
        self.end_input(err)
    }

    /// Ends the input: reports "No items" if there was no item line, prints the input
    /// summary and item totals (as `vbose` asks), moves the mems to `imems`, and makes the
    /// engine ready to [`run`](Dlx3::run).
    pub fn end_input(&mut self, err: &mut dyn ByteSink) -> Result<(), Dlx3Error> {
        match self.phase {
            // Items added with the builder but no option yet.
            Phase::ItemLine if self.layout.last_itm >= 2 => self.close_item_list(0)?,
            Phase::ItemLine => {
                return Err(Dlx3Error::Input {
                    kind: InputError::NoItems,
                    pos: self.last_pos,
                });
            }
            Phase::Options => {}
            Phase::Failed(e) => return Err(e),
            _ => return Err(Dlx3Error::OutOfOrder),
        }
        if self.settings.vbose & SHOW_BASICS != 0 {
            let l = self.layout;
            let _ = writeln!(
                Fmt(err),
                "({} options, {}+{} items, {} entries successfully read)",
                l.options as i64,
                l.second as i32 - 1,
                l.last_itm as i32 - l.second as i32,
                l.last_node as i32 - l.last_itm as i32
            );
        }
        if self.settings.vbose & SHOW_TOTS != 0 {
            self.write_item_totals(err);
        }
        self.stats.imems = self.stats.mems;
        self.stats.mems = 0;
        self.prepare_search();
        Ok(())
    }
}

#[cfg(test)]
mod error_tests {
    use super::super::testutil::{parse, Buffers};
    use super::super::{Dlx3Error, InputError, Settings};
    use std::string::String;

    /// Parses `text` and returns the input error (kind, position).
    fn input_error(text: &[u8]) -> (InputError, i32) {
        let mut b = Buffers::for_text(text);
        let mut warn = String::new();
        match parse(&mut b, text, Settings::DEFAULT, &mut warn) {
            Err(Dlx3Error::Input { kind, pos }) => (kind, pos),
            Err(e) => panic!("unexpected error {e:?}"),
            Ok(_) => panic!("no error for {:?}", core::str::from_utf8(text)),
        }
    }

    #[test]
    fn item_line_errors_and_positions() {
        use InputError::*;
        let cases: &[(&[u8], InputError, i32)] = &[
            (b"A 0|B\n", UpperBoundZero, 4),
            (b"A x|B\n", IllegalDigit, 2),
            (b"3:2|A\n", LowerExceedsUpper, 4),
            (b"A | B | C\n", BarTwice, 6),
            (b"A | X:Y\n", IllegalColon, 4),
            (b"A | | B\n", IllegalBar, 4),
            (b"1:|y\n", UpperBoundZero, 3),
            (b"2:y\n", LowerWithoutUpper, 2),
            (b"A|B\n", IllegalDigit, 0),
            (b"123456789|A\n", ItemNameTooLong, 0),
            (b"2| A\n", ItemNameEmpty, 2),
            (b"A B A\n", DuplicateItemName, 4),
            (b"  A B", InputLineTooLong, 4),
            (b"| only a comment\n", NoItems, 0),
            (b"\n   \n", NoItems, 4),
        ];
        for &(text, kind, pos) in cases {
            assert_eq!(
                input_error(text),
                (kind, pos),
                "{:?}",
                core::str::from_utf8(text)
            );
        }
    }

    #[test]
    fn option_line_errors_and_positions() {
        use InputError::*;
        let cases: &[(&[u8], InputError, i32)] = &[
            (b"A | X\nA X: \n", ColorNotSingle, 2),
            (b"A | X\nA X:ab\n", ColorNotSingle, 2),
            (b"A | X\nA:1\n", PrimaryColored, 0),
            (b"A | X\n:A\n", EmptyItemName, 0),
            (b"A | X\nA Z\n", UnknownItemName, 2),
            (b"A | X\nA X A\n", DuplicateItemInOption, 4),
            (b"A | X\n ABCDEFGHI\n", ItemNameTooLong, 1),
            (b"A | X\nA X", OptionLineTooLong, 2),
        ];
        for &(text, kind, pos) in cases {
            assert_eq!(
                input_error(text),
                (kind, pos),
                "{:?}",
                core::str::from_utf8(text)
            );
        }
    }

    #[test]
    fn capacity_errors_match_knuth_limits() {
        // 2 item slots hold no item: the first one is "too many".
        let mut b = Buffers::new(2, 100, 10);
        let mut warn = String::new();
        let e = parse(&mut b, b"A B\nA\n", Settings::DEFAULT, &mut warn).err();
        assert_eq!(
            e,
            Some(Dlx3Error::Input {
                kind: InputError::TooManyItems,
                pos: 0
            })
        );
        // Items A, B: headers 0..=2, first spacer 3; option "A B" needs nodes 4, 5 and spacer 6.
        let mut b = Buffers::new(4, 6, 10);
        let e = parse(&mut b, b"A B\nA B\n", Settings::DEFAULT, &mut warn).err();
        assert_eq!(
            e,
            Some(Dlx3Error::Input {
                kind: InputError::TooManyNodes,
                pos: 4
            })
        );
        let mut b = Buffers::new(4, 7, 10);
        assert!(parse(&mut b, b"A B\nA B\n", Settings::DEFAULT, &mut warn).is_ok());
    }

    #[test]
    fn separator_at_full_capacity_is_kept() {
        // Exactly-sized storage (tokens + 2 item slots) must not move Knuth's sentinel.
        let mut b = Buffers::for_text(b"A |X\n");
        let mut warn = String::new();
        let e = parse(&mut b, b"A |X\n", Settings::DEFAULT, &mut warn).expect("parses");
        assert_eq!((e.layout().second, e.layout().last_itm), (2, 3));
        assert_eq!(input_error(b"A |0:1|B\n"), (InputError::IllegalColon, 3));
        let text = b"A B | X\nA X:1\nB X:2\nA\nB\n";
        let mut b = Buffers::new(5, 64, 10);
        let e = parse(&mut b, text, Settings::DEFAULT, &mut warn).expect("parses");
        assert_eq!(e.layout().second, 3);
    }

    #[test]
    fn garbage_never_panics() {
        let mut seed = 12345u32;
        for _ in 0..300 {
            let mut text = [0u8; 40];
            for c in text.iter_mut() {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                *c = b"AB :|1\n \x00\xff#"[(seed >> 16) as usize % 11];
            }
            let mut b = Buffers::for_text(&text);
            let mut warn = String::new();
            let _ = parse(&mut b, &text, Settings::DEFAULT, &mut warn);
        }
    }

    #[test]
    fn warning_for_option_without_primaries() {
        let mut b = Buffers::for_text(b"A | X\nX\nA\n");
        let mut warn = String::new();
        let e = parse(&mut b, b"A | X\nX\nA\n", Settings::DEFAULT, &mut warn).expect("parses");
        assert_eq!(e.option_count(), 1);
        assert_eq!(warn, "Option ignored (no primary items): X\n(1 options, 1+1 items, 2 entries successfully read)\n");
    }
}

//! Everything DLX3 prints, through `core::fmt::Write`.
//!
//! Knuth's program prints raw bytes; a `fmt::Write` sink only takes `str`. Bytes that are
//! not part of valid UTF-8 are therefore passed as the private-use character
//! `U+10FF00 + byte` ([`BYTE_ESCAPE_BASE`]); a sink that wants Knuth's exact bytes (the CLI
//! does) maps those characters back to single bytes. Valid UTF-8 passes through unchanged.
use super::error::Dlx3Error;
use super::settings::SHOW_BASICS;
use super::storage::{Level, Names, Node};
use super::{Dlx3, SHOW_PROFILE, SHOW_TOTS};
use core::fmt::Write;

/// Characters `BYTE_ESCAPE_BASE + b` (for `b` in 0x80..=0xff) stand for the raw byte `b`.
pub const BYTE_ESCAPE_BASE: u32 = 0x10_ff00;

/// Writes `bytes` to `w`, escaping bytes that are not valid UTF-8 (see the module docs).
pub fn write_bytes(w: &mut dyn Write, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        match core::str::from_utf8(bytes) {
            Ok(s) => {
                let _ = w.write_str(s);
                return;
            }
            Err(e) => {
                let good = e.valid_up_to();
                // The prefix is valid UTF-8 by construction.
                if let Ok(s) = core::str::from_utf8(&bytes[..good]) {
                    let _ = w.write_str(s);
                }
                let bad = e.error_len().unwrap_or(bytes.len() - good);
                for &b in &bytes[good..good + bad] {
                    let c = char::from_u32(BYTE_ESCAPE_BASE + u32::from(b)).unwrap_or('?');
                    let _ = w.write_char(c);
                }
                bytes = &bytes[good + bad..];
            }
        }
    }
}

/// Writes an item name as `%.8s`.
pub(super) fn write_name(w: &mut dyn Write, name: &[u8; 8]) {
    let n = name.iter().position(|&c| c == 0).unwrap_or(8);
    write_bytes(w, &name[..n]);
}

/// Knuth's error report: `MESSAGE!\n` and, for input errors, `POS: LINE\n` where LINE is
/// the first 99 bytes of the offending line.
pub(super) fn write_error_report(e: &Dlx3Error, line_head: &[u8], err: &mut dyn Write) {
    let _ = writeln!(err, "{e}");
    if let Dlx3Error::Input { pos, .. } = e {
        let _ = write!(err, "{pos}: ");
        write_bytes(err, line_head);
        let _ = err.write_str("\n");
    }
}

/// What printing needs to know about the matrix.
pub(super) struct View<'v> {
    pub nd: &'v [Node],
    pub names: &'v Names<'v>,
    pub levels: &'v [Level],
    pub last_itm: u32,
    pub last_node: u32,
}

impl View<'_> {
    fn name(&self, k: i32) -> [u8; 8] {
        self.names.get(k as usize)
    }

    fn node(&self, p: u32) -> Node {
        self.nd.get(p as usize).copied().unwrap_or(Node::ZERO)
    }

    /// Knuth's `print_option(p, stream, head, score)`.
    /// `err` is where "Illegal option" goes (`None`: to `w`, which is then stderr).
    pub fn print_option(
        &self,
        w: &mut dyn Write,
        err: Option<&mut dyn Write>,
        p: u32,
        head: u32,
        score: i32,
    ) {
        let last_itm = self.last_itm;
        if (p < last_itm && p == head) || (head >= last_itm && p as i32 == self.node(head).itm) {
            let _ = w.write_str(" null ");
            write_name(w, &self.name(p as i32));
        } else {
            if p < last_itm || p >= self.last_node || self.node(p).itm <= 0 {
                let _ = match err {
                    Some(e) => writeln!(e, "Illegal option {}!", p as i32),
                    None => writeln!(w, "Illegal option {}!", p as i32),
                };
                return;
            }
            let mut q = p;
            // Bounded walk: an option has fewer nodes than the node array.
            for _ in 0..self.nd.len() {
                let n = self.node(q);
                let _ = w.write_str(" ");
                write_name(w, &self.name(n.itm));
                if n.color != 0 {
                    let c = if n.color > 0 {
                        n.color
                    } else {
                        self.node(n.itm as u32).color
                    };
                    let _ = w.write_str(":");
                    write_bytes(w, &[c as u8]);
                }
                q += 1;
                if self.node(q).itm <= 0 {
                    q = self.node(q).up;
                }
                if q == p {
                    break;
                }
            }
        }
        let mut q = head;
        let mut k: i32 = 1;
        while q != p {
            if p >= last_itm && q as i32 == self.node(p).itm {
                let _ = w.write_str(" (?)\n");
                return;
            }
            q = self.node(q).down;
            k = k.wrapping_add(1);
        }
        let _ = writeln!(w, " ({k} of {score})");
    }

    /// The head node for printing the move on level `l` (as in Knuth's solution printer).
    pub fn level_head(&self, l: usize) -> (u32, u32, i32) {
        let lv = self.levels[l];
        let p = lv.choice;
        let c = if p < self.last_itm {
            p
        } else {
            self.node(p).itm as u32
        };
        let head = if lv.first_tweak == 0 {
            self.node(c).down
        } else {
            lv.first_tweak
        };
        (p, head, lv.score)
    }

    /// One line per level of the current partial solution (Knuth's solution printer body).
    pub fn print_solution(&self, w: &mut dyn Write, err: &mut dyn Write, count: u64, level: u32) {
        let _ = writeln!(w, "{}:", count as i64);
        for l in 0..level as usize {
            let (p, head, score) = self.level_head(l);
            self.print_option(w, Some(&mut *err), p, head, score);
        }
    }

    /// Knuth's `print_state`.
    pub fn print_state(
        &self,
        err: &mut dyn Write,
        level: u32,
        count: u64,
        mems: u64,
        maxl: u32,
        show_levels_max: i32,
    ) {
        let _ = writeln!(err, "Current state (level {level}):");
        for l in 0..level as usize {
            let (p, head, score) = self.level_head(l);
            self.print_option(err, None, p, head, score);
            if l as i64 >= i64::from(show_levels_max) {
                let _ = err.write_str(" ...\n");
                break;
            }
        }
        let _ = writeln!(
            err,
            " {} sols, {} mems, and max level {} so far.",
            count as i64, mems as i64, maxl
        );
    }

    /// Knuth's `print_progress`.
    pub fn print_progress(
        &self,
        err: &mut dyn Write,
        level: u32,
        count: u64,
        mems: u64,
        show_levels_max: i32,
    ) {
        let _ = write!(err, " after {} mems: {} sols,", mems as i64, count as i64);
        let mut f = 0.0f64;
        let mut fd = 1.0f64;
        for l in 0..level as usize {
            let (choice, head, d) = self.level_head(l);
            let mut p = head;
            let mut k: i32 = 1;
            // Bounded: the choice is reachable from the head in a valid state.
            for _ in 0..self.nd.len() {
                if p == choice {
                    break;
                }
                k = k.wrapping_add(1);
                p = self.node(p).down;
            }
            fd *= f64::from(d);
            f += f64::from(k - 1) / fd;
            let _ = write!(err, " {}{}", enc(k), enc(d));
            if l as i64 >= i64::from(show_levels_max) {
                let _ = err.write_str("...");
                break;
            }
        }
        let _ = writeln!(err, " {:.5}", f + 0.5 / fd);
    }
}

/// Knuth's one-character code for 0..61 (`0-9a-zA-Z`, `*` above).
fn enc(x: i32) -> char {
    let c = if x < 10 {
        (b'0' as i32).wrapping_add(x)
    } else if x < 36 {
        i32::from(b'a') + x - 10
    } else if x < 62 {
        i32::from(b'A') + x - 36
    } else {
        i32::from(b'*')
    };
    char::from(c as u8)
}

impl Dlx3<'_> {
    /// `Item totals: L1 L2 ... | Ls ...` (current list lengths).
    pub(super) fn write_item_totals(&self, err: &mut dyn Write) {
        let _ = err.write_str("Item totals:");
        for k in 1..self.layout.last_itm {
            if k == self.layout.second {
                let _ = err.write_str(" |");
            }
            let _ = write!(err, " {}", self.nodes[k as usize].itm);
        }
        let _ = err.write_str("\n");
    }

    /// The closing reports, in Knuth's order: item totals (`vbose&512`), profile
    /// (`vbose&128`), statistics (`vbose&1`).
    pub fn finish(&mut self, err: &mut dyn Write) {
        let vbose = self.settings.vbose;
        if vbose & SHOW_TOTS != 0 {
            self.write_item_totals(err);
        }
        if vbose & SHOW_PROFILE != 0 {
            let _ = err.write_str("Profile:\n");
            for l in 0..=self.stats.maxl as usize {
                let n = self.levels.get(l).map_or(0, |lv| lv.profile);
                let _ = writeln!(err, "{:3}: {}", l, n as i64);
            }
        }
        if vbose & SHOW_BASICS != 0 {
            let s = self.stats();
            let _ = write!(
                err,
                "Altogether {} solution{}, {}+{} mems,",
                s.count,
                if s.count == 1 { "" } else { "s" },
                s.imems,
                s.mems
            );
            let _ = write!(err, " {} updates, {} cleansings,", s.updates, s.cleansings);
            let _ = write!(err, " {} bytes, {} nodes,", s.bytes, s.nodes);
            let _ = writeln!(err, " ccost {}%.", s.ccost_percent());
        }
    }
}

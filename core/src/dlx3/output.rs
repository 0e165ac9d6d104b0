//! Everything DLX3 prints, as raw bytes into [`ByteSink`]s.
//!
//! Only the printing entry points ([`Dlx3::run`], [`Dlx3::finish`], the input reports)
//! reach this module; [`Dlx3::run_silent`] never does, so a program that only counts
//! solutions links none of it (no integer or float formatting).
use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::settings::{SHOW_BASICS, SHOW_PROFILE, SHOW_TOTS};
use super::storage::{Level, Names, Node, Width};
use crate::sink::{ByteSink, Fmt};
use core::fmt::Write;

/// Writes an item name as `%.8s`.
pub(super) fn write_name(w: &mut dyn ByteSink, name: &[u8; 8]) {
    let n = name.iter().position(|&c| c == 0).unwrap_or(8);
    w.write_bytes(&name[..n]);
}

/// Knuth's error report: `MESSAGE!\n` and, for input errors, `POS: LINE\n` where LINE is
/// the first 99 bytes of the offending line.
pub(super) fn write_error_report(e: &Dlx3Error, line_head: &[u8], err: &mut dyn ByteSink) {
    err.write_bytes(e.message().as_bytes());
    err.write_bytes(b"!\n");
    if let Dlx3Error::Input { pos, .. } = e {
        let _ = write!(Fmt(err), "{pos}: ");
        err.write_bytes(line_head);
        err.write_bytes(b"\n");
    }
}

/// What printing needs to know about the matrix.
pub(super) struct View<'v, W: Width> {
    pub nd: &'v [Node<W>],
    pub names: &'v Names<'v>,
    pub levels: &'v [Level],
    pub last_itm: u32,
    pub last_node: u32,
}

impl<W: Width> View<'_, W> {
    fn name(&self, k: i32) -> [u8; 8] {
        self.names.get(k as usize)
    }

    fn node(&self, p: u32) -> Node {
        self.nd
            .get(p as usize)
            .map(Node::wide)
            .unwrap_or(Node::ZERO)
    }

    /// Knuth's `print_option(p, stream, head, score)`.
    /// `err` is where "Illegal option" goes (`None`: to `w`, which is then stderr).
    pub fn print_option(
        &self,
        w: &mut dyn ByteSink,
        err: Option<&mut dyn ByteSink>,
        p: u32,
        head: u32,
        score: i32,
    ) {
        let last_itm = self.last_itm;
        if (p < last_itm && p == head) || (head >= last_itm && p as i32 == self.node(head).itm) {
            w.write_bytes(b" null ");
            write_name(w, &self.name(p as i32));
        } else {
            if p < last_itm || p >= self.last_node || self.node(p).itm <= 0 {
                let _ = match err {
                    Some(e) => writeln!(Fmt(e), "Illegal option {}!", p as i32),
                    None => writeln!(Fmt(w), "Illegal option {}!", p as i32),
                };
                return;
            }
            let mut q = p;
            // Bounded walk: an option has fewer nodes than the node array.
            for _ in 0..self.nd.len() {
                let n = self.node(q);
                w.write_bytes(b" ");
                write_name(w, &self.name(n.itm));
                if n.color != 0 {
                    let c = if n.color > 0 {
                        n.color
                    } else {
                        self.node(n.itm as u32).color
                    };
                    w.write_bytes(b":");
                    w.write_bytes(&[c as u8]);
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
                w.write_bytes(b" (?)\n");
                return;
            }
            q = self.node(q).down;
            k = k.wrapping_add(1);
        }
        let _ = writeln!(Fmt(w), " ({k} of {score})");
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
    pub fn print_solution(
        &self,
        w: &mut dyn ByteSink,
        err: &mut dyn ByteSink,
        count: u64,
        level: u32,
    ) {
        let _ = writeln!(Fmt(w), "{}:", count as i64);
        for l in 0..level as usize {
            let (p, head, score) = self.level_head(l);
            self.print_option(w, Some(&mut *err), p, head, score);
        }
    }

    /// Knuth's `print_state`.
    pub fn print_state(
        &self,
        err: &mut dyn ByteSink,
        level: u32,
        count: u64,
        mems: u64,
        maxl: u32,
        show_levels_max: i32,
    ) {
        let _ = writeln!(Fmt(err), "Current state (level {level}):");
        for l in 0..level as usize {
            let (p, head, score) = self.level_head(l);
            self.print_option(err, None, p, head, score);
            if l as i64 >= i64::from(show_levels_max) {
                err.write_bytes(b" ...\n");
                break;
            }
        }
        let _ = writeln!(
            Fmt(err),
            " {} sols, {} mems, and max level {} so far.",
            count as i64,
            mems as i64,
            maxl
        );
    }

    /// Knuth's `print_progress`.
    pub fn print_progress(
        &self,
        err: &mut dyn ByteSink,
        level: u32,
        count: u64,
        mems: u64,
        show_levels_max: i32,
    ) {
        let _ = write!(
            Fmt(err),
            " after {} mems: {} sols,",
            mems as i64,
            count as i64
        );
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
            let _ = write!(Fmt(err), " {}{}", enc(k), enc(d));
            if l as i64 >= i64::from(show_levels_max) {
                err.write_bytes(b"...");
                break;
            }
        }
        let _ = writeln!(Fmt(err), " {:.5}", f + 0.5 / fd);
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

impl<W: Width> Dlx3<'_, W> {
    /// Writes Knuth's report for `e` to `err`: for an input error `MESSAGE!` and
    /// `POS: LINE` (the first 99 bytes of the offending line); otherwise `MESSAGE!`.
    pub fn write_error_report(&self, e: &Dlx3Error, err: &mut dyn ByteSink) {
        write_error_report(e, self.line_head.as_ref(), err);
    }

    /// `Item totals: L1 L2 ... | Ls ...` (current list lengths).
    pub(super) fn write_item_totals(&self, err: &mut dyn ByteSink) {
        err.write_bytes(b"Item totals:");
        for k in 1..self.layout.last_itm {
            if k == self.layout.second {
                err.write_bytes(b" |");
            }
            let _ = write!(Fmt(err), " {}", self.nodes[k as usize].wide().itm);
        }
        err.write_bytes(b"\n");
    }

    /// The closing reports, in Knuth's order: item totals (`vbose&512`), profile
    /// (`vbose&128`), statistics (`vbose&1`).
    pub fn finish(&mut self, err: &mut dyn ByteSink) {
        let vbose = self.settings.vbose;
        if vbose & SHOW_TOTS != 0 {
            self.write_item_totals(err);
        }
        if vbose & SHOW_PROFILE != 0 {
            err.write_bytes(b"Profile:\n");
            for l in 0..=self.stats.maxl as usize {
                let n = self.levels.get(l).map_or(0, |lv| lv.profile);
                let _ = writeln!(Fmt(err), "{:3}: {}", l, n as i64);
            }
        }
        if vbose & SHOW_BASICS != 0 {
            let s = self.stats();
            let _ = write!(
                Fmt(err),
                "Altogether {} solution{}, {}+{} mems,",
                s.count,
                if s.count == 1 { "" } else { "s" },
                s.imems,
                s.mems
            );
            let _ = write!(
                Fmt(err),
                " {} updates, {} cleansings,",
                s.updates,
                s.cleansings
            );
            let _ = write!(Fmt(err), " {} bytes, {} nodes,", s.bytes, s.nodes);
            let _ = writeln!(Fmt(err), " ccost {}%.", s.ccost_percent());
        }
    }
}

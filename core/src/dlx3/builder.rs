//! Building a matrix without text: [`Dlx3::add_item`] and [`Dlx3::add_option`] give the
//! same layout (hence the same search, output and search statistics) as the equivalent
//! text. No text is read, so the input mems (`imems`) count only the node insertions.
use super::engine::Dlx3;
use super::error::{Dlx3Error, InputError};
use super::output;
use super::phase::Phase;
use super::settings::{is_space, SHOW_WARNINGS};
use super::storage::{Item, Node};
use crate::sink::ByteSink;

fn err(kind: InputError) -> Dlx3Error {
    Dlx3Error::Input { kind, pos: 0 }
}

impl Dlx3<'_> {
    /// Adds an item, as if its token `lo:hi|name` appeared on the item line (primary items
    /// first; the first secondary item plays the role of the `|` separator; a secondary
    /// item ignores `lo`/`hi`). Returns the item number (1, 2, ...).
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// let a = e.add_item(b"A", 1, 1, false)?;
    /// let b = e.add_item(b"B", 1, 1, false)?;
    /// let x = e.add_item(b"X", 0, 0, true)?;
    /// e.add_option(&[(a, 0), (x, b'r')], &mut Discard)?;
    /// e.add_option(&[(b, 0), (x, b'r')], &mut Discard)?; // same color: compatible
    /// e.add_option(&[(a, 0), (b, 0)], &mut Discard)?;
    /// e.end_input(&mut Discard)?;
    /// let mut count = 0;
    /// while e.run_silent(u64::MAX)? == Event::Solution {
    ///     count += 1;
    /// }
    /// assert_eq!(count, 2);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn add_item(
        &mut self,
        name: &[u8],
        lo: i32,
        hi: i32,
        secondary: bool,
    ) -> Result<u32, Dlx3Error> {
        if self.phase != Phase::ItemLine {
            return Err(Dlx3Error::OutOfOrder);
        }
        // Every check comes before any change: an error leaves the engine as it was.
        let first = self.layout.last_itm == 0;
        if first && secondary {
            return Err(Dlx3Error::OutOfOrder); // the first item must be primary
        }
        let (last, separator_seen) = if first {
            (1, false)
        } else {
            (self.layout.last_itm, self.separator_seen)
        };
        if name.is_empty() {
            return Err(err(InputError::ItemNameEmpty));
        }
        if name.len() > 8 {
            return Err(err(InputError::ItemNameTooLong));
        }
        for &c in name {
            if is_space(c) || c == 0 {
                return Err(err(InputError::ItemNameTooLong));
            }
            if c == b':' {
                return Err(err(InputError::IllegalColon));
            }
            if c == b'|' {
                return Err(err(InputError::IllegalBar));
            }
        }
        if !secondary {
            if separator_seen {
                return Err(Dlx3Error::OutOfOrder); // primaries come first
            }
            if hi <= 0 {
                return Err(err(InputError::UpperBoundZero));
            }
            if lo < 0 {
                return Err(err(InputError::IllegalDigit));
            }
            if lo > hi {
                return Err(err(InputError::LowerExceedsUpper));
            }
        }
        let mut padded = [0u8; 8];
        padded[..name.len()].copy_from_slice(name);
        if (1..last).any(|k| self.names.get(k as usize) == padded) {
            return Err(err(InputError::DuplicateItemName));
        }
        if last > self.max_cols {
            return Err(err(InputError::TooManyItems));
        }
        // Node `last` is the item's header, and the first spacer follows the headers: room
        // for both, so that the option or `end_input` that closes the item list cannot fail
        // for want of it.
        if last as usize + 1 >= self.nodes.len() {
            return Err(err(InputError::TooManyNodes));
        }
        let Some(names) = self.names.as_mut() else {
            return Err(Dlx3Error::OutOfOrder);
        };
        // All checked: now change.
        let li = last as usize;
        names[li] = padded;
        let separator_seen = if secondary && !separator_seen {
            self.layout.second = last;
            super::parse::separator_counts(last)
        } else {
            separator_seen
        };
        if !separator_seen {
            self.items[li - 1].next = last;
            self.items[li] = Item {
                prev: last - 1,
                next: 0,
                bound: hi,
                slack: hi - lo,
            };
        } else {
            self.items[li] = Item {
                prev: last,
                next: last,
                bound: 0,
                slack: 0,
            };
        }
        self.nodes[li] = Node {
            up: last,
            down: last,
            itm: 0,
            color: 0,
        };
        self.separator_seen = separator_seen;
        self.layout.last_itm = last + 1;
        Ok(last)
    }

    /// Adds an option: `(item number, color)` pairs, color 0 for none (colors only on
    /// secondary items, and not a white-space byte). Like a text option line, an option
    /// without primary items is dropped with the "Option ignored" warning (to `warn`).
    pub fn add_option(
        &mut self,
        option: &[(u32, u8)],
        warn: &mut dyn ByteSink,
    ) -> Result<(), Dlx3Error> {
        // Every check comes before any change: an error leaves the engine as it was. The
        // first option closes the item list, which fixes `second` and puts the first
        // spacer at node `last_itm`: checked as it will be.
        let closing = match self.phase {
            Phase::ItemLine if self.layout.last_itm >= 2 => true,
            Phase::Options => false,
            Phase::ItemLine => return Err(err(InputError::NoItems)),
            Phase::Failed(e) => return Err(e),
            _ => return Err(Dlx3Error::OutOfOrder),
        };
        let last = self.layout.last_itm;
        let (second, i) = if closing {
            let second = if self.separator_seen {
                self.layout.second
            } else {
                last
            };
            (second, last)
        } else {
            (self.layout.second, self.layout.last_node)
        };
        for (j, &(k, color)) in option.iter().enumerate() {
            if k == 0 || k >= last {
                return Err(err(InputError::UnknownItemName));
            }
            if option[..j].iter().any(|&(q, _)| q == k) {
                return Err(err(InputError::DuplicateItemInOption));
            }
            if is_space(color) {
                return Err(err(InputError::ColorNotSingle));
            }
            if color != 0 && k < second {
                return Err(err(InputError::PrimaryColored));
            }
        }
        if i as usize + option.len() + 1 >= self.nodes.len() {
            return Err(err(InputError::TooManyNodes));
        }
        // All checked: now change.
        if closing {
            self.close_item_list(0)?;
        }
        let mut has_primary = false;
        for &(k, color) in option {
            let ln = self.layout.last_node + 1;
            self.layout.last_node = ln;
            let lnu = ln as usize;
            self.nodes[lnu].itm = k as i32;
            has_primary |= k < second;
            let t = self.nodes[k as usize].itm.wrapping_add(1);
            self.insert_node(k as usize, lnu, t);
            self.nodes[lnu].color = i32::from(color);
        }
        if !has_primary {
            if self.settings.vbose & SHOW_WARNINGS != 0 {
                warn.write_bytes(b"Option ignored (no primary items):");
                for &(k, color) in option {
                    warn.write_bytes(b" ");
                    output::write_name(warn, &self.names.get(k as usize));
                    if color != 0 {
                        warn.write_bytes(b":");
                        warn.write_bytes(&[color]);
                    }
                }
                warn.write_bytes(b"\n");
            }
            self.discard_option(i);
        } else {
            // Room for the spacer was checked before any node was added.
            let closed = self.close_option(i);
            debug_assert!(closed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{parse, run_all, Buffers, SEED};
    use super::super::{Dlx3, Settings};
    use std::string::String;

    #[test]
    fn built_matrix_searches_like_the_text() {
        let mut settings = Settings::DEFAULT;
        settings.apply_arg(b"m1");
        settings.apply_arg(b"v3");
        let mut b = Buffers::for_text(SEED);
        let mut warn = String::new();
        let mut text = parse(&mut b, SEED, settings, &mut warn).expect("parses");

        let mut b2 = Buffers::for_text(SEED);
        let mut built = Dlx3::new(b2.storage(), settings).expect("storage");
        let a = built.add_item(b"A", 1, 1, false).unwrap();
        let bb = built.add_item(b"B", 1, 1, false).unwrap();
        let c = built.add_item(b"C", 2, 3, false).unwrap();
        let x = built.add_item(b"X", 0, 0, true).unwrap();
        let y = built.add_item(b"Y", 0, 0, true).unwrap();
        let mut warn2 = String::new();
        for option in [
            &[(a, 0), (bb, 0), (x, b'0'), (y, b'0')][..],
            &[(a, 0), (c, 0), (x, b'1'), (y, b'1')],
            &[(c, 0), (x, b'0')],
            &[(bb, 0), (x, b'1')],
            &[(c, 0), (y, b'1')],
        ] {
            built.add_option(option, &mut warn2).unwrap();
        }
        built.end_input(&mut warn2).unwrap();
        assert_eq!(built.layout(), text.layout());
        assert_eq!(built.nodes(), text.nodes());
        let (out_text, err_text, _) = run_all(&mut text, u64::MAX).expect("runs");
        let (out_built, err_built, _) = run_all(&mut built, u64::MAX).expect("runs");
        assert_eq!(out_built, out_text);
        // Same search statistics; only the input mems differ (no text was read).
        let tail = |s: &str| String::from(s.split(" mems,").nth(1).unwrap_or(""));
        assert_eq!(tail(&err_built), tail(&err_text));
        assert_eq!(built.stats().mems, text.stats().mems);
    }

    #[test]
    fn builder_rejects_bad_items_and_options() {
        let mut b = Buffers::new(10, 50, 10);
        let mut e = Dlx3::new(b.storage(), Settings::DEFAULT).unwrap();
        assert!(e.add_item(b"X", 0, 0, true).is_err()); // secondary first
        assert!(e.add_item(b"", 1, 1, false).is_err());
        assert!(e.add_item(b"TOOLONGNAME", 1, 1, false).is_err());
        assert!(e.add_item(b"A", 2, 1, false).is_err());
        assert!(e.add_item(b"A", 0, 0, false).is_err());
        let a = e.add_item(b"A", 1, 1, false).unwrap();
        assert!(e.add_item(b"A", 1, 1, false).is_err());
        let x = e.add_item(b"X", 0, 0, true).unwrap();
        assert!(e.add_item(b"B", 1, 1, false).is_err()); // primary after secondary
        let mut warn = String::new();
        assert!(e.add_option(&[(a, b'c')], &mut warn).is_err());
        assert!(e.add_option(&[(a, 0), (a, 0)], &mut warn).is_err());
        assert!(e.add_option(&[(9, 0)], &mut warn).is_err());
        e.add_option(&[(x, b'c')], &mut warn).unwrap();
        assert_eq!(warn, "Option ignored (no primary items): X:c\n");
        e.add_option(&[(a, 0), (x, b'c')], &mut warn).unwrap();
        assert_eq!(e.option_count(), 1);
    }
}

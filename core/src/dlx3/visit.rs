//! Reading solutions without walking levels: [`Dlx3::for_each_solution`] hands each
//! solution's options to a visitor, [`Dlx3::visit_solutions`] does so within a mem budget.
//! Both are loops over [`Dlx3::run_silent`], so the search stays the resumable state
//! machine it is: a visitor that breaks, or a budget that runs out, leaves the engine ready
//! to go on from where it stopped.
use core::ops::ControlFlow;

use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::event::{DoneReason, Event, Move};
use super::storage::{Name, Width};

/// Why [`Dlx3::visit_solutions`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit<B> {
    /// The search is over (call [`Dlx3::finish`] for Knuth's closing reports if wanted).
    Done(DoneReason),
    /// The visitor returned `ControlFlow::Break(b)`; calling again continues after that
    /// solution.
    Break(B),
    /// At least the budget's mems were spent; calling again continues.
    BudgetExhausted,
}

/// The solution the engine stands at, as a visitor sees it: its options in the order they
/// were chosen (levels where a primary item was left uncovered, Knuth's null moves, are
/// skipped).
pub struct Solution<'e, 'a, W: Width> {
    engine: &'e Dlx3<'a, W>,
}

/// One option of a [`Solution`]: its number (1-based, in input order, as Knuth's
/// solutions and [`Dlx3::option_items`] number options) and its items.
#[derive(Clone, Copy)]
pub struct SolutionOption<'e, 'a, W: Width> {
    engine: &'e Dlx3<'a, W>,
    number: u32,
    first_node: u32,
}

impl<'e, 'a, W: Width> Solution<'e, 'a, W> {
    /// The solution's number in the search (1 for the first).
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA\nB\nA B\n", &mut Discard)?;
    /// let mut numbers = Vec::new();
    /// e.for_each_solution(|s| {
    ///     numbers.push(s.number());
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(numbers, [1, 2]);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn number(&self) -> u64 {
        self.engine.stats.count
    }

    /// The options of the solution, in the order the search chose them.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA\nB\nA B\n", &mut Discard)?;
    /// let mut sizes = Vec::new();
    /// e.for_each_solution(|s| {
    ///     sizes.push(s.options().map(|o| o.items().count()).sum::<usize>());
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(sizes, [2, 2]); // {A} {B}, and {A B}
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn options(&self) -> impl Iterator<Item = SolutionOption<'e, 'a, W>> + '_ {
        let engine = self.engine;
        (0..engine.depth()).filter_map(move |l| match engine.solution_move(l) {
            Some(Move::Option(number)) => Some(SolutionOption {
                engine,
                number,
                first_node: engine.option_first_node(l),
            }),
            _ => None,
        })
    }

    /// The name of item `k` (as [`Dlx3::item_name`]), to print an option's items.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A\nA\n", &mut Discard)?;
    /// e.for_each_solution(|s| {
    ///     let option = s.options().next().unwrap();
    ///     let (item, _) = option.items().next().unwrap();
    ///     assert_eq!(&s.item_name(item)[..1], b"A");
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn item_name(&self, k: u32) -> Name {
        self.engine.item_name(k)
    }
}

impl<'e, W: Width> SolutionOption<'e, '_, W> {
    /// The option's number (1-based, in input order among the options kept).
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA B\nA\nB\n", &mut Discard)?;
    /// let mut found = Vec::new();
    /// e.for_each_solution(|s| {
    ///     found.push(s.options().map(|o| o.number()).collect::<Vec<_>>());
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(found, [vec![1], vec![2, 3]]);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The option's items as `(item number, color)`, the pairs [`Dlx3::add_option`] takes
    /// (color 0 for none), in input order.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A | X\nA X:r\n", &mut Discard)?;
    /// e.for_each_solution(|s| {
    ///     let items: Vec<(u32, u8)> = s.options().flat_map(|o| o.items()).collect();
    ///     assert_eq!(items, [(1, 0), (2, b'r')]);
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn items(&self) -> impl Iterator<Item = (u32, u8)> + 'e {
        let nodes: &'e [_] = &self.engine.nodes[..];
        let mut q = self.first_node as usize;
        core::iter::from_fn(move || {
            let node = nodes.get(q)?.wide();
            if node.itm <= 0 {
                return None;
            }
            q += 1;
            // A cleansed node (-1) has its item's color, kept in the item's header.
            let color = if node.color < 0 {
                nodes[node.itm as usize].wide().color
            } else {
                node.color
            };
            Some((node.itm as u32, color as u8))
        })
    }
}

impl<'a, W: Width> Dlx3<'a, W> {
    /// The first node of the option chosen on level `l` (a move that is an option).
    fn option_first_node(&self, l: u32) -> u32 {
        let mut q = self.levels[l as usize].choice;
        // Walk left to the spacer before the option (its `itm` is <= 0).
        while self.nodes[q as usize - 1].wide().itm > 0 {
            q -= 1;
        }
        q
    }

    /// Searches on (without printing, as [`run_silent`](Dlx3::run_silent)) and hands each
    /// solution to `visit` until the search is over or `visit` breaks; returns
    /// `ControlFlow::Break(b)` when `visit` did (calling again continues after that
    /// solution), or `ControlFlow::Continue(reason)` when the search ended.
    ///
    /// Every solution of 8 queens, each as its 8 options (one per row):
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, DoneReason, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut text = String::from("R0 R1 R2 R3 R4 R5 R6 R7 C0 C1 C2 C3 C4 C5 C6 C7 |");
    /// for d in 0..15 {
    ///     text += &format!(" A{d} B{d}");
    /// }
    /// text += "\n";
    /// for r in 0..8 {
    ///     for c in 0..8 {
    ///         text += &format!("R{r} C{c} A{} B{}\n", r + c, r + 7 - c);
    ///     }
    /// }
    /// let mut ws: Workspace<50, 400, 20> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(text.as_bytes(), &mut Discard)?;
    /// let mut count = 0;
    /// let end = e.for_each_solution(|s| {
    ///     assert_eq!(s.options().count(), 8);
    ///     count += 1;
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!((count, end), (92, ControlFlow::Continue(DoneReason::Exhausted)));
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn for_each_solution<B>(
        &mut self,
        mut visit: impl FnMut(&Solution<'_, 'a, W>) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B, DoneReason>, Dlx3Error> {
        loop {
            match self.visit_solutions(u64::MAX, &mut visit)? {
                Visit::Done(reason) => return Ok(ControlFlow::Continue(reason)),
                Visit::Break(b) => return Ok(ControlFlow::Break(b)),
                Visit::BudgetExhausted => {}
            }
        }
    }

    /// [`for_each_solution`](Dlx3::for_each_solution) in budgeted steps, for firmware:
    /// returns [`Visit::BudgetExhausted`] once at least `budget` more mems are spent (as
    /// [`run_silent`](Dlx3::run_silent) counts them); calling again goes on.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use xcover_core::dlx3::{Dlx3, DoneReason, Settings, Visit, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<8, 64, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B C\nA B\nC\nA\nB C\n", &mut Discard)?;
    /// let (mut found, mut steps) = (Vec::new(), 0);
    /// loop {
    ///     steps += 1;
    ///     let step = e.visit_solutions(5, |s| {
    ///         found.push(s.options().map(|o| o.number()).collect::<Vec<_>>());
    ///         ControlFlow::<()>::Continue(())
    ///     })?;
    ///     if let Visit::Done(reason) = step {
    ///         assert_eq!(reason, DoneReason::Exhausted);
    ///         break;
    ///     }
    /// }
    /// found.iter_mut().for_each(|s| s.sort());
    /// found.sort();
    /// assert_eq!(found, [vec![1, 2], vec![3, 4]]);
    /// assert!(steps > 1);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn visit_solutions<B>(
        &mut self,
        budget: u64,
        mut visit: impl FnMut(&Solution<'_, 'a, W>) -> ControlFlow<B>,
    ) -> Result<Visit<B>, Dlx3Error> {
        let start = self.stats.mems;
        loop {
            let spent = self.stats.mems.wrapping_sub(start);
            match self.run_silent(budget.saturating_sub(spent))? {
                Event::Solution => {
                    if let ControlFlow::Break(b) = visit(&Solution { engine: self }) {
                        return Ok(Visit::Break(b));
                    }
                }
                Event::Done(reason) => return Ok(Visit::Done(reason)),
                Event::BudgetExhausted => return Ok(Visit::BudgetExhausted),
                // Units are explored in turn: their solutions are the search's.
                Event::Unit(_) | Event::UnitDone(_) => {}
            }
            if self.stats.mems.wrapping_sub(start) >= budget {
                return Ok(Visit::BudgetExhausted);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::output;
    use super::super::testutil::{queens, run_all, Buffers};
    use super::super::Settings;
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// Prints a visited solution as Knuth's program does with `m1` (level by level,
    /// `option_items`-style), so the visitor's options can be compared with the engine's
    /// own printing.
    fn knuth_lines<W: Width>(s: &Solution<'_, '_, W>) -> Vec<String> {
        s.options()
            .map(|o| {
                let names: Vec<String> = o
                    .items()
                    .map(|(k, color)| {
                        let mut t = String::new();
                        output::write_name(&mut t, &s.item_name(k));
                        if color != 0 {
                            t.push(':');
                            t.push(color as char);
                        }
                        t
                    })
                    .collect();
                names.join(" ")
            })
            .collect()
    }

    #[test]
    fn eight_queens_visited_as_printed() {
        let text = queens(8);
        let text = String::from_utf8(text).unwrap();
        // What the engine prints with m1: "k:" then each option's items, in the same
        // order as the visitor's options.
        let mut b = Buffers::for_text(text.as_bytes());
        let mut printer = Dlx3::new(b.storage(), Settings::new().print_interval(1)).unwrap();
        printer
            .read_input(text.as_bytes(), &mut crate::sink::Discard)
            .unwrap();
        let (printed, _, _) = run_all(&mut printer, u64::MAX).expect("runs");

        let mut b2 = Buffers::for_text(text.as_bytes());
        let mut e = Dlx3::new(b2.storage(), Settings::new()).unwrap();
        e.read_input(text.as_bytes(), &mut crate::sink::Discard)
            .unwrap();
        let mut visited = String::new();
        let end = e
            .for_each_solution(|s| {
                visited += &std::format!("{}:\n", s.number());
                for line in knuth_lines(s) {
                    // Knuth prints each option's items starting at the chosen node, then
                    // " (k of n)"; compare the sets of items per line.
                    visited += &line;
                    visited.push('\n');
                }
                ControlFlow::<()>::Continue(())
            })
            .unwrap();
        assert_eq!(end, ControlFlow::Continue(DoneReason::Exhausted));
        assert_eq!(e.stats().count, 92);
        // Each solution as its options, each option as its sorted item names.
        let normalize = |t: &str| -> Vec<Vec<String>> {
            let mut sols: Vec<Vec<String>> = Vec::new();
            for line in t.lines() {
                if line.ends_with(':') {
                    sols.push(Vec::new());
                } else {
                    let option = line.split(" (").next().unwrap_or("");
                    let mut items: Vec<&str> = option.split_whitespace().collect();
                    items.sort_unstable();
                    sols.last_mut()
                        .expect("a number first")
                        .push(items.join(" "));
                }
            }
            sols
        };
        let (want, got) = (normalize(&printed), normalize(&visited));
        assert_eq!(want.len(), 92);
        assert_eq!(got, want);
    }

    #[test]
    fn a_break_resumes_and_budgets_add_up() {
        let text = String::from_utf8(queens(6)).unwrap();
        let mut b = Buffers::for_text(text.as_bytes());
        let mut e = Dlx3::new(b.storage(), Settings::new()).unwrap();
        e.read_input(text.as_bytes(), &mut crate::sink::Discard)
            .unwrap();
        let mut all = Vec::new();
        let mut breaks = 0;
        let mut record = |s: &Solution<'_, '_, u32>| {
            all.push(s.options().map(|o| o.number()).collect::<Vec<_>>());
            ControlFlow::Break(s.number())
        };
        let mut steps = 0;
        loop {
            steps += 1;
            match e.visit_solutions(50, &mut record).unwrap() {
                Visit::Break(n) => {
                    breaks += 1;
                    assert_eq!(n, breaks);
                }
                Visit::BudgetExhausted => {}
                Visit::Done(reason) => {
                    assert_eq!(reason, DoneReason::Exhausted);
                    break;
                }
            }
        }
        assert_eq!((breaks, all.len()), (4, 4)); // 6 queens: 4 solutions
        assert!(steps > 10, "a 50-mem budget stops often ({steps} steps)");
        // The same solutions as one uninterrupted visit.
        let mut b2 = Buffers::for_text(text.as_bytes());
        let mut whole = Dlx3::new(b2.storage(), Settings::new()).unwrap();
        whole
            .read_input(text.as_bytes(), &mut crate::sink::Discard)
            .unwrap();
        let mut once = Vec::new();
        let end = whole
            .for_each_solution(|s| {
                once.push(s.options().map(|o| o.number()).collect::<Vec<_>>());
                ControlFlow::<()>::Continue(())
            })
            .unwrap();
        assert_eq!(end, ControlFlow::Continue(DoneReason::Exhausted));
        assert_eq!(once, all);
        assert_eq!(whole.stats().mems, e.stats().mems);
    }
}

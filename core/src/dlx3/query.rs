//! Reading an engine: its settings, counters, matrix, life-cycle stage and solution.
use super::engine::Dlx3;
use super::event::{Layout, Move};
use super::phase::{Label, Phase, Stage};
use super::settings::Settings;
use super::stats::Stats;
use super::storage::{Item, Name, Node, Width};

impl<'a, W: Width> Dlx3<'a, W> {
    /// Where the engine is in its life (see [`Stage`]).
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Settings, Stage, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// assert_eq!(e.stage(), Stage::Items);
    /// e.read_input(b"A B\nA\nB\nA B\n", &mut Discard)?;
    /// assert_eq!(e.stage(), Stage::Ready);
    /// assert_eq!(e.run_silent(u64::MAX)?, Event::Solution);
    /// assert_eq!(e.stage(), Stage::Solution);
    /// while e.run_silent(u64::MAX)? != Event::Done(xcover_core::dlx3::DoneReason::Exhausted) {}
    /// assert_eq!(e.stage(), Stage::Done);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn stage(&self) -> Stage {
        match self.phase {
            Phase::ItemLine => Stage::Items,
            Phase::Options => Stage::Options,
            Phase::Failed(_) => Stage::Failed,
            _ if self.at_solution => Stage::Solution,
            Phase::Search(_) if self.at_start() => Stage::Ready,
            Phase::Search(_) => Stage::Searching,
            Phase::Done(_) => Stage::Done,
        }
    }

    /// Whether the search is ready but has not made a move yet (splitting is set up then).
    pub(super) fn at_start(&self) -> bool {
        self.phase == Phase::Search(Label::Forward) && self.level == 0 && self.stats.nodes == 0
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The counters so far (with `bytes` computed as Knuth does).
    pub fn stats(&self) -> Stats {
        let mut s = self.stats;
        s.bytes = 24 * u64::from(self.layout.last_itm)
            + 16 * u64::from(self.layout.last_node)
            + 4 * u64::from(s.maxl);
        s
    }

    /// The matrix shape (valid after the item line has been read), for an image (see
    /// [`image`](super::image)).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The item records (index 0 is the root), for an image (see [`image`](super::image)).
    pub fn items(&self) -> &[Item<W>] {
        &self.items[..self.layout.last_itm as usize]
    }

    /// The node records up to and including the final spacer, for an image (see
    /// [`image`](super::image)).
    pub fn nodes(&self) -> &[Node<W>] {
        let end = (self.layout.last_node as usize + 1).min(self.nodes.len());
        &self.nodes[..end]
    }

    /// Number of items (not counting the root).
    pub fn item_count(&self) -> u32 {
        self.layout.last_itm.saturating_sub(1)
    }

    /// Number of options kept.
    pub fn option_count(&self) -> u64 {
        self.layout.options
    }

    /// Name of item `k` (1-based), zero-padded.
    pub fn item_name(&self, k: u32) -> Name {
        self.names.get(k as usize)
    }

    /// Whether item `k` is secondary.
    pub fn is_secondary(&self, k: u32) -> bool {
        k >= self.layout.second
    }

    /// Current depth of the search (the number of moves in the partial solution).
    pub fn depth(&self) -> u32 {
        self.level
    }

    /// Move number `l` (0-based) of the current partial solution; after `Event::Solution`
    /// the moves `0..depth()` form the solution.
    pub fn solution_move(&self, l: u32) -> Option<Move> {
        if l >= self.level {
            return None;
        }
        let p = self.levels[l as usize].choice;
        if p < self.layout.last_itm {
            return Some(Move::Null(p));
        }
        // Walk right to the spacer after the option; its `itm` is minus the option number.
        // Hosted builds walk a slice iterator (no bounds check per node: a solver listing
        // the 6x6 tiles' solutions ran 2.6 % fewer instructions in all); in firmware
        // builds it took 36 more bytes of text than the indexed walk.
        #[cfg(not(target_os = "none"))]
        {
            let after = self.nodes.get(p as usize + 1..)?;
            let spacer = after
                .iter()
                .map(|n| W::get_signed(n.itm))
                .find(|&i| i <= 0)?;
            Some(Move::Option(spacer.unsigned_abs()))
        }
        #[cfg(target_os = "none")]
        {
            let mut q = p;
            loop {
                q += 1;
                let n = self.nodes[q as usize].wide();
                if n.itm <= 0 {
                    return Some(Move::Option(n.itm.unsigned_abs()));
                }
            }
        }
    }

    /// The node chosen at move `l` (0-based) of the current partial solution: a node of
    /// the option tried, or for a null move the item left at its bound (an index below
    /// [`Layout::last_itm`]). With a table from [`node_options`](Dlx3::node_options), a
    /// program that lists many solutions finds each move's option by a look-up, where
    /// [`solution_move`](Dlx3::solution_move) walks along the option to its spacer.
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Move, Settings, Workspace};
    /// use xcover_core::sink::Discard;
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA B\nA\nB\n", &mut Discard)?;
    /// let mut option = [0u32; 32];
    /// e.node_options(&mut option);
    /// assert_eq!(e.run_silent(u64::MAX)?, Event::Solution);
    /// for l in 0..e.depth() {
    ///     let p = e.solution_node(l).unwrap() as usize;
    ///     assert_eq!(e.solution_move(l), Some(Move::Option(option[p])));
    /// }
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn solution_node(&self, l: u32) -> Option<u32> {
        if l >= self.level {
            return None;
        }
        Some(self.levels.get(l as usize)?.choice)
    }

    /// Writes into `out[p]` the number (1-based) of the option that node `p` belongs to,
    /// 0 for item headers and spacers, for every node of [`nodes`](Dlx3::nodes) that `out`
    /// has room for; returns how many it wrote. One pass over the nodes, from the last.
    pub fn node_options(&self, out: &mut [u32]) -> usize {
        let nodes = self.nodes();
        let n = nodes.len().min(out.len());
        let first = (self.layout.last_itm as usize).min(n);
        out[..first].fill(0);
        // Each option's nodes come before its spacer, whose `itm` is minus its number.
        let mut option = 0;
        for (slot, node) in out[first..n].iter_mut().zip(&nodes[first..n]).rev() {
            let itm = W::get_signed(node.itm);
            if itm <= 0 {
                option = itm.unsigned_abs();
                *slot = 0;
            } else {
                *slot = option;
            }
        }
        n
    }

    /// Node index of the first node of option `j` (1-based), if it exists.
    fn option_start(&self, j: u32) -> Option<u32> {
        if j == 0 || u64::from(j) > self.layout.options {
            return None;
        }
        // Spacers are found by walking; a spacer's `up` is the first node of the option
        // before it, so scan for the spacer with `itm == -j`.
        let mut p = self.layout.last_itm as usize;
        let end = self.layout.last_node as usize;
        while p <= end {
            let n = self.nodes[p].wide();
            if n.itm == -(j as i32) {
                return Some(n.up);
            }
            p += 1;
        }
        None
    }

    /// The items of option `j` (1-based) with their colors (0 = none), written to `out`;
    /// returns how many there are (only the first `out.len()` are stored).
    pub fn option_items(&self, j: u32, out: &mut [(u32, i32)]) -> usize {
        let Some(start) = self.option_start(j) else {
            return 0;
        };
        let mut n = 0;
        let mut q = start as usize;
        while let Some(node) = self.nodes.get(q).map(Node::wide) {
            if node.itm <= 0 {
                break;
            }
            let color = if node.color < 0 {
                self.nodes[node.itm as usize].wide().color
            } else {
                node.color
            };
            if let Some(slot) = out.get_mut(n) {
                *slot = (node.itm as u32, color);
            }
            n += 1;
            q += 1;
        }
        n
    }

    /// Lower and upper bound of primary item `k` as given in the input.
    pub fn item_bounds(&self, k: u32) -> Option<(i32, i32)> {
        if k == 0 || k >= self.layout.second {
            return None;
        }
        let it = self.items.get(k as usize)?.wide();
        Some((it.bound - it.slack, it.bound))
    }
}

//! Knuth's DLX3: exact cover with item multiplicities (bounds `a:b|name`) and color
//! controls, "Algorithm M" of TAOCP 7.2.2.1 in its dancing-links form.
//!
//! The engine reproduces the reference program byte for byte (solutions, traces, progress
//! reports, statistics including the mem counts) while owning no memory: it works in a
//! [`WorkspaceView`] the caller lends (of slices, or of an owned [`Workspace`]). Use:
//!
//! 1. [`Dlx3::new`] with a [`WorkspaceView`] and [`Settings`];
//! 2. [`Dlx3::read_line`] for each chunk of [`FgetsLines`] (or the builder calls
//!    [`Dlx3::add_item`] / [`Dlx3::add_option`]), then [`Dlx3::end_input`];
//! 3. [`Dlx3::run`] repeatedly (with a mem budget) until it returns [`Event::Done`];
//! 4. [`Dlx3::finish`] for the closing reports.
//!
//! All text goes as raw bytes to [`ByteSink`]s ([`Sinks`]); [`Dlx3::run_silent`] searches
//! without printing and links no formatting code.
//!
//! A search splits into *units* that engines anywhere explore apart and whose counters and
//! solutions add up, in order, to exactly the sequential run's: see `split` —
//! [`Dlx3::choose_split_level`], [`Dlx3::set_split_level`], [`Event::Unit`],
//! [`Dlx3::skip_unit`], [`UnitTotals`], [`Part`].
//!
//! Knuth's example of color controls, printed as his program prints it (`m1`: every
//! solution), in budgeted slices of the search:
//!
//! ```
//! use xcover_core::dlx3::{Dlx3, Event, Settings, Sinks, Workspace};
//! use xcover_core::sink::ByteSink;
//!
//! struct Text(Vec<u8>);
//! impl ByteSink for Text {
//!     fn write_bytes(&mut self, bytes: &[u8]) {
//!         self.0.extend_from_slice(bytes);
//!     }
//! }
//!
//! let mut settings = Settings::DEFAULT;
//! settings.apply_arg(b"m1");
//! let mut ws: Workspace<8, 64, 16> = Workspace::new();
//! let mut engine = Dlx3::new(ws.as_mut_view(), settings)?;
//! let (mut out, mut err) = (Text(Vec::new()), Text(Vec::new()));
//! let input: &[u8] = b"A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
//! engine.read_input(input, &mut err)?;
//! let mut sinks = Sinks { out: &mut out, err: &mut err, shape: None };
//! while !matches!(engine.run(100, &mut sinks)?, Event::Done(_)) {}
//! engine.finish(&mut err);
//! assert_eq!(engine.stats().count, 1);
//! let printed = String::from_utf8(out.0).unwrap();
//! assert!(printed.starts_with("1:\n") && printed.contains("C Y:1"));
//! # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
//! ```

mod active;
mod builder;
mod choose;
mod error;
#[cfg(any(test, feature = "alloc"))]
mod heap;
mod image;
mod ops;
mod output;
mod parse;
mod queens;
mod search;
mod settings;
mod split;
mod stats;
mod storage;

pub use error::{Dlx3Error, InputError};
#[cfg(any(test, feature = "alloc"))]
pub use heap::HeapWorkspace;
pub use parse::{measure, measure_within, Capacity, FgetsLines};
#[doc(hidden)]
pub use queens::write_queens_dlx;
pub use settings::{
    ArgOutcome, Settings, BUFSIZE, MAX_COLS, MAX_LEVEL, MAX_NODES, SHOW_BASICS, SHOW_CHOICES,
    SHOW_DETAILS, SHOW_FULL_STATE, SHOW_PROFILE, SHOW_TOTS, SHOW_WARNINGS,
};
pub use split::{Part, UnitTotals};
pub use stats::Stats;
/// The matrix records, their link width and the matrix shape, for code that lays out the
/// storage itself: the C ABI (its record sizes and preloaded images) and the Rust matrices
/// `xcover dlx3 --export-rust` writes. Hidden from the documentation: they follow the
/// engine's internals and are no stable API.
#[doc(hidden)]
pub use storage::{Item, Level, Node, Width};
pub use storage::{Name, Workspace, WorkspaceView};

use crate::sink::ByteSink;
use core::mem::MaybeUninit;
use storage::Names;

/// The average option length (nodes, not counting spacers) from which the search uses the
/// pipelined option walks: the pentomino input (7 nodes per option) gained 20% in time
/// with them, the queens inputs (4 and 5) lost 3-10% (docs/PERFORMANCE.md).
const LONG_OPTION: u64 = 6;

/// Where the engine writes: solutions to `out`, everything else to `err`, and the search
/// tree shape (Knuth's `S<file>`) to `shape`.
pub struct Sinks<'w> {
    /// Solutions (Knuth's stdout).
    pub out: &'w mut dyn ByteSink,
    /// Reports, traces, warnings (Knuth's stderr).
    pub err: &'w mut dyn ByteSink,
    /// Shape file, if any.
    pub shape: Option<&'w mut dyn ByteSink>,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoneReason {
    /// The whole tree was explored.
    Exhausted,
    /// `maxcount` solutions were found (`t<n>`).
    SolutionLimit,
    /// Mems reached the `timeout` (`T<n>`); `TIMEOUT!` was reported.
    Timeout,
}

/// What [`Dlx3::run`] stopped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A solution was found (and printed if `spacing` asks for it); call `run` again.
    Solution,
    /// The search is over; call [`Dlx3::finish`] for the closing reports.
    Done(DoneReason),
    /// The mem budget ran out at a phase boundary; call `run` again to continue.
    BudgetExhausted,
    /// With a split level set ([`Dlx3::set_split_level`]): the search is at the root of
    /// unit `k`. Call `run` to explore it (it ends with [`Event::UnitDone`]) or
    /// [`Dlx3::skip_unit`] to go past it.
    Unit(u64),
    /// Unit `k`, explored, is finished; the search is back on the split level.
    UnitDone(u64),
}

/// One move of the current partial solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Option number `n` (1-based, in input order of kept options) was chosen.
    Option(u32),
    /// Null move: the item (1-based item number) was left at its lower bound.
    Null(u32),
}

/// The shape of the matrix after input: enough, with the storage arrays, to preload it.
/// Hidden from the documentation with the records (see [`Node`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// One more than the number of items (item 0 is the root).
    pub last_itm: u32,
    /// First secondary item (`last_itm` if there are none).
    pub second: u32,
    /// Index of the final spacer.
    pub last_node: u32,
    /// Number of options kept.
    pub options: u64,
}

/// Where the engine is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for the item-name line.
    ItemLine,
    /// Reading option lines.
    Options,
    /// Searching; the label to continue at.
    Search(Label),
    /// The search has ended.
    Done(DoneReason),
    /// A fatal error happened.
    Failed(Dlx3Error),
}

/// Knuth's labels in the search routine, where a resumed search continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Forward,
    Advance,
    Backup,
    Backdown,
    /// The end of *advance*: go down into the option (the root of a unit when splitting).
    Enter,
}

/// The DLX3 engine over borrowed storage, with links of width `W` (see [`Width`]).
///
/// See the [module example](self) for a run that prints Knuth's output, and the
/// [crate example](crate) for reading solutions.
pub struct Dlx3<'a, W: Width = u32> {
    items: &'a mut [Item<W>],
    names: Names<'a>,
    nodes: &'a mut [Node<W>],
    levels: &'a mut [Level],
    settings: Settings,
    rng: W::Rng,
    /// Knuth's `max_cols`: item slots minus 2.
    max_cols: u32,
    /// Whether the item line's `|` has been seen (Knuth: `second != max_cols`).
    separator_seen: bool,
    layout: Layout,
    /// Whether some option node has a color (so purify/cleansing can happen).
    colored: bool,
    /// Whether the matrix is uncolored and its options have at least
    /// `LONG_OPTION` nodes on average (then `cover` and `uncover` use the pipelined
    /// walk, see `ops::walk_rest`). Always false in firmware builds.
    long_options: bool,
    /// Whether every primary item has bounds [1,1] (then scores are list lengths).
    exact_cover: bool,
    /// Whether the choice's key fits 64 bits (`choose::small_keys`).
    small_keys: bool,
    /// Active primary items as bits (see `active::ActiveSet`).
    active: active::ActiveSet<W>,
    stats: Stats,
    /// Updates and cleansings as the search adds to them (copied into `stats`).
    tallies: ops::Tallies,
    thresh: u64,
    phase: Phase,
    level: u32,
    cur_node: u32,
    best_itm: u32,
    score: i32,
    /// Trials on this level are units (`u32::MAX`: no splitting; see `split`).
    split_level: u32,
    /// Units met so far (the next unit's number).
    units_seen: u64,
    /// Scan position of the last line read (for "No items").
    last_pos: i32,
    /// First 99 bytes of the current input line (for error reports).
    line_head: W::LineHead,
}

impl<'a, W: Width> Dlx3<'a, W> {
    /// A fresh engine that expects the item-name line next.
    pub fn new(storage: WorkspaceView<'a, W>, settings: Settings) -> Result<Self, Dlx3Error> {
        let max_cols = Self::check_storage(&storage, &settings)?;
        let mut e = Self::fresh(storage, settings, max_cols);
        e.seed_rng();
        Ok(e)
    }

    /// As [`Dlx3::new`], with the engine built in `slot` and returned there. An engine is
    /// up to 900 bytes: built in place, it is not assembled on the stack and then copied,
    /// which keeps a microcontroller's init calls within a small stack (the README's
    /// Firmware section gives the figures). Inlined: as a call of its own, its frame held
    /// the engine's arrays.
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use xcover_core::dlx3::{Dlx3, Settings, Workspace};
    ///
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut slot = MaybeUninit::uninit();
    /// let e = Dlx3::new_in(&mut slot, ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA\nB\nA B\n", &mut xcover_core::sink::Discard)?;
    /// assert_eq!(e.option_count(), 3);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    #[inline(always)]
    pub fn new_in<'s>(
        slot: &'s mut MaybeUninit<Self>,
        storage: WorkspaceView<'a, W>,
        settings: Settings,
    ) -> Result<&'s mut Self, Dlx3Error> {
        let max_cols = Self::check_storage(&storage, &settings)?;
        let e = slot.write(Self::fresh(storage, settings, max_cols));
        e.seed_rng();
        Ok(e)
    }

    /// Checks that `storage` can hold an engine of this width with `settings`; returns
    /// Knuth's `max_cols` (item slots minus 2).
    fn check_storage(
        storage: &WorkspaceView<'a, W>,
        settings: &Settings,
    ) -> Result<u32, Dlx3Error> {
        let item_slots = storage.items.len().min(storage.names.len());
        if item_slots < 2 || storage.nodes.len() < 2 || storage.levels.is_empty() {
            return Err(Dlx3Error::StorageTooSmall);
        }
        if storage.nodes.len() > W::MAX_SLOTS || item_slots > W::MAX_SLOTS {
            return Err(Dlx3Error::StorageTooLarge);
        }
        if settings.randomizing && !W::RANDOMIZES {
            return Err(Dlx3Error::RandomizingUnsupported);
        }
        Ok((item_slots - 2).min(i32::MAX as usize / 2) as u32)
    }

    /// The engine over checked `storage` (its root records cleared), its generator not
    /// yet seeded ([`Dlx3::seed_rng`]). Inlined so that [`Dlx3::new_in`] writes most
    /// fields straight into the slot (not inlined, it was built whole on the stack and
    /// copied).
    #[inline(always)]
    fn fresh(storage: WorkspaceView<'a, W>, settings: Settings, max_cols: u32) -> Self {
        let WorkspaceView {
            items,
            mut names,
            nodes,
            levels,
        } = storage;
        items[0] = Item::ZERO;
        nodes[0] = Node::ZERO;
        if let Some(n) = names.as_mut() {
            n[0] = [0; 8];
        }
        Dlx3 {
            items,
            names,
            nodes,
            levels,
            settings,
            rng: W::NO_RNG,
            max_cols,
            separator_seen: false,
            layout: Layout {
                last_itm: 0,
                second: 0,
                last_node: 0,
                options: 0,
            },
            colored: false,
            long_options: false,
            exact_cover: false,
            small_keys: false,
            active: active::ActiveSet::new(),
            stats: Stats::default(),
            tallies: ops::Tallies::default(),
            thresh: settings.thresh,
            phase: Phase::ItemLine,
            level: 0,
            cur_node: 0,
            best_itm: 0,
            score: 0,
            split_level: u32::MAX,
            units_seen: 0,
            last_pos: 0,
            line_head: W::LINE_HEAD_EMPTY,
        }
    }

    /// Seeds the generator in place when the settings randomize (`check_storage` has
    /// refused randomizing settings for a width without a generator).
    fn seed_rng(&mut self) {
        if self.settings.randomizing {
            if let Some(g) = W::gb_flip(&mut self.rng) {
                g.init(self.settings.random_seed);
            }
        }
    }

    /// An engine over a matrix already in `storage` (e.g. a const image), ready to run.
    /// `layout` describes it (see [`Dlx3::layout`]); input mems are 0. The image is checked
    /// to have exactly the structure the parser builds ([`Dlx3Error::BadImage`] otherwise).
    ///
    /// ```
    /// use xcover_core::dlx3::{Dlx3, Event, Item, Level, Settings, Workspace, WorkspaceView};
    /// use xcover_core::sink::Discard;
    ///
    /// // Build the matrix once (here from text; `xcover dlx3 --export-rust` writes it as consts).
    /// let mut ws: Workspace<6, 32, 8> = Workspace::new();
    /// let mut e = Dlx3::new(ws.as_mut_view(), Settings::DEFAULT)?;
    /// e.read_input(b"A B\nA\nB\nA B\n", &mut Discard)?;
    /// // Items and names 0..=last_itm (the last all zero), nodes up to the final spacer.
    /// let layout = e.layout();
    /// let slots = layout.last_itm as usize + 1;
    /// let (mut items, nodes) = (e.items().to_vec(), e.nodes().to_vec());
    /// items.resize(slots, Item::ZERO);
    /// let names: Vec<[u8; 8]> = (0..slots as u32).map(|k| e.item_name(k)).collect();
    ///
    /// // Solve the image with names left read-only (in flash, on a microcontroller).
    /// let (mut items, mut nodes, mut levels) = (items, nodes, vec![Level::ZERO; 4]);
    /// let view = WorkspaceView::with_shared_names(&mut items, &names, &mut nodes, &mut levels);
    /// let mut pre = Dlx3::preloaded(view, Settings::DEFAULT, layout)?;
    /// let mut count = 0;
    /// while pre.run_silent(u64::MAX)? == Event::Solution {
    ///     count += 1;
    /// }
    /// assert_eq!(count, 2);
    /// # Ok::<(), xcover_core::dlx3::Dlx3Error>(())
    /// ```
    pub fn preloaded(
        storage: WorkspaceView<'a, W>,
        settings: Settings,
        layout: Layout,
    ) -> Result<Self, Dlx3Error> {
        // `new` clears the root records; an image carries them (the active list's head).
        let roots = (
            storage.items.first().copied(),
            storage.nodes.first().copied(),
        );
        let mut e = Self::new(storage, settings)?;
        e.load_image(roots, layout)?;
        Ok(e)
    }

    /// As [`Dlx3::preloaded`], with the engine built in `slot` (see [`Dlx3::new_in`]).
    #[inline(always)]
    pub fn preloaded_in<'s>(
        slot: &'s mut MaybeUninit<Self>,
        storage: WorkspaceView<'a, W>,
        settings: Settings,
        layout: Layout,
    ) -> Result<&'s mut Self, Dlx3Error> {
        let roots = (
            storage.items.first().copied(),
            storage.nodes.first().copied(),
        );
        let e = Self::new_in(slot, storage, settings)?;
        e.load_image(roots, layout)?;
        Ok(e)
    }

    /// Puts back the image's root records (`roots`, read before `new` cleared them),
    /// checks the image and enters the search phase.
    fn load_image(
        &mut self,
        roots: (Option<Item<W>>, Option<Node<W>>),
        layout: Layout,
    ) -> Result<(), Dlx3Error> {
        if let (Some(it), Some(nd)) = roots {
            self.items[0] = it;
            self.nodes[0] = nd;
        }
        let fits = (layout.last_itm as usize) < self.items.len().min(self.names.len());
        if !fits || !image::is_valid_image(self.items, self.nodes, &layout) {
            return Err(Dlx3Error::BadImage);
        }
        self.layout = layout;
        self.prepare_search();
        Ok(())
    }

    /// Computes the facts the search specializes on, and enters the search phase.
    fn prepare_search(&mut self) {
        let second = self.layout.second as usize;
        self.exact_cover = self.items[1..second]
            .iter()
            .map(Item::wide)
            .all(|it| it.bound == 1 && it.slack == 0);
        // Firmware builds leave the 64-bit choice out (see `search`), and this check too.
        self.small_keys = cfg!(not(target_os = "none"))
            && choose::small_keys(&self.items[1..second], self.layout.last_node);
        let (lo, hi) = (
            self.layout.last_itm as usize,
            self.layout.last_node as usize,
        );
        self.colored = self.nodes[lo..=hi]
            .iter()
            .map(Node::wide)
            .any(|n| n.itm > 0 && n.color != 0);
        // Firmware builds never use the pipelined walks (see `ops::Dancer::pipelined`).
        self.long_options = cfg!(not(target_os = "none")) && !self.colored && {
            let option_nodes = self.nodes[lo..=hi]
                .iter()
                .filter(|n| W::get_signed(n.itm) > 0)
                .count() as u64;
            option_nodes >= LONG_OPTION * self.layout.options
        };
        self.active.fill(self.layout.second);
        self.phase = Phase::Search(Label::Forward);
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

    /// The matrix shape (valid after the item line has been read).
    #[doc(hidden)]
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The item records (index 0 is the root).
    #[doc(hidden)]
    pub fn items(&self) -> &[Item<W>] {
        &self.items[..self.layout.last_itm as usize]
    }

    /// The node records up to and including the final spacer.
    #[doc(hidden)]
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

    /// Move number `l` (0-based) of the current partial solution; after [`Event::Solution`]
    /// the moves `0..depth()` form the solution.
    pub fn solution_move(&self, l: u32) -> Option<Move> {
        if l >= self.level {
            return None;
        }
        let p = self.levels[l as usize].choice;
        if p < self.layout.last_itm {
            return Some(Move::Null(p));
        }
        let mut q = p;
        // Walk right to the spacer after the option; its `itm` is minus the option number.
        loop {
            q += 1;
            let n = self.nodes[q as usize].wide();
            if n.itm <= 0 {
                return Some(Move::Option(n.itm.unsigned_abs()));
            }
        }
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

/// Helpers for the unit tests of this module.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// Heap-allocated storage for tests.
    pub struct Buffers {
        pub items: Vec<Item>,
        pub names: Vec<Name>,
        pub nodes: Vec<Node>,
        pub levels: Vec<Level>,
    }

    impl Buffers {
        pub fn new(item_slots: usize, node_slots: usize, levels: usize) -> Self {
            Buffers {
                items: vec![Item::ZERO; item_slots],
                names: vec![[0; 8]; item_slots],
                nodes: vec![Node::ZERO; node_slots],
                levels: vec![Level::ZERO; levels],
            }
        }

        /// Sized like the CLI sizes them for `text`.
        pub fn for_text(text: &[u8]) -> Self {
            let c = measure(text);
            Self::new(c.item_slots, c.node_slots, MAX_LEVEL)
        }

        pub fn storage(&mut self) -> WorkspaceView<'_> {
            WorkspaceView::new(
                &mut self.items,
                &mut self.names,
                &mut self.nodes,
                &mut self.levels,
            )
        }
    }

    /// Settings from Knuth's arguments, applied as his program applies them (last to first).
    pub fn settings(args: &[&str]) -> Settings {
        let mut s = Settings::DEFAULT;
        for a in args.iter().rev() {
            s.apply_arg(a.as_bytes());
        }
        s
    }

    /// Reads `text` into a new engine; warnings go to `warn`.
    pub fn parse<'a>(
        b: &'a mut Buffers,
        text: &[u8],
        settings: Settings,
        warn: &mut String,
    ) -> Result<Dlx3<'a>, Dlx3Error> {
        let mut e = Dlx3::new(b.storage(), settings)?;
        e.read_input(text, warn)?;
        Ok(e)
    }

    /// Runs to the end with the given budget per call; returns (stdout, stderr, shape).
    pub fn run_all<W: Width>(
        e: &mut Dlx3<'_, W>,
        budget: u64,
    ) -> Result<(String, String, String), Dlx3Error> {
        let (mut out, mut err, mut shape) = (String::new(), String::new(), String::new());
        loop {
            let mut sinks = Sinks {
                out: &mut out,
                err: &mut err,
                shape: Some(&mut shape),
            };
            match e.run(budget, &mut sinks)? {
                Event::Done(_) => break,
                Event::Solution | Event::BudgetExhausted | Event::Unit(_) | Event::UnitDone(_) => {}
            }
        }
        e.finish(&mut err);
        Ok((out, err, shape))
    }

    /// Knuth's example from the program's introduction.
    pub const SEED: &[u8] = b"| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

    /// n queens in the encoding of Knuth's `queens-dlx` (rows/columns primary, diagonals secondary).
    pub fn queens(n: usize) -> Vec<u8> {
        let enc = |x: usize| -> char {
            let x = x as u8;
            char::from(if x < 10 {
                b'0' + x
            } else if x < 36 {
                b'a' + x - 10
            } else {
                b'A' + x - 36
            })
        };
        let nn = 2 * n - 2;
        let mut s = String::from("| queens\n");
        for j in 0..n {
            let t = (if j & 1 == 1 { n - 1 - j } else { n + j }) >> 1;
            s += &std::format!("r{} c{} ", enc(t), enc(t));
        }
        s += "|";
        for j in 1..nn {
            s += &std::format!(" a{} b{}", enc(j), enc(j));
        }
        s += "\n";
        for j in 0..n {
            for k in 0..n {
                s += &std::format!("r{} c{}", enc(j), enc(k));
                let t = j + k;
                if t != 0 && t < nn {
                    s += &std::format!(" a{}", enc(t));
                }
                let t = n - 1 - j + k;
                if t != 0 && t < nn {
                    s += &std::format!(" b{}", enc(t));
                }
                s += "\n";
            }
        }
        s.into_bytes()
    }
}

//! Making an engine: over empty storage (to read a matrix) or over a matrix already in
//! storage (a preloaded image), built in place when asked.
use super::active::ActiveSet;
use super::choose;
use super::engine::Dlx3;
use super::error::Dlx3Error;
use super::event::Layout;
use super::image;
use super::ops::Tallies;
use super::phase::{Label, Phase};
use super::settings::Settings;
use super::stats::Stats;
use super::storage::{Item, Node, Width, WorkspaceView};
use core::mem::MaybeUninit;

/// The average option length (nodes, not counting spacers) from which the search uses the
/// pipelined option walks: they pay on long options (pentominoes, 7 nodes per option) and
/// cost on short ones (queens, 4 and 5); docs/PERFORMANCE.md has the figures.
const LONG_OPTION: u64 = 6;

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
            at_solution: false,
            active: ActiveSet::new(),
            stats: Stats::default(),
            tallies: Tallies::default(),
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
    /// use xcover_core::dlx3::{Dlx3, Event, Settings, Workspace, WorkspaceView};
    /// use xcover_core::dlx3::image::{Item, Level};
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
    pub(super) fn prepare_search(&mut self) {
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
}

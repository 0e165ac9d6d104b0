//! The fuzz target plays a C caller of the `dlx3_*` functions (the `xcover` crate, i.e.
//! libxcover.a): arbitrary call sequences over one fixed arena, with workspaces sized too
//! small or right, at misaligned offsets, initialized twice, released, dead; items and
//! options added, text parsed, preloaded images (valid ones and mutated ones), budgeted
//! search steps, and every reader. Checked after every call:
//!
//! - it returns (no panic, no trap) a status, never XCOVER_INTERNAL_ERROR;
//! - nothing in the arena outside the bytes lent to workspaces (`[buf, buf + size)` of an
//!   init call) is written: the guard pattern there is intact;
//! - a few documented answers (misaligned buffer, too small buffer, released handle).
//!
//! The caller keeps its side of the contract: every pointer passed is NULL, or valid memory
//! this target owns; a handle is passed only while the memory it points to was not handed
//! to another workspace.
#![no_main]

use core::ffi::c_char;
use core::ptr::{null, null_mut};

use libfuzzer_sys::arbitrary::{Result as ArbResult, Unstructured};
use libfuzzer_sys::fuzz_target;
use xcover::dlx3::*;
use xcover::{xcover_status, xcover_status_message, xcover_writer};
use xcover_core::dlx3::{Dlx3, Settings, Workspace};

use xcover_core::dlx3::image::Item;

/// Bytes before and after the part of the arena that buffers are carved from.
const GUARD: usize = 64;
/// Bytes buffers may be carved from (a workspace header alone is several hundred bytes).
const USABLE: usize = 12 * 1024;
const ARENA: usize = GUARD + USABLE + GUARD;
const PATTERN: u8 = 0xA5;

/// Counts the bytes the library hands to a writer, reading every one (so a bad pointer or
/// length shows up under the sanitizer).
unsafe extern "C" fn count_bytes(ctx: *mut core::ffi::c_void, bytes: *const c_char, len: usize) {
    if len == 0 {
        return;
    }
    assert!(!bytes.is_null(), "writer called with NULL and len {len}");
    // SAFETY: the library promises `len` readable bytes.
    let s = unsafe { core::slice::from_raw_parts(bytes.cast::<u8>(), len) };
    let sum = s.iter().fold(0usize, |a, &b| a.wrapping_add(b as usize));
    if !ctx.is_null() {
        // SAFETY: ctx is the `usize` counter of the current run (see `Run::counter`).
        unsafe { *ctx.cast::<usize>() = (*ctx.cast::<usize>()).wrapping_add(sum + len) };
    }
}

/// A workspace the caller created (its handle may be stale, but its header bytes have
/// not been handed to any other workspace since).
struct Record {
    off: usize,
    size: usize,
    handle: *mut dlx3_workspace,
    released: bool,
}

/// A preloaded image and the arrays it points to (never changed while in use).
struct Image {
    names: Vec<[u8; 8]>,
    items: Vec<dlx3_item>,
    nodes: Vec<dlx3_node>,
    image: dlx3_image,
}

struct Run {
    arena: Box<[u64]>,
    /// Ranges of the arena lent to some workspace (may be written by the library), sorted
    /// and merged.
    lent: Vec<(usize, usize)>,
    records: Vec<Record>,
    images: Vec<Box<Image>>,
    counter: Box<usize>,
    /// Item names added so far (NUL-padded), to build options that mostly make sense.
    names: Vec<[u8; 9]>,
}

impl Run {
    fn new() -> Run {
        let arena = vec![u64::from_ne_bytes([PATTERN; 8]); ARENA / 8].into_boxed_slice();
        Run {
            arena,
            lent: Vec::new(),
            records: Vec::new(),
            images: Vec::new(),
            counter: Box::new(0),
            names: Vec::new(),
        }
    }

    fn base(&mut self) -> *mut u8 {
        self.arena.as_mut_ptr().cast::<u8>()
    }

    /// The guard check: every byte never lent to a workspace still has the pattern.
    fn check_guards(&self, what: &str) {
        // SAFETY: the arena is ARENA initialized bytes.
        let bytes = unsafe { core::slice::from_raw_parts(self.arena.as_ptr().cast::<u8>(), ARENA) };
        let mut from = 0;
        // `lent` is sorted and merged: check the gaps between its ranges.
        for &(start, end) in self.lent.iter().chain(core::iter::once(&(ARENA, ARENA))) {
            if let Some(i) = bytes[from..start].iter().position(|&b| b != PATTERN) {
                panic!(
                    "{what}: byte {} of the arena (outside every workspace) was written",
                    from + i
                );
            }
            from = end;
        }
    }

    /// Settings, and the writers to set after init (if any).
    fn settings(
        &mut self,
        u: &mut Unstructured,
    ) -> ArbResult<(dlx3_settings, Option<dlx3_writers>)> {
        let mut s = dlx3_settings::DEFAULT;
        if u.arbitrary::<bool>()? {
            return Ok((s, None));
        }
        let writer = xcover_writer {
            write: Some(count_bytes),
            ctx: (&mut *self.counter as *mut usize).cast(),
        };
        s.verbosity = u.arbitrary()?;
        s.spacing = u.int_in_range(-2..=3)?;
        s.randomize = u.int_in_range(0..=1)?;
        s.random_seed = u.arbitrary()?;
        s.delta = u.int_in_range(0..=100_000u64)?.max(64);
        s.show_choices_max = u.int_in_range(-1..=20)?;
        s.show_levels_max = u.int_in_range(-1..=20)?;
        s.show_choices_gap = u.int_in_range(-1..=20)?;
        s.reserved = if u.ratio(1, 16)? { 1 } else { 0 };
        s.max_count = u.int_in_range(0..=10u64)?;
        s.timeout = u.int_in_range(0..=1_000_000u64)?;
        let mut writers = dlx3_writers {
            out: xcover_writer::DISCARD,
            err: xcover_writer::DISCARD,
            shape: xcover_writer::DISCARD,
        };
        for w in [&mut writers.out, &mut writers.err, &mut writers.shape] {
            if u.arbitrary()? {
                *w = writer;
            }
        }
        Ok((s, u.arbitrary::<bool>()?.then_some(writers)))
    }

    /// Sets `writers` on a workspace just made (it must accept them).
    fn set_writers(handle: *mut dlx3_workspace, writers: Option<dlx3_writers>) {
        if let Some(w) = writers {
            // SAFETY: `handle` is a live workspace; `w` is a local; the counter outlives it.
            let st = unsafe { dlx3_set_writers(handle, &w) };
            assert_eq!(
                st,
                xcover_status::XCOVER_OK,
                "set_writers on a fresh workspace"
            );
        }
    }

    /// A handle to pass: a recorded one, NULL, misaligned, or one into never-lent bytes.
    fn handle(&mut self, u: &mut Unstructured) -> ArbResult<*mut dlx3_workspace> {
        let kind: u8 = u.int_in_range(0..=15)?;
        Ok(match kind {
            0 => null_mut(),
            1 => {
                // Aligned, readable, never a workspace: the trailing guard.
                let base = self.base();
                base.wrapping_add(GUARD + USABLE).cast()
            }
            2 if !self.records.is_empty() => {
                let i = u.choose_index(self.records.len())?;
                let k = u.int_in_range(1..=7)?;
                self.records[i].handle.cast::<u8>().wrapping_add(k).cast()
            }
            _ if !self.records.is_empty() => {
                // Mostly the newest workspace.
                let n = self.records.len();
                let i = if u.ratio(3, 4)? {
                    n - 1
                } else {
                    u.choose_index(n)?
                };
                self.records[i].handle
            }
            _ => null_mut(),
        })
    }

    /// Buffer placement: offset (maybe misaligned) and length inside the usable part.
    fn placement(
        &mut self,
        u: &mut Unstructured,
        size: Option<usize>,
    ) -> ArbResult<(usize, usize)> {
        let off = match u.int_in_range(0..=3)? {
            0 => 0,
            1 => u.int_in_range(0..=USABLE / 8)? * 8,
            2 => u.int_in_range(0..=USABLE)?,
            _ => self.records.last().map_or(0, |r| r.off - GUARD),
        };
        let room = USABLE - off.min(USABLE);
        let want = match (u.int_in_range(0..=3)?, size) {
            (0, Some(s)) => s,
            (1, Some(s)) => s.saturating_sub(u.int_in_range(1..=64)?),
            (2, Some(s)) => s + u.int_in_range(0..=64)?,
            _ => u.int_in_range(0..=USABLE)?,
        };
        Ok((GUARD + off, want.min(room)))
    }

    /// Lends `[off, off + len)` to a workspace about to be created there: records whose
    /// memory overlaps it (at another offset) are forgotten; the caller never uses them
    /// again, as a C program would not use a handle into memory it gave away.
    fn lend(&mut self, off: usize, len: usize) {
        let end = off + len;
        if len > 0 {
            self.lent.push((off, end));
            self.lent.sort_unstable();
            let mut merged: Vec<(usize, usize)> = Vec::with_capacity(self.lent.len());
            for &(a, b) in &self.lent {
                match merged.last_mut() {
                    Some(last) if a <= last.1 => last.1 = last.1.max(b),
                    _ => merged.push((a, b)),
                }
            }
            self.lent = merged;
        }
        self.records
            .retain(|r| r.off == off || r.off + r.size <= off || end <= r.off);
    }

    fn record(&mut self, off: usize, size: usize, handle: *mut dlx3_workspace) {
        assert_eq!(
            handle.cast::<u8>(),
            self.base().wrapping_add(off),
            "handle not at buf"
        );
        self.records.retain(|r| r.off != off);
        self.records.push(Record {
            off,
            size,
            handle,
            released: false,
        });
        self.names.clear();
    }

    fn init(&mut self, u: &mut Unstructured) -> ArbResult<xcover_status> {
        let items = pick_capacity(u, 40)?;
        let nodes = pick_capacity(u, 400)?;
        let levels = pick_capacity(u, 40)?;
        let mut size = 0usize;
        // SAFETY: valid out pointers.
        let st = unsafe { dlx3_workspace_size(items, nodes, levels, &mut size, null_mut()) };
        let size = (st == xcover_status::XCOVER_OK).then_some(size);
        let (off, len) = self.placement(u, size)?;
        let (settings, writers) = self.settings(u)?;
        let mut handle: *mut dlx3_workspace = null_mut();
        let base = self.base();
        // Lend what the library may write: [buf, buf + min(len, size)).
        let may_write = size.map_or(0, |s| s.min(len));
        self.lend(off, may_write);
        let settings_ptr: *const dlx3_settings = if u.ratio(1, 8)? { null() } else { &settings };
        let handle_ptr: *mut *mut dlx3_workspace = if u.ratio(1, 32)? {
            null_mut()
        } else {
            &mut handle
        };
        // SAFETY: buf is `len` bytes of the arena, other pointers valid or NULL.
        let st = unsafe {
            dlx3_init(
                base.add(off).cast(),
                len,
                items,
                nodes,
                levels,
                settings_ptr,
                handle_ptr,
            )
        };
        if st == xcover_status::XCOVER_OK {
            let s = size.expect("init succeeded although the size computation failed");
            assert!(len >= s, "init accepted {len} bytes < size {s}");
            assert_eq!(off % 8, 0, "init accepted a misaligned buffer");
            self.record(off, s, handle);
            Self::set_writers(handle, writers);
        } else {
            assert!(handle.is_null(), "init failed but wrote the handle");
            if off % 8 != 0 && size.is_some() && !handle_ptr.is_null() && settings.reserved == 0 {
                assert_eq!(st, xcover_status::XCOVER_MISALIGNED);
            }
        }
        Ok(st)
    }

    /// Builds an image from a small text parsed by the core engine, then mutates it.
    fn make_image(&mut self, u: &mut Unstructured) -> ArbResult<usize> {
        let text: &[u8] = match u.int_in_range(0..=3)? {
            0 => b"A B C | x y\nA x:1\nB x:2 y\nC y:3\nA B\nB C x:1\n",
            1 => b"a b c d\na b\nc d\na c\nb d\na\nb\nc\nd\n",
            2 => b"2:3|A B 0:1|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\nA\n",
            _ => {
                let n = u.int_in_range(0..=200)?;
                u.bytes(n)?
            }
        };
        let mut ws: Workspace<24, 200, 4> = Workspace::new();
        let storage = ws.as_mut_view();
        let mut img = Box::new(Image {
            names: Vec::new(),
            items: Vec::new(),
            nodes: Vec::new(),
            image: dlx3_image {
                version: DLX3_IMAGE_VERSION,
                last_itm: 0,
                second: 0,
                last_node: 0,
                options: 0,
                names: null(),
                items: null(),
                nodes: null(),
                items16: null(),
                nodes16: null(),
            },
        });
        if let Ok(mut e) = Dlx3::new(storage, Settings::DEFAULT) {
            if e.read_input(text, &mut xcover_core::sink::Discard).is_ok() {
                let l = e.layout();
                let li = l.last_itm as usize;
                img.names = (0..=li as u32)
                    .map(|k| {
                        if (k as usize) < li {
                            e.item_name(k)
                        } else {
                            [0; 8]
                        }
                    })
                    .collect();
                // `items()` stops before `last_itm`; the image has that (zero) record too.
                img.items = e.items()[..li]
                    .iter()
                    .chain(core::iter::once(&Item::ZERO))
                    .map(|i| dlx3_item {
                        prev: i.prev,
                        next: i.next,
                        bound: i.bound,
                        slack: i.slack,
                    })
                    .collect();
                img.nodes = e.nodes()[..=l.last_node as usize]
                    .iter()
                    .map(|n| dlx3_node {
                        up: n.up,
                        down: n.down,
                        itm: n.itm,
                        color: n.color,
                    })
                    .collect();
                img.image.last_itm = l.last_itm;
                img.image.second = l.second;
                img.image.last_node = l.last_node;
                img.image.options = l.options;
            }
        }
        // Mutations: fields of the records and of the layout.
        let mutations = u.int_in_range(0..=3)?;
        for _ in 0..mutations {
            match u.int_in_range(0..=5)? {
                0 if !img.nodes.is_empty() => {
                    let i = u.choose_index(img.nodes.len())?;
                    let n = &mut img.nodes[i];
                    match u.int_in_range(0..=3)? {
                        0 => n.up = u.int_in_range(0..=300)?,
                        1 => n.down = u.int_in_range(0..=300)?,
                        2 => n.itm = u.int_in_range(-20..=30)?,
                        _ => n.color = u.int_in_range(-2..=130)?,
                    }
                }
                1 if !img.items.is_empty() => {
                    let i = u.choose_index(img.items.len())?;
                    let it = &mut img.items[i];
                    match u.int_in_range(0..=3)? {
                        0 => it.prev = u.int_in_range(0..=30)?,
                        1 => it.next = u.int_in_range(0..=30)?,
                        2 => it.bound = u.int_in_range(-2..=5)?,
                        _ => it.slack = u.int_in_range(-2..=5)?,
                    }
                }
                2 => img.image.options = u.int_in_range(0..=20)?,
                3 => img.image.second = u.int_in_range(0..=img.image.last_itm + 1)?,
                4 if !img.names.is_empty() => {
                    let i = u.choose_index(img.names.len())?;
                    img.names[i] = u.arbitrary()?;
                }
                _ => img.image.version ^= 1,
            }
        }
        // The layout may only shrink (the arrays must cover what the image claims).
        if u.ratio(1, 8)? {
            img.image.last_node = img.image.last_node.saturating_sub(1);
        }
        if u.ratio(1, 8)? {
            img.image.last_itm = img.image.last_itm.saturating_sub(1);
        }
        img.image.names = if img.names.is_empty() {
            null()
        } else {
            img.names.as_ptr().cast()
        };
        img.image.items = if img.items.is_empty() {
            null()
        } else {
            img.items.as_ptr()
        };
        img.image.nodes = if img.nodes.is_empty() {
            null()
        } else {
            img.nodes.as_ptr()
        };
        self.images.push(img);
        Ok(self.images.len() - 1)
    }

    fn init_preloaded(&mut self, u: &mut Unstructured) -> ArbResult<xcover_status> {
        let k = if self.images.is_empty() || u.arbitrary()? {
            self.make_image(u)?
        } else {
            u.choose_index(self.images.len())?
        };
        let image: *const dlx3_image = &self.images[k].image;
        let levels = pick_capacity(u, 30)?;
        let mut size = 0usize;
        let mut align = 0usize;
        // SAFETY: the image and its arrays live in `self.images` until the run ends.
        let st = unsafe { dlx3_preloaded_workspace_size(image, levels, &mut size, &mut align) };
        let size = (st == xcover_status::XCOVER_OK).then_some(size);
        if size.is_some() {
            assert_eq!(align, DLX3_WORKSPACE_ALIGN);
        }
        let (off, len) = self.placement(u, size)?;
        let (settings, writers) = self.settings(u)?;
        let may_write = size.map_or(0, |s| s.min(len));
        self.lend(off, may_write);
        let mut handle: *mut dlx3_workspace = null_mut();
        let base = self.base();
        let image_ptr = if u.ratio(1, 32)? { null() } else { image };
        // SAFETY: as in `init`; the image outlives every workspace made from it.
        let st = unsafe {
            dlx3_init_preloaded(
                base.add(off).cast(),
                len,
                image_ptr,
                levels,
                &settings,
                &mut handle,
            )
        };
        if st == xcover_status::XCOVER_OK {
            let s = size.expect("preloaded init succeeded although its size failed");
            assert!(len >= s && off % 8 == 0);
            self.record(off, s, handle);
            Self::set_writers(handle, writers);
        } else {
            assert!(
                handle.is_null(),
                "init_preloaded failed but wrote the handle"
            );
        }
        Ok(st)
    }

    /// A NUL-terminated item name: mostly one of the names added, or a short new one.
    fn name(&self, u: &mut Unstructured) -> ArbResult<[u8; 13]> {
        let mut buf = [0u8; 13];
        if !self.names.is_empty() && u.ratio(3, 4)? {
            let n = &self.names[u.choose_index(self.names.len())?];
            buf[..9].copy_from_slice(n);
        } else {
            let len = u.int_in_range(0..=12)?;
            for b in &mut buf[..len] {
                *b = match u.int_in_range(0..=7)? {
                    0 => u.arbitrary()?,
                    1 => b':',
                    2 => b'|',
                    3 => b' ',
                    _ => u.int_in_range(b'a'..=b'f')?,
                };
            }
        }
        buf[12] = 0;
        Ok(buf)
    }

    fn step(&mut self, u: &mut Unstructured) -> ArbResult<()> {
        let op: u8 = u.int_in_range(0..=19)?;
        let st: xcover_status = match op {
            0 => self.init(u)?,
            1 => self.init_preloaded(u)?,
            2 => {
                let h = self.handle(u)?;
                let n = u.int_in_range(0..=300)?;
                let text = u.bytes(n)?.to_vec();
                let mut info = dlx3_parse_error {
                    status: xcover_status::XCOVER_INTERNAL_ERROR,
                    line: 0,
                    position: 0,
                    reserved: 0,
                    line_offset: 0,
                    line_length: 0,
                    message: null(),
                };
                let info_ptr = if u.ratio(1, 4)? {
                    null_mut()
                } else {
                    &mut info
                };
                let text_ptr = if n == 0 && u.arbitrary()? {
                    null()
                } else {
                    text.as_ptr()
                };
                // SAFETY: text is n readable bytes (or NULL with 0); info writable or NULL.
                let st = unsafe { dlx3_parse(h, text_ptr, n, info_ptr) };
                if !info_ptr.is_null() {
                    assert_eq!(
                        info.status, st,
                        "parse error info disagrees with the status"
                    );
                    assert!(info.line_offset.saturating_add(info.line_length) <= n);
                    if !info.message.is_null() {
                        // SAFETY: documented as a static NUL-terminated string.
                        let _ = unsafe { core::ffi::CStr::from_ptr(info.message) };
                    }
                }
                st
            }
            3 => {
                let h = self.handle(u)?;
                let name = self.name(u)?;
                let (lo, hi) = (u.int_in_range(0..=3)?, u.int_in_range(0..=3)?);
                let secondary = u.int_in_range(0..=1)?;
                let name_ptr = if u.ratio(1, 32)? {
                    null()
                } else {
                    name.as_ptr().cast()
                };
                // SAFETY: NUL-terminated name or NULL.
                let st = unsafe { dlx3_add_item(h, name_ptr, lo, hi, secondary) };
                if st == xcover_status::XCOVER_OK && self.names.len() < 64 {
                    let mut n = [0u8; 9];
                    n.copy_from_slice(&name[..9]);
                    n[8] = 0;
                    self.names.push(n);
                }
                st
            }
            4 => {
                let h = self.handle(u)?;
                let n = u.int_in_range(0..=6)?;
                let mut names = Vec::with_capacity(n);
                for _ in 0..n {
                    names.push(self.name(u)?);
                }
                let ptrs: Vec<*const c_char> = names.iter().map(|b| b.as_ptr().cast()).collect();
                let mut colors = vec![0u8; n];
                for c in &mut colors {
                    *c = match u.int_in_range(0..=5)? {
                        0 => u.arbitrary()?,
                        1 => b'r',
                        2 => b'g',
                        _ => 0,
                    };
                }
                let colors_ptr = if u.arbitrary()? {
                    null()
                } else {
                    colors.as_ptr().cast()
                };
                let names_ptr = if n == 0 && u.arbitrary()? {
                    null()
                } else {
                    ptrs.as_ptr()
                };
                // SAFETY: n NUL-terminated names; colors NULL or n bytes.
                unsafe { dlx3_add_option(h, names_ptr, colors_ptr, n) }
            }
            5..=8 => {
                let h = self.handle(u)?;
                let budget = match u.int_in_range(0..=3)? {
                    0 => 0,
                    1 => u.int_in_range(1..=100)?,
                    2 => u.int_in_range(100..=20_000)?,
                    _ => 200_000,
                };
                // SAFETY: handle valid, NULL, misaligned or pointing at readable guard bytes.
                unsafe { dlx3_solve_step(h, budget) }
            }
            9 => {
                let h = self.handle(u)?;
                let mut len = 0usize;
                // SAFETY: as above; len writable.
                let st = unsafe { dlx3_solution_len(h, &mut len) };
                if st == xcover_status::XCOVER_OK {
                    for level in 0..len.min(8) + 1 {
                        let (mut opt, mut null_item) = (0u32, 0u32);
                        let np = if u.arbitrary()? {
                            null_mut()
                        } else {
                            &mut null_item
                        };
                        // SAFETY: as above.
                        let s = unsafe { dlx3_solution_option(h, level, &mut opt, np) };
                        self.check(s, "dlx3_solution_option");
                        if level == len {
                            assert_eq!(s, xcover_status::XCOVER_BAD_ARGUMENT);
                        }
                    }
                }
                st
            }
            10 => {
                let h = self.handle(u)?;
                let level = u.int_in_range(0..=10)?;
                let mut opt = 0u32;
                // SAFETY: as above.
                unsafe { dlx3_solution_option(h, level, &mut opt, null_mut()) }
            }
            11 => {
                let h = self.handle(u)?;
                let option = u.int_in_range(0..=12)?;
                let mut len = 0usize;
                // SAFETY: as above.
                let st = unsafe { dlx3_option_len(h, option, &mut len) };
                if st == xcover_status::XCOVER_OK {
                    for index in 0..len.min(16) + 1 {
                        let (mut item, mut color) = (0u32, 0u8);
                        let ip = if u.arbitrary()? {
                            null_mut()
                        } else {
                            &mut item
                        };
                        // SAFETY: as above.
                        let s = unsafe { dlx3_option_item(h, option, index, ip, &mut color) };
                        self.check(s, "dlx3_option_item");
                        if index == len {
                            assert_eq!(s, xcover_status::XCOVER_BAD_ARGUMENT);
                        }
                    }
                }
                st
            }
            12 => {
                let h = self.handle(u)?;
                let item = u.int_in_range(0..=30)?;
                let cap = u.int_in_range(0..=12)?;
                let mut name = [0x5au8; 12];
                let np: *mut c_char = if u.ratio(1, 16)? {
                    null_mut()
                } else {
                    name.as_mut_ptr().cast()
                };
                // SAFETY: name has `cap` <= 12 writable bytes.
                let st = unsafe { dlx3_item_name(h, item, np, cap) };
                if st == xcover_status::XCOVER_OK {
                    assert!(name[..cap].contains(&0), "item name not NUL-terminated");
                    assert!(
                        name[cap..].iter().all(|&b| b == 0x5a),
                        "wrote past capacity"
                    );
                } else {
                    assert!(name.iter().all(|&b| b == 0x5a), "failed item_name wrote");
                }
                st
            }
            13 => {
                let h = self.handle(u)?;
                let mut stats = [0u64; 12];
                let p: *mut dlx3_stats = if u.ratio(1, 16)? {
                    null_mut()
                } else if u.ratio(1, 16)? {
                    stats.as_mut_ptr().cast::<u8>().wrapping_add(4).cast()
                } else {
                    stats.as_mut_ptr().cast()
                };
                // SAFETY: 96 writable bytes >= 88 + 4 (size of dlx3_stats, maybe offset).
                unsafe { dlx3_get_stats(h, p) }
            }
            14 => {
                let h = self.handle(u)?;
                let mut state = 0u32;
                // SAFETY: as above.
                let st = unsafe { dlx3_get_state(h, &mut state) };
                if st == xcover_status::XCOVER_OK {
                    assert!((1..=7).contains(&state), "unknown state {state}");
                }
                st
            }
            15 => {
                let h = self.handle(u)?;
                // SAFETY: as above.
                let st = unsafe { dlx3_release(h) };
                if st == xcover_status::XCOVER_OK {
                    for r in &mut self.records {
                        if r.handle == h {
                            r.released = true;
                        }
                    }
                    let mut state = 0u32;
                    // SAFETY: the buffer is still ours.
                    let again = unsafe { dlx3_get_state(h, &mut state) };
                    assert_eq!(again, xcover_status::XCOVER_NOT_INITIALIZED);
                }
                st
            }
            16 => {
                let mut buf = [0u64; 16];
                let p: *mut dlx3_settings = match u.int_in_range(0..=3)? {
                    0 => null_mut(),
                    1 => buf
                        .as_mut_ptr()
                        .cast::<u8>()
                        .wrapping_add(u.int_in_range(1..=7)?)
                        .cast(),
                    _ => buf.as_mut_ptr().cast(),
                };
                // SAFETY: 128 bytes >= size of dlx3_settings + 7.
                unsafe { dlx3_settings_default(p) }
            }
            17 => {
                let items = pick_capacity(u, 1 << 20)?;
                let nodes = pick_capacity(u, 1 << 30)?;
                let levels = pick_capacity(u, 1000)?;
                let (mut size, mut align) = (0usize, 0usize);
                let ap = if u.arbitrary()? {
                    null_mut()
                } else {
                    &mut align
                };
                let sp = if u.ratio(1, 16)? {
                    null_mut()
                } else {
                    &mut size
                };
                // SAFETY: out pointers valid or NULL.
                unsafe { dlx3_workspace_size(items, nodes, levels, sp, ap) }
            }
            18 => {
                let n = u.int_in_range(0..=200)?;
                let text = u.bytes(n)?.to_vec();
                let (mut items, mut nodes) = (0usize, 0usize);
                let tp = if n == 0 && u.arbitrary()? {
                    null()
                } else {
                    text.as_ptr()
                };
                // SAFETY: text n bytes; outs valid.
                unsafe { dlx3_text_capacity(tp, n, &mut items, &mut nodes) }
            }
            _ => {
                let s: u32 = u.arbitrary()?;
                let m = xcover_status_message(s);
                assert!(!m.is_null());
                // SAFETY: documented static NUL-terminated string.
                let _ = unsafe { core::ffi::CStr::from_ptr(m) };
                xcover_status::XCOVER_OK
            }
        };
        if trace() {
            eprintln!("op {op:2} -> {st:?} ({} workspaces)", self.records.len());
        }
        self.check(st, "call");
        Ok(())
    }

    fn check(&self, st: xcover_status, what: &str) {
        assert_ne!(
            st,
            xcover_status::XCOVER_INTERNAL_ERROR,
            "{what}: internal error"
        );
        self.check_guards(what);
    }
}

/// `XCOVER_FUZZ_TRACE=1` prints every call and its status (to read what an input does).
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("XCOVER_FUZZ_TRACE").is_some())
}

/// A capacity: 0, small, around `typical`, or huge (overflowing sizes).
fn pick_capacity(u: &mut Unstructured, typical: usize) -> ArbResult<usize> {
    Ok(match u.int_in_range(0..=7)? {
        0 => 0,
        1 => 1,
        2 => usize::MAX - u.int_in_range(0..=8)?,
        3 => 1 << u.int_in_range(8..=62)?,
        _ => u.int_in_range(2..=typical)?,
    })
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let mut run = Run::new();
    for _ in 0..64 {
        if u.is_empty() || run.step(&mut u).is_err() {
            break;
        }
    }
    // The caller ends every workspace it still owns.
    let handles: Vec<_> = run
        .records
        .iter()
        .filter(|r| !r.released)
        .map(|r| r.handle)
        .collect();
    for h in handles {
        // SAFETY: a recorded handle whose header is still ours.
        let st = unsafe { dlx3_release(h) };
        run.check(st, "final release");
    }
});

//! The bit-set search against DLX3's uncounted search on random plain exact covers.
use super::layout::{BitError, Layout, Matrix, WorkspaceView, COUNTS, WORD_BITS};
use super::search::{BitCover, Step};
use crate::dlx3::{Dlx3, Event, HeapWorkspace, Settings};
use crate::sink::Discard;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// A random plain exact cover from `seed`: `primary` primary items, up to 4 secondary
/// ones, `options` options of 1 to 3 + `seed % 4` primary items (all the loops of
/// `descend`) and up to 2 secondary ones, uncolored
/// or colored `a` or `b`. Returns Knuth's text and the entries of each option.
fn random_problem(seed: u64, primary: u64, options: u64) -> (String, usize, Vec<Vec<(u32, i32)>>) {
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(7);
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % n
    };
    let secondary = next(5);
    let mut text: String = (0..primary).map(|p| format!("p{p} ")).collect();
    if secondary > 0 {
        text += "|";
        (0..secondary).for_each(|s| text += &format!(" s{s}"));
    }
    text += "\n";
    let mut all = Vec::new();
    for _ in 0..options {
        let mut entries: Vec<(u32, i32)> = Vec::new();
        for _ in 0..1 + next(3 + seed % 4) {
            let k = next(primary) as u32;
            if !entries.iter().any(|e| e.0 == k) {
                entries.push((k, 0));
            }
        }
        for _ in 0..next(3) {
            if secondary == 0 {
                break;
            }
            let k = (primary + next(secondary)) as u32;
            if !entries.iter().any(|e| e.0 == k) {
                entries.push((k, [0, 97, 98][next(3) as usize]));
            }
        }
        let line: Vec<String> = entries
            .iter()
            .map(|&(k, c)| match (u64::from(k) < primary, c) {
                (true, _) => format!("p{k}"),
                (false, 0) => format!("s{}", u64::from(k) - primary),
                (false, c) => format!("s{}:{}", u64::from(k) - primary, c as u8 as char),
            })
            .collect();
        text += &line.join(" ");
        text += "\n";
        all.push(entries);
    }
    (text, (primary + secondary) as usize, all)
}

/// DLX3's uncounted search of `text`: its solutions (options numbered from 0), nodes and
/// deepest level.
fn dlx3_search(text: &str) -> (Vec<Vec<u16>>, u64, u32) {
    let mut ws = HeapWorkspace::for_input(text.as_bytes());
    let mut e = Dlx3::new(ws.as_mut_view(), Settings::new()).expect("storage");
    e.read_input(text.as_bytes(), &mut Discard).expect("reads");
    let mut option_of = vec![0u32; e.nodes().len()];
    e.node_options(&mut option_of);
    let mut found = Vec::new();
    loop {
        match e.run_uncounted(u64::MAX, true).expect("runs") {
            Event::Done(_) => break,
            Event::Solution => found.push(
                (0..e.depth())
                    .map(|l| {
                        let p = e.solution_node(l).expect("a move") as usize;
                        (option_of[p] - 1) as u16
                    })
                    .collect(),
            ),
            _ => {}
        }
    }
    let s = e.stats();
    (found, s.nodes, s.maxl)
}

/// Owned storage for a [`WorkspaceView`].
struct Owned<const W: usize> {
    sets: [Vec<[u64; W]>; 4],
    prims: Vec<u8>,
    counts: Vec<i16>,
    chosen: Vec<u16>,
}

impl<const W: usize> Owned<W> {
    fn new(l: &Layout) -> Self {
        let sets = [l.options, l.primary, l.levels, l.levels].map(|n| vec![[0; W]; n]);
        Owned {
            sets,
            prims: vec![0; l.options * l.stride],
            counts: vec![0; l.levels * COUNTS],
            chosen: vec![0; l.levels],
        }
    }

    fn view(&mut self) -> WorkspaceView<'_, W> {
        let [conflicts, item_options, live, candidates] = &mut self.sets;
        WorkspaceView {
            conflicts,
            item_options,
            prims: &mut self.prims,
            live,
            candidates,
            counts: &mut self.counts,
            chosen: &mut self.chosen,
        }
    }
}

/// The bit-set search of `m`, `budget` nodes a call: its solutions, nodes, deepest level.
fn bit_search<const W: usize>(m: &Matrix<'_>, budget: u64) -> (Vec<Vec<u16>>, u64, u32) {
    let mut owned = Owned::<W>::new(&Layout::of::<W>(m).expect("fits"));
    let mut s = BitCover::new(owned.view(), m).expect("fits");
    let mut found = Vec::new();
    loop {
        match s.run(budget, true) {
            Step::Done => break,
            Step::Solution => found.push(s.solution().to_vec()),
            Step::Paused => assert!(s.solution().is_empty()),
        }
    }
    (found, s.nodes(), s.max_level() as u32)
}

fn flat(options: &[Vec<(u32, i32)>]) -> (Vec<u32>, Vec<(u32, i32)>) {
    let mut starts = vec![0];
    let mut entries = Vec::new();
    for o in options {
        entries.extend_from_slice(o);
        starts.push(entries.len() as u32);
    }
    (starts, entries)
}

#[test]
fn the_bit_sets_make_dlx3s_tree_on_random_problems() {
    let mut solved = 0;
    for seed in 0..400 {
        let (primary, options) = (2 + seed % 9, 3 + (seed * 7) % 100);
        let (text, items, all) = random_problem(seed, primary, options);
        let (starts, entries) = flat(&all);
        let m = Matrix {
            primary: primary as usize,
            items,
            starts: &starts,
            entries: &entries,
        };
        let want = dlx3_search(&text);
        solved += usize::from(!want.0.is_empty());
        for budget in [u64::MAX, 1, 3] {
            assert_eq!(bit_search::<2>(&m, budget), want, "{seed} {budget}\n{text}");
        }
        if options <= 64 {
            assert_eq!(bit_search::<1>(&m, u64::MAX), want, "{seed}\n{text}");
        }
    }
    assert!(solved > 100, "{solved}");
}

#[test]
fn counting_without_stopping_finds_as_many() {
    let (_, items, all) = random_problem(5, 6, 60);
    let (starts, entries) = flat(&all);
    let m = Matrix {
        primary: 6,
        items,
        starts: &starts,
        entries: &entries,
    };
    let (found, nodes, _) = bit_search::<1>(&m, u64::MAX);
    let mut owned = Owned::<1>::new(&Layout::of::<1>(&m).unwrap());
    let mut s = BitCover::new(owned.view(), &m).unwrap();
    while s.run(7, false) != Step::Done {
        assert!(!s.at_solution());
    }
    assert_eq!((s.solutions(), s.nodes()), (found.len() as u64, nodes));
    assert!(!found.is_empty());
}

#[test]
fn a_problem_or_workspace_that_does_not_fit_is_refused() {
    let entries = vec![(0, 0); 65];
    let starts: Vec<u32> = (0..=65).collect();
    let m = Matrix {
        primary: 1,
        items: 1,
        starts: &starts,
        entries: &entries,
    };
    assert_eq!(Layout::of::<1>(&m), Err(BitError::TooLarge));
    let l = Layout::of::<2>(&m).unwrap();
    assert_eq!((l.options, l.stride, l.levels), (65, 1, 2));
    let mut owned = Owned::<2>::new(&l);
    owned.counts.pop();
    assert_eq!(
        BitCover::new(owned.view(), &m).err(),
        Some(BitError::SmallWorkspace)
    );
    let bad = Matrix { items: 0, ..m };
    assert_eq!(Layout::of::<2>(&bad), Err(BitError::BadMatrix));
    let backwards = [0, 2, 1];
    let bad = Matrix {
        starts: &backwards,
        entries: &entries[..1],
        ..m
    };
    assert_eq!(Layout::of::<2>(&bad), Err(BitError::BadMatrix));
    let twice = [(0, 0), (1, 0), (0, 0)];
    let bad = Matrix {
        primary: 2,
        items: 2,
        starts: &[0, 3],
        entries: &twice,
    };
    assert_eq!(Layout::of::<1>(&bad), Err(BitError::BadMatrix));
    assert_eq!(Layout::of::<9>(&m), Err(BitError::TooLarge));
    assert_eq!(WORD_BITS * 2, 128);
}

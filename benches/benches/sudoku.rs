//! Sudoku solver and UA generation benchmarks (xcover_core::gridcheck).
//!
//! Reads the shared 17-clue list from `../shared/data/sudoku17.txt` beside the repository
//! (never copied into it). Run: `cargo bench -p xcover-benches --bench sudoku`.
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xcover_core::gridcheck::ua::{generate, UaList};
use xcover_core::gridcheck::{solver, Cells, Grid, Puzzle};

/// The first `n` puzzles of the shared list with their solutions.
fn puzzles(n: usize) -> Vec<(Puzzle, Grid)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku17.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e} (the shared data sits beside the repository)",
            path.display()
        )
    });
    text.lines()
        .take(n)
        .map(|l| {
            let p = Puzzle::parse(l.as_bytes()).expect("a puzzle line");
            let g = Grid::from_digits(solver::solve(&p).expect("solvable")).expect("valid");
            (p, g)
        })
        .collect()
}

fn solver_benches(c: &mut Criterion) {
    let set = puzzles(2000);
    let mut group = c.benchmark_group("sudoku17");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("is_unique_with_grid", |b| {
        b.iter(|| {
            set.iter()
                .filter(|(p, g)| solver::is_unique_with_grid(g, p.givens()))
                .count()
        })
    });
    group.bench_function("is_unique_with_grid_16", |b| {
        b.iter(|| {
            set.iter()
                .filter(|(p, g)| {
                    let givens = p.givens();
                    let dropped = givens - Cells::single(givens.lowest().unwrap_or(0));
                    solver::is_unique_with_grid(g, dropped)
                })
                .count()
        })
    });
    group.bench_function("count_solutions_limit2", |b| {
        b.iter(|| {
            set.iter()
                .map(|(p, _)| solver::count_solutions(p, 2))
                .sum::<u32>()
        })
    });
    group.finish();
}

fn ua_benches(c: &mut Criterion) {
    let (_, grid) = puzzles(1)[0];
    let mut storage = vec![Cells::EMPTY; 400_000];
    let mut scratch = vec![Cells::EMPTY; 200_000];
    let mut group = c.benchmark_group("ua");
    group.sample_size(10);
    group.bench_function("digits4", |b| {
        b.iter(|| {
            let mut list = UaList::new(&mut storage);
            generate::from_digit_subsets(&grid, 4, &mut list, &mut scratch).unwrap();
            list.len()
        })
    });
    group.bench_function("random1000", |b| {
        b.iter(|| {
            let mut list = UaList::new(&mut storage);
            generate::from_random_blanks(&grid, 1000, 54, 1, &mut list, &mut scratch).unwrap();
            list.len()
        })
    });
    group.finish();
}

criterion_group!(benches, solver_benches, ua_benches);
criterion_main!(benches);

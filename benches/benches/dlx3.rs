//! DLX3 engine benchmarks: counting all solutions (as `dlx3 m0 v0`) of
//! * n-queens, n = 8..=12, in Knuth's `queens-dlx` encoding;
//! * multiplicities: "8 of 6 queens" (`6|Q`, every line `0:1`) and queens with `0:1`
//!   diagonals as primary items (null moves);
//! * colour controls: a 2x3 edge-matching puzzle with 2 colours;
//! * polyomino packing: the twelve pentominoes into 3x20 (many options per item);
//! * random tie breaks: queens 10 with `s1`, against the same count without;
//!
//! and parsing alone: a 90x100 domino board (9000 items, 17810 options) and queens 32.
//!
//! Every problem's solution count is asserted once before timing, so a bench can't time a
//! wrong answer.
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use xcover_benches::{
    count, dominoes_dlx, edge_matching_dlx, load, pentominoes_dlx, queens_diag01_dlx, queens_dlx,
    queens_k_dlx, quiet_settings, Discard, HeapWorkspace,
};
use xcover_core::dlx3::{ArgOutcome, Settings};

/// Counts solutions of `input`, checking the count against `expected`.
fn solve(input: &[u8], expected: u64) -> u64 {
    solve_with(input, quiet_settings(), expected)
}

/// [`solve`] with the given settings.
fn solve_with(input: &[u8], settings: Settings, expected: u64) -> u64 {
    let stats = count(input, settings).expect("engine error");
    assert_eq!(stats.count, expected, "wrong solution count");
    stats.mems
}

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("dlx3/queens");
    group.sample_size(10);
    // OEIS A000170
    for (n, sols) in [(8, 92), (9, 352), (10, 724), (11, 2680), (12, 14200)] {
        let input = queens_dlx(n);
        let mems = solve(input.as_bytes(), sols);
        group.throughput(Throughput::Elements(mems));
        group.bench_with_input(BenchmarkId::from_parameter(n), &input, |b, input| {
            b.iter(|| solve(black_box(input.as_bytes()), sols))
        });
    }
    group.finish();
}

fn multiplicities(c: &mut Criterion) {
    let mut group = c.benchmark_group("dlx3/multiplicity");
    group.sample_size(10);
    // counts as printed by Knuth's dlx3 for the same inputs
    let cases = [
        ("k6_queens_8x8", queens_k_dlx(8, 6), 22708),
        ("queens10_diag01", queens_diag01_dlx(10), 724),
    ];
    for (name, input, sols) in cases {
        let mems = solve(input.as_bytes(), sols);
        group.throughput(Throughput::Elements(mems));
        group.bench_function(name, |b| {
            b.iter(|| solve(black_box(input.as_bytes()), sols))
        });
    }
    group.finish();
}

/// One counting bench `group/name`, of `input` with `settings`, expecting `sols`.
fn bench_count(
    c: &mut Criterion,
    group: &str,
    name: &str,
    input: &str,
    settings: Settings,
    sols: u64,
) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    let mems = solve_with(input.as_bytes(), settings, sols);
    group.throughput(Throughput::Elements(mems));
    group.bench_function(name, |b| {
        b.iter(|| solve_with(black_box(input.as_bytes()), settings, sols))
    });
    group.finish();
}

fn colours(c: &mut Criterion) {
    let input = edge_matching_dlx(2, 3, 2);
    // 46960 as printed by Knuth's dlx3 for the same input
    let settings = quiet_settings();
    bench_count(
        c,
        "dlx3/colour",
        "edge_matching_2x3_2c",
        &input,
        settings,
        46960,
    );
}

fn polyominoes(c: &mut Criterion) {
    let input = pentominoes_dlx(3, 20);
    let settings = quiet_settings();
    bench_count(c, "dlx3/polyomino", "pentominoes_3x20", &input, settings, 8);
}

fn random(c: &mut Criterion) {
    // The same problem and count as dlx3/queens/10, with random tie breaks.
    let mut settings = quiet_settings();
    assert_eq!(settings.apply_arg(b"s1"), ArgOutcome::Set);
    bench_count(
        c,
        "dlx3/random",
        "queens10_s1",
        &queens_dlx(10),
        settings,
        724,
    );
}

fn parsing(c: &mut Criterion) {
    let mut group = c.benchmark_group("dlx3/parse");
    group.sample_size(20);
    let cases = [
        ("dominoes_90x100", dominoes_dlx(90, 100), 17810),
        ("queens32", queens_dlx(32), 1024),
    ];
    for (name, input, options) in cases {
        let mut workspace = HeapWorkspace::for_input(input.as_bytes());
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let engine = load(
                    black_box(input.as_bytes()),
                    quiet_settings(),
                    &mut workspace,
                    &mut Discard,
                )
                .expect("parse error");
                assert_eq!(engine.option_count(), options);
                engine.stats().imems
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    queens,
    multiplicities,
    colours,
    polyominoes,
    random,
    parsing
);
criterion_main!(benches);

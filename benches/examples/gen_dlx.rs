//! Writes one of the generated DLX3 inputs to stdout, for running the same problem through
//! other programs: `gen_dlx queens N | gen_dlx queens_k N K | gen_dlx diag01 N |
//! gen_dlx edges ROWS COLS COLOURS | gen_dlx dominoes ROWS COLS`.
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> usize {
        args.get(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let text = match args.first().map(String::as_str) {
        Some("queens") => xcover_benches::queens_dlx(num(1)),
        Some("queens_k") => xcover_benches::queens_k_dlx(num(1), num(2)),
        Some("diag01") => xcover_benches::queens_diag01_dlx(num(1)),
        Some("edges") => xcover_benches::edge_matching_dlx(num(1), num(2), num(3)),
        Some("dominoes") => xcover_benches::dominoes_dlx(num(1), num(2)),
        _ => usage(),
    };
    if std::io::stdout().write_all(text.as_bytes()).is_err() {
        std::process::exit(1);
    }
}

fn usage() -> ! {
    eprintln!("usage: gen_dlx queens N | queens_k N K | diag01 N | edges R C Q | dominoes R C");
    std::process::exit(2);
}

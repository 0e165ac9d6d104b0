//! Langford pairs: place two 1s, two 2s, ..., two ns in a row of 2n so that the two ks
//! have k numbers between them. `cargo run -p xcover-solver --example langford -- 7`
use xcover_solver::{Error, Problem};

fn langford(n: usize) -> Result<Problem, Error> {
    let mut b = Problem::builder();
    for k in 1..=n {
        b = b.primary(format!("number {k}"));
    }
    for s in 0..2 * n {
        b = b.primary(format!("slot {s}"));
    }
    for k in 1..=n {
        for s in 0..2 * n {
            if s + k + 1 < 2 * n {
                b = b.option([
                    format!("number {k}"),
                    format!("slot {s}"),
                    format!("slot {}", s + k + 1),
                ]);
            }
        }
    }
    b.build()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("not a number: {arg}"))?,
        None => 7,
    };
    let problem = langford(n)?;
    // Each arrangement and its mirror image are both counted.
    println!("Langford pairs for n = {n}: {}", problem.count()?);
    for solution in problem.solver().max_solutions(3).solutions() {
        let mut row = vec![0; 2 * n];
        for option in solution?.iter() {
            let names: Vec<&str> = option.items().map(|(name, _)| name).collect();
            let k: usize = names[0]["number ".len()..].parse()?;
            for slot in &names[1..] {
                row[slot["slot ".len()..].parse::<usize>()?] = k;
            }
        }
        println!("{row:?}");
    }
    Ok(())
}

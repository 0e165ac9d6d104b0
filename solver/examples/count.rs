//! Count the solutions of a problem in Knuth's format read from standard input, as
//! `dlx3 m0` does, on N threads (default 1): `cargo run -p xcover-solver --example count
//! -- 4 < examples/queens8.dlx`
use xcover_solver::Problem;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let threads: usize = match std::env::args().nth(1) {
        Some(arg) => arg
            .parse()
            .map_err(|_| format!("not a thread count: {arg}"))?,
        None => 1,
    };
    let problem = Problem::from_reader(std::io::stdin().lock())?;
    let stats = problem.solver().threads(threads).run()?;
    println!(
        "{} solutions, {}+{} mems, {} updates, {} nodes",
        stats.solutions, stats.input_mems, stats.mems, stats.updates, stats.nodes
    );
    Ok(())
}

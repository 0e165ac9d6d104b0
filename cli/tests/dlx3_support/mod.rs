//! Shared helpers for the DLX3 property tests (`dlx3_oracle.rs`, `dlx3_random_seeds.rs`):
//! a random generator of small DLX3 problems written as Knuth-format text, a runner for
//! `xcover dlx3`, and a parser of its solution output.
//!
//! Nothing here looks at the engine's source: the problems are described by what they mean
//! (items with bounds, options as sets of `item[:colour]` tokens) and the engine is judged
//! only by what it prints.
#![allow(dead_code)] // each test file uses a different subset

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;

/// Names of the primary items (index = item number among primaries). Mixed lengths,
/// including a full 8-character name, exercise the `%.8s` printing.
pub const PRIMARY_NAMES: [&str; 5] = ["A", "Bb", "c3", "P2345678", "e"];
/// Names of the secondary items.
pub const SECONDARY_NAMES: [&str; 4] = ["X", "y2", "Zz#", "S7654321"];
/// Colour characters an option may give a secondary item (any non-space byte is a colour;
/// `:` and `|` are legal colours too).
pub const COLOURS: [u8; 4] = [b'a', b'b', b'0', b':'];

/// One primary item: the name and the permitted number of chosen options `lo..=hi`.
#[derive(Clone, Debug)]
pub struct Primary {
    /// Item name as written in the input.
    pub name: &'static str,
    /// Lower bound `a`.
    pub lo: u32,
    /// Upper bound `b` (>= 1).
    pub hi: u32,
    /// How the bounds are spelled on the item line (several spellings mean the same).
    pub spelling: u8,
}

/// One option: its tokens in input order. `colour == 0` means "no colour".
#[derive(Clone, Debug)]
pub struct OptionLine {
    /// (item name, colour byte or 0), in the order written.
    pub tokens: Vec<(&'static str, u8)>,
    /// Whether it names at least one primary item (otherwise dlx3 ignores it).
    pub has_primary: bool,
    /// The raw input line (without the newline).
    pub raw: String,
}

/// A small random DLX3 problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Primary items.
    pub primaries: Vec<Primary>,
    /// Secondary item names.
    pub secondaries: Vec<&'static str>,
    /// Every option line, including those dlx3 will ignore.
    pub options: Vec<OptionLine>,
    /// The complete input text.
    pub text: String,
}

/// Raw random material for one option; turned into a line by [`Problem::build`].
/// `cells[i]` decides item i (primaries first, then secondaries); `order[i]` is its
/// sort key for the written order.
#[derive(Clone, Debug)]
pub struct OptionSeed {
    cells: Vec<u8>,
    order: Vec<u8>,
    layout: u8,
}

/// Raw random material for a problem.
#[derive(Clone, Debug)]
pub struct ProblemSeed {
    bounds: Vec<(u32, u32, u8)>,
    n_secondary: usize,
    options: Vec<OptionSeed>,
    /// Index of an option to repeat verbatim (duplicate option), if any.
    duplicate: Option<usize>,
    comments: u8,
}

const MAX_ITEMS: usize = PRIMARY_NAMES.len() + SECONDARY_NAMES.len();

fn option_seed() -> impl Strategy<Value = OptionSeed> {
    (
        prop::collection::vec(0u8..12, MAX_ITEMS),
        prop::collection::vec(any::<u8>(), MAX_ITEMS),
        any::<u8>(),
    )
        .prop_map(|(cells, order, layout)| OptionSeed {
            cells,
            order,
            layout,
        })
}

/// Problems with `1..=max_primary` primaries, up to `max_secondary` secondaries and
/// up to `max_options` option lines.
pub fn problem_seed(
    max_primary: usize,
    max_secondary: usize,
    max_options: usize,
) -> impl Strategy<Value = ProblemSeed> {
    let max_primary = max_primary.clamp(1, PRIMARY_NAMES.len());
    let max_secondary = max_secondary.min(SECONDARY_NAMES.len());
    (
        prop::collection::vec((0u32..3, 0u32..3, any::<u8>()), 1..=max_primary),
        0..=max_secondary,
        prop::collection::vec(option_seed(), 0..=max_options),
        prop::option::weighted(0.1, any::<prop::sample::Index>()),
        any::<u8>(),
    )
        .prop_map(|(bounds, n_secondary, options, dup, comments)| {
            let duplicate = if options.is_empty() {
                None
            } else {
                dup.map(|ix| ix.index(options.len()))
            };
            ProblemSeed {
                bounds,
                n_secondary,
                options,
                duplicate,
                comments,
            }
        })
}

impl Problem {
    /// Turns the random material into a concrete problem and its input text.
    pub fn build(seed: &ProblemSeed) -> Problem {
        let primaries: Vec<Primary> = seed
            .bounds
            .iter()
            .enumerate()
            .map(|(i, &(lo, width, spelling))| Primary {
                name: PRIMARY_NAMES[i],
                lo,
                hi: (lo + width).max(1),
                spelling,
            })
            .collect();
        let secondaries: Vec<&'static str> = SECONDARY_NAMES[..seed.n_secondary].to_vec();
        let np = primaries.len();

        let mut options = Vec::new();
        for os in &seed.options {
            let mut chosen: Vec<(u8, usize, &'static str, u8)> = Vec::new();
            for (i, p) in primaries.iter().enumerate() {
                // about 60% of primaries appear in an option
                if os.cells[i] % 5 >= 2 {
                    chosen.push((os.order[i], i, p.name, 0));
                }
            }
            for (j, s) in secondaries.iter().enumerate() {
                let i = np + j;
                let cell = os.cells[PRIMARY_NAMES.len() + j];
                let colour = match cell {
                    0..=5 => continue,
                    6 | 7 => 0,
                    8 | 9 => COLOURS[0],
                    10 => COLOURS[1],
                    _ => COLOURS[2 + usize::from(os.layout & 1)],
                };
                chosen.push((os.order[i], i, s, colour));
            }
            if chosen.is_empty() {
                continue; // a blank option line would just be skipped; keep lines meaningful
            }
            chosen.sort();
            let tokens: Vec<(&'static str, u8)> = chosen.iter().map(|c| (c.2, c.3)).collect();
            let has_primary = chosen.iter().any(|c| c.1 < np);
            let sep = match os.layout >> 6 {
                0 | 1 => " ",
                2 => "\t",
                _ => "  ",
            };
            let lead = match (os.layout >> 2) & 3 {
                0 => " ",
                1 => "\t ",
                _ => "",
            };
            let trail = if os.layout & 2 != 0 { " " } else { "" };
            let body: Vec<String> = tokens.iter().map(|&(n, c)| token_text(n, c)).collect();
            let raw = format!("{lead}{}{trail}", body.join(sep));
            options.push(OptionLine {
                tokens,
                has_primary,
                raw,
            });
        }
        if let Some(d) = seed.duplicate {
            if let Some(line) = options.get(d % options.len().max(1)).cloned() {
                options.push(line);
            }
        }

        let mut text = String::new();
        if seed.comments & 1 != 0 {
            text.push_str("| random DLX3 problem\n");
        }
        if seed.comments & 2 != 0 {
            text.push_str("   \n");
        }
        let mut head: Vec<String> = primaries.iter().map(spell_primary).collect();
        if !secondaries.is_empty() {
            if seed.comments & 16 != 0 {
                // `|X` (no blank after the separator) is still the separator
                head.push(format!("|{}", secondaries[0]));
                head.extend(secondaries[1..].iter().map(|s| (*s).to_owned()));
            } else {
                head.push("|".to_owned());
                head.extend(secondaries.iter().map(|s| (*s).to_owned()));
            }
        }
        text.push_str(&head.join(" "));
        text.push('\n');
        for (k, o) in options.iter().enumerate() {
            if seed.comments & 4 != 0 && k == 1 {
                text.push_str("| a comment between options: A B C\n");
            }
            text.push_str(&o.raw);
            text.push('\n');
        }
        if seed.comments & 8 != 0 {
            text.push('\n');
        }
        Problem {
            primaries,
            secondaries,
            options,
            text,
        }
    }

    /// Options dlx3 keeps (those with at least one primary item).
    pub fn kept(&self) -> impl Iterator<Item = &OptionLine> {
        self.options.iter().filter(|o| o.has_primary)
    }

    /// The line dlx3 prints after reading the input (`vbose & 1`).
    pub fn summary_line(&self) -> String {
        let kept: Vec<&OptionLine> = self.kept().collect();
        let entries: usize = kept.iter().map(|o| o.tokens.len() + 1).sum();
        format!(
            "({} options, {}+{} items, {} entries successfully read)",
            kept.len(),
            self.primaries.len(),
            self.secondaries.len(),
            entries
        )
    }

    /// Lines dlx3 prints for ignored options (`vbose & 1024`), in input order.
    pub fn warning_lines(&self) -> Vec<String> {
        self.options
            .iter()
            .filter(|o| !o.has_primary)
            .map(|o| format!("Option ignored (no primary items): {}", o.raw))
            .collect()
    }
}

fn spell_primary(p: &Primary) -> String {
    let name = p.name;
    if p.lo == p.hi {
        match p.spelling % 3 {
            0 if p.hi == 1 => name.to_owned(),
            1 => format!("{}:{}|{name}", p.lo, p.hi),
            _ => format!("{}|{name}", p.hi),
        }
    } else if p.lo == 0 && p.spelling % 2 == 0 {
        format!(":{}|{name}", p.hi) // empty lower bound means 0
    } else {
        format!("{}:{}|{name}", p.lo, p.hi)
    }
}

/// How dlx3 writes a node: `NAME` or `NAME:c`.
pub fn token_text(name: &str, colour: u8) -> String {
    if colour == 0 {
        name.to_owned()
    } else {
        format!("{name}:{}", colour as char)
    }
}

/// Order-independent identity of an option: its sorted tokens.
pub type OptionKey = Vec<String>;

/// A solution as a multiset of option keys (sorted).
pub type SolutionKey = Vec<OptionKey>;

/// The key of a token list.
pub fn option_key<S: AsRef<str>>(tokens: &[S]) -> OptionKey {
    let mut v: Vec<String> = tokens.iter().map(|t| t.as_ref().to_owned()).collect();
    v.sort();
    v
}

/// The key of an input option.
pub fn input_key(o: &OptionLine) -> OptionKey {
    let toks: Vec<String> = o.tokens.iter().map(|&(n, c)| token_text(n, c)).collect();
    option_key(&toks)
}

/// One printed line of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrintedMove {
    /// ` null NAME (k of d)`: no option for this item.
    Null {
        /// The item.
        name: String,
        /// Position among the alternatives (the null move comes last).
        k: u64,
        /// Number of alternatives.
        d: u64,
    },
    /// ` tok tok ... (k of d)`.
    Option {
        /// Tokens in printed order.
        tokens: Vec<String>,
        /// Position among the alternatives.
        k: u64,
        /// Number of alternatives.
        d: u64,
    },
}

/// Everything learned from one run.
#[derive(Debug)]
pub struct Run {
    /// Exit status.
    pub status: Option<i32>,
    /// Printed solutions, in order.
    pub solutions: Vec<Vec<PrintedMove>>,
    /// Full stderr.
    pub stderr: String,
    /// Full stdout.
    pub stdout: String,
}

/// Which program to run. `XCOVER_DLX3_ORACLE_BIN` may name any program with Knuth's
/// `dlx3` command line (for checking the oracle itself); by default this is
/// `xcover dlx3`.
fn command() -> Command {
    match std::env::var_os("XCOVER_DLX3_ORACLE_BIN") {
        Some(path) => Command::new(path),
        None => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_xcover"));
            c.arg("dlx3");
            c
        }
    }
}

/// Runs dlx3 with `args` on `input`.
pub fn run_dlx3(input: &str, args: &[&str]) -> Result<Run, String> {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start dlx3: {e}"))?;
    {
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        // A failed write (engine exited early) shows up in the status below.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("wait failed: {e}"))?;
    let stdout = String::from_utf8(out.stdout).map_err(|e| format!("stdout not UTF-8: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let solutions = parse_solutions(&stdout)?;
    Ok(Run {
        status: out.status.code(),
        solutions,
        stderr,
        stdout,
    })
}

/// Parses dlx3's stdout under `m1`: `K:` lines (K = 1, 2, ...) each followed by its moves,
/// one per line: ` tok tok ... (k of d)` or ` null NAME (k of d)`.
pub fn parse_solutions(stdout: &str) -> Result<Vec<Vec<PrintedMove>>, String> {
    let mut sols: Vec<Vec<PrintedMove>> = Vec::new();
    for line in stdout.lines() {
        if let Some(num) = line.strip_suffix(':') {
            if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                let k: usize = num.parse().map_err(|_| format!("bad number {line:?}"))?;
                if k != sols.len() + 1 {
                    return Err(format!("solution {k} follows solution {}", sols.len()));
                }
                sols.push(Vec::new());
                continue;
            }
        }
        let cur = sols
            .last_mut()
            .ok_or_else(|| format!("move before any `K:`: {line:?}"))?;
        let body = line
            .strip_prefix(' ')
            .ok_or_else(|| format!("bad line {line:?}"))?;
        let open = body
            .rfind(" (")
            .ok_or_else(|| format!("no (k of d) in {line:?}"))?;
        let pos = body[open + 2..]
            .strip_suffix(')')
            .ok_or_else(|| format!("no `)` in {line:?}"))?;
        let (k, d) = pos
            .split_once(" of ")
            .ok_or_else(|| format!("bad position {line:?}"))?;
        let k: u64 = k.parse().map_err(|_| format!("bad k in {line:?}"))?;
        let d: u64 = d.parse().map_err(|_| format!("bad d in {line:?}"))?;
        if let Some(name) = body[..open].strip_prefix("null ") {
            cur.push(PrintedMove::Null {
                name: name.to_owned(),
                k,
                d,
            });
            continue;
        }
        let tokens: Vec<String> = body[..open].split(' ').map(str::to_owned).collect();
        if tokens.iter().any(String::is_empty) {
            return Err(format!("empty token in {line:?}"));
        }
        cur.push(PrintedMove::Option { tokens, k, d });
    }
    Ok(sols)
}

/// The count in the final `Altogether N solution[s], ...` line, checking the plural.
pub fn stats_count(stderr: &str) -> Result<u64, String> {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("Altogether "))
        .ok_or_else(|| format!("no statistics line in {stderr:?}"))?;
    let rest = &line["Altogether ".len()..];
    let (num, tail) = rest.split_once(' ').ok_or("short statistics line")?;
    let n: u64 = num.parse().map_err(|_| format!("bad count in {line:?}"))?;
    let word = if n == 1 { "solution," } else { "solutions," };
    if !tail.starts_with(word) {
        return Err(format!("expected `{word}` in {line:?}"));
    }
    Ok(n)
}

/// Checks one printed solution against the problem and turns it into a [`SolutionKey`]:
/// every option line must be a cyclic rotation of some kept input option, every null move
/// must name a primary item with slack, at most once, and `1 <= k <= d`.
pub fn solution_key(problem: &Problem, moves: &[PrintedMove]) -> Result<SolutionKey, String> {
    let mut nulls: Vec<&str> = Vec::new();
    let mut key = Vec::new();
    for m in moves {
        match m {
            PrintedMove::Null { name, k, d } => {
                if *k < 1 || k > d {
                    return Err(format!("null move position ({k} of {d}) out of range"));
                }
                let p = problem
                    .primaries
                    .iter()
                    .find(|p| p.name == name)
                    .ok_or_else(|| format!("null move for non-primary {name:?}"))?;
                if p.lo == p.hi {
                    return Err(format!("null move for {name} which has no slack"));
                }
                if nulls.contains(&name.as_str()) {
                    return Err(format!("two null moves for {name}"));
                }
                nulls.push(name);
            }
            PrintedMove::Option { tokens, k, d } => {
                if *k < 1 || k > d {
                    return Err(format!("position ({k} of {d}) out of range"));
                }
                let rotation_of_input = problem.kept().any(|o| {
                    let t: Vec<String> = o.tokens.iter().map(|&(n, c)| token_text(n, c)).collect();
                    t.len() == tokens.len()
                        && (0..t.len())
                            .any(|r| (0..t.len()).all(|i| t[(r + i) % t.len()] == tokens[i]))
                });
                if !rotation_of_input {
                    return Err(format!(
                        "printed option {tokens:?} is no rotation of a kept option"
                    ));
                }
                key.push(option_key(tokens));
            }
        }
    }
    key.sort();
    Ok(key)
}

/// Multiset of solutions, as a map from solution key to how often it occurs.
pub fn solution_multiset(
    keys: impl IntoIterator<Item = SolutionKey>,
) -> BTreeMap<SolutionKey, usize> {
    let mut m = BTreeMap::new();
    for k in keys {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

/// Runs `args` on the problem and returns its solutions as a multiset plus the count from
/// the statistics line (so `args` must leave `vbose & 1` set), after checking the exit
/// status and every printed line.
pub fn engine_solutions(
    problem: &Problem,
    args: &[&str],
) -> Result<(BTreeMap<SolutionKey, usize>, u64, Run), String> {
    let run = run_dlx3(&problem.text, args)?;
    if run.status != Some(0) {
        return Err(format!(
            "exit status {:?}, stderr {:?}",
            run.status, run.stderr
        ));
    }
    let mut keys = Vec::new();
    for s in &run.solutions {
        keys.push(solution_key(problem, s)?);
    }
    let count = stats_count(&run.stderr)?;
    Ok((solution_multiset(keys), count, run))
}

//! `xcover dlx3 merge --verify K|all [--verify-seed S]`: an audit of the parts. A checksum
//! catches damage, never a forger, who can write any record with a valid chain; so the
//! merge explores again K units of every part, chosen at random, and refuses the parts if
//! any differs from its record (counters, profile, and the bodies of its solutions when
//! the part keeps them). A part with `f` forged units among its `u` is caught with
//! probability `1 - C(u-f, K) / C(u, K)` (at least `K/u` for one forged unit); `all`
//! explores every unit, which costs the search again and catches every forgery.
//!
//! The units are explored by the same machinery the shards used (`units::explore`), with
//! the shards' settings, on an engine over the merged run's matrix.
use std::collections::BTreeSet;
use std::fmt;

use xcover_core::dlx3::{Dlx3, Dlx3Error};

use super::merge::Parts;
use super::part_body;
use super::part_file::{self, BodiesDigest, UnitCheck};
use super::units::{self, Claim, Image, UnitRecord};
use crate::error::CliError;

pub(crate) use crate::shared_args::Amount;

/// The audit asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Verify {
    pub amount: Amount,
    /// The seed of the random choice (`None`: a fresh one, printed).
    pub seed: Option<u64>,
}

/// A seed from the clock and the process id, for a choice no one can foresee.
pub(crate) fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut x = nanos ^ (u64::from(std::process::id()) << 32);
    splitmix(&mut x)
}

/// SplitMix64: a small, published generator; the choice of a seed is repeatable.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number in `0..n` (n > 0), without modulo bias.
pub(crate) fn below(state: &mut u64, n: u64) -> u64 {
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = splitmix(state);
        if x < zone {
            return x % n;
        }
    }
}

/// The units to explore again: `k` of each of the `shards` parts (unit `j` of part `i`
/// is `i + j * shards`), chosen with Floyd's algorithm from `seed`.
pub(crate) fn choose(units: u64, shards: u64, amount: Amount, seed: u64) -> BTreeSet<u64> {
    let mut state = seed;
    let mut chosen = BTreeSet::new();
    for i in 0..shards {
        let owned = if i < units {
            (units - i).div_ceil(shards)
        } else {
            0
        };
        let k = match amount {
            Amount::All => owned,
            Amount::Units(k) => k.min(owned),
        };
        let mut picked = BTreeSet::new();
        for top in owned - k..owned {
            let j = below(&mut state, top + 1);
            if !picked.insert(j) {
                picked.insert(top);
            }
        }
        chosen.extend(picked.into_iter().map(|j| i + j * shards));
    }
    chosen
}

/// What an audit did: its seed and how many units agreed.
pub(crate) struct Audited {
    pub seed: u64,
    pub units: u64,
}

/// What a unit explored again by the audit shows against its record.
#[derive(Debug)]
pub(crate) enum Mismatch {
    /// Other counters (`name` is the part and unit).
    Counters {
        name: String,
        recorded: [u64; 6],
        found: [u64; 6],
    },
    /// The same counters, another profile or other solutions (`what`).
    Other { name: String, what: &'static str },
    /// No part records unit `k`.
    Unrecorded(u64),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Counters {
                name,
                recorded,
                found,
            } => write!(
                f,
                "{name}: the audit explored it again and found other counters (count, mems, \
                 cmems, updates, cleansings, nodes: recorded {recorded:?}, found {found:?}): \
                 a forged or wrong part"
            ),
            Mismatch::Other { name, what } => write!(
                f,
                "{name}: the audit explored it again and found other {what}: a forged or \
                 wrong part"
            ),
            Mismatch::Unrecorded(k) => write!(f, "unit {k}: no part records it"),
        }
    }
}

/// Why `merge --verify` refuses the parts or cannot audit them.
#[derive(Debug)]
pub(crate) enum AuditError {
    /// No engine for the audit.
    CantStart(Dlx3Error),
    /// A unit differs from its record (chosen with `seed`).
    Refused { mismatch: Box<Mismatch>, seed: u64 },
    /// The walk met `agreed` of the `chosen` units.
    Short {
        agreed: u64,
        chosen: usize,
        seed: u64,
    },
    /// A signal stopped it.
    Interrupted,
    /// The engine failed, in `unit` where known.
    Failed { unit: Option<u64>, error: Dlx3Error },
}

impl fmt::Display for AuditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuditError::CantStart(e) => write!(f, "the audit can't start: {e}"),
            AuditError::Refused { mismatch, seed } => {
                write!(f, "{mismatch} (audit seed {seed}); not merged")
            }
            AuditError::Short {
                agreed,
                chosen,
                seed,
            } => write!(
                f,
                "the audit met {agreed} of the {chosen} units it chose (seed {seed}); not merged"
            ),
            AuditError::Interrupted => f.write_str("the audit was interrupted"),
            AuditError::Failed { unit: None, error } => write!(f, "the audit failed: {error}"),
            AuditError::Failed {
                unit: Some(k),
                error,
            } => write!(f, "the audit failed in unit {k}: {error}"),
        }
    }
}

impl std::error::Error for AuditError {}

impl From<AuditError> for CliError {
    fn from(e: AuditError) -> CliError {
        CliError::failure(e.to_string())
    }
}

/// Explores again the chosen units of `parts` on an engine like `engine` (which has read
/// the run's input and not started) and compares each with its record. `started` is
/// told the seed before the work begins; `stop` ends the audit early (an error).
pub(crate) fn audit(
    engine: &Dlx3<'_>,
    parts: &Parts,
    verify: Verify,
    started: &mut dyn FnMut(u64, Amount),
    stop: &dyn Fn() -> bool,
) -> Result<Audited, AuditError> {
    let seed = verify.seed.unwrap_or_else(fresh_seed);
    started(seed, verify.amount);
    let header = parts.header();
    let chosen = choose(header.units, header.shards, verify.amount, seed);
    let image = Image::of(engine);
    let mut storage = image.storage();
    let settings = part_file::unit_settings(engine.settings(), header.bodies);
    let mut worker = image
        .engine(&mut storage, settings)
        .map_err(AuditError::CantStart)?;
    let mut failure = None;
    let mut agreed = 0;
    // A unit's bodies are digested as they come, a bounded amount held at a time, as the
    // shard streamed them to its part in `body` records (the digest is the same).
    let partial = std::cell::RefCell::new(None::<(u64, BodiesDigest)>);
    let mut spill = |k: u64, rec: &mut UnitRecord| {
        let mut partial = partial.borrow_mut();
        let digest = match &mut *partial {
            Some((j, d)) if *j == k => d,
            other => &mut other.insert((k, BodiesDigest::default())).1,
        };
        digest.add(rec);
        rec.solutions = Vec::new();
        rec.ends = Vec::new();
        true
    };
    let explored = units::explore_spilling(
        &mut worker,
        parts.split,
        |k| {
            if chosen.contains(&k) {
                Claim::Explore
            } else {
                Claim::Skip
            }
        },
        |k, got: UnitRecord| {
            let digest = match partial.borrow_mut().take() {
                Some((j, d)) if j == k => d,
                _ => BodiesDigest::default(),
            };
            let found = digest.check(&got);
            match parts.recorded(k) {
                Some(want) if *want == found => {
                    agreed += 1;
                    true
                }
                Some(want) => {
                    failure = Some(disagreement(want, k, &found, parts));
                    false
                }
                None => {
                    failure = Some(Mismatch::Unrecorded(k));
                    false
                }
            }
        },
        units::Spill {
            bytes: part_body::held_bytes(parts.limit()),
            spill: &mut spill,
        },
        stop,
    );
    if let Some(mismatch) = failure {
        return Err(AuditError::Refused {
            mismatch: Box::new(mismatch),
            seed,
        });
    }
    match explored {
        Ok(true) if agreed == chosen.len() as u64 => Ok(Audited {
            seed,
            units: agreed,
        }),
        Ok(true) => Err(AuditError::Short {
            agreed,
            chosen: chosen.len(),
            seed,
        }),
        Ok(false) => Err(AuditError::Interrupted),
        Err((unit, error)) => Err(AuditError::Failed { unit, error }),
    }
}

/// What differs between `want` (unit `k`'s record) and `found` (the unit explored
/// again), naming the part.
fn disagreement(want: &UnitCheck, k: u64, found: &UnitCheck, parts: &Parts) -> Mismatch {
    let name = parts.name_of(k);
    if found.counters != want.counters {
        return Mismatch::Counters {
            name,
            recorded: want.counters.to_array(),
            found: found.counters.to_array(),
        };
    }
    let what = if found.profile != want.profile {
        "profile"
    } else {
        "solutions"
    };
    Mismatch::Other { name, what }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_is_k_distinct_units_of_each_part_and_repeats_with_its_seed() {
        for (units, shards, k) in [(10u64, 3u64, 2u64), (100, 7, 5), (5, 8, 1), (64, 4, 16)] {
            let chosen = choose(units, shards, Amount::Units(k), 42);
            assert_eq!(chosen, choose(units, shards, Amount::Units(k), 42));
            for i in 0..shards {
                let owned = (0..units).filter(|u| u % shards == i).count() as u64;
                let mine = chosen.iter().filter(|&&u| u % shards == i).count() as u64;
                assert_eq!(mine, k.min(owned), "{units} {shards} {k} part {i}");
            }
            assert!(chosen.iter().all(|&u| u < units));
            let all = choose(units, shards, Amount::All, 0);
            assert_eq!(all, (0..units).collect());
        }
        // Each unit equally likely: over many seeds, unit 0 of 10 with K = 3 about 30 %.
        let hits = (0..4000)
            .filter(|&s| choose(10, 1, Amount::Units(3), s).contains(&0))
            .count();
        assert!((1000..1400).contains(&hits), "{hits}");
    }
}

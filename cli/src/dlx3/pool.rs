//! Worker threads that explore units of a split search ahead of the coordinator, for
//! `--threads` and `--checkpoint` (every unit, the next unclaimed one when a worker is
//! free) and for `merge --threads` (the units that hold a printed solution), on the
//! solver's unit driver (`xcover_solver::units`): each worker has its own engine over the
//! matrix and records a unit as Knuth's program prints it ([`UnitRecord`]); the driver
//! hands the records to the coordinator in unit order.
use std::time::Duration;

use xcover_core::dlx3::{Dlx3, Settings};
use xcover_solver::units::{Pool, Walk, Worker};

use super::units::{self, Claim, Image, UnitRecord, WalkError};

/// How long the coordinator sleeps while the unit it needs is still being explored.
/// It polls rather than blocks: a coordinator woken by every finished unit (thousands a
/// second) would take the workers' cores from them.
const POLL: Duration = Duration::from_millis(2);

/// What the workers do.
pub(crate) struct Work<'w> {
    /// The workers' settings (`Settings::for_units`).
    pub settings: Settings,
    /// How a worker explores the unit it claimed.
    pub take: Claim,
    /// How a worker passes a unit it did not claim.
    pub pass: &'w (dyn Fn(u64) -> Claim + Sync),
    /// The threads' name (a number is added).
    pub name: &'static str,
}

/// The coordinator's view of the workers' records, in unit order.
pub(crate) type Arrivals<'s> = Walk<'s, UnitRecord>;

/// Runs `coordinate` on this thread while the workers of `pool` explore units of the
/// search of `engine` (at its start), split at `split`, as `work` says; the workers stop
/// when `coordinate` returns, or when `interrupted` says so while it waits.
pub(crate) fn run<T>(
    engine: &mut Dlx3<'_>,
    split: u32,
    pool: Pool<'_>,
    work: &Work<'_>,
    interrupted: &dyn Fn() -> bool,
    coordinate: impl FnOnce(&mut Dlx3<'_>, &mut Arrivals<'_>) -> Result<T, WalkError>,
) -> Result<T, WalkError> {
    let image = Image::of(engine);
    let pool = pool
        .poll(POLL)
        .thread_name(work.name)
        .interrupted(interrupted);
    let walked = pool.run(
        |w| worker(&image, split, work, w),
        |arrivals| coordinate(engine, arrivals),
    );
    walked.map_err(|e| WalkError::Spawn {
        worker: e.worker,
        error: e.error,
    })?
}

/// One worker: an engine of its own, exploring the units it claims. A unit it fails
/// inside is left to the coordinator, which explores it and so reproduces the failure
/// in order.
fn worker(image: &Image, split: u32, work: &Work<'_>, w: &Worker<'_, UnitRecord>) {
    let mut storage = image.storage();
    let Ok(mut e) = image.engine(&mut storage, work.settings) else {
        return;
    };
    if w.claim().is_none() {
        return;
    }
    let _ = units::explore(
        &mut e,
        split,
        |k| {
            if Some(k) == w.claimed() {
                work.take
            } else {
                (work.pass)(k)
            }
        },
        |_, rec| {
            w.finish(rec);
            w.claim().is_some()
        },
        &|| w.is_over(),
    );
}

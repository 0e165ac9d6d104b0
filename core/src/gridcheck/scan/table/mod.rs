//! The 768-set bitmap table of the enumeration.
//!
//! The enumeration works on up to 768 sets with bit operations: for every position a
//! 768-bit hitting mask (bit i set when set i contains the position), and per level a
//! 768-bit "still unhit" state. Placing a clue is one AND-NOT per used word; the first set
//! bit is the first unhit set in table order (the smallest, the enumeration's branch set).
//! Only as many 64-bit words as the set count needs are touched.

mod bitmap;
mod branch;
mod hits;
mod level;
mod limits;
mod probe;
mod scratch;
#[cfg(test)]
mod tests;

pub use bitmap::BitmapTable;
pub(crate) use branch::fewest_live;
#[cfg(doc)]
pub(crate) use hits::HitTable;
pub use level::LevelState;
pub(crate) use limits::CAPACITY;
pub use limits::TABLE_CAPACITY;
#[cfg(doc)]
pub(crate) use limits::{BRANCH_CANDIDATES, BRANCH_SCORED};
pub(crate) use probe::Probe;
#[cfg(doc)]
pub(crate) use scratch::ProbeScratch;
pub(crate) use scratch::PROBE_SLOTS;

//! The word of the active-item bit set (`active`), apart so that the storage widths can
//! size their arrays of it without importing the set itself.

/// A word of the bit set: as wide as the core's registers, so that setting, clearing and
/// scanning a bit is one word's work (on a 32-bit core a `u64` word's bit was placed by a
/// 64-bit shift, a library call; docs/PERFORMANCE.md, "The chip, colored").
#[cfg(target_pointer_width = "64")]
pub(crate) type Word = u64;
/// A word of the bit set (see the 64-bit one).
#[cfg(not(target_pointer_width = "64"))]
pub(crate) type Word = u32;

/// Bits per [`Word`].
pub(crate) const WORD_BITS: u32 = Word::BITS;

//! The problem's tables ([`Matrix`]), the storage the caller lends ([`WorkspaceView`])
//! and its lengths ([`Layout`]), and the module's error ([`BitError`]).

/// Bits per word of a bit set.
pub const WORD_BITS: usize = 64;

/// The most words a bit set of options may have (512 options).
pub const MAX_WORDS: usize = 8;

/// Why a problem or a workspace is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitError {
    /// More options than `64 * W`, more than [`MAX_PRIMARY`] primary items, or `W` above
    /// [`MAX_WORDS`].
    TooLarge,
    /// `starts` is not a list of offsets into `entries` (from 0, rising, ending at its
    /// length), an entry names no item, or an option names an item twice.
    BadMatrix,
    /// A slice of the workspace is shorter than [`Layout`] says.
    SmallWorkspace,
}

impl BitError {
    /// The error as a sentence.
    pub fn message(&self) -> &'static str {
        match self {
            BitError::TooLarge => "Too many options or primary items for the bit sets",
            BitError::BadMatrix => "The option table is not well formed",
            BitError::SmallWorkspace => "A slice of the bit-set workspace is too short",
        }
    }
}

impl core::fmt::Display for BitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}

/// A problem as flat tables: option `j`'s entries are `entries[starts[j]..starts[j + 1]]`,
/// each `(item, color)` with items numbered from 0, the `primary` primary items first, and
/// color 0 for none.
#[derive(Clone, Copy, Debug)]
pub struct Matrix<'a> {
    /// Number of primary items (items `0..primary`).
    pub primary: usize,
    /// Number of items, primary and secondary.
    pub items: usize,
    /// Where each option's entries begin, and the end of the last (options + 1 values).
    pub starts: &'a [u32],
    /// Every option's `(item, color)` entries, one option after the other.
    pub entries: &'a [(u32, i32)],
}

impl Matrix<'_> {
    /// Number of options.
    pub fn options(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The entries of option `j`.
    pub(super) fn option(&self, j: usize) -> &[(u32, i32)] {
        &self.entries[self.starts[j] as usize..self.starts[j + 1] as usize]
    }
}

/// The most primary items: an item's number fits a byte, and number 255 is the spare
/// count that pads each option's primary items to [`Layout::stride`].
pub const MAX_PRIMARY: usize = 255;

/// The counts each level keeps, one per primary item and the spare (so that a count is
/// looked up by a byte without a bounds test).
pub const COUNTS: usize = 256;

/// The lengths of a [`WorkspaceView`]'s slices for a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Options: the length of `conflicts`.
    pub options: usize,
    /// Primary items: the length of `item_options`.
    pub primary: usize,
    /// The most primary items of an option: `prims` holds `options * stride`.
    pub stride: usize,
    /// Levels of the search (one more than the primary items): the length of `live`,
    /// `candidates` and `chosen`; `counts` holds `levels * COUNTS`.
    pub levels: usize,
}

impl Layout {
    /// The layout of `m` for bit sets of `W` words, after checking `m`.
    pub fn of<const W: usize>(m: &Matrix<'_>) -> Result<Layout, BitError> {
        let options = m.options();
        if W > MAX_WORDS || options > W * WORD_BITS || m.primary > MAX_PRIMARY {
            return Err(BitError::TooLarge);
        }
        let well_formed = m.starts.first().map_or(true, |&s| s == 0)
            && m.starts.windows(2).all(|w| w[0] <= w[1])
            && m.starts
                .last()
                .map_or(true, |&s| s as usize == m.entries.len())
            && m.primary <= m.items
            && m.entries.iter().all(|&(k, _)| (k as usize) < m.items)
            && (0..options).all(|j| {
                let o = m.option(j);
                (1..o.len()).all(|i| o[..i].iter().all(|e| e.0 != o[i].0))
            });
        if !well_formed {
            return Err(BitError::BadMatrix);
        }
        let stride = (0..options)
            .map(|j| {
                m.option(j)
                    .iter()
                    .filter(|&&(k, _)| (k as usize) < m.primary)
                    .count()
            })
            .max()
            .unwrap_or(0);
        Ok(Layout {
            options,
            primary: m.primary,
            stride,
            levels: m.primary + 1,
        })
    }
}

/// The storage of a [`BitCover`](super::BitCover), lent by the caller; [`Layout`] gives each length
/// (longer slices are fine).
#[derive(Debug)]
pub struct WorkspaceView<'a, const W: usize> {
    /// Per option, the options it conflicts with (itself included).
    pub conflicts: &'a mut [[u64; W]],
    /// Per primary item, the options that contain it.
    pub item_options: &'a mut [[u64; W]],
    /// Per option, its primary items, [`Layout::stride`] of them (the spare, 255, after
    /// the last).
    pub prims: &'a mut [u8],
    /// Per level, the live options.
    pub live: &'a mut [[u64; W]],
    /// Per level, the options of its item still to try.
    pub candidates: &'a mut [[u64; W]],
    /// Per level, [`COUNTS`] counts: the live options of each primary item (`i16::MAX`
    /// once covered).
    pub counts: &'a mut [i16],
    /// Per level, the option chosen there.
    pub chosen: &'a mut [u16],
}

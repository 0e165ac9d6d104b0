//! Knuth's command-line settings for DLX3, their defaults, and the `sscanf`-style parsing
//! of one argument.

/// `vbose` bit: input summary and final statistics.
pub const SHOW_BASICS: i32 = 1;
/// `vbose` bit: trace of every move.
pub const SHOW_CHOICES: i32 = 2;
/// `vbose` bit: item scores at each node.
pub const SHOW_DETAILS: i32 = 4;
/// `vbose` bit: profile of the search tree.
pub const SHOW_PROFILE: i32 = 128;
/// `vbose` bit: full state reports instead of one-line progress reports.
pub const SHOW_FULL_STATE: i32 = 256;
/// `vbose` bit: item totals at start and end.
pub const SHOW_TOTS: i32 = 512;
/// `vbose` bit: warnings about options without primary items.
pub const SHOW_WARNINGS: i32 = 1024;

/// Knuth's default `max_cols`: at most this many items.
pub const MAX_COLS: usize = 10000;
/// Knuth's default `max_nodes`: at most this many nodes (headers, option nodes, spacers).
pub const MAX_NODES: usize = 100_000_000;
/// Knuth's default `max_level`: at most this many levels.
pub const MAX_LEVEL: usize = 500;
/// Knuth's input buffer size (`9*max_cols+3`); `fgets` returns at most one byte less.
pub const BUFSIZE: usize = 9 * MAX_COLS + 3;

/// The settings of one run (Knuth's globals set from the command line).
///
/// ```
/// use xcover_core::dlx3::{ArgOutcome, Settings};
///
/// let mut settings = Settings::DEFAULT;
/// assert!(matches!(settings.apply_arg(b"m1"), ArgOutcome::Set));
/// assert_eq!(settings.spacing, 1);
/// assert!(matches!(settings.apply_arg(b"q"), ArgOutcome::Bad));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Verbosity bits (`SHOW_*`).
    pub vbose: i32,
    /// Print solution k iff `spacing != 0` and k is a multiple of `spacing`.
    pub spacing: i32,
    /// Seed for GB_FLIP.
    pub random_seed: i32,
    /// Randomize list order and tie breaks.
    pub randomizing: bool,
    /// Progress report interval in mems (0 = none).
    pub delta: u64,
    /// Mems at which the first progress report is due.
    pub thresh: u64,
    /// Trace choices only on levels below this.
    pub show_choices_max: i32,
    /// Truncate state reports after this level.
    pub show_levels_max: i32,
    /// Show details only on levels `>= maxl - show_choices_gap`.
    pub show_choices_gap: i32,
    /// Stop after this many solutions.
    pub maxcount: u64,
    /// Stop when mems reach this at a node.
    pub timeout: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What one command-line argument did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgOutcome<'x> {
    /// A setting was assigned.
    Set,
    /// `S<file>`: the caller opens this file for the shape output.
    ShapeFile(&'x [u8]),
    /// Unknown flag or missing number: a usage error.
    Bad,
}

impl Settings {
    /// Knuth's defaults.
    pub const DEFAULT: Settings = Settings {
        vbose: SHOW_BASICS + SHOW_WARNINGS,
        spacing: 0,
        random_seed: 0,
        randomizing: false,
        delta: 10_000_000_000,
        thresh: 10_000_000_000,
        show_choices_max: 1_000_000,
        show_levels_max: 1_000_000,
        show_choices_gap: 1_000_000,
        maxcount: u64::MAX,
        timeout: 0x1fff_ffff_ffff_ffff,
    };

    /// Whether solution number `n` (1-based, in the whole search) is printed: Knuth's rule
    /// for `m<spacing>`, `spacing != 0` and `n` a multiple of `spacing` (a negative spacing
    /// is taken as the unsigned 64-bit number C's conversion makes of it).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let mut s = Settings::DEFAULT;
    /// assert!(!s.prints(1));
    /// s.spacing = 3;
    /// assert!(s.prints(6) && !s.prints(7));
    /// s.spacing = -1;
    /// assert!(s.prints(u64::MAX) && !s.prints(5));
    /// ```
    #[inline]
    pub const fn prints(&self, n: u64) -> bool {
        self.spacing != 0 && n % (self.spacing as i64 as u64) == 0
    }

    /// Whether [`prints`](Settings::prints) holds for some solution number in
    /// `base + 1 ..= base + count` (the solutions of a unit whose first comes after `base`).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let mut s = Settings::DEFAULT;
    /// s.spacing = 10;
    /// assert!(s.prints_any(5, 5) && !s.prints_any(10, 9) && !s.prints_any(9, 0));
    /// ```
    pub const fn prints_any(&self, base: u64, count: u64) -> bool {
        let m = self.spacing as i64 as u64;
        m != 0 && count != 0 && base.saturating_add(count) / m > base / m
    }

    /// Why a search with these settings cannot be split into units (see `split`): it
    /// follows one sequence of events that units explored apart cannot reproduce; `shape`
    /// says whether the search tree's shape (`S<file>`) is written. `None`: it can be.
    pub const fn split_obstacle(&self, shape: bool) -> Option<&'static str> {
        if self.randomizing {
            Some("s<n> (one random stream)")
        } else if shape {
            Some("S<file> (the search tree's shape)")
        } else if self.vbose & (SHOW_CHOICES | SHOW_DETAILS) != 0 {
            Some("v2 and v4 traces (every choice in order)")
        } else {
            None
        }
    }

    /// The settings an engine explores units with for another engine to add up (see
    /// `split`): every solution printed (when any is), to be renumbered by the engine that
    /// adds them; no reports, no limits; the profile (`v128`) kept if asked for, since
    /// a unit's profile is part of its totals.
    ///
    /// ```
    /// use xcover_core::dlx3::{Settings, SHOW_PROFILE};
    ///
    /// let mut user = Settings::DEFAULT;
    /// (user.spacing, user.vbose, user.maxcount) = (7, 1 | SHOW_PROFILE, 3);
    /// let unit = user.for_units();
    /// assert_eq!((unit.spacing, unit.vbose, unit.maxcount), (1, SHOW_PROFILE, u64::MAX));
    /// ```
    #[must_use]
    pub const fn for_units(&self) -> Settings {
        Settings {
            spacing: if self.spacing != 0 { 1 } else { 0 },
            vbose: self.vbose & SHOW_PROFILE,
            delta: 0,
            maxcount: u64::MAX,
            timeout: u64::MAX,
            ..*self
        }
    }

    /// Applies one argument as Knuth's loop does (`argv[j][0]` selects the variable, the rest
    /// is read with `sscanf("%d")` or `"%lld"`). To get "first occurrence wins", apply the
    /// arguments from last to first.
    pub fn apply_arg<'x>(&mut self, arg: &'x [u8]) -> ArgOutcome<'x> {
        let Some((&flag, rest)) = arg.split_first() else {
            return ArgOutcome::Bad;
        };
        if flag == b's' {
            // `randomizing=1` is executed even when the number is missing.
            self.randomizing = true;
        }
        if flag == b'S' {
            return ArgOutcome::ShapeFile(rest);
        }
        let target_int: Option<&mut i32> = match flag {
            b'v' => Some(&mut self.vbose),
            b'm' => Some(&mut self.spacing),
            b's' => Some(&mut self.random_seed),
            b'c' => Some(&mut self.show_choices_max),
            b'C' => Some(&mut self.show_levels_max),
            b'l' => Some(&mut self.show_choices_gap),
            _ => None,
        };
        if let Some(t) = target_int {
            return match scan_int(rest) {
                // `%d` stores `(int)strtol(...)`: the low 32 bits.
                Some(v) => {
                    *t = v as i32;
                    ArgOutcome::Set
                }
                None => ArgOutcome::Bad,
            };
        }
        let target_long: &mut u64 = match flag {
            b'd' => &mut self.delta,
            b't' => &mut self.maxcount,
            b'T' => &mut self.timeout,
            _ => return ArgOutcome::Bad,
        };
        match scan_int(rest) {
            Some(v) => {
                *target_long = v as u64;
                if flag == b'd' {
                    self.thresh = self.delta;
                }
                ArgOutcome::Set
            }
            None => ArgOutcome::Bad,
        }
    }
}

/// C `isspace` in the "C" locale.
#[inline]
pub(crate) const fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `sscanf(s, "%lld")` as glibc does it: skip white space, optional sign, at least one
/// decimal digit; the value saturates at the 64-bit limits (`strtoll`). Anything after the
/// digits is ignored. A NUL byte ends the string.
pub(crate) fn scan_int(s: &[u8]) -> Option<i64> {
    let s = match s.iter().position(|&c| c == 0) {
        Some(n) => &s[..n],
        None => s,
    };
    let mut i = 0;
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    let start = i;
    // Accumulate as a negative number so that i64::MIN is representable.
    let mut acc: i64 = 0;
    let mut overflow = false;
    while i < s.len() && s[i].is_ascii_digit() {
        let d = i64::from(s[i] - b'0');
        match acc.checked_mul(10).and_then(|a| a.checked_sub(d)) {
            Some(a) => acc = a,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start {
        return None;
    }
    Some(match (overflow, negative) {
        (true, true) => i64::MIN,
        (true, false) => i64::MAX,
        (false, true) => acc,
        (false, false) => acc.checked_neg().unwrap_or(i64::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_like_sscanf() {
        assert_eq!(scan_int(b"12"), Some(12));
        assert_eq!(scan_int(b"  -7x"), Some(-7));
        assert_eq!(scan_int(b"+3"), Some(3));
        assert_eq!(scan_int(b""), None);
        assert_eq!(scan_int(b"-"), None);
        assert_eq!(scan_int(b"foo"), None);
        assert_eq!(scan_int(b"99999999999999999999"), Some(i64::MAX));
        assert_eq!(scan_int(b"-99999999999999999999"), Some(i64::MIN));
    }

    #[test]
    fn args_set_fields() {
        let mut s = Settings::DEFAULT;
        assert_eq!(s.apply_arg(b"v7"), ArgOutcome::Set);
        assert_eq!(s.vbose, 7);
        assert_eq!(s.apply_arg(b"d100"), ArgOutcome::Set);
        assert_eq!((s.delta, s.thresh), (100, 100));
        assert_eq!(s.apply_arg(b"T-1"), ArgOutcome::Set);
        assert_eq!(s.timeout, u64::MAX);
        assert_eq!(s.apply_arg(b"sx"), ArgOutcome::Bad);
        assert!(s.randomizing);
        assert_eq!(s.apply_arg(b"Sfoo"), ArgOutcome::ShapeFile(b"foo"));
        assert_eq!(s.apply_arg(b"x1"), ArgOutcome::Bad);
        assert_eq!(s.apply_arg(b""), ArgOutcome::Bad);
        assert_eq!(s.apply_arg(b"m4294967297"), ArgOutcome::Set);
        assert_eq!(s.spacing, 1);
    }
}

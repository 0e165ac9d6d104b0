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

/// The settings of one run: Knuth's globals that DLX3 sets from its command line, each
/// under a readable name with Knuth's letter argument beside it.
///
/// Build them with [`Settings::new`] and the setters (each takes and returns the settings,
/// so they chain), read them with the `get_*` getters (named as in `clap`: the plain name
/// is the setter), or apply Knuth's arguments one by one with [`apply_arg`](Settings::apply_arg),
/// as the command line does:
///
/// ```
/// use xcover_core::dlx3::{ArgOutcome, Settings};
///
/// let settings = Settings::new().print_interval(1).max_solutions(10).verbosity(0);
/// assert_eq!(settings.get_max_solutions(), 10);
///
/// let mut knuth = Settings::DEFAULT;
/// for arg in [&b"v0"[..], b"t10", b"m1"] {
///     assert!(matches!(knuth.apply_arg(arg), ArgOutcome::Set));
/// }
/// assert_eq!(knuth, settings);
/// assert!(matches!(knuth.apply_arg(b"q"), ArgOutcome::Bad));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// `v`: verbosity bits (`SHOW_*`).
    pub(crate) vbose: i32,
    /// `m`: print solution k iff `spacing != 0` and k is a multiple of `spacing`.
    pub(crate) spacing: i32,
    /// `s`: seed for GB_FLIP.
    pub(crate) random_seed: i32,
    /// `s`: randomize list order and tie breaks.
    pub(crate) randomizing: bool,
    /// `d`: progress report interval in mems (0 = none).
    pub(crate) delta: u64,
    /// Mems at which the first progress report is due (`d` sets it to `delta`).
    pub(crate) thresh: u64,
    /// `c`: trace choices only on levels below this.
    pub(crate) show_choices_max: i32,
    /// `C`: truncate state reports after this level.
    pub(crate) show_levels_max: i32,
    /// `l`: show details only on levels `>= maxl - show_choices_gap`.
    pub(crate) show_choices_gap: i32,
    /// `t`: stop after this many solutions.
    pub(crate) maxcount: u64,
    /// `T`: stop when mems reach this at a node.
    pub(crate) timeout: u64,
}

/// One setting: a chaining setter (the readable name, Knuth's letter in its documentation)
/// and its `get_` getter.
macro_rules! setting {
    ($(#[$doc:meta])* $letter:literal, $set:ident, $get:ident, $field:ident: $ty:ty = $default:expr) => {
        $(#[$doc])*
        #[doc = concat!("\n\nKnuth's argument `", $letter, "`; read it back with [`",
                        stringify!($get), "`](Settings::", stringify!($get), ").")]
        ///
        /// ```
        /// use xcover_core::dlx3::Settings;
        ///
        #[doc = concat!("let s = Settings::new().", stringify!($set), "(3);")]
        #[doc = concat!("assert_eq!(s.", stringify!($get), "(), 3);")]
        /// ```
        #[must_use]
        pub const fn $set(mut self, value: $ty) -> Settings {
            self.$field = value;
            self
        }

        #[doc = concat!("The value set by [`", stringify!($set), "`](Settings::",
                        stringify!($set), ") (Knuth's `", $letter, "`).")]
        ///
        /// ```
        /// use xcover_core::dlx3::Settings;
        ///
        #[doc = concat!("assert_eq!(Settings::DEFAULT.", stringify!($get), "(), ", stringify!($default), ");")]
        /// ```
        pub const fn $get(&self) -> $ty {
            self.$field
        }
    };
}

impl Settings {
    /// Knuth's defaults ([`Settings::DEFAULT`]), to build on with the setters.
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// assert_eq!(Settings::new(), Settings::DEFAULT);
    /// assert_eq!(Settings::new().get_verbosity(), 1025); // v1025: basics and warnings
    /// ```
    pub const fn new() -> Settings {
        Settings::DEFAULT
    }

    setting!(
        /// Verbosity: a sum of the `SHOW_*` bits (default `SHOW_BASICS + SHOW_WARNINGS`).
        "v", verbosity, get_verbosity, vbose: i32 = 1025
    );
    setting!(
        /// Print solution k when k is a multiple of this; 0 (the default) prints none, 1
        /// prints every one (a negative value is taken as the unsigned 64-bit number C
        /// makes of it).
        "m", print_interval, get_print_interval, spacing: i32 = 0
    );
    setting!(
        /// Stop after this many solutions (default: no limit, `u64::MAX`).
        "t", max_solutions, get_max_solutions, maxcount: u64 = u64::MAX
    );
    setting!(
        /// Stop (with a timeout) once the search has used this many mems at a node
        /// (default 2^61 - 1).
        "T", timeout_mems, get_timeout_mems, timeout: u64 = (1 << 61) - 1
    );
    setting!(
        /// Trace choices (with `SHOW_CHOICES`) only on levels below this (default 1000000).
        "c", trace_max_level, get_trace_max_level, show_choices_max: i32 = 1_000_000
    );
    setting!(
        /// Truncate full state reports after this level (default 1000000).
        "C", report_max_level, get_report_max_level, show_levels_max: i32 = 1_000_000
    );
    setting!(
        /// Show details (with `SHOW_DETAILS`) only on levels at least the deepest level
        /// minus this (default 1000000).
        "l", details_level_gap, get_details_level_gap, show_choices_gap: i32 = 1_000_000
    );

    /// Randomizes the order of the lists and the ties between items, with GB_FLIP seeded by
    /// `seed` (Knuth's `s<seed>`; sets [`randomize`](Settings::randomize) too).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let s = Settings::new().random_seed(3);
    /// assert!(s.get_randomize() && s.get_random_seed() == 3);
    /// ```
    #[must_use]
    pub const fn random_seed(mut self, seed: i32) -> Settings {
        self.random_seed = seed;
        self.randomizing = true;
        self
    }

    /// The seed set by [`random_seed`](Settings::random_seed) (used only when
    /// [`get_randomize`](Settings::get_randomize) holds).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// assert_eq!(Settings::new().get_random_seed(), 0);
    /// ```
    pub const fn get_random_seed(&self) -> i32 {
        self.random_seed
    }

    /// Whether the search is randomized (Knuth's `s`; [`random_seed`](Settings::random_seed)
    /// turns it on, this setter says it outright, e.g. off again).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let s = Settings::new().random_seed(5).randomize(false);
    /// assert!(!s.get_randomize() && s.get_random_seed() == 5);
    /// ```
    #[must_use]
    pub const fn randomize(mut self, on: bool) -> Settings {
        self.randomizing = on;
        self
    }

    /// Whether the search is randomized (see [`randomize`](Settings::randomize)).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// assert!(!Settings::new().get_randomize());
    /// ```
    pub const fn get_randomize(&self) -> bool {
        self.randomizing
    }

    /// A progress report every `mems` mems (Knuth's `d`; 0 for none; default 10^10): the
    /// first is due after one interval.
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// assert_eq!(Settings::new().report_interval_mems(0).get_report_interval_mems(), 0);
    /// ```
    #[must_use]
    pub const fn report_interval_mems(mut self, mems: u64) -> Settings {
        self.delta = mems;
        self.thresh = mems;
        self
    }

    /// The interval set by [`report_interval_mems`](Settings::report_interval_mems).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// assert_eq!(Settings::new().get_report_interval_mems(), 10_000_000_000);
    /// ```
    pub const fn get_report_interval_mems(&self) -> u64 {
        self.delta
    }

    /// The mems at which the first progress report is due: one interval unless set apart
    /// with [`first_report_mems`](Settings::first_report_mems).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let s = Settings::new().report_interval_mems(100);
    /// assert_eq!(s.get_first_report_mems(), 100);
    /// ```
    pub const fn get_first_report_mems(&self) -> u64 {
        self.thresh
    }

    /// Makes the first progress report due at `mems` (later ones follow every interval);
    /// Knuth's arguments have no letter for it (`d` sets it to the interval).
    ///
    /// ```
    /// use xcover_core::dlx3::Settings;
    ///
    /// let s = Settings::new().report_interval_mems(100).first_report_mems(7);
    /// assert_eq!((s.get_report_interval_mems(), s.get_first_report_mems()), (100, 7));
    /// ```
    #[must_use]
    pub const fn first_report_mems(mut self, mems: u64) -> Settings {
        self.thresh = mems;
        self
    }
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
    /// let s = Settings::DEFAULT;
    /// assert!(!s.prints(1));
    /// let s = s.print_interval(3);
    /// assert!(s.prints(6) && !s.prints(7));
    /// let s = s.print_interval(-1);
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
    /// let s = Settings::new().print_interval(10);
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
    /// let user = Settings::new().print_interval(7).verbosity(1 | SHOW_PROFILE).max_solutions(3);
    /// let unit = user.for_units();
    /// assert_eq!(
    ///     (unit.get_print_interval(), unit.get_verbosity(), unit.get_max_solutions()),
    ///     (1, SHOW_PROFILE, u64::MAX)
    /// );
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

//! `dlx3_settings`: Knuth's command-line settings (the output streams are set apart, with
//! `dlx3_set_writers`).
#![allow(non_camel_case_types)]

use crate::raw::{out_param, Checked};
use crate::status::xcover_status;
use xcover_core::dlx3::Settings;

/// Knuth's DLX3 settings (the `v m s d c C l t T` arguments).
/// Fill it with `dlx3_settings_default()` first, then change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dlx3_settings {
    /// `v`: verbosity bit mask (1 basics, 2 choices, 4 details, 128 profile, 256 full state
    /// reports, 512 item totals, 1024 warnings). Default 1025.
    pub verbosity: u32,
    /// `m`: print solution k iff spacing != 0 and k mod spacing == 0. Default 0.
    pub spacing: i32,
    /// Nonzero: randomize with `random_seed` (Knuth's `s`). Default 0.
    pub randomize: u32,
    /// `s`: the GB_FLIP seed, used when `randomize` is nonzero.
    pub random_seed: i32,
    /// `d`: progress-report interval in mems (0: none). Default 10000000000.
    pub delta: u64,
    /// `c`: only levels < this are traced. Default 1000000.
    pub show_choices_max: i32,
    /// `C`: truncation of state/progress reports. Default 1000000.
    pub show_levels_max: i32,
    /// `l`: details only at levels >= maxl - this. Default 1000000.
    pub show_choices_gap: i32,
    /// Reserved, must be 0 (keeps the 64-bit fields aligned on every ABI).
    pub reserved: u32,
    /// `t`: stop after this many solutions. Default UINT64_MAX.
    pub max_count: u64,
    /// `T`: stop when the mem count reaches this at a search-tree node (Knuth's timeout,
    /// a deterministic mem limit). Default 2^61 - 1.
    pub timeout: u64,
}

/// Byte size of `dlx3_settings` on every target (checked by a `_Static_assert` in the
/// header).
pub const DLX3_SETTINGS_SIZE: usize = 56;

const _: () = assert!(core::mem::size_of::<dlx3_settings>() == DLX3_SETTINGS_SIZE);

impl dlx3_settings {
    // The engine's `Settings::DEFAULT`, written out so that the header gets them as the
    // `dlx3_settings_DEFAULT` macro; the assertion below and the test `dlx3_defaults` keep
    // the two (and the header) equal.
    /// Knuth's defaults.
    pub const DEFAULT: dlx3_settings = dlx3_settings {
        verbosity: 1025,
        spacing: 0,
        randomize: 0,
        random_seed: 0,
        delta: 10_000_000_000,
        show_choices_max: 1_000_000,
        show_levels_max: 1_000_000,
        show_choices_gap: 1_000_000,
        reserved: 0,
        max_count: u64::MAX,
        timeout: 0x1fff_ffff_ffff_ffff,
    };
}

const _: () = assert!(
    dlx3_settings::DEFAULT.same_as(&dlx3_settings::of(&Settings::DEFAULT)),
    "dlx3_settings::DEFAULT must be the engine's Settings::DEFAULT"
);

impl dlx3_settings {
    /// The C settings of the engine's `s` (`s.thresh` is not a setting: it starts at
    /// `delta`).
    pub const fn of(s: &Settings) -> dlx3_settings {
        dlx3_settings {
            verbosity: s.get_verbosity() as u32,
            spacing: s.get_print_interval(),
            randomize: s.get_randomize() as u32,
            random_seed: s.get_random_seed(),
            delta: s.get_report_interval_mems(),
            show_choices_max: s.get_trace_max_level(),
            show_levels_max: s.get_report_max_level(),
            show_choices_gap: s.get_details_level_gap(),
            reserved: 0,
            max_count: s.get_max_solutions(),
            timeout: s.get_timeout_mems(),
        }
    }

    /// The engine's settings of these C settings.
    pub const fn engine(&self) -> Settings {
        Settings::new()
            .verbosity(self.verbosity as i32)
            .print_interval(self.spacing)
            .random_seed(self.random_seed)
            .randomize(self.randomize != 0)
            .report_interval_mems(self.delta)
            .trace_max_level(self.show_choices_max)
            .report_max_level(self.show_levels_max)
            .details_level_gap(self.show_choices_gap)
            .max_solutions(self.max_count)
            .timeout_mems(self.timeout)
    }

    /// Field-by-field equality, usable in a constant.
    const fn same_as(&self, o: &dlx3_settings) -> bool {
        self.verbosity == o.verbosity
            && self.spacing == o.spacing
            && self.randomize == o.randomize
            && self.random_seed == o.random_seed
            && self.delta == o.delta
            && self.show_choices_max == o.show_choices_max
            && self.show_levels_max == o.show_levels_max
            && self.show_choices_gap == o.show_choices_gap
            && self.reserved == o.reserved
            && self.max_count == o.max_count
            && self.timeout == o.timeout
    }
}

/// Fills `*settings` with Knuth's defaults (v1025 m0 d10000000000 c/C/l 1000000, no
/// solution limit, T = 2^61-1, not randomized).
///
/// Returns XCOVER_OK, or XCOVER_NULL_POINTER / XCOVER_MISALIGNED.
///
/// # Safety
/// `settings` is NULL or points to writable memory for one `dlx3_settings`.
#[no_mangle]
pub unsafe extern "C" fn dlx3_settings_default(settings: *mut dlx3_settings) -> xcover_status {
    let result: Checked<xcover_status> = (|| {
        // SAFETY: forwarded from this function's contract.
        *unsafe { out_param(settings) }? = dlx3_settings::of(&Settings::DEFAULT);
        Ok(xcover_status::XCOVER_OK)
    })();
    crate::raw::status_of(result)
}

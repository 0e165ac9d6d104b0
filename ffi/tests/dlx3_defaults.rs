//! Knuth's defaults are written once, in the engine (`Settings::DEFAULT`): the C header's
//! `dlx3_settings_DEFAULT` macro, the "Default ..." words of its field comments and
//! `dlx3_settings_default()` must all give them.
use std::collections::BTreeMap;
use std::path::PathBuf;
use xcover::dlx3::{dlx3_settings, dlx3_settings_default};
use xcover::xcover_status;
use xcover_core::dlx3::Settings;

/// The engine's defaults under the C field names.
fn core_defaults() -> BTreeMap<&'static str, u64> {
    let s = Settings::DEFAULT;
    assert_eq!(
        s.get_first_report_mems(),
        s.get_report_interval_mems(),
        "the first report is due after one interval"
    );
    BTreeMap::from([
        ("verbosity", s.get_verbosity() as u64),
        ("spacing", s.get_print_interval() as u64),
        ("randomize", u64::from(s.get_randomize())),
        ("random_seed", s.get_random_seed() as u64),
        ("delta", s.get_report_interval_mems()),
        ("show_choices_max", s.get_trace_max_level() as u64),
        ("show_levels_max", s.get_report_max_level() as u64),
        ("show_choices_gap", s.get_details_level_gap() as u64),
        ("reserved", 0),
        ("max_count", s.get_max_solutions()),
        ("timeout", s.get_timeout_mems()),
    ])
}

fn header() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include/xcover.h");
    std::fs::read_to_string(path).expect("include/xcover.h is readable")
}

/// A C constant as the header writes it.
fn c_value(text: &str) -> u64 {
    match text.trim() {
        "UINT64_MAX" => u64::MAX,
        "2^61 - 1" => (1 << 61) - 1,
        t => t.parse().unwrap_or_else(|_| panic!("not a number: {t:?}")),
    }
}

#[test]
fn the_header_macro_is_the_engine_defaults() {
    let header = header();
    let line = header
        .lines()
        .find(|l| l.starts_with("#define dlx3_settings_DEFAULT "))
        .expect("the header defines dlx3_settings_DEFAULT");
    let body = line
        .split_once('{')
        .and_then(|(_, rest)| rest.rsplit_once('}'))
        .expect("a compound literal")
        .0;
    let fields: BTreeMap<&str, u64> = body
        .split(',')
        .map(|f| {
            let (name, value) = f.split_once('=').expect(".field = value");
            (name.trim().trim_start_matches('.'), c_value(value))
        })
        .collect();
    assert_eq!(fields, core_defaults());
}

#[test]
fn the_field_comments_state_the_engine_defaults() {
    let header = header();
    let start = header
        .find("typedef struct dlx3_settings {")
        .expect("the header declares dlx3_settings");
    let end = start + header[start..].find("} dlx3_settings;").expect("its end");
    // Each field's comment ends with "Default X." (the seed has none: it is used only
    // with `randomize`, and the reserved field must be 0).
    let mut pending = None;
    let mut stated = BTreeMap::new();
    for line in header[start..end].lines() {
        if let Some(at) = line.find("Default ") {
            let value = line[at + 8..].trim_end().trim_end_matches('.');
            pending = Some(c_value(value));
        } else if let Some(decl) = line.trim().strip_suffix(';') {
            let name = decl.rsplit(' ').next().expect("a field name");
            if let Some(v) = pending.take() {
                stated.insert(name, v);
            }
        }
    }
    let mut want = core_defaults();
    want.retain(|name, _| !matches!(*name, "random_seed" | "reserved"));
    assert_eq!(stated, want);
}

#[test]
fn dlx3_settings_default_fills_the_engine_defaults() {
    let mut s = std::mem::MaybeUninit::<dlx3_settings>::zeroed();
    // SAFETY: a writable dlx3_settings.
    assert_eq!(
        unsafe { dlx3_settings_default(s.as_mut_ptr()) },
        xcover_status::XCOVER_OK
    );
    // SAFETY: written by the call.
    let s = unsafe { s.assume_init() };
    assert_eq!(s.engine(), Settings::DEFAULT);
    assert_eq!(
        (s.verbosity, s.max_count, s.timeout),
        (1025, u64::MAX, (1 << 61) - 1)
    );
}

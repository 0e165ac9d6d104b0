//! include/xcover.h must be exactly what the pinned cbindgen makes of ffi/src.
//! `XCOVER_BLESS=1 cargo test -p xcover-ffi --test header` rewrites it.
use std::path::PathBuf;

fn generate() -> String {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml is readable");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses ffi/src");
    let mut bytes = Vec::new();
    bindings.write(&mut bytes);
    String::from_utf8(bytes).expect("the header is UTF-8")
}

/// A short line diff: the first differing region with a few lines of context.
fn first_difference(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let first = old
        .iter()
        .zip(&new)
        .position(|(a, b)| a != b)
        .unwrap_or(old.len().min(new.len()));
    let mut report = format!("first difference at line {}:\n", first + 1);
    for line in old.iter().skip(first).take(8) {
        report.push_str(&format!("- {line}\n"));
    }
    for line in new.iter().skip(first).take(8) {
        report.push_str(&format!("+ {line}\n"));
    }
    report.push_str(&format!(
        "({} lines committed, {} generated)\n",
        old.len(),
        new.len()
    ));
    report
}

#[test]
fn committed_header_is_up_to_date() {
    let header_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include/xcover.h");
    let generated = generate();
    if std::env::var_os("XCOVER_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&header_path, &generated).expect("include/xcover.h is writable");
        return;
    }
    let committed = std::fs::read_to_string(&header_path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/xcover.h is out of date; rerun with XCOVER_BLESS=1 to rewrite it.\n{}",
        first_difference(&committed, &generated)
    );
}

#[test]
fn header_declares_every_status_and_no_rust_names() {
    let generated = generate();
    for status in xcover::xcover_status::ALL {
        let name = format!("{status:?}");
        assert!(
            generated.contains(&format!("{name} = {}", status as u32)),
            "{name} = {} missing from the header",
            status as u32
        );
    }
    for rust_only in ["Option<", "&mut", "impl ", "CallbackSink"] {
        assert!(
            !generated.contains(rust_only),
            "Rust-only `{rust_only}` leaked into the header"
        );
    }
}

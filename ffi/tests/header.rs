//! include/xcover.h must be exactly what the pinned cbindgen makes of ffi/src.
//! `XCOVER_BLESS=1 cargo test -p xcover-ffi --test header` rewrites it.
use std::path::PathBuf;

/// cbindgen does not expand macros, so it cannot see the `xcover_status` enum that
/// `status_table!` defines in ffi/src/status.rs. This writes it out as plain Rust from the
/// same lines (each `NAME = NUMBER => MESSAGE,` without its message) for cbindgen to read,
/// and checks that it has exactly the variants the compiled table has.
fn status_enum_source() -> PathBuf {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(crate_dir.join("src/status.rs")).expect("status.rs");
    let opening = "\nstatus_table! {\n";
    let start = text.find(opening).expect("status.rs invokes status_table!") + opening.len();
    let body = &text[start..];
    let body = &body[..body.find("\n}\n").expect("the invocation ends with `}`")];
    let mut source = String::from("#[repr(u32)]\n");
    let mut variants = Vec::new();
    for line in body.lines() {
        let line = line.strip_prefix("    ").unwrap_or(line);
        match line.trim_start().starts_with("XCOVER_") {
            true => {
                let (variant, _message) = line.split_once(" => ").expect("NAME = N => MESSAGE,");
                variants.push(variant.trim().to_string());
                source.push_str(variant);
                source.push(',');
            }
            false => source.push_str(line),
        }
        source.push('\n');
    }
    let compiled: Vec<String> = xcover::xcover_status::ALL
        .iter()
        .map(|s| format!("{s:?} = {}", *s as u32))
        .collect();
    assert_eq!(
        variants, compiled,
        "the enum read from status.rs is the compiled table"
    );
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xcover_status_enum.rs");
    std::fs::write(&path, source).expect("the status enum source is writable");
    path
}

/// The header cbindgen makes, generated once per test run: the tests run on parallel
/// threads, and each generation rewrites the status enum's source file, so two at once
/// could read it half-written.
fn generate() -> String {
    static HEADER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HEADER.get_or_init(generate_once).clone()
}

fn generate_once() -> String {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml is readable");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_src(status_enum_source())
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

/// Every macro of the two public headers is used by c-examples/header_macros.c, which the
/// C tests build and run on the host and on Cortex-M: a macro that does not compile, or
/// disagrees with the library, cannot go unnoticed.
#[test]
fn every_header_macro_is_used_by_a_c_test() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let user = std::fs::read_to_string(root.join("c-examples/header_macros.c"))
        .expect("c-examples/header_macros.c");
    let mut unused = Vec::new();
    let mut seen = 0;
    for header in ["include/xcover.h", "include/xcover_static_asserts.h"] {
        let text = std::fs::read_to_string(root.join(header)).expect("header");
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("#define ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // Include guards are not for users.
            if name.ends_with("_H") {
                continue;
            }
            seen += 1;
            let used = user.match_indices(name.as_str()).any(|(at, _)| {
                let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
                let before = user[..at].chars().next_back();
                let after = user[at + name.len()..].chars().next();
                !before.is_some_and(word) && !after.is_some_and(word)
            });
            if !used {
                unused.push(name);
            }
        }
    }
    assert!(
        seen > 40,
        "only {seen} macros found: is the header parsed right?"
    );
    assert!(
        unused.is_empty(),
        "header macros no C test uses: {unused:?}"
    );
}

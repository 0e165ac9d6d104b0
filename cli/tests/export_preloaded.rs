//! `xcover dlx3 --export-*` images are the engine's own state after reading the text: a
//! preloaded search over an image must make exactly the moves of a search over the parsed
//! text. Checked over the whole shared DLX3 conformance corpus (every case that reads its
//! input successfully and does not randomize): same solutions on stdout, same counters
//! (solutions, mems, updates, cleansings, nodes, max level); only the input mems differ.
use std::path::{Path, PathBuf};

use xcover_cli::export::{build_image, fits_compact, levels_needed, to_c, Image};
use xcover_core::dlx3::{
    ArgOutcome, Dlx3, Event, HeapWorkspace, Settings, Sinks, Stats, WorkspaceView, MAX_LEVEL,
};

use xcover_core::dlx3::image::{Item, Level, Node, Width};
use xcover_core::sink::{ByteSink, Discard};

/// What the engine printed.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl ByteSink for Bytes {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// The corpus copied into cli/tests/fixtures, else the shared one beside the repository.
fn corpus_dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let fixtures = manifest.join("tests/fixtures/dlx3");
    if fixtures.join("queens8_m1").exists() {
        return fixtures;
    }
    manifest.join("../../shared/conformance/dlx3")
}

/// Runs the search to the end; returns (stdout, stats).
fn run<W: Width>(engine: &mut Dlx3<'_, W>) -> (Vec<u8>, Stats) {
    let (mut out, mut err) = (Bytes::default(), Bytes::default());
    loop {
        let mut sinks = Sinks {
            out: &mut out,
            err: &mut err,
            shape: None,
        };
        match engine.run(u64::MAX, &mut sinks) {
            Ok(Event::Done(_)) => break,
            Ok(_) => {}
            Err(e) => {
                out.0.extend(format!("error {e}").bytes());
                break;
            }
        }
    }
    (out.0, engine.stats())
}

fn settings_from(args: &str) -> Option<Settings> {
    let mut settings = Settings::DEFAULT;
    for arg in args.split_whitespace().rev() {
        if arg.starts_with('s') || arg.starts_with('S') {
            return None; // randomized or shape-file runs are not compared
        }
        if settings.apply_arg(arg.as_bytes()) != ArgOutcome::Set {
            return None;
        }
    }
    Some(settings)
}

fn parsed_run(text: &[u8], settings: Settings) -> Option<(Vec<u8>, Stats)> {
    let mut workspace = HeapWorkspace::for_input(text);
    let mut engine = Dlx3::new(workspace.as_mut_view(), settings).ok()?;
    engine.read_input(text, &mut Discard).ok()?;
    Some(run(&mut engine))
}

#[test]
fn preloaded_images_search_exactly_like_parsed_text() {
    let dir = corpus_dir();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("conformance corpus {} missing: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("input.dlx").exists())
        .collect();
    cases.sort();
    let mut compared = 0;
    let mut compact_compared = 0;
    for case in &cases {
        let args = std::fs::read_to_string(case.join("args")).unwrap();
        let Some(settings) = settings_from(&args) else {
            continue;
        };
        let text = std::fs::read(case.join("input.dlx")).unwrap();
        let Some((want_out, want)) = parsed_run(&text, settings) else {
            continue;
        };
        let image = build_image(&text, settings, &mut Discard).expect("parsed text exports");
        let mut items = image.items.clone();
        let mut nodes = image.nodes.clone();
        let mut levels = vec![Level::ZERO; MAX_LEVEL];
        let storage =
            WorkspaceView::with_shared_names(&mut items, &image.names, &mut nodes, &mut levels);
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let mut engine = Dlx3::preloaded(storage, settings, image.layout)
            .unwrap_or_else(|e| panic!("{name}: image refused: {e:?}"));
        let (got_out, got) = run(&mut engine);
        assert_eq!(got_out, want_out, "{name}: solutions differ");
        assert_eq!(
            (
                got.count,
                got.mems,
                got.cmems,
                got.updates,
                got.cleansings,
                got.nodes,
                got.maxl,
                got.imems
            ),
            (
                want.count,
                want.mems,
                want.cmems,
                want.updates,
                want.cleansings,
                want.nodes,
                want.maxl,
                0
            ),
            "{name}: counters differ"
        );
        assert!(to_c(&image, "m", "x").contains("m_image"));
        // The exported level count suffices for the whole search, and 16-bit links make
        // the same moves whenever the exporter says they fit.
        let needed = levels_needed(&image);
        if got.maxl < MAX_LEVEL as u32 - 1 {
            assert!(
                u64::from(got.maxl) < needed,
                "{name}: depth {} needs more than the exported {needed} levels",
                got.maxl
            );
        }
        if fits_compact(&image) && needed <= MAX_LEVEL as u64 {
            let narrow = |n: &Node| Node::<u16>::narrow(*n).unwrap();
            let mut nodes16: Vec<Node<u16>> = image.nodes.iter().map(narrow).collect();
            let mut items16: Vec<Item<u16>> = image
                .items
                .iter()
                .map(|i| Item::<u16>::narrow(*i).unwrap())
                .collect();
            let mut levels = vec![Level::ZERO; needed as usize];
            let storage = WorkspaceView::with_shared_names(
                &mut items16,
                &image.names,
                &mut nodes16,
                &mut levels,
            );
            match Dlx3::preloaded(storage, settings, image.layout) {
                Ok(mut compact) => {
                    let (out16, stats16) = run(&mut compact);
                    assert_eq!(out16, want_out, "{name}: 16-bit solutions differ");
                    assert_eq!(stats16.mems, want.mems, "{name}: 16-bit mems differ");
                    compact_compared += 1;
                }
                Err(e) => panic!("{name}: compact image refused: {e:?}"),
            }
        }
        compared += 1;
    }
    assert!(compared >= 100, "only {compared} corpus cases compared");
    assert!(
        compact_compared >= 100,
        "only {compact_compared} corpus cases compared with 16-bit links"
    );
}

/// c-examples/queens8_matrix.h is `xcover dlx3 --export-c queens8.dlx --name queens8`;
/// `XCOVER_BLESS=1` rewrites it.
#[test]
fn committed_queens8_export_is_up_to_date() {
    let example = Queens8Example::read();
    let generated = to_c(&example.image, "queens8", "queens8.dlx");
    bless_or_compare(&example.dir.join("queens8_matrix.h"), &generated);
}

/// c-examples/queens8.dlx and the image `xcover dlx3 --export-*` makes of it.
struct Queens8Example {
    dir: PathBuf,
    text: Vec<u8>,
    settings: Settings,
    image: Image,
}

impl Queens8Example {
    fn read() -> Self {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../c-examples");
        let text = std::fs::read(dir.join("queens8.dlx")).expect("c-examples/queens8.dlx");
        let settings = Settings::new().verbosity(0);
        let image = build_image(&text, settings, &mut Discard).expect("queens8.dlx reads");
        Queens8Example {
            dir,
            text,
            settings,
            image,
        }
    }
}

/// With `XCOVER_BLESS=1` writes `generated` to the committed export at `path`; otherwise
/// asserts that the committed file is `generated`.
fn bless_or_compare(path: &Path, generated: &str) {
    if std::env::var_os("XCOVER_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path, generated).unwrap();
    } else {
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "{} is out of date: rerun with XCOVER_BLESS=1",
            path.display()
        );
    }
}

mod queens8_rust {
    // Generated by `xcover dlx3 --export-rust queens8.dlx` (checked below).
    include!("../../c-examples/queens8_image.rs");
}

/// The Rust export compiles, is up to date (`XCOVER_BLESS=1` rewrites it), and a preloaded
/// run over it matches a run over the parsed text.
#[test]
fn rust_export_compiles_and_solves_like_the_text() {
    let Queens8Example {
        dir,
        text,
        settings,
        image,
    } = Queens8Example::read();
    let generated = xcover_cli::export::to_rust(&image, "queens8.dlx");
    bless_or_compare(&dir.join("queens8_image.rs"), &generated);
    let mut items = queens8_rust::ITEMS;
    let mut nodes = queens8_rust::NODES;
    let mut levels = [Level::ZERO; 12];
    let storage =
        WorkspaceView::with_shared_names(&mut items, &queens8_rust::NAMES, &mut nodes, &mut levels);
    let mut engine =
        Dlx3::preloaded(storage, settings, queens8_rust::LAYOUT).expect("image accepted");
    let (_, got) = run(&mut engine);
    let (_, want) = parsed_run(&text, settings).expect("text solves");
    assert_eq!(
        (got.count, got.mems, got.nodes),
        (want.count, want.mems, want.nodes)
    );
}

/// A file name that holds `*/`, `/*` or a line break cannot end the export's comments
/// early: the C header still compiles warning-free, the Rust text still parses as items.
#[test]
fn exports_of_awkward_file_names_compile() {
    let example = Queens8Example::read();
    let source = "d*/m.dlx\n*/ int broken; /* \r";
    let header = to_c(&example.image, "awkward", source);
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("awkward.h");
    std::fs::write(&h, &header).unwrap();
    let c = dir.path().join("use.c");
    std::fs::write(&c, "#include \"awkward.h\"\nint main(void) { return AWKWARD_LAST_ITM == 0u && awkward_image.names == 0; }\n").unwrap();
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include");
    let out = std::process::Command::new("cc")
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-fsyntax-only",
            "-I",
        ])
        .arg(&include)
        .arg("-I")
        .arg(dir.path())
        .arg(&c)
        .output()
        .expect("cc runs");
    assert!(
        out.status.success(),
        "{}\n{header:.400}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rust = xcover_cli::export::to_rust(&example.image, source);
    let code: Vec<&str> = rust.lines().filter(|l| !l.starts_with("//")).collect();
    assert!(code[0].starts_with("use xcover_core"), "{:?}", &code[..2]);
}

//! `xcover dlx3 --export-c FILE` / `--export-rust FILE`: turns a `.dlx` matrix into const
//! arrays that the preloaded API solves without parsing (C: `dlx3_init_preloaded` with a
//! `dlx3_image`; Rust: `Dlx3::preloaded` with `WorkspaceView::with_shared_names`).
//!
//! The arrays are the engine's own data structures exactly as reading the text leaves them
//! (item records, node records, names, layout), so a preloaded search makes the same moves,
//! prints the same solutions and counts the same search mems as `xcover dlx3` on the text
//! (only the input mems are 0). Names stay in the const image (flash); only the item and
//! node records are copied into RAM.
//!
//! The C header also says how many levels every search of the matrix fits in, and how much
//! RAM a workspace needs (`XCOVER_DLX3_PRELOADED_SIZE`, and `XCOVER_DLX3_COMPACT_SIZE` when
//! the matrix fits 16-bit links; then its records are emitted with 16-bit fields too).
use crate::error::{CliError, Kind};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use xcover_core::sink::ByteSink;

use xcover_core::dlx3::{
    measure, ArgOutcome, Dlx3, Dlx3Error, HeapWorkspace, Name, Settings, WorkspaceView, MAX_LEVEL,
};

use xcover_core::dlx3::image::{Item, Layout, Level, Node};

/// The engine's data after reading a matrix: everything a preloaded run needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Matrix shape.
    pub layout: Layout,
    /// Names of items 0..=last_itm (the root's and the last one are all zero).
    pub names: Vec<Name>,
    /// Item records 0..=last_itm (the last one all zero).
    pub items: Vec<Item>,
    /// Node records 0..=last_node.
    pub nodes: Vec<Node>,
}

impl Image {
    /// The matrix of `e`, which must be at the start of its search (input read, nothing
    /// explored). The names of the root and of the spacer after the last item, which no
    /// output shows, are all zero.
    pub fn of(e: &Dlx3<'_>) -> Image {
        let layout = e.layout();
        let last_itm = layout.last_itm as usize;
        let mut items = e.items().to_vec();
        items.resize(last_itm + 1, Item::ZERO);
        let mut names: Vec<Name> = (0..last_itm as u32).map(|k| e.item_name(k)).collect();
        names[0] = [0; 8];
        names.push([0; 8]);
        Image {
            layout,
            names,
            items,
            nodes: e.nodes().to_vec(),
        }
    }

    /// Storage for one more engine over this matrix (its names shared, not copied).
    pub fn storage(&self) -> (Vec<Item>, Vec<Node>, Vec<Level>) {
        (
            self.items.clone(),
            self.nodes.clone(),
            vec![Level::ZERO; MAX_LEVEL],
        )
    }

    /// An engine over `storage` (from [`Image::storage`]), at the start of its search.
    pub fn engine<'a>(
        &'a self,
        storage: &'a mut (Vec<Item>, Vec<Node>, Vec<Level>),
        settings: Settings,
    ) -> Result<Dlx3<'a>, Dlx3Error> {
        let (items, nodes, levels) = storage;
        let view = WorkspaceView::with_shared_names(items, &self.names, nodes, levels);
        Dlx3::preloaded(view, settings, self.layout)
    }
}

/// Why a matrix could not be exported.
#[derive(Debug)]
pub struct ExportError {
    /// Knuth's report (`MESSAGE!` and `P: LINE`), as `xcover dlx3` would print it.
    pub report: Vec<u8>,
    /// The error; its exit status is Knuth's ([`crate::error::Kind::Dlx3`]).
    pub error: xcover_core::dlx3::Dlx3Error,
}

/// A byte sink that collects what the engine writes.
#[derive(Default)]
struct Collect(Vec<u8>);

impl ByteSink for Collect {
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// Reads `text` with `settings` (only `s`, the randomization of list order, affects the
/// image) and returns the engine's data structures. Warnings go to `warnings`.
pub fn build_image(
    text: &[u8],
    settings: Settings,
    warnings: &mut dyn ByteSink,
) -> Result<Image, ExportError> {
    let mut workspace = HeapWorkspace::new(measure(text), 1);
    let storage = workspace.as_mut_view();
    let fail = |engine: &Dlx3<'_>, e: xcover_core::dlx3::Dlx3Error| {
        let mut report = Collect::default();
        engine.write_error_report(&e, &mut report);
        ExportError {
            report: report.0,
            error: e,
        }
    };
    let mut engine = Dlx3::new(storage, settings).map_err(|e| ExportError {
        report: format!("{e}\n").into_bytes(),
        error: e,
    })?;
    if let Err(e) = engine.read_input(text, warnings) {
        return Err(fail(&engine, e));
    }
    Ok(Image::of(&engine))
}

/// A C identifier from `raw` (letters, digits, `_`; never starting with a digit).
pub fn c_identifier(raw: &str) -> String {
    let mut id: String = raw
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert_str(0, "m_");
    }
    id
}

fn name_bytes(name: &Name) -> String {
    name.iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn printable(name: &Name) -> String {
    name.iter()
        .take_while(|&&b| b != 0)
        .map(|&b| {
            if (0x21..0x7f).contains(&b) && b != b'*' && b != b'/' {
                b as char
            } else {
                '?'
            }
        })
        .collect()
}

/// `text` (a file name) as it can stand inside a C block comment or a Rust line comment:
/// control characters and line breaks become `?`; `*/` (which would end the comment) and
/// `/*` (which `-Wcomment` warns about) get a space between their characters.
fn comment_safe(text: &str) -> String {
    let line_break = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    let plain: String = text
        .chars()
        .map(|c| if line_break(c) { '?' } else { c })
        .collect();
    plain.replace("*/", "* /").replace("/*", "/ *")
}

/// Levels enough for any search of `image`: every move takes at least one unit off the
/// upper bounds of the primary items, an option as many as it has primary items (at least
/// `m`, the fewest of any option), a null move one but only within an item's slack; so the
/// depth is at most `sum of upper bounds / m + sum of slacks`, and the engine needs one
/// level more than the depth.
pub fn levels_needed(image: &Image) -> u64 {
    let l = image.layout;
    let primary = 1..l.second as usize;
    let bounds: u64 = image.items[primary.clone()]
        .iter()
        .map(|it| it.bound.max(0) as u64)
        .sum();
    let slack: u64 = image.items[primary]
        .iter()
        .map(|it| it.slack.max(0) as u64)
        .sum();
    let mut fewest = u64::MAX;
    let mut in_option = 0u64;
    for node in &image.nodes[l.last_itm as usize + 1..] {
        if node.itm <= 0 {
            fewest = fewest.min(in_option);
            in_option = 0;
        } else if (node.itm as u32) < l.second {
            in_option += 1;
        }
    }
    // An input without options has depth 0; every kept option has a primary item.
    let option_moves = if fewest == u64::MAX {
        0
    } else {
        bounds / fewest.max(1)
    };
    option_moves + slack + 1
}

/// Whether `image` fits a compact (16-bit) workspace (`dlx3_init_compact`).
pub fn fits_compact(image: &Image) -> bool {
    image.nodes.len() <= u16::MAX as usize
        && image.items.len() <= u16::MAX as usize
        && image
            .nodes
            .iter()
            .all(|&n| Node::<u16>::narrow(n).is_some())
        && image
            .items
            .iter()
            .all(|&i| Item::<u16>::narrow(i).is_some())
}

/// The C header for `image`: `static const` arrays and a `dlx3_image` named `{id}_image`,
/// plus `{ID}_LAST_ITM`, `{ID}_LAST_NODE`, `{ID}_LEVELS`, `{ID}_WORKSPACE_SIZE(levels)` and,
/// when the matrix fits 16-bit links, `{ID}_COMPACT_WORKSPACE_SIZE(levels)`.
pub fn to_c(image: &Image, id: &str, source: &str) -> String {
    let source = comment_safe(source);
    let upper = id.to_ascii_uppercase();
    let l = image.layout;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* {id}: DLX3 matrix exported by `xcover dlx3 --export-c {source}`; do not edit. */"
    );
    let _ = writeln!(
        s,
        "/* {} options, {}+{} items, {} entries. */",
        l.options,
        l.second - 1,
        l.last_itm - l.second,
        l.last_node - l.last_itm
    );
    let _ = writeln!(s, "#ifndef XCOVER_MATRIX_{upper}_H\n#define XCOVER_MATRIX_{upper}_H\n\n#include \"xcover.h\"\n");
    let _ = writeln!(
        s,
        "/* The const arrays below can stay in flash; a search needs a RAM buffer of\n * {upper}_WORKSPACE_SIZE(levels) bytes for dlx3_init_preloaded(){}. */",
        if fits_compact(image) {
            format!(",\n * or {upper}_COMPACT_WORKSPACE_SIZE(levels) for dlx3_init_compact() (16-bit links)")
        } else {
            String::new()
        }
    );
    let _ = writeln!(s, "#define {upper}_LAST_ITM {}u", l.last_itm);
    let _ = writeln!(s, "#define {upper}_LAST_NODE {}u", l.last_node);
    let _ = writeln!(
        s,
        "/* Levels enough for every search of this matrix (fewer can end in XCOVER_TOO_MANY_LEVELS). */"
    );
    let _ = writeln!(s, "#define {upper}_LEVELS {}u", levels_needed(image));
    let _ = writeln!(
        s,
        "#define {upper}_WORKSPACE_SIZE(levels) XCOVER_DLX3_PRELOADED_SIZE({upper}_LAST_ITM, {upper}_LAST_NODE, levels)"
    );
    if fits_compact(image) {
        let _ = writeln!(
            s,
            "#define {upper}_COMPACT_WORKSPACE_SIZE(levels) XCOVER_DLX3_COMPACT_SIZE({upper}_LAST_ITM, {upper}_LAST_NODE, levels)"
        );
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "static const uint8_t {id}_names[{}] = {{",
        image.names.len() * 8
    );
    for (k, name) in image.names.iter().enumerate() {
        let _ = writeln!(s, "    {}, /* {k} {} */", name_bytes(name), printable(name));
    }
    // Records with 16-bit fields when they fit: half the flash, and what a compact
    // workspace copies as it is.
    let compact = fits_compact(image);
    let (suffix, item_type, node_type) = if compact {
        ("16", "dlx3_item16", "dlx3_node16")
    } else {
        ("", "dlx3_item", "dlx3_node")
    };
    let unsigned = if compact { "" } else { "u" };
    let _ = writeln!(
        s,
        "}};\n\nstatic const {item_type} {id}_items{suffix}[{}] = {{",
        image.items.len()
    );
    for it in &image.items {
        let _ = writeln!(
            s,
            "    {{{}{unsigned}, {}{unsigned}, {}, {}}},",
            it.prev, it.next, it.bound, it.slack
        );
    }
    let _ = writeln!(
        s,
        "}};\n\nstatic const {node_type} {id}_nodes{suffix}[{}] = {{",
        image.nodes.len()
    );
    for nd in &image.nodes {
        let _ = writeln!(
            s,
            "    {{{}{unsigned}, {}{unsigned}, {}, {}}},",
            nd.up, nd.down, nd.itm, nd.color
        );
    }
    let _ = writeln!(s, "}};\n\nstatic const dlx3_image {id}_image = {{");
    let _ = writeln!(
        s,
        "    DLX3_IMAGE_VERSION, {}u, {}u, {}u, {}u,",
        l.last_itm, l.second, l.last_node, l.options
    );
    let records = if compact {
        format!("NULL, NULL, {id}_items16, {id}_nodes16")
    } else {
        format!("{id}_items, {id}_nodes, NULL, NULL")
    };
    let _ = writeln!(
        s,
        "    {id}_names, {records},\n}};\n\n#endif /* XCOVER_MATRIX_{upper}_H */"
    );
    s
}

/// The Rust module for `image`: consts for `Dlx3::preloaded` (copy ITEMS and NODES into
/// mutable storage; NAMES can stay in flash).
pub fn to_rust(image: &Image, source: &str) -> String {
    let source = comment_safe(source);
    let l = image.layout;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// DLX3 matrix exported by `xcover dlx3 --export-rust {source}`; do not edit."
    );
    let _ = writeln!(s, "// Use: `mod m {{ include!(\"this_file.rs\"); }}`, copy ITEMS and NODES into mutable arrays,");
    let _ = writeln!(s, "// then `Dlx3::preloaded(WorkspaceView::with_shared_names(&mut items, &NAMES, &mut nodes, &mut levels), settings, LAYOUT)`.");
    // The records are the documented image format of `xcover_core::dlx3::image`.
    let _ = writeln!(s, "use xcover_core::dlx3::image::{{Item, Layout, Node}};");
    let _ = writeln!(s, "use xcover_core::dlx3::Name;\n");
    let _ = writeln!(s, "/// Shape of the matrix.");
    let _ = writeln!(
        s,
        "pub const LAYOUT: Layout = Layout {{ last_itm: {}, second: {}, last_node: {}, options: {} }};",
        l.last_itm, l.second, l.last_node, l.options
    );
    let _ = writeln!(s, "/// Item names (read-only; may stay in flash).");
    let _ = writeln!(s, "pub static NAMES: [Name; {}] = [", image.names.len());
    for name in &image.names {
        let _ = writeln!(s, "    [{}],", name_bytes(name));
    }
    let _ = writeln!(s, "];\n/// Initial item records (copy into mutable storage).\npub const ITEMS: [Item; {}] = [", image.items.len());
    for it in &image.items {
        let _ = writeln!(
            s,
            "    Item {{ prev: {}, next: {}, bound: {}, slack: {} }},",
            it.prev, it.next, it.bound, it.slack
        );
    }
    let _ = writeln!(s, "];\n/// Initial node records (copy into mutable storage).\npub const NODES: [Node; {}] = [", image.nodes.len());
    for nd in &image.nodes {
        let _ = writeln!(
            s,
            "    Node {{ up: {}, down: {}, itm: {}, color: {} }},",
            nd.up, nd.down, nd.itm, nd.color
        );
    }
    let _ = writeln!(s, "];");
    s
}

const EXPORT_USAGE: &str =
    "Usage: xcover dlx3 --export-c|--export-rust FILE [--name ID] [s<seed>] > out \
     (FILE - reads stdin; xcover dlx3 --help)\n";

/// Prints the export usage line; dlx3's usage error.
pub(crate) fn usage_error() -> CliError {
    let _ = std::io::stderr().write_all(EXPORT_USAGE.as_bytes());
    CliError::quiet(Kind::KnuthUsage)
}

/// `xcover dlx3 --export-c FILE [--name ID] [s<n>]` (or `--export-rust`), as
/// `dlx3::options` read it. FILE `-` is stdin.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Export {
    file: OsString,
    rust: bool,
    name: Option<OsString>,
    letters: Vec<OsString>,
}

impl Export {
    /// `--export-c FILE`.
    pub(crate) fn c(file: OsString) -> Export {
        Export {
            file,
            rust: false,
            name: None,
            letters: Vec::new(),
        }
    }

    /// `--export-rust FILE`.
    pub(crate) fn rust(file: OsString) -> Export {
        Export {
            rust: true,
            ..Export::c(file)
        }
    }

    /// With `--name ID`.
    pub(crate) fn named(self, name: Option<OsString>) -> Export {
        Export { name, ..self }
    }

    /// With Knuth's letters (only `s<n>` applies).
    pub(crate) fn with_letters(self, letters: Vec<OsString>) -> Export {
        Export { letters, ..self }
    }
}

/// Writes the exported matrix to stdout: an input error is Knuth's report on stderr and
/// his status (102), a usage error dlx3's (255), a failed read or write status 1.
pub(crate) fn export(args: Export) -> Result<(), CliError> {
    let mut err = std::io::stderr();
    let rust = args.rust;
    let file = &*args.file.to_string_lossy();
    let id = args.name.map(|n| c_identifier(&n.to_string_lossy()));
    let mut settings = Settings::new().verbosity(0);
    for letter in &args.letters {
        let letter = letter.as_encoded_bytes();
        if !(letter.starts_with(b"s") && settings.apply_arg(letter) == ArgOutcome::Set) {
            return Err(usage_error());
        }
    }
    // Bounded like every read of the command (`/dev/zero` is an error, not an abort).
    let limit = crate::memory::default_limit();
    let text = if file == "-" {
        crate::memory::read_bounded(std::io::stdin().lock(), limit, "standard input")
    } else {
        std::fs::File::open(file)
            .map_err(|error| crate::memory::MemoryError::CantRead {
                what: file.to_owned(),
                error,
            })
            .and_then(|f| crate::memory::read_bounded(f, limit, file))
    };
    let text = text?;
    let id = id.unwrap_or_else(|| {
        let stem = std::path::Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        c_identifier(&stem.unwrap_or_else(|| "matrix".into()))
    });
    let mut warnings = Collect::default();
    let image = build_image(&text, settings, &mut warnings);
    let _ = err.write_all(&warnings.0);
    let image = match image {
        Ok(i) => i,
        Err(e) => {
            let _ = err.write_all(&e.report);
            return Err(CliError::quiet(Kind::Dlx3(e.error)));
        }
    };
    let out = if rust {
        to_rust(&image, file)
    } else {
        to_c(&image, &id, file)
    };
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|e| CliError::failure(format!("can't write the export: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_valid_c() {
        assert_eq!(c_identifier("queens8"), "queens8");
        assert_eq!(c_identifier("8-queens.v2"), "m_8_queens_v2");
        assert_eq!(c_identifier(""), "m_");
    }

    #[test]
    fn image_of_a_small_matrix() {
        let mut warnings = Collect::default();
        let image =
            build_image(b"A B | C\nA C:x\nB C:y\n", Settings::DEFAULT, &mut warnings).unwrap();
        assert_eq!(image.layout.last_itm, 4);
        assert_eq!(image.layout.second, 3);
        assert_eq!(image.layout.options, 2);
        assert_eq!(image.names.len(), 5);
        assert_eq!(&image.names[3][..2], b"C\0");
        assert_eq!(image.items.len(), 5);
        assert_eq!(image.nodes.len(), image.layout.last_node as usize + 1);
        let c = to_c(&image, "small", "small.dlx");
        assert!(c.contains("static const dlx3_image small_image"));
        assert!(c.contains("#define SMALL_LAST_ITM 4u"));
        let r = to_rust(&image, "small.dlx");
        assert!(r.contains("pub const LAYOUT: Layout"));
    }

    #[test]
    fn file_names_cannot_end_a_comment() {
        let mut warnings = Collect::default();
        let image = build_image(b"A\nA\n", Settings::DEFAULT, &mut warnings).unwrap();
        let source = "d*/m.dlx\n*/ int x; /*\r\u{2028}";
        let c = to_c(&image, "m", source);
        let first = c.lines().next().unwrap();
        assert!(
            first.starts_with("/* m: ") && first.ends_with(" */"),
            "{first}"
        );
        assert_eq!(first.matches("*/").count(), 1, "{first}");
        assert!(first.contains("d* /m.dlx?* / int x; / *??"), "{first}");
        let r = to_rust(&image, source);
        let lines: Vec<&str> = r.lines().take(3).collect();
        assert!(lines.iter().all(|l| l.starts_with("//")), "{lines:?}");
        assert!(lines[0].contains("d* /m.dlx?* / int x; / *??"), "{lines:?}");
    }

    #[test]
    fn input_errors_give_knuths_report() {
        let mut warnings = Collect::default();
        let e = build_image(b"A B\nA X\n", Settings::DEFAULT, &mut warnings).unwrap_err();
        assert_eq!(e.error.exit_status(), 102);
        assert_eq!(e.report, b"Unknown item name!\n2: A X\n\n");
    }
}

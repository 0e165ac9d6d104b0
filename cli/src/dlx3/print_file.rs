//! The print file of a second pass that writes the text in place: where every unit's
//! text goes (`Placement`, from the first pass's lengths), the file made at its final
//! size (`create_print_file`) and its binding to one plan (`Bound`). The plan
//! (`second_pass`) makes it; the second pass and the merge (`placed`) check it.
use std::fs::{File, OpenOptions};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use xcover_core::dlx3::Settings;

use super::merge::Parts;
use super::part_file;

/// Why a print file can't be planned or made.
#[derive(Debug)]
pub(crate) enum PrintFileError {
    /// The run's settings may end the search inside a unit (`why`).
    Obstacle(&'static str),
    /// The output's length overflows.
    Overflow,
    /// Unit `name`'s text lengths are not for the print spacing `m`.
    Spacing { name: String, m: u64 },
    /// Reading the nonce's bits failed.
    Urandom(std::io::Error),
    /// A file at the print file's path that is not one of the plan's size.
    Exists { path: PathBuf, size: u64 },
    /// An I/O error on the print file `name`.
    Io { name: String, error: std::io::Error },
}

impl std::fmt::Display for PrintFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use PrintFileError as E;
        match self {
            E::Obstacle(why) => write!(
                f,
                "the text of a run with {why} can't be placed ahead of the merge (the \
                 search may end inside a unit): merge the parts without a second pass"
            ),
            E::Overflow => f.write_str("the output's length overflows"),
            E::Spacing { name, m } => write!(f, "{name}: its text lengths are not for m{m}"),
            E::Urandom(e) => write!(f, "/dev/urandom: {e}"),
            E::Exists { path, size } => write!(
                f,
                "{}: exists, and is not a print file of this plan's size ({size} bytes); \
                 not touched",
                path.display()
            ),
            E::Io { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

impl std::error::Error for PrintFileError {}

impl From<PrintFileError> for crate::error::CliError {
    fn from(e: PrintFileError) -> crate::error::CliError {
        crate::error::CliError::failure(e.to_string())
    }
}

/// Why the text of a run with these settings cannot be placed ahead of the merge: the
/// search may end inside a unit (a limit), so the text would not be the units' whole.
/// (A unit with a progress report is explored again by the merge, for the report; its
/// text, in the print file already, then goes nowhere.)
pub(crate) fn obstacle(settings: &Settings) -> Option<&'static str> {
    let plain = Settings::new();
    if settings.get_max_solutions() != plain.get_max_solutions() {
        Some("a solution limit (t<n>)")
    } else if settings.get_timeout_mems() != plain.get_timeout_mems() {
        Some("a timeout (T<n>)")
    } else {
        None
    }
}

/// Where every unit's text goes in the output.
pub(crate) struct Placement {
    /// The bytes each unit prints, in unit order.
    pub lengths: Vec<u64>,
    /// Where each unit's text starts, in unit order.
    pub offsets: Vec<u64>,
    /// The output's size.
    pub total: u64,
}

impl Placement {
    /// The placement of checked parts with lengths, under the run's `settings`.
    pub fn of(settings: &Settings, parts: &Parts) -> Result<Placement, PrintFileError> {
        if let Some(why) = obstacle(settings) {
            return Err(PrintFileError::Obstacle(why));
        }
        let m = part_file::spacing(settings);
        let mut lengths = Vec::with_capacity(parts.counts.len());
        let mut base = 0u64;
        let overflow = || PrintFileError::Overflow;
        for (&(k, count), (j, sums)) in parts.counts.iter().zip(&parts.sums) {
            if k != *j || sums.len() as u64 != m {
                return Err(PrintFileError::Spacing {
                    name: parts.name_of(k),
                    m,
                });
            }
            let end = base.checked_add(count).ok_or_else(overflow)?;
            let bodies = sums[((m - base % m) % m) as usize];
            let numbers = number_lines(base, end, m).ok_or_else(overflow)?;
            lengths.push(bodies.checked_add(numbers).ok_or_else(overflow)?);
            base = end;
        }
        Placement::from_lengths(lengths).ok_or_else(overflow)
    }

    /// The placement of units printing `lengths` bytes each, in order (`None` if the
    /// output's size overflows).
    pub fn from_lengths(lengths: Vec<u64>) -> Option<Placement> {
        let mut offsets = Vec::with_capacity(lengths.len());
        let mut total = 0u64;
        for &l in &lengths {
            offsets.push(total);
            total = total.checked_add(l)?;
        }
        Some(Placement {
            lengths,
            offsets,
            total,
        })
    }

    /// The `plan` record's payload: the output's size and the digest of the lengths,
    /// then the print file's binding (`bound`, the plan's `print` record).
    pub(crate) fn plan_record(&self, bound: &Bound) -> Vec<u8> {
        let mut r = self.plan_prefix();
        r.push(b' ');
        r.extend_from_slice(&bound.encode());
        r
    }

    /// The part of the `plan` record the parts alone determine.
    pub(crate) fn plan_prefix(&self) -> Vec<u8> {
        use sha2::Digest as _;
        let mut d = sha2::Sha256::new();
        for l in &self.lengths {
            d.update(l.to_le_bytes());
        }
        let hex: String = d.finalize().iter().map(|b| format!("{b:02x}")).collect();
        format!("size {} lengths {hex}", self.total).into_bytes()
    }
}

/// The print file a plan made (or kept), bound to that one plan: a random nonce drawn
/// each time `merge --plan` runs, and the file's identity (device, inode, birth time
/// where the file system keeps one). Every placed part carries it; the second pass and
/// the merge refuse a print file whose identity differs (deleted and made again, or
/// replaced), and placed parts of different plans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    /// 128 random bits, hex.
    nonce: String,
    /// `dev D ino I born B` of the print file.
    identity: String,
}

impl Bound {
    /// A fresh binding of the print file whose metadata is `meta`.
    fn draw(meta: &std::fs::Metadata) -> Result<Bound, PrintFileError> {
        let mut bits = [0u8; 16];
        File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut bits))
            .map_err(PrintFileError::Urandom)?;
        Ok(Bound {
            nonce: bits.iter().map(|b| format!("{b:02x}")).collect(),
            identity: identity_of(meta),
        })
    }

    /// The `print` record's payload: `run NONCE dev D ino I born B`.
    pub(crate) fn encode(&self) -> Vec<u8> {
        format!("run {} {}", self.nonce, self.identity).into_bytes()
    }

    /// A `print` record read back (`None`: it makes no sense).
    pub(crate) fn decode(payload: &[u8]) -> Option<Bound> {
        let text = std::str::from_utf8(payload).ok()?;
        let w: Vec<&str> = text.split(' ').collect();
        let hex =
            |s: &str| s.len() == 32 && s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
        let num = |s: &str| part_file::number(s.as_bytes()).is_some();
        let born = |s: &str| s == "?" || num(s);
        let fits = w.len() == 8
            && (w[0], w[2], w[4], w[6]) == ("run", "dev", "ino", "born")
            && hex(w[1])
            && num(w[3])
            && num(w[5])
            && born(w[7]);
        fits.then(|| Bound {
            nonce: w[1].to_owned(),
            identity: w[2..].join(" "),
        })
    }

    /// Whether `meta` is the print file this binding names.
    pub(crate) fn names(&self, meta: &std::fs::Metadata) -> bool {
        self.identity == identity_of(meta)
    }
}

/// `dev D ino I born B` (B in nanoseconds since 1970, `?` where the file system keeps
/// no birth time): two files alive at once never share it, and a file made again after
/// one was deleted differs in its birth time (where kept) if not in its inode.
fn identity_of(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt as _;
    let born = meta
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or_else(|| "?".to_owned(), |d| d.as_nanos().to_string());
    format!("dev {} ino {} born {born}", meta.dev(), meta.ino())
}

/// What the second pass and the merge say of a print file that is not the one the plan
/// made.
pub(crate) fn not_the_plans(name: &std::path::Display<'_>) -> String {
    format!(
        "{name}: not the print file the plan made (deleted and made again, or replaced, since: its device, inode or birth time differ), or the plan was made again since; not used"
    )
}

/// The bytes of Knuth's `n:` lines of the printed solutions numbered `lo + 1 ..= hi`
/// (those divisible by `m`): the digits and `:\n` each.
pub(crate) fn number_lines(lo: u64, hi: u64, m: u64) -> Option<u64> {
    let mut bytes = 0u64;
    let mut first = 1u64; // the smallest number of `digits` digits
    for digits in 1..=20u64 {
        let last = first.checked_mul(10).map_or(u64::MAX, |x| x - 1);
        let (a, b) = (first.max(lo + 1), last.min(hi));
        if a <= b {
            let multiples = b / m - (a - 1) / m;
            bytes = bytes.checked_add(multiples.checked_mul(digits + 2)?)?;
        }
        match first.checked_mul(10) {
            Some(f) => first = f,
            None => break,
        }
    }
    Some(bytes)
}

/// Creates the print file `path` at `size` bytes (zeros, sparse), born whole: sized and
/// synced under a temporary name beside it, then linked to its name, never replacing a
/// file. A file already there of exactly that size is kept (the plan made again); any
/// other is refused. Returns what was done, and the file's fresh binding (a new nonce
/// each time: placed parts of an earlier plan are refused by the second pass).
pub(crate) fn create_print_file(
    path: &Path,
    size: u64,
) -> Result<(&'static str, Bound), PrintFileError> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_file() && meta.len() == size {
            return Ok((
                "kept: it has that size already; placed parts of an earlier plan no longer \
                 serve",
                Bound::draw(&meta)?,
            ));
        }
        return Err(PrintFileError::Exists {
            path: path.to_owned(),
            size,
        });
    }
    let file_name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let temp = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let made = (|| {
        let f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        f.set_len(size)?;
        f.sync_all()?;
        let meta = f.metadata()?;
        std::fs::hard_link(&temp, path)?;
        Ok::<_, std::io::Error>(meta)
    })();
    let _ = std::fs::remove_file(&temp);
    let meta = made.map_err(|error| PrintFileError::Io {
        name: path.display().to_string(),
        error,
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(("created", Bound::draw(&meta)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_lines_are_the_bytes_of_printfs_lines() {
        let brute = |lo: u64, hi: u64, m: u64| -> u64 {
            (lo + 1..=hi)
                .filter(|n| n % m == 0)
                .map(|n| n.to_string().len() as u64 + 2)
                .sum()
        };
        for m in 1..=8 {
            for (lo, hi) in [(0, 0), (0, 9), (5, 12), (8, 101), (95, 1003), (0, 20_000)] {
                assert_eq!(
                    number_lines(lo, hi, m),
                    Some(brute(lo, hi, m)),
                    "{lo} {hi} m{m}"
                );
            }
        }
        let top = u64::MAX;
        assert_eq!(number_lines(top - 3, top, 1), Some(3 * 22));
    }

    #[test]
    fn a_binding_reads_back_bad_ones_are_refused_and_placements_add_up() {
        let meta = std::fs::metadata(std::env::temp_dir()).unwrap();
        let b = Bound::draw(&meta).unwrap();
        assert_eq!(Bound::decode(&b.encode()), Some(b.clone()));
        assert!(b.names(&meta));
        assert_ne!(Bound::draw(&meta).unwrap(), b, "a new nonce each time");
        let good = format!("run {} dev 1 ino 2 born ?", "0f".repeat(16));
        assert!(Bound::decode(good.as_bytes()).is_some());
        for bad in [
            format!("run {} dev 1 ino 2 born ?\n", "0f".repeat(16)),
            format!("run {} dev 1 ino 2 born ?", "0F".repeat(16)),
            format!("run {} dev 1 ino 2 born ?", "0f".repeat(15)),
            format!("run {} dev 01 ino 2 born ?", "0f".repeat(16)),
            format!("run {} dev 1 ino 2 born", "0f".repeat(16)),
            format!("run {} ino 1 dev 2 born 3", "0f".repeat(16)),
        ] {
            assert!(Bound::decode(bad.as_bytes()).is_none(), "{bad}");
        }
        let placement = Placement::from_lengths(vec![3, 0, 5]).unwrap();
        assert_eq!((placement.offsets, placement.total), (vec![0, 3, 3], 8));
        assert!(Placement::from_lengths(vec![u64::MAX, 1]).is_none());
    }
}

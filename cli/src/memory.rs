//! `--max-memory SIZE`: the memory limit of `xcover dlx3` and `xcover gridcheck`. Both
//! compute what an input needs before allocating it and refuse an input over the limit.
use std::fmt;

/// The default limit's upper end: 4 GiB.
pub const DEFAULT_CEILING: u64 = 4 << 30;

/// The default limit: 4 GiB, or three quarters of the physical memory when that is less
/// (4 GiB where the system does not say how much it has).
pub fn default_limit() -> u64 {
    match physical_memory() {
        Some(bytes) if bytes > 0 => DEFAULT_CEILING.min(bytes / 4 * 3),
        _ => DEFAULT_CEILING,
    }
}

/// Bytes of physical memory: `sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE)` (on Linux
/// the `MemTotal` of `/proc/meminfo`); `None` when either is unknown.
fn physical_memory() -> Option<u64> {
    // SAFETY: sysconf takes an integer and touches no memory of ours; an unknown name
    // returns -1, which the conversion to u64 refuses.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    u64::try_from(pages)
        .ok()?
        .checked_mul(u64::try_from(page_size).ok()?)
}

/// What is wrong with a size, or with an input against the limit.
#[derive(Debug)]
pub enum MemoryError {
    /// `--max-memory TEXT` is not a size.
    BadSize {
        /// The value given.
        text: String,
    },
    /// `--max-memory TEXT` does not fit 64 bits.
    SizeTooLarge {
        /// The value given.
        text: String,
    },
    /// An input needs more memory than the limit.
    OverLimit {
        /// The input (`the input file`).
        what: String,
        /// Bytes it needs.
        need: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// Reading an input failed.
    CantRead {
        /// The input (`standard input`, a file name).
        what: String,
        /// Why.
        error: std::io::Error,
    },
    /// An input, read to its end, is larger than the limit.
    ReadOverLimit {
        /// The input.
        what: String,
        /// Bytes allowed.
        limit: u64,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::BadSize { text } => {
                write!(f, "bad size `{text}' (expected e.g. 4096, 512M, 4G)")
            }
            MemoryError::SizeTooLarge { text } => write!(f, "size `{text}' is too large"),
            MemoryError::OverLimit { what, need, limit } => write!(
                f,
                "{what} needs {} ({need} bytes) of memory, over the limit of {} ({limit} \
                 bytes); raise it with --max-memory SIZE",
                Human(*need),
                Human(*limit)
            ),
            MemoryError::CantRead { what, error } => write!(f, "can't read {what}: {error}"),
            MemoryError::ReadOverLimit { what, limit } => write!(
                f,
                "{what} is larger than the limit of {} ({limit} bytes); raise it with \
                 --max-memory SIZE",
                Human(*limit)
            ),
        }
    }
}

// The I/O error's text is in the message already: no cause is given again.
impl std::error::Error for MemoryError {}

/// Parses a size: a whole number of bytes with an optional binary suffix `K`, `M`, `G`,
/// `T` (also `KiB`, `MB`, ...: powers of 1024 either way).
pub fn parse_size(text: &str) -> Result<u64, MemoryError> {
    let bad = || MemoryError::BadSize {
        text: text.to_owned(),
    };
    let trimmed = text.trim();
    let digits_end = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    if digits_end == 0 {
        return Err(bad());
    }
    let number: u64 = trimmed[..digits_end].parse().map_err(|_| bad())?;
    let suffix = trimmed[digits_end..].to_ascii_uppercase();
    let shift = match suffix.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| MemoryError::SizeTooLarge {
            text: text.to_owned(),
        })
}

/// A byte count in the largest binary unit that keeps it above 1 (`1.5 GiB`).
pub struct Human(pub u64);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 < 1024 {
            return write!(f, "{} bytes", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        write!(f, "{value:.1} {}", UNITS[unit])
    }
}

/// `Err` when `need` bytes exceed `limit`; `what` names the input.
pub fn check(need: u64, limit: u64, what: &str) -> Result<(), MemoryError> {
    if need <= limit {
        return Ok(());
    }
    Err(MemoryError::OverLimit {
        what: what.to_owned(),
        need,
        limit,
    })
}

/// Reads `reader` to its end, refusing more than `limit` bytes: the bytes, or an error
/// naming `what` and the limit (so `/dev/zero` or an endless pipe ends in an error, not in
/// an allocation that aborts the process).
pub fn read_bounded(
    reader: impl std::io::Read,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, MemoryError> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| MemoryError::CantRead {
            what: what.to_owned(),
            error,
        })?;
    if bytes.len() as u64 > limit {
        return Err(MemoryError::ReadOverLimit {
            what: what.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("4G").unwrap(), 4 << 30);
        assert_eq!(parse_size("4gib").unwrap(), 4 << 30);
        assert_eq!(parse_size("64KB").unwrap(), 64 << 10);
        assert_eq!(parse_size("1T").unwrap(), 1 << 40);
        for bad in ["", "G", "4X", "-1", "1.5G", "4 G B"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("99999999999999T").is_err());
        let said = |text| parse_size(text).unwrap_err().to_string();
        assert_eq!(said("4X"), "bad size `4X' (expected e.g. 4096, 512M, 4G)");
        assert_eq!(
            said("99999999999999T"),
            "size `99999999999999T' is too large"
        );
    }

    #[test]
    fn the_default_is_at_most_the_ceiling() {
        let limit = default_limit();
        assert!(limit > 0 && limit <= DEFAULT_CEILING);
    }

    /// sysconf's figure is the kernel's `MemTotal` (both come from the same page count).
    #[test]
    fn physical_memory_is_memtotal() {
        let bytes = physical_memory().expect("sysconf knows the physical memory");
        let Ok(meminfo) = std::fs::read_to_string("/proc/meminfo") else {
            return; // not Linux: nothing to compare with
        };
        let kib: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("MemTotal in /proc/meminfo");
        assert_eq!(bytes, kib * 1024);
        assert_eq!(default_limit(), DEFAULT_CEILING.min(bytes / 4 * 3));
    }

    #[test]
    fn reads_are_bounded() {
        assert_eq!(read_bounded(&b"abc"[..], 3, "x").unwrap(), b"abc");
        let err = read_bounded(std::io::repeat(0), 1000, "the input")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("the input is larger than the limit"),
            "{err}"
        );
    }

    #[test]
    fn check_names_both_figures() {
        assert!(check(10, 10, "x").is_ok());
        let msg = check(3 << 30, 1 << 30, "the input")
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("the input needs 3.0 GiB"), "{msg}");
        assert!(
            msg.contains("limit of 1.0 GiB") && msg.contains("--max-memory"),
            "{msg}"
        );
    }
}

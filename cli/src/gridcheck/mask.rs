//! `--mask`: the cells every reported puzzle must give, and those it must leave empty.
//!
//! One character per cell, row by row: `1` forced given, `0` forced empty, `.` free. A
//! mask has all 81 cells, or ends with `*`, which leaves the cells after it free (`1111*`:
//! the first four cells given, the rest free). Anything else is refused, so that a typo
//! or a cut-off mask does not silently turn into a scan of the whole grid.
use xcover_core::gridcheck::scan::ClueMask;
use xcover_core::gridcheck::CELL_COUNT;

/// The syntax, for `--help` and error messages.
pub const SYNTAX: &str = "81 characters, one per cell row by row: `1` forced given, \
    `0` forced empty, `.` free; end a shorter mask with `*` to leave the remaining cells free";

/// Parses `--mask TEXT` (surrounding whitespace ignored); the error says what is wrong.
pub fn parse(text: &str) -> Result<ClueMask, String> {
    let text = text.trim();
    let (cells, rest_free) = match text.strip_suffix('*') {
        Some(cells) => (cells, true),
        None => (text, false),
    };
    if let Some((index, bad)) = cells
        .chars()
        .enumerate()
        .find(|&(_, c)| !matches!(c, '0' | '1' | '.'))
    {
        return Err(format!(
            "character {} is `{bad}`; a mask is {SYNTAX}",
            index + 1
        ));
    }
    let len = cells.len();
    if len > CELL_COUNT || (len < CELL_COUNT && !rest_free) {
        return Err(format!("{len} characters; a mask is {SYNTAX}"));
    }
    // Every cell now written out: the core's parser reads the same mask.
    let full = format!("{cells:.<CELL_COUNT$}");
    ClueMask::parse(full.as_bytes()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_masks_and_star_masks_parse() {
        let full = format!("1.0{}", ".".repeat(78));
        let mask = parse(&full).unwrap();
        assert_eq!(mask.givens.0, 1);
        assert_eq!(mask.empties.0, 1 << 2);
        assert_eq!(parse(&format!("  {full}\n")).unwrap(), mask);
        assert_eq!(parse("1.0*").unwrap(), mask);
        assert_eq!(parse(&format!("{full}*")).unwrap(), mask);
        assert_eq!(parse("*").unwrap(), ClueMask::FREE);
    }

    #[test]
    fn typos_and_short_masks_are_refused() {
        let err = parse("abc").unwrap_err();
        assert!(err.starts_with("character 1 is `a`"), "{err}");
        let err = parse("1111").unwrap_err();
        assert!(
            err.starts_with("4 characters; a mask is 81 characters"),
            "{err}"
        );
        let err = parse(&"1".repeat(82)).unwrap_err();
        assert!(err.starts_with("82 characters"), "{err}");
        let err = parse(&format!("{}*", "0".repeat(82))).unwrap_err();
        assert!(err.starts_with("82 characters"), "{err}");
        let err = parse("1*1").unwrap_err();
        assert!(err.starts_with("character 2 is `*`"), "{err}");
        let err = parse(&format!("{}x", ".".repeat(80))).unwrap_err();
        assert!(err.starts_with("character 81 is `x`"), "{err}");
        assert!(parse("").is_err());
    }
}

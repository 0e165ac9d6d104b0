//! `--shard I/N` of every subcommand: core's one parser ([`Part::parse`], with its one
//! limit [`Part::MAX_COUNT`]), its error said after the text.
use xcover_core::dlx3::Part;

/// Part I of N from `I/N`; the error names the text, e.g. `` `3/2`: I must be below N ``.
pub fn parse(text: &str) -> Result<Part, String> {
    Part::parse(text).map_err(|e| format!("`{text}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shards_are_refused_with_the_text() {
        assert_eq!(parse("2/5"), Ok(Part::new(2, 5).unwrap()));
        assert_eq!(
            parse("65535/65536"),
            Part::new(65535, 65536).ok_or(String::new())
        );
        for (bad, why) in [
            ("0/0", "at least 1"),
            ("3/2", "below N"),
            ("2/2", "below N"),
            ("junk", "is not I/N"),
            ("", "is not I/N"),
            ("a/2", "not a number"),
            ("1/b", "not a number"),
            ("-1/2", "not a number"),
            ("+1/2", "not a number"),
            (" 1/2", "not a number"),
            ("1/2/3", "not a number"),
            ("0/65537", "at most 65536 shards"),
            ("0/18446744073709551616", "at most 65536 shards"),
            ("18446744073709551616/2", "not a number"),
            ("16777216/16777217", "at most 65536 shards"),
        ] {
            let message = parse(bad).unwrap_err();
            assert!(
                message.starts_with(&format!("`{bad}`: ")),
                "{bad}: {message}"
            );
            assert!(message.contains(why), "{bad}: {message}");
        }
    }
}

//! The per-grid summary line on stderr, split into what depends only on the grid and the
//! options (the [`Prepared`] figures, kept in shard journals and part files so that
//! `xcover gridcheck merge` prints them again) and the figures of the run.
use xcover_core::gridcheck::scan::{Engine, Prepared};

/// The deterministic figures of a grid's preparation, as summary text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedSummary {
    /// Number of chunks of the scan.
    pub chunks: usize,
    /// `UA … kept; forced givens …; clique …; engine …` (no `|`, no newline).
    pub text: String,
    /// `; no puzzle possible: …` or empty.
    pub impossible: String,
}

impl PreparedSummary {
    /// The figures of `prepared`; `ua_origin` is `generated` or `loaded`.
    pub fn new(prepared: &Prepared<'_>, ua_origin: &str) -> PreparedSummary {
        let sizes: Vec<String> = prepared
            .clique_members()
            .iter()
            .map(|m| m.count_ones().to_string())
            .collect();
        let stats = prepared.stats();
        let text = format!(
            "UA {} ({ua_origin}), {} after forced cells, {} kept; forced givens {} (+{} from \
             UA); clique {} [{}]{}; engine {}",
            stats.ua_input,
            stats.ua_after_forced,
            stats.ua_kept,
            prepared.forced_givens().len(),
            prepared.extra_forced_givens().len(),
            sizes.len(),
            sizes.join(","),
            if prepared.clique_truncated() {
                " (search budget hit)"
            } else {
                ""
            },
            match prepared.engine() {
                Engine::Bands => "bands",
                Engine::Enumeration => "enumeration",
            },
        );
        let impossible = prepared.impossible().map_or(String::new(), |reason| {
            format!("; no puzzle possible: {reason:?}")
        });
        PreparedSummary {
            chunks: prepared.chunks().count(),
            text,
            impossible,
        }
    }

    /// One line of text: `chunks|text|impossible`.
    pub fn encode(&self) -> String {
        format!("{}|{}|{}", self.chunks, self.text, self.impossible)
    }

    /// Inverse of [`PreparedSummary::encode`]; `None` for anything else.
    pub fn decode(line: &str) -> Option<PreparedSummary> {
        let mut parts = line.splitn(3, '|');
        let chunks = parts.next()?.parse().ok()?;
        let text = parts.next()?.to_owned();
        let impossible = parts.next()?.to_owned();
        if text.contains('|') || impossible.contains('|') {
            return None;
        }
        Some(PreparedSummary {
            chunks,
            text,
            impossible,
        })
    }
}

/// Figures of the chunks run, summed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Search steps (`RunStats::steps`).
    pub nodes: u64,
    /// Candidates checked for uniqueness.
    pub candidates: u64,
}

/// `n` and `noun`, plural unless `n` is 1: `1 thread`, `2 threads`.
pub fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

/// The summary line of a grid: `label` (`grid 2/5`), the preparation, `chunks_note` after
/// the chunk count (` (3 done in an earlier run, ...)` or empty), the counts, the puzzles found
/// and `tail` (the run's seconds, or what merge says instead).
pub fn line(
    label: &str,
    prepared: &PreparedSummary,
    chunks_note: &str,
    counts: Counts,
    found: usize,
    tail: &str,
) -> String {
    format!(
        "xcover gridcheck: {label}: {}; chunks {}{chunks_note}; nodes {}; candidates checked \
         {}; found {found}; {tail}{}",
        prepared.text, prepared.chunks, counts.nodes, counts.candidates, prepared.impossible
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip_and_garbage_is_refused() {
        let summary = PreparedSummary {
            chunks: 64,
            text: "UA 10 (generated), 9 after forced cells, 9 kept; clique 2 [3,4]".into(),
            impossible: "; no puzzle possible: NotEnoughFreeCells".into(),
        };
        assert_eq!(
            PreparedSummary::decode(&summary.encode()),
            Some(summary.clone())
        );
        assert_eq!(PreparedSummary::decode("x|a|"), None);
        assert_eq!(PreparedSummary::decode("3|a"), None);
        assert_eq!(PreparedSummary::decode("3|a|b|c"), None);
        let line = line("grid 1/2", &summary, "", Counts::default(), 0, "merged");
        assert!(line.ends_with("found 0; merged; no puzzle possible: NotEnoughFreeCells"));
    }

    #[test]
    fn counts_are_singular_for_one_only() {
        assert_eq!(count(0, "thread"), "0 threads");
        assert_eq!(count(1, "thread"), "1 thread");
        assert_eq!(count(2, "part"), "2 parts");
    }
}

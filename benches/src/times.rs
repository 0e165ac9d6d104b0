//! Summaries of per-item times (seconds per grid, say) for the measuring programs: the
//! statistic that decides a user's cost is often the mean (a full search pays the sum), so
//! the summary gives the mean and the tail (p90, p99, max) beside the median, and a
//! histogram that shows how much of the total each range of times makes up.

/// The value at fraction `q` (0..=1) of the ascending `sorted` values, by nearest rank; the
/// median (q = 0.5) of an even count is the mean of the two middle values. `None` when
/// there are no values.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    // An even count (a bit test: `is_multiple_of` is newer than the rust-version).
    if q == 0.5 && n & 1 == 0 {
        return Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0);
    }
    Some(sorted[((n - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize])
}

/// The statistics of a sample of times.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// How many values.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    /// The median, quartiles, 90th and 99th percentiles (nearest rank).
    pub median: f64,
    /// The first quartile.
    pub q1: f64,
    /// The third quartile.
    pub q3: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Summary {
    /// Summarizes `values` (in any order); `None` for an empty sample.
    pub fn of(values: &[f64]) -> Option<Summary> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Summary {
            count: sorted.len(),
            mean: sorted.iter().sum::<f64>() / sorted.len().max(1) as f64,
            median: quantile(&sorted, 0.5)?,
            q1: quantile(&sorted, 0.25)?,
            q3: quantile(&sorted, 0.75)?,
            p90: quantile(&sorted, 0.9)?,
            p99: quantile(&sorted, 0.99)?,
            min: *sorted.first()?,
            max: *sorted.last()?,
        })
    }

    /// One line: mean and median first, then the tail and the spread.
    pub fn line(&self) -> String {
        format!(
            "mean {:.2} s, median {:.2} s; p90 {:.2}, p99 {:.2}, max {:.2}; quartiles {:.2}, {:.2}; min {:.2}; over {}",
            self.mean, self.median, self.p90, self.p99, self.max, self.q1, self.q3, self.min,
            self.count
        )
    }
}

/// Upper bounds (seconds) of the histogram's bins; the last bin has no upper bound.
pub const BIN_BOUNDS: [f64; 7] = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0];

/// One bin of a histogram: the values in `[low, high)` (`high` infinite for the last bin),
/// how many, and their sum.
#[derive(Debug, Clone, PartialEq)]
pub struct Bin {
    /// Lower bound, inclusive.
    pub low: f64,
    /// Upper bound, exclusive (`f64::INFINITY` for the last bin).
    pub high: f64,
    /// How many values fell in it.
    pub count: usize,
    /// The sum of those values.
    pub sum: f64,
}

/// The values sorted into the bins of [`BIN_BOUNDS`] (every bin listed, empty ones too).
pub fn histogram(values: &[f64]) -> Vec<Bin> {
    let mut low = 0.0;
    let mut bins: Vec<Bin> = BIN_BOUNDS
        .iter()
        .chain(std::iter::once(&f64::INFINITY))
        .map(|&high| {
            let bin = Bin {
                low,
                high,
                count: 0,
                sum: 0.0,
            };
            low = high;
            bin
        })
        .collect();
    for &v in values {
        let bin = bins
            .iter_mut()
            .find(|b| v < b.high)
            .expect("the last bin is unbounded");
        bin.count += 1;
        bin.sum += v;
    }
    bins
}

/// The histogram as text, a line per bin: its range, the count and a bar, and the share
/// of the total time its values make up.
pub fn histogram_text(values: &[f64]) -> String {
    let bins = histogram(values);
    let total: f64 = values.iter().sum();
    let widest = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let mut text = String::new();
    for bin in &bins {
        let range = if bin.high.is_finite() {
            format!(
                "{:>5}-{:<5}",
                format!("{}", bin.low),
                format!("{} s", bin.high)
            )
        } else {
            format!("{:>5}+ s   ", format!("{}", bin.low))
        };
        let bar = "#".repeat((bin.count * 40).div_ceil(widest));
        let share = if total > 0.0 {
            100.0 * bin.sum / total
        } else {
            0.0
        };
        text.push_str(&format!(
            "{range} {:>5} {bar:<40} {share:5.1}% of the time\n",
            bin.count
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank_and_the_even_median() {
        let sorted: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.5), Some(5.5));
        assert_eq!(quantile(&sorted, 0.9), Some(9.0));
        assert_eq!(quantile(&sorted, 1.0), Some(10.0));
        assert_eq!(quantile(&sorted[..9], 0.5), Some(5.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn summary_sees_the_tail_the_median_hides() {
        // Nine fast grids and one slow one: the median stays low, the mean does not.
        let mut times = vec![1.0; 9];
        times.push(21.0);
        let s = Summary::of(&times).unwrap();
        assert_eq!((s.count, s.median, s.max, s.min), (10, 1.0, 21.0, 1.0));
        assert!((s.mean - 3.0).abs() < 1e-12);
        assert_eq!(s.p99, 21.0);
        assert!(s.line().starts_with("mean 3.00 s, median 1.00 s; p90 "));
        assert_eq!(Summary::of(&[]), None);
    }

    #[test]
    fn histogram_bins_every_value_once_and_shares_the_time() {
        let times = [0.1, 0.7, 1.5, 1.9, 3.0, 12.0, 60.0];
        let bins = histogram(&times);
        assert_eq!(bins.len(), BIN_BOUNDS.len() + 1);
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), times.len());
        assert_eq!(
            bins.iter().map(|b| b.count).collect::<Vec<_>>(),
            [1, 1, 2, 1, 0, 1, 0, 1]
        );
        let sum: f64 = bins.iter().map(|b| b.sum).sum();
        assert!((sum - times.iter().sum::<f64>()).abs() < 1e-9);
        let text = histogram_text(&times);
        assert_eq!(text.lines().count(), bins.len());
        // The single 60 s grid is most of the time.
        assert!(
            text.lines().last().unwrap().contains("75.8% of the time"),
            "{text}"
        );
    }
}

//! Exact histograms of whole-number observations: a count per value, mergeable by adding counts.
//!
//! Everything here is integer arithmetic until a figure is asked for, so a histogram built in
//! any order, on any number of threads or shards, gives the same bytes when written. Memory is
//! bounded by the range of values seen (CV lost, turns), never by the number of observations.

use serde::{Deserialize, Serialize};

/// Counts of whole-number observations, stored densely from `min`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(from = "Sparse", into = "Sparse")]
pub struct Histogram {
    min: i64,
    counts: Vec<u64>,
}

impl PartialEq for Histogram {
    /// Equal when every value has the same count (however the storage was sized).
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Histogram {}

impl Histogram {
    /// An empty histogram with room for `lo..=hi`, so adding values in that range never
    /// allocates.
    pub fn with_range(lo: i64, hi: i64) -> Histogram {
        let len = usize::try_from(hi.saturating_sub(lo).saturating_add(1)).unwrap_or(0);
        Histogram {
            min: lo,
            counts: vec![0; len],
        }
    }

    /// Counts one observation of `value`.
    #[inline]
    pub fn add(&mut self, value: i64) {
        self.add_n(value, 1);
    }

    /// Counts `n` observations of `value`, growing the storage only when `value` lies outside
    /// every value seen or reserved so far.
    pub fn add_n(&mut self, value: i64, n: u64) {
        if n == 0 {
            return;
        }
        if self.counts.is_empty() {
            self.min = value;
            self.counts.push(0);
        }
        if value < self.min {
            let extra = usize::try_from(self.min - value).expect("histogram range fits in memory");
            self.counts.splice(0..0, std::iter::repeat_n(0, extra));
            self.min = value;
        }
        let i = usize::try_from(value - self.min).expect("histogram range fits in memory");
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += n;
    }

    /// Adds another histogram's counts to this one.
    pub fn merge(&mut self, other: &Histogram) {
        for (v, c) in other.iter() {
            self.add_n(v, c);
        }
    }

    /// Forgets every count, keeping the storage.
    pub fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
    }

    /// Number of observations.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The observations other than 0: for a total per battle, the battles in which it happened.
    pub fn nonzero(&self) -> u64 {
        self.total() - self.count(0)
    }

    /// The count of one value.
    pub fn count(&self, value: i64) -> u64 {
        usize::try_from(value - self.min)
            .ok()
            .and_then(|i| self.counts.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// `(value, count)` for every value from the smallest to the largest observed, zero counts
    /// between them included (so the distribution reads as a whole).
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        let first = self.counts.iter().position(|&c| c > 0);
        let last = self.counts.iter().rposition(|&c| c > 0);
        let span = match (first, last) {
            (Some(a), Some(b)) => a..b + 1,
            _ => 0..0,
        };
        span.map(move |i| (self.min + i as i64, self.counts[i]))
    }

    /// Smallest and largest values observed.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        let mut it = self.iter();
        let first = it.next()?.0;
        Some((first, it.last().map_or(first, |(v, _)| v)))
    }

    /// Exact sum of the values.
    pub fn sum(&self) -> i128 {
        self.iter()
            .map(|(v, c)| i128::from(v) * i128::from(c))
            .sum()
    }

    /// Exact sum of the squared values.
    pub fn sum_sq(&self) -> i128 {
        self.iter()
            .map(|(v, c)| i128::from(v) * i128::from(v) * i128::from(c))
            .sum()
    }

    /// Mean, or None when empty.
    pub fn mean(&self) -> Option<f64> {
        let n = self.total();
        (n > 0).then(|| self.sum() as f64 / n as f64)
    }

    /// Sample standard deviation (divisor n - 1; 0 for a single observation), or None when
    /// empty. The numerator `n * sum_sq - sum^2` is exact in integers before the one division.
    pub fn sd(&self) -> Option<f64> {
        let n = self.total();
        if n == 0 {
            return None;
        }
        if n == 1 {
            return Some(0.0);
        }
        let n128 = i128::from(n);
        let num = n128 * self.sum_sq() - self.sum() * self.sum();
        let var = num as f64 / (n128 * (n128 - 1)) as f64;
        Some(var.max(0.0).sqrt())
    }

    /// The `percent`-th percentile by the inverse of the empirical distribution function: the
    /// smallest value whose cumulative count reaches `percent`% of all observations (the 50th of
    /// 1, 2, 3, 4 is 2). Exact integer arithmetic; None when empty.
    pub fn quantile(&self, percent: u32) -> Option<i64> {
        let n = u128::from(self.total());
        if n == 0 {
            return None;
        }
        let target = u128::from(percent.min(100)) * n;
        let mut cum = 0u128;
        for (v, c) in self.iter() {
            cum += u128::from(c);
            // cum / n >= percent / 100, and always at least one observation.
            if cum * 100 >= target && cum > 0 {
                return Some(v);
            }
        }
        self.bounds().map(|(_, hi)| hi)
    }
}

/// The stored form: the first observed value and the counts from it to the last, trimmed, so a
/// histogram's file form does not depend on how it was pre-sized.
#[derive(Serialize, Deserialize)]
struct Sparse {
    min: i64,
    counts: Vec<u64>,
}

impl From<Histogram> for Sparse {
    fn from(h: Histogram) -> Sparse {
        let min = h.bounds().map_or(0, |(lo, _)| lo);
        Sparse {
            min,
            counts: h.iter().map(|(_, c)| c).collect(),
        }
    }
}

impl From<Sparse> for Histogram {
    fn from(s: Sparse) -> Histogram {
        Histogram {
            min: s.min,
            counts: s.counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(values: &[i64]) -> Histogram {
        let mut h = Histogram::default();
        for &v in values {
            h.add(v);
        }
        h
    }

    #[test]
    fn quantiles_follow_the_inverse_empirical_cdf() {
        let h = of(&[1, 2, 3, 4]);
        assert_eq!(h.quantile(25), Some(1));
        assert_eq!(h.quantile(50), Some(2));
        assert_eq!(h.quantile(51), Some(3));
        assert_eq!(h.quantile(75), Some(3));
        assert_eq!(h.quantile(95), Some(4));
        assert_eq!(h.quantile(100), Some(4));
        assert_eq!(h.quantile(0), Some(1));
        // 1..=100: the p-th percentile is p.
        let h = of(&(1..=100).collect::<Vec<_>>());
        for p in [5, 25, 50, 75, 95] {
            assert_eq!(h.quantile(p), Some(i64::from(p)));
        }
        // Heavily tied: 90 zeros and 10 fives.
        let mut h = Histogram::default();
        h.add_n(0, 90);
        h.add_n(5, 10);
        assert_eq!(h.quantile(90), Some(0));
        assert_eq!(h.quantile(91), Some(5));
        assert_eq!(h.quantile(95), Some(5));
        assert_eq!(Histogram::default().quantile(50), None);
    }

    #[test]
    fn mean_and_sd_are_exact() {
        let h = of(&[2, 4, 4, 4, 5, 5, 7, 9]);
        assert_eq!(h.mean(), Some(5.0));
        // Sample variance 32 / 7.
        assert!((h.sd().unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(of(&[3]).sd(), Some(0.0));
        assert_eq!(Histogram::default().mean(), None);
    }

    #[test]
    fn grows_both_ways_and_merges() {
        let mut a = of(&[0, 3]);
        a.add(-2);
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            vec![(-2, 1), (-1, 0), (0, 1), (1, 0), (2, 0), (3, 1)]
        );
        let b = of(&[10, -2]);
        a.merge(&b);
        assert_eq!(a.count(-2), 2);
        assert_eq!(a.count(10), 1);
        assert_eq!(a.total(), 5);
        assert_eq!(a.bounds(), Some((-2, 10)));
    }

    #[test]
    fn presized_equals_grown_and_serialises_trimmed() {
        let mut a = Histogram::with_range(-5, 20);
        let mut b = Histogram::default();
        for v in [3, 1, 4, 1, 5] {
            a.add(v);
            b.add(v);
        }
        assert_eq!(a, b);
        let ja = serde_json::to_string(&a).unwrap();
        assert_eq!(ja, serde_json::to_string(&b).unwrap());
        assert_eq!(ja, r#"{"min":1,"counts":[2,0,1,1,1]}"#);
        let back: Histogram = serde_json::from_str(&ja).unwrap();
        assert_eq!(back, a);
        // Pre-sized storage means no growth in range.
        let cap = a.counts.capacity();
        for v in -5..=20 {
            a.add(v);
        }
        assert_eq!(a.counts.capacity(), cap);
    }
}

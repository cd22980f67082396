//! 95% intervals: Wilson's score interval for proportions, the normal interval for means.

/// The 97.5th percentile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A point estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// The interval cut to `[lo, hi]`, the smallest and largest observations: a mean of values
    /// that all lie there lies there too, where a normal interval of a rare count (3 casualties
    /// in 4,000 battles) would reach below 0.
    pub fn within(self, (lo, hi): (f64, f64)) -> Estimate {
        Estimate {
            low: self.low.max(lo),
            high: self.high.min(hi),
            ..self
        }
    }
}

/// Wilson's score interval for `k` successes in `n` trials, or None when `n` is 0.
///
/// Unlike the textbook `p ± z·sqrt(p(1-p)/n)` it stays inside [0, 1] and keeps its coverage for
/// rare events (a general's horrible death) and small conditional samples (pursuits after a
/// win).
pub fn wilson(k: u64, n: u64) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let k = k.min(n);
    let (kf, nf) = (k as f64, n as f64);
    let p = kf / nf;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    // The bounds are exactly 0 and 1 at the extremes; rounding must not push them past.
    let low = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Some(Estimate {
        estimate: p,
        low,
        high,
    })
}

/// The normal-approximation interval for a mean, from the count, exact sum and exact sum of
/// squares of the observations (sample variance, divisor n - 1). None when `n` is 0; a single
/// observation gives a zero-width interval.
pub fn mean_interval(n: u64, sum: i128, sum_sq: i128) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let n128 = i128::from(n);
    let var = if n > 1 {
        (n128 * sum_sq - sum * sum) as f64 / (n128 * (n128 - 1)) as f64
    } else {
        0.0
    };
    Some(normal_interval(n, sum as f64 / n as f64, var))
}

/// The normal 95% interval of a mean of `n` observations (at least one) with sample variance
/// `var` (negative rounding taken as 0).
pub fn normal_interval(n: u64, mean: f64, var: f64) -> Estimate {
    let half = if n > 1 {
        Z95 * (var.max(0.0) / n as f64).sqrt()
    } else {
        0.0
    };
    Estimate {
        estimate: mean,
        low: mean - half,
        high: mean + half,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_matches_newcombe_1998() {
        // Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in
        // Medicine 17 (1998), table I, method 3 (score interval without continuity correction).
        for (k, n, lo, hi) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let e = wilson(k, n).unwrap();
            assert!(close(e.low, lo) && close(e.high, hi), "{k}/{n}: {e:?}");
            assert_eq!(e.estimate, k as f64 / n as f64);
        }
    }

    #[test]
    fn wilson_edges() {
        assert_eq!(wilson(0, 0), None);
        let e = wilson(10, 10).unwrap();
        assert_eq!(e.high, 1.0);
        assert!(close(e.low, 0.7225));
        let e = wilson(0, 10).unwrap();
        assert_eq!(e.low, 0.0);
        assert!(close(e.high, 0.2775));
        let e = wilson(5, 10).unwrap();
        assert!(close(e.low, 0.2366) && close(e.high, 0.7634));
    }

    #[test]
    fn mean_interval_from_sums() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7).
        let e = mean_interval(8, 40, 232).unwrap();
        assert_eq!(e.estimate, 5.0);
        let half = Z95 * ((32.0f64 / 7.0) / 8.0).sqrt();
        assert!((e.high - 5.0 - half).abs() < 1e-12 && (5.0 - e.low - half).abs() < 1e-12);
        assert_eq!(mean_interval(0, 0, 0), None);
        let one = mean_interval(1, 3, 9).unwrap();
        assert_eq!((one.low, one.high), (3.0, 3.0));
    }
}

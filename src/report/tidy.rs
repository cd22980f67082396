//! Tidy CSV: one estimate per row, the same columns in every statistics file.
//!
//! `scope,id,name,side,measure,value,count,n,estimate,ci95_low,ci95_high`
//!
//! * `scope`: `battle`, `side`, `command`, `unit` or `commander`; `id` its index in the
//!   scenario (the side's name for a side); `name` and `side` as the scenario gives them.
//! * `measure`: what is estimated, its unit in its name (`p_win`, `cv_lost_mean`,
//!   `battle_length_turns`). A distribution has one row per `value` (`measure` `cv_lost`,
//!   `value` 3: the share of battles in which exactly 3 CV were lost).
//! * Proportions give `count` of `n` and Wilson's 95% interval; means give `n` and the normal
//!   95% interval; standard deviations and quantiles give the estimate alone.
//!
//! Numbers are written with six decimals from whole-number counts, so a file is the same
//! bytes however the battles were split between threads and machines.

use crate::army::Side;
use crate::stats::{Histogram, mean_interval, wilson};

pub const HEADER: [&str; 11] = [
    "scope",
    "id",
    "name",
    "side",
    "measure",
    "value",
    "count",
    "n",
    "estimate",
    "ci95_low",
    "ci95_high",
];

/// The quantiles reported for every distribution, in percent.
pub const QUANTILES: [u32; 5] = [5, 25, 50, 75, 95];

/// Whom a row is about.
#[derive(Debug, Clone)]
pub struct Who<'a> {
    pub scope: &'static str,
    pub id: String,
    pub name: &'a str,
    pub side: Option<Side>,
}

impl<'a> Who<'a> {
    pub fn new(scope: &'static str, id: impl ToString, name: &'a str, side: Option<Side>) -> Self {
        Who {
            scope,
            id: id.to_string(),
            name,
            side,
        }
    }
}

/// A number with six decimals; never `-0.000000`.
pub fn num(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    format!("{x:.6}")
}

/// The cells of a row after its measure, each empty when None.
#[derive(Default)]
struct Cells {
    value: Option<i64>,
    count: Option<u64>,
    n: Option<u64>,
    estimate: Option<String>,
    interval: Option<(f64, f64)>,
}

/// Builds one tidy CSV file in memory.
pub struct Tidy {
    w: csv::Writer<Vec<u8>>,
}

impl Default for Tidy {
    fn default() -> Self {
        Tidy::new()
    }
}

impl Tidy {
    pub fn new() -> Tidy {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(HEADER).expect("writing to memory");
        Tidy { w }
    }

    fn row(&mut self, who: &Who, measure: &str, cells: Cells) {
        let Cells {
            value,
            count,
            n,
            estimate,
            interval,
        } = cells;
        let s = |o: Option<String>| o.unwrap_or_default();
        self.w
            .write_record([
                who.scope.to_string(),
                who.id.clone(),
                who.name.to_string(),
                who.side.map(|s| s.name().to_string()).unwrap_or_default(),
                measure.to_string(),
                s(value.map(|v| v.to_string())),
                s(count.map(|v| v.to_string())),
                s(n.map(|v| v.to_string())),
                s(estimate),
                s(interval.map(|i| num(i.0))),
                s(interval.map(|i| num(i.1))),
            ])
            .expect("writing to memory");
    }

    /// `k` of `n`, with Wilson's interval (estimate and interval empty when `n` is 0).
    pub fn proportion(&mut self, who: &Who, measure: &str, k: u64, n: u64) {
        self.proportion_at(who, measure, None, k, n);
    }

    /// `k` of `n` for one `value` of something (p_side_win_given_cv at CV 4).
    pub fn proportion_for_value(&mut self, who: &Who, measure: &str, value: i64, k: u64, n: u64) {
        self.proportion_at(who, measure, Some(value), k, n);
    }

    fn proportion_at(&mut self, who: &Who, measure: &str, value: Option<i64>, k: u64, n: u64) {
        let e = wilson(k, n);
        let cells = Cells {
            value,
            count: Some(k),
            n: Some(n),
            estimate: e.map(|e| num(e.estimate)),
            interval: e.map(|e| (e.low, e.high)),
        };
        self.row(who, measure, cells);
    }

    /// The mean of a histogram's observations with its normal 95% interval, within the
    /// smallest and largest observed (`Estimate::within`).
    pub fn mean(&mut self, who: &Who, measure: &str, h: &Histogram) {
        let seen = h.bounds().map(|(lo, hi)| (lo as f64, hi as f64));
        let e = mean_interval(h.total(), h.sum(), h.sum_sq())
            .zip(seen)
            .map(|(e, seen)| e.within(seen));
        let cells = Cells {
            n: Some(h.total()),
            estimate: e.map(|e| num(e.estimate)),
            interval: e.map(|e| (e.low, e.high)),
            ..Cells::default()
        };
        self.row(who, measure, cells);
    }

    /// Every value from the smallest to the largest observed: its count of all observations,
    /// as a proportion with Wilson's interval.
    pub fn distribution(&mut self, who: &Who, measure: &str, h: &Histogram) {
        let n = h.total();
        for (v, c) in h.iter() {
            self.proportion_at(who, measure, Some(v), c, n);
        }
    }

    /// Mean (with interval), standard deviation and quantiles, as `<measure>_mean`,
    /// `<measure>_sd`, `<measure>_q05` ...
    pub fn summary(&mut self, who: &Who, measure: &str, h: &Histogram) {
        self.mean(who, &format!("{measure}_mean"), h);
        let n = Some(h.total());
        let sd = Cells {
            n,
            estimate: h.sd().map(num),
            ..Cells::default()
        };
        self.row(who, &format!("{measure}_sd"), sd);
        for q in QUANTILES {
            let estimate = h.quantile(q).map(|v| v.to_string());
            let cells = Cells {
                n,
                estimate,
                ..Cells::default()
            };
            self.row(who, &format!("{measure}_q{q:02}"), cells);
        }
    }

    /// The distribution and its summary.
    pub fn distribution_and_summary(&mut self, who: &Who, measure: &str, h: &Histogram) {
        self.distribution(who, measure, h);
        self.summary(who, measure, h);
    }

    /// A plain ratio without an interval (e.g. rolls per battle).
    pub fn ratio(&mut self, who: &Who, measure: &str, total: u64, n: u64) {
        let cells = Cells {
            count: Some(total),
            n: Some(n),
            estimate: (n > 0).then(|| num(total as f64 / n as f64)),
            ..Cells::default()
        };
        self.row(who, measure, cells);
    }

    pub fn finish(self) -> Vec<u8> {
        self.w.into_inner().expect("writing to memory")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mean's interval stays within what was observed: a count seen three times in 4,000
    /// battles (casualties a unit rarely takes) has no interval below 0, where the normal
    /// approximation alone would reach.
    #[test]
    fn a_rare_counts_mean_has_no_interval_below_what_was_seen() {
        let mut h = Histogram::default();
        h.add_n(0, 3997);
        h.add_n(1, 3);
        let mut t = Tidy::new();
        t.mean(
            &Who::new("unit", 1, "Hammond's Foot", None),
            "casualties_lost_mean",
            &h,
        );
        let text = String::from_utf8(t.finish()).unwrap();
        let row = text.lines().nth(1).unwrap();
        assert!(row.ends_with(",4000,0.000750,0.000000,0.001598"), "{row}");
    }

    #[test]
    fn rows_are_tidy_and_exact() {
        let mut t = Tidy::new();
        let who = Who::new("unit", 3, "Tillier's Foot, Blue", Some(Side::Royalist));
        t.proportion(&who, "p_destroyed", 81, 263);
        t.proportion(&who, "p_routed", 0, 0);
        let mut h = Histogram::default();
        for v in [0, 0, 1, 3] {
            h.add(v);
        }
        t.distribution_and_summary(&who, "cv_lost", &h);
        let text = String::from_utf8(t.finish()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADER.join(","));
        assert_eq!(
            lines[1],
            "unit,3,\"Tillier's Foot, Blue\",royalist,p_destroyed,,81,263,0.307985,0.255289,0.366210"
        );
        assert_eq!(
            lines[2],
            "unit,3,\"Tillier's Foot, Blue\",royalist,p_routed,,0,0,,,"
        );
        // 0 through 3, the unseen 2 included.
        assert!(lines[3].contains(",cv_lost,0,2,4,0.500000,"));
        assert!(lines[5].contains(",cv_lost,2,0,4,0.000000,0.000000,"));
        assert!(lines[7].contains(",cv_lost_mean,,,4,1.000000,"));
        assert!(lines[8].contains(",cv_lost_sd,,,4,1.414214,,"));
        assert!(lines[9].ends_with(",cv_lost_q05,,,4,0,,"));
        assert!(lines[11].ends_with(",cv_lost_q50,,,4,0,,"));
        assert!(lines[13].ends_with(",cv_lost_q95,,,4,3,,"));
        assert_eq!(lines.len(), 14);
    }

    #[test]
    fn no_negative_zero() {
        assert_eq!(num(-0.0), "0.000000");
        assert_eq!(num(0.1234567), "0.123457");
    }
}

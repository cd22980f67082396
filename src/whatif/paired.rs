//! Paired statistics: exact sums of every measure of every version of a battle, and of each
//! version's battle-by-battle difference from the baseline.
//!
//! Battle `i` of every version is fought from the same seed, so its dice (per unit, per general)
//! are the same wherever the versions agree: the difference `d_i = x_variant_i - x_base_i`
//! carries the effect of the change and little of the luck. Its mean's 95% interval,
//! `mean(d) ± 1.96 sd(d) / sqrt(n)`, is [`mean_interval`] of the differences' exact sums; the
//! unpaired interval for comparison, `1.96 sqrt(sd_base² / n + sd_variant² / n)`, is what two
//! independent runs of `n` battles each would give. Every sum is a whole number, so the
//! figures are the same however the battles were split between threads.

use super::own::OwnMeasure;
use crate::army::Side;
use crate::events::Outcome;
use crate::stats::{Estimate, mean_interval, wilson};

/// One figure measured in every battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Measure {
    /// 1 when Parliament won, else 0.
    ParliamentWin,
    RoyalistWin,
    Draw,
    /// The battle's length in turns.
    Turns,
    /// What the side lost in the ruleset's currency (`cv`, `casualties`, `figures`; destroyed
    /// and departed units count their whole start).
    Lost(Side, &'static str),
    /// What the unit of this name lost, in the currency.
    UnitLost(String, &'static str),
    /// One of the ruleset's own measures, of a unit, a command or a side.
    Own(OwnMeasure),
}

impl Measure {
    /// The measures of every comparison, then one per unit of interest; losses in `currency`
    /// ([`crate::rules::Ruleset::currency`]).
    pub fn standard(units: &[String], currency: &'static str) -> Vec<Measure> {
        let mut v = vec![
            Measure::ParliamentWin,
            Measure::RoyalistWin,
            Measure::Draw,
            Measure::Turns,
            Measure::Lost(Side::Parliament, currency),
            Measure::Lost(Side::Royalist, currency),
        ];
        v.extend(units.iter().map(|u| Measure::UnitLost(u.clone(), currency)));
        v
    }

    /// Its name in the CSV files, with its unit as the other files name them.
    pub fn name(&self) -> String {
        match self {
            Measure::ParliamentWin => "p_parliament_win".into(),
            Measure::RoyalistWin => "p_royalist_win".into(),
            Measure::Draw => "p_draw".into(),
            Measure::Turns => "battle_length_turns".into(),
            Measure::Lost(s, c) => format!("{}_{c}_lost_mean", s.name()),
            Measure::UnitLost(u, c) => format!("unit_{c}_lost_mean:{u}"),
            Measure::Own(o) => o.name(),
        }
    }

    /// The option that asked for it, as a refusal names it: `--unit NAME`, `--own SPEC`.
    pub fn flag(&self) -> String {
        match self {
            Measure::UnitLost(u, _) => format!("--unit {u}"),
            Measure::Own(o) => format!("--own {}", o.name()),
            _ => self.name(),
        }
    }

    /// A proportion (0 or 1 per battle), given Wilson's interval on its own.
    pub fn is_proportion(&self) -> bool {
        match self {
            Measure::Own(o) => o.happened,
            _ => self.is_outcome(),
        }
    }

    /// One of the three outcomes (a battle's result changes two of them).
    pub fn is_outcome(&self) -> bool {
        matches!(
            self,
            Measure::ParliamentWin | Measure::RoyalistWin | Measure::Draw
        )
    }

    /// Its value in one battle; `reading` is what was read for this measure alone: the
    /// currency lost by its unit ([`Measure::UnitLost`]), its own measure's value
    /// ([`OwnMeasure::value`]), else nothing.
    pub fn value(&self, outcome: Outcome, turns: u16, cv_lost: [u32; 2], reading: i64) -> i64 {
        match self {
            Measure::ParliamentWin => i64::from(outcome == Outcome::Won(Side::Parliament)),
            Measure::RoyalistWin => i64::from(outcome == Outcome::Won(Side::Royalist)),
            Measure::Draw => i64::from(outcome == Outcome::Draw),
            Measure::Turns => i64::from(turns),
            Measure::Lost(s, _) => i64::from(cv_lost[s.index()]),
            Measure::UnitLost(..) | Measure::Own(_) => reading,
        }
    }
}

/// Exact sums of whole-number observations: their count, sum and sum of squares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moments {
    pub n: u64,
    pub sum: i128,
    pub sum_sq: i128,
}

impl Moments {
    pub fn add(&mut self, x: i64) {
        let x = i128::from(x);
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// The mean with its normal 95% interval (None with no observations).
    pub fn interval(&self) -> Option<Estimate> {
        mean_interval(self.n, self.sum, self.sum_sq)
    }

    /// The half-width of the mean's 95% interval (0 with no observations).
    pub fn half_width(&self) -> f64 {
        self.interval().map_or(0.0, |e| (e.high - e.low) / 2.0)
    }

    /// For 0/1 observations: the proportion with Wilson's interval.
    pub fn proportion(&self) -> Option<Estimate> {
        wilson(u64::try_from(self.sum).unwrap_or(0), self.n)
    }

    /// The estimate with its interval: Wilson's for a proportion, else the normal one.
    pub fn estimate(&self, proportion: bool) -> Option<Estimate> {
        if proportion {
            self.proportion()
        } else {
            self.interval()
        }
    }
}

/// A variant against the baseline on one measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedEstimate {
    pub n: u64,
    pub baseline: f64,
    pub variant: f64,
    /// Mean of the battle-by-battle differences (variant minus baseline).
    pub diff: f64,
    pub low: f64,
    pub high: f64,
    /// Half-width of the paired interval.
    pub paired_half: f64,
    /// Half-width the difference of two independent runs of as many battles would have.
    pub unpaired_half: f64,
}

impl PairedEstimate {
    /// From the baseline's, the variant's and the differences' sums over the same battles.
    pub fn of(base: &Moments, variant: &Moments, diff: &Moments) -> Option<PairedEstimate> {
        let d = diff.interval()?;
        let (b, v) = (base.interval()?, variant.interval()?);
        Some(PairedEstimate {
            n: diff.n,
            baseline: b.estimate,
            variant: v.estimate,
            diff: d.estimate,
            low: d.low,
            high: d.high,
            paired_half: diff.half_width(),
            unpaired_half: base.half_width().hypot(variant.half_width()),
        })
    }

    /// How many times narrower the paired interval is than the unpaired one: None when both
    /// are 0 (the versions never differed and neither varied), infinite when only the paired
    /// one is (the versions fought identically).
    pub fn narrowing(&self) -> Option<f64> {
        if self.paired_half > 0.0 {
            Some(self.unpaired_half / self.paired_half)
        } else if self.unpaired_half > 0.0 {
            Some(f64::INFINITY)
        } else {
            None
        }
    }

    /// The 95% interval of the difference leaves out 0.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// The sums of a contest: for every version (index 0 the baseline) and measure the version's
/// own moments, and for every version its differences from the baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContestSums {
    /// `versions[k][m]`.
    pub versions: Vec<Vec<Moments>>,
    /// `diffs[k][m]`: version k minus the baseline, battle by battle (all 0 for k = 0).
    pub diffs: Vec<Vec<Moments>>,
}

impl ContestSums {
    /// Whether version `k` is the same as the first in every battle and every measure.
    pub fn same_as_first(&self, k: usize) -> bool {
        self.diffs[k].iter().all(|d| d.sum_sq == 0)
    }

    pub fn new(versions: usize, measures: usize) -> ContestSums {
        let zero = vec![vec![Moments::default(); measures]; versions];
        ContestSums {
            versions: zero.clone(),
            diffs: zero,
        }
    }

    /// Adds one battle: `x[k][m]` is measure m of version k.
    pub fn add(&mut self, x: &[Vec<i64>]) {
        for (k, row) in x.iter().enumerate() {
            for (m, &v) in row.iter().enumerate() {
                self.versions[k][m].add(v);
                self.diffs[k][m].add(v - x[0][m]);
            }
        }
    }

    pub fn merge(&mut self, o: &ContestSums) {
        for (a, b) in self
            .versions
            .iter_mut()
            .chain(self.diffs.iter_mut())
            .zip(o.versions.iter().chain(o.diffs.iter()))
        {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
    }

    /// Version `k` against the baseline on measure `m`.
    pub fn paired(&self, k: usize, m: usize) -> Option<PairedEstimate> {
        PairedEstimate::of(
            &self.versions[0][m],
            &self.versions[k][m],
            &self.diffs[k][m],
        )
    }

    /// Battles counted.
    pub fn battles(&self) -> u64 {
        self.versions
            .first()
            .and_then(|v| v.first())
            .map_or(0, |m| m.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    #[test]
    fn identical_versions_differ_by_exactly_nothing() {
        let mut s = ContestSums::new(2, 1);
        for x in [3, 5, 1, 0, 7] {
            s.add(&[vec![x], vec![x]]);
        }
        let p = s.paired(1, 0).unwrap();
        assert_eq!((p.diff, p.low, p.high, p.paired_half), (0.0, 0.0, 0.0, 0.0));
        assert!(p.unpaired_half > 0.0);
        assert_eq!(p.narrowing(), Some(f64::INFINITY));
        assert!(!p.significant());
    }

    #[test]
    fn paired_and_unpaired_half_widths_by_hand() {
        // Baseline 2, 4, 6, 8; the variant one more in every battle but the last (two more).
        let mut s = ContestSums::new(2, 1);
        for (b, v) in [(2, 3), (4, 5), (6, 7), (8, 10)] {
            s.add(&[vec![b], vec![v]]);
        }
        let p = s.paired(1, 0).unwrap();
        assert_eq!((p.n, p.baseline, p.variant, p.diff), (4, 5.0, 6.25, 1.25));
        // d = 1, 1, 1, 2: sample variance 0.25.
        let paired = Z95 * (0.25f64 / 4.0).sqrt();
        assert!((p.paired_half - paired).abs() < 1e-12);
        assert!((p.low - (1.25 - paired)).abs() < 1e-12);
        // Baseline variance 20/3, variant 26.75/3.
        let var = |xs: [f64; 4]| {
            let m = xs.iter().sum::<f64>() / 4.0;
            xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 3.0
        };
        let unpaired =
            Z95 * (var([2.0, 4.0, 6.0, 8.0]) / 4.0 + var([3.0, 5.0, 7.0, 10.0]) / 4.0).sqrt();
        assert!((p.unpaired_half - unpaired).abs() < 1e-12);
        assert!((p.narrowing().unwrap() - unpaired / paired).abs() < 1e-9);
        assert!(p.narrowing().unwrap() > 7.8);
        assert!(p.significant());
        // The diffs of the baseline with itself are all zero.
        assert_eq!(
            s.diffs[0][0],
            Moments {
                n: 4,
                sum: 0,
                sum_sq: 0
            }
        );
    }

    #[test]
    fn sums_merge_in_any_grouping() {
        let battles: Vec<[i64; 2]> = (0..20).map(|i| [i % 7, (i * 3) % 5]).collect();
        let mut whole = ContestSums::new(2, 1);
        let mut parts = ContestSums::new(2, 1);
        let mut part = ContestSums::new(2, 1);
        for (i, b) in battles.iter().enumerate() {
            let x = [vec![b[0]], vec![b[1]]];
            whole.add(&x);
            part.add(&x);
            if i % 6 == 5 {
                parts.merge(&part);
                part = ContestSums::new(2, 1);
            }
        }
        parts.merge(&part);
        assert_eq!(parts, whole);
        assert_eq!(whole.battles(), 20);
    }

    #[test]
    fn measures_read_a_battle() {
        let m = Measure::standard(&["Byron's Horse".into()], "cv");
        let names: Vec<String> = m.iter().map(Measure::name).collect();
        assert_eq!(
            names,
            [
                "p_parliament_win",
                "p_royalist_win",
                "p_draw",
                "battle_length_turns",
                "parliament_cv_lost_mean",
                "royalist_cv_lost_mean",
                "unit_cv_lost_mean:Byron's Horse"
            ]
        );
        let won = Outcome::Won(Side::Royalist);
        let v: Vec<i64> = m.iter().map(|x| x.value(won, 6, [20, 9], 4)).collect();
        assert_eq!(v, [0, 1, 0, 6, 20, 9, 4]);
        assert!(m[2].is_proportion() && !m[3].is_proportion());
        let bp = Measure::standard(&["Byron's Horse".into()], "casualties");
        assert_eq!(bp[4].name(), "parliament_casualties_lost_mean");
        assert_eq!(bp[6].name(), "unit_casualties_lost_mean:Byron's Horse");
    }
}

//! One battle under several rulesets, side by side: battle `i` of every ruleset fought from
//! `battle_seed(seed, i)`, each ruleset's outcomes summed from the statistics collector's
//! per-battle rows. Different rules draw different dice, so the rulesets are not paired: each
//! figure carries its own 95% interval.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use indicatif::ProgressBar;

use crate::army::Side;
use crate::error::Result;
use crate::events::Outcome;
use crate::rules::{Ruleset, WithRuleset};
use crate::runner::{self, RunPlan};
use crate::setup::BattleSetup;
use crate::stats::{BattleRow, Estimate, normal_interval, wilson};

/// Sums of a real-valued observation, added in battle order (so the same on any thread count).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MeanSums {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
    /// The smallest and largest observations (None before the first).
    pub seen: Option<(f64, f64)>,
}

impl MeanSums {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
        self.seen = Some(self.seen.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
    }

    /// The mean with its normal 95% interval, within the smallest and largest observed
    /// (`Estimate::within`; None with no observations).
    pub fn interval(&self) -> Option<Estimate> {
        let seen = self.seen?;
        let n = self.n as f64;
        let mean = self.sum / n;
        let var = if self.n > 1 {
            (self.sum_sq - self.sum * mean) / (n - 1.0)
        } else {
            0.0
        };
        Some(normal_interval(self.n, mean, var).within(seen))
    }
}

/// One ruleset's battles, summed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RulesetSums {
    pub battles: u64,
    pub wins: [u64; 2],
    pub draws: u64,
    pub turns: MeanSums,
    /// Losses as a share of the side's strength at the start, in the ruleset's own currency.
    pub loss_share: [MeanSums; 2],
    /// Pursuits (Ironsides) or sweeping advances (Black Powder) begun.
    pub pursuits: [MeanSums; 2],
    pub commanders_lost: [MeanSums; 2],
}

/// The measures of the side-by-side table, in order.
pub const RULESET_MEASURES: [&str; 10] = [
    "p_parliament_win",
    "p_royalist_win",
    "p_draw",
    "battle_length_turns",
    "parliament_loss_share",
    "royalist_loss_share",
    "parliament_pursuits",
    "royalist_pursuits",
    "parliament_commanders_lost",
    "royalist_commanders_lost",
];

impl RulesetSums {
    /// Adds one battle's row.
    pub fn add(&mut self, r: &BattleRow) {
        self.battles += 1;
        match r.outcome {
            Outcome::Won(s) => self.wins[s.index()] += 1,
            Outcome::Draw => self.draws += 1,
        }
        self.turns.add(f64::from(r.turns));
        for s in Side::BOTH.map(Side::index) {
            let share = if r.cv_start[s] == 0 {
                0.0
            } else {
                f64::from(r.cv_lost[s]) / f64::from(r.cv_start[s])
            };
            self.loss_share[s].add(share);
            self.pursuits[s].add(f64::from(r.pursuits[s]));
            self.commanders_lost[s].add(f64::from(r.commanders_lost[s]));
        }
    }

    /// Every measure's name and estimate, in table order.
    pub fn estimates(&self) -> Vec<(&'static str, Option<Estimate>)> {
        let (p, q) = (Side::Parliament.index(), Side::Royalist.index());
        let values = [
            wilson(self.wins[p], self.battles),
            wilson(self.wins[q], self.battles),
            wilson(self.draws, self.battles),
            self.turns.interval(),
            self.loss_share[p].interval(),
            self.loss_share[q].interval(),
            self.pursuits[p].interval(),
            self.pursuits[q].interval(),
            self.commanders_lost[p].interval(),
            self.commanders_lost[q].interval(),
        ];
        RULESET_MEASURES.into_iter().zip(values).collect()
    }
}

/// Fights the plan's battles of `setup` under one ruleset, summing each battle's row.
pub struct RulesetBattles<'a> {
    pub plan: &'a RunPlan,
    pub setup: &'a BattleSetup,
    pub progress: &'a ProgressBar,
    pub stop: &'a AtomicBool,
}

impl WithRuleset for RulesetBattles<'_> {
    type Output = Result<(RulesetSums, Duration)>;

    fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output {
        let plan = RunPlan {
            per_battle: true,
            ..self.plan.clone()
        };
        let layout = ruleset.layout(self.setup);
        let mut sums = RulesetSums::default();
        let setup = self.setup;
        let output = runner::run(
            &plan,
            &layout,
            || {
                let mut battle = ruleset.new_battle(setup);
                move |seed, c: &mut crate::stats::Collector| {
                    ruleset.fight(&mut battle, setup, seed, c).dice_rolled
                }
            },
            self.progress,
            self.stop,
            &mut |rows| {
                rows.iter().for_each(|r| sums.add(r));
                Ok(())
            },
        )?;
        Ok((sums, output.elapsed))
    }
}

fn cell(e: Option<Estimate>) -> [String; 3] {
    match e {
        Some(e) => [e.estimate, e.low, e.high].map(|x| format!("{x:.6}")),
        None => Default::default(),
    }
}

/// `rulesets.csv`: one row per ruleset and measure.
pub fn rulesets_csv(names: &[&str], sums: &[RulesetSums]) -> Vec<u8> {
    let mut out = String::from("ruleset,measure,value,ci95_low,ci95_high,battles\n");
    for (name, s) in names.iter().zip(sums) {
        for (measure, e) in s.estimates() {
            let [v, lo, hi] = cell(e);
            let _ = writeln!(out, "{name},{measure},{v},{lo},{hi},{}", s.battles);
        }
    }
    out.into_bytes()
}

/// The rulesets side by side, one measure a line: value [95% interval] under each.
pub fn rulesets_summary(names: &[&str], sums: &[RulesetSums]) -> String {
    const WIDTH: usize = 24;
    let mut out = format!("  {:<28}", "measure");
    for n in names {
        let _ = write!(out, " {n:>WIDTH$}");
    }
    out.push('\n');
    let table: Vec<_> = sums.iter().map(RulesetSums::estimates).collect();
    for (m, (measure, _)) in table[0].iter().enumerate() {
        let _ = write!(out, "  {measure:<28}");
        for t in &table {
            let text = t[m].1.map_or_else(String::new, |e| {
                format!("{:.3} [{:.3}, {:.3}]", e.estimate, e.low, e.high)
            });
            let _ = write!(out, " {text:>WIDTH$}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mean's interval stays within what was observed: pursuits begun in 3 battles of 4,000
    /// give no interval below 0, where the normal approximation alone would reach.
    #[test]
    fn a_rare_means_interval_stays_within_what_was_seen() {
        let mut m = MeanSums::default();
        for i in 0..4000 {
            m.add(if i % 1000 == 0 && i < 3000 { 1.0 } else { 0.0 });
        }
        let e = m.interval().unwrap();
        assert_eq!(e.low, 0.0, "{e:?}");
        assert!(e.high > e.estimate && e.estimate > 0.0, "{e:?}");
    }

    fn row(outcome: Outcome, lost: [u32; 2], pursuits: [u32; 2]) -> BattleRow {
        BattleRow {
            index: 0,
            seed: 0,
            outcome,
            turns: 4,
            cv_start: [10, 20],
            cv_lost: lost,
            pursuits,
            general_casualties: [0, 0],
            commanders_lost: [1, 0],
            dice_rolled: 0,
        }
    }

    #[test]
    fn rows_sum_to_shares_and_rates() {
        let mut s = RulesetSums::default();
        s.add(&row(Outcome::Won(Side::Parliament), [5, 10], [2, 0]));
        s.add(&row(Outcome::Draw, [0, 20], [0, 1]));
        let e: Vec<_> = s.estimates();
        let get = |k: &str| e.iter().find(|(n, _)| *n == k).unwrap().1.unwrap();
        assert_eq!(get("p_parliament_win").estimate, 0.5);
        assert_eq!(get("p_draw").estimate, 0.5);
        assert_eq!(get("parliament_loss_share").estimate, 0.25);
        assert_eq!(get("royalist_loss_share").estimate, 0.75);
        assert_eq!(get("parliament_pursuits").estimate, 1.0);
        assert_eq!(get("parliament_commanders_lost").estimate, 1.0);
        assert_eq!(get("royalist_commanders_lost").estimate, 0.0);
        assert!(get("royalist_loss_share").low < 0.75);
        let csv = String::from_utf8(rulesets_csv(&["a"], &[s])).unwrap();
        assert_eq!(csv.lines().count(), 11);
        assert!(csv.contains("a,royalist_loss_share,0.750000,"));
    }
}

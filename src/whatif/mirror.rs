//! Balance: mirror-image battles between two rows of the ratings table.
//!
//! One army and ground, the same on both sides (`configs/scenarios/balance_template.toml`):
//! each army is rated from a row of the table (`parliament 1643`): the arms asked for rolled
//! afresh every battle from the row, the others at the row's standard CV. Battle `i` is fought
//! from `battle_seed(seed, i)`; on even `i` row A rates the Parliament army and row B the
//! Royalist, on odd `i` the other way round, so whatever the engine gives the side that moves
//! first, or the army listed first, falls to each row equally.
//!
//! Draws are reported on their own; A's share of the battles someone won is a binomial
//! proportion with Wilson's interval, and the rows differ at the 5% level (two-sided) when that
//! interval leaves out 1/2. Pooling the two orientations, whose win rates differ when the
//! engine favours one side, makes the count less variable than a binomial of the same mean, so
//! the interval errs on the wide side.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use indicatif::ProgressBar;

use crate::army::{Arm, Side};
use crate::error::{Error, Result};
use crate::events::Outcome;
use crate::rules::Ruleset;
use crate::runner::{self, RunPlan};
use crate::scenario::ratings::table_rating;
use crate::scenario::schema::RatingKind;
use crate::setup::BattleSetup;
use crate::stats::{Collector, Estimate, wilson};

/// Every arm of the ratings table, in its order.
pub const ARMS: [Arm; 4] = [Arm::Foot, Arm::Horse, Arm::Dragoons, Arm::Artillery];

/// The table's word for an arm.
pub fn arm_name(arm: Arm) -> &'static str {
    match arm {
        Arm::Foot => "foot",
        Arm::Horse => "horse",
        Arm::Dragoons => "dragoons",
        Arm::Artillery => "artillery",
    }
}

/// `foot,horse,dragoons,artillery` (any of them, any order) into the arms, in the table's order.
pub fn parse_arms(text: &str) -> Result<Vec<Arm>> {
    let mut arms = Vec::new();
    for word in text.split(',').map(str::trim) {
        let Some(arm) = ARMS.iter().find(|a| arm_name(**a) == word) else {
            return Err(Error::Usage(format!(
                "--arms {text}: `{word}` is not an arm (foot, horse, dragoons, artillery)"
            )));
        };
        if !arms.contains(arm) {
            arms.push(*arm);
        }
    }
    arms.sort_by_key(|a| ARMS.iter().position(|b| b == a));
    Ok(arms)
}

/// One row of the ratings table: a side of the table and a year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub side: String,
    pub year: u16,
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.year)
    }
}

/// `SIDE:YEAR[,YEAR...]` into its rows, in order (`flag` names the option in errors).
pub fn parse_rows(flag: &str, arg: &str) -> Result<Vec<Row>> {
    let usage = || {
        Error::Usage(format!(
            "{flag} `{arg}`: expected SIDE:YEAR[,YEAR...], e.g. parliament:1642,1643"
        ))
    };
    let (side, years) = arg.split_once(':').ok_or_else(usage)?;
    let side = side.trim();
    if side.is_empty() {
        return Err(usage());
    }
    years
        .split(',')
        .map(|y| {
            y.trim()
                .parse::<u16>()
                .map(|year| Row {
                    side: side.to_string(),
                    year,
                })
                .map_err(|_| Error::Usage(format!("{flag} `{arg}`: `{}` is not a year", y.trim())))
        })
        .collect()
}

/// The rows of side A and side B paired in order; a single row on one side meets every row of
/// the other.
pub fn pair_rows(a: &[Row], b: &[Row]) -> Result<Vec<(Row, Row)>> {
    match (a.len(), b.len()) {
        (1, _) => Ok(b.iter().map(|r| (a[0].clone(), r.clone())).collect()),
        (_, 1) => Ok(a.iter().map(|r| (r.clone(), b[0].clone())).collect()),
        (x, y) if x == y => Ok(a.iter().cloned().zip(b.iter().cloned()).collect()),
        (x, y) => Err(Error::Usage(format!(
            "--side-a gives {x} years and --side-b {y}: they pair up in order, so give as many of each (or one on either side)"
        ))),
    }
}

/// Checks that the two armies are mirror images: as many units, of the same types and sizes,
/// in the same order.
pub fn check_mirror(setup: &BattleSetup) -> Result<()> {
    let p: Vec<_> = setup.units_of(Side::Parliament).collect();
    let r: Vec<_> = setup.units_of(Side::Royalist).collect();
    let same = p.len() == r.len()
        && p.iter()
            .zip(&r)
            .all(|(a, b)| a.kind == b.kind && a.size == b.size);
    if same {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "{}: the two armies are not mirror images (each needs the same units, types and sizes, in the same order)",
            setup.name
        )))
    }
}

/// Rates every unit of army `side` from `row`: the arms in `arms` randomised, others standard.
pub fn rate_army(setup: &mut BattleSetup, side: Side, row: &Row, arms: &[Arm]) -> Result<()> {
    for i in 0..setup.units.len() {
        if setup.units[i].side != side {
            continue;
        }
        let arm = setup.units[i].kind.arm();
        let kind = if arms.contains(&arm) {
            RatingKind::Randomised
        } else {
            RatingKind::Standard
        };
        let (cv, source) = table_rating(&setup.rules, kind, &row.side, row.year, arm, false)
            .map_err(|m| Error::Usage(format!("{row}: {m}")))?;
        let u = &mut setup.units[i];
        u.start_cv = cv;
        u.cv = cv;
        u.lowest_cv = cv;
        setup.ratings[i] = source;
    }
    Ok(())
}

/// The two orientations of a pair: `[A rates Parliament's army, A rates the Royalists']`.
pub fn mirror_setups(
    template: &BattleSetup,
    a: &Row,
    b: &Row,
    arms: &[Arm],
) -> Result<[BattleSetup; 2]> {
    check_mirror(template)?;
    let orient = |first: &Row, second: &Row| -> Result<BattleSetup> {
        let mut s = template.clone();
        rate_army(&mut s, Side::Parliament, first, arms)?;
        rate_army(&mut s, Side::Royalist, second, arms)?;
        Ok(s)
    };
    Ok([orient(a, b)?, orient(b, a)?])
}

/// Who won the mirror battles of one pair of rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BalanceCounts {
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
}

/// What the battles say about two rows at the 5% level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    AStronger,
    BStronger,
    NoDifference,
}

impl Verdict {
    pub fn key(self) -> &'static str {
        match self {
            Verdict::AStronger => "a_stronger",
            Verdict::BStronger => "b_stronger",
            Verdict::NoDifference => "no_difference",
        }
    }
}

impl BalanceCounts {
    /// A's share of the battles someone won, with Wilson's interval (None if all were drawn).
    pub fn a_share(&self) -> Option<Estimate> {
        wilson(self.a_wins, self.a_wins + self.b_wins)
    }

    /// The share of battles drawn.
    pub fn p_draw(&self) -> f64 {
        if self.battles == 0 {
            0.0
        } else {
            self.draws as f64 / self.battles as f64
        }
    }

    /// A stronger (B stronger) when the interval of A's share lies above (below) 1/2.
    pub fn verdict(&self) -> Verdict {
        match self.a_share() {
            Some(e) if e.low > 0.5 => Verdict::AStronger,
            Some(e) if e.high < 0.5 => Verdict::BStronger,
            _ => Verdict::NoDifference,
        }
    }
}

/// A pair of rows' mirror battles, ready for the ruleset they are fought under.
pub struct MirrorBattles<'a> {
    pub plan: &'a RunPlan,
    pub setups: &'a [BattleSetup; 2],
    pub progress: &'a ProgressBar,
    pub stop: &'a AtomicBool,
}

impl crate::rules::WithRuleset for MirrorBattles<'_> {
    type Output = Result<(BalanceCounts, Duration)>;

    fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output {
        fight_balance(ruleset, self.plan, self.setups, self.progress, self.stop)
    }
}

/// Fights the plan's mirror battles under `ruleset`: battle `i` in orientation `i % 2` of
/// `setups`.
pub fn fight_balance<R: Ruleset>(
    ruleset: &R,
    plan: &RunPlan,
    setups: &[BattleSetup; 2],
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(BalanceCounts, Duration)> {
    // The runner's collector watches every battle, but its tally is not reported: a unit of an
    // arm not asked for keeps the first orientation's standard CV in its layout.
    let layout = ruleset.layout(&setups[0]);
    // Whole-number counts, so the totals do not depend on the order the workers add them in.
    let counts = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    let output = runner::run(
        plan,
        &layout,
        || {
            let mut engine = ruleset.new_battle(&setups[0]);
            let counts = &counts;
            move |seed, collector: &mut Collector| {
                let which = (collector.battle_index() % 2) as usize;
                let s = ruleset.fight(&mut engine, &setups[which], seed, collector);
                let a_army = if which == 0 {
                    Side::Parliament
                } else {
                    Side::Royalist
                };
                let slot = match s.outcome {
                    Outcome::Won(w) if w == a_army => 0,
                    Outcome::Won(_) => 1,
                    Outcome::Draw => 2,
                };
                counts[slot].fetch_add(1, Ordering::Relaxed);
                s.dice_rolled
            }
        },
        progress,
        stop,
        &mut |_| Ok(()),
    )?;
    let [a_wins, b_wins, draws] = counts.map(AtomicU64::into_inner);
    Ok((
        BalanceCounts {
            battles: output.tally.battles,
            a_wins,
            b_wins,
            draws,
        },
        output.elapsed,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_arms_and_pairs_parse() {
        let a = parse_rows("--side-a", "parliament:1642, 1643").unwrap();
        assert_eq!(
            a[1],
            Row {
                side: "parliament".into(),
                year: 1643
            }
        );
        let b = parse_rows("--side-b", "royalist:1644").unwrap();
        let p = pair_rows(&a, &b).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].1.year, 1644);
        let b2 = parse_rows("--side-b", "royalist:1642,1643,1644").unwrap();
        assert!(pair_rows(&a, &b2).is_err());
        for bad in ["parliament", "parliament:", "parliament:16x2", ":1643"] {
            assert!(parse_rows("--side-a", bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_arms("horse, foot,horse").unwrap(),
            vec![Arm::Foot, Arm::Horse]
        );
        assert!(parse_arms("horse,pikes").is_err());
    }

    #[test]
    fn the_verdict_reads_the_interval() {
        let c = |a, b, d| BalanceCounts {
            battles: a + b + d,
            a_wins: a,
            b_wins: b,
            draws: d,
        };
        assert_eq!(c(520, 480, 100).verdict(), Verdict::NoDifference);
        assert_eq!(c(600, 400, 0).verdict(), Verdict::AStronger);
        assert_eq!(c(400, 600, 0).verdict(), Verdict::BStronger);
        assert_eq!(c(0, 0, 10).verdict(), Verdict::NoDifference);
        assert!((c(1, 1, 2).p_draw() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn armies_are_rated_from_their_rows() {
        let template = crate::scenario::Scenario::load_builtin("balance_template", &[])
            .unwrap()
            .setup()
            .unwrap();
        let a = Row {
            side: "parliament".into(),
            year: 1645,
        };
        let b = Row {
            side: "royalist".into(),
            year: 1642,
        };
        let [even, odd] = mirror_setups(&template, &a, &b, &[Arm::Horse]).unwrap();
        let rules = &template.rules;
        for (s, p_row, r_row) in [(&even, &a, &b), (&odd, &b, &a)] {
            for (i, u) in s.units.iter().enumerate() {
                let row = if u.side == Side::Parliament {
                    p_row
                } else {
                    r_row
                };
                let r = rules.rating(&row.side, row.year, u.kind.arm()).unwrap();
                if u.kind.arm() == Arm::Horse {
                    assert_eq!(
                        s.ratings[i],
                        crate::setup::RatingSource::Randomised { rolls: r.rolls }
                    );
                } else {
                    assert_eq!(s.ratings[i], crate::setup::RatingSource::Fixed);
                    assert_eq!(
                        (u.start_cv, u.cv, u.lowest_cv),
                        (r.standard, r.standard, r.standard)
                    );
                }
            }
        }
        let bad = Row {
            side: "royalist".into(),
            year: 1600,
        };
        assert!(mirror_setups(&template, &a, &bad, &ARMS).is_err());
        let lopsided = crate::scenario::Scenario::load_builtin("small_action", &[])
            .unwrap()
            .setup()
            .unwrap();
        assert!(check_mirror(&lopsided).is_err());
    }
}

//! Monte Carlo against exact probabilities: in `duel_horse`, the CV each regiment inflicts in
//! the first melee follows the binomial law the rules imply (each die hits on a face no higher
//! than CV, a 1 always, a 6 never), given its dice count and CV as the melee began. Sides led by
//! an attached general are left out: his re-rolls change the law. Chi-square at a fixed seed,
//! significance 0.001 per group.

use std::collections::BTreeMap;

use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::Scenario;

/// The first melee of a battle, seen from each side: (dice, CV before, hits, clean).
#[derive(Default)]
struct FirstMelee {
    cv: Vec<u8>,
    attached: Vec<Option<u16>>,
    sample: Option<[(u8, u8, u8, bool); 2]>,
    flank: bool,
}

impl Observer for FirstMelee {
    fn event(&mut self, e: &Event) {
        if self.sample.is_some() {
            return;
        }
        match *e {
            Event::RatingRolled { unit, cv } => self.cv[usize::from(unit)] = cv,
            Event::CvLost { unit, cv, .. }
            | Event::CvGained { unit, cv, .. }
            | Event::Rally { unit, cv, .. } => self.cv[usize::from(unit)] = cv,
            Event::GeneralMoved {
                general,
                attached_to,
                ..
            } => self.attached[usize::from(general)] = attached_to,
            // A general killed, carried off, captured or carried away by his horse leads no more;
            // one who is merely hurt or unhorsed stays at the head of his men.
            Event::GeneralCasualty {
                general,
                result,
                captured,
            } => {
                use ecw_sim::events::GeneralResult::*;
                if captured
                    || matches!(
                        result,
                        HorribleDeath | MortalWound | GravelyWounded | Lost | HorseStampedes
                    )
                {
                    self.attached[usize::from(general)] = None;
                }
            }
            Event::Melee {
                attacker,
                defender,
                attacker_dice,
                defender_dice,
                attacker_hits,
                defender_hits,
                flank,
            } => {
                let led = |u: u16| self.attached.contains(&Some(u));
                // Melee is reported before its losses apply: the CVs tracked are the CVs it was fought at.
                self.sample = Some([
                    (
                        attacker_dice,
                        self.cv[usize::from(attacker)],
                        attacker_hits,
                        !led(attacker),
                    ),
                    (
                        defender_dice,
                        self.cv[usize::from(defender)],
                        defender_hits,
                        !led(defender),
                    ),
                ]);
                self.flank = flank;
            }
            _ => {}
        }
    }
}

/// P(one die hits) at this CV with no modifier.
fn p_hit(cv: u8) -> f64 {
    f64::from((1..=6u8).filter(|&f| f == 1 || (f < 6 && f <= cv)).count() as u8) / 6.0
}

fn binomial(n: u8, p: f64) -> Vec<f64> {
    let mut out = vec![0.0; usize::from(n) + 1];
    for (k, o) in out.iter_mut().enumerate() {
        let mut c = 1.0;
        for i in 0..k {
            c = c * f64::from(n - i as u8) / (i as f64 + 1.0);
        }
        *o = c * p.powi(k as i32) * (1.0 - p).powi(i32::from(n) - k as i32);
    }
    out
}

/// Chi-square critical values at significance 0.001 for 1..=8 degrees of freedom.
const CRITICAL_001: [f64; 8] = [
    10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124,
];

#[test]
fn first_melee_hits_follow_the_exact_binomial() {
    let setup = Scenario::open("duel_horse", &[]).unwrap().setup().unwrap();
    let mut battle = Battle::new(&setup);
    let n = if cfg!(debug_assertions) {
        4_000
    } else {
        40_000
    };
    // (side index, dice, cv) -> histogram of hits
    let mut groups: BTreeMap<(usize, u8, u8), Vec<u64>> = BTreeMap::new();
    for i in 0..n {
        let mut w = FirstMelee {
            cv: setup.units.iter().map(|u| u.cv).collect(),
            attached: vec![None; setup.commanders.len()],
            ..FirstMelee::default()
        };
        battle.fight(&setup, ecw_sim::dice::battle_seed(2024, i), &mut w);
        let Some(sample) = w.sample else { continue };
        if w.flank {
            continue;
        }
        for (role, (dice, cv, hits, clean)) in sample.into_iter().enumerate() {
            if clean && dice > 0 && dice <= cv {
                let h = groups
                    .entry((role, dice, cv))
                    .or_insert_with(|| vec![0; usize::from(dice) + 1]);
                h[usize::from(hits)] += 1;
            }
        }
    }
    let mut tested = 0;
    for (&(role, dice, cv), hist) in &groups {
        let total: u64 = hist.iter().sum();
        if total < 400 {
            continue;
        }
        // Pool the bins from the low end until each expected count is at least 5.
        let expect = binomial(dice, p_hit(cv));
        let (mut chi, mut bins, mut obs_acc, mut exp_acc) = (0.0, 0usize, 0.0, 0.0);
        for k in 0..=usize::from(dice) {
            obs_acc += hist[k] as f64;
            exp_acc += expect[k] * total as f64;
            if exp_acc >= 5.0
                && (k == usize::from(dice)
                    || expect[k + 1..].iter().sum::<f64>() * total as f64 >= 5.0)
            {
                chi += (obs_acc - exp_acc).powi(2) / exp_acc;
                bins += 1;
                obs_acc = 0.0;
                exp_acc = 0.0;
            }
        }
        if exp_acc > 0.0 {
            chi += (obs_acc - exp_acc).powi(2) / exp_acc;
            bins += 1;
        }
        let df = bins - 1;
        eprintln!(
            "side {role}, {dice} dice at CV {cv}: {total} melees, hits {hist:?}, chi-square {chi:.2} on {df} df"
        );
        assert!(df >= 1);
        assert!(
            chi < CRITICAL_001[df - 1],
            "side {role}, {dice} dice at CV {cv}: chi-square {chi:.2} >= {} (df {df})",
            CRITICAL_001[df - 1]
        );
        tested += 1;
    }
    assert!(
        tested >= 2,
        "too few groups with enough melees to test: {groups:?}"
    );
}

//! Close combat: the number of hits by dice and CV, and the first round of a cavalry melee.

use super::exact::{at_least, binomial, enumerate};
use super::{Cell, Grid, MAX_DICE, Options, Prob, Table, Tidy, effective_cvs, key, prob, signed};
use crate::army::{HorseKind, Side, Unit, UnitKind};
use crate::events::plural;
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::fire::effective_cv;
use crate::rules::ironsides::melee::{
    Approach, Cover, Role, melee_dice, melee_loser, melee_modifier, roll_melee,
};

/// P(one close-combat die hits) at effective CV `cv` with `modifier`, by enumerating
/// [`roll_melee`] with one die.
pub fn per_die(rules: &IronsidesRules, cv: i8, modifier: i8) -> Prob {
    enumerate(MAX_DICE, |d| {
        roll_melee(rules, d, 1, modifier, cv, &mut Rerolls::none())
    })
    .exact()
    .p(&1)
}

/// The distribution of hits from `dice` close-combat dice (index = hits): binomial, since each
/// die is rolled on its own against the same CV and modifier.
pub fn hits(rules: &IronsidesRules, dice: u8, cv: i8, modifier: i8) -> Vec<Prob> {
    binomial(u32::from(dice), per_die(rules, cv, modifier))
}

/// The same distribution by enumerating every sequence of `dice` dice through [`roll_melee`]
/// (6^dice runs): the check that the binomial shortcut matches the engine.
pub fn hits_enumerated(rules: &IronsidesRules, dice: u8, cv: i8, modifier: i8) -> Vec<Prob> {
    let d = enumerate(MAX_DICE, |dd| {
        roll_melee(rules, dd, dice, modifier, cv, &mut Rerolls::none())
    })
    .exact();
    (0..=dice).map(|k| d.p(&k)).collect()
}

/// The most dice a unit can roll in one close combat: the largest dice count, doubled for a flank
/// or rear attack.
pub fn max_dice(rules: &IronsidesRules) -> u8 {
    let c = &rules.close_combat;
    [
        c.foot_dice,
        c.foot_hedgehog_vs_cavalry_dice,
        c.horse_charge_full_dice,
        c.horse_charge_short_dice,
        c.horse_standing_dice,
        c.pursuit_contact_dice,
    ]
    .into_iter()
    .max()
    .unwrap_or(0)
        * c.flank_rear_dice_multiplier
}

pub fn hits_table(rules: &IronsidesRules, opts: &Options) -> Table {
    let m = opts.melee_modifier;
    let mut tidy = Tidy::new(vec![
        key("dice"),
        key("cv"),
        key("modifier"),
        key("hits"),
        prob("p"),
        prob("p_at_least"),
    ]);
    let mut grids = Vec::new();
    for n in 1..=max_dice(rules) {
        let mut header = vec!["CV".to_string()];
        header.extend((0..=n).map(|k| format!("{k} {}", plural(k, "hit", "hits"))));
        header.extend((1..=n).map(|k| format!("≥{k}")));
        let mut g = Grid::new(
            format!(
                "{n} {}, modifier {}: exactly k hits, then at least k",
                plural(n, "die", "dice"),
                signed(m)
            ),
            header,
        );
        for cv in effective_cvs(rules) {
            let exact = hits(rules, n, cv as i8, m);
            let cum = at_least(&exact);
            for k in 0..=n {
                let i = usize::from(k);
                tidy.push(vec![
                    Cell::int(n),
                    Cell::int(cv),
                    Cell::int(m),
                    Cell::int(k),
                    Cell::P(exact[i]),
                    Cell::P(cum[i]),
                ]);
            }
            let mut row = vec![Cell::int(cv)];
            row.extend(exact.iter().map(|&p| Cell::P(p)));
            row.extend(cum.iter().skip(1).map(|&p| Cell::P(p)));
            g.push(row);
        }
        grids.push(g);
    }
    let c = &rules.close_combat;
    Table {
        id: "close_combat_hits",
        title: "Hits in close combat".into(),
        about: vec![
            format!(
                "Each close-combat die hits on die + modifier <= effective CV and costs the enemy 1 CV. Foot roll {}, {} in hedgehog against cavalry; \
                 horse {} for a charge of {}\" or more, {} for a shorter charge or countercharge, {} standing or in a continuing melee; \
                 a flank or rear attacker doubles its dice. An attacker never rolls more dice than its current CV.",
                c.foot_dice,
                c.foot_hedgehog_vs_cavalry_dice,
                c.horse_charge_full_dice,
                rules.charge.full_speed_distance,
                c.horse_charge_short_dice,
                c.horse_standing_dice,
            ),
            format!(
                "Every die here has modifier {} (`--melee-modifier` changes it). The dice are independent, so the hits are binomial in the chance of one die \
                 (the `hit` table); the test suite checks this against enumerating every roll of the engine's melee function.",
                signed(m)
            ),
        ],
        tidy,
        grids,
    }
}

/// The first round of a melee between two horse units both charging at full speed.
#[derive(Debug, Clone, PartialEq)]
pub struct CavalryMelee {
    pub cv_a: u8,
    pub cv_b: u8,
    pub dice_a: u8,
    pub dice_b: u8,
    pub a_wins: Prob,
    pub b_wins: Prob,
    pub draw: Prob,
    /// P(A loses exactly k CV), k = 0..=the full charge dice.
    pub lost_a: Vec<Prob>,
    pub lost_b: Vec<Prob>,
}

fn horse(cv: u8, side: Side) -> Unit {
    Unit::new(0, side, 0, UnitKind::Horse(HorseKind::Gallopers), cv)
}

/// The exact first round of a cavalry melee: A (CV `cv_a`) and B (CV `cv_b`) both charge
/// `charge.full_speed_distance` or more. Each side's dice count, modifier and hits come from the
/// engine ([`melee_dice`], [`melee_modifier`], [`roll_melee`], enumerated); the two sides' dice
/// are independent, so the joint outcome is the product. CV lost is capped at the CV a unit has
/// ([`Unit::lose_cv`]); the loser is the engine's [`melee_loser`].
pub fn cavalry_melee(rules: &IronsidesRules, cv_a: u8, cv_b: u8) -> CavalryMelee {
    let a = horse(cv_a, Side::Parliament);
    let b = horse(cv_b, Side::Royalist);
    let approach = Approach::Charging(rules.charge.full_speed_distance);
    let side = |me: &Unit, enemy: &Unit| {
        let n = melee_dice(rules, me, approach, enemy, Role::Attacker, false);
        let m = melee_modifier(rules, me, enemy, Cover::None, Role::Attacker);
        let cv = effective_cv(rules, me, 0);
        let d = enumerate(MAX_DICE, |dd| {
            roll_melee(rules, dd, n, m, cv, &mut Rerolls::none())
        })
        .exact();
        (n, d)
    };
    let (dice_a, hits_a) = side(&a, &b);
    let (dice_b, hits_b) = side(&b, &a);
    let len = usize::from(
        rules
            .close_combat
            .horse_charge_full_dice
            .max(dice_a)
            .max(dice_b),
    ) + 1;
    let mut out = CavalryMelee {
        cv_a,
        cv_b,
        dice_a,
        dice_b,
        a_wins: Prob::ZERO,
        b_wins: Prob::ZERO,
        draw: Prob::ZERO,
        lost_a: vec![Prob::ZERO; len],
        lost_b: vec![Prob::ZERO; len],
    };
    for &(ha, pa) in &hits_a.outcomes {
        for &(hb, pb) in &hits_b.outcomes {
            let p = pa * pb;
            let lost_a = a.clone().lose_cv(hb);
            let lost_b = b.clone().lose_cv(ha);
            out.lost_a[usize::from(lost_a)] = out.lost_a[usize::from(lost_a)] + p;
            out.lost_b[usize::from(lost_b)] = out.lost_b[usize::from(lost_b)] + p;
            let gone = [lost_a == cv_a, lost_b == cv_b];
            match melee_loser(rules, [lost_a, lost_b], gone) {
                Some(1) => out.a_wins = out.a_wins + p,
                Some(_) => out.b_wins = out.b_wins + p,
                None => out.draw = out.draw + p,
            }
        }
    }
    out
}

fn melee_cvs(rules: &IronsidesRules, opts: &Options) -> std::ops::RangeInclusive<u8> {
    opts.melee_cv_from.max(1)..=rules.limits.cv_max
}

fn melee_about(rules: &IronsidesRules) -> String {
    format!(
        "Two regiments of horse, A and B, both charging {}\" or more (a charge met by a countercharge): each rolls {} dice, but never more than its CV, \
         with no modifiers (no cuirassiers, hedgehogs, cover or size differences, no pistol shot, no general's re-rolls). The side that loses more CV \
         loses the round and tests 2D6 against its CV (the `reaction` table's no-re-roll rows: fail one retreats, fail both routs); equal losses are a draw \
         and the melee goes on next turn. CV lost never exceeds the CV a unit has.{}",
        rules.charge.full_speed_distance,
        rules.close_combat.horse_charge_full_dice,
        wiped_out_words(rules)
    )
}

/// What the tables' notes add when `close_combat.wiped_out_side_loses` is set.
pub(super) fn wiped_out_words(rules: &IronsidesRules) -> &'static str {
    if rules.close_combat.wiped_out_side_loses {
        " A side wiped out has lost whatever the count; both wiped out is a draw with nobody left."
    } else {
        ""
    }
}

pub fn cavalry_table(rules: &IronsidesRules, opts: &Options) -> Table {
    let mut tidy = Tidy::new(vec![
        key("cv_a"),
        key("cv_b"),
        key("dice_a"),
        key("dice_b"),
        prob("p_a_wins"),
        prob("p_b_wins"),
        prob("p_draw"),
    ]);
    let mut g = Grid::new(
        "First round: who loses less CV",
        vec![
            "A CV".into(),
            "B CV".into(),
            "A dice".into(),
            "B dice".into(),
            "A wins".into(),
            "B wins".into(),
            "draw".into(),
        ],
    )
    .labels(2);
    for a in melee_cvs(rules, opts) {
        for b in melee_cvs(rules, opts) {
            let r = cavalry_melee(rules, a, b);
            let row = vec![
                Cell::int(a),
                Cell::int(b),
                Cell::int(r.dice_a),
                Cell::int(r.dice_b),
                Cell::P(r.a_wins),
                Cell::P(r.b_wins),
                Cell::P(r.draw),
            ];
            tidy.push(row.clone());
            g.push(row);
        }
    }
    Table {
        id: "cavalry_melee",
        title: "Cavalry melee: the first round".into(),
        about: vec![melee_about(rules)],
        tidy,
        grids: vec![g],
    }
}

pub fn cavalry_losses_table(rules: &IronsidesRules, opts: &Options) -> Table {
    let full = rules.close_combat.horse_charge_full_dice;
    let mut tidy = Tidy::new(vec![
        key("cv_a"),
        key("cv_b"),
        key("side"),
        key("cv_lost"),
        prob("p"),
        prob("p_at_least"),
    ]);
    let mut h1 = vec!["A CV".to_string(), "B CV".to_string()];
    h1.extend((0..=full).map(|k| format!("A loses {k}")));
    h1.extend((0..=full).map(|k| format!("B loses {k}")));
    let mut g1 = Grid::new("CV lost in the first round: exactly k", h1).labels(2);
    let mut h2 = vec!["A CV".to_string(), "B CV".to_string()];
    h2.extend((1..=full).map(|k| format!("A loses ≥{k}")));
    h2.extend((1..=full).map(|k| format!("B loses ≥{k}")));
    let mut g2 = Grid::new("CV lost in the first round: at least k", h2).labels(2);
    for a in melee_cvs(rules, opts) {
        for b in melee_cvs(rules, opts) {
            let r = cavalry_melee(rules, a, b);
            let mut r1 = vec![Cell::int(a), Cell::int(b)];
            let mut r2 = vec![Cell::int(a), Cell::int(b)];
            for (side, lost) in [("a", &r.lost_a), ("b", &r.lost_b)] {
                let cum = at_least(lost);
                for k in 0..=usize::from(full) {
                    let (p, c) = (
                        lost.get(k).copied().unwrap_or(Prob::ZERO),
                        cum.get(k).copied().unwrap_or(Prob::ZERO),
                    );
                    tidy.push(vec![
                        Cell::int(a),
                        Cell::int(b),
                        Cell::text(side),
                        Cell::int(k as i64),
                        Cell::P(p),
                        Cell::P(c),
                    ]);
                    r1.push(Cell::P(p));
                    if k >= 1 {
                        r2.push(Cell::P(c));
                    }
                }
            }
            g1.push(r1);
            g2.push(r2);
        }
    }
    Table {
        id: "cavalry_melee_losses",
        title: "Cavalry melee: CV lost in the first round".into(),
        about: vec![
            melee_about(rules),
            "Each row gives, for both sides, the chance of losing exactly k CV, then of losing at least k CV.".into(),
        ],
        tidy,
        grids: vec![g1, g2],
    }
}

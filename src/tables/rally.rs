//! Rallies: one D6 against CV in the commander's radius (with the attached general's modifiers),
//! 2D6 summed against CV out of it.

use super::exact::enumerate;
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob, signed};
use crate::army::{FootBalance, Side, Unit, UnitKind};
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::rally::{rally_attempt, rally_out_of_radius};

/// A unit that has lost CV down to `cv` and may rally (started at the ruleset's top CV, lowest
/// point `cv`), so the caps never get in the way of the die.
fn rallying_unit(rules: &IronsidesRules, cv: u8) -> Unit {
    let mut u = Unit::new(
        0,
        Side::Parliament,
        0,
        UnitKind::Foot(FootBalance::Normal),
        rules.limits.cv_max,
    );
    u.cv = cv;
    u.lowest_cv = cv;
    u
}

/// The CVs a rally can start from: 1 up to one below the top CV (a unit at the top CV has lost
/// nothing it could regain).
pub fn rally_cvs(rules: &IronsidesRules) -> std::ops::Range<u8> {
    1..rules.limits.cv_max
}

/// P(one paid rally attempt in radius regains a CV) at `cv`, die modifier `modifier`, with
/// `rerolls` re-rolls to spend, by enumerating [`rally_attempt`].
pub fn in_radius(rules: &IronsidesRules, cv: u8, modifier: i8, rerolls: u8) -> Prob {
    enumerate(MAX_DICE, |d| {
        let mut u = rallying_unit(rules, cv);
        rally_attempt(rules, d, &mut u, modifier, &mut Rerolls::new(rerolls)).1
    })
    .exact()
    .p(&true)
}

/// P(a unit out of its commander's radius regains a CV) at `cv`, by enumerating
/// [`rally_out_of_radius`].
pub fn out_of_radius(rules: &IronsidesRules, cv: u8) -> Prob {
    enumerate(MAX_DICE, |d| {
        let mut u = rallying_unit(rules, cv);
        rally_out_of_radius(rules, d, &mut u).1
    })
    .exact()
    .p(&true)
}

/// The in-radius methods: (identifier, label, die modifier).
pub fn methods(rules: &IronsidesRules) -> [(&'static str, String, i8); 3] {
    let a = rules.rally.attached_unit_die_modifier;
    let o = rules.rally.attached_other_units_die_modifier;
    [
        ("d6", "1D6".into(), 0),
        (
            "d6_general_attached",
            format!("1D6 {}, general attached", signed(a)),
            a,
        ),
        (
            "d6_general_with_another_unit",
            format!("1D6 {}, general with another unit", signed(o)),
            o,
        ),
    ]
}

pub fn table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("cv"),
        key("method"),
        key("die_modifier"),
        key("rerolls"),
        prob("p_rally"),
    ]);
    let ms = methods(rules);
    let n = rules.rally.out_of_radius_dice;
    let mut h1 = vec!["CV".to_string()];
    h1.extend(ms.iter().map(|m| m.1.clone()));
    h1.push(format!("{n}D6 summed, out of radius"));
    let mut g1 = Grid::new("One attempt, no re-roll", h1);
    let mut h2 = vec!["CV".to_string()];
    h2.extend(ms.iter().map(|m| m.1.clone()));
    let mut g2 = Grid::new("One attempt with one re-roll", h2);
    for cv in rally_cvs(rules) {
        let mut r1 = vec![Cell::int(cv)];
        let mut r2 = vec![Cell::int(cv)];
        for (id, _, m) in &ms {
            for rr in [0u8, 1] {
                let p = in_radius(rules, cv, *m, rr);
                tidy.push(vec![
                    Cell::int(cv),
                    Cell::text(*id),
                    Cell::int(*m),
                    Cell::int(rr),
                    Cell::P(p),
                ]);
                if rr == 0 { &mut r1 } else { &mut r2 }.push(Cell::P(p));
            }
        }
        let p = out_of_radius(rules, cv);
        tidy.push(vec![
            Cell::int(cv),
            Cell::text(format!("out_of_radius_{n}d6_summed")),
            Cell::int(0),
            Cell::int(0),
            Cell::P(p),
        ]);
        r1.push(Cell::P(p));
        g1.push(r1);
        g2.push(r2);
    }
    Table {
        id: "rally",
        title: "Rallies".into(),
        about: vec![
            format!(
                "In its commander's radius a unit pays {} LP ({} within {}\" of the enemy) to roll one D6: die + modifier <= current CV regains 1 CV. \
                 A general attached to a unit takes {} off its die and adds {} to the other units of his command. \
                 Out of radius, {n}D6 summed <= CV regains 1 CV at no LP cost (no re-roll: the commander is not there).",
                rules.leadership.rally_cost_far,
                rules.leadership.rally_cost_near_enemy,
                rules.leadership.rally_near_enemy_distance,
                -i16::from(rules.rally.attached_unit_die_modifier),
                signed(rules.rally.attached_other_units_die_modifier),
            ),
            format!(
                "Each row is one attempt. A unit regains at most {} CV a turn, never above its starting CV and never more than {} above its lowest CV so far; \
                 a unit at CV {} has nothing to regain, so the rows stop below it.",
                rules.rally.max_per_turn, rules.rally.max_above_lowest, rules.limits.cv_max
            ),
        ],
        tidy,
        grids: vec![g1, g2],
    }
}

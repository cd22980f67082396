//! The hit rule: the chance that one die hits (or passes) by effective CV and die modifier.

use super::exact::enumerate;
use super::{Cell, Grid, MAX_DICE, Options, Prob, Table, Tidy, effective_cvs, key, prob, signed};
use crate::dice::DiceSource;
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::succeeds;

/// P(one die hits) at effective CV `cv` with `modifier` added to the die, by enumerating the six
/// faces through [`succeeds`].
pub fn hit_chance(rules: &IronsidesRules, cv: i8, modifier: i8) -> Prob {
    enumerate(MAX_DICE, |d| succeeds(rules, d.d6(), modifier, cv))
        .exact()
        .p(&true)
}

pub fn table(rules: &IronsidesRules, opts: &Options) -> Table {
    let mods: Vec<i8> = (opts.modifier_min..=opts.modifier_max).collect();
    let mut tidy = Tidy::new(vec![key("cv"), key("modifier"), prob("p_hit")]);
    let mut header = vec!["CV".to_string()];
    header.extend(mods.iter().map(|&m| signed(m)));
    let mut grid = Grid::new(
        "Chance to hit with one die, by CV (rows) and die modifier (columns)",
        header,
    );
    for cv in effective_cvs(rules) {
        let mut row = vec![Cell::int(cv)];
        for &m in &mods {
            let p = hit_chance(rules, cv as i8, m);
            tidy.push(vec![Cell::int(cv), Cell::int(m), Cell::P(p)]);
            row.push(Cell::P(p));
        }
        grid.push(row);
    }
    let floor = hit_chance(rules, 0, 0);
    Table {
        id: "hit",
        title: "Chance to hit".into(),
        about: vec![
            format!(
                "One die hits (or passes) when die + modifier <= CV; a natural {} always succeeds and a natural {} always fails, whatever the modifiers. \
                 Fire, close combat and rally modifiers are added to the die, so a positive modifier makes a hit harder (dragoons at long range are +3).",
                rules.limits.die_always_hits, rules.limits.die_always_misses
            ),
            format!(
                "Look up the effective CV: current CV, {} while disordered, +{} for each unit of a command the Captain-General has joined. \
                 At an effective CV of 0 or less only the natural {} hits: {}.",
                -i16::from(rules.close_combat.disorder_cv_penalty),
                rules.generals.captain_general_attached_cv_bonus,
                rules.limits.die_always_hits,
                floor.fraction()
            ),
        ],
        tidy,
        grids: vec![grid],
    }
}

//! Steps 3-5, leadership points: rolling, giving, capping and spending them.

use crate::army::{CommanderRating, GunWeight};
use crate::dice::DiceSource;
use crate::rules::ironsides::tables::{IndependentLps, IronsidesRules};

/// A commander's own LPs: D6 + skill modifier, never below 0. Returns (roll, lps).
pub fn roll_lps<D: DiceSource>(dice: &mut D, lp_modifier: i8) -> (u8, u8) {
    let d = dice.d6();
    (d, (i16::from(d) + i16::from(lp_modifier)).max(0) as u8)
}

/// A command's LPs this turn: its own plus what the Captain-General gave, capped (Ireton: 4+1+2=7,
/// counts as 6).
pub fn command_lps(rules: &IronsidesRules, own: u8, given: u8) -> u8 {
    own.saturating_add(given).min(rules.options.lp_cap)
}

/// LPs for an independent unit or forlorn hope: the easy rule (1 LP), or the per-unit D6 table.
pub fn independent_lps<D: DiceSource>(rules: &IronsidesRules, dice: &mut D, quality: usize) -> u8 {
    match rules.options.independent_lps {
        IndependentLps::Easy => rules.leadership.independent_easy_lps,
        IndependentLps::Table => {
            let t = &rules.leadership.independent_table;
            let row = [&t.good, &t.average, &t.poor][quality.min(2)];
            row[usize::from(dice.d6() - 1)]
        }
    }
}

/// A generalship roll (skill and morale, each a D6): the commander it makes.
/// `skill_modifier` is the Commissary General's or a replacement's -1.
pub fn roll_generalship<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    skill_modifier: i8,
) -> CommanderRating {
    let skill = rules.generalship_row(i16::from(dice.d6()) + i16::from(skill_modifier));
    let morale = rules.generalship_row(i16::from(dice.d6()));
    CommanderRating {
        lp_modifier: skill.lp_modifier,
        radius: skill.radius,
        rerolls: morale.rerolls,
        enemy_rerolls: morale.enemy_rerolls,
    }
}

/// How a command's units move this turn, for costing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveOrders {
    /// Groups of units moving together (same way, facing the same way, small gaps): 1 LP a
    /// group, however many units it holds.
    pub groups: u8,
    /// Units moving on their own (out of position, wheeling, changing formation, crossing).
    pub individual: u8,
    /// Guns moving, by weight (each pays its own LPs; a march column of guns pays once).
    pub guns: [u8; 4],
    /// Units whose moves are doubled in cost because the general leads another unit.
    pub doubled: bool,
}

/// LP cost of a command's movement orders (E4: a grouped line plus two out of position = 3).
pub fn move_cost(rules: &IronsidesRules, o: &MoveOrders) -> u8 {
    let l = &rules.leadership;
    let mut cost = o.groups.saturating_mul(l.group_move_cost);
    cost = cost.saturating_add(o.individual.saturating_mul(l.individual_move_cost));
    for (w, &n) in [
        GunWeight::VeryLight,
        GunWeight::Light,
        GunWeight::Medium,
        GunWeight::Heavy,
    ]
    .iter()
    .zip(&o.guns)
    {
        cost = cost.saturating_add(n.saturating_mul(l.artillery_move_cost.get(*w)));
    }
    if o.doubled {
        cost.saturating_mul(l.unattached_cost_multiplier)
    } else {
        cost
    }
}

/// The Captain-General can give LPs only to commanders within his command radius (E2).
pub fn within_radius(
    general: crate::battlefield::Vec2,
    radius: f64,
    other: crate::battlefield::Vec2,
) -> bool {
    general.dist(other) <= radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn artillery_costs_by_weight() {
        let r = IronsidesRules::builtin();
        let o = MoveOrders {
            guns: [1, 1, 1, 1],
            ..MoveOrders::default()
        };
        assert_eq!(move_cost(&r, &o), 1 + 1 + 2 + 3);
        let o = MoveOrders {
            individual: 2,
            doubled: true,
            ..MoveOrders::default()
        };
        assert_eq!(move_cost(&r, &o), 4);
    }

    #[test]
    fn lps_never_negative_and_capped() {
        let r = IronsidesRules::builtin();
        let mut d = ScriptedDice::new(&[1]);
        assert_eq!(roll_lps(&mut d, -2), (1, 0));
        d.finish();
        assert_eq!(command_lps(&r, 5, 2), 6);
    }
}

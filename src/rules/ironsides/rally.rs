//! Step 6, rallies: one D6 <= CV regains a CV, within the caps.

use crate::army::Unit;
use crate::dice::DiceSource;
use crate::rules::ironsides::dice_rules::{Rerolls, succeeds};
use crate::rules::ironsides::tables::IronsidesRules;

/// The highest CV a unit may rally to now: never above its starting CV, never more than
/// `max_above_lowest` above its lowest CV so far.
pub fn rally_ceiling(rules: &IronsidesRules, unit: &Unit) -> u8 {
    unit.start_cv
        .min(unit.lowest_cv.saturating_add(rules.rally.max_above_lowest))
}

/// Whether a rally attempt could gain anything at all this turn.
pub fn can_rally(rules: &IronsidesRules, unit: &Unit) -> bool {
    unit.is_active()
        && unit.rallied_this_turn < rules.rally.max_per_turn
        && unit.cv < rally_ceiling(rules, unit)
        && unit.cv > 0
}

/// The LP cost of one rally attempt.
pub fn rally_cost(rules: &IronsidesRules, near_enemy: bool) -> u8 {
    if near_enemy {
        rules.leadership.rally_cost_near_enemy
    } else {
        rules.leadership.rally_cost_far
    }
}

/// One paid rally attempt in command radius: D6 + `modifier` <= CV regains 1 CV (capped).
/// `modifier` is -2 for the unit a general leads, +2 for his command's other units.
/// Returns (final die, success).
pub fn rally_attempt<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    unit: &mut Unit,
    modifier: i8,
    rerolls: &mut Rerolls,
) -> (u8, bool) {
    if !can_rally(rules, unit) {
        return (0, false);
    }
    let cv = unit.cv as i8;
    let mut d = dice.d6();
    while !succeeds(rules, d, modifier, cv) && rerolls.take() {
        d = dice.d6();
    }
    let ok = succeeds(rules, d, modifier, cv);
    if ok {
        gain(rules, unit);
    }
    (d, ok)
}

/// A unit out of its commander's radius: 2D6 summed <= CV regains 1, at no LP cost.
/// Returns (sum, success).
pub fn rally_out_of_radius<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    unit: &mut Unit,
) -> (u8, bool) {
    if !can_rally(rules, unit) {
        return (0, false);
    }
    let sum = dice.sum_d6(u32::from(rules.rally.out_of_radius_dice)) as u8;
    let ok = sum <= unit.cv;
    if ok {
        gain(rules, unit);
    }
    (sum, ok)
}

fn gain(rules: &IronsidesRules, unit: &mut Unit) {
    let cap = rally_ceiling(rules, unit);
    if unit.gain_cv(1, cap) > 0 {
        unit.rallied_this_turn += 1;
        // Regaining a CV ends a unit's brokenness.
        unit.broken = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::{FootBalance, Side, UnitKind};
    use crate::dice::ScriptedDice;

    fn unit(start: u8, cv: u8, lowest: u8) -> Unit {
        let mut u = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Foot(FootBalance::Normal),
            start,
        );
        u.cv = cv;
        u.lowest_cv = lowest;
        u
    }

    #[test]
    fn caps_two_per_turn_start_cv_and_two_above_lowest() {
        let r = IronsidesRules::builtin();
        // Started 6, went down to 2: can rally to 4 at most today.
        let mut u = unit(6, 2, 2);
        let mut d = ScriptedDice::new(&[1, 1]);
        let mut rr = Rerolls::none();
        assert!(rally_attempt(&r, &mut d, &mut u, 0, &mut rr).1);
        assert!(rally_attempt(&r, &mut d, &mut u, 0, &mut rr).1);
        assert_eq!(u.cv, 4);
        assert!(
            !can_rally(&r, &u),
            "2 per turn and 2 above lowest both bind"
        );
        d.finish();
        let mut u = unit(5, 4, 4);
        let mut d = ScriptedDice::new(&[1]);
        assert!(rally_attempt(&r, &mut d, &mut u, 0, &mut rr).1);
        assert_eq!(u.cv, 5);
        assert!(!can_rally(&r, &u), "never past the starting CV");
        d.finish();
    }

    #[test]
    fn out_of_radius_needs_two_dice_summed() {
        let r = IronsidesRules::builtin();
        let mut u = unit(6, 5, 5);
        let mut d = ScriptedDice::new(&[3, 3, 2, 3]);
        assert_eq!(rally_out_of_radius(&r, &mut d, &mut u), (6, false));
        assert_eq!(rally_out_of_radius(&r, &mut d, &mut u), (5, true));
        assert_eq!(u.cv, 6);
        d.finish();
    }
}

//! Cavalry pursuit: the halt test after victory and at each later rally phase.

use crate::army::{HorseKind, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::rules::ironsides::tables::IronsidesRules;

/// Dice summed for a unit's halt test: 1D6 for trotters and cuirassiers, 2D6 for gallopers.
pub fn halt_dice(rules: &IronsidesRules, u: &Unit) -> u8 {
    match u.kind {
        UnitKind::Horse(HorseKind::Gallopers) => rules.pursuit.galloper_halt_dice,
        UnitKind::Horse(HorseKind::Cuirassiers) => rules.pursuit.cuirassier_halt_dice,
        _ => rules.pursuit.trotter_halt_dice,
    }
}

/// The halt test: the dice summed must be no more than current CV, and as in every test a
/// natural 6 fails (`limits.die_always_misses`). Returns (sum, halted).
pub fn halt_test<D: DiceSource>(rules: &IronsidesRules, dice: &mut D, u: &Unit) -> (u8, bool) {
    let (mut sum, mut six) = (0u8, false);
    for _ in 0..halt_dice(rules, u) {
        let d = dice.d6();
        sum = sum.saturating_add(d);
        six |= d >= rules.limits.die_always_misses;
    }
    (sum, !six && sum <= u.cv)
}

/// How far a pursuer hares off: D6 x 3 inches.
pub fn pursuit_distance<D: DiceSource>(rules: &IronsidesRules, dice: &mut D) -> f64 {
    f64::from(dice.sum_d6(u32::from(rules.pursuit.move_dice))) * rules.pursuit.move_per_pip
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::Side;
    use crate::dice::ScriptedDice;

    #[test]
    fn gallopers_sum_two_dice_trotters_one() {
        let r = IronsidesRules::builtin();
        let g = Unit::new(
            0,
            Side::Royalist,
            0,
            UnitKind::Horse(HorseKind::Gallopers),
            4,
        );
        let t = Unit::new(
            1,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Trotters),
            4,
        );
        let mut d = ScriptedDice::new(&[2, 2, 2, 3, 4, 5]);
        assert_eq!(halt_test(&r, &mut d, &g), (4, true));
        assert_eq!(halt_test(&r, &mut d, &g), (5, false));
        assert_eq!(halt_test(&r, &mut d, &t), (4, true));
        assert_eq!(halt_test(&r, &mut d, &t), (5, false));
        d.finish();
    }

    #[test]
    fn a_natural_six_never_halts() {
        let r = IronsidesRules::builtin();
        let t = Unit::new(
            1,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Trotters),
            6,
        );
        let mut d = ScriptedDice::new(&[6, 5]);
        assert_eq!(
            halt_test(&r, &mut d, &t),
            (6, false),
            "6 <= CV 6, but a 6 fails"
        );
        assert_eq!(halt_test(&r, &mut d, &t), (5, true));
        d.finish();
    }
}

//! Impetus and melee: a die per charging horseman, points per figure, a die per complete six
//! points, half the score as casualties in points, the pike bonus in the first round.

use super::figures::Figure;
use super::tables::DickensonRules;
use crate::dice::DiceSource;

/// The score a charging horseman's impetus die needs to kill, or None for foot and gunners.
pub fn impetus_kill_on(figure: Figure, rules: &DickensonRules) -> Option<u8> {
    let i = &rules.impetus;
    match figure {
        Figure::Lobster => Some(i.lobster),
        Figure::Trooper => Some(i.trooper),
        Figure::Dragoon => Some(i.dragoon),
        _ => None,
    }
}

/// Impetus of `attackers` horsemen charging home: one die each, kills before saves.
pub fn impetus<D: DiceSource>(
    dice: &mut D,
    figure: Figure,
    attackers: u32,
    rules: &DickensonRules,
) -> u32 {
    let Some(need) = impetus_kill_on(figure, rules) else {
        return 0;
    };
    (0..attackers).filter(|_| dice.d6() >= need).count() as u32
}

/// A figure's value in melee.
pub fn points_per_figure(figure: Figure, rules: &DickensonRules) -> f64 {
    figure.of(&rules.melee.points)
}

/// Dice thrown for `points`: one for each complete six.
pub fn dice_for(points: f64, rules: &DickensonRules) -> u32 {
    (points / rules.melee.points_per_die).floor() as u32
}

/// Casualties caused in points by one side's dice total: half the score, pikemen adding half
/// again to their score in the first round.
pub fn casualty_points(
    score: u32,
    figure: Figure,
    first_round: bool,
    rules: &DickensonRules,
) -> f64 {
    let m = &rules.melee;
    let bonus = if figure == Figure::Pikeman && first_round {
        1.0 + m.pike_first_round_bonus
    } else {
        1.0
    };
    f64::from(score) * bonus * m.casualty_share
}

/// Casualty points turned into figures of the target (ruling: at the target's points per figure,
/// the remainder carried to the next round). Returns the figures and the new remainder.
pub fn figures_hit(
    points: f64,
    carried: f64,
    target: Figure,
    rules: &DickensonRules,
) -> (u32, f64) {
    let total = points + carried;
    let per = points_per_figure(target, rules);
    let n = (total / per).floor();
    (n as u32, total - n * per)
}

/// One side's blow in one round: `figures` of `figure` fighting throw a die per six points;
/// the casualty points go against `target` with the remainder `carried`. Returns the target's
/// figures hit (before saves) and the remainder to carry.
pub fn round<D: DiceSource>(
    dice: &mut D,
    figure: Figure,
    figures: u32,
    first_round: bool,
    target: Figure,
    carried: f64,
    rules: &DickensonRules,
) -> (u32, f64) {
    let points = f64::from(figures) * points_per_figure(figure, rules);
    let score = dice.sum_d6(dice_for(points, rules));
    let cp = casualty_points(score, figure, first_round, rules);
    figures_hit(cp, carried, target, rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn impetus_by_troop_type() {
        let r = DickensonRules::builtin();
        let script = [2, 3, 4, 5, 6];
        let mut d = ScriptedDice::new(&script);
        assert_eq!(impetus(&mut d, Figure::Lobster, 5, &r), 4);
        let mut d = ScriptedDice::new(&script);
        assert_eq!(impetus(&mut d, Figure::Trooper, 5, &r), 3);
        let mut d = ScriptedDice::new(&script);
        assert_eq!(impetus(&mut d, Figure::Dragoon, 5, &r), 2);
        // Foot have no impetus and roll nothing.
        let mut d = ScriptedDice::new(&[]);
        assert_eq!(impetus(&mut d, Figure::Pikeman, 5, &r), 0);
    }

    #[test]
    fn a_die_for_each_complete_six_points() {
        let r = DickensonRules::builtin();
        let pts = |f, n: u32| f64::from(n) * points_per_figure(f, &r);
        assert_eq!(dice_for(pts(Figure::Musketeer, 11), &r), 1);
        assert_eq!(dice_for(pts(Figure::Musketeer, 12), &r), 2);
        // 4 pikemen are exactly 6 points; 3 troopers too; 5 lobsters are 12.5.
        assert_eq!(dice_for(pts(Figure::Pikeman, 4), &r), 1);
        assert_eq!(dice_for(pts(Figure::Pikeman, 3), &r), 0);
        assert_eq!(dice_for(pts(Figure::Trooper, 3), &r), 1);
        assert_eq!(dice_for(pts(Figure::Lobster, 5), &r), 2);
        assert_eq!(dice_for(pts(Figure::Dragoon, 7), &r), 1);
    }

    #[test]
    fn half_the_score_with_the_pike_bonus_in_the_first_round() {
        let r = DickensonRules::builtin();
        assert_eq!(casualty_points(9, Figure::Musketeer, true, &r), 4.5);
        assert_eq!(casualty_points(8, Figure::Pikeman, true, &r), 6.0);
        assert_eq!(casualty_points(8, Figure::Pikeman, false, &r), 4.0);
        // Points become figures of the target, the remainder carried.
        assert_eq!(figures_hit(4.5, 0.0, Figure::Trooper, &r), (2, 0.5));
        assert_eq!(figures_hit(4.5, 0.5, Figure::Trooper, &r), (2, 1.0));
        assert_eq!(figures_hit(6.0, 0.0, Figure::Lobster, &r), (2, 1.0));
        assert_eq!(figures_hit(2.0, 0.0, Figure::Musketeer, &r), (2, 0.0));
    }

    #[test]
    fn twelve_pikemen_against_troopers() {
        let r = DickensonRules::builtin();
        // 12 pikemen are 18 points: three dice, 4+5+6 = 15; first round 22.5, half 11.25
        // points: five troopers at 2 points, 1.25 carried.
        let mut d = ScriptedDice::new(&[4, 5, 6]);
        assert_eq!(
            round(&mut d, Figure::Pikeman, 12, true, Figure::Trooper, 0.0, &r),
            (5, 1.25)
        );
        // The second round has no bonus: 7.5 points and the 1.25 carried, 4 troopers.
        let mut d = ScriptedDice::new(&[4, 5, 6]);
        assert_eq!(
            round(
                &mut d,
                Figure::Pikeman,
                12,
                false,
                Figure::Trooper,
                1.25,
                &r
            ),
            (4, 0.75)
        );
    }
}

//! The kinds of figure and their normal saving throw.

use super::tables::{DickensonRules, PerFigure};
use crate::dice::DiceSource;

/// A figure on the table: three kinds of horse, two of foot, and gunners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Figure {
    Lobster,
    Trooper,
    Dragoon,
    Pikeman,
    Musketeer,
    Gunner,
}

impl Figure {
    pub const ALL: [Figure; 6] = [
        Figure::Lobster,
        Figure::Trooper,
        Figure::Dragoon,
        Figure::Pikeman,
        Figure::Musketeer,
        Figure::Gunner,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Figure::Lobster => "lobster",
            Figure::Trooper => "trooper",
            Figure::Dragoon => "dragoon",
            Figure::Pikeman => "pikeman",
            Figure::Musketeer => "musketeer",
            Figure::Gunner => "gunner",
        }
    }

    /// This figure's value in a per-figure table.
    pub fn of<T: Copy>(self, t: &PerFigure<T>) -> T {
        match self {
            Figure::Lobster => t.lobster,
            Figure::Trooper => t.trooper,
            Figure::Dragoon => t.dragoon,
            Figure::Pikeman => t.pikeman,
            Figure::Musketeer => t.musketeer,
            Figure::Gunner => t.gunner,
        }
    }

    pub fn is_horse(self) -> bool {
        matches!(self, Figure::Lobster | Figure::Trooper | Figure::Dragoon)
    }
}

/// The casualties left after each rolls its normal saving throw (ruling: saved on the
/// figure's `saves` score or more).
pub fn after_saves<D: DiceSource>(
    dice: &mut D,
    figure: Figure,
    casualties: u32,
    rules: &DickensonRules,
) -> u32 {
    let save_on = figure.of(&rules.saves);
    (0..casualties).filter(|_| dice.d6() < save_on).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn saves_follow_the_armour() {
        let r = DickensonRules::builtin();
        // Lobsters save on 4+: 3 fails, 4 saves.
        let mut d = ScriptedDice::new(&[3, 4, 6]);
        assert_eq!(after_saves(&mut d, Figure::Lobster, 3, &r), 1);
        // Troopers on 5+: the same 4 now fails.
        let mut d = ScriptedDice::new(&[4, 5]);
        assert_eq!(after_saves(&mut d, Figure::Trooper, 2, &r), 1);
        // Foot save only on a 6.
        let mut d = ScriptedDice::new(&[5, 6]);
        assert_eq!(after_saves(&mut d, Figure::Pikeman, 2, &r), 1);
        // Gunners on 4+ (the text's gun-on-gun save).
        let mut d = ScriptedDice::new(&[4]);
        assert_eq!(after_saves(&mut d, Figure::Gunner, 1, &r), 0);
    }
}

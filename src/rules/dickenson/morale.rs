//! Morale: a unit's points from what is left of it, and the morale throw (2D6, every "ADD 1" of
//! the text, less the points lost) against the ruling's chart.

use super::tables::DickensonRules;
use crate::dice::DiceSource;

/// What is left of a foot regiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FootLeft {
    pub pikemen: u32,
    pub musketeers: u32,
    pub officer: bool,
    pub standard: bool,
    /// The mounted colonel, with the regiment (not detached as a staff officer).
    pub mounted_officer: bool,
}

/// What is left of a horse regiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HorseLeft {
    pub troopers: u32,
    pub officer: bool,
    pub standard: bool,
}

/// A gun's state for its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GunState {
    Sound,
    /// Damaged: the die thrown for it is its points.
    Damaged(u8),
    Destroyed,
}

/// What is left of a gun and its crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GunLeft {
    pub crew: u32,
    pub full_crew: u32,
    pub officer: bool,
    pub gun: GunState,
    pub ammunition: bool,
}

/// Officers count only while there are men to command.
fn officer(present: bool, men: u32, points: u32) -> u32 {
    if present && men > 0 { points } else { 0 }
}

/// A foot regiment's points: one a whole six of pikemen, one a whole six of musketeers, its
/// officers while there are men.
pub fn foot_points(u: &FootLeft, rules: &DickensonRules) -> u32 {
    let p = &rules.morale_points;
    let men = u.pikemen + u.musketeers;
    u.pikemen / p.pikemen_per_point
        + u.musketeers / p.musketeers_per_point
        + officer(u.officer, men, p.foot_officer)
        + officer(u.standard, men, p.foot_standard)
        + officer(u.mounted_officer, men, p.mounted_officer)
}

/// A horse regiment's points: one a whole pair of troopers, its officers while there are men.
pub fn horse_points(u: &HorseLeft, rules: &DickensonRules) -> u32 {
    let p = &rules.morale_points;
    u.troopers / p.troopers_per_point
        + officer(u.officer, u.troopers, p.horse_officer)
        + officer(u.standard, u.troopers, p.horse_standard)
}

/// A gun's points: the crew (full, or reduced: ruling), the officer while there is crew, the
/// gun (a damaged gun counts the die thrown for it) and its ammunition.
pub fn gun_points(u: &GunLeft, rules: &DickensonRules) -> u32 {
    let p = &rules.morale_points;
    let crew = if u.crew >= u.full_crew {
        p.gun_full_crew
    } else if u.crew > 0 {
        p.gun_partial_crew
    } else {
        0
    };
    let gun = match u.gun {
        GunState::Sound => p.gun,
        GunState::Damaged(die) => u32::from(die),
        GunState::Destroyed => 0,
    };
    crew + officer(u.officer, u.crew, p.gun_officer) + gun + u32::from(u.ammunition) * p.ammunition
}

/// Whom a casualty strikes (ruling: on a 6 an officer, then the standard, while any remain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Struck {
    Officer,
    Standard,
    RankAndFile,
}

pub fn struck(die: u8, officers: u32, standard: bool, rules: &DickensonRules) -> Struck {
    if die < rules.morale_points.officer_hit_on {
        Struck::RankAndFile
    } else if officers > 0 {
        Struck::Officer
    } else if standard {
        Struck::Standard
    } else {
        Struck::RankAndFile
    }
}

/// The "ADD 1 if" list of the text and the melee's fewer-casualties bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Add {
    Attacker,
    Supported,
    FlanksSecured,
    WonMelee,
    EnemyDownhill,
    EnemyWithdrawing,
    LieutenantGeneral,
    PikeDeep,
    FewerCasualties,
}

impl Add {
    pub const ALL: [Add; 9] = [
        Add::Attacker,
        Add::Supported,
        Add::FlanksSecured,
        Add::WonMelee,
        Add::EnemyDownhill,
        Add::EnemyWithdrawing,
        Add::LieutenantGeneral,
        Add::PikeDeep,
        Add::FewerCasualties,
    ];

    pub fn value(self, rules: &DickensonRules) -> i8 {
        let a = &rules.morale.add;
        match self {
            Add::Attacker => a.attacker,
            Add::Supported => a.supported,
            Add::FlanksSecured => a.flanks_secured,
            Add::WonMelee => a.won_melee,
            Add::EnemyDownhill => a.enemy_downhill,
            Add::EnemyWithdrawing => a.enemy_withdrawing,
            Add::LieutenantGeneral => a.lieutenant_general,
            Add::PikeDeep => a.pike_deep,
            Add::FewerCasualties => a.fewer_casualties,
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The adds that apply to a throw: each counts once however often it is named.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Adds(u16);

impl Adds {
    pub fn of(adds: &[Add]) -> Adds {
        Adds(adds.iter().fold(0, |bits, a| bits | a.bit()))
    }

    pub fn has(self, a: Add) -> bool {
        self.0 & a.bit() != 0
    }

    pub fn total(self, rules: &DickensonRules) -> i16 {
        Add::ALL
            .iter()
            .filter(|a| self.has(**a))
            .map(|a| i16::from(a.value(rules)))
            .sum()
    }
}

/// The ruling's morale chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoraleResult {
    Good,
    /// Stand, disordered, no advance next move.
    Stand,
    /// Fall back a full move facing the enemy, disordered.
    FallBack,
    Rout,
}

impl MoraleResult {
    pub const ALL: [MoraleResult; 4] = [
        MoraleResult::Good,
        MoraleResult::Stand,
        MoraleResult::FallBack,
        MoraleResult::Rout,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MoraleResult::Good => "good",
            MoraleResult::Stand => "stand",
            MoraleResult::FallBack => "fall back",
            MoraleResult::Rout => "rout",
        }
    }
}

/// The chart's result for a modified throw.
pub fn result(total: i16, rules: &DickensonRules) -> MoraleResult {
    let m = &rules.morale;
    if total >= m.good_at_least {
        MoraleResult::Good
    } else if total >= m.stand_at_least {
        MoraleResult::Stand
    } else if total >= m.fall_back_at_least {
        MoraleResult::FallBack
    } else {
        MoraleResult::Rout
    }
}

/// The modified morale throw: the dice, the adds, less the points lost so far, plus `other`
/// (the forlorn-hope deduction and the like).
pub fn modified<D: DiceSource>(
    dice: &mut D,
    adds: Adds,
    points_lost: u32,
    other: i8,
    rules: &DickensonRules,
) -> i16 {
    let roll = dice.sum_d6(u32::from(rules.morale.dice)) as i16;
    roll + adds.total(rules) + i16::from(other) - points_lost.min(i16::MAX as u32) as i16
}

/// A morale throw against the chart.
pub fn throw<D: DiceSource>(
    dice: &mut D,
    adds: Adds,
    points_lost: u32,
    rules: &DickensonRules,
) -> MoraleResult {
    result(modified(dice, adds, points_lost, 0, rules), rules)
}

/// A throw the formation rules call for (chargers, pike, musketeers charged by horse): good or
/// not. Musketeers in one rank (`forlorn_hope`) throw at the ruling's deduction.
pub fn formation_throw<D: DiceSource>(
    dice: &mut D,
    adds: Adds,
    points_lost: u32,
    forlorn_hope: bool,
    rules: &DickensonRules,
) -> bool {
    let other = if forlorn_hope {
        rules.morale.forlorn_hope
    } else {
        0
    };
    formation_good(modified(dice, adds, points_lost, other, rules), rules)
}

/// Whether a formation throw's modified total is good.
pub fn formation_good(total: i16, rules: &DickensonRules) -> bool {
    total >= rules.morale.formation_throw_good_at_least
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    fn full_foot() -> FootLeft {
        FootLeft {
            pikemen: 18,
            musketeers: 18,
            officer: true,
            standard: true,
            mounted_officer: true,
        }
    }

    #[test]
    fn full_units_have_the_texts_totals() {
        let r = DickensonRules::builtin();
        assert_eq!(foot_points(&full_foot(), &r), 10);
        let horse = HorseLeft {
            troopers: 12,
            officer: true,
            standard: true,
        };
        assert_eq!(horse_points(&horse, &r), 9);
        let gun = GunLeft {
            crew: 5,
            full_crew: 5,
            officer: true,
            gun: GunState::Sound,
            ammunition: true,
        };
        assert_eq!(gun_points(&gun, &r), 10);
    }

    #[test]
    fn points_are_recomputed_from_what_is_left() {
        let r = DickensonRules::builtin();
        // 17 pikemen are two whole sixes; a detached colonel takes his point.
        let u = FootLeft {
            pikemen: 17,
            mounted_officer: false,
            ..full_foot()
        };
        assert_eq!(foot_points(&u, &r), 8);
        // 7 troopers are three pairs.
        let h = HorseLeft {
            troopers: 7,
            officer: true,
            standard: false,
        };
        assert_eq!(horse_points(&h, &r), 4);
        // No men: officers count nothing.
        let u = FootLeft {
            pikemen: 0,
            musketeers: 0,
            ..full_foot()
        };
        assert_eq!(foot_points(&u, &r), 0);
        let h = HorseLeft {
            troopers: 0,
            officer: true,
            standard: true,
        };
        assert_eq!(horse_points(&h, &r), 0);
        // A damaged gun counts its die; a reduced crew its ruling's point; no crew, no officer.
        let g = GunLeft {
            crew: 3,
            full_crew: 5,
            officer: true,
            gun: GunState::Damaged(4),
            ammunition: false,
        };
        assert_eq!(gun_points(&g, &r), 1 + 1 + 4);
        let g = GunLeft {
            crew: 0,
            gun: GunState::Destroyed,
            ..g
        };
        assert_eq!(gun_points(&g, &r), 0);
    }

    #[test]
    fn casualties_strike_officers_on_a_six() {
        let r = DickensonRules::builtin();
        assert_eq!(struck(5, 2, true, &r), Struck::RankAndFile);
        assert_eq!(struck(6, 2, true, &r), Struck::Officer);
        assert_eq!(struck(6, 0, true, &r), Struck::Standard);
        assert_eq!(struck(6, 0, false, &r), Struck::RankAndFile);
    }

    #[test]
    fn the_chart_bands() {
        let r = DickensonRules::builtin();
        assert_eq!(result(8, &r), MoraleResult::Good);
        assert_eq!(result(7, &r), MoraleResult::Stand);
        assert_eq!(result(6, &r), MoraleResult::Stand);
        assert_eq!(result(5, &r), MoraleResult::FallBack);
        assert_eq!(result(4, &r), MoraleResult::FallBack);
        assert_eq!(result(3, &r), MoraleResult::Rout);
        assert_eq!(result(-4, &r), MoraleResult::Rout);
    }

    #[test]
    fn every_add_counts_once_and_points_lost_subtract() {
        let r = DickensonRules::builtin();
        let all = Adds::of(&Add::ALL);
        assert_eq!(all.total(&r), 9);
        assert_eq!(Adds::of(&[Add::WonMelee, Add::WonMelee]).total(&r), 1);
        for a in Add::ALL {
            // Each add of the list is worth one: 3+3 and one add is 7.
            let mut d = ScriptedDice::new(&[3, 3]);
            assert_eq!(modified(&mut d, Adds::of(&[a]), 0, 0, &r), 7, "{a:?}");
        }
        // 4+4 with the attacker and won-melee adds, 3 points lost: 8 + 2 - 3 = 7: stand.
        let mut d = ScriptedDice::new(&[4, 4]);
        let adds = Adds::of(&[Add::Attacker, Add::WonMelee]);
        assert_eq!(throw(&mut d, adds, 3, &r), MoraleResult::Stand);
        // The same with 5 lost is 5: fall back; with nothing lost, 10: good.
        let mut d = ScriptedDice::new(&[4, 4]);
        assert_eq!(throw(&mut d, adds, 5, &r), MoraleResult::FallBack);
        let mut d = ScriptedDice::new(&[4, 4]);
        assert_eq!(throw(&mut d, adds, 0, &r), MoraleResult::Good);
        let mut d = ScriptedDice::new(&[1, 1]);
        assert_eq!(throw(&mut d, Adds::default(), 0, &r), MoraleResult::Rout);
    }

    #[test]
    fn formation_throws_and_the_forlorn_hope() {
        let r = DickensonRules::builtin();
        let mut d = ScriptedDice::new(&[4, 4]);
        assert!(formation_throw(&mut d, Adds::default(), 0, false, &r));
        // One rank of musketeers: the same 8 less 1 fails.
        let mut d = ScriptedDice::new(&[4, 4]);
        assert!(!formation_throw(&mut d, Adds::default(), 0, true, &r));
        let mut d = ScriptedDice::new(&[5, 4]);
        assert!(!formation_throw(&mut d, Adds::default(), 2, false, &r));
    }
}

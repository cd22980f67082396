//! Small-arms fire: range bands, volleys of six with their deductions and the short-volley rule,
//! individual shots and the rest on a wall.

use super::tables::{ByBand, DickensonRules, Weapon};
use crate::dice::DiceSource;

/// Muskets, pistols and the dragoons' musketoons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arm {
    Musket,
    Pistol,
    Musketoon,
}

impl Arm {
    pub const ALL: [Arm; 3] = [Arm::Musket, Arm::Pistol, Arm::Musketoon];

    pub fn name(self) -> &'static str {
        match self {
            Arm::Musket => "musket",
            Arm::Pistol => "pistol",
            Arm::Musketoon => "musketoon",
        }
    }

    pub fn weapon(self, rules: &DickensonRules) -> &Weapon {
        let s = &rules.small_arms;
        match self {
            Arm::Musket => &s.musket,
            Arm::Pistol => &s.pistol,
            Arm::Musketoon => &s.musketoon,
        }
    }
}

/// Long, medium and short range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Band {
    Long,
    Medium,
    Short,
}

impl Band {
    pub const ALL: [Band; 3] = [Band::Long, Band::Medium, Band::Short];

    pub fn name(self) -> &'static str {
        match self {
            Band::Long => "long",
            Band::Medium => "medium",
            Band::Short => "short",
        }
    }

    /// This band's value, if the weapon has the band.
    pub fn of<T: Copy>(self, t: &ByBand<T>) -> Option<T> {
        match self {
            Band::Long => Some(t.long),
            Band::Medium => t.medium,
            Band::Short => Some(t.short),
        }
    }
}

/// The band a target `distance` away is in, or None beyond long range.
pub fn band(weapon: &Weapon, distance: f64) -> Option<Band> {
    if distance <= weapon.short {
        Some(Band::Short)
    } else if weapon.medium.is_some_and(|m| distance <= m) {
        Some(Band::Medium)
    } else if distance <= weapon.long {
        Some(Band::Long)
    } else {
        None
    }
}

/// Casualties of one volley of `men` (at most a full volley): the die less the band's deduction
/// and one more for every man short of six, never below none.
pub fn volley_casualties(die: u8, arm: Arm, band: Band, men: u8, rules: &DickensonRules) -> u32 {
    let v = &rules.volley;
    let deduction = band.of(&arm.weapon(rules).deduction).unwrap_or(die);
    let short = v
        .men
        .saturating_sub(men)
        .saturating_mul(v.short_man_deduction);
    u32::from(die.saturating_sub(deduction).saturating_sub(short))
}

/// Casualties (before saves) of `men` firing: as many full volleys of six as they make, and the
/// rest as one short volley. No casualties out of the weapon's bands.
pub fn fire<D: DiceSource>(
    dice: &mut D,
    arm: Arm,
    band: Band,
    men: u32,
    rules: &DickensonRules,
) -> u32 {
    let six = u32::from(rules.volley.men);
    let (full, rest) = (men / six, men % six);
    let mut casualties = 0;
    for _ in 0..full {
        casualties += volley_casualties(dice.d6(), arm, band, rules.volley.men, rules);
    }
    if rest > 0 {
        casualties += volley_casualties(dice.d6(), arm, band, rest as u8, rules);
    }
    casualties
}

/// The mean casualties (before saves) of `men` firing as `fire` fires them: each volley's
/// casualties averaged over its die's six faces.
pub fn expected(arm: Arm, band: Band, men: u32, rules: &DickensonRules) -> f64 {
    let six = u32::from(rules.volley.men);
    let mean = |m: u8| {
        (1..=6)
            .map(|d| f64::from(volley_casualties(d, arm, band, m, rules)))
            .sum::<f64>()
            / 6.0
    };
    let (full, rest) = (men / six, men % six);
    let last = if rest > 0 { mean(rest as u8) } else { 0.0 };
    f64::from(full) * mean(rules.volley.men) + last
}

/// Whether one man firing singly hits: the band's score or more, one added if his musket or
/// musketoon is rested on a wall or sill. Pistols cannot be rested.
pub fn single_shot_hits(
    die: u8,
    arm: Arm,
    band: Band,
    rested: bool,
    rules: &DickensonRules,
) -> bool {
    let Some(need) = band.of(&arm.weapon(rules).hit_on) else {
        return false;
    };
    let rest = if rested && arm != Arm::Pistol {
        rules.volley.rested
    } else {
        0
    };
    i16::from(die) + i16::from(rest) >= i16::from(need)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn bands_follow_the_range_table() {
        let r = DickensonRules::builtin();
        let m = Arm::Musket.weapon(&r);
        assert_eq!(band(m, 4.0), Some(Band::Short));
        assert_eq!(band(m, 4.5), Some(Band::Medium));
        assert_eq!(band(m, 8.0), Some(Band::Medium));
        assert_eq!(band(m, 12.0), Some(Band::Long));
        assert_eq!(band(m, 12.1), None);
        // Pistols have no medium range: 3" is long.
        let p = Arm::Pistol.weapon(&r);
        assert_eq!(band(p, 3.0), Some(Band::Long));
        assert_eq!(band(p, 2.0), Some(Band::Short));
        assert_eq!(band(p, 4.5), None);
        assert_eq!(band(Arm::Musketoon.weapon(&r), 10.5), None);
        assert_eq!(band(Arm::Musketoon.weapon(&r), 6.0), Some(Band::Medium));
    }

    #[test]
    fn volley_deductions_by_band() {
        let r = DickensonRules::builtin();
        // A full musket volley: 6 less 3 at long, 2 at medium, 1 at short.
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Long, 6, &r), 3);
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Medium, 6, &r), 4);
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Short, 6, &r), 5);
        // Pistols deduct 2 at short range; never below none.
        assert_eq!(volley_casualties(5, Arm::Pistol, Band::Short, 6, &r), 3);
        assert_eq!(volley_casualties(2, Arm::Musket, Band::Long, 6, &r), 0);
        // A pistol volley has no medium band.
        assert_eq!(volley_casualties(6, Arm::Pistol, Band::Medium, 6, &r), 0);
    }

    #[test]
    fn short_volleys_lose_one_a_man() {
        let r = DickensonRules::builtin();
        // Four men at short range: 6 - 1 - 2 = 3.
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Short, 4, &r), 3);
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Short, 5, &r), 4);
        // One man at long range can do nothing: 6 - 3 - 5 < 0.
        assert_eq!(volley_casualties(6, Arm::Musket, Band::Long, 1, &r), 0);
    }

    #[test]
    fn fourteen_men_fire_two_volleys_and_a_short_one() {
        let r = DickensonRules::builtin();
        // 6+6+2 men at medium: (5-2) + (4-2) + (6-2-4) = 3 + 2 + 0.
        let mut d = ScriptedDice::new(&[5, 4, 6]);
        assert_eq!(fire(&mut d, Arm::Musket, Band::Medium, 14, &r), 5);
        d.finish();
        // Exactly twelve: two dice, no short volley.
        let mut d = ScriptedDice::new(&[6, 6]);
        assert_eq!(fire(&mut d, Arm::Musket, Band::Short, 12, &r), 10);
    }

    #[test]
    fn expected_casualties_average_the_die() {
        let r = DickensonRules::builtin();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // 23 pistols at short range: three volleys of (0+0+1+2+3+4)/6 and five men at 1 more
        // off, (1+2+3)/6: 6 in all. A square's face of 5 muskets: (1+2+3+4)/6.
        assert!(close(expected(Arm::Pistol, Band::Short, 23, &r), 6.0));
        assert!(close(expected(Arm::Musket, Band::Short, 5, &r), 10.0 / 6.0));
        assert!(close(expected(Arm::Musket, Band::Short, 18, &r), 7.5));
        assert!(close(expected(Arm::Musket, Band::Long, 0, &r), 0.0));
    }

    #[test]
    fn single_shots_and_the_rest() {
        let r = DickensonRules::builtin();
        assert!(!single_shot_hits(5, Arm::Musket, Band::Long, false, &r));
        assert!(single_shot_hits(5, Arm::Musket, Band::Long, true, &r));
        assert!(single_shot_hits(4, Arm::Musketoon, Band::Short, false, &r));
        assert!(!single_shot_hits(4, Arm::Musket, Band::Medium, false, &r));
        // Pistols: 6 at long (4"), 5-6 at short; resting does not help them.
        assert!(!single_shot_hits(5, Arm::Pistol, Band::Long, true, &r));
        assert!(single_shot_hits(5, Arm::Pistol, Band::Short, false, &r));
    }
}

//! Shooting: ranges, the shooter's dice, the to-hit modifiers, hits on 4+ and disorder on a 6.

use super::morale::SaveSituation;
use super::tables::{BlackPowderRules, GunRanges};
use super::units::{Troop, armour, stats};
use crate::army::GunWeight;
use crate::dice::DiceSource;

/// A gun's range band, or out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeBand {
    Close,
    Medium,
    Long,
}

/// The band a gun shoots at over `d` inches, if any.
pub fn gun_band(d: f64, r: GunRanges) -> Option<RangeBand> {
    if d <= r.close {
        Some(RangeBand::Close)
    } else if d <= r.medium {
        Some(RangeBand::Medium)
    } else if d <= r.long {
        Some(RangeBand::Long)
    } else {
        None
    }
}

/// How far an element shoots.
pub fn max_range(t: Troop, rules: &BlackPowderRules) -> f64 {
    match t {
        Troop::Gun(w) => rules.ranges.gun(w).long,
        Troop::Horse(_) => rules.ranges.horse_pistol,
        // The seed's pike carry no firearms (shooting 0); given dice, they shoot as the shot.
        Troop::Pike if rules.units.pike.shooting == 0 => 0.0,
        Troop::Pike | Troop::Musket | Troop::Dragoon | Troop::Skirmisher => rules.ranges.matchlock,
    }
}

/// Shooting dice at `d` inches before enfilade: guns by band, the rest their stat; 0 when out
/// of range.
pub fn base_dice(t: Troop, d: f64, rules: &BlackPowderRules) -> u8 {
    if d > max_range(t, rules) {
        return 0;
    }
    match t {
        Troop::Gun(w) => match gun_band(d, rules.ranges.gun(w)) {
            Some(RangeBand::Close) => rules.units.artillery_dice.close,
            Some(RangeBand::Medium) => rules.units.artillery_dice.medium,
            Some(RangeBand::Long) => rules.units.artillery_dice.long,
            None => 0,
        },
        _ => stats(t, rules).shooting,
    }
}

/// Enfilading infantry or artillery roll double dice.
pub fn dice(base: u8, enfilade: bool, shooter: Troop, rules: &BlackPowderRules) -> u8 {
    let doubles = enfilade && (shooter.is_gun() || shooter.is_infantry());
    if doubles {
        base.saturating_mul(rules.shooting.enfilade_dice_factor)
    } else {
        base
    }
}

/// Everything the seed's to-hit modifiers ask about one volley.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Volley {
    pub artillery: bool,
    pub target_column_or_square: bool,
    /// Within 6".
    pub close_range: bool,
    pub closing_fire: bool,
    pub shooter_skirmishers: bool,
    pub shooter_shaken_or_disordered: bool,
    pub target_skirmishers: bool,
    pub target_deployed_artillery: bool,
    pub target_not_clear: bool,
    /// Artillery shooting beyond half its long range.
    pub over_half_range: bool,
    pub overhead: bool,
    pub target_behind_gabions: bool,
    /// The unit's first volley and it has First Fire.
    pub first_fire: bool,
}

/// One volley as the rules see it: who shoots at what over how far, and the state that
/// modifies it. The engine fills it from the battle; the exact tables from their situation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    pub shooter: Troop,
    pub target: Troop,
    pub gap: f64,
    pub target_hedgehog: bool,
    pub closing: bool,
    pub shooter_shaken_or_disordered: bool,
    /// Other enemy near the line of fire.
    pub target_not_clear: bool,
    /// Friends in the way (guns only shoot over them).
    pub overhead: bool,
    /// The shooter's first volley and it has First Fire.
    pub first_fire: bool,
}

impl Shot {
    /// A gun's range band at this gap (small arms: none).
    pub fn band(&self, rules: &BlackPowderRules) -> Option<RangeBand> {
        match self.shooter {
            Troop::Gun(w) => gun_band(self.gap, rules.ranges.gun(w)),
            _ => None,
        }
    }

    /// What the to-hit modifiers ask.
    pub fn volley(&self, rules: &BlackPowderRules) -> Volley {
        Volley {
            artillery: self.shooter.is_gun(),
            target_column_or_square: self.target == Troop::Pike || self.target_hedgehog,
            close_range: self.gap <= rules.shooting.close_range,
            closing_fire: self.closing,
            shooter_skirmishers: self.shooter == Troop::Skirmisher,
            shooter_shaken_or_disordered: self.shooter_shaken_or_disordered,
            target_skirmishers: self.target == Troop::Skirmisher,
            target_deployed_artillery: self.target.is_gun(),
            target_not_clear: self.target_not_clear,
            over_half_range: match self.shooter {
                Troop::Gun(w) => self.gap > rules.ranges.gun(w).long / 2.0,
                _ => false,
            },
            overhead: self.overhead,
            target_behind_gabions: self.target == Troop::Gun(GunWeight::Heavy)
                && rules.shooting.heavy_guns_gabions,
            first_fire: self.first_fire,
        }
    }

    /// What the save modifiers ask, in the open.
    pub fn save(&self, rules: &BlackPowderRules) -> SaveSituation {
        SaveSituation {
            infantry_column: self.target == Troop::Pike,
            artillery: self.band(rules),
            armour: armour(self.target, rules),
            ..SaveSituation::default()
        }
    }
}

/// The to-hit modifier of a volley (added to each die).
pub fn to_hit_modifier(v: &Volley, rules: &BlackPowderRules) -> i8 {
    let s = &rules.shooting;
    let terms = [
        (
            v.artillery && v.target_column_or_square,
            s.artillery_at_column_or_square,
        ),
        (v.close_range, s.close_range_modifier),
        (v.closing_fire, s.closing_fire),
        (v.shooter_skirmishers, s.skirmishers),
        (
            v.shooter_shaken_or_disordered,
            s.shooter_shaken_or_disordered,
        ),
        (v.target_skirmishers, s.target_skirmishers),
        (v.target_deployed_artillery, s.target_deployed_artillery),
        (v.target_not_clear, s.target_not_clear),
        (
            v.artillery && v.over_half_range,
            s.artillery_over_half_range,
        ),
        (v.overhead, s.overhead),
        (v.target_behind_gabions, s.laid_behind_gabions),
        (v.first_fire, s.first_fire),
    ];
    terms.iter().filter(|(on, _)| *on).map(|(_, m)| m).sum()
}

/// Whether one die hits: natural `always_hits` always, `always_misses` never, else die +
/// modifier reaching `hit_on`.
pub fn hits(die: u8, modifier: i8, hit_on: u8, rules: &BlackPowderRules) -> bool {
    let s = &rules.shooting;
    if die >= s.always_hits {
        return true;
    }
    if die <= s.always_misses {
        return false;
    }
    i16::from(die) + i16::from(modifier) >= i16::from(hit_on)
}

/// Hits of a roll and whether a natural 6 (a disorder) was among the dice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hits {
    pub hits: u8,
    pub disorder: bool,
}

/// Rolls `n` dice to hit on `hit_on` with `modifier`.
pub fn roll_hits<D: DiceSource>(
    dice: &mut D,
    n: u8,
    modifier: i8,
    hit_on: u8,
    rules: &BlackPowderRules,
) -> Hits {
    let mut h = Hits::default();
    for _ in 0..n {
        let d = dice.d6();
        h.hits += u8::from(hits(d, modifier, hit_on, rules));
        h.disorder |= d >= rules.shooting.disorder_on;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::GunWeight;
    use crate::dice::ScriptedDice;

    #[test]
    fn guns_roll_three_two_one_dice_by_band() {
        let r = BlackPowderRules::builtin();
        let g = Troop::Gun(GunWeight::Medium);
        assert_eq!(base_dice(g, 6.0, &r), 3);
        assert_eq!(base_dice(g, 12.0, &r), 2);
        assert_eq!(base_dice(g, 24.0, &r), 1);
        assert_eq!(base_dice(g, 24.5, &r), 0);
        assert_eq!(base_dice(Troop::Gun(GunWeight::Heavy), 30.0, &r), 1);
        assert_eq!(base_dice(Troop::Gun(GunWeight::Light), 21.0, &r), 0);
        assert_eq!(base_dice(Troop::Musket, 12.0, &r), 3);
        assert_eq!(base_dice(Troop::Musket, 12.5, &r), 0);
        assert_eq!(base_dice(Troop::Pike, 1.0, &r), 0);
        // Ruling: pike given shooting dice shoot at matchlock range, as the sleeves.
        let mut armed = r.clone();
        armed.units.pike.shooting = 1;
        assert_eq!(base_dice(Troop::Pike, 12.0, &armed), 1);
        assert_eq!(base_dice(Troop::Pike, 12.5, &armed), 0);
        assert_eq!(dice(3, true, Troop::Musket, &r), 6);
        assert_eq!(
            dice(1, true, Troop::Horse(crate::army::HorseKind::Trotters), &r),
            1
        );
    }

    #[test]
    fn modifiers_are_the_seeds() {
        let r = BlackPowderRules::builtin();
        let gun = Volley {
            artillery: true,
            target_column_or_square: true,
            over_half_range: true,
            overhead: true,
            ..Volley::default()
        };
        assert_eq!(to_hit_modifier(&gun, &r), -1);
        let musket = Volley {
            close_range: true,
            first_fire: true,
            shooter_shaken_or_disordered: true,
            target_skirmishers: true,
            target_not_clear: true,
            ..Volley::default()
        };
        assert_eq!(to_hit_modifier(&musket, &r), -1);
        // Column and half range count for artillery only.
        let foot = Volley {
            target_column_or_square: true,
            over_half_range: true,
            closing_fire: true,
            shooter_skirmishers: true,
            target_deployed_artillery: true,
            target_behind_gabions: true,
            ..Volley::default()
        };
        assert_eq!(to_hit_modifier(&foot, &r), 0);
    }

    #[test]
    fn fours_hit_sixes_always_and_disorder() {
        let r = BlackPowderRules::builtin();
        assert!(hits(4, 0, 4, &r) && !hits(3, 0, 4, &r));
        assert!(hits(3, 1, 4, &r) && !hits(4, -1, 4, &r));
        assert!(hits(6, -5, 4, &r) && !hits(1, 5, 4, &r));
        let mut d = ScriptedDice::new(&[6, 3, 4]);
        assert_eq!(
            roll_hits(&mut d, 3, 0, 4, &r),
            Hits {
                hits: 2,
                disorder: true
            }
        );
        let mut d = ScriptedDice::new(&[5, 3]);
        assert_eq!(
            roll_hits(&mut d, 2, 0, 4, &r),
            Hits {
                hits: 1,
                disorder: false
            }
        );
    }
}

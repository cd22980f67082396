//! Steps 8 and 10, fire: ranges, shots per turn, modifiers and the hit roll.

use crate::army::{FootBalance, Formation, GunWeight, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::rules::ironsides::dice_rules::{Rerolls, succeeds};
use crate::rules::ironsides::tables::{IronsidesRules, RangeBand};

/// The range band a unit fires with, or None if it cannot fire (limbered guns, horse fire only
/// pistols at 1").
pub fn range_band(rules: &IronsidesRules, u: &Unit) -> Option<RangeBand> {
    let r = &rules.fire.ranges;
    Some(match u.kind {
        UnitKind::Artillery(w) => {
            if u.formation != Formation::Unlimbered {
                return None;
            }
            match w {
                GunWeight::VeryLight => r.very_light,
                GunWeight::Light => r.light,
                GunWeight::Medium => r.medium,
                GunWeight::Heavy => r.heavy,
            }
        }
        UnitKind::ForlornHope => r.skirmishers,
        UnitKind::Dragoons if u.formation == Formation::Dismounted => r.skirmishers,
        UnitKind::Dragoons => r.pistols,
        UnitKind::Foot(_) => {
            if u.formation == Formation::MarchColumn {
                return None;
            }
            r.infantry
        }
        UnitKind::Horse(_) => r.pistols,
    })
}

/// The greatest distance at which a unit can fire (its long range, or short if none).
pub fn max_range(rules: &IronsidesRules, u: &Unit) -> f64 {
    range_band(rules, u)
        .map(|b| if b.long > 0.0 { b.long } else { b.short })
        .unwrap_or(0.0)
}

/// Shots a unit may fire in one whole turn (both halves and the reaction to a charge).
pub fn shots_per_turn(rules: &IronsidesRules, u: &Unit) -> u8 {
    let s = &rules.fire.shots_per_turn;
    match u.kind {
        UnitKind::Foot(_) => s.foot,
        UnitKind::ForlornHope => s.skirmishers,
        UnitKind::Dragoons => s.dragoons,
        UnitKind::Horse(_) => s.horse,
        UnitKind::Artillery(GunWeight::VeryLight) => s.very_light,
        UnitKind::Artillery(GunWeight::Light) => s.light,
        UnitKind::Artillery(GunWeight::Medium) => s.medium,
        UnitKind::Artillery(GunWeight::Heavy) => s.heavy,
    }
}

/// Whether the firer may still fire this turn.
pub fn has_shot(rules: &IronsidesRules, u: &Unit) -> bool {
    u.shots_fired < shots_per_turn(rules, u)
}

/// Effective CV for fire and close combat: current CV, less the disorder penalty, plus the
/// Captain-General's bonus when he has joined the command.
pub fn effective_cv(rules: &IronsidesRules, u: &Unit, cg_bonus: u8) -> i8 {
    let mut cv = i16::from(u.cv) + i16::from(cg_bonus);
    if u.disordered && !u.is_skirmisher() {
        cv -= i16::from(rules.close_combat.disorder_cv_penalty);
    }
    cv as i8
}

/// The die modifier for a shot at `range` inches; None if out of range.
/// `moving` marks horse firing pistols on the move (trotting) rather than standing.
pub fn fire_modifier(rules: &IronsidesRules, u: &Unit, range: f64, moving: bool) -> Option<i8> {
    let band = range_band(rules, u)?;
    let range_mod = if range <= band.short {
        band.short_mod
    } else if band.long > 0.0 && range <= band.long {
        band.long_mod
    } else {
        return None;
    };
    let f = &rules.fire;
    let mut m = range_mod;
    match u.kind {
        UnitKind::Horse(_) | UnitKind::Dragoons if u.formation != Formation::Dismounted => {
            m += if moving {
                f.horse_trotting_pistols
            } else {
                f.horse_standing_pistols
            };
        }
        UnitKind::Foot(b) => {
            m += match b {
                FootBalance::PikeHeavy => f.pike_heavy,
                FootBalance::ShotHeavy if rules.options.shot_heavy_fire_modifier_reversed => {
                    -f.shot_heavy
                }
                FootBalance::ShotHeavy => f.shot_heavy,
                FootBalance::Normal => 0,
            };
            if u.formation == Formation::Hedgehog {
                m += f.hedgehog;
            }
        }
        _ => {}
    }
    if !u.kind.is_gun() {
        m += f.size.get(u.size);
    }
    Some(m)
}

/// A resolved shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    pub roll: u8,
    pub modifier: i8,
    pub cv: i8,
    pub hit: bool,
}

/// Fires one shot: counts it against the firer's shots, rolls one D6 (re-rollable by a
/// commander within radius) and reports whether it hit. The caller applies the CV loss.
pub fn fire_shot<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    firer: &mut Unit,
    modifier: i8,
    cg_bonus: u8,
    rerolls: &mut Rerolls,
) -> Shot {
    firer.shots_fired += 1;
    let cv = effective_cv(rules, firer, cg_bonus);
    let mut roll = dice.d6();
    while !succeeds(rules, roll, modifier, cv) && rerolls.take() {
        roll = dice.d6();
    }
    Shot {
        roll,
        modifier,
        cv,
        hit: succeeds(rules, roll, modifier, cv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::Side;

    #[test]
    fn ranges_by_firer() {
        let r = IronsidesRules::builtin();
        let mut gun = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Artillery(GunWeight::Light),
            5,
        );
        assert_eq!(
            fire_modifier(&r, &gun, 8.0, false),
            None,
            "a limbered gun cannot fire"
        );
        gun.formation = Formation::Unlimbered;
        assert_eq!(fire_modifier(&r, &gun, 8.0, false), Some(3));
        assert_eq!(fire_modifier(&r, &gun, 4.0, false), Some(1));
        assert_eq!(fire_modifier(&r, &gun, 12.5, false), None);
        let foot = Unit::new(
            1,
            Side::Parliament,
            0,
            UnitKind::Foot(FootBalance::ShotHeavy),
            4,
        );
        assert_eq!(
            fire_modifier(&r, &foot, 2.0, false),
            Some(-1),
            "shot-heavy read as -1"
        );
        assert_eq!(
            fire_modifier(&r, &foot, 2.5, false),
            None,
            "volleys have no long range"
        );
    }
}

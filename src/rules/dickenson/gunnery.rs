//! The guns: ranges and effect dice, the fall of shot from a coloured and a white die through the
//! range table and the wind gauge, hit areas, powder by range, and gun on gun.

use super::events::Fall;
use super::tables::{ByCalibre, DickensonRules, Gun, HitArea};
use crate::dice::DiceSource;

/// Falcon, saker and culverin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Calibre {
    Falcon,
    Saker,
    Culverin,
}

impl Calibre {
    pub const ALL: [Calibre; 3] = [Calibre::Falcon, Calibre::Saker, Calibre::Culverin];

    pub fn name(self) -> &'static str {
        match self {
            Calibre::Falcon => "falcon",
            Calibre::Saker => "saker",
            Calibre::Culverin => "culverin",
        }
    }

    pub fn gun(self, rules: &DickensonRules) -> &Gun {
        let g = &rules.guns;
        match self {
            Calibre::Falcon => &g.falcon,
            Calibre::Saker => &g.saker,
            Calibre::Culverin => &g.culverin,
        }
    }

    fn of(self, t: &ByCalibre) -> i8 {
        match self {
            Calibre::Falcon => t.falcon,
            Calibre::Saker => t.saker,
            Calibre::Culverin => t.culverin,
        }
    }
}

/// Half dice of effect at `distance`: the effective-range dice within it, the maximum-range
/// dice out to the maximum, None beyond.
pub fn effect_half_dice(gun: &Gun, distance: f64) -> Option<u8> {
    if distance <= gun.effective_range {
        Some(gun.effect_half_dice.effective)
    } else if distance <= gun.maximum_range {
        Some(gun.effect_half_dice.maximum)
    } else {
        None
    }
}

/// The effect dice's total: a D6 for each whole die, and a D3 (ruling) for a half die.
pub fn effect<D: DiceSource>(dice: &mut D, half_dice: u8) -> u32 {
    let whole = dice.sum_d6(u32::from(half_dice / 2));
    let half = if half_dice % 2 == 1 {
        u32::from(dice.d6().div_ceil(2))
    } else {
        0
    };
    whole + half
}

/// The fewest portions of powder any shot takes, at whatever range (`powder`).
pub fn least_powder(rules: &DickensonRules) -> u8 {
    let a = &rules.ammunition;
    a.powder_short.min(a.powder_medium).min(a.powder_long)
}

/// Portions of powder a shot at `distance` takes (ruling: short range within the effective
/// range, medium up to `medium_range_factor` times it, long beyond).
pub fn powder(gun: &Gun, distance: f64, rules: &DickensonRules) -> u8 {
    let a = &rules.ammunition;
    if distance <= gun.effective_range {
        a.powder_short
    } else if distance <= gun.effective_range * a.medium_range_factor {
        a.powder_medium
    } else {
        a.powder_long
    }
}

/// Whether a gun that last fired `moves_since` moves ago may fire again (every move, every 2,
/// every 3), with a ball and the powder for the shot left.
pub fn can_fire(gun: &Gun, moves_since: u8, balls: u8, powder_left: u8, powder_needed: u8) -> bool {
    moves_since >= gun.fires_every && balls > 0 && powder_left >= powder_needed
}

/// The gunner's estimate of a true distance (ruling: rounded to the nearest `estimate_step`).
pub fn estimate(distance: f64, rules: &DickensonRules) -> f64 {
    let step = rules.fall_of_shot.estimate_step;
    if step > 0.0 {
        (distance / step).round() * step
    } else {
        distance
    }
}

/// The white die's range error for an estimated range: the band's row of the table (a band's
/// upper limit belongs to it), minus short, plus over.
pub fn range_error(white: u8, estimated: f64, rules: &DickensonRules) -> f64 {
    let f = &rules.fall_of_shot;
    let row = f
        .band_limits
        .iter()
        .position(|&limit| estimated <= limit)
        .unwrap_or(f.band_limits.len());
    f.errors[row][usize::from(white - 1)]
}

/// Where a shot lands, relative to the gun: `along` the line from gun to aiming point, and
/// `across` it (minus is left).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Landing {
    pub along: f64,
    pub across: f64,
}

/// Where a shot at a point `distance` away lands: the tape is laid from the muzzle through the
/// wind-gauge section the coloured die names, and the ball falls at the estimate plus the white
/// die's error along it, so the offset grows in proportion to the distance.
pub fn landing(coloured: u8, white: u8, distance: f64, rules: &DickensonRules) -> Landing {
    let g = &rules.fall_of_shot.wind_gauge;
    let est = estimate(distance, rules);
    let tape = (est + range_error(white, est, rules)).max(0.0);
    let offset = f64::from(g.by_die[usize::from(coloured - 1)]) * g.section;
    let norm = g.distance.hypot(offset);
    Landing {
        along: tape * g.distance / norm,
        across: tape * offset / norm,
    }
}

/// Where a shot laid on a target `distance` away fell against it: on target when the hit area
/// fell on it (`on_target`, from the table); otherwise wide when the ball landed farther to the
/// side than the area's half width and the target's `reach` (no range would have hit it), else
/// short or over along the line of fire.
pub fn fall(on_target: bool, landing: Landing, distance: f64, area: HitArea, reach: f64) -> Fall {
    if on_target {
        Fall::OnTarget
    } else if landing.across.abs() > area.width / 2.0 + reach {
        Fall::Wide
    } else if landing.along < distance {
        Fall::Short
    } else {
        Fall::Over
    }
}

/// Throws the coloured die, then the white one, and says where the shot lands.
pub fn fall_of_shot<D: DiceSource>(dice: &mut D, distance: f64, rules: &DickensonRules) -> Landing {
    let coloured = dice.d6();
    let white = dice.d6();
    landing(coloured, white, distance, rules)
}

/// A target on the line of fire: its centre `distance` away, `frontage` across and `depth` along.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    pub distance: f64,
    pub frontage: f64,
    pub depth: f64,
}

/// Whether the hit area, laid at the landing with its long side along the line of fire, falls on
/// the target (overlaps it; touching edges do not count).
pub fn falls_on(landing: Landing, area: HitArea, target: Target) -> bool {
    (landing.across.abs() < (target.frontage + area.width) / 2.0)
        && ((landing.along - target.distance).abs() < (target.depth + area.length) / 2.0)
}

/// What a hit does to a gun.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GunDamage {
    Destroyed,
    /// A wheel damaged: out of action for the repair.
    Wheel,
    /// This many gunners hit (each saved on the gunners' save).
    Gunners(u8),
}

/// The gun-on-gun die for a `firer` hitting a `target`, with the calibre modifier
/// (ruling: a modified score of 0 or less does nothing).
pub fn gun_on_gun(die: u8, firer: Calibre, target: Calibre, rules: &DickensonRules) -> GunDamage {
    let g = &rules.gun_on_gun;
    let row = match firer {
        Calibre::Falcon => &g.falcon,
        Calibre::Saker => &g.saker,
        Calibre::Culverin => &g.culverin,
    };
    let score = i16::from(die) + i16::from(target.of(row));
    if score >= i16::from(g.destroyed_on) {
        GunDamage::Destroyed
    } else if score >= i16::from(g.wheel_on) {
        GunDamage::Wheel
    } else {
        GunDamage::Gunners(score.max(0) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn effect_dice_by_range() {
        let r = DickensonRules::builtin();
        let saker = Calibre::Saker.gun(&r);
        assert_eq!(effect_half_dice(saker, 12.0), Some(4));
        assert_eq!(effect_half_dice(saker, 12.5), Some(2));
        assert_eq!(effect_half_dice(saker, 36.0), Some(2));
        assert_eq!(effect_half_dice(saker, 36.5), None);
        assert_eq!(effect_half_dice(Calibre::Falcon.gun(&r), 20.0), Some(1));
        // Half a die is a D3: a 5 counts 3; a culverin at effective range rolls three D6.
        let mut d = ScriptedDice::new(&[5]);
        assert_eq!(effect(&mut d, 1), 3);
        let mut d = ScriptedDice::new(&[6, 1, 4]);
        assert_eq!(effect(&mut d, 6), 11);
        let mut d = ScriptedDice::new(&[2, 2]);
        assert_eq!(effect(&mut d, 3), 3);
    }

    #[test]
    fn powder_by_range_and_rate_of_fire() {
        let r = DickensonRules::builtin();
        let c = Calibre::Culverin.gun(&r);
        assert_eq!(powder(c, 15.0, &r), 1);
        assert_eq!(powder(c, 30.0, &r), 2);
        assert_eq!(powder(c, 31.0, &r), 3);
        assert!(can_fire(c, 3, 1, 3, 3));
        assert!(!can_fire(c, 2, 1, 3, 3));
        assert!(!can_fire(c, 3, 0, 9, 1));
        assert!(!can_fire(c, 3, 1, 2, 3));
        assert!(can_fire(Calibre::Falcon.gun(&r), 1, 1, 1, 1));
    }

    #[test]
    fn the_white_die_falls_short_or_over_by_band() {
        let r = DickensonRules::builtin();
        assert_eq!(range_error(1, 9.0, &r), -2.0);
        assert_eq!(range_error(2, 10.0, &r), -1.0);
        assert_eq!(range_error(5, 15.0, &r), 2.0);
        assert_eq!(range_error(6, 25.0, &r), 6.0);
        assert_eq!(range_error(1, 31.0, &r), -8.0);
        assert_eq!(range_error(3, 31.0, &r), 0.0);
        assert_eq!(range_error(4, 5.0, &r), 0.0);
        assert_eq!(estimate(14.4, &r), 14.0);
        assert_eq!(estimate(14.6, &r), 15.0);
    }

    #[test]
    fn the_coloured_die_turns_the_tape_through_the_gauge() {
        let r = DickensonRules::builtin();
        // Centre sections: straight down the line, at the estimate plus the error.
        let l = landing(3, 6, 24.0, &r);
        assert_eq!(
            l,
            Landing {
                along: 30.0,
                across: 0.0
            }
        );
        // Die 1: the outer left section, 1" left at 4": at 20" along the tape, ~4.85" left.
        let l = landing(1, 4, 20.0, &r);
        let k = 20.0 / 17.0f64.sqrt();
        assert!(
            (l.across + k).abs() < 1e-12 && (l.along - 4.0 * k).abs() < 1e-12,
            "{l:?}"
        );
        // Die 5: half an inch right at 4", 2.5" right at 20" (nearly).
        let l = landing(5, 3, 20.0, &r);
        assert!(l.across > 2.4 && l.across < 2.5, "{l:?}");
        // The dice are thrown coloured first.
        let mut d = ScriptedDice::new(&[6, 1]);
        let l = fall_of_shot(&mut d, 8.0, &r);
        assert!(l.across > 0.0 && l.along < 6.0, "{l:?}");
    }

    #[test]
    fn hit_areas_fall_on_a_frontage() {
        let r = DickensonRules::builtin();
        let saker = Calibre::Saker.gun(&r).hit_area;
        let t = Target {
            distance: 20.0,
            frontage: 3.0,
            depth: 1.0,
        };
        assert!(falls_on(
            Landing {
                along: 20.0,
                across: 0.0
            },
            saker,
            t
        ));
        // 1.9" off the centre: the area's half inch still covers the end of a 3" frontage.
        assert!(falls_on(
            Landing {
                along: 20.0,
                across: 1.9
            },
            saker,
            t
        ));
        assert!(!falls_on(
            Landing {
                along: 20.0,
                across: 2.0
            },
            saker,
            t
        ));
        // Along the line: the 3" area reaches 2" either side of a 1" deep target.
        assert!(falls_on(
            Landing {
                along: 21.9,
                across: 0.0
            },
            saker,
            t
        ));
        assert!(!falls_on(
            Landing {
                along: 22.0,
                across: 0.0
            },
            saker,
            t
        ));
        // A falcon's smaller area misses where the saker's hits.
        let falcon = Calibre::Falcon.gun(&r).hit_area;
        assert!(!falls_on(
            Landing {
                along: 21.5,
                across: 0.0
            },
            falcon,
            t
        ));
    }

    #[test]
    fn gun_on_gun_with_calibre_modifiers() {
        let r = DickensonRules::builtin();
        use Calibre::*;
        assert_eq!(gun_on_gun(6, Saker, Saker, &r), GunDamage::Destroyed);
        assert_eq!(gun_on_gun(5, Saker, Saker, &r), GunDamage::Wheel);
        assert_eq!(gun_on_gun(3, Saker, Saker, &r), GunDamage::Gunners(3));
        // Culverin at falcon +2: a 4 destroys; falcon at culverin -2: a 6 is 4 gunners.
        assert_eq!(gun_on_gun(4, Culverin, Falcon, &r), GunDamage::Destroyed);
        assert_eq!(gun_on_gun(6, Falcon, Culverin, &r), GunDamage::Gunners(4));
        assert_eq!(gun_on_gun(1, Falcon, Culverin, &r), GunDamage::Gunners(0));
        assert_eq!(gun_on_gun(4, Saker, Falcon, &r), GunDamage::Wheel);
        assert_eq!(gun_on_gun(5, Saker, Culverin, &r), GunDamage::Gunners(4));
        assert_eq!(gun_on_gun(5, Culverin, Saker, &r), GunDamage::Destroyed);
        assert_eq!(gun_on_gun(5, Falcon, Saker, &r), GunDamage::Gunners(4));
    }
}

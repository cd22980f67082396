//! Command: 2D6 against the commander's rating after modifiers gives 50%, 100% or 150% of a
//! standard move; within 12" of the enemy units move on initiative, 100%, without a roll.

use super::tables::BlackPowderRules;

/// The share of a standard move an order gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Band {
    /// Roll above the rating: 50%.
    Over,
    /// Equal or one below: 100%.
    Equal,
    /// Two or more below: 150%.
    Under,
}

impl Band {
    pub const ALL: [Band; 3] = [Band::Over, Band::Equal, Band::Under];
    /// The share of a standard move.
    pub fn share(self, rules: &BlackPowderRules) -> f64 {
        let c = &rules.command;
        match self {
            Band::Over => c.over_move,
            Band::Equal => c.equal_move,
            Band::Under => c.under_move,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Band::Over => "50%",
            Band::Equal => "100%",
            Band::Under => "150%",
        }
    }
}

/// The band of a command roll against a modified rating.
pub fn band(roll: i16, rating: i16, rules: &BlackPowderRules) -> Band {
    if roll > rating {
        Band::Over
    } else if roll >= rating - i16::from(rules.command.equal_band) {
        Band::Equal
    } else {
        Band::Under
    }
}

/// What modifies an order to one unit.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct OrderSituation {
    /// Inches from the commander to the unit.
    pub commander_distance: f64,
    /// An enemy unit within 8" of the unit.
    pub enemy_near: bool,
    /// In column, or limbered artillery.
    pub column: bool,
    /// ... and on a road or track.
    pub on_road: bool,
    /// Reliable unit.
    pub reliable: bool,
    /// Marauders ignore the distance modifier.
    pub marauders: bool,
    /// The brigade's commander is lost and not yet replaced.
    pub commander_lost: bool,
}

/// The sum of the command modifiers for this order.
pub fn modifier(s: &OrderSituation, rules: &BlackPowderRules) -> i16 {
    let c = &rules.command;
    let mut m = 0i16;
    if !s.marauders && c.distance_step > 0.0 {
        let steps = (s.commander_distance / c.distance_step).floor().max(0.0) as i16;
        m += steps * i16::from(c.distance_modifier);
    }
    if s.enemy_near {
        m += i16::from(c.enemy_near_modifier);
    }
    if s.column {
        m += i16::from(if s.on_road {
            c.road_column_modifier
        } else {
            c.column_modifier
        });
    }
    if s.reliable {
        m += i16::from(rules.special.reliable_command);
    }
    if s.commander_lost {
        m += i16::from(c.commander_lost_modifier);
    }
    m
}

/// Whether a unit this far from the nearest enemy moves on initiative (no roll, 100%).
pub fn on_initiative(nearest_enemy: f64, rules: &BlackPowderRules) -> bool {
    nearest_enemy <= rules.command.initiative_range
}

/// Exact chances of each band for a modified rating, by enumerating every roll of the dice
/// through [`band`]: (ways, total) per band in [`Band::ALL`] order.
pub fn band_ways(rating: i16, rules: &BlackPowderRules) -> ([u64; 3], u64) {
    let n = u32::from(rules.command.dice);
    let total = 6u64.pow(n);
    let mut ways = [0u64; 3];
    for k in 0..total {
        let mut rest = k;
        let mut roll = 0i16;
        for _ in 0..n {
            roll += (rest % 6) as i16 + 1;
            rest /= 6;
        }
        let b = band(roll, rating, rules);
        ways[Band::ALL.iter().position(|x| *x == b).unwrap_or(0)] += 1;
    }
    (ways, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_over_equal_or_one_below_and_two_below() {
        let r = BlackPowderRules::builtin();
        assert_eq!(band(9, 8, &r), Band::Over);
        assert_eq!(band(8, 8, &r), Band::Equal);
        assert_eq!(band(7, 8, &r), Band::Equal);
        assert_eq!(band(6, 8, &r), Band::Under);
        assert_eq!(Band::Over.share(&r), 0.5);
        assert_eq!(Band::Under.share(&r), 1.5);
    }

    #[test]
    fn rating_eight_odds_are_the_seed_example() {
        let r = BlackPowderRules::builtin();
        let (ways, total) = band_ways(8, &r);
        assert_eq!(total, 36);
        // 27.8% / 30.6% / 41.7%
        assert_eq!(ways, [10, 11, 15]);
    }

    #[test]
    fn modifiers_add_up_and_marauders_ignore_distance() {
        let r = BlackPowderRules::builtin();
        let mut s = OrderSituation {
            commander_distance: 17.0,
            enemy_near: true,
            ..OrderSituation::default()
        };
        // Two full 8" steps and an enemy near.
        assert_eq!(modifier(&s, &r), -3);
        s.marauders = true;
        assert_eq!(modifier(&s, &r), -1);
        s.column = true;
        assert_eq!(modifier(&s, &r), 0);
        s.on_road = true;
        assert_eq!(modifier(&s, &r), 1);
        s.reliable = true;
        s.commander_lost = true;
        assert_eq!(modifier(&s, &r), 1);
        let near = OrderSituation {
            commander_distance: 7.9,
            ..OrderSituation::default()
        };
        assert_eq!(modifier(&near, &r), 0);
    }

    #[test]
    fn initiative_within_twelve_inches() {
        let r = BlackPowderRules::builtin();
        assert!(on_initiative(12.0, &r));
        assert!(!on_initiative(12.1, &r));
    }
}

//! Melee: each element's dice to hit on 4+ after the seed's modifiers, saves as in shooting,
//! the result (casualties plus result modifiers and supports), sweeping advances and Rash horse,
//! and the fate of a commander with a beaten unit.

use super::tables::BlackPowderRules;

/// What the seed's combat to-hit modifiers ask about one element in a round.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Round {
    pub charging: bool,
    pub won_last_round: bool,
    /// A pike block in its first round of a melee.
    pub pike_first_round: bool,
    pub shaken_or_disordered: bool,
    pub skirmishers: bool,
    pub engaged_flank_or_rear: bool,
}

/// The to-hit modifier of an element's melee dice.
pub fn to_hit_modifier(r: &Round, rules: &BlackPowderRules) -> i8 {
    let m = &rules.melee;
    let terms = [
        (r.charging, m.charging),
        (r.won_last_round, m.won_last_round),
        (r.pike_first_round, m.pike_first_round),
        (r.shaken_or_disordered, m.shaken_or_disordered),
        (r.skirmishers, m.skirmishers),
        (r.engaged_flank_or_rear, m.flank_or_rear),
    ];
    terms.iter().filter(|(on, _)| *on).map(|(_, v)| v).sum()
}

/// What the seed's combat result modifiers ask about one side of a melee.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Standing {
    pub exposed_flank: bool,
    pub exposed_rear: bool,
    pub pike_vs_cavalry: bool,
    pub occupying_buildings: bool,
    /// Supporting friends not engaged, within 6" behind or beside.
    pub supports: u8,
}

/// The result bonus added to a side's casualties caused.
pub fn result_modifier(s: &Standing, rules: &BlackPowderRules) -> i16 {
    let m = &rules.melee;
    let terms = [
        (s.exposed_flank, m.exposed_flank),
        (s.exposed_rear, m.exposed_rear),
        (s.pike_vs_cavalry, m.pike_vs_cavalry),
        (s.occupying_buildings, m.occupying_buildings),
    ];
    let support = (i16::from(s.supports) * i16::from(m.support_each)).min(i16::from(m.support_max));
    terms
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, v)| i16::from(*v))
        .sum::<i16>()
        + support
}

/// A melee's outcome seen from side A: A won by a margin, B won, or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    AWins(u8),
    BWins(u8),
    Draw,
}

/// Higher score wins; equal scores draw.
pub fn outcome(a: i16, b: i16) -> Outcome {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::AWins((a - b).min(255) as u8),
        std::cmp::Ordering::Less => Outcome::BWins((b - a).min(255) as u8),
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

/// Rash: a winning unit goes on a sweeping advance unless this D6 rolls 5 or 6.
pub fn rash_halts(die: u8, rules: &BlackPowderRules) -> bool {
    die >= rules.special.rash_halt_on
}

/// A melee's winner, as its sweeping advance asks about it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Victor {
    pub horse: bool,
    pub shaken: bool,
    pub rash: bool,
}

/// Whether a melee's winner goes on a sweeping advance: horse only (ruling), and never shaken
/// (a sweep charges, and shaken regiments do not); Rash horse unless `die`, thrown for them
/// alone, halts them; other horse when its doctrine sweeps (`battle::doctrine::sweeps`). The
/// engine and the exact tables both ask here.
pub fn sweeps(
    v: Victor,
    doctrine_sweeps: bool,
    die: impl FnOnce() -> u8,
    rules: &BlackPowderRules,
) -> bool {
    if !v.horse || v.shaken {
        false
    } else if v.rash {
        !rash_halts(die(), rules)
    } else {
        doctrine_sweeps
    }
}

/// A joined commander whose unit breaks or loses a melee is lost on this D6.
pub fn commander_lost(die: u8, rules: &BlackPowderRules) -> bool {
    die <= rules.melee.commander_lost_on
}

/// Where an attacker strikes a target, by the attacker's bearing from the target's front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

/// The aspect of an attack coming from `bearing_degrees` off the target's facing (0 = dead ahead).
pub fn aspect(bearing_degrees: f64, rules: &BlackPowderRules) -> Aspect {
    let b = bearing_degrees.abs();
    if b <= rules.melee.flank_degrees {
        Aspect::Front
    } else if b < rules.melee.rear_degrees {
        Aspect::Flank
    } else {
        Aspect::Rear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_hit_modifiers_are_the_seeds() {
        let r = BlackPowderRules::builtin();
        let charge = Round {
            charging: true,
            pike_first_round: true,
            won_last_round: true,
            ..Round::default()
        };
        assert_eq!(to_hit_modifier(&charge, &r), 3);
        let poor = Round {
            shaken_or_disordered: true,
            skirmishers: true,
            engaged_flank_or_rear: true,
            ..Round::default()
        };
        assert_eq!(to_hit_modifier(&poor, &r), -3);
    }

    #[test]
    fn result_modifiers_and_supports() {
        let r = BlackPowderRules::builtin();
        let pike = Standing {
            pike_vs_cavalry: true,
            supports: 3,
            ..Standing::default()
        };
        assert_eq!(result_modifier(&pike, &r), 5);
        let exposed = Standing {
            exposed_flank: true,
            exposed_rear: true,
            occupying_buildings: true,
            supports: 1,
            ..Standing::default()
        };
        assert_eq!(result_modifier(&exposed, &r), 0);
        assert_eq!(outcome(4, 2), Outcome::AWins(2));
        assert_eq!(outcome(1, 3), Outcome::BWins(2));
        assert_eq!(outcome(2, 2), Outcome::Draw);
    }

    #[test]
    fn rash_commanders_and_aspects() {
        let r = BlackPowderRules::builtin();
        assert!(!rash_halts(4, &r) && rash_halts(5, &r) && rash_halts(6, &r));
        // Only Rash horse throw the die; the doctrine answers for other horse.
        let horse = Victor {
            horse: true,
            ..Victor::default()
        };
        let rash = Victor {
            rash: true,
            ..horse
        };
        let no_die = || -> u8 { panic!("no die for this winner") };
        assert!(sweeps(horse, true, no_die, &r) && !sweeps(horse, false, no_die, &r));
        assert!(sweeps(rash, false, || 4, &r) && !sweeps(rash, true, || 5, &r));
        for v in [
            Victor::default(),
            Victor {
                shaken: true,
                ..rash
            },
        ] {
            assert!(!sweeps(v, true, no_die, &r));
        }
        assert!(commander_lost(1, &r) && !commander_lost(2, &r));
        assert_eq!(aspect(30.0, &r), Aspect::Front);
        assert_eq!(aspect(-90.0, &r), Aspect::Flank);
        assert_eq!(aspect(170.0, &r), Aspect::Rear);
    }
}

//! Risk to generals: attached generals hit when their unit loses CV, unattached ones contacted or
//! overrun, the casualty tables (horse and rider, or the easy rule), capture and replacements.

use crate::dice::DiceSource;
use crate::events::GeneralResult;
use crate::rules::ironsides::tables::{CasualtyTable, IronsidesRules};

/// An attached general is hit on a D6 no higher than the CV his unit just lost.
/// Returns (roll, hit).
pub fn attached_general_hit<D: DiceSource>(dice: &mut D, cv_lost: u8) -> (u8, bool) {
    let d = dice.d6();
    (d, d <= cv_lost)
}

/// An unattached general contacted or overrun: hit on 1 by foot, 1-2 by horse.
pub fn overrun_hit<D: DiceSource>(rules: &IronsidesRules, dice: &mut D, by_horse: bool) -> bool {
    let need = if by_horse {
        rules.risk.unattached_horse_contact
    } else {
        rules.risk.unattached_foot_contact
    };
    dice.d6() <= need
}

/// What the casualty does to the general and his men.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Casualty {
    pub result: GeneralResult,
    /// The general is out of the battle (dead, dying, carried off, or the easy rule).
    pub lost: bool,
    /// Every unit of his command loses this much CV (horrible death).
    pub command_cv_loss: u8,
    /// His unit loses (mortal wound) or gains (saved) CV.
    pub unit_cv_change: i8,
    /// Skill and morale adjustments (hurt: -1 each; the bleeding horse: +1 morale).
    pub skill_change: i8,
    pub morale_change: i8,
    /// Turns out of action (the stampede).
    pub out_of_action: u8,
    /// Wounded or unhorsed: 50% chance of capture.
    pub capture_risk: bool,
}

impl Casualty {
    fn of(result: GeneralResult) -> Casualty {
        Casualty {
            result,
            lost: false,
            command_cv_loss: 0,
            unit_cv_change: 0,
            skill_change: 0,
            morale_change: 0,
            out_of_action: 0,
            capture_risk: false,
        }
    }
}

/// Rolls on the casualty tables. Horse and rider: 2D6 (first the horse, then the rider), the
/// higher is hit; a tie is rolled again (a ruling: the text does not say). The rider table and
/// the horse table are each a D6.
pub fn casualty<D: DiceSource>(rules: &IronsidesRules, dice: &mut D) -> Casualty {
    if rules.options.casualty_table == CasualtyTable::Easy {
        return Casualty {
            lost: true,
            ..Casualty::of(GeneralResult::Lost)
        };
    }
    let rider_hit = loop {
        let horse = dice.d6();
        let rider = dice.d6();
        if horse != rider {
            break rider > horse;
        }
    };
    let d = dice.d6();
    if rider_hit {
        rider_result(d)
    } else {
        horse_result(d)
    }
}

/// What each casualty-table result does to the statistics (out of the battle, turns out of
/// action), read off the rider and horse tables; the easy rule's `lost` takes him out.
pub fn commander_effects() -> crate::stats::CommanderEffects {
    let mut fx = crate::stats::CommanderEffects::default();
    for d in 1..=6 {
        for c in [rider_result(d), horse_result(d)] {
            fx.0[crate::stats::general_result_index(c.result)] = (c.lost, c.out_of_action);
        }
    }
    fx
}

/// The rider table.
pub fn rider_result(d: u8) -> Casualty {
    match d {
        1 => Casualty {
            lost: true,
            command_cv_loss: 1,
            ..Casualty::of(GeneralResult::HorribleDeath)
        },
        2 => Casualty {
            lost: true,
            unit_cv_change: -1,
            ..Casualty::of(GeneralResult::MortalWound)
        },
        3 => Casualty {
            lost: true,
            capture_risk: true,
            ..Casualty::of(GeneralResult::GravelyWounded)
        },
        4 => hurt(GeneralResult::Hurt),
        5 => Casualty::of(GeneralResult::Unhurt),
        _ => Casualty {
            unit_cv_change: 1,
            ..Casualty::of(GeneralResult::Saved)
        },
    }
}

fn hurt(result: GeneralResult) -> Casualty {
    Casualty {
        skill_change: -1,
        morale_change: -1,
        capture_risk: true,
        ..Casualty::of(result)
    }
}

/// The horse table.
pub fn horse_result(d: u8) -> Casualty {
    match d {
        1 => hurt(GeneralResult::HorseFalls),
        2 => Casualty {
            out_of_action: 1,
            capture_risk: false,
            ..Casualty::of(GeneralResult::HorseStampedes)
        },
        3..=5 => Casualty {
            capture_risk: true,
            ..Casualty::of(GeneralResult::HorseDies)
        },
        _ => Casualty {
            morale_change: 1,
            ..Casualty::of(GeneralResult::HorseBleeds)
        },
    }
}

/// Wounded or unhorsed: a D6 of 1-3 (the 50% of the ruleset) and he is taken.
pub fn captured<D: DiceSource>(rules: &IronsidesRules, dice: &mut D) -> bool {
    let need = (rules.risk.capture_chance_wounded_or_unhorsed * 6.0).round() as u8;
    dice.d6() <= need
}

/// Inches a general still has to ride after attaching or detaching `changes` times (E1: 36",
/// or 24" once he attaches).
pub fn general_move_left(rules: &IronsidesRules, attaches: u8, detaches: u8) -> f64 {
    let g = &rules.generals;
    (g.move_distance - f64::from(attaches) * g.attach_cost - f64::from(detaches) * g.detach_cost)
        .max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn horse_and_rider_tie_rolls_again() {
        let r = IronsidesRules::builtin();
        let mut d = ScriptedDice::new(&[3, 3, 2, 5, 1]);
        let c = casualty(&r, &mut d);
        assert_eq!(c.result, GeneralResult::HorribleDeath);
        assert_eq!(c.command_cv_loss, 1);
        d.finish();
        let mut d = ScriptedDice::new(&[5, 2, 6]);
        assert_eq!(casualty(&r, &mut d).result, GeneralResult::HorseBleeds);
        d.finish();
    }

    #[test]
    fn attached_risk_is_cv_lost_in_six() {
        let mut d = ScriptedDice::new(&[2, 3]);
        assert_eq!(attached_general_hit(&mut d, 2), (2, true));
        assert_eq!(attached_general_hit(&mut d, 2), (3, false));
        d.finish();
    }
}

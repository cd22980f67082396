//! Steps 12-14, charges: the stand-off the target chooses, the charger's reaction to close,
//! the target's reaction and emergency responses, support and opportunity charges.

use crate::army::{Formation, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::events::{ReactionResult, Response};
use crate::rules::ironsides::dice_rules::{Rerolls, roll_successes};
use crate::rules::ironsides::tables::IronsidesRules;

/// The stand-off a target chooses, clamped to the rules' 2"-6".
pub fn standoff(rules: &IronsidesRules, chosen: f64) -> f64 {
    chosen.clamp(rules.charge.standoff_min, rules.charge.standoff_max)
}

/// A charger must pass both reaction dice to make contact.
pub fn charge_goes_in(result: ReactionResult) -> bool {
    result == ReactionResult::PassBoth
}

/// Emergency-response dice for a charge target: one per reaction die it passed (with re-rolls).
/// Units making a support or opportunity charge skip the reaction test and roll a fixed number.
pub fn response_dice(rules: &IronsidesRules, reaction_passed: Option<u8>) -> u8 {
    match reaction_passed {
        Some(p) => p,
        None => rules.charge.support_charge_er_dice,
    }
}

/// Rolls emergency-response dice against CV; each success buys one response.
pub fn roll_responses<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    n: u8,
    cv: i8,
    rerolls: &mut Rerolls,
) -> u8 {
    roll_successes(rules, dice, n, 0, cv, rerolls)
}

/// Which responses a unit may make at all.
pub fn response_allowed(u: &Unit, r: Response) -> bool {
    match r {
        Response::ChangeFacing => !u.kind.is_gun() || u.formation == Formation::Limbered,
        Response::ChangeFormation => u.kind.is_foot() || u.kind == UnitKind::Dragoons,
        Response::FormUp => u.disordered,
        Response::Fire => true,
        Response::Limber => false, // the drivers have gone home once a gun is sited
        Response::Evade => u.is_skirmisher() || u.kind.is_gun(),
        Response::Countercharge => u.is_cavalry(),
    }
}

/// Buys responses in the doctrine's order of preference with the successes rolled, each
/// response costing one success; returns how many were bought (their prefix of `wanted`).
/// Goring's support regiment (E15) wants [ChangeFacing, Countercharge] and has one success:
/// it only refaces.
pub fn buy_responses(u: &Unit, wanted: &[Response], successes: u8) -> usize {
    wanted
        .iter()
        .take_while(|r| response_allowed(u, **r))
        .take(usize::from(successes))
        .count()
}

/// Distance a cavalry unit may countercharge or support-charge: 2" x CV.
pub fn countercharge_reach(rules: &IronsidesRules, u: &Unit) -> f64 {
    rules.charge.countercharge_per_cv * f64::from(u.cv)
}

/// How far horse reaches in a support or opportunity charge: "moving their CV x 2"".
pub fn support_charge_reach(rules: &IronsidesRules, u: &Unit) -> f64 {
    rules.charge.support_charge_per_cv * f64::from(u.cv)
}

/// Evade distance: 2D6" for skirmishers and running gunners, 1D6" for limbered medium guns.
pub fn evade_distance<D: DiceSource>(rules: &IronsidesRules, dice: &mut D, u: &Unit) -> f64 {
    let n = match u.kind {
        UnitKind::Artillery(crate::army::GunWeight::Medium)
            if u.formation == Formation::Limbered =>
        {
            rules.charge.evade_limbered_medium_dice
        }
        UnitKind::Artillery(_) => rules.charge.evade_gunners_dice,
        _ => rules.charge.evade_skirmisher_dice,
    };
    f64::from(dice.sum_d6(u32::from(n)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::{HorseKind, Side};

    #[test]
    fn responses_are_bought_in_order() {
        let u = Unit::new(
            0,
            Side::Royalist,
            0,
            UnitKind::Horse(HorseKind::Gallopers),
            6,
        );
        assert_eq!(
            buy_responses(&u, &[Response::ChangeFacing, Response::Countercharge], 1),
            1
        );
        assert_eq!(
            buy_responses(&u, &[Response::Countercharge, Response::Fire], 2),
            2
        );
        assert_eq!(
            buy_responses(&u, &[Response::Evade], 2),
            0,
            "horse cannot evade"
        );
    }
}

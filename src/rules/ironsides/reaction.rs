//! Reaction tests (steps 9, 11, 13 and after melee): 2D6, each die on its own against CV.

use crate::dice::DiceSource;
use crate::events::ReactionResult;
use crate::rules::ironsides::dice_rules::{Rerolls, succeeds};
use crate::rules::ironsides::tables::IronsidesRules;

/// A finished reaction test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionTest {
    /// The dice as they finally stand (after any re-rolls).
    pub dice: [u8; 2],
    pub passed: u8,
    pub result: ReactionResult,
    pub rerolls_used: u8,
}

/// Takes a reaction test. `modifier` is added to each die (an attached general's -2);
/// `rerolls` are the commander's re-rolls the doctrine is willing to spend on this test.
/// A pair of natural sixes routs, unless re-rolls turn one of them into a pass.
pub fn reaction_test<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    cv: u8,
    modifier: i8,
    rerolls: &mut Rerolls,
) -> ReactionTest {
    let cv = cv as i8;
    let mut ds = [dice.d6(), dice.d6()];
    let start_used = rerolls.used;
    // Re-roll failed dice one at a time: each re-roll spends one RR on one die, and a die that
    // fails again may be re-rolled again while RRs remain (Goring spends two RRs on one unit).
    for d in ds.iter_mut() {
        while !succeeds(rules, *d, modifier, cv) && rerolls.take() {
            *d = dice.d6();
        }
    }
    let passed = ds
        .iter()
        .filter(|&&d| succeeds(rules, d, modifier, cv))
        .count() as u8;
    let double = rules.reaction.rout_on_double;
    let result = match passed {
        2 => ReactionResult::PassBoth,
        1 => ReactionResult::PassOne,
        _ if ds[0] == double && ds[1] == double => ReactionResult::Rout,
        _ => ReactionResult::FailBoth,
    };
    ReactionTest {
        dice: ds,
        passed,
        result,
        rerolls_used: rerolls.used - start_used,
    }
}

/// The re-rolls an attached general brings to a reaction test: his own, or one free re-roll
/// when he has none ("really bad generals get a free one").
pub fn attached_rerolls(rules: &IronsidesRules, general_rerolls_left: u8) -> (u8, bool) {
    if general_rerolls_left == 0 {
        (rules.reaction.free_reroll_for_no_rr_general, true)
    } else {
        (general_rerolls_left, false)
    }
}

/// Whether a unit that has just lost CV to fire must test reaction: always, unless the optional
/// quick-game rule (`options.no_reaction_from_fire_at_cv`, 0 = off) excuses units whose current
/// CV is at least that much.
pub fn must_test_after_fire(rules: &IronsidesRules, cv_now: u8) -> bool {
    let t = rules.options.no_reaction_from_fire_at_cv;
    t == 0 || cv_now < t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    fn run(cv: u8, m: i8, rr: u8, script: &[u8]) -> ReactionTest {
        let r = IronsidesRules::builtin();
        let mut d = ScriptedDice::new(script);
        let mut rerolls = Rerolls::new(rr);
        let t = reaction_test(&r, &mut d, cv, m, &mut rerolls);
        d.finish();
        t
    }

    #[test]
    fn outcomes_by_dice() {
        assert_eq!(run(4, 0, 0, &[3, 4]).result, ReactionResult::PassBoth);
        assert_eq!(run(4, 0, 0, &[3, 5]).result, ReactionResult::PassOne);
        assert_eq!(run(4, 0, 0, &[5, 5]).result, ReactionResult::FailBoth);
        assert_eq!(
            run(7, -2, 0, &[6, 6]).result,
            ReactionResult::Rout,
            "sixes always fail"
        );
        assert_eq!(
            run(2, 0, 0, &[1, 6]).result,
            ReactionResult::PassOne,
            "ones always pass"
        );
    }

    #[test]
    fn attached_general_takes_two_off_each_die() {
        assert_eq!(run(3, -2, 0, &[5, 4]).result, ReactionResult::PassBoth);
    }

    #[test]
    fn fire_reaction_option() {
        let mut r = IronsidesRules::builtin();
        assert!(
            must_test_after_fire(&r, 6),
            "off by default: every unit hit tests"
        );
        r.options.no_reaction_from_fire_at_cv = 4;
        assert!(!must_test_after_fire(&r, 4));
        assert!(must_test_after_fire(&r, 3));
    }
}

//! The hit rule that fire, melee, rally and reaction share, and re-roll bookkeeping.

use crate::dice::DiceSource;
use crate::rules::ironsides::tables::IronsidesRules;

/// A die hits (or passes) when `die + modifier <= cv`; a natural 1 always succeeds and a
/// natural 6 always fails, whatever the modifiers.
#[inline]
pub fn succeeds(rules: &IronsidesRules, die: u8, modifier: i8, cv: i8) -> bool {
    if die <= rules.limits.die_always_hits {
        return true;
    }
    if die >= rules.limits.die_always_misses {
        return false;
    }
    i16::from(die) + i16::from(modifier) <= i16::from(cv)
}

/// Re-rolls a commander can spend on one test: each re-rolls one failed die.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rerolls {
    pub available: u8,
    pub used: u8,
}

impl Rerolls {
    pub fn new(available: u8) -> Rerolls {
        Rerolls { available, used: 0 }
    }
    pub fn none() -> Rerolls {
        Rerolls::default()
    }
    /// Takes one re-roll if any is left.
    pub fn take(&mut self) -> bool {
        if self.used < self.available {
            self.used += 1;
            true
        } else {
            false
        }
    }
}

/// Rolls `n` dice against `cv` with `modifier` and counts the successes; each failed die may be
/// re-rolled once per re-roll available (one die per re-roll, never the same die twice).
pub fn roll_successes<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    n: u8,
    modifier: i8,
    cv: i8,
    rerolls: &mut Rerolls,
) -> u8 {
    let mut hits = 0;
    for _ in 0..n {
        let d = dice.d6();
        if succeeds(rules, d, modifier, cv)
            || (rerolls.take() && succeeds(rules, dice.d6(), modifier, cv))
        {
            hits += 1;
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn natural_one_and_six() {
        let r = IronsidesRules::builtin();
        assert!(succeeds(&r, 1, 4, 2), "a 1 always hits");
        assert!(!succeeds(&r, 6, -5, 7), "a 6 always misses");
        assert!(succeeds(&r, 4, 0, 4));
        assert!(!succeeds(&r, 5, 0, 4));
        assert!(succeeds(&r, 1, 3, 4));
        assert!(!succeeds(&r, 2, 3, 4));
    }

    #[test]
    fn rerolls_apply_to_failed_dice_only() {
        let r = IronsidesRules::builtin();
        let mut d = ScriptedDice::new(&[2, 6, 3]);
        let mut rr = Rerolls::new(1);
        assert_eq!(roll_successes(&r, &mut d, 2, 0, 5, &mut rr), 2);
        assert_eq!(rr.used, 1);
        d.finish();
    }
}

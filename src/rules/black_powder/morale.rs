//! Morale: saves on the morale value, casualties against stamina, shaken units, break tests,
//! hedgehogs, the rallying special rules, and brigade and army break.

use super::shooting::RangeBand;
use super::tables::BlackPowderRules;
use crate::dice::DiceSource;

/// What the seed's save modifiers ask about the hits on one target.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SaveSituation {
    /// Infantry in column (the bonus does not count against artillery).
    pub infantry_column: bool,
    /// Hit by artillery at this band.
    pub artillery: Option<RangeBand>,
    pub light_cover: bool,
    pub heavy_cover: bool,
    /// Pikes in melee with mounted troops.
    pub pike_vs_mounted: bool,
    /// A charging Lance unit: against cavalry or against infantry.
    pub lance_vs_cavalry: bool,
    pub lance_vs_infantry: bool,
    /// The target's own save bonus (cuirassiers' armour).
    pub armour: i8,
}

/// The save modifier (added to each save die).
pub fn save_modifier(s: &SaveSituation, rules: &BlackPowderRules) -> i8 {
    let v = &rules.saves;
    let terms = [
        (
            s.infantry_column && s.artillery.is_none(),
            v.column_not_artillery,
        ),
        (s.light_cover, v.light_cover),
        (s.heavy_cover, v.heavy_cover),
        (s.artillery == Some(RangeBand::Long), v.artillery_long),
        (
            matches!(s.artillery, Some(RangeBand::Medium | RangeBand::Close)),
            v.artillery_medium_or_close,
        ),
        (s.pike_vs_mounted, v.pike_vs_mounted),
        (s.lance_vs_cavalry, v.lance_vs_cavalry),
        (s.lance_vs_infantry, v.lance_vs_infantry),
    ];
    terms
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, m)| m)
        .sum::<i8>()
        + s.armour
}

/// Whether one save die saves against morale value `morale` (a natural `always_fails` never does).
pub fn saves(die: u8, morale: u8, modifier: i8, rules: &BlackPowderRules) -> bool {
    die > rules.saves.always_fails && i16::from(die) + i16::from(modifier) >= i16::from(morale)
}

/// Rolls a save for each hit; returns the casualties (the hits not saved).
pub fn roll_saves<D: DiceSource>(
    dice: &mut D,
    hits: u8,
    morale: u8,
    modifier: i8,
    rules: &BlackPowderRules,
) -> u8 {
    (0..hits)
        .filter(|_| !saves(dice.d6(), morale, modifier, rules))
        .count() as u8
}

/// A unit is shaken once its casualties reach its stamina.
pub fn shaken(casualties: u8, stamina: u8) -> bool {
    casualties >= stamina
}

/// Casualties beyond stamina, which count against the break test.
pub fn excess(casualties: u8, stamina: u8) -> u8 {
    casualties.saturating_sub(stamina)
}

/// A break test's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BreakResult {
    /// Removed from the battle.
    Broken,
    /// Retires a full move, disordered.
    Retire,
    /// Holds (a melee loser gives ground half a move).
    Hold,
}

impl BreakResult {
    pub const ALL: [BreakResult; 3] = [BreakResult::Broken, BreakResult::Retire, BreakResult::Hold];
    pub fn name(self) -> &'static str {
        match self {
            BreakResult::Broken => "broken",
            BreakResult::Retire => "retire",
            BreakResult::Hold => "hold",
        }
    }
}

/// The result of a break-test roll: the dice, minus casualties beyond stamina, minus the margin
/// a melee was lost by.
pub fn break_result(roll: u8, excess: u8, lost_by: u8, rules: &BlackPowderRules) -> BreakResult {
    let score = i16::from(roll) - i16::from(excess) - i16::from(lost_by);
    let b = &rules.break_test;
    if score <= b.break_at_most {
        BreakResult::Broken
    } else if score <= b.retire_at_most {
        BreakResult::Retire
    } else {
        BreakResult::Hold
    }
}

/// Exact chances of each break result for a total penalty (excess casualties plus the margin
/// lost by): ways per result in [`BreakResult::ALL`] order, and the total.
pub fn break_ways(penalty: u8, rules: &BlackPowderRules) -> ([u64; 3], u64) {
    let n = u32::from(rules.break_test.dice);
    let total = 6u64.pow(n);
    let mut ways = [0u64; 3];
    for k in 0..total {
        let mut rest = k;
        let mut roll = 0u8;
        for _ in 0..n {
            roll += (rest % 6) as u8 + 1;
            rest /= 6;
        }
        let r = break_result(roll, penalty, 0, rules);
        ways[BreakResult::ALL.iter().position(|x| *x == r).unwrap_or(0)] += 1;
    }
    (ways, total)
}

/// Steady: its first `steady_free_tests` break tests pass without a roll.
pub fn steady_passes(tests_taken: u8, rules: &BlackPowderRules) -> bool {
    tests_taken < rules.special.steady_free_tests
}

/// Infantry must form hedgehog when cavalry come this close.
pub fn hedgehog_forced(horse_distance: f64, rules: &BlackPowderRules) -> bool {
    horse_distance <= rules.hedgehog.horse_range
}

/// Whether infantry forms hedgehog: in good order always; disordered on a D6 of 1-3 (4+: the
/// cavalry catch them first). `die` is rolled only for disordered infantry.
pub fn hedgehog_formed(disordered: bool, die: Option<u8>, rules: &BlackPowderRules) -> bool {
    !disordered || die.is_some_and(|d| d <= rules.hedgehog.disordered_formed_at_most)
}

/// Elite: a disordered unit loses its disorder on this D6 at the start of its command.
pub fn elite_clears_disorder(die: u8, rules: &BlackPowderRules) -> bool {
    die >= rules.special.elite_rally_on
}

/// Brave: a shaken unit more than 12" from the enemy rallies on this D6.
pub fn brave_rallies(die: u8, nearest_enemy: f64, rules: &BlackPowderRules) -> bool {
    nearest_enemy > rules.special.brave_enemy_range && die >= rules.special.brave_rally_on
}

/// A brigade is broken when at least this share of its units are broken, shaken or gone.
pub fn brigade_broken(units: u32, out: u32, rules: &BlackPowderRules) -> bool {
    units > 0 && f64::from(out) >= rules.army.brigade_broken_share * f64::from(units)
}

/// An army breaks when at least this share of its brigades are broken.
pub fn army_broken(brigades: u32, broken: u32, rules: &BlackPowderRules) -> bool {
    brigades > 0 && f64::from(broken) >= rules.army.army_broken_share * f64::from(brigades)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    fn r() -> BlackPowderRules {
        BlackPowderRules::builtin()
    }

    #[test]
    fn save_modifiers_are_the_seeds() {
        let r = r();
        let col = SaveSituation {
            infantry_column: true,
            ..SaveSituation::default()
        };
        assert_eq!(save_modifier(&col, &r), 1);
        let col_gun = SaveSituation {
            artillery: Some(RangeBand::Medium),
            ..col
        };
        assert_eq!(save_modifier(&col_gun, &r), -2);
        let long = SaveSituation {
            artillery: Some(RangeBand::Long),
            light_cover: true,
            ..SaveSituation::default()
        };
        assert_eq!(save_modifier(&long, &r), 0);
        let pike = SaveSituation {
            pike_vs_mounted: true,
            heavy_cover: true,
            lance_vs_infantry: true,
            ..SaveSituation::default()
        };
        assert_eq!(save_modifier(&pike, &r), 1);
        let cuirassier = SaveSituation {
            lance_vs_cavalry: true,
            armour: 1,
            ..SaveSituation::default()
        };
        assert_eq!(save_modifier(&cuirassier, &r), 0);
    }

    #[test]
    fn saves_on_morale_and_a_one_always_fails() {
        let r = r();
        assert!(saves(4, 4, 0, &r) && !saves(3, 4, 0, &r));
        assert!(saves(3, 3, 0, &r) && !saves(5, 4, -2, &r));
        assert!(!saves(1, 3, 5, &r));
        let mut d = ScriptedDice::new(&[4, 2, 6]);
        assert_eq!(roll_saves(&mut d, 3, 4, 0, &r), 1);
    }

    #[test]
    fn break_tests_follow_the_table() {
        let r = r();
        assert_eq!(break_result(4, 0, 0, &r), BreakResult::Broken);
        assert_eq!(break_result(5, 0, 0, &r), BreakResult::Retire);
        assert_eq!(break_result(6, 0, 0, &r), BreakResult::Retire);
        assert_eq!(break_result(7, 0, 0, &r), BreakResult::Hold);
        assert_eq!(break_result(9, 1, 2, &r), BreakResult::Retire);
        assert_eq!(break_result(12, 4, 4, &r), BreakResult::Broken);
        // No penalty: 6/36 broken (2-4), 9/36 retire (5-6), 21/36 hold.
        assert_eq!(break_ways(0, &r), ([6, 9, 21], 36));
        assert_eq!(break_ways(3, &r), ([21, 9, 6], 36));
        assert!(shaken(3, 3) && !shaken(2, 3));
        assert_eq!(excess(5, 3), 2);
        assert!(steady_passes(0, &r) && !steady_passes(1, &r));
    }

    #[test]
    fn hedgehog_and_rallies() {
        let r = r();
        assert!(hedgehog_forced(8.0, &r) && !hedgehog_forced(8.5, &r));
        assert!(hedgehog_formed(false, None, &r));
        assert!(hedgehog_formed(true, Some(3), &r));
        assert!(!hedgehog_formed(true, Some(4), &r));
        assert!(elite_clears_disorder(4, &r) && !elite_clears_disorder(3, &r));
        assert!(brave_rallies(4, 12.5, &r));
        assert!(!brave_rallies(6, 12.0, &r) && !brave_rallies(3, 20.0, &r));
    }

    #[test]
    fn brigades_and_armies_break_at_half() {
        let r = r();
        assert!(brigade_broken(4, 2, &r) && !brigade_broken(4, 1, &r));
        assert!(brigade_broken(3, 2, &r) && !brigade_broken(3, 1, &r));
        assert!(army_broken(5, 3, &r) && !army_broken(5, 2, &r));
        assert!(!army_broken(0, 0, &r));
    }
}

//! Step 15, close combat: dice counts, modifiers, the CV dice cap, flank and rear attacks,
//! results, and foot breaking to horse.

use crate::army::{FootBalance, Formation, HorseKind, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::events::ReactionResult;
use crate::rules::ironsides::dice_rules::{Rerolls, roll_successes};
use crate::rules::ironsides::tables::IronsidesRules;

/// How a unit comes into this combat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Approach {
    /// Charged or countercharged this far (inches).
    Charging(f64),
    /// Standing to receive, or in a continuing melee.
    Standing,
    /// Hot pursuit running into an enemy: 2 dice a side.
    Pursuit,
}

/// The side of a combat a unit is on, for the dice cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Defender,
}

/// Dice a unit rolls in close combat before the flank multiplier and the CV cap.
pub fn base_dice(rules: &IronsidesRules, u: &Unit, approach: Approach, enemy: &Unit) -> u8 {
    let c = &rules.close_combat;
    if approach == Approach::Pursuit {
        return c.pursuit_contact_dice;
    }
    if u.is_cavalry() {
        return match approach {
            Approach::Charging(d) if d >= rules.charge.full_speed_distance => {
                c.horse_charge_full_dice
            }
            Approach::Charging(_) => c.horse_charge_short_dice,
            _ => c.horse_standing_dice,
        };
    }
    if u.formation == Formation::Hedgehog && enemy.is_cavalry() {
        c.foot_hedgehog_vs_cavalry_dice
    } else {
        c.foot_dice
    }
}

/// Dice actually rolled: doubled for a flank or rear attacker; an attacker never rolls more
/// dice than its current CV ("the men won't do it").
pub fn melee_dice(
    rules: &IronsidesRules,
    u: &Unit,
    approach: Approach,
    enemy: &Unit,
    role: Role,
    flank: bool,
) -> u8 {
    let mut n = base_dice(rules, u, approach, enemy);
    if flank && role == Role::Attacker {
        n *= rules.close_combat.flank_rear_dice_multiplier;
    }
    if role == Role::Attacker {
        n = n.min(u.cv);
    }
    n
}

/// Terrain the enemy stands in for this combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cover {
    #[default]
    None,
    Soft,
    Hard,
}

/// The die modifier for `u` fighting `enemy` (added to each die).
pub fn melee_modifier(
    rules: &IronsidesRules,
    u: &Unit,
    enemy: &Unit,
    enemy_cover: Cover,
    role: Role,
) -> i8 {
    let c = &rules.close_combat;
    let mut m = 0i8;
    if u.is_cavalry() && enemy.formation == Formation::Hedgehog {
        m += c.cavalry_vs_hedgehog;
    }
    if u.kind.is_foot() && enemy.formation == Formation::Hedgehog {
        m += c.infantry_vs_hedgehog;
    }
    if u.is_skirmisher() && !enemy.is_skirmisher() {
        m += c.skirmishers_vs_formed;
    }
    if u.kind == UnitKind::Dragoons && u.formation != Formation::Dismounted {
        m += c.dragoons_mounted;
    }
    m += match enemy_cover {
        Cover::None => 0,
        Cover::Soft => c.enemy_soft_cover,
        Cover::Hard => c.enemy_hard_cover,
    };
    if u.formation == Formation::MarchColumn {
        m += c.march_column;
    }
    if u.kind.is_gun() && role == Role::Defender {
        m += c.artillery_defending;
    }
    match u.kind {
        UnitKind::Foot(FootBalance::PikeHeavy) => m += c.pike_heavy,
        UnitKind::Foot(FootBalance::ShotHeavy) => m += c.shot_heavy,
        _ => {}
    }
    if enemy.broken {
        m += c.vs_broken;
    }
    if enemy.kind == UnitKind::Horse(HorseKind::Cuirassiers) {
        m += c.vs_cuirassiers;
    }
    m + c.size.get(u.size)
}

/// Rolls one side's melee dice and returns the hits. Re-rolls only when a general is attached.
pub fn roll_melee<D: DiceSource>(
    rules: &IronsidesRules,
    dice: &mut D,
    n: u8,
    modifier: i8,
    cv: i8,
    rerolls: &mut Rerolls,
) -> u8 {
    roll_successes(rules, dice, n, modifier, cv, rerolls)
}

/// What the loser's morale test (2D6 against CV) means after a combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatResult {
    /// Passed both: foot holds in contact, horse retires 3-6" to rally.
    Hold,
    /// Failed one: retreat 4-12", winner takes the ground.
    Retreat,
    /// Failed both: rout, broken troops.
    Rout,
}

pub fn combat_result(test: ReactionResult) -> CombatResult {
    match test {
        ReactionResult::PassBoth => CombatResult::Hold,
        ReactionResult::PassOne => CombatResult::Retreat,
        ReactionResult::FailBoth | ReactionResult::Rout => CombatResult::Rout,
    }
}

/// Foot that loses at least 2 CV and at least twice what it inflicted on cavalry breaks at once.
pub fn foot_breaks(
    rules: &IronsidesRules,
    foot: &Unit,
    enemy: &Unit,
    lost: u8,
    inflicted: u8,
) -> bool {
    let c = &rules.close_combat;
    (foot.kind.is_foot() || foot.kind == UnitKind::ForlornHope)
        && enemy.is_cavalry()
        && lost >= c.foot_break_min_loss
        && u16::from(lost) >= u16::from(c.foot_break_ratio) * u16::from(inflicted)
}

/// Which of two sides lost a close combat: the one that lost more CV in it (0 = the first,
/// 1 = the second). None when the losses are equal: both stay in contact and fight on next turn.
pub fn combat_loser(first_lost: u8, second_lost: u8) -> Option<usize> {
    match first_lost.cmp(&second_lost) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Which side lost a close combat, given the CV each lost in it and whether each is `gone`
/// (every unit of it destroyed). "Loser of most CV" can count only the CV a unit had left, so a
/// side wiped out by no more than it dealt would come out equal: with
/// `close_combat.wiped_out_side_loses` a side gone has lost whatever the count, and both gone
/// is a draw with nobody left; without it, the count alone decides.
pub fn melee_loser(rules: &IronsidesRules, lost: [u8; 2], gone: [bool; 2]) -> Option<usize> {
    match gone {
        _ if !rules.close_combat.wiped_out_side_loses => combat_loser(lost[0], lost[1]),
        [true, true] => None,
        [true, false] => Some(0),
        [false, true] => Some(1),
        [false, false] => combat_loser(lost[0], lost[1]),
    }
}

/// Of its melee dice, how many a cavalry unit spends on a pistol shot just before contact:
/// trotting pistoleers charging must use one, and so must cavalry that stands to fire instead
/// of countercharging. Cromwellian trotters and gallopers need not (E16).
pub fn pistol_dice(u: &Unit, approach: Approach, stands_to_fire: bool) -> u8 {
    if !u.is_cavalry() {
        return 0;
    }
    match approach {
        Approach::Charging(_) => u8::from(u.kind == UnitKind::Horse(HorseKind::PistoleerTrotters)),
        Approach::Standing => u8::from(stands_to_fire),
        Approach::Pursuit => 0,
    }
}

/// Victorious cavalry gains `options.victory_cv_bonus` CV (the Goring example, E19), never
/// above its starting CV. Returns the CV gained.
pub fn victory_bonus(rules: &IronsidesRules, winner: &mut Unit) -> u8 {
    if !winner.is_cavalry() {
        return 0;
    }
    let cap = winner.start_cv;
    winner.gain_cv(rules.options.victory_cv_bonus, cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::Side;

    #[test]
    fn dice_counts_and_cap() {
        let r = IronsidesRules::builtin();
        let horse = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Trotters),
            6,
        );
        let mut foot = Unit::new(1, Side::Royalist, 0, UnitKind::Foot(FootBalance::Normal), 5);
        assert_eq!(
            melee_dice(
                &r,
                &horse,
                Approach::Charging(6.0),
                &foot,
                Role::Attacker,
                false
            ),
            4
        );
        assert_eq!(
            melee_dice(
                &r,
                &horse,
                Approach::Charging(5.9),
                &foot,
                Role::Attacker,
                false
            ),
            3
        );
        assert_eq!(
            melee_dice(&r, &horse, Approach::Standing, &foot, Role::Defender, false),
            2
        );
        assert_eq!(
            melee_dice(
                &r,
                &horse,
                Approach::Charging(8.0),
                &foot,
                Role::Attacker,
                true
            ),
            6,
            "flank doubles 4 to 8, capped at CV 6"
        );
        foot.formation = Formation::Hedgehog;
        assert_eq!(
            melee_dice(&r, &foot, Approach::Standing, &horse, Role::Defender, false),
            4
        );
        let mut weak = horse.clone();
        weak.cv = 2;
        assert_eq!(
            melee_dice(
                &r,
                &weak,
                Approach::Charging(6.0),
                &foot,
                Role::Attacker,
                false
            ),
            2
        );
    }

    #[test]
    fn foot_breaking_rule() {
        let r = IronsidesRules::builtin();
        let horse = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Gallopers),
            6,
        );
        let foot = Unit::new(1, Side::Royalist, 0, UnitKind::Foot(FootBalance::Normal), 5);
        assert!(foot_breaks(&r, &foot, &horse, 2, 1));
        assert!(!foot_breaks(&r, &foot, &horse, 2, 2));
        assert!(!foot_breaks(&r, &foot, &horse, 1, 0));
        assert!(
            !foot_breaks(&r, &foot, &foot.clone(), 3, 0),
            "only against cavalry"
        );
    }

    #[test]
    fn loser_pistol_dice_and_victory_bonus() {
        let r = IronsidesRules::builtin();
        assert_eq!(combat_loser(4, 3), Some(0));
        assert_eq!(combat_loser(1, 2), Some(1));
        assert_eq!(combat_loser(2, 2), None);
        // A side wiped out has lost whatever the count; both gone, nobody wins.
        assert_eq!(melee_loser(&r, [1, 1], [false, true]), Some(1));
        assert_eq!(melee_loser(&r, [1, 2], [true, false]), Some(0));
        assert_eq!(melee_loser(&r, [1, 2], [true, true]), None);
        assert_eq!(melee_loser(&r, [2, 1], [false, false]), Some(0));
        let mut old = r.clone();
        old.close_combat.wiped_out_side_loses = false;
        assert_eq!(melee_loser(&old, [1, 1], [false, true]), None);
        assert_eq!(melee_loser(&old, [1, 2], [true, false]), Some(1));
        let trot = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Trotters),
            6,
        );
        let pist = Unit::new(
            1,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::PistoleerTrotters),
            6,
        );
        let foot = Unit::new(2, Side::Royalist, 0, UnitKind::Foot(FootBalance::Normal), 5);
        assert_eq!(pistol_dice(&trot, Approach::Charging(6.0), false), 0);
        assert_eq!(pistol_dice(&pist, Approach::Charging(6.0), false), 1);
        assert_eq!(pistol_dice(&trot, Approach::Standing, true), 1);
        assert_eq!(pistol_dice(&foot, Approach::Standing, true), 0);
        let mut g = Unit::new(
            3,
            Side::Royalist,
            0,
            UnitKind::Horse(HorseKind::Gallopers),
            6,
        );
        g.cv = 3;
        assert_eq!(victory_bonus(&r, &mut g), 1);
        assert_eq!(g.cv, 4);
        g.cv = 6;
        assert_eq!(victory_bonus(&r, &mut g), 0, "never above starting CV");
        let mut f = foot.clone();
        f.cv = 3;
        assert_eq!(victory_bonus(&r, &mut f), 0, "cavalry only");
    }
}

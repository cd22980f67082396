//! The Ironsides rule constants, read from `configs/rulesets/ironsides.toml` and validated.
//! The engine reads every movement rate, range, modifier, dice count and table from here.

use crate::rules::RuleData;
use std::path::Path;

use serde::Deserialize;

use crate::army::{Arm, GunWeight, SizeClass};
use crate::error::{Error, Result};

/// The ruleset file shipped with the binary, used when no other is named.
pub const BUILTIN: &str = include_str!("../../../configs/rulesets/ironsides.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IronsidesRules {
    pub name: String,
    pub limits: Limits,
    pub options: Options,
    pub scale: Scale,
    pub generals: Generals,
    pub leadership: Leadership,
    pub generalship: Vec<GeneralshipRow>,
    pub average_commander: AverageCommander,
    pub named_commander: Vec<NamedCommander>,
    pub movement: Movement,
    pub fire: Fire,
    pub reaction: Reaction,
    pub rally: Rally,
    pub charge: Charge,
    pub close_combat: CloseCombat,
    pub pursuit: Pursuit,
    pub risk: Risk,
    pub camps: Camps,
    pub sizes: Sizes,
    pub ratings: Vec<RatingRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub cv_max: u8,
    pub cv_min_start: u8,
    pub die_always_hits: u8,
    pub die_always_misses: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CasualtyTable {
    HorseAndRider,
    Easy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IndependentLps {
    Easy,
    Table,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub shot_heavy_fire_modifier_reversed: bool,
    pub no_reaction_from_fire_at_cv: u8,
    pub victory_cv_bonus: u8,
    pub casualty_table: CasualtyTable,
    pub independent_lps: IndependentLps,
    pub commissary_general_skill_modifier: i8,
    pub lp_cap: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    pub default_table_width: f64,
    pub default_table_depth: f64,
    pub default_turn_limit: u16,
    pub default_break_fraction: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generals {
    #[serde(rename = "move")]
    pub move_distance: f64,
    pub attach_cost: f64,
    pub detach_cost: f64,
    pub captain_general_attached_cv_bonus: u8,
    pub subordinate_radius_factor: f64,
    pub replacement_delay_turns: u8,
    pub replacement_skill_roll_modifier: i8,
    pub swept_away_delay_turns: u8,
}

/// A value per gun weight.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerGun<T> {
    pub very_light: T,
    pub light: T,
    pub medium: T,
    pub heavy: T,
}

impl<T: Copy> PerGun<T> {
    pub fn get(&self, w: GunWeight) -> T {
        match w {
            GunWeight::VeryLight => self.very_light,
            GunWeight::Light => self.light,
            GunWeight::Medium => self.medium,
            GunWeight::Heavy => self.heavy,
        }
    }
}

/// A die modifier per size class.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerSize {
    pub very_large: i8,
    pub large: i8,
    pub normal: i8,
    pub small: i8,
    pub really_small: i8,
}

impl PerSize {
    pub fn get(&self, s: SizeClass) -> i8 {
        match s {
            SizeClass::VeryLarge => self.very_large,
            SizeClass::Large => self.large,
            SizeClass::Normal => self.normal,
            SizeClass::Small => self.small,
            SizeClass::ReallySmall => self.really_small,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndependentTable {
    pub good: [u8; 6],
    pub average: [u8; 6],
    pub poor: [u8; 6],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leadership {
    pub group_move_cost: u8,
    /// Units side by side move as one group with gaps of up to this (inches, edge to edge).
    pub group_gap: f64,
    /// A second line follows as part of the group from up to this far behind (inches).
    pub group_second_line_distance: f64,
    pub individual_move_cost: u8,
    pub unattached_cost_multiplier: u8,
    pub artillery_move_cost: PerGun<u8>,
    pub rally_cost_near_enemy: u8,
    pub rally_cost_far: u8,
    pub rally_near_enemy_distance: f64,
    pub independent_table: IndependentTable,
    pub independent_easy_lps: u8,
    pub swept_away_lp_loss: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralshipRow {
    pub roll: u8,
    pub skill: String,
    pub lp_modifier: i8,
    pub radius: f64,
    pub morale: String,
    pub rerolls: u8,
    pub enemy_rerolls: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AverageCommander {
    pub captain_general_radius: f64,
    pub subordinate_radius: f64,
    pub lp_modifier: i8,
    pub rerolls: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedCommander {
    pub key: String,
    pub name: String,
    pub side: String,
    pub lp_modifier: i8,
    pub radius: f64,
    pub rerolls: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub line_per_cv: f64,
    pub line_max: f64,
    pub march_column_per_cv: f64,
    pub march_column_max: f64,
    pub skirmisher_per_cv: f64,
    pub skirmisher_max: f64,
    pub hedgehog: f64,
    pub trotters: f64,
    pub pistoleer_trotters: f64,
    pub gallopers: f64,
    pub cuirassiers: f64,
    pub dragoons_mounted: f64,
    pub artillery: PerGun<f64>,
    pub prolonge: PerGun<f64>,
    pub unlimber_cost: PerGun<f64>,
    pub formation_change_cost: f64,
    pub rough_factor_foot: f64,
    pub rough_factor_horse: f64,
    pub bog_factor_horse: f64,
    pub bog_factor_foot: f64,
    pub woods_factor: f64,
    pub road_factor: f64,
    pub linear_obstacle_cost_foot: f64,
    pub linear_obstacle_cost_horse_dice: u8,
    pub no_march_column_within: f64,
    pub interpenetration_enemy_distance: f64,
    pub out_of_radius_half_move: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotsPerTurn {
    pub foot: u8,
    pub skirmishers: u8,
    pub very_light: u8,
    pub light: u8,
    pub medium: u8,
    pub heavy: u8,
    pub horse: u8,
    pub dragoons: u8,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub short: f64,
    pub long: f64,
    pub short_mod: i8,
    pub long_mod: i8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranges {
    pub very_light: RangeBand,
    pub light: RangeBand,
    pub medium: RangeBand,
    pub heavy: RangeBand,
    pub skirmishers: RangeBand,
    pub infantry: RangeBand,
    pub pistols: RangeBand,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    pub shots_per_turn: ShotsPerTurn,
    pub horse_trotting_pistols: i8,
    pub horse_standing_pistols: i8,
    pub pike_heavy: i8,
    pub shot_heavy: i8,
    pub hedgehog: i8,
    pub size: PerSize,
    pub ranges: Ranges,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    pub attached_general_die_modifier: i8,
    pub free_reroll_for_no_rr_general: u8,
    pub retreat_min: f64,
    pub rout_dice_foot: u8,
    pub rout_dice_horse: u8,
    pub rout_path_test_distance: f64,
    pub rout_on_double: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rally {
    pub max_per_turn: u8,
    pub max_above_lowest: u8,
    pub attached_unit_die_modifier: i8,
    pub attached_other_units_die_modifier: i8,
    pub out_of_radius_dice: u8,
    pub captain_general_rally_cost: u8,
    /// LPs of its command for gunners to try to re-man their abandoned gun.
    pub reman_cost: u8,
    /// No active enemy may be within this of an abandoned gun for its gunners to return.
    pub reman_clear_distance: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Charge {
    pub standoff_min: f64,
    pub standoff_max: f64,
    pub full_speed_distance: f64,
    pub countercharge_per_cv: f64,
    pub support_charge_per_cv: f64,
    pub support_charge_er_dice: u8,
    pub flank_approach_distance: f64,
    /// A unit that has charged or fought a melee this half-turn makes no support or
    /// opportunity charge in the rest of it (a project reading; `false`: only a support or
    /// opportunity charge already made bars another).
    pub no_second_charge_a_half_turn: bool,
    pub evade_skirmisher_dice: u8,
    pub evade_gunners_dice: u8,
    pub evade_limbered_medium_dice: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseCombat {
    pub foot_dice: u8,
    pub foot_hedgehog_vs_cavalry_dice: u8,
    pub horse_charge_full_dice: u8,
    pub horse_charge_short_dice: u8,
    pub horse_standing_dice: u8,
    pub pursuit_contact_dice: u8,
    pub flank_rear_dice_multiplier: u8,
    pub foot_break_min_loss: u8,
    pub foot_break_ratio: u8,
    pub horse_hold_retire_min: f64,
    pub horse_hold_retire_max: f64,
    pub retreat_min: f64,
    pub retreat_max: f64,
    /// A side whose every unit is gone has lost the close combat whatever the CV count (a
    /// project reading; `false`: the count alone decides).
    pub wiped_out_side_loses: bool,
    pub cavalry_vs_hedgehog: i8,
    pub skirmishers_vs_formed: i8,
    pub infantry_vs_hedgehog: i8,
    pub dragoons_mounted: i8,
    pub enemy_soft_cover: i8,
    pub march_column: i8,
    pub enemy_hard_cover: i8,
    pub artillery_defending: i8,
    pub pike_heavy: i8,
    pub shot_heavy: i8,
    pub vs_broken: i8,
    pub vs_cuirassiers: i8,
    pub size: PerSize,
    pub disorder_cv_penalty: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pursuit {
    pub trotter_halt_dice: u8,
    pub galloper_halt_dice: u8,
    pub cuirassier_halt_dice: u8,
    pub move_dice: u8,
    pub move_per_pip: f64,
    pub cv_loss: u8,
    pub arc_degrees: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Risk {
    pub unattached_foot_contact: u8,
    pub unattached_horse_contact: u8,
    pub hq_overrun_capture: u8,
    pub hq_overrun_lp_loss: u8,
    pub capture_chance_wounded_or_unhorsed: f64,
    pub stampede_dice: u8,
    pub stampede_capture_chance: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camps {
    pub guard_cv: u8,
    pub loser_cv_loss: u8,
    pub captor_cv_gain: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    pub very_large_min: u32,
    pub large_min: u32,
    pub small_max: u32,
    pub really_small_max: u32,
    pub horse_factor: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rating {
    pub standard: u8,
    /// The higher reading of a "4/5" standard.
    #[serde(default)]
    pub standard_alt: Option<u8>,
    pub rolls: [u8; 6],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingArms {
    pub foot: Option<Rating>,
    pub dragoons: Option<Rating>,
    pub horse: Option<Rating>,
    pub artillery: Option<Rating>,
}

impl RatingArms {
    pub fn get(&self, arm: Arm) -> Option<&Rating> {
        match arm {
            Arm::Foot => self.foot.as_ref(),
            Arm::Dragoons => self.dragoons.as_ref(),
            Arm::Horse => self.horse.as_ref(),
            Arm::Artillery => self.artillery.as_ref(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingRow {
    pub side: String,
    pub year: u16,
    pub arms: RatingArms,
}

/// The longest distance a ruleset may give, in inches: far beyond any table.
pub const MAX_INCHES: f64 = 1000.0;

/// The most free re-rolls a general without re-rolls may have (the text gives one).
pub const MAX_FREE_REROLLS: u8 = 6;

impl IronsidesRules {
    /// The built-in ruleset (it is validated by a test, so this cannot fail in a release).
    pub fn builtin() -> Self {
        Self::parse(Path::new("configs/rulesets/ironsides.toml"), BUILTIN)
            .expect("the built-in ruleset is valid")
    }

    /// The named commander with this key, if any.
    pub fn named(&self, key: &str) -> Option<&NamedCommander> {
        self.named_commander.iter().find(|c| c.key == key)
    }

    /// The generalship row for a D6 roll (clamped to 1..=6, so modified rolls still find a row).
    pub fn generalship_row(&self, roll: i16) -> &GeneralshipRow {
        &self.generalship[(roll.clamp(1, 6) - 1) as usize]
    }

    /// The rating row in force for `side` in `year`: the latest row of that side not after it.
    pub fn rating(&self, side: &str, year: u16, arm: Arm) -> Option<&Rating> {
        self.ratings
            .iter()
            .filter(|r| r.side == side && r.year <= year && r.arms.get(arm).is_some())
            .max_by_key(|r| r.year)
            .and_then(|r| r.arms.get(arm))
    }

    /// The size class of a unit of `men` (horse thresholds halved).
    pub fn size_class(&self, men: u32, mounted: bool) -> SizeClass {
        let f = if mounted {
            self.sizes.horse_factor
        } else {
            1.0
        };
        let t = |n: u32| (f64::from(n) * f) as u32;
        if men >= t(self.sizes.very_large_min) {
            SizeClass::VeryLarge
        } else if men >= t(self.sizes.large_min) {
            SizeClass::Large
        } else if men < t(self.sizes.really_small_max) {
            SizeClass::ReallySmall
        } else if men <= t(self.sizes.small_max) {
            SizeClass::Small
        } else {
            SizeClass::Normal
        }
    }
}

impl crate::rules::RuleData for IronsidesRules {
    fn validate(&self, path: &Path, text: &str) -> Result<()> {
        let bad = |key: &str, msg: String| Err(Error::at_key(path, text, key, msg));
        let arc = [("pursuit.arc_degrees", self.pursuit.arc_degrees)];
        crate::rules::check_angles(arc, path, text)?;
        self.check_limits(&bad)?;
        self.check_distances(&bad)?;
        self.check_ground_factors(&bad)?;
        self.check_fire_ranges(&bad)?;
        self.check_bounds_and_counts(&bad)?;
        self.check_generalship(&bad)?;
        self.check_named_commanders(&bad)?;
        self.check_ratings(&bad)
    }
}

/// `validate`'s checks, a part of the file each; `bad` names the key and its line.
impl IronsidesRules {
    /// The CV and die limits, each within what the dice and tables allow.
    fn check_limits(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        if self.limits.cv_max == 0 || self.limits.cv_max > 12 {
            return bad(
                "limits.cv_max",
                format!("must be 1..=12, got {}", self.limits.cv_max),
            );
        }
        let l = &self.limits;
        if l.die_always_hits > 5 {
            return bad(
                "limits.die_always_hits",
                format!(
                    "must be 0 (none) to 5 (natural rolls up to it always hit), got {}",
                    l.die_always_hits
                ),
            );
        }
        if !(2..=7).contains(&l.die_always_misses) || l.die_always_misses <= l.die_always_hits {
            return bad(
                "limits.die_always_misses",
                format!(
                    "must be 2 to 7 (7: none) and above limits.die_always_hits ({}), got {}",
                    l.die_always_hits, l.die_always_misses
                ),
            );
        }
        if l.cv_min_start == 0 || l.cv_min_start > l.cv_max {
            return bad(
                "limits.cv_min_start",
                format!(
                    "must be 1 to limits.cv_max ({}), got {}",
                    l.cv_max, l.cv_min_start
                ),
            );
        }
        Ok(())
    }

    /// Every distance finite, from 0 to the width of any table.
    fn check_distances(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let m = &self.movement;
        let cc = &self.close_combat;
        let distances: [(&str, f64); 24] = [
            ("leadership.group_gap", self.leadership.group_gap),
            (
                "leadership.group_second_line_distance",
                self.leadership.group_second_line_distance,
            ),
            ("movement.line_per_cv", m.line_per_cv),
            ("movement.line_max", m.line_max),
            ("movement.march_column_per_cv", m.march_column_per_cv),
            ("movement.march_column_max", m.march_column_max),
            ("movement.skirmisher_per_cv", m.skirmisher_per_cv),
            ("movement.skirmisher_max", m.skirmisher_max),
            ("movement.trotters", m.trotters),
            ("movement.pistoleer_trotters", m.pistoleer_trotters),
            ("movement.gallopers", m.gallopers),
            ("movement.cuirassiers", m.cuirassiers),
            ("movement.dragoons_mounted", m.dragoons_mounted),
            ("movement.formation_change_cost", m.formation_change_cost),
            ("generals.move", self.generals.move_distance),
            ("generals.attach_cost", self.generals.attach_cost),
            ("charge.standoff_min", self.charge.standoff_min),
            ("charge.standoff_max", self.charge.standoff_max),
            ("close_combat.retreat_min", self.close_combat.retreat_min),
            ("close_combat.retreat_max", self.close_combat.retreat_max),
            (
                "movement.interpenetration_enemy_distance",
                m.interpenetration_enemy_distance,
            ),
            (
                "charge.support_charge_per_cv",
                self.charge.support_charge_per_cv,
            ),
            (
                "close_combat.horse_hold_retire_min",
                cc.horse_hold_retire_min,
            ),
            (
                "close_combat.horse_hold_retire_max",
                cc.horse_hold_retire_max,
            ),
        ];
        for (key, v) in distances {
            if !(0.0..=MAX_INCHES).contains(&v) {
                return bad(
                    key,
                    format!(
                        "must be a distance of 0 to {MAX_INCHES} inches, got {}",
                        crate::error::number(v)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Ground slows a move or costs as open ground: the engine has no faster going (roads
    /// cost as open ground, rulings), so a factor above 1 would be silently ignored.
    fn check_ground_factors(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let m = &self.movement;
        for (key, v) in [
            ("movement.rough_factor_foot", m.rough_factor_foot),
            ("movement.rough_factor_horse", m.rough_factor_horse),
            ("movement.bog_factor_horse", m.bog_factor_horse),
            ("movement.bog_factor_foot", m.bog_factor_foot),
            ("movement.woods_factor", m.woods_factor),
            ("movement.road_factor", m.road_factor),
        ] {
            if v.is_nan() || v <= 0.0 || v > 1.0 {
                return bad(
                    key,
                    format!(
                        "must be above 0 and at most 1 (each inch of this ground costs 1/factor inches), got {}",
                        crate::error::number(v)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Each weapon's short range above 0, its long range 0 (none) or beyond the short.
    fn check_fire_ranges(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let r = &self.fire.ranges;
        for (name, band) in [
            ("very_light", r.very_light),
            ("light", r.light),
            ("medium", r.medium),
            ("heavy", r.heavy),
            ("skirmishers", r.skirmishers),
            ("infantry", r.infantry),
            ("pistols", r.pistols),
        ] {
            if !(band.short > 0.0 && band.short <= MAX_INCHES) {
                return bad(
                    &format!("fire.ranges.{name}.short"),
                    format!(
                        "must be a range above 0 and at most {MAX_INCHES} inches, got {}",
                        crate::error::number(band.short)
                    ),
                );
            }
            if !(0.0..=MAX_INCHES).contains(&band.long)
                || (band.long > 0.0 && band.long < band.short)
            {
                return bad(
                    &format!("fire.ranges.{name}.long"),
                    format!(
                        "must be 0 (no long range) or at least the short range, got {}",
                        crate::error::number(band.long)
                    ),
                );
            }
        }
        Ok(())
    }

    /// Each least value no more than its most; the default table, free re-rolls and army
    /// break within what a battle can use.
    fn check_bounds_and_counts(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let cc = &self.close_combat;
        if self.charge.standoff_min > self.charge.standoff_max {
            return bad(
                "charge.standoff_min",
                "must not exceed charge.standoff_max".into(),
            );
        }
        if cc.horse_hold_retire_min > cc.horse_hold_retire_max {
            return bad(
                "close_combat.horse_hold_retire_min",
                "must not exceed close_combat.horse_hold_retire_max".into(),
            );
        }
        // A battle places its units on the table these give when a scenario names none.
        for (key, v) in [
            ("scale.default_table_width", self.scale.default_table_width),
            ("scale.default_table_depth", self.scale.default_table_depth),
        ] {
            if !(v > 0.0 && v <= MAX_INCHES) {
                return bad(
                    key,
                    format!(
                        "must be a size above 0 and at most {MAX_INCHES} inches, got {}",
                        crate::error::number(v)
                    ),
                );
            }
        }
        // Each free re-roll doubles the exact tables' work: a few are a what-if, more a typo.
        let free = self.reaction.free_reroll_for_no_rr_general;
        if free > MAX_FREE_REROLLS {
            return bad(
                "reaction.free_reroll_for_no_rr_general",
                format!("must be 0 to {MAX_FREE_REROLLS} re-rolls, got {free}"),
            );
        }
        if self.close_combat.retreat_min > self.close_combat.retreat_max {
            return bad(
                "close_combat.retreat_min",
                "must not exceed close_combat.retreat_max".into(),
            );
        }
        if !(0.0..=1.0).contains(&self.scale.default_break_fraction)
            || self.scale.default_break_fraction == 0.0
        {
            return bad("scale.default_break_fraction", "must be in (0, 1]".into());
        }
        Ok(())
    }

    /// The generalship table: one row per D6 face, in order.
    fn check_generalship(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        for face in 1..=6u8 {
            match self.generalship.get(usize::from(face - 1)) {
                Some(row) if row.roll == face => {}
                Some(_) => {
                    return bad(
                        &format!("generalship.{}.roll", face - 1),
                        format!("row {} must be for a roll of {face}", face),
                    );
                }
                None => {
                    return bad(
                        "generalship",
                        format!("missing the row for a roll of {face}"),
                    );
                }
            }
        }
        if self.generalship.len() > 6 {
            return bad(
                "generalship.6",
                "the table has one row per D6 face; found more than 6".into(),
            );
        }
        Ok(())
    }

    /// Each named commander's radius above 0 and his side one of the two.
    fn check_named_commanders(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        for (i, c) in self.named_commander.iter().enumerate() {
            if c.radius <= 0.0 || !c.radius.is_finite() {
                return bad(
                    &format!("named_commander.{i}.radius"),
                    format!("must be above 0, got {}", c.radius),
                );
            }
            if c.side != "parliament" && c.side != "royalist" {
                return bad(
                    &format!("named_commander.{i}.side"),
                    format!("must be parliament or royalist, got `{}`", c.side),
                );
            }
        }
        Ok(())
    }

    /// Every CV of the ratings tables within the CV limits.
    fn check_ratings(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let cv_max = self.limits.cv_max;
        for (i, row) in self.ratings.iter().enumerate() {
            for (arm, rating) in [
                ("foot", &row.arms.foot),
                ("dragoons", &row.arms.dragoons),
                ("horse", &row.arms.horse),
                ("artillery", &row.arms.artillery),
            ] {
                if let Some(rt) = rating {
                    let all = rt
                        .rolls
                        .iter()
                        .chain(std::iter::once(&rt.standard))
                        .chain(rt.standard_alt.iter());
                    for &cv in all {
                        if cv == 0 || cv > cv_max {
                            return bad(
                                &format!("ratings.{i}.arms.{arm}"),
                                format!("CV {cv} is outside 1..={cv_max}"),
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_ruleset_loads() {
        let r = IronsidesRules::builtin();
        assert_eq!(r.named("cromwell").unwrap().lp_modifier, 4);
        assert_eq!(
            r.rating("parliament", 1650, Arm::Horse).unwrap().rolls,
            [5, 6, 6, 7, 7, 7]
        );
        assert_eq!(
            r.rating("royalist", 1645, Arm::Horse).unwrap().rolls,
            [5, 5, 5, 5, 6, 7]
        );
        assert!(r.rating("scots", 1644, Arm::Artillery).is_none());
        assert!(r.rating("parliament", 1641, Arm::Foot).is_none());
    }

    #[test]
    fn size_classes_halve_for_horse() {
        let r = IronsidesRules::builtin();
        assert_eq!(r.size_class(1300, false), SizeClass::VeryLarge);
        assert_eq!(r.size_class(1100, false), SizeClass::Large);
        assert_eq!(r.size_class(800, false), SizeClass::Normal);
        assert_eq!(r.size_class(600, false), SizeClass::Small);
        assert_eq!(r.size_class(400, false), SizeClass::ReallySmall);
        assert_eq!(r.size_class(600, true), SizeClass::VeryLarge);
        assert_eq!(r.size_class(300, true), SizeClass::Small);
    }

    fn refuse(from: &str, to: &str) -> String {
        let text = BUILTIN.replacen(from, to, 1);
        assert_ne!(text, BUILTIN, "replacement {from} not found");
        IronsidesRules::parse(Path::new("x.toml"), &text)
            .unwrap_err()
            .to_string()
    }

    /// A number that is not finite is refused by key and line wherever it stands, checked
    /// by name or not (every ruleset's file is read through the same check).
    #[test]
    fn numbers_that_are_not_finite_are_refused() {
        // (The line of the key, counted in the file as it is.)
        let at = format!(
            "x.toml:{}:",
            1 + BUILTIN
                .lines()
                .position(|l| l.starts_with("horse_factor = 0.5"))
                .unwrap()
        );
        for to in [
            "horse_factor = nan",
            "horse_factor = inf",
            "horse_factor = -inf",
        ] {
            let e = refuse("horse_factor = 0.5", to);
            assert!(
                e.starts_with(&at)
                    && e.contains("sizes.horse_factor")
                    && e.contains("must be a finite number"),
                "{to}: {e}"
            );
        }
        let bp = crate::rules::black_powder::tables::BUILTIN.replacen(
            "sweep_move = 1.0",
            "sweep_move = inf",
            1,
        );
        let e = <crate::rules::black_powder::tables::BlackPowderRules as crate::rules::RuleData>::parse(
            Path::new("b.toml"),
            &bp,
        )
        .unwrap_err()
        .to_string();
        // (The line of the key, counted in the file as it is.)
        let line = 1 + bp
            .lines()
            .position(|l| l.starts_with("sweep_move"))
            .unwrap();
        assert!(
            e.starts_with(&format!("b.toml:{line}:")) && e.contains("finite"),
            "{e}"
        );
    }

    /// The pursuit's arc is from 0 to 180 degrees either side (180: all round); beyond, or not
    /// a number, it is refused by name.
    #[test]
    fn angles_beyond_a_half_turn_are_refused() {
        for to in [
            "arc_degrees = 270.0",
            "arc_degrees = -1.0",
            "arc_degrees = nan",
        ] {
            let e = refuse("arc_degrees = 45.0", to);
            assert!(
                e.contains("pursuit.arc_degrees") && e.contains("0 to 180 degrees"),
                "{to}: {e}"
            );
        }
    }

    #[test]
    fn bad_ruleset_files_name_file_key_and_line() {
        let e = refuse(
            "light = { short = 4.0, long = 12.0",
            "light = { short = 4.0, long = -12.0",
        );
        assert!(e.starts_with("x.toml:"), "{e}");
        assert!(e.contains("fire.ranges.light.long"), "{e}");
        let e = refuse("cv_max = 7", "cv_max = 7\nbogus = 1");
        assert!(e.contains("x.toml:") && e.contains("bogus"), "{e}");
        let e = refuse("[[generalship]]\nroll = 6", "[[generalship]]\nroll = 7");
        assert!(e.contains("generalship.5.roll"), "{e}");
        let e = refuse(
            "[[ratings]]\nside = \"parliament\"\nyear = 1642\narms = { foot = { standard = 3, rolls = [2, 3, 3, 3, 4, 4] }",
            "[[ratings]]\nside = \"parliament\"\nyear = 1642\narms = { foot = { standard = 3, rolls = [2, 3, 3, 3, 4, 9] }",
        );
        assert!(
            e.contains("ratings.0.arms.foot") && e.contains("CV 9"),
            "{e}"
        );
    }
}

//! The Black Powder rule constants, read from `configs/rulesets/black_powder.toml` and validated.
//! Every move, range, modifier, stat and table the engine uses comes from here.

use crate::rules::RuleData;
use std::path::Path;

use serde::Deserialize;

use crate::army::GunWeight;
use crate::error::{Error, Result};

/// The ruleset file shipped with the binary.
pub const BUILTIN: &str = include_str!("../../../configs/rulesets/black_powder.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlackPowderRules {
    pub name: String,
    pub derive: Derive,
    pub stamina: Stamina,
    pub command: CommandRules,
    pub movement: Movement,
    pub units: Units,
    pub ranges: Ranges,
    pub shooting: Shooting,
    pub saves: Saves,
    pub melee: Melee,
    pub break_test: BreakTest,
    pub disorder: Disorder,
    pub hedgehog: Hedgehog,
    pub special: Special,
    pub army: ArmyBreak,
    pub doctrine: DoctrineKnobs,
    /// Who has which special rule, by a group key (`pike`, `royalist_horse`, `elite` ...).
    pub special_rules: std::collections::BTreeMap<String, Vec<SpecialRule>>,
}

/// The ten special rules of the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialRule {
    Rash,
    Hedgehog,
    Elite,
    Lance,
    Reliable,
    Brave,
    Steady,
    DeterminedCharge,
    Marauders,
    FirstFire,
}

impl SpecialRule {
    pub const ALL: [SpecialRule; 10] = [
        SpecialRule::Rash,
        SpecialRule::Hedgehog,
        SpecialRule::Elite,
        SpecialRule::Lance,
        SpecialRule::Reliable,
        SpecialRule::Brave,
        SpecialRule::Steady,
        SpecialRule::DeterminedCharge,
        SpecialRule::Marauders,
        SpecialRule::FirstFire,
    ];
    /// Its bit in a [`super::units::Specials`] set.
    pub fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The groups `special_rules` may name.
pub const SPECIAL_GROUPS: [&str; 10] = [
    "pike",
    "musket",
    "horse",
    "royalist_horse",
    "parliament_horse",
    "cuirassiers",
    "dragoons",
    "skirmishers",
    "artillery",
    "elite",
];

/// Elite, Trained and Raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quality {
    Elite,
    Trained,
    Raw,
}

impl Quality {
    pub const ALL: [Quality; 3] = [Quality::Elite, Quality::Trained, Quality::Raw];
    pub fn name(self) -> &'static str {
        match self {
            Quality::Elite => "elite",
            Quality::Trained => "trained",
            Quality::Raw => "raw",
        }
    }
}

/// A value per quality.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerQuality<T> {
    pub elite: T,
    pub trained: T,
    pub raw: T,
}

impl<T: Copy> PerQuality<T> {
    pub fn get(&self, q: Quality) -> T {
        match q {
            Quality::Elite => self.elite,
            Quality::Trained => self.trained,
            Quality::Raw => self.raw,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenForSize {
    pub very_large: u32,
    pub large: u32,
    pub normal: u32,
    pub small: u32,
    pub really_small: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Derive {
    pub figure_scale: u32,
    pub raw_cv_max: u8,
    pub elite_cv_min: u8,
    pub men_for_size: MenForSize,
    pub gun_men: u32,
    pub regiment_frontage: f64,
    pub element_depth: f64,
    pub horse_frontage: f64,
    pub gun_frontage: f64,
    pub default_turn_limit: u16,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stamina {
    pub tiny_max: u32,
    pub small_max: u32,
    pub standard_max: u32,
    pub tiny: PerQuality<u8>,
    pub small: PerQuality<u8>,
    pub standard: PerQuality<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRules {
    pub dice: u8,
    pub default_rating: u8,
    pub over_move: f64,
    pub equal_band: u8,
    pub equal_move: f64,
    pub under_move: f64,
    pub initiative_range: f64,
    pub initiative_move: f64,
    pub distance_step: f64,
    pub distance_modifier: i8,
    pub enemy_near_range: f64,
    pub enemy_near_modifier: i8,
    pub column_modifier: i8,
    pub road_column_modifier: i8,
    pub commander_lost_modifier: i8,
    pub replacement_turns: u8,
    /// Who moves first in every turn (`roll_off`: the roll-off's winner).
    pub first_mover: crate::army::FirstMover,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub pike_block: PerQuality<f64>,
    pub skirmishers: PerQuality<f64>,
    pub gallopers: PerQuality<f64>,
    pub trotters: PerQuality<f64>,
    pub dragoons: PerQuality<f64>,
    pub commander_foot: f64,
    pub commander_mounted: f64,
    pub light_guns: f64,
    pub medium_guns: f64,
    pub heavy_guns: f64,
    pub pike_wheel_cost: f64,
    pub pike_max_turn_degrees: f64,
    pub woods: f64,
    pub rough: f64,
    pub rough_skirmishers: f64,
    pub obstacle: f64,
    pub building: f64,
    pub contact_gap: f64,
    pub melee_contact: f64,
}

/// One troop type's stats.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub melee: u8,
    pub shooting: u8,
    pub morale: u8,
}

/// Guns' shooting dice by range band.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunDice {
    pub close: u8,
    pub medium: u8,
    pub long: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    pub pike: Stats,
    pub musket: Stats,
    pub horse: Stats,
    pub dragoon: Stats,
    pub artillery: Stats,
    pub skirmishers: Stats,
    pub artillery_dice: GunDice,
    pub cuirassier_save: i8,
}

/// A gun's ranges: long, medium and close.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunRanges {
    pub long: f64,
    pub medium: f64,
    pub close: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranges {
    pub matchlock: f64,
    pub horse_pistol: f64,
    pub light: GunRanges,
    pub medium: GunRanges,
    pub heavy: GunRanges,
}

impl Ranges {
    /// A gun's ranges (very light guns shoot as light ones).
    pub fn gun(&self, w: GunWeight) -> GunRanges {
        match w {
            GunWeight::VeryLight | GunWeight::Light => self.light,
            GunWeight::Medium => self.medium,
            GunWeight::Heavy => self.heavy,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shooting {
    pub hit_on: u8,
    pub always_hits: u8,
    pub always_misses: u8,
    pub disorder_on: u8,
    pub close_range: f64,
    pub artillery_at_column_or_square: i8,
    pub close_range_modifier: i8,
    pub closing_fire: i8,
    pub skirmishers: i8,
    pub shooter_shaken_or_disordered: i8,
    pub target_skirmishers: i8,
    pub target_deployed_artillery: i8,
    pub target_not_clear: i8,
    pub artillery_over_half_range: i8,
    pub overhead: i8,
    pub laid_behind_gabions: i8,
    pub heavy_guns_gabions: bool,
    pub enfilade_dice_factor: u8,
    pub first_fire: i8,
    pub front_arc_degrees: f64,
    pub not_clear_gap: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saves {
    pub always_fails: u8,
    pub column_not_artillery: i8,
    pub light_cover: i8,
    pub heavy_cover: i8,
    pub artillery_long: i8,
    pub artillery_medium_or_close: i8,
    pub pike_vs_mounted: i8,
    pub lance_vs_cavalry: i8,
    pub lance_vs_infantry: i8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    pub hit_on: u8,
    pub charging: i8,
    pub won_last_round: i8,
    pub pike_first_round: i8,
    pub shaken_or_disordered: i8,
    pub skirmishers: i8,
    pub flank_or_rear: i8,
    pub exposed_flank: i8,
    pub exposed_rear: i8,
    pub pike_vs_cavalry: i8,
    pub occupying_buildings: i8,
    pub support_each: i8,
    pub support_max: i8,
    pub support_range: f64,
    pub flank_degrees: f64,
    pub rear_degrees: f64,
    pub commander_dice: u8,
    pub commander_lost_on: u8,
    pub sweep_move: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakTest {
    pub dice: u8,
    pub break_at_most: i16,
    pub retire_at_most: i16,
    pub retire_move: f64,
    pub give_ground_move: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disorder {
    pub blocks_orders: bool,
    pub clears_end_of_own_turn: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hedgehog {
    pub horse_range: f64,
    pub disordered_formed_at_most: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Special {
    pub rash_halt_on: u8,
    pub elite_rally_on: u8,
    pub brave_rally_on: u8,
    pub brave_enemy_range: f64,
    pub reliable_command: i8,
    pub steady_free_tests: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyBreak {
    pub brigade_broken_share: f64,
    pub army_broken_share: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoctrineKnobs {
    pub individual_order_degrees: f64,
    pub hedgehog_early_range: f64,
    pub charge_range_share: f64,
    /// Doctrine ruling: a regiment charges only a target its move reaches after the wheel the
    /// charge needs (a pike block pays half its move for any wheel); false: its standard move,
    /// wheel or not, so foot declares charges that fall short.
    pub charge_reach_after_wheel: bool,
    /// Doctrine ruling: shaken horse, which may not charge, holds and draws back out of its
    /// nearest enemy's charge; false: it advances as fresh horse does, to stand at the enemy's
    /// front and be charged.
    pub shaken_horse_keeps_off: bool,
    /// Doctrine ruling: horse whose doctrine's charge ratio forbids charging its nearest enemy
    /// advances no nearer than that enemy's charge (its standard move and the contact gap),
    /// and holds within it; false: it advances to stand at the enemy's front and be charged.
    pub daunted_horse_stands_off: bool,
    /// Doctrine ruling: horse takes foot in good order that would form hedgehog as it charged
    /// (the Hedgehog rule, not yet tested this turn, not disordered, shaken or in melee) as
    /// barring it from the front, as a hedgehog formed does, and horse so barred closes no
    /// nearer than the edge of the foot's muskets; false: it charges such foot, which forms
    /// hedgehog and stops the charge, and horse barred by a hedgehog holds where it stands.
    pub horse_foresees_hedgehogs: bool,
    /// Doctrine ruling: a regiment whose nearest enemy is in melee (which no charge may go
    /// at) charges the nearest enemy free to be charged when its doctrine would; false: it
    /// advances on the enemy in melee and stands at its front until the melee ends.
    pub charge_past_a_melee: bool,
}

impl BlackPowderRules {
    /// The built-in ruleset (validated by a test, so this cannot fail in a release).
    pub fn builtin() -> Self {
        Self::parse(Path::new("configs/rulesets/black_powder.toml"), BUILTIN)
            .expect("the built-in Black Powder ruleset is valid")
    }

    /// The turns a battle of `setup` lasts at most: the scenario's `turn_limit`, else this
    /// ruleset's default.
    pub fn turn_limit(&self, setup: &crate::setup::BattleSetup) -> u16 {
        crate::rules::scenario_turn_limit_or(setup, self.derive.default_turn_limit)
    }

    /// The special rules a group has (none when the file does not name it).
    pub fn specials_of(&self, group: &str) -> &[SpecialRule] {
        self.special_rules
            .get(group)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    fn distances(&self) -> Vec<(&'static str, f64)> {
        let m = &self.movement;
        let mut v = vec![
            ("derive.regiment_frontage", self.derive.regiment_frontage),
            ("derive.element_depth", self.derive.element_depth),
            ("derive.horse_frontage", self.derive.horse_frontage),
            ("derive.gun_frontage", self.derive.gun_frontage),
            ("command.initiative_range", self.command.initiative_range),
            ("command.distance_step", self.command.distance_step),
            ("command.enemy_near_range", self.command.enemy_near_range),
            ("movement.commander_foot", m.commander_foot),
            ("movement.commander_mounted", m.commander_mounted),
            ("movement.light_guns", m.light_guns),
            ("movement.medium_guns", m.medium_guns),
            ("movement.heavy_guns", m.heavy_guns),
            ("movement.contact_gap", m.contact_gap),
            ("movement.melee_contact", m.melee_contact),
            ("ranges.matchlock", self.ranges.matchlock),
            ("ranges.horse_pistol", self.ranges.horse_pistol),
            ("shooting.close_range", self.shooting.close_range),
            ("shooting.not_clear_gap", self.shooting.not_clear_gap),
            ("melee.support_range", self.melee.support_range),
            ("hedgehog.horse_range", self.hedgehog.horse_range),
            ("special.brave_enemy_range", self.special.brave_enemy_range),
            (
                "doctrine.hedgehog_early_range",
                self.doctrine.hedgehog_early_range,
            ),
        ];
        for (key, q) in [
            ("movement.pike_block", m.pike_block),
            ("movement.skirmishers", m.skirmishers),
            ("movement.gallopers", m.gallopers),
            ("movement.trotters", m.trotters),
            ("movement.dragoons", m.dragoons),
        ] {
            v.push((key, q.elite.min(q.trained).min(q.raw)));
        }
        for (key, g) in [
            ("ranges.light", self.ranges.light),
            ("ranges.medium", self.ranges.medium),
            ("ranges.heavy", self.ranges.heavy),
        ] {
            v.push((key, g.close.min(g.medium).min(g.long)));
        }
        v
    }

    fn angles(&self) -> [(&'static str, f64); 5] {
        [
            (
                "movement.pike_max_turn_degrees",
                self.movement.pike_max_turn_degrees,
            ),
            (
                "shooting.front_arc_degrees",
                self.shooting.front_arc_degrees,
            ),
            ("melee.flank_degrees", self.melee.flank_degrees),
            ("melee.rear_degrees", self.melee.rear_degrees),
            (
                "doctrine.individual_order_degrees",
                self.doctrine.individual_order_degrees,
            ),
        ]
    }

    fn shares(&self) -> [(&'static str, f64); 15] {
        let m = &self.movement;
        let c = &self.command;
        [
            ("command.over_move", c.over_move),
            ("command.equal_move", c.equal_move),
            ("command.under_move", c.under_move),
            ("command.initiative_move", c.initiative_move),
            ("movement.pike_wheel_cost", m.pike_wheel_cost),
            ("movement.woods", m.woods),
            ("movement.rough", m.rough),
            ("movement.rough_skirmishers", m.rough_skirmishers),
            ("movement.obstacle", m.obstacle),
            ("movement.building", m.building),
            ("break_test.retire_move", self.break_test.retire_move),
            (
                "break_test.give_ground_move",
                self.break_test.give_ground_move,
            ),
            ("army.brigade_broken_share", self.army.brigade_broken_share),
            ("army.army_broken_share", self.army.army_broken_share),
            (
                "doctrine.charge_range_share",
                self.doctrine.charge_range_share,
            ),
        ]
    }

    fn die_faces(&self) -> [(&'static str, u8); 13] {
        let s = &self.shooting;
        [
            ("shooting.hit_on", s.hit_on),
            ("shooting.always_hits", s.always_hits),
            ("shooting.always_misses", s.always_misses),
            ("shooting.disorder_on", s.disorder_on),
            ("saves.always_fails", self.saves.always_fails),
            ("melee.hit_on", self.melee.hit_on),
            ("melee.commander_lost_on", self.melee.commander_lost_on),
            (
                "hedgehog.disordered_formed_at_most",
                self.hedgehog.disordered_formed_at_most,
            ),
            ("special.rash_halt_on", self.special.rash_halt_on),
            ("special.elite_rally_on", self.special.elite_rally_on),
            ("special.brave_rally_on", self.special.brave_rally_on),
            ("units.pike.morale", self.units.pike.morale),
            ("units.artillery.morale", self.units.artillery.morale),
        ]
    }
}

impl crate::rules::RuleData for BlackPowderRules {
    fn validate(&self, path: &Path, text: &str) -> Result<()> {
        let bad = |key: &str, msg: String| Err(Error::at_key(path, text, key, msg));
        use crate::rules::{check_die_faces, check_distances, check_shares};
        check_distances(self.distances(), path, text)?;
        check_shares(self.shares(), path, text)?;
        check_die_faces(self.die_faces(), path, text)?;
        crate::rules::check_angles(self.angles(), path, text)?;
        let c = &self.command;
        if c.dice == 0 || c.dice > 4 {
            return bad("command.dice", format!("must be 1..=4, got {}", c.dice));
        }
        if c.default_rating < 2 || c.default_rating > 12 {
            return bad(
                "command.default_rating",
                format!("must be 2..=12, got {}", c.default_rating),
            );
        }
        let b = &self.break_test;
        if b.dice == 0 || b.dice > 4 {
            return bad("break_test.dice", format!("must be 1..=4, got {}", b.dice));
        }
        if b.retire_at_most < b.break_at_most {
            return bad(
                "break_test.retire_at_most",
                format!(
                    "must not be below break_at_most ({}), got {}",
                    b.break_at_most, b.retire_at_most
                ),
            );
        }
        let s = &self.stamina;
        if !(s.tiny_max < s.small_max && s.small_max < s.standard_max) {
            return bad(
                "stamina.small_max",
                "tiny_max < small_max < standard_max is needed".into(),
            );
        }
        if self.derive.figure_scale == 0 {
            return bad(
                "derive.figure_scale",
                "must be 1 or more men a figure".into(),
            );
        }
        if self.derive.raw_cv_max >= self.derive.elite_cv_min {
            return bad(
                "derive.elite_cv_min",
                format!("must be above raw_cv_max ({})", self.derive.raw_cv_max),
            );
        }
        for (key, g) in [
            ("ranges.light", self.ranges.light),
            ("ranges.medium", self.ranges.medium),
            ("ranges.heavy", self.ranges.heavy),
        ] {
            if !(g.close <= g.medium && g.medium <= g.long) {
                return bad(key, "needs close <= medium <= long".into());
            }
        }
        if self.melee.flank_degrees > self.melee.rear_degrees {
            return bad(
                "melee.flank_degrees",
                "must not be above rear_degrees".into(),
            );
        }
        for group in self.special_rules.keys() {
            if !SPECIAL_GROUPS.contains(&group.as_str()) {
                return bad(
                    &format!("special_rules.{group}"),
                    format!(
                        "unknown group; the groups are {}",
                        SPECIAL_GROUPS.join(", ")
                    ),
                );
            }
        }
        if self.shooting.enfilade_dice_factor == 0 {
            return bad("shooting.enfilade_dice_factor", "must be 1 or more".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_ruleset_loads_with_the_seed_numbers() {
        let r = BlackPowderRules::builtin();
        assert_eq!(r.units.pike.melee, 6);
        assert_eq!(r.units.horse.melee, 5);
        assert_eq!(r.ranges.heavy.long, 36.0);
        assert_eq!(r.stamina.standard.get(Quality::Elite), 5);
        assert_eq!(r.stamina.tiny.get(Quality::Raw), 1);
        assert_eq!(r.movement.gallopers.get(Quality::Raw), 12.0);
        assert_eq!(r.melee.pike_vs_cavalry, 3);
    }

    fn refuse(from: &str, to: &str) -> String {
        let text = BUILTIN.replacen(from, to, 1);
        assert_ne!(text, BUILTIN, "replacement {from} not found");
        BlackPowderRules::parse(Path::new("bp.toml"), &text)
            .unwrap_err()
            .to_string()
    }

    /// Every angle is from 0 to 180 degrees either side (180: all round); beyond, or not a
    /// number, it is refused by name.
    #[test]
    fn angles_beyond_a_half_turn_are_refused() {
        for (from, to, key) in [
            (
                "front_arc_degrees = 45.0",
                "front_arc_degrees = 270.0",
                "shooting.front_arc_degrees",
            ),
            (
                "rear_degrees = 135.0",
                "rear_degrees = 200.0",
                "melee.rear_degrees",
            ),
            (
                "flank_degrees = 45.0",
                "flank_degrees = -45.0",
                "melee.flank_degrees",
            ),
            (
                "pike_max_turn_degrees = 89.0",
                "pike_max_turn_degrees = nan",
                "movement.pike_max_turn_degrees",
            ),
            (
                "individual_order_degrees = 20.0",
                "individual_order_degrees = 181.0",
                "doctrine.individual_order_degrees",
            ),
        ] {
            let e = refuse(from, to);
            assert!(
                e.contains(key) && e.contains("0 to 180 degrees"),
                "{to}: {e}"
            );
        }
        let all_round =
            BUILTIN.replacen("front_arc_degrees = 45.0", "front_arc_degrees = 180.0", 1);
        assert!(BlackPowderRules::parse(Path::new("bp.toml"), &all_round).is_ok());
    }

    #[test]
    fn bad_ruleset_files_name_file_key_and_line() {
        let e = refuse(
            "light = { long = 20.0, medium = 10.0, close = 4.0 }",
            "light = { long = 20.0, medium = 10.0, close = -4.0 }",
        );
        assert!(
            e.starts_with("bp.toml:") && e.contains("ranges.light"),
            "{e}"
        );
        let e = refuse("hit_on = 4", "hit_on = 7");
        assert!(e.contains("shooting.hit_on") && e.contains("1..=6"), "{e}");
        let e = refuse("element_depth = 1.0", "element_depth = -1.0");
        assert!(
            e.contains("derive.element_depth")
                && e.contains("must be a distance of 0 or more, got -1"),
            "{e}"
        );
        let e = refuse(
            "dice = 2\ndefault_rating",
            "dice = 2\nbogus = 1\ndefault_rating",
        );
        assert!(e.contains("bogus"), "{e}");
        let e = refuse("break_at_most = 4", "break_at_most = 9");
        assert!(e.contains("break_test.retire_at_most"), "{e}");
        let line = refuse("tiny_max = 10", "tiny_max = 30");
        assert!(line.contains("stamina.small_max"), "{line}");
        assert!(line.starts_with("bp.toml:"), "{line}");
        let e = refuse("royalist_horse = [", "royalist_hoss = [");
        assert!(e.contains("special_rules.royalist_hoss"), "{e}");
        let e = refuse("[\"rash\"]", "[\"rush\"]");
        assert!(e.contains("rush"), "{e}");
        // A charge's reach is a share of the move: none below 0, none beyond two moves.
        for bad in ["-0.5", "2.5", "nan"] {
            let e = refuse(
                "charge_range_share = 1.5",
                &format!("charge_range_share = {bad}"),
            );
            assert!(
                e.contains("doctrine.charge_range_share") && e.contains("share from 0 to 2"),
                "{bad}: {e}"
            );
        }
    }
}

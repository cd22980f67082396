//! The Dickenson rule constants, read from `configs/rulesets/dickenson.toml` and validated.
//! Every move, range, deduction, table and morale value the rule functions use comes from here.

use crate::rules::RuleData;
use std::path::Path;

use serde::Deserialize;

use super::gunnery::Calibre;
use crate::error::{Error, Result};

/// The ruleset file shipped with the binary.
pub const BUILTIN: &str = include_str!("../../../configs/rulesets/dickenson.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DickensonRules {
    pub name: String,
    pub regiment: Regiment,
    pub morale_points: MoralePoints,
    pub morale: Morale,
    pub movement: Movement,
    pub terrain: Terrain,
    pub small_arms: SmallArms,
    pub volley: Volley,
    pub saves: PerFigure<u8>,
    pub guns: Guns,
    pub fall_of_shot: FallOfShot,
    pub ammunition: Ammunition,
    pub gun_on_gun: GunOnGun,
    pub formations: Formations,
    pub gun_drill: GunDrill,
    pub gun_team: GunTeam,
    pub impetus: Impetus,
    pub melee: Melee,
    pub generals: Generals,
    pub army: Army,
    pub battle: BattleRules,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Regiment {
    pub figure_scale: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoralePoints {
    pub pikemen_per_point: u32,
    pub musketeers_per_point: u32,
    pub troopers_per_point: u32,
    pub foot_officer: u32,
    pub foot_standard: u32,
    pub mounted_officer: u32,
    pub horse_officer: u32,
    pub horse_standard: u32,
    pub gun_full_crew: u32,
    pub gun_partial_crew: u32,
    pub gun_officer: u32,
    pub gun: u32,
    pub ammunition: u32,
    pub officer_hit_on: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Morale {
    pub dice: u8,
    pub good_at_least: i16,
    pub stand_at_least: i16,
    pub fall_back_at_least: i16,
    pub fall_back_move: f64,
    /// A regiment that fell back may not advance next move, as one that stood may not (false:
    /// free at once).
    pub fall_back_holds: bool,
    pub formation_throw_good_at_least: i16,
    pub forlorn_hope: i8,
    pub add: MoraleAdds,
    pub support: Support,
}

/// The text's "ADD 1 if" list and the melee's fewer-casualties bonus.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleAdds {
    pub attacker: i8,
    pub supported: i8,
    pub flanks_secured: i8,
    pub won_melee: i8,
    pub enemy_downhill: i8,
    pub enemy_withdrawing: i8,
    pub lieutenant_general: i8,
    pub pike_deep: i8,
    pub fewer_casualties: i8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Support {
    pub range_share: f64,
}

/// Foot moves by formation (musketeers form no square).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FootMoves {
    pub line: f64,
    pub column: f64,
    pub square: Option<f64>,
}

/// Horse moves by gait.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HorseMoves {
    pub trot: f64,
    pub canter: f64,
    pub gallop: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gait {
    pub steps_per_move: u8,
    pub gallop_from_halt: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub pikemen: FootMoves,
    pub musketeers: FootMoves,
    pub lobsters: HorseMoves,
    pub troopers: HorseMoves,
    pub dragoons: HorseMoves,
    pub gait: Gait,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub hedge_cavalry_extra: f64,
    pub hedge_cavalry_gallop: bool,
    pub hedge_hack_share: f64,
    pub low_wall_infantry_share: f64,
    pub low_wall_charge: bool,
    pub high_wall_cavalry: bool,
    pub high_wall_infantry_share: f64,
    pub ford_share: f64,
    pub woods_cavalry: bool,
    pub woods_infantry_share: f64,
    pub woods_skirmisher_loss: f64,
    pub hill_cavalry_up_loss: f64,
    pub hill_cavalry_down_loss: f64,
    pub hill_cavalry_charge_uphill: bool,
    pub hill_cavalry_charge_downhill: bool,
    pub hill_infantry_up_loss: f64,
    pub hill_infantry_down_gain: f64,
    pub road_gain: f64,
    pub bog_share: f64,
    pub stream_share: f64,
    /// Ruling: any part of a regiment's footprint meets the ground (false: its centre alone).
    pub footprint_meets_ground: bool,
    /// Ruling: a move pays only for the ground it crosses; priced over ground it then falls
    /// short of, it goes on at the cheaper price (false: it pays for the whole leg it wanted).
    pub pay_ground_crossed: bool,
    /// Ruling: a move the ground forbids stops this close to the ground's edge.
    pub ground_edge_tolerance: f64,
}

/// A value by range band (pistols have no medium band).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByBand<T> {
    pub long: T,
    pub medium: Option<T>,
    pub short: T,
}

/// One small arm: ranges, volley deductions, individual hit scores, reload and firing time.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub long: f64,
    pub medium: Option<f64>,
    pub short: f64,
    pub deduction: ByBand<u8>,
    pub hit_on: ByBand<u8>,
    pub reload_moves: f64,
    pub fire_moves: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallArms {
    pub musket: Weapon,
    pub pistol: Weapon,
    pub musketoon: Weapon,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Volley {
    pub men: u8,
    pub short_man_deduction: u8,
    pub rested: i8,
    pub pistols_each: u8,
    pub closing_fire_min_move: f64,
}

/// A value for each kind of figure.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerFigure<T> {
    pub lobster: T,
    pub trooper: T,
    pub dragoon: T,
    pub pikeman: T,
    pub musketeer: T,
    pub gunner: T,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDice {
    pub maximum: u8,
    pub effective: u8,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitArea {
    /// Across the line of fire.
    pub width: f64,
    /// Along the line of fire.
    pub length: f64,
}

/// One calibre of gun.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gun {
    pub drawn_move: f64,
    pub horses: u8,
    pub limber_share: f64,
    pub crew_pull: f64,
    pub crew_foot: u8,
    pub crew_mounted: u8,
    pub maximum_range: f64,
    pub effective_range: f64,
    pub fires_every: u8,
    /// In half dice: an odd count has a D3 (half a die).
    pub effect_half_dice: EffectDice,
    pub hit_area: HitArea,
    pub balls: u8,
    pub powder: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guns {
    pub falcon: Gun,
    pub saker: Gun,
    pub culverin: Gun,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindGauge {
    pub distance: f64,
    pub section: f64,
    pub sections: u8,
    pub by_die: [i8; 6],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallOfShot {
    pub band_limits: Vec<f64>,
    pub errors: Vec<[f64; 6]>,
    pub estimate_step: f64,
    pub wind_gauge: WindGauge,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ammunition {
    pub powder_short: u8,
    pub powder_medium: u8,
    pub powder_long: u8,
    pub medium_range_factor: f64,
    pub kept_within: f64,
    pub blast_radius: f64,
    pub blast_casualty_on: u8,
}

/// Modifiers to the gun-on-gun die by the target's calibre.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByCalibre {
    pub falcon: i8,
    pub saker: i8,
    pub culverin: i8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunOnGun {
    pub destroyed_on: u8,
    pub wheel_on: u8,
    pub wheel_repair_moves: u8,
    pub falcon: ByCalibre,
    pub saker: ByCalibre,
    pub culverin: ByCalibre,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Formations {
    pub pike_uncharged_ranks: u8,
    pub pike_extend: f64,
    pub breach_kills: u32,
    /// Share of a move a change of formation takes.
    pub change_share: f64,
    /// Figures a body needs for each rank it stands in.
    pub per_rank_at_least: u8,
    /// Whether a regiment in column fires.
    pub column_fires: bool,
    /// Figures abreast in a forlorn hope's or dragoons' column (a file of musketeers).
    pub file_abreast: u8,
    pub ranks: FormationRanks,
    pub doctrine: FormationDoctrine,
    pub square: SquareRules,
}

/// How a square stands (ruling): all round, with no flank or rear.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareRules {
    /// It fires, gives closing fire and fights to every side from the face toward the enemy
    /// (else it faces one way, as a line).
    pub all_round: bool,
    /// It counts its flanks and rear secured in its morale throws.
    pub flanks_secured: bool,
}

/// Ranks of a foot regiment's two bodies in one formation.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyRanks {
    pub pikemen: u8,
    pub musketeers: u8,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationRanks {
    pub line: BodyRanks,
    pub column: BodyRanks,
    pub square: BodyRanks,
    /// Pike with a front rank of musketeers: the shot drawn up before the pike.
    pub shot_before_pike: BodyRanks,
}

/// When the engine's doctrine forms column or square.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationDoctrine {
    /// Foot advance in column while the nearest enemy is farther than this.
    pub column_beyond: f64,
    /// Foot that close up against horse but cannot stand pike three deep draw their shot up
    /// before the pike, when they have shot enough to line its front.
    pub shot_before_pike: bool,
    /// Only horse whose nearest enemy the foot are (the one the engine's horse charge) make
    /// them close up; else any horse in reach does.
    pub only_aimed_horse: bool,
    /// Inches beyond their charge reach that horse still hold a square closed: it opens only
    /// when they are farther (or gone), so it does not flip at the edge of their reach.
    pub square_margin: f64,
    /// Horse shoot rather than charge when their pistols' expected casualties are at least
    /// this many times the musketeers' answer (both at the pistol's short range, the face of a
    /// square): horse facing a square they cannot charge stand and shoot it only then, and
    /// foot do not stand in square against halted horse that shoot it so.
    pub horse_outshoot_odds: f64,
    /// Horse held by a stand result still threaten foot while held (false: only from the move
    /// they may advance, or while held when they act before the foot next move).
    pub held_horse_threaten: bool,
    /// Foot open their square to horse shooting it even when those horse would then charge
    /// the line (false: only to horse that would not).
    pub open_square_to_chargers: bool,
}

/// Guns served on the table.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunDrill {
    /// A gun fires in a move only if limbering, unlimbering or pulling took no more of it.
    pub fire_share: f64,
    /// Loads of its gun's balls and powder one ammunition wagon carries.
    pub wagon_loads: u8,
    /// A sited gun turns to a target in this share of its limbering time.
    pub pivot_share_of_limber: f64,
}

/// A gun's horses and mounted drivers, figures while it is limbered.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunTeam {
    /// Their saving throw.
    pub save: u8,
    /// Drivers a gun needs to be drawn at all.
    pub drivers_needed: u8,
    /// Inches behind a sited gun's centre where its limber and team stand (ruling).
    pub sited_behind: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Impetus {
    pub lobster: u8,
    pub trooper: u8,
    pub dragoon: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    pub rounds: u8,
    pub points_per_die: f64,
    pub casualty_share: f64,
    pub pike_first_round_bonus: f64,
    /// Ruling: the most enemies a regiment fights in melee at once (1: one at a time).
    pub enemies_at_once: u8,
    pub points: PerFigure<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generals {
    pub hit_on: u8,
    pub killed_at_most: u8,
    pub wounded_at_most: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub break_share: f64,
    pub default_turn_limit: u16,
}

/// A value for each balance of foot regiment.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByBalance {
    pub normal: f64,
    pub pike_heavy: f64,
    pub shot_heavy: f64,
}

/// Men a unit stands for when the scenario gives none.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefaultMen {
    pub foot: u32,
    pub horse: u32,
    pub dragoons: u32,
    pub forlorn_hope: u32,
}

/// A factor for each size class.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BySize {
    pub very_large: f64,
    pub large: f64,
    pub normal: f64,
    pub small: f64,
    pub really_small: f64,
}

/// The calibre each weight of gun of a scenario fights as.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByWeight {
    pub very_light: Calibre,
    pub light: Calibre,
    pub medium: Calibre,
    pub heavy: Calibre,
}

/// How the battle engine reads a scenario's neutral order of battle and the table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleRules {
    pub horse_ranks: u8,
    pub forlorn_hope_ranks: u8,
    pub pike_share: ByBalance,
    pub men: DefaultMen,
    pub size_factor: BySize,
    pub calibre: ByWeight,
    pub front_arc_degrees: f64,
    pub melee_arc_degrees: f64,
    pub contact_gap: f64,
    pub charge_range_share: f64,
    pub rally_reach: f64,
    pub unhorsed_moves: u8,
    /// An advance goes straight along the regiment's front while its nearest enemy is farther
    /// than this (inches) and within `advance_flank_degrees` of its front.
    pub advance_straight_beyond: f64,
    pub advance_flank_degrees: f64,
    /// Routing regiments flee through friends (never through enemies).
    pub routers_pass_friends: bool,
    /// Regiments falling back go through friends.
    pub fall_backs_pass_friends: bool,
    /// A forlorn hope (skirmishers) goes through friends, and friends through it.
    pub forlorn_hope_open_order: bool,
    /// A fall back, rout or turn about whose way crosses ground the regiment may not enter
    /// veers round it by at most this many degrees either side ...
    pub veer_degrees: f64,
    /// ... trying turns this many degrees apart (0: never veers).
    pub veer_step_degrees: f64,
    /// A doctrine's advance that a friend holds goes round it or waits (false: it presses up
    /// to the friend, as before).
    pub round_friends: bool,
    /// The oblique of a side-step from the front (degrees; straight to the flank if that way
    /// is not clear) ...
    pub side_step_degrees: f64,
    /// ... clearing the friend's flank by this many inches.
    pub side_step_margin: f64,
    /// A regiment waiting for a friend to move on stands no nearer behind it than this.
    pub wait_behind_friend: f64,
    /// Who moves first in every move (`roll_off`: the roll-off's winner).
    pub first_mover: crate::army::FirstMover,
    /// Both sides make every regiment's order for the move (its charge declared) from the
    /// state at the start of the move, then move (false: each side decides as it moves).
    pub charges_declared_at_once: bool,
    /// Declared at once, the formation rules' throws before contact (the charged foot's, or
    /// the horse's at pike in two ranks) are thrown at the declaration, kept with the order and
    /// applied when the charge goes in (false: thrown when the charge goes in).
    pub formation_throws_at_declaration: bool,
    /// Horse that declared charges on each other both strike with impetus and both count as
    /// the attacker (false: only the first to move does).
    pub countercharge: bool,
    /// The doctrine weighs a charge on a regiment in melee against the whole of that melee
    /// (false: against the regiment alone).
    pub charge_odds_whole_melee: bool,
    /// The doctrine charges only where the charge would go in as the table stands: its reach
    /// over the ground, no ground forbidding a charge, no friend in the way (false: by its
    /// gait's full move alone).
    pub charge_sees_the_way: bool,
    /// With `charge_sees_the_way`, a charge is weighed with the friends already declared on
    /// the same target standing where their charges end: one they would stop is not declared
    /// (false: each charge as if its friends stood where they are).
    pub charges_shared_out: bool,
    /// Shooters ordered at the start of the move to advance stand instead when, as their turn
    /// comes, an enemy is already within their long range (false: they march on).
    pub shooters_stand_in_range: bool,
    /// Small arms fire only at an enemy whose line of fire (centre to centre, or to the sited
    /// team it falls on) crosses no friend's footprint (false: at the nearest, through friends);
    /// and shooters stand to give fire only with such a line to an enemy in range.
    pub clear_line_of_fire: bool,
    /// A gun lays its shot only on an enemy whose line from the gun crosses no friend's
    /// footprint, save friends off the hill a gun stands on (false: at the nearest enemy in
    /// range and arc, the shot falling where the dice lay it, on friends too).
    pub guns_clear_line: bool,
    /// Foot held by a standing friend with no gap wide enough for their line form column to
    /// pass a gap wide enough for the column.
    pub pass_in_column: bool,
    /// Inches beyond every enemy's small arms' long range and horse's charge reach (and its
    /// own move) that such a column keeps: it forms only so far off, and re-forms nearer.
    pub column_clear_of_enemy: f64,
}

impl DickensonRules {
    /// The built-in ruleset (validated by a test, so this cannot fail in a release).
    pub fn builtin() -> Self {
        Self::parse(Path::new("configs/rulesets/dickenson.toml"), BUILTIN)
            .expect("the built-in Dickenson ruleset is valid")
    }

    /// The moves a battle of `setup` lasts at most: the scenario's `turn_limit`, else this
    /// ruleset's default.
    pub fn turn_limit(&self, setup: &crate::setup::BattleSetup) -> u16 {
        crate::rules::scenario_turn_limit_or(setup, self.army.default_turn_limit)
    }

    fn validate_bands(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        for (name, w) in self.weapons() {
            let medium = w.medium.unwrap_or(w.short);
            if !(w.short <= medium && medium <= w.long) {
                return bad(
                    &format!("small_arms.{name}.long"),
                    "needs short <= medium <= long".into(),
                );
            }
            if w.medium.is_some() != w.deduction.medium.is_some()
                || w.medium.is_some() != w.hit_on.medium.is_some()
            {
                return bad(
                    &format!("small_arms.{name}.deduction"),
                    "a medium range needs a medium deduction and hit score, and none without"
                        .into(),
                );
            }
        }
        let f = &self.fall_of_shot;
        if f.errors.len() != f.band_limits.len() + 1 {
            return bad(
                "fall_of_shot.errors",
                format!(
                    "needs one row per band: {} limits make {} bands, got {} rows",
                    f.band_limits.len(),
                    f.band_limits.len() + 1,
                    f.errors.len()
                ),
            );
        }
        if f.band_limits.windows(2).any(|w| w[0] >= w[1]) {
            return bad("fall_of_shot.band_limits", "must rise strictly".into());
        }
        if f.errors.iter().flatten().any(|e| !e.is_finite()) {
            return bad("fall_of_shot.errors", "must be finite inches".into());
        }
        let g = &f.wind_gauge;
        let half = i8::try_from(g.sections / 2).unwrap_or(i8::MAX);
        if g.by_die.iter().any(|s| s.abs() > half) {
            return bad(
                "fall_of_shot.wind_gauge.by_die",
                format!(
                    "must name sections from -{half} to {half} of the {} sections",
                    g.sections
                ),
            );
        }
        Ok(())
    }

    fn validate_guns(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        for (name, g) in self.calibres() {
            if g.effective_range > g.maximum_range {
                return bad(
                    &format!("guns.{name}.effective_range"),
                    format!("must not be above maximum_range ({})", g.maximum_range),
                );
            }
            if g.effect_half_dice.maximum > 24 || g.effect_half_dice.effective > 24 {
                return bad(
                    &format!("guns.{name}.effect_half_dice"),
                    "at most 24 half dice".into(),
                );
            }
        }
        let a = &self.ammunition;
        if !(a.powder_short <= a.powder_medium && a.powder_medium <= a.powder_long) {
            return bad(
                "ammunition.powder_medium",
                "needs powder_short <= powder_medium <= powder_long".into(),
            );
        }
        if !(a.medium_range_factor.is_finite() && a.medium_range_factor >= 1.0) {
            return bad("ammunition.medium_range_factor", "must be 1 or more".into());
        }
        let g = &self.gun_on_gun;
        if g.wheel_on >= g.destroyed_on {
            return bad(
                "gun_on_gun.wheel_on",
                format!("must be below destroyed_on ({})", g.destroyed_on),
            );
        }
        Ok(())
    }

    fn validate_morale(&self, bad: &impl Fn(&str, String) -> Result<()>) -> Result<()> {
        let m = &self.morale;
        if m.dice == 0 || m.dice > 4 {
            return bad("morale.dice", format!("must be 1..=4, got {}", m.dice));
        }
        if !(m.fall_back_at_least <= m.stand_at_least && m.stand_at_least <= m.good_at_least) {
            return bad(
                "morale.stand_at_least",
                "needs fall_back_at_least <= stand_at_least <= good_at_least".into(),
            );
        }
        let g = &self.generals;
        if g.killed_at_most > g.wounded_at_most {
            return bad(
                "generals.killed_at_most",
                format!("must not be above wounded_at_most ({})", g.wounded_at_most),
            );
        }
        if !(self.army.break_share > 0.0 && self.army.break_share <= 1.0) {
            return bad("army.break_share", "must be above 0 and at most 1".into());
        }
        Ok(())
    }

    /// The small arms by name.
    pub fn weapons(&self) -> [(&'static str, &Weapon); 3] {
        let s = &self.small_arms;
        [
            ("musket", &s.musket),
            ("pistol", &s.pistol),
            ("musketoon", &s.musketoon),
        ]
    }

    /// The calibres by name.
    pub fn calibres(&self) -> [(&'static str, &Gun); 3] {
        let g = &self.guns;
        [
            ("falcon", &g.falcon),
            ("saker", &g.saker),
            ("culverin", &g.culverin),
        ]
    }

    fn distances(&self) -> Vec<(String, f64)> {
        let m = &self.movement;
        let t = &self.terrain;
        let mut v: Vec<(String, f64)> = vec![
            ("terrain.hedge_cavalry_extra".into(), t.hedge_cavalry_extra),
            ("gun_team.sited_behind".into(), self.gun_team.sited_behind),
            (
                "terrain.ground_edge_tolerance".into(),
                t.ground_edge_tolerance,
            ),
            (
                "fall_of_shot.estimate_step".into(),
                self.fall_of_shot.estimate_step,
            ),
            (
                "fall_of_shot.wind_gauge.distance".into(),
                self.fall_of_shot.wind_gauge.distance,
            ),
            (
                "fall_of_shot.wind_gauge.section".into(),
                self.fall_of_shot.wind_gauge.section,
            ),
            ("ammunition.kept_within".into(), self.ammunition.kept_within),
            (
                "ammunition.blast_radius".into(),
                self.ammunition.blast_radius,
            ),
            ("formations.pike_extend".into(), self.formations.pike_extend),
            (
                "formations.doctrine.column_beyond".into(),
                self.formations.doctrine.column_beyond,
            ),
            (
                "formations.doctrine.square_margin".into(),
                self.formations.doctrine.square_margin,
            ),
            ("battle.contact_gap".into(), self.battle.contact_gap),
            ("battle.rally_reach".into(), self.battle.rally_reach),
            (
                "battle.advance_straight_beyond".into(),
                self.battle.advance_straight_beyond,
            ),
            (
                "battle.side_step_margin".into(),
                self.battle.side_step_margin,
            ),
            (
                "battle.wait_behind_friend".into(),
                self.battle.wait_behind_friend,
            ),
            (
                "battle.column_clear_of_enemy".into(),
                self.battle.column_clear_of_enemy,
            ),
            ("melee.points_per_die".into(), self.melee.points_per_die),
        ];
        for (name, f) in [("pikemen", m.pikemen), ("musketeers", m.musketeers)] {
            v.push((format!("movement.{name}.line"), f.line));
            v.push((format!("movement.{name}.column"), f.column));
            v.push((format!("movement.{name}.square"), f.square.unwrap_or(0.0)));
        }
        for (name, h) in [
            ("lobsters", m.lobsters),
            ("troopers", m.troopers),
            ("dragoons", m.dragoons),
        ] {
            v.push((format!("movement.{name}.trot"), h.trot));
            v.push((format!("movement.{name}.canter"), h.canter));
            v.push((format!("movement.{name}.gallop"), h.gallop));
        }
        for (name, w) in self.weapons() {
            v.push((format!("small_arms.{name}.long"), w.long));
            v.push((format!("small_arms.{name}.short"), w.short));
            v.push((format!("small_arms.{name}.medium"), w.medium.unwrap_or(0.0)));
        }
        for (name, g) in self.calibres() {
            v.push((format!("guns.{name}.drawn_move"), g.drawn_move));
            v.push((format!("guns.{name}.crew_pull"), g.crew_pull));
            v.push((format!("guns.{name}.maximum_range"), g.maximum_range));
            v.push((format!("guns.{name}.effective_range"), g.effective_range));
            v.push((format!("guns.{name}.hit_area"), g.hit_area.width));
            v.push((format!("guns.{name}.hit_area"), g.hit_area.length));
        }
        for &limit in &self.fall_of_shot.band_limits {
            v.push(("fall_of_shot.band_limits".into(), limit));
        }
        v
    }

    fn shares(&self) -> Vec<(&'static str, f64)> {
        let t = &self.terrain;
        vec![
            ("morale.fall_back_move", self.morale.fall_back_move),
            (
                "morale.support.range_share",
                self.morale.support.range_share,
            ),
            ("terrain.hedge_hack_share", t.hedge_hack_share),
            ("terrain.low_wall_infantry_share", t.low_wall_infantry_share),
            (
                "terrain.high_wall_infantry_share",
                t.high_wall_infantry_share,
            ),
            ("terrain.ford_share", t.ford_share),
            ("terrain.woods_infantry_share", t.woods_infantry_share),
            ("terrain.woods_skirmisher_loss", t.woods_skirmisher_loss),
            ("terrain.hill_cavalry_up_loss", t.hill_cavalry_up_loss),
            ("terrain.hill_cavalry_down_loss", t.hill_cavalry_down_loss),
            ("terrain.hill_infantry_up_loss", t.hill_infantry_up_loss),
            ("terrain.hill_infantry_down_gain", t.hill_infantry_down_gain),
            ("terrain.road_gain", t.road_gain),
            ("terrain.bog_share", t.bog_share),
            ("terrain.stream_share", t.stream_share),
            ("battle.pike_share", self.battle.pike_share.normal),
            ("battle.pike_share", self.battle.pike_share.pike_heavy),
            ("battle.pike_share", self.battle.pike_share.shot_heavy),
            ("battle.charge_range_share", self.battle.charge_range_share),
            (
                "volley.closing_fire_min_move",
                self.volley.closing_fire_min_move,
            ),
            ("melee.casualty_share", self.melee.casualty_share),
            (
                "melee.pike_first_round_bonus",
                self.melee.pike_first_round_bonus,
            ),
            ("formations.change_share", self.formations.change_share),
            ("gun_drill.fire_share", self.gun_drill.fire_share),
            (
                "gun_drill.pivot_share_of_limber",
                self.gun_drill.pivot_share_of_limber,
            ),
            ("guns.falcon.limber_share", self.guns.falcon.limber_share),
            ("guns.saker.limber_share", self.guns.saker.limber_share),
            (
                "guns.culverin.limber_share",
                self.guns.culverin.limber_share,
            ),
            (
                "small_arms.musket.reload_moves",
                self.small_arms.musket.reload_moves,
            ),
            (
                "small_arms.pistol.reload_moves",
                self.small_arms.pistol.reload_moves,
            ),
            (
                "small_arms.musketoon.reload_moves",
                self.small_arms.musketoon.reload_moves,
            ),
            (
                "small_arms.musket.fire_moves",
                self.small_arms.musket.fire_moves,
            ),
            (
                "small_arms.pistol.fire_moves",
                self.small_arms.pistol.fire_moves,
            ),
            (
                "small_arms.musketoon.fire_moves",
                self.small_arms.musketoon.fire_moves,
            ),
        ]
    }

    fn die_faces(&self) -> Vec<(String, u8)> {
        let s = &self.saves;
        let i = &self.impetus;
        let mut v: Vec<(String, u8)> = vec![
            (
                "morale_points.officer_hit_on".into(),
                self.morale_points.officer_hit_on,
            ),
            ("saves.lobster".into(), s.lobster),
            ("saves.trooper".into(), s.trooper),
            ("saves.dragoon".into(), s.dragoon),
            ("saves.pikeman".into(), s.pikeman),
            ("saves.musketeer".into(), s.musketeer),
            ("saves.gunner".into(), s.gunner),
            ("gun_team.save".into(), self.gun_team.save),
            ("impetus.lobster".into(), i.lobster),
            ("impetus.trooper".into(), i.trooper),
            ("impetus.dragoon".into(), i.dragoon),
            (
                "ammunition.blast_casualty_on".into(),
                self.ammunition.blast_casualty_on,
            ),
            (
                "gun_on_gun.destroyed_on".into(),
                self.gun_on_gun.destroyed_on,
            ),
            ("gun_on_gun.wheel_on".into(), self.gun_on_gun.wheel_on),
            ("generals.hit_on".into(), self.generals.hit_on),
            (
                "generals.killed_at_most".into(),
                self.generals.killed_at_most,
            ),
            (
                "generals.wounded_at_most".into(),
                self.generals.wounded_at_most,
            ),
        ];
        for (name, w) in self.weapons() {
            v.push((format!("small_arms.{name}.hit_on"), w.hit_on.long));
            v.push((format!("small_arms.{name}.hit_on"), w.hit_on.short));
            if let Some(m) = w.hit_on.medium {
                v.push((format!("small_arms.{name}.hit_on"), m));
            }
        }
        v
    }

    fn counts(&self) -> [(&'static str, u32); 25] {
        let k = &self.formations.ranks;
        let p = &self.morale_points;
        [
            ("regiment.figure_scale", self.regiment.figure_scale),
            ("morale_points.pikemen_per_point", p.pikemen_per_point),
            ("morale_points.musketeers_per_point", p.musketeers_per_point),
            ("morale_points.troopers_per_point", p.troopers_per_point),
            ("volley.men", u32::from(self.volley.men)),
            (
                "movement.gait.steps_per_move",
                u32::from(self.movement.gait.steps_per_move),
            ),
            ("melee.rounds", u32::from(self.melee.rounds)),
            (
                "melee.enemies_at_once",
                u32::from(self.melee.enemies_at_once),
            ),
            (
                "guns.falcon.fires_every",
                u32::from(self.guns.falcon.fires_every),
            ),
            (
                "guns.saker.fires_every",
                u32::from(self.guns.saker.fires_every),
            ),
            (
                "guns.culverin.fires_every",
                u32::from(self.guns.culverin.fires_every),
            ),
            (
                "fall_of_shot.wind_gauge.sections",
                u32::from(self.fall_of_shot.wind_gauge.sections),
            ),
            (
                "formations.pike_uncharged_ranks",
                u32::from(self.formations.pike_uncharged_ranks),
            ),
            (
                "formations.per_rank_at_least",
                u32::from(self.formations.per_rank_at_least),
            ),
            ("formations.ranks.line", u32::from(k.line.pikemen)),
            ("formations.ranks.line", u32::from(k.line.musketeers)),
            ("formations.ranks.column", u32::from(k.column.pikemen)),
            ("formations.ranks.column", u32::from(k.column.musketeers)),
            ("formations.ranks.square", u32::from(k.square.pikemen)),
            ("formations.ranks.square", u32::from(k.square.musketeers)),
            (
                "formations.ranks.shot_before_pike",
                u32::from(k.shot_before_pike.pikemen),
            ),
            (
                "formations.ranks.shot_before_pike",
                u32::from(k.shot_before_pike.musketeers),
            ),
            (
                "formations.file_abreast",
                u32::from(self.formations.file_abreast),
            ),
            ("battle.horse_ranks", u32::from(self.battle.horse_ranks)),
            (
                "battle.forlorn_hope_ranks",
                u32::from(self.battle.forlorn_hope_ranks),
            ),
        ]
    }
}

impl crate::rules::RuleData for DickensonRules {
    fn validate(&self, path: &Path, text: &str) -> Result<()> {
        let bad = |key: &str, msg: String| Err(Error::at_key(path, text, key, msg));
        use crate::rules::{check_die_faces, check_distances, check_shares};
        check_distances(self.distances(), path, text)?;
        let b = &self.battle;
        let angles = [
            ("battle.front_arc_degrees", b.front_arc_degrees),
            ("battle.melee_arc_degrees", b.melee_arc_degrees),
            ("battle.advance_flank_degrees", b.advance_flank_degrees),
            ("battle.veer_degrees", b.veer_degrees),
            ("battle.veer_step_degrees", b.veer_step_degrees),
            ("battle.side_step_degrees", b.side_step_degrees),
        ];
        crate::rules::check_angles(angles, path, text)?;
        let odds = self.formations.doctrine.horse_outshoot_odds;
        if !(odds.is_finite() && odds > 0.0) {
            return bad(
                "formations.doctrine.horse_outshoot_odds",
                format!("must be odds above 0, got {odds}"),
            );
        }
        check_shares(self.shares(), path, text)?;
        check_die_faces(self.die_faces(), path, text)?;
        for (key, n) in self.counts() {
            if n == 0 {
                return bad(key, "must be 1 or more".into());
            }
        }
        let most = crate::rules::dickenson::battle::Engaged::CAPACITY;
        if usize::from(self.melee.enemies_at_once) > most {
            return bad("melee.enemies_at_once", format!("must be at most {most}"));
        }
        let p = &self.battle.pike_share;
        if [p.normal, p.pike_heavy, p.shot_heavy]
            .iter()
            .any(|s| *s > 1.0)
        {
            return bad("battle.pike_share", "must be a share from 0 to 1".into());
        }
        let f = &self.battle.size_factor;
        if [f.very_large, f.large, f.normal, f.small, f.really_small]
            .iter()
            .any(|s| !(s.is_finite() && *s > 0.0 && *s <= 10.0))
        {
            return bad(
                "battle.size_factor",
                "must be factors above 0, at most 10".into(),
            );
        }
        self.validate_bands(&bad)?;
        self.validate_guns(&bad)?;
        self.validate_morale(&bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_ruleset_loads_with_the_seed_numbers() {
        let r = DickensonRules::builtin();
        assert_eq!(r.movement.pikemen.column, 7.5);
        assert_eq!(r.movement.musketeers.square, None);
        assert_eq!(r.movement.dragoons.gallop, 36.0);
        assert_eq!(r.small_arms.pistol.medium, None);
        assert_eq!(r.small_arms.musketoon.long, 10.0);
        assert_eq!(r.small_arms.pistol.deduction.short, 2);
        assert_eq!(r.guns.culverin.maximum_range, 45.0);
        assert_eq!(r.guns.saker.hit_area.length, 3.0);
        assert_eq!(r.guns.falcon.effect_half_dice.maximum, 1);
        assert_eq!(r.fall_of_shot.errors[3][0], -8.0);
        assert_eq!(r.gun_on_gun.culverin.falcon, 2);
        assert_eq!(r.gun_on_gun.falcon.culverin, -2);
        assert_eq!(r.melee.points.lobster, 2.5);
        assert_eq!(r.impetus.lobster, 3);
        assert_eq!(r.morale.good_at_least, 8);
    }

    fn refuse(from: &str, to: &str) -> String {
        let text = BUILTIN.replacen(from, to, 1);
        assert_ne!(text, BUILTIN, "replacement {from} not found");
        DickensonRules::parse(Path::new("d.toml"), &text)
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
                "battle.front_arc_degrees",
            ),
            (
                "melee_arc_degrees = 90.0",
                "melee_arc_degrees = 190.0",
                "battle.melee_arc_degrees",
            ),
            (
                "advance_flank_degrees = 45.0",
                "advance_flank_degrees = nan",
                "battle.advance_flank_degrees",
            ),
            (
                "veer_degrees = 60.0",
                "veer_degrees = 360.0",
                "battle.veer_degrees",
            ),
            (
                "veer_step_degrees = 15.0",
                "veer_step_degrees = 181.0",
                "battle.veer_step_degrees",
            ),
            (
                "side_step_degrees = 45.0",
                "side_step_degrees = 200.0",
                "battle.side_step_degrees",
            ),
        ] {
            let e = refuse(from, to);
            assert!(
                e.contains(key) && e.contains("0 to 180 degrees"),
                "{to}: {e}"
            );
        }
    }

    #[test]
    fn bad_ruleset_files_name_file_key_and_line() {
        let e = refuse("short = 4.0", "short = 14.0");
        assert!(
            e.starts_with("d.toml:") && e.contains("small_arms.musket.long"),
            "{e}"
        );
        let e = refuse("lobster = 4\n", "lobster = 7\n");
        assert!(e.contains("saves.lobster") && e.contains("1..=6"), "{e}");
        let e = refuse("effective_range = 9.0", "effective_range = 29.0");
        assert!(e.contains("guns.falcon.effective_range"), "{e}");
        let e = refuse("    [-8.0, -4.0, 0.0, 0.0, 4.0, 8.0],\n", "");
        assert!(
            e.contains("fall_of_shot.errors") && e.contains("3 rows"),
            "{e}"
        );
        let e = refuse("stand_at_least = 6", "stand_at_least = 9");
        assert!(e.contains("morale.stand_at_least"), "{e}");
        let e = refuse("wheel_on = 5", "wheel_on = 6");
        assert!(e.contains("gun_on_gun.wheel_on"), "{e}");
        let e = refuse("by_die = [-2, -1", "by_die = [-3, -1");
        assert!(e.contains("fall_of_shot.wind_gauge.by_die"), "{e}");
        let e = refuse("horse_outshoot_odds = 1.0", "horse_outshoot_odds = 0.0");
        assert!(
            e.contains("formations.doctrine.horse_outshoot_odds") && e.contains("odds above 0"),
            "{e}"
        );
        let e = refuse("square_margin = 2.0", "square_margin = -1.0");
        assert!(e.contains("formations.doctrine.square_margin"), "{e}");
        let e = refuse("attacker = 1\n", "attacker = 1\nbogus = 1\n");
        assert!(e.contains("bogus"), "{e}");
        // The line is named: the musket's `long` is on the line after [small_arms.musket].
        let e = refuse("line = 8.0", "line = -8.0");
        assert!(e.contains("must be a distance of 0 or more, got -8"), "{e}");
        let line = BUILTIN
            .lines()
            .position(|l| l.starts_with("line = 8.0"))
            .unwrap()
            + 1;
        assert!(e.starts_with(&format!("d.toml:{line}:")), "{e}");
    }
}

//! Every Black Powder and Dickenson rule key matters, as `tests/rule_keys.rs` asks of
//! Ironsides: each leaf of `configs/rulesets/black_powder.toml` and
//! `configs/rulesets/dickenson.toml` is changed in turn (through the scenarios' own
//! `--set black_powder_rules.KEY=VALUE` overrides, read as a user's would be) and some battle or
//! some exact table must change. A key that changes nothing is a defect: the rule it names is
//! not applied, or no battle here meets it.
//!
//! Keys known to be inert today are listed with the reason ("coverage": read by the engine or a
//! table, but met by none of these battles; "defect": the rule is not applied), and the
//! rulesets' docs list them. The test fails when a key not on its list is inert, and when a key
//! listed by name starts to matter.

mod common;
mod golden_common;

use common::keys;
use ecw_sim::dice::battle_seed;
use ecw_sim::rules::dickenson::battle::Dickenson;
use ecw_sim::rules::{BlackPowder, Ruleset};
use ecw_sim::scenario::Scenario;
use golden_common::Fingerprint;

/// Battles fought per scenario for each key.
const BATTLES: u64 = 12;
/// The battles every key is tried on: the historical fields, the duels, and a fixture with
/// ground no built-in battle has (a high wall and a ford).
const SCENARIOS: [&str; 13] = [
    "marston_moor",
    "naseby",
    "edgehill",
    "first_newbury",
    "langport",
    "lansdown",
    "small_action",
    "duel_horse",
    "duel_foot_vs_horse",
    "bp_duel_pike_vs_horse",
    "bp_duel_shot",
    "bp_duel_gun_vs_foot",
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/walls_and_fords.toml"
    ),
];

/// Black Powder keys that change none of these battles and tables today, each with why.
const BLACK_POWDER_INERT: &[(&str, &str)] = &[
    (
        "command.column_modifier",
        "coverage: no regiment marches in column and no gun limbers (guns never move: docs/RULES-BLACK-POWDER.md, Not done)",
    ),
    (
        "command.road_column_modifier",
        "coverage: as command.column_modifier",
    ),
    (
        "command.enemy_near_",
        "coverage: within `command.initiative_range` (12\") a regiment moves without a command roll, so no roll meets an enemy within 8\" (12\" with the test's change); a shorter initiative range brings it in",
    ),
    (
        "derive.default_turn_limit",
        "coverage: no battle here lasts to its twelfth turn (they last 2 to 4)",
    ),
    (
        "derive.figure_scale",
        "coverage: no unit's figures cross a size band between 1:20 and 1:21",
    ),
    (
        "derive.men_for_size.",
        "coverage: read by `units::men_of` for a unit without `men`; no size band here moves with the change",
    ),
    ("derive.gun_men", "coverage: as derive.men_for_size"),
    (
        "stamina.small_max",
        "coverage: no unit's figures lie between the old and the changed bound",
    ),
    ("stamina.standard_max", "coverage: as stamina.small_max"),
    ("stamina.tiny_max", "coverage: as stamina.small_max"),
    (
        "stamina.small.elite",
        "coverage: no regiment of that size and quality here (template CVs are mostly 4 and 5: Trained)",
    ),
    ("stamina.standard.elite", "coverage: as stamina.small.elite"),
    ("stamina.tiny.raw", "coverage: as stamina.small.elite"),
    (
        "movement.dragoons.elite",
        "coverage: as stamina.small.elite",
    ),
    ("movement.gallopers.raw", "coverage: as stamina.small.elite"),
    (
        "movement.pike_block.elite",
        "coverage: as stamina.small.elite",
    ),
    (
        "movement.skirmishers.elite",
        "coverage: as stamina.small.elite",
    ),
    (
        "movement.trotters.elite",
        "coverage: as stamina.small.elite",
    ),
    ("movement.trotters.raw", "coverage: as stamina.small.elite"),
    (
        "special.elite_rally_on",
        "coverage: few regiments are Elite, and none rallies here",
    ),
    (
        "special.brave_",
        "coverage: the special rules table gives Brave, Reliable and Steady to no one",
    ),
    ("special.reliable_command", "coverage: as special.brave_"),
    ("special.steady_free_tests", "coverage: as special.brave_"),
    (
        "saves.lance_",
        "coverage: the special rules table gives Lance to no one",
    ),
    (
        "movement.building",
        "coverage: no ground has buildings, fortifications or gabions (the scenario format has none: docs/RULES-BLACK-POWDER.md, Not done)",
    ),
    (
        "melee.occupying_buildings",
        "coverage: as movement.building",
    ),
    ("saves.heavy_cover", "coverage: as movement.building"),
    (
        "shooting.heavy_guns_gabions",
        "coverage: as movement.building",
    ),
    (
        "shooting.laid_behind_gabions",
        "coverage: as movement.building",
    ),
    (
        "movement.commander_foot",
        "coverage: every commander here is mounted, and no general goes on foot",
    ),
    (
        "movement.heavy_guns",
        "coverage: guns never move once deployed (docs/RULES-BLACK-POWDER.md, Not done)",
    ),
    ("movement.medium_guns", "coverage: as movement.heavy_guns"),
    (
        "ranges.heavy.",
        "coverage: no heavy gun has a target in these battles",
    ),
    (
        "units.artillery.shooting",
        "defect-free: guns shoot `units.artillery_dice` by range band (the seed's 3-2-1); the row's shooting value only keeps the rows' shape",
    ),
];

/// Dickenson keys that change none of these battles and tables today, each with why.
const DICKENSON_INERT: &[(&str, &str)] = &[
    (
        "army.default_turn_limit",
        "coverage: no battle here is cut by the ruleset's default turn limit",
    ),
    (
        "battle.men.",
        "coverage: read by `men_of` for a unit without `men`; every unit here gives its men",
    ),
    ("battle.size_factor.", "coverage: as battle.men"),
    (
        "fall_of_shot.wind_gauge.sections",
        "defect-free: it bounds `by_die` (validation) and names the gauge in the fall-of-shot table; the shot lands by `by_die`",
    ),
    (
        "formations.column_fires",
        "coverage: a column here marches beyond the enemy's reach and deploys into line before it could fire or fight",
    ),
    (
        "formations.ranks.column.musketeers",
        "coverage: as formations.column_fires",
    ),
    (
        "movement.musketeers.column",
        "coverage: a foot regiment moves at its pikemen's rate; no forlorn hope here marches in column",
    ),
    (
        "formations.doctrine.square_margin",
        "coverage: read by the square doctrine; no square here is held closed by the margin in these battles",
    ),
    (
        "gun_drill.",
        "coverage: the guns here start sited, and none pivots, fires after limbering or is resupplied from a wagon in these battles",
    ),
    (
        "gun_team.drivers_needed",
        "coverage: no limbered gun here loses its drivers",
    ),
    (
        "guns.culverin.",
        "coverage: no gun here is a culverin (heavy)",
    ),
    ("gun_on_gun.culverin.", "coverage: as guns.culverin"),
    ("gun_on_gun.falcon.culverin", "coverage: as guns.culverin"),
    ("gun_on_gun.saker.culverin", "coverage: as guns.culverin"),
    (
        "guns.falcon.",
        "coverage: the guns here start sited and seldom limber, pull or run short in these battles",
    ),
    ("guns.saker.", "coverage: as guns.falcon"),
    (
        "movement.gait.gallop_from_halt",
        "defect-free: at one step of gait a move (`steps_per_move`) a halt reaches only a trot; it matters from three steps",
    ),
    (
        "small_arms.",
        "coverage: read by `fire` (whether a regiment may fire or reload after its move); not met in these battles",
    ),
];

/// Everything a key could change under `ruleset`: every event of each scenario's battles
/// (hashed), then what `tables` gives.
fn outcome<R: Ruleset>(
    ruleset: &R,
    overrides: &[String],
    tables: impl Fn(&ecw_sim::setup::BattleSetup) -> Option<String>,
) -> Option<String> {
    let mut s = String::new();
    for name in SCENARIOS {
        let setup = Scenario::open(name, overrides).ok()?.setup().ok()?;
        let mut b = ruleset.new_battle(&setup);
        let mut events = Fingerprint::default();
        for i in 0..BATTLES {
            ruleset.fight(&mut b, &setup, battle_seed(5, i), &mut events);
        }
        s.push_str(&format!("{:x}\n", events.0));
        if name == SCENARIOS[0] {
            s.push_str(&tables(&setup)?);
        }
    }
    Some(s)
}

#[test]
fn every_black_powder_key_changes_some_battle_or_table() {
    let bp = BlackPowder::builtin();
    let tables = |setup: &ecw_sim::setup::BattleSetup| {
        let rules = bp.rules_for(setup);
        let ids = ecw_sim::tables::black_powder::TABLE_IDS;
        keys::grids(&ids, |id| ecw_sim::tables::black_powder::build(&rules, id))
    };
    keys::check(
        "Black Powder",
        keys::inert_keys(
            include_str!("../configs/rulesets/black_powder.toml"),
            "black_powder_rules",
            BLACK_POWDER_INERT,
            |o| outcome(&bp, o, tables),
        ),
    );
}

#[test]
fn every_dickenson_key_changes_some_battle_or_table() {
    let dk = Dickenson::builtin();
    // (Its charge chain enumerates every die for a minute: the rules it follows are the
    // battles' own, and its tests cross-check it by Monte Carlo.)
    let tables = |setup: &ecw_sim::setup::BattleSetup| {
        let rules = dk.rules_for(setup);
        let ids = ecw_sim::tables::dickenson::TABLE_IDS;
        let ids: Vec<&str> = ids
            .into_iter()
            .filter(|&id| id != "dk_charge_chain")
            .collect();
        keys::grids(&ids, |id| ecw_sim::tables::dickenson::build(&rules, id))
    };
    keys::check(
        "Dickenson",
        keys::inert_keys(
            include_str!("../configs/rulesets/dickenson.toml"),
            "dickenson_rules",
            DICKENSON_INERT,
            |o| outcome(&dk, o, tables),
        ),
    );
}

/// A key that changes nothing because its rule is not applied is a defect to fix, not to list.
#[test]
fn no_black_powder_or_dickenson_key_is_listed_as_a_defect() {
    keys::no_defects(&[BLACK_POWDER_INERT, DICKENSON_INERT]);
}

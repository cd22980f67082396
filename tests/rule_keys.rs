//! Every rule key matters: each leaf of `configs/rulesets/ironsides.toml` is changed in turn
//! (through the scenarios' own `--set rules.KEY=VALUE` overrides, so a key is read exactly as
//! a user's would be) and some event of some battle (every event hashed) or some exact table
//! must change. A key that changes
//! nothing is a defect: the rule it names is not applied.
//!
//! Keys known to be inert today are listed in `KNOWN_INERT` with the reason; each is an open
//! defect recorded in docs/RULES.md ("Rule keys not yet read"). The test fails when a key not
//! on that list is inert, and also when a listed key starts to matter (so the list shrinks as
//! rules are wired in).

mod common;
mod golden_common;

use common::keys;
use ecw_sim::dice::battle_seed;
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::Scenario;
use ecw_sim::tables::{self, Options, TABLE_IDS};
use golden_common::Fingerprint;

/// Battles fought per scenario for each key.
const BATTLES: u64 = 25;
const SCENARIOS: [&str; 11] = [
    "marston_moor",
    "naseby",
    "edgehill",
    "small_action",
    "duel_horse",
    "duel_foot_vs_horse",
    // (Its medium gun fires at foot closing to short range, which the battles above may not
    // meet in their first battles.)
    "bp_duel_gun_vs_foot",
    // Fixtures for what no built-in battle meets: a camp raided and a camp reached by
    // pursuing horse; a road, bogs, cuirassiers; foot wading a bog under fire.
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/camp_raid.toml"),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/camp_reached.toml"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/foot_in_bog.toml"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/rough_going.toml"
    ),
];

/// Keys (or, ending in '.', groups of keys) that change none of these battles and tables
/// today, each with why. "coverage": the engine reads the key, but no built-in scenario meets
/// the situation in these battles (a fixture scenario that does is still to be written);
/// "defect": the rule is not applied. docs/RULES.md lists them.
const KNOWN_INERT: &[(&str, &str)] = &[
    (
        "ratings.",
        "coverage: only the rows and randomised columns the built-in scenarios use are fought; the table is proven row by row in tests/rule_caps.rs",
    ),
    (
        "named_commander.",
        "coverage: commanders no built-in scenario fields; proven by RC::named_commanders_from_the_text",
    ),
    (
        "average_commander.captain_general_radius",
        "coverage: no built-in army has an average captain-general",
    ),
    (
        "movement.artillery.",
        "coverage: every built-in gun starts sited and the artillery doctrine never limbers",
    ),
    ("movement.unlimber_cost.", "coverage: as movement.artillery"),
    (
        "movement.prolonge.",
        "coverage: the artillery doctrine never moves a sited gun",
    ),
    (
        "leadership.artillery_move_cost.",
        "coverage: as movement.artillery",
    ),
    (
        "fire.shots_per_turn.",
        "coverage: no unit meets its shot limit in these battles",
    ),
    (
        "fire.ranges.heavy.",
        "coverage: the built-in heavy guns never have a target in these battles",
    ),
    (
        "fire.ranges.pistols.",
        "coverage: horse fire only in the charge's free shot, which uses its own modifier",
    ),
    (
        "fire.ranges.infantry.long_mod",
        "defect-free: infantry has no long range, so its long modifier is never used",
    ),
    (
        "fire.ranges.very_light.",
        "coverage: the few very light guns of these scenarios rarely have a target in these battles",
    ),
    (
        "fire.horse_standing_pistols",
        "coverage: horse never stands to fire in these battles",
    ),
    (
        "close_combat.",
        "coverage: hard cover, march column, hedgehog against foot, cuirassiers and the retreat/retire ranges' far ends do not occur",
    ),
    (
        "charge.evade_",
        "coverage: the built-in doctrines never evade",
    ),
    (
        "risk.",
        "coverage: an army HQ overrun or a stampede through the enemy is rare",
    ),
    (
        "leadership.swept_away_lp_loss",
        "coverage: an unattached subordinate contacted and unhurt is rare",
    ),
    (
        "leadership.independent_table.",
        "coverage: used only with options.independent_lps = \"table\"",
    ),
    (
        "limits.cv_min_start",
        "coverage: no rolled CV falls below it",
    ),
    (
        "movement.march_column_",
        "coverage: the built-in doctrines never form march column",
    ),
    (
        "movement.no_march_column_within",
        "coverage: as movement.march_column_",
    ),
    (
        "rally.captain_general_rally_cost",
        "coverage: the built-in doctrines give out all the Captain-General's LPs",
    ),
    (
        "rally.max_per_turn",
        "coverage: no unit regains a third CV in one turn in these battles",
    ),
    (
        "scale.default_turn_limit",
        "defect-free: the scenarios set their own turn limit",
    ),
    (
        "sizes.",
        "coverage: no unit's strength lies between the old and the changed threshold",
    ),
];

/// Everything a key could change: every event of each scenario's battles (hashed), and every
/// exact table. Every scenario is fought under Ironsides (a Black Powder duel among them),
/// which its `rules.` overrides need: a scenario of another ruleset refuses them.
fn outcome(overrides: &[String]) -> Option<String> {
    let mut s = String::new();
    let under_ironsides = [
        vec![r#"ruleset="ironsides""#.to_string()],
        overrides.to_vec(),
    ]
    .concat();
    for name in SCENARIOS {
        let setup = Scenario::open(name, &under_ironsides).ok()?.setup().ok()?;
        let mut b = Battle::new(&setup);
        let mut events = Fingerprint::default();
        for i in 0..BATTLES {
            b.fight(&setup, battle_seed(5, i), &mut events);
        }
        s.push_str(&format!("{:x}\n", events.0));
        if name == SCENARIOS[0] {
            let build = |id: &str| tables::build(&setup.rules, &Options::default(), id);
            s.push_str(&keys::grids(&TABLE_IDS, build)?);
        }
    }
    Some(s)
}

#[test]
fn every_rule_key_changes_some_battle_or_table() {
    keys::check(
        "Ironsides",
        keys::inert_keys(
            include_str!("../configs/rulesets/ironsides.toml"),
            "rules",
            KNOWN_INERT,
            outcome,
        ),
    );
}

/// A key that changes nothing because its rule is not applied is a defect to fix, not to list.
#[test]
fn no_inert_key_is_a_defect() {
    keys::no_defects(&[KNOWN_INERT]);
}

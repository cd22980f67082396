//! Golden Dickenson battles: every built-in scenario's first battles under the third ruleset,
//! every event hashed, pinned here. A change that moves a fingerprint changes how Dickenson
//! battles are fought: it updates the table in the same commit and says why.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_dickenson -- --nocapture`.

mod golden_common;

use ecw_sim::rules::dickenson::battle::Dickenson;

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x87f6c3fe46b5f108),
    ("marston_moor", 0x7c3f134660d815b5),
    ("naseby", 0xcd03c027cc24ad14),
    ("roundway_down", 0x62b8af76edb91153),
    ("adwalton_moor", 0xd8376519163e03a0),
    ("lansdown", 0x754c2b665b34cf4b),
    ("first_newbury", 0x96b08f0c320f2704),
    ("langport", 0xc41a8e06d6cdbd87),
    ("small_action", 0x9dc348ea5d23a0ae),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0x08e69e9ce4e809d5),
    ("bp_duel_pike_vs_horse", 0xb17da189722dc21b),
    ("bp_duel_shot", 0xb3f1779b30f42041),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0xcf4c5a685e3bb291),
];

#[test]
fn every_builtin_scenario_fights_its_golden_dickenson_battles() {
    golden_common::check(
        &Dickenson::builtin(),
        BATTLES,
        GOLDEN,
        "tests/golden_dickenson.rs",
    );
}

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
    ("edgehill", 0xc28fe4d13d2d5372),
    ("marston_moor", 0x70ea007cf63bbf50),
    ("naseby", 0x338a5c2adc697327),
    ("roundway_down", 0x43002e45995bf049),
    ("adwalton_moor", 0x5339860a42ca1a6a),
    ("lansdown", 0x1007d4ba113d3de5),
    ("first_newbury", 0x518ae0a0f988d1ce),
    ("langport", 0x97954f274bf2b201),
    ("small_action", 0xd018f0a25792e60d),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x16c974f33abb0cad),
    ("bp_duel_pike_vs_horse", 0x1fb77ec50e9ea1d7),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0x28956ed4af367f4c),
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

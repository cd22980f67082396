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
    ("edgehill", 0x26efcb494da31a29),
    ("marston_moor", 0x5006a477a8803cef),
    ("naseby", 0x2c695820549b216e),
    ("roundway_down", 0xec3d9cf8c5286f0b),
    ("adwalton_moor", 0xc34bfbfadee16d57),
    ("lansdown", 0x6a9ba23b63cd079e),
    ("first_newbury", 0x805dfdc40d0187fd),
    ("langport", 0xbd7c66bb05a998ae),
    ("small_action", 0xa2ec943b56e336ec),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x9f3293c5b7086987),
    ("bp_duel_pike_vs_horse", 0x16c086777499d583),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0x3d33578f5bb33588),
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

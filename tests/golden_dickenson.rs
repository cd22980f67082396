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
    ("edgehill", 0xc4693c9be0146e55),
    ("marston_moor", 0x2ec27ff3f638732a),
    ("naseby", 0x576cf012fcea0d76),
    ("roundway_down", 0x326af9d6f5895b4c),
    ("adwalton_moor", 0x3152607b788f250b),
    ("lansdown", 0xcf8c37629069f953),
    ("first_newbury", 0x8d602ad02681a4c4),
    ("langport", 0x400a7f3fe3dc0874),
    ("small_action", 0x20fbf89c7726f881),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x16c974f33abb0cad),
    ("bp_duel_pike_vs_horse", 0x1fb77ec50e9ea1d7),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0xd1cfc6d4926b5ca8),
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

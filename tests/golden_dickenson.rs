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
    ("edgehill", 0x4c05ee6a2179ea0b),
    ("marston_moor", 0x647cde3b54478f05),
    ("naseby", 0x552c270765ee529e),
    ("roundway_down", 0x748b435ee53983b2),
    ("adwalton_moor", 0xcf857f3724abda35),
    ("lansdown", 0xc87c9734455ae121),
    ("first_newbury", 0x2b5ec368e68b99d1),
    ("langport", 0xb6f31b71e93f4023),
    ("small_action", 0x3256a81949387d3f),
    ("duel_horse", 0xfc8496724694d26f),
    ("duel_foot_vs_horse", 0x286650dc35038fc1),
    ("bp_duel_pike_vs_horse", 0x4efc2bc611998a75),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0x81e483c28798cbee),
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

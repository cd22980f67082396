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
    ("edgehill", 0x2d78910bdf6fc529),
    ("marston_moor", 0x451958896709b767),
    ("naseby", 0xc10d4c6d78d3a723),
    ("roundway_down", 0xfd288397a27402f4),
    ("adwalton_moor", 0x148aa273df282b99),
    ("lansdown", 0xf30677d5d895fe38),
    ("first_newbury", 0x811365ad88ce2666),
    ("langport", 0xbfc3052fb5533537),
    ("small_action", 0x5ae9309b9ab5f2fe),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x9f3293c5b7086987),
    ("bp_duel_pike_vs_horse", 0x16c086777499d583),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0x4ef307f91f335fa0),
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

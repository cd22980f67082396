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
    ("edgehill", 0x364145abec9d93d9),
    ("marston_moor", 0x7a1956a09e39f325),
    ("naseby", 0x44ccb7b31416a0ad),
    ("roundway_down", 0xfd288397a27402f4),
    ("adwalton_moor", 0xdbe2deeab7faaa11),
    ("lansdown", 0x47d88ba625c04314),
    ("first_newbury", 0xd2b71ded513cc716),
    ("langport", 0x5e17ad60e157a9e2),
    ("small_action", 0xfa239903c4c619f3),
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

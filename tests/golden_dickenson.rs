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
    ("edgehill", 0x799918cb1e6f21e4),
    ("marston_moor", 0x26c01d0d48c29a3a),
    ("naseby", 0x4d8905397ddd95c7),
    ("roundway_down", 0x6b07adc159caa80a),
    ("adwalton_moor", 0xc6911fc671ebf9a6),
    ("lansdown", 0xd46aed7c91d53659),
    ("first_newbury", 0xa7cc1fccdf5366c7),
    ("langport", 0xd98aa51a3b38d92b),
    ("small_action", 0x44b6606960ad5f25),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x2f8d275c68804d25),
    ("bp_duel_pike_vs_horse", 0xa67776125eb86af0),
    ("bp_duel_shot", 0x671c36c674e3fc71),
    ("bp_duel_gun_vs_foot", 0xd6644aaaa86ed60f),
    ("balance_template", 0x17c3c3fea9e69488),
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

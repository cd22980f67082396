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
    ("edgehill", 0x30233f1069731e99),
    ("marston_moor", 0x2b546a2ba597e160),
    ("naseby", 0x5d5a4012dafed305),
    ("roundway_down", 0xf895f76473fe96ae),
    ("adwalton_moor", 0x2d40c5496bb0ff7f),
    ("lansdown", 0xca1edcfbe6b0f59b),
    ("first_newbury", 0x00dd1192d35ca19a),
    ("langport", 0x0e7f53fdf506c8b8),
    ("small_action", 0x7bc19484dee6db42),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x9f3293c5b7086987),
    ("bp_duel_pike_vs_horse", 0x16c086777499d583),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0xae53204110665546),
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

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
    ("edgehill", 0xc773b57cf8badc7f),
    ("marston_moor", 0x31dc3a83cd24bdc0),
    ("naseby", 0xff9f653e1a1d7232),
    ("roundway_down", 0x4e18b4d0032992c5),
    ("adwalton_moor", 0xd9f0200f885395e4),
    ("lansdown", 0x12f4a677c7387a89),
    ("first_newbury", 0xcd8bcdb02f2a1918),
    ("langport", 0xd8e8e131c99802bf),
    ("small_action", 0x2cbcb2d06d4aab2c),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x11a3615e8aa9a8a6),
    ("bp_duel_pike_vs_horse", 0x467b32c56cd6aa88),
    ("bp_duel_shot", 0xb52e67f5b5952e21),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0x31bcf77a8f4856de),
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

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
    ("edgehill", 0xe45f51f3d4115910),
    ("marston_moor", 0x08a30a1f791a8a90),
    ("naseby", 0x467b44d8e361ee67),
    ("roundway_down", 0x60842e5baee8e9a6),
    ("adwalton_moor", 0xcb770e8d184545f0),
    ("lansdown", 0xfc85387ad0bfde44),
    ("first_newbury", 0xce6f3012f04fae36),
    ("langport", 0xf27e015f661efcd2),
    ("small_action", 0xf938e1a3ad574a21),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x2f8d275c68804d25),
    ("bp_duel_pike_vs_horse", 0xa67776125eb86af0),
    ("bp_duel_shot", 0x671c36c674e3fc71),
    ("bp_duel_gun_vs_foot", 0xd6644aaaa86ed60f),
    ("balance_template", 0x49b0cd14924328b2),
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

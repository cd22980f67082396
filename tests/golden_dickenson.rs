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
    ("edgehill", 0x9fc85cddf73c8f71),
    ("marston_moor", 0xa5d5bc93cdad64f4),
    ("naseby", 0xad049504a8288216),
    ("roundway_down", 0x6c8f0dc29ba17750),
    ("adwalton_moor", 0x381839b428d88e3c),
    ("lansdown", 0x79dd5433b5d9aa77),
    ("first_newbury", 0xc22b6c850f4504a4),
    ("langport", 0xe6d34d02028ef09f),
    ("small_action", 0x75530fa53137ed8e),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x7153fc873ae2c7ce),
    ("bp_duel_pike_vs_horse", 0xd73ce3f831334ce8),
    ("bp_duel_shot", 0xb52e67f5b5952e21),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0xf5599b6bcee07304),
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

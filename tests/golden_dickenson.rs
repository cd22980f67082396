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
    ("edgehill", 0x7aae37333733f538),
    ("marston_moor", 0x51abf829b7b35fcd),
    ("naseby", 0xc2d06f20a71de3ff),
    ("roundway_down", 0x611d9e2764d4aa88),
    ("adwalton_moor", 0xded8d9a77f2f6743),
    ("lansdown", 0x761ac3b056d47c10),
    ("first_newbury", 0xe2bb9af9494d62d2),
    ("langport", 0xb3ebfe1bdbe1e4fc),
    ("small_action", 0x2bf5e6c9d10771ee),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x7153fc873ae2c7ce),
    ("bp_duel_pike_vs_horse", 0xd73ce3f831334ce8),
    ("bp_duel_shot", 0xb52e67f5b5952e21),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0xb302a9cf9f504aa9),
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

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
    ("edgehill", 0xab0362bbac4fee79),
    ("marston_moor", 0x038c652cd614a124),
    ("naseby", 0xae125ab40ff45afc),
    ("roundway_down", 0x4e18b4d0032992c5),
    ("adwalton_moor", 0xca590794a23b7014),
    ("lansdown", 0x6a91732d22c5965d),
    ("first_newbury", 0xefa4e4a1a0a182fb),
    ("langport", 0xeb45b0678d23f96a),
    ("small_action", 0xb6c654d89db6f352),
    ("duel_horse", 0x868ff33c51cb6b2f),
    ("duel_foot_vs_horse", 0x76c12576ffd25bde),
    ("bp_duel_pike_vs_horse", 0x115b56cb00d2ca5e),
    ("bp_duel_shot", 0xb52e67f5b5952e21),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0x6f45061e207e39f9),
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

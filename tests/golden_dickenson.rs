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
    ("edgehill", 0xff3d9dd479ff1374),
    ("marston_moor", 0xb81cd61975ff2f97),
    ("naseby", 0x9043edb48c128476),
    ("roundway_down", 0x6c8f0dc29ba17750),
    ("adwalton_moor", 0x91a6501f9034338a),
    ("lansdown", 0xe157c0be7ec1e070),
    ("first_newbury", 0x59a6ffba05d9d681),
    ("langport", 0x38c44f3498e57384),
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

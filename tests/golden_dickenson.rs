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
    ("edgehill", 0x9e97fc134eb10d7b),
    ("marston_moor", 0xcab3db11d702f1b5),
    ("naseby", 0x4a9298688d995f4a),
    ("roundway_down", 0x8b5070f9a744f647),
    ("adwalton_moor", 0x1d79f2abd4b5378f),
    ("lansdown", 0x8e1dc4dbb75209be),
    ("first_newbury", 0x4e5cf012fc209386),
    ("langport", 0x86cfe802689e68b0),
    ("small_action", 0x35132b2c6c577c8e),
    ("duel_horse", 0x7a038014c36d6aec),
    ("duel_foot_vs_horse", 0x247ec674b38e2c52),
    ("bp_duel_pike_vs_horse", 0x1545261f19cf0a0f),
    ("bp_duel_shot", 0x474cd544dfe34864),
    ("bp_duel_gun_vs_foot", 0x454c65c6a91326e6),
    ("balance_template", 0xa0eb6d1ee9bc695f),
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

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
    ("edgehill", 0x0917df0463153c20),
    ("marston_moor", 0xc6b2c3cba525221a),
    ("naseby", 0xed1afa9014d0821a),
    ("roundway_down", 0x6b473146eab15964),
    ("adwalton_moor", 0x7dc5ce1a221b5cc0),
    ("lansdown", 0x81366316e6383182),
    ("first_newbury", 0xd8f03bf6af11e99e),
    ("langport", 0xb2e11d43bea4ca8b),
    ("small_action", 0x20c72e52e01ab688),
    ("duel_horse", 0x7a038014c36d6aec),
    ("duel_foot_vs_horse", 0x887cdb7b1a9b5002),
    ("bp_duel_pike_vs_horse", 0x1545261f19cf0a0f),
    ("bp_duel_shot", 0x474cd544dfe34864),
    ("bp_duel_gun_vs_foot", 0x454c65c6a91326e6),
    ("balance_template", 0xb0a6b04622336f98),
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

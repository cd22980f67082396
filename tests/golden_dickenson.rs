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
    ("edgehill", 0xc51a1c58c815a540),
    ("marston_moor", 0xabec797237f1d542),
    ("naseby", 0x6b9b0939f1717d7b),
    ("roundway_down", 0xc433043cda833e38),
    ("adwalton_moor", 0xa6a1489fea7ca0a1),
    ("lansdown", 0x432884a8ca4571fa),
    ("first_newbury", 0x54deac07a64436ee),
    ("langport", 0xc1e3052dc1cb32bf),
    ("small_action", 0xed634815d3b36164),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x16c974f33abb0cad),
    ("bp_duel_pike_vs_horse", 0x1fb77ec50e9ea1d7),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0xf2098f690435b8b4),
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

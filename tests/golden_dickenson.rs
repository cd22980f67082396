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
    ("edgehill", 0x808c02b9e8f6d73d),
    ("marston_moor", 0xa67506c673739e81),
    ("naseby", 0x095ca643bb46f1e0),
    ("roundway_down", 0x72eae755b8e4fcfc),
    ("adwalton_moor", 0x7dc5ce1a221b5cc0),
    ("lansdown", 0xcd61c112cb4680a8),
    ("first_newbury", 0x3d973d6d998e6c58),
    ("langport", 0xdd40b7c07b219f65),
    ("small_action", 0x04c09f03c891e2c5),
    ("duel_horse", 0x7a038014c36d6aec),
    ("duel_foot_vs_horse", 0x9689ea1694c1baef),
    ("bp_duel_pike_vs_horse", 0x55191867329bb1d9),
    ("bp_duel_shot", 0x474cd544dfe34864),
    ("bp_duel_gun_vs_foot", 0x454c65c6a91326e6),
    ("balance_template", 0x91e06576b18d9f5e),
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

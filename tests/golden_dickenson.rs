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
    ("edgehill", 0xf6706ea5c68f0288),
    ("marston_moor", 0x1c5cd8081009971f),
    ("naseby", 0x4a34658b7cdafff0),
    ("roundway_down", 0xe98ecf8cdfc9d6fa),
    ("adwalton_moor", 0xd3fe6dbd90bda439),
    ("lansdown", 0x8bea1a05f7af76c6),
    ("first_newbury", 0xc397a062d7a642cc),
    ("langport", 0x3d3f44aed6f79832),
    ("small_action", 0x336690f1cf1bee59),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0x15b3eb3da3ac2aa0),
    ("bp_duel_pike_vs_horse", 0xb17da189722dc21b),
    ("bp_duel_shot", 0x95165c350ac802d6),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0xa90ae036ed170fe9),
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

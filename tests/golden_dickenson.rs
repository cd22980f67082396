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
    ("edgehill", 0xd0bd9c24f02fe940),
    ("marston_moor", 0x7e4178b5cc2d9b8c),
    ("naseby", 0xa4d177f34184eebe),
    ("roundway_down", 0xe2b43749cb43cd89),
    ("adwalton_moor", 0x119e07ee38a1809a),
    ("lansdown", 0x64f319242460ba96),
    ("first_newbury", 0x3ba5c6556a626cf5),
    ("langport", 0x36e331b9d6962329),
    ("small_action", 0xda06a885fe93d5c1),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0x15b3eb3da3ac2aa0),
    ("bp_duel_pike_vs_horse", 0xb17da189722dc21b),
    ("bp_duel_shot", 0x95165c350ac802d6),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0xd1fa3c9a75edfcec),
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

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
    ("edgehill", 0x84bf87925fdc1ae9),
    ("marston_moor", 0x8a895d67fa2534e7),
    ("naseby", 0x871eecd71d3b2c13),
    ("roundway_down", 0x34fccbed5d07faac),
    ("adwalton_moor", 0xaa50d893539652d1),
    ("lansdown", 0x6f9365bc702689dd),
    ("first_newbury", 0xda6fec292fe4b15b),
    ("langport", 0xdc9b6212c14d542a),
    ("small_action", 0x3d6731f925cd1a27),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0x15b3eb3da3ac2aa0),
    ("bp_duel_pike_vs_horse", 0xb17da189722dc21b),
    ("bp_duel_shot", 0x95165c350ac802d6),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0x75580be4701843c9),
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

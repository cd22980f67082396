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
    ("edgehill", 0xfb14fd78ae532cac),
    ("marston_moor", 0x140d8a3414e72554),
    ("naseby", 0x81b26d3190ea1265),
    ("roundway_down", 0x11812baad27f23ed),
    ("adwalton_moor", 0x60667f092a4d5153),
    ("lansdown", 0xf8932a1fbf2163fd),
    ("first_newbury", 0xb97ba3e163ef50bc),
    ("langport", 0x83b42713246766d6),
    ("small_action", 0x64cf8521b9558e67),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x9f3293c5b7086987),
    ("bp_duel_pike_vs_horse", 0x16c086777499d583),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0x56a521599fbb9f17),
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

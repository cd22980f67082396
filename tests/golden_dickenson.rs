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
    ("edgehill", 0xa45e887809ab9a23),
    ("marston_moor", 0x9d19b9897b4e3581),
    ("naseby", 0x943de1a2653e555f),
    ("roundway_down", 0xe52a7ed13bf64eb6),
    ("adwalton_moor", 0xde40094b5d936ed2),
    ("lansdown", 0xdfd3a08bbbfa0b73),
    ("first_newbury", 0xcf06ce7e14f7537f),
    ("langport", 0x08c37e683340f846),
    ("small_action", 0x7aaff3a6fd2d3fcc),
    ("duel_horse", 0x4df23da8ff2913be),
    ("duel_foot_vs_horse", 0x6aaf595fcf656c28),
    ("bp_duel_pike_vs_horse", 0x7b2be42fdfde82c1),
    ("bp_duel_shot", 0xcda371e8c5bfc992),
    ("bp_duel_gun_vs_foot", 0x666f242679afa1c1),
    ("balance_template", 0x415a4f4b6745fd0e),
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

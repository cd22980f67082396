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
    ("edgehill", 0xe8fb7ab03ec96c2d),
    ("marston_moor", 0xfe2cfa7f83415bc9),
    ("naseby", 0x0ab89f552791689c),
    ("roundway_down", 0x4791fd333ee64746),
    ("adwalton_moor", 0xcf857f3724abda35),
    ("lansdown", 0xa30020137e8fdc5e),
    ("first_newbury", 0xdb89420155ca0abe),
    ("langport", 0xec339000afaf9976),
    ("small_action", 0x10120de0b0c49c72),
    ("duel_horse", 0xfc8496724694d26f),
    ("duel_foot_vs_horse", 0x84e25ac66f2247a1),
    ("bp_duel_pike_vs_horse", 0xffc125ffd03ee4c8),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0x4b4c556c3d6dbd5e),
    ("balance_template", 0xe0519c6b23d5518f),
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

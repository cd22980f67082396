//! Golden Black Powder battles: every built-in scenario's first battles under the second
//! ruleset, every event hashed, pinned here. A change that moves a fingerprint changes how
//! Black Powder battles are fought: it updates the table in the same commit and says why;
//! speed work never moves them.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_black_powder -- --nocapture`.

mod golden_common;

use ecw_sim::rules::black_powder::battle::BlackPowder;

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x291b8e2f2c0e8fa5),
    ("marston_moor", 0x7bc460517208f331),
    ("naseby", 0xacc01b091d8ede30),
    ("roundway_down", 0xf73af7712f62f2e0),
    ("adwalton_moor", 0x506dccd02945888c),
    ("lansdown", 0x622198c1a36b56e8),
    ("first_newbury", 0x2e81dc4e49391b20),
    ("langport", 0xab7a9cb7f6517867),
    ("small_action", 0xc76bc271e20cdf2e),
    ("duel_horse", 0xea7a516dbf0b8d63),
    ("duel_foot_vs_horse", 0xc79f047e2c44fe2a),
    ("bp_duel_pike_vs_horse", 0x06b3599566dd2cb1),
    ("bp_duel_shot", 0x6b6f6ee19e71f9a5),
    ("bp_duel_gun_vs_foot", 0x2044f77ae7a4e0a7),
    ("balance_template", 0xda9477a7e1344a2d),
];

#[test]
fn every_builtin_scenario_fights_its_golden_black_powder_battles() {
    golden_common::check(
        &BlackPowder::builtin(),
        BATTLES,
        GOLDEN,
        "tests/golden_black_powder.rs",
    );
}

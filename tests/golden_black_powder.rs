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
    ("edgehill", 0xd69be25521f5c7d0),
    ("marston_moor", 0x80d2d91316a72d07),
    ("naseby", 0x36e4385484ccaa41),
    ("roundway_down", 0x88e3870b36ee4699),
    ("adwalton_moor", 0x2ccc028f15e05f18),
    ("lansdown", 0x71d28d6e10c6f1b4),
    ("first_newbury", 0xa566953e5e5c1df5),
    ("langport", 0x21e0b8a1e8955f4d),
    ("small_action", 0xb90b42b80f4d2363),
    ("duel_horse", 0x4a9b511589787dcc),
    ("duel_foot_vs_horse", 0x5ad69e8f224f9e23),
    ("bp_duel_pike_vs_horse", 0x83902adbfd6ebf02),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0xc186803575ae0e4c),
    ("balance_template", 0x3857af07b1bed240),
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

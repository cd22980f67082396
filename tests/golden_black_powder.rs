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
    ("edgehill", 0x50e0e6fc54589ce7),
    ("marston_moor", 0x3211a6c992352bdc),
    ("naseby", 0xe88581f3f2e50156),
    ("roundway_down", 0xf41e639290d5c25a),
    ("adwalton_moor", 0x5363117f2a38049d),
    ("lansdown", 0x85955e0b3b6c6f54),
    ("first_newbury", 0xba537cbeb99d4f1f),
    ("langport", 0x0bbeea9a880c2838),
    ("small_action", 0x7f350680787c0ccc),
    ("duel_horse", 0x794167b7a389a104),
    ("duel_foot_vs_horse", 0xe22026fbd3dcd6de),
    ("bp_duel_pike_vs_horse", 0xbdfdcddb11df1c54),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0x426b187be94d5ab9),
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

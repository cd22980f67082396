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
    ("edgehill", 0x2953bb6eebbf1248),
    ("marston_moor", 0x30a44c9ded5c25c3),
    ("naseby", 0xfff268012fa9dfb1),
    ("roundway_down", 0x8055d6339ff369c9),
    ("adwalton_moor", 0xf0bd2e4db3585e6a),
    ("lansdown", 0x3e93d94e885d256e),
    ("first_newbury", 0x384976ae4438463e),
    ("langport", 0x2caa80d92002b1d0),
    ("small_action", 0x758e6aef9019a880),
    ("duel_horse", 0x794167b7a389a104),
    ("duel_foot_vs_horse", 0x879a8bc030f692d9),
    ("bp_duel_pike_vs_horse", 0x403b5054ecb57764),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x9f88fbd01c42b073),
    ("balance_template", 0x98c454d1ebdf8503),
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

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
    ("edgehill", 0x486d3c8bc3d36271),
    ("marston_moor", 0x115e2b647b959526),
    ("naseby", 0x067189157d164831),
    ("roundway_down", 0x2ae6bb829cd61c30),
    ("adwalton_moor", 0x6188720f890b8252),
    ("lansdown", 0x9bd8cc7827c7daa7),
    ("first_newbury", 0xe7b39179a866d00f),
    ("langport", 0x66312c89faf9366f),
    ("small_action", 0x7f350680787c0ccc),
    ("duel_horse", 0x794167b7a389a104),
    ("duel_foot_vs_horse", 0x5e5f4cff575fedac),
    ("bp_duel_pike_vs_horse", 0xe51997dd59eefc18),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x9f88fbd01c42b073),
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

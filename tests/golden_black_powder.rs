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
    ("edgehill", 0xaff02e6b19f1d47b),
    ("marston_moor", 0x6084541576a83e55),
    ("naseby", 0x2f93d84c6eec679f),
    ("roundway_down", 0x9d9a1b860a9c49e3),
    ("adwalton_moor", 0x633b3bda8d5f9ed0),
    ("lansdown", 0xd6da8be9c4a29cc5),
    ("first_newbury", 0x2d0647477a5054a8),
    ("langport", 0x71a7d62f4062c995),
    ("small_action", 0xeeed7eacfc6ec6ca),
    ("duel_horse", 0x098d3ff012f3661c),
    ("duel_foot_vs_horse", 0x879a8bc030f692d9),
    ("bp_duel_pike_vs_horse", 0x403b5054ecb57764),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x9f88fbd01c42b073),
    ("balance_template", 0x94247b69216b6605),
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

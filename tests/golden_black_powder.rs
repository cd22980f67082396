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
    ("edgehill", 0xbaa29b515160df06),
    ("marston_moor", 0x4ea18b5b4c9c8392),
    ("naseby", 0x4305fead9c140f65),
    ("roundway_down", 0x5376378649689b40),
    ("adwalton_moor", 0x5f06dbc1bbe59199),
    ("lansdown", 0xc42004f68de93989),
    ("first_newbury", 0x2d14f1b18536b318),
    ("langport", 0xb1dfbba726aa7af1),
    ("small_action", 0x9c8049e48eecac40),
    ("duel_horse", 0x9774771b93937880),
    ("duel_foot_vs_horse", 0x5334187ebe28c01b),
    ("bp_duel_pike_vs_horse", 0x4dbd1029fc387ff8),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0x7e8cd4128f0093f8),
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

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
    ("edgehill", 0x72c1b822769d0af3),
    ("marston_moor", 0xaa41f6ee9c85a024),
    ("naseby", 0xd51e9681a35c2419),
    ("roundway_down", 0xc2edfc8d5c0c4511),
    ("adwalton_moor", 0x2fd7ada163423f5e),
    ("lansdown", 0x2a33c9b3c815d90e),
    ("first_newbury", 0xe99db91476cce99a),
    ("langport", 0xf29e9a7424bb510f),
    ("small_action", 0x90f6960eb6e58010),
    ("duel_horse", 0x098d3ff012f3661c),
    ("duel_foot_vs_horse", 0x879a8bc030f692d9),
    ("bp_duel_pike_vs_horse", 0x403b5054ecb57764),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x9f88fbd01c42b073),
    ("balance_template", 0x25e5927ccd062526),
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

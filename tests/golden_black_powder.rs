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
    ("edgehill", 0xe4681b98bd8efae3),
    ("marston_moor", 0xf070a39268ee4ef5),
    ("naseby", 0xb27d418523eba2c7),
    ("roundway_down", 0x8f8cb37bcf581d12),
    ("adwalton_moor", 0x0f2b3876fb78d90c),
    ("lansdown", 0x78ab603601ec323e),
    ("first_newbury", 0xcf7825ebe12a6be6),
    ("langport", 0x406285ef9b6916ae),
    ("small_action", 0x25d53a09cf5eb9b0),
    ("duel_horse", 0x91e92875d026feb7),
    ("duel_foot_vs_horse", 0x879a8bc030f692d9),
    ("bp_duel_pike_vs_horse", 0x403b5054ecb57764),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x9f88fbd01c42b073),
    ("balance_template", 0xf952e50f977fae2f),
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

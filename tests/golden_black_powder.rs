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
    ("edgehill", 0x86fff3f0c07b72ed),
    ("marston_moor", 0x5b93806ec32f80e2),
    ("naseby", 0x18814a0839273d20),
    ("roundway_down", 0xe73f29731a2ed556),
    ("adwalton_moor", 0x8fe955e21f4c2aaf),
    ("lansdown", 0x9aefd1296f42110f),
    ("first_newbury", 0x175034081752c0b2),
    ("langport", 0x0beeab36a63650a2),
    ("small_action", 0x4e15785e9f194066),
    ("duel_horse", 0x2ca22d5512465511),
    ("duel_foot_vs_horse", 0x3a1a226a306f241c),
    ("bp_duel_pike_vs_horse", 0x4e38c9fff97f2fa9),
    ("bp_duel_shot", 0x34a83a3309a56135),
    ("bp_duel_gun_vs_foot", 0x72f8dec782efa8cb),
    ("balance_template", 0xe9e94fcd4252ffad),
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

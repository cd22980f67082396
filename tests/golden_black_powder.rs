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
    ("edgehill", 0xd1f01532c09b4573),
    ("marston_moor", 0xa6c55cf05aa9ee97),
    ("naseby", 0x33e8cdddf4a925c1),
    ("roundway_down", 0x54604ea1229cca90),
    ("adwalton_moor", 0x3154800665031c5e),
    ("lansdown", 0x94eb05ccc65ef531),
    ("first_newbury", 0xa8b1d4a4ee17b173),
    ("langport", 0x7a5e395e5c976fb3),
    ("small_action", 0x1aa1bc08c15d06d8),
    ("duel_horse", 0x9774771b93937880),
    ("duel_foot_vs_horse", 0x5334187ebe28c01b),
    ("bp_duel_pike_vs_horse", 0x4dbd1029fc387ff8),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0xf9266fa332e04a6f),
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

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
    ("edgehill", 0x6a3f50ad297238fd),
    ("marston_moor", 0x16ffa21541a8127c),
    ("naseby", 0xb556684a8d01f6c5),
    ("roundway_down", 0xad65832e57a34d5b),
    ("adwalton_moor", 0xca881a9b55b3e5ba),
    ("lansdown", 0x6a7943e831f7d1cb),
    ("first_newbury", 0xba27ba079795fb35),
    ("langport", 0x395a12adb0d7b523),
    ("small_action", 0xdf161d2770be6205),
    ("duel_horse", 0x794167b7a389a104),
    ("duel_foot_vs_horse", 0xe22026fbd3dcd6de),
    ("bp_duel_pike_vs_horse", 0xbdfdcddb11df1c54),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0x2c0246fc429ea801),
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

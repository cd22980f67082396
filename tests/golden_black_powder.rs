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
    ("edgehill", 0x875fa8f0ce358c35),
    ("marston_moor", 0x642b50470dddd225),
    ("naseby", 0x265ed4bfaba52c16),
    ("roundway_down", 0xf2c6d3d1447fab67),
    ("adwalton_moor", 0x7096e68096f44e28),
    ("lansdown", 0xc7d87983e3814c1c),
    ("first_newbury", 0x02131b6a23ffe8c1),
    ("langport", 0x4fa9086848674bea),
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

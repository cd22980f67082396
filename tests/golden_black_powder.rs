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
    ("edgehill", 0x31af6d5fcceaeb62),
    ("marston_moor", 0x0e37d6c29636fd99),
    ("naseby", 0xa5df46f0a4d277de),
    ("roundway_down", 0xd94e346053918b97),
    ("adwalton_moor", 0x4803206f47841636),
    ("lansdown", 0xcf9b82d30c2b62d4),
    ("first_newbury", 0x05a60e82c19988eb),
    ("langport", 0xf11b1dd75e7b09e1),
    ("small_action", 0x07964a78cd8486c9),
    ("duel_horse", 0x65956baf17ecef96),
    ("duel_foot_vs_horse", 0xe22026fbd3dcd6de),
    ("bp_duel_pike_vs_horse", 0xbdfdcddb11df1c54),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0xb985c91e3e7f0700),
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

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
    ("edgehill", 0x1992ae9228db4ad4),
    ("marston_moor", 0x95f0d63543a77bea),
    ("naseby", 0xb93b0ac70c39f851),
    ("roundway_down", 0xe444d904cf5f7aad),
    ("adwalton_moor", 0xb325cf9843f6fcb9),
    ("lansdown", 0x30a85d4f7b466f91),
    ("first_newbury", 0xa36ba46d16fefa6b),
    ("langport", 0x569d81f483bf86e4),
    ("small_action", 0x92c2f00d31b3898b),
    ("duel_horse", 0x794167b7a389a104),
    ("duel_foot_vs_horse", 0xe22026fbd3dcd6de),
    ("bp_duel_pike_vs_horse", 0xbdfdcddb11df1c54),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0xd7866096692d7bbc),
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

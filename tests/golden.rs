//! Golden battles: every built-in scenario's first battles, every event hashed, pinned here as
//! chess engines pin perft counts. A change that moves a fingerprint changes how battles are
//! fought: it updates the table in the same commit and says why in the commit message.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test golden
//! -- --nocapture`.

mod golden_common;

use ecw_sim::rules::Ironsides;

/// Battles per scenario.
const BATTLES: u64 = 150;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x79ebb9ea68633706),
    ("marston_moor", 0xf1f253db093abf6f),
    ("naseby", 0xe469646de5cfcb55),
    ("roundway_down", 0x715463ecb5ce40b6),
    ("adwalton_moor", 0xdc93a275033bc03b),
    ("lansdown", 0xe9c841db746f8c67),
    ("first_newbury", 0xeb68d12b01232782),
    ("langport", 0x7aac65e256919740),
    ("small_action", 0x73c8539494afb57c),
    ("duel_horse", 0x613436f9a443fe7d),
    ("duel_foot_vs_horse", 0xc8aa58c9b668e441),
    ("bp_duel_pike_vs_horse", 0xce9b8d96a9f66f3d),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x77e87e52dba47b9d),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

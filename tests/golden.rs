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
    ("edgehill", 0xd9e385448ed64133),
    ("marston_moor", 0x57f4fc875a09f919),
    ("naseby", 0x866e9dd273f1656f),
    ("roundway_down", 0x2b90476a332dbc9e),
    ("adwalton_moor", 0x756eed47be1f53a3),
    ("lansdown", 0xb2cbedf1471cde7a),
    ("first_newbury", 0xe0ae10caa253bcf1),
    ("langport", 0xc71791ea6ee700bd),
    ("small_action", 0xd27a02087cb6c629),
    ("duel_horse", 0x613436f9a443fe7d),
    ("duel_foot_vs_horse", 0xc8aa58c9b668e441),
    ("bp_duel_pike_vs_horse", 0xce9b8d96a9f66f3d),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0xbef3db2f3fa9bfdc),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

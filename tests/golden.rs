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
    ("edgehill", 0x5ea35f760368dea7),
    ("marston_moor", 0x3e4c0639e353313d),
    ("naseby", 0x53f85f40fd72af99),
    ("roundway_down", 0x150e4aa2cad0b06e),
    ("adwalton_moor", 0x515c141b809d7b46),
    ("lansdown", 0x2179fd48945bc4e1),
    ("first_newbury", 0x34d0ffba230fbd4a),
    ("langport", 0x4ae6144f95d76872),
    ("small_action", 0x0a2ddbea712b7c27),
    ("duel_horse", 0x613436f9a443fe7d),
    ("duel_foot_vs_horse", 0xe657f619224f5f89),
    ("bp_duel_pike_vs_horse", 0xce9b8d96a9f66f3d),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x5639b6524895b5bc),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

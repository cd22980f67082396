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
    ("edgehill", 0x35aee29585c845aa),
    ("marston_moor", 0xc47e73077287d296),
    ("naseby", 0x541229693c7debc4),
    ("roundway_down", 0x8de31638f7088b83),
    ("adwalton_moor", 0xa3c7f10510fda840),
    ("lansdown", 0xff18aefa5a2073d2),
    ("first_newbury", 0x9a8ef13ad3e26eaa),
    ("langport", 0x0f1d8fd684365333),
    ("small_action", 0xe28b6b440a2801a6),
    ("duel_horse", 0x613436f9a443fe7d),
    ("duel_foot_vs_horse", 0xe657f619224f5f89),
    ("bp_duel_pike_vs_horse", 0xce9b8d96a9f66f3d),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0xd55a39233906c32a),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

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
    ("edgehill", 0xdd01d30c9e01dce3),
    ("marston_moor", 0xc122f4d3801a94d0),
    ("naseby", 0x05fb1cd02b4d7180),
    ("roundway_down", 0xf6e39b2dd96ccbe1),
    ("adwalton_moor", 0x4aca6614807da113),
    ("lansdown", 0x85ba92b8ce83f5bb),
    ("first_newbury", 0xc3b34012cfeae42f),
    ("langport", 0x769990bfb51bf93e),
    ("small_action", 0xf610956f1f1d7ec9),
    ("duel_horse", 0x918a24b0b9b605d2),
    ("duel_foot_vs_horse", 0xc8aa58c9b668e441),
    ("bp_duel_pike_vs_horse", 0xce9b8d96a9f66f3d),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x5723053ac4cbc8a3),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

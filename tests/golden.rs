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
    ("edgehill", 0x3816e43d185c4654),
    ("marston_moor", 0x60a22cb271f36de6),
    ("naseby", 0x27eafaab56b82a43),
    ("roundway_down", 0x5430af222a92c75a),
    ("adwalton_moor", 0x7de03c88d3e8c61f),
    ("lansdown", 0x8279440535313d52),
    ("first_newbury", 0x332dce53e8c77550),
    ("langport", 0x4838169c91fb5d4e),
    ("small_action", 0xa8c29e4b53f0d37f),
    ("duel_horse", 0x116bfd9ee9e8a080),
    ("duel_foot_vs_horse", 0xff7a5cf3ffea1d0e),
    ("bp_duel_pike_vs_horse", 0x7d504204061d1f75),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x7b1a69aa6af4f124),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

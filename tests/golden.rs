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
    ("edgehill", 0x4299b8b29063d4ad),
    ("marston_moor", 0xc0e5427fd518aeeb),
    ("naseby", 0x54252a5a58939ad4),
    ("roundway_down", 0x85863b879a5923c4),
    ("adwalton_moor", 0x7de03c88d3e8c61f),
    ("lansdown", 0x854e7d5c322b7340),
    ("first_newbury", 0x746a019c2119ed41),
    ("langport", 0x3261a75eb526e031),
    ("small_action", 0xa8c29e4b53f0d37f),
    ("duel_horse", 0x116bfd9ee9e8a080),
    ("duel_foot_vs_horse", 0xff7a5cf3ffea1d0e),
    ("bp_duel_pike_vs_horse", 0x7d504204061d1f75),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x2e3545c1f1815aed),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

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
    ("edgehill", 0x0175a52464f0a50d),
    ("marston_moor", 0x33d768aa7141f067),
    ("naseby", 0x20b61fd6d7b4a823),
    ("roundway_down", 0xcf5bce26f4ff1392),
    ("adwalton_moor", 0x7de03c88d3e8c61f),
    ("lansdown", 0x19575fe8f562252e),
    ("first_newbury", 0x48560f1a47a7ff59),
    ("langport", 0x6c19885d522115fc),
    ("small_action", 0xcf38af00e5640699),
    ("duel_horse", 0x116bfd9ee9e8a080),
    ("duel_foot_vs_horse", 0xff7a5cf3ffea1d0e),
    ("bp_duel_pike_vs_horse", 0x7d504204061d1f75),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0xc5ef8bc2ed0dd2f8),
];

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    golden_common::check(&Ironsides, BATTLES, GOLDEN, "tests/golden.rs");
}

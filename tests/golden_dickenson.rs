//! Golden Dickenson battles: every built-in scenario's first battles under the third ruleset,
//! every event hashed, pinned here. A change that moves a fingerprint changes how Dickenson
//! battles are fought: it updates the table in the same commit and says why.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_dickenson -- --nocapture`.

mod golden_common;

use ecw_sim::rules::dickenson::battle::Dickenson;

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x905d7030d51e473e),
    ("marston_moor", 0x7a879cc0d1e033e1),
    ("naseby", 0x5f4e6745e42e3a8a),
    ("roundway_down", 0xc61dae02caf4e3fb),
    ("adwalton_moor", 0xc34bfbfadee16d57),
    ("lansdown", 0x760668c08c789e3f),
    ("first_newbury", 0xef96a1eeedd5dda6),
    ("langport", 0x28cf7f44596a0059),
    ("small_action", 0xcf7539cf6249a8e4),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0xf5fe5f676b82e9f2),
    ("bp_duel_pike_vs_horse", 0xf7e09a12e6d3bf12),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0xd081924732c67c28),
];

#[test]
fn every_builtin_scenario_fights_its_golden_dickenson_battles() {
    golden_common::check(
        &Dickenson::builtin(),
        BATTLES,
        GOLDEN,
        "tests/golden_dickenson.rs",
    );
}

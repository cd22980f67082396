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
    ("edgehill", 0x268c26299bfd0bf1),
    ("marston_moor", 0x8b049ff3d954e3e1),
    ("naseby", 0x69c8af06047565a6),
    ("roundway_down", 0x1ecb17b10c2690dd),
    ("adwalton_moor", 0x979f0b4789f0eaf8),
    ("lansdown", 0xff02e2742fabe70b),
    ("first_newbury", 0xb8cc8cbae6ca600a),
    ("langport", 0xd6d9dac7642ebbfa),
    ("small_action", 0x9b7a5db63f2d0f42),
    ("duel_horse", 0x1f479e43071418fa),
    ("duel_foot_vs_horse", 0x6aaf595fcf656c28),
    ("bp_duel_pike_vs_horse", 0x7b2be42fdfde82c1),
    ("bp_duel_shot", 0x57e3cf7330cd602c),
    ("bp_duel_gun_vs_foot", 0x666f242679afa1c1),
    ("balance_template", 0xa247facd4031f418),
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

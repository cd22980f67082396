//! Golden Black Powder battles: every built-in scenario's first battles under the second
//! ruleset, every event hashed, pinned here. A change that moves a fingerprint changes how
//! Black Powder battles are fought: it updates the table in the same commit and says why;
//! speed work never moves them.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_black_powder -- --nocapture`.

mod golden_common;

use ecw_sim::rules::black_powder::battle::BlackPowder;

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x3ee272fd7a6ffcc9),
    ("marston_moor", 0x4cb8ee9063bce1ad),
    ("naseby", 0x34a7d8286ed24c32),
    ("roundway_down", 0x1e2537d3d2decab5),
    ("adwalton_moor", 0x4b994133e472a458),
    ("lansdown", 0x602d76602ae3fc2d),
    ("first_newbury", 0x485d97c8ca69c04a),
    ("langport", 0xb6c5cf1a6818f7f0),
    ("small_action", 0x1c33309ba46a10b2),
    ("duel_horse", 0x9774771b93937880),
    ("duel_foot_vs_horse", 0x33029e9444bde4c8),
    ("bp_duel_pike_vs_horse", 0x2f72b9fc449674ca),
    ("bp_duel_shot", 0x5b74e9c37f7c59e4),
    ("bp_duel_gun_vs_foot", 0x464e8249ce1191fb),
    ("balance_template", 0x77c57d0a70905df4),
];

#[test]
fn every_builtin_scenario_fights_its_golden_black_powder_battles() {
    golden_common::check(
        &BlackPowder::builtin(),
        BATTLES,
        GOLDEN,
        "tests/golden_black_powder.rs",
    );
}

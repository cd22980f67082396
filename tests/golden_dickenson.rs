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
    ("edgehill", 0xfbbe0caa125b54a8),
    ("marston_moor", 0x886e6699c9c55f00),
    ("naseby", 0x6f134c5dbde59583),
    ("roundway_down", 0xa573fbcca9bc0d60),
    ("adwalton_moor", 0x13230715f864768b),
    ("lansdown", 0x131cb422ac7951d8),
    ("first_newbury", 0x08461edfe889d2d4),
    ("langport", 0x2208b885b9ad4fc2),
    ("small_action", 0x45754d307b17c0fa),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0x15b3eb3da3ac2aa0),
    ("bp_duel_pike_vs_horse", 0xb17da189722dc21b),
    ("bp_duel_shot", 0x95165c350ac802d6),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0x9576b3393bc7b7f3),
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

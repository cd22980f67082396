//! Golden Dickenson battles: every built-in scenario's first battles under the third ruleset,
//! every event hashed, pinned here. A change that moves a fingerprint changes how Dickenson
//! battles are fought: it updates the table in the same commit and says why.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_dickenson -- --nocapture`.

use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::Dickenson;
use ecw_sim::scenario::{Scenario, builtin_names};

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0xc28fe4d13d2d5372),
    ("marston_moor", 0xcbceea3a8da8ef12),
    ("naseby", 0x338a5c2adc697327),
    ("roundway_down", 0x43002e45995bf049),
    ("adwalton_moor", 0x5339860a42ca1a6a),
    ("lansdown", 0xc4c1343d82ad635c),
    ("first_newbury", 0x518ae0a0f988d1ce),
    ("langport", 0x97954f274bf2b201),
    ("small_action", 0xfc015554e7180074),
    ("duel_horse", 0xf10a41f81e6db38b),
    ("duel_foot_vs_horse", 0x16c974f33abb0cad),
    ("bp_duel_pike_vs_horse", 0x1fb77ec50e9ea1d7),
    ("bp_duel_shot", 0xd6a466fbac399e8a),
    ("bp_duel_gun_vs_foot", 0xae14138abfb86606),
    ("balance_template", 0x28956ed4af367f4c),
];

/// FNV-1a over the debug form of every event.
struct Fingerprint(u64);

impl Observer for Fingerprint {
    fn event(&mut self, e: &Event) {
        for &b in format!("{e:?}\n").as_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn fingerprint(name: &str) -> u64 {
    let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
    let dk = Dickenson::builtin();
    let mut b = dk.new_battle(&setup);
    let mut fp = Fingerprint(0xcbf2_9ce4_8422_2325);
    for i in 0..BATTLES {
        dk.fight(&mut b, &setup, battle_seed(1, i), &mut fp);
    }
    fp.0
}

#[test]
fn every_builtin_scenario_fights_its_golden_dickenson_battles() {
    let now: Vec<(&str, u64)> = builtin_names().map(|n| (n, fingerprint(n))).collect();
    if std::env::var_os("ECW_GOLDEN_PRINT").is_some() {
        for (n, f) in &now {
            println!("    (\"{n}\", {f:#018x}),");
        }
    }
    assert_eq!(
        now.len(),
        GOLDEN.len(),
        "a golden fingerprint for every built-in scenario"
    );
    let moved: Vec<String> = now
        .iter()
        .filter(|(n, f)| GOLDEN.iter().find(|(g, _)| g == n).map(|(_, v)| v) != Some(f))
        .map(|(n, f)| format!("{n}: now {f:#018x}"))
        .collect();
    assert!(
        moved.is_empty(),
        "golden Dickenson battles moved (a change in how they are fought must update \
         tests/golden_dickenson.rs and say why):\n{}",
        moved.join("\n")
    );
}

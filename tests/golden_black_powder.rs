//! Golden Black Powder battles: every built-in scenario's first battles under the second
//! ruleset, every event hashed, pinned here. A change that moves a fingerprint changes how
//! Black Powder battles are fought: it updates the table in the same commit and says why;
//! speed work never moves them.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_black_powder -- --nocapture`.

use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::black_powder::battle::BlackPowder;
use ecw_sim::scenario::{Scenario, builtin_names};

/// Battles per scenario.
const BATTLES: u64 = 100;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x291b8e2f2c0e8fa5),
    ("marston_moor", 0x7bc460517208f331),
    ("naseby", 0xacc01b091d8ede30),
    ("roundway_down", 0xf73af7712f62f2e0),
    ("adwalton_moor", 0x506dccd02945888c),
    ("lansdown", 0x622198c1a36b56e8),
    ("first_newbury", 0x2e81dc4e49391b20),
    ("langport", 0xab7a9cb7f6517867),
    ("small_action", 0xc76bc271e20cdf2e),
    ("duel_horse", 0xea7a516dbf0b8d63),
    ("duel_foot_vs_horse", 0xc79f047e2c44fe2a),
    ("bp_duel_pike_vs_horse", 0x06b3599566dd2cb1),
    ("bp_duel_shot", 0x6b6f6ee19e71f9a5),
    ("bp_duel_gun_vs_foot", 0x2044f77ae7a4e0a7),
    ("balance_template", 0xda9477a7e1344a2d),
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
    let bp = BlackPowder::builtin();
    let mut b = bp.new_battle(&setup);
    let mut fp = Fingerprint(0xcbf2_9ce4_8422_2325);
    for i in 0..BATTLES {
        bp.fight(&mut b, &setup, battle_seed(1, i), &mut fp);
    }
    fp.0
}

#[test]
fn every_builtin_scenario_fights_its_golden_black_powder_battles() {
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
        "golden Black Powder battles moved (a change in how they are fought must update \
         tests/golden_black_powder.rs and say why):\n{}",
        moved.join("\n")
    );
}

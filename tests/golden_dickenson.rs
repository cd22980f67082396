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
    ("edgehill", 0x2196e578f538afad),
    ("marston_moor", 0x52d3dace12cb55d1),
    ("naseby", 0xe5133a658d15660b),
    ("roundway_down", 0x79fe2446506ac54e),
    ("adwalton_moor", 0x07235444c0d33fda),
    ("lansdown", 0x531d1313fb4550c1),
    ("first_newbury", 0x9770f1d75b54e2c7),
    ("langport", 0x1da3625e10bba91b),
    ("small_action", 0x6da7b52f60d37371),
    ("duel_horse", 0x0fbe9d92f6697d73),
    ("duel_foot_vs_horse", 0xe6281dd2efd6aa30),
    ("bp_duel_pike_vs_horse", 0xe36723e8ac7af91f),
    ("bp_duel_shot", 0x108531d8f699269d),
    ("bp_duel_gun_vs_foot", 0x31701a965e4775c6),
    ("balance_template", 0x6a62f8da31051ea7),
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

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
    ("edgehill", 0xb05458ba7257a0c4),
    ("marston_moor", 0x77e3e2c68a794fd6),
    ("naseby", 0x9fd8eab78370d030),
    ("roundway_down", 0xbf9826c8b5fa952c),
    ("adwalton_moor", 0x58a71930f9b5cda4),
    ("lansdown", 0x323d779bc143b21b),
    ("first_newbury", 0x20d28633f4ad7a7b),
    ("langport", 0x5f91e4e34f835ced),
    ("small_action", 0xbee502842d380a22),
    ("duel_horse", 0x0fbe9d92f6697d73),
    ("duel_foot_vs_horse", 0xd765d7c14e4a3cb6),
    ("bp_duel_pike_vs_horse", 0x1f772ba3c175f021),
    ("bp_duel_shot", 0xb5a432cc626f6af8),
    ("bp_duel_gun_vs_foot", 0x31701a965e4775c6),
    ("balance_template", 0x5c10014c3eccd156),
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

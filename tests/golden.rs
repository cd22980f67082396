//! Golden battles: every built-in scenario's first battles, every event hashed, pinned here as
//! chess engines pin perft counts. A change that moves a fingerprint changes how battles are
//! fought: it updates the table in the same commit and says why in the commit message.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test golden
//! -- --nocapture`.

use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::{Scenario, builtin_names};

/// Battles per scenario.
const BATTLES: u64 = 150;

/// (scenario, fingerprint of its first `BATTLES` battles of master seed 1).
const GOLDEN: &[(&str, u64)] = &[
    ("edgehill", 0x3816e43d185c4654),
    ("marston_moor", 0x60a22cb271f36de6),
    ("naseby", 0x27eafaab56b82a43),
    ("roundway_down", 0x5430af222a92c75a),
    ("adwalton_moor", 0x7de03c88d3e8c61f),
    ("lansdown", 0x8279440535313d52),
    ("first_newbury", 0x332dce53e8c77550),
    ("langport", 0x4838169c91fb5d4e),
    ("small_action", 0xa8c29e4b53f0d37f),
    ("duel_horse", 0x116bfd9ee9e8a080),
    ("duel_foot_vs_horse", 0xff7a5cf3ffea1d0e),
    ("bp_duel_pike_vs_horse", 0x7d504204061d1f75),
    ("bp_duel_shot", 0x0a5454f65c6bef6c),
    ("bp_duel_gun_vs_foot", 0xd2df8eff8e1bc378),
    ("balance_template", 0x7b1a69aa6af4f124),
];

/// FNV-1a over the debug form of every event: stable across platforms and Rust versions
/// (the standard library's hasher is not), exact to the bit for positions.
struct Fingerprint(u64);

impl Fingerprint {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Observer for Fingerprint {
    fn event(&mut self, e: &Event) {
        self.add(format!("{e:?}\n").as_bytes());
    }
}

fn fingerprint(name: &str) -> u64 {
    let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
    let mut b = Battle::new(&setup);
    let mut fp = Fingerprint(0xcbf2_9ce4_8422_2325);
    for i in 0..BATTLES {
        b.fight(&setup, battle_seed(1, i), &mut fp);
    }
    fp.0
}

#[test]
fn every_builtin_scenario_fights_its_golden_battles() {
    let now: Vec<(&str, u64)> = builtin_names().map(|n| (n, fingerprint(n))).collect();
    if std::env::var_os("ECW_GOLDEN_PRINT").is_some() {
        for (n, f) in &now {
            println!("    (\"{n}\", {f:#018x}),");
        }
    }
    let moved: Vec<String> = now
        .iter()
        .filter(|(n, f)| GOLDEN.iter().find(|(g, _)| g == n).map(|(_, v)| v) != Some(f))
        .map(|(n, f)| format!("{n}: now {f:#018x}"))
        .collect();
    assert!(
        moved.is_empty(),
        "golden battles moved (a change in how battles are fought must update tests/golden.rs \
         and say why):\n{}",
        moved.join("\n")
    );
}

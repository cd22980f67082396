//! The golden battles' harness, one for the three rulesets: every built-in scenario's first
//! battles of master seed 1 fought under a ruleset, every event hashed, against a pinned table.

use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::Ruleset;
use ecw_sim::scenario::generate::generated;
use ecw_sim::scenario::{Scenario, builtin_names};

/// FNV-1a over the debug form of every event: stable across platforms and Rust versions
/// (the standard library's hasher is not), exact to the bit for positions.
pub struct Fingerprint(pub u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Observer for Fingerprint {
    fn event(&mut self, e: &Event) {
        for &b in format!("{e:?}\n").as_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The fingerprint of scenario `name`'s first `battles` battles under `rules`.
fn fingerprint<R: Ruleset>(rules: &R, name: &str, battles: u64) -> u64 {
    fingerprint_of(rules, &Scenario::open(name, &[]).unwrap(), battles)
}

/// The fingerprint of `scenario`'s first `battles` battles under `rules`.
fn fingerprint_of<R: Ruleset>(rules: &R, scenario: &Scenario, battles: u64) -> u64 {
    let setup = scenario.setup().unwrap();
    let mut b = rules.new_battle(&setup);
    let mut fp = Fingerprint::default();
    for i in 0..battles {
        rules.fight(&mut b, &setup, battle_seed(1, i), &mut fp);
    }
    fp.0
}

/// Fights every built-in scenario under `rules` and asserts each matches `golden`, naming
/// those that moved and the file (`file`) whose table a deliberate change must update.
/// `ECW_GOLDEN_PRINT=1` prints the table as it is now.
#[allow(dead_code)] // each golden test crate uses `check` or `check_generated`
pub fn check<R: Ruleset>(rules: &R, battles: u64, golden: &[(&str, u64)], file: &str) {
    let now: Vec<(&str, u64)> = builtin_names()
        .map(|n| (n, fingerprint(rules, n, battles)))
        .collect();
    if std::env::var_os("ECW_GOLDEN_PRINT").is_some() {
        for (n, f) in &now {
            println!("    (\"{n}\", {f:#018x}),");
        }
    }
    assert_eq!(
        now.len(),
        golden.len(),
        "a golden fingerprint for every built-in scenario"
    );
    let moved: Vec<String> = now
        .iter()
        .filter(|(n, f)| golden.iter().find(|(g, _)| g == n).map(|(_, v)| v) != Some(f))
        .map(|(n, f)| format!("{n}: now {f:#018x}"))
        .collect();
    assert!(
        moved.is_empty(),
        "golden {} battles moved (a change in how they are fought must update {file} and say \
         why):\n{}",
        rules.name(),
        moved.join("\n")
    );
}

/// Fights the generated battles of the scaling bench (`units`, `battles` of each) under `rules`
/// and asserts each matches `golden`: the large armies' ways of searching (the grids) pinned
/// as the built-in scenarios pin the small ones'.
#[allow(dead_code)]
pub fn check_generated<R: Ruleset>(rules: &R, golden: &[(usize, u64, u64)], file: &str) {
    let now: Vec<(usize, u64, u64)> = golden
        .iter()
        .map(|&(units, battles, _)| {
            let scenario = generated(units).unwrap();
            (units, battles, fingerprint_of(rules, &scenario, battles))
        })
        .collect();
    if std::env::var_os("ECW_GOLDEN_PRINT").is_some() {
        for (units, battles, f) in &now {
            println!("    ({units}, {battles}, {f:#018x}),");
        }
    }
    assert_eq!(
        now,
        golden,
        "golden generated {} battles moved (a change in how they are fought must update {file} \
         and say why)",
        rules.name()
    );
}

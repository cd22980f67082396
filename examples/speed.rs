//! Quick timing of whole battles (a developer's aid; the criterion benches are in benches/).
//!
//! `speed [SCENARIO] [N] [--events]`: fights battles 0..N of master seed 1 with one reused
//! `Battle` and prints the time per battle and a fingerprint of the results. With `--events`
//! the fingerprint covers every event of every battle (slower: the events are formatted), so
//! an optimisation that should not change the battles can be checked to change nothing.
use std::hash::{DefaultHasher, Hash, Hasher};

use ecw_sim::events::{Event, NullObserver, Observer};
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::Scenario;

/// Hashes the debug form of every event (exact, floats included).
struct HashObserver(DefaultHasher);

impl Observer for HashObserver {
    fn event(&mut self, e: &Event) {
        format!("{e:?}").hash(&mut self.0);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let events = args.iter().any(|a| a == "--events");
    let mut pos = args.iter().filter(|a| !a.starts_with("--"));
    let name = pos.next().cloned().unwrap_or_else(|| "marston_moor".into());
    let n: u64 = pos.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let setup = Scenario::open(&name, &[]).unwrap().setup().unwrap();
    let mut b = Battle::new(&setup);
    let mut fp = DefaultHasher::new();
    let mut obs = HashObserver(DefaultHasher::new());
    let t = std::time::Instant::now();
    let mut dice = 0;
    let mut turns = 0u64;
    for i in 0..n {
        let seed = ecw_sim::dice::battle_seed(1, i);
        let s = if events {
            b.fight(&setup, seed, &mut obs)
        } else {
            b.fight(&setup, seed, &mut NullObserver)
        };
        dice += s.dice_rolled;
        turns += u64::from(s.turns);
        format!("{s:?}").hash(&mut fp);
    }
    let el = t.elapsed();
    let events_fp = if events {
        format!(", events {:016x}", obs.0.finish())
    } else {
        String::new()
    };
    println!(
        "{name}: {} units, {:.1} us/battle, {:.0} dice/battle, {:.2} turns/battle, results {:016x}{events_fp}",
        setup.units.len(),
        el.as_secs_f64() * 1e6 / n as f64,
        dice as f64 / n as f64,
        turns as f64 / n as f64,
        fp.finish()
    );
}

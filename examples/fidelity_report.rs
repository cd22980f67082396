//! Prints what a scenario's battles did, by arm: wins, shots and melees, general casualties.
//! `cargo run --release --example fidelity_report -- SCENARIO [BATTLES]`. It uses only the
//! engine's public battle and events, so the same file measures any version of the engine.
use ecw_sim::army::UnitKind;
use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, EventLog, Outcome};
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::Scenario;

fn arm(k: UnitKind) -> usize {
    match k {
        UnitKind::Foot(_) | UnitKind::ForlornHope => 0,
        UnitKind::Horse(_) => 1,
        UnitKind::Dragoons => 2,
        UnitKind::Artillery(_) => 3,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .first()
        .cloned()
        .unwrap_or_else(|| "marston_moor".into());
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let setup = Scenario::open(&name, &[]).unwrap().setup().unwrap();
    let mut b = Battle::new(&setup);
    let (mut wins, mut shots, mut melees) = ([0u64; 3], [0u64; 4], [0u64; 4]);
    let (mut hits, mut captured) = (0u64, 0u64);
    for i in 0..n {
        let mut log = EventLog::default();
        let s = b.fight(&setup, battle_seed(1, i), &mut log);
        wins[match s.outcome {
            Outcome::Won(side) => side.index(),
            Outcome::Draw => 2,
        }] += 1;
        for e in &log.0 {
            match *e {
                Event::Fired { unit, .. } => shots[arm(setup.units[usize::from(unit)].kind)] += 1,
                Event::Melee {
                    attacker, defender, ..
                } => {
                    for u in [attacker, defender] {
                        melees[arm(setup.units[usize::from(u)].kind)] += 1;
                    }
                }
                Event::GeneralCasualty { captured: c, .. } => {
                    hits += 1;
                    captured += u64::from(c);
                }
                _ => {}
            }
        }
    }
    let pc = |x: u64| 100.0 * x as f64 / n as f64;
    let per = |x: u64| x as f64 / n as f64;
    println!(
        "{name}, {n} battles: Parliament {:.1}%, Royalists {:.1}%, draws {:.1}% | shots a battle: foot {:.1}, horse {:.1}, dragoons {:.1}, guns {:.1} | unit-melees a battle: foot {:.1}, horse {:.1}, dragoons {:.1}, guns {:.1} | general hits a battle {:.2}, captures {:.3}",
        pc(wins[0]),
        pc(wins[1]),
        pc(wins[2]),
        per(shots[0]),
        per(shots[1]),
        per(shots[2]),
        per(shots[3]),
        per(melees[0]),
        per(melees[1]),
        per(melees[2]),
        per(melees[3]),
        per(hits),
        per(captured)
    );
}

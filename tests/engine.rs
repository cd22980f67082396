//! Whole battles: every battle ends, the armies close and fight, and the same seed replays.

mod common;

use ecw_sim::army::HorseKind;
use ecw_sim::events::{Event, EventLog, NullObserver, Outcome};
use ecw_sim::rules::ironsides::battle::Battle;

#[test]
fn battles_end_and_fight() {
    let setup = common::small_battle(HorseKind::Trotters, HorseKind::Gallopers);
    let mut battle = Battle::new(&setup);
    let mut melees = 0;
    let mut wins = [0; 3];
    let n = 200;
    for seed in 0..n {
        let mut log = EventLog::default();
        let s = battle.fight(&setup, seed, &mut log);
        assert!(s.turns <= setup.turn_limit);
        assert!(matches!(log.0.last(), Some(Event::BattleEnded { .. })));
        if log.0.iter().any(|e| matches!(e, Event::Melee { .. })) {
            melees += 1;
        }
        wins[match s.outcome {
            Outcome::Won(side) => side.index(),
            Outcome::Draw => 2,
        }] += 1;
    }
    eprintln!("melees in {melees}/{n}; wins {wins:?}");
    assert!(melees * 100 >= n * 95, "battles with a melee: {melees}/{n}");
}

#[test]
fn same_seed_same_events() {
    let setup = common::small_battle(HorseKind::Trotters, HorseKind::Gallopers);
    let mut a = Battle::new(&setup);
    let mut b = Battle::new(&setup);
    for seed in [1, 7, 99] {
        let (mut la, mut lb) = (EventLog::default(), EventLog::default());
        let sa = a.fight(&setup, seed, &mut la);
        let sb = b.fight(&setup, seed, &mut lb);
        assert_eq!(sa, sb);
        assert_eq!(la.0, lb.0);
        // Reuse of the same Battle gives the same result too.
        let sc = a.fight(&setup, seed, &mut NullObserver);
        assert_eq!(sa, sc);
    }
}

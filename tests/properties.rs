//! Property tests over random seeds and random small battles: CV stays within 0..=starting CV,
//! no unit acts after it is gone, every battle ends within the turn limit, and the same seed
//! gives the same event stream.

mod common;

use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::ironsides::battle::Battle;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 24 } else { 200 }, ..ProptestConfig::default() })]

    #[test]
    fn battles_keep_their_invariants(
        seed in any::<u64>(),
        kinds in prop::collection::vec(any::<u8>(), 1..12),
        cvs in prop::collection::vec(any::<u8>(), 1..12),
        xs in prop::collection::vec(any::<u8>(), 4..12),
        doctrines in prop::collection::vec(any::<u8>(), 1..8),
        turn_limit in 1u16..20,
    ) {
        let setup = common::random_battle(&kinds, &cvs, &xs, &doctrines, turn_limit);
        let mut battle = Battle::new(&setup);
        let mut log = EventLog::default();
        let summary = battle.fight(&setup, seed, &mut log);
        prop_assert!(summary.turns <= setup.turn_limit);
        let ended = matches!(log.0.last(), Some(Event::BattleEnded { .. }));
        prop_assert!(ended);
        let start: Vec<u8> = setup.units.iter().map(|u| u.start_cv).collect();
        let mut gone = vec![false; setup.units.len()];
        for e in &log.0 {
            match *e {
                Event::CvLost { unit, cv, .. } | Event::CvGained { unit, cv, .. } | Event::Rally { unit, cv, .. } => {
                    prop_assert!(cv <= start[usize::from(unit)], "{e:?}");
                }
                Event::Moved { unit, .. } | Event::Fired { unit, .. } | Event::ChargeDeclared { unit, .. } | Event::Melee { attacker: unit, .. } => {
                    prop_assert!(!gone[usize::from(unit)], "unit {unit} acted after it was gone: {e:?}");
                }
                Event::Disintegrated { unit } | Event::LeftTable { unit } | Event::PursuitLost { unit, .. } => gone[usize::from(unit)] = true,
                _ => {}
            }
        }
        for u in &battle.units {
            prop_assert!(u.cv <= u.start_cv);
        }
        // The same seed gives the same event stream, on a fresh battle and on a reused one.
        let mut again = EventLog::default();
        let s2 = Battle::new(&setup).fight(&setup, seed, &mut again);
        prop_assert_eq!(summary, s2);
        prop_assert_eq!(&log.0, &again.0);
    }
}

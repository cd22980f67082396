//! Property tests over random small Black Powder battles (random kinds, ratings, positions,
//! doctrines and turn limits): stamina left never rises above a regiment's stamina nor falls
//! other than by what each loss says, no regiment acts once gone, each battle ends once within
//! its turn limit, the losses stay within the start, and the same seed gives the same events on
//! a fresh battle and a reused one.

mod common;

use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::{BlackPowder, Ruleset};
use ecw_sim::setup::BattleSetup;
use proptest::prelude::*;

/// The shared random battle, its turn limit also the scenario's (Black Powder reads that).
fn random_battle(
    kinds: &[u8],
    cvs: &[u8],
    xs: &[u8],
    doctrines: &[u8],
    turn_limit: u16,
) -> BattleSetup {
    let mut s = common::random_battle(kinds, cvs, xs, doctrines, turn_limit);
    s.scenario_turn_limit = Some(turn_limit);
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 24 } else { 200 }, ..ProptestConfig::default() })]

    #[test]
    fn black_powder_battles_keep_their_invariants(
        seed in any::<u64>(),
        kinds in prop::collection::vec(any::<u8>(), 1..12),
        cvs in prop::collection::vec(any::<u8>(), 1..12),
        xs in prop::collection::vec(any::<u8>(), 4..12),
        doctrines in prop::collection::vec(any::<u8>(), 1..8),
        turn_limit in 1u16..20,
    ) {
        let setup = random_battle(&kinds, &cvs, &xs, &doctrines, turn_limit);
        let bp = BlackPowder::builtin();
        let mut battle = bp.new_battle(&setup);
        let mut log = EventLog::default();
        let summary = bp.fight(&mut battle, &setup, seed, &mut log);
        prop_assert!(summary.turns <= turn_limit);
        let ends = log.0.iter().filter(|e| matches!(e, Event::BattleEnded { .. })).count();
        prop_assert_eq!(ends, 1);
        let ended_last = matches!(log.0.last(), Some(Event::BattleEnded { .. }));
        prop_assert!(ended_last);
        for side in 0..2 {
            prop_assert!(summary.cv_lost[side] <= summary.cv_start[side]);
        }
        let stamina: Vec<u8> = bp.layout(&setup).units.iter().map(|u| u.start_cv).collect();
        let mut left = stamina.clone();
        let mut gone = vec![false; setup.units.len()];
        for e in &log.0 {
            let acting = match e {
                Event::BlackPowder(d) => d.actor(),
                Event::Moved { unit, .. } | Event::CvLost { unit, .. } => Some(*unit),
                _ => None,
            };
            if let Some(u) = acting {
                prop_assert!(!gone[usize::from(u)], "unit {} acted after it was gone: {:?}", u, e);
            }
            match *e {
                Event::CvLost { unit, amount, cv, .. } => {
                    let l = &mut left[usize::from(unit)];
                    prop_assert_eq!(*l - amount, cv, "{:?}", e);
                    *l = cv;
                }
                Event::Rally { unit, cv, .. } => {
                    prop_assert!(cv <= stamina[usize::from(unit)], "{:?}", e);
                    left[usize::from(unit)] = cv;
                }
                Event::Disintegrated { unit } | Event::LeftTable { unit } => {
                    gone[usize::from(unit)] = true
                }
                _ => {}
            }
        }
        // A regiment the engine has gone is one the events said left (none arrive late here).
        for r in &battle.regiments {
            prop_assert_eq!(r.gone, gone[usize::from(r.unit)]);
        }
        // The same seed gives the same battle, on a fresh engine and on a reused one.
        let mut again = EventLog::default();
        let s2 = bp.fight(&mut bp.new_battle(&setup), &setup, seed, &mut again);
        prop_assert_eq!(summary, s2);
        prop_assert_eq!(&log.0, &again.0);
        let mut reused = EventLog::default();
        let s3 = bp.fight(&mut battle, &setup, seed, &mut reused);
        prop_assert_eq!(summary, s3);
        prop_assert_eq!(&log.0, &reused.0);
    }
}

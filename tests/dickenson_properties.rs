//! Property tests over random small Dickenson battles (random kinds, strengths, places, ground
//! and doctrine): every battle ends within the move limit and last; a gone regiment never acts,
//! fires, is fired at or fights again; figures left only fall, by exactly each loss; the
//! summary's figures lost never exceed the start; the same seed gives the same events.

mod dickenson_common;

use dickenson_common::{Spec, setup_with};
use ecw_sim::army::{Side, UnitKind};
use ecw_sim::battlefield::{Area, AreaKind, Ground, LinearObstacle, ObstacleKind, Vec2};
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::Dickenson;
use ecw_sim::rules::dickenson::events::Detail;
use proptest::prelude::*;

const DOCTRINES: [&str; 4] = ["rupert", "cromwell", "cautious", "hold_the_line"];

/// Up to 5 units a side from the bytes: kind, men (0 to 1,270), x, and y within the side's half.
fn specs(units: &[(u8, u8, u8, u8)]) -> Vec<Spec> {
    units
        .iter()
        .enumerate()
        .map(|(i, &(k, men, x, y))| {
            let side = if i % 2 == 0 {
                Side::Parliament
            } else {
                Side::Royalist
            };
            let kind = UnitKind::ALL[usize::from(k) % UnitKind::ALL.len()];
            let y = f64::from(y % 20);
            let y = if side == Side::Parliament {
                2.0 + y
            } else {
                46.0 - y
            };
            (side, kind, u32::from(men) * 5, 2.0 + f64::from(x % 68), y)
        })
        .collect()
}

/// Open ground, or with a wood, a hill, a bog, a hedge, a wall or a stream across the middle.
fn ground(kind: u8) -> Ground {
    let mut g = Ground::open(72.0, 48.0);
    let rect = |kind| Area {
        kind,
        points: vec![
            Vec2::new(20.0, 18.0),
            Vec2::new(50.0, 18.0),
            Vec2::new(50.0, 30.0),
            Vec2::new(20.0, 30.0),
        ],
    };
    let line = |kind, severity| LinearObstacle {
        kind,
        a: Vec2::new(0.0, 24.0),
        b: Vec2::new(72.0, 24.0),
        severity,
        hard_cover: false,
    };
    match kind % 7 {
        1 => g.areas.push(rect(AreaKind::Woods)),
        2 => g.areas.push(rect(AreaKind::Hill)),
        3 => g.areas.push(rect(AreaKind::Bog)),
        4 => g.obstacles.push(line(ObstacleKind::Hedge, 1.0)),
        5 => g.obstacles.push(line(ObstacleKind::Wall, 1.0)),
        6 => g
            .obstacles
            .push(line(ObstacleKind::Stream, f64::from(kind % 2))),
        _ => {}
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 24 } else { 200 }, ..ProptestConfig::default() })]

    #[test]
    fn dickenson_battles_keep_their_invariants(
        seed in any::<u64>(),
        units in prop::collection::vec(any::<(u8, u8, u8, u8)>(), 2..10),
        terrain in any::<u8>(),
        doctrine in 0usize..4,
    ) {
        let setup = setup_with(&specs(&units), DOCTRINES[doctrine], ground(terrain));
        let dk = Dickenson::builtin();
        let start: Vec<u8> = dk.layout(&setup).units.iter().map(|u| u.start_cv).collect();
        let mut battle = dk.new_battle(&setup);
        let mut log = EventLog::default();
        let summary = dk.fight(&mut battle, &setup, seed, &mut log);
        prop_assert!(summary.turns <= battle.turn_limit);
        let ended = matches!(log.0.last(), Some(Event::BattleEnded { .. }));
        prop_assert!(ended);
        let mut left = start.clone();
        let mut gone = vec![false; start.len()];
        for e in &log.0 {
            let acting: &[u16] = match e {
                Event::Moved { unit, .. } | Event::CvLost { unit, .. } => &[*unit],
                Event::Dickenson(
                    Detail::Volley { unit, target, .. }
                    | Detail::GunShot { unit, target, .. }
                    | Detail::FormationThrow { unit, target, .. },
                )
                | Event::ChargeDeclared { unit, target, .. } => &[*unit, *target],
                Event::Melee { attacker, defender, .. } => &[*attacker, *defender],
                _ => &[],
            };
            for u in acting {
                prop_assert!(!gone[usize::from(*u)], "unit {u} after it was gone: {e:?}");
            }
            match *e {
                Event::CvLost { unit, amount, cv, .. } => {
                    let l = &mut left[usize::from(unit)];
                    prop_assert!(amount > 0 && *l >= amount && *l - amount == cv, "{e:?}");
                    *l = cv;
                }
                Event::Rally { unit, cv, .. } => prop_assert_eq!(cv, left[usize::from(unit)]),
                Event::Disintegrated { unit } | Event::LeftTable { unit } => {
                    prop_assert!(!gone[usize::from(unit)]);
                    gone[usize::from(unit)] = true;
                }
                _ => {}
            }
        }
        for side in Side::BOTH {
            prop_assert!(summary.cv_lost[side.index()] <= summary.cv_start[side.index()]);
        }
        let mut again = EventLog::default();
        dk.fight(&mut battle, &setup, seed, &mut again);
        prop_assert_eq!(&log.0, &again.0);
    }
}

//! Dickenson melee against several enemies at once, fought through the engine: a square
//! charged on two faces fights each charger from the face it touches, a line charged in front
//! and flank fights only the enemy in its front ("troops can only fight the way they are
//! facing"), and each side's losses in the whole melee decide who won it (ruling,
//! `melee.enemies_at_once`).
//!
//! Figures at 1:20: 720 foot are 18 pikemen and 18 musketeers. Every regiment is 3" wide and
//! 1" deep; Parliament faces +y, the Royalists -y.

mod dickenson_common;

use std::sync::Arc;

use dickenson_common::{battle, setup};
use ecw_sim::army::{FootBalance, Side, UnitKind};
use ecw_sim::battlefield::Vec2;
use ecw_sim::dice::DiceSource;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::dickenson::battle::Battle;
use ecw_sim::rules::dickenson::battle::regiment::Formation;
use ecw_sim::rules::dickenson::morale::Add;

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);

/// Every die a 1: no volley hits, every save fails, each melee die scores 1. The dice thrown
/// in melee depend only on who fights, which is what these tests look at.
struct Ones(u64);

impl DiceSource for Ones {
    fn d6(&mut self) -> u8 {
        self.0 += 1;
        1
    }
    fn rolled(&self) -> u64 {
        self.0
    }
    fn below(&mut self, _n: u32) -> u32 {
        0
    }
}

/// The melee rounds of a log: (enemy of regiment 0, regiment 0's dice, the enemy's dice).
fn rounds_of_0(l: &EventLog) -> Vec<(u16, u8, u8)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Melee {
                attacker: 0,
                defender,
                attacker_dice,
                defender_dice,
                ..
            } => Some((defender, attacker_dice, defender_dice)),
            _ => None,
        })
        .collect()
}

/// Regiment 0 (Parliament, at (36, 20)) in `formation`, and two Royalist foot regiments at
/// `at`, each facing it, 4 to 6" off (more than half their 6" move: they charge home).
fn beset(formation: Formation, at: [(f64, f64); 2]) -> Battle {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 20.0),
        (Side::Royalist, FOOT, 720, at[0].0, at[0].1),
        (Side::Royalist, FOOT, 720, at[1].0, at[1].1),
    ]);
    let mut b = battle(&s);
    let rules = b.rules.clone();
    b.regiments[0].form(formation, &rules);
    for e in [1, 2] {
        b.regiments[e].facing = (b.regiments[0].pos - b.regiments[e].pos).facing();
        let gap = b.gap(0, e);
        assert!(gap > 4.0 && gap < 6.0, "{e}: {gap}");
    }
    b
}

/// Both charge home, then the melee phase.
fn charged_twice(b: &mut Battle) -> EventLog {
    let (mut d, mut l) = (Ones(0), EventLog::default());
    b.charge(1, 0, &mut d, &mut l);
    b.charge(2, 0, &mut d, &mut l);
    b.melee_phase(&mut d, &mut l);
    l
}

/// Whether each side's melee result is as its losses say: the side that lost fewer figures
/// in the whole melee (regiment 0 against 1 and 2 together) won it, and only that side.
fn won_by_losses(b: &Battle) {
    let mine = u32::from(b.regiments[0].melee_lost);
    let theirs = u32::from(b.regiments[1].melee_lost) + u32::from(b.regiments[2].melee_lost);
    assert_eq!(b.regiments[0].won_melee, theirs > mine, "{mine} v {theirs}");
    for e in [1, 2] {
        assert_eq!(b.regiments[e].won_melee, mine > theirs, "{e}");
        assert_eq!(
            b.adds(e, Some(0)).has(Add::FewerCasualties),
            mine > theirs,
            "{e}"
        );
    }
    assert_eq!(b.adds(0, Some(1)).has(Add::FewerCasualties), theirs > mine);
}

/// A SQUARE CHARGED ON BOTH FLANKS fights both chargers (ruling: every enemy in contact, each
/// from the face it touches). Each face holds a quarter of the square's bodies (5 pikemen, 5
/// musketeers): in the first round its front rank is too few points for a die; in the second
/// the face's 4 or 5 pikemen are 6 points or more, a die, against each charger. Each charger
/// in line throws 3 dice in the first round and 7 in the second, as against a square alone.
/// The square's losses are those of both fights, and they decide the melee against the two
/// chargers' losses together.
#[test]
fn ml1_a_square_charged_on_two_faces_fights_each_from_its_face() {
    let mut b = beset(Formation::Square, [(42.0, 18.0), (30.0, 18.0)]);
    let l = charged_twice(&mut b);
    let sq = b.regiments[0].engaged;
    assert_eq!(sq.iter().collect::<Vec<_>>(), vec![1, 2]);
    for e in [1, 2] {
        assert_eq!(b.regiments[e].engaged.iter().collect::<Vec<_>>(), vec![0]);
    }
    assert_eq!(
        rounds_of_0(&l),
        vec![(1, 0, 3), (1, 1, 7), (2, 0, 3), (2, 1, 7)],
    );
    // Both fights' losses count against the square.
    let from = |e: u16| {
        l.0.iter()
            .filter_map(|ev| match *ev {
                Event::Melee {
                    attacker: 0,
                    defender,
                    defender_hits,
                    ..
                } if defender == e => Some(u32::from(defender_hits)),
                _ => None,
            })
            .sum::<u32>()
    };
    assert!(from(1) > 0 && from(2) > 0);
    assert!(u32::from(b.regiments[0].melee_lost) > from(1));
    won_by_losses(&b);
}

/// A LINE CHARGED IN FRONT AND FLANK fights only the enemy in its front: against the one on
/// its flank (108 degrees off its front, beyond its 90 of melee) it throws no die in either
/// round, while that enemy fights it all the same. The line's front (9 pikemen and 9
/// musketeers in its front rank, 2 + 1 dice) is all against the enemy in front.
#[test]
fn ml2_a_line_charged_in_front_and_flank_fights_only_to_its_front() {
    let mut b = beset(Formation::Line, [(36.0, 25.5), (42.0, 18.0)]);
    assert!(b.bearing(0, b.regiments[2].pos) > 100.0);
    let l = charged_twice(&mut b);
    let rounds = rounds_of_0(&l);
    assert_eq!(rounds.len(), 4, "{rounds:?}");
    let front: Vec<_> = rounds.iter().filter(|r| r.0 == 1).collect();
    let flank: Vec<_> = rounds.iter().filter(|r| r.0 == 2).collect();
    assert_eq!(front[0].1, 3, "{rounds:?}");
    assert!(front.iter().all(|r| r.1 > 0 && r.2 > 0), "{rounds:?}");
    assert!(flank.iter().all(|r| r.1 == 0 && r.2 > 0), "{rounds:?}");
    won_by_losses(&b);
}

/// ONE ENEMY AT A TIME (`melee.enemies_at_once = 1`): a regiment in melee has no room for a
/// second charger (the doctrine offers no charge at it); under the built-in 4 it has. One
/// that withdraws frees its enemy, who sees it go, and keeps it in melee with the other.
#[test]
fn ml3_room_for_enemies_follows_the_ruling() {
    let mut b = beset(Formation::Square, [(42.0, 18.0), (30.0, 18.0)]);
    let (mut d, mut l) = (Ones(0), EventLog::default());
    assert!(b.open_to_charge(0));
    b.charge(1, 0, &mut d, &mut l);
    assert!(b.regiments[0].engaged.contains(1));
    assert!(b.open_to_charge(0));
    Arc::make_mut(&mut b.rules).melee.enemies_at_once = 1;
    assert!(!b.open_to_charge(0));
    Arc::make_mut(&mut b.rules).melee.enemies_at_once = 4;
    b.charge(2, 0, &mut d, &mut l);
    b.disengage(1);
    assert_eq!(b.regiments[0].engaged.iter().collect::<Vec<_>>(), vec![2]);
    assert!(b.regiments[0].enemy_withdrew && b.regiments[1].engaged.is_none());
    b.disengage(2);
    assert!(b.regiments[0].engaged.is_none() && b.regiments[0].rounds == 0);
}

/// ONE MELEE, EVERY REGIMENT JOINED TO IT (ruling: each side's losses summed): a chain of
/// four, Parliament's 0 fighting Royalist 1, Parliament's 2 charging 1 in flank, Royalist 3
/// charging 2 in the rear, is one melee. With 2 and 2 figures lost by Parliament's regiments
/// and 3 and 5 by the Royalists', Parliament lost fewer (4 against 8): regiment 0 has the
/// fewer-casualties add although its own enemy lost only 3 (summing only its own enemies
/// against its side's would say 4 against 3, and withhold it); the Royalists have it not.
#[test]
fn ml4_a_chain_of_melees_is_one_melee() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 20.0),
        (Side::Royalist, FOOT, 720, 36.0, 25.5),
        (Side::Parliament, FOOT, 720, 43.0, 22.2),
        (Side::Royalist, FOOT, 720, 60.0, 40.0),
    ]);
    let mut b = battle(&s);
    let (mut d, mut l) = (Ones(0), EventLog::default());
    let face = |b: &mut Battle, x: usize, t: usize| {
        b.regiments[x].facing = (b.regiments[t].pos - b.regiments[x].pos).facing();
    };
    face(&mut b, 1, 0);
    b.charge(1, 0, &mut d, &mut l);
    face(&mut b, 2, 1);
    b.charge(2, 1, &mut d, &mut l);
    b.regiments[3].pos = b.regiments[2].pos + Vec2::new(5.5, 0.0);
    face(&mut b, 3, 2);
    b.charge(3, 2, &mut d, &mut l);
    let engaged = |b: &Battle, x: usize| b.regiments[x].engaged.iter().collect::<Vec<_>>();
    assert_eq!(engaged(&b, 0), vec![1]);
    assert_eq!(engaged(&b, 1), vec![0, 2]);
    assert_eq!(engaged(&b, 2), vec![1, 3]);
    assert_eq!(engaged(&b, 3), vec![2]);
    b.melee_phase(&mut d, &mut l);
    assert!((0..4).all(|x| b.regiments[x].fought));
    for (x, lost) in [(0, 2), (1, 3), (2, 2), (3, 5)] {
        b.regiments[x].melee_lost = lost;
    }
    // The losses written by hand: each melee's sums made again, as the melee phase makes them.
    b.sum_melees();
    assert!(b.adds(0, Some(1)).has(Add::FewerCasualties));
    assert!(b.adds(2, Some(1)).has(Add::FewerCasualties));
    assert!(!b.adds(1, Some(0)).has(Add::FewerCasualties));
    assert!(!b.adds(3, Some(2)).has(Add::FewerCasualties));
}

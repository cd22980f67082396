//! Whole Dickenson battles: they end, both sides fight, the same seed gives the same events
//! (fresh or reused), the summary's losses are the events', a referee finds nothing wrong in
//! the built-in battles, no battle allocates once warm, the runner's files are byte-identical on
//! one thread or two, and the engine's volleys, gun shots and morale throws follow the exact
//! tables (Monte Carlo at fixed seeds, within five standard errors).

mod common;
mod dickenson_common;

use common::cli::{ok, s, scratch};
use dickenson_common::{battle, setup};
use ecw_sim::army::{FootBalance, GunWeight, HorseKind, Side, UnitKind};
use ecw_sim::dice::{SeededDice, battle_seed};
use ecw_sim::events::{Event, EventLog, NullObserver, Outcome};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::DickensonRules;
use ecw_sim::rules::dickenson::battle::{Dickenson, Engaged, State};
use ecw_sim::rules::dickenson::events::{Detail, Fall};
use ecw_sim::rules::dickenson::gunnery::Calibre;
use ecw_sim::rules::dickenson::morale::MoraleResult;
use ecw_sim::rules::dickenson::volley::{Arm, Band};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;
use ecw_sim::tables::dickenson::{hit_chance, morale_chances, volley_dist};

/// Counts this thread's heap allocations.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Counting;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    pub fn allocations() -> u64 {
        ALLOCATIONS.with(Cell::get)
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const SCENARIOS: [&str; 6] = [
    "marston_moor",
    "naseby",
    "edgehill",
    "small_action",
    "duel_horse",
    "duel_foot_vs_horse",
];

fn scenario(name: &str) -> BattleSetup {
    Scenario::load_builtin(name, &[])
        .and_then(|s| s.setup())
        .expect("built-in scenario")
}

fn log(
    dk: &Dickenson,
    b: &mut <Dickenson as Ruleset>::Battle,
    s: &BattleSetup,
    seed: u64,
) -> Vec<Event> {
    let mut l = EventLog::default();
    dk.fight(b, s, seed, &mut l);
    l.0
}

#[test]
fn battles_end_and_both_sides_fight() {
    let dk = Dickenson::builtin();
    let setup = scenario("marston_moor");
    let mut b = dk.new_battle(&setup);
    let (mut wins, mut fire, mut melee, mut guns, mut routs) = ([0u32; 2], [0u32; 2], 0, 0, 0);
    for i in 0..40 {
        let events = log(&dk, &mut b, &setup, battle_seed(7, i));
        let ended: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::BattleEnded { outcome, turn } => Some((*outcome, *turn)),
                _ => None,
            })
            .collect();
        assert_eq!(ended.len(), 1, "battle {i} ends once");
        assert!(ended[0].1 <= b.turn_limit);
        if let Outcome::Won(w) = ended[0].0 {
            wins[w.index()] += 1;
        }
        for e in &events {
            match *e {
                Event::Dickenson(Detail::Volley { unit, .. } | Detail::GunShot { unit, .. }) => {
                    let side = setup.units[usize::from(unit)].side;
                    fire[side.index()] += 1;
                    guns += u32::from(setup.units[usize::from(unit)].kind.is_gun());
                }
                Event::Melee { .. } => melee += 1,
                Event::Rout { .. } => routs += 1,
                _ => {}
            }
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "both sides win some: {wins:?}");
    assert!(fire[0] > 0 && fire[1] > 0 && guns > 0 && melee > 0 && routs > 0);
}

#[test]
fn the_same_seed_gives_the_same_battle_fresh_or_reused() {
    let dk = Dickenson::builtin();
    let setup = scenario("marston_moor");
    let mut reused = dk.new_battle(&setup);
    let a = log(&dk, &mut reused, &setup, battle_seed(1, 3));
    let _ = log(&dk, &mut reused, &setup, battle_seed(1, 4));
    let again = log(&dk, &mut reused, &setup, battle_seed(1, 3));
    let mut fresh = dk.new_battle(&setup);
    let fresh = log(&dk, &mut fresh, &setup, battle_seed(1, 3));
    assert_eq!(a, again);
    assert_eq!(a, fresh);
    assert_ne!(a, log(&dk, &mut reused, &setup, battle_seed(1, 4)));
}

/// A referee over the event stream of every built-in battle: a gone regiment never acts or
/// suffers again; figures left fall by exactly what each loss says and never rise; the
/// summary's figures lost are the losses plus what the gone regiments still had; the loser's
/// army broke; the battle ends last.
#[test]
fn the_referee_finds_nothing_wrong_in_any_built_in_battle() {
    let dk = Dickenson::builtin();
    for name in SCENARIOS {
        let setup = scenario(name);
        let start: Vec<u8> = dk.layout(&setup).units.iter().map(|u| u.start_cv).collect();
        let mut b = dk.new_battle(&setup);
        for i in 0..30 {
            let mut l = EventLog::default();
            let sum = dk.fight(&mut b, &setup, battle_seed(5, i), &mut l);
            let events = l.0;
            let mut gone = vec![false; start.len()];
            let mut left = start.clone();
            for e in &events {
                let acting: &[u16] = match e {
                    Event::CvLost { unit, .. }
                    | Event::Moved { unit, .. }
                    | Event::Rally { unit, .. }
                    | Event::Dickenson(Detail::Morale { unit, .. } | Detail::Losses { unit, .. })
                    | Event::Rout { unit, .. }
                    | Event::Retreat { unit, .. } => &[*unit],
                    Event::Dickenson(
                        Detail::Volley { unit, target, .. }
                        | Detail::GunShot { unit, target, .. }
                        | Detail::FormationThrow { unit, target, .. },
                    )
                    | Event::ChargeDeclared { unit, target, .. } => &[*unit, *target],
                    Event::Melee {
                        attacker, defender, ..
                    } => &[*attacker, *defender],
                    Event::Disintegrated { unit } | Event::LeftTable { unit } => {
                        assert!(!gone[usize::from(*unit)], "{name} {i}: gone twice: {e:?}");
                        gone[usize::from(*unit)] = true;
                        &[]
                    }
                    _ => &[],
                };
                for u in acting {
                    assert!(
                        !gone[usize::from(*u)],
                        "{name} battle {i}: gone unit in {e:?}"
                    );
                }
                if let Event::CvLost {
                    unit, amount, cv, ..
                } = *e
                {
                    let l = &mut left[usize::from(unit)];
                    assert!(amount > 0 && *l - amount == cv, "{name} battle {i}: {e:?}");
                    *l = cv;
                }
            }
            for side in Side::BOTH {
                let lost: u32 = (0..start.len())
                    .filter(|&u| setup.units[u].side == side)
                    .map(|u| {
                        u32::from(if gone[u] {
                            start[u]
                        } else {
                            start[u] - left[u]
                        })
                    })
                    .sum();
                assert_eq!(sum.cv_lost[side.index()], lost, "{name} battle {i}");
            }
            if let Outcome::Won(w) = sum.outcome {
                assert!(
                    events
                        .iter()
                        .any(|e| matches!(e, Event::ArmyBroken { side, .. } if *side == w.other()))
                );
            }
            assert!(matches!(events.last(), Some(Event::BattleEnded { .. })));
        }
    }
}

#[test]
fn battles_allocate_nothing_once_warm() {
    let dk = Dickenson::builtin();
    for name in ["small_action", "marston_moor"] {
        let setup = scenario(name);
        let mut b = dk.new_battle(&setup);
        for i in 0..20 {
            dk.fight(&mut b, &setup, battle_seed(7, i), &mut NullObserver);
        }
        let before = counting::allocations();
        for i in 20..220 {
            dk.fight(&mut b, &setup, battle_seed(7, i), &mut NullObserver);
        }
        let n = counting::allocations() - before;
        assert_eq!(
            n, 0,
            "{name}: {n} allocations in 200 battles after warming up"
        );
    }
}

#[test]
fn one_thread_or_two_write_the_same_files() {
    let root = scratch("dk-threads");
    let (one, two) = (root.join("one"), root.join("two"));
    for (t, out) in [("1", &one), ("2", &two)] {
        ok(&[
            "run",
            "small_action",
            "--ruleset",
            "dickenson",
            "--battles",
            "400",
            "--seed",
            "3",
            "--quiet",
            "--threads",
            t,
            "--out",
            s(out),
        ]);
    }
    let mut files = 0;
    for f in std::fs::read_dir(&one).unwrap() {
        let f = f.unwrap().file_name();
        let name = f.to_str().unwrap();
        if !name.ends_with(".csv") {
            continue;
        }
        files += 1;
        let a = std::fs::read(one.join(name)).unwrap();
        assert_eq!(a, std::fs::read(two.join(name)).unwrap(), "{name}");
    }
    assert!(files >= 4);
}

const N: u32 = 20_000;

/// Within 5 standard errors of the exact chance.
fn agrees(hits: u32, n: u32, p: f64) -> bool {
    let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
    (f64::from(hits) / f64::from(n) - p).abs() <= 5.0 * sd + 1e-9
}

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);

/// 18 musketeers 6" from horse that face away (and cannot answer): the engine's volleys at
/// medium range, hits before saves, against the exact table.
#[test]
fn volleys_through_the_engine_follow_the_exact_table() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let r = DickensonRules::builtin();
    let exact = volley_dist(&r, Arm::Musket, Band::Medium, 18);
    let mut counts = vec![0u32; exact.len()];
    let mut dice = SeededDice::new(11);
    for _ in 0..N {
        let mut b = battle(&s);
        b.regiments[1].facing = 0.0;
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut dice, &mut l);
        let hits: Vec<u16> =
            l.0.iter()
                .filter_map(|e| match e {
                    Event::Dickenson(Detail::Volley { unit: 0, hits, .. }) => Some(*hits),
                    _ => None,
                })
                .collect();
        assert_eq!(hits.len(), 1);
        counts[usize::from(hits[0])] += 1;
    }
    for (k, (c, p)) in counts.iter().zip(&exact).enumerate() {
        assert!(
            agrees(*c, N, p.to_f64()),
            "{k} hits: {c} of {N} v exact {p:?}"
        );
    }
}

/// A saker 20" from a regiment 3" wide facing it: the shot laid on the table falls on it as
/// often as the exact table says.
#[test]
fn gun_shots_through_the_engine_fall_as_the_exact_table_says() {
    let s = setup(&[
        (
            Side::Parliament,
            UnitKind::Artillery(GunWeight::Medium),
            0,
            36.0,
            10.0,
        ),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let r = DickensonRules::builtin();
    let p = hit_chance(&r, Calibre::Saker, 20.0, 3.0);
    let mut dice = SeededDice::new(12);
    let mut hits = 0;
    for _ in 0..N {
        let mut b = battle(&s);
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut dice, &mut l);
        let shots: Vec<bool> =
            l.0.iter()
                .filter_map(|e| match e {
                    Event::Dickenson(Detail::GunShot {
                        unit: 0,
                        fall,
                        range,
                        ..
                    }) => {
                        assert_eq!(*range, 20.0);
                        Some(*fall == Fall::OnTarget)
                    }
                    _ => None,
                })
                .collect();
        assert_eq!(shots.len(), 1);
        hits += u32::from(shots[0]);
    }
    assert!(agrees(hits, N, p.to_f64()), "{hits} of {N} v exact {p:?}");
}

/// A foot regiment that lost figures (one point's worth) throws at the end of the move, alone
/// and with no adds: its results follow the exact chart.
#[test]
fn morale_throws_through_the_engine_follow_the_exact_chart() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 40.0),
    ]);
    let r = DickensonRules::builtin();
    let exact = morale_chances(&r, 0, 1);
    let mut counts = [0u32; 4];
    let mut dice = SeededDice::new(13);
    for _ in 0..N {
        let mut b = battle(&s);
        b.regiments[0].musketeers -= 6;
        b.regiments[0].lost_this_move = 6;
        let mut l = EventLog::default();
        b.morale_phase(&mut dice, &mut l);
        let result =
            l.0.iter()
                .find_map(|e| match e {
                    Event::Dickenson(Detail::Morale {
                        unit: 0, result, ..
                    }) => Some(*result),
                    _ => None,
                })
                .expect("a throw");
        let k = MoraleResult::ALL
            .iter()
            .position(|&m| m == result)
            .expect("a chart result");
        counts[k] += 1;
        if k == 3 {
            assert_eq!(b.regiments[0].state, State::Routing);
        }
    }
    for (k, (c, p)) in counts.iter().zip(exact).enumerate() {
        assert!(
            agrees(*c, N, p.to_f64()),
            "result {k}: {c} of {N} v exact {p:?}"
        );
    }
}

/// The first round of a melee through the engine: 12 musketeers of a forlorn hope (one rank,
/// so all in front: 12 points, 2 dice), then the 9 front-rank pikemen of a pike-heavy regiment
/// (13.5 points, 2 dice, half again in the first round; its 5 front-rank musketeers make no
/// complete six), against musketeers: the figures hit are the whole casualty points of the
/// exact table.
#[test]
fn melee_rounds_through_the_engine_follow_the_exact_table() {
    let r = DickensonRules::builtin();
    for (kind, men, pike) in [
        (UnitKind::ForlornHope, 240, false),
        (UnitKind::Foot(FootBalance::PikeHeavy), 540, true),
    ] {
        let s = setup(&[
            (Side::Parliament, kind, men, 36.0, 10.0),
            (Side::Royalist, UnitKind::ForlornHope, 480, 36.0, 11.0),
        ]);
        let exact = ecw_sim::tables::dickenson::melee_dist(&r, 2, pike);
        let mut want: Vec<(u8, f64)> = Vec::new();
        for (points, p) in exact {
            let k = points.floor() as u8;
            match want.iter_mut().find(|(w, _)| *w == k) {
                Some(w) => w.1 += p.to_f64(),
                None => want.push((k, p.to_f64())),
            }
        }
        let mut counts = vec![0u32; want.len()];
        let mut dice = SeededDice::new(14);
        for _ in 0..N {
            let mut b = battle(&s);
            b.regiments[0].engaged = Engaged::of(1);
            b.regiments[0].attacker = true;
            b.regiments[1].engaged = Engaged::of(0);
            let mut l = EventLog::default();
            b.melee_phase(&mut dice, &mut l);
            let first =
                l.0.iter()
                    .find_map(|e| match *e {
                        Event::Melee {
                            attacker_dice,
                            attacker_hits,
                            ..
                        } => Some((attacker_dice, attacker_hits)),
                        _ => None,
                    })
                    .expect("a round");
            assert_eq!(first.0, 2, "{kind:?} throws two dice");
            let k = want
                .iter()
                .position(|(w, _)| *w == first.1)
                .expect("a tabled result");
            counts[k] += 1;
        }
        for ((k, p), c) in want.iter().zip(&counts) {
            assert!(
                agrees(*c, N, *p),
                "{kind:?} {k} hit: {c} of {N} v exact {p}"
            );
        }
    }
}

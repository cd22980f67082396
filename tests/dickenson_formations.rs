//! Dickenson formations and guns, hand-worked and fought through the engine with scripted dice
//! that must be used up exactly: column and square (their moves, the cost of a change, when the
//! doctrine forms them), pike in one, two or three ranks and musketeers in one or two against
//! horse, guns limbered, drawn, unlimbered and pulled by their crews, ammunition wagons; each
//! formation's footprint, the shot drawn up before the pike, forlorn hope and dragoons in file.
//!
//! Figures at 1:20: 720 foot are 18 pikemen and 18 musketeers; 240 horse are 12 troopers.
//! Every regiment is 3" wide and 1" deep, every gun 0.5" wide and 1" deep; Parliament faces
//! +y, the Royalists -y. The rules' numbers used are in `configs/rulesets/dickenson.toml`.

mod dickenson_common;

use std::f64::consts::PI;
use std::path::Path;
use std::sync::Arc;

use dickenson_common::{battle, setup, setup_with};
use ecw_sim::army::{FootBalance, GunWeight, HorseKind, Side, UnitKind};
use ecw_sim::battlefield::{Area, AreaKind, Ground, Vec2};
use ecw_sim::dice::ScriptedDice;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::regiment::{Formation, Gait};
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson, Engaged};
use ecw_sim::rules::dickenson::events::{Detail, Fall};
use ecw_sim::rules::dickenson::morale::Add;
use ecw_sim::rules::dickenson::morale::MoraleResult;
use ecw_sim::rules::dickenson::volley::Band;
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);
const FALCON: UnitKind = UnitKind::Artillery(GunWeight::VeryLight);
const SAKER: UnitKind = UnitKind::Artillery(GunWeight::Medium);
const CULVERIN: UnitKind = UnitKind::Artillery(GunWeight::Heavy);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn count(l: &EventLog, f: impl Fn(&Event) -> bool) -> usize {
    l.0.iter().filter(|e| f(e)).count()
}

/// `side`'s command follows `doctrine` (the other keeps the setup's).
fn side_follows(s: &mut BattleSetup, side: Side, doctrine: &str) {
    s.doctrines.push(DoctrineParams::builtin(doctrine).unwrap());
    let d = (s.doctrines.len() - 1) as u16;
    for c in s.commands.iter_mut().filter(|c| c.side == side) {
        c.doctrine = d;
    }
}

/// Holds horse `r` where it is put (no advance: `halt_until`), threatening foot as horse free
/// next move would (`formations.doctrine.held_horse_threaten`; f20 weighs horse held so).
fn hold_threatening(b: &mut Battle, r: usize) {
    b.regiments[r].halt_until = 99;
    Arc::make_mut(&mut b.rules)
        .formations
        .doctrine
        .held_horse_threaten = true;
}

/// The next move: its start (no dice: nobody routs, no general), then movement.
fn next_move(b: &mut Battle, s: &BattleSetup, l: &mut EventLog) {
    b.turn += 1;
    let mut d = ScriptedDice::new(&[]);
    b.start_of_move(s, &mut d, l);
    b.movement_phase(s, &mut d, l);
    d.finish();
}

/// The formation regiment 0 takes in a movement phase that throws no dice.
fn formation_after_moving(b: &mut Battle, s: &BattleSetup) -> Formation {
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(s, &mut d, &mut l);
    d.finish();
    b.regiments[0].formation
}

/// COLUMN: foot 39" from the enemy (beyond the ruling's 24") form column to advance: the change
/// takes half the move, so the pikemen's 7.5" column move gives 3.75"; next move a full 7.5".
/// On a road a column adds a sixth (3.75 x 7/6 = 4.375"). Within 24" they deploy into line,
/// again at half a move: 3" of the line's 6".
#[test]
fn f1_foot_march_in_column_far_from_the_enemy_and_deploy_near_it() {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ];
    let s = setup(&specs);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99; // the enemy stands
    b.turn = 0;
    let mut l = EventLog::default();
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Column);
    assert!(
        close(b.regiments[0].pos.y, 7.75),
        "{}",
        b.regiments[0].pos.y
    );
    next_move(&mut b, &s, &mut l);
    assert!(
        close(b.regiments[0].pos.y, 15.25),
        "{}",
        b.regiments[0].pos.y
    );
    next_move(&mut b, &s, &mut l);
    assert!(
        close(b.regiments[0].pos.y, 22.75),
        "{}",
        b.regiments[0].pos.y
    );
    // 20.25" off: into line.
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Line);
    assert!(
        close(b.regiments[0].pos.y, 25.75),
        "{}",
        b.regiments[0].pos.y
    );
    let changes = count(&l, |e| matches!(e, Event::FormationChanged { unit: 0 }));
    assert_eq!(changes, 2);

    let mut ground = Ground::open(72.0, 48.0);
    ground.areas.push(Area {
        kind: AreaKind::Road,
        points: vec![
            Vec2::new(30.0, 0.0),
            Vec2::new(42.0, 0.0),
            Vec2::new(42.0, 48.0),
            Vec2::new(30.0, 48.0),
        ],
    });
    let s = setup_with(&specs, "rupert", ground);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    b.turn = 0;
    next_move(&mut b, &s, &mut l);
    assert!(
        close(b.regiments[0].pos.y, 8.375),
        "{}",
        b.regiments[0].pos.y
    );
}

/// A column does not fire (ruling); a line that changed formation this move has spent half
/// of it and may still fire (firing takes the other half), but not after marching as well.
#[test]
fn f2_columns_do_not_fire_and_a_change_of_formation_takes_half_a_move() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let fired = |b: &mut Battle, script: &[u8]| {
        b.regiments[1].facing = 0.0; // facing away: cannot answer
        let mut d = ScriptedDice::new(script);
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut d, &mut l);
        d.finish();
        count(&l, |e| fired(e, Some(0)))
    };
    let mut b = battle(&s);
    b.regiments[0].formation = Formation::Column;
    assert_eq!(fired(&mut b, &[]), 0);
    let mut b = battle(&s);
    b.regiments[0].spent = 0.5;
    b.regiments[0].full_move = 6.0;
    assert_eq!(fired(&mut b, &[1, 1, 1]), 1);
    let mut b = battle(&s);
    b.regiments[0].spent = 0.5;
    b.regiments[0].full_move = 6.0;
    b.regiments[0].moved = 1.0;
    assert_eq!(fired(&mut b, &[]), 0);
    // Nor does it reload that move.
    let mut b = battle(&s);
    b.regiments[0].loaded = false;
    b.regiments[0].spent = 0.5;
    b.reload_phase();
    assert!(!b.regiments[0].loaded);
}

/// SQUARE: foot whose doctrine closes up against horse (hold_the_line), with troopers 7" off
/// (within their 10" trot, their doctrine, rupert, charging a line at these odds), form square: 18 pikemen stand three deep (4 a rank at least), so
/// the horse cannot charge them (a declared charge fails and stops short, no dice thrown), and
/// they add 1 on the morale chart for pike in more than two ranks. A doctrine that does not
/// (rupert) stays in line, and 10 pikemen (two ranks' worth) cannot form square. Nor does a
/// regiment whose new footprint would come within the contact gap of the enemy.
#[test]
fn f3_squares_against_horse_cannot_be_charged() {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 18.0),
    ];
    for (doctrine, square) in [("hold_the_line", true), ("rupert", false)] {
        let mut s = setup_with(&specs, doctrine, Ground::open(72.0, 48.0));
        side_follows(&mut s, Side::Royalist, "rupert");
        let mut b = battle(&s);
        hold_threatening(&mut b, 1);
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.movement_phase(&s, &mut d, &mut l);
        d.finish();
        let f = b.regiments[0];
        assert_eq!(f.formation == Formation::Square, square, "{doctrine}");
        assert_eq!(f.pike_ranks(&b.rules), if square { 3 } else { 2 });
        assert_eq!(b.adds(0, None).has(Add::PikeDeep), square);
        if !square {
            continue;
        }
        assert!(
            close(f.spent, 0.5) && close(f.pos.y, 10.0),
            "closed up in place"
        );
        let mut d = ScriptedDice::new(&[]);
        let mut l = EventLog::default();
        b.charge(1, 0, &mut d, &mut l);
        d.finish();
        assert!(l.0.contains(&Event::ChargeFailed { unit: 1, target: 0 }));
        assert!(b.regiments[1].engaged.is_none() && b.gap(0, 1) > 0.0);
    }
    // No room: the square's front (1.94" a side, drawn on its centre) would come within the
    // 1/4" contact gap of troopers whose front is 1/2" before the line's: it stays in line.
    for (y, square) in [(11.8, true), (11.5, false)] {
        let mut near = specs;
        near[1].4 = y;
        let mut s = setup_with(&near, "hold_the_line", Ground::open(72.0, 48.0));
        side_follows(&mut s, Side::Royalist, "rupert");
        let mut b = battle(&s);
        hold_threatening(&mut b, 1);
        b.regiments[1].gait = Gait::Trot; // coming on, not halted to shoot
        b.regiments[0].loaded = false;
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.movement_phase(&s, &mut d, &mut l);
        d.finish();
        assert_eq!(b.regiments[0].formation == Formation::Square, square, "{y}");
    }
    let s = setup(&specs);
    let mut b = battle(&s);
    b.regiments[0].pikemen = 10;
    assert!(!b.regiments[0].can_form(Formation::Square, &b.rules));
    b.regiments[0].pikemen = 12;
    assert!(b.regiments[0].can_form(Formation::Square, &b.rules));
}

/// Horse never declare a charge the rules forbid (seed, FORMATIONS: "pikemen in three or more
/// ranks cannot be charged"). Troopers 7" from foot that close into square against them in the
/// same phase (hold_the_line) take their order again once the foot have dressed: against the
/// 12 pikemen left of 18 (still three deep, 4 a rank at least) they declare nothing, throw
/// nothing and stand off. Against 11 (two ranks' worth: no square, the shot drawn up before
/// the pike) they declare their charge. Both ask `Regiment::uncharged_by_horse`.
#[test]
fn f3b_horse_do_not_declare_on_foot_that_closed_into_square() {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 18.0),
    ];
    let declared = |l: &EventLog| count(l, |e| matches!(e, Event::ChargeDeclared { unit: 1, .. }));
    let mut s = setup_with(&specs, "hold_the_line", Ground::open(72.0, 48.0));
    side_follows(&mut s, Side::Royalist, "rupert");
    let mut b = battle(&s);
    b.regiments[0].pikemen = 12;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(b.regiments[0].formation, Formation::Square);
    assert!(b.regiments[0].uncharged_by_horse(&b.rules));
    assert_eq!(declared(&l), 0, "{:?}", l.0);
    assert!(!l.0.iter().any(|e| matches!(e, Event::ChargeFailed { .. })));
    assert!(b.regiments[1].engaged.is_none());

    let mut b = battle(&s);
    b.regiments[0].pikemen = 11;
    let mut l = EventLog::default();
    let mut d = ecw_sim::dice::SeededDice::new(3);
    b.movement_phase(&s, &mut d, &mut l);
    assert_ne!(b.regiments[0].formation, Formation::Square);
    assert!(!b.regiments[0].uncharged_by_horse(&b.rules));
    assert_eq!(declared(&l), 1, "{:?}", l.0);
}

/// Ruling (`formations.doctrine.only_aimed_horse`): the engine's horse charge only their nearest
/// enemy, so foot close into square only against horse in reach whose nearest enemy they are.
/// Troopers 7" off but 5" from a Parliament horse regiment beside the foot leave the foot in
/// line; with the key off (any horse in reach) it closes up as before; with the friendly horse
/// gone the troopers aim at the foot and it closes up.
#[test]
fn f15_foot_close_up_only_against_horse_that_would_charge_them() {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 18.0),
        (Side::Parliament, TROOPERS, 240, 44.0, 18.0),
    ];
    for (aimed_only, friend_near, square) in [
        (true, true, false),
        (false, true, true),
        (true, false, true),
    ] {
        let mut near = specs;
        if !friend_near {
            near[2].3 = 70.0;
            near[2].4 = 2.0;
        }
        let mut s = setup_with(&near, "hold_the_line", Ground::open(72.0, 48.0));
        side_follows(&mut s, Side::Royalist, "rupert");
        let mut b = battle(&s);
        Arc::make_mut(&mut b.rules)
            .formations
            .doctrine
            .only_aimed_horse = aimed_only;
        hold_threatening(&mut b, 1);
        hold_threatening(&mut b, 2);
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(
            f == Formation::Square,
            square,
            "{aimed_only} {friend_near}: {f:?}"
        );
    }
}

/// Whether `e` is a volley or a gun's shot (by `who`, if given).
fn fired(e: &Event, who: Option<u16>) -> bool {
    match e {
        Event::Dickenson(d @ (Detail::Volley { .. } | Detail::GunShot { .. })) => {
            who.is_none_or(|u| d.unit() == u)
        }
        _ => false,
    }
}

/// A throw of a charge: the horse's formation throw (good or not) or a throw on the chart.
#[derive(Debug, PartialEq)]
enum Throw {
    Formation(bool),
    Chart(MoraleResult),
}

/// The throws of a charge, in order: (unit, throw).
fn throws(l: &EventLog) -> Vec<(u16, Throw)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::FormationThrow { unit, good, .. }) => {
                Some((unit, Throw::Formation(good)))
            }
            Event::Dickenson(Detail::Morale { unit, result, .. }) => {
                Some((unit, Throw::Chart(result)))
            }
            _ => None,
        })
        .collect()
}

/// PIKE IN ONE OR TWO RANKS: troopers 9" off charge foot (unloaded: no closing fire). With 18
/// pikemen in two ranks the horse throw (6+6 + 1 attacker = 13, good). With 3 pikemen (one
/// rank) the foot throw first (6+6 less 3 points lost = 9, good: they stand) and the horse need
/// no throw. Either way the front rank's pistols must breach the pikes: 6 troopers, one volley
/// at short range, 6 - 2 = 4 hits, unsaved (1s), rank and file (1s, each from the larger
/// body): contact.
#[test]
fn f4_pike_in_one_rank_throw_first_in_two_the_horse_throw() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 20.0),
    ]);
    let script = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1];
    for (pikemen, thrower, throw) in [
        (18, 0, Throw::Formation(true)),
        (3, 1, Throw::Chart(MoraleResult::Good)),
    ] {
        let mut b = battle(&s);
        b.regiments[1].pikemen = pikemen;
        b.regiments[1].loaded = false;
        assert_eq!(
            b.regiments[1].pike_ranks(&b.rules),
            if pikemen == 3 { 1 } else { 2 }
        );
        let mut d = ScriptedDice::new(&script);
        let mut l = EventLog::default();
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        assert_eq!(throws(&l), vec![(thrower, throw)], "{pikemen} pikemen");
        assert_eq!(b.regiments[0].engaged, Engaged::of(1));
        // Each casualty from the larger body: 2 of each, or all 4 from the musketeers.
        let left = if pikemen == 3 { 14 } else { 16 };
        assert_eq!(b.regiments[1].musketeers, left);
    }
}

/// MUSKETEERS IN TWO RANKS OR ONE: foot with no pikemen left throw when charged by horse.
/// 18 musketeers (two ranks) throw 6+5 less 3 points lost = 8: good, they stand, the horse go
/// in without a throw or a breach. 3 musketeers stand in one rank and throw at -1 (ruling, the
/// forlorn hope rules being missing): 6+6 less 6 points lost less 1 = 5: they fall back and the
/// charge fails (without the -1 it would be 6, a stand).
#[test]
fn f5_musketeers_in_two_ranks_or_one_throw_when_charged_by_horse() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 20.0),
    ]);
    for (musketeers, dice, result) in [
        (18, [6, 5], MoraleResult::Good),
        (3, [6, 6], MoraleResult::FallBack),
    ] {
        let mut b = battle(&s);
        b.regiments[1].pikemen = 0;
        b.regiments[1].musketeers = musketeers;
        b.regiments[1].loaded = false;
        let mut d = ScriptedDice::new(&dice);
        let mut l = EventLog::default();
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        assert_eq!(
            throws(&l),
            vec![(1, Throw::Chart(result))],
            "{musketeers} musketeers"
        );
        let home = result == MoraleResult::Good;
        assert_eq!(b.regiments[0].engaged.is_some(), home);
        assert_eq!(
            l.0.contains(&Event::ChargeFailed { unit: 0, target: 1 }),
            !home
        );
    }
}

/// GUNS DRAWN BY HORSES: a limbered falcon 39" from foot (beyond its 24" range) is drawn 12" a
/// move and cannot fire; at 27" it is drawn on again (it closes to its 9" effective range at
/// most); at 15" it unlimbers (a quarter move) and fires the same move: coloured 1, white 1
/// (4" short, 1" left at the gauge, 3" at 12"): nothing under the area; its effect die 1.
#[test]
fn f6_a_falcon_is_drawn_limbered_then_unlimbers_and_fires() {
    let s = setup(&[
        (Side::Parliament, FALCON, 0, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].limbered = true;
    b.regiments[1].halt_until = 99;
    b.turn = 0;
    let mut l = EventLog::default();
    next_move(&mut b, &s, &mut l);
    assert!(
        close(b.regiments[0].pos.y, 16.0),
        "{}",
        b.regiments[0].pos.y
    );
    let mut d = ScriptedDice::new(&[]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    next_move(&mut b, &s, &mut l);
    assert!(
        close(b.regiments[0].pos.y, 28.0),
        "{}",
        b.regiments[0].pos.y
    );
    assert!(b.regiments[0].limbered);
    next_move(&mut b, &s, &mut l);
    assert!(!b.regiments[0].limbered && close(b.regiments[0].spent, 0.25));
    assert!(l.0.contains(&Event::Unlimbered { unit: 0 }));
    let mut d = ScriptedDice::new(&[1, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(
        count(&l, |e| matches!(
            e,
            Event::Dickenson(Detail::GunShot { unit: 0, fall, .. }) if *fall != Fall::OnTarget
        )),
        1
    );
}

/// LIMBERING AND UNLIMBERING TIMES: a limbered culverin 29" from foot unlimbers, which takes
/// its full move: it does not fire that move. A sited saker 41" off (beyond its 36" range and
/// its crew's 4" pull) limbers in half a move and is drawn the other half: 5" of its 10".
#[test]
fn f7_limbering_takes_the_calibres_share_of_a_move() {
    let s = setup(&[
        (Side::Parliament, CULVERIN, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 40.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].limbered = true;
    b.regiments[1].halt_until = 99;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(&s, &mut d, &mut l);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(!b.regiments[0].limbered && close(b.regiments[0].spent, 1.0));
    assert_eq!(count(&l, |e| fired(e, None)), 0);

    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 46.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(b.regiments[0].limbered);
    assert!(close(b.regiments[0].pos.y, 9.0), "{}", b.regiments[0].pos.y);
    assert!(l.0.contains(&Event::FormationChanged { unit: 0 }));
}

/// CREW PULLING: a sited saker 38" from foot (2" beyond its range, within its crew's 4") is
/// pulled 2" by its crew, which takes the move (it does not fire). With 2 of its 5 gunners the
/// crew pull 1.6" (ruling), not enough: it limbers instead. Only gunners crew it: with none
/// left it is silent.
#[test]
fn f8_the_crew_pull_a_sited_gun_into_range() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 43.0),
    ]);
    for (gunners, pulled) in [(5, true), (2, false)] {
        let mut b = battle(&s);
        b.regiments[0].gunners = gunners;
        b.regiments[1].halt_until = 99;
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.movement_phase(&s, &mut d, &mut l);
        b.fire_phase(&s, &mut d, &mut l);
        d.finish();
        let g = b.regiments[0];
        assert_eq!(!g.limbered, pulled, "{gunners} gunners");
        if pulled {
            assert!(close(g.pos.y, 6.0) && close(g.spent, 1.0), "{}", g.pos.y);
        }
        assert_eq!(count(&l, |e| fired(e, None)), 0);
    }
    // In range, sited, but no gunners: silent (nobody else serves it).
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 40.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].gunners = 0;
    b.regiments[2].facing = 0.0;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(count(&l, |e| fired(e, Some(0))), 0);
}

fn scenario(gun_extra: &str, foot_extra: &str) -> String {
    format!(
        r#"
name = "wagons test"
[parliament]
year = 1643
[parliament.commands.line]
kind = "foot"
commander = "average"
units = [
    {{ name = "P1", type = "foot", cv = 5, x = 30.0, y = 20.0{foot_extra} }},
    {{ name = "Guns", type = "medium_artillery", cv = 5, formation = "unlimbered", x = 36.0, y = 18.0{gun_extra} }},
]
[royalist]
year = 1643
[royalist.commands.line]
kind = "foot"
commander = "average"
units = [ {{ name = "R1", type = "foot", cv = 5, x = 30.0, y = 28.0 }} ]
"#
    )
}

/// AMMUNITION WAGONS: a scenario gives a gun `wagons = 2`. Out of ball, it keeps its
/// ammunition point while a wagon is left; at the end of a move it did not fire it takes a
/// wagon's load (the saker's 6 balls and 12 portions). A blast of its ammunition takes its
/// wagons too. Only guns have wagons: a foot regiment's is refused, naming the key and line.
#[test]
fn f9_ammunition_wagons_from_the_scenario() {
    let text = scenario(", wagons = 2", "");
    let s = Scenario::parse(Path::new("wagons.toml"), text, &[], false)
        .unwrap()
        .setup()
        .unwrap();
    assert_eq!(s.units[1].wagons, 2);
    let mut b = Dickenson::builtin().new_battle(&s);
    b.turn = 1;
    assert_eq!(b.regiments[1].wagons, 2);
    let full = b.points(1);
    b.regiments[1].balls = 0;
    assert_eq!(b.points(1), full, "a wagon keeps the ammunition point");
    b.reload_phase();
    let g = b.regiments[1];
    assert_eq!((g.balls, g.powder, g.wagons), (6, 24, 1));
    b.regiments[1].wagons = 0;
    b.regiments[1].balls = 0;
    assert_eq!(b.points(1), full - 1);

    // The falcon's ammunition blown up (as example e6, its team behind it struck first: saves
    // 1, 1): its wagon goes with it.
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FALCON, 0, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].wagons = 1;
    let mut d = ScriptedDice::new(&[3, 5, 4, 1, 1, 3, 4, 1, 2, 1, 1]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let f = b.regiments[1];
    assert_eq!((f.balls, f.powder, f.wagons), (0, 0, 0));

    let bad = scenario("", ", wagons = 1");
    let e = match Scenario::parse(Path::new("bad_wagons.toml"), bad, &[], false) {
        Err(e) => e.to_string(),
        Ok(s) => match s.setup() {
            Err(e) => e.to_string(),
            Ok(_) => panic!("wagons on foot accepted"),
        },
    };
    assert!(e.contains("bad_wagons.toml"), "{e}");
    assert!(e.contains("wagons"), "{e}");
    assert!(e.contains("only guns have ammunition wagons"), "{e}");
}

/// The footprint of regiment `r`: (frontage, depth).
fn footprint(b: &Battle, r: usize) -> (f64, f64) {
    (b.regiments[r].frontage, b.regiments[r].depth)
}

/// FOOTPRINTS: the scenario's 3" x 1" draws the line of 18 pikemen and 18 musketeers, each
/// body two deep: 9 + 9 files of 1/6", 2 ranks of 1/2". Marching in column each body stands 4
/// deep (4 figures a rank fill 4 of its 6 ranks): 5 + 5 files, 1 2/3" wide and 2" deep. A
/// square (pike 3 deep: 6 files; shot 2 deep: 9 files, 15 files, 3 ranks, 2.5" x 1.5") is drawn
/// square on the same ground: sqrt(3.75)" a side. Contact, fire and paths see the footprint:
/// foot charging foot 6" off stop on the column's front, 1/2" nearer than a line's; muskets
/// (12" long range) reach a column whose centre is 13.2" off but not a line; a column slips
/// past an enemy 2.6" to its side that stops a line 1/4" short of it.
#[test]
fn f10_a_column_is_drawn_narrower_and_deeper_and_the_engine_sees_it() {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ];
    let s = setup(&specs);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    b.turn = 0;
    assert!(close(footprint(&b, 0).0, 3.0) && close(footprint(&b, 0).1, 1.0));
    let mut l = EventLog::default();
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Column);
    let (w, d) = footprint(&b, 0);
    assert!(close(w, 10.0 / 6.0) && close(d, 2.0), "{w} x {d}");
    // The replay draws it so.
    let u = &Dickenson::builtin().units(&b, &s)[0];
    assert!(close(u.frontage, w) && close(u.depth, d));
    let (w, d) = b.regiments[0].footprint(Formation::Square, &b.rules);
    assert!(close(w, 3.75f64.sqrt()) && close(d, w), "{w} x {d}");

    // Contact: a column's front stands 1" before its centre, a line's 1/2".
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 16.0),
    ]);
    for (column, at) in [(false, 15.0), (true, 14.5)] {
        let mut b = battle(&s);
        b.regiments[1].loaded = false; // no closing fire: no dice
        if column {
            let rules = b.rules.clone();
            b.regiments[1].form(Formation::Column, &rules);
        }
        let mut d = ScriptedDice::new(&[]);
        let mut l = EventLog::default();
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        assert_eq!(b.regiments[0].engaged, Engaged::of(1));
        assert!(close(b.regiments[0].pos.y, at), "{}", b.regiments[0].pos.y);
    }

    // Fire: from the firer's front (10.5) the column's front (23.2 - 1) is 11.7" off, in long
    // range; the line's (23.2 - 1/2) 12.2", beyond it.
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 23.2),
    ]);
    for column in [false, true] {
        let mut b = battle(&s);
        b.regiments[1].loaded = false;
        if column {
            let rules = b.rules.clone();
            b.regiments[1].form(Formation::Column, &rules);
        }
        // 18 muskets at long range: three volleys of six, 1s less 3: no hits.
        let script: &[u8] = if column { &[1, 1, 1] } else { &[] };
        let mut d = ScriptedDice::new(script);
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut d, &mut l);
        d.finish();
        assert_eq!(count(&l, |e| fired(e, Some(0))), usize::from(column));
    }

    // Paths: the enemy's centre 2.6" to the side of the line of advance: its near edge
    // (37.1") lies 0.27" beyond a column's flank (36.83", more than the 1/4" contact gap) but
    // within a line's (37.5"): the column makes its full 7.5", the line stops 1/4" short.
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 38.6, 17.0),
    ]);
    for (column, to) in [(false, 15.75), (true, 17.5)] {
        let mut b = battle(&s);
        if column {
            let rules = b.rules.clone();
            b.regiments[0].form(Formation::Column, &rules);
        }
        let mut l = EventLog::default();
        b.advance(0, 0.0, Gait::Trot, None, &mut l);
        let y = b.regiments[0].pos.y;
        assert!((y - to).abs() < 0.01, "column {column}: {y}");
    }
}

/// SHOT BEFORE THE PIKE (seed: "pikemen in one rank ... with a front rank of musketeers"):
/// 540 shot-heavy foot are 9 pikemen and 18 musketeers. Their 9 pike fill only two ranks, too
/// few for a square; closing up against troopers 8" off (hold_the_line), they draw their 18
/// musketeers up in one rank before the pike in one: 18 files, 2 ranks (the line's 5 + 9
/// files of 3/14", 2 ranks of 1/2": 3 6/7" x 1"), everyone in the front rank of the first
/// melee round. Charged by the horse, the pike in one rank throw first (6+6 = 12: good, they
/// stand) and the horse need no throw; the breach as f4 (4 hits, unsaved, all musketeers).
/// In line the pike are two deep: the horse throw instead (6+6 + 1 = 13, good). A doctrine
/// that does not close up (rupert), the key off, or fewer musketeers than pikemen: line.
#[test]
fn f11_foot_draw_their_shot_up_before_the_pike_against_horse() {
    let specs = [
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (
            Side::Royalist,
            UnitKind::Foot(FootBalance::ShotHeavy),
            540,
            36.0,
            19.0,
        ),
    ];
    let formed = |doctrine: &str, off: bool, musketeers: Option<u16>| {
        let mut s = setup_with(&specs, doctrine, Ground::open(72.0, 48.0));
        side_follows(&mut s, Side::Parliament, "rupert");
        let mut b = battle(&s);
        b.first = Side::Royalist;
        hold_threatening(&mut b, 0);
        if off {
            std::sync::Arc::make_mut(&mut b.rules)
                .formations
                .doctrine
                .shot_before_pike = false;
        }
        if let Some(m) = musketeers {
            b.regiments[1].musketeers = m;
        }
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.movement_phase(&s, &mut d, &mut l);
        d.finish();
        (b, s)
    };
    let (b, _) = formed("hold_the_line", false, None);
    let f = b.regiments[1];
    assert_eq!((f.pikemen, f.musketeers), (9, 18));
    assert!(!f.can_form(Formation::Square, &b.rules));
    assert_eq!(f.formation, Formation::ShotBeforePike);
    assert!(
        close(f.spent, 0.5) && close(f.pos.y, 19.0),
        "formed in place"
    );
    assert_eq!(f.pike_ranks(&b.rules), 1);
    assert!(close(f.frontage, 18.0 * 3.0 / 14.0) && close(f.depth, 1.0));
    use ecw_sim::rules::dickenson::figures::Figure;
    assert_eq!(
        f.fighting(true, &b.rules),
        [(Figure::Pikeman, 9), (Figure::Musketeer, 18)]
    );
    for (doctrine, off, musketeers) in [
        ("rupert", false, None),
        ("hold_the_line", true, None),
        ("hold_the_line", false, Some(8)),
    ] {
        let (b, _) = formed(doctrine, off, musketeers);
        assert_eq!(
            b.regiments[1].formation,
            Formation::Line,
            "{doctrine} {off} {musketeers:?}"
        );
        assert_eq!(
            b.regiments[1].fighting(true, &b.rules),
            [
                (Figure::Pikeman, 5),
                (Figure::Musketeer, musketeers.unwrap_or(18) / 2)
            ]
        );
    }

    // The charge: who throws goes by the formation.
    let script = [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1];
    for (before, thrower, throw) in [
        (true, 1, Throw::Chart(MoraleResult::Good)),
        (false, 0, Throw::Formation(true)),
    ] {
        let (mut b, _) = formed(if before { "hold_the_line" } else { "rupert" }, false, None);
        b.regiments[1].loaded = false;
        b.regiments[0].halt_until = 0;
        b.regiments[1].pos.y = 20.0;
        let mut d = ScriptedDice::new(&script);
        let mut l = EventLog::default();
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        assert_eq!(throws(&l), vec![(thrower, throw)], "before {before}");
        assert_eq!(b.regiments[0].engaged, Engaged::of(1));
        assert_eq!(b.regiments[1].musketeers, 14);
    }
}

/// FORLORN HOPE AND DRAGOONS IN COLUMN (seed, ROADS: "only column or file of musketeers"):
/// far from the enemy they file off two abreast (ruling) to advance, at half a move for the
/// change. A forlorn hope of 120 men (6 musketeers, one rank of 1/2" files, 1/2" deep) files
/// off 2 x 3: 1" wide, 1 1/2" deep, and marches at the musketeers' column move: 5" of its 10";
/// on a road a sixth more (5 5/6"). Dragoons (240 men, 12 figures: 6 files of 1/2", 2 ranks
/// of 1/2") file off 2 x 6: 1" x 3", and trot 6" of their 12"; on the road 7". In line
/// neither gains on a road. A column of dragoons does not charge.
#[test]
fn f12_forlorn_hope_and_dragoons_file_off_in_column_on_roads() {
    let road = || {
        let mut ground = Ground::open(72.0, 48.0);
        ground.areas.push(Area {
            kind: AreaKind::Road,
            points: vec![
                Vec2::new(30.0, 0.0),
                Vec2::new(42.0, 0.0),
                Vec2::new(42.0, 48.0),
                Vec2::new(30.0, 48.0),
            ],
        });
        ground
    };
    for (kind, men, (w, d), [open, on_road]) in [
        (
            UnitKind::ForlornHope,
            120,
            (1.0, 1.5),
            [5.0, 5.0 * 7.0 / 6.0],
        ),
        (UnitKind::Dragoons, 240, (1.0, 3.0), [6.0, 7.0]),
    ] {
        for (ground, by) in [(Ground::open(72.0, 48.0), open), (road(), on_road)] {
            let specs = [
                (Side::Parliament, kind, men, 36.0, 4.0),
                (Side::Royalist, FOOT, 720, 36.0, 44.0),
            ];
            let s = setup_with(&specs, "rupert", ground);
            let mut b = battle(&s);
            b.regiments[1].halt_until = 99;
            b.turn = 0;
            let mut l = EventLog::default();
            next_move(&mut b, &s, &mut l);
            let r = b.regiments[0];
            assert_eq!(r.formation, Formation::Column, "{kind:?}");
            assert!(close(r.frontage, w) && close(r.depth, d), "{kind:?}");
            assert!(close(r.pos.y, 4.0 + by), "{kind:?}: {}", r.pos.y);
            assert!(l.0.contains(&Event::FormationChanged { unit: 0 }));
        }
    }
    // In line on the road: no sixth (the dragoons held in line by a near enemy's 20").
    let specs = [
        (Side::Parliament, UnitKind::Dragoons, 240, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 26.0),
    ];
    let s = setup_with(&specs, "rupert", road());
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(b.regiments[0].formation, Formation::Line);
    assert!(
        close(b.regiments[0].pos.y, 16.0),
        "{}",
        b.regiments[0].pos.y
    );
}

/// A square standing at (36, 20) (Parliament, facing +y) and a Royalist foot regiment facing
/// it from its right flank and a little behind (108 degrees off its front, beyond a line's 90
/// degrees of melee) or from straight behind, 4 to 6" away (its 1.94" side and the enemy's 1"
/// depth between the centres).
fn square_and_enemy(behind: bool) -> (BattleSetup, Battle) {
    let (x, y) = if behind { (36.0, 14.0) } else { (42.0, 18.0) };
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 20.0),
        (Side::Royalist, FOOT, 720, x, y),
    ]);
    let mut b = battle(&s);
    let rules = b.rules.clone();
    b.regiments[0].form(Formation::Square, &rules);
    // The enemy faces the square, end on or square on: its 1" depth or 3" front toward it.
    b.regiments[1].facing = (b.regiments[0].pos - b.regiments[1].pos).facing();
    let gap = b.gap(0, 1);
    assert!(gap > 4.0 && gap < 6.0, "{gap}");
    assert!(b.bearing(0, b.regiments[1].pos) > 100.0);
    (s, b)
}

/// The rules with squares facing one way, as a line does.
fn squares_face_front(b: &mut Battle) {
    Arc::make_mut(&mut b.rules).formations.square.all_round = false;
}

fn volleys(l: &EventLog) -> Vec<(u16, u16, Band, bool, u16)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::Volley {
                unit,
                men,
                band,
                closing,
                hits,
                ..
            }) => Some((unit, men, band, closing, hits)),
            _ => None,
        })
        .collect()
}

/// A SQUARE FIRES TO EVERY SIDE (ruling: it has no flank or rear). Its 18 musketeers stand a
/// quarter to a face (its footprint is square): the face toward an enemy on its flank or
/// behind it holds 5 (18/4 rounded up), who fire one volley of five at medium range (4-8"):
/// the die less 2 for the range and 1 for the man short, 6 - 3 = 3 hits, unsaved (1s), rank and
/// file (1s). The enemy faces away and cannot answer. A line, or a square under rules that
/// face it one way, sees nobody in its front arc and fires at nothing (no die thrown). The
/// square also counts its flanks secured on the morale chart; the line does not.
#[test]
fn f13_a_square_fires_from_the_face_toward_an_enemy_on_its_flank_or_rear() {
    for behind in [false, true] {
        let (s, mut b) = square_and_enemy(behind);
        b.regiments[1].facing += PI; // facing away
        let mut d = ScriptedDice::new(&[6, 1, 1, 1, 1, 1, 1]);
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut d, &mut l);
        d.finish();
        assert_eq!(
            volleys(&l),
            vec![(0, 5, Band::Medium, false, 3)],
            "{behind}"
        );
        assert_eq!(b.regiments[1].figures(), 33);
        assert!(b.adds(0, None).has(Add::FlanksSecured));

        for line in [true, false] {
            let (s, mut b) = square_and_enemy(behind);
            b.regiments[1].facing += PI;
            if line {
                let rules = b.rules.clone();
                b.regiments[0].form(Formation::Line, &rules);
            } else {
                squares_face_front(&mut b);
            }
            let mut d = ScriptedDice::new(&[]);
            let mut l = EventLog::default();
            b.fire_phase(&s, &mut d, &mut l);
            d.finish();
            assert!(volleys(&l).is_empty(), "line {line}, behind {behind}");
            assert!(!b.adds(0, None).has(Add::FlanksSecured));
        }
    }
}

/// The melee events of a log: (attacker, its dice, defender's dice).
fn melees(l: &EventLog) -> Vec<(u16, u8, u8)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Melee {
                attacker,
                attacker_dice,
                defender_dice,
                ..
            } => Some((attacker, attacker_dice, defender_dice)),
            _ => None,
        })
        .collect()
}

/// A SQUARE CHARGED IN THE FLANK OR REAR fights from the face in contact (ruling): foot charge
/// it from 4-6" (more than half their 6" move, within musket range), and every die is a 1.
/// The face toward them gives closing fire at short range: its 5 musketeers, one volley at
/// 1 - 1 - 1: no hit. In the melee the face fights in the square's ranks (pike three deep,
/// musketeers two): in the first round its front rank, 2 of its 5 pikemen (3 points) and 3 of
/// its 5 musketeers (3 points), too few for a die (one per complete 6 points); in the second
/// the whole face, a quarter of each body rounded up after the first round's two losses: 5
/// pikemen (7.5 points, a die) and 4 or 5 musketeers (too few for a die). The charger, in line, throws 2 + 1 dice in the first
/// round (9 pikemen, 9 musketeers) and 4 + 3 in the second. A line so charged, or a square
/// under rules that face it one way, gives no closing fire and throws no die in either round.
#[test]
fn f14_a_square_charged_in_flank_or_rear_fights_from_the_face_in_contact() {
    for behind in [false, true] {
        for (all_round, line) in [(true, false), (false, false), (false, true)] {
            let (_, mut b) = square_and_enemy(behind);
            if line {
                let rules = b.rules.clone();
                b.regiments[0].form(Formation::Line, &rules);
            } else if !all_round {
                squares_face_front(&mut b);
            }
            // The dice: closing fire 1; the first round the charger's 3, its 2 hits' saves and
            // strikes 4; the second the square's 1, the charger's 7, its 3 hits' 6 (2 + 1
            // figures: 2 points from the pike, 1.5 from the musketeers, on musketeers).
            let used = if all_round { 22 } else { 20 };
            let mut d = ScriptedDice::new(&vec![1; used]);
            let mut l = EventLog::default();
            b.charge(1, 0, &mut d, &mut l);
            assert_eq!(
                b.regiments[1].engaged,
                Engaged::of(0),
                "{behind} {all_round}"
            );
            b.melee_phase(&mut d, &mut l);
            let case = format!("behind {behind}, all round {all_round}, line {line}");
            let closing = volleys(&l);
            if all_round {
                assert_eq!(closing, vec![(0, 5, Band::Short, true, 0)], "{case}");
                assert_eq!(melees(&l), vec![(0, 0, 3), (0, 1, 7)], "{case}");
            } else {
                assert!(closing.is_empty(), "{case}");
                assert_eq!(melees(&l), vec![(0, 0, 3), (0, 0, 7)], "{case}");
            }
            d.finish();
        }
    }
}

/// Foot (hold_the_line, 720 men at y 10) against 240 troopers straight before them, the
/// troopers by `doctrine` and `halted` (else trotting); Parliament acts first, so the foot
/// dress before the horse act. The horse are held where they are put but threaten as if free
/// (`held_horse_threaten`). Returns the battle ready for its first movement phase.
fn foot_facing_horse(doctrine: &str, horse_y: f64) -> (Battle, BattleSetup) {
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, horse_y),
    ];
    let mut s = setup_with(&specs, "hold_the_line", Ground::open(72.0, 48.0));
    side_follows(&mut s, Side::Royalist, doctrine);
    let mut b = battle(&s);
    hold_threatening(&mut b, 1);
    (b, s)
}

/// Puts regiment 1 straight before regiment 0's front (both facing each other along y), its
/// footprint `gap` inches from regiment 0's.
fn place_at_gap(b: &mut Battle, gap: f64) {
    let (me, them) = (b.regiments[0], b.regiments[1]);
    b.regiments[1].pos.y = me.pos.y + me.depth / 2.0 + gap + them.depth / 2.0;
    assert!(close(b.gap(0, 1), gap), "{}", b.gap(0, 1));
}

/// No flip-flop (doctrine, `formations.doctrine.square_margin`): halted troopers may charge
/// next move only at a trot (seed: no gallop from a halt), 10". At 9 1/2" the line closes
/// into square; with the horse drawn back to 11" (beyond their trot, within it and the 2"
/// margin) the square stays closed, where before it opened again at once; at 12 1/2" it
/// opens. The foot and the horse do not move (the foot hold within musket range).
#[test]
fn f16_a_square_does_not_flip_to_line_at_the_edge_of_the_horses_reach() {
    let (mut b, s) = foot_facing_horse("rupert", 30.0);
    place_at_gap(&mut b, 9.5);
    let mut l = EventLog::default();
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Square);
    assert_eq!(b.regiments[1].gait, Gait::Halt);
    for (gap, square) in [(11.0, true), (11.9, true), (12.5, false)] {
        place_at_gap(&mut b, gap);
        next_move(&mut b, &s, &mut l);
        let f = b.regiments[0].formation;
        assert_eq!(f == Formation::Square, square, "{gap}: {f:?}");
    }
    let changes = count(&l, |e| matches!(e, Event::FormationChanged { unit: 0 }));
    assert_eq!(changes, 2, "closed once and opened once");
    // The margin is the key's: with none, 11" already opens the square.
    let (mut b, s) = foot_facing_horse("rupert", 30.0);
    Arc::make_mut(&mut b.rules)
        .formations
        .doctrine
        .square_margin = 0.0;
    place_at_gap(&mut b, 9.5);
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Square);
    place_at_gap(&mut b, 11.0);
    next_move(&mut b, &s, &mut l);
    assert_eq!(b.regiments[0].formation, Formation::Line);
}

/// Foot close up only against horse that would charge their line (doctrine): troopers whose
/// doctrine asks odds of 1.5 (hold_the_line) before they charge do not charge a line of like
/// morale points, so the foot stay in line, every musket to the front; troopers charging at
/// 0.7 (rupert) make them close up. Halted troopers 11" off cannot reach at a trot; trotting,
/// their next gait is the canter (20") and they can.
#[test]
fn f17_foot_close_up_only_against_horse_that_would_charge_their_line() {
    for (doctrine, gap, gait, square) in [
        ("hold_the_line", 7.0, Gait::Halt, false),
        ("rupert", 7.0, Gait::Halt, true),
        ("rupert", 11.0, Gait::Halt, false),
        ("rupert", 11.0, Gait::Trot, true),
    ] {
        let (mut b, s) = foot_facing_horse(doctrine, 30.0);
        place_at_gap(&mut b, gap);
        b.regiments[1].gait = gait;
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(
            f == Formation::Square,
            square,
            "{doctrine} {gap} {gait:?}: {f:?}"
        );
    }
}

/// Foot do not stand in square to be shot down (doctrine, `horse_outshoot_odds`), under the
/// doctrine that opens it whatever the horse would then do (`open_square_to_chargers` true;
/// the built-in doctrine keeps it closed against horse that would charge the line: f21): 240
/// troopers halted 1" from a square whose face holds a quarter of its 18 musketeers (5: a
/// volley expected to hit 10/6 at the pistol's short range, against the troopers' 12 pistols'
/// 20/6) are shooting, not charging: the square opens into line (every musket firing), where
/// before it stood. Trotting troopers there may charge the line: it stays closed. With the
/// key at 3 (the troopers' 20/6 short of three times 10/6) they do not outshoot it: it stays
/// closed. Opened, the line holds against those horse while they are near, trotting (so able
/// to charge) or not: no flip back into square; once they are beyond their reach (25") it
/// forgets them, and closes up again when they come on within it.
#[test]
fn f18_a_square_opens_to_line_against_halted_horse_that_outshoot_it() {
    for (gait, odds, square) in [
        (Gait::Halt, 1.0, false),
        (Gait::Trot, 1.0, true),
        (Gait::Halt, 3.0, true),
    ] {
        let (mut b, s) = foot_facing_horse("rupert", 30.0);
        let doctrine = &mut Arc::make_mut(&mut b.rules).formations.doctrine;
        doctrine.horse_outshoot_odds = odds;
        doctrine.open_square_to_chargers = true;
        let rules = b.rules.clone();
        b.regiments[0].form(Formation::Square, &rules);
        place_at_gap(&mut b, 1.0);
        b.regiments[1].gait = gait;
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(f == Formation::Square, square, "{gait:?} {odds}: {f:?}");
        if square {
            continue;
        }
        let mut l = EventLog::default();
        for (gap, gait, square) in [
            (1.0, Gait::Trot, false),
            (6.0, Gait::Trot, false),
            (25.0, Gait::Trot, false),
            (6.0, Gait::Trot, true),
        ] {
            place_at_gap(&mut b, gap);
            b.regiments[1].gait = gait;
            next_move(&mut b, &s, &mut l);
            let f = b.regiments[0].formation;
            assert_eq!(f == Formation::Square, square, "then {gap}: {f:?}");
        }
    }
}

/// Horse whose nearest enemy is a square they cannot charge (doctrine, `horse_outshoot_odds`):
/// 240 troopers 3" from a square (they act first; the square is held in place) whose face
/// they outshoot (20/6 against 10/6) stand there to shoot it (halted, within the pistol's 4")
/// instead of riding up beside it. Against 48 musketeers (a face of 12, 5 expected) they do
/// not: with another enemy they can charge on the table they go for it; with none they draw
/// back beyond the square's muskets (12"), facing it.
#[test]
fn f19_horse_facing_a_square_shoot_it_only_if_they_outshoot_it() {
    let run = |musketeers: u16, other: bool| {
        let mut specs = vec![
            (Side::Parliament, FOOT, 720, 36.0, 10.0),
            (Side::Royalist, TROOPERS, 240, 36.0, 30.0),
        ];
        if other {
            specs.push((Side::Parliament, FOOT, 720, 66.0, 44.0));
        }
        let mut s = setup_with(&specs, "hold_the_line", Ground::open(72.0, 48.0));
        side_follows(&mut s, Side::Royalist, "rupert");
        let mut b = battle(&s);
        b.first = Side::Royalist;
        b.regiments[0].musketeers = musketeers;
        let rules = b.rules.clone();
        b.regiments[0].form(Formation::Square, &rules);
        b.regiments[0].halt_until = 99;
        if other {
            b.regiments[2].halt_until = 99;
        }
        place_at_gap(&mut b, 3.0);
        b.regiments[1].gait = Gait::Trot;
        let was = b.regiments[1].pos;
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.movement_phase(&s, &mut d, &mut l);
        d.finish();
        (b, was)
    };
    let (b, was) = run(18, false);
    assert_eq!(b.regiments[1].pos, was, "they stand");
    assert_eq!(b.regiments[1].gait, Gait::Halt);
    assert!(close(b.gap(0, 1), 3.0));

    let (b, was) = run(48, false);
    assert!(b.gap(0, 1) > 12.0, "drawn back: {}", b.gap(0, 1));
    assert!(b.regiments[1].pos.y > was.y);
    let toward = (b.regiments[0].pos - b.regiments[1].pos).facing();
    assert!((b.regiments[1].facing - toward).abs() < 1e-9, "facing it");

    let (b, was) = run(48, true);
    let other = b.regiments[2].pos;
    assert!(b.regiments[1].pos.dist(other) < was.dist(other) - 5.0);
    assert!(b.gap(0, 1) > 3.0, "away from the square: {}", b.gap(0, 1));
}

/// HALTED HORSE (doctrine, `formations.doctrine.held_horse_threaten` false): rupert troopers
/// halted 7" before foot in line would charge the line at a trot (f17): free to advance, they
/// make the foot close into square. Held this move by a stand result (`halt_until` this move)
/// they may not advance until the next: with the foot acting first next move too (they can
/// form then, before the horse may charge) the foot stay in line, where before they closed up;
/// with the horse's side acting first (they would charge next move before the foot could form)
/// they still close up, as they do against held horse with the key true.
#[test]
fn f20_horse_held_by_a_stand_threaten_only_from_the_move_they_may_advance() {
    for (held, horse_first, threaten, square) in [
        (false, false, false, true),
        (true, false, false, false),
        (true, true, false, true),
        (true, false, true, true),
    ] {
        let (mut b, s) = foot_facing_horse("rupert", 30.0);
        Arc::make_mut(&mut b.rules)
            .formations
            .doctrine
            .held_horse_threaten = threaten;
        place_at_gap(&mut b, 7.0);
        b.turn = 5;
        b.regiments[1].halt_until = if held { 5 } else { 4 };
        b.regiments[1].gait = Gait::Halt;
        if horse_first {
            b.first = Side::Royalist;
        }
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(
            f == Formation::Square,
            square,
            "held {held}, horse first {horse_first}, key {threaten}: {f:?}"
        );
    }
}

/// A SQUARE NOT OPENED TO HORSE THAT WOULD CHARGE ITS LINE (doctrine,
/// `formations.doctrine.open_square_to_chargers` false): rupert troopers halted 1" from a
/// square whose face they outshoot (20/6 against 10/6, f18) would charge its line at a trot
/// were it opened: the square stays closed, where before it opened into line for the troopers
/// to charge. Foot already in line holding it against such horse (opened under the old
/// doctrine) close up again when they come on, trotting, 6" off. With the key true the square
/// opens and the line holds (f18).
#[test]
fn f21_a_square_is_not_opened_to_horse_that_would_charge_its_line() {
    for (open_to_chargers, square) in [(false, true), (true, false)] {
        let (mut b, s) = foot_facing_horse("rupert", 30.0);
        Arc::make_mut(&mut b.rules)
            .formations
            .doctrine
            .open_square_to_chargers = open_to_chargers;
        let rules = b.rules.clone();
        b.regiments[0].form(Formation::Square, &rules);
        place_at_gap(&mut b, 1.0);
        b.regiments[1].gait = Gait::Halt;
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(f == Formation::Square, square, "{open_to_chargers}: {f:?}");

        let (mut b, s) = foot_facing_horse("rupert", 30.0);
        Arc::make_mut(&mut b.rules)
            .formations
            .doctrine
            .open_square_to_chargers = open_to_chargers;
        b.regiments[0].holds_line = true;
        place_at_gap(&mut b, 6.0);
        b.regiments[1].gait = Gait::Trot;
        let f = formation_after_moving(&mut b, &s);
        assert_eq!(
            f == Formation::Square,
            square,
            "{open_to_chargers}: held line {f:?}"
        );
    }
}

/// The doctrines in whole battles: changes of formation in `duel_foot_vs_horse` (battles
/// 0-99), printed with `--nocapture`, are fewer with the foot neither closing up against horse
/// held by a stand nor opening their square to horse that would charge its line than with
/// both keys true (the doctrine before).
#[test]
fn f22_duel_foot_against_horse_changes_formation_less() {
    let s = Scenario::open("duel_foot_vs_horse", &[])
        .unwrap()
        .setup()
        .unwrap();
    let changes = |old: bool| {
        let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
        rules.formations.doctrine.held_horse_threaten = old;
        rules.formations.doctrine.open_square_to_chargers = old;
        let d = Dickenson::new(rules);
        let mut b = d.new_battle(&s);
        let mut n = 0;
        for seed in 0..100 {
            let mut l = EventLog::default();
            d.fight(&mut b, &s, seed, &mut l);
            n += count(&l, |e| matches!(e, Event::FormationChanged { .. }));
        }
        n
    };
    let (now, before) = (changes(false), changes(true));
    println!("formation changes in 100 battles: {now} (keys false), {before} (keys true)");
    assert!(now < before, "{now} against {before}");
}

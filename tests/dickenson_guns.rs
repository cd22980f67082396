//! Dickenson guns' teams and pivots, hand-worked and fought through the engine with scripted
//! dice that must be used up exactly: a limbered gun's horses and mounted drivers are figures
//! (hit by volleys and hit areas, and losing them slows or stops the gun), a sited gun's team
//! stands behind it where shot falling there strikes it, and a sited gun turns by its trail to
//! bear on an enemy outside its front arc.
//!
//! Figures at 1:20: 720 foot are 18 pikemen and 18 musketeers. Every regiment is 3" wide and
//! 1" deep, every gun 0.5" wide and 1" deep; Parliament faces +y, the Royalists -y. The rules'
//! numbers used are in `configs/rulesets/dickenson.toml` (`[guns.*]`, `[gun_team]`,
//! `[gun_drill]`).

mod dickenson_common;

use dickenson_common::{battle, setup, setup_with};
use ecw_sim::army::{FootBalance, GunWeight, Side, UnitKind};
use ecw_sim::battlefield::{Area, AreaKind, Ground, Vec2};
use ecw_sim::dice::{ScriptedDice, SeededDice};
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::DickensonRules;
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson};
use ecw_sim::rules::dickenson::events::{Detail, Fall, Figures, Source};
use ecw_sim::setup::BattleSetup;

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const FALCON: UnitKind = UnitKind::Artillery(GunWeight::VeryLight);
const SAKER: UnitKind = UnitKind::Artillery(GunWeight::Medium);
const CULVERIN: UnitKind = UnitKind::Artillery(GunWeight::Heavy);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// The losses told for regiment `unit`.
fn losses(l: &EventLog, unit: u16) -> Vec<(Source, u16, u16, Figures)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::Losses {
                unit: u,
                source,
                hits,
                saved,
                lost,
                ..
            }) if u == unit => Some((source, hits, saved, lost)),
            _ => None,
        })
        .collect()
}

/// One movement phase with no dice (nobody charges or throws).
fn move_once(b: &mut Battle, s: &BattleSetup, l: &mut EventLog) {
    let mut d = ScriptedDice::new(&[]);
    b.movement_phase(s, &mut d, l);
    d.finish();
}

/// TEAM UNDER FIRE: a limbered saker (2 horses, 1 driver, 5 gunners) 6" from foot takes their
/// volley at medium range: 3, 4, 1 less 2 are 3 hits. Each goes to the larger of team and
/// crew, the team on a tie (ruling): crew (3 v 5), crew (3 v 4), team (3 v 3). The gunners
/// save on 4+ (1: lost, 5: saved), the team on a 6 (2: lost); the gunner's officer die (1)
/// strikes rank and file; the team's loss is a horse (2 horses to 1 driver). Sited, the same
/// volley falls on the gunners alone.
#[test]
fn g1_a_limbered_guns_horses_and_drivers_are_hit_by_fire() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, SAKER, 0, 36.0, 17.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].limbered = true;
    assert_eq!((b.regiments[1].horses, b.regiments[1].drivers), (2, 1));
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 4, 1, 1, 5, 2, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let lost = Figures {
        gunners: 1,
        horses: 1,
        ..Figures::default()
    };
    assert_eq!(losses(&l, 1), vec![(Source::Volley, 3, 1, lost)]);
    let g = b.regiments[1];
    assert_eq!((g.gunners, g.horses, g.drivers), (4, 1, 1));
    // The team is not in the regiment's figures: only the gunner is a figure lost.
    assert!(l.0.contains(&Event::CvLost {
        unit: 1,
        amount: 1,
        cause: ecw_sim::events::LossCause::Fire,
        cv: 4
    }));
    assert_eq!(g.lost_this_move, 2, "both count for its morale throw");

    // Sited and facing the foot: the team stands behind the gun with the limber, beyond the
    // gun from the foot (g7 has them nearer); the three hits are the gunners' (saves 1, 5, 2:
    // two lost, officer dice 1, 1). Having fired this move, the gun does not answer.
    let mut b = battle(&s);
    b.regiments[1].facing = std::f64::consts::PI;
    b.regiments[1].fired = true;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 4, 1, 1, 5, 2, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let g = b.regiments[1];
    assert_eq!((g.gunners, g.horses, g.drivers), (3, 2, 1));
}

/// TEAM UNDER A HIT AREA: a saker 20" from a limbered falcon (1 horse, 1 driver): coloured 3
/// and white 3 lay the ball on it; the effect die (maximum range: one die) is 4. The piece
/// throws on the gun-on-gun table (1, saker at falcon +1: 2 gunners hit, saves 4 and 1: one
/// falls, officer die 1); its team are figures under the area: 2 of the effect's 4, saved on a
/// 6 (1, 1): the horse and the driver fall. With neither it cannot be drawn.
#[test]
fn g2_a_hit_area_strikes_a_limbered_guns_team() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FALCON, 0, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].limbered = true;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 3, 4, 1, 4, 1, 1, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(l.0.iter().any(|e| matches!(
        e,
        Event::Dickenson(Detail::GunShot {
            unit: 0,
            fall: Fall::OnTarget,
            effect: 4,
            ..
        })
    )));
    let team = Figures {
        horses: 1,
        drivers: 1,
        ..Figures::default()
    };
    let crew = Figures {
        gunners: 1,
        ..Figures::default()
    };
    assert_eq!(
        losses(&l, 1),
        vec![(Source::Gun, 2, 1, crew), (Source::Gun, 2, 0, team)]
    );
    let f = b.regiments[1];
    assert_eq!((f.gunners, f.horses, f.drivers), (4, 0, 0));
    assert_eq!(
        f.move_at(
            f.gait,
            &ecw_sim::rules::dickenson::DickensonRules::builtin()
        ),
        0.0
    );
}

/// LOSING THE TEAM STOPS THE GUN: a limbered saker 40" from foot (beyond its 36" range) is
/// drawn 10" by its two horses; with one horse left it is drawn at half the team's move, 5"
/// (ruling); with no driver it cannot be drawn at all: it unlimbers where it stands (half a
/// move) for its crew to serve it, and once sited with the enemy beyond its range and pull it
/// does not limber again.
#[test]
fn g3_losing_horses_slows_and_losing_drivers_stops_a_drawn_gun() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 46.0),
    ]);
    for (horses, drivers, y, limbered) in
        [(2, 1, 14.0, true), (1, 1, 9.0, true), (2, 0, 4.0, false)]
    {
        let mut b = battle(&s);
        b.regiments[0].limbered = true;
        b.regiments[0].horses = horses;
        b.regiments[0].drivers = drivers;
        b.regiments[1].halt_until = 99;
        let mut l = EventLog::default();
        move_once(&mut b, &s, &mut l);
        let g = b.regiments[0];
        assert!(
            close(g.pos.y, y),
            "{horses} horses, {drivers} drivers: {}",
            g.pos.y
        );
        assert_eq!(g.limbered, limbered, "{horses} horses, {drivers} drivers");
        if !limbered {
            assert!(close(g.spent, 0.5));
            b.turn += 1;
            b.regiments[0].spent = 0.0;
            move_once(&mut b, &s, &mut l);
            assert!(!b.regiments[0].limbered && close(b.regiments[0].pos.y, 4.0));
        }
    }
}

/// GUNS PIVOT: a sited falcon faces up the table; foot stand 14" to its right, in its range
/// (24") but outside its 45-degree front arc. Without its move it cannot bear (no shot). In its
/// move it turns by its trail, without limbering, in half its limbering time (ruling: 1/8 of a
/// move), so it fires the same move: coloured 3 and white 3 lay the ball on the foot, the
/// effect's half die (a D3 of 6) is 3, saved on 6s (1, 1, 1), officer dice 1, 1, 1: rank and
/// file, each from the larger body (18 and 18: a musketeer, then a pikeman, then a musketeer). A culverin's pivot takes half a move (its limbering is a full one).
#[test]
fn g4_a_sited_gun_pivots_to_bear_on_a_target_outside_its_arc() {
    let s = setup(&[
        (Side::Parliament, FALCON, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 50.0, 10.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    b.regiments[1].facing = std::f64::consts::PI / 2.0; // facing away from the gun
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(
        !l.0.iter()
            .any(|e| matches!(e, Event::Dickenson(Detail::GunShot { .. })))
    );

    move_once(&mut b, &s, &mut l);
    let g = b.regiments[0];
    assert!(!g.limbered && close(g.pos.y, 10.0) && close(g.pos.x, 36.0));
    assert!(close(g.spent, 0.125), "{}", g.spent);
    assert!(b.bearing(0, b.regiments[1].pos) < 1e-6);
    assert!(l.0.contains(&Event::Dickenson(Detail::Pivoted { unit: 0 })));
    let mut d = ScriptedDice::new(&[3, 3, 6, 1, 1, 1, 1, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let three = Figures {
        pikemen: 1,
        musketeers: 2,
        ..Figures::default()
    };
    assert_eq!(losses(&l, 1), vec![(Source::Gun, 3, 0, three)]);

    let s = setup(&[
        (Side::Parliament, CULVERIN, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 50.0, 10.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].halt_until = 99;
    let mut l = EventLog::default();
    move_once(&mut b, &s, &mut l);
    assert!(close(b.regiments[0].spent, 0.5) && !b.regiments[0].limbered);
}

/// WAGONS IN A BUILT-IN BATTLE: Naseby's New Model train brings an ammunition wagon with each
/// of its five gun units, and nobody else has any; under Dickenson each is a full load more
/// (a demi-culverin is a saker here: 6 balls, 12 portions).
#[test]
fn g5_nasebys_train_comes_with_its_wagons() {
    use ecw_sim::rules::Ruleset;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    let s = ecw_sim::scenario::Scenario::open("naseby", &[])
        .unwrap()
        .setup()
        .unwrap();
    let with: Vec<(Side, u8)> = s
        .units
        .iter()
        .filter(|u| u.wagons > 0)
        .map(|u| (u.side, u.wagons))
        .collect();
    assert_eq!(with, vec![(Side::Parliament, 1); 5]);
    let b = Dickenson::builtin().new_battle(&s);
    let guns = b.regiments.iter().filter(|r| r.is_gun()).count();
    assert_eq!(
        b.regiments.iter().filter(|r| r.wagons == 1).count(),
        5,
        "of {guns} guns"
    );
    let mut b = b;
    let i = b.regiments.iter().position(|r| r.wagons == 1).unwrap();
    b.regiments[i].balls = 0;
    b.turn = 1;
    b.reload_phase();
    let g = b.regiments[i];
    assert_eq!((g.balls, g.powder, g.wagons), (6, 24, 0));
}

/// A SITED GUN'S TEAM STANDS BEHIND IT (ruling: `gun_team.sited_behind`, 3"): a falcon 21" from
/// a sited saker facing away lays its ball 3" short (coloured 3: no drift; white 2: -3" in the
/// 20-30" band), on the saker's limber and team at 18", clear of its ammunition (19") and its
/// piece (21"). The effect's half die (6: a D3 of 3) falls on the three team figures under the
/// area, saved on a 6 (6, 1, 1): both horses fall (2 horses to 1 driver, then 1 to 1). Before,
/// a sited gun's team could not be hit at all. Without horses the saker cannot limber up to
/// advance on an enemy beyond its range and pull; with its team whole it does.
#[test]
fn g6_a_sited_guns_team_behind_it_is_struck_and_then_cannot_limber() {
    let s = setup(&[
        (Side::Parliament, FALCON, 0, 36.0, 10.0),
        (Side::Royalist, SAKER, 0, 36.0, 31.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 2, 6, 6, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(l.0.iter().any(|e| matches!(
        e,
        Event::Dickenson(Detail::GunShot {
            unit: 0,
            fall: Fall::Short,
            effect: 3,
            ..
        })
    )));
    let team = Figures {
        horses: 2,
        ..Figures::default()
    };
    assert_eq!(losses(&l, 1), vec![(Source::Gun, 3, 1, team)]);
    let g = b.regiments[1];
    assert_eq!(
        (g.gunners, g.horses, g.drivers, g.limbered),
        (5, 0, 1, false)
    );
    assert!(
        !l.0.iter()
            .any(|e| matches!(e, Event::Dickenson(Detail::AmmunitionBlown { .. })))
    );

    // The enemy beyond range and pull (47.5" off, holding): whole, the team limbers up.
    let far = |b: &mut Battle| {
        b.regiments[0].pos = ecw_sim::battlefield::Vec2::new(0.0, 0.0);
        b.regiments[0].halt_until = 99;
    };
    far(&mut b);
    move_once(&mut b, &s, &mut l);
    assert!(!b.regiments[1].limbered, "no horses, no limbering");
    let mut whole = battle(&s);
    whole.regiments[1].facing = 0.0;
    far(&mut whole);
    move_once(&mut whole, &s, &mut l);
    assert!(whole.regiments[1].limbered, "a whole team limbers up");
}

/// Every die a 3 (a volley at medium range hits once; every save fails; every casualty is
/// rank and file).
struct Threes;

impl ecw_sim::dice::DiceSource for Threes {
    fn d6(&mut self) -> u8 {
        3
    }
    fn rolled(&self) -> u64 {
        0
    }
    fn below(&mut self, _n: u32) -> u32 {
        2
    }
}

/// VOLLEYS REACH A SITED GUN'S TEAM (ruling): a Royalist saker sited at (36, 31) facing +y has
/// its team (2 horses, 1 driver) 3" behind it, at (36, 28). Parliament foot at (36, 21) come
/// up behind the gun: the team, 6" off (medium range), is nearer than the gun (9", long) and
/// takes the volley. 18 musketeers fire three volleys of six, each die 3 less 2 for medium
/// range: 3 hits, on the team alone (the crew untouched), saved on a 6: the throws 1, 1, 6 bring
/// down 2, each from the larger of horses and drivers (horses on a tie): both horses. Without
/// the team the volley would go at the gun at long range (3 less 3: no hit, no save thrown).
/// Foot in front of the gun fire at the gun, whose crew take the hits; the team stands.
#[test]
fn g7_a_volley_falls_on_a_sited_guns_team_where_it_is_the_nearer() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 21.0),
        (Side::Royalist, SAKER, 0, 36.0, 31.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    let crew = b.regiments[1].gunners;
    assert_eq!((b.regiments[1].horses, b.regiments[1].drivers), (2, 1));
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 3, 3, 1, 1, 6]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let team = Figures {
        horses: 2,
        ..Figures::default()
    };
    assert_eq!(losses(&l, 1), vec![(Source::Volley, 3, 1, team)]);
    let g = b.regiments[1];
    assert_eq!((g.gunners, g.horses, g.drivers), (crew, 0, 1));

    // In front of the gun (7.5" off its muzzle), the foot hit its crew, never its team.
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    b.regiments[0].pos = ecw_sim::battlefield::Vec2::new(36.0, 39.5);
    b.regiments[0].facing = std::f64::consts::PI;
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut Threes, &mut l);
    let g = b.regiments[1];
    assert_eq!((g.horses, g.drivers), (2, 1));
    assert!(g.gunners < crew, "{} of {crew}", g.gunners);
}

/// A sited falcon of Parliament's at (36, 10) facing up the table, a regiment of its own foot
/// at (`friend_x`, 14) and the Royalist foot halted at (36, 28), 17" off, in the falcon's 24"
/// and beyond every musket. A hill from the table's edge to `hill_to`, if any; `clear`: the key
/// `battle.guns_clear_line`. One fire phase, Parliament first, seeded dice: at whom the falcon
/// fired, if at anyone.
fn falcon_fires_at(friend_x: f64, hill_to: Option<f64>, clear: bool) -> Option<u16> {
    let mut ground = Ground::open(72.0, 48.0);
    if let Some(y) = hill_to {
        ground.areas.push(Area {
            kind: AreaKind::Hill,
            points: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(72.0, 0.0),
                Vec2::new(72.0, y),
                Vec2::new(0.0, y),
            ],
        });
    }
    let s = setup_with(
        &[
            (Side::Parliament, FALCON, 0, 36.0, 10.0),
            (Side::Parliament, FOOT, 720, friend_x, 14.0),
            (Side::Royalist, FOOT, 720, 36.0, 28.0),
        ],
        "rupert",
        ground,
    );
    let mut rules = DickensonRules::builtin();
    rules.battle.guns_clear_line = clear;
    let mut b = Dickenson::new(rules).new_battle(&s);
    (b.turn, b.first) = (1, Side::Parliament);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut SeededDice::new(1), &mut l);
    l.0.iter().find_map(|e| match *e {
        Event::Dickenson(Detail::GunShot {
            unit: 0, target, ..
        }) => Some(target),
        _ => None,
    })
}

/// GUNS DO NOT FIRE THROUGH THEIR OWN MEN (ruling (new), `battle.guns_clear_line`: the text is
/// silent): a gun lays its shot only on an enemy whose line from the gun crosses no friend's
/// footprint, save friends below it when it stands on a hill (it fires over their heads). The
/// falcon with its own foot straight before it, on the flat, holds its fire; with the foot 6"
/// aside it fires at the Royalist foot; on a hill reaching y 12, the foot below it, it fires
/// over them; with the hill reaching y 16, the foot on it too, it holds. With the key false it
/// fires through them, its shot falling where the dice lay it.
#[test]
fn g8_a_gun_does_not_fire_through_its_own_men_save_from_a_hill() {
    assert_eq!(falcon_fires_at(36.0, None, true), None);
    assert_eq!(falcon_fires_at(42.0, None, true), Some(2));
    assert_eq!(falcon_fires_at(36.0, Some(12.0), true), Some(2));
    assert_eq!(falcon_fires_at(36.0, Some(16.0), true), None);
    assert_eq!(falcon_fires_at(36.0, None, false), Some(2));
}

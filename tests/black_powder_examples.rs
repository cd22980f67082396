//! Hand-worked Black Powder examples, one per rule, fought through the engine with scripted
//! dice. Each says what the seed's tables give and checks that the engine does the same: the
//! script must be used up exactly (a left-over or missing die fails the test).
//!
//! Figures at 1:20: 600 foot are 30 figures (Standard), 400 horse are 20 (Small). A template CV
//! of 4 or 5 is Trained, 6 Elite. So Trained foot have stamina 4 and move 7"; Trained horse
//! stamina 3, trotters 12", gallopers 14".

use std::f64::consts::PI;

use ecw_sim::army::{
    Command, CommandKind, Commander, CommanderRating, FootBalance, GunWeight, HorseKind, Side,
    Unit, UnitKind,
};
use ecw_sim::battlefield::{Ground, Vec2};
use ecw_sim::dice::ScriptedDice;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::events::{Event, EventLog, LossCause};
use ecw_sim::rules::black_powder::BlackPowderRules;
use ecw_sim::rules::black_powder::battle::Battle;
use ecw_sim::rules::black_powder::command::Band;
use ecw_sim::rules::black_powder::events::{ChargeBy, Detail};
use ecw_sim::rules::black_powder::morale::BreakResult;
use ecw_sim::rules::black_powder::tables::SpecialRule;
use ecw_sim::rules::{BlackPowder, Ruleset};
use ecw_sim::setup::{BattleSetup, CommanderSource, Names, RatingSource};

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const TROTTERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);
const GALLOPERS: UnitKind = UnitKind::Horse(HorseKind::Gallopers);

/// One unit: side, kind, men, template CV, x, y (Parliament faces +y, the Royalists -y).
type Spec = (Side, UnitKind, u32, u8, f64, f64);

/// A battle of these units, one brigade a side (with a commander), Rupert's doctrine.
fn setup(specs: &[Spec]) -> BattleSetup {
    let mut units = Vec::new();
    let mut names = Names::default();
    for (i, &(side, kind, men, cv, x, y)) in specs.iter().enumerate() {
        let facing = if side == Side::Parliament { 0.0 } else { PI };
        let mut u = Unit::new(i as u16, side, side.index() as u16, kind, cv).at(x, y, facing);
        u.men = Some(men);
        units.push(u);
        names.units.push(format!("unit {i}"));
    }
    let rating = CommanderRating {
        lp_modifier: 0,
        radius: 12.0,
        rerolls: 0,
        enemy_rerolls: 0,
    };
    let mut commanders = Vec::new();
    let mut commands = Vec::new();
    for side in Side::BOTH {
        let id = side.index() as u16;
        let mut c = Commander::new(id, side, rating);
        c.command = Some(id);
        // He starts where he stands each turn: 3" behind his brigade's centre.
        let mine: Vec<&Unit> = units.iter().filter(|u| u.side == side).collect();
        let n = mine.len().max(1) as f64;
        let (x, y) = mine
            .iter()
            .fold((0.0, 0.0), |(x, y), u| (x + u.pos.x / n, y + u.pos.y / n));
        let back = if side == Side::Parliament { -3.0 } else { 3.0 };
        c.pos = ecw_sim::battlefield::Vec2::new(x, y + back);
        commanders.push(c);
        names.commanders.push(format!("{side} commander"));
        names.commands.push(format!("{side} brigade"));
        commands.push(Command {
            id,
            side,
            kind: CommandKind::Foot,
            name: id,
            commander: Some(id),
            units: units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.id)
                .collect(),
            lps: 0,
            doctrine: 0,
            commissary: false,
        });
    }
    let n = units.len();
    BattleSetup {
        name: "example".into(),
        rules: std::sync::Arc::new(ecw_sim::rules::ironsides::IronsidesRules::builtin()),
        ruleset_changes: Default::default(),
        ground: Ground::open(72.0, 48.0),
        turn_limit: 12,
        scenario_turn_limit: None,
        break_fraction: 0.5,
        ratings: vec![RatingSource::Fixed; n],
        units,
        commander_sources: vec![CommanderSource::Fixed; 2],
        commanders,
        commands,
        captain_generals: [None, None],
        names,
        doctrines: vec![DoctrineParams::builtin("rupert").unwrap()],
        cg_doctrine: [0, 0],
        arrivals: Vec::new(),
        reserves: Vec::new(),
    }
}

fn battle(s: &BattleSetup) -> Battle {
    let mut b = BlackPowder::builtin().new_battle(s);
    b.turn = 1;
    b
}

fn details(log: &EventLog) -> Vec<Detail> {
    log.0
        .iter()
        .filter_map(|e| match e {
            Event::BlackPowder(d) => Some(*d),
            _ => None,
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// EXAMPLE 1 (command, brigade order, distance): two foot regiments 32" apart with their
/// commander 3" behind their centre, 16.3" from each: two full 8" steps, -2, rating 8 - 2 = 6.
/// Both advance straight forward, so one brigade roll serves both: 3 + 3 = 6, equal to the
/// rating: 100%, 7" each. Enemy horse 34" away: no initiative moves.
#[test]
fn example_1_brigade_order_with_distance_modifier() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 20.0, 10.0),
        (Side::Parliament, FOOT, 600, 4, 52.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 20.0, 44.0),
        (Side::Royalist, TROTTERS, 400, 5, 52.0, 44.0),
    ]);
    let mut b = battle(&s);
    let mut dice = ScriptedDice::new(&[3, 3]);
    let mut log = EventLog::default();
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut log);
    dice.finish();
    let orders: Vec<_> = details(&log)
        .into_iter()
        .filter(|d| matches!(d, Detail::Order { .. }))
        .collect();
    assert_eq!(orders.len(), 2);
    for o in orders {
        assert!(
            matches!(
                o,
                Detail::Order {
                    brigade: true,
                    roll: 6,
                    rating: 6,
                    band: Band::Equal,
                    ..
                }
            ),
            "{o:?}"
        );
    }
    assert!(close(b.regiments[0].pos.y, 17.0) && close(b.regiments[1].pos.y, 17.0));
}

/// EXAMPLE 2 (individual order, pike wheel, 150%): a foot regiment whose enemy lies 45 degrees
/// (from its left sleeve at x = 19)
/// off its front needs an individual order. Roll 1 + 2 = 3 against 8: two or more under, 150%
/// of 7" = 10.5"; the pike block wheels, which costs half: 5.25" along the new facing.
#[test]
fn example_2_individual_order_and_pike_wheel() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 20.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 49.0, 40.0),
    ]);
    let mut b = battle(&s);
    let mut dice = ScriptedDice::new(&[1, 2]);
    let mut log = EventLog::default();
    let from = b.regiments[0].pos;
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut log);
    dice.finish();
    let d = details(&log);
    assert!(
        d.iter().any(|d| matches!(
            d,
            Detail::Order {
                brigade: false,
                roll: 3,
                rating: 8,
                band: Band::Under,
                ..
            }
        )),
        "{d:?}"
    );
    let r = &b.regiments[0];
    assert!(close(r.pos.dist(from), 5.25), "{:?}", r.pos);
    assert!(
        close(r.facing.to_degrees(), 45.0),
        "{}",
        r.facing.to_degrees()
    );
}

/// EXAMPLE 3 (initiative): within 12" of the enemy there is no roll; Raw trotters (11") move
/// 100% straight at trotters 12" away, which they cannot reach to charge: 11", no dice. (Foot in
/// good order they would not ride at: it would form hedgehog, the example below.)
#[test]
fn example_3_initiative_within_twelve_inches() {
    let s = setup(&[
        (Side::Parliament, TROTTERS, 400, 3, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 23.0),
    ]);
    let mut b = battle(&s);
    let mut dice = ScriptedDice::new(&[]);
    let mut log = EventLog::default();
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut log);
    let d = details(&log);
    assert!(d.contains(&Detail::Initiative { unit: 0 }), "{d:?}");
    assert!(!d.iter().any(|x| matches!(x, Detail::Order { .. })));
    assert!(
        close(b.regiments[0].pos.y, 21.0),
        "{:?}",
        b.regiments[0].pos
    );
}

/// EXAMPLE 4 (shooting, First Fire, disorder): the left sleeve (3 dice) shoots at horse 8.06"
/// off. First Fire +1: 6 hits, 3 + 1 hits, 2 + 1 misses: 2 hits, and the 6 disorders. The horse
/// saves on 4+: 4 saves, 1 fails: 1 casualty of its stamina 3.
#[test]
fn example_4_volley_with_first_fire_and_disorder() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 19.0),
    ]);
    let mut b = battle(&s);
    let mut dice = ScriptedDice::new(&[6, 3, 2, 4, 1]);
    let mut log = EventLog::default();
    let cas = b.volley(0, 3, false, &s, &mut dice, &mut log);
    dice.finish();
    assert_eq!(cas, 1);
    let h = &b.regiments[1];
    assert_eq!((h.stamina, h.casualties, h.disordered), (3, 1, true));
    assert!(details(&log).contains(&Detail::Volley {
        unit: 0,
        target: 1,
        dice: 3,
        modifier: 1,
        hits: 2,
        casualties: 1,
        closing: false
    }));
    assert!(log.0.contains(&Event::CvLost {
        unit: 1,
        amount: 1,
        cause: LossCause::Fire,
        cv: 2
    }));
    // The regiment has fired its first volley: the other sleeve has no +1.
    let mut dice = ScriptedDice::new(&[3, 3, 3]);
    b.volley(2, 3, false, &s, &mut dice, &mut EventLog::default());
    dice.finish();
}

/// EXAMPLE 5 (artillery): a medium gun 9" from a pike block: medium range, 2 dice; +1 at a
/// column: 3 + 1 and 5 + 1 both hit. Saves at -2 (artillery at medium range; the column's +1
/// does not count against guns): 5 - 2 fails, 6 - 2 saves: 1 casualty.
#[test]
fn example_5_artillery_at_medium_range_on_a_pike_block() {
    let s = setup(&[
        (
            Side::Parliament,
            UnitKind::Artillery(GunWeight::Medium),
            200,
            4,
            36.0,
            10.0,
        ),
        (Side::Royalist, FOOT, 600, 4, 36.0, 20.0),
    ]);
    let mut b = battle(&s);
    let pike = 2; // gun 0; the Royalist regiment's elements 1, 2 (pike), 3
    let mut dice = ScriptedDice::new(&[3, 5, 5, 6]);
    let mut log = EventLog::default();
    assert_eq!(b.volley(0, pike, false, &s, &mut dice, &mut log), 1);
    dice.finish();
    assert!(details(&log).contains(&Detail::Volley {
        unit: 0,
        target: 1,
        dice: 2,
        modifier: 1,
        hits: 2,
        casualties: 1,
        closing: false
    }));
}

/// EXAMPLE 6 (melee, break test, Rash): Royalist gallopers (Rash) have charged Parliament
/// trotters. Trotters: 5 dice at 4+: 4, 5 hit: 2 hits; the gallopers save 4, fail 2: 1
/// casualty. Gallopers: 5 dice +1 charging: 3, 3, 6 hit, 1, 2 miss: 3 hits; the trotters save
/// 1, 2 fail, 5 saves: 2 casualties. Result 1 v 2: the trotters lose by 1 and test: 2 + 2 = 4,
/// less 1 = 3: broken. The Rash gallopers roll 5: they halt instead of sweeping on.
#[test]
fn example_6_melee_round_break_test_and_rash() {
    let s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 20.0),
        (Side::Royalist, GALLOPERS, 400, 5, 36.0, 21.0),
    ]);
    let mut b = battle(&s);
    assert!(b.regiments[1].specials.has(SpecialRule::Rash));
    for (r, o) in [(0, 1), (1, 0)] {
        b.regiments[r].engaged = Some(o);
    }
    b.regiments[1].charged = true;
    let mut dice = ScriptedDice::new(&[4, 5, 1, 2, 3, 4, 2, 3, 3, 6, 1, 2, 1, 2, 5, 2, 2, 5]);
    let mut log = EventLog::default();
    b.fight_round(0, 1, &s, &mut dice, &mut log);
    dice.finish();
    let d = details(&log);
    assert!(
        d.contains(&Detail::MeleeRound {
            a: 0,
            b: 1,
            a_casualties: 1,
            b_casualties: 2,
            a_score: 1,
            b_score: 2
        }),
        "{d:?}"
    );
    assert!(d.contains(&Detail::BreakTest {
        unit: 0,
        roll: 4,
        penalty: 1,
        result: BreakResult::Broken,
        free: false
    }));
    assert!(b.regiments[0].gone && b.regiments[1].won_last && b.regiments[1].engaged.is_none());
    assert!(log.0.contains(&Event::PursuitHalted { unit: 1, turns: 0 }));
}

/// A SHAKEN WINNER DOES NOT SWEEP (ruling: shaken units do not charge, and a sweeping advance
/// charges the fresh enemy in reach): the Rash gallopers of example 6, already shaken, win the
/// round (the trotters' five dice all miss; the gallopers' five hit and the trotters save
/// none) and the trotters break (1 + 1, less 5 and 5 beyond their stamina); the gallopers
/// halt without the Rash die that would have sent them on.
#[test]
fn a_shaken_rash_winner_halts_without_a_die() {
    let s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 20.0),
        (Side::Royalist, GALLOPERS, 400, 5, 36.0, 21.0),
    ]);
    let mut b = battle(&s);
    for (r, o) in [(0, 1), (1, 0)] {
        b.regiments[r].engaged = Some(o);
    }
    b.regiments[1].charged = true;
    b.regiments[1].casualties = b.regiments[1].stamina;
    b.regiments[1].shaken = true;
    let mut dice = ScriptedDice::new(&[1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1]);
    let mut log = EventLog::default();
    b.fight_round(0, 1, &s, &mut dice, &mut log);
    dice.finish();
    assert!(
        b.regiments[0].gone && b.regiments[1].won_last,
        "{:?}",
        details(&log)
    );
    assert!(log.0.contains(&Event::PursuitHalted { unit: 1, turns: 0 }));
    assert!(
        !log.0
            .iter()
            .any(|e| matches!(e, Event::PursuitStarted { .. })),
        "{:?}",
        log.0
    );
}

/// Parliament trotters (not Rash) win a round against Royalist trotters, with more Royalist
/// trotters 30" off, under doctrine `d`: the trotters' five dice hit on 6, 6, 6 and the
/// Royalists save none (3 casualties); the Royalists' five all miss. Result 3 v 0: the loser
/// tests 3 + 3 = 6, less 3 = 3: broken. Whether the winner then sweeps on is the doctrine's
/// to choose, with no die: the events and where the winner ends.
fn horse_wins_under(d: DoctrineParams) -> (EventLog, Vec2) {
    let mut s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 20.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 21.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 51.0),
    ]);
    s.doctrines = vec![d];
    let mut b = battle(&s);
    assert!(!b.regiments[0].specials.has(SpecialRule::Rash));
    for (r, o) in [(0, 1), (1, 0)] {
        b.regiments[r].engaged = Some(o);
    }
    let mut dice = ScriptedDice::new(&[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3]);
    let mut log = EventLog::default();
    b.fight_round(0, 1, &s, &mut dice, &mut log);
    dice.finish();
    assert!(
        b.regiments[1].gone && b.regiments[0].won_last,
        "{:?}",
        log.0
    );
    (log, b.regiments[0].pos)
}

/// Whether the winner of `horse_wins_under(d)` swept on: a full move (12") towards the fresh
/// enemy, or halted where it won.
fn swept(d: DoctrineParams) -> bool {
    let name = d.name.clone();
    let (log, at) = horse_wins_under(d);
    let started = log
        .0
        .contains(&Event::PursuitStarted { unit: 0, target: 1 });
    if started {
        assert!(close(at.y, 32.0), "{name}'s horse swept on to {at:?}");
    } else {
        assert!(
            log.0.contains(&Event::PursuitHalted { unit: 0, turns: 0 }),
            "{name}: {:?}",
            log.0
        );
        assert!(
            close(at.y, 20.0),
            "{name}'s horse halted but moved to {at:?}"
        );
    }
    started
}

/// A SWEEPING ADVANCE IS THE DOCTRINE'S CHOICE for horse that is not Rash: Rupert's horse
/// sweeps on; Cromwell's halts where it won, to rally and strike again. The doctrine's
/// `sweeping_advance` decides whatever its aggression (Rupert's 1, Cromwell's 0.9).
#[test]
fn victorious_horse_sweeps_as_its_doctrine_says() {
    let builtin = |n| DoctrineParams::builtin(n).unwrap();
    assert!(swept(builtin("rupert")), "Rupert's horse halted");
    assert!(!swept(builtin("cromwell")), "Cromwell's horse swept on");
    let with = |n, on| DoctrineParams {
        sweeping_advance: Some(on),
        ..builtin(n)
    };
    assert!(!swept(with("rupert", false)) && swept(with("cromwell", true)));
    // Unset, aggression of 0.5 or more sweeps, as before the key.
    let unset = DoctrineParams {
        sweeping_advance: None,
        ..builtin("cromwell")
    };
    assert!(swept(unset));
}

/// EXAMPLE 7 (hedgehog): disordered foot charged by horse from the front roll a D6: 3, the
/// hedgehog forms, and horse may not attack a hedgehog (not shaken: ruling) from its front: the
/// charge stops short. Foot in good order form without a roll; on a 4 the horse catch them.
#[test]
fn example_7_hedgehog_stops_horse() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, GALLOPERS, 400, 5, 36.0, 18.0),
    ]);
    for (disordered, script) in [(true, &[3u8][..]), (false, &[][..])] {
        let mut b = battle(&s);
        b.regiments[0].disordered = disordered;
        let mut dice = ScriptedDice::new(script);
        let mut log = EventLog::default();
        assert!(!b.charge(1, (1, ChargeBy::Order), 14.0, &s, &mut dice, &mut log));
        dice.finish();
        let d = details(&log);
        let roll = disordered.then_some(3);
        assert!(
            d.contains(&Detail::Hedgehog {
                unit: 0,
                formed: true,
                roll
            }),
            "{d:?}"
        );
        assert!(d.contains(&Detail::Charge {
            unit: 1,
            target: 0,
            home: false,
            by: ChargeBy::Order
        }));
        assert!(b.regiments[0].hedgehog && b.regiments[1].engaged.is_none());
    }
    // A 4: caught before the hedgehog forms; closing fire (both sleeves, 3 dice each at +1
    // closing fire; the first also +1 First Fire) misses with 1s and the charge goes home.
    let mut b = battle(&s);
    b.regiments[0].disordered = true;
    let mut dice = ScriptedDice::new(&[4, 1, 1, 1, 1, 1, 1]);
    let mut log = EventLog::default();
    assert!(b.charge(1, (1, ChargeBy::Order), 14.0, &s, &mut dice, &mut log));
    dice.finish();
    assert!(!b.regiments[0].hedgehog && b.regiments[1].engaged == Some(0));
}

/// EXAMPLE 8 (break test, Steady, excess casualties): 5 casualties on stamina 3: 2 beyond it.
/// Steady passes its first test without a roll; the excess goes. Without Steady, 6 + 1 = 7,
/// less 2 = 5: retire a full move (7"), disordered.
#[test]
fn example_8_break_tests_steady_and_retire() {
    let s = setup(&[
        (Side::Parliament, FOOT, 200, 4, 36.0, 20.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 40.0),
    ]);
    let mut b = battle(&s);
    // 200 foot are 10 figures: Tiny, Trained: stamina 2.
    assert_eq!(b.regiments[0].stamina, 2);
    b.regiments[0].casualties = 4;
    b.regiments[0].specials = b.regiments[0].specials.with(SpecialRule::Steady);
    let mut dice = ScriptedDice::new(&[]);
    let mut log = EventLog::default();
    assert_eq!(b.break_test(0, 0, &mut dice, &mut log), BreakResult::Hold);
    assert_eq!(b.regiments[0].casualties, 2);
    let mut b = battle(&s);
    b.regiments[0].casualties = 4;
    let mut dice = ScriptedDice::new(&[6, 1]);
    assert_eq!(b.break_test(0, 0, &mut dice, &mut log), BreakResult::Retire);
    dice.finish();
    let r = &b.regiments[0];
    assert!(r.disordered && close(r.pos.y, 13.0) && r.casualties == 2);
}

/// EXAMPLE 9 (commander lost): a commander has joined a regiment that breaks (1 + 1 = 2): a D6
/// of 1 and he is lost; his replacement comes two turns later.
#[test]
fn example_9_commander_lost_with_a_broken_regiment() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 20.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 40.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].joined = Some(0);
    b.generals[0].joined = Some(0);
    b.regiments[0].must_test = true;
    let mut dice = ScriptedDice::new(&[1, 1, 1]);
    let mut log = EventLog::default();
    b.break_test_phase(&mut dice, &mut log);
    dice.finish();
    assert!(b.regiments[0].gone && b.generals[0].lost && b.generals[0].back_on == 3);
    assert!(
        log.0
            .iter()
            .any(|e| matches!(e, Event::GeneralCasualty { general: 0, .. }))
    );
}

/// EXAMPLE 10 (Elite, Brave): at the start of its turn a disordered Elite regiment shakes off
/// its disorder on 4; a shaken Brave regiment more than 12" from the enemy rallies on 4.
#[test]
fn example_10_elite_and_brave_rallies() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 6, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 40.0),
    ]);
    let mut b = battle(&s);
    let r = &mut b.regiments[0];
    assert!(r.specials.has(SpecialRule::Elite));
    assert_eq!(r.stamina, 5);
    r.disordered = true;
    r.shaken = true;
    r.casualties = 5;
    r.specials = r.specials.with(SpecialRule::Brave);
    let mut dice = ScriptedDice::new(&[4, 4]);
    let mut log = EventLog::default();
    b.start_of_turn(Side::Parliament, &mut dice, &mut log);
    dice.finish();
    let r = &b.regiments[0];
    assert!(!r.disordered && !r.shaken && r.casualties == 4);
}

/// EXAMPLE 11 (no passing a pike block): horse pressed against the back of its own pike block
/// cannot flow round it: disordered, it makes its way to the rear of the block and waits for
/// its brigade commander.
#[test]
fn example_11_pike_block_blocks_friends() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 9.2),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    let mut log = EventLog::default();
    b.advance(1, 0.0, 12.0, &s, &mut log);
    let r = &b.regiments[1];
    assert!(r.disordered && r.disarray);
    assert!(close(r.pos.y, 8.0) && close(r.pos.x, 36.0));
    assert!(details(&log).contains(&Detail::PikeBlocked { unit: 1, pike: 0 }));
    // Further away, the horse flows round the block.
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 6.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    b.advance(1, 0.0, 12.0, &s, &mut EventLog::default());
    let r = &b.regiments[1];
    assert!(!r.disordered && r.pos.dist(Vec2::new(36.0, 6.0)) > 11.9);
}

/// EXAMPLE 12 (closing fire): horse 4" off charges commanded musketeers (skirmishers, no
/// hedgehog). They shoot 3 dice at +1 closing fire, +1 close range, +1 skirmishers: 2, 3, 4 all
/// hit; the horse saves 1, 1, 1: three casualties, its whole stamina: shaken, it tests at once:
/// 3 + 1 = 4: broken, and the charge never lands.
#[test]
fn example_12_closing_fire_breaks_a_charge() {
    let s = setup(&[
        (Side::Parliament, UnitKind::ForlornHope, 600, 4, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 15.0),
    ]);
    let mut b = battle(&s);
    let mut dice = ScriptedDice::new(&[2, 3, 4, 1, 1, 1, 3, 1]);
    let mut log = EventLog::default();
    assert!(!b.charge(1, (0, ChargeBy::Order), 12.0, &s, &mut dice, &mut log));
    dice.finish();
    assert!(details(&log).contains(&Detail::Volley {
        unit: 0,
        target: 1,
        dice: 3,
        modifier: 3,
        hits: 3,
        casualties: 3,
        closing: true
    }));
    assert!(b.regiments[1].gone && b.regiments[0].engaged.is_none());
    assert!(log.0.contains(&Event::Disintegrated { unit: 1 }));
    assert!(
        !details(&log)
            .iter()
            .any(|d| matches!(d, Detail::Charge { .. }))
    );
}

/// EXAMPLE 13 (ground): Trained trotters (12") advancing into rough ground go at 50%: 6". Into
/// woods they may not go at all (skirmishers only): they halt short of the edge.
#[test]
fn example_13_rough_ground_and_woods() {
    use ecw_sim::battlefield::{Area, AreaKind};
    let square = |kind, y0: f64| Area {
        kind,
        points: vec![
            Vec2::new(0.0, y0),
            Vec2::new(72.0, y0),
            Vec2::new(72.0, y0 + 16.0),
            Vec2::new(0.0, y0 + 16.0),
        ],
    };
    let mut s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
    ]);
    s.ground.areas.push(square(AreaKind::Rough, 14.0));
    let mut b = battle(&s);
    b.advance(0, 0.0, 12.0, &s, &mut EventLog::default());
    assert!(
        close(b.regiments[0].pos.y, 16.0),
        "{:?}",
        b.regiments[0].pos
    );
    s.ground.areas[0] = square(AreaKind::Woods, 14.0);
    let mut b = battle(&s);
    b.advance(0, 0.0, 12.0, &s, &mut EventLog::default());
    let y = b.regiments[0].pos.y;
    assert!(y > 10.0 && y < 14.0, "{y}");
}

/// EXAMPLE 14 (disorder, ruling): a disordered regiment takes no orders, and recovers at the
/// end of its own turn; a regiment in disarray behind a pike block waits for its brigade
/// commander's order, which rallies it instead of moving it.
#[test]
fn example_14_disorder_and_disarray() {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].disordered = true;
    let mut dice = ScriptedDice::new(&[]);
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut EventLog::default());
    assert!(close(b.regiments[0].pos.y, 10.0));
    b.end_of_turn(Side::Parliament);
    assert!(!b.regiments[0].disordered);
    b.regiments[0].disordered = true;
    b.regiments[0].disarray = true;
    b.end_of_turn(Side::Parliament);
    assert!(b.regiments[0].disordered, "disarray outlasts the turn");
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut EventLog::default());
    let r = &b.regiments[0];
    assert!(!r.disordered && !r.disarray && close(r.pos.y, 10.0));
}

/// EXAMPLE 15 (commanders ride 18"): the commander of example 1 starts 47" from his place 3"
/// behind the brigade's centre (36, 7); each orders phase he rides 18" towards that place as
/// the regiments then stand (they advance meanwhile) until he is within 18", then reaches it.
#[test]
fn example_15_a_commander_rides_at_most_18_inches_a_turn() {
    let mut s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 20.0, 10.0),
        (Side::Parliament, FOOT, 600, 4, 52.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 20.0, 44.0),
        (Side::Royalist, TROTTERS, 400, 5, 52.0, 44.0),
    ]);
    // He stays behind his brigade rather than riding to join its foremost regiment.
    for d in &mut s.doctrines {
        d.general_leads = false;
    }
    let mut b = battle(&s);
    b.generals[0].pos = ecw_sim::battlefield::Vec2::new(36.0, -40.0);
    let mut rides = Vec::new();
    for _ in 0..4 {
        // His place this turn: 3" behind the centre of the regiments as they stand.
        let (p, q) = (b.regiments[0].pos, b.regiments[1].pos);
        let to = ecw_sim::battlefield::Vec2::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0 - 3.0);
        let from = b.generals[0].pos;
        let mut dice = ScriptedDice::new(&[6, 6]);
        b.orders_phase(Side::Parliament, &s, &mut dice, &mut EventLog::default());
        let (g, d) = (b.generals[0].pos, from.dist(to));
        rides.push(from.dist(g));
        if d <= 18.0 {
            assert!(close(g.x, to.x) && close(g.y, to.y), "{g:?} {to:?}");
        } else {
            assert!(
                close(from.dist(g), 18.0) && close(g.dist(to), d - 18.0),
                "{g:?}"
            );
        }
    }
    // Full rides while the brigade advances away from him, then the rest of the way.
    assert!(close(rides[0], 18.0) && rides[3] < 18.0, "{rides:?}");
}

/// EXAMPLE 16 (obstacles): crossing an obstacle costs 50% of the move; a move that does not
/// cross pays nothing. Trained trotters (12") advance from y = 10 with a hedge across the
/// table. At y = 20 the full move would cross it: half the move (6") does not reach it, so they
/// go as far as just short of it instead. At y = 14 half the move crosses it: 6", to y = 16.
/// At y = 30 the move never reaches it: the full 12".
#[test]
fn example_16_a_move_pays_for_an_obstacle_only_when_it_crosses() {
    use ecw_sim::battlefield::{LinearObstacle, ObstacleKind};
    let advance_to = |hedge_y: f64| {
        let mut s = setup(&[
            (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0),
            (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
        ]);
        s.ground.obstacles.push(LinearObstacle {
            kind: ObstacleKind::Hedge,
            a: Vec2::new(0.0, hedge_y),
            b: Vec2::new(72.0, hedge_y),
            severity: 1.0,
            hard_cover: false,
        });
        let mut b = battle(&s);
        b.advance(0, 0.0, 12.0, &s, &mut EventLog::default());
        b.regiments[0].pos
    };
    let short = advance_to(20.0);
    assert!(short.y < 20.0 && short.y > 19.9, "{short:?}");
    assert!(close(advance_to(14.0).y, 16.0), "{:?}", advance_to(14.0));
    assert!(close(advance_to(30.0).y, 22.0), "{:?}", advance_to(30.0));
}

/// EXAMPLE 17 (friends, ruling): a regiment may pass through friends (but a pike block) and
/// may not end its move on them. Trained trotters (12", footprint 3" by 1") advance from
/// y = 10 to y = 22: through friendly horse at y = 15 they end the full move; with friendly horse
/// standing at y = 22, squarely or 2" aside, they stop touching it, at y = 21; with the only clear
/// ground behind their start, they stay.
#[test]
fn example_17_a_move_passes_through_friends_but_does_not_end_on_them() {
    let advance_past = |friends: &[(f64, f64)]| {
        let mut specs = vec![
            (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0),
            (Side::Royalist, TROTTERS, 400, 5, 36.0, 44.0),
        ];
        for &(x, y) in friends {
            specs.push((Side::Parliament, TROTTERS, 400, 5, x, y));
        }
        let s = setup(&specs);
        let mut b = battle(&s);
        b.advance(0, 0.0, 12.0, &s, &mut EventLog::default());
        b.regiments[0].pos
    };
    let through = advance_past(&[(36.0, 15.0)]);
    assert!(close(through.y, 22.0), "{through:?}");
    for x in [36.0, 38.0] {
        let short = advance_past(&[(x, 22.0)]);
        assert!(
            (short.y - 21.0).abs() < 1e-6 && close(short.x, 36.0),
            "{short:?}"
        );
    }
    // Friends touching end to end from just ahead of the start to past its end: nowhere clear.
    let column: Vec<(f64, f64)> = (0..13).map(|k| (36.0, 11.0 + f64::from(k))).collect();
    let stays = advance_past(&column);
    assert!((stays.y - 10.0).abs() < 1e-6, "{stays:?}");
}

/// The Royalists' orders phase with no dice to throw (every order on initiative): its events.
fn royalist_orders(b: &mut Battle, s: &BattleSetup) -> Vec<Detail> {
    orders_of(Side::Royalist, b, s, &[])
}

/// `side`'s orders in battle `b` of set-up `s` on the dice `dice` (used up exactly): the events.
fn orders_of(side: Side, b: &mut Battle, s: &BattleSetup, dice: &[u8]) -> Vec<Detail> {
    let mut dice = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    b.orders_phase(side, s, &mut dice, &mut log);
    dice.finish();
    details(&log)
}

/// Royalist gallopers (Trained, 14") at `(x, y)`, facing down the table, by Parliament foot
/// already in hedgehog at (36, 10) facing up it, with `others` besides: the events and the
/// gallopers after the Royalists' orders (no dice).
fn near_a_hedgehog((x, y): (f64, f64), others: &[Spec]) -> (Vec<Detail>, Battle) {
    let mut specs = vec![
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, GALLOPERS, 400, 5, x, y),
    ];
    specs.extend_from_slice(others);
    let s = setup(&specs);
    let mut b = battle(&s);
    b.regiments[0].hedgehog = true;
    (royalist_orders(&mut b, &s), b)
}

/// Where the gallopers stand 6" in front of the hedgehog.
const BEFORE_IT: (f64, f64) = (36.0, 17.0);

/// HORSE BARRED BY A HEDGEHOG (doctrine ruling): horse may not charge a hedgehog in good order,
/// so rather than ride up to it and stand under its muskets, horse whose nearest enemy is one
/// draws back on initiative, facing it, until its centre is the muskets' 12", the contact gap
/// and both reaches (1.5" and 0.5") from the foot's: 7.5" back, to y = 24.5 (the foot's
/// elements then 13.5" off and more). Enemy trotters 8" off (pistols 6": no closing fire),
/// within the gallopers' reach and at odds Rupert's doctrine takes, are charged instead.
#[test]
fn horse_barred_by_a_hedgehog_draws_back_or_charges_another_enemy() {
    let (d, b) = near_a_hedgehog(BEFORE_IT, &[]);
    let horse = &b.regiments[1];
    assert!(
        close(horse.pos.y, 24.5) && close(horse.pos.x, 36.0) && close(horse.facing, PI),
        "the gallopers stand at {:?} facing {}: {d:?}",
        horse.pos,
        horse.facing
    );
    assert!(d.contains(&Detail::Initiative { unit: 1 }), "{d:?}");
    let shot_at = b
        .element_range(0)
        .any(|e| b.gap(e, b.element_range(1).start) <= 12.0);
    assert!(!shot_at && b.regiments[0].hedgehog);
    let (d, b) = near_a_hedgehog(
        BEFORE_IT,
        &[(Side::Parliament, TROTTERS, 400, 5, 45.0, 17.0)],
    );
    let charge = Detail::Charge {
        unit: 1,
        target: 2,
        home: true,
        by: ChargeBy::Initiative,
    };
    assert!(d.contains(&charge), "{d:?}");
    assert_eq!(b.regiments[1].engaged, Some(2));
}

/// A HEDGEHOG BARS HORSE ONLY FROM ITS FRONT (seed: "Cannot be attacked by horse if in good
/// order to front"): the charge has always been stopped only at the front, but the doctrine
/// took horse anywhere near a hedgehog as barred, so horse on its flank drew back instead of
/// charging it. Gallopers 8" off the foot's right flank (the same level) charge it; 7" before
/// its front they are barred and charge nothing (they draw back: the test above).
#[test]
fn horse_on_a_hedgehogs_flank_charges_it() {
    let charged = |d: &[Detail]| {
        d.iter().any(|e| {
            matches!(
                e,
                Detail::Charge {
                    unit: 1,
                    target: 0,
                    ..
                }
            )
        })
    };
    let (d, _) = near_a_hedgehog((44.0, 10.0), &[]);
    assert!(charged(&d), "from the flank: {d:?}");
    let (d, _) = near_a_hedgehog(BEFORE_IT, &[]);
    assert!(!charged(&d), "from the front: {d:?}");
}

/// Parliament's orders of turn 1 in a battle of set-up `s` that `tweak` changes (its ruleset
/// through `rules_of`), the dice `dice` (used up exactly): the events, how far unit 0 moved and
/// the gap it had to unit 1 (the nearest of their elements).
fn first_orders(
    s: &BattleSetup,
    tweak: impl FnOnce(&mut Battle),
    dice: &[u8],
) -> (Vec<Detail>, f64, f64) {
    let mut b = battle(s);
    tweak(&mut b);
    let gap = least_gap(&b, 0, 1);
    let from = b.regiments[0].pos;
    let d = orders_of(Side::Parliament, &mut b, s, dice);
    (d, b.regiments[0].pos.dist(from), gap)
}

/// The least gap between an element of regiment `r` and one of regiment `t`.
fn least_gap(b: &Battle, r: usize, t: usize) -> f64 {
    b.element_range(r)
        .flat_map(|e| b.element_range(t).map(move |k| (e, k)))
        .map(|(e, k)| b.gap(e, k))
        .fold(f64::INFINITY, f64::min)
}

/// Battle `b`'s own ruleset, to change.
fn rules_of(b: &mut Battle) -> &mut BlackPowderRules {
    std::sync::Arc::make_mut(&mut b.rules)
}

/// Enemy foot 7" ahead of Trained foot (7") and 4" to its right, centre to centre: whatever
/// the foot does on its orders, no dice. The events, the foot's move and the gap it had.
fn foot_off_its_front(wheel_counted: bool) -> (Vec<Detail>, f64, f64) {
    let foot = [
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, FOOT, 600, 4, 40.0, 17.0),
    ];
    let tweak = |b: &mut Battle| rules_of(b).doctrine.charge_reach_after_wheel = wheel_counted;
    first_orders(&setup(&foot), tweak, &[])
}

/// FOOT CHARGES ONLY WHAT ITS WHEEL LEAVES IT (doctrine ruling,
/// `doctrine.charge_reach_after_wheel`): a pike block pays half its move for any wheel (seed),
/// so foot whose charge must turn reaches half its standard move. The enemy foot lies 6.3" off,
/// within the 7" but beyond the 3.5" left after the wheel: the foot holds in musket range
/// rather than declare a charge that stops 3.5" on at the enemy's front. With the key false it
/// charges on initiative as before and falls short: 3.5", no charge home.
#[test]
fn foot_charges_only_what_its_wheel_leaves_it() {
    let (d, moved, gap) = foot_off_its_front(true);
    assert!(gap > 3.5 && gap < 7.0, "{gap}");
    assert!(
        !d.iter().any(|x| matches!(x, Detail::Charge { .. })),
        "{d:?}"
    );
    assert!(close(moved, 0.0), "{moved}");
    let (d, moved, _) = foot_off_its_front(false);
    let stopped = Detail::Charge {
        unit: 0,
        target: 1,
        home: false,
        by: ChargeBy::Initiative,
    };
    assert!(d.contains(&stopped), "{d:?}");
    assert!(close(moved, 3.5), "{moved}");
}

/// Three regiments of Parliament trotters abreast 34" from the enemy and a fourth 6" behind them,
/// under Cromwell's doctrine (`commit_reserve_when_lost` set to `when_lost`), the first of the
/// line `gone` or not: how far the one behind moves on the orders of turn 1.
fn second_line_moves(gone: bool, when_lost: f64) -> f64 {
    let mut s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 20.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 32.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 44.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 32.0, 4.0),
        (Side::Royalist, TROTTERS, 400, 5, 32.0, 44.0),
    ]);
    s.doctrines[0] = DoctrineParams {
        commit_reserve_when_lost: when_lost,
        ..DoctrineParams::builtin("cromwell").unwrap()
    };
    let mut b = battle(&s);
    assert!(b.regiments[3].reserve && !b.regiments[1].reserve);
    b.regiments[0].gone = gone;
    let mut dice = ScriptedDice::new(&[1, 2]);
    let mut log = EventLog::default();
    b.orders_phase(Side::Parliament, &s, &mut dice, &mut log);
    dice.finish();
    assert!(b.regiments[1].pos.y > 10.0, "the first line advances");
    b.regiments[3].pos.y - 4.0
}

/// A RESERVE IS COMMITTED BY LOSSES (doctrine `commit_reserve_when_lost`): Cromwell keeps 40%
/// of a command back (one of these four, the rearmost) until turn 4, or until the command has
/// lost a quarter of its stamina. On turn 1 with nothing lost it stands; with one regiment of
/// four gone (3 of 12 stamina) it advances with the one roll of its brigade; a doctrine that
/// waits for half lost keeps it back.
#[test]
fn a_reserve_is_committed_once_its_command_has_lost_the_doctrines_share() {
    assert!(close(second_line_moves(false, 0.25), 0.0));
    assert!(second_line_moves(true, 0.25) > 0.0);
    assert!(close(second_line_moves(true, 0.5), 0.0));
}

/// Royalist trotters (Trained, 12"), shaken, at x = 36 and `y`, before `enemy`, with the
/// ruleset's `doctrine.shaken_horse_keeps_off` as given: the events and the shaken horse
/// after the Royalists' orders.
fn shaken_horse_before(enemy: Spec, y: f64, keeps_off: bool) -> (Vec<Detail>, Battle) {
    let s = setup(&[enemy, (Side::Royalist, TROTTERS, 400, 5, 36.0, y)]);
    let mut b = battle(&s);
    std::sync::Arc::make_mut(&mut b.rules)
        .doctrine
        .shaken_horse_keeps_off = keeps_off;
    let horse = &mut b.regiments[1];
    (horse.shaken, horse.casualties) = (true, horse.stamina);
    (royalist_orders(&mut b, &s), b)
}

/// SHAKEN HORSE KEEPS OUT OF THE ENEMY'S REACH (doctrine ruling,
/// `doctrine.shaken_horse_keeps_off`): shaken horse may not charge, and horse has no range to
/// stand at, so it rode up to the enemy's front and stood there to be charged. Now it holds,
/// drawing straight back, facing the enemy, until every element is the contact gap beyond the
/// enemy's charge (its standard move): 7" from Parliament trotters (12") it goes back on
/// initiative to 13.5" (12", the gap and both 0.5" reaches), y = 23.5; 10" from Trained foot
/// (7", reach 1.5") it is already beyond their charge, but the foot would form hedgehog and
/// bars it (`doctrine.horse_foresees_hedgehogs`), so it draws back out of their muskets (12"),
/// to y = 24.5, as from a hedgehog. With the key false it rides up to the trotters, to the
/// contact gap.
#[test]
fn shaken_horse_keeps_out_of_the_enemys_reach() {
    let trotters = (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0);
    let foot = (Side::Parliament, FOOT, 600, 4, 36.0, 10.0);
    let (d, b) = shaken_horse_before(trotters, 17.0, true);
    let horse = &b.regiments[1];
    assert!(
        close(horse.pos.y, 23.5) && close(horse.pos.x, 36.0) && close(horse.facing, PI),
        "the shaken trotters stand at {:?} facing {}: {d:?}",
        horse.pos,
        horse.facing
    );
    assert!(d.contains(&Detail::Initiative { unit: 1 }), "{d:?}");
    let (d, b) = shaken_horse_before(foot, 20.0, true);
    assert!(close(b.regiments[1].pos.y, 24.5), "{d:?}");
    let (_, b) = shaken_horse_before(trotters, 17.0, false);
    assert!(
        close(b.regiments[1].pos.y, 11.5),
        "{:?}",
        b.regiments[1].pos
    );
}

/// Parliament's trotters (Trained, 12") at (36, 10) and Royalist trotters 15" off their front
/// (beyond the 12" of initiative, within a move and a half), Parliament's orders of turn 1
/// under the ruleset's `doctrine.charge_range_share` (the built-in one unless `share` is
/// given), the command roll `roll`: the events and how far the trotters moved.
fn trotters_beyond_initiative(share: Option<f64>, roll: [u8; 2]) -> (Vec<Detail>, f64, f64) {
    let trotters = [
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 28.0),
    ];
    let tweak = |b: &mut Battle| {
        if let Some(share) = share {
            rules_of(b).doctrine.charge_range_share = share;
        }
    };
    first_orders(&setup(&trotters), tweak, &roll)
}

/// CHARGE ON THE HOPE OF THE BEST ROLL (doctrine ruling, the built-in
/// `doctrine.charge_range_share` of 1.5):
/// beyond 12" of the enemy a command roll gives 50%, 100% or 150% of a standard move (seed),
/// so a general orders the charge on a target the best roll reaches: falling short, the
/// trotters go as far as an advance would have taken them. Rolled 2 + 3 against 8 (150%,
/// 18"), they charge home 15" off; rolled 4 + 4 (100%), the charge falls short after 12". At
/// the old share of one standard move they were ordered only to advance, and the roll of 150%
/// carried them up to the enemy's front, to stand there uncharged and be charged.
#[test]
fn horse_charges_what_the_best_command_roll_reaches() {
    let (d, moved, gap) = trotters_beyond_initiative(None, [2, 3]);
    assert!(gap > 12.0 && gap < 18.0, "{gap}");
    let charge = |home| Detail::Charge {
        unit: 0,
        target: 1,
        home,
        by: ChargeBy::Order,
    };
    assert!(d.contains(&charge(true)), "{d:?}");
    assert!(close(moved, gap), "{moved} {gap}");
    let (d, moved, _) = trotters_beyond_initiative(None, [4, 4]);
    assert!(d.contains(&charge(false)), "{d:?}");
    assert!(close(moved, 12.0), "{moved}");
    let (d, moved, _) = trotters_beyond_initiative(Some(1.0), [2, 3]);
    assert!(
        !d.iter().any(|x| matches!(x, Detail::Charge { .. })),
        "{d:?}"
    );
    // Halted at the contact gap (0.5").
    assert!(close(moved, gap - 0.5), "{moved} {gap}");
}

/// ... BUT NOT ON INITIATIVE: within 12" of the enemy there is no roll, a move is 100% (seed),
/// so the best roll's share never counts there. Raw trotters (11") 11.5" from the enemy's
/// trotters declare no charge at a share of 1.5 (16.5"): it would fall short.
#[test]
fn on_initiative_the_charge_reach_is_one_standard_move() {
    let trotters = [
        (Side::Parliament, TROTTERS, 400, 3, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, 22.5),
    ];
    let tweak = |b: &mut Battle| rules_of(b).doctrine.charge_range_share = 1.5;
    let (d, moved, gap) = first_orders(&setup(&trotters), tweak, &[]);
    assert!(gap > 11.0 && gap < 12.0, "{gap}");
    assert!(d.contains(&Detail::Initiative { unit: 0 }), "{d:?}");
    assert!(
        !d.iter().any(|x| matches!(x, Detail::Charge { .. })),
        "{d:?}"
    );
    // An advance of its 11", to the contact gap (0.5") of the enemy's front.
    assert!(
        close(moved, 11.0) && close(moved, gap - 0.5),
        "{moved} {gap}"
    );
}

/// Cromwell's trotters (Trained, 12"), one of their 3 stamina lost, with fresh Royalist
/// trotters `y` inches up the table, the ruleset's `doctrine.daunted_horse_stands_off` as
/// given, the command roll `roll`: the events, how far they moved and the gap they had.
fn daunted_trotters(y: f64, stands_off: bool, roll: &[u8]) -> (Vec<Detail>, f64, f64) {
    let mut s = setup(&[
        (Side::Parliament, TROTTERS, 400, 5, 36.0, 10.0),
        (Side::Royalist, TROTTERS, 400, 5, 36.0, y),
    ]);
    s.doctrines[0] = DoctrineParams::builtin("cromwell").unwrap();
    let tweak = |b: &mut Battle| {
        b.regiments[0].casualties = 1;
        rules_of(b).doctrine.daunted_horse_stands_off = stands_off;
    };
    first_orders(&s, tweak, roll)
}

/// DAUNTED HORSE STANDS OFF (doctrine ruling, `doctrine.daunted_horse_stands_off`): Cromwell
/// charges only at odds of 0.9 or better (stamina left, each plus one): 2 left against 3 is
/// 0.75, so his worn trotters will not charge the fresh ones. They rode up to the enemy's front
/// all the same and stood there to be charged. Now they go no nearer than the enemy's charge
/// (its 12" and the 0.5" contact gap): 10" off they hold; 17" off, on a roll of 150% (18"),
/// they advance 4.5" and stand 12.5" off. With the key false they ride up to the contact gap.
#[test]
fn daunted_horse_stands_off_the_enemys_charge() {
    let (d, moved, gap) = daunted_trotters(21.0, true, &[]);
    assert!(gap > 9.0 && gap < 12.0, "{gap}");
    assert!(close(moved, 0.0), "{moved}: {d:?}");
    assert!(
        !d.iter().any(|x| matches!(x, Detail::Charge { .. })),
        "{d:?}"
    );
    let (_, moved, gap_old) = daunted_trotters(21.0, false, &[]);
    assert!(close(moved, gap_old - 0.5), "{moved}");
    let (d, moved, gap) = daunted_trotters(28.0, true, &[2, 3]);
    assert!(gap > 12.5 && gap < 18.0, "{gap}");
    assert!(close(moved, gap - 12.5), "{moved} {gap}: {d:?}");
    let (_, moved, _) = daunted_trotters(28.0, false, &[2, 3]);
    assert!(close(moved, gap - 0.5), "{moved}");
}

/// Royalist gallopers (Trained, 14") at (36, `y`), before Parliament foot in good order at (36,
/// 10), not yet in hedgehog, the ruleset's `doctrine.horse_foresees_hedgehogs` as given: the
/// events and the gallopers after the Royalists' orders on the dice `dice`.
fn before_fresh_foot(y: f64, foresees: bool, dice: &[u8]) -> (Vec<Detail>, Battle) {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, GALLOPERS, 400, 5, 36.0, y),
    ]);
    let mut b = battle(&s);
    rules_of(&mut b).doctrine.horse_foresees_hedgehogs = foresees;
    (orders_of(Side::Royalist, &mut b, &s, dice), b)
}

/// HORSE FORESEES THE HEDGEHOG (doctrine ruling, `doctrine.horse_foresees_hedgehogs`): foot in
/// good order with the Hedgehog rule forms hedgehog, without a throw, the moment horse charges
/// it (seed), and then bars it from the front; so a charge from the front on such foot never
/// goes in. The gallopers 9" before the foot's front draw back out of its muskets, as from a
/// hedgehog already formed (to y = 24.5), and no hedgehog is formed; 19" off, on a roll of
/// 150% (21"), they close to the edge of the muskets, 12.5" off (6.5"), where they wait for
/// the foot to lose its good order. With the key false they charge both times, the foot forms
/// hedgehog, and the charge stops at its front.
#[test]
fn horse_does_not_charge_foot_that_will_form_hedgehog() {
    let no_charge = |d: &[Detail]| {
        !d.iter()
            .any(|x| matches!(x, Detail::Charge { .. } | Detail::Hedgehog { .. }))
    };
    let (d, b) = before_fresh_foot(20.0, true, &[]);
    assert!(no_charge(&d), "{d:?}");
    let horse = &b.regiments[1];
    assert!(close(horse.pos.y, 24.5), "{:?}: {d:?}", horse.pos);
    let (d, b) = before_fresh_foot(30.0, true, &[3, 3]);
    assert!(no_charge(&d), "{d:?}");
    assert!(
        close(b.regiments[1].pos.y, 23.5),
        "{:?}: {d:?}",
        b.regiments[1].pos
    );
    let stopped = |by| Detail::Charge {
        unit: 1,
        target: 0,
        home: false,
        by,
    };
    let (d, b) = before_fresh_foot(20.0, false, &[]);
    assert!(d.contains(&stopped(ChargeBy::Initiative)), "{d:?}");
    assert!(b.regiments[0].hedgehog);
    let (d, _) = before_fresh_foot(30.0, false, &[3, 3]);
    assert!(d.contains(&stopped(ChargeBy::Order)), "{d:?}");
}

/// Royalist gallopers (Trained, 14") at (36, 20) facing down the table; Parliament foot at
/// (36, 10), its nearest enemy (9" off), in melee with Royalist foot off to the left at
/// (16, 10); and Parliament trotters at (46, 16), free, 9.8" off. The ruleset's `doctrine.charge_past_a_melee` as
/// given: the events and the battle after the Royalists' orders.
fn beside_a_melee(past: bool, dice: &[u8]) -> (Vec<Detail>, Battle) {
    let s = setup(&[
        (Side::Parliament, FOOT, 600, 4, 36.0, 10.0),
        (Side::Royalist, GALLOPERS, 400, 5, 36.0, 20.0),
        (Side::Royalist, FOOT, 600, 4, 16.0, 10.0),
        (Side::Parliament, TROTTERS, 400, 5, 46.0, 16.0),
    ]);
    let mut b = battle(&s);
    rules_of(&mut b).doctrine.charge_past_a_melee = past;
    b.regiments[0].engaged = Some(2);
    b.regiments[2].engaged = Some(0);
    (orders_of(Side::Royalist, &mut b, &s, dice), b)
}

/// CHARGE PAST A MELEE (doctrine ruling, `doctrine.charge_past_a_melee`): no charge goes at an
/// enemy already in melee, so gallopers whose nearest enemy is the Parliament foot fighting
/// their own foot look past it: the Parliament trotters, free and within the gallopers' move
/// on initiative (14": they are within 12" of the enemy), are charged instead. With the key
/// false the gallopers ride up to the foot in melee and stand at its front, the contact gap
/// off, where no charge may go at it and the trotters may charge them next turn.
#[test]
fn horse_charges_past_an_enemy_in_melee() {
    let (d, b) = beside_a_melee(true, &[]);
    let at_trotters = Detail::Charge {
        unit: 1,
        target: 3,
        home: true,
        by: ChargeBy::Initiative,
    };
    assert!(d.contains(&at_trotters), "{d:?}");
    let (d, old) = beside_a_melee(false, &[]);
    assert!(
        !d.iter().any(|x| matches!(x, Detail::Charge { .. })),
        "{d:?}"
    );
    let gap = least_gap(&old, 1, 0);
    assert!(
        (gap - old.rules.movement.contact_gap).abs() < 1e-6,
        "gap {gap}: {:?} {d:?}",
        old.regiments[1].pos
    );
    assert!(b.regiments[1].pos.dist(old.regiments[1].pos) > 1.0);
}

//! Dickenson's move sequence (ruling, shared/design/dickenson.md "The move"): both sides make
//! their orders for the move, charges declared, from the state at the start of the move, then
//! carry them out in the roll-off order (`battle.charges_declared_at_once`); horse that declared
//! charges on each other meet as chargers (`battle.countercharge`); the doctrine weighs a charge
//! into a melee against the whole melee (`battle.charge_odds_whole_melee`); the formation rules'
//! throws before contact are thrown at the declaration (`battle.formation_throws_at_declaration`);
//! the doctrine declares no charge that the ground or a friend would stop
//! (`battle.charge_sees_the_way`), nor one that a friend already charging the same target would
//! stop (`battle.charges_shared_out`). Fought through the
//! engine's movement phase with scripted dice that must be used up exactly; Parliament moves
//! first. With the keys false (and the held-horse, open-square and pass-in-column doctrines
//! off), the golden battles of the engine in which each side decided as it moved are fought
//! again to the bit.

mod dickenson_common;
mod golden_common;

use dickenson_common::{battle, setup};
use ecw_sim::army::{FootBalance, HorseKind, Side, UnitKind};
use ecw_sim::dice::{ScriptedDice, SeededDice};
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::DickensonRules;
use ecw_sim::rules::dickenson::battle::regiment::Gait;
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson, Engaged, State};
use ecw_sim::rules::dickenson::events::Detail;
use ecw_sim::rules::dickenson::morale::MoraleResult;
use ecw_sim::setup::BattleSetup;

const FORLORN: UnitKind = UnitKind::ForlornHope;
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);
const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);

/// The next move's start (no dice: nobody routs) and movement, throwing exactly `dice`.
fn next_move(b: &mut Battle, s: &BattleSetup, dice: &[u8]) -> EventLog {
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(dice);
    b.turn += 1;
    b.start_of_move(s, &mut d, &mut l);
    b.movement_phase(s, &mut d, &mut l);
    d.finish();
    l
}

/// A battle of these units under the built-in rules changed by `change`, before its first move.
fn battle_with(s: &BattleSetup, change: impl FnOnce(&mut DickensonRules)) -> Battle {
    let mut rules = DickensonRules::builtin();
    change(&mut rules);
    let mut b = Dickenson::new(rules).new_battle(s);
    b.first = Side::Parliament;
    b
}

/// `side`'s command follows its own copy of the doctrine, changed by `change`.
fn side_follows(s: &mut BattleSetup, side: Side, change: impl FnOnce(&mut DoctrineParams)) {
    let mut d = DoctrineParams::builtin("rupert").unwrap();
    change(&mut d);
    s.doctrines.push(d);
    let i = (s.doctrines.len() - 1) as u16;
    for c in s.commands.iter_mut().filter(|c| c.side == side) {
        c.doctrine = i;
    }
}

fn declared(l: &EventLog, unit: u16, target: u16) -> bool {
    l.0.iter().any(|e| {
        *e == Event::ChargeDeclared {
            unit,
            target,
            standoff: 0.0,
        }
    })
}

fn failed(l: &EventLog, unit: u16, target: u16) -> bool {
    l.0.contains(&Event::ChargeFailed { unit, target })
}

/// A SECOND MOVER CHARGES ONLY WHAT WAS IN REACH AT THE START OF THE MOVE. Royalist troopers,
/// halted (a trot's 10" reach) and holding until an enemy is in reach, face a Parliament
/// forlorn hope 17" off, which advances its 8" first. Its move brings it within the troopers'
/// reach, but their order was made before it moved: they hold. Next move they charge it (the
/// forlorn hope, unloaded, gives no closing fire and throws 6, 6 against horse: it stands).
/// Deciding as they moved, the troopers charged in the first move.
#[test]
fn s1_a_second_mover_charges_only_what_was_in_reach_when_the_move_began() {
    let mut s = setup(&[
        (Side::Parliament, FORLORN, 120, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 28.0),
    ]);
    side_follows(&mut s, Side::Royalist, |d| d.advance_from_turn = 99);
    let mut b = battle(&s);
    b.turn = 0;
    b.regiments[0].loaded = false;
    let (start, at) = (b.gap(0, 1), b.regiments[1].pos);
    let reach = b.regiments[1].move_at(Gait::Trot, &b.rules);
    let step = b.regiments[0].move_at(Gait::Trot, &b.rules);
    assert!(
        start > reach && start - step < reach,
        "{start} {reach} {step}"
    );

    let l = next_move(&mut b, &s, &[]);
    assert!(!declared(&l, 1, 0) && b.regiments[1].engaged.is_none());
    assert_eq!(b.regiments[1].pos, at, "the troopers held");
    let gap = b.gap(0, 1);
    assert!(
        (gap - (start - step)).abs() < 0.01,
        "the forlorn hope came on: {gap}"
    );

    let l = next_move(&mut b, &s, &[6, 6]);
    assert!(declared(&l, 1, 0), "{:?}", l.0);
    assert!(b.regiments[1].engaged.contains(0) && b.regiments[1].attacker);
    assert!(b.regiments[0].engaged.contains(1) && !b.regiments[0].attacker);

    // Deciding as they move, the troopers charge in the first move (the forlorn hope, unloaded,
    // throws 6, 6 and stands).
    let mut b = battle_with(&s, |r| r.battle.charges_declared_at_once = false);
    b.turn = 0;
    b.regiments[0].loaded = false;
    let l = next_move(&mut b, &s, &[6, 6]);
    assert!(declared(&l, 1, 0) && b.regiments[1].engaged.contains(0));
}

/// Two troopers regiments 7" apart (each within the other's trot) both declare a charge.
fn countercharge(change: impl FnOnce(&mut DickensonRules)) -> (Battle, EventLog) {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 18.0),
    ]);
    let mut b = battle_with(&s, change);
    let reach = b.regiments[0].move_at(Gait::Trot, &b.rules);
    assert!(b.gap(0, 1) < reach, "{}", b.gap(0, 1));
    let at = b.regiments[1].pos;
    let mut l = next_move(&mut b, &s, &[]);
    assert_eq!(
        b.regiments[1].pos, at,
        "met where the first to move reached it"
    );
    assert!(b.gap(0, 1) < 1e-6, "in contact: {}", b.gap(0, 1));
    assert!(b.regiments[0].engaged.contains(1) && b.regiments[1].engaged.contains(0));
    b.melee_phase(&mut SeededDice::new(7), &mut l);
    (b, l)
}

/// The regiments that struck with impetus in the melee (an impetus event throws no dice back).
fn impetus(l: &EventLog) -> Vec<u16> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Melee {
                attacker,
                defender_dice: 0,
                ..
            } => Some(attacker),
            _ => None,
        })
        .collect()
}

/// COUNTERCHARGE (ruling): horse that declared charges on each other meet where the first to
/// move reaches the other, both as chargers: both strike with impetus and both count as the
/// attacker. With the key off, or deciding as they move, the second is met standing.
#[test]
fn s2_horse_charging_each_other_meet_as_chargers() {
    let (b, l) = countercharge(|_| {});
    assert!(declared(&l, 0, 1) && declared(&l, 1, 0));
    assert!(b.regiments[0].attacker && b.regiments[1].attacker);
    assert_eq!(impetus(&l), vec![0, 1]);
    assert_eq!(b.regiments[1].gait, Gait::Trot, "it charged at its gait");
    for change in [
        (|r: &mut DickensonRules| r.battle.countercharge = false) as fn(&mut DickensonRules),
        |r| r.battle.charges_declared_at_once = false,
    ] {
        let (b, l) = countercharge(change);
        assert!(declared(&l, 0, 1) && !declared(&l, 1, 0));
        assert!(b.regiments[0].attacker && !b.regiments[1].attacker);
        assert_eq!(impetus(&l), vec![0]);
    }
}

/// A CHARGE ON A TARGET THAT MOVED OUT OF REACH FALLS SHORT. Parliament troopers (cantering: a
/// gallop's charge) between two Royalist regiments: halted troopers 6" ahead, whom they charge,
/// and troopers 8" behind them, turned to face them, who declare a charge on them within their
/// trot's 10". The Parliament charge carries them 6" on, out of reach: the Royalist charge
/// fails and advances its trot toward them. Deciding as they move, the Royalists, seeing them
/// gone, merely advance (no charge declared).
#[test]
fn s3_a_charge_on_a_target_that_moved_out_of_reach_falls_short_and_advances() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 20.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 11.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 27.0),
    ]);
    let fight = |at_once: bool| {
        let mut b = battle_with(&s, |r| r.battle.charges_declared_at_once = at_once);
        b.regiments[0].gait = Gait::Canter;
        b.regiments[1].facing = 0.0;
        b.regiments[2].halt_until = 99;
        let reach = b.regiments[1].move_at(Gait::Trot, &b.rules);
        let (behind, ahead) = (b.gap(1, 0), b.gap(0, 2));
        assert!(ahead < behind && behind < reach, "{ahead} {behind} {reach}");
        let l = next_move(&mut b, &s, &[]);
        assert!(b.regiments[0].engaged.contains(2), "{:?}", l.0);
        (b, l, behind + ahead)
    };
    let (b, l, apart) = fight(true);
    assert!(declared(&l, 1, 0) && failed(&l, 1, 0), "{:?}", l.0);
    assert!(b.regiments[1].engaged.is_none());
    let gap = b.gap(1, 0);
    assert!(
        (gap - (apart - 10.0)).abs() < 0.01,
        "advanced its trot: {gap}"
    );
    let (_, l, _) = fight(false);
    assert!(!declared(&l, 1, 0) && !failed(&l, 1, 0), "{:?}", l.0);
}

/// THE CHARGE'S ODDS AGAINST THE WHOLE MELEE (doctrine): Royalist troopers asking odds of 1.5
/// see Parliament troopers in melee with their friends 7" off. Against that regiment alone
/// (9 points to 9) they do not charge; against the whole melee (9 and their friends' 9 to 9)
/// they do.
#[test]
fn s4_a_charge_into_a_melee_is_weighed_against_the_whole_melee() {
    let mut s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 20.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 23.0),
        (Side::Royalist, TROOPERS, 240, 47.0, 20.0),
    ]);
    side_follows(&mut s, Side::Royalist, |d| d.charge_ratio = 1.5);
    for whole in [true, false] {
        let mut b = battle_with(&s, |r| r.battle.charge_odds_whole_melee = whole);
        b.regiments[0].engaged = Engaged::of(1);
        b.regiments[1].engaged = Engaged::of(0);
        let reach = b.regiments[2].move_at(Gait::Trot, &b.rules);
        assert!(b.gap(2, 0) < reach, "{}", b.gap(2, 0));
        assert_eq!((b.points(0), b.points(2)), (9, 9));
        let l = next_move(&mut b, &s, &[]);
        assert_eq!(declared(&l, 2, 0), whole, "{:?}", l.0);
        assert_eq!(b.regiments[0].engaged.contains(2), whole);
    }
}

/// The golden Dickenson battles (tests/golden_dickenson.rs) as the engine fought them when
/// each side decided as it moved and the doctrine weighed a charge against its target alone
/// (re-pinned when footprints crossing off the middle were first measured as touching; the four
/// duels that write `turn_limit = 8` re-pinned when Dickenson began to read it; re-pinned when
/// the roll-off began to be told, `Initiative`: the same battles, every event else as before;
/// every scenario with horse re-pinned when horse that stood a move began the next at the halt
/// (one gait a move) and a fall back with the enemy behind began to face it; all re-pinned when
/// a regiment that lost only officers or its standard began to throw morale; all but the foot
/// and horse, pike and horse, shot and gun duels re-pinned when officers and the standard
/// struck began to count as melee casualties; all re-pinned when a fall back began to forbid
/// the next move's advance, as a stand does; Marston Moor and Naseby re-pinned when shooters
/// ordered to advance began to stand once in range as their turn came; the six historical
/// battles but Lansdown and Langport re-pinned when a command's reserve began to be committed
/// once the command had lost its doctrine's share; every scenario whose guns have friends
/// before them re-pinned when guns stopped firing through their own men).
const EACH_SIDE_AS_IT_MOVES: &[(&str, u64)] = &[
    ("edgehill", 0xdedb55c62abc49a2),
    ("marston_moor", 0x3b01fcc7132c05b2),
    ("naseby", 0xcaed83efda14618e),
    ("roundway_down", 0x6519e81f7e82bb40),
    ("adwalton_moor", 0xd33f8e65bb38bba1),
    ("lansdown", 0xe0f6efc9ba8cec52),
    ("first_newbury", 0x666efd490fa12d3f),
    ("langport", 0xd7b5c7862d1f2efc),
    ("small_action", 0x48859bbcc845c4f2),
    ("duel_horse", 0xb4b8c7a8eca506d3),
    ("duel_foot_vs_horse", 0x4e1bec433de78375),
    ("bp_duel_pike_vs_horse", 0xf9f7c866ea556695),
    ("bp_duel_shot", 0x0c14384d2f2d9250),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0xb6b4ff50f7441cf7),
];

/// With the keys false (and the doctrines that came with them off) the engine fights the
/// battles it fought before both sides declared at once, to the bit.
#[test]
fn s5_deciding_as_each_side_moves_fights_the_old_golden_battles() {
    let mut rules = DickensonRules::builtin();
    rules.battle.charges_declared_at_once = false;
    rules.battle.charge_odds_whole_melee = false;
    rules.battle.charge_sees_the_way = false;
    // The doctrines added beside this sequence (held horse, squares opened to horse, passing
    // in column) off too: tests/dickenson_formations.rs and dickenson_movement.rs prove them.
    rules.formations.doctrine.held_horse_threaten = true;
    rules.formations.doctrine.open_square_to_chargers = true;
    rules.battle.pass_in_column = false;
    golden_common::check(
        &Dickenson::new(rules),
        100,
        EACH_SIDE_AS_IT_MOVES,
        "tests/dickenson_sequence.rs",
    );
}

/// Where in the log the first event `is` picks out comes.
fn first(l: &EventLog, is: impl Fn(&Event) -> bool) -> usize {
    l.0.iter()
        .position(is)
        .unwrap_or_else(|| panic!("{:?}", l.0))
}

fn moved(e: &Event) -> bool {
    matches!(e, Event::Moved { .. })
}

/// PIKE IN TWO RANKS: THE HORSE THROW AT THE DECLARATION. Parliament troopers 9" from
/// Royalist foot (18 pikemen: two ranks; unloaded and halted) declare a charge; Parliament
/// foot off to the flank advance first. The troopers throw 1, 1 + 1 attacker = 3 in phase 1,
/// before anyone moves: bad, so when their turn comes they turn about at the trot (no closing
/// fire, no breach) and the charge fails. Thrown when the charge goes in, the same throw comes
/// after the flank's advance and the charge's declaration, with the same end.
#[test]
fn s6_the_horse_throw_at_pike_in_two_ranks_at_the_declaration() {
    let mut s = setup(&[
        (Side::Parliament, FOOT, 720, 8.0, 10.0),
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 20.0),
    ]);
    side_follows(&mut s, Side::Parliament, |d| d.charge_ratio = 0.01);
    for at_declaration in [true, false] {
        let mut b = battle_with(&s, |r| {
            r.battle.formation_throws_at_declaration = at_declaration;
        });
        b.regiments[2].halt_until = 99;
        for r in 0..3 {
            b.regiments[r].loaded = false;
        }
        assert_eq!(b.regiments[2].pike_ranks(&b.rules), 2);
        let start = b.gap(1, 2);
        let l = next_move(&mut b, &s, &[1, 1]);
        let throw = first(&l, |e| {
            matches!(
                e,
                Event::Dickenson(Detail::FormationThrow {
                    unit: 1,
                    target: 2,
                    good: false,
                    ..
                })
            )
        });
        let (flank, charge) = (
            first(&l, |e| matches!(*e, Event::Moved { unit: 0, .. })),
            first(&l, |e| {
                *e == Event::ChargeDeclared {
                    unit: 1,
                    target: 2,
                    standoff: 0.0,
                }
            }),
        );
        assert_eq!(throw < first(&l, moved), at_declaration, "{:?}", l.0);
        assert_eq!(throw < flank && throw < charge, at_declaration);
        assert!(failed(&l, 1, 2) && b.regiments[1].engaged.is_none());
        assert!(b.gap(1, 2) > start, "turned about: {}", b.gap(1, 2));
    }
}

/// A CHARGE THAT FALLS SHORT KEEPS ITS THROW, WITHOUT EFFECT. Royalist troopers 9" behind
/// Parliament musketeers (no pikemen: they throw first when charged by horse) declare a charge
/// on them; the musketeers, moving first, advance on Royalist foot (halted) 6" ahead, out of
/// the troopers' 10" trot. In phase 1 the musketeers throw 1, 1 (a rout); the charge falls
/// short and advances its trot, and the musketeers neither rout nor fall back. Thrown when the
/// charge goes in, nothing is thrown (script of no dice).
#[test]
fn s7_a_charge_that_falls_short_keeps_its_throw_without_effect() {
    let mut s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 20.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 11.0),
        (Side::Royalist, FOOT, 720, 36.0, 27.0),
    ]);
    side_follows(&mut s, Side::Royalist, |d| d.charge_ratio = 0.01);
    for at_declaration in [true, false] {
        let mut b = battle_with(&s, |r| {
            r.battle.formation_throws_at_declaration = at_declaration;
        });
        b.regiments[0].pikemen = 0;
        b.regiments[1].facing = 0.0;
        b.regiments[2].halt_until = 99;
        for r in 0..3 {
            b.regiments[r].loaded = false;
        }
        let reach = b.regiments[1].move_at(Gait::Trot, &b.rules);
        assert!(b.gap(1, 0) < reach && b.gap(0, 2) < b.gap(1, 0));
        let script: &[u8] = if at_declaration { &[1, 1] } else { &[] };
        let l = next_move(&mut b, &s, script);
        let rout = l.0.iter().any(|e| {
            matches!(
                e,
                Event::Dickenson(Detail::Morale {
                    unit: 0,
                    result: MoraleResult::Rout,
                    ..
                })
            )
        });
        assert_eq!(rout, at_declaration, "{:?}", l.0);
        assert!(declared(&l, 1, 0) && failed(&l, 1, 0), "{:?}", l.0);
        assert!(b.regiments[1].engaged.is_none());
        let foot = &b.regiments[0];
        assert_eq!(foot.state, State::Active, "the rout had no effect");
        assert!(foot.pos.y > 20.0, "it advanced: {:?}", foot.pos);
    }
}

/// The golden Dickenson battles as the engine fought them with every formation throw made when
/// the charge went in (Naseby and First Newbury re-pinned when a charge whose target had left
/// the table since its declaration stopped naming it: the same moves, two events fewer; all
/// re-pinned when footprints crossing off the middle were first measured as touching; the four
/// duels that write `turn_limit = 8` re-pinned when Dickenson began to read it; re-pinned when
/// a declared charge not made began to be told, `ChargeForestalled`, and again when the
/// roll-off began to be told, `Initiative`: the same battles, every event else as before to
/// the bit; every scenario with horse re-pinned when horse that stood a move began the next at
/// the halt (one gait a move) and a fall back with the enemy behind began to face it; every
/// scenario with foot and horse re-pinned when horse whose target closed into square against
/// them began to make their order again; all re-pinned when a regiment that lost only officers
/// or its standard began to throw morale; all but the foot and horse, pike and horse and gun
/// duels re-pinned when officers and the standard struck began to count as melee casualties;
/// all re-pinned when a fall back began to forbid the next move's advance, as a stand does;
/// all but the horse, pike and horse and gun duels re-pinned when shooters ordered to advance
/// began to stand once an enemy had closed into their range; the six historical battles but
/// Lansdown and Langport re-pinned when a command's reserve began to be committed once the
/// command had lost its doctrine's share; every scenario whose guns have friends before them
/// re-pinned when guns stopped firing through their own men).
const THROWN_AT_CONTACT: &[(&str, u64)] = &[
    ("edgehill", 0xf006ed4f932858ff),
    ("marston_moor", 0xfddaf7bfa232c89f),
    ("naseby", 0xcc312e7fc05e9c12),
    ("roundway_down", 0xec20e7c14a89a3ec),
    ("adwalton_moor", 0x753facde4d59df7a),
    ("lansdown", 0xbc7455f09b74da10),
    ("first_newbury", 0x4587d3cedb0fa1b2),
    ("langport", 0xa8d23fd4bda2fa51),
    ("small_action", 0x98f0bc4cc80e3aa1),
    ("duel_horse", 0xb3c23b316ad137ac),
    ("duel_foot_vs_horse", 0xa51344b04f144fc2),
    ("bp_duel_pike_vs_horse", 0x61d744ef8c7aa5e1),
    ("bp_duel_shot", 0x95165c350ac802d6),
    ("bp_duel_gun_vs_foot", 0xf51066be0208be42),
    ("balance_template", 0x4b5bebb76e7ca95d),
];

/// With `battle.formation_throws_at_declaration` false the engine fights the battles it fought
/// before, to the bit.
#[test]
fn s8_throwing_at_contact_fights_the_golden_battles_before_the_declaration_throws() {
    let mut rules = DickensonRules::builtin();
    rules.battle.formation_throws_at_declaration = false;
    rules.battle.charge_sees_the_way = false;
    golden_common::check(
        &Dickenson::new(rules),
        100,
        THROWN_AT_CONTACT,
        "tests/dickenson_sequence.rs",
    );
}

/// A CHARGE A FRIEND WOULD STOP IS NOT DECLARED (doctrine). Parliament troopers, halted (a
/// trot's reach), have Royalist foot within it, but their own foot stand square in the way.
/// Weighed over the way it would go, the charge could not go in: they declare none, go round
/// their friends' flank and come up beside them. Weighed by the trot alone (the key false), they
/// declare it (and throw at the pike), and it fails against their friends' backs.
#[test]
fn s9_a_charge_a_friend_would_stop_is_not_declared() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 36.0, 14.0),
        (Side::Royalist, FOOT, 720, 36.0, 19.0),
    ]);
    for sees in [true, false] {
        let mut b = battle_with(&s, |r| r.battle.charge_sees_the_way = sees);
        b.regiments[1].halt_until = 99;
        b.regiments[2].halt_until = 99;
        for r in 0..3 {
            b.regiments[r].loaded = false;
        }
        let reach = b.regiments[0].move_at(Gait::Trot, &b.rules);
        assert!(b.gap(0, 2) < reach, "{} {reach}", b.gap(0, 2));
        let at = b.regiments[0].pos;
        let script: &[u8] = if sees { &[] } else { &[6, 6] };
        let l = next_move(&mut b, &s, script);
        assert_eq!(declared(&l, 0, 2), !sees, "{:?}", l.0);
        assert_eq!(failed(&l, 0, 2), !sees, "{:?}", l.0);
        // Round the friends' flank and up beside them, or pressed against their backs.
        let to = b.regiments[0].pos;
        let (round, beside) = ((to.x - at.x).abs() > 1.0, to.y > b.regiments[1].pos.y);
        assert_eq!((round, beside), (sees, sees), "at {to:?}: {:?}", l.0);
    }
}

/// A TARGET ONE FRIEND IS CHARGING IS LEFT TO IT (doctrine). Two Parliament troopers side by
/// side, halted (a trot's reach), have the same Royalist troopers within it. The first ordered
/// declares its charge and goes in; the second, weighing its charge with the first standing where
/// its charge ends, in contact with the target, sees it would be stopped: it declares none. With
/// the key false it declares too, and fails against the first's flank.
#[test]
fn s10_a_target_one_friend_is_charging_is_left_to_it() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 33.0, 10.0),
        (Side::Parliament, TROOPERS, 240, 40.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    for shared in [true, false] {
        let mut b = battle_with(&s, |r| r.battle.charges_shared_out = shared);
        b.regiments[2].halt_until = 99;
        for r in 0..3 {
            b.regiments[r].loaded = false;
        }
        let reach = b.regiments[0].move_at(Gait::Trot, &b.rules);
        assert!(
            b.gap(0, 2) < reach && b.gap(1, 2) < reach,
            "in reach: {reach}"
        );
        let l = next_move(&mut b, &s, &[]);
        assert!(declared(&l, 0, 2), "{:?}", l.0);
        assert!(b.regiments[0].engaged.contains(2), "{:?}", l.0);
        assert_eq!(declared(&l, 1, 2), !shared, "{:?}", l.0);
        assert_eq!(failed(&l, 1, 2), !shared, "{:?}", l.0);
    }
}

/// A CHARGE FORESTALLED. Royalist troopers declare a charge on a Parliament forlorn hope 7"
/// off (which throws 6, 6 at the declaration and stands); Parliament moves first, and its
/// troopers, cantering, charge the Royalist troopers, who are in melee by their turn and do
/// not make their charge. The story says so (`ChargeForestalled`), and `measures.csv` counts it
/// (`charges_forestalled`, to the regiment that declared). With the Parliament troopers held,
/// the same dice, the Royalist charge goes in and nothing is forestalled.
#[test]
fn s11_a_charge_declared_by_a_regiment_charged_before_its_turn_is_forestalled_and_told() {
    use ecw_sim::narrative::{Currency, event_line};
    use ecw_sim::rules::dickenson::statistics::{MEASURES, measure::CHARGES_FORESTALLED};
    use ecw_sim::stats::OwnTotals;
    let s = setup(&[
        (Side::Parliament, FORLORN, 120, 30.0, 20.0),
        (Side::Royalist, TROOPERS, 240, 30.0, 27.0),
        (Side::Parliament, TROOPERS, 240, 42.0, 22.0),
    ]);
    let fight = |held: bool| {
        let mut b = battle(&s);
        b.regiments[0].loaded = false;
        b.regiments[0].halt_until = 99;
        // (Cantering: it moved last move, so it is not at the halt.)
        b.regiments[2].gait = Gait::Canter;
        b.regiments[2].moved = 20.0;
        if held {
            b.regiments[2].halt_until = 99;
        }
        let l = next_move(&mut b, &s, &[6, 6]);
        let mut counted = OwnTotals::new(3, MEASURES.declared.len(), Some(MEASURES.counter));
        l.0.iter()
            .for_each(|e| ecw_sim::events::Observer::event(&mut counted, e));
        (b, l, counted.of(1, CHARGES_FORESTALLED))
    };
    let forestalled = Event::Dickenson(Detail::ChargeForestalled {
        unit: 1,
        target: 0,
        engaged: true,
    });
    let (b, l, counted) = fight(false);
    assert!(
        declared(&l, 2, 1) && b.regiments[1].engaged.contains(2),
        "{:?}",
        l.0
    );
    assert!(
        l.0.contains(&forestalled) && !declared(&l, 1, 0),
        "{:?}",
        l.0
    );
    assert!(b.regiments[0].engaged.is_none());
    assert_eq!(counted, 1);
    assert_eq!(
        MEASURES.declared[CHARGES_FORESTALLED].0,
        "charges_forestalled"
    );
    assert_eq!(
        event_line(&s, Currency::Figures, forestalled).unwrap(),
        "unit 1 declared a charge on unit 0: charged before its turn, it does not make it"
    );
    let (b, l, counted) = fight(true);
    assert!(
        declared(&l, 1, 0) && b.regiments[1].engaged.contains(0),
        "{:?}",
        l.0
    );
    let told = |e: &Event| matches!(e, Event::Dickenson(Detail::ChargeForestalled { .. }));
    assert!(!l.0.iter().any(told) && counted == 0, "{:?}", l.0);
}

//! Hand-worked Dickenson examples, one per rule, fought through the engine with scripted dice.
//! Each says what the text (and the rulings) give and checks the engine does the same; the
//! script must be used up exactly (a left-over or missing die fails the test).
//!
//! Figures at 1:20: 720 foot are the text's regiment, 18 pikemen and 18 musketeers (10 points);
//! 240 horse are 12 troopers (9 points). Every unit is 3" wide and 1" deep; Parliament faces
//! +y, the Royalists -y. No general rides with any unit unless an example places one.

mod dickenson_common;

use std::f64::consts::PI;
use std::sync::Arc;

use dickenson_common::{battle, setup, setup_with};
use ecw_sim::army::{FootBalance, GunWeight, HorseKind, Side, UnitKind};
use ecw_sim::battlefield::{Area, AreaKind, Ground, LinearObstacle, ObstacleKind, Vec2};
use ecw_sim::dice::{ScriptedDice, SeededDice};
use ecw_sim::events::{Event, EventLog, GeneralResult, Outcome, ReactionResult};
use ecw_sim::rules::dickenson::battle::regiment::Gait;
use ecw_sim::rules::dickenson::battle::{Battle, Engaged, State};
use ecw_sim::rules::dickenson::events::{Detail, Fall, Figures, Source};
use ecw_sim::rules::dickenson::morale::{GunState, MoraleResult};
use ecw_sim::rules::dickenson::volley::{Arm, Band};

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);
const FORLORN: UnitKind = UnitKind::ForlornHope;
const SAKER: UnitKind = UnitKind::Artillery(GunWeight::Medium);
const FALCON: UnitKind = UnitKind::Artillery(GunWeight::VeryLight);

fn losses(l: &EventLog) -> Vec<(u16, u8, u8)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::CvLost {
                unit, amount, cv, ..
            } => Some((unit, amount, cv)),
            _ => None,
        })
        .collect()
}

/// Each volley (firer, hits, any hit) and gun shot (gun, effect, on target).
fn fired(l: &EventLog) -> Vec<(u16, u16, bool)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::Volley { unit, hits, .. }) => Some((unit, hits, hits > 0)),
            Event::Dickenson(Detail::GunShot {
                unit, effect, fall, ..
            }) => Some((unit, effect, fall == Fall::OnTarget)),
            _ => None,
        })
        .collect()
}

/// Each throw on the morale chart: (unit, result).
fn morale(l: &EventLog) -> Vec<(u16, MoraleResult)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::Morale { unit, result, .. }) => Some((unit, result)),
            _ => None,
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// VOLLEYS: 18 musketeers 6" from troopers (medium range, a deduction of 2) fire three
/// volleys: 6, 5, 2 give 4 + 3 + 0 = 7 hits. Troopers save on 5+: 1,2,3,4,5,6,4 save two, five
/// casualties; their dice 6, 6, 6, 1, 2 strike the officer, then the standard, then a trooper,
/// and two more troopers: 3 figures lost, 9 left, 4 points (4 pairs; no officer, no standard).
/// Then 14 musketeers (560 men) at medium: 5, 4, 6 give 3 + 2 + (6 - 2 - 4 men short) = 5;
/// all saved.
#[test]
fn e1_volleys_of_six_with_the_deductions_and_the_short_volley() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0; // facing away: cannot answer
    let mut d = ScriptedDice::new(&[6, 5, 2, 1, 2, 3, 4, 5, 6, 4, 6, 6, 6, 1, 2]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 7, true)]);
    assert_eq!(losses(&l), vec![(1, 3, 9)]);
    // The detail in figures: 18 muskets at medium range; 7 hits, 2 saved, 3 troopers, the
    // officer and the standard lost.
    let detail: Vec<Detail> =
        l.0.iter()
            .filter_map(|e| match *e {
                Event::Dickenson(d @ (Detail::Volley { .. } | Detail::Losses { .. })) => Some(d),
                _ => None,
            })
            .collect();
    assert_eq!(
        detail,
        vec![
            Detail::Volley {
                unit: 0,
                target: 1,
                arm: Arm::Musket,
                men: 18,
                band: Band::Medium,
                individual: false,
                closing: false,
                hits: 7,
            },
            Detail::Losses {
                unit: 1,
                by: 0,
                source: Source::Volley,
                hits: 7,
                saved: 2,
                lost: Figures {
                    horsemen: 3,
                    ..Figures::default()
                },
                officers: 1,
                standard: true,
            },
        ]
    );
    let h = b.regiments[1];
    assert!(!h.officer && !h.standard && h.horsemen == 9);
    assert_eq!(b.points(1), 4);
    assert!(!b.regiments[0].loaded, "a volley unloads the muskets");

    let s = setup(&[
        (Side::Parliament, FOOT, 560, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    assert_eq!(b.regiments[0].musketeers, 14);
    let mut d = ScriptedDice::new(&[5, 4, 6, 6, 6, 6, 6, 6]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 5, true)]);
    assert!(losses(&l).is_empty());
}

/// Whom each volley of the fire phase fell on: (firer, target).
fn volleys(l: &EventLog) -> Vec<(u16, u16)> {
    l.0.iter()
        .filter_map(|e| match *e {
            Event::Dickenson(Detail::Volley { unit, target, .. }) => Some((unit, target)),
            _ => None,
        })
        .collect()
}

/// The fire phase of foot at (36, 4) whose friends' foot stand across the line to the nearest
/// enemy, troopers 9" off at (36, 14); other troopers at (44, 15), 11.2" off and 36 degrees
/// off its front, have the line clear. The friends are unloaded and every enemy faces away, so
/// only the first foot fire. `clear`: the key `battle.clear_line_of_fire`, unset the
/// built-in value. Returns the volleys.
fn fire_past_friends(clear: Option<bool>) -> Vec<(u16, u16)> {
    use ecw_sim::rules::Ruleset;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 4.0),
        (Side::Parliament, FOOT, 720, 36.0, 8.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 14.0),
        (Side::Royalist, TROOPERS, 240, 44.0, 15.0),
    ]);
    let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
    if let Some(k) = clear {
        rules.battle.clear_line_of_fire = k;
    }
    let mut b = Dickenson::new(rules).new_battle(&s);
    b.turn = 1;
    b.first = Side::Parliament;
    b.regiments[1].loaded = false;
    for r in [2, 3] {
        b.regiments[r].facing = 0.0; // facing away: cannot answer
    }
    let mut d = SeededDice::new(1);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    volleys(&l)
}

/// SMALL ARMS DO NOT FIRE THROUGH FRIENDS (ruling (new), `battle.clear_line_of_fire`: the text
/// is silent; no one shoots through his own men): foot whose line of fire to the nearest enemy
/// crosses a friend's footprint fire at the nearest enemy in range and arc with the line clear,
/// the troopers at (44, 15). With the key false they fire through their friends at the nearest.
#[test]
fn e1b_small_arms_do_not_fire_through_friends() {
    assert_eq!(fire_past_friends(None), vec![(0, 3)], "past the friends");
    assert_eq!(
        fire_past_friends(Some(false)),
        vec![(0, 2)],
        "the key false: through them"
    );
}

/// INDIVIDUAL FIRE: a forlorn hope of 5 musketeers 3" from troopers (short range) fires man by
/// man, hitting on 4+: 4, 3, 6, 1, 5 are 3 hits. Rested on a wall the 3 hits too: 4 hits.
#[test]
fn e2_a_forlorn_hope_fires_man_by_man_and_rests_on_a_wall() {
    for (wall, hits) in [(false, 3u16), (true, 4)] {
        let mut ground = Ground::open(72.0, 48.0);
        if wall {
            ground.obstacles.push(LinearObstacle {
                kind: ObstacleKind::Wall,
                a: Vec2::new(30.0, 10.3),
                b: Vec2::new(42.0, 10.3),
                severity: 1.0,
                hard_cover: true,
            });
        }
        let s = setup_with(
            &[
                (Side::Parliament, FORLORN, 100, 36.0, 10.0),
                (Side::Royalist, TROOPERS, 240, 36.0, 13.75),
            ],
            "rupert",
            ground,
        );
        let mut b = battle(&s);
        b.regiments[1].facing = 0.0;
        assert_eq!(b.regiments[0].musketeers, 5);
        let n = usize::from(hits);
        let mut script = vec![4, 3, 6, 1, 5];
        script.extend(vec![1; 2 * n]); // unsaved, rank and file
        let mut d = ScriptedDice::new(&script);
        let mut l = EventLog::default();
        b.fire_phase(&s, &mut d, &mut l);
        d.finish();
        assert_eq!(fired(&l), vec![(0, hits, true)], "wall {wall}");
        assert_eq!(b.regiments[1].horsemen, 12 - hits);
    }
}

/// PISTOLS AND RELOADING: 12 troopers 1" from foot fire a pistol each (short range, deduct 2):
/// 6, 4 give 4 + 2 = 6 hits; foot save on a 6: five fall (from the larger body, musketeers
/// first when equal). One pistol is left; standing still a move reloads both. Muskets reload
/// in a move standing still, not after firing, not on the move.
#[test]
fn e3_pistols_fire_and_reload_standing_still() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 12.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    let mut d = ScriptedDice::new(&[6, 4, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 6, true)]);
    let f = b.regiments[1];
    assert_eq!((f.pikemen, f.musketeers), (16, 15));
    assert_eq!(b.regiments[0].pistols, 1);
    b.reload_phase();
    assert_eq!(
        b.regiments[0].pistols, 1,
        "no reloading in the move it fired"
    );
    b.regiments[0].fired = false;
    b.reload_phase();
    assert_eq!(b.regiments[0].pistols, 2);
    // Muskets: unloaded, then a move on the march does not reload them; a still one does.
    let r = &mut b.regiments[1];
    r.loaded = false;
    r.moved = 3.0;
    b.reload_phase();
    assert!(!b.regiments[1].loaded);
    b.regiments[1].moved = 0.0;
    b.reload_phase();
    assert!(b.regiments[1].loaded);
}

/// FIRING TAKES HALF A MOVE: musketeers who moved 4" of their 6" cannot fire; after 3" they can.
#[test]
fn e4_no_volley_after_more_than_half_a_move() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    b.regiments[0].full_move = 6.0;
    b.regiments[0].moved = 4.0;
    let mut d = ScriptedDice::new(&[]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(fired(&l).is_empty());
    b.regiments[0].moved = 3.0;
    let mut d = ScriptedDice::new(&[1, 1, 1]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 0, false)]);
}

/// FALL OF SHOT: a saker 20" from foot facing it. Coloured 3 (centre), white 4 (correct range):
/// the 1x3" hit area lands on the regiment; at 20" (beyond the 12" effective range) its effect
/// is one die: 4. A third of the 3" frontage is under the area (12 of 36 figures touched), so 4
/// casualties, saved on 6 only. A medium-range shot (up to twice the effective range) takes a
/// ball and 2 portions of powder. The saker fires every 2 moves. White 1 is 4" short (10-20"
/// band): the area lands at 16" and hits nothing.
#[test]
fn e5_guns_lay_the_fall_of_shot_on_the_table() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[3, 4, 4, 1, 2, 3, 4, 1, 1, 1, 1]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 4, true)]);
    assert_eq!(losses(&l), vec![(1, 4, 32)]);
    let g = b.regiments[0];
    assert_eq!((g.balls, g.powder, g.since_fired), (5, 10, 0));
    // Next move: one move since it fired, too soon for a saker; the move after, it fires.
    b.reload_phase();
    b.regiments[0].fired = false;
    let mut d = ScriptedDice::new(&[]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    b.reload_phase();
    b.regiments[0].fired = false;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[3, 1, 4]);
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l), vec![(0, 4, false)]);
    assert!(losses(&l).is_empty());
    let fall = l.0.iter().find_map(|e| match *e {
        Event::Dickenson(Detail::GunShot { fall, .. }) => Some(fall),
        _ => None,
    });
    assert_eq!(
        fall,
        Some(Fall::Short),
        "4\" short of the foot, in its line"
    );
}

/// GUN ON GUN AND AMMUNITION: a saker's hit area on a falcon: the further die 5 is 6 with the
/// saker's +1 against a falcon: destroyed (its crew leave). A 4 is a wheel: the gun's points
/// are diced for (2) and it is silent while mended. A shot 2" over lands on the falcon's
/// ammunition 2" behind it and on its limber and team 3" behind (ruling): the team's two
/// figures take 2 of the effect's 4, saved on a 6 (1, 1: horse and driver fall); the
/// ammunition is gone, and the falcon, within 4", rolls on the gun-on-gun table at its own
/// calibre: 3 gunners hit, saved on 4+: two fall (no team is left for the blast to throw for).
#[test]
fn e6_gun_on_gun_and_the_ammunition_blown_up() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FALCON, 0, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[3, 3, 4, 5]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(l.0.contains(&Event::Disintegrated { unit: 1 }));
    assert_eq!(b.regiments[1].state, State::Gone);

    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[3, 3, 4, 4, 2]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(fired(&l).len(), 1, "the damaged falcon does not answer");
    assert_eq!(b.regiments[1].gun, GunState::Damaged(2));
    assert_eq!(b.points(1), 2 + 1 + 2 + 1);

    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[3, 5, 4, 1, 1, 3, 4, 1, 2, 1, 1]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    let f = b.regiments[1];
    assert_eq!((f.balls, f.powder, f.gunners), (0, 0, 3));
    assert_eq!((f.horses, f.drivers), (0, 0), "the team behind it struck");
    assert!(l.0.contains(&Event::Dickenson(Detail::AmmunitionBlown {
        unit: 1,
        by: 0
    })));
    assert_eq!(
        fired(&l).len(),
        1,
        "out of ammunition, the falcon is silent"
    );
    assert_eq!(losses(&l), vec![(1, 2, 3)]);
}

/// Troopers 9" off charge troopers at the trot (10"), in contact: no closing fire (pistols reach
/// 4"), no throw (horse on horse), no dice.
fn troopers_charged_home() -> Battle {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 20.0),
    ]);
    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[]);
    b.charge(0, 1, &mut d, &mut EventLog::default());
    d.finish();
    assert_eq!(b.regiments[0].engaged, Engaged::of(1));
    b
}

/// IMPETUS AND MELEE: troopers 9" off charge troopers at the trot (10"): no closing fire
/// (pistols reach 4"), no throw (horse on horse). Impetus: a die for each of the 6 front-rank
/// troopers, 4+ kills: 3 (saves 5, 1, 1: two fall). First round, front ranks only: 6 troopers
/// are 12 points, 2 dice (3+4 = 7), half is 3.5 points, a trooper is 2: 1 figure, 1.5 carried;
/// the 5 front-rank defenders are 10 points, 1 die (6): 3 points, 1 figure, 1 carried. Second
/// round, everyone: 11 (22 points, 3 dice, 2+2+2 = 6, 3 + 1.5 = 4.5: 2 figures) and 9 (18
/// points, 3 dice, 1+1+1, 1.5 + 1 = 2.5: 1 figure). The charger won (2 lost to 5): its throw
/// 3+3 with attacker, won and fewer casualties, less 1 point lost, is 8: good. The beaten
/// regiment (3 points lost) throws 2+2 - 3 = 1: rout, at the gallop off the table.
#[test]
fn e7_horse_charge_home_with_impetus_and_two_rounds() {
    let mut b = troopers_charged_home();
    let mut l = EventLog::default();
    assert_eq!(b.regiments[0].gait, Gait::Trot, "no gallop from a halt");
    let mut d = ScriptedDice::new(&[
        4, 5, 6, 1, 2, 3, // impetus
        5, 1, 1, 1, 1, // saves, then rank and file
        3, 4, 6, // first round
        1, 1, 1, 1, // saves and rank and file
        2, 2, 2, 1, 1, 1, // second round
        1, 1, 1, 1, 1, 1,
    ]);
    b.melee_phase(&mut d, &mut l);
    d.finish();
    let melee: Vec<(u8, u8, u8, u8)> =
        l.0.iter()
            .filter_map(|e| match *e {
                Event::Melee {
                    attacker_dice,
                    defender_dice,
                    attacker_hits,
                    defender_hits,
                    ..
                } => Some((attacker_dice, defender_dice, attacker_hits, defender_hits)),
                _ => None,
            })
            .collect();
    assert_eq!(melee, vec![(6, 0, 3, 0), (2, 1, 1, 1), (3, 3, 2, 1)]);
    assert_eq!((b.regiments[0].horsemen, b.regiments[1].horsemen), (10, 7));
    assert!(b.regiments[0].won_melee && !b.regiments[1].won_melee);
    let mut d = ScriptedDice::new(&[3, 3, 2, 2]);
    let mut l = EventLog::default();
    b.morale_phase(&mut d, &mut l);
    d.finish();
    let results: Vec<MoraleResult> = morale(&l).into_iter().map(|(_, r)| r).collect();
    assert_eq!(results, vec![MoraleResult::Good, MoraleResult::Rout]);
    assert!(l.0.contains(&Event::LeftTable { unit: 1 }));
    assert!(l.0.contains(&Event::MeleeResult {
        winner: Some(0),
        loser: Some(1),
        result: ReactionResult::Rout
    }));
}

/// MELEE CASUALTIES ARE EVERY FIGURE STRUCK: "the unit losing least casualties" (and the
/// winner of the melee) is counted in figures struck, officers and the standard with rank and
/// file (a casualty's 6 strikes them). Troopers charge troopers at the trot; the impetus kills
/// nobody (1s). First round: the charger's 2+2 is 2 points, a trooper; the defenders' 4+4 is 4
/// points, two troopers' worth, unsaved (1, 1), striking the officer, then the standard (6, 6).
/// The trooper hit is not saved (1) and falls (1). Second round: the charger's 1+1+1+1 is 2
/// points, a trooper, saved (6); the defenders' 1+1+1 is 1.5, nobody. The charger lost 2
/// figures, the defenders 1: the defenders won and lost fewer: 3+3 + 2 - 1 point = 7, stand;
/// the charger, 3 points lost (officer and standard): 4+4 + 1 (attacker) - 3 = 6, stand.
#[test]
fn e7c_officers_and_the_standard_struck_count_as_melee_casualties() {
    let mut b = troopers_charged_home();
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[
        1, 1, 1, 1, 1, 1, // impetus: no kill
        2, 2, 4, 4, // first round
        1, 1, // the trooper hit: unsaved, rank and file
        1, 1, 6, 6, // the charger's two: unsaved, the officer and the standard
        1, 1, 1, 1, 1, 1, 1, // second round
        6, // the trooper hit: saved
    ]);
    b.melee_phase(&mut d, &mut l);
    d.finish();
    let (a, t) = (b.regiments[0], b.regiments[1]);
    assert_eq!((a.horsemen, a.officer, a.standard), (12, false, false));
    assert_eq!((t.horsemen, t.officer, t.standard), (11, true, true));
    assert!(
        t.won_melee && !a.won_melee,
        "2 figures struck (officer, standard) against 1 trooper: the defenders won"
    );
    let mut d = ScriptedDice::new(&[4, 4, 3, 3]);
    let mut l = EventLog::default();
    b.morale_phase(&mut d, &mut l);
    d.finish();
    assert_eq!(
        morale(&l),
        vec![(0, MoraleResult::Stand), (1, MoraleResult::Stand)]
    );
}

/// PIKES AND CLOSING FIRE: troopers charge foot 9" off. The foot, loaded, fire at the charger
/// (which moves over half its move) at short range: 4, 3, 2 less 1 are 6 hits, four unsaved.
/// Horse fired on while charging, and entering a pikestand, throw: 3+3 + 1 (attacker) - 2 points
/// lost = 5: bad; trotting, they turn about and use the last inch of the move. With 6+6 they
/// go in; the pistol breach: the 4 front-rank troopers fire one short volley (6 - 2 - 2 men
/// short = 2 hits): a breach, and contact. With a 2 the breach fails: held at the pikes, 2" off.
#[test]
fn e8_horse_on_pike_closing_fire_the_throw_and_the_breach() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 20.0),
    ]);
    let fire = [4, 3, 2, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1];
    let throws: [(&[u8], bool, Option<f64>); 3] = [
        (&[3, 3], false, None),
        (&[6, 6, 6, 1, 1, 1, 1], true, None),
        (&[6, 6, 2], false, Some(2.0)),
    ];
    for (rest, home, held) in throws {
        let mut b = battle(&s);
        let mut script = fire.to_vec();
        script.extend_from_slice(rest);
        let mut d = ScriptedDice::new(&script);
        let mut l = EventLog::default();
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        assert_eq!(b.regiments[0].horsemen, 8);
        // Dickenson's own detail: 2D6 + 1 attacker - 2 points lost (4 troopers of 12).
        let throw = l.0.iter().find_map(|e| match *e {
            Event::Dickenson(Detail::FormationThrow {
                unit: 0,
                target: 1,
                dice,
                adds: 1,
                points_lost: 2,
                total,
                good,
            }) => Some((dice, total, good)),
            _ => None,
        });
        let total = i16::from(rest[0]) * 2 - 1;
        assert_eq!(throw, Some(([rest[0], rest[1]], total, rest[0] == 6)));
        assert_eq!(b.regiments[0].engaged.is_some(), home, "{rest:?}");
        if let Some(g) = held {
            assert!(close(b.gap(0, 1), g), "held at the pikes: {}", b.gap(0, 1));
        }
        if rest == [3, 3] {
            // Turned about: facing home, 1" back.
            assert!(close(b.regiments[0].pos.y, 9.0) && close(b.regiments[0].facing.abs(), PI));
        }
    }
}

/// FOOT ON FOOT AND THE PIKE BONUS: foot 5" off charge foot without a throw; the target's
/// closing volley at short range (1, 1, 1) kills nobody. First round, front ranks (9 pike, 9
/// shot): 13.5 pike points throw 2 dice (6+6 = 12, half again in the first round of a melee:
/// 18, half: 9 points, 9 musketeers), 9 shot 1 die (4: 2 points, 2 figures). The defenders: 2
/// dice (1+1 = 2, 3, 1.5 points: 1 figure, 0.5 carried) and 1 die (2: 1 + 0.5: 1 figure).
#[test]
fn e9_foot_charge_foot_without_a_throw_and_pikes_add_half_in_the_first_round() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 16.0),
    ]);
    let mut b = battle(&s);
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[1, 1, 1]);
    b.charge(0, 1, &mut d, &mut l);
    d.finish();
    assert_eq!(b.regiments[0].engaged, Engaged::of(1));
    assert!(
        !l.0.iter()
            .any(|e| matches!(e, Event::Dickenson(Detail::FormationThrow { .. })))
    );
    assert!(morale(&l).is_empty());
    let mut script = vec![6, 6, 4, 1, 1, 2];
    script.extend(vec![1; 2 * 11 + 2 * 2]); // first round's casualties: unsaved, rank and file
    script.extend([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]); // second round: 4+2 dice, 3+2 dice
    script.extend(vec![1; 2 * 2 + 2 * 3]);
    let mut d = ScriptedDice::new(&script);
    b.melee_phase(&mut d, &mut l);
    d.finish();
    let rounds: Vec<(u8, u8, u8, u8)> =
        l.0.iter()
            .filter_map(|e| match *e {
                Event::Melee {
                    attacker_dice,
                    defender_dice,
                    attacker_hits,
                    defender_hits,
                    ..
                } => Some((attacker_dice, defender_dice, attacker_hits, defender_hits)),
                _ => None,
            })
            .collect();
    assert_eq!(rounds, vec![(3, 3, 11, 2), (6, 5, 2, 3)]);
}

/// MORALE: foot that lost six musketeers (1 point) throws at the end of the move, supported by
/// a friend 1" away and with its general: 2+3 + 2 - 1 = 6, stand (disordered, no advance next
/// move); 1+2 + 2 - 1 = 4, fall back a full move (6") facing the enemy, disordered; 1+1 + 2 - 1
/// = 3: rout, 6" away, and off the table next move.
#[test]
fn e10_the_morale_chart_with_its_adds() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 40.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    for (dice, result, y) in [
        ([2, 3], MoraleResult::Stand, 10.0),
        ([1, 2], MoraleResult::FallBack, 4.0),
        ([1, 1], MoraleResult::Rout, 4.0),
    ] {
        let mut b = battle(&s);
        b.generals[0].with = Some(0);
        b.regiments[0].musketeers -= 6;
        b.regiments[0].lost_this_move = 6;
        let mut d = ScriptedDice::new(&dice);
        let mut l = EventLog::default();
        b.morale_phase(&mut d, &mut l);
        d.finish();
        let got = morale(&l);
        assert_eq!(got, vec![(0, result)]);
        let r = b.regiments[0];
        assert!(close(r.pos.y, y), "{result:?}: at {}", r.pos.y);
        assert!(r.disordered(2) || result == MoraleResult::Rout);
        if result != MoraleResult::Rout {
            assert_eq!(r.halt_until, 2, "{result:?}: no advance next move");
        }
        if result == MoraleResult::Rout {
            assert_eq!(r.state, State::Routing);
            b.flee(0, &mut l);
            assert_eq!(b.regiments[0].state, State::Gone);
            assert!(l.0.contains(&Event::LeftTable { unit: 0 }));
        }
    }
}

/// A FALL BACK ALSO COSTS THE NEXT MOVE'S ADVANCE (ruling: the chart's results are ordered, and
/// a worse one never leaves a regiment freer than a better). Troopers at y 20 that lost two
/// troopers (1 point) throw at the end of the move: 3+4 - 1 = 6, stand where they are; 2+3 - 1
/// = 4, fall back a trot's 10" to y 10. Enemy foot far off stand; the troopers' doctrine would
/// advance. In the next move neither advances, and in the one after the fallen-back troopers
/// trot on 10". With `morale.fall_back_holds` false they trot straight back up to y 20.
#[test]
fn e10c_a_fall_back_holds_the_next_move_as_a_stand_does() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 20.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    // The throw, then `moves` moves: the morale results and where the troopers stand after each.
    let fight = |dice: [u8; 2], holds: bool, moves: usize| {
        let mut b = battle(&s);
        Arc::make_mut(&mut b.rules).morale.fall_back_holds = holds;
        b.regiments[1].halt_until = 99;
        b.regiments[0].horsemen -= 2;
        b.regiments[0].lost_this_move = 2;
        let mut d = ScriptedDice::new(&dice);
        let mut l = EventLog::default();
        b.morale_phase(&mut d, &mut l);
        let mut at = vec![b.regiments[0].pos.y];
        for _ in 0..moves {
            b.turn += 1;
            b.one_move(&s, &mut d, &mut l);
            at.push(b.regiments[0].pos.y);
        }
        d.finish();
        (morale(&l), at)
    };
    let (thrown, at) = fight([3, 4], true, 1);
    assert_eq!(thrown, vec![(0, MoraleResult::Stand)]);
    assert!(close(at[1], 20.0), "stood: no advance next move, {at:?}");
    let (thrown, at) = fight([2, 3], true, 1);
    assert_eq!(thrown, vec![(0, MoraleResult::FallBack)]);
    assert!(close(at[0], 10.0), "fell back a trot: {at:?}");
    assert!(
        close(at[1], 10.0),
        "fell back: no advance next move either, {at:?}"
    );
    let (_, at) = fight([2, 3], true, 2);
    assert!(close(at[2], 20.0), "free the move after: {at:?}");
    let (_, at) = fight([2, 3], false, 1);
    assert!(close(at[1], 20.0), "the key false: free at once, {at:?}");
}

/// MORALE ON LOSSES OF OFFICERS ONLY: the end-of-move throw is for every unit that lost figures
/// (dickenson.md, "The move", phase 5), and officers and the standard are figures a casualty
/// strikes (a die of 6). Foot hit twice by a volley, neither saved (1, 1), lose the mounted
/// officer and the foot officer (6, 6) and no rank and file: 2 points lost, 8 left, and they
/// throw: 4+4 - 2 = 6, stand. Likewise foot that lose only the standard (the officers already
/// gone): 5+5 - 2 - 2 = 6.
#[test]
fn e10b_a_unit_that_loses_only_officers_throws_morale() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    let mut d = ScriptedDice::new(&[1, 1, 6, 6, 4, 4]);
    let mut l = EventLog::default();
    let lost = b.hit(0, 2, 1, Source::Volley, &mut d, &mut l);
    assert_eq!((lost.figures, lost.casualties()), (0, 2));
    let r = b.regiments[0];
    assert!(!r.officer && !r.mounted_officer && r.standard);
    assert_eq!((r.pikemen, r.musketeers, b.points(0)), (18, 18, 8));
    b.morale_phase(&mut d, &mut l);
    d.finish();
    assert_eq!(morale(&l), vec![(0, MoraleResult::Stand)]);

    let mut b = battle(&s);
    b.regiments[0].officer = false;
    b.regiments[0].mounted_officer = false;
    let mut d = ScriptedDice::new(&[1, 6, 5, 5]);
    let mut l = EventLog::default();
    let lost = b.hit(0, 1, 1, Source::Volley, &mut d, &mut l);
    assert_eq!((lost.figures, lost.casualties()), (0, 1));
    assert!(!b.regiments[0].standard);
    assert_eq!(b.points(0), 6);
    b.morale_phase(&mut d, &mut l);
    d.finish();
    assert_eq!(morale(&l), vec![(0, MoraleResult::Stand)]);
}

/// GENERALS AND RALLIES: a general with a unit that loses figures rolls: 6, then 1: killed.
/// A general with a routing unit rallies it on a good throw: 4+4 + 1 - 1 point lost = 8.
#[test]
fn e11_generals_are_hit_and_rally_routing_units() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let mut b = battle(&s);
    b.regiments[1].facing = 0.0;
    b.generals[1].with = Some(1);
    let mut d = ScriptedDice::new(&[6, 5, 2, 1, 2, 3, 4, 5, 6, 4, 1, 1, 1, 1, 1, 6, 1]);
    let mut l = EventLog::default();
    b.fire_phase(&s, &mut d, &mut l);
    d.finish();
    assert!(l.0.contains(&Event::GeneralCasualty {
        general: 1,
        result: GeneralResult::HorribleDeath,
        captured: false
    }));
    assert!(b.generals[1].lost && b.general_with(1).is_none());

    let mut b = battle(&s);
    b.regiments[0].musketeers -= 6;
    b.regiments[0].state = State::Routing;
    b.generals[0].with = Some(0);
    let mut d = ScriptedDice::new(&[4, 4]);
    let mut l = EventLog::default();
    b.rallies(&mut d, &mut l);
    d.finish();
    assert_eq!(b.regiments[0].state, State::Active);
    assert!(l.0.contains(&Event::Recovered { unit: 0 }));
}

/// ARMY BREAK: an army whose morale points fall below half its start is broken: a Royalist
/// regiment left with 5 musketeers has its officers' 4 points of 10: Parliament wins.
#[test]
fn e12_an_army_breaks_below_half_its_points() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let mut b = battle(&s);
    let mut l = EventLog::default();
    b.check_armies(&mut l);
    assert!(b.outcome.is_none());
    b.regiments[1].pikemen = 0;
    b.regiments[1].musketeers = 5;
    b.check_armies(&mut l);
    assert_eq!(b.outcome, Some(Outcome::Won(Side::Parliament)));
    assert_eq!(
        l.0,
        vec![Event::ArmyBroken {
            side: Side::Royalist,
            lost: 6,
            start: 10
        }]
    );
}

/// MOVEMENT: foot in line move 6"; into woods half that, disordered; horse may not enter woods
/// and stop at their edge (front at 12: y 11.5); a hedge costs horse 4" of a trot (10 - 4 = 6") and foot half their move;
/// going uphill foot lose a third. Horse go up a gait a move: trot, then canter.
#[test]
fn e13_movement_by_formation_gait_and_ground() {
    let rect = |kind, y0: f64, y1: f64| Area {
        kind,
        points: vec![
            Vec2::new(0.0, y0),
            Vec2::new(72.0, y0),
            Vec2::new(72.0, y1),
            Vec2::new(0.0, y1),
        ],
    };
    let hedge = LinearObstacle {
        kind: ObstacleKind::Hedge,
        a: Vec2::new(0.0, 12.0),
        b: Vec2::new(72.0, 12.0),
        severity: 1.0,
        hard_cover: false,
    };
    let cases: [(UnitKind, Option<Area>, bool, f64); 6] = [
        (FOOT, None, false, 16.0),
        (FOOT, Some(rect(AreaKind::Woods, 12.0, 30.0)), false, 13.0),
        (TROOPERS, None, true, 16.0),
        (FOOT, None, true, 13.0),
        (FOOT, Some(rect(AreaKind::Hill, 12.0, 30.0)), false, 14.0),
        (
            TROOPERS,
            Some(rect(AreaKind::Woods, 12.0, 30.0)),
            false,
            11.5,
        ),
    ];
    for (kind, area, with_hedge, y) in cases {
        let mut ground = Ground::open(72.0, 48.0);
        ground.areas.extend(area);
        if with_hedge {
            ground.obstacles.push(hedge);
        }
        let s = setup_with(
            &[
                (Side::Parliament, kind, 720, 36.0, 10.0),
                (Side::Royalist, FOOT, 720, 36.0, 44.0),
            ],
            "rupert",
            ground,
        );
        let mut b = battle(&s);
        let gait = b.regiments[0].next_gait(&b.rules);
        let mut l = EventLog::default();
        b.advance(0, 0.0, gait, None, &mut l);
        // Stopped at the wood's edge: within the rulings' 0.01", short of it.
        let at = b.regiments[0].pos.y;
        let edge = y == 11.5 && at <= y && y - at <= 0.01;
        assert!(close(at, y) || edge, "{kind:?}: at {at}");
        if kind == FOOT && y == 13.0 && !with_hedge {
            assert!(b.regiments[0].disordered(2), "woods disorder");
        }
    }
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    assert_eq!(b.regiments[0].next_gait(&b.rules), Gait::Trot);
    let mut l = EventLog::default();
    b.advance(0, 0.0, Gait::Trot, None, &mut l);
    assert_eq!(b.regiments[0].next_gait(&b.rules), Gait::Canter);
    b.advance(0, 0.0, Gait::Canter, None, &mut l);
    assert!(close(b.regiments[0].pos.y, 34.0));
}

/// A CHARGE STOPS AT CONTACT: troopers charging troopers straight ahead, their centres 5" to
/// 11" apart (within the trot's 10" once the gap is measured), end front to front, their
/// centres one depth apart, never run past the target's front (the search for the run that
/// first touches once settled beyond the target when it began past it).
#[test]
fn e7b_a_charge_stops_front_to_front_whatever_the_distance() {
    for hundredth in (500..=1100).step_by(2) {
        let apart = f64::from(hundredth) / 100.0;
        let s = setup(&[
            (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
            (Side::Royalist, TROOPERS, 240, 36.0, 10.0 + apart),
        ]);
        let mut b = battle(&s);
        let mut l = EventLog::default();
        let mut d = ScriptedDice::new(&[]);
        b.charge(0, 1, &mut d, &mut l);
        d.finish();
        if b.regiments[0].engaged != Engaged::of(1) {
            continue;
        }
        let (a, t) = (&b.regiments[0], &b.regiments[1]);
        let between = t.pos.y - a.pos.y;
        assert!(
            (between - (a.depth + t.depth) / 2.0).abs() < 1e-6,
            "{apart}\" apart: centres {between}\" apart after the charge"
        );
        assert!(b.gap(0, 1) <= 1e-6, "{apart}\" apart: touching");
    }
}

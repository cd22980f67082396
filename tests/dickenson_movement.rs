//! Dickenson movement over friends and ground, hand-worked and fought through the engine with
//! scripted dice that must be used up exactly (most of these moves throw none): moves stop
//! short of friends (routers, fall backs and a forlorn hope as the rulings say), fall backs and
//! routs pay the ground and stop at ground they may not enter, hedges hacked down stay open for
//! the rest of the battle, high walls and fords; then whole battles of the fixture
//! `tests/fixtures/walls_and_fords.toml`, where foot go over a high wall and regiments wade a ford.
//!
//! Every regiment is 3" wide and 1" deep; Parliament faces +y and flees to -y, the Royalists
//! the other way. The rules' numbers used are in `configs/rulesets/dickenson.toml`: foot in line
//! 6", troopers 10/20/30", the contact gap 0.25".

mod dickenson_common;

use std::path::Path;
use std::sync::Arc;

use dickenson_common::{battle, setup, setup_with};
use ecw_sim::army::{FootBalance, HorseKind, Side, UnitKind};
use ecw_sim::battlefield::{Area, AreaKind, Ground, LinearObstacle, ObstacleKind, Vec2};
use ecw_sim::dice::ScriptedDice;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::regiment::{Formation, Gait};
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson, Regiment, State};
use ecw_sim::rules::dickenson::morale::MoraleResult;
use ecw_sim::scenario::Scenario;

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const FORLORN: UnitKind = UnitKind::ForlornHope;
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);

/// Within the halving's reach (12 halvings of a move of at most 30").
fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

fn y(b: &Battle, r: usize) -> f64 {
    b.regiments[r].pos.y
}

/// A line across the table at `y`.
fn across(kind: ObstacleKind, y: f64, severity: f64) -> LinearObstacle {
    LinearObstacle {
        kind,
        a: Vec2::new(0.0, y),
        b: Vec2::new(72.0, y),
        severity,
        hard_cover: false,
    }
}

/// A band of ground across the table from `y0` to `y1`.
fn band(kind: AreaKind, y0: f64, y1: f64) -> Area {
    Area {
        kind,
        points: vec![
            Vec2::new(0.0, y0),
            Vec2::new(72.0, y0),
            Vec2::new(72.0, y1),
            Vec2::new(0.0, y1),
        ],
    }
}

fn ground(areas: &[Area], obstacles: &[LinearObstacle]) -> Ground {
    let mut g = Ground::open(72.0, 48.0);
    g.areas.extend_from_slice(areas);
    g.obstacles.extend_from_slice(obstacles);
    g
}

/// Regiment `r` advances straight ahead at `gait` (no dice are thrown).
fn advance(b: &mut Battle, r: usize, gait: Gait) {
    let mut l = EventLog::default();
    let facing = b.regiments[r].facing;
    b.advance(r, facing, gait, None, &mut l);
}

/// Regiment `r` flees (it routs): no dice.
fn flee(b: &mut Battle, r: usize) -> EventLog {
    b.regiments[r].state = State::Routing;
    let mut l = EventLog::default();
    b.flee(r, &mut l);
    l
}

/// FRIENDS (ruling, the text is silent): foot advancing 6" from y 10 with a friend standing at
/// y 14 stop touching it (y 13: fronts and backs half an inch from the centre), where they
/// would reach y 16; a friend beside them, touching, does not hold them; a forlorn hope in
/// open order is passed through, and passes through friends itself (its musketeers' 8").
#[test]
fn m1_an_advance_stops_short_of_friends_but_passes_a_forlorn_hope() {
    let enemy = (Side::Royalist, FOOT, 720, 36.0, 44.0);
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 36.0, 14.0),
        enemy,
    ]);
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(
        y(&b, 0) <= 13.0 + 1e-9 && near(y(&b, 0), 13.0),
        "{}",
        y(&b, 0)
    );
    assert_eq!(y(&b, 1), 14.0);

    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 39.0, 10.0),
        enemy,
    ]);
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 16.0), "side by side: {}", y(&b, 0));

    for (mover, stander) in [(FOOT, FORLORN), (FORLORN, FOOT)] {
        let s = setup(&[
            (Side::Parliament, mover, 720, 36.0, 10.0),
            (Side::Parliament, stander, 720, 36.0, 14.0),
            enemy,
        ]);
        let mut b = battle(&s);
        let full = b.regiments[0].move_at(Gait::Trot, &b.rules);
        advance(&mut b, 0, Gait::Trot);
        assert!(near(y(&b, 0), 10.0 + full), "{mover:?}: {}", y(&b, 0));
        // Without the open-order ruling the forlorn hope (half an inch deep) holds them too.
        let mut b = battle(&s);
        Arc::make_mut(&mut b.rules).battle.forlorn_hope_open_order = false;
        advance(&mut b, 0, Gait::Trot);
        assert!(near(y(&b, 0), 13.25), "{mover:?} closed: {}", y(&b, 0));
    }
}

/// A charge with a friend in the way fails (ruling: it does not go round): troopers cantering
/// (so charging at the gallop, 30") on foot 13" off, their own foot between, stop touching
/// their friend. No dice: without the friend the pike would throw.
#[test]
fn m2_a_friend_in_the_way_stops_a_charge() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, 36.0, 16.0),
        (Side::Royalist, FOOT, 720, 36.0, 24.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].gait = Gait::Canter;
    let mut d = ScriptedDice::new(&[]);
    let mut l = EventLog::default();
    b.charge(0, 2, &mut d, &mut l);
    d.finish();
    assert!(
        l.0.iter()
            .any(|e| matches!(e, Event::ChargeFailed { unit: 0, target: 2 }))
    );
    assert!(b.regiments[0].engaged.is_none());
    assert!(near(y(&b, 0), 15.0), "{}", y(&b, 0));
}

/// ROUTERS flee through friends (ruling): foot routing 6" from y 20 through a friend at y 16
/// reach y 14; with the ruling off they stop touching it (y 17). A FALL BACK (a full move
/// facing the enemy) stops short of a friend behind it (ruling), y 17 again, where in the open
/// it falls back to y 14.
#[test]
fn m3_routers_pass_friends_and_fall_backs_stop_short_of_them() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 20.0),
        (Side::Parliament, FOOT, 720, 36.0, 16.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 14.0), "{}", y(&b, 0));
    let mut b = battle(&s);
    Arc::make_mut(&mut b.rules).battle.routers_pass_friends = false;
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 17.0), "{}", y(&b, 0));

    let mut b = battle(&s);
    let mut l = EventLog::default();
    b.obey(0, MoraleResult::FallBack, &mut l);
    assert!(near(y(&b, 0), 17.0), "{}", y(&b, 0));
    assert_eq!(b.regiments[0].facing, 0.0, "still facing the enemy");
    let mut b = battle(&s);
    Arc::make_mut(&mut b.rules).battle.fall_backs_pass_friends = true;
    b.obey(0, MoraleResult::FallBack, &mut l);
    assert!(near(y(&b, 0), 14.0), "{}", y(&b, 0));
}

/// ROUTS AND FALL BACKS OVER THE GROUND: foot fleeing 6" towards woods (y 10-16) whose half
/// speed would not carry them in (3" from y 20 ends short of them) go at full speed to their
/// edge and stop there (y 16.5, paying only ground crossed; the whole leg priced, y 17); horse cannot enter woods, not even to ride through, so troopers fleeing 30" from y 28
/// stop at the edge of woods at y 10-16 (their leading edge there, y 16.5, within the rulings'
/// 0.01"; halving the move until clear stopped them at y 20.5) where in the open they leave
/// the table;
/// foot falling back 6" over a low wall lose half (y 20 to 17, disordered); foot at the table
/// edge behind an impassable river stay on the table, their rear edge at the river (y 2.5); troopers fleeing over a hedge cannot
/// gallop: a canter's 20" less 4" for the hedge (y 40 to 24), 30" in the open (y 10).
#[test]
fn m4_routs_and_fall_backs_pay_the_ground() {
    let open = |specs: &[dickenson_common::Spec], areas: &[Area], obs: &[LinearObstacle]| {
        let s = setup_with(specs, "rupert", ground(areas, obs));
        battle(&s)
    };
    let foot_at = |y: f64| {
        [
            (Side::Parliament, FOOT, 720, 36.0, y),
            (Side::Royalist, FOOT, 720, 60.0, 46.0),
        ]
    };
    let horse_at = |y: f64| {
        [
            (Side::Parliament, TROOPERS, 240, 36.0, y),
            (Side::Royalist, FOOT, 720, 60.0, 46.0),
        ]
    };
    let woods = band(AreaKind::Woods, 10.0, 16.0);

    let mut b = open(&foot_at(20.0), std::slice::from_ref(&woods), &[]);
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 16.5), "foot up to the woods: {}", y(&b, 0));
    let mut b = open(&foot_at(20.0), std::slice::from_ref(&woods), &[]);
    Arc::make_mut(&mut b.rules).terrain.pay_ground_crossed = false;
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 17.0), "foot, the leg priced: {}", y(&b, 0));
    let mut b = open(&foot_at(20.0), &[], &[]);
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 14.0), "foot in the open: {}", y(&b, 0));

    let mut b = open(&horse_at(28.0), std::slice::from_ref(&woods), &[]);
    flee(&mut b, 0);
    assert_eq!(b.regiments[0].state, State::Routing);
    assert!(near(y(&b, 0), 16.5), "horse short of woods: {}", y(&b, 0));
    assert!(y(&b, 0) >= 16.5, "not into the woods: {}", y(&b, 0));
    let mut b = open(&horse_at(28.0), &[], &[]);
    let l = flee(&mut b, 0);
    assert_eq!(
        b.regiments[0].state,
        State::Gone,
        "{:?}",
        b.regiments[0].pos
    );
    assert!(
        l.0.iter()
            .any(|e| matches!(e, Event::LeftTable { unit: 0 }))
    );

    let wall = across(ObstacleKind::Wall, 18.0, 1.0);
    let mut b = open(&foot_at(20.0), &[], &[wall]);
    let mut l = EventLog::default();
    b.obey(0, MoraleResult::FallBack, &mut l);
    assert!(near(y(&b, 0), 17.0), "fall back over a wall: {}", y(&b, 0));
    assert!(b.regiments[0].disordered(b.turn + 1));

    let river = across(ObstacleKind::Stream, 2.0, 0.0);
    let mut b = open(&foot_at(3.0), &[], &[river]);
    flee(&mut b, 0);
    assert_eq!(b.regiments[0].state, State::Routing);
    assert!(near(y(&b, 0), 2.5), "behind the river: {}", y(&b, 0));

    let hedge = across(ObstacleKind::Hedge, 30.0, 1.0);
    let mut b = open(&horse_at(40.0), &[], &[hedge]);
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 24.0), "horse over a hedge: {}", y(&b, 0));
    let mut b = open(&horse_at(40.0), &[], &[]);
    flee(&mut b, 0);
    assert!(near(y(&b, 0), 10.0), "{}", y(&b, 0));
}

/// HEDGES HACKED DOWN (seed: "which is then removed"): foot crossing a hedge at y 12 lose half
/// their 6" (y 10 to 13) and leave a gap of their 3" frontage; foot crossing again through the
/// gap pay nothing (y 16), but 4" along the hedge, beyond the gap, they pay again (y 13).
/// Troopers cantering through the gap go their full 20" (y 2 to 22), not 16" as over the hedge.
/// A new battle has the hedge whole again.
#[test]
fn m5_hedges_hacked_down_stay_open() {
    let hedge = across(ObstacleKind::Hedge, 12.0, 1.0);
    let specs = [
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Parliament, TROOPERS, 240, 36.0, 2.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ];
    let s = setup_with(&specs, "rupert", ground(&[], &[hedge]));
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 13.0), "{}", y(&b, 0));
    assert_eq!(b.gaps.len(), 1);
    b.regiments[0].pos = Vec2::new(36.0, 10.0);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 16.0), "through the gap: {}", y(&b, 0));
    assert_eq!(b.gaps.len(), 1, "no new gap where there is one");
    b.regiments[0].pos = Vec2::new(40.0, 10.0);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 13.0), "beside the gap: {}", y(&b, 0));
    assert_eq!(b.gaps.len(), 2);

    b.regiments[0].pos = Vec2::new(60.0, 30.0);
    advance(&mut b, 1, Gait::Canter);
    assert!(near(y(&b, 1), 22.0), "horse through the gap: {}", y(&b, 1));

    b.reset();
    assert!(b.gaps.is_empty());
    b.turn = 1;
    b.regiments[0].pos = Vec2::new(60.0, 30.0);
    advance(&mut b, 1, Gait::Canter);
    assert!(
        near(y(&b, 1), 18.0),
        "the hedge is whole again: {}",
        y(&b, 1)
    );
}

/// HIGH WALLS (seed: no horse; foot a full move to the other side, disordered): foot 3" from a
/// high wall stop at its foot, their front the contact gap short of it (y 10 to 12.25); next
/// move, with the whole move to spend, they go over to their rear as far beyond it (y 13.75),
/// disordered, the move spent; with half the move gone (a change of formation) they cannot.
/// Troopers stop with their front at it (y 12.5). FORDS (seed: half the river's cost): foot lose half
/// their 6" over a stream (y 10 to 13) but a quarter over a ford (y 14.5), disordered.
#[test]
fn m6_high_walls_and_fords_cost_what_the_text_says() {
    let enemy = (Side::Royalist, FOOT, 720, 36.0, 44.0);
    let wall = across(ObstacleKind::HighWall, 13.0, 1.0);
    let s = setup_with(
        &[(Side::Parliament, FOOT, 720, 36.0, 10.0), enemy],
        "rupert",
        ground(&[], &[wall]),
    );
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 12.25), "at the wall: {}", y(&b, 0));
    assert!(y(&b, 0) <= 12.25 + 1e-9);
    let at_wall = b.regiments[0];
    b.regiments[0].spent = 0.5;
    advance(&mut b, 0, Gait::Trot);
    assert!(
        near(y(&b, 0), 12.25),
        "half a move is not enough: {}",
        y(&b, 0)
    );
    b.regiments[0] = at_wall;
    b.turn = 2;
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 13.75), "over the wall: {}", y(&b, 0));
    assert!(b.regiments[0].disordered(3));
    assert_eq!(b.regiments[0].spent, 1.0);

    let s = setup_with(
        &[(Side::Parliament, TROOPERS, 240, 36.0, 10.0), enemy],
        "rupert",
        ground(&[], &[wall]),
    );
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 12.5), "horse at a high wall: {}", y(&b, 0));

    for (kind, to) in [(ObstacleKind::Stream, 13.0), (ObstacleKind::Ford, 14.5)] {
        let s = setup_with(
            &[(Side::Parliament, FOOT, 720, 36.0, 10.0), enemy],
            "rupert",
            ground(&[], &[across(kind, 12.0, 1.0)]),
        );
        let mut b = battle(&s);
        advance(&mut b, 0, Gait::Trot);
        assert!(near(y(&b, 0), to), "{kind:?}: {}", y(&b, 0));
        assert!(b.regiments[0].disordered(2));
    }
}

/// GROUND MET BY THE FOOTPRINT (ruling: any part of it): foot 3" wide advancing 6" from
/// (36, 10) beside a wood whose edge is at x 37 end with the corner of their footprint in it
/// (their centre is not): half speed, y 13, disordered. Troopers trotting 10" towards a hill
/// from y 20.2 end with only their front on it: uphill, a sixth lost (y 18.33). With the rulings'
/// centre alone meeting the ground (`terrain.footprint_meets_ground = false`) both go their
/// full move (y 16, y 20). (Both priced over the leg they wanted,
/// `terrain.pay_ground_crossed = false`: paying only ground crossed, the troopers would stop
/// at the hill's foot, m15.)
#[test]
fn m13_ground_is_met_by_any_part_of_the_footprint() {
    let enemy = (Side::Royalist, FOOT, 720, 10.0, 44.0);
    let wood = Area {
        kind: AreaKind::Woods,
        points: vec![
            Vec2::new(37.0, 12.0),
            Vec2::new(72.0, 12.0),
            Vec2::new(72.0, 30.0),
            Vec2::new(37.0, 30.0),
        ],
    };
    let hill = band(AreaKind::Hill, 20.2, 40.0);
    for (kind, area, footprint, centre) in [
        (FOOT, wood, 13.0, 16.0),
        (TROOPERS, hill, 10.0 + 10.0 * 5.0 / 6.0, 20.0),
    ] {
        let s = setup_with(
            &[(Side::Parliament, kind, 720, 36.0, 10.0), enemy],
            "rupert",
            ground(std::slice::from_ref(&area), &[]),
        );
        let mut b = battle(&s);
        Arc::make_mut(&mut b.rules).terrain.pay_ground_crossed = false;
        advance(&mut b, 0, Gait::Trot);
        assert!(
            near(y(&b, 0), footprint),
            "{kind:?} footprint: {}",
            y(&b, 0)
        );
        assert_eq!(b.regiments[0].disordered(2), kind == FOOT);
        let mut b = battle(&s);
        Arc::make_mut(&mut b.rules).terrain.pay_ground_crossed = false;
        Arc::make_mut(&mut b.rules).terrain.footprint_meets_ground = false;
        advance(&mut b, 0, Gait::Trot);
        assert!(near(y(&b, 0), centre), "{kind:?} centre: {}", y(&b, 0));
    }
}

/// A HEDGE HACKED ASLANT: foot 3" wide crossing a hedge that runs at 45 degrees to their
/// march pay half their move (y 10 to 13) and open the stretch their leading edge passed
/// over, 3 root 2 inches of hedge (4.24"), not 3"; foot following the same line go through
/// it free (y 16) and hack no new gap. Measured as the frontage along the hedge, the follower's
/// stretch would stick out of the gap and pay.
#[test]
fn m14_a_hedge_hacked_aslant_opens_a_wider_gap() {
    let hedge = LinearObstacle {
        kind: ObstacleKind::Hedge,
        a: Vec2::new(24.0, 0.0),
        b: Vec2::new(48.0, 24.0),
        severity: 1.0,
        hard_cover: false,
    };
    let s = setup_with(
        &[
            (Side::Parliament, FOOT, 720, 36.0, 10.0),
            (Side::Royalist, FOOT, 720, 10.0, 44.0),
        ],
        "rupert",
        ground(&[], &[hedge]),
    );
    let mut b = battle(&s);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 13.0), "{}", y(&b, 0));
    assert_eq!(b.gaps.len(), 1);
    let gap = b.gaps[0];
    assert!((2.0 * gap.half - 3.0 * 2f64.sqrt()).abs() < 1e-9, "{gap:?}");
    b.regiments[0].pos = Vec2::new(36.0, 10.0);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 16.0), "through the gap: {}", y(&b, 0));
    assert_eq!(b.gaps.len(), 1);
    b.gaps[0].half = 1.5;
    b.regiments[0].pos = Vec2::new(36.0, 10.0);
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 13.0), "a frontage-wide gap: {}", y(&b, 0));
}

/// Whether the move `from`-`to` crosses the segment `a`-`b`.
fn crosses(from: (f64, f64), to: (f64, f64), a: (f64, f64), b: (f64, f64)) -> bool {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    side(a, b, from) * side(a, b, to) < 0.0 && side(from, to, a) * side(from, to, b) < 0.0
}

/// THE FIXTURE'S BATTLES: in 60 whole battles of `walls_and_fords.toml` foot go over the park's
/// high wall, each time by at most twice the contact gap and the depth of their footprint (at
/// most 3" here) (the whole move spent) and disordered,
/// and no horse ever crosses it; regiments wade the ford, disordered, each such move at most
/// three quarters of the longest move of its kind (foot 7.5", horse 30"), and cross the river
/// elsewhere at no more than half, unless the move starts with its footprint perhaps over the
/// river already (its centre within half the widest footprint's diagonal of it): the move
/// before paid for it and ended astride it (m30).
#[test]
fn m7_the_fixture_puts_high_walls_and_fords_in_battles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walls_and_fords.toml");
    let s = Scenario::load(&path, &[]).unwrap().setup().unwrap();
    let d = Dickenson::builtin();
    let mut b = d.new_battle(&s);
    let horse = |u: u16| s.units[usize::from(u)].kind.arm() != ecw_sim::army::Arm::Foot;
    let longest = |u: u16| if horse(u) { 30.0 } else { 7.5 };
    let (mut walls, mut fords, mut rivers) = (0, 0, 0);
    // A footprint reaches no farther from its centre than half its diagonal.
    let reach = b
        .regiments
        .iter()
        .map(|r| r.frontage.hypot(r.depth) / 2.0)
        .fold(0.0, f64::max);
    let astride = |from: (f64, f64)| (from.1 - 26.0).abs() < reach;
    for seed in 0..60 {
        let mut l = EventLog::default();
        d.fight(&mut b, &s, seed, &mut l);
        for e in &l.0 {
            let Event::Moved {
                unit,
                from,
                to,
                disordered,
            } = *e
            else {
                continue;
            };
            let len = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
            if crosses(from, to, (0.0, 14.0), (24.0, 14.0)) {
                walls += 1;
                assert!(!horse(unit), "horse over the high wall: {e:?}");
                assert!(disordered && len <= 0.5 + 3.0 + 1e-9, "{e:?}");
            }
            if astride(from) {
                continue;
            }
            if crosses(from, to, (30.0, 26.0), (42.0, 26.0)) {
                fords += 1;
                assert!(disordered && len <= 0.75 * longest(unit) + 1e-9, "{e:?}");
            }
            if crosses(from, to, (0.0, 26.0), (30.0, 26.0))
                || crosses(from, to, (42.0, 26.0), (72.0, 26.0))
            {
                rivers += 1;
                assert!(disordered && len <= 0.5 * longest(unit) + 1e-9, "{e:?}");
            }
        }
    }
    assert!(
        walls > 0 && fords > 0 && rivers > 0,
        "{walls} {fords} {rivers}"
    );
}

/// One move for everybody: its start (no dice: nobody routs, no general), then movement.
fn next_move(b: &mut Battle, s: &ecw_sim::setup::BattleSetup) {
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.turn += 1;
    b.start_of_move(s, &mut d, &mut l);
    b.movement_phase(s, &mut d, &mut l);
    d.finish();
}

/// Three troopers abreast (x 24, 30, 36) and one halted enemy regiment of foot off centre.
fn three_abreast(
    enemy: (f64, f64),
    straight_beyond: Option<f64>,
) -> (Battle, ecw_sim::setup::BattleSetup) {
    let specs = [
        (Side::Parliament, TROOPERS, 240, 24.0, 4.0),
        (Side::Parliament, TROOPERS, 240, 30.0, 4.0),
        (Side::Parliament, TROOPERS, 240, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, enemy.0, enemy.1),
    ];
    let s = setup(&specs);
    let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
    if let Some(d) = straight_beyond {
        rules.battle.advance_straight_beyond = d;
    }
    let mut b = Dickenson::new(rules).new_battle(&s);
    b.turn = 0;
    b.first = Side::Parliament;
    b.regiments[3].halt_until = 99;
    (b, s)
}

/// LANES: three horse abreast, the enemy 40" off and 8" to the right of the right-hand one
/// (within 45 degrees of every front, beyond the ruling's 12"). They advance in their lanes, a
/// trot (10") then a canter (20"), still abreast 6" apart, facing ahead. With the key set past the
/// table's length (turn on the nearest enemy at any distance) the same advance converges on it.
#[test]
fn m8_an_advance_keeps_its_lane_until_near() {
    let (mut b, s) = three_abreast((44.0, 44.0), None);
    for want in [14.0, 34.0] {
        next_move(&mut b, &s);
        for (r, x) in [(0, 24.0), (1, 30.0), (2, 36.0)] {
            let reg = b.regiments[r];
            assert!(
                near(reg.pos.x, x) && near(reg.pos.y, want),
                "{r}: {:?}",
                reg.pos
            );
            assert!(near(reg.facing, 0.0), "{r} faces ahead");
        }
    }
    let (mut b, s) = three_abreast((44.0, 44.0), Some(100.0));
    next_move(&mut b, &s);
    for (r, x) in [(0, 24.0), (1, 30.0), (2, 36.0)] {
        let reg = b.regiments[r];
        assert!(
            reg.pos.x > x + 1.0 && reg.pos.y < 14.0,
            "{r} converges: {:?}",
            reg.pos
        );
    }
    assert!(
        b.regiments[0].pos.x - 24.0 > b.regiments[2].pos.x - 36.0,
        "the far one most"
    );
}

/// TURN: the enemy 11" off (within the ruling's 12", beyond the trot's 10" charge reach) and to
/// the right: the advance turns on it and stops short of it; at 13" it still goes straight. Far
/// off but more than 45 degrees to the flank, it turns too.
#[test]
fn m9_an_advance_turns_on_an_enemy_near_or_off_to_a_flank() {
    // The foot's front edge is 0.5" before its centre, the horse's 0.5" behind its own.
    for (gap, turns) in [(11.0, true), (13.0, false)] {
        let (mut b, s) = three_abreast((40.0, 4.0 + 1.0 + gap), None);
        let before = b.regiments[2].pos;
        next_move(&mut b, &s);
        let reg = b.regiments[2];
        assert_eq!(
            reg.facing.abs() > 0.01,
            turns,
            "{gap}: facing {}",
            reg.facing
        );
        assert_eq!(reg.pos.x > before.x + 0.1, turns, "{gap}: {:?}", reg.pos);
        if turns {
            assert!(
                b.gap(2, 3) >= b.rules.battle.contact_gap - 1e-9,
                "short of it"
            );
        }
    }
    let (mut b, s) = three_abreast((70.0, 20.0), None);
    next_move(&mut b, &s);
    let reg = b.regiments[0];
    assert!(
        reg.pos.x > 24.5 && reg.facing.abs() > 0.5,
        "{:?} {}",
        reg.pos,
        reg.facing
    );
}

/// The key in whole battles: in 20 Marston Moor battles, count each regiment's first move that
/// goes straight along the way it faced at the start. Lanes keep over ten times as many
/// straight as the same battles with the key past the table's length, every advance aimed at its
/// nearest enemy (1,083 against 29 when written).
#[test]
fn m10_lanes_keep_marston_moor_advances_straight() {
    let s = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let straight = |beyond: f64| {
        let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
        rules.battle.advance_straight_beyond = beyond;
        let d = Dickenson::new(rules);
        let mut b = d.new_battle(&s);
        let mut n = 0;
        for seed in 0..20 {
            let mut l = EventLog::default();
            d.fight(&mut b, &s, seed, &mut l);
            let mut seen = vec![false; s.units.len()];
            for e in &l.0 {
                let Event::Moved { unit, from, to, .. } = *e else {
                    continue;
                };
                let u = usize::from(unit);
                if std::mem::replace(&mut seen[u], true) {
                    continue;
                }
                let way = Vec2::new(to.0 - from.0, to.1 - from.1);
                let ahead = Vec2::from_facing(s.units[u].facing);
                n += usize::from(way.dot(ahead) > 0.9999 * way.dot(way).sqrt());
            }
        }
        n
    };
    let (lanes, aimed) = (straight(12.0), straight(100.0));
    assert!(lanes > 10 * aimed, "lanes {lanes}, aimed {aimed}");
}

/// A wood 15" wide (x 33-48, y 10-16) and a regiment of troopers of Parliament (fleeing to -y)
/// at (36, `y`), the enemy far off.
fn before_a_wood(y: f64, veer_step: f64) -> Battle {
    let wood = Area {
        kind: AreaKind::Woods,
        points: vec![
            Vec2::new(33.0, 10.0),
            Vec2::new(48.0, 10.0),
            Vec2::new(48.0, 16.0),
            Vec2::new(33.0, 16.0),
        ],
    };
    let specs = [
        (Side::Parliament, TROOPERS, 240, 36.0, y),
        (Side::Royalist, FOOT, 720, 60.0, 46.0),
    ];
    let s = setup_with(&specs, "rupert", ground(&[wood], &[]));
    let mut b = battle(&s);
    Arc::make_mut(&mut b.rules).battle.veer_step_degrees = veer_step;
    b
}

/// VEERING ROUND GROUND (ruling): troopers routing 30" from (36, 40) with a wood straight
/// behind them (x 33-48) veer by the least turn whose way is open: 15 degrees to the wood's
/// near end (3" off), to (36 - 30 sin 15, 40 - 30 cos 15) = (28.24, 11.02), still routing; 15
/// degrees the other way, past its far end (12" off), the way crosses it. With the key at 0
/// they stop at the wood's edge (y 16.5). From (36, 28) the least open turn is 30 degrees
/// (the 15-degree way sweeps the wood's corner with their footprint). Falling back (a full move, facing the enemy) they veer too and keep facing
/// it. A wood the table's width (m4) leaves no way round within 60 degrees.
#[test]
fn m11_routs_and_fall_backs_veer_round_ground_they_may_not_enter() {
    let mut b = before_a_wood(40.0, 15.0);
    flee(&mut b, 0);
    let (turn, p) = (15f64.to_radians(), b.regiments[0].pos);
    assert_eq!(b.regiments[0].state, State::Routing);
    assert!(
        near(p.x, 36.0 - 30.0 * turn.sin()) && near(p.y, 40.0 - 30.0 * turn.cos()),
        "veered: {p:?}"
    );
    let mut b = before_a_wood(40.0, 0.0);
    flee(&mut b, 0);
    let p = b.regiments[0].pos;
    assert!(near(p.x, 36.0) && near(p.y, 16.5), "straight: {p:?}");

    // From (36, 28) the 15-degree way would sweep the wood's corner with the troopers'
    // footprint: they veer 30 degrees, to (36 - 30 sin 30, 28 - 30 cos 30) = (21, 2.02).
    let mut b = before_a_wood(28.0, 15.0);
    flee(&mut b, 0);
    let p = b.regiments[0].pos;
    assert!(
        near(p.x, 21.0) && near(p.y, 28.0 - 30.0 * 30f64.to_radians().cos()),
        "{p:?}"
    );
    let mut b = before_a_wood(28.0, 0.0);
    flee(&mut b, 0);
    assert_eq!(b.regiments[0].state, State::Routing, "held by the wood");

    for (step, veers) in [(15.0, true), (0.0, false)] {
        let mut b = before_a_wood(24.0, step);
        let mut l = EventLog::default();
        b.obey(0, MoraleResult::FallBack, &mut l);
        let p = b.regiments[0].pos;
        assert_eq!(p.x < 35.0, veers, "fall back {step}: {p:?}");
        assert!(p.y < 24.0 - 1.0, "fall back {step}: {p:?}");
        assert_eq!(b.regiments[0].facing, 0.0, "still facing the enemy");
    }
}

/// The ruling in whole battles: at Marston Moor, Wilstrop Wood (x 44-62, y 45.5-48) lies
/// behind Goring's wing. Over 30 battles, count the Royalist horse still routing at the end in
/// front of it (x 42-64, y 34-45.5): with the veer they go round it and leave the table; without
/// it routers stand there, held by the wood, for the rest of the battle (at least 10 such in
/// the 30 battles, and with the veer at most a fifth as many).
#[test]
fn m12_marston_moor_routers_go_round_wilstrop_wood() {
    let s = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let held = |step: f64| {
        let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
        rules.battle.veer_step_degrees = step;
        let d = Dickenson::new(rules);
        let mut b = d.new_battle(&s);
        let mut n = 0;
        for seed in 0..30 {
            let mut l = EventLog::default();
            d.fight(&mut b, &s, seed, &mut l);
            n += b
                .regiments
                .iter()
                .filter(|r| r.side == Side::Royalist && r.is_horse())
                .filter(|r| r.state == State::Routing)
                .filter(|r| (42.0..=64.0).contains(&r.pos.x) && (34.0..45.5).contains(&r.pos.y))
                .count();
        }
        n
    };
    let (veered, straight) = (held(15.0), held(0.0));
    assert!(
        straight >= 10 && veered * 5 <= straight,
        "veered {veered}, straight {straight}"
    );
}

/// The arc test by dot product (`Battle::in_arc`) gives the same answer as measuring the
/// bearing, to the bit, on random facings and points and on a grid whose diagonals fall on
/// the arcs' edges exactly (45 and 90 degrees), including arcs of 0 and 180 degrees.
#[test]
fn the_arc_test_agrees_with_the_bearing_to_the_bit() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ]);
    let mut b = battle(&s);
    let mut seed = 7u64;
    let mut rnd = move || {
        seed = ecw_sim::dice::mix64(seed);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let arcs = [0.0, 10.0, 45.0, 60.0, 90.0, 135.0, 180.0, 200.0, -5.0];
    let grid = [0.0, 90.0, 180.0, -90.0, 45.0, 270.0];
    let (mut inside, mut edges) = (0, 0);
    for i in 0..40_000 {
        let (facing, to) = if i % 2 == 0 {
            let p = Vec2::new(rnd() * 72.0, rnd() * 48.0);
            (rnd() * 20.0 - 10.0, p)
        } else {
            let g = grid[(rnd() * grid.len() as f64) as usize];
            let d = Vec2::new((rnd() * 7.0).floor() - 3.0, (rnd() * 7.0).floor() - 3.0);
            (f64::to_radians(g), Vec2::new(36.0, 10.0) + d)
        };
        let arc = if i % 3 == 0 {
            rnd() * 190.0
        } else {
            arcs[(rnd() * arcs.len() as f64) as usize]
        };
        b.regiments[0].pos = if i % 2 == 0 {
            Vec2::new(rnd() * 72.0, rnd() * 48.0)
        } else {
            Vec2::new(36.0, 10.0)
        };
        b.regiments[0].facing = facing;
        let slow = b.bearing(0, to) <= arc;
        assert_eq!(
            b.in_arc(0, to, arc),
            slow,
            "facing {facing} to {to:?} arc {arc}"
        );
        inside += usize::from(slow);
        edges += usize::from((b.bearing(0, to) - arc).abs() < 1e-9);
    }
    assert!(
        inside > 5_000 && inside < 35_000,
        "{inside} of 40,000 inside"
    );
    assert!(edges > 100, "the test should meet the edge often: {edges}");
}

/// GROUND PAID AS CROSSED (ruling): troopers trotting 10" from y 2 towards a hedge at y 10
/// (4" more for horse) cannot afford to cross it this move. Priced over the whole leg they
/// would pay the 4" and stop at y 8, short of a hedge they never crossed, and pay again next
/// move; paying only for ground crossed they go on to the hedge, their front just short of
/// it, and cross it next move paying the 4" once (6" beyond where they stood).
#[test]
fn m15_a_move_pays_only_for_the_ground_it_crosses() {
    let hedge = across(ObstacleKind::Hedge, 10.0, 1.0);
    let specs = [
        (Side::Parliament, TROOPERS, 240, 36.0, 2.0),
        (Side::Royalist, FOOT, 720, 36.0, 44.0),
    ];
    let s = setup_with(&specs, "rupert", ground(&[], &[hedge]));
    let mut b = battle(&s);
    Arc::make_mut(&mut b.rules).terrain.pay_ground_crossed = false;
    advance(&mut b, 0, Gait::Trot);
    assert!(near(y(&b, 0), 8.0), "the whole leg priced: {}", y(&b, 0));

    let mut b = battle(&s);
    let half_depth = b.shape(0).half_depth;
    advance(&mut b, 0, Gait::Trot);
    let first = y(&b, 0);
    assert!(
        first > 8.5 && (first + half_depth - 10.0).abs() < 0.02 && first + half_depth <= 10.0,
        "up to the hedge: {first} (half depth {half_depth})"
    );
    advance(&mut b, 0, Gait::Trot);
    assert!(
        near(y(&b, 0), first + 6.0),
        "over, 4\" paid once: {}",
        y(&b, 0)
    );
}

/// AN OBSTACLE PAID ONCE (ruling): a move that pays for an obstacle and ends astride it (its
/// front over, its centre not yet) does not pay it again on the next. Troopers trotting 10"
/// toward a hedge (4" more for horse) from 6" and half their depth short of it pay the 4" and
/// end astride it, 6" on; next move they trot their full 10" (not 6" again). Foot 3" and a
/// quarter inch short of a low wall (half their move) go 3" of their 6" and end astride; next
/// move they go the whole 6". A move that never paid for it (placed astride) pays as before.
#[test]
fn m30_an_obstacle_is_paid_once_by_a_move_that_ends_astride_it() {
    let cases = [
        (TROOPERS, ObstacleKind::Hedge, 6.0, 10.0),
        (FOOT, ObstacleKind::Wall, 3.0, 6.0),
    ];
    for (kind, obstacle, first, full) in cases {
        let specs = [
            (Side::Parliament, kind, 720, 36.0, 2.0),
            (Side::Royalist, FOOT, 720, 36.0, 44.0),
        ];
        let s = setup_with(
            &specs,
            "rupert",
            ground(&[], &[across(obstacle, 20.0, 1.0)]),
        );
        let mut b = battle(&s);
        let half = b.shape(0).half_depth;
        let start = 20.0 - half / 2.0 - first;
        b.regiments[0].pos = Vec2::new(36.0, start);
        advance(&mut b, 0, Gait::Trot);
        assert!(near(y(&b, 0), start + first), "{kind:?}: {}", y(&b, 0));
        assert!(y(&b, 0) < 20.0 && y(&b, 0) + half > 20.0, "astride");
        assert_eq!(b.regiments[0].crossing, Some(0));
        advance(&mut b, 0, Gait::Trot);
        assert!(
            near(y(&b, 0), start + first + full),
            "{kind:?} paid once: {}",
            y(&b, 0)
        );
        assert_eq!(b.regiments[0].crossing, None);

        // Placed astride, never having paid: it pays.
        let mut b = battle(&s);
        b.regiments[0].pos = Vec2::new(36.0, start + first);
        advance(&mut b, 0, Gait::Trot);
        assert!(
            near(y(&b, 0), start + 2.0 * first),
            "{kind:?} placed astride: {}",
            y(&b, 0)
        );
    }
}

/// Foot of Parliament: the mover at (36, 10), its `friends` (at y 14 the first line) halted
/// while the move is at most `halted_until`, the enemy's foot halted at (36, 34), 19" beyond
/// the first line (in line, within 24"; straight ahead, beyond 12"). The mover is regiment 0,
/// the enemy the last.
fn second_line(
    friends: &[(f64, f64)],
    halted_until: u16,
    round_friends: bool,
) -> (Battle, ecw_sim::setup::BattleSetup) {
    let mut specs = vec![(Side::Parliament, FOOT, 720, 36.0, 10.0)];
    specs.extend(
        friends
            .iter()
            .map(|&(x, y)| (Side::Parliament, FOOT, 720, x, y)),
    );
    specs.push((Side::Royalist, FOOT, 720, 36.0, 34.0));
    let s = setup(&specs);
    let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
    rules.battle.round_friends = round_friends;
    let mut b = Dickenson::new(rules).new_battle(&s);
    b.turn = 0;
    b.first = Side::Parliament;
    for f in 1..=friends.len() {
        b.regiments[f].halt_until = halted_until;
        b.regiments[f].gait = Gait::Halt;
    }
    b.regiments[friends.len() + 1].halt_until = 99;
    (b, s)
}

/// ROUND FRIENDS (doctrine): the second line's foot, its advance held 3" on by a halted
/// friend straight ahead (its front 3" from the friend's rear), side-steps at 45 degrees to
/// clear the friend's nearer flank (the left on a tie) by the ruling's 0.25": 3.25" aside and
/// on to (32.75, 13.25), then straight on with the rest of its 6" (4.60" spent): y 14.65,
/// beside the friend, facing ahead. With a second friend 6" to the left (a gap of 3" between
/// them, narrower than the foot's 3" and the margin) it goes round the right flank instead; 6.5"
/// to the left (a 3.5" gap) it passes through the gap; with a friend of its own line touching it
/// on the left (x 33, y 10), whom the way left would sweep over, it goes right. With the key
/// false it presses up to the friend, y 13, as before.
#[test]
fn m16_a_second_line_steps_into_the_gap_beside_a_standing_friend() {
    let stepped = 13.25 + (6.0 - 3.25 * 2f64.sqrt());
    for (friends, x) in [
        (&[(36.0, 14.0)][..], 32.75),
        (&[(36.0, 14.0), (30.0, 14.0)][..], 39.25),
        (&[(36.0, 14.0), (29.5, 14.0)][..], 32.75),
        (&[(36.0, 14.0), (33.0, 10.0)][..], 39.25),
    ] {
        let (mut b, s) = second_line(friends, 99, true);
        next_move(&mut b, &s);
        let reg = b.regiments[0];
        assert!(
            near(reg.pos.x, x) && near(reg.pos.y, stepped),
            "{friends:?}: {:?}",
            reg.pos
        );
        assert_eq!(reg.facing, 0.0, "{friends:?}: still facing ahead");
        assert_eq!(b.held[0].stepped, 1);
        for f in 1..=friends.len() {
            assert!(b.gap(0, f) >= 0.25 - 1e-9, "{friends:?}: clear of {f}");
        }
        let (mut b, s) = second_line(friends, 99, false);
        next_move(&mut b, &s);
        assert!(near(b.regiments[0].pos.x, 36.0) && near(y(&b, 0), 13.0));
        assert_eq!((b.held[0].by_halted, b.held[0].stepped), (1, 0));
    }
}

/// WAIT (doctrine): the first line shoulder to shoulder (friends at x 32.5, 36 and 39.5, gaps of
/// half an inch) halted for the first move: no gap is wide enough, so the second line waits
/// 1" behind (y 12, its front at 12.5, the friend's rear at 13.5) and then stands there, halted,
/// while the friend still stands when it comes to move; the first line advances 6" in the
/// second move, and in the third the second line advances its full 6" behind it (y 18) as the
/// first goes on to y 26. With
/// the key false it presses up to the friend (y 13) at once.
#[test]
fn m17_a_second_line_with_no_gap_waits_then_follows() {
    let line = [(36.0, 14.0), (32.5, 14.0), (39.5, 14.0)];
    let (mut b, s) = second_line(&line, 1, true);
    for (want, friend) in [(12.0, 14.0), (12.0, 20.0), (18.0, 26.0)] {
        next_move(&mut b, &s);
        assert!(
            near(b.regiments[0].pos.x, 36.0) && near(y(&b, 0), want),
            "move {}: {:?}",
            b.turn,
            b.regiments[0].pos
        );
        assert!(
            near(y(&b, 1), friend),
            "move {}: friend {}",
            b.turn,
            y(&b, 1)
        );
    }
    assert_eq!(b.held[0].stepped, 0);
    assert_eq!(b.held[0].by_halted, 2, "held in the first two moves only");
    assert_eq!(b.regiments[0].gait, Gait::Trot);
    let (mut b, s) = second_line(&line, 1, false);
    next_move(&mut b, &s);
    assert!(near(y(&b, 0), 13.0), "{}", y(&b, 0));
}

/// The doctrine in whole battles: over 20 Marston Moor battles, the advances cut short by a
/// friend standing (in melee or halted) that did not go round it (no gap beside the friend wide
/// enough, or no clear way there) are under half as many with the side-step as with the key
/// false, where none goes round (1,000 battles when written: 13,640 against 48,447).
#[test]
fn m18_marston_moor_second_lines_go_round_their_friends() {
    let s = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let held = |round: bool| {
        let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
        rules.battle.round_friends = round;
        let d = Dickenson::new(rules);
        let mut b = d.new_battle(&s);
        let (mut standing, mut stepped) = (0, 0);
        for seed in 0..20 {
            let mut l = EventLog::default();
            d.fight(&mut b, &s, seed, &mut l);
            standing += b.held.iter().map(|h| h.by_melee + h.by_halted).sum::<u32>();
            stepped += b.held.iter().map(|h| h.stepped).sum::<u32>();
        }
        (standing, stepped)
    };
    let ((on, stepped), (off, none)) = (held(true), held(false));
    assert_eq!(none, 0);
    assert!(off > 500, "{off}");
    assert!(2 * (on - stepped) < off, "{on} - {stepped} against {off}");
}

/// PASS IN COLUMN (doctrine, `battle.pass_in_column`): the first line halted at x 31, 36 and
/// 41 (gaps of 2", too narrow for the second line's 3" and the 0.25" margin, wide enough for
/// its column of 10 files, 1 2/3" x 2"), the enemy's foot halted at `enemy_y` (x 36). With
/// the enemy at y 34 the foot form column (half the move: 3.75" of the column's 7.5") and
/// side-step at 45 degrees past the nearer friend's left flank by the margin: 2.58" aside and
/// on, to (33.42, 12.68), in the gap. Next move the column, still among its friends, keeps its
/// column and goes on, but no nearer the enemy than its muskets' 12" and the ruling's 2": to y
/// 18.5 (its front 14" from the enemy's rear). Clear of its friends, it then re-forms line
/// (half the move) and goes on 3" in line, to y 21.5. With
/// the key false, or the enemy at y 29 (the column would have no room for its 3.75" short of
/// the enemy's reach), the line waits 1" behind its friend as before (y 12).
#[test]
fn m19_a_second_line_forms_column_to_pass_a_narrow_gap() {
    let line = [(36.0, 14.0), (31.0, 14.0), (41.0, 14.0)];
    let x: f64 = 36.0 - (10.0 / 12.0 + 1.5 + 0.25);
    let column = |enemy_y: f64, key: bool| {
        let (mut b, s) = second_line(&line, 99, true);
        Arc::make_mut(&mut b.rules).battle.pass_in_column = key;
        b.regiments[4].pos.y = enemy_y;
        (b, s)
    };
    let (mut b, s) = column(34.0, true);
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.turn += 1;
    b.start_of_move(&s, &mut d, &mut l);
    b.movement_phase(&s, &mut d, &mut l);
    d.finish();
    let changed = |l: &EventLog| {
        l.0.iter()
            .filter(|e| matches!(e, Event::FormationChanged { unit: 0 }))
            .count()
    };
    assert_eq!(changed(&l), 1);
    let reg = b.regiments[0];
    assert_eq!(reg.formation, Formation::Column);
    let stepped = 10.0 + (x - 36.0).abs() + (3.75 - (x - 36.0).abs() * 2f64.sqrt());
    assert!(
        near(reg.pos.x, x) && near(reg.pos.y, stepped),
        "{:?}",
        reg.pos
    );
    assert_eq!(reg.facing, 0.0);
    let h = b.held[0];
    assert_eq!((h.by_halted, h.stepped, h.in_column), (1, 1, 1));
    for f in 1..=3 {
        assert!(b.gap(0, f) >= 0.0, "clear of {f}");
    }
    next_move(&mut b, &s);
    let reg = b.regiments[0];
    assert_eq!(reg.formation, Formation::Column, "still among its friends");
    assert!(near(reg.pos.x, x) && near(reg.pos.y, 18.5), "{:?}", reg.pos);
    assert!(near(b.gap(0, 4), 14.0), "{}", b.gap(0, 4));
    next_move(&mut b, &s);
    let reg = b.regiments[0];
    assert_eq!(reg.formation, Formation::Line, "clear: it deploys");
    assert!(near(reg.pos.x, x) && near(reg.pos.y, 21.5), "{:?}", reg.pos);
    for (enemy_y, key) in [(34.0, false), (29.0, true)] {
        let (mut b, s) = column(enemy_y, key);
        next_move(&mut b, &s);
        let reg = b.regiments[0];
        assert_eq!(reg.formation, Formation::Line, "{enemy_y} {key}");
        assert!(
            near(reg.pos.x, 36.0) && near(reg.pos.y, 12.0),
            "{:?}",
            reg.pos
        );
        assert_eq!((b.held[0].stepped, b.held[0].in_column), (0, 0));
    }
}

/// Passing in column in whole battles: over `ECW_HELD_BATTLES` (default 20) Marston Moor
/// battles the second lines are held within the enemy's reach, where the doctrine keeps no
/// column (`column_clear_of_enemy`). With that room relaxed away (an experiment: any distance
/// will do) foot pass in column, and fewer advances are left waiting behind a standing friend
/// than with `pass_in_column` false; the built-in keys pass no more often than that. The
/// counts are printed with `--nocapture` (1,000 battles when written, docs/RULES-DICKENSON.md).
#[test]
fn m20_marston_moor_second_lines_pass_in_column() {
    let s = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let battles: u64 = std::env::var("ECW_HELD_BATTLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let held = |pass: bool, clear: f64| {
        let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
        rules.battle.pass_in_column = pass;
        rules.battle.column_clear_of_enemy = clear;
        let d = Dickenson::new(rules);
        let mut b = d.new_battle(&s);
        let mut sum = [0u32; 4];
        for seed in 0..battles {
            let mut l = EventLog::default();
            d.fight(&mut b, &s, seed, &mut l);
            for h in &b.held {
                sum[0] += h.by_melee + h.by_halted;
                sum[1] += h.stepped;
                sum[2] += h.in_column;
                sum[3] += h.by_moving;
            }
        }
        sum
    };
    let builtin = ecw_sim::rules::dickenson::DickensonRules::builtin();
    let clear = builtin.battle.column_clear_of_enemy;
    let (on, relaxed, off) = (held(true, clear), held(true, -1000.0), held(false, clear));
    println!(
        "{battles} battles, [standing, stepped, in column, moving]: built-in {on:?}, \
         relaxed {relaxed:?}, off {off:?}"
    );
    assert_eq!(off[2], 0);
    assert!(relaxed[2] > 0, "{relaxed:?}");
    assert!(
        relaxed[0] - relaxed[1] < off[0] - off[1],
        "{relaxed:?} against {off:?}"
    );
    assert!(on[2] <= relaxed[2], "{on:?} against {relaxed:?}");
}

/// The nearest enemy as the plain scan finds it: the least gap, the first listed on a tie.
fn nearest_by_scan(b: &Battle, r: usize, ok: impl Fn(&Regiment) -> bool) -> Option<(usize, f64)> {
    let (me, side) = (b.shape(r), b.regiments[r].side);
    (0..b.regiments.len())
        .filter(|&o| {
            let reg = &b.regiments[o];
            reg.side != side && reg.state != State::Gone && ok(reg)
        })
        .map(|o| (o, me.dist(&b.shape(o))))
        .min_by(|x, y| x.1.partial_cmp(&y.1).unwrap().then(x.0.cmp(&y.0)))
}

/// `nearest_active` with the table standing still (each found kept, and kept across a second
/// ask) and without answers as the plain scan, to the bit, on Marston Moor's regiments laid out
/// at random (facings, footprints, states), every fourth layout on a lattice of equal
/// footprints square to the table, where many gaps tie; so does `nearest_enemy`, which it asks.
#[test]
fn the_nearest_active_enemy_kept_is_the_plain_scans() {
    let s = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let mut b = Dickenson::builtin().new_battle(&s);
    let n = b.regiments.len();
    let mut seed = 11u64;
    let mut rnd = move || {
        seed = ecw_sim::dice::mix64(seed);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut ties, mut asked) = (0, 0);
    for layout in 0..400 {
        let lattice = layout % 4 == 0;
        for reg in &mut b.regiments {
            if lattice {
                reg.pos = Vec2::new((rnd() * 8.0).floor() * 4.0, (rnd() * 8.0).floor() * 3.0);
                reg.facing = 0.0;
                reg.resize(3.0, 1.0);
            } else {
                reg.pos = Vec2::new(rnd() * 72.0, rnd() * 48.0);
                reg.facing = rnd() * 7.0 - 3.5;
                reg.resize(0.5 + rnd() * 6.0, 0.5 + rnd() * 3.0);
            }
            reg.state = match (rnd() * 6.0) as u32 {
                0 => State::Gone,
                1 => State::Routing,
                _ => State::Active,
            };
        }
        b.table_still(layout % 2 == 0);
        for r in 0..n {
            let active = |o: &Regiment| o.state == State::Active;
            let want = nearest_by_scan(&b, r, active);
            assert_eq!(b.nearest_enemy(r, active), want, "layout {layout} r {r}");
            assert_eq!(b.nearest_active(r), want, "layout {layout} r {r} kept");
            assert_eq!(
                b.nearest_active(r),
                want,
                "layout {layout} r {r} kept twice"
            );
            let any = |_: &Regiment| true;
            assert_eq!(b.nearest_enemy(r, any), nearest_by_scan(&b, r, any));
            let routing = |o: &Regiment| o.state == State::Routing;
            assert_eq!(b.nearest_enemy(r, routing), nearest_by_scan(&b, r, routing));
            if let Some((t, g)) = want {
                asked += 1;
                let me = b.shape(r);
                ties += usize::from((0..n).any(|o| {
                    o != t
                        && b.regiments[o].side != b.regiments[r].side
                        && active(&b.regiments[o])
                        && me.dist(&b.shape(o)) == g
                }));
            }
        }
    }
    b.table_still(false);
    assert!(asked > 10_000, "{asked} asked");
    assert!(ties > 500, "the lattice should tie often: {ties}");
}

/// A FALL BACK FACES THE ENEMY whatever the regiment's facing: troopers at y 20 that turned
/// about (facing away from enemy foot 6" ahead at y 26, as a charger turned away) turn to face
/// the foot and fall back a trot's 10" away from them, to y 10; falling back from their own
/// facing they went towards the foot. (With the enemy anywhere in front, a fall back goes
/// straight back from the regiment's front, as m3, m4 and m11 show.)
#[test]
fn m21_a_fall_back_goes_away_from_the_enemy_facing_it() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 20.0),
        (Side::Royalist, FOOT, 720, 36.0, 26.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].facing = std::f64::consts::PI;
    let mut l = EventLog::default();
    b.obey(0, MoraleResult::FallBack, &mut l);
    assert!(near(y(&b, 0), 10.0), "{}", y(&b, 0));
    assert_eq!(b.regiments[0].facing, 0.0, "facing the enemy");
}

/// ONE GAIT A MOVE FROM THE HALT: horse that stood a whole move (halted to shoot, held in a
/// melee) are at the halt when the next move starts, whatever gait they last moved at, so they
/// trot (10") and do not canter on; troopers that moved keep their canter. In whole battles of
/// Marston Moor and Edgehill no horse regiment that stood a move (moved under 0.05") goes
/// more than a trot in the next move's own moves (a fall back after it aside), unless it
/// routs.
#[test]
fn m22_horse_that_stood_a_move_start_again_from_the_halt() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 24.0, 4.0),
        (Side::Parliament, TROOPERS, 240, 36.0, 4.0),
        (Side::Royalist, FOOT, 720, 30.0, 44.0),
    ]);
    let mut b = battle(&s);
    b.regiments[0].gait = Gait::Canter;
    b.regiments[1].gait = Gait::Canter;
    b.regiments[1].moved = 20.0;
    let mut l = EventLog::default();
    let mut d = ScriptedDice::new(&[]);
    b.start_of_move(&s, &mut d, &mut l);
    d.finish();
    assert_eq!(b.regiments[0].gait, Gait::Halt, "stood: at the halt");
    assert_eq!(b.regiments[0].next_gait(&b.rules), Gait::Trot);
    assert_eq!(b.regiments[1].gait, Gait::Canter, "moved: still cantering");

    let dk = Dickenson::builtin();
    let mut checked = 0;
    for name in ["marston_moor", "edgehill"] {
        let setup = Scenario::load_builtin(name, &[]).unwrap().setup().unwrap();
        let mut b = dk.new_battle(&setup);
        for i in 0..12 {
            let mut rec = ecw_sim::narrative::Recorder::default();
            dk.fight(&mut b, &setup, ecw_sim::dice::battle_seed(1, i), &mut rec);
            checked += faster_than_a_trot_from_the_halt(&b, &rec, name, i);
        }
    }
    assert!(checked > 100, "only {checked} horse moves after a halt");
}

/// Checks one battle's horse moves after a move stood still; returns how many it checked.
fn faster_than_a_trot_from_the_halt(
    b: &Battle,
    rec: &ecw_sim::narrative::Recorder,
    name: &str,
    i: u64,
) -> usize {
    use std::collections::HashMap;
    let last = rec.events.last().map_or(0, |e| e.0);
    // (unit, move) -> inches moved; (unit, move) in which it moved routing.
    let mut moved: HashMap<(u16, u16), f64> = HashMap::new();
    let mut routed = std::collections::HashSet::new();
    let mut routing = std::collections::HashSet::new();
    let mut falling_back = std::collections::HashSet::new();
    for &(turn, e) in &rec.events {
        match e {
            // (A fall back's move, after the move's own, is at the trot: not the gait.)
            Event::Retreat { unit, .. } => {
                falling_back.insert(unit);
            }
            Event::Moved { unit, .. } if falling_back.remove(&unit) => {}
            Event::Moved { unit, from, to, .. } => {
                let d = Vec2::new(to.0 - from.0, to.1 - from.1).len();
                *moved.entry((unit, turn)).or_default() += d;
                if routing.contains(&unit) {
                    routed.insert((unit, turn));
                }
            }
            Event::Rout { unit, .. } => {
                routing.insert(unit);
                routed.insert((unit, turn));
            }
            Event::Recovered { unit } => {
                routing.remove(&unit);
            }
            _ => {}
        }
    }
    let mut checked = 0;
    for reg in b.regiments.iter().filter(|r| r.is_horse()) {
        let trot = reg.move_at(Gait::Trot, &b.rules);
        for turn in 2..=last {
            let before = moved.get(&(reg.unit, turn - 1)).copied().unwrap_or(0.0);
            let now = moved.get(&(reg.unit, turn)).copied().unwrap_or(0.0);
            if before >= 0.05 || routed.contains(&(reg.unit, turn)) || now == 0.0 {
                continue;
            }
            checked += 1;
            assert!(
                now <= trot + 1e-6,
                "{name} battle {i}, move {turn}: unit {} stood, then went {now:.2}\"",
                reg.unit
            );
        }
    }
    checked
}

/// One move in which the Royalists move first, the Parliament foot's order made with theirs
/// at the start of it; where the Parliament foot stands after it, and the gap between the two.
fn royalists_close_first(stand: Option<bool>) -> (f64, f64) {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 27.0),
    ]);
    let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
    if let Some(k) = stand {
        rules.battle.shooters_stand_in_range = k;
    }
    let mut b = Dickenson::new(rules).new_battle(&s);
    b.turn = 0;
    b.first = Side::Royalist;
    next_move(&mut b, &s);
    let (a, e) = (&b.regiments[0], &b.regiments[1]);
    (a.pos.y, e.pos.y - a.pos.y)
}

/// SHOOTERS STAND ONCE IN RANGE: both sides make their orders at the start of the move, so
/// foot ordered to advance while the enemy stood beyond its muskets' long range (12") may find
/// it closed into range by the time its own turn comes (the enemy moving first). It then
/// stands to give fire, as its doctrine stands shooters in range (doctrine,
/// `battle.shooters_stand_in_range`): here the Royalist foot 17" off march 6" to 11", and the
/// Parliament foot stay at y 10 instead of marching on to 5" off, where having moved they
/// could not fire. With the key false they march on.
#[test]
fn m23_shooters_ordered_to_advance_stand_once_the_enemy_closes_into_range() {
    let (y, gap) = royalists_close_first(None);
    assert!(near(y, 10.0), "stood to give fire: y {y}, {gap}\" apart");
    let (y, gap) = royalists_close_first(Some(false));
    assert!(
        y > 10.5 && gap < 11.0,
        "the key false marches on: y {y}, {gap}\" apart"
    );
}

/// Parliament foot at (36, 10), a halted friend of theirs at (`friend_x`, 14) and the Royalist
/// foot at (36, `enemy_y`), halted unless `enemy_moves`; with `clear` the ruling's key set so.
/// One move, Parliament first unless the enemy moves: where the mover stands after it.
fn masked_by_a_friend(friend_x: f64, enemy_y: f64, enemy_moves: bool, clear: bool) -> Regiment {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Parliament, FOOT, 720, friend_x, 14.0),
        (Side::Royalist, FOOT, 720, 36.0, enemy_y),
    ]);
    let mut rules = ecw_sim::rules::dickenson::DickensonRules::builtin();
    rules.battle.clear_line_of_fire = clear;
    let mut b = Dickenson::new(rules).new_battle(&s);
    b.turn = 0;
    b.first = if enemy_moves {
        Side::Royalist
    } else {
        Side::Parliament
    };
    (b.regiments[1].halt_until, b.regiments[1].gait) = (99, Gait::Halt);
    if !enemy_moves {
        b.regiments[2].halt_until = 99;
    }
    next_move(&mut b, &s);
    b.regiments[0]
}

/// MASKED SHOOTERS MOVE (ruling, `battle.clear_line_of_fire`): foot whose enemy is within their
/// muskets' 12" but whose every line of fire crosses a friend standing before them cannot fire,
/// so they do not stand to give fire: they advance as their doctrine does out of range, here
/// side-stepping round the friend (m16). The enemy halted 10" off (y 21) with the friend
/// straight between: the foot go round it, past y 14; with the friend 6" to the right (x 42)
/// the line is clear and they stand. The enemy closing from 17" to 11" off as the move goes
/// (y 28 to 22, the Royalists moving first): the foot ordered to advance march on round the
/// friend rather than stand (m23). With the key false they stand, firing through the friend.
#[test]
fn m24_shooters_masked_by_a_friend_move_to_clear_their_line() {
    for (enemy_y, enemy_moves) in [(21.0, false), (28.0, true)] {
        let case = format!("enemy at y {enemy_y}, moving {enemy_moves}");
        let reg = masked_by_a_friend(36.0, enemy_y, enemy_moves, true);
        assert!(reg.pos.y > 14.0, "{case}: went round: {:?}", reg.pos);
        let reg = masked_by_a_friend(36.0, enemy_y, enemy_moves, false);
        assert!(
            near(reg.pos.x, 36.0) && near(reg.pos.y, 10.0),
            "{case}: the key false stands: {:?}",
            reg.pos
        );
        let reg = masked_by_a_friend(42.0, enemy_y, enemy_moves, true);
        assert!(
            near(reg.pos.x, 36.0) && near(reg.pos.y, 10.0),
            "{case}: a clear line stands: {:?}",
            reg.pos
        );
    }
}

/// Parliament's command under Cromwell's doctrine (its rearmost 40% held as reserve until turn
/// 4, or until the command has lost `share` of its figures): three regiments of foot abreast
/// at y 10 and a fourth 6" behind the gap between the first two, the Royalist foot halted
/// far off straight ahead of it. With `lost_one` the
/// third regiment of the first line is gone (720 of the command's 2,880 figures). One move of
/// turn 1, Parliament first: how far the fourth regiment went, and the first.
fn second_line_moves(lost_one: bool, share: f64) -> (f64, f64) {
    let mut s = setup_with(
        &[
            (Side::Parliament, FOOT, 720, 24.0, 10.0),
            (Side::Parliament, FOOT, 720, 36.0, 10.0),
            (Side::Parliament, FOOT, 720, 48.0, 10.0),
            (Side::Parliament, FOOT, 720, 30.0, 4.0),
            (Side::Royalist, FOOT, 720, 30.0, 44.0),
        ],
        "cromwell",
        Ground::open(72.0, 48.0),
    );
    s.doctrines[0].commit_reserve_when_lost = share;
    let mut b = battle(&s);
    b.turn = 0;
    b.regiments[4].halt_until = 99;
    if lost_one {
        b.regiments[2].state = State::Gone;
    }
    assert!(
        b.regiments[3].reserve,
        "the fourth regiment starts as reserve"
    );
    next_move(&mut b, &s);
    (y(&b, 3) - 4.0, y(&b, 0) - 10.0)
}

/// A RESERVE IS COMMITTED ONCE ITS COMMAND HAS LOST THE DOCTRINE'S SHARE (doctrine
/// `commit_reserve_when_lost`, read as Ironsides and Black Powder read it, in Dickenson's
/// currency: figures lost, and the whole of a regiment gone): Cromwell's fourth regiment, 6"
/// behind three, stands on turn 1 (his reserve waits for turn 4); with one of the four gone
/// (720 of 2,880 figures, his share of one quarter) it advances as far as the first line (into
/// column, far from the enemy, and on); at a share of one half it still stands.
#[test]
fn m25_a_reserve_is_committed_once_its_command_has_lost_the_doctrines_share() {
    let (reserve, first) = second_line_moves(false, 0.25);
    assert!(near(reserve, 0.0) && first > 3.0, "{reserve}\", {first}\"");
    let (reserve, first) = second_line_moves(true, 0.25);
    assert!(
        near(reserve, first) && first > 3.0,
        "committed: {reserve}\", {first}\""
    );
    let (reserve, first) = second_line_moves(true, 0.5);
    assert!(near(reserve, 0.0) && first > 3.0, "{reserve}\", {first}\"");
}

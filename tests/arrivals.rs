//! Late arrivals and commands held in reserve (the scenario's `arrives` and `reserve_until`):
//! units off the table take no part until they arrive, die-rolled arrivals follow their own
//! dice stream, reserves hold until released, and bad input names file, line and key.

use std::path::Path;

use ecw_sim::army::{Side, UnitStatus};
use ecw_sim::dice::{DiceSource, SeededDice, StreamDice};
use ecw_sim::doctrine::ParamAi;
use ecw_sim::events::{Event, Observer};
use ecw_sim::rules::ironsides::battle::{ARRIVAL_STREAMS, Battle, streams};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

/// Two foot regiments a side facing each other 8" apart, and a Parliament reinforcement whose
/// deployed place is 3" in front of the Royalist line: in musket range of both regiments.
/// `extra` is added to the reinforcement's command; `royal` to the Royalist command.
fn scenario(extra: &str, royal: &str) -> String {
    format!(
        r#"
name = "arrivals test"
[parliament]
year = 1643
[parliament.commands.line]
kind = "foot"
commander = "average"
doctrine = "hold_the_line"
units = [
    {{ name = "P1", type = "foot", cv = 5, x = 30.0, y = 20.0 }},
    {{ name = "P2", type = "foot", cv = 5, x = 42.0, y = 20.0 }},
]
[parliament.commands.late]
kind = "foot"
commander = "average"
{extra}
units = [ {{ name = "Late", type = "foot", cv = 5, x = 36.0, y = 25.0 }} ]
[royalist]
year = 1643
[royalist.commands.line]
kind = "foot"
commander = "average"
{royal}
units = [
    {{ name = "R1", type = "foot", cv = 5, x = 30.0, y = 28.0 }},
    {{ name = "R2", type = "foot", cv = 5, x = 42.0, y = 28.0 }},
]
"#
    )
}

fn setup_of(text: String) -> BattleSetup {
    Scenario::parse(Path::new("arrivals.toml"), text, &[], false)
        .unwrap()
        .setup()
        .unwrap()
}

fn error_of(text: String) -> String {
    match Scenario::parse(Path::new("bad_arrivals.toml"), text, &[], false) {
        Err(e) => e.to_string(),
        Ok(s) => match s.setup() {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted"),
        },
    }
}

#[derive(Default)]
struct Events(Vec<Event>);

impl Observer for Events {
    fn event(&mut self, e: &Event) {
        self.0.push(*e);
    }
}

/// Whether an event names this unit in any of its unit fields.
fn mentions(e: &Event, id: u16) -> bool {
    let s = format!("{e:?}");
    [
        "unit",
        "target",
        "attacker",
        "defender",
        "by",
        "from_unit",
        "other",
    ]
    .iter()
    .any(|f| {
        [",", " }"]
            .iter()
            .any(|end| s.contains(&format!("{f}: {id}{end}")))
    }) || s.contains(&format!("Some({id})"))
}

/// A battle reset to `seed`, with its dice, to be played turn by turn.
fn start(setup: &BattleSetup, seed: u64) -> (Battle, StreamDice) {
    let mut b = Battle::new(setup);
    let mut dice = StreamDice::default();
    dice.reseed(seed, streams::BATTLE, Battle::dice_streams(setup));
    b.reset(setup, seed, &mut Events::default());
    (b, dice)
}

fn play_turn(b: &mut Battle, setup: &BattleSetup, dice: &mut StreamDice, turn: u16) -> Events {
    let mut ev = Events::default();
    b.turn = turn;
    b.play_turn(setup, dice, &mut ParamAi, &mut ev);
    ev
}

fn unit_id(setup: &BattleSetup, name: &str) -> u16 {
    setup.names.units.iter().position(|n| n == name).unwrap() as u16
}

#[test]
fn a_unit_arriving_on_turn_3_is_absent_before_and_present_from_turn_3_at_its_place() {
    let setup = setup_of(scenario(
        "arrives = { turn = 3, at = [36.0, 4.0] }\nreserve_until = { turn = 9 }",
        "",
    ));
    let late = unit_id(&setup, "Late");
    for seed in 0..20 {
        let (mut b, mut dice) = start(&setup, seed);
        assert_eq!(b.units[usize::from(late)].status, UnitStatus::Waiting);
        // Its CV counts from arrival: the starting CV is the two line regiments' alone.
        assert_eq!(b.cv_start[Side::Parliament.index()], 10);
        for turn in 1..=2 {
            let ev = play_turn(&mut b, &setup, &mut dice, turn);
            if b.outcome.is_some() {
                break;
            }
            assert!(
                !ev.0.iter().any(|e| mentions(e, late)),
                "seed {seed} turn {turn}: the waiting unit took part: {:?}",
                ev.0.iter().find(|e| mentions(e, late))
            );
            let u = &b.units[usize::from(late)];
            assert_eq!(u.status, UnitStatus::Waiting);
            assert_eq!((u.pos.x, u.pos.y, u.cv), (36.0, 25.0, 5));
            // Not lost: a side's loss is its line regiments' alone.
            let line_lost: u32 = b
                .units
                .iter()
                .filter(|u| u.side == Side::Parliament && u.id != late)
                .map(|u| match u.status {
                    UnitStatus::Active => u32::from(u.start_cv - u.cv),
                    _ => u32::from(u.start_cv),
                })
                .sum();
            assert_eq!(b.cv_lost(Side::Parliament), line_lost);
        }
        if b.outcome.is_some() {
            continue;
        }
        let ev = play_turn(&mut b, &setup, &mut dice, 3);
        assert!(
            ev.0.contains(&Event::Arrived {
                unit: late,
                turn: 3
            }),
            "seed {seed}"
        );
        let u = &b.units[usize::from(late)];
        assert_eq!(u.status, UnitStatus::Active, "seed {seed}");
        // At its point, held there by its reserve.
        assert_eq!((u.pos.x, u.pos.y), (36.0, 4.0), "seed {seed}");
        assert_eq!(b.cv_start[Side::Parliament.index()], 15);
    }
}

#[test]
fn without_arrives_the_same_unit_fights_from_turn_1() {
    // The control for the test above: where it stands, it takes part in the first two turns.
    let setup = setup_of(scenario("", ""));
    let late = unit_id(&setup, "Late");
    let mut engaged = 0;
    for seed in 0..20 {
        let (mut b, mut dice) = start(&setup, seed);
        let mut ev = play_turn(&mut b, &setup, &mut dice, 1);
        ev.0.extend(play_turn(&mut b, &setup, &mut dice, 2).0);
        engaged += usize::from(ev.0.iter().any(|e| mentions(e, late)));
        assert_eq!(b.cv_start[Side::Parliament.index()], 15);
    }
    assert!(engaged >= 15, "{engaged} of 20");
}

#[test]
fn a_die_rolled_arrival_comes_on_the_turn_its_own_dice_say() {
    let setup = setup_of(scenario("arrives = { from_turn = 2, on = 5 }", ""));
    let late = unit_id(&setup, "Late");
    let cmd = u64::from(setup.units[usize::from(late)].command);
    let mut turns = std::collections::BTreeSet::new();
    for seed in 0..60 {
        // The command's own stream: from turn 2, the first die of 5 or 6.
        let mut d = SeededDice::stream(seed, ARRIVAL_STREAMS + cmd);
        let expected = (2..=setup.turn_limit).find(|_| d.d6() >= 5);
        let run = |_: ()| {
            let mut ev = Events::default();
            let mut b = Battle::new(&setup);
            let summary = b.fight(&setup, seed, &mut ev);
            (ev.0, summary.turns)
        };
        let (events, last) = run(());
        assert_eq!(events, run(()).0, "seed {seed}: not deterministic");
        let arrived = events.iter().find_map(|e| match *e {
            Event::Arrived { unit, turn } if unit == late => Some(turn),
            _ => None,
        });
        match expected {
            Some(t) if t <= last => assert_eq!(arrived, Some(t), "seed {seed}"),
            _ => assert_eq!(arrived, None, "seed {seed}"),
        }
        turns.extend(arrived);
    }
    // The dice vary from battle to battle.
    assert!(turns.len() >= 3, "{turns:?}");
}

#[test]
fn arrival_dice_leave_the_rest_of_the_battle_alone() {
    // Common random numbers: a late arrival far from the fight changes no other dice. With the
    // reinforcement placed far off, both versions' turn 1 is the same, roll for roll.
    let far = |extra: &str| {
        setup_of(scenario(extra, "").replace("x = 36.0, y = 25.0", "x = 70.0, y = 2.0"))
    };
    let (plain, late) = (far(""), far("arrives = { from_turn = 2, on = 4 }"));
    for seed in 0..10 {
        let (mut a, mut da) = start(&plain, seed);
        let (mut b, mut db) = start(&late, seed);
        let ea = play_turn(&mut a, &plain, &mut da, 1);
        let eb = play_turn(&mut b, &late, &mut db, 1);
        let fights = |e: &Events| {
            e.0.iter()
                .filter(|e| matches!(e, Event::Fired { .. } | Event::CvLost { .. }))
                .copied()
                .collect::<Vec<_>>()
        };
        assert_eq!(fights(&ea), fights(&eb), "seed {seed}");
    }
}

#[test]
fn a_reserve_holds_until_its_turn() {
    let setup = setup_of(scenario("", "reserve_until = { turn = 4 }"));
    let royal = setup.units[usize::from(unit_id(&setup, "R1"))].command;
    // Moves of its own: towards Parliament (-y). Retreats and routs, forced on it, go +y.
    let advances = |setup: &BattleSetup, ev: &[Event]| {
        ev.iter()
            .filter(|e| {
                matches!(**e, Event::Moved { unit, from, to, .. }
                    if setup.units[usize::from(unit)].command == royal && to.1 < from.1)
            })
            .count()
    };
    let moves = |setup: &BattleSetup, seed| {
        let mut ev = Events::default();
        Battle::new(setup).fight(setup, seed, &mut ev);
        advances(setup, &ev.0)
    };
    let free = setup_of(scenario("", ""));
    let mut held_moves = 0;
    let mut free_moves = 0;
    for seed in 0..20 {
        let (mut b, mut dice) = start(&setup, seed);
        for turn in 1..=5 {
            let ev = play_turn(&mut b, &setup, &mut dice, turn);
            if b.outcome.is_some() {
                break;
            }
            let moved = advances(&setup, &ev.0) > 0;
            if turn < 4 {
                assert!(b.in_reserve(royal), "seed {seed} turn {turn}");
                // No orders: no advance, no charge.
                assert!(
                    !ev.0
                        .iter()
                        .any(|e| matches!(*e, Event::ChargeDeclared { unit, .. }
                        if setup.units[usize::from(unit)].command == royal)),
                    "seed {seed} turn {turn}"
                );
                held_moves += usize::from(moved);
            } else {
                assert!(!b.in_reserve(royal), "seed {seed} turn {turn}");
                if turn == 4 {
                    assert!(ev.0.contains(&Event::Released {
                        command: royal,
                        turn: 4
                    }));
                }
            }
        }
        free_moves += moves(&free, seed);
    }
    assert_eq!(held_moves, 0);
    // The control: left free, the Royalist line moves in these battles.
    assert!(free_moves > 0);
}

#[test]
fn a_reserve_waits_for_an_enemy_within_its_distance() {
    // Parliament's line advances (Cromwell's doctrine attacks); the Royalists wait for it to come
    // within 5".
    let text = scenario("", "reserve_until = { enemy_within = 5.0 }")
        .replace("doctrine = \"hold_the_line\"", "doctrine = \"cromwell\"");
    let setup = setup_of(text);
    let royal = setup.units[usize::from(unit_id(&setup, "R1"))].command;
    let mut released = 0;
    for seed in 0..20 {
        let (mut b, mut dice) = start(&setup, seed);
        for turn in 1..=setup.turn_limit {
            let was_held = b.in_reserve(royal);
            // The condition is read at the turn's start, from where the units stand now.
            let near = b.units.iter().any(|r| {
                r.side == Side::Royalist
                    && r.is_active()
                    && b.units.iter().any(|p| {
                        p.side == Side::Parliament && p.is_active() && b.within(r.id, p.id, 5.0)
                    })
            });
            play_turn(&mut b, &setup, &mut dice, turn);
            if was_held {
                assert_eq!(b.in_reserve(royal), !near, "seed {seed} turn {turn}");
                released += usize::from(near);
            }
            if b.outcome.is_some() {
                break;
            }
        }
    }
    assert!(released > 0);
}

#[test]
fn bad_arrivals_name_file_line_and_key() {
    let cases = [
        (
            "arrives = { turn = 0 }",
            "parliament.commands.late.arrives.turn",
            "must be a turn from 1 to 1000",
        ),
        (
            "arrives = { from_turn = 2, on = 7 }",
            "parliament.commands.late.arrives.on",
            "die score from 1 to 6",
        ),
        (
            "arrives = { turn = 3, from_turn = 2, on = 4 }",
            "parliament.commands.late.arrives",
            "give either",
        ),
        (
            "arrives = { turn = 3, at = \"nroth\" }",
            "parliament.commands.late.arrives.at",
            "did you mean north",
        ),
        (
            "arrives = { turn = 3, at = [500.0, 4.0] }",
            "parliament.commands.late.arrives.at",
            "off the",
        ),
        (
            "arrives = { turn = 30 }",
            "parliament.commands.late.arrives",
            "after the battle's last turn",
        ),
        (
            "reserve_until = { turn = 3, enemy_within = 4.0 }",
            "parliament.commands.late.reserve_until",
            "give one condition",
        ),
        (
            "reserve_until = { enemy_within = -1.0 }",
            "parliament.commands.late.reserve_until.enemy_within",
            "must be a number",
        ),
        (
            "arrives = { trun = 3 }",
            "parliament.commands.late.arrives",
            "trun",
        ),
    ];
    for (extra, key, words) in cases {
        let text = scenario(extra, "");
        let line = text.lines().position(|l| l == extra).unwrap() + 1;
        let e = error_of(text);
        assert!(
            e.contains(&format!("bad_arrivals.toml:{line}:")),
            "{extra}: {e}"
        );
        assert!(e.contains(key), "{extra}: {e}");
        assert!(e.contains(words), "{extra}: {e}");
    }
}

#[test]
fn an_edge_arrival_comes_on_just_inside_that_edge_facing_in() {
    for (edge, facing) in [
        ("north", 180.0_f64),
        ("south", 0.0),
        ("east", 270.0),
        ("west", 90.0),
    ] {
        let setup = setup_of(scenario(
            &format!("arrives = {{ turn = 2, at = \"{edge}\" }}\nreserve_until = {{ turn = 9 }}"),
            "",
        ));
        let late = unit_id(&setup, "Late");
        let (mut b, mut dice) = start(&setup, 3);
        play_turn(&mut b, &setup, &mut dice, 1);
        let ev = play_turn(&mut b, &setup, &mut dice, 2);
        assert!(
            ev.0.contains(&Event::Arrived {
                unit: late,
                turn: 2
            }),
            "{edge}"
        );
        let u = &b.units[usize::from(late)];
        let back = u.depth / 2.0 + 0.5;
        let (w, d) = (setup.ground.width, setup.ground.depth);
        let want = match edge {
            "north" => (36.0, d - back),
            "south" => (36.0, back),
            "east" => (w - back, 25.0),
            _ => (back, 25.0),
        };
        assert!(
            (u.pos.x - want.0).abs() < 1e-9 && (u.pos.y - want.1).abs() < 1e-9,
            "{edge}: {:?} not {want:?}",
            u.pos
        );
        assert!((u.facing - facing.to_radians()).abs() < 1e-9, "{edge}");
    }
}

#[test]
fn set_can_make_a_command_arrive_or_wait() {
    let sets = [
        "parliament.commands.late.arrives.turn=4".to_string(),
        "royalist.commands.line.reserve_until.enemy_within=6.0".to_string(),
    ];
    let setup = Scenario::parse(Path::new("arrivals.toml"), scenario("", ""), &sets, false)
        .unwrap()
        .setup()
        .unwrap();
    assert_eq!(setup.arrivals.len(), 1);
    assert_eq!(setup.arrivals[0].time, ecw_sim::setup::ArrivalTime::Turn(4));
    assert_eq!(
        setup.reserves[0].until,
        ecw_sim::setup::ReserveUntil::EnemyWithin(6.0)
    );
    let bad = ["parliament.commands.late.arrives.trun=4".to_string()];
    let e = Scenario::parse(Path::new("arrivals.toml"), scenario("", ""), &bad, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("did you mean") && e.contains("arrives.turn"),
        "{e}"
    );
}

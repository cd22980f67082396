//! Late arrivals and commands held in reserve under Dickenson: the scenario's `arrives` and
//! `reserve_until` work as under Ironsides and Black Powder. A waiting regiment takes no part
//! (and is neither lost nor in its army's start) until it arrives, then fights; a die-rolled
//! arrival comes on the turn its own dice stream of the battle's seed says; a reserve takes no
//! orders until released.

use std::path::Path;

use ecw_sim::army::Side;
use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::Dickenson;
use ecw_sim::rules::ironsides::battle::arrival_turn;
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

/// Two foot regiments a side 30" apart, and a Parliament regiment of horse in its own brigade
/// (`late`, written with `extra`) behind the line; `royal` is added to the Royalist brigade.
fn setup(extra: &str, royal: &str) -> BattleSetup {
    let text = format!(
        r#"
name = "dickenson arrivals test"
[parliament]
year = 1643
[parliament.commands.line]
kind = "foot"
commander = "average"
doctrine = "hold_the_line"
units = [
    {{ name = "P1", type = "foot", cv = 5, x = 30.0, y = 10.0 }},
    {{ name = "P2", type = "foot", cv = 5, x = 42.0, y = 10.0 }},
]
[parliament.commands.late]
kind = "horse"
commander = "average"
doctrine = "rupert"
{extra}
units = [ {{ name = "Late", type = "trotters", cv = 5, x = 36.0, y = 4.0 }} ]
[royalist]
year = 1643
[royalist.commands.line]
kind = "foot"
commander = "average"
doctrine = "rupert"
{royal}
units = [
    {{ name = "R1", type = "foot", cv = 5, x = 30.0, y = 40.0 }},
    {{ name = "R2", type = "foot", cv = 5, x = 42.0, y = 40.0 }},
]
"#
    );
    Scenario::parse(Path::new("dk_arrivals.toml"), text, &[], false)
        .and_then(|s| s.setup())
        .expect("the test scenario")
}

fn unit_id(setup: &BattleSetup, name: &str) -> u16 {
    setup.names.units.iter().position(|n| n == name).unwrap() as u16
}

/// Whether an event names this unit in any of its unit fields.
fn mentions(e: &Event, id: u16) -> bool {
    let s = format!("{e:?}");
    ["unit", "target", "a", "b", "pike", "winner", "loser"]
        .iter()
        .any(|f| {
            [",", " }"]
                .iter()
                .any(|end| s.contains(&format!("{f}: {id}{end}")))
        })
        || s.contains(&format!("Some({id})"))
}

/// Each event of a battle with the turn it happened in (0 before the first).
fn battle(setup: &BattleSetup, seed: u64) -> (Vec<(u16, Event)>, ecw_sim::rules::BattleSummary) {
    let dk = Dickenson::builtin();
    let mut b = dk.new_battle(setup);
    let mut log = EventLog::default();
    let s = dk.fight(&mut b, setup, seed, &mut log);
    let mut turn = 0;
    let events = log
        .0
        .into_iter()
        .map(|e| {
            if let Event::TurnStarted { turn: t } = e {
                turn = t;
            }
            (turn, e)
        })
        .collect();
    (events, s)
}

fn figures(setup: &BattleSetup, name: &str) -> u32 {
    u32::from(Dickenson::builtin().layout(setup).units[usize::from(unit_id(setup, name))].start_cv)
}

#[test]
fn a_regiment_arriving_on_turn_3_waits_then_comes_on_at_its_place_and_fights() {
    let s = setup("arrives = { turn = 3, at = [36.0, 14.0] }", "");
    let late = unit_id(&s, "Late");
    let line: u32 = ["P1", "P2"].iter().map(|n| figures(&s, n)).sum();
    let (mut moved, mut fought, mut reached) = (0, 0, 0);
    for i in 0..40 {
        let seed = battle_seed(11, i);
        let (events, summary) = battle(&s, seed);
        let arrived = events
            .iter()
            .position(|(_, e)| matches!(e, Event::Arrived { unit, .. } if *unit == late));
        // Nothing happens to or by it before it arrives.
        let before = arrived.unwrap_or(events.len());
        assert!(
            !events[..before].iter().any(|(_, e)| mentions(e, late)),
            "battle {i}: the waiting regiment took part"
        );
        if summary.turns < 3 {
            assert!(arrived.is_none(), "battle {i} ended before turn 3");
            assert_eq!(summary.cv_start[Side::Parliament.index()], line);
            continue;
        }
        reached += 1;
        let k = arrived.unwrap_or_else(|| panic!("battle {i} reached turn 3: it arrives"));
        assert_eq!(
            events[k],
            (
                3,
                Event::Arrived {
                    unit: late,
                    turn: 3
                }
            )
        );
        // Its figures join its army's start on arrival.
        assert_eq!(
            summary.cv_start[Side::Parliament.index()],
            line + figures(&s, "Late")
        );
        // Once on, it moves, and it charges, shoots, is shot at or fights in some battles.
        let after = &events[k + 1..];
        moved += usize::from(
            after
                .iter()
                .any(|(_, e)| matches!(e, Event::Moved { unit, .. } if *unit == late)),
        );
        fought += usize::from(after.iter().any(|(_, e)| {
            matches!(e,
                Event::ChargeDeclared { unit: a, target: b, .. }
                    | Event::Melee { attacker: a, defender: b, .. }
            if *a == late || *b == late)
                || matches!(e, Event::CvLost { unit, .. } if *unit == late)
        }));
    }
    assert!(reached >= 20, "{reached} battles reached turn 3");
    assert!(moved * 4 >= reached * 3, "it moved in {moved} of {reached}");
    assert!(fought >= 5, "it fought in {fought} of {reached}");
}

#[test]
fn without_arrives_the_same_regiment_fights_in_the_first_two_turns() {
    // The control for the test above: on the table from the start, it takes part early.
    let s = setup("", "");
    let late = unit_id(&s, "Late");
    let early = (0..40)
        .filter(|&i| {
            battle(&s, battle_seed(11, i))
                .0
                .iter()
                .any(|(t, e)| *t <= 2 && mentions(e, late))
        })
        .count();
    assert!(early >= 30, "{early} of 40");
}

#[test]
fn a_die_rolled_arrival_comes_on_the_turn_its_own_dice_say() {
    let s = setup("arrives = { from_turn = 2, on = 5 }", "");
    let late = unit_id(&s, "Late");
    let limit = Dickenson::builtin().new_battle(&s).turn_limit;
    let mut turns = std::collections::BTreeSet::new();
    for i in 0..60 {
        let seed = battle_seed(3, i);
        let a = &s.arrivals[0];
        let expected = arrival_turn(a.time, seed, a.stream, limit);
        let (events, summary) = battle(&s, seed);
        let came = events.iter().find_map(|(_, e)| match e {
            Event::Arrived { unit, turn } if *unit == late => Some(*turn),
            _ => None,
        });
        if expected <= summary.turns {
            assert_eq!(came, Some(expected), "battle {i}");
            turns.insert(expected);
        } else {
            assert_eq!(came, None, "battle {i}");
        }
    }
    assert!(turns.len() >= 3, "the dice vary the turn: {turns:?}");
}

#[test]
fn a_command_in_reserve_takes_no_orders_until_released() {
    for (royal, by_turn) in [
        ("reserve_until = { turn = 4 }", Some(4)),
        ("reserve_until = { enemy_within = 6.0 }", None),
    ] {
        let s = setup("", royal);
        let line = s
            .commands
            .iter()
            .position(|c| c.side == Side::Royalist)
            .unwrap() as u16;
        let mut released_some = 0;
        for i in 0..30 {
            let (events, _) = battle(&s, battle_seed(8, i));
            let released = events.iter().position(
                |(_, e)| matches!(e, Event::Released { command, .. } if *command == line),
            );
            let held = &events[..released.unwrap_or(events.len())];
            // Held, its regiments neither charge nor advance (Royalists advance towards -y).
            let royalist = |u: &u16| s.units[usize::from(*u)].side == Side::Royalist;
            let ordered = held.iter().any(|(_, e)| match e {
                Event::ChargeDeclared { unit, .. } => royalist(unit),
                Event::Moved { unit, from, to, .. } => royalist(unit) && to.1 < from.1,
                _ => false,
            });
            assert!(
                !ordered,
                "{royal} battle {i}: a held regiment took an order"
            );
            if let Some(k) = released {
                released_some += 1;
                if let Some(t) = by_turn {
                    assert_eq!(events[k].0, t, "{royal} battle {i}");
                }
            }
        }
        assert!(released_some > 0, "{royal}: released in some battle");
    }
}

#[test]
fn without_a_reserve_the_same_command_advances_early() {
    // The control for the test above: the rupert doctrine moves the Royalists at once.
    let s = setup("", "");
    let advanced = (0..30)
        .filter(|&i| {
            battle(&s, battle_seed(8, i)).0.iter().any(|(t, e)| {
                *t <= 2
                    && matches!(e, Event::Moved { unit, from, to, .. }
                        if s.units[usize::from(*unit)].side == Side::Royalist && to.1 < from.1)
            })
        })
        .count();
    assert!(advanced >= 25, "{advanced} of 30");
}

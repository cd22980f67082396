//! Late arrivals and reserves, the same under every ruleset: one test scenario and one set of
//! assertions, each ruleset's test naming only what its events call fighting and giving orders.

use std::collections::BTreeSet;
use std::path::Path;

use ecw_sim::army::Side;
use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::ironsides::battle::arrival_turn;
use ecw_sim::rules::{BattleSummary, Ruleset};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

/// The scenario's title and file stem for a ruleset's tests.
pub type Name = (&'static str, &'static str);

/// Two foot regiments a side 30" apart, and a Parliament regiment of horse in its own brigade
/// (`late`, written with `extra`) behind the line; `royal` is added to the Royalist brigade.
/// `name` names the scenario (`title`) and its file.
pub fn setup(name: Name, extra: &str, royal: &str) -> BattleSetup {
    let (title, file) = name;
    let text = format!(
        r#"
name = "{title} arrivals test"
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
    Scenario::parse(
        Path::new(&format!("{file}_arrivals.toml")),
        text,
        &[],
        false,
    )
    .and_then(|s| s.setup())
    .expect("the test scenario")
}

pub fn unit_id(setup: &BattleSetup, name: &str) -> u16 {
    setup.names.units.iter().position(|n| n == name).unwrap() as u16
}

/// Whether an event names this unit in any of its unit fields.
pub fn mentions(e: &Event, id: u16) -> bool {
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
pub fn battle<R: Ruleset>(
    rules: &R,
    setup: &BattleSetup,
    seed: u64,
) -> (Vec<(u16, Event)>, BattleSummary) {
    let mut b = rules.new_battle(setup);
    let mut log = EventLog::default();
    let s = rules.fight(&mut b, setup, seed, &mut log);
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

/// A unit's strength at the start in the ruleset's currency (stamina, figures).
pub fn strength<R: Ruleset>(rules: &R, setup: &BattleSetup, name: &str) -> u32 {
    u32::from(rules.layout(setup).units[usize::from(unit_id(setup, name))].start_cv)
}

/// A regiment arriving on turn 3 waits (takes no part, is not in its army's start), comes on
/// at its place on turn 3 and then moves and, in some battles, fights (`fought`: whether an
/// event shows the unit fighting).
pub fn arrives_on_turn_3_then_fights<R: Ruleset>(
    rules: &R,
    name: Name,
    fought: impl Fn(&Event, u16) -> bool,
) {
    let s = setup(name, "arrives = { turn = 3, at = [36.0, 14.0] }", "");
    let late = unit_id(&s, "Late");
    let line: u32 = ["P1", "P2"].iter().map(|n| strength(rules, &s, n)).sum();
    let (mut moved, mut fights, mut reached) = (0, 0, 0);
    for i in 0..40 {
        let seed = battle_seed(11, i);
        let (events, summary) = battle(rules, &s, seed);
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
        // Its strength joins its army's start on arrival.
        assert_eq!(
            summary.cv_start[Side::Parliament.index()],
            line + strength(rules, &s, "Late")
        );
        // Once on, it moves, and it charges, shoots, is shot at or fights in some battles.
        let after = &events[k + 1..];
        moved += usize::from(
            after
                .iter()
                .any(|(_, e)| matches!(e, Event::Moved { unit, .. } if *unit == late)),
        );
        fights += usize::from(after.iter().any(|(_, e)| fought(e, late)));
    }
    assert!(reached >= 20, "{reached} battles reached turn 3");
    assert!(moved * 4 >= reached * 3, "it moved in {moved} of {reached}");
    assert!(fights >= 5, "it fought in {fights} of {reached}");
}

/// The control for the test above: on the table from the start, it takes part early.
pub fn without_arrives_it_takes_part_in_the_first_two_turns<R: Ruleset>(rules: &R, name: Name) {
    let s = setup(name, "", "");
    let late = unit_id(&s, "Late");
    let early = (0..40)
        .filter(|&i| {
            battle(rules, &s, battle_seed(11, i))
                .0
                .iter()
                .any(|(t, e)| *t <= 2 && mentions(e, late))
        })
        .count();
    assert!(early >= 30, "{early} of 40");
}

/// A die-rolled arrival comes on the turn its own dice stream of the battle's seed says, and
/// the dice vary it.
pub fn a_die_rolled_arrival_comes_when_its_dice_say<R: Ruleset>(
    rules: &R,
    name: Name,
    turn_limit: impl Fn(&BattleSetup) -> u16,
) {
    let s = setup(name, "arrives = { from_turn = 2, on = 5 }", "");
    let late = unit_id(&s, "Late");
    let limit = turn_limit(&s);
    let mut turns = BTreeSet::new();
    for i in 0..60 {
        let seed = battle_seed(3, i);
        let a = &s.arrivals[0];
        let expected = arrival_turn(a.time, seed, a.stream, limit);
        let (events, summary) = battle(rules, &s, seed);
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

/// The Royalist command held in reserve (until turn 4, or until an enemy is within 6") gives
/// no orders until released (`ordered`: whether an event shows one of its regiments acting on
/// an order), and is released in some battles, by turn 4 on the exact turn.
pub fn a_reserve_takes_no_orders_until_released<R: Ruleset>(
    rules: &R,
    name: Name,
    ordered: impl Fn(&BattleSetup, &Event) -> bool,
) {
    for (royal, by_turn) in [
        ("reserve_until = { turn = 4 }", Some(4)),
        ("reserve_until = { enemy_within = 6.0 }", None),
    ] {
        let s = setup(name, "", royal);
        let line = s
            .commands
            .iter()
            .position(|c| c.side == Side::Royalist)
            .unwrap() as u16;
        let mut released_some = 0;
        for i in 0..30 {
            let (events, _) = battle(rules, &s, battle_seed(8, i));
            let released = events.iter().position(
                |(_, e)| matches!(e, Event::Released { command, .. } if *command == line),
            );
            let held = &events[..released.unwrap_or(events.len())];
            assert!(
                !held.iter().any(|(_, e)| ordered(&s, e)),
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

/// Whether a unit is Royalist.
pub fn royalist(setup: &BattleSetup, unit: u16) -> bool {
    setup.units[usize::from(unit)].side == Side::Royalist
}

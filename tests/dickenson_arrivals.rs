//! Late arrivals and commands held in reserve under Dickenson: the scenario's `arrives` and
//! `reserve_until` work as under Ironsides and Black Powder. A waiting regiment takes no part
//! (and is neither lost nor in its army's start) until it arrives, then fights; a die-rolled
//! arrival comes on the turn its own dice stream of the battle's seed says; a reserve takes no
//! orders until released. The scenario and the assertions are shared with Black Powder's
//! (`common::arrivals`).

mod common;

use common::arrivals::{self, royalist};
use ecw_sim::army::Side;
use ecw_sim::dice::battle_seed;
use ecw_sim::events::Event;
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::Dickenson;

const NAME: arrivals::Name = ("dickenson", "dk");

#[test]
fn a_regiment_arriving_on_turn_3_waits_then_comes_on_at_its_place_and_fights() {
    // Fighting: it charges or is charged, fights a melee, or loses figures.
    arrivals::arrives_on_turn_3_then_fights(&Dickenson::builtin(), NAME, |e, late| {
        matches!(e,
            Event::ChargeDeclared { unit: a, target: b, .. }
                | Event::Melee { attacker: a, defender: b, .. }
        if *a == late || *b == late)
            || matches!(e, Event::CvLost { unit, .. } if *unit == late)
    });
}

#[test]
fn without_arrives_the_same_regiment_fights_in_the_first_two_turns() {
    arrivals::without_arrives_it_takes_part_in_the_first_two_turns(&Dickenson::builtin(), NAME);
}

#[test]
fn a_die_rolled_arrival_comes_on_the_turn_its_own_dice_say() {
    let dk = Dickenson::builtin();
    arrivals::a_die_rolled_arrival_comes_when_its_dice_say(&dk, NAME, |s| {
        dk.new_battle(s).turn_limit
    });
}

/// Held, its regiments neither charge nor advance (Royalists advance towards -y).
fn advances(s: &ecw_sim::setup::BattleSetup, e: &Event) -> bool {
    match e {
        Event::ChargeDeclared { unit, .. } => royalist(s, *unit),
        Event::Moved { unit, from, to, .. } => royalist(s, *unit) && to.1 < from.1,
        _ => false,
    }
}

#[test]
fn a_command_in_reserve_takes_no_orders_until_released() {
    arrivals::a_reserve_takes_no_orders_until_released(&Dickenson::builtin(), NAME, advances);
}

#[test]
fn without_a_reserve_the_same_command_advances_early() {
    // The control for the test above: the rupert doctrine moves the Royalists at once.
    let dk = Dickenson::builtin();
    let s = arrivals::setup(NAME, "", "");
    let advanced = (0..30)
        .filter(|&i| {
            arrivals::battle(&dk, &s, battle_seed(8, i))
                .0
                .iter()
                .any(|(t, e)| {
                    *t <= 2
                        && matches!(e, Event::Moved { unit, from, to, .. }
                        if s.units[usize::from(*unit)].side == Side::Royalist && to.1 < from.1)
                })
        })
        .count();
    assert!(advanced >= 25, "{advanced} of 30");
}

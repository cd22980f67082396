//! Late arrivals and brigades held in reserve under Black Powder: the scenario's `arrives` and
//! `reserve_until` work as under Ironsides. A waiting regiment takes no part (and is not lost)
//! until it arrives, then fights; a die-rolled arrival comes on the turn its own dice stream of
//! the battle's seed says; a reserve gives no orders until released. The scenario and the
//! assertions are shared with Dickenson's (`common::arrivals`).

mod common;

use common::arrivals::{self, royalist};
use ecw_sim::events::Event;
use ecw_sim::rules::black_powder::events::Detail;
use ecw_sim::rules::{BlackPowder, Ruleset};

const NAME: arrivals::Name = ("black powder", "bp");

#[test]
fn a_regiment_arriving_on_turn_3_waits_then_comes_on_at_its_place_and_fights() {
    // Fighting: it charges, is charged, fights a melee round, shoots or is shot at.
    arrivals::arrives_on_turn_3_then_fights(&BlackPowder::builtin(), NAME, |e, late| {
        matches!(e, Event::BlackPowder(
            Detail::Charge { unit: a, target: b, .. }
                | Detail::MeleeRound { a, b, .. }
                | Detail::Volley { unit: a, target: b, .. }
        ) if *a == late || *b == late)
    });
}

#[test]
fn without_arrives_the_same_regiment_fights_in_the_first_two_turns() {
    arrivals::without_arrives_it_takes_part_in_the_first_two_turns(&BlackPowder::builtin(), NAME);
}

#[test]
fn a_die_rolled_arrival_comes_on_the_turn_its_own_dice_say() {
    let bp = BlackPowder::builtin();
    arrivals::a_die_rolled_arrival_comes_when_its_dice_say(&bp, NAME, |s| {
        bp.new_battle(s).turn_limit
    });
}

#[test]
fn a_brigade_in_reserve_gives_no_orders_until_released() {
    // An order: a command order, initiative or charge by a Royalist regiment.
    arrivals::a_reserve_takes_no_orders_until_released(&BlackPowder::builtin(), NAME, |s, e| {
        matches!(e, Event::BlackPowder(Detail::Order { unit, .. } | Detail::Initiative { unit } | Detail::Charge { unit, .. })
            if royalist(s, *unit))
    });
}

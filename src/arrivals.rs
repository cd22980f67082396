//! The scenario's timetable, the same under every ruleset: when each late arrival comes on and
//! which commands are still held in reserve. Each engine moves its own units on and off the
//! table; this says when.
//!
//! Each arrival's turn is drawn from its own dice stream of the battle's seed, far past every
//! other stream, so a scenario without arrivals draws exactly the dice it always drew and the
//! same seed gives the same turn under every ruleset.

use crate::army::{CommandId, CommanderId, UnitId};
use crate::battlefield::Vec2;
use crate::dice::{DiceSource, SeededDice};
use crate::events::{Event, Observer, emit};
use crate::setup::{ArrivalTime, BattleSetup, ReserveUntil};

/// How an engine brings its own units on: the timetable says when, the engine says how.
pub trait Arriving {
    /// Puts waiting unit `id` on the table at `pos`, facing `facing`; false if it was not
    /// waiting (it came on already, or never left).
    fn come_on(&mut self, id: UnitId, pos: Vec2, facing: f64) -> bool;
    /// Puts general `g` where his arriving command comes on.
    fn place_general(&mut self, g: CommanderId, pos: Vec2);
    /// After each arrival has come on: whatever the engine keeps of its commands' state.
    fn arrived(&mut self) {}
    /// The engine's timetable.
    fn schedule(&mut self) -> &mut Schedule;
    /// The turn in play (a move, under Dickenson).
    fn turn_now(&self) -> u16;
    /// Whether an enemy on the table is within `x` of one of command `c`'s units on the table
    /// (what releases a reserve held until the enemy comes near).
    fn enemy_near_command(&self, c: CommandId, x: f64) -> bool;

    /// The start of a turn: arrivals due now come on where the scenario puts them (their
    /// general with them), and reserves whose time has come are released.
    fn arrivals_and_releases<O: Observer>(&mut self, setup: &BattleSetup, obs: &mut O)
    where
        Self: Sized,
    {
        let mut schedule = std::mem::take(self.schedule());
        let turn = self.turn_now();
        schedule.arrive(self, setup, turn, obs);
        schedule.release(setup, turn, |c, x| self.enemy_near_command(c, x), obs);
        *self.schedule() = schedule;
    }
}

/// Arrival streams of the battle's seed start here, far past every other stream.
pub const ARRIVAL_STREAMS: u64 = 1 << 40;

/// The turn an arrival comes on: its fixed turn, or the first from `from_turn` whose die
/// scores `on` (past the turn limit: never).
pub fn arrival_turn(time: ArrivalTime, seed: u64, stream: u64, turn_limit: u16) -> u16 {
    match time {
        ArrivalTime::Turn(t) => t,
        ArrivalTime::Roll { from_turn, on } => {
            let mut dice = SeededDice::stream(seed, ARRIVAL_STREAMS + stream);
            (from_turn..=turn_limit)
                .find(|_| dice.d6() >= on)
                .unwrap_or(u16::MAX)
        }
    }
}

/// One battle's timetable (buffers reused battle after battle).
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    /// The turn each of the scenario's arrivals comes on, in its order.
    turns: Vec<u16>,
    /// Commands still held in reserve, by index.
    held: Vec<bool>,
}

impl Schedule {
    /// Room for a set-up's arrivals and `commands` commands, so a battle allocates nothing.
    pub fn for_setup(setup: &BattleSetup, commands: usize) -> Schedule {
        Schedule {
            turns: Vec::with_capacity(setup.arrivals.len()),
            held: Vec::with_capacity(commands),
        }
    }

    /// A new battle from `seed`: each arrival's turn drawn, every reserve held.
    pub fn reset(&mut self, setup: &BattleSetup, seed: u64, turn_limit: u16, commands: usize) {
        self.turns.clear();
        self.turns.extend(
            setup
                .arrivals
                .iter()
                .map(|a| arrival_turn(a.time, seed, a.stream, turn_limit)),
        );
        self.held.clear();
        self.held.resize(commands, false);
        for r in &setup.reserves {
            self.held[usize::from(r.command)] = true;
        }
    }

    /// Whether arrival `k` waits off the table when the battle starts.
    pub fn waits(&self, k: usize) -> bool {
        self.turns.get(k).is_some_and(|&t| t > 1)
    }

    /// Whether arrival `k` comes on at `turn`.
    pub fn due(&self, k: usize, turn: u16) -> bool {
        self.turns.get(k) == Some(&turn)
    }

    /// Whether command `c` is held in reserve (its units take no orders).
    #[inline]
    pub fn in_reserve(&self, c: usize) -> bool {
        self.held.get(c) == Some(&true)
    }

    /// At `turn`, brings on every arrival due: each waiting unit, told to `obs`, then its
    /// general.
    pub fn arrive<E: Arriving, O: Observer>(
        &self,
        engine: &mut E,
        setup: &BattleSetup,
        turn: u16,
        obs: &mut O,
    ) {
        for (k, a) in setup.arrivals.iter().enumerate() {
            if !self.due(k, turn) {
                continue;
            }
            for &(unit, pos, facing) in &a.units {
                if engine.come_on(unit, pos, facing) {
                    emit(obs, Event::Arrived { unit, turn });
                }
            }
            if let Some((g, pos)) = a.general {
                engine.place_general(g, pos);
            }
            engine.arrived();
        }
    }

    /// At `turn`, releases every reserve whose turn has come or that has an enemy within its
    /// distance (`enemy_within(command, distance)`, the engine's measure), telling `obs`.
    pub fn release<O: Observer>(
        &mut self,
        setup: &BattleSetup,
        turn: u16,
        enemy_within: impl Fn(CommandId, f64) -> bool,
        obs: &mut O,
    ) {
        for r in &setup.reserves {
            let c = usize::from(r.command);
            if !self.in_reserve(c) {
                continue;
            }
            let free = match r.until {
                ReserveUntil::Turn(t) => turn >= t,
                ReserveUntil::EnemyWithin(x) => enemy_within(r.command, x),
            };
            if free {
                self.held[c] = false;
                emit(
                    obs,
                    Event::Released {
                        command: r.command,
                        turn,
                    },
                );
            }
        }
    }
}

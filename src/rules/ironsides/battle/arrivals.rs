//! Late arrivals and commands held in reserve (the scenario's `arrives` and `reserve_until`).
//!
//! A late arrival's units wait off the table ([`UnitStatus::Waiting`]): never a target, never
//! moving or firing, not lost, and outside their army's starting CV until they arrive. Each
//! arrival's turn is found when the battle is reset, from its own dice stream of the battle's
//! seed, so a scenario without arrivals draws exactly the dice it always drew.

use crate::army::{CommandId, Side, UnitStatus};
use crate::dice::{DiceSource, SeededDice};
use crate::events::{Event, Observer};
use crate::setup::{ArrivalTime, BattleSetup, ReserveUntil};

use super::{Battle, emit};

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

impl Battle {
    /// At reset: each arrival's turn, its units sent off the table, reserves held.
    pub(super) fn reset_arrivals(&mut self, setup: &BattleSetup, seed: u64) {
        self.arrival_turns.clear();
        for a in &setup.arrivals {
            let t = arrival_turn(a.time, seed, a.stream, setup.turn_limit);
            self.arrival_turns.push(t);
            if t > 1 {
                for &(id, ..) in &a.units {
                    self.units[usize::from(id)].status = UnitStatus::Waiting;
                }
            }
        }
        self.held.clear();
        self.held.resize(self.commands.len(), false);
        for r in &setup.reserves {
            self.held[usize::from(r.command)] = true;
        }
    }

    /// The start of a turn: late arrivals due now come on, reserves whose time has come are
    /// released.
    pub(super) fn arrivals_and_releases<O: Observer>(&mut self, setup: &BattleSetup, obs: &mut O) {
        for (k, a) in setup.arrivals.iter().enumerate() {
            if self.arrival_turns.get(k) != Some(&self.turn) {
                continue;
            }
            for &(id, pos, facing) in &a.units {
                let u = &mut self.units[usize::from(id)];
                if u.status != UnitStatus::Waiting {
                    continue;
                }
                u.status = UnitStatus::Active;
                u.pos = pos;
                u.facing = facing;
                self.cv_start[u.side.index()] += u32::from(u.start_cv);
                self.moved(id);
                emit(
                    obs,
                    Event::Arrived {
                        unit: id,
                        turn: self.turn,
                    },
                );
            }
            if let Some((g, pos)) = a.general {
                self.commanders[usize::from(g)].pos = pos;
            }
        }
        for r in &setup.reserves {
            let c = usize::from(r.command);
            if self.held.get(c) == Some(&true) && self.reserve_released(r.command, r.until) {
                self.held[c] = false;
                emit(
                    obs,
                    Event::Released {
                        command: r.command,
                        turn: self.turn,
                    },
                );
            }
        }
    }

    /// Whether a command holds this turn (no moves) because it is in reserve.
    #[inline]
    pub fn in_reserve(&self, command: CommandId) -> bool {
        self.held.get(usize::from(command)) == Some(&true)
    }

    fn reserve_released(&self, command: CommandId, until: ReserveUntil) -> bool {
        match until {
            ReserveUntil::Turn(t) => self.turn >= t,
            ReserveUntil::EnemyWithin(x) => {
                let cmd = &self.commands[usize::from(command)];
                let enemy: Side = cmd.side.other();
                cmd.units.iter().any(|&a| {
                    self.units[usize::from(a)].is_active()
                        && self
                            .units
                            .iter()
                            .any(|e| e.side == enemy && e.is_active() && self.within(a, e.id, x))
                })
            }
        }
    }
}

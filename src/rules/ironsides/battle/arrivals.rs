//! Late arrivals and commands held in reserve (the scenario's `arrives` and `reserve_until`).
//!
//! A late arrival's units wait off the table ([`UnitStatus::Waiting`]): never a target, never
//! moving or firing, not lost, and outside their army's starting CV until they arrive. Each
//! arrival's turn is found when the battle is reset, from its own dice stream of the battle's
//! seed, so a scenario without arrivals draws exactly the dice it always drew.

use crate::army::{CommandId, Side, UnitStatus};
use crate::army::{CommanderId, UnitId};
use crate::arrivals::{Arriving, Schedule};
use crate::battlefield::Vec2;
use crate::setup::BattleSetup;

use super::Battle;

impl Battle {
    /// At reset: each arrival's turn, its units sent off the table, reserves held.
    pub(super) fn reset_arrivals(&mut self, setup: &BattleSetup, seed: u64) {
        self.schedule
            .reset(setup, seed, setup.turn_limit, self.commands.len());
        for (k, a) in setup.arrivals.iter().enumerate() {
            if self.schedule.waits(k) {
                for &(id, ..) in &a.units {
                    self.units[usize::from(id)].status = UnitStatus::Waiting;
                }
            }
        }
    }

    /// Whether a command holds this turn (no moves) because it is in reserve.
    #[inline]
    pub fn in_reserve(&self, command: CommandId) -> bool {
        self.schedule.in_reserve(usize::from(command))
    }
}

impl Arriving for Battle {
    fn schedule(&mut self) -> &mut Schedule {
        &mut self.schedule
    }

    fn turn_now(&self) -> u16 {
        self.turn
    }

    fn enemy_near_command(&self, command: CommandId, x: f64) -> bool {
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

    fn come_on(&mut self, id: UnitId, pos: Vec2, facing: f64) -> bool {
        let u = &self.units[usize::from(id)];
        if u.status != UnitStatus::Waiting {
            return false;
        }
        self.cv_start[u.side.index()] += u32::from(u.start_cv);
        self.shift(id, |u| {
            u.status = UnitStatus::Active;
            u.pos = pos;
            u.facing = facing;
        });
        true
    }

    fn place_general(&mut self, g: CommanderId, pos: Vec2) {
        self.place_general_at(g, pos);
    }
}

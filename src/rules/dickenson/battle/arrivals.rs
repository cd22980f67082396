//! Late arrivals and commands held in reserve under Dickenson: the scenario's `arrives` and
//! `reserve_until`, read as Ironsides and Black Powder read them.
//!
//! An arriving regiment waits off the table (`Gone` and waiting): it never moves, shoots, is
//! shot or counts as lost, and its morale points and figures join its army's start only when
//! it arrives. Each arrival's turn comes from its own stream of the battle's seed (the turn
//! Ironsides draws for that seed), so a scenario without arrivals rolls exactly the dice it
//! always rolled. A command in reserve takes no orders (its regiments halt) until released;
//! they still shoot, fight and test morale.

use super::{Battle, State};
use crate::army::CommandId;
use crate::army::{CommanderId, UnitId};
use crate::arrivals::{Arriving, Schedule};
use crate::battlefield::Vec2;
use crate::setup::BattleSetup;

impl Battle {
    /// At the start of a battle: each arrival's turn, its regiments sent off the table (and out
    /// of their army's start), the reserves held.
    pub(super) fn reset_arrivals(&mut self, setup: &BattleSetup) {
        self.schedule
            .reset(setup, self.seed, self.turn_limit, setup.commands.len());
        for (k, a) in setup.arrivals.iter().enumerate() {
            if !self.schedule.waits(k) {
                continue;
            }
            for &(id, ..) in &a.units {
                let r = usize::from(id);
                if !self.regiments[r].waiting {
                    let side = self.regiments[r].side.index();
                    self.points_start[side] -= self.points(r);
                    let reg = &mut self.regiments[r];
                    reg.waiting = true;
                    reg.state = State::Gone;
                }
            }
        }
    }

    /// Whether command `c` is held in reserve this move (its regiments take no orders).
    #[inline]
    pub fn in_reserve(&self, c: usize) -> bool {
        self.schedule.in_reserve(c)
    }
}

impl Arriving for Battle {
    fn schedule(&mut self) -> &mut Schedule {
        &mut self.schedule
    }

    fn turn_now(&self) -> u16 {
        self.turn
    }

    fn enemy_near_command(&self, c: CommandId, x: f64) -> bool {
        (0..self.regiments.len()).any(|r| {
            let reg = &self.regiments[r];
            reg.command == c
                && reg.state != State::Gone
                && self
                    .nearest_enemy(r, |_| true)
                    .is_some_and(|(_, gap)| gap <= x)
        })
    }

    fn come_on(&mut self, id: UnitId, pos: Vec2, facing: f64) -> bool {
        let r = usize::from(id);
        if !self.regiments[r].waiting {
            return false;
        }
        let reg = &mut self.regiments[r];
        reg.waiting = false;
        reg.state = State::Active;
        reg.pos = pos;
        reg.facing = facing;
        let side = reg.side.index();
        self.placed(r);
        self.points_start[side] += self.points(r);
        true
    }

    fn place_general(&mut self, g: CommanderId, pos: Vec2) {
        self.generals[usize::from(g)].pos = pos;
    }
}

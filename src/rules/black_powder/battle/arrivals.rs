//! Late arrivals and brigades held in reserve under Black Powder: the scenario's `arrives` and
//! `reserve_until`, read as Ironsides reads them.
//!
//! An arriving regiment waits off the table (gone and waiting): it never moves, shoots, is shot
//! or counts towards its brigade's or army's break, and its stamina joins its army's start only
//! when it arrives. Each arrival's turn comes from its own stream of the battle's seed (the
//! same turn Ironsides draws for that seed), so a scenario without arrivals rolls exactly the
//! dice it always rolled. A brigade in reserve gives no orders until released; its regiments
//! still shoot and fight.

use super::Battle;
use crate::army::CommandId;
use crate::army::{CommanderId, UnitId};
use crate::arrivals::{Arriving, Schedule};
use crate::battlefield::Vec2;
use crate::setup::BattleSetup;

impl Battle {
    /// At the start of a battle: each arrival's turn, its regiments sent off the table, the
    /// reserves held.
    pub(super) fn reset_arrivals(&mut self, setup: &BattleSetup) {
        self.schedule
            .reset(setup, self.seed, self.turn_limit, self.brigades.len());
        for (k, a) in setup.arrivals.iter().enumerate() {
            if !self.schedule.waits(k) {
                continue;
            }
            for &(id, ..) in &a.units {
                let r = &mut self.regiments[usize::from(id)];
                if !r.waiting {
                    r.waiting = true;
                    r.gone = true;
                    self.stamina_start[r.side.index()] -= u32::from(r.stamina);
                }
            }
        }
        self.update_brigades();
    }

    /// Whether brigade `b` is held in reserve this turn (its regiments take no orders).
    #[inline]
    pub fn in_reserve(&self, b: usize) -> bool {
        self.schedule.in_reserve(b)
    }
}

impl Arriving for Battle {
    fn schedule(&mut self) -> &mut Schedule {
        &mut self.schedule
    }

    fn turn_now(&self) -> u16 {
        self.turn
    }

    fn enemy_near_command(&self, b: CommandId, x: f64) -> bool {
        self.members.get(usize::from(b)).is_some_and(|m| {
            m.iter().any(|&r| {
                let (r, reg) = (usize::from(r), &self.regiments[usize::from(r)]);
                !reg.gone && self.enemy_within(r, x, |_, _| true)
            })
        })
    }

    fn come_on(&mut self, id: UnitId, pos: Vec2, facing: f64) -> bool {
        let r = usize::from(id);
        if !self.regiments[r].waiting {
            return false;
        }
        let reg = &mut self.regiments[r];
        reg.waiting = false;
        reg.gone = false;
        self.stamina_start[reg.side.index()] += u32::from(reg.stamina);
        self.place(r, pos, facing);
        true
    }

    fn place_general(&mut self, g: CommanderId, pos: Vec2) {
        self.generals[usize::from(g)].pos = pos;
    }

    fn arrived(&mut self) {
        self.update_brigades();
    }
}

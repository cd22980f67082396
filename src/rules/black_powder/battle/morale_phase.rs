//! Break tests (the ones shooting called for, and every melee loser's), and what follows: a
//! broken regiment is removed, a retiring one falls back disordered, and a commander with a
//! beaten regiment may be lost.

use super::{Battle, emit};
use crate::dice::DiceSource;
use crate::events::{Event, GeneralResult, Observer};
use crate::rules::black_powder::events::Detail;
use crate::rules::black_powder::melee;
use crate::rules::black_powder::morale::{self, BreakResult};
use crate::rules::black_powder::tables::SpecialRule;

impl Battle {
    /// The break tests shooting called for and not yet taken.
    pub fn break_test_phase<D: DiceSource, O: Observer>(&mut self, dice: &mut D, obs: &mut O) {
        for r in 0..self.regiments.len() {
            if self.regiments[r].must_test && !self.regiments[r].gone {
                self.regiments[r].must_test = false;
                self.break_test(r, 0, dice, obs);
                self.commander_risk_if_broken(r, dice, obs);
            }
        }
    }

    /// A break test: 2D6 less casualties beyond stamina and the margin a melee was lost by.
    /// Steady passes its first without a roll. The excess casualties then go.
    pub fn break_test<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        lost_by: u8,
        dice: &mut D,
        obs: &mut O,
    ) -> BreakResult {
        let reg = self.regiments[r];
        let excess = morale::excess(reg.casualties, reg.stamina);
        self.regiments[r].casualties = reg.casualties.min(reg.stamina);
        self.regiments[r].must_test = false;
        let free = reg.specials.has(SpecialRule::Steady)
            && morale::steady_passes(reg.tests_taken, &self.rules);
        self.regiments[r].tests_taken = reg.tests_taken.saturating_add(1);
        let (roll, result) = if free {
            (0, BreakResult::Hold)
        } else {
            dice.focus(Self::regiment_stream(r));
            let roll = dice.sum_d6(u32::from(self.rules.break_test.dice)) as u8;
            (
                roll,
                morale::break_result(roll, excess, lost_by, &self.rules),
            )
        };
        emit(
            obs,
            Event::BlackPowder(Detail::BreakTest {
                unit: reg.unit,
                roll,
                penalty: excess.saturating_add(lost_by),
                result,
                free,
            }),
        );
        match result {
            BreakResult::Broken => self.remove(r, obs),
            BreakResult::Retire => self.retire(r, obs),
            BreakResult::Hold => {}
        }
        result
    }

    /// A broken regiment leaves the battle.
    fn remove<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        let reg = &mut self.regiments[r];
        reg.gone = true;
        reg.hedgehog = false;
        emit(obs, Event::Disintegrated { unit: reg.unit });
    }

    /// Retires a full move, disordered (and still shaken if it was); off the table it is gone.
    /// Like any move it ends clear of its friends (`back_to`), short of them if need be.
    fn retire<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        let reg = self.regiments[r];
        let distance = self.rules.break_test.retire_move * reg.standard_move;
        let to = reg.pos - crate::battlefield::Vec2::from_facing(reg.facing) * distance;
        self.regiments[r].disordered = true;
        self.regiments[r].hedgehog = false;
        emit(
            obs,
            Event::Retreat {
                unit: reg.unit,
                distance,
            },
        );
        if to.x < 0.0 || to.y < 0.0 || to.x > self.table.0 || to.y > self.table.1 {
            self.regiments[r].gone = true;
            emit(obs, Event::LeftTable { unit: reg.unit });
            return;
        }
        self.back_to(r, to, true, obs);
    }

    /// A commander with a regiment that lost a melee or broke is lost on a D6 of 1.
    pub(super) fn commander_risk<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let Some(c) = self.regiments[r].joined else {
            return;
        };
        let c = usize::from(c);
        dice.focus(Self::regiment_stream(r));
        if melee::commander_lost(dice.d6(), &self.rules) {
            let g = &mut self.generals[c];
            g.lost = true;
            g.joined = None;
            g.back_on = self.turn + u16::from(self.rules.command.replacement_turns);
            self.regiments[r].joined = None;
            emit(
                obs,
                Event::GeneralCasualty {
                    general: c as u16,
                    result: GeneralResult::Lost,
                    captured: false,
                },
            );
        } else if self.regiments[r].gone {
            self.generals[c].joined = None;
            self.regiments[r].joined = None;
        }
    }

    fn commander_risk_if_broken<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        if self.regiments[r].gone {
            self.commander_risk(r, dice, obs);
        }
    }
}

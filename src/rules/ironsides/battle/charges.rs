//! Steps 13-14: the target of a charge reacts and makes its emergency responses; support
//! charges join in; then the charge goes home (step 15 follows in `close_combat`).

use super::close_combat::Fighter;
use super::{Battle, Turn, emit, fire_cv};
use crate::army::{Formation, UnitId, UnitKind, UnitStatus};
use crate::battlefield::{Vec2, angle_diff};
use crate::dice::DiceSource;
use crate::doctrine::Doctrine;
use crate::events::{Event, Observer, ReactionCause, ReactionResult, Response};
use crate::rules::ironsides::charge as charge_rules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::melee::Approach;
use crate::rules::ironsides::movement;

/// A charge whose charger passed its reaction to close.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChargePlan {
    pub charger: UnitId,
    pub target: UnitId,
    pub standoff: f64,
    /// Where the charger began its move (for the flank and rear rule).
    pub start: Vec2,
    /// An opportunity charge by the side not moving.
    pub opportunity: bool,
}

/// Most units that can join one melee on the defending side.
pub const MAX_SUPPORT: usize = 3;

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Steps 13-15 for every charge that goes in, in the order declared.
    pub(super) fn resolve_charges(&mut self) {
        for k in 0..self.charges.len() {
            let plan = self.charges[k];
            let (c, t) = (
                &self.units[usize::from(plan.charger)],
                &self.units[usize::from(plan.target)],
            );
            if !c.is_active() || !t.is_active() || c.pinned {
                continue;
            }
            self.one_charge(plan);
        }
        self.charges.clear();
    }

    fn one_charge(&mut self, plan: ChargePlan) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let (charger, target) = (plan.charger, plan.target);
        // Flank or rear: the charger's line of approach began fully behind the target's flank
        // (more than 90 degrees off its facing), or began off its front arc and had at least
        // `charge.flank_approach_distance` of charge from there.
        let t = &self.units[usize::from(target)];
        let off = angle_diff((plan.start - t.pos).facing(), t.facing).abs();
        let run = plan.start.dist(t.pos);
        let mut flank = off > std::f64::consts::FRAC_PI_2
            || (off > std::f64::consts::FRAC_PI_4 * 1.5
                && run >= rules.charge.flank_approach_distance);
        let engaged_front = t.pinned;
        let mut target_approach = Approach::Standing;
        if engaged_front {
            // Already fighting to its front: 2D6; pass both and it faces about.
            if flank
                && self.react(target, ReactionCause::FlankAttackWhileEngaged)
                    == ReactionResult::PassBoth
            {
                flank = false;
            }
        } else {
            // Step 13: the target reacts; its passed self.dice are its emergency-response self.dice.
            let r = self.react(target, ReactionCause::Charged);
            match r {
                ReactionResult::Rout => {
                    self.rout(target);
                    return;
                }
                ReactionResult::FailBoth => {
                    let d = self
                        .ai
                        .retreat_distance(&self.b.view(setup), target)
                        .max(rules.reaction.retreat_min);
                    self.retreat(target, d);
                    // The charger may still reach a target that ran, with distance to spare.
                    let reach =
                        movement::move_allowance(rules, &self.units[usize::from(charger)], false);
                    if !self.units[usize::from(target)].is_active() || reach < plan.standoff + d {
                        return;
                    }
                }
                _ => {
                    let passed = if r == ReactionResult::PassBoth { 2 } else { 1 };
                    match self.emergency_responses(plan, passed) {
                        Some((approach, refaced)) => {
                            target_approach = approach;
                            if refaced {
                                flank = false;
                            }
                        }
                        None => return, // evaded: the charge strikes air
                    }
                }
            }
        }
        if !self.units[usize::from(charger)].is_active()
            || !self.units[usize::from(target)].is_active()
        {
            return;
        }
        // Step 14: support charges from the target's side.
        let mut defenders = [Fighter {
            id: target,
            approach: target_approach,
        }; 1 + MAX_SUPPORT];
        let mut n_def = 1;
        if !engaged_front {
            n_def += self.support_charges(charger, target, &mut defenders[1..]);
        }
        self.make_contact(charger, target, flank);
        self.overrun_generals(charger);
        let attackers = [Fighter {
            id: charger,
            approach: Approach::Charging(plan.standoff),
        }];
        self.melee(&attackers, &defenders[..n_def], flank, false);
    }

    /// The target's emergency responses. Returns its approach to the melee and whether it
    /// refaced, or None if it evaded.
    fn emergency_responses(&mut self, plan: ChargePlan, passed: u8) -> Option<(Approach, bool)> {
        let setup = self.setup;
        let rules = &*setup.rules;
        let (charger, target) = (plan.charger, plan.target);
        let n = charge_rules::response_dice(rules, Some(passed));
        let mut successes = self.response_successes(target, n);
        let wanted = self.ai.responses(&self.b.view(setup), target, charger);
        let mut approach = Approach::Standing;
        let mut refaced = false;
        let mut countercharged = false;
        for r in wanted.into_iter().flatten() {
            if successes == 0 {
                break;
            }
            // A shot out of range or beyond the turn's shots is a response no one would buy.
            let shot = (r == Response::Fire)
                .then(|| self.response_shot_range(plan))
                .flatten();
            if !charge_rules::response_allowed(&self.units[usize::from(target)], r)
                || (r == Response::Fire && shot.is_none())
            {
                continue;
            }
            successes -= 1;
            emit(
                self.obs,
                Event::EmergencyResponse {
                    unit: target,
                    dice: n,
                    successes: successes + 1,
                    chosen: r,
                },
            );
            match r {
                Response::ChangeFacing => {
                    self.shift(target, |u| u.facing = (plan.start - u.pos).facing());
                    refaced = true;
                }
                Response::ChangeFormation => self.form_against(target, charger),
                Response::FormUp => self.units[usize::from(target)].disordered = false,
                Response::Fire => {
                    if let Some(range) = shot {
                        self.shoot_at(target, charger, range, false, None);
                    }
                }
                Response::Limber => {}
                Response::Evade => {
                    self.evade(target);
                    return None;
                }
                Response::Countercharge => {
                    let reach =
                        charge_rules::countercharge_reach(rules, &self.units[usize::from(target)]);
                    approach = Approach::Charging(reach.min(plan.standoff));
                    countercharged = true;
                }
            }
        }
        // A spare success after a countercharge: a free pistol shot as the lines meet.
        if countercharged && successes > 0 && self.units[usize::from(target)].is_cavalry() {
            let m = crate::rules::ironsides::fire::fire_modifier(
                rules,
                &self.units[usize::from(target)],
                0.0,
                true,
            );
            self.shoot(target, charger, true, m);
        }
        Some((approach, refaced))
    }

    /// The range of the target's response shot, if it has one: the charger is shot as it comes
    /// on, at the charge's stand-off (no further than it stands), as a declared charge halts
    /// there to test; None with no shot left this turn or the charger out of range even then.
    fn response_shot_range(&self, plan: ChargePlan) -> Option<f64> {
        let rules = &*self.setup.rules;
        let u = &self.units[usize::from(plan.target)];
        let range = self.distance(plan.target, plan.charger).min(plan.standoff);
        let ok = crate::rules::ironsides::fire::has_shot(rules, u)
            && crate::rules::ironsides::fire::fire_modifier(rules, u, range, false).is_some();
        ok.then_some(range)
    }

    /// The successes of the target's `n` emergency-response dice, with the re-rolls its
    /// doctrine spends.
    fn response_successes(&mut self, target: UnitId, n: u8) -> u8 {
        let setup = self.setup;
        let rules = &*setup.rules;
        let cv = self.units[usize::from(target)].cv as i8;
        let (g, avail) = self.rerolls_for(setup, target);
        let want = self
            .ai
            .reaction_rerolls(&self.b.view(setup), target, avail)
            .min(avail);
        let mut rr = Rerolls::new(want);
        self.dice.focus(super::unit_stream(target));
        let successes = charge_rules::roll_responses(rules, self.dice, n, cv, &mut rr);
        self.spend_rerolls(g, rr.used);
        successes
    }

    /// The target changes formation against the charger: foot forms hedgehog against horse,
    /// dragoons dismount.
    fn form_against(&mut self, target: UnitId, charger: UnitId) {
        let vs_horse = self.units[usize::from(charger)].is_cavalry();
        self.shift(target, |u| {
            if u.kind.is_foot() && vs_horse {
                u.formation = Formation::Hedgehog;
                u.frontage = 2.0;
            } else if u.kind == UnitKind::Dragoons {
                u.formation = Formation::Dismounted;
            }
        });
    }

    /// The target evades the charge; running gunners leave their cannon.
    fn evade(&mut self, target: UnitId) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.dice.focus(super::unit_stream(target));
        let d = charge_rules::evade_distance(rules, self.dice, &self.b.units[usize::from(target)]);
        if self.units[usize::from(target)].kind.is_gun() {
            self.units[usize::from(target)].status = UnitStatus::Abandoned;
            emit(self.obs, Event::GunAbandoned { unit: target });
            self.unit_gone(setup, target);
            emit(
                self.obs,
                Event::Retreat {
                    unit: target,
                    distance: d,
                },
            );
        } else {
            self.retreat(target, d);
        }
    }

    /// A support or opportunity charge by `id` at `target`: its emergency-response dice (one
    /// re-roll at most), rolled once, as its one countercharge move this half-turn. Returns the
    /// successes.
    pub(super) fn countercharge_dice(&mut self, id: UnitId, target: UnitId) -> u8 {
        let setup = self.setup;
        let rules = &*setup.rules;
        let cv = fire_cv(rules, self, setup, id);
        let (g, avail) = self.rerolls_for(setup, id);
        let mut rr = Rerolls::new(avail.min(1));
        self.dice.focus(super::unit_stream(id));
        let ok = charge_rules::roll_responses(
            rules,
            self.dice,
            charge_rules::response_dice(rules, None),
            cv,
            &mut rr,
        );
        self.spend_rerolls(g, rr.used);
        self.spend_charge(id);
        emit(
            self.obs,
            Event::SupportCharge {
                unit: id,
                target,
                successes: ok,
            },
        );
        ok
    }

    /// Step 14: the target's side may support it with horse in line that can reach the charger
    /// (2" x CV): 2 emergency-response dice, one success if facing the charger, two if it must
    /// reface first. Writes the supporters into `out`; returns how many.
    fn support_charges(&mut self, charger: UnitId, target: UnitId, out: &mut [Fighter]) -> usize {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.units[usize::from(target)].side;
        let mut n = 0;
        // Those that may reach the charger, in id order: with cells, the units about it (no
        // unit's reach is beyond that of the highest CV); else every unit.
        let mut about = [0 as UnitId; 64];
        let most = rules.charge.support_charge_per_cv.max(0.0) * f64::from(self.cv_bound());
        let near = self.units_about(side, charger, most, &mut about);
        let ids = (0..near.unwrap_or(self.units.len()))
            .map(|k| near.map_or(k, |_| usize::from(about[k])));
        for i in ids {
            if n == out.len() {
                break;
            }
            let u = &self.units[i];
            let id = i as UnitId;
            if u.side != side
                || id == target
                || !u.is_active()
                || !u.is_cavalry()
                || u.pinned
                || u.broken
                || u.pursuing > 0
                || u.formation == Formation::MarchColumn
            {
                continue;
            }
            let reach = charge_rules::support_charge_reach(rules, u);
            let (me, c) = (self.shape(id), self.shape(charger));
            // The circles first, as `Shape::within` tries them: apart, it is surely out of reach.
            let r = reach + me.radius + c.radius;
            let d = c.centre - me.centre;
            if r < 0.0 || d.dot(d) > r * r {
                debug_assert!(self.distance(id, charger) > reach);
                continue;
            }
            // (After the circles, which rule out nearly every unit of a large battle: this
            // looks at every charge, and at every unit that has charged in support this half.)
            if self.charges.iter().any(|c| c.target == id) || self.charge_is_spent(id) {
                continue;
            }
            let dist = me.dist(&c);
            if dist > reach {
                continue;
            }
            if !self.ai.support_charge(&self.b.view(setup), id, charger) {
                continue;
            }
            let needs = if self.in_front_arc(id, charger) { 1 } else { 2 };
            let ok = self.countercharge_dice(id, charger);
            if ok >= needs {
                out[n] = Fighter {
                    id,
                    approach: Approach::Charging(dist),
                };
                n += 1;
                let c = self.units[usize::from(charger)].pos;
                self.shift(id, |u| u.facing = (c - u.pos).facing());
            } else if ok >= 1 {
                // Only enough to reface (E15).
                let c = self.units[usize::from(charger)].pos;
                self.shift(id, |u| u.facing = (c - u.pos).facing());
            }
        }
        n
    }
}

impl Battle {
    /// Puts the charger's front against the target (its flank or rear for a flank attack).
    fn make_contact(&mut self, charger: UnitId, target: UnitId, flank: bool) {
        let t = self.rect(target);
        let c = &self.units[usize::from(charger)];
        let dir = (c.pos - t.centre).norm();
        let gap = if flank {
            t.frontage / 2.0
        } else {
            t.depth / 2.0
        } + c.depth / 2.0;
        let pos = t.centre + dir * gap;
        self.shift(charger, |u| {
            u.pos = pos;
            u.facing = (t.centre - pos).facing();
            u.moved = true;
        });
    }
}

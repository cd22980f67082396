//! Steps 8-11: a side fires, then the side fired upon tests reaction for every unit that lost
//! CV; and the reaction test itself, with attached generals and re-rolls, used everywhere.

use super::{Battle, FRONT_ARC, Turn, emit};
use crate::army::UnitId;
use crate::battlefield::geometry::within_arc;
use crate::dice::DiceSource;
use crate::doctrine::Doctrine;
use crate::events::{Event, LossCause, Observer, ReactionCause, ReactionResult};
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::tables::IronsidesRules;
use crate::rules::ironsides::{fire, reaction};
use crate::setup::BattleSetup;

/// Effective CV of a unit for fire and close combat.
pub(crate) fn fire_cv(rules: &IronsidesRules, b: &Battle, setup: &BattleSetup, id: UnitId) -> i8 {
    fire::effective_cv(rules, &b.units[usize::from(id)], b.cg_bonus(setup, id))
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// One side fires (every unit with a target in range and arc and a shot left, if its
    /// doctrine wishes), then the other side's units that lost CV test reaction.
    pub(super) fn fire_and_react(&mut self, firing: crate::army::Side) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.hit_this_phase.clear();
        let mut candidates = std::mem::take(&mut self.scratch);
        let mut ranges = [0.0f64; 64];
        for i in 0..self.units.len() {
            let u = &self.units[i];
            // Horse fire pistols only in the charge; pinned units are fighting, not shooting.
            if u.side != firing
                || !u.is_active()
                || u.pinned
                || u.pursuing > 0
                || !fire::has_shot(rules, u)
                || (u.is_cavalry())
            {
                continue;
            }
            let Some(band) = fire::range_band(rules, u) else {
                continue;
            };
            let reach = if band.long > 0.0 {
                band.long
            } else {
                band.short
            };
            let id = i as UnitId;
            candidates.clear();
            let me = self.shape(id);
            let facing = u.facing;
            // `within` after the circles passed: the distance, kept for the shot; then
            // `in_front_arc` with the shapes and the distance at hand.
            let mut n = 0;
            self.any_near(&me, firing.other(), reach, |s| {
                let e = &self.units[usize::from(s.id)];
                if e.is_active() && !e.pinned {
                    let t = self.shape(s.id);
                    // Outside the arc and surely not touching: no target, and no need to measure.
                    let in_arc = within_arc(me.fwd, facing, t.centre - me.centre, FRONT_ARC);
                    let may_touch = me.dist_lower_bound(&t) < 0.5;
                    if !in_arc && !may_touch {
                        return false;
                    }
                    let d = me.dist(&t);
                    if d <= reach && (in_arc || d < 0.5) {
                        debug_assert!(self.in_front_arc(id, s.id));
                        candidates.push(s.id);
                        if let Some(r) = ranges.get_mut(n) {
                            *r = d;
                        }
                        n += 1;
                    }
                }
                false
            });
            // The nearest-enemy cache, no longer asked first (the window scan costs less), agrees.
            debug_assert!(
                candidates.is_empty() || self.nearest_known_in_play(id).is_none_or(|d| d <= reach)
            );
            if candidates.is_empty() {
                continue;
            }
            // In id order (as the grid gives them), as a scan of the side would find them.
            debug_assert!(candidates.windows(2).all(|w| w[0] < w[1]));
            let Some(target) = self.ai.fire_target(&self.b.view(setup), id, &candidates) else {
                continue;
            };
            let Some(at) = candidates.iter().position(|&c| c == target) else {
                continue; // not a legal target: the shot is not taken
            };
            // The range as `shoot` would measure it (the same two shapes, in the same order).
            let range = if at < ranges.len() && n <= ranges.len() {
                ranges[at]
            } else {
                self.distance(id, target)
            };
            debug_assert_eq!(range.to_bits(), self.distance(id, target).to_bits());
            self.shoot_at(id, target, range, false, None);
        }
        self.scratch = candidates;
        self.reactions_to_fire();
    }

    /// The units hit in a fire phase test reaction, in the order they were hit (each once).
    fn reactions_to_fire(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        // Reactions, in the order the units were hit.
        let mut k = 0;
        while k < self.hit_this_phase.len() {
            let id = self.hit_this_phase[k];
            k += 1;
            if self.hit_this_phase[..k - 1].contains(&id)
                || !self.units[usize::from(id)].is_active()
            {
                continue;
            }
            if !reaction::must_test_after_fire(rules, self.units[usize::from(id)].cv) {
                continue;
            }
            let r = self.react(id, ReactionCause::Fire);
            self.after_failed_reaction(id, r);
        }
    }

    /// One shot from `firer` at `target`. `free` shots (a spare emergency response) do not count
    /// against the firer's shots. `modifier` overrides the computed one (pistols in a charge).
    pub(super) fn shoot(
        &mut self,
        firer: UnitId,
        target: UnitId,
        free: bool,
        modifier: Option<i8>,
    ) -> bool {
        let range = self.distance(firer, target);
        self.shoot_at(firer, target, range, free, modifier)
    }

    /// `shoot` at a range already measured (`self.distance(firer, target)`, or a charger's
    /// stand-off).
    pub(super) fn shoot_at(
        &mut self,
        firer: UnitId,
        target: UnitId,
        range: f64,
        free: bool,
        modifier: Option<i8>,
    ) -> bool {
        let setup = self.setup;
        let rules = &*setup.rules;
        let Some(m) = modifier
            .or_else(|| fire::fire_modifier(rules, &self.units[usize::from(firer)], range, false))
        else {
            return false;
        };
        let bonus = self.cg_bonus(setup, firer);
        // One re-roll a shot: the target's wretch's gift, or the firer's general's.
        let (g, avail) = self.rerolls_for(setup, firer);
        let giver = self.giver_against(setup, target);
        let mut rr = Rerolls::new((avail + self.gift_of(giver)).min(1));
        let u = &mut self.b.units[usize::from(firer)];
        let before = u.shots_fired;
        self.dice.focus(super::unit_stream(firer));
        let shot = fire::fire_shot(rules, self.dice, u, m, bonus, &mut rr);
        if free {
            u.shots_fired = before;
        }
        self.spend_rerolls_against(g, giver, rr.used);
        emit(
            self.obs,
            Event::Fired {
                unit: firer,
                target,
                range,
                roll: shot.roll,
                needed: shot.cv - m,
                hit: shot.hit,
            },
        );
        if shot.hit {
            self.lose_cv(target, 1, LossCause::Fire);
            self.hit_this_phase.push(target);
        }
        shot.hit
    }

    /// A reaction test for a unit: 2D6 against CV, an attached general taking 2 off each die
    /// and lending his re-rolls (a general with none brings one free); otherwise the commander's
    /// re-rolls within radius, as the doctrine wishes to spend them.
    pub(crate) fn react(&mut self, id: UnitId, cause: ReactionCause) -> ReactionResult {
        let setup = self.setup;
        let rules = &*setup.rules;
        let (modifier, general, avail, free) = match self.attached_general(id) {
            Some(g) => {
                let c = &self.commanders[usize::from(g)];
                let (n, free) = reaction::attached_rerolls(rules, c.rerolls_left);
                // The free one is one a turn: once spent, it is gone like any other.
                let n = if free { n.min(c.free_rerolls_left) } else { n };
                (
                    rules.reaction.attached_general_die_modifier,
                    Some(g),
                    n,
                    free,
                )
            }
            None => {
                let (g, n) = self.rerolls_for(setup, id);
                (0, g, n, false)
            }
        };
        let want = self
            .ai
            .reaction_rerolls(&self.b.view(setup), id, avail)
            .min(avail);
        let mut rr = Rerolls::new(want);
        let cv = self.units[usize::from(id)].cv;
        self.dice.focus(super::unit_stream(id));
        let t = reaction::reaction_test(rules, self.dice, cv, modifier, &mut rr);
        match general {
            Some(g) if free => {
                let c = &mut self.commanders[usize::from(g)];
                c.free_rerolls_left = c.free_rerolls_left.saturating_sub(t.rerolls_used);
            }
            _ => self.spend_rerolls(general, t.rerolls_used),
        }
        emit(
            self.obs,
            Event::Reaction {
                unit: id,
                cause,
                dice: t.dice,
                result: t.result,
                rerolls_used: t.rerolls_used,
            },
        );
        t.result
    }

    /// Pass one: no advance this turn. Fail both: retire at least 4" facing the enemy.
    /// Two sixes: rout.
    pub(crate) fn after_failed_reaction(&mut self, id: UnitId, r: ReactionResult) {
        let setup = self.setup;
        match r {
            ReactionResult::PassBoth => {}
            ReactionResult::PassOne => self.units[usize::from(id)].no_advance = true,
            ReactionResult::FailBoth => {
                let d = self
                    .ai
                    .retreat_distance(&self.b.view(setup), id)
                    .max(setup.rules.reaction.retreat_min);
                self.units[usize::from(id)].no_advance = true;
                self.retreat(id, d);
            }
            ReactionResult::Rout => self.rout(id),
        }
    }
}

//! Melee: every pair of regiments in contact fights a round; each element in contact rolls its
//! own dice; the higher result wins, the loser takes a break test, and victorious horse sweeps
//! on as its doctrine chooses (Rash horse must, unless a D6 rolls 5 or 6).

use super::doctrine;
use super::{Battle, emit};
use crate::battlefield::{AreaKind, Vec2};
use crate::dice::DiceSource;
use crate::events::{Event, LossCause, Observer, ReactionResult};
use crate::rules::black_powder::events::{ChargeBy, Detail};
use crate::rules::black_powder::melee::{self, Aspect, Outcome, Round, Standing};
use crate::rules::black_powder::morale::{BreakResult, SaveSituation};
use crate::rules::black_powder::shooting::hits;
use crate::rules::black_powder::tables::SpecialRule;
use crate::rules::black_powder::units::{Troop, armour, stats};
use crate::setup::BattleSetup;

impl Battle {
    /// Every melee in contact fights a round.
    pub fn melee_phase<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for (a, reg) in self.regiments.iter().enumerate() {
            if let Some(b) = reg.engaged
                && a < usize::from(b)
                && !reg.gone
            {
                pairs.push((a as u16, b));
            }
        }
        for &(a, b) in &pairs {
            let (a, b) = (usize::from(a), usize::from(b));
            if !self.regiments[a].gone
                && !self.regiments[b].gone
                && self.regiments[a].engaged == Some(b as u16)
            {
                self.fight_round(a, b, setup, dice, obs);
            }
        }
        self.pairs = pairs;
    }

    /// The enemy element of regiment `o` nearest element `e`, if in contact.
    fn opponent(&self, e: usize, o: usize) -> Option<usize> {
        self.element_range(o)
            .filter(|&k| self.gap(e, k) <= self.rules.movement.melee_contact)
            .min_by(|&a, &b| self.gap(e, a).total_cmp(&self.gap(e, b)))
    }

    /// The casualties regiment `x` inflicts on regiment `y` in a round: each element in contact
    /// rolls its melee dice (a joined commander adds one to the first), `y` saves.
    fn strike<D: DiceSource>(&self, x: usize, y: usize, setup: &BattleSetup, dice: &mut D) -> u8 {
        let xr = self.regiments[x];
        let mut total = 0u8;
        let mut commander = xr.joined.is_some();
        for e in self.element_range(x) {
            let Some(o) = self.opponent(e, y) else {
                continue;
            };
            let (el, op) = (self.elements[e], self.elements[o]);
            let mut n = stats(el.troop, &self.rules).melee;
            if commander {
                n += self.rules.melee.commander_dice;
                commander = false;
            }
            let round = Round {
                charging: xr.charged && xr.rounds == 0,
                won_last_round: xr.won_last,
                pike_first_round: el.troop == Troop::Pike && xr.rounds == 0,
                shaken_or_disordered: xr.shaken || xr.disordered,
                skirmishers: el.troop == Troop::Skirmisher,
                engaged_flank_or_rear: self.aspect_from(x, el.pos, op.pos) != Aspect::Front,
            };
            let m = melee::to_hit_modifier(&round, &self.rules);
            dice.focus(Self::regiment_stream(x));
            let h = (0..n)
                .filter(|_| hits(dice.d6(), m, self.rules.melee.hit_on, &self.rules))
                .count() as u8;
            let lance = xr.charged && xr.rounds == 0 && xr.specials.has(SpecialRule::Lance);
            let save = SaveSituation {
                pike_vs_mounted: op.troop == Troop::Pike && el.troop.is_cavalry(),
                lance_vs_cavalry: lance && op.troop.is_cavalry(),
                lance_vs_infantry: lance && op.troop.is_infantry(),
                light_cover: self.area_at(op.pos, &setup.ground) == Some(AreaKind::Woods),
                armour: armour(op.troop, &self.rules),
                ..SaveSituation::default()
            };
            total = total.saturating_add(self.saves(y, op.troop, h, &save, dice));
        }
        total
    }

    /// The result modifiers of regiment `x` against `y`.
    fn standing(&self, x: usize, y: usize) -> Standing {
        let mut s = Standing::default();
        for e in self.element_range(x) {
            for k in self.element_range(y) {
                if self.gap(e, k) > self.rules.movement.melee_contact {
                    continue;
                }
                match self.aspect_from(x, self.elements[e].pos, self.elements[k].pos) {
                    Aspect::Flank => s.exposed_flank = true,
                    Aspect::Rear => s.exposed_rear = true,
                    Aspect::Front => {}
                }
                s.pike_vs_cavalry |=
                    self.elements[e].troop == Troop::Pike && self.elements[k].troop.is_cavalry();
            }
        }
        s.supports = self.supports(x);
        s
    }

    /// Friendly regiments not engaged with an element within 6" of regiment `x`'s, counted up
    /// to the most that count (none when that is none). The count does not depend on the order
    /// they are met in; only those whose centres lie in the box of `x`'s reach (`reach_box`,
    /// which holds every one not `apart`) are asked.
    fn supports(&self, x: usize) -> u8 {
        let max = u8::try_from(self.rules.melee.support_max).unwrap_or(0);
        if max == 0 {
            return 0;
        }
        let range = self.rules.melee.support_range;
        let mut n = 0u8;
        let (lo, hi) = self.reach_box(x, range);
        self.any_in_box(self.regiments[x].side, lo, hi, |r| {
            n += u8::from(self.supports_of(r, x, range));
            n >= max
        });
        n
    }

    /// Whether regiment `r` supports `x`: a friend, not gone or engaged, with an element within
    /// `range` of one of `x`'s.
    #[inline(always)]
    fn supports_of(&self, r: usize, x: usize, range: f64) -> bool {
        let reg = &self.regiments[r];
        r != x
            && !reg.gone
            && reg.engaged.is_none()
            && !self.apart(r, x, range)
            && self
                .element_range(r)
                .any(|e| self.element_range(x).any(|k| self.gap(e, k) <= range))
    }

    /// One round between regiments `a` and `b`.
    pub fn fight_round<D: DiceSource, O: Observer>(
        &mut self,
        a: usize,
        b: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let to_b = self.strike(a, b, setup, dice);
        let to_a = self.strike(b, a, setup, dice);
        let score_a = i16::from(to_b) + melee::result_modifier(&self.standing(a, b), &self.rules);
        let score_b = i16::from(to_a) + melee::result_modifier(&self.standing(b, a), &self.rules);
        self.casualties(b, to_b, LossCause::Melee, obs);
        self.casualties(a, to_a, LossCause::Melee, obs);
        emit(
            obs,
            Event::BlackPowder(Detail::MeleeRound {
                a: self.regiments[a].unit,
                b: self.regiments[b].unit,
                a_casualties: to_b,
                b_casualties: to_a,
                a_score: score_a,
                b_score: score_b,
            }),
        );
        for r in [a, b] {
            self.regiments[r].rounds = self.regiments[r].rounds.saturating_add(1);
            self.regiments[r].charged = false;
        }
        let (w, l, margin) = match melee::outcome(score_a, score_b) {
            Outcome::Draw => {
                self.regiments[a].won_last = false;
                self.regiments[b].won_last = false;
                return;
            }
            Outcome::AWins(m) => (a, b, m),
            Outcome::BWins(m) => (b, a, m),
        };
        self.regiments[w].won_last = true;
        self.regiments[l].won_last = false;
        let result = self.break_test(l, margin, dice, obs);
        self.commander_risk(l, dice, obs);
        emit(
            obs,
            Event::MeleeResult {
                winner: Some(self.regiments[w].unit),
                loser: Some(self.regiments[l].unit),
                result: match result {
                    BreakResult::Broken => ReactionResult::Rout,
                    BreakResult::Retire => ReactionResult::FailBoth,
                    BreakResult::Hold => ReactionResult::PassBoth,
                },
            },
        );
        let d = &setup.doctrines
            [usize::from(self.brigades[usize::from(self.regiments[w].brigade)].doctrine)];
        match result {
            BreakResult::Hold => {
                let back = self.rules.break_test.give_ground_move * self.regiments[l].standard_move;
                let shift = self.fall_back(l, back, setup, obs);
                if doctrine::follows_up(d) && !self.regiments[w].shaken {
                    let (p, f) = (self.regiments[w].pos, self.regiments[w].facing);
                    self.place(w, p + shift, f);
                } else {
                    self.disengage(w);
                }
            }
            BreakResult::Retire | BreakResult::Broken => {
                self.disengage(w);
                self.sweep(w, l, d, setup, dice, obs);
            }
        }
    }

    /// Ends regiment `r`'s melee on both sides.
    pub(super) fn disengage(&mut self, r: usize) {
        if let Some(o) = self.regiments[r].engaged.take() {
            let o = usize::from(o);
            if self.regiments[o].engaged == Some(r as u16) {
                self.regiments[o].engaged = None;
            }
        }
        self.regiments[r].rounds = 0;
    }

    /// Moves regiment `r` straight back `distance`, facing the same way, ending clear of its
    /// friends (`back_to`: it gives less ground when they stand behind); the shift made.
    pub(super) fn fall_back<O: Observer>(
        &mut self,
        r: usize,
        distance: f64,
        setup: &BattleSetup,
        obs: &mut O,
    ) -> Vec2 {
        let reg = self.regiments[r];
        let to = reg.pos - Vec2::from_facing(reg.facing) * distance;
        let to = Vec2::new(
            to.x.clamp(0.0, setup.ground.width),
            to.y.clamp(0.0, setup.ground.depth),
        );
        self.back_to(r, to, reg.disordered, obs) - reg.pos
    }

    /// A winner's sweeping advance after its enemy broke or retired, when `melee::sweeps` says
    /// it goes: a full move towards the nearest enemy, charging it if in reach.
    fn sweep<D: DiceSource, O: Observer>(
        &mut self,
        w: usize,
        l: usize,
        d: &crate::doctrine::DoctrineParams,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let wr = self.regiments[w];
        let victor = melee::Victor {
            horse: self.elements[usize::from(wr.first)].troop.is_cavalry(),
            shaken: wr.shaken,
            rash: wr.specials.has(SpecialRule::Rash),
        };
        // Foot never sweeps: nothing to tell.
        if !victor.horse || wr.gone {
            return;
        }
        let rash_die = || {
            dice.focus(Self::regiment_stream(w));
            dice.d6()
        };
        let goes = melee::sweeps(victor, doctrine::sweeps(d), rash_die, &self.rules);
        let target = self.regiments[l].unit;
        if !goes {
            emit(
                obs,
                Event::PursuitHalted {
                    unit: wr.unit,
                    turns: 0,
                },
            );
            return;
        }
        emit(
            obs,
            Event::PursuitStarted {
                unit: wr.unit,
                target,
            },
        );
        let reach = self.rules.melee.sweep_move * wr.standard_move;
        if let Some((t, gap)) = self.nearest_enemy(w, |r, _| r.engaged.is_none()) {
            if gap <= reach {
                self.charge(w, (t, ChargeBy::Sweep), reach, setup, dice, obs);
            } else {
                let aim = (self.elements[t].pos - wr.pos).facing();
                self.advance(w, aim, reach, setup, obs);
            }
        }
        emit(
            obs,
            Event::PursuitHalted {
                unit: wr.unit,
                turns: 1,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::orders::tests::{marston_moor, scattered};

    /// The grid and the walk of the box both count the supports that asking every friend
    /// counts: over random layouts, for every regiment.
    #[test]
    fn the_grid_counts_the_supports_the_walk_counts() {
        let mut b = marston_moor();
        let mut scatter = scattered(0x5a9909);
        let mut seen = [0usize; 3];
        let (range, max) = (b.rules.melee.support_range, b.rules.melee.support_max);
        for _ in 0..300 {
            scatter(&mut b);
            for x in 0..b.regiments.len() {
                let friends = b.side(b.regiments[x].side).iter().map(|&r| usize::from(r));
                let asked = friends.filter(|&r| b.supports_of(r, x, range)).count();
                b.grid_from = usize::MAX;
                let walked = b.supports(x);
                assert_eq!(
                    usize::from(walked),
                    asked.min(usize::try_from(max).unwrap_or(0)),
                    "{x}"
                );
                b.grid_from = 0;
                assert_eq!(b.supports(x), walked, "{x}");
                seen[usize::from(walked)] += 1;
            }
        }
        // No support, one and the most (two) all occur.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    /// With none the most that count (`melee.support_max` 0), no regiment counts a support,
    /// on layouts where two would count.
    #[test]
    fn no_support_counts_when_none_may() {
        let mut b = marston_moor();
        let mut rules = (*b.rules).clone();
        rules.melee.support_max = 0;
        let none = std::sync::Arc::new(rules);
        let mut scatter = scattered(0x5a9909);
        let mut supported = 0;
        for _ in 0..100 {
            scatter(&mut b);
            for x in 0..b.regiments.len() {
                let walked = b.supports(x);
                supported += usize::from(walked > 0);
                let two = std::mem::replace(&mut b.rules, none.clone());
                assert_eq!(b.supports(x), 0, "{x}");
                b.rules = two;
            }
        }
        assert!(supported > 100, "{supported}");
    }
}

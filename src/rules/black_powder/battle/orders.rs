//! The start of a side's turn (Elite and Brave rallies, hedgehogs stood down, commanders
//! replaced and moved) and its orders: command rolls or initiative, moves and charges.

use super::doctrine::{self, Plan, Situation};
use super::{Battle, General, emit};
use crate::army::Side;
use crate::battlefield::geometry::{Shape, angle_diff};
use crate::battlefield::{AreaKind, Ground, Vec2};
use crate::dice::DiceSource;
use crate::doctrine::DoctrineParams;
use crate::events::{Event, Observer};
use crate::rules::black_powder::command::{self, Band, OrderSituation};
use crate::rules::black_powder::events::{ChargeBy, Detail};
use crate::rules::black_powder::melee::Aspect;
use crate::rules::black_powder::morale;
use crate::rules::black_powder::shooting::max_range;
use crate::rules::black_powder::tables::{DoctrineKnobs, SpecialRule};
use crate::rules::black_powder::units::Troop;
use crate::setup::BattleSetup;

/// How far short of an obstacle a move that need not cross it stops: far above rounding, so
/// that its end is never found on the far side, and too little to matter on the table.
const OBSTACLE_SHORT: f64 = 0.01;

/// Inches a footprint may overlap a friend's and still be clear of it: rounding's, so that one
/// stopped where its way first meets a friend (touching it) is clear of it.
const FRIEND_OVERLAP: f64 = 1e-9;

impl Battle {
    /// Elite and Brave rallies, hedgehogs stood down with no horse near, commanders back.
    pub fn start_of_turn<D: DiceSource, O: Observer>(
        &mut self,
        side: Side,
        dice: &mut D,
        obs: &mut O,
    ) {
        for g in 0..self.generals.len() {
            let general = &mut self.generals[g];
            if general.side == side && general.lost && self.turn >= general.back_on {
                general.lost = false;
                emit(obs, Event::GeneralReplaced { general: g as u16 });
            }
        }
        for r in 0..self.regiments.len() {
            let reg = self.regiments[r];
            if reg.side != side || reg.gone {
                continue;
            }
            self.regiments[r].charged = false;
            self.regiments[r].hedgehog_tested = false;
            if reg.disordered && reg.specials.has(SpecialRule::Elite) {
                dice.focus(Self::regiment_stream(r));
                let roll = dice.d6();
                if morale::elite_clears_disorder(roll, &self.rules) {
                    self.regiments[r].disordered = false;
                    emit(
                        obs,
                        Event::BlackPowder(Detail::DisorderCleared {
                            unit: reg.unit,
                            roll,
                        }),
                    );
                }
            }
            if reg.shaken && reg.specials.has(SpecialRule::Brave) {
                self.brave_rally(r, dice, obs);
            }
            // Horse forces hedgehog within its range (`morale::hedgehog_forced`).
            if reg.hedgehog && !self.enemy_horse_within(r, self.rules.hedgehog.horse_range) {
                self.regiments[r].hedgehog = false;
            }
        }
    }

    /// Brave: a shaken regiment more than 12" from the enemy rallies on 4+ (ruling: its
    /// casualties fall to one below stamina).
    fn brave_rally<D: DiceSource, O: Observer>(&mut self, r: usize, dice: &mut D, obs: &mut O) {
        let gap = self
            .nearest_enemy(r, |_, _| true)
            .map_or(f64::INFINITY, |(_, g)| g);
        dice.focus(Self::regiment_stream(r));
        let roll = dice.d6();
        let success = morale::brave_rallies(roll, gap, &self.rules);
        let reg = &mut self.regiments[r];
        if success {
            reg.shaken = false;
            reg.casualties = reg.stamina.saturating_sub(1);
        }
        let cv = reg.stamina - reg.casualties.min(reg.stamina);
        emit(
            obs,
            Event::Rally {
                unit: reg.unit,
                roll,
                success,
                cv,
            },
        );
    }

    /// Orders for every brigade of `side`, then the moves and charges they allow.
    pub fn orders_phase<D: DiceSource, O: Observer>(
        &mut self,
        side: Side,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        for b in 0..self.brigades.len() {
            if self.brigades[b].side != side || self.in_reserve(b) {
                continue;
            }
            self.brigade_orders += 1;
            self.commit_reserve_on_losses(b, setup);
            self.place_commander(b, setup, obs);
            let mut brigade_roll: Option<u8> = None;
            for i in 0..self.members[b].len() {
                let r = usize::from(self.members[b][i]);
                self.order_regiment(r, b, &mut brigade_roll, setup, dice, obs);
            }
        }
    }

    /// Brigade `b`'s reserve joins its first line for good once the brigade has lost its
    /// doctrine's `commit_reserve_when_lost` share of its stamina (`doctrine::losses_commit`):
    /// the doctrine's words for its CV, and Black Powder's currency of loss. Its turn alone
    /// (`commit_reserve_turn`) comes too late in a battle of three or four turns.
    fn commit_reserve_on_losses(&mut self, b: usize, setup: &BattleSetup) {
        let d = &setup.doctrines[usize::from(self.brigades[b].doctrine)];
        let (mut lost, mut start) = (0, 0);
        for &r in &self.members[b] {
            let reg = &self.regiments[usize::from(r)];
            if !reg.waiting {
                lost += self.regiment_lost(usize::from(r));
                start += u32::from(reg.stamina);
            }
        }
        if doctrine::losses_commit(d, lost, start) {
            for i in 0..self.members[b].len() {
                self.regiments[usize::from(self.members[b][i])].reserve = false;
            }
        }
    }

    /// The commander of brigade `b`: with the unit he joined, or riding (at most his 18" move:
    /// a ruling, every commander is mounted) to behind his brigade's centre, or to the
    /// foremost regiment to join it when his doctrine leads from the front.
    fn place_commander<O: Observer>(&mut self, b: usize, setup: &BattleSetup, obs: &mut O) {
        let Some(c) = self.brigades[b].commander.map(usize::from) else {
            return;
        };
        if self.generals[c].lost {
            return;
        }
        if let Some(j) = self.generals[c].joined {
            if !self.regiments[usize::from(j)].gone {
                self.generals[c].pos = self.regiments[usize::from(j)].pos;
                return;
            }
            self.generals[c].joined = None;
        }
        let d = &setup.doctrines[usize::from(self.brigades[b].doctrine)];
        let (mut sum, mut n) = (Vec2::new(0.0, 0.0), 0.0);
        let mut front: Option<(usize, f64)> = None;
        for i in 0..self.members[b].len() {
            let r = usize::from(self.members[b][i]);
            let reg = &self.regiments[r];
            if reg.gone {
                continue;
            }
            sum = sum + reg.pos;
            n += 1.0;
            if !d.general_leads {
                continue; // only a leader looks for the foremost regiment
            }
            let nearest = self.nearest_enemy_hinted(r, self.brigade_orders);
            let gap = nearest.map_or(f64::INFINITY, |(_, g)| g);
            if front.is_none_or(|(_, f)| gap < f) {
                front = Some((r, gap));
            }
        }
        if n == 0.0 {
            return;
        }
        if let Some((r, gap)) = front
            && doctrine::joins(d, gap)
            && self.regiments[r].joined.is_none()
        {
            if !self.ride_to(c, self.regiments[r].pos) {
                return; // on his way
            }
            self.generals[c].joined = Some(r as u16);
            self.generals[c].pos = self.regiments[r].pos;
            self.regiments[r].joined = Some(c as u16);
            emit(
                obs,
                Event::BlackPowder(Detail::CommanderJoined {
                    unit: self.regiments[r].unit,
                }),
            );
            return;
        }
        let centre = sum * (1.0 / n);
        let back = match self.brigades[b].side {
            Side::Parliament => Vec2::new(0.0, -3.0),
            Side::Royalist => Vec2::new(0.0, 3.0),
        };
        self.ride_to(c, centre + back);
    }

    /// Commander `c` rides towards `to`, at most his move; true when he gets there.
    fn ride_to(&mut self, c: usize, to: Vec2) -> bool {
        let from = self.generals[c].pos;
        let (d, reach) = (from.dist(to), self.rules.movement.commander_mounted);
        self.generals[c].pos = if d <= reach {
            to
        } else {
            from + (to - from) * (reach / d)
        };
        d <= reach
    }

    /// `nearest_enemy(r, any)` for a regiment of the brigade taking its orders: the one its
    /// commander's placing found, if he looked. That still holds: in a side's orders phase no
    /// enemy moves or leaves, and no regiment is moved but by its own order. Else found afresh
    /// and kept as a hint only (under the count it was kept with, never the present one).
    fn nearest_enemy_now(&mut self, r: usize) -> Option<(usize, f64)> {
        match self.kept_nearest[r] {
            (orders, nearest) if orders == self.brigade_orders => nearest,
            (orders, _) => self.nearest_enemy_hinted(r, orders),
        }
    }

    /// `nearest_enemy(r, any)`, kept for `r` under the count `orders`. It starts from the
    /// regiment of the one last kept for `r` (the armies move a few inches a turn, so it is
    /// most often still the nearest or near it); failing that (none yet, or gone), from the
    /// last found for any regiment of the side (most often a neighbour's).
    fn nearest_enemy_hinted(&mut self, r: usize, orders: u32) -> Option<(usize, f64)> {
        let enemy = |h: &usize| {
            let reg = &self.regiments[*h];
            !reg.gone && reg.side != self.regiments[r].side
        };
        let kept = self.kept_nearest[r].1;
        let hint = (kept
            .map(|(k, _)| usize::from(self.elements[k].regiment))
            .filter(enemy))
        .or_else(|| self.last_nearest.map(usize::from).filter(enemy));
        let nearest = self.nearest_enemy_from(r, hint, |_, _| true);
        self.kept_nearest[r] = (orders, nearest);
        if let Some((k, _)) = nearest {
            self.last_nearest = Some(self.elements[k].regiment);
        }
        nearest
    }

    /// The commander an order to brigade `b` comes from: its own, or (none, or lost) the
    /// Captain-General; and whether its own is lost.
    fn order_giver(&self, b: usize) -> (Option<&General>, bool) {
        let brigade = &self.brigades[b];
        let own = brigade.commander.map(usize::from);
        let lost = own.is_some_and(|c| self.generals[c].lost);
        let from = match own {
            Some(c) if !lost => Some(c),
            _ => self.captain_generals[brigade.side.index()]
                .map(usize::from)
                .filter(|&c| !self.generals[c].lost),
        };
        (from.map(|c| &self.generals[c]), lost)
    }

    /// One regiment's order and move.
    fn order_regiment<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        b: usize,
        brigade_roll: &mut Option<u8>,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let reg = self.regiments[r];
        if reg.gone || reg.engaged.is_some() || reg.hedgehog || reg.standard_move <= 0.0 {
            return;
        }
        if reg.disarray {
            // Rallied by its brigade commander's order (it does not move this turn).
            if self.order_giver(b).0.is_some() && !self.order_giver(b).1 {
                let g = &mut self.regiments[r];
                g.disarray = false;
                g.disordered = false;
            }
            return;
        }
        if reg.disordered && self.rules.disorder.blocks_orders {
            return;
        }
        let Some((target, gap)) = self.nearest_enemy_now(r) else {
            return;
        };
        let d = &setup.doctrines[usize::from(self.brigades[b].doctrine)];
        let troop = self.elements[usize::from(reg.first)].troop;
        let knobs = doctrine::knobs_for(d, &self.rules.doctrine);
        if reg.specials.has(SpecialRule::Hedgehog)
            && doctrine::early_hedgehog_range(d, &knobs)
                .is_some_and(|range| self.enemy_horse_within(r, range))
        {
            self.hedgehog_check(r, dice, obs);
            return;
        }
        let mut situation = self.situation(r, b, (target, gap), gap);
        let mut target = target;
        if !situation.may_charge && self.barred(r, target) {
            (target, situation) = self.past_the_hedgehog((r, b), (target, situation), (d, &knobs));
        } else if !situation.may_charge && self.past_a_melee(r, target) {
            (target, situation) = self
                .free_charge((r, b), situation.gap, (d, &knobs))
                .unwrap_or((target, situation));
        }
        let plan = doctrine::plan(d, &knobs, &situation);
        let limit = match plan {
            // How far it may advance: to the contact gap beyond the reach it keeps out of.
            Plan::Advance => self
                .stand_off_reach(r, target, &situation, d)
                .map(|reach| (situation.gap - reach - self.rules.movement.contact_gap).max(0.0)),
            _ => None,
        };
        if plan == Plan::Hold || limit == Some(0.0) {
            if let Some(way) = self.stand_off(r, (target, gap)) {
                let (_, share) = self.move_share(r, b, (false, gap), brigade_roll, dice, obs);
                self.draw_back(r, way, share * reg.standard_move, setup, obs);
            }
            return;
        }
        let aim = (self.elements[target].pos - self.elements[usize::from(reg.first)].pos).facing();
        let turn_deg = angle_diff(aim, reg.facing).to_degrees();
        let individual = plan == Plan::Charge || doctrine::individual(&knobs, turn_deg);
        let (by, share) = self.move_share(r, b, (individual, gap), brigade_roll, dice, obs);
        let distance = (share * reg.standard_move).min(limit.unwrap_or(f64::INFINITY));
        if plan == Plan::Charge {
            self.charge(r, (target, by), distance, setup, dice, obs);
        } else {
            self.advance(
                r,
                if individual { aim } else { reg.facing },
                distance,
                setup,
                obs,
            );
            if troop.is_cavalry() {
                self.hedgehogs_near(r, dice, obs);
            }
        }
    }

    /// What the doctrine weighs for regiment `r` of brigade `b` going for enemy element
    /// `target`, `gap` away, its nearest enemy `nearest` away (which says whether it moves on
    /// initiative).
    fn situation(
        &self,
        r: usize,
        b: usize,
        (target, gap): (usize, f64),
        nearest: f64,
    ) -> Situation {
        let reg = self.regiments[r];
        let t_reg = self.regiments[usize::from(self.elements[target].regiment)];
        let troop = self.elements[usize::from(reg.first)].troop;
        let horse_vs_hedgehog = self.barred(r, target);
        Situation {
            turn: self.turn,
            reserve: reg.reserve,
            brigade_broken: self.brigades[b].broken,
            gap,
            reach: self.charge_reach(r, target),
            longest: self.longest_share(nearest),
            may_charge: self.charges_at_all(r) && t_reg.engaged.is_none() && !horse_vs_hedgehog,
            determined: reg.specials.has(SpecialRule::DeterminedCharge),
            ratio: f64::from(reg.stamina.saturating_sub(reg.casualties) + 1)
                / f64::from(t_reg.stamina.saturating_sub(t_reg.casualties) + 1),
            // Horse has no range to stand at; shaken horse keeping off holds wherever it is.
            range: if self.keeps_off(r) {
                f64::INFINITY
            } else if troop.is_cavalry() {
                0.0
            } else {
                self.shooting_range(r)
            },
        }
    }

    /// The largest share of a standard move a regiment `nearest` from the enemy can be given:
    /// on initiative its share (no roll), else the best command roll's.
    fn longest_share(&self, nearest: f64) -> f64 {
        if command::on_initiative(nearest, &self.rules) {
            self.rules.command.initiative_move
        } else {
            Band::ALL
                .iter()
                .map(|b| b.share(&self.rules))
                .fold(0.0, f64::max)
        }
    }

    /// Whether regiment `r` may charge anyone: not guns or skirmishers, not shaken.
    #[inline]
    fn charges_at_all(&self, r: usize) -> bool {
        let reg = &self.regiments[r];
        let troop = self.elements[usize::from(reg.first)].troop;
        !matches!(troop, Troop::Gun(_) | Troop::Skirmisher) && !reg.shaken
    }

    /// The reach of enemy element `target` that horse `r` advancing on it keeps out of: under
    /// the ruleset's `doctrine.horse_foresees_hedgehogs`, the muskets of a hedgehog, formed or
    /// foreseen, that bars it; under `doctrine.daunted_horse_stands_off`, the charge on
    /// initiative (its standard move) of an enemy that could charge it and that the doctrine
    /// `d` does not dare charge (its charge ratio). None: not horse, or neither.
    fn stand_off_reach(
        &self,
        r: usize,
        target: usize,
        s: &Situation,
        d: &DoctrineParams,
    ) -> Option<f64> {
        let troop = self.elements[usize::from(self.regiments[r].first)].troop;
        let t = usize::from(self.elements[target].regiment);
        let rules = &self.rules.doctrine;
        if !troop.is_cavalry() {
            None
        } else if rules.horse_foresees_hedgehogs && self.barred(r, target) {
            Some(self.shooting_range(t))
        } else {
            let daunted = rules.daunted_horse_stands_off
                && s.may_charge
                && !doctrine::dares(d, s)
                && self.charges_at_all(t);
            daunted.then_some(self.regiments[t].standard_move)
        }
    }

    /// Whether regiment `r` is shaken horse that the ruleset's `doctrine.shaken_horse_keeps_off`
    /// keeps out of the enemy's charge: it may not charge, so riding up to the enemy only
    /// offers it a charge it cannot meet with one of its own.
    #[inline]
    fn keeps_off(&self, r: usize) -> bool {
        let reg = &self.regiments[r];
        self.rules.doctrine.shaken_horse_keeps_off
            && reg.shaken
            && self.elements[usize::from(reg.first)].troop.is_cavalry()
    }

    /// How far regiment `r` goes on a full move charging enemy element `target`, as `charge`
    /// moves it: a pike block that must wheel to face it pays for the wheel (`turned`). Under
    /// the ruleset's `doctrine.charge_reach_after_wheel` ruling the plan weighs this, so foot
    /// does not declare a charge that stops half way at the enemy's front; else the standard
    /// move.
    fn charge_reach(&self, r: usize, target: usize) -> f64 {
        let reg = &self.regiments[r];
        // Only a pike block wheels (`turned`): the others' aim is not worked out.
        if !self.rules.doctrine.charge_reach_after_wheel || !self.has_pike(r) {
            return reg.standard_move;
        }
        let aim = self.elements[target].pos - self.elements[usize::from(reg.first)].pos;
        self.turned(r, aim.facing(), reg.standard_move).1
    }

    /// Whether regiment `r` is horse and enemy element `target` is of a hedgehog that bars it
    /// where it stands (`bars_from`).
    #[inline]
    fn barred(&self, r: usize, target: usize) -> bool {
        let t = usize::from(self.elements[target].regiment);
        let troop = self.elements[usize::from(self.regiments[r].first)].troop;
        let foresee = self.rules.doctrine.horse_foresees_hedgehogs;
        troop.is_cavalry() && self.bars_from(t, self.regiments[r].pos, foresee)
    }

    /// Whether regiment `t` bars horse at `at`: a hedgehog in good order (`bars_horse`), or,
    /// when `foresee`, foot that would form one as horse charged it (`forms_hedgehog`), with
    /// `at` before its front (seed: a hedgehog "cannot be attacked by horse if in good order to
    /// front"). The charge asks it of the hedgehog formed; the doctrine, foreseeing under the
    /// ruleset's `doctrine.horse_foresees_hedgehogs` (`barred`), so that it bars no horse the
    /// charge would let in, and takes as barring the foot whose hedgehog would stop the charge.
    #[inline]
    fn bars_from(&self, t: usize, at: Vec2, foresee: bool) -> bool {
        let reg = &self.regiments[t];
        (bars_horse(reg) || (foresee && forms_hedgehog(reg)))
            && self.aspect_from(t, reg.pos, at) == Aspect::Front
    }

    /// Horse `r` of brigade `b` barred by the hedgehog of its nearest enemy element `target`
    /// (doctrine ruling: no sane horse rides up to stand under pikes and muskets): the nearest
    /// enemy element it may charge and what its doctrine `d` sees of it when the doctrine would
    /// charge it now, else `target`: held where it stands, or, under the ruleset's
    /// `doctrine.horse_foresees_hedgehogs`, approached no nearer than the edge of its muskets
    /// (`stand_off_reach`); `stand_off` draws it back from within them. Out of line: few orders
    /// are a barred horse's.
    #[inline(never)]
    fn past_the_hedgehog(
        &self,
        (r, b): (usize, usize),
        (target, held): (usize, Situation),
        (d, knobs): (&DoctrineParams, &DoctrineKnobs),
    ) -> (usize, Situation) {
        if let Some(charge) = self.free_charge((r, b), held.gap, (d, knobs)) {
            return charge;
        }
        // Horse that foresees hedgehogs closes to the edge of the muskets (`stand_off_reach`);
        // else it holds where it stands.
        let range = if self.rules.doctrine.horse_foresees_hedgehogs {
            held.range
        } else {
            f64::INFINITY
        };
        (target, Situation { range, ..held })
    }

    /// Whether regiment `r`, which may charge, has as its nearest enemy element `target` one
    /// whose regiment is in melee (charges go at no such enemy), and the ruleset's
    /// `doctrine.charge_past_a_melee` has it look past it for an enemy free to be charged.
    #[inline]
    fn past_a_melee(&self, r: usize, target: usize) -> bool {
        let t = usize::from(self.elements[target].regiment);
        self.rules.doctrine.charge_past_a_melee
            && self.regiments[t].engaged.is_some()
            && self.charges_at_all(r)
    }

    /// The nearest enemy element regiment `r` of brigade `b` may charge (its regiment not in
    /// melee, no hedgehog barring it) and what its doctrine `d` sees of it (its nearest enemy
    /// `nearest` off), when the doctrine would charge it now; else None. Only an enemy within
    /// the longest charge the plan weighs can be charged (its standard move, which a pike
    /// block's wheel only shortens, at the share the order may give), so the search looks no
    /// farther: the nearest beyond it would be refused as well.
    fn free_charge(
        &self,
        (r, b): (usize, usize),
        nearest: f64,
        (d, knobs): (&DoctrineParams, &DoctrineKnobs),
    ) -> Option<(usize, Situation)> {
        let (at, foresee) = (
            self.regiments[r].pos,
            self.rules.doctrine.horse_foresees_hedgehogs,
        );
        let chargeable = |o: &super::Regiment, e: &super::Element| {
            o.engaged.is_none() && !self.bars_from(usize::from(e.regiment), at, foresee)
        };
        let share = knobs.charge_range_share.min(self.longest_share(nearest));
        let longest = self.regiments[r].standard_move * share;
        let (other, gap) = self.nearest_enemy_within(r, longest, chargeable)?;
        let s = self.situation(r, b, (other, gap), nearest);
        (doctrine::plan(d, knobs, &s) == Plan::Charge).then_some((other, s))
    }

    /// Where horse `r`, holding, draws back from enemy element `target` `gap` off when within
    /// the reach it keeps out of (`way_back`): a hedgehog's muskets when barred by it, the
    /// enemy's charge (its standard move) when shaken (`keeps_off`), the longer when both.
    /// Straight away from it, facing as it faces (so no individual order). None when neither
    /// or out of reach.
    fn stand_off(&self, r: usize, (target, gap): (usize, f64)) -> Option<(Vec2, f64)> {
        let t = usize::from(self.elements[target].regiment);
        let muskets = self.barred(r, target).then(|| self.shooting_range(t));
        let charge =
            (self.keeps_off(r) && self.charges_at_all(t)).then(|| self.regiments[t].standard_move);
        let reach = muskets.into_iter().chain(charge).reduce(f64::max)?;
        (gap <= reach).then(|| self.way_back(r, t, reach))
    }

    /// The way regiment `r` draws back from regiment `t`, straight away from its centre, and
    /// how far it must go for every element to stand the contact gap beyond `reach` of every
    /// one of `t`'s: its centre that far and both reaches from `t`'s.
    fn way_back(&self, r: usize, t: usize, reach: f64) -> (Vec2, f64) {
        let (me, them) = (&self.regiments[r], &self.regiments[t]);
        let clear = reach + self.rules.movement.contact_gap + me.reach + them.reach;
        let w = me.pos - them.pos;
        (w.norm(), (clear - w.len()).max(0.0))
    }

    /// Moves regiment `r` `back` inches along `dir`, facing as it faces, or as far as a move of
    /// `distance` gets it, paying as `advance` pays (the ground's share, obstacles) and stopping
    /// as it stops (short of the enemy, clear of friends: `back_to`), save that it neither turns
    /// nor flows round a pike block: it stops short of one.
    fn draw_back<O: Observer>(
        &mut self,
        r: usize,
        (dir, back): (Vec2, f64),
        distance: f64,
        setup: &BattleSetup,
        obs: &mut O,
    ) {
        let from = self.regiments[r].pos;
        let share = self.ground_share(r, from, from + dir * back.min(distance), setup);
        let distance = self.over_obstacles(from, dir, distance * share, &setup.ground);
        let (run, _) = self.clear_run(r, dir, distance.min(back));
        self.back_to(r, self.on_table(from + dir * run, setup), false, obs);
    }

    /// Regiment `r`'s longest shooting range (0: it does not shoot).
    #[inline]
    fn shooting_range(&self, r: usize) -> f64 {
        self.element_range(r)
            .map(|e| max_range(self.elements[e].troop, &self.rules))
            .fold(0.0, f64::max)
    }

    /// What moves regiment `r` (on initiative within reach of the enemy, else by a command
    /// roll) and the share of a standard move it is given.
    fn move_share<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        b: usize,
        (individual, gap): (bool, f64),
        brigade_roll: &mut Option<u8>,
        dice: &mut D,
        obs: &mut O,
    ) -> (ChargeBy, f64) {
        if command::on_initiative(gap, &self.rules) {
            let unit = self.regiments[r].unit;
            emit(obs, Event::BlackPowder(Detail::Initiative { unit }));
            return (ChargeBy::Initiative, self.rules.command.initiative_move);
        }
        let share = self.command_roll(r, b, (individual, gap), brigade_roll, dice, obs);
        (ChargeBy::Order, share)
    }

    /// A command roll for regiment `r` (one roll for the whole brigade when the order is to go
    /// straight forward), given the gap to its nearest enemy: the share of a standard move.
    fn command_roll<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        b: usize,
        (individual, enemy_gap): (bool, f64),
        brigade_roll: &mut Option<u8>,
        dice: &mut D,
        obs: &mut O,
    ) -> f64 {
        let reg = self.regiments[r];
        let (giver, lost) = self.order_giver(b);
        let enemy_near = enemy_gap <= self.rules.command.enemy_near_range;
        let situation = OrderSituation {
            commander_distance: giver.map_or(0.0, |g| g.pos.dist(reg.pos)),
            enemy_near,
            column: false,
            on_road: false,
            reliable: reg.specials.has(SpecialRule::Reliable),
            marauders: reg.specials.has(SpecialRule::Marauders),
            commander_lost: lost,
        };
        let own = giver.map_or(self.rules.command.default_rating, |g| g.rating);
        let rating = i16::from(own) + command::modifier(&situation, &self.rules);
        let roll = if individual {
            dice.focus(Self::regiment_stream(r));
            dice.sum_d6(u32::from(self.rules.command.dice)) as u8
        } else {
            *brigade_roll.get_or_insert_with(|| {
                dice.focus(self.brigade_stream(b));
                dice.sum_d6(u32::from(self.rules.command.dice)) as u8
            })
        };
        let band = command::band(i16::from(roll), rating, &self.rules);
        emit(
            obs,
            Event::BlackPowder(Detail::Order {
                unit: reg.unit,
                brigade: !individual,
                roll,
                rating: rating.clamp(-99, 99) as i8,
                band,
            }),
        );
        band.share(&self.rules)
    }

    /// The facing and distance left after a turn: a pike block turns at most 89 degrees and a
    /// wheel costs half its move.
    fn turned(&self, r: usize, want: f64, distance: f64) -> (f64, f64) {
        let reg = &self.regiments[r];
        let turn = angle_diff(want, reg.facing);
        if turn.abs() < 1e-9 || !self.has_pike(r) {
            return (want, distance);
        }
        let max = self.rules.movement.pike_max_turn_degrees.to_radians();
        let turn = turn.clamp(-max, max);
        (
            reg.facing + turn,
            distance * (1.0 - self.rules.movement.pike_wheel_cost),
        )
    }

    /// The share of a move the areas of ground allow between `a` and `b` (woods for skirmishers
    /// only); obstacles are `over_obstacles`'.
    fn ground_share(&self, r: usize, a: Vec2, b: Vec2, setup: &BattleSetup) -> f64 {
        let m = &self.rules.movement;
        let skirmisher =
            self.elements[usize::from(self.regiments[r].first)].troop == Troop::Skirmisher;
        match self.area_at(b, &setup.ground) {
            Some(AreaKind::Woods) if skirmisher => m.woods,
            // Not into woods from outside them: 0, and `advance` halts short of the edge.
            Some(AreaKind::Woods) if self.area_at(a, &setup.ground) != Some(AreaKind::Woods) => 0.0,
            Some(AreaKind::Woods) => m.woods,
            Some(AreaKind::Rough | AreaKind::Bog) if skirmisher => m.rough_skirmishers,
            Some(AreaKind::Rough | AreaKind::Bog) => m.rough,
            _ => 1.0,
        }
    }

    /// How far a move of `distance` from `from` along `dir` goes over the obstacles: crossing
    /// one costs half the move (`movement.obstacle`), so a move that would cross goes that far
    /// or just short of the first obstacle it would cross, whichever is further (it need not
    /// cross); a move that crosses none pays nothing.
    fn over_obstacles(&self, from: Vec2, dir: Vec2, distance: f64, ground: &Ground) -> f64 {
        match ground.first_obstacle_crossed(from, from + dir * distance) {
            Some(t) => (distance * self.rules.movement.obstacle).max(t * distance - OBSTACLE_SHORT),
            None => distance,
        }
    }

    /// Moves regiment `r` up to `distance` along `want` (turning first), stopping short of the
    /// enemy and of friendly pike blocks, which it flows round or is disordered behind, and
    /// ending clear of its friends (`clear_of_friends`; with nowhere clear it neither moves nor
    /// turns).
    pub fn advance<O: Observer>(
        &mut self,
        r: usize,
        want: f64,
        distance: f64,
        setup: &BattleSetup,
        obs: &mut O,
    ) {
        let (facing, mut distance) = self.turned(r, want, distance);
        let from = self.regiments[r].pos;
        let front = self.front_of(r, facing);
        let share = self.ground_share(r, from, from + front * distance, setup);
        distance *= if share == 0.0 { 0.5 } else { share };
        if share == 0.0 {
            // Ruling: short of the woods it may not enter.
            while distance > 0.25
                && self.ground_share(r, from, from + front * distance, setup) == 0.0
            {
                distance *= 0.5;
            }
            if self.ground_share(r, from, from + front * distance, setup) == 0.0 {
                return;
            }
        }
        let distance = self.over_obstacles(from, front, distance, &setup.ground);
        let (mut run, pike) = self.clear_run(r, front, distance);
        let mut dir = front;
        if let Some(p) = pike
            && run < distance / 2.0
        {
            // Flow round the pike block, either side, if that gets at least half the move.
            for side in [0.6f64, -0.6] {
                let alt = Vec2::from_facing(facing + side);
                let (alt_run, _) = self.clear_run(r, alt, distance);
                if alt_run >= distance / 2.0 && alt_run > run {
                    (run, dir) = (alt_run, alt);
                    break;
                }
            }
            if run < distance / 2.0 && run < 0.5 && !self.has_pike(r) {
                self.pike_blocked(r, p, obs);
                return;
            }
        }
        let to = self.on_table(from + dir * run, setup);
        let (to, facing, front) = match self.clear_of_friends(r, from, to, front) {
            Some(to) => (to, facing, front),
            None => (from, self.regiments[r].facing, self.regiments[r].front),
        };
        self.place_facing(r, to, facing, front);
        emit(obs, Event::moved(self.regiments[r].unit, from, to, false));
    }

    /// Where regiment `r`, going straight from `from` to `to` facing `front`, ends its move:
    /// `to`, unless its footprint there overlaps a friend's (it may pass through friends, not
    /// end on them: a ruling); then the furthest point back along the way where it overlaps
    /// none. None when there is none, not even `from` turned to `front`: it makes no move.
    pub(super) fn clear_of_friends(
        &self,
        r: usize,
        from: Vec2,
        to: Vec2,
        front: Vec2,
    ) -> Option<Vec2> {
        let len = from.dist(to);
        if len == 0.0 && front == self.regiments[r].front {
            return Some(to); // neither going nor turning: it stands as it stood
        }
        // Standing, it may still turn onto a friend: its way is then the one point `from`.
        let dir = if len > 0.0 {
            (to - from) * (1.0 / len)
        } else {
            front
        };
        let (me, side) = (self.footprint(r, from, front), self.regiments[r].side);
        let grow = Vec2::new(1.0, 1.0) * (me.radius + self.max_footprint + super::APART_MARGIN);
        let mut end = len;
        // The way overlaps each friend over one run of it: a friend the end overlaps sends it
        // back to where that run begins. Each friend does so at most once (the end only comes
        // back), and the first end clear of all is the furthest clear, whichever sent it back.
        loop {
            let at = from + dir * end;
            let mut back = None;
            // The answer does not hang on the order friends come in (`any_in_box` walks a small
            // side's list, a large side's cells).
            self.any_in_box(side, at - grow, at + grow, |n| {
                back = self.sent_back(r, n, (&me, dir), end);
                back.is_some()
            });
            match back {
                None => return Some(from + dir * end),
                Some(enter) if enter < 0.0 => return None,
                Some(enter) => end = enter,
            }
        }
    }

    /// Moves regiment `r` straight to `to` (a fall back, a retirement or horse drawing back
    /// from a hedgehog), facing as it faces,
    /// and tells the move: it ends short of `to` when a friend stands there
    /// (`clear_of_friends`), or stays where it is when nowhere on the way is clear. Where it
    /// ends.
    pub(super) fn back_to<O: Observer>(
        &mut self,
        r: usize,
        to: Vec2,
        disordered: bool,
        obs: &mut O,
    ) -> Vec2 {
        let reg = self.regiments[r];
        let to = self
            .clear_of_friends(r, reg.pos, to, reg.front)
            .unwrap_or(reg.pos);
        self.place(r, to, reg.facing);
        emit(obs, Event::moved(reg.unit, reg.pos, to, disordered));
        to
    }

    /// Where friend `n` sends back the end of regiment `r`'s way (its footprint `me` at the
    /// way's start, going along `dir`), `end` along it: to where the way first meets `n`, when
    /// the end overlaps it.
    fn sent_back(&self, r: usize, n: usize, (me, dir): (&Shape, Vec2), end: f64) -> Option<f64> {
        let f = &self.regiments[n];
        if n == r || f.gone {
            return None;
        }
        // A friend whose footprint's circle is clear of the end's is clear of it.
        let end_at = me.centre + dir * end;
        let apart = me.radius + f.radius;
        if (end_at - f.pos).len2() > apart * apart {
            return None;
        }
        let theirs = self.footprint(n, f.pos, f.front);
        // Most friends near are clear of the end (side by side in a line): told by the sides'
        // shadows there, before the way's run over them is sought.
        if me.at(end_at).gap_lower_bound(&theirs) >= 0.0 {
            return None;
        }
        me.overlap_along(dir, &theirs, FRIEND_OVERLAP)
            .and_then(|(enter, leave)| (enter < end && end < leave).then_some(enter))
    }

    /// Keeps a point on the table.
    fn on_table(&self, p: Vec2, setup: &BattleSetup) -> Vec2 {
        Vec2::new(
            p.x.clamp(0.0, setup.ground.width),
            p.y.clamp(0.0, setup.ground.depth),
        )
    }

    /// How far regiment `r` can go along `dir` (up to `max`) before an enemy comes within the
    /// contact gap or it meets a friendly pike block (returned when it is what stops it).
    fn clear_run(&self, r: usize, dir: Vec2, max: f64) -> (f64, Option<usize>) {
        let side = self.regiments[r].side;
        let me = &self.regiments[r];
        // Pikes' gap is 0, enemies' the contact gap: the larger bounds both.
        let within = self.reach(r) + self.rules.movement.contact_gap.max(0.0);
        // (limit, the regiment whose element set it): the soonest stop, the lowest-numbered
        // regiment among equals, so the cells may be walked in any order.
        let mut stop = (max, None);
        // Only centres within the path's box grown by both reaches and the gap can stop it.
        let (end, grow) = (
            me.pos + dir * max,
            within + self.max_reach + super::APART_MARGIN,
        );
        let lo = Vec2::new(me.pos.x.min(end.x) - grow, me.pos.y.min(end.y) - grow);
        let hi = Vec2::new(me.pos.x.max(end.x) + grow, me.pos.y.max(end.y) + grow);
        for s in [side.other(), side] {
            self.any_in_box(s, lo, hi, |n| {
                let oreg = &self.regiments[n];
                // Of friends, only pike blocks stop it. An element stops the run only within
                // its gap of some element's path, so `n`'s centre is within both reaches and
                // the gap of the centre's path.
                let by = (s != side || self.pike[n]) && n != r && !oreg.gone;
                if by && !off_run(me.pos, (dir, max), oreg.pos, within + oreg.reach) {
                    for o in &self.elements[self.element_range(n)] {
                        self.clear_run_element(r, (n, o), (dir, max), &mut stop);
                    }
                }
                false
            });
        }
        let (limit, by) = stop;
        (
            limit.max(0.0),
            by.filter(|&n| self.regiments[n].side == side),
        )
    }

    /// `clear_run` for element `o` of regiment `n`: lowers the stop (limit, by whom) if it
    /// stops regiment `r` sooner, or as soon and `n` is numbered lower.
    fn clear_run_element(
        &self,
        r: usize,
        (n, o): (usize, &super::Element),
        (dir, max): (Vec2, f64),
        stop: &mut (f64, Option<usize>),
    ) {
        let me = &self.regiments[r];
        let gap = if self.regiments[n].side != me.side {
            self.rules.movement.contact_gap
        } else if o.troop == Troop::Pike {
            0.0
        } else {
            return;
        };
        // Off every element's path by more than the gap: never in the way.
        if off_run(
            me.pos,
            (dir, max),
            o.pos,
            self.reach(r) + o.depth / 2.0 + gap,
        ) {
            return;
        }
        for e in self.element_range(r) {
            let el = &self.elements[e];
            let reach = (el.depth + o.depth) / 2.0 + gap;
            let s = ray_hit(el.pos, dir, o.pos, reach);
            if s < stop.0 || (s == stop.0 && stop.1.is_some_and(|by| n < by)) {
                *stop = (s, Some(n));
            }
        }
    }

    /// The seed: a unit that cannot pass a friendly pike block is disordered and makes its way
    /// to the rear of the block, to be rallied by its brigade commander.
    fn pike_blocked<O: Observer>(&mut self, r: usize, p: usize, obs: &mut O) {
        let pike = self.regiments[p];
        let back =
            pike.pos - Vec2::from_facing(pike.facing) * (self.rules.derive.element_depth * 2.0);
        let facing = self.regiments[r].facing;
        let from = self.regiments[r].pos;
        self.place(r, back, facing);
        let reg = &mut self.regiments[r];
        reg.disordered = true;
        reg.disarray = true;
        emit(obs, Event::moved(reg.unit, from, back, true));
        emit(
            obs,
            Event::BlackPowder(Detail::PikeBlocked {
                unit: reg.unit,
                pike: pike.unit,
            }),
        );
    }

    /// Infantry with the Hedgehog rule threatened by horse: in good order it forms; disordered
    /// it rolls a D6 (1-3 formed). Once a turn.
    pub fn hedgehog_check<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let reg = self.regiments[r];
        if reg.hedgehog
            || reg.hedgehog_tested
            || reg.gone
            || reg.engaged.is_some()
            || !reg.specials.has(SpecialRule::Hedgehog)
        {
            return;
        }
        self.regiments[r].hedgehog_tested = true;
        let roll = reg.disordered.then(|| {
            dice.focus(Self::regiment_stream(r));
            dice.d6()
        });
        let formed = morale::hedgehog_formed(reg.disordered, roll, &self.rules);
        self.regiments[r].hedgehog = formed;
        emit(
            obs,
            Event::BlackPowder(Detail::Hedgehog {
                unit: reg.unit,
                formed,
                roll,
            }),
        );
    }

    /// Every enemy infantry regiment within 8" of horse regiment `h` tests for hedgehog.
    pub(super) fn hedgehogs_near<D: DiceSource, O: Observer>(
        &mut self,
        h: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let range = self.rules.hedgehog.horse_range;
        // `hedgehog_check` passes over a regiment without the Hedgehog rule: only those with it
        // are walked, or when they are many, those of them in the grid's cells within reach.
        let enemy = self.regiments[h].side.other().index();
        if self.hedgehogs[enemy].len() < self.grid_from {
            for i in 0..self.hedgehogs[enemy].len() {
                let r = usize::from(self.hedgehogs[enemy][i]);
                if self.forces_hedgehog(r, h, range) {
                    self.hedgehog_check(r, dice, obs);
                }
            }
        } else {
            let mut near = std::mem::take(&mut self.near_regiments);
            self.hedgehogs_in_grid(h, range, &mut near);
            for &r in &near {
                if self.forces_hedgehog(usize::from(r), h, range) {
                    self.hedgehog_check(usize::from(r), dice, obs);
                }
            }
            self.near_regiments = near;
        }
    }

    /// Whether horse `h` forces hedgehog regiment `r` to test: `r` still on the table and not
    /// formed, an element of `h` within the test's reach of one of `r`'s (`range` bounds it).
    #[inline(always)]
    fn forces_hedgehog(&self, r: usize, h: usize, range: f64) -> bool {
        let reg = &self.regiments[r];
        !(reg.gone || reg.hedgehog || self.apart(r, h, range))
            && self.element_range(r).any(|e| {
                self.element_range(h)
                    .any(|k| morale::hedgehog_forced(self.gap(e, k), &self.rules))
            })
    }

    /// Into `near`, in index order, the enemy regiments with the Hedgehog rule in the grid's
    /// cells that hold every one not `apart` from horse `h` by `within`: for many of them,
    /// where walking them all would cost more.
    fn hedgehogs_in_grid(&self, h: usize, within: f64, near: &mut Vec<u16>) {
        near.clear();
        let (lo, hi) = self.reach_box(h, within);
        self.grid
            .in_box(self.regiments[h].side.other(), lo, hi, |r| {
                if self.regiments[r].specials.has(SpecialRule::Hedgehog) {
                    near.push(r as u16);
                }
            });
        near.sort_unstable();
    }

    /// A charge by regiment `r` on enemy element `target` with `distance` of move: hedgehogs,
    /// then closing fire, then contact if it still goes in.
    pub fn charge<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        (target, by): (usize, ChargeBy),
        distance: f64,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        let t = usize::from(self.elements[target].regiment);
        let cavalry = self.elements[usize::from(self.regiments[r].first)]
            .troop
            .is_cavalry();
        if cavalry {
            self.hedgehog_check(t, dice, obs);
        }
        let aim =
            self.elements[target].pos - self.elements[usize::from(self.regiments[r].first)].pos;
        let (facing, distance) = self.turned(r, aim.facing(), distance);
        let from = self.regiments[r].pos;
        self.place(r, from, facing);
        // The element of the charger nearest the target leads.
        let lead = self
            .element_range(r)
            .min_by(|&a, &b| self.gap(a, target).total_cmp(&self.gap(b, target)))
            .unwrap_or(usize::from(self.regiments[r].first));
        let need = self.gap(lead, target);
        let tr = self.regiments[t];
        let blocked = cavalry && self.bars_from(t, from, false);
        let unit = self.regiments[r].unit;
        let told = |obs: &mut O, home| {
            let target = tr.unit;
            emit(
                obs,
                Event::BlackPowder(Detail::Charge {
                    unit,
                    target,
                    home,
                    by,
                }),
            );
        };
        if need > distance || blocked {
            told(obs, false);
            self.place(r, from, self.regiments[r].facing);
            let short = distance.min((need - self.rules.movement.contact_gap).max(0.0));
            self.close_on(r, (target, lead), (from, facing), (short, false), obs);
            if cavalry {
                self.hedgehogs_near(r, dice, obs);
            }
            return false;
        }
        if self.closing_fire(t, r, setup, dice, obs) {
            // A charger broken by the fire has already left the story.
            if !self.regiments[r].gone {
                told(obs, false);
            }
            return false;
        }
        self.close_on(r, (target, lead), (from, facing), (need, true), obs);
        self.lock_in_melee(r, t);
        told(obs, true);
        true
    }

    /// Moves charger `r` from `from` by `distance` along the line from its leading element
    /// `lead` to enemy element `target`, facing `facing`, and tells the move. A charge that
    /// goes `home` ends in contact wherever its friends stand; one that falls short ends clear
    /// of them, as any move does (`clear_of_friends`), or stays as it stood (as `r` stands
    /// when called for it).
    fn close_on<O: Observer>(
        &mut self,
        r: usize,
        (target, lead): (usize, usize),
        (from, facing): (Vec2, f64),
        (distance, home): (f64, bool),
        obs: &mut O,
    ) {
        let dir = (self.elements[target].pos - self.elements[lead].pos).norm();
        let to = from + dir * distance;
        let (to, facing) = if home {
            (to, facing)
        } else {
            let stay = (from, self.regiments[r].facing);
            self.clear_of_friends(r, from, to, self.front_of(r, facing))
                .map_or(stay, |to| (to, facing))
        };
        self.place(r, to, facing);
        emit(obs, Event::moved(self.regiments[r].unit, from, to, false));
    }

    /// Charger `r` and regiment `t` locked in a new melee: no rounds fought yet, and the
    /// defender out of its hedgehog.
    fn lock_in_melee(&mut self, r: usize, t: usize) {
        let a = &mut self.regiments[r];
        a.engaged = Some(t as u16);
        a.charged = true;
        a.rounds = 0;
        a.won_last = false;
        let d = &mut self.regiments[t];
        d.engaged = Some(r as u16);
        d.rounds = 0;
        d.won_last = false;
        d.hedgehog = false;
    }
}

/// Whether regiment `t` is a hedgehog in good order (not shaken: a ruling), which horse may
/// not charge.
fn bars_horse(t: &super::Regiment) -> bool {
    t.hedgehog && !t.shaken
}

/// Whether `t` would form a hedgehog in good order, without a throw, as horse charged it
/// (`hedgehog_check`): foot with the Hedgehog rule, not yet tested this turn, neither
/// disordered (it would throw) nor shaken (no good order), nor in melee.
fn forms_hedgehog(t: &super::Regiment) -> bool {
    t.specials.has(SpecialRule::Hedgehog)
        && !(t.hedgehog_tested || t.disordered || t.shaken || t.gone)
        && t.engaged.is_none()
}

/// Whether `c` is further than `within` (plus a margin for rounding) from the path `p` to
/// `p + dir * max` (`dir` a unit vector). A point of a run that ends within `reach` of `c` lies
/// on the path of an element offset from `p`; with `within` at least that offset plus `reach`,
/// a `c` off the run is never met by it (`ray_hit` returns no distance below `max`).
#[inline]
fn off_run(p: Vec2, (dir, max): (Vec2, f64), c: Vec2, within: f64) -> bool {
    let w = c - p;
    let along = w.dot(dir).clamp(0.0, max);
    let (dx, dy) = (w.x - dir.x * along, w.y - dir.y * along);
    let bound = within + super::APART_MARGIN;
    dx * dx + dy * dy > bound * bound
}

/// How far along `dir` from `p` a point gets before coming within `reach` of `c` (infinite when
/// it never does; 0 when it already is and the move does not take it away).
fn ray_hit(p: Vec2, dir: Vec2, c: Vec2, reach: f64) -> f64 {
    let w = c - p;
    let proj = w.dot(dir);
    let d2 = w.dot(w);
    if d2 < reach * reach {
        return if proj > 0.0 { 0.0 } else { f64::INFINITY };
    }
    if proj <= 0.0 {
        return f64::INFINITY;
    }
    let perp2 = d2 - proj * proj;
    if perp2 >= reach * reach {
        return f64::INFINITY;
    }
    proj - (reach * reach - perp2).sqrt()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::black_powder::tables::BlackPowderRules;
    use crate::scenario::Scenario;

    /// A battle of Marston Moor's regiments scattered at random over its table (a few gone).
    pub(in crate::rules::black_powder) fn scattered(seed: u64) -> impl FnMut(&mut Battle) {
        let mut x = seed;
        let mut next = move || {
            // xorshift64*: the test's own numbers, not a battle's dice.
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        };
        move |b: &mut Battle| {
            for r in 0..b.regiments.len() {
                let pos = Vec2::new(next() * b.table.0, next() * b.table.1);
                b.place(r, pos, next() * std::f64::consts::TAU);
                b.regiments[r].gone = next() < 0.1;
            }
        }
    }

    /// The grid's hedgehogs hold every one the walk finds within the horse range, in index
    /// order: over random layouts, for every horse, the two lists less those `apart` agree.
    #[test]
    fn the_grid_finds_the_hedgehogs_the_walk_finds() {
        let mut b = marston_moor();
        let mut scatter = scattered(0x4ed9e);
        let range = b.rules.hedgehog.horse_range;
        let (mut walked, mut gridded, mut found) = (Vec::new(), Vec::new(), 0);
        for trial in 0..300 {
            scatter(&mut b);
            for h in 0..b.regiments.len() {
                let near = |b: &Battle, list: &Vec<u16>| -> Vec<u16> {
                    let not_apart = |&&r: &&u16| !b.apart(usize::from(r), h, range);
                    list.iter().filter(not_apart).copied().collect()
                };
                let enemy = b.regiments[h].side.other().index();
                walked.clone_from(&b.hedgehogs[enemy]);
                b.hedgehogs_in_grid(h, range, &mut gridded);
                assert!(gridded.is_sorted(), "{trial} {h}");
                assert_eq!(near(&b, &walked), near(&b, &gridded), "{trial} {h}");
                found += near(&b, &walked).len();
            }
        }
        assert!(found > 1000, "{found}");
    }

    pub(in crate::rules::black_powder) fn marston_moor() -> Battle {
        let setup = Scenario::load_builtin("marston_moor", &[])
            .and_then(|s| s.setup())
            .expect("built-in scenario");
        Battle::new(std::sync::Arc::new(BlackPowderRules::builtin()), &setup)
    }

    /// `clear_run` with no bound at all: every enemy element and friendly pike block, in index
    /// order, the first to stop the run soonest counting.
    fn clear_run_in_full(b: &Battle, r: usize, dir: Vec2, max: f64) -> (f64, Option<usize>) {
        let me = b.regiments[r];
        let (mut limit, mut pike) = (max, None);
        for n in (0..b.regiments.len()).filter(|&n| n != r && !b.regiments[n].gone) {
            for o in &b.elements[b.element_range(n)] {
                let gap = if b.regiments[n].side != me.side {
                    b.rules.movement.contact_gap
                } else if o.troop == Troop::Pike {
                    0.0
                } else {
                    continue;
                };
                for e in b.element_range(r) {
                    let el = &b.elements[e];
                    let s = ray_hit(el.pos, dir, o.pos, (el.depth + o.depth) / 2.0 + gap);
                    if s < limit {
                        limit = s;
                        pike = (b.regiments[n].side == me.side).then_some(n);
                    }
                }
            }
        }
        (limit.max(0.0), pike)
    }

    /// The run's corridor rules out only what could not stop it: over random layouts
    /// `clear_run` answers as the full scan does, to the bit, stopped runs and pike blocks
    /// included.
    #[test]
    fn clear_run_answers_as_the_full_scan() {
        let mut b = marston_moor();
        let mut scatter = scattered(0x5eed);
        let (mut stopped, mut by_pike) = (0, 0);
        for trial in 0..400 {
            scatter(&mut b);
            // The boxes searched by the sweep, and by the grid.
            b.grid_from = if trial % 2 == 0 { usize::MAX } else { 0 };
            for r in (0..b.regiments.len()).filter(|&r| !b.regiments[r].gone) {
                let dir = Vec2::from_facing(trial as f64 * 0.37 + r as f64);
                let max = (trial % 19) as f64;
                let got = b.clear_run(r, dir, max);
                let want = clear_run_in_full(&b, r, dir, max);
                assert_eq!(got.0.to_bits(), want.0.to_bits(), "trial {trial} r {r}");
                assert_eq!(got.1, want.1, "trial {trial} r {r}");
                stopped += usize::from(got.0 < max);
                by_pike += usize::from(got.1.is_some());
            }
        }
        // Both kinds of stop occur (the layouts test something).
        assert!(stopped > 1000 && by_pike > 100, "{stopped} {by_pike}");
    }
}

//! Steps 7 and 12: movement orders, their LP costs, range-band stops, formation changes,
//! unlimbering, terrain and the interpenetration limit; then completing moves and closing
//! charges to the stand-off the target chose.

use std::cell::Cell;

use super::cache::Spot;
use super::{Battle, Turn, emit};
use crate::army::{Formation, Side, UnitId, UnitKind, UnitStatus};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::{
    HalfAngle, March, Shape, ceil_u64, dist_point_segment, reach_limit, within_arc,
};
use crate::dice::DiceSource;
use crate::doctrine::{Doctrine, Order};
use crate::events::{Event, Observer, ReactionCause, ReactionResult};
use crate::rules::ironsides::charge as charge_rules;
use crate::rules::ironsides::fire;
use crate::rules::ironsides::leadership::{self, MoveOrders};
use crate::rules::ironsides::movement;
use crate::setup::BattleSetup;

/// A move begun in step 7 and completed in step 12.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendingMove {
    pub unit: UnitId,
    pub order: Order,
    /// Movement allowance left (inches).
    pub left: f64,
}

/// Closest a unit advances to an enemy without charging.
const ADVANCE_GAP: f64 = 2.0;
/// A turn of more than this (radians) is a wheel or incline: a formation change.
/// (The cosine is checked by a test.)
const WHEEL_LIMIT: HalfAngle = HalfAngle {
    radians: 0.4,
    cos: 0.9210609940028851,
};
/// Moves look for range bands and other units at every half inch.
const MARCH_STEP: f64 = 0.5;
/// The most units of one command costed as possible members of a group (more move alone).
const MAX_GROUPED: usize = 64;

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Step 7: every unit of the moving side gets its order; the command pays LPs; units move,
    /// halting where they first enter an enemy's range band.
    pub(super) fn movement(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving;
        // "An Opportunity Charge at the start or end of their opponent's movement phase": the
        // start's go in at once, before anyone moves.
        self.charges.clear();
        self.opportunity_charges(true);
        self.resolve_charges();
        self.pending.clear();
        // While orders are given nothing moves: the doctrine may keep answers until they are.
        self.begin_orders();
        for ci in 0..self.commands.len() {
            // A command in reserve holds: no orders, no LPs spent.
            if self.commands[ci].side != side || self.in_reserve(ci as u16) {
                continue;
            }
            let acting = self.acting_commander(setup, ci as u16);
            let attached = acting.and_then(|g| self.commanders[usize::from(g)].attached_unit);
            let first = self.pending.len();
            for k in 0..self.commands[ci].units.len() {
                let id = self.commands[ci].units[k];
                let u = &self.units[usize::from(id)];
                if u.is_active() && u.move_spent_next_turn {
                    // A retreat or rout since its last move was this move.
                    self.units[usize::from(id)].move_spent_next_turn = false;
                    continue;
                }
                if !u.is_active() || u.pinned || u.pursuing > 0 {
                    continue;
                }
                let order = self.ai.order(&self.b.view(setup), id);
                let Some(order) = self.legal_order(id, order) else {
                    continue;
                };
                let u = &self.units[usize::from(id)];
                let left =
                    movement::move_allowance(rules, u, matches!(order, Order::FallBack { .. }));
                self.pending.push(PendingMove {
                    unit: id,
                    order,
                    left,
                });
            }
            // Drop the last orders until the command can pay; LPs spent on rallies are gone.
            let lps = self.commands[ci].lps;
            let mut cost = self.orders_cost(rules, first, attached);
            while cost > lps && self.pending.len() > first {
                self.pending.pop();
                cost = self.orders_cost(rules, first, attached);
            }
            self.commands[ci].lps -= cost.min(lps);
        }
        self.end_orders();
        // Execute in order, halting at range bands.
        for i in 0..self.pending.len() {
            let p = self.pending[i];
            let left = self.execute(p, true);
            self.pending[i].left = left;
        }
    }

    /// Step 12: units that were not stopped by a reaction complete their moves; chargers close
    /// to the stand-off and test reaction, needing both dice to make contact.
    pub(super) fn complete_movement(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.charges.clear();
        for i in 0..self.pending.len() {
            let p = self.pending[i];
            let u = &self.units[usize::from(p.unit)];
            if !u.is_active() || u.pinned || u.no_advance || u.moved && p.left <= 0.0 {
                continue;
            }
            match p.order {
                Order::Charge { target } => {
                    let t = &self.units[usize::from(target)];
                    if !t.is_active() || t.pinned {
                        continue;
                    }
                    let dist = self.distance(p.unit, target);
                    if dist > p.left {
                        // Out of reach: it closes as far as it may.
                        let to = t.pos;
                        self.execute(
                            PendingMove {
                                unit: p.unit,
                                order: Order::Advance { to },
                                left: p.left,
                            },
                            false,
                        );
                        continue;
                    }
                    let standoff = charge_rules::standoff(
                        rules,
                        self.ai.standoff(&self.b.view(setup), target, p.unit),
                    );
                    let start = self.units[usize::from(p.unit)].pos;
                    self.close_to(p.unit, target, standoff);
                    emit(
                        self.obs,
                        Event::ChargeDeclared {
                            unit: p.unit,
                            target,
                            standoff,
                        },
                    );
                    // Its charge this half-turn, whether it closes or not.
                    self.charged_or_fought(rules, p.unit);
                    let test = self.react(p.unit, ReactionCause::ToCharge);
                    match test {
                        ReactionResult::PassBoth => self.charges.push(super::ChargePlan {
                            charger: p.unit,
                            target,
                            standoff,
                            start,
                            opportunity: false,
                        }),
                        ReactionResult::PassOne => emit(
                            self.obs,
                            Event::ChargeFailed {
                                unit: p.unit,
                                target,
                            },
                        ),
                        ReactionResult::FailBoth | ReactionResult::Rout => {
                            emit(
                                self.obs,
                                Event::ChargeFailed {
                                    unit: p.unit,
                                    target,
                                },
                            );
                            self.after_failed_reaction(p.unit, test);
                        }
                    }
                }
                Order::Advance { .. } | Order::FallBack { .. } if p.left > 0.0 => {
                    self.execute(p, false);
                }
                _ => {}
            }
        }
        self.opportunity_charges(false);
    }

    /// Opportunity charges: the other side's horse, unengaged and not charged, may charge an
    /// enemy within reach in its front arc at the start or the end of its side's move (2
    /// emergency-response dice).
    fn opportunity_charges(&mut self, at_start: bool) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving.other();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.side != side
                || !u.is_active()
                || !u.is_cavalry()
                || u.pinned
                || u.broken
                || u.pursuing > 0
                || u.formation == Formation::MarchColumn
            {
                continue;
            }
            let id = i as UnitId;
            if self.charge_is_spent(id)
                || self
                    .charges
                    .iter()
                    .any(|c| c.target == id || c.charger == id)
            {
                continue;
            }
            let reach = charge_rules::support_charge_reach(rules, u);
            // The nearest enemy within reach in the front arc, not already in a charge (ties
            // to the lower id: they come in id order).
            let me = self.shape(id);
            let mut target: Option<(f64, UnitId)> = None;
            self.for_near(&me, side.other(), reach, |e| {
                if self.units[usize::from(e)].pinned {
                    return;
                }
                let d = me.dist(&self.shape(e));
                if d <= reach
                    && target.is_none_or(|(best, _)| d < best)
                    && self.in_front_arc(id, e)
                    && !self.charges.iter().any(|c| c.target == e || c.charger == e)
                {
                    target = Some((d, e));
                }
            });
            let Some((dist, enemy)) = target else {
                continue;
            };
            let v = self.b.view(setup);
            let go = if at_start {
                self.ai.opportunity_charge_at_start(&v, id, enemy)
            } else {
                self.ai.opportunity_charge(&v, id, enemy)
            };
            if !go {
                continue;
            }
            let ok = self.countercharge_dice(id, enemy);
            if ok >= 1 {
                let start = self.units[i].pos;
                let standoff = dist.clamp(rules.charge.standoff_min, rules.charge.standoff_max);
                self.charges.push(super::ChargePlan {
                    charger: id,
                    target: enemy,
                    standoff,
                    start,
                    opportunity: true,
                });
            }
        }
    }
}

impl Battle {
    /// The LPs a command's orders `pending[first..]` cost: the unit its general leads moves
    /// free (and every other then costs double); guns pay by weight; units moving straight on
    /// together pay 1 LP a group; wheels, formation changes and lone moves 1 LP each.
    fn orders_cost(
        &self,
        rules: &crate::rules::ironsides::IronsidesRules,
        first: usize,
        attached: Option<UnitId>,
    ) -> u8 {
        let mut orders = MoveOrders {
            doubled: attached.is_some(),
            ..MoveOrders::default()
        };
        // Units that may join a group, by their index in `pending` (a command's units fit).
        let mut groupable = [0usize; MAX_GROUPED];
        let mut n = 0;
        for (i, p) in self.pending.iter().enumerate().skip(first) {
            if Some(p.unit) == attached {
                continue;
            }
            let u = &self.units[usize::from(p.unit)];
            let straight = match p.order {
                Order::Advance { to } | Order::FallBack { to } => !self.wheels(p.unit, to),
                Order::Charge { target } => {
                    !self.wheels(p.unit, self.units[usize::from(target)].pos)
                }
                _ => false,
            };
            match (u.kind, p.order) {
                (
                    UnitKind::Artillery(w),
                    Order::Advance { .. } | Order::FallBack { .. } | Order::Site { .. },
                ) => orders.guns[w as usize] += 1,
                (_, Order::Hold) => {}
                _ if straight && n < MAX_GROUPED => {
                    groupable[n] = i;
                    n += 1;
                }
                _ => orders.individual += 1,
            }
        }
        orders.groups = self.count_groups(rules, &groupable[..n]);
        leadership::move_cost(rules, &orders)
    }

    /// How many groups the straight moves `pending[idx]` make: units join one group when they
    /// move the same way, face the same way, and stand side by side with gaps of up to
    /// `leadership.group_gap` or one behind the other within
    /// `leadership.group_second_line_distance` (a second line following its first).
    fn count_groups(&self, rules: &crate::rules::ironsides::IronsidesRules, idx: &[usize]) -> u8 {
        let l = &rules.leadership;
        // Union-find over the few units of one command (at most `MAX_GROUPED`), on the stack.
        let mut parent = [0u8; MAX_GROUPED];
        for (k, p) in parent.iter_mut().enumerate().take(idx.len()) {
            *p = k as u8;
        }
        fn root(parent: &mut [u8], k: usize) -> usize {
            let mut k = k as u8;
            while parent[usize::from(k)] != k {
                parent[usize::from(k)] = parent[usize::from(parent[usize::from(k)])];
                k = parent[usize::from(k)];
            }
            usize::from(k)
        }
        for a in 0..idx.len() {
            for b in a + 1..idx.len() {
                let (pa, pb) = (self.pending[idx[a]], self.pending[idx[b]]);
                if self.move_together(l, pa, pb) {
                    let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                    parent[ra] = rb as u8;
                }
            }
        }
        (0..idx.len())
            .filter(|&k| root(&mut parent, k) == k)
            .count()
            .min(usize::from(u8::MAX)) as u8
    }

    /// Whether two units' moves can be paid as one group's.
    fn move_together(
        &self,
        l: &crate::rules::ironsides::tables::Leadership,
        a: PendingMove,
        b: PendingMove,
    ) -> bool {
        let kind = |o: Order| match o {
            Order::FallBack { .. } => 1,
            _ => 0,
        };
        let (ua, ub) = (
            &self.units[usize::from(a.unit)],
            &self.units[usize::from(b.unit)],
        );
        let (fa, fb) = (self.facing_vector(a.unit), self.facing_vector(b.unit));
        if kind(a.order) != kind(b.order) || fa.dot(fb) < WHEEL_LIMIT.cos {
            return false;
        }
        // Side by side: the enclosing circles first (a pair farther apart than the gap by a
        // margin far above rounding measures farther), then the distance.
        let (sa, sb) = (self.shape(a.unit), self.shape(b.unit));
        let lb = sa.dist_lower_bound(&sb);
        if (lb.is_nan() || lb <= l.group_gap + 1e-9) && sa.dist(&sb) <= l.group_gap {
            return true;
        }
        // One behind the other: the second line's centre within the first's frontage.
        let rel = ub.pos - ua.pos;
        let across = rel.dot(fa.right()).abs();
        let behind = rel.dot(fa).abs();
        across <= 0.5 * ua.frontage.max(ub.frontage)
            && behind <= l.group_second_line_distance + 0.5 * (ua.depth + ub.depth)
    }

    /// Whether moving towards `to` needs a wheel or incline (a formation change).
    fn wheels(&self, id: UnitId, to: Vec2) -> bool {
        let d = to - self.units[usize::from(id)].pos;
        d.len() > 0.1
            && !within_arc(
                self.facing_vector(id),
                self.units[usize::from(id)].facing,
                d,
                WHEEL_LIMIT,
            )
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// The engine's legality check on an order: clamps or refuses what the rules forbid.
    fn legal_order(&mut self, id: UnitId, order: Order) -> Option<Order> {
        let setup = self.setup;
        let rules = &*setup.rules;
        let u = &self.b.units[usize::from(id)];
        let forward = matches!(
            order,
            Order::Advance { .. } | Order::Charge { .. } | Order::Form(_) | Order::Site { .. }
        );
        if forward && (u.no_advance || u.halt_next_turn) {
            return None;
        }
        if forward && !self.in_radius(setup, id) {
            // Out of radius: no forward move nor formation change, but horse, dragoons,
            // skirmishers and very light guns may go half forward on 1D6 <= CV (halved later).
            let may = u.is_cavalry()
                || u.kind == UnitKind::Dragoons
                || u.is_skirmisher()
                || u.kind == UnitKind::Artillery(crate::army::GunWeight::VeryLight);
            self.dice.focus(super::unit_stream(id));
            if !(rules.movement.out_of_radius_half_move
                && may
                && matches!(order, Order::Advance { .. })
                && self.dice.d6() <= u.cv)
            {
                return None;
            }
        }
        match order {
            Order::Form(f) => {
                let ok = match f {
                    Formation::Hedgehog | Formation::MarchColumn | Formation::Line => {
                        u.kind.is_foot()
                            || (f != Formation::Hedgehog && u.kind == UnitKind::Dragoons)
                    }
                    Formation::Dismounted => u.kind == UnitKind::Dragoons,
                    _ => false,
                };
                // No march column within 12" of the enemy: the colonels are not suicidal.
                let ok = ok
                    && !(f == Formation::MarchColumn
                        && self.nearest_enemy_distance(id) < rules.movement.no_march_column_within)
                    && f != u.formation;
                ok.then_some(order)
            }
            Order::Unlimber => {
                (u.kind.is_gun() && u.formation == Formation::Limbered).then_some(order)
            }
            Order::Site { to } => (u.kind.is_gun()
                && u.formation == Formation::Limbered
                && to.x.is_finite()
                && to.y.is_finite())
            .then_some(order),
            Order::Charge { target } => {
                let t = self.units.get(usize::from(target))?;
                (t.side != u.side && t.is_active() && !u.kind.is_gun() && u.cv > 0).then_some(order)
            }
            Order::Advance { to } | Order::FallBack { to } => {
                (to.x.is_finite() && to.y.is_finite()).then_some(order)
            }
            Order::Hold => Some(order),
        }
    }

    /// Carries out one move; returns the allowance left. With `stop_at_bands`, an advance halts
    /// where it first enters an enemy's range band (the rest is completed in step 12).
    fn execute(&mut self, p: PendingMove, stop_at_bands: bool) -> f64 {
        let setup = self.setup;
        let rules = &*setup.rules;
        let id = p.unit;
        let mut left = p.left;
        // (The radius last: most moves are not advances that halt at bands.)
        if stop_at_bands && matches!(p.order, Order::Advance { .. }) && !self.in_radius(setup, id) {
            left /= 2.0;
        }
        match p.order {
            Order::Hold => 0.0,
            Order::Form(f) => {
                self.shift(id, |u| {
                    u.formation = f;
                    if f == Formation::Dismounted || f == Formation::Hedgehog {
                        u.frontage = 2.0;
                    }
                    u.moved = true;
                });
                emit(self.obs, Event::FormationChanged { unit: id });
                (left - movement::formation_change_cost(rules)).max(0.0)
            }
            Order::Unlimber => {
                self.unlimber(id);
                0.0
            }
            Order::Site { to } => {
                // Move with what unlimbering leaves, halting at any enemy's range, then site.
                let cost =
                    movement::unlimber_cost(rules, &self.units[usize::from(id)]).unwrap_or(0.0);
                self.move_towards(id, to, (left - cost).max(0.0), true, false);
                if self.units[usize::from(id)].is_active() {
                    self.unlimber(id);
                }
                0.0
            }
            Order::Advance { to } | Order::FallBack { to } => self.move_towards(
                id,
                to,
                left,
                stop_at_bands && matches!(p.order, Order::Advance { .. }),
                matches!(p.order, Order::FallBack { .. }),
            ),
            Order::Charge { target } => {
                // Before the charge goes in, close towards the target but no nearer than the
                // longest stand-off, so the target can still choose its distance.
                let to = self.units[usize::from(target)].pos;
                let d = self.distance(id, target);
                let room = (d - rules.charge.standoff_max).max(0.0);
                let used = self.move_towards(id, to, left.min(room), stop_at_bands, false);
                left - (left.min(room) - used)
            }
        }
    }

    /// Sites a gun where it stands: the drivers go home, never to limber again.
    fn unlimber(&mut self, id: UnitId) {
        // (Its fire zones change.)
        self.shift(id, |u| {
            u.moved = true;
            u.formation = Formation::Unlimbered;
        });
        emit(self.obs, Event::Unlimbered { unit: id });
    }

    /// Moves a unit straight towards `to`, paying terrain, wheeling first if it must, never
    /// nearer an enemy than the advance gap, and not through friends while the enemy is within
    /// 12". Returns the allowance left.
    fn move_towards(
        &mut self,
        id: UnitId,
        to: Vec2,
        mut allowance: f64,
        stop_at_bands: bool,
        away: bool,
    ) -> f64 {
        let setup = self.setup;
        let rules = &*setup.rules;
        let from = self.units[usize::from(id)].pos;
        let dir = to - from;
        if dir.len() < 0.05 || allowance <= 0.0 {
            return allowance;
        }
        let dir = dir.norm();
        if !away && self.wheels(id, to) {
            allowance -= movement::formation_change_cost(rules);
            self.shift(id, |u| u.facing = dir.facing());
            if allowance <= 0.0 {
                self.units[usize::from(id)].moved = true;
                return 0.0;
            }
        }
        let max_len = self.clear_run(
            setup,
            id,
            dir,
            from.dist(to).min(allowance),
            stop_at_bands,
            away,
        );
        let dest = from + dir * max_len;
        self.dice.focus(super::unit_stream(id));
        let leg = movement::walk_on(
            rules,
            self.b.terrain(setup),
            &self.b.units[usize::from(id)],
            from,
            dest,
            allowance,
            self.dice,
        );
        let end = from + dir * leg.distance;
        self.shift(id, |u| {
            u.pos = end;
            u.moved = true;
            if leg.disordered {
                u.disordered = true;
            }
        });
        emit(self.obs, Event::moved(id, from, end, leg.disordered));
        // Falling back off the table is leaving it for the day (advances stay on it).
        if away && self.leave_if_off_table(id, UnitStatus::OffTable) {
            return 0.0;
        }
        self.overrun_generals(id);
        (allowance - leg.spent).max(0.0)
    }
}

impl Battle {
    /// How far a unit may run along `dir` (up to `len`): stops on reaching an enemy range band
    /// (when asked), short of enemies, short of friends while the enemy is near, and on the table.
    fn clear_run(
        &self,
        setup: &BattleSetup,
        id: UnitId,
        dir: Vec2,
        len: f64,
        stop_at_bands: bool,
        away: bool,
    ) -> f64 {
        let side = self.units[usize::from(id)].side;
        let (enemy_near, run) = self.plan_run(&setup.rules, id, dir, len, stop_at_bands, away);
        // (A cell, so that the scans below may read it while `visit` cuts it short.)
        let best = Cell::new(len);
        let visit = |spot: &Spot, enemy: bool| self.visit_on_run(setup, &run, &best, spot, enemy);
        // Friends matter only while the enemy is near; enemies unless moving away. The order
        // does not matter: the run is cut short to the least of what each unit allows.
        if enemy_near {
            let (a, b) = run.boxed(run.start.radius + 1e-6);
            self.spots_near(side, a, b, |spot| visit(spot, false));
        }
        if !away {
            self.visit_enemies(side.other(), &run, &best, visit);
        }
        // Stay on the table unless moving away (routs and retreats may leave it elsewhere).
        let g = &setup.ground;
        let mut best = best.get();
        if !away {
            let mut t = best;
            while t > 0.0 && !g.on_table(run.start.centre + dir * t) {
                t = (t - 0.5).max(0.0);
            }
            best = t;
        }
        best.max(0.0)
    }

    /// Sets out a run of `len` along `dir`: whether friends bar the way (the enemy is near
    /// and the run is not away from it), and what bounds the scans.
    fn plan_run(
        &self,
        rules: &crate::rules::ironsides::IronsidesRules,
        id: UnitId,
        dir: Vec2,
        len: f64,
        stop_at_bands: bool,
        away: bool,
    ) -> (bool, Run) {
        let start = self.shape(id);
        let near = self.nearest_known_in_play(id);
        // (Moving away, friends never bar it: the enemies are not looked for.)
        let limit = rules.movement.interpenetration_enemy_distance;
        let enemy_near = !away
            && match near {
                Some(d) => d < limit,
                None => self.enemy_closer_than(id, limit),
            };
        let near = near.unwrap_or(f64::NEG_INFINITY);
        let end = start.centre + dir * len;
        let (lo, hi) = (
            Vec2::new(start.centre.x.min(end.x), start.centre.y.min(end.y)),
            Vec2::new(start.centre.x.max(end.x), start.centre.y.max(end.y)),
        );
        let run = Run {
            id,
            start,
            dir,
            len,
            stop_at_bands,
            // No point of the run comes nearer any enemy than `clear`: the distance changes no
            // faster than the move. An enemy whose limit is less cannot stop it (the margin is
            // far above rounding, and `run_past` allows the same).
            clear: near - len - 1e-6,
            farthest: farthest_limit(rules, stop_at_bands),
            lo,
            hi,
        };
        (enemy_near, run)
    }

    /// Looks at one unit on the way: cuts the run (`best`) short to what it allows; false once
    /// nothing can.
    #[inline]
    fn visit_on_run(
        &self,
        setup: &BattleSetup,
        run: &Run,
        best: &Cell<f64>,
        spot: &Spot,
        enemy: bool,
    ) -> bool {
        if best.get() <= 0.0 {
            return false; // nothing can shorten the run further
        }
        if spot.id == run.id {
            return true;
        }
        // Its enclosing circle is farther from the path than any limit: skip it now.
        let rel = spot.centre - run.start.centre;
        let off = rel - run.dir * rel.dot(run.dir).clamp(0.0, best.get());
        // An enemy halts it at the advance gap, or at its fire zones if it shoots.
        let limit = match (enemy, run.stop_at_bands) {
            (false, _) => 0.0,
            (true, false) => ADVANCE_GAP,
            (true, true) => ADVANCE_GAP.max(spot.fire_reach.min(run.farthest)),
        };
        if enemy && limit < run.clear {
            return true;
        }
        let reach = limit + run.start.radius + spot.radius + 1e-6;
        if off.dot(off) > reach * reach {
            return true;
        }
        best.set(self.run_past(setup, run, best.get(), spot));
        true
    }

    /// Visits the enemies (`side`) that may halt the run, in id order. Only units whose circles
    /// come within their limit of the path matter: a box about the path grown by the limit
    /// holds them all.
    fn visit_enemies(
        &self,
        side: Side,
        run: &Run,
        best: &Cell<f64>,
        visit: impl Fn(&Spot, bool) -> bool,
    ) {
        let gap = run.boxed(ADVANCE_GAP + run.start.radius + 1e-6);
        if !run.stop_at_bands {
            // Every enemy's limit is the advance gap.
            self.spots_near(side, gap.0, gap.1, |spot| visit(spot, true));
            return;
        }
        // Most enemies' limit is the advance gap; only those that shoot farther need a box
        // grown by the longest range, which holds most of the field. So the few shooters that
        // may matter are picked first (`far_shooters`), then each is visited in its place in id
        // order among the others from the small box: the same units in the same order as one
        // scan of the large box, so the run is cut short the same way.
        let Some((far, n_far)) = self.far_shooters(side, run, best.get()) else {
            // Too many to keep: one scan of the large box.
            let (a, b) = run.boxed(run.farthest + run.start.radius + 1e-6);
            self.spots_near(side, a, b, |spot| visit(spot, true));
            return;
        };
        let mut next = 0;
        let mut more = true;
        self.spots_near(side, gap.0, gap.1, |spot| {
            if spot.fire_reach.min(run.farthest) > ADVANCE_GAP {
                return true; // a shooter: among `far` if it matters
            }
            while let Some(s) = far[..n_far].get(next).copied().flatten()
                && s.id < spot.id
            {
                next += 1;
                if !visit(&s, true) {
                    more = false;
                    return false;
                }
            }
            more = visit(spot, true);
            more
        });
        while more && let Some(s) = far[..n_far].get(next).copied().flatten() {
            next += 1;
            more = visit(&s, true);
        }
    }

    /// The enemies (`side`) that shoot farther than the advance gap and may halt the run, from
    /// the side's table, in id order: at most eight (None when there are more). With `b0`, the
    /// run as it is now, which only shrinks, and a margin far above rounding: none is left out
    /// that `visit_on_run` would measure.
    fn far_shooters(&self, side: Side, run: &Run, b0: f64) -> Option<([Option<Spot>; 8], usize)> {
        let (start, dir, farthest, clear) = (&run.start, run.dir, run.farthest, run.clear);
        let mut far = [None::<Spot>; 8];
        let mut n_far = 0;
        let mut overflow = false;
        // (Some range is longer than the gap; `farthest` is never NaN.)
        let farther = farthest > ADVANCE_GAP;
        // (With cells, only the shooters in the large box, grown by the margin below and no
        // larger than the side's longest reach: none when that is the gap.)
        let reach = farthest.min(self.fire_reach_bound(side));
        let pick = run.boxed(reach + start.radius + 1e-3);
        if reach > ADVANCE_GAP {
            self.spots_scan(side, pick.0, pick.1, |spot| {
                // Few shoot farther than the gap: that is tested first, on its own (`limit` is
                // above the gap just when the reach is, or is NaN, and the longest range is:
                // see `farther`).
                if spot.fire_reach <= ADVANCE_GAP || !farther {
                    return true;
                }
                let limit = ADVANCE_GAP.max(spot.fire_reach.min(farthest));
                if limit <= ADVANCE_GAP || limit < clear || !spot.active {
                    return true;
                }
                let rel = spot.centre - start.centre;
                let off = rel - dir * rel.dot(dir).clamp(0.0, b0);
                let reach = limit + start.radius + spot.radius + 1e-3;
                if off.dot(off) > reach * reach {
                    return true;
                }
                if n_far == far.len() {
                    overflow = true;
                    return false;
                }
                far[n_far] = Some(*spot);
                n_far += 1;
                true
            });
        }
        (!overflow).then_some((far, n_far))
    }

    /// How far the run may go past unit `spot` (up to `best` so far, `len` at most) before it
    /// stops it: the range band it fires in (if asked), the advance gap, or a friend in the way.
    #[inline(never)] // out of the scan's loop, which is then small enough to inline
    fn run_past(&self, setup: &BattleSetup, run: &Run, mut best: f64, spot: &Spot) -> f64 {
        let (id, start, dir, len, stop_at_bands) =
            (run.id, &run.start, run.dir, run.len, run.stop_at_bands);
        let rules = &*setup.rules;
        let e = &self.units[usize::from(spot.id)];
        let enemy = e.side != self.units[usize::from(id)].side;
        let (zone, most) = halting_zone(rules, e, enemy, stop_at_bands);
        // Nowhere on the path, from where it stands to `best`, can it come within any limit.
        let end = start.centre + dir * best;
        if dist_point_segment(spot.centre, start.centre, end) - start.radius - spot.radius
            > most + 1e-6
        {
            return best;
        }
        let er = self.shape(e.id);
        if start.dist_lower_bound(&er) > len + 25.0 {
            return best;
        }
        // It halts at the zone only if the shooter faces it.
        let band = zone.filter(|_| self.in_front_arc(e.id, id));
        // The limit it would halt at were it farther than every range that chooses one.
        let far_limit = match band {
            Some(b) if b.long > 0.0 => ADVANCE_GAP.max(b.long),
            Some(b) => ADVANCE_GAP.max(b.short),
            None if enemy => ADVANCE_GAP,
            None => 0.0,
        };
        // The gap between the shadows is a lower bound on the distance (with a margin for
        // rounding). When it is past every range that chooses the limit, and past the limit,
        // the distance itself is not needed: the limit is `far_limit`, it is not reached where
        // it stands, and the march starts from the bound instead (the same answer; from a start
        // beyond `len + 25`, as below, a run of `len` never comes within a limit under 24).
        let lb = start.gap_lower_bound(&er) - 1e-9;
        let choose = match band {
            Some(b) => b.long.max(b.short),
            None => 0.0,
        };
        if far_limit < 24.0 && lb > choose + 1e-6 && lb > far_limit + 1e-6 {
            return halt_within(start, dir, &er, far_limit, lb, best, enemy);
        }
        let d0 = start.dist(&er);
        if d0 > len + 25.0 {
            return best;
        }
        let limit = match band {
            // Halt at the long range limit; already within it, go on to short range.
            Some(b) => ADVANCE_GAP.max(if b.long > 0.0 && d0 > b.long {
                b.long
            } else if d0 > b.short {
                b.short
            } else {
                0.0
            }),
            None if enemy => ADVANCE_GAP,
            None => 0.0,
        };
        if d0 <= limit + 1e-6 {
            if enemy || limit > 0.0 {
                // Already at (or inside) this limit: may not close further on it.
                let ahead = (er.centre - start.centre).dot(dir) > 0.0;
                if ahead {
                    best = best.min(0.0);
                }
            }
            return best;
        }
        halt_within(start, dir, &er, limit, d0, best, enemy)
    }

    /// Places a charger facing its target, `standoff` inches from it.
    fn close_to(&mut self, charger: UnitId, target: UnitId, standoff: f64) {
        let t = self.rect(target);
        let c = self.units[usize::from(charger)].pos;
        let dir = (t.centre - c).norm();
        let now = self.distance(charger, target);
        let step = (now - standoff).max(0.0);
        self.shift(charger, |u| {
            u.pos = c + dir * step;
            u.facing = dir.facing();
            u.moved = true;
        });
    }
}

/// A run being measured: who runs, from where, which way, how far at most, and what halts it.
struct Run {
    id: UnitId,
    /// Its shape where it starts.
    start: Shape,
    dir: Vec2,
    len: f64,
    stop_at_bands: bool,
    /// No point of the run comes nearer any enemy than this.
    clear: f64,
    /// No limit is larger than this: a unit farther from the path cannot stop it.
    farthest: f64,
    /// The corners of the box about the path.
    lo: Vec2,
    hi: Vec2,
}

impl Run {
    /// The box about the path grown by `grow`.
    fn boxed(&self, grow: f64) -> (Vec2, Vec2) {
        let g = Vec2::new(grow, grow);
        (self.lo - g, self.hi + g)
    }
}

/// The largest limit an enemy can halt a run at: its longest range when range bands halt it
/// (only they use it: not worked out when the move does not stop at them), else the advance gap.
fn farthest_limit(rules: &crate::rules::ironsides::IronsidesRules, stop_at_bands: bool) -> f64 {
    let r = &rules.fire.ranges;
    if stop_at_bands {
        [
            r.very_light,
            r.light,
            r.medium,
            r.heavy,
            r.skirmishers,
            r.pistols,
            r.infantry,
        ]
        .iter()
        .fold(ADVANCE_GAP, |m, b| m.max(b.long).max(b.short))
    } else {
        ADVANCE_GAP
    }
}

/// The fire zone enemy `e` could halt a run at (when range bands halt it and `e` shoots), and
/// so the largest limit that can apply: 0 for a friend.
fn halting_zone(
    rules: &crate::rules::ironsides::IronsidesRules,
    e: &crate::army::Unit,
    enemy: bool,
    stop_at_bands: bool,
) -> (Option<crate::rules::ironsides::tables::RangeBand>, f64) {
    let shooter = enemy && stop_at_bands && fire::has_shot(rules, e) && !e.is_cavalry();
    let zone = if shooter {
        fire::range_band(rules, e)
    } else {
        None
    };
    let most = match (enemy, zone) {
        (false, _) => 0.0,
        (true, None) => ADVANCE_GAP,
        (true, Some(b)) => ADVANCE_GAP.max(b.long).max(b.short),
    };
    (zone, most)
}

/// Where a run halts short of `other`: marched in half-inch steps (the last cut short at
/// `best`) from a start at least `from` away, it halts where it first comes within `limit`
/// ([`halt_at`]); at `best` if it never does.
fn halt_within(
    start: &Shape,
    dir: Vec2,
    other: &Shape,
    limit: f64,
    from: f64,
    best: f64,
    enemy: bool,
) -> f64 {
    let march = March {
        me: start,
        dir,
        step: MARCH_STEP,
        first: 1,
        last: ceil_u64(best / MARCH_STEP),
        end: best,
    };
    match march.first_within(other, limit, from) {
        Some(k) => halt_at(start, dir, other, limit, k, best, enemy),
        None => best,
    }
}

/// Where a march that first comes within `limit` of `other` at step `k` halts. Short of an
/// enemy it halts on reaching the limit, inside it ("halt on reaching the long range limit":
/// a unit stopped at a range band is in that band, and foot stopped at the advance gap is in
/// volley range); short of a friend, at the step before, clear of it.
fn halt_at(
    me: &Shape,
    dir: Vec2,
    other: &Shape,
    limit: f64,
    k: u64,
    best: f64,
    enemy: bool,
) -> f64 {
    let before = MARCH_STEP * (k - 1) as f64;
    if !enemy {
        return before;
    }
    reach_limit(
        me,
        dir,
        other,
        limit,
        before,
        (MARCH_STEP * k as f64).min(best),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn wheel_cosine() {
        assert_eq!(
            super::WHEEL_LIMIT,
            crate::battlefield::geometry::HalfAngle::new(0.4)
        );
    }
}

//! The start of a move (per-move state cleared, generals placed, routing units rallied), then
//! movement: routing units flee, the others follow their doctrine's plan: hold, advance, or
//! charge with the formation rules' throws, closing fire and the pistol breach.

use std::f64::consts::PI;

use super::regiment::{Formation, Gait, Kind, Regiment, State};
use super::{Battle, emit};
use crate::army::Side;
use crate::battlefield::geometry::Shape;
use crate::battlefield::{AreaKind, ObstacleKind, Vec2};
use crate::dice::DiceSource;
use crate::events::{Event, Observer, ReactionResult};
use crate::rules::black_powder::battle::doctrine::{self, Plan, Situation};
use crate::rules::black_powder::tables::DoctrineKnobs;
use crate::rules::dickenson::events::Detail;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult};
use crate::setup::BattleSetup;

/// What the ground does to a move along a path (seed: hedges, walls, rivers, woods, hills).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Going {
    /// Share of the move left.
    pub share: f64,
    /// Inches spent crossing (horse at hedges).
    pub extra: f64,
    pub disorders: bool,
    pub no_gallop: bool,
    pub no_charge: bool,
    pub blocked: bool,
}

impl Battle {
    /// Per-move state cleared; unhorsed generals back; generals placed; rallies.
    pub fn start_of_move<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        for reg in &mut self.regiments {
            reg.moved = 0.0;
            reg.full_move = 0.0;
            reg.spent = 0.0;
            reg.fired = false;
            reg.lost_this_move = 0;
            reg.melee_lost = 0;
            reg.won_melee = false;
            reg.enemy_withdrew = false;
            reg.fought = false;
            reg.foe = None;
            reg.impetus = false;
        }
        for g in 0..self.generals.len() {
            self.place_general(g, setup);
        }
        self.rallies(dice, obs);
    }

    /// A general rides with a routing unit of his command within reach (to rally it), else
    /// with the foremost unit when his doctrine leads from the front, else with the unit
    /// nearest his command's centre; the Captain-General with the unit nearest him.
    fn place_general(&mut self, g: usize, setup: &BattleSetup) {
        let general = self.generals[g];
        if general.lost || general.back_on > self.turn {
            return;
        }
        let mine = |reg: &Regiment| {
            reg.side == general.side
                && reg.state != State::Gone
                && general.command.is_none_or(|c| reg.command == c)
        };
        let reach = self.rules.battle.rally_reach;
        let routing = (0..self.regiments.len())
            .filter(|&r| mine(&self.regiments[r]) && self.regiments[r].state == State::Routing)
            .filter(|&r| {
                general.command.is_some() && self.regiments[r].pos.dist(general.pos) <= reach
            })
            .min_by(|&a, &b| {
                let (da, db) = (
                    self.regiments[a].pos.dist(general.pos),
                    self.regiments[b].pos.dist(general.pos),
                );
                da.total_cmp(&db).then(a.cmp(&b))
            });
        let active =
            |r: &usize| mine(&self.regiments[*r]) && self.regiments[*r].state == State::Active;
        let n = self.regiments.len();
        let chosen = routing.or_else(|| {
            let d = general
                .command
                .and_then(|c| self.doctrine_of.get(usize::from(c)))
                .and_then(|&d| setup.doctrines.get(usize::from(d)));
            let (mut sum, mut count) = (Vec2::new(0.0, 0.0), 0.0);
            for r in (0..n).filter(active) {
                sum = sum + self.regiments[r].pos;
                count += 1.0;
            }
            if count == 0.0 {
                return None;
            }
            if let Some(d) = d.filter(|d| d.general_leads) {
                let front = (0..n)
                    .filter(active)
                    .filter_map(|r| self.nearest_enemy(r, |_| true).map(|(_, gap)| (r, gap)))
                    .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                if let Some((r, gap)) = front
                    && gap <= d.general_leads_within
                {
                    return Some(r);
                }
            }
            let centre = if general.command.is_some() {
                sum * (1.0 / count)
            } else {
                general.pos
            };
            (0..n).filter(active).min_by(|&a, &b| {
                self.regiments[a]
                    .pos
                    .dist(centre)
                    .total_cmp(&self.regiments[b].pos.dist(centre))
                    .then(a.cmp(&b))
            })
        });
        let general = &mut self.generals[g];
        general.with = chosen.map(|r| r as u16);
        if let Some(r) = chosen {
            general.pos = self.regiments[r].pos;
        }
    }

    /// Routing units flee; the rest act on their plans, side by side.
    pub fn movement_phase<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        for side in self.sides() {
            for r in 0..self.regiments.len() {
                if self.regiments[r].side != side {
                    continue;
                }
                match self.regiments[r].state {
                    State::Routing => self.flee(r, obs),
                    State::Active => self.act(r, setup, dice, obs),
                    State::Gone => {}
                }
            }
        }
    }

    /// One regiment's plan for its move, from its doctrine.
    fn act<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let reg = self.regiments[r];
        if reg.engaged.is_some() {
            return;
        }
        if reg.halt_until >= self.turn || self.in_reserve(usize::from(reg.command)) {
            self.regiments[r].gait = Gait::Halt;
            return;
        }
        let Some((t, gap)) = self.nearest_enemy(r, |o| o.state == State::Active) else {
            self.regiments[r].gait = Gait::Halt;
            return;
        };
        let Some(d) = self
            .doctrine_of
            .get(usize::from(reg.command))
            .and_then(|&d| setup.doctrines.get(usize::from(d)))
        else {
            return;
        };
        let target = self.regiments[t];
        let charge_gait = reg.next_gait();
        let range = match reg.kind {
            Kind::Horse(_) => 0.0,
            Kind::Gun(c) => c.gun(&self.rules).maximum_range,
            _ => reg.arm().map_or(0.0, |a| a.weapon(&self.rules).long),
        };
        // Ruling: only foot in line charge, and no column; horse cannot charge pike three deep.
        let may_charge = match reg.kind {
            Kind::ForlornHope | Kind::Gun(_) => false,
            Kind::Foot => reg.formation == Formation::Line,
            _ => reg.formation != Formation::Column && !target.uncharged_by_horse(&self.rules),
        };
        let situation = Situation {
            turn: self.turn,
            reserve: reg.reserve,
            brigade_broken: false,
            gap,
            reach: reg.move_at(charge_gait, &self.rules),
            may_charge: may_charge && target.engaged.is_none(),
            determined: false,
            ratio: f64::from(self.points(r) + 1) / f64::from(self.points(t) + 1),
            range,
        };
        let knobs = DoctrineKnobs {
            individual_order_degrees: 0.0,
            hedgehog_early_range: 0.0,
            charge_range_share: self.rules.battle.charge_range_share,
        };
        let plan = doctrine::plan(d, &knobs, &situation);
        if reg.is_gun() {
            self.serve_gun(r, t, gap, plan, setup, obs);
            return;
        }
        if reg.can_form(Formation::Column, &self.rules) {
            self.dress(r, plan, gap, d.hedgehog_vs_horse, obs);
        }
        match plan {
            Plan::Hold => self.regiments[r].gait = Gait::Halt,
            Plan::Advance => {
                // Ruling: an advance goes no faster than a canter; only a charge gallops.
                let gait = charge_gait.min(Gait::Canter);
                let aim = (target.pos - reg.pos).facing();
                self.advance(r, aim, gait, None, setup, obs);
            }
            Plan::Charge => self.charge(r, t, setup, dice, obs),
        }
    }

    /// What the ground does to regiment `r` moving from `a` to `b`.
    pub fn going(&self, r: usize, a: Vec2, b: Vec2, setup: &BattleSetup) -> Going {
        let t = &self.rules.terrain;
        let reg = &self.regiments[r];
        let horse = reg.is_horse();
        let mut g = Going {
            share: 1.0,
            extra: 0.0,
            disorders: false,
            no_gallop: false,
            no_charge: false,
            blocked: false,
        };
        let (from, to) = (setup.ground.area_at(a), setup.ground.area_at(b));
        match to {
            Some(AreaKind::Woods) if horse && !t.woods_cavalry => g.blocked = true,
            Some(AreaKind::Woods) if reg.kind == Kind::ForlornHope => {
                g.share *= 1.0 - t.woods_skirmisher_loss
            }
            Some(AreaKind::Woods) => {
                g.share *= t.woods_infantry_share;
                g.disorders = true;
            }
            Some(AreaKind::Bog) => {
                g.share *= t.bog_share;
                g.disorders = true;
            }
            _ => {}
        }
        // Seed: roads add a sixth, to columns only.
        if reg.formation == Formation::Column
            && from == Some(AreaKind::Road)
            && to == Some(AreaKind::Road)
        {
            g.share *= 1.0 + t.road_gain;
        }
        let (up, down) = (
            to == Some(AreaKind::Hill) && from != Some(AreaKind::Hill),
            from == Some(AreaKind::Hill) && to != Some(AreaKind::Hill),
        );
        if horse {
            if up {
                g.share *= 1.0 - t.hill_cavalry_up_loss;
                g.no_charge |= !t.hill_cavalry_charge_uphill;
            } else if down {
                g.share *= 1.0 - t.hill_cavalry_down_loss;
                g.no_charge |= !t.hill_cavalry_charge_downhill;
            }
        } else if up {
            g.share *= 1.0 - t.hill_infantry_up_loss;
        } else if down {
            g.share *= 1.0 + t.hill_infantry_down_gain;
        }
        for o in setup.ground.obstacles_crossed(a, b) {
            match o.kind {
                ObstacleKind::Stream if o.severity <= 0.0 => g.blocked = true,
                ObstacleKind::Stream => {
                    g.share *= t.stream_share;
                    g.disorders = true;
                }
                // Ruling: a scenario's walls are low walls; ditches are crossed as hedges.
                ObstacleKind::Hedge | ObstacleKind::Ditch | ObstacleKind::Wall if horse => {
                    g.extra += t.hedge_cavalry_extra;
                    g.no_gallop |= !t.hedge_cavalry_gallop;
                    g.no_charge |= o.kind == ObstacleKind::Wall && !t.low_wall_charge;
                }
                ObstacleKind::Wall => {
                    g.share *= t.low_wall_infantry_share;
                    g.disorders = true;
                    g.no_charge |= !t.low_wall_charge;
                }
                ObstacleKind::Hedge | ObstacleKind::Ditch => g.share *= t.hedge_hack_share,
            }
        }
        g
    }

    /// The distance a move of `full` inches along `dir` gets over the ground, and the going.
    fn over_ground(&self, r: usize, dir: Vec2, full: f64, setup: &BattleSetup) -> (f64, Going) {
        let from = self.regiments[r].pos;
        let mut want = full;
        let mut g = self.going(r, from, from + dir * want, setup);
        // Ruling: short of ground it may not enter.
        while g.blocked && want > 0.25 {
            want *= 0.5;
            g = self.going(r, from, from + dir * want, setup);
        }
        if g.blocked {
            return (0.0, g);
        }
        ((want * g.share - g.extra).max(0.0), g)
    }

    /// The footprint of regiment `r` were it at `pos` facing `facing`.
    fn shape_at(&self, r: usize, pos: Vec2, facing: f64) -> Shape {
        let reg = &self.regiments[r];
        Shape::new(pos, Vec2::from_facing(facing), reg.frontage, reg.depth)
    }

    /// Whether regiment `r` at `pos` keeps the contact gap from every enemy but `target`
    /// (which it may touch).
    fn clear_at(&self, r: usize, pos: Vec2, facing: f64, target: Option<usize>) -> bool {
        let me = self.shape_at(r, pos, facing);
        let side = self.regiments[r].side;
        let gap = self.rules.battle.contact_gap;
        self.regiments.iter().enumerate().all(|(o, reg)| {
            if reg.side == side || reg.state == State::Gone || Some(o) == target {
                return true;
            }
            let s = self.shape(o);
            me.centre.dist(s.centre) > me.radius + s.radius + gap || me.dist(&s) >= gap
        })
    }

    /// How far along `dir` (up to `max`) regiment `r` goes before it would come within the
    /// contact gap of an enemy other than `target`.
    fn clear_run(&self, r: usize, dir: Vec2, facing: f64, max: f64, target: Option<usize>) -> f64 {
        let from = self.regiments[r].pos;
        if self.clear_at(r, from + dir * max, facing, target) {
            return max;
        }
        let (mut lo, mut hi) = (0.0, max);
        for _ in 0..12 {
            let mid = (lo + hi) / 2.0;
            if self.clear_at(r, from + dir * mid, facing, target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Keeps a point on the table.
    fn on_table(&self, p: Vec2) -> Vec2 {
        Vec2::new(p.x.clamp(0.0, self.table.0), p.y.clamp(0.0, self.table.1))
    }

    /// Moves regiment `r` facing `aim` at `gait` over the ground, short of every enemy (but up
    /// to `limit` inches if given). Returns the distance moved.
    pub fn advance<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        gait: Gait,
        limit: Option<f64>,
        setup: &BattleSetup,
        obs: &mut O,
    ) -> f64 {
        let dir = Vec2::from_facing(aim);
        let mut gait = gait;
        let full = self.regiments[r].move_at(gait, &self.rules);
        let (mut dist, going) = self.over_ground(r, dir, self.left_of(r, full), setup);
        if going.no_gallop && gait == Gait::Gallop {
            gait = Gait::Canter;
            let canter = self.regiments[r].move_at(gait, &self.rules);
            dist = self.over_ground(r, dir, self.left_of(r, canter), setup).0;
        }
        let dist = limit.map_or(dist, |l| dist.min(l));
        let run = self.clear_run(r, dir, aim, dist, None);
        self.step(r, aim, dir * run, going.disorders && run > 0.0, obs);
        let reg = &mut self.regiments[r];
        reg.gait = gait;
        reg.full_move = full;
        run
    }

    /// Places regiment `r` `by` inches on, facing `facing`, and says so.
    fn step<O: Observer>(&mut self, r: usize, facing: f64, by: Vec2, disorders: bool, obs: &mut O) {
        let from = self.regiments[r].pos;
        let to = self.on_table(from + by);
        let turn = self.turn;
        let reg = &mut self.regiments[r];
        reg.pos = to;
        reg.facing = facing;
        reg.moved += from.dist(to);
        if disorders {
            reg.disordered_until = turn + 1;
        }
        if to != from {
            emit(obs, Event::moved(reg.unit, from, to, reg.disordered(turn)));
        }
    }

    /// A routing regiment flees a full move at its best gait towards its own edge; off the
    /// table it is gone.
    pub fn flee<O: Observer>(&mut self, r: usize, obs: &mut O) {
        let reg = self.regiments[r];
        let away = match reg.side {
            Side::Parliament => PI,
            Side::Royalist => 0.0,
        };
        let distance = reg.move_at(Gait::Gallop, &self.rules);
        let to = reg.pos + Vec2::from_facing(away) * distance;
        self.regiments[r].facing = away;
        if !self.on_table_strict(to) {
            self.leave(r, obs);
            return;
        }
        self.step(r, away, to - reg.pos, false, obs);
    }

    /// Whether a point is on the table.
    pub fn on_table_strict(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.table.0 && p.y <= self.table.1
    }

    /// Regiment `r` leaves the table: gone.
    pub fn leave<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        self.regiments[r].state = State::Gone;
        emit(
            obs,
            Event::LeftTable {
                unit: self.regiments[r].unit,
            },
        );
    }

    /// Ends regiment `r`'s melee on both sides: its enemy sees it withdraw.
    pub fn disengage(&mut self, r: usize) {
        if let Some(o) = self.regiments[r].engaged.take() {
            let o = usize::from(o);
            if self.regiments[o].engaged == Some(r as u16) {
                let e = &mut self.regiments[o];
                e.engaged = None;
                e.rounds = 0;
                e.attacker = false;
                e.carried = 0.0;
            }
            self.regiments[o].enemy_withdrew = true;
        }
        let reg = &mut self.regiments[r];
        reg.rounds = 0;
        reg.attacker = false;
        reg.carried = 0.0;
    }

    /// The throw horse `r` charging `t` make when the formation rules call for it (fired on,
    /// or entering a pikestand), with the adds that apply: good or not.
    pub fn formation_throw<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        adds: Adds,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        dice.focus(Self::regiment_stream(r));
        let points_lost = self.points_lost(r);
        let mut w = Watch::new(dice);
        let total = morale::modified(&mut w, adds, points_lost, 0, &self.rules);
        let good = morale::formation_good(total, &self.rules);
        emit(
            obs,
            Event::Dickenson(Detail::FormationThrow {
                unit: self.regiments[r].unit,
                target: self.regiments[t].unit,
                dice: w.last,
                adds: adds.total(&self.rules).clamp(-128, 127) as i8,
                points_lost: points_lost.min(u32::from(u16::MAX)) as u16,
                total,
                good,
            }),
        );
        good
    }

    /// A charge by regiment `r` on regiment `t`: the formation rules' throws, closing fire,
    /// the pistol breach, then contact if it still goes in.
    pub fn charge<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let (unit, target) = (self.regiments[r].unit, self.regiments[t].unit);
        let reg = self.regiments[r];
        let aim = (self.regiments[t].pos - reg.pos).facing();
        let dir = Vec2::from_facing(aim);
        let mut gait = reg.next_gait();
        let (mut reach, mut going) = self.over_ground(
            r,
            dir,
            self.left_of(r, reg.move_at(gait, &self.rules)),
            setup,
        );
        if going.no_gallop && gait == Gait::Gallop {
            gait = Gait::Canter;
            let canter = self.left_of(r, reg.move_at(gait, &self.rules));
            (reach, going) = self.over_ground(r, dir, canter, setup);
        }
        self.regiments[r].facing = aim;
        let need = self.gap(r, t);
        emit(
            obs,
            Event::ChargeDeclared {
                unit,
                target,
                standoff: 0.0,
            },
        );
        let horse = reg.is_horse();
        let fail = |b: &mut Battle, obs: &mut O| {
            emit(obs, Event::ChargeFailed { unit, target });
            b.regiments[r].gait = gait;
        };
        let uncharged = reg.is_horse() && self.regiments[t].uncharged_by_horse(&self.rules);
        if need > reach || going.no_charge || uncharged {
            self.advance(r, aim, gait, None, setup, obs);
            fail(self, obs);
            return;
        }
        let full = reg.move_at(gait, &self.rules);
        self.regiments[r].full_move = full;
        let threw = horse && self.throws_against_horse(t);
        if threw && !self.stands_against_horse(t, r, dice, obs) {
            // The charged unit fell back or routed: the charge finds nobody to strike.
            self.advance(r, aim, gait, Some(need), setup, obs);
            fail(self, obs);
            return;
        }
        let fired_upon = self.closing_fire(t, r, need, full, dice, obs);
        if self.regiments[r].state != State::Active {
            return;
        }
        let pikestand =
            horse && self.regiments[t].kind == Kind::Foot && self.regiments[t].pikemen > 0;
        // Seed: a pikestand that threw first and stood spares the horse its throw.
        if horse && (fired_upon || (pikestand && !threw)) {
            let adds = Adds::of(&[Add::Attacker]);
            if !self.formation_throw(r, t, adds, dice, obs) {
                self.turned_away(r, aim, gait, need, setup, obs);
                fail(self, obs);
                return;
            }
        }
        if pikestand && !self.breach(r, t, dice, obs) {
            // Held at the pikes' points.
            let pikes = self.rules.formations.pike_extend;
            self.advance(r, aim, gait, Some((need - pikes).max(0.0)), setup, obs);
            fail(self, obs);
            return;
        }
        if self.regiments[t].state != State::Active {
            // The breach's pistols left nobody to strike.
            self.advance(r, aim, gait, Some(need), setup, obs);
            fail(self, obs);
            return;
        }
        self.contact(r, t, aim, need, going.disorders, obs);
        let (a, d) = (&mut self.regiments[r], t as u16);
        a.gait = gait;
        a.engaged = Some(d);
        a.attacker = true;
        a.impetus = horse;
        a.rounds = 0;
        a.carried = 0.0;
        let b = &mut self.regiments[t];
        b.engaged = Some(r as u16);
        b.attacker = false;
        b.rounds = 0;
        b.carried = 0.0;
    }

    /// A charge's bad throw: trotting or cantering horse turn about and use the rest of the
    /// move; galloping horse swerve past the target and complete the move (ruling: they end it
    /// beside the target, out of contact).
    fn turned_away<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        gait: Gait,
        need: f64,
        setup: &BattleSetup,
        obs: &mut O,
    ) {
        if gait == Gait::Gallop {
            let gap = self.rules.battle.contact_gap;
            self.advance(r, aim, gait, Some((need - gap).max(0.0)), setup, obs);
            return;
        }
        let rest = (self.regiments[r].move_at(gait, &self.rules) - need).max(0.0);
        let back = aim + PI;
        let to = self.regiments[r].pos + Vec2::from_facing(back) * rest;
        if !self.on_table_strict(to) {
            self.leave(r, obs);
            return;
        }
        self.step(r, back, to - self.regiments[r].pos, false, obs);
    }

    /// Brings regiment `r` facing `aim` into contact with `t` (the least run that touches it).
    fn contact<O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        aim: f64,
        need: f64,
        disorders: bool,
        obs: &mut O,
    ) {
        let (from, dir) = (self.regiments[r].pos, Vec2::from_facing(aim));
        let target = self.shape(t);
        let touches = |d: f64| self.shape_at(r, from + dir * d, aim).dist(&target) <= 1e-6;
        let (mut lo, mut hi) = (0.0, need + self.regiments[r].depth + target.radius * 2.0);
        for _ in 0..30 {
            let mid = (lo + hi) / 2.0;
            if touches(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        self.step(r, aim, dir * hi, disorders, obs);
    }

    /// What is left of a move of `full` inches once the move's formation change, limbering or
    /// unlimbering is paid for.
    fn left_of(&self, r: usize, full: f64) -> f64 {
        full * (1.0 - self.regiments[r].spent).max(0.0)
    }

    /// The formation regiment `r` takes for its plan (ruling): column to advance far from the
    /// enemy; against enemy horse that could charge it next move, if its doctrine closes up,
    /// square when its pike can stand three deep, else the shot drawn up before the pike when
    /// it has the shot; else line. The change pays its share of the move, and the new
    /// footprint must keep the contact gap from every enemy (else it stays as it is).
    fn dress<O: Observer>(&mut self, r: usize, plan: Plan, gap: f64, close_up: bool, obs: &mut O) {
        let rules = &self.rules;
        let f = &rules.formations;
        let reg = self.regiments[r];
        let can = |want: Formation| reg.can_form(want, rules);
        let want = if plan == Plan::Advance && gap > f.doctrine.column_beyond {
            Formation::Column
        } else if close_up
            && (can(Formation::Square) || f.doctrine.shot_before_pike)
            && self.horse_threatens(r)
        {
            if can(Formation::Square) {
                Formation::Square
            } else {
                Formation::ShotBeforePike
            }
        } else {
            Formation::Line
        };
        if want == reg.formation || !can(want) {
            return;
        }
        let share = f.change_share;
        let was = reg;
        self.regiments[r].form(want, &self.rules);
        if !self.clear_at(r, reg.pos, reg.facing, None) {
            self.regiments[r] = was;
            return;
        }
        let reg = &mut self.regiments[r];
        reg.spent = (reg.spent + share).min(1.0);
        emit(obs, Event::FormationChanged { unit: reg.unit });
    }

    /// Whether an enemy horse regiment free to charge could reach regiment `r` next move.
    fn horse_threatens(&self, r: usize) -> bool {
        let me = &self.regiments[r];
        let reach = Shape::radius_of(me.frontage, me.depth);
        (0..self.regiments.len()).any(|o| {
            let h = &self.regiments[o];
            if h.side == me.side || h.state != State::Active || h.engaged.is_some() || !h.is_horse()
            {
                return false;
            }
            let charge = h.move_at(h.next_gait(), &self.rules);
            // Bounding circles first: most horse are too far for their shapes to be measured.
            let bound = me.pos.dist(h.pos) - reach - Shape::radius_of(h.frontage, h.depth);
            bound <= charge && self.gap(r, o) <= charge
        })
    }

    /// A gun's move (ruling): limbered, it unlimbers once an enemy is within its maximum
    /// range, else its horses draw it on when the plan advances (to its effective range of the
    /// nearest enemy); sited with nobody in range in its front, its crew pull it round and on
    /// if that brings the enemy in range (the pull takes the move), else it limbers to advance.
    fn serve_gun<O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        gap: f64,
        plan: Plan,
        setup: &BattleSetup,
        obs: &mut O,
    ) {
        let reg = self.regiments[r];
        let Kind::Gun(c) = reg.kind else {
            return;
        };
        let gun = *c.gun(&self.rules);
        if reg.gun == morale::GunState::Destroyed || reg.wheel > 0 || reg.gunners == 0 {
            return;
        }
        let aim = (self.regiments[t].pos - reg.pos).facing();
        if reg.limbered {
            if gap <= gun.maximum_range {
                let g = &mut self.regiments[r];
                g.limbered = false;
                g.facing = aim;
                g.spent = (g.spent + gun.limber_share).min(1.0);
                emit(obs, Event::Unlimbered { unit: g.unit });
            } else if plan == Plan::Advance {
                let limit = (gap - gun.effective_range).max(0.0);
                self.advance(r, aim, Gait::Trot, Some(limit), setup, obs);
            }
            return;
        }
        if self.in_arc_and_range(r, gun.maximum_range) {
            return;
        }
        // Ruling: a reduced crew pulls its share of the full crew's distance.
        let pull = gun.crew_pull * f64::from(reg.gunners) / f64::from(reg.full_crew.max(1));
        if gap <= gun.maximum_range + pull {
            let by = (gap - gun.maximum_range).max(0.0);
            let run = self.clear_run(r, Vec2::from_facing(aim), aim, by, None);
            self.step(r, aim, Vec2::from_facing(aim) * run, false, obs);
            self.regiments[r].spent = 1.0;
        } else if plan == Plan::Advance {
            let g = &mut self.regiments[r];
            g.limbered = true;
            g.spent = (g.spent + gun.limber_share).min(1.0);
            emit(obs, Event::FormationChanged { unit: g.unit });
            let limit = (gap - gun.effective_range).max(0.0);
            self.advance(r, aim, Gait::Trot, Some(limit), setup, obs);
        }
    }

    /// Morale points regiment `r` has lost so far.
    pub fn points_lost(&self, r: usize) -> u32 {
        u32::from(self.regiments[r].start_points).saturating_sub(self.points(r))
    }
}

/// A die source that remembers the last two dice thrown (a morale throw's), for the event.
pub struct Watch<'a, D: DiceSource> {
    inner: &'a mut D,
    pub last: [u8; 2],
}

impl<'a, D: DiceSource> Watch<'a, D> {
    pub fn new(inner: &'a mut D) -> Self {
        Watch {
            inner,
            last: [0, 0],
        }
    }
}

impl<D: DiceSource> DiceSource for Watch<'_, D> {
    fn d6(&mut self) -> u8 {
        let d = self.inner.d6();
        self.last = [self.last[1], d];
        d
    }
    fn rolled(&self) -> u64 {
        self.inner.rolled()
    }
    fn below(&mut self, n: u32) -> u32 {
        self.inner.below(n)
    }
    fn focus(&mut self, stream: u32) {
        self.inner.focus(stream);
    }
}

/// The chart result as the shared reaction result.
pub fn reaction(m: MoraleResult) -> ReactionResult {
    match m {
        MoraleResult::Good => ReactionResult::PassBoth,
        MoraleResult::Stand => ReactionResult::PassOne,
        MoraleResult::FallBack => ReactionResult::FailBoth,
        MoraleResult::Rout => ReactionResult::Rout,
    }
}

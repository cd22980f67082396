//! The start of a move (per-move state cleared, generals placed, routing units rallied), then
//! movement: every regiment's order made by both sides from the state at the start of the move
//! (ruling: charges declared at once), then routing units flee and the others carry out their
//! doctrine's order: hold, advance, or charge with the formation rules' throws, closing fire
//! and the pistol breach (horse charging each other meet as chargers). Every move, a
//! fall back's and a rout's too, pays the ground, stops short of enemies and of friends (unless
//! the rulings let it through), and leaves gaps in the hedges foot hack through.

use std::cell::{Cell, RefMut};
use std::f64::consts::PI;

use super::ground;
use super::regiment::{Engaged, Formation, Gait, Kind, Regiment, State};
use super::{Battle, emit};
use crate::army::Side;
use crate::battlefield::geometry::{Bounds, Shape, halve_to_touch};
use crate::battlefield::{AreaKind, LinearObstacle, ObstacleKind, Vec2};
use crate::dice::DiceSource;
use crate::events::{Event, Observer, ReactionResult};
use crate::rules::black_powder::battle::doctrine::{self, Plan};
use crate::rules::dickenson::events::Detail;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult};
use crate::setup::BattleSetup;

/// Inches under which a move is standing still (a move of 0.004" is no move at all).
const STOOD_STILL: f64 = 0.05;

/// A charge weighed from where the table stands: its facing and way, gait, reach over the
/// ground, the ground itself, the gap to the target, the run to contact and whether a friend
/// bars it.
#[derive(Debug, Clone, Copy)]
pub(super) struct ChargePath {
    aim: f64,
    dir: Vec2,
    gait: Gait,
    reach: f64,
    going: Going,
    need: f64,
    run: f64,
    blocked: bool,
}

impl ChargePath {
    /// The charge reaches contact over the ground, which allows it, with no friend in the way.
    pub(super) fn goes_in(&self) -> bool {
        self.run <= self.reach + 1e-6 && !self.going.no_charge && !self.blocked
    }
}

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
    /// A high wall on the way: foot take a full move to the other side.
    pub high_wall: bool,
}

/// What `over_ground` reads of a regiment besides the ground and the rules, with the move
/// asked for and the number of hedge gaps hacked so far (they only grow in a battle): the
/// same key, the same answer. (Floats by their bits: the same bits, the same answer, a zero's
/// sign included.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct GroundAsked {
    /// Position, frontage, depth, share of the move spent, direction and length.
    bits: [u64; 8],
    kind: Kind,
    formation: Formation,
    crossing: Option<u16>,
    gaps: usize,
}

impl GroundAsked {
    fn of(reg: &Regiment, dir: Vec2, full: f64, gaps: usize) -> GroundAsked {
        let floats = [
            reg.pos.x,
            reg.pos.y,
            reg.frontage,
            reg.depth,
            reg.spent,
            dir.x,
            dir.y,
            full,
        ];
        GroundAsked {
            bits: floats.map(f64::to_bits),
            kind: reg.kind,
            formation: reg.formation,
            crossing: reg.crossing,
            gaps,
        }
    }
}

/// A regiment's last `over_ground` question and answer, with its facing's bits when the
/// answer read it (a leg that went nowhere).
#[derive(Debug, Clone, Copy)]
pub(super) struct GroundKept {
    asked: GroundAsked,
    facing: Option<u64>,
    answer: (f64, Going),
}

/// A frontage of hedge hacked down (seed: "which is then removed"): on obstacle `obstacle`,
/// the stretch `half` inches either side of `at` inches from its first end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gap {
    pub obstacle: usize,
    pub at: f64,
    pub half: f64,
}

/// A regiment's order for its move: made just before it moves, or, both sides declaring at
/// once (ruling), from the state at the start of the move.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) enum Order {
    /// Nothing this move: in melee, not active, no doctrine, or the order carried out.
    #[default]
    None,
    /// Halted, held in reserve, or no enemy left.
    Halt,
    /// Its doctrine's plan against enemy `t`, `gap` off; `close_up`: its doctrine closes foot
    /// up against horse.
    Plan {
        plan: Plan,
        t: u16,
        gap: f64,
        close_up: bool,
        thrown: Thrown,
    },
}

impl Order {
    /// The regiment this order charges, if it is a charge.
    pub(super) fn charges(self) -> Option<usize> {
        match self {
            Order::Plan {
                plan: Plan::Charge,
                t,
                ..
            } => Some(usize::from(t)),
            _ => None,
        }
    }
}

/// The formation rules' throw a horse charge made at its declaration (ruling: the move's
/// phase 1), kept with the order until the charge is carried out.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) enum Thrown {
    /// None yet: whatever the formation rules call for is thrown when the charge goes in.
    #[default]
    AtContact,
    /// The charged foot threw first, this result, obeyed if the charge goes in.
    Target(MoraleResult),
    /// The horse threw at pike in two ranks: good or not.
    Charger(bool),
}

/// How a charge that does not go home ends (`Battle::charge_halted`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Halt {
    /// The charger advances its whole move (None) or this far along its path.
    Short(Option<f64>),
    /// The charger is turned away short of its target.
    TurnedAway,
    /// The charger was shot down by the closing fire: nothing more to tell.
    Shot,
}

/// What enemy horse threaten foot with next move (`Battle::horse_threat`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Threat {
    None,
    /// Horse halted to shoot the square the foot would form, outshooting its face.
    Shooting,
    /// Horse that would charge the foot in line.
    Charge,
}

/// What a move along one way may cover: the distance over the ground, its going, the gait
/// (a gallop slowed to a canter where the ground forbids it) and the gait's full move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Leg {
    pub dist: f64,
    pub going: Going,
    pub gait: Gait,
    pub full: f64,
}

/// Who stops a move: everyone, enemies only (friends let through: routers, fall backs if the
/// rulings say), or friends only (a charge's way to its target).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Holds {
    Everyone,
    Enemies,
    Friends,
}

impl Holds {
    pub(super) fn enemies(self) -> bool {
        self != Holds::Friends
    }
    pub(super) fn friends(self) -> bool {
        self != Holds::Enemies
    }
}

/// Whether two footprints are surely farther apart than `gap` (their circles first).
fn apart(a: &Shape, b: &Shape, gap: f64) -> bool {
    a.centre.dist(b.centre) > a.radius + b.radius + gap || a.dist(b) >= gap
}

/// Whether friend `s` stands in the way of a regiment moving along its axis to `end`: more than
/// half across its line of march (ruling: neighbours in a line, whose corners brush as their
/// aims converge, do not hold each other).
pub(super) fn in_the_way(end: &Shape, s: &Shape) -> bool {
    let across = (s.centre - end.centre).dot(end.fwd.right()).abs();
    across < (end.half_frontage + s.half_frontage) / 2.0
}

/// A hair inside footprint `s`, so that friends side by side are not overlapping.
pub(super) fn inside(s: Shape) -> Shape {
    Shape {
        half_depth: (s.half_depth - 1e-6).max(0.0),
        half_frontage: (s.half_frontage - 1e-6).max(0.0),
        ..s
    }
}

/// The bit of area kind `k` in a set of kinds met.
const fn area_bit(k: AreaKind) -> u8 {
    1 << (k as u8)
}

/// The kinds of area the end of a move reads (`Battle::going_near`).
const MET_AT_THE_END: u8 =
    area_bit(AreaKind::Woods) | area_bit(AreaKind::Bog) | area_bit(AreaKind::Hill);

/// The farthest of `max` and the twelve halvings below it that `clear` passes, 0 if none:
/// the way only grows, so one blocked point rules out all beyond it.
fn halve(max: f64, mut clear: impl FnMut(f64) -> bool) -> f64 {
    if clear(max) {
        return max;
    }
    let (mut lo, mut hi) = (0.0, max);
    for _ in 0..12 {
        let mid = (lo + hi) / 2.0;
        if clear(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A regiment a run may meet (`Battle::clear_run`): its footprint, and its distance from the
/// mover's footprint where the run starts, as `blocker` measures it (from a hair inside for a
/// friend), once asked: it is the same at every try.
#[derive(Debug, Clone)]
pub(super) struct Near {
    o: usize,
    shape: Shape,
    start: Cell<f64>,
}

impl Near {
    pub(super) fn of(o: usize, shape: Shape) -> Near {
        Near {
            o,
            shape,
            start: Cell::new(f64::NAN),
        }
    }

    /// Its distance from the run's start, measured by `measure` the first time it is asked.
    #[inline]
    fn start_gap(&self, measure: impl FnOnce() -> f64) -> f64 {
        let mut d = self.start.get();
        if d.is_nan() {
            d = measure();
            self.start.set(d);
        }
        d
    }
}

/// How far across its line a run of up to some distance can carry the mover, to rule out the
/// friends out of its way wherever it ends (`in_the_way`).
struct Aside {
    from: Vec2,
    right: Vec2,
    /// The most the run's end strays across the line it starts on, with a margin far above
    /// the rounding of the end's place.
    drift: f64,
    half_frontage: f64,
}

impl Aside {
    /// For regiment `me`'s runs of up to `max` along `dir`, facing `fwd`.
    fn of(me: &Regiment, dir: Vec2, fwd: Vec2, max: f64) -> Aside {
        let right = fwd.right();
        Aside {
            from: me.pos,
            right,
            drift: max * dir.dot(right).abs() + 1e-6,
            half_frontage: me.frontage / 2.0,
        }
    }

    /// Whether friend `o` is out of the way of every end of the run (as `in_the_way` tests
    /// it: the gap across between centres against half the two half frontages).
    fn clear_of(&self, o: &Regiment) -> bool {
        let across = (o.pos - self.from).dot(self.right).abs();
        across - self.drift >= (self.half_frontage + o.frontage / 2.0) / 2.0
    }
}

/// Where the ways of a run of up to some distance lie, to rule out the regiments that cannot
/// hold it anywhere on it: in the frame of the mover's facing (from where it stands), between
/// `behind` and `ahead` along it and within `lateral` of its line across it. Each carries the
/// contact gap and a margin far above rounding.
#[derive(Debug, Clone, Copy)]
struct RunReach {
    from: Vec2,
    fwd: Vec2,
    right: Vec2,
    behind: f64,
    ahead: f64,
    lateral: f64,
}

impl RunReach {
    /// Whether a regiment whose footprint lies within `radius` of `centre` may hold the run
    /// (false only when it surely cannot).
    fn may_hold(&self, centre: Vec2, radius: f64) -> bool {
        let d = centre - self.from;
        let along = d.dot(self.fwd);
        d.dot(self.right).abs() <= self.lateral + radius
            && along >= self.behind - radius
            && along <= self.ahead + radius
    }

    /// The box of the centres of every footprint within `radius` of its centre that may hold
    /// the run (`may_hold`): the corners of that rectangle in the mover's frame.
    fn bounds(&self, radius: f64) -> (Vec2, Vec2) {
        let along = (self.ahead - self.behind) / 2.0 + radius;
        let across = self.lateral + radius;
        let mid = self.from + self.fwd * ((self.ahead + self.behind) / 2.0);
        let half = |f: f64, r: f64| along * f.abs() + across * r.abs();
        let grow = Vec2::new(
            half(self.fwd.x, self.right.x),
            half(self.fwd.y, self.right.y),
        );
        (mid - grow, mid + grow)
    }
}

impl Battle {
    /// Per-move state cleared; reserves committed on losses; unhorsed generals back; generals
    /// placed; rallies.
    pub fn start_of_move<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        for reg in &mut self.regiments {
            // Horse that stood the whole move (halted to shoot, in melee, held) are at the
            // halt: the next move starts from a trot, one gait a move.
            if reg.moved < STOOD_STILL {
                reg.gait = Gait::Halt;
            }
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
        self.commit_reserves_on_losses(setup);
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
        let routing = (self.commanded(general.command))
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
        let chosen = routing.or_else(|| {
            let d = general
                .command
                .and_then(|c| self.command_doctrine(usize::from(c), setup));
            let (mut sum, mut count) = (Vec2::new(0.0, 0.0), 0.0);
            for r in self.commanded(general.command).filter(active) {
                sum = sum + self.regiments[r].pos;
                count += 1.0;
            }
            if count == 0.0 {
                return None;
            }
            if let Some(d) = d.filter(|d| d.general_leads) {
                let front = (self.commanded(general.command))
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
            (self.commanded(general.command))
                .filter(active)
                .min_by(|&a, &b| {
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

    /// Routing units flee; the rest act on their orders, side by side in the roll-off order.
    /// Both sides declaring at once (ruling), every order is made first, from the state at the
    /// start of the move, with the formation changes it calls for; else each regiment decides
    /// as it comes to move.
    pub fn movement_phase<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let at_once = self.rules.battle.charges_declared_at_once;
        if at_once {
            self.declare(setup, dice, obs);
        }
        for side in self.sides() {
            for r in 0..self.regiments.len() {
                let reg = &self.regiments[r];
                if reg.side != side {
                    continue;
                }
                // Declared at once, a regiment thrown back before its turn has had its move.
                if at_once && reg.moved > 0.0 {
                    self.forestalled(r, self.orders[r], obs);
                    continue;
                }
                match reg.state {
                    State::Routing => self.flee(r, obs),
                    State::Active if at_once => {
                        let order = self.orders.take(r);
                        self.carry_out(r, order, dice, obs);
                    }
                    State::Active => self.act(r, setup, dice, obs),
                    State::Gone => {}
                }
            }
        }
    }

    /// Phase 1 of the move (ruling): every active regiment's order from the state at the start
    /// of the move, in the roll-off order; then the formation changes the orders call for;
    /// then, if the rules say, the formation rules' throws of the charges declared.
    fn declare<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        // Nobody moves until the formation changes are made: each regiment's nearest active
        // enemy found for its order is kept for the weighing of horse in the dressing.
        self.table_still(true);
        // An order not carried out last move (its regiment thrown back first) is not this
        // move's: the orders made so far are what a later one may weigh.
        self.orders.clear();
        self.weighing(true);
        self.each_in_roll_off_order(|b, r| {
            let order = match b.regiments[r].state {
                State::Active => b.order(r, setup),
                _ => Order::None,
            };
            b.orders.set(r, order);
        });
        self.weighing(false);
        self.dressing_reach = Some(Side::BOTH.map(|s| self.horse_reach_now(s)));
        self.each_in_roll_off_order(|b, r| b.dress_for(r, b.orders[r], setup, obs));
        self.dressing_reach = None;
        self.table_still(false);
        self.each_in_roll_off_order(|b, r| b.redeclare_if_closed(r, setup));
        if self.rules.battle.formation_throws_at_declaration {
            self.each_in_roll_off_order(|b, r| b.declaration_throw(r, dice, obs));
        }
    }

    /// Horse `r` whose charge target closed up in this phase's dressing into a formation horse
    /// cannot charge (seed, FORMATIONS: pike three or more deep) make their order again on the
    /// table as the dressing left it, so that no charge the rules forbid is declared: the
    /// order asks `uncharged_by_horse`, as the charge does. Nobody dresses again: the foot
    /// closed up against this horse, and stay so.
    fn redeclare_if_closed(&mut self, r: usize, setup: &BattleSetup) {
        if let Some(t) = self.orders.charge_target(r)
            && self.regiments[r].is_horse()
            && self.regiments[t].uncharged_by_horse(&self.rules)
        {
            let order = self.order(r, setup);
            self.orders.set(r, order);
        }
    }

    /// The throw the formation rules call for before horse `r`'s declared charge meets its
    /// target as it stands now (ruling: phase 1), kept with the order. Foot charging and
    /// guns charged (their gunners throw before firing) throw, if at all, at contact.
    fn declaration_throw<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let Some(t) = self.orders.charge_target(r) else {
            return;
        };
        let target = self.regiments[t];
        if !self.regiments[r].is_horse()
            || target.state != State::Active
            || target.is_gun()
            || target.uncharged_by_horse(&self.rules)
        {
            return;
        }
        let thrown = if self.throws_against_horse(t) {
            Thrown::Target(self.throw_first(t, r, dice, obs))
        } else if self.pikestand(t) {
            let adds = Adds::of(&[Add::Attacker]);
            Thrown::Charger(self.formation_throw(r, t, adds, dice, obs))
        } else {
            return;
        };
        self.orders.keep_thrown(r, thrown);
    }

    /// Whether regiment `t` is foot with pikes that horse must enter to strike.
    fn pikestand(&self, t: usize) -> bool {
        self.regiments[t].kind == Kind::Foot && self.regiments[t].pikemen > 0
    }

    /// One regiment decides and carries out its move (each side deciding as it moves).
    fn act<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let order = self.order(r, setup);
        self.dress_for(r, order, setup, obs);
        self.carry_out(r, order, dice, obs);
    }

    /// Regiment `r`'s order for its move, from its doctrine and the table as it stands.
    fn order(&self, r: usize, setup: &BattleSetup) -> Order {
        let reg = self.regiments[r];
        if reg.engaged.is_some() {
            return Order::None;
        }
        if reg.halt_until >= self.turn || self.in_reserve(usize::from(reg.command)) {
            return Order::Halt;
        }
        let Some((t, gap)) = self.nearest_active(r) else {
            return Order::Halt;
        };
        let Some(d) = self.doctrine(r, setup) else {
            return Order::None;
        };
        // Horse whose nearest enemy they cannot charge choose whom to go for (doctrine).
        let (t, gap, stand_at) = match reg.kind {
            Kind::Horse(_) => self.horse_aim(r, t, gap),
            _ => (t, gap, 0.0),
        };
        let target = self.regiments[t];
        let range = match reg.kind {
            Kind::Horse(_) => stand_at,
            Kind::Gun(c) => c.gun(&self.rules).maximum_range,
            _ => self.shooting_range(r, t, gap),
        };
        // Ruling: only foot in line charge, and no column; horse cannot charge pike three deep.
        let may_charge = match reg.kind {
            Kind::ForlornHope | Kind::Gun(_) => false,
            Kind::Foot => reg.formation == Formation::Line,
            _ => reg.formation != Formation::Column && !target.uncharged_by_horse(&self.rules),
        };
        let mut situation = self.situation(r, t, gap, may_charge && self.open_to_charge(t), range);
        let mut plan = doctrine::plan(d, &self.knobs(), &situation);
        if plan == Plan::Charge && self.rules.battle.charge_sees_the_way && !self.charge_clear(r, t)
        {
            // A general does not order a charge that the ground or his own men would stop.
            situation.may_charge = false;
            plan = doctrine::plan(d, &self.knobs(), &situation);
        }
        Order::Plan {
            plan,
            t: t as u16,
            gap,
            close_up: d.hedgehog_vs_horse,
            thrown: Thrown::AtContact,
        }
    }

    /// Whether regiment `r`'s charge on `t` would go in as the table stands and, the rules
    /// sharing charges out, past the friends already ordered to charge `t`.
    pub(super) fn charge_clear(&self, r: usize, t: usize) -> bool {
        let path = self.charge_path(r, t);
        if self.is_weighing() {
            self.weighed[r].set(Some((t as u16, path)));
        }
        path.goes_in()
            && !(self.rules.battle.charges_shared_out && self.friends_charging_stop(r, t, &path))
    }

    /// Whether the orders are being made at once (`declare`): the charges they weigh are kept
    /// (`weighed`), the table standing as it is until every order is made.
    fn is_weighing(&self) -> bool {
        self.weighing.get()
    }

    /// The orders start (`on`) or finish being made at once: either way, no charge weighed
    /// before is kept.
    pub(super) fn weighing(&self, on: bool) {
        self.weighing.set(on);
        for w in &self.weighed {
            w.set(None);
        }
    }

    /// Regiment `f`'s charge on `t` as the table stands: the one its order weighed, if the
    /// orders are being made at once and it weighed one on `t`.
    pub(super) fn weighed_path(&self, f: usize, t: usize) -> ChargePath {
        match self.weighed[f].get() {
            Some((on, path)) if self.is_weighing() && usize::from(on) == t => path,
            _ => self.charge_path(f, t),
        }
    }

    /// Whether a friend already ordered this move to charge `t`, standing where its own
    /// charge ends (in contact with `t`), would stop regiment `r`'s charge along `path`.
    fn friends_charging_stop(&self, r: usize, t: usize, path: &ChargePath) -> bool {
        let side = self.regiments[r].side;
        let (fwd, end) = (
            Vec2::from_facing(path.aim),
            self.regiments[r].pos + path.dir * path.run,
        );
        self.orders.charging(t).any(|f| {
            f != r && self.regiments[f].side == side && {
                let theirs = self.weighed_path(f, t);
                let from = self.regiments[f].pos;
                let there = self.shape_at(f, from + theirs.dir * theirs.run, theirs.aim);
                let stand = [Near::of(f, there)];
                self.blocker(r, end, fwd, Holds::Friends, &stand).is_some()
            }
        })
    }

    /// The formation change regiment `r`'s order calls for (guns have none).
    fn dress_for<O: Observer>(&mut self, r: usize, order: Order, setup: &BattleSetup, obs: &mut O) {
        let Order::Plan {
            plan,
            gap,
            close_up,
            ..
        } = order
        else {
            return;
        };
        let reg = self.regiments[r];
        if reg.is_gun() {
            return;
        }
        if reg.can_form(Formation::Column, &self.rules) {
            self.dress(r, plan, gap, close_up, setup, obs);
        }
    }

    /// Regiment `r`'s charge, if `order` declared one, not made: the regiment was charged or
    /// thrown back before its turn. Told (unless the target has left the table, when the
    /// charge would have fallen short), for the story and `charges_forestalled`.
    fn forestalled<O: Observer>(&self, r: usize, order: Order, obs: &mut O) {
        let Some(t) = order.charges() else {
            return;
        };
        let (reg, target) = (&self.regiments[r], &self.regiments[t]);
        if target.state != State::Gone {
            let (unit, target, engaged) = (reg.unit, target.unit, reg.engaged.is_some());
            let d = Detail::ChargeForestalled {
                unit,
                target,
                engaged,
            };
            emit(obs, Event::Dickenson(d));
        }
    }

    /// Regiment `r` carries out its order, unless it is in melee by now.
    fn carry_out<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        order: Order,
        dice: &mut D,
        obs: &mut O,
    ) {
        if self.regiments[r].engaged.is_some() {
            self.forestalled(r, order, obs);
            return;
        }
        let (plan, t, gap, thrown) = match order {
            Order::None => return,
            Order::Halt => {
                self.regiments[r].gait = Gait::Halt;
                return;
            }
            Order::Plan {
                plan,
                t,
                gap,
                thrown,
                ..
            } => (plan, usize::from(t), gap, thrown),
        };
        if self.regiments[r].is_gun() {
            self.serve_gun(r, t, gap, plan, obs);
            return;
        }
        match plan {
            Plan::Hold => self.hold(r, t, gap, obs),
            Plan::Advance if self.closed_into_range(r) => self.regiments[r].gait = Gait::Halt,
            Plan::Advance => {
                // Ruling: an advance goes no faster than a canter; only a charge gallops.
                let gait = self.regiments[r].next_gait(&self.rules).min(Gait::Canter);
                let aim = self.advance_aim(r, t, gap);
                self.advance_round_friends(r, aim, gait, obs);
            }
            Plan::Charge => self.charge_thrown(r, t, thrown, dice, obs),
        }
    }

    /// Whether shooter `r`, ordered to advance, finds an enemy within its long range as its
    /// turn comes (one that moved first closed in): it stands to give fire, as its doctrine
    /// stands shooters in range (doctrine, `battle.shooters_stand_in_range`), if it has a clear
    /// line to one (`clear_line_within`). Horse and guns are not asked: their orders weigh range
    /// their own way.
    fn closed_into_range(&self, r: usize) -> bool {
        let reg = &self.regiments[r];
        if !self.rules.battle.shooters_stand_in_range
            || matches!(reg.kind, Kind::Horse(_) | Kind::Gun(_))
        {
            return false;
        }
        let long = reg.long_range(&self.rules);
        self.nearest_active(r)
            .is_some_and(|(t, gap)| gap <= long && self.clear_line_within(r, t, long))
    }

    /// The range shooter `r` (foot, forlorn hope, dragoons) orders by, its nearest active enemy
    /// `t` at `gap`: its long range, or none while friends mask every line of fire to the
    /// enemies within it (ruling, `battle.clear_line_of_fire`): it cannot fire, so it moves as
    /// its doctrine moves it out of range, round the friends before it (`lanes`).
    fn shooting_range(&self, r: usize, t: usize, gap: f64) -> f64 {
        let long = self.regiments[r].long_range(&self.rules);
        if gap <= long && !self.clear_line_within(r, t, long) {
            0.0
        } else {
            long
        }
    }

    /// Ruling: an advance keeps the regiment's own lane, straight ahead as its neighbours go,
    /// so a wing does not converge on one enemy; once its nearest enemy `t` is within `gap`
    /// of the ruling's distance, or off to a flank, it turns on it.
    fn advance_aim(&self, r: usize, t: usize, gap: f64) -> f64 {
        let b = &self.rules.battle;
        let (me, enemy) = (self.regiments[r].pos, self.regiments[t].pos);
        if gap > b.advance_straight_beyond && self.bearing(r, enemy) <= b.advance_flank_degrees {
            self.regiments[r].facing
        } else {
            (enemy - me).facing()
        }
    }

    /// What the ground does to regiment `r` moving from `a` to `b` (turned to face the way it
    /// goes, or straight away from it): the areas its footprint meets where the move ends and
    /// where it starts, woods anywhere under the way it sweeps (horse), and the obstacles its
    /// footprint reaches ahead of its centre (`ground`).
    pub fn going(&self, r: usize, a: Vec2, b: Vec2) -> Going {
        self.going_near(r, a, b, self.near_way(r, a, b))
    }

    /// `going`, asking only the ground in `near` (which holds all the move may meet).
    pub(super) fn going_near(&self, r: usize, a: Vec2, b: Vec2, near: ground::Near) -> Going {
        let mut g = Going {
            share: 1.0,
            extra: 0.0,
            disorders: false,
            no_gallop: false,
            no_charge: false,
            blocked: false,
            high_wall: false,
        };
        let (dir, len) = self.way_of(r, a, b);
        let dims = self.footing(r);
        self.areas_going(&mut g, r, (a, b, dir, len), dims, near);
        self.obstacles_going(&mut g, r, (a, dir, len), dims, near);
        g
    }

    /// What the areas do to regiment `r`'s move from `a` to `b` (`dir`, `len`; `dims` its
    /// footing): woods and bog where it ends, woods on the way for horse, a road for a column,
    /// a hill climbed or left.
    fn areas_going(
        &self,
        g: &mut Going,
        r: usize,
        (a, b, dir, len): (Vec2, Vec2, Vec2, f64),
        dims: (f64, f64),
        near: ground::Near,
    ) {
        let t = &self.rules.terrain;
        let reg = &self.regiments[r];
        let horse = reg.is_horse();
        let (start, end) = (
            Shape::new(a, dir, dims.0, dims.1),
            Shape::new(b, dir, dims.0, dims.1),
        );
        // (Only the kinds read below: hills where the move starts; woods, bog and hills
        // where it ends.)
        let (from, to) = (
            self.ground_under(&start, near, area_bit(AreaKind::Hill)),
            self.ground_under(&end, near, MET_AT_THE_END),
        );
        let has = |m: u8, k: AreaKind| m & area_bit(k) != 0;
        if has(to, AreaKind::Woods) {
            if horse && !t.woods_cavalry {
                g.blocked = true;
            } else if reg.kind == Kind::ForlornHope {
                g.share *= 1.0 - t.woods_skirmisher_loss;
            } else {
                g.share *= t.woods_infantry_share;
                g.disorders = true;
            }
        }
        if has(to, AreaKind::Bog) {
            g.share *= t.bog_share;
            g.disorders = true;
        }
        // Seed: horse cannot enter woods, not even to ride through them.
        if horse && !t.woods_cavalry && self.woods_on_way(&start, dir, len, near) {
            g.blocked = true;
        }
        // Seed: roads add a sixth, to columns only (ruling: a column on the road, centre to
        // centre; a road is narrower than a regiment).
        if reg.formation == Formation::Column
            && self.area_at(a, near) == Some(AreaKind::Road)
            && self.area_at(b, near) == Some(AreaKind::Road)
        {
            g.share *= 1.0 + t.road_gain;
        }
        let (up, down) = (
            has(to, AreaKind::Hill) && !has(from, AreaKind::Hill),
            has(from, AreaKind::Hill) && !has(to, AreaKind::Hill),
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
    }

    /// What the obstacles the move from `a` along `dir` for `len` reaches do to regiment `r`
    /// (`dims` its footing): streams and fords, hedges (open where hacked), walls, high walls.
    fn obstacles_going(
        &self,
        g: &mut Going,
        r: usize,
        (a, dir, len): (Vec2, Vec2, f64),
        dims: (f64, f64),
        near: ground::Near,
    ) {
        let t = &self.rules.terrain;
        let horse = self.regiments[r].is_horse();
        for (i, o) in self.ground.obstacles.iter().enumerate() {
            if !near.obstacle(i) || self.paid_already(r, a, i) {
                continue;
            }
            let Some(p) = self.passage(a, dir, len, dims, o) else {
                continue;
            };
            match o.kind {
                ObstacleKind::Stream | ObstacleKind::Ford if o.severity <= 0.0 => g.blocked = true,
                ObstacleKind::Stream => {
                    g.share *= t.stream_share;
                    g.disorders = true;
                }
                // Seed: a ford halves the river's crossing (the stream's loss).
                ObstacleKind::Ford => {
                    g.share *= 1.0 - (1.0 - t.stream_share) * t.ford_share;
                    g.disorders = true;
                }
                ObstacleKind::Hedge if ground::open(&self.gaps, i, p.lo, p.hi) => {}
                ObstacleKind::HighWall if horse && !t.high_wall_cavalry => g.blocked = true,
                // Ruling: ditches are crossed as hedges (horse let over a high wall, as a low one).
                ObstacleKind::Hedge
                | ObstacleKind::Ditch
                | ObstacleKind::Wall
                | ObstacleKind::HighWall
                    if horse =>
                {
                    g.extra += t.hedge_cavalry_extra;
                    g.no_gallop |= !t.hedge_cavalry_gallop;
                    g.no_charge |= matches!(o.kind, ObstacleKind::Wall | ObstacleKind::HighWall)
                        && !t.low_wall_charge;
                }
                // Foot: the move ends at its foot, or over it (`over_ground`).
                ObstacleKind::HighWall => {
                    g.high_wall = true;
                    g.disorders = true;
                    g.no_charge = true;
                }
                ObstacleKind::Wall => {
                    g.share *= t.low_wall_infantry_share;
                    g.disorders = true;
                    g.no_charge |= !t.low_wall_charge;
                }
                ObstacleKind::Hedge | ObstacleKind::Ditch => g.share *= t.hedge_hack_share,
            }
        }
    }

    /// The unit direction and length of a move from `a` to `b` (regiment `r`'s facing when it
    /// goes nowhere).
    pub(super) fn way_of(&self, r: usize, a: Vec2, b: Vec2) -> (Vec2, f64) {
        let len = a.dist(b);
        if len > 0.0 {
            ((b - a) * (1.0 / len), len)
        } else {
            (Vec2::from_facing(self.regiments[r].facing), 0.0)
        }
    }

    /// The frontage and depth with which regiment `r` meets the ground: its footprint's, or a
    /// point at its centre when the rulings say the centre alone meets it.
    pub(super) fn footing(&self, r: usize) -> (f64, f64) {
        let reg = &self.regiments[r];
        if self.rules.terrain.footprint_meets_ground {
            (reg.frontage, reg.depth)
        } else {
            (0.0, 0.0)
        }
    }

    /// The ground a move of regiment `r` from `a` to `b` may meet, its footprints, its way
    /// and the points it starts and ends at (`ground::Near`), told by the areas' and the
    /// obstacles' boxes (worked out once a battle).
    pub(super) fn near_way(&self, r: usize, a: Vec2, b: Vec2) -> ground::Near {
        let (w, d) = self.footing(r);
        let reach = ground::swept(a, b, Shape::radius_of(w, d));
        ground::Near::within(&reach, &self.area_bounds, &self.obstacle_bounds)
    }

    /// The areas of `near` (with their boxes), by index.
    fn near_areas(
        &self,
        near: ground::Near,
    ) -> impl Iterator<Item = (&crate::battlefield::Area, &Bounds)> {
        let areas = self.ground.areas.iter().zip(&self.area_bounds);
        areas
            .enumerate()
            .filter(move |(i, _)| near.area(*i))
            .map(|(_, ab)| ab)
    }

    /// The kinds of area (one bit each, `area_bit`) of `near` that footprint `s` meets, of
    /// those in `kinds` (inlined: asked for every leg a move weighs). An area is measured only
    /// when its kind is wanted and not yet met.
    #[inline]
    fn ground_under(&self, s: &Shape, near: ground::Near, kinds: u8) -> u8 {
        let sb = ground::bounds_of(s);
        self.near_areas(near).fold(0, |met, (a, b)| {
            let bit = area_bit(a.kind);
            if bit & kinds & !met != 0 && ground::meets(a, b, s, &sb) {
                met | bit
            } else {
                met
            }
        })
    }

    /// The kind of the first area that holds point `p` (`Ground::area_at`), of those in
    /// `near` (the rest cannot) whose box is not clear of it (nor can those).
    pub(super) fn area_at(&self, p: Vec2, near: ground::Near) -> Option<AreaKind> {
        let at = Bounds { lo: p, hi: p };
        self.near_areas(near)
            .find(|(a, b)| !at.clear_of(b) && a.contains(p))
            .map(|(a, _)| a.kind)
    }

    /// Whether the way footprint `start` sweeps going `len` along `dir` meets a wood of `near`
    /// it does not already stand in (ruling: horse caught in a wood may ride out of it).
    fn woods_on_way(&self, start: &Shape, dir: Vec2, len: f64, near: ground::Near) -> bool {
        let way = Shape::new(
            start.centre + dir * (len / 2.0),
            dir,
            2.0 * start.half_frontage,
            2.0 * start.half_depth + len,
        );
        let (wb, sb) = (ground::bounds_of(&way), ground::bounds_of(start));
        self.near_areas(near).any(|(a, b)| {
            a.kind == AreaKind::Woods
                && ground::meets(a, b, &way, &wb)
                && !ground::meets(a, b, start, &sb)
        })
    }

    /// Where regiment `r`'s footing `dims` going `len` from `a` along `dir` passes over
    /// obstacle `o` ahead of its centre (`ground::passage`; its box tried first, inlined
    /// where asked: the box most often rules the obstacle out).
    #[inline(always)]
    fn passage(
        &self,
        a: Vec2,
        dir: Vec2,
        len: f64,
        dims: (f64, f64),
        o: &LinearObstacle,
    ) -> Option<ground::Passage> {
        let way = Shape::new(
            a + dir * ((len + dims.1 / 2.0) / 2.0),
            dir,
            dims.0,
            dims.1 / 2.0 + len,
        );
        if ground::bounds_of(&way).clear_of(&Bounds::of_segment(o.a, o.b)) {
            return None;
        }
        ground::passage(a, dir, len, dims, o)
    }

    /// The distance a move of `full` inches along `dir` gets over the ground, and the going.
    /// Foot meeting a high wall stop at its foot; standing there with the move it takes still
    /// to spend, they go over to as far beyond it as the contact gap (ruling). A move the
    /// ground forbids (woods or a high wall for horse, an impassable river) stops at the
    /// ground's edge.
    pub(super) fn over_ground(&self, r: usize, dir: Vec2, full: f64) -> (f64, Going) {
        // The same question twice running (a charge weighed, then falling short as an
        // advance; a rout's gait, then its flight) is answered once.
        let reg = &self.regiments[r];
        let asked = GroundAsked::of(reg, dir, full, self.gaps.len());
        if let Some(kept) = self.ground_asked[r].get()
            && kept.asked == asked
            && kept.facing.is_none_or(|f| f == reg.facing.to_bits())
        {
            return kept.answer;
        }
        let faced = Cell::new(false);
        let answer = self.weigh_ground(r, dir, full, &faced);
        let facing = faced.get().then_some(reg.facing.to_bits());
        let kept = GroundKept {
            asked,
            facing,
            answer,
        };
        self.ground_asked[r].set(Some(kept));
        answer
    }

    /// `over_ground` worked out; `faced` is set when a leg that goes nowhere was weighed
    /// (along the regiment's facing: `way_of`).
    pub(super) fn weigh_ground(
        &self,
        r: usize,
        dir: Vec2,
        full: f64,
        faced: &Cell<bool>,
    ) -> (f64, Going) {
        let from = self.regiments[r].pos;
        // Most legs asked below lie within the full move; those beyond it (over a high wall,
        // or priced past it by a share above one) ask the ground near themselves.
        let near = self.near_way(r, from, from + dir * full);
        let going = |d: f64| {
            let to = from + dir * d;
            // (`way_of`'s test of a leg that goes nowhere.)
            if from.dist(to).partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                faced.set(true);
            }
            if d <= full {
                self.going_near(r, from, to, near)
            } else {
                self.going(r, from, to)
            }
        };
        let mut want = full;
        let mut g = going(want);
        if g.high_wall {
            let foot = self.high_wall_at(r, dir, want);
            let gap = self.rules.battle.contact_gap;
            let needs = self.rules.terrain.high_wall_infantry_share;
            if foot > gap + 1e-9 {
                want = foot - gap;
                g = going(want);
            } else if 1.0 - self.regiments[r].spent + 1e-9 >= needs {
                // Over, its rear the contact gap beyond the wall.
                let over = foot + self.footing(r).1 + gap;
                return (over, going(over));
            } else {
                return (0.0, g);
            }
        }
        if g.blocked {
            (want, g) = self.ground_edge(&going, want);
            if g.blocked {
                return (0.0, g);
            }
        }
        let priced = (want * g.share - g.extra).max(0.0);
        if self.rules.terrain.pay_ground_crossed {
            return self.paid_as_crossed(&going, full, (want, g), priced);
        }
        (priced, g)
    }

    /// Whether a move of regiment `r` from `a` has paid for obstacle `i` already: it stands
    /// astride it, its last move having paid to bring its front over (ruling: an obstacle is
    /// paid once, not again by the move that takes the centre over).
    fn paid_already(&self, r: usize, a: Vec2, i: usize) -> bool {
        let reg = &self.regiments[r];
        reg.crossing == Some(i as u16) && reg.pos == a
    }

    /// The obstacle regiment `r`, moved from `from` to `to`, stands astride (ahead of its
    /// centre, within its footprint, not merely touching its front) having paid for it:
    /// crossed by this move, or astride it already before (a move that went nowhere). High
    /// walls and impassable rivers are never paid as a share: foot go over a high wall whole
    /// (`over_ground`), and nobody stands astride what it may not cross.
    fn astride(&self, r: usize, from: Vec2, to: Vec2) -> Option<u16> {
        let (dir, len) = self.way_of(r, from, to);
        let (w, d) = self.footing(r);
        let inside = (
            w,
            (d - 2.0 * self.rules.terrain.ground_edge_tolerance).max(0.0),
        );
        let before = self.regiments[r].crossing;
        // Obstacles clear of the move are met neither on the way nor at its end.
        let near = self.near_way(r, from, to);
        self.ground.obstacles.iter().enumerate().find_map(|(i, o)| {
            if !near.obstacle(i) {
                return None;
            }
            let payable = match o.kind {
                ObstacleKind::HighWall => false,
                ObstacleKind::Stream | ObstacleKind::Ford => o.severity > 0.0,
                _ => true,
            };
            let paid =
                before == Some(i as u16) || self.passage(from, dir, len, (w, d), o).is_some();
            (payable && paid && self.passage(to, dir, 0.0, inside, o).is_some()).then_some(i as u16)
        })
    }

    /// A move `priced` over the ground of its whole wanted leg (`want` inches, going `g`) that
    /// then ends short of some of that ground has paid for ground it never crossed (a ditch 8"
    /// ahead priced into a 12" move that ends at 8"). It goes on instead at the price of what
    /// it does cross, as far as `full` inches of allowance take it: found by halving to within
    /// the rulings' tolerance, as the price only grows with the distance. `going` is the going
    /// of the move's first `d` inches.
    fn paid_as_crossed(
        &self,
        going: &impl Fn(f64) -> Going,
        full: f64,
        (want, g): (f64, Going),
        priced: f64,
    ) -> (f64, Going) {
        // Priced at the whole leg's length, the leg is the one `g` measured.
        let met = if priced == want { g } else { going(priced) };
        if met.share == g.share && met.extra == g.extra {
            return (priced, g);
        }
        let affordable = |d: f64, gd: &Going| {
            !(gd.blocked || gd.high_wall || gd.share <= 0.0)
                && (d + gd.extra) / gd.share <= full + 1e-9
        };
        self.farthest(going, (priced, Some(met)), full, affordable)
    }

    /// How far a move goes, up to `want`, before it meets ground it may not enter (`going`
    /// of its first `d` inches): found by halving to within the rulings' tolerance (the
    /// ground met only grows with the move), short of the edge; and the going there.
    fn ground_edge(&self, going: &impl Fn(f64) -> Going, want: f64) -> (f64, Going) {
        self.farthest(going, (0.0, None), want, |_, g| !g.blocked)
    }

    /// The farthest distance between `lo` (where `ok` holds of the going there) and `hi` at
    /// which `ok` holds, found by halving to within the rulings' ground-edge tolerance (`ok`
    /// must hold up to some point and fail beyond it), and the going there: the one measured
    /// in the halving, or at `lo` (given, or measured once at the end).
    fn farthest(
        &self,
        going: &impl Fn(f64) -> Going,
        (mut lo, mut at_lo): (f64, Option<Going>),
        mut hi: f64,
        ok: impl Fn(f64, &Going) -> bool,
    ) -> (f64, Going) {
        let tolerance = self.rules.terrain.ground_edge_tolerance.max(1e-6);
        while hi - lo > tolerance {
            let mid = (lo + hi) / 2.0;
            let g = going(mid);
            if ok(mid, &g) {
                (lo, at_lo) = (mid, Some(g));
            } else {
                hi = mid;
            }
        }
        (lo, at_lo.unwrap_or_else(|| going(lo)))
    }

    /// Inches of a move of `len` along `dir` before regiment `r`'s leading edge meets its first
    /// high wall (`len` with none).
    fn high_wall_at(&self, r: usize, dir: Vec2, len: f64) -> f64 {
        let (from, dims) = (self.regiments[r].pos, self.footing(r));
        self.ground
            .obstacles
            .iter()
            .filter(|o| o.kind == ObstacleKind::HighWall)
            .filter_map(|o| self.passage(from, dir, len, dims, o))
            .fold(len, |at, p| at.min(p.first))
    }

    /// Foot (and guns, which cross ground as foot) crossing a hedge from `a` to `b` hack down
    /// the stretch of it their footprint passes over (their frontage measured along the
    /// hedge), open for every later move of the battle (seed).
    fn hack(&mut self, r: usize, a: Vec2, b: Vec2) {
        if self.regiments[r].is_horse() || a == b {
            return;
        }
        let (dir, len) = self.way_of(r, a, b);
        let dims = self.footing(r);
        let near = self.near_way(r, a, b);
        for i in 0..self.ground.obstacles.len() {
            let o = &self.ground.obstacles[i];
            if o.kind != ObstacleKind::Hedge || !near.obstacle(i) {
                continue;
            }
            if let Some(p) = self.passage(a, dir, len, dims, o)
                && !ground::open(&self.gaps, i, p.lo, p.hi)
            {
                self.gaps.push(Gap {
                    obstacle: i,
                    at: (p.lo + p.hi) / 2.0,
                    half: (p.hi - p.lo) / 2.0,
                });
            }
        }
    }

    /// The footprint of regiment `r` were it at `pos` facing `facing`.
    pub(super) fn shape_at(&self, r: usize, pos: Vec2, facing: f64) -> Shape {
        let reg = &self.regiments[r];
        reg.shape_at(pos, Vec2::from_facing(facing))
    }

    /// Whether regiment `r`, going straight along its facing (`fwd` its unit vector) from
    /// where it stands to `pos`, keeps clear all the way of those that `holds` it: the contact
    /// gap from enemies, no overlap with friends in its way that it may not pass (touching is
    /// allowed). An enemy already within the gap where it starts holds it only by its coming
    /// closer; a friend it already overlaps, not at all. Asks only `among` (other regiments on
    /// the table, with their footprints): the place in it of the first that holds it, if any.
    fn blocker(
        &self,
        r: usize,
        pos: Vec2,
        fwd: Vec2,
        holds: Holds,
        among: &[Near],
    ) -> Option<usize> {
        let reg = &self.regiments[r];
        let (from, end) = (reg.pos, reg.shape_at(pos, fwd));
        let start = end.at(from);
        let (frontage, depth) = (
            2.0 * end.half_frontage,
            2.0 * end.half_depth + from.dist(pos),
        );
        // The half sides' sum bounds the half diagonal with no square root: the way is only
        // ever measured against others (where a looser circle asks the corners sooner).
        let bound = (end.half_frontage + depth / 2.0) * (1.0 + 1e-12) + 1e-12;
        let way = Shape::sized((from + pos) * 0.5, end.fwd, frontage, depth, bound);
        let (within, start_within) = (inside(way), inside(start));
        let side = self.regiments[r].side;
        let gap = self.rules.battle.contact_gap;
        let lets_by = |near: &Near| {
            let (o, s) = (near.o, &near.shape);
            if self.regiments[o].side != side {
                if !holds.enemies() || way.beyond(s.centre, s.radius, gap) || way.dist(s) >= gap {
                    return true;
                }
                let was = near.start_gap(|| start.dist(s));
                return was < gap && end.dist(s) >= was;
            }
            !holds.friends()
                || self.passes(r, o)
                || !in_the_way(&end, s)
                || within.beyond(s.centre, s.radius, 0.0)
                || near.start_gap(|| start_within.dist(s)) == 0.0
                || within.dist(s) > 0.0
        };
        among.iter().position(|x| !lets_by(x))
    }

    /// Whether regiment `r`'s footprint where it stands keeps the contact gap from every enemy
    /// (a change of formation must: unlike a move, it has no way to be "already within").
    pub(super) fn clear_of_enemies(&self, r: usize) -> bool {
        let me = self.shape(r);
        let side = self.regiments[r].side;
        let gap = self.rules.battle.contact_gap;
        // Centres beyond both enclosing circles and the gap are apart.
        let far = me.radius + self.neighbours.max_radius() + gap;
        !any_within!(
            self,
            side.other(),
            me.centre,
            far,
            |o: usize, reg: &Regiment| {
                reg.state != State::Gone && !apart(&me, &self.shape(o), gap)
            }
        )
    }

    /// Whether regiment `r` may move through its friend `o` (ruling: a forlorn hope's open
    /// order, either way).
    pub(super) fn passes(&self, r: usize, o: usize) -> bool {
        self.rules.battle.forlorn_hope_open_order
            && (self.regiments[r].kind == Kind::ForlornHope
                || self.regiments[o].kind == Kind::ForlornHope)
    }

    /// How far along `dir` (its facing `facing`, or straight back) regiment `r` goes, up to
    /// `max`, before those that `holds` it stop it (found by halving: the way only grows).
    /// Only the regiments that could hold it somewhere on the run are asked, with their
    /// footprints made once; each failed try puts the one that stopped it first, where the
    /// next try (as near the same place) meets it at once, and drops those the shorter run
    /// left cannot reach. Neither changes the answer: a try asks whether none of them holds it.
    pub(super) fn clear_run(
        &self,
        r: usize,
        dir: Vec2,
        facing: f64,
        max: f64,
        holds: Holds,
    ) -> f64 {
        let (from, fwd, mut near) = self.run_from(r, dir, facing, max, holds);
        // Straight ahead, two bounds settle tries unmeasured.
        let straight = dir == fwd;
        let sure = if straight {
            self.clear_below(r, fwd, holds, &near)
        } else {
            0.0
        };
        // Past where the first to stop it surely still does (`blocked_past`), found once.
        let mut stopped: Option<f64> = None;
        halve(max, |d| {
            if d < sure {
                return true;
            }
            if stopped.is_some_and(|past| d > past) {
                return false;
            }
            let Some(i) = self.blocker(r, from + dir * d, fwd, holds, &near) else {
                return true;
            };
            near.swap(0, i);
            if stopped.is_none() {
                let past = straight.then(|| self.blocked_past(r, fwd, &near[0]));
                stopped = Some(past.flatten().unwrap_or(f64::INFINITY));
            }
            let reach = self.run_reach(r, dir, fwd, d);
            near.retain(|n| reach.may_hold(n.shape.centre, n.shape.radius));
            false
        })
    }

    /// A run straight ahead (along its facing `fwd`) beyond which friend `n`, which has just
    /// held regiment `r` (`blocker`), surely holds it still. That it held `r` shows that `r`
    /// may not pass it and that they did not overlap at the start, neither of which a run
    /// changes; whether it is in the way does not change along a straight run either (asked
    /// here with a margin far above the rounding of its measure at each try); and the way,
    /// which only grows, overlaps the friend by more than the margin once the footprint
    /// itself would somewhere along it (`Shape::overlap_along`). None when unsure (an enemy,
    /// whose hold hangs on the gap it keeps, is left to `blocker`).
    fn blocked_past(&self, r: usize, fwd: Vec2, n: &Near) -> Option<f64> {
        const SURE: f64 = 1e-6;
        let reg = &self.regiments[r];
        let (start, s) = (reg.shape_at(reg.pos, fwd), &n.shape);
        let across = (s.centre - start.centre).dot(fwd.right()).abs();
        if self.regiments[n.o].side != reg.side
            || across >= (start.half_frontage + s.half_frontage) / 2.0 - SURE
        {
            return None;
        }
        let (enter, leave) = inside(start).overlap_along(fwd, s, SURE)?;
        (leave > 0.0).then_some(enter.max(0.0))
    }

    /// A run straight ahead (along its facing `fwd`) shorter than which regiment `r` surely
    /// meets none of `near` (`blocker` would let every one by): the least, over those that
    /// hold it, of where its way's front edge would come within the gap of one's shadow on
    /// the facing (the contact gap from an enemy, touching a friend), or never for one whose
    /// shadow lies wholly beside or behind the way. The way's sides and back do not move as
    /// it grows, and a footprint parted from another by more than `gap` along one axis is
    /// farther than `gap` from it, so every shorter try is clear and need not be measured;
    /// a margin far above rounding keeps it sure.
    fn clear_below(&self, r: usize, fwd: Vec2, holds: Holds, near: &[Near]) -> f64 {
        const SURE: f64 = 1e-6;
        let reg = &self.regiments[r];
        let (half_depth, half_frontage) = (reg.depth / 2.0, reg.frontage / 2.0);
        let right = fwd.right();
        let mut sure = f64::INFINITY;
        for n in near {
            let s = &n.shape;
            let gap = if self.regiments[n.o].side != reg.side {
                if !holds.enemies() {
                    continue;
                }
                self.rules.battle.contact_gap
            } else {
                if !holds.friends() {
                    continue;
                }
                0.0
            };
            let rel = s.centre - reg.pos;
            let (along, across) = (rel.dot(fwd), rel.dot(right).abs());
            let (deep, wide) = (s.shadow(fwd), s.shadow(right));
            if across - wide - half_frontage > gap + SURE || along + deep < -half_depth - gap - SURE
            {
                continue;
            }
            sure = sure.min(along - deep - half_depth - gap - SURE);
        }
        sure
    }

    /// Whether `clear_run` would stop regiment `r` short of `max`: its first try, the whole
    /// run, fails (every later try is shorter, and `halve` never answers a failed try), and
    /// the run goes somewhere (a run of 0 answers 0 whatever stands in the way). Only the
    /// answer, with none of the halvings that measure how far it gets.
    pub(super) fn run_stopped(
        &self,
        r: usize,
        dir: Vec2,
        facing: f64,
        max: f64,
        holds: Holds,
    ) -> bool {
        let (from, fwd, near) = self.run_from(r, dir, facing, max, holds);
        max > 0.0 && (self.blocker(r, from + dir * max, fwd, holds, &near)).is_some()
    }

    /// Where regiment `r`'s runs of up to `max` along `dir`, facing `facing`, start, the
    /// facing's unit vector, and the regiments that could hold it somewhere on them
    /// (`gather_near`), in the runs' buffer.
    fn run_from(
        &self,
        r: usize,
        dir: Vec2,
        facing: f64,
        max: f64,
        holds: Holds,
    ) -> (Vec2, Vec2, RefMut<'_, Vec<Near>>) {
        let (from, fwd) = (self.regiments[r].pos, Vec2::from_facing(facing));
        let mut near = self.near.borrow_mut();
        self.gather_near(r, dir, fwd, max, holds, &mut near);
        (from, fwd, near)
    }

    /// The regiments that could hold regiment `r` somewhere on its runs of up to `max` along
    /// `dir`, facing `fwd` (`clear_run`), into `near`, with their footprints.
    fn gather_near(
        &self,
        r: usize,
        dir: Vec2,
        fwd: Vec2,
        max: f64,
        holds: Holds,
        near: &mut Vec<Near>,
    ) {
        near.clear();
        let reach = self.run_reach(r, dir, fwd, max);
        let (lo, hi) = reach.bounds(self.neighbours.max_radius());
        let aside = Aside::of(&self.regiments[r], dir, fwd, max);
        any_near_either!(self, lo, hi, |o: usize, reg: &Regiment| {
            if o != r
                && reg.state != State::Gone
                && reach.may_hold(reg.pos, reg.radius)
                && !self.lets_by_every_run(r, o, reg, holds, &aside)
            {
                near.push(Near::of(o, self.shape(o)));
            }
            false
        });
    }

    /// `clear_run` asking every other regiment on the table at each try, none ruled out
    /// beforehand: what the searches' bounds must not change.
    #[cfg(test)]
    pub(super) fn clear_run_asking_all(
        &self,
        r: usize,
        dir: Vec2,
        facing: f64,
        max: f64,
        holds: Holds,
    ) -> f64 {
        let (from, fwd) = (self.regiments[r].pos, Vec2::from_facing(facing));
        let all: Vec<Near> = (0..self.regiments.len())
            .filter(|&o| o != r && self.regiments[o].state != State::Gone)
            .map(|o| Near::of(o, self.shape(o)))
            .collect();
        halve(max, |d| {
            self.blocker(r, from + dir * d, fwd, holds, &all).is_none()
        })
    }

    /// Whether regiment `o` lets every run of `r` described by `aside` by, as `blocker` would
    /// find at each try: one that `holds` does not count, a friend `r` passes, or a friend out
    /// of the way (`in_the_way`) wherever the run ends. Those the halving need not ask.
    fn lets_by_every_run(
        &self,
        r: usize,
        o: usize,
        reg: &Regiment,
        holds: Holds,
        aside: &Aside,
    ) -> bool {
        if reg.side != self.regiments[r].side {
            return !holds.enemies();
        }
        !holds.friends() || self.passes(r, o) || aside.clear_of(reg)
    }

    /// Where the ways of regiment `r`'s runs of up to `max` along `dir`, facing `fwd`, lie.
    /// The way of a run of `d` is centred `d / 2` along `dir` from where the regiment stands,
    /// its half depth grown by `d / 2` of `dir`'s length: its extent along and across the
    /// facing is greatest at `d = max`, or at `d = 0` for the near end.
    fn run_reach(&self, r: usize, dir: Vec2, fwd: Vec2, max: f64) -> RunReach {
        let me = &self.regiments[r];
        let (half, right) = (max / 2.0, fwd.right());
        let (along, length) = (dir.dot(fwd), dir.len());
        let slack = self.rules.battle.contact_gap + 1e-9;
        RunReach {
            from: me.pos,
            fwd,
            right,
            behind: half * (along - length) - me.depth / 2.0 - slack,
            ahead: half * (along + length) + me.depth / 2.0 + slack,
            lateral: half * dir.dot(right).abs() + me.frontage / 2.0 + slack,
        }
    }

    /// Keeps a point on the table.
    fn on_table(&self, p: Vec2) -> Vec2 {
        Vec2::new(p.x.clamp(0.0, self.table.0), p.y.clamp(0.0, self.table.1))
    }

    /// Moves regiment `r` facing `aim` at `gait` over the ground, short of every enemy and of
    /// friends it may not pass (but up to `limit` inches if given). Foot going over a high
    /// wall spend the whole move. Returns the distance moved.
    pub fn advance<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        gait: Gait,
        limit: Option<f64>,
        obs: &mut O,
    ) -> f64 {
        let dir = Vec2::from_facing(aim);
        let leg = self.allowance(r, dir, gait);
        let dist = limit.map_or(leg.dist, |l| leg.dist.min(l));
        let run = self.clear_run(r, dir, aim, dist, Holds::Everyone);
        self.march(r, aim, run, leg, obs);
        run
    }

    /// How far regiment `r` may go along `dir` at `gait` over the ground with what is left of
    /// its move (at a canter where the ground forbids the gallop).
    pub(super) fn allowance(&self, r: usize, dir: Vec2, gait: Gait) -> Leg {
        let mut gait = gait;
        let full = self.regiments[r].move_at(gait, &self.rules);
        let (mut dist, going) = self.over_ground(r, dir, self.left_of(r, full));
        if going.no_gallop && gait == Gait::Gallop {
            gait = Gait::Canter;
            let canter = self.regiments[r].move_at(gait, &self.rules);
            dist = self.over_ground(r, dir, self.left_of(r, canter)).0;
        }
        Leg {
            dist,
            going,
            gait,
            full,
        }
    }

    /// Regiment `r` goes `run` inches straight along `aim` on leg `leg`: the step, its gait,
    /// and the whole move a high wall takes.
    pub(super) fn march<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        run: f64,
        leg: Leg,
        obs: &mut O,
    ) {
        let dir = Vec2::from_facing(aim);
        self.step(r, aim, dir * run, leg.going.disorders && run > 0.0, obs);
        let reg = &mut self.regiments[r];
        reg.gait = leg.gait;
        reg.full_move = leg.full;
        if leg.going.high_wall && run > 0.0 {
            reg.spent = 1.0;
        }
    }

    /// Places regiment `r` `by` inches on, facing `facing`, and says so; hedges it crossed are
    /// hacked open.
    pub(super) fn step<O: Observer>(
        &mut self,
        r: usize,
        facing: f64,
        by: Vec2,
        disorders: bool,
        obs: &mut O,
    ) {
        let from = self.regiments[r].pos;
        let to = self.on_table(from + by);
        self.hack(r, from, to);
        self.regiments[r].crossing = self.astride(r, from, to);
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
        self.placed(r);
    }

    /// Regiment `r` goes `distance` inches towards `heading`, facing `facing` (a fall back, a
    /// rout, horse turned about): over the ground as any move, short of enemies and, unless
    /// `through` them, of friends it may not pass; carried off the table it is gone.
    pub fn withdraw<O: Observer>(
        &mut self,
        r: usize,
        heading: f64,
        facing: f64,
        distance: f64,
        through: bool,
        obs: &mut O,
    ) {
        let dir = Vec2::from_facing(self.way_round(r, heading, distance));
        let (dist, going) = self.over_ground(r, dir, distance);
        let holds = if through {
            Holds::Enemies
        } else {
            Holds::Everyone
        };
        let run = self.clear_run(r, dir, facing, dist, holds);
        if !self.on_table_strict(self.regiments[r].pos + dir * run) {
            self.leave(r, obs);
            return;
        }
        self.step(r, facing, dir * run, going.disorders && run > 0.0, obs);
        if going.high_wall && run > 0.0 {
            self.regiments[r].spent = 1.0;
        }
    }

    /// The heading a withdrawal of `distance` inches towards `heading` takes (ruling): straight
    /// on unless its way crosses ground the regiment may not enter (horse at a wood), else the
    /// least veer either side, in steps of `battle.veer_step_degrees` up to
    /// `battle.veer_degrees`, whose way is open (the lesser turn to the left on a tie); with
    /// none open, straight on (and it stops short of the ground).
    fn way_round(&self, r: usize, heading: f64, distance: f64) -> f64 {
        let from = self.regiments[r].pos;
        let open = |h: f64| {
            !self
                .going(r, from, from + Vec2::from_facing(h) * distance)
                .blocked
        };
        let b = &self.rules.battle;
        if open(heading) || b.veer_step_degrees <= 0.0 {
            return heading;
        }
        let steps = (b.veer_degrees / b.veer_step_degrees).floor() as u32;
        (1..=steps)
            .map(|k| (f64::from(k) * b.veer_step_degrees).to_radians())
            .flat_map(|d| [heading - d, heading + d])
            .find(|&h| open(h))
            .unwrap_or(heading)
    }

    /// A routing regiment flees a full move at its best gait towards its own edge (at a canter
    /// where the ground forbids the gallop), through friends (ruling); off the table it is gone.
    pub fn flee<O: Observer>(&mut self, r: usize, obs: &mut O) {
        let reg = self.regiments[r];
        let away = match reg.side {
            Side::Parliament => PI,
            Side::Royalist => 0.0,
        };
        let mut distance = reg.move_at(Gait::Gallop, &self.rules);
        let dir = Vec2::from_facing(self.way_round(r, away, distance));
        if reg.is_horse() && self.over_ground(r, dir, distance).1.no_gallop {
            distance = reg.move_at(Gait::Canter, &self.rules);
        }
        let through = self.rules.battle.routers_pass_friends;
        self.withdraw(r, away, away, distance, through, obs);
    }

    /// Whether a point is on the table.
    pub fn on_table_strict(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.table.0 && p.y <= self.table.1
    }

    /// Regiment `r` is no more (no figure left, or a gun destroyed): gone.
    pub(super) fn disintegrate<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        self.regiments[r].state = State::Gone;
        emit(
            obs,
            Event::Disintegrated {
                unit: self.regiments[r].unit,
            },
        );
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

    /// Ends regiment `r`'s melee on all sides: each enemy sees it withdraw, and one left with
    /// no enemy is out of melee.
    pub fn disengage(&mut self, r: usize) {
        for o in self.regiments[r].engaged.take().iter() {
            let e = &mut self.regiments[usize::from(o)];
            e.engaged.remove(r as u16);
            if e.engaged.is_none() {
                e.rounds = 0;
                e.attacker = false;
                e.carried = 0.0;
            }
            e.enemy_withdrew = true;
        }
        let reg = &mut self.regiments[r];
        reg.rounds = 0;
        reg.attacker = false;
        reg.carried = 0.0;
    }

    /// Whether regiment `t` can be charged: not in melee, or with room for another enemy
    /// (`melee.enemies_at_once`, ruling).
    pub fn open_to_charge(&self, t: usize) -> bool {
        self.regiments[t].engaged.count() < usize::from(self.rules.melee.enemies_at_once)
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
        dice: &mut D,
        obs: &mut O,
    ) {
        self.charge_thrown(r, t, Thrown::AtContact, dice, obs);
    }

    /// A charge, with the formation throw made at its declaration, if any (`thrown`).
    fn charge_thrown<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        thrown: Thrown,
        dice: &mut D,
        obs: &mut O,
    ) {
        let path = self.charge_path(r, t);
        self.regiments[r].facing = path.aim;
        // A target gone from the table since the declaration is named no more: the charger
        // falls short and advances without a word of it.
        let named = self.regiments[t].state != State::Gone;
        if named {
            let (unit, target) = (self.regiments[r].unit, self.regiments[t].unit);
            let standoff = 0.0;
            emit(
                obs,
                Event::ChargeDeclared {
                    unit,
                    target,
                    standoff,
                },
            );
        }
        match self.contest_charge(r, t, &path, thrown, dice, obs) {
            Ok(()) => self.charge_home(r, t, &path, obs),
            Err(halt) => self.charge_halted(r, t, &path, halt, named, obs),
        }
    }

    /// Everything that may stop regiment `r`'s charge on `t` short of contact, in the seed's
    /// order: the target out of reach or gone, its stand or flight, the throws, closing fire
    /// and the pikes. Ok when the charge goes home.
    fn contest_charge<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        path: &ChargePath,
        thrown: Thrown,
        dice: &mut D,
        obs: &mut O,
    ) -> Result<(), Halt> {
        let reg = self.regiments[r];
        let horse = reg.is_horse();
        let need = path.need;
        let uncharged = horse && self.regiments[t].uncharged_by_horse(&self.rules);
        // Declared before moving (ruling), the charge finds its target as it is now.
        let gone = self.regiments[t].state != State::Active || !self.open_to_charge(t);
        if !path.goes_in() || uncharged || gone {
            return Err(Halt::Short(None));
        }
        let full = reg.move_at(path.gait, &self.rules);
        self.regiments[r].full_move = full;
        let threw = match thrown {
            Thrown::AtContact => horse && self.throws_against_horse(t),
            Thrown::Target(_) => true,
            Thrown::Charger(_) => false,
        };
        let stands = match thrown {
            Thrown::AtContact => !threw || self.stands_against_horse(t, r, dice, obs),
            Thrown::Target(result) => self.stands_on(t, result, obs),
            Thrown::Charger(_) => true,
        };
        if !stands {
            // The charged unit fell back or routed: the charge finds nobody to strike.
            return Err(Halt::Short(Some(need)));
        }
        if thrown == Thrown::Charger(false) {
            // Thrown badly at the declaration: it never closes, so nobody fires at it.
            return Err(Halt::TurnedAway);
        }
        let fired_upon = self.closing_fire(t, r, need, full, dice, obs);
        if self.regiments[r].state != State::Active {
            return Err(Halt::Shot);
        }
        let pikestand = horse && self.pikestand(t);
        // Seed: a pikestand that threw first and stood spares the horse its throw, as does
        // the horse's own throw at the declaration.
        let pike_throw = pikestand && !threw && thrown == Thrown::AtContact;
        let adds = Adds::of(&[Add::Attacker]);
        if horse && (fired_upon || pike_throw) && !self.formation_throw(r, t, adds, dice, obs) {
            return Err(Halt::TurnedAway);
        }
        if pikestand && !self.breach(r, t, dice, obs) {
            // Held at the pikes' points.
            let pikes = self.rules.formations.pike_extend;
            return Err(Halt::Short(Some((need - pikes).max(0.0))));
        }
        if self.regiments[t].state != State::Active {
            // The breach's pistols left nobody to strike.
            return Err(Halt::Short(Some(need)));
        }
        Ok(())
    }

    /// A charge stopped short (`halt`): the charger moves as far as it may and, unless shot
    /// down, is told to have failed (if its target was `named`) and keeps its gait.
    fn charge_halted<O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        path: &ChargePath,
        halt: Halt,
        named: bool,
        obs: &mut O,
    ) {
        let ChargePath {
            aim, gait, need, ..
        } = *path;
        match halt {
            Halt::Shot => return,
            Halt::Short(upto) => {
                self.advance(r, aim, gait, upto, obs);
            }
            Halt::TurnedAway => self.turned_away(r, aim, gait, need, obs),
        }
        if named {
            let (unit, target) = (self.regiments[r].unit, self.regiments[t].unit);
            emit(obs, Event::ChargeFailed { unit, target });
        }
        self.regiments[r].gait = gait;
    }

    /// Regiment `r`'s charge goes home on `t` along `path`: the charger steps into contact and
    /// both are engaged (a regiment already in melee keeps it and meets the charger as another
    /// enemy); horse charged by horse that had declared against it countercharge.
    fn charge_home<O: Observer>(&mut self, r: usize, t: usize, path: &ChargePath, obs: &mut O) {
        let (unit, target) = (self.regiments[r].unit, self.regiments[t].unit);
        let horse = self.regiments[r].is_horse();
        let ChargePath {
            aim,
            dir,
            gait,
            going,
            run,
            ..
        } = *path;
        self.step(r, aim, dir * run, going.disorders, obs);
        let (a, d) = (&mut self.regiments[r], t as u16);
        a.gait = gait;
        a.engaged = Engaged::of(d);
        a.attacker = true;
        a.impetus = horse;
        a.rounds = 0;
        a.carried = 0.0;
        let counter = self.countercharges(t, r);
        let b = &mut self.regiments[t];
        if b.engaged.is_none() {
            b.attacker = counter;
            b.impetus = counter;
            b.rounds = 0;
            b.carried = 0.0;
        }
        b.engaged.push(r as u16);
        if counter {
            // Ruling: met where the first to move reached it, at its own charge gait.
            b.gait = b.next_gait(&self.rules);
            self.orders.set(t, Order::None);
            let (unit, target) = (target, unit);
            let standoff = 0.0;
            emit(
                obs,
                Event::ChargeDeclared {
                    unit,
                    target,
                    standoff,
                },
            );
        }
    }

    /// Regiment `r`'s charge on `t` as the table stands: turned on its centre, at its next gait
    /// (a canter where the ground forbids a gallop) with what is left of its move.
    pub(super) fn charge_path(&self, r: usize, t: usize) -> ChargePath {
        let reg = self.regiments[r];
        let aim = (self.regiments[t].pos - reg.pos).facing();
        let dir = Vec2::from_facing(aim);
        let mut gait = reg.next_gait(&self.rules);
        let (mut reach, mut going) =
            self.over_ground(r, dir, self.left_of(r, reg.move_at(gait, &self.rules)));
        if going.no_gallop && gait == Gait::Gallop {
            gait = Gait::Canter;
            let canter = self.left_of(r, reg.move_at(gait, &self.rules));
            (reach, going) = self.over_ground(r, dir, canter);
        }
        let need = self.shape_at(r, reg.pos, aim).dist(&self.shape(t));
        let run = self.contact_run(r, t, aim, need);
        // A friend in the way stops it (ruling: it does not go round).
        let blocked = self.run_stopped(r, dir, aim, run, Holds::Friends);
        ChargePath {
            aim,
            dir,
            gait,
            reach,
            going,
            need,
            run,
            blocked,
        }
    }

    /// Whether horse `t`, charged home by horse `r`, meets it charging (ruling): both declared
    /// at once, `t`'s charge on `r` not yet carried out and `t` free of melee.
    fn countercharges(&self, t: usize, r: usize) -> bool {
        let b = &self.rules.battle;
        b.charges_declared_at_once
            && b.countercharge
            && self.regiments[r].is_horse()
            && self.regiments[t].is_horse()
            && self.regiments[t].engaged.is_none()
            && self.orders.charge_target(t) == Some(r)
    }

    /// A charge's bad throw: trotting or cantering horse turn about and use the rest of the
    /// move; galloping horse swerve past the target and complete the move (ruling: they end it
    /// beside the target, out of contact).
    fn turned_away<O: Observer>(&mut self, r: usize, aim: f64, gait: Gait, need: f64, obs: &mut O) {
        if gait == Gait::Gallop {
            let gap = self.rules.battle.contact_gap;
            self.advance(r, aim, gait, Some((need - gap).max(0.0)), obs);
            return;
        }
        let rest = (self.regiments[r].move_at(gait, &self.rules) - need).max(0.0);
        let back = aim + PI;
        self.withdraw(r, back, back, rest, false, obs);
    }

    /// The least run of regiment `r` facing `aim` that brings it into contact with `t`, at
    /// least the gap `need` between them (more when it comes at the target aslant).
    fn contact_run(&self, r: usize, t: usize, aim: f64, need: f64) -> f64 {
        let (from, dir) = (self.regiments[r].pos, Vec2::from_facing(aim));
        let (target, me) = (self.shape(t), self.shape_at(r, from, aim));
        // The run aims at the target's centre, so the runs that touch are one interval (both
        // shapes convex) holding the run to that centre: halving between the gap and it finds
        // where contact begins. Halving up to a point beyond the target could settle past it.
        let run = (need, from.dist(target.centre));
        halve_to_touch(&me, dir, &target, run, 1e-6)
    }

    /// What is left of a move of `full` inches once the move's formation change, limbering or
    /// unlimbering is paid for.
    pub(super) fn left_of(&self, r: usize, full: f64) -> f64 {
        full * (1.0 - self.regiments[r].spent).max(0.0)
    }

    /// The formation regiment `r` takes for its plan (ruling): column to advance far from the
    /// enemy; against enemy horse that would charge it next move (`horse_threat`), if its
    /// doctrine closes up, square when its pike can stand three deep, else the shot drawn up
    /// before the pike when it has the shot; else line. The change pays its share of the move, and the new
    /// footprint must keep the contact gap from every enemy (else it stays as it is).
    fn dress<O: Observer>(
        &mut self,
        r: usize,
        plan: Plan,
        gap: f64,
        close_up: bool,
        setup: &BattleSetup,
        obs: &mut O,
    ) {
        let rules = &self.rules;
        let f = &rules.formations;
        let reg = self.regiments[r];
        let can = |want: Formation| reg.can_form(want, rules);
        let guards = close_up && (can(Formation::Square) || f.doctrine.shot_before_pike);
        // No horse threatens foot whose nearest enemy (its order's `gap`: no horse has moved
        // since) stands beyond the farthest charge of the enemy's horse.
        let threat = if guards && gap <= self.horse_threat_reach(r) {
            self.horse_threat(r, setup)
        } else {
            Threat::None
        };
        // Foot that opened their square to horse shooting it hold their line while any such
        // horse is near: the square would only be shot down again. Unless the doctrine opens
        // to horse that would charge the line, horse that would charge it close it again.
        let keeps = f.doctrine.open_square_to_chargers && threat != Threat::None;
        let holds_line = threat == Threat::Shooting || (reg.holds_line && keeps);
        self.regiments[r].holds_line = holds_line;
        let want = if plan == Plan::Advance && gap > f.doctrine.column_beyond {
            Formation::Column
        } else if threat == Threat::Charge && !holds_line {
            if can(Formation::Square) {
                Formation::Square
            } else {
                Formation::ShotBeforePike
            }
        } else {
            Formation::Line
        };
        if want == reg.formation || !can(want) || self.keeps_column(r, want) {
            return;
        }
        let share = f.change_share;
        let was = self.regiments[r];
        self.form(r, want);
        if !self.clear_of_enemies(r) {
            self.regiments[r] = was;
            self.placed(r);
            return;
        }
        // Its new footprint may be some horse's nearest enemy, or no longer.
        self.reshaped(r, was.radius);
        let reg = &mut self.regiments[r];
        reg.spent = (reg.spent + share).min(1.0);
        emit(obs, Event::FormationChanged { unit: reg.unit });
    }

    /// The threat of enemy horse to foot `r` next move: `Charge` if any horse free to charge
    /// is aimed at `r` (`aims_at`) and would charge it were it in line, by its own doctrine
    /// (its charge gait's reach, the odds it asks; not while a stand result holds it off:
    /// `held_off`), and is not standing to shoot the square `r` would be (`shoots_square`) or
    /// would charge the line were the square opened (`would_charge_opened`); else `Shooting`
    /// if some such horse is; else `None`.
    /// A square already closed counts the horse as the margin nearer (`square_margin`).
    /// Halted horse threaten only within a trot (seed: no gallop from a halt; a trot charges).
    pub(super) fn horse_threat(&self, r: usize, setup: &BattleSetup) -> Threat {
        let me = &self.regiments[r];
        let radius = me.radius;
        let margin = self.square_margin(r);
        let mut threat = Threat::None;
        // Only horse whose centres stand within the farthest charge and both footprints.
        let within = radius + self.neighbours.max_radius() + self.horse_threat_reach(r);
        let charge = any_within!(
            self,
            me.side.other(),
            me.pos,
            within,
            |o: usize, h: &Regiment| {
                if h.state != State::Active || h.engaged.is_some() || !h.is_horse() {
                    return false;
                }
                let reach = h.charge_reach(&self.rules) + margin;
                // Bounding circles first: most horse are too far for their shapes to be measured.
                let bound = me.pos.dist(h.pos) - radius - h.radius;
                if bound > reach {
                    return false;
                }
                // Whom the horse aim at costs a search, unless the table stands still (each horse's
                // nearest kept): then it is asked first, else after the gap and the doctrine's odds.
                let still = self.is_still();
                if still && !self.aims_at(o, r) {
                    return false;
                }
                let gap = self.gap(r, o);
                if gap > reach
                    || !self.would_charge_line(o, r, gap - margin, setup)
                    || (!still && !self.aims_at(o, r))
                {
                    return false;
                }
                if !self.shoots_square(o, r, gap) || self.would_charge_opened(o, r, gap, setup) {
                    return true;
                }
                threat = Threat::Shooting;
                false
            }
        );
        if charge { Threat::Charge } else { threat }
    }

    /// How much nearer than it is an enemy horse counts to foot `r` (`horse_threat`): the
    /// doctrine's margin for a square already closed.
    fn square_margin(&self, r: usize) -> f64 {
        if self.regiments[r].formation == Formation::Square {
            self.rules.formations.doctrine.square_margin
        } else {
            0.0
        }
    }

    /// The farthest gap from foot `r` at which enemy horse may threaten it (`horse_threat`):
    /// the longest charge of the enemy's free horse while the orders' formations are made
    /// (`horse_reach_now`), else of any horse, and the square's margin.
    fn horse_threat_reach(&self, r: usize) -> f64 {
        let side = self.regiments[r].side.other();
        let reach =
            (self.dressing_reach).map_or(self.neighbours.horse_reach(), |s| s[side.index()]);
        (reach + self.square_margin(r)).max(0.0)
    }

    /// The farthest the horse of `side` free to charge (active, not in melee) reach next
    /// move, as `horse_threat` measures each: none, nothing.
    pub(super) fn horse_reach_now(&self, side: Side) -> f64 {
        let free = |h: &&Regiment| {
            h.side == side && h.state == State::Active && h.engaged.is_none() && h.is_horse()
        };
        (self.regiments.iter().filter(free))
            .map(|h| h.charge_reach(&self.rules))
            .fold(0.0, f64::max)
    }

    /// Whether horse `h` would charge `r` if it could: `r` is its nearest active enemy, or
    /// the nearest it can charge when its nearest is one it cannot and does not outshoot
    /// (`horse_aim`); or the doctrine counts every horse in reach (`only_aimed_horse` off).
    fn aims_at(&self, h: usize, r: usize) -> bool {
        if !self.rules.formations.doctrine.only_aimed_horse || self.nearest_is(h, r) {
            return true;
        }
        // Horse turn from an enemy they cannot charge only to the nearest they can: `r` must
        // be that (a search bounded by its gap) before the horse's nearest is sought, unless
        // the table stands still: then the nearest kept shows at once whether they turn.
        let rules = &self.rules;
        let turns = |(t, _): (usize, f64)| self.regiments[t].uncharged_by_horse(rules);
        if !matches!(self.regiments[h].kind, Kind::Horse(_))
            || (self.is_still() && !self.nearest_active(h).is_some_and(turns))
            || !self.nearest_of(h, r, |o| !o.uncharged_by_horse(rules))
        {
            return false;
        }
        self.nearest_active(h)
            .is_some_and(|(t, gap)| t != r && self.horse_aim(h, t, gap).0 == r)
    }

    /// Whether `r` is what `nearest_enemy(h, active)` would return, measured as it measures
    /// (from `h`'s footprint) but with `r`'s gap as the bound to beat from the start, so that
    /// most enemies are ruled out by their enclosing circles: `r` loses only to an active
    /// enemy strictly nearer, or as near and listed first. While the table stands still, the
    /// nearest kept for `h` answers.
    fn nearest_is(&self, h: usize, r: usize) -> bool {
        if self.is_still() {
            return self.nearest_active(h).is_some_and(|(t, _)| t == r);
        }
        self.nearest_of(h, r, |_| true)
    }

    /// `nearest_is` among the active enemies that `ok` admits (`r` among them).
    pub(super) fn nearest_of(&self, h: usize, r: usize, ok: impl Fn(&Regiment) -> bool) -> bool {
        let (me, side) = (self.shape(h), self.regiments[h].side);
        let target = &self.regiments[r];
        if target.side == side || target.state != State::Active || !ok(target) {
            return false;
        }
        let d = me.dist(&self.shape(r));
        let within = me.radius + self.neighbours.max_radius() + d;
        !any_within!(
            self,
            side.other(),
            me.centre,
            within,
            |e: usize, reg: &Regiment| {
                if e == r || reg.state != State::Active || !ok(reg) {
                    return false;
                }
                let bound = me.centre.dist(reg.pos) - me.radius - reg.radius;
                if bound > d || (bound >= d && e > r) {
                    return false;
                }
                let g = me.dist(&self.shape(e));
                g < d || (g == d && e < r)
            }
        )
    }

    /// A gun's move (ruling): limbered, it unlimbers once an enemy is within its maximum
    /// range (or its team can no longer draw it), else its horses draw it on when the plan
    /// advances (to its effective range of the nearest enemy); sited with nobody in range in
    /// its front, it pivots to an enemy in range outside its arc, else its crew pull it round
    /// and on if that brings the enemy in range (the pull takes the move), else it limbers to
    /// advance if its team can draw it.
    fn serve_gun<O: Observer>(&mut self, r: usize, t: usize, gap: f64, plan: Plan, obs: &mut O) {
        let reg = self.regiments[r];
        let Kind::Gun(c) = reg.kind else {
            return;
        };
        let gun = *c.gun(&self.rules);
        if reg.gun == morale::GunState::Destroyed || reg.wheel > 0 || reg.gunners == 0 {
            return;
        }
        let aim = (self.regiments[t].pos - reg.pos).facing();
        let drawn = reg.team_share(&self.rules) > 0.0;
        if reg.limbered {
            if gap <= gun.maximum_range || !drawn {
                let g = &mut self.regiments[r];
                g.limbered = false;
                g.facing = aim;
                g.spent = (g.spent + gun.limber_share).min(1.0);
                emit(obs, Event::Unlimbered { unit: g.unit });
            } else if plan == Plan::Advance {
                let limit = (gap - gun.effective_range).max(0.0);
                self.advance(r, aim, Gait::Trot, Some(limit), obs);
            }
            return;
        }
        if self.in_arc_and_range(r, gun.maximum_range) {
            return;
        }
        if gap <= gun.maximum_range {
            self.pivot(r, aim, gun.limber_share, obs);
            return;
        }
        // Ruling: a reduced crew pulls its share of the full crew's distance.
        let pull = gun.crew_pull * f64::from(reg.gunners) / f64::from(reg.full_crew.max(1));
        if gap <= gun.maximum_range + pull {
            let by = (gap - gun.maximum_range).max(0.0);
            let dir = Vec2::from_facing(aim);
            let run = self.clear_run(r, dir, aim, by, Holds::Everyone);
            self.step(r, aim, dir * run, false, obs);
            self.regiments[r].spent = 1.0;
        } else if plan == Plan::Advance && drawn {
            let g = &mut self.regiments[r];
            g.limbered = true;
            g.spent = (g.spent + gun.limber_share).min(1.0);
            emit(obs, Event::FormationChanged { unit: g.unit });
            let limit = (gap - gun.effective_range).max(0.0);
            self.advance(r, aim, Gait::Trot, Some(limit), obs);
        }
    }

    /// A sited gun `r` turns by its trail to face `aim` without limbering (ruling: in the
    /// rules' share of its limbering time, `limber_share` of a move).
    fn pivot<O: Observer>(&mut self, r: usize, aim: f64, limber_share: f64, obs: &mut O) {
        let share = self.rules.gun_drill.pivot_share_of_limber * limber_share;
        let g = &mut self.regiments[r];
        g.facing = aim;
        g.spent = (g.spent + share).min(1.0);
        emit(obs, Event::Dickenson(Detail::Pivoted { unit: g.unit }));
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

//! What the engine remembers between questions about where units stand, so that asking again
//! is cheap: each unit's facing vector, a compact table of where each side's units are, each
//! unit's nearest enemy and the sides' centroids. The answers are exactly those of measuring
//! afresh.
//!
//! The facing vectors check their own key (the facing, frontage and depth they were worked out
//! for), so nothing need tell them. The rest is kept only while the engine plays (inside
//! `Battle::play` or `Battle::play_turn`), where the engine calls [`Battle::moved`] after every
//! change it makes to a unit's position, facing, frontage, depth or status: the change goes
//! into a log, and a unit's nearest enemy is brought up to date from the moves logged since it
//! was last worked out (measured again only when the unit itself moved or its nearest enemy
//! did). Outside play every answer is measured afresh, so callers who move units themselves
//! (tests) always get the truth.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::Battle;
use crate::army::{Side, Unit, UnitId};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::Shape;
use crate::rules::ironsides::fire;
use crate::rules::ironsides::tables::IronsidesRules;

/// A unit's facing vector and enclosing radius, with the facing, frontage and depth they were
/// worked out for (as bits, so that a NaN or a signed zero can never pass for another value).
#[derive(Debug, Clone, Copy)]
struct Geo {
    facing: u64,
    frontage: u64,
    depth: u64,
    fwd: Vec2,
    radius: f64,
}

impl Geo {
    const EMPTY: Geo = Geo {
        facing: u64::MAX,
        frontage: u64::MAX,
        depth: u64::MAX,
        fwd: Vec2::new(0.0, 1.0),
        radius: 0.0,
    };

    #[inline]
    fn of(u: &Unit) -> Geo {
        Geo {
            facing: u.facing.to_bits(),
            frontage: u.frontage.to_bits(),
            depth: u.depth.to_bits(),
            fwd: Vec2::from_facing(u.facing),
            radius: Shape::radius_of(u.frontage, u.depth),
        }
    }

    #[inline]
    fn fits(&self, u: &Unit) -> bool {
        self.facing == u.facing.to_bits()
            && self.frontage == u.frontage.to_bits()
            && self.depth == u.depth.to_bits()
    }
}

/// Where a unit stands, for scans that look at every unit of a side: its centre, the radius of
/// the circle that holds it and whether it is on the table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spot {
    pub id: UnitId,
    pub active: bool,
    pub centre: Vec2,
    pub radius: f64,
    /// The longest range of its fire zones, if it is foot, guns or dragoons that can fire
    /// (else 0): no enemy farther than this can be halted by its fire. Infinite when the
    /// rules are not at hand.
    pub fire_reach: f64,
}

impl Spot {
    #[inline]
    fn of(u: &Unit, rules: Option<&IronsidesRules>) -> Spot {
        let fire_reach = match rules {
            Some(_) if u.is_cavalry() => 0.0,
            Some(r) => fire::range_band(r, u).map_or(0.0, |b| b.long.max(b.short)),
            None => f64::INFINITY,
        };
        Spot {
            id: u.id,
            active: u.is_active(),
            centre: u.pos,
            radius: Shape::radius_of(u.frontage, u.depth),
            fire_reach,
        }
    }
}

/// No unit.
const NONE: UnitId = UnitId::MAX;

/// A unit's nearest enemy as last worked out: in which play, after how many logged moves.
#[derive(Debug, Clone, Copy)]
struct Near {
    half: u64,
    seen: usize,
    dist: f64,
    enemy: UnitId,
}

impl Near {
    const UNKNOWN: Near = Near {
        half: u64::MAX,
        seen: 0,
        dist: f64::INFINITY,
        enemy: NONE,
    };
}

/// The caches of one battle (reused buffers: nothing is allocated once they have grown).
#[derive(Debug, Clone, Default)]
pub(crate) struct Caches {
    geo: Vec<Cell<Geo>>,
    /// Each side's spots, and where each unit's spot is in its side's list.
    spots: [Vec<Spot>; 2],
    slot: Vec<usize>,
    near: Vec<Cell<Near>>,
    /// Units moved since play began, in order (a unit may appear more than once).
    moves: Vec<UnitId>,
    /// For each unit, the length of the log just after its last logged move (0: none yet).
    last_move: Vec<usize>,
    /// Counts the times play began: a `Near` from before is stale.
    half: u64,
    /// Counts moves: the centroids are stale when it has changed.
    epoch: u64,
    centroids: Cell<(u64, [Vec2; 2])>,
    /// In play: the spots, the log and the answers kept are in use.
    on: bool,
    /// The rules of the battle in play (for the spots' fire zones).
    rules: Option<Arc<IronsidesRules>>,
    /// Spots worked out afresh out of play (a reused buffer).
    scratch: RefCell<Vec<Spot>>,
    /// Counts the rounds of orders of movement phases; nonzero while orders are being given
    /// (when nothing changes), zero otherwise.
    orders: u64,
    orders_count: u64,
    /// Each command's reserve units (a doctrine's answer) in the round of orders it was worked
    /// out in.
    reserve: Vec<Cell<(u64, u64)>>,
}

impl Caches {
    pub(crate) fn new(units: usize) -> Caches {
        let mut c = Caches::default();
        c.fit(units);
        c.moves.reserve(64 * units);
        c
    }

    /// Makes room for `units` units and forgets every answer.
    pub(crate) fn fit(&mut self, units: usize) {
        self.geo.resize(units, Cell::new(Geo::EMPTY));
        self.near.resize(units, Cell::new(Near::UNKNOWN));
        self.slot.resize(units, 0);
        self.last_move.clear();
        self.last_move.resize(units, 0);
        for s in &mut self.spots {
            s.clear();
        }
        self.on = false;
        self.half = self.half.wrapping_add(1);
        self.epoch = self.epoch.wrapping_add(1);
        self.moves.clear();
    }
}

impl Battle {
    /// Records that unit `id` moved, turned, changed frontage or left the table. Every write to
    /// a unit's `pos`, `facing`, `frontage`, `depth` or `status` in the engine is followed by
    /// this, before anything else is asked.
    #[inline]
    pub(crate) fn moved(&mut self, id: UnitId) {
        let c = &mut self.cache;
        c.epoch = c.epoch.wrapping_add(1);
        if c.on {
            let u = &self.units[usize::from(id)];
            c.spots[u.side.index()][c.slot[usize::from(id)]] = Spot::of(u, c.rules.as_deref());
            c.moves.push(id);
            c.last_move[usize::from(id)] = c.moves.len();
        }
    }

    /// Play begins: answers may be kept from here until `end_caching`.
    pub(crate) fn begin_caching(&mut self, rules: &Arc<IronsidesRules>) {
        let n = self.units.len();
        self.cache.fit(n);
        let c = &mut self.cache;
        if !c.rules.as_ref().is_some_and(|r| Arc::ptr_eq(r, rules)) {
            c.rules = Some(Arc::clone(rules));
        }
        for u in &self.units {
            let list = &mut c.spots[u.side.index()];
            c.slot[usize::from(u.id)] = list.len();
            list.push(Spot::of(u, c.rules.as_deref()));
        }
        c.on = true;
    }

    /// Orders are given: nothing moves or changes until `end_orders`, so answers that depend on
    /// the whole state may be kept until then.
    pub(crate) fn begin_orders(&mut self) {
        let c = &mut self.cache;
        c.orders_count = c.orders_count.wrapping_add(1).max(1);
        c.orders = c.orders_count;
        c.reserve.resize(self.commands.len(), Cell::new((0, 0)));
    }

    pub(crate) fn end_orders(&mut self) {
        self.cache.orders = 0;
    }

    /// A command's reserve units as worked out in this round of orders, if they were.
    pub(crate) fn reserve_memo(&self, cmd: crate::army::CommandId) -> Option<u64> {
        let c = &self.cache;
        let (round, mask) = c.reserve.get(usize::from(cmd))?.get();
        (c.orders != 0 && round == c.orders).then_some(mask)
    }

    /// Keeps a command's reserve units for the rest of this round of orders.
    pub(crate) fn set_reserve_memo(&self, cmd: crate::army::CommandId, mask: u64) {
        let c = &self.cache;
        if c.orders != 0
            && let Some(cell) = c.reserve.get(usize::from(cmd))
        {
            cell.set((c.orders, mask));
        }
    }

    /// Play ends: from here every answer is measured afresh.
    pub(crate) fn end_caching(&mut self) {
        self.cache.on = false;
        self.cache.moves.clear();
    }

    /// A unit's rectangle with its facing vector (from the cache when the facing is unchanged).
    #[inline]
    pub fn shape(&self, id: UnitId) -> Shape {
        let i = usize::from(id);
        let u = &self.units[i];
        let g = match self.cache.geo.get(i) {
            Some(c) => {
                let g = c.get();
                if g.fits(u) {
                    g
                } else {
                    let g = Geo::of(u);
                    c.set(g);
                    g
                }
            }
            None => Geo::of(u),
        };
        Shape {
            centre: u.pos,
            fwd: g.fwd,
            half_depth: u.depth / 2.0,
            half_frontage: u.frontage / 2.0,
            radius: g.radius,
        }
    }

    /// Calls `f` with where each unit of `side` stands, in id order: the table in play, else
    /// a table worked out afresh from the units.
    #[inline]
    pub(crate) fn with_spots<R>(&self, side: Side, f: impl FnOnce(&[Spot]) -> R) -> R {
        if self.cache.on {
            return f(&self.cache.spots[side.index()]);
        }
        let fresh = |v: &mut Vec<Spot>| {
            v.clear();
            v.extend(
                self.units
                    .iter()
                    .filter(|u| u.side == side)
                    .map(|u| Spot::of(u, None)),
            );
        };
        match self.cache.scratch.try_borrow_mut() {
            Ok(mut v) => {
                fresh(&mut v);
                f(&v)
            }
            Err(_) => {
                let mut v = Vec::new();
                fresh(&mut v);
                f(&v)
            }
        }
    }

    /// Calls `f`, in id order, with every active unit of `side` whose enclosing circle comes
    /// within `limit` of `me`'s: every such unit within `limit` of `me` is among them.
    #[inline]
    pub(crate) fn for_near(&self, me: &Shape, side: Side, limit: f64, mut f: impl FnMut(UnitId)) {
        self.with_spots(side, |spots| {
            for s in spots {
                if s.active && circles_within(me, s, limit) {
                    f(s.id);
                }
            }
        });
    }

    /// The nearest active enemy and its distance, if any.
    pub(crate) fn nearest_enemy(&self, id: UnitId) -> Option<(f64, UnitId)> {
        let d = self.nearest_enemy_distance(id);
        if self.cache.on {
            let n = self.cache.near[usize::from(id)].get();
            return (n.enemy != NONE).then_some((n.dist, n.enemy));
        }
        let side = self.units[usize::from(id)].side;
        let me = self.shape(id);
        self.units
            .iter()
            .find(|e| e.side != side && e.is_active() && me.dist(&self.shape(e.id)) == d)
            .map(|e| (d, e.id))
    }

    /// Distance to the nearest active enemy unit (infinity if none).
    pub fn nearest_enemy_distance(&self, id: UnitId) -> f64 {
        if !self.cache.on {
            return self.nearest_enemy_fresh(id);
        }
        match self.nearest_known(id) {
            Some(d) => d,
            None => {
                let cell = &self.cache.near[usize::from(id)];
                let mut n = cell.get();
                (n.dist, n.enemy) = self.nearest_enemy_scan(id, n.enemy);
                n.half = self.cache.half;
                n.seen = self.cache.moves.len();
                cell.set(n);
                n.dist
            }
        }
    }

    /// The nearest enemy's distance in play, if it can be known without measuring every enemy:
    /// brought up to date from the moves logged since it was worked out (an enemy that moved
    /// may have come nearer). Unknown when the unit itself or its nearest enemy moved.
    fn nearest_known(&self, id: UnitId) -> Option<f64> {
        let i = usize::from(id);
        let cell = &self.cache.near[i];
        let mut n = cell.get();
        if n.half != self.cache.half {
            return None;
        }
        if n.seen == self.cache.moves.len() {
            return Some(n.dist); // nothing has moved since
        }
        // The unit or its nearest enemy moved since: unknown, to be measured afresh (found from
        // each unit's last logged move, without walking the log to it).
        let moved_since = |x: UnitId| {
            self.cache
                .last_move
                .get(usize::from(x))
                .is_some_and(|&m| m > n.seen)
        };
        if moved_since(id) || moved_since(n.enemy) {
            return None;
        }
        let side = self.units[i].side;
        let me = self.shape(id);
        for &x in &self.cache.moves[n.seen..] {
            // (A unit that became the nearest here may come again: measured again, it is no
            // nearer than itself, and the answer stays the least distance.)
            debug_assert!(x != id);
            let xu = &self.units[usize::from(x)];
            if xu.side == side {
                continue;
            }
            let s = &self.cache.spots[xu.side.index()][self.cache.slot[usize::from(x)]];
            if !s.active || !could_be_closer(&me, s, n.dist) {
                continue;
            }
            let Some(d) = self.dist_if_closer(&me, x, n.dist) else {
                continue;
            };
            if d < n.dist {
                n.dist = d;
                n.enemy = x;
            }
        }
        n.seen = self.cache.moves.len();
        cell.set(n);
        debug_assert_eq!(n.dist.to_bits(), self.nearest_enemy_fresh(id).to_bits());
        Some(n.dist)
    }

    /// The distance to the nearest active enemy if the cache can tell it without measuring
    /// every enemy (only in play; None otherwise).
    #[inline]
    pub(crate) fn nearest_known_in_play(&self, id: UnitId) -> Option<f64> {
        self.cache.on.then(|| self.nearest_known(id)).flatten()
    }

    /// Whether an active enemy is nearer than `limit` (strictly).
    pub(crate) fn enemy_closer_than(&self, id: UnitId, limit: f64) -> bool {
        if let Some(d) = self.cache.on.then(|| self.nearest_known(id)).flatten() {
            return d < limit;
        }
        let me = self.shape(id);
        self.with_spots(self.units[usize::from(id)].side.other(), |spots| {
            spots.iter().any(|s| {
                s.active && could_be_closer(&me, s, limit) && me.dist(&self.shape(s.id)) < limit
            })
        })
    }

    /// Whether an active enemy is within `limit` (the nearest is at most `limit` away).
    pub fn enemy_within(&self, id: UnitId, limit: f64) -> bool {
        if let Some(d) = self.cache.on.then(|| self.nearest_known(id)).flatten() {
            return d <= limit;
        }
        let me = self.shape(id);
        self.with_spots(self.units[usize::from(id)].side.other(), |spots| {
            spots.iter().any(|s| {
                s.active && circles_within(&me, s, limit) && me.within(&self.shape(s.id), limit)
            })
        })
    }

    /// The least distance to an active enemy, measuring every enemy whose enclosing circle
    /// could be nearer than the best found (the same answer as measuring every one).
    fn nearest_enemy_fresh(&self, id: UnitId) -> f64 {
        let side = self.units[usize::from(id)].side;
        let me = self.shape(id);
        let mut best = f64::INFINITY;
        for e in &self.units {
            if e.side == side || !e.is_active() {
                continue;
            }
            let s = self.shape(e.id);
            let reach = best + me.radius + s.radius;
            let d = s.centre - me.centre;
            if d.dot(d) >= reach * reach {
                continue;
            }
            best = best.min(me.dist(&s));
        }
        best
    }

    /// As `nearest_enemy_fresh`, from the table of spots, starting from a likely nearest enemy
    /// (`hint`, its last nearest) so that the circles rule out nearly every other at once.
    /// Returns the distance and the enemy.
    fn nearest_enemy_scan(&self, id: UnitId, hint: UnitId) -> (f64, UnitId) {
        let enemy = self.units[usize::from(id)].side.other();
        let me = self.shape(id);
        let (mut best, mut arg) = (f64::INFINITY, NONE);
        if let Some(h) = self.units.get(usize::from(hint))
            && h.is_active()
            && h.side == enemy
        {
            (best, arg) = (me.dist(&self.shape(hint)), hint);
        }
        for s in &self.cache.spots[enemy.index()] {
            if !s.active || s.id == hint || !could_be_closer(&me, s, best) {
                continue;
            }
            let Some(d) = self.dist_if_closer(&me, s.id, best) else {
                continue;
            };
            if d < best {
                (best, arg) = (d, s.id);
            }
        }
        (best, arg)
    }

    /// The centre of a side's active units (for generals and pursuers with nowhere to go).
    pub fn centroid(&self, side: Side) -> Vec2 {
        if self.cache.on {
            let (epoch, c) = self.cache.centroids.get();
            if epoch == self.cache.epoch {
                return c[side.index()];
            }
            let c = [
                self.centroid_fresh(Side::Parliament),
                self.centroid_fresh(Side::Royalist),
            ];
            self.cache.centroids.set((self.cache.epoch, c));
            return c[side.index()];
        }
        self.centroid_fresh(side)
    }

    fn centroid_fresh(&self, side: Side) -> Vec2 {
        let (mut s, mut n) = (Vec2::new(0.0, 0.0), 0.0);
        for u in self
            .units
            .iter()
            .filter(|u| u.side == side && u.is_active())
        {
            s = s + u.pos;
            n += 1.0;
        }
        if n > 0.0 { s * (1.0 / n) } else { s }
    }
}

/// Whether the unit at `s` might be nearer to `me` than `limit`: false only if it cannot be
/// (its enclosing circle is that far from `me`'s, or from `me` itself). Always true when
/// `limit` is infinite.
#[inline]
pub(crate) fn could_be_closer(me: &Shape, s: &Spot, limit: f64) -> bool {
    let reach = limit + me.radius + s.radius;
    let d = s.centre - me.centre;
    d.dot(d) < reach * reach && me.dist_to_point(s.centre) - s.radius < limit
}

impl Battle {
    /// The exact distance from `me` to unit `e` if it may be less than `limit` (else None,
    /// when the gap between their shadows already shows it is not).
    #[inline]
    pub(crate) fn dist_if_closer(&self, me: &Shape, e: UnitId, limit: f64) -> Option<f64> {
        let _ = limit;
        Some(me.dist(&self.shape(e)))
    }
}

/// Whether the circles about `me` and `s` come within `limit` (if not, neither do the units).
#[inline]
pub(crate) fn circles_within(me: &Shape, s: &Spot, limit: f64) -> bool {
    let reach = limit + me.radius + s.radius;
    let d = s.centre - me.centre;
    reach >= 0.0 && d.dot(d) <= reach * reach
}

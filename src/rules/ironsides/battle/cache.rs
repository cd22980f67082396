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

/// Units the grid can hold (a bit each); a larger battle scans every unit instead.
const GRID_UNITS: usize = 256;
const WORDS: usize = GRID_UNITS / 64;
/// A set of unit ids, a bit each.
type Bits = [u64; WORDS];
/// The side of a grid cell (inches): about a unit's frontage, so that a question about a few
/// inches around a unit looks at a few cells.
const CELL: f64 = 4.0;

/// A coarse grid over the field: for each column and each row of cells, the units whose
/// centres lie in it, so that a scan for units near a place looks only at the units in the
/// columns and rows about it (a unit is in the box of cells when it is in both), in id order.
#[derive(Debug, Clone, Default)]
struct Grid {
    /// The corner of cell (0, 0); the grid covers where the units stood when play began, and
    /// a unit beyond it counts in the nearest edge cell (cells are found by clamping, which
    /// keeps order, so a box still finds every unit whose centre lies in it).
    origin: Vec2,
    cols: Vec<Bits>,
    rows: Vec<Bits>,
    /// Each unit's column and row.
    at: Vec<(usize, usize)>,
    /// Each side's units, and the active units.
    side: [Bits; 2],
    active: Bits,
    /// Words in use in each set.
    words: usize,
    /// The last column's and row's index, as floats (for `cell_of`).
    last: Vec2,
    /// No unit's enclosing circle has been larger than this since play began.
    radius: f64,
    /// Whether the battle fits the grid (at most `GRID_UNITS` units).
    on: bool,
}

/// The index of the cell along one axis that holds `v`, clamped to the grid.
#[inline]
fn cell_of(v: f64, origin: f64, last: f64) -> usize {
    // (Truncation is the floor for what is not negative, and needs no call to `floor`.)
    ((v - origin) * (1.0 / CELL)).max(0.0).min(last) as u32 as usize
}

impl Grid {
    #[inline]
    fn cell(&self, p: Vec2) -> (usize, usize) {
        (
            cell_of(p.x, self.origin.x, self.last.x),
            cell_of(p.y, self.origin.y, self.last.y),
        )
    }

    /// Lays the grid over the units as they stand.
    fn build(&mut self, units: &[Unit]) {
        self.on = units.len() <= GRID_UNITS && !units.is_empty();
        if !self.on {
            return;
        }
        let (mut lo, mut hi) = (Vec2::new(f64::MAX, f64::MAX), Vec2::new(f64::MIN, f64::MIN));
        for u in units
            .iter()
            .filter(|u| u.pos.x.is_finite() && u.pos.y.is_finite())
        {
            lo = Vec2::new(lo.x.min(u.pos.x), lo.y.min(u.pos.y));
            hi = Vec2::new(hi.x.max(u.pos.x), hi.y.max(u.pos.y));
        }
        if lo.x > hi.x {
            (lo, hi) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 0.0));
        }
        self.origin = lo - Vec2::new(CELL, CELL);
        let cols = (((hi.x - lo.x) / CELL) as usize + 3).min(256);
        let rows = (((hi.y - lo.y) / CELL) as usize + 3).min(256);
        self.cols.clear();
        self.cols.resize(cols, [0; WORDS]);
        self.rows.clear();
        self.rows.resize(rows, [0; WORDS]);
        self.last = Vec2::new((cols - 1) as f64, (rows - 1) as f64);
        self.words = units.len().div_ceil(64);
        self.at.clear();
        self.side = [[0; WORDS]; 2];
        self.active = [0; WORDS];
        self.radius = 0.0;
        for u in units {
            let (c, r) = self.cell(u.pos);
            self.at.push((c, r));
            set(&mut self.cols[c], u.id, true);
            set(&mut self.rows[r], u.id, true);
            set(&mut self.side[u.side.index()], u.id, true);
            self.place(u);
        }
    }

    /// Brings a unit's entry up to date after it moved or changed.
    #[inline]
    fn place(&mut self, u: &Unit) {
        let (c, r) = self.cell(u.pos);
        let i = usize::from(u.id);
        let (c0, r0) = self.at[i];
        if c0 != c {
            set(&mut self.cols[c0], u.id, false);
            set(&mut self.cols[c], u.id, true);
        }
        if r0 != r {
            set(&mut self.rows[r0], u.id, false);
            set(&mut self.rows[r], u.id, true);
        }
        self.at[i] = (c, r);
        set(&mut self.active, u.id, u.is_active());
        self.radius = self.radius.max(Shape::radius_of(u.frontage, u.depth));
    }

    /// The active units of `side` whose centres may lie within the box `lo`-`hi` grown by the
    /// largest enclosing radius (every one whose centre does is among them).
    #[inline]
    fn near(&self, side: Side, lo: Vec2, hi: Vec2) -> Bits {
        // Only the words in use (no unit has a bit beyond them): most battles need two.
        if self.words <= 2 {
            self.near_in::<2>(side, lo, hi)
        } else {
            self.near_in::<WORDS>(side, lo, hi)
        }
    }

    /// `near` looking at the first `N` words of each set.
    #[inline]
    fn near_in<const N: usize>(&self, side: Side, lo: Vec2, hi: Vec2) -> Bits {
        let r = self.radius;
        let (c0, r0) = self.cell(lo - Vec2::new(r, r));
        let (c1, r1) = self.cell(hi + Vec2::new(r, r));
        let (mut cs, mut rs) = ([0; N], [0; N]);
        for col in &self.cols[c0..=c1] {
            for w in 0..N {
                cs[w] |= col[w];
            }
        }
        for row in &self.rows[r0..=r1] {
            for w in 0..N {
                rs[w] |= row[w];
            }
        }
        let mut m = [0; WORDS];
        for w in 0..N {
            m[w] = cs[w] & rs[w] & self.side[side.index()][w] & self.active[w];
        }
        m
    }
}

fn set(bits: &mut Bits, id: UnitId, on: bool) {
    let (w, b) = (usize::from(id) / 64, usize::from(id) % 64);
    if on {
        bits[w] |= 1 << b;
    } else {
        bits[w] &= !(1 << b);
    }
}

/// Calls `f` with each id in the set, in increasing order, while it returns true.
#[inline]
fn each_bit(bits: &Bits, mut f: impl FnMut(UnitId) -> bool) {
    for (w, &word) in bits.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let b = x.trailing_zeros() as usize;
            x &= x - 1;
            if !f((w * 64 + b) as UnitId) {
                return;
            }
        }
    }
}

/// A unit's nearest enemy as last worked out: in which play, after how many logged moves of
/// each side.
#[derive(Debug, Clone, Copy)]
struct Near {
    half: u64,
    seen: [usize; 2],
    dist: f64,
    enemy: UnitId,
}

impl Near {
    const UNKNOWN: Near = Near {
        half: u64::MAX,
        seen: [0; 2],
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
    moves: [Vec<UnitId>; 2],
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
    /// Where the units stand, cell by cell (in play).
    grid: Grid,
}

impl Caches {
    pub(crate) fn new(units: usize) -> Caches {
        let mut c = Caches::default();
        c.fit(units);
        for m in &mut c.moves {
            m.reserve(32 * units);
        }
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
        for m in &mut self.moves {
            m.clear();
        }
    }
}

impl Battle {
    /// Records that unit `id` moved, turned, changed frontage or left the table. Every write to
    /// a unit's `pos`, `facing`, `frontage`, `depth` or `status` in the engine is followed by
    /// this, before anything else is asked.
    #[inline]
    pub(crate) fn moved(&mut self, id: UnitId) {
        // A general leading the unit rides with it (the one rule kept here: every write to a
        // unit's position comes through this call).
        let pos = self.units[usize::from(id)].pos;
        for g in self
            .commanders
            .iter_mut()
            .filter(|g| g.attached_unit == Some(id))
        {
            g.pos = pos;
        }
        let c = &mut self.cache;
        c.epoch = c.epoch.wrapping_add(1);
        if c.on {
            let u = &self.units[usize::from(id)];
            c.spots[u.side.index()][c.slot[usize::from(id)]] = Spot::of(u, c.rules.as_deref());
            if c.grid.on {
                c.grid.place(u);
            }
            let log = &mut c.moves[u.side.index()];
            log.push(id);
            c.last_move[usize::from(id)] = log.len();
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
        c.grid.build(&self.units);
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
        for m in &mut self.cache.moves {
            m.clear();
        }
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

    /// Calls `f`, in id order, with where each active unit of `side` stands whose centre may
    /// lie within the box `lo`-`hi` grown by the largest unit's enclosing radius (every one
    /// whose centre does is among them; in play only those near it, else all), until `f`
    /// returns false.
    #[inline]
    pub(crate) fn spots_near(
        &self,
        side: Side,
        lo: Vec2,
        hi: Vec2,
        mut f: impl FnMut(&Spot) -> bool,
    ) {
        let c = &self.cache;
        if c.on && c.grid.on {
            let spots = &c.spots[side.index()];
            each_bit(&c.grid.near(side, lo, hi), |id| {
                f(&spots[c.slot[usize::from(id)]])
            });
            return;
        }
        self.with_spots(side, |spots| {
            for s in spots.iter().filter(|s| s.active) {
                if !f(s) {
                    return;
                }
            }
        });
    }

    /// `spots_near` for the box of points within `reach` of `centre` (each way).
    #[inline]
    pub(crate) fn spots_around(
        &self,
        side: Side,
        centre: Vec2,
        reach: f64,
        f: impl FnMut(&Spot) -> bool,
    ) {
        let r = Vec2::new(reach, reach);
        self.spots_near(side, centre - r, centre + r, f);
    }

    /// Calls `f`, in id order, with every active unit of `side` whose enclosing circle comes
    /// within `limit` of `me`'s: every such unit within `limit` of `me` is among them.
    #[inline]
    pub(crate) fn for_near(&self, me: &Shape, side: Side, limit: f64, mut f: impl FnMut(UnitId)) {
        self.any_near(me, side, limit, |s| {
            f(s.id);
            false
        });
    }

    /// As `for_near`, with where each stands, until `f` returns true; returns whether it did.
    #[inline]
    pub(crate) fn any_near(
        &self,
        me: &Shape,
        side: Side,
        limit: f64,
        mut f: impl FnMut(&Spot) -> bool,
    ) -> bool {
        let mut found = false;
        self.spots_around(side, me.centre, limit + me.radius, |s| {
            found = circles_within(me, s, limit) && f(s);
            !found
        });
        found
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
                n.seen = self.cache.moves.each_ref().map(Vec::len);
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
        let (side, enemy) = (
            self.units[i].side.index(),
            self.units[i].side.other().index(),
        );
        // The unit's own moves are in its side's log, its enemies' in theirs: only those count.
        let (own, log) = (self.cache.last_move[i], &self.cache.moves[enemy]);
        if own > n.seen[side] {
            return None; // it moved since: to be measured afresh
        }
        if n.seen[enemy] == log.len() {
            return Some(n.dist); // no enemy has moved since
        }
        // Its nearest enemy moved since: unknown, to be measured afresh (found from its last
        // logged move, without walking the log to it).
        if self
            .cache
            .last_move
            .get(usize::from(n.enemy))
            .is_some_and(|&m| m > n.seen[enemy])
        {
            return None;
        }
        let me = self.shape(id);
        for &x in &log[n.seen[enemy]..] {
            // (A unit that became the nearest here may come again: measured again, it is no
            // nearer than itself, and the answer stays the least distance.)
            let s = &self.cache.spots[enemy][self.cache.slot[usize::from(x)]];
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
        n.seen[enemy] = log.len();
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

    /// In play, when the nearest enemy can be known without measuring every enemy (as
    /// `nearest_known_in_play`): `nearest_enemy`'s answer, asked once. None otherwise.
    #[inline]
    pub(crate) fn nearest_known_enemy(&self, id: UnitId) -> Option<Option<(f64, UnitId)>> {
        let d = self.nearest_known_in_play(id)?;
        let n = self.cache.near[usize::from(id)].get();
        debug_assert_eq!(n.dist.to_bits(), d.to_bits());
        Some((n.enemy != NONE).then_some((n.dist, n.enemy)))
    }

    /// Whether an active enemy is nearer than `limit` (strictly).
    pub(crate) fn enemy_closer_than(&self, id: UnitId, limit: f64) -> bool {
        if let Some(d) = self.cache.on.then(|| self.nearest_known(id)).flatten() {
            return d < limit;
        }
        let me = self.shape(id);
        let mut found = false;
        let side = self.units[usize::from(id)].side.other();
        self.spots_around(side, me.centre, limit + me.radius, |s| {
            found = could_be_closer(&me, s, limit) && me.dist(&self.shape(s.id)) < limit;
            !found
        });
        found
    }

    /// Whether an active enemy is within `limit` (the nearest is at most `limit` away).
    pub fn enemy_within(&self, id: UnitId, limit: f64) -> bool {
        if let Some(d) = self.cache.on.then(|| self.nearest_known(id)).flatten() {
            return d <= limit;
        }
        let me = self.shape(id);
        let mut found = false;
        let side = self.units[usize::from(id)].side.other();
        self.spots_around(side, me.centre, limit + me.radius, |s| {
            found = circles_within(&me, s, limit) && me.within(&self.shape(s.id), limit);
            !found
        });
        found
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
        // `could_be_closer` with its first sum kept from one enemy to the next, and the test of
        // the circles first: it rules out nearly every enemy.
        let mut reach = best + me.radius;
        for s in &self.cache.spots[enemy.index()] {
            let need = reach + s.radius;
            let c = s.centre - me.centre;
            // (Nothing here is NaN: centres are finite and `best` at worst infinite.)
            if c.dot(c) >= need * need
                || !s.active
                || s.id == hint
                || me.dist_to_point(s.centre) - s.radius >= best
            {
                continue;
            }
            let Some(d) = self.dist_if_closer(&me, s.id, best) else {
                continue;
            };
            if d < best {
                (best, arg) = (d, s.id);
                reach = best + me.radius;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::UnitStatus;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// The grid finds every active unit of a side whose centre lies in the box, in id order,
    /// however the units move (off the table and back) or leave it.
    #[test]
    fn grid_finds_every_unit_in_a_box() {
        let setup = crate::scenario::Scenario::load_builtin("marston_moor", &[])
            .and_then(|s| s.setup())
            .expect("built-in scenario");
        let mut b = Battle::new(&setup);
        b.begin_caching(&setup.rules);
        assert!(b.cache.grid.on);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut uniform =
            |lo: f64, hi: f64| lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for round in 0..400 {
            let id = (uniform(0.0, b.units.len() as f64) as usize).min(b.units.len() - 1);
            let u = &mut b.units[id];
            u.pos = Vec2::new(uniform(-20.0, 100.0), uniform(-20.0, 70.0));
            if round % 7 == 0 {
                u.status = if u.is_active() {
                    UnitStatus::OffTable
                } else {
                    UnitStatus::Active
                };
            }
            b.moved(id as UnitId);
            let c = Vec2::new(uniform(-10.0, 80.0), uniform(-10.0, 60.0));
            let r = uniform(0.0, 30.0);
            let (lo, hi) = (c - Vec2::new(r, r), c + Vec2::new(r, r));
            for side in [Side::Parliament, Side::Royalist] {
                let mut seen = Vec::new();
                b.spots_near(side, lo, hi, |s| {
                    seen.push(s.id);
                    true
                });
                assert!(seen.windows(2).all(|w| w[0] < w[1]), "id order");
                for u in &b.units {
                    let inside =
                        (lo.x..=hi.x).contains(&u.pos.x) && (lo.y..=hi.y).contains(&u.pos.y);
                    let wanted = u.side == side && u.is_active() && inside;
                    assert!(!wanted || seen.contains(&u.id), "unit {} missed", u.id);
                    if seen.contains(&u.id) {
                        assert!(u.side == side && u.is_active());
                    }
                }
            }
        }
    }
}

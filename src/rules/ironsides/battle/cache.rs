//! What the engine remembers between questions about where units stand, so that asking again
//! is cheap: each unit's facing vector, a compact table of where each side's units are, each
//! unit's nearest enemy and the sides' centroids. The answers are exactly those of measuring
//! afresh.
//!
//! The facing vectors check their own key (the facing, frontage and depth they were worked out
//! for), so nothing need tell them. The rest is kept only while the engine plays (inside
//! `Battle::play` or `Battle::play_turn`), where every change the engine makes to a unit's
//! position, facing, formation, frontage or depth goes through [`Battle::shift`], and a change of
//! status alone is followed by [`Battle::moved`]: the change goes
//! into a log, and a unit's nearest enemy is brought up to date from the moves logged since it
//! was last worked out (measured again only when the unit itself moved or its nearest enemy
//! did). Outside play every answer is measured afresh, so callers who move units themselves
//! (tests) always get the truth.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::Battle;
use crate::army::{Commander, CommanderId, Side, Unit, UnitId};
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
        let (lo, hi) = bounds(units);
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

/// Words of a set of unit ids kept on the stack when the cells' own set is in use (a question
/// asked while another is answered); a larger battle then looks at every unit of the side.
const STACK_WORDS: usize = 80;
/// Cells along an axis, at most (a field wider than that has wider cells).
const MAX_CELLS: usize = 1024;
/// The side of a cell, at least (inches): twice the grid's, as a large battle's questions
/// cover more ground (a target's score allows for the doctrine's preference).
const CELL_SIDE: f64 = 8.0;
/// The cell of a unit in no cell's list.
const OFF: usize = usize::MAX;
/// Beyond this, a start for the nearest enemy is bettered from the cells before the box
/// about the unit is searched (inches).
const FAR_START: f64 = 48.0;
/// In a battle with cells, a unit's nearest enemy is measured again (from the cells about it)
/// rather than brought up to date from the log when more enemy moves than this were logged
/// since: the log of a large battle grows by hundreds of moves a phase.
const LOG_WALK: usize = 32;

/// Where each side's units stand, for battles too large for the grid's bit sets: the units
/// whose centres lie in each cell, as a list threaded through the units (nothing is allocated
/// once the buffers have grown). A box question gathers the ids in the cells about it into a
/// set of bits, so callers see the units in the box in id order, as from the grid.
#[derive(Debug, Clone, Default)]
struct Cells {
    /// The corner of cell (0, 0), and the side of a cell and its inverse; a unit beyond the
    /// cells counts in the nearest edge cell (clamping keeps order: a box still finds it).
    origin: Vec2,
    size: f64,
    inv: f64,
    cols: usize,
    /// The last column's and row's index, as floats.
    last: Vec2,
    /// Each side's first active unit in each cell (row by row), and each unit's neighbours in
    /// its cell's list and its cell (`OFF` for a unit not on the table, in no list).
    head: [Vec<UnitId>; 2],
    /// Each side's cells that hold a unit: a bit per column, `words` words per row, so that
    /// a question skips empty cells a word at a time.
    occupied: [Vec<u64>; 2],
    words: usize,
    next: Vec<UnitId>,
    prev: Vec<UnitId>,
    at: Vec<usize>,
    /// No unit's enclosing circle has been larger than this since play began, and no unit of
    /// each side has had a longer fire reach.
    radius: f64,
    fire_reach: [f64; 2],
    /// No unit's CV can be higher in this play (none is above its start, and none gains
    /// beyond its start).
    cv: u8,
    /// Whether the battle uses the cells (more units than the grid holds).
    on: bool,
    /// A set of unit ids for a question's answer (all zero between questions).
    found: RefCell<Vec<u64>>,
}

impl Cells {
    #[inline]
    fn axis(&self, v: f64, origin: f64, last: f64) -> usize {
        ((v - origin) * self.inv).max(0.0).min(last) as u32 as usize
    }

    #[inline]
    fn cell(&self, p: Vec2) -> (usize, usize) {
        (self.col_of(p.x), self.row_of(p.y))
    }

    #[inline]
    fn index(&self, p: Vec2) -> usize {
        let (c, r) = self.cell(p);
        r * self.cols + c
    }

    /// Lays the cells over the units as they stand.
    fn build(&mut self, units: &[Unit], rules: Option<&IronsidesRules>) {
        self.on = units.len() > GRID_UNITS;
        if !self.on {
            return;
        }
        let (lo, hi) = bounds(units);
        let span = (hi.x - lo.x).max(hi.y - lo.y);
        self.size = CELL_SIDE.max(span / (MAX_CELLS - 3) as f64);
        self.inv = 1.0 / self.size;
        self.origin = lo - Vec2::new(self.size, self.size);
        let cols = ((hi.x - lo.x) * self.inv) as usize + 3;
        let rows = ((hi.y - lo.y) * self.inv) as usize + 3;
        self.cols = cols;
        self.words = cols.div_ceil(64);
        self.last = Vec2::new((cols - 1) as f64, (rows - 1) as f64);
        for h in &mut self.head {
            h.clear();
            h.resize(cols * rows, NONE);
        }
        for o in &mut self.occupied {
            o.clear();
            o.resize(self.words * rows, 0);
        }
        for v in [&mut self.next, &mut self.prev] {
            v.clear();
            v.resize(units.len(), NONE);
        }
        self.at.clear();
        self.at.resize(units.len(), OFF);
        let found = self.found.get_mut();
        found.clear();
        found.resize(units.len().div_ceil(64), 0);
        self.radius = 0.0;
        self.fire_reach = [0.0; 2];
        self.cv = units
            .iter()
            .map(|u| u.cv.max(u.start_cv))
            .max()
            .unwrap_or(0);
        for u in units {
            self.place(u, rules);
        }
    }

    /// The word of `occupied` and the bit that stand for a cell.
    #[inline]
    fn bit(&self, cell: usize) -> (usize, u64) {
        let (row, col) = (cell / self.cols, cell % self.cols);
        (row * self.words + col / 64, 1 << (col % 64))
    }

    fn link(&mut self, side: Side, id: UnitId, cell: usize) {
        let (i, head) = (usize::from(id), &mut self.head[side.index()][cell]);
        self.next[i] = *head;
        self.prev[i] = NONE;
        if *head != NONE {
            self.prev[usize::from(*head)] = id;
        }
        *head = id;
        self.at[i] = cell;
        let (w, b) = self.bit(cell);
        self.occupied[side.index()][w] |= b;
    }

    fn unlink(&mut self, side: Side, id: UnitId) {
        let i = usize::from(id);
        let (p, x) = (self.prev[i], self.next[i]);
        if p == NONE {
            self.head[side.index()][self.at[i]] = x;
            if x == NONE {
                let (w, b) = self.bit(self.at[i]);
                self.occupied[side.index()][w] &= !b;
            }
        } else {
            self.next[usize::from(p)] = x;
        }
        if x != NONE {
            self.prev[usize::from(x)] = p;
        }
    }

    /// Words in a set of every unit id.
    fn words_for_units(&self) -> usize {
        self.at.len().div_ceil(64)
    }

    /// Brings a unit's entry up to date after it moved or changed: in the list of the cell
    /// its centre is in while it is active, else in none.
    #[inline]
    fn place(&mut self, u: &Unit, rules: Option<&IronsidesRules>) {
        let cell = if u.is_active() {
            self.index(u.pos)
        } else {
            OFF
        };
        let at = self.at[usize::from(u.id)];
        if cell != at {
            if at != OFF {
                self.unlink(u.side, u.id);
            }
            if cell == OFF {
                self.at[usize::from(u.id)] = OFF;
            } else {
                self.link(u.side, u.id, cell);
            }
        }
        self.radius = self.radius.max(Shape::radius_of(u.frontage, u.depth));
        // (A reach that is not a number bounds nothing.)
        let reach = Spot::of(u, rules).fire_reach;
        let most = &mut self.fire_reach[u.side.index()];
        *most = if reach.is_nan() {
            f64::INFINITY
        } else {
            most.max(reach)
        };
    }

    /// Sets in `found` (all zero before) the bits of the active units of `side` whose centres
    /// may lie within the box `lo`-`hi` grown by the largest enclosing radius (every one whose
    /// centre does is among them); returns the range of words that may hold any.
    fn gather(&self, side: Side, lo: Vec2, hi: Vec2, found: &mut [u64]) -> std::ops::Range<usize> {
        let r = Vec2::new(self.radius, self.radius);
        let (c0, r0) = self.cell(lo - r);
        let (c1, r1) = self.cell(hi + r);
        let head = &self.head[side.index()];
        let (mut w0, mut w1) = (usize::MAX, 0);
        for row in r0..=r1 {
            self.occupied_in_row(side, row, c0, c1, |cell| {
                let mut id = head[cell];
                while id != NONE {
                    let i = usize::from(id);
                    found[i / 64] |= 1 << (i % 64);
                    (w0, w1) = (w0.min(i / 64), w1.max(i / 64 + 1));
                    id = self.next[i];
                }
            });
        }
        w0.min(w1)..w1
    }

    /// The distance from `p` to the centre of some active unit of `side` among the nearest
    /// (found ring by ring of cells about `p`), and that unit: a bound on the nearest unit's
    /// distance. None when no unit of the side is active.
    fn some_near(
        &self,
        side: Side,
        p: Vec2,
        centre: impl Fn(UnitId) -> Option<Vec2>,
    ) -> Option<(f64, UnitId)> {
        let (c, r) = self.cell(p);
        let rows = self.head[side.index()].len() / self.cols;
        let (c, r, cols, rows) = (c as i64, r as i64, self.cols as i64, rows as i64);
        let (mut best, mut arg) = (f64::INFINITY, NONE);
        for k in 0..cols.max(rows) {
            for dr in -k..=k {
                let step = if dr.abs() == k { 1 } else { 2 * k.max(1) };
                let mut dc = -k;
                while dc <= k {
                    let (x, y) = (c + dc, r + dr);
                    dc += step;
                    if x < 0 || y < 0 || x >= cols || y >= rows {
                        continue;
                    }
                    let mut id = self.head[side.index()][(y * cols + x) as usize];
                    while id != NONE {
                        if let Some(at) = centre(id) {
                            let d = (at - p).len2();
                            if d < best {
                                (best, arg) = (d, id);
                            }
                        }
                        id = self.next[usize::from(id)];
                    }
                }
            }
            if best.is_finite() {
                return Some((best.sqrt(), arg));
            }
        }
        None
    }

    /// Calls `f` with each active unit of `side` whose centre may lie within `reach` plus the
    /// largest enclosing radius of `p`, row by row of cells, each row only as wide as the circle
    /// of that reach there; `f` returns the reach from then on (never more), so that the rows
    /// after narrow with it. In no set order: for questions whose answer does not hang on it
    /// (the least of a total order).
    fn each_in_circle(
        &self,
        side: Side,
        p: Vec2,
        mut reach: f64,
        mut f: impl FnMut(UnitId) -> f64,
    ) {
        let head = &self.head[side.index()];
        let rows = head.len() / self.cols;
        // (The margin is far above the rounding of which cell a centre is counted in. A reach
        // below zero admits nothing; one that is not a number bounds nothing.)
        let bound = |reach: f64| reach + self.radius + 1e-6;
        let b = bound(reach);
        if b < 0.0 {
            return;
        }
        let b = if b.is_nan() { f64::INFINITY } else { b };
        let (r0, r1) = (self.row_of(p.y - b), self.row_of(p.y + b));
        for row in r0..=r1 {
            let b = bound(reach);
            let dy = self.gap_to_row(row, rows, p.y);
            if b < 0.0 || dy > b {
                continue;
            }
            // Within the circle, a centre in this row lies no farther along x than `half`.
            let half = (b * b - dy * dy).sqrt();
            let half = if half.is_nan() { f64::INFINITY } else { half };
            let (c0, c1) = (self.col_of(p.x - half), self.col_of(p.x + half));
            self.occupied_in_row(side, row, c0, c1, |cell| {
                let mut id = head[cell];
                while id != NONE {
                    reach = f(id);
                    id = self.next[usize::from(id)];
                }
            });
        }
    }

    #[inline]
    fn col_of(&self, x: f64) -> usize {
        self.axis(x, self.origin.x, self.last.x)
    }

    #[inline]
    fn row_of(&self, y: f64) -> usize {
        self.axis(y, self.origin.y, self.last.y)
    }

    /// The distance along y from `y` to the cells of `row` (the edge rows run on for ever: a
    /// unit beyond the cells is counted in the nearest edge cell).
    #[inline]
    fn gap_to_row(&self, row: usize, rows: usize, y: f64) -> f64 {
        let lo = self.origin.y + row as f64 * self.size;
        let below = if row == 0 { 0.0 } else { lo - y };
        let above = if row + 1 == rows {
            0.0
        } else {
            y - (lo + self.size)
        };
        below.max(above).max(0.0)
    }

    /// Calls `f` with each cell of columns `c0..=c1` of `row` that holds a unit of `side`, in
    /// order, skipping empty cells a word of bits at a time.
    #[inline]
    fn occupied_in_row(
        &self,
        side: Side,
        row: usize,
        c0: usize,
        c1: usize,
        mut f: impl FnMut(usize),
    ) {
        let occupied = &self.occupied[side.index()];
        for w in c0 / 64..=c1 / 64 {
            let mut bits = occupied[row * self.words + w];
            if w == c0 / 64 {
                bits &= u64::MAX << (c0 % 64);
            }
            if w == c1 / 64 {
                bits &= u64::MAX >> (63 - c1 % 64);
            }
            while bits != 0 {
                let col = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(row * self.cols + col);
            }
        }
    }
}

/// No general.
const NO_GENERAL: CommanderId = CommanderId::MAX;
/// Generals an overrun gathers from the cells at most (with more about it, every general is
/// looked at).
pub(crate) const GENERALS_NEAR: usize = 64;

/// Where the generals are in play, so that neither a unit's move nor an overrun looks at
/// every general: the generals riding with each unit, and (in a battle with cells) each
/// side's generals standing in each cell, as lists threaded through the generals. Kept by the
/// engine's only writes, in play, of whom a general leads and where he stands
/// (`Battle::attach_general`, `Battle::place_general_at`, and `Battle::moved` for those
/// riding with the unit); built afresh when play begins.
#[derive(Debug, Clone, Default)]
struct Generals {
    /// Each unit's first general riding with it, and each general's next riding with the same
    /// unit: in id order.
    rider: Vec<CommanderId>,
    next_rider: Vec<CommanderId>,
    /// With cells: each side's first general in each cell (as the cells' `head`), each
    /// general's neighbours in his cell's list, and his cell.
    head: [Vec<CommanderId>; 2],
    next: Vec<CommanderId>,
    prev: Vec<CommanderId>,
    at: Vec<usize>,
    /// In play: the riders are kept.
    on: bool,
    /// In play in a battle with cells: the cells' lists are kept.
    in_cells: bool,
}

impl Generals {
    /// Indexes the generals as they stand: by the unit each leads, and by cell when `cells`
    /// are in use.
    fn build(&mut self, units: usize, commanders: &[Commander], cells: &Cells) {
        self.on = true;
        self.rider.clear();
        self.rider.resize(units, NO_GENERAL);
        self.next_rider.clear();
        self.next_rider.resize(commanders.len(), NO_GENERAL);
        for (gi, g) in commanders.iter().enumerate() {
            if let Some(u) = g.attached_unit.filter(|&u| usize::from(u) < units) {
                self.ride(gi as CommanderId, u);
            }
        }
        self.in_cells = cells.on;
        if !self.in_cells {
            return;
        }
        for h in &mut self.head {
            h.clear();
            h.resize(cells.head[0].len(), NO_GENERAL);
        }
        for v in [&mut self.next, &mut self.prev] {
            v.clear();
            v.resize(commanders.len(), NO_GENERAL);
        }
        self.at.clear();
        self.at.resize(commanders.len(), OFF);
        for (gi, g) in commanders.iter().enumerate() {
            self.place(cells, g.side, gi as CommanderId, g.pos);
        }
    }

    /// General `g` rides with unit `u`: put in its list, in id order.
    fn ride(&mut self, g: CommanderId, u: UnitId) {
        let (gi, first) = (usize::from(g), self.rider[usize::from(u)]);
        if first == NO_GENERAL || first > g {
            self.next_rider[gi] = first;
            self.rider[usize::from(u)] = g;
            return;
        }
        let mut p = first;
        loop {
            let n = self.next_rider[usize::from(p)];
            if n == NO_GENERAL || n > g {
                self.next_rider[gi] = n;
                self.next_rider[usize::from(p)] = g;
                return;
            }
            p = n;
        }
    }

    /// General `g` no longer rides with unit `u`: taken out of its list.
    fn unride(&mut self, g: CommanderId, u: UnitId) {
        let gi = usize::from(g);
        if self.rider[usize::from(u)] == g {
            self.rider[usize::from(u)] = self.next_rider[gi];
            return;
        }
        let mut p = self.rider[usize::from(u)];
        while p != NO_GENERAL {
            let n = self.next_rider[usize::from(p)];
            if n == g {
                self.next_rider[usize::from(p)] = self.next_rider[gi];
                return;
            }
            p = n;
        }
    }

    /// General `g` of `side` stands at `pos`: moved to the list of its cell.
    fn place(&mut self, cells: &Cells, side: Side, g: CommanderId, pos: Vec2) {
        let (gi, cell) = (usize::from(g), cells.index(pos));
        let at = self.at[gi];
        if cell == at {
            return;
        }
        let head = &mut self.head[side.index()];
        if at != OFF {
            let (p, x) = (self.prev[gi], self.next[gi]);
            if p == NO_GENERAL {
                head[at] = x;
            } else {
                self.next[usize::from(p)] = x;
            }
            if x != NO_GENERAL {
                self.prev[usize::from(x)] = p;
            }
        }
        let first = head[cell];
        self.next[gi] = first;
        self.prev[gi] = NO_GENERAL;
        if first != NO_GENERAL {
            self.prev[usize::from(first)] = g;
        }
        head[cell] = g;
        self.at[gi] = cell;
    }

    /// Writes into `out`, in id order, the generals of `side` in the cells of the box
    /// `lo`-`hi` (every general standing in the box is among them) and returns how many; None
    /// when more than `out` holds.
    fn near(
        &self,
        cells: &Cells,
        side: Side,
        lo: Vec2,
        hi: Vec2,
        out: &mut [CommanderId],
    ) -> Option<usize> {
        let ((c0, r0), (c1, r1)) = (cells.cell(lo), cells.cell(hi));
        let head = &self.head[side.index()];
        let mut k = 0;
        for row in r0..=r1 {
            for col in c0..=c1 {
                let mut g = head[row * cells.cols + col];
                while g != NO_GENERAL {
                    *out.get_mut(k)? = g;
                    k += 1;
                    g = self.next[usize::from(g)];
                }
            }
        }
        out[..k].sort_unstable();
        Some(k)
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
    /// Each unit's pace (a doctrine's reckoning of its move straight ahead) in the round of
    /// orders it was worked out in.
    pace: Vec<Cell<(u64, f64)>>,
    /// Where the units stand, cell by cell (in play): the grid's bit sets in a battle of up
    /// to `GRID_UNITS` units, the cells' lists in a larger one.
    grid: Grid,
    cells: Cells,
    generals: Generals,
    /// Tests: a large battle looks at every unit instead of asking the cells, and every
    /// battle at every general instead of asking the index of generals.
    #[cfg(test)]
    no_cells: bool,
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
    /// Moves, turns or reshapes unit `id` (`change` writes its `pos`, `facing`, `formation`,
    /// `frontage`, `depth` or `status`), then records it (`moved`): the one way the engine
    /// writes where a unit stands and what shape it is, so that the caches (and a general
    /// riding with the unit) follow before anything else is asked. Returns what `change` does.
    #[inline]
    pub(crate) fn shift<R>(&mut self, id: UnitId, change: impl FnOnce(&mut Unit) -> R) -> R {
        let r = change(&mut self.units[usize::from(id)]);
        self.moved(id);
        r
    }

    /// Records that unit `id` moved, turned, changed frontage or left the table: through
    /// `shift`, or after a change of status alone.
    #[inline]
    pub(crate) fn moved(&mut self, id: UnitId) {
        // A general leading the unit rides with it (the one rule kept here: every write to a
        // unit's position comes through this call).
        let pos = self.units[usize::from(id)].pos;
        if self.cache.generals.on {
            let mut g = self.cache.generals.rider[usize::from(id)];
            while g != NO_GENERAL {
                self.place_general_at(g, pos);
                g = self.cache.generals.next_rider[usize::from(g)];
            }
        } else {
            for g in self
                .commanders
                .iter_mut()
                .filter(|g| g.attached_unit == Some(id))
            {
                g.pos = pos;
            }
        }
        let c = &mut self.cache;
        c.epoch = c.epoch.wrapping_add(1);
        if c.on {
            let u = &self.units[usize::from(id)];
            c.spots[u.side.index()][c.slot[usize::from(id)]] = Spot::of(u, c.rules.as_deref());
            if c.grid.on {
                c.grid.place(u);
            }
            if c.cells.on {
                c.cells.place(u, c.rules.as_deref());
            }
            let log = &mut c.moves[u.side.index()];
            log.push(id);
            c.last_move[usize::from(id)] = log.len();
        }
    }

    /// Makes general `g` lead unit `unit` (None: no unit): the one way the engine changes
    /// whom a general leads, so that the index of riders follows.
    pub(crate) fn attach_general(&mut self, g: CommanderId, unit: Option<UnitId>) {
        let old = self.commanders[usize::from(g)].attached_unit;
        if old == unit {
            return;
        }
        self.commanders[usize::from(g)].attached_unit = unit;
        let x = &mut self.cache.generals;
        if x.on {
            if let Some(u) = old {
                x.unride(g, u);
            }
            if let Some(u) = unit {
                x.ride(g, u);
            }
        }
    }

    /// Puts general `g` at `pos`: the one way the engine moves a general, so that the cells'
    /// lists of generals follow.
    pub(crate) fn place_general_at(&mut self, g: CommanderId, pos: Vec2) {
        let c = &mut self.commanders[usize::from(g)];
        c.pos = pos;
        let (side, cache) = (c.side, &mut self.cache);
        if cache.generals.in_cells {
            cache.generals.place(&cache.cells, side, g, pos);
        }
    }

    /// The first general, in id order, leading unit `id` for whom `f` holds.
    pub(crate) fn rider_where(
        &self,
        id: UnitId,
        mut f: impl FnMut(&Commander) -> bool,
    ) -> Option<CommanderId> {
        let x = &self.cache.generals;
        if !x.on {
            return self
                .commanders
                .iter()
                .find(|c| c.attached_unit == Some(id) && f(c))
                .map(|c| c.id);
        }
        let mut g = x.rider.get(usize::from(id)).copied().unwrap_or(NO_GENERAL);
        while g != NO_GENERAL {
            let c = &self.commanders[usize::from(g)];
            debug_assert_eq!(c.attached_unit, Some(id));
            if f(c) {
                return Some(c.id);
            }
            g = x.next_rider[usize::from(g)];
        }
        None
    }

    /// In a battle with cells, writes into `out`, in id order, the generals of `side` who may
    /// stand within `reach` of `centre` each way (every one who does is among them), and
    /// returns how many; None without cells or when more than `out` holds stand about it.
    pub(crate) fn generals_about(
        &self,
        side: Side,
        centre: Vec2,
        reach: f64,
        out: &mut [CommanderId],
    ) -> Option<usize> {
        let x = &self.cache.generals;
        if !x.in_cells || reach.is_nan() || reach == f64::INFINITY {
            return None;
        }
        let r = Vec2::new(reach, reach);
        x.near(&self.cache.cells, side, centre - r, centre + r, out)
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
        c.cells.build(&self.units, c.rules.as_deref());
        #[cfg(test)]
        if c.no_cells {
            c.cells.on = false;
        }
        c.generals.build(n, &self.commanders, &c.cells);
        #[cfg(test)]
        if c.no_cells {
            c.generals.on = false;
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
        c.pace.resize(self.units.len(), Cell::new((0, 0.0)));
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

    /// A unit's pace as worked out in this round of orders, if it was.
    pub(crate) fn pace_memo(&self, id: UnitId) -> Option<f64> {
        let c = &self.cache;
        let (round, pace) = c.pace.get(usize::from(id))?.get();
        (c.orders != 0 && round == c.orders).then_some(pace)
    }

    /// Keeps a unit's pace for the rest of this round of orders.
    pub(crate) fn set_pace_memo(&self, id: UnitId, pace: f64) {
        let c = &self.cache;
        if c.orders != 0
            && let Some(cell) = c.pace.get(usize::from(id))
        {
            cell.set((c.orders, pace));
        }
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
        self.cache.generals.on = false;
        self.cache.generals.in_cells = false;
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
        if c.on && c.cells.on {
            let spots = &c.spots[side.index()];
            let spot = |id: UnitId| &spots[c.slot[usize::from(id)]];
            // The cells' own set, or one on the stack while that is in use.
            let mut own = c.cells.found.try_borrow_mut();
            let mut stack = [0u64; 0];
            let mut spare;
            let found: &mut [u64] = match own {
                Ok(ref mut v) => v,
                Err(_) if c.cells.words_for_units() <= STACK_WORDS => {
                    spare = [0u64; STACK_WORDS];
                    &mut spare
                }
                Err(_) => &mut stack,
            };
            if !found.is_empty() {
                let mut go = true;
                for w in c.cells.gather(side, lo, hi, found) {
                    // Every word is emptied, so the set is all zero for the next question.
                    let mut x = std::mem::take(&mut found[w]);
                    while go && x != 0 {
                        let b = x.trailing_zeros() as usize;
                        x &= x - 1;
                        go = f(spot((w * 64 + b) as UnitId));
                    }
                }
                return;
            }
        }
        self.with_spots(side, |spots| {
            for s in spots.iter().filter(|s| s.active) {
                if !f(s) {
                    return;
                }
            }
        });
    }

    /// Calls `f` with each unit of `side` that may stand in the box `lo`-`hi` (grown by the
    /// largest enclosing radius), in id order, until it returns false: in a battle with cells
    /// the active units near it (as `spots_near`); in a smaller battle, where a box over much
    /// of the field costs more than it saves, every unit of the side, active or not.
    #[inline]
    pub(crate) fn spots_scan(
        &self,
        side: Side,
        lo: Vec2,
        hi: Vec2,
        mut f: impl FnMut(&Spot) -> bool,
    ) {
        if self.cache.on && self.cache.cells.on {
            return self.spots_near(side, lo, hi, f);
        }
        self.with_spots(side, |spots| {
            for s in spots {
                if !f(s) {
                    return;
                }
            }
        });
    }

    /// In a battle with cells, writes into `out`, in id order, the active units of `side` whose
    /// enclosing circles may come within `reach` of unit `of`'s (every one that does is among
    /// them), and returns how many; None without cells or when they do not fit.
    pub(crate) fn units_about(
        &self,
        side: Side,
        of: UnitId,
        reach: f64,
        out: &mut [UnitId],
    ) -> Option<usize> {
        if !self.in_cells() || reach.is_nan() || reach == f64::INFINITY {
            return None;
        }
        let me = self.shape(of);
        let mut k = 0;
        let mut fits = true;
        let r = (reach + me.radius) * (1.0 + 1e-9) + 1e-6;
        self.spots_around(side, me.centre, r, |s| {
            fits = k < out.len();
            if fits {
                out[k] = s.id;
                k += 1;
            }
            fits
        });
        fits.then_some(k)
    }

    /// No unit's CV is above this in play (in a battle with cells; else the most a CV can be).
    pub(crate) fn cv_bound(&self) -> u8 {
        if self.in_cells() {
            self.cache.cells.cv
        } else {
            u8::MAX
        }
    }

    /// No active unit of `side` has a fire reach longer than this (in a battle with cells: the
    /// longest since play began; else infinite).
    #[inline]
    pub(crate) fn fire_reach_bound(&self, side: Side) -> f64 {
        if self.in_cells() {
            self.cache.cells.fire_reach[side.index()]
        } else {
            f64::INFINITY
        }
    }

    /// In a battle with cells (`in_cells`), calls `f` with where each active unit of `side`
    /// stands whose centre may lie within `reach` plus the largest enclosing radius of `p`, in
    /// no set order (`Cells::each_in_circle`); `f` returns the reach from then on (never more).
    /// For questions whose answer does not hang on the order.
    #[inline]
    pub(crate) fn spots_in_circle(
        &self,
        side: Side,
        p: Vec2,
        reach: f64,
        mut f: impl FnMut(&Spot) -> f64,
    ) {
        debug_assert!(self.in_cells());
        let (c, spots) = (&self.cache, &self.cache.spots[side.index()]);
        c.cells
            .each_in_circle(side, p, reach, |id| f(&spots[c.slot[usize::from(id)]]));
    }

    /// In a battle with cells, an active unit of `side` among those whose centres are nearest
    /// `p` (found ring by ring of cells about it), with its centre's distance from `p`: a bound
    /// on the nearest unit's distance. None when no unit of the side is active.
    pub(crate) fn some_unit_near(&self, side: Side, p: Vec2) -> Option<(f64, UnitId)> {
        debug_assert!(self.in_cells());
        let spots = &self.cache.spots[side.index()];
        let centre = |e: UnitId| {
            let s = &spots[self.cache.slot[usize::from(e)]];
            s.active.then_some(s.centre)
        };
        self.cache.cells.some_near(side, p, centre)
    }

    /// Whether the battle in play keeps its units in cells (it is too large for the grid).
    #[inline]
    pub(crate) fn in_cells(&self) -> bool {
        self.cache.on && self.cache.cells.on
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
        if self.cache.cells.on && log.len() - n.seen[enemy] > LOG_WALK {
            // Many enemies moved: measured again from the cells about it, starting from its
            // nearest enemy (which did not move). The same distance as the walk would give.
            (n.dist, n.enemy) = self.nearest_enemy_scan(id, n.enemy);
            n.seen = self.cache.moves.each_ref().map(Vec::len);
            cell.set(n);
            debug_assert_eq!(n.dist.to_bits(), self.nearest_enemy_fresh(id).to_bits());
            return Some(n.dist);
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
    pub(super) fn nearest_enemy_fresh(&self, id: UnitId) -> f64 {
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
        let (mut reach, start) = (best + me.radius, best);
        let mut consider = |s: &Spot| {
            let need = reach + s.radius;
            let c = s.centre - me.centre;
            // (Nothing here is NaN: centres are finite and `best` at worst infinite.)
            if c.dot(c) >= need * need
                || !s.active
                || s.id == hint
                || me.dist_to_point(s.centre) - s.radius >= best
            {
                return true;
            }
            if let Some(d) = self.dist_if_closer(&me, s.id, best)
                && d < best
            {
                (best, arg) = (d, s.id);
                reach = best + me.radius;
            }
            true
        };
        if !self.in_cells() {
            for s in &self.cache.spots[enemy.index()] {
                consider(s);
            }
            return (best, arg);
        }
        // With cells, only the enemies about the unit: no farther than the start, or than some
        // enemy's centre (a bound on the nearest's distance; the enemies beyond it are farther
        // than the nearest, so the answer and the first enemy at it in id order are the same).
        let mut bound = start;
        if bound > FAR_START {
            match self.some_unit_near(enemy, me.centre) {
                Some((b, _)) => bound = bound.min(b),
                None => return (best, arg), // no active enemy
            }
        }
        let reach_box = (bound + me.radius) * (1.0 + 1e-9) + 1e-6;
        self.spots_around(enemy, me.centre, reach_box, consider);
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

/// The corners of the box around every unit on the table (units off it have no finite
/// place); the origin alone when there are none.
fn bounds(units: &[Unit]) -> (Vec2, Vec2) {
    let (mut lo, mut hi) = (Vec2::new(f64::MAX, f64::MAX), Vec2::new(f64::MIN, f64::MIN));
    for u in units
        .iter()
        .filter(|u| u.pos.x.is_finite() && u.pos.y.is_finite())
    {
        lo = Vec2::new(lo.x.min(u.pos.x), lo.y.min(u.pos.y));
        hi = Vec2::new(hi.x.max(u.pos.x), hi.y.max(u.pos.y));
    }
    if lo.x > hi.x {
        return (Vec2::new(0.0, 0.0), Vec2::new(0.0, 0.0));
    }
    (lo, hi)
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
        assert!(b.cache.grid.on && !b.cache.cells.on);
        boxes_find_every_unit(&mut b, Vec2::new(80.0, 50.0));
    }

    /// So do the cells of a battle too large for the grid.
    #[test]
    fn cells_find_every_unit_in_a_box() {
        let setup = crate::scenario::generate::generated(600)
            .and_then(|s| s.setup())
            .expect("generated battle");
        let mut b = Battle::new(&setup);
        b.begin_caching(&setup.rules);
        assert!(b.cache.cells.on && !b.cache.grid.on);
        boxes_find_every_unit(&mut b, Vec2::new(setup.ground.width, setup.ground.depth));
    }

    /// Moves a unit chosen at random to a place at random on a field of `size` or up to
    /// `margin` beyond it, and takes it off the table or back if `toggle`.
    fn move_one_at_random(
        b: &mut Battle,
        size: Vec2,
        margin: f64,
        toggle: bool,
        uniform: &mut impl FnMut(f64, f64) -> f64,
    ) {
        let id = (uniform(0.0, b.units.len() as f64) as usize).min(b.units.len() - 1);
        let u = &mut b.units[id];
        u.pos = Vec2::new(
            uniform(-margin, size.x + margin),
            uniform(-margin, size.y + margin),
        );
        if toggle {
            u.status = if u.is_active() {
                UnitStatus::OffTable
            } else {
                UnitStatus::Active
            };
        }
        b.moved(id as UnitId);
    }

    /// Moves units at random about a field of `size` (off it and back) and checks after each
    /// move that box questions find every active unit of a side whose centre is in the box,
    /// in id order, and no unit of the other side or off the table.
    fn boxes_find_every_unit(b: &mut Battle, size: Vec2) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut uniform =
            |lo: f64, hi: f64| lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for round in 0..400 {
            move_one_at_random(b, size, 20.0, round % 7 == 0, &mut uniform);
            let c = Vec2::new(uniform(-10.0, size.x + 10.0), uniform(-10.0, size.y + 10.0));
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

    /// The circle walk of a large battle finds every active unit of a side whose centre is
    /// within the reach (plus the largest radius) as the reach narrows after each unit met,
    /// beyond the cells included, and no unit of the other side or off the table; and it skips
    /// the far rows and columns (most units are never met).
    #[test]
    fn circles_find_every_unit_within_a_narrowing_reach() {
        let setup = crate::scenario::generate::generated(600)
            .and_then(|s| s.setup())
            .expect("generated battle");
        let mut b = Battle::new(&setup);
        b.begin_caching(&setup.rules);
        let size = Vec2::new(setup.ground.width, setup.ground.depth);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut uniform =
            |lo: f64, hi: f64| lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut met, mut asked) = (0, 0);
        for round in 0..400 {
            move_one_at_random(&mut b, size, 30.0, round % 7 == 0, &mut uniform);
            let p = Vec2::new(uniform(-40.0, size.x + 40.0), uniform(-40.0, size.y + 40.0));
            let start = if round % 50 == 0 {
                f64::NAN
            } else {
                uniform(-5.0, 40.0)
            };
            let step = uniform(0.0, 3.0);
            for side in [Side::Parliament, Side::Royalist] {
                // Each unit met narrows the reach: a unit within the least reach the walk
                // came to was within it all along, and must be met.
                let mut reach = start;
                let mut seen = Vec::new();
                b.spots_in_circle(side, p, start, |s| {
                    seen.push(s.id);
                    reach = if reach.is_nan() { 40.0 } else { reach - step };
                    reach
                });
                let radius = b.cache.cells.radius;
                for u in &b.units {
                    let d = (u.pos - p).dot(u.pos - p).sqrt();
                    let within = reach.is_nan() || d <= reach + radius;
                    let wanted = u.side == side && u.is_active() && within;
                    assert!(!wanted || seen.contains(&u.id), "unit {} missed", u.id);
                    assert!(!seen.contains(&u.id) || (u.side == side && u.is_active()));
                }
                met += seen.len();
                asked += b.units.len() / 2;
            }
        }
        assert!(met * 10 < asked, "{met} of {asked} met");
    }

    /// The generals' index follows every attachment and move of generals and units in play
    /// (off the table and back): each unit's riders are the generals a scan finds leading it,
    /// in id order, and the generals about a place include every general of the side there.
    #[test]
    fn generals_index_follows_every_move() {
        let setup = crate::scenario::generate::generated(600)
            .and_then(|s| s.setup())
            .expect("generated battle");
        let mut b = Battle::new(&setup);
        b.begin_caching(&setup.rules);
        assert!(b.cache.generals.on && b.cache.generals.in_cells);
        let size = Vec2::new(setup.ground.width, setup.ground.depth);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut uniform =
            |lo: f64, hi: f64| lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (units, generals) = (b.units.len(), b.commanders.len());
        for round in 0..2000 {
            let pick = |x: f64, n: usize| (x as usize).min(n - 1);
            let g = pick(uniform(0.0, generals as f64), generals) as CommanderId;
            let u = pick(uniform(0.0, units as f64), units) as UnitId;
            let at = Vec2::new(uniform(-20.0, size.x + 20.0), uniform(-20.0, size.y + 20.0));
            match round % 4 {
                0 => b.attach_general(g, Some(u)),
                1 => b.attach_general(g, None),
                2 => b.place_general_at(g, at),
                _ => {
                    b.units[usize::from(u)].pos = at;
                    b.moved(u);
                    for g in b.commanders.iter().filter(|g| g.attached_unit == Some(u)) {
                        assert_eq!(g.pos, at, "general {} rides with unit {u}", g.id);
                    }
                }
            }
            let u = pick(uniform(0.0, units as f64), units) as UnitId;
            let scan: Vec<_> = b
                .commanders
                .iter()
                .filter(|c| c.attached_unit == Some(u))
                .map(|c| c.id)
                .collect();
            let mut riders = Vec::new();
            b.rider_where(u, |c| {
                riders.push(c.id);
                false
            });
            assert_eq!(riders, scan, "riders of unit {u}");
            let c = Vec2::new(uniform(-10.0, size.x + 10.0), uniform(-10.0, size.y + 10.0));
            let reach = uniform(0.0, 12.0);
            for side in [Side::Parliament, Side::Royalist] {
                let mut out = [0; GENERALS_NEAR];
                let k = b.generals_about(side, c, reach, &mut out).expect("fits");
                let near = &out[..k];
                assert!(near.windows(2).all(|w| w[0] < w[1]), "id order");
                for g in &b.commanders {
                    let d = g.pos - c;
                    let inside = d.x.abs() <= reach && d.y.abs() <= reach;
                    assert!(!(g.side == side && inside) || near.contains(&g.id));
                    assert!(!near.contains(&g.id) || g.side == side);
                }
            }
        }
        b.end_caching();
        assert!(!b.cache.generals.on);
    }

    /// FNV-1a over the debug form of every event, with the count of events, and of routs and
    /// of generals' casualties (so that a test can tell the chains and overruns were fought).
    struct Fingerprint(u64, usize, [usize; 2]);

    impl crate::events::Observer for Fingerprint {
        fn event(&mut self, e: &crate::events::Event) {
            for b in format!("{e:?}").bytes() {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            self.1 += 1;
            match e {
                crate::events::Event::Rout { .. } => self.2[0] += 1,
                crate::events::Event::GeneralCasualty { .. } => self.2[1] += 1,
                _ => {}
            }
        }
    }

    /// A large battle fights the same with the cells and the generals' index as looking at
    /// every unit and every general: every event of a few generated battles, to the bit.
    #[test]
    fn cells_fight_the_same_battles_as_full_scans() {
        let setup = crate::scenario::generate::generated(400)
            .and_then(|s| s.setup())
            .expect("generated battle");
        let fight = |no_cells: bool| {
            let mut b = Battle::new(&setup);
            b.cache.no_cells = no_cells;
            let mut fp = Fingerprint(0xcbf2_9ce4_8422_2325, 0, [0; 2]);
            for i in 0..3 {
                b.fight(&setup, crate::dice::battle_seed(5, i), &mut fp);
            }
            assert_eq!(b.cache.cells.on, !no_cells);
            (fp.0, fp.1, fp.2)
        };
        let (with, without) = (fight(false), fight(true));
        assert!(with.1 > 1000, "{} events", with.1);
        assert!(
            with.2[0] > 10 && with.2[1] > 0,
            "routs, casualties {:?}",
            with.2
        );
        assert_eq!(with, without);
    }
}

//! Each side's regiments by cell of the table, so that queries about one regiment look at the
//! cells near it instead of walking a whole side (both rulesets' battles keep one).
//!
//! The battle keeps it wherever it writes a regiment's position and refills it on reset. The
//! lists are linked through per-regiment arrays allocated once per battle worker, so moving a
//! regiment allocates nothing. The order within a cell is arbitrary: every query using the grid
//! breaks ties by regiment or element index, as the walks in index order did.

use crate::army::Side;
use crate::battlefield::Vec2;

/// Regiments (on a side, or in the list searched) from which a search asks the grid's cells
/// instead of walking them all in index order: below it (Marston Moor's 36 a side) the walk is
/// cheaper, above it the cells (measured with the scaling bench, docs/PERFORMANCE-LOG.md).
pub const GRID_FROM: usize = 64;

/// No regiment (the end of a cell's list).
const NONE: u16 = u16::MAX;

#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// Inches on a cell's side (each ruleset's, measured: the searches' reach against the
    /// regiments a cell holds).
    cell: f64,
    cols: usize,
    rows: usize,
    /// The first regiment of each side's list in each cell: `side * cols * rows + cell`.
    head: Vec<u16>,
    /// Each regiment's neighbours in its cell's list.
    next: Vec<u16>,
    prev: Vec<u16>,
    /// Each regiment's slot in `head`.
    slot: Vec<u32>,
    /// Each side's cells stood in since the fill: the searches skip the cells outside.
    stood: [Stood; 2],
}

/// The columns `c0..=c1` and rows `r0..=r1` a side's regiments have stood in since the grid
/// was filled: it only grows, so every regiment of the side is within it (empty: `c0 > c1`).
#[derive(Debug, Clone, Copy)]
struct Stood {
    c0: usize,
    c1: usize,
    r0: usize,
    r1: usize,
}

impl Stood {
    const EMPTY: Stood = Stood {
        c0: usize::MAX,
        c1: 0,
        r0: usize::MAX,
        r1: 0,
    };

    fn take(&mut self, (c, r): (usize, usize)) {
        *self = Stood {
            c0: self.c0.min(c),
            c1: self.c1.max(c),
            r0: self.r0.min(r),
            r1: self.r1.max(r),
        };
    }

    /// How many rings out from cell `(c, r)` its farthest cell lies (none if empty).
    fn reach_from(&self, (c, r): (usize, usize)) -> Option<usize> {
        let far = |a: usize, lo: usize, hi: usize| a.abs_diff(lo).max(a.abs_diff(hi));
        (self.c0 <= self.c1).then(|| far(c, self.c0, self.c1).max(far(r, self.r0, self.r1)))
    }
}

impl Default for Stood {
    fn default() -> Self {
        Stood::EMPTY
    }
}

impl Grid {
    /// A grid of cells of `cell` inches over a table of `width` by `depth` inches for
    /// `regiments` regiments.
    pub fn new((width, depth): (f64, f64), regiments: usize, cell: f64) -> Grid {
        let cells = |len: f64| ((len / cell).ceil() as usize).clamp(1, 4096);
        let (cols, rows) = (cells(width), cells(depth));
        Grid {
            cell,
            cols,
            rows,
            head: vec![NONE; 2 * cols * rows],
            next: vec![NONE; regiments],
            prev: vec![NONE; regiments],
            slot: vec![0; regiments],
            stood: [Stood::EMPTY; 2],
        }
    }

    /// Every regiment where it stands (`at` gives each one's side and centre).
    pub fn fill(&mut self, n: usize, at: impl Fn(usize) -> (Side, Vec2)) {
        self.head.fill(NONE);
        self.stood = [Stood::EMPTY; 2];
        for r in 0..n {
            let (side, pos) = at(r);
            self.insert(r, self.slot_of(side, pos));
        }
    }

    /// Regiment `r` of `side` now stands at `pos`.
    #[inline]
    pub fn moved(&mut self, r: usize, side: Side, pos: Vec2) {
        let slot = self.slot_of(side, pos);
        if slot != self.slot[r] {
            self.remove(r);
            self.insert(r, slot);
        }
    }

    /// The cell's column and row of a point, points off the table in the edge cells. A centre
    /// in column `c` and one in column `c + k` (k >= 1) are more than `(k - 1)` cells apart in
    /// x, off the table too; rows likewise.
    #[inline]
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        // `as` truncates towards zero and takes negatives (and NaN) to 0: the floor for a
        // point on the table, the edge cell off it.
        let at = |v: f64, n: usize| ((v / self.cell) as usize).min(n - 1);
        (at(p.x, self.cols), at(p.y, self.rows))
    }

    #[inline]
    fn slot_of(&self, side: Side, p: Vec2) -> u32 {
        let (c, r) = self.cell_of(p);
        (side.index() * self.cols * self.rows + r * self.cols + c) as u32
    }

    fn insert(&mut self, r: usize, slot: u32) {
        let (slot_at, per) = (slot as usize, self.cols * self.rows);
        let (side, cell) = (slot_at / per, slot_at % per);
        self.stood[side].take((cell % self.cols, cell / self.cols));
        let head = &mut self.head[slot as usize];
        self.next[r] = *head;
        self.prev[r] = NONE;
        if *head != NONE {
            self.prev[usize::from(*head)] = r as u16;
        }
        *head = r as u16;
        self.slot[r] = slot;
    }

    fn remove(&mut self, r: usize) {
        let (p, n) = (self.prev[r], self.next[r]);
        if p == NONE {
            self.head[self.slot[r] as usize] = n;
        } else {
            self.next[usize::from(p)] = n;
        }
        if n != NONE {
            self.prev[usize::from(n)] = p;
        }
    }

    /// Calls `f` with every regiment of `side` in the cells the box `lo`..`hi` touches.
    #[inline]
    pub fn in_box(&self, side: Side, lo: Vec2, hi: Vec2, f: impl FnMut(usize)) {
        self.box_members(side, lo, hi).for_each(f);
    }

    /// Calls `f` with the regiments of `side` in the cells the box `lo`..`hi` touches until it
    /// returns true; whether it did.
    #[inline]
    pub fn any_in_box(&self, side: Side, lo: Vec2, hi: Vec2, f: impl FnMut(usize) -> bool) -> bool {
        self.box_members(side, lo, hi).any(f)
    }

    /// The regiments of `side` in the cells the box `lo`..`hi` touches, row by row.
    #[inline]
    pub fn box_members(&self, side: Side, lo: Vec2, hi: Vec2) -> Members<'_> {
        let ((c0, r0), (c1, r1)) = (self.cell_of(lo), self.cell_of(hi));
        let s = &self.stood[side.index()];
        let (c0, c1, r0, r1) = (c0.max(s.c0), c1.min(s.c1), r0.max(s.r0), r1.min(s.r1));
        self.members(side, Span::Box(c0, c1), r0, r1)
    }

    /// Calls `f` with every regiment of `side` in the cells `k` columns or rows out from `p`'s
    /// cell and no nearer (its own cell for 0) that come within `within` of `p` (the cells
    /// wholly farther are skipped); false when that ring lies wholly beyond the cells the side
    /// has stood in, as every further one does.
    #[inline]
    pub fn ring(&self, side: Side, p: Vec2, k: usize, within: f64, f: impl FnMut(usize)) -> bool {
        self.ring_members(side, p, k, within)
            .map(|ring| ring.for_each(f))
            .is_some()
    }

    /// The regiments of `side` in ring `k` about `p` within `within` of it (`ring`), row by
    /// row; None when that ring lies wholly beyond the cells the side has stood in.
    #[inline]
    pub fn ring_members(&self, side: Side, p: Vec2, k: usize, within: f64) -> Option<Members<'_>> {
        let (c, r) = self.cell_of(p);
        let s = self.stood[side.index()];
        if s.reach_from((c, r)).is_none_or(|far| k > far) {
            return None;
        }
        // The ring's rows and columns within those the side has stood in (on the grid).
        let (lo, hi) = (s.c0, s.c1);
        let around = Around {
            p,
            within2: within * within,
            cell: self.cell,
            last: (self.cols - 1, self.rows - 1),
        };
        let span = Span::Ring {
            c,
            r,
            k,
            lo,
            hi,
            around,
        };
        Some(self.members(side, span, r.saturating_sub(k).max(s.r0), (r + k).min(s.r1)))
    }

    /// The regiments of `side` in the cells of `span` in rows `first` to `last`.
    #[inline]
    fn members(&self, side: Side, span: Span, first: usize, last: usize) -> Members<'_> {
        let cells = Cells {
            base: side.index() * self.cols * self.rows,
            cols: self.cols,
            span,
            next_row: first,
            last_row: last,
            row: first,
            col: 1,
            to: 0,
            step: 1,
        };
        Members {
            grid: self,
            cells,
            n: NONE,
        }
    }

    /// How far from a point every centre outside its rings 0 to `k` is, at least (`cell_of`).
    #[inline]
    pub fn past_ring(&self, k: usize) -> f64 {
        k as f64 * self.cell
    }
}

/// A point and the squared distance within which a ring's cells are listed.
#[derive(Debug, Clone, Copy)]
struct Around {
    p: Vec2,
    within2: f64,
    cell: f64,
    /// The last column and row: they and the first hold what is off the table.
    last: (usize, usize),
}

impl Around {
    /// The columns of row `row` whose cells come within the reach of the point (first above
    /// last: none), widened a margin far above rounding: the edge cells reach out to infinity.
    #[inline]
    fn columns(&self, row: usize) -> (usize, usize) {
        let (y0, y1) = (row as f64 * self.cell, (row + 1) as f64 * self.cell);
        let dy = if row > 0 && self.p.y < y0 {
            y0 - self.p.y
        } else if row < self.last.1 && self.p.y > y1 {
            self.p.y - y1
        } else {
            0.0
        };
        let left = self.within2 - dy * dy;
        if left < 0.0 {
            return (1, 0);
        }
        let w = left.sqrt() * (1.0 + 1e-9) + 1e-9;
        // `as` saturates: off the table to the edge cells, infinity to the last.
        let col = |x: f64| ((x / self.cell) as usize).min(self.last.0);
        (col(self.p.x - w), col(self.p.x + w))
    }
}

/// Which columns of each row a search takes: a box's, or a ring's about cell `(c, r)` within
/// the columns `lo..=hi` (those its side has stood in).
#[derive(Debug, Clone, Copy)]
enum Span {
    Box(usize, usize),
    Ring {
        c: usize,
        r: usize,
        k: usize,
        lo: usize,
        hi: usize,
        around: Around,
    },
}

/// The cells of a `Span`, row by row: in each row the columns `col..=to` by `step`.
#[derive(Debug, Clone)]
struct Cells {
    base: usize,
    cols: usize,
    span: Span,
    next_row: usize,
    last_row: usize,
    row: usize,
    col: usize,
    to: usize,
    step: usize,
}

impl Cells {
    /// Row `row`'s columns: first, last and step (first above last: none).
    #[inline]
    fn columns(&self, row: usize) -> (usize, usize, usize) {
        match self.span {
            Span::Box(c0, c1) => (c0, c1, 1),
            // A ring's top and bottom rows whole, the rows between only their two ends.
            // The ring's columns within those the side has stood in, and whose cells come
            // within the ring's reach of its point in this row (`Around::columns`).
            Span::Ring {
                c,
                r,
                k,
                lo,
                hi,
                around,
            } => {
                let (near, far) = around.columns(row);
                let (lo, hi) = (lo.max(near), hi.min(far));
                if row.abs_diff(r) == k {
                    return (c.saturating_sub(k).max(lo), (c + k).min(hi), 1);
                }
                let on = |col: &usize| (lo..=hi).contains(col);
                match (c.checked_sub(k).filter(on), Some(c + k).filter(on)) {
                    (Some(a), Some(b)) => (a, b, 2 * k),
                    (Some(a), None) | (None, Some(a)) => (a, a, 1),
                    (None, None) => (1, 0, 1),
                }
            }
        }
    }
}

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.col > self.to {
            if self.next_row > self.last_row {
                return None;
            }
            self.row = self.next_row;
            (self.col, self.to, self.step) = self.columns(self.row);
            self.next_row += 1;
        }
        let slot = self.base + self.row * self.cols + self.col;
        self.col += self.step;
        Some(slot)
    }
}

/// The regiments listed in some cells of the grid (`Grid::box_members`, `ring_members`): each
/// cell's list in turn.
#[derive(Debug, Clone)]
pub struct Members<'a> {
    grid: &'a Grid,
    cells: Cells,
    /// The next regiment of the cell being listed.
    n: u16,
}

impl Iterator for Members<'_> {
    type Item = usize;

    /// Inlined where a search loops: a call per regiment would cost more than the search.
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.n == NONE {
            self.n = self.grid.head[self.cells.next()?];
        }
        let r = usize::from(self.n);
        self.n = self.grid.next[r];
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moving regiments keeps every one in exactly the list of the cell it stands in.
    #[test]
    fn moves_keep_each_regiment_in_its_cell() {
        let mut g = Grid::new((72.0, 48.0), 40, 6.0);
        let side = |r: usize| {
            if r.is_multiple_of(3) {
                Side::Royalist
            } else {
                Side::Parliament
            }
        };
        let mut pos: Vec<Vec2> = (0..40).map(|r| Vec2::new(r as f64 * 1.7, 20.0)).collect();
        g.fill(40, |r| (side(r), pos[r]));
        for step in 0..400usize {
            let r = (step * 7) % 40;
            // Off the table as well as on it.
            pos[r] = Vec2::new((step * 13 % 90) as f64 - 9.0, (step * 5 % 60) as f64 - 6.0);
            g.moved(r, side(r), pos[r]);
            let mut seen = vec![0; 40];
            for s in Side::BOTH {
                g.in_box(s, Vec2::new(-1e9, -1e9), Vec2::new(1e9, 1e9), |o| {
                    assert_eq!(side(o), s);
                    assert_eq!(g.slot_of(s, pos[o]), g.slot[o]);
                    seen[o] += 1;
                });
            }
            assert!(seen.iter().all(|&n| n == 1), "step {step}: {seen:?}");
        }
    }

    /// The rings around a point, on the table and off it, visit each regiment of the side once,
    /// in the ring of its cell's distance, and every centre outside rings 0 to `k` is more than
    /// `past_ring(k)` from the point; rings asked within a distance list every regiment within
    /// it, and skip cells: with each ruleset's cell.
    #[test]
    fn the_rings_visit_each_regiment_once_nearest_cells_first() {
        for cell in [6.0, 12.0] {
            rings_visit_each_regiment_once(cell);
        }
    }

    fn rings_visit_each_regiment_once(cell: f64) {
        let mut g = Grid::new((72.0, 48.0), 40, cell);
        let mut skipped = 0;
        // A band of regiments at first, so that the side's cells are a few rows; then moved
        // one at a time all over the table and off it, so that they grow.
        let mut pos: Vec<Vec2> = (0..40usize)
            .map(|r| Vec2::new((r * 37 % 40) as f64 + 10.0, (r % 5) as f64 + 30.0))
            .collect();
        g.fill(40, |r| (Side::Royalist, pos[r]));
        for (i, p) in (0..200usize)
            .map(|i| Vec2::new((i * 29 % 95) as f64 - 11.5, (i * 17 % 66) as f64 - 9.5))
            .enumerate()
        {
            if i % 3 == 0 {
                let r = i / 3 % 40;
                pos[r] = Vec2::new((i * 31 % 90) as f64 - 9.0, (i * 13 % 62) as f64 - 7.0);
                g.moved(r, Side::Royalist, pos[r]);
            }
            let mut ring_of = vec![usize::MAX; 40];
            let mut k = 0;
            while g.ring(Side::Royalist, p, k, f64::INFINITY, |o| {
                assert_eq!(ring_of[o], usize::MAX, "{p:?} {o}");
                ring_of[o] = k;
            }) {
                for (o, &at) in ring_of.iter().enumerate().filter(|(_, at)| **at > k) {
                    assert!(pos[o].dist(p) > g.past_ring(k), "{p:?} {o} {at}");
                }
                k += 1;
            }
            assert!(ring_of.iter().all(|&k| k != usize::MAX), "{p:?}");
            for within in [2.5, 9.0] {
                let mut listed = [false; 40];
                for k in 0..=k {
                    g.ring(Side::Royalist, p, k, within, |o| listed[o] = true);
                }
                for (o, at) in pos.iter().enumerate() {
                    assert!(listed[o] || at.dist(p) > within, "{p:?} {o} {within}");
                }
                skipped += listed.iter().filter(|l| !**l).count();
            }
            g.ring(Side::Parliament, p, 0, f64::INFINITY, |_| panic!("none"));
            // A box about the point meets every regiment whose cell it touches.
            let (lo, hi) = (p - Vec2::new(7.0, 4.0), p + Vec2::new(9.0, 5.0));
            let ((c0, r0), (c1, r1)) = (g.cell_of(lo), g.cell_of(hi));
            let mut met = [false; 40];
            g.in_box(Side::Royalist, lo, hi, |o| met[o] = true);
            for (o, &at) in pos.iter().enumerate() {
                let (c, r) = g.cell_of(at);
                let inside = (c0..=c1).contains(&c) && (r0..=r1).contains(&r);
                assert_eq!(met[o], inside, "{p:?} {o}");
            }
        }
        assert!(
            skipped > 2000,
            "rings within a distance skipped only {skipped}"
        );
    }
}

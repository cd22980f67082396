//! Each side's regiments by cell of the table, so that queries about one regiment look at the
//! cells near it instead of walking a whole side (both rulesets' battles keep one).
//!
//! The battle keeps it wherever it writes a regiment's position and refills it on reset. The
//! lists are linked through per-regiment arrays allocated once per battle worker, so moving a
//! regiment allocates nothing. The order within a cell is arbitrary: every query using the grid
//! breaks ties by regiment or element index, as the walks in index order did.

use crate::army::Side;
use crate::battlefield::Vec2;

/// Inches on a cell's side: about a regiment's frontage, so a cell holds a regiment or two.
const CELL: f64 = 6.0;

/// Regiments (on a side, or in the list searched) from which a search asks the grid's cells
/// instead of walking them all in index order: below it (Marston Moor's 36 a side) the walk is
/// cheaper, above it the cells (measured with the scaling bench, docs/PERFORMANCE.md).
pub const GRID_FROM: usize = 64;

/// No regiment (the end of a cell's list).
const NONE: u16 = u16::MAX;

#[derive(Debug, Clone, Default)]
pub struct Grid {
    cols: usize,
    rows: usize,
    /// The first regiment of each side's list in each cell: `side * cols * rows + cell`.
    head: Vec<u16>,
    /// Each regiment's neighbours in its cell's list.
    next: Vec<u16>,
    prev: Vec<u16>,
    /// Each regiment's slot in `head`.
    slot: Vec<u32>,
}

impl Grid {
    /// A grid over a table of `width` by `depth` inches for `regiments` regiments.
    pub fn new((width, depth): (f64, f64), regiments: usize) -> Grid {
        let cells = |len: f64| ((len / CELL).ceil() as usize).clamp(1, 4096);
        let (cols, rows) = (cells(width), cells(depth));
        Grid {
            cols,
            rows,
            head: vec![NONE; 2 * cols * rows],
            next: vec![NONE; regiments],
            prev: vec![NONE; regiments],
            slot: vec![0; regiments],
        }
    }

    /// Every regiment where it stands (`at` gives each one's side and centre).
    pub fn fill(&mut self, n: usize, at: impl Fn(usize) -> (Side, Vec2)) {
        self.head.fill(NONE);
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
    /// in column `c` and one in column `c + k` (k >= 1) are more than `(k - 1) * CELL` apart in
    /// x, off the table too; rows likewise.
    #[inline]
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        // `as` truncates towards zero and takes negatives (and NaN) to 0: the floor for a
        // point on the table, the edge cell off it.
        let at = |v: f64, n: usize| ((v / CELL) as usize).min(n - 1);
        (at(p.x, self.cols), at(p.y, self.rows))
    }

    #[inline]
    fn slot_of(&self, side: Side, p: Vec2) -> u32 {
        let (c, r) = self.cell_of(p);
        (side.index() * self.cols * self.rows + r * self.cols + c) as u32
    }

    fn insert(&mut self, r: usize, slot: u32) {
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
        self.members(side, Span::Box(c0, c1), r0, r1)
    }

    /// Calls `f` with every regiment of `side` in the cells `k` columns or rows out from `p`'s
    /// cell and no nearer (its own cell for 0); false when that ring lies wholly off the grid,
    /// as every further one does.
    #[inline]
    pub fn ring(&self, side: Side, p: Vec2, k: usize, f: impl FnMut(usize)) -> bool {
        self.ring_members(side, p, k)
            .map(|ring| ring.for_each(f))
            .is_some()
    }

    /// The regiments of `side` in ring `k` about `p` (`ring`), row by row; None when that ring
    /// lies wholly off the grid.
    #[inline]
    pub fn ring_members(&self, side: Side, p: Vec2, k: usize) -> Option<Members<'_>> {
        let (c, r) = self.cell_of(p);
        if k > c.max(r).max(self.cols - 1 - c).max(self.rows - 1 - r) {
            return None;
        }
        let span = Span::Ring { c, r, k };
        Some(self.members(side, span, r.saturating_sub(k), (r + k).min(self.rows - 1)))
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
    pub fn past_ring(k: usize) -> f64 {
        k as f64 * CELL
    }
}

/// Which columns of each row a search takes: a box's, or a ring's about cell `(c, r)`.
#[derive(Debug, Clone, Copy)]
enum Span {
    Box(usize, usize),
    Ring { c: usize, r: usize, k: usize },
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
            Span::Ring { c, r, k } if row.abs_diff(r) == k => {
                (c.saturating_sub(k), (c + k).min(self.cols - 1), 1)
            }
            Span::Ring { c, k, .. } => {
                match (c.checked_sub(k), (c + k < self.cols).then_some(c + k)) {
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
        let mut g = Grid::new((72.0, 48.0), 40);
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
    /// `past_ring(k)` from the point.
    #[test]
    fn the_rings_visit_each_regiment_once_nearest_cells_first() {
        let mut g = Grid::new((72.0, 48.0), 40);
        let pos: Vec<Vec2> = (0..40usize)
            .map(|r| Vec2::new((r * 37 % 90) as f64 - 9.0, (r * 23 % 62) as f64 - 7.0))
            .collect();
        g.fill(40, |r| (Side::Royalist, pos[r]));
        for p in (0..200usize)
            .map(|i| Vec2::new((i * 29 % 95) as f64 - 11.5, (i * 17 % 66) as f64 - 9.5))
        {
            let mut ring_of = vec![usize::MAX; 40];
            let mut k = 0;
            while g.ring(Side::Royalist, p, k, |o| {
                assert_eq!(ring_of[o], usize::MAX, "{p:?} {o}");
                ring_of[o] = k;
            }) {
                for (o, &at) in ring_of.iter().enumerate().filter(|(_, at)| **at > k) {
                    assert!(pos[o].dist(p) > Grid::past_ring(k), "{p:?} {o} {at}");
                }
                k += 1;
            }
            assert!(ring_of.iter().all(|&k| k != usize::MAX), "{p:?}");
            g.ring(Side::Parliament, p, 0, |_| panic!("no Parliament regiment"));
        }
    }
}

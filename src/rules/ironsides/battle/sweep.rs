//! A side's active units sorted by the x of their centres: a question about the units near one
//! place looks only at those in a window of x about it, not at every unit of the side. A phase
//! builds it once and asks it for each of its units while nothing moves (statuses may change:
//! callers check that a unit is still active).

use super::Battle;
use super::cache::{Spot, circles_within};
use crate::army::Side;
use crate::battlefield::geometry::Shape;

/// The spots of one side's units, by the x of their centres.
#[derive(Debug, Clone, Default)]
pub(crate) struct XIndex {
    spots: Vec<Spot>,
    /// The largest enclosing radius among the active ones.
    max_radius: f64,
    /// Whether the spots are in order of x (not when a centre is NaN): else every one is looked at.
    sorted: bool,
    /// Each side's units (places in its table of spots) in the order of x last found: units
    /// move little between phases, so sorting from there takes few steps.
    order: [Vec<usize>; 2],
}

impl XIndex {
    /// Fills the index with the units of `side` as they stand now.
    pub(crate) fn build(&mut self, b: &Battle, side: Side) {
        let order = &mut self.order[side.index()];
        let spots = &mut self.spots;
        spots.clear();
        let mut r = 0.0f64;
        b.with_spots(side, |all| {
            if order.len() != all.len() {
                order.clear();
                order.extend(0..all.len());
            }
            spots.extend(order.iter().map(|&k| all[k]));
            for s in all.iter().filter(|s| s.active) {
                r = r.max(s.radius);
            }
        });
        self.max_radius = r;
        self.sorted = !spots.iter().any(|s| s.centre.x.is_nan());
        if self.sorted {
            // Insertion sort: nearly in order already. The places go along with the spots.
            for i in 1..spots.len() {
                let (s, k) = (spots[i], order[i]);
                let mut j = i;
                while j > 0 && spots[j - 1].centre.x > s.centre.x {
                    spots[j] = spots[j - 1];
                    order[j] = order[j - 1];
                    j -= 1;
                }
                spots[j] = s;
                order[j] = k;
            }
        }
    }

    /// Calls `f` with every active unit whose enclosing circle comes within `limit` of `me`'s
    /// (those `circles_within` passes), in order of x, until `f` returns true; returns whether
    /// it did.
    #[inline]
    pub(crate) fn any_near(
        &self,
        me: &Shape,
        limit: f64,
        mut f: impl FnMut(&Spot) -> bool,
    ) -> bool {
        // No circle within the limit has its centre farther in x than this (a margin far above
        // rounding: the window may only hold more than `circles_within` passes, never fewer).
        let w = (limit + me.radius + self.max_radius) * (1.0 + 1e-9) + 1e-9;
        let (lo, hi) = (me.centre.x - w, me.centre.x + w);
        let window = self.sorted && lo.is_finite() && hi.is_finite();
        let from = if window {
            self.spots.partition_point(|s| s.centre.x < lo)
        } else {
            0
        };
        for s in &self.spots[from..] {
            if window && s.centre.x > hi {
                break;
            }
            if s.active && circles_within(me, s, limit) && f(s) {
                return true;
            }
        }
        false
    }
}

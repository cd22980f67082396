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
    /// Where each of `spots` is in the side's table.
    places: Vec<usize>,
    /// The largest enclosing radius among the active ones.
    max_radius: f64,
    /// Whether the spots are in order of x (not when a centre is NaN): else every one is looked at.
    sorted: bool,
}

impl XIndex {
    /// Fills the index with the units of `side` as they stand now. The order of x found last
    /// time is the start: units move little between phases, so sorting takes few steps.
    pub(crate) fn build(&mut self, b: &Battle, side: Side) {
        let (spots, places) = (&mut self.spots, &mut self.places);
        let (mut r, mut nan) = (0.0f64, false);
        b.with_spots(side, |all| {
            if places.len() != all.len() {
                places.clear();
                places.extend(0..all.len());
                spots.clear();
                spots.extend_from_slice(all);
            }
            for (s, &k) in spots.iter_mut().zip(places.iter()) {
                *s = all[k];
                if s.active {
                    r = r.max(s.radius);
                }
                nan |= s.centre.x.is_nan();
            }
        });
        self.max_radius = r;
        self.sorted = !nan;
        if self.sorted {
            // Insertion sort: nearly in order already. The places go along with the spots.
            for i in 1..spots.len() {
                if spots[i - 1].centre.x <= spots[i].centre.x {
                    continue;
                }
                let (s, k) = (spots[i], places[i]);
                let mut j = i;
                while j > 0 && spots[j - 1].centre.x > s.centre.x {
                    spots[j] = spots[j - 1];
                    places[j] = places[j - 1];
                    j -= 1;
                }
                spots[j] = s;
                places[j] = k;
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

//! Points, directions and distances in inches. A unit is an oriented rectangle; a general a point.

use std::ops::{Add, Mul, Sub};

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }
    /// The unit vector of a facing (0 = +y, angles anticlockwise... measured from +y towards +x).
    pub fn from_facing(f: f64) -> Vec2 {
        Vec2::new(f.sin(), f.cos())
    }
    /// The facing that points along this vector.
    pub fn facing(self) -> f64 {
        self.x.atan2(self.y)
    }
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn len(self) -> f64 {
        self.len2().sqrt()
    }
    /// The squared length (no square root).
    pub fn len2(self) -> f64 {
        self.dot(self)
    }
    pub fn dist(self, o: Vec2) -> f64 {
        (self - o).len()
    }
    pub fn norm(self) -> Vec2 {
        let l = self.len();
        if l > 0.0 {
            self * (1.0 / l)
        } else {
            Vec2::new(0.0, 1.0)
        }
    }
    /// Perpendicular to the right of this direction.
    pub fn right(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

/// The smallest signed difference between two angles, in (-pi, pi].
pub fn angle_diff(a: f64, b: f64) -> f64 {
    // The remainder of a difference already under a turn is the difference itself, to the
    // bit (`%` is exact): the call it needs is spared.
    let x = a - b;
    let mut d = if x.abs() < std::f64::consts::TAU {
        x
    } else {
        x % std::f64::consts::TAU
    };
    if d > std::f64::consts::PI {
        d -= std::f64::consts::TAU;
    } else if d <= -std::f64::consts::PI {
        d += std::f64::consts::TAU;
    }
    d
}

/// An oriented rectangle: centre, facing, frontage (width) and depth.
#[derive(Debug, Clone, Copy)]
pub struct Rect {
    pub centre: Vec2,
    pub facing: f64,
    pub frontage: f64,
    pub depth: f64,
}

impl Rect {
    /// The rectangle with its axes worked out once (one `sin_cos`): what the distance queries
    /// use. Every distance below is computed through it, so the answers are the same to the bit.
    #[inline]
    pub fn shape(&self) -> Shape {
        Shape::new(
            self.centre,
            Vec2::from_facing(self.facing),
            self.frontage,
            self.depth,
        )
    }
    pub fn corners(&self) -> [Vec2; 4] {
        self.shape().corners()
    }
    /// The point in the middle of the front edge.
    pub fn front_centre(&self) -> Vec2 {
        self.centre + Vec2::from_facing(self.facing) * (self.depth / 2.0)
    }
    /// Distance from a point to this rectangle (0 inside).
    pub fn dist_to_point(&self, p: Vec2) -> f64 {
        self.shape().dist_to_point(p)
    }
    /// Nearest-edge distance between two rectangles (0 when they touch or overlap).
    pub fn dist(&self, o: &Rect) -> f64 {
        self.shape().dist(&o.shape())
    }
    /// Whether the segment `a`-`b` passes through (or touches) this rectangle
    /// (`Shape::crosses`).
    pub fn crosses(&self, a: Vec2, b: Vec2) -> bool {
        self.shape().crosses(a, b)
    }
}

/// An oriented rectangle with its unit facing vector precomputed, and the radius of the circle
/// about its centre that holds it (for cheap lower bounds on distances).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub centre: Vec2,
    /// Unit vector of the facing (`Vec2::from_facing(facing)`).
    pub fwd: Vec2,
    pub half_depth: f64,
    pub half_frontage: f64,
    /// Half the diagonal: no point of the rectangle is farther than this from the centre.
    pub radius: f64,
}

impl Shape {
    #[inline]
    pub fn new(centre: Vec2, fwd: Vec2, frontage: f64, depth: f64) -> Shape {
        Shape::sized(
            centre,
            fwd,
            frontage,
            depth,
            Shape::radius_of(frontage, depth),
        )
    }

    /// `new`, its `radius` (`radius_of(frontage, depth)`) already known.
    #[inline]
    pub fn sized(centre: Vec2, fwd: Vec2, frontage: f64, depth: f64, radius: f64) -> Shape {
        Shape {
            centre,
            fwd,
            half_depth: depth / 2.0,
            half_frontage: frontage / 2.0,
            radius,
        }
    }

    /// The radius of the circle about the centre that holds a rectangle of these sides.
    #[inline]
    pub fn radius_of(frontage: f64, depth: f64) -> f64 {
        // A hair more than the half diagonal, so that rounding can never make the bound unsafe.
        (frontage * frontage + depth * depth).sqrt() * 0.5 * (1.0 + 1e-12) + 1e-12
    }

    /// The same rectangle moved to `centre`.
    #[inline]
    pub fn at(self, centre: Vec2) -> Shape {
        Shape { centre, ..self }
    }

    /// Whether the segment `a`-`b` passes through (or touches) this rectangle: clipped against
    /// the rectangle's own axes (Liang-Barsky).
    pub fn crosses(&self, a: Vec2, b: Vec2) -> bool {
        let (right, fwd) = (self.fwd.right(), self.fwd);
        let (pa, d) = (a - self.centre, b - a);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (axis, half) in [(right, self.half_frontage), (fwd, self.half_depth)] {
            let (p, q) = (pa.dot(axis), d.dot(axis));
            for (num, den) in [(-half - p, q), (p - half, -q)] {
                // The part of the segment on the inner side of this edge: p + t q >= -half and
                // p + t q <= half, written as den * t >= num in each case.
                if den == 0.0 {
                    if num > 0.0 {
                        return false;
                    }
                } else if den > 0.0 {
                    t0 = t0.max(num / den);
                } else {
                    t1 = t1.min(num / den);
                }
            }
        }
        t0 <= t1
    }

    #[inline]
    pub fn corners(&self) -> [Vec2; 4] {
        let f = self.fwd * self.half_depth;
        let r = self.fwd.right() * self.half_frontage;
        let c = self.centre;
        [c + f - r, c + f + r, c - f + r, c - f - r]
    }

    /// Squared distance from a point to this rectangle (0 inside).
    #[inline]
    fn dist2_to_point(&self, p: Vec2) -> f64 {
        let d = p - self.centre;
        let along = d.dot(self.fwd).abs() - self.half_depth;
        let across = d.dot(self.fwd.right()).abs() - self.half_frontage;
        let ax = positive(along);
        let cx = positive(across);
        ax * ax + cx * cx
    }

    /// Distance from a point to this rectangle (0 inside).
    #[inline]
    pub fn dist_to_point(&self, p: Vec2) -> f64 {
        self.dist2_to_point(p).sqrt()
    }

    /// Nearest-edge distance between two rectangles (0 when they touch or overlap): the least
    /// distance from a corner of one to the other, which is exact for rectangles apart.
    #[inline]
    pub fn dist(&self, o: &Shape) -> f64 {
        self.dist_from(self.corners_dist2(o), o.corners_dist2(self), o)
    }

    /// `dist(o)`, unless its corners or `o`'s already show it is within `limit` (None): then
    /// half of it may be left unmeasured. The least squared distance from a corner of one to
    /// the other bounds the distance from above (and `dist` is that distance or 0); kept a
    /// margin far above rounding below `limit` squared, its square root is below `limit`, and
    /// so is `dist`, whose square root is of a number no larger, correctly rounded.
    #[inline]
    pub fn dist_unless_within(&self, o: &Shape, limit: f64) -> Option<f64> {
        let surely = limit * limit * (1.0 - 1e-12);
        let mine = self.corners_dist2(o);
        if mine < surely {
            return None;
        }
        let theirs = o.corners_dist2(self);
        if theirs < surely {
            return None;
        }
        Some(self.dist_from(mine, theirs, o))
    }

    /// `dist(o)` from the least squared distances from a corner of each to the other.
    #[inline]
    fn dist_from(&self, mine: f64, theirs: f64, o: &Shape) -> f64 {
        // The square root is monotonic and correctly rounded, so one at the end gives the same
        // answer as the least of eight.
        let best = least(mine, theirs);
        // Edges can cross with no corner of either inside the other, nor either centre (a
        // plus or a T off the middle): then no side of either parts their shadows. Only
        // rectangles whose enclosing circles meet can overlap at all.
        if best > 0.0 && self.circles_meet(o) && self.gap_lower_bound(o) < 0.0 {
            return 0.0;
        }
        best.sqrt()
    }

    /// Whether every point within `radius` of `c` lies farther than `gap` from this rectangle
    /// by one of its own axes alone (the disc past one of its sides and the gap): a bound with
    /// no square root, kept a margin far above rounding, so false when unsure.
    #[inline]
    pub fn beyond(&self, c: Vec2, radius: f64, gap: f64) -> bool {
        let d = c - self.centre;
        let clear = radius + gap + 1e-9;
        d.dot(self.fwd).abs() > self.half_depth + clear
            || d.dot(self.fwd.right()).abs() > self.half_frontage + clear
    }

    /// Whether the enclosing circles meet (if not, the rectangles are apart).
    #[inline]
    fn circles_meet(&self, o: &Shape) -> bool {
        let d = o.centre - self.centre;
        let r = self.radius + o.radius;
        d.dot(d) <= r * r
    }

    /// The least squared distance from a corner of this rectangle to `o`: the same operations
    /// as `o.dist2_to_point` on each of `corners()`, laid out four abreast so that they can run
    /// side by side.
    #[inline]
    fn corners_dist2(&self, o: &Shape) -> f64 {
        let f = self.fwd * self.half_depth;
        let r = self.fwd.right() * self.half_frontage;
        let (front, back) = (self.centre + f, self.centre - f);
        let xs = [front.x - r.x, front.x + r.x, back.x + r.x, back.x - r.x];
        let ys = [front.y - r.y, front.y + r.y, back.y + r.y, back.y - r.y];
        let (fx, fy) = (o.fwd.x, o.fwd.y);
        let (rx, ry) = (fy, -fx);
        let mut d2 = [0.0f64; 4];
        for i in 0..4 {
            let (dx, dy) = (xs[i] - o.centre.x, ys[i] - o.centre.y);
            let along = (dx * fx + dy * fy).abs() - o.half_depth;
            let across = (dx * rx + dy * ry).abs() - o.half_frontage;
            let (ax, cx) = (positive(along), positive(across));
            d2[i] = ax * ax + cx * cx;
        }
        least(least(d2[0], d2[1]), least(d2[2], d2[3]))
    }

    /// A lower bound on `dist(o)` from the four axes of the two rectangles: the widest gap
    /// between their shadows on any one of them (the distance itself when they face each other
    /// squarely). Rounding may put it a hair above the truth: compare with a margin.
    #[inline]
    pub fn gap_lower_bound(&self, o: &Shape) -> f64 {
        let d = o.centre - self.centre;
        let (f1, r1) = (self.fwd, self.fwd.right());
        let (f2, r2) = (o.fwd, o.fwd.right());
        let (ff, fr) = (f1.dot(f2).abs(), f1.dot(r2).abs());
        let (rf, rr) = (r1.dot(f2).abs(), r1.dot(r2).abs());
        let s1 = d.dot(f1).abs() - self.half_depth - (o.half_depth * ff + o.half_frontage * fr);
        let s2 = d.dot(r1).abs() - self.half_frontage - (o.half_depth * rf + o.half_frontage * rr);
        let s3 = d.dot(f2).abs() - o.half_depth - (self.half_depth * ff + self.half_frontage * rf);
        let s4 =
            d.dot(r2).abs() - o.half_frontage - (self.half_depth * fr + self.half_frontage * rr);
        s1.max(s2).max(s3.max(s4))
    }

    /// Half the shadow this footprint casts on the line along unit vector `n`.
    pub fn shadow(&self, n: Vec2) -> f64 {
        self.half_depth * self.fwd.dot(n).abs() + self.half_frontage * self.fwd.right().dot(n).abs()
    }

    /// As `gap_lower_bound`, for the way this footprint sweeps going by `v` (its facing kept)
    /// against `o`: the widest gap between their shadows on the axes that can part them, the
    /// sides of each and across the way. Below 0 they overlap (exact for these convex shapes);
    /// at or above 0 it is a lower bound on the distance between them.
    pub fn swept_gap(&self, v: Vec2, o: &Shape) -> f64 {
        let across = if v.len() > 0.0 {
            v.norm().right()
        } else {
            self.fwd
        };
        [self.fwd, self.fwd.right(), o.fwd, o.fwd.right(), across]
            .into_iter()
            .map(|n| {
                let (c, h, m) = (self.centre.dot(n), self.shadow(n), v.dot(n));
                let (lo, hi) = (c - h + m.min(0.0), c + h + m.max(0.0));
                let (d, k) = (o.centre.dot(n), o.shadow(n));
                (d - k - hi).max(lo - d - k)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Bounds on where this footprint, moved `d` along the unit vector `dir` (its facing
    /// kept) for `d` between the ends of `run`, first comes within `within` of `o`: `(a, b)`
    /// such that for every such `d` below `a` `dist` is above `within`, and for every one
    /// above `b` it is 0, both by a margin far above rounding. None where that is not sure: a
    /// run nearly parallel to a side, or one that does not meet `o` to its end.
    ///
    /// The footprint moved by `d` meets `o` just where its centre lies in all four bands of
    /// the shadows' sums on the sides' axes (their Minkowski sum is that polygon), and is
    /// within `within` of it only inside those bands widened by `within`.
    pub fn touch_bounds(
        &self,
        dir: Vec2,
        o: &Shape,
        within: f64,
        run: (f64, f64),
    ) -> Option<(f64, f64)> {
        // Far above rounding on a table of hundreds of inches; a run more nearly parallel to
        // a side than `ASLANT` must keep within that side's band all along.
        const SURE: f64 = 1e-6;
        const ASLANT: f64 = 1e-3;
        let rel = self.centre - o.centre;
        let (mut meet, mut part, mut near) = (f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for u in [self.fwd, self.fwd.right(), o.fwd, o.fwd.right()] {
            let (c, v) = (rel.dot(u), dir.dot(u));
            let half = self.shadow(u) + o.shadow(u);
            if v.abs() < ASLANT {
                let most = (c + v * run.0).abs().max((c + v * run.1).abs());
                if most < half - SURE {
                    continue;
                }
                return None;
            }
            let (a, b) = ((-half - c) / v, (half - c) / v);
            meet = meet.max(a.min(b));
            part = part.min(a.max(b));
            let grown = half + within;
            near = near.max(((-grown - c) / v).min((grown - c) / v));
        }
        // (The run's ends in either order: halvings probe between them.)
        (run.0.max(run.1) + SURE < part && near.is_finite() && meet.is_finite())
            .then_some((near - SURE, meet + SURE))
    }

    /// Where this footprint, moved `d` along the unit vector `dir` (its facing kept), overlaps
    /// `o` by more than `margin`: the open interval of `d`, None when it never does. Two
    /// rectangles overlap just where no side of either parts their shadows, so the moved centre
    /// must lie inside all four bands of the shadows' sums on the sides' axes (as in
    /// `touch_bounds`), each narrowed by `margin`; each band holds a run of `d`, and the
    /// interval is where the runs meet.
    pub fn overlap_along(&self, dir: Vec2, o: &Shape, margin: f64) -> Option<(f64, f64)> {
        let rel = self.centre - o.centre;
        let (mut enter, mut leave) = (f64::NEG_INFINITY, f64::INFINITY);
        for u in [self.fwd, self.fwd.right(), o.fwd, o.fwd.right()] {
            let (c, v) = (rel.dot(u), dir.dot(u));
            let half = self.shadow(u) + o.shadow(u) - margin;
            if half <= 0.0 || (v == 0.0 && c.abs() >= half) {
                return None;
            }
            if v != 0.0 {
                let (a, b) = ((-half - c) / v, (half - c) / v);
                enter = enter.max(a.min(b));
                leave = leave.min(a.max(b));
            }
        }
        (enter < leave).then_some((enter, leave))
    }

    /// Whether `dist(o)` may be less than `limit` (false only when it surely is not).
    #[inline]
    pub fn may_be_closer(&self, o: &Shape, limit: f64) -> bool {
        self.gap_lower_bound(o) < limit + 1e-9
    }

    /// A lower bound on `dist(o)` from the enclosing circles alone (never more than the truth).
    #[inline]
    pub fn dist_lower_bound(&self, o: &Shape) -> f64 {
        self.centre.dist(o.centre) - self.radius - o.radius
    }

    /// Whether `dist(o) <= limit`, trying the circles first.
    #[inline]
    pub fn within(&self, o: &Shape, limit: f64) -> bool {
        let reach = limit + self.radius + o.radius;
        let d = o.centre - self.centre;
        if reach < 0.0 || d.dot(d) > reach * reach {
            return false;
        }
        self.dist_unless_within(o, limit).is_none_or(|d| d <= limit)
    }
}

/// Where footprint `me`, moved along the unit vector `dir`, first comes within `within` of
/// `o`: 30 halvings of `lo..hi` (`hi` within, and every run between where it first comes
/// within and `hi` within too), each asking whether the footprint moved by the middle is
/// within (`dist`). A middle whose answer `touch_bounds` settles is not measured: the
/// halvings, and so the answer, are the same to the bit.
pub fn halve_to_touch(me: &Shape, dir: Vec2, o: &Shape, run: (f64, f64), within: f64) -> f64 {
    let (mut lo, mut hi) = run;
    let touches = |d: f64| me.at(me.centre + dir * d).dist(o) <= within;
    let sure = me.touch_bounds(dir, o, within, run);
    for _ in 0..30 {
        let mid = (lo + hi) / 2.0;
        let touching = match sure {
            Some((far, _)) if mid < far => false,
            Some((_, on)) if mid > on => true,
            _ => touches(mid),
        };
        if touching {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// `x.max(0.0)` as one machine instruction (the same value but for the sign of a zero, which
/// squaring loses; a NaN gives 0 as `max` does).
#[inline(always)]
fn positive(x: f64) -> f64 {
    if x > 0.0 { x } else { 0.0 }
}

/// `a.min(b)` as one machine instruction, for numbers that are not NaN.
#[inline(always)]
fn least(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// Distance from point `p` to the segment a-b.
#[inline]
pub fn dist_point_segment(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let ab = b - a;
    let l2 = ab.dot(ab);
    let t = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.dist(a + ab * t)
}

/// A march in even steps: `me` moved along the unit vector `dir` to the points
/// `min(step * k, end)` for k = `first` ..= `last`.
#[derive(Debug, Clone, Copy)]
pub struct March<'a> {
    pub me: &'a Shape,
    pub dir: Vec2,
    pub step: f64,
    pub first: u64,
    pub last: u64,
    pub end: f64,
}

impl March<'_> {
    /// The first k at which the march is within `limit` of `other` (nearest-edge distance
    /// `<= limit`), exactly as measuring at every point would, but measuring few: the distance
    /// changes no faster than the move, so a point nearer than the distance still to close
    /// cannot be within the limit and is skipped. `start_lb` is what is known of the distance
    /// where `me` stands (a lower bound; 0 if nothing).
    #[inline]
    pub fn first_within(&self, other: &Shape, limit: f64, start_lb: f64) -> Option<u64> {
        march_first_within(self, other, limit, start_lb)
    }
}

fn march_first_within(m: &March<'_>, other: &Shape, limit: f64, start_lb: f64) -> Option<u64> {
    let March {
        me,
        dir,
        step,
        first,
        last,
        end,
    } = *m;
    if first > last {
        return None;
    }
    let at = |k: u64| (step * steps(k)).min(end);
    // Nowhere on the path do the enclosing circles come within the limit: no need to march.
    let (p0, p1) = (me.centre + dir * at(first), me.centre + dir * at(last));
    if dist_point_segment(other.centre, p0, p1) - me.radius - other.radius > limit + 1e-9 {
        return None;
    }
    let mut k = first;
    // Points nearer the start than the distance to close there are out of the limit.
    let gap = (start_lb - limit) * (1.0 - 1e-9) - 1e-9;
    if gap > 0.0 {
        if at(last) < gap {
            return None;
        }
        let jump = floor_pos(gap / step);
        if jump.is_finite() && jump > steps(k) {
            k = (jump as u64).min(last);
        }
    }
    loop {
        let s = at(k);
        let here = me.at(me.centre + dir * s);
        // The gap between the shadows is a lower bound: when it is past the limit (with a
        // margin for rounding) it also tells how far is surely clear; else measure.
        let lb = here.gap_lower_bound(other) - 1e-9;
        let d = if lb > limit {
            lb
        } else {
            match here.dist_unless_within(other, limit) {
                Some(d) => d,
                None => return Some(k),
            }
        };
        if d <= limit {
            return Some(k);
        }
        // Points closer than `gap` to this one are farther than the limit (with a margin for
        // rounding, so a point is never skipped that measuring might have found).
        let gap = (d - limit) * (1.0 - 1e-9) - 1e-9;
        if k >= last || at(last) - s < gap {
            return None;
        }
        let jump = floor_pos((s + gap) / step);
        let j = if jump.is_finite() && jump >= 0.0 {
            (jump as u64).max(k + 1)
        } else {
            k + 1
        };
        k = j.min(last);
        // `floor` may land one short of the first point past the gap: harmless, it is measured.
    }
}

/// Where a march along `dir` first comes within `limit` of `other`, found between `outside`
/// (a point of the march known to be farther than the limit) and `inside` (one known to be
/// within it): the returned distance along the march is within the limit, and less than
/// 1/1000" past the exact point. A unit told to halt "on reaching" a range limit halts there,
/// inside the band, not a march step short of it.
pub fn reach_limit(
    me: &Shape,
    dir: Vec2,
    other: &Shape,
    limit: f64,
    outside: f64,
    inside: f64,
) -> f64 {
    let dist = |s: f64| me.at(me.centre + dir * s).dist(other);
    let (mut lo, mut hi) = (outside, inside);
    // What is known of the distance at `lo` (at least) and at `hi` (at most): it changes no
    // faster than the move, so a midpoint whose bound settles which side of the limit it is on
    // (with a margin far above rounding) need not be measured. The same halvings, the same end.
    let mut d_lo = f64::NEG_INFINITY;
    let mut d_hi = dist(hi);
    if d_hi.is_nan() || d_hi > limit {
        return lo; // rounding at the edge: the known point outside is the safe answer
    }
    while hi - lo > 1e-3 {
        let mid = 0.5 * (lo + hi);
        let (above, below) = (d_lo - (mid - lo), d_hi + (hi - mid));
        let (within, d) = if below < limit - 1e-9 {
            (true, below)
        } else if above > limit + 1e-9 {
            (false, above)
        } else {
            let d = dist(mid);
            (d <= limit, d)
        };
        if within {
            (hi, d_hi) = (mid, d);
        } else {
            (lo, d_lo) = (mid, d);
        }
    }
    hi
}

/// `x.floor()` for `0 <= x < 2^64`, without a call to the library (truncation is the floor
/// there; below 2^63 by the one-instruction conversion through i64). The march does the same
/// with either answer for every other `x` it can meet: a negative or NaN jump (0 or negative
/// here) moves it one step on, and no jump is infinite or that large (it stays within `last`
/// steps).
#[inline(always)]
fn floor_pos(x: f64) -> f64 {
    if x < TWO_63 {
        x as i64 as f64
    } else {
        x as u64 as f64
    }
}

/// 2^63.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// `k as f64`, through i64 (one instruction) where it fits, as it always does in a march.
#[inline(always)]
fn steps(k: u64) -> f64 {
    if k < 1 << 63 {
        k as i64 as f64
    } else {
        k as f64
    }
}

/// `x.ceil() as u64` without a call to the library: the same for every `x` (saturating, NaN
/// and negatives giving 0).
#[inline(always)]
pub fn ceil_u64(x: f64) -> u64 {
    let t = x as u64;
    if (t as f64) < x {
        t.saturating_add(1)
    } else {
        t
    }
}

/// An angle either side of a facing, with its cosine: arc tests without trigonometry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfAngle {
    pub radians: f64,
    pub cos: f64,
}

impl HalfAngle {
    pub fn new(radians: f64) -> HalfAngle {
        HalfAngle {
            radians,
            cos: radians.cos(),
        }
    }
}

/// Whether the direction `d` lies within `arc` of a facing (`fwd` its unit vector): the same
/// answer as `angle_diff(d.facing(), facing).abs() <= arc.radians`, to the bit. A dot product
/// decides, unless the direction is within rounding of the arc's edge (as on a grid, where
/// diagonals fall exactly on 45 degrees): then the angle is measured as that expression does.
#[inline]
pub fn within_arc(fwd: Vec2, facing: f64, d: Vec2, arc: HalfAngle) -> bool {
    if arc.radians >= std::f64::consts::PI {
        return true;
    }
    if arc.radians < 0.0 {
        return false;
    }
    let len = d.len();
    if len > 0.0 {
        let margin = fwd.dot(d) - arc.cos * len;
        if margin > 1e-9 * len {
            return true;
        }
        if margin < -1e-9 * len {
            return false;
        }
    }
    angle_diff(d.facing(), facing).abs() <= arc.radians
}

/// True when segment a-b crosses segment c-d.
pub fn segment_intersects_segment(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    segment_crossing(a, b, c, d).is_some()
}

/// Where segment a-b crosses segment c-d, as a share of the way from `a` to `b` (0 at `a`, 1
/// at `b`); None when they do not cross (or run parallel).
pub fn segment_crossing(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> Option<f64> {
    let r = b - a;
    let s = d - c;
    let denom = r.cross(s);
    if denom.abs() < 1e-12 {
        return None;
    }
    let t = (c - a).cross(s) / denom;
    let u = (c - a).cross(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// Whether a segment runs square to the axes (or is a point).
#[inline]
pub fn square(a: Vec2, b: Vec2) -> bool {
    a.x == b.x || a.y == b.y
}

/// A box with sides square to the axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub lo: Vec2,
    pub hi: Vec2,
}

impl Bounds {
    /// The box of a segment.
    #[inline]
    pub fn of_segment(a: Vec2, b: Vec2) -> Bounds {
        Bounds {
            lo: Vec2::new(least(a.x, b.x), least(a.y, b.y)),
            hi: Vec2::new(most(a.x, b.x), most(a.y, b.y)),
        }
    }

    /// The box of a polygon's points, and whether every edge (the last back to the first) is
    /// `square` (None if it has no points).
    #[inline]
    pub fn of_polygon(points: &[Vec2]) -> Option<(Bounds, bool)> {
        let &last = points.last()?;
        let mut b = Bounds { lo: last, hi: last };
        let (mut prev, mut all_square) = (last, true);
        for &p in points {
            b.lo = Vec2::new(least(b.lo.x, p.x), least(b.lo.y, p.y));
            b.hi = Vec2::new(most(b.hi.x, p.x), most(b.hi.y, p.y));
            all_square &= square(prev, p);
            prev = p;
        }
        Some((b, all_square))
    }

    /// Whether the boxes lie apart by more than a margin far above rounding (1e-6"). Then a
    /// segment in one does not cross a segment in the other, and `segment_intersects_segment`
    /// (or the same test in `walk`) says so when either is square to the axes: its parameter
    /// along that segment is worked out to a few units in the last place (one coordinate
    /// over another), and the other's, when the first lies on its segment, to within 1e-12
    /// or so, far inside the margin. (For two slanting segments nearly in line, rounding might
    /// find a crossing that is not there: those are always computed.) A polygon in one does
    /// not hold a point in the other (`Area::contains`: the crossings of its row are all to one
    /// side, or none).
    #[inline]
    pub fn clear_of(&self, o: &Bounds) -> bool {
        const MARGIN: f64 = 1e-6;
        self.hi.x + MARGIN < o.lo.x
            || o.hi.x + MARGIN < self.lo.x
            || self.hi.y + MARGIN < o.lo.y
            || o.hi.y + MARGIN < self.lo.y
    }
}

/// `a.max(b)` as one machine instruction, for numbers that are not NaN.
#[inline(always)]
fn most(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// Whether `to` lies within the arc about the unit vector `front` (from `from`) whose half-angle
/// has cosine `cos`, told by a dot product: `None` when the point is within rounding of the
/// arc's edge (or on `from`), where only the angle itself can answer as the angle test would.
pub fn within_arc_by_cosine(front: Vec2, from: Vec2, to: Vec2, cos: f64) -> Option<bool> {
    let v = to - from;
    let len = v.len();
    if len <= 0.0 {
        return None;
    }
    let margin = front.dot(v) - cos * len;
    if margin > 1e-9 * len {
        Some(true)
    } else if margin < -1e-9 * len {
        Some(false)
    } else {
        None
    }
}

/// Each pair `(i, j)`, `j < i`, of `shapes` that overlap or touch (`dist` 0), in that order,
/// and whether there are more: swept left to right by the x-extent of their enclosing circles,
/// so an army's check costs about N log N where trying every pair cost N² (a 2,000-unit table:
/// 2 million pairs). The sweep stops at `most` pairs, those it met first: units piled on one
/// spot would otherwise give every pair of them.
pub fn overlapping_pairs(shapes: &[Shape], most: usize) -> (Vec<(usize, usize)>, bool) {
    let left = |i: usize| shapes[i].centre.x - shapes[i].radius;
    let mut order: Vec<usize> = (0..shapes.len()).collect();
    order.sort_by(|&a, &b| left(a).total_cmp(&left(b)));
    let mut pairs = Vec::new();
    let mut more = false;
    'sweep: for (k, &a) in order.iter().enumerate() {
        let right = shapes[a].centre.x + shapes[a].radius;
        for &b in order[k + 1..].iter().take_while(|&&b| left(b) <= right) {
            let (i, j) = (a.max(b), a.min(b));
            if shapes[i].dist(&shapes[j]) == 0.0 {
                if pairs.len() == most {
                    more = true;
                    break 'sweep;
                }
                pairs.push((i, j));
            }
        }
    }
    pairs.sort_unstable();
    (pairs, more)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3" by 1" footprint moved along its facing or aslant overlaps another just over the
    /// run where `gap_lower_bound` (exact for two rectangles) says they overlap: it enters
    /// where they first touch and leaves where they last do; a way that misses has no run.
    #[test]
    fn a_moving_footprint_overlaps_another_over_one_run() {
        let me = Shape::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), 3.0, 1.0);
        let ahead = Shape::new(Vec2::new(2.0, 10.0), Vec2::new(0.0, 1.0), 3.0, 1.0);
        let (enter, leave) = me
            .overlap_along(Vec2::new(0.0, 1.0), &ahead, 0.0)
            .expect("overlaps");
        assert!((enter - 9.0).abs() < 1e-12 && (leave - 11.0).abs() < 1e-12);
        let aslant = Shape::new(Vec2::new(4.0, 7.0), Vec2::from_facing(0.7), 3.0, 1.0);
        for dir in [
            Vec2::new(0.0, 1.0),
            Vec2::new(0.6, 0.8),
            Vec2::new(1.0, 0.0),
        ] {
            let run = me.overlap_along(dir, &aslant, 0.0);
            for k in 0..2000 {
                let d = f64::from(k) * 0.01;
                let moved = me.at(me.centre + dir * d);
                let gap = moved.gap_lower_bound(&aslant);
                let inside = run.is_some_and(|(a, b)| a < d && d < b);
                let sure = gap.abs() > 1e-9;
                assert!(!sure || inside == (gap < 0.0), "{dir:?} {d} {gap} {run:?}");
            }
        }
        let beside = Shape::new(Vec2::new(3.0, 5.0), Vec2::new(0.0, 1.0), 3.0, 1.0);
        assert_eq!(me.overlap_along(Vec2::new(0.0, 1.0), &beside, 1e-9), None);
    }

    /// `angle_diff` is the remainder's answer to the bit, the sign of a zero too: at and about
    /// a whole turn either way, far beyond it, and for what is not a number.
    #[test]
    fn angle_diff_is_the_remainders_to_the_bit() {
        use std::f64::consts::{PI, TAU};
        let by_remainder = |a: f64, b: f64| {
            let mut d = (a - b) % TAU;
            if d > PI {
                d -= TAU;
            } else if d <= -PI {
                d += TAU;
            }
            d
        };
        let mut rnd = crate::dice::test_uniforms(0x0a6e_d1ff);
        let mut pairs = vec![
            (TAU, 0.0),
            (0.0, TAU),
            (-0.0, 0.0),
            (PI, -PI),
            (0.0, f64::NAN),
        ];
        pairs.extend([(f64::INFINITY, 1.0), (1e300, -1e300), (TAU.next_up(), 0.0)]);
        pairs.extend([(0.0, TAU.next_down()), (-TAU, 0.0), (-TAU.next_up(), 0.0)]);
        for _ in 0..100_000 {
            let scale = [1.0, PI, TAU, 20.0, 1e6][(rnd() * 5.0) as usize];
            pairs.push(((rnd() * 2.0 - 1.0) * scale, (rnd() * 2.0 - 1.0) * scale));
        }
        for (a, b) in pairs {
            let (got, want) = (angle_diff(a, b), by_remainder(a, b));
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{a} - {b}: {got} against {want}"
            );
        }
    }

    /// Two footprints crossing off the middle (no corner of either inside the other, nor
    /// either centre) overlap: their distance is 0, either way round, as rectangles too.
    #[test]
    fn footprints_crossing_off_the_middle_touch() {
        let up = Vec2::new(0.0, 1.0);
        // 10 wide and 1 deep about the origin; 1 wide and 10 deep, crossing its right end.
        let bar = Shape::new(Vec2::new(0.0, 0.0), up, 10.0, 1.0);
        let post = Shape::new(Vec2::new(4.0, 3.0), up, 1.0, 10.0);
        assert!(bar.corners().iter().all(|&c| post.dist_to_point(c) > 0.0));
        assert!(post.corners().iter().all(|&c| bar.dist_to_point(c) > 0.0));
        assert!(bar.dist_to_point(post.centre) > 0.0 && post.dist_to_point(bar.centre) > 0.0);
        assert_eq!(bar.dist(&post), 0.0);
        assert_eq!(post.dist(&bar), 0.0);
        let rect = |s: &Shape| Rect {
            centre: s.centre,
            facing: s.fwd.facing(),
            frontage: 2.0 * s.half_frontage,
            depth: 2.0 * s.half_depth,
        };
        assert_eq!(rect(&bar).dist(&rect(&post)), 0.0);
    }

    /// The distance between two rectangles measured from their edges: 0 when an edge of one
    /// crosses an edge of the other or a corner lies inside, else the least distance from a
    /// corner of one to an edge of the other.
    fn dist_by_edges(a: &Shape, b: &Shape) -> f64 {
        let edges = |s: &Shape| {
            let c = s.corners();
            [(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])]
        };
        let inside = |s: &Shape, p: Vec2| {
            let d = p - s.centre;
            d.dot(s.fwd).abs() <= s.half_depth && d.dot(s.fwd.right()).abs() <= s.half_frontage
        };
        let crossing = edges(a).iter().any(|&(p, q)| {
            edges(b)
                .iter()
                .any(|&(r, t)| segment_intersects_segment(p, q, r, t))
        });
        if crossing
            || a.corners().iter().any(|&c| inside(b, c))
            || b.corners().iter().any(|&c| inside(a, c))
        {
            return 0.0;
        }
        let one_way = |x: &Shape, y: &Shape| {
            x.corners()
                .iter()
                .flat_map(|&c| edges(y).map(|(p, q)| dist_point_segment(c, p, q)))
                .fold(f64::INFINITY, f64::min)
        };
        one_way(a, b).min(one_way(b, a))
    }

    /// Over random pairs of footprints, near and far, overlapping, crossing and apart, `dist`
    /// is the distance measured from the edges.
    #[test]
    fn the_distance_is_the_edges_distance() {
        let mut rnd = crate::dice::test_uniforms(0xd157_0f5e);
        let mut crossed = 0;
        for k in 0..50_000 {
            let shape = |rnd: &mut dyn FnMut() -> f64| {
                let facing = if k % 4 == 0 { 0.0 } else { rnd() * 7.0 };
                let (w, d) = (0.3 + rnd() * 12.0, 0.3 + rnd() * 3.0);
                Shape::new(
                    Vec2::new(rnd() * 16.0, rnd() * 16.0),
                    Vec2::from_facing(facing),
                    w,
                    d,
                )
            };
            let (a, b) = (shape(&mut rnd), shape(&mut rnd));
            let want = dist_by_edges(&a, &b);
            let got = a.dist(&b);
            assert!(
                (got - want).abs() < 1e-9,
                "{k}: {got} against {want}: {a:?} {b:?}"
            );
            let no_corner_in = a.corners().iter().all(|&c| b.dist_to_point(c) > 0.0)
                && b.corners().iter().all(|&c| a.dist_to_point(c) > 0.0);
            crossed += usize::from(want == 0.0 && no_corner_in);
        }
        // Crossings with no corner inside, the case a corner's test alone misses, occur.
        assert!(crossed > 100, "{crossed}");
    }

    /// A footprint run at another, facing its way (as a charge is) or not, from near and far,
    /// aimed at the other's centre or a little off it.
    fn a_run(rnd: &mut impl FnMut() -> f64, k: usize) -> (Shape, Vec2, Vec2, Shape, (f64, f64)) {
        let size = |rnd: &mut dyn FnMut() -> f64| (1.0 + rnd() * 11.0, 0.5 + rnd() * 2.5);
        let (w, d) = size(rnd);
        let (tw, td) = size(rnd);
        let target_facing = if k.is_multiple_of(5) {
            0.0
        } else {
            rnd() * 7.0
        };
        let target = Shape::new(
            Vec2::new(rnd() * 60.0, rnd() * 40.0),
            Vec2::from_facing(target_facing),
            tw,
            td,
        );
        // Sometimes square on the target's own axis, so that sides run exactly parallel.
        let from = if k.is_multiple_of(7) {
            target.centre - Vec2::new(2.0 + rnd() * 30.0, 0.0)
        } else {
            Vec2::new(rnd() * 60.0, rnd() * 40.0)
        };
        let off = if k.is_multiple_of(3) {
            0.0
        } else {
            (rnd() - 0.5) * 0.2
        };
        let aim = (target.centre - from).facing() + off;
        let dir = Vec2::from_facing(aim);
        // Facing the run, as a charge does; sometimes square to the target or aslant.
        let facing = match k % 4 {
            0 | 1 => aim,
            2 => target_facing,
            _ => rnd() * 7.0,
        };
        let me = Shape::new(from, Vec2::from_facing(facing), w, d);
        let need = rnd() * 3.0;
        (me, from, dir, target, (need, from.dist(target.centre)))
    }

    /// The halvings with every middle measured: what `halve_to_touch` must answer.
    fn halved_by_measure(me: &Shape, from: Vec2, dir: Vec2, o: &Shape, run: (f64, f64)) -> f64 {
        let (mut lo, mut hi) = run;
        for _ in 0..30 {
            let mid = (lo + hi) / 2.0;
            if me.at(from + dir * mid).dist(o) <= 1e-6 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// Over random runs, `touch_bounds` is never wrong where it is sure, and the halvings
    /// that lean on it find where contact begins to the bit as the halvings that measure.
    #[test]
    fn runs_touch_where_the_measured_halvings_say() {
        let mut rnd = crate::dice::test_uniforms(0x70c4_b0d5);
        let (mut sure, mut settled) = (0, 0);
        for k in 0..100_000 {
            let (me, from, dir, target, run) = a_run(&mut rnd, k);
            let bounds = me.touch_bounds(dir, &target, 1e-6, run);
            if let Some((far, on)) = bounds {
                sure += 1;
                for _ in 0..8 {
                    let d = run.0 + rnd() * (run.1 - run.0);
                    let gap = me.at(from + dir * d).dist(&target);
                    if d < far {
                        settled += 1;
                        assert!(gap > 1e-6, "run {k}: {d} below {far}, gap {gap}");
                    }
                    if d > on {
                        settled += 1;
                        assert_eq!(gap, 0.0, "run {k}: {d} above {on}");
                    }
                }
            }
            let got = halve_to_touch(&me, dir, &target, run, 1e-6);
            let want = halved_by_measure(&me, from, dir, &target, run);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "run {k}: {got} against {want}"
            );
        }
        // Most runs are settled by the bounds, and most sampled runs answered by them.
        assert!(
            sure > 90_000 && settled > 600_000,
            "{sure} sure, {settled} settled"
        );
    }

    #[test]
    fn the_swept_overlaps_are_every_pairs() {
        let mut rnd = crate::dice::test_uniforms(0x5eed_0f0e);
        for round in 0..40 {
            // Crowded tables, some footprints far wider than others, some exactly abutting.
            let shapes: Vec<Shape> = (0..60)
                .map(|k| {
                    let (x, y) = if round % 4 == 0 {
                        ((k % 10) as f64 * 3.0, (k / 10) as f64)
                    } else {
                        (rnd() * 40.0, rnd() * 20.0)
                    };
                    let facing = if round % 4 == 0 { 0.0 } else { rnd() * 7.0 };
                    let (w, d) = (0.5 + rnd() * 2.0 + 8.0 * f64::from(k % 7 == 0), 0.5 + rnd());
                    let (w, d) = if round % 4 == 0 { (3.0, 1.0) } else { (w, d) };
                    Shape::new(Vec2::new(x, y), Vec2::from_facing(facing), w, d)
                })
                .collect();
            let every: Vec<(usize, usize)> = (0..shapes.len())
                .flat_map(|i| (0..i).map(move |j| (i, j)))
                .filter(|&(i, j)| shapes[i].dist(&shapes[j]) == 0.0)
                .collect();
            assert!(
                round % 4 != 0 || every.len() > 50,
                "the lattice touches: {every:?}"
            );
            assert_eq!(
                overlapping_pairs(&shapes, usize::MAX),
                (every.clone(), false)
            );
            // Cut short: a few of the same pairs, and word of the rest.
            let (few, more) = overlapping_pairs(&shapes, 5);
            assert_eq!(more, every.len() > 5, "round {round}");
            assert!(few.len() == every.len().min(5) && few.iter().all(|p| every.contains(p)));
        }
    }

    fn footprint_at(x: f64, y: f64) -> Shape {
        Shape::new(Vec2::new(x, y), Vec2::from_facing(0.0), 3.0, 1.0)
    }

    #[test]
    fn a_sweep_overlaps_what_it_passes_over_and_not_what_it_passes_by() {
        let start = footprint_at(0.0, 0.0);
        let ahead = Vec2::from_facing(0.0);
        let right = ahead.right();
        // A block 5" to the right and 3" on is crossed by a sweep to the right and on, but a
        // sweep straight on passes it by 0.5", and one to the right alone stops short of it.
        let other = footprint_at(5.0 * right.x + 3.0 * ahead.x, 5.0 * right.y + 3.0 * ahead.y);
        assert!(start.swept_gap(right * 5.0 + ahead * 3.0, &other) < 0.0);
        assert!((start.swept_gap(ahead * 6.0, &other) - 2.0).abs() < 1e-9);
        assert!(start.swept_gap(right * 5.0, &other) >= 2.0 - 1e-9);
        // A corner clipped by the diagonal's middle, though neither end overlaps it.
        let corner = footprint_at(3.0 * right.x + 1.2 * ahead.x, 3.0 * right.y + 1.2 * ahead.y);
        let end = start.at(start.centre + right * 6.0 + ahead * 2.4);
        assert!(start.dist(&corner) > 0.0 && end.dist(&corner) > 0.0);
        assert!(start.swept_gap(right * 6.0 + ahead * 2.4, &corner) < 0.0);
    }

    #[test]
    fn ceil_and_floor_without_the_library() {
        for x in [
            0.0,
            -0.0,
            0.3,
            1.0,
            1.5,
            2.0 - 1e-12,
            7.25,
            1e15 + 0.5,
            9.2e18,
            2e19,
            f64::INFINITY,
            -0.5,
            -3.0,
            f64::NAN,
        ] {
            assert_eq!(ceil_u64(x), x.ceil() as u64, "{x}");
            if (0.0..1.8e19).contains(&x) {
                assert_eq!(floor_pos(x), x.floor(), "{x}");
                let k = x as u64;
                assert_eq!(steps(k).to_bits(), (k as f64).to_bits(), "{k}");
            }
        }
    }

    #[test]
    fn facing_round_trip() {
        for f in [0.0, 1.0, -2.0, 3.0] {
            assert!((Vec2::from_facing(f).facing() - f).abs() < 1e-9);
        }
        assert!((angle_diff(0.1, std::f64::consts::TAU - 0.1) - 0.2).abs() < 1e-9);
    }

    #[test]
    fn a_segment_crosses_a_rectangle_only_where_it_passes_through() {
        let r = Rect {
            centre: Vec2::new(10.0, 10.0),
            facing: 0.3,
            frontage: 3.0,
            depth: 1.0,
        };
        // Straight through the middle, ending inside, and passing beside it.
        assert!(r.crosses(Vec2::new(0.0, 10.0), Vec2::new(20.0, 10.0)));
        assert!(r.crosses(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0)));
        assert!(!r.crosses(Vec2::new(0.0, 14.0), Vec2::new(20.0, 14.0)));
        assert!(!r.crosses(Vec2::new(0.0, 0.0), Vec2::new(5.0, 5.0)));
        // Agrees with sampling the segment finely.
        for k in 0..200 {
            let a = Vec2::new(f64::from(k % 20), f64::from(k / 10));
            let b = Vec2::new(20.0 - f64::from(k % 7) * 2.0, 20.0 - f64::from(k % 13));
            let sampled =
                (0..=2000).any(|i| r.dist_to_point(a + (b - a) * (f64::from(i) / 2000.0)) == 0.0);
            if sampled {
                assert!(r.crosses(a, b), "{a:?}-{b:?}");
            }
        }
    }

    #[test]
    fn rectangles_measure_between_nearest_edges() {
        let a = Rect {
            centre: Vec2::new(0.0, 0.0),
            facing: 0.0,
            frontage: 3.0,
            depth: 1.0,
        };
        let b = Rect {
            centre: Vec2::new(0.0, 11.0),
            facing: std::f64::consts::PI,
            frontage: 3.0,
            depth: 1.0,
        };
        assert!((a.dist(&b) - 10.0).abs() < 1e-9);
        let c = Rect {
            centre: Vec2::new(1.0, 0.5),
            ..a
        };
        assert_eq!(a.dist(&c), 0.0);
    }

    /// The distance as first written (a sine and cosine per corner, a root per point), kept
    /// to show the faster one gives the same bits.
    fn reference_dist(a: &Rect, b: &Rect) -> f64 {
        fn corners(r: &Rect) -> [Vec2; 4] {
            let f = Vec2::from_facing(r.facing) * (r.depth / 2.0);
            let s = Vec2::from_facing(r.facing).right() * (r.frontage / 2.0);
            let c = r.centre;
            [c + f - s, c + f + s, c - f + s, c - f - s]
        }
        fn to_point(r: &Rect, p: Vec2) -> f64 {
            let fwd = Vec2::from_facing(r.facing);
            let d = p - r.centre;
            let along = d.dot(fwd).abs() - r.depth / 2.0;
            let across = d.dot(fwd.right()).abs() - r.frontage / 2.0;
            let (ax, cx) = (along.max(0.0), across.max(0.0));
            (ax * ax + cx * cx).sqrt()
        }
        let mut best = f64::INFINITY;
        for c in corners(a) {
            best = best.min(to_point(b, c));
        }
        for c in corners(b) {
            best = best.min(to_point(a, c));
        }
        if best > 0.0 && (to_point(a, b.centre) == 0.0 || to_point(b, a.centre) == 0.0) {
            return 0.0;
        }
        best
    }

    #[test]
    fn reach_limit_halves_as_measuring_every_midpoint_would() {
        // The bisection as first written, measuring at every midpoint.
        fn reference(me: &Shape, dir: Vec2, other: &Shape, limit: f64, lo: f64, hi: f64) -> f64 {
            let within = |s: f64| me.at(me.centre + dir * s).dist(other) <= limit;
            let (mut lo, mut hi) = (lo, hi);
            if !within(hi) {
                return lo;
            }
            while hi - lo > 1e-3 {
                let mid = 0.5 * (lo + hi);
                if within(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            hi
        }
        let mut seed = 777u64;
        let mut rnd = move || {
            seed = crate::dice::mix64(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut checked = 0;
        for _ in 0..20_000 {
            let rect = |c: Vec2, f: f64, w: f64, d: f64| Rect {
                centre: c,
                facing: f,
                frontage: w,
                depth: d,
            };
            let me = rect(
                Vec2::new(0.0, 0.0),
                rnd() * 6.3,
                1.0 + rnd() * 4.0,
                0.5 + rnd(),
            );
            let other = rect(
                Vec2::new(rnd() * 20.0 - 10.0, 4.0 + rnd() * 20.0),
                rnd() * 6.3,
                1.0 + rnd() * 4.0,
                0.5 + rnd(),
            );
            let (me, other) = (me.shape(), other.shape());
            // Mostly towards the other, sometimes obliquely.
            let dir = (other.centre + Vec2::new(rnd() * 8.0 - 4.0, 0.0) - me.centre).norm();
            let limit = [2.0, 6.0, 12.0, rnd() * 12.0][checked % 4];
            // The half-inch step of the march that first comes within the limit (as
            // `run_past` asks), or any step.
            let within = |k: u64| me.at(me.centre + dir * (0.5 * k as f64)).dist(&other) <= limit;
            let any = (rnd() * 60.0) as u64 + 1;
            let k = (1..=80).find(|&k| within(k)).unwrap_or(any);
            let (lo, hi) = (0.5 * (k - 1) as f64, 0.5 * k as f64);
            let want = reference(&me, dir, &other, limit, lo, hi);
            let got = reach_limit(&me, dir, &other, limit, lo, hi);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{me:?} {other:?} {dir:?} {limit} {k}"
            );
            checked += usize::from(want > lo && want < hi);
        }
        // Most cases cross the limit inside the step, where the halving works.
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn shapes_agree_with_a_brute_force_distance() {
        // Sampled boundary points: the distance between rectangles apart is the least
        // distance between their edges; shapes and rects give the same answer to the bit.
        let mut seed = 12345u64;
        let mut rnd = move || {
            seed = crate::dice::mix64(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..300 {
            let a = Rect {
                centre: Vec2::new(rnd() * 10.0, rnd() * 10.0),
                facing: rnd() * 7.0 - 3.5,
                frontage: 0.5 + rnd() * 3.0,
                depth: 0.5 + rnd(),
            };
            let b = Rect {
                centre: Vec2::new(rnd() * 10.0, rnd() * 10.0),
                facing: rnd() * 7.0 - 3.5,
                frontage: 0.5 + rnd() * 3.0,
                depth: 0.5 + rnd(),
            };
            let (sa, sb) = (a.shape(), b.shape());
            let d = a.dist(&b);
            assert_eq!(d.to_bits(), reference_dist(&a, &b).to_bits());
            assert!(sa.dist_lower_bound(&sb) <= d + 1e-12);
            assert!(sa.gap_lower_bound(&sb) <= d + 1e-12 && sb.gap_lower_bound(&sa) <= d + 1e-12);
            if a.facing == b.facing && d > 0.0 {
                // Rectangles square to each other: the widest gap is the distance or less.
                assert!(sa.gap_lower_bound(&sb) <= d + 1e-12);
            }
            for limit in [0.0, 0.5, 2.0, 6.0, d, d * (1.0 + 1e-12), d * (1.0 - 1e-12)] {
                assert_eq!(sa.within(&sb, limit), d <= limit);
                match sa.dist_unless_within(&sb, limit) {
                    Some(m) => assert_eq!(m.to_bits(), sa.dist(&sb).to_bits()),
                    None => assert!(sa.dist(&sb) <= limit),
                }
            }
            if d > 0.0 {
                let edge = |s: &Shape, k: usize, t: f64| {
                    let c = s.corners();
                    c[k] + (c[(k + 1) % 4] - c[k]) * t
                };
                let mut brute = f64::INFINITY;
                for k in 0..4 {
                    for i in 0..=200 {
                        let t = f64::from(i) / 200.0;
                        brute = brute
                            .min(sb.dist_to_point(edge(&sa, k, t)))
                            .min(sa.dist_to_point(edge(&sb, k, t)));
                    }
                }
                assert!(d <= brute + 1e-9 && brute - d < 0.05, "{d} vs {brute}");
            }
        }
    }

    #[test]
    fn a_disc_is_beyond_only_when_all_of_it_is_past_the_gap() {
        let mut rnd = crate::dice::test_uniforms(977);
        let (mut beyond, mut asked) = (0, 0);
        for _ in 0..20_000 {
            let me = Shape::new(
                Vec2::new(rnd() * 10.0, rnd() * 10.0),
                Vec2::from_facing(rnd() * 7.0 - 3.5),
                0.5 + rnd() * 6.0,
                0.5 + rnd() * 14.0,
            );
            let c = me.centre + Vec2::new(rnd() * 30.0 - 15.0, rnd() * 30.0 - 15.0);
            let (radius, gap) = (rnd() * 3.0, [0.0, 0.5, 2.0][(rnd() * 3.0) as usize]);
            asked += 1;
            if me.beyond(c, radius, gap) {
                beyond += 1;
                assert!(
                    me.dist_to_point(c) - radius > gap,
                    "{me:?} {c:?} {radius} {gap}"
                );
            }
        }
        assert!(
            beyond > asked / 3,
            "{beyond} of {asked}: the bound says too little"
        );
        // Straight ahead, a hair past the side, the radius and the gap: beyond; a hair short,
        // not.
        let me = footprint_at(0.0, 0.0);
        let ahead = |d: f64| me.centre + me.fwd * (me.half_depth + 1.0 + 0.5 + d);
        assert!(me.beyond(ahead(1e-6), 1.0, 0.5));
        assert!(!me.beyond(ahead(-1e-6), 1.0, 0.5));
    }

    #[test]
    fn marching_finds_the_same_point_as_every_step() {
        let mut seed = 4242u64;
        let mut rnd = move || {
            seed = crate::dice::mix64(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut hits = 0;
        for i in 0..3000 {
            let a = Rect {
                centre: Vec2::new(rnd() * 30.0, rnd() * 30.0),
                facing: rnd() * 7.0 - 3.5,
                frontage: 0.5 + rnd() * 3.0,
                depth: 0.5 + rnd(),
            }
            .shape();
            let b = Rect {
                centre: Vec2::new(rnd() * 30.0, rnd() * 30.0),
                facing: rnd() * 7.0 - 3.5,
                frontage: 0.5 + rnd() * 3.0,
                depth: 0.5 + rnd(),
            }
            .shape();
            let dir = Vec2::new(rnd() - 0.5, rnd() - 0.5).norm();
            let limit = [0.0, 0.01, 2.0, 6.0, 12.0][(rnd() * 5.0) as usize];
            let end = rnd() * 25.0;
            let last = (end / 0.5).ceil() as u64;
            let slow = (1..=last)
                .find(|&k| a.at(a.centre + dir * (0.5 * k as f64).min(end)).dist(&b) <= limit);
            let d0 = if i % 2 == 0 { a.dist(&b) } else { 0.0 };
            let march = March {
                me: &a,
                dir,
                step: 0.5,
                first: 1,
                last,
                end,
            };
            let fast = march.first_within(&b, limit, d0);
            assert_eq!(slow, fast);
            hits += usize::from(slow.is_some());
        }
        assert!(hits > 300, "the test should meet often: {hits}");
    }

    #[test]
    fn arc_tests_match_atan2_to_the_bit() {
        let mut seed = 99u64;
        let mut rnd = move || {
            seed = crate::dice::mix64(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let limits = [
            0.0,
            0.4,
            std::f64::consts::FRAC_PI_4,
            std::f64::consts::FRAC_PI_4 + 0.35,
            std::f64::consts::FRAC_PI_2,
            2.0,
            std::f64::consts::PI,
            7.0,
            -0.1,
        ];
        let grid_facings = [
            0.0,
            std::f64::consts::FRAC_PI_2,
            std::f64::consts::PI,
            -std::f64::consts::FRAC_PI_2,
            std::f64::consts::FRAC_PI_4,
        ];
        let mut edges = 0;
        for i in 0..40_000 {
            // Half the cases on a grid, where diagonals fall on 45 degrees exactly.
            let (facing, d) = if i % 2 == 0 {
                (
                    rnd() * 20.0 - 10.0,
                    Vec2::new(rnd() * 2.0 - 1.0, rnd() * 2.0 - 1.0),
                )
            } else {
                (
                    grid_facings[(rnd() * 5.0) as usize],
                    Vec2::new((rnd() * 7.0).floor() - 3.0, (rnd() * 7.0).floor() - 3.0),
                )
            };
            let limit = if i % 3 == 0 {
                rnd() * 4.0
            } else {
                limits[(rnd() * limits.len() as f64) as usize]
            };
            let slow = angle_diff(d.facing(), facing).abs() <= limit;
            let fast = within_arc(Vec2::from_facing(facing), facing, d, HalfAngle::new(limit));
            assert_eq!(slow, fast, "facing {facing} d {d:?} limit {limit}");
            edges += usize::from((angle_diff(d.facing(), facing).abs() - limit).abs() < 1e-12);
        }
        assert!(edges > 100, "the test should meet the edge often: {edges}");
    }

    #[test]
    fn segments_cross() {
        let o = Vec2::new(0.0, 0.0);
        assert!(segment_intersects_segment(
            o,
            Vec2::new(0.0, 10.0),
            Vec2::new(-5.0, 5.0),
            Vec2::new(5.0, 5.0)
        ));
        assert!(!segment_intersects_segment(
            o,
            Vec2::new(0.0, 4.0),
            Vec2::new(-5.0, 5.0),
            Vec2::new(5.0, 5.0)
        ));
    }
}

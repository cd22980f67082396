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
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: Vec2) -> f64 {
        (self - o).len()
    }
    pub fn norm(self) -> Vec2 {
        let l = self.len();
        if l > 0.0 { self * (1.0 / l) } else { Vec2::new(0.0, 1.0) }
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
    let mut d = (a - b) % std::f64::consts::TAU;
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
    pub fn corners(&self) -> [Vec2; 4] {
        let f = Vec2::from_facing(self.facing) * (self.depth / 2.0);
        let r = Vec2::from_facing(self.facing).right() * (self.frontage / 2.0);
        let c = self.centre;
        [c + f - r, c + f + r, c - f + r, c - f - r]
    }
    /// The point in the middle of the front edge.
    pub fn front_centre(&self) -> Vec2 {
        self.centre + Vec2::from_facing(self.facing) * (self.depth / 2.0)
    }
    /// Distance from a point to this rectangle (0 inside).
    pub fn dist_to_point(&self, p: Vec2) -> f64 {
        let fwd = Vec2::from_facing(self.facing);
        let d = p - self.centre;
        let along = d.dot(fwd).abs() - self.depth / 2.0;
        let across = d.dot(fwd.right()).abs() - self.frontage / 2.0;
        let ax = along.max(0.0);
        let cx = across.max(0.0);
        (ax * ax + cx * cx).sqrt()
    }
    /// Nearest-edge distance between two rectangles (0 when they touch or overlap).
    pub fn dist(&self, o: &Rect) -> f64 {
        let mut best = f64::INFINITY;
        for c in self.corners() {
            best = best.min(o.dist_to_point(c));
        }
        for c in o.corners() {
            best = best.min(self.dist_to_point(c));
        }
        // Edges can cross with no corner inside (a plus shape): then the centres' test catches it.
        if best > 0.0 && (self.dist_to_point(o.centre) == 0.0 || o.dist_to_point(self.centre) == 0.0) {
            return 0.0;
        }
        best
    }
}

/// True when segment a-b crosses segment c-d.
pub fn segment_intersects_segment(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let r = b - a;
    let s = d - c;
    let denom = r.cross(s);
    if denom.abs() < 1e-12 {
        return false;
    }
    let t = (c - a).cross(s) / denom;
    let u = (c - a).cross(r) / denom;
    (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_round_trip() {
        for f in [0.0, 1.0, -2.0, 3.0] {
            assert!((Vec2::from_facing(f).facing() - f).abs() < 1e-9);
        }
        assert!((angle_diff(0.1, std::f64::consts::TAU - 0.1) - 0.2).abs() < 1e-9);
    }

    #[test]
    fn rectangles_measure_between_nearest_edges() {
        let a = Rect { centre: Vec2::new(0.0, 0.0), facing: 0.0, frontage: 3.0, depth: 1.0 };
        let b = Rect { centre: Vec2::new(0.0, 11.0), facing: std::f64::consts::PI, frontage: 3.0, depth: 1.0 };
        assert!((a.dist(&b) - 10.0).abs() < 1e-9);
        let c = Rect { centre: Vec2::new(1.0, 0.5), ..a };
        assert_eq!(a.dist(&c), 0.0);
    }

    #[test]
    fn segments_cross() {
        let o = Vec2::new(0.0, 0.0);
        assert!(segment_intersects_segment(o, Vec2::new(0.0, 10.0), Vec2::new(-5.0, 5.0), Vec2::new(5.0, 5.0)));
        assert!(!segment_intersects_segment(o, Vec2::new(0.0, 4.0), Vec2::new(-5.0, 5.0), Vec2::new(5.0, 5.0)));
    }
}

//! The ground: areas (rough, woods, hills, roads, bog), linear obstacles and camps.

use serde::{Deserialize, Serialize};

use super::geometry::{Bounds, Vec2, segment_crossing, square};
use crate::army::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    Rough,
    Woods,
    Hill,
    Road,
    Bog,
}

impl AreaKind {
    /// Ground that gives defenders soft cover in close combat.
    pub fn is_cover(self) -> bool {
        self == AreaKind::Woods
    }
    /// Difficult ground: crossing it disorders, and disorder lasts while a unit stands in it.
    pub fn disorders(self) -> bool {
        matches!(self, AreaKind::Rough | AreaKind::Woods | AreaKind::Bog)
    }
}

/// A closed polygon of ground.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    pub kind: AreaKind,
    pub points: Vec<Vec2>,
}

impl Area {
    /// Point in polygon (even-odd rule).
    pub fn contains(&self, p: Vec2) -> bool {
        let mut inside = false;
        let n = self.points.len();
        let mut j = n - 1;
        for i in 0..n {
            let (a, b) = (self.points[i], self.points[j]);
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside = !inside;
            }
            j = i;
        }
        inside
    }

    /// Length of the segment a-b that lies inside this area.
    pub fn length_inside(&self, a: Vec2, b: Vec2) -> f64 {
        let len = a.dist(b);
        if len == 0.0 {
            return 0.0;
        }
        // Parameters where the segment crosses the boundary, then test each piece's midpoint.
        let mut ts = [0.0f64; 34];
        let mut n = 0;
        ts[n] = 0.0;
        n += 1;
        for (i, &c) in self.points.iter().enumerate() {
            let d = self.points.get(i + 1).copied().unwrap_or(self.points[0]);
            let r = b - a;
            let s = d - c;
            let denom = r.cross(s);
            if denom.abs() > 1e-12 {
                let t = (c - a).cross(s) / denom;
                let u = (c - a).cross(r) / denom;
                if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) && n < ts.len() - 1 {
                    ts[n] = t;
                    n += 1;
                }
            }
        }
        ts[n] = 1.0;
        n += 1;
        let ts = &mut ts[..n];
        ts.sort_by(|x, y| x.total_cmp(y));
        let mut inside = 0.0;
        for w in ts.windows(2) {
            let mid = a + (b - a) * ((w[0] + w[1]) / 2.0);
            if self.contains(mid) {
                inside += w[1] - w[0];
            }
        }
        inside * len
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleKind {
    Hedge,
    Wall,
    /// A wall too high to ride over (rules without the distinction cross it as a wall).
    HighWall,
    Ditch,
    Stream,
    /// The stretch of a river where it is forded (rules without fords cross it as a stream).
    Ford,
}

/// A hedge, wall, ditch, stream or ford: a line segment with a crossing cost multiplier
/// ("double effect or worse"; 0 = impassable).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearObstacle {
    pub kind: ObstacleKind,
    pub a: Vec2,
    pub b: Vec2,
    pub severity: f64,
    /// Defenders behind it count as in soft cover (hedges) or hard cover (walls).
    pub hard_cover: bool,
}

/// A baggage camp guarded by firelocks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camp {
    pub side: Side,
    pub pos: Vec2,
    pub radius: f64,
    pub entrenched: bool,
}

/// Everything on the table that is not a unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ground {
    pub width: f64,
    pub depth: f64,
    pub areas: Vec<Area>,
    pub obstacles: Vec<LinearObstacle>,
    pub camps: Vec<Camp>,
}

impl Ground {
    pub fn open(width: f64, depth: f64) -> Ground {
        Ground {
            width,
            depth,
            ..Ground::default()
        }
    }
    pub fn on_table(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.depth
    }
    /// The obstacles a straight leg crosses.
    pub fn obstacles_crossed(&self, a: Vec2, b: Vec2) -> impl Iterator<Item = &LinearObstacle> {
        self.obstacles_crossed_at(a, b).map(|(_, o)| o)
    }
    /// The obstacles a straight leg crosses, each with its index in `obstacles`.
    pub fn obstacles_crossed_at(
        &self,
        a: Vec2,
        b: Vec2,
    ) -> impl Iterator<Item = (usize, &LinearObstacle)> {
        self.crossings(a, b).map(|(i, o, _)| (i, o))
    }
    /// Where a straight leg first crosses an obstacle, as a share of the way from `a` to `b`;
    /// None when it crosses none.
    pub fn first_obstacle_crossed(&self, a: Vec2, b: Vec2) -> Option<f64> {
        self.crossings(a, b)
            .map(|(_, _, t)| t)
            .min_by(f64::total_cmp)
    }
    /// The obstacles a straight leg crosses, each with its index and where the leg crosses it
    /// (`segment_crossing`).
    fn crossings(&self, a: Vec2, b: Vec2) -> impl Iterator<Item = (usize, &LinearObstacle, f64)> {
        let leg = Bounds::of_segment(a, b);
        self.obstacles.iter().enumerate().filter_map(move |(i, o)| {
            // A square segment whose box the leg's does not touch is not crossed: not even
            // computed (`Bounds::clear_of`).
            if square(o.a, o.b) && leg.clear_of(&Bounds::of_segment(o.a, o.b)) {
                return None;
            }
            segment_crossing(a, b, o.a, o.b).map(|t| (i, o, t))
        })
    }
    /// The kind of ground at a point (the first area that holds it).
    pub fn area_at(&self, p: Vec2) -> Option<AreaKind> {
        self.areas.iter().find(|a| a.contains(p)).map(|a| a.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(kind: AreaKind, x0: f64, y0: f64, x1: f64, y1: f64) -> Area {
        Area {
            kind,
            points: vec![
                Vec2::new(x0, y0),
                Vec2::new(x1, y0),
                Vec2::new(x1, y1),
                Vec2::new(x0, y1),
            ],
        }
    }

    /// A leg over two hedges first crosses the nearer, wherever it is listed; a leg stopping
    /// short of both crosses none.
    #[test]
    fn a_leg_first_crosses_the_nearest_obstacle() {
        let hedge = |y| LinearObstacle {
            kind: ObstacleKind::Hedge,
            a: Vec2::new(-10.0, y),
            b: Vec2::new(10.0, y),
            severity: 1.0,
            hard_cover: false,
        };
        let mut ground = Ground::open(72.0, 48.0);
        ground.obstacles = vec![hedge(9.0), hedge(5.0)];
        let (a, b) = (Vec2::new(0.0, 1.0), Vec2::new(0.0, 11.0));
        let t = ground.first_obstacle_crossed(a, b).expect("crosses");
        assert!((t - 0.4).abs() < 1e-12, "{t}");
        assert_eq!(ground.obstacles_crossed_at(a, b).count(), 2);
        assert_eq!(ground.first_obstacle_crossed(a, Vec2::new(0.0, 4.9)), None);
    }

    #[test]
    fn length_inside_an_area() {
        let bog = square(AreaKind::Bog, -10.0, 5.0, 10.0, 8.0);
        let l = bog.length_inside(Vec2::new(0.0, 0.0), Vec2::new(0.0, 18.0));
        assert!((l - 3.0).abs() < 1e-9, "{l}");
        assert!(bog.contains(Vec2::new(0.0, 6.0)));
        assert!(!bog.contains(Vec2::new(0.0, 9.0)));
    }
}

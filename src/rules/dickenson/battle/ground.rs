//! The ground a regiment's footprint meets on a move (ruling: any part of it is enough): the
//! areas under its footprint, the way it sweeps (horse may not ride through woods), the
//! obstacles ahead of its centre its footprint reaches, and the stretch of a hedge it hacks down (its
//! frontage measured along the hedge, wider when it crosses aslant). Plain geometry, no
//! allocation: it runs on every move.

use super::movement::Gap;
use crate::battlefield::geometry::{Bounds, Shape, segment_intersects_segment};
use crate::battlefield::{Area, LinearObstacle, Vec2};

/// Far below any distance on the table, far above rounding.
const EPS: f64 = 1e-6;

/// The box that holds footprint `s`.
pub fn bounds_of(s: &Shape) -> Bounds {
    let r = s.fwd.right();
    let ex = (s.fwd.x * s.half_depth).abs() + (r.x * s.half_frontage).abs();
    let ey = (s.fwd.y * s.half_depth).abs() + (r.y * s.half_frontage).abs();
    Bounds {
        lo: Vec2::new(s.centre.x - ex, s.centre.y - ey),
        hi: Vec2::new(s.centre.x + ex, s.centre.y + ey),
    }
}

/// Whether any part of footprint `s`, whose box is `sb` (`bounds_of`), lies in `area`, whose
/// box is `bounds` (worked out once a battle). A footprint of no size meets an area its centre
/// is in.
pub fn meets(area: &Area, bounds: &Bounds, s: &Shape, sb: &Bounds) -> bool {
    if sb.clear_of(bounds) {
        return false;
    }
    if area.contains(s.centre) {
        return true;
    }
    // Not holding the centre, the area meets the footprint only where a corner of the area is
    // inside it or their edges cross.
    let c = s.corners();
    let n = area.points.len();
    (0..n).any(|i| {
        let (p, q) = (area.points[i], area.points[(i + 1) % n]);
        s.dist_to_point(p) == 0.0
            || (0..4).any(|k| segment_intersects_segment(c[k], c[(k + 1) % 4], p, q))
    })
}

/// The areas and the obstacles of the ground (bit `i` for the `i`-th) whose boxes are not
/// clear of the box of some moves (`Near::within`); those past the 64th are always asked.
/// Every footprint and way those moves ask about has its box inside theirs, so the ground
/// left out is clear of it too (`Bounds::clear_of` only grows clearer as a box shrinks), and
/// meets none of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    areas: u64,
    obstacles: u64,
}

impl Near {
    /// Every area and obstacle (the plain scan the tests ask against).
    #[cfg(test)]
    pub const ALL: Near = Near {
        areas: !0,
        obstacles: !0,
    };

    /// The ground whose boxes (`areas`, `obstacles`) are not clear of `reach`.
    pub fn within(reach: &Bounds, areas: &[Bounds], obstacles: &[Bounds]) -> Near {
        let mask = |boxes: &[Bounds]| {
            boxes
                .iter()
                .take(64)
                .enumerate()
                .filter(|(_, b)| !reach.clear_of(b))
                .fold(0u64, |m, (i, _)| m | 1 << i)
        };
        Near {
            areas: mask(areas),
            obstacles: mask(obstacles),
        }
    }

    /// Whether area `i` may be met.
    pub fn area(&self, i: usize) -> bool {
        i >= 64 || self.areas >> i & 1 != 0
    }

    /// Whether obstacle `i` may be met.
    pub fn obstacle(&self, i: usize) -> bool {
        i >= 64 || self.obstacles >> i & 1 != 0
    }
}

/// A box holding every footprint within `radius` of its centre whose centre lies on the
/// segment `a`-`b`, whatever its facing, and every way swept between two of them, with a
/// margin (1e-6") far above the rounding of the centres and facings worked out from `a` and
/// `b`.
pub fn swept(a: Vec2, b: Vec2, radius: f64) -> Bounds {
    let pad = radius + 1e-6;
    let seg = Bounds::of_segment(a, b);
    Bounds {
        lo: Vec2::new(seg.lo.x - pad, seg.lo.y - pad),
        hi: Vec2::new(seg.hi.x + pad, seg.hi.y + pad),
    }
}

/// Where a footprint `frontage` wide and `depth` deep, moving `len` inches from `from` along
/// the unit `dir` (facing it or straight away), passes over an obstacle ahead of its centre
/// (ruling: one its body already stands astride with its centre short of it is still to
/// cross, as a regiment drawn up behind a wall with its front over it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Passage {
    /// Inches of the move before its leading edge meets the obstacle (0 if it already has).
    pub first: f64,
    /// The stretch of the obstacle passed over, in inches from its first end.
    pub lo: f64,
    pub hi: f64,
}

/// The passage over `o` of a move (as `Passage` says), if its footprint meets it ahead of its
/// centre: the obstacle clipped to the rectangle from the centre where it starts to the front
/// where it ends, in the move's own frame.
pub fn passage(
    from: Vec2,
    dir: Vec2,
    len: f64,
    (frontage, depth): (f64, f64),
    o: &LinearObstacle,
) -> Option<Passage> {
    let right = dir.right();
    let along = |p: Vec2| (p - from).dot(dir);
    let across = |p: Vec2| (p - from).dot(right);
    let (a0, a1) = (along(o.a), along(o.b));
    let (c0, c1) = (across(o.a), across(o.b));
    let mut t = (0.0, 1.0);
    let half = frontage / 2.0;
    let reach = len + depth / 2.0;
    if !clip(&mut t, a0, a1 - a0, 0.0, reach) || !clip(&mut t, c0, c1 - c0, -half, half) {
        return None;
    }
    let at = |s: f64| a0 + (a1 - a0) * s;
    let length = o.a.dist(o.b);
    Some(Passage {
        first: (at(t.0).min(at(t.1)) - depth / 2.0).max(0.0),
        lo: t.0 * length,
        hi: t.1 * length,
    })
}

/// Narrows the parameters `t` of a segment to where `x0 + s * dx` lies in `lo..=hi`
/// (Liang-Barsky); false when nothing is left.
fn clip(t: &mut (f64, f64), x0: f64, dx: f64, lo: f64, hi: f64) -> bool {
    if dx.abs() < 1e-12 {
        return x0 >= lo - EPS && x0 <= hi + EPS;
    }
    let (s0, s1) = ((lo - x0) / dx, (hi - x0) / dx);
    let (s0, s1) = if s0 <= s1 { (s0, s1) } else { (s1, s0) };
    t.0 = t.0.max(s0);
    t.1 = t.1.min(s1);
    t.0 <= t.1
}

/// Whether the stretch `lo..hi` of obstacle `i` lies all within gaps hacked in it (gaps side
/// by side make one wide way).
pub fn open(gaps: &[Gap], i: usize, lo: f64, hi: f64) -> bool {
    let mut reach = lo;
    loop {
        let next = gaps
            .iter()
            .filter(|g| g.obstacle == i && g.at - g.half <= reach + EPS)
            .map(|g| g.at + g.half)
            .fold(reach, f64::max);
        if next >= hi - EPS {
            return true;
        }
        if next <= reach {
            return false;
        }
        reach = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::{AreaKind, ObstacleKind};

    fn hedge(a: (f64, f64), b: (f64, f64)) -> LinearObstacle {
        LinearObstacle {
            kind: ObstacleKind::Hedge,
            a: Vec2::new(a.0, a.1),
            b: Vec2::new(b.0, b.1),
            severity: 1.0,
            hard_cover: false,
        }
    }

    /// A 3" x 1" regiment moving 6" up +y from (36, 10) meets a hedge across y 12 after 1.5"
    /// (its front at 10.5), over 3" of it; at 45 degrees the stretch is 3 times root 2.
    #[test]
    fn a_leading_edge_passes_over_its_frontage_of_hedge() {
        let up = Vec2::new(0.0, 1.0);
        let from = Vec2::new(36.0, 10.0);
        let p = passage(from, up, 6.0, (3.0, 1.0), &hedge((0.0, 12.0), (72.0, 12.0))).unwrap();
        assert!((p.first - 1.5).abs() < 1e-9, "{p:?}");
        assert!(
            (p.lo - 34.5).abs() < 1e-9 && (p.hi - 37.5).abs() < 1e-9,
            "{p:?}"
        );
        let slant = hedge((24.0, 0.0), (48.0, 24.0));
        let p = passage(from, up, 6.0, (3.0, 1.0), &slant).unwrap();
        assert!((p.hi - p.lo - 3.0 * 2f64.sqrt()).abs() < 1e-9, "{p:?}");
        assert!(passage(from, up, 1.0, (3.0, 1.0), &hedge((0.0, 12.0), (72.0, 12.0))).is_none());
        // A point-sized footprint crosses only where its centre does.
        assert!(
            passage(
                from,
                up,
                6.0,
                (0.0, 0.0),
                &hedge((37.0, 12.0), (40.0, 12.0))
            )
            .is_none()
        );
    }

    /// A wood whose corner only reaches under the footprint's corner is met; one beside it is not.
    #[test]
    fn any_part_of_a_footprint_meets_an_area() {
        let wood = Area {
            kind: AreaKind::Woods,
            points: vec![
                Vec2::new(37.0, 10.0),
                Vec2::new(40.0, 10.0),
                Vec2::new(40.0, 14.0),
                Vec2::new(37.0, 14.0),
            ],
        };
        let (b, _) = Bounds::of_polygon(&wood.points).unwrap();
        let s = |x: f64| Shape::new(Vec2::new(x, 9.8), Vec2::new(0.0, 1.0), 3.0, 1.0);
        let met = |s: Shape| meets(&wood, &b, &s, &bounds_of(&s));
        assert!(met(s(36.0)));
        assert!(!met(s(35.0)));
        assert!(!met(Shape::new(
            Vec2::new(36.0, 9.8),
            Vec2::new(0.0, 1.0),
            0.0,
            0.0
        )));
    }

    /// A battle of a built-in scenario under the built-in rules, deployed.
    fn battle_of(name: &str) -> super::super::Battle {
        let setup = crate::scenario::Scenario::load_builtin(name, &[])
            .and_then(|s| s.setup())
            .expect("built-in scenario");
        let rules = std::sync::Arc::new(crate::rules::dickenson::tables::DickensonRules::builtin());
        super::super::Battle::new(rules, &setup)
    }

    /// The ground a move's box leaves out changes nothing: over random moves of random
    /// regiments across three fields (every kind of area and obstacle but the high wall),
    /// some in column, some astride an obstacle, every leg of each move (none, a hair, the
    /// halvings' points, the whole) goes as it goes asking all the ground, the first area at
    /// its ends is `Ground::area_at`'s, and an obstacle left out is passed over neither on
    /// the way nor where it ends.
    #[test]
    fn the_ground_near_a_move_answers_as_all_the_ground() {
        use super::super::regiment::Formation;
        let mut next = crate::dice::test_uniforms(0x2545_f491_4f6c_dd1du64);
        let (mut met, mut left_out) = (0, 0);
        for name in ["marston_moor", "langport", "lansdown"] {
            let mut b = battle_of(name);
            let (w, d) = b.table;
            for trial in 0..4000 {
                let r = (next() * b.regiments.len() as f64) as usize;
                let from = Vec2::new(next() * (w + 8.0) - 4.0, next() * (d + 8.0) - 4.0);
                let dir = Vec2::from_facing(next() * std::f64::consts::TAU);
                let full = if trial % 10 == 0 { 0.0 } else { next() * 20.0 };
                let reg = &mut b.regiments[r];
                reg.pos = from;
                reg.facing = next() * std::f64::consts::TAU;
                reg.formation = [Formation::Line, Formation::Column][trial % 2];
                let n = b.ground.obstacles.len() as f64;
                reg.crossing = (trial % 3 == 0).then(|| (next() * n) as u16);
                let near = b.near_way(r, from, from + dir * full);
                for leg in [0.0, 1e-12, 0.005, next(), next() * full, full] {
                    let (leg, to) = (leg.min(full), from + dir * leg.min(full));
                    let all = b.going_near(r, from, to, Near::ALL);
                    assert_eq!(b.going_near(r, from, to, near), all, "{name} {trial} {leg}");
                    assert_eq!(b.going(r, from, to), all, "{name} {trial} {leg}");
                    for p in [from, to] {
                        assert_eq!(b.area_at(p, near), b.ground.area_at(p), "{p:?}");
                    }
                }
                let to = from + dir * full;
                let (way, len) = b.way_of(r, from, to);
                let dims = b.footing(r);
                let near = b.near_way(r, from, to);
                for (i, o) in b.ground.obstacles.iter().enumerate() {
                    let crossed = passage(from, way, len, dims, o).is_some()
                        || passage(to, way, 0.0, dims, o).is_some();
                    met += usize::from(crossed);
                    left_out += usize::from(!near.obstacle(i));
                    assert!(near.obstacle(i) || !crossed, "{name} {trial} {i}");
                }
            }
        }
        assert!(met > 1000 && left_out > 50_000, "{met} {left_out}");
    }

    /// `over_ground` keeps each regiment's last question and answer: asked again at once, or
    /// after one thing it reads has changed (the regiment's place, facing, footprint,
    /// formation, the obstacle it stands astride or the move it has spent; a hedge hacked
    /// open; the way or the length asked), it answers as the ground weighed afresh. Each
    /// change is seen to change some answers, so a key that left it out would fail here.
    #[test]
    fn a_kept_answer_of_the_ground_is_the_answer_weighed_afresh() {
        use super::super::regiment::Formation;
        use std::cell::Cell;
        let mut next = crate::dice::test_uniforms(0x9e37_79b9_7f4a_7c15u64);
        let mut changed = [0usize; 10];
        for name in ["marston_moor", "langport", "lansdown"] {
            let mut b = battle_of(name);
            let (w, d) = b.table;
            let n = b.ground.obstacles.len();
            // Every third obstacle a high wall: over one, foot read the move they have spent.
            for o in b.ground.obstacles.iter_mut().step_by(3) {
                o.kind = crate::battlefield::ObstacleKind::HighWall;
            }
            for trial in 0..3000 {
                let mut r = (next() * b.regiments.len() as f64) as usize;
                let mut dir = Vec2::from_facing(next() * std::f64::consts::TAU);
                let mut pos = Vec2::new(next() * w, next() * d);
                let change = trial % 10;
                if change == 6 {
                    // Foot standing square to a high wall, a hair short of it.
                    while b.regiments[r].is_horse() {
                        r = (r + 1) % b.regiments.len();
                    }
                    let o = &b.ground.obstacles[3 * (next() * n.div_ceil(3) as f64) as usize];
                    let along = (o.b - o.a).norm();
                    dir = Vec2::new(along.y, -along.x);
                    let at = o.a + (o.b - o.a) * next();
                    pos = at - dir * (b.regiments[r].depth / 2.0 + 0.05);
                }
                // A facing is read only by a leg that goes nowhere.
                let mut full = if change == 2 { 0.0 } else { next() * 20.0 };
                let reg = &mut b.regiments[r];
                reg.pos = pos;
                reg.facing = next() * std::f64::consts::TAU;
                reg.formation = [Formation::Line, Formation::Column][trial / 10 % 2];
                reg.crossing = (trial % 3 == 0).then(|| (next() * n as f64) as u16);
                reg.spent = if trial % 4 == 0 { next() } else { 0.0 };
                let before = b.over_ground(r, dir, full);
                let reg = &mut b.regiments[r];
                match change {
                    1 => reg.pos = reg.pos + Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0),
                    2 => reg.facing = next() * std::f64::consts::TAU,
                    3 => (reg.frontage, reg.depth) = (reg.depth, reg.frontage),
                    4 => {
                        reg.formation = match reg.formation {
                            Formation::Line => Formation::Column,
                            _ => Formation::Line,
                        }
                    }
                    5 => reg.crossing = Some((next() * n as f64) as u16),
                    6 => reg.spent = next(),
                    7 => b.gaps.push(Gap {
                        obstacle: (next() * n as f64) as usize,
                        at: 0.0,
                        half: 1e9,
                    }),
                    8 => dir = Vec2::from_facing(next() * std::f64::consts::TAU),
                    9 => full = next() * 20.0,
                    _ => {}
                }
                let fresh = b.weigh_ground(r, dir, full, &Cell::new(false));
                assert_eq!(b.over_ground(r, dir, full), fresh, "{name} {trial}");
                changed[change] += usize::from(fresh != before);
                b.gaps.clear();
            }
        }
        assert_eq!(changed[0], 0);
        assert!(changed[1..].iter().all(|&c| c > 0), "{changed:?}");
    }

    #[test]
    fn gaps_side_by_side_open_a_wide_way() {
        let gap = |at: f64| Gap {
            obstacle: 0,
            at,
            half: 1.5,
        };
        let gaps = [gap(10.0), gap(13.0), gap(30.0)];
        assert!(open(&gaps, 0, 9.0, 14.0));
        assert!(!open(&gaps, 0, 9.0, 15.0));
        assert!(!open(&gaps, 1, 9.0, 10.0));
    }
}

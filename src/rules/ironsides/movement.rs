//! Step 7, movement: rates, formation changes, unlimbering, terrain costs and disorder.

use crate::army::{Formation, HorseKind, Unit, UnitKind};
use crate::battlefield::geometry::Bounds;
use crate::battlefield::{AreaKind, Ground, Vec2};
use crate::dice::DiceSource;
use crate::rules::ironsides::tables::IronsidesRules;

/// A unit's full move in inches this turn. Foot rates scale with CV; a unit moving away from
/// the enemy always uses its starting CV.
pub fn move_allowance(rules: &IronsidesRules, u: &Unit, away_from_enemy: bool) -> f64 {
    let m = &rules.movement;
    let cv = f64::from(if away_from_enemy { u.start_cv } else { u.cv });
    match (u.kind, u.formation) {
        (UnitKind::Artillery(w), Formation::Unlimbered) => m.prolonge.get(w),
        (UnitKind::Artillery(w), _) => m.artillery.get(w),
        (UnitKind::Horse(h), _) => match h {
            HorseKind::Trotters => m.trotters,
            HorseKind::PistoleerTrotters => m.pistoleer_trotters,
            HorseKind::Gallopers => m.gallopers,
            HorseKind::Cuirassiers => m.cuirassiers,
        },
        (UnitKind::Dragoons, Formation::Dismounted) | (UnitKind::ForlornHope, _) => {
            (cv * m.skirmisher_per_cv).min(m.skirmisher_max)
        }
        (UnitKind::Dragoons, _) => m.dragoons_mounted,
        (_, Formation::MarchColumn) => (cv * m.march_column_per_cv).min(m.march_column_max),
        (_, Formation::Hedgehog) => m.hedgehog,
        _ => (cv * m.line_per_cv).min(m.line_max),
    }
}

/// The cost of unlimbering a gun (E7: a light gun loses 6" of its 12").
pub fn unlimber_cost(rules: &IronsidesRules, u: &Unit) -> Option<f64> {
    match (u.kind, u.formation) {
        (UnitKind::Artillery(w), Formation::Limbered) => Some(rules.movement.unlimber_cost.get(w)),
        _ => None,
    }
}

/// Unlimbers a gun after moving at most `allowance - cost`; returns the distance left to move,
/// or None if it cannot unlimber (already sited: the drivers have gone home, never to limber
/// again).
pub fn unlimber(rules: &IronsidesRules, u: &mut Unit) -> Option<f64> {
    let cost = unlimber_cost(rules, u)?;
    let left = (move_allowance(rules, u, false) - cost).max(0.0);
    u.formation = Formation::Unlimbered;
    Some(left)
}

/// The cost in inches of a formation change (made before moving).
pub fn formation_change_cost(rules: &IronsidesRules) -> f64 {
    rules.movement.formation_change_cost
}

/// The result of walking a straight leg across the ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    /// How far along the leg the unit got.
    pub distance: f64,
    /// Movement allowance spent.
    pub spent: f64,
    /// Crossed rough ground, bog, woods or an obstacle: disordered (skirmishers never are).
    pub disordered: bool,
    /// Obstacles crossed.
    pub obstacles: u8,
}

fn ground_factor(rules: &IronsidesRules, u: &Unit, kind: AreaKind) -> f64 {
    let m = &rules.movement;
    let mounted = u.kind.is_horse()
        || (u.kind == UnitKind::Dragoons && u.formation != Formation::Dismounted)
        || u.kind.is_gun();
    match kind {
        AreaKind::Rough => {
            if mounted {
                m.rough_factor_horse
            } else {
                m.rough_factor_foot
            }
        }
        AreaKind::Bog => {
            if mounted {
                m.bog_factor_horse
            } else {
                m.bog_factor_foot
            }
        }
        AreaKind::Woods => m.woods_factor,
        AreaKind::Road => m.road_factor,
        _ => 1.0,
    }
}

/// The ground a unit walks over, with each area's box and whether its edges are square to the
/// axes (`Bounds::of_polygon`, in the ground's order) when they were worked out beforehand:
/// a battle works them out once, not at every walk. Without them (a list of another length)
/// each walk works them out.
#[derive(Debug, Clone, Copy)]
pub struct Terrain<'a> {
    pub ground: &'a Ground,
    pub boxes: &'a [Option<(Bounds, bool)>],
}

/// Walks from `from` towards `to` with `allowance` inches: each inch of rough ground, bog or
/// woods costs 1/factor inches; each linear obstacle costs 2" (foot) or D6" (horse), times its
/// severity; an impassable obstacle (severity 0) stops the unit short of it.
pub fn walk<D: DiceSource>(
    rules: &IronsidesRules,
    ground: &Ground,
    u: &Unit,
    from: Vec2,
    to: Vec2,
    allowance: f64,
    dice: &mut D,
) -> Leg {
    let terrain = Terrain { ground, boxes: &[] };
    walk_on(rules, terrain, u, from, to, allowance, dice)
}

/// `walk` over `terrain`, with its areas' boxes if it has them.
pub fn walk_on<D: DiceSource>(
    rules: &IronsidesRules,
    terrain: Terrain<'_>,
    u: &Unit,
    from: Vec2,
    to: Vec2,
    allowance: f64,
    dice: &mut D,
) -> Leg {
    let full = from.dist(to);
    if full <= 0.0 || allowance <= 0.0 {
        return Leg {
            distance: 0.0,
            spent: 0.0,
            disordered: false,
            obstacles: 0,
        };
    }
    let way = Way {
        from,
        to,
        r: to - from,
        full,
    };
    let mut pieces = Pieces::new();
    pieces.cut_by_areas(rules, terrain, u, &way);
    pieces.cut_by_obstacles(rules, terrain.ground, u, &way, dice);
    pieces.obst[..pieces.n_obst].sort_by(|a, b| a.0.total_cmp(&b.0));
    pieces.cuts[..pieces.n_cuts].sort_by(f64::total_cmp);
    let leg = pieces.march(terrain.ground, &way, allowance);
    Leg {
        disordered: leg.disordered && !u.is_skirmisher(),
        ..leg
    }
}

/// A leg from `from` to `to`: `r` the one less the other, `full` its length.
#[derive(Clone, Copy)]
struct Way {
    from: Vec2,
    to: Vec2,
    r: Vec2,
    full: f64,
}

/// A leg cut where its going changes: the slow areas it may be in, the points (inches along
/// the leg) where it crosses an area's edge or an obstacle, and each obstacle's place and
/// cost. Between two cuts the going is the same, so each piece is costed exactly (3" of bog at
/// 1/4 speed costs 12", E6).
struct Pieces {
    /// (area, factor) of the slow areas whose box the leg's touches (at most 16 slow areas
    /// count).
    slow: [(usize, f64); 16],
    n_near: usize,
    cuts: [f64; 64],
    n_cuts: usize,
    /// (inches along the leg, cost) of each obstacle crossed.
    obst: [(f64, f64); 16],
    n_obst: usize,
}

impl Pieces {
    fn new() -> Pieces {
        Pieces {
            slow: [(0, 1.0); 16],
            n_near: 0,
            cuts: [0.0; 64],
            n_cuts: 0,
            obst: [(0.0, 0.0); 16],
            n_obst: 0,
        }
    }

    /// A cut `at` inches along the leg, while there is room for it.
    fn cut(&mut self, at: f64) {
        if self.n_cuts < self.cuts.len() {
            self.cuts[self.n_cuts] = at;
            self.n_cuts += 1;
        }
    }

    /// The areas that slow unit `u`, and where the leg crosses their edges.
    fn cut_by_areas(&mut self, rules: &IronsidesRules, terrain: Terrain<'_>, u: &Unit, way: &Way) {
        let ground = terrain.ground;
        let boxes = Some(terrain.boxes).filter(|b| b.len() == ground.areas.len());
        let Way { from, to, r, full } = *way;
        let leg = Bounds::of_segment(from, to);
        let mut n_slow = 0;
        for (i, area) in ground.areas.iter().enumerate() {
            let f = ground_factor(rules, u, area.kind);
            if f >= 1.0 || n_slow == self.slow.len() {
                continue;
            }
            n_slow += 1;
            // An area whose box the leg's does not touch holds no point of the leg, and if
            // its edges are square to the axes, the leg crosses none (`Bounds::clear_of`).
            let bounds = match boxes {
                Some(b) => b[i],
                None => Bounds::of_polygon(&area.points),
            };
            let (apart, edges_square) = match bounds {
                Some((b, sq)) => (leg.clear_of(&b), sq),
                None => (false, false),
            };
            if !apart {
                self.slow[self.n_near] = (i, f);
                self.n_near += 1;
            } else if edges_square {
                continue;
            }
            // Each edge, the last back to the first (no division in the loop).
            for (k, &c) in area.points.iter().enumerate() {
                let d = area.points.get(k + 1).copied().unwrap_or(area.points[0]);
                let s = d - c;
                let denom = r.cross(s);
                if denom.abs() < 1e-12 {
                    continue;
                }
                let t = (c - from).cross(s) / denom;
                let v = (c - from).cross(r) / denom;
                if t > 0.0 && t < 1.0 && (0.0..=1.0).contains(&v) {
                    self.cut(t * full);
                }
            }
        }
    }

    /// The obstacles along the leg, each with its cost to unit `u` (horse, guns and mounted
    /// dragoons throw for theirs), and a cut at each.
    fn cut_by_obstacles<D: DiceSource>(
        &mut self,
        rules: &IronsidesRules,
        ground: &Ground,
        u: &Unit,
        way: &Way,
        dice: &mut D,
    ) {
        let Way { from, to, r, full } = *way;
        for o in ground.obstacles_crossed(from, to) {
            if self.n_obst == self.obst.len() {
                break;
            }
            let s = o.b - o.a;
            let t = (o.a - from).cross(s) / r.cross(s);
            let cost = if o.severity <= 0.0 {
                f64::INFINITY
            } else if u.kind.is_horse()
                || u.kind.is_gun()
                || (u.kind == UnitKind::Dragoons && u.formation != Formation::Dismounted)
            {
                f64::from(dice.sum_d6(u32::from(rules.movement.linear_obstacle_cost_horse_dice)))
                    * o.severity
            } else {
                rules.movement.linear_obstacle_cost_foot * o.severity
            };
            self.obst[self.n_obst] = (t * full, cost);
            self.n_obst += 1;
            self.cut(t * full);
        }
    }

    /// Marches along the leg piece by piece (cuts and obstacles sorted), paying for each
    /// obstacle as it is reached, until the allowance runs out.
    fn march(&self, ground: &Ground, way: &Way, allowance: f64) -> Leg {
        let Way { from, r, full, .. } = *way;
        let dir = r.norm();
        let mut pos = 0.0;
        let mut spent = 0.0;
        let mut next_obst = 0;
        let mut next_cut = 0;
        let mut crossed = 0u8;
        let mut disordered = false;
        'legs: loop {
            while next_obst < self.n_obst && self.obst[next_obst].0 <= pos + 1e-9 {
                let c = self.obst[next_obst].1;
                if spent + c > allowance {
                    break 'legs;
                }
                spent += c;
                crossed += 1;
                disordered = true;
                next_obst += 1;
            }
            if pos >= full {
                break;
            }
            while next_cut < self.n_cuts && self.cuts[next_cut] <= pos + 1e-9 {
                next_cut += 1;
            }
            let end = if next_cut < self.n_cuts {
                self.cuts[next_cut].min(full)
            } else {
                full
            };
            let mid = from + dir * ((pos + end) / 2.0);
            let factor = self.slow[..self.n_near]
                .iter()
                .filter(|(i, _)| ground.areas[*i].contains(mid))
                .fold(1.0f64, |m, &(_, f)| m.min(f));
            let cost = (end - pos) / factor;
            if spent + cost > allowance + 1e-9 {
                // Part of this piece.
                let left = (allowance - spent).max(0.0);
                if left > 0.0 && factor < 1.0 {
                    disordered = true;
                }
                pos += left * factor;
                spent = allowance;
                break;
            }
            if factor < 1.0 {
                disordered = true;
            }
            spent += cost;
            pos = end;
        }
        Leg {
            distance: pos.min(full),
            spent,
            disordered,
            obstacles: crossed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::{FootBalance, GunWeight, Side};
    use crate::dice::ScriptedDice;

    /// A walk over the areas' boxes worked out beforehand goes exactly as far, spends exactly
    /// as much and throws the same dice as one that works them out: random legs of every unit
    /// of the built-in battles over their ground, in and out of bogs, woods and obstacles.
    #[test]
    fn a_walk_with_the_boxes_known_goes_as_one_that_works_them_out() {
        use crate::dice::SeededDice;
        let mut seed = 5u64;
        let mut rnd = move || {
            seed = crate::dice::mix64(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut slowed = 0;
        for name in ["marston_moor", "edgehill", "naseby", "small_action"] {
            let setup = crate::scenario::Scenario::load_builtin(name, &[])
                .and_then(|s| s.setup())
                .expect("built-in scenario");
            let ground = &setup.ground;
            let boxes: Vec<_> = ground
                .areas
                .iter()
                .map(|a| Bounds::of_polygon(&a.points))
                .collect();
            let terrain = Terrain {
                ground,
                boxes: &boxes,
            };
            for i in 0..3_000u64 {
                let u = &setup.units[i as usize % setup.units.len()];
                let at = |r: f64, s: f64| Vec2::new(r * ground.width, s * ground.depth);
                let from = at(rnd(), rnd());
                let to = from + (at(rnd(), rnd()) - from) * rnd();
                let allowance = rnd() * 24.0;
                let (mut d1, mut d2) = (SeededDice::stream(i, 3), SeededDice::stream(i, 3));
                let a = walk(&setup.rules, ground, u, from, to, allowance, &mut d1);
                let b = walk_on(&setup.rules, terrain, u, from, to, allowance, &mut d2);
                assert_eq!(
                    (
                        a.distance.to_bits(),
                        a.spent.to_bits(),
                        a.disordered,
                        a.obstacles
                    ),
                    (
                        b.distance.to_bits(),
                        b.spent.to_bits(),
                        b.disordered,
                        b.obstacles
                    ),
                    "{name}: unit {} from {from:?} to {to:?}",
                    u.id
                );
                assert_eq!(d1.rolled(), d2.rolled());
                slowed += usize::from(a.disordered);
            }
        }
        assert!(slowed > 1_000, "only {slowed} legs crossed slow ground");
    }

    #[test]
    fn foot_rates_scale_with_cv_and_cap() {
        let r = IronsidesRules::builtin();
        let mut u = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Foot(FootBalance::Normal),
            6,
        );
        assert_eq!(move_allowance(&r, &u, false), 10.0);
        u.cv = 3;
        assert_eq!(move_allowance(&r, &u, false), 6.0);
        assert_eq!(
            move_allowance(&r, &u, true),
            10.0,
            "moving away uses the starting CV"
        );
        u.formation = Formation::MarchColumn;
        assert_eq!(move_allowance(&r, &u, false), 12.0);
    }

    #[test]
    fn unlimbered_guns_move_by_prolonge_only() {
        let r = IronsidesRules::builtin();
        let mut g = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Artillery(GunWeight::Heavy),
            5,
        );
        assert_eq!(unlimber(&r, &mut g), Some(0.0));
        assert_eq!(move_allowance(&r, &g, false), 0.0);
        assert_eq!(unlimber(&r, &mut g), None);
        let _ = ScriptedDice::new(&[]);
    }

    #[test]
    fn area_costs_are_exact_whatever_the_leg_length() {
        use crate::army::HorseKind;
        use crate::battlefield::Area;
        let r = IronsidesRules::builtin();
        let horse = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Horse(HorseKind::Trotters),
            6,
        );
        let sq = |kind, y0: f64, y1: f64| Area {
            kind,
            points: vec![
                Vec2::new(-5.0, y0),
                Vec2::new(5.0, y0),
                Vec2::new(5.0, y1),
                Vec2::new(-5.0, y1),
            ],
        };
        let mut ground = Ground::open(72.0, 48.0);
        ground.areas.push(sq(AreaKind::Bog, 1.0, 4.0));
        let mut d = ScriptedDice::new(&[]);
        for len in [9.0, 13.0, 18.0, 21.7, 40.0] {
            let leg = walk(
                &r,
                &ground,
                &horse,
                Vec2::new(0.0, 0.0),
                Vec2::new(0.0, len),
                18.0,
                &mut d,
            );
            assert!(
                (leg.distance - 9.0).abs() < 1e-9 && (leg.spent - 18.0).abs() < 1e-9,
                "{len}: {leg:?}"
            );
            assert!(leg.disordered);
        }
        // Stopping short of the bog: not disordered.
        let leg = walk(
            &r,
            &ground,
            &horse,
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 30.0),
            1.0,
            &mut d,
        );
        assert!(
            (leg.distance - 1.0).abs() < 1e-9 && !leg.disordered,
            "{leg:?}"
        );
        // Hills cost nothing and do not disorder.
        let mut hill = Ground::open(72.0, 48.0);
        hill.areas.push(sq(AreaKind::Hill, 1.0, 4.0));
        let leg = walk(
            &r,
            &hill,
            &horse,
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 30.0),
            18.0,
            &mut d,
        );
        assert!(
            (leg.distance - 18.0).abs() < 1e-9 && !leg.disordered,
            "{leg:?}"
        );
        d.finish();
    }
}

//! Step 7, movement: rates, formation changes, unlimbering, terrain costs and disorder.

use crate::army::{Formation, HorseKind, Unit, UnitKind};
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
        (UnitKind::Dragoons, Formation::Dismounted) | (UnitKind::ForlornHope, _) => (cv * m.skirmisher_per_cv).min(m.skirmisher_max),
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
    let mounted = u.kind.is_horse() || (u.kind == UnitKind::Dragoons && u.formation != Formation::Dismounted) || u.kind.is_gun();
    match kind {
        AreaKind::Rough => if mounted { m.rough_factor_horse } else { m.rough_factor_foot },
        AreaKind::Bog => if mounted { m.bog_factor_horse } else { m.bog_factor_foot },
        AreaKind::Woods => m.woods_factor,
        AreaKind::Road => m.road_factor,
        _ => 1.0,
    }
}

/// Walks from `from` towards `to` with `allowance` inches: each inch of rough ground, bog or
/// woods costs 1/factor inches; each linear obstacle costs 2" (foot) or D6" (horse), times its
/// severity; an impassable obstacle (severity 0) stops the unit short of it.
pub fn walk<D: DiceSource>(rules: &IronsidesRules, ground: &Ground, u: &Unit, from: Vec2, to: Vec2, allowance: f64, dice: &mut D) -> Leg {
    let full = from.dist(to);
    if full <= 0.0 || allowance <= 0.0 {
        return Leg { distance: 0.0, spent: 0.0, disordered: false, obstacles: 0 };
    }
    let dir = (to - from).norm();
    // Cost of the whole leg by parts: extra cost of each area over its length inside.
    let mut extra_per_inch: [(f64, f64, f64); 16] = [(0.0, 0.0, 0.0); 16]; // (t0, t1, factor)
    let mut n_areas = 0;
    let mut disordered = false;
    for area in &ground.areas {
        let f = ground_factor(rules, u, area.kind);
        if (f - 1.0).abs() < 1e-12 || n_areas == extra_per_inch.len() {
            continue;
        }
        let inside = area.length_inside(from, to);
        if inside > 0.0 {
            // Approximate the area's part of the leg as a single span starting where it enters.
            let mut t0 = 0.0;
            let steps = 64;
            for i in 0..=steps {
                let t = full * f64::from(i) / f64::from(steps);
                if area.contains(from + dir * t) {
                    t0 = t;
                    break;
                }
            }
            extra_per_inch[n_areas] = (t0, t0 + inside, f);
            n_areas += 1;
        }
    }
    // Obstacles along the leg, by distance.
    let mut obst: [(f64, f64); 16] = [(0.0, 0.0); 16];
    let mut n_obst = 0;
    for o in ground.obstacles_crossed(from, to) {
        if n_obst == obst.len() {
            break;
        }
        let r = to - from;
        let s = o.b - o.a;
        let t = (o.a - from).cross(s) / r.cross(s);
        let cost = if o.severity <= 0.0 {
            f64::INFINITY
        } else if u.kind.is_horse() || u.kind.is_gun() || (u.kind == UnitKind::Dragoons && u.formation != Formation::Dismounted) {
            f64::from(dice.sum_d6(u32::from(rules.movement.linear_obstacle_cost_horse_dice))) * o.severity
        } else {
            rules.movement.linear_obstacle_cost_foot * o.severity
        };
        obst[n_obst] = (t * full, cost);
        n_obst += 1;
    }
    obst[..n_obst].sort_by(|a, b| a.0.total_cmp(&b.0));
    // March along in small steps, paying as we go.
    let step: f64 = 0.25;
    let mut pos = 0.0;
    let mut spent = 0.0;
    let mut next_obst = 0;
    let mut crossed = 0u8;
    while pos < full {
        if next_obst < n_obst && obst[next_obst].0 <= pos + 1e-9 {
            let c = obst[next_obst].1;
            if spent + c > allowance {
                break;
            }
            spent += c;
            crossed += 1;
            disordered = true;
            next_obst += 1;
            continue;
        }
        let mut d = step.min(full - pos);
        if next_obst < n_obst {
            d = d.min(obst[next_obst].0 - pos).max(1e-6);
        }
        let mid = pos + d / 2.0;
        let mut factor = 1.0;
        for &(t0, t1, f) in &extra_per_inch[..n_areas] {
            if mid >= t0 && mid <= t1 {
                factor = f64::min(factor, f);
                if f < 1.0 {
                    disordered = true;
                }
            }
        }
        let cost = d / factor;
        if spent + cost > allowance + 1e-9 {
            // Partial step.
            let left = (allowance - spent).max(0.0);
            pos += left * factor;
            spent = allowance;
            break;
        }
        spent += cost;
        pos += d;
    }
    let skirmisher = u.is_skirmisher();
    Leg { distance: pos.min(full), spent, disordered: disordered && !skirmisher, obstacles: crossed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::{FootBalance, GunWeight, Side};
    use crate::dice::ScriptedDice;

    #[test]
    fn foot_rates_scale_with_cv_and_cap() {
        let r = IronsidesRules::builtin();
        let mut u = Unit::new(0, Side::Parliament, 0, UnitKind::Foot(FootBalance::Normal), 6);
        assert_eq!(move_allowance(&r, &u, false), 10.0);
        u.cv = 3;
        assert_eq!(move_allowance(&r, &u, false), 6.0);
        assert_eq!(move_allowance(&r, &u, true), 10.0, "moving away uses the starting CV");
        u.formation = Formation::MarchColumn;
        assert_eq!(move_allowance(&r, &u, false), 12.0);
    }

    #[test]
    fn unlimbered_guns_move_by_prolonge_only() {
        let r = IronsidesRules::builtin();
        let mut g = Unit::new(0, Side::Parliament, 0, UnitKind::Artillery(GunWeight::Heavy), 5);
        assert_eq!(unlimber(&r, &mut g), Some(0.0));
        assert_eq!(move_allowance(&r, &g, false), 0.0);
        assert_eq!(unlimber(&r, &mut g), None);
        let _ = ScriptedDice::new(&[]);
    }
}

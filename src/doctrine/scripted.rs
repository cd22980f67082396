//! [`ParamAi`]: every decision from the command's doctrine parameters. Decisions are made in a
//! fixed order and break ties by unit id, so a battle replays exactly from its seed.

use super::ai::{Doctrine, Order, ParamAi, Responses, command_doctrine};
use super::params::{DoctrineParams, RallyPriority, TargetPreference};
use crate::army::{CommandKind, CommanderId, Formation, Side, Unit, UnitId, UnitKind};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::Shape;
use crate::dice::DiceSource;
use crate::events::Response;
use crate::rules::ironsides::battle::View;
use crate::rules::ironsides::battle::command::GeneralOrder;
use crate::rules::ironsides::movement;

/// Unit vector from a side's army towards the enemy's.
fn forward(v: &View, side: Side) -> Vec2 {
    (v.battle.centroid(side.other()) - v.battle.centroid(side)).norm()
}

fn doctrine_of<'a>(v: &View<'a>, u: UnitId) -> &'a DoctrineParams {
    command_doctrine(v, v.battle.units[usize::from(u)].command)
}

/// How much a doctrine likes this enemy as a target besides its distance (the score is the
/// distance plus these, lower is better): the doctrine's preference and the bonus for broken
/// troops.
fn score_bias(d: &DoctrineParams, enemy: &Unit) -> (f64, f64) {
    let pref = match d.target {
        TargetPreference::Nearest => 0.0,
        TargetPreference::Weakest => f64::from(enemy.cv) * 4.0,
        TargetPreference::Horse if enemy.is_cavalry() => -12.0,
        TargetPreference::Foot if enemy.kind.is_foot() => -12.0,
        TargetPreference::Guns if enemy.kind.is_gun() => -12.0,
        TargetPreference::Broken if enemy.broken => -12.0,
        _ => 0.0,
    };
    let broken = if enemy.broken { -3.0 } else { 0.0 };
    (pref, broken)
}

/// The least `pref + broken` of `score_bias` for any enemy under this doctrine.
fn least_bias(d: &DoctrineParams) -> f64 {
    let pref = match d.target {
        TargetPreference::Nearest | TargetPreference::Weakest => 0.0,
        TargetPreference::Horse
        | TargetPreference::Foot
        | TargetPreference::Guns
        | TargetPreference::Broken => -12.0,
    };
    pref - 3.0
}

/// The best enemy for a unit, if any, with its distance (`distance(u, target)` to the bit).
fn best_target(v: &View, d: &DoctrineParams, u: UnitId) -> Option<(UnitId, f64)> {
    let b = v.battle;
    let side = b.units[usize::from(u)].side;
    let me = b.shape(u);
    if b.in_cells() {
        return best_target_in_cells(v, d, u, &me);
    }
    // The least (score, id). Start from the nearest enemy: the best target of most doctrines
    // and a close bound for the rest (exact: every other enemy is tested against it).
    // When the cache would have to measure every enemy for it, the enemy with the nearest
    // centre is a start nearly as good at a fraction of the cost.
    let seed = if let Some(nearest) = b.nearest_known_enemy(u) {
        nearest
    } else {
        b.with_spots(side.other(), |spots| {
            let mut seed: Option<(f64, UnitId)> = None;
            for s in spots {
                if !s.active {
                    continue;
                }
                let c = s.centre - me.centre;
                let q = c.dot(c);
                if seed.is_none_or(|(sq, _)| q < sq) {
                    seed = Some((q, s.id));
                }
            }
            seed.map(|(_, e)| (me.dist(&b.shape(e)), e))
        })
    };
    let Some((near, hint)) = seed else {
        // No active enemy (the scan makes sure of it).
        return best_target_scan(v, d, &me, side.other());
    };
    let (start, reach, seek) = search_from(b, d, &me, u, (near, hint));
    // (The best kept in the scan's own locals, so that it stays in registers.)
    let (_, t, dist) = b.with_spots(side.other(), |spots| {
        let (mut best, mut reach) = (start, reach);
        for s in spots {
            better_target(&seek, s, &mut best, &mut reach);
        }
        best
    });
    Some((t, dist))
}

/// `best_target` in a battle with cells: started from an enemy among those whose centres are
/// nearest (unless the nearest is known), it looks only at the enemies whose centres lie
/// within `reach` plus their radius, as `reach` narrows (the least (score, id) is the same in
/// any order; a score that is not a number bounds nothing, and every enemy is looked at).
#[inline(never)] // (out of the small battles' path, whose code it would otherwise change)
fn best_target_in_cells(
    v: &View,
    d: &DoctrineParams,
    u: UnitId,
    me: &Shape,
) -> Option<(UnitId, f64)> {
    let b = v.battle;
    let enemy = b.units[usize::from(u)].side.other();
    let seed = b.nearest_known_enemy(u).unwrap_or_else(|| {
        b.some_unit_near(enemy, me.centre)
            .map(|(_, e)| (me.dist(&b.shape(e)), e))
    });
    let Some((near, hint)) = seed else {
        return best_target_scan(v, d, me, enemy);
    };
    let (mut best, mut reach, seek) = search_from(b, d, me, u, (near, hint));
    b.spots_in_circle(enemy, me.centre, reach, |s| {
        better_target(&seek, s, &mut best, &mut reach);
        reach
    });
    Some((best.1, best.2))
}

/// Where `best_target` starts from its first enemy (`hint`, `near` from unit `u`): the best so
/// far (score, id, distance); the reach beyond which an enemy's enclosing circle alone scores
/// worse (the score is the distance plus fixed terms; the margin keeps rounding on the safe
/// side); and what each enemy is tested with.
fn search_from<'a>(
    b: &'a crate::rules::ironsides::battle::Battle,
    d: &'a DoctrineParams,
    me: &'a Shape,
    u: UnitId,
    (near, hint): (f64, UnitId),
) -> ((f64, UnitId, f64), f64, Seeker<'a>) {
    // The start comes with its exact distance (the same number `distance` gives).
    debug_assert_eq!(near.to_bits(), b.distance(u, hint).to_bits());
    let (pref, broken) = score_bias(d, &b.units[usize::from(hint)]);
    let least = least_bias(d);
    let start = (near + pref + broken, hint, near);
    let reach = start.0 - least + me.radius + 1e-9;
    let seek = Seeker {
        b,
        d,
        me,
        hint,
        least,
    };
    (start, reach, seek)
}

/// What `best_target` reads as it tests each enemy: the battle, the doctrine, the unit's shape,
/// the enemy it started from (`hint`, already counted) and the least bias any enemy has.
#[derive(Clone, Copy)]
struct Seeker<'a> {
    b: &'a crate::rules::ironsides::battle::Battle,
    d: &'a DoctrineParams,
    me: &'a Shape,
    hint: UnitId,
    least: f64,
}

/// `best_target`'s test of one enemy `s`: makes it the best (the least (score, id), with its
/// distance) if it is better, and narrows `reach` to match.
#[inline(always)]
fn better_target(
    seek: &Seeker<'_>,
    s: &crate::rules::ironsides::battle::cache::Spot,
    best: &mut (f64, UnitId, f64),
    reach: &mut f64,
) {
    let Seeker {
        b,
        d,
        me,
        hint,
        least,
    } = *seek;
    // The circles first, before whether the enemy is active: they rule out nearly every one.
    let need = *reach + s.radius;
    let c = s.centre - me.centre;
    if need < 0.0 || c.dot(c) > need * need || !s.active || s.id == hint {
        return;
    }
    let (pref, broken) = score_bias(d, &b.units[usize::from(s.id)]);
    // The circles' test again with this enemy's own terms, not the least any enemy has
    // (most enemies lack the doctrine's favourite kind): the same bound and margin.
    let need = best.0 - (pref + broken) + me.radius + s.radius + 1e-9;
    if need < 0.0 || c.dot(c) > need * need {
        return;
    }
    // A closer bound: no point of the enemy is nearer than its centre less its radius.
    if me.dist_to_point(s.centre) - s.radius + pref + broken > best.0 + 1e-9 {
        return;
    }
    // Closer still: the widest gap between the two rectangles' shadows on their axes.
    let es = b.shape(s.id);
    if me.gap_lower_bound(&es) + pref + broken > best.0 + 2e-9 {
        return;
    }
    let dist = me.dist(&es);
    let score = dist + pref + broken;
    if score.total_cmp(&best.0).then(s.id.cmp(&best.1)).is_lt() {
        *best = (score, s.id, dist);
        *reach = best.0 - least + me.radius + 1e-9;
    }
}

/// `best_target` measuring every active enemy, for when none was found to start from.
fn best_target_scan(
    v: &View,
    d: &DoctrineParams,
    me: &Shape,
    enemy: Side,
) -> Option<(UnitId, f64)> {
    let b = v.battle;
    b.with_spots(enemy, |spots| {
        let mut best: Option<(f64, UnitId, f64)> = None;
        for s in spots.iter().filter(|s| s.active) {
            let (pref, broken) = score_bias(d, &b.units[usize::from(s.id)]);
            let dist = me.dist(&b.shape(s.id));
            let score = dist + pref + broken;
            if best.is_none_or(|(bs, id, _)| score.total_cmp(&bs).then(s.id.cmp(&id)).is_lt()) {
                best = Some((score, s.id, dist));
            }
        }
        best.map(|(_, t, dist)| (t, dist))
    })
}

/// Whether an active enemy horse unit is nearer than `limit` to unit `u`.
fn horse_closer_than(v: &View, u: UnitId, limit: f64) -> bool {
    let b = v.battle;
    let me = b.shape(u);
    let r = Vec2::new(limit + me.radius, limit + me.radius);
    let mut found = false;
    b.spots_scan(
        b.units[usize::from(u)].side.other(),
        me.centre - r,
        me.centre + r,
        |s| {
            // One whose enclosing circle is `limit` or more from this unit's is no nearer.
            let reach = limit + me.radius + s.radius;
            let c = s.centre - me.centre;
            found = s.active
                && c.dot(c) < reach * reach
                && b.units[usize::from(s.id)].is_cavalry()
                && b.closer_than(u, s.id, limit);
            !found
        },
    );
    found
}

/// The order of unit `u` against its target `t`, `dist` away: dragoons dismount and
/// skirmishers stand at musket range; a charge where the doctrine allows and the move
/// reaches; a cautious hold near the enemy early on; foot halts at volley range; else a
/// dressed advance.
fn order_on_target(v: &View, d: &DoctrineParams, u: UnitId, (t, dist): (UnitId, f64)) -> Order {
    let b = v.battle;
    let unit = &b.units[usize::from(u)];
    let target = &b.units[usize::from(t)];
    // Skirmishers and dragoons fight on foot at musket range.
    if unit.kind == UnitKind::Dragoons && unit.formation != Formation::Dismounted && dist < 8.0 {
        return Order::Form(Formation::Dismounted);
    }
    if unit.is_skirmisher() {
        let long = v.setup.rules.fire.ranges.skirmishers.long;
        return if dist > long {
            Order::Advance { to: target.pos }
        } else {
            Order::Hold
        };
    }
    // Charge: not foot against horse, strong enough, within reach this turn.
    let ratio = f64::from(unit.cv) / f64::from(target.cv.max(1));
    let may_charge = !(unit.kind.is_foot() && target.is_cavalry())
        && unit.cv >= d.charge_min_cv
        && (!d.attack_only_broken || target.broken || target.cv <= 2);
    if may_charge
        && dist <= movement::move_allowance(&v.setup.rules, unit, false)
        && ratio >= d.charge_ratio
        && !unit.disordered
    {
        return Order::Charge { target: t };
    }
    if d.aggression < 0.5 && dist < 12.0 && b.turn < d.advance_from_turn + 2 {
        return Order::Hold;
    }
    // Foot halts at volley range; others close.
    if unit.kind.is_foot() && dist <= v.setup.rules.fire.ranges.infantry.short + 0.5 {
        // It stands to fire: its nearest enemy, asked for again and again from here (and
        // not always worked out by best_target), is kept known.
        let _ = b.nearest_enemy_distance(u);
        return Order::Hold;
    }
    dressed_advance(v, d, u, target.pos)
}

/// The Captain-General's order: a doctrine that leads from the front joins the wing nearest
/// the enemy once battle is near ("Fairfax joins the right wing horse": its commander is
/// silenced and its units fight at +1 CV while he stays); otherwise he watches from behind
/// the centre of his subordinates.
fn captain_general_order(v: &View, g: CommanderId) -> GeneralOrder {
    let b = v.battle;
    let c = &b.commanders[usize::from(g)];
    let cg = &v.setup.doctrines[usize::from(v.setup.cg_doctrine[c.side.index()])];
    if cg.general_leads
        && let Some((_, join, at)) = b
            .commands
            .iter()
            .filter(|k| k.side == c.side && k.kind != CommandKind::Independent)
            .filter_map(|k| {
                let (mut s, mut n, mut near) = (Vec2::new(0.0, 0.0), 0.0, f64::INFINITY);
                for &u in k
                    .units
                    .iter()
                    .filter(|&&u| b.units[usize::from(u)].is_active())
                {
                    s = s + b.units[usize::from(u)].pos;
                    n += 1.0;
                    near = near.min(b.nearest_enemy_distance(u));
                }
                (n > 0.0).then(|| (near, k.id, s * (1.0 / n)))
            })
            .min_by(|a, z| a.0.total_cmp(&z.0).then(a.1.cmp(&z.1)))
            .filter(|(near, join, _)| {
                *near <= cg.general_leads_within || c.attached_command == Some(*join)
            })
    {
        return GeneralOrder {
            to: at,
            attach: None,
            join: Some(join),
        };
    }
    // Otherwise he watches from behind the centre of his subordinates.
    let (mut s, mut n) = (Vec2::new(0.0, 0.0), 0.0);
    for o in b
        .commanders
        .iter()
        .filter(|o| o.side == c.side && !o.is_captain_general && o.available())
    {
        s = s + o.pos;
        n += 1.0;
    }
    let centre = if n > 0.0 {
        s * (1.0 / n)
    } else {
        b.centroid(c.side)
    };
    GeneralOrder {
        to: centre - forward(v, c.side) * 4.0,
        attach: None,
        join: None,
    }
}

/// A leading general's order: he stays with the unit he leads while it is fit (changing costs
/// 12" each way), else leads the strongest unit nearest the enemy once battle is near; none
/// when there is none to lead.
fn leading_order(
    v: &View,
    d: &DoctrineParams,
    g: CommanderId,
    units: &[UnitId],
) -> Option<GeneralOrder> {
    let b = v.battle;
    let c = &b.commanders[usize::from(g)];
    // A unit fit to lead: on the table, not broken, not haring off in pursuit.
    let fit = |u: UnitId| {
        let x = &b.units[usize::from(u)];
        x.is_active() && !x.broken && x.pursuing == 0
    };
    // He stays with the unit he leads while it is fit: changing costs 12" each way.
    if let Some(u) = c.attached_unit
        && fit(u)
    {
        return Some(GeneralOrder {
            to: b.units[usize::from(u)].pos,
            attach: Some(u),
            join: None,
        });
    }
    // Else he leads the strongest unit nearest the enemy once battle is near.
    let lead = units
        .iter()
        .filter(|&&u| fit(u))
        .map(|&u| {
            let near = b.nearest_enemy_distance(u);
            (near - 2.0 * f64::from(b.units[usize::from(u)].cv), u, near)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    if let Some((_, u, near)) = lead
        && (near <= d.general_leads_within || c.attached_unit == Some(u))
    {
        return Some(GeneralOrder {
            to: b.units[usize::from(u)].pos,
            attach: Some(u),
            join: None,
        });
    }
    None
}

/// A gun's order: limbered, it is sited where an enemy is already in reach, else brought
/// forward in support and sited at the end of the move (E7); sited, it holds.
fn gun_order(v: &View, u: UnitId) -> Order {
    let b = v.battle;
    let unit = &b.units[usize::from(u)];
    if unit.formation != Formation::Limbered {
        return Order::Hold;
    }
    let mut sited = unit.clone();
    sited.formation = Formation::Unlimbered;
    let reach = crate::rules::ironsides::fire::max_range(&v.setup.rules, &sited);
    if b.nearest_enemy_distance(u) <= reach {
        Order::Unlimber
    } else {
        Order::Site {
            to: unit.pos + forward(v, unit.side) * 12.0,
        }
    }
}

/// A reserve unit's order: follow the nearest unit of its command's first line at the
/// doctrine's distance, or hold there.
fn follow_the_first_line(v: &View, d: &DoctrineParams, u: UnitId) -> Order {
    let b = v.battle;
    let unit = &b.units[usize::from(u)];
    let first = b.commands[usize::from(unit.command)]
        .units
        .iter()
        .filter(|&&o| o != u && b.units[usize::from(o)].is_active() && !in_reserve(v, d, o))
        .map(|&o| (b.units[usize::from(o)].pos.dist(unit.pos), o))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    match first {
        Some((gap, o)) if gap > d.second_line_distance + 1.5 => {
            let to = b.units[usize::from(o)].pos - forward(v, unit.side) * d.second_line_distance;
            Order::Advance { to }
        }
        _ => Order::Hold,
    }
}

/// Whether a unit is held back in its command's second line or reserve.
fn in_reserve(v: &View, d: &DoctrineParams, u: UnitId) -> bool {
    if d.reserve_fraction <= 0.0 || v.battle.turn >= d.commit_reserve_turn.max(1) {
        return false;
    }
    let b = v.battle;
    let cmd = b.units[usize::from(u)].command;
    let units = &b.commands[usize::from(cmd)].units;
    // While the orders are given nothing moves: the command's answer is worked out once.
    if units.len() <= 64
        && let Some(k) = units.iter().position(|&o| o == u)
    {
        let mask = match b.reserve_memo(cmd) {
            Some(m) => m,
            None => {
                let m = reserve_mask(v, d, units);
                b.set_reserve_memo(cmd, m);
                m
            }
        };
        return mask >> k & 1 == 1;
    }
    in_reserve_alone(v, d, u, units)
}

/// `in_reserve` for one unit of a command, measured alone.
fn in_reserve_alone(v: &View, d: &DoctrineParams, u: UnitId, units: &[UnitId]) -> bool {
    let b = v.battle;
    // First-line losses commit the reserve.
    let (mut lost, mut start) = (0u32, 0u32);
    let mut rank = 0;
    let mut n = 0;
    let my_d = b.nearest_enemy_distance(u);
    for &o in units {
        let ou = &b.units[usize::from(o)];
        n += 1;
        start += u32::from(ou.start_cv);
        lost += u32::from(ou.start_cv - ou.cv.min(ou.start_cv))
            + if ou.is_active() { 0 } else { u32::from(ou.cv) };
        if o != u && ou.is_active() && (b.nearest_enemy_distance(o), o) < (my_d, u) {
            rank += 1;
        }
    }
    if start > 0 && f64::from(lost) >= d.commit_reserve_when_lost * f64::from(start) {
        return false;
    }
    let reserve = (n as f64 * d.reserve_fraction).floor() as usize;
    rank >= n as usize - reserve
}

/// `in_reserve` for every active unit of a command (at most 64) at once: bit k for `units[k]`.
/// The same answers, each unit ranked by its nearest enemy's distance among the active units
/// (the bits of inactive units are never asked for, and their distances are not needed).
fn reserve_mask(v: &View, d: &DoctrineParams, units: &[UnitId]) -> u64 {
    let b = v.battle;
    let (mut lost, mut start) = (0u32, 0u32);
    let mut active = 0;
    for &o in units {
        let ou = &b.units[usize::from(o)];
        start += u32::from(ou.start_cv);
        lost += u32::from(ou.start_cv - ou.cv.min(ou.start_cv))
            + if ou.is_active() { 0 } else { u32::from(ou.cv) };
        active += usize::from(ou.is_active());
    }
    if start > 0 && f64::from(lost) >= d.commit_reserve_when_lost * f64::from(start) {
        return 0;
    }
    let n = units.len();
    let reserve = (n as f64 * d.reserve_fraction).floor() as usize;
    // An active unit's rank is below the number of active units: with no more of them than
    // the first line holds, none is in reserve.
    if active <= n - reserve {
        return 0;
    }
    let mut near = [f64::INFINITY; 64];
    for (k, &o) in units.iter().enumerate() {
        if b.units[usize::from(o)].is_active() {
            near[k] = b.nearest_enemy_distance(o);
        }
    }
    let mut mask = 0u64;
    for (k, &u) in units.iter().enumerate() {
        if !b.units[usize::from(u)].is_active() {
            continue;
        }
        let rank = units
            .iter()
            .enumerate()
            .filter(|&(j, &o)| {
                o != u && b.units[usize::from(o)].is_active() && (near[j], o) < (near[k], u)
            })
            .count();
        if rank >= n - reserve {
            mask |= 1 << k;
        }
    }
    mask
}

/// The dice as a doctrine weighs a move before making it: each die its rounded-up average (an
/// obstacle's D6" counts 4"). A doctrine never reads the dice to come.
struct Expected;

impl DiceSource for Expected {
    fn d6(&mut self) -> u8 {
        4
    }
    fn rolled(&self) -> u64 {
        0
    }
    fn below(&mut self, n: u32) -> u32 {
        n / 2
    }
}

/// Whether `o` can step off with `u`'s line this turn: same command and arm, free to move,
/// facing the same way (within the engine's wheel limit), not held in the second line.
fn may_dress_with(v: &View, d: &DoctrineParams, u: UnitId, o: UnitId) -> bool {
    let b = v.battle;
    let (a, m) = (&b.units[usize::from(u)], &b.units[usize::from(o)]);
    m.is_active()
        && m.command == a.command
        && m.is_cavalry() == a.is_cavalry()
        && !m.kind.is_gun()
        && !m.broken
        && !m.pinned
        && m.pursuing == 0
        && !m.move_spent_next_turn
        && m.formation != Formation::Hedgehog
        && b.facing_vector(o).dot(b.facing_vector(u)) >= LINE_FACING_COS
        && !in_reserve(v, d, o)
}

/// Facing within about 23 degrees counts as the same way (the engine's wheel limit).
const LINE_FACING_COS: f64 = 0.92;

/// E6: "a line moving together moves at the pace of its slowest unit". The line is `u` and
/// every unit that may step off with it standing side by side with gaps of up to
/// `leadership.group_gap` (the engine's 1-LP group); its pace is the least distance any of them
/// would make straight ahead this turn over the ground in front of it.
fn line_pace(v: &View, d: &DoctrineParams, u: UnitId) -> f64 {
    let b = v.battle;
    let rules = &*v.setup.rules;
    let units = &b.commands[usize::from(b.units[usize::from(u)].command)].units;
    // The line, grown outwards from `u` (a command's units fit in 64 bits) over the units
    // that may step off with it (`rest`: asked once each, as the answer does not depend on
    // where the line has grown).
    let mut line = 0u64;
    let mut stack = [u; 64];
    let mut top = 1;
    if let Some(k) = units.iter().position(|&o| o == u) {
        line |= 1 << k;
    }
    let mut rest = units
        .iter()
        .take(64)
        .enumerate()
        .filter(|&(k, &o)| line >> k & 1 == 0 && may_dress_with(v, d, u, o))
        .fold(0u64, |m, (k, _)| m | 1 << k);
    while top > 0 {
        top -= 1;
        let at = stack[top];
        let mut left = rest;
        while left != 0 {
            let k = left.trailing_zeros() as usize;
            left &= left - 1;
            let o = units[k];
            if b.within(at, o, rules.leadership.group_gap) {
                (line, rest) = (line | 1 << k, rest & !(1 << k));
                stack[top] = o;
                top += 1;
            }
        }
    }
    let mut pace = f64::INFINITY;
    for (k, &o) in units.iter().enumerate().take(64) {
        // A unit that cannot step off at all is not moving with the line.
        if line >> k & 1 == 1 {
            let own = own_pace(v, o);
            if own > 0.0 {
                pace = pace.min(own);
            }
        }
    }
    pace
}

/// How far a unit would go straight ahead this turn over the ground in front of it (kept for
/// the round of orders: nothing moves while they are given).
fn own_pace(v: &View, o: UnitId) -> f64 {
    let b = v.battle;
    if let Some(p) = b.pace_memo(o) {
        return p;
    }
    let rules = &*v.setup.rules;
    let m = &b.units[usize::from(o)];
    let allowance = movement::move_allowance(rules, m, false);
    let ahead = m.pos + b.facing_vector(o) * allowance;
    let leg = movement::walk_on(
        rules,
        b.terrain(v.setup),
        m,
        m.pos,
        ahead,
        allowance,
        &mut Expected,
    );
    b.set_pace_memo(o, leg.distance);
    leg.distance
}

/// An advance on `to`, no farther than the unit's line can keep pace when the doctrine dresses
/// its lines.
fn dressed_advance(v: &View, d: &DoctrineParams, u: UnitId, to: Vec2) -> Order {
    let at = v.battle.units[usize::from(u)].pos;
    let way = to - at;
    if d.dress_lines {
        let pace = line_pace(v, d, u);
        if way.len() > pace {
            return Order::Advance {
                to: at + way.norm() * pace,
            };
        }
    }
    Order::Advance { to }
}

impl Doctrine for ParamAi {
    fn general(&mut self, v: &View, g: CommanderId) -> GeneralOrder {
        let b = v.battle;
        let c = &b.commanders[usize::from(g)];
        let Some(cmd) = c.command else {
            return captain_general_order(v, g);
        };
        let d = command_doctrine(v, cmd);
        let units = &b.commands[usize::from(cmd)].units;
        let (mut s, mut n) = (Vec2::new(0.0, 0.0), 0.0);
        for &u in units
            .iter()
            .filter(|&&u| b.units[usize::from(u)].is_active())
        {
            s = s + b.units[usize::from(u)].pos;
            n += 1.0;
        }
        if n == 0.0 {
            return GeneralOrder {
                to: c.pos,
                attach: None,
                join: None,
            };
        }
        let centre = s * (1.0 / n);
        if d.general_leads
            && let Some(order) = leading_order(v, d, g, units)
        {
            return order;
        }
        GeneralOrder {
            to: centre - forward(v, c.side) * 2.0,
            attach: None,
            join: None,
        }
    }

    fn split_lps(
        &mut self,
        v: &View,
        _cg: CommanderId,
        lps: u8,
        reach: &[bool; 64],
        out: &mut [u8; 64],
    ) {
        *out = [0; 64];
        // Need: units able to act, more for damaged ones.
        let mut need = [0u32; 64];
        for (i, c) in v.battle.commands.iter().enumerate().take(64) {
            if !reach[i] {
                continue;
            }
            for &u in &c.units {
                let unit = &v.battle.units[usize::from(u)];
                if unit.is_active() {
                    need[i] += 1 + u32::from(unit.start_cv - unit.cv.min(unit.start_cv));
                }
            }
        }
        // Only commands that exist have a need.
        let n = v.battle.commands.len().min(64);
        for _ in 0..lps {
            let best = (0..n)
                .filter(|&i| reach[i] && need[i] > 0)
                .max_by_key(|&i| (need[i] * 8 / (u32::from(out[i]) + 1), std::cmp::Reverse(i)));
            match best {
                Some(i) => out[i] += 1,
                None => break,
            }
        }
    }

    fn rally_priority(&mut self, v: &View, u: UnitId) -> i32 {
        let unit = &v.battle.units[usize::from(u)];
        match doctrine_of(v, u).rally_priority {
            RallyPriority::Weakest => i32::from(unit.start_cv) - i32::from(unit.cv),
            RallyPriority::Strongest => i32::from(unit.cv),
            RallyPriority::FrontLine => -(v.battle.nearest_enemy_distance(u).min(1000.0) as i32),
        }
    }

    fn rally_attempts(&mut self, v: &View, u: UnitId) -> u8 {
        let d = doctrine_of(v, u);
        let unit = &v.battle.units[usize::from(u)];
        let missing = unit.start_cv.saturating_sub(unit.cv);
        if d.aggression >= 0.9 && v.battle.nearest_enemy_distance(u) < 12.0 {
            missing.min(1)
        } else {
            missing.min(3)
        }
    }

    fn rerolls_on_rally(&mut self, v: &View, u: UnitId) -> bool {
        doctrine_of(v, u).rerolls_on_rally
    }

    fn order(&mut self, v: &View, u: UnitId) -> Order {
        let b = v.battle;
        let unit = &b.units[usize::from(u)];
        let d = doctrine_of(v, u);
        if unit.kind.is_gun() {
            return gun_order(v, u);
        }
        if unit.broken {
            return Order::Hold;
        }
        if unit.cv <= d.pull_back_cv && b.nearest_enemy_distance(u) < 10.0 {
            return Order::FallBack {
                to: unit.pos - forward(v, unit.side) * 10.0,
            };
        }
        // With no enemy on the table every unit holds. The best target is sought only where it
        // can change the order: not for hedgehogs or the reserve.
        let any_enemy = || b.with_spots(unit.side.other(), |s| s.iter().any(|s| s.active));
        // Foot in hedgehog goes back to line when no horse threatens.
        if unit.formation == Formation::Hedgehog {
            return if !horse_closer_than(v, u, 12.0) && any_enemy() {
                Order::Form(Formation::Line)
            } else {
                Order::Hold
            };
        }
        // Before the advance, units hold; a doctrine that holds its ground engages enemies that
        // come within reach (then the target's distance decides).
        let mut found = None;
        if d.hold_ground_within > 0.0 && b.turn < d.advance_from_turn.max(1) {
            // The target is no nearer than the nearest enemy: with none within reach, hold.
            if !b.enemy_within(u, d.hold_ground_within) {
                return Order::Hold;
            }
            let Some((t, dist)) = best_target(v, d, u) else {
                return Order::Hold;
            };
            // (Before the advance, a target at no measurable distance holds as well.)
            if dist > d.hold_ground_within || (b.turn < d.advance_from_turn && dist.is_nan()) {
                return Order::Hold;
            }
            found = Some((t, dist));
        } else if b.turn < d.advance_from_turn {
            return Order::Hold;
        }
        if in_reserve(v, d, u) {
            if found.is_none() && !any_enemy() {
                return Order::Hold;
            }
            return follow_the_first_line(v, d, u);
        }
        let Some((t, dist)) = found.or_else(|| best_target(v, d, u)) else {
            return Order::Hold;
        };
        order_on_target(v, d, u, (t, dist))
    }

    fn fire_target(&mut self, v: &View, u: UnitId, candidates: &[UnitId]) -> Option<UnitId> {
        let d = doctrine_of(v, u);
        let b = v.battle;
        let unit = &b.units[usize::from(u)];
        // Keep the last shot for a charge when enemy horse is close.
        let shots_left = crate::rules::ironsides::fire::shots_per_turn(&v.setup.rules, unit)
            .saturating_sub(unit.shots_fired);
        if shots_left <= 1 && horse_closer_than(v, u, 14.0) {
            return None;
        }
        // The least (score, id), each score worked out once (a lone candidate needs none); a
        // candidate whose lower bound scores worse than the best so far is not measured.
        if let [only] = candidates {
            return Some(*only);
        }
        let me = b.shape(u);
        let mut best: Option<(f64, UnitId)> = None;
        for &c in candidates {
            let (pref, broken) = score_bias(d, &b.units[usize::from(c)]);
            let es = b.shape(c);
            if best.is_some_and(|(bs, _)| me.gap_lower_bound(&es) + pref + broken > bs + 2e-9) {
                continue;
            }
            let score = me.dist(&es) + pref + broken;
            if best.is_none_or(|(bs, id)| score.total_cmp(&bs).then(c.cmp(&id)).is_lt()) {
                best = Some((score, c));
            }
        }
        best.map(|(_, c)| c)
    }

    fn reaction_rerolls(&mut self, v: &View, u: UnitId, available: u8) -> u8 {
        if doctrine_of(v, u).rerolls_on_reaction {
            available
        } else {
            0
        }
    }

    fn standoff(&mut self, v: &View, target: UnitId, charger: UnitId) -> f64 {
        let d = doctrine_of(v, target);
        let t = &v.battle.units[usize::from(target)];
        if t.is_cavalry() && d.countercharge {
            return 6.0_f64.max(d.standoff_default);
        }
        if v.battle.units[usize::from(charger)].is_cavalry() {
            d.standoff_vs_horse
        } else {
            d.standoff_default
        }
    }

    fn responses(&mut self, v: &View, u: UnitId, charger: UnitId) -> Responses {
        let d = doctrine_of(v, u);
        let b = v.battle;
        let unit = &b.units[usize::from(u)];
        let mut out: Responses = [None; 4];
        let mut k = 0;
        let mut push = |r: Response| {
            if k < out.len() {
                out[k] = Some(r);
                k += 1;
            }
        };
        if unit.disordered {
            push(Response::FormUp);
        }
        if !b.in_front_arc(u, charger) {
            push(Response::ChangeFacing);
        }
        let c = &b.units[usize::from(charger)];
        if unit.is_cavalry() {
            // A spare success after the countercharge becomes the free pistol shot (E16).
            if d.countercharge {
                push(Response::Countercharge);
            }
        } else if unit.is_skirmisher() || unit.kind.is_gun() {
            if unit.kind.is_gun() {
                push(Response::Fire);
            }
            if d.evade {
                push(Response::Evade);
            }
            push(Response::Fire);
        } else {
            if c.is_cavalry() && d.hedgehog_vs_horse && unit.kind.is_foot() {
                push(Response::ChangeFormation);
            }
            push(Response::Fire);
        }
        out
    }

    fn support_charge(&mut self, v: &View, u: UnitId, _charger: UnitId) -> bool {
        let d = doctrine_of(v, u);
        d.support_charges && v.battle.units[usize::from(u)].cv >= d.charge_min_cv
    }

    fn opportunity_charge(&mut self, v: &View, u: UnitId, enemy: UnitId) -> bool {
        let d = doctrine_of(v, u);
        let (me, e) = (
            &v.battle.units[usize::from(u)],
            &v.battle.units[usize::from(enemy)],
        );
        d.support_charges
            && d.aggression >= 0.8
            && me.cv >= d.charge_min_cv
            && f64::from(me.cv) / f64::from(e.cv.max(1)) >= d.charge_ratio
    }

    /// Before the enemy moves, only at a shaken enemy (broken or disordered): a fresh one
    /// would answer with its reaction's countercharge and free shot.
    fn opportunity_charge_at_start(&mut self, v: &View, u: UnitId, enemy: UnitId) -> bool {
        let e = &v.battle.units[usize::from(enemy)];
        (e.broken || e.disordered) && self.opportunity_charge(v, u, enemy)
    }

    /// The doctrine's distance, but no farther than the room behind the unit: a general does
    /// not retire a regiment off its own edge when a shorter retreat keeps it on the table
    /// (the rules' least still applies, and may take it off).
    fn retreat_distance(&mut self, v: &View, u: UnitId) -> f64 {
        let room = v.battle.room_to_retreat(v.setup, u);
        doctrine_of(v, u).retreat_distance.min(room)
    }

    fn take_camp(&mut self, v: &View, u: UnitId) -> bool {
        doctrine_of(v, u).take_camp
    }
}

//! Shooting: each element picks its own target (sleeves included), rolls its dice at 4+ after
//! the seed's modifiers, the target saves on its morale, casualties go against the regiment's
//! stamina; closing fire meets a charge.

use super::{Battle, Target, emit};
use crate::army::Side;
use crate::battlefield::geometry::dist_point_segment;
use crate::battlefield::{AreaKind, Vec2};
use crate::dice::DiceSource;
use crate::events::{Event, LossCause, Observer};
use crate::rules::black_powder::events::Detail;
use crate::rules::black_powder::melee::Aspect;
use crate::rules::black_powder::morale::{self, BreakResult, SaveSituation};
use crate::rules::black_powder::shooting::{self, Shot, max_range};
use crate::rules::black_powder::tables::SpecialRule;
use crate::rules::black_powder::units::{Troop, stats};
use crate::setup::BattleSetup;

impl Battle {
    /// Every element of `side` not in melee shoots at the nearest enemy in range and in its front.
    pub fn shooting_phase<D: DiceSource, O: Observer>(
        &mut self,
        side: Side,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        // Volleys change no regiment's place, melee or presence: the targets stand all phase.
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        for &o in self.side(side.other()) {
            targets.extend(self.target(usize::from(o)));
        }
        let arc = FrontArc::of(self.rules.shooting.front_arc_degrees);
        let spread = Spread::of(&targets);
        let mut near = std::mem::take(&mut self.near_targets);
        // The side's elements in index order (a regiment's elements are consecutive).
        for i in 0..self.side(side).len() {
            let r = usize::from(self.side(side)[i]);
            if !self.near_targets_of(r, (&targets, spread), &mut near) {
                continue;
            }
            let front = self.regiments[r].front;
            for e in self.element_range(r) {
                let reg = &self.regiments[r];
                if reg.gone || reg.engaged.is_some() {
                    continue;
                }
                if let Some(t) = self.target_of(e, &near, (front, arc)) {
                    self.volley(e, t, false, setup, dice, obs);
                }
            }
        }
        self.near_targets = near;
        self.targets = targets;
    }

    /// Fills `near` with the `targets` (in their order) some element of regiment `r` might reach:
    /// the centre within its longest range and both reaches (every element the exact test of
    /// `target_of` keeps is among them). False when it has none, or no element shoots.
    fn near_targets_of(
        &self,
        r: usize,
        (targets, spread): (&[Target], Spread),
        near: &mut Vec<Target>,
    ) -> bool {
        near.clear();
        let reg = &self.regiments[r];
        if reg.gone || reg.engaged.is_some() {
            return false;
        }
        let range = self
            .element_range(r)
            .map(|e| max_range(self.elements[e].troop, &self.rules))
            .fold(0.0, f64::max);
        if range <= 0.0 || spread.beyond(reg.pos, range + reg.reach) {
            return false;
        }
        let lim = range + reg.reach + super::APART_MARGIN;
        let within = |t: &Target| {
            let bound = lim + t.reach;
            let (dx, dy) = (reg.pos.x - t.pos.x, reg.pos.y - t.pos.y);
            dx * dx + dy * dy <= bound * bound
        };
        if targets.len() < self.grid_from {
            for t in targets.iter().filter(|t| within(t)) {
                near.push(*t);
            }
        } else {
            self.targets_in_grid(r, range, within, near);
        }
        !near.is_empty()
    }

    /// The targets in the grid's cells that hold every one within `range` of regiment `r` (as
    /// `apart` bounds) that `keep` keeps, in index order (the targets' order) into `near`: for
    /// many targets, where walking them all would cost more.
    fn targets_in_grid(
        &self,
        r: usize,
        range: f64,
        keep: impl Fn(&Target) -> bool,
        near: &mut Vec<Target>,
    ) {
        let (lo, hi) = self.reach_box(r, range);
        self.grid
            .in_box(self.regiments[r].side.other(), lo, hi, |o| {
                if let Some(t) = self.target(o).filter(&keep) {
                    near.push(t);
                }
            });
        near.sort_unstable_by_key(|t| t.regiment);
    }

    /// Regiment `o` as a target of the shooting phase: not gone and not in melee (volleys
    /// change neither, so what a phase's start listed is what it finds).
    fn target(&self, o: usize) -> Option<Target> {
        let reg = &self.regiments[o];
        (!reg.gone && reg.engaged.is_none()).then_some(Target {
            regiment: o as u16,
            pos: reg.pos,
            reach: reg.reach,
        })
    }

    /// The nearest element of `targets` (enemies not in melee, in index order) in range and in
    /// the front arc (`front` the shooter's facing as a vector).
    fn target_of(
        &self,
        e: usize,
        targets: &[Target],
        (front, arc): (Vec2, FrontArc),
    ) -> Option<usize> {
        let el = &self.elements[e];
        let range = max_range(el.troop, &self.rules);
        if range <= 0.0 {
            return None;
        }
        let reg = &self.regiments[usize::from(el.regiment)];
        let mut best: Option<(usize, f64)> = None;
        for t in targets {
            // Out of range whatever its elements: skip the regiment whole.
            let bound = range + t.reach + el.depth / 2.0;
            let (dx, dy) = (el.pos.x - t.pos.x, el.pos.y - t.pos.y);
            if dx * dx + dy * dy > bound * bound {
                continue;
            }
            for k in self.element_range(usize::from(t.regiment)) {
                let g = self.gap(e, k);
                if g > range || best.is_some_and(|(_, b)| g >= b) {
                    continue;
                }
                if arc.outside(reg.facing, front, el.pos, self.elements[k].pos) {
                    continue;
                }
                best = Some((k, g));
            }
        }
        best.map(|(k, _)| k)
    }

    /// Whether another element than shooter and target lies within the not-clear gap of the
    /// line of fire: (a friend of the shooter's, an enemy). Unless `past_friends`, the enemies
    /// are not looked for once a friend is found (the enemy answer is then false): small arms
    /// do not shoot through friends, so it would go unused.
    fn in_the_way(&self, e: usize, t: usize, past_friends: bool) -> (bool, bool) {
        let (a, b) = (self.elements[e].pos, self.elements[t].pos);
        let gap = self.rules.shooting.not_clear_gap;
        let line = Line {
            a,
            b,
            gap,
            lo: Vec2::new(a.x.min(b.x) - gap, a.y.min(b.y) - gap),
            hi: Vec2::new(a.x.max(b.x) + gap, a.y.max(b.y) + gap),
            side: self.regiments[usize::from(self.elements[e].regiment)].side,
            ends: [self.elements[e].regiment, self.elements[t].regiment],
        };
        let mut found = (false, false);
        // Only regiments whose centres lie within the line's box grown by the longest reach can
        // have an element in it (`any_in_box` finds them all: a line of fire, a gun's most of
        // all, spans many cells, so Marston Moor's sides are cheaper walked). Each side is
        // searched until it has shown one in the way, the shooter's first.
        let grow = Vec2::new(1.0, 1.0) * (self.max_reach + super::APART_MARGIN);
        let (lo, hi) = (line.lo - grow, line.hi + grow);
        self.any_in_box(line.side, lo, hi, |n| {
            self.crosses(n, &line, &mut found);
            found.0
        });
        if found.0 && !past_friends {
            return found;
        }
        self.any_in_box(line.side.other(), lo, hi, |n| {
            self.crosses(n, &line, &mut found);
            found.1
        });
        found
    }

    /// Marks in `found` (friend, enemy) whether regiment `n`, neither of the line's ends, has an
    /// element within the line's gap.
    fn crosses(&self, n: usize, line: &Line, found: &mut (bool, bool)) {
        let oreg = &self.regiments[n];
        // A regiment whose centre is outside the box grown by its reach has no element in it.
        let (lo, hi, grow) = (line.lo, line.hi, oreg.reach + super::APART_MARGIN);
        let c = oreg.pos;
        if c.x < lo.x - grow || c.y < lo.y - grow || c.x > hi.x + grow || c.y > hi.y + grow {
            return;
        }
        if oreg.gone || line.ends.contains(&(n as u16)) {
            return;
        }
        for o in &self.elements[self.element_range(n)] {
            // Outside the line's box, it is not within the gap of the line.
            if o.pos.x < lo.x || o.pos.y < lo.y || o.pos.x > hi.x || o.pos.y > hi.y {
                continue;
            }
            if dist_point_segment(o.pos, line.a, line.b) < line.gap {
                if oreg.side == line.side {
                    found.0 = true;
                } else {
                    found.1 = true;
                }
            }
        }
    }

    /// One element's volley at one enemy element. Returns the casualties caused.
    pub fn volley<D: DiceSource, O: Observer>(
        &mut self,
        e: usize,
        t: usize,
        closing: bool,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) -> u8 {
        let (el, target) = (self.elements[e], self.elements[t]);
        let (r, tr) = (usize::from(el.regiment), usize::from(target.regiment));
        let (reg, treg) = (self.regiments[r], self.regiments[tr]);
        let (friend, enemy) = self.in_the_way(e, t, el.troop.is_gun());
        if friend && !el.troop.is_gun() {
            return 0; // small arms do not shoot through friends
        }
        let d = self.gap(e, t);
        let base = shooting::base_dice(el.troop, d, &self.rules);
        let enfilade = self.aspect_from(tr, target.pos, el.pos) != Aspect::Front;
        let n = shooting::dice(base, enfilade, el.troop, &self.rules);
        if n == 0 {
            return 0;
        }
        let shot = Shot {
            shooter: el.troop,
            target: target.troop,
            gap: d,
            target_hedgehog: treg.hedgehog,
            closing,
            shooter_shaken_or_disordered: reg.shaken || reg.disordered,
            target_not_clear: enemy,
            overhead: friend,
            first_fire: !reg.volleyed && reg.specials.has(SpecialRule::FirstFire),
        };
        let v = shot.volley(&self.rules);
        let modifier = shooting::to_hit_modifier(&v, &self.rules);
        dice.focus(Self::regiment_stream(r));
        let h = shooting::roll_hits(dice, n, modifier, self.rules.shooting.hit_on, &self.rules);
        self.regiments[r].volleyed = true;
        let save = SaveSituation {
            light_cover: self.area_at(target.pos, &setup.ground) == Some(AreaKind::Woods),
            ..shot.save(&self.rules)
        };
        let casualties = self.saves(tr, target.troop, h.hits, &save, dice);
        emit(
            obs,
            Event::BlackPowder(Detail::Volley {
                unit: reg.unit,
                target: treg.unit,
                dice: n,
                modifier,
                hits: h.hits,
                casualties,
                closing,
            }),
        );
        self.casualties(tr, casualties, LossCause::Fire, obs);
        if h.disorder {
            self.disorder(tr, obs);
        }
        casualties
    }

    /// The target regiment's saves against `hits` on its element of `troop`: the casualties.
    pub(super) fn saves<D: DiceSource>(
        &self,
        tr: usize,
        troop: Troop,
        hits: u8,
        s: &SaveSituation,
        dice: &mut D,
    ) -> u8 {
        let m = morale::save_modifier(s, &self.rules);
        dice.focus(Self::regiment_stream(tr));
        morale::roll_saves(dice, hits, stats(troop, &self.rules).morale, m, &self.rules)
    }

    /// Casualties against a regiment's stamina: shaken when they reach it; shooting that shakes
    /// a regiment, or hits one already shaken, calls for a break test.
    pub fn casualties<O: Observer>(&mut self, r: usize, n: u8, cause: LossCause, obs: &mut O) {
        if n == 0 {
            return;
        }
        let reg = &mut self.regiments[r];
        let before = reg.stamina - reg.casualties.min(reg.stamina);
        let was_shaken = reg.shaken;
        reg.casualties = reg.casualties.saturating_add(n);
        let cv = reg.stamina - reg.casualties.min(reg.stamina);
        if before > cv {
            emit(
                obs,
                Event::CvLost {
                    unit: reg.unit,
                    amount: before - cv,
                    cause,
                    cv,
                },
            );
        }
        if morale::shaken(reg.casualties, reg.stamina) && !was_shaken {
            reg.shaken = true;
            emit(obs, Event::BlackPowder(Detail::Shaken { unit: reg.unit }));
        }
        if cause == LossCause::Fire && reg.shaken {
            reg.must_test = true;
        }
    }

    /// A natural 6 to hit disorders the target.
    pub fn disorder<O: Observer>(&mut self, r: usize, obs: &mut O) {
        let reg = &mut self.regiments[r];
        if !reg.disordered && !reg.gone {
            reg.disordered = true;
            emit(
                obs,
                Event::BlackPowder(Detail::Disordered { unit: reg.unit }),
            );
        }
    }

    /// Closing fire of regiment `t` at charging regiment `r` (+1): each of its elements that can
    /// shoot and has the charger in range and in front. True when the charge is stopped: the
    /// charger, shaken by it, failed its break test.
    pub fn closing_fire<D: DiceSource, O: Observer>(
        &mut self,
        t: usize,
        r: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        let mut any = false;
        let arc = FrontArc::of(self.rules.shooting.front_arc_degrees);
        for e in self.element_range(t) {
            let el = self.elements[e];
            let range = max_range(el.troop, &self.rules);
            if range <= 0.0 {
                continue;
            }
            let Some(k) = self
                .element_range(r)
                .filter(|&k| self.gap(e, k) <= range)
                .filter(|&k| {
                    let reg = &self.regiments[t];
                    !arc.outside(reg.facing, reg.front, el.pos, self.elements[k].pos)
                })
                .min_by(|&a, &b| self.gap(e, a).total_cmp(&self.gap(e, b)))
            else {
                continue;
            };
            any = true;
            self.volley(e, k, true, setup, dice, obs);
        }
        if !any || !self.regiments[r].must_test {
            return false;
        }
        self.regiments[r].must_test = false;
        self.break_test(r, 0, dice, obs) != BreakResult::Hold
    }
}

/// Where the shooting phase's targets stand: the box of their centres and their longest reach.
#[derive(Debug, Clone, Copy)]
struct Spread {
    lo: Vec2,
    hi: Vec2,
    reach: f64,
}

impl Spread {
    fn of(targets: &[Target]) -> Spread {
        let mut s = Spread {
            lo: Vec2::new(f64::INFINITY, f64::INFINITY),
            hi: Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
            reach: 0.0,
        };
        for t in targets {
            s.lo = Vec2::new(s.lo.x.min(t.pos.x), s.lo.y.min(t.pos.y));
            s.hi = Vec2::new(s.hi.x.max(t.pos.x), s.hi.y.max(t.pos.y));
            s.reach = s.reach.max(t.reach);
        }
        s
    }

    /// Whether every target's centre is further from `p` than `within` and its reach (with twice
    /// the margin of `near_targets_of`'s own test, so that only what that test would rule out
    /// is): no centre is nearer than the box. True when there are no targets.
    fn beyond(self, p: Vec2, within: f64) -> bool {
        let dx = (self.lo.x - p.x).max(p.x - self.hi.x).max(0.0);
        let dy = (self.lo.y - p.y).max(p.y - self.hi.y).max(0.0);
        let bound = within + self.reach + 2.0 * super::APART_MARGIN;
        dx * dx + dy * dy > bound * bound
    }
}

/// A line of fire from `a` to `b`, its box grown by the not-clear `gap`, the shooter's side
/// and the two regiments at its ends.
struct Line {
    a: Vec2,
    b: Vec2,
    gap: f64,
    lo: Vec2,
    hi: Vec2,
    side: Side,
    ends: [u16; 2],
}

/// A front arc of `degrees` either side, with its cosine: most bearings are told in or out by
/// a dot product; only those within a hair of the edge are measured as `Battle::bearing` does,
/// so every answer is that of the angle test.
/// (The cosine tells only arcs of 0 to 180 degrees; any other is always measured.)
#[derive(Debug, Clone, Copy)]
struct FrontArc {
    degrees: f64,
    cos: f64,
}

impl FrontArc {
    fn of(degrees: f64) -> FrontArc {
        FrontArc {
            degrees,
            cos: if (0.0..=180.0).contains(&degrees) {
                degrees.to_radians().cos()
            } else {
                f64::NAN
            },
        }
    }

    /// Whether `to` lies outside the arc of a shooter at `from` facing `facing` (`front` its
    /// vector): `Battle::bearing(facing, from, to).abs() > degrees`.
    fn outside(self, facing: f64, front: Vec2, from: Vec2, to: Vec2) -> bool {
        crate::battlefield::geometry::within_arc_by_cosine(front, from, to, self.cos).map_or_else(
            || Battle::bearing(facing, from, to).abs() > self.degrees,
            |inside| !inside,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dot-product shortcut answers as the angle test does, at the arc's edge too.
    #[test]
    fn the_front_arc_agrees_with_the_bearing_everywhere() {
        let arc = FrontArc::of(45.0);
        let from = Vec2::new(10.0, 20.0);
        let mut outside = 0;
        for facing in [0.0, 0.7, -2.5, 3.1] {
            for edge in [-45.0f64, 45.0, -135.0, 0.0, 180.0] {
                for nudge in [-1e-3, -1e-8, -1e-12, 0.0, 1e-12, 1e-8, 1e-3] {
                    for dist in [0.0, 1e-12, 5.0, 100.0] {
                        let to =
                            from + Vec2::from_facing(facing + (edge + nudge).to_radians()) * dist;
                        let want = Battle::bearing(facing, from, to).abs() > 45.0;
                        let front = Vec2::from_facing(facing);
                        assert_eq!(
                            arc.outside(facing, front, from, to),
                            want,
                            "{facing} {edge} {nudge} {dist}"
                        );
                        outside += usize::from(want);
                    }
                }
            }
        }
        // Both answers occur (the sweep crosses the edge).
        assert!(outside > 100 && outside < 500, "{outside}");
        // Arcs no cosine can tell are measured: beyond a half turn all round, below 0 none.
        for (degrees, out) in [(270.0, false), (-10.0, true), (f64::NAN, false)] {
            let arc = FrontArc::of(degrees);
            for edge in [0.0f64, 30.0, 100.0, 179.0] {
                let to = from + Vec2::from_facing(0.7 + edge.to_radians()) * 5.0;
                let front = Vec2::from_facing(0.7);
                assert_eq!(arc.outside(0.7, front, from, to), out, "{degrees} {edge}");
            }
        }
    }

    /// The targets' box rules out only shooters with no target within reach: over random
    /// layouts `near_targets_of` lists what it lists with a box that rules out nothing.
    #[test]
    fn the_targets_box_rules_out_only_shooters_without_targets() {
        let mut b = super::super::orders::tests::marston_moor();
        let mut scatter = super::super::orders::tests::scattered(0x7a39e7);
        let everywhere = Spread {
            lo: Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
            hi: Vec2::new(f64::INFINITY, f64::INFINITY),
            reach: 0.0,
        };
        let (mut got, mut want) = (Vec::new(), Vec::new());
        let (mut ruled_out, mut some) = (0, 0);
        for trial in 0..300 {
            scatter(&mut b);
            // Crowd one side into a corner now and then, so that whole sides are out of reach.
            if trial % 2 == 0 {
                for r in 0..b.regiments.len() {
                    if b.regiments[r].side == Side::Royalist {
                        let p = b.regiments[r].pos * 0.2;
                        b.place(r, p, b.regiments[r].facing);
                    }
                }
            }
            for side in Side::BOTH {
                let targets: Vec<Target> = b
                    .side(side.other())
                    .iter()
                    .map(|&o| usize::from(o))
                    .filter(|&o| !b.regiments[o].gone && b.regiments[o].engaged.is_none())
                    .map(|o| Target {
                        regiment: o as u16,
                        pos: b.regiments[o].pos,
                        reach: b.regiments[o].reach,
                    })
                    .collect();
                let spread = Spread::of(&targets);
                for &r in b.side(side) {
                    let r = usize::from(r);
                    let a = b.near_targets_of(r, (&targets, spread), &mut got);
                    let w = b.near_targets_of(r, (&targets, everywhere), &mut want);
                    assert_eq!(a, w, "{trial} {r}");
                    let ids = |v: &Vec<Target>| v.iter().map(|t| t.regiment).collect::<Vec<_>>();
                    if a {
                        assert_eq!(ids(&got), ids(&want), "{trial} {r}");
                    }
                    let shoots = b
                        .element_range(r)
                        .any(|e| max_range(b.elements[e].troop, &b.rules) > 0.0);
                    ruled_out += usize::from(
                        shoots
                            && !b.regiments[r].gone
                            && spread.beyond(b.regiments[r].pos, 12.0 + b.regiments[r].reach),
                    );
                    some += usize::from(w);
                }
            }
        }
        // Both answers occur: shooters ruled out by the box and shooters with targets.
        assert!(ruled_out > 100 && some > 1000, "{ruled_out} {some}");
    }

    /// The grid lists the targets the walk lists: over random layouts, for every regiment.
    #[test]
    fn the_grid_lists_the_targets_the_walk_lists() {
        let mut b = super::super::orders::tests::marston_moor();
        let mut scatter = super::super::orders::tests::scattered(0x7a4e75);
        let (mut walked, mut gridded, mut listed) = (Vec::new(), Vec::new(), 0);
        let ids = |v: &Vec<Target>| v.iter().map(|t| t.regiment).collect::<Vec<_>>();
        for _ in 0..300 {
            scatter(&mut b);
            for side in Side::BOTH {
                let targets: Vec<Target> = (b.side(side.other()).iter())
                    .filter_map(|&o| b.target(usize::from(o)))
                    .collect();
                let spread = Spread::of(&targets);
                for r in b.side(side).to_vec().into_iter().map(usize::from) {
                    b.grid_from = usize::MAX;
                    let w = b.near_targets_of(r, (&targets, spread), &mut walked);
                    b.grid_from = 0;
                    let g = b.near_targets_of(r, (&targets, spread), &mut gridded);
                    assert_eq!((g, ids(&gridded)), (w, ids(&walked)), "{r}");
                    listed += walked.len();
                }
            }
        }
        assert!(listed > 10_000, "{listed}");
    }

    /// `in_the_way` with no bound: every element of every regiment but the line's ends.
    fn in_the_way_in_full(b: &Battle, e: usize, t: usize) -> (bool, bool) {
        let (x, y) = (b.elements[e], b.elements[t]);
        let side = b.regiments[usize::from(x.regiment)].side;
        let mut found = (false, false);
        for o in &b.elements {
            let reg = &b.regiments[usize::from(o.regiment)];
            if reg.gone || o.regiment == x.regiment || o.regiment == y.regiment {
                continue;
            }
            if dist_point_segment(o.pos, x.pos, y.pos) < b.rules.shooting.not_clear_gap {
                if reg.side == side {
                    found.0 = true;
                } else {
                    found.1 = true;
                }
            }
        }
        found
    }

    /// The centres round the line of fire, walked or found by the grid's cells, hold every
    /// regiment in the way: over random layouts `in_the_way` finds what the scan of every
    /// element finds, on every line of fire between two elements, searching either way; not
    /// looking past friends, it answers a friend alone when there is one.
    #[test]
    fn the_line_of_fire_answers_as_the_full_scan() {
        let mut b = super::super::orders::tests::marston_moor();
        let mut scatter = super::super::orders::tests::scattered(0xf1e1d);
        let mut seen = [0usize; 4];
        for trial in 0..40 {
            scatter(&mut b);
            b.grid_from = if trial % 2 == 0 { usize::MAX } else { 0 };
            for e in (trial % 3..b.elements.len()).step_by(3) {
                for t in (0..b.elements.len()).step_by(7) {
                    let got = b.in_the_way(e, t, true);
                    assert_eq!(
                        got,
                        in_the_way_in_full(&b, e, t),
                        "trial {trial}: {e} to {t}"
                    );
                    let short = if got.0 { (true, false) } else { got };
                    assert_eq!(
                        b.in_the_way(e, t, false),
                        short,
                        "trial {trial}: {e} to {t}"
                    );
                    seen[usize::from(got.0) * 2 + usize::from(got.1)] += 1;
                }
            }
        }
        // Clear lines, friends, enemies and both in the way all occur.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }
}

//! Who stands near a regiment: each side's regiments by cell of the table
//! (`battlefield::grid`), kept wherever a position is written, and the searches that ask it.
//!
//! A battle of fewer than `GRID_FROM` regiments a side asks each side's regiments in the
//! order of their x (`battlefield::sweep`) for a box's width instead, and walks every regiment
//! in index order for a search outward: on the built-in scenarios that is cheaper than the
//! cells. Either way the answers are the same to the bit: the searches test the same
//! regiments with the same bounds, and break ties by regiment index as the walk in index
//! order did. Gone regiments stay in the grid and the sweep (where they last stood); the
//! searches skip them.

use super::Battle;
use super::DickensonRules;
use super::regiment::Formation;
use crate::army::Side;
use crate::battlefield::Vec2;
use crate::battlefield::grid::{GRID_FROM, Grid, Members};
use crate::battlefield::sweep::Sweep;
use crate::rules::dickenson::volley::Arm;

/// Inches added to the bounds that rule cells out, far above the rounding of table distances,
/// so that the cells never leave out a regiment the bounds of the whole walk would test.
pub(super) const MARGIN: f64 = 1e-6;

/// Inches on a side of the grid's cells: about a frontage, so that a cell holds a regiment or
/// two (the scaling bench's 2,000-unit battle: 9 and 12 inches cost 1% and 5% more
/// instructions, 4 inches 7% more, docs/PERFORMANCE-LOG.md).
const GRID_CELL: f64 = 6.0;

/// Whether `lo`..`hi` is a box to search by the grid or the sweep: neither side inverted nor
/// NaN (else the searches walk every regiment).
#[inline]
fn is_box(lo: Vec2, hi: Vec2) -> bool {
    lo.x <= hi.x && lo.y <= hi.y
}

/// Whether `(g, o)` beats the best found so far: nearer, or as near and listed first.
#[inline]
pub(super) fn nearer(g: f64, o: usize, best: Option<(usize, f64)>) -> bool {
    best.is_none_or(|(b, bg)| g < bg || (g == bg && o < b))
}

/// Whether a regiment whose centre lies the square root of `d2` from the searcher's, with
/// `radii` the two enclosing radii, surely cannot beat the best found so far: as `beaten` would
/// find of their bound (the centres' distance less the radii), but from the squared distance,
/// with no square root, and a margin far above the rounding of either. False when unsure.
#[inline]
pub(super) fn beaten_far(d2: f64, radii: f64, best: Option<(usize, f64)>) -> bool {
    best.is_some_and(|(_, bg)| {
        let t = bg + radii;
        d2 > t * t * (1.0 + 1e-9) + 1e-12
    })
}

/// Whether a regiment `o` no nearer than `bound` surely cannot beat the best found so far.
#[inline]
pub(super) fn beaten(bound: f64, o: usize, best: Option<(usize, f64)>) -> bool {
    best.is_some_and(|(b, bg)| bound > bg || (bound == bg && o > b))
}

/// The grid and what its searches need to know of the battle.
#[derive(Debug, Clone, Default)]
pub(super) struct Neighbours {
    grid: Grid,
    /// Each side's regiments (by index) in the order of their x: the boxes' searches without
    /// the grid (kept only then).
    sweep: Sweep,
    /// Whether the searches use the grid: the larger side holds `GRID_FROM` regiments (above
    /// every built-in scenario, at most 40 a side).
    on: bool,
    /// The largest enclosing radius any regiment's footprint has had this battle: kept up
    /// where footprints change (`Battle::form`), so it bounds every footprint on the table.
    max_radius: f64,
    /// The farthest a horse's charge reaches (its fastest gait at the ruling's share).
    horse_reach: f64,
    /// The farthest any regiment reaches a column (`lanes::reach`): small arms or a charge.
    column_reach: f64,
}

impl Neighbours {
    /// For a battle of `regiments` regiments, `most` of them on one side, on a table of `table`.
    pub(super) fn new(
        table: (f64, f64),
        regiments: usize,
        most: usize,
        rules: &DickensonRules,
    ) -> Self {
        let horse_reach = horse_reach(rules);
        let arms = Arm::ALL.iter().map(|a| a.weapon(rules).long);
        Neighbours {
            grid: Grid::new(table, regiments, GRID_CELL),
            sweep: Sweep::default(),
            on: most >= GRID_FROM,
            max_radius: 0.0,
            horse_reach,
            column_reach: arms.fold(horse_reach, f64::max),
        }
    }

    /// The farthest any regiment reaches a column.
    #[inline]
    pub(super) fn column_reach(&self) -> f64 {
        self.column_reach
    }

    /// The largest enclosing radius of a regiment's footprint this battle.
    #[inline]
    pub(super) fn max_radius(&self) -> f64 {
        self.max_radius
    }

    /// The farthest a horse's charge reaches.
    #[inline]
    pub(super) fn horse_reach(&self) -> f64 {
        self.horse_reach
    }
}

impl Battle {
    /// Every regiment where it stands, and the largest footprint among them (a reset).
    pub(super) fn fill_neighbours(&mut self) {
        let regs = &self.regiments;
        let n = &mut self.neighbours;
        n.grid.fill(regs.len(), |r| (regs[r].side, regs[r].pos));
        n.max_radius = (regs.iter()).map(|r| r.radius).fold(0.0, f64::max);
        self.fill_sweep();
    }

    /// Every regiment where it stands in the sweep, in a battle without the grid.
    fn fill_sweep(&mut self) {
        let (regs, n) = (&self.regiments, &mut self.neighbours);
        for side in Side::BOTH.into_iter().filter(|_| !n.on) {
            let on = regs.iter().enumerate().filter(|(_, r)| r.side == side);
            n.sweep.fill(side, on.map(|(i, r)| (r.pos.x, i)));
        }
    }

    /// Turns the grid's searches on or off (a test's comparison), the sweep filled for the
    /// searches without.
    #[cfg(test)]
    pub(super) fn use_grid(&mut self, on: bool) {
        self.neighbours.on = on;
        self.fill_sweep();
    }

    /// Regiment `r` stands where its `pos` says: called wherever a position is written.
    #[inline]
    pub(super) fn placed(&mut self, r: usize) {
        let reg = &self.regiments[r];
        self.neighbours.grid.moved(r, reg.side, reg.pos);
        // The sweep serves only battles without the grid, where moving it costs nothing seen.
        if !self.neighbours.on {
            self.neighbours.sweep.moved(reg.side, r, reg.pos.x);
        }
    }

    /// Regiment `r` takes formation `f`; the largest footprint is kept up.
    pub(super) fn form(&mut self, r: usize, f: Formation) {
        let reg = &mut self.regiments[r];
        reg.form(f, &self.rules);
        let radius = reg.radius;
        let n = &mut self.neighbours;
        n.max_radius = n.max_radius.max(radius);
    }

    /// Whether the searches over the box `lo`..`hi` ask the grid: with it on, and a box that
    /// is a box (`is_box`).
    #[inline]
    pub(super) fn in_cells(&self, lo: Vec2, hi: Vec2) -> bool {
        self.neighbours.on && is_box(lo, hi)
    }

    /// Whether the searches outward ask the grid.
    #[inline]
    pub(super) fn in_rings(&self) -> bool {
        self.neighbours.on
    }

    /// Whether the searches over the box `lo`..`hi` ask the sweep: without the grid, and a
    /// box that is a box (`is_box`).
    #[inline]
    pub(super) fn in_sweep(&self, lo: Vec2, hi: Vec2) -> bool {
        !self.neighbours.on && is_box(lo, hi)
    }

    /// The regiments of `side` whose centres' x lie within the box `lo`..`hi` grown by the
    /// margin (`any_near!`): every one whose centre lies in it.
    #[inline]
    pub(super) fn swept(&self, side: Side, lo: Vec2, hi: Vec2) -> impl Iterator<Item = usize> {
        (self.neighbours.sweep).within(side, lo.x - MARGIN, hi.x + MARGIN)
    }

    /// The regiments of `side` in the grid's cells that the box `lo`..`hi`, grown by the
    /// margin, touches (`any_near!`).
    #[inline]
    pub(super) fn cells(&self, side: Side, lo: Vec2, hi: Vec2) -> Members<'_> {
        let grow = Vec2::new(MARGIN, MARGIN);
        (self.neighbours.grid).box_members(side, lo - grow, hi + grow)
    }

    /// The regiments of `side` in the grid's ring `k` about `centre` whose centres may lie
    /// within `limit` past `reach` of it (`outward!`); None past the cells the side has stood
    /// in.
    #[inline]
    pub(super) fn ring(
        &self,
        side: Side,
        centre: Vec2,
        k: usize,
        reach: f64,
        limit: f64,
    ) -> Option<Members<'_>> {
        let within = limit + reach + MARGIN;
        self.neighbours.grid.ring_members(side, centre, k, within)
    }

    /// Whether every regiment outside rings 0 to `k` stands further than `limit` past `reach`
    /// of the rings' centre (`outward!`).
    #[inline]
    pub(super) fn past(&self, k: usize, reach: f64, limit: f64) -> bool {
        self.neighbours.grid.past_ring(k) - reach - MARGIN > limit
    }
}

// The searches below call their closure in their own loops, the grid's cells as iterators,
// never by handing it to a function: that would take the address of the search's locals (its
// footprint, the best so far), and the walk, which shares them, would then read them from
// memory and work out the footprint's corners again for every regiment it measures. The walk
// gives the closure each regiment as its iterator has it, with no index to check.

/// Whether `$f` (a closure of a regiment's index and the regiment) holds for some regiment of
/// side `$side` whose centre may lie in the box `$lo`..`$hi`: the grid's cells the box
/// touches, or the side's regiments in the box's width, or (no box) the whole side in index
/// order.
macro_rules! any_near {
    ($b:expr, $side:expr, $lo:expr, $hi:expr, $f:expr) => {{
        let (b, side, lo, hi) = ($b, $side, $lo, $hi);
        'found: {
            if b.in_cells(lo, hi) {
                for o in b.cells(side, lo, hi) {
                    if ($f)(o, &b.regiments[o]) {
                        break 'found true;
                    }
                }
            } else if b.in_sweep(lo, hi) {
                for o in b.swept(side, lo, hi) {
                    if ($f)(o, &b.regiments[o]) {
                        break 'found true;
                    }
                }
            } else {
                for (o, reg) in b.regiments.iter().enumerate() {
                    if reg.side == side && ($f)(o, reg) {
                        break 'found true;
                    }
                }
            }
            false
        }
    }};
}

/// `any_near!` over both sides: without the grid or a box, one walk over every regiment.
macro_rules! any_near_either {
    ($b:expr, $lo:expr, $hi:expr, $f:expr) => {{
        let (b, lo, hi) = ($b, $lo, $hi);
        'found: {
            if b.in_cells(lo, hi) {
                let [p, r] = crate::army::Side::BOTH;
                for o in b.cells(p, lo, hi).chain(b.cells(r, lo, hi)) {
                    if ($f)(o, &b.regiments[o]) {
                        break 'found true;
                    }
                }
            } else if b.in_sweep(lo, hi) {
                let [p, r] = crate::army::Side::BOTH;
                for o in b.swept(p, lo, hi).chain(b.swept(r, lo, hi)) {
                    if ($f)(o, &b.regiments[o]) {
                        break 'found true;
                    }
                }
            } else {
                for (o, reg) in b.regiments.iter().enumerate() {
                    if ($f)(o, reg) {
                        break 'found true;
                    }
                }
            }
            false
        }
    }};
}

/// `any_near!` over the box of the centres within `$reach` of `$centre`.
macro_rules! any_within {
    ($b:expr, $side:expr, $centre:expr, $reach:expr, $f:expr) => {{
        let (c, reach): (crate::battlefield::Vec2, f64) = ($centre, $reach);
        let grow = crate::battlefield::Vec2::new(reach, reach);
        any_near!($b, $side, c - grow, c + grow, $f)
    }};
}

/// Calls `$f` with the regiments of `$side`, nearest cells first, until every one left stands
/// further than `limit` past `$reach` of `$centre` (`limit` is `$f`'s last answer, `$start`
/// before any): a search for the nearest, whose regiments' gaps are at least their centres'
/// distance less `$reach`, and `$f` answers the gap to beat. The whole side in index order
/// without the grid (the sweep's order of x, visiting fewer, costs more time: the regiments
/// are then read out of the order they stand in memory).
macro_rules! outward {
    ($b:expr, $side:expr, $centre:expr, $reach:expr, $start:expr, $f:expr) => {{
        let (b, side) = ($b, $side);
        if b.in_rings() {
            let (centre, reach, mut limit) = ($centre, $reach, $start);
            let mut k = 0;
            while let Some(ring) = b.ring(side, centre, k, reach, limit) {
                for o in ring {
                    limit = ($f)(o, &b.regiments[o]);
                }
                if b.past(k, reach, limit) {
                    break;
                }
                k += 1;
            }
        } else {
            for (o, reg) in b.regiments.iter().enumerate() {
                if reg.side == side {
                    ($f)(o, reg);
                }
            }
        }
    }};
}

/// The farthest any horse's charge reaches: its fastest gait at the ruling's share.
fn horse_reach(rules: &DickensonRules) -> f64 {
    let m = &rules.movement;
    let fastest = [&m.lobsters, &m.troopers, &m.dragoons]
        .into_iter()
        .flat_map(|h| [h.trot, h.canter, h.gallop])
        .fold(0.0, f64::max);
    fastest * rules.battle.charge_range_share
}

#[cfg(test)]
mod tests {
    use super::super::fire::Seek;
    use super::super::movement::{Holds, Threat};
    use super::super::regiment::{Engaged, Formation, Gait, Kind, Regiment, State};
    use super::*;
    use std::f64::consts::FRAC_PI_2;
    use std::sync::Arc;

    #[test]
    fn beaten_far_only_where_the_bound_is_beaten() {
        let mut rnd = crate::dice::test_uniforms(31);
        let (mut far, mut asked) = (0, 0);
        for i in 0..50_000 {
            let d = Vec2::new(rnd() * 40.0 - 20.0, rnd() * 40.0 - 20.0);
            let (mine, theirs) = (rnd() * 4.0, rnd() * 4.0);
            let best = Some((i % 7, rnd() * 20.0));
            asked += 1;
            if beaten_far(d.len2(), mine + theirs, best) {
                far += 1;
                let bound = d.len() - mine - theirs;
                assert!(
                    beaten(bound, i % 7 + 1, best) && beaten(bound, 0, best),
                    "{d:?}"
                );
            }
        }
        assert!(
            far > asked / 4,
            "{far} of {asked}: the bound says too little"
        );
        assert!(!beaten_far(1e9, 1.0, None));
        // A hair beyond the best and the radii is beaten; as near as them, not.
        assert!(beaten_far(3.0001f64.powi(2), 2.0, Some((0, 1.0))));
        assert!(!beaten_far(9.0, 2.0, Some((0, 1.0))));
    }

    /// `nearest_enemy` as the plain walk over every regiment in index order had it.
    fn walked_nearest(b: &Battle, r: usize, active: bool) -> Option<(usize, f64)> {
        let me = b.shape(r);
        let side = b.regiments[r].side;
        let mut best: Option<(usize, f64)> = None;
        for (o, reg) in b.regiments.iter().enumerate() {
            if reg.side == side
                || reg.state == State::Gone
                || (active && reg.state != State::Active)
            {
                continue;
            }
            let g = me.dist(&b.shape(o));
            if best.is_none_or(|(_, bg)| g < bg) {
                best = Some((o, g));
            }
        }
        best
    }

    /// `supports` measuring every friend on the table: any within its range, and on which
    /// sides of its facing.
    fn walked_supports(b: &Battle, r: usize) -> (bool, bool, bool) {
        let (reg, half, me) = (&b.regiments[r], b.support_range(r), b.shape(r));
        let mut found = (false, false, false);
        for (o, f) in b.regiments.iter().enumerate() {
            if o != r
                && f.side == reg.side
                && f.state == State::Active
                && f.engaged.is_none()
                && me.dist(&b.shape(o)) <= half
            {
                let side = (f.pos - reg.pos).dot(me.fwd.right());
                found = (true, found.1 || side < 0.0, found.2 || side > 0.0);
            }
        }
        found
    }

    /// `friend_ahead` as the plain walk over every regiment in index order had it.
    fn walked_friend_ahead(b: &Battle, r: usize, aim: f64, run: f64, max: f64) -> Option<usize> {
        let reg = &b.regiments[r];
        let beyond = run + max / 1024.0 + 1e-6;
        let end = b.shape_at(r, reg.pos + Vec2::from_facing(aim) * beyond, aim);
        (0..b.regiments.len())
            .filter(|&o| o != r && b.regiments[o].side == reg.side)
            .filter(|&o| b.regiments[o].state != State::Gone && !b.passes(r, o))
            .map(|o| (o, b.shape(o)))
            .filter(|(_, s)| super::super::movement::in_the_way(&end, s) && end.dist(s) == 0.0)
            .map(|(o, s)| (o, s.centre.dist(reg.pos)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map(|(o, _)| o)
    }

    /// Every regiment of `b` at random on a lattice of `step` inches over the table and off
    /// it, facing a random way in a random formation, a few gone, routing or in melee.
    fn scatter(b: &mut Battle, next: &mut impl FnMut() -> f64, step: f64) {
        let ((w, d), n) = (b.table, b.regiments.len());
        let rules = b.rules.clone();
        for r in 0..n {
            let mut at = |len: f64| ((next() * (len + 8.0) - 4.0) / step).floor() * step;
            b.regiments[r].pos = Vec2::new(at(w), at(d));
            b.regiments[r].facing = (next() * 4.0).floor() * FRAC_PI_2;
            let f = [Formation::Line, Formation::Column, Formation::Square];
            let f = f[(next() * 3.0) as usize];
            if b.regiments[r].can_form(f, &rules) {
                b.form(r, f);
            }
            b.regiments[r].state = match (next() * 10.0) as u32 {
                0 => State::Gone,
                1 => State::Routing,
                _ => State::Active,
            };
            b.regiments[r].engaged = if next() < 0.1 {
                Engaged::of(((r + 1) % n) as u16)
            } else {
                Engaged::default()
            };
            let gaits = [Gait::Halt, Gait::Trot, Gait::Canter, Gait::Gallop];
            b.regiments[r].gait = gaits[(next() * 4.0) as usize];
            b.placed(r);
        }
    }

    /// A side's farthest horse charge next move (`horse_reach_now`, the bound of the search
    /// for horse threatening foot while the orders' formations are made): the longest of its
    /// free horse's next gaits by the movement table, at the ruling's share; horse in melee,
    /// routing or gone, and foot, count for nothing.
    #[test]
    fn a_sides_horse_reach_is_its_longest_free_charge() {
        let mut rules = crate::rules::dickenson::tables::DickensonRules::builtin();
        rules.battle.charge_range_share = 0.75;
        let setup = crate::scenario::generate::generated(160)
            .and_then(|s| s.setup())
            .expect("generated scenario");
        let mut b = Battle::new(Arc::new(rules.clone()), &setup);
        let m = &rules.movement;
        let table = |r: &Regiment| match r.kind {
            Kind::Horse(crate::rules::dickenson::figures::Figure::Lobster) => m.lobsters,
            Kind::Dragoons => m.dragoons,
            _ => m.troopers,
        };
        for side in Side::BOTH {
            let horse: Vec<usize> = (0..b.regiments.len())
                .filter(|&r| b.regiments[r].side == side && b.regiments[r].is_horse())
                .collect();
            assert!(horse.len() > 2, "{side:?} has horse");
            for &h in &horse {
                b.regiments[h].gait = Gait::Halt;
            }
            let (h, other) = (horse[0], horse[1]);
            let trot = |but: usize| {
                let of = horse.iter().filter(|&&x| x != but);
                of.map(|&x| table(&b.regiments[x]).trot).fold(0.0, f64::max) * 0.75
            };
            let (all, others) = (trot(usize::MAX), trot(h));
            assert_eq!(b.horse_reach_now(side), all, "{side:?} halted: a trot");
            b.regiments[h].gait = Gait::Canter;
            let gallop = table(&b.regiments[h]).gallop * 0.75;
            assert_eq!(
                b.horse_reach_now(side),
                gallop,
                "{side:?} cantering: a gallop"
            );
            b.regiments[h].engaged = Engaged::of(other as u16);
            assert_eq!(b.horse_reach_now(side), others, "{side:?}: in melee, none");
            for (&h, state) in horse
                .iter()
                .zip([State::Routing, State::Gone].into_iter().cycle())
            {
                b.regiments[h].state = state;
            }
            assert_eq!(b.horse_reach_now(side), 0.0, "{side:?}: none free");
        }
    }

    /// A battle of the generated scenario of `units` units, under the built-in rules.
    fn generated_battle(units: usize) -> Battle {
        let rules = Arc::new(crate::rules::dickenson::tables::DickensonRules::builtin());
        let setup = crate::scenario::generate::generated(units)
            .and_then(|s| s.setup())
            .expect("generated scenario");
        Battle::new(rules, &setup)
    }

    /// While the orders are made at once, a charge weighed for one regiment's order is the one
    /// its friends ask again (`weighed_path`): the same to the bit as weighing it afresh, on
    /// the target it was weighed on; on another, weighed afresh; none kept once the orders
    /// are made.
    #[test]
    fn a_charge_weighed_for_an_order_is_the_one_asked_again() {
        let mut next = crate::dice::test_uniforms(0x3c6e_f372);
        let mut b = generated_battle(160);
        let n = b.regiments.len();
        let (mut kept, mut afresh) = (0, 0);
        for _ in 0..8 {
            scatter(&mut b, &mut next, 3.0);
            for _ in 0..40 {
                let [r, t, other] = [0; 3].map(|_| (next() * n as f64) as usize);
                let path = |f: usize, t: usize| format!("{:?}", b.charge_path(f, t));
                b.weighing(true);
                b.charge_clear(r, t);
                assert_eq!(format!("{:?}", b.weighed_path(r, t)), path(r, t));
                let theirs = format!("{:?}", b.weighed_path(r, other));
                assert_eq!(theirs, path(r, other), "{r} on {other}, weighed on {t}");
                kept += usize::from(b.weighed[r].get().is_some());
                b.weighing(false);
                assert!(b.weighed[r].get().is_none(), "kept past the orders");
                afresh += usize::from(path(r, t) != path(r, other));
            }
        }
        assert!(
            kept == 320 && afresh > 300,
            "kept {kept}, told apart {afresh}"
        );
    }

    /// Without the grid (Marston Moor), the sweep `placed` keeps holds, for any box, exactly
    /// the regiments of each side whose centres' x lie in the box's width (grown by the
    /// margin), through layout after layout.
    #[test]
    fn the_sweep_follows_every_placing() {
        let mut next = crate::dice::test_uniforms(0x05ee_bd1c);
        let rules = Arc::new(crate::rules::dickenson::tables::DickensonRules::builtin());
        let setup = crate::scenario::Scenario::load_builtin("marston_moor", &[])
            .and_then(|s| s.setup())
            .expect("built-in scenario");
        let mut b = Battle::new(rules, &setup);
        assert!(
            !b.neighbours.on,
            "Marston Moor is searched without the grid"
        );
        let (mut boxes, mut held) = (0, 0);
        for layout in 0..40 {
            scatter(&mut b, &mut next, if layout % 2 == 0 { 3.0 } else { 0.25 });
            for _ in 0..50 {
                let (x0, x1) = (next() * 80.0 - 4.0, next() * 80.0 - 4.0);
                let (lo, hi) = (Vec2::new(x0.min(x1), 0.0), Vec2::new(x0.max(x1), 1.0));
                for side in Side::BOTH {
                    let mut got: Vec<usize> = b.swept(side, lo, hi).collect();
                    got.sort_unstable();
                    let want: Vec<usize> = (0..b.regiments.len())
                        .filter(|&o| b.regiments[o].side == side)
                        .filter(|&o| {
                            let x = b.regiments[o].pos.x;
                            x >= lo.x - MARGIN && x <= hi.x + MARGIN
                        })
                        .collect();
                    assert_eq!(got, want, "layout {layout}: {lo:?} to {hi:?}");
                    boxes += 1;
                    held += want.len();
                }
            }
        }
        assert!(held > boxes * 5, "{held} regiments in {boxes} boxes");
    }

    /// While the table stands still, a regiment that changes formation drops the nearest kept
    /// for it and its enemies' that it may change, and no other: every nearest still kept is
    /// what a search now finds (it fails when nothing is dropped, or only the regiment's own).
    #[test]
    fn a_reshaped_regiment_drops_the_kept_nearest_it_may_change() {
        let mut next = crate::dice::test_uniforms(0x05ee_d0f5_ca1e);
        let mut b = generated_battle(400);
        let rules = b.rules.clone();
        let n = b.regiments.len();
        let (mut changed, mut kept, mut dropped) = (0, 0, 0);
        for layout in 0..6 {
            scatter(&mut b, &mut next, if layout % 2 == 0 { 3.0 } else { 12.0 });
            b.table_still(true);
            (0..n).for_each(|r| {
                b.nearest_active(r);
            });
            for _ in 0..80 {
                let r = (next() * n as f64) as usize;
                let f = [Formation::Line, Formation::Column, Formation::Square];
                let f = f[(next() * 3.0) as usize];
                let reg = b.regiments[r];
                if reg.state != State::Active || reg.formation == f || !reg.can_form(f, &rules) {
                    continue;
                }
                let before: Vec<_> = (0..n)
                    .map(|e| b.nearest_enemy(e, |o| o.state == State::Active))
                    .collect();
                b.form(r, f);
                b.reshaped(r, reg.radius);
                for (e, was) in before.into_iter().enumerate() {
                    let now = b.nearest_enemy(e, |o| o.state == State::Active);
                    changed += usize::from(now != was);
                    match b.kept[e].get() {
                        Some(k) => {
                            assert_eq!(k, now, "layout {layout}: {r} reshaped, {e} kept");
                            kept += 1;
                        }
                        None => dropped += 1,
                    }
                }
            }
            b.table_still(false);
        }
        assert!(
            changed > 20,
            "nearest changed by a new footprint: {changed}"
        );
        assert!(kept > 5 * dropped, "kept {kept}, dropped {dropped}");
    }

    /// Every search near a regiment answers the same from the grid as from the walk over
    /// every regiment in index order (and, for a box, the sweep), to the bit: over random layouts of the generated
    /// battles of 160 and 400 units, the regiments moved one by one as the battle moves them,
    /// on a coarse lattice with square facings (so that gaps tie and regiments stand on one
    /// another), some gone, routing or in melee, some in column or square, some off the table.
    #[test]
    fn the_grid_answers_as_the_walk_over_every_regiment() {
        let mut next = crate::dice::test_uniforms(0x9e37_79b9_7f4a_7c15);
        let rules = Arc::new(crate::rules::dickenson::tables::DickensonRules::builtin());
        let (mut ties, mut found, mut friends, mut held) = (0, 0, 0, 0);
        let (mut threatened, mut flanked) = (0, 0);
        for units in [160, 400] {
            let setup = crate::scenario::generate::generated(units)
                .and_then(|s| s.setup())
                .expect("generated scenario");
            let mut b = Battle::new(rules.clone(), &setup);
            assert!(b.neighbours.on, "{units} units search the grid");
            let n = b.regiments.len();
            for layout in 0..12 {
                // Spread thin or packed tight: a lattice of 3 or 12 inches.
                scatter(&mut b, &mut next, if layout % 2 == 0 { 3.0 } else { 12.0 });
                for _ in 0..60 {
                    let r = (next() * n as f64) as usize;
                    let o = (next() * n as f64) as usize;
                    let range = [3.0, 12.0, 48.0, f64::INFINITY][(next() * 4.0) as usize];
                    let aim = (next() * 8.0).floor() * FRAC_PI_2 / 2.0;
                    let v = Vec2::from_facing(aim) * (next() * 20.0);
                    let dir = Vec2::from_facing(aim);
                    let holds = [Holds::Everyone, Holds::Enemies, Holds::Friends];
                    let holds = holds[(next() * 3.0) as usize];
                    let max = next() * 24.0;
                    let from = b.regiments[r].pos;
                    let ask = |b: &Battle| {
                        (
                            b.nearest_enemy(r, |_| true),
                            b.nearest_enemy(r, |o| o.state == State::Active),
                            b.target_of(r, range, Seek::Sight),
                            (
                                b.target_of(r, range, Seek::SmallArms),
                                b.target_of(r, range, Seek::Shot),
                            ),
                            b.nearest_of(r, o, |_| true),
                            b.nearest_of(r, o, |x| !x.is_horse()),
                            b.horse_threat(r, &setup),
                            b.clear_run(r, dir, aim, max, holds).to_bits(),
                            b.way_clear(r, from, aim, v, holds),
                            (
                                b.column_room(r).to_bits(),
                                b.supports(r),
                                b.overlaps_friend(r, &b.shape(o)),
                                b.clear_of_enemies(r),
                            ),
                            b.friend_ahead(r, aim, b.clear_run(r, dir, aim, max, holds), max),
                        )
                    };
                    let grid = ask(&b);
                    b.use_grid(false);
                    let walk = ask(&b);
                    b.use_grid(true);
                    assert_eq!(grid, walk, "{units} units, layout {layout}, {r} and {o}");
                    // While the orders' formations are made, horse are sought no farther than
                    // their side's longest charge next move: the same threat.
                    b.dressing_reach = Some(Side::BOTH.map(|s| b.horse_reach_now(s)));
                    let threat = b.horse_threat(r, &setup);
                    b.dressing_reach = None;
                    assert_eq!(threat, grid.6, "{units} {layout} {r}: the horse's reach");
                    threatened += usize::from(threat != Threat::None);
                    let (all, active) = (walked_nearest(&b, r, false), walked_nearest(&b, r, true));
                    assert_eq!((grid.0, grid.1), (all, active), "{units} {layout} {r}");
                    // From any hint (an enemy or a friend, gone or not, the answer itself or the
                    // other search's answer), by the grid or the walk, the same answer.
                    for on in [true, false] {
                        b.use_grid(on);
                        for hint in [Some(o), Some(r), all.map(|(t, _)| t), active.map(|a| a.0)] {
                            let got = (
                                b.nearest_enemy_from(r, hint, |_| true),
                                b.nearest_enemy_from(r, hint, |x| x.state == State::Active),
                            );
                            assert_eq!(got, (all, active), "{units} {layout} {r} from {hint:?}");
                        }
                    }
                    b.use_grid(true);
                    let run = b.clear_run(r, dir, aim, max, holds);
                    let ahead = walked_friend_ahead(&b, r, aim, run, max);
                    assert_eq!(grid.10, ahead, "{units} {layout} {r}: the friend ahead");
                    let support = walked_supports(&b, r);
                    assert_eq!(grid.9.1, support, "{units} {layout} {r}: supports");
                    flanked += usize::from(support.1 && support.2);
                    friends += usize::from(ahead.is_some());
                    // Straight on and obliquely (the facing kept), the halving's candidates
                    // ruled out beforehand change nothing.
                    let facing = b.regiments[r].facing;
                    for (way, face) in [(dir, aim), (dir, facing)] {
                        let run = b.clear_run(r, way, face, max, holds);
                        let asked = b.clear_run_asking_all(r, way, face, max, holds);
                        assert_eq!(run.to_bits(), asked.to_bits(), "{units} {layout} {r}: run");
                        held += usize::from(run < max);
                        // Whether it stops short, asked alone: as the halving answers.
                        for m in [max, max / 3.0, 0.0] {
                            let short = b.clear_run(r, way, face, m, holds) < m;
                            let stopped = b.run_stopped(r, way, face, m, holds);
                            assert_eq!(stopped, short, "{units} {layout} {r}: stopped at {m}");
                        }
                    }
                    // Ties: another enemy as near as the one found.
                    found += usize::from(all.is_some());
                    ties += usize::from(all.is_some_and(|(t, g)| {
                        b.regiments.iter().enumerate().any(|(e, x)| {
                            e != t
                                && x.side != b.regiments[r].side
                                && x.state != State::Gone
                                && b.gap(r, e) == g
                        })
                    }));
                }
            }
        }
        assert!(ties * 10 > found, "ties met: {ties} of {found}");
        assert!(friends > 20, "friends ahead met: {friends}");
        assert!(held > 200, "runs held short: {held}");
        assert!(threatened > 20, "foot threatened by horse: {threatened}");
        assert!(flanked > 100, "flanks secured: {flanked}");
    }
}

//! Retreats, routs (and the friends they run past), and cavalry in hot pursuit.

use super::{Battle, Turn, emit};
use crate::army::{UnitId, UnitStatus};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::{HalfAngle, March, Rect, Shape, dist_point_segment, within_arc};
use crate::dice::DiceSource;
use crate::doctrine::Doctrine;
use crate::events::{Event, LossCause, Observer, ReactionCause};
use crate::rules::ironsides::pursuit;
use crate::rules::ironsides::tables::IronsidesRules;
use crate::setup::BattleSetup;

/// Routs set off reactions in friends, which may rout in turn: a bound on the chain.
const MAX_ROUT_CHAIN: u8 = 4;

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Retires `distance` inches straight back towards its own edge, ending facing the enemy;
    /// the move counts as its next one. Off the table, it is gone for the day.
    pub(crate) fn retreat(&mut self, id: UnitId, distance: f64) {
        let setup = self.setup;
        let distance = self.clear_of_friends(setup, id, distance);
        let (from, to) = self.shift(id, |u| {
            let from = u.pos;
            let home = super::homeward(u.side);
            u.pos = from + home * distance;
            // It ends facing the enemy: kept if it already looks that way, else turned to.
            if Vec2::from_facing(u.facing).dot(home) > 0.0 {
                u.facing = (home * -1.0).facing();
            }
            u.move_spent_next_turn = true;
            u.pinned = false;
            u.engaged_with = None;
            u.moved = true;
            (from, u.pos)
        });
        emit(self.obs, Event::Retreat { unit: id, distance });
        emit(self.obs, Event::moved(id, from, to, false));
        self.leave_if_off_table(id, UnitStatus::OffTable);
    }
}

impl Battle {
    /// How far a retreat (straight towards its own edge) may take unit `id` and leave it on
    /// the table: its centre's distance from that edge.
    pub fn room_to_retreat(&self, setup: &BattleSetup, id: UnitId) -> f64 {
        let u = &self.units[usize::from(id)];
        let room = if super::homeward(u.side).y < 0.0 {
            u.pos.y
        } else {
            setup.ground.depth - u.pos.y
        };
        room.max(0.0)
    }

    /// How far a retreat of `distance` must go to end clear of friends: a loser that would
    /// stop on its support retires through it and halts behind (E18: "it retires behind its
    /// unit immediately to the rear"), up to `close_combat.retreat_max`; if even that is not
    /// clear, it stops at `distance`.
    fn clear_of_friends(&self, setup: &BattleSetup, id: UnitId, distance: f64) -> f64 {
        let u = &self.units[usize::from(id)];
        let home = super::homeward(u.side);
        let me = self.shape(id);
        let blocked = |d: f64| {
            let there = me.at(u.pos + home * d);
            self.any_near(&there, u.side, 0.0, |s| {
                s.id != id && there.dist(&self.shape(s.id)) <= 0.0
            })
        };
        let most = setup.rules.close_combat.retreat_max.max(distance);
        let mut d = distance;
        while blocked(d) {
            d += 0.5;
            if d > most {
                return distance;
            }
        }
        d
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// A rout: 3D6" for foot, 5D6" for horse, straight back towards home, ending facing away;
    /// guns are abandoned; friends within 3" of the path test reaction (not those already
    /// routed: they are running too).
    pub(crate) fn rout(&mut self, id: UnitId) {
        self.rout_chain(id, 0);
    }

    fn rout_chain(&mut self, id: UnitId, depth: u8) {
        let setup = self.setup;
        let rules = &*setup.rules;
        if !self.units[usize::from(id)].is_active() {
            return;
        }
        let n = if self.units[usize::from(id)].is_cavalry() {
            rules.reaction.rout_dice_horse
        } else {
            rules.reaction.rout_dice_foot
        };
        self.dice.focus(super::unit_stream(id));
        let distance = f64::from(self.dice.sum_d6(u32::from(n)));
        let (from, to, side) = self.shift(id, |u| {
            let from = u.pos;
            let away = super::homeward(u.side);
            let to = from + away * distance;
            // A gun stays where it stood: only its crew runs, and may come back to it later.
            if !u.kind.is_gun() {
                u.pos = to;
                u.facing = away.facing();
            }
            u.broken = true;
            u.halt_next_turn = true;
            u.pinned = false;
            u.engaged_with = None;
            u.moved = true;
            u.pursuing = 0;
            if u.kind.is_gun() {
                u.status = UnitStatus::Abandoned;
            }
            (from, to, u.side)
        });
        self.sweep_away_generals(setup, id);
        emit(self.obs, Event::Rout { unit: id, distance });
        if !self.units[usize::from(id)].kind.is_gun() {
            emit(self.obs, Event::moved(id, from, to, false));
        }
        if self.units[usize::from(id)].status == UnitStatus::Abandoned {
            emit(self.obs, Event::GunAbandoned { unit: id });
            self.unit_gone(setup, id);
        }
        self.leave_if_off_table(id, UnitStatus::OffTable);
        if depth >= MAX_ROUT_CHAIN {
            return;
        }
        // Friends within 3" of the line of flight test reaction, in id order, each as the
        // chain so far has left it.
        let test = rules.reaction.rout_path_test_distance;
        let mut after = 0;
        while let Some(fid) = self.next_passed(id, side, (from, to), test, after) {
            after = usize::from(fid) + 1;
            let result = self.react(fid, ReactionCause::RoutPassed);
            match result {
                crate::events::ReactionResult::Rout => self.rout_chain(fid, depth + 1),
                other => self.after_failed_reaction(fid, other),
            }
        }
    }

    /// Off the table: the unit leaves with the given status.
    pub(crate) fn leave_if_off_table(&mut self, id: UnitId, status: UnitStatus) -> bool {
        let setup = self.setup;
        let u = &self.units[usize::from(id)];
        if !u.is_active() || setup.ground.on_table(u.pos) {
            return false;
        }
        self.shift(id, |u| u.status = status);
        match status {
            UnitStatus::LostToPursuit => emit(
                self.obs,
                Event::PursuitLost {
                    unit: id,
                    turns: self.units[usize::from(id)].pursuing,
                },
            ),
            _ => emit(self.obs, Event::LeftTable { unit: id }),
        }
        self.unit_gone(setup, id);
        true
    }

    /// At each rally phase a pursuer tests to halt; failing, it loses another CV and charges
    /// the nearest enemy in its front arc, else the enemy camp. At CV 0 or off the table it is
    /// lost for the day.
    pub(super) fn pursuers(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving;
        for i in 0..self.units.len() {
            let u = &self.b.units[i];
            if u.side != side || !u.is_active() || u.pursuing == 0 || u.pinned {
                continue;
            }
            let id = i as UnitId;
            self.dice.focus(super::unit_stream(id));
            let (_, halted) = pursuit::halt_test(rules, self.dice, u);
            if halted {
                emit(
                    self.obs,
                    Event::PursuitHalted {
                        unit: id,
                        turns: u.pursuing,
                    },
                );
                let u = &mut self.units[i];
                u.pursuing = 0;
                u.pursuit_target = None;
                continue;
            }
            self.units[i].pursuing = self.units[i].pursuing.saturating_add(1);
            emit(
                self.obs,
                Event::PursuitContinued {
                    unit: id,
                    turns: self.units[i].pursuing,
                },
            );
            if self.pursuit_cost(id) {
                continue;
            }
            // From now on it charges the nearest enemy in its front arc, not its old quarry.
            self.units[i].pursuit_target = None;
            let distance =
                crate::rules::ironsides::movement::move_allowance(rules, &self.units[i], false);
            self.pursue(id, distance);
        }
    }

    /// The CV a pursuer pays; true if that loses it for the day.
    pub(super) fn pursuit_cost(&mut self, id: UnitId) -> bool {
        let setup = self.setup;
        let loss = setup.rules.pursuit.cv_loss;
        if self.units[usize::from(id)].cv <= loss {
            let u = &mut self.b.units[usize::from(id)];
            let lost = u.lose_cv(loss);
            emit(
                self.obs,
                Event::CvLost {
                    unit: id,
                    amount: lost,
                    cause: LossCause::Pursuit,
                    cv: 0,
                },
            );
            u.status = UnitStatus::LostToPursuit;
            emit(
                self.obs,
                Event::PursuitLost {
                    unit: id,
                    turns: u.pursuing,
                },
            );
            self.unit_gone(setup, id);
            return true;
        }
        self.lose_cv(id, loss, LossCause::Pursuit);
        !self.units[usize::from(id)].is_active()
    }

    /// A pursuer runs `distance` inches at its quarry, else the nearest enemy in its front arc,
    /// else the enemy camp, else straight on; what it meets, it fights at once (2 dice a side).
    pub(super) fn pursue(&mut self, id: UnitId, distance: f64) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let u = &self.b.units[usize::from(id)];
        let side = u.side;
        let quarry = u
            .pursuit_target
            .filter(|&t| self.units[usize::from(t)].is_active());
        let nearest = match quarry {
            Some(_) => None,
            None => self.nearest_in_arc(rules, id),
        };
        let camp = setup.ground.camps.iter().position(|c| c.side != side);
        let target_pos = match (quarry.or(nearest), camp) {
            (Some(t), _) => self.units[usize::from(t)].pos,
            (None, Some(c)) if self.ai.take_camp(&self.b.view(setup), id) => {
                setup.ground.camps[c].pos
            }
            _ => u.pos + Vec2::from_facing(u.facing) * distance,
        };
        let from = u.pos;
        let dir = (target_pos - from).norm();
        let (run, met) = self.first_met(id, dir, distance);
        let to = self.shift(id, |u| {
            u.pos = from + dir * run;
            u.facing = dir.facing();
            u.moved = true;
            u.pos
        });
        emit(self.obs, Event::moved(id, from, to, false));
        if self.leave_if_off_table(id, UnitStatus::LostToPursuit) {
            return;
        }
        self.overrun_generals(id);
        if let Some(e) = met {
            self.pursuit_melee(id, e);
        } else if let Some(c) = camp {
            let cp = setup.ground.camps[c];
            if self.units[usize::from(id)].pos.dist(cp.pos) <= cp.radius {
                self.attack_camp(id, c);
            }
        }
    }
}

impl Battle {
    /// The first friend of `side` from id `after` on, other than the routing `id`, that its
    /// flight along `path` passes within `test` of and that tests reaction for it (active, not
    /// pinned, not already broken). With cells, only the friends about the path are looked at.
    fn next_passed(
        &self,
        id: UnitId,
        side: crate::army::Side,
        path: (Vec2, Vec2),
        test: f64,
        after: usize,
    ) -> Option<UnitId> {
        let (from, to) = path;
        let (mid, half) = (from + (to - from) * 0.5, from.dist(to) * 0.5);
        let passes = |f: &crate::army::Unit| {
            if f.side != side || f.id == id || !f.is_active() || f.pinned || f.broken {
                return false;
            }
            // The path lies in the circle of radius `half` about its middle, and the friend in
            // one of radius (frontage + depth) / 2 about its centre: circles that far apart
            // fail `near_path`'s own first test (margins far above rounding).
            let rb = (f.frontage + f.depth) * 0.5 * (1.0 + 1e-9) + 1e-9;
            let reach = (half + rb + test) * (1.0 + 1e-9) + 1e-6;
            let d = f.pos - mid;
            if d.dot(d) > reach * reach {
                debug_assert!(!near_path(&self.shape(f.id), from, to, test));
                return false;
            }
            near_path(&self.shape(f.id), from, to, test)
        };
        if !self.in_cells() {
            return self
                .units
                .get(after..)?
                .iter()
                .find(|f| passes(f))
                .map(|f| f.id);
        }
        // A friend near the path has its centre within `half + test` of the middle and its
        // own enclosing radius (`near_path`'s first test): the cells' box allows for the
        // largest radius.
        let reach = (half + test) * (1.0 + 1e-9) + 1e-6;
        let mut found = None;
        self.spots_around(side, mid, reach, |s| {
            let hit = usize::from(s.id) >= after && passes(&self.units[usize::from(s.id)]);
            if hit {
                found = Some(s.id);
            }
            !hit
        });
        found
    }

    /// The nearest enemy in the pursuit arc of `id`'s front (ties to the lower id), skipping
    /// those whose enclosing circles are already farther than the best found.
    fn nearest_in_arc(&self, rules: &IronsidesRules, id: UnitId) -> Option<UnitId> {
        let u = &self.units[usize::from(id)];
        let side = u.side;
        let arc = HalfAngle::new(rules.pursuit.arc_degrees.to_radians());
        let me = self.shape(id);
        let mut nearest: Option<(f64, UnitId)> = None;
        self.with_spots(side.other(), |spots| {
            for s in spots.iter().filter(|s| s.active) {
                // Circles surely farther apart than the best found: skipped below anyway (the
                // bound is past the best), so the arc need not be tried.
                if let Some((best, _)) = nearest {
                    let reach = (best + me.radius + s.radius) * (1.0 + 1e-9) + 1e-9;
                    let d = s.centre - me.centre;
                    if d.dot(d) > reach * reach {
                        continue;
                    }
                }
                if !within_arc(me.fwd, u.facing, s.centre - u.pos, arc) {
                    continue;
                }
                let es = self.shape(s.id);
                if nearest.is_some_and(|(best, _)| me.dist_lower_bound(&es) > best) {
                    continue;
                }
                let d = me.dist(&es);
                if nearest.is_none_or(|(best, b)| d.total_cmp(&best).then(s.id.cmp(&b)).is_lt()) {
                    nearest = Some((d, s.id));
                }
            }
        });
        nearest.map(|(_, e)| e)
    }

    /// How far a pursuer runs along `dir` (up to `distance`) before the first enemy it meets,
    /// looking every half inch; and that enemy.
    fn first_met(&self, id: UnitId, dir: Vec2, distance: f64) -> (f64, Option<UnitId>) {
        let side = self.units[usize::from(id)].side;
        // Run until the first enemy met along the way (looking every half inch).
        let r = self.rect(id);
        let me = Rect {
            facing: dir.facing(),
            ..r
        }
        .shape();
        let mut run = distance;
        let mut met = None;
        // Every enemy the test below lets through, as the run shortens, stands in the box about
        // the whole run's circle (grown by its radius): with cells, only those are looked at.
        let (mid, r) = (
            me.centre + dir * (run * 0.5),
            (run * 0.5 + me.radius + 0.01) * (1.0 + 1e-9) + 1e-6,
        );
        let (lo, hi) = if run >= 0.0 && r < f64::INFINITY && mid.x.is_finite() && mid.y.is_finite()
        {
            (mid - Vec2::new(r, r), mid + Vec2::new(r, r))
        } else {
            let far = Vec2::new(f64::INFINITY, f64::INFINITY);
            (Vec2::new(0.0, 0.0) - far, far)
        };
        self.spots_scan(side.other(), lo, hi, |s| {
            if !s.active {
                return true;
            }
            if run < 0.0 {
                return false;
            }
            // The whole path lies in the circle about its middle of radius `run / 2`: an
            // enemy whose own circle is farther than the limit from that one is met nowhere
            // on it (margins far above rounding), so the march need not look.
            let half = run * 0.5;
            let d = s.centre - (me.centre + dir * half);
            let reach = (half + me.radius + s.radius + 0.01) * (1.0 + 1e-9) + 1e-6;
            if d.dot(d) > reach * reach {
                return true;
            }
            let er = self.shape(s.id);
            let last = (run / 0.5).floor() as u64;
            let march = March {
                me: &me,
                dir,
                step: 0.5,
                first: 0,
                last,
                end: f64::INFINITY,
            };
            let fast = march.first_within(&er, 0.01, 0.0);
            if let Some(k) = fast {
                let t = 0.5 * k as f64;
                if t < run || met.is_none() {
                    run = t;
                    met = Some(s.id);
                }
            }
            true
        });
        (run, met)
    }
}

/// Whether a rectangle lies within `d` of the segment a-b.
fn near_path(r: &Shape, a: Vec2, b: Vec2, d: f64) -> bool {
    // Every point looked at lies on the segment: too far from it, too far from them all.
    if dist_point_segment(r.centre, a, b) - r.radius > d + 1e-9 {
        return false;
    }
    let len = a.dist(b);
    let steps = (len / 1.0).ceil().max(1.0) as u32;
    (0..=steps).any(|k| r.dist_to_point(a + (b - a) * (f64::from(k) / f64::from(steps))) <= d)
}

//! Generalship round friends (a doctrine choice: the text leaves the handling of regiments to
//! the players). A regiment whose advance a friend cuts short side-steps into the nearer gap
//! beside that friend when the friend stands (in melee or halted) and the way it sweeps there
//! is clear; else it waits an interval behind the friend until the friend has moved on, broken
//! or routed. So a second line passes through a gap in its first line wide enough for it;
//! foot for whose line no gap is wide enough form column to pass one wide enough for that,
//! far enough from the enemy, and re-form line once clear of their friends.

use super::movement::{Holds, Leg, in_the_way, inside};
use super::regiment::{Formation, Gait, Kind, State};
use super::{Battle, Regiment, emit};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::{Shape, dist_point_segment};
use crate::events::{Event, Observer};

/// A hair of overlap that still counts as touching (rounding, not ground taken).
const HAIR: f64 = 1e-6;

/// How often a regiment's advances were cut short by a friend in a battle, by what the friend
/// was doing, and how often it went round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    /// By a friend in melee.
    pub by_melee: u32,
    /// By a friend standing (halted: holding, shooting, or itself waiting).
    pub by_halted: u32,
    /// By a friend moving on (it advanced last move), or routing.
    pub by_moving: u32,
    /// Of those, the advances that side-stepped round the friend.
    pub stepped: u32,
    /// Of the side-steps, those made after forming column to pass (`pass_in_column`).
    pub in_column: u32,
}

impl Held {
    /// Every advance a friend cut short.
    pub fn total(&self) -> u32 {
        self.by_melee + self.by_halted + self.by_moving
    }
}

/// What a friend in the way is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Friend {
    InMelee,
    Halted,
    Moving,
}

impl Friend {
    fn of(o: &Regiment) -> Friend {
        if o.state != State::Active {
            Friend::Moving
        } else if o.engaged.is_some() {
            Friend::InMelee
        } else if o.gait == Gait::Halt {
            Friend::Halted
        } else {
            Friend::Moving
        }
    }
}

impl Battle {
    /// The doctrine's advance of regiment `r` along `aim` at `gait`: straight on as far as it
    /// may; held short by a friend, round it or waiting behind it (`battle.round_friends`).
    pub(super) fn advance_round_friends<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        gait: Gait,
        obs: &mut O,
    ) {
        let dir = Vec2::from_facing(aim);
        let leg = self.allowance(r, dir, gait);
        let max = leg.dist.min(self.column_cap(r));
        let run = self.clear_run(r, dir, aim, max, Holds::Everyone);
        let friend = (run < max)
            .then(|| self.friend_ahead(r, aim, run, max))
            .flatten();
        let Some(f) = friend else {
            self.march(r, aim, run, leg, obs);
            return;
        };
        let doing = Friend::of(&self.regiments[f]);
        let tally = &mut self.held[r];
        match doing {
            Friend::InMelee => tally.by_melee += 1,
            Friend::Halted => tally.by_halted += 1,
            Friend::Moving => tally.by_moving += 1,
        }
        if !self.rules.battle.round_friends {
            self.march(r, aim, run, leg, obs);
            return;
        }
        if doing != Friend::Moving && self.side_step(r, f, aim, gait, obs) {
            self.held[r].stepped += 1;
            return;
        }
        if doing != Friend::Moving && self.pass_in_column(r, f, aim, gait, obs) {
            self.held[r].stepped += 1;
            self.held[r].in_column += 1;
            return;
        }
        // Wait: no nearer than the interval behind the friend, halted if already there.
        let run = (run - self.rules.battle.wait_behind_friend).max(0.0);
        self.march(r, aim, run, leg, obs);
        if run == 0.0 {
            self.regiments[r].gait = Gait::Halt;
        }
    }

    /// The friend that stops regiment `r` going farther than `run` of `max` inches along
    /// `aim`: one in its way (`in_the_way`) that its footprint just beyond (past the halving's
    /// reach, `clear_run`) would meet, the nearest if several; none when an enemy stopped it.
    pub(super) fn friend_ahead(&self, r: usize, aim: f64, run: f64, max: f64) -> Option<usize> {
        let reg = &self.regiments[r];
        let beyond = run + max / 1024.0 + HAIR;
        let end = self.shape_at(r, reg.pos + Vec2::from_facing(aim) * beyond, aim);
        // The least (gap of centres, index): the same one in any order of search.
        let mut best: Option<(usize, f64)> = None;
        let far = end.radius + self.neighbours.max_radius() + HAIR;
        any_within!(
            self,
            reg.side,
            end.centre,
            far,
            |o: usize, other: &Regiment| {
                // Only a footprint whose enclosing circle reaches the end's can meet it: the
                // circles first, so that most friends' footprints are never made.
                let touch = end.radius + other.radius + HAIR;
                if o != r
                    && other.state != State::Gone
                    && other.pos.dist(end.centre) <= touch
                    && !self.passes(r, o)
                {
                    let s = self.shape(o);
                    let g = s.centre.dist(reg.pos);
                    if in_the_way(&end, &s)
                        && end.dist(&s) == 0.0
                        && best.is_none_or(|(b, bg)| g.total_cmp(&bg).then(o.cmp(&b)).is_lt())
                    {
                        best = Some((o, g));
                    }
                }
                false
            }
        );
        best.map(|(o, _)| o)
    }

    /// Regiment `r`, held by friend `f`, steps sideways (keeping its facing `aim`) round the
    /// friend (`side_step_way`), then on along `aim` with what is left of the move. False,
    /// unmoved, if no way is clear or it has no move left for it.
    fn side_step<O: Observer>(
        &mut self,
        r: usize,
        f: usize,
        aim: f64,
        gait: Gait,
        obs: &mut O,
    ) -> bool {
        let Some((v, leg)) = self.side_step_leg(r, f, aim, gait) else {
            return false;
        };
        self.take_side_step(r, aim, v, leg, gait, obs);
        true
    }

    /// Foot `r`, held by friend `f` with no way round it in line, form column and side-step
    /// in it (doctrine, `battle.pass_in_column`): only from line, with no change of formation
    /// yet this move (one a move), the column clear of friends where it stands, a way round
    /// for it, and room for what is left of its move short of the enemy (`column_room`); the
    /// change pays its share of the move. False, unchanged and unmoved, otherwise.
    fn pass_in_column<O: Observer>(
        &mut self,
        r: usize,
        f: usize,
        aim: f64,
        gait: Gait,
        obs: &mut O,
    ) -> bool {
        let was = self.regiments[r];
        let rules = self.rules.clone();
        if !rules.battle.pass_in_column
            || was.kind != Kind::Foot
            || was.formation != Formation::Line
            || was.spent > 0.0
            || !was.can_form(Formation::Column, &rules)
        {
            return false;
        }
        self.form(r, Formation::Column);
        self.regiments[r].spent = rules.formations.change_share.min(1.0);
        let left = self.left_of(r, self.regiments[r].move_at(gait, &rules));
        let leg = (self.column_room(r) > left && !self.overlaps_friend(r, &self.shape(r)))
            .then(|| self.side_step_leg(r, f, aim, gait))
            .flatten();
        let Some((v, leg)) = leg else {
            self.regiments[r] = was;
            self.placed(r);
            return false;
        };
        emit(obs, Event::FormationChanged { unit: was.unit });
        self.take_side_step(r, aim, v, leg, gait, obs);
        true
    }

    /// Whether column `r`, its doctrine wanting formation `want`, keeps its column instead
    /// (doctrine, `battle.pass_in_column`): it is still passing its friends (`passing`) and
    /// has room short of the enemy (`column_room`).
    pub(super) fn keeps_column(&self, r: usize, want: Formation) -> bool {
        want != Formation::Column && self.passing(r) && self.column_room(r) > 0.0
    }

    /// How far a column kept to pass its friends (`keeps_column`) may advance: to the edge of
    /// its room short of the enemy (`column_room`), where it re-forms next move; unbounded
    /// for anyone else, a column marching far from the enemy (`column_beyond`) among them.
    fn column_cap(&self, r: usize) -> f64 {
        if !self.passing(r) {
            return f64::INFINITY;
        }
        let beyond = self.rules.formations.doctrine.column_beyond;
        let marching = self.nearest_active(r).is_some_and(|(_, gap)| gap > beyond);
        let room = self.column_room(r);
        if room > 0.0 && !marching {
            room
        } else {
            f64::INFINITY
        }
    }

    /// Whether foot `r` is a column still passing its friends (`battle.pass_in_column`): its
    /// line's footprint where it stands, with the way a move straight on would sweep,
    /// overlaps a friend.
    fn passing(&self, r: usize) -> bool {
        let reg = &self.regiments[r];
        if !self.rules.battle.pass_in_column
            || reg.kind != Kind::Foot
            || reg.formation != Formation::Column
        {
            return false;
        }
        let (w, d) = reg.footprint(Formation::Line, &self.rules);
        let ahead = reg.move_at(reg.next_gait(&self.rules), &self.rules);
        let fwd = Vec2::from_facing(reg.facing);
        let way = Shape::new(reg.pos + fwd * (ahead / 2.0), fwd, w, d + ahead);
        self.overlaps_friend(r, &way)
    }

    /// How much nearer regiment `r` may come to the enemy before a column would stand within
    /// some active enemy's reach (`reach`) and the ruling's `column_clear_of_enemy`.
    pub(super) fn column_room(&self, r: usize) -> f64 {
        let me = self.shape(r);
        let clear = self.rules.battle.column_clear_of_enemy;
        let n = &self.neighbours;
        let far = me.radius + n.max_radius() + n.column_reach();
        // The least over the active enemies, searched outward; one whose enclosing circles
        // put it beyond the least so far cannot lower it (its shape is never made).
        let mut room = f64::INFINITY;
        outward!(
            self,
            self.regiments[r].side.other(),
            me.centre,
            far,
            room,
            |e: usize, en: &Regiment| {
                if en.state == State::Active {
                    let reach = self.reach(e);
                    let bound = me.centre.dist(en.pos) - me.radius - en.radius;
                    if bound - reach - clear <= room {
                        room = room.min(self.gap(r, e) - reach - clear);
                    }
                }
                room + clear
            }
        );
        room
    }

    /// How far enemy `e` reaches a column: its small arms' long range, or a horse's charge
    /// (its next gait's move at the ruling's share), whichever is farther; a gun not at all.
    fn reach(&self, e: usize) -> f64 {
        let (en, rules) = (&self.regiments[e], &*self.rules);
        let arms = en.long_range(rules);
        if !en.is_horse() {
            return arms;
        }
        arms.max(en.charge_reach(rules))
    }

    /// Whether footprint `s` of regiment `r` overlaps (not just touches) a friend it may not
    /// pass.
    pub(super) fn overlaps_friend(&self, r: usize, s: &Shape) -> bool {
        let (side, within) = (self.regiments[r].side, inside(*s));
        let far = s.radius + self.neighbours.max_radius();
        any_within!(self, side, s.centre, far, |o: usize, reg: &Regiment| {
            o != r
                && reg.state != State::Gone
                && !self.passes(r, o)
                && reg.pos.dist(s.centre) <= s.radius + reg.radius
                && within.dist(&self.shape(o)) == 0.0
        })
    }

    /// The way regiment `r`, held by friend `f`, steps sideways (keeping its facing `aim`) to
    /// clear the friend's flank by the ruling's margin, the nearer side first (the left on a
    /// tie): at the ruling's oblique, else straight to the flank, whichever way it sweeps is
    /// clear (`way_clear`) and leads into a gap (the way on from there, level with the friend,
    /// clear of friends too); with its first leg at `gait`. None if no way is clear, or the
    /// leg goes nowhere (or over a high wall).
    fn side_step_leg(&self, r: usize, f: usize, aim: f64, gait: Gait) -> Option<(Vec2, Leg)> {
        let b = &self.rules.battle;
        let me = self.shape_at(r, self.regiments[r].pos, aim);
        let (fwd, right) = (me.fwd, me.fwd.right());
        let s = self.shape(f);
        let across = (s.centre - me.centre).dot(right);
        let wide = me.half_frontage + s.shadow(right) + b.side_step_margin;
        // From beside the friend, on until its front is level with the friend's.
        let level = |v: Vec2| (s.centre - me.centre - v).dot(fwd) + s.shadow(fwd) - me.half_depth;
        // Signed shifts along `right` that clear the friend: past its right flank, or its left.
        let (to_right, to_left) = (across + wide, across - wide);
        let sides = if -to_left <= to_right {
            [to_left, to_right]
        } else {
            [to_right, to_left]
        };
        let angles = [b.side_step_degrees.min(90.0), 90.0];
        let way = sides
            .into_iter()
            .flat_map(|shift| angles.map(|deg| (shift, deg.to_radians())))
            .filter(|&(_, a)| a.sin() > HAIR)
            .map(|(shift, a)| fwd * (shift.abs() / a.tan()) + right * shift)
            .find(|&v| {
                let from = self.regiments[r].pos;
                self.way_clear(r, from, aim, v, Holds::Everyone)
                    && self.way_clear(r, from + v, aim, fwd * level(v).max(0.0), Holds::Friends)
            });
        let v = way?;
        let leg: Leg = self.allowance(r, v.norm(), gait);
        (!leg.going.high_wall && leg.dist > HAIR).then_some((v, leg))
    }

    /// Regiment `r` takes side-step `v` on its first leg `leg`, facing `aim`, then goes on
    /// along `aim` at `gait` with what is left of the move.
    fn take_side_step<O: Observer>(
        &mut self,
        r: usize,
        aim: f64,
        v: Vec2,
        leg: Leg,
        gait: Gait,
        obs: &mut O,
    ) {
        let (len, dir) = (v.len(), v.norm());
        let went = leg.dist.min(len);
        self.step(r, aim, dir * went, leg.going.disorders, obs);
        self.regiments[r].gait = leg.gait;
        self.regiments[r].full_move = leg.full;
        if went < len {
            return;
        }
        let on = Vec2::from_facing(aim);
        let rest = self.allowance(r, on, gait);
        let dist = rest.dist.min(leg.dist - went);
        let run = self.clear_run(r, on, aim, dist, Holds::Everyone);
        self.march(r, aim, run, rest, obs);
    }

    /// Whether the way regiment `r` would sweep going by `v` from `from`, facing `aim`, keeps
    /// clear of those that `holds` it: every friend it may not pass (touching is allowed; one
    /// it overlaps at `from` does not hold it), the contact gap from every enemy.
    pub(super) fn way_clear(&self, r: usize, from: Vec2, aim: f64, v: Vec2, holds: Holds) -> bool {
        let reg = &self.regiments[r];
        let start = self.shape_at(r, from, aim);
        let gap = self.rules.battle.contact_gap;
        let (a, b) = (from, from + v);
        // Only the centres within the enclosing circles' reach of the way's box.
        let grow = start.radius + self.neighbours.max_radius() + gap + HAIR;
        let lo = Vec2::new(a.x.min(b.x) - grow, a.y.min(b.y) - grow);
        let hi = Vec2::new(a.x.max(b.x) + grow, a.y.max(b.y) + grow);
        !any_near_either!(self, lo, hi, |o: usize, other: &Regiment| {
            if o == r || other.state == State::Gone {
                return false;
            }
            // Enclosing circles first: most regiments are far from the way.
            let reach = start.radius + other.radius + gap;
            if dist_point_segment(other.pos, a, b) > reach + HAIR {
                return false;
            }
            let s = self.shape(o);
            let lets_by = if other.side != reg.side {
                !holds.enemies() || start.swept_gap(v, &s) >= gap
            } else {
                !holds.friends()
                    || self.passes(r, o)
                    || inside(start).dist(&s) == 0.0
                    || start.swept_gap(v, &s) > -HAIR
            };
            !lets_by
        })
    }
}

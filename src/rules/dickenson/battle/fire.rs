//! Fire: volleys of six (foot, dismounted dragoons, horse with their pistols), a forlorn hope's
//! individual shots, guns by their rate with the fall of shot played out on the table, hit
//! areas, gun on gun and ammunition blown up; closing fire and the morale throws before it.

use super::neighbours::{MARGIN, beaten, nearer};
use super::regiment::{Formation, Kind, Regiment, State};
use super::{Battle, emit};
use crate::battlefield::geometry::{Shape, dist_point_segment};
use crate::battlefield::{ObstacleKind, Vec2};
use crate::dice::DiceSource;
use crate::events::{Event, Observer};
use crate::rules::dickenson::events::{Detail, Source};
use crate::rules::dickenson::gunnery::{self, GunDamage};
use crate::rules::dickenson::morale::{self, MoraleResult};
use crate::rules::dickenson::tables::HitArea;
use crate::rules::dickenson::volley::{self, Arm, Band};
use crate::setup::BattleSetup;

/// What a target is sought for (`Battle::target_of`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seek {
    /// Small arms: the nearest enemy (or sited team) whose line crosses no friend
    /// (`battle.clear_line_of_fire`).
    SmallArms,
    /// A gun laying its shot: the nearest enemy whose line no friend masks, save friends below
    /// a gun on a hill (`battle.guns_clear_line`).
    Shot,
    /// Whether an enemy stands in range and arc at all, masked or not (a gun deciding whether
    /// to pivot: a masked gun waits, it does not turn away).
    Sight,
}

impl Battle {
    /// Every regiment not in melee that may fire does, side by side.
    pub fn fire_phase<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        for side in self.sides() {
            for r in 0..self.regiments.len() {
                let reg = &self.regiments[r];
                if reg.side != side
                    || reg.state != State::Active
                    || reg.engaged.is_some()
                    || reg.fired
                {
                    continue;
                }
                if reg.is_gun() {
                    self.fire_gun(r, dice, obs);
                } else {
                    self.small_arms(r, setup, dice, obs);
                }
            }
        }
    }

    /// Whether regiment `r` may fire its small arm now: muskets loaded and no more than half a
    /// move made (firing takes the other half); dragoons only dismounted (halted); pistols
    /// while any is loaded, on the move or not.
    fn ready(&self, r: usize, arm: Arm) -> bool {
        let reg = &self.regiments[r];
        if reg.formation == Formation::Column && !self.rules.formations.column_fires {
            return false;
        }
        match arm {
            Arm::Pistol => reg.pistols > 0,
            Arm::Musketoon => reg.loaded && reg.moved == 0.0,
            Arm::Musket => {
                // A change of formation spent part of the move, as marching does.
                let w = arm.weapon(&self.rules);
                let used = reg.moved + reg.spent * reg.full_move;
                reg.loaded && used <= reg.full_move * (1.0 - w.fire_moves) + 1e-9
            }
        }
    }

    /// Whether point `to` lies within `degrees` of regiment `r`'s front: always for a regiment
    /// standing all round (a square has no flank or rear).
    pub(super) fn faces(&self, r: usize, to: Vec2, degrees: f64) -> bool {
        self.regiments[r].all_round(&self.rules) || self.in_arc(r, to, degrees)
    }

    /// The share of regiment `r`'s figures on its face toward point `to` (all of them unless it
    /// stands all round).
    pub(super) fn face_toward(&self, r: usize, to: Vec2) -> f64 {
        let reg = &self.regiments[r];
        let (off, fwd) = (to - reg.pos, self.front(r));
        reg.face_share(off.dot(fwd), off.dot(fwd.right()), &self.rules)
    }

    /// The nearest enemy within `range` and the front arc (any side of a square), not in
    /// melee: (it, gap). For small arms a sited gun's team behind it is a target too, as the
    /// gun's (ruling: the volley falls on the team where it is the nearer); small arms and a
    /// gun's shot seek only an enemy whose line no friend masks, as `seek` says.
    pub(super) fn target_of(&self, r: usize, range: f64, seek: Seek) -> Option<(usize, f64)> {
        let arc = self.rules.battle.front_arc_degrees;
        let me = self.shape(r);
        let side = self.regiments[r].side;
        let small_arms = seek == Seek::SmallArms;
        let clear = match seek {
            Seek::SmallArms => self.rules.battle.clear_line_of_fire,
            Seek::Shot => self.rules.battle.guns_clear_line,
            Seek::Sight => false,
        };
        let over = seek == Seek::Shot && self.ground_is_hill(me.centre);
        let behind = if small_arms {
            self.rules.gun_team.sited_behind
        } else {
            0.0
        };
        let mut best: Option<(usize, f64)> = None;
        // The lowest index among equals (`nearer`), searched outward from `r` until no
        // regiment left may be within range or as near as the best.
        let far = me.radius + self.neighbours.max_radius() + behind;
        outward!(
            self,
            side.other(),
            me.centre,
            far,
            range,
            |o: usize, reg: &Regiment| {
                let limit = |best: Option<(usize, f64)>| best.map_or(range, |(_, g)| g.min(range));
                if reg.state == State::Gone || reg.engaged.is_some() {
                    return limit(best);
                }
                // The enclosing circles bound the gap from below: a regiment beyond the range by
                // them, or no nearer than the best, cannot be the target (its shape is never made).
                let reach = reg.radius + behind * f64::from(reg.is_gun());
                let bound = me.centre.dist(reg.pos) - me.radius - reach;
                if bound > range || beaten(bound, o, best) {
                    return limit(best);
                }
                let mut at = (me.dist(&self.shape(o)), reg.pos);
                if small_arms && let Some(team) = self.team_gap(&me, o).filter(|t| t.0 < at.0) {
                    at = team;
                }
                let (g, p) = at;
                if g <= range
                    && nearer(g, o, best)
                    && self.faces(r, p, arc)
                    && !(clear && self.friend_across(r, p, over))
                {
                    best = Some((o, g));
                }
                limit(best)
            }
        );
        best
    }

    /// Whether a friend of regiment `r` (not gone) stands across its line of fire to `mark`:
    /// the segment from its centre crosses the friend's footprint (ruling: no one fires
    /// through his own men). A friend whose footprint meets `r`'s is one it stands among (a
    /// forlorn hope between the squadrons it lines), not one before it; with `over` (a gun on a
    /// hill), a friend whose centre is off the hill is below the line. Only friends whose
    /// centres lie in the segment's box grown by the largest footprint can cross it
    /// (`any_near!`), and only those whose enclosing circle it reaches have their footprint made.
    fn friend_across(&self, r: usize, mark: Vec2, over: bool) -> bool {
        let me = self.shape(r);
        let from = me.centre;
        let grow = Vec2::new(1.0, 1.0) * (self.neighbours.max_radius() + MARGIN);
        let lo = Vec2::new(from.x.min(mark.x), from.y.min(mark.y)) - grow;
        let hi = Vec2::new(from.x.max(mark.x), from.y.max(mark.y)) + grow;
        any_near!(
            self,
            self.regiments[r].side,
            lo,
            hi,
            |o: usize, f: &Regiment| {
                o != r
                    && f.state != State::Gone
                    && dist_point_segment(f.pos, from, mark) <= f.radius
                    && (!over || self.ground_is_hill(f.pos))
                    && {
                        let s = self.shape(o);
                        s.crosses(from, mark) && me.dist(&s) > 0.0
                    }
            }
        )
    }

    /// Whether regiment `r`, whose nearest active enemy `t` is within `range`, has an active
    /// enemy within it whose line of fire crosses no friend (`friend_across`): always with
    /// `battle.clear_line_of_fire` false. Its orders ask it, so that a shooter whose every line
    /// friends mask does not stand to give fire it cannot give. The nearest is asked first (it
    /// is mostly clear), then only enemies whose enclosing circles come within range.
    pub(super) fn clear_line_within(&self, r: usize, t: usize, range: f64) -> bool {
        if !self.rules.battle.clear_line_of_fire
            || !self.friend_across(r, self.regiments[t].pos, false)
        {
            return true;
        }
        let me = self.shape(r);
        let far = me.radius + range + self.neighbours.max_radius() + MARGIN;
        let side = self.regiments[r].side.other();
        any_within!(self, side, me.centre, far, |o: usize, e: &Regiment| {
            o != t
                && e.state == State::Active
                && me.centre.dist(e.pos) - me.radius - e.radius <= range
                && me.dist(&self.shape(o)) <= range
                && !self.friend_across(r, e.pos, false)
        })
    }

    /// The gap from shape `me` to gun `u`'s sited team (standing on ground the gun's
    /// footprint's size), and where the team stands; None without one.
    fn team_gap(&self, me: &Shape, u: usize) -> Option<(f64, Vec2)> {
        let (at, _) = self.sited_team(u)?;
        let reg = &self.regiments[u];
        let team = reg.shape_at(at, self.front(u));
        Some((me.dist(&team), at))
    }

    /// Whether regiment `r`'s fire at gun `t` falls on its sited team: the team nearer than
    /// the gun (it stands in the line of fire, or is the nearer mark).
    fn at_team(&self, r: usize, t: usize) -> bool {
        let me = self.shape(r);
        self.team_gap(&me, t)
            .is_some_and(|(g, _)| g < me.dist(&self.shape(t)))
    }

    /// Whether an enemy stands within `range` of regiment `r` and its front arc.
    pub(super) fn in_arc_and_range(&self, r: usize, range: f64) -> bool {
        self.target_of(r, range, Seek::Sight).is_some()
    }

    /// A regiment's small arms at the nearest enemy in range.
    fn small_arms<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        let Some(arm) = self.regiments[r].arm() else {
            return;
        };
        if !self.ready(r, arm) {
            return;
        }
        let Some((t, gap)) = self.target_of(r, arm.weapon(&self.rules).long, Seek::SmallArms)
        else {
            return;
        };
        let Some(band) = volley::band(arm.weapon(&self.rules), gap) else {
            return;
        };
        let shot = Shot {
            arm,
            band,
            rested: self.rested(r, setup),
            closing: false,
        };
        self.shoot(r, t, shot, dice, obs);
    }

    /// Whether a forlorn hope rests its muskets on a wall (one within its depth).
    fn rested(&self, r: usize, setup: &BattleSetup) -> bool {
        let reg = &self.regiments[r];
        setup.ground.obstacles.iter().any(|o| {
            o.kind == ObstacleKind::Wall && dist_point_segment(reg.pos, o.a, o.b) <= reg.depth
        })
    }

    /// Regiment `r` fires at `t` (`shot.closing`: at a charger): volleys of six (a forlorn
    /// hope fires man by man; a square from the face toward `t`); the target saves. Returns the figures it lost.
    pub fn shoot<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        shot: Shot,
        dice: &mut D,
        obs: &mut O,
    ) -> u16 {
        let Shot {
            arm,
            band,
            rested,
            closing,
        } = shot;
        let reg = self.regiments[r];
        let team = self.sited_team(t).filter(|_| self.at_team(r, t));
        let mark = team.map_or(self.regiments[t].pos, |(at, _)| at);
        // A square fires from its face toward the target alone.
        let men = u32::from(reg.firers(self.face_toward(r, mark)));
        dice.focus(Self::regiment_stream(r));
        let hits = if reg.kind == Kind::ForlornHope {
            (0..men)
                .filter(|_| volley::single_shot_hits(dice.d6(), arm, band, rested, &self.rules))
                .count() as u32
        } else {
            volley::fire(dice, arm, band, men, &self.rules)
        };
        let firer = &mut self.regiments[r];
        firer.fired = true;
        match arm {
            Arm::Pistol => firer.pistols = firer.pistols.saturating_sub(1),
            _ => firer.loaded = false,
        }
        emit(
            obs,
            Event::Dickenson(Detail::Volley {
                unit: reg.unit,
                target: self.regiments[t].unit,
                arm,
                men: men.min(u32::from(u16::MAX)) as u16,
                band,
                individual: reg.kind == Kind::ForlornHope,
                closing,
                hits: hits.min(u32::from(u16::MAX)) as u16,
            }),
        );
        match team {
            // Hits beyond the team's figures fall on nobody (ruling).
            Some((_, n)) => self.hit_bodies(t, 0, hits.min(n), r, Source::Volley, dice, obs),
            None => self.hit(t, hits, r, Source::Volley, dice, obs),
        }
        .figures
    }

    /// Closing fire of regiment `t` at regiment `r` charging it from `need` away with a move of
    /// `full`: only if loaded and the charger moves at least half its move to attack, at short
    /// range. True when it fired.
    pub fn closing_fire<D: DiceSource, O: Observer>(
        &mut self,
        t: usize,
        r: usize,
        need: f64,
        full: f64,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        let firer = self.regiments[t];
        let Some(arm) = firer.arm() else {
            return false;
        };
        let w = arm.weapon(&self.rules);
        let loaded = match arm {
            Arm::Pistol => firer.pistols > 0,
            _ => firer.loaded,
        };
        if !loaded
            || firer.state != State::Active
            || need < self.rules.volley.closing_fire_min_move * full
            || need > w.long
            || !self.faces(
                t,
                self.regiments[r].pos,
                self.rules.battle.front_arc_degrees,
            )
        {
            return false;
        }
        let shot = Shot {
            arm,
            band: Band::Short,
            rested: false,
            closing: true,
        };
        self.shoot(t, r, shot, dice, obs);
        true
    }

    /// Whether regiment `t`, charged by horse, throws first (seed, FORMATIONS): pike in one
    /// rank; musketeers with no pike (two ranks, or one at the forlorn hope's deduction);
    /// gunners. Pike in two ranks do not (the horse throws).
    pub fn throws_against_horse(&self, t: usize) -> bool {
        self.regiments[t].throws_against_horse(&self.rules)
    }

    /// Regiment `t` charged by horse `r` throws first, as [`Battle::throws_against_horse`]
    /// says (musketeers in one rank at the ruling's deduction); on a fall-back or rout result
    /// it carries it out. True when it stands to receive the charge.
    pub fn stands_against_horse<D: DiceSource, O: Observer>(
        &mut self,
        t: usize,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        if !self.throws_against_horse(t) {
            return true;
        }
        let result = self.throw_first(t, r, dice, obs);
        self.stands_on(t, result, obs)
    }

    /// The throw regiment `t`, charged by horse `r`, makes first (musketeers in one rank at
    /// the ruling's deduction); not yet obeyed.
    pub fn throw_first<D: DiceSource, O: Observer>(
        &mut self,
        t: usize,
        r: usize,
        dice: &mut D,
        obs: &mut O,
    ) -> MoraleResult {
        let other = self.regiments[t].against_horse_deduction(&self.rules);
        dice.focus(Self::regiment_stream(t));
        let adds = self.adds(t, Some(r));
        self.chart_throw(t, adds, other, dice, obs)
    }

    /// Regiment `t` obeys its throw first against horse: true when it stands to receive them.
    pub fn stands_on<O: Observer>(&mut self, t: usize, result: MoraleResult, obs: &mut O) -> bool {
        self.obey(t, result, obs);
        matches!(result, MoraleResult::Good | MoraleResult::Stand)
    }

    /// The pistol breach: horse `r` entering the pikestand `t` fires a pistol volley from
    /// its front rank at the pikes; a breach needs the rules' kills.
    pub fn breach<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        t: usize,
        dice: &mut D,
        obs: &mut O,
    ) -> bool {
        let reg = self.regiments[r];
        if reg.pistols == 0 {
            return false;
        }
        let front = u32::from(reg.front_rank(reg.main_figure(), reg.horsemen, &self.rules));
        dice.focus(Self::regiment_stream(r));
        let hits = volley::fire(dice, Arm::Pistol, Band::Short, front, &self.rules);
        self.regiments[r].pistols -= 1;
        emit(
            obs,
            Event::Dickenson(Detail::Volley {
                unit: reg.unit,
                target: self.regiments[t].unit,
                arm: Arm::Pistol,
                men: front.min(u32::from(u16::MAX)) as u16,
                band: Band::Short,
                individual: false,
                closing: false,
                hits: hits.min(u32::from(u16::MAX)) as u16,
            }),
        );
        let killed = self.hit(t, hits, r, Source::Volley, dice, obs).figures;
        u32::from(killed) >= self.rules.formations.breach_kills
    }

    /// A gun fires, if its rate, crew, wheel and ammunition allow, at the nearest enemy in its
    /// maximum range: the coloured and white dice lay the shot, the hit area strikes whatever
    /// lies under it.
    fn fire_gun<D: DiceSource, O: Observer>(&mut self, r: usize, dice: &mut D, obs: &mut O) {
        let reg = self.regiments[r];
        let Kind::Gun(calibre) = reg.kind else {
            return;
        };
        let gun = *calibre.gun(&self.rules);
        let drill = self.rules.gun_drill;
        if reg.gun == morale::GunState::Destroyed
            || reg.wheel > 0
            || reg.gunners == 0
            || reg.limbered
            || reg.spent > drill.fire_share + 1e-9
        {
            return;
        }
        // Not ready, or short of the least charge any shot takes: no target is sought (the
        // search and its lines of fire are the costly part).
        let least = gunnery::least_powder(&self.rules);
        if !gunnery::can_fire(&gun, reg.since_fired, reg.balls, reg.powder, least) {
            return;
        }
        let Some((t, _)) = self.target_of(r, gun.maximum_range, Seek::Shot) else {
            return;
        };
        let distance = reg.pos.dist(self.regiments[t].pos);
        let powder = gunnery::powder(&gun, distance, &self.rules);
        if !gunnery::can_fire(&gun, reg.since_fired, reg.balls, reg.powder, powder) {
            return;
        }
        let Some(half_dice) = gunnery::effect_half_dice(&gun, distance) else {
            return;
        };
        dice.focus(Self::regiment_stream(r));
        let landing = gunnery::fall_of_shot(dice, distance, &self.rules);
        let effect = gunnery::effect(dice, half_dice);
        let g = &mut self.regiments[r];
        g.balls -= 1;
        g.powder -= powder;
        g.since_fired = 0;
        g.fired = true;
        let aim = (self.regiments[t].pos - reg.pos).norm();
        let at = Impact {
            point: reg.pos + aim * landing.along + aim.right() * landing.across,
            aim,
            area: gun.hit_area,
        };
        // The shot is told before its losses, which may end the regiments under it.
        if obs.listening() {
            let target = &self.regiments[t];
            let on_target = self.under_area(r, t, &at).is_some();
            let reach = target.radius;
            emit(
                obs,
                Event::Dickenson(Detail::GunShot {
                    unit: reg.unit,
                    target: target.unit,
                    calibre,
                    range: distance as f32,
                    fall: gunnery::fall(on_target, landing, distance, gun.hit_area, reach),
                    effect: effect.min(u32::from(u16::MAX)) as u16,
                }),
            );
        }
        let a = &self.rules.ammunition;
        let least = a.powder_short.min(a.powder_medium).min(a.powder_long);
        let g = &self.regiments[r];
        if g.balls == 0 || g.powder < least {
            emit(
                obs,
                Event::Dickenson(Detail::AmmunitionExhausted { unit: reg.unit }),
            );
        }
        self.strike_area(r, &at, effect, dice, obs);
    }

    /// What of regiment `u` lies under gun `r`'s hit area, if anything.
    fn under_area(&self, r: usize, u: usize, at: &Impact) -> Option<Under> {
        let area = at.area;
        let reg = &self.regiments[u];
        if u == r || reg.state == State::Gone {
            return None;
        }
        // Beyond its reach (and its ammunition's), nothing of it can be under the area. The
        // area's half diagonal is at most half its two sides: those farther than that (by a
        // margin far above rounding) are beyond it without working out the diagonal.
        let (off, own) = (
            reg.pos.dist(at.point),
            reg.radius + self.rules.ammunition.kept_within,
        );
        if off > own + 0.5 * (area.length.abs() + area.width.abs()) + 1e-9
            || off > own + 0.5 * area.length.hypot(area.width)
        {
            return None;
        }
        if reg.is_gun() {
            let ammo = reg.pos - self.front(u) * self.rules.ammunition.kept_within;
            if under(at, ammo, 0.0, 0.0) > 0.0 {
                return Some(Under::Ammunition(ammo));
            }
        }
        let f = self.covered(u, at);
        (f > 0.0).then_some(Under::Figures(f))
    }

    /// The hit area of gun `r` laid where it fell: the effect's casualties among the figures
    /// under it (the regiments in turn, each at most the figures touched), a gun under it on
    /// the gun-on-gun table, and any ammunition under it blown up.
    fn strike_area<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        at: &Impact,
        effect: u32,
        dice: &mut D,
        obs: &mut O,
    ) {
        let mut left = effect;
        for u in 0..self.regiments.len() {
            let reg = self.regiments[u];
            left -= self.strike_team(r, u, at, left, dice, obs);
            let f = match self.under_area(r, u, at) {
                None => continue,
                Some(Under::Ammunition(ammo)) => {
                    self.blast(u, ammo, r, dice, obs);
                    continue;
                }
                Some(Under::Figures(f)) => f,
            };
            if let (Kind::Gun(target), Kind::Gun(firer)) = (reg.kind, self.regiments[r].kind) {
                dice.focus(Self::regiment_stream(r));
                let damage = gunnery::gun_on_gun(dice.d6(), firer, target, &self.rules);
                self.damage_gun(u, damage, r, Source::Gun, dice, obs);
                // A limbered gun's team are figures under the area too.
                let touched = (f64::from(reg.team()) * f).ceil() as u32;
                let n = left.min(touched);
                left -= n;
                self.hit_bodies(u, 0, n, r, Source::Gun, dice, obs);
                continue;
            }
            let touched = (f64::from(reg.figures()) * f).ceil() as u32;
            let n = left.min(touched);
            left -= n;
            self.hit(u, n, r, Source::Gun, dice, obs);
        }
    }

    /// Where gun `u`'s limber and team stand while it is sited (ruling: `gun_team.sited_behind`
    /// behind the gun, on ground the gun's footprint's size), and their figures; None while it
    /// is limbered (they are with the gun) or with none left.
    pub(super) fn sited_team(&self, u: usize) -> Option<(Vec2, u32)> {
        let reg = &self.regiments[u];
        let n = u32::from(reg.horses + reg.drivers);
        (reg.is_gun() && !reg.limbered && n > 0 && reg.state != State::Gone).then(|| {
            let behind = self.rules.gun_team.sited_behind;
            (reg.pos - self.front(u) * behind, n)
        })
    }

    /// Gun `r`'s hit area on the sited team of gun `u`: of the `left` casualties of its
    /// effect, those among the team figures under it (at most the figures touched), saved on
    /// the team's throw. Returns the casualties it took.
    fn strike_team<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        u: usize,
        at: &Impact,
        left: u32,
        dice: &mut D,
        obs: &mut O,
    ) -> u32 {
        let Some((team, figures)) = self.sited_team(u).filter(|_| u != r && left > 0) else {
            return 0;
        };
        let f = self.covered_at(u, team, at);
        if f <= 0.0 {
            return 0;
        }
        let n = left.min((f64::from(figures) * f).ceil() as u32);
        self.hit_bodies(u, 0, n, r, Source::Gun, dice, obs);
        n
    }

    /// The share of regiment `u`'s footprint under a hit area (its footprint taken as its box
    /// in the line of fire's frame: ruling).
    fn covered(&self, u: usize, at: &Impact) -> f64 {
        self.covered_at(u, self.regiments[u].pos, at)
    }

    /// The share under a hit area of regiment `u`'s footprint were it centred at `centre`.
    fn covered_at(&self, u: usize, centre: Vec2, at: &Impact) -> f64 {
        let reg = &self.regiments[u];
        let aim = at.aim;
        let fwd = self.front(u);
        let right = aim.right();
        let along = fwd.dot(aim).abs() * reg.depth + fwd.right().dot(aim).abs() * reg.frontage;
        let across = fwd.dot(right).abs() * reg.depth + fwd.right().dot(right).abs() * reg.frontage;
        under(at, centre, along, across)
    }

    /// What a hit (of regiment `by`) does to gun `u`.
    fn damage_gun<D: DiceSource, O: Observer>(
        &mut self,
        u: usize,
        damage: GunDamage,
        by: usize,
        source: Source,
        dice: &mut D,
        obs: &mut O,
    ) {
        match damage {
            GunDamage::Destroyed => {
                // Ruling: the crew of a destroyed gun leave the field.
                self.regiments[u].gun = morale::GunState::Destroyed;
                self.disintegrate(u, obs);
            }
            GunDamage::Wheel => {
                dice.focus(Self::regiment_stream(u));
                let die = dice.d6();
                let g = &mut self.regiments[u];
                g.gun = morale::GunState::Damaged(die);
                // Out for the repair moves after this one.
                g.wheel = self.rules.gun_on_gun.wheel_repair_moves.saturating_add(1);
            }
            GunDamage::Gunners(n) => {
                self.hit_bodies(u, u32::from(n), 0, by, source, dice, obs);
            }
        }
    }

    /// Ammunition of gun `g` hit by gun `by`: it is gone, and everything within the blast
    /// radius is thrown for: a die a figure (ruling: the rules' score a casualty, with saves),
    /// a gun on the gun-on-gun table at its own calibre.
    fn blast<D: DiceSource, O: Observer>(
        &mut self,
        g: usize,
        at: Vec2,
        by: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let a = &self.rules.ammunition;
        let (radius, on) = (a.blast_radius, a.blast_casualty_on);
        let by_unit = self.regiments[by].unit;
        let gun = &mut self.regiments[g];
        gun.balls = 0;
        gun.powder = 0;
        gun.wagons = 0; // ruling: its wagons stand with its ammunition
        emit(
            obs,
            Event::Dickenson(Detail::AmmunitionBlown {
                unit: gun.unit,
                by: by_unit,
            }),
        );
        for u in 0..self.regiments.len() {
            let reg = self.regiments[u];
            let team_near = self.team_within(u, at, radius) > 0;
            if reg.state == State::Gone || (self.shape(u).dist_to_point(at) > radius && !team_near)
            {
                continue;
            }
            dice.focus(Self::regiment_stream(u));
            if let Kind::Gun(c) = reg.kind {
                if self.shape(u).dist_to_point(at) <= radius {
                    let damage = gunnery::gun_on_gun(dice.d6(), c, c, &self.rules);
                    self.damage_gun(u, damage, by, Source::Blast, dice, obs);
                }
                let n = (0..self.team_within(u, at, radius))
                    .filter(|_| dice.d6() >= on)
                    .count() as u32;
                self.hit_bodies(u, 0, n, by, Source::Blast, dice, obs);
            } else {
                let n = (0..reg.figures()).filter(|_| dice.d6() >= on).count() as u32;
                self.hit(u, n, by, Source::Blast, dice, obs);
            }
        }
    }

    /// Gun `u`'s team figures within `radius` of `at`: with the gun while limbered, where they
    /// stand behind it while sited.
    fn team_within(&self, u: usize, at: Vec2, radius: f64) -> u32 {
        match self.sited_team(u) {
            Some((team, n)) => {
                let shape = self.shape(u).at(team);
                if shape.dist_to_point(at) <= radius {
                    n
                } else {
                    0
                }
            }
            None if self.shape(u).dist_to_point(at) <= radius => {
                u32::from(self.regiments[u].team())
            }
            None => 0,
        }
    }
}

/// One firing of a small arm: the arm, its range band, rested on a wall or not, closing or not.
#[derive(Debug, Clone, Copy)]
pub struct Shot {
    pub arm: Arm,
    pub band: Band,
    pub rested: bool,
    /// At a charger (closing fire).
    pub closing: bool,
}

/// Where a gun's hit area lies: its centre, the line of fire, its size.
#[derive(Debug, Clone, Copy)]
struct Impact {
    point: Vec2,
    aim: Vec2,
    area: HitArea,
}

/// What a hit area falls on: a gun's ammunition, or a share of a regiment's footprint.
enum Under {
    Ammunition(Vec2),
    Figures(f64),
}

/// The share of a box `along` x `across` at `centre` (in the line of fire's frame) under a hit
/// area, long side along the line of fire; for a point (zero size), 1 when inside.
fn under(at: &Impact, centre: Vec2, along: f64, across: f64) -> f64 {
    let (aim, area) = (at.aim, at.area);
    let d = centre - at.point;
    let (ca, cx) = (d.dot(aim), d.dot(aim.right()));
    let overlap = |c: f64, size: f64, half: f64| -> f64 {
        if size <= 0.0 {
            return if c.abs() < half { 1.0 } else { 0.0 };
        }
        let lo = (c - size / 2.0).max(-half);
        let hi = (c + size / 2.0).min(half);
        // Touching edges do not count (as `gunnery::falls_on`), rounding included.
        if hi - lo <= 1e-9 {
            0.0
        } else {
            (hi - lo) / size
        }
    };
    overlap(ca, along, area.length / 2.0) * overlap(cx, across, area.width / 2.0)
}

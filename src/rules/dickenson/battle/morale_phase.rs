//! Losses (saves, officers and standards struck, generals at risk), the morale throw at the end
//! of every move for every unit in melee or that lost figures, what the chart orders (stand,
//! fall back, rout), rallies by generals, and reloading.

use std::f64::consts::PI;

use super::movement::{Watch, reaction};
use super::regiment::{Gait, Kind, Loss, Regiment, State};
use super::{Battle, emit};
use crate::army::Side;
use crate::battlefield::Vec2;
use crate::dice::DiceSource;
use crate::events::{Event, GeneralResult, Observer};
use crate::rules::dickenson::events::{Detail, Figures, Source};
use crate::rules::dickenson::figures;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult, Struck};
use crate::rules::dickenson::tables::DickensonRules;

impl Battle {
    /// `n` casualties on regiment `r` from regiment `by` before saves: each saved on its
    /// figures' throw; of the rest a die of 6 strikes an officer, then the standard; otherwise
    /// rank and file (of a foot regiment, from the larger body). A limbered gun's team shares
    /// them (see [`Battle::team_hits`]). A general with it may be hit. Returns what it lost.
    pub fn hit<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        n: u32,
        by: usize,
        source: Source,
        dice: &mut D,
        obs: &mut O,
    ) -> Loss {
        let team = self.team_hits(r, n);
        self.hit_bodies(r, n - team, team, by, source, dice, obs)
    }

    /// Of `n` hits on regiment `r`, those on its team: a limbered gun's horses and drivers
    /// are figures beside its gunners, and each hit goes to the larger of team and crew (the
    /// team on a tie; ruling). None while it is sited (the team stands back with the limber).
    fn team_hits(&self, r: usize, n: u32) -> u32 {
        let reg = &self.regiments[r];
        let (mut team, mut crew, mut hits) = (u32::from(reg.team()), u32::from(reg.gunners), 0);
        if team == 0 {
            return 0;
        }
        for _ in 0..n {
            if team == 0 && crew == 0 {
                break;
            }
            if team >= crew {
                team -= 1;
                hits += 1;
            } else {
                crew -= 1;
            }
        }
        hits
    }

    /// `crew` hits on regiment `r`'s rank and file (as [`Battle::hit`]) and `team` on its gun
    /// team: saved on the team's throw, each of the rest from the larger of horses and drivers
    /// (horses on a tie).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hit_bodies<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        crew: u32,
        team: u32,
        by: usize,
        source: Source,
        dice: &mut D,
        obs: &mut O,
    ) -> Loss {
        let n = crew + team;
        if n == 0 || self.regiments[r].state == State::Gone {
            return Loss::default();
        }
        dice.focus(Self::regiment_stream(r));
        let main = self.regiments[r].main_figure();
        let casualties = figures::after_saves(dice, main, crew, &self.rules);
        let save = self.rules.gun_team.save;
        let team_down = (0..team).filter(|_| dice.d6() < save).count() as u32;
        let mut lost = Figures::default();
        self.team_falls(r, team_down, &mut lost);
        let (officers, standard) = self.figures_fall(r, casualties, dice, &mut lost);
        emit(
            obs,
            Event::Dickenson(Detail::Losses {
                unit: self.regiments[r].unit,
                by: self.regiments[by].unit,
                source,
                hits: n.min(u32::from(u16::MAX)) as u16,
                saved: n
                    .saturating_sub(casualties + team_down)
                    .min(u32::from(u16::MAX)) as u16,
                lost,
                officers,
                standard,
            }),
        );
        let rank_and_file = lost.total().min(u32::from(u16::MAX)) as u16;
        let all = (lost.total() + lost.team()).min(u32::from(u16::MAX)) as u16;
        let loss = Loss {
            figures: all,
            officers,
            standard,
        };
        let reg = &mut self.regiments[r];
        reg.lose_this_move(loss);
        // The team is not counted in the regiment's figures (its CV).
        if rank_and_file > 0 {
            emit(
                obs,
                Event::CvLost {
                    unit: reg.unit,
                    amount: rank_and_file.min(255) as u8,
                    cause: source.cause(),
                    cv: reg.figures_u8(),
                },
            );
        }
        if loss.casualties() > 0 {
            self.general_risk(r, dice, obs);
        }
        if self.regiments[r].figures() == 0 {
            self.disintegrate(r, obs);
        }
        loss
    }

    /// `down` of regiment `r`'s gun team fall, each from the larger of horses and drivers
    /// (horses on a tie), counted in `lost`.
    fn team_falls(&mut self, r: usize, down: u32, lost: &mut Figures) {
        for _ in 0..down {
            let g = &mut self.regiments[r];
            if g.horses + g.drivers == 0 {
                break;
            }
            if g.horses >= g.drivers {
                g.horses -= 1;
                lost.horses += 1;
            } else {
                g.drivers -= 1;
                lost.drivers += 1;
            }
        }
    }

    /// `casualties` of regiment `r`'s figures fall, each on a die: an officer, then the
    /// standard, while any remain; else rank and file (pikemen first while they outnumber
    /// the shot), counted in `lost`. Returns the officers struck and whether the standard fell.
    fn figures_fall<D: DiceSource>(
        &mut self,
        r: usize,
        casualties: u32,
        dice: &mut D,
        lost: &mut Figures,
    ) -> (u8, bool) {
        let (mut officers, mut standard) = (0u8, false);
        for _ in 0..casualties {
            let reg = self.regiments[r];
            if reg.figures() == 0 {
                break;
            }
            let count = u32::from(reg.officer) + u32::from(reg.mounted_officer);
            let reg = &mut self.regiments[r];
            match morale::struck(dice.d6(), count, reg.standard, &self.rules) {
                Struck::Officer if reg.mounted_officer => {
                    reg.mounted_officer = false;
                    officers += 1;
                }
                Struck::Officer => {
                    reg.officer = false;
                    officers += 1;
                }
                Struck::Standard => {
                    reg.standard = false;
                    standard = true;
                }
                Struck::RankAndFile => {
                    let (body, tally) = match reg.kind {
                        Kind::Foot | Kind::ForlornHope if reg.pikemen > reg.musketeers => {
                            (&mut reg.pikemen, &mut lost.pikemen)
                        }
                        Kind::Foot | Kind::ForlornHope => {
                            (&mut reg.musketeers, &mut lost.musketeers)
                        }
                        Kind::Horse(_) | Kind::Dragoons => (&mut reg.horsemen, &mut lost.horsemen),
                        Kind::Gun(_) => (&mut reg.gunners, &mut lost.gunners),
                    };
                    *body -= 1;
                    *tally += 1;
                }
            }
        }
        (officers, standard)
    }

    /// A general with a unit that lost men: on the rules' score he is hit, then killed,
    /// wounded (both out of the battle) or unhorsed (out for a move).
    fn general_risk<D: DiceSource, O: Observer>(&mut self, r: usize, dice: &mut D, obs: &mut O) {
        let Some(g) = self.general_with(r) else {
            return;
        };
        let g = usize::from(g);
        let rules = &self.rules.generals;
        dice.focus(self.general_stream(g));
        if dice.d6() < rules.hit_on {
            return;
        }
        let d = dice.d6();
        let result = if d <= rules.killed_at_most {
            GeneralResult::HorribleDeath
        } else if d <= rules.wounded_at_most {
            GeneralResult::GravelyWounded
        } else {
            GeneralResult::HorseFalls
        };
        let general = &mut self.generals[g];
        general.with = None;
        let out = result != GeneralResult::HorseFalls;
        if out {
            general.lost = true;
        } else {
            general.back_on = self.turn + u16::from(self.rules.battle.unhorsed_moves) + 1;
        }
        emit(
            obs,
            Event::GeneralCasualty {
                general: g as u16,
                result,
                captured: false,
            },
        );
        emit(
            obs,
            Event::Dickenson(Detail::CommanderHit {
                unit: self.regiments[r].unit,
                general: g as u16,
                result,
                out,
            }),
        );
    }

    /// The "ADD 1" list for regiment `r`'s throw (`foe`: the enemy it faces).
    pub fn adds(&self, r: usize, foe: Option<usize>) -> Adds {
        let reg = &self.regiments[r];
        let mut adds = [None; 9];
        let mut put = |k: usize, a: Add| adds[k] = Some(a);
        if reg.attacker {
            put(0, Add::Attacker);
        }
        let (supported, left, right) = self.supports(r);
        if supported {
            put(1, Add::Supported);
        }
        // Ruling: a square has no flank or rear to secure.
        let square = reg.all_round(&self.rules) && self.rules.formations.square.flanks_secured;
        if (left && right) || square {
            put(2, Add::FlanksSecured);
        }
        if reg.won_melee {
            put(3, Add::WonMelee);
        }
        if let Some(f) = foe {
            let hill = |p: Vec2| self.ground_is_hill(p);
            if hill(reg.pos) && !hill(self.regiments[f].pos) {
                put(4, Add::EnemyDownhill);
            }
            if reg.fought && {
                let (mine, theirs) = self.melee_losses(r);
                mine < theirs
            } {
                put(8, Add::FewerCasualties);
            }
        }
        if reg.enemy_withdrew {
            put(5, Add::EnemyWithdrawing);
        }
        if self.general_with(r).is_some() {
            put(6, Add::LieutenantGeneral);
        }
        if reg.pike_ranks(&self.rules) > 2 {
            put(7, Add::PikeDeep);
        }
        let mut list = [Add::Attacker; 9];
        let mut n = 0;
        for a in adds.into_iter().flatten() {
            list[n] = a;
            n += 1;
        }
        Adds::of(&list[..n])
    }

    /// Whether point `p` is on a hill.
    pub(super) fn ground_is_hill(&self, p: Vec2) -> bool {
        self.hills.iter().any(|a| a.contains(p))
    }

    /// How near a friend supports regiment `r`: half its move (the ruling's share of its
    /// trot, at least of a pike block's).
    pub(super) fn support_range(&self, r: usize) -> f64 {
        let rules = &self.rules;
        let trot = self.regiments[r].move_at(Gait::Trot, rules);
        rules.morale.support.range_share * trot.max(rules.movement.pikemen.line)
    }

    /// Whether a friendly unit not engaged stands within half a move of regiment `r`, and
    /// whether such friends stand on its left and on its right (flanks secured: ruling).
    pub(super) fn supports(&self, r: usize) -> (bool, bool, bool) {
        let reg = &self.regiments[r];
        let half = self.support_range(r);
        let me = self.shape(r);
        let right = me.fwd.right();
        let (mut any, mut l, mut rt) = (false, false, false);
        let far = me.radius + self.neighbours.max_radius() + half;
        any_within!(self, reg.side, me.centre, far, |o: usize, f: &Regiment| {
            if o == r || f.state != State::Active || f.engaged.is_some() {
                return false;
            }
            // A friend that would tell nothing new (a support already found, on a side already
            // secured) is not measured.
            let side = (f.pos - reg.pos).dot(right);
            let tells = !any || (side < 0.0 && !l) || (side > 0.0 && !rt);
            if !tells {
                return false;
            }
            // Beyond half a move by the enclosing circles (a lower bound on the gap): not a
            // support, and its shape is never made.
            let bound = me.centre.dist(f.pos) - me.radius - f.radius;
            if bound > half || me.dist(&self.shape(o)) > half {
                return false;
            }
            any = true;
            l |= side < 0.0;
            rt |= side > 0.0;
            // Both flanks secured: nothing left to find.
            l && rt
        });
        (any, l, rt)
    }

    /// Morale at the end of the move for every unit in melee or that lost figures.
    pub fn morale_phase<D: DiceSource, O: Observer>(&mut self, dice: &mut D, obs: &mut O) {
        for side in self.sides() {
            for r in 0..self.regiments.len() {
                let reg = self.regiments[r];
                if reg.side != side
                    || reg.state != State::Active
                    || !(reg.fought || reg.lost_this_move > 0)
                {
                    continue;
                }
                let foe = reg
                    .foe
                    .map(usize::from)
                    .or_else(|| self.nearest_enemy(r, |_| true).map(|(o, _)| o));
                let result = self.morale_throw(r, foe, dice, obs);
                if reg.fought
                    && let Some(f) = reg.foe
                    && self.regiments[usize::from(f)].won_melee
                {
                    emit(
                        obs,
                        Event::MeleeResult {
                            winner: Some(self.regiments[usize::from(f)].unit),
                            loser: Some(reg.unit),
                            result: reaction(result),
                        },
                    );
                }
            }
        }
    }

    /// Regiment `r` throws against the chart and obeys it.
    fn morale_throw<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        foe: Option<usize>,
        dice: &mut D,
        obs: &mut O,
    ) -> MoraleResult {
        let adds = self.adds(r, foe);
        let result = self.chart_throw(r, adds, 0, dice, obs);
        self.obey(r, result, obs);
        result
    }

    /// Regiment `r`'s throw on the morale chart with its `adds` and `other` deductions, told.
    pub fn chart_throw<D: DiceSource, O: Observer>(
        &mut self,
        r: usize,
        adds: Adds,
        other: i8,
        dice: &mut D,
        obs: &mut O,
    ) -> MoraleResult {
        dice.focus(Self::regiment_stream(r));
        let points_lost = self.points_lost(r);
        let mut w = Watch::new(dice);
        let total = morale::modified(&mut w, adds, points_lost, other, &self.rules);
        let result = morale::result(total, &self.rules);
        emit(
            obs,
            Event::Dickenson(Detail::Morale {
                unit: self.regiments[r].unit,
                dice: w.last,
                adds: adds.total(&self.rules).clamp(-128, 127) as i8,
                points_lost: points_lost.min(u32::from(u16::MAX)) as u16,
                other,
                total,
                result,
            }),
        );
        result
    }

    /// Carries out a chart result: stand (disordered, no advance next move), fall back a full
    /// move facing the enemy, disordered (and held as a stand is, by the ruling), or rout.
    pub fn obey<O: Observer>(&mut self, r: usize, result: MoraleResult, obs: &mut O) {
        let turn = self.turn;
        match result {
            MoraleResult::Good => {}
            MoraleResult::Stand => {
                let reg = &mut self.regiments[r];
                reg.disordered_until = turn + 1;
                reg.halt_until = turn + 1;
            }
            MoraleResult::FallBack => self.fall_back(r, obs),
            MoraleResult::Rout => self.rout(r, obs),
        }
    }

    /// Falls back a full move facing the enemy, disordered (from now: its move is told so)
    /// and, by the ruling `fall_back_holds`, with no advance next move (a stand's cost: else
    /// the worse result would leave it the freer), over the ground as any move and short of
    /// enemies and (unless the rulings let it through) friends; off the table it is gone. It
    /// goes straight back from its front, unless the nearest enemy standing is behind it (a
    /// charger turned away from its target): then it turns to face that enemy first, and goes
    /// straight back from it.
    fn fall_back<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        if let Some((e, _)) = self.nearest_enemy(r, |e| e.state == State::Active) {
            let at = self.regiments[e].pos;
            if !self.in_arc(r, at, 90.0) {
                self.regiments[r].facing = (at - self.regiments[r].pos).facing();
            }
        }
        let reg = self.regiments[r];
        // Ruling: horse fall back at the trot.
        let distance = self.rules.morale.fall_back_move * reg.move_at(Gait::Trot, &self.rules);
        let g = &mut self.regiments[r];
        g.disordered_until = self.turn + 1;
        if self.rules.morale.fall_back_holds {
            g.halt_until = self.turn + 1;
        }
        g.gait = Gait::Halt;
        emit(
            obs,
            Event::Retreat {
                unit: reg.unit,
                distance,
            },
        );
        let through = self.rules.battle.fall_backs_pass_friends;
        self.withdraw(r, reg.facing + PI, reg.facing, distance, through, obs);
    }

    /// Routs: at full gait away from the enemy, every move, until rallied or off the table.
    fn rout<O: Observer>(&mut self, r: usize, obs: &mut O) {
        self.disengage(r);
        let reg = &mut self.regiments[r];
        reg.state = State::Routing;
        reg.gait = Gait::Gallop;
        emit(
            obs,
            Event::Rout {
                unit: reg.unit,
                distance: reg.move_at(Gait::Gallop, &self.rules),
            },
        );
        self.flee(r, obs);
    }

    /// A general with a routing unit of his command tries to rally it: a good result on the
    /// chart (with his add) and it faces the enemy again, disordered, not advancing this move.
    pub fn rallies<D: DiceSource, O: Observer>(&mut self, dice: &mut D, obs: &mut O) {
        for g in 0..self.generals.len() {
            let general = self.generals[g];
            let Some(r) = general.with.map(usize::from) else {
                continue;
            };
            if general.lost
                || general.back_on > self.turn
                || self.regiments[r].state != State::Routing
            {
                continue;
            }
            let adds = Adds::of(&[Add::LieutenantGeneral]);
            dice.focus(Self::regiment_stream(r));
            let mut w = Watch::new(dice);
            let total = morale::modified(&mut w, adds, self.points_lost(r), 0, &self.rules);
            let success = morale::result(total, &self.rules) == MoraleResult::Good;
            let turn = self.turn;
            let reg = &mut self.regiments[r];
            if success {
                reg.state = State::Active;
                reg.facing = match reg.side {
                    Side::Parliament => 0.0,
                    Side::Royalist => PI,
                };
                reg.gait = Gait::Halt;
                reg.disordered_until = turn;
                reg.halt_until = turn;
            }
            emit(
                obs,
                Event::Rally {
                    unit: reg.unit,
                    roll: total.clamp(0, 255) as u8,
                    success,
                    cv: reg.figures_u8(),
                },
            );
            if success {
                emit(obs, Event::Recovered { unit: reg.unit });
            }
        }
    }

    /// Reloading: muskets and musketoons in a move stationary without firing; each pistol in
    /// half a move stationary; guns count the moves since they fired and mend their wheels.
    pub fn reload_phase(&mut self) {
        let pistol = self.rules.small_arms.pistol.reload_moves;
        let musket = self.rules.small_arms.musket.reload_moves;
        let each = self.rules.volley.pistols_each;
        for reg in &mut self.regiments {
            if reg.state != State::Active {
                continue;
            }
            reg.since_fired = reg.since_fired.saturating_add(1);
            restock(reg, &self.rules);
            if reg.wheel > 0 {
                reg.wheel -= 1;
                if reg.wheel == 0 && matches!(reg.gun, morale::GunState::Damaged(_)) {
                    reg.gun = morale::GunState::Sound;
                }
            }
            // A change of formation or limbering is no stand for reloading.
            if reg.moved > 0.0 || reg.fired || reg.spent > 0.0 {
                continue;
            }
            if musket <= 1.0 {
                reg.loaded = true;
            }
            if pistol > 0.0 {
                let n = (1.0 / pistol).floor().min(f64::from(each)) as u8;
                reg.pistols = reg.pistols.saturating_add(n).min(each);
            }
        }
    }
}

/// A gun out of ball or powder that did not fire this move takes a full wagon's loads
/// (ruling: the wagon stands with its ammunition, and refilling takes the move).
fn restock(reg: &mut super::Regiment, rules: &DickensonRules) {
    let Kind::Gun(c) = reg.kind else {
        return;
    };
    if reg.fired || reg.wagons == 0 || (reg.balls > 0 && reg.powder > 0) {
        return;
    }
    let (gun, loads) = (c.gun(rules), rules.gun_drill.wagon_loads);
    reg.wagons -= 1;
    reg.balls = reg.balls.saturating_add(gun.balls.saturating_mul(loads));
    reg.powder = reg.powder.saturating_add(gun.powder.saturating_mul(loads));
}

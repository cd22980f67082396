//! Step 15, close combat: dice, modifiers, flank attacks striking first, foot breaking to
//! horse, results, victory, pursuit; continuing melees; and camps.

use super::{Battle, Turn, emit, fire_cv};
use crate::army::UnitId;
use crate::battlefield::AreaKind;
use crate::dice::DiceSource;
use crate::doctrine::Doctrine;
use crate::events::{Event, LossCause, Observer, ReactionCause, ReactionResult};
use crate::rules::ironsides::dice_rules::{Rerolls, succeeds};
use crate::rules::ironsides::melee::{self, Approach, CombatResult, Cover, Role};
use crate::rules::ironsides::{fire, pursuit};
use crate::setup::BattleSetup;

/// One side's blows in a melee: its dice and hits in all, and each unit's own (id, dice, hits).
#[derive(Debug, Clone, Copy)]
struct Blows {
    dice: u8,
    hits: u8,
    each: [(UnitId, u8, u8); 1 + super::charges::MAX_SUPPORT],
    n: usize,
}

/// One unit in a melee and how it came in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fighter {
    pub id: UnitId,
    pub approach: Approach,
}

/// Names each supporter that struck beside its side's main unit, with its own dice and hits,
/// so the story can say whose dice were whose.
fn tell_supporters<O: Observer>(side: &[Fighter], blows: &Blows, obs: &mut O) {
    let main = side[0].id;
    for &(unit, dice, hits) in blows.each[..blows.n].iter().filter(|b| b.0 != main) {
        emit(
            obs,
            Event::Supported {
                unit,
                main,
                dice,
                hits,
            },
        );
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// A close combat between `att` (the charger, or the side moving) and `def`. Losses are
    /// shared out round-robin among several defenders, the main target first.
    pub(super) fn melee(
        &mut self,
        att: &[Fighter],
        def: &[Fighter],
        flank: bool,
        from_pursuit: bool,
    ) {
        let setup = self.setup;
        let (a0, d0) = (att[0].id, def[0].id);
        // Whoever fights now has had this turn's melee (a pinned pair fights on next turn), and
        // its charge of this half-turn.
        for f in att.iter().chain(def) {
            self.units[usize::from(f.id)].fought_turn = self.turn;
            self.charged_or_fought(&setup.rules, f.id);
        }
        let mut lost = [0u8; 2]; // attackers, defenders
        // Trotting pistoleers spend one die on a pistol shot before the melee.
        let mut pistol = [0u8; 2];
        for (s, side) in [att, def].iter().enumerate() {
            for f in side.iter() {
                let u = &self.units[usize::from(f.id)];
                if u.is_active() && melee::pistol_dice(u, f.approach, false) > 0 {
                    let enemy = if s == 0 { d0 } else { a0 };
                    let m = fire::fire_modifier(&setup.rules, u, 0.0, true);
                    if self.shoot(f.id, enemy, true, m) {
                        lost[1 - s] += 1;
                    }
                    pistol[s] += 1;
                }
            }
        }
        // Pistols may have finished one side before the lines meet: then there is no melee.
        if !self.units[usize::from(a0)].is_active() || self.side_gone(def) {
            return;
        }
        // The flank attacker strikes first: the defenders' losses apply before they roll.
        let a = self.strike(att, d0, Role::Attacker, flank, pistol[0]);
        if flank {
            lost[1] += self.share_losses(def, a.hits);
        }
        let d = self.strike(def, a0, Role::Defender, false, pistol[1]);
        emit(
            self.obs,
            Event::Melee {
                attacker: a0,
                defender: d0,
                attacker_dice: a.dice,
                defender_dice: d.dice,
                attacker_hits: a.hits,
                defender_hits: d.hits,
                flank,
            },
        );
        tell_supporters(att, &a, self.obs);
        tell_supporters(def, &d, self.obs);
        if !flank {
            lost[1] += self.share_losses(def, a.hits);
        }
        lost[0] += self.share_losses(att, d.hits);
        // Foot that lost at least 2 CV and twice what it inflicted on horse breaks; the horse
        // try to mop them up in a second round.
        let rules = &*setup.rules;
        for (s, (mine, theirs)) in [(att, def), (def, att)].into_iter().enumerate() {
            let foot = &self.units[usize::from(mine[0].id)];
            let enemy = &self.units[usize::from(theirs[0].id)];
            if foot.is_active()
                && !foot.broken
                && melee::foot_breaks(rules, foot, enemy, lost[s], lost[1 - s])
            {
                self.units[usize::from(mine[0].id)].broken = true;
                emit(self.obs, Event::FootBroke { unit: mine[0].id });
                let h = self.strike_standing(theirs, mine[0].id).hits;
                lost[s] += self.share_losses(mine, h);
                let h = self.strike_standing(mine, theirs[0].id).hits;
                lost[1 - s] += self.share_losses(theirs, h);
            }
        }
        self.combat_result(att, def, lost, from_pursuit);
    }

    /// Rolls the dice of one side of a melee against the enemy's main unit; returns (dice, hits).
    fn strike(
        &mut self,
        side: &[Fighter],
        enemy: UnitId,
        role: Role,
        flank: bool,
        spent: u8,
    ) -> Blows {
        let setup = self.setup;
        let rules = &*setup.rules;
        let mut out = Blows {
            dice: 0,
            hits: 0,
            each: [(0, 0, 0); 1 + super::charges::MAX_SUPPORT],
            n: 0,
        };
        let mut spent = spent;
        for f in side {
            let u = &self.units[usize::from(f.id)];
            let e = &self.units[usize::from(enemy)];
            if !u.is_active() || !e.is_active() {
                continue;
            }
            let mut n = melee::melee_dice(rules, u, f.approach, e, role, flank);
            let p = melee::pistol_dice(u, f.approach, false).min(spent);
            n = n.saturating_sub(p);
            spent -= p;
            let cover = self.cover_of(setup, enemy, f.id);
            let m = melee::melee_modifier(rules, u, e, cover, role);
            let cv = fire_cv(rules, self, setup, f.id);
            // Re-rolls in melee only for a general who is in there himself, and the gift of
            // the enemy's wretch.
            let g = self.attached_general(f.id);
            let giver = self.giver_against(setup, enemy);
            let mut rr = Rerolls::new(
                g.map(|g| self.commanders[usize::from(g)].rerolls_left)
                    .unwrap_or(0)
                    + self.gift_of(giver),
            );
            self.dice.focus(super::unit_stream(f.id));
            let hits = melee::roll_melee(rules, self.dice, n, m, cv, &mut rr);
            self.spend_rerolls_against(g, giver, rr.used);
            out.dice += n;
            out.hits += hits;
            if out.n < out.each.len() {
                out.each[out.n] = (f.id, n, hits);
                out.n += 1;
            }
        }
        out
    }

    /// The second round against broken foot: everyone standing.
    fn strike_standing(&mut self, side: &[Fighter], enemy: UnitId) -> Blows {
        let mut standing = [Fighter {
            id: 0,
            approach: Approach::Standing,
        }; 1 + super::charges::MAX_SUPPORT];
        let n = side.len().min(standing.len());
        for (s, f) in standing.iter_mut().zip(side) {
            s.id = f.id;
        }
        self.strike(&standing[..n], enemy, Role::Defender, false, 0)
    }

    /// Applies `hits` to a side, shared round-robin from the main unit; returns CV lost. Each
    /// unit loses its share at once: one loss, so one risk to an attached general at the CV
    /// it lost ("a unit which loses 2CV in melee": a 2 in 6 chance), not one for each CV.
    fn share_losses(&mut self, side: &[Fighter], hits: u8) -> u8 {
        let mut total = 0;
        let mut left = hits;
        // (A general's fall may take CV off a unit before its share comes: what it could not
        // take is shared again among those still standing.)
        while left > 0 {
            let shares = self.shares(side, left);
            if shares.iter().all(|&n| n == 0) {
                break;
            }
            for (f, &n) in side.iter().zip(&shares) {
                let lost = self.lose_cv(f.id, n, LossCause::Melee);
                total += lost;
                left -= lost;
            }
        }
        total
    }

    /// `hits` dealt round-robin from the main unit among the side's active units, none given
    /// more than the CV it has (the unit then runs, and the next takes the rest).
    fn shares(&self, side: &[Fighter], hits: u8) -> [u8; 1 + super::charges::MAX_SUPPORT] {
        let mut shares = [0u8; 1 + super::charges::MAX_SUPPORT];
        let (mut left, mut k, mut idle) = (hits, 0, 0);
        let n = side.len().min(shares.len());
        while left > 0 && idle < n {
            let u = &self.units[usize::from(side[k % n].id)];
            if u.is_active() && shares[k % n] < u.cv {
                shares[k % n] += 1;
                left -= 1;
                idle = 0;
            } else {
                idle += 1;
            }
            k += 1;
        }
        shares
    }

    /// The loser (more CV lost, or wiped out) tests 2D6: hold, retreat or rout; winning horse
    /// gains a CV for victory and may pursue. Equal losses: everyone stays pinned.
    fn combat_result(
        &mut self,
        att: &[Fighter],
        def: &[Fighter],
        lost: [u8; 2],
        from_pursuit: bool,
    ) {
        let gone = [att, def].map(|side| self.side_gone(side));
        let Some(loser) = melee::melee_loser(&self.setup.rules, lost, gone) else {
            self.fight_on(att, def);
            return;
        };
        let (winners, losers) = if loser == 1 { (att, def) } else { (def, att) };
        let (w0, l0) = (winners[0].id, losers[0].id);
        let (main_result, left_contact) = self.losers_give_way(losers, w0);
        emit(
            self.obs,
            Event::MeleeResult {
                winner: Some(w0),
                loser: Some(l0),
                result: main_result,
            },
        );
        self.winners_after(winners, l0, left_contact, from_pursuit);
    }

    /// Equal losses: each side stays pinned to the other's main unit (unless that is gone).
    fn fight_on(&mut self, att: &[Fighter], def: &[Fighter]) {
        let (a0, d0) = (att[0].id, def[0].id);
        for (mine, theirs) in [(att, d0), (def, a0)] {
            for f in mine {
                let u = &mut self.units[usize::from(f.id)];
                if u.is_active() {
                    u.pinned = true;
                    u.engaged_with = Some(theirs);
                }
            }
        }
        self.unpin_if_alone(a0);
        self.unpin_if_alone(d0);
        emit(
            self.obs,
            Event::MeleeResult {
                winner: None,
                loser: None,
                result: ReactionResult::PassBoth,
            },
        );
    }

    /// Each loser tests: foot that holds stays locked with the winner `w0`, horse that holds
    /// retires; the rest retreat (the winning foot taking the ground) or rout. Returns the main
    /// loser's result and whether it left contact.
    fn losers_give_way(&mut self, losers: &[Fighter], w0: UnitId) -> (ReactionResult, bool) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let l0 = losers[0].id;
        let mut main_result = ReactionResult::PassBoth;
        let mut left_contact = true;
        for f in losers {
            if !self.units[usize::from(f.id)].is_active() {
                continue;
            }
            let test = self.react(f.id, ReactionCause::MeleeLost);
            if f.id == l0 {
                main_result = test;
            }
            let old = self.units[usize::from(f.id)].pos;
            match melee::combat_result(test) {
                CombatResult::Hold if !self.units[usize::from(f.id)].is_cavalry() => {
                    // Foot holds and fights on next turn.
                    let u = &mut self.units[usize::from(f.id)];
                    u.pinned = true;
                    u.engaged_with = Some(w0);
                    if f.id == l0 {
                        left_contact = false;
                    }
                }
                CombatResult::Hold => {
                    let d = self.ai.retreat_distance(&self.b.view(setup), f.id).clamp(
                        rules.close_combat.horse_hold_retire_min,
                        rules.close_combat.horse_hold_retire_max,
                    );
                    self.retreat(f.id, d);
                }
                CombatResult::Retreat => {
                    let d = self.ai.retreat_distance(&self.b.view(setup), f.id).clamp(
                        rules.close_combat.retreat_min,
                        rules.close_combat.retreat_max,
                    );
                    self.retreat(f.id, d);
                    // The winner takes the ground (horse pursue instead).
                    let w = &self.units[usize::from(w0)];
                    if f.id == l0 && w.is_active() && !w.is_cavalry() {
                        self.shift(w0, |w| w.pos = old);
                    }
                }
                CombatResult::Rout => self.rout(f.id),
            }
        }
        (main_result, left_contact)
    }

    /// The winners over `l0`: free once it left contact (else still locked with it); victorious
    /// horse gains its CV and may pursue.
    fn winners_after(
        &mut self,
        winners: &[Fighter],
        l0: UnitId,
        left_contact: bool,
        from_pursuit: bool,
    ) {
        let setup = self.setup;
        let rules = &*setup.rules;
        for f in winners {
            let u = &mut self.units[usize::from(f.id)];
            if !u.is_active() {
                continue;
            }
            if left_contact || u.engaged_with != Some(l0) {
                u.pinned = false;
                u.engaged_with = None;
            } else {
                u.pinned = true;
                u.engaged_with = Some(l0);
            }
            if !u.is_cavalry() {
                continue;
            }
            // Victorious horse: +1 CV (the Goring example; an option), never above the start.
            let g = melee::victory_bonus(rules, u);
            if g > 0 {
                let cv = u.cv;
                emit(
                    self.obs,
                    Event::CvGained {
                        unit: f.id,
                        amount: g,
                        cv,
                    },
                );
            }
            if left_contact && !from_pursuit && self.units[usize::from(f.id)].pursuing == 0 {
                self.pursue_after_victory(f.id, l0);
            }
        }
    }
}

impl Battle {
    /// Every unit of a side of a melee gone: nobody of it is left to fight, win or test.
    fn side_gone(&self, side: &[Fighter]) -> bool {
        side.iter()
            .all(|f| !self.units[usize::from(f.id)].is_active())
    }

    fn unpin_if_alone(&mut self, id: UnitId) {
        let u = &self.units[usize::from(id)];
        if let Some(e) = u.engaged_with
            && !self.units[usize::from(e)].is_active()
        {
            let u = &mut self.units[usize::from(id)];
            u.pinned = false;
            u.engaged_with = None;
        }
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Victorious cavalry pursues unless it halts (1D6 <= CV trotters, 2D6 summed gallopers):
    /// D6 x 3" after the beaten foe, losing a CV; what it meets, it fights at once.
    pub fn pursue_after_victory(&mut self, id: UnitId, foe: UnitId) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.dice.focus(super::unit_stream(id));
        let (_, halted) = pursuit::halt_test(rules, self.dice, &self.b.units[usize::from(id)]);
        if halted {
            emit(self.obs, Event::PursuitHalted { unit: id, turns: 0 });
            return;
        }
        emit(
            self.obs,
            Event::PursuitStarted {
                unit: id,
                target: foe,
            },
        );
        let u = &mut self.units[usize::from(id)];
        u.pursuing = 1;
        u.pursuit_target = Some(foe);
        // The text's order (E19): it fails the halt test, loses 1 CV, then ploughs D6 x 3"
        // into whatever it meets.
        if self.pursuit_cost(id) {
            return;
        }
        self.dice.focus(super::unit_stream(id));
        let d = pursuit::pursuit_distance(rules, self.dice);
        self.pursue(id, d);
    }

    /// A pursuer runs into an enemy: a close combat at once, two dice a side.
    pub(super) fn pursuit_melee(&mut self, pursuer: UnitId, enemy: UnitId) {
        if self.units[usize::from(enemy)].pinned {
            return; // it cannot fight two at once here: the pursuer rides past
        }
        let att = [Fighter {
            id: pursuer,
            approach: Approach::Pursuit,
        }];
        let def = [Fighter {
            id: enemy,
            approach: Approach::Pursuit,
        }];
        self.melee(&att, &def, false, true);
    }

    /// Pinned units fight on once a turn, standing, in the first half-turn after they were pinned.
    pub(super) fn continuing_melees(&mut self) {
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let Some(e) = u.engaged_with else { continue };
            let id = i as UnitId;
            // Each pair once: the moving side's unit attacks.
            if !u.is_active()
                || !u.pinned
                || u.side != self.moving
                || !self.units[usize::from(e)].is_active()
                || u.fought_turn == self.turn
                || self.units[usize::from(e)].fought_turn == self.turn
            {
                continue;
            }
            let att = [Fighter {
                id,
                approach: Approach::Standing,
            }];
            let def = [Fighter {
                id: e,
                approach: Approach::Standing,
            }];
            self.melee(&att, &def, false, false);
        }
    }
}

impl Battle {
    /// Cover the `defender` has against `attacker`: woods are soft cover; a hedge, ditch or
    /// stream between them soft, a wall (or an obstacle marked hard) hard.
    pub(crate) fn cover_of(
        &self,
        setup: &BattleSetup,
        defender: UnitId,
        attacker: UnitId,
    ) -> Cover {
        let d = self.units[usize::from(defender)].pos;
        let a = self.units[usize::from(attacker)].pos;
        let mut cover = Cover::None;
        for o in setup.ground.obstacles_crossed(a, d) {
            if o.hard_cover {
                return Cover::Hard;
            }
            cover = Cover::Soft;
        }
        if cover == Cover::None && self.area_at(setup, d).is_some_and(|k| k.is_cover()) {
            cover = Cover::Soft;
        }
        cover
    }

    /// `setup.ground.area_at(p)`, passing over areas whose band of y does not hold `p`: an
    /// even-odd test counts only edges that cross the level of `p`, and no edge of such an
    /// area does.
    pub(super) fn area_at(
        &self,
        setup: &BattleSetup,
        p: crate::battlefield::Vec2,
    ) -> Option<AreaKind> {
        let areas = &setup.ground.areas;
        if self.area_y.len() != areas.len() {
            return setup.ground.area_at(p);
        }
        areas
            .iter()
            .zip(&self.area_y)
            .find(|&(a, &(lo, hi))| !(p.y < lo || p.y >= hi) && a.contains(p))
            .map(|(a, _)| a.kind)
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// A horseman reaches the enemy camp: the firelocks test reaction (passing at least one
    /// die they stand), give fire (a volley at the guards' CV) and fight from soft cover (hard
    /// if entrenched). If the attacker wins,
    /// the camp is taken: every unit of its side -1 CV, each captor +1.
    pub(super) fn attack_camp(&mut self, id: UnitId, camp: usize) {
        let setup = self.setup;
        let rules = &*setup.rules;
        if self.camps_taken & (1 << camp) != 0 {
            return;
        }
        // The attacker must pass its reaction to close, or it mills around the edges.
        if self.react(id, ReactionCause::ToCharge) != ReactionResult::PassBoth {
            return;
        }
        let c = setup.ground.camps[camp];
        self.dice.focus(super::unit_stream(id));
        let guard_cv = rules.camps.guard_cv as i8;
        let guards_stand = (0..2)
            .filter(|_| succeeds(rules, self.dice.d6(), 0, guard_cv))
            .count()
            > 0;
        let mut taken = !guards_stand;
        if guards_stand {
            // "They will give fire": a volley at the attacker as it comes in.
            let volley = rules.fire.ranges.infantry.short_mod;
            if succeeds(rules, self.dice.d6(), volley, guard_cv) {
                self.lose_cv(id, 1, LossCause::Fire);
                if !self.units[usize::from(id)].is_active() {
                    return;
                }
            }
            let cover = if c.entrenched {
                rules.close_combat.enemy_hard_cover
            } else {
                rules.close_combat.enemy_soft_cover
            };
            let cv = fire_cv(rules, self, setup, id);
            let n = rules
                .close_combat
                .pursuit_contact_dice
                .min(self.units[usize::from(id)].cv);
            let mut none = Rerolls::none();
            let hits = melee::roll_melee(rules, self.dice, n, cover, cv, &mut none);
            let guard_hits = melee::roll_melee(
                rules,
                self.dice,
                rules.close_combat.foot_dice,
                0,
                guard_cv,
                &mut none,
            );
            let lost = self.lose_cv(id, guard_hits, LossCause::Melee);
            taken = hits > lost && self.units[usize::from(id)].is_active();
        }
        if taken {
            self.camps_taken |= 1 << camp;
            emit(
                self.obs,
                Event::CampCaptured {
                    camp_side: c.side,
                    by: id,
                },
            );
            for i in 0..self.units.len() {
                if self.units[i].side == c.side && self.units[i].is_active() {
                    self.lose_cv(i as UnitId, rules.camps.loser_cv_loss, LossCause::CampLost);
                }
            }
            self.gain_cv(id, rules.camps.captor_cv_gain);
        }
    }
}

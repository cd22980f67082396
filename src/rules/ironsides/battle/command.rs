//! Steps 2-6: generals move and attach, leadership points are rolled, given and capped, and
//! units rally. Also what befalls a general who is hit.

use super::{Turn, emit};
use crate::army::{CommandId, CommandKind, Commander, CommanderId, Side, UnitId, UnitStatus};
use crate::battlefield::Vec2;
use crate::dice::DiceSource;
use crate::doctrine::Doctrine;
use crate::events::{Event, GeneralResult, LossCause, Observer};
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::{generals, leadership, rally};

/// What a doctrine wants of a general this half-turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeneralOrder {
    /// Where to ride (ignored when attaching: he rides to the unit).
    pub to: Vec2,
    /// Lead this unit of his command from the front (None: observe, detaching if attached).
    pub attach: Option<UnitId>,
    /// The Captain-General joins this command, taking it over.
    pub join: Option<CommandId>,
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Step 2: generals ride up to 36"; each attachment or detachment costs 12"; replacements
    /// take up their posts and the swept-away return.
    pub(super) fn move_generals(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        for gi in 0..self.commanders.len() {
            let g = &self.commanders[gi];
            if g.side != self.moving || g.captured {
                continue;
            }
            if g.replacing && g.out_of_action == 0 {
                self.commanders[gi].replacing = false;
                self.commanders[gi].lost = false;
                emit(
                    self.obs,
                    Event::GeneralReplaced {
                        general: gi as CommanderId,
                    },
                );
            }
            let g = &self.commanders[gi];
            if !g.available() {
                continue;
            }
            let order = self.ai.general(&self.b.view(setup), gi as CommanderId);
            let g = &self.commanders[gi];
            // Legality: he may only lead units of his own command (the Captain-General, any).
            let attach = order.attach.filter(|&u| {
                let unit = &self.units[usize::from(u)];
                unit.is_active()
                    && unit.side == g.side
                    && (g.is_captain_general || Some(unit.command) == g.command)
            });
            let join = order.join.filter(|&c| {
                g.is_captain_general
                    && usize::from(c) < self.commands.len()
                    && self.commands[usize::from(c)].side == g.side
            });
            // Leaving a unit or wing is a detachment, finding a new one an attachment.
            let (mut attaches, mut detaches) = (0u8, 0u8);
            if g.attached_unit.is_some() && g.attached_unit != attach {
                detaches += 1;
            }
            if attach.is_some() && g.attached_unit != attach {
                attaches += 1;
            }
            if g.attached_command != join {
                attaches += u8::from(join.is_some());
                detaches += u8::from(g.attached_command.is_some());
            }
            let budget = generals::general_move_left(rules, attaches, detaches);
            let dest = match attach {
                Some(u) => self.units[usize::from(u)].pos,
                None => order.to,
            };
            let from = g.pos;
            let d = from.dist(dest);
            let reached = d <= budget + 1e-9;
            let to = if reached {
                dest
            } else {
                from + (dest - from).norm() * budget
            };
            let attached_command = if reached || join.is_none() {
                join
            } else {
                g.attached_command
            };
            self.place_general_at(gi as CommanderId, to);
            // Attaching needs him to reach the unit this turn; otherwise he rides towards it.
            let attached_to = if reached { attach } else { None };
            self.attach_general(gi as CommanderId, attached_to);
            self.commanders[gi].attached_command = attached_command;
            emit(
                self.obs,
                Event::GeneralMoved {
                    general: gi as CommanderId,
                    distance: from.dist(to),
                    attached_to,
                },
            );
        }
    }

    /// Steps 3-4: the Captain-General's LPs and their distribution, then every other command's.
    pub(super) fn leadership(&mut self) {
        let side = self.moving;
        let mut given = [0u8; 64];
        for c in self.commands.iter_mut().filter(|c| c.side == side) {
            c.lps = 0;
        }
        let cg_joined = self.captain_general_lps(&mut given);
        self.commands_lps(cg_joined, &given);
    }

    /// Step 3: the Captain-General rolls his LPs; joined to a wing he commands it with them,
    /// else he gives them (`given`, by command) to subordinates within his radius. Returns the
    /// command he has joined.
    fn captain_general_lps(&mut self, given: &mut [u8; 64]) -> Option<CommandId> {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving;
        let mut cg_joined: Option<CommandId> = None;
        if let Some(cg) = setup.captain_generals[side.index()] {
            let g = &self.b.commanders[usize::from(cg)];
            if g.available() {
                self.dice.focus(super::general_stream(self, cg));
                let (roll, lps) =
                    leadership::roll_lps(self.dice, g.rating.lp_modifier + g.skill_adjust);
                // "To a maximum of 6": the Captain-General's own LPs are capped like any command's.
                let lps = lps.min(rules.options.lp_cap);
                emit(
                    self.obs,
                    Event::LpsRolled {
                        general: cg,
                        roll,
                        lps,
                    },
                );
                if let Some(cmd) = g.attached_command {
                    // He commands that wing himself, with his own LPs only.
                    cg_joined = Some(cmd);
                    self.commands[usize::from(cmd)].lps = leadership::command_lps(rules, lps, 0);
                } else {
                    self.give_lps(cg, lps, given);
                }
            }
        }
        cg_joined
    }

    /// The Captain-General's `lps` given as his doctrine splits them, only to commands whose
    /// commanders are within his radius, never more than he rolled; he keeps the rest.
    fn give_lps(&mut self, cg: CommanderId, lps: u8, given: &mut [u8; 64]) {
        let setup = self.setup;
        let side = self.moving;
        let g = &self.b.commanders[usize::from(cg)];
        let mut reach = [false; 64];
        for c in self.commands.iter().filter(|c| c.side == side) {
            if let Some(sub) = c.commander {
                let s = &self.commanders[usize::from(sub)];
                if s.available()
                    && usize::from(c.id) < 64
                    && leadership::within_radius(g.pos, g.rating.radius, s.pos)
                {
                    reach[usize::from(c.id)] = true;
                }
            }
        }
        self.ai
            .split_lps(&self.b.view(setup), cg, lps, &reach, given);
        // Enforce: only to reachable commands, never more than he rolled.
        let mut left = lps;
        for (i, gv) in given.iter_mut().enumerate() {
            *gv = if reach[i] { (*gv).min(left) } else { 0 };
            left -= *gv;
            if *gv > 0
                && let Some(to) = self.commands[i].commander
            {
                emit(
                    self.obs,
                    Event::LpsGiven {
                        from: cg,
                        to,
                        lps: *gv,
                    },
                );
            }
        }
        self.commanders[usize::from(cg)].lps = left;
    }

    /// Step 4: every other command's LPs: its commander's roll (an independent command's
    /// own), with what the Captain-General gave it.
    fn commands_lps(&mut self, cg_joined: Option<CommandId>, given: &[u8; 64]) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving;
        for ci in 0..self.commands.len() {
            let c = &self.commands[ci];
            if c.side != side || Some(c.id) == cg_joined {
                continue;
            }
            let own = match c.commander {
                Some(g) if self.commanders[usize::from(g)].available() => {
                    self.dice.focus(super::general_stream(self, g));
                    let g = &self.b.commanders[usize::from(g)];
                    let (roll, lps) =
                        leadership::roll_lps(self.dice, g.rating.lp_modifier + g.skill_adjust);
                    emit(
                        self.obs,
                        Event::LpsRolled {
                            general: g.id,
                            roll,
                            lps,
                        },
                    );
                    lps
                }
                Some(_) => 0,
                None if c.kind == CommandKind::Independent => {
                    self.dice.focus(super::streams::COMMON);
                    leadership::independent_lps(rules, self.dice, 1)
                }
                None => 0,
            };
            let g = given.get(ci).copied().unwrap_or(0);
            self.commands[ci].lps = leadership::command_lps(rules, own, g);
        }
    }

    /// Steps 5-6: rallies, paid from the command's LPs in the doctrine's order; units out of
    /// radius try 2D6 for free.
    pub(super) fn rallies(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let side = self.moving;
        self.disorder_ends();
        self.gunners_return();
        let mut order = std::mem::take(&mut self.scratch);
        order.clear();
        order.extend(
            self.units
                .iter()
                .filter(|u| u.side == side && rally::can_rally(rules, u) && u.pursuing == 0)
                .map(|u| u.id),
        );
        {
            let view = self.b.view(setup);
            // Highest priority first; ties by id, so the order is fixed.
            order.sort_by_key(|&u| (std::cmp::Reverse(self.ai.rally_priority(&view, u)), u));
        }
        let cg = setup.captain_generals[side.index()]
            .filter(|&g| self.commanders[usize::from(g)].available());
        for &id in &order {
            self.dice.focus(super::unit_stream(id));
            if !self.in_radius(setup, id) && self.captain_general_rallies(cg, id) {
                continue;
            }
            if !self.in_radius(setup, id) {
                self.rally_out_of_radius(id);
                continue;
            }
            self.paid_rallies(id);
        }
        self.scratch = order;
    }

    /// Disorder ends at the rally phase, provided the unit has cleared the difficult ground;
    /// a unit halted last turn has its move spent now.
    fn disorder_ends(&mut self) {
        let setup = self.setup;
        let side = self.moving;
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.side != side {
                continue;
            }
            let still_in =
                u.disordered && self.area_at(setup, u.pos).is_some_and(|a| a.disorders());
            let u = &mut self.units[i];
            u.disordered = still_in;
            if u.halt_next_turn {
                u.halt_next_turn = false;
                u.move_spent_next_turn = true;
            }
        }
    }

    /// Ruling: gunners come back to their abandoned gun, where they left it, when no enemy is
    /// within `rally.reman_clear_distance` of it: for `rally.reman_cost` of their command's
    /// LPs, on 1D6 <= CV the gun is manned again and rallied.
    fn gunners_return(&mut self) {
        let rules = &*self.setup.rules;
        let (cost, clear) = (rules.rally.reman_cost, rules.rally.reman_clear_distance);
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let cmd = usize::from(u.command);
            if u.side != self.moving
                || u.status != UnitStatus::Abandoned
                || self.commands[cmd].lps < cost
                || self.nearest_enemy_fresh(u.id) <= clear
            {
                continue;
            }
            let id = u.id;
            self.commands[cmd].lps -= cost;
            self.dice.focus(super::unit_stream(id));
            let roll = self.dice.d6();
            let success = roll <= self.units[i].cv;
            emit(
                self.obs,
                Event::Remanned {
                    unit: id,
                    roll,
                    success,
                },
            );
            if success {
                let was_broken = self.units[i].broken;
                self.shift(id, |u| {
                    u.status = UnitStatus::Active;
                    u.broken = false;
                });
                if was_broken {
                    emit(self.obs, Event::Recovered { unit: id });
                }
            }
        }
    }

    /// A unit out of its commander's radius tries to rally on 2D6, for free.
    fn rally_out_of_radius(&mut self, id: UnitId) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let was_broken = self.units[usize::from(id)].broken;
        let (sum, ok) =
            rally::rally_out_of_radius(rules, self.dice, &mut self.b.units[usize::from(id)]);
        let cv = self.units[usize::from(id)].cv;
        emit(
            self.obs,
            Event::Rally {
                unit: id,
                roll: sum,
                success: ok,
                cv,
            },
        );
        if was_broken && !self.units[usize::from(id)].broken {
            emit(self.obs, Event::Recovered { unit: id });
        }
    }

    /// The rallies the doctrine buys for a unit within radius from its command's LPs (free for
    /// the unit its general leads, dearer for the others then), each with the re-rolls the
    /// doctrine spends.
    fn paid_rallies(&mut self, id: UnitId) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let cmd = self.units[usize::from(id)].command;
        let acting = self.acting_commander(setup, cmd);
        let near = self.nearest_enemy_distance(id) <= rules.leadership.rally_near_enemy_distance;
        let attached_here = acting.and_then(|g| self.commanders[usize::from(g)].attached_unit);
        let (cost, modifier) = match attached_here {
            Some(a) if a == id => (0, rules.rally.attached_unit_die_modifier),
            Some(_) => (
                rally::rally_cost(rules, near) * rules.leadership.unattached_cost_multiplier,
                rules.rally.attached_other_units_die_modifier,
            ),
            None => (rally::rally_cost(rules, near), 0),
        };
        let tries = self.ai.rally_attempts(&self.b.view(setup), id);
        for _ in 0..tries {
            if !rally::can_rally(rules, &self.units[usize::from(id)])
                || self.commands[usize::from(cmd)].lps < cost
            {
                break;
            }
            self.commands[usize::from(cmd)].lps -= cost;
            let (g, avail) = self.rerolls_for(setup, id);
            let avail = if self.ai.rerolls_on_rally(&self.b.view(setup), id) {
                avail
            } else {
                0
            };
            let mut rr = Rerolls::new(avail);
            self.rally_once(rules, id, modifier, &mut rr);
            self.spend_rerolls(g, rr.used);
        }
    }

    /// One paid rally attempt (one D6 <= CV, re-rolls as given), told as it happens.
    fn rally_once(
        &mut self,
        rules: &crate::rules::ironsides::IronsidesRules,
        id: UnitId,
        modifier: i8,
        rr: &mut Rerolls,
    ) {
        let before = self.units[usize::from(id)].cv;
        let was_broken = self.units[usize::from(id)].broken;
        self.dice.focus(super::unit_stream(id));
        let (roll, ok) = rally::rally_attempt(
            rules,
            self.dice,
            &mut self.b.units[usize::from(id)],
            modifier,
            rr,
        );
        let cv = self.units[usize::from(id)].cv;
        emit(
            self.obs,
            Event::Rally {
                unit: id,
                roll,
                success: ok,
                cv,
            },
        );
        if ok && cv > before {
            self.units[usize::from(id)].turns_out_of_contact = 0;
        }
        if was_broken && !self.units[usize::from(id)].broken {
            emit(self.obs, Event::Recovered { unit: id });
        }
    }

    /// A unit beyond its own commander's radius but within the Captain-General's: he may rally
    /// it himself for `rally.captain_general_rally_cost` LPs (one D6 <= CV), spending LPs he
    /// kept after giving them out. True if he tried.
    fn captain_general_rallies(&mut self, cg: Option<CommanderId>, id: UnitId) -> bool {
        let setup = self.setup;
        let rules = &*setup.rules;
        let cost = rules.rally.captain_general_rally_cost;
        let Some(g) = cg else { return false };
        let c = &self.commanders[usize::from(g)];
        if c.lps < cost || !self.reaches(id, c.pos, c.rating.radius) {
            return false;
        }
        self.commanders[usize::from(g)].lps -= cost;
        self.rally_once(rules, id, 0, &mut Rerolls::none());
        true
    }

    /// What befalls a general who is hit: the casualty tables, capture, and a replacement.
    pub fn general_casualty(&mut self, g: CommanderId, unit: Option<UnitId>) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.dice.focus(super::general_stream(self, g));
        let cas = generals::casualty(rules, self.dice);
        let mut captured = false;
        // Capture threatens only a general caught on his own (contacted or overrun): one hit
        // leading a unit from the front is carried off by his own men.
        if unit.is_none() && cas.capture_risk && cas.result != GeneralResult::Unhurt {
            captured = generals::captured(rules, self.dice);
        }
        if cas.result == GeneralResult::HorseStampedes
            && let Some(c) = self.stampede(g)
        {
            captured = c;
        }
        emit(
            self.obs,
            Event::GeneralCasualty {
                general: g,
                result: cas.result,
                captured,
            },
        );
        let command = self.commanders[usize::from(g)].command;
        {
            let c = &mut self.commanders[usize::from(g)];
            c.skill_adjust += cas.skill_change;
            c.morale_adjust += cas.morale_change;
            c.out_of_action = c
                .out_of_action
                .max(cas.out_of_action + u8::from(cas.out_of_action > 0));
            if cas.lost || captured {
                c.lost = true;
                c.captured = captured;
                c.attached_command = None;
            }
        }
        if cas.lost || captured {
            self.attach_general(g, None);
        }
        self.casualty_cv(g, command, unit, &cas);
        // A replacement appears two turns later, rolling his character with 1 off.
        if self.commanders[usize::from(g)].lost {
            self.replace_general(g);
        }
    }

    /// His horse bolts 2D6" in a random direction, carrying him there: through an enemy unit,
    /// a chance of capture (Some(whether captured)).
    fn stampede(&mut self, g: CommanderId) -> Option<bool> {
        let setup = self.setup;
        let rules = &*setup.rules;
        let mut captured = None;
        let dist = f64::from(self.dice.sum_d6(u32::from(rules.risk.stampede_dice)));
        let angle = f64::from(self.dice.below(360)).to_radians();
        let from = self.commanders[usize::from(g)].pos;
        let to = from + Vec2::from_facing(angle) * dist;
        let side = self.commanders[usize::from(g)].side;
        let through = self
            .units
            .iter()
            .any(|u| u.side != side && u.is_active() && self.rect(u.id).crosses(from, to));
        if through {
            captured =
                Some(self.dice.d6() <= (rules.risk.stampede_capture_chance * 6.0).round() as u8);
        }
        self.place_general_at(g, to);
        captured
    }

    /// What a general's casualty does to CV: his own unit's change, and a loss to every unit of
    /// his `command` (of his side, for the Captain-General).
    fn casualty_cv(
        &mut self,
        g: CommanderId,
        command: Option<CommandId>,
        unit: Option<UnitId>,
        cas: &generals::Casualty,
    ) {
        if let Some(u) = unit {
            match cas.unit_cv_change.signum() {
                -1 => {
                    self.lose_cv(
                        u,
                        cas.unit_cv_change.unsigned_abs(),
                        LossCause::GeneralCasualty,
                    );
                }
                1 => {
                    self.gain_cv(u, cas.unit_cv_change as u8);
                }
                _ => {}
            }
        }
        if cas.command_cv_loss > 0 {
            let side = self.commanders[usize::from(g)].side;
            for i in 0..self.units.len() {
                let u = &self.units[i];
                let mine = match command {
                    Some(c) => u.command == c,
                    None => u.side == side,
                };
                if mine && u.is_active() {
                    self.lose_cv(i as UnitId, cas.command_cv_loss, LossCause::GeneralCasualty);
                }
            }
        }
    }

    /// A replacement for a lost general: his character rolled with 1 off, he appears two turns
    /// later at his side's centre.
    fn replace_general(&mut self, g: CommanderId) {
        let setup = self.setup;
        let rules = &*setup.rules;
        self.dice.focus(super::general_stream(self, g));
        let rating = leadership::roll_generalship(
            rules,
            self.dice,
            rules.generals.replacement_skill_roll_modifier,
        );
        let c = &mut self.commanders[usize::from(g)];
        c.rating = rating;
        c.skill_adjust = 0;
        c.morale_adjust = 0;
        c.replacing = true;
        c.captured = false;
        c.out_of_action = rules.generals.replacement_delay_turns;
        let home = self.centroid(self.commanders[usize::from(g)].side);
        self.place_general_at(g, home);
    }

    /// Generals of `side` that an enemy unit has just run over or contacted: the risk to
    /// unattached generals.
    pub(super) fn overrun_generals(&mut self, by: UnitId) {
        let enemy_side: Side = self.units[usize::from(by)].side.other();
        let rect = self.shape(by);
        // With cells, only the generals about the unit: found before any is dealt with, as
        // dealing with one moves no other who may be caught (only himself, and the attached,
        // who may not), nor makes one who may not be caught catchable (a general swept away
        // or lost is out of action).
        let reach = (0.5 + rect.radius) * (1.0 + 1e-9) + 1e-6;
        let mut near = [0; super::cache::GENERALS_NEAR];
        match self.generals_about(enemy_side, rect.centre, reach, &mut near) {
            Some(k) => {
                for &g in &near[..k] {
                    self.overrun_general(usize::from(g), by, &rect);
                }
            }
            None => {
                // (The cheap test inline: most generals ride with a unit or far off.)
                for gi in 0..self.commanders.len() {
                    if exposed(&self.commanders[gi], enemy_side, &rect) {
                        self.overrun_general(gi, by, &rect);
                    }
                }
            }
        }
    }

    /// General `gi`, if unit `by` (whose shape is `rect`) has just run over or contacted him:
    /// an army HQ captured or losing LPs, another general hit or his command losing LPs; who
    /// survives escapes to the nearest friendly unit.
    fn overrun_general(
        &mut self,
        gi: usize,
        by: UnitId,
        rect: &crate::battlefield::geometry::Shape,
    ) {
        let setup = self.setup;
        let rules = &*setup.rules;
        let enemy_side: Side = self.units[usize::from(by)].side.other();
        let horse = self.units[usize::from(by)].is_cavalry();
        let g = &self.b.commanders[gi];
        if !exposed(g, enemy_side, rect) || rect.dist_to_point(g.pos) > 0.5 {
            return;
        }
        self.dice
            .focus(super::general_stream(self, gi as CommanderId));
        if g.is_captain_general {
            // An army HQ overrun: captured on 1-4, else he escapes losing 3 LPs.
            if self.dice.d6() <= rules.risk.hq_overrun_capture {
                emit(
                    self.obs,
                    Event::GeneralCasualty {
                        general: gi as CommanderId,
                        result: GeneralResult::Lost,
                        captured: true,
                    },
                );
                let c = &mut self.commanders[gi];
                c.lost = true;
                c.captured = true;
                c.attached_command = None;
            } else {
                let c = &mut self.commanders[gi];
                c.lps = c.lps.saturating_sub(rules.risk.hq_overrun_lp_loss);
            }
        } else if generals::overrun_hit(rules, self.dice, horse) {
            self.general_casualty(gi as CommanderId, None);
        } else if let Some(cmd) = self.commanders[gi].command {
            let c = &mut self.commands[usize::from(cmd)];
            c.lps = c.lps.saturating_sub(rules.leadership.swept_away_lp_loss);
        }
        // Whoever survives escapes to the nearest friendly unit.
        if !self.commanders[gi].lost {
            let pos = self.commanders[gi].pos;
            if let Some(f) = self
                .units
                .iter()
                .filter(|u| u.side == enemy_side && u.is_active())
                .min_by(|a, b| a.pos.dist(pos).total_cmp(&b.pos.dist(pos)))
            {
                let to = f.pos;
                self.place_general_at(gi as CommanderId, to);
            }
        }
    }
}

/// Whether general `g` may be run over by an enemy of `side` whose shape is `rect`: one of
/// `side`, available, riding alone and within reach of its enclosing circle (the exact
/// distance is measured after).
#[inline]
fn exposed(g: &Commander, side: Side, rect: &crate::battlefield::geometry::Shape) -> bool {
    g.side == side && g.available() && g.attached_unit.is_none() && !far_from(rect, g.pos, 0.5)
}

/// Whether point `p` is surely farther than `limit` from `r` (its enclosing circle is, with a
/// margin far above rounding): then `r.dist_to_point(p) > limit` too, found without a root.
#[inline]
pub(crate) fn far_from(r: &crate::battlefield::geometry::Shape, p: Vec2, limit: f64) -> bool {
    let d = p - r.centre;
    let reach = (limit + r.radius) * (1.0 + 1e-9) + 1e-9;
    d.dot(d) > reach * reach
}

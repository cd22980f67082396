//! The Ironsides turn sequence: a whole battle, from set-up to the army break or the turn limit.
//!
//! A [`Battle`] is allocated once per thread and reused for every battle (`reset` copies the
//! template into the buffers it already has), so fighting a battle allocates nothing.

mod arrivals;
pub(crate) mod cache;
mod charges;
mod close_combat;
pub mod command;
mod fire_phase;
mod maneuver;
mod routs;

use crate::army::{Command, CommandId, Commander, CommanderId, Side, Unit, UnitId, UnitStatus};
use crate::arrivals::Arriving;
use crate::battlefield::Vec2;
use crate::battlefield::geometry::{Bounds, HalfAngle, Rect, within_arc};
use crate::dice::{DiceSource, SeededDice, StreamDice};
use crate::doctrine::{Doctrine, ParamAi};
use crate::events::{Event, LossCause, Observer, Outcome};
use crate::rules::ironsides::tables::IronsidesRules;
use crate::rules::ironsides::{generals, movement};
use crate::setup::{BattleSetup, CommanderSource, RatingSource};

pub use crate::arrivals::{ARRIVAL_STREAMS, arrival_turn};
pub use crate::rules::BattleSummary;
pub use charges::ChargePlan;
pub(crate) use fire_phase::fire_cv;

/// Streams of the battle's seed: each purpose draws its own dice, so a change in one (a rating
/// roll, a general's character) does not shift every later roll of the battle.
pub mod streams {
    pub const RATINGS: u64 = 1;
    pub const GENERALS: u64 = 2;
    /// The battle's own streams start here: initiative, then one per unit, then one per general.
    pub const BATTLE: u64 = 16;
    /// Stream of the initiative rolls and of dice that belong to no unit or general.
    pub const COMMON: u32 = 0;
}

/// A unit's own dice stream.
#[inline]
pub fn unit_stream(id: UnitId) -> u32 {
    1 + u32::from(id)
}

/// A general's own dice stream.
#[inline]
pub fn general_stream(b: &Battle, g: CommanderId) -> u32 {
    1 + b.units.len() as u32 + u32::from(g)
}

/// The way to a side's own table edge: Parliament deploys facing +y from y = 0, the
/// Royalists facing -y from the far edge (the scenarios' convention). Retreats and routs go
/// this way, whatever the unit's facing.
pub fn homeward(side: Side) -> Vec2 {
    match side {
        Side::Parliament => Vec2::new(0.0, -1.0),
        Side::Royalist => Vec2::new(0.0, 1.0),
    }
}

/// The front arc either side of the facing: 45 degrees and 0.35 radians allowance for the
/// corners of a unit's frontage (the cosine is checked by a test).
pub(crate) const FRONT_ARC: HalfAngle = HalfAngle {
    radians: std::f64::consts::FRAC_PI_4 + 0.35,
    cos: 0.42177145041023634,
};

/// The steps of one side's half-turn, in the text's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// 2: generals ride, attach and detach.
    MoveGenerals,
    /// 3-4: the Captain-General's LPs and the subordinates'.
    Leadership,
    /// 5-6: rallies paid from the commands' LPs.
    Rallies,
    /// Pursuers take their halt test at their rally phase.
    Pursuers,
    /// 7: the moving side moves, halting at range bands.
    Movement,
    /// 8-9: the other side fires; the moving side reacts.
    OtherSideFires,
    /// 10-11: the moving side fires; the other side reacts.
    MovingSideFires,
    /// 12: moves are completed and charges close.
    CompleteMovement,
    /// 13-15: targets react, support charges, close combat, results and pursuit.
    Charges,
    /// Pinned units fight on.
    ContinuingMelees,
    /// Brokenness ends for units out of contact.
    EndOfHalf,
}

impl Step {
    pub const HALF_TURN: [Step; 11] = [
        Step::MoveGenerals,
        Step::Leadership,
        Step::Rallies,
        Step::Pursuers,
        Step::Movement,
        Step::OtherSideFires,
        Step::MovingSideFires,
        Step::CompleteMovement,
        Step::Charges,
        Step::ContinuingMelees,
        Step::EndOfHalf,
    ];
}

/// The state of one battle in progress.
#[derive(Debug, Clone)]
pub struct Battle {
    pub units: Vec<Unit>,
    pub commanders: Vec<Commander>,
    pub commands: Vec<Command>,
    pub turn: u16,
    /// The side moving in the current half-turn.
    pub moving: Side,
    /// Starting CV total of each side (after ratings were rolled).
    pub cv_start: [u32; 2],
    /// Set when the battle is over.
    pub outcome: Option<Outcome>,
    /// Charges declared this half-turn (reused buffer).
    pub(crate) charges: Vec<ChargePlan>,
    /// Units that must test reaction after a fire phase (reused buffer).
    pub(crate) hit_this_phase: Vec<UnitId>,
    /// A scratch list of unit ids (reused buffer).
    pub(crate) scratch: Vec<UnitId>,
    /// Moves begun in step 7, completed in step 12 (reused buffer).
    pub(crate) pending: Vec<maneuver::PendingMove>,
    /// 0 in the first half of a turn, 1 in the second.
    pub half: u8,
    /// Camps taken so far (bit per camp of the ground).
    pub camps_taken: u32,
    pub(crate) dice_rolled_start: u64,
    /// The battle's dice streams (reused buffer).
    dice: StreamDice,
    /// What the engine remembers about where units stand (see `cache`).
    pub(crate) cache: cache::Caches,
    /// The least and greatest y of each area of the ground, in play (no point outside that
    /// band is in the area).
    pub(crate) area_y: Vec<(f64, f64)>,
    /// Each area's box and whether its edges are square to the axes, in play
    /// (`Bounds::of_polygon`, worked out once for the walks over the ground).
    pub(crate) area_box: Vec<Option<(Bounds, bool)>>,
    /// When the set-up's late arrivals come on and which commands are held in reserve.
    pub(crate) schedule: crate::arrivals::Schedule,
    /// Re-rolls each commander still gives the enemy against his units this turn (a cowardly
    /// wretch's), by commander id (reused buffer).
    pub(crate) gifts: Vec<u8>,
    /// Units whose charge of this half-turn is spent, so that they make no support or
    /// opportunity charge: those that have made one (each is the unit's one countercharge
    /// move) and, with `charge.no_second_charge_a_half_turn`, those that have charged or fought
    /// a melee. By unit id: the test is asked of every unit near a charge.
    pub(crate) charge_spent: Vec<bool>,
}

/// What the rules of a turn act with: the battle, its set-up, the dice, the doctrines and the
/// observer. The rules of the turn's steps are its methods; it reads as the battle itself
/// (`Deref`), so they read and write the battle's state as `self.units`, `self.charges`...
pub struct Turn<'a, D, A, O> {
    pub(crate) b: &'a mut Battle,
    pub(crate) setup: &'a BattleSetup,
    pub(crate) dice: &'a mut D,
    pub(crate) ai: &'a mut A,
    pub(crate) obs: &'a mut O,
}

impl<D, A, O> std::ops::Deref for Turn<'_, D, A, O> {
    type Target = Battle;
    #[inline]
    fn deref(&self) -> &Battle {
        self.b
    }
}

impl<D, A, O> std::ops::DerefMut for Turn<'_, D, A, O> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Battle {
        self.b
    }
}

/// What a doctrine may read: the battle as it stands and the set-up. Never the dice.
pub struct View<'a> {
    pub battle: &'a Battle,
    pub setup: &'a BattleSetup,
}

impl Battle {
    /// What a doctrine may read of this battle under `setup`.
    #[inline]
    pub fn view<'a>(&'a self, setup: &'a BattleSetup) -> View<'a> {
        View {
            battle: self,
            setup,
        }
    }

    /// Buffers sized for this set-up.
    pub fn new(setup: &BattleSetup) -> Battle {
        Battle {
            units: setup.units.clone(),
            commanders: setup.commanders.clone(),
            commands: setup.commands.clone(),
            turn: 0,
            moving: Side::Parliament,
            cv_start: [0; 2],
            outcome: None,
            charges: Vec::with_capacity(setup.units.len()),
            hit_this_phase: Vec::with_capacity(setup.units.len()),
            scratch: Vec::with_capacity(setup.units.len()),
            pending: Vec::with_capacity(setup.units.len()),
            half: 0,
            camps_taken: 0,
            dice_rolled_start: 0,
            dice: StreamDice::default(),
            cache: cache::Caches::new(setup.units.len()),
            area_y: Vec::with_capacity(setup.ground.areas.len()),
            area_box: Vec::with_capacity(setup.ground.areas.len()),
            schedule: crate::arrivals::Schedule::for_setup(setup, setup.commands.len()),
            gifts: Vec::with_capacity(setup.commanders.len()),
            charge_spent: vec![false; setup.units.len()],
        }
    }

    /// Resets to the set-up and rolls this battle's randomised ratings and generals on their own
    /// streams of `seed`.
    pub fn reset<O: Observer>(&mut self, setup: &BattleSetup, seed: u64, obs: &mut O) {
        self.units.clone_from(&setup.units);
        self.charge_spent.clear();
        self.charge_spent.resize(self.units.len(), false);
        self.commanders.clone_from(&setup.commanders);
        // Field by field: `Command`'s derived `clone_from` would allocate its unit list anew.
        if self.commands.len() == setup.commands.len() {
            for (c, s) in self.commands.iter_mut().zip(&setup.commands) {
                let mut units = std::mem::take(&mut c.units);
                units.clone_from(&s.units);
                *c = Command {
                    units: Vec::new(),
                    ..*s
                };
                c.units = units;
            }
        } else {
            self.commands.clone_from(&setup.commands);
        }
        self.cache.fit(self.units.len());
        self.turn = 0;
        self.outcome = None;
        self.charges.clear();
        self.hit_this_phase.clear();
        self.pending.clear();
        self.camps_taken = 0;
        let mut ratings = SeededDice::stream(seed, streams::RATINGS);
        for (u, src) in self.units.iter_mut().zip(&setup.ratings) {
            if let RatingSource::Randomised { .. } = src {
                let cv = src.roll(u.start_cv, &mut ratings);
                u.start_cv = cv;
                u.cv = cv;
                u.lowest_cv = cv;
                emit(obs, Event::RatingRolled { unit: u.id, cv });
            }
        }
        let mut gen_dice = SeededDice::stream(seed, streams::GENERALS);
        for (c, src) in self.commanders.iter_mut().zip(&setup.commander_sources) {
            if let CommanderSource::Rolled { skill_modifier } = *src {
                c.rating = crate::rules::ironsides::leadership::roll_generalship(
                    &setup.rules,
                    &mut gen_dice,
                    skill_modifier,
                );
            }
        }
        self.reset_arrivals(setup, seed);
        // Late arrivals count from their arrival.
        self.cv_start = [0; 2];
        for u in self
            .units
            .iter()
            .filter(|u| u.status != UnitStatus::Waiting)
        {
            self.cv_start[u.side.index()] += u32::from(u.start_cv);
        }
    }

    /// How many dice streams a battle of this set-up draws from (initiative, each unit, each
    /// general), starting at stream `streams::BATTLE` of its seed.
    pub fn dice_streams(setup: &BattleSetup) -> usize {
        1 + setup.units.len() + setup.commanders.len()
    }

    /// Fights one whole battle from `seed` with the scenario's doctrines.
    pub fn fight<O: Observer>(
        &mut self,
        setup: &BattleSetup,
        seed: u64,
        obs: &mut O,
    ) -> BattleSummary {
        let mut dice = std::mem::take(&mut self.dice);
        dice.reseed(
            seed,
            streams::BATTLE,
            1 + self.units.len() + self.commanders.len(),
        );
        let mut ai = ParamAi;
        self.reset(setup, seed, obs);
        let summary = self.play(setup, &mut dice, &mut ai, obs);
        self.dice = dice;
        summary
    }

    /// Plays turns from the current state until the battle ends, with any dice and doctrine.
    pub fn play<D: DiceSource, A: Doctrine, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        ai: &mut A,
        obs: &mut O,
    ) -> BattleSummary {
        self.dice_rolled_start = dice.rolled();
        // Answers about where units stand may be kept from here to the end (see `cache`).
        self.begin_play(setup);
        while self.outcome.is_none() {
            self.turn += 1;
            self.in_turn(setup, dice, ai, obs).turn_steps();
            self.check_end(setup, obs);
        }
        self.end_caching();
        BattleSummary {
            outcome: self.outcome.unwrap_or(Outcome::Draw),
            turns: self.turn,
            dice_rolled: dice.rolled() - self.dice_rolled_start,
            cv_lost: [self.cv_lost(Side::Parliament), self.cv_lost(Side::Royalist)],
            cv_start: self.cv_start,
        }
    }

    /// One whole turn: initiative, then side A's half and side B's half (steps 1-16).
    pub fn play_turn<D: DiceSource, A: Doctrine, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        ai: &mut A,
        obs: &mut O,
    ) {
        self.begin_play(setup);
        self.in_turn(setup, dice, ai, obs).turn_steps();
        self.end_caching();
    }

    /// The battle with what its rules act with, for the rules of a turn (or any one of them:
    /// tests and tools call a step's own rule through it).
    pub fn in_turn<'a, D: DiceSource, A: Doctrine, O: Observer>(
        &'a mut self,
        setup: &'a BattleSetup,
        dice: &'a mut D,
        ai: &'a mut A,
        obs: &'a mut O,
    ) -> Turn<'a, D, A, O> {
        Turn {
            b: self,
            setup,
            dice,
            ai,
            obs,
        }
    }

    /// Play begins: the caches (see `cache`), each area's band of y (`area_y`) and box
    /// (`area_box`).
    fn begin_play(&mut self, setup: &BattleSetup) {
        self.begin_caching(&setup.rules);
        self.area_box.clear();
        self.area_box.extend(
            setup
                .ground
                .areas
                .iter()
                .map(|a| Bounds::of_polygon(&a.points)),
        );
        self.area_y.clear();
        self.area_y.extend(setup.ground.areas.iter().map(|a| {
            if a.points.iter().any(|p| p.y.is_nan()) {
                return (f64::NEG_INFINITY, f64::INFINITY);
            }
            a.points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.y), hi.max(p.y))
                })
        }));
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    fn turn_steps(&mut self) {
        let setup = self.setup;
        let rules = &*setup.rules;
        emit(self.obs, Event::TurnStarted { turn: self.turn });
        self.b.arrivals_and_releases(setup, self.obs);
        // Step 1: initiative, re-rolled on a tie.
        self.dice.focus(streams::COMMON);
        let (first, rolls) = loop {
            let (p, r) = (self.dice.d6(), self.dice.d6());
            if p != r {
                break (
                    if p > r {
                        Side::Parliament
                    } else {
                        Side::Royalist
                    },
                    [p, r],
                );
            }
        };
        emit(
            self.obs,
            Event::Initiative {
                turn: self.turn,
                first,
                rolls,
            },
        );
        self.start_turn(rules);
        for (half, side) in [first, first.other()].into_iter().enumerate() {
            self.moving = side;
            self.half = half as u8;
            self.half_turn();
        }
    }
}

impl Battle {
    /// Per-turn bookkeeping: shots, rallies, re-rolls, generals coming back.
    fn start_turn(&mut self, rules: &IronsidesRules) {
        for u in &mut self.units {
            u.shots_fired = 0;
            u.rallied_this_turn = 0;
            u.no_advance = false;
            u.spare_responses = 0;
        }
        self.gifts.clear();
        self.gifts
            .extend(self.commanders.iter().map(|c| c.rating.enemy_rerolls));
        for c in &mut self.commanders {
            c.rerolls_left = c.rerolls_per_turn();
            c.free_rerolls_left = rules.reaction.free_reroll_for_no_rr_general;
            if c.out_of_action > 0 {
                c.out_of_action -= 1;
            }
        }
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Steps 2-15 for the side moving.
    fn half_turn(&mut self) {
        self.begin_moves();
        for step in Step::HALF_TURN {
            self.run_step(step);
        }
    }

    /// One step of the moving side's half-turn.
    fn run_step(&mut self, step: Step) {
        let side = self.moving;
        match step {
            Step::MoveGenerals => self.move_generals(),
            Step::Leadership => self.leadership(),
            Step::Rallies => self.rallies(),
            Step::Pursuers => self.pursuers(),
            Step::Movement => self.movement(),
            Step::OtherSideFires => self.fire_and_react(side.other()),
            Step::MovingSideFires => self.fire_and_react(side),
            Step::CompleteMovement => self.complete_movement(),
            Step::Charges => self.resolve_charges(),
            Step::ContinuingMelees => self.continuing_melees(),
            Step::EndOfHalf => self.end_of_half(),
        }
    }
}

impl Battle {
    /// Begins half `half` (0 or 1) of turn `turn` with `side` moving: the bookkeeping of step
    /// 1 (shots, re-rolls and rallies renewed at a turn's first half) without its initiative
    /// roll. With [`Battle::step`], for tests and tools that drive a turn step by step (the
    /// worked examples run the text's steps this way, with the text's dice).
    pub fn begin_half(&mut self, setup: &BattleSetup, turn: u16, side: Side, half: u8) {
        if half == 0 {
            self.turn = turn;
            self.start_turn(&setup.rules);
        }
        self.moving = side;
        self.half = half;
        self.begin_moves();
    }

    /// Unit `id` has charged or fought this half-turn. "A victorious cavalry unit that does halt
    /// and regain composure may charge again on its next turn, or, if the enemy turn comes
    /// first, as an opportunity or support charge": not in this half-turn again. Under
    /// `charge.no_second_charge_a_half_turn` its charge is spent; without it, only a support
    /// or opportunity charge spends one.
    pub(crate) fn charged_or_fought(&mut self, rules: &IronsidesRules, id: UnitId) {
        if rules.charge.no_second_charge_a_half_turn {
            self.spend_charge(id);
        }
    }

    /// Marks `id`'s charge of this half-turn spent.
    pub(crate) fn spend_charge(&mut self, id: UnitId) {
        self.charge_spent[usize::from(id)] = true;
    }

    /// Whether `id`'s charge of this half-turn is spent (`spend_charge`).
    pub(crate) fn charge_is_spent(&self, id: UnitId) -> bool {
        self.charge_spent[usize::from(id)]
    }

    /// A half-turn's moves begin: none of the moving side has moved, no unit's charge is spent.
    fn begin_moves(&mut self) {
        let side = self.moving;
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.moved = false;
        }
        self.charge_spent.fill(false);
    }

    /// Runs one step of the current half-turn, exactly as a whole battle runs it.
    pub fn step<D: DiceSource, A: Doctrine, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        step: Step,
        dice: &mut D,
        ai: &mut A,
        obs: &mut O,
    ) {
        self.begin_play(setup);
        self.in_turn(setup, dice, ai, obs).run_step(step);
        self.end_caching();
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Units that spent a whole half-turn out of contact stop being broken; moves spent by
    /// retreats are used up.
    fn end_of_half(&mut self) {
        let setup = self.setup;
        let side = self.moving;
        // (The same answer as `enemy_within`.)
        for i in 0..self.units.len() {
            if self.units[i].side != side || !self.units[i].is_active() {
                continue;
            }
            if self.units[i].pinned {
                self.units[i].turns_out_of_contact = 0;
                continue;
            }
            let me = self.shape(i as UnitId);
            let in_contact = self.any_near(&me, side.other(), 1.0, |s| {
                me.within(&self.shape(s.id), 1.0)
            });
            let u = &mut self.units[i];
            if !in_contact {
                u.turns_out_of_contact = u.turns_out_of_contact.saturating_add(1);
                if u.broken && u.turns_out_of_contact >= 2 && !u.halt_next_turn {
                    u.broken = false;
                    emit(self.obs, Event::Recovered { unit: i as UnitId });
                }
            }
        }
        let _ = setup;
    }
}

impl Battle {
    /// CV lost by a side: lost CV of units on the table plus the whole starting CV of units
    /// destroyed, routed off or pursued off (none of units yet to arrive).
    pub fn cv_lost(&self, side: Side) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| match u.status {
                UnitStatus::Active => u32::from(u.start_cv - u.cv.min(u.start_cv)),
                UnitStatus::Waiting => 0,
                _ => u32::from(u.start_cv),
            })
            .sum()
    }

    /// The end-of-battle rule (rulings): a side breaks when its CV lost reaches its threshold;
    /// both at once is a draw; the turn limit is a draw.
    fn check_end<O: Observer>(&mut self, setup: &BattleSetup, obs: &mut O) {
        let mut broken = [false; 2];
        for side in Side::BOTH {
            let lost = self.cv_lost(side);
            let start = self.cv_start[side.index()];
            // Units still to arrive are still to fight.
            let any_left = self.units.iter().any(|u| {
                u.side == side && matches!(u.status, UnitStatus::Active | UnitStatus::Waiting)
            });
            if f64::from(lost) >= setup.break_fraction * f64::from(start) || !any_left {
                broken[side.index()] = true;
                emit(obs, Event::ArmyBroken { side, lost, start });
            }
        }
        let outcome = match broken {
            [true, true] => Some(Outcome::Draw),
            [true, false] => Some(Outcome::Won(Side::Royalist)),
            [false, true] => Some(Outcome::Won(Side::Parliament)),
            [false, false] if self.turn >= setup.turn_limit => Some(Outcome::Draw),
            _ => None,
        };
        if let Some(o) = outcome {
            self.outcome = Some(o);
            emit(
                obs,
                Event::BattleEnded {
                    outcome: o,
                    turn: self.turn,
                },
            );
        }
    }

    // ---- shared queries -------------------------------------------------------------

    pub fn rect(&self, id: UnitId) -> Rect {
        let u = &self.units[usize::from(id)];
        Rect {
            centre: u.pos,
            facing: u.facing,
            frontage: u.frontage,
            depth: u.depth,
        }
    }

    /// A unit's facing vector.
    #[inline]
    pub fn facing_vector(&self, id: UnitId) -> Vec2 {
        self.shape(id).fwd
    }

    /// Nearest-edge distance between two units.
    #[inline]
    pub fn distance(&self, a: UnitId, b: UnitId) -> f64 {
        self.shape(a).dist(&self.shape(b))
    }

    /// The ground of `setup` with the areas' boxes of this battle, for `movement::walk_on`
    /// (before play they are not known, and each walk works them out).
    pub fn terrain<'a>(&'a self, setup: &'a BattleSetup) -> movement::Terrain<'a> {
        movement::Terrain {
            ground: &setup.ground,
            boxes: &self.area_box,
        }
    }

    /// Whether two units are at most `limit` apart, trying their enclosing circles first.
    #[inline]
    pub fn within(&self, a: UnitId, b: UnitId, limit: f64) -> bool {
        self.shape(a).within(&self.shape(b), limit)
    }

    /// Whether two units are less than `limit` apart, trying their enclosing circles first.
    #[inline]
    pub fn closer_than(&self, a: UnitId, b: UnitId, limit: f64) -> bool {
        let (sa, sb) = (self.shape(a), self.shape(b));
        sa.dist_lower_bound(&sb) < limit && sa.dist(&sb) < limit
    }

    /// Whether `target`'s nearest point lies inside `from`'s front arc (45 degrees each side).
    pub fn in_front_arc(&self, from: UnitId, target: UnitId) -> bool {
        let f = self.shape(from);
        let d = self.units[usize::from(target)].pos - f.centre;
        within_arc(f.fwd, self.units[usize::from(from)].facing, d, FRONT_ARC)
            || self.closer_than(from, target, 0.5)
    }

    /// The commander who gives orders to a command now: the Captain-General if he has joined
    /// it (its own commander is silenced), else its own commander if available.
    pub fn acting_commander(&self, setup: &BattleSetup, cmd: CommandId) -> Option<CommanderId> {
        let side = self.commands[usize::from(cmd)].side;
        if let Some(cg) = setup.captain_generals[side.index()] {
            let c = &self.commanders[usize::from(cg)];
            if c.available() && c.attached_command == Some(cmd) {
                return Some(cg);
            }
        }
        self.commands[usize::from(cmd)]
            .commander
            .filter(|&c| self.commanders[usize::from(c)].available())
    }

    /// +1 CV while the Captain-General has joined the unit's command.
    pub fn cg_bonus(&self, setup: &BattleSetup, id: UnitId) -> u8 {
        let u = &self.units[usize::from(id)];
        match setup.captain_generals[u.side.index()] {
            Some(cg) => {
                let c = &self.commanders[usize::from(cg)];
                if c.available() && c.attached_command == Some(u.command) {
                    setup.rules.generals.captain_general_attached_cv_bonus
                } else {
                    0
                }
            }
            None => 0,
        }
    }

    /// The general leading this unit from the front, if any.
    pub fn attached_general(&self, id: UnitId) -> Option<CommanderId> {
        self.rider_where(id, |c| c.available())
    }

    /// Whether a unit is within its acting commander's radius.
    pub fn in_radius(&self, setup: &BattleSetup, id: UnitId) -> bool {
        let u = &self.units[usize::from(id)];
        match self.acting_commander(setup, u.command) {
            Some(c) => {
                let g = &self.commanders[usize::from(c)];
                g.attached_unit == Some(id) || self.reaches(id, g.pos, g.rating.radius)
            }
            // Independent units have no commander to be out of radius of.
            None => self.commands[usize::from(u.command)].commander.is_none(),
        }
    }

    /// `self.shape(id).dist_to_point(p) <= radius`, found from the centre alone when that
    /// settles it (margins far above rounding): no point of the unit is farther from `p` than
    /// its centre is, and none nearer than the centre less half its frontage and depth.
    #[inline]
    pub(crate) fn reaches(&self, id: UnitId, p: Vec2, radius: f64) -> bool {
        let u = &self.units[usize::from(id)];
        let d = p - u.pos;
        let d2 = d.dot(d);
        let near = radius * (1.0 - 1e-9) - 1e-9;
        if near >= 0.0 && d2 <= near * near {
            debug_assert!(self.shape(id).dist_to_point(p) <= radius);
            return true;
        }
        let far = (radius + (u.frontage + u.depth) * 0.5) * (1.0 + 1e-9) + 1e-9;
        if d2 > far * far {
            debug_assert!(self.shape(id).dist_to_point(p) > radius);
            return false;
        }
        self.shape(id).dist_to_point(p) <= radius
    }

    /// The re-rolls available for a test of this unit: its acting commander's, if in radius.
    pub fn rerolls_for(&self, setup: &BattleSetup, id: UnitId) -> (Option<CommanderId>, u8) {
        let u = &self.units[usize::from(id)];
        // `in_radius` for the acting commander found once.
        match self.acting_commander(setup, u.command) {
            Some(c) => {
                let g = &self.commanders[usize::from(c)];
                if g.attached_unit == Some(id) || self.reaches(id, g.pos, g.rating.radius) {
                    (Some(c), g.rerolls_left)
                } else {
                    (None, 0)
                }
            }
            None => (None, 0),
        }
    }

    /// The commander of `target` who gives its enemy re-rolls against it this turn (a cowardly
    /// wretch: "enemy gets 1RR against his units each turn"), while his gift lasts.
    pub(crate) fn giver_against(&self, setup: &BattleSetup, target: UnitId) -> Option<CommanderId> {
        let cmd = self.units[usize::from(target)].command;
        self.acting_commander(setup, cmd)
            .filter(|&c| self.gifts.get(usize::from(c)).is_some_and(|&n| n > 0))
    }

    /// Spends `used` re-rolls of a roll against an enemy: the wretch's gift first (it is lost
    /// at the turn's end), then the roller's own general's.
    pub(crate) fn spend_rerolls_against(
        &mut self,
        general: Option<CommanderId>,
        giver: Option<CommanderId>,
        used: u8,
    ) {
        let mut used = used;
        if let Some(w) = giver {
            let gift = &mut self.gifts[usize::from(w)];
            let k = used.min(*gift);
            *gift -= k;
            used -= k;
        }
        self.spend_rerolls(general, used);
    }

    /// The re-rolls left of `giver`'s gift.
    pub(crate) fn gift_of(&self, giver: Option<CommanderId>) -> u8 {
        giver.map_or(0, |w| self.gifts[usize::from(w)])
    }

    pub fn spend_rerolls(&mut self, general: Option<CommanderId>, used: u8) {
        if let Some(g) = general {
            let c = &mut self.commanders[usize::from(g)];
            c.rerolls_left = c.rerolls_left.saturating_sub(used);
        }
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Applies a CV loss: records the lowest point, rolls for an attached general, and
    /// disintegrates the unit at CV 0.
    pub fn lose_cv(&mut self, id: UnitId, n: u8, cause: LossCause) -> u8 {
        let u = &mut self.units[usize::from(id)];
        if !u.is_active() || n == 0 {
            return 0;
        }
        let lost = u.lose_cv(n);
        let cv = u.cv;
        emit(
            self.obs,
            Event::CvLost {
                unit: id,
                amount: lost,
                cause,
                cv,
            },
        );
        // The risk to an attached general comes with losses the enemy inflicts; the CV a
        // pursuer pays for haring off is its own choice and puts him at no risk.
        if lost > 0
            && cause != LossCause::Pursuit
            && let Some(g) = self.attached_general(id)
        {
            self.dice.focus(general_stream(self, g));
            let (_, hit) = generals::attached_general_hit(self.dice, lost);
            if hit {
                self.general_casualty(g, Some(id));
            }
        }
        if self.units[usize::from(id)].cv == 0 && self.units[usize::from(id)].is_active() {
            self.disintegrate(id);
        }
        lost
    }

    /// CV 0: the unit runs away in abject terror; its general returns after a full turn.
    pub fn disintegrate(&mut self, id: UnitId) {
        let setup = self.setup;
        self.shift(id, |u| {
            u.status = UnitStatus::Destroyed;
            u.pinned = false;
            u.engaged_with = None;
        });
        emit(self.obs, Event::Disintegrated { unit: id });
        self.unit_gone(setup, id);
    }
}

impl Battle {
    /// A unit has left the fight: free whoever was locked with it, send its general back.
    pub fn unit_gone(&mut self, setup: &BattleSetup, id: UnitId) {
        self.moved(id);
        for o in &mut self.units {
            if o.engaged_with == Some(id) {
                o.engaged_with = None;
                o.pinned = false;
            }
        }
        self.sweep_away_generals(setup, id);
    }

    /// Generals leading a unit that dissolves or routs are swept away with it: they return to
    /// their command after one full turn.
    pub(crate) fn sweep_away_generals(&mut self, setup: &BattleSetup, id: UnitId) {
        let delay = setup.rules.generals.swept_away_delay_turns;
        while let Some(g) = self.rider_where(id, |_| true) {
            let c = &mut self.commanders[usize::from(g)];
            c.out_of_action = c.out_of_action.max(delay + 1);
            self.attach_general(g, None);
        }
    }
}

impl<D: DiceSource, A: Doctrine, O: Observer> Turn<'_, D, A, O> {
    /// Gains CV (never above the starting CV).
    pub fn gain_cv(&mut self, id: UnitId, n: u8) -> u8 {
        let u = &mut self.b.units[usize::from(id)];
        if !u.is_active() {
            return 0;
        }
        let cap = u.start_cv;
        let g = u.gain_cv(n, cap);
        if g > 0 {
            emit(
                self.obs,
                Event::CvGained {
                    unit: id,
                    amount: g,
                    cv: u.cv,
                },
            );
            // Regaining a CV ends a unit's brokenness.
            if u.broken {
                u.broken = false;
                emit(self.obs, Event::Recovered { unit: id });
            }
        }
        g
    }
}

pub use crate::events::emit;

#[cfg(test)]
mod tests {
    #[test]
    fn front_arc_cosine() {
        assert_eq!(
            super::FRONT_ARC,
            super::HalfAngle::new(std::f64::consts::FRAC_PI_4 + 0.35)
        );
    }
}

//! The Black Powder turn sequence: whole seeded battles over a scenario's [`BattleSetup`].
//!
//! Sides alternate whole turns. In its turn a side gives orders and moves (closing fire meets
//! its charges), shoots, then every melee in contact is fought, then the break tests not yet
//! taken; the battle ends when an army breaks or at the turn limit (a draw).
//!
//! A [`Battle`] is allocated once per thread and reused: `reset` copies the derived template
//! into the buffers it already has, so a battle allocates nothing.

mod arrivals;
mod close;
pub mod doctrine;
mod fire;
mod morale_phase;
mod orders;

use std::sync::Arc;

use super::events::Detail;
use super::melee::{Aspect, aspect};
use super::tables::{BlackPowderRules, Quality, SpecialRule};
use super::units::{self, Specials, Troop};
use crate::army::{CommandKind, CommanderId, Side, Unit, UnitId};
use crate::arrivals::Arriving;
use crate::battlefield::geometry::{Bounds, Shape, angle_diff, within_arc_by_cosine};
use crate::battlefield::grid::{GRID_FROM, Grid};
use crate::battlefield::sweep::Sweep;
use crate::battlefield::{AreaKind, Ground, Vec2};
use crate::dice::{DiceSource, StreamDice};
use crate::events::{Event, Observer, Outcome};
use crate::rules::{BattleSummary, Ruleset};
use crate::setup::BattleSetup;

/// Streams of the battle's seed: the roll-off, then one per regiment, then one per brigade.
pub mod streams {
    pub const BATTLE: u64 = 16;
    pub const COMMON: u32 = 0;
}

/// Black Powder with the scenario's doctrines.
#[derive(Debug, Clone)]
pub struct BlackPowder {
    pub rules: Arc<BlackPowderRules>,
}

impl BlackPowder {
    pub fn new(rules: BlackPowderRules) -> Self {
        BlackPowder {
            rules: Arc::new(rules),
        }
    }
    /// With the built-in ruleset file.
    pub fn builtin() -> Self {
        Self::new(BlackPowderRules::builtin())
    }
    /// The values a battle of `setup` reads: the scenario's `[black_powder_rules]` laid over
    /// the built-in file when it has them, else this ruleset's own.
    pub fn rules_for(&self, setup: &BattleSetup) -> Arc<BlackPowderRules> {
        let changed = setup.ruleset_changes.black_powder.as_ref();
        changed.unwrap_or(&self.rules).clone()
    }
}

impl Ruleset for BlackPowder {
    type Battle = Battle;

    fn name(&self) -> &'static str {
        "black_powder"
    }

    /// Casualties against stamina.
    fn currency(&self) -> &'static str {
        "casualties"
    }

    fn builtin_text(&self) -> &'static str {
        super::tables::BUILTIN
    }

    fn turn_limit(&self, setup: &BattleSetup) -> u16 {
        self.rules_for(setup).turn_limit(setup)
    }

    /// By its broken brigades: each army's count of the commands that count.
    fn army_break(&self, setup: &BattleSetup) -> String {
        let share = self.rules_for(setup).army.army_broken_share;
        let share = if share == 0.5 {
            "half or more".to_string()
        } else {
            format!("{}% or more", (share * 100.0).round())
        };
        let brigades = |side: Side| {
            let counting = |c: &&crate::army::Command| {
                c.side == side && counts_towards_break(c.kind) && !c.units.is_empty()
            };
            setup.commands.iter().filter(counting).count()
        };
        format!(
            "an army breaks when {share} of its brigades are broken (horse, foot and brigade \
             commands, a late one once it arrives; not guns or independents): Parliament {}, \
             the Royalists {}",
            brigades(Side::Parliament),
            brigades(Side::Royalist)
        )
    }

    /// The regiments over the seed's largest size, which the ruling fights as Standard.
    fn cautions(&self, setup: &BattleSetup) -> Vec<String> {
        let rules = self.rules_for(setup);
        let over: Vec<String> = setup
            .units
            .iter()
            .map(|u| (u, units::derive(u, &rules)))
            .filter(|(_, d)| d.oversize)
            .map(|(u, d)| {
                format!(
                    "{} ({}, {} figures)",
                    setup.unit_name(u.id),
                    u.side,
                    d.figures
                )
            })
            .collect();
        if over.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "{} regiment(s) over {} figures, the seed's largest size (Standard), fought as \
             Standard (ruling: docs/RULES-BLACK-POWDER.md, Units): {}",
            over.len(),
            rules.stamina.standard_max,
            over.join(", ")
        )]
    }

    fn army_break_key(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "black_powder_rules.army.army_broken_share",
            "the share of its brigades broken at which an army breaks",
        ))
    }

    /// Stamina stands for CV: the `casualties` measures count casualties against stamina.
    fn layout(&self, setup: &BattleSetup) -> crate::stats::Layout {
        let mut l = crate::stats::Layout::of(setup);
        l.currency = self.currency().into();
        let mut max = 0;
        let rules = self.rules_for(setup);
        for (info, u) in l.units.iter_mut().zip(&setup.units) {
            info.start_cv = units::derive(u, &rules).stamina;
            info.randomised = false;
            max = max.max(info.start_cv);
        }
        l.cv_max = max;
        l.with_measures(&super::statistics::MEASURES)
    }

    fn new_battle(&self, setup: &BattleSetup) -> Battle {
        Battle::new(self.rules_for(setup), setup)
    }

    fn fight<O: Observer>(
        &self,
        battle: &mut Battle,
        setup: &BattleSetup,
        seed: u64,
        obs: &mut O,
    ) -> BattleSummary {
        battle.fight(setup, seed, obs)
    }

    fn unit_lost(&self, battle: &Battle, unit: UnitId) -> Option<u32> {
        (usize::from(unit) < battle.regiments.len())
            .then(|| battle.regiment_lost(usize::from(unit)))
    }

    fn deploy(&self, battle: &mut Battle, _: &BattleSetup, _: u64) {
        battle.reset();
    }

    /// Each regiment where it stands, its CV the stamina it has left; gone regiments off.
    fn units(&self, battle: &Battle, setup: &BattleSetup) -> Vec<crate::army::Unit> {
        let mut units = setup.units.clone();
        for (u, r) in units.iter_mut().zip(&battle.regiments) {
            u.pos = r.pos;
            u.facing = r.facing;
            u.start_cv = r.stamina;
            u.cv = r.stamina.saturating_sub(r.casualties);
            if r.gone {
                u.status = crate::army::UnitStatus::OffTable;
            }
        }
        units
    }

    fn dice_streams(&self, battle: &Battle, _: &BattleSetup) -> Option<(u64, usize)> {
        Some((streams::BATTLE, battle.dice_streams()))
    }
}

/// A regiment: one morale (stamina, shaken, disorder, break tests) over one to three elements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Regiment {
    pub unit: UnitId,
    pub side: Side,
    pub brigade: u16,
    pub pos: Vec2,
    pub facing: f64,
    /// Its facing as a unit vector (kept by `place` with `facing`).
    pub front: Vec2,
    pub stamina: u8,
    pub casualties: u8,
    pub quality: Quality,
    pub specials: Specials,
    /// Its elements: `first..first + count` of the battle's elements.
    pub first: u16,
    pub count: u8,
    pub shaken: bool,
    pub disordered: bool,
    pub hedgehog: bool,
    /// Threatened by horse this turn and tested (a disordered regiment rolls once a turn).
    pub hedgehog_tested: bool,
    /// Stopped by a friendly pike block: waits for its brigade commander's order to rally.
    pub disarray: bool,
    /// Broken and removed, or off the table.
    pub gone: bool,
    /// Off the table until its late arrival (also `gone` meanwhile).
    pub waiting: bool,
    /// Shaken by shooting or hit while shaken: a break test is due.
    pub must_test: bool,
    pub tests_taken: u8,
    /// Has fired its first volley (First Fire).
    pub volleyed: bool,
    /// The regiment it is in melee with.
    pub engaged: Option<u16>,
    /// Charged this turn: +1 in the first round.
    pub charged: bool,
    /// Rounds fought in the present melee.
    pub rounds: u8,
    pub won_last: bool,
    /// A commander fighting with it.
    pub joined: Option<CommanderId>,
    /// Held back as the brigade's reserve.
    pub reserve: bool,
    /// Its standard move (its slowest element's).
    pub standard_move: f64,
    /// How far its elements reach from its centre (offset plus half depth).
    pub reach: f64,
    /// Its footprint's radius (`footprint`), fixed: the elements never change.
    pub radius: f64,
}

/// One element: a pike block, a sleeve of shot, a body of horse or dragoons, a battery.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Element {
    pub regiment: u16,
    pub troop: Troop,
    /// Sideways offset from the regiment's centre (right positive).
    pub offset: f64,
    pub frontage: f64,
    pub depth: f64,
    pub pos: Vec2,
}

/// A brigade commander (or the Captain-General).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct General {
    pub side: Side,
    pub pos: Vec2,
    pub lost: bool,
    /// The turn his replacement arrives.
    pub back_on: u16,
    pub joined: Option<u16>,
    /// His Command rating: the scenario's `staff_rating`, else `command.default_rating`.
    pub rating: u8,
}

/// A command of the scenario: a brigade for orders and for brigade and army break.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Brigade {
    pub side: Side,
    pub commander: Option<CommanderId>,
    /// Counts towards army break (horse, foot and brigades; not guns or independents).
    pub counts: bool,
    pub broken: bool,
    /// Whether the story was last told it is broken (only brigades that count are told).
    pub told: bool,
    /// Has a regiment on the table or broken there (not only late arrivals still to come).
    pub present: bool,
    pub doctrine: u16,
}

/// The state of one battle in progress.
#[derive(Debug, Clone)]
pub struct Battle {
    pub rules: Arc<BlackPowderRules>,
    pub regiments: Vec<Regiment>,
    pub elements: Vec<Element>,
    pub generals: Vec<General>,
    pub brigades: Vec<Brigade>,
    /// Each side's Captain-General.
    pub captain_generals: [Option<CommanderId>; 2],
    pub turn: u16,
    pub turn_limit: u16,
    /// The scenario's turn limit, or the ruleset's default where it wrote none.
    scenario_turn_limit: u16,
    pub outcome: Option<Outcome>,
    pub stamina_start: [u32; 2],
    /// Table width and depth.
    pub table: (f64, f64),
    template: (Vec<Regiment>, Vec<Element>, Vec<General>, Vec<Brigade>),
    dice: StreamDice,
    /// The battle's seed (late arrivals' dice come from their own streams of it).
    seed: u64,
    /// When the late arrivals come on and which commands are held in reserve.
    schedule: crate::arrivals::Schedule,
    /// Melee pairs of the phase (reused buffer).
    pairs: Vec<(u16, u16)>,
    /// Each side's regiments, in index order (sides never change): scans for enemies or
    /// friends walk only their side's half.
    sides: [Vec<u16>; 2],
    /// Each side's regiments' centres and reaches, in the order of `sides` (kept by `place`):
    /// the walks of a side (for the nearest enemy, `any_in_box`) read them from one run of
    /// memory.
    centres: [Vec<Centre>; 2],
    /// Each regiment's place in its side's list (`sides`, `centres`).
    slot: Vec<u16>,
    /// Each side's regiments with a pike block, in index order.
    pikes: [Vec<u16>; 2],
    /// Each brigade's regiments, in index order.
    members: Vec<Vec<u16>>,
    /// Brigades that have begun their orders this battle (a count).
    brigade_orders: u32,
    /// Each regiment's nearest enemy as its commander's placing found it, with the count of
    /// brigade orders it was found in (`nearest_enemy_now`); from earlier orders, a hint where
    /// to start looking (`nearest_enemy_hinted`).
    kept_nearest: Vec<(u32, Option<(usize, f64)>)>,
    /// The regiment of the nearest enemy last found for any regiment (`nearest_enemy_hinted`).
    last_nearest: Option<u16>,
    /// Each side's regiments with the Hedgehog rule (the only ones a hedgehog test can form),
    /// in index order.
    hedgehogs: [Vec<u16>; 2],
    /// Whether each regiment has a pike block.
    pike: Vec<bool>,
    /// Each side's regiments by cell of the table, kept by `place`.
    grid: Grid,
    /// Each side's regiments (by slot) in the order of their centres' x, kept by `place` for a
    /// side too small for the grid (`swept`): the boxes' searches of such a side.
    sweep: Sweep,
    /// Each brigade's (regiments on the table or broken, of them broken, shaken or gone), counted
    /// in one pass over the regiments (reused buffer).
    brigade_counts: Vec<(u32, u32)>,
    /// The shooting phase's possible targets (reused buffer).
    targets: Vec<Target>,
    /// Of those, the ones within reach of the regiment shooting (reused buffer).
    near_targets: Vec<Target>,
    /// Regiments near one asking (reused buffer).
    near_regiments: Vec<u16>,
    /// The longest reach of any regiment (fixed from the set-up).
    max_reach: f64,
    /// The largest radius of any regiment's footprint (`footprint`; fixed from the set-up).
    max_footprint: f64,
    /// `GRID_FROM`, compared with the list searched (the enemy side for `nearest_enemy` and
    /// the shooting's targets, a side's friends for supports, the enemy's hedgehogs); the
    /// tests lower it to compare the grid's answers with the walks'.
    grid_from: usize,
    /// Each area of the ground's box (`Bounds::of_polygon`; a box far off for an area without
    /// points): an area holds no point its box is clear of (`area_at`).
    area_box: Vec<Bounds>,
    /// The cosines of the flank and rear bearings (`melee::aspect`).
    aspect_cos: (f64, f64),
}

/// The box of each area of the ground, in order (an area without points has an empty box far
/// off).
fn area_boxes(ground: &Ground) -> Vec<Bounds> {
    let far = Vec2::new(f64::INFINITY, f64::INFINITY);
    let boxes = ground.areas.iter().map(|a| Bounds::of_polygon(&a.points));
    boxes
        .map(|b| b.map_or(Bounds { lo: far, hi: far }, |(b, _)| b))
        .collect()
}

/// A regiment's centre and reach, as the walks of a side first test them.
#[derive(Debug, Clone, Copy, Default)]
struct Centre {
    pos: Vec2,
    /// Its reach and `APART_MARGIN`, added once.
    reach_apart: f64,
}

/// An enemy regiment a shooting phase may shoot at: where it stands and how far it reaches.
#[derive(Debug, Clone, Copy)]
struct Target {
    regiment: u16,
    pos: Vec2,
    reach: f64,
}

pub(crate) use crate::events::emit;

/// Inches added to a bound that rules a pair of regiments out of reach, far above the rounding
/// of table distances (a few hundred inches at most), so that the bound never rules out a pair
/// the exact element-by-element test would keep.
const APART_MARGIN: f64 = 1e-6;

/// Inches on a side of the grid's cells: two frontages, so that a search's reach (a move, a
/// musket's range) spans few cells (the scaling bench's 2,000-unit battle: 12 inches 16% fewer
/// instructions than 6, 9 and 16 within 4% of 12, docs/PERFORMANCE-LOG.md).
const GRID_CELL: f64 = 12.0;

impl Battle {
    /// A battle for this set-up: every regiment derived once (figures, stamina, elements).
    pub fn new(rules: Arc<BlackPowderRules>, setup: &BattleSetup) -> Battle {
        let template = derive_template(&rules, setup);
        let mut sides: [Vec<u16>; 2] = Default::default();
        let (mut pikes, mut hedgehogs) = (sides.clone(), sides.clone());
        let mut slot = Vec::with_capacity(template.0.len());
        for (r, reg) in template.0.iter().enumerate() {
            let s = reg.side.index();
            slot.push(sides[s].len() as u16);
            sides[s].push(r as u16);
            let troops = || template.1[usize::from(reg.first)..][..usize::from(reg.count)].iter();
            if troops().any(|e| e.troop == Troop::Pike) {
                pikes[s].push(r as u16);
            }
            if reg.specials.has(SpecialRule::Hedgehog) {
                hedgehogs[s].push(r as u16);
            }
        }
        let mut members = vec![Vec::new(); template.3.len()];
        for (r, reg) in template.0.iter().enumerate() {
            if let Some(m) = members.get_mut(usize::from(reg.brigade)) {
                m.push(r as u16);
            }
        }
        let aspect_cos = (
            rules.melee.flank_degrees.to_radians().cos(),
            rules.melee.rear_degrees.to_radians().cos(),
        );
        let n = template.0.len();
        let scenario_turn_limit = rules.turn_limit(setup);
        let mut b = Battle {
            rules,
            regiments: Vec::new(),
            elements: Vec::new(),
            generals: Vec::new(),
            brigades: Vec::new(),
            captain_generals: setup.captain_generals,
            turn: 0,
            turn_limit: 0,
            scenario_turn_limit,
            outcome: None,
            stamina_start: [0; 2],
            table: (setup.ground.width, setup.ground.depth),
            template,
            dice: StreamDice::default(),
            seed: 0,
            schedule: crate::arrivals::Schedule::default(),
            pairs: Vec::new(),
            pike: (0..n as u16)
                .map(|r| pikes.iter().any(|p| p.contains(&r)))
                .collect(),
            grid: Grid::new((setup.ground.width, setup.ground.depth), n, GRID_CELL),
            centres: sides.clone().map(|s| vec![Centre::default(); s.len()]),
            sides,
            slot,
            pikes,
            hedgehogs,
            members,
            brigade_orders: 0,
            kept_nearest: vec![(0, None); n],
            last_nearest: None,
            brigade_counts: Vec::new(),
            targets: Vec::new(),
            near_targets: Vec::new(),
            near_regiments: Vec::new(),
            max_reach: 0.0,
            max_footprint: 0.0,
            sweep: Sweep::default(),
            grid_from: GRID_FROM,
            area_box: area_boxes(&setup.ground),
            aspect_cos,
        };
        b.max_reach = b.template.0.iter().map(|r| r.reach).fold(0.0, f64::max);
        b.reset();
        b.max_footprint = (0..n)
            .map(|r| {
                b.footprint(r, b.regiments[r].pos, b.regiments[r].front)
                    .radius
            })
            .fold(0.0, f64::max);
        b
    }

    /// Back to the start of the battle.
    pub fn reset(&mut self) {
        self.regiments.clone_from(&self.template.0);
        self.elements.clone_from(&self.template.1);
        self.generals.clone_from(&self.template.2);
        self.brigades.clone_from(&self.template.3);
        self.turn = 0;
        self.turn_limit = self.scenario_turn_limit;
        self.outcome = None;
        self.pairs.clear();
        self.brigade_orders = 0;
        self.kept_nearest.fill((0, None));
        self.last_nearest = None;
        let regiments = &self.regiments;
        self.grid
            .fill(regiments.len(), |r| (regiments[r].side, regiments[r].pos));
        for (reg, &slot) in regiments.iter().zip(&self.slot) {
            self.centres[reg.side.index()][usize::from(slot)] = Centre {
                pos: reg.pos,
                reach_apart: reg.reach + APART_MARGIN,
            };
        }
        for side in Side::BOTH {
            if self.swept(side) {
                let xs = self.centres[side.index()].iter().map(|c| c.pos.x);
                self.sweep.fill(side, xs.zip(0..));
            }
        }
        self.stamina_start = [0; 2];
        for r in &self.regiments {
            self.stamina_start[r.side.index()] += u32::from(r.stamina);
        }
    }

    /// Dice streams a battle draws from: the roll-off, each regiment, each brigade.
    pub fn dice_streams(&self) -> usize {
        1 + self.regiments.len() + self.brigades.len()
    }

    /// Fights one whole battle from `seed`.
    pub fn fight<O: Observer>(
        &mut self,
        setup: &BattleSetup,
        seed: u64,
        obs: &mut O,
    ) -> BattleSummary {
        let mut dice = std::mem::take(&mut self.dice);
        dice.reseed(seed, streams::BATTLE, self.dice_streams());
        self.seed = seed;
        self.reset();
        let s = self.play(setup, &mut dice, obs);
        self.dice = dice;
        s
    }

    /// Plays from the set-up to the end with any dice (scripted dice in tests; late arrivals
    /// draw from the seed of the last `fight`, 0 on a new battle).
    pub fn play<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) -> BattleSummary {
        self.reset_arrivals(setup);
        dice.focus(streams::COMMON);
        let (first, told) = self.rules.command.first_mover.decide(dice);
        while self.outcome.is_none() && self.turn < self.turn_limit {
            self.turn += 1;
            crate::events::turn_started(obs, self.turn, first, told);
            self.arrivals_and_releases(setup, obs);
            for side in [first, first.other()] {
                self.side_turn(side, setup, dice, obs);
                if self.check_armies(setup, obs) {
                    break;
                }
            }
        }
        let outcome = *self.outcome.get_or_insert(Outcome::Draw);
        emit(
            obs,
            Event::BattleEnded {
                outcome,
                turn: self.turn,
            },
        );
        BattleSummary {
            outcome,
            turns: self.turn,
            dice_rolled: dice.rolled(),
            cv_lost: [self.lost(Side::Parliament), self.lost(Side::Royalist)],
            cv_start: self.stamina_start,
        }
    }

    /// One side's whole turn.
    pub fn side_turn<D: DiceSource, O: Observer>(
        &mut self,
        side: Side,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        self.start_of_turn(side, dice, obs);
        self.orders_phase(side, setup, dice, obs);
        self.shooting_phase(side, setup, dice, obs);
        self.melee_phase(setup, dice, obs);
        self.break_test_phase(dice, obs);
        self.end_of_turn(side);
        self.update_brigades();
    }

    /// The side's disordered regiments recover at the end of its turn (a ruleset choice).
    pub fn end_of_turn(&mut self, side: Side) {
        if !self.rules.disorder.clears_end_of_own_turn {
            return;
        }
        for r in self
            .regiments
            .iter_mut()
            .filter(|r| r.side == side && !r.disarray)
        {
            r.disordered = false;
        }
    }

    /// Stamina a side has lost: casualties (up to stamina), and the whole of every gone regiment.
    pub fn lost(&self, side: Side) -> u32 {
        (0..self.regiments.len())
            .filter(|&r| self.regiments[r].side == side)
            .map(|r| self.regiment_lost(r))
            .sum()
    }

    /// Stamina regiment `r` has lost: its casualties (up to stamina), or all of it if gone.
    pub fn regiment_lost(&self, r: usize) -> u32 {
        let r = &self.regiments[r];
        if r.waiting {
            0
        } else if r.gone {
            u32::from(r.stamina)
        } else {
            u32::from(r.casualties.min(r.stamina))
        }
    }

    /// Moves a regiment and its elements: the one place positions and facings are written.
    pub fn place(&mut self, r: usize, pos: Vec2, facing: f64) {
        self.place_facing(r, pos, facing, self.front_of(r, facing));
    }

    /// The unit vector of `facing` for regiment `r`: the one kept with its facing when that is
    /// the same (most moves keep it), else worked out.
    pub fn front_of(&self, r: usize, facing: f64) -> Vec2 {
        let reg = &self.regiments[r];
        if facing.to_bits() == reg.facing.to_bits() {
            reg.front
        } else {
            Vec2::from_facing(facing)
        }
    }

    /// `place`, with `front` the unit vector of `facing` (`front_of`) already worked out.
    pub fn place_facing(&mut self, r: usize, pos: Vec2, facing: f64, front: Vec2) {
        let reg = &mut self.regiments[r];
        reg.pos = pos;
        reg.facing = facing;
        reg.front = front;
        let (side, a, n) = (reg.side, usize::from(reg.first), usize::from(reg.count));
        self.grid.moved(r, side, pos);
        self.centres[side.index()][usize::from(self.slot[r])].pos = pos;
        if self.swept(side) {
            self.sweep.moved(side, usize::from(self.slot[r]), pos.x);
        }
        let right = front.right();
        for e in &mut self.elements[a..a + n] {
            e.pos = pos + right * e.offset;
        }
    }

    /// Regiment `r`'s footprint centred at `at`, facing `front`: its elements side by side (all
    /// of a frontage and depth).
    pub fn footprint(&self, r: usize, at: Vec2, front: Vec2) -> Shape {
        let reg = &self.regiments[r];
        let e = &self.elements[usize::from(reg.first)];
        Shape::sized(
            at,
            front,
            e.frontage * f64::from(reg.count),
            e.depth,
            reg.radius,
        )
    }

    /// The elements of a regiment, by index.
    pub fn element_range(&self, r: usize) -> std::ops::Range<usize> {
        let reg = &self.regiments[r];
        usize::from(reg.first)..usize::from(reg.first) + usize::from(reg.count)
    }

    /// Gap between two elements: centre distance less their half depths.
    pub fn gap(&self, a: usize, b: usize) -> f64 {
        let (x, y) = (&self.elements[a], &self.elements[b]);
        (x.pos.dist(y.pos) - (x.depth + y.depth) / 2.0).max(0.0)
    }

    /// The nearest enemy element to any element of regiment `r` that `ok` accepts: (element, gap),
    /// the lowest element index among equals.
    pub fn nearest_enemy(
        &self,
        r: usize,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        self.nearest_enemy_from(r, None, ok)
    }

    /// `nearest_enemy`, bounded from the start by the gap to enemy regiment `hint` (a likely
    /// nearest, such as the last one found), so that the centres' bound rules out nearly every
    /// other regiment at once. The same answer whatever the hint: the search starts below the
    /// hint's gap plus a margin for rounding instead of infinity, and the nearest (the
    /// lowest-numbered element among equals) is never further than the hint. A side of fewer
    /// than `GRID_FROM` regiments is walked whole; a larger one is searched by the grid's rings
    /// outward from `r`, which gives the same answer.
    pub fn nearest_enemy_from(
        &self,
        r: usize,
        hint: Option<usize>,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        let mut start = f64::INFINITY;
        let walk = self.side(self.regiments[r].side.other()).len() < self.grid_from;
        let hint = hint.filter(|&h| !self.regiments[h].gone);
        if let Some(h) = hint.or_else(|| walk.then(|| self.nearest_centre(r)).flatten()) {
            for k in self.element_range(h) {
                if ok(&self.regiments[h], &self.elements[k]) {
                    for e in self.element_range(r) {
                        start = start.min(self.gap(e, k) + APART_MARGIN);
                    }
                }
            }
        }
        self.nearest_below_by(walk, r, start, ok)
    }

    /// `nearest_enemy_from` with no hint, among the elements no farther than `limit` (none when
    /// none is): a search that needs no enemy beyond a reach starts from it.
    pub fn nearest_enemy_within(
        &self,
        r: usize,
        limit: f64,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        let walk = self.side(self.regiments[r].side.other()).len() < self.grid_from;
        self.nearest_below_by(walk, r, limit + APART_MARGIN, ok)
    }

    /// `nearest_below` by a walk of the enemy side (`walk`) or by the grid's rings.
    fn nearest_below_by(
        &self,
        walk: bool,
        r: usize,
        start: f64,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        if walk {
            self.nearest_below(r, start, ok)
        } else {
            self.nearest_in_rings(r, start, ok)
        }
    }

    /// The enemy regiment on the table whose centre is nearest regiment `r`'s: a hint for
    /// `nearest_enemy_from` when it has none, found from the centres alone.
    fn nearest_centre(&self, r: usize) -> Option<usize> {
        let me = &self.regiments[r];
        let side = me.side.other();
        let mut best = (f64::INFINITY, None);
        for (o, c) in self.centres(side) {
            let d = (c.pos - me.pos).len2();
            if d < best.0 && !self.regiments[o].gone {
                best = (d, Some(o));
            }
        }
        best.1
    }

    /// `nearest_enemy` among the elements nearer than `start` (none when there are none), the
    /// enemy side walked in index order: the first of equals is kept, so ties need no test.
    fn nearest_below(
        &self,
        r: usize,
        start: f64,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        // (gap, element): no element while none is found, so that the tests below are plain
        // comparisons (gaps are finite).
        let mut best = (start, usize::MAX);
        let me = &self.regiments[r];
        let side = me.side.other();
        // A centre further than the best by both reaches and the margin cannot beat it: the
        // squared test, with no square root, rules out nearly every regiment once a near one is
        // found (the few it lets by meet `nearer`'s own test).
        let mut lim = best.0 + me.reach;
        for (o, c) in self.centres(side) {
            let bound = lim + c.reach_apart;
            if (c.pos - me.pos).len2() > bound * bound {
                continue;
            }
            self.nearer::<false>(r, o, &ok, &mut best);
            lim = best.0 + me.reach;
        }
        (best.1 != usize::MAX).then_some((best.1, best.0))
    }

    /// `nearest_below` by the grid's rings, walked outward from the regiment until the nearest
    /// found is nearer than any element of a centre beyond the ring can be (that distance less
    /// both regiments' reach).
    fn nearest_in_rings(
        &self,
        r: usize,
        start: f64,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        let me = &self.regiments[r];
        let mut best = (start, usize::MAX);
        let side = me.side.other();
        // Centres farther than the best by both reaches cannot beat it: their cells are skipped.
        let reach = me.reach + self.max_reach + APART_MARGIN;
        for k in 0.. {
            let on = self.grid.ring(side, me.pos, k, best.0 + reach, |o| {
                self.nearer::<true>(r, o, &ok, &mut best)
            });
            let beyond = self.grid.past_ring(k) - reach;
            if !on || best.0 < beyond {
                break;
            }
        }
        (best.1 != usize::MAX).then_some((best.1, best.0))
    }

    /// Keeps in `best` the nearer of it and enemy regiment `o`'s nearest element `ok` accepts
    /// to one of regiment `r`'s, the lower element index among equals. A walk in index order
    /// meets equals in that order and keeps the first without testing (`TIES` false); the
    /// grid's cells come in no such order, so they test (`TIES` true).
    #[inline]
    fn nearer<const TIES: bool>(
        &self,
        r: usize,
        o: usize,
        ok: &impl Fn(&Regiment, &Element) -> bool,
        best: &mut (f64, usize),
    ) {
        let reg = &self.regiments[o];
        if reg.gone {
            return;
        }
        // No element of `o` can be nearer than its centre less both regiments' reach.
        let bound = self.regiments[r].pos.dist(reg.pos) - self.reach(r) - self.reach(o);
        let beaten = if TIES {
            bound > best.0 || (bound == best.0 && usize::from(reg.first) > best.1)
        } else {
            bound >= best.0
        };
        if beaten {
            return;
        }
        for k in self.element_range(o) {
            if !ok(reg, &self.elements[k]) {
                continue;
            }
            for e in self.element_range(r) {
                let g = self.gap(e, k);
                if g < best.0 || (TIES && g == best.0 && k < best.1) {
                    *best = (g, k);
                }
            }
        }
    }

    /// A side's regiments (gone ones too), in index order.
    #[inline]
    pub fn side(&self, side: Side) -> &[u16] {
        &self.sides[side.index()]
    }

    /// A side's regiments with a pike block (gone ones too), in index order.
    #[inline]
    pub fn pikes(&self, side: Side) -> &[u16] {
        &self.pikes[side.index()]
    }

    /// Whether no element of regiment `a` can be within `within` of one of regiment `b`'s, as
    /// `gap` measures: their centres are further apart than both reaches and `within` (with a
    /// margin for rounding, so that only pairs certainly apart are ruled out).
    #[inline]
    pub fn apart(&self, a: usize, b: usize, within: f64) -> bool {
        let (x, y) = (&self.regiments[a], &self.regiments[b]);
        let bound = x.reach + y.reach + within + APART_MARGIN;
        let (dx, dy) = (x.pos.x - y.pos.x, x.pos.y - y.pos.y);
        dx * dx + dy * dy > bound * bound
    }

    /// How far a regiment's elements reach from its centre, as `gap` measures (offset plus half
    /// depth): fixed from the set-up.
    #[inline]
    pub fn reach(&self, r: usize) -> f64 {
        self.regiments[r].reach
    }

    /// The kind of ground at `p`, as `Ground::area_at` answers (`ground` the set-up's): only
    /// the areas whose box holds the point are asked.
    pub fn area_at(&self, p: Vec2, ground: &Ground) -> Option<AreaKind> {
        let at = Bounds { lo: p, hi: p };
        ground
            .areas
            .iter()
            .zip(&self.area_box)
            .find(|(a, b)| !at.clear_of(b) && a.contains(p))
            .map(|(a, _)| a.kind)
    }

    /// Whether an enemy horse element is within `within` of an element of regiment `r`, as `gap`
    /// measures.
    pub fn enemy_horse_within(&self, r: usize, within: f64) -> bool {
        self.enemy_within(r, within, |_, e| e.troop.is_cavalry())
    }

    /// Whether an enemy element `ok` accepts (of a regiment not gone) is within `within` of an
    /// element of regiment `r`, as `gap` measures: `nearest_enemy`'s answer is within it
    /// exactly when some element's gap is, so only the grid's cells within both reaches and
    /// `within` of its centre are looked at, the walk stops at the first found, and whole
    /// regiments are ruled out by their centres (`apart`).
    pub fn enemy_within(
        &self,
        r: usize,
        within: f64,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> bool {
        let (lo, hi) = self.reach_box(r, within);
        self.any_in_box(self.regiments[r].side.other(), lo, hi, |o| {
            let reg = &self.regiments[o];
            !reg.gone
                && !self.apart(r, o, within)
                && self.element_range(o).any(|k| {
                    ok(reg, &self.elements[k])
                        && self.element_range(r).any(|e| self.gap(e, k) <= within)
                })
        })
    }

    /// Calls `f` with the regiments of `side` whose centres lie in the box `lo`..`hi` until it
    /// returns true; whether it did, in no set order. A side of fewer than `GRID_FROM`
    /// regiments is swept (the centres in the box's width, `Sweep::within`), each tested
    /// against the box; a larger one is asked of the grid's cells the box touches, which may
    /// give some outside it too (every caller tests its own bound).
    pub fn any_in_box(
        &self,
        side: Side,
        lo: Vec2,
        hi: Vec2,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        if self.side(side).len() >= self.grid_from || !self.swept(side) {
            return self.grid.any_in_box(side, lo, hi, f);
        }
        let (ids, centres) = (self.side(side), &self.centres[side.index()]);
        self.sweep.within(side, lo.x, hi.x).any(|s| {
            let y = centres[s].pos.y;
            y >= lo.y && y <= hi.y && f(usize::from(ids[s]))
        })
    }

    /// Whether `side` is kept in the sweep: a side too small for the grid (`GRID_FROM`; moving
    /// a regiment of a large side along it would cost time for nothing).
    #[inline]
    fn swept(&self, side: Side) -> bool {
        self.side(side).len() < GRID_FROM
    }

    /// A side's regiments in index order, each with its centre and reach (`Centre`).
    #[inline]
    fn centres(&self, side: Side) -> impl Iterator<Item = (usize, &Centre)> {
        let ids = self.side(side).iter().map(|&o| usize::from(o));
        ids.zip(&self.centres[side.index()])
    }

    /// The box round regiment `r`'s centre that holds the centre of every regiment not
    /// `apart` from it by `within`: a grid search of it misses none of them.
    pub fn reach_box(&self, r: usize, within: f64) -> (Vec2, Vec2) {
        let me = &self.regiments[r];
        let grow = Vec2::new(1.0, 1.0) * (me.reach + self.max_reach + within + APART_MARGIN);
        (me.pos - grow, me.pos + grow)
    }

    /// Degrees between a facing and the direction from `from` to `to`.
    pub fn bearing(facing: f64, from: Vec2, to: Vec2) -> f64 {
        angle_diff((to - from).facing(), facing).to_degrees()
    }

    /// The aspect of an attack on regiment `r` from `to` as seen from `from`:
    /// `aspect(bearing(facing, from, to))`, told by dot products with its front vector against
    /// the arcs' cosines; only a bearing within a hair of an arc's edge is measured.
    pub fn aspect_from(&self, r: usize, from: Vec2, to: Vec2) -> Aspect {
        let reg = &self.regiments[r];
        let within = |cos| within_arc_by_cosine(reg.front, from, to, cos);
        match within(self.aspect_cos.0) {
            Some(true) => return Aspect::Front,
            Some(false) => match within(self.aspect_cos.1) {
                Some(true) => return Aspect::Flank,
                Some(false) => return Aspect::Rear,
                None => {}
            },
            None => {}
        }
        aspect(Self::bearing(reg.facing, from, to), &self.rules)
    }

    /// The stream of a regiment's own dice.
    pub fn regiment_stream(r: usize) -> u32 {
        1 + r as u32
    }

    /// The stream of a brigade's orders.
    pub fn brigade_stream(&self, b: usize) -> u32 {
        1 + self.regiments.len() as u32 + b as u32
    }

    /// Whether regiment `r` has a pike block.
    pub fn has_pike(&self, r: usize) -> bool {
        self.element_range(r)
            .any(|e| self.elements[e].troop == Troop::Pike)
    }

    /// Tells each of `side`'s brigades that count whose break changed since it was last told,
    /// with the army's count as it then stands; the side's (brigades present, broken).
    fn tell_brigades<O: Observer>(
        &mut self,
        side: Side,
        setup: &BattleSetup,
        obs: &mut O,
    ) -> (u32, u32) {
        let counting = |b: &Brigade| b.side == side && b.counts && b.present;
        let n = self.brigades.iter().filter(|b| counting(b)).count() as u32;
        let mut told = self
            .brigades
            .iter()
            .filter(|b| counting(b) && b.told)
            .count() as u32;
        for (c, b) in self.brigades.iter_mut().enumerate() {
            if !counting(b) || b.broken == b.told {
                continue;
            }
            b.told = b.broken;
            told = if b.broken { told + 1 } else { told - 1 };
            let (of, out) = self.brigade_counts[c];
            let unit = setup.commands[c].units.first().copied().unwrap_or_default();
            let detail = Detail::BrigadeBroken {
                unit,
                command: c as u16,
                broken: b.broken,
                out: out.min(255) as u8,
                of: of.min(255) as u8,
                army_out: told.min(255) as u8,
                army_of: n.min(255) as u8,
            };
            emit(obs, Event::BlackPowder(detail));
        }
        (n, told)
    }

    /// Updates which brigades are broken (half or more units broken, shaken or gone) and which
    /// are on the table; regiments still to arrive count for neither.
    pub fn update_brigades(&mut self) {
        let counts = &mut self.brigade_counts;
        counts.clear();
        counts.resize(self.brigades.len(), (0, 0));
        for r in self.regiments.iter().filter(|r| !r.waiting) {
            if let Some(c) = counts.get_mut(usize::from(r.brigade)) {
                c.0 += 1;
                c.1 += u32::from(r.gone || r.shaken);
            }
        }
        for (brigade, &(n, out)) in self.brigades.iter_mut().zip(counts.iter()) {
            brigade.present = n > 0;
            brigade.broken = super::morale::brigade_broken(n, out, &self.rules);
        }
    }

    /// Ends the battle if an army is broken; true when it ended.
    fn check_armies<O: Observer>(&mut self, setup: &BattleSetup, obs: &mut O) -> bool {
        let mut broken = [false; 2];
        for side in Side::BOTH {
            let (n, out) = self.tell_brigades(side, setup, obs);
            broken[side.index()] = super::morale::army_broken(n, out, &self.rules);
        }
        for side in Side::BOTH {
            if broken[side.index()] {
                emit(
                    obs,
                    Event::ArmyBroken {
                        side,
                        lost: self.lost(side),
                        start: self.stamina_start[side.index()],
                    },
                );
            }
        }
        self.outcome = match broken {
            [true, true] => Some(Outcome::Draw),
            [true, false] => Some(Outcome::Won(Side::Royalist)),
            [false, true] => Some(Outcome::Won(Side::Parliament)),
            [false, false] => None,
        };
        self.outcome.is_some()
    }
}

/// Every regiment, element, general and brigade of the set-up, derived once.
fn derive_template(
    rules: &BlackPowderRules,
    setup: &BattleSetup,
) -> (Vec<Regiment>, Vec<Element>, Vec<General>, Vec<Brigade>) {
    let mut elements = Vec::new();
    let mut regiments: Vec<Regiment> = setup
        .units
        .iter()
        .map(|u| derive_regiment(u, rules, &mut elements))
        .collect();
    for u in setup.rearmost_reserves() {
        regiments[usize::from(u)].reserve = true;
    }
    let generals = setup
        .commanders
        .iter()
        .map(|c| General {
            side: c.side,
            pos: c.pos,
            lost: false,
            back_on: 0,
            joined: None,
            rating: c.staff_rating.unwrap_or(rules.command.default_rating),
        })
        .collect();
    let brigades = setup
        .commands
        .iter()
        .map(|c| Brigade {
            side: c.side,
            commander: c.commander,
            counts: counts_towards_break(c.kind),
            broken: false,
            told: false,
            present: !c.units.is_empty(),
            doctrine: c.doctrine,
        })
        .collect();
    (regiments, elements, generals, brigades)
}

/// A unit's regiment, its elements (pushed onto `elements`, standing at their offsets from
/// the start) spread across its frontage.
fn derive_regiment(u: &Unit, rules: &BlackPowderRules, elements: &mut Vec<Element>) -> Regiment {
    let d = units::derive(u, rules);
    let troops = units::elements_of(u.kind);
    let first = elements.len() as u16;
    let (frontage, each) = match troops.len() {
        1 if u.kind.is_gun() => (rules.derive.gun_frontage, rules.derive.gun_frontage),
        1 => (rules.derive.horse_frontage, rules.derive.horse_frontage),
        n => (
            rules.derive.regiment_frontage,
            rules.derive.regiment_frontage / n as f64,
        ),
    };
    let front = Vec2::from_facing(u.facing);
    let right = front.right();
    let mut standard_move = f64::INFINITY;
    let mut reach = 0.0f64;
    for (k, &t) in troops.iter().enumerate() {
        let offset = (k as f64 + 0.5) * each - frontage / 2.0;
        reach = reach.max(offset.abs() + rules.derive.element_depth / 2.0);
        standard_move = standard_move.min(units::standard_move(t, d.quality, rules));
        elements.push(Element {
            regiment: u.id,
            troop: t,
            offset,
            frontage: each,
            depth: rules.derive.element_depth,
            pos: u.pos + right * offset,
        });
    }
    Regiment {
        unit: u.id,
        side: u.side,
        brigade: u.command,
        pos: u.pos,
        facing: u.facing,
        front,
        stamina: d.stamina,
        casualties: 0,
        quality: d.quality,
        specials: d.specials,
        first,
        count: troops.len() as u8,
        shaken: false,
        disordered: false,
        hedgehog: false,
        hedgehog_tested: false,
        disarray: false,
        gone: false,
        waiting: false,
        must_test: false,
        tests_taken: 0,
        volleyed: false,
        engaged: None,
        charged: false,
        rounds: 0,
        won_last: false,
        joined: None,
        reserve: false,
        standard_move,
        reach,
        radius: Shape::radius_of(each * troops.len() as f64, rules.derive.element_depth),
    }
}

/// Whether a command of this kind is a brigade its army's break counts (guns and independents
/// are not).
fn counts_towards_break(kind: CommandKind) -> bool {
    matches!(
        kind,
        CommandKind::Horse | CommandKind::Foot | CommandKind::Brigade
    )
}

#[cfg(test)]
mod tests {
    use super::orders::tests::{marston_moor, scattered};
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    /// A regiment's front is always its facing's unit vector to the bit, however it was
    /// placed: turned, moved on the same facing, or turned back to a facing it had before.
    #[test]
    fn the_front_kept_is_the_facings() {
        let mut b = marston_moor();
        let mut rnd = crate::dice::test_uniforms(0xf0_ac1e);
        let facings = [0.0, -0.0, 0.7, -2.5, std::f64::consts::PI, 1e-300];
        let (mut kept, mut turned) = (0, 0);
        for _ in 0..5_000 {
            let r = (rnd() * b.regiments.len() as f64) as usize;
            let facing = if rnd() < 0.5 {
                b.regiments[r].facing
            } else {
                facings[(rnd() * facings.len() as f64) as usize]
            };
            let same = facing.to_bits() == b.regiments[r].facing.to_bits();
            (kept, turned) = (kept + usize::from(same), turned + usize::from(!same));
            b.place(r, Vec2::new(rnd() * 60.0, rnd() * 40.0), facing);
            let reg = &b.regiments[r];
            let want = Vec2::from_facing(reg.facing);
            assert_eq!(
                (reg.front.x.to_bits(), reg.front.y.to_bits()),
                (want.x.to_bits(), want.y.to_bits())
            );
        }
        assert!(
            kept > 1_000 && turned > 1_000,
            "kept {kept}, turned {turned}"
        );
    }

    /// The aspect told by dot products is the angle test's, on and about the arcs' edges.
    #[test]
    fn the_aspect_agrees_with_the_bearing_everywhere() {
        let mut b = marston_moor();
        let from = Vec2::new(10.0, 20.0);
        let mut seen = [0usize; 3];
        for facing in [0.0, 0.7, -2.5, 3.1, std::f64::consts::PI] {
            b.place(0, from, facing);
            for edge in [-135.0f64, -45.0, 0.0, 45.0, 135.0, 180.0] {
                for nudge in [-1e-3, -1e-8, -1e-12, 0.0, 1e-12, 1e-8, 1e-3] {
                    for dist in [0.0, 1e-12, 5.0, 100.0] {
                        let to =
                            from + Vec2::from_facing(facing + (edge + nudge).to_radians()) * dist;
                        let want = aspect(Battle::bearing(facing, from, to), &b.rules);
                        assert_eq!(
                            b.aspect_from(0, from, to),
                            want,
                            "{facing} {edge} {nudge} {dist}"
                        );
                        seen[want as usize] += 1;
                    }
                }
            }
        }
        // Every aspect occurs (the sweep crosses both edges).
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }

    /// `nearest_enemy` with no bound: every enemy element `ok` accepts, in index order, a
    /// nearer one replacing the one found.
    fn nearest_in_full(
        b: &Battle,
        r: usize,
        ok: impl Fn(&Regiment, &Element) -> bool,
    ) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for o in (0..b.regiments.len()).filter(|&o| b.regiments[o].side != b.regiments[r].side) {
            let reg = &b.regiments[o];
            for k in b
                .element_range(o)
                .filter(|&k| !reg.gone && ok(reg, &b.elements[k]))
            {
                for e in b.element_range(r) {
                    let g = b.gap(e, k);
                    if best.is_none_or(|(_, x)| g < x) {
                        best = Some((k, g));
                    }
                }
            }
        }
        best
    }

    /// The bounded walk finds the nearest enemy the full scan finds, to the bit and with the
    /// same element among equals, over random layouts (crowded and sparse, so near and far
    /// answers and no answer at all occur); enemy horse is found within a gap exactly when the
    /// nearest is.
    #[test]
    fn the_nearest_enemy_is_the_one_the_full_scan_finds() {
        let mut b = marston_moor();
        let mut scatter = scattered(0x9e1d);
        let (mut answers, mut none, mut far, mut horse_near) = (0, 0, 0, 0);
        let mut tied = 0;
        for trial in 0..300 {
            scatter(&mut b);
            if trial % 4 == 0 {
                snap_to_lattice(&mut b);
            }
            for r in 0..b.regiments.len() {
                let free = |reg: &Regiment, _: &Element| reg.engaged.is_none();
                let horse = |_: &Regiment, e: &Element| e.troop.is_cavalry();
                let odd = |reg: &Regiment, _: &Element| {
                    (usize::from(reg.unit) + trial).is_multiple_of(23)
                };
                // Hints: the answer's regiment, an enemy regiment at random (gone ones too), the
                // regiment of the last element as near as the answer.
                let enemies = b.side(b.regiments[r].side.other());
                let last_tied = last_as_near(&b, r);
                let hints = [
                    nearest_in_full(&b, r, free).map(|(k, _)| usize::from(b.elements[k].regiment)),
                    Some(usize::from(enemies[(trial * 7 + r) % enemies.len()])),
                    last_tied,
                ];
                tied += usize::from(last_tied.is_some());
                for (got, want) in [
                    (b.nearest_enemy(r, free), nearest_in_full(&b, r, free)),
                    (b.nearest_enemy(r, horse), nearest_in_full(&b, r, horse)),
                    (b.nearest_enemy(r, odd), nearest_in_full(&b, r, odd)),
                    (
                        b.nearest_enemy_from(r, hints[0], free),
                        nearest_in_full(&b, r, free),
                    ),
                    (
                        b.nearest_enemy_from(r, hints[1], free),
                        nearest_in_full(&b, r, free),
                    ),
                    (
                        b.nearest_enemy_from(r, hints[1], odd),
                        nearest_in_full(&b, r, odd),
                    ),
                    (
                        b.nearest_enemy_from(r, hints[2], free),
                        nearest_in_full(&b, r, free),
                    ),
                    // Larger sides are searched by the grid's rings, from no bound and from the
                    // bound a hint at the nearest regiment gives.
                    (
                        b.nearest_in_rings(r, f64::INFINITY, free),
                        nearest_in_full(&b, r, free),
                    ),
                    (
                        b.nearest_in_rings(r, f64::INFINITY, horse),
                        nearest_in_full(&b, r, horse),
                    ),
                    (
                        b.nearest_in_rings(r, f64::INFINITY, odd),
                        nearest_in_full(&b, r, odd),
                    ),
                    (
                        b.nearest_in_rings(r, hinted(&b, r, free), free),
                        nearest_in_full(&b, r, free),
                    ),
                ] {
                    assert_eq!(got.map(|(k, _)| k), want.map(|(k, _)| k), "{trial} {r}");
                    assert_eq!(
                        got.map(|(_, g)| g.to_bits()),
                        want.map(|(_, g)| g.to_bits())
                    );
                    answers += 1;
                    none += usize::from(want.is_none());
                    far += usize::from(want.is_some_and(|(_, g)| g > 20.0));
                }
                let near = nearest_in_full(&b, r, free).map(|(_, g)| g);
                let horse = nearest_in_full(&b, r, |_, e| e.troop.is_cavalry());
                // The box's search by the sweep, and by the grid.
                for grid_from in [usize::MAX, 0] {
                    b.grid_from = grid_from;
                    let within = (trial % 17) as f64;
                    // The search from a limit: the full scan's answer when it is within it
                    // (with the margin every start allows), none when it is beyond.
                    let (got, want) = (
                        b.nearest_enemy_within(r, within, free),
                        nearest_in_full(&b, r, free).filter(|&(_, g)| g < within + APART_MARGIN),
                    );
                    assert_eq!(
                        got.map(|(k, g)| (k, g.to_bits())),
                        want.map(|(k, g)| (k, g.to_bits()))
                    );
                    assert_eq!(
                        b.enemy_within(r, within, free),
                        near.is_some_and(|g| g <= within)
                    );
                    for within in [0.0, 0.5, 8.0, (trial % 13) as f64] {
                        let want = horse.is_some_and(|(_, g)| g <= within);
                        assert_eq!(
                            b.enemy_horse_within(r, within),
                            want,
                            "{trial} {r} {within}"
                        );
                        horse_near += usize::from(want);
                    }
                }
                b.grid_from = GRID_FROM;
            }
        }
        assert!(
            none > 100 && far > 100 && answers > 100_000 && horse_near > 1000 && tied > 100,
            "{none} {far} {answers} {horse_near} {tied}"
        );
    }

    /// The bound `nearest_enemy_from` starts from when hinted at the nearest regiment.
    fn hinted(b: &Battle, r: usize, ok: impl Fn(&Regiment, &Element) -> bool) -> f64 {
        nearest_in_full(b, r, ok).map_or(f64::INFINITY, |(_, g)| g + APART_MARGIN)
    }

    /// Every regiment moved to the nearest point of a 3" lattice, facing along an axis: many
    /// enemy elements then stand at equal gaps.
    fn snap_to_lattice(b: &mut Battle) {
        for r in 0..b.regiments.len() {
            let reg = b.regiments[r];
            let pos = Vec2::new(
                (reg.pos.x / 3.0).round() * 3.0,
                (reg.pos.y / 3.0).round() * 3.0,
            );
            let facing = (reg.facing / FRAC_PI_2).round() * FRAC_PI_2;
            b.place(r, pos, facing);
        }
    }

    /// The regiment of the last enemy element (by index) at the same least gap from regiment
    /// `r` as the nearest, when it is not the nearest's (the tie-break decides the answer).
    fn last_as_near(b: &Battle, r: usize) -> Option<usize> {
        let (k, g) = nearest_in_full(b, r, |reg, _| reg.engaged.is_none())?;
        let enemies = b
            .side(b.regiments[r].side.other())
            .iter()
            .map(|&o| usize::from(o));
        let as_near = |j: usize| b.element_range(r).any(|e| b.gap(e, j) == g);
        enemies
            .filter(|&o| !b.regiments[o].gone && b.regiments[o].engaged.is_none())
            .rfind(|&o| b.element_range(o).any(as_near))
            .filter(|&o| !b.element_range(o).contains(&k))
    }

    /// The areas' boxes rule out only areas that do not hold the point: over random points of
    /// Marston Moor's table and off it, and every area's corners nudged each way, `area_at`
    /// answers as `Ground::area_at`.
    #[test]
    fn the_ground_by_boxes_answers_as_every_area() {
        let setup = crate::scenario::Scenario::load_builtin("marston_moor", &[])
            .and_then(|s| s.setup())
            .expect("built-in scenario");
        let (b, ground) = (marston_moor(), &setup.ground);
        let mut next = crate::dice::test_uniforms(0x9e37_79b9_7f4a_7c15u64);
        let mut points: Vec<Vec2> = (0..20_000)
            .map(|_| Vec2::new(next() * 90.0 - 9.0, next() * 66.0 - 9.0))
            .collect();
        for p in ground.areas.iter().flat_map(|a| &a.points) {
            for d in [-1e-3, -1e-9, 0.0, 1e-9, 1e-3] {
                points.extend([Vec2::new(p.x + d, p.y), Vec2::new(p.x, p.y + d)]);
            }
        }
        let mut kinds = std::collections::HashSet::new();
        for p in points {
            let want = ground.area_at(p);
            assert_eq!(b.area_at(p, ground), want, "{p:?}");
            kinds.insert(want);
        }
        // Open ground and every kind of area on the table occur.
        assert_eq!(kinds.len(), 5, "{kinds:?}");
    }
}

//! The Dickenson move sequence: whole seeded battles over a scenario's [`BattleSetup`].
//!
//! Both sides act in every move (ruling), in phases: generals placed and routing units rallied;
//! charges declared with the formation rules' throws, and movement with closing fire; fire
//! (volleys, pistols, guns by their rate); impetus and two melee rounds; morale for every unit
//! in melee or that lost figures; reloading. The battle ends when an army's morale points fall
//! below the break share of its start, or at the move limit (a draw).
//!
//! A [`Battle`] is allocated once per thread and reused: `reset` copies the derived template
//! into the buffers it already has, so a battle allocates nothing.

#[macro_use]
mod neighbours;
mod arrivals;
mod fire;
mod ground;
mod horse_doctrine;
mod lanes;
mod melee;
mod morale_phase;
mod movement;
mod orders;
pub mod regiment;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

pub use lanes::Held;
pub use regiment::{Engaged, Kind, Loss, Regiment, State};

use super::events;
use super::tables::DickensonRules;
use crate::army::{CommanderId, Side};
use crate::arrivals::Arriving;
use crate::battlefield::Vec2;
use crate::battlefield::geometry::{Shape, angle_diff};
use crate::dice::{DiceSource, StreamDice};
use crate::events::{Event, Observer, Outcome};
use crate::rules::black_powder::battle::doctrine;
use crate::rules::{BattleSummary, Ruleset};
use crate::setup::BattleSetup;

/// Streams of the battle's seed: the roll-off, then one per regiment, then one per general.
pub mod streams {
    pub const BATTLE: u64 = 32;
    pub const COMMON: u32 = 0;
}

/// Dickenson's rules with the scenario's doctrines.
#[derive(Debug, Clone)]
pub struct Dickenson {
    pub rules: Arc<DickensonRules>,
}

impl Dickenson {
    pub fn new(rules: DickensonRules) -> Self {
        Dickenson {
            rules: Arc::new(rules),
        }
    }
    /// With the built-in ruleset file.
    pub fn builtin() -> Self {
        Self::new(DickensonRules::builtin())
    }
    /// The values a battle of `setup` reads: the scenario's `[dickenson_rules]` laid over the
    /// built-in file when it has them, else this ruleset's own.
    pub fn rules_for(&self, setup: &BattleSetup) -> Arc<DickensonRules> {
        let changed = setup.ruleset_changes.dickenson.as_ref();
        changed.unwrap_or(&self.rules).clone()
    }
}

impl Dickenson {
    /// What a general's casualty does, for the statistics: killed or wounded takes him out of
    /// the battle; unhorsed, out for the ruling's moves.
    fn commander_effects(&self, rules: &DickensonRules) -> crate::stats::CommanderEffects {
        use crate::events::GeneralResult as G;
        let mut fx = crate::stats::CommanderEffects::default();
        let index = crate::stats::general_result_index;
        fx.0[index(G::HorribleDeath)] = (true, 0);
        fx.0[index(G::GravelyWounded)] = (true, 0);
        fx.0[index(G::HorseFalls)] = (false, rules.battle.unhorsed_moves);
        fx
    }
}

impl Ruleset for Dickenson {
    type Battle = Battle;

    fn name(&self) -> &'static str {
        "dickenson"
    }

    fn currency(&self) -> &'static str {
        "figures"
    }

    fn builtin_text(&self) -> &'static str {
        super::tables::BUILTIN
    }

    fn turn_limit(&self, setup: &BattleSetup) -> u16 {
        self.rules_for(setup).turn_limit(setup)
    }

    /// By its morale points: below the break share of its start.
    fn army_break(&self, setup: &BattleSetup) -> String {
        let share = (self.rules_for(setup).army.break_share * 100.0).round();
        format!("an army breaks when its morale points fall below {share}% of its start")
    }

    fn army_break_key(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "dickenson_rules.army.break_share",
            "the share of its morale points left below which an army breaks",
        ))
    }

    /// Figures stand for CV: the `figures` measures count figures lost (rank and file; a
    /// gun's gunners); Dickenson's own measures besides ([`super::statistics`]).
    fn layout(&self, setup: &BattleSetup) -> crate::stats::Layout {
        let mut l = crate::stats::Layout::of(setup);
        l.currency = self.currency().into();
        let mut max = 0;
        let rules = self.rules_for(setup);
        for (info, u) in l.units.iter_mut().zip(&setup.units) {
            info.start_cv = Regiment::derive(u, &rules).figures_u8();
            info.randomised = false;
            max = max.max(info.start_cv);
        }
        l.cv_max = max;
        l.commander_effects = self.commander_effects(&rules);
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

    fn unit_lost(&self, battle: &Battle, unit: crate::army::UnitId) -> Option<u32> {
        (usize::from(unit) < battle.regiments.len())
            .then(|| battle.regiment_lost(usize::from(unit)))
    }

    fn deploy(&self, battle: &mut Battle, _: &BattleSetup, _: u64) {
        battle.reset();
    }

    /// Each regiment where it stands in the footprint of its formation, its CV the figures it
    /// has left; gone regiments off.
    fn units(&self, battle: &Battle, setup: &BattleSetup) -> Vec<crate::army::Unit> {
        let mut units = setup.units.clone();
        for (u, r) in units.iter_mut().zip(&battle.regiments) {
            u.pos = r.pos;
            u.facing = r.facing;
            (u.frontage, u.depth) = (r.frontage, r.depth);
            u.start_cv = r.start_figures.min(u16::from(u8::MAX)) as u8;
            u.cv = r.figures_u8().min(u.start_cv);
            if r.state == State::Gone {
                u.status = crate::army::UnitStatus::OffTable;
            }
        }
        units
    }

    fn dice_streams(&self, battle: &Battle, _: &BattleSetup) -> Option<(u64, usize)> {
        Some((streams::BATTLE, battle.dice_streams()))
    }
}

/// A general riding with one of his command's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct General {
    pub side: Side,
    pub command: Option<u16>,
    pub pos: Vec2,
    /// Killed or wounded: out of the battle.
    pub lost: bool,
    /// Unhorsed: back on this move.
    pub back_on: u16,
    pub with: Option<u16>,
}

/// The state of one battle in progress.
#[derive(Debug, Clone)]
pub struct Battle {
    pub rules: Arc<DickensonRules>,
    pub regiments: Vec<Regiment>,
    pub generals: Vec<General>,
    /// The doctrine of each command.
    pub doctrine_of: Vec<u16>,
    pub turn: u16,
    pub turn_limit: u16,
    /// The turn limit of every battle of this set-up: the scenario's, else the ruleset's.
    scenario_turn_limit: u16,
    pub outcome: Option<Outcome>,
    /// Each side's morale points at the start.
    pub points_start: [u32; 2],
    /// Table width and depth.
    pub table: (f64, f64),
    /// The side that acts first in each phase (the roll-off).
    pub first: Side,
    /// The hills of the ground (for the enemy-downhill add).
    pub hills: Vec<crate::battlefield::Area>,
    /// The ground every move crosses (the set-up's, kept for the moves of the morale phase).
    pub ground: crate::battlefield::Ground,
    /// The box of each area of `ground`, for the footprints that meet it (`ground::meets`).
    pub area_bounds: Vec<crate::battlefield::geometry::Bounds>,
    /// The box of each obstacle of `ground`, for the moves that may meet it (`ground::Near`).
    pub obstacle_bounds: Vec<crate::battlefield::geometry::Bounds>,
    /// Gaps hacked in hedges this battle (seed: the hedge "is then removed").
    pub gaps: Vec<movement::Gap>,
    template: (Vec<Regiment>, Vec<General>),
    dice: StreamDice,
    /// The battle's seed (late arrivals' dice come from their own streams of it).
    seed: u64,
    /// When the late arrivals come on and which commands are held in reserve.
    schedule: crate::arrivals::Schedule,
    /// Melee pairs of the phase (reused buffer).
    pairs: Vec<(u16, u16)>,
    /// Figures each side lost in each melee of the move, by the melee's name
    /// (`Regiment::melee`): summed once the melees are joined, as every regiment that fought
    /// asks its melee's at each morale throw.
    melee_sums: Vec<[u32; 2]>,
    /// Each regiment's facing and its unit vector as last worked out: footprints are asked
    /// for every regiment at each step of every path, and their sines and cosines were a
    /// third of a battle.
    fronts: Vec<Cell<(f64, Vec2)>>,
    /// The cosines of the last two arcs asked of `in_arc` (degrees, cosine), so that an arc
    /// test needs no trigonometry.
    arc_cos: [Cell<(f64, f64)>; 2],
    /// The regiments near a run and their footprints (a buffer the runs reuse).
    near: RefCell<Vec<movement::Near>>,
    /// Whether the table stands still (`table_still`), and while it does each regiment's
    /// nearest active enemy once found (`nearest_active`).
    still: Cell<bool>,
    kept: Vec<Cell<Option<Nearest>>>,
    /// The widest gap kept since the table stood still: no enemy farther than it (and both
    /// footprints) from a regiment can have kept it as its nearest, or be nearer to it.
    kept_reach: Cell<f64>,
    /// While the orders' formation changes are made (nobody moves, no horse changes gait or
    /// state): the farthest each side's horse free to charge reach next move
    /// (`movement::Battle::horse_reach_now`), the bound of the searches for horse threatening
    /// foot; otherwise None (the farthest any horse may reach).
    dressing_reach: Option<[f64; 2]>,
    /// While the orders are made at once (`movement::Battle::declare`; nobody moves or
    /// changes formation until every order is made), the charge each regiment's order weighed
    /// and on whom: a friend weighing a charge on the same enemy after it asks it again
    /// (`friends_charging_stop`). Empty otherwise.
    weighing: Cell<bool>,
    weighed: Vec<Cell<Option<(u16, movement::ChargePath)>>>,
    /// Each regiment's nearest active enemy as last found, kept all battle: where the next
    /// search starts (`nearest_active`), since the armies move a few inches a move.
    last_active: Vec<Cell<Option<u16>>>,
    /// Each regiment's last question to `over_ground`, and its answer.
    ground_asked: Vec<Cell<Option<movement::GroundKept>>>,
    /// Each regiment's advances cut short by a friend this battle, and how it went round.
    pub held: Vec<Held>,
    /// Each regiment's order for this move, made before anyone moves when both sides declare
    /// at once (`battle.charges_declared_at_once`); taken as it is carried out.
    orders: orders::Orders,
    /// Each side's regiments by cell of the table, for the searches near a regiment.
    neighbours: neighbours::Neighbours,
    /// Each command's regiments in index order (a general looks over his own only).
    members: Vec<Vec<u16>>,
}

pub(crate) use crate::events::emit;

/// A nearest enemy found, if any: (regiment, gap).
type Nearest = Option<(usize, f64)>;

/// The box of each area of the ground (an area without points has an empty box far off).
fn area_bounds(ground: &crate::battlefield::Ground) -> Vec<crate::battlefield::geometry::Bounds> {
    let far = Vec2::new(f64::INFINITY, f64::INFINITY);
    ground
        .areas
        .iter()
        .map(|a| {
            crate::battlefield::geometry::Bounds::of_polygon(&a.points).map_or(
                crate::battlefield::geometry::Bounds { lo: far, hi: far },
                |(b, _)| b,
            )
        })
        .collect()
}

impl Battle {
    /// A battle for this set-up: every regiment derived once.
    pub fn new(rules: Arc<DickensonRules>, setup: &BattleSetup) -> Battle {
        let template = derive_template(&rules, setup);
        // Room for every regiment in melee with as many enemies as it may meet: a battle's
        // pairs never grow the buffer, however many melees it fights at once.
        let pairs_room = template.0.len() * Engaged::CAPACITY;
        let on_side = |s: Side| template.0.iter().filter(|r| r.side == s).count();
        let neighbours = neighbours::Neighbours::new(
            (setup.ground.width, setup.ground.depth),
            template.0.len(),
            on_side(Side::Parliament).max(on_side(Side::Royalist)),
            &rules,
        );
        let scenario_turn_limit = rules.turn_limit(setup);
        let mut members = vec![Vec::new(); setup.commands.len()];
        for (r, reg) in template.0.iter().enumerate() {
            if let Some(m) = members.get_mut(usize::from(reg.command)) {
                m.push(r as u16);
            }
        }
        let mut b = Battle {
            rules,
            regiments: Vec::new(),
            generals: Vec::new(),
            doctrine_of: setup.commands.iter().map(|c| c.doctrine).collect(),
            turn: 0,
            turn_limit: 0,
            scenario_turn_limit,
            outcome: None,
            points_start: [0; 2],
            table: (setup.ground.width, setup.ground.depth),
            first: Side::Parliament,
            hills: setup
                .ground
                .areas
                .iter()
                .filter(|a| a.kind == crate::battlefield::AreaKind::Hill)
                .cloned()
                .collect(),
            ground: setup.ground.clone(),
            area_bounds: area_bounds(&setup.ground),
            obstacle_bounds: (setup.ground.obstacles.iter())
                .map(|o| crate::battlefield::geometry::Bounds::of_segment(o.a, o.b))
                .collect(),
            // Room for a gap a regiment a move, so that battles rarely need to grow it.
            gaps: Vec::with_capacity(template.0.len() * usize::from(setup.turn_limit.max(1))),
            template,
            dice: StreamDice::default(),
            seed: 0,
            schedule: crate::arrivals::Schedule::default(),
            pairs: Vec::with_capacity(pairs_room),
            melee_sums: Vec::new(),
            fronts: Vec::new(),
            arc_cos: [const { Cell::new((f64::NAN, f64::NAN)) }; 2],
            near: RefCell::new(Vec::new()),
            still: Cell::new(false),
            kept: Vec::new(),
            kept_reach: Cell::new(0.0),
            dressing_reach: None,
            weighing: Cell::new(false),
            weighed: Vec::new(),
            last_active: Vec::new(),
            ground_asked: Vec::new(),
            held: Vec::new(),
            orders: orders::Orders::default(),
            neighbours,
            members,
        };
        b.reset();
        b
    }

    /// Back to the start of the battle.
    pub fn reset(&mut self) {
        self.regiments.clone_from(&self.template.0);
        self.generals.clone_from(&self.template.1);
        self.turn = 0;
        self.turn_limit = self.scenario_turn_limit;
        self.outcome = None;
        self.pairs.clear();
        self.melee_sums.clear();
        self.melee_sums.resize(self.regiments.len(), [0; 2]);
        self.gaps.clear();
        self.fronts.clear();
        let unknown = Cell::new((f64::NAN, Vec2::new(0.0, 0.0)));
        self.fronts.resize(self.regiments.len(), unknown);
        self.kept.clear();
        self.kept.resize(self.regiments.len(), Cell::new(None));
        self.last_active.clear();
        self.last_active
            .resize(self.regiments.len(), Cell::new(None));
        self.ground_asked.clear();
        self.ground_asked
            .resize(self.regiments.len(), Cell::new(None));
        self.still.set(false);
        self.dressing_reach = None;
        self.weighing.set(false);
        self.weighed.clear();
        self.weighed.resize(self.regiments.len(), Cell::new(None));
        self.held.clear();
        self.held.resize(self.regiments.len(), Held::default());
        self.orders.reset(self.regiments.len());
        self.fill_neighbours();
        // Room for every other regiment near a run, so that runs never grow it.
        let near = self.near.get_mut();
        near.clear();
        near.reserve(self.regiments.len());
        self.points_start = [0; 2];
        for r in 0..self.regiments.len() {
            let p = self.points(r);
            self.points_start[self.regiments[r].side.index()] += p;
        }
    }

    /// Dice streams a battle draws from: the roll-off, each regiment, each general.
    pub fn dice_streams(&self) -> usize {
        1 + self.regiments.len() + self.generals.len()
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
        let (first, told) = self.rules.battle.first_mover.decide(dice);
        self.first = first;
        while self.outcome.is_none() && self.turn < self.turn_limit {
            self.turn += 1;
            crate::events::turn_started(obs, self.turn, first, told);
            self.arrivals_and_releases(setup, obs);
            self.one_move(setup, dice, obs);
            self.check_armies(obs);
        }
        let outcome = *self.outcome.get_or_insert(Outcome::Draw);
        self.tell_points_lost(obs);
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
            cv_lost: [
                self.figures_lost(Side::Parliament),
                self.figures_lost(Side::Royalist),
            ],
            cv_start: [
                self.figures_start(Side::Parliament),
                self.figures_start(Side::Royalist),
            ],
        }
    }

    /// Each regiment that took the field: the morale points it lost, for the statistics.
    fn tell_points_lost<O: Observer>(&self, obs: &mut O) {
        if !obs.listening() {
            return;
        }
        for (r, reg) in self.regiments.iter().enumerate() {
            if reg.waiting {
                continue;
            }
            let points = u32::from(reg.start_points).saturating_sub(self.points(r));
            emit(
                obs,
                Event::Dickenson(events::Detail::PointsLost {
                    unit: reg.unit,
                    points: points.min(u32::from(u16::MAX)) as u16,
                }),
            );
        }
    }

    /// One whole move of both sides, phase by phase.
    pub fn one_move<D: DiceSource, O: Observer>(
        &mut self,
        setup: &BattleSetup,
        dice: &mut D,
        obs: &mut O,
    ) {
        self.start_of_move(setup, dice, obs);
        self.movement_phase(setup, dice, obs);
        self.fire_phase(setup, dice, obs);
        self.melee_phase(dice, obs);
        self.morale_phase(dice, obs);
        self.reload_phase();
    }

    /// The sides in the order they act this move.
    pub fn sides(&self) -> [Side; 2] {
        [self.first, self.first.other()]
    }

    /// Calls `f` for every regiment of the side acting first, then of the other, each side in
    /// index order (the roll-off order of a phase).
    fn each_in_roll_off_order(&mut self, mut f: impl FnMut(&mut Self, usize)) {
        for side in self.sides() {
            for r in 0..self.regiments.len() {
                if self.regiments[r].side == side {
                    f(self, r);
                }
            }
        }
    }

    /// A regiment's morale points now (0 once gone).
    pub fn points(&self, r: usize) -> u32 {
        let reg = &self.regiments[r];
        if reg.state == State::Gone {
            0
        } else {
            reg.points(&self.rules)
        }
    }

    /// Figures a side has lost: casualties, and the whole of every gone regiment.
    pub fn figures_lost(&self, side: Side) -> u32 {
        (0..self.regiments.len())
            .filter(|&r| self.regiments[r].side == side)
            .map(|r| self.regiment_lost(r))
            .sum()
    }

    /// Figures regiment `r` has lost: its casualties, or all of it if gone.
    pub fn regiment_lost(&self, r: usize) -> u32 {
        let reg = &self.regiments[r];
        if reg.waiting {
            0
        } else if reg.state == State::Gone {
            u32::from(reg.start_figures)
        } else {
            u32::from(reg.start_figures - reg.figures())
        }
    }

    /// Each command's reserve joins its first line for good once the command has lost its
    /// doctrine's `commit_reserve_when_lost` share of its figures (`doctrine::losses_commit`):
    /// the share of its CV Ironsides reads, in Dickenson's currency, casualties and the whole
    /// of a regiment gone (regiments still to arrive count for neither). Its turn alone
    /// (`commit_reserve_turn`) may come after the battle is decided.
    pub(super) fn commit_reserves_on_losses(&mut self, setup: &BattleSetup) {
        for c in 0..self.members.len() {
            let Some(d) = self.command_doctrine(c, setup) else {
                continue;
            };
            let (mut lost, mut start) = (0, 0);
            for r in self.commanded(Some(c as u16)) {
                if !self.regiments[r].waiting {
                    lost += self.regiment_lost(r);
                    start += u32::from(self.regiments[r].start_figures);
                }
            }
            if doctrine::losses_commit(d, lost, start) {
                for i in 0..self.members[c].len() {
                    self.regiments[usize::from(self.members[c][i])].reserve = false;
                }
            }
        }
    }

    fn figures_start(&self, side: Side) -> u32 {
        self.regiments
            .iter()
            .filter(|r| r.side == side && !r.waiting)
            .map(|r| u32::from(r.start_figures))
            .sum()
    }

    /// A regiment's footprint.
    pub fn shape(&self, r: usize) -> Shape {
        let reg = &self.regiments[r];
        reg.shape_at(reg.pos, self.front(r))
    }

    /// The unit vector of regiment `r`'s facing, worked out again only when the facing
    /// changed (the same bits as `Vec2::from_facing`).
    pub fn front(&self, r: usize) -> Vec2 {
        let facing = self.regiments[r].facing;
        let (known, fwd) = self.fronts[r].get();
        if known.to_bits() == facing.to_bits() {
            return fwd;
        }
        let fwd = Vec2::from_facing(facing);
        self.fronts[r].set((facing, fwd));
        fwd
    }

    /// Nearest-edge gap between two regiments.
    pub fn gap(&self, a: usize, b: usize) -> f64 {
        self.shape(a).dist(&self.shape(b))
    }

    /// Degrees between a regiment's facing and the direction to a point.
    pub fn bearing(&self, r: usize, to: Vec2) -> f64 {
        let reg = &self.regiments[r];
        angle_diff((to - reg.pos).facing(), reg.facing)
            .to_degrees()
            .abs()
    }

    /// Whether the point `to` lies within `degrees` of regiment `r`'s facing: the same answer
    /// as `bearing(r, to) <= degrees`, to the bit. A dot product decides, unless the point is
    /// within rounding of the arc's edge: then the bearing is measured.
    pub fn in_arc(&self, r: usize, to: Vec2, degrees: f64) -> bool {
        let by_cosine = if (0.0..180.0).contains(&degrees) {
            let (front, from) = (self.front(r), self.regiments[r].pos);
            crate::battlefield::geometry::within_arc_by_cosine(
                front,
                from,
                to,
                self.arc_cos(degrees),
            )
        } else {
            None
        };
        by_cosine.unwrap_or_else(|| self.bearing(r, to) <= degrees)
    }

    /// The cosine of an arc of `degrees`, kept for the two arcs last asked.
    fn arc_cos(&self, degrees: f64) -> f64 {
        let slot = &self.arc_cos[usize::from(degrees.to_bits() & 1 == 1)];
        let (known, cos) = slot.get();
        if known.to_bits() == degrees.to_bits() {
            return cos;
        }
        let cos = degrees.to_radians().cos();
        slot.set((degrees, cos));
        cos
    }

    /// The nearest enemy on the table that `ok` accepts: (regiment, gap), the lowest index
    /// among equals. Searched outward from `r` (`outward!`), from the nearest active enemy
    /// last found for it (`nearest_enemy_from`).
    pub fn nearest_enemy(&self, r: usize, ok: impl Fn(&Regiment) -> bool) -> Option<(usize, f64)> {
        let hint = self.last_active[r].get().map(usize::from);
        self.nearest_enemy_from(r, hint, ok)
    }

    /// `nearest_enemy`, starting from enemy regiment `hint` (a likely nearest) when `ok`
    /// accepts it: its gap is measured first, so that the enclosing circles rule out nearly
    /// every other regiment at once. The same answer whatever the hint: the least (gap, index)
    /// of the regiments `ok` accepts, of which the hint is one.
    pub fn nearest_enemy_from(
        &self,
        r: usize,
        hint: Option<usize>,
        ok: impl Fn(&Regiment) -> bool,
    ) -> Option<(usize, f64)> {
        let me = self.shape(r);
        let side = self.regiments[r].side.other();
        let mut best = hint
            .filter(|&h| {
                let reg = &self.regiments[h];
                reg.side == side && reg.state != State::Gone && ok(reg)
            })
            .map(|h| (h, me.dist(&self.shape(h))));
        let reach = me.radius + self.neighbours.max_radius();
        outward!(
            self,
            side,
            me.centre,
            reach,
            best.map_or(f64::INFINITY, |(_, g)| g),
            |o: usize, reg: &Regiment| {
                if reg.state != State::Gone
                    && ok(reg)
                    && !neighbours::beaten_far(
                        (me.centre - reg.pos).len2(),
                        me.radius + reg.radius,
                        best,
                    )
                {
                    // No point of either is farther from its centre than its radius: a regiment
                    // whose bound cannot beat the best is passed by (its shape is never made).
                    let bound = me.centre.dist(reg.pos) - me.radius - reg.radius;
                    if !neighbours::beaten(bound, o, best) {
                        let g = me.dist(&self.shape(o));
                        if neighbours::nearer(g, o, best) {
                            best = Some((o, g));
                        }
                    }
                }
                best.map_or(f64::INFINITY, |(_, g)| g)
            }
        );
        best
    }

    /// `nearest_enemy(r, active)`, kept once found while the table stands still.
    pub fn nearest_active(&self, r: usize) -> Option<(usize, f64)> {
        if let Some(kept) = self.kept[r].get() {
            return kept;
        }
        let found = self.nearest_enemy(r, |o| o.state == State::Active);
        if let Some((o, _)) = found {
            self.last_active[r].set(Some(o as u16));
        }
        if self.still.get() {
            self.kept[r].set(Some(found));
            if let Some((_, gap)) = found {
                self.kept_reach.set(self.kept_reach.get().max(gap));
            }
        }
        found
    }

    /// Whether the table stands still from now (`on`: no regiment moves, changes formation or
    /// state until told otherwise), so that `nearest_active` may keep what it finds. Either
    /// way, what it kept is dropped.
    pub fn table_still(&self, on: bool) {
        self.still.set(on);
        self.kept_reach.set(0.0);
        for k in &self.kept {
            k.set(None);
        }
    }

    /// Regiment `r`, active, changed its footprint where it stands (its enclosing radius was
    /// `was`) while the table stands still: the nearest kept for it is dropped, and those kept
    /// for the enemies it was, or may now be, the nearest of. Every other kept nearest stands:
    /// only `r`'s gaps changed, and from those enemies its new footprint is, by the enclosing
    /// circles, farther than the nearest they kept. (An enemy that kept none would have found
    /// `r`.)
    pub(super) fn reshaped(&self, r: usize, was: f64) {
        if !self.still.get() {
            return;
        }
        self.kept[r].set(None);
        let me = &self.regiments[r];
        let far = self.kept_reach.get() + self.neighbours.max_radius() + me.radius.max(was);
        any_within!(
            self,
            me.side.other(),
            me.pos,
            far + neighbours::MARGIN,
            |e: usize, en: &Regiment| {
                if let Some(Some((t, gap))) = self.kept[e].get() {
                    let bound = me.pos.dist(en.pos) - me.radius - en.radius;
                    if t == r || bound <= gap + neighbours::MARGIN {
                        self.kept[e].set(None);
                    }
                }
                false
            }
        );
    }

    /// Whether the table stands still (`table_still`).
    pub fn is_still(&self) -> bool {
        self.still.get()
    }

    /// The stream of a regiment's own dice.
    pub fn regiment_stream(r: usize) -> u32 {
        1 + r as u32
    }

    /// The stream of a general's dice.
    pub fn general_stream(&self, g: usize) -> u32 {
        1 + self.regiments.len() as u32 + g as u32
    }

    /// Each side's morale points now.
    pub fn points_now(&self) -> [u32; 2] {
        let mut now = [0u32; 2];
        for r in 0..self.regiments.len() {
            now[self.regiments[r].side.index()] += self.points(r);
        }
        now
    }

    /// Ends the battle if an army's points fell below its break share.
    pub fn check_armies<O: Observer>(&mut self, obs: &mut O) {
        let now = self.points_now();
        let mut broken = [false; 2];
        for side in Side::BOTH {
            let i = side.index();
            broken[i] =
                f64::from(now[i]) < self.rules.army.break_share * f64::from(self.points_start[i]);
            if broken[i] {
                emit(
                    obs,
                    Event::ArmyBroken {
                        side,
                        lost: self.points_start[i] - now[i].min(self.points_start[i]),
                        start: self.points_start[i],
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
    }

    /// The regiments of command `c` in index order; every regiment without one (the
    /// Captain-General's) or for a command the set-up does not list.
    pub fn commanded(&self, c: Option<u16>) -> impl Iterator<Item = usize> + '_ {
        let list = c.and_then(|c| self.members.get(usize::from(c)));
        let n = list.map_or(self.regiments.len(), Vec::len);
        (0..n).map(move |i| list.map_or(i, |l| usize::from(l[i])))
    }

    /// The general riding with regiment `r`, if any.
    pub fn general_with(&self, r: usize) -> Option<CommanderId> {
        self.generals
            .iter()
            .position(|g| g.with == Some(r as u16) && !g.lost && g.back_on <= self.turn)
            .map(|g| g as CommanderId)
    }
}

/// Every regiment and general of the set-up, derived once.
fn derive_template(rules: &DickensonRules, setup: &BattleSetup) -> (Vec<Regiment>, Vec<General>) {
    let mut regiments: Vec<Regiment> = setup
        .units
        .iter()
        .map(|u| Regiment::derive(u, rules))
        .collect();
    for u in setup.rearmost_reserves() {
        regiments[usize::from(u)].reserve = true;
    }
    let generals = setup
        .commanders
        .iter()
        .map(|c| General {
            side: c.side,
            command: c.command,
            pos: c.pos,
            lost: false,
            back_on: 0,
            with: None,
        })
        .collect();
    (regiments, generals)
}

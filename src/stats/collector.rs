//! The observer that turns one battle's events into counts: per-unit, per-command and
//! per-commander state in arrays sized once, reset for each battle, folded into the batch's
//! [`Tally`] when the battle ends. It reads nothing but the event stream.

use super::layout::Layout;
use super::measures::OwnTotals;
use super::tally::{EntityTally, Tally, general_result_index};
use crate::army::Side;
use crate::events::{Event, GeneralResult, Observer, Outcome};

/// One battle, for `battles.csv`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BattleRow {
    pub index: u64,
    pub seed: u64,
    pub outcome: Outcome,
    pub turns: u16,
    pub cv_start: [u32; 2],
    pub cv_lost: [u32; 2],
    /// Pursuits started by each side's horse.
    pub pursuits: [u32; 2],
    /// Rolls on the casualty tables for each side's generals.
    pub general_casualties: [u32; 2],
    /// Each side's commanders lost to the battle (killed, carried off, captured).
    pub commanders_lost: [u32; 2],
    pub dice_rolled: u64,
}

/// One unit's story in the current battle.
#[derive(Debug, Clone, Copy, Default)]
struct UnitBattle {
    start_cv: u8,
    cv: u8,
    routed: bool,
    /// Routed and not yet rallied or given back a CV.
    broken: bool,
    /// Destroyed, routed or retreated off the table, lost to pursuit.
    gone: bool,
    /// A gun whose crew ran and have not returned: lost to the army like a unit gone.
    abandoned: bool,
    melee_won: bool,
    pursued: bool,
    lost_in_pursuit: bool,
    camp: bool,
    /// In hot pursuit now, with the turns pursued so far as the engine counts them.
    pursuing: bool,
    pursuit_turns: u8,
}

/// A command's or a side's battle, summed over its units.
#[derive(Debug, Clone, Copy, Default)]
struct GroupBattle {
    units: u32,
    cv_lost: u32,
    destroyed: u32,
    broken_or_gone: u32,
    routed: bool,
    melee_won: bool,
    pursued: bool,
    lost_in_pursuit: bool,
    camp: bool,
}

impl GroupBattle {
    fn add(&mut self, u: &UnitBattle, cv_lost: u32, ended_broken: bool) {
        self.units += 1;
        self.cv_lost += cv_lost;
        self.destroyed += u32::from(u.gone);
        self.broken_or_gone += u32::from(u.gone || ended_broken);
        self.routed |= u.routed;
        self.melee_won |= u.melee_won;
        self.pursued |= u.pursued;
        self.lost_in_pursuit |= u.lost_in_pursuit;
        self.camp |= u.camp;
    }
}

/// One commander's battle.
#[derive(Debug, Clone, Copy, Default)]
struct GeneralBattle {
    casualties: u32,
    /// Bit i set: result i of [`super::tally::GENERAL_RESULTS`] happened.
    results: u16,
    captured: bool,
    lost: bool,
    /// Out of the battle since this turn, awaiting a replacement.
    out_since: Option<u16>,
    out_turns: u32,
}

/// Collects the statistics of a batch of battles. Create one per worker; call
/// [`Collector::begin`] before each battle, pass it to the engine as the observer, call
/// [`Collector::end`] after, and [`Collector::take`] at the end of the batch.
#[derive(Debug, Clone)]
pub struct Collector {
    // The order of battle, as flat arrays.
    unit_side: Vec<Side>,
    unit_command: Vec<u16>,
    unit_cv: Vec<u8>,
    unit_randomised: Vec<bool>,
    commander_side: Vec<Side>,
    effects: [(bool, u8); 11],
    // This battle.
    /// Each unit's totals of the ruleset's own measures, and scratch for the groups'.
    own: OwnTotals,
    own_groups: Vec<u64>,
    units: Vec<UnitBattle>,
    commands: Vec<GroupBattle>,
    generals: Vec<GeneralBattle>,
    turn: u16,
    army_broken: [bool; 2],
    pursuits: [u32; 2],
    casualties: [u32; 2],
    index: u64,
    seed: u64,
    ended: Option<(Outcome, u16)>,
    // This batch.
    tally: Tally,
    empty: Tally,
    rows: Option<Vec<BattleRow>>,
}

impl Collector {
    /// A collector for this order of battle; `per_battle` keeps a [`BattleRow`] per battle.
    pub fn new(layout: &Layout, per_battle: bool) -> Collector {
        let empty = Tally::new(layout);
        Collector {
            unit_side: layout.units.iter().map(|u| u.side).collect(),
            unit_command: layout.units.iter().map(|u| u.command).collect(),
            unit_cv: layout.units.iter().map(|u| u.start_cv).collect(),
            unit_randomised: layout.units.iter().map(|u| u.randomised).collect(),
            commander_side: layout.commanders.iter().map(|c| c.side).collect(),
            effects: layout.commander_effects.0,
            own: OwnTotals::new(layout.units.len(), layout.measures.len(), layout.counter),
            own_groups: vec![0; (layout.commands.len() + 2) * layout.measures.len()],
            units: vec![UnitBattle::default(); layout.units.len()],
            commands: vec![GroupBattle::default(); layout.commands.len()],
            generals: vec![GeneralBattle::default(); layout.commanders.len()],
            turn: 0,
            army_broken: [false; 2],
            pursuits: [0; 2],
            casualties: [0; 2],
            index: 0,
            seed: 0,
            ended: None,
            tally: empty.clone(),
            empty,
            rows: per_battle.then(Vec::new),
        }
    }

    /// The ruleset's own measures as the battle just fought left them, unit by unit.
    pub fn own_totals(&self) -> &OwnTotals {
        &self.own
    }

    /// Readies for battle `index`, fought from `seed`.
    pub fn begin(&mut self, index: u64, seed: u64) {
        for (i, u) in self.units.iter_mut().enumerate() {
            *u = UnitBattle {
                start_cv: self.unit_cv[i],
                cv: self.unit_cv[i],
                ..UnitBattle::default()
            };
        }
        self.generals.fill(GeneralBattle::default());
        self.own.clear();
        self.turn = 0;
        self.army_broken = [false; 2];
        self.pursuits = [0; 2];
        self.casualties = [0; 2];
        self.index = index;
        self.seed = seed;
        self.ended = None;
    }

    /// The index of the battle being fought (as given to [`Collector::begin`]).
    pub fn battle_index(&self) -> u64 {
        self.index
    }

    /// Closes the battle the engine just fought, counting the dice it rolled.
    ///
    /// # Panics
    /// If the engine returned without announcing the end of the battle: an engine bug that
    /// would otherwise silently drop a battle from the statistics.
    pub fn end(&mut self, dice_rolled: u64) {
        let Some((outcome, turns)) = self.ended else {
            panic!(
                "battle {} (seed {:#x}) returned without a BattleEnded event",
                self.index, self.seed
            );
        };
        self.tally.dice_rolled += dice_rolled;
        if let Some(rows) = &mut self.rows {
            let mut cv_start = [0u32; 2];
            let mut cv_lost = [0u32; 2];
            for (i, u) in self.units.iter().enumerate() {
                let s = self.unit_side[i].index();
                cv_start[s] += u32::from(u.start_cv);
                cv_lost[s] += unit_cv_lost(u);
            }
            let mut commanders_lost = [0u32; 2];
            for (g, side) in self.generals.iter().zip(&self.commander_side) {
                commanders_lost[side.index()] += u32::from(g.lost);
            }
            rows.push(BattleRow {
                index: self.index,
                seed: self.seed,
                outcome,
                turns,
                cv_start,
                cv_lost,
                pursuits: self.pursuits,
                general_casualties: self.casualties,
                commanders_lost,
                dice_rolled,
            });
        }
    }

    /// The batch's tally and rows, leaving the collector empty for the next batch.
    pub fn take(&mut self) -> (Tally, Vec<BattleRow>) {
        self.own_zeros();
        let tally = std::mem::replace(&mut self.tally, self.empty.clone());
        let rows = match &mut self.rows {
            Some(r) => std::mem::replace(r, Vec::with_capacity(r.capacity())),
            None => Vec::new(),
        };
        (tally, rows)
    }

    /// Unit `i` starts a pursuit (closing one it had not closed: a new quarry).
    fn pursuit_started(&mut self, i: usize) {
        let u = &mut self.units[i];
        if u.pursuing {
            let t = u.pursuit_turns;
            self.end_pursuit(i, t);
        }
        let u = &mut self.units[i];
        u.pursuing = true;
        u.pursued = true;
        u.pursuit_turns = 1;
        self.pursuits[self.unit_side[i].index()] += 1;
        self.count(i, |e| {
            e.first_halt_tests += 1;
            e.pursuits += 1;
        });
    }

    /// General `i` is hit with `result`: out of the battle from this turn if it takes him out
    /// or he is captured, else out for the turns the ruleset says.
    fn general_hit(&mut self, i: usize, result: GeneralResult, captured: bool) {
        let k = general_result_index(result);
        let (takes_out, out_turns) = self.effects[k];
        self.casualties[self.commander_side[i].index()] += 1;
        let g = &mut self.generals[i];
        g.casualties += 1;
        g.results |= 1 << k;
        g.captured |= captured;
        if takes_out || captured {
            g.lost = true;
            if g.out_since.is_none() {
                g.out_since = Some(self.turn);
            }
        } else {
            g.out_turns += u32::from(out_turns);
        }
    }

    /// Ends a pursuit: counts it and its length.
    fn end_pursuit(&mut self, unit: usize, turns: u8) {
        let u = &mut self.units[unit];
        if !u.pursuing {
            return;
        }
        u.pursuing = false;
        let t = i64::from(turns.max(u.pursuit_turns));
        let side = self.unit_side[unit].index();
        let cmd = usize::from(self.unit_command[unit]);
        self.tally.units[unit].pursuit_turns.add(t);
        self.tally.commands[cmd].pursuit_turns.add(t);
        self.tally.sides[side].pursuit_turns.add(t);
    }

    /// Applies `f` to the tallies of the unit, its command and its side.
    fn count(&mut self, unit: usize, f: impl Fn(&mut EntityTally)) {
        let side = self.unit_side[unit].index();
        let cmd = usize::from(self.unit_command[unit]);
        f(&mut self.tally.units[unit]);
        f(&mut self.tally.commands[cmd]);
        f(&mut self.tally.sides[side]);
    }

    /// Folds the finished battle into the tally.
    fn finish(&mut self, outcome: Outcome, turn: u16) {
        for i in 0..self.units.len() {
            if self.units[i].pursuing {
                let t = self.units[i].pursuit_turns;
                self.end_pursuit(i, t);
            }
        }
        for g in &mut self.commands {
            *g = GroupBattle::default();
        }
        let mut sides = [GroupBattle::default(); 2];
        let t = &mut self.tally;
        t.battles += 1;
        match outcome {
            Outcome::Won(s) => t.wins[s.index()] += 1,
            Outcome::Draw => t.draws += 1,
        }
        t.turns.add(i64::from(turn));
        for (i, u) in self.units.iter().enumerate() {
            let lost = unit_cv_lost(u);
            let ended_broken = u.broken && !u.gone;
            let e = &mut t.units[i];
            e.cv_lost.add(i64::from(lost));
            e.units_destroyed.add(i64::from(u.gone));
            e.routed += u64::from(u.routed);
            e.destroyed += u64::from(u.gone);
            e.ended_broken += u64::from(ended_broken);
            e.melee_won += u64::from(u.melee_won);
            e.pursued_after_win += u64::from(u.melee_won && u.pursued);
            e.lost_in_pursuit += u64::from(u.lost_in_pursuit);
            e.camp_taken += u64::from(u.camp);
            self.commands[usize::from(self.unit_command[i])].add(u, lost, ended_broken);
            sides[self.unit_side[i].index()].add(u, lost, ended_broken);
            if self.unit_randomised[i] {
                let r = &mut t.ratings[i];
                r.rolled.add(i64::from(u.start_cv));
                if outcome == Outcome::Won(self.unit_side[i]) {
                    r.side_won.add(i64::from(u.start_cv));
                }
            }
        }
        for (e, g) in t.commands.iter_mut().zip(&self.commands) {
            fold_group(e, g, g.units > 0 && g.broken_or_gone == g.units);
        }
        for ((e, g), broke) in t.sides.iter_mut().zip(&sides).zip(self.army_broken) {
            fold_group(e, g, broke);
        }
        if let Outcome::Won(w) = outcome {
            let l = w.other();
            let margin = i64::from(sides[l.index()].cv_lost) - i64::from(sides[w.index()].cv_lost);
            t.margin.add(margin);
        }
        self.fold_own();
        let t = &mut self.tally;
        for (i, g) in self.generals.iter_mut().enumerate() {
            if let Some(since) = g.out_since.take() {
                g.out_turns += u32::from(turn.saturating_sub(since));
            }
            let c = &mut t.commanders[i];
            c.casualty += u64::from(g.casualties > 0);
            c.casualties += u64::from(g.casualties);
            for (k, n) in c.results.iter_mut().enumerate() {
                *n += u64::from(g.results & (1 << k) != 0);
            }
            c.captured += u64::from(g.captured);
            c.lost += u64::from(g.lost);
            c.turns_out.add(i64::from(g.out_turns));
        }
        self.ended = Some((outcome, turn));
    }
}

impl Collector {
    /// Folds the battle's totals of the ruleset's own measures into each unit's, command's and
    /// side's histograms. Most totals are 0 (a unit that fired no volley ...): those are left
    /// for [`Collector::own_zeros`] to count at the batch's end, each histogram holding one
    /// observation a battle.
    fn fold_own(&mut self) {
        let m = self.own.measures();
        if m == 0 {
            return;
        }
        let commands = self.tally.commands.len();
        self.own_groups.fill(0);
        for (i, (u, totals)) in self
            .tally
            .units
            .iter_mut()
            .zip(self.own.by_unit())
            .enumerate()
        {
            let groups = [
                usize::from(self.unit_command[i]),
                commands + self.unit_side[i].index(),
            ];
            for (k, (h, &v)) in u.own.iter_mut().zip(totals).enumerate() {
                if v == 0 {
                    continue;
                }
                h.add(i64::from(v));
                for g in groups {
                    self.own_groups[g * m + k] += u64::from(v);
                }
            }
        }
        let groups = self.tally.commands.iter_mut().chain(&mut self.tally.sides);
        for (e, totals) in groups.zip(self.own_groups.chunks(m)) {
            for (h, &v) in e.own.iter_mut().zip(totals) {
                if v != 0 {
                    h.add(i64::try_from(v).unwrap_or(i64::MAX));
                }
            }
        }
    }

    /// The batch's battles in which an own measure's total was 0, counted into its histograms.
    fn own_zeros(&mut self) {
        let battles = self.tally.battles;
        let t = &mut self.tally;
        for e in t
            .units
            .iter_mut()
            .chain(&mut t.commands)
            .chain(&mut t.sides)
        {
            for h in &mut e.own {
                h.add_n(0, battles - h.total());
            }
        }
    }
}

/// A unit's CV lost in the battle: all of it if it left the field or is a gun left by its
/// crew (as the army-break rule counts them), else what it lacks of its starting CV.
fn unit_cv_lost(u: &UnitBattle) -> u32 {
    if u.gone || u.abandoned {
        u32::from(u.start_cv)
    } else {
        u32::from(u.start_cv.saturating_sub(u.cv))
    }
}

fn fold_group(e: &mut EntityTally, g: &GroupBattle, ended_broken: bool) {
    e.cv_lost.add(i64::from(g.cv_lost));
    e.units_destroyed.add(i64::from(g.destroyed));
    e.routed += u64::from(g.routed);
    e.destroyed += u64::from(g.units > 0 && g.destroyed == g.units);
    e.ended_broken += u64::from(ended_broken);
    e.melee_won += u64::from(g.melee_won);
    e.pursued_after_win += u64::from(g.melee_won && g.pursued);
    e.lost_in_pursuit += u64::from(g.lost_in_pursuit);
    e.camp_taken += u64::from(g.camp);
}

impl Observer for Collector {
    /// The events the tally is made from (the rest, moves and shots among them, are never
    /// built for it). A test checks that a battle's tally is the same from these alone.
    #[inline]
    fn wants(&self, e: &Event) -> bool {
        self.own.wants(e)
            || matches!(
                e,
                Event::RatingRolled { .. }
                    | Event::TurnStarted { .. }
                    | Event::CvLost { .. }
                    | Event::CvGained { .. }
                    | Event::Rally { .. }
                    | Event::Recovered { .. }
                    | Event::GunAbandoned { .. }
                    | Event::Remanned { success: true, .. }
                    | Event::Rout { .. }
                    | Event::Disintegrated { .. }
                    | Event::LeftTable { .. }
                    | Event::MeleeResult {
                        winner: Some(_),
                        ..
                    }
                    | Event::PursuitStarted { .. }
                    | Event::PursuitContinued { .. }
                    | Event::PursuitHalted { .. }
                    | Event::PursuitLost { .. }
                    | Event::CampCaptured { .. }
                    | Event::GeneralCasualty { .. }
                    | Event::GeneralReplaced { .. }
                    | Event::ArmyBroken { .. }
                    | Event::BattleEnded { .. }
            )
    }

    fn event(&mut self, e: &Event) {
        self.own.event(e);
        match *e {
            Event::RatingRolled { unit, cv } => {
                let i = usize::from(unit);
                self.units[i].start_cv = cv;
                self.units[i].cv = cv;
            }
            Event::TurnStarted { turn } => self.turn = turn,
            Event::CvLost { unit, cv, .. } => self.units[usize::from(unit)].cv = cv,
            Event::CvGained { unit, cv, .. } | Event::Rally { unit, cv, .. } => {
                self.units[usize::from(unit)].cv = cv;
            }
            Event::Recovered { unit } => self.units[usize::from(unit)].broken = false,
            Event::GunAbandoned { unit } => self.units[usize::from(unit)].abandoned = true,
            Event::Remanned {
                unit,
                success: true,
                ..
            } => self.units[usize::from(unit)].abandoned = false,
            Event::Rout { unit, .. } => {
                let i = usize::from(unit);
                let u = &mut self.units[i];
                u.routed = true;
                u.broken = true;
                // A routed pursuer's pursuit is over.
                let t = u.pursuit_turns;
                self.end_pursuit(i, t);
            }
            Event::Disintegrated { unit } | Event::LeftTable { unit } => {
                let i = usize::from(unit);
                let u = &mut self.units[i];
                u.gone = true;
                if u.pursuing {
                    u.lost_in_pursuit = true;
                    let t = u.pursuit_turns;
                    self.end_pursuit(i, t);
                }
            }
            Event::MeleeResult {
                winner: Some(w), ..
            } => self.units[usize::from(w)].melee_won = true,
            Event::PursuitStarted { unit, .. } => self.pursuit_started(usize::from(unit)),
            Event::PursuitContinued { unit, turns } => {
                self.units[usize::from(unit)].pursuit_turns = turns;
            }
            // Turns 0: the victor's halt test straight after the melee, passed: no pursuit (an
            // earlier pursuit of the same unit, if any, goes on).
            Event::PursuitHalted { unit, turns: 0 } => self.count(usize::from(unit), |e| {
                e.first_halt_tests += 1;
                e.halted_first += 1;
            }),
            Event::PursuitHalted { unit, turns } => self.end_pursuit(usize::from(unit), turns),
            Event::PursuitLost { unit, turns } => {
                let i = usize::from(unit);
                let u = &mut self.units[i];
                u.gone = true;
                u.lost_in_pursuit = true;
                self.end_pursuit(i, turns);
            }
            Event::CampCaptured { by, .. } => self.units[usize::from(by)].camp = true,
            Event::GeneralCasualty {
                general,
                result,
                captured,
            } => self.general_hit(usize::from(general), result, captured),
            Event::GeneralReplaced { general } => {
                let g = &mut self.generals[usize::from(general)];
                if let Some(since) = g.out_since.take() {
                    g.out_turns += u32::from(self.turn.saturating_sub(since));
                }
            }
            Event::ArmyBroken { side, .. } => self.army_broken[side.index()] = true,
            Event::BattleEnded { outcome, turn } => {
                assert!(
                    self.ended.is_none(),
                    "battle {} (seed {:#x}) ended twice",
                    self.index,
                    self.seed
                );
                self.finish(outcome, turn);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{GeneralResult, LossCause, ReactionResult};
    use crate::stats::testing::layout;

    /// The events the collector does not want change nothing: real battles tallied from every
    /// event and from the wanted ones alone agree, rows included.
    #[test]
    fn the_unwanted_events_change_no_tally() {
        use crate::events::EventLog;
        use crate::rules::ironsides::battle::Battle;
        for name in ["marston_moor", "small_action"] {
            let setup = crate::scenario::Scenario::load_builtin(name, &[])
                .and_then(|s| s.setup())
                .expect("built-in scenario");
            let l = Layout::of(&setup);
            let (mut all, mut wanted) = (Collector::new(&l, true), Collector::new(&l, true));
            let mut battle = Battle::new(&setup);
            let mut skipped = 0;
            for i in 0..20 {
                let seed = crate::dice::battle_seed(3, i);
                let mut log = EventLog::default();
                battle.fight(&setup, seed, &mut log);
                all.begin(i, seed);
                wanted.begin(i, seed);
                for e in &log.0 {
                    all.event(e);
                    if wanted.wants(e) {
                        wanted.event(e);
                    } else {
                        skipped += 1;
                    }
                }
                all.end(0);
                wanted.end(0);
            }
            assert!(skipped > 0, "{name}: some events are not wanted");
            assert_eq!(all.take(), wanted.take(), "{name}");
        }
    }

    /// Parliament's horse wins, pursues two turns and halts; Rupert is mortally wounded in turn
    /// 1 and replaced in turn 3; the Royalist foot disintegrates; the Royalists break in turn 4.
    pub(crate) fn battle_one() -> Vec<Event> {
        vec![
            Event::RatingRolled { unit: 2, cv: 5 },
            Event::TurnStarted { turn: 1 },
            Event::MeleeResult {
                winner: Some(0),
                loser: Some(2),
                result: ReactionResult::Rout,
            },
            Event::CvLost {
                unit: 2,
                amount: 2,
                cause: LossCause::Melee,
                cv: 3,
            },
            Event::Rout {
                unit: 2,
                distance: 12.0,
            },
            Event::PursuitStarted { unit: 0, target: 2 },
            Event::GeneralCasualty {
                general: 1,
                result: GeneralResult::MortalWound,
                captured: false,
            },
            Event::TurnStarted { turn: 2 },
            Event::PursuitContinued { unit: 0, turns: 2 },
            Event::TurnStarted { turn: 3 },
            Event::PursuitHalted { unit: 0, turns: 2 },
            Event::GeneralReplaced { general: 1 },
            Event::CvLost {
                unit: 3,
                amount: 5,
                cause: LossCause::Fire,
                cv: 0,
            },
            Event::Disintegrated { unit: 3 },
            Event::TurnStarted { turn: 4 },
            Event::CvLost {
                unit: 1,
                amount: 1,
                cause: LossCause::Fire,
                cv: 4,
            },
            Event::ArmyBroken {
                side: Side::Royalist,
                lost: 7,
                start: 10,
            },
            Event::BattleEnded {
                outcome: Outcome::Won(Side::Parliament),
                turn: 4,
            },
        ]
    }

    /// The Royalist horse (CV 3 this time) wins and halts at the first test; it routs
    /// later, rallies and takes the camp; Cromwell's horse stampedes (one turn out of action);
    /// Parliament's horse pursues without a melee won; the turn limit gives a draw.
    pub(crate) fn battle_two() -> Vec<Event> {
        vec![
            Event::RatingRolled { unit: 2, cv: 3 },
            Event::TurnStarted { turn: 1 },
            Event::MeleeResult {
                winner: Some(2),
                loser: Some(0),
                result: ReactionResult::FailBoth,
            },
            Event::PursuitHalted { unit: 2, turns: 0 },
            Event::TurnStarted { turn: 2 },
            Event::GeneralCasualty {
                general: 0,
                result: GeneralResult::HorseStampedes,
                captured: false,
            },
            Event::Rout {
                unit: 2,
                distance: 15.0,
            },
            Event::Rally {
                unit: 2,
                roll: 2,
                success: true,
                cv: 3,
            },
            Event::Recovered { unit: 2 },
            Event::PursuitStarted { unit: 0, target: 1 },
            Event::TurnStarted { turn: 12 },
            Event::CampCaptured {
                camp_side: Side::Parliament,
                by: 2,
            },
            Event::BattleEnded {
                outcome: Outcome::Draw,
                turn: 12,
            },
        ]
    }

    /// Parliament's horse pursues off the table; Rupert is captured; Parliament breaks.
    pub(crate) fn battle_three() -> Vec<Event> {
        vec![
            Event::RatingRolled { unit: 2, cv: 5 },
            Event::TurnStarted { turn: 1 },
            Event::MeleeResult {
                winner: Some(0),
                loser: Some(2),
                result: ReactionResult::Rout,
            },
            Event::PursuitStarted { unit: 0, target: 2 },
            Event::TurnStarted { turn: 2 },
            Event::PursuitContinued { unit: 0, turns: 2 },
            Event::PursuitContinued { unit: 0, turns: 3 },
            Event::PursuitLost { unit: 0, turns: 3 },
            Event::GeneralCasualty {
                general: 1,
                result: GeneralResult::Hurt,
                captured: true,
            },
            Event::Rout {
                unit: 1,
                distance: 9.0,
            },
            Event::TurnStarted { turn: 6 },
            Event::ArmyBroken {
                side: Side::Parliament,
                lost: 6,
                start: 9,
            },
            Event::BattleEnded {
                outcome: Outcome::Won(Side::Royalist),
                turn: 6,
            },
        ]
    }

    fn fight(c: &mut Collector, index: u64, events: &[Event]) {
        c.begin(index, 1000 + index);
        for e in events {
            c.event(e);
        }
        c.end(100 + index);
    }

    #[test]
    fn one_battle_is_counted_from_its_events() {
        let l = layout();
        let mut c = Collector::new(&l, true);
        fight(&mut c, 0, &battle_one());
        let (t, rows) = c.take();
        assert_eq!(
            (t.battles, t.wins, t.draws, t.dice_rolled),
            (1, [1, 0], 0, 100)
        );
        assert_eq!(t.turns.count(4), 1);
        // Royalist loss: horse 2 of 5 (rolled), foot gone: all 5. Parliament: 1.
        assert_eq!(t.units[2].cv_lost.count(2), 1);
        assert_eq!(t.units[3].cv_lost.count(5), 1);
        assert_eq!(t.units[1].cv_lost.count(1), 1);
        assert_eq!(t.sides[1].cv_lost.count(7), 1);
        assert_eq!(t.margin.count(6), 1);
        let h = &t.units[0];
        assert_eq!(
            (h.melee_won, h.pursued_after_win, h.pursuits, h.halted_first),
            (1, 1, 1, 0)
        );
        assert_eq!(h.first_halt_tests, 1);
        assert_eq!(h.pursuit_turns.count(2), 1);
        let r = &t.units[2];
        assert_eq!((r.routed, r.ended_broken, r.destroyed), (1, 1, 0));
        assert_eq!((t.units[3].destroyed, t.units[3].ended_broken), (1, 0));
        // The Royalist command: one unit gone, the other routed: all broken or gone.
        assert_eq!(t.commands[2].ended_broken, 1);
        assert_eq!(t.commands[2].destroyed, 0);
        assert_eq!(t.commands[2].units_destroyed.count(1), 1);
        assert_eq!((t.sides[1].ended_broken, t.sides[0].ended_broken), (1, 0));
        let rupert = &t.commanders[1];
        assert_eq!((rupert.casualty, rupert.lost, rupert.captured), (1, 1, 0));
        assert_eq!(
            rupert.results[general_result_index(GeneralResult::MortalWound)],
            1
        );
        // Out from turn 1 to his replacement in turn 3.
        assert_eq!(rupert.turns_out.count(2), 1);
        assert_eq!(t.commanders[0].turns_out.count(0), 1);
        assert_eq!(t.ratings[2].rolled.count(5), 1);
        assert_eq!(t.ratings[2].side_won.total(), 0);
        assert_eq!(t.ratings[0].rolled.total(), 0);
        assert_eq!(
            rows,
            vec![BattleRow {
                index: 0,
                seed: 1000,
                outcome: Outcome::Won(Side::Parliament),
                turns: 4,
                cv_start: [9, 10],
                cv_lost: [1, 7],
                pursuits: [1, 0],
                general_casualties: [0, 1],
                commanders_lost: [0, 1],
                dice_rolled: 100,
            }]
        );
    }

    #[test]
    fn state_is_reset_between_battles() {
        let l = layout();
        let mut c = Collector::new(&l, false);
        fight(&mut c, 0, &battle_one());
        fight(&mut c, 1, &battle_two());
        let (t, rows) = c.take();
        assert!(rows.is_empty());
        assert_eq!((t.battles, t.draws), (2, 1));
        // The foot destroyed in battle one is whole again in battle two.
        assert_eq!(t.units[3].cv_lost.count(0), 1);
        assert_eq!(t.units[3].destroyed, 1);
        // Royalist horse: rolled 3, won, halted at the first test, routed and rallied, took the
        // camp.
        let r = &t.units[2];
        assert_eq!((r.melee_won, r.pursuits, r.camp_taken), (1, 0, 1));
        assert_eq!(
            (r.first_halt_tests, r.halted_first, r.pursued_after_win),
            (1, 1, 0)
        );
        assert_eq!(r.pursuit_turns.total(), 0);
        assert_eq!(t.commands[2].halted_first, 1);
        assert_eq!(t.sides[1].first_halt_tests, 1);
        assert_eq!((r.routed, r.ended_broken), (2, 1));
        assert_eq!(t.ratings[2].rolled.count(3), 1);
        // Parliament horse: a pursuit without a melee won in battle two, cut short by the end.
        let h = &t.units[0];
        assert_eq!((h.melee_won, h.pursued_after_win, h.pursuits), (1, 1, 2));
        assert_eq!(h.pursuit_turns.count(2), 1);
        assert_eq!(h.pursuit_turns.count(1), 1);
        // Cromwell's stampede: one turn out; Rupert untouched in battle two.
        assert_eq!(t.commanders[0].turns_out.count(1), 1);
        assert_eq!(t.commanders[0].casualty, 1);
        assert_eq!(t.commanders[1].casualty, 1);
        // A fresh batch starts empty.
        let (t2, _) = c.take();
        assert_eq!(t2, Tally::new(&l));
    }

    #[test]
    fn pursuit_losses_and_captures() {
        let l = layout();
        let mut c = Collector::new(&l, false);
        fight(&mut c, 0, &battle_three());
        let (t, _) = c.take();
        let h = &t.units[0];
        assert_eq!((h.lost_in_pursuit, h.destroyed, h.halted_first), (1, 1, 0));
        assert_eq!(h.pursuit_turns.count(3), 1);
        assert_eq!(t.units[0].cv_lost.count(4), 1);
        assert_eq!(t.commands[0].lost_in_pursuit, 1);
        assert_eq!(t.commands[0].destroyed, 1);
        let rupert = &t.commanders[1];
        assert_eq!((rupert.captured, rupert.lost), (1, 1));
        assert_eq!(rupert.results[general_result_index(GeneralResult::Hurt)], 1);
        // Captured in turn 2, never replaced: out until the end in turn 6.
        assert_eq!(rupert.turns_out.count(4), 1);
        assert_eq!(t.ratings[2].side_won.count(5), 1);
        assert_eq!(t.margin.count(4), 1);
    }

    #[test]
    fn tallies_merge_to_the_same_counts_in_any_grouping() {
        let l = layout();
        let battles = [battle_one(), battle_two(), battle_three()];
        let mut whole = Collector::new(&l, false);
        for (i, b) in battles.iter().cycle().take(9).enumerate() {
            fight(&mut whole, i as u64, b);
        }
        let (whole, _) = whole.take();
        let mut parts = Tally::new(&l);
        for chunk in [0..2usize, 2..7, 7..9] {
            let mut c = Collector::new(&l, false);
            for i in chunk {
                fight(&mut c, i as u64, &battles[i % 3]);
            }
            parts.merge(&c.take().0).unwrap();
        }
        assert_eq!(parts, whole);
        assert_eq!(whole.battles, 9);
        let json = serde_json::to_string(&whole).unwrap();
        let back: Tally = serde_json::from_str(&json).unwrap();
        assert_eq!(back, whole);
    }

    #[test]
    #[should_panic(expected = "without a BattleEnded")]
    fn a_battle_without_an_end_is_an_engine_bug() {
        let l = layout();
        let mut c = Collector::new(&l, false);
        c.begin(3, 3);
        c.event(&Event::TurnStarted { turn: 1 });
        c.end(0);
    }
}

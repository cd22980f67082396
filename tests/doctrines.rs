//! Doctrines at work: whole battles fought by the built-in doctrines on every historical
//! scenario, and a random doctrine that tries every illegal thing, which the engine refuses.

mod common;

use ecw_sim::army::{Formation, HorseKind, UnitStatus};
use ecw_sim::battlefield::Vec2;
use ecw_sim::dice::{DiceSource, SeededDice};
use ecw_sim::doctrine::{Doctrine, Order, Responses};
use ecw_sim::events::{Event, Observer, Response};
use ecw_sim::rules::ironsides::battle::command::GeneralOrder;
use ecw_sim::rules::ironsides::battle::{Battle, View};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

/// Battles per scenario: 1,000 in a release build (the figure), fewer in debug.
fn battles() -> u64 {
    if cfg!(debug_assertions) { 100 } else { 1000 }
}

/// What the doctrine tests measure in one battle.
#[derive(Default)]
struct Watch {
    turn: u16,
    melee: bool,
    first_horse_melee: Option<u16>,
    first_foot_melee: Option<u16>,
    ended: bool,
    horse: Vec<bool>,
    foot: Vec<bool>,
    galloper: Vec<bool>,
    /// (melees won, pursuits started) by gallopers and by other horse.
    gallopers: [u32; 2],
    trotters: [u32; 2],
}

impl Observer for Watch {
    fn event(&mut self, e: &Event) {
        match *e {
            Event::TurnStarted { turn } => self.turn = turn,
            Event::Melee {
                attacker, defender, ..
            } => {
                self.melee = true;
                let (a, d) = (usize::from(attacker), usize::from(defender));
                if self.horse[a] && self.horse[d] && self.first_horse_melee.is_none() {
                    self.first_horse_melee = Some(self.turn);
                }
                if (self.foot[a] || self.foot[d]) && self.first_foot_melee.is_none() {
                    self.first_foot_melee = Some(self.turn);
                }
            }
            Event::MeleeResult {
                winner: Some(w), ..
            } if self.horse[usize::from(w)] => {
                let t = if self.galloper[usize::from(w)] {
                    &mut self.gallopers
                } else {
                    &mut self.trotters
                };
                t[0] += 1;
            }
            Event::PursuitStarted { unit, .. } => {
                let t = if self.galloper[usize::from(unit)] {
                    &mut self.gallopers
                } else {
                    &mut self.trotters
                };
                t[1] += 1;
            }
            Event::BattleEnded { .. } => self.ended = true,
            _ => {}
        }
    }
}

fn watch(setup: &BattleSetup) -> Watch {
    Watch {
        horse: setup.units.iter().map(|u| u.is_cavalry()).collect(),
        foot: setup.units.iter().map(|u| u.kind.is_foot()).collect(),
        galloper: setup
            .units
            .iter()
            .map(|u| u.kind.horse() == Some(HorseKind::Gallopers))
            .collect(),
        ..Watch::default()
    }
}

#[test]
fn historical_battles_close_fight_and_horse_clash_first() {
    let mut pursuit = [[0u32; 2]; 2];
    for name in ["small_action", "edgehill", "marston_moor", "naseby"] {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut battle = Battle::new(&setup);
        let n = battles();
        let (mut melee, mut horse_first, mut ended) = (0, 0, 0);
        for i in 0..n {
            let mut w = watch(&setup);
            let s = battle.fight(&setup, ecw_sim::dice::battle_seed(1, i), &mut w);
            assert!(s.turns <= setup.turn_limit);
            ended += u64::from(w.ended);
            melee += u64::from(w.melee);
            if let Some(h) = w.first_horse_melee
                && w.first_foot_melee.is_none_or(|f| h <= f)
            {
                horse_first += 1;
            }
            for (total, seen) in pursuit.iter_mut().zip([w.gallopers, w.trotters]) {
                total[0] += seen[0];
                total[1] += seen[1];
            }
        }
        eprintln!("{name}: melee in {melee}/{n}, horse clash first in {horse_first}/{n}");
        assert_eq!(ended, n, "{name}: every battle ends");
        assert!(
            melee * 100 > n * 95,
            "{name}: battles with a melee {melee}/{n} must exceed 95%"
        );
        assert!(
            horse_first * 2 > n,
            "{name}: horse clash before the foot in most battles: {horse_first}/{n}"
        );
    }
    let g = f64::from(pursuit[0][1]) / f64::from(pursuit[0][0].max(1));
    let t = f64::from(pursuit[1][1]) / f64::from(pursuit[1][0].max(1));
    eprintln!(
        "P(pursue | won): gallopers {g:.3} ({:?}), trotters {t:.3} ({:?})",
        pursuit[0], pursuit[1]
    );
    assert!(
        g > 1.5 * t,
        "galloper wings pursue far more often than trotters: {g:.3} v {t:.3}"
    );
}

/// A doctrine that answers at random, often illegally: charging friends, attaching to the enemy,
/// absurd stand-offs and retreats, formations a unit cannot take.
struct RandomAi(SeededDice);

impl RandomAi {
    fn pick(&mut self, n: usize) -> usize {
        self.0.below(n as u32) as usize
    }
    fn point(&mut self) -> Vec2 {
        Vec2::new(
            f64::from(self.0.below(120)) - 20.0,
            f64::from(self.0.below(90)) - 20.0,
        )
    }
}

impl Doctrine for RandomAi {
    fn general(&mut self, v: &View, _g: u16) -> GeneralOrder {
        let n = v.battle.units.len();
        let attach = (self.pick(2) == 0).then(|| self.pick(n) as u16);
        let join = (self.pick(3) == 0).then(|| self.pick(v.battle.commands.len() + 2) as u16);
        GeneralOrder {
            to: self.point(),
            attach,
            join,
        }
    }
    fn split_lps(
        &mut self,
        _v: &View,
        _cg: u16,
        _lps: u8,
        _reach: &[bool; 64],
        out: &mut [u8; 64],
    ) {
        for o in out.iter_mut() {
            *o = self.pick(7) as u8;
        }
    }
    fn rally_priority(&mut self, _v: &View, _u: u16) -> i32 {
        self.pick(10) as i32
    }
    fn rally_attempts(&mut self, _v: &View, _u: u16) -> u8 {
        self.pick(5) as u8
    }
    fn rerolls_on_rally(&mut self, _v: &View, _u: u16) -> bool {
        self.pick(2) == 0
    }
    fn order(&mut self, v: &View, _u: u16) -> Order {
        let n = v.battle.units.len();
        match self.pick(7) {
            0 => Order::Hold,
            1 => Order::Advance { to: self.point() },
            2 => Order::Charge {
                target: self.pick(n + 3) as u16,
            },
            3 => Order::FallBack { to: self.point() },
            4 => Order::Form(
                [
                    Formation::Line,
                    Formation::MarchColumn,
                    Formation::Hedgehog,
                    Formation::Dismounted,
                    Formation::Limbered,
                    Formation::Unlimbered,
                ][self.pick(6)],
            ),
            5 => Order::Unlimber,
            _ => Order::Advance {
                to: Vec2::new(f64::NAN, 3.0),
            },
        }
    }
    fn fire_target(&mut self, v: &View, _u: u16, candidates: &[u16]) -> Option<u16> {
        match self.pick(3) {
            0 => None,
            1 => Some(self.pick(v.battle.units.len()) as u16),
            _ => candidates.first().copied(),
        }
    }
    fn reaction_rerolls(&mut self, _v: &View, _u: u16, _available: u8) -> u8 {
        self.pick(10) as u8
    }
    fn standoff(&mut self, _v: &View, _t: u16, _c: u16) -> f64 {
        [-5.0, 0.0, 2.0, 4.0, 6.0, 50.0][self.pick(6)]
    }
    fn responses(&mut self, _v: &View, _u: u16, _c: u16) -> Responses {
        let all = [
            Response::ChangeFacing,
            Response::ChangeFormation,
            Response::FormUp,
            Response::Fire,
            Response::Limber,
            Response::Evade,
            Response::Countercharge,
        ];
        [
            Some(all[self.pick(7)]),
            Some(all[self.pick(7)]),
            None,
            Some(all[self.pick(7)]),
        ]
    }
    fn support_charge(&mut self, _v: &View, _u: u16, _c: u16) -> bool {
        self.pick(2) == 0
    }
    fn opportunity_charge(&mut self, _v: &View, _u: u16, _e: u16) -> bool {
        self.pick(2) == 0
    }
    fn retreat_distance(&mut self, _v: &View, _u: u16) -> f64 {
        [-3.0, 0.0, 4.0, 12.0, 100.0][self.pick(5)]
    }
    fn take_camp(&mut self, _v: &View, _u: u16) -> bool {
        self.pick(2) == 0
    }
}

/// Checks the invariants an illegal decision could break, event by event.
struct Invariants {
    start: Vec<u8>,
    gone: Vec<bool>,
    violations: Vec<String>,
}

impl Observer for Invariants {
    fn event(&mut self, e: &Event) {
        let acted = match *e {
            Event::RatingRolled { unit, cv } => {
                self.start[usize::from(unit)] = cv;
                None
            }
            Event::CvLost { unit, cv, .. }
            | Event::CvGained { unit, cv, .. }
            | Event::Rally { unit, cv, .. } => {
                if cv > self.start[usize::from(unit)] {
                    self.violations.push(format!(
                        "unit {unit} CV {cv} above its start {}",
                        self.start[usize::from(unit)]
                    ));
                }
                None
            }
            Event::Moved { unit, to, .. } => {
                if !to.0.is_finite() || !to.1.is_finite() {
                    self.violations.push(format!("unit {unit} moved to {to:?}"));
                }
                Some(unit)
            }
            Event::Fired { unit, .. }
            | Event::ChargeDeclared { unit, .. }
            | Event::FormationChanged { unit }
            | Event::Unlimbered { unit } => Some(unit),
            Event::Melee { attacker, .. } => Some(attacker),
            Event::ChargeFailed { unit, .. } => Some(unit),
            _ => None,
        };
        if let Some(u) = acted
            && self.gone[usize::from(u)]
        {
            self.violations
                .push(format!("unit {u} acted after it was gone: {e:?}"));
        }
        if let Event::Disintegrated { unit }
        | Event::LeftTable { unit }
        | Event::PursuitLost { unit, .. } = *e
        {
            self.gone[usize::from(unit)] = true;
        }
    }
}

#[test]
fn random_doctrines_never_produce_an_illegal_state() {
    let setup = common::small_battle(HorseKind::Trotters, HorseKind::Gallopers);
    let mut battle = Battle::new(&setup);
    let n = if cfg!(debug_assertions) { 60 } else { 400 };
    for seed in 0..n {
        let mut inv = Invariants {
            start: setup.units.iter().map(|u| u.start_cv).collect(),
            gone: vec![false; setup.units.len()],
            violations: vec![],
        };
        battle.reset(&setup, seed, &mut inv);
        let mut dice = SeededDice::new(seed);
        let mut ai = RandomAi(SeededDice::new(seed ^ 0xABCD));
        let s = battle.play(&setup, &mut dice, &mut ai, &mut inv);
        assert!(s.turns <= setup.turn_limit);
        assert!(
            inv.violations.is_empty(),
            "seed {seed}: {:?}",
            &inv.violations[..inv.violations.len().min(5)]
        );
        for u in &battle.units {
            assert!(u.cv <= u.start_cv, "seed {seed}: {u:?}");
            assert!(u.pos.x.is_finite() && u.pos.y.is_finite());
            if u.status == UnitStatus::Destroyed {
                assert_eq!(u.cv, 0);
            }
            assert!(
                !(u.kind.is_gun() && u.formation == Formation::Hedgehog),
                "guns cannot form hedgehog"
            );
            assert!(
                u.kind.is_foot() || u.formation != Formation::Hedgehog,
                "only foot forms hedgehog"
            );
        }
        for c in &battle.commanders {
            if let Some(u) = c.attached_unit {
                assert_eq!(
                    battle.units[usize::from(u)].side,
                    c.side,
                    "a general never leads an enemy unit"
                );
            }
        }
    }
}

/// A Captain-General whose doctrine leads from the front joins a wing once battle is near: the
/// wing's own commander is silenced, its units fight at +1 CV, and that shows in the results.
#[test]
fn a_captain_general_who_leads_joins_a_wing() {
    let plain = Scenario::open("small_action", &[])
        .unwrap()
        .setup()
        .unwrap();
    let leads = Scenario::open("small_action", &["royalist.doctrine=rupert".to_string()])
        .unwrap()
        .setup()
        .unwrap();
    let cg =
        leads.captain_generals[ecw_sim::army::Side::Royalist.index()].expect("a Captain-General");
    let mut battle = Battle::new(&leads);
    let mut joined = 0;
    let n = if cfg!(debug_assertions) { 40 } else { 200 };
    for i in 0..n {
        let seed = ecw_sim::dice::battle_seed(5, i);
        battle.reset(&leads, seed, &mut ecw_sim::events::NullObserver);
        let mut dice = ecw_sim::dice::StreamDice::default();
        dice.reseed(
            seed,
            ecw_sim::rules::ironsides::battle::streams::BATTLE,
            Battle::dice_streams(&leads),
        );
        let mut ai = ecw_sim::doctrine::ParamAi;
        let mut seen = false;
        while battle.outcome.is_none() && battle.turn < leads.turn_limit {
            battle.turn += 1;
            battle.play_turn(
                &leads,
                &mut dice,
                &mut ai,
                &mut ecw_sim::events::NullObserver,
            );
            if let Some(cmd) = battle.commanders[usize::from(cg)].attached_command {
                seen = true;
                let unit = battle.commands[usize::from(cmd)].units[0];
                assert_eq!(
                    battle.acting_commander(&leads, cmd),
                    Some(cg),
                    "the wing's own commander is silenced"
                );
                assert_eq!(battle.cg_bonus(&leads, unit), 1, "+1 CV while he stays");
            }
        }
        joined += u32::from(seen);
    }
    assert!(
        joined * 2 > n as u32,
        "the leading Captain-General joined a wing in {joined}/{n} battles"
    );
    // The observing Captain-General never joins.
    let mut battle = Battle::new(&plain);
    let cg = plain.captain_generals[1].unwrap();
    battle.reset(&plain, 1, &mut ecw_sim::events::NullObserver);
    let mut dice = ecw_sim::dice::StreamDice::default();
    dice.reseed(
        1,
        ecw_sim::rules::ironsides::battle::streams::BATTLE,
        Battle::dice_streams(&plain),
    );
    for _ in 0..4 {
        battle.turn += 1;
        battle.play_turn(
            &plain,
            &mut dice,
            &mut ecw_sim::doctrine::ParamAi,
            &mut ecw_sim::events::NullObserver,
        );
        assert_eq!(battle.commanders[usize::from(cg)].attached_command, None);
    }
}

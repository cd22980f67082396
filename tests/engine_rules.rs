//! The engine obeys the rules, checked event by event over thousands of seeded battles on every
//! built-in scenario: rally caps, reactions only after losses, charges only after passing both
//! dice, pursuit only by victorious horse, shots per turn, the melee dice cap, disintegration at
//! CV 0, initiative, and the end-of-battle rule.

use ecw_sim::army::UnitKind;
use ecw_sim::events::{Event, LossCause, Observer, Outcome, ReactionCause, ReactionResult};
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::rules::ironsides::fire;
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

/// Follows each unit's CV through the events and records every breach of a rule.
struct Referee<'a> {
    setup: &'a BattleSetup,
    turn: u16,
    start: Vec<u8>,
    cv: Vec<u8>,
    lowest: Vec<u8>,
    rallied: Vec<u8>,
    shots: Vec<u8>,
    fire_loss_turn: Vec<u16>,
    passed_to_charge: Vec<u16>,
    declared: Vec<u16>,
    won_melee: Vec<bool>,
    in_melee: Vec<u16>,
    gone: Vec<bool>,
    broken_sides: [bool; 2],
    breaches: Vec<String>,
}

impl<'a> Referee<'a> {
    fn new(setup: &'a BattleSetup) -> Self {
        let n = setup.units.len();
        let start: Vec<u8> = setup.units.iter().map(|u| u.start_cv).collect();
        Referee {
            setup,
            turn: 0,
            cv: start.clone(),
            lowest: start.clone(),
            start,
            rallied: vec![0; n],
            shots: vec![0; n],
            fire_loss_turn: vec![0; n],
            passed_to_charge: vec![0; n],
            declared: vec![0; n],
            won_melee: vec![false; n],
            in_melee: vec![0; n],
            gone: vec![false; n],
            broken_sides: [false; 2],
            breaches: vec![],
        }
    }
    fn breach(&mut self, what: String) {
        if self.breaches.len() < 20 {
            self.breaches.push(format!("turn {}: {what}", self.turn));
        }
    }
}

impl Observer for Referee<'_> {
    fn event(&mut self, e: &Event) {
        let rules = &*self.setup.rules;
        match *e {
            Event::RatingRolled { unit, cv } => {
                let u = usize::from(unit);
                (self.start[u], self.cv[u], self.lowest[u]) = (cv, cv, cv);
            }
            Event::TurnStarted { turn } => {
                self.turn = turn;
                self.rallied.iter_mut().for_each(|r| *r = 0);
                self.shots.iter_mut().for_each(|s| *s = 0);
            }
            Event::Initiative { first, rolls, .. } => {
                let p_first = rolls[0] > rolls[1];
                if rolls[0] == rolls[1] || p_first != (first == ecw_sim::army::Side::Parliament) {
                    self.breach(format!("initiative {rolls:?} gave {first}"));
                }
            }
            Event::CvLost {
                unit,
                amount,
                cause,
                cv,
            } => {
                let u = usize::from(unit);
                if self.cv[u].saturating_sub(amount) != cv {
                    self.breach(format!(
                        "unit {unit} lost {amount} from {} to {cv}",
                        self.cv[u]
                    ));
                }
                self.cv[u] = cv;
                self.lowest[u] = self.lowest[u].min(cv);
                if cause == LossCause::Fire {
                    self.fire_loss_turn[u] = self.turn;
                }
            }
            Event::CvGained { unit, cv, .. } => {
                let u = usize::from(unit);
                self.cv[u] = cv;
                if cv > self.start[u] {
                    self.breach(format!(
                        "unit {unit} gained to CV {cv} above its start {}",
                        self.start[u]
                    ));
                }
            }
            Event::Rally {
                unit, success, cv, ..
            } => {
                let u = usize::from(unit);
                if success {
                    self.rallied[u] += 1;
                    let ceiling = self.start[u].min(self.lowest[u] + rules.rally.max_above_lowest);
                    if cv > ceiling || cv != self.cv[u] + 1 {
                        self.breach(format!(
                            "unit {unit} rallied from {} to {cv}, ceiling {ceiling}",
                            self.cv[u]
                        ));
                    }
                    if self.rallied[u] > rules.rally.max_per_turn {
                        self.breach(format!(
                            "unit {unit} rallied {} times in a turn",
                            self.rallied[u]
                        ));
                    }
                } else if cv != self.cv[u] {
                    self.breach(format!("unit {unit} failed a rally yet changed CV"));
                }
                self.cv[u] = cv;
            }
            Event::Reaction {
                unit,
                cause: ReactionCause::Fire,
                ..
            } if self.fire_loss_turn[usize::from(unit)] != self.turn => {
                self.breach(format!(
                    "unit {unit} tested reaction to fire without losing CV to fire this turn"
                ));
            }
            Event::Reaction {
                unit,
                cause: ReactionCause::ToCharge,
                result: ReactionResult::PassBoth,
                ..
            } => self.passed_to_charge[usize::from(unit)] = self.turn,
            Event::ChargeDeclared { unit, .. } => self.declared[usize::from(unit)] = self.turn,
            // Support and opportunity charges take no reaction test: 2 emergency-response dice.
            Event::SupportCharge {
                unit, successes, ..
            } if successes > 0 => {
                self.in_melee[usize::from(unit)] = self.turn;
                self.declared[usize::from(unit)] = 0;
            }
            Event::Fired { unit, .. } => {
                let u = usize::from(unit);
                self.shots[u] += 1;
                let kind = self.setup.units[u].kind;
                // Horse may add free pistol shots; every other firer has its shots per turn.
                let limit = fire::shots_per_turn(rules, &self.setup.units[u]);
                if !matches!(kind, UnitKind::Horse(_)) && self.shots[u] > limit {
                    self.breach(format!(
                        "unit {unit} fired {} times in a turn (limit {limit})",
                        self.shots[u]
                    ));
                }
            }
            Event::Melee {
                attacker,
                defender,
                attacker_dice,
                ..
            } => {
                let a = usize::from(attacker);
                self.in_melee[a] = self.turn;
                self.in_melee[usize::from(defender)] = self.turn;
                if self.gone[a] {
                    self.breach(format!("unit {attacker} fought after it was gone"));
                }
                // A charger fights only after passing both dice to close.
                if self.declared[a] == self.turn && self.passed_to_charge[a] != self.turn {
                    self.breach(format!(
                        "unit {attacker} charged home without passing its reaction to close"
                    ));
                }
                let cap = self.cv[a].max(1) * rules.close_combat.flank_rear_dice_multiplier;
                if attacker_dice > cap.max(8) {
                    self.breach(format!(
                        "unit {attacker} rolled {attacker_dice} dice at CV {}",
                        self.cv[a]
                    ));
                }
            }
            Event::MeleeResult {
                winner: Some(w), ..
            } => {
                // The winner, and the supporters of its side in that melee, are victorious.
                let side = self.setup.units[usize::from(w)].side;
                for u in 0..self.won_melee.len() {
                    if self.in_melee[u] == self.turn && self.setup.units[u].side == side {
                        self.won_melee[u] = true;
                    }
                }
                self.won_melee[usize::from(w)] = true;
            }
            // Pursuers fight what they meet at once, with no test to close.
            Event::PursuitContinued { unit, .. } => self.declared[usize::from(unit)] = 0,
            Event::PursuitStarted { unit, .. } => {
                let u = usize::from(unit);
                self.declared[u] = 0;
                if !matches!(self.setup.units[u].kind, UnitKind::Horse(_)) || !self.won_melee[u] {
                    self.breach(format!(
                        "unit {unit} pursued without being victorious horse"
                    ));
                }
            }
            Event::Disintegrated { unit } => {
                let u = usize::from(unit);
                if self.cv[u] != 0 {
                    self.breach(format!("unit {unit} disintegrated at CV {}", self.cv[u]));
                }
                self.gone[u] = true;
            }
            Event::LeftTable { unit } | Event::PursuitLost { unit, .. } => {
                self.gone[usize::from(unit)] = true
            }
            Event::ArmyBroken { side, lost, start } => {
                self.broken_sides[side.index()] = true;
                if f64::from(lost) < self.setup.break_fraction * f64::from(start)
                    && self.setup.units.iter().any(|u| u.side == side)
                {
                    // An army with units left breaks only at its threshold.
                    let left = self
                        .setup
                        .units
                        .iter()
                        .enumerate()
                        .any(|(i, u)| u.side == side && !self.gone[i]);
                    if left {
                        self.breach(format!("{side} broke at {lost} of {start}"));
                    }
                }
            }
            Event::BattleEnded { outcome, turn } => {
                let expect = match self.broken_sides {
                    [true, true] => Some(Outcome::Draw),
                    [true, false] => Some(Outcome::Won(ecw_sim::army::Side::Royalist)),
                    [false, true] => Some(Outcome::Won(ecw_sim::army::Side::Parliament)),
                    [false, false] => (turn == self.setup.turn_limit).then_some(Outcome::Draw),
                };
                if expect != Some(outcome) {
                    self.breach(format!(
                        "battle ended {outcome:?} in turn {turn} with broken sides {:?}",
                        self.broken_sides
                    ));
                }
            }
            _ => {}
        }
        // Every unit at CV 0 is gone by the next event that names it acting.
        if let Event::Moved { unit, .. }
        | Event::Fired { unit, .. }
        | Event::ChargeDeclared { unit, .. } = *e
        {
            let u = usize::from(unit);
            if self.gone[u] || self.cv[u] == 0 {
                self.breach(format!(
                    "unit {unit} acted at CV {} or after it was gone: {e:?}",
                    self.cv[u]
                ));
            }
        }
    }
}

#[test]
fn every_scenario_obeys_the_rules_event_by_event() {
    let n = if cfg!(debug_assertions) { 60 } else { 600 };
    for name in ecw_sim::scenario::builtin_names() {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut battle = Battle::new(&setup);
        let mut kinds = [0u32; 3];
        for i in 0..n {
            let mut r = Referee::new(&setup);
            let s = battle.fight(&setup, ecw_sim::dice::battle_seed(11, i), &mut r);
            assert!(
                r.breaches.is_empty(),
                "{name} battle {i}: {:#?}",
                r.breaches
            );
            kinds[match s.outcome {
                Outcome::Won(side) => side.index(),
                Outcome::Draw => 2,
            }] += 1;
        }
        eprintln!("{name}: outcomes {kinds:?}");
    }
}

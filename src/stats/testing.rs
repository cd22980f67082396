//! Test support: a small order of battle and a synthetic battle drawn from a seed, so the
//! statistics, the runner and the reports can be tested without the engine.

use crate::army::{CommandKind, Side};
use crate::dice::{DiceSource, SeededDice};
use crate::events::{Event, GeneralResult, LossCause, Observer, Outcome, ReactionResult};
use crate::stats::layout::{CommandInfo, CommanderInfo, Layout, UnitInfo};

/// Parliament: horse 0 (command 0, CV 4), foot 1 (command 1, CV 5). Royalist: horse 2
/// (command 2, CV 4 in the template, randomised) and foot 3 (command 2, CV 5).
pub(crate) fn layout() -> Layout {
    let unit = |name: &str, side, command, cavalry, start_cv, randomised| UnitInfo {
        name: name.into(),
        side,
        command,
        kind: if cavalry { "gallopers" } else { "foot" }.into(),
        cavalry,
        start_cv,
        randomised,
    };
    let command = |name: &str, side, kind, units: Vec<u16>| CommandInfo {
        name: name.into(),
        side,
        kind,
        units,
    };
    Layout {
        measures: Vec::new(),
        counter: None,
        scenario: "Test".into(),
        turn_limit: 12,
        cv_max: 6,
        currency: "cv".into(),
        units: vec![
            unit("P Horse", Side::Parliament, 0, true, 4, false),
            unit("P Foot", Side::Parliament, 1, false, 5, false),
            unit("R Horse", Side::Royalist, 2, true, 4, true),
            unit("R Foot", Side::Royalist, 2, false, 5, false),
        ],
        commands: vec![
            command("P wing", Side::Parliament, CommandKind::Horse, vec![0]),
            command("P centre", Side::Parliament, CommandKind::Foot, vec![1]),
            command("R army", Side::Royalist, CommandKind::Brigade, vec![2, 3]),
        ],
        commanders: vec![
            CommanderInfo {
                name: "Cromwell".into(),
                side: Side::Parliament,
                command: Some(0),
                captain_general: false,
            },
            CommanderInfo {
                name: "Rupert".into(),
                side: Side::Royalist,
                command: Some(2),
                captain_general: true,
            },
        ],
        commander_effects: crate::rules::ironsides::generals::commander_effects(),
    }
}

/// A battle between the units of [`layout`], every choice drawn from `seed`: the rating roll,
/// melees, routs, pursuits, a general's luck, the end. Returns the dice rolled.
pub(crate) fn fake_battle<O: Observer>(seed: u64, obs: &mut O) -> u64 {
    let mut d = SeededDice::new(seed);
    let rated = 2 + d.d6() / 2;
    obs.event(&Event::RatingRolled { unit: 2, cv: rated });
    let mut cv = [4u8, 5, rated, 5];
    let turns = 2 + u16::from(d.d6()) + u16::from(d.d6());
    let mut gone = [false; 4];
    for turn in 1..=turns.min(12) {
        obs.event(&Event::TurnStarted { turn });
        let (winner, loser) = if d.d6() <= 3 { (0u16, 2u16) } else { (2, 0) };
        if gone[usize::from(winner)] || gone[usize::from(loser)] {
            continue;
        }
        obs.event(&Event::MeleeResult {
            winner: Some(winner),
            loser: Some(loser),
            result: ReactionResult::FailBoth,
        });
        let l = usize::from(loser);
        let amount = (d.d6() / 3).min(cv[l]);
        cv[l] -= amount;
        obs.event(&Event::CvLost {
            unit: loser,
            amount,
            cause: LossCause::Melee,
            cv: cv[l],
        });
        if cv[l] == 0 {
            gone[l] = true;
            obs.event(&Event::Disintegrated { unit: loser });
        } else if d.d6() >= 5 && rout_and_pursue(&mut d, obs, winner, loser, &mut gone) {
            continue; // the winner halted at once: the turn ends there
        }
        if d.d6() == 6 {
            general_luck(&mut d, obs);
        }
    }
    let lost = |units: [usize; 2]| -> u32 {
        units
            .iter()
            .map(|&u| u32::from(if gone[u] { 5 } else { 5 - cv[u].min(5) }))
            .sum()
    };
    let (p, r) = (lost([0, 1]), lost([2, 3]));
    let outcome = match p.cmp(&r) {
        std::cmp::Ordering::Less => Outcome::Won(Side::Parliament),
        std::cmp::Ordering::Greater => Outcome::Won(Side::Royalist),
        std::cmp::Ordering::Equal => Outcome::Draw,
    };
    if let Outcome::Won(w) = outcome {
        obs.event(&Event::ArmyBroken {
            side: w.other(),
            lost: p.max(r),
            start: 18,
        });
    }
    obs.event(&Event::BattleEnded {
        outcome,
        turn: turns.min(12),
    });
    d.rolled()
}

/// The loser of a fake melee routs; the winner may pursue, and may be lost in pursuit. True
/// when the winner halts at once.
fn rout_and_pursue<O: Observer>(
    d: &mut SeededDice,
    obs: &mut O,
    winner: u16,
    loser: u16,
    gone: &mut [bool; 4],
) -> bool {
    obs.event(&Event::Rout {
        unit: loser,
        distance: 10.0,
    });
    if d.d6() <= 2 {
        obs.event(&Event::PursuitHalted {
            unit: winner,
            turns: 0,
        });
        return true;
    }
    obs.event(&Event::PursuitStarted {
        unit: winner,
        target: loser,
    });
    match d.d6() {
        1 | 2 => obs.event(&Event::PursuitHalted {
            unit: winner,
            turns: 1,
        }),
        3 => {
            obs.event(&Event::PursuitContinued {
                unit: winner,
                turns: 2,
            });
            obs.event(&Event::PursuitLost {
                unit: winner,
                turns: 2,
            });
            gone[usize::from(winner)] = true;
        }
        _ => {}
    }
    false
}

/// A fake general's luck: the result and whether he is taken.
fn general_luck<O: Observer>(d: &mut SeededDice, obs: &mut O) {
    let result = match d.d6() {
        1 => GeneralResult::HorribleDeath,
        2 => GeneralResult::HorseStampedes,
        3 => GeneralResult::Hurt,
        _ => GeneralResult::Unhurt,
    };
    obs.event(&Event::GeneralCasualty {
        general: u16::from(d.d6() % 2),
        result,
        captured: d.d6() == 1,
    });
}

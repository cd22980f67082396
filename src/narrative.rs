//! The replay narrative: one battle told turn by turn from its event stream, with names, dice
//! and each unit's CV path at the end; or the same events as tidy CSV.

use std::fmt::Write as _;

use crate::army::Side;
use crate::events::{Event, GeneralResult, Observer, Outcome, ReactionResult};
use crate::setup::BattleSetup;

/// Collects a battle's events (replays are single battles: allocation is fine here).
#[derive(Debug, Default, Clone)]
pub struct Recorder {
    pub events: Vec<(u16, Event)>,
    turn: u16,
}

impl Observer for Recorder {
    fn event(&mut self, e: &Event) {
        if let Event::TurnStarted { turn } = e {
            self.turn = *turn;
        }
        self.events.push((self.turn, *e));
    }
}

fn result_words(r: ReactionResult) -> &'static str {
    match r {
        ReactionResult::PassBoth => "passes both",
        ReactionResult::PassOne => "passes one",
        ReactionResult::FailBoth => "fails both",
        ReactionResult::Rout => "throws double six: rout",
    }
}

fn general_words(r: GeneralResult) -> &'static str {
    match r {
        GeneralResult::HorribleDeath => "horrible death",
        GeneralResult::MortalWound => "mortal wound",
        GeneralResult::GravelyWounded => "gravely wounded, carried to the rear",
        GeneralResult::Hurt => "hurt",
        GeneralResult::Unhurt => "bloodied but unbowed",
        GeneralResult::Saved => "saved by a miracle",
        GeneralResult::HorseFalls => "his dying horse falls on him",
        GeneralResult::HorseStampedes => "his horse stampedes",
        GeneralResult::HorseDies => "his horse dies",
        GeneralResult::HorseBleeds => "his horse bleeds on; he poses heroically",
        GeneralResult::Lost => "lost",
    }
}

/// One event as a line of the story; `None` for events too small to tell (a general or a unit
/// standing still).
pub fn event_line(setup: &BattleSetup, e: Event) -> Option<String> {
    let u = |id: u16| setup.unit_name(id);
    let g = |id: u16| setup.commander_name(id);
    let line = match e {
        Event::RatingRolled { unit, cv } => format!("{} rated CV {cv}", u(unit)),
        Event::TurnStarted { turn } => format!("\n== Turn {turn} =="),
        Event::Initiative { first, rolls, .. } => format!(
            "Initiative: Parliament {} v Royalists {}; {first} moves first",
            rolls[0], rolls[1]
        ),
        Event::GeneralMoved {
            general,
            distance,
            attached_to,
        } if distance > 0.0 || attached_to.is_some() => match attached_to {
            Some(t) => format!("{} rides {distance:.0}\" to lead {}", g(general), u(t)),
            None => format!("{} rides {distance:.0}\"", g(general)),
        },
        Event::GeneralMoved { .. } => return None,
        Event::LpsRolled { general, roll, lps } => {
            format!("{} rolls {roll}: {lps} LPs", g(general))
        }
        Event::LpsGiven { from, to, lps } => {
            format!("{} gives {lps} LPs to {}", g(from), g(to))
        }
        Event::Rally {
            unit,
            roll,
            success,
            cv,
        } => format!(
            "{} rallies: rolls {roll}, {} (CV {cv})",
            u(unit),
            if success { "regains a CV" } else { "fails" }
        ),
        Event::Moved {
            unit,
            from,
            to,
            disordered,
        } => {
            let d = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
            if d < 0.05 {
                return None;
            }
            format!(
                "{} moves {d:.1}\" to ({:.0}, {:.0}){}",
                u(unit),
                to.0,
                to.1,
                if disordered { ", disordered" } else { "" }
            )
        }
        Event::FormationChanged { unit } => format!("{} changes formation", u(unit)),
        Event::Unlimbered { unit } => format!("{} unlimbers: the drivers go home", u(unit)),
        Event::Fired {
            unit,
            target,
            range,
            roll,
            needed,
            hit,
        } => format!(
            "{} fires at {} at {range:.1}\": rolls {roll}, needs {needed} or less: {}",
            u(unit),
            u(target),
            if hit { "hit" } else { "miss" }
        ),
        Event::CvLost {
            unit,
            amount,
            cause,
            cv,
        } => format!("{} loses {amount} CV ({cause:?}): CV {cv}", u(unit)),
        Event::CvGained { unit, amount, cv } => {
            format!("{} gains {amount} CV: CV {cv}", u(unit))
        }
        Event::Reaction {
            unit,
            cause,
            dice,
            result,
            rerolls_used,
        } => {
            let rr = if rerolls_used > 0 {
                format!(" after {rerolls_used} re-roll(s)")
            } else {
                String::new()
            };
            format!(
                "{} tests reaction ({cause:?}): {} and {}{rr}: {}",
                u(unit),
                dice[0],
                dice[1],
                result_words(result)
            )
        }
        Event::ChargeDeclared {
            unit,
            target,
            standoff,
        } => format!(
            "{} charges {}; the target stands off at {standoff:.0}\"",
            u(unit),
            u(target)
        ),
        Event::ChargeFailed { unit, target } => {
            format!("{} does not close with {}", u(unit), u(target))
        }
        Event::EmergencyResponse { unit, chosen, .. } => {
            format!("{} responds: {chosen:?}", u(unit))
        }
        Event::SupportCharge {
            unit,
            target,
            successes,
        } => format!(
            "{} tries a support/opportunity charge at {}: {successes} success(es)",
            u(unit),
            u(target)
        ),
        Event::Melee {
            attacker,
            defender,
            attacker_dice,
            defender_dice,
            attacker_hits,
            defender_hits,
            flank,
        } => format!(
            "MELEE{}: {} ({attacker_dice} dice, {attacker_hits} hits) v {} ({defender_dice} dice, {defender_hits} hits)",
            if flank { " (flank)" } else { "" },
            u(attacker),
            u(defender)
        ),
        Event::MeleeResult {
            winner: Some(w),
            loser: Some(l),
            result,
        } => format!("{} wins; {} {}", u(w), u(l), result_words(result)),
        Event::MeleeResult { .. } => "Equal losses: both stay locked in combat".to_string(),
        Event::FootBroke { unit } => format!("{} breaks before the horse", u(unit)),
        Event::Recovered { unit } => format!("{} is no longer broken", u(unit)),
        Event::Arrived { unit, turn } => format!("{} arrives on the field (turn {turn})", u(unit)),
        Event::Released { command, turn } => format!(
            "{} is released from reserve (turn {turn})",
            setup.command_name(command)
        ),
        Event::Retreat { unit, distance } => format!("{} retreats {distance:.0}\"", u(unit)),
        Event::Rout { unit, distance } => format!("{} ROUTS {distance:.0}\"", u(unit)),
        Event::Disintegrated { unit } => format!("{} disintegrates (CV 0)", u(unit)),
        Event::LeftTable { unit } => format!("{} leaves the table", u(unit)),
        Event::PursuitStarted { unit, target } => {
            format!("{} hares off in pursuit of {}", u(unit), u(target))
        }
        Event::PursuitHalted { unit, turns } => format!(
            "{} halts{}",
            u(unit),
            if turns == 0 {
                " instead of pursuing".to_string()
            } else {
                format!(" after {turns} turn(s) of pursuit")
            }
        ),
        Event::PursuitContinued { unit, turns } => {
            format!("{} pursues on (turn {turns})", u(unit))
        }
        Event::PursuitLost { unit, .. } => format!("{} is lost to the pursuit", u(unit)),
        Event::GeneralCasualty {
            general,
            result,
            captured,
        } => format!(
            "{} is hit: {}{}",
            g(general),
            general_words(result),
            if captured { "; captured" } else { "" }
        ),
        Event::GeneralReplaced { general } => {
            format!("A replacement takes up the post of {}", g(general))
        }
        Event::CampCaptured { camp_side, by } => {
            format!("{} takes the {camp_side} camp", u(by))
        }
        Event::ArmyBroken { side, lost, start } => {
            format!("The {side} army breaks: {lost} of {start} CV lost")
        }
        Event::BattleEnded { outcome, turn } => match outcome {
            Outcome::Won(s) => format!(
                "\nResult: {} victory in turn {turn}",
                if s == Side::Parliament {
                    "Parliamentarian"
                } else {
                    "Royalist"
                }
            ),
            Outcome::Draw => format!("\nResult: a draw in turn {turn}"),
        },
        Event::BlackPowder(d) => format!("{}: {d}", u(d.unit())),
    };
    Some(line)
}

/// A melee result where a side was destroyed: a unit at CV 0 takes no test and wins nothing.
fn destroyed_result(setup: &BattleSetup, w: u16, l: u16, gone: impl Fn(u16) -> bool) -> String {
    let u = |id: u16| setup.unit_name(id);
    match (gone(w), gone(l)) {
        (true, true) => format!("{} and {} are both destroyed", u(w), u(l)),
        (true, false) => format!("{} is destroyed; {} holds the field", u(w), u(l)),
        _ => format!("{} wins; {} is destroyed", u(w), u(l)),
    }
}

/// The story of a battle in plain text.
pub fn narrate(setup: &BattleSetup, rec: &Recorder) -> String {
    let mut out = String::new();
    let mut cv_path: Vec<Vec<u8>> = setup.units.iter().map(|u| vec![u.start_cv]).collect();
    let mut last_turn = 0;
    for &(turn, e) in &rec.events {
        if turn != last_turn {
            // Close the previous turn's CV path.
            for (i, path) in cv_path.iter_mut().enumerate() {
                let _ = i;
                let last = *path.last().unwrap_or(&0);
                path.push(last);
            }
            last_turn = turn;
        }
        if let Event::RatingRolled { unit, cv } = e {
            cv_path[usize::from(unit)] = vec![cv];
        }
        let line = match e {
            Event::MeleeResult {
                winner: Some(w),
                loser: Some(l),
                ..
            } if [w, l]
                .iter()
                .any(|&x| cv_path[usize::from(x)].last() == Some(&0)) =>
            {
                destroyed_result(setup, w, l, |x| cv_path[usize::from(x)].last() == Some(&0))
            }
            _ => match event_line(setup, e) {
                Some(line) => line,
                None => continue,
            },
        };
        if let Event::CvLost { unit, cv, .. }
        | Event::CvGained { unit, cv, .. }
        | Event::Rally { unit, cv, .. } = e
            && let Some(last) = cv_path[usize::from(unit)].last_mut()
        {
            *last = cv;
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\nCV by turn (start, then each turn's end):");
    for (i, path) in cv_path.iter().enumerate() {
        let p: Vec<String> = path.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(out, "  {:<40} {}", setup.unit_name(i as u16), p.join(" "));
    }
    out
}

/// The event stream as tidy CSV: one event a row.
pub fn events_csv(setup: &BattleSetup, rec: &Recorder) -> String {
    let mut out = String::from("seq,turn,event,unit,unit_name,other,other_name,value,cv,detail\n");
    let name = |id: Option<u16>| {
        id.map(|i| setup.unit_name(i).replace(',', ";"))
            .unwrap_or_default()
    };
    for (seq, &(turn, e)) in rec.events.iter().enumerate() {
        let (kind, unit, other, value, cv, detail): (
            &str,
            Option<u16>,
            Option<u16>,
            String,
            String,
            String,
        ) = match e {
            Event::RatingRolled { unit, cv } => (
                "rating_rolled",
                Some(unit),
                None,
                String::new(),
                cv.to_string(),
                String::new(),
            ),
            Event::TurnStarted { .. } => (
                "turn_started",
                None,
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::Initiative { first, rolls, .. } => (
                "initiative",
                None,
                None,
                format!("{}-{}", rolls[0], rolls[1]),
                String::new(),
                first.to_string(),
            ),
            Event::GeneralMoved {
                general,
                distance,
                attached_to,
            } => (
                "general_moved",
                attached_to,
                None,
                format!("{distance:.2}"),
                String::new(),
                format!("general={}", general),
            ),
            Event::LpsRolled { general, roll, lps } => (
                "lps_rolled",
                None,
                None,
                lps.to_string(),
                String::new(),
                format!("general={general};roll={roll}"),
            ),
            Event::LpsGiven { from, to, lps } => (
                "lps_given",
                None,
                None,
                lps.to_string(),
                String::new(),
                format!("from={from};to={to}"),
            ),
            Event::Rally {
                unit,
                roll,
                success,
                cv,
            } => (
                "rally",
                Some(unit),
                None,
                roll.to_string(),
                cv.to_string(),
                success.to_string(),
            ),
            Event::Moved {
                unit,
                from,
                to,
                disordered,
            } => (
                "moved",
                Some(unit),
                None,
                format!(
                    "{:.2}",
                    ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt()
                ),
                String::new(),
                format!("to={:.2};{:.2};disordered={disordered}", to.0, to.1),
            ),
            Event::FormationChanged { unit } => (
                "formation_changed",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::Unlimbered { unit } => (
                "unlimbered",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::Fired {
                unit,
                target,
                range,
                roll,
                needed,
                hit,
            } => (
                "fired",
                Some(unit),
                Some(target),
                roll.to_string(),
                String::new(),
                format!("range={range:.2};needed={needed};hit={hit}"),
            ),
            Event::CvLost {
                unit,
                amount,
                cause,
                cv,
            } => (
                "cv_lost",
                Some(unit),
                None,
                amount.to_string(),
                cv.to_string(),
                format!("{cause:?}"),
            ),
            Event::CvGained { unit, amount, cv } => (
                "cv_gained",
                Some(unit),
                None,
                amount.to_string(),
                cv.to_string(),
                String::new(),
            ),
            Event::Reaction {
                unit,
                cause,
                dice,
                result,
                rerolls_used,
            } => (
                "reaction",
                Some(unit),
                None,
                format!("{}-{}", dice[0], dice[1]),
                String::new(),
                format!("{cause:?};{result:?};rerolls={rerolls_used}"),
            ),
            Event::ChargeDeclared {
                unit,
                target,
                standoff,
            } => (
                "charge_declared",
                Some(unit),
                Some(target),
                format!("{standoff:.1}"),
                String::new(),
                String::new(),
            ),
            Event::ChargeFailed { unit, target } => (
                "charge_failed",
                Some(unit),
                Some(target),
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::EmergencyResponse {
                unit,
                dice,
                successes,
                chosen,
            } => (
                "emergency_response",
                Some(unit),
                None,
                successes.to_string(),
                String::new(),
                format!("{chosen:?};dice={dice}"),
            ),
            Event::SupportCharge {
                unit,
                target,
                successes,
            } => (
                "support_charge",
                Some(unit),
                Some(target),
                successes.to_string(),
                String::new(),
                String::new(),
            ),
            Event::Melee {
                attacker,
                defender,
                attacker_dice,
                defender_dice,
                attacker_hits,
                defender_hits,
                flank,
            } => (
                "melee",
                Some(attacker),
                Some(defender),
                format!("{attacker_hits}-{defender_hits}"),
                String::new(),
                format!("dice={attacker_dice}-{defender_dice};flank={flank}"),
            ),
            Event::MeleeResult {
                winner,
                loser,
                result,
            } => (
                "melee_result",
                winner,
                loser,
                String::new(),
                String::new(),
                format!("{result:?}"),
            ),
            Event::Arrived { unit, turn } => (
                "arrived",
                Some(unit),
                None,
                turn.to_string(),
                String::new(),
                String::new(),
            ),
            Event::Released { command, turn } => (
                "released",
                None,
                None,
                turn.to_string(),
                String::new(),
                setup.command_name(command).to_string(),
            ),
            Event::Recovered { unit } => (
                "recovered",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::FootBroke { unit } => (
                "foot_broke",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::Retreat { unit, distance } => (
                "retreat",
                Some(unit),
                None,
                format!("{distance:.1}"),
                String::new(),
                String::new(),
            ),
            Event::Rout { unit, distance } => (
                "rout",
                Some(unit),
                None,
                format!("{distance:.1}"),
                String::new(),
                String::new(),
            ),
            Event::Disintegrated { unit } => (
                "disintegrated",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::LeftTable { unit } => (
                "left_table",
                Some(unit),
                None,
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::PursuitStarted { unit, target } => (
                "pursuit_started",
                Some(unit),
                Some(target),
                String::new(),
                String::new(),
                String::new(),
            ),
            Event::PursuitHalted { unit, turns } => (
                "pursuit_halted",
                Some(unit),
                None,
                turns.to_string(),
                String::new(),
                String::new(),
            ),
            Event::PursuitContinued { unit, turns } => (
                "pursuit_continued",
                Some(unit),
                None,
                turns.to_string(),
                String::new(),
                String::new(),
            ),
            Event::PursuitLost { unit, turns } => (
                "pursuit_lost",
                Some(unit),
                None,
                turns.to_string(),
                String::new(),
                String::new(),
            ),
            Event::GeneralCasualty {
                general,
                result,
                captured,
            } => (
                "general_casualty",
                None,
                None,
                String::new(),
                String::new(),
                format!("general={general};{result:?};captured={captured}"),
            ),
            Event::GeneralReplaced { general } => (
                "general_replaced",
                None,
                None,
                String::new(),
                String::new(),
                format!("general={general}"),
            ),
            Event::CampCaptured { camp_side, by } => (
                "camp_captured",
                Some(by),
                None,
                String::new(),
                String::new(),
                camp_side.to_string(),
            ),
            Event::ArmyBroken { side, lost, start } => (
                "army_broken",
                None,
                None,
                lost.to_string(),
                String::new(),
                format!("{side};start={start}"),
            ),
            Event::BattleEnded { outcome, turn } => (
                "battle_ended",
                None,
                None,
                turn.to_string(),
                String::new(),
                match outcome {
                    Outcome::Won(s) => format!("{s}_won"),
                    Outcome::Draw => "draw".into(),
                },
            ),
            Event::BlackPowder(d) => (
                d.kind(),
                Some(d.unit()),
                d.other(),
                String::new(),
                String::new(),
                d.to_string().replace(',', ";"),
            ),
        };
        let _ = writeln!(
            out,
            "{seq},{turn},{kind},{},{},{},{},{value},{cv},{detail}",
            unit.map(|u| u.to_string()).unwrap_or_default(),
            name(unit),
            other.map(|u| u.to_string()).unwrap_or_default(),
            name(other)
        );
    }
    out
}

//! The replay narrative: one battle told turn by turn from its event stream, with names, dice
//! and each unit's CV path at the end; or the same events as tidy CSV.
//!
//! One table, [`tell`], says what each event is in words: its CSV fields and its line of the
//! story. The narrative and the CSV only lay out what it says. Strength and losses are told in
//! the ruleset's [`Currency`]: CV, figures or casualties against stamina.

use std::fmt::{Display, Write as _};

use crate::army::{Side, Unit, UnitId};
use crate::events::{
    Event, GeneralResult, LossCause, Observer, Outcome, ReactionCause, ReactionResult, Response,
    plural,
};
use crate::rules::black_powder::events::{Detail as BpDetail, broken_words};
use crate::rules::dickenson::events::Detail as DkDetail;
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

fn cause_words(c: ReactionCause) -> &'static str {
    match c {
        ReactionCause::Fire => "fire",
        ReactionCause::ToCharge => "to charge",
        ReactionCause::Charged => "charged",
        ReactionCause::RoutPassed => "a rout passed",
        ReactionCause::MeleeLost => "melee lost",
        ReactionCause::CampAttacked => "camp attacked",
        ReactionCause::FlankAttackWhileEngaged => "attacked in flank while engaged",
    }
}

/// Why a unit lost strength, in the story's words (the CSV keeps the code's name).
fn loss_words(c: LossCause) -> &'static str {
    match c {
        LossCause::Fire => "by fire",
        LossCause::Melee => "in melee",
        LossCause::Pursuit => "in pursuit",
        LossCause::GeneralCasualty => "its general fallen",
        LossCause::CampLost => "its camp taken",
        LossCause::GeneralLeft => "its general gone",
    }
}

fn response_words(r: Response) -> &'static str {
    match r {
        Response::ChangeFacing => "changes facing",
        Response::ChangeFormation => "changes formation",
        Response::FormUp => "forms up",
        Response::Fire => "fires",
        Response::Limber => "limbers",
        Response::Evade => "evades",
        Response::Countercharge => "countercharges",
    }
}

/// `n` of a thing, one or many: "1 die", "2 dice".
fn counted(n: impl Into<u64>, one: &'static str, many: &'static str) -> String {
    let n = n.into();
    format!("{n} {}", plural(n, one, many))
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

/// The unit a replay counts strength and losses in: its ruleset's currency
/// ([`crate::rules::Ruleset::currency`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Currency {
    /// Ironsides: combat value.
    Cv,
    /// Black Powder: casualties taken against a regiment's stamina.
    Casualties,
    /// Dickenson: figures, rank and file.
    Figures,
}

impl Currency {
    /// The currency of a ruleset's key (`cv`, `casualties`, `figures`); `None` for another.
    pub fn of(key: &str) -> Option<Currency> {
        match key {
            "cv" => Some(Currency::Cv),
            "casualties" => Some(Currency::Casualties),
            "figures" => Some(Currency::Figures),
            _ => None,
        }
    }

    /// The currency of the ruleset a name picks.
    pub fn of_ruleset(name: &str) -> crate::error::Result<Currency> {
        let key = crate::rules::currency(name)?;
        // Every ruleset's key is one of the three: a new one must be given its words here.
        Ok(Currency::of(key).unwrap_or(Currency::Cv))
    }

    /// The CSV column of a unit's strength after an event.
    pub fn column(self) -> &'static str {
        match self {
            Currency::Cv => "cv",
            Currency::Casualties => "stamina",
            Currency::Figures => "figures",
        }
    }

    /// The CSV kinds of a loss and a gain.
    fn kinds(self) -> (&'static str, &'static str) {
        match self {
            Currency::Cv => ("cv_lost", "cv_gained"),
            Currency::Casualties => ("casualties_lost", "casualties_recovered"),
            Currency::Figures => ("figures_lost", "figures_gained"),
        }
    }

    /// A loss of `n` as the story tells it.
    fn lost(self, n: u8) -> String {
        match self {
            Currency::Cv => format!("loses {n} CV"),
            Currency::Casualties => format!("takes {n} {}", plural(n, "casualty", "casualties")),
            Currency::Figures => format!("loses {n} {}", plural(n, "figure", "figures")),
        }
    }

    /// A gain of `n` as the story tells it.
    fn gained(self, n: u8) -> String {
        match self {
            Currency::Cv => format!("gains {n} CV"),
            Currency::Casualties => {
                format!("recovers {n} {}", plural(n, "casualty", "casualties"))
            }
            Currency::Figures => format!("regains {n} {}", plural(n, "figure", "figures")),
        }
    }

    /// A unit's strength `v` as the story tells it.
    fn left(self, v: u8) -> String {
        match self {
            Currency::Cv => format!("CV {v}"),
            Currency::Casualties => format!("{v} stamina left"),
            Currency::Figures => format!("{v} figures left"),
        }
    }

    /// How a unit leaves the battle: Ironsides' at CV 0; Black Powder's when broken, whatever
    /// stamina it has left; Dickenson's with no figures, or its gun destroyed.
    fn gone(self) -> &'static str {
        match self {
            Currency::Cv => "disintegrates (CV 0)",
            Currency::Casualties => "is broken and leaves the field",
            Currency::Figures => "is gone from the field",
        }
    }

    /// What a successful rally wins.
    fn rallied(self) -> &'static str {
        match self {
            Currency::Cv => "regains a CV",
            Currency::Casualties => "recovers",
            Currency::Figures => "succeeds",
        }
    }

    /// A melee loser's result in its ruleset's own words: the shared event carries Ironsides'
    /// reaction results, onto which Black Powder's break test and Dickenson's chart are mapped.
    fn loser_result(self, r: ReactionResult) -> &'static str {
        match (self, r) {
            (Currency::Cv, r) => result_words(r),
            (Currency::Casualties, ReactionResult::Rout) => "is broken",
            (Currency::Casualties, ReactionResult::FailBoth) => "retires",
            (Currency::Casualties, _) => "holds, giving ground",
            (Currency::Figures, ReactionResult::PassBoth) => "throws good and holds",
            (Currency::Figures, ReactionResult::PassOne) => "stands, disordered",
            (Currency::Figures, ReactionResult::FailBoth) => "falls back",
            (Currency::Figures, ReactionResult::Rout) => "routs",
        }
    }

    /// What a broken army's `lost` and `start` count (Dickenson breaks on morale points).
    fn army(self) -> &'static str {
        match self {
            Currency::Cv => "CV",
            Currency::Casualties => "stamina",
            Currency::Figures => "morale points",
        }
    }

    /// What the paths at the end of the story and the numbers on the replay page count.
    pub fn strength(self) -> &'static str {
        match self {
            Currency::Cv => "CV",
            Currency::Casualties => "stamina left",
            Currency::Figures => "figures left",
        }
    }

    /// [`Currency::strength`] at the start of a line.
    fn strength_heading(self) -> String {
        let s = self.strength();
        s[..1].to_uppercase() + &s[1..]
    }
}

/// An event in words: its CSV fields and its line of the story (`None` for events too small
/// to tell: a general or a unit standing still).
#[derive(Debug, Clone, PartialEq)]
pub struct Told {
    pub kind: &'static str,
    pub unit: Option<UnitId>,
    pub other: Option<UnitId>,
    pub value: String,
    pub cv: String,
    pub detail: String,
    pub line: Option<String>,
}

impl Told {
    fn new(kind: &'static str, unit: Option<UnitId>, other: Option<UnitId>) -> Told {
        Told {
            kind,
            unit,
            other,
            value: String::new(),
            cv: String::new(),
            detail: String::new(),
            line: None,
        }
    }
    fn value(mut self, v: impl Display) -> Told {
        self.value = v.to_string();
        self
    }
    fn cv(mut self, v: impl Display) -> Told {
        self.cv = v.to_string();
        self
    }
    fn detail(mut self, v: impl Display) -> Told {
        self.detail = v.to_string();
        self
    }
    fn line(mut self, l: String) -> Told {
        self.line = Some(l);
        self
    }
}

/// A unit as the story names it: its name, and its side where another unit bears the same
/// name (each side's "right wing" musketeers, a mirror battle's armies).
struct Label<'a>(&'a str, Option<Side>);

impl Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Padded as a whole (the strength table's column).
        match self.1 {
            Some(Side::Parliament) => f.pad(&format!("{} of Parliament", self.0)),
            Some(Side::Royalist) => f.pad(&format!("{} of the Royalists", self.0)),
            None => f.pad(self.0),
        }
    }
}

/// Unit `id` as the story names it.
fn label(setup: &BattleSetup, id: UnitId) -> Label<'_> {
    let name = setup.unit_name(id);
    let shared = setup
        .units
        .iter()
        .any(|u| u.id != id && setup.unit_name(u.id) == name);
    let side = setup.units.get(usize::from(id)).map(|u| u.side);
    Label(name, side.filter(|_| shared))
}

/// The battle's names for units and generals, its currency, and how many times each general
/// has been replaced so far (empty when the teller does not follow the battle).
struct Names<'a>(&'a BattleSetup, Currency, &'a [u8]);

impl Names<'_> {
    fn u(&self, id: UnitId) -> Label<'_> {
        label(self.0, id)
    }
    fn g(&self, id: u16) -> General<'_> {
        General(
            self.0.commander_name(id),
            self.2.get(usize::from(id)).copied().unwrap_or(0),
        )
    }
}

/// A general as the story names him: a replacement is not the man whose post he took.
struct General<'a>(&'a str, u8);

impl Display for General<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nth = ["", "", "second ", "third "];
        match self.1 {
            0 => f.pad(self.0),
            n @ 1..=3 => f.pad(&format!("{}'s {}successor", self.0, nth[usize::from(n)])),
            n => f.pad(&format!("{}'s successor no. {n}", self.0)),
        }
    }
}

/// What an event is, in words: the one table behind the narrative and the CSV. Each family of
/// events is told by its own function; this match names every event, so a new one must be
/// given its words before anything compiles.
pub fn tell(setup: &BattleSetup, currency: Currency, e: Event) -> Told {
    tell_named(&Names(setup, currency, &[]), e)
}

fn tell_named(n: &Names, e: Event) -> Told {
    match e {
        Event::RatingRolled { .. }
        | Event::TurnStarted { .. }
        | Event::Initiative { .. }
        | Event::GeneralMoved { .. }
        | Event::LpsRolled { .. }
        | Event::LpsGiven { .. }
        | Event::Arrived { .. }
        | Event::Released { .. } => tell_command(n, e),
        Event::Moved { .. }
        | Event::FormationChanged { .. }
        | Event::Unlimbered { .. }
        | Event::Retreat { .. }
        | Event::Rout { .. }
        | Event::Disintegrated { .. }
        | Event::LeftTable { .. } => tell_movement(n, e),
        Event::Fired { .. } | Event::CvLost { .. } | Event::CvGained { .. } => tell_losses(n, e),
        Event::Rally { .. }
        | Event::Remanned { .. }
        | Event::GunAbandoned { .. }
        | Event::Reaction { .. }
        | Event::Recovered { .. }
        | Event::FootBroke { .. } => tell_morale(n, e),
        Event::ChargeDeclared { .. }
        | Event::ChargeFailed { .. }
        | Event::EmergencyResponse { .. }
        | Event::SupportCharge { .. } => tell_charge(n, e),
        Event::Melee { .. } | Event::Supported { .. } | Event::MeleeResult { .. } => {
            tell_melee(n, e)
        }
        Event::PursuitStarted { .. }
        | Event::PursuitHalted { .. }
        | Event::PursuitContinued { .. }
        | Event::PursuitLost { .. }
        | Event::CampCaptured { .. } => tell_pursuit(n, e),
        Event::GeneralCasualty { .. }
        | Event::GeneralReplaced { .. }
        | Event::ArmyBroken { .. }
        | Event::BattleEnded { .. } => tell_end(n, e),
        Event::BlackPowder(d) => tell_black_powder(n, d),
        Event::Dickenson(d) => tell_dickenson(n, d),
    }
}

/// Ratings, turns, initiative, generals and their LPs, arrivals and reserves.
fn tell_command(n: &Names, e: Event) -> Told {
    match e {
        Event::RatingRolled { unit, cv } => Told::new("rating_rolled", Some(unit), None)
            .cv(cv)
            .line(format!("{} rated {}", n.u(unit), n.1.left(cv))),
        Event::TurnStarted { turn } => {
            Told::new("turn_started", None, None).line(format!("\n== Turn {turn} =="))
        }
        Event::Initiative { first, rolls, .. } => Told::new("initiative", None, None)
            .value(format_args!("{}-{}", rolls[0], rolls[1]))
            .detail(first)
            .line(format!(
                "Initiative: Parliament {} v Royalists {}; {first} moves first",
                rolls[0], rolls[1]
            )),
        Event::GeneralMoved {
            general,
            distance,
            attached_to,
        } => {
            let t = Told::new("general_moved", attached_to, None)
                .value(format_args!("{distance:.2}"))
                .detail(format_args!("general={general}"));
            match attached_to {
                Some(u) => t.line(format!(
                    "{} rides {distance:.0}\" to lead {}",
                    n.g(general),
                    n.u(u)
                )),
                None if distance > 0.0 => t.line(format!("{} rides {distance:.0}\"", n.g(general))),
                None => t,
            }
        }
        Event::LpsRolled { general, roll, lps } => Told::new("lps_rolled", None, None)
            .value(lps)
            .detail(format_args!("general={general};roll={roll}"))
            .line(format!("{} rolls {roll}: {lps} LPs", n.g(general))),
        Event::LpsGiven { from, to, lps } => Told::new("lps_given", None, None)
            .value(lps)
            .detail(format_args!("from={from};to={to}"))
            .line(format!("{} gives {lps} LPs to {}", n.g(from), n.g(to))),
        Event::Arrived { unit, turn } => Told::new("arrived", Some(unit), None)
            .value(turn)
            .line(format!("{} arrives on the field (turn {turn})", n.u(unit))),
        Event::Released { command, turn } => {
            let name = n.0.command_name(command);
            Told::new("released", None, None)
                .value(turn)
                .detail(name)
                .line(format!("{name} is released from reserve (turn {turn})"))
        }
        _ => unreachable!("tell routes only command events here"),
    }
}

/// Moves, formations, retreats, routs and units gone.
fn tell_movement(n: &Names, e: Event) -> Told {
    match e {
        Event::Moved {
            unit,
            from,
            to,
            disordered,
        } => {
            let d = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
            let t = Told::new("moved", Some(unit), None)
                .value(format_args!("{d:.2}"))
                .detail(format_args!(
                    "to={:.2};{:.2};disordered={disordered}",
                    to.0, to.1
                ));
            if d < 0.05 {
                return t;
            }
            t.line(format!(
                "{} moves {d:.1}\" to ({:.0}, {:.0}){}",
                n.u(unit),
                to.0,
                to.1,
                if disordered { ", disordered" } else { "" }
            ))
        }
        Event::FormationChanged { unit } => Told::new("formation_changed", Some(unit), None)
            .line(format!("{} changes formation", n.u(unit))),
        Event::Unlimbered { unit } => Told::new("unlimbered", Some(unit), None)
            .line(format!("{} unlimbers: the drivers go home", n.u(unit))),
        Event::Retreat { unit, distance } => Told::new("retreat", Some(unit), None)
            .value(format_args!("{distance:.1}"))
            .line(format!("{} retreats {distance:.0}\"", n.u(unit))),
        Event::Rout { unit, distance } => Told::new("rout", Some(unit), None)
            .value(format_args!("{distance:.1}"))
            .line(format!("{} ROUTS {distance:.0}\"", n.u(unit))),
        Event::Disintegrated { unit } => Told::new("disintegrated", Some(unit), None)
            .line(format!("{} {}", n.u(unit), n.1.gone())),
        Event::LeftTable { unit } => Told::new("left_table", Some(unit), None)
            .line(format!("{} leaves the table", n.u(unit))),
        _ => unreachable!("tell routes only movement events here"),
    }
}

/// Fire, and CV lost and regained.
fn tell_losses(n: &Names, e: Event) -> Told {
    match e {
        Event::Fired {
            unit,
            target,
            range,
            roll,
            needed,
            hit,
        } => Told::new("fired", Some(unit), Some(target))
            .value(roll)
            .detail(format_args!("range={range:.2};needed={needed};hit={hit}"))
            .line(format!(
                "{} fires at {} at {range:.1}\": rolls {roll}, needs {needed} or less: {}",
                n.u(unit),
                n.u(target),
                if hit { "hit" } else { "miss" }
            )),
        Event::CvLost {
            unit,
            amount,
            cause,
            cv,
        } => Told::new(n.1.kinds().0, Some(unit), None)
            .value(amount)
            .cv(cv)
            .detail(format_args!("{cause:?}"))
            .line(format!(
                "{} {} ({}): {}",
                n.u(unit),
                n.1.lost(amount),
                loss_words(cause),
                n.1.left(cv)
            )),
        Event::CvGained { unit, amount, cv } => Told::new(n.1.kinds().1, Some(unit), None)
            .value(amount)
            .cv(cv)
            .line(format!(
                "{} {}: {}",
                n.u(unit),
                n.1.gained(amount),
                n.1.left(cv)
            )),
        _ => unreachable!("tell routes only fire and losses here"),
    }
}

/// Rallies, guns abandoned and re-manned, reaction tests and breaks.
fn tell_morale(n: &Names, e: Event) -> Told {
    match e {
        Event::Rally {
            unit,
            roll,
            success,
            cv,
        } => Told::new("rally", Some(unit), None)
            .value(roll)
            .cv(cv)
            .detail(success)
            .line(format!(
                "{} rallies: rolls {roll}, {} ({})",
                n.u(unit),
                if success { n.1.rallied() } else { "fails" },
                n.1.left(cv)
            )),
        Event::GunAbandoned { unit } => Told::new("abandoned", Some(unit), None)
            .line(format!("{}'s crew leave their gun", n.u(unit))),
        Event::Remanned {
            unit,
            roll,
            success,
        } => Told::new("remanned", Some(unit), None)
            .value(roll)
            .detail(success)
            .line(format!(
                "{}'s gunners return: rolls {roll}, {}",
                n.u(unit),
                if success {
                    "the gun is manned again"
                } else {
                    "they hang back"
                }
            )),
        Event::Reaction {
            unit,
            cause,
            dice,
            result,
            rerolls_used,
        } => {
            let rr = if rerolls_used > 0 {
                format!(" after {}", counted(rerolls_used, "re-roll", "re-rolls"))
            } else {
                String::new()
            };
            Told::new("reaction", Some(unit), None)
                .value(format_args!("{}-{}", dice[0], dice[1]))
                .detail(format_args!("{cause:?};{result:?};rerolls={rerolls_used}"))
                .line(format!(
                    "{} tests reaction ({}): {} and {}{rr}: {}",
                    n.u(unit),
                    cause_words(cause),
                    dice[0],
                    dice[1],
                    result_words(result)
                ))
        }
        Event::Recovered { unit } => Told::new("recovered", Some(unit), None)
            .line(format!("{} is no longer broken", n.u(unit))),
        Event::FootBroke { unit } => Told::new("foot_broke", Some(unit), None)
            .line(format!("{} breaks before the horse", n.u(unit))),
        _ => unreachable!("tell routes only morale events here"),
    }
}

/// Charges and the responses to them.
fn tell_charge(n: &Names, e: Event) -> Told {
    match e {
        Event::ChargeDeclared {
            unit,
            target,
            standoff,
        } => Told::new("charge_declared", Some(unit), Some(target))
            .value(format_args!("{standoff:.1}"))
            .line(format!(
                "{} charges {}{}",
                n.u(unit),
                n.u(target),
                // Dickenson's charges have no stand-off: 0, said in no words.
                if standoff > 0.0 {
                    format!("; the target stands off at {standoff:.0}\"")
                } else {
                    String::new()
                }
            )),
        Event::ChargeFailed { unit, target } => Told::new(
            "charge_failed",
            Some(unit),
            Some(target),
        )
        .line(format!("{} does not close with {}", n.u(unit), n.u(target))),
        Event::EmergencyResponse {
            unit,
            dice,
            successes,
            chosen,
        } => Told::new("emergency_response", Some(unit), None)
            .value(successes)
            .detail(format_args!("{chosen:?};dice={dice}"))
            .line(format!(
                "{} responds: {}",
                n.u(unit),
                response_words(chosen)
            )),
        Event::SupportCharge {
            unit,
            target,
            successes,
        } => Told::new("support_charge", Some(unit), Some(target))
            .value(successes)
            .line(format!(
                "{} tries a support or opportunity charge at {}: {}",
                n.u(unit),
                n.u(target),
                counted(successes, "success", "successes")
            )),
        _ => unreachable!("tell routes only charges here"),
    }
}

/// Melees, the units fighting beside them, and their results.
fn tell_melee(n: &Names, e: Event) -> Told {
    match e {
        Event::Melee {
            attacker,
            defender,
            attacker_dice,
            defender_dice,
            attacker_hits,
            defender_hits,
            flank,
        } => Told::new("melee", Some(attacker), Some(defender))
            .value(format_args!("{attacker_hits}-{defender_hits}"))
            .detail(format_args!(
                "dice={attacker_dice}-{defender_dice};flank={flank}"
            ))
            .line(format!(
                "MELEE{}: {} ({}, {}) v {} ({}, {})",
                if flank { " (flank)" } else { "" },
                n.u(attacker),
                counted(attacker_dice, "die", "dice"),
                counted(attacker_hits, "hit", "hits"),
                n.u(defender),
                counted(defender_dice, "die", "dice"),
                counted(defender_hits, "hit", "hits"),
            )),
        Event::Supported {
            unit,
            main,
            dice,
            hits,
        } => Told::new("supported", Some(unit), Some(main))
            .value(hits)
            .detail(format_args!("dice={dice}"))
            .line(format!(
                "  {} fights beside {}: {dice} of those dice, {hits} of those hits",
                n.u(unit),
                n.u(main)
            )),
        Event::MeleeResult {
            winner,
            loser,
            result,
        } => {
            let t = Told::new("melee_result", winner, loser).detail(format_args!("{result:?}"));
            match (winner, loser) {
                (Some(w), Some(l)) => t.line(format!(
                    "{} wins; {} {}",
                    n.u(w),
                    n.u(l),
                    n.1.loser_result(result)
                )),
                _ => t.line("Equal losses: both stay locked in combat".to_string()),
            }
        }
        _ => unreachable!("tell routes only melees here"),
    }
}

/// Pursuits and camps taken.
fn tell_pursuit(n: &Names, e: Event) -> Told {
    match e {
        Event::PursuitStarted { unit, target } => {
            Told::new("pursuit_started", Some(unit), Some(target)).line(format!(
                "{} hares off in pursuit of {}",
                n.u(unit),
                n.u(target)
            ))
        }
        Event::PursuitHalted { unit, turns } => {
            let how = if turns == 0 {
                " instead of pursuing".to_string()
            } else {
                format!(" after {} of pursuit", counted(turns, "turn", "turns"))
            };
            Told::new("pursuit_halted", Some(unit), None)
                .value(turns)
                .line(format!("{} halts{how}", n.u(unit)))
        }
        Event::PursuitContinued { unit, turns } => Told::new("pursuit_continued", Some(unit), None)
            .value(turns)
            .line(format!("{} pursues on (turn {turns})", n.u(unit))),
        Event::PursuitLost { unit, turns } => Told::new("pursuit_lost", Some(unit), None)
            .value(turns)
            .line(format!("{} is lost to the pursuit", n.u(unit))),
        Event::CampCaptured { camp_side, by } => Told::new("camp_captured", Some(by), None)
            .detail(camp_side)
            .line(format!("{} takes the {camp_side} camp", n.u(by))),
        _ => unreachable!("tell routes only pursuit events here"),
    }
}

/// Generals hit and replaced, armies broken, and the end.
fn tell_end(n: &Names, e: Event) -> Told {
    match e {
        Event::GeneralCasualty {
            general,
            result,
            captured,
        } => Told::new("general_casualty", None, None)
            .detail(format_args!(
                "general={general};{result:?};captured={captured}"
            ))
            .line(format!(
                "{} is hit: {}{}",
                n.g(general),
                general_words(result),
                if captured { "; captured" } else { "" }
            )),
        Event::GeneralReplaced { general } => Told::new("general_replaced", None, None)
            .detail(format_args!("general={general}"))
            .line(format!(
                "A replacement takes up the post of {}",
                n.g(general)
            )),
        Event::ArmyBroken { side, lost, start } => Told::new("army_broken", None, None)
            .value(lost)
            .detail(format_args!("{side};start={start}"))
            .line(format!(
                "The {side} army breaks: {lost} of {start} {} lost",
                n.1.army()
            )),
        Event::BattleEnded { outcome, turn } => {
            let (detail, line) = match outcome {
                Outcome::Won(s) => (
                    format!("{s}_won"),
                    format!(
                        "\nResult: {} victory in turn {turn}",
                        if s == Side::Parliament {
                            "Parliamentarian"
                        } else {
                            "Royalist"
                        }
                    ),
                ),
                Outcome::Draw => ("draw".into(), format!("\nResult: a draw in turn {turn}")),
            };
            Told::new("battle_ended", None, None)
                .value(turn)
                .detail(detail)
                .line(line)
        }
        _ => unreachable!("tell routes only end-of-battle events here"),
    }
}

/// Black Powder's own detail: a brigade broken is told by the brigade's name.
fn tell_black_powder(n: &Names, d: BpDetail) -> Told {
    let t = Told::new(d.kind(), Some(d.unit()), d.other()).detail(d.to_string().replace(',', ";"));
    if let BpDetail::BrigadeBroken {
        command, broken, ..
    } = d
    {
        // The brigade by its own name: the army breaks on brigades, not regiments.
        return t.line(format!(
            "{} {}: {}",
            n.0.command_name(command),
            broken_words(broken),
            d.brigade_counts()
        ));
    }
    t.line(format!("{}: {d}", n.u(d.unit())))
}

/// Dickenson's own detail: a commander hit is told by his name.
fn tell_dickenson(n: &Names, d: DkDetail) -> Told {
    let t = Told::new(d.kind(), Some(d.unit()), d.other()).detail(d.to_string().replace(',', ";"));
    if let DkDetail::CommanderHit {
        unit, general, out, ..
    } = d
    {
        // Named, not numbered: the story's readers know him by name.
        let out = crate::rules::dickenson::events::commander_out(out);
        return t.line(format!(
            "{}: {}, riding with it, is {out}",
            n.u(unit),
            n.g(general)
        ));
    }
    let with = match d {
        DkDetail::Volley { .. } | DkDetail::GunShot { .. } => " at ",
        DkDetail::Losses { .. } => ", from ",
        DkDetail::FormationThrow { .. } => " charging ",
        DkDetail::ChargeForestalled { .. } => " declared a charge on ",
        _ => ", by ",
    };
    match d.other() {
        Some(o) => t.line(format!("{}{with}{}: {d}", n.u(d.unit()), n.u(o))),
        None => t.line(format!("{}: {d}", n.u(d.unit()))),
    }
}

/// A melee result where a side was destroyed: a unit gone (at CV 0, its last figure lost, or
/// broken) takes no test and wins nothing.
fn destroyed_result(setup: &BattleSetup, w: u16, l: u16, gone: impl Fn(u16) -> bool) -> String {
    let u = |id: u16| label(setup, id);
    match (gone(w), gone(l)) {
        (true, true) => format!("{} and {} are both destroyed", u(w), u(l)),
        (true, false) => format!("{} is destroyed; {} holds the field", u(w), u(l)),
        _ => format!("{} wins; {} is destroyed", u(w), u(l)),
    }
}

/// Equal losses where a melee's main unit was destroyed: nobody stays locked with a unit that
/// is gone, so the line says who is gone and that nobody won.
fn destroyed_draw(setup: &BattleSetup, a: u16, d: u16, gone: impl Fn(u16) -> bool) -> String {
    let u = |id: u16| label(setup, id);
    match (gone(a), gone(d)) {
        (true, true) => format!(
            "Equal losses: {} and {} both destroyed; nobody wins",
            u(a),
            u(d)
        ),
        (a_gone, _) => {
            let lost = if a_gone { a } else { d };
            format!("Equal losses: {} is destroyed; nobody wins", u(lost))
        }
    }
}

/// One event as a line of the story; `None` for events too small to tell (a general or a unit
/// standing still).
pub fn event_line(setup: &BattleSetup, currency: Currency, e: Event) -> Option<String> {
    tell(setup, currency, e).line
}

/// The story told event by event, in order: it follows what a line alone cannot know, the units
/// gone so far (by the event, not by a strength of 0, which leaves a Black Powder regiment
/// shaken, not gone) and the generals replaced so far.
pub struct Story<'a> {
    setup: &'a BattleSetup,
    currency: Currency,
    gone: Vec<bool>,
    successors: Vec<u8>,
    /// The main units of the last melee told, for a draw's line (its event names nobody).
    melee: (u16, u16),
}

impl<'a> Story<'a> {
    pub fn new(setup: &'a BattleSetup, currency: Currency) -> Story<'a> {
        Story {
            setup,
            currency,
            gone: vec![false; setup.units.len()],
            successors: vec![0; setup.names.commanders.len()],
            melee: (0, 0),
        }
    }

    /// The line of the next event `e`, if it is told; the story then learns what `e` changed.
    pub fn line(&mut self, e: Event) -> Option<String> {
        let gone = &self.gone;
        let is_gone = |x: u16| gone.get(usize::from(x)).copied().unwrap_or(false);
        let line = match e {
            Event::MeleeResult {
                winner: Some(w),
                loser: Some(l),
                ..
            } if is_gone(w) || is_gone(l) => Some(destroyed_result(self.setup, w, l, is_gone)),
            Event::MeleeResult {
                winner: None,
                loser: None,
                ..
            } if is_gone(self.melee.0) || is_gone(self.melee.1) => Some(destroyed_draw(
                self.setup,
                self.melee.0,
                self.melee.1,
                is_gone,
            )),
            _ => tell_named(&Names(self.setup, self.currency, &self.successors), e).line,
        };
        match e {
            Event::Disintegrated { unit } => {
                if let Some(g) = self.gone.get_mut(usize::from(unit)) {
                    *g = true;
                }
            }
            Event::GeneralReplaced { general } => {
                if let Some(n) = self.successors.get_mut(usize::from(general)) {
                    *n = n.saturating_add(1);
                }
            }
            Event::Melee {
                attacker, defender, ..
            } => self.melee = (attacker, defender),
            _ => {}
        }
        line
    }
}

/// Each unit's CV (in its ruleset's currency) at the start and at the end of every turn,
/// followed through the events.
struct CvPaths(Vec<Vec<u8>>);

impl CvPaths {
    fn new(start: &[Unit]) -> CvPaths {
        CvPaths(start.iter().map(|u| vec![u.start_cv]).collect())
    }

    /// A new turn: every path carries its last CV into it.
    fn next_turn(&mut self) {
        for path in &mut self.0 {
            let last = *path.last().unwrap_or(&0);
            path.push(last);
        }
    }

    /// A rolled rating restarts the unit's path; a told change of CV ends its turn's value.
    fn follow(&mut self, e: Event, told: bool) {
        match e {
            Event::RatingRolled { unit, cv } => self.0[usize::from(unit)] = vec![cv],
            Event::CvLost { unit, cv, .. }
            | Event::CvGained { unit, cv, .. }
            | Event::Rally { unit, cv, .. }
                if told =>
            {
                if let Some(last) = self.0[usize::from(unit)].last_mut() {
                    *last = cv;
                }
            }
            _ => {}
        }
    }

    fn write(&self, setup: &BattleSetup, currency: Currency, out: &mut String) {
        let what = currency.strength_heading();
        let _ = writeln!(out, "\n{what} by turn (start, then each turn's end):");
        for (i, path) in self.0.iter().enumerate() {
            let p: Vec<String> = path.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(out, "  {:<40} {}", label(setup, i as u16), p.join(" "));
        }
    }
}

/// The story of a battle in plain text; `start` is its units as deployed (as its ruleset
/// counts their strength).
pub fn narrate(setup: &BattleSetup, currency: Currency, start: &[Unit], rec: &Recorder) -> String {
    let mut out = String::new();
    let mut paths = CvPaths::new(start);
    let mut story = Story::new(setup, currency);
    let mut last_turn = 0;
    for &(turn, e) in &rec.events {
        if turn != last_turn {
            paths.next_turn();
            last_turn = turn;
        }
        let line = story.line(e);
        paths.follow(e, line.is_some());
        if let Some(line) = line {
            let _ = writeln!(out, "{line}");
        }
    }
    paths.write(setup, currency, &mut out);
    out
}

/// The columns of the events CSV: the strength column is named in the currency.
pub fn events_header(currency: Currency) -> [&'static str; 10] {
    [
        "seq",
        "turn",
        "event",
        "unit",
        "unit_name",
        "other",
        "other_name",
        "value",
        currency.column(),
        "detail",
    ]
}

/// The event stream as tidy CSV: one event a row.
pub fn events_csv(setup: &BattleSetup, currency: Currency, rec: &Recorder) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(events_header(currency));
    // Commas in names become semicolons, as they always have, so the columns cut cleanly.
    let id = |u: Option<UnitId>| u.map(|u| u.to_string()).unwrap_or_default();
    let name = |u: Option<UnitId>| {
        u.map(|u| setup.unit_name(u).replace(',', ";"))
            .unwrap_or_default()
    };
    for (seq, &(turn, e)) in rec.events.iter().enumerate() {
        let t = tell(setup, currency, e);
        let row = [
            seq.to_string(),
            turn.to_string(),
            t.kind.to_string(),
            id(t.unit),
            name(t.unit),
            id(t.other),
            name(t.other),
            t.value,
            t.cv,
            t.detail,
        ];
        // Writing to memory cannot fail.
        let _ = w.write_record(&row);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BlackPowder, Ironsides, Ruleset};

    fn recorded<R: Ruleset>(ruleset: &R, setup: &BattleSetup) -> (Recorder, Vec<Unit>, Currency) {
        let currency = Currency::of(ruleset.currency()).unwrap();
        let mut battle = ruleset.new_battle(setup);
        let mut rec = Recorder::default();
        ruleset.deploy(&mut battle, setup, 21);
        let start = ruleset.units(&battle, setup);
        ruleset.fight(&mut battle, setup, 21, &mut rec);
        (rec, start, currency)
    }

    /// Every event is one CSV row of ten fields, read back as written (quotes and commas in
    /// names included), and the story tells exactly the events the table gives a line.
    #[test]
    fn the_csv_and_the_story_say_what_the_table_says() {
        let mut setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        setup.names.units[0] = "The \"Old\" Horse, of Hazel".into();
        let bp = BlackPowder::builtin();
        let dk = crate::rules::dickenson::battle::Dickenson::builtin();
        for (rec, start, currency) in [
            recorded(&Ironsides, &setup),
            recorded(&bp, &setup),
            recorded(&dk, &setup),
        ] {
            let csv = events_csv(&setup, currency, &rec);
            let mut r = csv::Reader::from_reader(csv.as_bytes());
            assert_eq!(r.headers().unwrap(), events_header(currency).as_slice());
            let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
            assert_eq!(rows.len(), rec.events.len());
            let mut lines = 0;
            for (row, &(turn, e)) in rows.iter().zip(&rec.events) {
                let t = tell(&setup, currency, e);
                assert_eq!(row.len(), 10);
                assert_eq!((&row[1], &row[2]), (turn.to_string().as_str(), t.kind));
                if t.unit == Some(0) {
                    assert_eq!(&row[4], "The \"Old\" Horse; of Hazel");
                }
                lines += usize::from(t.line.is_some());
            }
            let story = narrate(&setup, currency, &start, &rec);
            let heading = format!("\n{} by turn", currency.strength_heading());
            let (told, paths) = story.split_once(&heading).unwrap();
            // Turn headers and the result are told with a blank line before them.
            assert_eq!(told.lines().filter(|l| !l.is_empty()).count(), lines);
            // Each path starts from the unit's strength as its ruleset counts it.
            let first: Vec<&str> = paths
                .lines()
                .skip(1)
                .map(|l| l[43..].split(' ').next().unwrap())
                .collect();
            let want: Vec<String> = start.iter().map(|u| u.start_cv.to_string()).collect();
            assert_eq!(first, want);
        }
    }

    /// Two units of one name (each side's "right wing" musketeers, a mirror battle's armies)
    /// are told apart in the story by their sides; a name of its own is told alone.
    #[test]
    fn units_sharing_a_name_are_told_apart_by_side() {
        let mut setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let royalist = setup
            .units
            .iter()
            .find(|u| u.side == Side::Royalist)
            .unwrap()
            .id;
        let parliament = setup.units[0].id;
        assert_eq!(setup.units[0].side, Side::Parliament);
        setup.names.units[usize::from(royalist)] = setup.names.units[0].clone();
        let name = setup.unit_name(0).to_string();
        let failed = |unit, target| Event::ChargeFailed { unit, target };
        let line = event_line(&setup, Currency::Cv, failed(parliament, royalist)).unwrap();
        assert_eq!(
            line,
            format!("{name} of Parliament does not close with {name} of the Royalists")
        );
        let other = setup.units[1].id;
        let line = event_line(&setup, Currency::Cv, failed(other, royalist)).unwrap();
        let alone = setup.unit_name(other);
        assert_eq!(
            line,
            format!("{alone} does not close with {name} of the Royalists")
        );
    }

    /// The story speaks English, not the code's names: reaction causes, responses and the
    /// causes of losses in words, one or many counted as such.
    #[test]
    fn the_story_words_causes_and_counts() {
        use crate::events::{ReactionCause, Response};
        let setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let (a, b) = (setup.unit_name(0), setup.unit_name(1));
        let line = |e| event_line(&setup, Currency::Cv, e).unwrap();
        let reaction = Event::Reaction {
            unit: 0,
            cause: ReactionCause::ToCharge,
            dice: [3, 5],
            result: ReactionResult::PassOne,
            rerolls_used: 1,
        };
        assert_eq!(
            line(reaction),
            format!("{a} tests reaction (to charge): 3 and 5 after 1 re-roll: passes one")
        );
        let response = Event::EmergencyResponse {
            unit: 0,
            dice: 2,
            successes: 1,
            chosen: Response::Countercharge,
        };
        assert_eq!(line(response), format!("{a} responds: countercharges"));
        let support = Event::SupportCharge {
            unit: 0,
            target: 1,
            successes: 1,
        };
        assert_eq!(
            line(support),
            format!("{a} tries a support or opportunity charge at {b}: 1 success")
        );
        let lost = |cause| Event::CvLost {
            unit: 0,
            amount: 1,
            cause,
            cv: 3,
        };
        assert_eq!(
            line(lost(LossCause::GeneralCasualty)),
            format!("{a} loses 1 CV (its general fallen): CV 3")
        );
        assert_eq!(
            line(lost(LossCause::CampLost)),
            format!("{a} loses 1 CV (its camp taken): CV 3")
        );
        let halted = Event::PursuitHalted { unit: 0, turns: 2 };
        assert_eq!(line(halted), format!("{a} halts after 2 turns of pursuit"));
        let melee = Event::Melee {
            attacker: 0,
            defender: 1,
            attacker_dice: 1,
            defender_dice: 2,
            attacker_hits: 1,
            defender_hits: 0,
            flank: false,
        };
        assert_eq!(
            line(melee),
            format!("MELEE: {a} (1 die, 1 hit) v {b} (2 dice, 0 hits)")
        );
    }

    /// Equal losses in a melee that destroyed a main unit never say both stay locked in combat:
    /// the story names who is gone.
    #[test]
    fn a_draw_with_a_unit_destroyed_is_not_told_as_locked() {
        let setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let (a, d) = (setup.unit_name(0), setup.unit_name(1));
        let told = |gone: &[u16]| {
            let mut story = Story::new(&setup, Currency::Cv);
            let melee = Event::Melee {
                attacker: 0,
                defender: 1,
                attacker_dice: 2,
                defender_dice: 2,
                attacker_hits: 1,
                defender_hits: 1,
                flank: false,
            };
            story.line(melee);
            for &unit in gone {
                story.line(Event::Disintegrated { unit });
            }
            story
                .line(Event::MeleeResult {
                    winner: None,
                    loser: None,
                    result: ReactionResult::PassBoth,
                })
                .unwrap()
        };
        assert_eq!(told(&[]), "Equal losses: both stay locked in combat");
        assert_eq!(
            told(&[1]),
            format!("Equal losses: {d} is destroyed; nobody wins")
        );
        assert_eq!(
            told(&[0]),
            format!("Equal losses: {a} is destroyed; nobody wins")
        );
        assert_eq!(
            told(&[0, 1]),
            format!("Equal losses: {a} and {d} both destroyed; nobody wins")
        );
    }

    /// A unit leaving the battle is told as its ruleset removes it: Ironsides' at CV 0,
    /// Black Powder's broken with stamina perhaps left, Dickenson's with no figures or its gun
    /// destroyed; never "0 stamina left" of a regiment that had some.
    #[test]
    fn a_unit_gone_is_told_as_its_ruleset_removes_it() {
        let setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let u = setup.unit_name(0);
        let gone = |currency| event_line(&setup, currency, Event::Disintegrated { unit: 0 });
        assert_eq!(
            gone(Currency::Cv).unwrap(),
            format!("{u} disintegrates (CV 0)")
        );
        assert_eq!(
            gone(Currency::Casualties).unwrap(),
            format!("{u} is broken and leaves the field")
        );
        assert_eq!(
            gone(Currency::Figures).unwrap(),
            format!("{u} is gone from the field")
        );
    }

    /// A melee's loser is told in its ruleset's own words: Black Powder's break test and
    /// Dickenson's morale chart throw no "double six".
    #[test]
    fn a_melee_loser_is_told_in_its_rulesets_words() {
        let setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let (w, l) = (setup.unit_name(0), setup.unit_name(1));
        let told = |currency, result| {
            let e = Event::MeleeResult {
                winner: Some(0),
                loser: Some(1),
                result,
            };
            event_line(&setup, currency, e).unwrap()
        };
        let cases = [
            (
                Currency::Cv,
                ReactionResult::Rout,
                "throws double six: rout",
            ),
            (Currency::Cv, ReactionResult::PassOne, "passes one"),
            (Currency::Casualties, ReactionResult::Rout, "is broken"),
            (Currency::Casualties, ReactionResult::FailBoth, "retires"),
            (
                Currency::Casualties,
                ReactionResult::PassBoth,
                "holds, giving ground",
            ),
            (
                Currency::Figures,
                ReactionResult::PassBoth,
                "throws good and holds",
            ),
            (
                Currency::Figures,
                ReactionResult::PassOne,
                "stands, disordered",
            ),
            (Currency::Figures, ReactionResult::FailBoth, "falls back"),
            (Currency::Figures, ReactionResult::Rout, "routs"),
        ];
        for (currency, result, words) in cases {
            assert_eq!(told(currency, result), format!("{w} wins; {l} {words}"));
        }
    }

    /// The story names the general riding with a Dickenson regiment when he is hit (not his
    /// index), and says no stand-off where the ruleset has none (Dickenson's charges: 0").
    #[test]
    fn the_story_names_generals_and_says_no_stand_off_of_nothing() {
        let setup = crate::scenario::Scenario::load_builtin("small_action", &[])
            .and_then(|s| s.setup())
            .unwrap();
        let hit = Event::Dickenson(DkDetail::CommanderHit {
            unit: 0,
            general: 1,
            result: GeneralResult::HorseFalls,
            out: false,
        });
        let line = event_line(&setup, Currency::Figures, hit).unwrap();
        let (unit, general) = (setup.unit_name(0), setup.commander_name(1));
        assert_eq!(
            line,
            format!("{unit}: {general}, riding with it, is unhorsed")
        );
        let charge = |standoff| Event::ChargeDeclared {
            unit: 0,
            target: 1,
            standoff,
        };
        let target = setup.unit_name(1);
        let line = event_line(&setup, Currency::Figures, charge(0.0)).unwrap();
        assert_eq!(line, format!("{unit} charges {target}"));
        let line = event_line(&setup, Currency::Cv, charge(4.0)).unwrap();
        assert_eq!(
            line,
            format!("{unit} charges {target}; the target stands off at 4\"")
        );
    }
}

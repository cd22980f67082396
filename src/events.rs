//! What happened: the one stream of events that every observer (tallies, narrator, replay) reads.
//! Events are small `Copy` values so that emitting one never allocates.

use crate::army::{CommandId, CommanderId, Side, UnitId};

/// Why a unit lost CV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LossCause {
    Fire,
    Melee,
    /// The cost of haring off in hot pursuit.
    Pursuit,
    /// A general's horrible death or mortal wound.
    GeneralCasualty,
    /// The army's camp was taken.
    CampLost,
    /// The Captain-General left the command it had joined.
    GeneralLeft,
}

/// A reaction test's outcome (2D6, each die against CV).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReactionResult {
    PassBoth,
    PassOne,
    FailBoth,
    Rout,
}

/// Why a reaction test was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReactionCause {
    Fire,
    ToCharge,
    Charged,
    RoutPassed,
    MeleeLost,
    CampAttacked,
    FlankAttackWhileEngaged,
}

/// The word for `n` of a thing, one or many ("1 hit", "2 hits"): the one rule every
/// ruleset's event words and the story count by.
pub fn plural(n: impl Into<u64>, one: &'static str, many: &'static str) -> &'static str {
    if n.into() == 1 { one } else { many }
}

/// A casualty table result for a general.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeneralResult {
    HorribleDeath,
    MortalWound,
    GravelyWounded,
    Hurt,
    Unhurt,
    Saved,
    HorseFalls,
    HorseStampedes,
    HorseDies,
    HorseBleeds,
    /// The easy rule: the general is simply lost.
    Lost,
}

/// An emergency response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Response {
    ChangeFacing,
    ChangeFormation,
    FormUp,
    Fire,
    Limber,
    Evade,
    Countercharge,
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Won(Side),
    Draw,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// A randomised unit's CV for this battle, rolled before the first turn.
    RatingRolled {
        unit: UnitId,
        cv: u8,
    },
    TurnStarted {
        turn: u16,
    },
    Initiative {
        turn: u16,
        first: Side,
        rolls: [u8; 2],
    },
    GeneralMoved {
        general: CommanderId,
        distance: f64,
        attached_to: Option<UnitId>,
    },
    LpsRolled {
        general: CommanderId,
        roll: u8,
        lps: u8,
    },
    LpsGiven {
        from: CommanderId,
        to: CommanderId,
        lps: u8,
    },
    Rally {
        unit: UnitId,
        roll: u8,
        success: bool,
        cv: u8,
    },
    /// A gun's crew ran (routed or evaded a charge): the gun is lost to its army, as the
    /// army-break rule counts it, until its gunners return (`Remanned`).
    GunAbandoned {
        unit: UnitId,
    },
    /// Gunners try to return to their abandoned gun (1D6 <= CV): on success it fights again.
    Remanned {
        unit: UnitId,
        roll: u8,
        success: bool,
    },
    Moved {
        unit: UnitId,
        from: (f64, f64),
        to: (f64, f64),
        disordered: bool,
    },
    FormationChanged {
        unit: UnitId,
    },
    Unlimbered {
        unit: UnitId,
    },
    Fired {
        unit: UnitId,
        target: UnitId,
        range: f64,
        roll: u8,
        needed: i8,
        hit: bool,
    },
    CvLost {
        unit: UnitId,
        amount: u8,
        cause: LossCause,
        cv: u8,
    },
    CvGained {
        unit: UnitId,
        amount: u8,
        cv: u8,
    },
    Reaction {
        unit: UnitId,
        cause: ReactionCause,
        dice: [u8; 2],
        result: ReactionResult,
        rerolls_used: u8,
    },
    ChargeDeclared {
        unit: UnitId,
        target: UnitId,
        standoff: f64,
    },
    ChargeFailed {
        unit: UnitId,
        target: UnitId,
    },
    EmergencyResponse {
        unit: UnitId,
        dice: u8,
        successes: u8,
        chosen: Response,
    },
    SupportCharge {
        unit: UnitId,
        target: UnitId,
        successes: u8,
    },
    Melee {
        attacker: UnitId,
        defender: UnitId,
        attacker_dice: u8,
        defender_dice: u8,
        attacker_hits: u8,
        defender_hits: u8,
        flank: bool,
    },
    /// A supporting unit's share of the `Melee` just told: it fought beside `main`, the
    /// main unit of its side, with `dice` of that side's dice and `hits` of its hits.
    Supported {
        unit: UnitId,
        main: UnitId,
        dice: u8,
        hits: u8,
    },
    MeleeResult {
        winner: Option<UnitId>,
        loser: Option<UnitId>,
        result: ReactionResult,
    },
    FootBroke {
        unit: UnitId,
    },
    Retreat {
        unit: UnitId,
        distance: f64,
    },
    /// A late arrival comes onto the table at the start of `turn`.
    Arrived {
        unit: UnitId,
        turn: u16,
    },
    /// A command held in reserve is released (its `reserve_until` condition was met).
    Released {
        command: CommandId,
        turn: u16,
    },
    /// A broken unit is no longer broken: it regained a CV or spent a whole turn out of contact.
    Recovered {
        unit: UnitId,
    },
    Rout {
        unit: UnitId,
        distance: f64,
    },
    Disintegrated {
        unit: UnitId,
    },
    LeftTable {
        unit: UnitId,
    },
    PursuitStarted {
        unit: UnitId,
        target: UnitId,
    },
    PursuitHalted {
        unit: UnitId,
        turns: u8,
    },
    PursuitContinued {
        unit: UnitId,
        turns: u8,
    },
    PursuitLost {
        unit: UnitId,
        turns: u8,
    },
    GeneralCasualty {
        general: CommanderId,
        result: GeneralResult,
        captured: bool,
    },
    GeneralReplaced {
        general: CommanderId,
    },
    CampCaptured {
        camp_side: Side,
        by: UnitId,
    },
    ArmyBroken {
        side: Side,
        lost: u32,
        start: u32,
    },
    BattleEnded {
        outcome: Outcome,
        turn: u16,
    },
    /// Black Powder's own detail (orders, volleys, hedgehogs, break tests ...).
    BlackPowder(crate::rules::black_powder::events::Detail),
    /// Dickenson's own detail (volleys, guns' fall of shot, losses by figure, morale throws ...).
    Dickenson(crate::rules::dickenson::events::Detail),
}

impl Event {
    /// A unit moved from one point of the table to another.
    pub fn moved(
        unit: UnitId,
        from: crate::battlefield::Vec2,
        to: crate::battlefield::Vec2,
        disordered: bool,
    ) -> Event {
        Event::Moved {
            unit,
            from: (from.x, from.y),
            to: (to.x, to.y),
            disordered,
        }
    }
}

/// Sends an event to an observer that listens and wants it: every engine's one way to tell.
#[inline]
pub fn emit<O: Observer>(obs: &mut O, e: Event) {
    if obs.listening() && obs.wants(&e) {
        obs.event(&e);
    }
}

/// A turn begins: told, and on the first turn the roll-off that decided who moves first when
/// one was thrown for it (`roll_off`: its deciding throw).
pub fn turn_started<O: Observer>(
    obs: &mut O,
    turn: u16,
    first: crate::army::Side,
    roll_off: Option<[u8; 2]>,
) {
    emit(obs, Event::TurnStarted { turn });
    if let Some(rolls) = roll_off.filter(|_| turn == 1) {
        emit(obs, Event::Initiative { turn, first, rolls });
    }
}

/// Anything that listens to a battle. Observers see every event in order.
pub trait Observer {
    /// Whether this observer wants events at all: the engine skips building them when not.
    fn listening(&self) -> bool {
        true
    }
    /// Whether this observer wants this event: the engine builds and sends only those wanted,
    /// so an observer that answers from the event's kind alone pays nothing for the others
    /// (the answer is known where the event is made). Every event while listening, by default.
    #[inline]
    fn wants(&self, e: &Event) -> bool {
        let _ = e;
        self.listening()
    }
    fn event(&mut self, e: &Event);
}

/// Listens to nothing: for speed runs.
pub struct NullObserver;

impl Observer for NullObserver {
    fn listening(&self) -> bool {
        false
    }
    fn event(&mut self, _: &Event) {}
}

/// Keeps every event: for tests and replays.
#[derive(Default, Debug, Clone)]
pub struct EventLog(pub Vec<Event>);

impl Observer for EventLog {
    fn event(&mut self, e: &Event) {
        self.0.push(*e);
    }
}

impl<A: Observer, B: Observer> Observer for (A, B) {
    fn listening(&self) -> bool {
        self.0.listening() || self.1.listening()
    }
    #[inline]
    fn wants(&self, e: &Event) -> bool {
        self.0.wants(e) || self.1.wants(e)
    }
    fn event(&mut self, e: &Event) {
        if self.0.wants(e) {
            self.0.event(e);
        }
        if self.1.wants(e) {
            self.1.event(e);
        }
    }
}

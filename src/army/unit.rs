//! A unit: a regiment or brigade of foot or horse, dragoons, skirmishers, or a pair of guns.

use serde::{Deserialize, Serialize};

use super::{CommandId, Side};
use crate::battlefield::Vec2;

pub type UnitId = u16;

/// The arms of the randomised troop ratings table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Foot,
    Dragoons,
    Horse,
    Artillery,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FootBalance {
    Normal,
    PikeHeavy,
    ShotHeavy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HorseKind {
    Trotters,
    PistoleerTrotters,
    Gallopers,
    Cuirassiers,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GunWeight {
    VeryLight,
    Light,
    Medium,
    Heavy,
}

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Foot(FootBalance),
    /// Forlorn hope or detached musketeers: skirmishers.
    ForlornHope,
    Dragoons,
    Horse(HorseKind),
    Artillery(GunWeight),
}

impl UnitKind {
    pub fn arm(self) -> Arm {
        match self {
            UnitKind::Foot(_) | UnitKind::ForlornHope => Arm::Foot,
            UnitKind::Dragoons => Arm::Dragoons,
            UnitKind::Horse(_) => Arm::Horse,
            UnitKind::Artillery(_) => Arm::Artillery,
        }
    }
    pub fn is_horse(self) -> bool {
        matches!(self, UnitKind::Horse(_))
    }
    pub fn is_gun(self) -> bool {
        matches!(self, UnitKind::Artillery(_))
    }
    pub fn is_foot(self) -> bool {
        matches!(self, UnitKind::Foot(_))
    }
    pub fn gun(self) -> Option<GunWeight> {
        match self {
            UnitKind::Artillery(w) => Some(w),
            _ => None,
        }
    }
    pub fn horse(self) -> Option<HorseKind> {
        match self {
            UnitKind::Horse(h) => Some(h),
            _ => None,
        }
    }
    /// Men per size-class threshold are halved for mounted arms.
    pub fn mounted_sizes(self) -> bool {
        matches!(self, UnitKind::Horse(_) | UnitKind::Dragoons)
    }
    /// The words a scenario uses for this kind.
    pub fn key(self) -> &'static str {
        match self {
            UnitKind::Foot(FootBalance::Normal) => "foot",
            UnitKind::Foot(FootBalance::PikeHeavy) => "pike_heavy_foot",
            UnitKind::Foot(FootBalance::ShotHeavy) => "shot_heavy_foot",
            UnitKind::ForlornHope => "forlorn_hope",
            UnitKind::Dragoons => "dragoons",
            UnitKind::Horse(HorseKind::Trotters) => "trotters",
            UnitKind::Horse(HorseKind::PistoleerTrotters) => "pistoleer_trotters",
            UnitKind::Horse(HorseKind::Gallopers) => "gallopers",
            UnitKind::Horse(HorseKind::Cuirassiers) => "cuirassiers",
            UnitKind::Artillery(GunWeight::VeryLight) => "very_light_artillery",
            UnitKind::Artillery(GunWeight::Light) => "light_artillery",
            UnitKind::Artillery(GunWeight::Medium) => "medium_artillery",
            UnitKind::Artillery(GunWeight::Heavy) => "heavy_artillery",
        }
    }
    pub const ALL: [UnitKind; 13] = [
        UnitKind::Foot(FootBalance::Normal),
        UnitKind::Foot(FootBalance::PikeHeavy),
        UnitKind::Foot(FootBalance::ShotHeavy),
        UnitKind::ForlornHope,
        UnitKind::Dragoons,
        UnitKind::Horse(HorseKind::Trotters),
        UnitKind::Horse(HorseKind::PistoleerTrotters),
        UnitKind::Horse(HorseKind::Gallopers),
        UnitKind::Horse(HorseKind::Cuirassiers),
        UnitKind::Artillery(GunWeight::VeryLight),
        UnitKind::Artillery(GunWeight::Light),
        UnitKind::Artillery(GunWeight::Medium),
        UnitKind::Artillery(GunWeight::Heavy),
    ];
    pub fn from_key(key: &str) -> Option<UnitKind> {
        UnitKind::ALL.into_iter().find(|k| k.key() == key)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Line,
    MarchColumn,
    Hedgehog,
    /// Dragoons fighting on foot.
    Dismounted,
    /// Guns on the move.
    Limbered,
    /// Guns sited: the drivers have gone home.
    Unlimbered,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum SizeClass {
    VeryLarge,
    Large,
    Normal,
    Small,
    ReallySmall,
}

/// Where a unit stands in the battle's story.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitStatus {
    /// On the table and able to act.
    Active,
    /// CV reached 0: it disintegrated.
    Destroyed,
    /// Routed or retreated off the table.
    OffTable,
    /// Pursued off the table or to CV 0 in pursuit: lost for the day.
    LostToPursuit,
    /// Guns whose crew have evaded or been killed.
    Abandoned,
    /// Not yet on the table: a late arrival (the scenario's `arrives`). Never a target, never
    /// moves or fires, not lost, and not counted in its army's CV until it arrives.
    Waiting,
}

/// Facing in radians: 0 points along +y (towards the Royalist edge for Parliament at y = 0).
pub type Facing = f64;

/// One unit on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub id: UnitId,
    pub side: Side,
    pub command: CommandId,
    pub kind: UnitKind,
    pub formation: Formation,
    pub size: SizeClass,
    /// Strength in men, when the scenario gives it (other rulesets derive their units from it).
    pub men: Option<u32>,
    pub start_cv: u8,
    pub cv: u8,
    pub lowest_cv: u8,
    pub pos: Vec2,
    pub facing: Facing,
    pub frontage: f64,
    pub depth: f64,
    pub status: UnitStatus,
    /// -2 to CV for fire and melee until the side's next rally phase clear of bad ground.
    pub disordered: bool,
    /// Routed: counts as broken troops until it regains a CV or spends a turn out of contact.
    pub broken: bool,
    /// In contact with an enemy at the end of a melee: fights again next turn.
    pub pinned: bool,
    /// The unit it is locked in melee with, when pinned.
    pub engaged_with: Option<UnitId>,
    /// Shots fired this turn (both halves).
    pub shots_fired: u8,
    /// CV regained by rallies this turn.
    pub rallied_this_turn: u8,
    /// Passed one reaction die only: no advance this turn.
    pub no_advance: bool,
    /// Has moved (or been moved by a retreat or rout) this half-turn.
    pub moved: bool,
    /// A retreat or rout after melee counts as next turn's move.
    pub move_spent_next_turn: bool,
    /// Halts the turn after a rout.
    pub halt_next_turn: bool,
    /// Hot pursuit: turns spent pursuing so far (0 = not pursuing).
    pub pursuing: u8,
    /// Whom it pursues.
    pub pursuit_target: Option<UnitId>,
    /// Remaining free emergency-response successes (the spare pistol shot of E14/E16).
    pub spare_responses: u8,
    /// Turns since last in contact with the enemy (for the end of brokenness).
    pub turns_out_of_contact: u8,
    /// The turn in which it last fought a continuing melee (each pair fights once a turn).
    pub fought_turn: u16,
    /// Ammunition wagons with a gun (the scenario's `wagons`; Dickenson's rules use them).
    pub wagons: u8,
}

impl Unit {
    /// A unit ready to fight, at full CV.
    pub fn new(id: UnitId, side: Side, command: CommandId, kind: UnitKind, cv: u8) -> Unit {
        let formation = match kind {
            UnitKind::Artillery(_) => Formation::Limbered,
            _ => Formation::Line,
        };
        let (frontage, depth) = match kind {
            UnitKind::Artillery(_) => (0.5, 1.0),
            UnitKind::ForlornHope => (3.0, 0.5),
            _ => (3.0, 1.0),
        };
        Unit {
            id,
            side,
            command,
            kind,
            formation,
            size: SizeClass::Normal,
            men: None,
            start_cv: cv,
            cv,
            lowest_cv: cv,
            pos: Vec2::new(0.0, 0.0),
            facing: 0.0,
            frontage,
            depth,
            status: UnitStatus::Active,
            disordered: false,
            broken: false,
            pinned: false,
            engaged_with: None,
            shots_fired: 0,
            rallied_this_turn: 0,
            no_advance: false,
            moved: false,
            move_spent_next_turn: false,
            halt_next_turn: false,
            pursuing: 0,
            pursuit_target: None,
            spare_responses: 0,
            turns_out_of_contact: 0,
            fought_turn: 0,
            wagons: 0,
        }
    }

    pub fn at(mut self, x: f64, y: f64, facing: Facing) -> Unit {
        self.pos = Vec2::new(x, y);
        self.facing = facing;
        self
    }

    pub fn is_active(&self) -> bool {
        self.status == UnitStatus::Active
    }

    /// Skirmishers: forlorn hopes and dismounted dragoons (never disordered by ground).
    pub fn is_skirmisher(&self) -> bool {
        matches!(self.kind, UnitKind::ForlornHope)
            || (self.kind == UnitKind::Dragoons && self.formation == Formation::Dismounted)
    }

    /// Cavalry for melee and pursuit: horse, and dragoons while mounted.
    pub fn is_cavalry(&self) -> bool {
        self.kind.is_horse()
    }

    /// Loses `n` CV (never below 0), keeping the lowest point; returns the CV actually lost.
    pub fn lose_cv(&mut self, n: u8) -> u8 {
        let lost = n.min(self.cv);
        self.cv -= lost;
        self.lowest_cv = self.lowest_cv.min(self.cv);
        lost
    }

    /// Gains up to `n` CV, never above `cap`; returns the CV actually gained.
    pub fn gain_cv(&mut self, n: u8, cap: u8) -> u8 {
        let room = cap.saturating_sub(self.cv);
        let g = n.min(room);
        self.cv += g;
        g
    }
}

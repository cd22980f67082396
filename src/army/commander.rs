//! Commanders (Captain-General, wing, branch and brigade commanders) and their commands.

use serde::{Deserialize, Serialize};

use super::{Side, UnitId};
use crate::battlefield::Vec2;

pub type CommanderId = u16;
pub type CommandId = u16;

/// A commander's fixed qualities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommanderRating {
    /// Added to his D6 for LPs.
    pub lp_modifier: i8,
    /// Command radius in inches.
    pub radius: f64,
    /// Re-rolls per half-turn... per turn (the text: "remembering that the turn has two parts").
    pub rerolls: u8,
    /// A cowardly wretch gives the enemy this many re-rolls against his units each turn.
    pub enemy_rerolls: u8,
}

/// One general on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Commander {
    pub id: CommanderId,
    pub side: Side,
    /// Index of the name in the battle's name table (names stay out of the hot loop).
    pub name: u16,
    pub rating: CommanderRating,
    pub is_captain_general: bool,
    /// The command he leads (None for the Captain-General).
    pub command: Option<CommandId>,
    pub pos: Vec2,
    /// The unit he leads from the front.
    pub attached_unit: Option<UnitId>,
    /// The command the Captain-General has joined ("Fairfax joins the right wing horse").
    pub attached_command: Option<CommandId>,
    pub lps: u8,
    pub rerolls_left: u8,
    /// The free re-roll an attached general with none left still brings this turn.
    pub free_rerolls_left: u8,
    /// Turns until he may act again (stampede, swept away, replacement on the way).
    pub out_of_action: u8,
    /// Killed, mortally wounded, gravely wounded or captured.
    pub lost: bool,
    pub captured: bool,
    /// Morale bonus from a heroic pose (+1 RR), or the -1 of "hurt".
    pub morale_adjust: i8,
    pub skill_adjust: i8,
    /// A replacement is on his way (the old general was lost); he takes up post when
    /// `out_of_action` runs out.
    pub replacing: bool,
    /// Black Powder's Command rating, when the scenario gives one (else the ruleset's default).
    pub staff_rating: Option<u8>,
}

impl Commander {
    pub fn new(id: CommanderId, side: Side, rating: CommanderRating) -> Commander {
        Commander {
            id,
            side,
            name: id,
            rating,
            is_captain_general: false,
            command: None,
            pos: Vec2::new(0.0, 0.0),
            attached_unit: None,
            attached_command: None,
            lps: 0,
            rerolls_left: 0,
            free_rerolls_left: 0,
            out_of_action: 0,
            lost: false,
            captured: false,
            morale_adjust: 0,
            skill_adjust: 0,
            replacing: false,
            staff_rating: None,
        }
    }
    pub fn available(&self) -> bool {
        !self.lost && self.out_of_action == 0
    }
    pub fn rerolls_per_turn(&self) -> u8 {
        (i16::from(self.rating.rerolls) + i16::from(self.morale_adjust)).clamp(0, 9) as u8
    }
}

/// What sort of formation a command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    Horse,
    Foot,
    Artillery,
    Brigade,
    /// Independent regiments and forlorn hopes: no wing or brigade commander.
    Independent,
}

/// A wing, branch, brigade, train or independent unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub id: CommandId,
    pub side: Side,
    pub kind: CommandKind,
    /// Index of the name in the battle's name table.
    pub name: u16,
    pub commander: Option<CommanderId>,
    pub units: Vec<UnitId>,
    /// LPs available this turn.
    pub lps: u8,
    /// Doctrine index (into the battle's doctrine table).
    pub doctrine: u16,
    /// Commissary General: his skill rolls take 1 off (an option).
    pub commissary: bool,
}

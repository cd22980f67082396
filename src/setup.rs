//! A battle ready to be fought many times: the armies, the ground and the settings, as built
//! from a scenario. Each battle starts from this template and rolls its own randomised ratings
//! and generalship.

use std::sync::Arc;

use crate::army::{Command, Commander, CommanderId, Side, Unit};
use crate::battlefield::Ground;
use crate::doctrine::DoctrineParams;
use crate::rules::ironsides::IronsidesRules;

/// How a unit's CV is found for each battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingSource {
    /// The CV in the template.
    Fixed,
    /// Rolled afresh every battle: the CV for a D6 of 1..6 (a row of the ratings table).
    Randomised { rolls: [u8; 6] },
}

impl RatingSource {
    /// This battle's CV: the template's, or the table's CV for one D6.
    pub fn roll<D: crate::dice::DiceSource>(&self, template_cv: u8, dice: &mut D) -> u8 {
        match self {
            RatingSource::Fixed => template_cv,
            RatingSource::Randomised { rolls } => rolls[usize::from(dice.d6() - 1)],
        }
    }
}

/// How a commander's skill and morale are found for each battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommanderSource {
    /// The rating in the template (named commander, "average" or fixed in the scenario).
    Fixed,
    /// Rolled on the generalship table every battle, with this modifier to the skill roll.
    Rolled { skill_modifier: i8 },
}

/// Names kept out of the hot loop.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Names {
    pub units: Vec<String>,
    pub commanders: Vec<String>,
    pub commands: Vec<String>,
}

/// Everything a battle needs, shared read-only by every thread.
#[derive(Debug, Clone)]
pub struct BattleSetup {
    /// Scenario name, for reports.
    pub name: String,
    pub rules: Arc<IronsidesRules>,
    pub ground: Ground,
    pub turn_limit: u16,
    /// An army breaks when the CV it has lost reaches this share of its starting CV.
    pub break_fraction: f64,
    /// Units at their template CV; `units[i].id == i`.
    pub units: Vec<Unit>,
    /// One per unit.
    pub ratings: Vec<RatingSource>,
    /// `commanders[i].id == i`.
    pub commanders: Vec<Commander>,
    /// One per commander.
    pub commander_sources: Vec<CommanderSource>,
    /// `commands[i].id == i`.
    pub commands: Vec<Command>,
    /// Each side's Captain-General.
    pub captain_generals: [Option<CommanderId>; 2],
    pub names: Names,
    /// Doctrine parameters, indexed by `Command::doctrine`; the Captain-General of each side uses
    /// `cg_doctrine[side]`.
    pub doctrines: Vec<DoctrineParams>,
    pub cg_doctrine: [u16; 2],
}

impl BattleSetup {
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.side == side)
    }
    pub fn unit_name(&self, id: u16) -> &str {
        self.names
            .units
            .get(usize::from(id))
            .map(String::as_str)
            .unwrap_or("?")
    }
    pub fn commander_name(&self, id: u16) -> &str {
        self.names
            .commanders
            .get(usize::from(id))
            .map(String::as_str)
            .unwrap_or("?")
    }
    pub fn command_name(&self, id: u16) -> &str {
        self.names
            .commands
            .get(usize::from(id))
            .map(String::as_str)
            .unwrap_or("?")
    }
}

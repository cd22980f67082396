//! A battle ready to be fought many times: the armies, the ground and the settings, as built
//! from a scenario. Each battle starts from this template and rolls its own randomised ratings
//! and generalship.

use std::sync::Arc;

use crate::army::{Command, CommandId, Commander, CommanderId, Side, Unit, UnitId};
use crate::battlefield::{Ground, Vec2};
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

/// When late arrivals come onto the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArrivalTime {
    /// At the start of this turn.
    Turn(u16),
    /// From `from_turn` on, at the start of the first turn whose D6 scores `on` or more (one die
    /// a turn, from the arrival's own stream of the battle's seed).
    Roll { from_turn: u16, on: u8 },
}

/// A command or unit that is off the table at the start and arrives later.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrival {
    /// Each arriving unit with the place and facing (radians) it takes on arrival.
    pub units: Vec<(UnitId, Vec2, f64)>,
    pub time: ArrivalTime,
    /// Where the arriving command's general rides in with it, if a whole command arrives.
    pub general: Option<(CommanderId, Vec2)>,
    /// The arrival's own dice stream (a command's id, or past the commands a unit's), so that
    /// its rolls never shift any other dice of the battle.
    pub stream: u64,
}

/// When a command held in reserve is released.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReserveUntil {
    /// At the start of this turn.
    Turn(u16),
    /// As soon as an enemy unit on the table is within this many inches of one of its units.
    EnemyWithin(f64),
}

/// A command that holds (makes no moves) until its condition is met.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reserve {
    pub command: CommandId,
    pub until: ReserveUntil,
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
    /// The scenario's changes to the other rulesets' values (none: their built-in files).
    pub ruleset_changes: crate::rules::RulesetChanges,
    pub ground: Ground,
    pub turn_limit: u16,
    /// The turn limit as the scenario wrote it (None: it left it to the ruleset's default).
    pub scenario_turn_limit: Option<u16>,
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
    /// Late arrivals (none: every unit is on the table from the start).
    pub arrivals: Vec<Arrival>,
    /// Commands held in reserve.
    pub reserves: Vec<Reserve>,
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

    /// The units that start the battle held back: the rearmost share of each command (its
    /// doctrine's `reserve_fraction`, rounded down) by how far towards the enemy's edge each
    /// deploys (Parliament faces +y), the lower id first among equals. Black Powder and
    /// Dickenson mark them once; Ironsides' doctrine ranks its units anew each turn.
    pub fn rearmost_reserves(&self) -> Vec<UnitId> {
        let forward = |u: UnitId| {
            let unit = &self.units[usize::from(u)];
            match unit.side {
                Side::Parliament => unit.pos.y,
                Side::Royalist => -unit.pos.y,
            }
        };
        let mut held = Vec::new();
        for c in &self.commands {
            let Some(d) = self.doctrines.get(usize::from(c.doctrine)) else {
                continue;
            };
            let n = (c.units.len() as f64 * d.reserve_fraction).floor() as usize;
            let mut ids = c.units.clone();
            ids.sort_by(|&a, &b| forward(a).total_cmp(&forward(b)).then(a.cmp(&b)));
            held.extend_from_slice(&ids[..n.min(ids.len())]);
        }
        held
    }
}

#[cfg(test)]
mod tests {
    use crate::army::Side;
    use crate::scenario::Scenario;

    /// In every built-in battle, each command holds back its doctrine's share of its units,
    /// rounded down, and none of them stands further forward than any it sends on.
    #[test]
    fn the_rearmost_share_of_each_command_starts_in_reserve() {
        let mut commands_holding = 0;
        for name in ["marston_moor", "naseby", "edgehill", "first_newbury"] {
            let setup = Scenario::load_builtin(name, &[])
                .and_then(|s| s.setup())
                .expect("built-in scenario");
            let held = setup.rearmost_reserves();
            let forward = |u: &u16| {
                let unit = &setup.units[usize::from(*u)];
                let y = unit.pos.y;
                if unit.side == Side::Parliament { y } else { -y }
            };
            for c in &setup.commands {
                let d = &setup.doctrines[usize::from(c.doctrine)];
                let (back, on): (Vec<u16>, Vec<u16>) =
                    c.units.iter().partition(|u| held.contains(u));
                let n = (c.units.len() as f64 * d.reserve_fraction).floor() as usize;
                assert_eq!(back.len(), n, "{name}: command {}", c.id);
                let rearmost = on.iter().map(forward).fold(f64::INFINITY, f64::min);
                assert!(
                    back.iter().all(|u| forward(u) <= rearmost),
                    "{name}: {}",
                    c.id
                );
                commands_holding += usize::from(n > 0);
            }
        }
        assert!(
            commands_holding > 5,
            "{commands_holding} commands hold a reserve"
        );
    }
}

//! Who is who in a run: the units, commands and commanders the tallies are indexed by, with
//! their names. Kept in partial results so `merge` and the reports need no scenario file.

use serde::{Deserialize, Serialize};

use super::measures::{Counter, MeasureInfo, Measures};
use crate::army::{CommandKind, Side};
use crate::setup::{BattleSetup, RatingSource};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitInfo {
    pub name: String,
    pub side: Side,
    pub command: u16,
    /// The scenario key of its kind (`gallopers`, `pike_heavy_foot`).
    pub kind: String,
    /// Horse: the units that pursue.
    pub cavalry: bool,
    /// The template CV (the CV of a unit whose rating is not randomised).
    pub start_cv: u8,
    /// Its CV is rolled afresh every battle.
    pub randomised: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandInfo {
    pub name: String,
    pub side: Side,
    pub kind: CommandKind,
    pub units: Vec<u16>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommanderInfo {
    pub name: String,
    pub side: Side,
    pub command: Option<u16>,
    pub captain_general: bool,
}

/// What each commander casualty result does to him, in [`GENERAL_RESULTS`] order: (out of the
/// battle, turns out of action). Each ruleset declares its own (Ironsides reads its casualty
/// tables); by default only `lost` takes him out.
///
/// [`GENERAL_RESULTS`]: super::GENERAL_RESULTS
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommanderEffects(pub [(bool, u8); 11]);

impl Default for CommanderEffects {
    fn default() -> Self {
        let mut fx = [(false, 0u8); 11];
        fx[super::general_result_index(crate::events::GeneralResult::Lost)] = (true, 0);
        CommanderEffects(fx)
    }
}

fn cv() -> String {
    "cv".into()
}

/// The order of battle as the statistics see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The scenario's display name.
    pub scenario: String,
    pub turn_limit: u16,
    /// The highest CV the ruleset allows (a randomised unit's CV never exceeds it).
    pub cv_max: u8,
    /// The unit losses are counted in, as the measure and file names say it (`cv_lost`,
    /// `casualties_lost`, `figures_lost`): its ruleset's [`currency`]. Not kept in partial
    /// results: `merge` takes it from the ruleset their run names.
    ///
    /// [`currency`]: crate::rules::Ruleset::currency
    #[serde(skip, default = "cv")]
    pub currency: String,
    pub units: Vec<UnitInfo>,
    pub commands: Vec<CommandInfo>,
    pub commanders: Vec<CommanderInfo>,
    /// What the ruleset's commander casualties do, for the collector. Not kept in files: the
    /// reports of a merge only read counts, and a collector is made from a layout fresh from
    /// its ruleset ([`crate::rules::Ruleset::layout`]).
    #[serde(skip)]
    pub commander_effects: CommanderEffects,
    /// The ruleset's own measures (none unless it declares them: [`Layout::with_measures`]).
    #[serde(default)]
    pub measures: Vec<MeasureInfo>,
    /// How the ruleset counts them, for the collector; not kept in files (as
    /// `commander_effects`).
    #[serde(skip)]
    pub counter: Option<Counter>,
}

impl Layout {
    pub fn of(setup: &BattleSetup) -> Layout {
        let units = setup
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| UnitInfo {
                name: setup.unit_name(i as u16).to_string(),
                side: u.side,
                command: u.command,
                kind: u.kind.key().to_string(),
                cavalry: u.is_cavalry(),
                start_cv: u.start_cv,
                randomised: matches!(setup.ratings.get(i), Some(RatingSource::Randomised { .. })),
            })
            .collect();
        let commands = setup
            .commands
            .iter()
            .enumerate()
            .map(|(i, c)| CommandInfo {
                name: setup.command_name(i as u16).to_string(),
                side: c.side,
                kind: c.kind,
                units: c.units.clone(),
            })
            .collect();
        let commanders = setup
            .commanders
            .iter()
            .enumerate()
            .map(|(i, c)| CommanderInfo {
                name: setup.commander_name(i as u16).to_string(),
                side: c.side,
                command: c.command,
                captain_general: c.is_captain_general,
            })
            .collect();
        Layout {
            scenario: setup.name.clone(),
            turn_limit: setup.turn_limit,
            cv_max: setup.rules.limits.cv_max,
            currency: cv(),
            units,
            commands,
            commanders,
            commander_effects: CommanderEffects::default(),
            measures: Vec::new(),
            counter: None,
        }
    }

    /// With a ruleset's own measures, counted by the collector from its events.
    pub fn with_measures(self, m: &Measures) -> Layout {
        Layout {
            measures: m.infos(),
            counter: Some(m.counter),
            ..self
        }
    }

    /// The highest CV a unit can start a battle with.
    pub fn unit_cv_cap(&self, unit: usize) -> u8 {
        let u = &self.units[unit];
        if u.randomised {
            self.cv_max.max(u.start_cv)
        } else {
            u.start_cv
        }
    }

    /// The largest CV total a side can field (for sizing histograms).
    pub fn side_cv_cap(&self, side: Side) -> i64 {
        (0..self.units.len())
            .filter(|&i| self.units[i].side == side)
            .map(|i| i64::from(self.unit_cv_cap(i)))
            .sum()
    }

    /// A measure's name in this layout's currency: `lost` gives `cv_lost` under Ironsides,
    /// `casualties_lost` under Black Powder.
    pub fn measure(&self, stem: &str) -> String {
        format!("{}_{stem}", self.currency)
    }

    /// The losses file's name: `cv_losses.csv`, `casualties_losses.csv`, `figures_losses.csv`.
    pub fn losses_file(&self) -> String {
        losses_file(&self.currency)
    }

    /// Whether any unit's rating is rolled per battle.
    pub fn any_randomised(&self) -> bool {
        self.units.iter().any(|u| u.randomised)
    }
}

/// The losses file of a currency.
pub fn losses_file(currency: &str) -> String {
    format!("{currency}_losses.csv")
}

/// A currency as prose names it: `CV` for Ironsides, else its key (`casualties`, `figures`).
pub fn currency_label(currency: &str) -> String {
    if currency == "cv" {
        "CV".into()
    } else {
        currency.into()
    }
}

//! A ruleset's own measures, in its own currency (Dickenson's figures lost by type, volleys,
//! the fall of shot ...): the ruleset declares them and says what each of its events adds to
//! them; the collector sums them per unit and battle without knowing what they mean, and the
//! report writes them in the same tidy shape as every other measure.

use serde::{Deserialize, Serialize};

use crate::army::UnitId;
use crate::events::Event;

/// How a measure is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Report {
    /// A total per battle: `<name>_mean` with its interval, `_sd` and quantiles.
    Total,
    /// Whether it happened in a battle: `p_<name>`, the share of battles with any.
    Happened,
    /// `Happened`, of a command rather than the unit its events name (a brigade's break is
    /// counted to its first unit): written for commands and sides only.
    CommandHappened,
}

impl Report {
    /// Whether it is written for each unit (else only for commands and sides).
    pub fn per_unit(self) -> bool {
        self != Report::CommandHappened
    }
}

/// One measure a ruleset declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasureInfo {
    pub name: String,
    pub report: Report,
}

impl MeasureInfo {
    pub fn new(name: &str, report: Report) -> MeasureInfo {
        MeasureInfo {
            name: name.to_string(),
            report,
        }
    }
}

/// What one event adds to the measures: up to [`Counts::CAP`] (unit, measure, amount).
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    items: [(UnitId, u8, u32); Counts::CAP],
    len: u8,
}

impl Counts {
    pub const CAP: usize = 8;

    /// Adds `amount` to measure `measure` of `unit` (nothing when 0).
    ///
    /// # Panics
    /// If one event adds to more than [`Counts::CAP`] measures: a ruleset's bug.
    pub fn add(&mut self, unit: UnitId, measure: usize, amount: u32) {
        if amount == 0 {
            return;
        }
        let i = usize::from(self.len);
        assert!(
            i < Self::CAP,
            "an event adds to at most {} measures",
            Self::CAP
        );
        self.items[i] = (unit, measure as u8, amount);
        self.len += 1;
    }

    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, u32)> + '_ {
        self.items[..usize::from(self.len)]
            .iter()
            .map(|&(u, m, a)| (usize::from(u), usize::from(m), a))
    }
}

/// How a ruleset counts its measures from its events: which events it reads (the rest are
/// never built for the collector) and what each adds.
#[derive(Clone, Copy)]
pub struct Counter {
    pub wants: fn(&Event) -> bool,
    pub count: fn(&Event, &mut Counts),
}

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Counter")
    }
}

impl PartialEq for Counter {
    /// The counting is the ruleset's code, not part of a layout's identity.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A ruleset's measures and its counting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measures {
    pub declared: &'static [(&'static str, Report)],
    pub counter: Counter,
}

impl Measures {
    /// The declarations as a layout keeps them.
    pub fn infos(&self) -> Vec<MeasureInfo> {
        self.declared
            .iter()
            .map(|&(n, r)| MeasureInfo::new(n, r))
            .collect()
    }
}

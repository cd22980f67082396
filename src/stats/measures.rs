//! A ruleset's own measures, in its own currency (Dickenson's figures lost by type, volleys,
//! the fall of shot ...): the ruleset declares them and says what each of its events adds to
//! them; the collector sums them per unit and battle without knowing what they mean, and the
//! report writes them in the same tidy shape as every other measure.

use serde::{Deserialize, Serialize};

use crate::army::UnitId;
use crate::events::{Event, Observer};

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

    /// Whether it is a happening (a share of battles) rather than a total.
    pub fn happened(&self) -> bool {
        self.report != Report::Total
    }

    /// The name of its headline figure in `measures.csv`: `<name>_mean` for a total,
    /// `p_<name>` for a happening.
    pub fn figure_name(&self) -> String {
        if self.happened() {
            format!("p_{}", self.name)
        } else {
            format!("{}_mean", self.name)
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

/// Each unit's totals of a ruleset's own measures in one battle, counted from its events: the
/// collector's count, and what the what-if tools read of each version of a battle.
#[derive(Debug, Clone)]
pub struct OwnTotals {
    counter: Option<Counter>,
    measures: usize,
    /// Unit-major: unit `u`'s total of measure `k` at `u * measures + k`.
    totals: Vec<u32>,
}

impl OwnTotals {
    /// For `units` units and `measures` measures counted by `counter` (none: nothing counted).
    pub fn new(units: usize, measures: usize, counter: Option<Counter>) -> OwnTotals {
        OwnTotals {
            counter,
            measures,
            totals: vec![0; units * measures],
        }
    }

    /// How many measures each unit has.
    pub fn measures(&self) -> usize {
        self.measures
    }

    /// Readies for the next battle.
    pub fn clear(&mut self) {
        self.totals.fill(0);
    }

    /// Unit `unit`'s total of measure `k` in the battle.
    pub fn of(&self, unit: usize, k: usize) -> u32 {
        self.totals[unit * self.measures + k]
    }

    /// Adds `amount` to unit `unit`'s total of measure `k`.
    pub fn add(&mut self, unit: usize, k: usize, amount: u32) {
        self.totals[unit * self.measures + k] += amount;
    }

    /// Every unit's totals, unit after unit.
    pub fn by_unit(&self) -> std::slice::Chunks<'_, u32> {
        self.totals.chunks(self.measures.max(1))
    }
}

impl Observer for OwnTotals {
    fn listening(&self) -> bool {
        self.counter.is_some()
    }

    #[inline]
    fn wants(&self, e: &Event) -> bool {
        self.counter.is_some_and(|c| (c.wants)(e))
    }

    fn event(&mut self, e: &Event) {
        let Some(c) = self.counter else {
            return;
        };
        if (c.wants)(e) {
            let mut counts = Counts::default();
            (c.count)(e, &mut counts);
            for (unit, k, amount) in counts.iter() {
                self.add(unit, k, amount);
            }
        }
    }
}

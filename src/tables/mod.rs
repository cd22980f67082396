//! Exact probability tables for players: hit chances, reaction tests, rallies, close combat,
//! cavalry melee, pursuit, charges followed through to the halt test, risk to generals and generalship, computed by enumerating every dice
//! outcome through the engine's own rule functions (see [`exact::enumerate`]), never by sampling.
//!
//! Each table is kept twice: as tidy data (one observation per row, for CSV) and as one or more
//! grids for people (Markdown and HTML). [`render`] turns them into text.

pub mod black_powder;
pub mod chained;
pub mod chart;
pub mod dickenson;
pub mod exact;
pub mod generals;
pub mod hit;
pub mod leadership;
pub mod melee;
pub mod pursuit;
pub mod rally;
pub mod reaction;
pub mod render;

pub use exact::{Dist, Prob};

use crate::rules::ironsides::IronsidesRules;

/// Depth limit for enumerations of functions that roll a bounded number of dice: far more than any
/// of them rolls, so a cut-off (which [`exact::Enumeration::exact`] refuses) means a bug.
pub const MAX_DICE: usize = 32;

/// One cell of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
    P(Prob),
    /// A probability summed in floating point from an enumeration whose exact fraction does not
    /// fit the exact type.
    Real(f64),
    /// Nothing to show (a combination that cannot happen).
    Empty,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }
    pub fn int(v: impl Into<i64>) -> Cell {
        Cell::Int(v.into())
    }
}

/// A column of tidy data. A probability column becomes two CSV fields: `<id>` (decimal) and
/// `<id>_exact` (the fraction).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TidyCol {
    pub id: &'static str,
    pub prob: bool,
}

/// A key (identifier or number) column.
pub const fn key(id: &'static str) -> TidyCol {
    TidyCol { id, prob: false }
}

/// A probability column.
pub const fn prob(id: &'static str) -> TidyCol {
    TidyCol { id, prob: true }
}

/// Tidy data: one observation per row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tidy {
    pub columns: Vec<TidyCol>,
    pub rows: Vec<Vec<Cell>>,
}

impl Tidy {
    pub fn new(columns: Vec<TidyCol>) -> Tidy {
        Tidy {
            columns,
            rows: Vec::new(),
        }
    }

    /// Adds a row; panics if it does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "tidy row width");
        self.rows.push(row);
    }

    /// The index of column `id`.
    pub fn col(&self, id: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.id == id)
    }
}

/// A grid for people: a caption, a header and rows. The first `labels` columns name the row
/// (left-aligned); the rest are values (right-aligned).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Grid {
    pub caption: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    pub labels: usize,
}

impl Grid {
    pub fn new(caption: impl Into<String>, header: Vec<String>) -> Grid {
        Grid {
            caption: caption.into(),
            header,
            rows: Vec::new(),
            labels: 1,
        }
    }

    /// Sets how many leading columns are row labels.
    pub fn labels(mut self, n: usize) -> Grid {
        self.labels = n;
        self
    }

    /// Adds a row; panics if it does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(
            row.len(),
            self.header.len(),
            "grid row width in `{}`",
            self.caption
        );
        self.rows.push(row);
    }
}

/// One printable table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Identifier: the CSV `table` value and the file stem under `--out`.
    pub id: &'static str,
    pub title: String,
    /// How to read it: one paragraph per entry.
    pub about: Vec<String>,
    pub tidy: Tidy,
    pub grids: Vec<Grid>,
}

/// Presentation choices (none of them a rule constant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The die modifiers shown in the hit table, inclusive.
    pub modifier_min: i8,
    pub modifier_max: i8,
    /// The die modifier of every die in the close-combat hits table.
    pub melee_modifier: i8,
    /// The lowest CV shown in the cavalry melee tables (the text's units run 2..=7).
    pub melee_cv_from: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            modifier_min: -3,
            modifier_max: 5,
            melee_modifier: 0,
            melee_cv_from: 2,
        }
    }
}

/// Every table's identifier, in the order they are printed.
pub const TABLE_IDS: [&str; 13] = [
    "hit",
    "reaction",
    "rally",
    "close_combat_hits",
    "cavalry_melee",
    "cavalry_melee_losses",
    "pursuit",
    "charge_chain_horse",
    "charge_chain_foot",
    "general_risk",
    "general_casualty",
    "generalship",
    "leadership_points",
];

/// Builds the table `id`, or None if there is no such table.
pub fn build(rules: &IronsidesRules, opts: &Options, id: &str) -> Option<Table> {
    Some(match id {
        "hit" => hit::table(rules, opts),
        "reaction" => reaction::table(rules),
        "rally" => rally::table(rules),
        "close_combat_hits" => melee::hits_table(rules, opts),
        "cavalry_melee" => melee::cavalry_table(rules, opts),
        "cavalry_melee_losses" => melee::cavalry_losses_table(rules, opts),
        "pursuit" => pursuit::table(rules),
        "charge_chain_horse" => chained::horse_table(rules),
        "charge_chain_foot" => chained::foot_table(rules),
        "general_risk" => generals::risk_table(rules),
        "general_casualty" => generals::casualty_table(rules),
        "generalship" => leadership::generalship_table(rules),
        "leadership_points" => leadership::lps_table(rules),
        _ => return None,
    })
}

/// The most dice one enumerated roll may use (6^6 = 46,656 runs).
pub const MAX_ENUMERATED_DICE: u8 = 6;

/// The most close-combat dice the binomial table handles: 6^24 squared still fits in u128.
pub const MAX_BINOMIAL_DICE: u8 = 24;

/// Refuses a ruleset whose dice counts are too large to enumerate exactly in reasonable time or
/// to hold in the exact type; the message names the key.
pub fn check_rules(rules: &IronsidesRules) -> std::result::Result<(), String> {
    let p = &rules.pursuit;
    let full = rules
        .close_combat
        .horse_charge_full_dice
        .min(rules.limits.cv_max);
    for (key, n, max) in [
        (
            "pursuit.trotter_halt_dice",
            p.trotter_halt_dice,
            MAX_ENUMERATED_DICE,
        ),
        (
            "pursuit.galloper_halt_dice",
            p.galloper_halt_dice,
            MAX_ENUMERATED_DICE,
        ),
        (
            "pursuit.cuirassier_halt_dice",
            p.cuirassier_halt_dice,
            MAX_ENUMERATED_DICE,
        ),
        (
            "rally.out_of_radius_dice",
            rules.rally.out_of_radius_dice,
            MAX_ENUMERATED_DICE,
        ),
        (
            "close_combat.horse_charge_full_dice",
            full,
            MAX_ENUMERATED_DICE,
        ),
        (
            "close_combat (largest dice count x flank multiplier)",
            melee::max_dice(rules),
            MAX_BINOMIAL_DICE,
        ),
    ] {
        if n > max {
            return Err(format!(
                "`{key}` gives {n} dice: the exact tables handle at most {max}"
            ));
        }
    }
    Ok(())
}

/// Every table, in order.
pub fn all(rules: &IronsidesRules, opts: &Options) -> Vec<Table> {
    TABLE_IDS
        .iter()
        .map(|id| build(rules, opts, id).expect("every listed table builds"))
        .collect()
}

/// Effective CVs worth a row in the tables that use the hit rule: 1 up to the largest a unit can
/// have (the ruleset's top CV plus the Captain-General's bonus to his command).
pub fn effective_cvs(rules: &IronsidesRules) -> std::ops::RangeInclusive<u8> {
    1..=rules
        .limits
        .cv_max
        .saturating_add(rules.generals.captain_general_attached_cv_bonus)
}

/// A signed modifier as players write it: `+3`, `0`, `-2`.
pub fn signed(m: i8) -> String {
    if m > 0 {
        format!("+{m}")
    } else {
        m.to_string()
    }
}

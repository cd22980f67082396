//! What a scenario file says, as serde reads it. Every table refuses unknown keys, so a typo is
//! an error with its line, never a silently ignored setting. The checks serde cannot make (CV
//! ranges, names, geometry) are in `build.rs`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use toml::Spanned;

use crate::army::{Arm, CommandKind, Formation, Side, SizeClass};
use crate::battlefield::{AreaKind, ObstacleKind};

fn default_ruleset() -> String {
    "ironsides".into()
}

/// A whole scenario file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Shown in reports; the file's name when absent.
    pub name: Option<String>,
    pub description: Option<String>,
    /// "ironsides" (built in) or a ruleset file path relative to the scenario file.
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    pub table: Option<TableSpec>,
    /// Whole turns before the battle ends as a draw (default: the ruleset's).
    pub turn_limit: Option<i64>,
    /// An army breaks when the CV it has lost reaches this share of its start (default: the ruleset's).
    pub break_fraction: Option<f64>,
    #[serde(default)]
    pub terrain: TerrainSpec,
    /// Changes to the ruleset for this scenario, written as a part of a ruleset file
    /// (`[rules.options]` `no_reaction_from_fire_at_cv = 4`; a list entry by index from 0,
    /// `rules.ratings.7.arms.foot.standard`). Laid over the ruleset before it is read, so its keys
    /// and values are checked as the ruleset's own.
    pub rules: Option<toml::Table>,
    /// Changes to Black Powder's values (keys of `configs/rulesets/black_powder.toml`), laid over
    /// its built-in file and checked as its own whichever ruleset fights; they count when
    /// Black Powder does.
    pub black_powder_rules: Option<toml::Table>,
    /// Changes to Dickenson's values (keys of `configs/rulesets/dickenson.toml`), as
    /// `black_powder_rules` are to Black Powder's.
    pub dickenson_rules: Option<toml::Table>,
    /// What happened on the day, for a historical battle (`ecw-sim calibrate` fights these).
    pub history: Option<HistorySpec>,
    pub parliament: SideSpec,
    pub royalist: SideSpec,
}

impl ScenarioFile {
    pub fn side(&self, side: Side) -> &SideSpec {
        match side {
            Side::Parliament => &self.parliament,
            Side::Royalist => &self.royalist,
        }
    }
}

/// The historical outcome of a battle the scenario recreates: never read by the engine, only set
/// beside the simulated outcome by `ecw-sim calibrate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistorySpec {
    /// The day, as written (`"1643-07-13"`).
    pub date: String,
    pub winner: HistoricalResult,
    /// The arm whose fighting decided the day.
    pub decided_by: Arm,
    /// One line on how it was decided.
    pub summary: Option<String>,
}

/// Who won on the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoricalResult {
    Parliament,
    Royalist,
    /// Neither army broke nor left the field beaten on the day.
    Draw,
}

impl HistoricalResult {
    pub fn name(self) -> &'static str {
        match self {
            HistoricalResult::Parliament => "parliament",
            HistoricalResult::Royalist => "royalist",
            HistoricalResult::Draw => "draw",
        }
    }

    /// The side that won, if one did.
    pub fn side(self) -> Option<Side> {
        match self {
            HistoricalResult::Parliament => Some(Side::Parliament),
            HistoricalResult::Royalist => Some(Side::Royalist),
            HistoricalResult::Draw => None,
        }
    }
}

/// Table size in inches (default 72 x 48).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    pub width: Option<f64>,
    pub depth: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    #[serde(default)]
    pub areas: Vec<AreaSpec>,
    #[serde(default)]
    pub obstacles: Vec<ObstacleSpec>,
    #[serde(default)]
    pub camps: Vec<CampSpec>,
}

/// Rough ground, woods, a hill, a road or a bog: a closed polygon (the last point joins the first).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaSpec {
    pub kind: AreaKind,
    pub name: Option<String>,
    pub points: Vec<[f64; 2]>,
}

/// Hard or soft cover for defenders behind a linear obstacle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    Soft,
    Hard,
}

/// A hedge, wall, high wall, ditch, stream or ford: one segment (`from`, `to`) or a line of segments (`points`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    pub kind: ObstacleKind,
    pub name: Option<String>,
    pub from: Option<[f64; 2]>,
    pub to: Option<[f64; 2]>,
    pub points: Option<Vec<[f64; 2]>>,
    /// Crossing-cost multiplier: 1 is the rule's cost, 2 double, 0 impassable.
    pub severity: Option<f64>,
    /// Default: hard for walls, soft for the rest.
    pub cover: Option<Cover>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampSpec {
    pub side: Side,
    pub x: f64,
    pub y: f64,
    pub radius: f64,
    #[serde(default)]
    pub entrenched: bool,
}

/// How a unit's CV is found when the scenario does not fix it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingKind {
    /// The table's "Standard" column.
    Standard,
    /// Rolled on the table every battle.
    #[serde(alias = "randomized")]
    Randomised,
}

/// One army.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub captain_general: Option<CommanderSpec>,
    /// The army's doctrine: the Captain-General's (default "cautious") and that of every wing,
    /// branch and brigade that names none (trains and independent bodies keep their kind's).
    pub doctrine: Option<String>,
    /// Year of the ratings table for this army's units.
    pub year: Option<u16>,
    /// Side of the ratings table (default: this side's name).
    pub rating_side: Option<String>,
    /// Rating for units that give neither `cv` nor `rating`.
    pub rating: Option<RatingKind>,
    /// Take the higher reading of a "4/5" standard rating, for units rated "standard" that do
    /// not say otherwise (a command's own setting comes first).
    pub rating_alt: Option<bool>,
    /// Commands by key, in file order (the key's position in the file orders them).
    pub commands: BTreeMap<Spanned<String>, CommandSpec>,
}

impl SideSpec {
    /// The commands in the order they appear in the file.
    pub fn commands_in_order(&self) -> Vec<(&str, &CommandSpec)> {
        let mut v: Vec<_> = self.commands.iter().collect();
        v.sort_by_key(|(k, _)| k.span().start);
        v.into_iter()
            .map(|(k, c)| (k.get_ref().as_str(), c))
            .collect()
    }
}

/// A wing, branch, brigade, train or independent body.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandSpec {
    /// Shown in reports (default: the key, "left_horse" -> "Left Horse").
    pub name: Option<String>,
    pub kind: CommandKind,
    pub commander: Option<CommanderSpec>,
    pub doctrine: Option<String>,
    /// Led by the Commissary General: a rolled commander's skill roll takes the ruleset's modifier.
    #[serde(default)]
    pub commissary: bool,
    /// Defaults for this command's units.
    pub rating_side: Option<String>,
    pub rating_year: Option<u16>,
    /// `rating_alt` for this command's units rated "standard" that do not set their own.
    pub rating_alt: Option<bool>,
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// Units spread evenly along a line instead of placed one by one.
    #[serde(default)]
    pub lines: Vec<LineSpec>,
    /// Off the table at the start: arrives at a turn, or from a turn on a die roll.
    pub arrives: Option<ArrivesSpec>,
    /// Holds (makes no moves) until a turn, or until an enemy comes within some inches.
    pub reserve_until: Option<ReserveSpec>,
}

/// `{ turn = 9 }` or `{ from_turn = 4, on = 4 }`, with an optional `at`: a table edge
/// (`"north"`, `"south"`, `"east"`, `"west"`) or a point `[x, y]` (default: where deployed).
/// Read wide so that out-of-range numbers get a range error, not a type error.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrivesSpec {
    pub turn: Option<i64>,
    pub from_turn: Option<i64>,
    pub on: Option<i64>,
    pub at: Option<PlaceSpec>,
}

/// A table edge by name, or a point in inches.
#[derive(Debug, Clone)]
pub enum PlaceSpec {
    Edge(String),
    Point([f64; 2]),
}

impl<'de> Deserialize<'de> for PlaceSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PlaceSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a table edge (\"north\", \"south\", \"east\", \"west\") or a point [x, y]",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<PlaceSpec, E> {
                Ok(PlaceSpec::Edge(s.to_string()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, a: A) -> Result<PlaceSpec, A::Error> {
                <[f64; 2]>::deserialize(de::value::SeqAccessDeserializer::new(a))
                    .map(PlaceSpec::Point)
            }
        }
        d.deserialize_any(V)
    }
}

/// `{ turn = 5 }` or `{ enemy_within = 12.0 }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveSpec {
    pub turn: Option<i64>,
    pub enemy_within: Option<f64>,
}

/// A deployment line: its units stand evenly spread along `from`-`to`, facing `facing`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineSpec {
    pub from: [f64; 2],
    pub to: [f64; 2],
    /// Degrees, 0 towards +y, 90 towards +x (default: towards the enemy edge).
    pub facing: Option<f64>,
    pub units: Vec<UnitSpec>,
    pub second_line: Option<SecondLineSpec>,
}

/// Supports spread along the same frontage, `behind` inches to the rear of their first line.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondLineSpec {
    pub behind: Option<f64>,
    pub units: Vec<UnitSpec>,
}

/// One regiment, brigade, body of skirmishers or pair of guns.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub name: String,
    /// `UnitKind::key()`: foot, pike_heavy_foot, trotters, light_artillery ...
    #[serde(rename = "type")]
    pub kind: String,
    /// Strength in men, turned into a size class (horse thresholds halved).
    pub men: Option<u32>,
    pub size: Option<SizeClass>,
    pub formation: Option<Formation>,
    /// Centre in inches (not in a line: the line places its units).
    pub x: Option<f64>,
    pub y: Option<f64>,
    /// Degrees, 0 towards +y, 90 towards +x (default: towards the enemy edge).
    pub facing: Option<f64>,
    /// A fixed CV. Read wide so that 900 is a range error, not a type error.
    pub cv: Option<i64>,
    pub rating: Option<RatingKind>,
    /// Take the higher reading of a "4/5" standard rating.
    pub rating_alt: Option<bool>,
    pub rating_side: Option<String>,
    pub rating_year: Option<u16>,
    /// Off the table at the start (its own arrival, before its command's).
    pub arrives: Option<ArrivesSpec>,
    /// Ammunition wagons with a gun (artillery only; read wide so that 300 is a range error).
    pub wagons: Option<i64>,
}

/// A commander: a named commander's key or "average" as a string, or a table.
#[derive(Debug, Clone)]
pub enum CommanderSpec {
    Key(String),
    Table(CommanderTable),
}

/// `{ roll = true }`, `{ roll = true, name = "Sir John Urry" }` or
/// `{ name = "Lord Byron", lp_modifier = 1, radius = 8.0, rerolls = 2 }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderTable {
    pub name: Option<String>,
    #[serde(default)]
    pub roll: bool,
    pub lp_modifier: Option<i8>,
    pub radius: Option<f64>,
    pub rerolls: Option<u8>,
    pub enemy_rerolls: Option<u8>,
    /// Black Powder: his Command rating (2D6 against it after modifiers); the ruleset's
    /// default when not given. Other rulesets ignore it.
    pub staff_rating: Option<u8>,
}

// By hand rather than `untagged`, so a bad key inside the table is named instead of "data did not
// match any variant".
impl<'de> Deserialize<'de> for CommanderSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CommanderSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a named commander (\"cromwell\"), \"average\", or a table such as { roll = true }")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CommanderSpec, E> {
                Ok(CommanderSpec::Key(s.to_string()))
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<CommanderSpec, M::Error> {
                CommanderTable::deserialize(de::value::MapAccessDeserializer::new(m))
                    .map(CommanderSpec::Table)
            }
        }
        d.deserialize_any(V)
    }
}

/// The keys serde accepts for a struct, asked of the struct itself so the override checker's
/// schema can never drift from the file format.
pub fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut found = None;
    let _ = T::deserialize(FieldProbe(&mut found));
    found.unwrap_or(&[])
}

struct FieldProbe<'a>(&'a mut Option<&'static [&'static str]>);

#[derive(Debug)]
struct ProbeDone;

impl fmt::Display for ProbeDone {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("probe")
    }
}
impl std::error::Error for ProbeDone {}
impl de::Error for ProbeDone {
    fn custom<T: fmt::Display>(_: T) -> Self {
        ProbeDone
    }
}

impl<'de> Deserializer<'de> for FieldProbe<'_> {
    type Error = ProbeDone;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeDone> {
        Err(ProbeDone)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, ProbeDone> {
        *self.0 = Some(fields);
        Err(ProbeDone)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_lists_struct_keys() {
        let f = fields_of::<UnitSpec>();
        assert!(
            f.contains(&"type") && f.contains(&"cv") && !f.contains(&"kind"),
            "{f:?}"
        );
        assert!(fields_of::<CommanderTable>().contains(&"roll"));
    }
}

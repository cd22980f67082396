//! Scenarios: a battle described in a TOML file (the armies by command, their commanders and
//! ratings, the ground), loaded with `--set` overrides, checked, and built into a
//! [`BattleSetup`]. `docs/SCENARIOS.md` describes the format.

mod build;
pub mod generate;
mod order;
pub mod ratings;
pub mod schema;
mod tree;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::DeTable;

use crate::error::{Error, Location, Result, line_col};
use crate::setup::BattleSetup;

pub use ratings::roll_rating;
pub use schema::ScenarioFile;
pub use tree::Override;
pub(crate) use tree::nearest;

/// The scenarios shipped with the binary, embedded so it works from any folder.
pub const BUILTIN: [(&str, &str); 15] = [
    (
        "edgehill",
        include_str!("../../configs/scenarios/edgehill.toml"),
    ),
    (
        "marston_moor",
        include_str!("../../configs/scenarios/marston_moor.toml"),
    ),
    (
        "naseby",
        include_str!("../../configs/scenarios/naseby.toml"),
    ),
    (
        "roundway_down",
        include_str!("../../configs/scenarios/roundway_down.toml"),
    ),
    (
        "adwalton_moor",
        include_str!("../../configs/scenarios/adwalton_moor.toml"),
    ),
    (
        "lansdown",
        include_str!("../../configs/scenarios/lansdown.toml"),
    ),
    (
        "first_newbury",
        include_str!("../../configs/scenarios/first_newbury.toml"),
    ),
    (
        "langport",
        include_str!("../../configs/scenarios/langport.toml"),
    ),
    (
        "small_action",
        include_str!("../../configs/scenarios/small_action.toml"),
    ),
    (
        "duel_horse",
        include_str!("../../configs/scenarios/duel_horse.toml"),
    ),
    (
        "duel_foot_vs_horse",
        include_str!("../../configs/scenarios/duel_foot_vs_horse.toml"),
    ),
    (
        "bp_duel_pike_vs_horse",
        include_str!("../../configs/scenarios/bp_duel_pike_vs_horse.toml"),
    ),
    (
        "bp_duel_shot",
        include_str!("../../configs/scenarios/bp_duel_shot.toml"),
    ),
    (
        "bp_duel_gun_vs_foot",
        include_str!("../../configs/scenarios/bp_duel_gun_vs_foot.toml"),
    ),
    (
        "balance_template",
        include_str!("../../configs/scenarios/balance_template.toml"),
    ),
];

/// Names of the built-in scenarios.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// A scenario file, read and with its overrides applied; [`Scenario::setup`] builds the battle.
#[derive(Debug, Clone)]
pub struct Scenario {
    path: PathBuf,
    text: String,
    overrides: Vec<Override>,
    file: ScenarioFile,
    builtin: bool,
}

/// Loads a scenario file, applying `--set PATH=VALUE` overrides.
pub fn load(path: &Path, overrides: &[String]) -> Result<Scenario> {
    Scenario::load(path, overrides)
}

/// Loads a built-in scenario by name (`marston_moor`).
pub fn load_builtin(name: &str, overrides: &[String]) -> Result<Scenario> {
    Scenario::load_builtin(name, overrides)
}

impl Scenario {
    pub fn load(path: &Path, overrides: &[String]) -> Result<Scenario> {
        let text = crate::io::read_text(path)?;
        Scenario::parse(path, text, overrides, false)
    }

    pub fn load_builtin(name: &str, overrides: &[String]) -> Result<Scenario> {
        let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = builtin_names().collect();
            return Err(Error::Usage(format!(
                "no built-in scenario `{name}`; the built-in scenarios are {}",
                names.join(", ")
            )));
        };
        Scenario::parse(
            Path::new(&format!("configs/scenarios/{name}.toml")),
            (*text).to_string(),
            overrides,
            true,
        )
    }

    /// A scenario file when `name_or_path` names one, else a built-in scenario of that name.
    pub fn open(name_or_path: &str, overrides: &[String]) -> Result<Scenario> {
        let path = Path::new(name_or_path);
        // symlink_metadata: a dangling link or a loop is a file the user named, and its OS
        // error says what is wrong with it.
        if path.symlink_metadata().is_ok() {
            return Scenario::load(path, overrides);
        }
        if BUILTIN.iter().any(|(n, _)| *n == name_or_path) {
            return Scenario::load_builtin(name_or_path, overrides);
        }
        // A path to a file that is not there is a missing file (4), not a wrong name (2).
        if name_or_path.contains(std::path::MAIN_SEPARATOR) || name_or_path.ends_with(".toml") {
            let missing = std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such scenario file (nor a built-in scenario of that name)",
            );
            return Err(Error::io(path, missing));
        }
        let names: Vec<&str> = builtin_names().collect();
        Err(Error::Usage(format!(
            "`{name_or_path}` is neither a scenario file nor a built-in scenario ({})",
            names.join(", ")
        )))
    }

    /// Parses scenario text read from `path`. The overrides are applied to the parsed tree before
    /// serde reads it, so a bad key in the file still shows its line.
    pub fn parse(
        path: &Path,
        text: String,
        overrides: &[String],
        builtin: bool,
    ) -> Result<Scenario> {
        let mut errors = Vec::new();
        let mut parsed = Vec::new();
        for arg in overrides {
            match Override::parse(arg) {
                Ok(o) => parsed.push(o),
                Err(m) => errors.push(Error::Usage(m)),
            }
        }
        if !errors.is_empty() {
            return Err(combine(errors));
        }
        let file = {
            let mut tree = DeTable::parse(&text).map_err(|e| Error::from_toml(path, &text, &e))?;
            for (i, ov) in parsed.iter().enumerate() {
                // An empty span past the end of the text marks this override's values.
                let at = text.len() + 1 + i;
                if let Err(m) = tree::apply(tree.get_mut(), ov, at..at) {
                    errors.push(override_error(path, ov, m));
                }
            }
            if !errors.is_empty() {
                return Err(combine(errors));
            }
            let located = tree.clone();
            ScenarioFile::deserialize(toml::de::Deserializer::from(tree))
                .map_err(|e| serde_error(path, &text, &parsed, located.get_ref(), &e))?
        };
        Ok(Scenario {
            path: path.to_path_buf(),
            text,
            overrides: parsed,
            file,
            builtin,
        })
    }

    /// Checks everything and builds the battle; several problems come back as one error listing
    /// them all.
    pub fn setup(&self) -> Result<BattleSetup> {
        self.check().map_err(combine)
    }

    /// Checks everything and builds the battle, or returns every problem found.
    pub fn check(&self) -> std::result::Result<BattleSetup, Vec<Error>> {
        build::build(self).map(|b| b.setup)
    }

    /// The order of battle as text (sides, commands, commanders, units, strengths), or every
    /// problem found.
    pub fn order_of_battle(&self, rules: &str) -> std::result::Result<String, Vec<Error>> {
        self.checked().map(|c| c.order_of_battle(rules))
    }

    /// Checks everything and builds the battle once, keeping what its order of battle prints
    /// beside the set-up; or returns every problem found.
    pub fn checked(&self) -> std::result::Result<Checked<'_>, Vec<Error>> {
        build::build(self).map(|built| Checked {
            scenario: self,
            built,
        })
    }

    /// The file's text exactly as read (hash it for a run's manifest).
    pub fn source_text(&self) -> &str {
        &self.text
    }

    /// The file it came from (`configs/scenarios/NAME.toml` for a built-in scenario).
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn is_builtin(&self) -> bool {
        self.builtin
    }

    /// The overrides applied, in order.
    pub fn overrides(&self) -> &[Override] {
        &self.overrides
    }

    /// Refuses an override of a ruleset's values (`rules.`, `black_powder_rules.`,
    /// `dickenson_rules.`) that none of `rulesets`, those the command fights by, reads: no
    /// battle would see it, so a what-if on it would silently change nothing.
    pub fn check_overrides_read(&self, rulesets: &[&str]) -> Result<()> {
        use crate::rules::{RULESETS, army_break_key, changes_table};
        for ov in &self.overrides {
            if ov.path == "break_fraction" && !rulesets.contains(&"ironsides") {
                let mut keys = Vec::new();
                for r in rulesets {
                    if let Some((key, share)) = army_break_key(r)? {
                        keys.push(format!("{r} by {key} ({share})"));
                    }
                }
                let message = format!(
                    "break_fraction is read by the ironsides rules only, but the battles are fought under {} only, so none would read it; an army's break is set under {}",
                    rulesets.join(" and "),
                    keys.join(", ")
                );
                return Err(override_error(&self.path, ov, message));
            }
            let table = ov.path.split('.').next().unwrap_or_default();
            let Some(owner) = RULESETS.iter().find(|r| changes_table(r) == table) else {
                continue;
            };
            if rulesets.contains(owner) {
                continue;
            }
            let hint = match rulesets {
                [only] => format!(
                    "; the {only} values are changed in [{}]",
                    changes_table(only)
                ),
                _ => String::new(),
            };
            let message = format!(
                "[{table}] changes the {owner} values, but the battles are fought under {} only, so none would read it{hint}",
                rulesets.join(" and ")
            );
            return Err(override_error(&self.path, ov, message));
        }
        Ok(())
    }

    /// The file as read, overrides applied.
    pub fn file(&self) -> &ScenarioFile {
        &self.file
    }

    /// The scenario's name: the file's `name`, else the file name.
    pub fn name(&self) -> String {
        self.file.name.clone().unwrap_or_else(|| {
            self.path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
    }
}

/// One error from several: itself when alone, else a list with every location.
pub fn combine(mut errors: Vec<Error>) -> Error {
    if errors.len() == 1 {
        return errors.pop().expect("one error");
    }
    let lines: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
    let text = format!("{} problems:\n{}", errors.len(), lines.join("\n"));
    if errors.iter().all(|e| matches!(e, Error::Usage(_))) {
        Error::Usage(text)
    } else {
        Error::Refused(text)
    }
}

fn override_error(path: &Path, ov: &Override, message: String) -> Error {
    Error::Input {
        at: Location {
            file: path.to_path_buf(),
            key: ov.path.clone(),
            line: None,
            column: None,
        },
        message: format!("{ov}: {message}"),
    }
}

/// A serde error placed in the file (key path and line), or on the override that caused it.
fn serde_error(
    path: &Path,
    text: &str,
    overrides: &[Override],
    tree: &DeTable<'_>,
    e: &toml::de::Error,
) -> Error {
    let message = e.message().to_string();
    match e.span() {
        Some(s) if s.start > text.len() => {
            let ov = &overrides[(s.start - text.len() - 1).min(overrides.len().saturating_sub(1))];
            override_error(path, ov, message)
        }
        Some(s) => {
            let (line, column) = line_col(text, s.start);
            Error::Input {
                at: Location {
                    file: path.to_path_buf(),
                    key: tree::path_at(tree, &s),
                    line: Some(line),
                    column: Some(column),
                },
                message,
            }
        }
        None => Error::Input {
            at: Location {
                file: path.to_path_buf(),
                key: String::new(),
                line: None,
                column: None,
            },
            message,
        },
    }
}

/// A scenario that passed its checks, built once: its set-up and its order of battle.
pub struct Checked<'a> {
    scenario: &'a Scenario,
    built: build::Built,
}

impl Checked<'_> {
    pub fn setup(&self) -> &BattleSetup {
        &self.built.setup
    }

    /// The order of battle as text; `rules` is the line naming the ruleset and how an army
    /// breaks under it.
    pub fn order_of_battle(&self, rules: &str) -> String {
        order::order_of_battle(self.scenario, &self.built, rules)
    }
}

//! Doctrine parameters: what a designer writes in `configs/doctrines/NAME.toml`.

use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result, number as shown};

/// Which enemy a unit prefers to shoot at or charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetPreference {
    Nearest,
    Weakest,
    Horse,
    Foot,
    Guns,
    Broken,
}

/// Which units get the LPs for rallies first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RallyPriority {
    /// The unit that lost most.
    Weakest,
    /// The unit nearest the enemy.
    FrontLine,
    /// The units that can fight again soonest (the least damaged).
    Strongest,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoctrineParams {
    pub name: String,
    pub description: String,
    /// 0..=1: how readily units advance on the enemy (0 stands still, 1 always advances).
    pub aggression: f64,
    /// Charge when own effective CV / target's CV is at least this.
    pub charge_ratio: f64,
    /// Never charge below this CV.
    pub charge_min_cv: u8,
    /// Share of the command's units kept as a second line or reserve.
    pub reserve_fraction: f64,
    /// The turn from which the reserve is committed (0 = from the start).
    pub commit_reserve_turn: u16,
    /// Commit the reserve as soon as the first line has lost this share of its CV.
    pub commit_reserve_when_lost: f64,
    /// How far behind the first line the second line follows.
    pub second_line_distance: f64,
    /// Units at or below this CV fall back behind the supports to rally.
    pub pull_back_cv: u8,
    /// Whether the commander leads a unit from the front (attaches) when battle is joined.
    pub general_leads: bool,
    /// Distance to the nearest enemy at which the general attaches to the front.
    pub general_leads_within: f64,
    pub target: TargetPreference,
    /// Stand on the ground held; advance only to engage enemies that come within this distance.
    pub hold_ground_within: f64,
    /// The turn before which units do not advance (a reserve, a cautious general).
    pub advance_from_turn: u16,
    /// Foot forms hedgehog when charged by horse.
    pub hedgehog_vs_horse: bool,
    /// Skirmishers and guns evade when charged.
    pub evade: bool,
    /// Horse countercharges when charged.
    pub countercharge: bool,
    /// Horse makes support and opportunity charges.
    pub support_charges: bool,
    pub rally_priority: RallyPriority,
    /// Spend re-rolls on reaction tests.
    pub rerolls_on_reaction: bool,
    /// Spend re-rolls on rallies.
    pub rerolls_on_rally: bool,
    /// Pursuers and victorious horse go for the enemy camp when they can.
    pub take_camp: bool,
    /// Stand-off chosen when charged by horse (2" to 6"), and otherwise.
    pub standoff_vs_horse: f64,
    pub standoff_default: f64,
    /// Retreat distance after a failed test (4" to 12").
    pub retreat_distance: f64,
    /// Counter-attack only broken enemies (hold the line).
    pub attack_only_broken: bool,
    /// Advance each line at the pace of its slowest unit so it stays dressed (E6).
    #[serde(default = "dress_lines_default")]
    pub dress_lines: bool,
    /// Black Powder: an order turning a unit more than this many degrees towards its target is
    /// an individual order, not the brigade's. Unset: the ruleset's `doctrine.individual_order_degrees`.
    #[serde(default)]
    pub individual_order_degrees: Option<f64>,
    /// Black Powder: foot forms hedgehog when horse comes within this many inches, before it is
    /// forced to (0: only when forced). Unset: the ruleset's `doctrine.hedgehog_early_range`.
    #[serde(default)]
    pub hedgehog_early_range: Option<f64>,
    /// Black Powder: charge a target within this share of a standard move (0 to 2; above 1,
    /// on the hope of a good command roll, so never above 1 on initiative). Unset: the
    /// ruleset's `doctrine.charge_range_share`.
    #[serde(default)]
    pub charge_range_share: Option<f64>,
    /// Black Powder: horse that wins a melee (and is not Rash, whose dice decide) goes on a
    /// sweeping advance. Unset: it does when `aggression` is 0.5 or more.
    #[serde(default)]
    pub sweeping_advance: Option<bool>,
}

fn dress_lines_default() -> bool {
    true
}

/// The built-in doctrines, embedded so the binary works from any folder.
pub const BUILTIN: [(&str, &str); 6] = [
    (
        "rupert",
        include_str!("../../configs/doctrines/rupert.toml"),
    ),
    (
        "cromwell",
        include_str!("../../configs/doctrines/cromwell.toml"),
    ),
    (
        "hold_the_line",
        include_str!("../../configs/doctrines/hold_the_line.toml"),
    ),
    (
        "cautious",
        include_str!("../../configs/doctrines/cautious.toml"),
    ),
    (
        "forlorn_hope",
        include_str!("../../configs/doctrines/forlorn_hope.toml"),
    ),
    (
        "artillery_train",
        include_str!("../../configs/doctrines/artillery_train.toml"),
    ),
];

/// The highest `charge_ratio` accepted: a unit that waits for 1000 times the target's CV never
/// charges anyway.
pub const MAX_CHARGE_RATIO: f64 = 1000.0;

/// The longest distance a doctrine may name, in inches: far beyond any table.
pub const MAX_INCHES: f64 = 1000.0;

impl DoctrineParams {
    /// Parses and validates a doctrine file.
    pub fn parse(path: &Path, text: &str) -> Result<DoctrineParams> {
        let d: DoctrineParams =
            toml::from_str(text).map_err(|e| Error::from_toml(path, text, &e))?;
        let bad = |key: &str, msg: &str| Err(Error::at_key(path, text, key, msg));
        if !(0.0..=1.0).contains(&d.aggression) {
            return bad(
                "aggression",
                &format!("must be between 0 and 1, got {}", shown(d.aggression)),
            );
        }
        if !(0.0..=1.0).contains(&d.reserve_fraction) {
            return bad(
                "reserve_fraction",
                &format!("must be between 0 and 1, got {}", shown(d.reserve_fraction)),
            );
        }
        if !(d.charge_ratio > 0.0 && d.charge_ratio <= MAX_CHARGE_RATIO) {
            return bad(
                "charge_ratio",
                &format!(
                    "must be above 0 and at most {MAX_CHARGE_RATIO} (own CV over the target's), got {}",
                    shown(d.charge_ratio)
                ),
            );
        }
        for (k, v) in [
            ("standoff_vs_horse", d.standoff_vs_horse),
            ("standoff_default", d.standoff_default),
        ] {
            if !(2.0..=6.0).contains(&v) {
                return bad(k, &format!("must be from 2 to 6 inches, got {}", shown(v)));
            }
        }
        for (k, v, hi) in [
            ("commit_reserve_when_lost", d.commit_reserve_when_lost, 1.0),
            ("second_line_distance", d.second_line_distance, MAX_INCHES),
            ("general_leads_within", d.general_leads_within, MAX_INCHES),
            ("hold_ground_within", d.hold_ground_within, MAX_INCHES),
        ] {
            if !(0.0..=hi).contains(&v) {
                return bad(k, &format!("must be from 0 to {hi}, got {}", shown(v)));
            }
        }
        for (k, v, hi) in [
            ("charge_min_cv", u16::from(d.charge_min_cv), 12),
            ("pull_back_cv", u16::from(d.pull_back_cv), 12),
            ("commit_reserve_turn", d.commit_reserve_turn, 1000),
            ("advance_from_turn", d.advance_from_turn, 1000),
        ] {
            if v > hi {
                return bad(k, &format!("must be from 0 to {hi}, got {v}"));
            }
        }
        for (k, v, hi) in [
            (
                "individual_order_degrees",
                d.individual_order_degrees,
                180.0,
            ),
            ("hedgehog_early_range", d.hedgehog_early_range, MAX_INCHES),
            ("charge_range_share", d.charge_range_share, 2.0),
        ] {
            if let Some(v) = v.filter(|v| !(0.0..=hi).contains(v)) {
                return bad(k, &format!("must be from 0 to {hi}, got {}", shown(v)));
            }
        }
        if !(4.0..=12.0).contains(&d.retreat_distance) {
            return bad(
                "retreat_distance",
                &format!(
                    "must be from 4 to 12 inches, got {}",
                    shown(d.retreat_distance)
                ),
            );
        }
        Ok(d)
    }

    pub fn load(path: &Path) -> Result<DoctrineParams> {
        let text = crate::io::read_text(path)?;
        Self::parse(path, &text)
    }

    /// A built-in doctrine by name.
    pub fn builtin(name: &str) -> Option<DoctrineParams> {
        BUILTIN.iter().find(|(n, _)| *n == name).map(|(n, text)| {
            Self::parse(Path::new(&format!("configs/doctrines/{n}.toml")), text)
                .expect("built-in doctrines are valid")
        })
    }

    /// Names of the built-in doctrines.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(n, _)| *n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse() {
        for n in DoctrineParams::builtin_names() {
            let d = DoctrineParams::builtin(n).unwrap();
            assert_eq!(d.name, n);
        }
    }

    /// A doctrine file written before `sweeping_advance` still parses, leaving it unset (its
    /// aggression decides); every built-in doctrine states its choice.
    #[test]
    fn sweeping_advance_is_optional_and_every_builtin_sets_it() {
        let (_, text) = BUILTIN[1];
        let old: String = text
            .lines()
            .filter(|l| !l.starts_with("sweeping_advance"))
            .map(|l| format!("{l}\n"))
            .collect();
        let d = DoctrineParams::parse(Path::new("old.toml"), &old).unwrap();
        assert_eq!(d.sweeping_advance, None);
        for n in DoctrineParams::builtin_names() {
            assert!(
                DoctrineParams::builtin(n)
                    .unwrap()
                    .sweeping_advance
                    .is_some()
            );
        }
    }
}

//! The order of battle as `ecw-sim validate` prints it: sides, commands, commanders, units with
//! their CV or rating source, and starting strengths.

use std::fmt::Write;

use crate::army::{Arm, Command, CommanderId, Side, SizeClass};
use crate::setup::{CommanderSource, RatingSource};

use super::Scenario;
use super::build::{Built, kind_name};
use super::ratings::expected_cv;

/// `rules`: the ruleset's name and how an army breaks under it, as the first line after the
/// title says them.
pub(super) fn order_of_battle(sc: &Scenario, b: &Built, rules: &str) -> String {
    let s = &b.setup;
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", s.name, sc.path().display());
    for o in sc.overrides() {
        let _ = writeln!(out, "  with {o}");
    }
    let _ = writeln!(out, "{rules}");
    let _ = writeln!(out, "table {} x {} in", s.ground.width, s.ground.depth);
    let _ = writeln!(
        out,
        "terrain: {} areas, {} obstacle segments, {} camps",
        s.ground.areas.len(),
        s.ground.obstacles.len(),
        s.ground.camps.len()
    );
    for side in Side::BOTH {
        side_head(&mut out, b, side);
        for c in s.commands.iter().filter(|c| c.side == side) {
            command_line(&mut out, b, c);
            for &u in &c.units {
                unit_line(&mut out, b, u);
            }
        }
        strength_line(&mut out, b, side);
    }
    out
}

/// A side's heading: its Captain-General and doctrine.
fn side_head(out: &mut String, b: &Built, side: Side) {
    let s = &b.setup;
    let _ = writeln!(out);
    let cg = s.captain_generals[side.index()]
        .map(|c| format!("{} ({})", s.commander_name(c), commander_text(b, c)))
        .unwrap_or_else(|| "none".into());
    let _ = writeln!(
        out,
        "{}: Captain-General {cg}; doctrine {}",
        side.name().to_uppercase(),
        doctrine_name(b, s.cg_doctrine[side.index()])
    );
}

/// A doctrine's name by its index.
fn doctrine_name(b: &Built, doctrine: u16) -> &str {
    b.doctrine_names
        .get(usize::from(doctrine))
        .map_or("?", String::as_str)
}

/// A command's line: its name, kind, doctrine and commander.
fn command_line(out: &mut String, b: &Built, c: &Command) {
    let s = &b.setup;
    let general = c
        .commander
        .map(|g| format!("{} ({})", s.commander_name(g), commander_text(b, g)))
        .unwrap_or_else(|| "no commander".into());
    let _ = writeln!(
        out,
        "  {} [{}, doctrine {}{}]: {general}",
        s.command_name(c.id),
        kind_name(c.kind),
        doctrine_name(b, c.doctrine),
        if c.commissary { ", commissary" } else { "" }
    );
}

/// A unit's line: its id, name, kind, size, men, CV (or the dice it is rolled from) and rating.
fn unit_line(out: &mut String, b: &Built, u: u16) {
    let s = &b.setup;
    let unit = &s.units[usize::from(u)];
    let note = &b.notes[usize::from(u)];
    let men = note.men.map(|m| format!("{m} men")).unwrap_or_default();
    let cv = match s.ratings[usize::from(u)] {
        RatingSource::Fixed => format!("CV {}", unit.start_cv),
        RatingSource::Randomised { rolls } => {
            let r: Vec<String> = rolls.iter().map(u8::to_string).collect();
            format!(
                "CV {}-{} (D6: {})",
                rolls.iter().min().unwrap_or(&0),
                rolls.iter().max().unwrap_or(&0),
                r.join(" ")
            )
        }
    };
    let _ = writeln!(
        out,
        "    {:>3} {:<42} {:<20} {:<12} {:>9}  {cv}, {}",
        u,
        s.unit_name(u),
        unit.kind.key(),
        size_name(unit.size),
        men,
        note.rating
    );
}

/// A side's strength: its units by arm, men, and CV at standard and expected.
fn strength_line(out: &mut String, b: &Built, side: Side) {
    let s = &b.setup;
    let units: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].side == side)
        .collect();
    let count = |arm: Arm| {
        units
            .iter()
            .filter(|&&i| s.units[i].kind.arm() == arm)
            .count()
    };
    let men: u32 = units.iter().filter_map(|&i| b.notes[i].men).sum();
    let cv: u32 = units.iter().map(|&i| u32::from(s.units[i].start_cv)).sum();
    let expected: f64 = units
        .iter()
        .map(|&i| expected_cv(&s.ratings[i], s.units[i].start_cv))
        .sum();
    let _ = writeln!(
        out,
        "  strength: {} units ({} horse, {} dragoons, {} foot, {} guns), {} men, CV {} at standard, {:.1} expected",
        units.len(),
        count(Arm::Horse),
        count(Arm::Dragoons),
        count(Arm::Foot),
        count(Arm::Artillery),
        men,
        cv,
        expected
    );
}

fn commander_text(b: &Built, id: CommanderId) -> String {
    let s = &b.setup;
    let c = &s.commanders[usize::from(id)];
    let note = &b.commander_notes[usize::from(id)];
    match s.commander_sources[usize::from(id)] {
        CommanderSource::Rolled { .. } => format!("{note} each battle"),
        CommanderSource::Fixed => format!(
            "{note}: D6{:+} LPs, radius {}\", {} RR{}",
            c.rating.lp_modifier,
            c.rating.radius,
            c.rating.rerolls,
            if c.rating.enemy_rerolls > 0 {
                format!(", enemy +{} RR", c.rating.enemy_rerolls)
            } else {
                String::new()
            }
        ),
    }
}

fn size_name(s: SizeClass) -> &'static str {
    match s {
        SizeClass::VeryLarge => "very large",
        SizeClass::Large => "large",
        SizeClass::Normal => "normal",
        SizeClass::Small => "small",
        SizeClass::ReallySmall => "really small",
    }
}

//! `ecw-sim list`: the built-in scenarios, the rulesets, the named commanders, the doctrines and
//! the rating tables.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use crate::doctrine::DoctrineParams;
use crate::error::{Error, Result};
use crate::rules::ironsides::IronsidesRules;
use crate::scenario::{Scenario, builtin_names};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to list (everything when left out).
    #[arg(value_enum)]
    pub what: Option<What>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum What {
    Scenarios,
    Rulesets,
    Commanders,
    Doctrines,
    Ratings,
}

pub fn run(args: Args) -> Result<()> {
    let text = listing(args.what)?;
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| Error::io(Path::new("<stdout>"), e))
}

/// The listing as text.
pub fn listing(what: Option<What>) -> Result<String> {
    let rules = IronsidesRules::builtin();
    let mut out = String::new();
    let all = what.is_none();
    if all || what == Some(What::Scenarios) {
        list_scenarios(&mut out)?;
    }
    if all || what == Some(What::Rulesets) {
        list_rulesets(&mut out);
    }
    if all || what == Some(What::Commanders) {
        list_commanders(&mut out, &rules);
    }
    if all || what == Some(What::Doctrines) {
        list_doctrines(&mut out);
    }
    if all || what == Some(What::Ratings) {
        list_ratings(&mut out, &rules);
    }
    Ok(out)
}

/// The built-in scenarios, each with its name and description.
fn list_scenarios(out: &mut String) -> Result<()> {
    let _ = writeln!(
        out,
        "Scenarios (built in; give the name to `validate` or `run`):"
    );
    let width = builtin_names().map(str::len).max().unwrap_or(0);
    for name in builtin_names() {
        let sc = Scenario::load_builtin(name, &[])?;
        let description = sc.file().description.clone().unwrap_or_default();
        let _ = writeln!(out, "  {name:<width$} {}: {description}", sc.name());
    }
    let _ = writeln!(out);
    Ok(())
}

/// The rulesets.
fn list_rulesets(out: &mut String) {
    let _ = writeln!(
        out,
        "Rulesets (`ruleset = \"NAME\"` in a scenario, or `--ruleset NAME` on every command that fights):"
    );
    for name in crate::rules::RULESETS {
        let _ = writeln!(out, "  {name}");
    }
    let _ = writeln!(out);
}

/// The named commanders, the average one and a rolled one.
fn list_commanders(out: &mut String, rules: &IronsidesRules) {
    let _ = writeln!(
        out,
        "Named commanders (`commander = \"KEY\"`; a subordinate's radius x{}):",
        rules.generals.subordinate_radius_factor
    );
    for c in &rules.named_commander {
        let _ = writeln!(
            out,
            "  {:<12} {:<24} {:<11} D6{:+} LPs  radius {:>2}\"  {} RR",
            c.key, c.name, c.side, c.lp_modifier, c.radius, c.rerolls
        );
    }
    let a = &rules.average_commander;
    let _ = writeln!(
        out,
        "  {:<12} {:<24} {:<11} D6{:+} LPs  radius {}\" as Captain-General, {}\" as subordinate  {} RR",
        "average",
        "a player's general",
        "either",
        a.lp_modifier,
        a.captain_general_radius,
        a.subordinate_radius,
        a.rerolls
    );
    let _ = writeln!(
        out,
        "  {{ roll = true }} rolls skill and morale on the generalship table each battle"
    );
    let _ = writeln!(out);
}

/// The built-in doctrines.
fn list_doctrines(out: &mut String) {
    let _ = writeln!(out, "Doctrines (`doctrine = \"NAME\"`):");
    for name in DoctrineParams::builtin_names() {
        let d = DoctrineParams::builtin(name).expect("built-in doctrine");
        let _ = writeln!(out, "  {name:<16} {}", d.description);
    }
    let _ = writeln!(out);
}

/// The randomised troop ratings, a row for each side, year and arm.
fn list_ratings(out: &mut String, rules: &IronsidesRules) {
    let _ = writeln!(
        out,
        "Randomised troop ratings (standard, then the CV for a D6 of 1..6; a row serves until the side's next):"
    );
    for r in &rules.ratings {
        for (arm, rating) in [
            ("foot", &r.arms.foot),
            ("dragoons", &r.arms.dragoons),
            ("horse", &r.arms.horse),
            ("artillery", &r.arms.artillery),
        ] {
            if let Some(x) = rating {
                let standard = match x.standard_alt {
                    Some(alt) => format!("{}/{alt}", x.standard),
                    None => x.standard.to_string(),
                };
                let rolls: Vec<String> = x.rolls.iter().map(u8::to_string).collect();
                let _ = writeln!(
                    out,
                    "  {:<11} {} {:<10} {:>4}  {}",
                    r.side,
                    r.year,
                    arm,
                    standard,
                    rolls.join(" ")
                );
            }
        }
    }
}

//! `report.html`: a run's results as one self-contained page of charts, built from the tidy CSV
//! files and the manifest of an output folder (a run's or a merge's), so it shows whatever
//! measures a ruleset writes. `docs/REPORTS.md` describes each chart.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::manifest::{Manifest, read_manifest};
use crate::charts::page::{Page, cell, count, esc, pct};
use crate::charts::{self, Axes, Bar, Interval, NEUTRAL, series_colour, side_colour_named};
use crate::error::{Error, Result};

/// The report's file name, beside the CSVs.
pub const REPORT: &str = "report.html";

/// One row of a tidy CSV file (see `tidy.rs`); empty cells are `None`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct TidyRow {
    pub scope: String,
    pub id: String,
    pub name: String,
    pub side: String,
    pub measure: String,
    pub value: Option<i64>,
    pub count: Option<u64>,
    pub n: Option<u64>,
    pub estimate: Option<f64>,
    pub ci95_low: Option<f64>,
    pub ci95_high: Option<f64>,
}

impl TidyRow {
    fn interval(&self) -> Option<(f64, f64)> {
        Some((self.ci95_low?, self.ci95_high?))
    }
    /// A proportion or ratio with its interval (not a distribution's bar).
    fn is_estimate_with_interval(&self) -> bool {
        self.value.is_none() && self.estimate.is_some() && self.interval().is_some()
    }
}

/// Reads a tidy CSV file; `Ok(None)` when the folder has no such file.
pub fn read_tidy(path: &Path) -> Result<Option<Vec<TidyRow>>> {
    if !path.exists() {
        return Ok(None);
    }
    let mut r = csv::Reader::from_path(path).map_err(|e| bad_csv(path, &e))?;
    let rows = r
        .deserialize()
        .collect::<std::result::Result<Vec<TidyRow>, _>>()
        .map_err(|e| bad_csv(path, &e))?;
    Ok(Some(rows))
}

fn bad_csv(path: &Path, e: &csv::Error) -> Error {
    let line = e
        .position()
        .map(|p| format!(" line {}", p.line()))
        .unwrap_or_default();
    Error::Usage(format!(
        "{}:{line}: not a tidy ecw-sim CSV file: {e}",
        path.display()
    ))
}

/// The rows of one entity (scope and id), in file order, keeping the order entities appear.
fn entities<'a>(rows: &'a [TidyRow], scope: &str) -> Vec<Vec<&'a TidyRow>> {
    let mut order: Vec<&str> = Vec::new();
    let mut by: BTreeMap<&str, Vec<&TidyRow>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.scope == scope) {
        if !by.contains_key(r.id.as_str()) {
            order.push(&r.id);
        }
        by.entry(&r.id).or_default().push(r);
    }
    order
        .into_iter()
        .map(|id| by.remove(id).unwrap_or_default())
        .collect()
}

fn find<'a>(rows: &[&'a TidyRow], measure: &str) -> Option<&'a TidyRow> {
    rows.iter().find(|r| r.measure == measure).copied()
}

/// A distribution's bars (`measure` rows with a value), coloured `colour`.
fn distribution(rows: &[&TidyRow], measure: &str, colour: plotters::style::RGBColor) -> Vec<Bar> {
    rows.iter()
        .filter(|r| r.measure == measure)
        .filter_map(|r| {
            Some(Bar {
                label: r.value?.to_string(),
                value: r.estimate?,
                interval: None,
                colour,
            })
        })
        .collect()
}

fn summary_text(rows: &[&TidyRow], measure: &str) -> String {
    match find(rows, &format!("{measure}_mean")).and_then(|r| r.estimate) {
        Some(m) => format!(" Mean {m:.2}."),
        None => String::new(),
    }
}

/// The unit a run's losses are counted in, found from its losses file's name
/// (`cv_losses.csv`, `casualties_losses.csv`, ...): its key in measure names and its label.
struct Currency {
    key: String,
    label: String,
}

impl Currency {
    /// The currency of the losses file in `dir` (Ironsides' CV when there is none).
    fn of(dir: &Path) -> Currency {
        let key = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix("_losses.csv").map(str::to_string)
            })
            .min()
            .unwrap_or_else(|| "cv".into());
        let label = crate::stats::currency_label(&key);
        Currency { key, label }
    }

    /// `lost` -> `cv_lost`.
    fn measure(&self, stem: &str) -> String {
        format!("{}_{stem}", self.key)
    }
}

/// Writes `report.html` into `dir` from the CSV files and manifest there; returns its path.
pub fn write_report(dir: &Path) -> Result<PathBuf> {
    let html = run_report(dir)?;
    let path = dir.join(REPORT);
    crate::io::write_atomic(&path, html.as_bytes())?;
    Ok(path)
}

/// The report of the output folder `dir` as HTML.
pub fn run_report(dir: &Path) -> Result<String> {
    let manifest_path = dir.join(super::MANIFEST);
    if !manifest_path.exists() {
        return Err(Error::Usage(format!(
            "{}: no manifest.json: not the output folder of a finished run (merge shards first)",
            dir.display()
        )));
    }
    let m = read_manifest(&manifest_path)?;
    let file = |name: &str| read_tidy(&dir.join(name));
    let c = Currency::of(dir);
    let battles = m.run.battles;
    let mut page = Page::new(&format!("{}: {} battles", m.run.scenario, count(battles)));
    page.para(&format!(
        "{} {}, seed {}, {} battles{}. Every interval is a 95% interval.",
        m.run.program,
        m.run.version,
        m.run.seed,
        count(battles),
        if m.run.overrides.is_empty() {
            String::new()
        } else {
            format!(", with {}", m.run.overrides.join(" "))
        }
    ));
    if let Some(rows) = file("outcomes.csv")? {
        outcome_section(&mut page, &rows, battles, &c);
    }
    if let Some(rows) = file(&crate::stats::losses_file(&c.key))? {
        losses_section(&mut page, &rows, battles, &c);
    }
    if let Some(rows) = file("pursuits.csv")? {
        shares_section(&mut page, &rows, battles, ("pursuits", "Pursuit by unit"));
    }
    if let Some(rows) = file("commanders.csv")? {
        commanders_section(&mut page, &rows, battles);
    }
    if let Some(rows) = file("ratings.csv")? {
        ratings_section(&mut page, &rows, battles);
    }
    if let Some(rows) = file("measures.csv")? {
        measures_section(&mut page, &rows, battles);
    }
    map_section(&mut page, &m);
    manifest_section(&mut page, &m);
    Ok(page.finish())
}

fn outcome_section(page: &mut Page, rows: &[TidyRow], battles: u64, c: &Currency) {
    page.heading("outcome", "Outcome");
    let sides = entities(rows, "side");
    let mut bars = Vec::new();
    for side in &sides {
        for (measure, what) in [("p_win", "wins"), ("p_army_broke", "army broke")] {
            if let Some(r) = find(side, measure) {
                bars.push(Bar {
                    label: format!("{} {what}", r.name),
                    value: r.estimate.unwrap_or(0.0),
                    interval: r.interval(),
                    colour: side_colour_named(&r.side),
                });
            }
        }
    }
    if let Some(r) = sides.first().and_then(|s| find(s, "p_draw")) {
        bars.push(Bar {
            label: "draw".into(),
            value: r.estimate.unwrap_or(0.0),
            interval: r.interval(),
            colour: NEUTRAL,
        });
    }
    let chart = charts::columns(
        &bars,
        Axes {
            x: "",
            y: "share of battles",
            percent: true,
        },
    );
    page.figure(
        &chart,
        &format!(
            "Each side's share of {} battles won, its army broken, and the battles drawn; black lines: Wilson's 95% intervals.",
            count(battles)
        ),
        &[],
    );
    let battle: Vec<&TidyRow> = rows.iter().filter(|r| r.scope == "battle").collect();
    let margin = (
        format!("break_margin_{}", c.key),
        format!("{} (loser's loss minus winner's)", c.label),
    );
    for (measure, x, what) in [
        ("battle_length_turns", "turns", "Battle length"),
        (
            margin.0.as_str(),
            margin.1.as_str(),
            "Margin of victory, in battles won",
        ),
    ] {
        let bars = distribution(&battle, measure, NEUTRAL);
        if bars.is_empty() {
            continue;
        }
        let n = find(&battle, &format!("{measure}_mean"))
            .and_then(|r| r.n)
            .unwrap_or(battles);
        let chart = charts::columns(
            &bars,
            Axes {
                x,
                y: "share of battles",
                percent: true,
            },
        );
        page.figure(
            &chart,
            &format!(
                "{what}: the share of {} battles at each value.{}",
                count(n),
                summary_text(&battle, measure)
            ),
            &[],
        );
    }
}

fn losses_section(page: &mut Page, rows: &[TidyRow], battles: u64, c: &Currency) {
    page.heading("losses", "Losses by side and command");
    let lost = c.measure("lost");
    let lost_label = format!("{} lost", c.label);
    for scope in ["side", "command"] {
        page.raw("<div class=\"grid\">");
        for e in entities(rows, scope) {
            let Some(first) = e.first() else { continue };
            let bars = distribution(&e, &lost, side_colour_named(&first.side));
            if bars.is_empty() {
                continue;
            }
            let chart = charts::columns_small(
                &bars,
                Axes {
                    x: &lost_label,
                    y: "share of battles",
                    percent: true,
                },
            );
            let destroyed = find(&e, "p_destroyed")
                .and_then(|r| r.estimate)
                .map(|p| format!(" Every unit lost in {}.", pct(p)))
                .unwrap_or_default();
            page.figure(
                &chart,
                &format!(
                    "{} ({scope}, {}): {lost_label} in each of {} battles.{}{destroyed}",
                    first.name,
                    first.side,
                    count(battles),
                    summary_text(&e, &lost)
                ),
                &[],
            );
        }
        page.raw("</div>");
    }
    units_section(page, rows, battles, c);
}

fn units_section(page: &mut Page, rows: &[TidyRow], battles: u64, c: &Currency) {
    let (lost, lost_mean) = (c.measure("lost"), c.measure("lost_mean"));
    let units = entities(rows, "unit");
    if units.is_empty() {
        return;
    }
    page.heading("units", "Units");
    let intervals: Vec<Interval> = units
        .iter()
        .filter_map(|u| {
            let r = find(u, "p_destroyed")?;
            Some(Interval {
                label: r.name.clone(),
                estimate: r.estimate?,
                low: r.ci95_low?,
                high: r.ci95_high?,
                colour: side_colour_named(&r.side),
            })
        })
        .collect();
    let chart = charts::forest(
        &intervals,
        Axes {
            x: "P(destroyed, off the table or lost to pursuit)",
            y: "",
            percent: true,
        },
        None,
    );
    page.figure(
        &chart,
        &format!(
            "Each unit's chance of being lost, with its 95% interval, from {} battles.",
            count(battles)
        ),
        &side_legend(),
    );
    let mut table = Vec::new();
    for u in &units {
        let Some(first) = u.first() else { continue };
        let colour = side_colour_named(&first.side);
        let spark: Vec<f64> = u
            .iter()
            .filter(|r| r.measure == lost && r.value.is_some())
            .map(|r| r.estimate.unwrap_or(0.0))
            .collect();
        let mut row = vec![cell(&first.name, true, None), cell(&first.side, true, None)];
        for measure in [
            lost_mean.as_str(),
            "p_destroyed",
            "p_routed",
            "p_ended_broken",
        ] {
            row.push(estimate_cell(find(u, measure), measure.starts_with("p_")));
        }
        let s = charts::spark(&spark, colour);
        row.push(format!(
            "<td class=\"spark\" data-marks=\"{}\">{}</td>",
            s.marks, s.svg
        ));
        table.push(row);
    }
    page.sortable_table(
        &[
            "unit",
            "side",
            &format!("mean {} lost", c.label),
            "P(destroyed)",
            "P(routed)",
            "P(ended broken)",
            &format!("{} lost: share of battles from 0 up", c.label),
        ],
        &table,
    );
    page.para(&format!(
        "Click a column's heading to sort by it. From {} battles; brackets: 95% intervals.",
        count(battles)
    ));
}

fn estimate_cell(r: Option<&TidyRow>, percent: bool) -> String {
    let Some(r) = r else {
        return cell("", false, None);
    };
    let Some(e) = r.estimate else {
        return cell("", false, None);
    };
    let f = |x: f64| if percent { pct(x) } else { format!("{x:.2}") };
    let text = match r.interval() {
        Some((l, h)) => format!("{} [{}, {}]", f(e), f(l), f(h)),
        None => f(e),
    };
    cell(&text, false, Some(e))
}

fn side_legend() -> Vec<(String, plotters::style::RGBColor)> {
    ["parliament", "royalist"]
        .iter()
        .map(|s| (s.to_string(), side_colour_named(s)))
        .collect()
}

/// One forest plot per proportion measure at unit scope: works for whatever a ruleset
/// measures (pursuit, sweeping advance).
fn shares_section(page: &mut Page, rows: &[TidyRow], battles: u64, (id, title): (&str, &str)) {
    if shares(rows, "unit").is_empty() {
        return;
    }
    page.heading(id, title);
    share_forests(page, rows, battles, "unit");
}

/// The proportions (with a count) of a scope's rows.
fn shares<'a>(rows: &'a [TidyRow], scope: &str) -> Vec<&'a TidyRow> {
    rows.iter()
        .filter(|r| r.scope == scope && r.is_estimate_with_interval() && r.count.is_some())
        .collect()
}

/// One forest plot per proportion measure at `scope`, a point for each of its entities.
fn share_forests(page: &mut Page, rows: &[TidyRow], battles: u64, scope: &str) {
    let found = shares(rows, scope);
    let mut measures: Vec<&str> = Vec::new();
    for r in &found {
        if !measures.contains(&r.measure.as_str()) {
            measures.push(&r.measure);
        }
    }
    for measure in measures {
        let rows: Vec<&&TidyRow> = found.iter().filter(|r| r.measure == measure).collect();
        let intervals: Vec<Interval> = rows
            .iter()
            .filter(|r| r.n.unwrap_or(0) > 0)
            .filter_map(|r| {
                Some(Interval {
                    label: format!("{} (n={})", r.name, r.n?),
                    estimate: r.estimate?,
                    low: r.ci95_low?,
                    high: r.ci95_high?,
                    colour: side_colour_named(&r.side),
                })
            })
            .collect();
        if intervals.is_empty() {
            continue;
        }
        let chart = charts::forest(
            &intervals,
            Axes {
                x: measure,
                y: "",
                percent: true,
            },
            None,
        );
        page.figure(
            &chart,
            &format!(
                "{measure} by {scope} with 95% intervals, of {} battles; n after each name: the battles the share is of (fewer where it is conditional).",
                count(battles)
            ),
            &side_legend(),
        );
    }
}

/// A ruleset's own measures (`measures.csv`): every side's totals (means) and shares in one
/// table, a row a measure; then each share by command, as forest plots.
fn measures_section(page: &mut Page, rows: &[TidyRow], battles: u64) {
    let sides = entities(rows, "side");
    let Some(first) = sides.first() else {
        return;
    };
    page.heading("measures", "The ruleset's own measures");
    let shown = |m: &str| m.ends_with("_mean") || m.starts_with("p_");
    let mut table = Vec::new();
    for r in first.iter().filter(|r| shown(&r.measure)) {
        let share = r.measure.starts_with("p_");
        let mut row = vec![cell(&r.measure, true, None)];
        for side in &sides {
            row.push(estimate_cell(find(side, &r.measure), share));
        }
        table.push(row);
    }
    let names: Vec<&str> = sides
        .iter()
        .filter_map(|s| s.first().map(|r| r.name.as_str()))
        .collect();
    let header: Vec<&str> = std::iter::once("measure").chain(names).collect();
    page.sortable_table(&header, &table);
    page.para(&format!(
        "Each side's measures in the ruleset's own terms (measures.csv; each ruleset's document defines them): a mean per battle, or a share of {} battles (p_); brackets: 95% intervals. Click a column's heading to sort by it.",
        count(battles)
    ));
    share_forests(page, rows, battles, "command");
}

/// The commanders' casualty results as stacked bars: the share of battles in which each
/// result befell each commander (the per-result `p_` measures besides the totals).
fn commanders_section(page: &mut Page, rows: &[TidyRow], battles: u64) {
    const TOTALS: [&str; 3] = ["p_casualty", "p_captured", "p_lost_to_battle"];
    let commanders = entities(rows, "commander");
    let mut categories: Vec<String> = Vec::new();
    for r in commanders.iter().flatten() {
        if r.measure.starts_with("p_")
            && !TOTALS.contains(&r.measure.as_str())
            && r.value.is_none()
            && !categories.contains(&r.measure)
        {
            categories.push(r.measure.clone());
        }
    }
    let stacks: Vec<(String, Vec<f64>)> = commanders
        .iter()
        .filter_map(|c| {
            let first = c.first()?;
            let shares: Vec<f64> = categories
                .iter()
                .map(|m| find(c, m).and_then(|r| r.estimate).unwrap_or(0.0))
                .collect();
            Some((format!("{} ({})", first.name, first.side), shares))
        })
        .filter(|(_, s)| s.iter().any(|v| *v > 0.0))
        .collect();
    if stacks.is_empty() {
        return;
    }
    page.heading("commanders", "Commanders");
    let chart = charts::stacked(
        &stacks,
        Axes {
            x: "share of battles",
            y: "",
            percent: true,
        },
    );
    let legend: Vec<(String, plotters::style::RGBColor)> = categories
        .iter()
        .enumerate()
        .map(|(k, c)| {
            (
                c.trim_start_matches("p_").replace('_', " "),
                series_colour(k),
            )
        })
        .collect();
    page.figure(
        &chart,
        &format!(
            "Casualty-table results of each commander who was ever hit, as shares of {} battles (a commander hit twice in a battle counts under both results).",
            count(battles)
        ),
        &legend,
    );
}

/// Rolled ratings against win rate: per randomised unit, its side's win rate for each CV it
/// rolled, as a heat map.
fn ratings_section(page: &mut Page, rows: &[TidyRow], battles: u64) {
    let units = entities(rows, "unit");
    let mut cvs: Vec<i64> = rows
        .iter()
        .filter(|r| r.measure == "p_side_win_given_cv")
        .filter_map(|r| r.value)
        .collect();
    cvs.sort_unstable();
    cvs.dedup();
    if cvs.is_empty() {
        return;
    }
    page.heading("ratings", "Rolled ratings and winning");
    let labels: Vec<String> = units
        .iter()
        .filter_map(|u| u.first().map(|r| format!("{} ({})", r.name, r.side)))
        .collect();
    let cells: Vec<Vec<Option<f64>>> = units
        .iter()
        .map(|u| {
            cvs.iter()
                .map(|cv| {
                    u.iter()
                        .find(|r| r.measure == "p_side_win_given_cv" && r.value == Some(*cv))
                        .filter(|r| r.n.unwrap_or(0) > 0)
                        .and_then(|r| r.estimate)
                })
                .collect()
        })
        .collect();
    let cv_labels: Vec<String> = cvs.iter().map(|c| format!("CV {c}")).collect();
    let chart = charts::heat(
        &labels,
        &cv_labels,
        &cells,
        Axes {
            x: "CV rolled",
            y: "",
            percent: true,
        },
        0.5,
    );
    page.figure(
        &chart,
        &format!(
            "For each unit whose CV is rolled before battle: the share of the battles its side won, by the CV it rolled ({} battles in all; each cell counts only the battles with that roll, see ratings.csv for n and intervals). Orange above even, blue below.",
            count(battles)
        ),
        &[],
    );
}

fn map_section(page: &mut Page, m: &Manifest) {
    page.heading("map", "The table at deployment");
    match deployment_map(m) {
        Ok(svg) => page.raw(&format!(
            "<figure class=\"map\">{svg}<figcaption>The ground and both armies as battle 0 of this run deployed (Parliament orange, Royalists blue).</figcaption></figure>"
        )),
        Err(e) => page.para(&format!("No map: {e}")),
    }
}

/// The map of battle 0's deployment, from the scenario and ruleset the manifest names.
fn deployment_map(m: &Manifest) -> Result<String> {
    let file = &m.run.scenario_file;
    let name = if m.run.scenario_builtin {
        Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.clone())
    } else {
        file.clone()
    };
    let scenario = crate::scenario::Scenario::open(&name, &m.run.overrides)?;
    let (setup, _, start, _) =
        crate::cli::replay::replay(&scenario, Some(&m.run.ruleset), m.run.seed, 0)?;
    Ok(crate::map::svg(
        &setup,
        &start,
        &start,
        &crate::narrative::Recorder::default(),
    ))
}

fn manifest_section(page: &mut Page, m: &Manifest) {
    page.heading("manifest", "Manifest");
    let r = &m.run;
    let t = &m.timing;
    let mut rows: Vec<(&str, String)> = vec![
        ("program", format!("{} {}", r.program, r.version)),
        ("scenario", format!("{} ({})", r.scenario, r.scenario_file)),
        ("scenario hash", r.scenario_hash.clone()),
        ("ruleset hash", r.ruleset_hash.clone()),
        ("overrides", r.overrides.join(" ")),
        ("seed", r.seed.to_string()),
        ("battles", count(r.battles)),
        ("dice rolled", count(m.dice_rolled)),
        ("files", m.files.join(", ")),
        (
            "timing",
            format!(
                "{:.1} s, {} battles/s, {} threads, {} shard(s)",
                t.wall_time_s,
                count(t.battles_per_second.round() as u64),
                t.threads,
                t.shards
            ),
        ),
    ];
    if let Some(kib) = t.peak_memory_kib {
        rows.push(("peak memory", format!("{} KiB", count(kib))));
    }
    let mut html = String::from("<table>");
    for (k, v) in rows {
        let _ = write!(
            html,
            "<tr><th class=\"l\">{k}</th><td class=\"l\">{}</td></tr>",
            esc(&v)
        );
    }
    html.push_str("</table>");
    page.raw(&html);
}

//! The what-if tools' pages (`compare.html`, `balance.html`, `sweep.html`), drawn from the CSV
//! each writes, beside it.

use std::collections::BTreeMap;

use super::render::{BALANCE_HEADER, COMPARE_HEADER, SWEEP_COLUMNS};
use crate::charts::page::{Page, cell, count};
use crate::charts::{self, Axes, Interval, NEUTRAL, Series, series_colour};

/// The records of a CSV this program wrote (so well formed), keyed by column name.
fn records(csv: &[u8]) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut r = csv::Reader::from_reader(csv);
    let header: Vec<String> = r
        .headers()
        .map(|h| h.iter().map(str::to_string).collect())
        .unwrap_or_default();
    let rows = r
        .records()
        .flatten()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

fn num(row: &BTreeMap<String, String>, key: &str) -> Option<f64> {
    row.get(key)?.parse().ok()
}

fn text<'a>(row: &'a BTreeMap<String, String>, key: &str) -> &'a str {
    row.get(key).map_or("", String::as_str)
}

/// A measure is a share when its name says so (`p_...`).
fn is_share(measure: &str) -> bool {
    measure.starts_with("p_")
}

fn figure_text(x: f64, share: bool) -> String {
    if share {
        format!("{:.1}%", x * 100.0)
    } else {
        format!("{x:.2}")
    }
}

/// The measures of `rows` in the order they first appear.
fn measures(rows: &[BTreeMap<String, String>]) -> Vec<String> {
    distinct(rows, |r| text(r, "measure").to_string())
}

/// The distinct values of `f` over `rows`, in the order they first appear.
fn distinct(
    rows: &[BTreeMap<String, String>],
    f: impl Fn(&BTreeMap<String, String>) -> String,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rows {
        let v = f(r);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// `compare.html`: per measure, a forest plot of each variant's paired difference from the
/// baseline with its 95% interval, and a table of the figures.
pub fn compare_html(scenario: &str, battles: u64, csv: &[u8]) -> String {
    let (_, rows) = records(csv);
    let mut page = Page::new(&format!("{scenario}: what if"));
    page.para(&format!(
        "Each variant fought the same {} battles as the baseline (common random numbers); a difference is the variant's value minus the baseline's, battle by battle, with its paired 95% interval.",
        count(battles)
    ));
    for measure in measures(&rows) {
        let share = is_share(&measure);
        let of: Vec<&BTreeMap<String, String>> = rows
            .iter()
            .filter(|r| text(r, "measure") == measure)
            .collect();
        let intervals: Vec<Interval> = of
            .iter()
            .enumerate()
            .filter_map(|(k, r)| {
                let narrowing = match text(r, "narrowing") {
                    "" => String::new(),
                    x => format!(
                        ", {}× narrower",
                        x.parse::<f64>()
                            .map_or(x.to_string(), |x| format!("{x:.1}"))
                    ),
                };
                Some(Interval {
                    label: format!(
                        "{}: {} → {}{narrowing}",
                        text(r, "variant"),
                        figure_text(num(r, "baseline")?, share),
                        figure_text(num(r, "variant_value")?, share)
                    ),
                    estimate: num(r, "diff")?,
                    low: num(r, "ci95_low")?,
                    high: num(r, "ci95_high")?,
                    colour: series_colour(k),
                })
            })
            .collect();
        page.heading(&measure, &measure);
        let chart = charts::forest(
            &intervals,
            Axes {
                // (The heading above names the measure: a unit's or command's name would not
                // fit under the chart.)
                x: "variant minus baseline",
                y: "",
                percent: share,
            },
            Some(0.0),
        );
        page.figure(
            &chart,
            &format!(
                "{measure}: each variant's difference from the baseline over {} paired battles, with its 95% interval; an interval clear of the line at 0 is a real difference. Labels: baseline → variant, and how many times narrower the paired interval is than an unpaired one.",
                count(battles)
            ),
            &[],
        );
    }
    page.heading("figures", "The figures");
    let header: Vec<&str> = COMPARE_HEADER.to_vec();
    let table = figures_table(&rows, &header, 2);
    page.sortable_table(&header, &table);
    page.para(
        "narrowing: how many times narrower the paired interval is than the unpaired one would be.",
    );
    page.finish()
}

/// `balance.html`: a matrix of side A's share of decisive battles, by side A's row (rows) and
/// side B's (columns), and a forest plot of the same with intervals.
pub fn balance_html(scenario: &str, csv: &[u8]) -> String {
    let (_, rows) = records(csv);
    let mut page = Page::new(&format!("{scenario}: balance"));
    let battles: u64 = rows
        .iter()
        .filter_map(|r| text(r, "battles").parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    page.para(&format!(
        "Mirror-image armies rated from two rows of the ratings table ({}), {} battles for each pair of rows.",
        rows.first().map_or("", |r| text(r, "arms")),
        count(battles)
    ));
    page.heading("matrix", "Win rates by rating rows");
    let (a_rows, b_cols, cells) = balance_matrix(&rows);
    let chart = charts::heat(
        &a_rows,
        &b_cols,
        &cells,
        Axes {
            x: "side B's row",
            y: "side A's row",
            percent: true,
        },
        0.5,
    );
    page.figure(
        &chart,
        &format!(
            "Side A's share of the battles someone won, for each pair of rows, {} battles a pair: orange above even, blue below, white even.",
            count(battles)
        ),
        &[],
    );
    let intervals: Vec<Interval> = rows
        .iter()
        .filter_map(|r| {
            Some(Interval {
                label: format!("{} v {}", rating_row(r, "a"), rating_row(r, "b")),
                estimate: num(r, "p_a_win_decisive")?,
                low: num(r, "ci95_low")?,
                high: num(r, "ci95_high")?,
                colour: NEUTRAL,
            })
        })
        .collect();
    let chart = charts::forest(
        &intervals,
        Axes {
            x: "side A's share of decisive battles",
            y: "",
            percent: true,
        },
        Some(0.5),
    );
    page.figure(
        &chart,
        &format!(
            "The same shares with Wilson's 95% intervals ({} battles a pair); an interval clear of 50% is a real edge.",
            count(battles)
        ),
        &[],
    );
    let header: Vec<&str> = BALANCE_HEADER.to_vec();
    let table = figures_table(&rows, &header, 5);
    page.sortable_table(&header, &table);
    page.finish()
}

/// A side's rating row in a balance record (`s` is `a` or `b`): its side and year.
fn rating_row(r: &BTreeMap<String, String>, s: &str) -> String {
    format!(
        "{} {}",
        text(r, &format!("side_{s}")),
        text(r, &format!("year_{s}"))
    )
}

/// Side A's rows, side B's columns (each in the order first met) and side A's share of
/// decisive battles in each cell, where the pair was fought.
fn balance_matrix(
    rows: &[BTreeMap<String, String>],
) -> (Vec<String>, Vec<String>, Vec<Vec<Option<f64>>>) {
    let a_rows = distinct(rows, |r| rating_row(r, "a"));
    let b_cols = distinct(rows, |r| rating_row(r, "b"));
    let cells = a_rows
        .iter()
        .map(|a| {
            b_cols
                .iter()
                .map(|b| {
                    rows.iter()
                        .find(|r| rating_row(r, "a") == *a && rating_row(r, "b") == *b)
                        .and_then(|r| num(r, "p_a_win_decisive"))
                })
                .collect()
        })
        .collect();
    (a_rows, b_cols, cells)
}

/// The table of a page's figures: each record's columns in `header`'s order, the first
/// `labels` of them labels, the rest figures.
fn figures_table(
    rows: &[BTreeMap<String, String>],
    header: &[&str],
    labels: usize,
) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            header
                .iter()
                .enumerate()
                .map(|(i, h)| cell(text(r, h), i < labels, num(r, h)))
                .collect()
        })
        .collect()
}

/// `sweep.html`: per measure, its estimate with 95% interval at each grid point; with two
/// swept values, one line per value of the second.
pub fn sweep_html(scenario: &str, csv: &[u8]) -> String {
    let (header, rows) = records(csv);
    let params: Vec<String> = header
        .iter()
        .take(header.len().saturating_sub(SWEEP_COLUMNS.len()))
        .cloned()
        .collect();
    let mut page = Page::new(&format!("{scenario}: sweep"));
    let n = rows.first().map_or("", |r| text(r, "n")).to_string();
    page.para(&format!(
        "Every point of the grid of {} fought on the same {n} battles.",
        params.join(" × ")
    ));
    let grid = SweepGrid::new(&params);
    let xs = distinct(&rows, |r| grid.x_of(r));
    let lines = distinct(&rows, |r| grid.line_of(r));
    for measure in measures(&rows) {
        let series: Vec<Series> = lines
            .iter()
            .enumerate()
            .map(|(k, l)| Series {
                name: l.clone(),
                colour: series_colour(k),
                points: grid.points(&rows, &measure, &xs, l),
            })
            .collect();
        page.heading(&measure, &measure);
        let chart = charts::lines(
            &xs,
            &series,
            Axes {
                x: &grid.x_param,
                y: &measure,
                percent: is_share(&measure),
            },
        );
        let legend: Vec<(String, plotters::style::RGBColor)> = match &grid.line_param {
            Some(p) => series
                .iter()
                .map(|s| (format!("{p} = {}", s.name), s.colour))
                .collect(),
            None => Vec::new(),
        };
        page.figure(
            &chart,
            &format!(
                "{measure} at each point of the grid, {n} battles each, with 95% intervals (Wilson's for a share)."
            ),
            &legend,
        );
    }
    page.finish()
}

/// How a sweep's grid is drawn: with two swept values, the first along the x axis and a line
/// for each value of the second; otherwise every point along the x axis.
struct SweepGrid<'a> {
    params: &'a [String],
    x_param: String,
    line_param: Option<String>,
}

impl<'a> SweepGrid<'a> {
    fn new(params: &'a [String]) -> SweepGrid<'a> {
        let (x_param, line_param) = match params {
            [.., a, b] if params.len() == 2 => (a.clone(), Some(b.clone())),
            _ => (params.join(", "), None),
        };
        SweepGrid {
            params,
            x_param,
            line_param,
        }
    }

    /// A record's place along the x axis.
    fn x_of(&self, r: &BTreeMap<String, String>) -> String {
        match &self.line_param {
            Some(_) => text(r, &self.params[0]).to_string(),
            None => (self.params.iter())
                .map(|p| text(r, p))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// A record's line ("" when there is one line).
    fn line_of(&self, r: &BTreeMap<String, String>) -> String {
        (self.line_param.as_ref()).map_or(String::new(), |p| text(r, p).to_string())
    }

    /// The estimate and interval of `measure` at each of `xs` on line `line`, where fought.
    fn points(
        &self,
        rows: &[BTreeMap<String, String>],
        measure: &str,
        xs: &[String],
        line: &str,
    ) -> Vec<Option<(f64, f64, f64)>> {
        xs.iter()
            .map(|x| {
                let r = rows.iter().find(|r| {
                    text(r, "measure") == measure && self.x_of(r) == *x && self.line_of(r) == line
                })?;
                Some((
                    num(r, "estimate")?,
                    num(r, "ci95_low")?,
                    num(r, "ci95_high")?,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compare_page_has_one_point_per_variant_and_measure() {
        let csv = b"variant,measure,baseline,variant_value,diff,ci95_low,ci95_high,unpaired_halfwidth,paired_halfwidth,narrowing\n\
a,p_win,0.5,0.6,0.1,0.05,0.15,0.1,0.05,2\n\
b,p_win,0.5,0.4,-0.1,-0.15,-0.05,0.1,0.05,2\n\
a,cv_lost_mean,10,12,2,1,3,2,1,2\n";
        let html = compare_html("Test", 1000, csv);
        let counts: Vec<&str> = html
            .split("data-marks=\"")
            .skip(1)
            .map(|s| &s[..1])
            .collect();
        assert_eq!(counts, ["2", "1"]);
        assert!(html.contains("a: 50.0% → 60.0%, 2.0× narrower"));
        assert!(html.contains("1,000 paired battles"));
    }

    #[test]
    fn a_sweep_of_two_values_draws_a_line_per_value_of_the_second() {
        let csv = b"x,y,measure,n,estimate,ci95_low,ci95_high,diff_vs_first,diff_ci95_low,diff_ci95_high\n\
0,a,p_win,100,0.5,0.4,0.6,0,0,0\n0,b,p_win,100,0.6,0.5,0.7,0,0,0\n1,a,p_win,100,0.7,0.6,0.8,0,0,0\n";
        let html = sweep_html("Test", csv);
        assert!(html.contains("data-marks=\"3\""));
        assert!(html.contains("y = a") && html.contains("y = b"));
    }
}

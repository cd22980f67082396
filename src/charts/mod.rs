//! Charts as inline SVG, drawn by `plotters` with its SVG backend, and the self-contained HTML
//! pages that hold them ([`page`]).
//!
//! One palette (Okabe and Ito's, readable with every common colour blindness) and one colour per
//! side, defined here and used by every chart, page and map. Every data mark (a bar, a point, a
//! heat-map cell) is drawn at [`MARK_ALPHA`] and tagged `class="mark"`, so a page (and its
//! tests) can count what a chart shows; every [`Chart`] knows how many marks it drew.

pub mod page;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::army::Side;

/// Okabe-Ito: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
pub const OKABE_ITO: [RGBColor; 8] = [
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xF0, 0xE4, 0x42),
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
];

/// Neither side's: draws, totals, the battle as a whole.
pub const NEUTRAL: RGBColor = RGBColor(0x77, 0x77, 0x77);

/// Each side's colour, everywhere: Parliament orange, the Royalists blue.
pub fn side_colour(side: Side) -> RGBColor {
    match side {
        Side::Parliament => OKABE_ITO[1],
        Side::Royalist => OKABE_ITO[5],
    }
}

/// A side's colour from its name in a CSV (`parliament`, `royalist`); neutral otherwise.
pub fn side_colour_named(side: &str) -> RGBColor {
    match side {
        "parliament" => side_colour(Side::Parliament),
        "royalist" => side_colour(Side::Royalist),
        _ => NEUTRAL,
    }
}

/// The `k`th colour of a series of categories (stacked bars, lines): the palette without black.
pub fn series_colour(k: usize) -> RGBColor {
    OKABE_ITO[1 + k % 7]
}

/// `#RRGGBB`, for HTML legends and hand-written SVG shapes.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The opacity of every data mark; nothing else is drawn at it.
pub const MARK_ALPHA: f64 = 0.9;
const MARK_ATTR: &str = "opacity=\"0.9\"";

/// One drawn chart: its SVG and how many data marks it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub svg: String,
    pub marks: usize,
}

/// A bar of a bar chart or a histogram.
#[derive(Debug, Clone)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub colour: RGBColor,
}

/// A row of a forest (interval) plot: an estimate and its 95% interval.
#[derive(Debug, Clone)]
pub struct Interval {
    pub label: String,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    pub colour: RGBColor,
}

/// A line of a line chart: one point (estimate and interval) per x category.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub colour: RGBColor,
    pub points: Vec<Option<(f64, f64, f64)>>,
}

/// A chart's axes: what each shows, and whether values are shares (drawn as percent).
#[derive(Debug, Clone, Copy)]
pub struct Axes<'a> {
    pub x: &'a str,
    pub y: &'a str,
    pub percent: bool,
}

type Fallible = Result<(), Box<dyn std::error::Error>>;

const FONT: &str = "sans-serif";
const WIDTH: u32 = 640;

fn tick_text(v: f64, percent: bool) -> String {
    let (x, unit) = if percent { (v * 100.0, "%") } else { (v, "") };
    let x = if x.abs() < 1e-9 { 0.0 } else { x };
    if (x - x.round()).abs() < 1e-6 {
        format!("{x:.0}{unit}")
    } else if percent || (x * 10.0 - (x * 10.0).round()).abs() < 1e-6 {
        format!("{x:.1}{unit}")
    } else {
        format!("{x:.2}")
    }
}

/// The label of category `i` of `labels` at axis position `v`, when `v` is a whole index.
fn category(labels: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    labels.get(i as usize).cloned().unwrap_or_default()
}

/// Pixels for the widest of `labels` down a chart's side.
fn label_width(labels: &[String]) -> u32 {
    labels.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32 * 8 + 14
}

type Plane<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A white chart with `labels` as rows down the side (the last label at the top, row `i` at
/// height `i`) and values across `x`, its mesh drawn.
fn category_rows<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    x: std::ops::Range<f64>,
    labels: &[String],
    axes: Axes,
) -> Result<Plane<'a, 'b>, Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let n = labels.len().max(1);
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(label_width(labels))
        .build_cartesian_2d(x, -0.5f64..(n as f64 - 0.5))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| category(labels, *v))
        .x_label_formatter(&|v| tick_text(*v, axes.percent))
        .x_desc(axes.x)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    Ok(chart)
}

/// Draws with `f` on a fresh SVG of `size`, then tags the marks; a drawing error becomes a
/// one-line SVG saying so (charts are never worth a panic).
fn draw(
    size: (u32, u32),
    marks: usize,
    f: impl FnOnce(DrawingArea<SVGBackend, Shift>) -> Fallible,
) -> Chart {
    let mut svg = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        f(root)
    };
    match result {
        Ok(()) => Chart {
            svg: tidy_svg(&svg),
            marks,
        },
        Err(e) => Chart {
            svg: format!("<p>chart not drawn: {}</p>", page::esc(&e.to_string())),
            marks: 0,
        },
    }
}

/// `chart` with a legend of `entries` (name and colour) in rows below it, the picture grown to
/// hold them; none for a single entry, which the axes already name.
pub fn with_legend(chart: Chart, entries: &[(String, RGBColor)]) -> Chart {
    let (Some(head), Some(end)) = (chart.svg.find('>'), chart.svg.rfind("</svg>")) else {
        return chart;
    };
    let Some(height) = svg_height(&chart.svg[..head]).filter(|_| entries.len() > 1) else {
        return chart;
    };
    let (x, row) = (70, 18);
    let grown = height + entries.len() * row + 8;
    let mut legend = format!(
        "<rect x=\"0\" y=\"{height}\" width=\"100%\" height=\"{}\" fill=\"#FFFFFF\"/>\n",
        grown - height
    );
    for (k, (name, colour)) in entries.iter().enumerate() {
        let top = height + k * row;
        legend.push_str(&format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n<text x=\"{}\" y=\"{}\" font-family=\"{FONT}\" font-size=\"13.0\">{}</text>\n",
            top + 1,
            hex(*colour),
            x + 18,
            top + 11,
            page::esc(name)
        ));
    }
    let tag = chart.svg[..head]
        .replacen(
            &format!("height=\"{height}\""),
            &format!("height=\"{grown}\""),
            1,
        )
        .replacen(&format!(" {height}\""), &format!(" {grown}\""), 1);
    let svg = format!(
        "{tag}{}{legend}{}",
        &chart.svg[head..end],
        &chart.svg[end..]
    );
    Chart { svg, ..chart }
}

/// The height an `<svg ...` opening tag gives, in whole pixels.
fn svg_height(tag: &str) -> Option<usize> {
    let (_, rest) = tag.split_once(" height=\"")?;
    rest.split_once('"')?.0.parse().ok()
}

/// Tags the marks and trims what the backend writes long: font sizes to one decimal, and
/// the default full opacity.
fn tidy_svg(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    for line in svg.lines() {
        let line = line.replace(" opacity=\"1\"", "");
        let line = match line.split_once("font-size=\"") {
            Some((head, rest)) => {
                let (size, tail) = rest.split_once('"').unwrap_or((rest, ""));
                let size: f64 = size.parse().unwrap_or(12.0);
                format!("{head}font-size=\"{size:.1}\"{tail}")
            }
            None => line,
        };
        out.push_str(&line.replace(MARK_ATTR, &format!("class=\"mark\" {MARK_ATTR}")));
        out.push('\n');
    }
    out
}

/// The span of `values` (with intervals) widened to hold `0`, padded a little above.
fn value_range(values: impl Iterator<Item = f64>, percent: bool) -> (f64, f64) {
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let hi = if percent && hi <= 1.0 && lo >= 0.0 {
        (hi * 1.1).clamp(0.05, 1.0)
    } else {
        hi + (hi - lo).max(1e-9) * 0.08
    };
    let lo = if lo < 0.0 { lo - (hi - lo) * 0.08 } else { lo };
    (lo, hi)
}

/// Vertical bars, one per category, with their intervals where given: histograms and shares.
pub fn columns(bars: &[Bar], axes: Axes) -> Chart {
    columns_sized((WIDTH, 280), bars, axes)
}

/// [`columns`] for small multiples: a smaller drawing, so its text reads larger when several
/// share a row.
pub fn columns_small(bars: &[Bar], axes: Axes) -> Chart {
    columns_sized((440, 240), bars, axes)
}

fn columns_sized(size: (u32, u32), bars: &[Bar], axes: Axes) -> Chart {
    let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
    let (lo, hi) = value_range(
        bars.iter()
            .flat_map(|b| [b.value, b.interval.map_or(b.value, |i| i.1)]),
        axes.percent,
    );
    let n = bars.len().max(1);
    draw(size, bars.len(), |root| {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), lo..hi)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_labels(n.min(if size.0 < WIDTH { 10 } else { 16 }))
            .x_label_formatter(&|v| category(&labels, *v))
            .y_label_formatter(&|v| tick_text(*v, axes.percent))
            .x_desc(axes.x)
            .y_desc(axes.y)
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 16))
            .draw()?;
        let half = 0.4f64.min(0.45 * 30.0 / n as f64).max(0.3);
        chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
            let x = i as f64;
            Rectangle::new(
                [(x - half, 0.0), (x + half, b.value)],
                b.colour.mix(MARK_ALPHA).filled(),
            )
        }))?;
        chart.draw_series(bars.iter().enumerate().filter_map(|(i, b)| {
            let (l, h) = b.interval?;
            let x = i as f64;
            Some(PathElement::new(
                vec![(x, l), (x, h)],
                BLACK.stroke_width(2),
            ))
        }))?;
        root.present()?;
        Ok(())
    })
}

/// A forest plot: one row per estimate, its point and 95% interval, and a reference line
/// (`0` for differences, `0.5` for even odds) when given.
pub fn forest(rows: &[Interval], axes: Axes, reference: Option<f64>) -> Chart {
    let labels: Vec<String> = rows.iter().rev().map(|r| r.label.clone()).collect();
    let (mut lo, mut hi) = rows.iter().fold((f64::MAX, f64::MIN), |(a, b), r| {
        (a.min(r.low).min(r.estimate), b.max(r.high).max(r.estimate))
    });
    if let Some(r) = reference {
        lo = lo.min(r);
        hi = hi.max(r);
    }
    if rows.is_empty() || hi - lo < 1e-9 {
        lo -= 0.5;
        hi += 0.5;
    }
    let pad = (hi - lo) * 0.06;
    let n = rows.len().max(1);
    let label_px = label_width(&labels);
    let height = 70 + 20 * n as u32;
    draw((WIDTH.max(label_px + 300), height), rows.len(), |root| {
        let mut chart = category_rows(&root, (lo - pad)..(hi + pad), &labels, axes)?;
        if let Some(r) = reference {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(r, -0.5), (r, n as f64 - 0.5)],
                BLACK.mix(0.5).stroke_width(1),
            )))?;
        }
        let y = |i: usize| (n - 1 - i) as f64;
        chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
            PathElement::new(
                vec![(r.low, y(i)), (r.high, y(i))],
                r.colour.stroke_width(2),
            )
        }))?;
        chart.draw_series(
            rows.iter().enumerate().map(|(i, r)| {
                Circle::new((r.estimate, y(i)), 5, r.colour.mix(MARK_ALPHA).filled())
            }),
        )?;
        root.present()?;
        Ok(())
    })
}

/// Horizontal stacked bars: each row's shares of `categories` (a row's shares sum to at most
/// 1; the rest is left blank). Marks: the non-empty segments.
pub fn stacked(rows: &[(String, Vec<f64>)], axes: Axes) -> Chart {
    let labels: Vec<String> = rows.iter().rev().map(|r| r.0.clone()).collect();
    let n = rows.len().max(1);
    let marks = rows
        .iter()
        .map(|r| r.1.iter().filter(|v| **v > 0.0).count())
        .sum();
    let max = rows
        .iter()
        .map(|r| r.1.iter().sum::<f64>())
        .fold(0.0f64, f64::max);
    let top = if axes.percent {
        (max * 1.1).clamp(0.02, 1.0)
    } else {
        max * 1.1 + 1e-9
    };
    let label_px = label_width(&labels);
    draw(
        (WIDTH.max(label_px + 300), 70 + 22 * n as u32),
        marks,
        |root| {
            let mut chart = category_rows(&root, 0f64..top, &labels, axes)?;
            for (i, (_, shares)) in rows.iter().enumerate() {
                let y = (n - 1 - i) as f64;
                let mut x = 0.0;
                for (k, v) in shares.iter().enumerate().filter(|(_, v)| **v > 0.0) {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(x, y - 0.35), (x + v, y + 0.35)],
                        series_colour(k).mix(MARK_ALPHA).filled(),
                    )))?;
                    x += v;
                }
            }
            root.present()?;
            Ok(())
        },
    )
}

/// Lines over categories (a sweep's grid points), each point with its interval.
pub fn lines(x_labels: &[String], series: &[Series], axes: Axes) -> Chart {
    let n = x_labels.len().max(1);
    let all = || series.iter().flat_map(|s| s.points.iter().flatten());
    let (lo, hi) = all().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.2)));
    let (lo, hi) = if lo > hi {
        (0.0, 1.0)
    } else if hi - lo < 1e-9 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    };
    let pad = (hi - lo) * 0.08;
    let marks = all().count();
    let gap = 0.08 * (series.len().saturating_sub(1)) as f64;
    let offset = |k: usize| -gap / 2.0 + 0.08 * k as f64;
    draw((WIDTH, 300), marks, |root| {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_labels(n.min(16))
            .x_label_formatter(&|v| category(x_labels, *v))
            .y_label_formatter(&|v| tick_text(*v, axes.percent))
            .x_desc(axes.x)
            .y_desc(axes.y)
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 16))
            .draw()?;
        for (k, s) in series.iter().enumerate() {
            let pts: Vec<(f64, f64, f64, f64)> = s
                .points
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.map(|(e, l, h)| (i as f64 + offset(k), e, l, h)))
                .collect();
            chart.draw_series(LineSeries::new(
                pts.iter().map(|p| (p.0, p.1)),
                s.colour.stroke_width(2),
            ))?;
            chart.draw_series(pts.iter().map(|p| {
                PathElement::new(vec![(p.0, p.2), (p.0, p.3)], s.colour.stroke_width(2))
            }))?;
            chart.draw_series(
                pts.iter()
                    .map(|p| Circle::new((p.0, p.1), 4, s.colour.mix(MARK_ALPHA).filled())),
            )?;
        }
        root.present()?;
        Ok(())
    })
}

/// The colour of a share on a diverging scale: blue below `mid`, white at it, orange above.
pub fn diverging(v: f64, mid: f64) -> RGBColor {
    let (to, t) = if v < mid {
        (
            side_colour(Side::Royalist),
            ((mid - v) / mid.max(1e-9)).clamp(0.0, 1.0),
        )
    } else {
        (
            side_colour(Side::Parliament),
            ((v - mid) / (1.0 - mid).max(1e-9)).clamp(0.0, 1.0),
        )
    };
    let mix = |a: u8| (255.0 + (f64::from(a) - 255.0) * t).round() as u8;
    RGBColor(mix(to.0), mix(to.1), mix(to.2))
}

/// A heat map: one cell per row and column with a value (shares on a diverging scale about
/// `mid`), each cell labelled with its value. Empty cells are left blank.
pub fn heat(
    row_labels: &[String],
    col_labels: &[String],
    cells: &[Vec<Option<f64>>],
    axes: Axes,
    mid: f64,
) -> Chart {
    let (nr, nc) = (row_labels.len().max(1), col_labels.len().max(1));
    let rows_rev: Vec<String> = row_labels.iter().rev().cloned().collect();
    let marks = cells.iter().flatten().filter(|c| c.is_some()).count();
    let label_px = row_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(4) as u32
        * 8
        + 14;
    let cell_h = 36;
    draw(
        (
            WIDTH.max(label_px + 80 * nc as u32),
            80 + cell_h * nr as u32,
        ),
        marks,
        |root| {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(label_px)
                .build_cartesian_2d(-0.5f64..(nc as f64 - 0.5), -0.5f64..(nr as f64 - 0.5))?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .disable_mesh()
                .x_labels(nc)
                .y_labels(nr)
                .x_label_formatter(&|v| category(col_labels, *v))
                .y_label_formatter(&|v| category(&rows_rev, *v))
                .x_desc(axes.x)
                .y_desc(axes.y)
                .label_style((FONT, 15))
                .axis_desc_style((FONT, 16))
                .draw()?;
            for (i, row) in cells.iter().enumerate() {
                let y = (nr - 1 - i) as f64;
                for (j, v) in row.iter().enumerate() {
                    let Some(v) = *v else { continue };
                    let x = j as f64;
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.48, y - 0.46), (x + 0.48, y + 0.46)],
                        diverging(v, mid).mix(MARK_ALPHA).filled(),
                    )))?;
                    chart.draw_series(std::iter::once(Text::new(
                        tick_text(v, axes.percent),
                        (x - 0.15, y + 0.12),
                        (FONT, 16).into_font().color(&BLACK),
                    )))?;
                }
            }
            root.present()?;
            Ok(())
        },
    )
}

/// A small histogram without axes, for a table cell: `values` are shares of battles.
pub fn spark(values: &[f64], colour: RGBColor) -> Chart {
    let n = values.len().max(1);
    let top = values.iter().cloned().fold(0.0f64, f64::max).max(1e-9);
    draw((120, 28), values.len(), |root| {
        let mut chart = ChartBuilder::on(&root)
            .margin(1)
            .build_cartesian_2d(0f64..n as f64, 0f64..top)?;
        chart.draw_series(values.iter().enumerate().map(|(i, v)| {
            Rectangle::new(
                [(i as f64 + 0.1, 0.0), (i as f64 + 0.9, *v)],
                colour.mix(MARK_ALPHA).filled(),
            )
        }))?;
        root.present()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(svg: &str) -> usize {
        svg.matches("class=\"mark\"").count()
    }

    /// A legend of several entries goes in rows below the chart, the picture grown to hold
    /// them, every mark kept; a single entry adds nothing.
    #[test]
    fn a_legend_grows_the_chart_below_its_axes() {
        let series = |name: &str, colour| Series {
            name: name.into(),
            colour,
            points: vec![Some((1.0, 0.5, 1.5)), Some((2.0, 1.5, 2.5))],
        };
        let axes = Axes {
            x: "x",
            y: "y",
            percent: false,
        };
        let labels = ["a".to_string(), "b".to_string()];
        let two = [series("one <1>", OKABE_ITO[0]), series("two", OKABE_ITO[3])];
        let plain = lines(&labels, &two, axes);
        assert!(
            plain
                .svg
                .starts_with("<svg width=\"640\" height=\"300\" viewBox=\"0 0 640 300\"")
        );
        let entries: Vec<(String, RGBColor)> =
            two.iter().map(|s| (s.name.clone(), s.colour)).collect();
        let c = with_legend(plain.clone(), &entries);
        assert!(
            c.svg
                .starts_with("<svg width=\"640\" height=\"344\" viewBox=\"0 0 640 344\""),
            "{}",
            &c.svg[..120]
        );
        assert!(c.svg.contains(">one &lt;1&gt;</text>") && c.svg.contains(">two</text>"));
        assert!(
            c.svg
                .contains("y=\"319\" width=\"12\" height=\"12\" fill=\"#009E73\""),
            "the second row, below the first"
        );
        assert!(c.svg.trim_end().ends_with("</svg>"));
        assert_eq!((marks(&c.svg), c.marks), (marks(&plain.svg), plain.marks));
        assert_eq!(with_legend(plain.clone(), &entries[..1]).svg, plain.svg);
    }

    fn bar(label: &str, value: f64) -> Bar {
        Bar {
            label: label.into(),
            value,
            interval: Some((value * 0.9, value * 1.1)),
            colour: side_colour(Side::Parliament),
        }
    }

    const AXES: Axes = Axes {
        x: "turns",
        y: "share of battles",
        percent: true,
    };

    #[test]
    fn every_bar_is_one_tagged_mark_in_its_side_colour() {
        let c = columns(&[bar("1", 0.2), bar("2", 0.5), bar("3", 0.3)], AXES);
        assert_eq!(c.marks, 3);
        assert_eq!(marks(&c.svg), 3);
        assert!(c.svg.starts_with("<svg"));
        assert_eq!(c.svg.matches("fill=\"#E69F00\"").count(), 3);
        // Category labels are the bars' own.
        assert!(c.svg.contains("\n2\n</text>"));
    }

    #[test]
    fn forest_stacked_lines_heat_and_spark_count_their_marks() {
        let rows: Vec<Interval> = (0..4)
            .map(|i| Interval {
                label: format!("row {i}"),
                estimate: i as f64 * 0.1,
                low: i as f64 * 0.1 - 0.05,
                high: i as f64 * 0.1 + 0.05,
                colour: NEUTRAL,
            })
            .collect();
        let f = forest(&rows, AXES, Some(0.0));
        assert_eq!((f.marks, marks(&f.svg)), (4, 4));
        assert!(f.svg.contains("row 3"));
        let s = stacked(
            &[
                ("a".into(), vec![0.2, 0.0, 0.1]),
                ("b".into(), vec![0.5, 0.1, 0.1]),
            ],
            AXES,
        );
        assert_eq!((s.marks, marks(&s.svg)), (5, 5));
        let l = lines(
            &["0".into(), "4".into()],
            &[Series {
                name: "p_win".into(),
                colour: series_colour(0),
                points: vec![Some((0.4, 0.3, 0.5)), None],
            }],
            AXES,
        );
        assert_eq!((l.marks, marks(&l.svg)), (1, 1));
        let h = heat(
            &["1642".into(), "1643".into()],
            &["1644".into()],
            &[vec![Some(0.7)], vec![None]],
            AXES,
            0.5,
        );
        assert_eq!((h.marks, marks(&h.svg)), (1, 1));
        assert!(h.svg.contains("\n70%\n</text>"));
        let p = spark(&[0.1, 0.5, 0.0, 0.4], NEUTRAL);
        assert_eq!((p.marks, marks(&p.svg)), (4, 4));
    }

    #[test]
    fn the_diverging_scale_is_white_at_even_and_the_sides_colours_at_the_ends() {
        assert_eq!(diverging(0.5, 0.5), RGBColor(255, 255, 255));
        assert_eq!(diverging(1.0, 0.5), side_colour(Side::Parliament));
        assert_eq!(diverging(0.0, 0.5), side_colour(Side::Royalist));
    }
}

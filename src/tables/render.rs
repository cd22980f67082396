//! Turning tables into text: tidy CSV, Markdown (aligned for a terminal) and one self-contained
//! printable HTML page.

use super::{Cell, Grid, Table};
use crate::charts::page::esc;

/// How probabilities are shown in Markdown and HTML (CSV always carries both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Show {
    /// `7/36`
    Fraction,
    /// `19.4%`
    Percent,
    /// `7/36 (19.4%)`
    #[default]
    Both,
}

/// Decimal places of the `<id>` probability fields in CSV.
pub const CSV_DECIMALS: u32 = 10;

fn display(cell: &Cell, show: Show) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Int(v) => v.to_string(),
        Cell::Empty => String::new(),
        Cell::Real(v) => percent(*v),
        Cell::P(p) => match show {
            Show::Fraction => p.fraction(),
            Show::Percent => p.percent(),
            Show::Both => {
                if p.is_zero() || p.num() == p.den() {
                    // 0 and 1 need no second form.
                    p.fraction()
                } else {
                    format!("{} ({})", p.fraction(), p.percent())
                }
            }
        },
    }
}

/// A floating-point probability as a percentage to one decimal place, never reading as
/// impossible or certain when it is not (as [`super::Prob::percent`]).
pub fn percent(v: f64) -> String {
    let t = (v * 1000.0).round();
    if v > 0.0 && t == 0.0 {
        "<0.1%".into()
    } else if v < 1.0 && t == 1000.0 {
        ">99.9%".into()
    } else {
        format!("{:.1}%", t / 10.0)
    }
}

/// One table as tidy CSV: a header, then one observation per row. The first field names the
/// table. A probability column `x` is written as `x` (decimal) and `x_exact` (fraction).
pub fn csv_table(t: &Table) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let mut header = vec!["table".to_string()];
    for c in &t.tidy.columns {
        header.push(c.id.to_string());
        if c.prob {
            header.push(format!("{}_exact", c.id));
        }
    }
    w.write_record(&header).expect("writing to memory");
    for row in &t.tidy.rows {
        let mut rec = vec![t.id.to_string()];
        for (c, cell) in t.tidy.columns.iter().zip(row) {
            match cell {
                Cell::P(p) => {
                    rec.push(p.decimal(CSV_DECIMALS));
                    rec.push(p.fraction());
                }
                Cell::Real(v) => {
                    rec.push(format!("{v:.prec$}", prec = CSV_DECIMALS as usize));
                    rec.push(String::new());
                }
                other => {
                    rec.push(display(other, Show::Fraction));
                    if c.prob {
                        rec.push(String::new());
                    }
                }
            }
        }
        w.write_record(&rec).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("flushing to memory")).expect("CSV of UTF-8 is UTF-8")
}

/// Several tables as CSV: each table's block (with its own header), separated by a blank line.
/// For one clean file per table use `--out`, or pick one table with `--table`.
pub fn csv(tables: &[Table]) -> String {
    tables.iter().map(csv_table).collect::<Vec<_>>().join("\n")
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

fn markdown_grid(g: &Grid, show: Show, out: &mut String) {
    let rows: Vec<Vec<String>> = g
        .rows
        .iter()
        .map(|r| r.iter().map(|c| md_escape(&display(c, show))).collect())
        .collect();
    let header: Vec<String> = g.header.iter().map(|h| md_escape(h)).collect();
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count().max(3)).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let pad = |s: &str, w: usize, left: bool| {
        let n = w.saturating_sub(s.chars().count());
        if left {
            format!("{s}{}", " ".repeat(n))
        } else {
            format!("{}{s}", " ".repeat(n))
        }
    };
    if !g.caption.is_empty() {
        out.push_str(&format!("**{}**\n\n", g.caption));
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| pad(c, width[i], i < g.labels))
            .collect();
        format!("| {} |\n", parts.join(" | "))
    };
    out.push_str(&line(&header));
    let rule: Vec<String> = width
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if i < g.labels {
                format!(":{}", "-".repeat(w - 1))
            } else {
                format!("{}:", "-".repeat(w - 1))
            }
        })
        .collect();
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for r in &rows {
        out.push_str(&line(r));
    }
    out.push('\n');
}

/// One table as Markdown: a `##` title, the notes, then its grids.
pub fn markdown_table(t: &Table, show: Show) -> String {
    let mut out = format!("## {}\n\n", t.title);
    for p in &t.about {
        out.push_str(p);
        out.push_str("\n\n");
    }
    for g in &t.grids {
        markdown_grid(g, show, &mut out);
    }
    out
}

/// Several tables as one Markdown document under a `#` heading.
pub fn markdown(tables: &[Table], show: Show, heading: &str, intro: &str) -> String {
    let mut out = format!("# {heading}\n\n");
    if !intro.is_empty() {
        out.push_str(intro);
        out.push_str("\n\n");
    }
    for t in tables {
        out.push_str(&markdown_table(t, show));
    }
    out
}

/// Minimal inline markup for the notes: `code` spans only.
fn html_inline(s: &str) -> String {
    let escaped = esc(s);
    let mut out = String::new();
    for (i, part) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

const CSS: &str = "\
body{font-family:Georgia,'Times New Roman',serif;margin:1.5em auto;max-width:60em;color:#111;line-height:1.35}
h1{font-size:1.6em;margin-bottom:.2em}
h2{font-size:1.25em;border-bottom:1px solid #888;margin-top:1.6em}
p{margin:.4em 0}
nav ol{columns:2;font-size:.9em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.82em;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:bold;padding:.2em 0}
th,td{border:1px solid #999;padding:.15em .45em;text-align:right;white-space:nowrap}
th{background:#e8e4d8}
td.l,th.l{text-align:left}
td.l{white-space:normal}
tbody tr:nth-child(even){background:#f6f4ee}
code{font-family:Consolas,monospace;font-size:.95em}
.meta{color:#444;font-size:.9em}
figure{margin:.6em 0}
figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.85em;color:#333}
button{font:inherit;padding:.1em .7em;margin:.2em .3em .2em 0}
button[aria-pressed=true]{font-weight:bold;background:#e8e4d8}
@page{margin:1.2cm}
@media print{body{margin:0;max-width:none}nav{display:none}h2{break-after:avoid}table{break-inside:auto}tr{break-inside:avoid}thead{display:table-header-group}}
";

/// All tables as one self-contained printable HTML page: inline CSS, each table's chart (a
/// small inline script switches them), no external resources.
pub fn html(tables: &[Table], show: Show, heading: &str, intro: &str) -> String {
    let mut o = String::new();
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    o.push_str(&format!("<title>{}</title>\n", esc(heading)));
    o.push_str("<style>\n");
    o.push_str(CSS);
    o.push_str("</style>\n</head>\n<body>\n");
    o.push_str(&format!("<h1>{}</h1>\n", esc(heading)));
    if !intro.is_empty() {
        o.push_str(&format!("<p class=\"meta\">{}</p>\n", html_inline(intro)));
    }
    o.push_str("<nav><ol>\n");
    for t in tables {
        o.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>\n",
            t.id,
            esc(&t.title)
        ));
    }
    o.push_str("</ol></nav>\n");
    for t in tables {
        o.push_str(&format!(
            "<section id=\"{}\">\n<h2>{}</h2>\n",
            t.id,
            esc(&t.title)
        ));
        for p in &t.about {
            o.push_str(&format!("<p>{}</p>\n", html_inline(p)));
        }
        for g in &t.grids {
            o.push_str("<table>\n");
            if !g.caption.is_empty() {
                o.push_str(&format!("<caption>{}</caption>\n", esc(&g.caption)));
            }
            let class = |i: usize| if i < g.labels { " class=\"l\"" } else { "" };
            o.push_str("<thead><tr>");
            for (i, h) in g.header.iter().enumerate() {
                o.push_str(&format!("<th{}>{}</th>", class(i), esc(h)));
            }
            o.push_str("</tr></thead>\n<tbody>\n");
            for r in &g.rows {
                o.push_str("<tr>");
                for (i, c) in r.iter().enumerate() {
                    o.push_str(&format!("<td{}>{}</td>", class(i), esc(&display(c, show))));
                }
                o.push_str("</tr>\n");
            }
            o.push_str("</tbody>\n</table>\n");
        }
        o.push_str(&super::chart::chart_block(t));
        o.push_str("</section>\n");
    }
    o.push_str(&format!(
        "<script>\n{}</script>\n",
        super::chart::SWITCH_SCRIPT
    ));
    o.push_str("</body>\n</html>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{Prob, Tidy, key, prob};

    fn sample() -> Table {
        let mut tidy = Tidy::new(vec![key("cv"), prob("p")]);
        tidy.push(vec![Cell::int(4), Cell::P(Prob::new(7, 36))]);
        let mut g = Grid::new("A | grid", vec!["CV".into(), "P".into()]);
        g.push(vec![Cell::int(4), Cell::P(Prob::new(7, 36))]);
        Table {
            id: "sample",
            title: "Sample <table>".into(),
            about: vec!["Read `this`.".into()],
            tidy,
            grids: vec![g],
        }
    }

    #[test]
    fn csv_splits_probabilities() {
        let s = csv_table(&sample());
        assert_eq!(s, "table,cv,p,p_exact\nsample,4,0.1944444444,7/36\n");
    }

    #[test]
    fn markdown_aligns_and_escapes() {
        let s = markdown_table(&sample(), Show::Both);
        // The caption is not in a table, so its `|` stays as it is.
        assert!(s.contains("**A | grid**"), "{s}");
        assert!(s.contains("| CV  |            P |\n"), "{s}");
        assert!(s.contains("| :-- | -----------: |\n"), "{s}");
        assert!(s.contains("| 4   | 7/36 (19.4%) |\n"), "{s}");
        let p = markdown_table(&sample(), Show::Percent);
        assert!(p.contains("19.4%") && !p.contains("7/36"), "{p}");
    }

    #[test]
    fn html_escapes() {
        let s = html(&[sample()], Show::Fraction, "T", "intro");
        assert!(s.contains("Sample &lt;table&gt;"));
        assert!(s.contains("<code>this</code>"));
        assert!(s.contains("<td>7/36</td>"));
    }
}

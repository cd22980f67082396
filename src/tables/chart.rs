//! Each table's chart for the HTML page, AnyDice-style: bars of its first probability column
//! ("exactly") over its last key column, one chart per combination of the other keys (picked
//! from a list), switchable to "at least" where the table has that column.

use std::fmt::Write as _;

use super::{Cell, Table};
use crate::charts::page::{esc, figure};
use crate::charts::{self, Axes, Bar, series_colour};

/// Shows the chart of the picked group and mode in each `.tchart` block.
pub const SWITCH_SCRIPT: &str = "\
document.querySelectorAll('.tchart').forEach(function(b){
 var sel=b.querySelector('select'),mode='exactly';
 function show(){var g=sel?sel.value:'0';b.querySelectorAll('figure').forEach(function(f){f.style.display=(f.dataset.g===g&&f.dataset.m===mode)?'':'none';});
  b.querySelectorAll('button').forEach(function(x){x.setAttribute('aria-pressed',x.dataset.m===mode);});}
 if(sel)sel.addEventListener('change',show);
 b.querySelectorAll('button').forEach(function(x){x.addEventListener('click',function(){mode=x.dataset.m;show();});});
 show();
});
";

fn as_f64(c: &Cell) -> Option<f64> {
    match c {
        Cell::P(p) => Some(p.num() as f64 / p.den() as f64),
        Cell::Real(v) => Some(*v),
        _ => None,
    }
}

fn as_text(c: &Cell) -> String {
    match c {
        Cell::Text(s) => s.clone(),
        Cell::Int(v) => v.to_string(),
        Cell::Empty => String::new(),
        Cell::P(p) => p.fraction(),
        Cell::Real(v) => super::render::percent(*v),
    }
}

/// The cumulative column a table may carry beside its first probability column.
fn at_least_column(t: &Table) -> Option<usize> {
    t.tidy
        .columns
        .iter()
        .position(|c| c.prob && (c.id.starts_with("p_at_least") || c.id == "p_this_or_better"))
}

/// The chart block of a table, or nothing when it has no key or no probability column.
pub fn chart_block(t: &Table) -> String {
    let cols = &t.tidy.columns;
    let Some(exact) = cols.iter().position(|c| c.prob) else {
        return String::new();
    };
    let keys: Vec<usize> = (0..cols.len()).filter(|&i| !cols[i].prob).collect();
    let Some((&x, group_keys)) = keys.split_last() else {
        return String::new();
    };
    let at_least = at_least_column(t);
    // Groups in the table's order: each a label and its rows.
    let mut groups: Vec<(String, Vec<&Vec<Cell>>)> = Vec::new();
    for row in &t.tidy.rows {
        let label = group_keys
            .iter()
            .map(|&k| format!("{} {}", cols[k].id, as_text(&row[k])))
            .collect::<Vec<_>>()
            .join(", ");
        match groups.iter_mut().find(|g| g.0 == label) {
            Some(g) => g.1.push(row),
            None => groups.push((label, vec![row])),
        }
    }
    let mut o = String::from("<div class=\"tchart noprint\">\n");
    if groups.len() > 1 {
        o.push_str("<label>Chart of <select>");
        for (i, (label, _)) in groups.iter().enumerate() {
            let _ = write!(o, "<option value=\"{i}\">{}</option>", esc(label));
        }
        o.push_str("</select></label>\n");
    }
    let mut modes = vec![("exactly", exact)];
    if let Some(c) = at_least {
        modes.push(("at least", c));
        o.push_str("<button type=\"button\" data-m=\"exactly\">exactly</button><button type=\"button\" data-m=\"at least\">at least</button>\n");
    }
    for (g, (label, rows)) in groups.iter().enumerate() {
        for (k, (mode, col)) in modes.iter().enumerate() {
            let bars: Vec<Bar> = rows
                .iter()
                .filter_map(|r| {
                    Some(Bar {
                        label: as_text(&r[x]),
                        value: as_f64(&r[*col])?,
                        interval: None,
                        colour: series_colour(k + 4),
                    })
                })
                .collect();
            let chart = charts::columns(
                &bars,
                Axes {
                    x: cols[x].id,
                    y: cols[*col].id,
                    percent: true,
                },
            );
            let caption = format!(
                "{}{}{}: {} ({mode}), exact.",
                t.title,
                if label.is_empty() { "" } else { ", " },
                label,
                cols[*col].id
            );
            let fig = figure(&chart, &caption, &[]);
            let _ = write!(
                o,
                "{}",
                fig.replacen(
                    "<figure class=\"chart\"",
                    &format!("<figure class=\"chart\" data-g=\"{g}\" data-m=\"{mode}\""),
                    1
                )
            );
        }
    }
    o.push_str("</div>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{Prob, Tidy, key, prob};

    #[test]
    fn a_distribution_gets_exactly_and_at_least_charts_per_group() {
        let mut tidy = Tidy::new(vec![
            key("dice"),
            key("hits"),
            prob("p"),
            prob("p_at_least"),
        ]);
        for dice in [1, 2] {
            for hits in 0..=dice {
                tidy.push(vec![
                    Cell::int(dice),
                    Cell::int(hits),
                    Cell::P(Prob::new(1, 2)),
                    Cell::P(Prob::new(1, 1)),
                ]);
            }
        }
        let t = Table {
            id: "t",
            title: "Hits".into(),
            about: vec![],
            tidy,
            grids: vec![],
        };
        let html = chart_block(&t);
        assert_eq!(html.matches("<figure").count(), 4);
        assert_eq!(html.matches("<option").count(), 2);
        assert!(html.contains("data-g=\"1\" data-m=\"at least\" data-marks=\"3\""));
        assert!(html.contains("data-g=\"0\" data-m=\"exactly\" data-marks=\"2\""));
    }
}

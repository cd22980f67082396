//! A self-contained HTML page of charts and tables: inline SVG, CSS and (only where a table
//! sorts or a chart switches) a small inline script. No network, no external fonts; readable
//! on a phone (the charts scale to the screen) and printable (no figure split across pages).

use std::fmt::Write as _;

use super::{Chart, hex};
use plotters::style::RGBColor;

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(ch),
        }
    }
    o
}

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:1em auto;max-width:64em;padding:0 .8em;color:#111;line-height:1.4}
h1{font-size:1.5em;margin-bottom:.2em}
h2{font-size:1.2em;border-bottom:1px solid #888;margin-top:1.6em}
figure{margin:1em 0;break-inside:avoid}
figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.9em;color:#333;margin-top:.3em}
.legend span{display:inline-block;margin-right:1em;font-size:.85em}
.legend i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em}
.scroll{overflow-x:auto}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(19em,1fr));gap:0 1.2em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.85em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #bbb;padding:.15em .45em;text-align:right;white-space:nowrap}
th{background:#eee}
td.l,th.l{text-align:left;white-space:normal}
table.sortable th{cursor:pointer}
table.sortable th:after{content:' \\2195';color:#888}
td svg{vertical-align:middle}
.meta{color:#444;font-size:.9em}
button{font:inherit;padding:.2em .8em;margin:.2em .3em .2em 0}
@media print{body{max-width:none}button,.noprint{display:none}h2{break-after:avoid}tr{break-inside:avoid}}
";

/// Sorts a `table.sortable` by the clicked column: numbers (a cell's `data-v` or its text) as
/// numbers, the rest as text; a second click reverses.
const SORT_SCRIPT: &str = "\
document.querySelectorAll('table.sortable').forEach(function(t){
 t.querySelectorAll('th').forEach(function(th,i){
  th.addEventListener('click',function(){
   var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),up=th.dataset.dir!=='up';
   th.dataset.dir=up?'up':'down';
   function key(r){var c=r.cells[i],v=c.dataset.v!==undefined?c.dataset.v:c.textContent,n=parseFloat(v);return isNaN(n)?v:n;}
   rows.sort(function(a,c){var x=key(a),y=key(c);var d=(typeof x==='number'&&typeof y==='number')?x-y:String(x).localeCompare(String(y));return up?d:-d;});
   rows.forEach(function(r){b.appendChild(r);});
  });
 });
});
";

/// An HTML page under construction.
pub struct Page {
    title: String,
    body: String,
    scripts: Vec<&'static str>,
}

impl Page {
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: format!("<h1>{}</h1>\n", esc(title)),
            scripts: Vec::new(),
        }
    }

    /// A section heading, with an anchor `id`.
    pub fn heading(&mut self, id: &str, text: &str) {
        let _ = writeln!(self.body, "<h2 id=\"{}\">{}</h2>", esc(id), esc(text));
    }

    /// A paragraph of plain text.
    pub fn para(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p class=\"meta\">{}</p>", esc(text));
    }

    /// Markup made by the caller (already escaped).
    pub fn raw(&mut self, html: &str) {
        self.body.push_str(html);
        self.body.push('\n');
    }

    /// A chart with its caption and, when given, a legend of colours.
    pub fn figure(&mut self, chart: &Chart, caption: &str, legend: &[(String, RGBColor)]) {
        self.body.push_str(&figure(chart, caption, legend));
    }

    /// Adds a script once (the sorter, a switch): scripts run after the body is built.
    pub fn script(&mut self, js: &'static str) {
        if !self.scripts.contains(&js) {
            self.scripts.push(js);
        }
    }

    /// A table the reader can sort by any column; `rows` are cells already escaped.
    pub fn sortable_table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        self.script(SORT_SCRIPT);
        let mut t = String::from("<div class=\"scroll\"><table class=\"sortable\"><thead><tr>");
        for (i, h) in header.iter().enumerate() {
            let class = if i == 0 { " class=\"l\"" } else { "" };
            let _ = write!(t, "<th{class}>{}</th>", esc(h));
        }
        t.push_str("</tr></thead><tbody>\n");
        for r in rows {
            t.push_str("<tr>");
            for c in r {
                t.push_str(c);
            }
            t.push_str("</tr>\n");
        }
        t.push_str("</tbody></table></div>");
        self.raw(&t);
    }

    /// The whole page.
    pub fn finish(self) -> String {
        let mut o = String::with_capacity(self.body.len() + 4096);
        o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        let _ = writeln!(o, "<title>{}</title>", esc(&self.title));
        let _ = writeln!(o, "<style>\n{CSS}</style>\n</head>\n<body>");
        o.push_str(&self.body);
        for s in &self.scripts {
            let _ = writeln!(o, "<script>\n{s}</script>");
        }
        o.push_str("</body>\n</html>\n");
        o
    }
}

/// A chart as an HTML figure: `data-marks` says how many marks it holds.
pub fn figure(chart: &Chart, caption: &str, legend: &[(String, RGBColor)]) -> String {
    let mut o = format!(
        "<figure class=\"chart\" data-marks=\"{}\">\n{}",
        chart.marks, chart.svg
    );
    if !legend.is_empty() {
        o.push_str("<div class=\"legend\">");
        for (name, c) in legend {
            let _ = write!(
                o,
                "<span><i style=\"background:{}\"></i>{}</span>",
                hex(*c),
                esc(name)
            );
        }
        o.push_str("</div>");
    }
    let _ = writeln!(o, "<figcaption>{}</figcaption>\n</figure>", esc(caption));
    o
}

/// A table cell: text `td`, left-aligned when `left`, with an optional sort key.
pub fn cell(text: &str, left: bool, key: Option<f64>) -> String {
    let class = if left { " class=\"l\"" } else { "" };
    match key {
        Some(k) => format!("<td{class} data-v=\"{k}\">{}</td>", esc(text)),
        None => format!("<td{class}>{}</td>", esc(text)),
    }
}

/// A share as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Thousands separated by commas, for battle counts in captions.
pub fn count(n: u64) -> String {
    crate::report::thousands(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_self_contained_and_escapes_its_text() {
        let mut p = Page::new("Marston <Moor> & co");
        p.para("a \"quote\"");
        p.sortable_table(
            &["unit", "p"],
            &[vec![
                cell("Foot <1>", true, None),
                cell("5%", false, Some(0.05)),
            ]],
        );
        let html = p.finish();
        assert!(html.contains("<h1>Marston &lt;Moor&gt; &amp; co</h1>"));
        assert!(html.contains("a &quot;quote&quot;"));
        assert!(html.contains("<td data-v=\"0.05\">5%</td>"));
        assert_eq!(html.matches("<script>").count(), 1);
        for outside in ["http://", "https://", "src=", "@import", "url("] {
            assert!(!html.contains(outside), "{outside}");
        }
    }
}

//! An SVG map of one battle: the ground, both armies at deployment (faint) and at the end,
//! and the routes of routs (dashed) and pursuits (dotted).

use std::fmt::Write as _;

use crate::army::{Side, Unit};
use crate::battlefield::AreaKind;
use crate::battlefield::Ground;
use crate::battlefield::geometry::Rect;
use crate::charts::page::esc;
use crate::events::Event;
use crate::narrative::Recorder;
use crate::setup::BattleSetup;

/// Pixels per inch of table.
pub const PX: f64 = 12.0;

/// The side's colour, as every chart draws it.
fn colour(side: Side) -> String {
    crate::charts::hex(crate::charts::side_colour(side))
}

fn unit_rect(out: &mut String, setup: &BattleSetup, u: &Unit, depth_y: f64, opacity: f64) {
    let r = Rect {
        centre: u.pos,
        facing: u.facing,
        frontage: u.frontage,
        depth: u.depth,
    };
    let pts: Vec<String> = r
        .corners()
        .iter()
        .map(|c| format!("{:.1},{:.1}", c.x * PX, (depth_y - c.y) * PX))
        .collect();
    let _ = writeln!(
        out,
        r#"<polygon points="{}" fill="{}" fill-opacity="{opacity}" stroke="black" stroke-width="0.5"><title>{}</title></polygon>"#,
        pts.join(" "),
        colour(u.side),
        esc(setup.unit_name(u.id))
    );
}

/// The ground: its areas, obstacles and camps.
fn draw_ground(out: &mut String, g: &Ground) {
    let h = g.depth;
    for a in &g.areas {
        let fill = match a.kind {
            AreaKind::Rough => "#c9b98b",
            AreaKind::Woods => "#5f8a4a",
            AreaKind::Hill => "#d8cfa0",
            AreaKind::Road => "#b0a080",
            AreaKind::Bog => "#7a9a8a",
        };
        let pts: Vec<String> = a
            .points
            .iter()
            .map(|p| format!("{:.1},{:.1}", p.x * PX, (h - p.y) * PX))
            .collect();
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{fill}" fill-opacity="0.7"><title>{:?}</title></polygon>"#,
            pts.join(" "),
            a.kind
        );
    }
    for o in &g.obstacles {
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#2d5016" stroke-width="3"><title>{:?}</title></line>"##,
            o.a.x * PX,
            (h - o.a.y) * PX,
            o.b.x * PX,
            (h - o.b.y) * PX,
            o.kind
        );
    }
    for c in &g.camps {
        let _ = writeln!(
            out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-dasharray="4 2"><title>{} camp</title></circle>"#,
            c.pos.x * PX,
            (h - c.pos.y) * PX,
            c.radius * PX,
            colour(c.side),
            c.side
        );
    }
}

/// The routes of routs (dashed) and pursuits (dotted): moves made while routing or pursuing.
fn draw_routes(out: &mut String, setup: &BattleSetup, rec: &Recorder) {
    let h = setup.ground.depth;
    let mut routing = vec![false; setup.units.len()];
    let mut pursuing = vec![false; setup.units.len()];
    for &(_, e) in &rec.events {
        match e {
            Event::Rout { unit, .. } => routing[usize::from(unit)] = true,
            Event::PursuitStarted { unit, .. } | Event::PursuitContinued { unit, .. } => {
                pursuing[usize::from(unit)] = true
            }
            Event::PursuitHalted { unit, .. } | Event::PursuitLost { unit, .. } => {
                pursuing[usize::from(unit)] = false
            }
            Event::TurnStarted { .. } => routing.iter_mut().for_each(|r| *r = false),
            Event::Moved { unit, from, to, .. }
                if routing[usize::from(unit)] || pursuing[usize::from(unit)] =>
            {
                let dash = if routing[usize::from(unit)] {
                    "6 3"
                } else {
                    "2 3"
                };
                let side = setup.units[usize::from(unit)].side;
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="{dash}"/>"#,
                    from.0 * PX,
                    (h - from.1) * PX,
                    to.0 * PX,
                    (h - to.1) * PX,
                    colour(side)
                );
                if routing[usize::from(unit)] {
                    routing[usize::from(unit)] = false;
                }
            }
            _ => {}
        }
    }
}

/// Draws the map. `start` and `end` are the units at deployment and at the end.
pub fn svg(setup: &BattleSetup, start: &[Unit], end: &[Unit], rec: &Recorder) -> String {
    let g = &setup.ground;
    let (w, h) = (g.width, g.depth);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.0} {:.0}">"#,
        w * PX,
        h * PX,
        w * PX,
        h * PX
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#e8efd0"/>"##
    );
    draw_ground(&mut out, g);
    draw_routes(&mut out, setup, rec);
    for u in start {
        unit_rect(&mut out, setup, u, h, 0.25);
    }
    for u in end.iter().filter(|u| u.is_active()) {
        unit_rect(&mut out, setup, u, h, 0.9);
    }
    let _ = writeln!(
        out,
        r#"<text x="6" y="16" font-family="sans-serif" font-size="13">{} (Parliament orange, Royalists blue; faint = deployment)</text>"#,
        esc(&setup.name)
    );
    out.push_str("</svg>\n");
    out
}

/// Sans-serif faces for the PNG's caption, the first installed one used.
const SANS: [&str; 5] = [
    "Arial",
    "Helvetica",
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
];

/// How many pixels of PNG per pixel of the SVG: twice, so that unit outlines stay sharp.
const PNG_SCALE: f32 = 2.0;

/// The map as a PNG image: the SVG drawn by the resvg rasteriser (the caption in a system
/// sans-serif font, when one is installed).
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    let fonts = opt.fontdb_mut();
    fonts.load_system_fonts();
    // The generic sans-serif defaults to Arial; take a common free face when that is missing.
    if let Some(f) = SANS.iter().find(|f| {
        fonts
            .faces()
            .any(|x| x.families.iter().any(|(n, _)| n == *f))
    }) {
        fonts.set_sans_serif_family(*f);
    }
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the map's SVG: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(PNG_SCALE)
        .ok_or("the map is empty")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the map is too large to draw")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("encoding the PNG: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn names_are_escaped_once_in_titles_and_caption() {
        let mut setup = Scenario::open("small_action", &[])
            .unwrap()
            .setup()
            .unwrap();
        setup.names.units[0] = "Lord <Byron> & Co".into();
        setup.name = "Skirmish <at> Cropredy & Co".into();
        let units = setup.units.clone();
        let svg = svg(&setup, &units, &units, &Recorder::default());
        assert!(
            svg.contains("<title>Lord &lt;Byron&gt; &amp; Co</title>"),
            "{svg}"
        );
        assert!(
            svg.contains("Skirmish &lt;at&gt; Cropredy &amp; Co"),
            "{svg}"
        );
        assert!(!svg.contains("&amp;lt;"), "escaped twice: {svg}");
    }
}

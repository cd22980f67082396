//! `replay --map`: the table drawn as SVG or, by the file's extension, as a PNG image.

use std::process::Command;

use ecw_sim::army::Side;
use ecw_sim::charts::{hex, side_colour};
use resvg::tiny_skia::Pixmap;

fn replay_map(file: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ecw-sim"))
        .args(["replay", "small_action", "--battle", "2", "--map"])
        .arg(file)
        .output()
        .unwrap()
}

/// The width and height an SVG declares.
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width"), attr("height"))
}

#[test]
fn the_map_is_drawn_as_png_by_its_extension() {
    let dir = std::env::temp_dir().join(format!("ecw-map-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (svg_path, png_path) = (dir.join("m.svg"), dir.join("m.PNG"));
    assert!(replay_map(&svg_path).status.success());
    let o = replay_map(&png_path);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let png = std::fs::read(&png_path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let image = Pixmap::decode_png(&png).unwrap();
    let (w, h) = svg_size(&svg);
    assert_eq!((image.width(), image.height()), (2 * w, 2 * h));
    // The same battle as the SVG: both armies' colours (the charts' side colours) are on it,
    // drawn at full strength for the units standing at the end.
    let has = |c: plotters::style::RGBColor| {
        image.pixels().iter().any(|p| {
            let d = p.demultiply();
            (d.red(), d.green(), d.blue()) == (c.0, c.1, c.2)
        })
    };
    let (p, r) = (side_colour(Side::Parliament), side_colour(Side::Royalist));
    assert!(svg.contains(&hex(p)) && svg.contains(&hex(r)));
    assert!(has(p) || has(r), "no unit drawn");
    // Anything else is refused, naming both formats, and nothing is written.
    let gif = dir.join("m.gif");
    let o = replay_map(&gif);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("FILE.svg or FILE.png"), "{e}");
    assert!(!gif.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

//! `replay --map`: the table drawn as SVG or, by the file's extension, as a PNG image.

use std::process::Command;

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
    // The same battle as the SVG: both armies' colours are on it (Parliament #b5651d, the
    // Royalists #1f4e9c, drawn at full strength for the units standing at the end).
    let has = |r: u8, g: u8, b: u8| {
        image.pixels().iter().any(|p| {
            let c = p.demultiply();
            (c.red(), c.green(), c.blue()) == (r, g, b)
        })
    };
    assert!(svg.contains("#b5651d") && svg.contains("#1f4e9c"));
    assert!(
        has(0xb5, 0x65, 0x1d) || has(0x1f, 0x4e, 0x9c),
        "no unit drawn"
    );
    // Anything else is refused, naming both formats, and nothing is written.
    let gif = dir.join("m.gif");
    let o = replay_map(&gif);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("FILE.svg or FILE.png"), "{e}");
    assert!(!gif.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

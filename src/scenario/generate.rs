//! Generated battles of any size on the same ground density, for measuring how the engine's
//! cost grows with the number of units (`ecw-sim bench --scale`).
//!
//! Each army is the other's mirror image (the same commands, units, CVs, commanders and
//! doctrines; every position turned half round the table's centre), so neither side is
//! favoured. An army is a block of commands of six units (three abreast, three more 6" behind)
//! in three rows; across the front, sectors of three columns of commands, horse, foot, horse;
//! a larger battle is a wider block, more sectors, on a wider table. Every command stands on the same ground (14" by 12") and the armies start
//! 24" apart, so the units per square inch stay the same from 50 units to thousands, and a
//! battle of twice the units is a battle of twice the front.
//!
//! The battle is written as scenario text and read like any scenario file, so it passes every
//! check a user's file does.

use std::fmt::Write;
use std::path::Path;

use super::Scenario;
use crate::error::{Error, Result};

/// Units in a full command: three abreast and three behind.
const COMMAND_UNITS: usize = 6;
/// A command's ground: its width (three 3" units 4" apart, and a gap) and depth.
const COMMAND_WIDTH: f64 = 14.0;
const COMMAND_DEPTH: f64 = 12.0;
/// The spacing of a command's units along its lines, and of its second line behind its first.
const UNIT_SPACING: f64 = 4.0;
const SECOND_LINE: f64 = 6.0;
/// Rows of commands in an army, at most.
const ROWS: usize = 3;
/// The gap between the armies' first lines, and the margin between an army and a table edge.
const GAP: f64 = 24.0;
const MARGIN: f64 = 6.0;
/// The fewest units a generated battle has: a command a side.
pub const MIN_UNITS: usize = 2;

/// How an army of `n` units is laid out: its commands' sizes, and the columns and rows of
/// commands they stand in.
struct Layout {
    sizes: Vec<usize>,
    cols: usize,
    rows: usize,
}

impl Layout {
    fn of(n: usize) -> Layout {
        let commands = n.div_ceil(COMMAND_UNITS);
        // Sizes as even as can be (each 5 or 6 when there are enough units).
        let sizes = (0..commands)
            .map(|i| n * (i + 1) / commands - n * i / commands)
            .collect();
        let cols = commands.div_ceil(ROWS).max(ROWS.min(commands));
        Layout {
            sizes,
            cols,
            rows: commands.div_ceil(cols),
        }
    }

    /// Whether the command in column `col` is horse: the front is a row of sectors of three
    /// columns, horse, foot, horse, so that a wider battle is more of the same small fights
    /// (and lasts about as long), not a longer line of foot between the same two wings.
    fn is_horse(&self, col: usize) -> bool {
        self.cols >= 3 && col % 3 != 1
    }

    fn width(&self) -> f64 {
        self.cols as f64 * COMMAND_WIDTH + 2.0 * MARGIN
    }

    /// The y of Parliament's first line: its rows stand behind it, the rearmost a margin from
    /// its edge.
    fn front(&self) -> f64 {
        MARGIN + SECOND_LINE + (self.rows - 1) as f64 * COMMAND_DEPTH
    }

    fn depth(&self) -> f64 {
        2.0 * self.front() + GAP
    }
}

/// The scenario text of a generated battle of `units` units (an even number, half a side).
pub fn scenario_text(units: usize) -> Result<String> {
    if units < MIN_UNITS || !units.is_multiple_of(2) || units > super::build::MAX_UNITS {
        return Err(Error::Usage(format!(
            "a generated battle needs an even number of units from {MIN_UNITS} to {} (asked for {units})",
            super::build::MAX_UNITS
        )));
    }
    let layout = Layout::of(units / 2);
    let (w, d) = (layout.width(), layout.depth());
    let mut t = String::new();
    let _ = writeln!(t, "name = \"Generated battle of {units} units\"");
    let _ = writeln!(
        t,
        "description = \"Two mirror-image armies of {} units in commands of up to six, sectors of horse, foot, horse.\"",
        units / 2
    );
    let _ = writeln!(t, "table = {{ width = {w:?}, depth = {d:?} }}");
    for side in ["parliament", "royalist"] {
        write_army(&mut t, side, &layout, w, d);
    }
    Ok(t)
}

/// One army's commands, Parliament's as laid out and the Royalists' turned half round.
fn write_army(t: &mut String, side: &str, layout: &Layout, w: f64, d: f64) {
    let royalist = side == "royalist";
    // Parliament faces +y; the Royalist army is the same turned about the table's centre.
    let at = |x: f64, y: f64| if royalist { (w - x, d - y) } else { (x, y) };
    let _ = writeln!(
        t,
        "\n[{side}]\ncaptain_general = \"average\"\ndoctrine = \"cautious\""
    );
    for (i, &size) in layout.sizes.iter().enumerate() {
        let (row, col) = (i / layout.cols, i % layout.cols);
        let horse = layout.is_horse(col);
        let (kind, doctrine, unit_type, men) = if horse {
            ("horse", "cromwell", "trotters", 400)
        } else {
            ("foot", "hold_the_line", "foot", 800)
        };
        let _ = writeln!(
            t,
            "\n[{side}.commands.c{i}]\nkind = \"{kind}\"\ncommander = \"average\"\ndoctrine = \"{doctrine}\""
        );
        // The first line takes the odd unit; both lines share its frontage.
        let first = size.div_ceil(2);
        let x0 = MARGIN + col as f64 * COMMAND_WIDTH + 1.0;
        let x1 = x0 + first as f64 * UNIT_SPACING;
        let y = layout.front() - row as f64 * COMMAND_DEPTH;
        let ((ax, ay), (bx, by)) = (at(x0, y), at(x1, y));
        let unit = |k: usize| {
            format!("{{ name = \"{kind} {i}.{k}\", type = \"{unit_type}\", men = {men}, cv = 4 }}")
        };
        let line = |ks: std::ops::Range<usize>| ks.map(unit).collect::<Vec<_>>().join(", ");
        let second = if size > first {
            format!(
                ", second_line = {{ behind = {SECOND_LINE:?}, units = [{}] }}",
                line(first..size)
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            t,
            "lines = [ {{ from = [{ax:?}, {ay:?}], to = [{bx:?}, {by:?}], units = [{}]{second} }} ]",
            line(0..first)
        );
    }
}

/// A generated battle of `units` units, read and checked as a scenario.
pub fn generated(units: usize) -> Result<Scenario> {
    let text = scenario_text(units)?;
    Scenario::parse(
        Path::new(&format!("generated_{units}.toml")),
        text,
        &[],
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::Side;

    /// Every size the scaling bench fights (and some awkward ones) builds, with the units
    /// asked for, half a side, none off the table or overlapping (the scenario checks refuse
    /// both), and each Royalist unit the mirror image of its Parliament counterpart.
    #[test]
    fn generated_battles_are_valid_and_mirrored() {
        for n in [2, 4, 14, 50, 100, 200, 338, 500, 1000, 2000] {
            let setup = generated(n)
                .and_then(|s| s.setup())
                .unwrap_or_else(|e| panic!("{n} units: {e}"));
            assert_eq!(setup.units.len(), n, "{n} units");
            let (p, r): (Vec<_>, Vec<_>) =
                setup.units.iter().partition(|u| u.side == Side::Parliament);
            assert_eq!(p.len(), r.len());
            let (w, d) = (setup.ground.width, setup.ground.depth);
            for (a, b) in p.iter().zip(&r) {
                assert_eq!((a.kind, a.cv, a.frontage), (b.kind, b.cv, b.frontage));
                assert!((a.pos.x + b.pos.x - w).abs() < 1e-9, "{n}: x mirrored");
                assert!((a.pos.y + b.pos.y - d).abs() < 1e-9, "{n}: y mirrored");
            }
            assert!(p.iter().any(|u| u.kind.is_foot()), "{n}: foot");
            if n >= 100 {
                assert!(p.iter().any(|u| u.is_cavalry()), "{n}: horse");
            }
        }
    }

    /// The same ground density at every size: the table's area per unit stays within a narrow
    /// band from 200 units to 2,000 (smaller battles have more margin about them).
    #[test]
    fn ground_density_is_the_same_at_every_size() {
        let area = |n: usize| {
            let l = Layout::of(n / 2);
            l.width() * l.depth() / n as f64
        };
        let (lo, hi) = [200, 338, 500, 1000, 2000]
            .map(area)
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(
            hi / lo < 1.25,
            "square inches per unit from {lo:.1} to {hi:.1}"
        );
    }

    #[test]
    fn odd_or_tiny_sizes_are_refused() {
        for n in [0, 1, 3, 2001, 100_000] {
            assert!(matches!(scenario_text(n), Err(Error::Usage(_))), "{n}");
        }
    }
}

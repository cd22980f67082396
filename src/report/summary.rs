//! The short plain-text summary printed after a run: win rates with their intervals, the units
//! most often destroyed (and the commands a ruleset's own happening most often befell, such as
//! a Black Powder brigade's break), pursuit and commander-casualty headlines, where the files
//! are.

use std::fmt::Write;
use std::path::Path;

use super::manifest::{Manifest, Timing};
use crate::army::Side;
use crate::events::{GeneralResult, plural};
use crate::stats::{Estimate, Layout, Report, Tally, general_result_index, wilson};

fn pct(e: Option<Estimate>) -> String {
    match e {
        Some(e) => format!(
            "{:.1}% ({:.1}-{:.1}%)",
            100.0 * e.estimate,
            100.0 * e.low,
            100.0 * e.high
        ),
        None => "n/a".into(),
    }
}

fn share(k: u64, n: u64) -> String {
    if n == 0 {
        "n/a".into()
    } else {
        format!("{:.1}%", 100.0 * k as f64 / n as f64)
    }
}

/// Whole numbers with thousands separators: 12,345.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn title(side: Side) -> &'static str {
    match side {
        Side::Parliament => "Parliament",
        Side::Royalist => "Royalist",
    }
}

/// The three that something befell in most of `n` battles (`counts`, by index; the first
/// listed among equals), as "name (side) share; ...": none when it befell none.
fn most_often<'a>(
    counts: impl Iterator<Item = u64>,
    name: impl Fn(usize) -> (&'a String, Side),
    n: u64,
) -> Option<String> {
    let mut ranked: Vec<(u64, usize)> = counts
        .enumerate()
        .map(|(i, c)| (c, i))
        .filter(|(c, _)| *c > 0)
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let top: Vec<String> = ranked
        .iter()
        .take(3)
        .map(|&(c, i)| {
            let (name, side) = name(i);
            format!("{name} ({side}) {}", share(c, n))
        })
        .collect();
    (!top.is_empty()).then(|| top.join("; "))
}

/// The summary of a finished run whose files are in `dir`.
pub fn summary(layout: &Layout, t: &Tally, manifest: &Manifest, dir: &Path) -> String {
    let mut s = String::new();
    headline(&mut s, layout, t, manifest);
    most_often_lost(&mut s, layout, t);
    horse(&mut s, layout, t);
    generals_hit(&mut s, layout, t);
    let _ = writeln!(
        s,
        "  Results in {}: {}",
        dir.display(),
        manifest.files.join(" ")
    );
    s
}

/// The run (battles, seed, time), who wins, and how long the battles last.
fn headline(s: &mut String, layout: &Layout, t: &Tally, manifest: &Manifest) {
    let n = t.battles;
    let Timing {
        wall_time_s,
        battles_per_second,
        threads,
        shards,
        ..
    } = manifest.timing;
    let how = if shards > 1 {
        format!("{shards} shards merged, {wall_time_s:.1} s of work")
    } else {
        format!(
            "{wall_time_s:.1} s on {threads} {}",
            plural(threads as u64, "thread", "threads")
        )
    };
    let _ = writeln!(
        s,
        "{}: {} battles, seed {} ({how}, {} battles/s)",
        layout.scenario,
        thousands(n),
        manifest.run.seed,
        thousands(battles_per_second.round() as u64),
    );
    let _ = writeln!(
        s,
        "  Parliament wins {}, Royalists win {}, draws {}  [95% intervals]",
        pct(wilson(t.wins[0], n)),
        pct(wilson(t.wins[1], n)),
        pct(wilson(t.draws, n)),
    );
    if let (Some(mid), Some(lo), Some(hi)) = (
        t.turns.quantile(50),
        t.turns.quantile(5),
        t.turns.quantile(95),
    ) {
        let _ = write!(
            s,
            "  Battles last {mid} turns at the median (90% within {lo}-{hi})"
        );
        match t.margin.quantile(50) {
            Some(m) => {
                let _ = writeln!(
                    s,
                    "; the loser's {} loss exceeds the winner's by {m} at the median",
                    crate::stats::currency_label(&layout.currency)
                );
            }
            None => s.push('\n'),
        }
    }
}

/// The units most often destroyed, and the commands a ruleset's happening (a Black Powder
/// brigade's break) befalls most often.
fn most_often_lost(s: &mut String, layout: &Layout, t: &Tally) {
    let n = t.battles;
    let destroyed = t.units.iter().map(|e| e.destroyed);
    let unit = |i: usize| (&layout.units[i].name, layout.units[i].side);
    if let Some(top) = most_often(destroyed, unit, n) {
        let _ = writeln!(s, "  Most often destroyed: {top}");
    }
    for (k, m) in layout.measures.iter().enumerate() {
        if m.report != Report::CommandHappened {
            continue;
        }
        let happened = t.commands.iter().map(|e| e.own[k].nonzero());
        let command = |i: usize| (&layout.commands[i].name, layout.commands[i].side);
        if let Some(top) = most_often(happened, command, n) {
            let _ = writeln!(s, "  Most often {}: {top}", m.name.replace('_', " "));
        }
    }
}

/// Each side's horse: melees won, pursuits, pursuers lost, camps taken.
fn horse(s: &mut String, layout: &Layout, t: &Tally) {
    let n = t.battles;
    for side in Side::BOTH {
        if !layout.units.iter().any(|u| u.cavalry && u.side == side) {
            continue;
        }
        let e = &t.sides[side.index()];
        let _ = writeln!(
            s,
            "  {} horse: won a melee in {} of battles, then pursued in {}; a pursuer lost in {}; camp taken in {}",
            title(side),
            share(e.melee_won, n),
            share(e.pursued_after_win, e.melee_won),
            share(e.lost_in_pursuit, n),
            share(e.camp_taken, n),
        );
    }
}

/// The three generals most often hit, and the one most likely killed or mortally wounded.
fn generals_hit(s: &mut String, layout: &Layout, t: &Tally) {
    let n = t.battles;
    let mut hit: Vec<(u64, usize)> = t
        .commanders
        .iter()
        .enumerate()
        .map(|(i, c)| (c.casualty, i))
        .filter(|(c, _)| *c > 0)
        .collect();
    hit.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if hit.is_empty() {
        return;
    }
    // Battles in which he was killed or mortally wounded: the two together (a general so
    // struck leaves the battle, so they never fall in one battle).
    let killed = |i: usize| {
        let r = &t.commanders[i].results;
        r[general_result_index(GeneralResult::HorribleDeath)]
            + r[general_result_index(GeneralResult::MortalWound)]
    };
    let top: Vec<String> = hit
        .iter()
        .take(3)
        .map(|&(c, i)| {
            format!(
                "{} {} (lost to the battle {}, captured {})",
                layout.commanders[i].name,
                share(c, n),
                share(t.commanders[i].lost, n),
                share(t.commanders[i].captured, n),
            )
        })
        .collect();
    let _ = writeln!(s, "  Generals most often hit: {}", top.join("; "));
    let deadliest = hit
        .iter()
        .map(|&(_, i)| (killed(i), i))
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    if let Some((k, i)) = deadliest.filter(|(k, _)| *k > 0) {
        let _ = writeln!(
            s,
            "  Most likely killed or mortally wounded: {} {}",
            layout.commanders[i].name,
            share(k, n)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}

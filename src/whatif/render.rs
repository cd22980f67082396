//! The what-if tools' files (`compare.csv`, `sweep.csv`, `balance.csv`) and printed summaries.
//! Numbers are written with six decimals from whole-number sums, so the bytes do not depend on
//! the thread count.

use std::fmt::Write;

use super::mirror::{BalanceCounts, Row, arm_name};
use super::paired::{ContestSums, Measure, PairedEstimate};
use crate::army::Arm;
use crate::report::{num, thousands};

/// The columns of `compare.csv`.
pub const COMPARE_HEADER: [&str; 10] = [
    "variant",
    "measure",
    "baseline",
    "variant_value",
    "diff",
    "ci95_low",
    "ci95_high",
    "unpaired_halfwidth",
    "paired_halfwidth",
    "narrowing",
];

/// The columns of `balance.csv`.
pub const BALANCE_HEADER: [&str; 15] = [
    "side_a",
    "year_a",
    "side_b",
    "year_b",
    "arms",
    "battles",
    "a_wins",
    "b_wins",
    "draws",
    "p_a_win_decisive",
    "ci95_low",
    "ci95_high",
    "p_draw",
    "differs_from_even",
    "verdict",
];

/// The columns of `sweep.csv` after the parameters' own.
pub const SWEEP_COLUMNS: [&str; 8] = [
    "measure",
    "n",
    "estimate",
    "ci95_low",
    "ci95_high",
    "diff_vs_first",
    "diff_ci95_low",
    "diff_ci95_high",
];

fn writer() -> csv::Writer<Vec<u8>> {
    csv::Writer::from_writer(Vec::new())
}

fn finish(w: csv::Writer<Vec<u8>>) -> Vec<u8> {
    w.into_inner().expect("writing to memory")
}

/// `narrowing`: a ratio, `inf` when only the paired interval is 0, empty when both are.
fn narrowing_text(p: &PairedEstimate) -> String {
    match p.narrowing() {
        Some(x) if x.is_infinite() => "inf".into(),
        Some(x) => num(x),
        None => String::new(),
    }
}

/// One row per variant (versions 1.. of `sums`, named by `names[1..]`) and measure.
pub fn compare_csv(names: &[String], measures: &[Measure], sums: &ContestSums) -> Vec<u8> {
    let mut w = writer();
    w.write_record(COMPARE_HEADER).expect("writing to memory");
    for (k, name) in names.iter().enumerate().skip(1) {
        for (m, measure) in measures.iter().enumerate() {
            let Some(p) = sums.paired(k, m) else {
                continue;
            };
            w.write_record([
                name.clone(),
                measure.name(),
                num(p.baseline),
                num(p.variant),
                num(p.diff),
                num(p.low),
                num(p.high),
                num(p.unpaired_half),
                num(p.paired_half),
                narrowing_text(&p),
            ])
            .expect("writing to memory");
        }
    }
    finish(w)
}

/// One row per grid point (version) and measure: the point's parameter values, the estimate
/// with its interval (Wilson's for a proportion), and its paired difference from the first
/// point.
pub fn sweep_csv(
    paths: &[String],
    points: &[Vec<String>],
    measures: &[Measure],
    sums: &ContestSums,
) -> Vec<u8> {
    let mut w = writer();
    let header: Vec<&str> = paths
        .iter()
        .map(String::as_str)
        .chain(SWEEP_COLUMNS)
        .collect();
    w.write_record(&header).expect("writing to memory");
    for (k, values) in points.iter().enumerate() {
        for (m, measure) in measures.iter().enumerate() {
            let own = &sums.versions[k][m];
            let (Some(e), Some(p)) = (own.estimate(measure.is_proportion()), sums.paired(k, m))
            else {
                continue;
            };
            let mut row = values.clone();
            row.extend([
                measure.name(),
                own.n.to_string(),
                num(e.estimate),
                num(e.low),
                num(e.high),
                num(p.diff),
                num(p.low),
                num(p.high),
            ]);
            w.write_record(&row).expect("writing to memory");
        }
    }
    finish(w)
}

/// The arms as the CSV names them: `foot+horse`.
pub fn arms_text(arms: &[Arm]) -> String {
    arms.iter()
        .map(|a| arm_name(*a))
        .collect::<Vec<_>>()
        .join("+")
}

/// One row per pair of rows.
pub fn balance_csv(arms: &[Arm], results: &[(Row, Row, BalanceCounts)]) -> Vec<u8> {
    let mut w = writer();
    w.write_record(BALANCE_HEADER).expect("writing to memory");
    for (a, b, c) in results {
        let e = c.a_share();
        let v = c.verdict();
        w.write_record([
            a.side.clone(),
            a.year.to_string(),
            b.side.clone(),
            b.year.to_string(),
            arms_text(arms),
            c.battles.to_string(),
            c.a_wins.to_string(),
            c.b_wins.to_string(),
            c.draws.to_string(),
            e.map(|e| num(e.estimate)).unwrap_or_default(),
            e.map(|e| num(e.low)).unwrap_or_default(),
            e.map(|e| num(e.high)).unwrap_or_default(),
            num(c.p_draw()),
            (v != super::mirror::Verdict::NoDifference).to_string(),
            v.key().to_string(),
        ])
        .expect("writing to memory");
    }
    finish(w)
}

/// A measure's figure for the terminal: percent for a proportion, else two decimals.
fn figure(measure: &Measure, x: f64, signed: bool) -> String {
    match (measure.is_proportion(), signed) {
        (true, false) => format!("{:.1}%", 100.0 * x),
        (true, true) => format!("{:+.2}%", 100.0 * x),
        (false, false) => format!("{x:.2}"),
        (false, true) => format!("{x:+.3}"),
    }
}

/// Why a version can be the same as the first in every battle: most often a change the battles
/// never read (a ruleset that keeps no such value).
const UNREAD: &str =
    "nothing it changes is read by these battles, or nothing read changes what they measure";

/// The printed comparison: per variant, each measure beside the baseline's with the paired
/// difference, its 95% interval (`*` when it leaves out 0) and how much narrower it is than
/// an unpaired interval.
pub fn compare_summary(
    names: &[String],
    descriptions: &[String],
    measures: &[Measure],
    sums: &ContestSums,
) -> String {
    let mut s = String::new();
    let width = measures
        .iter()
        .map(|m| m.name().len())
        .max()
        .unwrap_or(8)
        .max(8);
    for k in 1..names.len() {
        let _ = writeln!(s, "  {}: {}", names[k], descriptions[k]);
        // A battle whose result changed flips two of the three outcome indicators.
        let flips: i128 = measures
            .iter()
            .zip(&sums.diffs[k])
            .filter(|(m, _)| m.is_outcome())
            .map(|(_, d)| d.sum_sq)
            .sum();
        let _ = writeln!(
            s,
            "    the result (who won, or a draw) changed in {} of {} battles",
            thousands((flips / 2) as u64),
            thousands(sums.battles())
        );
        if sums.same_as_first(k) {
            let _ = writeln!(
                s,
                "    the same as the baseline in every battle and every measure: {UNREAD}"
            );
        }
        let _ = writeln!(
            s,
            "    {:<width$} {:>9} {:>9} {:>9}   {:<24} {:>9}",
            "measure", "baseline", "variant", "diff", "95% interval (paired)", "narrower"
        );
        for (m, measure) in measures.iter().enumerate() {
            let Some(p) = sums.paired(k, m) else {
                continue;
            };
            let interval = format!(
                "{} to {}{}",
                figure(measure, p.low, true),
                figure(measure, p.high, true),
                if p.significant() { " *" } else { "" }
            );
            let narrower = match p.narrowing() {
                Some(x) if x.is_infinite() => "exact".to_string(),
                Some(x) => format!("{x:.1}x"),
                None => "-".to_string(),
            };
            let _ = writeln!(
                s,
                "    {:<width$} {:>9} {:>9} {:>9}   {:<24} {:>9}",
                measure.name(),
                figure(measure, p.baseline, false),
                figure(measure, p.variant, false),
                figure(measure, p.diff, true),
                interval,
                narrower
            );
        }
    }
    s
}

/// The printed sweep: one line per grid point, its values and the outcome measures.
pub fn sweep_summary(
    paths: &[String],
    points: &[Vec<String>],
    measures: &[Measure],
    sums: &ContestSums,
) -> String {
    let mut s = String::new();
    let values = |k: usize| -> String {
        points[k]
            .iter()
            .zip(paths)
            .map(|(v, p)| format!("{p}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let width = (0..points.len())
        .map(|k| values(k).len())
        .max()
        .unwrap_or(0);
    for (k, _) in points.iter().enumerate() {
        let mut line = format!("  {:<width$}", values(k));
        for (m, measure) in measures.iter().enumerate() {
            let Some(e) = sums.versions[k][m].estimate(measure.is_proportion()) else {
                continue;
            };
            let short = match measure {
                Measure::ParliamentWin => "P win".to_string(),
                Measure::RoyalistWin => "R win".to_string(),
                Measure::Draw => "draw".to_string(),
                Measure::Turns => "turns".to_string(),
                Measure::Lost(side, c) => format!(
                    "{} {} lost",
                    &side.name()[..1].to_uppercase(),
                    crate::stats::currency_label(c)
                ),
                Measure::UnitLost(u, c) => format!("{u} {} lost", crate::stats::currency_label(c)),
                Measure::Own(o) => o.name(),
            };
            let mut text = format!("  {short} {}", figure(measure, e.estimate, false));
            if k > 0
                && let Some(p) = sums.paired(k, m)
                && p.significant()
            {
                text.push('*');
            }
            line.push_str(&text);
        }
        if k > 0 && sums.same_as_first(k) {
            line.push_str("  =");
        }
        let _ = writeln!(s, "{line}");
    }
    if (1..points.len()).any(|k| sums.same_as_first(k)) {
        let _ = writeln!(
            s,
            "  = the same as the first point in every battle and every measure: {UNREAD}"
        );
    }
    s
}

/// The printed balance: one line per pair of rows.
pub fn balance_summary(results: &[(Row, Row, BalanceCounts)]) -> String {
    let mut s = String::new();
    for (a, b, c) in results {
        let share = match c.a_share() {
            Some(e) => format!(
                "{:.1}% ({:.1}-{:.1}%)",
                100.0 * e.estimate,
                100.0 * e.low,
                100.0 * e.high
            ),
            None => "n/a (every battle drawn)".into(),
        };
        let verdict = match c.verdict() {
            super::mirror::Verdict::AStronger => format!("{a} is stronger"),
            super::mirror::Verdict::BStronger => format!("{b} is stronger"),
            super::mirror::Verdict::NoDifference => "no difference at the 5% level".into(),
        };
        let _ = writeln!(
            s,
            "  {a} v {b}: {a} wins {share} of decided battles ({} of {}), draws {:.1}%: {verdict}",
            c.a_wins,
            c.a_wins + c.b_wins,
            100.0 * c.p_draw()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_rows_are_tidy() {
        let measures = Measure::standard(&[], "cv");
        let mut sums = ContestSums::new(3, measures.len());
        // Parliament wins, 5 turns, CV lost (3, 9) in the baseline; the same in version 1;
        // version 2 draws every other battle and lasts a turn longer.
        for i in 0..4i64 {
            let base = vec![1, 0, 0, 5, 3, 9];
            let other = if i % 2 == 0 {
                vec![0, 0, 1, 6, 3, 9]
            } else {
                vec![1, 0, 0, 6, 3, 9]
            };
            sums.add(&[base.clone(), base, other]);
        }
        let names: Vec<String> = ["baseline", "same", "other"].map(String::from).to_vec();
        let text = String::from_utf8(compare_csv(&names, &measures, &sums)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], COMPARE_HEADER.join(","));
        assert_eq!(lines.len(), 1 + 2 * measures.len());
        assert_eq!(
            lines[1],
            "same,p_parliament_win,1.000000,1.000000,0.000000,0.000000,0.000000,0.000000,0.000000,"
        );
        // Turns: a turn longer in every battle, exactly.
        assert_eq!(
            lines[10],
            "other,battle_length_turns,5.000000,6.000000,1.000000,1.000000,1.000000,0.000000,0.000000,"
        );
        assert!(lines[7].starts_with("other,p_parliament_win,1.000000,0.500000,-0.500000,"));
        let summary = compare_summary(
            &names,
            &["".into(), "--set a=1".into(), "--set b=2".into()],
            &measures,
            &sums,
        );
        assert!(summary.contains("other: --set b=2"), "{summary}");
        assert!(summary.contains("changed in 0 of 4 battles"), "{summary}");
        assert!(summary.contains("changed in 2 of 4 battles"), "{summary}");
        // A variant the battles never felt is said to be one, and only that one.
        let same = "the same as the baseline in every battle and every measure";
        assert_eq!(summary.matches(same).count(), 1, "{summary}");
        let (first, second) = summary.split_once("other:").unwrap();
        assert!(first.contains(same) && !second.contains(same), "{summary}");
    }

    #[test]
    fn sweep_rows_carry_the_grid_values() {
        let measures = vec![Measure::Turns, Measure::Draw];
        let mut sums = ContestSums::new(2, 2);
        for t in [4, 6] {
            sums.add(&[vec![t, 0], vec![t + 2, 1]]);
        }
        let paths = vec!["turn_limit".to_string()];
        let points = vec![vec!["8".to_string()], vec!["12".to_string()]];
        let text = String::from_utf8(sweep_csv(&paths, &points, &measures, &sums)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "turn_limit,measure,n,estimate,ci95_low,ci95_high,diff_vs_first,diff_ci95_low,diff_ci95_high"
        );
        assert_eq!(lines.len(), 5);
        assert!(lines[3].starts_with("12,battle_length_turns,2,7.000000,"));
        assert!(lines[3].ends_with(",2.000000,2.000000,2.000000"));
        // A proportion takes Wilson's interval: 2 of 2 reaches 1 exactly.
        assert!(lines[4].starts_with("12,p_draw,2,1.000000,"));
        assert!(lines[4].contains(",1.000000,1.000000,"));
        let summary = sweep_summary(&paths, &points, &measures, &sums);
        assert!(summary.contains("turn_limit=12"), "{summary}");
        assert!(!summary.contains("  ="), "{summary}");
        // A point the battles never felt is marked, and said to be one.
        let mut same = ContestSums::new(2, 2);
        for t in [4, 6] {
            same.add(&[vec![t, 0], vec![t, 0]]);
        }
        let summary = sweep_summary(&paths, &points, &measures, &same);
        assert!(
            summary.lines().nth(1).unwrap().ends_with("  ="),
            "{summary}"
        );
        assert!(
            summary.contains("= the same as the first point in every battle"),
            "{summary}"
        );
    }
}

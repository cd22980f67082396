//! A ruleset's own measures (`measures.csv`) in the what-if tools: `compare` and `sweep` take
//! `--own MEASURE[:WHO]`, and each version's figure is the one `run` gives for the same battles
//! under the same changes; the paired difference is the variant's less the baseline's.

use std::collections::BTreeMap;
use std::path::Path;

mod common;

use common::cli::*;
use ecw_sim::whatif::{COMPARE_HEADER, SWEEP_COLUMNS};

/// A CSV's rows as column -> value.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    csv_table(path).1
}

fn f(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} in {row:?}"))
}

/// `measures.csv`'s estimate of `measure` for the unit, command or side named `name`.
fn own(measures: &[BTreeMap<String, String>], scope: &str, name: &str, measure: &str) -> f64 {
    let row = measures
        .iter()
        .find(|r| r["scope"] == scope && r["name"] == name && r["measure"] == measure)
        .unwrap_or_else(|| panic!("no {scope} {name} {measure} in measures.csv"));
    f(row, "estimate")
}

/// `run`'s `measures.csv` for these battles with `sets` overridden.
fn run_measures(
    root: &Path,
    dir: &str,
    args: &[&str],
    sets: &[&str],
) -> Vec<BTreeMap<String, String>> {
    let out = root.join(dir);
    let mut a: Vec<&str> = vec!["run"];
    a.extend(args);
    for s in sets {
        a.extend(["--set", s]);
    }
    a.extend(["--quiet", "--out", s(&out)]);
    ok(&a);
    rows(&out.join("measures.csv"))
}

const CROMWELL: &str = "Right Wing Horse (Cromwell)";
const OKEY_INDEPENDENT: &str = "parliament.commands.dragoons.kind=independent";

#[test]
fn compare_gives_each_version_its_run_figure_and_pairs_them() {
    let root = scratch("compare");
    let battles = scaled(400, 40).to_string();
    let fight = ["naseby", "--ruleset", "black_powder", "--battles", &battles];
    let out = root.join("compare");
    let mut args = vec!["compare"];
    args.extend(fight);
    let variant = format!("okey_independent:{OKEY_INDEPENDENT}");
    let cromwell = format!("p_brigade_broken:{CROMWELL}");
    args.extend([
        "--variant",
        &variant,
        "--own",
        &cromwell,
        "--own",
        "charges",
    ]);
    args.extend([
        "--own",
        "volleys_fired_mean:Skippon's Foot",
        "--threads",
        "2",
    ]);
    args.extend(["--out", s(&out)]);
    let printed = run_ok(&args);
    let compare = rows(&out.join("compare.csv"));
    let base = run_measures(&root, "base", &fight, &[]);
    let var = run_measures(&root, "variant", &fight, &[OKEY_INDEPENDENT]);
    // (measure in compare.csv, scope, name and measure in measures.csv)
    let wanted = [
        (
            format!("p_brigade_broken:{CROMWELL}"),
            "command",
            CROMWELL,
            "p_brigade_broken",
        ),
        (
            "charges_mean:parliament".into(),
            "side",
            "parliament",
            "charges_mean",
        ),
        (
            "charges_mean:royalist".into(),
            "side",
            "royalist",
            "charges_mean",
        ),
        (
            "volleys_fired_mean:Skippon's Foot".into(),
            "unit",
            "Skippon's Foot",
            "volleys_fired_mean",
        ),
    ];
    for (measure, scope, name, file_measure) in &wanted {
        let row = compare
            .iter()
            .find(|r| &r["measure"] == measure)
            .unwrap_or_else(|| panic!("no {measure} in compare.csv"));
        let (b, v) = (f(row, "baseline"), f(row, "variant_value"));
        assert!(
            (b - own(&base, scope, name, file_measure)).abs() < 1e-6,
            "{measure} {row:?}"
        );
        assert!(
            (v - own(&var, scope, name, file_measure)).abs() < 1e-6,
            "{measure} {row:?}"
        );
        assert!((f(row, "diff") - (v - b)).abs() < 1e-6, "{row:?}");
        assert!(f(row, "ci95_low") <= f(row, "diff") && f(row, "diff") <= f(row, "ci95_high"));
        assert!(
            printed.contains(measure.as_str()),
            "{measure} not printed:\n{printed}"
        );
    }
    // The dragoons made independent: Parliament's army no longer breaks on them, so Cromwell's
    // brigade fights longer and breaks more often.
    let cromwell = compare
        .iter()
        .find(|r| r["measure"] == wanted[0].0)
        .unwrap();
    assert!(f(cromwell, "diff") > 0.0, "{cromwell:?}");
    // A brigade's break is a share, and not an outcome: "the result changed" counts the
    // outcomes alone, as it does without it.
    let plain_out = root.join("plain");
    let mut a = vec!["compare"];
    a.extend(fight);
    a.extend(["--variant", &variant, "--out", s(&plain_out)]);
    let plain = run_ok(&a);
    let changed = |text: &str| {
        text.lines()
            .find(|l| l.contains("the result (who won, or a draw) changed"))
            .unwrap()
            .to_string()
    };
    assert_eq!(changed(&printed), changed(&plain));
    let plain_rows = rows(&plain_out.join("compare.csv"));
    assert_eq!(compare.len(), plain_rows.len() + wanted.len());
    assert_eq!(plain_rows[0].len(), COMPARE_HEADER.len());
}

#[test]
fn the_same_bytes_on_any_thread_count_and_under_dickenson_too() {
    let root = scratch("threads");
    let battles = scaled(120, 12).to_string();
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = root.join(format!("t{threads}"));
        ok(&[
            "compare",
            "lansdown",
            "--ruleset",
            "dickenson",
            "--battles",
            &battles,
            "--variant",
            "short:turn_limit=4",
            "--own",
            "volleys_fired",
            "--own",
            "p_fell_back:royalist",
            "--threads",
            threads,
            "--quiet",
            "--out",
            s(&out),
        ]);
        files.push(std::fs::read(out.join("compare.csv")).unwrap());
    }
    assert_eq!(files[0], files[1]);
    let fight = ["lansdown", "--ruleset", "dickenson", "--battles", &battles];
    let base = run_measures(&root, "base", &fight, &[]);
    let short = run_measures(&root, "short", &fight, &["turn_limit=4"]);
    let compare = rows(&root.join("t1").join("compare.csv"));
    for (measure, side, file_measure) in [
        (
            "volleys_fired_mean:parliament",
            "parliament",
            "volleys_fired_mean",
        ),
        (
            "volleys_fired_mean:royalist",
            "royalist",
            "volleys_fired_mean",
        ),
        ("p_fell_back:royalist", "royalist", "p_fell_back"),
    ] {
        let row = compare.iter().find(|r| r["measure"] == measure).unwrap();
        assert!((f(row, "baseline") - own(&base, "side", side, file_measure)).abs() < 1e-6);
        assert!((f(row, "variant_value") - own(&short, "side", side, file_measure)).abs() < 1e-6);
    }
}

#[test]
fn a_sweep_measures_a_rulesets_own_at_every_point() {
    let root = scratch("sweep");
    let battles = scaled(200, 20).to_string();
    let out = root.join("sweep");
    let printed = run_ok(&[
        "sweep",
        "naseby",
        "--ruleset",
        "black_powder",
        "--battles",
        &battles,
        "--param",
        "parliament.commands.dragoons.kind=horse,independent",
        "--own",
        "p_brigade_broken:parliament",
        "--out",
        s(&out),
    ]);
    assert!(printed.contains("p_brigade_broken:parliament"), "{printed}");
    let sweep = rows(&out.join("sweep.csv"));
    assert_eq!(sweep[0].len(), 1 + SWEEP_COLUMNS.len());
    let fight = ["naseby", "--ruleset", "black_powder", "--battles", &battles];
    for kind in ["horse", "independent"] {
        let set = format!("parliament.commands.dragoons.kind={kind}");
        let measures = run_measures(&root, kind, &fight, &[&set]);
        let row = sweep
            .iter()
            .find(|r| {
                r["parliament.commands.dragoons.kind"] == kind
                    && r["measure"] == "p_brigade_broken:parliament"
            })
            .unwrap();
        let file = own(&measures, "side", "parliament", "p_brigade_broken");
        assert!((f(row, "estimate") - file).abs() < 1e-6, "{kind}: {row:?}");
    }
}

#[test]
fn own_measures_asked_wrongly_are_refused_by_name() {
    let naseby = [
        "compare",
        "naseby",
        "--ruleset",
        "black_powder",
        "--battles",
        "4",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = naseby.iter().map(|s| s.to_string()).collect();
        a.extend(["--variant".into(), format!("v:{OKEY_INDEPENDENT}")]);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let refuse = |extra: &[&str], needles: &[&str]| {
        let a = with(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        refused_all(&a, needles);
    };
    // A measure the ruleset does not count: its measures are listed.
    refuse(
        &["--own", "charge:parliament"],
        &["--own charge:parliament", "black_powder", "charges"],
    );
    // Nobody of that name: the nearest names are offered.
    refuse(
        &["--own", "charges:Whaley's Horse"],
        &["Whaley's Horse", "did you mean"],
    );
    // A brigade's break is a command's, never a unit's.
    refuse(
        &["--own", "p_brigade_broken:Skippon's Foot"],
        &["p_brigade_broken", "Skippon's Foot", "command or a side"],
    );
    // Ironsides counts no measures of its own.
    refused_all(
        &[
            "compare",
            "naseby",
            "--ruleset",
            "ironsides",
            "--battles",
            "4",
            "--variant",
            "v:turn_limit=3",
            "--own",
            "charges",
        ],
        &["--own", "ironsides", "no measures of its own"],
    );
    // A list of rulesets compares the rulesets, not versions.
    refused_all(
        &[
            "compare",
            "naseby",
            "--ruleset",
            "black_powder,dickenson",
            "--battles",
            "4",
            "--own",
            "charges",
        ],
        &["--own"],
    );
    // The same measure twice would be two equal rows.
    refuse(
        &["--own", "charges", "--own", "charges_mean:parliament"],
        &["charges_mean:parliament", "twice"],
    );
}

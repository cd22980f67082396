//! The what-if tools end to end, through the built binary: `compare` (paired differences on
//! common random numbers), `balance` (mirror battles between rating rows) and `sweep` (grids);
//! their determinism across thread counts, their refusals of bad input, and the commands in
//! docs/WHAT-IF.md and docs/BALANCING.md.

use std::collections::BTreeMap;
use std::path::Path;

mod common;

use common::cli::*;
use ecw_sim::scenario::Scenario;
use ecw_sim::whatif::{BALANCE_HEADER, COMPARE_HEADER, SWEEP_COLUMNS};

/// A CSV's rows as column -> value, checking its header.
fn rows(path: &Path, header: &[&str]) -> Vec<BTreeMap<String, String>> {
    let (h, rows) = csv_table(path);
    assert_eq!(h, header, "{}", path.display());
    rows
}

fn f(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} = `{}` in {row:?}", row[key]))
}

/// The row of `variant` and `measure`.
fn find<'a>(
    rows: &'a [BTreeMap<String, String>],
    variant: &str,
    measure: &str,
) -> &'a BTreeMap<String, String> {
    rows.iter()
        .find(|r| r["variant"] == variant && r["measure"] == measure)
        .unwrap_or_else(|| panic!("no row {variant} {measure}"))
}

#[test]
fn an_identical_variant_differs_by_exactly_nothing_and_a_better_one_by_something() {
    let root = scratch("compare");
    let out = root.join("out");
    let battles = "3000".to_string();
    let stdout = run_ok(&[
        "compare",
        "duel_horse",
        "--variant",
        "same:turn_limit=8",
        "--variant",
        "stronger:royalist.commands.horse.units.0.cv=6",
        "--against",
        "duel_horse",
        "--unit",
        "Gallopers",
        "--battles",
        &battles,
        "--out",
        s(&out),
    ]);
    assert!(
        stdout.contains("stronger: --set royalist.commands.horse.units.0.cv=6"),
        "{stdout}"
    );
    let rows = rows(&out.join("compare.csv"), &COMPARE_HEADER);
    // Three variants, seven measures each (six standard and the unit's).
    assert_eq!(rows.len(), 3 * 7);
    for variant in ["same", "duel_horse"] {
        for r in rows.iter().filter(|r| r["variant"] == variant) {
            for key in ["diff", "ci95_low", "ci95_high", "paired_halfwidth"] {
                assert_eq!(r[key], "0.000000", "{variant} {}: {key}", r["measure"]);
            }
            assert_eq!(r["baseline"], r["variant_value"]);
            // Both versions varied, identically: the unpaired interval has width, the paired none.
            if f(r, "unpaired_halfwidth") > 0.0 {
                assert_eq!(r["narrowing"], "inf");
            }
        }
    }
    // Royalist gallopers at CV 6 instead of 5, on the same dice: they win more often, lose less.
    let win = find(&rows, "stronger", "p_royalist_win");
    assert!(f(win, "diff") > 0.0 && f(win, "ci95_low") > 0.0, "{win:?}");
    assert!(f(win, "variant_value") > f(win, "baseline"));
    assert!(
        (f(win, "variant_value") - f(win, "baseline") - f(win, "diff")).abs() < 2e-6,
        "the mean difference is the difference of the means: {win:?}"
    );
    let lost = find(&rows, "stronger", "unit_cv_lost_mean:Gallopers");
    for r in [win, lost] {
        let (paired, unpaired) = (f(r, "paired_halfwidth"), f(r, "unpaired_halfwidth"));
        assert!(paired > 0.0 && paired < unpaired, "{r:?}");
        assert!((f(r, "narrowing") - unpaired / paired).abs() < 1e-4 * unpaired / paired);
        assert!((f(r, "ci95_high") - f(r, "diff") - paired).abs() < 2e-6);
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn compare_sweep_and_balance_write_the_same_bytes_on_any_thread_count() {
    let root = scratch("threads");
    let battles = "1200".to_string();
    let mut seen: BTreeMap<&str, Vec<u8>> = BTreeMap::new();
    for threads in ["1", "2", "3"] {
        let dir = root.join(format!("t{threads}"));
        let d = s(&dir);
        let common = [
            "--battles",
            battles.as_str(),
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
        ];
        let runs: [(&str, Vec<&str>); 3] = [
            (
                "compare.csv",
                vec![
                    "compare",
                    "small_action",
                    "--variant",
                    "v:royalist.year=1644",
                    "--unit",
                    "Greycoats",
                ],
            ),
            (
                "sweep.csv",
                vec!["sweep", "small_action", "--param", "turn_limit=6,12"],
            ),
            (
                "balance.csv",
                vec![
                    "balance",
                    "--side-a",
                    "parliament:1643",
                    "--side-b",
                    "royalist:1643",
                ],
            ),
        ];
        for (file, args) in runs {
            let mut all = args.clone();
            all.extend(common);
            all.extend(["--out", d]);
            run_ok(&all);
            let bytes = std::fs::read(dir.join(file)).unwrap();
            match seen.get(file) {
                Some(first) => assert!(first == &bytes, "{file} differs on {threads} threads"),
                None => {
                    seen.insert(file, bytes);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn balance_finds_no_difference_between_a_row_and_itself_and_one_between_1642_and_1646() {
    let root = scratch("balance");
    let out = root.join("out");
    // The same battles in debug and release builds: a fixed-seed verdict must not depend on the build.
    let battles = "4000".to_string();
    let stdout = run_ok(&[
        "balance",
        "--side-a",
        "royalist:1643,1642",
        "--side-b",
        "royalist:1643,1642",
        "--battles",
        &battles,
        "--seed",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(stdout.contains("no difference at the 5% level"), "{stdout}");
    let same = rows(&out.join("balance.csv"), &BALANCE_HEADER);
    assert_eq!(same.len(), 2);
    for r in &same {
        assert_eq!(r["verdict"], "no_difference", "{r:?}");
        assert_eq!(r["differs_from_even"], "false");
        assert!(f(r, "ci95_low") < 0.5 && f(r, "ci95_high") > 0.5);
        let n: u64 = r["battles"].parse().unwrap();
        let parts: u64 = ["a_wins", "b_wins", "draws"]
            .iter()
            .map(|k| r[*k].parse::<u64>().unwrap())
            .sum();
        assert_eq!(n, parts);
        assert_eq!(r["arms"], "foot+horse+dragoons+artillery");
    }
    // A lopsided template (the Parliament army's left wing of horse told to stand still) favours
    // one army heavily; the swap of rows between the armies in every other battle cancels it.
    let lame = "parliament.commands.left_horse.doctrine=hold_the_line";
    let run_out = root.join("run");
    run_ok(&[
        "run",
        "balance_template",
        "--set",
        lame,
        "--battles",
        &battles,
        "--out",
        s(&run_out),
        "--quiet",
    ]);
    let text = std::fs::read_to_string(run_out.join("outcomes.csv")).unwrap();
    let p_win: f64 = text
        .lines()
        .find(|l| l.starts_with("side,parliament,parliament,parliament,p_win,"))
        .and_then(|l| l.split(',').nth(8))
        .unwrap()
        .parse()
        .unwrap();
    assert!(p_win < 0.4, "the lopsided template is lopsided: {p_win}");
    run_ok(&[
        "balance",
        "--side-a",
        "parliament:1644",
        "--side-b",
        "parliament:1644",
        "--set",
        lame,
        "--battles",
        &battles,
        "--out",
        s(&out),
        "--quiet",
        "--force",
    ]);
    let swapped = rows(&out.join("balance.csv"), &BALANCE_HEADER);
    assert_eq!(swapped[0]["verdict"], "no_difference", "{:?}", swapped[0]);
    // The New Model of 1646 against the Royalists of 1642, horse only: plainly unequal, in
    // favour of side A whichever army it rates.
    run_ok(&[
        "balance",
        "--side-a",
        "parliament:1646",
        "--side-b",
        "royalist:1642",
        "--arms",
        "horse",
        "--battles",
        &battles,
        "--out",
        s(&out),
        "--quiet",
        "--force",
    ]);
    let strong = rows(&out.join("balance.csv"), &BALANCE_HEADER);
    assert_eq!(strong.len(), 1);
    assert_eq!(strong[0]["verdict"], "a_stronger", "{:?}", strong[0]);
    assert_eq!(strong[0]["arms"], "horse");
    assert!(f(&strong[0], "ci95_low") > 0.5);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_sweep_has_a_row_per_grid_point_and_measure_and_reaches_ruleset_options() {
    let root = scratch("sweep");
    let out = root.join("out");
    let battles = "800".to_string();
    run_ok(&[
        "sweep",
        "small_action",
        "--param",
        "rules.options.no_reaction_from_fire_at_cv=0,4",
        "--param",
        "turn_limit=6,10,16",
        "--unit",
        "Crewe's Foot",
        "--battles",
        &battles,
        "--out",
        s(&out),
        "--quiet",
    ]);
    let mut header = vec!["rules.options.no_reaction_from_fire_at_cv", "turn_limit"];
    header.extend(SWEEP_COLUMNS);
    let rows = rows(&out.join("sweep.csv"), &header);
    assert_eq!(rows.len(), 2 * 3 * 7);
    let mut points: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r[header[0]].clone(), r["turn_limit"].clone()))
        .collect();
    points.dedup();
    assert_eq!(
        points,
        [
            ("0", "6"),
            ("0", "10"),
            ("0", "16"),
            ("4", "6"),
            ("4", "10"),
            ("4", "16")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    for r in &rows {
        assert_eq!(r["n"], battles);
        let (e, lo, hi) = (f(r, "estimate"), f(r, "ci95_low"), f(r, "ci95_high"));
        assert!(lo <= e && e <= hi, "{r:?}");
        if r[header[0]] == "0" && r["turn_limit"] == "6" {
            assert_eq!(
                (r["diff_vs_first"].as_str(), r["diff_ci95_low"].as_str()),
                ("0.000000", "0.000000")
            );
        }
        // A battle never lasts beyond the turn limit.
        if r["measure"] == "battle_length_turns" {
            assert!(e <= f(r, "turn_limit"));
        }
    }
    // The scenario's ruleset option takes the swept value.
    for cv in [0u8, 4] {
        let setup = Scenario::open(
            "small_action",
            &[format!("rules.options.no_reaction_from_fire_at_cv={cv}")],
        )
        .unwrap()
        .setup()
        .unwrap();
        assert_eq!(setup.rules.options.no_reaction_from_fire_at_cv, cv);
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bad_input_is_refused_clearly_and_nothing_is_written() {
    let root = scratch("bad");
    let out = root.join("out");
    let o = s(&out);
    let cases: [(&[&str], &str); 16] = [
        (
            &[
                "compare",
                "small_action",
                "--variant",
                "v:royalist.captin_general=rupert",
            ],
            "unknown key `captin_general`",
        ),
        (
            &[
                "compare",
                "small_action",
                "--variant",
                "royalist.captain_general=rupert",
            ],
            "expected NAME:PATH=VALUE",
        ),
        (
            &["compare", "small_action", "--variant", "v:turn_limit"],
            "`turn_limit` is not PATH=VALUE",
        ),
        (
            &[
                "compare",
                "small_action",
                "--variant",
                "v:turn_limit=9",
                "--battles",
                "0",
            ],
            "--battles 0",
        ),
        (&["compare", "small_action"], "at least one --variant"),
        (
            &[
                "compare",
                "small_action",
                "--variant",
                "a:turn_limit=9",
                "--variant",
                "a:turn_limit=8",
            ],
            "two versions are named `a`",
        ),
        (
            &[
                "compare",
                "small_action",
                "--variant",
                "v:turn_limit=9",
                "--unit",
                "Greycoatz",
            ],
            "did you mean Greycoats",
        ),
        (
            &["compare", "small_action", "--variant", "v:turn_limit=0"],
            "turn_limit",
        ),
        (
            &["compare", "small_action", "--against", "no_such_battle"],
            "--against no_such_battle",
        ),
        (
            &["sweep", "small_action", "--param", "turn_limit"],
            "expected PATH=V1,V2",
        ),
        (
            &[
                "sweep",
                "small_action",
                "--param",
                "rules.options.no_reaction_from_fire_at_cvv=0,4",
            ],
            "unknown field `no_reaction_from_fire_at_cvv`",
        ),
        (
            &[
                "sweep",
                "small_action",
                "--param",
                "turn_limit=6",
                "--battles",
                "0",
            ],
            "--battles 0",
        ),
        (
            &[
                "balance",
                "--side-a",
                "parliament",
                "--side-b",
                "royalist:1643",
            ],
            "expected SIDE:YEAR",
        ),
        (
            &[
                "balance",
                "--side-a",
                "parliament:1643",
                "--side-b",
                "royalist:1600",
            ],
            "1600",
        ),
        (
            &[
                "balance",
                "--side-a",
                "parliament:1643",
                "--side-b",
                "royalist:1643",
                "--arms",
                "pikes",
            ],
            "`pikes` is not an arm",
        ),
        (
            &[
                "balance",
                "--side-a",
                "parliament:1643",
                "--side-b",
                "royalist:1643",
                "--template",
                "small_action",
            ],
            "not mirror images",
        ),
    ];
    for (args, needle) in cases {
        let mut all = args.to_vec();
        all.extend(["--out", o]);
        refused(&all, needle);
        assert!(!out.exists(), "ecw-sim {args:?} wrote {}", out.display());
    }
    // An output folder that is a file.
    std::fs::write(&out, "x").unwrap();
    refused(
        &[
            "sweep",
            "duel_horse",
            "--param",
            "turn_limit=4,8",
            "--battles",
            "10",
            "--out",
            o,
        ],
        "is a file",
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"x");
    let _ = std::fs::remove_dir_all(&root);
}

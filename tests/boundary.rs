//! The ruleset boundary, end to end through the built binary: every tool that fights (compare,
//! balance, sweep, replay, bench, and compare across rulesets) fights Black Powder or Dickenson
//! when asked with `--ruleset black_powder` or `--ruleset dickenson`, writes the files it writes
//! for Ironsides, and agrees battle for battle with `run --ruleset ...` of the same seed; an unknown ruleset is refused with
//! the known ones listed.

use std::collections::BTreeMap;
use std::path::Path;

mod common;

use common::cli::*;
use ecw_sim::whatif::{BALANCE_HEADER, COMPARE_HEADER, RULESET_MEASURES, SWEEP_COLUMNS};

const BP: &str = "black_powder";
const DK: &str = "dickenson";

fn num(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} in {row:?}"))
}

/// `battles.csv` of `run SCENARIO --ruleset NAME` with these options.
fn run_battles(
    dir: &Path,
    scenario: &str,
    ruleset: &str,
    extra: &[&str],
) -> Vec<BTreeMap<String, String>> {
    let mut args = vec![
        "run",
        scenario,
        "--ruleset",
        ruleset,
        "--per-battle",
        "--quiet",
        "--force",
        "--out",
        s(dir),
    ];
    args.extend_from_slice(extra);
    run_ok(&args);
    csv_table(&dir.join("battles.csv")).1
}

fn mean(rows: &[BTreeMap<String, String>], f: impl Fn(&BTreeMap<String, String>) -> f64) -> f64 {
    rows.iter().map(f).sum::<f64>() / rows.len() as f64
}

fn share_won(rows: &[BTreeMap<String, String>], side: &str) -> f64 {
    mean(rows, |r| f64::from(u8::from(r["winner"] == side)))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn compare_under_black_powder_writes_the_same_shape_from_black_powder_battles() {
    compare_writes_the_same_shape_from_the_rulesets_own_battles(BP);
}

#[test]
fn compare_under_dickenson_writes_the_same_shape_from_dickenson_battles() {
    compare_writes_the_same_shape_from_the_rulesets_own_battles(DK);
}

fn compare_writes_the_same_shape_from_the_rulesets_own_battles(rs: &str) {
    let root = scratch(&format!("boundary-compare-{rs}"));
    let base = [
        "--battles",
        "120",
        "--seed",
        "4",
        "--threads",
        "2",
        "--quiet",
        "--force",
    ];
    let versions = [
        "--variant",
        "cautious:royalist.commands.foot.doctrine=cautious",
        "--unit",
        "Greycoats",
    ];
    let mut shapes = Vec::new();
    for ruleset in ["ironsides", rs] {
        let out = root.join(ruleset);
        let mut args = vec![
            "compare",
            "small_action",
            "--ruleset",
            ruleset,
            "--out",
            s(&out),
        ];
        args.extend_from_slice(&base);
        args.extend_from_slice(&versions);
        run_ok(&args);
        let (h, rows) = csv_table(&out.join("compare.csv"));
        assert_eq!(h, COMPARE_HEADER, "{ruleset}");
        shapes.push(rows);
    }
    // The same measures, each saying its ruleset's unit (`royalist_casualties_lost_mean`).
    let c = ecw_sim::rules::currency(rs).unwrap();
    let keys = |rows: &[BTreeMap<String, String>], from: &str| -> Vec<(String, String)> {
        rows.iter()
            .map(|r| {
                let m = r["measure"].replace(&format!("_{from}_lost"), "_cv_lost");
                (r["variant"].clone(), m)
            })
            .collect()
    };
    assert_eq!(keys(&shapes[0], "cv"), keys(&shapes[1], c));
    assert!(
        shapes[1]
            .iter()
            .any(|r| r["measure"] == format!("parliament_{c}_lost_mean"))
    );
    // The baseline is battle for battle `run --ruleset black_powder` of the same seed.
    let battles = run_battles(
        &root.join("run"),
        "small_action",
        rs,
        &["--battles", "120", "--seed", "4"],
    );
    let own = &shapes[1];
    let get = |m: &str| num(own.iter().find(|r| r["measure"] == m).unwrap(), "baseline");
    assert!(close(
        get("p_parliament_win"),
        share_won(&battles, "parliament")
    ));
    assert!(close(get("p_draw"), share_won(&battles, "draw")));
    let lost = mean(&battles, |r| num(r, &format!("{c}_lost_royalist")));
    assert!(close(get(&format!("royalist_{c}_lost_mean")), lost));
    let turns = mean(&battles, |r| num(r, "turns"));
    assert!(close(get("battle_length_turns"), turns));
    // The unit's losses come through the trait in stamina, as the event stream counts them.
    let (_, unit_rows) = csv_table(&root.join("run").join(format!("{c}_losses.csv")));
    let greycoats: f64 = unit_rows
        .iter()
        .filter(|r| {
            r["scope"] == "unit" && r["name"] == "Greycoats" && r["measure"] == format!("{c}_lost")
        })
        .map(|r| num(r, "value") * num(r, "count"))
        .sum::<f64>()
        / 120.0;
    assert!(
        close(get(&format!("unit_{c}_lost_mean:Greycoats")), greycoats),
        "{greycoats}"
    );
    // Not Ironsides' battles under another name.
    let iron = &shapes[0];
    let iron_turns = num(
        iron.iter()
            .find(|r| r["measure"] == "battle_length_turns")
            .unwrap(),
        "baseline",
    );
    assert!(!close(iron_turns, turns));
}

#[test]
fn balance_under_black_powder_is_the_same_bytes_on_any_thread_count() {
    balance_is_the_same_bytes_on_any_thread_count(BP);
}

#[test]
fn balance_under_dickenson_is_the_same_bytes_on_any_thread_count() {
    balance_is_the_same_bytes_on_any_thread_count(DK);
}

fn balance_is_the_same_bytes_on_any_thread_count(rs: &str) {
    let root = scratch(&format!("boundary-balance-{rs}"));
    let mut files = Vec::new();
    for (ruleset, threads) in [(rs, "1"), (rs, "2"), ("ironsides", "2")] {
        let out = root.join(format!("{ruleset}-{threads}"));
        run_ok(&[
            "balance",
            "--side-a",
            "parliament:1643",
            "--side-b",
            "royalist:1643",
            "--battles",
            "200",
            "--ruleset",
            ruleset,
            "--threads",
            threads,
            "--quiet",
            "--out",
            s(&out),
        ]);
        let (h, rows) = csv_table(&out.join("balance.csv"));
        assert_eq!(h, BALANCE_HEADER);
        assert_eq!(rows.len(), 1);
        files.push(std::fs::read(out.join("balance.csv")).unwrap());
    }
    assert_eq!(files[0], files[1]);
    assert_ne!(files[0], files[2]);
}

#[test]
fn sweep_under_black_powder_fights_each_point_as_run_does() {
    sweep_fights_each_point_as_run_does(BP);
}

#[test]
fn sweep_under_dickenson_fights_each_point_as_run_does() {
    sweep_fights_each_point_as_run_does(DK);
}

fn sweep_fights_each_point_as_run_does(rs: &str) {
    let root = scratch(&format!("boundary-sweep-{rs}"));
    let out = root.join("sweep");
    run_ok(&[
        "sweep",
        "small_action",
        "--ruleset",
        rs,
        "--param",
        "royalist.commands.foot.doctrine=cautious,hold_the_line",
        "--battles",
        "150",
        "--seed",
        "9",
        "--quiet",
        "--out",
        s(&out),
    ]);
    let (h, rows) = csv_table(&out.join("sweep.csv"));
    let mut want = vec!["royalist.commands.foot.doctrine".to_string()];
    want.extend(SWEEP_COLUMNS.iter().map(|c| c.to_string()));
    assert_eq!(h, want);
    for point in ["cautious", "hold_the_line"] {
        let set = format!("royalist.commands.foot.doctrine={point}");
        let battles = run_battles(
            &root.join(point),
            "small_action",
            rs,
            &["--battles", "150", "--seed", "9", "--set", &set],
        );
        let row = rows
            .iter()
            .find(|r| {
                r["royalist.commands.foot.doctrine"] == point && r["measure"] == "p_royalist_win"
            })
            .unwrap();
        assert!(
            close(num(row, "estimate"), share_won(&battles, "royalist")),
            "{point}"
        );
    }
}

#[test]
fn replay_under_black_powder_is_battle_i_of_a_black_powder_run() {
    replay_is_battle_i_of_a_run(BP);
}

#[test]
fn replay_under_dickenson_is_battle_i_of_a_dickenson_run() {
    replay_is_battle_i_of_a_run(DK);
}

fn replay_is_battle_i_of_a_run(rs: &str) {
    let root = scratch(&format!("boundary-replay-{rs}"));
    let battles = run_battles(
        &root.join("run"),
        "small_action",
        rs,
        &["--battles", "20", "--seed", "5"],
    );
    for i in [0usize, 11] {
        let n = i.to_string();
        let args = [
            "replay",
            "small_action",
            "--ruleset",
            rs,
            "--seed",
            "5",
            "--battle",
            &n,
        ];
        let text = run_ok(&args);
        assert!(rs != BP || text.contains("order: rolled"), "{text}");
        assert!(text.contains("Result:"), "{text}");
        let mut csv_args = args.to_vec();
        csv_args.extend(["--format", "csv"]);
        let events = run_ok(&csv_args);
        // The strength column is named in the ruleset's currency.
        let strength = if rs == BP { "stamina" } else { "figures" };
        let header =
            format!("seq,turn,event,unit,unit_name,other,other_name,value,{strength},detail\n");
        assert!(events.starts_with(&header), "{rs}");
        assert!(rs != BP || events.contains(",bp_order,"));
        let last: Vec<&str> = events.lines().last().unwrap().split(',').collect();
        assert_eq!(last[2], "battle_ended");
        assert_eq!(last[7], battles[i]["turns"], "battle {i}");
        let winner = &battles[i]["winner"];
        let want = if winner == "draw" {
            "draw".into()
        } else {
            format!("{winner}_won")
        };
        assert_eq!(last[9], want, "battle {i}");
    }
    // The page and the map draw the Black Powder battle.
    let (page, map) = (root.join("r.html"), root.join("r.svg"));
    run_ok(&[
        "replay",
        "small_action",
        "--ruleset",
        rs,
        "--seed",
        "5",
        "--battle",
        "0",
        "--html",
        s(&page),
        "--map",
        s(&map),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(rs != BP || html.contains("order: rolled"));
    // The page tells this ruleset's battle 0, and ends as its text does.
    let text = run_ok(&[
        "replay",
        "small_action",
        "--ruleset",
        rs,
        "--seed",
        "5",
        "--battle",
        "0",
    ]);
    let result = text.lines().find(|l| l.starts_with("Result:")).unwrap();
    assert!(html.contains(result), "{result}");
    assert!(std::fs::read_to_string(&map).unwrap().starts_with("<svg"));
}

#[test]
fn bench_measures_black_powder_battles() {
    bench_measures_the_rulesets_battles(BP);
}

#[test]
fn bench_measures_dickenson_battles() {
    bench_measures_the_rulesets_battles(DK);
}

/// `bench --scale --ruleset all`: a table and an exponent under each ruleset in turn, and one
/// chart with a curve and a legend entry for each.
#[test]
fn the_scaling_bench_measures_every_ruleset_on_one_chart() {
    let chart = scratch("scale-all").join("scale.svg");
    let out = run_ok(&[
        "bench",
        "--scale",
        "--ruleset",
        "all",
        "--sizes",
        "20,40",
        "--seconds",
        "0",
        "--chart",
        chart.to_str().unwrap(),
    ]);
    for rs in ["ironsides", BP, DK] {
        assert!(
            out.contains(&format!("generated battles under {rs},")),
            "{out}"
        );
    }
    assert_eq!(out.matches("fitted exponent").count(), 3, "{out}");
    let svg = std::fs::read_to_string(&chart).unwrap();
    for rs in ["ironsides", BP, DK] {
        assert!(
            svg.contains(&format!(">{rs} (fitted exponent")),
            "{rs}: {svg}"
        );
    }
    let marks = svg.matches("class=\"mark\"").count();
    assert_eq!(marks, 6, "a point per size and ruleset");
}

fn bench_measures_the_rulesets_battles(rs: &str) {
    let out = run_ok(&[
        "bench",
        "small_action",
        "--ruleset",
        rs,
        "--battles",
        "60",
        "--threads",
        "2",
    ]);
    assert!(out.contains(&format!("({rs})")), "{out}");
    assert!(out.contains("ns a die"), "{out}");
    assert!(out.contains("the same battles"), "{out}");
}

#[test]
fn rulesets_side_by_side_are_each_rulesets_own_run() {
    let root = scratch("boundary-rulesets");
    let mut bytes = Vec::new();
    for threads in ["1", "2"] {
        let out = root.join(threads);
        let printed = run_ok(&[
            "compare",
            "small_action",
            "--ruleset",
            "ironsides,black_powder,dickenson",
            "--battles",
            "150",
            "--seed",
            "2",
            "--threads",
            threads,
            "--out",
            s(&out),
        ]);
        for name in ["ironsides", BP, DK] {
            assert!(printed.contains(name), "{printed}");
        }
        bytes.push(std::fs::read(out.join("rulesets.csv")).unwrap());
    }
    assert_eq!(bytes[0], bytes[1]);
    let (h, rows) = csv_table(&root.join("1").join("rulesets.csv"));
    assert_eq!(
        h,
        [
            "ruleset",
            "measure",
            "value",
            "ci95_low",
            "ci95_high",
            "battles"
        ]
    );
    assert_eq!(rows.len(), 3 * RULESET_MEASURES.len());
    for ruleset in ["ironsides", BP, DK] {
        let battles = run_battles(
            &root.join(ruleset),
            "small_action",
            ruleset,
            &["--battles", "150", "--seed", "2"],
        );
        let get = |m: &str| {
            let r = rows
                .iter()
                .find(|r| r["ruleset"] == ruleset && r["measure"] == m)
                .unwrap();
            assert!(
                num(r, "ci95_low") <= num(r, "value") && num(r, "value") <= num(r, "ci95_high")
            );
            num(r, "value")
        };
        assert!(
            close(get("p_parliament_win"), share_won(&battles, "parliament")),
            "{ruleset}"
        );
        let c = ecw_sim::rules::currency(ruleset).unwrap();
        let share = mean(&battles, |r| {
            num(r, &format!("{c}_lost_parliament")) / num(r, &format!("{c}_start_parliament"))
        });
        assert!(close(get("parliament_loss_share"), share), "{ruleset}");
        let pursuits = mean(&battles, |r| num(r, "pursuits_royalist"));
        assert!(close(get("royalist_pursuits"), pursuits), "{ruleset}");
    }
    // A list compares rulesets, not versions.
    refused(
        &[
            "compare",
            "small_action",
            "--ruleset",
            "ironsides,black_powder",
            "--variant",
            "x:turn_limit=8",
        ],
        "a list compares the rulesets",
    );
}

#[test]
fn an_unknown_ruleset_is_refused_with_the_known_ones() {
    let root = scratch("boundary-unknown");
    let out = s(&root);
    for args in [
        vec![
            "run",
            "small_action",
            "--ruleset",
            "warhammer",
            "--out",
            out,
            "--battles",
            "5",
        ],
        vec![
            "compare",
            "small_action",
            "--ruleset",
            "warhammer",
            "--variant",
            "x:turn_limit=8",
            "--out",
            out,
        ],
        vec![
            "compare",
            "small_action",
            "--ruleset",
            "ironsides,warhammer",
            "--out",
            out,
        ],
        vec![
            "balance",
            "--side-a",
            "parliament:1643",
            "--side-b",
            "royalist:1643",
            "--ruleset",
            "warhammer",
            "--out",
            out,
        ],
        vec![
            "sweep",
            "small_action",
            "--param",
            "turn_limit=6,8",
            "--ruleset",
            "warhammer",
            "--out",
            out,
        ],
        vec!["replay", "small_action", "--ruleset", "warhammer"],
        vec!["bench", "small_action", "--ruleset", "warhammer"],
    ] {
        refused_all(
            &args,
            &["unknown ruleset `warhammer`", "ironsides, black_powder"],
        );
    }
    refused(
        &[
            "sweep",
            "small_action",
            "--param",
            "turn_limit=6,8",
            "--ruleset",
            "ironsides,black_powder",
            "--out",
            out,
        ],
        "one ruleset",
    );
}

/// What a ruleset tells the tools of a fought battle is its own: each unit's losses add up to
/// its side's, and the commander casualties count as its rules say.
#[test]
fn the_trait_reports_each_rulesets_own_losses_and_casualties() {
    use ecw_sim::events::{GeneralResult, NullObserver};
    use ecw_sim::rules::dickenson::battle::Dickenson;
    use ecw_sim::rules::{BlackPowder, Ironsides, Ruleset};
    use ecw_sim::stats::general_result_index;

    fn units_add_up<R: Ruleset>(ruleset: &R, setup: &ecw_sim::setup::BattleSetup) {
        let mut battle = ruleset.new_battle(setup);
        for i in 0..30 {
            let s = ruleset.fight(
                &mut battle,
                setup,
                ecw_sim::dice::battle_seed(8, i),
                &mut NullObserver,
            );
            let mut sides = [0u32; 2];
            for (u, unit) in setup.units.iter().enumerate() {
                sides[unit.side.index()] += ruleset.unit_lost(&battle, u as u16).unwrap();
            }
            assert_eq!(sides, s.cv_lost, "{} battle {i}", ruleset.name());
        }
        let end = ruleset.units(&battle, setup);
        assert_eq!(end.len(), setup.units.len());
    }
    let setup = ecw_sim::scenario::Scenario::load_builtin("small_action", &[])
        .and_then(|s| s.setup())
        .unwrap();
    units_add_up(&Ironsides, &setup);
    let bp = BlackPowder::builtin();
    units_add_up(&bp, &setup);
    let dk = Dickenson::builtin();
    units_add_up(&dk, &setup);

    let fx = |r: GeneralResult, l: &ecw_sim::stats::Layout| {
        l.commander_effects.0[general_result_index(r)]
    };
    let iron = Ironsides.layout(&setup);
    assert_eq!(fx(GeneralResult::MortalWound, &iron), (true, 0));
    assert_eq!(fx(GeneralResult::HorseStampedes, &iron), (false, 1));
    assert_eq!(fx(GeneralResult::Unhurt, &iron), (false, 0));
    assert_eq!(fx(GeneralResult::Lost, &iron), (true, 0));
    let black = bp.layout(&setup);
    assert_eq!(fx(GeneralResult::Lost, &black), (true, 0));
    assert_eq!(fx(GeneralResult::MortalWound, &black), (false, 0));
    // Black Powder's units stand where its battle left them, in stamina.
    let mut battle = bp.new_battle(&setup);
    bp.fight(&mut battle, &setup, 3, &mut NullObserver);
    let end = bp.units(&battle, &setup);
    let stamina: Vec<u8> = black.units.iter().map(|u| u.start_cv).collect();
    assert!(
        end.iter()
            .zip(&stamina)
            .all(|(u, s)| u.start_cv == *s && u.cv <= *s)
    );
    assert!(end.iter().zip(&setup.units).any(|(u, s)| u.pos != s.pos));
    // Dickenson's stand where its battle left them, in figures, with its own dice streams.
    let figures = dk.layout(&setup);
    let mut battle = dk.new_battle(&setup);
    dk.fight(&mut battle, &setup, 3, &mut NullObserver);
    let end = dk.units(&battle, &setup);
    assert!(
        end.iter()
            .zip(&figures.units)
            .all(|(u, f)| u.start_cv == f.start_cv && u.cv <= f.start_cv)
    );
    assert!(end.iter().zip(&setup.units).any(|(u, s)| u.pos != s.pos));
    assert!(end.iter().any(|u| u.cv < u.start_cv));
    let (first, n) = dk.dice_streams(&battle, &setup).unwrap();
    assert_eq!(n, 1 + setup.units.len() + setup.commanders.len());
    assert_ne!(
        Some(first),
        bp.dice_streams(&bp.new_battle(&setup), &setup).map(|d| d.0)
    );
    dk.deploy(&mut battle, &setup, 3);
    assert!(dk.units(&battle, &setup).iter().all(|u| u.cv == u.start_cv));
}

#[test]
fn list_shows_every_ruleset() {
    let text = run_ok(&["list", "rulesets"]);
    for name in ecw_sim::rules::RULESETS {
        assert!(text.lines().any(|l| l.trim() == *name), "{name} in {text}");
    }
    assert!(!text.contains("marston_moor"));
    assert!(run_ok(&["list"]).contains("Rulesets ("));
}

/// A ruleset written against the trait as it was (the five required methods only) still
/// plugs into the tools: it fights the same battles, and the tools refuse what it cannot say.
#[test]
fn a_ruleset_with_only_the_required_methods_plugs_in() {
    use ecw_sim::events::Observer;
    use ecw_sim::rules::{BattleSummary, Ironsides, Ruleset};
    use ecw_sim::setup::BattleSetup;
    use ecw_sim::whatif::{self, Measure};
    use std::sync::atomic::AtomicBool;

    struct Minimal;
    impl Ruleset for Minimal {
        type Battle = <Ironsides as Ruleset>::Battle;
        fn name(&self) -> &'static str {
            "minimal"
        }
        fn builtin_text(&self) -> &'static str {
            Ironsides.builtin_text()
        }
        fn new_battle(&self, setup: &BattleSetup) -> Self::Battle {
            Ironsides.new_battle(setup)
        }
        fn fight<O: Observer>(
            &self,
            battle: &mut Self::Battle,
            setup: &BattleSetup,
            seed: u64,
            obs: &mut O,
        ) -> BattleSummary {
            Ironsides.fight(battle, setup, seed, obs)
        }
    }

    let setup = ecw_sim::scenario::Scenario::load_builtin("duel_horse", &[])
        .and_then(|s| s.setup())
        .unwrap();
    let plan = whatif::plan(6, 64, Some(2)).unwrap();
    let (bar, stop) = (indicatif::ProgressBar::hidden(), AtomicBool::new(false));
    let measures = Measure::standard(&[], "cv");
    let setups = [
        ("baseline".to_string(), &setup),
        ("same".to_string(), &setup),
    ];
    let mine = whatif::fight(&Minimal, &plan, &setups, &measures, &bar, &stop).unwrap();
    let iron = whatif::fight(&Ironsides, &plan, &setups, &measures, &bar, &stop).unwrap();
    assert_eq!(mine.sums, iron.sums);
    let unit = Measure::standard(&["Trotters".to_string()], "cv");
    let err = whatif::fight(&Minimal, &plan, &setups, &unit, &bar, &stop).unwrap_err();
    assert!(
        err.to_string().contains("does not count a unit's losses"),
        "{err}"
    );
    assert!(whatif::fight(&Ironsides, &plan, &setups, &unit, &bar, &stop).is_ok());
    let mut battle = Minimal.new_battle(&setup);
    assert_eq!(Minimal.dice_streams(&battle, &setup), None);
    assert_eq!(Minimal.turn_limit(&setup), setup.turn_limit);
    assert!(Minimal.army_break(&setup).contains("not said"));
    Minimal.deploy(&mut battle, &setup, 1);
    assert_eq!(Minimal.units(&battle, &setup), setup.units);
}

//! A run's manifest says which ruleset fought it, so `merge` and `report DIR` know it; a
//! manifest written before it was recorded reads as Ironsides, so older shards still merge.

use std::path::Path;

mod common;

use common::cli::*;

fn run(dir: &Path, extra: &[&str]) {
    let mut args = vec![
        "run",
        "small_action",
        "--battles",
        "40",
        "--seed",
        "3",
        "--quiet",
        "--force",
        "--out",
        s(dir),
    ];
    args.extend_from_slice(extra);
    run_ok(&args);
}

#[test]
fn the_manifest_records_the_ruleset_that_fought() {
    let root = scratch("manifest-ruleset");
    for (ruleset, flag) in [
        ("ironsides", None),
        ("black_powder", Some("black_powder")),
        ("dickenson", Some("dickenson")),
    ] {
        let dir = root.join(ruleset);
        let extra: Vec<&str> = flag.map(|f| vec!["--ruleset", f]).unwrap_or_default();
        run(&dir, &extra);
        assert_eq!(manifest(&dir)["ruleset"], ruleset);
        // `report DIR` reads it back and draws the page from it.
        run_ok(&["report", s(&dir), "--quiet"]);
        assert!(dir.join("report.html").exists());
    }
}

/// Drops the ruleset from a shard's partial file, as older versions wrote it.
fn make_old(partial: &Path) {
    let text = std::fs::read_to_string(partial).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let fields = json.as_object_mut().unwrap();
    assert!(fields.remove("ruleset").is_some(), "{text}");
    std::fs::write(partial, serde_json::to_string(&json).unwrap()).unwrap();
}

#[test]
fn older_shards_merge_as_ironsides_and_rulesets_do_not_mix() {
    let root = scratch("merge-ruleset");
    let shard = |name: &str, k: &str, extra: &[&str]| {
        let dir = root.join(name);
        let mut args = vec!["--shard", k];
        args.extend_from_slice(extra);
        run(&dir, &args);
        dir
    };
    let single = root.join("single");
    run(&single, &[]);
    let (a, b) = (shard("a", "1/2", &[]), shard("b", "2/2", &[]));
    for dir in [&a, &b] {
        let k = if dir == &a { 1 } else { 2 };
        make_old(&dir.join(format!("partial-{k}-of-2.json")));
    }
    let merged = root.join("merged");
    run_ok(&["merge", s(&a), s(&b), "--out", s(&merged), "--quiet"]);
    assert_eq!(manifest(&merged)["ruleset"], "ironsides");
    assert_eq!(csvs(&single), csvs(&merged));
    // Half fought by Dickenson does not belong with half fought by Ironsides.
    let d = shard("d", "2/2", &["--ruleset", "dickenson"]);
    let err = refused(
        &["merge", s(&a), s(&d), "--out", s(&root.join("mixed"))],
        "ruleset",
    );
    assert!(err.contains("dickenson"), "{err}");
}

/// A scenario file that names a ruleset is fought under it by every registered ruleset, as the
/// same battle `--ruleset` gives; `[rules]` changes are refused for the rulesets that are not
/// Ironsides.
#[test]
fn a_scenario_file_naming_a_ruleset_fights_under_it() {
    let root = scratch("scenario-ruleset");
    let text = std::fs::read_to_string("configs/scenarios/duel_horse.toml").unwrap();
    for ruleset in ecw_sim::rules::RULESETS {
        let file = root.join(format!("duel_{ruleset}.toml"));
        std::fs::write(&file, format!("ruleset = \"{ruleset}\"\n{text}")).unwrap();
        let named = root.join(format!("named_{ruleset}"));
        let flagged = root.join(format!("flagged_{ruleset}"));
        let fight = |dir: &Path, scenario: &str, extra: &[&str]| {
            let mut args = vec![
                "run",
                scenario,
                "--battles",
                "30",
                "--seed",
                "5",
                "--quiet",
                "--out",
                s(dir),
            ];
            args.extend_from_slice(extra);
            run_ok(&args);
        };
        fight(&named, s(&file), &[]);
        fight(&flagged, "duel_horse", &["--ruleset", ruleset]);
        assert_eq!(manifest(&named)["ruleset"], *ruleset);
        let (a, b) = (csvs(&named), csvs(&flagged));
        assert_eq!(a["outcomes.csv"], b["outcomes.csv"], "{ruleset}");
        if *ruleset != "ironsides" {
            refused(
                &["validate", s(&file), "--set", "rules.fire.max_range=10"],
                "[rules] changes apply to Ironsides rulesets only",
            );
        }
    }
}

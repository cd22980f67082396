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

/// The events of the first `n` battles of master seed 1 of `setup` under `rules`.
fn fought<R: ecw_sim::rules::Ruleset>(
    rules: &R,
    setup: &ecw_sim::setup::BattleSetup,
    n: u64,
) -> Vec<ecw_sim::events::Event> {
    let mut b = rules.new_battle(setup);
    let mut log = ecw_sim::events::EventLog::default();
    for i in 0..n {
        rules.fight(&mut b, setup, ecw_sim::dice::battle_seed(1, i), &mut log);
    }
    log.0
}

/// A scenario's `[black_powder_rules]` and `[dickenson_rules]` (here through `--set`, as a sweep
/// point or a compare variant lays them) change that ruleset's battles exactly as the same
/// values in its own file do: fought with them, the battles are those of a ruleset built from
/// the changed file, to the bit, and not those of the built-in one. Each is read by its own
/// ruleset alone.
#[test]
fn each_rulesets_values_change_for_one_scenario() {
    use ecw_sim::rules::Ironsides;
    use ecw_sim::rules::black_powder::BlackPowderRules;
    use ecw_sim::rules::black_powder::battle::BlackPowder;
    use ecw_sim::rules::dickenson::DickensonRules;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    use ecw_sim::scenario::Scenario;
    let setup = |sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Scenario::open("marston_moor", &sets)
            .unwrap()
            .setup()
            .unwrap()
    };
    let plain = setup(&[]);
    let changed = setup(&[
        "dickenson_rules.battle.charge_sees_the_way=false",
        "black_powder_rules.army.army_broken_share=0.3",
    ]);

    let mut dk = DickensonRules::builtin();
    dk.battle.charge_sees_the_way = false;
    let want = fought(&Dickenson::new(dk), &plain, 10);
    assert_eq!(fought(&Dickenson::builtin(), &changed, 10), want);
    assert_ne!(fought(&Dickenson::builtin(), &plain, 10), want);

    let mut bp = BlackPowderRules::builtin();
    bp.army.army_broken_share = 0.3;
    let want = fought(&BlackPowder::new(bp), &plain, 10);
    assert_eq!(fought(&BlackPowder::builtin(), &changed, 10), want);
    assert_ne!(fought(&BlackPowder::builtin(), &plain, 10), want);

    assert_eq!(
        fought(&Ironsides, &changed, 10),
        fought(&Ironsides, &plain, 10)
    );
}

/// A bad key or value in `[black_powder_rules]` or `[dickenson_rules]` is refused by its whole
/// key, whichever ruleset would fight, and nothing is fought.
#[test]
fn a_bad_value_for_another_ruleset_is_refused_by_its_key() {
    for (set, words) in [
        (
            "dickenson_rules.battle.nope=1",
            "key `dickenson_rules.battle.nope`: unknown field",
        ),
        (
            "dickenson_rules.battle.contact_gap=-1",
            "key `dickenson_rules.battle.contact_gap`",
        ),
        (
            "black_powder_rules.army.army_broken_share=nan",
            "key `black_powder_rules.army.army_broken_share`",
        ),
    ] {
        refused(&["validate", "marston_moor", "--set", set], words);
    }
}

/// A change to a ruleset's values is fought only where some battle of the command reads it:
/// `compare` across rulesets takes Ironsides' `[rules]` when Ironsides is in the list, and
/// refuses it when none is (tests/bad_input.rs has the single-ruleset commands).
#[test]
fn a_change_some_ruleset_of_a_compare_reads_is_taken() {
    let dir = scratch("rulesets-read");
    let out = dir.join("out");
    let args = |list: &'static str| {
        vec![
            "compare",
            "duel_horse",
            "--ruleset",
            list,
            "--set",
            "rules.movement.line_max=8",
            "--battles",
            "20",
            "--quiet",
            "--force",
            "--out",
            s(&out),
        ]
    };
    run_ok(&args("ironsides,black_powder"));
    refused_all(
        &args("black_powder,dickenson"),
        &[
            "rules.movement.line_max",
            "fought under black_powder and dickenson only",
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every ruleset fights to the scenario's `turn_limit` (written in the file or set with
/// `--set`), and to its own default where the scenario writes none; `turn_limit` says which.
#[test]
fn every_ruleset_fights_to_the_scenarios_turn_limit() {
    use ecw_sim::dice::battle_seed;
    use ecw_sim::events::NullObserver;
    use ecw_sim::rules::black_powder::battle::BlackPowder;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    use ecw_sim::rules::{Ironsides, Ruleset};
    use ecw_sim::scenario::Scenario;

    fn kept<R: Ruleset>(rules: &R, default: u16) {
        for (name, set, limit) in [
            ("small_action", None, default),
            ("duel_horse", None, 8),
            ("small_action", Some("turn_limit=2"), 2),
        ] {
            let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
            let setup = Scenario::load_builtin(name, &set)
                .and_then(|s| s.setup())
                .unwrap();
            let what = format!("{} {name} {set:?}", rules.name());
            assert_eq!(rules.turn_limit(&setup), limit, "{what}");
            let mut battle = rules.new_battle(&setup);
            let longest = (0..40)
                .map(|i| {
                    let seed = battle_seed(4, i);
                    rules
                        .fight(&mut battle, &setup, seed, &mut NullObserver)
                        .turns
                })
                .max()
                .unwrap();
            assert!(longest <= limit, "{what}: {longest}");
            if limit == 2 {
                assert_eq!(longest, 2, "{what}: some battles reach the limit");
            }
        }
    }
    kept(&Ironsides, 16);
    kept(&BlackPowder::builtin(), 12);
    kept(&Dickenson::builtin(), 12);
}

/// The key the refusal of `break_fraction` names for each ruleset's army break
/// (`Ruleset::army_break_key`) is a key that ruleset's battles read, as it says: set so that an
/// army breaks sooner (a small share lost or broken, a large share left), the battles are
/// shorter.
#[test]
fn each_rulesets_army_break_key_changes_its_battles_as_it_says() {
    use ecw_sim::rules::army_break_key;
    let dir = scratch("army-break-key");
    for ruleset in ["ironsides", "black_powder", "dickenson"] {
        let (key, share) = army_break_key(ruleset)
            .unwrap()
            .expect("every ruleset says");
        let sooner = if share.contains(" left ") { 0.95 } else { 0.05 };
        let variant = format!("sooner:{key}={sooner}");
        let out = run_ok(&[
            "compare",
            "small_action",
            "--ruleset",
            ruleset,
            "--battles",
            "200",
            "--variant",
            &variant,
            "--out",
            s(&dir.join(ruleset)),
        ]);
        assert!(
            !out.contains("the same as the baseline"),
            "{ruleset} {key}: {out}"
        );
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with("battle_length_turns"))
            .unwrap_or_else(|| panic!("{out}"));
        let cols: Vec<f64> = line
            .split_whitespace()
            .skip(1)
            .take(2)
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(
            cols[1] < cols[0],
            "{ruleset} {key}: shorter battles: {line}"
        );
    }
}

/// Each battle of `scenario` under `rules`, one by one, with the scenario's `sets`.
fn battles<R: ecw_sim::rules::Ruleset>(
    rules: &R,
    scenario: &str,
    sets: &[String],
    n: u64,
) -> Vec<Vec<ecw_sim::events::Event>> {
    let setup = ecw_sim::scenario::Scenario::open(scenario, sets)
        .and_then(|s| s.setup())
        .unwrap();
    let mut b = rules.new_battle(&setup);
    (0..n)
        .map(|i| {
            let mut log = ecw_sim::events::EventLog::default();
            rules.fight(&mut b, &setup, ecw_sim::dice::battle_seed(1, i), &mut log);
            log.0
        })
        .collect()
}

/// Who moves first, under Black Powder and Dickenson: the roll-off at the start of the battle,
/// told once, just after turn 1 begins; or, by the what-if lever `key`, one side always, the
/// roll-off's dice still thrown. Named as the roll-off had it, a battle is the same battle,
/// event for event, but for the roll-off's line (so the roll-off's winner is the side that
/// moved first); named the other way, most battles differ.
fn the_roll_off_is_told_and_the_lever_changes_only_who_moves_first<R: ecw_sim::rules::Ruleset>(
    rules: &R,
    scenario: &str,
    key: &str,
) {
    use ecw_sim::army::Side;
    use ecw_sim::events::Event;
    let n = 12;
    let rolled = battles(rules, scenario, &[], n);
    let named = |side: Side| battles(rules, scenario, &[format!("{key}={}", side.name())], n);
    let (parliament, royalist) = (named(Side::Parliament), named(Side::Royalist));
    let (mut firsts, mut differ) = ([0; 2], 0);
    for (i, events) in rolled.iter().enumerate() {
        let told: Vec<(usize, Side, [u8; 2])> = (events.iter().enumerate())
            .filter_map(|(k, e)| match *e {
                Event::Initiative { turn, first, rolls } => Some((k, first, rolls, turn)),
                _ => None,
            })
            .map(|(k, first, rolls, turn)| {
                assert_eq!(turn, 1);
                (k, first, rolls)
            })
            .collect();
        let [(at, first, rolls)] = told[..] else {
            panic!("{key}: one roll-off told in battle {i}: {told:?}");
        };
        assert_eq!(events[at - 1], Event::TurnStarted { turn: 1 });
        assert_eq!(first == Side::Parliament, rolls[0] > rolls[1], "{rolls:?}");
        firsts[first.index()] += 1;
        let (same, other) = match first {
            Side::Parliament => (&parliament[i], &royalist[i]),
            Side::Royalist => (&royalist[i], &parliament[i]),
        };
        let mut expected = events.clone();
        expected.remove(at);
        assert_eq!(same, &expected, "{key}: battle {i}");
        differ += usize::from(other != &expected);
    }
    assert!(firsts[0] > 0 && firsts[1] > 0, "{key}: {firsts:?}");
    assert!(differ >= 10, "{key}: {differ} of {n} battles changed");
}

#[test]
fn black_powder_and_dickenson_tell_their_roll_off_and_a_lever_names_who_moves_first() {
    use ecw_sim::rules::black_powder::battle::BlackPowder;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    the_roll_off_is_told_and_the_lever_changes_only_who_moves_first(
        &BlackPowder::builtin(),
        "marston_moor",
        "black_powder_rules.command.first_mover",
    );
    the_roll_off_is_told_and_the_lever_changes_only_who_moves_first(
        &Dickenson::builtin(),
        "marston_moor",
        "dickenson_rules.battle.first_mover",
    );
}

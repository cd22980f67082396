//! `ecw-sim calibrate`: every historical battle under every ruleset, the same table on any thread
//! count, its odds the same battles `run` fights, and each battle's deciding arm one that fought.

use std::path::PathBuf;
use std::process::Command;

use ecw_sim::army::{Arm, Side};
use ecw_sim::cli::calibrate::{fight_under, historical_scenarios};
use ecw_sim::events::Outcome;
use ecw_sim::rules::RULESETS;
use ecw_sim::scenario::Scenario;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ecw-sim"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ecw-calibrate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn calibrate(threads: &str, out: &PathBuf) -> String {
    let o = binary()
        .args([
            "calibrate",
            "--battles",
            "64",
            "--quiet",
            "--threads",
            threads,
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out.join("calibration.csv")).unwrap()
}

#[test]
fn the_table_is_the_same_on_any_thread_count_and_matches_run() {
    let (a, b) = (temp("one"), temp("two"));
    let one = calibrate("1", &a);
    assert_eq!(one, calibrate("2", &b), "thread count changed the table");
    let scenarios = historical_scenarios().unwrap();
    assert!(scenarios.len() >= 8);
    assert_eq!(one.lines().count(), 1 + scenarios.len() * RULESETS.len());
    // Each historical battle once under every ruleset, in a table of its own per ruleset.
    for ruleset in RULESETS {
        let rows = one
            .lines()
            .filter(|l| l.contains(&format!(",{ruleset},")))
            .count();
        assert_eq!(rows, scenarios.len(), "{ruleset}");
    }
    let md = std::fs::read_to_string(a.join("calibration.md")).unwrap();
    assert_eq!(md.matches("| Naseby").count(), RULESETS.len(), "{md}");
    for ruleset in RULESETS {
        assert!(md.contains(&format!("Under {ruleset}:")), "{md}");
    }
    // A second calibration into the same folder needs --force.
    let again = binary()
        .args(["calibrate", "--battles", "8", "--quiet", "--out"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));

    // Langport's P(Parliament) is the p_win `run` reports for the same 64 battles.
    let run_out = temp("run");
    let o = binary()
        .args([
            "run",
            "langport",
            "--battles",
            "64",
            "--quiet",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&run_out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let outcomes = std::fs::read_to_string(run_out.join("outcomes.csv")).unwrap();
    let wins: u64 = outcomes
        .lines()
        .find(|l| l.starts_with("side,parliament,parliament,parliament,p_win,"))
        .and_then(|l| l.split(',').nth(6))
        .unwrap()
        .parse()
        .unwrap();
    let row = one.lines().find(|l| l.starts_with("langport,")).unwrap();
    let p_parliament: f64 = row.split(',').nth(11).unwrap().parse().unwrap();
    assert_eq!((p_parliament * 64.0).round() as u64, wins, "{row}");
    for d in [a, b, run_out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn the_deciding_arm_is_one_that_fought() {
    for ruleset in RULESETS {
        deciding_arm_is_one_that_fought(ruleset);
    }
}

fn deciding_arm_is_one_that_fought(ruleset: &str) {
    let go = std::sync::atomic::AtomicBool::new(false);
    let fight = |setup, seed, n| fight_under(ruleset, setup, (seed, n), &go).unwrap();
    let horse = Scenario::load_builtin("duel_horse", &[])
        .unwrap()
        .setup()
        .unwrap();
    for f in fight(&horse, 3, 200) {
        if matches!(f.outcome, Outcome::Won(_)) {
            assert_eq!(f.deciding_arm, Some(Arm::Horse), "{ruleset}: {f:?}");
        }
    }
    let mixed = Scenario::load_builtin("duel_foot_vs_horse", &[])
        .unwrap()
        .setup()
        .unwrap();
    let fought = fight(&mixed, 3, 300);
    // One arm a side: whoever wins, the arm that did it is the winner's (foot for Parliament,
    // horse for the Royalists).
    let mut winners = [0; 2];
    for f in &fought {
        if let Outcome::Won(w) = f.outcome {
            winners[w.index()] += 1;
            let arm = match w {
                Side::Parliament => Arm::Foot,
                Side::Royalist => Arm::Horse,
            };
            assert_eq!(f.deciding_arm, Some(arm), "{ruleset}: {f:?}");
        }
    }
    assert!(winners[0] + winners[1] > 0, "{ruleset}: some duels are won");
    if ruleset == "ironsides" {
        // Both arms win some duels, so each is named as the decider somewhere.
        assert!(winners[0] > 0 && winners[1] > 0, "{winners:?}");
    }
}

#[test]
fn a_scenario_without_history_is_refused() {
    let out = temp("nohistory");
    let o = binary()
        .args([
            "calibrate",
            "duel_horse",
            "--battles",
            "8",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("duel_horse") && e.contains("[history]"), "{e}");
    assert!(!out.exists(), "nothing written");
    // A named historical scenario alone is fought alone.
    let o = binary()
        .args(["calibrate", "naseby", "--battles", "8", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("calibration.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + RULESETS.len());
    assert!(csv.lines().nth(1).unwrap().starts_with("naseby,"));
    let _ = std::fs::remove_dir_all(&out);
}

//! Replays: the same (scenario, seed, battle) tells the same story twice, and battle I replayed
//! alone is battle I of a batch run.

use std::process::Command;

mod common;

use common::cli::run_ok;

#[test]
fn two_replays_print_identical_narratives() {
    for battle in ["0", "7"] {
        let a = run_ok(&["replay", "small_action", "--seed", "3", "--battle", battle]);
        let b = run_ok(&["replay", "small_action", "--seed", "3", "--battle", battle]);
        assert_eq!(a, b);
        assert!(a.contains("== Turn 1 =="), "{a}");
        assert!(a.contains("Result:"), "{a}");
        assert!(a.contains("CV by turn"), "{a}");
    }
    let c = run_ok(&[
        "replay",
        "small_action",
        "--seed",
        "3",
        "--battle",
        "0",
        "--format",
        "csv",
    ]);
    assert!(c.starts_with("seq,turn,event,"));
    assert!(c.lines().last().unwrap().contains("battle_ended"));
}

#[test]
fn replay_of_battle_i_is_battle_i_of_a_run() {
    let dir = std::env::temp_dir().join(format!("ecw-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    run_ok(&[
        "run",
        "small_action",
        "--battles",
        "40",
        "--seed",
        "5",
        "--per-battle",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let rows = std::fs::read_to_string(dir.join("battles.csv")).unwrap();
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for i in [0usize, 13, 39] {
        let row: Vec<&str> = rows.lines().nth(i + 1).unwrap().split(',').collect();
        assert_eq!(row[col("battle")], i.to_string());
        let events = run_ok(&[
            "replay",
            "small_action",
            "--seed",
            "5",
            "--battle",
            &i.to_string(),
            "--format",
            "csv",
        ]);
        let end = events.lines().last().unwrap();
        let f: Vec<&str> = end.split(',').collect();
        // The replay's last event: battle_ended with the turn as value and the winner as detail.
        let turns = f[7];
        let winner = f[9].trim_end_matches("_won");
        assert_eq!(turns, row[col("turns")], "battle {i} turns");
        let expected = match row[col("winner")] {
            "draw" | "" => "draw",
            w => w,
        };
        assert_eq!(winner, expected, "battle {i} winner");
        // CV lost by each side, from the army-broken events or the narrative's totals.
        let dice: u64 = events
            .lines()
            .filter(|l| !l.contains(",turn_started,"))
            .count() as u64;
        assert!(dice > 0);
    }
    // And the narrative's CV totals match the row's.
    let story = run_ok(&["replay", "small_action", "--seed", "5", "--battle", "13"]);
    let row: Vec<&str> = rows.lines().nth(14).unwrap().split(',').collect();
    for side in ["parliament", "royalist"] {
        let lost = row[col(&format!("cv_lost_{side}"))];
        let start = row[col(&format!("cv_start_{side}"))];
        let broke = format!("The {side} army breaks: {lost} of {start} CV lost");
        let lost_n: u32 = lost.parse().unwrap();
        let start_n: u32 = start.parse().unwrap();
        if story.contains(&format!("The {side} army breaks")) {
            assert!(story.contains(&broke), "{broke} in\n{story}");
        } else {
            assert!(f64::from(lost_n) < 0.5 * f64::from(start_n));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_draws_a_map() {
    let path = std::env::temp_dir().join(format!("ecw-map-{}.svg", std::process::id()));
    run_ok(&[
        "replay",
        "marston_moor",
        "--battle",
        "2",
        "--map",
        path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // Every unit at deployment, the survivors at the end, and the ground's hedges and ditch.
    let setup = ecw_sim::scenario::Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let units = svg.matches("<polygon").count() - setup.ground.areas.len();
    assert!(
        units > setup.units.len(),
        "{units} unit rectangles for {} units",
        setup.units.len()
    );
    assert!(svg.matches("<line").count() >= setup.ground.obstacles.len());
    let _ = std::fs::remove_file(&path);
    // A map that is neither an SVG nor a PNG file (tests/map_png.rs draws PNGs) is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_ecw-sim"))
        .args(["replay", "duel_horse", "--map", "x.gif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Each ruleset's replay (text, events CSV and page) tells strength and losses in its own
/// currency, the text's loss lines are the CSV's loss rows, and only Ironsides says "CV".
#[test]
fn each_ruleset_replays_in_its_own_currency() {
    let loss_line = |rs: &str, n: &str, cause: &str, left: &str| match rs {
        "ironsides" => format!(" loses {n} CV ({cause}): CV {left}"),
        "black_powder" if n == "1" => format!(" takes 1 casualty ({cause}): {left} stamina left"),
        "black_powder" => format!(" takes {n} casualties ({cause}): {left} stamina left"),
        _ if n == "1" => format!(" loses 1 figure ({cause}): {left} figures left"),
        _ => format!(" loses {n} figures ({cause}): {left} figures left"),
    };
    // A loss row's line: its amount, cause (the CSV's name, the text's words) and what is
    // left, in the ruleset's words.
    let words = |rs: &str, n: &str, cause: &str, left: &str| {
        let cause = match cause {
            "Fire" => "by fire",
            "Melee" => "in melee",
            "Pursuit" => "in pursuit",
            "GeneralCasualty" => "its general fallen",
            "CampLost" => "its camp taken",
            "GeneralLeft" => "its general gone",
            other => panic!("{rs}: a loss cause with no words: {other}"),
        };
        loss_line(rs, n, cause, left)
    };
    for (rs, kind, column, strength, paths) in [
        ("ironsides", "cv_lost", "cv", "CV", "CV by turn"),
        (
            "black_powder",
            "casualties_lost",
            "stamina",
            "stamina left",
            "Stamina left by turn",
        ),
        (
            "dickenson",
            "figures_lost",
            "figures",
            "figures left",
            "Figures left by turn",
        ),
    ] {
        let args = ["replay", "marston_moor", "--ruleset", rs, "--seed", "3"];
        let text = run_ok(&args);
        let csv = run_ok(&[&args[..], &["--format", "csv"]].concat());
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert_eq!(header[8], column, "{rs}");
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let losses: Vec<&Vec<&str>> = rows.iter().filter(|r| r[2] == kind).collect();
        assert!(!losses.is_empty(), "{rs}: no {kind} rows");
        // Every loss row is a line of the text, in the currency, with its amount and what is left.
        let lines: Vec<&str> = text.lines().collect();
        // (A name two units share is told with the side: "... of Parliament".)
        for r in &losses {
            let told = |side: &str| format!("{}{side}{}", r[4], words(rs, r[7], r[9], r[8]));
            assert!(
                ["", " of Parliament", " of the Royalists"]
                    .iter()
                    .any(|side| lines.contains(&told(side).as_str())),
                "{rs}: no {:?} in the text",
                told("")
            );
        }
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{paths} (start"))),
            "{rs}: no {paths}"
        );
        let page = std::env::temp_dir().join(format!("ecw-words-{rs}-{}.html", std::process::id()));
        run_ok(&[&args[..], &["--html", page.to_str().unwrap(), "--force"]].concat());
        let html = std::fs::read_to_string(&page).unwrap();
        let _ = std::fs::remove_file(&page);
        assert!(
            html.contains(&format!("the number is {strength} (paler")),
            "{rs}"
        );
        if rs != "ironsides" {
            assert!(!text.contains("CV"), "{rs}: CV in the text");
            assert!(
                !rows.iter().any(|r| r[2].starts_with("cv")),
                "{rs}: a cv kind in the CSV"
            );
            let story = html.split("<div id=\"story\">").nth(1).unwrap();
            assert!(!story.contains("CV"), "{rs}: CV on the page");
        }
    }
}

/// A general lost and replaced: the man who takes up his post is told as his successor from
/// then on, in the story and on the replay page alike, never by the lost man's name alone.
#[test]
fn a_replacement_general_is_told_as_the_lost_mans_successor() {
    let dir = std::env::temp_dir().join(format!("ecw-successor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("b2.html");
    // Battle 2 of Marston Moor: Lord Byron is lost, and a replacement leads his men after.
    let story = run_ok(&[
        "replay",
        "marston_moor",
        "--battle",
        "2",
        "--html",
        page.to_str().unwrap(),
        "--force",
    ]);
    let (before, after) = story
        .split_once("A replacement takes up the post of Lord Byron\n")
        .expect("Byron is replaced in this battle");
    assert!(before.contains("Lord Byron is hit"), "{before}");
    // (His regiment, Prince Rupert's and Lord Byron's Foot, keeps its name.)
    let successor = after.matches("Lord Byron's successor").count();
    assert!(successor > 3, "{after}");
    for line in after.lines() {
        assert!(
            !line.replace("Lord Byron's", "").contains("Lord Byron"),
            "{line}"
        );
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("Lord Byron's successor rides"),
        "the page tells it too"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

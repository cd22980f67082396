//! The HTML pages, read as files: what each chart shows is counted against the CSV it is
//! drawn from; a merged run's report shows what a single run's does; bad folders are refused.
//! (tests/browser.rs opens the same pages in a browser.)

mod common;

use std::path::Path;

use common::cli::{ok, refused, run_ok, s, scratch};

/// The `data-marks` of each chart figure, in page order.
fn marks(html: &str) -> Vec<usize> {
    html.split("<figure class=\"chart\"")
        .skip(1)
        .map(|f| {
            let n = f.split("data-marks=\"").nth(1).unwrap();
            n[..n.find('"').unwrap()].parse().unwrap()
        })
        .collect()
}

/// The `class="mark"` elements of the figure whose caption starts with `caption`.
fn marks_drawn(html: &str, caption: &str) -> usize {
    let at = html
        .find(&format!("<figcaption>{caption}"))
        .unwrap_or_else(|| panic!("no figure `{caption}`"));
    let start = html[..at].rfind("<figure").unwrap();
    html[start..at].matches("class=\"mark\"").count()
}

fn rows(dir: &Path, file: &str, f: impl Fn(&csv::StringRecord) -> bool) -> usize {
    let mut r = csv::Reader::from_path(dir.join(file)).unwrap();
    r.records().map(|x| x.unwrap()).filter(|x| f(x)).count()
}

fn assert_self_contained(html: &str) {
    let outside = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for bad in [
        "http:", "https:", "src=", "<link", "@import", "url(", "<img",
    ] {
        assert!(!outside.contains(bad), "found {bad}");
    }
}

#[test]
fn a_run_report_draws_what_its_csv_files_hold() {
    let dir = scratch("run");
    let out = dir.join("mm");
    ok(&[
        "run",
        "--battles",
        "200",
        "--out",
        s(&out),
        "--quiet",
        "--report",
    ]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_self_contained(&html);
    // Battle length: one bar per length seen.
    let lengths = rows(&out, "outcomes.csv", |r| &r[4] == "battle_length_turns");
    assert!(lengths > 3);
    assert_eq!(
        marks_drawn(&html, "Battle length: the share of 200 battles"),
        lengths
    );
    // One forest point per unit, one table row per unit, one loss chart per side and command.
    let units = rows(&out, "cv_losses.csv", |r| {
        &r[0] == "unit" && &r[4] == "p_destroyed"
    });
    assert_eq!(marks_drawn(&html, "Each unit's chance"), units);
    assert_eq!(html.matches("<td class=\"spark\"").count(), units);
    let groups = rows(&out, "cv_losses.csv", |r| {
        &r[0] != "unit" && &r[4] == "p_destroyed"
    });
    assert_eq!(
        html.matches("): CV lost in each of 200 battles").count(),
        groups
    );
    // Every chart says what it shows, and of how many battles.
    let figures = marks(&html).len();
    assert!(figures >= 10 + groups, "{figures} charts");
    assert!(marks(&html).iter().all(|m| *m > 0));
    for caption in html.split("<figcaption>").skip(1) {
        let caption = &caption[..caption.find("</figcaption>").unwrap()];
        assert!(
            caption.contains("battles") || caption.contains("battle 0"),
            "{caption}"
        );
    }
    for section in [
        "outcome",
        "losses",
        "units",
        "pursuits",
        "commanders",
        "ratings",
        "map",
        "manifest",
    ] {
        assert!(
            html.contains(&format!("<h2 id=\"{section}\">")),
            "{section}"
        );
    }
    // The map at deployment is the scenario's: every unit drawn.
    let map = &html[html.find("<h2 id=\"map\">").unwrap()..];
    assert!(map.matches("<polygon").count() >= units);
}

#[test]
fn a_merged_runs_report_shows_what_a_single_runs_does() {
    let dir = scratch("merged");
    let (one, merged) = (dir.join("one"), dir.join("merged"));
    let args = ["duel_horse", "--battles", "600", "--seed", "3", "--quiet"];
    ok(&[&["run"][..], &args, &["--out", s(&one), "--report"]].concat());
    for k in 1..=2 {
        let shard = format!("{k}/2");
        ok(&[
            &["run"][..],
            &args,
            &["--shard", &shard, "--out", s(&dir.join(format!("s{k}")))],
        ]
        .concat());
    }
    ok(&[
        "merge",
        s(&dir.join("s1")),
        s(&dir.join("s2")),
        "--out",
        s(&merged),
        "--quiet",
    ]);
    let printed = run_ok(&["report", s(&merged)]);
    assert!(printed.contains("report.html"));
    let a = std::fs::read_to_string(one.join("report.html")).unwrap();
    let b = std::fs::read_to_string(merged.join("report.html")).unwrap();
    // Everything but the manifest (timing, shards) is the same page.
    let cut = |h: &str| h[..h.find("<h2 id=\"manifest\">").unwrap()].to_string();
    assert_eq!(cut(&a), cut(&b));
    assert!(b.contains("2 shard(s)"));
}

#[test]
fn report_refuses_a_folder_without_a_finished_run() {
    let dir = scratch("refuse");
    refused(&["report", s(&dir)], "no manifest.json");
    refused(&["report", s(&dir.join("missing"))], "no manifest.json");
    refused(
        &[
            "run",
            "--shard",
            "1/2",
            "--report",
            "--out",
            s(&dir.join("s")),
        ],
        "ecw-sim report DIR",
    );
    assert!(!dir.join("s").exists());
    std::fs::write(dir.join("manifest.json"), "{").unwrap();
    refused(&["report", s(&dir)], "manifest.json");
    assert!(!dir.join("report.html").exists());
}

#[test]
fn compare_balance_and_sweep_pages_draw_every_row_of_their_csv() {
    let dir = scratch("whatif");
    let c = dir.join("compare");
    ok(&[
        "compare",
        "duel_horse",
        "--variant",
        "short:turn_limit=3",
        "--variant",
        "long:turn_limit=12",
        "--battles",
        "200",
        "--out",
        s(&c),
        "--quiet",
    ]);
    let html = std::fs::read_to_string(c.join("compare.html")).unwrap();
    assert_self_contained(&html);
    let n = rows(&c, "compare.csv", |_| true);
    assert_eq!(marks(&html).iter().sum::<usize>(), n);
    assert!(
        marks(&html).iter().all(|m| *m == 2),
        "two variants a measure"
    );

    let b = dir.join("balance");
    ok(&[
        "balance",
        "--side-a",
        "parliament:1642,1644",
        "--side-b",
        "royalist:1642,1644",
        "--battles",
        "60",
        "--out",
        s(&b),
        "--quiet",
    ]);
    let html = std::fs::read_to_string(b.join("balance.html")).unwrap();
    let n = rows(&b, "balance.csv", |_| true);
    assert_eq!(
        marks(&html),
        [n, n],
        "a heat-map cell and a forest point per pair"
    );

    let w = dir.join("sweep");
    ok(&[
        "sweep",
        "duel_horse",
        "--param",
        "turn_limit=3,6,12",
        "--battles",
        "60",
        "--out",
        s(&w),
        "--quiet",
    ]);
    let html = std::fs::read_to_string(w.join("sweep.html")).unwrap();
    let n = rows(&w, "sweep.csv", |_| true);
    assert_eq!(marks(&html).iter().sum::<usize>(), n);
    assert!(
        marks(&html).iter().all(|m| *m == 3),
        "three grid points a measure"
    );
}

#[test]
fn the_replay_page_carries_every_event_and_unit_of_the_battle() {
    let dir = scratch("replay");
    let page = dir.join("b.html");
    let csv = run_ok(&[
        "replay",
        "small_action",
        "--seed",
        "5",
        "--battle",
        "2",
        "--format",
        "csv",
        "--html",
        s(&page),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    let data = html
        .split("<script type=\"application/json\" id=\"data\">")
        .nth(1)
        .unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
    let events = csv.lines().count() - 1;
    assert_eq!(data["steps"].as_array().unwrap().len(), events);
    let moves = csv
        .lines()
        .filter(|l| l.split(',').nth(2) == Some("moved"))
        .count();
    let move_steps = data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["k"] == "move")
        .count();
    assert_eq!(moves, move_steps);
    let text = run_ok(&["validate", "small_action"]);
    let units = data["units"].as_array().unwrap();
    assert!(units.len() >= 4);
    for u in units {
        assert!(text.contains(u["name"].as_str().unwrap()), "{}", u["name"]);
        assert_eq!(u["corners"].as_array().unwrap().len(), 4);
    }
    assert!(html.contains("<input id=\"step\" type=\"range\" min=\"0\" max=\""));
    assert_self_contained(&html.replace("'http://www.w3.org/2000/svg'", ""));
    refused(
        &["replay", "--html", s(&dir.join("b.svg"))],
        "name it FILE.html",
    );
}

/// Each ruleset's files say its own unit of loss (`cv_lost`, `casualties_lost`,
/// `figures_lost`): the losses file, the measures, the per-battle columns and the report's
/// charts; shards merge into the same files, and the report reads them.
#[test]
fn each_rulesets_files_and_report_name_its_currency() {
    let dir = scratch("currency");
    for ruleset in ecw_sim::rules::RULESETS {
        let c = ecw_sim::rules::currency(ruleset).unwrap();
        let losses = format!("{c}_losses.csv");
        assert!(ecw_sim::report::RESULT_FILES.contains(&losses.as_str()));
        let (one, merged) = (dir.join(ruleset), dir.join(format!("{ruleset}-merged")));
        let args = [
            "small_action",
            "--ruleset",
            ruleset,
            "--battles",
            "120",
            "--seed",
            "2",
            "--per-battle",
            "--quiet",
        ];
        ok(&[&["run"][..], &args, &["--out", s(&one), "--report"]].concat());
        for k in ["1/2", "2/2"] {
            ok(&[&["run"][..], &args, &["--shard", k, "--out", s(&merged)]].concat());
        }
        ok(&["merge", s(&merged), "--quiet"]);
        common::cli::assert_same_results(&one, &merged);
        let files = common::cli::files_in(&one);
        let named: Vec<&String> = files
            .iter()
            .filter(|f| f.ends_with("_losses.csv"))
            .collect();
        assert_eq!(named, [&losses], "{ruleset}");
        let lost = format!("{c}_lost");
        assert!(
            rows(&one, &losses, |r| &r[4] == lost.as_str()) > 0,
            "{ruleset}"
        );
        let margin = format!("break_margin_{c}");
        assert!(rows(&one, "outcomes.csv", |r| &r[4] == margin.as_str()) > 0);
        let battles = std::fs::read_to_string(one.join("battles.csv")).unwrap();
        let header = battles.lines().next().unwrap();
        assert!(
            header.contains(&format!(
                ",{c}_start_parliament,{c}_start_royalist,{c}_lost_parliament,"
            )),
            "{header}"
        );
        assert!(header.ends_with(&format!(",margin_{c}")), "{header}");
        // The report draws one loss chart per side and command, in the currency's words.
        run_ok(&["report", s(&merged)]);
        let label = if c == "cv" { "CV" } else { c };
        let groups = rows(&one, &losses, |r| &r[0] != "unit" && &r[4] == "p_destroyed");
        for d in [&one, &merged] {
            let html = std::fs::read_to_string(d.join("report.html")).unwrap();
            let caption = format!("): {label} lost in each of 120 battles");
            assert_eq!(html.matches(&caption).count(), groups, "{ruleset}");
            assert!(html.contains(&format!("mean {label} lost")), "{ruleset}");
        }
    }
}

/// The summary's "most likely killed or mortally wounded" is the general with the most battles
/// in which he was killed or mortally wounded, and that share: the two results together (a
/// general so struck leaves the battle, so they never fall in one battle), not the larger.
#[test]
fn the_deadliest_general_counts_death_and_mortal_wound_together() {
    let root = scratch("deadliest");
    let out = root.join("mm");
    let printed = run_ok(&["run", "marston_moor", "--battles", "300", "--out", s(&out)]);
    let line = printed
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Most likely killed or mortally wounded: ")
        })
        .expect("a general is struck in 300 battles")
        .to_string();
    let csv = std::fs::read_to_string(out.join("commanders.csv")).unwrap();
    let mut struck: std::collections::BTreeMap<(u32, String), u64> = Default::default();
    for row in csv.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        if f[4] == "p_horrible_death" || f[4] == "p_mortal_wound" {
            let id: u32 = f[1].parse().unwrap();
            *struck.entry((id, f[2].to_string())).or_default() += f[6].parse::<u64>().unwrap();
        }
    }
    // The most struck, the first listed among equals.
    let (name, k) = struck
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.0.cmp(&a.0.0)))
        .map(|((_, n), k)| (n.clone(), *k))
        .unwrap();
    let want = format!("{name} {:.1}%", 100.0 * k as f64 / 300.0);
    assert_eq!(line, want, "{printed}");
    let _ = std::fs::remove_dir_all(&root);
}

/// The CV lost that `run` reports (each battle's row, the collector's count) is the CV lost the
/// engine counts for the army-break rule (the battle's summary, which `compare` and `sweep`
/// report), battle by battle under every ruleset, on scenarios with guns whose crews run.
#[test]
fn the_losses_reported_are_the_losses_the_army_break_counts() {
    use ecw_sim::dice::battle_seed;
    use ecw_sim::rules::Ironsides;
    use ecw_sim::rules::Ruleset;
    use ecw_sim::rules::black_powder::battle::BlackPowder;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    use ecw_sim::scenario::Scenario;
    use ecw_sim::stats::Collector;
    fn same<R: Ruleset>(rules: &R, name: &str) -> usize {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut c = Collector::new(&rules.layout(&setup), true);
        let mut b = rules.new_battle(&setup);
        let mut lost = Vec::new();
        for i in 0..300 {
            c.begin(i, battle_seed(1, i));
            let s = rules.fight(&mut b, &setup, battle_seed(1, i), &mut c);
            c.end(s.dice_rolled);
            lost.push(s.cv_lost);
        }
        let (_, rows) = c.take();
        let rows: Vec<[u32; 2]> = rows.iter().map(|r| r.cv_lost).collect();
        assert_eq!(rows, lost, "{} {name}", rules.name());
        rows.len()
    }
    for name in ["small_action", "marston_moor"] {
        assert_eq!(same(&Ironsides, name), 300);
        same(&BlackPowder::builtin(), name);
        same(&Dickenson::builtin(), name);
    }
}

/// A ruleset's own measures (`measures.csv`) are in its report: a table of every side's
/// totals and shares, one row a measure, and a forest plot of each share by command (a Black
/// Powder brigade's break among them). Ironsides declares none, and its report has no such
/// section.
#[test]
fn a_rulesets_own_measures_are_in_its_report() {
    let dir = scratch("own-measures");
    let out = dir.join("naseby");
    ok(&[
        "run",
        "naseby",
        "--ruleset",
        "black_powder",
        "--battles",
        "200",
        "--out",
        s(&out),
        "--quiet",
        "--report",
    ]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_self_contained(&html);
    let section = &html[html
        .find("<h2 id=\"measures\">")
        .expect("a measures section")..];
    let section = &section[..section.find("<h2 id=\"map\">").unwrap_or(section.len())];
    // One table row per side-scope mean or share.
    let side_measures = rows(&out, "measures.csv", |r| {
        &r[0] == "side"
            && &r[1] == "parliament"
            && (r[4].ends_with("_mean") || r[4].starts_with("p_"))
    });
    assert!(side_measures > 15, "{side_measures}");
    let table = &section[..section.find("</table>").unwrap()];
    assert_eq!(table.matches("<tr>").count() - 1, side_measures);
    // One forest a share, one mark a command with battles to share.
    let shares: Vec<String> = {
        let mut r = csv::Reader::from_path(out.join("measures.csv")).unwrap();
        let mut names: Vec<String> = Vec::new();
        for x in r.records().map(Result::unwrap) {
            if &x[0] == "command" && x[4].starts_with("p_") && !names.iter().any(|n| n == &x[4]) {
                names.push(x[4].to_string());
            }
        }
        names
    };
    assert!(shares.contains(&"p_brigade_broken".to_string()));
    for measure in &shares {
        let commands = rows(&out, "measures.csv", |r| {
            &r[0] == "command" && &r[4] == measure
        });
        assert_eq!(
            marks_drawn(section, &format!("{measure} by command")),
            commands,
            "{measure}"
        );
    }
    // Ironsides writes no measures.csv, and its report has no such section.
    let iron = dir.join("iron");
    ok(&[
        "run",
        "small_action",
        "--battles",
        "50",
        "--out",
        s(&iron),
        "--quiet",
        "--report",
    ]);
    assert!(!iron.join("measures.csv").exists());
    let html = std::fs::read_to_string(iron.join("report.html")).unwrap();
    assert!(!html.contains("<h2 id=\"measures\">"));
}

//! Scenarios: every shipped file loads and builds; the historical orders of battle keep their
//! documented shape; bad input is refused with file, key and line; overrides; randomised ratings
//! match the table; `validate` and `list` through the binary.

mod common;

use common::cli::{ok, run_ok, shell_words};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecw_sim::army::{CommandKind, Formation, Side, SizeClass};
use ecw_sim::battlefield::{AreaKind, Vec2};
use ecw_sim::dice::{DiceSource, SeededDice};
use ecw_sim::scenario::ratings::cv_probabilities;
use ecw_sim::scenario::{self, BUILTIN, Scenario, roll_rating};
use ecw_sim::setup::{BattleSetup, CommanderSource, RatingSource};

/// A file under the system's temp folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("ecw-sim-scenarios-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}_{name}", N.fetch_add(1, Ordering::Relaxed)));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A small valid scenario that the error tests spoil one way at a time.
const BASE: &str = r#"name = "Test"

[parliament]
year = 1644
captain_general = "fairfax"

[parliament.commands.left_horse]
kind = "horse"
commander = "cromwell"
units = [
    { name = "A", type = "trotters", cv = 5, x = 10.0, y = 10.0 },
    { name = "B", type = "trotters", men = 300, rating = "randomised", x = 14.0, y = 10.0 },
]

[parliament.commands.foot]
kind = "foot"
commander = { roll = true }
commissary = true
lines = [ { from = [20.0, 10.0], to = [32.0, 10.0], units = [
    { name = "F1", type = "foot", men = 900, rating = "standard" },
    { name = "F2", type = "foot", men = 1100, rating = "standard" },
], second_line = { units = [ { name = "F3", type = "shot_heavy_foot", cv = 4 } ] } } ]

[royalist]
year = 1644
captain_general = "rupert"

[royalist.commands.horse]
kind = "horse"
commander = "average"
units = [
    { name = "R1", type = "gallopers", cv = 5, x = 10.0, y = 34.0, facing = 180.0 },
]

[royalist.commands.forlorn]
kind = "independent"
units = [ { name = "R2", type = "forlorn_hope", cv = 3, x = 30.0, y = 34.0 } ]
"#;

/// BASE with `from` replaced by `to` (which must be found).
fn spoil(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "`{from}` is not in BASE");
    BASE.replacen(from, to, 1)
}

/// Every problem a scenario text has, as the user sees them ("" when it is fine).
fn problems(text: &str, overrides: &[&str]) -> Vec<String> {
    let file = TempFile::new("scenario.toml", text.as_bytes());
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    match scenario::load(&file.0, &overrides) {
        Err(e) => vec![e.to_string()],
        Ok(sc) => match sc.check() {
            Ok(_) => Vec::new(),
            Err(es) => es.iter().map(|e| e.to_string()).collect(),
        },
    }
}

/// The one problem a text has; it must name the file.
fn problem(text: &str) -> String {
    let p = problems(text, &[]);
    assert_eq!(p.len(), 1, "expected one problem, got {p:#?}");
    assert!(
        p[0].contains("scenario.toml"),
        "the error must name the file: {}",
        p[0]
    );
    p[0].clone()
}

fn setup_of(text: &str, overrides: &[&str]) -> BattleSetup {
    let file = TempFile::new("scenario.toml", text.as_bytes());
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Scenario::load(&file.0, &overrides)
        .unwrap()
        .setup()
        .unwrap()
}

fn unit<'a>(s: &'a BattleSetup, name: &str) -> &'a ecw_sim::army::Unit {
    let i = s
        .names
        .units
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no unit {name}"));
    &s.units[i]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn every_scenario_file_loads_and_builds_and_is_built_in() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut builtin: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    builtin.sort();
    assert_eq!(
        files, builtin,
        "every file in configs/scenarios is embedded, and nothing else"
    );
    for name in &files {
        let path = dir.join(format!("{name}.toml"));
        let from_file = Scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
        let setup = from_file.setup().unwrap_or_else(|e| panic!("{e}"));
        let embedded = Scenario::load_builtin(name, &[]).unwrap();
        assert_eq!(
            embedded.source_text(),
            from_file.source_text(),
            "{name}: the binary embeds the file as it is"
        );
        assert!(embedded.is_builtin() && embedded.path().ends_with(format!("{name}.toml")));
        // The set-up's tables line up: ids are indices, one rating per unit, one source per general.
        assert_eq!(setup.ratings.len(), setup.units.len());
        assert_eq!(setup.commander_sources.len(), setup.commanders.len());
        assert_eq!(setup.names.units.len(), setup.units.len());
        for (i, u) in setup.units.iter().enumerate() {
            assert_eq!(usize::from(u.id), i);
            let c = &setup.commands[usize::from(u.command)];
            assert!(
                c.units.contains(&u.id) && c.side == u.side,
                "{name}: unit {i} is in its command"
            );
            assert!(u.start_cv >= 1 && u.start_cv <= setup.rules.limits.cv_max);
        }
        for (i, c) in setup.commands.iter().enumerate() {
            assert_eq!(usize::from(c.id), i);
            assert!(usize::from(c.doctrine) < setup.doctrines.len());
            assert!(
                c.commander.is_some() || c.kind == CommandKind::Independent,
                "{name}: command {i} has a commander"
            );
        }
        for side in Side::BOTH {
            assert!(setup.units_of(side).count() > 0);
            assert!(usize::from(setup.cg_doctrine[side.index()]) < setup.doctrines.len());
        }
    }
}

/// Units per command of the historical scenarios, as documented in docs/SCENARIOS.md.
fn counts(name: &str) -> BTreeMap<String, usize> {
    let setup = Scenario::load_builtin(name, &[]).unwrap().setup().unwrap();
    setup
        .commands
        .iter()
        .map(|c| {
            (
                format!("{}.{}", c.side, setup.command_name(c.id)),
                c.units.len(),
            )
        })
        .collect()
}

fn expect(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn marston_moor_order_of_battle() {
    let expected = expect(&[
        ("parliament.Left Wing Horse (Eastern Association)", 7),
        ("parliament.Scots Horse (David Leslie)", 3),
        ("parliament.Eastern Association Foot (Crawford)", 4),
        ("parliament.Northern Association Foot (Lord Fairfax)", 3),
        ("parliament.Scots Foot, front (Baillie)", 4),
        ("parliament.Scots Foot, second line (Lumsden)", 4),
        ("parliament.Right Wing Horse (Sir Thomas Fairfax)", 8),
        ("parliament.Commanded musketeers with Fairfax", 1),
        ("parliament.The Allied train", 5),
        ("royalist.Right Wing Horse (Lord Byron)", 7),
        ("royalist.Musketeers with Byron", 1),
        ("royalist.Prince Rupert's Foot (Tillier)", 5),
        ("royalist.Napier's forlorn hope", 1),
        ("royalist.Newcastle's Foot (Eythin)", 4),
        ("royalist.Blakiston's Brigade (centre horse)", 2),
        ("royalist.Left Wing Horse (Goring)", 6),
        ("royalist.Musketeers with Goring", 1),
        ("royalist.Reserve Horse (Widdrington)", 3),
        ("royalist.The Royalist train", 4),
    ]);
    assert_eq!(counts("marston_moor"), expected);
    let s = Scenario::load_builtin("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    assert_eq!(s.units_of(Side::Parliament).count(), 39);
    assert_eq!(s.units_of(Side::Royalist).count(), 34);
    let cg = |side: Side| {
        s.commander_name(s.captain_generals[side.index()].unwrap())
            .to_string()
    };
    assert_eq!(
        (cg(Side::Parliament), cg(Side::Royalist)),
        ("Earl of Leven".to_string(), "Prince Rupert".to_string())
    );
    for name in [
        "Oliver Cromwell",
        "Sir Thomas Fairfax",
        "Earl of Manchester",
        "Lord Fairfax",
        "David Leslie",
        "Lord Byron",
        "George Goring",
        "Lord Eythin",
        "Sir William Blakiston",
    ] {
        assert!(
            s.names.commanders.iter().any(|n| n == name),
            "{name} commands at Marston Moor"
        );
    }
    // The Allied front foot west to east as Young has it right to left: Manchester's, Fairfax's
    // one brigade, then Rae's, Hamilton's, Maitland's and Lindsay's, the last on the extreme right.
    let front: Vec<&str> = {
        let mut v: Vec<_> = s
            .units_of(Side::Parliament)
            .filter(|u| u.kind.key().contains("foot") && (u.pos.y - 16.0).abs() < 1e-9)
            .collect();
        v.sort_by(|a, b| a.pos.x.total_cmp(&b.pos.x));
        v.iter()
            .map(|u| s.names.units[usize::from(u.id)].as_str())
            .collect()
    };
    assert_eq!(
        front,
        [
            "Manchester's Foot",
            "Crawford's and Russell's Foot",
            "Lord Fairfax's and Constable's Foot",
            "James Rae's Foot (Edinburgh)",
            "General Hamilton's Foot",
            "Viscount Maitland's Foot",
            "Earl of Crawford-Lindsay's Foot",
        ]
    );
    // The ditch before the Royalist front, and Scots rated as Scots.
    assert!(
        s.ground
            .obstacles
            .iter()
            .any(|o| o.kind == ecw_sim::battlefield::ObstacleKind::Ditch)
    );
    assert_eq!(
        s.ratings[usize::from(unit(&s, "Viscount Maitland's Foot").id)],
        RatingSource::Randomised {
            rolls: [3, 3, 4, 4, 4, 5]
        }
    );
}

#[test]
fn naseby_order_of_battle() {
    let expected = expect(&[
        ("parliament.Okey's Dragoons (Sulby Hedges)", 2),
        ("parliament.Left Wing Horse (Ireton)", 6),
        ("parliament.The Foot (Skippon)", 8),
        ("parliament.The forlorn hope", 1),
        ("parliament.Right Wing Horse (Cromwell)", 6),
        ("parliament.The train", 5),
        ("royalist.Right Wing Horse (Rupert)", 3),
        ("royalist.Right Wing Horse, second line (Maurice)", 2),
        ("royalist.Musketeers with Rupert", 1),
        ("royalist.The Foot (Astley)", 7),
        ("royalist.Horse among the foot (Howard)", 2),
        ("royalist.Left Wing Horse (Langdale)", 4),
        ("royalist.Musketeers with Langdale", 1),
        ("royalist.The King's reserve (horse)", 3),
        ("royalist.The King's reserve (foot)", 2),
        ("royalist.The train", 2),
    ]);
    assert_eq!(counts("naseby"), expected);
    let s = Scenario::load_builtin("naseby", &[])
        .unwrap()
        .setup()
        .unwrap();
    assert_eq!(s.units_of(Side::Parliament).count(), 28);
    assert_eq!(s.units_of(Side::Royalist).count(), 27);
    // The Naseby Project's wings: the King 10,200 men, Parliament 14,900.
    let order = Scenario::load_builtin("naseby", &[])
        .unwrap()
        .order_of_battle("ruleset ironsides")
        .unwrap();
    assert!(
        order.contains("10200 men") && order.contains("14900 men"),
        "{order}"
    );
    // The King's reserve stands behind the centre, not behind Langdale's wing.
    let reserve_x = unit(&s, "King's Lifeguard of Foot").pos.x;
    assert!((24.0..=44.0).contains(&reserve_x), "{reserve_x}");
    // Rupert leads a wing under the King: a subordinate's halved radius (the text's own example).
    let rupert = s
        .commanders
        .iter()
        .find(|c| s.commander_name(c.id) == "Prince Rupert")
        .unwrap();
    assert!(!rupert.is_captain_general && close(rupert.rating.radius, 12.0));
    let charles = &s.commanders[usize::from(s.captain_generals[1].unwrap())];
    assert!(charles.is_captain_general && close(charles.rating.radius, 18.0));
    let ireton = s
        .commanders
        .iter()
        .find(|c| s.commander_name(c.id) == "Henry Ireton")
        .unwrap();
    assert_eq!((ireton.rating.lp_modifier, ireton.rating.rerolls), (1, 2));
    assert!(
        s.ground
            .obstacles
            .iter()
            .any(|o| o.kind == ecw_sim::battlefield::ObstacleKind::Hedge)
    );
    assert_eq!(
        unit(&s, "Okey's Dragoons (left companies)").formation,
        Formation::Dismounted
    );
}

#[test]
fn edgehill_order_of_battle() {
    let expected = expect(&[
        ("parliament.Hampden's Brigade (arriving at dusk)", 2),
        ("parliament.Left Wing Horse (Ramsay)", 4),
        ("parliament.Musketeers lining Ramsay's horse", 1),
        ("parliament.Charles Essex's Brigade", 4),
        ("parliament.Meldrum's Brigade", 4),
        ("parliament.Ballard's Brigade", 4),
        ("parliament.Right Wing Horse (Stapleton)", 2),
        ("parliament.Reserve Horse (Balfour)", 3),
        ("parliament.Dragoons in the Radway thickets", 2),
        ("parliament.The train", 3),
        ("royalist.Right Wing Horse (Rupert)", 5),
        ("royalist.Dragoons on the right", 1),
        ("royalist.The Foot, front (Astley)", 6),
        ("royalist.The Foot, second line (Sir Nicholas Byron)", 4),
        ("royalist.Left Wing Horse (Wilmot)", 5),
        ("royalist.Dragoons on the left (Aston)", 1),
        ("royalist.The train", 3),
    ]);
    assert_eq!(counts("edgehill"), expected);
    let s = Scenario::load_builtin("edgehill", &[])
        .unwrap()
        .setup()
        .unwrap();
    assert_eq!(s.units_of(Side::Parliament).count(), 29);
    assert_eq!(s.units_of(Side::Royalist).count(), 25);
    // BCW: Forth commanded the army on the day; Astley the foot.
    let cg = s.commander_name(s.captain_generals[1].unwrap());
    assert_eq!(cg, "Earl of Forth");
    assert!(s.names.commanders.iter().any(|n| n == "Sir Jacob Astley"));
    // Essex outnumbers the King (the sources), even without Hampden's late brigade.
    let order = Scenario::load_builtin("edgehill", &[])
        .unwrap()
        .order_of_battle("ruleset ironsides")
        .unwrap();
    assert!(
        order.contains("15450 men") && order.contains("13750 men"),
        "{order}"
    );
    // Wilmot, the Commissary-General, is rolled each battle with the ruleset's commissary modifier.
    let wilmot = s
        .commanders
        .iter()
        .find(|c| s.commander_name(c.id) == "Henry Wilmot")
        .unwrap();
    let modifier = s.rules.options.commissary_general_skill_modifier;
    assert_eq!(
        s.commander_sources[usize::from(wilmot.id)],
        CommanderSource::Rolled {
            skill_modifier: modifier
        }
    );
    assert!(
        s.ground.areas.iter().any(|a| a.kind == AreaKind::Hill),
        "the Edgehill slope"
    );
}

/// The built-in scenarios of real battles: those with a `[history]` table.
fn historical() -> Vec<&'static str> {
    BUILTIN
        .iter()
        .filter(|(_, text)| text.contains("\n[history]\n"))
        .map(|(n, _)| *n)
        .collect()
}

/// Commands that march on from elsewhere (marked `# arrival:` in their files), left out of the
/// check that the armies face each other: Hopton's Cornish came out of Devizes behind Waller.
const FROM_ELSEWHERE: [&str; 1] = ["Hopton's Cornish Foot (from Devizes)"];

#[test]
fn historical_armies_face_each_other_across_the_table() {
    let mut names = historical();
    assert!(names.len() >= 8, "{names:?}");
    names.push("small_action");
    for name in names {
        let s = Scenario::load_builtin(name, &[]).unwrap().setup().unwrap();
        let here = |u: &&ecw_sim::army::Unit| !FROM_ELSEWHERE.contains(&s.command_name(u.command));
        let mean_y = |side| {
            let ys: Vec<f64> = s.units_of(side).filter(here).map(|u| u.pos.y).collect();
            ys.iter().sum::<f64>() / ys.len() as f64
        };
        let gap = mean_y(Side::Royalist) - mean_y(Side::Parliament);
        assert!(
            (18.0..=34.0).contains(&gap),
            "{name}: the armies' centres are {gap:.1} inches apart"
        );
        for u in s
            .units_of(Side::Parliament)
            .filter(|u| !u.kind.mounted_sizes() || u.formation != Formation::Dismounted)
        {
            assert!(
                Vec2::from_facing(u.facing).y > 0.5,
                "{name}: {} faces the Royalists",
                s.unit_name(u.id)
            );
        }
        for u in s.units_of(Side::Royalist).filter(here) {
            assert!(
                Vec2::from_facing(u.facing).y < -0.5,
                "{name}: {} faces Parliament",
                s.unit_name(u.id)
            );
        }
    }
}

/// Every historical scenario names its sources with their addresses, says what it reconstructs,
/// and carries the day's result for `calibrate`; the late arrivals history had are marked.
#[test]
fn historical_scenarios_cite_sources_and_mark_reconstructions() {
    for name in historical() {
        let text = BUILTIN.iter().find(|(n, _)| *n == name).unwrap().1;
        assert!(
            text.contains("# Sources") || text.contains("#  - "),
            "{name}"
        );
        assert!(
            text.contains("https://") || text.contains("http://"),
            "{name}"
        );
        assert!(
            text.contains("econstructed"),
            "{name} says what is reconstructed"
        );
        let s = Scenario::load_builtin(name, &[]).unwrap();
        let h = s.file().history.as_ref().expect("a [history] table");
        assert_eq!(h.date.len(), 10, "{name}: {}", h.date);
        s.setup().unwrap();
    }
    for (name, arriving) in [
        ("edgehill", "Hampden"),
        ("marston_moor", "Rupert"),
        ("naseby", "reserve"),
        ("roundway_down", "Cornish"),
    ] {
        let text = BUILTIN.iter().find(|(n, _)| *n == name).unwrap().1;
        assert!(
            text.match_indices("# arrival:")
                .any(|(at, _)| text[at..].lines().take(8).any(|l| l.contains(arriving))),
            "{name}: an `# arrival:` note names {arriving}"
        );
    }
}

#[test]
fn the_base_scenario_builds_what_it_says() {
    let s = setup_of(BASE, &[]);
    let names: Vec<&str> = s.names.units.iter().map(String::as_str).collect();
    assert_eq!(
        names,
        ["A", "B", "F1", "F2", "F3", "R1", "R2"],
        "ids in file order"
    );
    assert_eq!(s.turn_limit, s.rules.scale.default_turn_limit);
    assert!(close(
        s.break_fraction,
        s.rules.scale.default_break_fraction
    ));
    assert!(close(s.ground.width, 72.0) && close(s.ground.depth, 48.0));
    // Positions, facings (degrees in the file, radians in the set-up).
    let a = unit(&s, "A");
    assert!(close(a.pos.x, 10.0) && close(a.pos.y, 10.0) && close(a.facing, 0.0));
    assert!(close(unit(&s, "R1").facing, std::f64::consts::PI));
    // The line spreads its units evenly; the second line stands 6" behind, opposite the facing.
    assert!(
        close(unit(&s, "F1").pos.x, 23.0)
            && close(unit(&s, "F2").pos.x, 29.0)
            && close(unit(&s, "F2").pos.y, 10.0)
    );
    let f3 = unit(&s, "F3");
    assert!(close(f3.pos.x, 26.0) && close(f3.pos.y, 4.0));
    // Sizes from men (horse thresholds halved), ratings from the table or fixed.
    assert_eq!(unit(&s, "F1").size, SizeClass::Normal);
    assert_eq!(unit(&s, "F2").size, SizeClass::Large);
    assert_eq!(unit(&s, "B").size, SizeClass::Small);
    assert_eq!(
        (unit(&s, "A").start_cv, s.ratings[0]),
        (5, RatingSource::Fixed)
    );
    assert_eq!(
        s.ratings[1],
        RatingSource::Randomised {
            rolls: [4, 4, 5, 5, 6, 7]
        }
    );
    assert_eq!(
        (unit(&s, "F1").start_cv, s.ratings[2]),
        (4, RatingSource::Fixed)
    );
    // Commanders: ids in order, named subordinates at half radius, the commissary's rolled modifier.
    let cg = &s.commanders[usize::from(s.captain_generals[0].unwrap())];
    assert!(
        cg.is_captain_general
            && close(cg.rating.radius, 24.0)
            && s.commander_name(cg.id) == "Sir Thomas Fairfax"
    );
    let cromwell = &s.commanders[usize::from(s.commands[0].commander.unwrap())];
    assert!(
        close(cromwell.rating.radius, 15.0)
            && cromwell.rating.lp_modifier == 4
            && !cromwell.is_captain_general
    );
    assert_eq!(cromwell.command, Some(0));
    assert!(
        close(cromwell.pos.x, 12.0) && close(cromwell.pos.y, 10.0),
        "at his command's centroid"
    );
    let foot = s.commands[1].commander.unwrap();
    assert_eq!(
        s.commander_sources[usize::from(foot)],
        CommanderSource::Rolled {
            skill_modifier: s.rules.options.commissary_general_skill_modifier
        }
    );
    assert!(s.commands[1].commissary);
    let average = &s.commanders[usize::from(s.commands[2].commander.unwrap())];
    assert!(close(
        average.rating.radius,
        s.rules.average_commander.subordinate_radius
    ));
    assert_eq!(
        s.commands[3].commander, None,
        "an independent command needs no commander"
    );
    // The Captain-General behind the middle of his army, not attached.
    assert!(cg.pos.y < 8.0 && cg.attached_unit.is_none() && cg.attached_command.is_none());
    // Doctrines by command kind and side, each loaded once.
    let doctrine = |c: usize| {
        s.doctrines[usize::from(s.commands[c].doctrine)]
            .name
            .as_str()
    };
    assert_eq!(
        [doctrine(0), doctrine(1), doctrine(2), doctrine(3)],
        ["cromwell", "hold_the_line", "rupert", "forlorn_hope"]
    );
    assert_eq!(
        s.doctrines.len(),
        5,
        "cautious for the Captains-General and four others"
    );
}

#[test]
fn overrides_change_the_battle() {
    let s = setup_of(
        BASE,
        &[
            "turn_limit=20",
            "royalist.captain_general=cromwell",
            "parliament.commands.left_horse.units.0.cv=6",
            "table.width = 80",
            "parliament.commands.foot.lines.0.units.1.name=Second Foot",
            "royalist.commands.horse.commander={ name = \"Lord Byron\", lp_modifier = 1, radius = 8.0, rerolls = 2 }",
        ],
    );
    assert_eq!(s.turn_limit, 20, "a key the file leaves out");
    assert!(close(s.ground.width, 80.0), "a table the file leaves out");
    assert_eq!(unit(&s, "A").start_cv, 6);
    assert!(
        s.names.units.iter().any(|n| n == "Second Foot"),
        "an unquoted string"
    );
    let cg = &s.commanders[usize::from(s.captain_generals[1].unwrap())];
    assert_eq!(s.commander_name(cg.id), "Oliver Cromwell");
    assert!(
        close(cg.rating.radius, 30.0),
        "as Captain-General his full radius"
    );
    assert!(s.names.commanders.iter().any(|n| n == "Lord Byron"));
}

#[test]
fn overrides_of_unknown_paths_list_the_nearest() {
    let e = problems(BASE, &["turn_limt=20"]);
    assert!(
        e[0].contains("turn_limt") && e[0].contains("did you mean `turn_limit`"),
        "{e:?}"
    );
    let e = problems(BASE, &["parliament.commands.left_hors.units.0.cv=6"]);
    assert!(e[0].contains("`parliament.commands.left_horse`"), "{e:?}");
    let e = problems(BASE, &["parliament.commands.left_horse.units.0.cvv=6"]);
    assert!(
        e[0].contains("`parliament.commands.left_horse.units.0.cv`")
            && e[0].contains("valid here:"),
        "{e:?}"
    );
    let e = problems(BASE, &["parliament.commands.left_horse.units.5.cv=6"]);
    assert!(e[0].contains("has 2 entries"), "{e:?}");
    let e = problems(BASE, &["parliament.commands.left_horse.commander.radius=6"]);
    assert!(e[0].contains("not a table"), "{e:?}");
    let e = problems(BASE, &["nonsense"]);
    assert!(e[0].contains("PATH=VALUE"), "{e:?}");
    // A value of the wrong type is blamed on the override that gave it.
    let e = problems(BASE, &["turn_limit=soon"]);
    assert!(
        e[0].contains("--set turn_limit=soon") && e[0].contains("key `turn_limit`"),
        "{e:?}"
    );
    // A value checked after loading says which override set it.
    let e = problems(BASE, &["parliament.commands.left_horse.units.0.cv=9"]);
    assert!(
        e[0].contains("CV 9") && e[0].contains("set by --set"),
        "{e:?}"
    );
    // Several bad overrides: all reported.
    let e = problems(BASE, &["turn_limt=20", "break_fractoin=0.4"]);
    assert!(
        e[0].contains("turn_limt") && e[0].contains("break_fractoin"),
        "{e:?}"
    );
}

#[test]
fn the_turn_limit_and_break_fraction_are_refused_out_of_their_range() {
    for (set, words) in [
        ("turn_limit = 0", "must be from 1 to 1000 turns, got 0"),
        (
            "turn_limit = 1001",
            "must be from 1 to 1000 turns, got 1001",
        ),
        ("break_fraction = 0.0", "must be above 0 and at most 1"),
        ("break_fraction = 1.5", "must be above 0 and at most 1"),
    ] {
        let e = problem(&spoil(
            "name = \"Test\"",
            &format!("name = \"Test\"\n{set}"),
        ));
        let key = set.split(' ').next().unwrap();
        assert!(
            e.contains(":2:") && e.contains(key) && e.contains(words),
            "{e}"
        );
    }
    for good in [
        "turn_limit = 1",
        "turn_limit = 1000",
        "break_fraction = 1.0",
    ] {
        let text = spoil("name = \"Test\"", &format!("name = \"Test\"\n{good}"));
        assert_eq!(problems(&text, &[]), Vec::<String>::new(), "{good}");
    }
}

#[test]
fn a_unit_needs_a_name_a_known_type_and_one_size() {
    let e = problem(&spoil("name = \"A\", ", "name = \" \", "));
    assert!(
        e.contains("units.0.name") && e.contains("a unit needs a name"),
        "{e}"
    );
    let e = problem(&spoil(
        "type = \"trotters\", cv = 5",
        "type = \"trotter\", cv = 5",
    ));
    assert!(
        e.contains("units.0.type")
            && e.contains("unknown unit type `trotter`; did you mean trotters? (types: "),
        "{e}"
    );
    let e = problem(&spoil("men = 300,", "men = 300, size = \"large\","));
    assert!(
        e.contains("units.1") && e.contains("give either `men` or `size`, not both"),
        "{e}"
    );
    let e = problem(&spoil("men = 300,", "men = 0,"));
    assert!(
        e.contains("units.1.men") && e.contains("a unit needs more than 0 men"),
        "{e}"
    );
}

#[test]
fn bad_keys_and_types_are_refused_with_their_line() {
    let e = problem(&spoil("cv = 5, x = 10.0", "cv = 5, bogus = 1, x = 10.0"));
    assert!(
        e.contains(":11:")
            && e.contains("bogus")
            && e.contains("parliament.commands.left_horse.units.0.bogus"),
        "{e}"
    );
    let e = problem(&spoil("kind = \"foot\"\n", ""));
    assert!(
        e.contains("missing field `kind`") && e.contains("parliament.commands.foot"),
        "{e}"
    );
    let e = problem(&spoil(
        "type = \"trotters\", cv = 5",
        "type = \"hussars\", cv = 5",
    ));
    assert!(
        e.contains("unknown unit type `hussars`")
            && e.contains(":11:")
            && e.contains("units.0.type"),
        "{e}"
    );
    let e = problem(&spoil("name = \"A\", ", ""));
    assert!(
        e.contains("missing field `name`") && e.contains(":11:"),
        "{e}"
    );
    let e = problem(&spoil(
        "[royalist]\nyear = 1644",
        "[royalist]\nyear = \"1644\"",
    ));
    assert!(
        e.contains("royalist.year") && e.contains("invalid type"),
        "{e}"
    );
    let e = problem("name = [unclosed\n");
    assert!(e.contains(":1:"), "{e}");
}

#[test]
fn bad_values_are_refused_with_their_line() {
    let e = problem(&spoil("cv = 5, x = 10.0", "cv = 9, x = 10.0"));
    assert!(
        e.contains("CV 9 is outside 1..=7")
            && e.contains(":11:")
            && e.contains("left_horse.units.0.cv"),
        "{e}"
    );
    let e = problem(&spoil("cv = 5, x = 10.0", "cv = 0, x = 10.0"));
    assert!(e.contains("CV 0"), "{e}");
    let e = problem(&spoil(
        "commander = \"cromwell\"",
        "commander = \"cromwel\"",
    ));
    assert!(
        e.contains("unknown commander `cromwel`")
            && e.contains("did you mean cromwell")
            && e.contains(":9:"),
        "{e}"
    );
    let e = problem(&spoil(
        "[parliament]\nyear = 1644",
        "[parliament]\nyear = 1641",
    ));
    assert!(
        e.contains("unknown rating year 1641")
            && e.contains("parliament.year")
            && e.contains(":4:"),
        "{e}"
    );
    let e = problem(&spoil(
        "rating = \"randomised\", x = 14.0",
        "rating = \"randomised\", rating_side = \"french\", x = 14.0",
    ));
    assert!(
        e.contains("unknown rating side `french`") && e.contains("units.1.rating_side"),
        "{e}"
    );
    let e = problem(&spoil("commander = \"cromwell\"\n", ""));
    assert!(
        e.contains("needs a commander")
            && e.contains("parliament.commands.left_horse")
            && e.contains(":7:"),
        "{e}"
    );
    let e = problem(&spoil("{ name = \"B\"", "{ name = \"A\""));
    assert!(
        e.contains("`A` is already in this army") && e.contains("units.1.name"),
        "{e}"
    );
    let e = problem(&spoil(
        "commander = \"average\"",
        "commander = \"average\"\ndoctrine = \"rupertt\"",
    ));
    assert!(
        e.contains("unknown doctrine `rupertt`") && e.contains("did you mean rupert"),
        "{e}"
    );
}

#[test]
fn units_overlapping_or_off_the_table_are_refused() {
    // B 3" from A's centre: they touch (3" frontage) but do not overlap.
    assert!(problems(&spoil("x = 14.0, y = 10.0", "x = 13.0, y = 10.0"), &[]).is_empty());
    let e = problem(&spoil("x = 14.0, y = 10.0", "x = 12.0, y = 10.0"));
    assert!(
        e.contains("`B` overlaps `A`") && e.contains("left_horse.units.1") && e.contains(":12:"),
        "{e}"
    );
    // Turned side-on, B's rectangle reaches A only when close enough.
    let e = problem(&spoil(
        "x = 14.0, y = 10.0",
        "x = 11.9, y = 10.0, facing = 90.0",
    ));
    assert!(e.contains("overlaps"), "{e}");
    let e = problem(&spoil("x = 10.0, y = 34.0", "x = 71.0, y = 34.0"));
    assert!(
        e.contains("`R1`") && e.contains("off the 72 x 48 table"),
        "{e}"
    );
    let e = problem(&spoil("x = 30.0, y = 34.0", "x = 30.0, y = 60.0"));
    assert!(e.contains("`R2`") && e.contains("off the"), "{e}");
}

#[test]
fn terrain_must_close_and_obstacles_must_be_lines() {
    let open =
        format!("{BASE}\n[[terrain.areas]]\nkind = \"woods\"\npoints = [[1.0, 1.0], [5.0, 1.0]]\n");
    let e = problem(&open);
    assert!(
        e.contains("closed polygon") && e.contains("terrain.areas.0.points"),
        "{e}"
    );
    let flat = format!(
        "{BASE}\n[[terrain.areas]]\nkind = \"bog\"\npoints = [[1.0, 1.0], [5.0, 1.0], [9.0, 1.0], [1.0, 1.0]]\n"
    );
    assert!(problem(&flat).contains("closed polygon"));
    let ok = format!(
        "{BASE}\n[[terrain.areas]]\nkind = \"bog\"\npoints = [[1.0, 1.0], [5.0, 1.0], [5.0, 4.0], [1.0, 1.0]]\n[[terrain.obstacles]]\nkind = \"wall\"\nfrom = [0.0, 20.0]\nto = [10.0, 20.0]\n[[terrain.obstacles]]\nkind = \"stream\"\npoints = [[0.0, 22.0], [10.0, 24.0], [20.0, 22.0]]\nseverity = 0.0\n[[terrain.camps]]\nside = \"royalist\"\nx = 36.0\ny = 46.0\nradius = 2.0\nentrenched = true\n"
    );
    let s = setup_of(&ok, &[]);
    assert_eq!(
        s.ground.areas[0].points.len(),
        3,
        "a written-closed polygon keeps 3 corners"
    );
    assert_eq!(
        s.ground.obstacles.len(),
        3,
        "a wall and a stream of two segments"
    );
    assert!(s.ground.obstacles[0].hard_cover && !s.ground.obstacles[1].hard_cover);
    assert!(close(s.ground.obstacles[2].severity, 0.0));
    assert!(s.ground.camps[0].entrenched);
    let both = format!("{BASE}\n[[terrain.obstacles]]\nkind = \"hedge\"\nfrom = [0.0, 20.0]\n");
    assert!(problem(&both).contains("give either `from` and `to`"));
    let one = format!("{BASE}\n[[terrain.obstacles]]\nkind = \"hedge\"\npoints = [[0.0, 20.0]]\n");
    let e = problem(&one);
    assert!(
        e.contains("at least 2 points") && e.contains("terrain.obstacles.0.points"),
        "{e}"
    );
    let camp = format!(
        "{BASE}\n[[terrain.camps]]\nside = \"royalist\"\nx = 80.0\ny = 46.0\nradius = 2.0\n"
    );
    let e = problem(&camp);
    assert!(
        e.contains("camp at (80, 46) is off the 72 x 48 table") && e.contains("terrain.camps.0"),
        "{e}"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = spoil("cv = 5, x = 10.0", "cv = 9, x = 10.0")
        .replacen("commander = \"average\"", "commander = \"nobody\"", 1)
        .replacen("x = 30.0, y = 34.0", "x = 30.0, y = 70.0", 1);
    let p = problems(&text, &[]);
    assert_eq!(p.len(), 3, "{p:#?}");
    // `setup` folds them into one error that still lists each.
    let file = TempFile::new("many.toml", text.as_bytes());
    let e = Scenario::load(&file.0, &[])
        .unwrap()
        .setup()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("3 problems")
            && e.contains("CV 9")
            && e.contains("nobody")
            && e.contains("off the"),
        "{e}"
    );
}

#[test]
fn unreadable_files_are_refused() {
    let bad = TempFile::new("latin1.toml", b"name = \"Marston \xe9\"\n");
    let e = Scenario::load(&bad.0, &[]).unwrap_err().to_string();
    assert!(e.contains("latin1.toml") && e.contains("UTF-8"), "{e}");
    let empty = TempFile::new("empty.toml", b"  \n");
    let e = Scenario::load(&empty.0, &[]).unwrap_err().to_string();
    assert!(e.contains("empty.toml") && e.contains("empty"), "{e}");
    let huge = TempFile::new("huge.toml", b"");
    std::fs::File::options()
        .write(true)
        .open(&huge.0)
        .unwrap()
        .set_len(50 * 1024 * 1024)
        .unwrap();
    let e = Scenario::load(&huge.0, &[]).unwrap_err().to_string();
    assert!(e.contains("huge.toml") && e.contains("limit"), "{e}");
    let e = Scenario::load(Path::new("/no/such/scenario.toml"), &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("/no/such/scenario.toml"), "{e}");
    let e = Scenario::open("no_such_battle", &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("marston_moor"), "{e}");
}

#[test]
fn a_doctrine_file_beside_the_scenarios_is_found() {
    let dir = std::env::temp_dir().join(format!("ecw-sim-doctrine-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::create_dir_all(dir.join("doctrines")).unwrap();
    let text = include_str!("../configs/doctrines/cautious.toml")
        .replace("name = \"cautious\"", "name = \"timid\"");
    std::fs::write(dir.join("doctrines/timid.toml"), text).unwrap();
    let path = dir.join("scenarios/x.toml");
    std::fs::write(
        &path,
        BASE.replacen(
            "commander = \"average\"",
            "commander = \"average\"\ndoctrine = \"timid\"",
            1,
        ),
    )
    .unwrap();
    let s = Scenario::load(&path, &[]).unwrap().setup().unwrap();
    assert_eq!(
        s.doctrines[usize::from(s.commands[2].doctrine)].name,
        "timid"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Chi-square critical values at alpha = 0.001 by degrees of freedom (1..=5).
const CHI2_CRITICAL_001: [f64; 5] = [10.828, 13.816, 16.266, 18.467, 20.515];

#[test]
fn randomised_ratings_follow_the_table() {
    // One randomised unit of Marston Moor: Cromwell's troops, Parliament 1644 horse [4 4 5 5 6 7].
    let s = Scenario::load_builtin("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let u = unit(&s, "Cromwell's Horse (Cromwell's troops)");
    let source = s.ratings[usize::from(u.id)];
    let RatingSource::Randomised { rolls } = source else {
        panic!("randomised")
    };
    assert_eq!(rolls, [4, 4, 5, 5, 6, 7]);
    let n = 10_000u32;
    let mut dice = SeededDice::new(0x1644_0702);
    let mut seen: BTreeMap<u8, u32> = BTreeMap::new();
    for _ in 0..n {
        *seen
            .entry(roll_rating(&source, u.start_cv, &mut dice))
            .or_default() += 1;
    }
    assert_eq!(dice.rolled(), u64::from(n), "one die per randomised rating");
    let table = cv_probabilities(&rolls);
    assert!(
        seen.keys().all(|cv| table.iter().any(|(c, _)| c == cv)),
        "only the row's CVs: {seen:?}"
    );
    // Pearson's chi-square over the distinct CVs; df = categories - 1; reject at alpha = 0.001.
    let chi2: f64 = table
        .iter()
        .map(|&(cv, p)| {
            let expected = p * f64::from(n);
            let observed = f64::from(*seen.get(&cv).unwrap_or(&0));
            (observed - expected).powi(2) / expected
        })
        .sum();
    let df = table.len() - 1;
    assert_eq!(df, 3);
    assert!(
        chi2 < CHI2_CRITICAL_001[df - 1],
        "chi-square {chi2:.3} with {df} df exceeds {} (alpha 0.001)",
        CHI2_CRITICAL_001[df - 1]
    );
    // The engine rolls through RatingSource::roll: the same answer, die for die.
    let (mut a, mut b) = (SeededDice::new(7), SeededDice::new(7));
    for _ in 0..1000 {
        assert_eq!(
            roll_rating(&source, u.start_cv, &mut a),
            source.roll(u.start_cv, &mut b)
        );
    }
    // A fixed rating keeps the template and rolls nothing.
    let mut d = SeededDice::new(1);
    assert_eq!(roll_rating(&RatingSource::Fixed, 5, &mut d), 5);
    assert_eq!(d.rolled(), 0);
}

fn binary() -> Process {
    Process::new(env!("CARGO_BIN_EXE_ecw-sim"))
}

#[test]
fn validate_prints_the_order_of_battle() {
    let out = binary()
        .args(["validate", "marston_moor", "--set", "turn_limit=20"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "Marston Moor",
        "turn limit 20",
        "Oliver Cromwell",
        "Newcastle's Whitecoats",
        "CV 5, fixed",
        "D6: 4 4 5 5 6 7",
        "strength: 39 units",
        "strength: 34 units",
    ] {
        assert!(text.contains(want), "`{want}` missing from:\n{text}");
    }
    let file = TempFile::new("ok.toml", BASE.as_bytes());
    let out = binary().arg("validate").arg(&file.0).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Sir Thomas Fairfax"));
}

#[test]
fn validate_lists_every_error_and_fails() {
    let text = spoil("cv = 5, x = 10.0", "cv = 9, x = 10.0").replacen(
        "commander = \"average\"",
        "commander = \"nobody\"",
        1,
    );
    let file = TempFile::new("bad.toml", text.as_bytes());
    let out = binary().arg("validate").arg(&file.0).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("bad.toml:11:") && err.contains("CV 9"),
        "{err}"
    );
    assert!(err.contains("unknown commander `nobody`"), "{err}");
    assert!(err.contains("2 problem(s) found"), "{err}");
    let out = binary()
        .args([
            "validate",
            "duel_horse",
            "--set",
            "royalist.commands.hors.kind=foot",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean `royalist.commands.horse`")
    );
}

#[test]
fn list_shows_scenarios_commanders_doctrines_and_ratings() {
    let out = binary().arg("list").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "marston_moor",
        "naseby",
        "edgehill",
        "duel_horse",
        "cromwell",
        "Prince Rupert",
        "hold_the_line",
        "scots",
        "4/5",
    ] {
        assert!(text.contains(want), "`{want}` missing from:\n{text}");
    }
    let out = binary().args(["list", "doctrines"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("forlorn_hope") && !text.contains("marston_moor"));
    // The scenarios' titles stand in one column, however long a name.
    let out = binary().args(["list", "scenarios"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let columns: std::collections::BTreeSet<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .map(|l| l.len() - l.split_once(' ').unwrap().1.trim_start().len())
        .collect();
    assert_eq!(columns.len(), 1, "{text}");
}

#[test]
fn the_documented_example_and_what_ifs_work() {
    let doc = include_str!("../docs/SCENARIOS.md");
    let start = doc.find("```toml\n").expect("an example") + "```toml\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let s = setup_of(&doc[start..end], &[]);
    assert_eq!(s.units.len(), 7, "the annotated example builds");
    let mut ran = 0;
    for line in doc
        .lines()
        .filter(|l| l.starts_with("ecw-sim validate ") && !l.contains("my_battle"))
    {
        let args = shell_words(line);
        let out = binary().args(&args[1..]).output().unwrap();
        assert!(
            out.status.success(),
            "`{line}`: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 5, "the documented what-ifs ran ({ran})");
}

/// The doctrine each command of a set-up has, by command name.
fn doctrines_by_command(s: &BattleSetup) -> BTreeMap<String, String> {
    s.commands
        .iter()
        .map(|c| {
            (
                s.command_name(c.id).to_string(),
                s.doctrines[usize::from(c.doctrine)].name.clone(),
            )
        })
        .collect()
}

#[test]
fn a_side_doctrine_acts_army_wide() {
    let plain = doctrines_by_command(&setup_of(BASE, &[]));
    let s = setup_of(BASE, &["parliament.doctrine=hold_the_line"]);
    let set = doctrines_by_command(&s);
    // Parliament's wing and foot, naming none, take the army's; the Royalists are untouched.
    assert_eq!(plain["Left Horse"], "cromwell");
    assert_eq!(set["Left Horse"], "hold_the_line");
    assert_eq!(set["Foot"], "hold_the_line");
    assert_eq!(set["Horse"], plain["Horse"]);
    assert_eq!(set["Forlorn"], "forlorn_hope");
    assert_eq!(
        s.doctrines[usize::from(s.cg_doctrine[0])].name,
        "hold_the_line"
    );
    // A command's own doctrine still comes first.
    let own = setup_of(
        &spoil(
            "commander = \"cromwell\"\n",
            "commander = \"cromwell\"\ndoctrine = \"cautious\"\n",
        ),
        &["parliament.doctrine=hold_the_line"],
    );
    assert_eq!(doctrines_by_command(&own)["Left Horse"], "cautious");
    // And it changes the battles: the army's horse holds back instead of charging.
    let fight = |s, seed, n| {
        let go = std::sync::atomic::AtomicBool::new(false);
        ecw_sim::cli::calibrate::fight_under("ironsides", s, (seed, n), &go).unwrap()
    };
    let small = |o: &[&str]| {
        let o: Vec<String> = o.iter().map(|s| s.to_string()).collect();
        Scenario::load_builtin("small_action", &o)
            .unwrap()
            .setup()
            .unwrap()
    };
    assert_ne!(
        fight(&small(&[]), 1, 100),
        fight(&small(&["royalist.doctrine=hold_the_line"]), 1, 100)
    );
}

#[test]
fn the_same_general_twice_in_an_army_is_refused() {
    let e = problem(&spoil(
        "commander = \"average\"\nunits = [\n    { name = \"R1\"",
        "commander = \"rupert\"\nunits = [\n    { name = \"R1\"",
    ));
    assert!(
        e.contains("`Prince Rupert` already commands at `royalist.captain_general`"),
        "{e}"
    );
    assert!(e.contains("royalist.commands.horse.commander"), "{e}");
    let e = problem(&spoil(
        "commander = { roll = true }",
        "commander = { name = \"Oliver Cromwell\", roll = true }",
    ));
    assert!(
        e.contains("already commands at `parliament.commands.left_horse.commander`"),
        "{e}"
    );
    // The same name in the two armies is no clash, nor are average commanders.
    assert!(
        problems(
            &spoil(
                "captain_general = \"rupert\"",
                "captain_general = { name = \"Sir Thomas Fairfax\", roll = true }"
            ),
            &[]
        )
        .is_empty()
    );
}

#[test]
fn rating_alt_is_inherited_from_the_command_and_the_side() {
    // Parliament 1645 foot: standard 4, "4/5" read high 5.
    let cv = |o: &[&str], name: &str| {
        let mut all = vec!["parliament.year=1645"];
        all.extend_from_slice(o);
        unit(&setup_of(BASE, &all), name).start_cv
    };
    assert_eq!(cv(&[], "F1"), 4);
    assert_eq!(cv(&["parliament.rating_alt=true"], "F1"), 5);
    assert_eq!(cv(&["parliament.commands.foot.rating_alt=true"], "F2"), 5);
    // The command's setting comes before the side's, the unit's before both.
    assert_eq!(
        cv(
            &[
                "parliament.rating_alt=true",
                "parliament.commands.foot.rating_alt=false"
            ],
            "F1"
        ),
        4
    );
    assert_eq!(
        cv(
            &[
                "parliament.commands.foot.rating_alt=true",
                "parliament.commands.foot.lines.0.units.0.rating_alt=false"
            ],
            "F1"
        ),
        4
    );
    // Randomised and fixed units are not touched by an inherited setting.
    let s = setup_of(
        BASE,
        &["parliament.year=1645", "parliament.rating_alt=true"],
    );
    assert_eq!(unit(&s, "A").start_cv, 5);
    assert!(matches!(
        s.ratings[usize::from(unit(&s, "B").id)],
        RatingSource::Randomised { .. }
    ));
}

#[test]
fn size_classes_in_the_docs_are_the_rulesets() {
    let r = ecw_sim::rules::ironsides::IronsidesRules::builtin();
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/SCENARIOS.md"))
            .unwrap();
    let z = &r.sizes;
    let half = |n: u32| (f64::from(n) * z.horse_factor) as u32;
    let m = |c: SizeClass| {
        let v = r.close_combat.size.get(c);
        assert_eq!(v, r.fire.size.get(c), "fire and close combat agree");
        if v > 0 {
            format!("+{v}")
        } else {
            v.to_string()
        }
    };
    let rows = [
        format!(
            "| `very_large` | {} or more | {} or more | {} |",
            z.very_large_min,
            half(z.very_large_min),
            m(SizeClass::VeryLarge)
        ),
        format!(
            "| `large` | {} to {} | {} to {} | {} |",
            z.large_min,
            z.very_large_min - 1,
            half(z.large_min),
            half(z.very_large_min) - 1,
            m(SizeClass::Large)
        ),
        format!(
            "| `normal` (the default without `men`) | {} to {} | {} to {} | {} |",
            z.small_max + 1,
            z.large_min - 1,
            half(z.small_max) + 1,
            half(z.large_min) - 1,
            m(SizeClass::Normal)
        ),
        format!(
            "| `small` | {} to {} | {} to {} | {} |",
            z.really_small_max,
            z.small_max,
            half(z.really_small_max),
            half(z.small_max),
            m(SizeClass::Small)
        ),
        format!(
            "| `really_small` | under {} | under {} | {} |",
            z.really_small_max,
            half(z.really_small_max),
            m(SizeClass::ReallySmall)
        ),
    ];
    for row in rows {
        assert!(doc.contains(&row), "docs/SCENARIOS.md lacks `{row}`");
    }
    // The classes as the builder makes them, at the edges.
    for (men, mounted, class) in [
        (1200, false, SizeClass::VeryLarge),
        (999, false, SizeClass::Normal),
        (500, false, SizeClass::Small),
        (499, false, SizeClass::ReallySmall),
        (600, true, SizeClass::VeryLarge),
        (350, true, SizeClass::Small),
        (249, true, SizeClass::ReallySmall),
    ] {
        assert_eq!(
            r.size_class(men, mounted),
            class,
            "{men} men, mounted {mounted}"
        );
    }
}

/// `validate` names the ruleset a run of the scenario is fought under (the file's, or
/// `--ruleset`) and says how an army breaks under it: by CV lost, by brigades (with each
/// army's count of those that count), or by morale points.
#[test]
fn validate_says_how_an_army_breaks_under_its_ruleset() {
    let validate = |args: &[&str]| run_ok(&[&["validate"][..], args].concat());
    let ironsides = validate(&["marston_moor"]);
    assert!(
        ironsides
            .contains("ruleset ironsides: turn limit 12; an army breaks at 50% of its CV lost"),
        "{ironsides}"
    );
    // The file names Black Powder: so does the order of battle.
    let shot = validate(&["bp_duel_shot"]);
    assert!(
        shot.contains(
            "ruleset black_powder: turn limit 8; an army breaks when half or more of its brigades"
        ),
        "{shot}"
    );
    let naseby = validate(&["naseby", "--ruleset", "black_powder"]);
    assert!(naseby.contains("Parliament 4, the Royalists 7"), "{naseby}");
    let share = validate(&[
        "naseby",
        "--ruleset",
        "black_powder",
        "--set",
        "black_powder_rules.army.army_broken_share=0.75",
    ]);
    assert!(
        share.contains("when 75% or more of its brigades"),
        "{share}"
    );
    let dickenson = validate(&["naseby", "--ruleset", "dickenson"]);
    assert!(
        dickenson.contains(
            "ruleset dickenson: turn limit 12; an army breaks when its morale points fall below 50% of its start"
        ),
        "{dickenson}"
    );
    // The turn limit each ruleset fights to: the scenario's, else its own default.
    for (args, limit) in [
        (&["naseby"][..], 16),
        (&["naseby", "--ruleset", "black_powder"][..], 12),
        (&["naseby", "--ruleset", "dickenson"][..], 12),
        (&["duel_horse", "--ruleset", "dickenson"][..], 8),
    ] {
        let text = validate(args);
        assert!(
            text.contains(&format!(": turn limit {limit}; an army")),
            "{args:?}: {text}"
        );
    }
    let out = binary()
        .args(["validate", "naseby", "--ruleset", "chess"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown ruleset is a usage error"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown ruleset `chess`"));
}

/// `validate` notes, under Black Powder, the regiments over the seed's largest size (Standard,
/// 21-40 figures): the ruling fights them as Standard, which a scenario writer should know.
/// Marston Moor's foot of 1,000 men are 50 figures at 1:20; its horse are not over; under
/// Ironsides nothing is noted, and a ruleset file with a larger Standard notes none.
#[test]
fn validate_notes_black_powder_regiments_over_the_largest_size() {
    let note = |args: &[&str]| {
        let out = ok(&[&["validate", "marston_moor"][..], args].concat());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let bp = note(&["--ruleset", "black_powder"]);
    let line = bp
        .lines()
        .find(|l| l.contains("over 40 figures"))
        .unwrap_or_else(|| panic!("no note: {bp}"));
    assert!(
        line.contains("Manchester's Foot (parliament, 50 figures)")
            && line.contains("fought as Standard"),
        "{line}"
    );
    assert!(!line.contains("Horse ("), "{line}");
    assert!(!note(&[]).contains("figures"), "Ironsides notes nothing");
    let wider = note(&[
        "--ruleset",
        "black_powder",
        "--set",
        "black_powder_rules.stamina.standard_max=80",
    ]);
    assert!(!wider.contains("over"), "{wider}");
}

//! The bad-input catalogue: every way of giving ecw-sim bad input found so far, each run through
//! the binary and checked for its exit code (2 usage, 3 input refused, 4 I/O failure), the key
//! words of its message (file, line, key, value) and that nothing was written: the case's folder
//! holds exactly the inputs it started with, no output folder, stage, lock or temporary file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::cli::*;

const DUEL: &str = include_str!("../configs/scenarios/duel_horse.toml");
const RULESET: &str = include_str!("../configs/rulesets/ironsides.toml");
const DOCTRINE: &str = include_str!("../configs/doctrines/cautious.toml");

/// One bad input: files to write (name, bytes), the arguments (`{dir}` is the case's folder),
/// the exit code, the words the message must hold, and words it must not.
struct Case {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    args: Vec<String>,
    code: i32,
    needles: Vec<String>,
    absent: Vec<&'static str>,
}

fn case(name: &'static str, args: &[&str], code: i32, needles: &[&str]) -> Case {
    Case {
        name,
        files: Vec::new(),
        args: args.iter().map(|a| a.to_string()).collect(),
        code,
        needles: needles.iter().map(|n| n.to_string()).collect(),
        absent: Vec::new(),
    }
}

impl Case {
    fn file(mut self, name: &'static str, text: impl Into<Vec<u8>>) -> Case {
        self.files.push((name, text.into()));
        self
    }
    fn without(mut self, words: &[&'static str]) -> Case {
        self.absent.extend(words);
        self
    }
}

/// The duel scenario with one text replaced (which must be there).
fn duel(from: &str, to: &str) -> String {
    assert!(DUEL.contains(from), "{from}");
    DUEL.replacen(from, to, 1)
}

fn ruleset(from: &str, to: &str) -> String {
    assert!(RULESET.contains(from), "{from}");
    RULESET.replacen(from, to, 1)
}

fn doctrine(from: &str, to: &str) -> String {
    assert!(DOCTRINE.contains(from), "{from}");
    DOCTRINE.replacen(from, to, 1)
}

/// Every path under `dir`, hidden ones included, relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs one case in its own folder; returns what went wrong, if anything.
fn check(c: &Case, root: &Path, partials: &Path) -> Option<String> {
    let dir = root.join(c.name);
    std::fs::create_dir_all(&dir).unwrap();
    if c.args.iter().any(|a| a.contains("{shards}")) {
        copy_dir(partials, &dir.join("shards"));
    }
    for (name, bytes) in &c.files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    if c.name == "symlink_loop" {
        std::os::unix::fs::symlink("loop.toml", dir.join("loop.toml")).unwrap();
    }
    let before = tree(&dir);
    let args: Vec<String> = c
        .args
        .iter()
        .map(|a| {
            a.replace("{dir}", dir.to_str().unwrap())
                .replace("{shards}", dir.join("shards").to_str().unwrap())
        })
        .collect();
    let out = Command::new(BIN)
        .args(&args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let mut wrong = Vec::new();
    if out.status.code() != Some(c.code) {
        wrong.push(format!("exit {:?}, not {}", out.status.code(), c.code));
    }
    for n in &c.needles {
        let n = n.replace("{dir}", dir.to_str().unwrap());
        if !err.contains(&n) {
            wrong.push(format!("no `{n}` in the message"));
        }
    }
    for a in &c.absent {
        if err.contains(a) {
            wrong.push(format!("`{a}` in the message"));
        }
    }
    if err.contains("panicked") || !err.starts_with("error: ") {
        wrong.push("not a plain error message".into());
    }
    if !out.stdout.is_empty() {
        wrong.push("printed to stdout".into());
    }
    let after = tree(&dir);
    if after != before {
        wrong.push(format!("left output: {after:?} (was {before:?})"));
    }
    (!wrong.is_empty()).then(|| format!("{} {args:?}: {}\n    {err}", c.name, wrong.join("; ")))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Two shards of a per-battle duel, the material of the merge cases.
fn partials(root: &Path) -> PathBuf {
    let dir = root.join("partials");
    for k in ["1/2", "2/2"] {
        ok(&[
            "run",
            "duel_horse",
            "--battles",
            "40",
            "--shard",
            k,
            "--per-battle",
            "--threads",
            "1",
            "--quiet",
            "--out",
            s(&dir),
        ]);
    }
    dir
}

/// A shard's partial result edited as JSON, then sealed again with a fresh checksum (as a
/// careful forger, or a bug, would): what is refused is its content, not its checksum.
fn resealed(partials: &Path, edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(partials.join("partial-2-of-2.json")).unwrap())
            .unwrap();
    edit(&mut v);
    let p: ecw_sim::report::Partial = serde_json::from_value(v).unwrap();
    serde_json::to_vec(&p.seal()).unwrap()
}

fn partial_text(partials: &Path, name: &str) -> String {
    std::fs::read_to_string(partials.join(name)).unwrap()
}

fn merge_args() -> Vec<&'static str> {
    vec!["merge", "{shards}", "--out", "{dir}/out"]
}

/// A merge case whose shards folder has `name` replaced by `bytes`.
fn merge_case(
    name: &'static str,
    file: &'static str,
    bytes: Vec<u8>,
    code: i32,
    needles: &[&str],
) -> Case {
    let mut c = case(name, &merge_args(), code, needles);
    c.files.push((file, bytes));
    c
}

fn catalogue(partials: &Path) -> Vec<Case> {
    let run = |extra: &[&str]| {
        let mut a = vec!["run", "s.toml", "--battles", "10", "--out", "{dir}/out"];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run_case = |name, extra: &[&str], code, needles: &[&str]| {
        let mut c = case(name, &[], code, needles);
        c.args = run(extra);
        c.file("s.toml", DUEL)
    };
    let own_args = |name, args: &[&str], code, needles: &[&str]| {
        case(name, args, code, needles).file("s.toml", DUEL)
    };
    let scenario = |name, text: String, code, needles: &[&str]| {
        let mut c = case(name, &[], code, needles);
        c.args = run(&[]);
        c.file("s.toml", text)
    };
    let ruleset_case = |name, text: String, needles: &[&str]| {
        let mut c = case(name, &[], 3, needles);
        c.args = run(&[]);
        c.file(
            "s.toml",
            duel("turn_limit = 8", "ruleset = \"r.toml\"\nturn_limit = 8"),
        )
        .file("r.toml", text)
    };
    let doctrine_case = |name, text: String, needles: &[&str]| {
        let mut c = case(name, &[], 3, needles);
        c.args = run(&[]);
        let s = duel(
            "[royalist.commands.horse]\nkind = \"horse\"",
            "[royalist.commands.horse]\nkind = \"horse\"\ndoctrine = \"d.toml\"",
        );
        c.file("s.toml", s).file("d.toml", text)
    };
    let p2 = partial_text(partials, "partial-2-of-2.json");
    let rows2 = partial_text(partials, "partial-2-of-2.battles.csv");
    let row_lines: Vec<&str> = rows2.lines().collect();
    let unit_line = |fields: &str| duel("x = 36.0, y = 17.5, facing = 0.0", fields);
    let many_units: String = {
        let mut s = duel("    { name = \"Trotters\"", "    { name = \"Trotters 0\"");
        // 5,001 units in a grid on a wide table, every one well placed.
        let extra: String = (1..=5000)
            .map(|i| {
                format!(
                    "    {{ name = \"T{i}\", type = \"trotters\", cv = 5, x = {}.0, y = {}.0, facing = 0.0 }},\n",
                    10 + 5 * (i % 100),
                    100 + 3 * (i / 100)
                )
            })
            .collect();
        s = s.replacen("units = [\n", &format!("units = [\n{extra}"), 1);
        s.replacen(
            "turn_limit = 8",
            "turn_limit = 8\ntable = { width = 600.0, depth = 400.0 }",
            1,
        )
    };

    vec![
        case(
            "map_into_missing_folder",
            &["replay", "duel_horse", "--map", "{dir}/no/such/map.svg"],
            4,
            &["{dir}/no/such/map.svg", "No such file"],
        )
        .without(&[".tmp-", "caused by"]),
        case(
            "map_exists",
            &["replay", "duel_horse", "--map", "{dir}/m.svg"],
            2,
            &["m.svg", "the file exists", "--force"],
        )
        .file("m.svg", "<svg/>"),
        case(
            "tables_out_holds_tables",
            &["tables", "--table", "hit", "--out", "{dir}/t"],
            2,
            &["already holds hit", "--force"],
        )
        .file("t/hit.md", "old")
        .file("t/hit.csv", "old"),
        // The command line.
        run_case(
            "threads_too_many",
            &["--threads", "10000"],
            2,
            &["--threads 10000", "per core"],
        ),
        run_case("threads_zero", &["--threads", "0"], 2, &["--threads 0"]),
        own_args(
            "battles_zero",
            &["run", "s.toml", "--battles", "0", "--out", "{dir}/out"],
            2,
            &["--battles 0"],
        ),
        run_case(
            "shard_zero",
            &["--shard", "0/3"],
            2,
            &["--shard 0/3", "numbered from 1"],
        ),
        run_case("shard_beyond", &["--shard", "4/3"], 2, &["no shard 4 of 3"]),
        run_case(
            "shard_not_a_number",
            &["--shard", "2/x"],
            2,
            &["--shard 2/x"],
        ),
        run_case(
            "shards_more_than_battles",
            &["--shard", "1/50"],
            2,
            &["cannot be split"],
        ),
        run_case(
            "battles_not_a_number",
            &["--battles", "many"],
            2,
            &["--battles"],
        ),
        run_case(
            "set_without_equals",
            &["--set", "turn_limit"],
            2,
            &["--set", "turn_limit"],
        ),
        case(
            "unknown_scenario",
            &["run", "nosuch", "--out", "{dir}/out"],
            2,
            &["`nosuch` is neither a scenario file nor a built-in scenario"],
        ),
        case(
            "missing_scenario_file",
            &["run", "{dir}/nowhere/x.toml", "--out", "{dir}/out"],
            4,
            &["{dir}/nowhere/x.toml", "no such scenario file"],
        ),
        own_args(
            "sweep_point_refused_as_input",
            &[
                "sweep",
                "s.toml",
                "--param",
                "turn_limit=5,0",
                "--out",
                "{dir}/out",
            ],
            3,
            &["--param point turn_limit=0", "s.toml", "turn_limit"],
        ),
        // A change to a ruleset's values that no battle of the command reads is refused, not
        // ignored: Ironsides' `[rules]` under Black Powder, Dickenson's under Ironsides (the
        // scenario's own), and a variant or a sweep's point that would change nothing.
        run_case(
            "set_rules_no_battle_reads",
            &[
                "--ruleset",
                "black_powder",
                "--set",
                "rules.movement.line_max=8",
            ],
            3,
            &[
                "s.toml",
                "rules.movement.line_max",
                "black_powder",
                "[black_powder_rules]",
            ],
        ),
        run_case(
            "set_break_fraction_no_battle_reads",
            &["--ruleset", "dickenson", "--set", "break_fraction=0.3"],
            3,
            &[
                "s.toml",
                "break_fraction",
                "dickenson",
                "dickenson_rules.army.break_share (the share of its morale points left below which",
            ],
        ),
        run_case(
            "set_dickenson_rules_under_ironsides",
            &["--set", "dickenson_rules.battle.contact_gap=1"],
            3,
            &["dickenson_rules.battle.contact_gap", "ironsides", "[rules]"],
        ),
        own_args(
            "compare_variant_no_battle_reads",
            &[
                "compare",
                "s.toml",
                "--ruleset",
                "dickenson",
                "--variant",
                "v:rules.movement.line_max=8",
                "--out",
                "{dir}/out",
            ],
            3,
            &["--variant v", "rules.movement.line_max", "dickenson"],
        ),
        own_args(
            "sweep_point_no_battle_reads",
            &[
                "sweep",
                "s.toml",
                "--param",
                "black_powder_rules.army.army_broken_share=0.3,0.5",
                "--out",
                "{dir}/out",
            ],
            3,
            &["black_powder_rules.army.army_broken_share", "ironsides"],
        ),
        own_args(
            "replay_set_no_battle_reads",
            &[
                "replay",
                "s.toml",
                "--ruleset",
                "dickenson",
                "--set",
                "black_powder_rules.army.army_broken_share=0.3",
            ],
            3,
            &["black_powder_rules.army.army_broken_share", "dickenson"],
        ),
        own_args(
            "bench_set_no_battle_reads",
            &[
                "bench",
                "s.toml",
                "--ruleset",
                "black_powder",
                "--battles",
                "10",
                "--set",
                "rules.movement.line_max=8",
            ],
            3,
            &["rules.movement.line_max", "black_powder"],
        ),
        own_args(
            "compare_variant_refused_as_input",
            &[
                "compare",
                "s.toml",
                "--variant",
                "v:turn_limit=0",
                "--out",
                "{dir}/out",
            ],
            3,
            &["s.toml", "turn_limit"],
        ),
        own_args(
            "out_under_a_file",
            &[
                "run",
                "s.toml",
                "--battles",
                "10",
                "--out",
                "{dir}/s.toml/out",
            ],
            4,
            &["{dir}/s.toml/out", "cannot create output folder"],
        ),
        scenario(
            "table_twice",
            format!("{DUEL}\n[royalist.commands.horse]\nkind = \"horse\"\n"),
            3,
            &["s.toml:", "key `royalist.commands.horse`", "duplicate"],
        ),
        case("unknown_command", &["conquer"], 2, &["conquer"]),
        own_args(
            "out_is_a_file",
            &["run", "s.toml", "--out", "{dir}/s.toml"],
            2,
            &["s.toml is a file", "must be a folder"],
        ),
        case(
            "out_is_root",
            &["run", "duel_horse", "--battles", "5", "--out", "/"],
            2,
            &["cannot be an output folder"],
        ),
        case(
            "tables_out_is_a_file",
            &["tables", "--out", "{dir}/f.csv"],
            2,
            &["f.csv", "must be a folder"],
        )
        .file("f.csv", "x"),
        case(
            "tables_unknown_table",
            &["tables", "--table", "nonesuch"],
            2,
            &["no table `nonesuch`"],
        ),
        case(
            "tables_modifiers_reversed",
            &["tables", "--min-modifier", "3", "--max-modifier", "1"],
            2,
            &["--min-modifier (3) is above --max-modifier (1)"],
        ),
        case(
            "tables_modifier_huge",
            &["tables", "--min-modifier", "50"],
            2,
            &["--min-modifier must be between"],
        ),
        case(
            "compare_without_variants",
            &["compare", "duel_horse", "--out", "{dir}/out"],
            2,
            &["at least one --variant"],
        ),
        case(
            "compare_variant_without_name",
            &[
                "compare",
                "duel_horse",
                "--variant",
                "turn_limit=9",
                "--out",
                "{dir}/out",
            ],
            2,
            &["--variant `turn_limit=9`"],
        ),
        case(
            "compare_same_variant_names",
            &[
                "compare",
                "duel_horse",
                "--variant",
                "a:turn_limit=9",
                "--variant",
                "a:turn_limit=10",
                "--out",
                "{dir}/out",
            ],
            2,
            &["two versions are named `a`"],
        ),
        case(
            "compare_threads_too_many",
            &[
                "compare",
                "duel_horse",
                "--variant",
                "a:turn_limit=9",
                "--threads",
                "5000",
                "--out",
                "{dir}/out",
            ],
            2,
            &["--threads 5000"],
        ),
        case(
            "sweep_duplicate_values",
            &[
                "sweep",
                "duel_horse",
                "--param",
                "turn_limit=8,9,8",
                "--out",
                "{dir}/out",
            ],
            2,
            &["`8` is given twice"],
        ),
        case(
            "sweep_empty_value",
            &[
                "sweep",
                "duel_horse",
                "--param",
                "turn_limit=8,,9",
                "--out",
                "{dir}/out",
            ],
            2,
            &["an empty value"],
        ),
        case(
            "sweep_same_path_twice",
            &[
                "sweep",
                "duel_horse",
                "--param",
                "turn_limit=8",
                "--param",
                "turn_limit=9",
                "--out",
                "{dir}/out",
            ],
            2,
            &["the same path twice"],
        ),
        case(
            "balance_duplicate_years",
            &[
                "balance",
                "--side-a",
                "parliament:1644,1644",
                "--side-b",
                "royalist:1644",
                "--out",
                "{dir}/out",
            ],
            2,
            &["parliament:1644 against royalist:1644", "given twice"],
        ),
        case(
            "balance_not_a_year",
            &[
                "balance",
                "--side-a",
                "parliament:soon",
                "--side-b",
                "royalist:1644",
                "--out",
                "{dir}/out",
            ],
            2,
            &["`soon` is not a year"],
        ),
        case(
            "balance_unpaired_years",
            &[
                "balance",
                "--side-a",
                "parliament:1642,1643,1644",
                "--side-b",
                "royalist:1642,1643",
                "--out",
                "{dir}/out",
            ],
            2,
            &["3 years and --side-b 2"],
        ),
        case(
            "merge_no_such_folder",
            &["merge", "{dir}/nowhere"],
            2,
            &["nowhere: no such folder or file"],
        ),
        case(
            "merge_empty_folder",
            &["merge", "{dir}/empty", "--out", "{dir}/out"],
            2,
            &["holds no partial results"],
        )
        .file("empty/keep", ""),
        case(
            "merge_not_a_partial",
            &["merge", "{dir}/s.toml", "--out", "{dir}/out"],
            2,
            &["not a partial result"],
        )
        .file("s.toml", DUEL),
        // Files that are no scenario at all.
        case(
            "symlink_loop",
            &["run", "loop.toml", "--out", "{dir}/out"],
            4,
            &["loop.toml", "Too many levels of symbolic links"],
        )
        .without(&["neither a scenario file"]),
        case(
            "device_without_end",
            &["validate", "/dev/zero"],
            3,
            &["/dev/zero", "more than 4194304 bytes"],
        ),
        case(
            "folder_as_scenario",
            &["run", "{dir}/sub", "--out", "{dir}/out"],
            3,
            &["sub", "is a folder"],
        )
        .file("sub/keep", ""),
        scenario(
            "huge_file",
            format!("{DUEL}\n#{}\n", "x".repeat(5 << 20)),
            3,
            &["s.toml", "the limit is 4194304 bytes"],
        ),
        scenario("empty_file", " \n".into(), 3, &["s.toml", "file is empty"]),
        case(
            "not_utf8",
            &["validate", "s.toml"],
            3,
            &["s.toml:4", "not valid UTF-8"],
        )
        .file("s.toml", {
            let mut b = DUEL.as_bytes()[..DUEL.find("name =").unwrap() + 8].to_vec();
            b.extend_from_slice(&[0xff, 0xfe, b'"', b'\n']);
            b
        }),
        // Scenario content.
        scenario(
            "toml_syntax",
            duel("turn_limit = 8", "turn_limit = = 8"),
            3,
            &["s.toml:6", "turn_limit"],
        ),
        scenario(
            "unknown_key",
            duel("turn_limit = 8", "turn_limits = 8"),
            3,
            &["s.toml:6", "turn_limits"],
        ),
        scenario(
            "turn_limit_zero",
            duel("turn_limit = 8", "turn_limit = 0"),
            3,
            &["s.toml:6", "turn_limit", "from 1 to 1000"],
        ),
        scenario(
            "facing_absurd",
            unit_line("x = 36.0, y = 17.5, facing = 1e300"),
            3,
            &["s.toml:12", "units.0.facing", "-360 to 360", "1e300"],
        ),
        scenario(
            "x_not_a_number",
            unit_line("x = nan, y = 17.5, facing = 0.0"),
            3,
            &["s.toml:12", "units.0.x", "NaN"],
        )
        .without(&["at least one unit"]),
        scenario(
            "x_infinite",
            unit_line("x = inf, y = 17.5, facing = 0.0"),
            3,
            &["s.toml:12", "units.0.x", "inf"],
        )
        .without(&["at least one unit"]),
        scenario(
            "y_missing",
            unit_line("x = 36.0, facing = 0.0"),
            3,
            &["s.toml:12", "needs a position"],
        )
        .without(&["at least one unit"]),
        scenario(
            "x_far_off",
            unit_line("x = 5000.0, y = 17.5, facing = 0.0"),
            3,
            &["units.0.x", "-1000 to 1000", "5000"],
        ),
        scenario(
            "cv_absurd",
            duel("cv = 5, x = 36.0", "cv = 900, x = 36.0"),
            3,
            &["s.toml:12", "cv", "900"],
        ),
        scenario(
            "unknown_unit_type",
            duel("type = \"trotters\"", "type = \"tanks\""),
            3,
            &["s.toml:12", "tanks"],
        ),
        scenario(
            "unknown_commander",
            duel("commander = \"average\"", "commander = \"napoleon\""),
            3,
            &["s.toml:10", "unknown commander `napoleon`"],
        ),
        scenario(
            "commander_lp_absurd",
            duel(
                "commander = \"average\"",
                "commander = { name = \"X\", lp_modifier = 100, radius = 8.0, rerolls = 1 }",
            ),
            3,
            &["commander.lp_modifier", "from -6 to 6", "100"],
        ),
        scenario(
            "commander_rerolls_absurd",
            duel(
                "commander = \"average\"",
                "commander = { name = \"X\", lp_modifier = 0, radius = 8.0, rerolls = 200 }",
            ),
            3,
            &["commander.rerolls", "200"],
        ),
        scenario(
            "commander_radius_absurd",
            duel(
                "commander = \"average\"",
                "commander = { name = \"X\", lp_modifier = 0, radius = 1e300, rerolls = 1 }",
            ),
            3,
            &["commander.radius", "1e300"],
        ),
        scenario("too_many_units", many_units, 3, &["at most 5000 units"]),
        scenario(
            "unknown_ruleset",
            duel("turn_limit = 8", "ruleset = \"nosuch\"\nturn_limit = 8"),
            3,
            &["s.toml", "ruleset", "nosuch"],
        ),
        run_case(
            "set_unknown_key",
            &["--set", "nosuch.key=3"],
            3,
            &["nosuch.key", "unknown key `nosuch`"],
        ),
        run_case(
            "set_wrong_type",
            &["--set", "turn_limit=soon"],
            3,
            &["turn_limit", "soon"],
        ),
        run_case(
            "set_facing_absurd",
            &["--set", "parliament.commands.horse.units.0.facing=1e300"],
            3,
            &["units.0.facing", "set by --set"],
        ),
        run_case(
            "set_x_nan",
            &["--set", "royalist.commands.horse.units.0.x=nan"],
            3,
            &["units.0.x", "set by --set"],
        )
        .without(&["at least one unit"]),
        // Rulesets.
        ruleset_case(
            "die_always_hits_9",
            ruleset("die_always_hits = 1", "die_always_hits = 9"),
            &["r.toml:12", "limits.die_always_hits", "got 9"],
        ),
        ruleset_case(
            "die_always_misses_1",
            ruleset("die_always_misses = 6", "die_always_misses = 1"),
            &["r.toml:13", "limits.die_always_misses", "got 1"],
        ),
        ruleset_case(
            "distance_absurd",
            ruleset("line_max = 10.0", "line_max = 1e300"),
            &["r.toml", "movement.line_max", "1e300"],
        ),
        ruleset_case(
            "table_width_negative",
            ruleset("default_table_width = 72.0", "default_table_width = -5.0"),
            &["r.toml:25", "scale.default_table_width", "got -5"],
        ),
        ruleset_case(
            "table_depth_nan",
            ruleset("default_table_depth = 48.0", "default_table_depth = nan"),
            &["r.toml:26", "scale.default_table_depth"],
        ),
        ruleset_case(
            "table_width_infinite",
            ruleset("default_table_width = 72.0", "default_table_width = inf"),
            &["r.toml:25", "scale.default_table_width"],
        ),
        ruleset_case(
            "interpenetration_negative",
            ruleset(
                "interpenetration_enemy_distance = 12.0",
                "interpenetration_enemy_distance = -5.0",
            ),
            &["r.toml:211", "movement.interpenetration_enemy_distance"],
        ),
        ruleset_case(
            "support_charge_negative",
            ruleset(
                "support_charge_per_cv = 2.0",
                "support_charge_per_cv = -5.0",
            ),
            &["r.toml:259", "charge.support_charge_per_cv"],
        ),
        ruleset_case(
            "hold_retire_max_below_min",
            ruleset("horse_hold_retire_max = 6.0", "horse_hold_retire_max = 0.0"),
            &["r.toml:280", "close_combat.horse_hold_retire_min"],
        ),
        ruleset_case(
            "hold_retire_min_nan",
            ruleset("horse_hold_retire_min = 3.0", "horse_hold_retire_min = nan"),
            &["r.toml:280", "close_combat.horse_hold_retire_min"],
        ),
        ruleset_case(
            "free_rerolls_many",
            ruleset(
                "free_reroll_for_no_rr_general = 1",
                "free_reroll_for_no_rr_general = 15",
            ),
            &[
                "r.toml:237",
                "reaction.free_reroll_for_no_rr_general",
                "got 15",
            ],
        ),
        ruleset_case(
            "cv_max_zero",
            ruleset("cv_max = 7", "cv_max = 0"),
            &["r.toml:10", "limits.cv_max"],
        ),
        ruleset_case(
            "ruleset_unknown_key",
            ruleset("cv_max = 7", "cv_max = 7\ncv_maxx = 7"),
            &["r.toml:11", "cv_maxx"],
        ),
        case(
            "tables_die_limits",
            &["tables", "--ruleset", "r.toml"],
            3,
            &["r.toml:13", "limits.die_always_misses"],
        )
        .file(
            "r.toml",
            ruleset("die_always_misses = 6", "die_always_misses = 1"),
        ),
        case(
            "tables_missing_ruleset",
            &["tables", "--ruleset", "nowhere.toml"],
            4,
            &["nowhere.toml", "No such file"],
        )
        .without(&["caused by"]),
        // Doctrines.
        doctrine_case(
            "charge_ratio_absurd",
            doctrine("charge_ratio = 1.2", "charge_ratio = 1e308"),
            &["d.toml:4", "charge_ratio", "1e308"],
        ),
        doctrine_case(
            "aggression_above_1",
            doctrine("aggression = 0.3", "aggression = 2.0"),
            &["d.toml:3", "aggression", "got 2"],
        ),
        doctrine_case(
            "hold_ground_negative",
            doctrine("hold_ground_within = 12.0", "hold_ground_within = -1.0"),
            &["d.toml", "hold_ground_within", "got -1"],
        ),
        doctrine_case(
            "charge_range_share_beyond_two_moves",
            doctrine(
                "hold_ground_within = 12.0",
                "hold_ground_within = 12.0\ncharge_range_share = 2.5",
            ),
            &["d.toml", "charge_range_share", "from 0 to 2", "got 2.5"],
        ),
        doctrine_case(
            "sweeping_advance_not_a_yes_or_no",
            doctrine(
                "sweeping_advance = false",
                "sweeping_advance = \"sometimes\"",
            ),
            &["d.toml:27", "sweeping_advance", "boolean"],
        ),
        doctrine_case(
            "advance_turn_absurd",
            doctrine("advance_from_turn = 6", "advance_from_turn = 60000"),
            &["d.toml", "advance_from_turn", "60000"],
        ),
        // Partial results and their rows.
        merge_case(
            "partial_wins_edited",
            "shards/partial-2-of-2.json",
            p2.replacen("\"draws\":", "\"draws\":1", 1).into_bytes(),
            3,
            &["partial-2-of-2.json", "checksum", "changed or damaged"],
        ),
        merge_case(
            "partial_not_json",
            "shards/partial-2-of-2.json",
            b"{ nonsense".to_vec(),
            3,
            &["partial-2-of-2.json", "not an ecw-sim partial result"],
        ),
        merge_case(
            "partial_old_format",
            "shards/partial-2-of-2.json",
            p2.replacen("partial result 2", "partial result 1", 1)
                .into_bytes(),
            3,
            &["partial-2-of-2.json", "format `ecw-sim partial result 1`"],
        ),
        merge_case(
            "partial_totals_resealed",
            "shards/partial-2-of-2.json",
            resealed(partials, |v| {
                v["tally"]["draws"] = (v["tally"]["draws"].as_u64().unwrap() + 5).into()
            }),
            3,
            &["partial-2-of-2.json", "draws", "not its 20 battles"],
        ),
        merge_case(
            "partial_count_beyond_battles",
            "shards/partial-2-of-2.json",
            resealed(partials, |v| v["tally"]["units"][0]["routed"] = 21.into()),
            3,
            &["partial-2-of-2.json", "exceeds its 20 battles"],
        ),
        merge_case(
            "partial_overflow",
            "shards/partial-2-of-2.json",
            resealed(partials, |v| v["tally"]["dice_rolled"] = u64::MAX.into()),
            3,
            &["overflow"],
        ),
        merge_case(
            "partial_histogram_absurd",
            "shards/partial-2-of-2.json",
            resealed(partials, |v| {
                v["tally"]["turns"]["min"] = (-(1i64 << 40)).into()
            }),
            3,
            &["partial-2-of-2.json", "beyond any battle"],
        ),
        merge_case(
            "partial_other_shard_name",
            "shards/partial-2-of-2.json",
            partial_text(partials, "partial-1-of-2.json").into_bytes(),
            3,
            &["named for shard 2/2 but holds shard 1/2"],
        ),
        merge_case(
            "partial_other_seed",
            "shards/partial-2-of-2.json",
            resealed(partials, |v| v["seed"] = 99.into()),
            3,
            &["(shard 2/2) is from a different run", "seed 99, not 1"],
        ),
        merge_case(
            "battles_winner_edited",
            "shards/partial-2-of-2.battles.csv",
            rows2
                .replacen(",parliament,", ",royalist,", 1)
                .replacen(",royalist,", ",parliament,", 2)
                .into_bytes(),
            3,
            &["partial-2-of-2.battles.csv", "checksum"],
        ),
        merge_case(
            "battles_garbage_row",
            "shards/partial-2-of-2.battles.csv",
            format!(
                "{}\ngarbage\n{}\n",
                row_lines[..3].join("\n"),
                row_lines[3..].join("\n")
            )
            .into_bytes(),
            3,
            &[
                "partial-2-of-2.battles.csv",
                "line 4",
                "battle 22",
                "garbage",
            ],
        ),
        merge_case(
            "battles_duplicate_row",
            "shards/partial-2-of-2.battles.csv",
            format!(
                "{}\n{}\n{}\n",
                row_lines[..3].join("\n"),
                row_lines[2],
                row_lines[3..row_lines.len() - 1].join("\n")
            )
            .into_bytes(),
            3,
            &[
                "partial-2-of-2.battles.csv",
                "expected the row of battle 22",
            ],
        ),
        merge_case(
            "battles_short",
            "shards/partial-2-of-2.battles.csv",
            format!("{}\n", row_lines[..10].join("\n")).into_bytes(),
            3,
            &[
                "partial-2-of-2.battles.csv",
                "9 rows, but its shard fought 20 battles",
            ],
        ),
        merge_case(
            "battles_header",
            "shards/partial-2-of-2.battles.csv",
            rows2.replacen("battle,", "fight,", 1).into_bytes(),
            3,
            &["partial-2-of-2.battles.csv", "header differs"],
        ),
    ]
}

#[test]
fn every_bad_input_is_refused_with_its_code_and_words_and_nothing_written() {
    let root = scratch("catalogue");
    let partials = partials(&root);
    let cases = catalogue(&partials);
    assert!(cases.len() >= 80, "{} cases", cases.len());
    let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "case names are unique");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| check(c, &root.join("cases"), &partials))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_stream_without_end_is_read_only_up_to_the_limit() {
    // `yes | ecw-sim validate /dev/stdin`: refused after 4 MB, not read for ever.
    let mut yes = Command::new("yes").stdout(Stdio::piped()).spawn().unwrap();
    let started = Instant::now();
    let out = Command::new(BIN)
        .args(["validate", "/dev/stdin"])
        .stdin(yes.stdout.take().unwrap())
        .output()
        .unwrap();
    yes.kill().unwrap();
    yes.wait().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("/dev/stdin") && err.contains("more than 4194304 bytes"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn control_characters_are_escaped_in_everything_printed() {
    let red = "\u{1b}[31mRED\u{7}";
    let name = format!("parliament.commands.horse.name=\"{red}\"");
    let out = ecw(&["validate", "duel_horse", "--set", &name]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(text.contains("\\u{1b}[31mRED\\u{7}"), "{text}");
    // In an error, too: a --set naming a commander that does not exist.
    let who = format!("parliament.commands.horse.commander=\"{red}\"");
    let out = ecw(&["validate", "duel_horse", "--set", &who]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        !err.contains('\u{1b}') && err.contains("\\u{1b}[31mRED"),
        "{err}"
    );
}

/// Runs the binary with a file-size limit (and SIGXFSZ ignored, so a write past it fails with
/// EFBIG as on a full disk).
fn with_disk_of(bytes: u64, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[test]
fn a_full_disk_part_way_leaves_no_output() {
    let root = scratch("full-disk");
    let out = root.join("out");
    // battles.csv outgrows the limit while the run streams it.
    let o = with_disk_of(
        200_000,
        &[
            "run",
            "duel_horse",
            "--battles",
            "20000",
            "--per-battle",
            "--quiet",
            "--out",
            s(&out),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("battles.csv") && !err.contains(".tmp-"),
        "{err}"
    );
    assert_eq!(files_in(&root), Vec::<String>::new(), "nothing left: {err}");
    // A merge whose rows outgrow the disk: the partials stay, nothing else is written.
    let parts = root.join("parts");
    for k in ["1/2", "2/2"] {
        ok(&[
            "run",
            "duel_horse",
            "--battles",
            "20000",
            "--shard",
            k,
            "--per-battle",
            "--quiet",
            "--out",
            s(&parts),
        ]);
    }
    let before = files_in(&parts);
    let o = with_disk_of(800_000, &["merge", s(&parts), "--quiet"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert_eq!(files_in(&parts), before, "{err}");
    assert_eq!(files_in(&root), ["parts"], "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_run_with_overrides_gets_its_own_default_folder() {
    let root = scratch("default-folders");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "duel_horse", "--battles", "20", "--quiet"];
        args.extend_from_slice(extra);
        let o = bin().args(&args).current_dir(&root).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&[]);
    run(&["--set", "turn_limit=9"]);
    run(&["--set", "turn_limit=10"]);
    let folders = files_in(&root.join("output"));
    assert_eq!(folders.len(), 3, "{folders:?}");
    assert_eq!(folders[0], "duel_horse-1");
    for f in &folders[1..] {
        let hash = f.strip_prefix("duel_horse-1-").unwrap();
        assert!(
            hash.len() == 8 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{f}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn compare_refuses_to_overwrite_its_result_without_force() {
    let root = scratch("compare-force");
    let out = root.join("out");
    let args = |force: bool| {
        let mut a = vec![
            "compare",
            "duel_horse",
            "--variant",
            "short:turn_limit=4",
            "--battles",
            "200",
            "--quiet",
            "--out",
            s(&out),
        ];
        if force {
            a.push("--force");
        }
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let first = Command::new(BIN).args(args(false)).output().unwrap();
    assert!(first.status.success());
    let csv = std::fs::read(out.join("compare.csv")).unwrap();
    let second = Command::new(BIN).args(args(false)).output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("already holds compare.csv") && err.contains("--force"),
        "{err}"
    );
    let third = Command::new(BIN).args(args(true)).output().unwrap();
    assert!(third.status.success());
    assert_eq!(
        std::fs::read(out.join("compare.csv")).unwrap(),
        csv,
        "the same result again"
    );
    assert_eq!(files_in(&root), ["out"]);
    let _ = std::fs::remove_dir_all(&root);
}

/// A scenario of `n` trotters on a wide table (and the duel's one other unit), validated: its
/// standard error.
fn validate_trotters(root: &std::path::Path, n: usize) -> String {
    let units: String = (0..n)
        .map(|i| {
            format!(
                "    {{ name = \"T{i}\", type = \"trotters\", cv = 5, x = {}.0, y = {}.0, facing = 0.0 }},\n",
                10 + 5 * (i % 100),
                20 + 3 * (i / 100)
            )
        })
        .collect();
    let text = duel("    { name = \"Trotters\", type = \"trotters\", men = 450, cv = 5, x = 36.0, y = 17.5, facing = 0.0 },\n", &units)
        .replacen("turn_limit = 8", "turn_limit = 8\ntable = { width = 600.0, depth = 100.0 }", 1)
        .replacen("x = 36.0, y = 30.5", "x = 36.0, y = 90.5", 1);
    let file = root.join(format!("big{n}.toml"));
    std::fs::write(&file, text).unwrap();
    let out = ecw(&["validate", s(&file)]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

/// A large battle is told how long it will take, in milliseconds, from the near-linear cost
/// the scaling bench measures (a battle of 1,001 units takes about 15 ms under Ironsides, not
/// the half-minute of the engine before); a few hundred units are not worth a note.
#[test]
fn validate_notes_the_time_a_large_battle_takes() {
    let root = scratch("big");
    let err = validate_trotters(&root, 300);
    assert!(!err.contains("301 units"), "{err}");
    let err = validate_trotters(&root, 1000);
    let note = err
        .lines()
        .find(|l| l.contains("1001 units"))
        .unwrap_or_default();
    let ms: f64 = note
        .split("roughly ")
        .nth(1)
        .and_then(|t| t.split(" ms").next())
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN);
    assert!((5.0..=50.0).contains(&ms), "{err}");
    assert!(
        note.contains("ironsides") && note.contains("bench --scale"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// `tables --out` under every ruleset writes all its files or, when the disk fills part way,
/// none (and not the folder it made); a folder already holding them is refused without
/// `--force`.
#[test]
fn tables_on_a_full_disk_leave_no_files() {
    let root = scratch("tables-full");
    for ruleset in ["ironsides", "black_powder", "dickenson"] {
        let dir = root.join(ruleset);
        let mut args = vec!["tables", "--format", "csv", "--out", s(&dir)];
        if ruleset != "ironsides" {
            args.extend(["--ruleset", ruleset]);
        }
        // Each file may hold 10,000 bytes: the small tables fit, a large one does not.
        let o = with_disk_of(10_000, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(4), "{ruleset}: {err}");
        assert!(!dir.exists(), "{ruleset}: left {:?}", tree(&dir));
        ok(&args);
        let before = tree(&dir);
        let again = ecw(&args);
        assert_eq!(again.status.code(), Some(2), "{ruleset}");
        assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
        assert_eq!(tree(&dir), before);
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Validates the duel with its trotters replaced by `units` (lines of units), on a wider table
/// when `wide`: the exit code must be 3, within `seconds`; the lines of error it printed.
fn refused_within(root: &Path, units: &str, wide: bool, seconds: u64) -> (usize, String) {
    let mut text = duel(
        "    { name = \"Trotters\", type = \"trotters\", men = 450, cv = 5, x = 36.0, y = 17.5, facing = 0.0 },\n",
        units,
    );
    if wide {
        let table = "turn_limit = 8\ntable = { width = 600.0, depth = 200.0 }";
        text = text.replacen("turn_limit = 8", table, 1);
    }
    let file = root.join("many.toml");
    std::fs::write(&file, text).unwrap();
    let started = Instant::now();
    let out = ecw(&["validate", s(&file)]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(3), "{err}");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(seconds), "{took:?}");
    (
        err.lines().filter(|l| l.starts_with("error: ")).count(),
        err,
    )
}

/// Thousands of units piled on one spot are refused at once (they took minutes, each overlapping
/// pair located in the file): the first problems are listed, then a word that there are more.
#[test]
fn a_pile_of_units_is_refused_quickly_with_the_first_problems() {
    let root = scratch("pile");
    let units: String = (0..3000)
        .map(|i| {
            format!("    {{ name = \"T{i}\", type = \"trotters\", cv = 5, x = 36.0, y = 17.5, facing = 0.0 }},\n")
        })
        .collect();
    let (lines, err) = refused_within(&root, &units, false, 10);
    assert!((20..=101).contains(&lines), "{lines} lines: {err}");
    assert!(err.contains("overlaps") && err.contains("more"), "{err}");
    // Thousands of units each with its own fault (they took seconds): the first hundred.
    let units: String = (0..5000)
        .map(|i| {
            let (x, y) = (10 + 5 * (i % 100), 20 + 3 * (i / 100));
            format!("    {{ name = \"T{i}\", type = \"trotters\", cv = 99, x = {x}.0, y = {y}.0, facing = 0.0 }},\n")
        })
        .collect();
    let (lines, err) = refused_within(&root, &units, true, 2);
    assert_eq!(lines, 102, "{err}");
    assert!(err.contains("more problems than the 100 listed"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

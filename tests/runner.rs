//! The Monte Carlo runner end to end, through the built binary: determinism across threads and
//! shards, bounded memory, refusals of bad input, Ctrl-C, and the files' tidy form.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use ecw_sim::report::HEADER;
use ecw_sim::stats::wilson;

/// Counts this thread's heap allocations, so a test can show a stretch of code makes none.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Counting;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    /// Allocations made on this thread so far.
    pub fn allocations() -> u64 {
        ALLOCATIONS.with(Cell::get)
    }
}

mod common;

use common::cli::*;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn threads_and_shards_write_byte_identical_files() {
    let root = scratch("determinism");
    let n = scaled(3_000, 400).to_string();
    let common = [
        "run",
        "small_action",
        "--battles",
        &n,
        "--seed",
        "11",
        "--per-battle",
        "--quiet",
    ];
    let one = root.join("one");
    let two = root.join("two");
    let parts = root.join("parts");
    ok(&[&common[..], &["--threads", "1", "--out", s(&one)]].concat());
    ok(&[&common[..], &["--threads", "2", "--out", s(&two)]].concat());
    for k in ["3/3", "1/3", "2/3"] {
        ok(&[
            &common[..],
            &["--threads", "2", "--shard", k, "--out", s(&parts)],
        ]
        .concat());
    }
    // No manifest or statistics before the merge: only the partials.
    assert_eq!(
        files_in(&parts),
        [
            "partial-1-of-3.battles.csv",
            "partial-1-of-3.json",
            "partial-2-of-3.battles.csv",
            "partial-2-of-3.json",
            "partial-3-of-3.battles.csv",
            "partial-3-of-3.json"
        ]
    );
    let merged = root.join("merged");
    ok(&["merge", s(&parts), "--out", s(&merged), "--quiet"]);

    let reference = csvs(&one);
    let names: Vec<&str> = reference.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "battles.csv",
            "commanders.csv",
            "cv_losses.csv",
            "outcomes.csv",
            "pursuits.csv",
            "ratings.csv"
        ]
    );
    for other in [&two, &merged] {
        let got = csvs(other);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            reference.keys().collect::<Vec<_>>()
        );
        for (name, bytes) in &reference {
            assert!(
                got[name] == *bytes,
                "{name} differs between {} and {}",
                one.display(),
                other.display()
            );
        }
        assert_eq!(manifest_sans_timing(other), manifest_sans_timing(&one));
    }
    assert_eq!(manifest(&merged)["timing"]["shards"], 3);
    assert_eq!(manifest(&one)["battles"], n.parse::<u64>().unwrap());

    // Another seed fights other battles.
    let seed12 = root.join("seed12");
    ok(&[
        "run",
        "small_action",
        "--battles",
        &n,
        "--seed",
        "12",
        "--quiet",
        "--out",
        s(&seed12),
    ]);
    assert_ne!(csvs(&seed12)["outcomes.csv"], reference["outcomes.csv"]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_collector_allocates_nothing_per_battle() {
    use ecw_sim::events::{EventLog, Observer};
    use ecw_sim::rules::ironsides::battle::Battle;
    use ecw_sim::stats::{Collector, Layout};

    let setup = ecw_sim::scenario::load_builtin("small_action", &[])
        .unwrap()
        .setup()
        .unwrap();
    let mut battle = Battle::new(&setup);
    // Real battles' event streams, recorded once.
    let logs: Vec<EventLog> = (0..scaled(200, 40))
        .map(|i| {
            let mut log = EventLog::default();
            battle.fight(&setup, ecw_sim::dice::battle_seed(3, i), &mut log);
            log
        })
        .collect();
    assert!(logs.iter().map(|l| l.0.len()).sum::<usize>() > logs.len() * 10);
    let layout = Layout::of(&setup);
    let mut c = Collector::new(&layout, true);
    let replay = |c: &mut Collector, round: u64| {
        for (i, log) in logs.iter().enumerate() {
            c.begin(round * 1_000 + i as u64, 0);
            for e in &log.0 {
                c.event(e);
            }
            c.end(0);
        }
    };
    // The first pass may size what it needs; the batch's rows are taken between passes.
    replay(&mut c, 0);
    let _ = c.take();
    replay(&mut c, 1);
    let _ = c.take();
    let before = counting::allocations();
    replay(&mut c, 2);
    let during = counting::allocations() - before;
    assert_eq!(
        during,
        0,
        "{during} allocations while counting {} battles",
        logs.len()
    );
    let (tally, rows) = c.take();
    assert_eq!(tally.battles, logs.len() as u64);
    assert_eq!(rows.len(), logs.len());
}

#[test]
fn peak_memory_does_not_grow_with_the_number_of_battles() {
    let root = scratch("memory");
    let small = scaled(1_000, 100);
    let big = small * 100;
    let mut peak = Vec::new();
    for n in [small, big] {
        let out = root.join(n.to_string());
        ok(&[
            "run",
            "duel_horse",
            "--battles",
            &n.to_string(),
            "--threads",
            "2",
            "--quiet",
            "--out",
            s(&out),
        ]);
        let m = manifest(&out);
        assert_eq!(m["battles"], n);
        let kib = m["timing"]["peak_memory_kib"]
            .as_u64()
            .expect("VmHWM is reported on Linux");
        peak.push(kib);
    }
    assert!(
        peak[1] as f64 <= peak[0] as f64 * 1.10,
        "peak memory grew from {} KiB ({small} battles) to {} KiB ({big} battles)",
        peak[0],
        peak[1]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bad_input_is_refused_and_nothing_written() {
    let root = scratch("bad-input");
    let out = root.join("out");
    let o = s(&out);
    refused(
        &["run", "duel_horse", "--battles", "0", "--out", o],
        "--battles 0",
    );
    refused(
        &["run", "duel_horse", "--shard", "4/3", "--out", o],
        "no shard 4 of 3",
    );
    refused(
        &["run", "duel_horse", "--shard", "0/3", "--out", o],
        "numbered from 1",
    );
    refused(
        &["run", "duel_horse", "--shard", "three", "--out", o],
        "--shard three",
    );
    refused(
        &[
            "run",
            "duel_horse",
            "--battles",
            "2",
            "--shard",
            "1/3",
            "--out",
            o,
        ],
        "cannot be split into 3 shards",
    );
    refused(
        &["run", "duel_horse", "--threads", "0", "--out", o],
        "--threads 0",
    );
    refused(
        &["run", "no_such_battle", "--out", o],
        "neither a scenario file nor a built-in",
    );
    refused(
        &["run", "duel_horse", "--set", "nonsense", "--out", o],
        "expected PATH=VALUE",
    );
    refused(
        &["run", "duel_horse", "--set", "nosuch.key=3", "--out", o],
        "unknown key `nosuch`",
    );
    assert!(!out.exists(), "a refused run wrote {:?}", files_in(&out));

    // An output folder that cannot be made (below a plain file) is an I/O failure: exit 4.
    let file = root.join("a_file");
    std::fs::write(&file, "x").unwrap();
    let under = file.join("out");
    let failed = ecw(&["run", "duel_horse", "--battles", "10", "--out", s(&under)]);
    let err = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(4), "{err}");
    assert!(err.contains("cannot create output folder"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_output_folder_of_another_run_is_refused_unless_forced() {
    let root = scratch("other-run");
    let out = root.join("out");
    let o = s(&out);
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "500",
        "--seed",
        "1",
        "--quiet",
        "--out",
        o,
    ]);
    let before = std::fs::read(out.join("outcomes.csv")).unwrap();
    // The same run may be written again (here with battles.csv as well).
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "500",
        "--seed",
        "1",
        "--quiet",
        "--per-battle",
        "--out",
        o,
    ]);
    assert_eq!(std::fs::read(out.join("outcomes.csv")).unwrap(), before);
    assert!(out.join("battles.csv").exists());
    // A different seed, battle count, scenario or override is a different run.
    refused(
        &[
            "run",
            "duel_horse",
            "--battles",
            "500",
            "--seed",
            "2",
            "--out",
            o,
        ],
        "seed 1 there, 2 here",
    );
    refused(
        &["run", "duel_horse", "--battles", "600", "--out", o],
        "battle count 500 there, 600 here",
    );
    refused(
        &["run", "duel_foot_vs_horse", "--battles", "500", "--out", o],
        "different run (scenario",
    );
    assert_eq!(std::fs::read(out.join("outcomes.csv")).unwrap(), before);
    // Forced: overwritten, and the old run's battles.csv is gone.
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "500",
        "--seed",
        "2",
        "--quiet",
        "--force",
        "--out",
        o,
    ]);
    assert_ne!(std::fs::read(out.join("outcomes.csv")).unwrap(), before);
    assert!(!out.join("battles.csv").exists());
    assert_eq!(manifest(&out)["seed"], 2);
    // Results of unknown origin are not overwritten either.
    let stray = root.join("stray");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("outcomes.csv"), "mine").unwrap();
    refused(
        &["run", "duel_horse", "--battles", "10", "--out", s(&stray)],
        "no manifest.json",
    );
    assert_eq!(std::fs::read(stray.join("outcomes.csv")).unwrap(), b"mine");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn merge_refuses_partials_that_do_not_belong_together() {
    let root = scratch("merge");
    let a = root.join("a");
    let b = root.join("b");
    let c = root.join("c");
    let run = |dir: &Path, scenario: &str, seed: &str, shard: &str| {
        ok(&[
            "run",
            scenario,
            "--battles",
            "900",
            "--seed",
            seed,
            "--shard",
            shard,
            "--quiet",
            "--out",
            s(dir),
        ]);
    };
    run(&a, "duel_horse", "1", "1/3");
    run(&a, "duel_horse", "1", "2/3");
    // Shard 3 of another seed, and of another scenario.
    run(&b, "duel_horse", "5", "3/3");
    run(&c, "duel_foot_vs_horse", "1", "3/3");
    let out = root.join("out");
    let o = s(&out);
    refused(
        &["merge", s(&a), s(&b), "--out", o],
        "partial-3-of-3.json (shard 3/3) is from a different run",
    );
    refused(&["merge", s(&a), s(&b), "--out", o], "seed 5, not 1");
    refused(&["merge", s(&a), s(&c), "--out", o], "different run");
    refused(&["merge", s(&a), s(&c), "--out", o], "scenario");
    refused(
        &["merge", s(&a), "--out", o],
        "shard 3/3 of Duel: trotters v gallopers missing",
    );
    // The same shard twice.
    let d = root.join("d");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(a.join("partial-2-of-3.json"), d.join("partial-2-of-3.json")).unwrap();
    refused(
        &["merge", s(&a), s(&d), "--out", o],
        "shard 2/3 is given twice",
    );
    refused(
        &["merge", s(&root.join("empty")), "--out", o],
        "no such folder",
    );
    assert!(!out.exists(), "a refused merge wrote {:?}", files_in(&out));
    // The right shard completes it.
    run(&root.join("e"), "duel_horse", "1", "3/3");
    ok(&["merge", s(&a), s(&root.join("e")), "--out", o, "--quiet"]);
    assert_eq!(manifest(&out)["battles"], 900);
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_says_how_far_it_got_and_writes_nothing() {
    let root = scratch("ctrl-c");
    let out = root.join("out");
    let child = bin()
        .args([
            "run",
            "small_action",
            "--battles",
            "1000000000",
            "--per-battle",
            "--out",
            s(&out),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run is under way (its per-battle file is being written in its stage).
    let started = std::time::Instant::now();
    let stage = |root: &Path| {
        files_in(root)
            .into_iter()
            .find(|f| f.starts_with(".out.ecw-sim-stage-"))
            .map(|f| root.join(f))
    };
    while !stage(&root).is_some_and(|st| {
        files_in(&st)
            .iter()
            .any(|f| f.starts_with(".battles.csv.tmp"))
    }) {
        assert!(started.elapsed().as_secs() < 60, "the run never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let result = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: stopped after"), "{err}");
    assert!(
        err.contains("of 1000000000 battles; nothing was written"),
        "{err}"
    );
    assert!(
        !out.exists(),
        "an interrupted run left {:?}",
        files_in(&out)
    );
    assert_eq!(
        files_in(&root),
        Vec::<String>::new(),
        "no stage, no lock left"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Parses a tidy file into rows of named fields, checking its header and identifiers.
fn tidy_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, HEADER, "{}", path.display());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let row: BTreeMap<String, String> = header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect();
            for key in ["scope", "measure", "side"] {
                assert!(
                    !row[key].contains(' '),
                    "{key} `{}` in {}",
                    row[key],
                    path.display()
                );
            }
            row
        })
        .collect()
}

#[test]
fn the_files_are_tidy_and_add_up() {
    let root = scratch("tidy");
    let n = scaled(2_000, 300);
    ok(&[
        "run",
        "small_action",
        "--battles",
        &n.to_string(),
        "--per-battle",
        "--quiet",
        "--out",
        s(&root),
    ]);
    let n_text = n.to_string();
    let mut proportions = 0;
    for f in [
        "outcomes.csv",
        "cv_losses.csv",
        "pursuits.csv",
        "commanders.csv",
        "ratings.csv",
    ] {
        let rows = tidy_rows(&root.join(f));
        assert!(!rows.is_empty(), "{f} is empty");
        for row in &rows {
            // Every proportion's interval is Wilson's, recomputed from its counts.
            if row["measure"].starts_with("p_") || !row["value"].is_empty() {
                let (k, m): (u64, u64) = (row["count"].parse().unwrap(), row["n"].parse().unwrap());
                if let Some(e) = wilson(k, m) {
                    assert_eq!(
                        row["estimate"],
                        format!("{:.6}", e.estimate),
                        "{f}: {row:?}"
                    );
                    assert_eq!(row["ci95_low"], format!("{:.6}", e.low), "{f}: {row:?}");
                    assert_eq!(row["ci95_high"], format!("{:.6}", e.high), "{f}: {row:?}");
                    proportions += 1;
                }
            }
        }
        // Each distribution's counts add up to its n.
        let mut sums: BTreeMap<(String, String, String), (u64, u64)> = BTreeMap::new();
        for row in rows
            .iter()
            .filter(|r| !r["value"].is_empty() && !r["measure"].starts_with("p_"))
        {
            let e = sums
                .entry((
                    row["scope"].clone(),
                    row["id"].clone(),
                    row["measure"].clone(),
                ))
                .or_default();
            e.0 += row["count"].parse::<u64>().unwrap();
            e.1 = row["n"].parse().unwrap();
        }
        for (key, (total, m)) in sums {
            assert_eq!(total, m, "{f}: {key:?}");
        }
    }
    assert!(proportions > 100);
    let outcomes = tidy_rows(&root.join("outcomes.csv"));
    let count = |side: &str, measure: &str| -> u64 {
        outcomes
            .iter()
            .find(|r| r["id"] == side && r["measure"] == measure)
            .unwrap()["count"]
            .parse()
            .unwrap()
    };
    for side in ["parliament", "royalist"] {
        assert_eq!(
            count(side, "p_win") + count(side, "p_draw") + count(side, "p_loss"),
            n
        );
    }
    assert!(
        outcomes
            .iter()
            .filter(|r| r["measure"] == "p_win")
            .all(|r| r["n"] == n_text)
    );
    // battles.csv: one row per battle, in order, agreeing with the win counts.
    let mut r = csv::Reader::from_path(root.join("battles.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len() as u64, n);
    assert!(
        rows.iter()
            .enumerate()
            .all(|(i, row)| row[0] == i.to_string())
    );
    let wins = rows.iter().filter(|row| &row[2] == "parliament").count() as u64;
    assert_eq!(wins, count("parliament", "p_win"));
    // The manifest says what was run.
    let m = manifest(&root);
    assert_eq!(m["scenario_file"], "configs/scenarios/small_action.toml");
    assert_eq!(m["scenario_hash"].as_str().unwrap().len(), 16);
    assert_eq!(
        m["files"].as_array().unwrap().last().unwrap(),
        "manifest.json"
    );
    assert!(m["dice_rolled"].as_u64().unwrap() > n);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn with_no_scenario_it_fights_marston_moor_into_output() {
    let root = scratch("default");
    let out = bin()
        .current_dir(&root)
        .args(["run", "--battles", "2", "--threads", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Marston Moor") && stdout.contains("2 battles"),
        "{stdout}"
    );
    let dir = root.join("output/marston_moor-1");
    let m = manifest(&dir);
    assert_eq!(m["scenario_file"], "configs/scenarios/marston_moor.toml");
    assert_eq!(m["scenario_builtin"], true);
    assert_eq!(m["battles"], 2);
    assert!(m["shard"].is_null());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn black_powder_runs_are_byte_identical_on_threads_and_shards() {
    let root = scratch("black-powder");
    let n = scaled(1_000, 200).to_string();
    let common = [
        "run",
        "marston_moor",
        "--ruleset",
        "black_powder",
        "--battles",
        &n,
        "--per-battle",
        "--quiet",
    ];
    let (one, two, parts, merged) = (
        root.join("one"),
        root.join("two"),
        root.join("parts"),
        root.join("merged"),
    );
    ok(&[&common[..], &["--threads", "1", "--out", s(&one)]].concat());
    ok(&[&common[..], &["--threads", "2", "--out", s(&two)]].concat());
    for k in ["2/2", "1/2"] {
        ok(&[&common[..], &["--shard", k, "--out", s(&parts)]].concat());
    }
    ok(&["merge", s(&parts), "--out", s(&merged), "--quiet"]);
    assert_same_results(&one, &two);
    assert_same_results(&one, &merged);
    // Not the Ironsides battles: another ruleset, another result and another identity.
    let iron = root.join("iron");
    ok(&[
        "run",
        "marston_moor",
        "--battles",
        &n,
        "--quiet",
        "--out",
        s(&iron),
    ]);
    assert_ne!(csvs(&iron)["outcomes.csv"], csvs(&one)["outcomes.csv"]);
    assert_ne!(
        manifest(&iron)["ruleset_hash"],
        manifest(&one)["ruleset_hash"]
    );
    // An unknown ruleset names the known ones.
    refused_all(
        &[
            "run",
            "duel_horse",
            "--ruleset",
            "dbm",
            "--out",
            s(&root.join("x")),
        ],
        &["unknown ruleset `dbm`", "ironsides, black_powder"],
    );
    let _ = std::fs::remove_dir_all(&root);
}

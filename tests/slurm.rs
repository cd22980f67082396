//! A sharded study on a real Slurm cluster: starts the one-node cluster of
//! `shared/tools/slurm-local.sh`, submits deploy/slurm/submit.sh's job array (4 shards of
//! small_action) and its dependent merge job, waits for them, and checks the merged files are
//! byte for byte those of a single local run. Then a study whose shard 2 fails: the merge job
//! never runs (afterok), and rerunning shard 2 alone completes the study. Then stops the cluster.
//!
//! It needs root (the script installs Debian's Slurm and munge and starts the daemons). Where
//! it cannot run it passes, printing `SKIPPED slurm: <reason>` past the test harness's output
//! capture: not root, no slurm-local.sh, Slurm could not be installed, or ECW_SIM_SKIP_SLURM
//! is set. Every command it runs has a time limit (coreutils `timeout`), so it cannot hang CI.
//! Runs of this test on one machine take turns (a lock file), and a cluster that was already
//! running is used and left running.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

mod common;

use common::cli::{BIN, csvs, manifest};

const SHARDS: u32 = 4;
/// Seconds to start the cluster (installing Slurm the first time took 13 s here).
const START_TIMEOUT: u64 = 240;
/// Seconds for one submission's array tasks and merge job to finish (about 7 s here).
const JOBS_TIMEOUT: u64 = 120;
/// Seconds to wait for another run of this test on the same machine to finish.
const LOCK_TIMEOUT: u64 = 300;

/// Prints to the real stderr, past `cargo test`'s capture: a skip is never silent.
fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

fn skip(reason: &str) {
    say(&format!("SKIPPED slurm: {reason}"));
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `program args` with a hard time limit, and these variables set (and every other
/// ECW_ variable removed).
fn run(secs: u64, program: &str, args: &[&str], vars: &[(&str, String)]) -> Output {
    let mut c = Command::new("timeout");
    c.args(["-k", "5", &secs.to_string(), program]).args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("ECW_") {
            c.env_remove(k);
        }
    }
    for (k, v) in vars {
        c.env(k, v);
    }
    c.stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn timed_out(o: &Output) -> bool {
    o.status.code() == Some(124) || o.status.code() == Some(137)
}

/// Whether `tool` is on PATH.
fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    // Real, effective, saved, file system: the effective one decides.
    line.split_whitespace().nth(2)?.parse().ok()
}

/// `shared/tools/slurm-local.sh`: beside the repository (as CI lays it out), or in /work.
fn find_script() -> Result<PathBuf, String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        repo.join("../shared/tools/slurm-local.sh"),
        PathBuf::from("/work/shared/tools/slurm-local.sh"),
    ];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .ok_or_else(|| {
            format!(
                "cannot find slurm-local.sh (looked for {})",
                candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        })
}

/// One run of this test per machine at a time: they share the cluster.
fn lock() -> Result<File, String> {
    let path = std::env::temp_dir().join("ecw-sim-slurm-test.lock");
    let f = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let deadline = Instant::now() + Duration::from_secs(LOCK_TIMEOUT);
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(f),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(500))
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "another run of this test held {} for {LOCK_TIMEOUT} s",
                    path.display()
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("cannot lock {}: {e}", path.display()));
            }
        }
    }
}

fn slurmctld_running() -> bool {
    Command::new("pgrep")
        .args(["-x", "slurmctld"])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The last lines of the daemons' logs, for a failure message.
fn daemon_logs() -> String {
    let mut out = String::new();
    for f in ["/var/log/slurm/slurmctld.log", "/var/log/slurm/slurmd.log"] {
        let t = std::fs::read_to_string(f).unwrap_or_default();
        let lines: Vec<&str> = t.lines().collect();
        out += &format!(
            "--- {f} (last lines)\n{}\n",
            lines[lines.len().saturating_sub(15)..].join("\n")
        );
    }
    out
}

/// The cluster while the test uses it: on the way out (also after a failed assertion) it
/// cancels the test's unfinished jobs and stops the cluster, unless it was running before.
struct Cluster {
    script: PathBuf,
    stop: bool,
    jobs: Vec<String>,
}

impl Cluster {
    fn stop_now(&mut self) {
        if std::mem::take(&mut self.stop) {
            let o = run(60, "bash", &[s(&self.script), "stop"], &[]);
            if !o.status.success() {
                say(&format!("slurm: slurm-local.sh stop said: {}", text(&o)));
            }
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() && !self.jobs.is_empty() {
            let ids: Vec<&str> = self.jobs.iter().map(String::as_str).collect();
            let _ = run(30, "scancel", &ids, &[]);
        }
        self.stop_now();
    }
}

/// One record of `scontrol show job -o`: an array task (or a group of pending ones) or a job.
#[derive(Debug, Clone)]
struct Record {
    task: String,
    state: String,
    reason: String,
    exit: String,
}

const FINISHED: [&str; 9] = [
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
    "OUT_OF_MEMORY",
];

/// The job's records. (sacct needs Slurm's accounting database, which the one-node cluster
/// does not run; scontrol keeps a finished job for MinJobAge, 300 s.)
fn records(job: &str) -> Result<Vec<Record>, String> {
    let o = run(30, "scontrol", &["show", "job", "-o", job], &[]);
    if !o.status.success() {
        return Err(format!("scontrol show job {job}: {}", text(&o)));
    }
    Ok(String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: BTreeMap<&str, &str> = l
                .split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .collect();
            let get = |k: &str| f.get(k).copied().unwrap_or("").to_string();
            Record {
                task: get("ArrayTaskId"),
                state: get("JobState"),
                reason: get("Reason"),
                exit: get("ExitCode"),
            }
        })
        .collect())
}

/// Polls until every record of every job has finished; their records by job, or why not.
fn wait_for(jobs: &[&str], secs: u64) -> Result<BTreeMap<String, Vec<Record>>, String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let mut all = BTreeMap::new();
        for j in jobs {
            all.insert(j.to_string(), records(j)?);
        }
        if all
            .values()
            .flatten()
            .all(|r| FINISHED.contains(&r.state.as_str()))
        {
            return Ok(all);
        }
        if Instant::now() > deadline {
            let q = run(30, "squeue", &[], &[]);
            return Err(format!(
                "jobs {jobs:?} not finished after {secs} s: {all:?}\n{}\n{}",
                text(&q),
                daemon_logs()
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The study's variables for submit.sh.
fn study_vars(
    bin: &Path,
    out: &Path,
    battles: u64,
    more: &[(&str, &str)],
) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("ECW_SIM", s(bin).to_string()),
        ("ECW_SCENARIO", "small_action".into()),
        ("ECW_BATTLES", battles.to_string()),
        ("ECW_SEED", "7".into()),
        ("ECW_SHARDS", SHARDS.to_string()),
        ("ECW_OUT", s(out).into()),
        ("ECW_ARGS", "--per-battle".into()),
        ("ECW_CPUS", "1".into()),
        ("ECW_TIME", "00:05:00".into()),
        ("ECW_MERGE_TIME", "00:05:00".into()),
    ];
    for (k, val) in more {
        let k: &'static str = match *k {
            "ECW_ARRAY" => "ECW_ARRAY",
            "ECW_SIM" => "ECW_SIM",
            other => panic!("unexpected variable {other}"),
        };
        v.retain(|(x, _)| *x != k);
        v.push((k, val.to_string()));
    }
    v
}

/// Runs deploy/slurm/submit.sh; the array job's and the merge job's ids.
fn submit(cluster: &mut Cluster, vars: &[(&str, String)]) -> (String, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/submit.sh");
    let o = run(60, "bash", &[s(&script)], vars);
    let said = text(&o);
    assert!(o.status.success(), "submit.sh failed: {said}");
    let id = |prefix: &str| -> String {
        said.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.split([',', ' ']).next())
            .unwrap_or_else(|| panic!("no `{prefix}` in: {said}"))
            .to_string()
    };
    let (array, merge) = (id("shards: job "), id("merge:  job "));
    cluster.jobs.push(array.clone());
    cluster.jobs.push(merge.clone());
    (array, merge)
}

/// The merged folder holds the single run's CSVs byte for byte, and its manifest but for
/// the timing.
fn assert_same_results(single: &Path, merged: &Path) {
    let want = csvs(single);
    let got = csvs(merged);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    assert!(
        want.contains_key("battles.csv") && want.len() == 6,
        "{want:?}"
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{name} differs between {} and {}",
            single.display(),
            merged.display()
        );
    }
    let (mut a, mut b) = (manifest(single), manifest(merged));
    a.as_object_mut().unwrap().remove("timing").unwrap();
    let timing = b.as_object_mut().unwrap().remove("timing").unwrap();
    assert_eq!(a, b);
    assert_eq!(timing["shards"], SHARDS);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// Each array task's state, by task id.
fn tasks(records: &[Record]) -> BTreeMap<u32, Record> {
    records
        .iter()
        .map(|r| {
            let k = r
                .task
                .parse()
                .unwrap_or_else(|_| panic!("not one array task: {r:?}"));
            (k, r.clone())
        })
        .collect()
}

#[test]
fn a_slurm_job_array_merges_into_the_files_of_one_run_and_a_failed_shard_blocks_the_merge() {
    let began = Instant::now();
    if std::env::var_os("ECW_SIM_SKIP_SLURM").is_some() {
        return skip("ECW_SIM_SKIP_SLURM is set");
    }
    if !cfg!(target_os = "linux") {
        return skip("slurm-local.sh runs on Debian Linux only");
    }
    match uid() {
        Some(0) => {}
        Some(u) => {
            return skip(&format!(
                "not root (uid {u}): slurm-local.sh installs packages and starts daemons as root"
            ));
        }
        None => return skip("cannot tell whether this is root (no /proc/self/status)"),
    }
    let script = match find_script() {
        Ok(p) => p,
        Err(why) => return skip(&why),
    };
    for tool in ["timeout", "bash", "pgrep"] {
        if !have(tool) {
            return skip(&format!("`{tool}` is not installed"));
        }
    }
    let _lock = match lock() {
        Ok(l) => l,
        Err(why) => return skip(&why),
    };

    // Start the cluster (installing Slurm if need be).
    let was_running = slurmctld_running();
    let mut cluster = Cluster {
        script: script.clone(),
        stop: !was_running,
        jobs: Vec::new(),
    };
    let started = run(START_TIMEOUT, "bash", &[s(&script), "start"], &[]);
    if !started.status.success() {
        let why = text(&started);
        if !have("slurmctld") || !have("sbatch") {
            return skip(&format!(
                "Slurm could not be installed (slurm-local.sh start exited {}): {}",
                started
                    .status
                    .code()
                    .map_or("on a signal".into(), |c| c.to_string()),
                why.trim()
            ));
        }
        panic!(
            "the Slurm cluster did not start{} ({:?}): {why}\n{}",
            if timed_out(&started) {
                format!(" within {START_TIMEOUT} s")
            } else {
                String::new()
            },
            started.status.code(),
            daemon_logs()
        );
    }
    say(&format!(
        "slurm: cluster up after {:.1} s{} ({})",
        began.elapsed().as_secs_f64(),
        if was_running {
            ", already running: it will be left running"
        } else {
            ""
        },
        script.display()
    ));

    let root = std::env::temp_dir().join(format!("ecw-sim-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    // The binary the jobs run, copied so a rebuild meanwhile cannot change it under them,
    // and the single run they must match.
    let bin = root.join("bin/ecw-sim");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(BIN, &bin).unwrap();
    let battles: u64 = if cfg!(debug_assertions) { 800 } else { 4_000 };
    let single = root.join("single");
    let o = run(
        120,
        s(&bin),
        &[
            "run",
            "small_action",
            "--battles",
            &battles.to_string(),
            "--seed",
            "7",
            "--per-battle",
            "--quiet",
            "--out",
            s(&single),
        ],
        &[],
    );
    assert!(o.status.success(), "the single run failed: {}", text(&o));

    // 1. A study of 4 shards and its merge.
    let t = Instant::now();
    let study = root.join("study");
    let (array, merge) = submit(&mut cluster, &study_vars(&bin, &study, battles, &[]));
    let done = wait_for(&[&array, &merge], JOBS_TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let shards = tasks(&done[&array]);
    assert_eq!(shards.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    for (k, r) in &shards {
        assert_eq!(r.state, "COMPLETED", "array task {k}: {r:?}");
        let log = read(&study.join(format!("logs/shard-{k}-job-{array}.out")));
        assert!(
            log.contains(&format!("shard {k}/{SHARDS} of small_action")),
            "{log}"
        );
    }
    assert_eq!(done[&merge][0].state, "COMPLETED", "{:?}", done[&merge]);
    let log = read(&study.join(format!("logs/merge-job-{merge}.out")));
    assert!(log.contains("merging 4 shard folders"), "{log}");
    assert_same_results(&single, &study.join("merged"));
    say(&format!(
        "slurm: array job {array} ({SHARDS} shards of {battles} small_action battles) and merge job {merge}: {:.1} s, merged files identical to a single run",
        t.elapsed().as_secs_f64()
    ));

    // 2. Shard 2 fails (its folder cannot be made: a file is in the way).
    let t = Instant::now();
    let failing = root.join("failing");
    std::fs::create_dir_all(failing.join("partials")).unwrap();
    let blocker = failing.join("partials/shard-2");
    std::fs::write(&blocker, "in the way").unwrap();
    let (array, merge) = submit(&mut cluster, &study_vars(&bin, &failing, battles, &[]));
    let done = wait_for(&[&array, &merge], JOBS_TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let shards = tasks(&done[&array]);
    for (k, r) in &shards {
        if *k == 2 {
            assert_eq!(
                (r.state.as_str(), r.exit.as_str()),
                ("FAILED", "2:0"),
                "{r:?}"
            );
        } else {
            assert_eq!(r.state, "COMPLETED", "array task {k}: {r:?}");
        }
    }
    let log = read(&failing.join(format!("logs/shard-2-job-{array}.out")));
    assert!(log.contains("is a file, not a folder"), "{log}");
    // The merge job never ran: cancelled as its dependency can never be met.
    let m = &done[&merge][0];
    assert_eq!(
        (m.state.as_str(), m.reason.as_str()),
        ("CANCELLED", "DependencyNeverSatisfied"),
        "{m:?}"
    );
    assert!(!failing.join("merged").exists());
    assert!(!failing.join(format!("logs/merge-job-{merge}.out")).exists());
    say(&format!(
        "slurm: array job {array} with shard 2 failing: merge job {merge} cancelled, never run ({:.1} s)",
        t.elapsed().as_secs_f64()
    ));

    // A rerun may not bring another binary into the study; nothing is submitted.
    let other = root.join("other-ecw-sim");
    std::fs::write(&other, "#!/bin/sh\nexit 0\n").unwrap();
    let o = run(
        60,
        "bash",
        &[s(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/submit.sh")
        )],
        &study_vars(
            &bin,
            &failing,
            battles,
            &[("ECW_SIM", s(&other)), ("ECW_ARRAY", "2")],
        ),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("was started with another ecw-sim binary"),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("shards: job"), "{}", text(&o));

    // 3. Rerun shard 2 alone, with its merge: the study completes, the other shards untouched.
    let t = Instant::now();
    std::fs::remove_file(&blocker).unwrap();
    let partial = |k: u32| failing.join(format!("partials/shard-{k}/partial-{k}-of-4.json"));
    let before: Vec<SystemTime> = [1, 3, 4].iter().map(|&k| modified(&partial(k))).collect();
    let (array, merge) = submit(
        &mut cluster,
        &study_vars(&bin, &failing, battles, &[("ECW_ARRAY", "2")]),
    );
    let done = wait_for(&[&array, &merge], JOBS_TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    let shards = tasks(&done[&array]);
    assert_eq!(shards.keys().copied().collect::<Vec<_>>(), [2]);
    assert_eq!(shards[&2].state, "COMPLETED", "{:?}", shards[&2]);
    assert_eq!(done[&merge][0].state, "COMPLETED", "{:?}", done[&merge]);
    let after: Vec<SystemTime> = [1, 3, 4].iter().map(|&k| modified(&partial(k))).collect();
    assert_eq!(before, after, "a rerun of shard 2 touched another shard");
    assert_same_results(&single, &failing.join("merged"));
    say(&format!(
        "slurm: shard 2 rerun alone (array job {array}) and merged (job {merge}): {:.1} s, identical to a single run",
        t.elapsed().as_secs_f64()
    ));

    // Stop the cluster (unless it was running before).
    cluster.jobs.clear();
    cluster.stop_now();
    if !was_running {
        let deadline = Instant::now() + Duration::from_secs(15);
        while slurmctld_running() {
            assert!(
                Instant::now() < deadline,
                "slurmctld still running after stop"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    say(&format!(
        "slurm: the whole test took {:.1} s",
        began.elapsed().as_secs_f64()
    ));
}

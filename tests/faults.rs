//! Faults: runs killed (SIGTERM, SIGKILL) at random moments leave their output folder complete
//! and valid or absent; SIGTERM and SIGHUP stop a run like Ctrl-C; two runs into one folder
//! are refused while the first holds it; leftovers of a killed run are cleared by the next.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::cli::*;

/// Enough duel battles with rows for about half a second on one core: a kill lands anywhere
/// from start-up through the fighting to the final writes.
const BATTLES: &str = "200000";

fn start(out: &Path, extra: &[&str]) -> Child {
    let mut args = vec![
        "run",
        "duel_horse",
        "--battles",
        BATTLES,
        "--per-battle",
        "--threads",
        "2",
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A small deterministic generator for the moments of the kills (the test is repeatable).
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// Checks `out` is a finished run: exactly the files its manifest lists, each byte for byte
/// the reference run's (the manifest apart from its timing).
fn assert_complete(out: &Path, reference: &Path) {
    let m = manifest(out);
    let mut listed: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(
        files_in(out),
        listed,
        "the folder holds what its manifest lists"
    );
    for f in &listed {
        if f != "manifest.json" {
            assert!(
                std::fs::read(out.join(f)).unwrap() == std::fs::read(reference.join(f)).unwrap(),
                "{f} differs from the uninterrupted run's"
            );
        }
    }
    assert_eq!(manifest_sans_timing(out), manifest_sans_timing(reference));
}

#[test]
fn killed_at_random_moments_the_folder_is_complete_or_absent() {
    let root = scratch("kills");
    let reference = root.join("reference");
    let status = start(&reference, &[]).wait().unwrap();
    assert!(status.success());
    let out = root.join("out");
    let mut moments = Moments(0x9e37_79b9_7f4a_7c15);
    let (mut absent, mut complete) = (0, 0);
    for round in 0..16 {
        let sig = if round % 2 == 0 { "TERM" } else { "KILL" };
        let mut child = start(&out, &[]);
        std::thread::sleep(Duration::from_millis(moments.next_ms(700)));
        signal(&child, sig);
        let status = child.wait().unwrap();
        if sig == "TERM" {
            // Stopped (130), finished before the signal (0), or killed before the handler
            // was installed (no code).
            assert!(
                matches!(status.code(), Some(0 | 130) | None),
                "round {round}: {status:?}"
            );
        }
        if out.exists() {
            assert_complete(&out, &reference);
            complete += 1;
            std::fs::remove_dir_all(&out).unwrap();
        } else {
            absent += 1;
        }
        // Beside the folder: at most the leftovers of this one killed run, never more.
        let stages = files_in(&root)
            .into_iter()
            .filter(|f| f.contains("ecw-sim-stage"))
            .count();
        assert!(stages <= 1, "round {round}: {:?}", files_in(&root));
    }
    assert!(
        absent > 0,
        "some kills landed before the end ({complete} complete)"
    );
    // The next run clears a killed run's stage and leaves nothing but its folder.
    assert!(start(&out, &[]).wait().unwrap().success());
    assert_complete(&out, &reference);
    assert_eq!(files_in(&root), ["out", "reference"]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn sigterm_and_sighup_stop_a_run_like_ctrl_c_and_nothing_is_written() {
    let root = scratch("term");
    for sig in ["TERM", "HUP"] {
        let out = root.join(format!("out-{sig}"));
        let child = bin()
            .args([
                "run",
                "small_action",
                "--battles",
                "100000000",
                "--per-battle",
                "--threads",
                "1",
                "--out",
                s(&out),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_stage(&root);
        std::thread::sleep(Duration::from_millis(200));
        signal(&child, sig);
        let result = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(130), "SIG{sig}: {err}");
        assert!(err.contains("nothing was written"), "SIG{sig}: {err}");
        assert!(!out.exists());
        assert_eq!(files_in(&root), Vec::<String>::new(), "SIG{sig}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Waits until a run is staging its files under `root`.
fn wait_for_stage(root: &Path) -> PathBuf {
    let started = Instant::now();
    loop {
        if let Some(f) = files_in(root).iter().find(|f| f.contains("ecw-sim-stage")) {
            return root.join(f);
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no run started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_second_run_into_a_folder_in_use_is_refused_naming_the_first() {
    let root = scratch("lock");
    let out = root.join("out");
    let mut first = bin()
        .args([
            "run",
            "small_action",
            "--battles",
            "100000000",
            "--threads",
            "1",
            "--quiet",
            "--out",
            s(&out),
        ])
        .spawn()
        .unwrap();
    wait_for_stage(&root);
    let second = ecw(&["run", "duel_horse", "--battles", "10", "--out", s(&out)]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is in use by another ecw-sim run")
            && err.contains(&format!("pid {}", first.id()))
            && err.contains("small_action"),
        "{err}"
    );
    // A shard of the same folder locks only its own files.
    let shard = ecw(&[
        "run",
        "duel_horse",
        "--battles",
        "10",
        "--shard",
        "1/2",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert!(
        shard.status.success(),
        "{}",
        String::from_utf8_lossy(&shard.stderr)
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn leftovers_of_killed_runs_are_cleared_by_the_next_run() {
    let root = scratch("orphans");
    let out = root.join("out");
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "50",
        "--per-battle",
        "--quiet",
        "--out",
        s(&out),
    ]);
    // What older versions and killed runs left: temporary files in the folder, a stage beside it.
    let orphans = [
        ".battles.csv.tmp-4242",
        ".outcomes.csv.tmp-17",
        ".ecw-sim-write-test-9",
    ];
    for o in orphans {
        std::fs::write(out.join(o), vec![b'x'; 1000]).unwrap();
    }
    let stage = root.join(".out.ecw-sim-stage-4242");
    std::fs::create_dir(&stage).unwrap();
    std::fs::write(stage.join("outcomes.csv"), "partial").unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "60",
        "--per-battle",
        "--quiet",
        "--force",
        "--out",
        s(&out),
    ]);
    let mut want = vec![
        "battles.csv",
        "commanders.csv",
        "cv_losses.csv",
        "manifest.json",
        "notes.txt",
        "outcomes.csv",
        "pursuits.csv",
    ];
    want.sort();
    assert_eq!(files_in(&out), want, "orphans gone, the user's file kept");
    assert_eq!(manifest(&out)["battles"], 60);
    assert_eq!(files_in(&root), ["out"], "the stage is gone");
    let _ = std::fs::remove_dir_all(&root);
}

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

/// Runs the binary with stdout (or stderr) on `/dev/full`: every write fails as on a full disk.
fn onto_full(args: &[&str], stderr: bool) -> std::process::Output {
    let full = || Stdio::from(std::fs::File::create("/dev/full").unwrap());
    let mut cmd = bin();
    cmd.args(args);
    if stderr {
        cmd.stdout(Stdio::null()).stderr(full());
    } else {
        cmd.stdout(full()).stderr(Stdio::piped());
    }
    cmd.output().unwrap()
}

/// Printing to a full disk is an I/O failure (exit 4) named as `<stdout>`, from every command
/// that prints, never a panic; an error message that cannot be printed still leaves its exit
/// code; a reader that stops early (`| head`) ends the command quietly.
#[test]
fn printing_to_a_full_disk_or_a_closed_pipe_is_an_error_not_a_panic() {
    let root = scratch("print-full");
    let cal = root.join("cal");
    let commands: [Vec<&str>; 4] = [
        vec!["bench", "small_action", "--battles", "20", "--threads", "1"],
        vec!["bench", "--scale", "--sizes", "50", "--seconds", "0.05"],
        vec!["calibrate", "edgehill", "--battles", "2", "--out", s(&cal)],
        vec!["tables", "--list", "--ruleset", "black_powder"],
    ];
    for args in &commands {
        let out = onto_full(args, false);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {err}");
        assert!(
            err.contains("<stdout>") && err.contains("No space left") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // The message itself cannot be written: the exit code of the refusal stands.
    let out = onto_full(&["run", "no_such_scenario_here", "--battles", "1"], true);
    assert_eq!(out.status.code(), Some(2));
    let out = onto_full(&["validate", "no_such_scenario_here"], true);
    assert_eq!(out.status.code(), Some(2));
    // `| head -c 10`: the pipe closes after the first line.
    let mut child = bin()
        .args(["bench", "small_action", "--battles", "20", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A chart, map or page named onto something that is not a file (here a named pipe; a device
/// such as `/dev/full` alike) is refused before any battle, and the pipe is left as it was,
/// not replaced by a file.
#[test]
fn an_output_that_is_not_a_file_is_refused_and_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let root = scratch("not-a-file");
    let (svg, html) = (root.join("pipe.svg"), root.join("pipe.html"));
    for p in [&svg, &html] {
        assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
    }
    let commands: [(Vec<&str>, &Path); 3] = [
        (
            vec![
                "bench",
                "--scale",
                "--sizes",
                "50",
                "--seconds",
                "0.05",
                "--chart",
                s(&svg),
            ],
            &svg,
        ),
        (
            vec!["replay", "duel_horse", "--map", s(&svg), "--force"],
            &svg,
        ),
        (
            vec!["replay", "duel_horse", "--html", s(&html), "--force"],
            &html,
        ),
    ];
    for (args, pipe) in &commands {
        let out = bin().args(args).stdout(Stdio::null()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(s(pipe)) && err.contains("not a file"),
            "{args:?}: {err}"
        );
        let kind = std::fs::symlink_metadata(pipe).unwrap().file_type();
        assert!(kind.is_fifo(), "{args:?} replaced the pipe");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// `calibrate` and `bench` stop on Ctrl-C, SIGTERM or SIGHUP like a run: a word on stderr,
/// exit 130, and (calibrate) no folder, stage or lock left behind.
#[test]
fn calibrate_and_bench_stop_on_a_signal_and_leave_nothing() {
    let root = scratch("signals");
    let cal = root.join("cal");
    let commands: [(Vec<&str>, &str); 3] = [
        (
            vec![
                "calibrate",
                "edgehill",
                "--battles",
                "2000000",
                "--out",
                s(&cal),
            ],
            "INT",
        ),
        (
            vec!["bench", "small_action", "--battles", "20000000"],
            "TERM",
        ),
        (
            vec!["bench", "--scale", "--sizes", "50", "--seconds", "600"],
            "HUP",
        ),
    ];
    for (args, sig) in &commands {
        let child = bin()
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        signal(&child, sig);
        let started = Instant::now();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?} {sig}: {err}");
        assert!(
            err.contains("interrupted") && err.contains("stopped"),
            "{err}"
        );
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
        let left: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

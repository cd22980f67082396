//! Sharded runs as a cluster runs them, without the cluster: `merge` refusing partials that do
//! not belong together (naming the shard), and the deploy/ scripts (the Slurm array task and
//! merge job, the Kubernetes shard and merge pods) run by hand with the variables Slurm and
//! Kubernetes would give them, checked against a single run. tests/slurm.rs runs the Slurm
//! scripts on a real (one-node) Slurm cluster.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

use common::cli::*;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_vec(v).unwrap()).unwrap();
}

/// Copies a shard's partial into a folder of its own with one field of its JSON changed.
fn tampered(from: &Path, to: &Path, key: &str, value: Value) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    let name = from.file_name().unwrap();
    let mut v = read_json(from);
    assert!(v.get(key).is_some(), "no `{key}` in {}", from.display());
    v[key] = value;
    // Sealed again, as a different run's partial would be: the checksum is not what refuses it.
    let p: ecw_sim::report::Partial = serde_json::from_value(v).unwrap();
    let v = serde_json::to_value(p.seal()).unwrap();
    let path = to.join(name);
    write_json(&path, &v);
    path
}

#[test]
fn merge_refuses_partials_that_do_not_belong_together_naming_the_shard() {
    let root = scratch("refusals");
    let shard_run = |dir: &Path, shard: &str, extra: &[&str]| {
        ok(&[
            &[
                "run",
                "duel_horse",
                "--battles",
                "600",
                "--seed",
                "3",
                "--shard",
                shard,
                "--threads",
                "1",
                "--quiet",
                "--out",
                s(dir),
            ][..],
            extra,
        ]
        .concat());
    };
    // Each shard in its own folder, as the Slurm array tasks write them.
    let folder = |k: u32| root.join(format!("shard-{k}"));
    for k in 1..=3 {
        shard_run(&folder(k), &format!("{k}/3"), &[]);
    }
    let p3 = folder(3).join("partial-3-of-3.json");
    let out = root.join("out");
    let o = s(&out);
    let (f1, f2, f3) = (folder(1), folder(2), folder(3));
    let merge = |third: &Path| -> Vec<String> {
        vec![
            "merge".into(),
            s(&f1).into(),
            s(&f2).into(),
            s(third).into(),
            "--out".into(),
            o.into(),
        ]
    };
    let refuse = |args: Vec<String>, needles: &[&str]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_all(&a, needles);
        assert!(!out.exists(), "a refused merge wrote {}", out.display());
    };
    let version = env!("CARGO_PKG_VERSION");

    // Another program version: refused, naming shard 3 and its file.
    let other = tampered(&p3, &root.join("v"), "version", "0.0.1-old".into());
    refuse(
        merge(other.parent().unwrap()),
        &[
            &format!("{} (shard 3/3) is from a different run", other.display()),
            &format!("program ecw-sim 0.0.1-old, not ecw-sim {version}"),
        ],
    );
    // The same run by a build that counts other measures of the ruleset's own (as Black Powder
    // partials written before it had any): not "a different order of battle".
    let mut v = read_json(&p3);
    v["layout"]["measures"] = serde_json::json!([{ "name": "volleys_fired", "report": "total" }]);
    let p: ecw_sim::report::Partial = serde_json::from_value(v).unwrap();
    let other = root.join("measures").join(p3.file_name().unwrap());
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    write_json(&other, &serde_json::to_value(p.seal()).unwrap());
    refuse(
        merge(other.parent().unwrap()),
        &[
            "(shard 3/3) counts other measures of the ruleset's own than",
            "1 (volleys_fired), not 0",
            "written by another build of ecw-sim: fight every shard with one build",
        ],
    );
    // Another ruleset text, another scenario text.
    let other = tampered(
        &p3,
        &root.join("r"),
        "ruleset_hash",
        "0123456789abcdef".into(),
    );
    refuse(
        merge(other.parent().unwrap()),
        &[
            "(shard 3/3) is from a different run",
            "ruleset hash 0123456789abcdef",
        ],
    );
    let other = tampered(
        &p3,
        &root.join("h"),
        "scenario_hash",
        "fedcba9876543210".into(),
    );
    refuse(
        merge(other.parent().unwrap()),
        &[
            "(shard 3/3) is from a different run",
            "scenario",
            "fedcba9876543210",
        ],
    );
    // Really run differently: with an override, with another battle count, per battle.
    let o3 = root.join("override");
    shard_run(&o3, "3/3", &["--set", "turn_limit=12"]);
    refuse(
        merge(&o3),
        &[
            "(shard 3/3) is from a different run",
            "overrides [turn_limit=12], not []",
        ],
    );
    let n3 = root.join("count");
    ok(&[
        "run",
        "duel_horse",
        "--battles",
        "900",
        "--seed",
        "3",
        "--shard",
        "3/3",
        "--quiet",
        "--out",
        s(&n3),
    ]);
    refuse(merge(&n3), &["(shard 3/3)", "battle count 900, not 600"]);
    let b3 = root.join("per-battle");
    shard_run(&b3, "3/3", &["--per-battle"]);
    refuse(merge(&b3), &["(shard 3/3) was run with --per-battle"]);
    // A shard of another split of the run.
    let m4 = root.join("split4");
    shard_run(&m4, "3/4", &[]);
    refuse(merge(&m4), &["(shard 3/4) is one of 4 shards", "one of 3"]);
    // Missing: the middle shard, or two of them.
    refuse(
        vec![
            "merge".into(),
            s(&f1).into(),
            s(&f3).into(),
            "--out".into(),
            o.into(),
        ],
        &["shard 2/3 of Duel: trotters v gallopers missing (have 1/3, 3/3)"],
    );
    refuse(
        vec!["merge".into(), s(&f3).into(), "--out".into(), o.into()],
        &["shards 1/3, 2/3 of Duel: trotters v gallopers missing (have 3/3)"],
    );
    // Repeated: the same shard from two folders (say, a rerun copied beside the original).
    let again = root.join("again");
    std::fs::create_dir_all(&again).unwrap();
    std::fs::copy(&p3, again.join("partial-3-of-3.json")).unwrap();
    let mut args = merge(&f3);
    args.insert(4, s(&again).into());
    refuse(
        args,
        &[&format!(
            "shard 3/3 is given twice: {} and {}",
            again.join("partial-3-of-3.json").display(),
            p3.display()
        )],
    );
    // A partial that does not hold its shard's battles, or is named for another shard.
    let other = tampered(&p3, &root.join("range"), "first_battle", 0.into());
    refuse(
        merge(other.parent().unwrap()),
        &[
            "(shard 3/3): holds 200 battles (0..600), but shard 3/3 of a 600-battle run is battles 400..600",
        ],
    );
    let renamed = root.join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    std::fs::copy(
        folder(2).join("partial-2-of-3.json"),
        renamed.join("partial-3-of-3.json"),
    )
    .unwrap();
    refuse(
        merge(&renamed),
        &["partial-3-of-3.json: named for shard 3/3 but holds shard 2/3"],
    );
    // A partial of another format version.
    let other = tampered(
        &p3,
        &root.join("format"),
        "format",
        "ecw-sim partial result 0".into(),
    );
    refuse(
        merge(other.parent().unwrap()),
        &["format `ecw-sim partial result 0`"],
    );

    // The three that belong together merge.
    ok(&["merge", s(&f1), s(&f2), s(&f3), "--out", o, "--quiet"]);
    assert_eq!(read_json(&out.join("manifest.json"))["battles"], 600);
    let _ = std::fs::remove_dir_all(&root);
}

/// A scenario, battle count and seed small enough to fight quickly in every test below.
struct Study {
    battles: String,
    seed: &'static str,
}

fn study() -> Study {
    Study {
        battles: scaled(1_200, 240).to_string(),
        seed: "5",
    }
}

/// A single run of the study with one battle row each, into `dir`.
fn single_run(dir: &Path, st: &Study) {
    ok(&[
        "run",
        "small_action",
        "--battles",
        &st.battles,
        "--seed",
        st.seed,
        "--per-battle",
        "--threads",
        "2",
        "--quiet",
        "--out",
        s(dir),
    ]);
}

/// Runs a deploy/ script with `sh` or `bash` and exactly these ECW_/SLURM_/JOB_ variables.
fn script(shell: &str, path: &Path, vars: &[(&str, String)]) -> Output {
    let mut c = Command::new(shell);
    c.arg(path);
    for (k, _) in std::env::vars() {
        if k.starts_with("ECW_") || k.starts_with("SLURM_") || k == "JOB_COMPLETION_INDEX" {
            c.env_remove(k);
        }
    }
    for (k, v) in vars {
        c.env(k, v);
    }
    c.output().expect("the shell runs")
}

fn script_ok(shell: &str, path: &Path, vars: &[(&str, String)]) -> String {
    let out = script(shell, path, vars);
    assert!(
        out.status.success(),
        "{} with {vars:?} failed: {}{}",
        path.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn script_fails(shell: &str, path: &Path, vars: &[(&str, String)], needle: &str) {
    let out = script(shell, path, vars);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "{} with {vars:?} succeeded",
        path.display()
    );
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
}

#[cfg(unix)]
#[test]
fn the_slurm_array_task_and_merge_job_fight_the_same_battles_as_one_run() {
    let root = scratch("slurm-scripts");
    let st = study();
    let single = root.join("single");
    single_run(&single, &st);
    let shards = repo().join("deploy/slurm/shards.sbatch");
    let merge = repo().join("deploy/slurm/merge.sbatch");
    let base = |out: &Path| -> Vec<(&str, String)> {
        vec![
            ("ECW_SIM", BIN.to_string()),
            ("ECW_SCENARIO", "small_action".into()),
            ("ECW_BATTLES", st.battles.clone()),
            ("ECW_SEED", st.seed.into()),
            ("ECW_OUT", s(out).into()),
            ("ECW_ARGS", "--per-battle".into()),
            ("SLURM_CPUS_PER_TASK", "1".into()),
        ]
    };

    // `sbatch --array=1-4`: M from SLURM_ARRAY_TASK_COUNT, K = SLURM_ARRAY_TASK_ID.
    let out = root.join("array-1-4");
    for k in [3, 1, 4, 2] {
        let mut v = base(&out);
        v.push(("SLURM_ARRAY_TASK_ID", k.to_string()));
        v.push(("SLURM_ARRAY_TASK_COUNT", "4".into()));
        let said = script_ok("bash", &shards, &v);
        assert!(
            said.contains(&format!("shard {k}/4 of small_action")),
            "{said}"
        );
        assert_eq!(
            files_in(&out.join(format!("partials/shard-{k}"))),
            [
                format!("partial-{k}-of-4.battles.csv"),
                format!("partial-{k}-of-4.json")
            ]
        );
    }
    script_ok("bash", &merge, &base(&out));
    assert_same_results(&single, &out.join("merged"));

    // `sbatch --array=0-2` with ECW_ARRAY_BASE=0 and ECW_SHARDS=3; shard 3 rerun alone
    // (`--array=2`, so SLURM_ARRAY_TASK_COUNT=1) after it failed.
    let out = root.join("array-0-2");
    for id in 0..3 {
        let mut v = base(&out);
        v.push(("SLURM_ARRAY_TASK_ID", id.to_string()));
        v.push((
            "SLURM_ARRAY_TASK_COUNT",
            if id == 2 { "1" } else { "3" }.into(),
        ));
        v.push(("ECW_SHARDS", "3".into()));
        v.push(("ECW_ARRAY_BASE", "0".into()));
        let said = script_ok("bash", &shards, &v);
        assert!(said.contains(&format!("shard {}/3 of", id + 1)), "{said}");
    }
    script_ok("bash", &merge, &base(&out));
    assert_same_results(&single, &out.join("merged"));

    // Bad mappings fail before fighting, saying why.
    let out = root.join("bad");
    let mut v = base(&out);
    v.push(("SLURM_ARRAY_TASK_ID", "5".into()));
    v.push(("SLURM_ARRAY_TASK_COUNT", "4".into()));
    script_fails(
        "bash",
        &shards,
        &v,
        "array index 5 is shard 5, but there are shards 1 to 4",
    );
    let mut v = base(&out);
    v.push(("SLURM_ARRAY_TASK_ID", "0".into()));
    v.push(("SLURM_ARRAY_TASK_COUNT", "4".into()));
    script_fails("bash", &shards, &v, "array index 0 is shard 0");
    script_fails("bash", &shards, &base(&out), "not an array task");
    let mut v = base(&out);
    v.push(("SLURM_ARRAY_TASK_ID", "1".into()));
    v.push(("SLURM_ARRAY_TASK_COUNT", "4".into()));
    v[0].1 = s(&root.join("no-such-binary")).into();
    script_fails("bash", &shards, &v, "no ecw-sim binary at");
    script_fails("bash", &merge, &base(&out), "no partial results in");
    assert!(!out.join("merged").exists());
    // A merge job that finds a shard missing writes nothing and names it.
    let out = root.join("array-1-4");
    std::fs::remove_dir_all(out.join("partials/shard-2")).unwrap();
    std::fs::remove_dir_all(out.join("merged")).unwrap();
    script_fails(
        "bash",
        &merge,
        &base(&out),
        "shard 2/4 of A small action, 1643 missing",
    );
    assert!(!out.join("merged").exists());
    let _ = std::fs::remove_dir_all(&root);
}

/// `KEY=VALUE` literals of the ConfigMap ecw-sim-study in kustomization.yaml.
fn study_literals(kustomization: &str) -> BTreeMap<String, String> {
    let mut in_study = false;
    let mut lits = BTreeMap::new();
    for line in kustomization.lines() {
        let t = line.trim();
        if t.starts_with("- name:") {
            in_study = t == "- name: ecw-sim-study";
        } else if in_study
            && let Some(kv) = t.strip_prefix("- ")
            && let Some((k, v)) = kv.split_once('=')
        {
            lits.insert(k.to_string(), v.to_string());
        }
    }
    lits
}

/// The value of `key: N` in a manifest (the first, as a whole number).
fn yaml_number(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| {
            let rest = l.trim().strip_prefix(&format!("{key}:"))?;
            rest.split('#').next()?.trim().parse().ok()
        })
        .unwrap_or_else(|| panic!("no `{key}: N`"))
}

#[cfg(unix)]
#[test]
fn the_kubernetes_pods_fight_the_same_battles_as_one_run() {
    let k8s = repo().join("deploy/kubernetes");
    let kustomization = std::fs::read_to_string(k8s.join("kustomization.yaml")).unwrap();
    let job = std::fs::read_to_string(k8s.join("shards-job.yaml")).unwrap();
    let lits = study_literals(&kustomization);
    for key in [
        "ECW_SCENARIO",
        "ECW_BATTLES",
        "ECW_SEED",
        "ECW_SHARDS",
        "ECW_OUT",
        "ECW_ARGS",
        "ECW_ONLY",
    ] {
        assert!(lits.contains_key(key), "{key} missing from {lits:?}");
    }
    // The Job's completions are the shards; a pod's index is its shard less one.
    let m: u64 = lits["ECW_SHARDS"].parse().unwrap();
    assert_eq!(
        yaml_number(&job, "completions"),
        m,
        "completions v ECW_SHARDS"
    );
    assert!(job.contains("completionMode: Indexed"));
    // The shipped study is a real one.
    ok(&["validate", &lits["ECW_SCENARIO"]]);

    let root = scratch("k8s-scripts");
    let st = study();
    let single = root.join("single");
    single_run(&single, &st);
    let out = root.join("results");
    // The ConfigMap's variables, with a smaller study, as the pods get them.
    let env = |index: Option<u64>, only: &str| -> Vec<(&str, String)> {
        let mut v = vec![
            ("ECW_SIM", BIN.to_string()),
            ("ECW_SCENARIO", "small_action".into()),
            ("ECW_BATTLES", st.battles.clone()),
            ("ECW_SEED", st.seed.into()),
            ("ECW_SHARDS", m.to_string()),
            ("ECW_OUT", s(&out).into()),
            ("ECW_ARGS", "--per-battle".into()),
            ("ECW_ONLY", only.into()),
            ("ECW_THREADS", "1".into()),
        ];
        if let Some(i) = index {
            v.push(("JOB_COMPLETION_INDEX", i.to_string()));
        }
        v
    };
    let shard = k8s.join("shard.sh");
    let merge = k8s.join("merge.sh");
    // Every index but the last, then the merge finds the last missing.
    for i in 0..m - 1 {
        let said = script_ok("sh", &shard, &env(Some(i), ""));
        assert!(said.contains(&format!("shard {}/{m} of", i + 1)), "{said}");
    }
    script_fails(
        "sh",
        &merge,
        &env(None, ""),
        &format!("shard {m}/{m} of A small action, 1643 missing"),
    );
    // Rerunning with ECW_ONLY=M: the other pods leave their shards alone.
    let first = out.join("partials/shard-1/partial-1-of-4.json");
    let before = std::fs::metadata(&first).unwrap().modified().unwrap();
    for i in 0..m {
        let said = script_ok("sh", &shard, &env(Some(i), &format!(" {m} ")));
        if i + 1 == m {
            assert!(said.contains(&format!("shard {m}/{m} of")), "{said}");
        } else {
            assert!(said.contains("not in ECW_ONLY"), "{said}");
        }
    }
    assert_eq!(
        std::fs::metadata(&first).unwrap().modified().unwrap(),
        before
    );
    script_ok("sh", &merge, &env(None, ""));
    assert_same_results(&single, &out.join("merged"));
    // More pods than shards, or no index: refused.
    script_fails(
        "sh",
        &shard,
        &env(Some(m), ""),
        &format!("set the Job's completions to {m}"),
    );
    script_fails(
        "sh",
        &shard,
        &env(None, ""),
        "JOB_COMPLETION_INDEX is unset",
    );

    // run.sh is at least valid shell; kustomize renders the whole, where kubectl is at hand.
    let syntax = Command::new("bash")
        .args(["-n", s(&k8s.join("run.sh"))])
        .output()
        .unwrap();
    assert!(syntax.status.success(), "{:?}", syntax);
    match Command::new("kubectl")
        .args(["kustomize", s(&k8s)])
        .output()
    {
        Ok(r) => {
            assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
            let text = String::from_utf8_lossy(&r.stdout);
            for want in [
                "kind: PersistentVolumeClaim",
                "name: ecw-sim-study",
                "name: ecw-sim-scripts",
                "completionMode: Indexed",
                "exec \"$sim\" run",
            ] {
                assert!(
                    text.contains(want),
                    "`{want}` not in the rendered manifests"
                );
            }
        }
        Err(_) => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "note: kubectl not found, so `kubectl kustomize deploy/kubernetes` was not checked"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// `: "${ECW_X:=default}"` lines of a script.
fn defaults(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix(": \"${")?.strip_suffix("}\"")?;
            let (k, v) = rest.split_once(":=")?;
            Some((k.to_string(), v.to_string()))
        })
        .collect()
}

#[test]
fn the_slurm_scripts_agree_on_their_defaults() {
    let dir = repo().join("deploy/slurm");
    let files = ["submit.sh", "shards.sbatch", "merge.sbatch"];
    let all: Vec<BTreeMap<String, String>> = files.iter().map(|f| defaults(&dir.join(f))).collect();
    assert!(
        all[0].len() >= 8 && all[1].len() >= 6 && all[2].len() >= 4,
        "{all:?}"
    );
    for (i, a) in all.iter().enumerate() {
        for (j, b) in all.iter().enumerate().skip(i + 1) {
            for (k, v) in a {
                // The binary's default is relative to the repository in submit.sh, to the
                // submitting folder in a job; submit.sh always passes its own on.
                if k != "ECW_SIM"
                    && let Some(w) = b.get(k)
                {
                    assert_eq!(v, w, "{k}: {} says {v}, {} says {w}", files[i], files[j]);
                }
            }
        }
    }
}

//! Driving the built binary from tests: run it, expect success or a refusal, compare outputs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Debug builds are many times slower: fewer battles, the same checks.
pub fn scaled(release: u64, debug: u64) -> u64 {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ecw-sim");

pub fn bin() -> Command {
    Command::new(BIN)
}

/// A fresh, empty folder for one test of this test file.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ecw-sim-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn ecw(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Runs and expects success.
pub fn ok(args: &[&str]) -> Output {
    let out = ecw(args);
    assert!(
        out.status.success(),
        "ecw-sim {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs, expects success and returns what it printed.
pub fn run_ok(args: &[&str]) -> String {
    String::from_utf8_lossy(&ok(args).stdout).into_owned()
}

/// Runs and expects a refusal (exit code 2, a usage error, or 3, an input refused) with every
/// one of `needles` in the error.
pub fn refused_all(args: &[&str], needles: &[&str]) -> String {
    let out = ecw(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(out.status.code(), Some(2 | 3)),
        "ecw-sim {args:?}: exit {:?}: {err}",
        out.status.code()
    );
    for n in needles {
        assert!(
            err.contains(n),
            "ecw-sim {args:?}: expected `{n}` in: {err}"
        );
    }
    err
}

/// A CSV file's header, and its rows as column -> value.
pub fn csv_table(path: &Path) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let h: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| {
            h.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect();
    (h, rows)
}

/// Runs and expects a refusal (exit code 2 or 3) with `needle` in the error.
pub fn refused(args: &[&str], needle: &str) -> String {
    refused_all(args, &[needle])
}

/// Every CSV of a folder, by name.
pub fn csvs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "csv") && !p.to_string_lossy().contains("partial-")
        })
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

pub fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The manifest without its machine-dependent timing.
pub fn manifest_sans_timing(dir: &Path) -> serde_json::Value {
    let mut m = manifest(dir);
    m.as_object_mut()
        .unwrap()
        .remove("timing")
        .expect("a timing section");
    m
}

/// The file names in a folder, sorted (none if it does not exist).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The merged folder holds exactly the single run's CSVs, byte for byte, and its manifest
/// (timing aside).
pub fn assert_same_results(single: &Path, merged: &Path) {
    let want = csvs(single);
    let got = csvs(merged);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{} v {}",
        single.display(),
        merged.display()
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{name} differs between {} and {}",
            single.display(),
            merged.display()
        );
    }
    assert_eq!(manifest_sans_timing(merged), manifest_sans_timing(single));
}

/// Splits a documented command line as a shell would: whitespace separates words, single and
/// double quotes group (no escapes), and an unquoted ` #` starts a comment.
///
/// # Panics
/// On an unclosed quote: a typo in the document.
#[allow(dead_code)] // not every test crate reads documented commands
pub fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (Some(q), _) if c == q => quote = None,
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "an unclosed quote in `{line}`");
    out.extend(word);
    out
}

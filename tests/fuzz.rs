//! Fuzzing on stable Rust with proptest: the real scenario, ruleset and doctrine files mutated
//! (bytes flipped, text cut and inserted, numbers replaced by extremes, lines doubled and
//! dropped) and `--set` overrides of their real keys with hostile values, read as the commands
//! read them. A case passes when it is refused with an error or accepted (and then, for a
//! scenario, built, described and fought for one battle): it must never panic, and never take
//! longer than [`CASE_LIMIT`] (a watchdog aborts the test naming the input).
//!
//! The short version runs in the normal suite; the long one (100,000 cases) is ignored:
//! `cargo test --release --test fuzz -- --ignored`.

use ecw_sim::rules::RuleData;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ecw_sim::dice::battle_seed;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::rules::ironsides::IronsidesRules;
use ecw_sim::rules::{Ironsides, Ruleset};
use ecw_sim::scenario::{BUILTIN, Scenario};
use ecw_sim::stats::{Collector, Layout};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

const RULESET: &str = include_str!("../configs/rulesets/ironsides.toml");
const DOCTRINES: [&str; 3] = [
    include_str!("../configs/doctrines/cautious.toml"),
    include_str!("../configs/doctrines/rupert.toml"),
    include_str!("../configs/doctrines/artillery_train.toml"),
];

/// The longest any one case may take: far above the slowest accepted input's time.
const CASE_LIMIT: Duration = Duration::from_secs(20);

/// Values that have broken parsers and range checks before.
const HOSTILE: [&str; 26] = [
    "0",
    "-1",
    "1e308",
    "-1e308",
    "1e300",
    "nan",
    "inf",
    "-inf",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "65536",
    "1001",
    "360.5",
    "0.0000001",
    "\"\"",
    "\"\\u001b[31mred\"",
    "\"\\r\\n\"",
    "[]",
    "{}",
    "[1e308, -1e308]",
    "true",
    "\"cromwell\"",
    "\"nosuch\"",
    "7",
    "{ roll = true }",
];

/// One change to a file's text.
#[derive(Debug, Clone)]
enum Mutation {
    FlipByte(usize, u8),
    Cut(usize, usize),
    Insert(usize, String),
    /// Replace the n-th number of the text by a hostile value.
    Number(usize, usize),
    DoubleLine(usize),
    DropLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::FlipByte(i, b)),
        (any::<usize>(), 1usize..200).prop_map(|(i, n)| Mutation::Cut(i, n)),
        (any::<usize>(), prop::sample::select(&HOSTILE[..]))
            .prop_map(|(i, v)| Mutation::Insert(i, v.to_string())),
        (any::<usize>(), 0..HOSTILE.len()).prop_map(|(i, v)| Mutation::Number(i, v)),
        (any::<usize>(), 0..HOSTILE.len()).prop_map(|(i, v)| Mutation::Number(i, v)),
        any::<usize>().prop_map(Mutation::DoubleLine),
        any::<usize>().prop_map(Mutation::DropLine),
    ]
}

/// The nearest char boundary at or below `i % (len + 1)`.
fn boundary(text: &str, i: usize) -> usize {
    let mut at = i % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, m: &Mutation) -> Vec<u8> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    match m {
        Mutation::FlipByte(i, b) => {
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let at = i % bytes.len();
                bytes[at] ^= b | 1;
            }
            bytes
        }
        Mutation::Cut(i, n) => {
            let a = boundary(text, *i);
            let b = boundary(text, a.saturating_add(*n).min(text.len()));
            [&text[..a], &text[b..]].concat().into_bytes()
        }
        Mutation::Insert(i, v) => {
            let a = boundary(text, *i);
            [&text[..a], v.as_str(), &text[a..]].concat().into_bytes()
        }
        Mutation::Number(i, v) => {
            let spans = numbers(text);
            if spans.is_empty() {
                return text.as_bytes().to_vec();
            }
            let (a, b) = spans[i % spans.len()];
            [&text[..a], HOSTILE[*v], &text[b..]].concat().into_bytes()
        }
        Mutation::DoubleLine(i) | Mutation::DropLine(i) => {
            let k = i % lines.len().max(1);
            let mut out: Vec<&str> = lines.clone();
            if k < out.len() {
                match m {
                    Mutation::DoubleLine(_) => out.insert(k, lines[k]),
                    _ => {
                        out.remove(k);
                    }
                }
            }
            out.concat().into_bytes()
        }
    }
}

/// Byte spans of the numbers written after `=` or inside arrays.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit() || b[i] == b'-')
            && i > 0
            && matches!(b[i - 1], b' ' | b'[' | b'=' | b',');
        if starts {
            let j = i + text[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')))
                .unwrap_or(text.len() - i);
            out.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Every leaf key path of a TOML text (`royalist.commands.horse.units.0.cv`): real `--set`
/// targets.
fn key_paths(text: &str) -> Vec<String> {
    fn walk(v: &toml::Value, at: String, out: &mut Vec<String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    let p = if at.is_empty() {
                        k.clone()
                    } else {
                        format!("{at}.{k}")
                    };
                    walk(v, p, out);
                }
            }
            toml::Value::Array(a) if a.iter().all(|x| x.is_table()) && !a.is_empty() => {
                for (i, v) in a.iter().enumerate() {
                    walk(v, format!("{at}.{i}"), out);
                }
            }
            _ => out.push(at),
        }
    }
    let mut out = Vec::new();
    let table: toml::Table = toml::from_str(text).unwrap();
    walk(&toml::Value::Table(table), String::new(), &mut out);
    out
}

/// What a case reads, and how it changed it.
#[derive(Debug, Clone)]
struct Input {
    /// 0..BUILTIN.len(): a scenario; then the ruleset; then the doctrines.
    file: usize,
    mutations: Vec<Mutation>,
    /// (key path index, hostile value index).
    sets: Vec<(usize, usize)>,
}

fn input() -> impl Strategy<Value = Input> {
    (
        0..BUILTIN.len() + 1 + DOCTRINES.len(),
        prop::collection::vec(mutation(), 0..4),
        prop::collection::vec((any::<usize>(), 0..HOSTILE.len()), 0..3),
    )
        .prop_map(|(file, mutations, sets)| Input {
            file,
            mutations,
            sets,
        })
}

/// Cases refused, accepted, and fought to a result: the fuzz must reach all three.
static REFUSED: AtomicU64 = AtomicU64::new(0);
static ACCEPTED: AtomicU64 = AtomicU64::new(0);
static FOUGHT: AtomicU64 = AtomicU64::new(0);

/// Reads the mutated input as the commands would; Err only for a wrong answer (a panic is
/// caught by proptest as a failure too).
fn exercise(input: &Input) -> Result<(), TestCaseError> {
    let (name, original) = if input.file < BUILTIN.len() {
        BUILTIN[input.file]
    } else if input.file == BUILTIN.len() {
        ("ruleset", RULESET)
    } else {
        ("doctrine", DOCTRINES[input.file - BUILTIN.len() - 1])
    };
    let mut bytes = original.as_bytes().to_vec();
    for m in &input.mutations {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes = apply(&text, m);
    }
    // Bytes that are not UTF-8 are refused by the reader before parsing (tests/bad_input.rs).
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(());
    };
    let path = Path::new("fuzz.toml");
    if input.file == BUILTIN.len() {
        if let Ok(rules) = IronsidesRules::parse(path, &text) {
            let _ = ecw_sim::tables::check_rules(&rules);
        }
        return Ok(());
    }
    if input.file > BUILTIN.len() {
        let _ = DoctrineParams::parse(path, &text).map_err(|e| e.to_string());
        return Ok(());
    }
    let paths = key_paths(original);
    let sets: Vec<String> = input
        .sets
        .iter()
        .map(|(p, v)| format!("{}={}", paths[p % paths.len()], HOSTILE[*v]))
        .collect();
    let scenario = match Scenario::parse(path, text, &sets, false) {
        Ok(s) => s,
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            REFUSED.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
    };
    let _ = scenario.order_of_battle("ruleset ironsides");
    let Ok(setup) = scenario.setup() else {
        REFUSED.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    };
    ACCEPTED.fetch_add(1, Ordering::Relaxed);
    // Accepted: one battle must be fought to its end (the engine's own checks aside).
    if setup.units.len() <= 80 && name != "balance_template" {
        let layout = Layout::of(&setup);
        let mut collector = Collector::new(&layout, false);
        let mut battle = Ironsides.new_battle(&setup);
        Ironsides.fight(&mut battle, &setup, battle_seed(1, 0), &mut collector);
        FOUGHT.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// Runs `cases` cases with a watchdog: a case over [`CASE_LIMIT`] aborts the process, printing
/// its input.
fn fuzz(cases: u32) {
    static STARTED_MS: AtomicU64 = AtomicU64::new(0);
    static CURRENT: Mutex<String> = Mutex::new(String::new());
    let epoch = Instant::now();
    let now_ms = move || epoch.elapsed().as_millis() as u64 + 1;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watching = done.clone();
    let watchdog = std::thread::spawn(move || {
        while !watching.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(200));
            let started = STARTED_MS.load(Ordering::Relaxed);
            if started > 0 && now_ms().saturating_sub(started) > CASE_LIMIT.as_millis() as u64 {
                eprintln!(
                    "a case took over {CASE_LIMIT:?}: {}",
                    CURRENT.lock().map(|c| c.clone()).unwrap_or_default()
                );
                std::process::abort();
            }
        }
    });
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let result = TestRunner::new(config).run(&input(), |input| {
        *CURRENT.lock().unwrap() = format!("{input:?}");
        STARTED_MS.store(now_ms(), Ordering::Relaxed);
        let r = exercise(&input);
        STARTED_MS.store(0, Ordering::Relaxed);
        r
    });
    done.store(true, Ordering::Relaxed);
    watchdog.join().unwrap();
    if let Err(e) = result {
        panic!("{e}");
    }
    let counts = [&REFUSED, &ACCEPTED, &FOUGHT].map(|c| c.load(Ordering::Relaxed));
    eprintln!(
        "scenario cases: {} refused, {} accepted, {} fought",
        counts[0], counts[1], counts[2]
    );
    assert!(
        counts.iter().all(|&c| c > 0),
        "{counts:?}: every path reached"
    );
}

#[test]
fn mutated_inputs_never_panic_or_hang_short() {
    fuzz(1000);
}

#[test]
#[ignore = "long: 100,000 cases, about 35 s of CPU (half an hour on a busy machine); run with --ignored"]
fn mutated_inputs_never_panic_or_hang_long() {
    fuzz(100_000);
}

#[test]
fn the_mutations_change_the_text_as_meant() {
    let t = "a = 12\nb = [1.5, -2]\n";
    assert_eq!(numbers(t).len(), 3);
    assert_eq!(
        apply(t, &Mutation::Number(1, 2)),
        b"a = 12\nb = [1e308, -2]\n"
    );
    assert_eq!(apply(t, &Mutation::DropLine(0)), b"b = [1.5, -2]\n");
    assert_eq!(
        apply(t, &Mutation::DoubleLine(0)),
        b"a = 12\na = 12\nb = [1.5, -2]\n"
    );
    let paths = key_paths(BUILTIN[0].1);
    assert!(
        paths.iter().any(|p| p.ends_with(".lines.0.units.0.men")),
        "{paths:?}"
    );
}

//! What the README and the docs quote the program printing is what it prints today.
//!
//! In a fenced block, a line `$ ecw-sim ARGS` is a command and the lines after it, to the next
//! such line or the block's end, what it printed: the test runs each command (a scratch folder
//! for each document, in the document's order) and compares the output line by line. Only a
//! duration is masked (a parenthesis holding " s on ", as in "(2.4 s on 2 threads, 4,209
//! battles/s)"), and a line `...` stands for any number of lines left out. A block after a line
//! naming a file as `` `output/...`: `` quotes that file, as the document's commands before it
//! wrote it. Rows of a run's CSV files quoted in the README must be in the files its run writes,
//! and docs/HISTORY.md's table must be the one `calibrate` writes.

mod common;

use common::cli::{bin, scaled, scratch, shell_words};
use std::path::{Path, PathBuf};

/// What a document quotes: a command and what it printed, or a file and what it holds.
enum Quote {
    Command {
        args: Vec<String>,
        printed: Vec<String>,
    },
    File {
        path: String,
        lines: Vec<String>,
    },
}

/// A quote and where it is (document and line).
struct Placed {
    place: String,
    quote: Quote,
}

/// The documents that quote the program.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec![root.join("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

/// A fenced block: the line its fence opens on, the nearest line of text before it, its lines.
struct Block<'a> {
    line: usize,
    before: &'a str,
    lines: Vec<&'a str>,
}

/// The fenced blocks of `text`, fences left out.
fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    let mut before = "";
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match open.take() {
                Some(b) => out.push(b),
                None => {
                    open = Some(Block {
                        line: i + 1,
                        before,
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(b) = open.as_mut() {
            b.lines.push(line);
        } else if !line.trim().is_empty() {
            before = line;
        }
    }
    out
}

/// What a block quotes: its commands, or the file named just before it.
fn quotes_in(block: &Block) -> Vec<Quote> {
    // (A line such as "`output/run-1/f.csv` holds every figure:".)
    let before = block.before.trim();
    let file = before.strip_prefix('`').and_then(|f| f.split_once('`'));
    if let Some((path, _)) = file.filter(|(p, _)| p.starts_with("output/") && before.ends_with(':'))
    {
        let lines = block.lines.iter().map(|l| l.to_string()).collect();
        let path = path.to_string();
        return vec![Quote::File { path, lines }];
    }
    let mut out = Vec::new();
    for line in &block.lines {
        if let Some(args) = line.strip_prefix("$ ecw-sim ") {
            let (args, printed) = (shell_words(args), Vec::new());
            out.push(Quote::Command { args, printed });
        } else if let Some(Quote::Command { printed, .. }) = out.last_mut() {
            printed.push(line.to_string());
        }
    }
    out
}

fn quotes(doc: &Path) -> Vec<Placed> {
    let text = std::fs::read_to_string(doc).unwrap();
    let name = doc.file_name().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    for b in blocks(&text) {
        for quote in quotes_in(&b) {
            let place = format!("{name}:{}", b.line);
            out.push(Placed { place, quote });
        }
    }
    out
}

/// A line with its durations masked: a run's time is never the same twice.
fn masked(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('(') {
        let Some(len) = rest[open..].find(')') else {
            break;
        };
        let inside = &rest[open..open + len + 1];
        out.push_str(&rest[..open]);
        out.push_str(if inside.contains(" s on ") {
            "(TIME)"
        } else {
            inside
        });
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out.trim_end().to_string()
}

/// Where `quoted` (with `...` for lines left out) differs from `printed`, if anywhere.
fn difference(quoted: &[String], printed: &[String]) -> Option<String> {
    let mut p = 0;
    let mut skipping = false;
    for q in quoted {
        if q.trim() == "..." {
            skipping = true;
            continue;
        }
        let want = masked(q);
        loop {
            match printed.get(p) {
                Some(got) if masked(got) == want => {
                    p += 1;
                    break;
                }
                Some(_) if skipping => p += 1,
                Some(got) => return Some(format!("quoted:  {q}\nprinted: {got}")),
                None => return Some(format!("quoted:  {q}\nprinted: (nothing more)")),
            }
        }
        skipping = false;
    }
    // (A blank line the program ends with is not worth quoting.)
    match printed[p.min(printed.len())..]
        .iter()
        .find(|l| !l.trim().is_empty())
    {
        Some(extra) if !skipping => Some(format!("printed beyond the quote: {extra}")),
        _ => None,
    }
}

/// Whether a command fights battles (slow in a debug build).
fn fights(args: &[String]) -> bool {
    !matches!(
        args.first().map(String::as_str),
        Some("tables" | "list" | "validate")
    )
}

/// Runs one quoted command in `dir`: what it printed.
fn run_in(dir: &Path, place: &str, args: &[String]) -> Vec<String> {
    let out = bin().args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "{place}: `ecw-sim {}` failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Checks one quote in `dir`: how it differs, if it does.
fn check(dir: &Path, q: &Placed) -> Option<String> {
    match &q.quote {
        Quote::Command { args, printed } => {
            let got = run_in(dir, &q.place, args);
            let d = difference(printed, &got)?;
            Some(format!("{}: `ecw-sim {}`\n{d}", q.place, args.join(" ")))
        }
        Quote::File { path, lines } => {
            let Ok(text) = std::fs::read_to_string(dir.join(path)) else {
                return Some(format!("{}: no command before it wrote {path}", q.place));
            };
            let got: Vec<String> = text.lines().map(str::to_owned).collect();
            let d = difference(lines, &got)?;
            Some(format!("{}: {path}\n{d}", q.place))
        }
    }
}

#[test]
fn every_quoted_command_prints_what_the_docs_say() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (i, doc) in documents().iter().enumerate() {
        // (A folder each: two documents may quote runs into the same output folder.)
        let dir = scratch(&format!("quoted-{i}"));
        for q in quotes(doc) {
            let slow = matches!(&q.quote, Quote::Command { args, .. } if fights(args));
            if slow && scaled(0, 1) == 1 {
                eprintln!("{}: not run in a debug build (it fights battles)", q.place);
                continue;
            }
            checked += 1;
            wrong.extend(check(&dir, &q));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(checked > 0, "no quoted command found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The README's worked example quotes rows of the files its run writes: each is there.
#[test]
fn the_readme_rows_are_in_the_worked_examples_files() {
    if scaled(0, 1) == 1 {
        return eprintln!("not run in a debug build: it fights 10,000 battles");
    }
    let readme = documents().remove(0);
    let (place, args) = quotes(&readme)
        .into_iter()
        .find_map(|q| match q.quote {
            Quote::Command { args, .. } if args[0] == "run" => Some((q.place, args)),
            _ => None,
        })
        .expect("the README quotes a run");
    let dir = scratch("rows");
    let lines = run_in(&dir, &place, &args);
    let folder = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("Results in "))
        .and_then(|l| l.split(':').next())
        .expect("the run names its folder");
    let mut written = String::new();
    for f in std::fs::read_dir(dir.join(folder)).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|x| x == "csv") {
            written.push_str(&std::fs::read_to_string(f).unwrap());
        }
    }
    let scopes = ["battle,", "side,", "command,", "unit,", "commander,"];
    let text = std::fs::read_to_string(&readme).unwrap();
    let rows: Vec<&str> = blocks(&text)
        .into_iter()
        .flat_map(|b| b.lines)
        .filter(|l| scopes.iter().any(|s| l.starts_with(s)))
        .collect();
    assert!(rows.len() >= 5, "the README quotes rows: {rows:?}");
    for row in rows {
        assert!(
            written.lines().any(|w| w == row),
            "README quotes a row its run does not write: {row}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A newcomer finds every document from the README's list.
#[test]
fn the_readme_lists_every_document() {
    let docs = documents();
    let readme = std::fs::read_to_string(&docs[0]).unwrap();
    for doc in &docs[1..] {
        let name = format!("(docs/{})", doc.file_name().unwrap().to_string_lossy());
        assert!(
            readme
                .lines()
                .any(|l| l.starts_with("* [") && l.contains(&name)),
            "README.md's documentation list does not name {name}"
        );
    }
}

#[test]
fn a_left_out_line_and_a_duration_are_all_that_may_differ() {
    let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let printed = v(&["A (1.0 s on 2 threads)", "b", "c", "d", ""]);
    assert_eq!(
        difference(&v(&["A (9.9 s on 1 thread)", "b", "c", "d"]), &printed),
        None
    );
    assert_eq!(difference(&v(&["A (TIME)", "...", "d"]), &printed), None);
    assert!(difference(&v(&["A (1.0 s on 2 threads)", "b", "x", "d"]), &printed).is_some());
    assert!(difference(&v(&["A (1.0 s on 2 threads)", "b"]), &printed).is_some());
    assert!(difference(&v(&["A (1.0 s on 2 threads)", "...", "e"]), &printed).is_some());
    // A parenthesis without a duration is compared as it is.
    let other_end = v(&["A (1.0 s on 2 threads)", "b", "c", "d (y)"]);
    assert!(difference(&v(&["A (TIME)", "b", "c", "d (x)"]), &other_end).is_some());
}

#[test]
fn a_block_quotes_its_commands_and_a_named_file() {
    let text = "x\n```\n$ ecw-sim run a --set 'k={ roll = true, name = \"V\" }' \"b c\"\nout 1\n\
                out 2\n$ ecw-sim tables\nt\n```\n`output/run-1/f.csv` holds:\n\n```text\nrow\n```\n";
    let quoted: Vec<Quote> = blocks(text).iter().flat_map(quotes_in).collect();
    let [c1, c2, f] = &quoted[..] else {
        panic!("three quotes")
    };
    let Quote::Command { args, printed } = c1 else {
        panic!("a command")
    };
    assert_eq!(
        args,
        &[
            "run",
            "a",
            "--set",
            "k={ roll = true, name = \"V\" }",
            "b c"
        ]
    );
    assert_eq!(printed, &["out 1", "out 2"]);
    assert!(
        matches!(c2, Quote::Command { args, printed } if args == &["tables"] && printed == &["t"])
    );
    assert!(
        matches!(f, Quote::File { path, lines } if path == "output/run-1/f.csv" && lines == &["row"])
    );
}

/// docs/HISTORY.md's table today is the table `calibrate` writes: every built-in historical
/// battle under every ruleset, 10,000 battles each, seed 1, as the section says.
#[test]
fn the_history_table_is_what_calibrate_writes() {
    if scaled(0, 1) == 1 {
        return eprintln!("not run in a debug build: it fights 240,000 battles");
    }
    let dir = scratch("calibrate");
    let args = ["calibrate", "--battles", "10000", "--seed", "1", "--quiet"];
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    run_in(&dir, "HISTORY.md", &args);
    let table = std::fs::read_to_string(dir.join("output/calibrate-1/calibration.md")).unwrap();
    let history = std::fs::read_to_string(
        documents()
            .iter()
            .find(|d| d.ends_with("HISTORY.md"))
            .unwrap(),
    )
    .unwrap();
    assert!(
        history.contains("`ecw-sim calibrate --battles 10000 --seed 1`"),
        "the section names its command"
    );
    if !history.contains(&table) {
        let stale: Vec<&str> = table.lines().filter(|l| !history.contains(l)).collect();
        panic!(
            "docs/HISTORY.md's table is not what calibrate writes; lines it lacks:\n{}",
            stale.join("\n")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! The command line: one file per subcommand, each building itself from its parsed options.

use clap::{Parser, Subcommand};

use crate::error::{Error, Result};

/// `println!` that returns the error of a full disk or a closed pipe (as `Error::Io` on
/// `<stdout>`) instead of panicking; for functions returning `Result`.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::print_out(&format!("{}\n", format_args!($($arg)*)))?
    };
}

pub mod balance;
pub mod bench;
pub mod bench_scale;
pub mod calibrate;
pub mod compare;
pub mod list;
pub mod merge;
pub mod replay;
pub mod report;
pub mod run;
pub mod sweep;
pub mod tables;
pub mod validate;

#[derive(Debug, Parser)]
#[command(
    name = "ecw-sim",
    version,
    about = "Monte Carlo battle statistics for English Civil War wargames (Ironsides, Black Powder, Dickenson)",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fight thousands of seeded battles and write outcome distributions as CSV.
    Run(run::Args),
    /// Draw an output folder's results (a run's or a merge's) as report.html.
    Report(report::Args),
    /// Replay one battle of a run, turn by turn.
    Replay(replay::Args),
    /// Load and check a scenario; print its order of battle or every error found.
    Validate(validate::Args),
    /// List the scenarios, rulesets, named commanders, doctrines and rating tables.
    List(list::Args),
    /// Combine the partial results of sharded runs into the files a single run writes.
    Merge(merge::Args),
    /// Print exact probability tables for players.
    Tables(tables::Args),
    /// What if: a baseline and variants on common random numbers, with paired differences.
    Compare(compare::Args),
    /// Balance: mirror-image battles between two sides' rating tables.
    Balance(balance::Args),
    /// Sweep: a grid of parameter values, one tidy CSV.
    Sweep(sweep::Args),
    /// Speed: battles per second, dice floor and thread scaling, measured in one run.
    Bench(bench::Args),
    /// History: every built-in historical battle under every ruleset, beside what happened.
    Calibrate(calibrate::Args),
}

/// The exit codes, as `--help` prints them (and the README lists them).
pub const EXIT_CODES: &str = "Exit codes:
  0    success
  2    usage: the command line is wrong (unknown option, value out of range, clash of options,
       output folder holding another run without --force, output folder in use by another run)
  3    input refused: a scenario, ruleset, override or partial result failed its checks
  4    I/O failure: a file or folder could not be read, written or made (missing, no
       permission, a read-only or full disk)
  130  interrupted by Ctrl-C, SIGTERM or SIGHUP: the run stopped and wrote nothing";

/// The most worker threads per core `--threads` accepts, and the most on any machine: beyond
/// them threads only compete for the same cores (and thousands of them exhaust the system).
pub const THREADS_PER_CORE: usize = 8;
pub const MAX_THREADS: usize = 1024;

/// `--threads` checked (1 to 8 per core, at most 1024), or every core when not given.
pub fn threads(asked: Option<usize>) -> Result<usize> {
    let cores = crate::runner::default_threads();
    let limit = (cores * THREADS_PER_CORE).min(MAX_THREADS);
    match asked {
        None => Ok(cores),
        Some(0) => Err(Error::Usage(
            "--threads 0: a run needs at least one thread".into(),
        )),
        Some(t) if t > limit => Err(Error::Usage(format!(
            "--threads {t}: at most {THREADS_PER_CORE} per core are allowed ({limit} on this machine's {cores} cores, never more than {MAX_THREADS}); more only compete for the same cores"
        ))),
        Some(t) => Ok(t),
    }
}

/// Refuses a list (grid points, pairs of rows) holding the same entry twice, naming it: each
/// would be a duplicate row of the result.
pub fn refuse_repeats(what: &str, items: impl Iterator<Item = String>) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for item in items {
        if !seen.insert(item.clone()) {
            return Err(Error::Usage(format!(
                "the {what} `{item}` is given twice; each would be the same row of the result, so give it once"
            )));
        }
    }
    Ok(())
}

/// Units above which `validate` and `run` say how long a battle will take; the most a scenario
/// may have is in `scenario` (see docs/SCENARIOS.md).
pub const UNITS_NOTE: usize = 1000;

/// Milliseconds one generated battle of 2,000 units takes on one thread under `ruleset` on the
/// reference machine (`ecw-sim bench --scale --ruleset all`, docs/PERFORMANCE.md).
fn ms_at_2000_units(ruleset: &str) -> f64 {
    match ruleset {
        "black_powder" => 9.0,
        "dickenson" => 49.3,
        _ => 36.1,
    }
}
/// The exponent a battle's time grows with in its units on that machine (1.16 to 1.21).
const UNITS_EXPONENT: f64 = 1.2;

/// Notes on stderr how long a battle this size takes under `ruleset`, roughly.
pub fn note_size(setup: &crate::setup::BattleSetup, ruleset: &str) {
    let n = setup.units.len();
    if n > UNITS_NOTE {
        let ms = ms_at_2000_units(ruleset) * (n as f64 / 2000.0).powf(UNITS_EXPONENT);
        crate::io::tell(&format!(
            "note: {n} units: expect roughly {ms:.0} ms a battle on one thread under {ruleset} (the time grows about linearly with the units; `ecw-sim bench --scale` measures this machine)"
        ));
    }
}

/// Prints text to stdout with control characters escaped (names come from files and `--set`).
pub fn print_out(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(crate::io::printable(text).as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::io(std::path::Path::new("<stdout>"), e))
}

/// Runs the parsed command.
pub fn dispatch(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(a) => run::run(a),
        Command::Report(a) => report::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Validate(a) => validate::run(a),
        Command::List(a) => list::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Tables(a) => tables::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Balance(a) => balance::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Calibrate(a) => calibrate::run(a),
    }
}

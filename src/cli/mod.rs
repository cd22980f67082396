//! The command line: one file per subcommand, each building itself from its parsed options.

use clap::{Parser, Subcommand};

use crate::error::Result;

pub mod balance;
pub mod bench;
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
    about = "Monte Carlo battle statistics for English Civil War wargames (Ironsides rules)"
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
    /// List the scenarios, named commanders, doctrines and rating tables.
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

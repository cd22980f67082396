//! `ecw-sim balance`: mirror-image battles between two rows of the ratings table, one row of
//! `balance.csv` per pair of rows.

use super::compare::RunOptions;
use crate::error::{Error, Result};
use crate::report::thousands;
use crate::runner;
use crate::scenario::Scenario;
use crate::whatif::{self, BalanceCounts, Row};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Side A's rows of the ratings table: SIDE:YEAR[,YEAR...], e.g. parliament:1642,1643
    #[arg(long = "side-a", value_name = "SIDE:YEARS")]
    pub side_a: String,
    /// Side B's rows, paired with side A's in order (one year meets every year of the other)
    #[arg(long = "side-b", value_name = "SIDE:YEARS")]
    pub side_b: String,
    /// The arms rated from the rows by a roll each battle; the others take the row's standard CV
    #[arg(long, default_value = "foot,horse,dragoons,artillery")]
    pub arms: String,
    /// The mirror-image armies and ground: a scenario file or built-in name
    #[arg(long, default_value = "balance_template")]
    pub template: String,
    /// Override a value of the template
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    #[command(flatten)]
    pub run: RunOptions,
}

pub fn run(args: Args) -> Result<()> {
    let stop = runner::ctrl_c_flag();
    let plan = args.run.plan()?;
    let arms = whatif::parse_arms(&args.arms)?;
    let a = whatif::parse_rows("--side-a", &args.side_a)?;
    let b = whatif::parse_rows("--side-b", &args.side_b)?;
    let pairs = whatif::pair_rows(&a, &b)?;
    super::refuse_repeats(
        "pair of rows",
        pairs
            .iter()
            .map(|(a, b)| format!("{}:{} against {}:{}", a.side, a.year, b.side, b.year)),
    )?;
    let scenario = Scenario::open(&args.template, &args.set)?;
    let template = scenario.setup()?;
    let ruleset = args.run.ruleset(&scenario)?;
    let setups = pairs
        .iter()
        .map(|(a, b)| whatif::mirror_setups(&template, a, b, &arms))
        .collect::<Result<Vec<_>>>()?;
    let defining = vec![
        format!("--side-a {}", args.side_a),
        format!("--side-b {}", args.side_b),
        format!("--arms {}", args.arms),
        format!("--set {}", args.set.join(" --set ")),
    ];
    let out = args
        .run
        .out_dir("balance", &scenario, &defining, "balance.csv")?;

    let progress = runner::progress_bar(plan.battles * pairs.len() as u64, !args.run.quiet);
    let mut results: Vec<(Row, Row, BalanceCounts)> = Vec::with_capacity(pairs.len());
    let mut seconds = 0.0;
    for ((a, b), pair) in pairs.iter().zip(&setups) {
        let battles = whatif::MirrorBattles {
            plan: &plan,
            setups: pair,
            progress: &progress,
            stop,
        };
        let fought = crate::rules::with_ruleset(ruleset, battles).and_then(|r| r);
        let (counts, elapsed) = match fought {
            Ok(x) => x,
            Err(e) => {
                progress.finish_and_clear();
                return Err(e);
            }
        };
        seconds += elapsed.as_secs_f64();
        results.push((a.clone(), b.clone(), counts));
    }
    progress.finish_and_clear();
    if results.is_empty() {
        return Err(Error::Usage("no pair of rows to fight".into()));
    }
    let csv = whatif::balance_csv(&arms, &results);
    let page = whatif::balance_html(&template.name, &csv);
    let path = args.run.publish(
        out,
        vec![("balance.csv", csv), ("balance.html", page.into_bytes())],
    )?;
    if !args.run.quiet {
        super::print_out(&format!(
            "{}: {} battles per pair of rows (rows swapped between the armies in every other battle), {} rated by the rows, seed {} ({seconds:.1} s on {} threads)\n{}  Wins of battles someone won, with Wilson's 95% interval; stronger = the interval leaves out 50%\n  Results in {}\n",
            template.name,
            thousands(plan.battles),
            whatif::arms_text(&arms).replace('+', ", "),
            plan.seed,
            plan.threads,
            whatif::balance_summary(&results),
            path.display()
        ))?;
    }
    Ok(())
}

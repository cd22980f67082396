//! `ecw-sim sweep`: a grid of scenario values (every combination of each `--param`'s values),
//! every point fought on the same battles, into one tidy `sweep.csv`.

use super::compare::{MeasureOptions, RunOptions};
use crate::error::Result;
use crate::events::plural;
use crate::runner;
use crate::scenario::Scenario;
use crate::setup::BattleSetup;
use crate::whatif::{self, Param};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A scenario file, or the name of a built-in scenario
    pub scenario: String,
    /// A swept value: a `--set` path and its values, e.g. rules.options.no_reaction_from_fire_at_cv=0,4
    /// (repeat for a grid of every combination)
    #[arg(long = "param", value_name = "PATH=V1,V2,...", required = true)]
    pub params: Vec<String>,
    /// Override a value at every point of the grid
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    #[command(flatten)]
    pub measure: MeasureOptions,
    #[command(flatten)]
    pub run: RunOptions,
}

pub fn run(args: Args) -> Result<()> {
    let stop = runner::ctrl_c_flag();
    let plan = args.run.plan()?;
    let params = args
        .params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<Vec<_>>>()?;
    let points = whatif::grid(&params)?;
    super::refuse_repeats("--param point", points.iter().map(|p| p.join(",")))?;
    let base = Scenario::open(&args.scenario, &args.set)?;
    let ruleset = args.run.ruleset(&base)?;
    let mut setups: Vec<BattleSetup> = Vec::with_capacity(points.len());
    let sets: Vec<Vec<String>> = points
        .iter()
        .map(|p| whatif::point_overrides(&params, p))
        .collect();
    for point in &sets {
        let overrides: Vec<String> = args.set.iter().chain(point).cloned().collect();
        let setup = Scenario::open(&args.scenario, &overrides)
            .and_then(|s| s.check_overrides_read(&[ruleset]).and_then(|_| s.setup()))
            .map_err(|e| e.within(&format!("--param point {}", point.join(" "))))?;
        setups.push(setup);
    }
    let measures = args.measure.measures(ruleset, &setups[0])?;
    let defining: Vec<String> = [("--set", &args.set), ("--param", &args.params)]
        .iter()
        .flat_map(|(flag, values)| values.iter().map(move |v| format!("{flag} {v}")))
        .chain(args.measure.defining())
        .collect();
    let out = args.run.out_dir("sweep", &base, &defining, "sweep.csv")?;

    let named: Vec<(String, &BattleSetup)> = sets
        .iter()
        .zip(&setups)
        .map(|(point, s)| (format!("point {}", point.join(" ")), s))
        .collect();
    let result = args.run.fight(ruleset, &plan, &named, &measures, stop);
    let output = result?;
    let paths: Vec<String> = params.iter().map(|p| p.path.clone()).collect();
    let csv = whatif::sweep_csv(&paths, &points, &measures, &output.sums);
    let page = whatif::sweep_html(&setups[0].name, &csv);
    let path = args.run.publish(
        out,
        vec![("sweep.csv", csv), ("sweep.html", page.into_bytes())],
    )?;
    if !args.run.quiet {
        let what = format!(
            "{} {}",
            points.len(),
            plural(points.len() as u64, "grid point", "grid points")
        );
        super::print_out(&format!(
            "{}\n{}  * = differs from the first point (paired 95% interval leaves out 0)\n  Results in {}\n",
            args.run.headline(&setups[0].name, &what, &plan, &output),
            whatif::sweep_summary(&paths, &points, &measures, &output.sums),
            path.display()
        ))?;
    }
    Ok(())
}

//! `ecw-sim compare`: what if? A baseline and variants of a battle fought on common random
//! numbers, each measure beside the baseline's with its paired difference.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::run::default_out;
use crate::error::{Error, Result};
use crate::report::{Contents, OutDir, thousands};
use crate::runner::{self, RunPlan};
use crate::scenario::Scenario;
use crate::setup::BattleSetup;
use crate::whatif::{self, ContestOutput, Measure, OwnMeasure, VariantSpec};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The baseline: a scenario file, or the name of a built-in scenario
    pub scenario: String,
    /// A variant: its name and `--set` overrides, e.g. rupert_cg:royalist.captain_general=rupert
    /// (repeat for more variants)
    #[arg(long = "variant", value_name = "NAME:PATH=VALUE[,PATH=VALUE...]")]
    pub variants: Vec<String>,
    /// Another scenario (file or built-in name) to compare with the baseline, as a variant
    /// named after it (repeatable)
    #[arg(long = "against", value_name = "SCENARIO")]
    pub against: Vec<String>,
    /// Override a value in the baseline and every variant alike
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    #[command(flatten)]
    pub measure: MeasureOptions,
    #[command(flatten)]
    pub run: RunOptions,
}

/// What every version is measured on beside its outcome, length and each side's losses.
#[derive(Debug, clap::Args)]
pub struct MeasureOptions {
    /// Measure the CV this unit loses too (its name; parliament:NAME or royalist:NAME when both
    /// armies have one) (repeatable)
    #[arg(long = "unit", value_name = "NAME")]
    pub units: Vec<String>,
    /// Measure one of the ruleset's own measures too (as measures.csv names it) of a unit, a
    /// command or a side, e.g. p_brigade_broken:parliament; without a WHO, of each side
    /// (repeatable)
    #[arg(long = "own", value_name = "MEASURE[:WHO]")]
    pub own: Vec<String>,
}

impl MeasureOptions {
    /// The measures of every version under `ruleset`: the standard ones, each `--unit`'s, then
    /// each `--own`'s (read against `base`), no two alike.
    pub fn measures(&self, ruleset: &str, base: &BattleSetup) -> Result<Vec<Measure>> {
        let mut measures = Measure::standard(&self.units, crate::rules::currency(ruleset)?);
        if !self.own.is_empty() {
            let layout = crate::rules::layout(ruleset, base)?;
            for spec in &self.own {
                let own = OwnMeasure::parse(spec, &layout, ruleset).map_err(Error::Usage)?;
                measures.extend(own.into_iter().map(Measure::Own));
            }
        }
        for (i, m) in measures.iter().enumerate() {
            if measures[..i].contains(m) {
                return Err(Error::Usage(format!(
                    "{} is asked for twice: each measure once",
                    m.name()
                )));
            }
        }
        Ok(measures)
    }

    /// The options as they define the result (for the output folder's name).
    pub fn defining(&self) -> impl Iterator<Item = String> + '_ {
        let units = self.units.iter().map(|u| format!("--unit {u}"));
        units.chain(self.own.iter().map(|o| format!("--own {o}")))
    }

    /// Whether none is given.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty() && self.own.is_empty()
    }
}

/// What every what-if command takes: how many battles, from which seed, on how many threads,
/// where the result goes, and whether to print.
#[derive(Debug, clap::Args)]
pub struct RunOptions {
    /// Battles fought by each version (grid point, pair of rows)
    #[arg(long, default_value_t = 10_000)]
    pub battles: u64,
    /// Master seed: battle i of every version is fought from a seed made of this and i alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 8 per core (never more than 1024) [default: every core]
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: output/<command>-<scenario>-<seed>-<hash>/, the hash an
    /// 8-digit digest of the options that define the result]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar and no summary
    #[arg(long)]
    pub quiet: bool,
    /// Overwrite the result file an earlier run left in the output folder
    #[arg(long)]
    pub force: bool,
    /// The rules to fight by (ironsides, black_powder, dickenson) [default: the scenario's]; `compare`
    /// also takes a list, e.g. ironsides,black_powder: the battle under each, side by side
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
}

impl RunOptions {
    /// The one ruleset to fight `scenario` by: `--ruleset`, else the scenario's (checked: an
    /// unknown name lists the known ones).
    pub fn ruleset(&self, scenario: &Scenario) -> Result<&'static str> {
        let name = super::run::ruleset_name(scenario, self.ruleset.as_deref());
        if name.contains(',') {
            return Err(Error::Usage(format!(
                "--ruleset {name}: this command fights under one ruleset (`compare` takes a list)"
            )));
        }
        let name = crate::rules::check_ruleset(name)?;
        scenario.check_overrides_read(&[name])?;
        Ok(name)
    }

    /// Fights the versions (named for errors: `version rupert_cg`, `point turn_limit=8`) under
    /// `ruleset` with a progress bar.
    pub fn fight(
        &self,
        ruleset: &str,
        plan: &RunPlan,
        versions: &[(String, &BattleSetup)],
        measures: &[Measure],
        stop: &AtomicBool,
    ) -> Result<ContestOutput> {
        let progress = runner::progress_bar(plan.battles, !self.quiet);
        let contest = whatif::Contest {
            plan,
            versions,
            measures,
            progress: &progress,
            stop,
        };
        let result = crate::rules::with_ruleset(ruleset, contest);
        progress.finish_and_clear();
        result?
    }

    /// The first line of a summary: what was fought, how many battles, how long it took.
    pub fn headline(
        &self,
        battle: &str,
        what: &str,
        plan: &RunPlan,
        output: &ContestOutput,
    ) -> String {
        format!(
            "{battle}: {what} on common random numbers, {} battles each, seed {} ({:.1} s on {} threads)",
            thousands(plan.battles),
            plan.seed,
            output.elapsed.as_secs_f64(),
            plan.threads
        )
    }

    /// The run's plan (checked).
    pub fn plan(&self) -> Result<runner::RunPlan> {
        whatif::plan(self.seed, self.battles, Some(super::threads(self.threads)?))
    }

    /// The output folder, checked and locked for `file` (e.g. `compare.csv`): `--out`, else
    /// `output/<command>-<default run folder of the scenario, hashed over `defining`>`, the
    /// options that decide the result (and `--ruleset` when it is not the scenario's), so
    /// different comparisons never share a folder.
    pub fn out_dir(
        &self,
        command: &str,
        scenario: &Scenario,
        defining: &[String],
        file: &str,
    ) -> Result<OutDir> {
        let path = self.out.clone().unwrap_or_else(|| {
            let mut all = defining.to_vec();
            all.push(format!("--battles {}", self.battles));
            if let Some(r) = &self.ruleset
                && r.as_str() != super::run::ruleset_name(scenario, None)
            {
                all.push(format!("--ruleset {r}"));
            }
            let stem = default_out(scenario, self.seed, &all);
            let leaf = stem.file_name().map(|f| f.to_string_lossy().into_owned());
            PathBuf::from("output").join(format!("{command}-{}", leaf.unwrap_or_default()))
        });
        OutDir::open(&path, Contents::Result(file), self.force)
    }

    /// Publishes the result files (the CSV first, then its chart page) in one step; returns
    /// the first one's path.
    pub fn publish(&self, out: OutDir, files: Vec<(&str, Vec<u8>)>) -> Result<PathBuf> {
        let path = out
            .path
            .join(files.first().map(|f| f.0).unwrap_or_default());
        let files: Vec<(String, Vec<u8>)> =
            files.into_iter().map(|(n, b)| (n.to_string(), b)).collect();
        out.write_files(&files)?;
        Ok(path)
    }
}

/// A version of the battle: name, how it differs, set-up.
struct Version {
    name: String,
    description: String,
    setup: BattleSetup,
}

/// Loads and builds a version of the battle, its errors prefixed with where it was asked for
/// (`what`); refused if it changes the values of a ruleset none of `rulesets` fights by.
fn load(
    what: &str,
    scenario: &str,
    overrides: &[String],
    rulesets: &[&str],
) -> Result<(Scenario, BattleSetup)> {
    let prefix = |e: Error| e.within(what);
    let s = Scenario::open(scenario, overrides).map_err(prefix)?;
    s.check_overrides_read(rulesets).map_err(prefix)?;
    let setup = s.setup().map_err(prefix)?;
    Ok((s, setup))
}

fn sets(overrides: &[String]) -> String {
    overrides
        .iter()
        .map(|o| format!("--set {o}"))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: Args) -> Result<()> {
    let stop = runner::ctrl_c_flag();
    let plan = args.run.plan()?;
    if let Some(list) = args.run.ruleset.as_deref().filter(|l| l.contains(',')) {
        return side_by_side(&args, list, &plan, stop);
    }
    if args.variants.is_empty() && args.against.is_empty() {
        return Err(Error::Usage(
            "compare needs at least one --variant NAME:PATH=VALUE or --against SCENARIO".into(),
        ));
    }
    let base_scenario = Scenario::open(&args.scenario, &args.set)?;
    let ruleset = args.run.ruleset(&base_scenario)?;
    let versions = versions(&args, &base_scenario, ruleset)?;
    let measures = args.measure.measures(ruleset, &versions[0].setup)?;
    let defining: Vec<String> = [
        ("--set", &args.set),
        ("--variant", &args.variants),
        ("--against", &args.against),
    ]
    .iter()
    .flat_map(|(flag, values)| values.iter().map(move |v| format!("{flag} {v}")))
    .chain(args.measure.defining())
    .collect();
    let out = args
        .run
        .out_dir("compare", &base_scenario, &defining, "compare.csv")?;

    let named: Vec<(String, &BattleSetup)> = versions
        .iter()
        .map(|v| (format!("version {}", v.name), &v.setup))
        .collect();
    let result = args.run.fight(ruleset, &plan, &named, &measures, stop);
    let output = result?;
    let names: Vec<String> = versions.iter().map(|v| v.name.clone()).collect();
    let csv = whatif::compare_csv(&names, &measures, &output.sums);
    let page = whatif::compare_html(&versions[0].setup.name, plan.battles, &csv);
    let path = args.run.publish(
        out,
        vec![("compare.csv", csv), ("compare.html", page.into_bytes())],
    )?;
    if !args.run.quiet {
        let descriptions: Vec<String> = versions.iter().map(|v| v.description.clone()).collect();
        let what = format!(
            "the baseline and {} variant{}",
            versions.len() - 1,
            if versions.len() == 2 { "" } else { "s" }
        );
        super::print_out(&format!(
            "{}\n{}  diff = variant - baseline, battle by battle; * = the 95% interval leaves out 0; narrower = unpaired / paired half-width\n  Results in {}\n",
            args.run
                .headline(&versions[0].setup.name, &what, &plan, &output),
            whatif::compare_summary(&names, &descriptions, &measures, &output.sums),
            path.display()
        ))?;
    }
    Ok(())
}

/// The versions to compare, the baseline first, each named once: the variants' overrides
/// laid over the baseline's, then the other scenarios of `--against`.
fn versions(args: &Args, base: &Scenario, ruleset: &'static str) -> Result<Vec<Version>> {
    let specs = args
        .variants
        .iter()
        .map(|v| VariantSpec::parse(v))
        .collect::<Result<Vec<_>>>()?;
    let mut versions = vec![Version {
        name: "baseline".into(),
        description: format!("{} {}", args.scenario, sets(&args.set)),
        setup: base.setup()?,
    }];
    for spec in specs {
        let overrides: Vec<String> = args.set.iter().chain(&spec.overrides).cloned().collect();
        let what = format!("--variant {}", spec.name);
        let (_, setup) = load(&what, &args.scenario, &overrides, &[ruleset])?;
        versions.push(Version {
            name: spec.name,
            description: sets(&spec.overrides),
            setup,
        });
    }
    for other in &args.against {
        let what = format!("--against {other}");
        let (scenario, setup) = load(&what, other, &args.set, &[ruleset])?;
        let name = scenario
            .path()
            .file_stem()
            .map_or_else(|| other.clone(), |s| s.to_string_lossy().into_owned());
        versions.push(Version {
            name,
            description: format!("the scenario {}", scenario.path().display()),
            setup,
        });
    }
    for (i, v) in versions.iter().enumerate() {
        if versions[..i].iter().any(|w| w.name == v.name) {
            return Err(Error::Usage(format!(
                "two versions are named `{}`: give each --variant its own name",
                v.name
            )));
        }
    }
    Ok(versions)
}

/// `--ruleset A,B,...`: the scenario fought under each ruleset from the same seeds, outcomes
/// side by side in `rulesets.csv`.
fn side_by_side(args: &Args, list: &str, plan: &RunPlan, stop: &AtomicBool) -> Result<()> {
    if !(args.variants.is_empty() && args.against.is_empty() && args.measure.is_empty()) {
        return Err(Error::Usage(format!(
            "--ruleset {list}: a list compares the rulesets; --variant, --against, --unit and --own compare versions under one ruleset"
        )));
    }
    let names = list
        .split(',')
        .map(|n| crate::rules::check_ruleset(n.trim()))
        .collect::<Result<Vec<_>>>()?;
    super::refuse_repeats("ruleset", names.iter().map(|n| n.to_string()))?;
    let (scenario, setup) = load(&args.scenario, &args.scenario, &args.set, &names)?;
    let defining: Vec<String> = args.set.iter().map(|v| format!("--set {v}")).collect();
    let out = args
        .run
        .out_dir("compare", &scenario, &defining, "rulesets.csv")?;
    let progress = runner::progress_bar(plan.battles * names.len() as u64, !args.run.quiet);
    let mut sums = Vec::with_capacity(names.len());
    let mut seconds = 0.0;
    for name in &names {
        let battles = whatif::RulesetBattles {
            plan,
            setup: &setup,
            progress: &progress,
            stop,
        };
        let fought = crate::rules::with_ruleset(name, battles).and_then(|r| r);
        let (s, elapsed) = match fought {
            Ok(x) => x,
            Err(e) => {
                progress.finish_and_clear();
                return Err(e);
            }
        };
        seconds += elapsed.as_secs_f64();
        sums.push(s);
    }
    progress.finish_and_clear();
    let csv = whatif::rulesets_csv(&names, &sums);
    let path = args.run.publish(out, vec![("rulesets.csv", csv)])?;
    if !args.run.quiet {
        super::print_out(&format!(
            "{}: the battle under {} rulesets ({}), {} battles each from the same seeds, seed {} ({seconds:.1} s on {} threads)\n{}  Each figure with its 95% interval (Wilson's for the shares of battles); losses are each side's share of its strength in the ruleset's own currency\n  Results in {}\n",
            setup.name,
            names.len(),
            names.join(", "),
            thousands(plan.battles),
            plan.seed,
            plan.threads,
            whatif::rulesets_summary(&names, &sums),
            path.display()
        ))?;
    }
    Ok(())
}

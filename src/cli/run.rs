//! `ecw-sim run`: fight thousands of seeded battles and write their statistics as CSV.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::error::Result;
use crate::report::{self, BattlesFile, OutDir, Partial, RunIdentity, Timing, fnv1a64};
use crate::rules::{Ruleset, WithRuleset};
use crate::runner::{self, BATCH_SIZE, RunPlan, Shard};
use crate::scenario::Scenario;
use crate::stats::{Collector, Layout, Tally};

/// The scenario fought when none is named.
pub const DEFAULT_SCENARIO: &str = "marston_moor";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A scenario file, or the name of a built-in scenario [default: marston_moor]
    pub scenario: Option<String>,
    /// Battles to fight (all shards together)
    #[arg(long, default_value_t = 10_000)]
    pub battles: u64,
    /// Master seed: battle i is fought from a seed made of this and i alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 8 per core (never more than 1024) [default: every core]
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: output/<scenario>-<seed>/, or output/<scenario>-<seed>-<hash>/
    /// with --set, the hash an 8-digit digest of the overrides]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override a scenario value, e.g. --set royalist.commands.right_wing.doctrine=cautious
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Also write battles.csv, one row per battle
    #[arg(long)]
    pub per_battle: bool,
    /// Fight only shard K of M (1-based) and write a partial result for `ecw-sim merge`
    #[arg(long, value_name = "K/M")]
    pub shard: Option<String>,
    /// No progress bar and no summary
    #[arg(long)]
    pub quiet: bool,
    /// Overwrite an output folder holding another run's results
    #[arg(long)]
    pub force: bool,
    /// Also write report.html beside the CSVs: the results as charts, one self-contained page
    #[arg(long)]
    pub report: bool,
    /// The rules to fight by (ironsides, black_powder, dickenson) [default: the scenario's]
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
}

/// The ruleset a run fights by: `--ruleset`, else the scenario's (a ruleset file is Ironsides).
pub fn ruleset_name<'a>(scenario: &'a Scenario, flag: Option<&'a str>) -> &'a str {
    let named = scenario.file().ruleset.as_str();
    match flag {
        Some(f) => f,
        None if crate::rules::RULESETS.contains(&named) => named,
        None => "ironsides",
    }
}

/// The hash of the ruleset file a scenario uses (a named ruleset's built-in text, or its file).
pub fn ruleset_hash(scenario: &Scenario) -> Result<String> {
    let name = &scenario.file().ruleset;
    if crate::rules::RULESETS.contains(&name.as_str()) {
        return crate::rules::with_ruleset(name, BuiltinText).map(|t| fnv1a64(t.as_bytes()));
    }
    let dir = scenario.path().parent().unwrap_or(Path::new(""));
    let text = crate::io::read_text(&dir.join(name))?;
    Ok(fnv1a64(text.as_bytes()))
}

/// A ruleset's built-in rules text.
struct BuiltinText;

impl WithRuleset for BuiltinText {
    type Output = &'static str;
    fn with<R: Ruleset>(self, ruleset: &R) -> &'static str {
        ruleset.builtin_text()
    }
}

/// What identifies a run of this scenario.
pub fn identity(
    scenario: &Scenario,
    overrides: &[String],
    seed: u64,
    battles: u64,
) -> Result<RunIdentity> {
    let (program, version) = RunIdentity::program();
    Ok(RunIdentity {
        program,
        version,
        scenario: scenario.name(),
        scenario_file: scenario.path().display().to_string(),
        scenario_builtin: scenario.is_builtin(),
        scenario_hash: fnv1a64(scenario.source_text().as_bytes()),
        ruleset_hash: ruleset_hash(scenario)?,
        ruleset: ruleset_name(scenario, None).to_string(),
        overrides: overrides.to_vec(),
        seed,
        battles,
    })
}

/// `output/<scenario file stem>-<seed>`, and `-<hash>` after it when there are overrides (the
/// first 8 hex digits of FNV-1a 64 over them, one per line), so a run with `--set` never
/// meets the plain run's folder.
pub fn default_out(scenario: &Scenario, seed: u64, overrides: &[String]) -> PathBuf {
    let stem: String = scenario
        .path()
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "scenario".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if overrides.is_empty() {
        format!("{stem}-{seed}")
    } else {
        let hash = fnv1a64(overrides.join("\n").as_bytes());
        format!("{stem}-{seed}-{}", &hash[..8])
    };
    PathBuf::from("output").join(name)
}

pub fn run(args: Args) -> Result<()> {
    // Before anything is written, so a Ctrl-C never meets the default handler mid-run.
    let stop = runner::ctrl_c_flag();
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if args.report && shard.is_some() {
        return Err(crate::error::Error::Usage(
            "--report draws a whole run: after the shards, `ecw-sim merge` them and run `ecw-sim report DIR`".into(),
        ));
    }
    let plan = RunPlan {
        seed: args.seed,
        battles: args.battles,
        shard,
        threads: super::threads(args.threads)?,
        per_battle: args.per_battle,
    };
    plan.validate()?;
    let scenario = match &args.scenario {
        Some(s) => Scenario::open(s, &args.set)?,
        None => Scenario::load_builtin(DEFAULT_SCENARIO, &args.set)?,
    };
    let setup = scenario.setup()?;
    let name = ruleset_name(&scenario, args.ruleset.as_deref()).to_string();
    crate::rules::with_ruleset(
        &name,
        Job {
            args: &args,
            plan: &plan,
            scenario: &scenario,
            setup: &setup,
            stop,
        },
    )?
}

/// A run, ready for its ruleset.
struct Job<'a> {
    args: &'a Args,
    plan: &'a RunPlan,
    scenario: &'a Scenario,
    setup: &'a crate::setup::BattleSetup,
    stop: &'a AtomicBool,
}

impl WithRuleset for Job<'_> {
    type Output = Result<()>;

    fn with<R: Ruleset>(self, ruleset: &R) -> Result<()> {
        let (args, scenario) = (self.args, self.scenario);
        scenario.check_overrides_read(&[ruleset.name()])?;
        let mut run_id = identity(scenario, &args.set, args.seed, args.battles)?;
        let mut out_path = args
            .out
            .clone()
            .unwrap_or_else(|| default_out(scenario, args.seed, &args.set));
        if ruleset.name() != ruleset_name(scenario, None) {
            // Another ruleset than the scenario's: its own identity and default folder.
            run_id.ruleset_hash = fnv1a64(ruleset.builtin_text().as_bytes());
            run_id.ruleset = ruleset.name().to_string();
            if args.out.is_none() {
                let stem = out_path
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned());
                out_path.set_file_name(format!("{}-{}", stem.unwrap_or_default(), ruleset.name()));
            }
        }
        super::note_size(self.setup, ruleset.name());
        let out = OutDir::prepare(&out_path, &run_id, self.plan.shard, args.force)?;
        // On any error `out` is dropped unpublished, which removes what it staged.
        fight(
            ruleset, args, self.plan, self.setup, &run_id, out, self.stop,
        )
    }
}

fn fight<R: Ruleset>(
    ruleset: &R,
    args: &Args,
    plan: &RunPlan,
    setup: &crate::setup::BattleSetup,
    run_id: &RunIdentity,
    out: OutDir,
    stop: &AtomicBool,
) -> Result<()> {
    let layout: Layout = ruleset.layout(setup);
    let range = plan.range();
    let mut battles = battles_file(&out, plan, &layout)?;
    let progress = runner::progress_bar(range.end - range.start, !args.quiet);
    let output = runner::run(
        plan,
        &layout,
        || {
            let mut battle = ruleset.new_battle(setup);
            move |seed, c: &mut Collector| ruleset.fight(&mut battle, setup, seed, c).dice_rolled
        },
        &progress,
        stop,
        &mut |rows| match &mut battles {
            Some(b) => b.write(rows),
            None => Ok(()),
        },
    );
    progress.finish_and_clear();
    let output = output?;
    let timing = Timing::new(
        output.tally.battles,
        output.elapsed.as_secs_f64(),
        plan.threads,
        1,
    );
    let fought = Fought {
        layout,
        tally: output.tally,
        timing,
        battles,
    };
    match plan.shard {
        Some(shard) => publish_shard(args, plan, run_id, out, shard, fought),
        None => publish_whole(args, plan, run_id, out, fought),
    }
}

/// The per-battle rows' file, when the run keeps them (a shard's own, named after it).
fn battles_file(out: &OutDir, plan: &RunPlan, layout: &Layout) -> Result<Option<BattlesFile>> {
    if !plan.per_battle {
        return Ok(None);
    }
    let name = match plan.shard {
        None => "battles.csv".to_string(),
        Some(s) => format!("{}.battles.csv", s.file_stem()),
    };
    Ok(Some(BattlesFile::create(
        &out.file(&name),
        &layout.currency,
    )?))
}

/// What the battles left to publish.
struct Fought {
    layout: Layout,
    tally: Tally,
    timing: Timing,
    /// The per-battle rows' file, when the run keeps them.
    battles: Option<BattlesFile>,
}

/// A shard's partial result written, for `merge` to add to the others.
fn publish_shard(
    args: &Args,
    plan: &RunPlan,
    run_id: &RunIdentity,
    mut out: OutDir,
    shard: Shard,
    fought: Fought,
) -> Result<()> {
    let range = plan.range();
    let battles_checksum = fought.battles.as_ref().map(BattlesFile::checksum);
    if let Some(b) = fought.battles {
        b.commit()?;
    }
    let partial = Partial {
        format: report::PARTIAL_FORMAT.into(),
        run: run_id.clone(),
        shard,
        first_battle: range.start,
        end_battle: range.end,
        batch_size: BATCH_SIZE,
        per_battle: plan.per_battle,
        layout: fought.layout,
        tally: fought.tally,
        timing: fought.timing,
        battles_checksum,
        checksum: String::new(),
    }
    .seal();
    let path = out.write_partial(&partial)?;
    if !args.quiet {
        super::print_out(&format!(
            "{}: shard {shard}, battles {}..{} of {}, in {:.1} s ({} battles/s)\n  Partial result in {}; when every shard is done: ecw-sim merge {}\n",
            partial.run.scenario,
            range.start,
            range.end,
            report::thousands(plan.battles),
            partial.timing.wall_time_s,
            report::thousands(partial.timing.battles_per_second.round() as u64),
            path.display(),
            out.path.display()
        ))?;
    }
    Ok(())
}

/// A whole run's files, summary and (when asked) report written.
fn publish_whole(
    args: &Args,
    plan: &RunPlan,
    run_id: &RunIdentity,
    out: OutDir,
    fought: Fought,
) -> Result<()> {
    let (layout, tally) = (&fought.layout, &fought.tally);
    let files = report::render(layout, tally);
    let manifest = report::manifest(run_id, tally, &files, plan.per_battle, fought.timing);
    let path = out.path.clone();
    out.write_results(&files, &manifest, fought.battles)?;
    // Drawn from the published folder's own files (a report of any run folder is).
    let drawn = args
        .report
        .then(|| report::write_report(&path))
        .transpose()?;
    if !args.quiet {
        super::print_out(&report::summary(layout, tally, &manifest, &path))?;
        if let Some(drawn) = drawn {
            super::print_out(&format!("  Report in {}\n", drawn.display()))?;
        }
    }
    Ok(())
}

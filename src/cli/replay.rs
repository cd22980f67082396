//! `ecw-sim replay`: one battle of a run, alone, turn by turn from its seed.

use std::path::PathBuf;

use crate::army::Unit;
use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::narrative::{self, Currency, Recorder};
use crate::rules::{Ruleset, WithRuleset};
use crate::scenario::Scenario;
use crate::setup::BattleSetup;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable narrative.
    Text,
    /// The event stream as tidy CSV.
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario file or built-in name.
    #[arg(default_value = "marston_moor")]
    pub scenario: String,
    /// The run's master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which battle of the run (0-based index).
    #[arg(long, default_value_t = 0)]
    pub battle: u64,
    /// Override a scenario value: PATH=VALUE (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the table (deployment, end, routs and pursuits): FILE.svg as SVG, FILE.png as a
    /// PNG image.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub map: Option<PathBuf>,
    /// Also write the interactive replay: the battle on its table, step by step, as one HTML page.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Overwrite an existing --map or --html file
    #[arg(long)]
    pub force: bool,
    /// The rules to fight by (ironsides, black_powder, dickenson) [default: the scenario's]
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
}

/// Replays battle `index` of a run with master seed `seed` under `ruleset` (or the
/// scenario's): its recorded events and the units at deployment and at the end.
pub fn replay(
    scenario: &Scenario,
    ruleset: Option<&str>,
    seed: u64,
    index: u64,
) -> Result<(BattleSetup, Recorder, Vec<Unit>, Vec<Unit>)> {
    let setup = scenario.setup()?;
    let name = crate::rules::check_ruleset(super::run::ruleset_name(scenario, ruleset))?;
    scenario.check_overrides_read(&[name])?;
    let one = OneBattle {
        setup: &setup,
        seed: battle_seed(seed, index),
    };
    let (rec, start, end) = crate::rules::with_ruleset(name, one)?;
    Ok((setup, rec, start, end))
}

/// One battle, recorded, ready for its ruleset.
struct OneBattle<'a> {
    setup: &'a BattleSetup,
    seed: u64,
}

impl WithRuleset for OneBattle<'_> {
    type Output = (Recorder, Vec<Unit>, Vec<Unit>);

    fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output {
        let (setup, seed) = (self.setup, self.seed);
        let mut battle = ruleset.new_battle(setup);
        let mut rec = Recorder::default();
        // Deployment as this battle rolled it, then the battle itself.
        ruleset.deploy(&mut battle, setup, seed);
        let start = ruleset.units(&battle, setup);
        ruleset.fight(&mut battle, setup, seed, &mut rec);
        let end = ruleset.units(&battle, setup);
        (rec, start, end)
    }
}

pub fn run(args: Args) -> Result<()> {
    let scenario = Scenario::open(&args.scenario, &args.set)?;
    let (setup, rec, start, end) =
        replay(&scenario, args.ruleset.as_deref(), args.seed, args.battle)?;
    let currency =
        Currency::of_ruleset(super::run::ruleset_name(&scenario, args.ruleset.as_deref()))?;
    let text = match args.format {
        Format::Text => narrative::narrate(&setup, currency, &start, &rec),
        Format::Csv => narrative::events_csv(&setup, currency, &rec),
    };
    if let Some(path) = &args.map {
        let svg = crate::map::svg(&setup, &start, &end, &rec);
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_lowercase);
        let bytes = match ext.as_deref() {
            Some("svg") => svg.into_bytes(),
            Some("png") => crate::map::png(&svg)
                .map_err(|m| Error::Usage(format!("--map {}: {m}", path.display())))?,
            _ => {
                return Err(Error::Usage(format!(
                    "--map {}: the map is an SVG or a PNG image; name it FILE.svg or FILE.png",
                    path.display()
                )));
            }
        };
        crate::io::refuse_existing("--map", path, args.force)?;
        crate::io::write_atomic(path, &bytes)?;
    }
    if let Some(path) = &args.html {
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            return Err(Error::Usage(format!(
                "--html {}: the replay is an HTML page; name it FILE.html",
                path.display()
            )));
        }
        crate::io::refuse_existing("--html", path, args.force)?;
        let page = crate::replay_page::html(&setup, currency, &start, &rec, args.seed, args.battle);
        crate::io::write_atomic(path, page.as_bytes())?;
    }
    super::print_out(&text)
}

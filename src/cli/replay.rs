//! `ecw-sim replay`: one battle of a run, alone, turn by turn from its seed.

use std::path::PathBuf;

use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::narrative::{self, Recorder};
use crate::rules::ironsides::battle::Battle;
use crate::scenario::Scenario;

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
    /// Also draw the table as SVG (deployment, end, routs and pursuits).
    #[arg(long, value_name = "FILE.svg")]
    pub map: Option<PathBuf>,
    /// Overwrite an existing --map file
    #[arg(long)]
    pub force: bool,
}

/// Replays battle `index` of a run with master seed `seed`: its recorded events and the units
/// at deployment and at the end.
pub fn replay(
    scenario: &Scenario,
    seed: u64,
    index: u64,
) -> Result<(
    crate::setup::BattleSetup,
    Recorder,
    Vec<crate::army::Unit>,
    Vec<crate::army::Unit>,
)> {
    let setup = scenario.setup()?;
    let mut battle = Battle::new(&setup);
    let mut rec = Recorder::default();
    let s = battle_seed(seed, index);
    // Deployment as this battle rolled it, then the battle itself.
    battle.reset(&setup, s, &mut crate::events::NullObserver);
    let start = battle.units.clone();
    battle.fight(&setup, s, &mut rec);
    let end = battle.units.clone();
    Ok((setup, rec, start, end))
}

pub fn run(args: Args) -> Result<()> {
    let scenario = Scenario::open(&args.scenario, &args.set)?;
    let (setup, rec, start, end) = replay(&scenario, args.seed, args.battle)?;
    let text = match args.format {
        Format::Text => narrative::narrate(&setup, &rec),
        Format::Csv => narrative::events_csv(&setup, &rec),
    };
    if let Some(path) = &args.map {
        if path.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(Error::Usage(format!(
                "--map {}: the map is an SVG file; name it FILE.svg",
                path.display()
            )));
        }
        if path.exists() && !args.force {
            return Err(Error::Usage(format!(
                "--map {}: the file exists; choose another name, or pass --force to overwrite",
                path.display()
            )));
        }
        crate::io::write_atomic(path, crate::map::svg(&setup, &start, &end, &rec).as_bytes())?;
    }
    super::print_out(&text)
}

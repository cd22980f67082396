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

/// An existing file is kept unless `--force`.
fn refuse_existing(flag: &str, path: &std::path::Path, force: bool) -> Result<()> {
    if path.exists() && !force {
        return Err(Error::Usage(format!(
            "{flag} {}: the file exists; choose another name, or pass --force to overwrite",
            path.display()
        )));
    }
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    let scenario = Scenario::open(&args.scenario, &args.set)?;
    let (setup, rec, start, end) = replay(&scenario, args.seed, args.battle)?;
    let text = match args.format {
        Format::Text => narrative::narrate(&setup, &rec),
        Format::Csv => narrative::events_csv(&setup, &rec),
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
        refuse_existing("--map", path, args.force)?;
        crate::io::write_atomic(path, &bytes)?;
    }
    if let Some(path) = &args.html {
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            return Err(Error::Usage(format!(
                "--html {}: the replay is an HTML page; name it FILE.html",
                path.display()
            )));
        }
        refuse_existing("--html", path, args.force)?;
        let page = crate::replay_page::html(&setup, &start, &rec, args.seed, args.battle);
        crate::io::write_atomic(path, page.as_bytes())?;
    }
    super::print_out(&text)
}

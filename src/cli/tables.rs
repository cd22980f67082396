//! `ecw-sim tables`: exact probability tables for players, computed by enumerating dice through
//! the engine's own rule functions.

use crate::rules::RuleData;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::error::{Error, Result};
use crate::rules::ironsides::IronsidesRules;
use crate::tables::render::{self, Show};
use crate::tables::{self, Options, TABLE_IDS, Table};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tidy CSV: one observation per row (one file per table with --out).
    Csv,
    /// Markdown tables, aligned for reading in a terminal (one file per table with --out).
    Markdown,
    /// One self-contained printable HTML page with every table.
    Html,
}

/// How probabilities are shown in Markdown and HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowArg {
    /// Exact fractions: 7/36
    Fraction,
    /// Percentages to one decimal place: 19.4%
    Percent,
    /// Both: 7/36 (19.4%)
    Both,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format [default: markdown when printing to a terminal, otherwise (a pipe, a file, --out) csv]
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write into this folder instead of stdout: one file per table (csv, markdown), or one
    /// `tables.html`. The folder is created if missing; files are written atomically.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Overwrite table files an earlier run left in the --out folder
    #[arg(long)]
    pub force: bool,
    /// `black_powder` or `dickenson` for their tables, or an Ironsides ruleset file to read the
    /// rule constants from [default: the built-in Ironsides ruleset]
    #[arg(long, value_name = "NAME|FILE")]
    pub ruleset: Option<PathBuf>,
    /// Only these tables (repeat or comma-separate); see --list
    #[arg(long = "table", value_name = "ID", value_delimiter = ',')]
    pub tables: Vec<String>,
    /// List the table identifiers and exit
    #[arg(long)]
    pub list: bool,
    /// How Markdown and HTML show probabilities (CSV always has the decimal and the fraction)
    #[arg(long, value_enum, default_value = "both")]
    pub show: ShowArg,
    /// Lowest die modifier in the hit table
    #[arg(long, default_value_t = Options::default().modifier_min, allow_hyphen_values = true)]
    pub min_modifier: i8,
    /// Highest die modifier in the hit table
    #[arg(long, default_value_t = Options::default().modifier_max, allow_hyphen_values = true)]
    pub max_modifier: i8,
    /// Die modifier of every die in the close-combat hits table
    #[arg(long, default_value_t = Options::default().melee_modifier, allow_hyphen_values = true)]
    pub melee_modifier: i8,
}

/// The widest modifier range accepted: beyond it every column is the same (only natural 1s hit,
/// or everything but natural 6s).
const MODIFIER_LIMIT: i8 = 20;

fn check_modifier(name: &str, m: i8) -> Result<()> {
    if !(-MODIFIER_LIMIT..=MODIFIER_LIMIT).contains(&m) {
        return Err(Error::Usage(format!(
            "{name} must be between -{MODIFIER_LIMIT} and {MODIFIER_LIMIT}, got {m}"
        )));
    }
    Ok(())
}

/// The options, checked once up front.
fn options(args: &Args) -> Result<Options> {
    check_modifier("--min-modifier", args.min_modifier)?;
    check_modifier("--max-modifier", args.max_modifier)?;
    check_modifier("--melee-modifier", args.melee_modifier)?;
    if args.min_modifier > args.max_modifier {
        return Err(Error::Usage(format!(
            "--min-modifier ({}) is above --max-modifier ({})",
            args.min_modifier, args.max_modifier
        )));
    }
    Ok(Options {
        modifier_min: args.min_modifier,
        modifier_max: args.max_modifier,
        melee_modifier: args.melee_modifier,
        ..Options::default()
    })
}

/// The table identifiers asked for, in the canonical order, each once.
fn selected(args: &Args) -> Result<Vec<&'static str>> {
    if args.tables.is_empty() {
        return Ok(TABLE_IDS.to_vec());
    }
    for t in &args.tables {
        if !TABLE_IDS.contains(&t.as_str()) {
            return Err(Error::Usage(format!(
                "no table `{t}`; the tables are: {}",
                TABLE_IDS.join(", ")
            )));
        }
    }
    Ok(TABLE_IDS
        .iter()
        .copied()
        .filter(|id| args.tables.iter().any(|t| t == id))
        .collect())
}

fn intro(rules: &IronsidesRules, ruleset: Option<&Path>) -> String {
    let source = match ruleset {
        Some(p) => format!("ruleset file `{}`", p.display()),
        None => "the built-in ruleset".into(),
    };
    format!(
        "Exact probabilities for the {} rules ({source}), computed by `ecw-sim tables` by enumerating every roll of the dice \
         through the simulator's own rule functions. Die modifiers are added to the die; a hit or pass needs die + modifier <= CV.",
        rules.name
    )
}

fn heading(rules: &IronsidesRules) -> String {
    let mut name = rules.name.clone();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{name}: probability tables")
}

/// Renders the tables as the files `--out` writes: (file name, contents).
pub fn files(
    tables: &[Table],
    format: Format,
    show: Show,
    heading: &str,
    intro: &str,
) -> Vec<(String, String)> {
    match format {
        Format::Csv => tables
            .iter()
            .map(|t| (format!("{}.csv", t.id), render::csv_table(t)))
            .collect(),
        Format::Markdown => tables
            .iter()
            .map(|t| (format!("{}.md", t.id), render::markdown_table(t, show)))
            .collect(),
        Format::Html => vec![(
            "tables.html".into(),
            render::html(tables, show, heading, intro),
        )],
    }
}

/// Renders the tables as one text for stdout.
pub fn text(tables: &[Table], format: Format, show: Show, heading: &str, intro: &str) -> String {
    match format {
        Format::Csv => render::csv(tables),
        Format::Markdown => render::markdown(tables, show, heading, intro),
        Format::Html => render::html(tables, show, heading, intro),
    }
}

/// The output format asked for, or the default for where the output goes.
fn format_of(args: &Args) -> Format {
    args.format
        .unwrap_or(if args.out.is_none() && std::io::stdout().is_terminal() {
            Format::Markdown
        } else {
            Format::Csv
        })
}

fn show_of(args: &Args) -> Show {
    match args.show {
        ShowArg::Fraction => Show::Fraction,
        ShowArg::Percent => Show::Percent,
        ShowArg::Both => Show::Both,
    }
}

/// Writes the table files `written` (name, contents) into `--out` folder `dir`: all of them or,
/// on any error (a full disk part way), none, and none over a file already there unless
/// `force`.
fn write_tables(dir: &Path, force: bool, written: Vec<(String, String)>) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--out {}: is a file; the output must be a folder (one file per table is written into it)",
            dir.display()
        )));
    }
    if !force && let Some((name, _)) = written.iter().find(|(n, _)| dir.join(n).exists()) {
        return Err(Error::Usage(format!(
            "--out {}: already holds {name}; choose another folder, or pass --force to overwrite",
            dir.display()
        )));
    }
    let made = !dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let paths: Vec<_> = written
        .iter()
        .map(|(n, c)| (dir.join(n), c.as_bytes()))
        .collect();
    if let Err(e) = crate::io::write_all_atomic(&paths) {
        if made {
            let _ = std::fs::remove_dir(dir);
        }
        return Err(e);
    }
    for (path, _) in &paths {
        crate::io::tell(&format!("wrote {}", path.display()));
    }
    Ok(())
}

/// Writes rendered tables to `--out` or stdout.
fn emit(args: &Args, built: &[Table], heading: &str, intro: &str) -> Result<()> {
    let (format, show) = (format_of(args), show_of(args));
    match &args.out {
        Some(dir) => write_tables(dir, args.force, files(built, format, show, heading, intro))?,
        None => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            out.write_all(text(built, format, show, heading, intro).as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| Error::io(Path::new("<stdout>"), e))?;
        }
    }
    Ok(())
}

/// `--ruleset black_powder`: the Black Powder tables.
fn black_powder(args: &Args) -> Result<()> {
    use crate::tables::black_powder::{TABLE_IDS as BP_IDS, build};
    if args.list {
        for id in BP_IDS {
            say!("{id}");
        }
        return Ok(());
    }
    for t in &args.tables {
        if !BP_IDS.contains(&t.as_str()) {
            return Err(Error::Usage(format!(
                "no Black Powder table `{t}`; the tables are: {}",
                BP_IDS.join(", ")
            )));
        }
    }
    let rules = crate::rules::black_powder::BlackPowderRules::builtin();
    let built: Vec<Table> = BP_IDS
        .iter()
        .filter(|id| args.tables.is_empty() || args.tables.iter().any(|t| t == *id))
        .map(|id| build(&rules, id).expect("listed tables build"))
        .collect();
    let intro = "Exact probabilities for Black Powder (ECW), computed by `ecw-sim tables --ruleset black_powder` by enumerating every roll of the dice \
                 through the simulator's own rule functions (configs/rulesets/black_powder.toml).";
    emit(args, &built, "Black Powder: probability tables", intro)
}

/// `--ruleset dickenson`: the Dickenson tables.
fn dickenson(args: &Args) -> Result<()> {
    use crate::tables::dickenson::{TABLE_IDS as DK_IDS, build};
    if args.list {
        for id in DK_IDS {
            say!("{id}");
        }
        return Ok(());
    }
    for t in &args.tables {
        if !DK_IDS.contains(&t.as_str()) {
            return Err(Error::Usage(format!(
                "no Dickenson table `{t}`; the tables are: {}",
                DK_IDS.join(", ")
            )));
        }
    }
    let rules = crate::rules::dickenson::DickensonRules::builtin();
    let built: Vec<Table> = DK_IDS
        .iter()
        .filter(|id| args.tables.is_empty() || args.tables.iter().any(|t| t == *id))
        .map(|id| build(&rules, id).expect("listed tables build"))
        .collect();
    let intro = "Exact probabilities for Neville Dickenson's Rules for English Civil War, computed by `ecw-sim tables --ruleset dickenson` by enumerating every roll of the dice \
                 through the simulator's own rule functions (configs/rulesets/dickenson.toml).";
    emit(args, &built, "Dickenson: probability tables", intro)
}

pub fn run(args: Args) -> Result<()> {
    if args.ruleset.as_deref() == Some(Path::new("black_powder")) {
        return black_powder(&args);
    }
    if args.ruleset.as_deref() == Some(Path::new("dickenson")) {
        return dickenson(&args);
    }
    let stdout = std::io::stdout();
    if args.list {
        let mut out = stdout.lock();
        for id in TABLE_IDS {
            writeln!(out, "{id}").map_err(|e| Error::io(Path::new("<stdout>"), e))?;
        }
        return Ok(());
    }
    let opts = options(&args)?;
    let ids = selected(&args)?;
    let rules = match &args.ruleset {
        Some(p) => IronsidesRules::load(p)?,
        None => IronsidesRules::builtin(),
    };
    tables::check_rules(&rules).map_err(|m| {
        let file = args
            .ruleset
            .as_deref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "the built-in ruleset".into());
        Error::Refused(format!("{file}: {m}"))
    })?;
    let format = args
        .format
        .unwrap_or(if args.out.is_none() && stdout.is_terminal() {
            Format::Markdown
        } else {
            Format::Csv
        });
    let show = match args.show {
        ShowArg::Fraction => Show::Fraction,
        ShowArg::Percent => Show::Percent,
        ShowArg::Both => Show::Both,
    };
    let built: Vec<Table> = ids
        .iter()
        .map(|id| tables::build(&rules, &opts, id).expect("selected ids exist"))
        .collect();
    let heading = heading(&rules);
    let intro = intro(&rules, args.ruleset.as_deref());
    match &args.out {
        Some(dir) => write_tables(
            dir,
            args.force,
            files(&built, format, show, &heading, &intro),
        )?,
        None => super::print_out(&text(&built, format, show, &heading, &intro))?,
    }
    Ok(())
}

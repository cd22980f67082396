//! `ecw-sim merge`: combine the partial results of a sharded run into exactly the files a
//! single run would have written.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::report::{self, BattlesFile, OutDir, Partial, Shards, partial_files};
use crate::runner::Shard;
use crate::stats::Layout;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folders holding partial-K-of-M.json files (or the files themselves)
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Output folder [default: the first DIR]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite an output folder holding another run's results
    #[arg(long)]
    pub force: bool,
    /// No summary
    #[arg(long)]
    pub quiet: bool,
}

/// The partial result files named by the arguments: every `partial-K-of-M.json` in a folder,
/// or a file named directly.
fn find_partials(args: &[PathBuf]) -> Result<Vec<(PathBuf, Shard)>> {
    let mut found = Vec::new();
    for a in args {
        if a.is_dir() {
            let here = partial_files(a)?;
            if here.is_empty() {
                return Err(Error::Usage(format!(
                    "{} holds no partial results (partial-K-of-M.json files from `ecw-sim run --shard K/M`)",
                    a.display()
                )));
            }
            found.extend(here);
        } else if a.is_file() {
            let name = a
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match Shard::from_file_name(&name).filter(|_| name.ends_with(".json")) {
                Some(s) => found.push((a.clone(), s)),
                None => {
                    return Err(Error::Usage(format!(
                        "{}: not a partial result (partial-K-of-M.json)",
                        a.display()
                    )));
                }
            }
        } else {
            return Err(Error::Usage(format!(
                "{}: no such folder or file",
                a.display()
            )));
        }
    }
    Ok(found)
}

/// The per-battle file written beside a shard's partial result.
fn battles_file_of(partial_json: &Path, shard: Shard) -> PathBuf {
    partial_json.with_file_name(format!("{}.battles.csv", shard.file_stem()))
}

pub fn run(args: Args) -> Result<()> {
    let mut parts = Vec::new();
    for (path, named) in find_partials(&args.dirs)? {
        let p = Partial::read(&path)?;
        if p.shard != named {
            return Err(Error::Refused(format!(
                "{}: named for shard {named} but holds shard {}",
                path.display(),
                p.shard
            )));
        }
        parts.push((path, p));
    }
    let shards = Shards::check(parts)?;
    let (first_path, first) = &shards.parts[0];
    let run_id = first.run.clone();
    let per_battle = first.per_battle;
    let layout = Layout {
        currency: crate::rules::currency(&run_id.ruleset)?.into(),
        ..first.layout.clone()
    };
    let tally = shards.tally()?;
    let out_path = match &args.out {
        Some(o) => o.clone(),
        None if args.dirs[0].is_dir() => args.dirs[0].clone(),
        None => first_path.parent().unwrap_or(Path::new(".")).to_path_buf(),
    };
    // On any error `out` is dropped unpublished, which removes what it staged.
    let out = OutDir::prepare(&out_path, &run_id, None, args.force)?;
    let battles = if per_battle {
        let mut b = BattlesFile::create(&out.file("battles.csv"), &layout.currency)?;
        for (path, p) in &shards.parts {
            let Some(sum) = &p.battles_checksum else {
                return Err(Error::Refused(format!(
                    "{}: run --per-battle but records no checksum of its rows",
                    path.display()
                )));
            };
            b.append_file(
                &battles_file_of(path, p.shard),
                p.first_battle..p.end_battle,
                sum,
            )?;
        }
        Some(b)
    } else {
        None
    };
    let files = report::render(&layout, &tally);
    let manifest = report::manifest(&run_id, &tally, &files, per_battle, shards.timing());
    out.write_results(&files, &manifest, battles)?;
    if !args.quiet {
        super::print_out(&report::summary(&layout, &tally, &manifest, &out_path))?;
    }
    Ok(())
}

//! `ecw-sim report DIR`: draws the results in an output folder as `report.html` beside them.

use std::path::PathBuf;

use crate::error::Result;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// An output folder of `ecw-sim run` or `ecw-sim merge` (it holds manifest.json)
    pub dir: PathBuf,
    /// Print nothing
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> Result<()> {
    let path = crate::report::write_report(&args.dir)?;
    if !args.quiet {
        say!("Report in {}", path.display());
    }
    Ok(())
}

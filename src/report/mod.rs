//! Reports: the tidy CSV files, `battles.csv`, the manifest and partial results, the output
//! folder's safety checks, and the terminal summary.

pub mod battles;
mod files;
pub mod html;
mod manifest;
mod measures;
mod output;
mod summary;
mod tidy;

pub use battles::BattlesFile;
pub use files::{commanders, losses, outcomes, pursuits, ratings};
pub use html::{REPORT, write_report};
pub use manifest::{
    Manifest, PARTIAL_FORMAT, Partial, RunIdentity, Shards, Timing, fnv1a64, read_manifest,
};
pub use measures::measures;
pub use output::{Contents, MANIFEST, OutDir, RESULT_FILES, partial_files};
pub use summary::{summary, thousands};
pub use tidy::{HEADER, QUANTILES, Tidy, Who, num};

use crate::runner::BATCH_SIZE;
use crate::stats::{Layout, Tally};

/// The statistics files of a finished run, rendered in memory: `(file name, bytes)`.
pub fn render(layout: &Layout, tally: &Tally) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("outcomes.csv".to_string(), outcomes(layout, tally)),
        (layout.losses_file(), losses(layout, tally)),
        ("pursuits.csv".to_string(), pursuits(layout, tally)),
        ("commanders.csv".to_string(), commanders(layout, tally)),
    ];
    if let Some(r) = ratings(layout, tally) {
        files.push(("ratings.csv".to_string(), r));
    }
    if let Some(m) = measures(layout, tally) {
        files.push(("measures.csv".to_string(), m));
    }
    files
}

/// The manifest of a finished run writing `files` (and `battles.csv` when `per_battle`).
pub fn manifest(
    run: &RunIdentity,
    tally: &Tally,
    files: &[(String, Vec<u8>)],
    per_battle: bool,
    timing: Timing,
) -> Manifest {
    let mut names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    if per_battle {
        names.push("battles.csv".into());
    }
    names.push(MANIFEST.into());
    Manifest {
        run: run.clone(),
        shard: None,
        batch_size: BATCH_SIZE,
        per_battle,
        dice_rolled: tally.dice_rolled,
        files: names,
        timing,
    }
}

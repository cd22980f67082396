//! What-ifs, balancing and sweeps: versions of a battle fought on common random numbers.
//!
//! * `compare`: a baseline and variants (`--set` overrides, or another scenario); each measure
//!   beside the baseline's, with the battle-by-battle (paired) difference and its interval.
//! * `sweep`: a grid of override values, every point fought on the same battles.
//! * `balance`: mirror-image battles between two rows of the ratings table.
//!
//! Battle `i` of every version is fought from `battle_seed(seed, i)` through the runner's
//! batches. Every total is a whole-number sum, so the files are the same bytes on any number of
//! threads. `docs/WHAT-IF.md` and `docs/BALANCING.md` show how to read them.

mod contest;
mod grid;
mod html;
mod mirror;
mod own;
mod paired;
mod render;
mod rulesets;

pub use contest::{Contest, ContestOutput, fight, find_unit};
pub use grid::{Param, VariantSpec, grid, point_overrides, split_top_level};
pub use html::{balance_html, compare_html, sweep_html};
pub use mirror::{
    ARMS, BalanceCounts, MirrorBattles, Row, Verdict, arm_name, check_mirror, fight_balance,
    mirror_setups, pair_rows, parse_arms, parse_rows, rate_army,
};
pub use own::{OwnMeasure, Who};
pub use paired::{ContestSums, Measure, Moments, PairedEstimate};
pub use render::{
    BALANCE_HEADER, COMPARE_HEADER, SWEEP_COLUMNS, arms_text, balance_csv, balance_summary,
    compare_csv, compare_summary, sweep_csv, sweep_summary,
};
pub use rulesets::{
    MeanSums, RULESET_MEASURES, RulesetBattles, RulesetSums, rulesets_csv, rulesets_summary,
};

use crate::error::Result;
use crate::runner::{self, RunPlan};

/// The plan of a what-if run: whole battles `0..battles`, no shards, no per-battle rows.
pub fn plan(seed: u64, battles: u64, threads: Option<usize>) -> Result<RunPlan> {
    let plan = RunPlan {
        seed,
        battles,
        shard: None,
        threads: threads.unwrap_or_else(runner::default_threads),
        per_battle: false,
    };
    plan.validate()?;
    Ok(plan)
}

//! Streaming, mergeable statistics: exact histograms, whole-number tallies, Wilson intervals.
//!
//! A [`Collector`] watches one battle after another through the event stream and folds each
//! into a [`Tally`]; tallies of different batches, threads or machines add up with
//! [`Tally::merge`]. Nothing here grows with the number of battles.

mod collector;
mod histogram;
mod interval;
mod layout;
mod measures;
mod tally;
#[cfg(test)]
pub(crate) mod testing;

pub use collector::{BattleRow, Collector};
pub use histogram::Histogram;
pub use interval::{Estimate, Z95, mean_interval, normal_interval, wilson};
pub use layout::{
    CommandInfo, CommanderEffects, CommanderInfo, Layout, UnitInfo, currency_label, losses_file,
};
pub use measures::{Counter, Counts, MeasureInfo, Measures, OwnTotals, Report};
pub use tally::{
    CommanderTally, EntityTally, GENERAL_RESULTS, RatingTally, Tally, general_result_index,
};

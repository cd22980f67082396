//! ecw-sim: a Monte Carlo battle-statistics simulator for English Civil War wargames.
//!
//! Data flows one way: scenario -> battle state -> (doctrine decides, rules resolve, dice
//! decide) -> events -> observers -> aggregates -> CSV and summaries.

pub mod army;
pub mod arrivals;
pub mod battlefield;
pub mod charts;
pub mod cli;
pub mod dice;
pub mod doctrine;
pub mod error;
pub mod events;
pub mod io;
pub mod map;
pub mod narrative;
pub mod replay_page;
pub mod report;
pub mod rules;
pub mod runner;
pub mod scenario;
pub mod setup;
pub mod stats;
pub mod tables;
pub mod whatif;

pub use error::{Error, Result};

//! Black Powder for the English Civil War: the period supplement's rules over a default reading
//! of the core game, one file per part of the turn. Rule numbers live in
//! `configs/rulesets/black_powder.toml` ([`BlackPowderRules`]).

pub mod battle;
pub mod command;
pub mod events;
pub mod melee;
pub mod morale;
pub mod shooting;
pub mod statistics;
pub mod tables;
pub mod units;

pub use tables::BlackPowderRules;

//! Scripted AI doctrines: each command's decisions, from named parameters kept as data in
//! `configs/doctrines/*.toml`. The engine asks, the doctrine answers, the engine enforces legality.

mod params;

pub use params::{DoctrineParams, RallyPriority, TargetPreference};

//! Scripted AI doctrines: each command's decisions, from named parameters kept as data in
//! `configs/doctrines/*.toml`. The engine asks, the doctrine answers, the engine enforces legality.

mod ai;
mod params;
mod scripted;

pub use ai::{Doctrine, Order, ParamAi, Responses};
pub use params::{DoctrineParams, RallyPriority, TargetPreference};

//! Neville Dickenson's Rules for English Civil War (Miniature Figurines): a figure-scale game of
//! volleys of six, falling shot, powder and morale points: the rule data, the rule functions
//! and the battle engine that fights whole seeded battles with them (docs/RULES-DICKENSON.md).

pub mod battle;
pub mod events;
pub mod figures;
pub mod gunnery;
pub mod melee;
pub mod morale;
pub mod statistics;
pub mod tables;
pub mod volley;

pub use tables::DickensonRules;

//! Neville Dickenson's Rules for English Civil War (Miniature Figurines): a figure-scale game of
//! volleys of six, falling shot, powder and morale points. The rule data and the rule functions
//! a battle engine will stand on; the engine itself is not built yet (docs/RULES-DICKENSON.md).

pub mod figures;
pub mod gunnery;
pub mod melee;
pub mod morale;
pub mod tables;
pub mod volley;

pub use tables::DickensonRules;

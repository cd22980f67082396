//! The Ironsides rules (H. J. Whitehouse, 1998): one file per part of the turn sequence.

pub mod battle;
pub mod charge;
pub mod dice_rules;
pub mod fire;
pub mod generals;
pub mod leadership;
pub mod melee;
pub mod movement;
pub mod pursuit;
pub mod rally;
pub mod reaction;
pub mod tables;

pub use tables::IronsidesRules;

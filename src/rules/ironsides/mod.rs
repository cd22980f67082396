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

/// The CV a unit lost in the battle just fought: all of it if it left the field, else what it
/// lacks of its starting CV, none if it never arrived (as `Battle::cv_lost` counts a side's).
pub fn unit_cv_lost(u: &crate::army::Unit) -> u32 {
    use crate::army::UnitStatus;
    match u.status {
        UnitStatus::Active => u32::from(u.start_cv - u.cv.min(u.start_cv)),
        UnitStatus::Waiting => 0,
        _ => u32::from(u.start_cv),
    }
}

//! Rulesets. Ironsides is the primary one; Black Powder and Dickenson plug in behind the same
//! boundary later without touching it.

pub mod ironsides;

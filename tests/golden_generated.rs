//! Golden generated battles: the scaling bench's battles of 100 and 400 units under each
//! ruleset, every event hashed, pinned here. The built-in scenarios field at most 73 units, so
//! they never reach the ways large armies are searched (Black Powder's grid rings above 64
//! enemy regiments, Ironsides' cells); these pin them. Speed work never moves them.
//!
//! To print the current fingerprints: `ECW_GOLDEN_PRINT=1 cargo test --release --test
//! golden_generated -- --nocapture`.

mod golden_common;

use ecw_sim::rules::Ironsides;
use ecw_sim::rules::black_powder::battle::BlackPowder;
use ecw_sim::rules::dickenson::battle::Dickenson;

/// (units, battles, fingerprint of the first battles of master seed 1).
const IRONSIDES: &[(usize, u64, u64)] =
    &[(100, 20, 0x5cd317a101575724), (400, 6, 0x07ffb87473aa7ae7)];
const BLACK_POWDER: &[(usize, u64, u64)] =
    &[(100, 20, 0xe8f4e022faf4b2db), (400, 6, 0xfbf8f25bd6aae4bd)];
const DICKENSON: &[(usize, u64, u64)] =
    &[(100, 6, 0x49b358e3fd9ec67e), (400, 2, 0x80fa4fe3deb8fdf0)];

#[test]
fn generated_ironsides_battles_are_fought_as_pinned() {
    golden_common::check_generated(&Ironsides, IRONSIDES, FILE);
}

#[test]
fn generated_black_powder_battles_are_fought_as_pinned() {
    golden_common::check_generated(&BlackPowder::builtin(), BLACK_POWDER, FILE);
}

#[test]
fn generated_dickenson_battles_are_fought_as_pinned() {
    golden_common::check_generated(&Dickenson::builtin(), DICKENSON, FILE);
}

const FILE: &str = "tests/golden_generated.rs";

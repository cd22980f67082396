//! `ecw-sim compare` (being built).

use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<()> {
    Err(Error::Usage("`compare` is not built yet".into()))
}

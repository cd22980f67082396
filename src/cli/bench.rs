//! `ecw-sim bench` (being built).

use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<()> {
    Err(Error::Usage("`bench` is not built yet".into()))
}

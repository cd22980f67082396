//! `ecw-sim validate`: load and check a scenario; print its order of battle, or every problem found.

use crate::error::{Error, Result};
use crate::scenario::Scenario;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A scenario file, or the name of a built-in scenario (see `ecw-sim list scenarios`).
    pub scenario: String,
    /// Change one setting before checking: PATH=VALUE, e.g. `--set turn_limit=20` or
    /// `--set royalist.captain_general=cromwell` (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// The rules whose army break to state (ironsides, black_powder, dickenson) [default: the
    /// scenario's]
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    let scenario = Scenario::open(&args.scenario, &args.set)?;
    let name = super::run::ruleset_name(&scenario, args.ruleset.as_deref());
    crate::rules::check_ruleset(name)?;
    match scenario.checked() {
        Ok(checked) => {
            let setup = checked.setup();
            let rules = format!(
                "ruleset {name}: {}",
                crate::rules::how_it_ends(name, setup)?
            );
            super::note_size(setup, name);
            for caution in crate::rules::cautions(name, setup)? {
                crate::io::tell(&format!("note: {caution}"));
            }
            super::print_out(&checked.order_of_battle(&rules))
        }
        Err(errors) => {
            // Every problem on its own line, then the summary that makes the exit code non-zero.
            for e in &errors {
                crate::io::tell(&format!("error: {e}"));
            }
            Err(Error::Refused(format!(
                "{}: {} problem(s) found",
                scenario.path().display(),
                errors.len()
            )))
        }
    }
}

//! Several versions of one battle fought on common random numbers: battle `i` of every version
//! from `battle_seed(seed, i)`, all versions of battle `i` by the same worker one after another,
//! through the runner's batches, thread pool, progress bar and Ctrl-C handling.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use indicatif::ProgressBar;

use super::paired::{ContestSums, Measure};
use crate::army::Side;
use crate::error::{Error, Result};
use crate::rules::{BattleSummary, Ruleset, WithRuleset};
use crate::runner::{self, RunPlan};
use crate::setup::BattleSetup;
use crate::stats::{Collector, Layout, OwnTotals};

/// What a contest produced.
#[derive(Debug, Clone)]
pub struct ContestOutput {
    pub sums: ContestSums,
    pub elapsed: Duration,
}

/// The unit a measure names in a set-up: `Name`, or `parliament:Name` / `royalist:Name` when
/// both armies have a unit of that name.
pub fn find_unit(setup: &BattleSetup, name: &str) -> std::result::Result<usize, String> {
    let (side, bare) = side_and_name(name);
    let found: Vec<usize> = (0..setup.units.len())
        .filter(|&i| setup.unit_name(i as u16) == bare)
        .filter(|&i| side.is_none_or(|s| setup.units[i].side == s))
        .collect();
    match found.as_slice() {
        [i] => Ok(*i),
        [] => {
            let names: Vec<&str> = setup.names.units.iter().map(String::as_str).collect();
            let hint = did_you_mean(bare, &names);
            Err(format!("no unit `{name}` in {}{hint}", setup.name))
        }
        _ => Err(format!(
            "both armies of {} have a unit `{bare}`: write parliament:{bare} or royalist:{bare}",
            setup.name
        )),
    }
}

/// A name as the what-if options write it: `NAME`, or `parliament:NAME` / `royalist:NAME` to
/// say whose.
pub(super) fn side_and_name(name: &str) -> (Option<Side>, &str) {
    name.split_once(':')
        .and_then(|(s, rest)| {
            Side::BOTH
                .into_iter()
                .find(|x| x.name() == s)
                .map(|x| (Some(x), rest))
        })
        .unwrap_or((None, name))
}

/// "; did you mean A or B?" for the names nearest `word` (nothing when none is near).
pub(super) fn did_you_mean(word: &str, names: &[&str]) -> String {
    let near = crate::scenario::nearest(word, names, 3);
    if near.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", near.join(" or "))
    }
}

/// A contest, ready for the ruleset it is fought under.
pub struct Contest<'a> {
    pub plan: &'a RunPlan,
    /// Each version's name (for errors: `version rupert_cg`, `point turn_limit=8`) and set-up.
    pub versions: &'a [(String, &'a BattleSetup)],
    pub measures: &'a [Measure],
    pub progress: &'a ProgressBar,
    pub stop: &'a AtomicBool,
}

impl WithRuleset for Contest<'_> {
    type Output = Result<ContestOutput>;

    fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output {
        fight(
            ruleset,
            self.plan,
            self.versions,
            self.measures,
            self.progress,
            self.stop,
        )
    }
}

/// Fights every battle of `plan` in each version (name, set-up; the first the baseline) under
/// `ruleset`, once each measure's unit is found in every version (a refusal names the version),
/// and sums every measure of every version and every version's difference from the baseline,
/// battle by battle. The sums are whole numbers, so they do not depend on the order the
/// workers add them in: the result is the same on any number of threads.
pub fn fight<R: Ruleset>(
    ruleset: &R,
    plan: &RunPlan,
    versions: &[(String, &BattleSetup)],
    measures: &[Measure],
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Result<ContestOutput> {
    let Some((_, base)) = versions.first() else {
        return Err(Error::Usage(
            "nothing to fight: no version of the battle".into(),
        ));
    };
    let setups: Vec<&BattleSetup> = versions.iter().map(|(_, s)| *s).collect();
    let setups = setups.as_slice();
    let layouts: Vec<Layout> = setups.iter().map(|s| ruleset.layout(s)).collect();
    let reads = reads(versions, &layouts, measures)?;
    let by_unit = reads.iter().flatten().any(|r| matches!(r, Read::Unit(_)));
    if by_unit && !counts_unit_losses(ruleset, base) {
        return Err(Error::Usage(format!(
            "--unit: the {} ruleset does not count a unit's losses",
            ruleset.name()
        )));
    }
    // Each version's own measures are counted from its events only when some are asked for.
    let counting = reads.iter().flatten().any(|r| matches!(r, Read::Own(_)));
    let sums = Mutex::new(ContestSums::new(setups.len(), measures.len()));
    let versions = Versions {
        ruleset,
        setups,
        layouts: &layouts,
        measures,
        reads: &reads,
        counting,
        sums: &sums,
    };
    let output = runner::run(
        plan,
        &layouts[0],
        || versions.worker(),
        progress,
        stop,
        &mut |_| Ok(()),
    )?;
    let sums = sums.into_inner().unwrap_or_else(|e| e.into_inner());
    debug_assert_eq!(sums.battles(), output.tally.battles);
    Ok(ContestOutput {
        sums,
        elapsed: output.elapsed,
    })
}

/// The versions of a contest, as each worker fights them.
struct Versions<'a, R> {
    ruleset: &'a R,
    setups: &'a [&'a BattleSetup],
    layouts: &'a [Layout],
    measures: &'a [Measure],
    /// What each measure reads in each version.
    reads: &'a [Vec<Read>],
    /// Whether the versions' own measures are counted from their events.
    counting: bool,
    sums: &'a Mutex<ContestSums>,
}

impl<'a, R: Ruleset> Versions<'a, R> {
    /// One worker's fighter: every version of each seed fought on its own engine, its measures
    /// read and added to the sums. Returns the dice thrown.
    fn worker(&self) -> impl FnMut(u64, &mut Collector) -> u64 + 'a {
        let Versions {
            ruleset,
            setups,
            layouts,
            measures,
            reads,
            counting,
            sums,
        } = *self;
        let mut engines: Vec<R::Battle> = setups.iter().map(|s| ruleset.new_battle(s)).collect();
        let mut own: Vec<OwnTotals> = (layouts.iter())
            .map(|l| {
                let counter = l.counter.filter(|_| counting);
                OwnTotals::new(l.units.len(), l.measures.len(), counter)
            })
            .collect();
        let mut x = vec![vec![0i64; measures.len()]; setups.len()];
        move |seed, collector: &mut Collector| {
            let mut dice = 0;
            for (k, (engine, setup)) in engines.iter_mut().zip(setups).enumerate() {
                // The baseline feeds the runner's collector, which counts its own measures;
                // the others need only theirs.
                let s = if k == 0 {
                    ruleset.fight(engine, setup, seed, collector)
                } else {
                    own[k].clear();
                    ruleset.fight(engine, setup, seed, &mut own[k])
                };
                dice += s.dice_rolled;
                let totals = if k == 0 {
                    collector.own_totals()
                } else {
                    &own[k]
                };
                let reading = (measures, &reads[k][..]);
                read_measures(ruleset, engine, &s, totals, reading, &mut x[k]);
            }
            sums.lock().unwrap_or_else(|e| e.into_inner()).add(&x);
            dice
        }
    }
}

/// What each measure reads in each version (the versions in order, then the measures): a
/// measure whose unit or command a version lacks is refused, naming the version.
fn reads(
    versions: &[(String, &BattleSetup)],
    layouts: &[Layout],
    measures: &[Measure],
) -> Result<Vec<Vec<Read>>> {
    let mut reads = Vec::with_capacity(versions.len());
    for ((name, setup), layout) in versions.iter().zip(layouts) {
        let of = measures
            .iter()
            .map(|m| {
                Read::of(m, setup, layout)
                    .map_err(|e| Error::Usage(format!("{}: {e} ({name})", m.flag())))
            })
            .collect::<Result<Vec<_>>>()?;
        reads.push(of);
    }
    Ok(reads)
}

/// Each measure's value in one version's battle just fought (`s`), into `x`: a unit's losses
/// from its engine, a ruleset's own measure from the version's `totals`.
fn read_measures<R: Ruleset>(
    ruleset: &R,
    engine: &R::Battle,
    s: &BattleSummary,
    totals: &OwnTotals,
    (measures, reads): (&[Measure], &[Read]),
    x: &mut [i64],
) {
    for (m, measure) in measures.iter().enumerate() {
        let reading = match (&reads[m], measure) {
            (Read::Unit(u), _) => ruleset.unit_lost(engine, *u).map_or(0, i64::from),
            (Read::Own(units), Measure::Own(o)) => o.value(totals, units),
            _ => 0,
        };
        x[m] = measure.value(s.outcome, s.turns, s.cv_lost, reading);
    }
}

/// What a measure reads in one version beside the battle's outcome.
enum Read {
    Battle,
    /// The unit whose losses it is.
    Unit(u16),
    /// The units whose own measure it adds up.
    Own(Vec<usize>),
}

impl Read {
    fn of(m: &Measure, setup: &BattleSetup, layout: &Layout) -> std::result::Result<Read, String> {
        Ok(match m {
            Measure::UnitLost(name, _) => Read::Unit(find_unit(setup, name)? as u16),
            Measure::Own(o) => Read::Own(o.units(layout)?),
            _ => Read::Battle,
        })
    }
}

/// Whether the ruleset reports a unit's losses after a battle (asked of a fresh battle).
fn counts_unit_losses<R: Ruleset>(ruleset: &R, setup: &BattleSetup) -> bool {
    setup.units.is_empty() || ruleset.unit_lost(&ruleset.new_battle(setup), 0).is_some()
}

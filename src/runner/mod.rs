//! The Monte Carlo runner: battles in fixed-size batches on a local rayon pool, each batch
//! counted into its own tally, the tallies added in battle-index order.
//!
//! Battle `i` of a run is always fought from [`battle_seed`]`(seed, i)`, and tallies hold whole
//! numbers only, so the counts (and the bytes of every CSV) are the same whatever the thread
//! count, the order the batches finish in, or how the run is sharded. Memory is bounded: at
//! most one wave of batch tallies is held at a time, and each worker keeps one engine and one
//! collector, reused battle after battle.

mod interrupt;
mod progress;
mod shard;

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use rayon::prelude::*;

pub use interrupt::ctrl_c_flag;
pub use progress::progress_bar;
pub use shard::Shard;

use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::stats::{BattleRow, Collector, Layout, Tally};

/// Battles per batch: each batch is counted into one tally.
pub const BATCH_SIZE: u64 = 256;

/// Batches per worker thread in each wave: enough to keep every thread busy while one wave's
/// tallies are all that is held in memory.
const BATCHES_PER_THREAD: usize = 4;

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPlan {
    pub seed: u64,
    /// Battles in the whole run (all shards).
    pub battles: u64,
    pub shard: Option<Shard>,
    pub threads: usize,
    /// Keep a row per battle.
    pub per_battle: bool,
}

impl RunPlan {
    /// Refuses plans that cannot run: no battles, no threads, an empty shard.
    pub fn validate(&self) -> Result<()> {
        if self.battles == 0 {
            return Err(Error::Usage(
                "--battles 0: a run needs at least one battle".into(),
            ));
        }
        if self.threads == 0 {
            return Err(Error::Usage(
                "--threads 0: a run needs at least one thread".into(),
            ));
        }
        if let Some(s) = self.shard
            && u64::from(s.count) > self.battles
        {
            return Err(Error::Usage(format!(
                "--shard {s}: {} battles cannot be split into {} shards (at most one shard per battle)",
                self.battles, s.count
            )));
        }
        Ok(())
    }

    /// The battle indices this process fights.
    pub fn range(&self) -> Range<u64> {
        match self.shard {
            Some(s) => s.range(self.battles),
            None => 0..self.battles,
        }
    }

    /// The batches of this process, in index order.
    pub fn batches(&self) -> impl Iterator<Item = Range<u64>> + use<> {
        let r = self.range();
        (r.start..r.end)
            .step_by(BATCH_SIZE as usize)
            .map(move |a| a..(a + BATCH_SIZE).min(r.end))
    }
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub tally: Tally,
    pub elapsed: Duration,
}

/// One worker's engine and collector, kept across batches.
struct Worker<F> {
    fight: F,
    collector: Collector,
}

/// Fights the plan's battles.
///
/// `make_fighter` is called once per worker thread; the fighter it returns fights battle after
/// battle: given a seed and the collector (the observer), it fights one whole battle and
/// returns the dice it rolled. `on_rows` receives the per-battle rows (when the plan keeps
/// them) batch by batch in index order. `stop` is checked before each batch starts; once set,
/// the run returns [`Error::Interrupted`] saying how many battles finished.
pub fn run<M, F>(
    plan: &RunPlan,
    layout: &Layout,
    make_fighter: M,
    progress: &ProgressBar,
    stop: &AtomicBool,
    on_rows: &mut dyn FnMut(&[BattleRow]) -> Result<()>,
) -> Result<RunOutput>
where
    M: Fn() -> F + Sync,
    F: FnMut(u64, &mut Collector) -> u64 + Send,
{
    plan.validate()?;
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .thread_name(|i| format!("ecw-sim-{i}"))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start {} threads: {e}", plan.threads)))?;
    let workers: Mutex<Vec<Worker<F>>> = Mutex::new(Vec::with_capacity(plan.threads));
    let fight_batch = |battles: &Range<u64>| -> Option<(Tally, Vec<BattleRow>)> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let spare = workers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut w = spare.unwrap_or_else(|| Worker {
            fight: make_fighter(),
            collector: Collector::new(layout, plan.per_battle),
        });
        for i in battles.clone() {
            let seed = battle_seed(plan.seed, i);
            w.collector.begin(i, seed);
            let dice = (w.fight)(seed, &mut w.collector);
            w.collector.end(dice);
        }
        let out = w.collector.take();
        workers.lock().unwrap_or_else(|e| e.into_inner()).push(w);
        progress.inc(battles.end - battles.start);
        Some(out)
    };

    let total_here = plan.range().end - plan.range().start;
    let wave_len = (plan.threads * BATCHES_PER_THREAD).max(2);
    let mut tally = Tally::new(layout);
    let mut done = 0u64;
    let mut batches = plan.batches().peekable();
    let mut wave: Vec<Range<u64>> = Vec::with_capacity(wave_len);
    while batches.peek().is_some() {
        wave.clear();
        wave.extend(batches.by_ref().take(wave_len));
        let results: Vec<Option<(Tally, Vec<BattleRow>)>> =
            pool.install(|| wave.par_iter().map(fight_batch).collect());
        let mut interrupted = false;
        for r in results {
            match r {
                Some((t, rows)) => {
                    done += t.battles;
                    if !interrupted {
                        tally.merge(&t)?;
                        on_rows(&rows)?;
                    }
                }
                None => interrupted = true,
            }
        }
        if interrupted || stop.load(Ordering::Relaxed) {
            return Err(Error::Interrupted(format!(
                "stopped after {done} of {total_here} battles; nothing was written"
            )));
        }
    }
    Ok(RunOutput {
        tally,
        elapsed: started.elapsed(),
    })
}

/// The process's peak resident memory (VmHWM) in KiB, where the system reports it (Linux).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Logical cores available to this process.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests;

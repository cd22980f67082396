//! The Monte Carlo runner: battles in fixed-size batches on a local rayon pool, each batch
//! counted into its own tally, the tallies added in battle-index order.
//!
//! Battle `i` of a run is always fought from [`battle_seed`]`(seed, i)`, and tallies hold whole
//! numbers only, so the counts (and the bytes of every CSV) are the same whatever the thread
//! count, the order the batches finish in, or how the run is sharded. Memory is bounded: at
//! most a small window of batch tallies waits to be added at a time, and each worker thread
//! keeps one engine and one collector, reused battle after battle.

mod interrupt;
mod progress;
mod shard;

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

pub use interrupt::{ctrl_c_flag, stage_begun, stage_ended, stop_requested};
pub use progress::progress_bar;
pub use shard::Shard;

use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::stats::{BattleRow, Collector, Layout, Tally};

/// Battles per batch: each batch is counted into one tally.
pub const BATCH_SIZE: u64 = 256;

/// Batches per worker thread that may be done but not yet added (waiting for an earlier,
/// slower batch): keeps every thread busy with a bounded number of tallies in memory.
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
        (0..self.batch_total()).map(move |b| nth_batch(&r, b))
    }

    /// How many batches this process fights.
    fn batch_total(&self) -> u64 {
        let r = self.range();
        (r.end - r.start).div_ceil(BATCH_SIZE)
    }

    /// How many batches this process fights, as an index of this machine.
    fn batch_count(&self) -> Result<usize> {
        usize::try_from(self.batch_total())
            .map_err(|_| Error::Usage("too many battles for this machine".into()))
    }
}

/// The battles of batch `b` of a process fighting `range`.
fn nth_batch(range: &Range<u64>, b: u64) -> Range<u64> {
    let a = range.start + b * BATCH_SIZE;
    a..(a + BATCH_SIZE).min(range.end)
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub tally: Tally,
    pub elapsed: Duration,
}

/// A batch's result: its tally and rows, or None if it was skipped because the run stopped.
type BatchResult = Option<(Tally, Vec<BattleRow>)>;

/// What the workers and the merging thread share.
struct Shared<'a> {
    /// The next batch to hand out.
    next: AtomicUsize,
    /// Batches merged so far: a worker may start batch `b` only when `b < merged + window`.
    merged: Mutex<usize>,
    advanced: Condvar,
    window: usize,
    /// Set by a failed merge or a panicking worker: everyone stops.
    abort: AtomicBool,
    stop: &'a AtomicBool,
    /// The first battle that panicked, with its message.
    panicked: Mutex<Option<String>>,
}

impl Shared<'_> {
    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed)
    }

    /// Waits until batch `b` is inside the window; false if the run halted meanwhile.
    fn wait_for_window(&self, b: usize) -> bool {
        let mut merged = self.merged.lock().unwrap_or_else(|e| e.into_inner());
        while b >= *merged + self.window {
            if self.halted() {
                return false;
            }
            // Ctrl-C cannot wake the condvar: look at the flags now and then.
            merged = self
                .advanced
                .wait_timeout(merged, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        !self.halted()
    }
}

/// Sets the abort flag if a worker unwinds, so no one waits for its batch.
struct AbortOnPanic<'a>(&'a Shared<'a>);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort.store(true, Ordering::SeqCst);
            self.0.advanced.notify_all();
        }
    }
}

/// The words a panic was raised with.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

impl Shared<'_> {
    /// Keeps the first battle's panic and stops everyone.
    fn record_panic(&self, message: String) {
        let mut first = self.panicked.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(message);
        self.abort.store(true, Ordering::SeqCst);
        self.advanced.notify_all();
    }
}

/// The calling thread's side of a run: batch tallies added in index order.
struct Merging {
    tally: Tally,
    /// Battles fought in the batches received.
    done: u64,
    /// The first merge or row hand-off that failed: nothing is merged after it.
    failure: Option<Error>,
    /// Whether a worker gave up a batch (the run halted).
    skipped: bool,
}

impl Merging {
    /// Receives every batch, adds each in index order as soon as those before it are in,
    /// hands on its rows, and moves the window on for the workers.
    fn in_order(
        &mut self,
        rx: std::sync::mpsc::Receiver<(usize, BatchResult)>,
        shared: &Shared<'_>,
        on_rows: &mut dyn FnMut(&[BattleRow]) -> Result<()>,
    ) {
        let mut waiting: BTreeMap<usize, BatchResult> = BTreeMap::new();
        let mut next_merge = 0usize;
        for (b, result) in rx {
            match &result {
                Some((t, _)) => self.done += t.battles,
                None => self.skipped = true,
            }
            waiting.insert(b, result);
            while let Some(result) = waiting.remove(&next_merge) {
                if let (Some((t, rows)), None) = (result, &self.failure)
                    && let Err(e) = self.tally.merge(&t).and_then(|()| on_rows(&rows))
                {
                    self.failure = Some(e);
                    shared.abort.store(true, Ordering::SeqCst);
                }
                next_merge += 1;
                *shared.merged.lock().unwrap_or_else(|e| e.into_inner()) = next_merge;
                shared.advanced.notify_all();
            }
        }
    }
}

/// Fights the plan's battles.
///
/// `make_fighter` is called once on each worker thread; the fighter it returns fights battle
/// after battle: given a seed and the collector (the observer), it fights one whole battle and
/// returns the dice it rolled. Every thread of the pool takes the next batch as soon as it is
/// free; the calling thread adds the batch tallies in index order and hands `on_rows` the
/// per-battle rows (when the plan keeps them) in index order. At most a window of
/// `BATCHES_PER_THREAD` batches per thread is ever waiting to be added. `stop` is checked
/// before each batch; once set, the run returns [`Error::Interrupted`] saying how many
/// battles finished.
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
    F: FnMut(u64, &mut Collector) -> u64,
{
    plan.validate()?;
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .thread_name(|i| format!("ecw-sim-{i}"))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start {} threads: {e}", plan.threads)))?;
    let workers = Workers {
        plan,
        layout,
        batch_count: plan.batch_count()?,
        progress,
        shared: Shared {
            next: AtomicUsize::new(0),
            merged: Mutex::new(0),
            advanced: Condvar::new(),
            window: (plan.threads * BATCHES_PER_THREAD).max(2),
            abort: AtomicBool::new(false),
            stop,
            panicked: Mutex::new(None),
        },
    };
    let mut merging = Merging {
        tally: Tally::new(layout),
        done: 0,
        failure: None,
        skipped: false,
    };
    std::thread::scope(|s| {
        let (tx, rx) = channel::<(usize, BatchResult)>();
        let fighting = s.spawn(|| {
            pool.broadcast(|_| workers.work(&make_fighter, &tx));
            drop(tx);
        });
        merging.in_order(rx, &workers.shared, on_rows);
        if let Err(panic) = fighting.join() {
            std::panic::resume_unwind(panic);
        }
    });
    let range = plan.range();
    let tally = merging.outcome(workers.shared, range.end - range.start)?;
    Ok(RunOutput {
        tally,
        elapsed: started.elapsed(),
    })
}

/// What every worker thread reads: the plan, and what the threads share.
struct Workers<'a> {
    plan: &'a RunPlan,
    layout: &'a Layout,
    batch_count: usize,
    progress: &'a ProgressBar,
    shared: Shared<'a>,
}

impl Workers<'_> {
    /// One worker thread's loop: takes batch after batch and sends each one's tally, until no
    /// batch is left or the run halts. Its engine and collector are made at its first batch.
    fn work<M, F>(&self, make_fighter: &M, tx: &Sender<(usize, BatchResult)>)
    where
        M: Fn() -> F,
        F: FnMut(u64, &mut Collector) -> u64,
    {
        let shared = &self.shared;
        let _guard = AbortOnPanic(shared);
        let mut state: Option<(F, Collector)> = None;
        loop {
            if shared.halted() {
                return;
            }
            let b = shared.next.fetch_add(1, Ordering::SeqCst);
            if b >= self.batch_count {
                return;
            }
            if !shared.wait_for_window(b) {
                let _ = tx.send((b, None));
                return;
            }
            let (fight, collector) = state.get_or_insert_with(|| {
                (
                    make_fighter(),
                    Collector::new(self.layout, self.plan.per_battle),
                )
            });
            let battles = nth_batch(&self.plan.range(), b as u64);
            if !self.fight_batch(fight, collector, battles.clone()) {
                return;
            }
            self.progress.inc(battles.end - battles.start);
            if tx.send((b, Some(collector.take()))).is_err() {
                return;
            }
        }
    }

    /// Fights one batch into the collector; false if a battle panicked (an engine bug), which
    /// stops the run with that battle named.
    fn fight_batch<F>(&self, fight: &mut F, collector: &mut Collector, battles: Range<u64>) -> bool
    where
        F: FnMut(u64, &mut Collector) -> u64,
    {
        for i in battles {
            let seed = battle_seed(self.plan.seed, i);
            let fought = catch_unwind(AssertUnwindSafe(|| {
                collector.begin(i, seed);
                let dice = fight(seed, collector);
                collector.end(dice);
            }));
            if let Err(payload) = fought {
                self.shared.record_panic(format!(
                    "internal error: battle {i} of the run (seed {}, battle seed {seed:#018x}) panicked: {}",
                    self.plan.seed,
                    panic_message(payload.as_ref())
                ));
                return false;
            }
        }
        true
    }
}

impl Merging {
    /// The run's tally once every worker is done, or why there is none: a battle that
    /// panicked, a failed merge, or a run stopped before all `total` battles were fought.
    fn outcome(self, shared: Shared<'_>, total: u64) -> Result<Tally> {
        if let Some(message) = shared
            .panicked
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            return Err(Error::Usage(message));
        }
        if let Some(e) = self.failure {
            return Err(e);
        }
        if self.skipped || self.done < total {
            return Err(Error::Interrupted(format!(
                "stopped after {} of {total} battles; nothing was written",
                self.done
            )));
        }
        Ok(self.tally)
    }
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

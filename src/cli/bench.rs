//! `ecw-sim bench`: how fast battles are fought, measured in one run against baselines taken in
//! the same process: battles per second on one thread, the dice floor (drawing the same dice
//! from the same generator and nothing else), the statistics collector's share, and the
//! speed-up from one thread to all of them on the same battles.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::bench_scale::thread_cpu;
use crate::dice::{StreamDice, battle_seed, dice_floor, mix64};
use crate::error::{Error, Result};
use crate::events::NullObserver;
use crate::rules::{BattleSummary, Ruleset, WithRuleset};
use crate::runner;
use crate::scenario::Scenario;
use crate::setup::BattleSetup;
use crate::stats::Collector;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A scenario file, or the name of a built-in scenario [default: marston_moor]
    pub scenario: Option<String>,
    /// Battles in each measurement
    #[arg(long, default_value_t = 2_000)]
    pub battles: u64,
    /// Master seed: battle i is fought from a seed made of this and i alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads for the parallel measurement, 1 to 8 per core (never more than 1024) [default:
    /// every core]
    #[arg(long)]
    pub threads: Option<usize>,
    /// Override a scenario value, as for `ecw-sim run`
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// The rules to fight by (ironsides, black_powder, dickenson) [default: the scenario's]
    #[arg(long, value_name = "NAME")]
    pub ruleset: Option<String>,
    #[command(flatten)]
    pub scale: super::bench_scale::ScaleArgs,
}

/// Battles a thread takes at a time in the parallel measurement.
const CHUNK: u64 = 8;

/// A fingerprint of a battle's result that does not depend on the order battles are fought in
/// (summed over battles with wrapping addition).
fn fingerprint(i: u64, s: &BattleSummary) -> u64 {
    let outcome = match s.outcome {
        crate::events::Outcome::Won(side) => 1 + side.index() as u64,
        crate::events::Outcome::Draw => 0,
    };
    mix64(
        i ^ mix64(
            outcome
                | u64::from(s.turns) << 8
                | s.dice_rolled << 24
                    ^ u64::from(s.cv_lost[0]) << 40
                    ^ u64::from(s.cv_lost[1]) << 52,
        ),
    )
}

/// Battles `range` on this thread with one reused battle: their dice, one by one, and the sum
/// of their fingerprints.
fn fight_range<R: Ruleset>(
    ruleset: &R,
    setup: &BattleSetup,
    seed: u64,
    range: std::ops::Range<u64>,
    dice: &mut [u64],
) -> u64 {
    let mut battle = ruleset.new_battle(setup);
    let mut fp = 0u64;
    for (i, d) in range.zip(dice.iter_mut()) {
        if runner::stop_requested() {
            break;
        }
        let s = ruleset.fight(&mut battle, setup, battle_seed(seed, i), &mut NullObserver);
        *d = s.dice_rolled;
        fp = fp.wrapping_add(fingerprint(i, &s));
    }
    fp
}

/// Why the speed-up falls short of the thread count, from each thread's CPU time: the threads
/// slowing each other down (more CPU for the same battles: caches, memory, shared lines), one
/// thread left with more work than another, or the threads waiting for a core the machine's
/// other work holds (wall time beyond the busiest thread's CPU time). Nothing where the system
/// reports no thread CPU time.
fn print_cpu_scaling(one_cpu: Duration, cpus: &[Duration], wall: Duration) -> Result<()> {
    let busiest = cpus.iter().max().copied().unwrap_or_default();
    let sum: Duration = cpus.iter().sum();
    if one_cpu.is_zero() || busiest.is_zero() {
        return Ok(());
    }
    let mean = sum.as_secs_f64() / cpus.len() as f64;
    say!(
        "  thread CPU time   {:>10.3} of one thread's for the same battles; busiest thread {:.3} of the mean; {:.3} of the wall time on a core; speed-up in CPU time {:.2}",
        sum.as_secs_f64() / one_cpu.as_secs_f64(),
        busiest.as_secs_f64() / mean,
        busiest.as_secs_f64() / wall.as_secs_f64(),
        one_cpu.as_secs_f64() / busiest.as_secs_f64()
    );
    Ok(())
}

/// An interrupted bench has measured only part of its battles: it stops, and says so.
pub(super) fn interrupted() -> Result<()> {
    match runner::stop_requested() {
        true => Err(Error::Interrupted(
            "stopped: an interrupted bench measures nothing".into(),
        )),
        false => Ok(()),
    }
}

fn per_battle(t: Duration, n: u64) -> f64 {
    t.as_secs_f64() * 1e9 / n as f64
}

pub fn run(args: Args) -> Result<()> {
    // Ctrl-C, SIGTERM or SIGHUP ends the bench at the next battle, with a word (exit 130).
    runner::ctrl_c_flag();
    if args.scale.scale {
        return super::bench_scale::run(&args.scale, args.seed, args.ruleset.as_deref());
    }
    if args.battles == 0 {
        return Err(Error::Usage("--battles 0: nothing to measure".into()));
    }
    let threads = super::threads(args.threads)?;
    let name = args
        .scenario
        .as_deref()
        .unwrap_or(super::run::DEFAULT_SCENARIO);
    let scenario = Scenario::open(name, &args.set)?;
    let setup = scenario.setup()?;
    let ruleset =
        crate::rules::check_ruleset(super::run::ruleset_name(&scenario, args.ruleset.as_deref()))?;
    scenario.check_overrides_read(&[ruleset])?;
    say!(
        "ecw-sim bench {name} ({ruleset}): {} battles of seed {}, {} units; {threads} threads for the parallel run",
        args.battles,
        args.seed,
        setup.units.len()
    );
    let bench = Bench {
        setup: &setup,
        battles: args.battles,
        seed: args.seed,
        threads,
    };
    crate::rules::with_ruleset(ruleset, bench)?
}

/// The measurements, ready for the ruleset they are made under.
struct Bench<'a> {
    setup: &'a BattleSetup,
    battles: u64,
    seed: u64,
    threads: usize,
}

impl WithRuleset for Bench<'_> {
    type Output = Result<()>;

    fn with<R: Ruleset>(self, ruleset: &R) -> Result<()> {
        measure(ruleset, self.setup, self.battles, self.seed, self.threads)
    }
}

fn measure<R: Ruleset>(
    ruleset: &R,
    setup: &BattleSetup,
    n: u64,
    seed: u64,
    threads: usize,
) -> Result<()> {
    // Warm-up: caches, branch predictors and the CPU's clock.
    let mut scratch = vec![0u64; n.min(200) as usize];
    fight_range(
        ruleset,
        setup,
        seed.wrapping_add(1),
        0..scratch.len() as u64,
        &mut scratch,
    );

    // One thread.
    let mut dice = vec![0u64; n as usize];
    let (t, c) = (Instant::now(), thread_cpu());
    let fp_one = fight_range(ruleset, setup, seed, 0..n, &mut dice);
    let (one, one_cpu) = (t.elapsed(), thread_cpu().saturating_sub(c));
    interrupted()?;
    let total_dice: u64 = dice.iter().sum();
    let floor = dice_floor_time(ruleset, setup, seed, &dice);
    let collected = collected_time(ruleset, setup, seed, n);
    interrupted()?;
    let (parts, all) = parallel(ruleset, setup, seed, n, threads)?;
    interrupted()?;
    let fp_all = parts.iter().fold(0u64, |a, p| a.wrapping_add(p.0));
    let dice_all: u64 = parts.iter().map(|p| p.1).sum();
    let same = fp_all == fp_one && dice_all == total_dice;

    let ns = per_battle(one, n);
    say!(
        "  one thread        {:>10.0} battles/s  {:>10.0} ns per battle",
        1e9 / ns,
        ns
    );
    print_floor(
        ns,
        total_dice as f64 / n as f64,
        floor.map(|f| per_battle(f, n)),
    )?;
    say!(
        "  with collector    {:>10.0} battles/s  {:>10.0} ns per battle (statistics collector listening)",
        n as f64 / collected.as_secs_f64(),
        per_battle(collected, n)
    );
    say!(
        "  {threads} threads       {:>10.0} battles/s  {:>10.0} per thread; speed-up {:.2} over one thread (ideal {threads}){}",
        n as f64 / all.as_secs_f64(),
        n as f64 / all.as_secs_f64() / threads as f64,
        one.as_secs_f64() / all.as_secs_f64(),
        if same {
            "; the same battles"
        } else {
            "; DIFFERENT battles: a bug"
        }
    );
    let cpus: Vec<Duration> = parts.iter().map(|p| p.2).collect();
    print_cpu_scaling(one_cpu, &cpus, all)?;
    if let Some(kib) = runner::peak_memory_kib() {
        say!(
            "  peak memory       {:>10.1} MiB (VmHWM of this process)",
            kib as f64 / 1024.0
        );
    }
    if !same {
        return Err(Error::Usage(
            "the parallel run fought different battles from the same seeds".into(),
        ));
    }
    Ok(())
}

/// The dice floor: the time to draw the same dice, battle by battle (`dice`), from the same
/// streams, and nothing else; none when the ruleset names no streams.
fn dice_floor_time<R: Ruleset>(
    ruleset: &R,
    setup: &BattleSetup,
    seed: u64,
    dice: &[u64],
) -> Option<Duration> {
    let battle = ruleset.new_battle(setup);
    ruleset
        .dice_streams(&battle, setup)
        .map(|(first, streams_n)| {
            let mut sd = StreamDice::default();
            let t = Instant::now();
            let mut check = 0u64;
            for (i, &d) in dice.iter().enumerate() {
                check = check.wrapping_add(dice_floor(
                    &mut sd,
                    battle_seed(seed, i as u64),
                    first,
                    streams_n,
                    d,
                ));
            }
            black_box(check);
            t.elapsed()
        })
}

/// One thread with the statistics collector listening (what `run` does, less the files).
fn collected_time<R: Ruleset>(ruleset: &R, setup: &BattleSetup, seed: u64, n: u64) -> Duration {
    let mut battle = ruleset.new_battle(setup);
    let layout = ruleset.layout(setup);
    let mut collector = Collector::new(&layout, false);
    let t = Instant::now();
    for i in (0..n).take_while(|_| !runner::stop_requested()) {
        collector.begin(i, battle_seed(seed, i));
        let s = ruleset.fight(&mut battle, setup, battle_seed(seed, i), &mut collector);
        collector.end(s.dice_rolled);
    }
    let collected = t.elapsed();
    black_box(collector.take());
    collected
}

/// One thread's share of the parallel run: the sum of its battles' fingerprints, their dice,
/// and its CPU time.
type ThreadPart = (u64, u64, Duration);

/// All threads, the same battles, handed out a few at a time: each thread's part, and the
/// wall time.
fn parallel<R: Ruleset>(
    ruleset: &R,
    setup: &BattleSetup,
    seed: u64,
    n: u64,
    threads: usize,
) -> Result<(Vec<ThreadPart>, Duration)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start {threads} threads: {e}")))?;
    let next = AtomicU64::new(0);
    let t = Instant::now();
    let parts = pool.broadcast(|_| {
        let c = thread_cpu();
        let mut battle = ruleset.new_battle(setup);
        let (mut fp, mut d) = (0u64, 0u64);
        loop {
            let a = next.fetch_add(CHUNK, Ordering::Relaxed);
            if a >= n || runner::stop_requested() {
                return (fp, d, thread_cpu().saturating_sub(c));
            }
            for i in a..(a + CHUNK).min(n) {
                let s = ruleset.fight(&mut battle, setup, battle_seed(seed, i), &mut NullObserver);
                fp = fp.wrapping_add(fingerprint(i, &s));
                d += s.dice_rolled;
            }
        }
    });
    Ok((parts, t.elapsed()))
}

/// The dice a battle throws, and the battle's time against the floor's (`floor_ns`, none when
/// there is no floor).
fn print_floor(ns: f64, mean_dice: f64, floor_ns: Option<f64>) -> Result<()> {
    match floor_ns {
        Some(floor_ns) => {
            say!(
                "  dice              {:>10.1} per battle  {:>10.0} ns per battle to draw them alone ({:.2} ns a die)",
                mean_dice,
                floor_ns,
                floor_ns / mean_dice.max(1e-9)
            );
            say!("  battle / floor    {:>10.1}", ns / floor_ns);
        }
        None => say!(
            "  dice              {mean_dice:>10.1} per battle  (the ruleset names no dice streams: no floor)"
        ),
    }
    Ok(())
}

//! Criterion benchmarks of the engine: one Ironsides turn and one whole battle of three
//! scenarios with their own doctrines (under Ironsides and under Black Powder), the dice floor (drawing as many dice as the battle drew,
//! from the same generator), the cost of listening to the events, and the statistics
//! aggregator alone (folding recorded battles into a tally; merging tallies).
//!
//! `cargo bench --bench battle` (about two minutes on two cores); docs/PERFORMANCE-LOG.md has the
//! first pushes' numbers. Short samples: this machine has two cores and other work on it.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main,
};
use ecw_sim::dice::{StreamDice, battle_seed, dice_floor};
use ecw_sim::doctrine::ParamAi;
use ecw_sim::events::{Event, EventLog, NullObserver, Observer};
use ecw_sim::rules::ironsides::battle::{Battle, streams};
use ecw_sim::rules::{BlackPowder, Ironsides, Ruleset};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;
use ecw_sim::stats::{Collector, Tally};

const SCENARIOS: [&str; 3] = ["small_action", "naseby", "marston_moor"];

fn setup(name: &str) -> BattleSetup {
    Scenario::open(name, &[]).unwrap().setup().unwrap()
}

/// A group with short samples (criterion's defaults would take many minutes here).
fn short<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g
}

/// Mean dice rolled per battle over `n` battles of master seed 1.
fn mean_dice(setup: &BattleSetup, n: u64) -> u64 {
    let mut b = Battle::new(setup);
    let total: u64 = (0..n)
        .map(|i| {
            b.fight(setup, battle_seed(1, i), &mut NullObserver)
                .dice_rolled
        })
        .sum();
    total / n
}

/// One whole turn from the state at the start of turn 3 of several seeded battles.
fn turn(c: &mut Criterion) {
    let mut g = short(c, "turn");
    for name in SCENARIOS {
        let setup = setup(name);
        let mut states = Vec::new();
        let mut seed = 0;
        while states.len() < 8 {
            seed += 1;
            let mut b = Battle::new(&setup);
            let mut dice = StreamDice::default();
            dice.reseed(
                battle_seed(1, seed),
                streams::BATTLE,
                Battle::dice_streams(&setup),
            );
            b.reset(&setup, battle_seed(1, seed), &mut NullObserver);
            for _ in 0..2 {
                b.turn += 1;
                b.play_turn(&setup, &mut dice, &mut ParamAi, &mut NullObserver);
            }
            // Battles not yet over at turn 3 (a turn of a finished battle would be no turn).
            if b.outcome.is_none() {
                states.push((b, dice));
            }
        }
        let mut k = 0;
        g.bench_function(
            BenchmarkId::from_parameter(format!("{name} (turn 3)")),
            |bench| {
                bench.iter_batched_ref(
                    || {
                        k = (k + 1) % states.len();
                        states[k].clone()
                    },
                    |(b, dice)| {
                        b.turn += 1;
                        b.play_turn(&setup, dice, &mut ParamAi, &mut NullObserver);
                    },
                    BatchSize::SmallInput,
                )
            },
        );
    }
    g.finish();
}

/// Whole battles of one ruleset, seed after seed, with one reused battle (as a worker thread
/// fights them), through the ruleset boundary as the tools fight them.
fn whole_battles<R: Ruleset>(g: &mut BenchmarkGroup<'_, WallTime>, ruleset: &R) {
    for name in SCENARIOS {
        let setup = setup(name);
        let mut b = ruleset.new_battle(&setup);
        let mut i = 0;
        let id = format!("{name} ({})", ruleset.name());
        g.bench_function(BenchmarkId::from_parameter(id), |bench| {
            bench.iter(|| {
                i += 1;
                black_box(ruleset.fight(&mut b, &setup, battle_seed(1, i), &mut NullObserver))
            })
        });
    }
}

/// Whole battles under each ruleset.
fn battle(c: &mut Criterion) {
    let mut g = short(c, "battle");
    whole_battles(&mut g, &Ironsides);
    whole_battles(&mut g, &BlackPowder::builtin());
    g.finish();
}

/// The dice floor: the time to draw the mean number of dice a battle draws (measured here
/// over 200 battles), from the same generator and streams, with nothing else.
fn dice(c: &mut Criterion) {
    let mut g = short(c, "dice_floor");
    for name in SCENARIOS {
        let setup = setup(name);
        let n = mean_dice(&setup, 200);
        let streams_n = Battle::dice_streams(&setup);
        let mut d = StreamDice::default();
        let mut i = 0;
        g.bench_function(
            BenchmarkId::from_parameter(format!("{name} ({n} dice)")),
            |bench| {
                bench.iter(|| {
                    i += 1;
                    black_box(dice_floor(
                        &mut d,
                        battle_seed(1, i),
                        streams::BATTLE,
                        streams_n,
                        n,
                    ))
                })
            },
        );
    }
    g.finish();
}

/// An observer that listens and does nothing: what delivering the events costs.
struct Listening(u64);

impl Observer for Listening {
    fn event(&mut self, e: &Event) {
        self.0 += black_box(e as *const Event as u64) & 1;
    }
}

/// Events delivered versus not: the `NullObserver` battle above builds no events at all.
fn events(c: &mut Criterion) {
    let mut g = short(c, "events");
    let setup = setup("marston_moor");
    let layout = Ironsides.layout(&setup);
    let mut b = Battle::new(&setup);
    let mut i = 0;
    g.bench_function("marston_moor listening, ignoring", |bench| {
        let mut obs = Listening(0);
        bench.iter(|| {
            i += 1;
            black_box(b.fight(&setup, battle_seed(1, i), &mut obs))
        })
    });
    g.bench_function("marston_moor with the statistics collector", |bench| {
        let mut col = Collector::new(&layout, false);
        bench.iter(|| {
            i += 1;
            col.begin(i, battle_seed(1, i));
            let s = b.fight(&setup, battle_seed(1, i), &mut col);
            col.end(s.dice_rolled);
        })
    });
    g.finish();
}

/// The aggregator alone: recorded battles folded into a tally by the collector, and batch
/// tallies merged.
fn aggregator(c: &mut Criterion) {
    let mut g = short(c, "aggregator");
    let setup = setup("marston_moor");
    let layout = Ironsides.layout(&setup);
    let mut b = Battle::new(&setup);
    let logs: Vec<(EventLog, u64)> = (0..32)
        .map(|i| {
            let mut log = EventLog::default();
            let s = b.fight(&setup, battle_seed(1, i), &mut log);
            (log, s.dice_rolled)
        })
        .collect();
    let events: usize = logs.iter().map(|(l, _)| l.0.len()).sum();
    let mut col = Collector::new(&layout, false);
    let mut k = 0;
    g.bench_function(
        format!(
            "collect one marston_moor battle ({} events)",
            events / logs.len()
        ),
        |bench| {
            bench.iter(|| {
                k = (k + 1) % logs.len();
                let (log, dice) = &logs[k];
                col.begin(k as u64, 0);
                for e in &log.0 {
                    col.event(e);
                }
                col.end(*dice);
            })
        },
    );
    let (batch, _) = col.take();
    let mut total = Tally::new(&layout);
    g.bench_function("merge a marston_moor batch tally", |bench| {
        bench.iter(|| total.merge(black_box(&batch)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, turn, battle, dice, events, aggregator);
criterion_main!(benches);

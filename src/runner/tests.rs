use std::sync::atomic::AtomicU64;

use super::*;
use crate::stats::testing::{fake_battle, layout};

fn plan(battles: u64, threads: usize, shard: Option<Shard>) -> RunPlan {
    RunPlan {
        seed: 42,
        battles,
        shard,
        threads,
        per_battle: true,
    }
}

/// Runs the synthetic battles of a plan; returns the tally and the rows' battle indices.
fn fake_run(plan: &RunPlan, stop: &AtomicBool) -> Result<(Tally, Vec<u64>)> {
    let l = layout();
    let mut rows = Vec::new();
    let out = run(
        plan,
        &l,
        || |seed, c: &mut Collector| fake_battle(seed, c),
        &ProgressBar::hidden(),
        stop,
        &mut |r: &[BattleRow]| {
            rows.extend(r.iter().map(|b| b.index));
            Ok(())
        },
    )?;
    Ok((out.tally, rows))
}

#[test]
fn thread_count_and_sharding_do_not_change_the_counts() {
    let stop = AtomicBool::new(false);
    let n = 2_000;
    let (one, rows) = fake_run(&plan(n, 1, None), &stop).unwrap();
    assert_eq!(one.battles, n);
    assert_eq!(rows, (0..n).collect::<Vec<_>>());
    let (three, rows3) = fake_run(&plan(n, 3, None), &stop).unwrap();
    assert_eq!(three, one);
    assert_eq!(rows3, rows);
    let mut merged = Tally::new(&layout());
    let mut merged_rows = Vec::new();
    for k in 1..=3 {
        let (t, r) = fake_run(&plan(n, 2, Some(Shard { index: k, count: 3 })), &stop).unwrap();
        merged.merge(&t).unwrap();
        merged_rows.extend(r);
    }
    assert_eq!(merged, one);
    assert_eq!(merged_rows, rows);
    // Another seed gives other battles.
    let other = RunPlan {
        seed: 43,
        ..plan(n, 2, None)
    };
    assert_ne!(fake_run(&other, &stop).unwrap().0, one);
}

#[test]
fn battles_use_their_own_seeds() {
    let l = layout();
    let seeds = Mutex::new(Vec::new());
    let p = plan(600, 2, Some(Shard { index: 2, count: 2 }));
    run(
        &p,
        &l,
        || {
            |seed, c: &mut Collector| {
                seeds.lock().unwrap().push(seed);
                fake_battle(seed, c)
            }
        },
        &ProgressBar::hidden(),
        &AtomicBool::new(false),
        &mut |_| Ok(()),
    )
    .unwrap();
    let mut got = seeds.into_inner().unwrap();
    got.sort_unstable();
    let mut want: Vec<u64> = (300..600).map(|i| battle_seed(42, i)).collect();
    want.sort_unstable();
    assert_eq!(got, want);
}

#[test]
fn a_set_stop_flag_stops_between_batches_and_says_how_far_it_got() {
    let stop = AtomicBool::new(true);
    let e = fake_run(&plan(1_000, 2, None), &stop).unwrap_err();
    assert!(matches!(e, Error::Interrupted(_)), "{e}");
    assert!(
        e.to_string().contains("stopped after 0 of 1000 battles"),
        "{e}"
    );

    // Stopped by the fighter itself after its 300th battle: the batches in hand finish.
    let stop = AtomicBool::new(false);
    let fought = AtomicU64::new(0);
    let l = layout();
    let e = run(
        &plan(100_000, 2, None),
        &l,
        || {
            |seed, c: &mut Collector| {
                if fought.fetch_add(1, Ordering::SeqCst) == 300 {
                    stop.store(true, Ordering::SeqCst);
                }
                fake_battle(seed, c)
            }
        },
        &ProgressBar::hidden(),
        &stop,
        &mut |_| Ok(()),
    )
    .unwrap_err();
    let done = fought.load(Ordering::SeqCst);
    assert!(done < 100_000 && done.is_multiple_of(BATCH_SIZE), "{done}");
    assert!(
        e.to_string()
            .contains(&format!("stopped after {done} of 100000 battles")),
        "{e}"
    );
}

#[test]
fn workers_are_reused_not_rebuilt_per_batch() {
    let l = layout();
    let built = AtomicU64::new(0);
    run(
        &plan(5_000, 2, None),
        &l,
        || {
            built.fetch_add(1, Ordering::SeqCst);
            |seed, c: &mut Collector| fake_battle(seed, c)
        },
        &ProgressBar::hidden(),
        &AtomicBool::new(false),
        &mut |_| Ok(()),
    )
    .unwrap();
    // One per thread that ever held a batch at once: never more than the threads.
    assert!((1..=2).contains(&built.load(Ordering::SeqCst)));
}

#[test]
fn bad_plans_are_refused() {
    let stop = AtomicBool::new(false);
    let e = fake_run(&plan(0, 2, None), &stop).unwrap_err().to_string();
    assert!(e.contains("--battles 0"), "{e}");
    let e = fake_run(&plan(10, 0, None), &stop).unwrap_err().to_string();
    assert!(e.contains("--threads 0"), "{e}");
    let e = fake_run(&plan(2, 1, Some(Shard { index: 3, count: 3 })), &stop)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--shard 3/3") && e.contains("2 battles"), "{e}");
}

#[test]
fn batches_cover_the_range_in_order() {
    let p = plan(1_000, 1, Some(Shard { index: 2, count: 3 }));
    let b: Vec<_> = p.batches().collect();
    assert_eq!(b.first().unwrap().start, 333);
    assert_eq!(b.last().unwrap().end, 666);
    assert!(b.windows(2).all(|w| w[0].end == w[1].start));
    assert!(b.iter().all(|r| r.end - r.start <= BATCH_SIZE));
}

#[test]
fn a_panicking_battle_stops_the_run_and_is_named() {
    let l = layout();
    let e = run(
        &plan(5_000, 2, None),
        &l,
        || {
            |seed, c: &mut Collector| {
                if seed == battle_seed(42, 1_234) {
                    panic!("engine bug");
                }
                fake_battle(seed, c)
            }
        },
        &ProgressBar::hidden(),
        &AtomicBool::new(false),
        &mut |_| Ok(()),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("battle 1234 of the run (seed 42"), "{e}");
    assert!(e.contains("panicked: engine bug"), "{e}");
}

//! Fighting battles allocates nothing once the buffers have grown: a counting global allocator
//! shows the allocations per battle do not grow with the number of battles, and neither does
//! the most heap held at once.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ecw_sim::dice::battle_seed;
use ecw_sim::events::NullObserver;
use ecw_sim::rules::ironsides::battle::Battle;
use ecw_sim::scenario::Scenario;

/// Counts this thread's allocations and the heap it holds (other test threads do not disturb
/// the count).
struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn note(bytes: i64, new_block: bool) {
    // `try_with`: the thread's counters may already be gone while it shuts down.
    let _ = ALLOCS.try_with(|a| a.set(a.get() + u64::from(new_block)));
    let _ = LIVE.try_with(|l| {
        let now = l.get() + bytes;
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as i64, true);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as i64, true);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as i64), false);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as i64 - layout.size() as i64, true);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

/// Allocations and peak heap (above the heap held before) while fighting battles `from..to`.
fn fight(
    battle: &mut Battle,
    setup: &ecw_sim::setup::BattleSetup,
    from: u64,
    to: u64,
) -> (u64, i64) {
    let before = allocs();
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let mut dice = 0;
    for i in from..to {
        dice += battle
            .fight(setup, battle_seed(7, i), &mut NullObserver)
            .dice_rolled;
    }
    assert!(dice > 0);
    (allocs() - before, PEAK.with(Cell::get) - base)
}

#[test]
fn battles_allocate_nothing_in_steady_state() {
    for name in ["small_action", "naseby", "marston_moor"] {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut battle = Battle::new(&setup);
        // Warm-up: the reused buffers grow to what these battles need.
        let (warm, _) = fight(&mut battle, &setup, 0, 20);
        let (few, peak_few) = fight(&mut battle, &setup, 20, 30);
        let (many, peak_many) = fight(&mut battle, &setup, 30, 530);
        eprintln!(
            "{name}: {warm} allocations warming up (20 battles), {few} in the next 10, {many} in the next 500; peak heap above the start {peak_few} and {peak_many} bytes"
        );
        // A buffer may still grow now and then (amortised doubling) but the count must not
        // grow with the number of battles: 50 times the battles, not 50 times the allocations.
        assert!(
            many <= few + 8,
            "{name}: {few} allocations in 10 battles but {many} in 500"
        );
        assert!(
            many <= 8,
            "{name}: {many} allocations in 500 battles after warming up"
        );
        // The heap held at once does not grow either (a grown buffer is at most doubled).
        assert!(
            peak_many <= 2 * peak_few.max(4096),
            "{name}: peak heap {peak_few} then {peak_many} bytes"
        );
    }
}

/// A battle too large for the grid keeps its units in cells: those reuse their buffers too.
#[test]
fn large_battles_allocate_nothing_once_warm() {
    let setup = ecw_sim::scenario::generate::generated(600)
        .unwrap()
        .setup()
        .unwrap();
    let mut battle = Battle::new(&setup);
    let (warm, _) = fight(&mut battle, &setup, 0, 5);
    let (few, _) = fight(&mut battle, &setup, 5, 7);
    let (many, _) = fight(&mut battle, &setup, 7, 27);
    eprintln!(
        "generated 600 units: {warm} allocations warming up (5 battles), {few} in the next 2, {many} in the next 20"
    );
    assert!(
        many <= 8,
        "{many} allocations in 20 battles of 600 units after warming up"
    );
}

#[test]
fn black_powder_battles_allocate_nothing_once_warm() {
    use ecw_sim::rules::{BlackPowder, Ruleset};
    let bp = BlackPowder::builtin();
    for name in ["small_action", "marston_moor", "roundway_down", "naseby"] {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut battle = bp.new_battle(&setup);
        let mut run = |from: u64, to: u64| {
            let before = allocs();
            for i in from..to {
                bp.fight(&mut battle, &setup, battle_seed(7, i), &mut NullObserver);
            }
            allocs() - before
        };
        let _warm = run(0, 20);
        let many = run(20, 520);
        assert!(
            many <= 8,
            "{name}: {many} allocations in 500 Black Powder battles"
        );
    }
}

#[test]
fn dickenson_battles_allocate_nothing_once_warm() {
    use ecw_sim::rules::Ruleset;
    use ecw_sim::rules::dickenson::battle::Dickenson;
    let dk = Dickenson::builtin();
    for name in ["small_action", "marston_moor", "naseby"] {
        let setup = Scenario::open(name, &[]).unwrap().setup().unwrap();
        let mut battle = dk.new_battle(&setup);
        let mut run = |from: u64, to: u64| {
            let before = allocs();
            for i in from..to {
                dk.fight(&mut battle, &setup, battle_seed(7, i), &mut NullObserver);
            }
            allocs() - before
        };
        let _warm = run(0, 20);
        let many = run(20, 220);
        assert!(
            many <= 8,
            "{name}: {many} allocations in 200 Dickenson battles"
        );
    }
}

#[test]
fn the_counter_counts() {
    // The test above could pass with a counter that never counts: this one shows it does.
    let before = allocs();
    let v: Vec<u64> = (0..100).collect();
    assert!(allocs() > before, "an allocation was not counted");
    drop(v);
}

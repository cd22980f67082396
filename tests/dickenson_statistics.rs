//! Dickenson's statistics in its own currency (`measures.csv`): a scripted volley's hits,
//! casualties and the figures, officer and standard it killed reach the file for the unit, its
//! command and its side; guns' falls of shot and the chart's falls back and routs agree with the
//! exact tables (Monte Carlo through the engine, within five standard errors); ammunition
//! exhausted and blown up are counted; figures lost by type and morale points lost agree with
//! the engine's own state at the end of whole battles. The replay tells the detail in figures.

mod common;
mod dickenson_common;

use common::cli::run_ok;
use dickenson_common::{battle, setup};
use ecw_sim::army::{FootBalance, GunWeight, HorseKind, Side, UnitKind};
use ecw_sim::dice::{ScriptedDice, SeededDice, battle_seed};
use ecw_sim::events::{Event, Observer, Outcome};
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::DickensonRules;
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson, State};
use ecw_sim::rules::dickenson::gunnery::Calibre;
use ecw_sim::rules::dickenson::statistics::measure;
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;
use ecw_sim::stats::{Collector, Layout, Tally};
use ecw_sim::tables::dickenson::{hit_chance, morale_chances};

const FOOT: UnitKind = UnitKind::Foot(FootBalance::Normal);
const TROOPERS: UnitKind = UnitKind::Horse(HorseKind::Trotters);
const SAKER: UnitKind = UnitKind::Artillery(GunWeight::Medium);
const FALCON: UnitKind = UnitKind::Artillery(GunWeight::VeryLight);

const N: u32 = 20_000;

/// Within 5 standard errors of the exact chance.
fn agrees(p_hat: f64, n: u32, p: f64) -> bool {
    let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
    (p_hat - p).abs() <= 5.0 * sd + 1e-9
}

/// Tallies `battles` "battles", each what `fight` does to a fresh battle with the collector
/// as its observer, closed as a draw.
fn tally(
    s: &BattleSetup,
    battles: u32,
    mut fight: impl FnMut(&mut Battle, &mut Collector),
) -> (Layout, Tally) {
    let layout = Dickenson::builtin().layout(s);
    let mut c = Collector::new(&layout, false);
    for i in 0..battles {
        c.begin(u64::from(i), u64::from(i));
        let mut b = battle(s);
        fight(&mut b, &mut c);
        c.event(&Event::BattleEnded {
            outcome: Outcome::Draw,
            turn: 1,
        });
        c.end(0);
    }
    let (t, _) = c.take();
    (layout, t)
}

/// `measures.csv` as (scope, id, measure) -> (count, n, estimate).
struct Csv(Vec<csv::StringRecord>);

impl Csv {
    fn of(layout: &Layout, t: &Tally) -> Csv {
        let bytes = ecw_sim::report::measures(layout, t).expect("Dickenson declares measures");
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        assert_eq!(r.headers().unwrap(), &ecw_sim::report::HEADER[..]);
        Csv(r.records().map(Result::unwrap).collect())
    }

    fn row(&self, scope: &str, id: &str, measure: &str) -> &csv::StringRecord {
        self.0
            .iter()
            .find(|r| &r[0] == scope && &r[1] == id && &r[4] == measure)
            .unwrap_or_else(|| panic!("no row {scope} {id} {measure}"))
    }

    fn estimate(&self, scope: &str, id: &str, measure: &str) -> f64 {
        self.row(scope, id, measure)[8].parse().unwrap()
    }

    /// The (count, n) of a proportion.
    fn share(&self, scope: &str, id: &str, measure: &str) -> (u64, u64) {
        let r = self.row(scope, id, measure);
        (r[6].parse().unwrap(), r[7].parse().unwrap())
    }
}

/// The worked volley (docs/RULES-DICKENSON.md, e1): 18 musketeers at medium range throw 7
/// hits on troopers, 2 saved; the 5 casualties strike the officer, the standard and 3
/// troopers. Each reaches `measures.csv` for the firer or the victim, their command and side.
#[test]
fn a_scripted_volley_reaches_measures_csv_for_unit_command_and_side() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    let (layout, t) = tally(&s, 1, |b, c| {
        b.regiments[1].facing = 0.0; // facing away: cannot answer
        let mut d = ScriptedDice::new(&[6, 5, 2, 1, 2, 3, 4, 5, 6, 4, 6, 6, 6, 1, 2]);
        b.fire_phase(&s, &mut d, c);
        d.finish();
    });
    let csv = Csv::of(&layout, &t);
    for (scope, id) in [("unit", "0"), ("command", "0"), ("side", "parliament")] {
        assert_eq!(csv.estimate(scope, id, "volleys_fired_mean"), 1.0);
        assert_eq!(csv.estimate(scope, id, "volley_hits_mean"), 7.0);
        assert_eq!(csv.estimate(scope, id, "volley_casualties_mean"), 5.0);
        assert_eq!(csv.estimate(scope, id, "horsemen_lost_mean"), 0.0);
    }
    for (scope, id) in [("unit", "1"), ("command", "1"), ("side", "royalist")] {
        assert_eq!(csv.estimate(scope, id, "horsemen_lost_mean"), 3.0);
        assert_eq!(csv.estimate(scope, id, "officers_lost_mean"), 1.0);
        assert_eq!(csv.estimate(scope, id, "standards_lost_mean"), 1.0);
        assert_eq!(csv.estimate(scope, id, "volleys_fired_mean"), 0.0);
        assert_eq!(csv.share(scope, id, "p_fell_back"), (0, 1));
    }
}

/// A saker 20" from foot 3" wide: `shots_on_target` per shot agrees with the exact table's
/// chance that the hit area falls on it, and every shot falls somewhere.
#[test]
fn guns_shots_on_target_agree_with_the_exact_table() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let mut dice = SeededDice::new(21);
    let (layout, t) = tally(&s, N, |b, c| b.fire_phase(&s, &mut dice, c));
    let csv = Csv::of(&layout, &t);
    assert_eq!(csv.estimate("unit", "0", "gun_shots_mean"), 1.0);
    let falls: f64 = ["on_target", "short", "over", "wide"]
        .iter()
        .map(|f| csv.estimate("unit", "0", &format!("shots_{f}_mean")))
        .sum();
    assert!((falls - 1.0).abs() < 1e-5, "every shot falls once: {falls}");
    let p = hit_chance(&DickensonRules::builtin(), Calibre::Saker, 20.0, 3.0).to_f64();
    let on = csv.estimate("unit", "0", "shots_on_target_mean");
    assert!(agrees(on, N, p), "on target {on} v exact {p}");
    // The figures it killed are the foot's losses.
    let killed = csv.estimate("unit", "0", "gun_casualties_mean");
    let lost = csv.estimate("unit", "1", "musketeers_lost_mean")
        + csv.estimate("unit", "1", "pikemen_lost_mean")
        + csv.estimate("unit", "1", "officers_lost_mean")
        + csv.estimate("unit", "1", "standards_lost_mean");
    assert!(
        killed > 0.0 && (killed - lost).abs() < 1e-5,
        "{killed} v {lost}"
    );
}

/// Foot that lost one point's worth of figures throw on the chart: `p_fell_back` and
/// `p_routed_on_the_chart` agree with the exact chart.
#[test]
fn falls_back_and_routs_agree_with_the_exact_chart() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 40.0),
    ]);
    let mut dice = SeededDice::new(22);
    let (layout, t) = tally(&s, N, |b, c| {
        b.regiments[0].musketeers -= 6;
        b.regiments[0].lost_this_move = 6;
        b.morale_phase(&mut dice, c);
    });
    let csv = Csv::of(&layout, &t);
    let exact = morale_chances(&DickensonRules::builtin(), 0, 1);
    for (measure, p) in [
        ("p_fell_back", exact[2].to_f64()),
        ("p_routed_on_the_chart", exact[3].to_f64()),
    ] {
        let (k, n) = csv.share("unit", "0", measure);
        assert_eq!(n, u64::from(N));
        let got = k as f64 / n as f64;
        assert!(agrees(got, N, p), "{measure}: {got} v exact {p}");
        assert!(p > 0.0);
    }
    // The foot that did not lose figures never throws.
    assert_eq!(csv.share("unit", "1", "p_fell_back"), (0, u64::from(N)));
}

/// A saker's last ball exhausts its ammunition; a shot on a falcon's ammunition blows it up,
/// and the blast's casualties count as the saker's.
#[test]
fn ammunition_exhausted_and_blown_up_are_counted() {
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FOOT, 720, 36.0, 30.0),
    ]);
    let mut dice = SeededDice::new(23);
    let (layout, t) = tally(&s, 10, |b, c| {
        b.regiments[0].balls = 1;
        b.fire_phase(&s, &mut dice, c);
    });
    let csv = Csv::of(&layout, &t);
    assert_eq!(csv.share("unit", "0", "p_ammunition_exhausted"), (10, 10));
    assert_eq!(
        csv.share("side", "parliament", "p_ammunition_exhausted"),
        (10, 10)
    );
    assert_eq!(csv.share("unit", "1", "p_ammunition_exhausted"), (0, 10));

    // The worked example e6: a shot 2" over lands on the falcon's ammunition and its team
    // behind it (horse and driver fall); within the blast the falcon throws on the gun-on-gun
    // table: 3 gunners hit, two fall.
    let s = setup(&[
        (Side::Parliament, SAKER, 0, 36.0, 10.0),
        (Side::Royalist, FALCON, 0, 36.0, 30.0),
    ]);
    let (layout, t) = tally(&s, 1, |b, c| {
        let mut d = ScriptedDice::new(&[3, 5, 4, 1, 1, 3, 4, 1, 2, 1, 1]);
        b.fire_phase(&s, &mut d, c);
        d.finish();
    });
    let csv = Csv::of(&layout, &t);
    assert_eq!(csv.share("unit", "1", "p_ammunition_blown_up"), (1, 1));
    assert_eq!(csv.share("unit", "0", "p_ammunition_blown_up"), (0, 1));
    assert_eq!(csv.estimate("unit", "1", "gunners_lost_mean"), 2.0);
    assert_eq!(csv.estimate("unit", "1", "horses_lost_mean"), 1.0);
    assert_eq!(csv.estimate("unit", "1", "drivers_lost_mean"), 1.0);
    // The saker's casualties: the two gunners and the team's horse and driver.
    assert_eq!(csv.estimate("unit", "0", "gun_casualties_mean"), 4.0);
}

/// Whole battles: each regiment's figures lost by type are what it lacks at the end (unless
/// gone), and its morale points lost are its start less what it has left.
#[test]
fn figures_and_morale_points_lost_match_the_engine_at_the_end() {
    let setup = Scenario::open("small_action", &[])
        .unwrap()
        .setup()
        .unwrap();
    let dk = Dickenson::builtin();
    let layout = dk.layout(&setup);
    let mut b = dk.new_battle(&setup);
    let mut checked = 0;
    for i in 0..20 {
        let mut c = Collector::new(&layout, false);
        c.begin(i, i);
        let summary = dk.fight(&mut b, &setup, battle_seed(5, i), &mut c);
        c.end(summary.dice_rolled);
        let (t, _) = c.take();
        for (r, reg) in b.regiments.iter().enumerate() {
            if reg.waiting {
                continue; // never came on: nothing lost, nothing told
            }
            let own = |k: usize| t.units[r].own[k].sum();
            let points = i128::from(reg.start_points) - i128::from(b.points(r));
            assert_eq!(
                own(measure::MORALE_POINTS_LOST),
                points,
                "battle {i} unit {r}"
            );
            if reg.state != State::Gone {
                let by_type: i128 = (measure::PIKEMEN_LOST..=measure::GUNNERS_LOST)
                    .map(own)
                    .sum();
                let lacks = i128::from(reg.start_figures) - i128::from(reg.figures());
                assert_eq!(by_type, lacks, "battle {i} unit {r}");
                checked += usize::from(lacks > 0);
            }
        }
        // A side's totals are its units' sums.
        for side in Side::BOTH {
            let units: i128 = (0..b.regiments.len())
                .filter(|&r| b.regiments[r].side == side)
                .map(|r| t.units[r].own[measure::MORALE_POINTS_LOST].sum())
                .sum();
            assert_eq!(
                t.sides[side.index()].own[measure::MORALE_POINTS_LOST].sum(),
                units
            );
        }
    }
    assert!(checked > 0, "some regiment lost figures and stayed");
}

/// The replay words Dickenson's volleys, shots, losses and throws in figures (no Ironsides
/// "needs 0 or less"), and its events CSV names each kind.
#[test]
fn the_replay_tells_the_detail_in_figures() {
    let text = run_ok(&["replay", "marston_moor", "--ruleset", "dickenson"]);
    assert!(!text.contains("needs"), "{text}");
    for words in [
        " muskets at ",
        " pistols at ",
        " range",
        "the shot falls ",
        " saved: ",
        "morale: ",
        " points lost = ",
    ] {
        assert!(text.contains(words), "no {words:?} in {text}");
    }
    let csv = run_ok(&[
        "replay",
        "marston_moor",
        "--ruleset",
        "dickenson",
        "--format",
        "csv",
    ]);
    for kind in [
        "dk_volley",
        "dk_gun_shot",
        "dk_losses",
        "dk_morale",
        "dk_points_lost",
    ] {
        assert!(csv.contains(&format!(",{kind},")), "no {kind} in the CSV");
    }
}

/// Melee casualties are credited to the striker: the worked charge of example e7 (impetus, two
/// rounds: the charger loses 2 troopers, the charged 5) reaches `measures.csv` as 5
/// `melee_casualties` for the charger and 2 for the charged, by unit, command and side, beside
/// the figures each lost.
#[test]
fn melee_casualties_are_credited_to_the_striker() {
    let s = setup(&[
        (Side::Parliament, TROOPERS, 240, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 20.0),
    ]);
    let (layout, t) = tally(&s, 1, |b, c| {
        let mut d = ScriptedDice::new(&[]);
        b.charge(0, 1, &mut d, c);
        let mut d = ScriptedDice::new(&[
            4, 5, 6, 1, 2, 3, // impetus
            5, 1, 1, 1, 1, // saves, then rank and file
            3, 4, 6, // first round
            1, 1, 1, 1, // saves and rank and file
            2, 2, 2, 1, 1, 1, // second round
            1, 1, 1, 1, 1, 1,
        ]);
        b.melee_phase(&mut d, c);
        d.finish();
        assert_eq!((b.regiments[0].horsemen, b.regiments[1].horsemen), (10, 7));
    });
    let csv = Csv::of(&layout, &t);
    for (scope, id, dealt, lost) in [
        ("unit", "0", 5.0, 2.0),
        ("command", "0", 5.0, 2.0),
        ("side", "parliament", 5.0, 2.0),
        ("unit", "1", 2.0, 5.0),
        ("side", "royalist", 2.0, 5.0),
    ] {
        assert_eq!(csv.estimate(scope, id, "melee_casualties_mean"), dealt);
        assert_eq!(csv.estimate(scope, id, "horsemen_lost_mean"), lost);
        assert_eq!(csv.estimate(scope, id, "volley_casualties_mean"), 0.0);
    }
}

/// Commanders lost by command and side: the general of example e11 rides with the Royalist
/// troopers when a volley strikes them and is killed (6, then 1); `commanders_lost` counts him
/// to the troopers, their command and side, none to Parliament. Unhorsed (6, then 5) he is
/// `commanders_unhorsed` instead.
#[test]
fn commanders_lost_reach_measures_csv_by_command_and_side() {
    let s = setup(&[
        (Side::Parliament, FOOT, 720, 36.0, 10.0),
        (Side::Royalist, TROOPERS, 240, 36.0, 17.0),
    ]);
    for (last, lost, unhorsed) in [(1, 1.0, 0.0), (5, 0.0, 1.0)] {
        let (layout, t) = tally(&s, 1, |b, c| {
            b.regiments[1].facing = 0.0;
            b.generals[1].with = Some(1);
            let mut d = ScriptedDice::new(&[6, 5, 2, 1, 2, 3, 4, 5, 6, 4, 1, 1, 1, 1, 1, 6, last]);
            b.fire_phase(&s, &mut d, c);
            d.finish();
        });
        let csv = Csv::of(&layout, &t);
        for (scope, id) in [("unit", "1"), ("command", "1"), ("side", "royalist")] {
            assert_eq!(csv.estimate(scope, id, "commanders_lost_mean"), lost);
            assert_eq!(
                csv.estimate(scope, id, "commanders_unhorsed_mean"),
                unhorsed
            );
        }
        for (scope, id) in [("command", "0"), ("side", "parliament")] {
            assert_eq!(csv.estimate(scope, id, "commanders_lost_mean"), 0.0);
            assert_eq!(csv.estimate(scope, id, "commanders_unhorsed_mean"), 0.0);
        }
        // The same general in commanders.csv's tally: lost to the battle or not.
        assert_eq!(t.commanders[1].lost, lost as u64);
    }
}

/// Whole battles (Marston Moor): every melee casualty and every commander lost is counted
/// once, to the striker and to the regiment the general rode with: each side's
/// `melee_casualties` are the melee losses the events give its regiments as the striker, and
/// its `commanders_lost` are its commanders lost in the shared commanders tally.
#[test]
fn melee_credit_and_commanders_lost_agree_with_the_events_in_whole_battles() {
    use ecw_sim::events::EventLog;
    use ecw_sim::rules::dickenson::events::{Detail, Source};
    let setup = Scenario::open("marston_moor", &[])
        .unwrap()
        .setup()
        .unwrap();
    let dk = Dickenson::builtin();
    let layout = dk.layout(&setup);
    let mut b = dk.new_battle(&setup);
    let mut c = Collector::new(&layout, false);
    let mut dealt = [0i128; 2];
    for i in 0..30 {
        let mut obs = (c, EventLog::default());
        obs.0.begin(i, i);
        let summary = dk.fight(&mut b, &setup, battle_seed(9, i), &mut obs);
        obs.0.end(summary.dice_rolled);
        let log;
        (c, log) = obs;
        for e in &log.0 {
            if let Event::Dickenson(Detail::Losses {
                by,
                source: Source::Melee,
                hits,
                saved,
                ..
            }) = *e
            {
                let side = layout.units[usize::from(by)].side;
                dealt[side.index()] += i128::from(hits - saved);
            }
        }
    }
    let (t, _) = c.take();
    let mut any_lost = 0;
    for side in Side::BOTH {
        let s = &t.sides[side.index()];
        assert_eq!(s.own[measure::MELEE_CASUALTIES].sum(), dealt[side.index()]);
        let lost: u64 = (0..layout.commanders.len())
            .filter(|&g| layout.commanders[g].side == side)
            .map(|g| t.commanders[g].lost)
            .sum();
        assert_eq!(s.own[measure::COMMANDERS_LOST].sum(), i128::from(lost));
        any_lost += lost;
    }
    assert!(dealt.iter().all(|&d| d > 0), "both sides strike in melee");
    assert!(any_lost > 0, "some commander falls in 30 battles");
}

//! Black Powder's statistics in its own terms (`measures.csv`): what `run` writes for every
//! unit, command and side agrees with the events of the same battles, counted here by hand,
//! and with the engine's own state at the end of each battle (a brigade broken then was
//! counted broken; a regiment shaken then was counted shaken). A brigade's break is written
//! for commands and sides only, and the run's summary names the brigades most often broken.

mod common;

use std::collections::HashMap;

use common::cli::{run_ok, s, scratch};
use ecw_sim::dice::battle_seed;
use ecw_sim::events::{Event, EventLog};
use ecw_sim::rules::black_powder::command::Band;
use ecw_sim::rules::black_powder::events::{ChargeBy, Detail};
use ecw_sim::rules::black_powder::morale::BreakResult;
use ecw_sim::rules::{BlackPowder, Ruleset};
use ecw_sim::scenario::Scenario;

const BATTLES: u64 = 60;

/// Totals of each measure in one battle, by the unit the events name.
type Counted = HashMap<(usize, &'static str), u64>;

/// The measures one event adds, read from the event's own words.
fn tell(d: &Detail, out: &mut Counted) {
    let mut add = |unit: u16, name: &'static str, n: u64| {
        *out.entry((usize::from(unit), name)).or_default() += n;
    };
    match *d {
        Detail::Order { unit, band, .. } => {
            add(unit, "orders", 1);
            let name = match band {
                Band::Over => "orders_50pct",
                Band::Equal => "orders_100pct",
                Band::Under => "orders_150pct",
            };
            add(unit, name, 1);
        }
        Detail::Initiative { unit } => add(unit, "initiative_moves", 1),
        Detail::Volley {
            unit,
            hits,
            casualties,
            closing,
            ..
        } => {
            add(unit, "volleys_fired", 1);
            add(unit, "closing_volleys", u64::from(closing));
            add(unit, "volley_hits", u64::from(hits));
            add(unit, "volley_casualties", u64::from(casualties));
        }
        Detail::MeleeRound {
            a,
            b,
            a_casualties,
            b_casualties,
            ..
        } => {
            add(a, "melee_casualties", u64::from(a_casualties));
            add(b, "melee_casualties", u64::from(b_casualties));
        }
        Detail::Charge { unit, home, by, .. } => {
            add(unit, "charges", 1);
            add(unit, "charges_home", u64::from(home));
            add(
                unit,
                "initiative_charges",
                u64::from(by == ChargeBy::Initiative),
            );
            add(unit, "sweep_charges", u64::from(by == ChargeBy::Sweep));
        }
        Detail::Shaken { unit } => add(unit, "shaken", 1),
        Detail::Disordered { unit } => add(unit, "disordered", 1),
        Detail::BreakTest { unit, result, .. } => {
            add(unit, "break_tests", 1);
            add(unit, "retired", u64::from(result == BreakResult::Retire));
            add(unit, "broke", u64::from(result == BreakResult::Broken));
        }
        Detail::Hedgehog { unit, formed, .. } => add(unit, "hedgehogs_formed", u64::from(formed)),
        Detail::PikeBlocked { unit, .. } => add(unit, "pike_blocked", 1),
        Detail::CommanderJoined { unit } => add(unit, "commanders_joined", 1),
        Detail::BrigadeBroken { unit, broken, .. } => {
            add(unit, "brigade_broken", u64::from(broken))
        }
        Detail::DisorderCleared { .. } => {}
    }
}

const TOTALS: [&str; 17] = [
    "orders",
    "orders_50pct",
    "orders_100pct",
    "orders_150pct",
    "initiative_moves",
    "volleys_fired",
    "closing_volleys",
    "volley_hits",
    "volley_casualties",
    "melee_casualties",
    "charges",
    "charges_home",
    "initiative_charges",
    "sweep_charges",
    "break_tests",
    "hedgehogs_formed",
    "commanders_joined",
];
const HAPPENINGS: [&str; 5] = ["shaken", "disordered", "retired", "broke", "pike_blocked"];

/// Per battle, the totals of every unit, command and side, keyed by (scope, id, measure).
#[derive(Default)]
struct Expected {
    sums: HashMap<(String, String, String), u64>,
    happened: HashMap<(String, String, String), u64>,
}

#[test]
fn measures_csv_agrees_with_the_events_and_the_engine_of_whole_battles() {
    let dir = scratch("naseby");
    let summary = run_ok(&[
        "run",
        "naseby",
        "--ruleset",
        "black_powder",
        "--battles",
        &BATTLES.to_string(),
        "--out",
        s(&dir),
    ]);
    let bytes = std::fs::read(dir.join("measures.csv")).expect("Black Powder writes measures.csv");
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let row = |scope: &str, id: &str, measure: &str| {
        rows.iter()
            .find(|r| &r[0] == scope && &r[1] == id && &r[4] == measure)
            .unwrap_or_else(|| panic!("no row {scope} {id} {measure}"))
            .clone()
    };

    let setup = Scenario::load_builtin("naseby", &[])
        .and_then(|s| s.setup())
        .unwrap();
    let bp = BlackPowder::builtin();
    let mut battle = bp.new_battle(&setup);
    let mut want = Expected::default();
    let (mut brigades_broken_at_end, mut shaken_at_end) = (0, 0);
    for i in 0..BATTLES {
        let mut log = EventLog::default();
        bp.fight(&mut battle, &setup, battle_seed(1, i), &mut log);
        let mut counted = Counted::new();
        for e in &log.0 {
            if let Event::BlackPowder(d) = e {
                tell(d, &mut counted);
            }
        }
        // Each unit's totals, and their sums by command and side.
        let mut battle_sums: HashMap<(String, String, String), u64> = HashMap::new();
        for (&(u, name), &n) in &counted {
            let unit = &setup.units[u];
            for key in [
                ("unit".to_string(), u.to_string()),
                ("command".to_string(), unit.command.to_string()),
                ("side".to_string(), unit.side.name().to_string()),
            ] {
                *battle_sums
                    .entry((key.0, key.1, name.to_string()))
                    .or_default() += n;
            }
        }
        for (key, n) in battle_sums {
            *want.happened.entry(key.clone()).or_default() += u64::from(n > 0);
            *want.sums.entry(key).or_default() += n;
        }
        // The engine at the end: a brigade broken then, or a regiment shaken, was counted.
        for (b, brigade) in battle.brigades.iter().enumerate() {
            if brigade.broken && brigade.counts {
                let first = usize::from(setup.commands[b].units[0]);
                assert!(
                    counted.get(&(first, "brigade_broken")) > Some(&0),
                    "{i}: {b}"
                );
                brigades_broken_at_end += 1;
            }
        }
        for r in &battle.regiments {
            if r.shaken {
                let n = counted.get(&(usize::from(r.unit), "shaken"));
                assert!(n > Some(&0), "{i}: {}", r.unit);
                shaken_at_end += 1;
            }
        }
    }
    assert!(brigades_broken_at_end > BATTLES / 2 && shaken_at_end > BATTLES);

    let scopes = || {
        let units = (0..setup.units.len()).map(|u| ("unit", u.to_string()));
        let commands = (0..setup.commands.len()).map(|c| ("command", c.to_string()));
        let sides = ["parliament", "royalist"].map(|s| ("side", s.to_string()));
        units.chain(commands).chain(sides)
    };
    let key = |scope: &str, id: &str, m: &str| (scope.to_string(), id.to_string(), m.to_string());
    let mut seen = [0u64; 2];
    for (scope, id) in scopes() {
        for m in TOTALS {
            let sum = want.sums.get(&key(scope, &id, m)).copied().unwrap_or(0);
            let r = row(scope, &id, &format!("{m}_mean"));
            let mean: f64 = r[8].parse().unwrap();
            assert!(
                (mean - sum as f64 / BATTLES as f64).abs() < 1e-6,
                "{scope} {id} {m}: {mean} v {sum}"
            );
            seen[0] += sum;
        }
        for m in HAPPENINGS {
            let n = want.happened.get(&key(scope, &id, m)).copied().unwrap_or(0);
            let r = row(scope, &id, &format!("p_{m}"));
            assert_eq!((&r[6], &r[7]), (&*n.to_string(), &*BATTLES.to_string()));
            seen[1] += n;
        }
        // A brigade's break is about its command: no unit row, a share for commands and sides.
        let broken = rows
            .iter()
            .find(|r| &r[0] == scope && r[1] == id && &r[4] == "p_brigade_broken");
        match (scope, broken) {
            ("unit", None) => {}
            ("unit", Some(_)) => panic!("unit {id} has a brigade's break"),
            (_, Some(r)) => {
                let n = want.happened.get(&key(scope, &id, "brigade_broken"));
                assert_eq!(&r[6], &*n.copied().unwrap_or(0).to_string(), "{scope} {id}");
            }
            (_, None) => panic!("{scope} {id} has no p_brigade_broken"),
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0);
    // Okey's dragoons, half of Parliament's brigades at Naseby with Ireton's horse, break in
    // most battles (docs/RULESETS.md, "Naseby under Black Powder").
    let okey = (0..setup.commands.len() as u16)
        .find(|&c| setup.command_name(c).contains("Okey"))
        .unwrap();
    let r = row("command", &okey.to_string(), "p_brigade_broken");
    let p: f64 = r[8].parse().unwrap();
    assert!(p > 0.6, "Okey's dragoons broken in {p} of battles");
    // The summary names the three brigades most often broken, with the file's shares.
    let mut broken: Vec<(u64, usize, &csv::StringRecord)> = rows
        .iter()
        .filter(|r| &r[0] == "command" && &r[4] == "p_brigade_broken")
        .map(|r| (r[6].parse().unwrap(), r[1].parse().unwrap(), r))
        .collect();
    broken.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let top: Vec<String> = broken[..3]
        .iter()
        .map(|(n, _, r)| {
            let share = 100.0 * *n as f64 / BATTLES as f64;
            format!("{} ({}) {share:.1}%", &r[2], &r[3])
        })
        .collect();
    let line = format!("  Most often brigade broken: {}", top.join("; "));
    assert!(summary.lines().any(|l| l == line), "{line}\n{summary}");
}

//! The Dickenson exact tables, cross-checked by Monte Carlo: seeded dice through the same rule
//! functions a battle calls, and the chained charge table through the battle engine itself;
//! each exact chance must hold within five standard errors of the sampled share.

mod common;
mod dickenson_common;

use common::cli::{refused, run_ok};
use ecw_sim::army::{Side, UnitKind};
use ecw_sim::dice::{DiceSource, SeededDice};
use ecw_sim::events::{Event, EventLog, NullObserver};
use ecw_sim::rules::dickenson::DickensonRules;
use ecw_sim::rules::dickenson::battle::regiment::{Formation, Gait};
use ecw_sim::rules::dickenson::battle::{Battle, State};
use ecw_sim::rules::dickenson::events::Detail;
use ecw_sim::rules::dickenson::figures::{Figure, after_saves};
use ecw_sim::rules::dickenson::gunnery::{self, Calibre, Target};
use ecw_sim::rules::dickenson::melee;
use ecw_sim::rules::dickenson::morale::{self, MoraleResult};
use ecw_sim::rules::dickenson::volley::{self, Arm, Band};
use ecw_sim::tables::chained::dickenson as chain;
use ecw_sim::tables::dickenson::{
    TARGET_DEPTH, first_adds, hit_chance, impetus_chance, landing_dist, melee_dist, morale_chances,
    single_shot_chance, volley_dist,
};

const N: u32 = 20_000;

/// Within 5 standard errors of the exact chance. A chance expected less than once in `n` may
/// still be seen once (its 5 s.e. are less than one count: lobsters on a gun rout once in 20,000
/// at a chance of 1.4 in a million, and twice in a million, 1.4 expected); a chance of none,
/// never.
fn agrees(hits: u32, n: u32, p: f64) -> bool {
    // A chance summed in floating point may stray past 1 in its last bits.
    let p = p.clamp(0.0, 1.0);
    let n = f64::from(n);
    let once = p > 0.0 && p * n < 1.0 && hits <= 1;
    let sd = (p * (1.0 - p) / n).sqrt();
    once || (f64::from(hits) / n - p).abs() <= 5.0 * sd + 1e-9
}

/// Samples `f` N times and checks the share of each outcome against `exact`.
fn check<T: PartialEq + std::fmt::Debug>(
    seed: u64,
    exact: &[(T, f64)],
    mut f: impl FnMut(&mut SeededDice) -> T,
) {
    let mut dice = SeededDice::new(seed);
    let mut counts = vec![0u32; exact.len()];
    for _ in 0..N {
        let out = f(&mut dice);
        let k = exact
            .iter()
            .position(|(t, _)| *t == out)
            .unwrap_or_else(|| panic!("outcome {out:?} has no exact chance"));
        counts[k] += 1;
    }
    for ((t, p), c) in exact.iter().zip(&counts) {
        assert!(agrees(*c, N, *p), "{t:?}: {c} of {N} v exact {p}");
    }
}

#[test]
fn volleys_by_monte_carlo() {
    let r = DickensonRules::builtin();
    for (arm, band, men) in [
        (Arm::Musket, Band::Short, 14),
        (Arm::Musket, Band::Long, 18),
        (Arm::Pistol, Band::Short, 9),
        (Arm::Musketoon, Band::Medium, 4),
    ] {
        let exact: Vec<(u32, f64)> = volley_dist(&r, arm, band, men)
            .into_iter()
            .enumerate()
            .map(|(k, p)| (k as u32, p.to_f64()))
            .collect();
        check(men.into(), &exact, |d| volley::fire(d, arm, band, men, &r));
    }
}

#[test]
fn single_shots_and_impetus_by_monte_carlo() {
    let r = DickensonRules::builtin();
    let p = single_shot_chance(&r, Arm::Musket, Band::Medium, false).to_f64();
    check(3, &[(true, p), (false, 1.0 - p)], |d| {
        volley::single_shot_hits(d.d6(), Arm::Musket, Band::Medium, false, &r)
    });
    for attacker in [Figure::Lobster, Figure::Dragoon] {
        let (_, after) = impetus_chance(&r, attacker, Figure::Trooper);
        let p = after.to_f64();
        check(4, &[(1u32, p), (0, 1.0 - p)], |d| {
            let kills = melee::impetus(d, attacker, 1, &r);
            after_saves(d, Figure::Trooper, kills, &r)
        });
    }
}

#[test]
fn melee_points_by_monte_carlo_through_a_round() {
    let r = DickensonRules::builtin();
    // 12 pikemen (18 points, three dice) in the first round: casualty points against musketeers
    // (one point a figure, so figures hit plus the remainder are the points).
    let exact: Vec<(f64, f64)> = melee_dist(&r, 3, true)
        .into_iter()
        .map(|(v, p)| (v, p.to_f64()))
        .collect();
    check(5, &exact, |d| {
        let (figs, rest) = melee::round(d, Figure::Pikeman, 12, true, Figure::Musketeer, 0.0, &r);
        f64::from(figs) + rest
    });
}

#[test]
fn fall_of_shot_and_hit_areas_by_monte_carlo() {
    let r = DickensonRules::builtin();
    let g = &r.fall_of_shot.wind_gauge;
    let exact: Vec<((f64, i8), f64)> = landing_dist(&r, 24.0)
        .into_iter()
        .map(|(t, p)| (t, p.to_f64()))
        .collect();
    check(6, &exact, |d| {
        // Read back the error and section from where the shot fell.
        let at = gunnery::fall_of_shot(d, 24.0, &r);
        // The tape's slope at the gauge names the section; its length less the estimate is
        // the range error.
        let along_tape = at.along.hypot(at.across);
        let sections = (at.across / at.along * g.distance / g.section).round() as i8;
        ((along_tape - 24.0).round(), sections)
    });
    for (calibre, range, front) in [
        (Calibre::Falcon, 9.0, 2.0),
        (Calibre::Saker, 20.0, 4.0),
        (Calibre::Culverin, 36.0, 6.0),
    ] {
        let p = hit_chance(&r, calibre, range, front).to_f64();
        let area = calibre.gun(&r).hit_area;
        let target = Target {
            distance: range,
            frontage: front,
            depth: TARGET_DEPTH,
        };
        check(7, &[(true, p), (false, 1.0 - p)], |d| {
            gunnery::falls_on(gunnery::fall_of_shot(d, range, &r), area, target)
        });
    }
}

#[test]
fn the_morale_chart_by_monte_carlo() {
    let r = DickensonRules::builtin();
    for (adds, lost) in [(0, 0), (2, 3), (1, 6), (4, 2)] {
        let exact: Vec<(MoraleResult, f64)> = MoraleResult::ALL
            .into_iter()
            .zip(morale_chances(&r, adds, lost))
            .map(|(m, p)| (m, p.to_f64()))
            .collect();
        check(8, &exact, |d| morale::throw(d, first_adds(adds), lost, &r));
    }
}

/// Horse or dragoons.
fn mounted(k: UnitKind) -> bool {
    k.is_horse() || k == UnitKind::Dragoons
}

/// The target in the spec's formation (the battle draws every regiment in line).
fn formed(b: &mut Battle, spec: &chain::Spec) {
    if spec.formation != Formation::Line {
        let rules = b.rules.clone();
        b.regiments[1].form(spec.formation, &rules);
    }
}

/// What one charge of the chain came to in the engine: the table's outcome. Each regiment's
/// fate is its last throw on the chart this move (a target's throw first against horse
/// included). `prepare` sets the charger up beyond what the spec says.
fn engine_end(
    b: &mut Battle,
    spec: &chain::Spec,
    prepare: &dyn Fn(&mut Battle),
    dice: &mut SeededDice,
) -> chain::End {
    b.reset();
    formed(b, spec);
    b.turn = 1;
    b.first = Side::Parliament;
    // Horse cantering, so it charges at the gallop (foot charge at their one pace).
    if b.regiments[0].is_horse() {
        b.regiments[0].gait = Gait::Canter;
    }
    if let Some(n) = spec.pistols_left {
        b.regiments[0].pistols = n;
    }
    prepare(b);
    let mut log = EventLog::default();
    b.charge(0, 1, dice, &mut log);
    let told = |f: &dyn Fn(&Detail) -> bool| {
        log.0
            .iter()
            .any(|e| matches!(e, Event::Dickenson(d) if f(d)))
    };
    let gave_way = told(&|d| {
        matches!(
            d,
            Detail::Morale {
                unit: 1,
                result: MoraleResult::FallBack | MoraleResult::Rout,
                ..
            }
        )
    });
    let threw_badly = told(&|d| {
        matches!(
            d,
            Detail::FormationThrow {
                unit: 0,
                good: false,
                ..
            }
        )
    });
    let breach = told(&|d| {
        matches!(
            d,
            Detail::Volley {
                unit: 0,
                arm: Arm::Pistol,
                ..
            }
        )
    });
    let charge = if b.regiments[0].engaged.contains(1) {
        chain::Charge::Contact
    } else if b.regiments[0].state == State::Gone {
        chain::Charge::Nobody
    } else if gave_way {
        chain::Charge::GaveWay
    } else if threw_badly {
        chain::Charge::TurnedAway
    } else {
        // The pistol breach was fired, or there were no pistols to fire, and the charge did
        // not go in.
        assert!(
            breach || b.regiments[0].pistols == 0,
            "a charge failed for no tabled reason"
        );
        chain::Charge::HeldAtPikes
    };
    b.melee_phase(dice, &mut NullObserver);
    b.morale_phase(dice, &mut log);
    let mut fate = [chain::Fate::Untested; 2];
    for e in &log.0 {
        if let Event::Dickenson(Detail::Morale { unit, result, .. }) = e {
            fate[usize::from(*unit)] = match result {
                MoraleResult::Good => chain::Fate::Good,
                MoraleResult::Stand => chain::Fate::Stand,
                MoraleResult::FallBack => chain::Fate::FallBack,
                MoraleResult::Rout => chain::Fate::Rout,
            };
        }
    }
    // A regiment destroyed after its throw first threw nothing after it.
    for (f, r) in fate.iter_mut().zip(&b.regiments) {
        if r.state == State::Gone {
            *f = chain::Fate::Destroyed;
        }
    }
    chain::End {
        charge,
        won: [b.regiments[0].won_melee, b.regiments[1].won_melee],
        fate,
    }
}

/// The gap the charger starts at: horse from 20" or so (beyond a musket's range, and more
/// than half their gallop); foot from within musket range and more than half their move.
fn start_gap(r: &DickensonRules, spec: &chain::Spec) -> Option<f64> {
    if mounted(spec.attacker) {
        return None;
    }
    let half = r.volley.closing_fire_min_move * r.movement.pikemen.line;
    Some((half + r.movement.pikemen.line) / 2.0)
}

/// The table's charges of one block fought through the engine, N each with their own seed:
/// every column of the table within 5 s.e. of the sampled share.
fn chain_by_monte_carlo(block: impl Fn(&chain::Spec) -> bool) {
    chain_by_monte_carlo_with(block, &|_: &mut Battle| {});
}

/// The same, with the charger set up by `prepare` in the engine (the table's row unchanged).
fn chain_by_monte_carlo_with(block: impl Fn(&chain::Spec) -> bool, prepare: &dyn Fn(&mut Battle)) {
    let r = DickensonRules::builtin();
    for (k, (aid, did, spec)) in chain::specs().into_iter().enumerate() {
        if !block(&spec) {
            continue;
        }
        let exact = chain::values(&chain::follow(&r, &spec));
        let men = |kind: UnitKind| match kind {
            UnitKind::Foot(_) => r.battle.men.foot,
            UnitKind::ForlornHope => r.battle.men.forlorn_hope,
            UnitKind::Dragoons => r.battle.men.dragoons,
            _ => r.battle.men.horse,
        };
        // The two regiments of the chain, head on, the charger 22" behind its target's
        // centre, or moved up to start at the block's gap.
        let place = |y: f64| {
            dickenson_common::setup(&[
                (Side::Parliament, spec.attacker, men(spec.attacker), 36.0, y),
                (
                    Side::Royalist,
                    spec.defender,
                    men(spec.defender),
                    36.0,
                    34.0,
                ),
            ])
        };
        // The gap to the target as formed (a square's front stands forward of its line's).
        let gap_formed = |s: &_| {
            let mut b = dickenson_common::battle(s);
            formed(&mut b, &spec);
            b.gap(0, 1)
        };
        let mut s = place(12.0);
        if let Some(gap) = start_gap(&r, &spec) {
            s = place(12.0 + gap_formed(&s) - gap);
            let moved = gap_formed(&s);
            assert!((moved - gap).abs() < 1e-6, "{aid} on {did}: gap {moved}");
        }
        let mut b = dickenson_common::battle(&s);
        formed(&mut b, &spec);
        assert_eq!(
            [b.regiments[0], b.regiments[1]].map(|g| (g.figures(), g.formation, g.limbered)),
            chain::regiments(&r, &spec).map(|g| (g.figures(), g.formation, g.limbered))
        );
        let mut dice = SeededDice::new(40 + k as u64);
        let mut sampled = chain::Weights::default();
        for _ in 0..N {
            let end = engine_end(&mut b, &spec, prepare, &mut dice);
            sampled.add(end, 1.0 / f64::from(N));
        }
        let seen = chain::values(&sampled);
        for ((name, p), q) in chain::COLUMNS.iter().zip(exact).zip(seen) {
            let hits = (q * f64::from(N)).round() as u32;
            assert!(
                agrees(hits, N, p),
                "{aid} on {did}: {name} exact {p:.4}, engine {q:.4}"
            );
        }
    }
}

/// A target that throws first against horse (a forlorn hope, the shot before the pike), or
/// stands in square.
fn throws_first(s: &chain::Spec) -> bool {
    s.defender == UnitKind::ForlornHope || s.formation != Formation::Line
}

fn gun(k: UnitKind) -> bool {
    matches!(k, UnitKind::Artillery(_))
}

/// Foot of a regiment (pike and shot) in line.
fn foot_in_line(s: &chain::Spec) -> bool {
    matches!(s.defender, UnitKind::Foot(_)) && s.formation == Formation::Line
}

/// Horse and dragoons charging horse and dragoons.
#[test]
fn the_charge_chain_of_horse_on_horse_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| mounted(s.attacker) && mounted(s.defender));
}

/// Horse and dragoons, pistols loaded, charging foot in line (pike two deep).
#[test]
fn the_charge_chain_of_horse_on_foot_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| mounted(s.attacker) && foot_in_line(s) && s.pistols_left.is_none());
}

/// Horse and dragoons with their pistols fired charging foot in line: held at the pikes.
#[test]
fn the_charge_chain_of_horse_without_pistols_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| s.pistols_left.is_some());
}

/// A disordered charger fights as a fresh one: disorder has no effect of its own in the
/// engine (the text gives it none), so the fresh rows hold for it.
#[test]
fn a_disordered_charger_matches_the_fresh_rows_through_the_engine() {
    let rows = [chain::HORSE[0].2, chain::DRAGOONS[0].2];
    chain_by_monte_carlo_with(
        |s| rows.contains(&s.attacker) && s.defender == chain::FOOT[0].2 && foot_in_line(s),
        &|b: &mut Battle| {
            let turn = b.turn;
            b.regiments[0].disordered_until = turn;
            assert!(b.regiments[0].disordered(turn));
        },
    );
}

#[test]
fn the_charge_chain_of_horse_on_targets_that_throw_first_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| mounted(s.attacker) && throws_first(s));
}

/// Horse, dragoons and foot charging sited guns (the gunners throw first against horse).
#[test]
fn the_charge_chain_on_guns_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| gun(s.defender));
}

#[test]
fn the_charge_chain_of_foot_on_horse_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| !mounted(s.attacker) && mounted(s.defender));
}

/// Foot on foot, one test for each kind of foot charging (each a few seconds).
fn foot_charging(kind: usize) -> impl Fn(&chain::Spec) -> bool {
    move |s: &chain::Spec| s.attacker == chain::FOOT[kind].2 && foot_in_line(s)
}

#[test]
fn the_charge_chain_of_foot_on_foot_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(foot_charging(0));
}

#[test]
fn the_charge_chain_of_pike_heavy_foot_on_foot_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(foot_charging(1));
}

#[test]
fn the_charge_chain_of_shot_heavy_foot_on_foot_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(foot_charging(2));
}

/// Foot charging squares (met by the square's face) and a forlorn hope (its fire man by man).
#[test]
fn the_charge_chain_of_foot_on_squares_and_a_forlorn_hope_by_monte_carlo_through_the_engine() {
    chain_by_monte_carlo(|s| !mounted(s.attacker) && throws_first(s));
}

#[test]
fn the_tables_command_prints_the_dickenson_tables() {
    let ids = run_ok(&["tables", "--ruleset", "dickenson", "--list"]);
    assert_eq!(
        ids.lines().collect::<Vec<_>>(),
        ecw_sim::tables::dickenson::TABLE_IDS.to_vec()
    );
    // No adds, nothing lost: good on 8+ of 2D6, 15/36.
    let csv = run_ok(&[
        "tables",
        "--ruleset",
        "dickenson",
        "--table",
        "dk_morale",
        "--format",
        "csv",
    ]);
    assert!(
        csv.starts_with("table,adds,points_lost,result,p,p_exact\n"),
        "{csv}"
    );
    assert!(
        csv.contains("dk_morale,0,0,good,0.4166666667,5/12\n"),
        "{csv}"
    );
    refused(
        &["tables", "--ruleset", "dickenson", "--table", "bp_command"],
        "no Dickenson table `bp_command`",
    );
}

//! The Black Powder exact tables, cross-checked by Monte Carlo through the engine: command rolls
//! through a battle's orders, volleys through its shooting, break tests through its morale.

use std::f64::consts::PI;

use ecw_sim::army::{
    Command, CommandKind, Commander, CommanderRating, FootBalance, HorseKind, Side, Unit, UnitKind,
};
use ecw_sim::battlefield::Ground;
use ecw_sim::dice::SeededDice;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::events::{Event, EventLog, NullObserver};
use ecw_sim::rules::black_powder::BlackPowderRules;
use ecw_sim::rules::black_powder::battle::Battle;
use ecw_sim::rules::black_powder::command::Band;
use ecw_sim::rules::black_powder::events::{ChargeBy, Detail};
use ecw_sim::rules::black_powder::morale::BreakResult;
use ecw_sim::rules::{BlackPowder, Ruleset};
use ecw_sim::setup::{BattleSetup, CommanderSource, Names, RatingSource};
use ecw_sim::tables::black_powder::{band_chances, break_chances, casualties};

/// Parliament foot at (36, 10) facing Royalist trotters at (36, y).
fn setup(horse_y: f64) -> BattleSetup {
    let mut foot = Unit::new(
        0,
        Side::Parliament,
        0,
        UnitKind::Foot(FootBalance::Normal),
        4,
    )
    .at(36.0, 10.0, 0.0);
    foot.men = Some(600);
    let mut horse = Unit::new(
        1,
        Side::Royalist,
        1,
        UnitKind::Horse(HorseKind::Trotters),
        5,
    )
    .at(36.0, horse_y, PI);
    horse.men = Some(400);
    let rating = CommanderRating {
        lp_modifier: 0,
        radius: 12.0,
        rerolls: 0,
        enemy_rerolls: 0,
    };
    let mut commanders = Vec::new();
    let mut commands = Vec::new();
    let mut names = Names::default();
    for side in Side::BOTH {
        let id = side.index() as u16;
        let mut c = Commander::new(id, side, rating);
        c.command = Some(id);
        // 3" behind his one regiment, where he stands each turn.
        let u = if side == Side::Parliament {
            &foot
        } else {
            &horse
        };
        let back = if side == Side::Parliament { -3.0 } else { 3.0 };
        c.pos = ecw_sim::battlefield::Vec2::new(u.pos.x, u.pos.y + back);
        commanders.push(c);
        names.commanders.push(format!("{side}"));
        names.commands.push(format!("{side}"));
        names.units.push(format!("unit {id}"));
        commands.push(Command {
            id,
            side,
            kind: CommandKind::Foot,
            name: id,
            commander: Some(id),
            units: vec![id],
            lps: 0,
            doctrine: 0,
            commissary: false,
        });
    }
    BattleSetup {
        name: "table check".into(),
        rules: std::sync::Arc::new(ecw_sim::rules::ironsides::IronsidesRules::builtin()),
        ruleset_changes: Default::default(),
        ground: Ground::open(72.0, 48.0),
        turn_limit: 12,
        scenario_turn_limit: None,
        break_fraction: 0.5,
        units: vec![foot, horse],
        ratings: vec![RatingSource::Fixed; 2],
        commanders,
        commander_sources: vec![CommanderSource::Fixed; 2],
        commands,
        captain_generals: [None, None],
        names,
        doctrines: vec![DoctrineParams::builtin("rupert").unwrap()],
        cg_doctrine: [0, 0],
        arrivals: Vec::new(),
        reserves: Vec::new(),
    }
}

/// Within 5 standard errors of the exact chance.
fn agrees(hits: u32, n: u32, p: f64) -> bool {
    let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
    (f64::from(hits) / f64::from(n) - p).abs() <= 5.0 * sd + 1e-9
}

const N: u32 = 20_000;

#[test]
fn command_bands_by_monte_carlo_through_the_orders_phase() {
    let s = setup(44.0);
    let mut b: Battle = BlackPowder::builtin().new_battle(&s);
    let mut dice = SeededDice::new(11);
    let mut count = [0u32; 3];
    for _ in 0..N {
        b.reset();
        b.turn = 1;
        let mut log = EventLog::default();
        b.orders_phase(Side::Parliament, &s, &mut dice, &mut log);
        for e in &log.0 {
            if let Event::BlackPowder(Detail::Order { rating, band, .. }) = e {
                assert_eq!(*rating, 8);
                count[Band::ALL.iter().position(|x| x == band).unwrap()] += 1;
            }
        }
    }
    assert_eq!(count.iter().sum::<u32>(), N);
    let exact = band_chances(&BlackPowderRules::builtin(), 8);
    for (c, p) in count.iter().zip(exact) {
        assert!(agrees(*c, N, p.to_f64()), "{count:?} v {exact:?}");
    }
}

#[test]
fn casualties_by_monte_carlo_through_volleys() {
    let rules = BlackPowderRules::builtin();
    // A sleeve 8" from the horse: 3 dice, no modifier once First Fire is spent; saves 4+.
    let s = setup(19.0);
    let mut b: Battle = BlackPowder::builtin().new_battle(&s);
    let mut dice = SeededDice::new(12);
    let mut count = [0u32; 4];
    for _ in 0..N {
        b.reset();
        b.regiments[0].volleyed = true;
        let c = b.volley(0, 3, false, &s, &mut dice, &mut NullObserver);
        count[usize::from(c)] += 1;
    }
    let exact = casualties(&rules, 3, 0, 4, 0);
    for (c, p) in count.iter().zip(&exact) {
        assert!(agrees(*c, N, p.to_f64()), "{count:?} v {exact:?}");
    }
}

#[test]
fn break_tests_by_monte_carlo_through_the_engine() {
    let rules = BlackPowderRules::builtin();
    let s = setup(44.0);
    let mut b: Battle = BlackPowder::builtin().new_battle(&s);
    let mut dice = SeededDice::new(13);
    for penalty in [0u8, 2, 4] {
        let mut count = [0u32; 3];
        for _ in 0..N {
            b.reset();
            // Casualties beyond the stamina of 4 make the penalty.
            b.regiments[0].casualties = 4 + penalty;
            let r = b.break_test(0, 0, &mut dice, &mut NullObserver);
            count[BreakResult::ALL.iter().position(|x| *x == r).unwrap()] += 1;
        }
        let exact = break_chances(&rules, penalty);
        for (c, p) in count.iter().zip(exact) {
            assert!(
                agrees(*c, N, p.to_f64()),
                "penalty {penalty}: {count:?} v {exact:?}"
            );
        }
    }
}

#[test]
fn first_melee_by_monte_carlo_through_a_melee_round() {
    use ecw_sim::rules::black_powder::units::Troop;
    use ecw_sim::tables::black_powder::first_melee;
    let rules = BlackPowderRules::builtin();
    // Horse charging home on the pike block alone (the sleeves stand well away).
    let s = setup(11.0);
    let mut b: Battle = BlackPowder::builtin().new_battle(&s);
    let mut dice = SeededDice::new(14);
    let mut count = [0u32; 3];
    for _ in 0..N {
        b.reset();
        b.elements[0].pos = ecw_sim::battlefield::Vec2::new(0.0, 0.0);
        b.elements[2].pos = ecw_sim::battlefield::Vec2::new(72.0, 0.0);
        b.regiments[0].engaged = Some(1);
        b.regiments[1].engaged = Some(0);
        b.regiments[1].charged = true;
        let mut log = EventLog::default();
        b.fight_round(0, 1, &s, &mut dice, &mut log);
        let Some((pike, horse)) = log.0.iter().find_map(|e| match e {
            Event::BlackPowder(Detail::MeleeRound {
                a_score, b_score, ..
            }) => Some((*a_score, *b_score)),
            _ => None,
        }) else {
            panic!("no melee round");
        };
        count[match horse.cmp(&pike) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }] += 1;
    }
    let (exact, _, _) = first_melee(&rules, Troop::Horse(HorseKind::Trotters), Troop::Pike);
    for (c, p) in count.iter().zip(exact) {
        assert!(agrees(*c, N, p.to_f64()), "{count:?} v {exact:?}");
    }
}

#[test]
fn hedgehog_odds_by_monte_carlo_through_the_engine() {
    use ecw_sim::tables::black_powder::hedgehog_chances;
    let s = setup(44.0);
    let mut b: Battle = BlackPowder::builtin().new_battle(&s);
    let mut dice = SeededDice::new(15);
    let mut formed = 0;
    for _ in 0..N {
        b.reset();
        b.regiments[0].disordered = true;
        b.hedgehog_check(0, &mut dice, &mut NullObserver);
        formed += u32::from(b.regiments[0].hedgehog);
    }
    let p = hedgehog_chances(&BlackPowderRules::builtin())[1];
    assert!(agrees(formed, N, p.to_f64()), "{formed} of {N} v {p}");
}

/// One single-element regiment a side: `attacker` (Parliament) at (36, 10) facing the
/// `defender` (Royalists) whose element is `gap` inches away.
fn duel(attacker: UnitKind, defender: UnitKind, gap: f64) -> BattleSetup {
    let mut s = setup(44.0);
    let depth = BlackPowderRules::builtin().derive.element_depth;
    s.units[0] = Unit::new(0, Side::Parliament, 0, attacker, 4).at(36.0, 10.0, 0.0);
    s.units[1] = Unit::new(1, Side::Royalist, 1, defender, 4).at(36.0, 10.0 + gap + depth, PI);
    s
}

/// Charges through the engine: the charge (closing fire and the charger's test), the first
/// round, the loser's test and the sweeping advance, each battle classified as the chain's ends.
fn chain_by_engine(
    s: &BattleSetup,
    attacker: ecw_sim::tables::chained::black_powder::Fighter,
    defender: ecw_sim::tables::chained::black_powder::Fighter,
    seed: u64,
) -> Vec<ecw_sim::tables::chained::black_powder::End> {
    use ecw_sim::tables::chained::black_powder::End;
    let mut b: Battle = BlackPowder::builtin().new_battle(s);
    let mut dice = SeededDice::new(seed);
    let mut ends = Vec::new();
    for _ in 0..N {
        b.reset();
        b.turn = 1;
        for (r, f) in [(0, attacker), (1, defender)] {
            b.regiments[r].stamina = f.stamina;
            b.regiments[r].casualties = f.casualties;
            b.regiments[r].specials = f.specials;
        }
        let mut log = EventLog::default();
        let home = b.charge(0, (1, ChargeBy::Order), 12.0, s, &mut dice, &mut log);
        if home {
            b.fight_round(0, 1, s, &mut dice, &mut log);
        }
        let tests: Vec<(u16, BreakResult)> = log
            .0
            .iter()
            .filter_map(|e| match e {
                Event::BlackPowder(Detail::BreakTest { unit, result, .. }) => {
                    Some((*unit, *result))
                }
                _ => None,
            })
            .collect();
        if !home {
            assert_eq!(
                tests.len(),
                1,
                "a charge stopped only by its test: {:?}",
                log.0
            );
            assert_ne!(tests[0], (0, BreakResult::Hold));
            ends.push(End::Stopped(tests[0].1));
            continue;
        }
        let (k, sa, sb) = log
            .0
            .iter()
            .enumerate()
            .find_map(|(k, e)| match e {
                Event::BlackPowder(Detail::MeleeRound {
                    a_score, b_score, ..
                }) => Some((k, *a_score, *b_score)),
                _ => None,
            })
            .expect("a melee round");
        if sa == sb {
            ends.push(End::Draw);
            continue;
        }
        let attacker_won = sa > sb;
        let loser = u16::from(attacker_won);
        // The loser's test comes first after the round (a sweep may bring on more).
        let (u, result) = log.0[k..]
            .iter()
            .find_map(|e| match e {
                Event::BlackPowder(Detail::BreakTest { unit, result, .. }) => {
                    Some((*unit, *result))
                }
                _ => None,
            })
            .expect("the loser tests");
        assert_eq!(u, loser, "{:?}", log.0);
        let sweeps = log
            .0
            .iter()
            .any(|e| matches!(e, Event::PursuitStarted { unit, .. } if *unit == 1 - loser));
        ends.push(End::Won {
            attacker: attacker_won,
            loser: result,
            sweeps,
        });
    }
    ends
}

#[test]
fn the_charge_chain_by_monte_carlo_through_the_engine() {
    use ecw_sim::rules::black_powder::tables::SpecialRule;
    use ecw_sim::rules::black_powder::units::Troop;
    use ecw_sim::tables::chained::black_powder::{CHARGE_GAP, End, Fighter, follow};
    let rules = BlackPowderRules::builtin();
    let horse = Troop::Horse(HorseKind::Trotters);
    let fighter = |t, worn: u8, rash: bool| {
        let f = Fighter::standard(t, &rules);
        Fighter {
            casualties: worn,
            specials: if rash {
                f.specials.with(SpecialRule::Rash)
            } else {
                f.specials
            },
            ..f
        }
    };
    let trotters = UnitKind::Horse(HorseKind::Trotters);
    // Worn horse into horse (pistol closing fire, a non-Rash sweep); worn Rash horse into
    // dragoons (musketry, the Rash die); fresh dragoons into horse (the defender sweeps).
    let cases = [
        (
            trotters,
            trotters,
            fighter(horse, 3, false),
            fighter(horse, 0, false),
        ),
        (
            trotters,
            UnitKind::Dragoons,
            fighter(horse, 3, true),
            fighter(Troop::Dragoon, 0, false),
        ),
        (
            UnitKind::Dragoons,
            trotters,
            fighter(Troop::Dragoon, 0, false),
            fighter(horse, 0, false),
        ),
    ];
    for (k, (ak, dk, a, d)) in cases.into_iter().enumerate() {
        let s = duel(ak, dk, CHARGE_GAP);
        // The chain asks the doctrine the engine's regiments fight under.
        let exact = follow(&rules, &a, &d, &s.doctrines[0]);
        let seen = chain_by_engine(&s, a, d, 20 + k as u64);
        let mut ends: Vec<End> = exact.outcomes.iter().map(|(e, _)| *e).collect();
        for e in &seen {
            assert!(
                ends.contains(e) || exact.p(e).is_zero(),
                "case {k}: {e:?} cannot happen"
            );
            if !ends.contains(e) {
                ends.push(*e);
            }
        }
        for e in ends {
            let n = seen.iter().filter(|x| **x == e).count() as u32;
            let p = exact.p(&e).to_f64();
            assert!(agrees(n, N, p), "case {k}: {e:?} {n} of {N} against {p:.4}");
        }
        // The chain has the stages the case means to cross-check.
        assert!(
            seen.iter()
                .any(|e| matches!(e, End::Won { sweeps: true, .. })),
            "case {k}: a sweep"
        );
        if a.casualties > 0 {
            assert!(
                seen.iter().any(|e| matches!(e, End::Stopped(_))),
                "case {k}: closing fire stops some charges"
            );
        }
    }
}

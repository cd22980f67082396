//! The exact probability tables (`ecw-sim tables`): each cross-checked against a Monte Carlo
//! estimate from the engine's own resolution functions rolled with seeded dice, spot-checked
//! against values derived by hand, and the command line checked in every format.
//!
//! Monte Carlo tolerance: an estimate from `n` samples passes when its count `k` is within five
//! standard errors of the exact expectation, plus one count for discreteness:
//! `|k - n p| <= 5 sqrt(n p (1 - p)) + 1`. With a fixed seed the test is deterministic; under the
//! normal approximation a correct table fails a given cell with probability about 6e-7.

use ecw_sim::rules::RuleData;
use std::path::{Path, PathBuf};
use std::process::Command;

use ecw_sim::army::{FootBalance, HorseKind, Side, Unit, UnitKind};
use ecw_sim::dice::{DiceSource, SeededDice};
use ecw_sim::events::{GeneralResult, ReactionResult};
use ecw_sim::rules::ironsides::IronsidesRules;
use ecw_sim::rules::ironsides::dice_rules::{Rerolls, succeeds};
use ecw_sim::rules::ironsides::fire::effective_cv;
use ecw_sim::rules::ironsides::generals::{attached_general_hit, casualty, overrun_hit};
use ecw_sim::rules::ironsides::leadership::{command_lps, roll_generalship, roll_lps};
use ecw_sim::rules::ironsides::melee::{
    Approach, Cover, Role, melee_dice, melee_loser, melee_modifier, roll_melee,
};
use ecw_sim::rules::ironsides::pursuit::halt_test;
use ecw_sim::rules::ironsides::rally::{rally_attempt, rally_out_of_radius};
use ecw_sim::rules::ironsides::reaction::reaction_test;
use ecw_sim::rules::ironsides::tables::BUILTIN;
use ecw_sim::tables::exact::enumerate;
use ecw_sim::tables::{
    self, Cell, Options, Prob, TABLE_IDS, effective_cvs, generals, hit, leadership, melee, pursuit,
    rally, reaction, render,
};

/// Samples per Monte Carlo estimate (per cell of a table).
const N: u64 = 200_000;

fn rules() -> IronsidesRules {
    IronsidesRules::builtin()
}

fn p(num: u128, den: u128) -> Prob {
    Prob::new(num, den)
}

/// Whether `count` successes in `n` samples agree with the exact probability (see the header).
fn agrees(exact: Prob, count: u64, n: u64) -> bool {
    let pr = exact.to_f64();
    let nf = n as f64;
    let tol = 5.0 * (nf * pr * (1.0 - pr)).sqrt() + 1.0;
    (count as f64 - nf * pr).abs() <= tol
}

fn check(label: &str, exact: Prob, count: u64, n: u64) {
    assert!(
        agrees(exact, count, n),
        "{label}: exact {exact} = {:.5}, sampled {count}/{n} = {:.5}",
        exact.to_f64(),
        count as f64 / n as f64
    );
}

/// Samples `f` `n` times and counts each outcome.
fn tally<T: PartialEq + Clone>(n: u64, mut f: impl FnMut() -> T) -> Vec<(T, u64)> {
    let mut out: Vec<(T, u64)> = Vec::new();
    for _ in 0..n {
        let t = f();
        match out.iter_mut().find(|(o, _)| *o == t) {
            Some(e) => e.1 += 1,
            None => out.push((t, 1)),
        }
    }
    out
}

fn count<T: PartialEq>(t: &[(T, u64)], x: &T) -> u64 {
    t.iter().find(|(o, _)| o == x).map(|e| e.1).unwrap_or(0)
}

#[test]
fn the_monte_carlo_check_can_fail() {
    // Reaction at CV 4, pass both: exactly 4/9. The same sample must reject 1/2 and 2/5.
    let r = rules();
    let mut d = SeededDice::new(99);
    let k = (0..N)
        .filter(|_| {
            reaction_test(&r, &mut d, 4, 0, &mut Rerolls::none()).result == ReactionResult::PassBoth
        })
        .count() as u64;
    assert!(agrees(p(4, 9), k, N));
    assert!(!agrees(p(1, 2), k, N));
    assert!(!agrees(p(2, 5), k, N));
}

// ---------------------------------------------------------------- hit

#[test]
fn hit_table_by_hand() {
    let r = rules();
    // CV4, +3: 1+3 = 4 hits, 2+3 = 5 misses: only the natural 1 (the dragoons of the worked example).
    assert_eq!(hit::hit_chance(&r, 4, 3), p(1, 6));
    // CV4, no modifier: 1-4 of 6.
    assert_eq!(hit::hit_chance(&r, 4, 0), p(2, 3));
    // CV7, -3: everything but the natural 6.
    assert_eq!(hit::hit_chance(&r, 7, -3), p(5, 6));
    // CV1, +5: the natural 1 still hits.
    assert_eq!(hit::hit_chance(&r, 1, 5), p(1, 6));
    // Effective CV 8 (CV7 and the Captain-General), +5: 1-3 of 6.
    assert_eq!(hit::hit_chance(&r, 8, 5), p(1, 2));
    // Effective CV 0 (disordered CV2): only the natural 1.
    assert_eq!(hit::hit_chance(&r, 0, -1), p(1, 6));
}

#[test]
fn hit_table_against_monte_carlo() {
    let r = rules();
    let o = Options::default();
    let mut d = SeededDice::new(1);
    for cv in effective_cvs(&r) {
        for m in o.modifier_min..=o.modifier_max {
            let exact = hit::hit_chance(&r, cv as i8, m);
            let k = (0..N).filter(|_| succeeds(&r, d.d6(), m, cv as i8)).count() as u64;
            check(&format!("hit CV{cv} {m:+}"), exact, k, N);
        }
    }
}

// ---------------------------------------------------------------- reaction

#[test]
fn reaction_table_by_hand() {
    let r = rules();
    // CV7, no re-roll: only the pair of sixes routs, 1/36.
    assert_eq!(reaction::distribution(&r, 7, 0, 0).rout, p(1, 36));
    // CV4, no re-roll: each die passes 2/3. Both 4/9; one 2(2/3)(1/3) = 4/9; both fail 1/9, of
    // which the pair of sixes is 1/36, so fail both (not rout) 3/36 = 1/12.
    let d = reaction::distribution(&r, 4, 0, 0);
    assert_eq!(
        (d.pass_both, d.pass_one, d.fail_both, d.rout),
        (p(4, 9), p(4, 9), p(1, 12), p(1, 36))
    );
    // CV3, one re-roll (each die 1/2; the re-roll goes to the first failed die): pass both =
    // P(1st passes) P(2nd passes with the RR) + P(1st fails) P(re-roll passes) P(2nd passes)
    // = 1/2 * 3/4 + 1/2 * 1/2 * 1/2 = 1/2. Rout: the 1st fails (1/2), its re-roll is a 6 (1/6),
    // the 2nd is a 6 (1/6): 1/72.
    let d = reaction::distribution(&r, 3, 0, 1);
    assert_eq!((d.pass_both, d.rout), (p(1, 2), p(1, 72)));
    // General attached at CV7 (-2, one re-roll): only sixes fail; rout needs a 6, a re-rolled 6
    // and a 6: 1/216.
    assert_eq!(reaction::distribution(&r, 7, -2, 1).rout, p(1, 216));
    for cv in 1..=r.limits.cv_max {
        for v in reaction::variants(&r) {
            let d = reaction::distribution(&r, cv, v.modifier, v.rerolls);
            assert_eq!(d.pass_both + d.pass_one + d.fail_both + d.rout, Prob::ONE);
        }
    }
}

#[test]
fn reaction_table_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(2);
    for v in reaction::variants(&r) {
        for cv in 1..=r.limits.cv_max {
            let exact = reaction::distribution(&r, cv, v.modifier, v.rerolls);
            let t = tally(N, || {
                reaction_test(&r, &mut d, cv, v.modifier, &mut Rerolls::new(v.rerolls)).result
            });
            for (id, res, pr) in exact.outcomes() {
                check(
                    &format!("reaction {} CV{cv} {id}", v.id),
                    pr,
                    count(&t, &res),
                    N,
                );
            }
        }
    }
}

// ---------------------------------------------------------------- rally

fn rallying(cv: u8) -> Unit {
    let mut u = Unit::new(
        0,
        Side::Parliament,
        0,
        UnitKind::Foot(FootBalance::Normal),
        7,
    );
    u.cv = cv;
    u.lowest_cv = cv;
    u
}

#[test]
fn rally_table_by_hand() {
    let r = rules();
    assert_eq!(rally::in_radius(&r, 3, 0, 0), p(1, 2));
    // General attached at CV1: die - 2 <= 1, so 1-3.
    assert_eq!(rally::in_radius(&r, 1, -2, 0), p(1, 2));
    // One re-roll at CV1: 1 - (5/6)^2 = 11/36.
    assert_eq!(rally::in_radius(&r, 1, 0, 1), p(11, 36));
    // 2D6 <= 4: (1,1) (1,2) (2,1) (1,3) (2,2) (3,1) = 6/36.
    assert_eq!(rally::out_of_radius(&r, 4), p(1, 6));
    // 2D6 <= 6: 1+2+3+4+5 = 15/36.
    assert_eq!(rally::out_of_radius(&r, 6), p(5, 12));
    assert_eq!(rally::out_of_radius(&r, 1), Prob::ZERO);
}

#[test]
fn rally_table_against_monte_carlo() {
    let r = rules();
    assert_eq!(r.limits.cv_max, 7, "rallying() starts units at CV 7");
    let mut d = SeededDice::new(3);
    for cv in rally::rally_cvs(&r) {
        for (id, _, m) in rally::methods(&r) {
            for rr in [0u8, 1] {
                let k = (0..N)
                    .filter(|_| {
                        rally_attempt(&r, &mut d, &mut rallying(cv), m, &mut Rerolls::new(rr)).1
                    })
                    .count() as u64;
                check(
                    &format!("rally {id} rr{rr} CV{cv}"),
                    rally::in_radius(&r, cv, m, rr),
                    k,
                    N,
                );
            }
        }
        let k = (0..N)
            .filter(|_| rally_out_of_radius(&r, &mut d, &mut rallying(cv)).1)
            .count() as u64;
        check(
            &format!("rally out of radius CV{cv}"),
            rally::out_of_radius(&r, cv),
            k,
            N,
        );
    }
}

// ---------------------------------------------------------------- close-combat hits

#[test]
fn close_combat_hits_by_hand() {
    let r = rules();
    // 4 dice at CV5 all hit: (5/6)^4.
    assert_eq!(melee::hits(&r, 4, 5, 0)[4], p(625, 1296));
    // 8 dice at CV1 all hit: (1/6)^8.
    assert_eq!(melee::hits(&r, 8, 1, 0)[8], p(1, 1_679_616));
    // 2 dice at CV3, none: (1/2)^2.
    assert_eq!(melee::hits(&r, 2, 3, 0)[0], p(1, 4));
    assert_eq!(melee::max_dice(&r), 8);
    for n in 1..=melee::max_dice(&r) {
        for cv in effective_cvs(&r) {
            assert_eq!(
                melee::hits(&r, n, cv as i8, 0).into_iter().sum::<Prob>(),
                Prob::ONE
            );
        }
    }
}

#[test]
fn close_combat_binomial_matches_enumerating_the_engine() {
    // The table uses the binomial in one die's chance; enumerating every roll of roll_melee must
    // give the same numbers (6^n runs each: up to 5 dice here, 6 in release).
    let r = rules();
    let top = if cfg!(debug_assertions) { 5 } else { 6 };
    for n in 1..=top {
        for cv in effective_cvs(&r) {
            for m in [-1i8, 0, 2] {
                assert_eq!(
                    melee::hits(&r, n, cv as i8, m),
                    melee::hits_enumerated(&r, n, cv as i8, m),
                    "{n} dice CV{cv} {m:+}"
                );
            }
        }
    }
}

#[test]
fn close_combat_hits_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(4);
    let n_samples = N;
    for n in 1..=melee::max_dice(&r) {
        for cv in effective_cvs(&r) {
            let exact = melee::hits(&r, n, cv as i8, 0);
            let t = tally(n_samples, || {
                roll_melee(&r, &mut d, n, 0, cv as i8, &mut Rerolls::none())
            });
            for (k, &pk) in exact.iter().enumerate() {
                check(
                    &format!("{n} dice CV{cv} {k} hits"),
                    pk,
                    count(&t, &(k as u8)),
                    n_samples,
                );
            }
        }
    }
}

// ---------------------------------------------------------------- cavalry melee

/// One sampled round: (the loser per `melee_loser`, CV lost by A, CV lost by B).
type Round = (Option<usize>, u8, u8);

#[test]
fn cavalry_melee_by_hand() {
    let r = rules();
    // CV2 against CV2: each rolls 2 dice (capped at CV), each hitting 1/3, so each side's hits are
    // 0, 1, 2 with 4/9, 4/9, 1/9. Draw = (4/9)^2 + (4/9)^2 + (1/9)^2 = 33/81 = 11/27; the rest
    // splits evenly: 8/27 each.
    let m = melee::cavalry_melee(&r, 2, 2);
    assert_eq!((m.dice_a, m.dice_b), (2, 2));
    assert_eq!(
        (m.a_wins, m.b_wins, m.draw),
        (p(8, 27), p(8, 27), p(11, 27))
    );
    assert_eq!(m.lost_a[2], p(1, 9));
    // CV6 rolls 4 dice, CV2 only 2.
    let m = melee::cavalry_melee(&r, 6, 2);
    assert_eq!((m.dice_a, m.dice_b), (4, 2));
    // CV2 can lose at most 2 CV even if hit 4 times: P(lose 2) = P(at least 2 of 4 dice hit at
    // 5/6) = 1 - (1 + 4 * 5) / 1296 = 1275/1296.
    assert_eq!(m.lost_b[2], p(1_275, 1_296));
    assert_eq!(m.lost_b[3], Prob::ZERO);
    for a in 2..=7 {
        for b in 2..=7 {
            let m = melee::cavalry_melee(&r, a, b);
            let n = melee::cavalry_melee(&r, b, a);
            assert_eq!(m.a_wins + m.b_wins + m.draw, Prob::ONE);
            assert_eq!(
                (m.a_wins, m.draw, &m.lost_a),
                (n.b_wins, n.draw, &n.lost_b),
                "symmetry {a} v {b}"
            );
            assert_eq!(m.lost_a.iter().copied().sum::<Prob>(), Prob::ONE);
        }
    }
}

#[test]
fn cavalry_melee_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(5);
    let n_samples = N;
    let approach = Approach::Charging(r.charge.full_speed_distance);
    for a in 2..=r.limits.cv_max {
        for b in 2..=r.limits.cv_max {
            let exact = melee::cavalry_melee(&r, a, b);
            let ua = Unit::new(
                0,
                Side::Parliament,
                0,
                UnitKind::Horse(HorseKind::Trotters),
                a,
            );
            let ub = Unit::new(
                1,
                Side::Royalist,
                0,
                UnitKind::Horse(HorseKind::Gallopers),
                b,
            );
            let roll = |d: &mut SeededDice, me: &Unit, foe: &Unit| {
                let n = melee_dice(&r, me, approach, foe, Role::Attacker, false);
                let m = melee_modifier(&r, me, foe, Cover::None, Role::Attacker);
                roll_melee(&r, d, n, m, effective_cv(&r, me, 0), &mut Rerolls::none())
            };
            let t = tally(n_samples, || {
                let (ha, hb) = (roll(&mut d, &ua, &ub), roll(&mut d, &ub, &ua));
                let (la, lb) = (ua.clone().lose_cv(hb), ub.clone().lose_cv(ha));
                (melee_loser(&r, [la, lb], [la == a, lb == b]), la, lb)
            });
            let sum = |f: &dyn Fn(&Round) -> bool| {
                t.iter().filter(|(o, _)| f(o)).map(|e| e.1).sum::<u64>()
            };
            check(
                &format!("{a} v {b} A wins"),
                exact.a_wins,
                sum(&|o| o.0 == Some(1)),
                n_samples,
            );
            check(
                &format!("{a} v {b} B wins"),
                exact.b_wins,
                sum(&|o| o.0 == Some(0)),
                n_samples,
            );
            check(
                &format!("{a} v {b} draw"),
                exact.draw,
                sum(&|o| o.0.is_none()),
                n_samples,
            );
            for k in 0..exact.lost_a.len() {
                let k8 = k as u8;
                check(
                    &format!("{a} v {b} A loses {k}"),
                    exact.lost_a[k],
                    sum(&|o| o.1 == k8),
                    n_samples,
                );
                check(
                    &format!("{a} v {b} B loses {k}"),
                    exact.lost_b[k],
                    sum(&|o| o.2 == k8),
                    n_samples,
                );
            }
        }
    }
}

// ---------------------------------------------------------------- pursuit

#[test]
fn pursuit_by_hand() {
    let r = rules();
    // Gallopers CV7 halt on 2D6 <= 7 (21/36) but never with a natural 6 (1-6 and 6-1): halt
    // 19/36, so pursue 17/36.
    assert_eq!(
        pursuit::pursue_chance(&r, HorseKind::Gallopers, 7),
        p(17, 36)
    );
    // Gallopers CV2 halt only on double one.
    assert_eq!(
        pursuit::pursue_chance(&r, HorseKind::Gallopers, 2),
        p(35, 36)
    );
    // Trotters CV4 pursue on 5 or 6.
    assert_eq!(pursuit::pursue_chance(&r, HorseKind::Trotters, 4), p(1, 3));
    // Cuirassiers CV6: 1D6 <= 6 always, but a natural 6 fails: pursue 1/6.
    assert_eq!(
        pursuit::pursue_chance(&r, HorseKind::Cuirassiers, 6),
        p(1, 6)
    );
}

#[test]
fn pursuit_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(6);
    for (id, _, kind) in pursuit::KINDS {
        for cv in 1..=r.limits.cv_max {
            let u = Unit::new(0, Side::Royalist, 0, UnitKind::Horse(kind), cv);
            let k = (0..N).filter(|_| !halt_test(&r, &mut d, &u).1).count() as u64;
            check(
                &format!("pursuit {id} CV{cv}"),
                pursuit::pursue_chance(&r, kind, cv),
                k,
                N,
            );
        }
    }
}

// ---------------------------------------------------------------- generals

#[test]
fn generals_by_hand() {
    let r = rules();
    // Goring's unit lost 2 CV: "a 2 in 6 chance".
    assert_eq!(generals::attached_hit(2), p(1, 3));
    assert_eq!(generals::attached_hit(6), Prob::ONE);
    assert_eq!(generals::overrun(&r, true), p(1, 3));
    assert_eq!(generals::overrun(&r, false), p(1, 6));
    let c = generals::casualty_distribution(&r);
    // Horse and rider: with ties rolled again the rider is hit half the time; then one face in six.
    assert_eq!(c.p(&GeneralResult::HorribleDeath), p(1, 12));
    assert_eq!(c.p(&GeneralResult::HorseDies), p(1, 4));
    assert_eq!(c.total(), Prob::ONE);
    // Out of the battle: lost on rider 1-3 (3/12), captured half the time on rider 4, horse 1 and
    // horse 3-5 (5/12 * 1/2 = 5/24): 6/24 + 5/24 = 11/24.
    assert_eq!(generals::out_of_battle_given_hit(&r), p(11, 24));
    assert_eq!(generals::capture_chance(&r), p(1, 2));
}

#[test]
fn casualty_enumeration_does_not_depend_on_its_depth_limit() {
    // The tie loop is cut off at a depth limit; conditioning on the finished runs must be exact,
    // so every limit that finishes some runs gives the same distribution.
    let r = rules();
    let at = |depth| enumerate(depth, |d| casualty(&r, d).result).conditional_on_resolved();
    let base = at(3);
    for depth in [5, 7, 9, 11] {
        let other = at(depth);
        for (res, pr) in &base.outcomes {
            assert_eq!(other.p(res), *pr, "depth {depth} {res:?}");
        }
    }
}

#[test]
fn generals_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(7);
    for k in generals::CV_LOST_SHOWN {
        let c = (0..N).filter(|_| attached_general_hit(&mut d, k).1).count() as u64;
        check(
            &format!("attached hit {k}"),
            generals::attached_hit(k),
            c,
            N,
        );
    }
    for by_horse in [false, true] {
        let c = (0..N).filter(|_| overrun_hit(&r, &mut d, by_horse)).count() as u64;
        check(
            &format!("overrun by horse {by_horse}"),
            generals::overrun(&r, by_horse),
            c,
            N,
        );
    }
    let exact = generals::casualty_distribution(&r);
    let t = tally(N, || casualty(&r, &mut d).result);
    assert_eq!(
        t.len(),
        exact.outcomes.len(),
        "every sampled result is in the table"
    );
    for (res, pr) in &exact.outcomes {
        check(&format!("casualty {res:?}"), *pr, count(&t, res), N);
    }
    let c = (0..N)
        .filter(|_| generals::out_of_battle(&r, &mut d))
        .count() as u64;
    check("out of battle", generals::out_of_battle_given_hit(&r), c, N);
}

// ---------------------------------------------------------------- generalship and LPs

#[test]
fn generalship_by_hand() {
    let r = rules();
    let names: Vec<String> = leadership::skill_groups(&r)
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(
        names,
        [
            "Idiot",
            "Fool",
            "Fair Man",
            "Clever Fellow",
            "Child of Victory"
        ]
    );
    // Fair Man on 3-4.
    assert_eq!(leadership::skill_distribution(&r, 0)[2], p(1, 3));
    // With 1 off: rolls 1 and 2 both read Idiot (a 0 reads the first row); nobody is a Child of
    // Victory.
    let d = leadership::skill_distribution(&r, -1);
    assert_eq!((d[0], d[4]), (p(1, 3), Prob::ZERO));
    assert_eq!(leadership::morale_distribution(&r)[4], p(1, 6));
    // Cromwell, D6+4, capped at 6: 6 on 2-6.
    assert_eq!(leadership::lps_distribution(&r, 4)[6], p(5, 6));
    // An Idiot, D6-2, never below 0: 0 on 1-2.
    assert_eq!(leadership::lps_distribution(&r, -2)[0], p(1, 3));
}

#[test]
fn generalship_against_monte_carlo() {
    let r = rules();
    let mut d = SeededDice::new(8);
    let skills = leadership::skill_groups(&r);
    let morale = leadership::morale_groups(&r);
    for m in [0i8, -1] {
        let exact_s = leadership::skill_distribution(&r, m);
        let exact_m = leadership::morale_distribution(&r);
        let t = tally(N, || roll_generalship(&r, &mut d, m));
        for (g, &pr) in skills.iter().zip(&exact_s) {
            let c = t
                .iter()
                .filter(|(o, _)| (o.lp_modifier, o.radius) == g.key)
                .map(|e| e.1)
                .sum();
            check(&format!("skill {} {m:+}", g.name), pr, c, N);
        }
        for (g, &pr) in morale.iter().zip(&exact_m) {
            let c = t
                .iter()
                .filter(|(o, _)| (o.rerolls, o.enemy_rerolls) == g.key)
                .map(|e| e.1)
                .sum();
            check(&format!("morale {}", g.name), pr, c, N);
        }
    }
    for (m, _) in leadership::lp_modifiers(&r) {
        let exact = leadership::lps_distribution(&r, m);
        let t = tally(N, || command_lps(&r, roll_lps(&mut d, m).1, 0));
        for (k, &pr) in exact.iter().enumerate() {
            check(&format!("LPs D6{m:+} = {k}"), pr, count(&t, &(k as u8)), N);
        }
    }
}

// ---------------------------------------------------------------- the rules drive the tables

#[test]
fn tables_read_the_ruleset_not_constants() {
    let text = BUILTIN
        .replacen(
            "attached_general_die_modifier = -2",
            "attached_general_die_modifier = -1",
            1,
        )
        .replacen("galloper_halt_dice = 2", "galloper_halt_dice = 3", 1);
    assert_ne!(text, BUILTIN);
    let r = IronsidesRules::parse(Path::new("changed.toml"), &text).unwrap();
    // Gallopers on 3D6: 3D6 <= 7 in 1+3+6+10+15 = 35 ways of 216, so pursue 181/216.
    assert_eq!(
        pursuit::pursue_chance(&r, HorseKind::Gallopers, 7),
        p(181, 216)
    );
    let v = reaction::variants(&r);
    assert_eq!(v[2].modifier, -1);
    // Attached at CV2 with -1: each die passes on 1-3 (1/2), one re-roll: pass both = 1/2 (as CV3
    // above).
    assert_eq!(
        reaction::distribution(&r, 2, v[2].modifier, v[2].rerolls).pass_both,
        p(1, 2)
    );
    let t = tables::build(&r, &Options::default(), "reaction").unwrap();
    assert!(
        t.grids[2].caption.contains("-1 on each die"),
        "{}",
        t.grids[2].caption
    );
}

// ---------------------------------------------------------------- the tables as data

#[test]
fn every_table_builds_and_its_csv_is_tidy() {
    let r = rules();
    let all = tables::all(&r, &Options::default());
    assert_eq!(all.iter().map(|t| t.id).collect::<Vec<_>>(), TABLE_IDS);
    for t in &all {
        assert!(!t.tidy.rows.is_empty() && !t.grids.is_empty(), "{}", t.id);
        let csv = render::csv_table(t);
        let mut rd = csv::Reader::from_reader(csv.as_bytes());
        let header = rd.headers().unwrap().clone();
        for h in &header {
            assert!(
                h.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{}: header {h}",
                t.id
            );
        }
        let mut rows = 0;
        for rec in rd.records() {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), header.len());
            assert_eq!(&rec[0], t.id);
            for f in &rec {
                assert!(!f.contains(' '), "{}: field `{f}` has a space", t.id);
            }
            rows += 1;
        }
        assert_eq!(rows, t.tidy.rows.len());
        for row in &t.tidy.rows {
            for c in row {
                if let Cell::P(pr) = c {
                    assert!(*pr <= Prob::ONE, "{}: {pr}", t.id);
                }
            }
        }
    }
}

#[test]
fn exact_tables_sum_to_one() {
    let r = rules();
    let t = tables::build(&r, &Options::default(), "close_combat_hits").unwrap();
    let (dice, cv, pc) = (
        t.tidy.col("dice").unwrap(),
        t.tidy.col("cv").unwrap(),
        t.tidy.col("p").unwrap(),
    );
    let mut sums: Vec<((i64, i64), Prob)> = Vec::new();
    for row in &t.tidy.rows {
        let (Cell::Int(n), Cell::Int(c), Cell::P(pr)) = (&row[dice], &row[cv], &row[pc]) else {
            panic!("cell types")
        };
        match sums.iter_mut().find(|e| e.0 == (*n, *c)) {
            Some(e) => e.1 = e.1 + *pr,
            None => sums.push(((*n, *c), *pr)),
        }
    }
    assert!(sums.iter().all(|e| e.1 == Prob::ONE));
    let t = tables::build(&r, &Options::default(), "general_casualty").unwrap();
    let col = t.tidy.col("p_given_hit").unwrap();
    let total: Prob = t
        .tidy
        .rows
        .iter()
        .map(|row| match &row[col] {
            Cell::P(pr) => *pr,
            _ => Prob::ZERO,
        })
        .sum();
    assert_eq!(total, Prob::ONE);
}

// ---------------------------------------------------------------- the command line

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ecw-sim"))
}

fn run_ok(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ecw-sim-tables-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn cli_prints_each_format() {
    // Not a terminal here, so the default is CSV.
    let csv = run_ok(&["tables", "--table", "hit"]);
    assert!(
        csv.starts_with("table,cv,modifier,p_hit,p_hit_exact\n"),
        "{csv}"
    );
    assert!(csv.contains("\nhit,4,3,0.1666666667,1/6\n"), "{csv}");
    let explicit = run_ok(&["tables", "--format", "csv", "--table", "hit"]);
    assert_eq!(csv, explicit);

    let md = run_ok(&["tables", "--format", "markdown"]);
    for t in tables::all(&rules(), &Options::default()) {
        assert!(md.contains(&format!("## {}\n", t.title)), "{}", t.title);
    }
    assert!(
        md.contains(
            "| 7   | 25/36 (69.4%) | 5/18 (27.8%) |            0 | 1/36 (2.8%) | 35/36 (97.2%) |"
        ),
        "{md}"
    );
    let pct = run_ok(&[
        "tables", "--format", "markdown", "--show", "percent", "--table", "reaction",
    ]);
    assert!(pct.contains("69.4%") && !pct.contains("25/36"));

    let html = run_ok(&["tables", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<style>") && html.trim_end().ends_with("</html>"));
    // The charts' SVG namespace is a name, not a link.
    let outside = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!outside.to_lowercase().contains("http"), "no links out");
    for bad in ["<link", "<img", "src=", "@import", "url("] {
        assert!(
            !html.contains(bad),
            "HTML must be self-contained: found {bad}"
        );
    }
    // One inline script: the charts' switch.
    assert_eq!(html.matches("<script>").count(), 1);
    assert_eq!(html.matches("<section id=").count(), TABLE_IDS.len());
    // Every table has its chart: an "exactly" bar chart per table at least.
    assert!(html.matches("data-m=\"exactly\"").count() >= TABLE_IDS.len());
}

#[test]
fn cli_out_writes_one_file_per_table() {
    let r = rules();
    let dir = temp_dir("csv");
    run_ok(&["tables", "--format", "csv", "--out", dir.to_str().unwrap()]);
    for t in tables::all(&r, &Options::default()) {
        let text = std::fs::read_to_string(dir.join(format!("{}.csv", t.id))).unwrap();
        assert_eq!(text, render::csv_table(&t), "{}", t.id);
    }
    let md = temp_dir("md");
    run_ok(&[
        "tables",
        "--format",
        "markdown",
        "--table",
        "pursuit,hit",
        "--out",
        md.to_str().unwrap(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&md)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["hit.md", "pursuit.md"],
        "only the files asked for, no temporaries left"
    );
    let html = temp_dir("html");
    run_ok(&[
        "tables",
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(html.join("tables.html")).unwrap();
    assert!(page.contains("Cavalry melee: the first round"));
    for d in [dir, md, html] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn cli_reads_another_ruleset_and_refuses_bad_input() {
    let dir = temp_dir("ruleset");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three_dice.toml");
    std::fs::write(
        &file,
        BUILTIN.replacen("galloper_halt_dice = 2", "galloper_halt_dice = 3", 1),
    )
    .unwrap();
    let csv = run_ok(&[
        "tables",
        "--table",
        "pursuit",
        "--ruleset",
        file.to_str().unwrap(),
    ]);
    assert!(csv.contains("gallopers,3,7,0.8379629630,181/216"), "{csv}");

    let list = run_ok(&["tables", "--list"]);
    assert_eq!(list.lines().collect::<Vec<_>>(), TABLE_IDS);

    let many = dir.join("many_dice.toml");
    std::fs::write(
        &many,
        BUILTIN.replacen("galloper_halt_dice = 2", "galloper_halt_dice = 20", 1),
    )
    .unwrap();
    let out = bin()
        .args(["tables", "--ruleset", many.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "an input refused");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("pursuit.galloper_halt_dice") && err.contains("many_dice.toml"),
        "{err}"
    );

    for (args, code) in [
        (vec!["tables", "--table", "nonesuch"], 2),
        (
            vec!["tables", "--min-modifier", "3", "--max-modifier", "1"],
            2,
        ),
        (vec!["tables", "--ruleset", "/nonexistent/ruleset.toml"], 4),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn docs_examples_are_real_output() {
    // Every ```console block of docs/TABLES.md that starts `$ ecw-sim tables ...` must be what
    // that command prints now.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/TABLES.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for block in doc.split("```console\n").skip(1) {
        let body = block.split("\n```").next().unwrap();
        let (cmd, shown) = body.split_once('\n').unwrap();
        let args: Vec<&str> = cmd
            .strip_prefix("$ ecw-sim ")
            .expect("a console block starts with the command")
            .split_whitespace()
            .collect();
        let out = run_ok(&args);
        assert_eq!(out.trim_end_matches('\n'), shown, "docs/TABLES.md: `{cmd}`");
        checked += 1;
    }
    assert!(checked >= 3, "the docs show the output of a few tables");
}

/// How one sampled charge ended: (attacker won, foot broke, beaten foot held, the winner
/// pursued, defender won, draw).
type Charge = (bool, bool, bool, bool, bool, bool);

/// One charge fought die by die in the engine's order, with the engine's rule functions.
fn sampled_chain(
    r: &IronsidesRules,
    d: &mut SeededDice,
    attacker: &Unit,
    defender: &Unit,
    defender_approach: Approach,
) -> Charge {
    let mut u = [attacker.clone(), defender.clone()];
    let mut lost = [0u8; 2];
    let approach = [
        Approach::Charging(r.charge.full_speed_distance),
        defender_approach,
    ];
    let strike = |d: &mut SeededDice, me: &Unit, foe: &Unit, ap: Approach, role: Role| {
        if me.cv == 0 || foe.cv == 0 {
            return 0;
        }
        let n = melee_dice(r, me, ap, foe, role, false);
        let m = melee_modifier(r, me, foe, Cover::None, role);
        roll_melee(r, d, n, m, effective_cv(r, me, 0), &mut Rerolls::none())
    };
    let ha = strike(d, &u[0], &u[1], approach[0], Role::Attacker);
    let hb = strike(d, &u[1], &u[0], approach[1], Role::Defender);
    lost[1] += u[1].lose_cv(ha);
    lost[0] += u[0].lose_cv(hb);
    let mut broke = false;
    for f in 0..2 {
        let e = 1 - f;
        if u[f].cv > 0
            && !u[f].broken
            && ecw_sim::rules::ironsides::melee::foot_breaks(r, &u[f], &u[e], lost[f], lost[e])
        {
            u[f].broken = true;
            broke = true;
            let h = strike(d, &u[e], &u[f], Approach::Standing, Role::Defender);
            lost[f] += u[f].lose_cv(h);
            let h = strike(d, &u[f], &u[e], Approach::Standing, Role::Defender);
            lost[e] += u[e].lose_cv(h);
        }
    }
    let Some(loser) = melee_loser(r, lost, [u[0].cv == 0, u[1].cv == 0]) else {
        return (false, broke, false, false, false, true);
    };
    let winner = 1 - loser;
    let left = u[loser].cv == 0
        || u[loser].is_cavalry()
        || reaction_test(r, d, u[loser].cv, 0, &mut Rerolls::none()).result
            != ReactionResult::PassBoth;
    let mut w = u[winner].clone();
    ecw_sim::rules::ironsides::melee::victory_bonus(r, &mut w);
    let pursued = left && w.is_cavalry() && !halt_test(r, d, &w).1;
    if winner == 0 {
        (true, broke, !left, pursued, false, false)
    } else {
        (false, broke, false, pursued, true, false)
    }
}

fn check_chain(label: &str, exact: &tables::chained::Chain, t: &[(Charge, u64)], n: u64) {
    let sum =
        |f: &dyn Fn(&Charge) -> bool| t.iter().filter(|(o, _)| f(o)).map(|e| e.1).sum::<u64>();
    check(
        &format!("{label} attacker wins"),
        exact.attacker_wins(),
        sum(&|o| o.0),
        n,
    );
    check(
        &format!("{label} foot broke"),
        exact.foot_broke(),
        sum(&|o| o.1),
        n,
    );
    check(
        &format!("{label} beaten foot held"),
        exact.held(),
        sum(&|o| o.2),
        n,
    );
    check(
        &format!("{label} attacker pursues"),
        exact.attacker_pursues(),
        sum(&|o| o.0 && o.3),
        n,
    );
    check(
        &format!("{label} defender wins"),
        exact.defender_wins(),
        sum(&|o| o.4),
        n,
    );
    check(
        &format!("{label} defender pursues"),
        exact.defender_pursues(),
        sum(&|o| o.4 && o.3),
        n,
    );
    check(&format!("{label} draw"), exact.draw(), sum(&|o| o.5), n);
}

#[test]
fn charge_chains_against_monte_carlo() {
    use tables::chained::{foot, foot_chain, horse, horse_chain};
    let r = rules();
    let mut d = SeededDice::new(8);
    let full = Approach::Charging(r.charge.full_speed_distance);
    for (a, ca, b, cb) in [
        (HorseKind::Trotters, 4, HorseKind::Gallopers, 5),
        (HorseKind::Gallopers, 5, HorseKind::Trotters, 4),
        (HorseKind::Cuirassiers, 3, HorseKind::Trotters, 6),
    ] {
        let exact = horse_chain(&r, a, ca, b, cb);
        let (ua, ub) = (horse(a, ca, Side::Parliament), horse(b, cb, Side::Royalist));
        let t = tally(N, || sampled_chain(&r, &mut d, &ua, &ub, full));
        check_chain(&format!("{a:?} {ca} v {b:?} {cb}"), &exact, &t, N);
    }
    for (h, ch, f, cf) in [
        (HorseKind::Gallopers, 5, FootBalance::Normal, 4),
        (HorseKind::Trotters, 3, FootBalance::PikeHeavy, 3),
        (HorseKind::Cuirassiers, 6, FootBalance::ShotHeavy, 2),
    ] {
        let exact = foot_chain(&r, h, ch, f, cf);
        // Foot of CV 3 or more can break before horse (foot of 2 is destroyed first).
        assert_eq!(
            exact.foot_broke().is_zero(),
            cf < 3,
            "{h:?} {ch} v {f:?} {cf}"
        );
        let (uh, uf) = (horse(h, ch, Side::Parliament), foot(f, cf));
        let t = tally(N, || {
            sampled_chain(&r, &mut d, &uh, &uf, Approach::Standing)
        });
        check_chain(&format!("{h:?} {ch} v {f:?} {cf}"), &exact, &t, N);
    }
}

#[test]
fn charge_chains_by_hand() {
    use tables::chained::horse_chain;
    let r = rules();
    // Trotters CV 2 against CV 2: a winner that lost nothing stays at 2 (the bonus stops at the
    // start), one that lost 1 is back at 2: it halts on 1D6 <= 2, so pursues 2/3 of wins.
    let c = horse_chain(&r, HorseKind::Trotters, 2, HorseKind::Trotters, 2);
    assert_eq!(c.pursue_given_win(), Some(p(2, 3)));
    // Every battle ends one way: the outcomes add up to one.
    assert_eq!(c.attacker_wins() + c.defender_wins() + c.draw(), Prob::ONE);
    assert_eq!(
        c.attacker_pursues() + c.attacker_halts() + c.held(),
        c.attacker_wins()
    );
    // Trotters CV 5 that win may have lost up to 3 CV (B rolls 4 dice; then 3 after the bonus):
    // they pursue more often than the pursuit table's 1/6 at their starting CV says, and never
    // more often than at CV 3.
    let c = horse_chain(&r, HorseKind::Trotters, 5, HorseKind::Trotters, 5);
    let given = c.pursue_given_win().unwrap();
    assert!(
        given > pursuit::pursue_chance(&r, HorseKind::Trotters, 5),
        "{given}"
    );
    assert!(
        given < pursuit::pursue_chance(&r, HorseKind::Trotters, 3),
        "{given}"
    );
}

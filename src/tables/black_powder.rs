//! Black Powder's exact tables: command bands by modified rating, casualties after saves by
//! dice and modifiers, and break-test results by penalty, each enumerated through the ruleset's
//! own rule functions.

use super::exact::{Prob, binomial, enumerate};
use super::{Cell, Grid, MAX_DICE, Table, Tidy, key, prob, signed};
use crate::army::{GunWeight, HorseKind};
use crate::dice::DiceSource;
use crate::rules::black_powder::BlackPowderRules;
use crate::rules::black_powder::command::{self, Band};
use crate::rules::black_powder::melee::{self, Round, Standing};
use crate::rules::black_powder::morale::SaveSituation;
use crate::rules::black_powder::morale::{self, BreakResult};
use crate::rules::black_powder::shooting;
use crate::rules::black_powder::units::{Troop, stats};

/// The Black Powder tables, in the order they are printed.
pub const TABLE_IDS: [&str; 6] = [
    "bp_command",
    "bp_casualties",
    "bp_first_melee",
    "bp_break_test",
    "bp_hedgehog",
    "bp_charge_chain",
];

/// Modified command ratings shown.
pub const RATINGS: std::ops::RangeInclusive<i16> = 2..=12;
/// Most shooting or melee dice shown.
pub const MAX_SHOOTING_DICE: u32 = 12;
/// Modifiers shown in the casualty table (to hit and to save).
pub const MODIFIERS: std::ops::RangeInclusive<i8> = -2..=2;
/// Morale values shown (4+ for most troops, 3+ for guns).
pub const MORALE: [u8; 2] = [4, 3];
/// Largest break-test penalty shown (excess casualties plus the margin of a lost melee).
pub const MAX_PENALTY: u8 = 8;

/// The chance of each band for a modified rating, by enumerating the command dice.
pub fn band_chances(rules: &BlackPowderRules, rating: i16) -> [Prob; 3] {
    let d = enumerate(MAX_DICE, |dice| {
        let roll = dice.sum_d6(u32::from(rules.command.dice)) as i16;
        command::band(roll, rating, rules)
    })
    .exact();
    Band::ALL.map(|b| d.p(&b))
}

/// P(one shooting die causes a casualty): it hits (4+ with `hit_mod`) and the save fails.
pub fn casualty_chance(rules: &BlackPowderRules, hit_mod: i8, morale: u8, save_mod: i8) -> Prob {
    casualty_chance_on(rules, rules.shooting.hit_on, hit_mod, morale, save_mod)
}

/// P(one die hitting on `hit_on` with `hit_mod` causes a casualty against `morale`.
pub fn casualty_chance_on(
    rules: &BlackPowderRules,
    hit_on: u8,
    hit_mod: i8,
    morale: u8,
    save_mod: i8,
) -> Prob {
    let hit = enumerate(MAX_DICE, |d| shooting::hits(d.d6(), hit_mod, hit_on, rules))
        .exact()
        .p(&true);
    let save = enumerate(MAX_DICE, |d| morale::saves(d.d6(), morale, save_mod, rules))
        .exact()
        .p(&true);
    hit * save.complement()
}

/// The distribution of casualties from `n` dice (index k: exactly k).
pub fn casualties(
    rules: &BlackPowderRules,
    n: u32,
    hit_mod: i8,
    morale: u8,
    save_mod: i8,
) -> Vec<Prob> {
    binomial(n, casualty_chance(rules, hit_mod, morale, save_mod))
}

/// The chance of each break result for a penalty, by enumerating the break-test dice.
pub fn break_chances(rules: &BlackPowderRules, penalty: u8) -> [Prob; 3] {
    let d = enumerate(MAX_DICE, |dice| {
        let roll = dice.sum_d6(u32::from(rules.break_test.dice)) as u8;
        morale::break_result(roll, penalty, 0, rules)
    })
    .exact();
    BreakResult::ALL.map(|r| d.p(&r))
}

fn command_table(rules: &BlackPowderRules) -> Table {
    let mut tidy = Tidy::new(vec![key("rating"), key("band"), prob("p")]);
    let mut grid = Grid::new(
        "Share of a standard move by modified command rating",
        vec!["Rating".into(), "50%".into(), "100%".into(), "150%".into()],
    );
    for rating in RATINGS {
        let p = band_chances(rules, rating);
        let mut row = vec![Cell::int(rating)];
        for (b, p) in Band::ALL.iter().zip(p) {
            tidy.push(vec![Cell::int(rating), Cell::text(b.name()), Cell::P(p)]);
            row.push(Cell::P(p));
        }
        grid.push(row);
    }
    Table {
        id: "bp_command",
        title: "Command rolls".into(),
        about: vec![format!(
            "Roll {}D6 against the commander's rating after modifiers (-1 per full 8\" to the unit, -1 enemy within 8\", +1 column, +2 column on a road, +1 Reliable). \
             Above the rating: 50% of a standard move; equal or one below: 100%; two or more below: 150%. Within 12\" of the enemy there is no roll: 100%.",
            rules.command.dice
        )],
        tidy,
        grids: vec![grid],
    }
}

/// Expected casualties as text with two decimals.
fn mean(dist: &[Prob]) -> String {
    let m: f64 = dist
        .iter()
        .enumerate()
        .map(|(k, p)| k as f64 * p.to_f64())
        .sum();
    format!("{m:.2}")
}

fn casualty_table(rules: &BlackPowderRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("dice"),
        key("hit_modifier"),
        key("morale"),
        key("save_modifier"),
        key("casualties"),
        prob("p"),
    ]);
    let mods: Vec<i8> = MODIFIERS.collect();
    let header = |first: &str| {
        let mut h = vec![first.to_string()];
        h.extend(mods.iter().map(|&m| signed(m)));
        h
    };
    let mut by_hit = Grid::new(
        "Expected casualties against morale 4+ (no save modifier): dice (rows) by to-hit modifier (columns)",
        header("Dice"),
    );
    let mut by_save = Grid::new(
        "Expected casualties against morale 4+ (no to-hit modifier): dice (rows) by save modifier (columns)",
        header("Dice"),
    );
    for n in 1..=MAX_SHOOTING_DICE {
        let (mut row_h, mut row_s) = (vec![Cell::int(n)], vec![Cell::int(n)]);
        for &m in &mods {
            row_h.push(Cell::text(mean(&casualties(rules, n, m, 4, 0))));
            row_s.push(Cell::text(mean(&casualties(rules, n, 0, 4, m))));
        }
        by_hit.push(row_h);
        by_save.push(row_s);
        for morale in MORALE {
            for &hm in &mods {
                for &sm in &mods {
                    for (k, p) in casualties(rules, n, hm, morale, sm).into_iter().enumerate() {
                        tidy.push(vec![
                            Cell::int(n),
                            Cell::int(hm),
                            Cell::int(morale),
                            Cell::int(sm),
                            Cell::int(k as i64),
                            Cell::P(p),
                        ]);
                    }
                }
            }
        }
    }
    Table {
        id: "bp_casualties",
        title: "Casualties after saves".into(),
        about: vec![format!(
            "Each die hits on {}+ after modifiers (a natural {} always hits, a natural {} never does); each hit is saved on the target's morale value after save modifiers \
             (a natural {} never saves). The CSV has the whole distribution for morale 4+ and 3+.",
            rules.shooting.hit_on,
            rules.shooting.always_hits,
            rules.shooting.always_misses,
            rules.saves.always_fails
        )],
        tidy,
        grids: vec![by_hit, by_save],
    }
}

fn break_table(rules: &BlackPowderRules) -> Table {
    let mut tidy = Tidy::new(vec![key("penalty"), key("result"), prob("p")]);
    let mut grid = Grid::new(
        "Break test by penalty (casualties beyond stamina plus the margin a melee was lost by)",
        vec![
            "Penalty".into(),
            "Broken".into(),
            "Retire".into(),
            "Hold".into(),
        ],
    );
    for penalty in 0..=MAX_PENALTY {
        let p = break_chances(rules, penalty);
        let mut row = vec![Cell::int(penalty)];
        for (r, p) in BreakResult::ALL.iter().zip(p) {
            tidy.push(vec![Cell::int(penalty), Cell::text(r.name()), Cell::P(p)]);
            row.push(Cell::P(p));
        }
        grid.push(row);
    }
    Table {
        id: "bp_break_test",
        title: "Break tests".into(),
        about: vec![format!(
            "Roll {}D6 less the penalty: {} or less broken, up to {} retire disordered, above that hold. Steady passes its first test.",
            rules.break_test.dice, rules.break_test.break_at_most, rules.break_test.retire_at_most
        )],
        tidy,
        grids: vec![grid],
    }
}

/// The element types of the first-melee table: attackers are the first four.
pub const MELEE_TROOPS: [(Troop, &str); 6] = [
    (Troop::Pike, "pike block"),
    (Troop::Musket, "shot sleeve"),
    (Troop::Horse(HorseKind::Trotters), "horse"),
    (Troop::Dragoon, "dragoons"),
    (Troop::Skirmisher, "skirmishers"),
    (Troop::Gun(GunWeight::Light), "guns"),
];

/// One side of a first melee round: its casualties caused (distribution) and result bonus.
fn first_round_side(
    rules: &BlackPowderRules,
    me: Troop,
    foe: Troop,
    charging: bool,
) -> (Vec<Prob>, i16) {
    let round = Round {
        charging,
        pike_first_round: me == Troop::Pike,
        skirmishers: me == Troop::Skirmisher,
        ..Round::default()
    };
    let save = SaveSituation {
        pike_vs_mounted: foe == Troop::Pike && me.is_cavalry(),
        ..SaveSituation::default()
    };
    let p = casualty_chance_on(
        rules,
        rules.melee.hit_on,
        melee::to_hit_modifier(&round, rules),
        stats(foe, rules).morale,
        morale::save_modifier(&save, rules),
    );
    let standing = Standing {
        pike_vs_cavalry: me == Troop::Pike && foe.is_cavalry(),
        ..Standing::default()
    };
    (
        binomial(u32::from(stats(me, rules).melee), p),
        melee::result_modifier(&standing, rules),
    )
}

/// A charging element against a fresh one, element to element, no supports: P(attacker wins),
/// P(draw), P(defender wins), and each side's expected casualties caused.
pub fn first_melee(
    rules: &BlackPowderRules,
    attacker: Troop,
    defender: Troop,
) -> ([Prob; 3], f64, f64) {
    let (a, a_bonus) = first_round_side(rules, attacker, defender, true);
    let (d, d_bonus) = first_round_side(rules, defender, attacker, false);
    let mut p = [Prob::ZERO; 3];
    for (i, pa) in a.iter().enumerate() {
        for (j, pd) in d.iter().enumerate() {
            let k = match melee::outcome(i as i16 + a_bonus, j as i16 + d_bonus) {
                melee::Outcome::AWins(_) => 0,
                melee::Outcome::Draw => 1,
                melee::Outcome::BWins(_) => 2,
            };
            p[k] = p[k] + *pa * *pd;
        }
    }
    let mean = |v: &[Prob]| {
        v.iter()
            .enumerate()
            .map(|(k, p)| k as f64 * p.to_f64())
            .sum()
    };
    (p, mean(&a), mean(&d))
}

fn first_melee_table(rules: &BlackPowderRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("attacker"),
        key("defender"),
        key("result"),
        prob("p"),
    ]);
    let mut grid = Grid::new(
        "A charging element against a fresh one, first round, no supports or flanks",
        [
            "Attacker",
            "Defender",
            "Attacker wins",
            "Draw",
            "Defender wins",
            "Casualties caused",
        ]
        .map(String::from)
        .to_vec(),
    )
    .labels(2);
    for &(att, an) in &MELEE_TROOPS[..4] {
        for &(def, dn) in &MELEE_TROOPS {
            let (p, ca, cd) = first_melee(rules, att, def);
            for (name, p) in ["attacker_wins", "draw", "defender_wins"].iter().zip(p) {
                tidy.push(vec![
                    Cell::text(an),
                    Cell::text(dn),
                    Cell::text(*name),
                    Cell::P(p),
                ]);
            }
            grid.push(vec![
                Cell::text(an),
                Cell::text(dn),
                Cell::P(p[0]),
                Cell::P(p[1]),
                Cell::P(p[2]),
                Cell::text(format!("{ca:.2} v {cd:.2}")),
            ]);
        }
    }
    Table {
        id: "bp_first_melee",
        title: "First round of melee".into(),
        about: vec![
            "Each element rolls its melee dice (pike 6, horse 5, shot, dragoons and skirmishers 2, guns 1) at 4+: +1 charging, +1 a pike block's first round, \
             -1 skirmishers; the other saves on its morale (+1 pikes against mounted). The result adds +3 for a pike block against cavalry. \
             A regiment fights with every element in contact, so whole regiments add up several of these rows."
                .into(),
        ],
        tidy,
        grids: vec![grid],
    }
}

/// P(hedgehog formed) in good order and disordered.
pub fn hedgehog_chances(rules: &BlackPowderRules) -> [Prob; 2] {
    [false, true].map(|disordered| {
        enumerate(MAX_DICE, |d| {
            let die = disordered.then(|| d.d6());
            morale::hedgehog_formed(disordered, die, rules)
        })
        .exact()
        .p(&true)
    })
}

fn hedgehog_table(rules: &BlackPowderRules) -> Table {
    let mut tidy = Tidy::new(vec![key("state"), prob("p_formed")]);
    let mut grid = Grid::new(
        "Infantry with cavalry within 8\": chance the hedgehog forms",
        vec!["State".into(), "Formed".into()],
    );
    for (state, p) in ["good_order", "disordered"]
        .iter()
        .zip(hedgehog_chances(rules))
    {
        tidy.push(vec![Cell::text(*state), Cell::P(p)]);
        grid.push(vec![Cell::text(*state), Cell::P(p)]);
    }
    Table {
        id: "bp_hedgehog",
        title: "Hedgehog".into(),
        about: vec![format!(
            "Infantry must form hedgehog when cavalry come within {}\"; disordered infantry form it on a D6 of {} or less, else the cavalry catch them. \
             A hedgehog that is not shaken cannot be attacked by horse from its front.",
            rules.hedgehog.horse_range, rules.hedgehog.disordered_formed_at_most
        )],
        tidy,
        grids: vec![grid],
    }
}

/// Builds table `id`, or None.
pub fn build(rules: &BlackPowderRules, id: &str) -> Option<Table> {
    Some(match id {
        "bp_command" => command_table(rules),
        "bp_casualties" => casualty_table(rules),
        "bp_break_test" => break_table(rules),
        "bp_first_melee" => first_melee_table(rules),
        "bp_hedgehog" => hedgehog_table(rules),
        "bp_charge_chain" => super::chained::black_powder::table(rules),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rating_eight_is_ten_eleven_fifteen_in_thirty_six() {
        let r = BlackPowderRules::builtin();
        let p = band_chances(&r, 8);
        assert_eq!(p, [Prob::new(10, 36), Prob::new(11, 36), Prob::new(15, 36)]);
        assert_eq!(p[0].percent(), "27.8%");
        // Rating 2: never under; rating 12: never over.
        assert_eq!(band_chances(&r, 12)[0], Prob::new(0, 1));
        assert_eq!(band_chances(&r, 2)[2], Prob::new(0, 1));
    }

    #[test]
    fn casualties_multiply_hit_and_failed_save() {
        let r = BlackPowderRules::builtin();
        // 4+ to hit, 4+ to save: 1/2 * 1/2.
        assert_eq!(casualty_chance(&r, 0, 4, 0), Prob::new(1, 4));
        // +3 to hit still misses on a 1; -5 to save never saves.
        assert_eq!(casualty_chance(&r, 3, 4, -5), Prob::new(5, 6));
        let d = casualties(&r, 2, 0, 4, 0);
        assert_eq!(
            d,
            vec![Prob::new(9, 16), Prob::new(6, 16), Prob::new(1, 16)]
        );
    }

    #[test]
    fn first_melee_and_hedgehog() {
        let r = BlackPowderRules::builtin();
        // Horse charging horse: 5 dice at +1 (2/3 hit) against 5 at 4+ (1/2); saves 4+.
        let (p, ca, cd) = first_melee(
            &r,
            Troop::Horse(HorseKind::Trotters),
            Troop::Horse(HorseKind::Trotters),
        );
        assert!((ca - 5.0 * (2.0 / 3.0) * 0.5).abs() < 1e-12 && (cd - 1.25).abs() < 1e-12);
        assert_eq!(p[0] + p[1] + p[2], Prob::ONE);
        // Horse charging a pike block: the pike's +3 makes the pike the favourite.
        let (p, _, _) = first_melee(&r, Troop::Horse(HorseKind::Trotters), Troop::Pike);
        assert!(p[2] > p[0]);
        assert_eq!(hedgehog_chances(&r), [Prob::ONE, Prob::new(1, 2)]);
    }

    #[test]
    fn break_tests_by_penalty() {
        let r = BlackPowderRules::builtin();
        assert_eq!(
            break_chances(&r, 0),
            [Prob::new(6, 36), Prob::new(9, 36), Prob::new(21, 36)]
        );
        assert_eq!(break_chances(&r, 8)[2], Prob::new(0, 1));
    }
}

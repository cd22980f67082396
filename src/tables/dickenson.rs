//! Dickenson's exact tables: volley casualties by range and men firing, single shots, impetus,
//! melee casualty points by dice, where a gun's shot falls and how often its hit area falls on a
//! target, and the morale chart by adds and points lost, each enumerated through the ruleset's
//! own rule functions.

use super::exact::{Prob, enumerate};
use super::{Cell, Grid, MAX_DICE, Table, Tidy, key, prob};
use crate::dice::DiceSource;
use crate::rules::dickenson::DickensonRules;
use crate::rules::dickenson::figures::Figure;
use crate::rules::dickenson::gunnery::{self, Calibre, Landing, Target};
use crate::rules::dickenson::melee;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult};
use crate::rules::dickenson::volley::{self, Arm, Band};

/// The Dickenson tables, in the order they are printed.
pub const TABLE_IDS: [&str; 8] = [
    "dk_volley",
    "dk_single_shot",
    "dk_impetus",
    "dk_melee",
    "dk_fall_of_shot",
    "dk_gun_hit",
    "dk_morale",
    "dk_charge_chain",
];

/// Most men firing shown (three volleys).
pub const MAX_MEN: u32 = 18;
/// Most melee dice shown.
pub const MAX_MELEE_DICE: u32 = 5;
/// Gun ranges shown (whole inches, so the estimate is the true distance).
pub const GUN_RANGES: [f64; 8] = [6.0, 9.0, 12.0, 15.0, 20.0, 24.0, 36.0, 45.0];
/// Target frontages shown (inches), and the depth of every target.
pub const FRONTAGES: [f64; 3] = [2.0, 4.0, 6.0];
pub const TARGET_DEPTH: f64 = 1.0;
/// Most points lost shown in the morale chart.
pub const MAX_POINTS_LOST: u32 = 10;

/// The bands an arm has (pistols have no medium).
pub fn bands(arm: Arm, rules: &DickensonRules) -> Vec<Band> {
    Band::ALL
        .into_iter()
        .filter(|b| b.of(&arm.weapon(rules).deduction).is_some())
        .collect()
}

/// The distribution of casualties (before saves) of `men` firing (index k: exactly k).
pub fn volley_dist(rules: &DickensonRules, arm: Arm, band: Band, men: u32) -> Vec<Prob> {
    let d = enumerate(MAX_DICE, |dice| volley::fire(dice, arm, band, men, rules)).exact();
    let most = d.outcomes.iter().map(|(k, _)| *k).max().unwrap_or(0);
    (0..=most).map(|k| d.p(&k)).collect()
}

/// P(one man firing singly hits).
pub fn single_shot_chance(rules: &DickensonRules, arm: Arm, band: Band, rested: bool) -> Prob {
    enumerate(MAX_DICE, |d| {
        volley::single_shot_hits(d.d6(), arm, band, rested, rules)
    })
    .exact()
    .p(&true)
}

/// P(one impetus die kills, before saves) and P(it kills a target after its save).
pub fn impetus_chance(rules: &DickensonRules, attacker: Figure, target: Figure) -> (Prob, Prob) {
    let kill = enumerate(MAX_DICE, |d| melee::impetus(d, attacker, 1, rules))
        .exact()
        .p(&1);
    let unsaved = enumerate(MAX_DICE, |d| {
        crate::rules::dickenson::figures::after_saves(d, target, 1, rules)
    })
    .exact()
    .p(&1);
    (kill, kill * unsaved)
}

/// The distribution of casualty points from `n` melee dice, as (points, p) in rising order.
pub fn melee_dist(rules: &DickensonRules, n: u32, pike_first_round: bool) -> Vec<(f64, Prob)> {
    let figure = if pike_first_round {
        Figure::Pikeman
    } else {
        Figure::Musketeer
    };
    let d = enumerate(MAX_DICE, |dice| {
        melee::casualty_points(dice.sum_d6(n), figure, pike_first_round, rules)
    })
    .exact();
    let mut out = d.outcomes;
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// Where a shot aimed `distance` away lands: (range error, wind-gauge sections) and its chance.
pub fn landing_dist(rules: &DickensonRules, distance: f64) -> Vec<((f64, i8), Prob)> {
    let est = gunnery::estimate(distance, rules);
    let g = &rules.fall_of_shot.wind_gauge;
    let d = enumerate(MAX_DICE, |dice| {
        let coloured = dice.d6();
        let white = dice.d6();
        (
            gunnery::range_error(white, est, rules),
            g.by_die[usize::from(coloured - 1)],
        )
    })
    .exact();
    let mut out = d.outcomes;
    out.sort_by(|a, b| a.0.0.total_cmp(&b.0.0).then(a.0.1.cmp(&b.0.1)));
    out
}

/// P(a calibre's hit area falls on a target of `frontage` centred `distance` away).
pub fn hit_chance(rules: &DickensonRules, calibre: Calibre, distance: f64, frontage: f64) -> Prob {
    let area = calibre.gun(rules).hit_area;
    let target = Target {
        distance,
        frontage,
        depth: TARGET_DEPTH,
    };
    enumerate(MAX_DICE, |d| {
        let at: Landing = gunnery::fall_of_shot(d, distance, rules);
        gunnery::falls_on(at, area, target)
    })
    .exact()
    .p(&true)
}

/// The first `n` adds of the list.
pub fn first_adds(n: usize) -> Adds {
    Adds::of(&Add::ALL[..n.min(Add::ALL.len())])
}

/// The chance of each chart result with `n` adds and `points_lost`.
pub fn morale_chances(rules: &DickensonRules, adds: usize, points_lost: u32) -> [Prob; 4] {
    let d = enumerate(MAX_DICE, |dice| {
        morale::throw(dice, first_adds(adds), points_lost, rules)
    })
    .exact();
    MoraleResult::ALL.map(|r| d.p(&r))
}

fn mean<T: Copy>(dist: &[(T, Prob)], value: impl Fn(T) -> f64) -> String {
    let m: f64 = dist.iter().map(|&(k, p)| value(k) * p.to_f64()).sum();
    format!("{m:.2}")
}

fn indexed(dist: &[Prob]) -> Vec<(u32, Prob)> {
    dist.iter()
        .enumerate()
        .map(|(k, p)| (k as u32, *p))
        .collect()
}

fn volley_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("arm"),
        key("band"),
        key("men"),
        key("casualties"),
        prob("p"),
    ]);
    let columns: Vec<(Arm, Band)> = Arm::ALL
        .into_iter()
        .flat_map(|a| bands(a, rules).into_iter().map(move |b| (a, b)))
        .collect();
    let mut header = vec!["Men".to_string()];
    header.extend(
        columns
            .iter()
            .map(|(a, b)| format!("{} {}", a.name(), b.name())),
    );
    let mut grid = Grid::new(
        "Expected casualties (before saves) by men firing (rows), arm and range (columns)",
        header,
    );
    for men in 1..=MAX_MEN {
        let mut row = vec![Cell::int(men)];
        for &(arm, band) in &columns {
            let dist = volley_dist(rules, arm, band, men);
            row.push(Cell::text(mean(&indexed(&dist), f64::from)));
            for (k, p) in dist.into_iter().enumerate() {
                tidy.push(vec![
                    Cell::text(arm.name()),
                    Cell::text(band.name()),
                    Cell::int(men),
                    Cell::int(k as i64),
                    Cell::P(p),
                ]);
            }
        }
        grid.push(row);
    }
    Table {
        id: "dk_volley",
        title: "Volley casualties".into(),
        about: vec![format!(
            "Men fire in volleys of {}: one die a volley, less the range's deduction (musket and musketoon 3/2/1 at long/medium/short, pistol 3/-/2), \
             and one more for every man a volley is short. Casualties are then saved by the target's normal saving throw.",
            rules.volley.men
        )],
        tidy,
        grids: vec![grid],
    }
}

fn single_shot_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![key("arm"), key("band"), key("rested"), prob("p")]);
    let mut grid = Grid::new(
        "Chance one man firing singly hits",
        vec!["Arm".into(), "Range".into(), "Free".into(), "Rested".into()],
    )
    .labels(2);
    for arm in Arm::ALL {
        for band in bands(arm, rules) {
            let mut row = vec![Cell::text(arm.name()), Cell::text(band.name())];
            for rested in [false, true] {
                let p = single_shot_chance(rules, arm, band, rested);
                row.push(Cell::P(p));
                tidy.push(vec![
                    Cell::text(arm.name()),
                    Cell::text(band.name()),
                    Cell::text(if rested { "yes" } else { "no" }),
                    Cell::P(p),
                ]);
            }
            grid.push(row);
        }
    }
    Table {
        id: "dk_single_shot",
        title: "Single shots".into(),
        about: vec![format!(
            "A man firing singly hits on 6 at long range, 5-6 at medium, 4-6 at short; a pistol on 6 at 4\" and 5-6 at 2\". \
             A musket or musketoon rested on a wall or sill adds {}.",
            rules.volley.rested
        )],
        tidy,
        grids: vec![grid],
    }
}

fn impetus_table(rules: &DickensonRules) -> Table {
    let horse = [Figure::Lobster, Figure::Trooper, Figure::Dragoon];
    let mut tidy = Tidy::new(vec![
        key("attacker"),
        key("target"),
        prob("kills"),
        prob("after_saves"),
    ]);
    let mut header = vec!["Attacker".to_string(), "Kills".to_string()];
    header.extend(Figure::ALL.iter().map(|f| format!("vs {}", f.name())));
    let mut grid = Grid::new(
        "Chance one charging horseman's impetus die kills: before saves, and after each target's save",
        header,
    );
    for a in horse {
        let mut row = vec![Cell::text(a.name())];
        let (kill, _) = impetus_chance(rules, a, Figure::Pikeman);
        row.push(Cell::P(kill));
        for t in Figure::ALL {
            let (kill, after) = impetus_chance(rules, a, t);
            row.push(Cell::P(after));
            tidy.push(vec![
                Cell::text(a.name()),
                Cell::text(t.name()),
                Cell::P(kill),
                Cell::P(after),
            ]);
        }
        grid.push(row);
    }
    Table {
        id: "dk_impetus",
        title: "Impetus".into(),
        about: vec![
            "Cavalry charging home roll a die per figure: 3-6 kills for a lobster, 4-6 for a trooper, 5-6 for a dragoon, each saved by the normal saving throw."
                .into(),
        ],
        tidy,
        grids: vec![grid],
    }
}

fn melee_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("dice"),
        key("pike_first_round"),
        key("casualty_points"),
        prob("p"),
    ]);
    let mut grid = Grid::new(
        "Expected casualties in points by dice thrown (one per complete six points)",
        vec![
            "Dice".into(),
            "Points".into(),
            "Others".into(),
            "Pike, first round".into(),
        ],
    );
    let six = rules.melee.points_per_die;
    for n in 1..=MAX_MELEE_DICE {
        let mut row = vec![
            Cell::int(n),
            Cell::text(format!(
                "{}-{}",
                f64::from(n) * six,
                f64::from(n + 1) * six - 0.5
            )),
        ];
        for pike in [false, true] {
            let dist = melee_dist(rules, n, pike);
            row.push(Cell::text(mean(&dist, |v| v)));
            for (pts, p) in dist {
                tidy.push(vec![
                    Cell::int(n),
                    Cell::text(if pike { "yes" } else { "no" }),
                    Cell::text(format!("{pts}")),
                    Cell::P(p),
                ]);
            }
        }
        grid.push(row);
    }
    Table {
        id: "dk_melee",
        title: "Melee casualties".into(),
        about: vec![format!(
            "Musketeers and gunners count 1 point, pikemen and dragoons 1 1/2, troopers 2, lobsters 2 1/2. One die for each complete {six} points; \
             {} of the score is the casualties in points, turned into the enemy's figures at their points per figure (the remainder carried). \
             Pikemen add {}% to their score in the first round.",
            rules.melee.casualty_share,
            rules.melee.pike_first_round_bonus * 100.0
        )],
        tidy,
        grids: vec![grid],
    }
}

fn fall_of_shot_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("range"),
        key("range_error"),
        key("gauge_sections"),
        prob("p"),
    ]);
    let mut grid = Grid::new(
        "Where the shot falls by range: chance of each range error (inches short or over)",
        vec![
            "Range".into(),
            "Far short".into(),
            "Short".into(),
            "Correct".into(),
            "Over".into(),
            "Far over".into(),
            "Centre of gauge".into(),
        ],
    );
    for distance in GUN_RANGES {
        let dist = landing_dist(rules, distance);
        for &((err, sec), p) in &dist {
            tidy.push(vec![
                Cell::int(distance as i64),
                Cell::text(format!("{err}")),
                Cell::int(sec),
                Cell::P(p),
            ]);
        }
        let est = gunnery::estimate(distance, rules);
        let mut errors: Vec<f64> = (1..=6)
            .map(|w| gunnery::range_error(w, est, rules))
            .collect();
        errors.sort_by(f64::total_cmp);
        errors.dedup();
        let mut row = vec![Cell::int(distance as i64)];
        for e in errors {
            let p: Prob = dist
                .iter()
                .filter(|((x, _), _)| *x == e)
                .map(|(_, p)| *p)
                .sum();
            row.push(Cell::P(p));
        }
        let centre: Prob = dist
            .iter()
            .filter(|((_, s), _)| *s == 0)
            .map(|(_, p)| *p)
            .sum();
        row.push(Cell::P(centre));
        grid.push(row);
    }
    Table {
        id: "dk_fall_of_shot",
        title: "Fall of shot".into(),
        about: vec![format!(
            "The white die gives the range error by band (0-10\": 2\" short, 1\" short, correct, correct, 1\" over, 2\" over on 1-6; doubled at 10-20\", \
             tripled at 20-30\", quadrupled beyond). The coloured die turns the tape through a wind gauge of {} sections of {}\" laid {}\" from the muzzle \
             (1-2 left, 3-4 centre, 5-6 right), so the offset grows with the range.",
            rules.fall_of_shot.wind_gauge.sections,
            rules.fall_of_shot.wind_gauge.section,
            rules.fall_of_shot.wind_gauge.distance
        )],
        tidy,
        grids: vec![grid],
    }
}

fn gun_hit_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("calibre"),
        key("range"),
        key("frontage"),
        prob("p"),
    ]);
    let mut grids = Vec::new();
    for calibre in Calibre::ALL {
        let gun = calibre.gun(rules);
        let mut header = vec!["Range".to_string()];
        header.extend(FRONTAGES.iter().map(|f| format!("{f}\" front")));
        let mut grid = Grid::new(
            format!(
                "{}: chance the {}\" x {}\" hit area falls on a target {TARGET_DEPTH}\" deep",
                calibre.name(),
                gun.hit_area.width,
                gun.hit_area.length
            ),
            header,
        );
        for distance in GUN_RANGES.into_iter().filter(|&d| d <= gun.maximum_range) {
            let mut row = vec![Cell::int(distance as i64)];
            for frontage in FRONTAGES {
                let p = hit_chance(rules, calibre, distance, frontage);
                row.push(Cell::P(p));
                tidy.push(vec![
                    Cell::text(calibre.name()),
                    Cell::int(distance as i64),
                    Cell::text(format!("{frontage}")),
                    Cell::P(p),
                ]);
            }
            grid.push(row);
        }
        grids.push(grid);
    }
    Table {
        id: "dk_gun_hit",
        title: "Hit areas on target".into(),
        about: vec![
            "The hit area is laid where the shot falls, its long side along the line of fire; it counts when it overlaps the target. \
             Targets are centred on the line of fire at the range shown (the gunner's estimate is the true range)."
                .into(),
        ],
        tidy,
        grids,
    }
}

fn morale_table(rules: &DickensonRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("adds"),
        key("points_lost"),
        key("result"),
        prob("p"),
    ]);
    let adds: Vec<usize> = (0..=Add::ALL.len()).collect();
    let header = |first: &str| {
        let mut h = vec![first.to_string()];
        h.extend(adds.iter().map(|a| format!("+{a}")));
        h
    };
    let mut good = Grid::new(
        "Chance of a good result by points lost (rows) and adds (columns)",
        header("Lost"),
    );
    let mut rout = Grid::new(
        "Chance of a rout by points lost (rows) and adds (columns)",
        header("Lost"),
    );
    for lost in 0..=MAX_POINTS_LOST {
        let (mut g, mut r) = (vec![Cell::int(lost)], vec![Cell::int(lost)]);
        for &a in &adds {
            let p = morale_chances(rules, a, lost);
            g.push(Cell::P(p[0]));
            r.push(Cell::P(p[3]));
            for (res, p) in MoraleResult::ALL.iter().zip(p) {
                tidy.push(vec![
                    Cell::int(a as i64),
                    Cell::int(lost),
                    Cell::text(res.name()),
                    Cell::P(p),
                ]);
            }
        }
        good.push(g);
        rout.push(r);
    }
    let m = &rules.morale;
    Table {
        id: "dk_morale",
        title: "Morale chart".into(),
        about: vec![format!(
            "Roll {}D6, add 1 for each that applies (the attacker; supported; flanks or rear secured; won the melee; enemy downhill; enemy withdrawing; \
             a Lieutenant-General with the unit; pikemen in more than two ranks; fewer casualties in the melee), less the morale points lost. \
             {}+ good; {}-{} stand, disordered; {}-{} fall back a full move; less, rout.",
            m.dice,
            m.good_at_least,
            m.stand_at_least,
            m.good_at_least - 1,
            m.fall_back_at_least,
            m.stand_at_least - 1
        )],
        tidy,
        grids: vec![good, rout],
    }
}

/// Builds table `id`, or None.
pub fn build(rules: &DickensonRules, id: &str) -> Option<Table> {
    Some(match id {
        "dk_volley" => volley_table(rules),
        "dk_single_shot" => single_shot_table(rules),
        "dk_impetus" => impetus_table(rules),
        "dk_melee" => melee_table(rules),
        "dk_fall_of_shot" => fall_of_shot_table(rules),
        "dk_gun_hit" => gun_hit_table(rules),
        "dk_morale" => morale_table(rules),
        "dk_charge_chain" => super::chained::dickenson::table(rules),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_musket_volley_at_long_range() {
        let r = DickensonRules::builtin();
        // 6 men at long: die - 3: 0 on 1-3, then 1, 2, 3.
        let d = volley_dist(&r, Arm::Musket, Band::Long, 6);
        assert_eq!(
            d,
            vec![
                Prob::new(1, 2),
                Prob::new(1, 6),
                Prob::new(1, 6),
                Prob::new(1, 6)
            ]
        );
        // 5 men at long: die - 4: only a 5 or 6 kills.
        let d = volley_dist(&r, Arm::Musket, Band::Long, 5);
        assert_eq!(d, vec![Prob::new(4, 6), Prob::new(1, 6), Prob::new(1, 6)]);
    }

    #[test]
    fn melee_and_single_shots() {
        let r = DickensonRules::builtin();
        // One die, halved: 0.5 .. 3.0 each 1/6; pike first round 0.75 .. 4.5.
        let d = melee_dist(&r, 1, false);
        assert_eq!(d.len(), 6);
        assert_eq!(d[0], (0.5, Prob::new(1, 6)));
        assert_eq!(melee_dist(&r, 1, true)[5], (4.5, Prob::new(1, 6)));
        assert_eq!(
            single_shot_chance(&r, Arm::Musket, Band::Medium, true),
            Prob::new(1, 2)
        );
        assert_eq!(
            impetus_chance(&r, Figure::Lobster, Figure::Trooper),
            (Prob::new(2, 3), Prob::new(2, 3) * Prob::new(4, 6))
        );
    }

    #[test]
    fn the_morale_chart_at_no_adds_and_no_loss() {
        let r = DickensonRules::builtin();
        // 2D6: 8+ is 15/36, 6-7 11/36, 4-5 7/36, 2-3 3/36.
        assert_eq!(
            morale_chances(&r, 0, 0),
            [
                Prob::new(15, 36),
                Prob::new(11, 36),
                Prob::new(7, 36),
                Prob::new(3, 36)
            ]
        );
        // Nine adds outweigh one lost point: 2+9-1 = 10 at worst.
        assert_eq!(morale_chances(&r, 9, 1)[0], Prob::ONE);
    }

    #[test]
    fn shots_fall_on_wide_targets_more_often() {
        let r = DickensonRules::builtin();
        // A wider target catches more of the wind gauge's spread.
        let wide = hit_chance(&r, Calibre::Saker, 6.0, 6.0);
        let narrow = hit_chance(&r, Calibre::Saker, 6.0, 2.0);
        assert!(wide > narrow, "{wide} {narrow}");
        // Beyond 30" the error is 4" or 8" off a 1" deep target except on 3-4: 1/3 at most.
        assert!(hit_chance(&r, Calibre::Culverin, 36.0, 6.0) <= Prob::new(1, 3));
        let d = landing_dist(&r, 24.0);
        // Five range errors (6" and 3" short, correct, 3" and 6" over) by five gauge sections.
        assert_eq!(d.len(), 5 * 5);
        assert_eq!(d.iter().map(|(_, p)| *p).sum::<Prob>(), Prob::ONE);
    }
}

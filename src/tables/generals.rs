//! Risk to generals: the chance an attached or unattached general becomes a casualty, and what
//! the casualty tables do to him.

use super::exact::{Dist, enumerate};
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob};
use crate::dice::DiceSource;
use crate::events::{GeneralResult, plural};
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::generals::{
    Casualty, attached_general_hit, captured, casualty, horse_result, overrun_hit, rider_result,
};

/// Depth limit for the casualty tables: their horse-and-rider tie is re-rolled without limit, so
/// the enumeration stops after a few ties and conditions on the runs that finished (exact, since
/// the loop is memoryless: see [`super::exact::Enumeration::conditional_on_resolved`]).
pub const CASUALTY_DEPTH: usize = 9;

/// The CVs lost shown for an attached general (a D6 no higher than the CV lost hits him).
pub const CV_LOST_SHOWN: std::ops::RangeInclusive<u8> = 1..=6;

/// P(an attached general is hit when his unit loses `cv_lost` CV), by enumerating
/// [`attached_general_hit`].
pub fn attached_hit(cv_lost: u8) -> Prob {
    enumerate(MAX_DICE, |d| attached_general_hit(d, cv_lost).1)
        .exact()
        .p(&true)
}

/// P(an unattached general is hit when contacted or overrun by horse or by foot).
pub fn overrun(rules: &IronsidesRules, by_horse: bool) -> Prob {
    enumerate(MAX_DICE, |d| overrun_hit(rules, d, by_horse))
        .exact()
        .p(&true)
}

/// P(a wounded or unhorsed general is captured), by enumerating [`captured`].
pub fn capture_chance(rules: &IronsidesRules) -> Prob {
    enumerate(MAX_DICE, |d| captured(rules, d)).exact().p(&true)
}

/// The distribution of what a casualty does (the engine's [`Casualty`]) given that the general
/// is hit, by enumerating [`casualty`] (horse and rider with the tie rolled again, or the easy
/// rule). After the tie loop the function always rolls exactly one more die, so whether a run is
/// cut off depends only on how many ties it met, never on its result: conditioning on the runs
/// that finished is exact.
pub fn casualties(rules: &IronsidesRules) -> Dist<Casualty> {
    enumerate(CASUALTY_DEPTH, |d| casualty(rules, d)).conditional_on_resolved()
}

/// The distribution of casualty results given that the general is hit.
pub fn casualty_distribution(rules: &IronsidesRules) -> Dist<GeneralResult> {
    casualties(rules).map(|c| c.result)
}

/// Whether a casualty takes the general out of the battle: lost outright, or at risk of capture
/// and captured. This is the definition the exact figure below composes, and what the tests sample.
pub fn out_of_battle<D: DiceSource>(rules: &IronsidesRules, dice: &mut D) -> bool {
    let c = casualty(rules, dice);
    c.lost || (c.capture_risk && captured(rules, dice))
}

/// P(a hit general is out of the battle: dead, dying, carried off or captured): each casualty's
/// chance times 1 if it loses him, the capture chance if it puts him at risk of capture, else 0.
/// (Composed from two exact distributions rather than enumerated in one go: the capture die is
/// rolled after some results only, so a depth cut-off there would not be independent of the
/// outcome.)
pub fn out_of_battle_given_hit(rules: &IronsidesRules) -> Prob {
    let capture = capture_chance(rules);
    casualties(rules)
        .outcomes
        .iter()
        .map(|(c, p)| {
            if c.lost {
                *p
            } else if c.capture_risk {
                *p * capture
            } else {
                Prob::ZERO
            }
        })
        .sum()
}

/// The result's name for people.
pub fn result_label(r: GeneralResult) -> &'static str {
    match r {
        GeneralResult::HorribleDeath => "Horrible death",
        GeneralResult::MortalWound => "Mortal wound",
        GeneralResult::GravelyWounded => "Gravely wounded",
        GeneralResult::Hurt => "Hurt",
        GeneralResult::Unhurt => "Bloodied but unbowed",
        GeneralResult::Saved => "Saved by a miracle",
        GeneralResult::HorseFalls => "Dying horse falls on him",
        GeneralResult::HorseStampedes => "Horse stampedes",
        GeneralResult::HorseDies => "Horse dies",
        GeneralResult::HorseBleeds => "Horse bleeds on",
        GeneralResult::Lost => "Lost (easy rule)",
    }
}

/// The result's identifier for CSV.
pub fn result_id(r: GeneralResult) -> &'static str {
    match r {
        GeneralResult::HorribleDeath => "horrible_death",
        GeneralResult::MortalWound => "mortal_wound",
        GeneralResult::GravelyWounded => "gravely_wounded",
        GeneralResult::Hurt => "hurt",
        GeneralResult::Unhurt => "unhurt",
        GeneralResult::Saved => "saved",
        GeneralResult::HorseFalls => "horse_falls",
        GeneralResult::HorseStampedes => "horse_stampedes",
        GeneralResult::HorseDies => "horse_dies",
        GeneralResult::HorseBleeds => "horse_bleeds",
        GeneralResult::Lost => "lost",
    }
}

/// What a casualty result does, read from the engine's [`Casualty`].
pub fn effect(c: &Casualty, capture: Prob) -> String {
    let mut parts = Vec::new();
    if c.lost {
        parts.push("general lost".to_string());
    }
    if c.command_cv_loss > 0 {
        parts.push(format!(
            "every unit of his command -{} CV",
            c.command_cv_loss
        ));
    }
    match c.unit_cv_change {
        0 => {}
        n if n > 0 => parts.push(format!("his unit +{n} CV")),
        n => parts.push(format!("his unit {n} CV")),
    }
    if c.skill_change != 0 {
        parts.push(format!("skill {}", super::signed(c.skill_change)));
    }
    if c.morale_change != 0 {
        parts.push(format!("morale {}", super::signed(c.morale_change)));
    }
    if c.out_of_action > 0 {
        parts.push(format!(
            "out of action {} {}",
            c.out_of_action,
            plural(c.out_of_action, "turn", "turns")
        ));
    }
    if c.capture_risk {
        parts.push(format!("captured {}", capture.percent()));
    }
    if parts.is_empty() {
        "no effect".into()
    } else {
        parts.join("; ")
    }
}

/// Faces of a D6 as players write them: `1`, `3-5`, `1, 4`.
fn faces_text(faces: &[u8]) -> String {
    let mut runs: Vec<(u8, u8)> = Vec::new();
    for &f in faces {
        match runs.last_mut() {
            Some(r) if r.1 + 1 == f => r.1 = f,
            _ => runs.push((f, f)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One sub-table (rider or horse): its results in face order, with their faces, the engine's
/// casualty for the first face, and P(result | this sub-table), by enumerating the table's D6.
fn sub_table(table: fn(u8) -> Casualty) -> SubTable {
    let dist = enumerate(MAX_DICE, |d| table(d.d6()).result).exact();
    let mut out: Vec<(GeneralResult, Vec<u8>, Casualty)> = Vec::new();
    for face in 1..=6u8 {
        let c = table(face);
        match out.iter_mut().find(|(r, _, _)| *r == c.result) {
            Some(e) => e.1.push(face),
            None => out.push((c.result, vec![face], c)),
        }
    }
    out.into_iter()
        .map(|(r, faces, c)| (r, faces_text(&faces), c, dist.p(&r)))
        .collect()
}

pub fn risk_table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("cause"),
        key("cv_lost"),
        prob("p_casualty"),
        prob("p_out_of_battle"),
    ]);
    let mut g = Grid::new(
        "Chance a general becomes a casualty",
        vec![
            "cause".into(),
            "casualty".into(),
            "out of the battle".into(),
        ],
    );
    let out = out_of_battle_given_hit(rules);
    for k in CV_LOST_SHOWN {
        let p = attached_hit(k);
        tidy.push(vec![
            Cell::text("attached"),
            Cell::int(k),
            Cell::P(p),
            Cell::P(p * out),
        ]);
        g.push(vec![
            Cell::text(format!("attached, his unit lost {k} CV")),
            Cell::P(p),
            Cell::P(p * out),
        ]);
    }
    for (id, label, by_horse) in [
        (
            "unattached_contacted_by_foot",
            "unattached, contacted by foot",
            false,
        ),
        (
            "unattached_contacted_by_horse",
            "unattached, contacted by horse",
            true,
        ),
    ] {
        let p = overrun(rules, by_horse);
        tidy.push(vec![
            Cell::text(id),
            Cell::Empty,
            Cell::P(p),
            Cell::P(p * out),
        ]);
        g.push(vec![Cell::text(label), Cell::P(p), Cell::P(p * out)]);
    }
    Table {
        id: "general_risk",
        title: "Risk to generals".into(),
        about: vec![
            "An attached general rolls a D6 each time his unit loses CV and is a casualty on a roll no higher than the CV just lost \
             (Goring's unit lost 2: a 2 in 6 chance). An unattached general contacted or overrun is a casualty on the chances shown."
                .into(),
            format!(
                "`out of the battle` multiplies by the chance that a casualty removes him for the rest of the battle: killed, dying, carried off, \
                 or wounded or unhorsed and then captured: {} of casualties (see `general_casualty`). A replacement arrives {} turns later.",
                out.percent(),
                rules.generals.replacement_delay_turns
            ),
        ],
        tidy,
        grids: vec![g],
    }
}

/// The casualty tables of a general hit: who is hit, horse or rider, and each result.
pub fn casualty_table(rules: &IronsidesRules) -> Table {
    let dist = casualty_distribution(rules);
    let capture = capture_chance(rules);
    let rider = sub_table(rider_result);
    let horse = sub_table(horse_result);
    let mut tidy = Tidy::new(vec![
        key("part"),
        key("faces"),
        key("result"),
        prob("p_part"),
        prob("p_given_part"),
        prob("p_given_hit"),
    ]);
    let mut who = Grid::new(
        "Who is hit (2D6, one for the horse and one for the rider; the higher is hit, a tie is rolled again)",
        vec!["hit".into(), "chance".into()],
    );
    let mut g = Grid::new(
        "Results",
        vec![
            "table".into(),
            "D6".into(),
            "result".into(),
            "effect".into(),
            "given that table".into(),
            "given a hit".into(),
        ],
    )
    .labels(4);
    let parts = [("rider", rider), ("horse", horse)];
    sub_table_rows(&dist, capture, &parts, &mut tidy, &mut who, &mut g);
    easy_rule_rows(&dist, &parts, &mut tidy, &mut g);
    let mut grids = Vec::new();
    if !who.rows.is_empty() {
        grids.push(who);
    }
    grids.push(g);
    let out = out_of_battle_given_hit(rules);
    Table {
        id: "general_casualty",
        title: "Casualty tables for generals".into(),
        about: vec![
            "When a general is hit, the more interesting rule rolls two dice of different colours, horse and rider; the higher is hit \
             (a tie is rolled again: a ruling). Then one D6 on the rider's or the horse's table. `given that table` is the chance of the \
             result once you know who was hit; `given a hit` is its chance overall."
                .into(),
            format!(
                "A general wounded or unhorsed where the effect says `captured` is taken on {} of rolls. In all, {} of casualties take \
                 the general out of the battle (lost, or captured).",
                capture.percent(),
                out.percent()
            ),
        ],
        tidy,
        grids,
    }
}

/// A sub-table's rows: `(result, its faces, what it does, its chance on that table)`.
type SubTable = Vec<(GeneralResult, String, Casualty, Prob)>;

/// The rows of the rider's and the horse's tables: the chance each is the one hit (in
/// `who`), and each result given that table and given a hit.
fn sub_table_rows(
    dist: &Dist<GeneralResult>,
    capture: Prob,
    parts: &[(&str, SubTable); 2],
    tidy: &mut Tidy,
    who: &mut Grid,
    g: &mut Grid,
) {
    for (part, entries) in parts {
        let p = dist.p_where(|r| entries.iter().any(|e| e.0 == *r));
        if p.is_zero() {
            continue;
        }
        who.push(vec![Cell::text(*part), Cell::P(p)]);
        for (r, faces, c, pr) in entries.iter() {
            let overall = dist.p(r);
            tidy.push(vec![
                Cell::text(*part),
                Cell::text(faces.replace(", ", ";")),
                Cell::text(result_id(*r)),
                Cell::P(p),
                Cell::P(*pr),
                Cell::P(overall),
            ]);
            g.push(vec![
                Cell::text(*part),
                Cell::text(faces.clone()),
                Cell::text(result_label(*r)),
                Cell::text(effect(c, capture)),
                Cell::P(*pr),
                Cell::P(overall),
            ]);
        }
    }
}

/// The results on neither sub-table: the easy rule's, each losing the general.
fn easy_rule_rows(
    dist: &Dist<GeneralResult>,
    parts: &[(&str, SubTable); 2],
    tidy: &mut Tidy,
    g: &mut Grid,
) {
    let on_a_sub_table = |r: &GeneralResult| parts.iter().any(|(_, t)| t.iter().any(|e| e.0 == *r));
    for (r, p) in &dist.outcomes {
        if on_a_sub_table(r) {
            continue;
        }
        tidy.push(vec![
            Cell::text("easy_rule"),
            Cell::Empty,
            Cell::text(result_id(*r)),
            Cell::P(*p),
            Cell::P(Prob::ONE),
            Cell::P(*p),
        ]);
        g.push(vec![
            Cell::text("easy rule"),
            Cell::Empty,
            Cell::text(result_label(*r)),
            Cell::text("general lost"),
            Cell::P(Prob::ONE),
            Cell::P(*p),
        ]);
    }
}

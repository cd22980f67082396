//! Generalship (skill and morale by D6) and the leadership points a commander rolls.

use super::exact::{Dist, at_least, enumerate};
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob, signed};
use crate::army::CommanderRating;
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::leadership::{command_lps, roll_generalship, roll_lps};

/// Rows of the generalship table that have the same effect, merged (rolls 3 and 4 are both a
/// Fair Man / Decent Chap), worst first.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<K> {
    pub name: String,
    pub rolls: Vec<u8>,
    pub key: K,
}

/// Skill: what it does is (LP modifier, radius).
pub type SkillKey = (i8, f64);
/// Morale: what it does is (re-rolls, enemy re-rolls).
pub type MoraleKey = (u8, u8);

fn group<K: PartialEq + Copy>(
    rules: &IronsidesRules,
    name: impl Fn(usize) -> String,
    key: impl Fn(usize) -> K,
) -> Vec<Group<K>> {
    let mut out: Vec<Group<K>> = Vec::new();
    for (i, row) in rules.generalship.iter().enumerate() {
        let k = key(i);
        match out.iter_mut().find(|g| g.key == k) {
            Some(g) => {
                g.rolls.push(row.roll);
                let n = name(i);
                if !g.name.split(" / ").any(|x| x == n) {
                    g.name = format!("{} / {n}", g.name);
                }
            }
            None => out.push(Group {
                name: name(i),
                rolls: vec![row.roll],
                key: k,
            }),
        }
    }
    out
}

pub fn skill_groups(rules: &IronsidesRules) -> Vec<Group<SkillKey>> {
    let g = &rules.generalship;
    group(
        rules,
        |i| g[i].skill.clone(),
        |i| (g[i].lp_modifier, g[i].radius),
    )
}

pub fn morale_groups(rules: &IronsidesRules) -> Vec<Group<MoraleKey>> {
    let g = &rules.generalship;
    group(
        rules,
        |i| g[i].morale.clone(),
        |i| (g[i].rerolls, g[i].enemy_rerolls),
    )
}

/// The distribution of ratings from [`roll_generalship`] with `skill_modifier`, enumerated.
pub fn ratings(rules: &IronsidesRules, skill_modifier: i8) -> Dist<CommanderRating> {
    enumerate(MAX_DICE, |d| roll_generalship(rules, d, skill_modifier)).exact()
}

/// P(each skill group), in group order, for a skill roll with `skill_modifier`.
pub fn skill_distribution(rules: &IronsidesRules, skill_modifier: i8) -> Vec<Prob> {
    let d = ratings(rules, skill_modifier);
    skill_groups(rules)
        .iter()
        .map(|g| d.p_where(|r| (r.lp_modifier, r.radius) == g.key))
        .collect()
}

/// P(each morale group), in group order.
pub fn morale_distribution(rules: &IronsidesRules) -> Vec<Prob> {
    let d = ratings(rules, 0);
    morale_groups(rules)
        .iter()
        .map(|g| d.p_where(|r| (r.rerolls, r.enemy_rerolls) == g.key))
        .collect()
}

/// A name as a CSV identifier: `Fair Man` -> `fair_man`, `A / B` -> `a_b`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

fn rolls_text(rolls: &[u8]) -> String {
    match (rolls.first(), rolls.last()) {
        (Some(a), Some(b)) if a != b && usize::from(b - a) + 1 == rolls.len() => format!("{a}-{b}"),
        _ => rolls
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// "This or better" from worst-first probabilities.
fn or_better(ps: &[Prob]) -> Vec<Prob> {
    at_least(ps)
}

/// The skill roll modifiers worth a column: none, the Commissary General's option and a
/// replacement's, merged when equal.
fn skill_modifiers(rules: &IronsidesRules) -> Vec<(i8, String)> {
    let mut out: Vec<(i8, String)> = vec![(0, "D6".into())];
    for (m, who) in [
        (
            rules.options.commissary_general_skill_modifier,
            "Commissary General",
        ),
        (
            rules.generals.replacement_skill_roll_modifier,
            "replacement",
        ),
    ] {
        if m == 0 {
            continue;
        }
        match out.iter_mut().find(|e| e.0 == m) {
            Some(e) => e.1 = format!("{}, {who}", e.1),
            None => out.push((m, format!("D6 {}: {who}", signed(m)))),
        }
    }
    out
}

/// The exact odds of a commander's skill and morale rolls.
pub fn generalship_table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("aspect"),
        key("roll_modifier"),
        key("name"),
        key("rolls"),
        key("lp_modifier"),
        key("radius"),
        key("rerolls"),
        key("enemy_rerolls"),
        prob("p"),
        prob("p_this_or_better"),
    ]);
    let gs = skill_grid(rules, &mut tidy);
    let gm = morale_grid(rules, &mut tidy);
    Table {
        id: "generalship",
        title: "Generalship".into(),
        about: vec![
            "A commander rolls one D6 for skill (his LP modifier and command radius) and one for morale (his re-rolls per turn). \
             Rows with the same effect are merged. `≥ this` is the chance of this row or a better one (a higher roll)."
                .into(),
            "A modified skill roll below 1 reads the first row and above 6 the last. The Commissary General's -1 is an option of the ruleset; \
             a replacement general always takes 1 off."
                .into(),
        ],
        tidy,
        grids: vec![gs, gm],
    }
}

/// The skill roll's grid, a column pair for each modifier, its rows added to `tidy`.
fn skill_grid(rules: &IronsidesRules, tidy: &mut Tidy) -> Grid {
    let skills = skill_groups(rules);
    let mods = skill_modifiers(rules);
    let mut header = vec![
        "skill".to_string(),
        "D6".into(),
        "LPs".into(),
        "radius".into(),
    ];
    for (_, label) in &mods {
        header.push(label.clone());
        header.push(format!(
            "≥ this ({})",
            label.split(':').next().unwrap_or(label)
        ));
    }
    let mut gs = Grid::new("Skill", header).labels(4);
    let dists: Vec<(Vec<Prob>, Vec<Prob>)> = mods
        .iter()
        .map(|(m, _)| {
            let d = skill_distribution(rules, *m);
            let c = or_better(&d);
            (d, c)
        })
        .collect();
    for (i, g) in skills.iter().enumerate() {
        let mut row = vec![
            Cell::text(g.name.clone()),
            Cell::text(rolls_text(&g.rolls)),
            Cell::text(signed(g.key.0)),
            Cell::text(format!("{}\"", g.key.1)),
        ];
        for ((m, _), (d, c)) in mods.iter().zip(&dists) {
            row.push(Cell::P(d[i]));
            row.push(Cell::P(c[i]));
            tidy.push(vec![
                Cell::text("skill"),
                Cell::int(*m),
                Cell::text(slug(&g.name)),
                Cell::text(rolls_text(&g.rolls).replace(", ", ";")),
                Cell::int(g.key.0),
                Cell::text(g.key.1.to_string()),
                Cell::Empty,
                Cell::Empty,
                Cell::P(d[i]),
                Cell::P(c[i]),
            ]);
        }
        gs.push(row);
    }
    gs
}

/// The morale roll's grid, its rows added to `tidy`.
fn morale_grid(rules: &IronsidesRules, tidy: &mut Tidy) -> Grid {
    let morale = morale_groups(rules);
    let md = morale_distribution(rules);
    let mc = or_better(&md);
    let mut gm = Grid::new(
        "Morale",
        vec![
            "morale".into(),
            "D6".into(),
            "re-rolls".into(),
            "enemy re-rolls".into(),
            "D6".into(),
            "≥ this".into(),
        ],
    )
    .labels(4);
    for (i, g) in morale.iter().enumerate() {
        gm.push(vec![
            Cell::text(g.name.clone()),
            Cell::text(rolls_text(&g.rolls)),
            Cell::int(g.key.0),
            Cell::int(g.key.1),
            Cell::P(md[i]),
            Cell::P(mc[i]),
        ]);
        tidy.push(vec![
            Cell::text("morale"),
            Cell::int(0),
            Cell::text(slug(&g.name)),
            Cell::text(rolls_text(&g.rolls).replace(", ", ";")),
            Cell::Empty,
            Cell::Empty,
            Cell::int(g.key.0),
            Cell::int(g.key.1),
            Cell::P(md[i]),
            Cell::P(mc[i]),
        ]);
    }
    gm
}

/// The LP modifiers worth a row, each with who has it: the generalship rows, the average
/// commander and the named commanders.
pub fn lp_modifiers(rules: &IronsidesRules) -> Vec<(i8, Vec<String>)> {
    let mut out: Vec<(i8, Vec<String>)> = Vec::new();
    let mut add = |m: i8, who: String| match out.iter_mut().find(|e| e.0 == m) {
        Some(e) => {
            if !e.1.contains(&who) {
                e.1.push(who)
            }
        }
        None => out.push((m, vec![who])),
    };
    for row in &rules.generalship {
        add(row.lp_modifier, row.skill.clone());
    }
    add(
        rules.average_commander.lp_modifier,
        "average commander".into(),
    );
    for c in &rules.named_commander {
        add(c.lp_modifier, c.name.clone());
    }
    out.sort_by_key(|e| e.0);
    out
}

/// P(a command has exactly k LPs), k = 0..=the cap, from its commander's roll with
/// `lp_modifier` and nothing given by the Captain-General: [`roll_lps`] then [`command_lps`].
pub fn lps_distribution(rules: &IronsidesRules, lp_modifier: i8) -> Vec<Prob> {
    let d = enumerate(MAX_DICE, |dd| {
        command_lps(rules, roll_lps(dd, lp_modifier).1, 0)
    })
    .exact();
    (0..=rules.options.lp_cap).map(|k| d.p(&k)).collect()
}

pub fn lps_table(rules: &IronsidesRules) -> Table {
    let cap = rules.options.lp_cap;
    let mut tidy = Tidy::new(vec![
        key("lp_modifier"),
        key("lps"),
        prob("p"),
        prob("p_at_least"),
    ]);
    let mut header = vec!["modifier".to_string(), "who".into()];
    header.extend((0..=cap).map(|k| format!("{k} LP")));
    header.extend((1..=cap).map(|k| format!("≥{k}")));
    let mut g = Grid::new(
        "LPs a command has from its own roll: exactly k, then at least k",
        header,
    )
    .labels(2);
    for (m, who) in lp_modifiers(rules) {
        let d = lps_distribution(rules, m);
        let c = at_least(&d);
        for k in 0..=cap {
            let i = usize::from(k);
            tidy.push(vec![
                Cell::int(m),
                Cell::int(k),
                Cell::P(d[i]),
                Cell::P(c[i]),
            ]);
        }
        let mut row = vec![
            Cell::text(format!("D6 {}", signed(m))),
            Cell::text(who.join(", ")),
        ];
        row.extend(d.iter().map(|&p| Cell::P(p)));
        row.extend(c.iter().skip(1).map(|&p| Cell::P(p)));
        g.push(row);
    }
    Table {
        id: "leadership_points",
        title: "Leadership points".into(),
        about: vec![format!(
            "Each commander rolls D6 plus his skill's LP modifier for his command's LPs each turn, never below 0 and never more than {cap} a command \
             (LPs given by the Captain-General count towards the cap). Unused LPs are lost."
        )],
        tidy,
        grids: vec![g],
    }
}

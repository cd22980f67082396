//! Pursuit: the chance that victorious horse fails its halt test and pursues.

use super::exact::enumerate;
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob};
use crate::army::{HorseKind, Side, Unit, UnitKind};
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::pursuit::{halt_dice, halt_test};

/// P(horse of `kind` at `cv` fails to halt, so pursues), by enumerating [`halt_test`].
pub fn pursue_chance(rules: &IronsidesRules, kind: HorseKind, cv: u8) -> Prob {
    let u = Unit::new(0, Side::Royalist, 0, UnitKind::Horse(kind), cv);
    enumerate(MAX_DICE, |d| !halt_test(rules, d, &u).1)
        .exact()
        .p(&true)
}

/// The kinds of horse shown: (identifier, label, kind).
pub const KINDS: [(&str, &str, HorseKind); 3] = [
    ("trotters", "trotters", HorseKind::Trotters),
    ("gallopers", "gallopers", HorseKind::Gallopers),
    ("cuirassiers", "cuirassiers", HorseKind::Cuirassiers),
];

pub fn table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("horse"),
        key("halt_dice"),
        key("cv"),
        prob("p_pursue"),
        prob("p_halt"),
    ]);
    let dice = |k: HorseKind| {
        halt_dice(
            rules,
            &Unit::new(0, Side::Royalist, 0, UnitKind::Horse(k), 1),
        )
    };
    let mut header = vec!["CV".to_string()];
    for (_, label, k) in KINDS {
        header.push(format!("{label} ({}D6 ≤ CV halts)", dice(k)));
    }
    let mut g = Grid::new("Chance to pursue (fail the halt test)", header);
    for cv in 1..=rules.limits.cv_max {
        let mut row = vec![Cell::int(cv)];
        for (id, _, k) in KINDS {
            let p = pursue_chance(rules, k, cv);
            tidy.push(vec![
                Cell::text(id),
                Cell::int(dice(k)),
                Cell::int(cv),
                Cell::P(p),
                Cell::P(p.complement()),
            ]);
            row.push(Cell::P(p));
        }
        g.push(row);
    }
    let p = &rules.pursuit;
    Table {
        id: "pursuit",
        title: "Pursuit".into(),
        about: vec![format!(
            "Victorious horse pursues unless it halts: trotters (pistoleers too) roll {}D6, gallopers {}D6 summed, cuirassiers {}D6, and halt if the total is no more than the current CV and no die shows a natural 6. \
             A pursuer moves D6 x {}\" toward the beaten foe and loses {} CV; it takes the same test at each later rally phase, losing another CV each time it fails. \
             The chance to halt is 1 minus the chance shown.",
            p.trotter_halt_dice,
            p.galloper_halt_dice,
            p.cuirassier_halt_dice,
            p.move_per_pip,
            p.cv_loss
        )],
        tidy,
        grids: vec![g],
    }
}

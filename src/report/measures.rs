//! `measures.csv`: a ruleset's own measures ([`Layout::measures`]), in its own currency, for
//! every unit, command and side, in the same tidy shape as the other files. Each ruleset's
//! document defines its measures (Dickenson's: `docs/RULES-DICKENSON.md`).

use super::tidy::{Tidy, Who};
use crate::army::Side;
use crate::stats::{EntityTally, Layout, Report, Tally};

/// `measures.csv`, when the ruleset declares measures: for each, per unit, command and side,
/// a total per battle as `<name>` summarised (`<name>_mean` with its 95% interval, `_sd`,
/// quantiles), or a happening as `p_<name>`, the share of battles in which it happened (a
/// command's happening, such as a brigade's break, for commands and sides only).
pub fn measures(layout: &Layout, t: &Tally) -> Option<Vec<u8>> {
    if layout.measures.is_empty() {
        return None;
    }
    let mut out = Tidy::new();
    let write = |out: &mut Tidy, who: &Who, e: &EntityTally, unit: bool| {
        for (m, h) in layout.measures.iter().zip(&e.own) {
            if unit && !m.report.per_unit() {
                continue;
            }
            match m.report {
                Report::Total => out.summary(who, &m.name, h),
                Report::Happened | Report::CommandHappened => {
                    out.proportion(who, &m.figure_name(), h.nonzero(), t.battles);
                }
            }
        }
    };
    for (i, (u, e)) in layout.units.iter().zip(&t.units).enumerate() {
        write(
            &mut out,
            &Who::new("unit", i, &u.name, Some(u.side)),
            e,
            true,
        );
    }
    for (i, (c, e)) in layout.commands.iter().zip(&t.commands).enumerate() {
        if !c.units.is_empty() {
            write(
                &mut out,
                &Who::new("command", i, &c.name, Some(c.side)),
                e,
                false,
            );
        }
    }
    for side in Side::BOTH {
        let who = Who::new("side", side.name(), side.name(), Some(side));
        write(&mut out, &who, &t.sides[side.index()], false);
    }
    Some(out.finish())
}

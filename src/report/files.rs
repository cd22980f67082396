//! The statistics files of a run, each rendered in memory from the layout and the tally.
//! `docs/CLUSTER.md` and the README describe how to read them; the measures are defined here.

use super::tidy::{Tidy, Who};
use crate::army::Side;
use crate::stats::{EntityTally, GENERAL_RESULTS, Layout, Tally};

/// `outcomes.csv`.
///
/// * side: `p_win`, `p_draw`, `p_loss`, `p_army_broke` (its army reached its break point).
/// * battle: `battle_length_turns` (distribution and summary) and `break_margin_<currency>`
///   (`break_margin_cv` under Ironsides): in each battle won, the loser's losses minus the
///   winner's at the end, in the ruleset's currency (destroyed and departed units count their
///   whole start, as the army-break rule counts them).
pub fn outcomes(layout: &Layout, t: &Tally) -> Vec<u8> {
    let mut out = Tidy::new();
    for side in Side::BOTH {
        let who = Who::new("side", side.name(), side.name(), Some(side));
        let s = side.index();
        out.proportion(&who, "p_win", t.wins[s], t.battles);
        out.proportion(&who, "p_draw", t.draws, t.battles);
        out.proportion(&who, "p_loss", t.wins[1 - s], t.battles);
        out.proportion(&who, "p_army_broke", t.sides[s].ended_broken, t.battles);
    }
    let who = Who::new("battle", "", &layout.scenario, None);
    out.distribution_and_summary(&who, "battle_length_turns", &t.turns);
    let margin = format!("break_margin_{}", layout.currency);
    out.distribution_and_summary(&who, &margin, &t.margin);
    out.finish()
}

/// `<currency>_losses.csv` (`cv_losses.csv` under Ironsides, `casualties_losses.csv` under
/// Black Powder, `figures_losses.csv` under Dickenson): for every unit, command and side:
///
/// * `<currency>_lost`: distribution and summary of the losses per battle in the ruleset's
///   currency (Ironsides: start CV minus the CV at the end; a unit destroyed, routed or
///   retreated off the table, or lost to pursuit, counts its whole start).
/// * `p_destroyed`: the unit (every unit of the command or side) was destroyed (CV 0), left
///   the table, or was lost to pursuit.
/// * `p_routed`: the unit (any unit of the group) routed at least once.
/// * `p_ended_broken`: unit, it ended the battle broken (routed, and neither regained a CV nor
///   spent a whole turn out of contact since: the engine's `Recovered` event), still on the table;
///   command, every unit ended so or was destroyed (under Black Powder a brigade breaks sooner:
///   `measures.csv`'s `p_brigade_broken`); side, its army broke.
/// * `units_destroyed` (commands and sides): distribution and summary of units destroyed.
pub fn losses(layout: &Layout, t: &Tally) -> Vec<u8> {
    let mut out = Tidy::new();
    let lost = layout.measure("lost");
    let write = |out: &mut Tidy, who: &Who, e: &EntityTally, group: bool| {
        out.distribution_and_summary(who, &lost, &e.cv_lost);
        out.proportion(who, "p_destroyed", e.destroyed, t.battles);
        out.proportion(who, "p_routed", e.routed, t.battles);
        out.proportion(who, "p_ended_broken", e.ended_broken, t.battles);
        if group {
            out.distribution_and_summary(who, "units_destroyed", &e.units_destroyed);
        }
    };
    for (i, (u, e)) in layout.units.iter().zip(&t.units).enumerate() {
        write(
            &mut out,
            &Who::new("unit", i, &u.name, Some(u.side)),
            e,
            false,
        );
    }
    for (i, (c, e)) in layout.commands.iter().zip(&t.commands).enumerate() {
        if has_units(layout, i, |_| true) {
            write(
                &mut out,
                &Who::new("command", i, &c.name, Some(c.side)),
                e,
                true,
            );
        }
    }
    for side in Side::BOTH {
        let who = Who::new("side", side.name(), side.name(), Some(side));
        write(&mut out, &who, &t.sides[side.index()], true);
    }
    out.finish()
}

fn has_units(layout: &Layout, command: usize, f: impl Fn(&crate::stats::UnitInfo) -> bool) -> bool {
    layout
        .units
        .iter()
        .any(|u| usize::from(u.command) == command && f(u))
}

/// `pursuits.csv`: for every horse unit, every command with horse, and each side's horse:
///
/// * `p_won_melee`: won at least one melee in the battle.
/// * `p_pursued_given_won`: of the battles with a melee won, those with a pursuit.
/// * `p_halted_first_test`: of the halt tests taken straight after a melee won, those passed
///   (the victors halted and did not pursue).
/// * `pursuit_length_turns`: turns each pursuit lasted as the engine counts them (1 for a
///   pursuit halted at its first rally phase); pursuits cut short by a rout or by the end of
///   the battle count the turns pursued until then.
/// * `p_lost_in_pursuit_or_off_table`: a pursuer was lost to its pursuit (CV 0 or off the
///   table) in the battle.
/// * `p_took_camp`: it captured the enemy camp.
///
/// Group rows count a battle when any of its horse did the thing.
pub fn pursuits(layout: &Layout, t: &Tally) -> Vec<u8> {
    let mut out = Tidy::new();
    let write = |out: &mut Tidy, who: &Who, e: &EntityTally| {
        out.proportion(who, "p_won_melee", e.melee_won, t.battles);
        out.proportion(who, "p_pursued_given_won", e.pursued_after_win, e.melee_won);
        out.proportion(
            who,
            "p_halted_first_test",
            e.halted_first,
            e.first_halt_tests,
        );
        out.ratio(who, "pursuits_per_battle", e.pursuits, t.battles);
        out.distribution_and_summary(who, "pursuit_length_turns", &e.pursuit_turns);
        out.proportion(
            who,
            "p_lost_in_pursuit_or_off_table",
            e.lost_in_pursuit,
            t.battles,
        );
        out.proportion(who, "p_took_camp", e.camp_taken, t.battles);
    };
    for (i, (u, e)) in layout.units.iter().zip(&t.units).enumerate() {
        if u.cavalry {
            write(&mut out, &Who::new("unit", i, &u.name, Some(u.side)), e);
        }
    }
    for (i, (c, e)) in layout.commands.iter().zip(&t.commands).enumerate() {
        if has_units(layout, i, |u| u.cavalry) {
            write(&mut out, &Who::new("command", i, &c.name, Some(c.side)), e);
        }
    }
    for side in Side::BOTH {
        if layout.units.iter().any(|u| u.cavalry && u.side == side) {
            let who = Who::new("side", side.name(), side.name(), Some(side));
            write(&mut out, &who, &t.sides[side.index()]);
        }
    }
    out.finish()
}

/// `commanders.csv`: for every commander (the post: a replacement carries on under the same
/// id):
///
/// * `p_casualty`: he rolled on the casualty tables at least once.
/// * `p_<result>`: each result of the casualty tables at least once: rider (`horrible_death`,
///   `mortal_wound`, `gravely_wounded`, `hurt`, `unhurt`, `saved`), horse (`horse_falls`,
///   `horse_stampedes`, `horse_dies`, `horse_bleeds`), and `lost` under the easy rule.
/// * `p_captured`; `p_lost_to_battle`: killed, dying, carried off, captured or lost.
/// * `casualties_per_battle`: rolls on the tables per battle.
/// * `turns_out_of_action`: per battle, the turns from a casualty that took him out of the
///   battle to his replacement taking post (or the end), plus the turns of a stampede.
pub fn commanders(layout: &Layout, t: &Tally) -> Vec<u8> {
    let mut out = Tidy::new();
    for (i, (c, e)) in layout.commanders.iter().zip(&t.commanders).enumerate() {
        let who = Who::new("commander", i, &c.name, Some(c.side));
        out.proportion(&who, "p_casualty", e.casualty, t.battles);
        for (k, (_, name)) in GENERAL_RESULTS.iter().enumerate() {
            out.proportion(&who, &format!("p_{name}"), e.results[k], t.battles);
        }
        out.proportion(&who, "p_captured", e.captured, t.battles);
        out.proportion(&who, "p_lost_to_battle", e.lost, t.battles);
        out.ratio(&who, "casualties_per_battle", e.casualties, t.battles);
        out.distribution_and_summary(&who, "turns_out_of_action", &e.turns_out);
    }
    out.finish()
}

/// `ratings.csv`, when any unit's CV is rolled per battle: for each such unit, `rolled_cv`
/// (distribution and summary) and `p_side_win_given_cv`: for each CV rolled, the share of
/// those battles its side won.
pub fn ratings(layout: &Layout, t: &Tally) -> Option<Vec<u8>> {
    if !layout.any_randomised() {
        return None;
    }
    let mut out = Tidy::new();
    for (i, (u, r)) in layout.units.iter().zip(&t.ratings).enumerate() {
        if !u.randomised {
            continue;
        }
        let who = Who::new("unit", i, &u.name, Some(u.side));
        out.distribution_and_summary(&who, "rolled_cv", &r.rolled);
        for (cv, n) in r.rolled.iter() {
            out.proportion_for_value(&who, "p_side_win_given_cv", cv, r.side_won.count(cv), n);
        }
    }
    Some(out.finish())
}

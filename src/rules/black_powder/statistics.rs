//! Black Powder's statistics in its own terms: command rolls by the share of a move they gave,
//! moves on initiative, volleys (closing fire among them) and what they did, melee casualties
//! dealt, charges and how many went home, shaken, disordered, break tests and their results,
//! hedgehogs, pike blocks in the way, commanders joining, and brigades broken. Declared here
//! and counted from the engine's [`Detail`] events; the collector sums them by unit, command
//! and side (`measures.csv`).

use super::command::Band;
use super::events::{ChargeBy, Detail};
use super::morale::BreakResult;
use crate::events::Event;
use crate::stats::{Counter, Counts, Measures, Report};

/// Each measure's index in [`MEASURES`].
pub mod measure {
    pub const ORDERS: usize = 0;
    /// Over, equal, under the rating (50%, 100%, 150% of a move): in [`super::Band::ALL`]
    /// order from here.
    pub const ORDERS_50: usize = 1;
    pub const INITIATIVE_MOVES: usize = 4;
    pub const VOLLEYS: usize = 5;
    pub const CLOSING_VOLLEYS: usize = 6;
    pub const VOLLEY_HITS: usize = 7;
    pub const VOLLEY_CASUALTIES: usize = 8;
    pub const MELEE_CASUALTIES: usize = 9;
    pub const CHARGES: usize = 10;
    pub const CHARGES_HOME: usize = 11;
    pub const INITIATIVE_CHARGES: usize = 12;
    pub const SWEEP_CHARGES: usize = 13;
    pub const SHAKEN: usize = 14;
    pub const DISORDERED: usize = 15;
    pub const BREAK_TESTS: usize = 16;
    pub const RETIRED: usize = 17;
    pub const BROKE: usize = 18;
    pub const HEDGEHOGS: usize = 19;
    pub const PIKE_BLOCKED: usize = 20;
    pub const COMMANDERS_JOINED: usize = 21;
    pub const BRIGADE_BROKEN: usize = 22;
}

/// The measures, in the order of [`measure`]; `docs/RULES-BLACK-POWDER.md` defines each.
pub const MEASURES: Measures = Measures {
    declared: &[
        ("orders", Report::Total),
        ("orders_50pct", Report::Total),
        ("orders_100pct", Report::Total),
        ("orders_150pct", Report::Total),
        ("initiative_moves", Report::Total),
        ("volleys_fired", Report::Total),
        ("closing_volleys", Report::Total),
        ("volley_hits", Report::Total),
        ("volley_casualties", Report::Total),
        ("melee_casualties", Report::Total),
        ("charges", Report::Total),
        ("charges_home", Report::Total),
        ("initiative_charges", Report::Total),
        ("sweep_charges", Report::Total),
        ("shaken", Report::Happened),
        ("disordered", Report::Happened),
        ("break_tests", Report::Total),
        ("retired", Report::Happened),
        ("broke", Report::Happened),
        ("hedgehogs_formed", Report::Total),
        ("pike_blocked", Report::Happened),
        ("commanders_joined", Report::Total),
        ("brigade_broken", Report::CommandHappened),
    ],
    counter: Counter { wants, count },
};

fn wants(e: &Event) -> bool {
    matches!(e, Event::BlackPowder(_))
}

/// What one event adds, to the regiment it is about: the one ordered, firing, charging,
/// striking, shaken or tested; a brigade's break to its first regiment, so to its command.
fn count(e: &Event, c: &mut Counts) {
    use measure::*;
    let Event::BlackPowder(d) = *e else {
        return;
    };
    match d {
        Detail::Order { unit, band, .. } => {
            c.add(unit, ORDERS, 1);
            let k = Band::ALL.iter().position(|&b| b == band).unwrap_or(0);
            c.add(unit, ORDERS_50 + k, 1);
        }
        Detail::Initiative { unit } => c.add(unit, INITIATIVE_MOVES, 1),
        Detail::Volley {
            unit,
            hits,
            casualties,
            closing,
            ..
        } => {
            c.add(unit, VOLLEYS, 1);
            c.add(unit, CLOSING_VOLLEYS, u32::from(closing));
            c.add(unit, VOLLEY_HITS, u32::from(hits));
            c.add(unit, VOLLEY_CASUALTIES, u32::from(casualties));
        }
        Detail::MeleeRound {
            a,
            b,
            a_casualties,
            b_casualties,
            ..
        } => {
            c.add(a, MELEE_CASUALTIES, u32::from(a_casualties));
            c.add(b, MELEE_CASUALTIES, u32::from(b_casualties));
        }
        Detail::Charge { unit, home, by, .. } => {
            c.add(unit, CHARGES, 1);
            c.add(unit, CHARGES_HOME, u32::from(home));
            match by {
                ChargeBy::Initiative => c.add(unit, INITIATIVE_CHARGES, 1),
                ChargeBy::Sweep => c.add(unit, SWEEP_CHARGES, 1),
                ChargeBy::Order => {}
            }
        }
        Detail::Shaken { unit } => c.add(unit, SHAKEN, 1),
        Detail::Disordered { unit } => c.add(unit, DISORDERED, 1),
        Detail::BreakTest { unit, result, .. } => {
            c.add(unit, BREAK_TESTS, 1);
            match result {
                BreakResult::Retire => c.add(unit, RETIRED, 1),
                BreakResult::Broken => c.add(unit, BROKE, 1),
                BreakResult::Hold => {}
            }
        }
        Detail::Hedgehog { unit, formed, .. } => c.add(unit, HEDGEHOGS, u32::from(formed)),
        Detail::PikeBlocked { unit, .. } => c.add(unit, PIKE_BLOCKED, 1),
        Detail::CommanderJoined { unit } => c.add(unit, COMMANDERS_JOINED, 1),
        Detail::BrigadeBroken { unit, broken, .. } => {
            c.add(unit, BRIGADE_BROKEN, u32::from(broken));
        }
        Detail::DisorderCleared { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(d: Detail) -> Vec<(usize, usize, u32)> {
        let mut c = Counts::default();
        count(&Event::BlackPowder(d), &mut c);
        c.iter().collect()
    }

    #[test]
    fn the_measures_are_declared_in_the_order_of_their_indices() {
        use measure::*;
        let name = |k: usize| MEASURES.declared[k].0;
        assert_eq!(name(ORDERS), "orders");
        for (k, share) in ["50", "100", "150"].iter().enumerate() {
            assert_eq!(name(ORDERS_50 + k), format!("orders_{share}pct"));
        }
        assert_eq!(name(INITIATIVE_MOVES), "initiative_moves");
        assert_eq!(name(VOLLEYS), "volleys_fired");
        assert_eq!(name(CLOSING_VOLLEYS), "closing_volleys");
        assert_eq!(name(VOLLEY_HITS), "volley_hits");
        assert_eq!(name(VOLLEY_CASUALTIES), "volley_casualties");
        assert_eq!(name(MELEE_CASUALTIES), "melee_casualties");
        assert_eq!(name(CHARGES), "charges");
        assert_eq!(name(CHARGES_HOME), "charges_home");
        assert_eq!(name(INITIATIVE_CHARGES), "initiative_charges");
        assert_eq!(name(SWEEP_CHARGES), "sweep_charges");
        assert_eq!(name(SHAKEN), "shaken");
        assert_eq!(name(DISORDERED), "disordered");
        assert_eq!(name(BREAK_TESTS), "break_tests");
        assert_eq!(name(RETIRED), "retired");
        assert_eq!(name(BROKE), "broke");
        assert_eq!(name(HEDGEHOGS), "hedgehogs_formed");
        assert_eq!(name(PIKE_BLOCKED), "pike_blocked");
        assert_eq!(name(COMMANDERS_JOINED), "commanders_joined");
        assert_eq!(name(BRIGADE_BROKEN), "brigade_broken");
        assert_eq!(MEASURES.declared.len(), BRIGADE_BROKEN + 1);
        // Only a brigade's break is about a command rather than the regiment named.
        for (k, &(_, report)) in MEASURES.declared.iter().enumerate() {
            assert_eq!(report == Report::CommandHappened, k == BRIGADE_BROKEN);
        }
    }

    /// A command roll counts once to the regiment ordered, and once to its band.
    #[test]
    fn an_order_counts_to_the_regiment_and_its_band() {
        use measure::*;
        for (k, band) in Band::ALL.into_iter().enumerate() {
            let got = counted(Detail::Order {
                unit: 4,
                brigade: true,
                roll: 7,
                rating: 8,
                band,
            });
            assert_eq!(got, vec![(4, ORDERS, 1), (4, ORDERS_50 + k, 1)]);
        }
    }

    /// A volley's hits and casualties go to the firer; closing fire is counted as well.
    #[test]
    fn a_volley_counts_to_the_firer() {
        use measure::*;
        let volley = |closing| Detail::Volley {
            unit: 2,
            target: 9,
            dice: 3,
            modifier: 0,
            hits: 3,
            casualties: 1,
            closing,
        };
        assert_eq!(
            counted(volley(true)),
            vec![
                (2, VOLLEYS, 1),
                (2, CLOSING_VOLLEYS, 1),
                (2, VOLLEY_HITS, 3),
                (2, VOLLEY_CASUALTIES, 1)
            ]
        );
        assert_eq!(
            counted(volley(false)),
            vec![
                (2, VOLLEYS, 1),
                (2, VOLLEY_HITS, 3),
                (2, VOLLEY_CASUALTIES, 1)
            ]
        );
    }

    /// A charge counts to the charger, home or not, and as moved by initiative or a sweeping
    /// advance when it was (an ordered charge is the rest).
    #[test]
    fn a_charge_counts_what_moved_it() {
        use measure::*;
        let charge = |home, by| Detail::Charge {
            unit: 3,
            target: 8,
            home,
            by,
        };
        assert_eq!(
            counted(charge(true, ChargeBy::Order)),
            vec![(3, CHARGES, 1), (3, CHARGES_HOME, 1)]
        );
        assert_eq!(
            counted(charge(false, ChargeBy::Initiative)),
            vec![(3, CHARGES, 1), (3, INITIATIVE_CHARGES, 1)]
        );
        assert_eq!(
            counted(charge(true, ChargeBy::Sweep)),
            vec![(3, CHARGES, 1), (3, CHARGES_HOME, 1), (3, SWEEP_CHARGES, 1)]
        );
    }

    /// Each side of a melee round is credited with the casualties it caused.
    #[test]
    fn a_melee_round_credits_each_striker() {
        let got = counted(Detail::MeleeRound {
            a: 1,
            b: 6,
            a_casualties: 4,
            b_casualties: 2,
            a_score: 7,
            b_score: 3,
        });
        use measure::MELEE_CASUALTIES;
        assert_eq!(
            got,
            vec![(1, MELEE_CASUALTIES, 4), (6, MELEE_CASUALTIES, 2)]
        );
    }

    /// A break test counts as taken, and by its result: held counts nowhere else.
    #[test]
    fn a_break_test_counts_by_its_result() {
        use measure::*;
        let test = |result| Detail::BreakTest {
            unit: 3,
            roll: 5,
            penalty: 1,
            result,
            free: false,
        };
        assert_eq!(
            counted(test(BreakResult::Broken)),
            vec![(3, BREAK_TESTS, 1), (3, BROKE, 1)]
        );
        assert_eq!(
            counted(test(BreakResult::Retire)),
            vec![(3, BREAK_TESTS, 1), (3, RETIRED, 1)]
        );
        assert_eq!(counted(test(BreakResult::Hold)), vec![(3, BREAK_TESTS, 1)]);
    }

    /// A brigade that breaks counts to its first regiment (so to its command); one that
    /// mends counts nowhere; a hedgehog only when formed.
    #[test]
    fn a_brigade_counts_when_it_breaks_not_when_it_mends() {
        let brigade = |broken| Detail::BrigadeBroken {
            unit: 5,
            command: 2,
            broken,
            out: 2,
            of: 3,
            army_out: 1,
            army_of: 4,
        };
        use measure::*;
        assert_eq!(counted(brigade(true)), vec![(5, BRIGADE_BROKEN, 1)]);
        assert_eq!(counted(brigade(false)), vec![]);
        let hedgehog = |formed| Detail::Hedgehog {
            unit: 8,
            formed,
            roll: None,
        };
        assert_eq!(counted(hedgehog(true)), vec![(8, HEDGEHOGS, 1)]);
        assert_eq!(counted(hedgehog(false)), vec![]);
    }
}

//! Dickenson's statistics in its own currency: figures lost by type (a limbered gun's team
//! too), officers and standards, commanders hit with a regiment, morale points, volleys, guns'
//! shots and melee and the casualties each dealt, where shots fell, powder out or blown up,
//! falls back and routs on the chart. Declared here and counted from the engine's
//! [`Detail`] events; the collector sums them by unit, command and side (`measures.csv`).

use super::events::{Detail, Fall, Source};
use super::morale::MoraleResult;
use crate::events::Event;
use crate::stats::{Counter, Counts, Measures, Report};

/// Each measure's index in [`MEASURES`].
pub mod measure {
    pub const PIKEMEN_LOST: usize = 0;
    pub const MUSKETEERS_LOST: usize = 1;
    pub const HORSEMEN_LOST: usize = 2;
    pub const GUNNERS_LOST: usize = 3;
    pub const OFFICERS_LOST: usize = 4;
    pub const STANDARDS_LOST: usize = 5;
    pub const MORALE_POINTS_LOST: usize = 6;
    pub const VOLLEYS: usize = 7;
    pub const VOLLEY_HITS: usize = 8;
    pub const VOLLEY_CASUALTIES: usize = 9;
    pub const GUN_SHOTS: usize = 10;
    /// On target, short, over, wide: in [`super::Fall::ALL`] order from here.
    pub const SHOTS_ON_TARGET: usize = 11;
    pub const GUN_CASUALTIES: usize = 15;
    pub const FELL_BACK: usize = 16;
    pub const ROUTED: usize = 17;
    pub const AMMUNITION_EXHAUSTED: usize = 18;
    pub const AMMUNITION_BLOWN_UP: usize = 19;
    pub const MELEE_CASUALTIES: usize = 20;
    pub const COMMANDERS_LOST: usize = 21;
    pub const COMMANDERS_UNHORSED: usize = 22;
    pub const HORSES_LOST: usize = 23;
    pub const DRIVERS_LOST: usize = 24;
    pub const CHARGES_FORESTALLED: usize = 25;
}

/// The measures, in the order of [`measure`]; `docs/RULES-DICKENSON.md` defines each.
pub const MEASURES: Measures = Measures {
    declared: &[
        ("pikemen_lost", Report::Total),
        ("musketeers_lost", Report::Total),
        ("horsemen_lost", Report::Total),
        ("gunners_lost", Report::Total),
        ("officers_lost", Report::Total),
        ("standards_lost", Report::Total),
        ("morale_points_lost", Report::Total),
        ("volleys_fired", Report::Total),
        ("volley_hits", Report::Total),
        ("volley_casualties", Report::Total),
        ("gun_shots", Report::Total),
        ("shots_on_target", Report::Total),
        ("shots_short", Report::Total),
        ("shots_over", Report::Total),
        ("shots_wide", Report::Total),
        ("gun_casualties", Report::Total),
        ("fell_back", Report::Happened),
        ("routed_on_the_chart", Report::Happened),
        ("ammunition_exhausted", Report::Happened),
        ("ammunition_blown_up", Report::Happened),
        ("melee_casualties", Report::Total),
        ("commanders_lost", Report::Total),
        ("commanders_unhorsed", Report::Total),
        ("horses_lost", Report::Total),
        ("drivers_lost", Report::Total),
        ("charges_forestalled", Report::Total),
    ],
    counter: Counter { wants, count },
};

fn wants(e: &Event) -> bool {
    matches!(e, Event::Dickenson(_))
}

/// What one event adds: losses to the regiment that suffered them (and their casualties to
/// the regiment that dealt them), shots and throws to the regiment that made them.
fn count(e: &Event, c: &mut Counts) {
    use measure::*;
    let Event::Dickenson(d) = *e else {
        return;
    };
    match d {
        Detail::Losses {
            unit,
            by,
            source,
            hits,
            saved,
            lost,
            officers,
            standard,
        } => {
            c.add(unit, PIKEMEN_LOST, u32::from(lost.pikemen));
            c.add(unit, MUSKETEERS_LOST, u32::from(lost.musketeers));
            c.add(unit, HORSEMEN_LOST, u32::from(lost.horsemen));
            c.add(unit, GUNNERS_LOST, u32::from(lost.gunners));
            c.add(unit, HORSES_LOST, u32::from(lost.horses));
            c.add(unit, DRIVERS_LOST, u32::from(lost.drivers));
            c.add(unit, OFFICERS_LOST, u32::from(officers));
            c.add(unit, STANDARDS_LOST, u32::from(standard));
            let casualties = u32::from(hits.saturating_sub(saved));
            match source {
                Source::Volley => c.add(by, VOLLEY_CASUALTIES, casualties),
                Source::Gun | Source::Blast => c.add(by, GUN_CASUALTIES, casualties),
                Source::Melee => c.add(by, MELEE_CASUALTIES, casualties),
            }
        }
        Detail::Volley { unit, hits, .. } => {
            c.add(unit, VOLLEYS, 1);
            c.add(unit, VOLLEY_HITS, u32::from(hits));
        }
        Detail::GunShot { unit, fall, .. } => {
            c.add(unit, GUN_SHOTS, 1);
            let k = Fall::ALL.iter().position(|&f| f == fall).unwrap_or(0);
            c.add(unit, SHOTS_ON_TARGET + k, 1);
        }
        Detail::Morale { unit, result, .. } => match result {
            MoraleResult::FallBack => c.add(unit, FELL_BACK, 1),
            MoraleResult::Rout => c.add(unit, ROUTED, 1),
            MoraleResult::Good | MoraleResult::Stand => {}
        },
        Detail::AmmunitionExhausted { unit } => c.add(unit, AMMUNITION_EXHAUSTED, 1),
        Detail::AmmunitionBlown { unit, .. } => c.add(unit, AMMUNITION_BLOWN_UP, 1),
        Detail::PointsLost { unit, points } => c.add(unit, MORALE_POINTS_LOST, u32::from(points)),
        Detail::Pivoted { .. } => {}
        // Generals are not units: each is counted to the regiment he rode with, so to its
        // command and side.
        Detail::CommanderHit { unit, out, .. } => c.add(
            unit,
            if out {
                COMMANDERS_LOST
            } else {
                COMMANDERS_UNHORSED
            },
            1,
        ),
        Detail::FormationThrow { .. } => {}
        Detail::ChargeForestalled { unit, .. } => c.add(unit, CHARGES_FORESTALLED, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dickenson::events::Figures;

    fn counted(d: Detail) -> Vec<(usize, usize, u32)> {
        let mut c = Counts::default();
        count(&Event::Dickenson(d), &mut c);
        c.iter().collect()
    }

    #[test]
    fn the_measures_are_declared_in_the_order_of_their_indices() {
        use measure::*;
        let name = |k: usize| MEASURES.declared[k].0;
        assert_eq!(name(PIKEMEN_LOST), "pikemen_lost");
        assert_eq!(name(GUNNERS_LOST), "gunners_lost");
        assert_eq!(name(MORALE_POINTS_LOST), "morale_points_lost");
        assert_eq!(name(VOLLEY_CASUALTIES), "volley_casualties");
        for (k, fall) in ["on_target", "short", "over", "wide"].iter().enumerate() {
            assert_eq!(name(SHOTS_ON_TARGET + k), format!("shots_{fall}"));
        }
        assert_eq!(name(GUN_CASUALTIES), "gun_casualties");
        assert_eq!(name(FELL_BACK), "fell_back");
        assert_eq!(name(AMMUNITION_BLOWN_UP), "ammunition_blown_up");
        assert_eq!(name(MELEE_CASUALTIES), "melee_casualties");
        assert_eq!(name(COMMANDERS_LOST), "commanders_lost");
        assert_eq!(name(COMMANDERS_UNHORSED), "commanders_unhorsed");
        assert_eq!(name(HORSES_LOST), "horses_lost");
        assert_eq!(name(DRIVERS_LOST), "drivers_lost");
        assert_eq!(name(CHARGES_FORESTALLED), "charges_forestalled");
        assert_eq!(MEASURES.declared.len(), CHARGES_FORESTALLED + 1);
    }

    /// A gun's shot on a regiment: the figures lost by type and the officer to the regiment,
    /// the casualties (hits less saves) to the gun.
    #[test]
    fn losses_count_to_the_victim_and_their_casualties_to_the_firer() {
        let got = counted(Detail::Losses {
            unit: 3,
            by: 7,
            source: Source::Gun,
            hits: 6,
            saved: 2,
            lost: Figures {
                pikemen: 2,
                musketeers: 1,
                ..Figures::default()
            },
            officers: 1,
            standard: false,
        });
        use measure::*;
        assert_eq!(
            got,
            vec![
                (3, PIKEMEN_LOST, 2),
                (3, MUSKETEERS_LOST, 1),
                (3, OFFICERS_LOST, 1),
                (7, GUN_CASUALTIES, 4),
            ]
        );
        let melee = counted(Detail::Losses {
            unit: 3,
            by: 7,
            source: Source::Melee,
            hits: 2,
            saved: 0,
            lost: Figures {
                horsemen: 1,
                ..Figures::default()
            },
            officers: 0,
            standard: true,
        });
        // Melee casualties are credited to the striker.
        assert_eq!(
            melee,
            vec![
                (3, HORSEMEN_LOST, 1),
                (3, STANDARDS_LOST, 1),
                (7, MELEE_CASUALTIES, 2)
            ]
        );
    }

    /// A general hit with a regiment counts to that regiment: lost to the battle or unhorsed.
    #[test]
    fn commanders_hit_count_to_the_regiment_they_rode_with() {
        use crate::events::GeneralResult;
        use measure::*;
        let hit = |result, out| Detail::CommanderHit {
            unit: 4,
            general: 1,
            result,
            out,
        };
        assert_eq!(
            counted(hit(GeneralResult::HorribleDeath, true)),
            vec![(4, COMMANDERS_LOST, 1)]
        );
        assert_eq!(
            counted(hit(GeneralResult::HorseFalls, false)),
            vec![(4, COMMANDERS_UNHORSED, 1)]
        );
    }
}

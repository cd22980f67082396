//! Mergeable tallies: whole-number counts and exact histograms only, so tallies added in any
//! grouping give the same totals, and the same bytes when written.

use serde::{Deserialize, Serialize};

use super::histogram::Histogram;
use super::layout::Layout;
use crate::army::Side;
use crate::error::{Error, Result};
use crate::events::GeneralResult;

/// Every casualty-table result, in the order of the reports, with its identifier.
pub const GENERAL_RESULTS: [(GeneralResult, &str); 11] = [
    (GeneralResult::HorribleDeath, "horrible_death"),
    (GeneralResult::MortalWound, "mortal_wound"),
    (GeneralResult::GravelyWounded, "gravely_wounded"),
    (GeneralResult::Hurt, "hurt"),
    (GeneralResult::Unhurt, "unhurt"),
    (GeneralResult::Saved, "saved"),
    (GeneralResult::HorseFalls, "horse_falls"),
    (GeneralResult::HorseStampedes, "horse_stampedes"),
    (GeneralResult::HorseDies, "horse_dies"),
    (GeneralResult::HorseBleeds, "horse_bleeds"),
    (GeneralResult::Lost, "lost"),
];

/// The index of a result in [`GENERAL_RESULTS`].
pub fn general_result_index(r: GeneralResult) -> usize {
    GENERAL_RESULTS
        .iter()
        .position(|(g, _)| *g == r)
        .expect("every result is listed")
}

/// Counts for one unit, one command or one side, over many battles. "Battles" counts are
/// battles in which the thing happened at least once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityTally {
    /// CV lost per battle: start CV minus the CV at the end, or the whole start CV of a unit
    /// destroyed, routed off or pursued off the table (as the army-break rule counts it).
    pub cv_lost: Histogram,
    /// Units destroyed or departed per battle.
    pub units_destroyed: Histogram,
    /// Battles with at least one rout.
    pub routed: u64,
    /// Battles in which the unit (every unit of the group) was destroyed or departed.
    pub destroyed: u64,
    /// Unit: ended the battle routed and not rallied since, still on the table. Command: every
    /// unit ended so or was destroyed. Side: the army broke.
    pub ended_broken: u64,
    /// Battles with at least one melee won.
    pub melee_won: u64,
    /// Battles with a melee won and at least one pursuit.
    pub pursued_after_win: u64,
    /// Halt tests taken straight after a melee won (the first test of a pursuit).
    pub first_halt_tests: u64,
    /// Of those, the tests passed: the victors halted and never pursued.
    pub halted_first: u64,
    /// Pursuits started (first halt test failed).
    pub pursuits: u64,
    /// Length in turns of each pursuit that ended (halted, lost, or off the table).
    pub pursuit_turns: Histogram,
    /// Battles in which a pursuer was lost to its pursuit or pursued off the table.
    pub lost_in_pursuit: u64,
    /// Battles in which the enemy camp was captured.
    pub camp_taken: u64,
    /// The ruleset's own measures ([`Layout::measures`], in order): each one's total per
    /// battle.
    #[serde(default)]
    pub own: Vec<Histogram>,
}

impl EntityTally {
    fn sized(cv_cap: i64, units: i64, turn_limit: i64, measures: usize) -> EntityTally {
        EntityTally {
            cv_lost: Histogram::with_range(0, cv_cap),
            units_destroyed: Histogram::with_range(0, units),
            pursuit_turns: Histogram::with_range(0, turn_limit),
            // Room for totals up to the CV (figures) it has; larger ones grow it now and then.
            own: vec![Histogram::with_range(0, cv_cap); measures],
            ..EntityTally::default()
        }
    }

    fn merge(&mut self, o: &EntityTally) {
        self.cv_lost.merge(&o.cv_lost);
        self.units_destroyed.merge(&o.units_destroyed);
        self.routed += o.routed;
        self.destroyed += o.destroyed;
        self.ended_broken += o.ended_broken;
        self.melee_won += o.melee_won;
        self.pursued_after_win += o.pursued_after_win;
        self.first_halt_tests += o.first_halt_tests;
        self.halted_first += o.halted_first;
        self.pursuits += o.pursuits;
        self.pursuit_turns.merge(&o.pursuit_turns);
        self.lost_in_pursuit += o.lost_in_pursuit;
        self.camp_taken += o.camp_taken;
        for (a, b) in self.own.iter_mut().zip(&o.own) {
            a.merge(b);
        }
    }
}

/// Counts for one commander over many battles.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommanderTally {
    /// Battles with at least one roll on the casualty tables.
    pub casualty: u64,
    /// Battles with each result at least once, in [`GENERAL_RESULTS`] order.
    pub results: [u64; 11],
    /// Rolls on the casualty tables, all battles.
    pub casualties: u64,
    pub captured: u64,
    /// Battles in which he was lost to the battle (killed, dying, carried off, captured).
    pub lost: u64,
    /// Turns out of action per battle.
    pub turns_out: Histogram,
}

impl CommanderTally {
    fn merge(&mut self, o: &CommanderTally) {
        self.casualty += o.casualty;
        for (a, b) in self.results.iter_mut().zip(&o.results) {
            *a += b;
        }
        self.casualties += o.casualties;
        self.captured += o.captured;
        self.lost += o.lost;
        self.turns_out.merge(&o.turns_out);
    }
}

/// A randomised unit's rolled CV per battle, and its side's wins for each CV.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RatingTally {
    pub rolled: Histogram,
    pub side_won: Histogram,
}

impl RatingTally {
    fn merge(&mut self, o: &RatingTally) {
        self.rolled.merge(&o.rolled);
        self.side_won.merge(&o.side_won);
    }
}

/// Everything counted over a set of battles.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub battles: u64,
    pub dice_rolled: u64,
    /// Wins by side index.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Length of each battle in turns.
    pub turns: Histogram,
    /// In each battle won: CV lost by the loser minus CV lost by the winner, at the end.
    pub margin: Histogram,
    pub units: Vec<EntityTally>,
    pub commands: Vec<EntityTally>,
    pub sides: [EntityTally; 2],
    pub commanders: Vec<CommanderTally>,
    /// One per unit; empty for units whose rating is fixed.
    pub ratings: Vec<RatingTally>,
}

impl Tally {
    /// An empty tally with histograms sized for this order of battle, so counting its battles
    /// never grows them.
    pub fn new(layout: &Layout) -> Tally {
        let turns = i64::from(layout.turn_limit);
        let m = layout.measures.len();
        let caps = [
            layout.side_cv_cap(Side::Parliament),
            layout.side_cv_cap(Side::Royalist),
        ];
        let count = |side: Option<Side>, cmd: Option<usize>| {
            layout
                .units
                .iter()
                .filter(|u| side.is_none_or(|s| u.side == s))
                .filter(|u| cmd.is_none_or(|c| usize::from(u.command) == c))
                .count() as i64
        };
        let units = (0..layout.units.len())
            .map(|i| EntityTally::sized(i64::from(layout.unit_cv_cap(i)), 1, turns, m))
            .collect();
        let commands = (0..layout.commands.len())
            .map(|c| {
                let cap: i64 = (0..layout.units.len())
                    .filter(|&i| usize::from(layout.units[i].command) == c)
                    .map(|i| i64::from(layout.unit_cv_cap(i)))
                    .sum();
                EntityTally::sized(cap, count(None, Some(c)), turns, m)
            })
            .collect();
        let sides = [Side::Parliament, Side::Royalist]
            .map(|s| EntityTally::sized(caps[s.index()], count(Some(s), None), turns, m));
        let commanders = layout
            .commanders
            .iter()
            .map(|_| CommanderTally {
                turns_out: Histogram::with_range(0, turns),
                ..CommanderTally::default()
            })
            .collect();
        let ratings = (0..layout.units.len())
            .map(|i| {
                if layout.units[i].randomised {
                    let cap = i64::from(layout.unit_cv_cap(i));
                    RatingTally {
                        rolled: Histogram::with_range(0, cap),
                        side_won: Histogram::with_range(0, cap),
                    }
                } else {
                    RatingTally::default()
                }
            })
            .collect();
        let reach = caps[0].max(caps[1]);
        Tally {
            turns: Histogram::with_range(0, turns),
            margin: Histogram::with_range(-reach, reach),
            units,
            commands,
            sides,
            commanders,
            ratings,
            ..Tally::default()
        }
    }

    /// Adds another tally of the same order of battle.
    pub fn merge(&mut self, o: &Tally) -> Result<()> {
        if self.units.len() != o.units.len()
            || self.commands.len() != o.commands.len()
            || self.commanders.len() != o.commanders.len()
            || self.ratings.len() != o.ratings.len()
            || self.sides[0].own.len() != o.sides[0].own.len()
        {
            return Err(Error::Usage(format!(
                "cannot merge tallies of different orders of battle ({} units, {} commands, {} commanders against {}, {}, {})",
                self.units.len(),
                self.commands.len(),
                self.commanders.len(),
                o.units.len(),
                o.commands.len(),
                o.commanders.len()
            )));
        }
        self.battles += o.battles;
        self.dice_rolled += o.dice_rolled;
        for s in 0..2 {
            self.wins[s] += o.wins[s];
            self.sides[s].merge(&o.sides[s]);
        }
        self.draws += o.draws;
        self.turns.merge(&o.turns);
        self.margin.merge(&o.margin);
        for (a, b) in self.units.iter_mut().zip(&o.units) {
            a.merge(b);
        }
        for (a, b) in self.commands.iter_mut().zip(&o.commands) {
            a.merge(b);
        }
        for (a, b) in self.commanders.iter_mut().zip(&o.commanders) {
            a.merge(b);
        }
        for (a, b) in self.ratings.iter_mut().zip(&o.ratings) {
            a.merge(b);
        }
        Ok(())
    }
}

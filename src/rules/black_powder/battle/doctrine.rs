//! The doctrine adapter: the scenario's doctrine parameters (aggression, reserves, when to
//! advance, charge ratio, leading from the front, and the Black Powder ones: when an order is
//! individual, how early foot forms hedgehog, whether victorious horse sweeps on) plus the
//! knobs of the ruleset file (the defaults of the Black Powder ones) turned into one
//! regiment's plan for its move.

use crate::doctrine::DoctrineParams;
use crate::rules::black_powder::tables::DoctrineKnobs;

/// What a regiment means to do this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Hold,
    Advance,
    Charge,
}

/// What the adapter needs to know about one regiment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Situation {
    pub turn: u16,
    pub reserve: bool,
    pub brigade_broken: bool,
    /// Gap to its target.
    pub gap: f64,
    /// Its standard move (a pike block's less the wheel its charge needs).
    pub reach: f64,
    /// The largest share of a standard move its move can be given: on initiative one, by a
    /// command roll the best band's.
    pub longest: f64,
    /// Its troops may charge this target (not guns or skirmishers; not a hedgehog from horse).
    pub may_charge: bool,
    /// Determined charge: must charge where able.
    pub determined: bool,
    /// Its stamina left over the target's (each plus one).
    pub ratio: f64,
    /// Its shooting range (0: none): shooters stand once the target is in range.
    pub range: f64,
}

/// Black Powder's knobs for doctrine `d`: the ruleset's (`k`), with the doctrine's own values
/// where it sets them. (Dickenson plans with its own ruleset's knobs whatever the doctrine.)
pub fn knobs_for(d: &DoctrineParams, k: &DoctrineKnobs) -> DoctrineKnobs {
    DoctrineKnobs {
        individual_order_degrees: d
            .individual_order_degrees
            .unwrap_or(k.individual_order_degrees),
        hedgehog_early_range: d.hedgehog_early_range.unwrap_or(k.hedgehog_early_range),
        charge_range_share: d.charge_range_share.unwrap_or(k.charge_range_share),
        // The ruleset's alone: no doctrine file sets them.
        charge_reach_after_wheel: k.charge_reach_after_wheel,
        shaken_horse_keeps_off: k.shaken_horse_keeps_off,
        daunted_horse_stands_off: k.daunted_horse_stands_off,
        horse_foresees_hedgehogs: k.horse_foresees_hedgehogs,
        charge_past_a_melee: k.charge_past_a_melee,
    }
}

/// The plan for a regiment.
pub fn plan(d: &DoctrineParams, k: &DoctrineKnobs, s: &Situation) -> Plan {
    if s.brigade_broken {
        return Plan::Hold;
    }
    // A share above one hopes for a good command roll, which a move on initiative never has.
    let in_reach = s.gap <= s.reach * k.charge_range_share.min(s.longest);
    if s.may_charge && in_reach && dares(d, s) {
        return Plan::Charge;
    }
    if s.range > 0.0 && s.gap <= s.range {
        return Plan::Hold;
    }
    let committed = !s.reserve || s.turn >= d.commit_reserve_turn;
    let advancing = d.aggression > 0.0 && s.turn >= d.advance_from_turn && committed;
    if advancing || s.gap <= d.hold_ground_within {
        Plan::Advance
    } else {
        Plan::Hold
    }
}

/// Whether the odds allow a charge on the target: Determined charge, or the stamina ratio at
/// least the doctrine's `charge_ratio`.
pub fn dares(d: &DoctrineParams, s: &Situation) -> bool {
    s.determined || s.ratio >= d.charge_ratio
}

/// Whether a command that has lost `lost` of its `start` stamina commits its reserve, as its
/// doctrine's `commit_reserve_when_lost` share says (1: only when all is lost).
pub fn losses_commit(d: &DoctrineParams, lost: u32, start: u32) -> bool {
    start > 0 && f64::from(lost) >= d.commit_reserve_when_lost * f64::from(start)
}

/// Whether an order turns the regiment more than the knobs (`knobs_for` the doctrine) allow:
/// an individual order.
pub fn individual(k: &DoctrineKnobs, turn_degrees: f64) -> bool {
    turn_degrees.abs() > k.individual_order_degrees
}

/// Whether victorious horse goes on a sweeping advance (Rash horse are asked by the dice):
/// the doctrine's `sweeping_advance`, else its aggression, so a doctrine written before the
/// key fights as it did.
pub fn sweeps(d: &DoctrineParams) -> bool {
    d.sweeping_advance.unwrap_or(d.aggression >= 0.5)
}

/// Whether a winner whose beaten enemy held follows up and keeps the melee going. Not a
/// sweeping advance: the winner stays in the melee it won, so `sweeping_advance` leaves it be.
pub fn follows_up(d: &DoctrineParams) -> bool {
    d.aggression >= 0.5
}

/// Whether the commander joins a regiment with the enemy this close.
pub fn joins(d: &DoctrineParams, enemy_gap: f64) -> bool {
    d.general_leads && enemy_gap <= d.general_leads_within
}

/// Whether foot forms hedgehog before horse is close enough to force it, at the knobs' range
/// (`knobs_for` the doctrine).
pub fn early_hedgehog(d: &DoctrineParams, k: &DoctrineKnobs, horse_gap: f64) -> bool {
    early_hedgehog_range(d, k).is_some_and(|range| horse_gap <= range)
}

/// The gap within which horse makes foot form hedgehog early (`early_hedgehog`), none when the
/// doctrine never does.
pub fn early_hedgehog_range(d: &DoctrineParams, k: &DoctrineKnobs) -> Option<f64> {
    d.hedgehog_vs_horse.then_some(k.hedgehog_early_range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::black_powder::BlackPowderRules;

    fn sit() -> Situation {
        Situation {
            turn: 3,
            reserve: false,
            brigade_broken: false,
            gap: 20.0,
            reach: 12.0,
            longest: 1.5,
            may_charge: true,
            determined: false,
            ratio: 1.0,
            range: 0.0,
        }
    }

    #[test]
    fn plans_follow_the_doctrine() {
        let k = BlackPowderRules::builtin().doctrine;
        let rupert = DoctrineParams::builtin("rupert").unwrap();
        let cautious = DoctrineParams::builtin("cautious").unwrap();
        assert_eq!(plan(&rupert, &k, &sit()), Plan::Advance);
        // Cautious waits for turn 6 unless the enemy is within 12".
        assert_eq!(plan(&cautious, &k, &sit()), Plan::Hold);
        let close = Situation {
            gap: 11.0,
            ratio: 1.0,
            ..sit()
        };
        assert_eq!(plan(&cautious, &k, &close), Plan::Advance);
        // In reach: Rupert charges at ratio 0.7; cautious needs 1.2.
        let reach = Situation {
            gap: 10.0,
            ratio: 1.0,
            ..sit()
        };
        assert_eq!(plan(&rupert, &k, &reach), Plan::Charge);
        assert_eq!(plan(&cautious, &k, &reach), Plan::Advance);
        assert_eq!(
            plan(
                &cautious,
                &k,
                &Situation {
                    determined: true,
                    ..reach
                }
            ),
            Plan::Charge
        );
        // Reserves wait for their turn; broken brigades never advance; shooters stand in range.
        let reserve = Situation {
            reserve: true,
            turn: 1,
            ..sit()
        };
        assert_eq!(plan(&rupert, &k, &reserve), Plan::Hold);
        // Cromwell's reserve is committed once a quarter of its command's stamina is lost.
        let cromwell = DoctrineParams::builtin("cromwell").unwrap();
        assert!(!losses_commit(&cromwell, 2, 9) && losses_commit(&cromwell, 3, 12));
        assert!(!losses_commit(&cromwell, 0, 0));
        assert_eq!(
            plan(
                &rupert,
                &k,
                &Situation {
                    brigade_broken: true,
                    ..reach
                }
            ),
            Plan::Hold
        );
        let shooter = Situation {
            may_charge: false,
            range: 12.0,
            gap: 11.0,
            ..sit()
        };
        assert_eq!(plan(&rupert, &k, &shooter), Plan::Hold);
        let knobs = |d: &DoctrineParams| knobs_for(d, &k);
        assert!(individual(&knobs(&rupert), 25.0) && !individual(&knobs(&rupert), -15.0));
        // A doctrine's own knobs take the place of the ruleset's.
        let loose = DoctrineParams {
            individual_order_degrees: Some(45.0),
            hedgehog_early_range: Some(12.0),
            ..cautious.clone()
        };
        assert!(!individual(&knobs(&loose), 25.0) && individual(&knobs(&loose), 50.0));
        assert!(
            !early_hedgehog(&cautious, &knobs(&cautious), 10.0)
                && early_hedgehog(&loose, &knobs(&loose), 10.0)
        );
        assert!(!early_hedgehog(&loose, &knobs(&loose), 12.5));
    }

    /// The doctrine's `sweeping_advance` decides, whatever its aggression; unset, aggression
    /// of 0.5 or more sweeps. Cromwell's horse rallies instead, Rupert's sweeps on.
    #[test]
    fn horse_sweeps_on_as_the_doctrine_says_else_by_its_aggression() {
        let builtin = |n| DoctrineParams::builtin(n).unwrap();
        assert!(sweeps(&builtin("rupert")) && !sweeps(&builtin("cromwell")));
        assert!(follows_up(&builtin("cromwell")));
        let keyless = |aggression| DoctrineParams {
            aggression,
            sweeping_advance: None,
            ..builtin("cromwell")
        };
        assert!(sweeps(&keyless(0.5)) && !sweeps(&keyless(0.49)));
        let set = |aggression, on| DoctrineParams {
            sweeping_advance: Some(on),
            ..keyless(aggression)
        };
        assert!(sweeps(&set(0.0, true)) && !sweeps(&set(1.0, false)));
    }

    /// A charge is planned on a target within the doctrine's share of the move, else the
    /// ruleset's (1.5, the best command roll's): 1.4 moves away is in reach at 1.5 and out of
    /// reach at 1.3; on initiative (a move of one, no roll) it is out of reach at any share.
    #[test]
    fn the_charge_reach_is_the_doctrines_share_else_the_rulesets() {
        let mut k = BlackPowderRules::builtin().doctrine;
        assert_eq!(k.charge_range_share, 1.5);
        let mut rupert = DoctrineParams::builtin("rupert").unwrap();
        let far = Situation {
            gap: 14.0,
            reach: 10.0,
            ratio: 1.0,
            ..sit()
        };
        assert_eq!(plan(&rupert, &knobs_for(&rupert, &k), &far), Plan::Charge);
        rupert.charge_range_share = Some(1.3);
        assert_ne!(plan(&rupert, &knobs_for(&rupert, &k), &far), Plan::Charge);
        // Dickenson's knobs are its ruleset's alone: the doctrine's share is not read there.
        k.charge_range_share = 1.0;
        assert_ne!(plan(&rupert, &k, &far), Plan::Charge);
        rupert.charge_range_share = Some(1.5);
        assert_eq!(plan(&rupert, &knobs_for(&rupert, &k), &far), Plan::Charge);
        let initiative = Situation {
            longest: 1.0,
            ..far
        };
        assert_ne!(
            plan(&rupert, &knobs_for(&rupert, &k), &initiative),
            Plan::Charge
        );
    }
}

//! Black Powder's own detail in the event stream (the shared events carry losses, breaks,
//! sweeping advances as pursuits, commanders lost and the end of the battle).

use super::command::Band;
use super::morale::BreakResult;
use crate::army::UnitId;
use crate::events::plural;

/// One Black Powder happening, carried by `Event::BlackPowder`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Detail {
    /// A command roll: to one unit, or to a brigade (`unit` is then its first unit).
    Order {
        unit: UnitId,
        brigade: bool,
        roll: u8,
        rating: i8,
        band: Band,
    },
    /// A regiment moved on initiative (within 12" of the enemy): 100%, no roll.
    Initiative {
        unit: UnitId,
    },
    /// A volley (closing fire included).
    Volley {
        unit: UnitId,
        target: UnitId,
        dice: u8,
        modifier: i8,
        hits: u8,
        casualties: u8,
        closing: bool,
    },
    /// A charge declared (and whether it went home), and what moved it.
    Charge {
        unit: UnitId,
        target: UnitId,
        home: bool,
        by: ChargeBy,
    },
    /// A round of melee between two regiments: casualties caused and final scores.
    MeleeRound {
        a: UnitId,
        b: UnitId,
        a_casualties: u8,
        b_casualties: u8,
        a_score: i16,
        b_score: i16,
    },
    /// A regiment's casualties reached its stamina.
    Shaken {
        unit: UnitId,
    },
    Disordered {
        unit: UnitId,
    },
    /// Elite: disorder shaken off (roll 4+).
    DisorderCleared {
        unit: UnitId,
        roll: u8,
    },
    /// Infantry threatened by horse within 8": formed (roll only when disordered).
    Hedgehog {
        unit: UnitId,
        formed: bool,
        roll: Option<u8>,
    },
    BreakTest {
        unit: UnitId,
        roll: u8,
        penalty: u8,
        result: BreakResult,
        /// Steady: passed without a roll.
        free: bool,
    },
    /// A unit could not pass a friendly pike block: disordered, behind the block.
    PikeBlocked {
        unit: UnitId,
        pike: UnitId,
    },
    /// A commander joins a regiment (+1 melee die).
    CommanderJoined {
        unit: UnitId,
    },
    /// A brigade that counts towards its army's break became broken (half or more of its
    /// regiments broken, shaken or gone), or mended. `unit` is its first regiment (gone or not:
    /// it names the brigade, it does not act); the army has `army_out` of its `army_of` brigades
    /// on the table broken once this is told.
    BrigadeBroken {
        unit: UnitId,
        command: u16,
        broken: bool,
        out: u8,
        of: u8,
        army_out: u8,
        army_of: u8,
    },
}

/// What moved a charger: its order (a command roll), a move on initiative (within 12" of the
/// enemy, no roll), or its sweeping advance after a melee won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeBy {
    Order,
    Initiative,
    Sweep,
}

impl ChargeBy {
    /// How the story tells it, after the charge.
    fn told(self) -> &'static str {
        match self {
            ChargeBy::Order => "ordered",
            ChargeBy::Initiative => "on initiative",
            ChargeBy::Sweep => "sweeping on",
        }
    }
}

impl Detail {
    /// The unit the detail is about.
    pub fn unit(&self) -> UnitId {
        match *self {
            Detail::Order { unit, .. }
            | Detail::Initiative { unit }
            | Detail::Volley { unit, .. }
            | Detail::Charge { unit, .. }
            | Detail::Shaken { unit }
            | Detail::Disordered { unit }
            | Detail::DisorderCleared { unit, .. }
            | Detail::Hedgehog { unit, .. }
            | Detail::BreakTest { unit, .. }
            | Detail::PikeBlocked { unit, .. }
            | Detail::CommanderJoined { unit }
            | Detail::BrigadeBroken { unit, .. } => unit,
            Detail::MeleeRound { a, .. } => a,
        }
    }

    /// The regiment that acts, if one does: a brigade's break names its first regiment but is
    /// no regiment's act.
    pub fn actor(&self) -> Option<UnitId> {
        match self {
            Detail::BrigadeBroken { .. } => None,
            _ => Some(self.unit()),
        }
    }

    /// A brigade's count of regiments out and its army's of brigades broken, in words.
    pub fn brigade_counts(&self) -> String {
        let Detail::BrigadeBroken {
            out,
            of,
            army_out,
            army_of,
            ..
        } = *self
        else {
            return String::new();
        };
        format!(
            "{out} of its {of} {} broken, shaken or gone; {army_out} of its army's {army_of} {} broken",
            plural(of, "regiment", "regiments"),
            plural(army_of, "brigade", "brigades"),
        )
    }

    /// The other unit, when there is one.
    pub fn other(&self) -> Option<UnitId> {
        match *self {
            Detail::Volley { target, .. } | Detail::Charge { target, .. } => Some(target),
            Detail::MeleeRound { b, .. } => Some(b),
            Detail::PikeBlocked { pike, .. } => Some(pike),
            _ => None,
        }
    }

    /// A short name for CSV.
    pub fn kind(&self) -> &'static str {
        match self {
            Detail::Order { .. } => "bp_order",
            Detail::Initiative { .. } => "bp_initiative",
            Detail::Volley { .. } => "bp_volley",
            Detail::Charge { .. } => "bp_charge",
            Detail::MeleeRound { .. } => "bp_melee_round",
            Detail::Shaken { .. } => "bp_shaken",
            Detail::Disordered { .. } => "bp_disordered",
            Detail::DisorderCleared { .. } => "bp_disorder_cleared",
            Detail::Hedgehog { .. } => "bp_hedgehog",
            Detail::BreakTest { .. } => "bp_break_test",
            Detail::PikeBlocked { .. } => "bp_pike_blocked",
            Detail::CommanderJoined { .. } => "bp_commander_joined",
            Detail::BrigadeBroken { .. } => "bp_brigade_broken",
        }
    }
}

/// Whether a brigade is broken, in words.
pub fn broken_words(broken: bool) -> &'static str {
    if broken {
        "is broken"
    } else {
        "is no longer broken"
    }
}

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Detail::Order {
                brigade,
                roll,
                rating,
                band,
                ..
            } => write!(
                f,
                "{} order: rolled {roll} against {rating}: {}",
                if brigade { "brigade" } else { "individual" },
                band.name()
            ),
            Detail::Initiative { .. } => f.write_str("moves on initiative"),
            Detail::Volley {
                dice,
                modifier,
                hits,
                casualties,
                closing,
                ..
            } => write!(
                f,
                "{}{dice} {} at {modifier:+}: {hits} {}, {casualties} {}",
                if closing { "closing fire: " } else { "" },
                plural(dice, "die", "dice"),
                plural(hits, "hit", "hits"),
                plural(casualties, "casualty", "casualties"),
            ),
            Detail::Charge { home, by, .. } => write!(
                f,
                "{} ({})",
                if home {
                    "charges home"
                } else {
                    "charge stopped"
                },
                by.told()
            ),
            Detail::MeleeRound {
                a_casualties,
                b_casualties,
                a_score,
                b_score,
                ..
            } => write!(
                f,
                "melee: {a_casualties} v {b_casualties} casualties, result {a_score} v {b_score}"
            ),
            Detail::Shaken { .. } => f.write_str("shaken"),
            Detail::Disordered { .. } => f.write_str("disordered"),
            Detail::DisorderCleared { roll, .. } => {
                write!(f, "elite: rallies from disorder ({roll})")
            }
            Detail::Hedgehog { formed, roll, .. } => match (formed, roll) {
                (true, None) => f.write_str("forms hedgehog"),
                (true, Some(r)) => write!(f, "disordered, forms hedgehog ({r})"),
                (false, r) => write!(f, "caught before forming hedgehog ({})", r.unwrap_or(0)),
            },
            Detail::BreakTest {
                roll,
                penalty,
                result,
                free,
                ..
            } => {
                if free {
                    f.write_str("steady: passes its first break test")
                } else {
                    write!(f, "break test {roll} - {penalty}: {}", result.name())
                }
            }
            Detail::PikeBlocked { .. } => {
                f.write_str("blocked by a pike block: disordered behind it")
            }
            Detail::CommanderJoined { .. } => f.write_str("a commander joins the regiment"),
            Detail::BrigadeBroken { broken, .. } => {
                write!(
                    f,
                    "its brigade {}: {}",
                    broken_words(broken),
                    self.brigade_counts()
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A volley counts its dice, hits and casualties in good English, one or many.
    #[test]
    fn a_volley_says_one_die_one_hit_one_casualty() {
        let volley = |dice, hits, casualties| {
            Detail::Volley {
                unit: 0,
                target: 1,
                dice,
                modifier: 0,
                hits,
                casualties,
                closing: false,
            }
            .to_string()
        };
        assert_eq!(volley(1, 1, 1), "1 die at +0: 1 hit, 1 casualty");
        assert_eq!(volley(3, 2, 0), "3 dice at +0: 2 hits, 0 casualties");
    }
}

//! Units, commanders, commands and armies: the state every ruleset shares.

mod commander;
mod unit;

pub use commander::{Command, CommandId, CommandKind, Commander, CommanderId, CommanderRating};
pub use unit::{
    Arm, Facing, FootBalance, Formation, GunWeight, HorseKind, SizeClass, Unit, UnitId, UnitKind,
    UnitStatus,
};

use serde::{Deserialize, Serialize};

/// The two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Parliament,
    Royalist,
}

/// Who moves first in every turn: the roll-off at the start of the battle (the rules), or one
/// side always (a what-if lever, not a rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstMover {
    RollOff,
    Parliament,
    Royalist,
}

impl FirstMover {
    /// The side that moves first, and the roll-off's deciding throw to tell (none when a side
    /// is named). The roll-off is thrown either way, so every later die falls alike.
    pub fn decide<D: crate::dice::DiceSource>(self, dice: &mut D) -> (Side, Option<[u8; 2]>) {
        let (rolled, rolls) = Side::roll_off(dice);
        match self {
            FirstMover::RollOff => (rolled, Some(rolls)),
            FirstMover::Parliament => (Side::Parliament, None),
            FirstMover::Royalist => (Side::Royalist, None),
        }
    }
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Parliament, Side::Royalist];

    /// A roll-off: a die each (Parliament's first), rolled again on a tie; the higher wins.
    /// The winner, and the deciding throw (Parliament's die, the Royalists').
    pub fn roll_off<D: crate::dice::DiceSource>(dice: &mut D) -> (Side, [u8; 2]) {
        loop {
            let (p, r) = (dice.d6(), dice.d6());
            if p != r {
                let first = if p > r {
                    Side::Parliament
                } else {
                    Side::Royalist
                };
                return (first, [p, r]);
            }
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Parliament => Side::Royalist,
            Side::Royalist => Side::Parliament,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Parliament => "parliament",
            Side::Royalist => "royalist",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

//! Dickenson's own detail in the event stream, in figures: volleys with the men firing and the
//! range band, guns' shots with their fall, losses by figure type with the saves, powder out or
//! blown up, morale throws with their points and adds, the formation rules' throws to charge. The shared events still carry the
//! figures left (`CvLost`), routs, rallies, generals hit and the end of the battle.

use super::gunnery::Calibre;
use super::morale::MoraleResult;
use super::volley::{Arm, Band};
use crate::army::UnitId;
use crate::events::{GeneralResult, plural};

/// Where a gun's shot fell against the regiment it was laid on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fall {
    /// The hit area fell on the target.
    OnTarget,
    /// Before it, in the line of fire.
    Short,
    /// Beyond it, in the line of fire.
    Over,
    /// To one side, clear of it however far the ball flew.
    Wide,
}

impl Fall {
    pub const ALL: [Fall; 4] = [Fall::OnTarget, Fall::Short, Fall::Over, Fall::Wide];

    pub fn name(self) -> &'static str {
        match self {
            Fall::OnTarget => "on target",
            Fall::Short => "short",
            Fall::Over => "over",
            Fall::Wide => "wide",
        }
    }
}

/// What dealt a regiment its casualties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// Small arms: a volley, individual shots, closing fire or the pistol breach.
    Volley,
    /// A gun's hit area (gunners struck by gun on gun included).
    Gun,
    /// Ammunition blown up within the blast.
    Blast,
    /// Impetus and melee rounds.
    Melee,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Volley => "volley",
            Source::Gun => "gun",
            Source::Blast => "blast",
            Source::Melee => "melee",
        }
    }

    /// The shared events' cause of the loss.
    pub fn cause(self) -> crate::events::LossCause {
        match self {
            Source::Melee => crate::events::LossCause::Melee,
            _ => crate::events::LossCause::Fire,
        }
    }
}

/// Figures lost from each body of a regiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Figures {
    pub pikemen: u16,
    pub musketeers: u16,
    /// Lobsters, troopers or dragoons.
    pub horsemen: u16,
    pub gunners: u16,
    /// A limbered gun's team: its horses and mounted drivers (not rank and file).
    pub horses: u16,
    pub drivers: u16,
}

impl Figures {
    /// Rank and file (a gun's gunners): the figures a regiment is counted in.
    pub fn total(&self) -> u32 {
        u32::from(self.pikemen)
            + u32::from(self.musketeers)
            + u32::from(self.horsemen)
            + u32::from(self.gunners)
    }

    /// A gun team's figures.
    pub fn team(&self) -> u32 {
        u32::from(self.horses) + u32::from(self.drivers)
    }
}

/// One Dickenson happening, carried by `Event::Dickenson`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Detail {
    /// Small arms fired: `men` firing (`individual`: a forlorn hope's man-by-man shots) in a
    /// range `band`; `hits` are the casualties before the target's saves.
    Volley {
        unit: UnitId,
        target: UnitId,
        arm: Arm,
        men: u16,
        band: Band,
        individual: bool,
        closing: bool,
        hits: u16,
    },
    /// A gun fired at `target` `range` inches away: where the shot fell and the casualties its
    /// effect dice gave (before saves), shared among the figures under the hit area.
    GunShot {
        unit: UnitId,
        target: UnitId,
        calibre: Calibre,
        range: f32,
        fall: Fall,
        effect: u16,
    },
    /// Casualties on `unit` from `by`: `hits` thrown for, `saved` of them; the figures lost by
    /// type; officers and the standard struck.
    Losses {
        unit: UnitId,
        by: UnitId,
        source: Source,
        hits: u16,
        saved: u16,
        lost: Figures,
        officers: u8,
        standard: bool,
    },
    /// A gun fired its last ball or the last of its powder that a shot can take.
    AmmunitionExhausted { unit: UnitId },
    /// A shot (of `by`) fell on the ammunition of gun `unit`: it blows up.
    AmmunitionBlown { unit: UnitId, by: UnitId },
    /// A throw on the morale chart: the dice, the adds' total, the points lost so far, the
    /// other deductions (the forlorn hope's), the modified total and the result.
    Morale {
        unit: UnitId,
        dice: [u8; 2],
        adds: i8,
        points_lost: u16,
        other: i8,
        total: i16,
        result: MoraleResult,
    },
    /// At the end of the battle: the morale points the regiment lost (all of them if gone).
    PointsLost { unit: UnitId, points: u16 },
    /// A sited gun turned by its trail to bear on an enemy outside its front arc.
    Pivoted { unit: UnitId },
    /// The general riding with `unit` was hit when it lost men: `out` of the battle (killed
    /// or wounded) or only unhorsed for a while.
    CommanderHit {
        unit: UnitId,
        general: u16,
        result: GeneralResult,
        out: bool,
    },
    /// A throw the formation rules call for (seed, FORMATIONS and MELEE Contacts): horse
    /// charging `target`, fired on or entering a pikestand, throw to go in: the dice, the
    /// adds' total, the points lost so far, the modified total, good or not.
    FormationThrow {
        unit: UnitId,
        target: UnitId,
        dice: [u8; 2],
        adds: i8,
        points_lost: u16,
        total: i16,
        good: bool,
    },
    /// Regiment `unit` declared a charge on `target` this move but was charged, or thrown
    /// back, before its turn came (`engaged`: in melee by then), so it does not make it.
    ChargeForestalled {
        unit: UnitId,
        target: UnitId,
        engaged: bool,
    },
}

impl Detail {
    /// The unit the detail is about.
    pub fn unit(&self) -> UnitId {
        match *self {
            Detail::Volley { unit, .. }
            | Detail::GunShot { unit, .. }
            | Detail::Losses { unit, .. }
            | Detail::AmmunitionExhausted { unit }
            | Detail::AmmunitionBlown { unit, .. }
            | Detail::Morale { unit, .. }
            | Detail::PointsLost { unit, .. }
            | Detail::Pivoted { unit }
            | Detail::CommanderHit { unit, .. }
            | Detail::FormationThrow { unit, .. }
            | Detail::ChargeForestalled { unit, .. } => unit,
        }
    }

    /// The other unit, when there is one.
    pub fn other(&self) -> Option<UnitId> {
        match *self {
            Detail::Volley { target, .. }
            | Detail::GunShot { target, .. }
            | Detail::FormationThrow { target, .. }
            | Detail::ChargeForestalled { target, .. } => Some(target),
            Detail::Losses { by, .. } | Detail::AmmunitionBlown { by, .. } => Some(by),
            _ => None,
        }
    }

    /// A short name for CSV.
    pub fn kind(&self) -> &'static str {
        match self {
            Detail::Volley { .. } => "dk_volley",
            Detail::GunShot { .. } => "dk_gun_shot",
            Detail::Losses { .. } => "dk_losses",
            Detail::AmmunitionExhausted { .. } => "dk_ammunition_exhausted",
            Detail::AmmunitionBlown { .. } => "dk_ammunition_blown",
            Detail::Morale { .. } => "dk_morale",
            Detail::PointsLost { .. } => "dk_points_lost",
            Detail::Pivoted { .. } => "dk_pivoted",
            Detail::CommanderHit { .. } => "dk_commander_hit",
            Detail::FormationThrow { .. } => "dk_formation_throw",
            Detail::ChargeForestalled { .. } => "dk_charge_forestalled",
        }
    }
}

/// What a hit did to a general riding with a regiment: put him `out` of the battle, or only
/// unhorsed him for a while.
pub fn commander_out(out: bool) -> &'static str {
    if out {
        "lost to the battle"
    } else {
        "unhorsed"
    }
}

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Detail::Volley {
                arm,
                men,
                band,
                individual,
                closing,
                hits,
                ..
            } => write!(
                f,
                "{}{men} {} at {} range{}: {hits} {}",
                if closing { "closing fire: " } else { "" },
                match arm {
                    Arm::Pistol => "pistols",
                    Arm::Musket => "muskets",
                    Arm::Musketoon => "musketoons",
                },
                band.name(),
                if individual { ", man by man" } else { "" },
                plural(hits, "hit", "hits")
            ),
            Detail::GunShot {
                calibre,
                range,
                fall,
                effect,
                ..
            } => write!(
                f,
                "{} fires at {range:.0}\": the shot falls {}; effect {effect}",
                calibre.name(),
                fall.name()
            ),
            Detail::Losses {
                source,
                hits,
                saved,
                lost,
                officers,
                standard,
                ..
            } => {
                let what = plural(hits, "hit", "hits");
                write!(f, "{hits} {} {what}, {saved} saved: ", source.name())?;
                write_lost(f, lost, officers, standard)
            }
            Detail::AmmunitionExhausted { .. } => f.write_str("ammunition exhausted: silent"),
            Detail::AmmunitionBlown { .. } => f.write_str("its ammunition is hit and blows up"),
            Detail::Morale {
                dice,
                adds,
                points_lost,
                other,
                total,
                result,
                ..
            } => write_throw(
                f,
                "morale",
                dice,
                [adds, other],
                points_lost,
                total,
                result.name(),
            ),
            Detail::PointsLost { points, .. } => {
                write!(f, "ends the battle {points} morale points down")
            }
            Detail::Pivoted { .. } => f.write_str("the gun turns by its trail to bear"),
            Detail::CommanderHit { general, out, .. } => write!(
                f,
                "general {general} riding with it is hit: {}",
                commander_out(out)
            ),
            Detail::FormationThrow {
                dice,
                adds,
                points_lost,
                total,
                good,
                ..
            } => write_throw(
                f,
                "throws to charge home",
                dice,
                [adds, 0],
                points_lost,
                total,
                if good { "good, it goes in" } else { "bad" },
            ),
            Detail::ChargeForestalled { engaged, .. } => write!(
                f,
                "{} before its turn, it does not make it",
                if engaged { "charged" } else { "thrown back" }
            ),
        }
    }
}

/// A throw told: its two dice, the adds and any other modifier (each said only when not 0),
/// the points lost, the total and what it came to.
fn write_throw(
    f: &mut std::fmt::Formatter<'_>,
    what: &str,
    dice: [u8; 2],
    [adds, other]: [i8; 2],
    points_lost: u16,
    total: i16,
    result: &str,
) -> std::fmt::Result {
    write!(f, "{what}: {}+{}", dice[0], dice[1])?;
    if adds != 0 {
        write!(f, " {adds:+} adds")?;
    }
    if other != 0 {
        write!(f, " {other:+}")?;
    }
    write!(f, " - {points_lost} points lost = {total}: {result}")
}

/// The figures, officers and standard that hits cost.
fn write_lost(
    f: &mut std::fmt::Formatter<'_>,
    lost: Figures,
    officers: u8,
    standard: bool,
) -> std::fmt::Result {
    let mut any = false;
    for (n, one, many) in [
        (lost.pikemen, "pikeman", "pikemen"),
        (lost.musketeers, "musketeer", "musketeers"),
        (lost.horsemen, "horseman", "horsemen"),
        (lost.gunners, "gunner", "gunners"),
        (lost.horses, "team horse", "team horses"),
        (lost.drivers, "driver", "drivers"),
        (u16::from(officers), "officer", "officers"),
    ] {
        if n > 0 {
            let what = plural(n, one, many);
            write!(f, "{}{n} {what}", if any { ", " } else { "" })?;
            any = true;
        }
    }
    if standard {
        write!(f, "{}the standard", if any { ", " } else { "" })?;
        any = true;
    }
    if any {
        f.write_str(" lost")
    } else {
        f.write_str("no figure lost")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replay's words, in figures.
    #[test]
    fn details_are_told_in_figures() {
        let volley = Detail::Volley {
            unit: 0,
            target: 1,
            arm: Arm::Musket,
            men: 18,
            band: Band::Medium,
            individual: false,
            closing: true,
            hits: 7,
        };
        assert_eq!(
            volley.to_string(),
            "closing fire: 18 muskets at medium range: 7 hits"
        );
        let losses = Detail::Losses {
            unit: 1,
            by: 0,
            source: Source::Volley,
            hits: 7,
            saved: 2,
            lost: Figures {
                horsemen: 1,
                pikemen: 2,
                ..Figures::default()
            },
            officers: 1,
            standard: true,
        };
        assert_eq!(
            losses.to_string(),
            "7 volley hits, 2 saved: 2 pikemen, 1 horseman, 1 officer, the standard lost"
        );
        let shot = Detail::GunShot {
            unit: 2,
            target: 1,
            calibre: Calibre::Saker,
            range: 20.0,
            fall: Fall::Short,
            effect: 4,
        };
        assert_eq!(
            shot.to_string(),
            "saker fires at 20\": the shot falls short; effect 4"
        );
        let throw = Detail::Morale {
            unit: 1,
            dice: [1, 5],
            adds: 2,
            points_lost: 3,
            other: -1,
            total: 4,
            result: MoraleResult::FallBack,
        };
        assert_eq!(
            throw.to_string(),
            "morale: 1+5 +2 adds -1 - 3 points lost = 4: fall back"
        );
        let charge = Detail::FormationThrow {
            unit: 0,
            target: 1,
            dice: [3, 2],
            adds: 1,
            points_lost: 0,
            total: 6,
            good: false,
        };
        assert_eq!(
            charge.to_string(),
            "throws to charge home: 3+2 +1 adds - 0 points lost = 6: bad"
        );
        assert_eq!(
            (charge.kind(), charge.other()),
            ("dk_formation_throw", Some(1))
        );
        assert_eq!((losses.unit(), losses.other()), (1, Some(0)));
        assert_eq!(shot.kind(), "dk_gun_shot");
    }
}

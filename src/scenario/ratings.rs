//! Troop ratings: turning a scenario's `cv`, `rating = "standard"` or `rating = "randomised"` into
//! a template CV and a [`RatingSource`], and rolling a randomised rating for each battle.

use crate::army::Arm;
use crate::dice::DiceSource;
use crate::rules::ironsides::IronsidesRules;
use crate::setup::RatingSource;

use super::schema::RatingKind;

/// The text's table runs "1646-1660" for Parliament; later years are a typo, not a campaign.
pub const LAST_RATING_YEAR: u16 = 1660;

/// This battle's CV for a unit: the template's when fixed, else the table's CV for one D6.
/// Rolls exactly one die for a randomised unit and none for a fixed one.
pub fn roll_rating<D: DiceSource>(source: &RatingSource, template_cv: u8, dice: &mut D) -> u8 {
    source.roll(template_cv, dice)
}

/// The mean CV a unit starts with, for the order of battle.
pub fn expected_cv(source: &RatingSource, template_cv: u8) -> f64 {
    match source {
        RatingSource::Fixed => f64::from(template_cv),
        RatingSource::Randomised { rolls } => {
            rolls.iter().map(|&c| f64::from(c)).sum::<f64>() / 6.0
        }
    }
}

/// Each distinct CV of a table row with its probability (sixths), lowest CV first.
pub fn cv_probabilities(rolls: &[u8; 6]) -> Vec<(u8, f64)> {
    let mut cvs: Vec<u8> = rolls.to_vec();
    cvs.sort_unstable();
    cvs.dedup();
    cvs.into_iter()
        .map(|cv| (cv, rolls.iter().filter(|&&r| r == cv).count() as f64 / 6.0))
        .collect()
}

/// The table's answer for one unit: its template CV and how each battle finds its CV.
pub fn table_rating(
    rules: &IronsidesRules,
    kind: RatingKind,
    side: &str,
    year: u16,
    arm: Arm,
    alt: bool,
) -> Result<(u8, RatingSource), String> {
    let arm_name = match arm {
        Arm::Foot => "foot",
        Arm::Dragoons => "dragoons",
        Arm::Horse => "horse",
        Arm::Artillery => "artillery",
    };
    let mut sides: Vec<&str> = rules.ratings.iter().map(|r| r.side.as_str()).collect();
    sides.sort_unstable();
    sides.dedup();
    if !sides.contains(&side) {
        return Err(format!(
            "unknown rating side `{side}`; the ratings table has {}",
            sides.join(", ")
        ));
    }
    if year > LAST_RATING_YEAR {
        return Err(format!(
            "unknown rating year {year}: the ratings table ends in {LAST_RATING_YEAR}"
        ));
    }
    let first = rules
        .ratings
        .iter()
        .filter(|r| r.side == side)
        .map(|r| r.year)
        .min();
    if first.is_some_and(|f| year < f) {
        return Err(format!(
            "unknown rating year {year}: the table's {side} rows begin in {}",
            first.unwrap_or(year)
        ));
    }
    let Some(rating) = rules.rating(side, year, arm) else {
        let years: Vec<String> = rules
            .ratings
            .iter()
            .filter(|r| r.side == side && r.arms.get(arm).is_some())
            .map(|r| r.year.to_string())
            .collect();
        return Err(if years.is_empty() {
            format!(
                "the ratings table has no {side} {arm_name}: give a `cv` or another `rating_side`"
            )
        } else {
            format!(
                "unknown rating year {year} for {side} {arm_name}: the table's rows are for {}",
                years.join(", ")
            )
        });
    };
    if alt && kind == RatingKind::Randomised {
        return Err("`rating_alt` chooses the higher of a \"4/5\" standard rating; it does not apply to `rating = \"randomised\"`".into());
    }
    Ok(match kind {
        RatingKind::Standard => {
            let cv = if alt {
                rating.standard_alt.unwrap_or(rating.standard)
            } else {
                rating.standard
            };
            (cv, RatingSource::Fixed)
        }
        // The template keeps the standard CV so a set-up shows a sensible strength before rolling.
        RatingKind::Randomised => (
            rating.standard,
            RatingSource::Randomised {
                rolls: rating.rolls,
            },
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn a_randomised_rating_reads_the_row_by_die() {
        let src = RatingSource::Randomised {
            rolls: [4, 4, 5, 5, 6, 7],
        };
        let mut dice = ScriptedDice::new(&[1, 6, 3]);
        assert_eq!(roll_rating(&src, 5, &mut dice), 4);
        assert_eq!(roll_rating(&src, 5, &mut dice), 7);
        assert_eq!(roll_rating(&src, 5, &mut dice), 5);
        assert_eq!(roll_rating(&RatingSource::Fixed, 5, &mut dice), 5);
        dice.finish();
        assert_eq!(
            cv_probabilities(&[4, 4, 5, 5, 6, 7]),
            vec![
                (4, 2.0 / 6.0),
                (5, 2.0 / 6.0),
                (6, 1.0 / 6.0),
                (7, 1.0 / 6.0)
            ]
        );
        assert!((expected_cv(&src, 5) - 31.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn table_ratings_follow_side_year_and_arm() {
        let r = IronsidesRules::builtin();
        assert_eq!(
            table_rating(
                &r,
                RatingKind::Standard,
                "parliament",
                1643,
                Arm::Horse,
                false
            )
            .unwrap()
            .0,
            4
        );
        assert_eq!(
            table_rating(
                &r,
                RatingKind::Standard,
                "parliament",
                1643,
                Arm::Horse,
                true
            )
            .unwrap()
            .0,
            5
        );
        let (cv, src) = table_rating(
            &r,
            RatingKind::Randomised,
            "royalist",
            1645,
            Arm::Horse,
            false,
        )
        .unwrap();
        assert_eq!(
            (cv, src),
            (
                5,
                RatingSource::Randomised {
                    rolls: [5, 5, 5, 5, 6, 7]
                }
            )
        );
        assert!(
            table_rating(
                &r,
                RatingKind::Standard,
                "scots",
                1644,
                Arm::Artillery,
                false
            )
            .unwrap_err()
            .contains("no scots artillery")
        );
        assert!(
            table_rating(&r, RatingKind::Standard, "scots", 1643, Arm::Foot, false)
                .unwrap_err()
                .contains("1644")
        );
        assert!(
            table_rating(&r, RatingKind::Standard, "french", 1643, Arm::Foot, false)
                .unwrap_err()
                .contains("unknown rating side")
        );
        assert!(
            table_rating(&r, RatingKind::Standard, "royalist", 1700, Arm::Foot, false)
                .unwrap_err()
                .contains("1660")
        );
    }
}

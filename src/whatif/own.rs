//! A ruleset's own measures in the what-if tools (`--own MEASURE[:WHO]`): one of the figures
//! `measures.csv` reports (Black Powder's `p_brigade_broken`, Dickenson's `volleys_fired_mean`
//! ...), of a unit, a command or a side, counted in every version of the battle from the same
//! events `run` counts it from.

use super::contest::{did_you_mean, side_and_name};
use crate::army::Side;
use crate::stats::{Layout, OwnTotals, Report};

/// Whose totals an own measure adds up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who {
    Side(Side),
    /// A command or a unit, as `measures.csv` names it (`parliament:NAME` or `royalist:NAME`
    /// when the name alone is not enough).
    Named(String),
}

/// One own measure of one unit, command or side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnMeasure {
    /// Its figure as `measures.csv` names it: `charges_mean`, `p_brigade_broken`.
    pub figure: String,
    /// Its place among the ruleset's measures.
    pub index: usize,
    /// A happening (a share of battles) rather than a total.
    pub happened: bool,
    /// Counted for commands and sides only (a brigade's break).
    pub commands_only: bool,
    pub who: Who,
}

impl OwnMeasure {
    /// `--own MEASURE[:WHO]` read against the measures `layout` declares (`ruleset`'s): the
    /// measure by its name (`charges`) or its figure's (`charges_mean`); without a WHO, one
    /// measure for each side.
    pub fn parse(spec: &str, layout: &Layout, ruleset: &str) -> Result<Vec<OwnMeasure>, String> {
        if layout.measures.is_empty() {
            return Err(format!(
                "--own {spec}: the {ruleset} ruleset counts no measures of its own"
            ));
        }
        let (wanted, who) = match spec.split_once(':') {
            Some((m, w)) => (m.trim(), Some(w.trim())),
            None => (spec.trim(), None),
        };
        let Some(index) = layout
            .measures
            .iter()
            .position(|m| m.name == wanted || m.figure_name() == wanted)
        else {
            let known: Vec<String> = layout.measures.iter().map(|m| m.figure_name()).collect();
            // Near either way of naming it (measure i's two names at 2i and 2i + 1), offered
            // as its figure.
            let names: Vec<String> = (layout.measures.iter())
                .flat_map(|m| [m.name.clone(), m.figure_name()])
                .collect();
            let words: Vec<&str> = names.iter().map(String::as_str).collect();
            let near = crate::scenario::nearest(wanted, &words, 1);
            let hint = (near.first())
                .and_then(|n| words.iter().position(|w| w == n))
                .map_or(String::new(), |i| {
                    format!("did you mean {}? ", known[i / 2])
                });
            return Err(format!(
                "--own {spec}: the {ruleset} ruleset counts no measure `{wanted}`; {hint}its measures: {}",
                known.join(", ")
            ));
        };
        let info = &layout.measures[index];
        let own = |who: Who| OwnMeasure {
            figure: info.figure_name(),
            index,
            happened: info.happened(),
            commands_only: info.report == Report::CommandHappened,
            who,
        };
        Ok(match who {
            None => Side::BOTH.iter().map(|&s| own(Who::Side(s))).collect(),
            Some("") => {
                return Err(format!(
                    "--own {spec}: name a unit, a command or a side after the colon"
                ));
            }
            Some(w) => match Side::BOTH.iter().find(|s| s.name() == w) {
                Some(&s) => vec![own(Who::Side(s))],
                None => vec![own(Who::Named(w.to_string()))],
            },
        })
    }

    /// Its name in the CSV files: the figure and whose it is, `p_brigade_broken:parliament`.
    pub fn name(&self) -> String {
        let who = match &self.who {
            Who::Side(s) => s.name(),
            Who::Named(n) => n,
        };
        format!("{}:{who}", self.figure)
    }

    /// The units whose totals it adds up in a version of the battle (`layout` that version's).
    pub fn units(&self, layout: &Layout) -> Result<Vec<usize>, String> {
        let name = match &self.who {
            Who::Side(s) => {
                let of_side = layout
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| u.side == *s);
                return Ok(of_side.map(|(i, _)| i).collect());
            }
            Who::Named(n) => n.as_str(),
        };
        let (side, bare) = side_and_name(name);
        let fits = |s: Side, n: &str| n == bare && side.is_none_or(|x| x == s);
        let commands: Vec<&[u16]> = (layout.commands.iter())
            .filter(|c| !c.units.is_empty() && fits(c.side, &c.name))
            .map(|c| c.units.as_slice())
            .collect();
        let units: Vec<usize> = (0..layout.units.len())
            .filter(|&i| fits(layout.units[i].side, &layout.units[i].name))
            .collect();
        match (commands.as_slice(), units.as_slice()) {
            ([c], []) => Ok(c.iter().map(|&u| usize::from(u)).collect()),
            ([], [u]) if !self.commands_only => Ok(vec![*u]),
            ([], [_]) => Err(format!(
                "{} is counted for a command or a side, and `{name}` is a unit",
                self.figure
            )),
            ([], []) => Err(self.nobody(layout, bare)),
            _ => Err(format!(
                "{} commands and units of {} are named `{bare}`: write parliament:{bare} or royalist:{bare}",
                commands.len() + units.len(),
                layout.scenario
            )),
        }
    }

    /// No unit or command of that name: the nearest names.
    fn nobody(&self, layout: &Layout, bare: &str) -> String {
        let names: Vec<&str> = (layout.commands.iter().map(|c| c.name.as_str()))
            .chain(layout.units.iter().map(|u| u.name.as_str()))
            .collect();
        let hint = did_you_mean(bare, &names);
        format!(
            "no unit or command `{bare}` in {} (or a side: parliament, royalist){hint}",
            layout.scenario
        )
    }

    /// Its value in the battle just counted: the units' total, or for a happening 1 when any
    /// of them has one.
    pub fn value(&self, totals: &OwnTotals, units: &[usize]) -> i64 {
        let sum: i64 = units
            .iter()
            .map(|&u| i64::from(totals.of(u, self.index)))
            .sum();
        if self.happened {
            i64::from(sum > 0)
        } else {
            sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::MeasureInfo;

    /// The test order of battle with two measures, a total and a command's happening; a unit
    /// of Parliament's named as the Royalist command is, to be told apart.
    fn layout() -> Layout {
        let mut l = crate::stats::testing::layout();
        l.measures = vec![
            MeasureInfo::new("charges", Report::Total),
            MeasureInfo::new("brigade_broken", Report::CommandHappened),
        ];
        l.units[1].name = "R army".into();
        l
    }

    fn parse(spec: &str) -> Result<Vec<OwnMeasure>, String> {
        OwnMeasure::parse(spec, &layout(), "test")
    }

    #[test]
    fn a_measure_is_named_as_declared_or_as_its_figure_and_without_who_is_each_sides() {
        let both = parse("charges").unwrap();
        let names: Vec<String> = both.iter().map(OwnMeasure::name).collect();
        assert_eq!(names, ["charges_mean:parliament", "charges_mean:royalist"]);
        assert_eq!(parse("charges_mean").unwrap(), both);
        let one = parse("p_brigade_broken:R army").unwrap();
        assert_eq!(one.len(), 1);
        assert!(one[0].happened && one[0].commands_only && one[0].index == 1);
        let side = parse("brigade_broken:royalist").unwrap();
        assert_eq!(side[0].who, Who::Side(Side::Royalist));
        let err = parse("charge").unwrap_err();
        assert!(err.contains("did you mean charges_mean?"), "{err}");
        assert!(err.contains("charges_mean, p_brigade_broken"), "{err}");
        assert!(parse("charges:").unwrap_err().contains("after the colon"));
        let none = OwnMeasure::parse("charges", &crate::stats::testing::layout(), "ironsides");
        assert!(none.unwrap_err().contains("no measures of its own"));
    }

    #[test]
    fn whose_units_are_read_for_a_side_a_command_or_a_unit() {
        let l = layout();
        let units = |spec: &str| parse(spec).unwrap()[0].units(&l);
        assert_eq!(units("charges:royalist"), Ok(vec![2, 3]));
        assert_eq!(units("charges:P wing"), Ok(vec![0]));
        assert_eq!(units("charges:R Foot"), Ok(vec![3]));
        // A command and a unit of one name: the side tells them apart, or nothing does.
        assert!(
            units("charges:R army")
                .unwrap_err()
                .contains("royalist:R army")
        );
        assert_eq!(units("charges:royalist:R army"), Ok(vec![2, 3]));
        assert_eq!(units("charges:parliament:R army"), Ok(vec![1]));
        let unit = units("brigade_broken:R Foot").unwrap_err();
        assert!(unit.contains("a command or a side"), "{unit}");
        let err = units("charges:R Fot").unwrap_err();
        assert!(err.contains("did you mean R Foot"), "{err}");
    }

    #[test]
    fn a_total_adds_its_units_and_a_happening_asks_whether_any_had_one() {
        let l = layout();
        let mut totals = OwnTotals::new(l.units.len(), 2, None);
        for (unit, k, amount) in [(2, 0, 3), (3, 0, 2), (2, 1, 1), (3, 1, 1)] {
            totals.add(unit, k, amount);
        }
        let total = &parse("charges:royalist").unwrap()[0];
        assert_eq!(total.value(&totals, &[2, 3]), 5);
        let happened = &parse("brigade_broken:royalist").unwrap()[0];
        assert_eq!(happened.value(&totals, &[2, 3]), 1);
        assert_eq!(happened.value(&totals, &[0, 1]), 0);
    }
}

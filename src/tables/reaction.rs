//! Reaction tests: 2D6, each die on its own against CV; a pair of sixes routs.

use super::exact::enumerate;
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob, signed};
use crate::events::{ReactionResult, plural};
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::reaction::{attached_rerolls, reaction_test};

/// The four outcomes of a reaction test. They exclude one another: `fail_both` is failing both
/// dice without the pair of sixes, `rout` is the pair of sixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionDist {
    pub pass_both: Prob,
    pub pass_one: Prob,
    pub fail_both: Prob,
    pub rout: Prob,
}

impl ReactionDist {
    /// P(at least one die passed): the unit does not fall back.
    pub fn at_least_one_pass(&self) -> Prob {
        self.pass_both + self.pass_one
    }

    /// The outcomes best first, with their identifiers.
    pub fn outcomes(&self) -> [(&'static str, ReactionResult, Prob); 4] {
        [
            ("pass_both", ReactionResult::PassBoth, self.pass_both),
            ("pass_one", ReactionResult::PassOne, self.pass_one),
            ("fail_both", ReactionResult::FailBoth, self.fail_both),
            ("rout", ReactionResult::Rout, self.rout),
        ]
    }

    pub fn p(&self, r: ReactionResult) -> Prob {
        match r {
            ReactionResult::PassBoth => self.pass_both,
            ReactionResult::PassOne => self.pass_one,
            ReactionResult::FailBoth => self.fail_both,
            ReactionResult::Rout => self.rout,
        }
    }
}

/// The exact outcome distribution of [`reaction_test`] at `cv` with `modifier` on each die and
/// `rerolls` re-rolls to spend, over every sequence of dice (re-rolls included).
pub fn distribution(rules: &IronsidesRules, cv: u8, modifier: i8, rerolls: u8) -> ReactionDist {
    let d = enumerate(MAX_DICE, |dice| {
        reaction_test(rules, dice, cv, modifier, &mut Rerolls::new(rerolls)).result
    })
    .exact();
    ReactionDist {
        pass_both: d.p(&ReactionResult::PassBoth),
        pass_one: d.p(&ReactionResult::PassOne),
        fail_both: d.p(&ReactionResult::FailBoth),
        rout: d.p(&ReactionResult::Rout),
    }
}

/// A way of taking the test: who helps, with what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub id: &'static str,
    pub label: String,
    pub modifier: i8,
    pub rerolls: u8,
}

/// The three ways shown: alone; with one commander's re-roll; with a general attached (his die
/// modifier and the re-roll every attached general has: his own, or the free one).
pub fn variants(rules: &IronsidesRules) -> Vec<Variant> {
    let m = rules.reaction.attached_general_die_modifier;
    let (rr, _) = attached_rerolls(rules, 0);
    vec![
        Variant {
            id: "no_reroll",
            label: "No re-roll".into(),
            modifier: 0,
            rerolls: 0,
        },
        Variant {
            id: "one_reroll",
            label: "One re-roll (a commander in radius spends one RR)".into(),
            modifier: 0,
            rerolls: 1,
        },
        Variant {
            id: "attached_general",
            label: format!(
                "General attached: {} on each die and {rr} {}",
                signed(m),
                plural(rr, "re-roll", "re-rolls")
            ),
            modifier: m,
            rerolls: rr,
        },
    ]
}

pub fn table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("variant"),
        key("die_modifier"),
        key("rerolls"),
        key("cv"),
        key("outcome"),
        prob("p"),
        prob("p_this_or_better"),
    ]);
    let mut grids = Vec::new();
    for v in variants(rules) {
        let mut g = Grid::new(
            v.label.clone(),
            vec![
                "CV".into(),
                "pass both".into(),
                "pass one".into(),
                "fail both".into(),
                format!("rout ({0},{0})", rules.reaction.rout_on_double),
                "≥1 pass".into(),
            ],
        );
        for cv in 1..=rules.limits.cv_max {
            let d = distribution(rules, cv, v.modifier, v.rerolls);
            let mut acc = Prob::ZERO;
            for (id, _, p) in d.outcomes() {
                acc = acc + p;
                tidy.push(vec![
                    Cell::text(v.id),
                    Cell::int(v.modifier),
                    Cell::int(v.rerolls),
                    Cell::int(cv),
                    Cell::text(id),
                    Cell::P(p),
                    Cell::P(acc),
                ]);
            }
            g.push(vec![
                Cell::int(cv),
                Cell::P(d.pass_both),
                Cell::P(d.pass_one),
                Cell::P(d.fail_both),
                Cell::P(d.rout),
                Cell::P(d.at_least_one_pass()),
            ]);
        }
        grids.push(g);
    }
    Table {
        id: "reaction",
        title: "Reaction tests".into(),
        about: vec![
            "Roll 2D6, each die on its own against CV (die + modifier <= CV passes). Pass both: carry on. Pass one: no advance this turn. \
             Fail both: retire at least 4\" facing the enemy. A pair of sixes: rout. The four columns exclude one another and sum to 1; \
             `fail both` does not include the rout."
                .into(),
            "Each re-roll re-rolls one failed die; a die that fails again may be re-rolled again while re-rolls remain, the first die first \
             (as the engine spends them). A re-roll can turn a pair of sixes into a pass. `≥1 pass` is pass both + pass one: \
             the chance the unit does not fall back. The same test decides the loser of a close combat (fail one: retreat; fail both: rout)."
                .into(),
        ],
        tidy,
        grids,
    }
}

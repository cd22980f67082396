//! Chained tables: a charge followed through the rules as the engine plays it. Horse charges
//! home; the first round of melee is fought (and, when foot breaks before horse, the second
//! round standing); the loser tests; and victorious horse, +1 CV for the victory, takes its halt
//! test at the CV it has left, unless the foot it beat held its ground in contact.
//!
//! Every stage is the engine's own rule function ([`melee_dice`], [`melee_modifier`],
//! [`roll_melee`], [`foot_breaks`], [`combat_loser`], [`reaction_test`], [`victory_bonus`],
//! [`halt_test`]), each enumerated exactly; the stages are joined by conditioning on the state
//! each leaves (the CVs, who broke), so the chain is exact too. A Monte Carlo test in
//! `tests/tables.rs` fights the same chain die by die.

use super::exact::{Dist, enumerate};
use super::pursuit::{KINDS, pursue_chance};
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob};
use crate::army::{FootBalance, HorseKind, Side, Unit, UnitKind};
use crate::events::ReactionResult;
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::fire::effective_cv;
use crate::rules::ironsides::melee::{
    Approach, Cover, Role, combat_loser, foot_breaks, melee_dice, melee_modifier, roll_melee,
    victory_bonus,
};
use crate::rules::ironsides::pursuit::halt_test;
use crate::rules::ironsides::reaction::reaction_test;

/// The foot types shown against horse: (identifier, label, balance).
pub const FOOT: [(&str, &str, FootBalance); 3] = [
    ("foot", "foot", FootBalance::Normal),
    ("pike_heavy_foot", "pike-heavy foot", FootBalance::PikeHeavy),
    ("shot_heavy_foot", "shot-heavy foot", FootBalance::ShotHeavy),
];

/// How a chain ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Equal losses: both stay in contact and fight on next turn.
    Draw,
    /// The attacker won; `pursued` when it then failed its halt test. `held`: the beaten foot
    /// passed its test and stayed in contact, so there was no halt test.
    AttackerWon { held: bool, pursued: bool },
    /// The defender won; `pursued` as above (foot never pursues).
    DefenderWon { pursued: bool },
}

/// What is known between stages: both units as they stand, and the CV each lost so far.
#[derive(Debug, Clone, PartialEq)]
struct State {
    units: [Unit; 2],
    lost: [u8; 2],
}

/// The chain's outcome distribution, with whether foot broke along the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub ends: Dist<(End, bool)>,
}

impl Chain {
    pub fn p(&self, pred: impl Fn(End) -> bool) -> Prob {
        self.ends.p_where(|(e, _)| pred(*e))
    }
    pub fn attacker_wins(&self) -> Prob {
        self.p(|e| matches!(e, End::AttackerWon { .. }))
    }
    pub fn attacker_pursues(&self) -> Prob {
        self.p(|e| matches!(e, End::AttackerWon { pursued: true, .. }))
    }
    pub fn attacker_halts(&self) -> Prob {
        self.p(|e| {
            matches!(
                e,
                End::AttackerWon {
                    held: false,
                    pursued: false
                }
            )
        })
    }
    pub fn held(&self) -> Prob {
        self.p(|e| matches!(e, End::AttackerWon { held: true, .. }))
    }
    pub fn defender_wins(&self) -> Prob {
        self.p(|e| matches!(e, End::DefenderWon { .. }))
    }
    pub fn defender_pursues(&self) -> Prob {
        self.p(|e| matches!(e, End::DefenderWon { pursued: true }))
    }
    pub fn draw(&self) -> Prob {
        self.p(|e| e == End::Draw)
    }
    pub fn foot_broke(&self) -> Prob {
        self.ends.p_where(|(_, broke)| *broke)
    }
    /// P(the attacker pursues, given it won): what a player asks after "if I win...".
    pub fn pursue_given_win(&self) -> Option<Prob> {
        let w = self.attacker_wins();
        (!w.is_zero()).then(|| self.attacker_pursues() / w)
    }
}

/// The hits `me` scores on `enemy` in one strike, as the engine's `strike` rolls them.
fn hits(
    rules: &IronsidesRules,
    me: &Unit,
    enemy: &Unit,
    approach: Approach,
    role: Role,
) -> Dist<u8> {
    if !me.is_active() || !enemy.is_active() {
        let mut d = Dist::default();
        d.add(0, Prob::ONE);
        return d;
    }
    let n = melee_dice(rules, me, approach, enemy, role, false);
    let m = melee_modifier(rules, me, enemy, Cover::None, role);
    let cv = effective_cv(rules, me, 0);
    enumerate(MAX_DICE, |d| {
        roll_melee(rules, d, n, m, cv, &mut Rerolls::none())
    })
    .exact()
}

/// Applies `n` hits to unit `i` of the state, as the engine's `lose_cv` does (a unit at 0 CV
/// disintegrates).
fn wound(s: &mut State, i: usize, n: u8) {
    let lost = s.units[i].lose_cv(n);
    s.lost[i] += lost;
    if s.units[i].cv == 0 {
        s.units[i].status = crate::army::UnitStatus::Destroyed;
    }
}

/// Each outcome of `d` carried on by `f`, weighted.
fn bind<T: PartialEq, U: PartialEq>(d: Dist<T>, mut f: impl FnMut(T) -> Dist<U>) -> Dist<U> {
    let mut out = Dist::default();
    for (t, p) in d.outcomes {
        for (u, q) in f(t).outcomes {
            out.add(u, p * q);
        }
    }
    out
}

fn certain<T: PartialEq>(t: T) -> Dist<T> {
    let mut d = Dist::default();
    d.add(t, Prob::ONE);
    d
}

/// The first round: both sides strike on their CV before the melee (neither strikes first).
fn first_round(rules: &IronsidesRules, s: State, approach: [Approach; 2]) -> Dist<State> {
    let ha = hits(rules, &s.units[0], &s.units[1], approach[0], Role::Attacker);
    let hb = hits(rules, &s.units[1], &s.units[0], approach[1], Role::Defender);
    bind(ha, |a| {
        bind(hb.clone(), |b| {
            let mut t = s.clone();
            wound(&mut t, 1, a);
            wound(&mut t, 0, b);
            certain(t)
        })
    })
}

/// Foot that lost at least 2 CV and twice what it inflicted on horse breaks; the horse strike
/// again standing, then the foot (if any is left) strike back: the engine's order.
fn foot_break_round(rules: &IronsidesRules, s: State) -> Dist<State> {
    let mut d = certain(s);
    for foot in 0..2 {
        let other = 1 - foot;
        d = bind(d, |s| {
            let (f, e) = (&s.units[foot], &s.units[other]);
            if !(f.is_active()
                && !f.broken
                && foot_breaks(rules, f, e, s.lost[foot], s.lost[other]))
            {
                return certain(s);
            }
            let mut s = s;
            s.units[foot].broken = true;
            let first = hits(
                rules,
                &s.units[other],
                &s.units[foot],
                Approach::Standing,
                Role::Defender,
            );
            bind(first, |h| {
                let mut t = s.clone();
                wound(&mut t, foot, h);
                let back = hits(
                    rules,
                    &t.units[foot],
                    &t.units[other],
                    Approach::Standing,
                    Role::Defender,
                );
                bind(back, |h2| {
                    let mut u = t.clone();
                    wound(&mut u, other, h2);
                    certain(u)
                })
            })
        });
    }
    d
}

/// The loser tests (2D6 against its CV, no general, no re-rolls); victorious horse gains its CV
/// for the victory and, if the loser left contact, takes its halt test.
fn result(rules: &IronsidesRules, s: State) -> Dist<End> {
    let Some(loser) = combat_loser(s.lost[0], s.lost[1]) else {
        return certain(End::Draw);
    };
    let winner = 1 - loser;
    let left = if s.units[loser].is_active() {
        let cv = s.units[loser].cv;
        let test = enumerate(MAX_DICE, |d| {
            reaction_test(rules, d, cv, 0, &mut Rerolls::none()).result
        })
        .exact();
        let foot_loser = !s.units[loser].is_cavalry();
        test.map(|r| !(foot_loser && *r == ReactionResult::PassBoth))
    } else {
        certain(true)
    };
    let mut w = s.units[winner].clone();
    victory_bonus(rules, &mut w);
    let halt = enumerate(MAX_DICE, |d| halt_test(rules, d, &w).1).exact();
    bind(left, |left| {
        let pursued = if left && w.is_cavalry() {
            halt.map(|halted| !*halted)
        } else {
            certain(false)
        };
        pursued.map(|&pursued| {
            if winner == 0 {
                End::AttackerWon {
                    held: !left,
                    pursued,
                }
            } else {
                End::DefenderWon { pursued }
            }
        })
    })
}

/// The whole chain from contact: `attacker` charging at full speed into `defender`, who comes
/// in by `defender_approach` (a countercharge for horse, standing for foot).
pub fn follow(
    rules: &IronsidesRules,
    attacker: Unit,
    defender: Unit,
    defender_approach: Approach,
) -> Chain {
    let full = Approach::Charging(rules.charge.full_speed_distance);
    let start = State {
        units: [attacker, defender],
        lost: [0, 0],
    };
    let rounds = bind(first_round(rules, start, [full, defender_approach]), |s| {
        foot_break_round(rules, s)
    });
    let mut ends = Dist::default();
    for (s, p) in rounds.outcomes {
        let broke = s.units.iter().any(|u| u.broken);
        for (e, q) in result(rules, s).outcomes {
            ends.add((e, broke), p * q);
        }
    }
    Chain { ends }
}

pub fn horse(kind: HorseKind, cv: u8, side: Side) -> Unit {
    Unit::new(0, side, 0, UnitKind::Horse(kind), cv)
}

pub fn foot(balance: FootBalance, cv: u8) -> Unit {
    Unit::new(1, Side::Royalist, 0, UnitKind::Foot(balance), cv)
}

/// Horse charging horse that countercharges.
pub fn horse_chain(
    rules: &IronsidesRules,
    a: HorseKind,
    cv_a: u8,
    b: HorseKind,
    cv_b: u8,
) -> Chain {
    let full = Approach::Charging(rules.charge.full_speed_distance);
    follow(
        rules,
        horse(a, cv_a, Side::Parliament),
        Unit {
            id: 1,
            ..horse(b, cv_b, Side::Royalist)
        },
        full,
    )
}

/// Horse charging foot standing in line.
pub fn foot_chain(
    rules: &IronsidesRules,
    h: HorseKind,
    cv_h: u8,
    f: FootBalance,
    cv_f: u8,
) -> Chain {
    follow(
        rules,
        horse(h, cv_h, Side::Parliament),
        foot(f, cv_f),
        Approach::Standing,
    )
}

fn cvs(rules: &IronsidesRules) -> std::ops::RangeInclusive<u8> {
    2..=rules.limits.cv_max
}

fn p_or_empty(p: Option<Prob>) -> Cell {
    p.map(Cell::P).unwrap_or(Cell::Empty)
}

pub fn horse_table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("attacker"),
        key("defender"),
        key("cv_a"),
        key("cv_b"),
        prob("p_a_wins"),
        prob("p_a_wins_pursues"),
        prob("p_a_wins_halts"),
        prob("p_a_pursues_given_win"),
        prob("p_pursue_at_start_cv"),
        prob("p_b_wins"),
        prob("p_b_wins_pursues"),
        prob("p_draw"),
    ]);
    let mut grids = Vec::new();
    for (aid, alabel, ak) in KINDS {
        for (bid, blabel, bk) in KINDS {
            let mut g = Grid::new(
                format!("{alabel} (A) charge {blabel} (B), who countercharge"),
                [
                    "A CV",
                    "B CV",
                    "A wins",
                    "A wins, pursues",
                    "pursues if wins",
                    "pursuit table at A's CV",
                    "B wins",
                    "B wins, pursues",
                    "draw",
                ]
                .map(String::from)
                .to_vec(),
            )
            .labels(2);
            for a in cvs(rules) {
                for b in cvs(rules) {
                    let c = horse_chain(rules, ak, a, bk, b);
                    let naive = pursue_chance(rules, ak, a);
                    tidy.push(vec![
                        Cell::text(aid),
                        Cell::text(bid),
                        Cell::int(a),
                        Cell::int(b),
                        Cell::P(c.attacker_wins()),
                        Cell::P(c.attacker_pursues()),
                        Cell::P(c.attacker_halts()),
                        p_or_empty(c.pursue_given_win()),
                        Cell::P(naive),
                        Cell::P(c.defender_wins()),
                        Cell::P(c.defender_pursues()),
                        Cell::P(c.draw()),
                    ]);
                    g.push(vec![
                        Cell::int(a),
                        Cell::int(b),
                        Cell::P(c.attacker_wins()),
                        Cell::P(c.attacker_pursues()),
                        p_or_empty(c.pursue_given_win()),
                        Cell::P(naive),
                        Cell::P(c.defender_wins()),
                        Cell::P(c.defender_pursues()),
                        Cell::P(c.draw()),
                    ]);
                }
            }
            grids.push(g);
        }
    }
    Table {
        id: "charge_chain_horse",
        title: "Horse against horse: charge, first round, halt test".into(),
        about: vec![
            format!(
                "A charges {}\" or more and B countercharges: A rolls {} dice (never more than its CV), B as a defender; no cover, general, re-rolls or \
                 pistol shot (pistoleers are left out). The side that loses more CV loses the round and tests; the winner gains {} CV for the victory \
                 (never above its starting CV) and then takes its halt test at the CV it has now: failing it, it pursues. Equal losses are a draw.",
                rules.charge.full_speed_distance,
                rules.close_combat.horse_charge_full_dice,
                rules.options.victory_cv_bonus
            ),
            "`pursues if wins` is the chance A pursues given that it won; `pursuit table at A's CV` is what the `pursuit` table says at A's starting CV, \
             which is not the same question: the test is taken at the CV left after the melee, victory bonus included. The chain starts at contact: \
             the reaction tests before it (to charge, on being charged) are in the `reaction` table."
                .into(),
        ],
        tidy,
        grids,
    }
}

pub fn foot_table(rules: &IronsidesRules) -> Table {
    let mut tidy = Tidy::new(vec![
        key("horse"),
        key("foot"),
        key("cv_horse"),
        key("cv_foot"),
        prob("p_foot_breaks"),
        prob("p_horse_wins"),
        prob("p_foot_holds"),
        prob("p_horse_pursues"),
        prob("p_horse_halts"),
        prob("p_horse_pursues_given_win"),
        prob("p_foot_wins"),
        prob("p_draw"),
    ]);
    let mut grids = Vec::new();
    for (hid, hlabel, hk) in KINDS {
        for (fid, flabel, fb) in FOOT {
            let mut g = Grid::new(
                format!("{hlabel} charge {flabel} standing in line"),
                [
                    "horse CV",
                    "foot CV",
                    "foot breaks",
                    "horse wins",
                    "beaten foot holds",
                    "horse pursues",
                    "pursues if wins",
                    "foot wins",
                    "draw",
                ]
                .map(String::from)
                .to_vec(),
            )
            .labels(2);
            for h in cvs(rules) {
                for f in cvs(rules) {
                    let c = foot_chain(rules, hk, h, fb, f);
                    tidy.push(vec![
                        Cell::text(hid),
                        Cell::text(fid),
                        Cell::int(h),
                        Cell::int(f),
                        Cell::P(c.foot_broke()),
                        Cell::P(c.attacker_wins()),
                        Cell::P(c.held()),
                        Cell::P(c.attacker_pursues()),
                        Cell::P(c.attacker_halts()),
                        p_or_empty(c.pursue_given_win()),
                        Cell::P(c.defender_wins()),
                        Cell::P(c.draw()),
                    ]);
                    g.push(vec![
                        Cell::int(h),
                        Cell::int(f),
                        Cell::P(c.foot_broke()),
                        Cell::P(c.attacker_wins()),
                        Cell::P(c.held()),
                        Cell::P(c.attacker_pursues()),
                        p_or_empty(c.pursue_given_win()),
                        Cell::P(c.defender_wins()),
                        Cell::P(c.draw()),
                    ]);
                }
            }
            grids.push(g);
        }
    }
    let cc = &rules.close_combat;
    Table {
        id: "charge_chain_foot",
        title: "Horse against foot: charge, first round, the foot's test, halt test".into(),
        about: vec![
            format!(
                "Horse charges {}\" or more into foot standing in line (not in hedgehog, no cover): the horse rolls {} dice (never more than its CV), \
                 the foot {}. Foot that loses at least {} CV and at least {} times what it inflicted breaks at once, and a second round is fought \
                 standing (the horse {} on each die against broken foot). The loser tests 2D6 against its CV: beaten foot that passes both dice holds in contact \
                 (no pursuit); otherwise victorious horse gains {} CV and takes its halt test at the CV it has now.",
                rules.charge.full_speed_distance,
                cc.horse_charge_full_dice,
                cc.foot_dice,
                cc.foot_break_min_loss,
                cc.foot_break_ratio,
                super::signed(cc.vs_broken),
                rules.options.victory_cv_bonus
            ),
            "`horse pursues` counts the charges that win and then pursue; `beaten foot holds` the wins after which the foot stayed in contact; \
             `pursues if wins` is conditional on the horse winning. Foot that wins never pursues. The reaction tests before contact are in the `reaction` table."
                .into(),
        ],
        tidy,
        grids,
    }
}

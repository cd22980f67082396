//! Chained tables: a charge followed through the rules as the engine plays it. Horse charges
//! home; the first round of melee is fought (and, when foot breaks before horse, the second
//! round standing); the loser tests; and victorious horse, +1 CV for the victory, takes its halt
//! test at the CV it has left, unless the foot it beat held its ground in contact.
//!
//! Every stage is the engine's own rule function ([`melee_dice`], [`melee_modifier`],
//! [`roll_melee`], [`foot_breaks`], [`melee_loser`], [`reaction_test`], [`victory_bonus`],
//! [`halt_test`]), each enumerated exactly; the stages are joined by conditioning on the state
//! each leaves (the CVs, who broke), so the chain is exact too. A Monte Carlo test in
//! `tests/tables.rs` fights the same chain die by die.
//!
//! [`black_powder`] follows Black Powder's own sequence the same way (charge, closing fire,
//! first round, break test, sweeping advance), cross-checked through its engine in
//! `tests/black_powder_tables.rs`. [`dickenson`] follows Dickenson's (closing fire, the throw
//! before impact, the pistol breach, impetus, two rounds, the morale throw), cross-checked
//! through its engine in `tests/dickenson_tables.rs`.

use super::exact::{Dist, enumerate};
use super::pursuit::{KINDS, pursue_chance};
use super::{Cell, Grid, MAX_DICE, Prob, Table, Tidy, key, prob};
use crate::army::{FootBalance, HorseKind, Side, Unit, UnitKind};
use crate::events::ReactionResult;
use crate::rules::ironsides::IronsidesRules;
use crate::rules::ironsides::dice_rules::Rerolls;
use crate::rules::ironsides::fire::effective_cv;
use crate::rules::ironsides::melee::{
    Approach, Cover, Role, foot_breaks, melee_dice, melee_loser, melee_modifier, roll_melee,
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
    let gone = s.units.each_ref().map(|u| !u.is_active());
    let Some(loser) = melee_loser(rules, s.lost, gone) else {
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

/// Adds a row to the tidy data, and to the grid less the columns `hidden` (by index).
fn push_row(tidy: &mut Tidy, grid: &mut Grid, row: Vec<Cell>, hidden: &[usize]) {
    grid.push(
        row.iter()
            .enumerate()
            .filter(|(i, _)| !hidden.contains(i))
            .map(|(_, c)| c.clone())
            .collect(),
    );
    tidy.push(row);
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
                    let row = vec![
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
                    ];
                    // The grid leaves out the kinds (in its caption) and A halting.
                    push_row(&mut tidy, &mut g, row, &[0, 1, 6]);
                }
            }
            grids.push(g);
        }
    }
    Table {
        id: "charge_chain_horse",
        title: "Horse against horse: charge, first round, halt test".into(),
        about: horse_about(rules),
        tidy,
        grids,
    }
}

/// The horse table's notes: what each chain assumes and what its columns mean.
fn horse_about(rules: &IronsidesRules) -> Vec<String> {
    vec![
        format!(
            "A charges {}\" or more and B countercharges: A rolls {} dice (never more than its CV), B as a defender; no cover, general, re-rolls or \
             pistol shot (pistoleers are left out). The side that loses more CV loses the round and tests; the winner gains {} CV for the victory \
             (never above its starting CV) and then takes its halt test at the CV it has now: failing it, it pursues. Equal losses are a draw.{}",
            rules.charge.full_speed_distance,
            rules.close_combat.horse_charge_full_dice,
            rules.options.victory_cv_bonus,
            super::melee::wiped_out_words(rules)
        ),
        "`pursues if wins` is the chance A pursues given that it won; `pursuit table at A's CV` is what the `pursuit` table says at A's starting CV, \
         which is not the same question: the test is taken at the CV left after the melee, victory bonus included. The chain starts at contact: \
         the reaction tests before it (to charge, on being charged) are in the `reaction` table."
            .into(),
    ]
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
                    let row = vec![
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
                    ];
                    // The grid leaves out the types (in its caption) and the horse halting.
                    push_row(&mut tidy, &mut g, row, &[0, 1, 8]);
                }
            }
            grids.push(g);
        }
    }
    Table {
        id: "charge_chain_foot",
        title: "Horse against foot: charge, first round, the foot's test, halt test".into(),
        about: foot_about(rules),
        tidy,
        grids,
    }
}

/// The foot table's notes: what each chain assumes and what its columns mean.
fn foot_about(rules: &IronsidesRules) -> Vec<String> {
    let cc = &rules.close_combat;
    vec![
        format!(
            "Horse charges {}\" or more into foot standing in line (not in hedgehog, no cover): the horse rolls {} dice (never more than its CV), \
             the foot {}. Foot that loses at least {} CV and at least {} times what it inflicted breaks at once, and a second round is fought \
             standing (the horse {} on each die against broken foot). The loser tests 2D6 against its CV: beaten foot that passes both dice holds in contact \
             (no pursuit); otherwise victorious horse gains {} CV and takes its halt test at the CV it has now.{}",
            rules.charge.full_speed_distance,
            cc.horse_charge_full_dice,
            cc.foot_dice,
            cc.foot_break_min_loss,
            cc.foot_break_ratio,
            super::signed(cc.vs_broken),
            rules.options.victory_cv_bonus,
            super::melee::wiped_out_words(rules)
        ),
        "`horse pursues` counts the charges that win and then pursue; `beaten foot holds` the wins after which the foot stayed in contact; \
         `pursues if wins` is conditional on the horse winning. Foot that wins never pursues. The reaction tests before contact are in the `reaction` table."
            .into(),
    ]
}

pub mod dickenson;

/// Black Powder's common sequence followed through as its engine plays it: a charge met by
/// closing fire (a charger it shakes tests, and stops unless it holds), the first round of
/// melee, the loser's break test, and a victorious horse's sweeping advance. Element against
/// element, in the open, no supports, commanders or flanks; each stage enumerated exactly
/// through the ruleset's own rule functions and joined on the state it leaves.
pub mod black_powder {
    use super::{bind, certain, push_row};
    use crate::dice::DiceSource;
    use crate::doctrine::DoctrineParams;
    use crate::rules::black_powder::BlackPowderRules;
    use crate::rules::black_powder::battle::doctrine;
    use crate::rules::black_powder::melee::{self, Round, Standing};
    use crate::rules::black_powder::morale::{self, BreakResult, SaveSituation};
    use crate::rules::black_powder::shooting::{self, Shot};
    use crate::rules::black_powder::tables::{Quality, SpecialRule};
    use crate::rules::black_powder::units::{Specials, Troop, armour, stats};
    use crate::tables::black_powder::{MELEE_TROOPS, casualty_chance_on};
    use crate::tables::exact::{Dist, Prob, binomial, enumerate};
    use crate::tables::{Cell, Grid, MAX_DICE, Table, Tidy, key, prob};

    /// The gap (inches) a charge starts from: closing fire is shot at it.
    pub const CHARGE_GAP: f64 = 6.0;

    /// The built-in doctrine the table's regiments fight under: one whose horse sweeps on.
    pub const SWEEPING: &str = "rupert";

    /// One side of the chain: its element and its regiment's stamina, casualties already
    /// taken (fewer than its stamina: a shaken regiment does not charge) and special rules.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Fighter {
        pub troop: Troop,
        pub stamina: u8,
        pub casualties: u8,
        pub specials: Specials,
    }

    impl Fighter {
        /// A Standard-sized Trained regiment of this element with no special rules.
        pub fn standard(troop: Troop, rules: &BlackPowderRules) -> Fighter {
            Fighter {
                troop,
                stamina: rules.stamina.standard.get(Quality::Trained),
                casualties: 0,
                specials: Specials::default(),
            }
        }
        fn has(&self, r: SpecialRule) -> bool {
            self.specials.has(r)
        }
    }

    /// How the chain ends.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum End {
        /// Closing fire shook the charger and it failed its break test: no contact.
        Stopped(BreakResult),
        /// Equal results: the melee goes on next turn.
        Draw,
        /// A side won the round (`attacker` or not); the loser's break test; whether the winner
        /// went on a sweeping advance.
        Won {
            attacker: bool,
            loser: BreakResult,
            sweeps: bool,
        },
    }

    /// The charger after closing fire: stopped, or going in with its casualties, disorder and
    /// break tests taken.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Fired {
        Stopped(BreakResult),
        Went {
            casualties: u8,
            disordered: bool,
            tests: u8,
        },
    }

    /// A break test: Steady passes its first free; otherwise the dice less excess casualties
    /// and the margin lost by.
    fn break_test(
        rules: &BlackPowderRules,
        f: &Fighter,
        tests_taken: u8,
        casualties: u8,
        lost_by: u8,
    ) -> Dist<BreakResult> {
        if f.has(SpecialRule::Steady) && morale::steady_passes(tests_taken, rules) {
            return certain(BreakResult::Hold);
        }
        let excess = morale::excess(casualties, f.stamina);
        enumerate(MAX_DICE, |d| {
            let roll = d.sum_d6(u32::from(rules.break_test.dice)) as u8;
            morale::break_result(roll, excess, lost_by, rules)
        })
        .exact()
    }

    /// The defender's closing fire at the charger `CHARGE_GAP` away, its front to the charger.
    fn closing_fire(rules: &BlackPowderRules, a: &Fighter, d: &Fighter, gap: f64) -> Dist<Fired> {
        let untouched = Fired::Went {
            casualties: a.casualties,
            disordered: false,
            tests: 0,
        };
        let n = shooting::base_dice(d.troop, gap, rules);
        if n == 0 {
            return certain(untouched);
        }
        let shot = Shot {
            shooter: d.troop,
            target: a.troop,
            gap,
            target_hedgehog: false,
            closing: true,
            shooter_shaken_or_disordered: false,
            target_not_clear: false,
            overhead: false,
            first_fire: d.has(SpecialRule::FirstFire),
        };
        let m = shooting::to_hit_modifier(&shot.volley(rules), rules);
        let sm = morale::save_modifier(&shot.save(rules), rules);
        let morale_of = stats(a.troop, rules).morale;
        let saved = enumerate(MAX_DICE, |dice| {
            morale::saves(dice.d6(), morale_of, sm, rules)
        })
        .exact()
        .p(&true);
        let hits = enumerate(MAX_DICE, |dice| {
            shooting::roll_hits(dice, n, m, rules.shooting.hit_on, rules)
        })
        .exact();
        bind(hits, |h| {
            let mut out = Dist::default();
            for (c, p) in binomial(u32::from(h.hits), saved.complement())
                .into_iter()
                .enumerate()
            {
                out.add((c as u8, h.disorder), p);
            }
            bind(out, |(c, disordered)| {
                let c = a.casualties + c;
                if !morale::shaken(c, a.stamina) {
                    return certain(Fired::Went {
                        casualties: c,
                        disordered,
                        tests: 0,
                    });
                }
                break_test(rules, a, 0, c, 0).map(|r| match r {
                    BreakResult::Hold => Fired::Went {
                        casualties: c.min(a.stamina),
                        disordered,
                        tests: 1,
                    },
                    r => Fired::Stopped(*r),
                })
            })
        })
    }

    /// The casualties `me` causes `foe` in a first round (index k: exactly k), and its result
    /// bonus.
    fn strike(
        rules: &BlackPowderRules,
        me: &Fighter,
        foe: &Fighter,
        charging: bool,
        shaken_or_disordered: bool,
    ) -> (Vec<Prob>, i16) {
        let round = Round {
            charging,
            pike_first_round: me.troop == Troop::Pike,
            shaken_or_disordered,
            skirmishers: me.troop == Troop::Skirmisher,
            ..Round::default()
        };
        let lance = charging && me.has(SpecialRule::Lance);
        let save = SaveSituation {
            pike_vs_mounted: foe.troop == Troop::Pike && me.troop.is_cavalry(),
            lance_vs_cavalry: lance && foe.troop.is_cavalry(),
            lance_vs_infantry: lance && foe.troop.is_infantry(),
            armour: armour(foe.troop, rules),
            ..SaveSituation::default()
        };
        let p = casualty_chance_on(
            rules,
            rules.melee.hit_on,
            melee::to_hit_modifier(&round, rules),
            stats(foe.troop, rules).morale,
            morale::save_modifier(&save, rules),
        );
        let standing = Standing {
            pike_vs_cavalry: me.troop == Troop::Pike && foe.troop.is_cavalry(),
            ..Standing::default()
        };
        (
            binomial(u32::from(stats(me.troop, rules).melee), p),
            melee::result_modifier(&standing, rules),
        )
    }

    /// Whether winner `w` (`shaken` or not) sweeps on after its enemy broke or retired, under
    /// `doctrine`: the engine's own question, its Rash die enumerated.
    fn sweeps(
        rules: &BlackPowderRules,
        w: &Fighter,
        shaken: bool,
        doctrine: &DoctrineParams,
    ) -> Dist<bool> {
        let victor = melee::Victor {
            horse: w.troop.is_cavalry(),
            shaken,
            rash: w.has(SpecialRule::Rash),
        };
        let on = doctrine::sweeps(doctrine);
        enumerate(MAX_DICE, |d| melee::sweeps(victor, on, || d.d6(), rules)).exact()
    }

    /// The whole chain: `a` charges `d` from [`CHARGE_GAP`], both fighting under `doctrine`
    /// (whether a winning horse that is not Rash sweeps on).
    pub fn follow(
        rules: &BlackPowderRules,
        a: &Fighter,
        d: &Fighter,
        doctrine: &DoctrineParams,
    ) -> Dist<End> {
        bind(closing_fire(rules, a, d, CHARGE_GAP), |fired| {
            let Fired::Went {
                casualties,
                disordered,
                tests,
            } = fired
            else {
                let Fired::Stopped(r) = fired else {
                    unreachable!()
                };
                return certain(End::Stopped(r));
            };
            let shaken = morale::shaken(casualties, a.stamina);
            let (to_d, bonus_a) = strike(rules, a, d, true, shaken || disordered);
            let (to_a, bonus_d) = strike(rules, d, a, false, false);
            let mut rounds = Dist::default();
            for (i, pi) in to_d.iter().enumerate() {
                for (j, pj) in to_a.iter().enumerate() {
                    rounds.add((i as u8, j as u8), *pi * *pj);
                }
            }
            bind(rounds, |(i, j)| {
                let (att, def) = (casualties + j, d.casualties + i);
                match melee::outcome(i16::from(i) + bonus_a, i16::from(j) + bonus_d) {
                    melee::Outcome::Draw => certain(End::Draw),
                    // (A winner shaken by now makes no sweeping advance.)
                    melee::Outcome::AWins(m) => {
                        let shaken = morale::shaken(att, a.stamina);
                        won(rules, (a, d), (def, 0, m), true, (doctrine, shaken))
                    }
                    melee::Outcome::BWins(m) => {
                        let shaken = morale::shaken(def, d.stamina);
                        won(rules, (d, a), (att, tests, m), false, (doctrine, shaken))
                    }
                }
            })
        })
    }

    /// The loser's break test (its casualties, tests taken and margin) and the winner's sweep
    /// (under `doctrine`; `shaken`: the winner is) when the loser did not hold.
    fn won(
        rules: &BlackPowderRules,
        (winner, loser): (&Fighter, &Fighter),
        (casualties, tests, lost_by): (u8, u8, u8),
        attacker: bool,
        (doctrine, shaken): (&DoctrineParams, bool),
    ) -> Dist<End> {
        bind(break_test(rules, loser, tests, casualties, lost_by), |r| {
            let on = if r == BreakResult::Hold {
                certain(false)
            } else {
                sweeps(rules, winner, shaken, doctrine)
            };
            on.map(|&sweeps| End::Won {
                attacker,
                loser: r,
                sweeps,
            })
        })
    }

    /// The chargers of the table: the first-melee table's attackers and Rash horse.
    pub fn chargers(rules: &BlackPowderRules) -> Vec<(Fighter, String)> {
        let mut out: Vec<(Fighter, String)> = MELEE_TROOPS[..4]
            .iter()
            .map(|&(t, name)| (Fighter::standard(t, rules), name.to_string()))
            .collect();
        let horse = out[2].0;
        out.insert(
            3,
            (
                Fighter {
                    specials: horse.specials.with(SpecialRule::Rash),
                    ..horse
                },
                "Rash horse".into(),
            ),
        );
        out
    }

    pub fn table(rules: &BlackPowderRules) -> Table {
        let cols = [
            "p_stopped",
            "p_attacker_wins",
            "p_defender_broken",
            "p_defender_retires",
            "p_defender_holds",
            "p_attacker_sweeps",
            "p_draw",
            "p_defender_wins",
            "p_attacker_broken",
            "p_attacker_retires",
            "p_defender_sweeps",
        ];
        let mut columns = vec![
            key("attacker"),
            key("defender"),
            key("attacker_casualties_before"),
        ];
        columns.extend(cols.iter().map(|&c| prob(c)));
        let mut tidy = Tidy::new(columns);
        let stamina = rules.stamina.standard.get(Quality::Trained);
        let sweeping = DoctrineParams::builtin(SWEEPING).expect("a built-in doctrine");
        let mut grids = Vec::new();
        for worn in [0, stamina.saturating_sub(1)] {
            let mut grid = Grid::new(
                format!(
                    "A Standard Trained element with {worn} casualties charging from {CHARGE_GAP}\" into a fresh one"
                ),
                [
                    "Attacker",
                    "Defender",
                    "Stopped by fire",
                    "Attacker wins",
                    "Defender broken",
                    "Defender retires",
                    "Defender holds",
                    "Attacker sweeps on",
                    "Draw",
                    "Defender wins",
                    "Attacker broken",
                ]
                .map(String::from)
                .to_vec(),
            )
            .labels(2);
            for (a, an) in chargers(rules) {
                let a = Fighter {
                    casualties: worn,
                    ..a
                };
                for &(dt, dn) in &MELEE_TROOPS {
                    let ends = follow(rules, &a, &Fighter::standard(dt, rules), &sweeping);
                    let values = chain_values(&ends);
                    let mut row = vec![Cell::text(an.clone()), Cell::text(dn), Cell::int(worn)];
                    row.extend(values.iter().map(|&v| Cell::P(v)));
                    // The grid leaves out the casualties (in its caption), the attacker
                    // retiring and the defender's sweep.
                    push_row(&mut tidy, &mut grid, row, &[2, 12, 13]);
                }
            }
            grids.push(grid);
        }
        Table {
            id: "bp_charge_chain",
            title:
                "A charge followed through: closing fire, first round, break test, sweeping advance"
                    .into(),
            about: about(rules),
            tidy,
            grids,
        }
    }

    /// The table's notes: what each chain assumes and what its columns mean.
    fn about(rules: &BlackPowderRules) -> Vec<String> {
        vec![
            format!(
                "Both sides are Standard Trained regiments (stamina {}) fighting with one element each, in the open, with no supports, commanders, \
                 flanks or special rules but Rash; the charger is fresh, or one casualty short of shaken. The defender shoots closing fire at {CHARGE_GAP}\" (+{}; a natural 6 disorders): a charger shaken by it \
                 tests and, unless it holds, is stopped (retires or breaks) before contact. Then a first round (+{} charging), the loser's break test \
                 less its excess casualties and the margin it lost by, and a winning horse's sweeping advance (none when shaken): Rash horse unless a D6 scores {} or more, \
                 other horse when its doctrine sweeps on (its `sweeping_advance`; here Rupert's, which does).",
                rules.stamina.standard.get(Quality::Trained),
                rules.shooting.closing_fire,
                rules.melee.charging,
                rules.special.rash_halt_on
            ),
            "A pike block with the Hedgehog rule forms hedgehog against horse and cannot be charged from the front (the `bp_hedgehog` table); \
             a regiment of foot fights with every element in contact, so whole regiments add up several of these rows. The CSV also has \
             the attacker retiring and the defender's own sweeping advance."
                .into(),
        ]
    }

    /// The table's columns from a chain's ends: stopped; attacker wins (defender broken,
    /// retires, holds), attacker sweeps; draw; defender wins (attacker broken, retires),
    /// defender sweeps.
    pub fn chain_values(ends: &Dist<End>) -> [Prob; 11] {
        let p = |f: &dyn Fn(End) -> bool| ends.p_where(|e| f(*e));
        let won = |att: bool, r: Option<BreakResult>| {
            p(&|e| {
                matches!(e, End::Won { attacker, loser, .. }
                    if attacker == att && r.is_none_or(|r| r == loser))
            })
        };
        let sweep = |att: bool| {
            p(&|e| matches!(e, End::Won { attacker, sweeps: true, .. } if attacker == att))
        };
        [
            p(&|e| matches!(e, End::Stopped(_))),
            won(true, None),
            won(true, Some(BreakResult::Broken)),
            won(true, Some(BreakResult::Retire)),
            won(true, Some(BreakResult::Hold)),
            sweep(true),
            p(&|e| e == End::Draw),
            won(false, None),
            won(false, Some(BreakResult::Broken)),
            won(false, Some(BreakResult::Retire)),
            sweep(false),
        ]
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn sweeping() -> DoctrineParams {
            DoctrineParams::builtin(SWEEPING).unwrap()
        }

        #[test]
        fn a_worn_horse_charging_horse_is_stopped_by_pistols_as_worked_by_hand() {
            let r = BlackPowderRules::builtin();
            let horse = Troop::Horse(crate::army::HorseKind::Trotters);
            let worn = Fighter {
                casualties: 3,
                ..Fighter::standard(horse, &r)
            };
            let ends = follow(&r, &worn, &Fighter::standard(horse, &r), &sweeping());
            assert_eq!(ends.total(), Prob::ONE);
            // One pistol die at 6": +1 closing, +1 close range, so 2+ (a 1 misses): 5/6; the
            // 4+ save fails 1/2; the fourth casualty shakes it and its test (no penalty)
            // fails on 15 of 36.
            let v = chain_values(&ends);
            assert_eq!(v[0], Prob::new(5, 12) * Prob::new(15, 36));
            // Every end is counted once: stopped, attacker wins, draw, defender wins.
            assert_eq!(v[0] + v[1] + v[6] + v[7], Prob::ONE);
            assert_eq!(v[1], v[2] + v[3] + v[4]);
            // Not Rash, sweeping: a win that breaks or drives off the loser sweeps on, unless
            // the winner is shaken by then: one casualty more shakes this one, so it sweeps on
            // after some of those wins and not all.
            assert!(v[5] < v[2] + v[3] && !v[5].is_zero(), "{v:?}");
        }

        #[test]
        fn pikes_never_stop_a_charge_and_rash_horse_halts_on_five_or_six() {
            let r = BlackPowderRules::builtin();
            let chargers = chargers(&r);
            let (horse, rash) = (chargers[2].0, chargers[3].0);
            let pike = Fighter::standard(Troop::Pike, &r);
            for (a, _) in &chargers {
                let worn = Fighter {
                    casualties: 3,
                    ..*a
                };
                assert!(chain_values(&follow(&r, &worn, &pike, &sweeping()))[0].is_zero());
            }
            let d = Fighter::standard(Troop::Dragoon, &r);
            let (h, x) = (
                chain_values(&follow(&r, &horse, &d, &sweeping())),
                chain_values(&follow(&r, &rash, &d, &sweeping())),
            );
            assert_eq!(h[1], x[1]);
            assert_eq!(x[5], h[5] * Prob::new(4, 6));
        }

        /// The doctrine's `sweeping_advance` answers for horse that is not Rash, as in the
        /// engine: Cromwell's horse wins as often and never sweeps on; Rash horse throws its die
        /// whatever the doctrine.
        #[test]
        fn a_doctrine_that_does_not_sweep_holds_its_horse_but_not_rash_horse() {
            let r = BlackPowderRules::builtin();
            let cromwell = DoctrineParams::builtin("cromwell").unwrap();
            let chargers = chargers(&r);
            let (horse, rash) = (chargers[2].0, chargers[3].0);
            let d = Fighter::standard(Troop::Dragoon, &r);
            let on = chain_values(&follow(&r, &horse, &d, &sweeping()));
            let off = chain_values(&follow(&r, &horse, &d, &cromwell));
            assert!(!on[5].is_zero() && off[5].is_zero());
            assert_eq!(on[..5], off[..5]);
            assert_eq!(
                chain_values(&follow(&r, &rash, &d, &cromwell)),
                chain_values(&follow(&r, &rash, &d, &sweeping()))
            );
        }
    }
}

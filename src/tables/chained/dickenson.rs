//! Dickenson's common sequence followed through as its engine plays it: a charge met by closing
//! fire at short range; horse fired upon, or charging a pikestand, throw before impact and turn
//! or swerve away on a bad throw; the pistol breach of a pikestand; impetus and the two melee
//! rounds; then the morale throw at the end of the move, with the points each regiment has
//! actually lost (figures, officers and standards struck), the charger's side throwing first.
//!
//! Every die is enumerated through the ruleset's own functions ([`volley::fire`],
//! [`after_saves`], [`morale::struck`], [`morale::formation_throw`], [`melee::impetus`],
//! [`melee::round`], [`morale::throw`]); the stages are joined on the state each leaves, kept in
//! the engine's own [`Regiment`]. The sums run in floating point: a chain throws a hundred dice
//! and more, and the exact fractions' denominators (powers of 6) outgrow 128 bits. The Monte
//! Carlo test in `tests/dickenson_tables.rs` fights the same charge through the battle engine.

use std::collections::HashMap;
use std::hash::Hash;

use super::push_row;
use crate::army::{FootBalance, HorseKind, Side, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::rules::dickenson::DickensonRules;
use crate::rules::dickenson::battle::{Kind, Regiment, State};
use crate::rules::dickenson::figures::{Figure, after_saves};
use crate::rules::dickenson::melee;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult, Struck};
use crate::rules::dickenson::volley::{self, Arm, Band};
use crate::tables::exact::{Dist, binomial, enumerate};
use crate::tables::{Cell, Grid, MAX_DICE, Table, Tidy, key, prob};

/// A distribution in floating point, each outcome once in the order first met (so every run
/// adds in the same order and prints the same digits).
#[derive(Debug, Clone)]
pub struct Weights<K> {
    items: Vec<(K, f64)>,
    index: HashMap<K, usize>,
}

impl<K: Clone + Eq + Hash> Default for Weights<K> {
    fn default() -> Self {
        Weights::new()
    }
}

impl<K: Clone + Eq + Hash> Weights<K> {
    fn new() -> Self {
        Weights {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }

    fn certain(k: K) -> Self {
        let mut w = Weights::new();
        w.add(k, 1.0);
        w
    }

    /// Adds `p` to outcome `k`.
    pub fn add(&mut self, k: K, p: f64) {
        if p == 0.0 {
            return;
        }
        if let Some(&i) = self.index.get(&k) {
            self.items[i].1 += p;
        } else {
            self.index.insert(k.clone(), self.items.len());
            self.items.push((k, p));
        }
    }

    /// Each outcome carried on by `f`, weighted.
    fn bind<U: Clone + Eq + Hash>(self, mut f: impl FnMut(K) -> Weights<U>) -> Weights<U> {
        let mut out = Weights::new();
        for (k, p) in self.items {
            for (u, q) in f(k).items {
                out.add(u, p * q);
            }
        }
        out
    }

    /// The probability that `pred` holds.
    pub fn p_where(&self, pred: impl Fn(&K) -> bool) -> f64 {
        // Plus zero: an empty sum of floats is -0.
        self.items
            .iter()
            .filter(|(k, _)| pred(k))
            .map(|(_, p)| p)
            .sum::<f64>()
            + 0.0
    }

    pub fn total(&self) -> f64 {
        self.items.iter().map(|(_, p)| p).sum()
    }
}

/// An engine regiment as a state of the chain: compared and hashed on what the sequence
/// changes.
#[derive(Debug, Clone, Copy)]
struct Reg(Regiment);

type RegKey = ([u16; 6], [bool; 9], State, u64, u8, u8, Option<u16>);

impl Reg {
    fn key(&self) -> RegKey {
        let r = &self.0;
        (
            [
                r.pikemen,
                r.musketeers,
                r.horsemen,
                r.melee_lost,
                r.lost_this_move,
                r.start_points,
            ],
            [
                r.officer,
                r.mounted_officer,
                r.standard,
                r.attacker,
                r.impetus,
                r.won_melee,
                r.enemy_withdrew,
                r.fought,
                r.loaded,
            ],
            r.state,
            r.carried.to_bits(),
            r.pistols,
            r.rounds,
            r.engaged,
        )
    }
}

impl PartialEq for Reg {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl Eq for Reg {}
impl Hash for Reg {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

/// How the charge went in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Charge {
    /// Still on its way (between stages).
    Going,
    /// Horse that failed its throw turned about (trot, canter) or swerved past (gallop).
    TurnedAway,
    /// The pistol volley killed nobody in the front rank: held at the pikes' points.
    HeldAtPikes,
    /// The charger was destroyed by closing fire, or the breach left nobody to strike.
    Nobody,
    Contact,
}

/// What became of one regiment by the end of the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fate {
    /// It neither fought nor lost a figure: no throw.
    Untested,
    Good,
    /// Stand, disordered, no advance next move.
    Stand,
    FallBack,
    Rout,
    /// No figures left.
    Destroyed,
}

impl Fate {
    fn of(m: MoraleResult) -> Fate {
        match m {
            MoraleResult::Good => Fate::Good,
            MoraleResult::Stand => Fate::Stand,
            MoraleResult::FallBack => Fate::FallBack,
            MoraleResult::Rout => Fate::Rout,
        }
    }
    /// Held its ground: good, stand, or untested.
    pub fn holds(self) -> bool {
        matches!(self, Fate::Untested | Fate::Good | Fate::Stand)
    }
    /// Routed or destroyed.
    pub fn routs(self) -> bool {
        matches!(self, Fate::Rout | Fate::Destroyed)
    }
}

/// How a chain ends: the charge, who won the melee (fewer figures lost), each regiment's fate
/// (charger first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct End {
    pub charge: Charge,
    pub won: [bool; 2],
    pub fate: [Fate; 2],
}

/// A step of the chain: both regiments (charger first) and the charge so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Step {
    r: [Reg; 2],
    charge: Charge,
}

/// One charge of the table: the two troop types and whether the target's closing fire meets it
/// (the charger starts within the firer's range and moves at least half its move to contact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    pub attacker: UnitKind,
    pub defender: UnitKind,
    pub closing_fire: bool,
}

/// The charger (regiment 0, Parliament) and its target (regiment 1, Royalist), of the rules'
/// strength for their kind.
pub fn regiments(rules: &DickensonRules, spec: &Spec) -> [Regiment; 2] {
    [
        Regiment::derive(&Unit::new(0, Side::Parliament, 0, spec.attacker, 4), rules),
        Regiment::derive(&Unit::new(1, Side::Royalist, 1, spec.defender, 4), rules),
    ]
}

fn to_f64<T: PartialEq>(d: Dist<T>) -> Vec<(T, f64)> {
    d.outcomes
        .into_iter()
        .map(|(t, p)| (t, p.to_f64()))
        .collect()
}

/// The rule functions enumerated once for each set of arguments the chain meets.
struct Chain<'a> {
    rules: &'a DickensonRules,
    volleys: HashMap<(Arm, u32), Vec<(u32, f64)>>,
    impetus: HashMap<(Figure, u32), Vec<(u32, f64)>>,
    rounds: HashMap<RoundKey, Vec<(Blow, f64)>>,
    throws: HashMap<(u16, u32), Vec<(MoraleResult, f64)>>,
    struck: HashMap<HitKey, Vec<(Struck3, f64)>>,
    blows: HashMap<BlowKey, Weights<(u32, u64)>>,
}

/// One body's round: its figure and number, the pike bonus, the figure struck, points carried.
type RoundKey = (Figure, u32, bool, Figure, u64);
/// Figures hit (before saves) and the casualty points carried.
type Blow = (u32, f64);
/// Casualties before saves on a regiment: their number, its figure, officers and standard left,
/// rank and file left (counted up to the casualties).
type HitKey = (u32, Figure, u32, bool, u16);
/// Officers struck, the standard struck, figures lost.
type Struck3 = (u32, bool, u16);

/// What a regiment's blow depends on: its kind and bodies, the points it carries, whether this
/// is the melee's first round and the move's, and the figure it strikes.
type BlowKey = (Kind, [u16; 4], u64, bool, bool, Figure);

impl<'a> Chain<'a> {
    fn new(rules: &'a DickensonRules) -> Self {
        Chain {
            rules,
            volleys: HashMap::new(),
            impetus: HashMap::new(),
            rounds: HashMap::new(),
            throws: HashMap::new(),
            struck: HashMap::new(),
            blows: HashMap::new(),
        }
    }

    /// Casualties (before saves) of `men` firing `arm` at short range.
    fn volley(&mut self, arm: Arm, men: u32) -> Vec<(u32, f64)> {
        let r = self.rules;
        self.volleys
            .entry((arm, men))
            .or_insert_with(|| {
                to_f64(enumerate(MAX_DICE, |d| volley::fire(d, arm, Band::Short, men, r)).exact())
            })
            .clone()
    }

    /// `n` casualties on regiment `i` before saves, as the engine's `hit`: each saved on its
    /// figures' throw; of the rest a die strikes an officer, then the standard, else a figure of
    /// the larger body; no figures left, it is gone and leaves its melee. The step and the
    /// figures lost.
    fn hit(&mut self, s: Step, i: usize, n: u32) -> Weights<(Step, u16)> {
        let mut out = Weights::new();
        for ((reg, lost), p) in self.hit_one(s.r[i], n).items {
            let mut t = s;
            t.r[i] = reg;
            if reg.0.state == State::Gone && s.r[i].0.state != State::Gone {
                disengage(&mut t, i);
            }
            out.add((t, lost), p);
        }
        out
    }

    /// The same on the regiment alone (gone, but its melee not yet left).
    fn hit_one(&mut self, reg: Reg, n: u32) -> Weights<(Reg, u16)> {
        let g = reg.0;
        if n == 0 || g.state == State::Gone {
            return Weights::certain((reg, 0));
        }
        let officers = u32::from(g.officer) + u32::from(g.mounted_officer);
        let key = (
            n,
            g.main_figure(),
            officers,
            g.standard,
            g.figures().min(n as u16),
        );
        let dist = match self.struck.get(&key) {
            Some(d) => d.clone(),
            None => {
                let d = self.casualties(key);
                self.struck.insert(key, d.clone());
                d
            }
        };
        let mut out = Weights::new();
        for ((officers_struck, standard_struck, rf), p) in dist {
            let mut g = reg.0;
            for _ in 0..officers_struck {
                if g.mounted_officer {
                    g.mounted_officer = false;
                } else {
                    g.officer = false;
                }
            }
            if standard_struck {
                g.standard = false;
            }
            for _ in 0..rf {
                let body = match g.kind {
                    Kind::Foot | Kind::ForlornHope if g.pikemen > g.musketeers => &mut g.pikemen,
                    Kind::Foot | Kind::ForlornHope => &mut g.musketeers,
                    Kind::Horse(_) | Kind::Dragoons => &mut g.horsemen,
                    Kind::Gun(_) => &mut g.gunners,
                };
                *body -= 1;
            }
            g.lost_this_move = (g.lost_this_move + rf).min(1);
            if g.figures() == 0 {
                g.state = State::Gone;
            }
            out.add((Reg(g), rf), p);
        }
        out
    }

    /// For `n` casualties before saves on figures of `main` with `officers` and the standard
    /// left and `figures` rank and file (counted up to `n`): the officers struck, whether the
    /// standard was, and the figures lost. Each unsaved casualty's die in turn, as `hit` throws
    /// them, stopping when no figure is left.
    fn casualties(&self, (n, main, officers, standard, figures): HitKey) -> Vec<(Struck3, f64)> {
        let r = self.rules;
        let fails = enumerate(MAX_DICE, |d| after_saves(d, main, 1, r))
            .exact()
            .p(&1);
        let mut out = Weights::new();
        for (c, pc) in binomial(n, fails).into_iter().enumerate() {
            let mut w = Weights::certain((0u32, false, 0u16));
            for _ in 0..c {
                w = w.bind(|(k, std, rf)| {
                    if rf >= figures {
                        return Weights::certain((k, std, rf));
                    }
                    let left = officers - k;
                    let dist = enumerate(MAX_DICE, |d| {
                        morale::struck(d.d6(), left, standard && !std, r)
                    })
                    .exact();
                    let mut o = Weights::new();
                    for (st, p) in to_f64(dist) {
                        let next = match st {
                            Struck::Officer => (k + 1, std, rf),
                            Struck::Standard => (k, true, rf),
                            Struck::RankAndFile => (k, std, rf + 1),
                        };
                        o.add(next, p);
                    }
                    o
                });
            }
            for (t, p) in w.items {
                out.add(t, pc.to_f64() * p);
            }
        }
        out.items
    }

    /// Closing fire of the target at the charger, at short range.
    fn closing_fire(&mut self, s: Step) -> Weights<Step> {
        let firer = s.r[1].0;
        let Some(arm) = firer.arm() else {
            return Weights::certain(s);
        };
        let men = u32::from(match firer.kind {
            Kind::Foot | Kind::ForlornHope => firer.musketeers,
            _ => firer.horsemen,
        });
        let mut s = s;
        match arm {
            Arm::Pistol => s.r[1].0.pistols = s.r[1].0.pistols.saturating_sub(1),
            _ => s.r[1].0.loaded = false,
        }
        let hits: Weights<u32> = from_vec(self.volley(arm, men));
        hits.bind(|h| self.hit(s, 0, h).bind(|(s, _)| Weights::certain(s)))
    }

    /// The charger's throw before impact (with the attacker's add, less the points it has
    /// lost): a bad one turns it away.
    fn throw_before_impact(&mut self, s: Step) -> Weights<Step> {
        let r = self.rules;
        let lost = points_lost(&s.r[0].0, r);
        let adds = Adds::of(&[Add::Attacker]);
        let good = enumerate(MAX_DICE, |d| {
            morale::formation_throw(d, adds, lost, false, r)
        })
        .exact()
        .p(&true)
        .to_f64();
        let mut out = Weights::new();
        out.add(s, good);
        out.add(
            Step {
                charge: Charge::TurnedAway,
                ..s
            },
            1.0 - good,
        );
        out
    }

    /// The pistol breach: the charger's front rank fires a pistol volley into the pikes; it
    /// needs the rules' kills, or it is held at the pikes' points.
    fn breach(&mut self, s: Step) -> Weights<Step> {
        let reg = s.r[0].0;
        if reg.pistols == 0 {
            return Weights::certain(Step {
                charge: Charge::HeldAtPikes,
                ..s
            });
        }
        let front = u32::from(reg.front_rank(reg.main_figure(), reg.horsemen, self.rules));
        let mut s = s;
        s.r[0].0.pistols -= 1;
        let need = self.rules.formations.breach_kills;
        from_vec(self.volley(Arm::Pistol, front)).bind(|h| {
            self.hit(s, 1, h).bind(|(mut s, killed)| {
                if u32::from(killed) < need {
                    s.charge = Charge::HeldAtPikes;
                }
                Weights::certain(s)
            })
        })
    }

    /// The charge from declaration to contact (or not).
    fn charge(&mut self, start: Step, closing_fire: bool) -> Weights<Step> {
        let horse = start.r[0].0.is_horse();
        let d = start.r[1].0;
        let pikestand = horse && d.kind == Kind::Foot && d.pikemen > 0;
        let mut w = Weights::certain(start);
        if closing_fire {
            w = w.bind(|s| self.closing_fire(s));
        }
        let going = |s: &Step| s.charge == Charge::Going;
        w = w.bind(|mut s| {
            if s.r[0].0.state != State::Active {
                s.charge = Charge::Nobody;
            }
            Weights::certain(s)
        });
        if horse && (closing_fire || pikestand) {
            w = w.bind(|s| {
                if going(&s) {
                    self.throw_before_impact(s)
                } else {
                    Weights::certain(s)
                }
            });
        }
        if pikestand {
            w = w.bind(|s| {
                if going(&s) {
                    self.breach(s)
                } else {
                    Weights::certain(s)
                }
            });
        }
        w.bind(|mut s| {
            if going(&s) {
                if s.r[1].0.state != State::Active {
                    s.charge = Charge::Nobody;
                } else {
                    s.charge = Charge::Contact;
                    let a = &mut s.r[0].0;
                    a.engaged = Some(1);
                    a.attacker = true;
                    a.impetus = horse;
                    a.rounds = 0;
                    a.carried = 0.0;
                    let d = &mut s.r[1].0;
                    d.engaged = Some(0);
                    d.attacker = false;
                    d.rounds = 0;
                    d.carried = 0.0;
                }
            }
            Weights::certain(s)
        })
    }

    /// Impetus of a charger that charged home: a die per front-rank horseman.
    fn impetus(&mut self, s: Step, x: usize) -> Weights<Step> {
        let reg = s.r[x].0;
        let n = u32::from(reg.front_rank(reg.main_figure(), reg.horsemen, self.rules));
        let fig = reg.main_figure();
        let r = self.rules;
        let kills = self
            .impetus
            .entry((fig, n))
            .or_insert_with(|| {
                to_f64(enumerate(MAX_DICE, |d| melee::impetus(d, fig, n, r)).exact())
            })
            .clone();
        from_vec(kills).bind(|k| {
            self.hit(s, 1 - x, k).bind(|(mut s, lost)| {
                s.r[1 - x].0.melee_lost += lost;
                Weights::certain(only_the_difference(s))
            })
        })
    }

    /// The figures of `y` that `x` hits in a round (before saves) and the points it carries,
    /// as the engine's `blow`: front ranks only in the first round, each body's dice in turn.
    fn blow(&mut self, s: &Step, x: usize, first: bool) -> Weights<(u32, u64)> {
        let reg = s.r[x].0;
        let key = (
            reg.kind,
            [reg.pikemen, reg.musketeers, reg.horsemen, reg.gunners],
            reg.carried.to_bits(),
            reg.rounds == 0,
            first,
            s.r[1 - x].0.main_figure(),
        );
        if let Some(w) = self.blows.get(&key) {
            return w.clone();
        }
        let w = self.blow_uncached(s, x, first);
        self.blows.insert(key, w.clone());
        w
    }

    fn blow_uncached(&mut self, s: &Step, x: usize, first: bool) -> Weights<(u32, u64)> {
        let reg = s.r[x].0;
        let r = self.rules;
        let target = s.r[1 - x].0.main_figure();
        let pike_first = first && reg.rounds == 0;
        let blows = reg.fighting(first, r);
        let mut w = Weights::certain((0u32, reg.carried.to_bits()));
        for (figure, n) in blows {
            if n == 0 {
                continue;
            }
            let bonus = pike_first && figure == Figure::Pikeman;
            w = w.bind(|(hits, carried)| {
                let key = (figure, u32::from(n), bonus, target, carried);
                let dist = self
                    .rounds
                    .entry(key)
                    .or_insert_with(|| {
                        let c = f64::from_bits(carried);
                        to_f64(
                            enumerate(MAX_DICE, |d| {
                                melee::round(d, figure, u32::from(n), bonus, target, c, r)
                            })
                            .exact(),
                        )
                    })
                    .clone();
                let mut out = Weights::new();
                for ((h, rest), p) in dist {
                    out.add((hits + h, rest.to_bits()), p);
                }
                out
            });
        }
        w
    }

    /// Each side's losses in one round, both striking at once, found from the other's blow
    /// and its own state alone: the regiment after it (carried points and rounds counted) and
    /// the figures it lost.
    fn losses(&mut self, s: &Step, first: bool) -> [Weights<(Reg, u16)>; 2] {
        let to = [self.blow(s, 1, first), self.blow(s, 0, first)];
        let mut after: [Weights<(Reg, u16)>; 2] = [Weights::new(), Weights::new()];
        for i in 0..2 {
            for ((hits, carried), p) in &to[i].items {
                let mut g = s.r[i];
                g.0.carried = f64::from_bits(*carried);
                g.0.rounds = g.0.rounds.saturating_add(1);
                for (k, q) in self.hit_one(g, *hits).items {
                    after[i].add(k, p * q);
                }
            }
        }
        after
    }

    /// A round that is not the last: the two sides' losses joined (the target's applied
    /// first, as the engine does: a regiment left with no figures leaves the melee).
    fn round(&mut self, s: Step, first: bool) -> Weights<Step> {
        let after = self.losses(&s, first);
        let mut out = Weights::new();
        for ((b, lb), pb) in &after[1].items {
            for ((a, la), pa) in &after[0].items {
                let mut t = s;
                t.r = [*a, *b];
                for i in [1, 0] {
                    if t.r[i].0.state == State::Gone {
                        disengage(&mut t, i);
                    }
                }
                t.r[0].0.melee_lost += la;
                t.r[1].0.melee_lost += lb;
                out.add(only_the_difference(t), pa * pb);
            }
        }
        out
    }

    /// The last round: each side's losses judged on its own first (points lost, gone), then
    /// joined as [`Self::round`] joins them, and the winner found.
    fn last_round(&mut self, s: Step, first: bool) -> Weights<Judged> {
        let after = self.losses(&s, first);
        let judged = after.map(|w| {
            let mut out = Weights::new();
            for ((g, lost), p) in w.items {
                let mut g = g.0;
                g.melee_lost += lost;
                out.add(judge_one(&g, false, self.rules), p);
            }
            out
        });
        let mut out = Weights::new();
        for (b, pb) in &judged[1].items {
            for (a, pa) in &judged[0].items {
                let mut j = Judged {
                    r: [*a, *b],
                    charge: s.charge,
                };
                for i in [1, 0] {
                    if j.r[i].gone {
                        j.disengage(i);
                    }
                }
                let (la, lb) = (j.r[0].melee_lost, j.r[1].melee_lost);
                j.r[0].won = lb > la;
                j.r[1].won = la > lb;
                let least = la.min(lb);
                for g in &mut j.r {
                    g.melee_lost -= least;
                }
                out.add(j, pa * pb);
            }
        }
        out
    }

    /// Impetus and the rounds, while both stand in contact; then who won, and each side as
    /// its morale throw will see it.
    fn melee(&mut self, s: Step) -> Weights<Judged> {
        let rules = self.rules;
        let judge = |s: Step| judge(s, rules);
        if s.charge != Charge::Contact {
            return Weights::certain(judge(s));
        }
        let mut s = s;
        for (x, g) in s.r.iter_mut().enumerate() {
            g.0.fought = true;
            g.0.foe = Some(1 - x as u16);
        }
        let mut w = Weights::certain(s);
        for x in 0..2 {
            w = w.bind(|s| {
                if s.r[x].0.impetus {
                    self.impetus(s, x)
                } else {
                    Weights::certain(s)
                }
            });
        }
        let rounds = self.rules.melee.rounds;
        for k in 0..rounds.saturating_sub(1) {
            w = w.bind(|s| {
                if in_contact(&s) {
                    self.round(s, k == 0)
                } else {
                    Weights::certain(s)
                }
            });
        }
        w.bind(|s| {
            if rounds > 0 && in_contact(&s) {
                self.last_round(s, rounds == 1)
            } else {
                Weights::certain(judge(s))
            }
        })
    }

    /// The morale throws at the end of the move, the charger's first, each obeyed before the
    /// next is thrown (a regiment that falls back or routs leaves its enemy withdrawing).
    fn morale(&mut self, j: Judged) -> Weights<End> {
        let mut w = Weights::certain((j, [Fate::Untested; 2]));
        for i in 0..2 {
            w = w.bind(|(j, fate)| {
                let me = j.r[i];
                if !me.active || !(me.fought || me.lost_any) {
                    return Weights::certain((j, fate));
                }
                let adds = j.adds(i);
                let r = self.rules;
                let bits = Add::ALL
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| adds.has(**a))
                    .fold(0u16, |b, (k, _)| b | 1 << k);
                let dist = self
                    .throws
                    .entry((bits, me.points_lost))
                    .or_insert_with(|| {
                        to_f64(
                            enumerate(MAX_DICE, |d| morale::throw(d, adds, me.points_lost, r))
                                .exact(),
                        )
                    })
                    .clone();
                let mut out = Weights::new();
                for (m, p) in dist {
                    let mut t = j;
                    let mut f = fate;
                    f[i] = Fate::of(m);
                    match m {
                        MoraleResult::FallBack => t.disengage(i),
                        MoraleResult::Rout => {
                            t.disengage(i);
                            t.r[i].active = false;
                        }
                        MoraleResult::Good | MoraleResult::Stand => {}
                    }
                    out.add((t, f), p);
                }
                out
            });
        }
        w.bind(|(j, mut fate)| {
            for (f, g) in fate.iter_mut().zip(&j.r) {
                if g.gone {
                    *f = Fate::Destroyed;
                }
            }
            Weights::certain(End {
                charge: j.charge,
                won: [j.r[0].won, j.r[1].won],
                fate,
            })
        })
    }
}

/// A regiment as its morale throw sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Judge {
    points_lost: u32,
    active: bool,
    gone: bool,
    engaged: bool,
    attacker: bool,
    won: bool,
    fought: bool,
    lost_any: bool,
    enemy_withdrew: bool,
    pike_deep: bool,
    melee_lost: u16,
}

/// Both regiments at the end of the melee, and how the charge went in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Judged {
    r: [Judge; 2],
    charge: Charge,
}

/// A step as the morale throws see it: who won the melee (fewer figures lost) and what each
/// regiment has lost in points.
fn judge(s: Step, rules: &DickensonRules) -> Judged {
    let (la, lb) = (s.r[0].0.melee_lost, s.r[1].0.melee_lost);
    let fought = s.charge == Charge::Contact;
    Judged {
        r: [
            judge_one(&s.r[0].0, fought && lb > la, rules),
            judge_one(&s.r[1].0, fought && la > lb, rules),
        ],
        charge: s.charge,
    }
}

fn judge_one(g: &Regiment, won: bool, rules: &DickensonRules) -> Judge {
    Judge {
        points_lost: points_lost(g, rules),
        active: g.state == State::Active,
        gone: g.state == State::Gone,
        engaged: g.engaged.is_some(),
        attacker: g.attacker,
        won,
        fought: g.fought,
        lost_any: g.lost_this_move > 0,
        enemy_withdrew: g.enemy_withdrew,
        pike_deep: g.pike_ranks(rules) > 2,
        melee_lost: g.melee_lost,
    }
}

impl Judged {
    /// The "ADD 1" list for regiment `i` alone on open ground with no general near.
    fn adds(&self, i: usize) -> Adds {
        let (me, foe) = (&self.r[i], &self.r[1 - i]);
        let list = [
            (me.attacker, Add::Attacker),
            (me.won, Add::WonMelee),
            (
                me.fought && me.melee_lost < foe.melee_lost,
                Add::FewerCasualties,
            ),
            (me.enemy_withdrew, Add::EnemyWithdrawing),
            (me.pike_deep, Add::PikeDeep),
        ];
        let on: Vec<Add> = list.iter().filter(|(b, _)| *b).map(|(_, a)| *a).collect();
        Adds::of(&on)
    }

    /// Regiment `i` leaves its melee (falls back or routs): its enemy sees it withdraw.
    fn disengage(&mut self, i: usize) {
        if std::mem::take(&mut self.r[i].engaged) {
            let e = &mut self.r[1 - i];
            if e.engaged {
                e.engaged = false;
                e.attacker = false;
            }
            e.enemy_withdrew = true;
        }
        self.r[i].attacker = false;
    }
}

fn from_vec<T: Clone + Eq + Hash>(v: Vec<(T, f64)>) -> Weights<T> {
    let mut w = Weights::new();
    for (t, p) in v {
        w.add(t, p);
    }
    w
}

/// Morale points a regiment has lost so far.
fn points_lost(reg: &Regiment, rules: &DickensonRules) -> u32 {
    u32::from(reg.start_points).saturating_sub(reg.points(rules))
}

/// Only which side lost more in melee counts (the result and the fewer-casualties add): the
/// losses are kept as their difference, so steps that differ in nothing else are one.
fn only_the_difference(mut s: Step) -> Step {
    let least = s.r[0].0.melee_lost.min(s.r[1].0.melee_lost);
    for g in &mut s.r {
        g.0.melee_lost -= least;
    }
    s
}

fn in_contact(s: &Step) -> bool {
    s.r.iter().all(|g| g.0.state == State::Active) && s.r[0].0.engaged == Some(1)
}

/// Ends regiment `i`'s melee on both sides, as the engine's `disengage`: its enemy sees it
/// withdraw.
fn disengage(s: &mut Step, i: usize) {
    if let Some(o) = s.r[i].0.engaged.take() {
        let o = usize::from(o);
        let e = &mut s.r[o].0;
        if e.engaged == Some(i as u16) {
            e.engaged = None;
            e.rounds = 0;
            e.attacker = false;
            e.carried = 0.0;
        }
        e.enemy_withdrew = true;
    }
    let g = &mut s.r[i].0;
    g.rounds = 0;
    g.attacker = false;
    g.carried = 0.0;
}

/// The whole chain for one charge.
pub fn follow(rules: &DickensonRules, spec: &Spec) -> Weights<End> {
    let [a, d] = regiments(rules, spec);
    let start = Step {
        r: [Reg(a), Reg(d)],
        charge: Charge::Going,
    };
    let mut c = Chain::new(rules);
    c.charge(start, spec.closing_fire)
        .bind(|s| c.melee(s))
        .bind(|j| c.morale(j))
}

/// The table's columns from a chain's ends.
pub const COLUMNS: [&str; 14] = [
    "p_contact",
    "p_turned_away",
    "p_held_at_pikes",
    "p_a_wins",
    "p_b_wins",
    "p_draw",
    "p_a_good",
    "p_a_stands",
    "p_a_falls_back",
    "p_a_routs",
    "p_b_good",
    "p_b_stands",
    "p_b_falls_back",
    "p_b_routs",
];

/// The values of [`COLUMNS`]: how the charge went in, who won the melee, and each regiment's
/// fate (good counts the untested; routs counts the destroyed).
pub fn values(ends: &Weights<End>) -> [f64; 14] {
    let p = |f: &dyn Fn(&End) -> bool| ends.p_where(f);
    let fate = |i: usize, f: &dyn Fn(Fate) -> bool| p(&|e: &End| f(e.fate[i]));
    let contact = |e: &End| e.charge == Charge::Contact;
    let mut v = [
        p(&contact),
        p(&|e| e.charge == Charge::TurnedAway),
        p(&|e| e.charge == Charge::HeldAtPikes),
        p(&|e| e.won[0]),
        p(&|e| e.won[1]),
        p(&|e| contact(e) && !e.won[0] && !e.won[1]),
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ];
    for i in 0..2 {
        v[6 + 4 * i] = fate(i, &|f| matches!(f, Fate::Good | Fate::Untested));
        v[7 + 4 * i] = fate(i, &|f| f == Fate::Stand);
        v[8 + 4 * i] = fate(i, &|f| f == Fate::FallBack);
        v[9 + 4 * i] = fate(i, &|f| f.routs());
    }
    v
}

/// The troop types of the table: (identifier, label, kind).
pub const HORSE: [(&str, &str, UnitKind); 2] = [
    ("troopers", "troopers", UnitKind::Horse(HorseKind::Trotters)),
    (
        "lobsters",
        "lobsters",
        UnitKind::Horse(HorseKind::Cuirassiers),
    ),
];
pub const FOOT: [(&str, &str, UnitKind); 3] = [
    ("foot", "foot", UnitKind::Foot(FootBalance::Normal)),
    (
        "pike_heavy_foot",
        "pike-heavy foot",
        UnitKind::Foot(FootBalance::PikeHeavy),
    ),
    (
        "shot_heavy_foot",
        "shot-heavy foot",
        UnitKind::Foot(FootBalance::ShotHeavy),
    ),
];

/// The charges of the table: each kind of horse charging each, met by no closing fire (pistols
/// reach less than half a horse's move). Horse on foot and foot on foot follow the same
/// sequence ([`follow`] takes them), but their exact state space (tens of thousands of joint
/// states after the first round, against about two thousand here) takes minutes a row yet.
pub fn specs() -> Vec<(&'static str, &'static str, Spec)> {
    let mut v = Vec::new();
    for &(aid, _, a) in &HORSE {
        for &(did, _, d) in &HORSE {
            v.push((
                aid,
                did,
                Spec {
                    attacker: a,
                    defender: d,
                    closing_fire: false,
                },
            ));
        }
    }
    v
}

pub fn table(rules: &DickensonRules) -> Table {
    let mut columns = vec![key("attacker"), key("defender"), key("closing_fire")];
    columns.extend(COLUMNS.iter().map(|&c| prob(c)));
    let mut tidy = Tidy::new(columns);
    let mut grid = Grid::new(
        "Horse (A) charge horse (B) standing: impetus, two rounds, both regiments' morale throws",
        [
            "Charger",
            "Target",
            "A wins",
            "B wins",
            "Draw",
            "A good",
            "A stands",
            "A falls back",
            "A routs",
            "B good",
            "B stands",
            "B falls back",
            "B routs",
        ]
        .map(String::from)
        .to_vec(),
    )
    .labels(2);
    for (aid, did, spec) in specs() {
        let v = values(&follow(rules, &spec));
        let mut row = vec![
            Cell::text(aid),
            Cell::text(did),
            Cell::text(if spec.closing_fire { "yes" } else { "no" }),
        ];
        row.extend(v.iter().map(|&p| Cell::Real(p)));
        // The grid leaves out closing fire and how the charge went in (always contact here).
        push_row(&mut tidy, &mut grid, row, &[2, 3, 4, 5]);
    }
    Table {
        id: "dk_charge_chain",
        title: "A charge followed through: impetus, two rounds, the morale throws at the end of the move".into(),
        about: vec![
            format!(
                "Two lone regiments of horse of the rules' strength ({} men at 1:{}) on open ground, no generals or supports; the charger (A) \
                 declares against a fresh, halted target (B). The engine's sequence before contact is followed too (CSV: contact, turned \
                 away, held at the pikes): closing fire at short range from foot and dragoons when the charger comes from within their range \
                 and moves at least {} of its move to contact (horse's pistols never reach that far); horse fired upon, or charging foot \
                 with pikes, throw 2D6 +1 for attacking less the points they have lost, turning or swerving away below {}; horse entering a \
                 pikestand fire a pistol volley from the front rank and are held at the pikes unless it kills {}.",
                rules.battle.men.horse,
                rules.regiment.figure_scale,
                rules.volley.closing_fire_min_move,
                rules.morale.formation_throw_good_at_least,
                rules.formations.breach_kills
            ),
            format!(
                "Horse that charged home strike with impetus, then {} rounds are fought (front ranks only in the first); the side that lost \
                 fewer figures wins the melee. At the end of the move every regiment that fought or lost figures throws on the morale chart \
                 with its adds (attacker, won the melee, fewer casualties, enemy withdrawing) less the morale points it has lost (figures, \
                 officers and standards struck), the charger first: one that falls back or routs leaves its enemy the withdrawing add. \
                 Good counts a regiment with no throw to take; routs counts one destroyed. The move's fire phase is left out.",
                rules.melee.rounds
            ),
            "Every die is enumerated (nothing is sampled), but the sums run in floating point: a chain throws a hundred dice and more, \
             and the exact fractions outgrow the 128-bit type, so the CSV has no `_exact` fractions for this table. Horse against foot \
             and foot against foot follow the same sequence but are not tabled yet: their exact state space takes minutes a row."
                .into(),
        ],
        tidy,
        grids: vec![grid],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chain_sums_to_one_and_counts_each_end_once() {
        let r = DickensonRules::builtin();
        for (_, _, s) in specs() {
            let ends = follow(&r, &s);
            assert!((ends.total() - 1.0).abs() < 1e-9, "{s:?}");
            let v = values(&ends);
            // Horse on horse always meets: won by one side or drawn.
            assert!((v[0] - 1.0).abs() < 1e-9, "{s:?}");
            assert!((v[3] + v[4] + v[5] - 1.0).abs() < 1e-9, "{s:?}");
            for i in 0..2 {
                let f: f64 = v[6 + 4 * i..10 + 4 * i].iter().sum();
                assert!((f - 1.0).abs() < 1e-9, "{s:?}");
            }
            // The winner rarely routs; the loser more often than the winner.
            assert!(v[9] < v[13] + 0.5 && v[3] > 0.0 && v[4] > 0.0, "{v:?}");
        }
        // Lobsters (impetus 3+, save 4+) beat troopers more often than troopers beat them.
        let v = values(&follow(&r, &specs()[2].2));
        assert!(v[3] > v[4], "{v:?}");
    }

    fn charge(r: &DickensonRules, a: UnitKind, d: UnitKind, fire: bool) -> Weights<Step> {
        let [x, y] = regiments(
            r,
            &Spec {
                attacker: a,
                defender: d,
                closing_fire: fire,
            },
        );
        let start = Step {
            r: [Reg(x), Reg(y)],
            charge: Charge::Going,
        };
        Chain::new(r).charge(start, fire)
    }

    #[test]
    fn horse_charging_pikes_turn_away_or_are_held_as_worked_by_hand() {
        let r = DickensonRules::builtin();
        let w = charge(&r, HORSE[0].2, FOOT[0].2, false);
        let p = |c: Charge| w.p_where(|s| s.charge == c);
        // No points lost before the throw: 2D6 + 1 below 8 is 2D6 of 6 or less, 15/36.
        assert!((p(Charge::TurnedAway) - 15.0 / 36.0).abs() < 1e-12);
        // Then six troopers' pistols at short range (die less 2: 0 to 4 casualties), each saved
        // on a 6; an unsaved one strikes an officer or the standard on a 6 while any is left
        // (three): held when none of them kills a figure.
        let none = |c: i32| -> f64 {
            if c < 4 {
                (11.0f64 / 36.0).powi(c)
            } else {
                (0..=3)
                    .map(|k| {
                        let choose = [1.0, 4.0, 6.0, 4.0][k as usize];
                        choose * (5.0f64 / 36.0).powi(k) * (1.0f64 / 6.0).powi(4 - k)
                    })
                    .sum()
            }
        };
        let held = 21.0 / 36.0 * (2.0 + (1..=4).map(none).sum::<f64>()) / 6.0;
        assert!((p(Charge::HeldAtPikes) - held).abs() < 1e-12);
        assert!((p(Charge::Contact) - (21.0 / 36.0 - held)).abs() < 1e-12);
    }

    #[test]
    fn foot_never_turn_away_and_closing_fire_makes_horse_throw() {
        let r = DickensonRules::builtin();
        let w = charge(&r, FOOT[0].2, FOOT[2].2, true);
        assert!((w.p_where(|s| s.charge == Charge::Contact) - 1.0).abs() < 1e-12);
        // Horse charging dragoons' closing fire throw though there are no pikes: figures lost
        // to the musketoons cost points, so they turn away more often than 15/36.
        let d = UnitKind::Dragoons;
        let w = charge(&r, HORSE[0].2, d, true);
        let away = w.p_where(|s| s.charge == Charge::TurnedAway);
        assert!(away > 15.0 / 36.0 + 0.1 && away < 1.0, "{away}");
        let w = charge(&r, HORSE[0].2, d, false);
        assert_eq!(w.p_where(|s| s.charge == Charge::Contact), 1.0);
    }
}

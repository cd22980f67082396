//! Dickenson's common sequence followed through as its engine plays it: a charge met by closing
//! fire at short range; horse fired upon, or charging a pikestand, throw before impact and turn
//! or swerve away on a bad throw; the pistol breach of a pikestand; impetus and the two melee
//! rounds; then the morale throw at the end of the move, with the points each regiment has
//! actually lost (figures, officers and standards struck), the charger's side throwing first.
//! A target that throws first against horse (a forlorn hope, pike in one rank, a gun's crew)
//! throws before all of it; a square fires and fights from its face toward the charger.
//!
//! Every die is enumerated through the ruleset's own functions ([`volley::fire`],
//! [`after_saves`], [`morale::struck`], [`morale::formation_throw`], [`melee::impetus`],
//! [`melee::round`], [`morale::throw`]); the stages are joined on the state each leaves, kept in
//! the engine's own [`Regiment`]. The sums run in floating point: a chain throws a hundred dice
//! and more, and the exact fractions' denominators (powers of 6) outgrow 128 bits. The Monte
//! Carlo test in `tests/dickenson_tables.rs` fights the same charge through the battle engine.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;

use crate::army::{FootBalance, Formation as Order, GunWeight, HorseKind, Side, Unit, UnitKind};
use crate::dice::DiceSource;
use crate::rules::dickenson::DickensonRules;
use crate::rules::dickenson::battle::regiment::Formation;
use crate::rules::dickenson::battle::{Engaged, Kind, Loss, Regiment, State};
use crate::rules::dickenson::figures::{Figure, after_saves};
use crate::rules::dickenson::melee;
use crate::rules::dickenson::morale::{self, Add, Adds, MoraleResult, Struck};
use crate::rules::dickenson::volley::{self, Arm, Band};
use crate::tables::exact::{Dist, binomial, enumerate};
use crate::tables::{Cell, Grid, MAX_DICE, Table, Tidy, key, prob};

/// A small multiplicative hasher for the chain's many small keys (the default hasher's keyed
/// rounds cost more than the sums here); its order is the same on every run.
#[derive(Default)]
pub struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<Mix>>;

/// A distribution in floating point, each outcome once in the order first met (so every run
/// adds in the same order and prints the same digits).
#[derive(Debug, Clone)]
pub struct Weights<K> {
    items: Vec<(K, f64)>,
    index: Map<K, usize>,
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
            index: Map::default(),
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

type RegKey = ([u16; 9], [bool; 9], State, u64, u8, u8, Engaged);

impl Reg {
    fn key(&self) -> RegKey {
        let r = &self.0;
        (
            [
                r.pikemen,
                r.musketeers,
                r.horsemen,
                r.gunners,
                r.melee_lost,
                r.lost_this_move,
                r.start_points,
                r.halt_until,
                r.disordered_until,
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
    /// The target threw first against horse and fell back or routed: nobody to strike.
    GaveWay,
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

/// How a chain ends: the charge, who won the melee (fewer figures struck), each regiment's fate
/// (charger first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct End {
    pub charge: Charge,
    pub won: [bool; 2],
    pub fate: [Fate; 2],
}

/// One charge of the table: the two troop types, the target's formation, whether the
/// target's closing fire meets it (the charger starts within the firer's range and moves at
/// least half its move to contact), and the charger's pistols still loaded (`None`: all it
/// carries, fresh).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    pub attacker: UnitKind,
    pub defender: UnitKind,
    pub formation: Formation,
    pub closing_fire: bool,
    pub pistols_left: Option<u8>,
}

/// The charger (regiment 0, Parliament) and its target (regiment 1, Royalist), of the rules'
/// strength for their kind, the target in the spec's formation, a gun sited (its team back
/// with the limber), the charger with the spec's pistols.
pub fn regiments(rules: &DickensonRules, spec: &Spec) -> [Regiment; 2] {
    let unit = |id: u16, side: Side, kind: UnitKind| {
        let mut u = Unit::new(id, side, id, kind, 4);
        if matches!(kind, UnitKind::Artillery(_)) {
            u.formation = Order::Unlimbered;
        }
        Regiment::derive(&u, rules)
    };
    let mut d = unit(1, Side::Royalist, spec.defender);
    if spec.formation != Formation::Line {
        d.form(spec.formation, rules);
    }
    let mut a = unit(0, Side::Parliament, spec.attacker);
    if let Some(n) = spec.pistols_left {
        a.pistols = n;
    }
    [a, d]
}

/// The share of a regiment's figures on its face toward an enemy straight ahead, as the
/// engine's `face_toward` (all of them, but a square's front face alone).
fn front_share(g: &Regiment, rules: &DickensonRules) -> f64 {
    g.face_share(1.0, 0.0, rules)
}

fn to_f64<T: PartialEq>(d: Dist<T>) -> Vec<(T, f64)> {
    d.outcomes
        .into_iter()
        .map(|(t, p)| (t, p.to_f64()))
        .collect()
}

/// One regiment's distribution: regiments of the chain (by their index in [`Chain::regs`]) and
/// their chances, not summing to one (a part's chances are its own and each side's mass).
type Spread = Weights<u32>;

/// A part of the chain: how the charge went in, and the two regiments' distributions side by
/// side. Within a part the two are independent: a pair of regiments `(a, b)` has the chance
/// `p * r[0](a) * r[1](b)`. The stages split a part where one regiment's result conditions the
/// other's dice (the charger's front rank, a striker's bodies and carried points, the figure
/// it strikes), and never join the two into one joint state until the last round is judged.
#[derive(Debug, Clone)]
struct Part {
    p: f64,
    charge: Charge,
    r: [Spread; 2],
}

impl Part {
    fn with(&self, charge: Charge, r: [Spread; 2]) -> Part {
        Part {
            p: self.p,
            charge,
            r,
        }
    }

    #[cfg(test)]
    fn mass(&self) -> f64 {
        self.p * self.r[0].total() * self.r[1].total()
    }
}

/// What a regiment's blow depends on: its kind and bodies, the points it carries, whether this
/// is the melee's first round and the move's, the figure it strikes, and the share of it on
/// the face that strikes (as bits).
type BlowKey = (Kind, [u16; 4], u64, bool, bool, Figure, u64);

/// What of a regiment the other's dice see in a round: its blow (kind, bodies, points carried,
/// first round of its melee, the share on its face toward the enemy) and the figure it is
/// struck as.
type Face = (Kind, [u16; 4], u64, bool, Figure, u64);

fn face(g: &Regiment, rules: &DickensonRules) -> Face {
    (
        g.kind,
        [g.pikemen, g.musketeers, g.horsemen, g.gunners],
        g.carried.to_bits(),
        g.rounds == 0,
        g.main_figure(),
        front_share(g, rules).to_bits(),
    )
}

/// The blow of a regiment of `face` striking a regiment of `target`'s face.
fn blow_key(face: &Face, first: bool, target: &Face) -> BlowKey {
    (face.0, face.1, face.2, face.3, first, target.4, face.5)
}

/// One body's round: its figure and number, the pike bonus, the figure struck, points carried.
type RoundKey = (Figure, u32, bool, Figure, u64);
/// Figures hit (before saves) and the casualty points carried.
type Blow = (u32, f64);
/// Casualties before saves on a regiment: their number, its figure, officers and standard left,
/// rank and file left (counted up to the casualties).
type HitKey = (u32, Figure, u32, bool, u16);
/// A blow: the figures it hits (before saves), the points its striker carries after (as
/// bits), the chance.
type Strike = (u32, u64, f64);
/// A regiment after casualties: its index, what it lost, the chance.
type Hit = (u32, Loss, f64);
/// One regiment's judges (index in [`Chain::cores`]), each with the chances of its melee losses
/// by number, and their running sums: under each number, and at it or above.
#[derive(Debug)]
struct Outcome {
    core: u32,
    by_lost: Vec<f64>,
    below: Vec<f64>,
    from: Vec<f64>,
}

/// Judges with their melee losses and chances gathered into [`Outcome`]s, in the order met.
fn gather(entries: impl Iterator<Item = (u32, u16, f64)>) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = Vec::new();
    for (core, lost, p) in entries {
        let k = match out.iter().position(|o| o.core == core) {
            Some(k) => k,
            None => {
                out.push(Outcome {
                    core,
                    by_lost: Vec::new(),
                    below: Vec::new(),
                    from: Vec::new(),
                });
                out.len() - 1
            }
        };
        let v = &mut out[k].by_lost;
        let lost = usize::from(lost);
        if v.len() <= lost {
            v.resize(lost + 1, 0.0);
        }
        v[lost] += p;
    }
    for o in &mut out {
        let n = o.by_lost.len();
        o.below = vec![0.0; n + 1];
        o.from = vec![0.0; n + 1];
        for k in 0..n {
            o.below[k + 1] = o.below[k] + o.by_lost[k];
        }
        for k in (0..n).rev() {
            o.from[k] = o.from[k + 1] + o.by_lost[k];
        }
    }
    out
}
/// The chain's ends before the morale throws: how the charge went in, both judges, and how the
/// charger's melee losses compare with its target's.
type Tally = (Charge, u32, u32, Ordering);
/// Two regiments in the last round (each with its melee losses left out) and how many more
/// figures the charger has lost in melee so far.
type Pair = (u32, u32, i32);

/// The rule functions enumerated once for each set of arguments the chain meets, and the
/// regiments and judges met, each stored once.
struct Chain<'a> {
    rules: &'a DickensonRules,
    regs: Vec<Regiment>,
    reg_ids: Map<(u16, RegKey), u32>,
    cores: Vec<Judge>,
    core_ids: Map<Judge, u32>,
    volleys: Map<(Arm, bool, u32), Vec<(u32, f64)>>,
    impetus: Map<(Figure, u32), Vec<(u32, f64)>>,
    rounds: Map<RoundKey, Vec<(Blow, f64)>>,
    throws: Map<(u16, u32), Vec<(MoraleResult, f64)>>,
    struck: Map<HitKey, Vec<(Loss, f64)>>,
    good: Map<u32, f64>,
    hits: Map<(u32, u32), Rc<[Hit]>>,
    blows: Map<BlowKey, Rc<[Strike]>>,
    blow_hits: Map<BlowKey, Rc<[(u32, f64)]>>,
    finals: Map<(u32, BlowKey), Rc<[Outcome]>>,
    judges: Map<u32, u32>,
    leans: Map<(u32, bool), u32>,
}

impl<'a> Chain<'a> {
    fn new(rules: &'a DickensonRules) -> Self {
        Chain {
            rules,
            regs: Vec::new(),
            reg_ids: Map::default(),
            cores: Vec::new(),
            core_ids: Map::default(),
            volleys: Map::default(),
            impetus: Map::default(),
            rounds: Map::default(),
            throws: Map::default(),
            struck: Map::default(),
            good: Map::default(),
            hits: Map::default(),
            blows: Map::default(),
            blow_hits: Map::default(),
            finals: Map::default(),
            judges: Map::default(),
            leans: Map::default(),
        }
    }

    /// The index of regiment `g`, stored on first meeting.
    fn id(&mut self, g: Regiment) -> u32 {
        // The unit tells the charger from its target (of the same kind and strength).
        let k = (g.unit, Reg(g).key());
        if let Some(&i) = self.reg_ids.get(&k) {
            return i;
        }
        let i = self.regs.len() as u32;
        self.regs.push(g);
        self.reg_ids.insert(k, i);
        i
    }

    fn reg(&self, i: u32) -> Regiment {
        self.regs[i as usize]
    }

    /// The index of judge `j`, stored on first meeting.
    fn core(&mut self, j: Judge) -> u32 {
        if let Some(&i) = self.core_ids.get(&j) {
            return i;
        }
        let i = self.cores.len() as u32;
        self.cores.push(j);
        self.core_ids.insert(j, i);
        i
    }

    fn certain(&mut self, g: Regiment) -> Spread {
        Weights::certain(self.id(g))
    }

    /// Every regiment of a spread changed alike.
    fn each(&mut self, s: &Spread, f: impl Fn(&mut Regiment)) -> Spread {
        let mut out = Weights::new();
        for &(i, p) in &s.items {
            let mut g = self.reg(i);
            f(&mut g);
            out.add(self.id(g), p);
        }
        out
    }

    /// A spread parted by `key`, in the order first met.
    fn split<K: Clone + Eq + Hash>(
        &self,
        s: &Spread,
        key: impl Fn(&Regiment) -> K,
    ) -> Vec<(K, Spread)> {
        let mut index: Map<K, usize> = Map::default();
        let mut out: Vec<(K, Spread)> = Vec::new();
        for &(i, p) in &s.items {
            let k = key(&self.regs[i as usize]);
            let j = *index.entry(k.clone()).or_insert_with(|| {
                out.push((k, Weights::new()));
                out.len() - 1
            });
            out[j].1.add(i, p);
        }
        out
    }

    /// Casualties (before saves) of `men` firing `arm` at short range: in volleys, or
    /// `singly`, each man his own die (a forlorn hope, as the engine's `shoot`).
    fn volley(&mut self, arm: Arm, singly: bool, men: u32) -> Vec<(u32, f64)> {
        let r = self.rules;
        self.volleys
            .entry((arm, singly, men))
            .or_insert_with(|| {
                if !singly {
                    return to_f64(
                        enumerate(MAX_DICE, |d| volley::fire(d, arm, Band::Short, men, r)).exact(),
                    );
                }
                let one = enumerate(MAX_DICE, |d| {
                    volley::single_shot_hits(d.d6(), arm, Band::Short, false, r)
                })
                .exact()
                .p(&true);
                binomial(men, one)
                    .into_iter()
                    .enumerate()
                    .map(|(k, p)| (k as u32, p.to_f64()))
                    .collect()
            })
            .clone()
    }

    /// `n` casualties on regiment `i` before saves, as the engine's `hit`: each saved on its
    /// figures' throw; of the rest a die strikes an officer, then the standard, else a figure of
    /// the larger body; no figures left, it is gone (leaving its melee is the part's
    /// [`Chain::settle`]). The regiment after and what it lost.
    fn hit(&mut self, i: u32, n: u32) -> Rc<[Hit]> {
        if let Some(h) = self.hits.get(&(i, n)) {
            return h.clone();
        }
        let g = self.reg(i);
        let out: Rc<[Hit]> = if n == 0 || g.state == State::Gone {
            Rc::from(vec![(i, Loss::default(), 1.0)])
        } else {
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
            for (loss, p) in dist {
                out.add((self.id(struck_off(g, loss)), loss), p);
            }
            out.items
                .into_iter()
                .map(|((j, loss), p)| (j, loss, p))
                .collect()
        };
        self.hits.insert((i, n), out.clone());
        out
    }

    /// For `n` casualties before saves on figures of `main` with `officers` and the standard
    /// left and `figures` rank and file (counted up to `n`): what it loses. Each unsaved
    /// casualty's die in turn, as `hit` throws them, stopping when no figure is left.
    fn casualties(&self, (n, main, officers, standard, figures): HitKey) -> Vec<(Loss, f64)> {
        let r = self.rules;
        let fails = enumerate(MAX_DICE, |d| after_saves(d, main, 1, r))
            .exact()
            .p(&1);
        let mut out = Weights::new();
        for (c, pc) in binomial(n, fails).into_iter().enumerate() {
            let mut w = Weights::certain(Loss::default());
            for _ in 0..c {
                w = w.bind(|loss| {
                    if loss.figures >= figures {
                        return Weights::certain(loss);
                    }
                    let left = officers - u32::from(loss.officers);
                    let dist = enumerate(MAX_DICE, |d| {
                        morale::struck(d.d6(), left, standard && !loss.standard, r)
                    })
                    .exact();
                    let mut o = Weights::new();
                    for (st, p) in to_f64(dist) {
                        let mut next = loss;
                        match st {
                            Struck::Officer => next.officers += 1,
                            Struck::Standard => next.standard = true,
                            Struck::RankAndFile => next.figures += 1,
                        }
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

    /// A spread struck by a distribution of casualties before saves: each regiment after and
    /// what it lost.
    fn struck(&mut self, s: &Spread, hits: &[(u32, f64)]) -> Weights<(u32, Loss)> {
        let mut out = Weights::new();
        for &(i, p) in &s.items {
            for &(n, q) in hits {
                for &(j, lost, r) in self.hit(i, n).iter() {
                    out.add((j, lost), p * q * r);
                }
            }
        }
        out
    }

    /// The same in melee: its casualties counted in its melee losses.
    fn struck_in_melee(&mut self, s: &Spread, hits: &[(u32, f64)]) -> Spread {
        let mut out = Weights::new();
        for ((j, lost), p) in self.struck(s, hits).items {
            let mut g = self.reg(j);
            g.melee_lost += lost.casualties();
            out.add(self.id(g), p);
        }
        out
    }

    /// Closing fire of the target at the charger, at short range, from its face toward it.
    fn closing_fire(&mut self, part: Part) -> Vec<Part> {
        let r = self.rules;
        let firers = self.split(&part.r[1], |g| {
            let men = g.firers(front_share(g, r));
            (g.arm(), g.kind == Kind::ForlornHope, u32::from(men))
        });
        let mut out = Vec::new();
        for ((arm, singly, men), firers) in firers {
            let Some(arm) = arm else {
                out.push(part.with(part.charge, [part.r[0].clone(), firers]));
                continue;
            };
            let firers = self.each(&firers, |g| match arm {
                Arm::Pistol => g.pistols = g.pistols.saturating_sub(1),
                _ => g.loaded = false,
            });
            let hits = self.volley(arm, singly, men);
            let target = only_regiments(self.struck(&part.r[0], &hits));
            out.push(part.with(part.charge, [target, firers]));
        }
        out
    }

    /// The target's throw first against horse (fresh: nothing lost, and no adds alone on open
    /// ground), at its deduction, obeyed as the engine's `obey` marks it: a stand leaves it
    /// disordered and halted for the next move; a fall back (disordered) or a rout leaves the
    /// charge nobody to strike.
    fn throw_first(&mut self, part: Part) -> Vec<Part> {
        let r = self.rules;
        let mut out = Vec::new();
        for (other, s) in self.split(&part.r[1], |g| g.against_horse_deduction(r)) {
            let dist = enumerate(MAX_DICE, |d| {
                morale::result(morale::modified(d, Adds::of(&[]), 0, other, r), r)
            })
            .exact();
            for (m, p) in to_f64(dist) {
                let (charge, s) = match m {
                    MoraleResult::Good => (part.charge, s.clone()),
                    MoraleResult::Stand => (
                        part.charge,
                        self.each(&s, |g| {
                            g.halt_until = 1;
                            g.disordered_until = 1;
                        }),
                    ),
                    MoraleResult::FallBack => {
                        (Charge::GaveWay, self.each(&s, |g| g.disordered_until = 1))
                    }
                    MoraleResult::Rout => {
                        (Charge::GaveWay, self.each(&s, |g| g.state = State::Routing))
                    }
                };
                out.push(Part {
                    p: part.p * p,
                    charge,
                    r: [part.r[0].clone(), s],
                });
            }
        }
        out
    }

    /// The chance a charger that has lost `lost` points passes its throw before impact (with
    /// the attacker's add).
    fn good(&mut self, lost: u32) -> f64 {
        let r = self.rules;
        *self.good.entry(lost).or_insert_with(|| {
            let adds = Adds::of(&[Add::Attacker]);
            enumerate(MAX_DICE, |d| {
                morale::formation_throw(d, adds, lost, false, r)
            })
            .exact()
            .p(&true)
            .to_f64()
        })
    }

    /// The charger's throw before impact (with the attacker's add, less the points it has
    /// lost): a bad one turns it away.
    fn throw_before_impact(&mut self, part: Part) -> Vec<Part> {
        let (mut on, mut away) = (Weights::new(), Weights::new());
        for &(i, p) in &part.r[0].items {
            let good = self.good(points_lost(&self.reg(i), self.rules));
            on.add(i, p * good);
            away.add(i, p * (1.0 - good));
        }
        vec![
            part.with(part.charge, [on, part.r[1].clone()]),
            part.with(Charge::TurnedAway, [away, part.r[1].clone()]),
        ]
    }

    /// The pistol breach: the charger's front rank fires a pistol volley into the pikes; it
    /// needs the rules' kills, or it is held at the pikes' points.
    fn breach(&mut self, part: Part) -> Vec<Part> {
        let rules = self.rules;
        let need = rules.formations.breach_kills;
        let mut out = Vec::new();
        let chargers = self.split(&part.r[0], |g| {
            (
                g.pistols > 0,
                g.front_rank(g.main_figure(), g.horsemen, rules),
            )
        });
        for ((loaded, front), chargers) in chargers {
            if !loaded {
                out.push(part.with(Charge::HeldAtPikes, [chargers, part.r[1].clone()]));
                continue;
            }
            let chargers = self.each(&chargers, |g| g.pistols -= 1);
            let hits = self.volley(Arm::Pistol, false, u32::from(front));
            let (mut broken, mut held) = (Weights::new(), Weights::new());
            for ((j, lost), p) in self.struck(&part.r[1], &hits).items {
                if u32::from(lost.figures) < need {
                    held.add(j, p);
                } else {
                    broken.add(j, p);
                }
            }
            out.push(part.with(part.charge, [chargers.clone(), broken]));
            out.push(part.with(Charge::HeldAtPikes, [chargers, held]));
        }
        out
    }

    /// A charge still going finds nobody where regiment `i` is no longer active.
    fn nobody_unless_active(&self, part: Part, i: usize) -> Vec<Part> {
        if part.charge != Charge::Going {
            return vec![part];
        }
        self.split(&part.r[i], |g| g.state == State::Active)
            .into_iter()
            .map(|(active, s)| {
                let mut r = part.r.clone();
                r[i] = s;
                part.with(
                    if active {
                        Charge::Going
                    } else {
                        Charge::Nobody
                    },
                    r,
                )
            })
            .collect()
    }

    /// The charge from declaration to contact (or not).
    fn charge(&mut self, spec: &Spec) -> Vec<Part> {
        let [a, d] = regiments(self.rules, spec);
        let horse = a.is_horse();
        let pikestand = horse && d.kind == Kind::Foot && d.pikemen > 0;
        let threw = horse && d.throws_against_horse(self.rules);
        let start = Part {
            p: 1.0,
            charge: Charge::Going,
            r: [self.certain(a), self.certain(d)],
        };
        let mut parts = vec![start];
        let stage = |parts: Vec<Part>, f: &mut dyn FnMut(Part) -> Vec<Part>| -> Vec<Part> {
            parts
                .into_iter()
                .flat_map(|p| {
                    if p.charge == Charge::Going {
                        f(p)
                    } else {
                        vec![p]
                    }
                })
                .filter(|p| p.r.iter().all(|s| !s.items.is_empty()))
                .collect()
        };
        if threw {
            parts = stage(parts, &mut |p| self.throw_first(p));
        }
        if spec.closing_fire {
            parts = stage(parts, &mut |p| self.closing_fire(p));
        }
        parts = stage(parts, &mut |p| self.nobody_unless_active(p, 0));
        // Seed: a pikestand that threw first and stood spares the horse its throw.
        if horse && (spec.closing_fire || (pikestand && !threw)) {
            parts = stage(parts, &mut |p| self.throw_before_impact(p));
        }
        if pikestand {
            parts = stage(parts, &mut |p| self.breach(p));
        }
        parts = stage(parts, &mut |p| self.nobody_unless_active(p, 1));
        stage(parts, &mut |p| {
            let a = self.each(&p.r[0], |a| {
                a.engaged = Engaged::of(1);
                a.attacker = true;
                a.impetus = horse;
                a.rounds = 0;
                a.carried = 0.0;
            });
            let d = self.each(&p.r[1], |d| {
                d.engaged = Engaged::of(0);
                d.attacker = false;
                d.rounds = 0;
                d.carried = 0.0;
            });
            vec![p.with(Charge::Contact, [a, d])]
        })
    }

    /// Both regiments still in their melee (a settled part is all one way or the other).
    fn in_contact(&self, part: &Part) -> bool {
        let [a, b] = [0, 1].map(|i| self.reg(part.r[i].items[0].0));
        part.charge == Charge::Contact
            && a.state == State::Active
            && b.state == State::Active
            && a.engaged.contains(1)
    }

    /// A part in contact split by which regiments are gone; where one is, both leave the melee
    /// as the engine's `disengage` leaves it (the target's losses taken first).
    fn settle(&mut self, part: Part) -> Vec<Part> {
        if !self.in_contact_before(&part) {
            return vec![part];
        }
        let gone = |g: &Regiment| g.state == State::Gone;
        let [s0, s1] = [0, 1].map(|i| self.split(&part.r[i], gone));
        let mut out = Vec::new();
        for (g0, a) in &s0 {
            for (g1, b) in &s1 {
                if !g0 && !g1 {
                    out.push(part.with(part.charge, [a.clone(), b.clone()]));
                    continue;
                }
                let mut reps = [self.reg(a.items[0].0), self.reg(b.items[0].0)];
                for i in [1, 0] {
                    if reps[i].state == State::Gone {
                        disengage(&mut reps, i);
                    }
                }
                let r = [(a, reps[0]), (b, reps[1])].map(|(s, rep)| {
                    self.each(s, |g| {
                        g.engaged = rep.engaged;
                        g.rounds = rep.rounds;
                        g.attacker = rep.attacker;
                        g.carried = rep.carried;
                        g.enemy_withdrew = rep.enemy_withdrew;
                    })
                });
                out.push(part.with(part.charge, r));
            }
        }
        out
    }

    /// Engaged with each other (gone or not): what [`Chain::settle`] looks at.
    fn in_contact_before(&self, part: &Part) -> bool {
        part.charge == Charge::Contact && self.reg(part.r[0].items[0].0).engaged.contains(1)
    }

    /// Impetus of regiment `x` if it charged home: a die per front-rank horseman.
    fn impetus(&mut self, part: Part, x: usize) -> Vec<Part> {
        let rules = self.rules;
        let strikers = self.split(&part.r[x], |g| {
            let fig = g.main_figure();
            (g.impetus, fig, g.front_rank(fig, g.horsemen, rules))
        });
        let mut out = Vec::new();
        for ((impetus, fig, n), strikers) in strikers {
            let mut r = part.r.clone();
            r[x] = strikers;
            if impetus {
                let n = u32::from(n);
                let kills = self
                    .impetus
                    .entry((fig, n))
                    .or_insert_with(|| {
                        to_f64(enumerate(MAX_DICE, |d| melee::impetus(d, fig, n, rules)).exact())
                    })
                    .clone();
                r[1 - x] = self.struck_in_melee(&part.r[1 - x], &kills);
            }
            out.extend(self.settle(part.with(part.charge, r)));
        }
        out
    }

    /// The figures a regiment of `face` hits in a round on one of `target`'s face (before
    /// saves), and the points it carries after, as the engine's `blow`: front ranks only in the
    /// first round, from its face toward the enemy, each body's dice in turn.
    fn blow(&mut self, g: &Regiment, first: bool, target: &Face) -> Rc<[Strike]> {
        let r = self.rules;
        let key = blow_key(&face(g, r), first, target);
        if let Some(w) = self.blows.get(&key) {
            return w.clone();
        }
        let target = target.4;
        let pike_first = first && g.rounds == 0;
        let mut w = Weights::certain((0u32, g.carried.to_bits()));
        for (figure, n) in g.fighting_on(first, front_share(g, r), r) {
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
        let w: Rc<[Strike]> = w.items.into_iter().map(|((h, c), p)| (h, c, p)).collect();
        self.blows.insert(key, w.clone());
        w
    }

    /// The figures hit alone (the last round's blow: nothing is carried beyond it).
    fn blow_hits(
        &mut self,
        g: &Regiment,
        first: bool,
        target: &Face,
    ) -> (BlowKey, Rc<[(u32, f64)]>) {
        let key = blow_key(&face(g, self.rules), first, target);
        if let Some(h) = self.blow_hits.get(&key) {
            return (key, h.clone());
        }
        let mut w = Weights::new();
        for &(h, _, p) in self.blow(g, first, target).iter() {
            w.add(h, p);
        }
        let h: Rc<[(u32, f64)]> = w.items.into();
        self.blow_hits.insert(key, h.clone());
        (key, h)
    }

    /// Each regiment of a part by its face: what the other's blow depends on.
    fn faces(&self, part: &Part) -> [Vec<(Face, Spread)>; 2] {
        let r = self.rules;
        [0, 1].map(|i| self.split(&part.r[i], |g| face(g, r)))
    }

    /// A round that is not the last, both striking at once. Each side's dice decide both the
    /// figures it hits and the points it carries into the next round, so the part is split by
    /// the points each carries; given those, each side's losses come from the other's dice
    /// alone, and the two stay side by side.
    fn round(&mut self, part: Part, first: bool) -> Vec<Part> {
        let [f0, f1] = self.faces(&part);
        let mut out = Vec::new();
        for (k0, a) in &f0 {
            let ga = self.reg(a.items[0].0);
            for (k1, b) in &f1 {
                let gb = self.reg(b.items[0].0);
                let to_b = by_carried(&self.blow(&ga, first, k1));
                let to_a = by_carried(&self.blow(&gb, first, k0));
                for (ca, hits_b) in &to_b {
                    for (cb, hits_a) in &to_a {
                        let strike = |g: &mut Regiment, c: u64| {
                            g.carried = f64::from_bits(c);
                            g.rounds = g.rounds.saturating_add(1);
                        };
                        let a2 = self.each(a, |g| strike(g, *ca));
                        let a2 = self.struck_in_melee(&a2, hits_a);
                        let b2 = self.each(b, |g| strike(g, *cb));
                        let b2 = self.struck_in_melee(&b2, hits_b);
                        out.extend(self.settle(part.with(part.charge, [a2, b2])));
                    }
                }
            }
        }
        out
    }

    /// Impetus and the rounds but the last, while both stand in contact.
    fn melee(&mut self, part: Part) -> Vec<Part> {
        if part.charge != Charge::Contact {
            return vec![part];
        }
        let r = [0, 1].map(|x| {
            self.each(&part.r[x], |g| {
                g.fought = true;
                g.foe = Some(1 - x as u16);
            })
        });
        let mut parts = vec![part.with(part.charge, r)];
        for x in 0..2 {
            parts = parts.into_iter().flat_map(|p| self.impetus(p, x)).collect();
        }
        for k in 0..self.rules.melee.rounds.saturating_sub(1) {
            parts = parts
                .into_iter()
                .flat_map(|p| {
                    if self.in_contact(&p) {
                        self.round(p, k == 0)
                    } else {
                        vec![p]
                    }
                })
                .collect();
        }
        parts
    }

    /// Regiment `i` with no melee losses counted, and `bare`, nothing carried and no rounds
    /// fought: what its losses and judge do not depend on (its melee losses are counted apart,
    /// as an offset, so regiments that differ only there share their last round).
    fn lean(&mut self, i: u32, bare: bool) -> u32 {
        if let Some(&j) = self.leans.get(&(i, bare)) {
            return j;
        }
        let mut g = self.reg(i);
        g.melee_lost = 0;
        if bare {
            g.carried = 0.0;
            g.rounds = 0;
        }
        let j = self.id(g);
        self.leans.insert((i, bare), j);
        j
    }

    /// Regiment `i`'s judges after the last round's blow by regiment `by`: each judge and the
    /// melee losses of that round (`i` bare).
    fn finals(&mut self, i: u32, by: &Regiment, first: bool) -> Rc<[Outcome]> {
        let target = face(&self.reg(i), self.rules);
        let (key, hits) = self.blow_hits(by, first, &target);
        if let Some(f) = self.finals.get(&(i, key)) {
            return f.clone();
        }
        let mut w = Weights::new();
        for &(n, q) in hits.iter() {
            for &(j, lost, p) in self.hit(i, n).iter() {
                w.add((self.judge_core(j), lost.casualties()), q * p);
            }
        }
        let f: Rc<[Outcome]> = gather(w.items.into_iter().map(|((c, l), p)| (c, l, p))).into();
        self.finals.insert((i, key), f.clone());
        f
    }

    /// Regiment `i`'s judge with its melee losses left out (they are compared in the tally).
    fn judge_core(&mut self, i: u32) -> u32 {
        if let Some(&c) = self.judges.get(&i) {
            return c;
        }
        let mut j = judge_one(&self.reg(i), false, self.rules);
        j.melee_lost = 0;
        let c = self.core(j);
        self.judges.insert(i, c);
        c
    }

    /// A part's ends before the morale throws. A part still in contact has its last round to
    /// fight: its pairs of regiments go to `last` (summed over all parts, so each pair is
    /// judged once); any other part's two sides are judged as they stand, apart, and joined
    /// into the tally.
    fn judge(&mut self, part: &Part, tally: &mut Weights<Tally>, last: &mut Weights<Pair>) {
        if self.rules.melee.rounds > 0 && self.in_contact(part) {
            let [xa, xb] = [0, 1].map(|i| {
                let items = part.r[i].items.clone();
                items
                    .into_iter()
                    .map(|(j, p)| (self.lean(j, false), i32::from(self.reg(j).melee_lost), p))
                    .collect::<Vec<_>>()
            });
            for &(a, la, pa) in &xa {
                for &(b, lb, pb) in &xb {
                    last.add((a, b, la - lb), part.p * pa * pb);
                }
            }
            return;
        }
        let [xa, xb] = [0, 1].map(|i| {
            let entries: Vec<(u32, u16, f64)> = part.r[i]
                .items
                .iter()
                .map(|&(j, p)| (self.judge_core(j), self.reg(j).melee_lost, p))
                .collect();
            gather(entries.into_iter())
        });
        let charge = part.charge;
        join(&xa, &xb, 0, part.p, |a, b, k, p| {
            tally.add((charge, a, b, ORDERS[k]), p)
        });
    }

    /// The last round for every pair still in contact, both striking at once: each side's
    /// losses come from the other's blow alone (nothing is carried beyond it), so each side's
    /// judges are found apart and joined in a dense tally by judge.
    fn last_round(&mut self, last: Weights<Pair>, tally: &mut Weights<Tally>) {
        let first = self.rules.melee.rounds == 1;
        let mut dense: Vec<Vec<[f64; 3]>> = Vec::new();
        for ((a, b, ahead), p) in last.items {
            let (ga, gb) = (self.reg(a), self.reg(b));
            let (bare_a, bare_b) = (self.lean(a, true), self.lean(b, true));
            let xa = self.finals(bare_a, &gb, first);
            let xb = self.finals(bare_b, &ga, first);
            let n = self.cores.len();
            if dense.len() < n {
                dense.resize(n, Vec::new());
                for row in &mut dense {
                    row.resize(n, [0.0; 3]);
                }
            }
            join(&xa, &xb, ahead, p, |ca, cb, k, q| {
                dense[ca as usize][cb as usize][k] += q
            });
        }
        for (ca, row) in dense.iter().enumerate() {
            for (cb, cell) in row.iter().enumerate() {
                for (k, &p) in cell.iter().enumerate() {
                    if p != 0.0 {
                        tally.add((Charge::Contact, ca as u32, cb as u32, ORDERS[k]), p);
                    }
                }
            }
        }
    }

    /// The morale throws at the end of the move, the charger's first, each obeyed before the
    /// next is thrown (a regiment that falls back or routs leaves its enemy withdrawing).
    fn morale(&mut self, j: Judged) -> Weights<End> {
        // A throw first against horse stands until another is thrown.
        let mut w = Weights::certain((j, [j.r[0].threw, j.r[1].threw]));
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

    /// A tally's end as the morale throws see it: a gone regiment's enemy sees it withdraw
    /// (a no-op where the melee was already left); who won (fewer figures struck); which lost
    /// fewer, as the add reads it.
    fn judged(&self, charge: Charge, a: u32, b: u32, order: Ordering) -> Judged {
        let mut j = Judged {
            r: [self.cores[a as usize], self.cores[b as usize]],
            charge,
        };
        for i in [1, 0] {
            if j.r[i].gone {
                j.disengage(i);
            }
        }
        let fought = charge == Charge::Contact;
        j.r[0].won = fought && order == Ordering::Less;
        j.r[1].won = fought && order == Ordering::Greater;
        j.r[0].melee_lost = u16::from(order == Ordering::Greater);
        j.r[1].melee_lost = u16::from(order == Ordering::Less);
        j
    }
}

/// A regiment as its morale throw sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Judge {
    /// What its throw first against horse said, if it threw one.
    threw: Fate,
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
    /// A square: no flank or rear to secure (ruling).
    flanks_secured: bool,
    melee_lost: u16,
}

/// Both regiments at the end of the melee, and how the charge went in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Judged {
    r: [Judge; 2],
    charge: Charge,
}

fn judge_one(g: &Regiment, won: bool, rules: &DickensonRules) -> Judge {
    Judge {
        threw: thrown(g),
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
        flanks_secured: g.all_round(rules) && rules.formations.square.flanks_secured,
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
            (me.flanks_secured, Add::FlanksSecured),
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

/// A regiment after a hit: officers struck (the mounted officer first), the standard, and
/// rank-and-file figures, each from the larger body; with no figures left it is gone.
fn struck_off(mut g: Regiment, loss: Loss) -> Regiment {
    for _ in 0..loss.officers {
        if g.mounted_officer {
            g.mounted_officer = false;
        } else {
            g.officer = false;
        }
    }
    if loss.standard {
        g.standard = false;
    }
    for _ in 0..loss.figures {
        let body = match g.kind {
            Kind::Foot | Kind::ForlornHope if g.pikemen > g.musketeers => &mut g.pikemen,
            Kind::Foot | Kind::ForlornHope => &mut g.musketeers,
            Kind::Horse(_) | Kind::Dragoons => &mut g.horsemen,
            Kind::Gun(_) => &mut g.gunners,
        };
        *body -= 1;
    }
    // As the engine counts them (officers and the standard too); only whether any were lost
    // matters to the throw, so the state is kept to that.
    g.lose_this_move(loss);
    g.lost_this_move = g.lost_this_move.min(1);
    if g.figures() == 0 {
        g.state = State::Gone;
    }
    g
}

fn only_regiments(w: Weights<(u32, Loss)>) -> Spread {
    let mut out = Weights::new();
    for ((j, _), p) in w.items {
        out.add(j, p);
    }
    out
}

/// A blow parted by the points it carries, in the order first met: for each, the figures hit.
fn by_carried(blow: &[Strike]) -> Vec<(u64, Vec<(u32, f64)>)> {
    let mut out: Vec<(u64, Vec<(u32, f64)>)> = Vec::new();
    for &(h, c, p) in blow {
        match out.iter_mut().find(|(d, _)| *d == c) {
            Some((_, v)) => v.push((h, p)),
            None => out.push((c, vec![(h, p)])),
        }
    }
    out
}

/// How the charger's melee losses compare with its target's: fewer, as many, more.
const ORDERS: [Ordering; 3] = [Ordering::Less, Ordering::Equal, Ordering::Greater];

/// Two independent sides' judges, each with its melee losses by number, joined, the charger
/// `ahead` figures more lost before: for each pair of judges, the chances the charger lost
/// fewer, as many, or more figures in melee (as [`ORDERS`] counts them), from the running sums
/// over the target's losses.
fn join(
    xa: &[Outcome],
    xb: &[Outcome],
    ahead: i32,
    p: f64,
    mut add: impl FnMut(u32, u32, usize, f64),
) {
    for a in xa {
        for b in xb {
            let n = b.by_lost.len() as i32;
            let at = |k: i32| k.clamp(0, n) as usize;
            let (mut fewer, mut same, mut more) = (0.0, 0.0, 0.0);
            for (la, &pa) in a.by_lost.iter().enumerate() {
                if pa == 0.0 {
                    continue;
                }
                // The charger's losses counted on the target's scale.
                let t = la as i32 + ahead;
                more += pa * b.below[at(t)];
                if (0..n).contains(&t) {
                    same += pa * b.by_lost[t as usize];
                }
                fewer += pa * b.from[at(t + 1)];
            }
            for (k, q) in [fewer, same, more].into_iter().enumerate() {
                if q != 0.0 {
                    add(a.core, b.core, k, p * q);
                }
            }
        }
    }
}

/// The result of a throw first against horse, read back from the marks
/// [`Chain::throw_first`] leaves (as the engine's `obey`).
fn thrown(g: &Regiment) -> Fate {
    if g.state == State::Routing {
        Fate::Rout
    } else if g.halt_until > 0 {
        Fate::Stand
    } else if g.disordered_until > 0 {
        Fate::FallBack
    } else {
        Fate::Untested
    }
}

/// Morale points a regiment has lost so far.
fn points_lost(reg: &Regiment, rules: &DickensonRules) -> u32 {
    u32::from(reg.start_points).saturating_sub(reg.points(rules))
}

/// Ends regiment `i`'s melee on both sides, as the engine's `disengage`: its enemy sees it
/// withdraw.
fn disengage(r: &mut [Regiment; 2], i: usize) {
    for o in r[i].engaged.take().iter() {
        let e = &mut r[usize::from(o)];
        e.engaged.remove(i as u16);
        if e.engaged.is_none() {
            e.rounds = 0;
            e.attacker = false;
            e.carried = 0.0;
        }
        e.enemy_withdrew = true;
    }
    let g = &mut r[i];
    g.rounds = 0;
    g.attacker = false;
    g.carried = 0.0;
}

/// The whole chain for one charge: the charge and the melee but its last round part by part,
/// the last round judged side by side into the tally, then the morale throws on each end.
pub fn follow(rules: &DickensonRules, spec: &Spec) -> Weights<End> {
    let mut c = Chain::new(rules);
    let (mut tally, mut last) = (Weights::new(), Weights::new());
    for part in c.charge(spec) {
        for part in c.melee(part) {
            c.judge(&part, &mut tally, &mut last);
        }
    }
    c.last_round(last, &mut tally);
    let mut judged = Weights::new();
    for ((charge, a, b, order), p) in tally.items {
        judged.add(c.judged(charge, a, b, order), p);
    }
    judged.bind(|j| c.morale(j))
}

/// The table's columns from a chain's ends.
pub const COLUMNS: [&str; 15] = [
    "p_contact",
    "p_turned_away",
    "p_held_at_pikes",
    "p_gave_way",
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
/// fate, its last throw on the chart this move (a target's throw first against horse stands
/// unless it throws again at the end; good counts the untested; routs counts the destroyed).
pub fn values(ends: &Weights<End>) -> [f64; 15] {
    let p = |f: &dyn Fn(&End) -> bool| ends.p_where(f);
    let fate = |i: usize, f: &dyn Fn(Fate) -> bool| p(&|e: &End| f(e.fate[i]));
    let contact = |e: &End| e.charge == Charge::Contact;
    let mut v = [
        p(&contact),
        p(&|e| e.charge == Charge::TurnedAway),
        p(&|e| e.charge == Charge::HeldAtPikes),
        p(&|e| e.charge == Charge::GaveWay),
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
        v[7 + 4 * i] = fate(i, &|f| matches!(f, Fate::Good | Fate::Untested));
        v[8 + 4 * i] = fate(i, &|f| f == Fate::Stand);
        v[9 + 4 * i] = fate(i, &|f| f == Fate::FallBack);
        v[10 + 4 * i] = fate(i, &|f| f.routs());
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

pub const DRAGOONS: [(&str, &str, UnitKind); 1] = [("dragoons", "dragoons", UnitKind::Dragoons)];

/// Targets that throw first when charged by horse: a forlorn hope (musketeers in one rank, at
/// its deduction) and foot with their shot drawn up before the pike (pike in one rank); the
/// pike-heavy regiment has too few musketeers to line its pike.
pub const THROW_FIRST: [(&str, &str, UnitKind, Formation); 3] = [
    (
        "forlorn_hope",
        "forlorn hope",
        UnitKind::ForlornHope,
        Formation::Line,
    ),
    (
        "foot_shot_before_pike",
        "foot, shot before the pike",
        UnitKind::Foot(FootBalance::Normal),
        Formation::ShotBeforePike,
    ),
    (
        "shot_heavy_foot_shot_before_pike",
        "shot-heavy foot, shot before the pike",
        UnitKind::Foot(FootBalance::ShotHeavy),
        Formation::ShotBeforePike,
    ),
];

/// Foot standing in square (pike three deep): each kind of foot. Horse cannot charge it; foot
/// meet its face toward them, the one that fires and fights.
pub const SQUARES: [(&str, &str, UnitKind, Formation); 3] = [
    (
        "foot_square",
        "foot in square",
        UnitKind::Foot(FootBalance::Normal),
        Formation::Square,
    ),
    (
        "pike_heavy_foot_square",
        "pike-heavy foot in square",
        UnitKind::Foot(FootBalance::PikeHeavy),
        Formation::Square,
    ),
    (
        "shot_heavy_foot_square",
        "shot-heavy foot in square",
        UnitKind::Foot(FootBalance::ShotHeavy),
        Formation::Square,
    ),
];

/// Sited guns by the scenario's weight (the rulings' calibres: a saker and a culverin; a
/// falcon's crew and points are the saker's, so its rows would be the same).
pub const GUNS: [(&str, &str, UnitKind); 2] = [
    (
        "medium_gun",
        "medium gun",
        UnitKind::Artillery(GunWeight::Medium),
    ),
    (
        "heavy_gun",
        "heavy gun",
        UnitKind::Artillery(GunWeight::Heavy),
    ),
];

/// Horse and dragoons that have fired their pistols and not reloaded: only the breach of a
/// pikestand uses them in a charge (one left breaches as two do).
pub const NO_PISTOLS: [(&str, &str, UnitKind); 3] = [
    (
        "troopers_no_pistols",
        "troopers, pistols fired",
        UnitKind::Horse(HorseKind::Trotters),
    ),
    (
        "lobsters_no_pistols",
        "lobsters, pistols fired",
        UnitKind::Horse(HorseKind::Cuirassiers),
    ),
    (
        "dragoons_no_pistols",
        "dragoons, pistols fired",
        UnitKind::Dragoons,
    ),
];

/// The charges of the table: each kind of horse charging each kind of horse and of foot, and
/// each kind of foot charging each kind of foot and of horse; dragoons charging horse and foot
/// and charged by horse; horse and dragoons charging targets that throw first; foot charging
/// squares and a forlorn hope; everyone charging a sited gun; horse and dragoons with their
/// pistols fired charging foot. Horse charge home at the gallop from beyond the muskets'
/// reach (their move's half is longer than a musket's range, so no closing fire meets them;
/// pistols reach less still); foot charge from within musket range and at least half their
/// move away, so the target's musketeers give closing fire (horse's pistols do not reach that
/// far; guns give none). Horse cannot charge a square (pike three deep), so no row has one.
pub fn specs() -> Vec<(&'static str, &'static str, Spec)> {
    let mut v = Vec::new();
    type Target = (&'static str, UnitKind, Formation);
    let line = |t: &[(&'static str, &'static str, UnitKind)]| -> Vec<Target> {
        t.iter()
            .map(|&(id, _, k)| (id, k, Formation::Line))
            .collect()
    };
    let formed = |t: &[(&'static str, &'static str, UnitKind, Formation)]| -> Vec<Target> {
        t.iter().map(|&(id, _, k, f)| (id, k, f)).collect()
    };
    let horse_and_dragoons = [&HORSE[..], &DRAGOONS[..]].concat();
    let pairs = [
        (&HORSE[..], line(&HORSE), false, None),
        (&HORSE[..], line(&FOOT), false, None),
        (&FOOT[..], line(&FOOT), true, None),
        (&FOOT[..], line(&HORSE), false, None),
        (&DRAGOONS[..], line(&horse_and_dragoons), false, None),
        (&DRAGOONS[..], line(&FOOT), false, None),
        (&HORSE[..], line(&DRAGOONS), false, None),
        (&horse_and_dragoons[..], formed(&THROW_FIRST), false, None),
        (&FOOT[..], formed(&SQUARES), true, None),
        (&FOOT[..], formed(&THROW_FIRST[..1]), true, None),
        (&horse_and_dragoons[..], line(&GUNS), false, None),
        (&FOOT[..], line(&GUNS), false, None),
        (&NO_PISTOLS[..], line(&FOOT[..1]), false, Some(0)),
    ];
    for (chargers, targets, closing_fire, pistols_left) in pairs {
        for &(aid, _, a) in chargers {
            for &(did, d, formation) in &targets {
                v.push((
                    aid,
                    did,
                    Spec {
                        attacker: a,
                        defender: d,
                        formation,
                        closing_fire,
                        pistols_left,
                    },
                ));
            }
        }
    }
    v
}

/// A grid of the table with the given headers after the charger and target.
fn grid(caption: &str, header: &[&str]) -> Grid {
    let mut h = vec!["Charger".to_string(), "Target".to_string()];
    h.extend(header.iter().map(|s| s.to_string()));
    Grid::new(caption, h).labels(2)
}

pub fn table(rules: &DickensonRules) -> Table {
    let mut columns = vec![key("attacker"), key("defender"), key("closing_fire")];
    columns.extend(COLUMNS.iter().map(|&c| prob(c)));
    let mut tidy = Tidy::new(columns);
    let mut going = grid(
        "How the charge went in (A charges B standing)",
        &[
            "Closing fire",
            "Contact",
            "Turned away",
            "Held at pikes",
            "Gave way",
        ],
    );
    let mut fought = grid(
        "Impetus, two rounds, both regiments' morale throws",
        &[
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
        ],
    );
    for (aid, did, spec) in specs() {
        let v = values(&follow(rules, &spec));
        let mut row = vec![
            Cell::text(aid),
            Cell::text(did),
            Cell::text(if spec.closing_fire { "yes" } else { "no" }),
        ];
        row.extend(v.iter().map(|&p| Cell::Real(p)));
        let cells = |range: std::ops::Range<usize>| {
            let mut r = row[..2].to_vec();
            r.extend(row[range].iter().cloned());
            r
        };
        going.push(cells(2..7));
        fought.push(cells(7..row.len()));
        tidy.push(row);
    }
    Table {
        id: "dk_charge_chain",
        title: "A charge followed through: impetus, two rounds, the morale throws at the end of the move".into(),
        about: about(rules),
        tidy,
        grids: vec![going, fought],
    }
}

/// The table's notes: what each chain assumes, how it is worked out, and what its columns mean.
fn about(rules: &DickensonRules) -> Vec<String> {
    vec![
        format!(
            "Two lone regiments of the rules' strength (horse {} men, foot {} men, at 1:{}; foot in line, pike two deep) on open ground, \
             no generals or supports; the charger (A) declares against a fresh, halted target (B). Horse charge at the gallop from beyond \
             the muskets' reach; foot charge from within it and at least half their move away. The engine's sequence before contact is followed too (CSV: contact, turned \
             away, held at the pikes): closing fire at short range from foot and dragoons when the charger comes from within their range \
             and moves at least {} of its move to contact (horse's pistols never reach that far); horse fired upon, or charging foot \
             with pikes, throw 2D6 +1 for attacking less the points they have lost, turning or swerving away below {}; horse entering a \
             pikestand fire a pistol volley from the front rank and are held at the pikes unless it kills {}. Targets that throw first \
             against horse (a forlorn hope, pike in one rank behind its shot, a gun's crew) throw on the chart before it and give way \
             on a fall back or rout. A square (`_square`) fires and fights from its face toward the charger and counts its flanks \
             secured; a forlorn hope fires man by man; a gun stands sited and its whole crew fights both rounds; chargers marked \
             `_no_pistols` have fired theirs, so any pikestand holds them.",
            rules.battle.men.horse,
            rules.battle.men.foot,
            rules.regiment.figure_scale,
            rules.volley.closing_fire_min_move,
            rules.morale.formation_throw_good_at_least,
            rules.formations.breach_kills
        ),
        format!(
            "Horse that charged home strike with impetus, then {} rounds are fought (front ranks only in the first); the side that lost \
             fewer figures wins the melee (officers and standards struck count as figures lost, here and for the throw below). At \
             the end of the move every regiment that fought or lost figures throws on the morale chart with its adds (attacker, won \
             the melee, fewer casualties, enemy withdrawing) less the morale points it has lost (figures, officers and standards \
             struck), the charger first: one that falls back or routs leaves its enemy the withdrawing add. \
             Good counts a regiment with no throw to take; routs counts one destroyed. The move's fire phase is left out.",
            rules.melee.rounds
        ),
        "Every die is enumerated (nothing is sampled), but the sums run in floating point: a chain throws a hundred dice and more, \
         and the exact fractions outgrow the 128-bit type, so the CSV has no `_exact` fractions for this table. Each regiment's \
         distribution is carried beside the other's, split only where one's result conditions the other's dice (the charger's \
         front rank, a striker's bodies and carried points), and the two are joined only in the last round's tally of who lost fewer."
            .into(),
    ]
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
            // A melee only where the charge went in: won by one side or drawn.
            assert!(v[0] + v[1] + v[2] + v[3] <= 1.0 + 1e-9, "{s:?}");
            assert!((v[4] + v[5] + v[6] - v[0]).abs() < 1e-9, "{s:?}");
            // Horse (dragoons too) on horse, and foot on foot, always meet.
            let mounted = |k: UnitKind| k.is_horse() || k == UnitKind::Dragoons;
            if mounted(s.attacker) == mounted(s.defender) {
                assert!((v[0] - 1.0).abs() < 1e-9, "{s:?}");
            }
            for i in 0..2 {
                let f: f64 = v[7 + 4 * i..11 + 4 * i].iter().sum();
                assert!((f - 1.0).abs() < 1e-9, "{s:?}");
            }
            if s.pistols_left == Some(0) {
                // No pistols, no breach: the pikes hold whoever passes the throw.
                assert_eq!(v[0], 0.0, "{s:?}");
                assert!((v[1] + v[2] - 1.0).abs() < 1e-9, "{s:?}");
                continue;
            }
            // Either side may win, but a saker's crew: five gunners' points are under one
            // melee die, so they never hit anyone.
            let crew_hits_none = s.defender == GUNS[0].2;
            assert!(v[4] > 0.0 && (v[5] > 0.0) != crew_hits_none, "{v:?}");
        }
        // Closing fire costs foot charging foot figures before the melee: without it the
        // charger wins more often and routs less.
        let fired = &specs()[10].2;
        assert!(fired.closing_fire && !fired.attacker.is_horse());
        let v = values(&follow(&r, fired));
        let calm = values(&follow(
            &r,
            &Spec {
                closing_fire: false,
                ..*fired
            },
        ));
        assert!(calm[4] > v[4] && calm[10] < v[10], "{calm:?} {v:?}");
        // Lobsters (impetus 3+, save 4+) beat troopers more often than troopers beat them.
        let v = values(&follow(&r, &specs()[2].2));
        assert!(v[4] > v[5], "{v:?}");
        // A square meets foot with one face: the charger wins more often than against the
        // same foot in line.
        let square = Spec {
            formation: Formation::Square,
            ..*fired
        };
        assert!(specs().iter().any(|(_, _, s)| *s == square));
        let v = values(&follow(&r, &square));
        let line = values(&follow(&r, fired));
        assert!(v[4] > line[4] + 0.1, "{v:?} {line:?}");
    }

    /// How the charge went in, each way's chance.
    fn charge(r: &DickensonRules, a: UnitKind, d: UnitKind, fire: bool) -> Weights<Charge> {
        let spec = Spec {
            attacker: a,
            defender: d,
            formation: Formation::Line,
            closing_fire: fire,
            pistols_left: None,
        };
        let mut w = Weights::new();
        for part in Chain::new(r).charge(&spec) {
            w.add(part.charge, part.mass());
        }
        w
    }

    #[test]
    fn horse_charging_pikes_turn_away_or_are_held_as_worked_by_hand() {
        let r = DickensonRules::builtin();
        let w = charge(&r, HORSE[0].2, FOOT[0].2, false);
        let p = |c: Charge| w.p_where(|s| *s == c);
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

    /// A target that throws first against horse, fresh and alone: 2D6 with no adds, at the
    /// forlorn hope's -1 for musketeers in one rank. Below the stand (6) it gives way: 2D6 of 6
    /// or less for the forlorn hope (15/36), 5 or less for pike in one rank and for a gun's
    /// crew (10/36), routing on 4 or less (6/36) and 3 or less (3/36). Dragoons meet the same
    /// throw as horse. The chargers need no throw of their own (no closing fire; a pikestand
    /// that threw first spares them), but the pikes still need a breach; a gun has none.
    #[test]
    fn targets_that_throw_first_give_way_as_worked_by_hand() {
        let r = DickensonRules::builtin();
        assert_eq!(r.morale.forlorn_hope, -1);
        let targets = THROW_FIRST
            .iter()
            .map(|&(_, _, d, f)| (d, f))
            .chain(GUNS.iter().map(|&(_, _, d)| (d, Formation::Line)));
        let odds = [
            (15.0, 6.0),
            (10.0, 3.0),
            (10.0, 3.0),
            (10.0, 3.0),
            (10.0, 3.0),
        ];
        for (k, ((d, formation), (gave_way, routed))) in targets.zip(odds).enumerate() {
            let pikes = matches!(d, UnitKind::Foot(_));
            for attacker in [HORSE[0].2, DRAGOONS[0].2] {
                let spec = Spec {
                    attacker,
                    defender: d,
                    formation,
                    closing_fire: false,
                    pistols_left: None,
                };
                let mut w = Weights::new();
                let mut routs = 0.0;
                for part in Chain::new(&r).charge(&spec) {
                    w.add(part.charge, part.mass());
                }
                let ends = follow(&r, &spec);
                for (e, p) in &ends.items {
                    if e.charge == Charge::GaveWay && e.fate[1] == Fate::Rout {
                        routs += p;
                    }
                }
                let p = |c: Charge| w.p_where(|s| *s == c);
                assert!((p(Charge::GaveWay) - gave_way / 36.0).abs() < 1e-12, "{k}");
                assert!((routs - routed / 36.0).abs() < 1e-12, "{k}");
                assert_eq!(p(Charge::TurnedAway), 0.0, "{k}");
                assert_eq!(p(Charge::HeldAtPikes) > 0.0, pikes, "{k}");
                if !pikes {
                    assert!((p(Charge::Contact) - (1.0 - gave_way / 36.0)).abs() < 1e-12);
                }
                // Fates count each end once: the given way among them.
                let v = values(&ends);
                assert!((v[3] - gave_way / 36.0).abs() < 1e-12, "{k}");
            }
        }
    }

    /// A forlorn hope's closing fire is man by man: six musketeers at short range each hit on
    /// a 4 or more, so k hits have the chance C(6, k) / 64.
    #[test]
    fn a_forlorn_hopes_closing_fire_is_each_man_his_own_die() {
        let r = DickensonRules::builtin();
        let [_, hope] = regiments(&r, &specs_where(UnitKind::ForlornHope)[0]);
        assert_eq!((hope.musketeers, r.small_arms.musket.hit_on.short), (6, 4));
        let got = Chain::new(&r).volley(Arm::Musket, true, 6);
        let choose = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
        assert_eq!(got.len(), 7);
        for (k, p) in got {
            assert!((p - choose[k as usize] / 64.0).abs() < 1e-12, "{k}: {p}");
        }
    }

    fn specs_where(defender: UnitKind) -> Vec<Spec> {
        specs()
            .into_iter()
            .map(|(_, _, s)| s)
            .filter(|s| s.defender == defender)
            .collect()
    }

    /// The charge uses pistols only in the breach, one volley: a charger with one left fares
    /// as a fresh one; with none it is held at the pikes whenever it passes its throw.
    #[test]
    fn one_pistol_left_breaches_as_two_and_none_is_held() {
        let r = DickensonRules::builtin();
        for (_, _, a) in HORSE.iter().chain(&DRAGOONS) {
            let fresh = Spec {
                attacker: *a,
                defender: FOOT[0].2,
                formation: Formation::Line,
                closing_fire: false,
                pistols_left: None,
            };
            assert_eq!(regiments(&r, &fresh)[0].pistols, r.volley.pistols_each);
            let one = Spec {
                pistols_left: Some(1),
                ..fresh
            };
            let (v1, v2) = (values(&follow(&r, &one)), values(&follow(&r, &fresh)));
            for (x, y) in v1.iter().zip(v2) {
                assert!((x - y).abs() < 1e-12, "{v1:?} {v2:?}");
            }
            let none = values(&follow(
                &r,
                &Spec {
                    pistols_left: Some(0),
                    ..fresh
                },
            ));
            // 2D6 + 1 of 8 or more passes: 21/36, and all of those are held.
            assert!((none[2] - 21.0 / 36.0).abs() < 1e-12, "{none:?}");
            assert!((none[1] - 15.0 / 36.0).abs() < 1e-12, "{none:?}");
            // Nobody fought or lost a figure: neither throws.
            assert!((none[7] - 1.0).abs() < 1e-12 && (none[11] - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn foot_never_turn_away_and_closing_fire_makes_horse_throw() {
        let r = DickensonRules::builtin();
        let w = charge(&r, FOOT[0].2, FOOT[2].2, true);
        assert!((w.p_where(|s| *s == Charge::Contact) - 1.0).abs() < 1e-12);
        // Horse charging dragoons' closing fire throw though there are no pikes: figures lost
        // to the musketoons cost points, so they turn away more often than 15/36.
        let d = UnitKind::Dragoons;
        let w = charge(&r, HORSE[0].2, d, true);
        let away = w.p_where(|s| *s == Charge::TurnedAway);
        assert!(away > 15.0 / 36.0 + 0.1 && away < 1.0, "{away}");
        let w = charge(&r, HORSE[0].2, d, false);
        assert_eq!(w.p_where(|s| *s == Charge::Contact), 1.0);
    }
}

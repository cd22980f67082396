//! Exact probabilities: a reduced rational type, and an enumerator that runs an engine function
//! once for every possible sequence of dice it can roll.
//!
//! [`enumerate`] walks the tree of dice a function asks for. It runs the function with a
//! [`TreeDice`] that answers from a fixed prefix of faces; the first time the function asks for a
//! die beyond the prefix, a new branch opens at face 1. After each run it moves to the next
//! branch, odometer fashion, until every face of every die the function could roll has been tried.
//! Each leaf (one complete run) weighs `1/6` per die it rolled, so a function that rolls a
//! variable number of dice (re-rolls) is still counted exactly. Because the tables call the same
//! functions the engine calls, they cannot drift from the rules.

use std::fmt;
use std::ops::{Add, Div, Mul, Sub};

use crate::dice::DiceSource;

/// An exact probability: `num / den` in lowest terms, `den >= 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Prob {
    num: u128,
    den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Prob {
    pub const ZERO: Prob = Prob { num: 0, den: 1 };
    pub const ONE: Prob = Prob { num: 1, den: 1 };

    /// `num / den`, reduced. Panics if `den` is 0.
    pub fn new(num: u128, den: u128) -> Prob {
        assert!(den != 0, "a probability needs a non-zero denominator");
        let g = gcd(num, den).max(1);
        Prob {
            num: num / g,
            den: den / g,
        }
    }

    pub fn num(self) -> u128 {
        self.num
    }

    pub fn den(self) -> u128 {
        self.den
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `1 - self`. Panics if `self > 1`.
    pub fn complement(self) -> Prob {
        Prob::ONE - self
    }

    /// The exact fraction, `7/36`; `0` and `1` stand alone.
    pub fn fraction(self) -> String {
        if self.num == 0 {
            "0".into()
        } else if self.num == self.den {
            "1".into()
        } else {
            format!("{}/{}", self.num, self.den)
        }
    }

    /// Tenths of a percent, rounded half up, computed in integers so the printed digit is exact.
    pub fn per_mille_rounded(self) -> u128 {
        (self.num * 2000 + self.den) / (2 * self.den)
    }

    /// A percentage to one decimal place, `19.4%`. A probability that is not 0 but rounds to
    /// 0.0% prints `<0.1%`, one that is not 1 but rounds to 100.0% prints `>99.9%`, so a
    /// possible event never reads as impossible, nor an uncertain one as certain.
    pub fn percent(self) -> String {
        let t = self.per_mille_rounded();
        if self.num != 0 && t == 0 {
            "<0.1%".into()
        } else if self.num != self.den && t == 1000 {
            ">99.9%".into()
        } else {
            format!("{}.{}%", t / 10, t % 10)
        }
    }

    /// The decimal value to `places` places (rounded half up), for machine-readable output.
    pub fn decimal(self, places: u32) -> String {
        let scale = 10u128.pow(places);
        let v = (self.num * scale * 2 + self.den) / (2 * self.den);
        if places == 0 {
            return v.to_string();
        }
        format!(
            "{}.{:0width$}",
            v / scale,
            v % scale,
            width = places as usize
        )
    }
}

impl Add for Prob {
    type Output = Prob;
    fn add(self, o: Prob) -> Prob {
        let g = gcd(self.den, o.den).max(1);
        let den = self.den / g * o.den;
        Prob::new(self.num * (o.den / g) + o.num * (self.den / g), den)
    }
}

impl Sub for Prob {
    type Output = Prob;
    fn sub(self, o: Prob) -> Prob {
        let g = gcd(self.den, o.den).max(1);
        let den = self.den / g * o.den;
        let a = self.num * (o.den / g);
        let b = o.num * (self.den / g);
        assert!(a >= b, "probability subtraction below zero: {self} - {o}");
        Prob::new(a - b, den)
    }
}

impl Mul for Prob {
    type Output = Prob;
    fn mul(self, o: Prob) -> Prob {
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        Prob::new(
            (self.num / g1) * (o.num / g2),
            (self.den / g2) * (o.den / g1),
        )
    }
}

impl Div for Prob {
    type Output = Prob;
    /// `self / other` (a conditional probability). Panics if `other` is 0.
    fn div(self, other: Prob) -> Prob {
        assert!(!other.is_zero(), "division by a zero probability");
        let g1 = gcd(self.num, other.num).max(1);
        let g2 = gcd(other.den, self.den).max(1);
        Prob::new(
            (self.num / g1) * (other.den / g2),
            (self.den / g2) * (other.num / g1),
        )
    }
}

impl std::iter::Sum for Prob {
    fn sum<I: Iterator<Item = Prob>>(iter: I) -> Prob {
        iter.fold(Prob::ZERO, |a, b| a + b)
    }
}

impl PartialOrd for Prob {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Prob {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fraction())
    }
}

/// A finite distribution: each outcome once, in the order first met, with its probability.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist<T> {
    pub outcomes: Vec<(T, Prob)>,
}

impl<T: PartialEq> Default for Dist<T> {
    fn default() -> Self {
        Dist {
            outcomes: Vec::new(),
        }
    }
}

impl<T: PartialEq> Dist<T> {
    /// Adds `p` to outcome `t`.
    pub fn add(&mut self, t: T, p: Prob) {
        if let Some(slot) = self.outcomes.iter_mut().find(|(o, _)| *o == t) {
            slot.1 = slot.1 + p;
        } else {
            self.outcomes.push((t, p));
        }
    }

    /// The probability of `t` (0 if never met).
    pub fn p(&self, t: &T) -> Prob {
        self.outcomes
            .iter()
            .find(|(o, _)| o == t)
            .map(|(_, p)| *p)
            .unwrap_or(Prob::ZERO)
    }

    /// The probability that `pred` holds.
    pub fn p_where(&self, pred: impl Fn(&T) -> bool) -> Prob {
        self.outcomes
            .iter()
            .filter(|(o, _)| pred(o))
            .map(|(_, p)| *p)
            .sum()
    }

    pub fn total(&self) -> Prob {
        self.outcomes.iter().map(|(_, p)| *p).sum()
    }

    /// The distribution of `f(outcome)`.
    pub fn map<U: PartialEq>(&self, f: impl Fn(&T) -> U) -> Dist<U> {
        let mut d = Dist::default();
        for (o, p) in &self.outcomes {
            d.add(f(o), *p);
        }
        d
    }
}

/// The result of walking every dice sequence of a function.
#[derive(Debug, Clone)]
pub struct Enumeration<T> {
    /// The outcomes of the runs that finished within the depth limit.
    pub resolved: Dist<T>,
    /// The total probability of the runs cut off at the depth limit (their outcomes discarded).
    pub truncated: Prob,
    /// How many runs (leaves of the dice tree) were made.
    pub leaves: u64,
}

impl<T: PartialEq> Enumeration<T> {
    /// The exact distribution. Panics if any run was cut off: then it is not exact.
    pub fn exact(self) -> Dist<T> {
        assert!(
            self.truncated.is_zero(),
            "dice enumeration was cut off at the depth limit (mass {}): raise the limit",
            self.truncated
        );
        self.resolved
    }

    /// The distribution conditional on the run finishing within the depth limit. This is exact
    /// only when whether a run is cut off is independent of its outcome: for instance a
    /// memoryless "roll again" loop (the horse-and-rider tie) followed by a fixed number of dice.
    /// The outcome after such a loop does not depend on how many times it went round, and the
    /// cut-off falls on the number of rounds alone, so the runs that finish are a fair sample.
    /// (If some outcomes roll more dice after the loop than others, the cut-off is biased.)
    pub fn conditional_on_resolved(self) -> Dist<T> {
        let mass = self.resolved.total();
        assert!(!mass.is_zero(), "no run finished within the depth limit");
        Dist {
            outcomes: self
                .resolved
                .outcomes
                .into_iter()
                .map(|(t, p)| (t, p / mass))
                .collect(),
        }
    }
}

/// A [`DiceSource`] that answers from a prefix of choices and opens new branches past it.
#[derive(Debug)]
pub struct TreeDice {
    /// (choice index, number of choices) of every draw made so far in this run.
    path: Vec<(u32, u32)>,
    pos: usize,
    limit: usize,
    truncated: bool,
    filler: u32,
    rolled: u64,
}

impl TreeDice {
    fn new(path: Vec<(u32, u32)>, limit: usize) -> TreeDice {
        TreeDice {
            path,
            pos: 0,
            limit,
            truncated: false,
            filler: 0,
            rolled: 0,
        }
    }

    /// A draw with `arity` equally likely choices, `0..arity`.
    fn draw(&mut self, arity: u32) -> u32 {
        let arity = arity.max(1);
        self.rolled += 1;
        if self.truncated || self.pos >= self.limit {
            // Past the depth limit: this run's outcome is discarded. Cycle through the faces so
            // that a "roll until different" loop still ends.
            self.truncated = true;
            self.filler = self.filler.wrapping_add(1);
            return self.filler % arity;
        }
        if self.pos == self.path.len() {
            self.path.push((0, arity));
        }
        let (choice, a) = self.path[self.pos];
        assert_eq!(
            a, arity,
            "the function asked for a different kind of draw at the same point: it is not deterministic"
        );
        self.pos += 1;
        choice
    }
}

impl DiceSource for TreeDice {
    fn d6(&mut self) -> u8 {
        self.draw(6) as u8 + 1
    }
    fn rolled(&self) -> u64 {
        self.rolled
    }
    fn below(&mut self, n: u32) -> u32 {
        self.draw(n)
    }
}

/// Runs `f` once for every sequence of dice it can roll (at most `max_dice` deep) and returns the
/// distribution of its results. `f` must depend on nothing but the dice.
pub fn enumerate<T: PartialEq, F: FnMut(&mut TreeDice) -> T>(
    max_dice: usize,
    mut f: F,
) -> Enumeration<T> {
    let mut resolved = Dist::default();
    let mut truncated = Prob::ZERO;
    let mut leaves = 0u64;
    let mut path: Vec<(u32, u32)> = Vec::new();
    loop {
        let prefix = path.len();
        let mut dice = TreeDice::new(path, max_dice);
        let out = f(&mut dice);
        leaves += 1;
        assert!(
            dice.pos >= prefix,
            "the function rolled fewer dice on a replayed prefix: it is not deterministic"
        );
        path = dice.path;
        path.truncate(dice.pos);
        let den: u128 = path.iter().map(|&(_, a)| u128::from(a)).product();
        let mass = Prob::new(1, den);
        if dice.truncated {
            truncated = truncated + mass;
        } else {
            resolved.add(out, mass);
        }
        // The next leaf: advance the last draw that has a choice left; drop exhausted draws.
        loop {
            match path.last_mut() {
                None => {
                    return Enumeration {
                        resolved,
                        truncated,
                        leaves,
                    };
                }
                Some(last) if last.0 + 1 < last.1 => {
                    last.0 += 1;
                    break;
                }
                Some(_) => {
                    path.pop();
                }
            }
        }
    }
}

/// The distribution of the number of successes among `n` independent trials each succeeding with
/// probability `p`: index `k` holds P(exactly k).
pub fn binomial(n: u32, p: Prob) -> Vec<Prob> {
    let mut dist = vec![Prob::ONE];
    let q = p.complement();
    for _ in 0..n {
        let mut next = vec![Prob::ZERO; dist.len() + 1];
        for (k, &pk) in dist.iter().enumerate() {
            next[k] = next[k] + pk * q;
            next[k + 1] = next[k + 1] + pk * p;
        }
        dist = next;
    }
    dist
}

/// "At least k" from "exactly k": index `k` holds P(X >= k).
pub fn at_least(exact: &[Prob]) -> Vec<Prob> {
    let mut out = vec![Prob::ZERO; exact.len()];
    let mut acc = Prob::ZERO;
    for k in (0..exact.len()).rev() {
        acc = acc + exact[k];
        out[k] = acc;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_reduces() {
        let a = Prob::new(2, 12);
        assert_eq!(a, Prob::new(1, 6));
        assert_eq!(a + Prob::new(1, 3), Prob::new(1, 2));
        assert_eq!(Prob::new(1, 2) * Prob::new(2, 3), Prob::new(1, 3));
        assert_eq!(Prob::ONE - Prob::new(1, 36), Prob::new(35, 36));
        assert_eq!(Prob::new(1, 12) / Prob::new(1, 2), Prob::new(1, 6));
        assert_eq!(Prob::new(7, 36).fraction(), "7/36");
        assert_eq!(Prob::new(7, 36).percent(), "19.4%");
        assert_eq!(Prob::new(1, 8).percent(), "12.5%");
        assert_eq!(Prob::new(1, 1_679_616).percent(), "<0.1%");
        assert_eq!(Prob::new(1_679_615, 1_679_616).percent(), ">99.9%");
        assert_eq!(Prob::ONE.percent(), "100.0%");
        assert_eq!(Prob::ZERO.percent(), "0.0%");
        assert_eq!(Prob::new(1, 3).decimal(4), "0.3333");
        assert_eq!(Prob::new(2, 3).decimal(4), "0.6667");
        assert_eq!(Prob::ONE.decimal(2), "1.00");
        assert!(Prob::new(1, 3) < Prob::new(1, 2));
    }

    #[test]
    fn enumerates_variable_depth() {
        // Roll a die; on a 6 roll another and add it. P(total = 7..12) = 1/36 each.
        let e = enumerate(4, |d| {
            let a = d.d6();
            if a == 6 { a + d.d6() } else { a }
        });
        assert_eq!(e.leaves, 11);
        let dist = e.exact();
        assert_eq!(dist.p(&3), Prob::new(1, 6));
        assert_eq!(dist.p(&12), Prob::new(1, 36));
        assert_eq!(dist.p(&6), Prob::ZERO);
        assert_eq!(dist.total(), Prob::ONE);
    }

    #[test]
    fn truncation_is_counted() {
        // Roll until a die differs from the first: unbounded, memoryless.
        let e = enumerate(3, |d| {
            let first = d.d6();
            loop {
                let next = d.d6();
                if next != first {
                    break next > first;
                }
            }
        });
        assert_eq!(e.truncated, Prob::new(1, 36));
        let dist = e.conditional_on_resolved();
        assert_eq!(dist.p(&true), Prob::new(1, 2));
    }

    #[test]
    fn binomial_sums_to_one() {
        let b = binomial(3, Prob::new(1, 3));
        assert_eq!(b[0], Prob::new(8, 27));
        assert_eq!(b[3], Prob::new(1, 27));
        assert_eq!(b.iter().copied().sum::<Prob>(), Prob::ONE);
        let c = at_least(&b);
        assert_eq!(c[0], Prob::ONE);
        assert_eq!(c[3], Prob::new(1, 27));
    }
}

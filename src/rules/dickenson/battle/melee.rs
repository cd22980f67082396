//! Melee: horse that charged home strike with impetus, then two rounds, only front ranks in
//! the first, each side's points thrown as a die per six, half the score as casualty points
//! (pikemen add half again in the first round of a melee), remainders carried; troops fight
//! only the way they face (a square to every side, from the face in contact).

use super::regiment::State;
use super::{Battle, emit};
use crate::battlefield::Vec2;
use crate::dice::DiceSource;
use crate::events::{Event, Observer};
use crate::rules::dickenson::events::Source;
use crate::rules::dickenson::figures::Figure;
use crate::rules::dickenson::melee;

impl Battle {
    /// Every melee in contact, pair by pair: impetus, then the rounds. A regiment met by
    /// several enemies fights each from the face it touches (ruling), and its losses count
    /// once for the whole melee.
    pub fn melee_phase<D: DiceSource, O: Observer>(&mut self, dice: &mut D, obs: &mut O) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for (a, reg) in self.regiments.iter().enumerate() {
            for b in reg.engaged.iter() {
                if a < usize::from(b) && reg.state == State::Active {
                    pairs.push((a as u16, b));
                }
            }
        }
        for &(a, b) in &pairs {
            let (a, b) = (usize::from(a), usize::from(b));
            for (x, y) in [(a, b), (b, a)] {
                let r = &mut self.regiments[x];
                r.fought = true;
                r.foe = r.foe.or(Some(y as u16));
            }
            for (x, y) in [(a, b), (b, a)] {
                // Impetus only on the enemy it charged (listed first).
                let r = &self.regiments[x];
                if r.impetus && r.engaged.first() == Some(y as u16) {
                    self.impetus(x, y, dice, obs);
                }
            }
            for first in (0..self.rules.melee.rounds).map(|k| k == 0) {
                if !self.in_contact(a, b) {
                    break;
                }
                self.round(a, b, first, dice, obs);
            }
        }
        self.join_melees(&pairs);
        self.sum_melees();
        self.pairs = pairs;
        for k in 0..self.pairs.len() {
            let (a, b) = self.pairs[k];
            for r in [usize::from(a), usize::from(b)] {
                let (mine, theirs) = self.melee_losses(r);
                self.regiments[r].won_melee = theirs > mine;
            }
        }
        for reg in &mut self.regiments {
            if reg.fought {
                reg.rounds = reg.rounds.saturating_add(1);
            }
        }
    }

    /// Casualties in this move's melee (every figure struck, officers and standards too) of
    /// regiment `r`'s side and of the other (ruling: one melee, each side's losses summed):
    /// the melee is every regiment joined to `r` through pairs in contact, friends of friends'
    /// enemies included. Asked once the melees are joined (`sum_melees`), and only of a
    /// regiment that fought.
    pub(super) fn melee_losses(&self, r: usize) -> (u32, u32) {
        let (melee, side) = (self.regiments[r].melee, self.regiments[r].side);
        let sums = self.melee_sums[usize::from(melee)];
        (sums[side.index()], sums[side.other().index()])
    }

    /// Each melee's losses by side (`melee_sums`), from every regiment that fought in it:
    /// made when the melees are joined, and again by whoever writes a regiment's melee losses
    /// after that (a test setting them by hand).
    pub fn sum_melees(&mut self) {
        self.melee_sums.fill([0; 2]);
        for reg in self.regiments.iter().filter(|g| g.fought) {
            self.melee_sums[usize::from(reg.melee)][reg.side.index()] += u32::from(reg.melee_lost);
        }
    }

    /// Marks each regiment with its melee (`Regiment::melee`): the pairs joined, each melee
    /// named by its least regiment's index.
    fn join_melees(&mut self, pairs: &[(u16, u16)]) {
        for (i, reg) in self.regiments.iter_mut().enumerate() {
            reg.melee = i as u16;
        }
        // Relabel until no pair straddles two labels: a chain of n pairs settles within n
        // passes, and melees hold a handful of regiments.
        let mut changed = true;
        while changed {
            changed = false;
            for &(a, b) in pairs {
                let (a, b) = (usize::from(a), usize::from(b));
                let least = self.regiments[a].melee.min(self.regiments[b].melee);
                for x in [a, b] {
                    if self.regiments[x].melee != least {
                        self.regiments[x].melee = least;
                        changed = true;
                    }
                }
            }
        }
    }

    fn in_contact(&self, a: usize, b: usize) -> bool {
        self.regiments[a].state == State::Active
            && self.regiments[b].state == State::Active
            && self.regiments[a].engaged.contains(b as u16)
    }

    /// Impetus of horse `x` charging home on `y`: a die per front-rank horseman.
    fn impetus<D: DiceSource, O: Observer>(
        &mut self,
        x: usize,
        y: usize,
        dice: &mut D,
        obs: &mut O,
    ) {
        let reg = self.regiments[x];
        let n = reg.front_rank(reg.main_figure(), reg.horsemen, &self.rules);
        dice.focus(Self::regiment_stream(x));
        let kills = melee::impetus(dice, reg.main_figure(), u32::from(n), &self.rules);
        // The event (hits before saves) comes before the losses, which may end the regiment.
        emit(
            obs,
            Event::Melee {
                attacker: reg.unit,
                defender: self.regiments[y].unit,
                attacker_dice: n.min(255) as u8,
                defender_dice: 0,
                attacker_hits: kills.min(255) as u8,
                defender_hits: 0,
                flank: false,
            },
        );
        let lost = self.hit(y, kills, x, Source::Melee, dice, obs);
        self.regiments[y].melee_lost += lost.casualties();
    }

    /// One round between `a` and `b`, both striking at once.
    fn round<D: DiceSource, O: Observer>(
        &mut self,
        a: usize,
        b: usize,
        first: bool,
        dice: &mut D,
        obs: &mut O,
    ) {
        let (to_b, dice_a) = self.blow(a, b, first, dice);
        let (to_a, dice_b) = self.blow(b, a, first, dice);
        // The event (hits before saves) comes before the losses, which may end a regiment.
        emit(
            obs,
            Event::Melee {
                attacker: self.regiments[a].unit,
                defender: self.regiments[b].unit,
                attacker_dice: dice_a,
                defender_dice: dice_b,
                attacker_hits: to_b.min(255) as u8,
                defender_hits: to_a.min(255) as u8,
                flank: false,
            },
        );
        let lost_b = self.hit(b, to_b, a, Source::Melee, dice, obs);
        let lost_a = self.hit(a, to_a, b, Source::Melee, dice, obs);
        self.regiments[a].melee_lost += lost_a.casualties();
        self.regiments[b].melee_lost += lost_b.casualties();
    }

    /// The figures of `y` that `x` hits in a round (before saves), and the dice it threw. Only
    /// its front rank fights in the first round of a move; it fights only an enemy in its front
    /// (a square from its face toward the enemy, whichever side that is), its face's figures
    /// shared among the enemies on that face.
    fn blow<D: DiceSource>(&mut self, x: usize, y: usize, first: bool, dice: &mut D) -> (u32, u8) {
        let reg = self.regiments[x];
        let at = self.regiments[y].pos;
        if !self.faces(x, at, self.rules.battle.melee_arc_degrees) {
            return (0, 0);
        }
        let target = self.regiments[y].main_figure();
        // Ruling: the bonus is for the first round of the regiment's melee, whichever enemy.
        let pike_first = first && reg.rounds == 0;
        let share = self.face_toward(x, at) / f64::from(self.enemies_on_face(x, at));
        let blows = reg.fighting_on(first, share, &self.rules);
        dice.focus(Self::regiment_stream(x));
        let (mut hits, mut carried, mut thrown) = (0, reg.carried, 0u32);
        for (figure, n) in blows {
            if n == 0 {
                continue;
            }
            let points = f64::from(n) * melee::points_per_figure(figure, &self.rules);
            thrown += melee::dice_for(points, &self.rules);
            let (h, rest) = melee::round(
                dice,
                figure,
                u32::from(n),
                pike_first && figure == Figure::Pikeman,
                target,
                carried,
                &self.rules,
            );
            hits += h;
            carried = rest;
        }
        self.regiments[x].carried = carried;
        (hits, thrown.min(255) as u8)
    }

    /// How many enemies in contact with `x` it can strike from the face toward `at` (at least 1).
    fn enemies_on_face(&self, x: usize, at: Vec2) -> u32 {
        let reg = &self.regiments[x];
        let face = |p: Vec2| {
            let (off, fwd) = (p - reg.pos, self.front(x));
            reg.face_of(off.dot(fwd), off.dot(fwd.right()), &self.rules)
        };
        let mine = face(at);
        let arc = self.rules.battle.melee_arc_degrees;
        let n = reg
            .engaged
            .iter()
            .map(|o| self.regiments[usize::from(o)].pos)
            .filter(|&p| self.faces(x, p, arc) && face(p) == mine)
            .count();
        n.max(1) as u32
    }
}

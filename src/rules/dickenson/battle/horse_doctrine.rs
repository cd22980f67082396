//! Foot and horse weighing each other (doctrine, not the text: the text leaves generalship to
//! the players; every threshold is a key in `formations.doctrine`). Foot close into square only
//! against horse whose own doctrine would charge them in line, keep it closed while those horse
//! stay within their reach and a margin, and do not stand in square to be shot down by halted
//! horse whose pistols outshoot its face. Horse whose nearest enemy they cannot charge (pike
//! three deep) shoot it only when their pistols outshoot its answer, else go for the nearest
//! enemy they can charge, else hold beyond its muskets' reach.

use super::Battle;
use super::regiment::{Engaged, Formation, Gait, Kind, Regiment, State};
use crate::doctrine::DoctrineParams;
use crate::events::Observer;
use crate::rules::black_powder::battle::doctrine::{self, Plan, Situation};
use crate::rules::black_powder::tables::DoctrineKnobs;
use crate::rules::dickenson::volley::{self, Arm};
use crate::setup::BattleSetup;

impl Battle {
    /// The doctrine regiment `r`'s command follows.
    pub(super) fn doctrine<'a>(
        &self,
        r: usize,
        setup: &'a BattleSetup,
    ) -> Option<&'a DoctrineParams> {
        self.command_doctrine(usize::from(self.regiments[r].command), setup)
    }

    /// The doctrine command `c` follows.
    pub(super) fn command_doctrine<'a>(
        &self,
        c: usize,
        setup: &'a BattleSetup,
    ) -> Option<&'a DoctrineParams> {
        self.doctrine_of
            .get(c)
            .and_then(|&d| setup.doctrines.get(usize::from(d)))
    }

    /// The doctrine's knobs under Dickenson.
    pub(super) fn knobs(&self) -> DoctrineKnobs {
        DoctrineKnobs {
            individual_order_degrees: 0.0,
            hedgehog_early_range: 0.0,
            charge_range_share: self.rules.battle.charge_range_share,
            // Black Powder's pike wheel and worn horse: Dickenson's plans never read them.
            charge_reach_after_wheel: false,
            shaken_horse_keeps_off: false,
            daunted_horse_stands_off: false,
            horse_foresees_hedgehogs: false,
            charge_past_a_melee: false,
        }
    }

    /// What regiment `r` sees of enemy `t` `gap` off, for its doctrine's plan.
    pub(super) fn situation(
        &self,
        r: usize,
        t: usize,
        gap: f64,
        may_charge: bool,
        range: f64,
    ) -> Situation {
        let reg = &self.regiments[r];
        Situation {
            turn: self.turn,
            reserve: reg.reserve,
            brigade_broken: false,
            gap,
            reach: reg.move_at(reg.next_gait(&self.rules), &self.rules),
            // No command roll bounds a move: the ruleset's share alone says how far it hopes.
            longest: f64::INFINITY,
            may_charge,
            determined: false,
            ratio: self.charge_odds(r, t),
            range,
        }
    }

    /// The odds regiment `r` sees in charging `t`: its morale points (and, weighing the whole
    /// melee `t` is in, those of its friends in contact with `t`) against `t`'s (and those of
    /// `t`'s friends in contact with those friends), each plus one.
    fn charge_odds(&self, r: usize, t: usize) -> f64 {
        let (mut mine, mut theirs) = (self.points(r), self.points(t));
        if self.rules.battle.charge_odds_whole_melee {
            // Each friend of `t` counted once: at most `Engaged::CAPACITY` of them on each
            // of its enemies.
            let mut seen = [t as u16; Engaged::CAPACITY * Engaged::CAPACITY + 1];
            let mut n = 1;
            for e in self.regiments[t]
                .engaged
                .iter()
                .filter(|&e| usize::from(e) != r)
            {
                mine += self.points(usize::from(e));
                for f in self.regiments[usize::from(e)].engaged.iter() {
                    if !seen[..n].contains(&f) {
                        seen[n] = f;
                        n += 1;
                        theirs += self.points(usize::from(f));
                    }
                }
            }
        }
        f64::from(mine + 1) / f64::from(theirs + 1)
    }

    /// Whether horse `h`'s doctrine would charge regiment `r` `gap` off were `r` in line.
    pub(super) fn would_charge_line(
        &self,
        h: usize,
        r: usize,
        gap: f64,
        setup: &BattleSetup,
    ) -> bool {
        if self.held_off(h) {
            return false;
        }
        let Some(d) = self.doctrine(h, setup) else {
            return false;
        };
        let s = self.situation(h, r, gap.max(0.0), true, 0.0);
        doctrine::plan(d, &self.knobs(), &s) == Plan::Charge
    }

    /// Whether horse `h`, held by a stand result, cannot charge before the foot weighing them
    /// dress again (doctrine, `held_horse_threaten` false): held beyond this move, or held
    /// this move when the foot act first next move. Foot dress once a move, so horse free
    /// next move threaten them now only when their side acts first.
    fn held_off(&self, h: usize) -> bool {
        let horse = &self.regiments[h];
        if self.rules.formations.doctrine.held_horse_threaten || horse.halt_until < self.turn {
            return false;
        }
        horse.halt_until > self.turn || self.sides()[0] != horse.side
    }

    /// Whether horse `h`, shooting the square foot `r` would be, would charge `r`'s line were
    /// the square opened, `gap` off (doctrine): then the foot keep the square, shot or not,
    /// unless the doctrine opens it whatever the horse would do (`open_square_to_chargers`).
    pub(super) fn would_charge_opened(
        &self,
        h: usize,
        r: usize,
        gap: f64,
        setup: &BattleSetup,
    ) -> bool {
        !self.rules.formations.doctrine.open_square_to_chargers
            && self.would_charge_line(h, r, gap, setup)
    }

    /// Whether horse `h`, `gap` from foot `r`, stand shooting rather than charging: halted
    /// within pistol range, their pistols outshooting the face of the square `r` would form.
    pub(super) fn shoots_square(&self, h: usize, r: usize, gap: f64) -> bool {
        let rules = &self.rules;
        if self.regiments[h].gait != Gait::Halt || gap > Arm::Pistol.weapon(rules).long {
            return false;
        }
        let mut square = self.regiments[r];
        if !square.can_form(Formation::Square, rules) {
            return false;
        }
        square.form(Formation::Square, rules);
        self.outshoot(h, &square, square.face_share(1.0, 0.0, rules))
    }

    /// What horse `h` go for when their nearest active enemy `t` (`gap` off) is one they
    /// cannot charge (pike three deep): (target, its gap, the range at which they stand).
    /// They stand at pistol range to shoot it if they outshoot its answer; else they go for
    /// the nearest enemy they can charge; else they stand off (an unbounded range: they hold).
    pub(super) fn horse_aim(&self, h: usize, t: usize, gap: f64) -> (usize, f64, f64) {
        let rules = &self.rules;
        if !self.regiments[t].uncharged_by_horse(rules) {
            return (t, gap, 0.0);
        }
        if self.outshoots(h, t) {
            return (t, gap, Arm::Pistol.weapon(rules).long);
        }
        let chargeable = |o: &Regiment| o.state == State::Active && !o.uncharged_by_horse(rules);
        match self.nearest_enemy(h, chargeable) {
            Some((o, g)) => (o, g, 0.0),
            None => (t, gap, f64::INFINITY),
        }
    }

    /// Whether horse `h`'s pistols outshoot the answer of `t`'s face toward them.
    pub(super) fn outshoots(&self, h: usize, t: usize) -> bool {
        let face = self.face_toward(t, self.regiments[h].pos);
        self.outshoot(h, &self.regiments[t], face)
    }

    /// Whether horse `h`'s pistols' expected casualties are at least the doctrine's odds times
    /// those of `foot`'s face holding `share` of it, both at the pistol's short range (where
    /// horse stand to shoot: a move stops at the contact gap).
    fn outshoot(&self, h: usize, foot: &Regiment, share: f64) -> bool {
        let at = Arm::Pistol.weapon(&self.rules).short;
        let horse = self.volley_mean(&self.regiments[h], 1.0, at);
        let answer = self.volley_mean(foot, share, at);
        horse > 0.0 && horse >= self.rules.formations.doctrine.horse_outshoot_odds * answer
    }

    /// The expected casualties (before saves) of a volley of `reg`'s small arm from a face
    /// holding `share` of it at `at` inches (none from a column that may not fire).
    fn volley_mean(&self, reg: &Regiment, share: f64, at: f64) -> f64 {
        let Some(arm) = reg.arm() else {
            return 0.0;
        };
        if reg.formation == Formation::Column && !self.rules.formations.column_fires {
            return 0.0;
        }
        let Some(band) = volley::band(arm.weapon(&self.rules), at) else {
            return 0.0;
        };
        volley::expected(arm, band, u32::from(reg.firers(share)), &self.rules)
    }

    /// A regiment holding its ground halts. Horse holding off an enemy they cannot charge nor
    /// outshoot (`horse_aim`) first draw back out of its small arms' reach, at their next gait.
    pub(super) fn hold<O: Observer>(&mut self, r: usize, t: usize, gap: f64, obs: &mut O) {
        let (reg, target) = (self.regiments[r], self.regiments[t]);
        self.regiments[r].gait = Gait::Halt;
        let rules = &self.rules;
        if !matches!(reg.kind, Kind::Horse(_))
            || !target.uncharged_by_horse(rules)
            || self.outshoots(r, t)
        {
            return;
        }
        let reach = target.long_range(rules);
        if gap > reach {
            return;
        }
        let gait = reg.next_gait(&self.rules);
        let by = (reach - gap + rules.battle.contact_gap).min(reg.move_at(gait, rules));
        let toward = (target.pos - reg.pos).facing();
        self.withdraw(r, toward + std::f64::consts::PI, toward, by, false, obs);
        self.regiments[r].gait = gait;
    }
}

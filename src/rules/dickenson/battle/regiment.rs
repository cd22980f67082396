//! A Dickenson regiment derived from a scenario's unit: figures from men at the figure scale
//! (pike and shot by the regiment's balance, cuirassiers as lobsters, guns by calibre), its
//! officers and standard, and what it has left.

use crate::army::{
    CommandId, FootBalance, Formation as Order, GunWeight, HorseKind, Side, SizeClass, Unit,
    UnitKind,
};
use crate::battlefield::Vec2;
use crate::battlefield::geometry::Shape;
use crate::rules::dickenson::figures::Figure;
use crate::rules::dickenson::gunnery::Calibre;
use crate::rules::dickenson::morale::{self, FootLeft, GunLeft, GunState, HorseLeft};
use crate::rules::dickenson::tables::{BodyRanks, DickensonRules};
use crate::rules::dickenson::volley::Arm;

/// What a regiment is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Pikemen and musketeers.
    Foot,
    /// Musketeers in one rank.
    ForlornHope,
    /// Lobsters or troopers.
    Horse(Figure),
    Dragoons,
    Gun(Calibre),
}

/// The enemies a regiment is in melee with, in the order they came into contact (the first is
/// the one it charged, if it charged): a fixed list, so a battle allocates nothing for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Engaged {
    ids: [u16; Engaged::CAPACITY],
    n: u8,
}

impl Engaged {
    /// The most enemies any regiment meets at once (`melee.enemies_at_once` is at most this).
    pub const CAPACITY: usize = 4;

    /// In melee with `o` alone.
    pub fn of(o: u16) -> Engaged {
        let mut e = Engaged::default();
        e.push(o);
        e
    }

    /// In melee with anyone.
    pub fn is_some(&self) -> bool {
        self.n > 0
    }

    pub fn is_none(&self) -> bool {
        self.n == 0
    }

    pub fn count(&self) -> usize {
        usize::from(self.n)
    }

    pub fn contains(&self, o: u16) -> bool {
        self.iter().any(|e| e == o)
    }

    /// The first enemy met (the one it charged, if it charged).
    pub fn first(&self) -> Option<u16> {
        self.iter().next()
    }

    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.ids[..self.count()].iter().copied()
    }

    /// Adds `o` unless listed or full; whether it is listed after.
    pub fn push(&mut self, o: u16) -> bool {
        if self.contains(o) {
            return true;
        }
        if self.count() == Self::CAPACITY {
            return false;
        }
        self.ids[self.count()] = o;
        self.n += 1;
        true
    }

    /// Removes `o`, keeping the others in order.
    pub fn remove(&mut self, o: u16) {
        let n = self.count();
        if let Some(k) = self.ids[..n].iter().position(|&e| e == o) {
            self.ids.copy_within(k + 1..n, k);
            self.n -= 1;
        }
    }

    /// The list, leaving this one empty.
    pub fn take(&mut self) -> Engaged {
        std::mem::take(self)
    }
}

/// Horse gaits, in order (one step a move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gait {
    Halt,
    Trot,
    Canter,
    Gallop,
}

impl Gait {
    /// The gait a move may reach from this one: `steps_per_move` steps faster (at most a
    /// gallop), and from the halt no gallop unless `gallop_from_halt` (seed: trot to canter or
    /// canter to gallop in a move; stationary cavalry cannot gallop).
    pub fn up(self, rules: &crate::rules::dickenson::tables::Gait) -> Gait {
        let one = |g: Gait| match g {
            Gait::Halt => Gait::Trot,
            Gait::Trot => Gait::Canter,
            Gait::Canter | Gait::Gallop => Gait::Gallop,
        };
        let reached = (0..rules.steps_per_move).fold(self, |g, _| one(g));
        if self == Gait::Halt && !rules.gallop_from_halt {
            reached.min(Gait::Canter)
        } else {
            reached
        }
    }
}

/// A regiment's formation (seed, MOVE DISTANCES: in line, in column, in square; FORMATIONS:
/// pike with a front rank of musketeers; ROADS: column or file of musketeers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Formation {
    Line,
    /// Foot six deep; a forlorn hope or dragoons in file, a few abreast.
    Column,
    /// Closed up, pike three deep: horse cannot charge it.
    Square,
    /// Pike in one rank with a front rank of musketeers before it.
    ShotBeforePike,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    Active,
    Routing,
    /// Routed off the table, destroyed or with no figures left.
    Gone,
}

/// What one hit cost a regiment after saves: rank and file (a limbered gun's team among them),
/// the officers struck and whether the standard fell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Loss {
    pub figures: u16,
    pub officers: u8,
    pub standard: bool,
}

impl Loss {
    /// Its casualties: every figure struck. Officers and the standard are figures a casualty
    /// strikes, so they count as rank and file do, for the end-of-move morale throw and in a
    /// melee's "won" and "fewer casualties" alike.
    pub fn casualties(self) -> u16 {
        self.figures
            .saturating_add(u16::from(self.officers))
            .saturating_add(u16::from(self.standard))
    }
}

/// One regiment in the battle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Regiment {
    pub unit: u16,
    pub side: Side,
    pub command: CommandId,
    pub kind: Kind,
    pub pos: Vec2,
    pub facing: f64,
    /// Its footprint in its present formation.
    pub frontage: f64,
    pub depth: f64,
    /// The radius of its footprint's enclosing circle (`Shape::radius_of` of its frontage and
    /// depth), kept with them by `derive` and `resize` (which `form` calls), the only code that
    /// writes them: the searches ask it of every regiment they pass, and the square root is dear.
    pub radius: f64,
    /// Inches a file and a rank take: the scenario's footprint over its line's files and ranks.
    pub file_width: f64,
    pub rank_depth: f64,
    pub pikemen: u16,
    pub musketeers: u16,
    /// Lobsters, troopers or dragoons.
    pub horsemen: u16,
    pub gunners: u16,
    pub full_crew: u16,
    /// A gun's team, figures while it is limbered: horses and mounted drivers.
    pub horses: u16,
    pub drivers: u16,
    pub officer: bool,
    pub mounted_officer: bool,
    pub standard: bool,
    pub start_figures: u16,
    pub state: State,
    pub gait: Gait,
    /// Foot: line, column or square (other kinds stay in line).
    pub formation: Formation,
    /// Foot that opened their square to horse shooting it down stay in line against horse
    /// while any is near (doctrine: they receive the charge with every musket and the pike).
    pub holds_line: bool,
    /// A gun drawn by its horses (it cannot fire until unlimbered).
    pub limbered: bool,
    /// Share of this move already taken by a change of formation, limbering or unlimbering.
    pub spent: f64,
    /// Disordered through this move.
    pub disordered_until: u16,
    /// No advance through this move (a "stand" result).
    pub halt_until: u16,
    /// Muskets or musketoons loaded.
    pub loaded: bool,
    pub pistols: u8,
    /// Distance moved this move, and its full move.
    pub moved: f64,
    pub full_move: f64,
    pub fired: bool,
    /// The regiments it is in melee with.
    pub engaged: Engaged,
    /// Charged into its present melee (the attacker).
    pub attacker: bool,
    /// Charged home this move: impetus for horse.
    pub impetus: bool,
    /// Moves of melee fought in its present melee (none: pikemen add their first-round bonus).
    pub rounds: u8,
    /// Melee casualty points carried to the next round.
    pub carried: f64,
    /// Figures lost this move, officers and the standard struck included (they are figures:
    /// their loss alone calls for the end-of-move morale throw).
    pub lost_this_move: u16,
    /// Casualties in melee this move ([`Loss::casualties`]: officers and the standard too).
    pub melee_lost: u16,
    pub won_melee: bool,
    pub enemy_withdrew: bool,
    /// Fought a melee this move, and against whom.
    pub fought: bool,
    pub foe: Option<u16>,
    /// The melee it fought in this move: the least index of the regiments joined to it
    /// through pairs in contact (its own index when it fought none).
    pub melee: u16,
    /// The obstacle its last move paid for and ended astride (its front over, its centre not
    /// yet): the next move does not pay it again.
    pub crossing: Option<u16>,
    pub start_points: u16,
    pub reserve: bool,
    /// Off the table until its late arrival (also `Gone` meanwhile, but never lost).
    pub waiting: bool,
    pub gun: GunState,
    pub balls: u8,
    pub powder: u8,
    pub since_fired: u8,
    /// Moves until a damaged wheel is repaired.
    pub wheel: u8,
    /// Ammunition wagons still full (the scenario's `wagons`).
    pub wagons: u8,
}

/// A unit's kind under Dickenson and its figures: pikemen, musketeers and horsemen.
fn troops(u: &Unit, rules: &DickensonRules) -> (Kind, u16, u16, u16) {
    let b = &rules.battle;
    let figures =
        crate::rules::black_powder::units::figures(men_of(u, rules), rules.regiment.figure_scale)
            .min(u32::from(u8::MAX)) as u16;
    match u.kind {
        UnitKind::Foot(balance) => {
            let share = match balance {
                FootBalance::Normal => b.pike_share.normal,
                FootBalance::PikeHeavy => b.pike_share.pike_heavy,
                FootBalance::ShotHeavy => b.pike_share.shot_heavy,
            };
            let pike = (f64::from(figures) * share).round() as u16;
            (Kind::Foot, pike, figures - pike, 0)
        }
        UnitKind::ForlornHope => (Kind::ForlornHope, 0, figures, 0),
        UnitKind::Dragoons => (Kind::Dragoons, 0, 0, figures),
        UnitKind::Horse(HorseKind::Cuirassiers) => (Kind::Horse(Figure::Lobster), 0, 0, figures),
        UnitKind::Horse(_) => (Kind::Horse(Figure::Trooper), 0, 0, figures),
        UnitKind::Artillery(w) => {
            let c = &b.calibre;
            let calibre = match w {
                GunWeight::VeryLight => c.very_light,
                GunWeight::Light => c.light,
                GunWeight::Medium => c.medium,
                GunWeight::Heavy => c.heavy,
            };
            (Kind::Gun(calibre), 0, 0, 0)
        }
    }
}

/// A gun's crew on foot, its team's horses and mounted drivers, and its balls and powder
/// (all 0 for a regiment that is no gun).
fn gun_team(kind: Kind, rules: &DickensonRules) -> (u16, u16, u16, u8, u8) {
    match kind {
        Kind::Gun(c) => {
            let g = c.gun(rules);
            let team = (u16::from(g.horses), u16::from(g.crew_mounted));
            (u16::from(g.crew_foot), team.0, team.1, g.balls, g.powder)
        }
        _ => (0, 0, 0, 0, 0),
    }
}

impl Regiment {
    /// A scenario unit as Dickenson fights it.
    pub fn derive(u: &Unit, rules: &DickensonRules) -> Regiment {
        let (kind, pikemen, musketeers, horsemen) = troops(u, rules);
        let (gunners, horses, drivers, balls, powder) = gun_team(kind, rules);
        let mut reg = Regiment {
            unit: u.id,
            side: u.side,
            command: u.command,
            kind,
            pos: u.pos,
            facing: u.facing,
            frontage: u.frontage,
            depth: u.depth,
            radius: Shape::radius_of(u.frontage, u.depth),
            file_width: 0.0,
            rank_depth: 0.0,
            pikemen,
            musketeers,
            horsemen,
            gunners,
            full_crew: gunners,
            horses,
            drivers,
            officer: true,
            mounted_officer: kind == Kind::Foot,
            standard: !matches!(kind, Kind::ForlornHope | Kind::Gun(_)),
            start_figures: pikemen + musketeers + horsemen + gunners,
            state: State::Active,
            gait: Gait::Halt,
            formation: Formation::Line,
            holds_line: false,
            limbered: matches!(kind, Kind::Gun(_)) && u.formation == Order::Limbered,
            spent: 0.0,
            disordered_until: 0,
            halt_until: 0,
            loaded: true,
            pistols: rules.volley.pistols_each,
            moved: 0.0,
            full_move: 0.0,
            fired: false,
            engaged: Engaged::default(),
            attacker: false,
            impetus: false,
            rounds: 0,
            carried: 0.0,
            lost_this_move: 0,
            melee_lost: 0,
            won_melee: false,
            enemy_withdrew: false,
            fought: false,
            melee: 0,
            foe: None,
            crossing: None,
            start_points: 0,
            reserve: false,
            waiting: false,
            gun: GunState::Sound,
            balls,
            powder,
            since_fired: u8::MAX,
            wheel: 0,
            wagons: if matches!(kind, Kind::Gun(_)) {
                u.wagons
            } else {
                0
            },
        };
        reg.start_points = reg.points(rules).min(u32::from(u16::MAX)) as u16;
        reg.draw_as_set(u, rules);
        reg
    }

    /// Draws the regiment as the scenario sets it: the scenario draws the line, whose files
    /// and ranks set the figures' spacing, then the regiment takes its starting formation.
    fn draw_as_set(&mut self, u: &Unit, rules: &DickensonRules) {
        let (files, ranks) = self.files_and_ranks(Formation::Line, rules);
        self.file_width = u.frontage / f64::from(files);
        self.rank_depth = u.depth / f64::from(ranks);
        let start = match u.formation {
            Order::MarchColumn => Formation::Column,
            Order::Hedgehog => Formation::Square,
            _ => Formation::Line,
        };
        if start != Formation::Line && self.can_form(start, rules) {
            self.form(start, rules);
        }
    }

    /// Takes formation `f`, drawn on its centre with the footprint of its figures in it.
    pub fn form(&mut self, f: Formation, rules: &DickensonRules) {
        self.formation = f;
        let (frontage, depth) = self.footprint(f, rules);
        self.resize(frontage, depth);
    }

    /// Takes a footprint of `frontage` by `depth`, keeping its enclosing radius in step: every
    /// search bounds its gaps by that radius, so a footprint set without it would be missed.
    pub fn resize(&mut self, frontage: f64, depth: f64) {
        (self.frontage, self.depth) = (frontage, depth);
        self.radius = Shape::radius_of(frontage, depth);
    }

    /// Its footprint were it at `pos` facing along `fwd` (a unit vector).
    #[inline]
    pub fn shape_at(&self, pos: Vec2, fwd: Vec2) -> Shape {
        Shape::sized(pos, fwd, self.frontage, self.depth, self.radius)
    }

    /// Frontage and depth of its figures in formation `f` (ruling): files and ranks at its
    /// spacing; a square closes its files and ranks into a square on the same ground. Horse
    /// and guns keep the scenario's footprint.
    pub fn footprint(&self, f: Formation, rules: &DickensonRules) -> (f64, f64) {
        if self.file_width <= 0.0
            || !matches!(self.kind, Kind::Foot | Kind::ForlornHope | Kind::Dragoons)
        {
            return (self.frontage, self.depth);
        }
        let (files, ranks) = self.files_and_ranks(f, rules);
        let (w, d) = (
            f64::from(files) * self.file_width,
            f64::from(ranks) * self.rank_depth,
        );
        if f == Formation::Square {
            let side = (w * d).sqrt();
            (side, side)
        } else {
            (w, d)
        }
    }

    /// Files and ranks of its figures in formation `f` (at least one of each): foot bodies
    /// side by side, but the shot before the pike one behind the other; a forlorn hope or
    /// dragoons in their ranks (in column a file `file_abreast` wide).
    fn files_and_ranks(&self, f: Formation, rules: &DickensonRules) -> (u16, u16) {
        let (files, ranks) = match self.kind {
            Kind::Foot => {
                let body = |n: u16, figure: Figure| {
                    if n == 0 {
                        (0, 0)
                    } else {
                        let k = self.ranks_in(f, figure, rules);
                        (n.div_ceil(k), k)
                    }
                };
                let (pf, pr) = body(self.pikemen, Figure::Pikeman);
                let (mf, mr) = body(self.musketeers, Figure::Musketeer);
                if f == Formation::ShotBeforePike {
                    (pf.max(mf), pr + mr)
                } else {
                    (pf + mf, pr.max(mr))
                }
            }
            _ => {
                let ranks = self.ranks_in(f, self.main_figure(), rules).max(1);
                (self.figures().div_ceil(ranks), ranks)
            }
        };
        (files.max(1), ranks.max(1))
    }

    /// Rank-and-file figures left (a gun's gunners).
    pub fn figures(&self) -> u16 {
        self.pikemen + self.musketeers + self.horsemen + self.gunners
    }

    /// Figures as the statistics' CV.
    pub fn figures_u8(&self) -> u8 {
        self.figures().min(u16::from(u8::MAX)) as u8
    }

    /// Morale points from what is left.
    pub fn points(&self, rules: &DickensonRules) -> u32 {
        match self.kind {
            Kind::Foot | Kind::ForlornHope => morale::foot_points(
                &FootLeft {
                    pikemen: u32::from(self.pikemen),
                    musketeers: u32::from(self.musketeers),
                    officer: self.officer,
                    standard: self.standard,
                    mounted_officer: self.mounted_officer,
                },
                rules,
            ),
            Kind::Horse(_) | Kind::Dragoons => morale::horse_points(
                &HorseLeft {
                    troopers: u32::from(self.horsemen),
                    officer: self.officer,
                    standard: self.standard,
                },
                rules,
            ),
            Kind::Gun(_) => morale::gun_points(
                &GunLeft {
                    crew: u32::from(self.gunners),
                    full_crew: u32::from(self.full_crew),
                    officer: self.officer,
                    gun: self.gun,
                    ammunition: (self.balls > 0 && self.powder > 0) || self.wagons > 0,
                },
                rules,
            ),
        }
    }

    /// The kind of figure most of it is (casualty points turn into these; saves are theirs).
    pub fn main_figure(&self) -> Figure {
        match self.kind {
            Kind::Foot if self.pikemen > self.musketeers => Figure::Pikeman,
            Kind::Foot | Kind::ForlornHope => Figure::Musketeer,
            Kind::Horse(f) => f,
            Kind::Dragoons => Figure::Dragoon,
            Kind::Gun(_) => Figure::Gunner,
        }
    }

    pub fn is_horse(&self) -> bool {
        matches!(self.kind, Kind::Horse(_) | Kind::Dragoons)
    }

    pub fn is_gun(&self) -> bool {
        matches!(self.kind, Kind::Gun(_))
    }

    /// The ranks a foot regiment's bodies stand in, in formation `f`.
    fn formation_ranks(f: Formation, rules: &DickensonRules) -> BodyRanks {
        let r = &rules.formations.ranks;
        match f {
            Formation::Line => r.line,
            Formation::Column => r.column,
            Formation::Square => r.square,
            Formation::ShotBeforePike => r.shot_before_pike,
        }
    }

    /// The ranks of its body of `figure`s: a foot regiment's by its formation, as deep as its
    /// figures fill (at least one while any are left); other kinds by the rules' depth.
    pub fn ranks(&self, figure: Figure, rules: &DickensonRules) -> u16 {
        self.ranks_in(self.formation, figure, rules)
    }

    fn ranks_in(&self, f: Formation, figure: Figure, rules: &DickensonRules) -> u16 {
        let b = &rules.battle;
        match self.kind {
            Kind::Foot => {
                let k = Self::formation_ranks(f, rules);
                let (n, most) = match figure {
                    Figure::Pikeman => (self.pikemen, k.pikemen),
                    _ => (self.musketeers, k.musketeers),
                };
                let filled = n / u16::from(rules.formations.per_rank_at_least.max(1));
                filled.clamp(1, u16::from(most.max(1)))
            }
            // A file of musketeers (or of dragoons): `file_abreast` a rank.
            Kind::ForlornHope | Kind::Dragoons if f == Formation::Column => self
                .figures()
                .div_ceil(u16::from(rules.formations.file_abreast.max(1)))
                .max(1),
            Kind::ForlornHope => u16::from(b.forlorn_hope_ranks),
            Kind::Horse(_) | Kind::Dragoons => u16::from(b.horse_ranks),
            Kind::Gun(_) => 1,
        }
    }

    /// Counts a hit's casualties as lost this move: officers or the standard struck alone
    /// call for the end-of-move morale throw.
    pub fn lose_this_move(&mut self, loss: Loss) {
        self.lost_this_move = self.lost_this_move.saturating_add(loss.casualties());
    }

    /// Ranks of its pikemen (0 without any): what the formation throws go by.
    pub fn pike_ranks(&self, rules: &DickensonRules) -> u16 {
        if self.kind == Kind::Foot && self.pikemen > 0 {
            self.ranks(Figure::Pikeman, rules)
        } else {
            0
        }
    }

    /// Pike deep enough that horse cannot charge it (seed: three or more ranks).
    pub fn uncharged_by_horse(&self, rules: &DickensonRules) -> bool {
        self.pike_ranks(rules) >= u16::from(rules.formations.pike_uncharged_ranks)
    }

    /// Whether it throws first when charged by horse (seed, FORMATIONS): pike in one rank;
    /// musketeers with no pike (two ranks, or one at the forlorn hope's deduction); gunners.
    /// Pike in two ranks do not (the horse throw).
    pub fn throws_against_horse(&self, rules: &DickensonRules) -> bool {
        match self.kind {
            Kind::ForlornHope | Kind::Gun(_) => true,
            Kind::Foot => self.pike_ranks(rules) <= 1,
            _ => false,
        }
    }

    /// The deduction on its throw first against horse: musketeers in one rank throw at the
    /// forlorn hope's (ruling: its rules are missing).
    pub fn against_horse_deduction(&self, rules: &DickensonRules) -> i8 {
        let forlorn = match self.kind {
            Kind::ForlornHope => true,
            Kind::Foot => self.pikemen == 0 && self.ranks(Figure::Musketeer, rules) <= 1,
            _ => false,
        };
        if forlorn {
            rules.morale.forlorn_hope
        } else {
            0
        }
    }

    /// Whether it can stand in formation `f`: line is anyone's; column any foot regiment's,
    /// a forlorn hope's or dragoons' (seed, ROADS: "file of musketeers"); a square needs
    /// pikemen enough to stand deep enough that horse cannot charge them; the shot before the
    /// pike needs pikemen and musketeers enough to line their rank.
    pub fn can_form(&self, f: Formation, rules: &DickensonRules) -> bool {
        match f {
            Formation::Line => true,
            Formation::Column => {
                matches!(self.kind, Kind::Foot | Kind::ForlornHope | Kind::Dragoons)
            }
            Formation::ShotBeforePike => {
                self.kind == Kind::Foot && self.pikemen > 0 && self.musketeers >= self.pikemen
            }
            Formation::Square => {
                self.kind == Kind::Foot
                    && self.pikemen > 0
                    && self.ranks_in(f, Figure::Pikeman, rules)
                        >= u16::from(rules.formations.pike_uncharged_ranks)
            }
        }
    }

    /// Of `n` figures of its body of `figure`s, those in the front rank.
    pub fn front_rank(&self, figure: Figure, n: u16, rules: &DickensonRules) -> u16 {
        n.div_ceil(self.ranks(figure, rules).max(1))
    }

    /// Whether it stands all round, with no flank or rear (ruling): a square, unless the rules
    /// have squares face one way like a line.
    pub fn all_round(&self, rules: &DickensonRules) -> bool {
        self.formation == Formation::Square && rules.formations.square.all_round
    }

    /// The share of its figures on the face toward a point lying `ahead` inches before its
    /// centre and `aside` to its right (ruling): all of them unless it stands all round; else
    /// the face's length over its footprint's perimeter (a quarter for a square). The face is
    /// the one the point lies beyond, split by the footprint's diagonals.
    pub fn face_share(&self, ahead: f64, aside: f64, rules: &DickensonRules) -> f64 {
        let (w, d) = (self.frontage, self.depth);
        if !self.all_round(rules) || w + d <= 0.0 {
            return 1.0;
        }
        let face = if self.face_of(ahead, aside, rules).is_multiple_of(2) {
            w
        } else {
            d
        };
        face / (2.0 * (w + d))
    }

    /// Which face a point lies beyond, as in [`Regiment::face_share`]: 0 front, 1 right, 2 rear,
    /// 3 left; always 0 (its one face) unless it stands all round.
    pub fn face_of(&self, ahead: f64, aside: f64, rules: &DickensonRules) -> u8 {
        let (w, d) = (self.frontage, self.depth);
        if !self.all_round(rules) || w + d <= 0.0 {
            return 0;
        }
        match (
            ahead.abs() * w >= aside.abs() * d,
            ahead >= 0.0,
            aside >= 0.0,
        ) {
            (true, true, _) => 0,
            (true, false, _) => 2,
            (false, _, true) => 1,
            (false, _, false) => 3,
        }
    }

    /// Of `n` figures of a body, those on a face holding `share` of the regiment (rounded up,
    /// so a body with any figures left has some on every face).
    pub fn on_face(n: u16, share: f64) -> u16 {
        if share >= 1.0 {
            return n;
        }
        ((f64::from(n) * share - 1e-9).ceil().max(0.0) as u16).min(n)
    }

    /// The men who fire its small arm (foot's musketeers, else its horsemen) on a face holding
    /// `share` of the regiment.
    pub fn firers(&self, share: f64) -> u16 {
        let men = match self.kind {
            Kind::Foot | Kind::ForlornHope => self.musketeers,
            _ => self.horsemen,
        };
        Self::on_face(men, share)
    }

    /// Who strikes in a melee round, body by body: every figure, or only the front rank in the
    /// first round of a move (gunners fight all together).
    pub fn fighting(&self, first: bool, rules: &DickensonRules) -> [(Figure, u16); 2] {
        self.fighting_on(first, 1.0, rules)
    }

    /// Who strikes in a melee round from a face holding `share` of the regiment: that face's
    /// figures of each body (its front rank in the first round of a move), standing in the
    /// regiment's ranks.
    pub fn fighting_on(
        &self,
        first: bool,
        share: f64,
        rules: &DickensonRules,
    ) -> [(Figure, u16); 2] {
        let rank = |f: Figure, n: u16| {
            let n = Self::on_face(n, share);
            if first {
                self.front_rank(f, n, rules)
            } else {
                n
            }
        };
        match self.kind {
            Kind::Foot | Kind::ForlornHope => [
                (Figure::Pikeman, rank(Figure::Pikeman, self.pikemen)),
                (Figure::Musketeer, rank(Figure::Musketeer, self.musketeers)),
            ],
            Kind::Horse(f) => [(f, rank(f, self.horsemen)), (f, 0)],
            Kind::Dragoons => [
                (Figure::Dragoon, rank(Figure::Dragoon, self.horsemen)),
                (Figure::Dragoon, 0),
            ],
            Kind::Gun(_) => [(Figure::Gunner, self.gunners), (Figure::Gunner, 0)],
        }
    }

    /// Its small arm, if it has one.
    pub fn arm(&self) -> Option<Arm> {
        match self.kind {
            Kind::Foot | Kind::ForlornHope => Some(Arm::Musket),
            Kind::Dragoons => Some(Arm::Musketoon),
            Kind::Horse(_) => Some(Arm::Pistol),
            Kind::Gun(_) => None,
        }
    }

    /// Its small arms' long range (0 for a gun: it has none).
    pub fn long_range(&self, rules: &DickensonRules) -> f64 {
        self.arm().map_or(0.0, |a| a.weapon(rules).long)
    }

    /// Its move at a gait (horse), in its formation (foot: the pikemen's, the slowest;
    /// musketeers form no square, so theirs is their line's), or drawn by horses (a limbered
    /// gun; a sited one moves only by its crew's pull).
    pub fn move_at(&self, gait: Gait, rules: &DickensonRules) -> f64 {
        let m = &rules.movement;
        let foot = |f: &crate::rules::dickenson::tables::FootMoves| match self.formation {
            Formation::Line | Formation::ShotBeforePike => f.line,
            Formation::Column => f.column,
            Formation::Square => f.square.unwrap_or(f.line),
        };
        let horse = match self.kind {
            Kind::Foot if self.pikemen > 0 => return foot(&m.pikemen),
            Kind::Foot | Kind::ForlornHope => return foot(&m.musketeers),
            Kind::Gun(c) if self.limbered => {
                return c.gun(rules).drawn_move * self.team_share(rules);
            }
            Kind::Gun(_) => return 0.0,
            Kind::Horse(Figure::Lobster) => m.lobsters,
            Kind::Horse(_) => m.troopers,
            Kind::Dragoons => m.dragoons,
        };
        match gait {
            Gait::Halt => 0.0,
            Gait::Trot => horse.trot,
            Gait::Canter => horse.canter,
            Gait::Gallop => horse.gallop,
        }
    }

    /// How far its charge would reach next move: its next gait's move at the ruling's share
    /// (`battle.charge_range_share`), whatever the ground.
    pub fn charge_reach(&self, rules: &DickensonRules) -> f64 {
        self.move_at(self.next_gait(rules), rules) * rules.battle.charge_range_share
    }

    /// Its move for a charge or an advance (horse its gait up by the ruleset's steps, `Gait::up`)
    /// and for a rout (full gait).
    pub fn next_gait(&self, rules: &DickensonRules) -> Gait {
        if self.is_horse() {
            self.gait.up(&rules.movement.gait)
        } else {
            Gait::Trot
        }
    }

    /// Its gun team's figures with the gun: horses and drivers while limbered (sited, they
    /// stand behind it with the limber: `Battle::sited_team`).
    pub fn team(&self) -> u16 {
        if self.limbered {
            self.horses + self.drivers
        } else {
            0
        }
    }

    /// The share of its drawn move a gun's team still gives (ruling): horses left of the full
    /// team, none without the drivers it needs.
    pub fn team_share(&self, rules: &DickensonRules) -> f64 {
        let Kind::Gun(c) = self.kind else {
            return 0.0;
        };
        let full = c.gun(rules).horses;
        if self.drivers < u16::from(rules.gun_team.drivers_needed) || full == 0 {
            return 0.0;
        }
        f64::from(self.horses.min(u16::from(full))) / f64::from(full)
    }

    pub fn disordered(&self, turn: u16) -> bool {
        self.disordered_until >= turn
    }
}

/// The men a unit stands for: its own count, or the rules' number for its kind and size.
pub fn men_of(u: &Unit, rules: &DickensonRules) -> u32 {
    if let Some(m) = u.men {
        return m;
    }
    let b = &rules.battle;
    let base = match u.kind {
        UnitKind::Foot(_) => b.men.foot,
        UnitKind::ForlornHope => b.men.forlorn_hope,
        UnitKind::Dragoons => b.men.dragoons,
        UnitKind::Horse(_) => b.men.horse,
        UnitKind::Artillery(_) => 0,
    };
    let f = &b.size_factor;
    let factor = match u.size {
        SizeClass::VeryLarge => f.very_large,
        SizeClass::Large => f.large,
        SizeClass::Normal => f.normal,
        SizeClass::Small => f.small,
        SizeClass::ReallySmall => f.really_small,
    };
    (f64::from(base) * factor).round() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed: trot to canter or canter to gallop in a move, and no gallop from the halt; the
    /// ruleset's `movement.gait` sets how many steps a move may go up.
    #[test]
    fn a_gait_goes_up_the_ruleset_steps_and_never_gallops_from_the_halt() {
        use crate::rules::dickenson::tables::Gait as Steps;
        let steps = |n, from_halt| Steps {
            steps_per_move: n,
            gallop_from_halt: from_halt,
        };
        let one = steps(1, false);
        assert_eq!(Gait::Halt.up(&one), Gait::Trot);
        assert_eq!(Gait::Trot.up(&one), Gait::Canter);
        assert_eq!(Gait::Canter.up(&one), Gait::Gallop);
        assert_eq!(Gait::Gallop.up(&one), Gait::Gallop);
        let two = steps(2, false);
        assert_eq!(Gait::Halt.up(&two), Gait::Canter);
        assert_eq!(Gait::Trot.up(&two), Gait::Gallop);
        assert_eq!(Gait::Halt.up(&steps(3, false)), Gait::Canter);
        assert_eq!(Gait::Halt.up(&steps(3, true)), Gait::Gallop);
        assert_eq!(Gait::Halt.up(&steps(1, true)), Gait::Trot);
    }

    /// The text's regiment of foot: 720 men.
    fn regiment_of_foot() -> Unit {
        let mut foot = Unit::new(
            0,
            Side::Parliament,
            0,
            UnitKind::Foot(FootBalance::Normal),
            4,
        );
        foot.men = Some(720);
        foot
    }

    #[test]
    fn the_kept_radius_follows_every_change_of_formation() {
        let r = DickensonRules::builtin();
        let mut reg = Regiment::derive(&regiment_of_foot(), &r);
        let kept = |reg: &Regiment| reg.radius.to_bits();
        let worked = |reg: &Regiment| Shape::radius_of(reg.frontage, reg.depth).to_bits();
        assert_eq!(kept(&reg), worked(&reg));
        let line = reg.radius;
        for f in [
            Formation::Column,
            Formation::Square,
            Formation::ShotBeforePike,
            Formation::Line,
        ] {
            reg.form(f, &r);
            assert_eq!(kept(&reg), worked(&reg), "{f:?}");
            if f == Formation::Column {
                // Six deep is not the line's footprint: the radius had to change.
                assert_ne!(reg.radius, line);
            }
        }
        let at = Vec2::new(3.0, 4.0);
        let fwd = Vec2::from_facing(0.5);
        let made = Shape::new(at, fwd, reg.frontage, reg.depth);
        assert_eq!(reg.shape_at(at, fwd), made);
    }

    #[test]
    fn units_become_figures_by_the_scale() {
        let r = DickensonRules::builtin();
        let f = Regiment::derive(&regiment_of_foot(), &r);
        // 720 men at 1:20 are the text's regiment: 18 pike, 18 shot, 10 points.
        assert_eq!((f.pikemen, f.musketeers, f.points(&r)), (18, 18, 10));
        let mut lob = Unit::new(
            1,
            Side::Royalist,
            0,
            UnitKind::Horse(HorseKind::Cuirassiers),
            4,
        );
        lob.men = Some(240);
        let l = Regiment::derive(&lob, &r);
        assert_eq!(
            (l.kind, l.horsemen, l.points(&r)),
            (Kind::Horse(Figure::Lobster), 12, 9)
        );
        let gun = Unit::new(
            2,
            Side::Royalist,
            0,
            UnitKind::Artillery(GunWeight::Medium),
            4,
        );
        let g = Regiment::derive(&gun, &r);
        assert_eq!(
            (g.kind, g.gunners, g.points(&r)),
            (Kind::Gun(Calibre::Saker), 5, 10)
        );
        // No men given: the rules' number for the kind and size.
        let mut big = Unit::new(
            3,
            Side::Royalist,
            0,
            UnitKind::Foot(FootBalance::PikeHeavy),
            4,
        );
        big.size = SizeClass::Large;
        let b = Regiment::derive(&big, &r);
        assert_eq!((b.pikemen, b.musketeers), (36, 18));
    }
}

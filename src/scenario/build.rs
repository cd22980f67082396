//! From a scenario file to a [`BattleSetup`]: every check serde cannot make, each problem kept
//! (with its key path and line) so the user sees them all at once.

use crate::rules::{RuleData, RulesetChanges};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::de::DeTable;

use crate::army::{
    Command, CommandKind, Commander, CommanderId, CommanderRating, Formation, Side, SizeClass,
    Unit, UnitId, UnitKind,
};
use crate::battlefield::geometry::{Shape, overlapping_pairs};
use crate::battlefield::{Area, Camp, Ground, LinearObstacle, ObstacleKind, Rect, Vec2};
use crate::doctrine::DoctrineParams;
use crate::error::{Error, Location, line_col};
use crate::rules::ironsides::IronsidesRules;
use crate::setup::{
    Arrival, ArrivalTime, BattleSetup, CommanderSource, Names, RatingSource, Reserve, ReserveUntil,
};

use super::Scenario;
use super::ratings::table_rating;
use super::schema::{
    AreaSpec, ArrivesSpec, CampSpec, CommandSpec, CommanderSpec, CommanderTable, Cover,
    ObstacleSpec, PlaceSpec, RatingKind, ReserveSpec, SideSpec, UnitSpec,
};
use super::tree::{did_you_mean, span_of};

/// How far behind his army's centre the Captain-General starts.
const CAPTAIN_GENERAL_BEHIND: f64 = 6.0;
/// Default distance of a second line behind the first (the brief's and the doctrines' 6").
const SECOND_LINE_BEHIND: f64 = 6.0;
/// The most problems one check of a scenario lists: a scenario with thousands of bad units is
/// told the first, not kept waiting while each is located in its file.
const ERRORS_LISTED: usize = 100;

/// The most overlapping pairs of units one check lists (a pile of units on one spot would
/// otherwise list every pair of them).
const OVERLAPS_LISTED: usize = 20;

/// Units may touch but not overlap by more than this (inches): lines packed edge to edge are fine.
const OVERLAP_TOLERANCE: f64 = 0.01;

/// What the order of battle shows beyond the set-up.
#[derive(Debug, Clone)]
pub(super) struct UnitNote {
    pub men: Option<u32>,
    /// Where the rating came from ("randomised, royalist 1644 horse").
    pub rating: String,
}

pub(super) struct Built {
    pub setup: BattleSetup,
    /// One per unit, by id.
    pub notes: Vec<UnitNote>,
    /// One per commander, by id: the scenario's word for him ("named", "average", "rolled", "fixed").
    pub commander_notes: Vec<String>,
    pub doctrine_names: Vec<String>,
}

pub(super) fn build(sc: &Scenario) -> Result<Built, Vec<Error>> {
    let tree = DeTable::parse(&sc.text).ok();
    let mut b = Builder::new(sc, tree.as_ref().map(|t| t.get_ref()));
    let Some(rules) = b.ruleset() else {
        return Err(b.listed_errors());
    };
    let ground = b.ground(&rules);
    let f = &sc.file;
    let turn_limit = b.turn_limit(&rules);
    let break_fraction = b.break_fraction(&rules);
    for side in Side::BOTH {
        b.side(&rules, side, &ground);
    }
    b.check_positions(&ground);
    let arrivals = b.arrivals(&ground, turn_limit);
    let ruleset_changes = b.ruleset_changes();
    if !b.errors.is_empty() {
        return Err(b.listed_errors());
    }
    let setup = BattleSetup {
        name: sc.name(),
        rules: Arc::new(rules),
        ruleset_changes,
        ground,
        turn_limit,
        scenario_turn_limit: f.turn_limit.map(|_| turn_limit),
        break_fraction,
        units: b.units,
        ratings: b.ratings,
        commanders: b.commanders,
        commander_sources: b.commander_sources,
        commands: b.commands,
        captain_generals: b.captain_generals,
        names: b.names,
        doctrines: b.doctrines,
        cg_doctrine: b.cg_doctrine,
        arrivals,
        reserves: b.reserves,
    };
    Ok(Built {
        setup,
        notes: b.notes,
        commander_notes: b.commander_notes,
        doctrine_names: b.doctrine_names,
    })
}

/// The documented ranges of the scenario's numbers (docs/SCENARIOS.md, "Limits"): far beyond
/// any real battle, and small enough that no arithmetic on them overflows or loses meaning.
const MAX_INCHES: f64 = 1000.0;
const COORDINATE: Limit = Limit(-MAX_INCHES, MAX_INCHES, false);
const FACING: Limit = Limit(-360.0, 360.0, false);
const BEHIND: Limit = Limit(0.0, MAX_INCHES, false);
const RADIUS: Limit = Limit(0.0, MAX_INCHES, true);
const SEVERITY: Limit = Limit(0.0, 100.0, false);
/// A Black Powder commander's `staff_rating`: what two dice can total.
const STAFF_RATINGS: std::ops::RangeInclusive<u8> = 2..=12;
/// The most units a scenario may have: a battle of 2,000 takes about 50 ms
/// (docs/PERFORMANCE.md), and unit ids must fit their 16 bits.
pub const MAX_UNITS: usize = 5000;
/// A commander's leadership modifier lies within -6..=6, his rerolls within 0..=6 (a die's
/// faces: beyond them nothing changes).
const COMMANDER_DICE: i64 = 6;

/// A number's range: lowest, highest, and whether the lowest itself is excluded.
#[derive(Debug, Clone, Copy)]
struct Limit(f64, f64, bool);

/// A commander as the scenario's words give him: name, rating, where the rating comes from,
/// and the order of battle's note on it.
struct Reading {
    name: String,
    rating: CommanderRating,
    source: CommanderSource,
    note: String,
}

/// The ruleset's average commander, with a Captain-General's or a subordinate's radius.
fn average_commander(rules: &IronsidesRules, captain_general: bool) -> CommanderRating {
    let avg = &rules.average_commander;
    CommanderRating {
        lp_modifier: avg.lp_modifier,
        radius: if captain_general {
            avg.captain_general_radius
        } else {
            avg.subordinate_radius
        },
        rerolls: avg.rerolls,
        enemy_rerolls: 0,
    }
}

/// Whose army a piece of the scenario belongs to: the rules, the side and the side's words.
#[derive(Clone, Copy)]
struct InArmy<'a> {
    rules: &'a IronsidesRules,
    side: Side,
    spec: &'a SideSpec,
}

/// A unit with its place on the table, before it is checked.
struct Placed<'a> {
    path: String,
    spec: &'a UnitSpec,
    pos: Vec2,
    /// Radians.
    facing: f64,
}

struct Builder<'a> {
    sc: &'a Scenario,
    tree: Option<&'a DeTable<'a>>,
    errors: Vec<Error>,
    /// Whether problems beyond the first `ERRORS_LISTED` were left unlisted.
    errors_beyond: bool,
    units: Vec<Unit>,
    ratings: Vec<RatingSource>,
    notes: Vec<UnitNote>,
    unit_paths: Vec<String>,
    commanders: Vec<Commander>,
    commander_sources: Vec<CommanderSource>,
    commander_notes: Vec<String>,
    commands: Vec<Command>,
    names: Names,
    doctrines: Vec<DoctrineParams>,
    doctrine_names: Vec<String>,
    captain_generals: [Option<CommanderId>; 2],
    cg_doctrine: [u16; 2],
    /// Each side's generals named in the file, with the key that named each first.
    generals_named: HashMap<(Side, String), String>,
    /// Units refused for passing [`MAX_UNITS`] (reported once).
    beyond_limit: usize,
    /// Late arrivals as written, placed once every unit is built.
    arriving: Vec<Arriving>,
    reserves: Vec<Reserve>,
}

/// An `arrives` table with what it brings on.
struct Arriving {
    /// Its key path (`royalist.commands.reserve.arrives`).
    key: String,
    spec: ArrivesSpec,
    units: Vec<UnitId>,
    general: Option<CommanderId>,
    stream: u64,
}

/// Units with their own `arrives` take streams past any command's.
const UNIT_ARRIVAL_STREAMS: u64 = 1 << 20;
/// How far inside the table edge arriving units stand (inches).
const EDGE_MARGIN: f64 = 0.5;

impl<'a> Builder<'a> {
    /// A builder of scenario `sc` (its parsed text `tree`, to name lines), holding nothing yet.
    fn new(sc: &'a Scenario, tree: Option<&'a DeTable<'a>>) -> Builder<'a> {
        Builder {
            sc,
            tree,
            errors: Vec::new(),
            units: Vec::new(),
            ratings: Vec::new(),
            notes: Vec::new(),
            unit_paths: Vec::new(),
            commanders: Vec::new(),
            commander_sources: Vec::new(),
            commander_notes: Vec::new(),
            commands: Vec::new(),
            names: Names::default(),
            doctrines: Vec::new(),
            doctrine_names: Vec::new(),
            captain_generals: [None, None],
            cg_doctrine: [0, 0],
            generals_named: HashMap::new(),
            beyond_limit: 0,
            errors_beyond: false,
            arriving: Vec::new(),
            reserves: Vec::new(),
        }
    }

    /// The scenario's turn limit, or the ruleset's default (a limit out of 1 to 1000 refused).
    fn turn_limit(&mut self, rules: &IronsidesRules) -> u16 {
        match self.sc.file.turn_limit {
            None => rules.scale.default_turn_limit,
            Some(t) if (1..=1000).contains(&t) => t as u16,
            Some(t) => {
                self.err(
                    "turn_limit",
                    format!("must be from 1 to 1000 turns, got {t}"),
                );
                rules.scale.default_turn_limit
            }
        }
    }

    /// The share of its CV an army breaks at, or the ruleset's default (refused unless above
    /// 0 and at most 1).
    fn break_fraction(&mut self, rules: &IronsidesRules) -> f64 {
        match self.sc.file.break_fraction {
            None => rules.scale.default_break_fraction,
            Some(x) if x > 0.0 && x <= 1.0 => x,
            Some(x) => {
                self.err(
                    "break_fraction",
                    format!("must be above 0 and at most 1 (a share of the army's CV), got {x}"),
                );
                rules.scale.default_break_fraction
            }
        }
    }
}

impl Builder<'_> {
    /// Checks a number lies in its documented range (docs/SCENARIOS.md, "Limits"); records an
    /// error at `key` if not.
    fn in_range(&mut self, key: &str, v: f64, Limit(lo, hi, open): Limit, unit: &str) -> bool {
        let ok = v.is_finite() && v >= lo && v <= hi && !(open && v == lo);
        if !ok {
            let shown = crate::error::number(v);
            let from = if open { "above" } else { "from" };
            self.err(
                key,
                format!("must be a number {from} {lo} to {hi} {unit}, got {shown}"),
            );
        }
        ok
    }

    /// Records a problem at a dotted key: its line in the file, or the override that set it.
    fn err(&mut self, key: &str, message: impl Into<String>) {
        if self.errors.len() >= ERRORS_LISTED {
            self.errors_beyond = true;
            return;
        }
        let mut message = message.into();
        let (line, column) =
            if let Some(ov) = self.sc.overrides.iter().rev().find(|o| o.covers(key)) {
                message = format!("{message} (set by {ov})");
                (None, None)
            } else {
                match self.tree.and_then(|t| span_of(t, key)) {
                    Some(s) => {
                        let (l, c) = line_col(&self.sc.text, s.start);
                        (Some(l), Some(c))
                    }
                    None => (None, None),
                }
            };
        let e = Error::Input {
            at: Location {
                file: self.sc.path.clone(),
                key: key.to_string(),
                line,
                column,
            },
            message,
        };
        // Many units share a bad year or side: say it once.
        if !self.errors.iter().any(|x| x.to_string() == e.to_string()) {
            self.errors.push(e);
        }
    }

    /// The problems found, and a last word if there were more than could be listed.
    fn listed_errors(mut self) -> Vec<Error> {
        if self.errors_beyond {
            let more = format!(
                "more problems than the {ERRORS_LISTED} listed: mend these and check again"
            );
            self.errors.push(Error::at_key(&self.sc.path, "", "", more));
        }
        self.errors
    }

    /// A file named relative to the scenario's folder (built-in scenarios have none).
    fn relative(&self, name: &str) -> Option<PathBuf> {
        if self.sc.builtin {
            return None;
        }
        let dir = self.sc.path.parent().unwrap_or(Path::new(""));
        Some(dir.join(name))
    }

    /// The scenario's ruleset, with its `[rules]` changes when it has any.
    fn ruleset(&mut self) -> Option<IronsidesRules> {
        let rules = self.base_ruleset()?;
        match &self.sc.file.rules {
            None => Some(rules),
            Some(changes) => self.changed_ruleset(changes),
        }
    }

    /// The ruleset's text with the `[rules]` changes laid over it, read and checked as a ruleset
    /// file; a problem is placed at its `rules.` key (in the file, or the `--set` that made it).
    fn changed_ruleset(&mut self, changes: &toml::Table) -> Option<IronsidesRules> {
        let name = &self.sc.file.ruleset;
        if name != "ironsides" && crate::rules::RULESETS.contains(&name.as_str()) {
            self.err(
                "rules",
                format!(
                    "[rules] changes apply to Ironsides rulesets only; write {name}'s as [{}]",
                    crate::rules::changes_table(name)
                ),
            );
            return None;
        }
        let (label, text) = if name == "ironsides" {
            (
                "ironsides".to_string(),
                crate::rules::ironsides::tables::BUILTIN.to_string(),
            )
        } else {
            let path = self.relative(name)?;
            match crate::io::read_text(&path) {
                Ok(t) => (path.display().to_string(), t),
                Err(e) => {
                    self.errors.push(e);
                    return None;
                }
            }
        };
        self.changed("rules", &label, &text, changes)
    }

    /// The other rulesets' values with the scenario's `[black_powder_rules]` and
    /// `[dickenson_rules]` laid over their built-in files, each checked as its own.
    fn ruleset_changes(&mut self) -> RulesetChanges {
        use crate::rules::{black_powder, dickenson};
        let f = &self.sc.file;
        let (bp, dk) = (f.black_powder_rules.clone(), f.dickenson_rules.clone());
        RulesetChanges {
            black_powder: bp.and_then(|c| {
                let text = black_powder::tables::BUILTIN;
                self.changed("black_powder_rules", "black_powder", text, &c)
                    .map(Arc::new)
            }),
            dickenson: dk.and_then(|c| {
                let text = dickenson::tables::BUILTIN;
                self.changed("dickenson_rules", "dickenson", text, &c)
                    .map(Arc::new)
            }),
        }
    }

    /// A ruleset's text (`text`, named `label`) with `changes` laid over it, read and checked as
    /// that ruleset's file; a problem is placed at its key under `table` (in the file, or the
    /// `--set` that made it).
    fn changed<R: RuleData>(
        &mut self,
        table: &str,
        label: &str,
        text: &str,
        changes: &toml::Table,
    ) -> Option<R> {
        let mut base: toml::Table = toml::from_str(text).expect("the ruleset was read already");
        if let Err((key, message)) = overlay(&mut base, changes, table) {
            self.err(&key, message);
            return None;
        }
        let merged = toml::to_string(&base).expect("a TOML table writes as TOML");
        let file = PathBuf::from(format!("ruleset {label} with the scenario's [{table}]"));
        match R::parse(&file, &merged) {
            Ok(r) => Some(r),
            Err(Error::Input { at, message }) if !at.key.is_empty() => {
                self.err(&format!("{table}.{}", at.key), message);
                None
            }
            Err(e) => {
                self.err(table, e.to_string());
                None
            }
        }
    }

    fn base_ruleset(&mut self) -> Option<IronsidesRules> {
        let name = self.sc.file.ruleset.clone();
        // Every registered ruleset derives its units from the same order of battle, read as
        // for Ironsides.
        if crate::rules::RULESETS.contains(&name.as_str()) {
            return Some(IronsidesRules::builtin());
        }
        match self.relative(&name) {
            Some(path) if path.exists() => match IronsidesRules::load(&path) {
                Ok(r) => Some(r),
                Err(e) => {
                    self.errors.push(e);
                    None
                }
            },
            Some(path) => {
                self.err(
                    "ruleset",
                    format!(
                        "unknown ruleset `{name}`: not \"ironsides\" and no file {}",
                        path.display()
                    ),
                );
                None
            }
            None => {
                self.err(
                    "ruleset",
                    format!(
                        "unknown ruleset `{name}`: a built-in scenario can name only {}",
                        crate::rules::RULESETS.join(", ")
                    ),
                );
                None
            }
        }
    }

    fn ground(&mut self, rules: &IronsidesRules) -> Ground {
        let f = &self.sc.file;
        let mut ground = self.table(rules);
        for (i, a) in f.terrain.areas.iter().enumerate() {
            if let Some(area) = self.area(i, a) {
                ground.areas.push(area);
            }
        }
        for (i, o) in f.terrain.obstacles.iter().enumerate() {
            self.obstacle(i, o, &mut ground.obstacles);
        }
        for (i, c) in f.terrain.camps.iter().enumerate() {
            let camp = self.camp(i, c, &ground);
            ground.camps.push(camp);
        }
        ground
    }

    /// The open table: the scenario's size, else the ruleset's.
    fn table(&mut self, rules: &IronsidesRules) -> Ground {
        let f = &self.sc.file;
        let width = f
            .table
            .as_ref()
            .and_then(|t| t.width)
            .unwrap_or(rules.scale.default_table_width);
        let depth = f
            .table
            .as_ref()
            .and_then(|t| t.depth)
            .unwrap_or(rules.scale.default_table_depth);
        for (key, v) in [("table.width", width), ("table.depth", depth)] {
            if !(v.is_finite() && v > 0.0 && v <= 1000.0) {
                self.err(
                    key,
                    format!("must be a size above 0 and at most 1000 inches, got {v}"),
                );
            }
        }
        Ground::open(width, depth)
    }

    /// Area `i`: a closed polygon of distinct points enclosing some ground, or an error.
    fn area(&mut self, i: usize, a: &AreaSpec) -> Option<Area> {
        let key = format!("terrain.areas.{i}.points");
        let mut pts: Vec<Vec2> = Vec::new();
        for p in &a.points {
            if !(self.in_range(&key, p[0], COORDINATE, "inches")
                && self.in_range(&key, p[1], COORDINATE, "inches"))
            {
                continue;
            }
            let v = Vec2::new(p[0], p[1]);
            if pts.last().is_none_or(|q| q.dist(v) > 1e-9) {
                pts.push(v);
            }
        }
        // A polygon written closed (last point = first) is the same polygon.
        if pts.len() > 1 && pts[0].dist(pts[pts.len() - 1]) <= 1e-9 {
            pts.pop();
        }
        let area: f64 = (0..pts.len())
            .map(|j| pts[j].cross(pts[(j + 1) % pts.len()]))
            .sum::<f64>()
            / 2.0;
        if pts.len() < 3 || area.abs() < 1e-6 {
            self.err(
                &key,
                format!(
                    "a {:?} area must be a closed polygon: at least 3 distinct points enclosing some ground (got {} distinct points, area {:.3} sq in)",
                    a.kind,
                    pts.len(),
                    area.abs()
                )
                .to_lowercase(),
            );
            return None;
        }
        Some(Area {
            kind: a.kind,
            points: pts,
        })
    }

    /// Obstacle `i`: a segment or a line of segments, each added to `obstacles`.
    fn obstacle(&mut self, i: usize, o: &ObstacleSpec, obstacles: &mut Vec<LinearObstacle>) {
        let key = format!("terrain.obstacles.{i}");
        let pts: Vec<[f64; 2]> = match (&o.points, o.from, o.to) {
            (Some(p), None, None) => p.clone(),
            (None, Some(a), Some(b)) => vec![a, b],
            _ => {
                self.err(
                    &key,
                    "give either `from` and `to` (one segment) or `points` (a line of segments)",
                );
                return;
            }
        };
        if pts.len() < 2 {
            self.err(
                &format!("{key}.points"),
                "a linear obstacle needs at least 2 points",
            );
            return;
        }
        let mut fine = true;
        for p in &pts {
            fine &= self.in_range(&format!("{key}.points"), p[0], COORDINATE, "inches")
                && self.in_range(&format!("{key}.points"), p[1], COORDINATE, "inches");
        }
        if !fine {
            return;
        }
        let severity = o.severity.unwrap_or(1.0);
        self.in_range(
            &format!("{key}.severity"),
            severity,
            SEVERITY,
            "(0: impassable)",
        );
        let hard = match o.cover {
            Some(c) => c == Cover::Hard,
            None => matches!(o.kind, ObstacleKind::Wall | ObstacleKind::HighWall),
        };
        for w in pts.windows(2) {
            let (a, b) = (Vec2::new(w[0][0], w[0][1]), Vec2::new(w[1][0], w[1][1]));
            if !(a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite())
                || a.dist(b) < 1e-9
            {
                self.err(&key, "each segment needs two different finite points");
                continue;
            }
            obstacles.push(LinearObstacle {
                kind: o.kind,
                a,
                b,
                severity,
                hard_cover: hard,
            });
        }
    }

    /// Camp `i`, which must stand on the table.
    fn camp(&mut self, i: usize, c: &CampSpec, ground: &Ground) -> Camp {
        let key = format!("terrain.camps.{i}");
        self.in_range(&format!("{key}.radius"), c.radius, RADIUS, "inches");
        let pos = Vec2::new(c.x, c.y);
        if !(pos.x.is_finite() && pos.y.is_finite() && ground.on_table(pos)) {
            self.err(
                &key,
                format!(
                    "camp at ({}, {}) is off the {} x {} table",
                    c.x, c.y, ground.width, ground.depth
                ),
            );
        }
        Camp {
            side: c.side,
            pos,
            radius: c.radius,
            entrenched: c.entrenched,
        }
    }

    fn side(&mut self, rules: &IronsidesRules, side: Side, ground: &Ground) {
        let sc = self.sc;
        let spec = sc.file.side(side);
        let sname = side.name();
        let commands = spec.commands_in_order();
        if commands.is_empty() {
            self.err(
                &format!("{sname}.commands"),
                "an army needs at least one command",
            );
        }
        let first_unit = self.units.len();
        let cg = spec.captain_general.as_ref().map(|c| {
            let default = format!("{} Captain-General", title_case(sname));
            self.commander(
                InArmy { rules, side, spec },
                c,
                true,
                false,
                &format!("{sname}.captain_general"),
                default,
            )
        });
        self.captain_generals[side.index()] = cg;
        self.cg_doctrine[side.index()] = self.doctrine(
            spec.doctrine.as_deref().unwrap_or("cautious"),
            &format!("{sname}.doctrine"),
        );
        let mut seen: HashMap<String, String> = HashMap::new();
        for (key, cmd) in commands {
            self.command(rules, side, spec, key, cmd, &mut seen);
        }
        // The Captain-General watches from behind the middle of his army.
        if let Some(cg) = cg {
            let units = &self.units[first_unit..];
            if !units.is_empty() {
                let n = units.len() as f64;
                let centre = units.iter().fold(Vec2::new(0.0, 0.0), |s, u| s + u.pos) * (1.0 / n);
                let ahead = units
                    .iter()
                    .fold(Vec2::new(0.0, 0.0), |s, u| s + Vec2::from_facing(u.facing));
                let ahead = if ahead.len() < 1e-9 {
                    Vec2::from_facing(default_facing(side))
                } else {
                    ahead.norm()
                };
                let p = centre - ahead * CAPTAIN_GENERAL_BEHIND;
                self.commanders[usize::from(cg)].pos =
                    Vec2::new(p.x.clamp(0.0, ground.width), p.y.clamp(0.0, ground.depth));
            }
        }
    }

    fn command(
        &mut self,
        rules: &IronsidesRules,
        side: Side,
        spec: &SideSpec,
        key: &str,
        cmd: &CommandSpec,
        seen: &mut HashMap<String, String>,
    ) {
        let sname = side.name();
        let cpath = format!("{sname}.commands.{key}");
        let id = self.commands.len() as u16;
        let display = cmd.name.clone().unwrap_or_else(|| title_case(key));
        let placed = self.place(side, cmd, &cpath);
        // A command whose units were all refused already has its errors: say nothing more.
        if cmd.units.is_empty() && cmd.lines.is_empty() {
            self.err(
                &cpath,
                "a command needs at least one unit, in `units` or `lines`",
            );
        }
        let army = InArmy { rules, side, spec };
        let mut unit_ids = Vec::new();
        let mut with_command = Vec::new();
        for p in placed {
            let (upath, own) = (p.path.clone(), p.spec.arrives.clone());
            if let Some(u) = self.unit(army, id, (cmd, &cpath), p, seen) {
                unit_ids.push(u);
                match own {
                    Some(a) => self.arriving.push(Arriving {
                        key: format!("{upath}.arrives"),
                        spec: a,
                        units: vec![u],
                        general: None,
                        stream: UNIT_ARRIVAL_STREAMS + u64::from(u),
                    }),
                    None => with_command.push(u),
                }
            }
        }
        let commander = self.command_general(army, (id, cmd, &cpath), &display, &unit_ids);
        let first_kind = unit_ids.first().map(|&u| self.units[usize::from(u)].kind);
        let doctrine = self.command_doctrine(army, cmd, &cpath, first_kind);
        if let Some(a) = &cmd.arrives {
            self.arriving.push(Arriving {
                key: format!("{cpath}.arrives"),
                spec: a.clone(),
                units: with_command,
                general: commander,
                stream: u64::from(id),
            });
        }
        if let Some(r) = &cmd.reserve_until {
            self.reserve(id, r, &format!("{cpath}.reserve_until"));
        }
        self.commands.push(Command {
            id,
            side,
            kind: cmd.kind,
            name: self.names.commands.len() as u16,
            commander,
            units: unit_ids,
            lps: 0,
            doctrine,
            commissary: cmd.commissary,
        });
        self.names.commands.push(display);
    }

    /// Command `id`'s general, standing at the centre of its units (`unit_ids`); none for an
    /// independent command, and an error for any other without one.
    fn command_general(
        &mut self,
        army: InArmy<'_>,
        (id, cmd, cpath): (u16, &CommandSpec, &str),
        display: &str,
        unit_ids: &[UnitId],
    ) -> Option<CommanderId> {
        let commander = match &cmd.commander {
            Some(c) => Some(self.commander(
                army,
                c,
                false,
                cmd.commissary,
                &format!("{cpath}.commander"),
                format!("{display} commander"),
            )),
            None if cmd.kind == CommandKind::Independent => None,
            None => {
                self.err(
                    cpath,
                    format!(
                        "a {} command needs a commander: add `commander = \"average\"`, a named commander, or {{ roll = true }} (only independent commands have none)",
                        kind_name(cmd.kind)
                    ),
                );
                None
            }
        };
        if let Some(c) = commander {
            let units: Vec<Vec2> = unit_ids
                .iter()
                .map(|&u| self.units[usize::from(u)].pos)
                .collect();
            let g = &mut self.commanders[usize::from(c)];
            g.command = Some(id);
            if !units.is_empty() {
                g.pos = units.iter().fold(Vec2::new(0.0, 0.0), |s, p| s + *p)
                    * (1.0 / units.len() as f64);
            }
        }
        commander
    }

    /// A command's doctrine: its own, else the side's for a wing, branch or brigade (the
    /// Captain-General's too), else its kind's; trains and independent bodies keep their
    /// kind's.
    fn command_doctrine(
        &mut self,
        army: InArmy<'_>,
        cmd: &CommandSpec,
        cpath: &str,
        first_kind: Option<UnitKind>,
    ) -> u16 {
        let InArmy { side, spec, .. } = army;
        let (doctrine_name, doctrine_key) = match (&cmd.doctrine, &spec.doctrine) {
            (Some(d), _) => (d.clone(), format!("{cpath}.doctrine")),
            (None, Some(d))
                if matches!(
                    cmd.kind,
                    CommandKind::Horse | CommandKind::Foot | CommandKind::Brigade
                ) =>
            {
                (d.clone(), format!("{}.doctrine", side.name()))
            }
            _ => (
                default_doctrine(cmd.kind, side, first_kind).to_string(),
                format!("{cpath}.doctrine"),
            ),
        };
        self.doctrine(&doctrine_name, &doctrine_key)
    }

    /// A command's `reserve_until`: exactly one of `turn` and `enemy_within`.
    fn reserve(&mut self, command: u16, r: &ReserveSpec, key: &str) {
        let until = match (r.turn, r.enemy_within) {
            (Some(t), None) => self
                .turn_number(&format!("{key}.turn"), t)
                .map(ReserveUntil::Turn),
            (None, Some(x)) => self
                .in_range(&format!("{key}.enemy_within"), x, RADIUS, "inches")
                .then_some(ReserveUntil::EnemyWithin(x)),
            _ => {
                self.err(
                    key,
                    "give one condition: `{ turn = N }` (released at turn N) or `{ enemy_within = X }` (released when an enemy comes within X inches)",
                );
                None
            }
        };
        if let Some(until) = until {
            self.reserves.push(Reserve { command, until });
        }
    }

    /// A unit's ammunition wagons: guns only, 0 to 20.
    fn wagons(&mut self, u: &UnitSpec, kind: UnitKind, path: &str) -> u8 {
        let Some(w) = u.wagons else {
            return 0;
        };
        let key = format!("{path}.wagons");
        if !matches!(kind, UnitKind::Artillery(_)) {
            self.err(
                &key,
                format!("only guns have ammunition wagons, not {}", kind.key()),
            );
            0
        } else if (0..=20).contains(&w) {
            w as u8
        } else {
            self.err(&key, format!("must be 0 to 20 wagons, got {w}"));
            0
        }
    }

    /// A turn number from 1 to 1000.
    fn turn_number(&mut self, key: &str, t: i64) -> Option<u16> {
        if (1..=1000).contains(&t) {
            Some(t as u16)
        } else {
            self.err(key, format!("must be a turn from 1 to 1000, got {t}"));
            None
        }
    }

    /// Every `arrives` table checked and its units' places on arrival worked out.
    fn arrivals(&mut self, ground: &Ground, turn_limit: u16) -> Vec<Arrival> {
        let arriving = std::mem::take(&mut self.arriving);
        let mut out = Vec::new();
        for a in arriving {
            let time = match (a.spec.turn, a.spec.from_turn, a.spec.on) {
                (Some(t), None, None) => self
                    .turn_number(&format!("{}.turn", a.key), t)
                    .map(ArrivalTime::Turn),
                (None, Some(t), Some(on)) => {
                    let from = self.turn_number(&format!("{}.from_turn", a.key), t);
                    let on = if (1..=6).contains(&on) {
                        Some(on as u8)
                    } else {
                        self.err(
                            &format!("{}.on", a.key),
                            format!("must be a die score from 1 to 6, got {on}"),
                        );
                        None
                    };
                    from.zip(on)
                        .map(|(from_turn, on)| ArrivalTime::Roll { from_turn, on })
                }
                _ => {
                    self.err(&a.key, "give either `turn = N` (arrives at the start of turn N) or `from_turn = N, on = D` (from turn N, arrives when a D6 scores D or more)");
                    None
                }
            };
            if let Some(ArrivalTime::Turn(t) | ArrivalTime::Roll { from_turn: t, .. }) = time
                && t > turn_limit
            {
                self.err(&a.key, format!("turn {t} is after the battle's last turn ({turn_limit}): these units would never arrive"));
            }
            let units = match &a.spec.at {
                None => a
                    .units
                    .iter()
                    .map(|&u| {
                        let u = &self.units[usize::from(u)];
                        (u.id, u.pos, u.facing)
                    })
                    .collect(),
                Some(at) => match self.arrival_place(at, &a.key, ground) {
                    Some(place) => place_group(&self.units, &a.units, place, ground),
                    None => Vec::new(),
                },
            };
            let general = a.general.map(|g| (g, centre(units.iter().map(|u| u.1))));
            if let Some(time) = time {
                out.push(Arrival {
                    units,
                    time,
                    general,
                    stream: a.stream,
                });
            }
        }
        out
    }

    /// `at`: an edge by name (a near miss suggested) or a point on the table.
    fn arrival_place(&mut self, at: &PlaceSpec, key: &str, ground: &Ground) -> Option<Place> {
        let key = format!("{key}.at");
        match at {
            PlaceSpec::Edge(name) => match name.as_str() {
                "north" => Some(Place::North),
                "south" => Some(Place::South),
                "east" => Some(Place::East),
                "west" => Some(Place::West),
                _ => {
                    let hint = did_you_mean(name, &EDGES);
                    self.err(&key, format!("unknown table edge `{name}`: {hint}the edges are north (the far side, y = table depth), south (y = 0), east (x = table width) and west (x = 0), or give a point [x, y]"));
                    None
                }
            },
            PlaceSpec::Point([x, y]) => {
                let p = Vec2::new(*x, *y);
                if p.x.is_finite() && p.y.is_finite() && ground.on_table(p) {
                    Some(Place::Point(p))
                } else {
                    self.err(
                        &key,
                        format!(
                            "point ({x}, {y}) is off the {} x {} table",
                            ground.width, ground.depth
                        ),
                    );
                    None
                }
            }
        }
    }

    /// The command's units with their places: given one by one, or spread along lines.
    fn place<'c>(&mut self, side: Side, cmd: &'c CommandSpec, cpath: &str) -> Vec<Placed<'c>> {
        let mut out = Vec::new();
        for (i, u) in cmd.units.iter().enumerate() {
            let path = format!("{cpath}.units.{i}");
            let (Some(x), Some(y)) = (u.x, u.y) else {
                self.err(&path, format!("unit `{}` needs a position: x and y in inches (or put it in a `lines` entry)", u.name));
                continue;
            };
            let facing = u.facing.unwrap_or(default_facing_degrees(side));
            let fine = self.in_range(&format!("{path}.x"), x, COORDINATE, "inches")
                & self.in_range(&format!("{path}.y"), y, COORDINATE, "inches")
                & self.in_range(&format!("{path}.facing"), facing, FACING, "degrees");
            if !fine {
                continue;
            }
            out.push(Placed {
                path,
                spec: u,
                pos: Vec2::new(x, y),
                facing: facing.to_radians(),
            });
        }
        for (li, line) in cmd.lines.iter().enumerate() {
            let lpath = format!("{cpath}.lines.{li}");
            let (a, b) = (
                Vec2::new(line.from[0], line.from[1]),
                Vec2::new(line.to[0], line.to[1]),
            );
            let facing = line.facing.unwrap_or(default_facing_degrees(side));
            let mut fine = self.in_range(&format!("{lpath}.facing"), facing, FACING, "degrees");
            for (end, v) in [("from", a.x), ("from", a.y), ("to", b.x), ("to", b.y)] {
                fine &= self.in_range(&format!("{lpath}.{end}"), v, COORDINATE, "inches");
            }
            if !fine {
                continue;
            }
            let facing = facing.to_radians();
            if line.units.is_empty() {
                self.err(&format!("{lpath}.units"), "a line needs at least one unit");
            }
            self.spread(
                &mut out,
                &line.units,
                &format!("{lpath}.units"),
                a,
                b,
                facing,
            );
            if let Some(second) = &line.second_line {
                let behind = second.behind.unwrap_or(SECOND_LINE_BEHIND);
                let key = format!("{lpath}.second_line.behind");
                if !self.in_range(&key, behind, BEHIND, "inches") {
                    continue;
                }
                let back = Vec2::from_facing(facing) * -behind;
                if second.units.is_empty() {
                    self.err(
                        &format!("{lpath}.second_line.units"),
                        "a second line needs at least one unit",
                    );
                }
                self.spread(
                    &mut out,
                    &second.units,
                    &format!("{lpath}.second_line.units"),
                    a + back,
                    b + back,
                    facing,
                );
            }
        }
        out
    }

    /// Units evenly spread along a-b: each at the centre of an equal share of the line.
    fn spread<'c>(
        &mut self,
        out: &mut Vec<Placed<'c>>,
        units: &'c [UnitSpec],
        path: &str,
        a: Vec2,
        b: Vec2,
        facing: f64,
    ) {
        let n = units.len() as f64;
        for (i, u) in units.iter().enumerate() {
            let upath = format!("{path}.{i}");
            if u.x.is_some() || u.y.is_some() || u.facing.is_some() {
                self.err(
                    &upath,
                    format!(
                        "unit `{}` is in a line, which places it: remove its x, y and facing",
                        u.name
                    ),
                );
            }
            let pos = a + (b - a) * ((i as f64 + 0.5) / n);
            out.push(Placed {
                path: upath,
                spec: u,
                pos,
                facing,
            });
        }
    }

    fn unit(
        &mut self,
        army: InArmy<'_>,
        command: u16,
        (cmd, cpath): (&CommandSpec, &str),
        p: Placed<'_>,
        seen: &mut HashMap<String, String>,
    ) -> Option<UnitId> {
        let InArmy { rules, side, .. } = army;
        let u = p.spec;
        let path = p.path;
        self.unit_name(&u.name, &path, seen);
        let kind = self.unit_kind(&u.kind, &path)?;
        let size = self.unit_size(u, kind, rules, &path);
        if let Some(f) = u.formation
            && !formation_allowed(kind, f)
        {
            self.err(
                &format!("{path}.formation"),
                format!("{} cannot start in {f:?} formation", kind.key()),
            );
        }
        let (cv, source, note) = self.rating(army, (cmd, cpath), u, kind, &path)?;
        if self.units.len() >= MAX_UNITS {
            if self.beyond_limit == 0 {
                self.err(
                    &path,
                    format!("a scenario may have at most {MAX_UNITS} units"),
                );
            }
            self.beyond_limit += 1;
            return None;
        }
        let id = self.units.len() as UnitId;
        let mut unit = Unit::new(id, side, command, kind, cv).at(p.pos.x, p.pos.y, p.facing);
        unit.size = size;
        unit.men = u.men;
        if let Some(f) = u.formation {
            unit.formation = f;
        }
        unit.wagons = self.wagons(u, kind, &path);
        self.units.push(unit);
        self.ratings.push(source);
        self.notes.push(UnitNote {
            men: u.men,
            rating: note,
        });
        self.unit_paths.push(path);
        self.names.units.push(u.name.clone());
        Some(id)
    }

    /// Refuses a unit with no name, or a name already given in this army (`seen`: each name
    /// with the path it was first given at).
    fn unit_name(&mut self, name: &str, path: &str, seen: &mut HashMap<String, String>) {
        if name.trim().is_empty() {
            self.err(&format!("{path}.name"), "a unit needs a name");
        }
        if let Some(first) = seen.get(name) {
            self.err(
                &format!("{path}.name"),
                format!("`{name}` is already in this army at `{first}`: a unit belongs to one command (give each its own name)"),
            );
        } else {
            seen.insert(name.to_string(), path.to_string());
        }
    }

    /// The unit type of `key`, or None (refused, with the types near it) if there is none.
    fn unit_kind(&mut self, key: &str, path: &str) -> Option<UnitKind> {
        if let Some(kind) = UnitKind::from_key(key) {
            return Some(kind);
        }
        let keys: Vec<&str> = UnitKind::ALL.iter().map(|k| k.key()).collect();
        let hint = did_you_mean(key, &keys);
        self.err(
            &format!("{path}.type"),
            format!(
                "unknown unit type `{}`; {hint}(types: {})",
                key,
                keys.join(", ")
            ),
        );
        None
    }

    /// A unit's size class: given, or from its men (never both).
    fn unit_size(
        &mut self,
        u: &UnitSpec,
        kind: UnitKind,
        rules: &IronsidesRules,
        path: &str,
    ) -> SizeClass {
        match (u.men, u.size) {
            (Some(_), Some(_)) => {
                self.err(path, "give either `men` or `size`, not both");
                SizeClass::Normal
            }
            (Some(0), None) => {
                self.err(&format!("{path}.men"), "a unit needs more than 0 men");
                SizeClass::Normal
            }
            (Some(m), None) => rules.size_class(m, kind.mounted_sizes()),
            (None, Some(s)) => s,
            (None, None) => SizeClass::Normal,
        }
    }

    /// A unit's template CV, rating source and a note saying where it came from.
    fn rating(
        &mut self,
        army: InArmy<'_>,
        cmd: (&CommandSpec, &str),
        u: &UnitSpec,
        kind: UnitKind,
        path: &str,
    ) -> Option<(u8, RatingSource, String)> {
        match (u.cv, u.rating) {
            (Some(_), Some(_)) => {
                self.err(path, "give either `cv` (fixed) or `rating` (\"standard\" or \"randomised\"), not both");
                None
            }
            (Some(cv), None) => self.fixed_rating(army.rules, cv, u, path),
            (None, r) => {
                let Some(r) = r.or(army.spec.rating) else {
                    self.err(path, format!("unit `{}` needs a rating: `cv = 5`, `rating = \"standard\"` or `rating = \"randomised\"`", u.name));
                    return None;
                };
                self.table_rating_of(army, cmd, u, r, kind, path)
            }
        }
    }

    /// A fixed `cv`, within the ruleset's limits and with no table keys beside it.
    fn fixed_rating(
        &mut self,
        rules: &IronsidesRules,
        cv: i64,
        u: &UnitSpec,
        path: &str,
    ) -> Option<(u8, RatingSource, String)> {
        let cv_max = rules.limits.cv_max;
        let cv_min = rules.limits.cv_min_start.max(1);
        if u.rating_alt.is_some() || u.rating_side.is_some() || u.rating_year.is_some() {
            self.err(path, "`rating_alt`, `rating_side` and `rating_year` go with `rating`, not with a fixed `cv`");
        }
        if cv < i64::from(cv_min) || cv > i64::from(cv_max) {
            self.err(
                &format!("{path}.cv"),
                format!("CV {cv} is outside {cv_min}..={cv_max}"),
            );
            return None;
        }
        Some((cv as u8, RatingSource::Fixed, "fixed".into()))
    }

    /// A rating from the ratings table (`r`): its side and year from the unit, else its
    /// command, else its side; a refusal names the key that set the value refused.
    fn table_rating_of(
        &mut self,
        army: InArmy<'_>,
        (cmd, cpath): (&CommandSpec, &str),
        u: &UnitSpec,
        r: RatingKind,
        kind: UnitKind,
        path: &str,
    ) -> Option<(u8, RatingSource, String)> {
        let InArmy { rules, side, spec } = army;
        let sname = side.name();
        let (rside, side_key) = match (&u.rating_side, &cmd.rating_side, &spec.rating_side) {
            (Some(s), _, _) => (s.clone(), format!("{path}.rating_side")),
            (None, Some(s), _) => (s.clone(), format!("{cpath}.rating_side")),
            (None, None, Some(s)) => (s.clone(), format!("{sname}.rating_side")),
            (None, None, None) => (sname.to_string(), path.to_string()),
        };
        let (year, year_key) = match (u.rating_year, cmd.rating_year, spec.year) {
            (Some(y), _, _) => (y, format!("{path}.rating_year")),
            (None, Some(y), _) => (y, format!("{cpath}.rating_year")),
            (None, None, Some(y)) => (y, format!("{sname}.year")),
            (None, None, None) => {
                self.err(path, format!("a table rating needs a year: set `{sname}.year` (or `rating_year` on the unit or command)"));
                return None;
            }
        };
        // A command's or side's `rating_alt` serves its units rated "standard" that do not
        // set their own; a unit's own is checked as written.
        let alt = match (u.rating_alt, r) {
            (Some(a), _) => a,
            (None, RatingKind::Standard) => cmd.rating_alt.or(spec.rating_alt).unwrap_or(false),
            (None, RatingKind::Randomised) => false,
        };
        match table_rating(rules, r, &rside, year, kind.arm(), alt) {
            Ok((cv, src)) => {
                let what = match r {
                    RatingKind::Standard => "standard",
                    RatingKind::Randomised => "randomised",
                };
                let note = format!("{what}, {rside} {year} {}", arm_name(kind));
                Some((cv, src, note))
            }
            Err(m) => {
                let key = if m.contains("rating side") {
                    side_key
                } else if m.contains("year") {
                    year_key
                } else {
                    path.to_string()
                };
                self.err(&key, m);
                None
            }
        }
    }

    /// A commander from the scenario's words; a placeholder after an error so checking goes on.
    fn commander(
        &mut self,
        army: InArmy<'_>,
        spec: &CommanderSpec,
        captain_general: bool,
        commissary: bool,
        path: &str,
        default_name: String,
    ) -> CommanderId {
        let InArmy { rules, side, .. } = army;
        let average = average_commander(rules, captain_general);
        let reading = match spec {
            CommanderSpec::Key(k) if k == "average" => Reading {
                name: default_name,
                rating: average,
                source: CommanderSource::Fixed,
                note: "average".into(),
            },
            CommanderSpec::Key(k) => {
                self.named_commander(rules, k, captain_general, path, (default_name, average))
            }
            CommanderSpec::Table(t) if t.roll => {
                self.rolled_commander(rules, t, commissary, path, default_name)
            }
            CommanderSpec::Table(t) => self.fixed_commander(t, path, default_name, average),
        };
        let given = match spec {
            CommanderSpec::Key(k) => k != "average",
            CommanderSpec::Table(t) => t.name.is_some(),
        };
        if given {
            self.claim_general(side, &reading.name, path);
        }
        let id = self.commanders.len() as CommanderId;
        let mut c = Commander::new(id, side, reading.rating);
        c.name = self.names.commanders.len() as u16;
        c.is_captain_general = captain_general;
        c.staff_rating = self.staff_rating(spec, path);
        self.commanders.push(c);
        self.commander_sources.push(reading.source);
        self.commander_notes.push(reading.note);
        self.names.commanders.push(reading.name);
        id
    }

    /// A named commander of the ruleset (`k`), his radius halved as a subordinate; an unknown
    /// key is an error naming the keys there are, and reads as `average` so checking goes on.
    fn named_commander(
        &mut self,
        rules: &IronsidesRules,
        k: &str,
        captain_general: bool,
        path: &str,
        (default_name, average): (String, CommanderRating),
    ) -> Reading {
        if let Some(n) = rules.named(k) {
            // "Should any of these commanders serve as subordinates ... halve the command radius".
            let factor = if captain_general {
                1.0
            } else {
                rules.generals.subordinate_radius_factor
            };
            let rating = CommanderRating {
                lp_modifier: n.lp_modifier,
                radius: n.radius * factor,
                rerolls: n.rerolls,
                enemy_rerolls: 0,
            };
            return Reading {
                name: n.name.clone(),
                rating,
                source: CommanderSource::Fixed,
                note: format!("named `{k}`"),
            };
        }
        let mut keys: Vec<&str> = rules
            .named_commander
            .iter()
            .map(|c| c.key.as_str())
            .collect();
        keys.push("average");
        let hint = did_you_mean(k, &keys);
        self.err(
            path,
            format!(
                "unknown commander `{k}`; {hint}the named commanders are {}. For anyone else write {{ name = \"{k}\", lp_modifier = 0, radius = 12.0, rerolls = 1 }} or {{ name = \"{k}\", roll = true }}",
                keys.join(", ")
            ),
        );
        Reading {
            name: default_name,
            rating: average,
            source: CommanderSource::Fixed,
            note: "unknown".into(),
        }
    }

    /// A commander rolled on the generalship table every battle (the Commissary's modifier on
    /// his skill roll); his rating here is a template until the battle rolls.
    fn rolled_commander(
        &mut self,
        rules: &IronsidesRules,
        t: &CommanderTable,
        commissary: bool,
        path: &str,
        default_name: String,
    ) -> Reading {
        if t.lp_modifier.is_some()
            || t.radius.is_some()
            || t.rerolls.is_some()
            || t.enemy_rerolls.is_some()
        {
            self.err(path, "a rolled commander takes his lp_modifier, radius and rerolls from the generalship table: remove them or `roll`");
        }
        let skill_modifier = if commissary {
            rules.options.commissary_general_skill_modifier
        } else {
            0
        };
        // Template until the battle rolls: an average man, the table's "Fair Man, Decent Chap".
        let row = rules.generalship_row(3);
        let rating = CommanderRating {
            lp_modifier: row.lp_modifier,
            radius: row.radius,
            rerolls: row.rerolls,
            enemy_rerolls: row.enemy_rerolls,
        };
        let note = if skill_modifier != 0 {
            format!("rolled, skill {skill_modifier:+}")
        } else {
            "rolled".into()
        };
        Reading {
            name: t.name.clone().unwrap_or(default_name),
            rating,
            source: CommanderSource::Rolled { skill_modifier },
            note,
        }
    }

    /// A commander whose rating the scenario writes: every value there, each in its range.
    fn fixed_commander(
        &mut self,
        t: &CommanderTable,
        path: &str,
        default_name: String,
        average: CommanderRating,
    ) -> Reading {
        let mut missing = Vec::new();
        if t.lp_modifier.is_none() {
            missing.push("lp_modifier");
        }
        if t.radius.is_none() {
            missing.push("radius");
        }
        if t.rerolls.is_none() {
            missing.push("rerolls");
        }
        if !missing.is_empty() {
            self.err(
                path,
                format!(
                    "a fixed commander needs {} (or `roll = true` to roll him each battle)",
                    missing.join(", ")
                ),
            );
        }
        for (k, v) in [
            ("lp_modifier", t.lp_modifier.map(i64::from)),
            ("rerolls", t.rerolls.map(i64::from)),
            ("enemy_rerolls", t.enemy_rerolls.map(i64::from)),
        ] {
            let lo = if k == "lp_modifier" {
                -COMMANDER_DICE
            } else {
                0
            };
            if let Some(v) = v.filter(|v| !(lo..=COMMANDER_DICE).contains(v)) {
                self.err(
                    &format!("{path}.{k}"),
                    format!("must be from {lo} to {COMMANDER_DICE}, got {v}"),
                );
            }
        }
        let radius = t.radius.unwrap_or(average.radius);
        self.in_range(&format!("{path}.radius"), radius, RADIUS, "inches");
        let rating = CommanderRating {
            lp_modifier: t.lp_modifier.unwrap_or(0),
            radius,
            rerolls: t.rerolls.unwrap_or(0),
            enemy_rerolls: t.enemy_rerolls.unwrap_or(0),
        };
        Reading {
            name: t.name.clone().unwrap_or(default_name),
            rating,
            source: CommanderSource::Fixed,
            note: "fixed".into(),
        }
    }

    /// One general leads one command: a name given twice on a side is an error at the second.
    fn claim_general(&mut self, side: Side, name: &str, path: &str) {
        match self.generals_named.get(&(side, name.to_string())) {
            Some(first) => {
                let first = first.clone();
                self.err(
                    path,
                    format!(
                        "`{name}` already commands at `{first}`: one general leads one command. A Captain-General who led a wing himself stays Captain-General; give the wing `commander = \"average\"` (or its real second-in-command) and say so in a comment"
                    ),
                );
            }
            None => {
                self.generals_named
                    .insert((side, name.to_string()), path.to_string());
            }
        }
    }

    /// A commander's Black Powder `staff_rating`, checked: a rating outside the totals of two
    /// dice would pass every order roll or none.
    fn staff_rating(&mut self, spec: &CommanderSpec, path: &str) -> Option<u8> {
        let CommanderSpec::Table(t) = spec else {
            return None;
        };
        let r = t.staff_rating?;
        if !STAFF_RATINGS.contains(&r) {
            self.err(
                &format!("{path}.staff_rating"),
                format!(
                    "must be from {} to {} (the totals of two dice), got {r}",
                    STAFF_RATINGS.start(),
                    STAFF_RATINGS.end()
                ),
            );
            return None;
        }
        Some(r)
    }

    /// The index of a doctrine, loading it the first time: built in, or a file beside the scenario.
    fn doctrine(&mut self, name: &str, key: &str) -> u16 {
        if let Some(i) = self.doctrine_names.iter().position(|n| n == name) {
            return i as u16;
        }
        let found = match DoctrineParams::builtin(name) {
            Some(d) => Some(d),
            None => {
                // A path (`my.toml`, `doctrines/x.toml`) is relative to the scenario file; a bare name
                // is looked for as `../doctrines/NAME.toml`, the layout of `configs/`.
                let file = if name.ends_with(".toml") || name.contains('/') {
                    name.to_string()
                } else {
                    format!("../doctrines/{name}.toml")
                };
                match self.relative(&file) {
                    Some(path) if path.exists() => match DoctrineParams::load(&path) {
                        Ok(d) => Some(d),
                        Err(e) => {
                            self.errors.push(e);
                            None
                        }
                    },
                    other => {
                        let builtins: Vec<&str> = DoctrineParams::builtin_names().collect();
                        let hint = did_you_mean(name, &builtins);
                        let looked = other
                            .map(|p| format!(" and no file {}", p.display()))
                            .unwrap_or_default();
                        self.err(
                            key,
                            format!(
                                "unknown doctrine `{name}`{looked}; {hint}built in: {}",
                                builtins.join(", ")
                            ),
                        );
                        None
                    }
                }
            }
        };
        match found {
            Some(d) => {
                self.doctrines.push(d);
                self.doctrine_names.push(name.to_string());
                (self.doctrines.len() - 1) as u16
            }
            None => 0,
        }
    }

    /// Every unit on the table, and no two overlapping (touching is fine).
    fn check_positions(&mut self, ground: &Ground) {
        let shapes: Vec<Shape> = self
            .units
            .iter()
            .map(|u| {
                Rect {
                    centre: u.pos,
                    facing: u.facing,
                    frontage: (u.frontage - OVERLAP_TOLERANCE).max(0.0),
                    depth: (u.depth - OVERLAP_TOLERANCE).max(0.0),
                }
                .shape()
            })
            .collect();
        let (overlaps, more) = overlapping_pairs(&shapes, OVERLAPS_LISTED);
        let mut overlaps = overlaps.into_iter().peekable();
        let mut problems: Vec<(String, String)> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            let full = Rect {
                centre: u.pos,
                facing: u.facing,
                frontage: u.frontage,
                depth: u.depth,
            };
            let off = full.corners().iter().any(|c| {
                c.x < -1e-9 || c.y < -1e-9 || c.x > ground.width + 1e-9 || c.y > ground.depth + 1e-9
            });
            if off {
                problems.push((
                    self.unit_paths[i].clone(),
                    format!(
                        "`{}` at ({:.1}, {:.1}) is off the {} x {} table (its {}\" x {}\" footprint must lie on it)",
                        self.names.units[i], u.pos.x, u.pos.y, ground.width, ground.depth, u.frontage, u.depth
                    ),
                ));
            }
            while let Some((_, j)) = overlaps.next_if(|&(k, _)| k == i) {
                problems.push((
                    self.unit_paths[i].clone(),
                    format!(
                        "`{}` overlaps `{}` (at `{}`)",
                        self.names.units[i], self.names.units[j], self.unit_paths[j]
                    ),
                ));
            }
        }
        if more {
            let last = problems.last().map(|p| p.0.clone()).unwrap_or_default();
            problems.push((
                last,
                format!(
                    "more units overlap than the {OVERLAPS_LISTED} pairs listed: spread them out and check again"
                ),
            ));
        }
        for (key, msg) in problems {
            self.err(&key, msg);
        }
    }
}

fn default_facing_degrees(side: Side) -> f64 {
    match side {
        Side::Parliament => 0.0,
        Side::Royalist => 180.0,
    }
}

const EDGES: [&str; 4] = ["north", "south", "east", "west"];

/// Where arriving units come on.
#[derive(Debug, Clone, Copy)]
enum Place {
    North,
    South,
    East,
    West,
    Point(Vec2),
}

fn centre(points: impl Iterator<Item = Vec2>) -> Vec2 {
    let (sum, n) = points.fold((Vec2::new(0.0, 0.0), 0.0), |(s, n), p| (s + p, n + 1.0));
    if n > 0.0 { sum * (1.0 / n) } else { sum }
}

/// Arriving units keep their places relative to one another: the group is moved so that its
/// centre is on the point, or so that it stands just inside the edge, facing into the table.
fn place_group(
    all: &[Unit],
    ids: &[UnitId],
    place: Place,
    ground: &Ground,
) -> Vec<(UnitId, Vec2, f64)> {
    let units = || ids.iter().map(|&i| &all[usize::from(i)]);
    let mid = centre(units().map(|u| u.pos));
    let half = |u: &Unit| u.depth * 0.5 + EDGE_MARGIN;
    let (shift, facing) = match place {
        Place::Point(p) => (p - mid, None),
        Place::North => {
            let top = units().map(|u| u.pos.y + half(u)).fold(f64::MIN, f64::max);
            (Vec2::new(0.0, ground.depth - top), Some(180.0))
        }
        Place::South => {
            let low = units().map(|u| u.pos.y - half(u)).fold(f64::MAX, f64::min);
            (Vec2::new(0.0, -low), Some(0.0))
        }
        Place::East => {
            let right = units().map(|u| u.pos.x + half(u)).fold(f64::MIN, f64::max);
            (Vec2::new(ground.width - right, 0.0), Some(270.0))
        }
        Place::West => {
            let left = units().map(|u| u.pos.x - half(u)).fold(f64::MAX, f64::min);
            (Vec2::new(-left, 0.0), Some(90.0))
        }
    };
    units()
        .map(|u| {
            (
                u.id,
                u.pos + shift,
                facing.map_or(u.facing, |f: f64| f.to_radians()),
            )
        })
        .collect()
}

fn default_facing(side: Side) -> f64 {
    default_facing_degrees(side).to_radians()
}

/// The brief's defaults: horse by the side's school, foot holds the line, guns serve as a train,
/// an independent body by what it is.
/// Lays `changes` over a ruleset table: tables key by key, a list entry by its index
/// (`ratings.7`), anything else replaced whole. Keys the ruleset lacks are kept, for its own
/// reading to refuse by name. Errors are (the `rules.` key, the message).
fn overlay(
    base: &mut toml::Table,
    changes: &toml::Table,
    at: &str,
) -> std::result::Result<(), (String, String)> {
    for (k, change) in changes {
        let key = format!("{at}.{k}");
        match (base.get_mut(k), change) {
            (Some(toml::Value::Table(b)), toml::Value::Table(c)) => overlay(b, c, &key)?,
            (Some(toml::Value::Array(list)), toml::Value::Table(c)) => {
                for (i, entry) in c {
                    let n = list.len();
                    let Some(slot) = i.parse::<usize>().ok().and_then(|i| list.get_mut(i)) else {
                        return Err((
                            format!("{key}.{i}"),
                            format!(
                                "`{key}` is a list of {n}: set an entry by its index from 0 to {}",
                                n.saturating_sub(1)
                            ),
                        ));
                    };
                    match (slot, entry) {
                        (toml::Value::Table(b), toml::Value::Table(c)) => {
                            overlay(b, c, &format!("{key}.{i}"))?
                        }
                        (slot, entry) => *slot = entry.clone(),
                    }
                }
            }
            (Some(slot), _) => *slot = change.clone(),
            (None, _) => {
                base.insert(k.clone(), change.clone());
            }
        }
    }
    Ok(())
}

fn default_doctrine(kind: CommandKind, side: Side, first_unit: Option<UnitKind>) -> &'static str {
    let horse = match side {
        Side::Parliament => "cromwell",
        Side::Royalist => "rupert",
    };
    match kind {
        CommandKind::Horse => horse,
        CommandKind::Foot | CommandKind::Brigade => "hold_the_line",
        CommandKind::Artillery => "artillery_train",
        CommandKind::Independent => match first_unit {
            Some(UnitKind::ForlornHope | UnitKind::Dragoons) | None => "forlorn_hope",
            Some(UnitKind::Horse(_)) => horse,
            Some(UnitKind::Artillery(_)) => "artillery_train",
            Some(UnitKind::Foot(_)) => "hold_the_line",
        },
    }
}

/// The formations a unit may start in.
fn formation_allowed(kind: UnitKind, f: Formation) -> bool {
    match kind {
        UnitKind::Artillery(_) => matches!(f, Formation::Limbered | Formation::Unlimbered),
        UnitKind::Dragoons => matches!(
            f,
            Formation::Line | Formation::MarchColumn | Formation::Dismounted
        ),
        UnitKind::Foot(_) => matches!(
            f,
            Formation::Line | Formation::MarchColumn | Formation::Hedgehog
        ),
        UnitKind::ForlornHope => f == Formation::Line,
        UnitKind::Horse(_) => matches!(f, Formation::Line | Formation::MarchColumn),
    }
}

pub(super) fn kind_name(k: CommandKind) -> &'static str {
    match k {
        CommandKind::Horse => "horse",
        CommandKind::Foot => "foot",
        CommandKind::Artillery => "artillery",
        CommandKind::Brigade => "brigade",
        CommandKind::Independent => "independent",
    }
}

pub(super) fn arm_name(k: UnitKind) -> &'static str {
    match k.arm() {
        crate::army::Arm::Foot => "foot",
        crate::army::Arm::Dragoons => "dragoons",
        crate::army::Arm::Horse => "horse",
        crate::army::Arm::Artillery => "artillery",
    }
}

/// "left_horse" -> "Left Horse".
pub(super) fn title_case(key: &str) -> String {
    key.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_defaults() {
        assert_eq!(title_case("left_horse"), "Left Horse");
        assert_eq!(
            default_doctrine(CommandKind::Horse, Side::Royalist, None),
            "rupert"
        );
        assert_eq!(
            default_doctrine(
                CommandKind::Independent,
                Side::Parliament,
                Some(UnitKind::ForlornHope)
            ),
            "forlorn_hope"
        );
        assert!(!formation_allowed(UnitKind::Dragoons, Formation::Hedgehog));
    }
}

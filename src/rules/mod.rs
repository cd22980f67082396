//! Rulesets, behind one boundary: a ruleset takes a [`BattleSetup`] (the armies, the ground,
//! the settings: shared by every ruleset) and fights it from a seed, telling what happened as
//! [`Event`](crate::events::Event)s. Statistics, replays and the runner read only those, so Black
//! Powder or Dickenson can be added as a new module implementing [`Ruleset`], with its own rule
//! data and battle state, without touching Ironsides or the tools around it.

pub mod black_powder;
pub mod dickenson;
pub mod ironsides;

pub use black_powder::battle::BlackPowder;

use crate::army::{Unit, UnitId};
use crate::error::{Error, Result};
use crate::events::{Observer, Outcome};
use crate::setup::BattleSetup;
use crate::stats::Layout;

/// The rulesets a scenario or `--ruleset` may name. A new ruleset is one name here and one
/// line in [`with_ruleset`]; every tool then fights by it.
pub const RULESETS: &[&str] = &["ironsides", "black_powder", "dickenson"];

/// The scenario table that changes `ruleset`'s values: `rules` for Ironsides (its file's
/// keys), `NAME_rules` for the others.
pub fn changes_table(ruleset: &str) -> String {
    match ruleset {
        "ironsides" => "rules".to_string(),
        other => format!("{other}_rules"),
    }
}

/// Work to do with a ruleset, whichever one a name picks.
pub trait WithRuleset {
    type Output;
    fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output;
}

/// The one place a ruleset's name picks its rules: runs `job` with it, or says which names
/// there are.
pub fn with_ruleset<W: WithRuleset>(name: &str, job: W) -> Result<W::Output> {
    match name {
        "ironsides" => Ok(job.with(&Ironsides)),
        "black_powder" => Ok(job.with(&BlackPowder::builtin())),
        "dickenson" => Ok(job.with(&dickenson::battle::Dickenson::builtin())),
        _ => Err(Error::Usage(format!(
            "unknown ruleset `{name}`; the rulesets are: {}",
            RULESETS.join(", ")
        ))),
    }
}

/// [`Ruleset::army_break_key`] of the ruleset `name` (an unknown name is refused as
/// [`with_ruleset`] refuses it).
pub fn army_break_key(name: &str) -> Result<Option<(&'static str, &'static str)>> {
    struct Key;
    impl WithRuleset for Key {
        type Output = Option<(&'static str, &'static str)>;
        fn with<R: Ruleset>(self, ruleset: &R) -> Self::Output {
            ruleset.army_break_key()
        }
    }
    with_ruleset(name, Key)
}

/// The turn limit of a battle of `setup` under a ruleset whose own default is `default`: the
/// scenario's `turn_limit` when it writes one.
pub fn scenario_turn_limit_or(setup: &BattleSetup, default: u16) -> u16 {
    setup.scenario_turn_limit.unwrap_or(default)
}

/// How a battle of `setup` ends under the ruleset `name`, in words: its turn limit and how an
/// army breaks (an unknown name is refused as [`with_ruleset`] refuses it).
pub fn how_it_ends(name: &str, setup: &BattleSetup) -> Result<String> {
    struct HowItEnds<'a>(&'a BattleSetup);
    impl WithRuleset for HowItEnds<'_> {
        type Output = String;
        fn with<R: Ruleset>(self, ruleset: &R) -> String {
            let (limit, army) = (ruleset.turn_limit(self.0), ruleset.army_break(self.0));
            format!("turn limit {limit}; {army}")
        }
    }
    with_ruleset(name, HowItEnds(setup))
}

/// [`Ruleset::cautions`] of the ruleset `name` for `setup`.
pub fn cautions(name: &str, setup: &BattleSetup) -> Result<Vec<String>> {
    struct Cautions<'a>(&'a BattleSetup);
    impl WithRuleset for Cautions<'_> {
        type Output = Vec<String>;
        fn with<R: Ruleset>(self, ruleset: &R) -> Vec<String> {
            ruleset.cautions(self.0)
        }
    }
    with_ruleset(name, Cautions(setup))
}

/// The ruleset a name picks, checked: an unknown name is refused with the known ones listed.
pub fn check_ruleset(name: &str) -> Result<&'static str> {
    struct Named;
    impl WithRuleset for Named {
        type Output = &'static str;
        fn with<R: Ruleset>(self, ruleset: &R) -> &'static str {
            ruleset.name()
        }
    }
    with_ruleset(name, Named)
}

/// The currency of the ruleset a name picks (see [`Ruleset::currency`]).
pub fn currency(name: &str) -> Result<&'static str> {
    struct Currency;
    impl WithRuleset for Currency {
        type Output = &'static str;
        fn with<R: Ruleset>(self, ruleset: &R) -> &'static str {
            ruleset.currency()
        }
    }
    with_ruleset(name, Currency)
}

/// The order of battle of `setup` as the statistics of the ruleset a name picks see it, its
/// own measures among it (see [`Ruleset::layout`]).
pub fn layout(name: &str, setup: &BattleSetup) -> Result<crate::stats::Layout> {
    struct Of<'a>(&'a BattleSetup);
    impl WithRuleset for Of<'_> {
        type Output = crate::stats::Layout;
        fn with<R: Ruleset>(self, ruleset: &R) -> crate::stats::Layout {
            ruleset.layout(self.0)
        }
    }
    with_ruleset(name, Of(setup))
}

/// A scenario's changes to Black Powder's and Dickenson's values (`[black_powder_rules]`,
/// `[dickenson_rules]`): each the whole ruleset with the changes laid over its built-in file.
/// A battle of that ruleset reads them in place of its own (Ironsides' changes are
/// `BattleSetup::rules`).
#[derive(Debug, Clone, Default)]
pub struct RulesetChanges {
    pub black_powder: Option<std::sync::Arc<black_powder::BlackPowderRules>>,
    pub dickenson: Option<std::sync::Arc<dickenson::DickensonRules>>,
}

/// A ruleset's data file (`configs/rulesets/*.toml`): read, parsed and checked the same way
/// for every ruleset; each says what makes its values valid.
pub trait RuleData: serde::de::DeserializeOwned {
    /// Checks the parsed values; errors name the file, key and line.
    fn validate(&self, path: &std::path::Path, text: &str) -> crate::error::Result<()>;

    /// Reads, parses and checks a ruleset file.
    fn load(path: &std::path::Path) -> crate::error::Result<Self> {
        let text = crate::io::read_text(path)?;
        Self::parse(path, &text)
    }

    /// Parses and checks ruleset text read from `path`.
    fn parse(path: &std::path::Path, text: &str) -> crate::error::Result<Self> {
        let rules: Self =
            toml::from_str(text).map_err(|e| crate::error::Error::from_toml(path, text, &e))?;
        // The ruleset's own checks first: their messages say what a value must be.
        rules.validate(path, text)?;
        check_finite(path, text)?;
        Ok(rules)
    }
}

/// Refuses any number of a ruleset file that is not finite (`nan`, `inf`), by key and line: no
/// rule has a use for one, and the engine's comparisons would treat it as nothing at all.
fn check_finite(path: &std::path::Path, text: &str) -> crate::error::Result<()> {
    fn walk(key: &str, v: &toml::Value) -> Option<(String, f64)> {
        let at = |k: &dyn std::fmt::Display| {
            if key.is_empty() {
                k.to_string()
            } else {
                format!("{key}.{k}")
            }
        };
        match v {
            toml::Value::Float(f) if !f.is_finite() => Some((key.to_string(), *f)),
            toml::Value::Table(t) => t.iter().find_map(|(k, v)| walk(&at(k), v)),
            toml::Value::Array(a) => a.iter().enumerate().find_map(|(i, v)| walk(&at(&i), v)),
            _ => None,
        }
    }
    let table: toml::Table =
        toml::from_str(text).map_err(|e| crate::error::Error::from_toml(path, text, &e))?;
    match walk("", &toml::Value::Table(table)) {
        Some((key, v)) => {
            let msg = format!("must be a finite number, got {v}");
            Err(crate::error::Error::at_key(path, text, &key, msg))
        }
        None => Ok(()),
    }
}

/// Checks that every `(key, value)` of `angles` is an angle either side of a front: finite,
/// from 0 to 180 degrees (180: all round). The arcs' tests by cosine hold only there.
pub(crate) fn check_angles<K: AsRef<str>>(
    angles: impl IntoIterator<Item = (K, f64)>,
    path: &std::path::Path,
    text: &str,
) -> crate::error::Result<()> {
    let what = "an angle from 0 to 180 degrees either side";
    check_within(angles, 0.0..=180.0, what, path, text)
}

/// Refuses the first `(key, value)` of `values` outside `range` (a value that is not a number
/// is outside every range) by key and line: it "must be `what`".
pub(crate) fn check_within<K: AsRef<str>, V: PartialOrd + std::fmt::Display>(
    values: impl IntoIterator<Item = (K, V)>,
    range: impl std::ops::RangeBounds<V>,
    what: &str,
    path: &std::path::Path,
    text: &str,
) -> crate::error::Result<()> {
    for (key, v) in values {
        if !range.contains(&v) {
            let msg = format!("must be {what}, got {v}");
            return Err(crate::error::Error::at_key(path, text, key.as_ref(), msg));
        }
    }
    Ok(())
}

/// Checks that every `(key, value)` of `distances` is a distance: 0 or more, finite.
pub(crate) fn check_distances<K: AsRef<str>>(
    distances: impl IntoIterator<Item = (K, f64)>,
    path: &std::path::Path,
    text: &str,
) -> crate::error::Result<()> {
    let what = "a distance of 0 or more";
    check_within(distances, 0.0..f64::INFINITY, what, path, text)
}

/// Checks that every `(key, value)` of `shares` is a share of a move or a reach: 0 to 2.
pub(crate) fn check_shares<K: AsRef<str>>(
    shares: impl IntoIterator<Item = (K, f64)>,
    path: &std::path::Path,
    text: &str,
) -> crate::error::Result<()> {
    check_within(shares, 0.0..=2.0, "a share from 0 to 2", path, text)
}

/// Checks that every `(key, value)` of `faces` is a face of a D6.
pub(crate) fn check_die_faces<K: AsRef<str>>(
    faces: impl IntoIterator<Item = (K, u8)>,
    path: &std::path::Path,
    text: &str,
) -> crate::error::Result<()> {
    check_within(faces, 1..=6, "a die face 1..=6", path, text)
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BattleSummary {
    pub outcome: Outcome,
    pub turns: u16,
    pub dice_rolled: u64,
    /// Losses of each side in the ruleset's currency (Ironsides: CV; Black Powder: casualties
    /// against stamina); destroyed and departed units count their whole start.
    pub cv_lost: [u32; 2],
    pub cv_start: [u32; 2],
}

/// A set of wargame rules that can fight a battle: what every tool (run, compare, balance,
/// sweep, replay, bench) needs of a ruleset, and all they know of it. The methods after `fight`
/// have default bodies, so a ruleset starts with the first five.
pub trait Ruleset: Sync {
    /// One battle's state, allocated once per thread and reused battle after battle.
    type Battle: Send;
    /// The name scenarios use for it (`ruleset = "..."`).
    fn name(&self) -> &'static str;
    /// The built-in text of its rules file (for the run's identity).
    fn builtin_text(&self) -> &'static str;
    /// The unit its losses are counted in, as measure and file names say it (`cv_lost`,
    /// `cv_losses.csv`); its [`Layout`] carries it into the reports.
    fn currency(&self) -> &'static str {
        "cv"
    }
    /// How an army of `setup` breaks under these rules, in words (`validate` prints it); by
    /// default unsaid.
    fn army_break(&self, _setup: &BattleSetup) -> String {
        "how an army breaks is not said by this ruleset".into()
    }
    /// The key that sets how an army breaks, and what its value is a share of: the rulesets
    /// do not read alike (Dickenson's counts what is left, not what is lost); by default none.
    fn army_break_key(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// What a scenario writer should know of how these rules read the order of battle of
    /// `setup` (`validate` notes each line); by default nothing.
    fn cautions(&self, _setup: &BattleSetup) -> Vec<String> {
        Vec::new()
    }
    /// The turns (moves) a battle of `setup` lasts at most before it is a draw: the scenario's
    /// `turn_limit`, else the ruleset's own default; by default the set-up's (the scenario's,
    /// else the Ironsides rules').
    fn turn_limit(&self, setup: &BattleSetup) -> u16 {
        setup.turn_limit
    }
    /// The order of battle as its statistics see it (losses in the ruleset's own currency,
    /// what its commander casualties do).
    fn layout(&self, setup: &BattleSetup) -> Layout {
        Layout::of(setup)
    }
    /// State sized for this set-up.
    fn new_battle(&self, setup: &BattleSetup) -> Self::Battle;
    /// Fights one whole battle from its seed: the same seed gives the same events.
    fn fight<O: Observer>(
        &self,
        battle: &mut Self::Battle,
        setup: &BattleSetup,
        seed: u64,
        obs: &mut O,
    ) -> BattleSummary;

    /// What unit `unit` lost in the battle just fought, in the ruleset's currency (as
    /// [`BattleSummary::cv_lost`] counts a side's): what `--unit` measures. `None` when the
    /// ruleset does not say (the tools then refuse `--unit`).
    fn unit_lost(&self, battle: &Self::Battle, unit: UnitId) -> Option<u32> {
        let _ = (battle, unit);
        None
    }
    /// Readies `battle` for the battle of `seed` as its first turn finds it (ratings rolled,
    /// deployed) without fighting it: the replay's deployment. By default nothing.
    fn deploy(&self, battle: &mut Self::Battle, setup: &BattleSetup, seed: u64) {
        let _ = (battle, setup, seed);
    }
    /// The units as they stand in `battle`, for maps and replay pages; by default where the
    /// set-up placed them.
    fn units(&self, battle: &Self::Battle, setup: &BattleSetup) -> Vec<Unit> {
        let _ = battle;
        setup.units.clone()
    }
    /// The first of a battle's dice streams and how many it draws from (the bench's dice
    /// floor); `None` when the ruleset does not say.
    fn dice_streams(&self, battle: &Self::Battle, setup: &BattleSetup) -> Option<(u64, usize)> {
        let _ = (battle, setup);
        None
    }
}

/// The Ironsides rules with the scenario's doctrines.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ironsides;

impl Ruleset for Ironsides {
    type Battle = ironsides::battle::Battle;

    fn name(&self) -> &'static str {
        "ironsides"
    }

    /// By its CV lost: the scenario's `break_fraction` of its starting CV.
    fn army_break(&self, setup: &BattleSetup) -> String {
        let share = (setup.break_fraction * 100.0).round();
        format!("an army breaks at {share}% of its CV lost")
    }

    fn army_break_key(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "break_fraction",
            "the share of its CV lost at which an army breaks",
        ))
    }

    fn builtin_text(&self) -> &'static str {
        ironsides::tables::BUILTIN
    }

    /// CV, and the casualty tables' effects on commanders.
    fn layout(&self, setup: &BattleSetup) -> Layout {
        Layout {
            commander_effects: ironsides::generals::commander_effects(),
            ..Layout::of(setup)
        }
    }

    fn new_battle(&self, setup: &BattleSetup) -> Self::Battle {
        ironsides::battle::Battle::new(setup)
    }

    fn fight<O: Observer>(
        &self,
        battle: &mut Self::Battle,
        setup: &BattleSetup,
        seed: u64,
        obs: &mut O,
    ) -> BattleSummary {
        battle.fight(setup, seed, obs)
    }

    fn unit_lost(&self, battle: &Self::Battle, unit: UnitId) -> Option<u32> {
        battle
            .units
            .get(usize::from(unit))
            .map(ironsides::unit_cv_lost)
    }

    fn deploy(&self, battle: &mut Self::Battle, setup: &BattleSetup, seed: u64) {
        battle.reset(setup, seed, &mut crate::events::NullObserver);
    }

    fn units(&self, battle: &Self::Battle, _: &BattleSetup) -> Vec<Unit> {
        battle.units.clone()
    }

    fn dice_streams(&self, _: &Self::Battle, setup: &BattleSetup) -> Option<(u64, usize)> {
        Some((
            ironsides::battle::streams::BATTLE,
            ironsides::battle::Battle::dice_streams(setup),
        ))
    }
}

//! What a run was: its identity (program, scenario, ruleset, overrides, seed, battle count),
//! written as `manifest.json` beside a finished run's CSVs, and inside each shard's
//! `partial-K-of-M.json` with the shard's counts, so `merge` can check the partials belong
//! together.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::plural;
use crate::runner::Shard;
use crate::stats::{Histogram, Layout, Tally};

/// FNV-1a, 64 bits: a simple, stable hash of a file's bytes, written as 16 hex digits.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut h = Fnv::default();
    h.update(bytes);
    h.hex()
}

/// FNV-1a 64 fed piece by piece (a per-battle file as it is written or read).
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Everything that decides a run's results: two runs with equal identities write the same
/// CSVs, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    pub program: String,
    pub version: String,
    /// The scenario's display name.
    pub scenario: String,
    /// The scenario file as given (`configs/scenarios/marston_moor.toml` for a built-in).
    pub scenario_file: String,
    pub scenario_builtin: bool,
    /// FNV-1a 64 of the scenario file's text.
    pub scenario_hash: String,
    /// FNV-1a 64 of the ruleset file's text.
    pub ruleset_hash: String,
    /// The ruleset the battles were fought by (manifests from before it was recorded were
    /// all Ironsides).
    #[serde(default = "ironsides")]
    pub ruleset: String,
    /// Every `--set PATH=VALUE`, in order.
    pub overrides: Vec<String>,
    pub seed: u64,
    /// Battles in the whole run (every shard).
    pub battles: u64,
}

fn ironsides() -> String {
    "ironsides".into()
}

impl RunIdentity {
    /// This program's name and version.
    pub fn program() -> (String, String) {
        ("ecw-sim".into(), env!("CARGO_PKG_VERSION").into())
    }

    /// The first way `other` is a different run: what differs, its value in `self`, and its
    /// value in `other`. None if it is the same run. The scenario is compared by its text's
    /// hash, not by the path it was read from.
    pub fn difference(&self, other: &RunIdentity) -> Option<(&'static str, String, String)> {
        let d = |what, a: String, b: String| Some((what, a, b));
        if self.program != other.program || self.version != other.version {
            return d(
                "program",
                format!("{} {}", self.program, self.version),
                format!("{} {}", other.program, other.version),
            );
        }
        if self.scenario_hash != other.scenario_hash {
            return d(
                "scenario",
                format!("{} (hash {})", self.scenario_file, self.scenario_hash),
                format!("{} (hash {})", other.scenario_file, other.scenario_hash),
            );
        }
        if self.ruleset != other.ruleset {
            return d("ruleset", self.ruleset.clone(), other.ruleset.clone());
        }
        if self.ruleset_hash != other.ruleset_hash {
            return d(
                "ruleset hash",
                self.ruleset_hash.clone(),
                other.ruleset_hash.clone(),
            );
        }
        if self.overrides != other.overrides {
            return d(
                "overrides",
                format!("[{}]", self.overrides.join(", ")),
                format!("[{}]", other.overrides.join(", ")),
            );
        }
        if self.seed != other.seed {
            return d("seed", self.seed.to_string(), other.seed.to_string());
        }
        if self.battles != other.battles {
            return d(
                "battle count",
                self.battles.to_string(),
                other.battles.to_string(),
            );
        }
        None
    }
}

/// How long it took: machine-dependent, so kept apart from everything else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Seconds from the first battle to the last (summed over the shards of a merged run).
    pub wall_time_s: f64,
    pub battles_per_second: f64,
    /// Worker threads (the most any shard used).
    pub threads: usize,
    /// Shards the results came from (1 for a single run).
    pub shards: u32,
    /// Peak resident memory in KiB (the largest of the shards'), where the system reports it.
    pub peak_memory_kib: Option<u64>,
}

impl Timing {
    pub fn new(battles: u64, wall_time_s: f64, threads: usize, shards: u32) -> Timing {
        Timing {
            wall_time_s,
            battles_per_second: if wall_time_s > 0.0 {
                battles as f64 / wall_time_s
            } else {
                0.0
            },
            threads,
            shards,
            peak_memory_kib: crate::runner::peak_memory_kib(),
        }
    }
}

/// `manifest.json`: what a finished run's CSVs are the results of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    #[serde(flatten)]
    pub run: RunIdentity,
    /// Always absent in a finished run: a shard writes a partial result instead.
    pub shard: Option<Shard>,
    pub batch_size: u64,
    pub per_battle: bool,
    pub dice_rolled: u64,
    /// The files written, manifest last.
    pub files: Vec<String>,
    pub timing: Timing,
}

/// The format tag of a partial result file (2: with checksums).
pub const PARTIAL_FORMAT: &str = "ecw-sim partial result 2";

/// The largest partial result read: far above any real order of battle's, and a bound on
/// what a damaged or hostile file can make `merge` allocate.
pub const MAX_PARTIAL_BYTES: u64 = 256 * 1024 * 1024;

/// `partial-K-of-M.json`: one shard's counts, and all `merge` needs to finish the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    pub format: String,
    #[serde(flatten)]
    pub run: RunIdentity,
    pub shard: Shard,
    /// The battle indices fought: `first_battle..end_battle`.
    pub first_battle: u64,
    pub end_battle: u64,
    pub batch_size: u64,
    /// Whether `partial-K-of-M.battles.csv` holds a row per battle.
    pub per_battle: bool,
    pub layout: Layout,
    pub tally: Tally,
    pub timing: Timing,
    /// FNV-1a 64 of `partial-K-of-M.battles.csv`, byte for byte (with `per_battle`).
    pub battles_checksum: Option<String>,
    /// FNV-1a 64 of everything above except the timing, as compact JSON ([`Partial::content`]):
    /// an edited count, range or per-battle checksum no longer matches it.
    pub checksum: String,
}

impl Partial {
    /// The bytes the checksum covers: the partial as compact JSON without its timing and
    /// checksum.
    fn content(&self) -> Vec<u8> {
        let mut p = self.clone();
        p.checksum.clear();
        p.timing = Timing {
            wall_time_s: 0.0,
            battles_per_second: 0.0,
            threads: 0,
            shards: 0,
            peak_memory_kib: None,
        };
        serde_json::to_vec(&p).expect("a partial result serialises")
    }

    /// Sets the checksum over the content.
    pub fn seal(mut self) -> Partial {
        self.checksum = fnv1a64(&self.content());
        self
    }

    /// Reads a partial result, checking its format, checksum and internal totals, naming the
    /// file in any error.
    pub fn read(path: &Path) -> Result<Partial> {
        let bytes = crate::io::read_bytes(path, MAX_PARTIAL_BYTES)?;
        let refuse = |why: String| Error::Refused(format!("{}: {why}", path.display()));
        let value: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| refuse(format!("not an ecw-sim partial result: {e}")))?;
        let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if format != PARTIAL_FORMAT {
            return Err(refuse(format!(
                "format `{format}`, but this ecw-sim reads `{PARTIAL_FORMAT}` (run the shard again with this version)"
            )));
        }
        let p: Partial = serde_json::from_value(value)
            .map_err(|e| refuse(format!("not an ecw-sim partial result: {e}")))?;
        let sum = fnv1a64(&p.content());
        if sum != p.checksum {
            return Err(refuse(format!(
                "checksum {} does not match its content ({sum}): the file was changed or damaged",
                p.checksum
            )));
        }
        check_totals(&p.tally, &p.layout).map_err(refuse)?;
        Ok(p)
    }
}

/// The largest magnitude of a value in a distribution (CV, turns, units): far above any real
/// battle's, and a bound on the memory a merge of damaged files can ask for.
const HISTOGRAM_REACH: i64 = 1 << 20;

/// Every count of a tally added up, or None if that overflows: when the shards' masses add up
/// without overflow, so does every count of their merge.
pub fn mass(t: &Tally) -> Option<u64> {
    let h = |h: &Histogram| h.iter().try_fold(0u64, |s, (_, c)| s.checked_add(c));
    let entity = |e: &crate::stats::EntityTally| -> Option<u64> {
        [
            h(&e.cv_lost)?,
            h(&e.units_destroyed)?,
            h(&e.pursuit_turns)?,
            e.routed,
            e.destroyed,
            e.ended_broken,
            e.melee_won,
            e.pursued_after_win,
            e.first_halt_tests,
            e.halted_first,
            e.pursuits,
            e.lost_in_pursuit,
            e.camp_taken,
        ]
        .iter()
        .try_fold(0u64, |s, &c| s.checked_add(c))
    };
    let mut sum = [t.battles, t.dice_rolled, t.wins[0], t.wins[1], t.draws]
        .iter()
        .try_fold(0u64, |s, &c| s.checked_add(c))?;
    sum = sum.checked_add(h(&t.turns)?)?.checked_add(h(&t.margin)?)?;
    for e in t.units.iter().chain(&t.commands).chain(&t.sides) {
        sum = sum.checked_add(entity(e)?)?;
    }
    for c in &t.commanders {
        let counts = [
            c.casualty,
            c.casualties,
            c.captured,
            c.lost,
            h(&c.turns_out)?,
        ];
        for x in counts.iter().chain(&c.results) {
            sum = sum.checked_add(*x)?;
        }
    }
    for r in &t.ratings {
        sum = sum
            .checked_add(h(&r.rolled)?)?
            .checked_add(h(&r.side_won)?)?;
    }
    Some(sum)
}

/// Checks a tally's internal totals: wins, draws and every per-battle distribution add up to
/// its battle count; counts of battles never exceed it; the order of battle matches.
pub fn check_totals(t: &Tally, layout: &Layout) -> std::result::Result<(), String> {
    let n = t.battles;
    let add = |a: u64, b: u64| a.checked_add(b).ok_or("a count overflows".to_string());
    let decided = add(add(t.wins[0], t.wins[1])?, t.draws)?;
    if decided != n {
        return Err(format!(
            "wins {} + {} and draws {} make {decided}, not its {n} battles",
            t.wins[0], t.wins[1], t.draws
        ));
    }
    let total = |h: &Histogram| {
        if let Some((lo, hi)) = h.bounds()
            && (lo < -HISTOGRAM_REACH || hi > HISTOGRAM_REACH)
        {
            return Err(format!(
                "a distribution holds the value {}, beyond any battle's",
                if lo < -HISTOGRAM_REACH { lo } else { hi }
            ));
        }
        h.iter().try_fold(0u64, |s, (_, c)| add(s, c))
    };
    let exactly = |what: &str, h: &Histogram, want: u64| match total(h)? {
        got if got == want => Ok(()),
        got => Err(format!("{what} counts {got} battles, not {want}")),
    };
    exactly("battle_length_turns", &t.turns, n)?;
    exactly("break_margin_cv", &t.margin, t.wins[0] + t.wins[1])?;
    if t.units.len() != layout.units.len()
        || t.commands.len() != layout.commands.len()
        || t.commanders.len() != layout.commanders.len()
    {
        return Err("its counts do not match its order of battle".into());
    }
    let entities = t.units.iter().chain(&t.commands).chain(&t.sides);
    for e in entities {
        exactly("cv_lost", &e.cv_lost, n)?;
        let at_most = [
            e.routed,
            e.destroyed,
            e.ended_broken,
            e.melee_won,
            e.lost_in_pursuit,
            e.camp_taken,
        ];
        if at_most.iter().any(|&c| c > n) || e.pursued_after_win > e.melee_won {
            return Err(format!("a count of battles exceeds its {n} battles"));
        }
        total(&e.units_destroyed)?;
        total(&e.pursuit_turns)?;
    }
    for c in &t.commanders {
        let battles = [c.casualty, c.captured, c.lost];
        if battles.iter().chain(&c.results).any(|&x| x > n) {
            return Err(format!("a commander's count exceeds its {n} battles"));
        }
        total(&c.turns_out)?;
    }
    for r in &t.ratings {
        total(&r.rolled)?;
        total(&r.side_won)?;
    }
    Ok(())
}

/// Reads a manifest.
pub fn read_manifest(path: &Path) -> Result<Manifest> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Error::Usage(format!("{}: not an ecw-sim manifest: {e}", path.display())))
}

/// A layout's own measures as "n (name, name ...)" ("0" when it has none).
fn measure_names(l: &crate::stats::Layout) -> String {
    let names: Vec<&str> = l.measures.iter().map(|m| m.name.as_str()).collect();
    match names.len() {
        0 => "0".into(),
        n => format!("{n} ({})", names.join(", ")),
    }
}

/// Partial results that belong together, in shard order, with the files they came from.
#[derive(Debug)]
pub struct Shards {
    pub parts: Vec<(PathBuf, Partial)>,
}

impl Shards {
    /// Checks that the partials are the shards 1..=M of one run, each once: the same program
    /// version, scenario, ruleset, overrides, seed, battle count, shard count and per-battle
    /// setting, each covering its own battles. Errors name the offending shard and file.
    pub fn check(mut parts: Vec<(PathBuf, Partial)>) -> Result<Shards> {
        if parts.is_empty() {
            return Err(Error::Refused("no partial results to merge".into()));
        }
        parts.sort_by_key(|(path, p)| (p.shard.index, path.clone()));
        let (ref_path, first) = &parts[0];
        let name = |path: &Path, p: &Partial| format!("{} (shard {})", path.display(), p.shard);
        let reference = name(ref_path, first);
        for (path, p) in &parts[1..] {
            same_run(&name(path, p), &reference, p, first)?;
        }
        each_shard_once(&parts)?;
        for (path, p) in &parts {
            holds_its_battles(&name(path, p), p)?;
        }
        Ok(Shards { parts })
    }

    /// The run's counts: the shards' tallies added in shard (battle-index) order. A sum that
    /// would overflow is refused.
    pub fn tally(&self) -> Result<Tally> {
        let mut masses = self.parts.iter().map(|(_, p)| mass(&p.tally));
        if masses.try_fold(0u64, |s, m| s.checked_add(m?)).is_none() {
            return Err(Error::Refused(
                "the partial results' counts overflow when added: they were changed or damaged"
                    .into(),
            ));
        }
        let mut total = Tally::new(&self.parts[0].1.layout);
        for (_, p) in &self.parts {
            total.merge(&p.tally)?;
        }
        Ok(total)
    }

    /// The merged run's timing: wall time and battles summed, the most threads and memory.
    pub fn timing(&self) -> Timing {
        let wall: f64 = self.parts.iter().map(|(_, p)| p.timing.wall_time_s).sum();
        let battles: u64 = self.parts.iter().map(|(_, p)| p.tally.battles).sum();
        Timing {
            wall_time_s: wall,
            battles_per_second: if wall > 0.0 {
                battles as f64 / wall
            } else {
                0.0
            },
            threads: self
                .parts
                .iter()
                .map(|(_, p)| p.timing.threads)
                .max()
                .unwrap_or(1),
            shards: self.parts[0].1.shard.count,
            peak_memory_kib: self
                .parts
                .iter()
                .filter_map(|(_, p)| p.timing.peak_memory_kib)
                .max(),
        }
    }
}

/// Refuses partial `p` (named `this`) unless it is of the same run as `first` (named
/// `reference`): the same run, shard count, per-battle setting, measures and order of battle.
fn same_run(this: &str, reference: &str, p: &Partial, first: &Partial) -> Result<()> {
    if let Some((what, theirs, this_one)) = first.run.difference(&p.run) {
        return Err(Error::Refused(format!(
            "{this} is from a different run than {reference}: {what} {this_one}, not {theirs}"
        )));
    }
    if p.shard.count != first.shard.count {
        return Err(Error::Refused(format!(
            "{this} is one of {} shards, but {reference} is one of {}",
            p.shard.count, first.shard.count
        )));
    }
    if p.per_battle != first.per_battle {
        return Err(Error::Refused(format!(
            "{this} was run {} --per-battle, but {reference} {}",
            if p.per_battle { "with" } else { "without" },
            if first.per_battle { "with" } else { "without" }
        )));
    }
    if p.layout.measures != first.layout.measures {
        return Err(Error::Refused(format!(
            "{this} counts other measures of the ruleset's own than {reference}: {}, not {}; written by another build of ecw-sim: fight every shard with one build",
            measure_names(&p.layout),
            measure_names(&first.layout)
        )));
    }
    if p.layout != first.layout {
        return Err(Error::Refused(format!(
            "{this} has a different order of battle from {reference}"
        )));
    }
    Ok(())
}

/// Refuses shards given twice or missing: `parts` sorted by shard, each of 1..=M once.
fn each_shard_once(parts: &[(PathBuf, Partial)]) -> Result<()> {
    let first = &parts[0].1;
    for w in parts.windows(2) {
        if w[0].1.shard == w[1].1.shard {
            return Err(Error::Refused(format!(
                "shard {} is given twice: {} and {}",
                w[0].1.shard,
                w[0].0.display(),
                w[1].0.display()
            )));
        }
    }
    let m = first.shard.count;
    let have: Vec<u32> = parts.iter().map(|(_, p)| p.shard.index).collect();
    let missing: Vec<String> = (1..=m)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{m}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Refused(format!(
            "{} {} of {} missing (have {})",
            plural(missing.len() as u64, "shard", "shards"),
            missing.join(", "),
            first.run.scenario,
            parts
                .iter()
                .map(|(_, p)| p.shard.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// Refuses partial `p` (named `this`) unless it holds exactly its shard's battles.
fn holds_its_battles(this: &str, p: &Partial) -> Result<()> {
    let want = p.shard.range(p.run.battles);
    if p.first_battle != want.start
        || p.end_battle != want.end
        || p.tally.battles != want.end - want.start
    {
        return Err(Error::Refused(format!(
            "{}: holds {} battles ({}..{}), but shard {} of a {}-battle run is battles {}..{}",
            this,
            p.tally.battles,
            p.first_battle,
            p.end_battle,
            p.shard,
            p.run.battles,
            want.start,
            want.end
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::testing::layout;

    #[test]
    fn fnv1a64_known_values() {
        // The FNV reference test vectors.
        assert_eq!(fnv1a64(b""), "cbf29ce484222325");
        assert_eq!(fnv1a64(b"a"), "af63dc4c8601ec8c");
        assert_eq!(fnv1a64(b"foobar"), "85944171f73967e8");
    }

    fn identity() -> RunIdentity {
        let (program, version) = RunIdentity::program();
        RunIdentity {
            program,
            version,
            scenario: "Test".into(),
            scenario_file: "t.toml".into(),
            scenario_builtin: false,
            scenario_hash: fnv1a64(b"t"),
            ruleset_hash: fnv1a64(b"r"),
            ruleset: "ironsides".into(),
            overrides: vec![],
            seed: 1,
            battles: 10,
        }
    }

    fn partial(k: u32, m: u32) -> (PathBuf, Partial) {
        let l = layout();
        let shard = Shard { index: k, count: m };
        let r = shard.range(10);
        let mut tally = Tally::new(&l);
        tally.battles = r.end - r.start;
        (
            PathBuf::from(format!("d{k}/{}.json", shard.file_stem())),
            Partial {
                format: PARTIAL_FORMAT.into(),
                run: identity(),
                shard,
                first_battle: r.start,
                end_battle: r.end,
                batch_size: 256,
                per_battle: false,
                layout: l,
                tally,
                timing: Timing::new(r.end - r.start, 1.0, 1, 1),
                battles_checksum: None,
                checksum: String::new(),
            }
            .seal(),
        )
    }

    #[test]
    fn a_complete_set_of_shards_passes_in_any_order() {
        let s = Shards::check(vec![partial(3, 3), partial(1, 3), partial(2, 3)]).unwrap();
        let order: Vec<u32> = s.parts.iter().map(|(_, p)| p.shard.index).collect();
        assert_eq!(order, [1, 2, 3]);
        assert_eq!(s.tally().unwrap().battles, 10);
        assert_eq!(s.timing().shards, 3);
    }

    #[test]
    fn mismatched_missing_and_repeated_shards_are_named() {
        let err = |parts| Shards::check(parts).unwrap_err().to_string();
        let mut other_seed = partial(2, 3);
        other_seed.1.run.seed = 7;
        let e = err(vec![partial(1, 3), other_seed, partial(3, 3)]);
        assert!(
            e.contains("d2/partial-2-of-3.json (shard 2/3)") && e.contains("seed 7, not 1"),
            "{e}"
        );

        let mut other_scenario = partial(3, 3);
        other_scenario.1.run.scenario_hash = fnv1a64(b"other");
        let e = err(vec![partial(1, 3), partial(2, 3), other_scenario]);
        assert!(e.contains("shard 3/3") && e.contains("scenario"), "{e}");

        let mut other_version = partial(2, 3);
        other_version.1.run.version = "9.9.9".into();
        let e = err(vec![partial(1, 3), other_version, partial(3, 3)]);
        assert!(e.contains("shard 2/3") && e.contains("9.9.9"), "{e}");

        let e = err(vec![partial(1, 3), partial(3, 3)]);
        assert!(e.contains("shard 2/3 of Test missing"), "{e}");

        let e = err(vec![
            partial(1, 3),
            partial(2, 3),
            partial(2, 3),
            partial(3, 3),
        ]);
        assert!(e.contains("shard 2/3 is given twice"), "{e}");

        let e = err(vec![partial(1, 2), partial(2, 3), partial(3, 3)]);
        assert!(
            e.contains("one of 3 shards") && e.contains("one of 2"),
            "{e}"
        );

        let mut other_count = partial(2, 2);
        other_count.1.run.battles = 12;
        let e = err(vec![partial(1, 2), other_count]);
        assert!(e.contains("battle count 12, not 10"), "{e}");

        let mut short = partial(2, 2);
        short.1.tally.battles -= 1;
        let e = err(vec![partial(1, 2), short]);
        assert!(
            e.contains("shard 2/2") && e.contains("holds 4 battles"),
            "{e}"
        );
    }
}

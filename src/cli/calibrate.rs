//! `ecw-sim calibrate`: every built-in historical battle (a scenario with a `[history]` table)
//! fought under every ruleset, the simulated odds set beside what happened on the day. The table
//! shows users how far to trust absolute numbers; nothing is ever tuned to improve it.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::army::{Arm, Side, UnitId};
use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::events::{Event, LossCause, Observer, Outcome};
use crate::report::thousands;
use crate::rules::black_powder::events::Detail;
use crate::rules::dickenson::events::Detail as DkDetail;
use crate::rules::{RULESETS, Ruleset, WithRuleset, with_ruleset};
use crate::scenario::schema::{HistoricalResult, HistorySpec};
use crate::scenario::{BUILTIN, Scenario};
use crate::setup::BattleSetup;
use crate::stats::wilson;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario files or built-in names, each with a `[history]` table [default: every built-in
    /// historical battle]
    pub scenarios: Vec<String>,
    /// Battles fought for each historical battle under each ruleset
    #[arg(long, default_value_t = 10_000)]
    pub battles: u64,
    /// Master seed: battle i of every scenario is fought from a seed made of this and i alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: every core]
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: output/calibrate-<seed>/]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite a calibration table already in the output folder
    #[arg(long)]
    pub force: bool,
    /// No table on the terminal
    #[arg(long)]
    pub quiet: bool,
}

/// One battle as calibration needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fought {
    pub outcome: Outcome,
    pub turns: u16,
    /// The arm that took the most CV from the loser (from both armies in a draw); None when no
    /// CV was taken by anyone.
    pub deciding_arm: Option<Arm>,
}

/// Battles `0..n` of master seed `seed` under the ruleset named (one of [`RULESETS`]), in index
/// order (on the current rayon pool, one engine per worker: the same records whatever the
/// thread count). Refused as interrupted once `stop` is set: the battles after it are not fought.
pub fn fight_under(
    ruleset: &str,
    setup: &BattleSetup,
    (seed, n): (u64, u64),
    stop: &AtomicBool,
) -> Result<Vec<Fought>> {
    let fought = with_ruleset(
        ruleset,
        FightAll {
            setup,
            seed,
            n,
            stop,
        },
    )?;
    // A signal leaves the battles after it unfought: the table would count too few.
    match fought.len() as u64 == n {
        true => Ok(fought),
        false => Err(Error::Interrupted(format!(
            "stopped after {} of {n} battles of {} under {ruleset}; nothing was written",
            fought.len(),
            setup.name
        ))),
    }
}

/// The battles of one scenario under whichever ruleset [`with_ruleset`] picks.
struct FightAll<'a> {
    setup: &'a BattleSetup,
    seed: u64,
    n: u64,
    stop: &'a AtomicBool,
}

impl WithRuleset for FightAll<'_> {
    type Output = Vec<Fought>;
    fn with<R: Ruleset>(self, rules: &R) -> Vec<Fought> {
        fight_all(rules, self.setup, (self.seed, self.n), self.stop)
    }
}

/// The battles, each unless `stop` was set before it began (those are left out).
fn fight_all<R: Ruleset>(
    rules: &R,
    setup: &BattleSetup,
    (seed, n): (u64, u64),
    stop: &AtomicBool,
) -> Vec<Fought> {
    (0..n)
        .into_par_iter()
        .map_init(
            || (rules.new_battle(setup), ArmLosses::new(setup)),
            |(battle, obs), i| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                obs.clear();
                let summary = rules.fight(battle, setup, battle_seed(seed, i), obs);
                Some(Fought {
                    outcome: summary.outcome,
                    turns: summary.turns,
                    deciding_arm: obs.deciding_arm(summary.outcome),
                })
            },
        )
        .flatten()
        .collect()
}

/// Counts the losses (CV, or casualties against stamina) each side suffered from each arm of
/// the enemy: a loss to fire goes to the last unit that hit (or, under Black Powder, shot at)
/// the victim, a loss in melee to its last opponent in melee (under Black Powder, the regiment
/// that charged it home or fought it a round). Pursuit, camp and general losses are no arm's
/// doing and are not counted.
pub struct ArmLosses {
    arms: Vec<Arm>,
    sides: Vec<Side>,
    last_shooter: Vec<Option<UnitId>>,
    last_foe: Vec<Option<UnitId>>,
    /// By the losing side's index, then by the arm that inflicted the loss.
    lost_to: [[u32; 4]; 2],
}

fn arm_index(a: Arm) -> usize {
    match a {
        Arm::Horse => 0,
        Arm::Foot => 1,
        Arm::Dragoons => 2,
        Arm::Artillery => 3,
    }
}

const ARMS: [Arm; 4] = [Arm::Horse, Arm::Foot, Arm::Dragoons, Arm::Artillery];

/// The arm's name as the scenario files write it.
pub fn arm_name(a: Arm) -> &'static str {
    match a {
        Arm::Horse => "horse",
        Arm::Foot => "foot",
        Arm::Dragoons => "dragoons",
        Arm::Artillery => "artillery",
    }
}

impl ArmLosses {
    pub fn new(setup: &BattleSetup) -> ArmLosses {
        let n = setup.units.len();
        ArmLosses {
            arms: setup.units.iter().map(|u| u.kind.arm()).collect(),
            sides: setup.units.iter().map(|u| u.side).collect(),
            last_shooter: vec![None; n],
            last_foe: vec![None; n],
            lost_to: [[0; 4]; 2],
        }
    }

    fn clear(&mut self) {
        self.last_shooter.fill(None);
        self.last_foe.fill(None);
        self.lost_to = [[0; 4]; 2];
    }

    /// `amount` lost by `unit` to enemy `by`: counted against `by`'s arm.
    fn lose(&mut self, unit: UnitId, by: UnitId, amount: u32) {
        let side = self.sides[usize::from(unit)].index();
        self.lost_to[side][arm_index(self.arms[usize::from(by)])] += amount;
    }

    /// CV `side` lost to each arm of the enemy, horse, foot, dragoons, artillery.
    pub fn lost_to(&self, side: Side) -> [u32; 4] {
        self.lost_to[side.index()]
    }

    /// The arm that took the most CV from the loser, or from both armies in a draw (ties go to
    /// the arm listed first: horse, foot, dragoons, artillery).
    pub fn deciding_arm(&self, outcome: Outcome) -> Option<Arm> {
        let losses = match outcome {
            Outcome::Won(w) => self.lost_to(w.other()),
            Outcome::Draw => {
                let (a, b) = (self.lost_to[0], self.lost_to[1]);
                std::array::from_fn(|i| a[i] + b[i])
            }
        };
        let best = *losses.iter().max()?;
        (best > 0).then(|| ARMS[losses.iter().position(|&x| x == best).unwrap_or(0)])
    }
}

impl Observer for ArmLosses {
    fn wants(&self, e: &Event) -> bool {
        matches!(
            e,
            Event::Fired { hit: true, .. }
                | Event::Melee { .. }
                | Event::CvLost { .. }
                | Event::BlackPowder(
                    Detail::Volley { .. }
                        | Detail::Charge { home: true, .. }
                        | Detail::MeleeRound { .. }
                )
                | Event::Dickenson(
                    DkDetail::Volley { .. } | DkDetail::GunShot { .. } | DkDetail::Losses { .. }
                )
        )
    }

    fn event(&mut self, e: &Event) {
        match *e {
            Event::Fired {
                unit,
                target,
                hit: true,
                ..
            }
            | Event::BlackPowder(Detail::Volley { unit, target, .. })
            | Event::Dickenson(
                DkDetail::Volley { unit, target, .. } | DkDetail::GunShot { unit, target, .. },
            ) => self.last_shooter[usize::from(target)] = Some(unit),
            Event::Melee {
                attacker: a,
                defender: b,
                ..
            }
            | Event::BlackPowder(
                Detail::Charge {
                    unit: a,
                    target: b,
                    home: true,
                    ..
                }
                | Detail::MeleeRound { a, b, .. },
            ) => {
                self.last_foe[usize::from(a)] = Some(b);
                self.last_foe[usize::from(b)] = Some(a);
            }
            Event::CvLost {
                unit,
                amount,
                cause,
                ..
            } => {
                let by = match cause {
                    LossCause::Fire => self.last_shooter[usize::from(unit)],
                    LossCause::Melee => self.last_foe[usize::from(unit)],
                    _ => None,
                };
                if let Some(by) = by {
                    self.lose(unit, by, u32::from(amount));
                }
            }
            // Dickenson's officers and standard struck are figures lost too, which its CV (rank
            // and file) leaves out: a regiment can lose only them, and break on them.
            Event::Dickenson(DkDetail::Losses {
                unit,
                by,
                officers,
                standard,
                ..
            }) => self.lose(unit, by, u32::from(officers) + u32::from(standard)),
            _ => {}
        }
    }
}

/// One line of the table: a historical battle under one ruleset.
#[derive(Debug, Clone)]
pub struct Row {
    pub scenario: String,
    pub battle: String,
    pub ruleset: &'static str,
    pub history: HistorySpec,
    pub battles: u64,
    /// Battles won by Parliament, by the Royalists, drawn.
    pub wins: [u64; 3],
    pub turns_median: u16,
    pub turns_q05: u16,
    pub turns_q95: u16,
    /// Battles each arm decided (horse, foot, dragoons, artillery), and those no arm decided.
    pub arm_counts: [u64; 4],
}

impl Row {
    pub fn from_battles(
        scenario: &str,
        battle: &str,
        ruleset: &'static str,
        history: &HistorySpec,
        fought: &[Fought],
    ) -> Row {
        let mut wins = [0u64; 3];
        let mut arm_counts = [0u64; 4];
        for f in fought {
            wins[result_index(f.outcome)] += 1;
            if let Some(a) = f.deciding_arm {
                arm_counts[arm_index(a)] += 1;
            }
        }
        let mut turns: Vec<u16> = fought.iter().map(|f| f.turns).collect();
        turns.sort_unstable();
        let q = |p: f64| turns[((turns.len() - 1) as f64 * p).round() as usize];
        Row {
            scenario: scenario.to_string(),
            battle: battle.to_string(),
            ruleset,
            history: history.clone(),
            battles: fought.len() as u64,
            wins,
            turns_median: q(0.5),
            turns_q05: q(0.05),
            turns_q95: q(0.95),
            arm_counts,
        }
    }

    /// Battles that ended as the day did.
    pub fn historical_count(&self) -> u64 {
        self.wins[match self.history.winner {
            HistoricalResult::Parliament => 0,
            HistoricalResult::Royalist => 1,
            HistoricalResult::Draw => 2,
        }]
    }

    /// The arm that decided most battles, and in how many.
    pub fn modal_arm(&self) -> Option<(Arm, u64)> {
        let best = *self.arm_counts.iter().max()?;
        (best > 0).then(|| {
            let i = self.arm_counts.iter().position(|&x| x == best).unwrap_or(0);
            (ARMS[i], best)
        })
    }
}

fn result_index(o: Outcome) -> usize {
    match o {
        Outcome::Won(Side::Parliament) => 0,
        Outcome::Won(Side::Royalist) => 1,
        Outcome::Draw => 2,
    }
}

/// The built-in scenarios of real battles, in the order they were fought.
pub fn historical_scenarios() -> Result<Vec<Scenario>> {
    let mut found = Vec::new();
    for (name, _) in BUILTIN.iter() {
        let s = Scenario::load_builtin(name, &[])?;
        if let Some(h) = &s.file().history {
            found.push((h.date.clone(), s));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found.into_iter().map(|(_, s)| s).collect())
}

/// The scenarios named, each of which must say what happened on the day; every built-in
/// historical battle when none is named.
pub fn chosen_scenarios(names: &[String]) -> Result<Vec<Scenario>> {
    if names.is_empty() {
        return historical_scenarios();
    }
    names
        .iter()
        .map(|n| {
            let s = Scenario::open(n, &[])?;
            if s.file().history.is_none() {
                return Err(Error::Usage(format!(
                    "{}: calibration needs a [history] table (date, winner, decided_by) saying what happened on the day",
                    s.path().display()
                )));
            }
            Ok(s)
        })
        .collect()
}

/// Fights each scenario under every ruleset: one row each, in the scenarios' order.
pub fn calibrate(
    scenarios: &[Scenario],
    seed: u64,
    battles: u64,
    threads: usize,
) -> Result<Vec<Row>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start {threads} threads: {e}")))?;
    let stop = crate::runner::ctrl_c_flag();
    let mut rows = Vec::new();
    for scenario in scenarios {
        let setup = scenario.setup()?;
        let history = scenario
            .file()
            .history
            .clone()
            .expect("a historical scenario");
        let key = scenario
            .path()
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for ruleset in RULESETS {
            let fought = pool.install(|| fight_under(ruleset, &setup, (seed, battles), stop))?;
            rows.push(Row::from_battles(
                &key,
                &setup.name,
                ruleset,
                &history,
                &fought,
            ));
        }
    }
    Ok(rows)
}

fn pct(k: u64, n: u64) -> String {
    format!("{:.1}%", 100.0 * k as f64 / n.max(1) as f64)
}

fn arm_cell(row: &Row) -> String {
    match row.modal_arm() {
        Some((a, k)) => format!("{} ({})", arm_name(a), pct(k, row.battles)),
        None => "none".into(),
    }
}

/// The table as tidy CSV, one row per battle and ruleset.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "scenario,battle,date,ruleset,historical_result,historical_arm,battles,p_historical,ci95_low,ci95_high,p_parliament,p_royalist,p_draw,turns_median,turns_q05,turns_q95,sim_arm,sim_arm_share\n",
    );
    for r in rows {
        let e = wilson(r.historical_count(), r.battles).expect("battles were fought");
        let n = r.battles as f64;
        let (arm, share) = match r.modal_arm() {
            Some((a, k)) => (arm_name(a), k as f64 / n),
            None => ("none", 0.0),
        };
        out.push_str(&format!(
            "{},\"{}\",{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{},{},{:.6}\n",
            r.scenario,
            r.battle,
            r.history.date,
            r.ruleset,
            r.history.winner.name(),
            arm_name(r.history.decided_by),
            r.battles,
            e.estimate,
            e.low,
            e.high,
            r.wins[0] as f64 / n,
            r.wins[1] as f64 / n,
            r.wins[2] as f64 / n,
            r.turns_median,
            r.turns_q05,
            r.turns_q95,
            arm,
            share
        ));
    }
    out
}

/// The tables in Markdown, one per ruleset, for the terminal and docs/HISTORY.md.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    for &ruleset in RULESETS {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.ruleset == ruleset).collect();
        if mine.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("Under {ruleset}:\n\n"));
        out.push_str(&ruleset_table(&mine));
    }
    out
}

/// One ruleset's table.
fn ruleset_table(rows: &[&Row]) -> String {
    let mut out = String::from(
        "| Battle | On the day | P(as on the day) [95%] | Parliament / Royalists / draw | Turns: median (90%) | Decided by: on the day | in the simulation |\n|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let e = wilson(r.historical_count(), r.battles).expect("battles were fought");
        out.push_str(&format!(
            "| {} | {} | {} [{:.1}-{:.1}%] | {} / {} / {} | {} ({}-{}) | {} | {} |\n",
            r.battle,
            r.history.winner.name(),
            pct(r.historical_count(), r.battles),
            100.0 * e.low,
            100.0 * e.high,
            pct(r.wins[0], r.battles),
            pct(r.wins[1], r.battles),
            pct(r.wins[2], r.battles),
            r.turns_median,
            r.turns_q05,
            r.turns_q95,
            arm_name(r.history.decided_by),
            arm_cell(r)
        ));
    }
    out
}

pub fn run(args: Args) -> Result<()> {
    if args.battles == 0 {
        return Err(Error::Usage(
            "--battles 0: calibration needs at least one battle".into(),
        ));
    }
    let threads = args.threads.unwrap_or_else(crate::runner::default_threads);
    if threads == 0 {
        return Err(Error::Usage("--threads 0: at least one thread".into()));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/calibrate-{}", args.seed)));
    // Checked and locked before the battles; refused over an earlier table unless --force.
    let dir = crate::report::OutDir::open(
        &out,
        crate::report::Contents::Result("calibration.csv"),
        args.force,
    )?;
    let started = std::time::Instant::now();
    let scenarios = chosen_scenarios(&args.scenarios)?;
    let rows = calibrate(&scenarios, args.seed, args.battles, threads)?;
    let md = markdown(&rows);
    let path = out.join("calibration.md");
    dir.write_files(&[
        ("calibration.csv".to_string(), csv(&rows).into_bytes()),
        ("calibration.md".to_string(), md.clone().into_bytes()),
    ])?;
    if !args.quiet {
        say!(
            "Calibration: {} historical battle(s) x {} ruleset(s), {} battles each, seed {} ({:.1} s on {} threads)\n",
            rows.len() / RULESETS.len(),
            RULESETS.len(),
            thousands(args.battles),
            args.seed,
            started.elapsed().as_secs_f64(),
            threads
        );
        super::print_out(&md)?;
        say!(
            "\nNothing is tuned to this table: it shows how far to trust the absolute numbers.\nResults in {} (calibration.csv, calibration.md)",
            path.parent().unwrap_or(&out).display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(winner: HistoricalResult) -> HistorySpec {
        HistorySpec {
            date: "1643-07-13".into(),
            winner,
            decided_by: Arm::Horse,
            summary: None,
        }
    }

    #[test]
    fn rows_count_results_turns_and_arms() {
        let f = |outcome, turns, deciding_arm| Fought {
            outcome,
            turns,
            deciding_arm,
        };
        let fought = [
            f(Outcome::Won(Side::Royalist), 4, Some(Arm::Horse)),
            f(Outcome::Won(Side::Royalist), 6, Some(Arm::Horse)),
            f(Outcome::Won(Side::Parliament), 5, Some(Arm::Foot)),
            f(Outcome::Draw, 16, None),
        ];
        let r = Row::from_battles(
            "x",
            "X",
            "ironsides",
            &history(HistoricalResult::Royalist),
            &fought,
        );
        assert_eq!(r.wins, [1, 2, 1]);
        assert_eq!(r.historical_count(), 2);
        assert_eq!((r.turns_q05, r.turns_median, r.turns_q95), (4, 6, 16));
        assert_eq!(r.modal_arm(), Some((Arm::Horse, 2)));
        let draw = Row::from_battles(
            "x",
            "X",
            "ironsides",
            &history(HistoricalResult::Draw),
            &fought,
        );
        assert_eq!(draw.historical_count(), 1);
        let text = csv(&[r]);
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .contains(",royalist,horse,4,0.500000,"),
            "{text}"
        );
    }
}

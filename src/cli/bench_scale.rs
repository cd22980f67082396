//! `ecw-sim bench --scale`: how a battle's cost grows with its units. Generated battles
//! (`scenario::generate`: mirror-image armies on the same ground density) of each size are
//! fought on one thread for a while each; the time per battle and per unit is printed, and the
//! exponent of the fitted power law (least squares on log-log: 1 is linear). Times are the
//! thread's CPU time (the wall clock is printed beside it), so that other work on a shared
//! machine does not bend the curve.

use std::io::ErrorKind;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use plotters::style::RGBColor;

use crate::charts::{self, Axes, Series};
use crate::dice::battle_seed;
use crate::error::{Error, Result};
use crate::events::NullObserver;
use crate::rules::{RULESETS, Ruleset, WithRuleset};
use crate::scenario::generate;

#[derive(Debug, Clone, clap::Args)]
pub struct ScaleArgs {
    /// Measure how a battle's cost grows with its units: generated battles of each of --sizes,
    /// fought on one thread (--seed applies; --battles, --threads and --set do not; --ruleset
    /// all measures every ruleset in turn, on one chart)
    #[arg(long)]
    pub scale: bool,
    /// Units in each generated battle of --scale (even numbers, comma-separated)
    #[arg(long, value_delimiter = ',', default_values_t = [50, 100, 200, 500, 1000, 2000])]
    pub sizes: Vec<usize>,
    /// Seconds of battles for each size of --scale (at least one battle each)
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Write the --scale curve (time per unit against units) as an SVG chart to this file
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Overwrite an existing --chart file
    #[arg(long)]
    pub force: bool,
}

/// The battles of one size: how many, how long in all (CPU time and wall clock), the quickest
/// and slowest (CPU time), and turns.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub units: usize,
    pub battles: u64,
    pub cpu: Duration,
    pub wall: Duration,
    pub fastest: Duration,
    pub slowest: Duration,
    pub turns: u64,
}

impl Measured {
    /// Mean CPU seconds per battle.
    pub fn per_battle(&self) -> f64 {
        self.cpu.as_secs_f64() / self.battles as f64
    }
}

/// The CPU time this thread has used (zero where the system cannot tell).
pub(super) fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec this function owns.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Fights generated battles of `units` units from `seed` under `rules`, battle after battle in
/// one reused battle, until `seconds` have passed (at least one battle).
pub fn measure<R: Ruleset>(rules: &R, units: usize, seed: u64, seconds: f64) -> Result<Measured> {
    let setup = generate::generated(units)?.setup()?;
    let mut battle = rules.new_battle(&setup);
    let mut m = Measured {
        units,
        battles: 0,
        cpu: Duration::ZERO,
        wall: Duration::ZERO,
        fastest: Duration::MAX,
        slowest: Duration::ZERO,
        turns: 0,
    };
    while m.battles == 0 || m.wall.as_secs_f64() < seconds {
        super::bench::interrupted()?;
        let (t, c) = (Instant::now(), thread_cpu());
        let s = rules.fight(
            &mut battle,
            &setup,
            battle_seed(seed, m.battles),
            &mut NullObserver,
        );
        let (wall, e) = (t.elapsed(), thread_cpu().saturating_sub(c));
        m.battles += 1;
        m.cpu += e;
        m.wall += wall;
        m.fastest = m.fastest.min(e);
        m.slowest = m.slowest.max(e);
        m.turns += u64::from(s.turns);
    }
    Ok(m)
}

/// The least-squares line through `(ln x, ln y)`: its slope (the exponent of `y = a x^k`) and
/// the factor `a`. None for fewer than two distinct x or a value that is not positive.
pub fn fit_power(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.iter().any(|&(x, y)| !(x > 0.0 && y > 0.0)) {
        return None;
    }
    let n = points.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = points.iter().map(|&(x, y)| (x.ln(), y.ln())).unzip();
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxx: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    if sxx.is_nan() || sxx <= 1e-12 {
        return None;
    }
    let k = sxy / sxx;
    Some((k, (my - k * mx).exp()))
}

/// The chart of the curves, one a ruleset: microseconds per unit of a battle against the
/// units (flat is linear), with the quickest and slowest battle of each size as the interval;
/// a legend names each ruleset and its fitted exponent when there are several.
pub fn chart(curves: &[Curve]) -> charts::Chart {
    let per_unit = |d: f64, m: &Measured| d * 1e6 / m.units as f64;
    let labels: Vec<String> = curves
        .first()
        .map(|c| c.rows.iter().map(|m| m.units.to_string()).collect())
        .unwrap_or_default();
    let series: Vec<Series> = curves
        .iter()
        .enumerate()
        .map(|(k, c)| Series {
            name: match c.exponent {
                Some(e) => format!("{} (fitted exponent {e:.2})", c.ruleset),
                None => c.ruleset.to_string(),
            },
            colour: if curves.len() == 1 {
                charts::NEUTRAL
            } else {
                RULESET_COLOURS[k % RULESET_COLOURS.len()]
            },
            points: c
                .rows
                .iter()
                .map(|m| {
                    Some((
                        per_unit(m.per_battle(), m),
                        per_unit(m.fastest.as_secs_f64(), m),
                        per_unit(m.slowest.as_secs_f64(), m),
                    ))
                })
                .collect(),
        })
        .collect();
    let chart = charts::lines(
        &labels,
        &series,
        Axes {
            x: "units in the battle (generated, same ground density)",
            y: "CPU µs per unit per battle",
            percent: false,
        },
    );
    let legend: Vec<(String, RGBColor)> = series.into_iter().map(|s| (s.name, s.colour)).collect();
    charts::with_legend(chart, &legend)
}

/// Neither side's colours (orange and blue are the armies'): black, bluish green, purple.
const RULESET_COLOURS: [RGBColor; 3] = [
    charts::OKABE_ITO[0],
    charts::OKABE_ITO[3],
    charts::OKABE_ITO[7],
];

/// One ruleset's measured sizes and the exponent fitted to them.
pub struct Curve {
    pub ruleset: &'static str,
    pub rows: Vec<Measured>,
    pub exponent: Option<f64>,
}

/// The sizes measured under one ruleset.
struct Sizes<'a> {
    args: &'a ScaleArgs,
    seed: u64,
}

impl WithRuleset for Sizes<'_> {
    type Output = Result<Curve>;
    fn with<R: Ruleset>(self, rules: &R) -> Self::Output {
        say!(
            "ecw-sim bench --scale: generated battles under {}, seed {}, one thread, about {} s a size (CPU time of the thread; wall clock beside)",
            rules.name(),
            self.seed,
            self.args.seconds
        );
        say!(
            "  {:>6}  {:>7}  {:>13}  {:>11}  {:>11}  {:>11}  {:>6}",
            "units",
            "battles",
            "ms per battle",
            "µs per unit",
            "slowest ms",
            "wall ms",
            "turns"
        );
        let mut rows = Vec::with_capacity(self.args.sizes.len());
        for &n in &self.args.sizes {
            let m = measure(rules, n, self.seed, self.args.seconds)?;
            say!(
                "  {:>6}  {:>7}  {:>13.3}  {:>11.2}  {:>11.3}  {:>11.3}  {:>6.1}",
                n,
                m.battles,
                m.per_battle() * 1e3,
                m.per_battle() * 1e6 / n as f64,
                m.slowest.as_secs_f64() * 1e3,
                m.wall.as_secs_f64() * 1e3 / m.battles as f64,
                m.turns as f64 / m.battles as f64
            );
            rows.push(m);
        }
        let points: Vec<(f64, f64)> = rows
            .iter()
            .map(|m| (m.units as f64, m.per_battle()))
            .collect();
        let exponent = fit_power(&points).map(|f| f.0);
        match exponent {
            Some(k) => say!(
                "  fitted exponent {k:.2}: time per battle ~ units^{k:.2} (least squares on log-log over {} sizes; 1 is linear)",
                rows.len()
            ),
            None => say!("  no exponent: it takes two sizes or more"),
        }
        Ok(Curve {
            ruleset: rules.name(),
            rows,
            exponent,
        })
    }
}

/// `bench --scale` under `ruleset` (Ironsides when none is named; `all`: each in turn).
pub fn run(args: &ScaleArgs, seed: u64, ruleset: Option<&str>) -> Result<()> {
    if args.sizes.is_empty() {
        return Err(Error::Usage("--sizes: no sizes to measure".into()));
    }
    if !(args.seconds >= 0.0 && args.seconds <= 3600.0) {
        return Err(Error::Usage(format!(
            "--seconds {}: give 0 to 3600 seconds per size",
            args.seconds
        )));
    }
    // An unknown name is refused by the first `with_ruleset`, before any battle.
    let names = match ruleset.unwrap_or("ironsides") {
        "all" => RULESETS.to_vec(),
        one => vec![one],
    };
    // Every size, and the chart's folder, checked before any battle is fought.
    for &n in &args.sizes {
        generate::scenario_text(n)?;
    }
    if let Some(path) = &args.chart {
        crate::io::check_output_file(path)?;
        crate::io::refuse_existing("--chart", path, args.force)?;
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if folder.is_some_and(|f| !f.is_dir()) {
            let missing = std::io::Error::new(ErrorKind::NotFound, "no such folder for the chart");
            return Err(Error::io(path, missing));
        }
    }
    let mut curves = Vec::with_capacity(names.len());
    for name in names {
        curves.push(crate::rules::with_ruleset(name, Sizes { args, seed })??);
    }
    if let Some(path) = &args.chart {
        let svg = chart(&curves).svg;
        crate::io::write_atomic(path, svg.as_bytes())?;
        say!("  chart written to {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit recovers the exponent and factor of exact power laws, and refuses what has none.
    #[test]
    fn fit_recovers_known_power_laws() {
        for (a, k) in [(3.0, 1.0), (0.002, 1.3), (7.5, 2.0), (1e-6, 0.5)] {
            let pts: Vec<(f64, f64)> = [50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0]
                .iter()
                .map(|&x: &f64| (x, a * x.powf(k)))
                .collect();
            let (fk, fa) = fit_power(&pts).expect("a fit");
            assert!((fk - k).abs() < 1e-9, "exponent {fk} for {k}");
            assert!((fa / a - 1.0).abs() < 1e-9, "factor {fa} for {a}");
        }
        // Noise that is symmetric on the log scale leaves the slope alone.
        let pts = [
            (10.0, 10.0 * 1.1),
            (100.0, 100.0 / 1.1),
            (1000.0, 1000.0 * 1.1),
        ];
        let (k, _) = fit_power(&pts).expect("a fit");
        assert!(k < 1.0 + 1e-9 && k > 0.95, "{k}");
        assert_eq!(fit_power(&[(10.0, 1.0)]), None);
        assert_eq!(fit_power(&[(10.0, 1.0), (10.0, 2.0)]), None);
        assert_eq!(fit_power(&[(10.0, 1.0), (20.0, 0.0)]), None);
    }

    /// A small run: each size fights at least one battle to its end, and the chart draws a
    /// point per size.
    #[test]
    fn small_scale_run_measures_each_size() {
        let rows: Vec<Measured> = [20, 40]
            .iter()
            .map(|&n| measure(&crate::rules::Ironsides, n, 1, 0.0).expect("measured"))
            .collect();
        for m in &rows {
            assert_eq!(m.battles, 1);
            assert!(m.turns >= 1 && m.cpu > Duration::ZERO && m.wall > Duration::ZERO);
            assert!(m.fastest <= m.slowest);
        }
        let curve = |ruleset, exponent| Curve {
            ruleset,
            rows: rows.clone(),
            exponent,
        };
        let c = chart(&[curve("ironsides", Some(1.0))]);
        assert_eq!(c.marks, 2);
        assert!(c.svg.contains("<svg"));
        assert!(
            !c.svg.contains("fitted exponent"),
            "one curve needs no legend"
        );
        // Several: a point per size of each, and a legend naming each with its exponent.
        let c = chart(&[curve("ironsides", Some(1.25)), curve("dickenson", None)]);
        assert_eq!(c.marks, 4);
        assert!(
            c.svg.contains("ironsides (fitted exponent 1.25)"),
            "{}",
            c.svg
        );
        assert!(c.svg.contains(">dickenson<"), "{}", c.svg);
        for colour in &RULESET_COLOURS[..2] {
            assert!(
                c.svg.contains(&charts::hex(*colour)),
                "{}",
                charts::hex(*colour)
            );
        }
    }

    #[test]
    fn bad_sizes_are_refused_before_fighting() {
        let args = ScaleArgs {
            scale: true,
            sizes: vec![50, 51],
            seconds: 0.0,
            chart: None,
            force: false,
        };
        assert!(matches!(run(&args, 1, None), Err(Error::Usage(_))));
        let args = ScaleArgs {
            sizes: vec![50],
            ..args
        };
        let refused = run(&args, 1, Some("chess")).expect_err("no such ruleset");
        assert!(
            refused.to_string().contains("unknown ruleset `chess`"),
            "{refused}"
        );
        // A chart with nowhere to go is refused before a battle is fought, naming the file.
        let args = ScaleArgs {
            chart: Some(PathBuf::from("no-such-folder/scale.svg")),
            ..args
        };
        match run(&args, 1, Some("all")) {
            Err(e @ Error::Io { .. }) => {
                let e = e.to_string();
                assert!(
                    e.contains("no-such-folder/scale.svg: no such folder"),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// A chart named onto an existing file is refused before a battle is fought, and the file
    /// left as it was, unless `--force`.
    #[test]
    fn an_existing_chart_is_kept_unless_forced() {
        let dir = std::env::temp_dir().join(format!("ecw-scale-chart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scale.svg");
        std::fs::write(&path, "an earlier chart").unwrap();
        let args = ScaleArgs {
            scale: true,
            sizes: vec![50],
            seconds: 0.0,
            chart: Some(path.clone()),
            force: false,
        };
        let refused = run(&args, 1, None).expect_err("an existing chart");
        assert!(matches!(refused, Error::Usage(_)), "{refused:?}");
        assert!(refused.to_string().contains("pass --force"), "{refused}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "an earlier chart");
        run(
            &ScaleArgs {
                force: true,
                ..args
            },
            1,
            None,
        )
        .unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! The output folder: checked before a run starts (writable; not holding another run's
//! results unless `--force`; not in use by another run), and filled so that it is either
//! complete or absent.
//!
//! * A whole run (or a merge, or a what-if) writes every file into a hidden staging folder
//!   beside the output folder, `.NAME.ecw-sim-stage-PID`, manifest last. A new output folder
//!   then appears whole, by one rename. An existing one (`--force`, or a merge into the
//!   partials' folder) loses its `manifest.json` first, takes the staged files, and gets the
//!   manifest back last, so a folder without a manifest is never a finished run. On any error
//!   the stage is removed.
//! * A shard writes `partial-K-of-M.battles.csv` (through a hidden temporary file) before
//!   `partial-K-of-M.json`, so a partial result present means its rows are complete.
//! * An advisory lock is held for the whole run: `.NAME.ecw-sim-lock` beside the folder for a
//!   whole run, `.partial-K-of-M.lock` inside it for a shard (shards share a folder). A second
//!   run into the same place is refused with the first one's pid and command line.
//! * Leftovers of a killed run (its stage, temporary files of the program's own naming) are
//!   removed by the next run that takes the lock.

use std::path::{Path, PathBuf};

use super::battles::BattlesFile;
use super::manifest::{Manifest, Partial, RunIdentity, read_manifest};
use crate::error::{Error, Result};
use crate::io::{Lock, is_own_temp, write_atomic};
use crate::runner::{Shard, stage_begun, stage_ended};

/// Every file name a finished run may write, manifest last: the losses file under each
/// ruleset's currency (`Layout::losses_file`; a test holds every ruleset's to this list).
pub const RESULT_FILES: [&str; 10] = [
    "outcomes.csv",
    "cv_losses.csv",
    "casualties_losses.csv",
    "figures_losses.csv",
    "pursuits.csv",
    "commanders.csv",
    "ratings.csv",
    "measures.csv",
    "battles.csv",
    "manifest.json",
];

pub const MANIFEST: &str = "manifest.json";

/// What is to be written: a run's results (or a shard's partial), or one what-if file.
#[derive(Debug, Clone, Copy)]
pub enum Contents<'a> {
    Run {
        run: &'a RunIdentity,
        shard: Option<Shard>,
    },
    /// A what-if result such as `compare.csv`: refused over an existing one unless `--force`.
    Result(&'a str),
}

/// A folder ready to take a run's results.
#[derive(Debug)]
pub struct OutDir {
    pub path: PathBuf,
    /// Whole runs: the hidden staging folder the files are written into.
    stage: Option<PathBuf>,
    /// Shards: this run made the folder (so it removes it again if the run fails).
    created: bool,
    /// Shards: the partial result was written.
    done: bool,
    /// Held until the run ends; released before a failed shard's folder is removed.
    lock: Option<Lock>,
}

/// The parent folder and the name of an output folder (`output` and `naseby-1`).
fn split(path: &Path) -> Result<(PathBuf, String)> {
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Error::io(Path::new("."), e))?
            .join(path)
    };
    let full = if path.exists() {
        full.canonicalize().map_err(|e| Error::io(path, e))?
    } else {
        full
    };
    match (full.parent(), full.file_name()) {
        (Some(parent), Some(name)) if name != ".." => {
            Ok((parent.to_path_buf(), name.to_string_lossy().into_owned()))
        }
        _ => Err(Error::Usage(format!(
            "{} cannot be an output folder: name a folder inside it",
            path.display()
        ))),
    }
}

fn refuse_in_use(path: &Path, holder: &str) -> Error {
    Error::Usage(format!(
        "output folder {} is in use by another ecw-sim run ({}); wait for it to finish or choose another --out",
        path.display(),
        if holder.is_empty() {
            "starting"
        } else {
            holder
        }
    ))
}

/// The output folder `path` could not be made (a read-only disk, no permission, a file in
/// the way): an I/O failure, naming the folder asked for.
fn cannot_create(path: &Path, e: std::io::Error) -> Error {
    let told = format!("cannot create output folder: {e}");
    Error::io(path, std::io::Error::new(e.kind(), told))
}

fn lock(lock_file: &Path, out: &Path, remove: bool) -> Result<Lock> {
    match Lock::try_take(lock_file, remove) {
        Ok(Ok(l)) => Ok(l),
        Ok(Err(holder)) => Err(refuse_in_use(out, &holder)),
        // (The folder cannot be written: a read-only disk, no permission. An I/O failure.)
        Err(e) => Err(Error::io(
            lock_file,
            std::io::Error::new(
                e.kind(),
                format!("cannot lock output folder {}: {e}", out.display()),
            ),
        )),
    }
}

impl OutDir {
    /// Checks `path` can take the results of `run` (of `shard`, or the whole run) and locks it;
    /// refuses, unless `force`, a folder holding the results or partial results of a different
    /// run, results of unknown origin, or partials of a different split of this run.
    pub fn prepare(
        path: &Path,
        run: &RunIdentity,
        shard: Option<Shard>,
        force: bool,
    ) -> Result<OutDir> {
        OutDir::open(path, Contents::Run { run, shard }, force)
    }

    /// Checks and locks `path` for `contents`.
    pub fn open(path: &Path, contents: Contents<'_>, force: bool) -> Result<OutDir> {
        if path.exists() && !path.is_dir() {
            return Err(Error::Usage(format!(
                "output folder {} is a file, not a folder; the output must be a folder",
                path.display()
            )));
        }
        let dir = match contents {
            Contents::Run { shard: Some(s), .. } => OutDir::for_shard(path, s)?,
            _ => OutDir::staged(path)?,
        };
        if path.exists() {
            let probe = path.join(format!(".ecw-sim-write-test-{}", std::process::id()));
            std::fs::write(&probe, b"").map_err(|e| {
                Error::Usage(format!(
                    "cannot write to output folder {}: {e}",
                    path.display()
                ))
            })?;
            let _ = std::fs::remove_file(&probe);
            if !force {
                dir.check_existing(contents)?;
            }
        }
        Ok(dir)
    }

    /// A whole run: lock beside the folder, clear a killed run's stage, make a new stage.
    fn staged(path: &Path) -> Result<OutDir> {
        let (parent, name) = split(path)?;
        std::fs::create_dir_all(&parent).map_err(|e| cannot_create(path, e))?;
        let held = lock(&parent.join(format!(".{name}.ecw-sim-lock")), path, true)?;
        let prefix = format!(".{name}.ecw-sim-stage-");
        // Only the holder of the lock stages for this folder: any stage left is an orphan.
        if let Ok(entries) = std::fs::read_dir(&parent) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let stage = parent.join(format!("{prefix}{}", std::process::id()));
        std::fs::create_dir(&stage).map_err(|e| cannot_create(path, e))?;
        stage_begun(stage.clone());
        Ok(OutDir {
            path: path.to_path_buf(),
            stage: Some(stage),
            created: false,
            done: false,
            lock: Some(held),
        })
    }

    /// A shard: the folder is shared with the other shards; lock this shard's files only.
    fn for_shard(path: &Path, shard: Shard) -> Result<OutDir> {
        let created = !path.exists();
        std::fs::create_dir_all(path).map_err(|e| cannot_create(path, e))?;
        let stem = shard.file_stem();
        let held = match lock(&path.join(format!(".{stem}.lock")), path, true) {
            Ok(l) => l,
            Err(e) => {
                if created {
                    let _ = std::fs::remove_dir(path);
                }
                return Err(e);
            }
        };
        remove_own_temps(path, |n| n.starts_with(&format!(".{stem}.")));
        Ok(OutDir {
            path: path.to_path_buf(),
            stage: None,
            created,
            done: false,
            lock: Some(held),
        })
    }

    fn check_existing(&self, contents: Contents<'_>) -> Result<()> {
        let refuse = |why: String| {
            Error::Usage(format!(
                "output folder {} {why}; choose another --out, or pass --force to overwrite",
                self.path.display()
            ))
        };
        let (run, shard) = match contents {
            Contents::Run { run, shard } => (run, shard),
            Contents::Result(name) => {
                return if self.path.join(name).exists() {
                    Err(refuse(format!("already holds {name}")))
                } else {
                    Ok(())
                };
            }
        };
        let manifest = self.path.join(MANIFEST);
        if manifest.exists() {
            let m = read_manifest(&manifest)
                .map_err(|_| refuse("holds a manifest.json that ecw-sim cannot read".into()))?;
            if let Some(d) = run.difference(&m.run) {
                return Err(refuse(format!(
                    "holds the results of a different run ({})",
                    there_here(d)
                )));
            }
        } else if let Some(f) = RESULT_FILES.iter().find(|f| self.path.join(f).exists()) {
            return Err(refuse(format!(
                "holds {f} but no manifest.json, so which run wrote it is unknown"
            )));
        }
        for (file, found) in partial_files(&self.path)? {
            let p = Partial::read(&file).map_err(|_| {
                refuse(format!(
                    "holds {}, which ecw-sim cannot read",
                    file.display()
                ))
            })?;
            if let Some(d) = run.difference(&p.run) {
                return Err(refuse(format!(
                    "holds partial results of a different run in {} ({})",
                    file.display(),
                    there_here(d)
                )));
            }
            if let Some(s) = shard
                && found.count != s.count
            {
                return Err(refuse(format!(
                    "holds {} from a split of this run into {} shards, not {}",
                    file.display(),
                    found.count,
                    s.count
                )));
            }
        }
        Ok(())
    }

    /// Where to write the file `name` now: in the stage for a whole run, in the folder for a
    /// shard (its files go through temporary names).
    pub fn file(&self, name: &str) -> PathBuf {
        self.stage.as_deref().unwrap_or(&self.path).join(name)
    }

    /// Writes a finished run's files into the stage, the manifest last, and publishes them.
    pub fn write_results(
        self,
        files: &[(String, Vec<u8>)],
        manifest: &Manifest,
        battles: Option<BattlesFile>,
    ) -> Result<()> {
        for (name, bytes) in files {
            self.write_staged(name, bytes)?;
        }
        if let Some(b) = battles {
            b.commit()?;
        }
        let mut json = serde_json::to_vec_pretty(manifest).expect("a manifest serialises");
        json.push(b'\n');
        self.write_staged(MANIFEST, &json)?;
        self.publish(&manifest.files)
    }

    /// Writes what-if result files into the stage and publishes them.
    pub fn write_files(self, files: &[(String, Vec<u8>)]) -> Result<()> {
        for (name, bytes) in files {
            self.write_staged(name, bytes)?;
        }
        let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
        self.publish(&names)
    }

    fn write_staged(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let at = self.file(name);
        std::fs::write(&at, bytes).map_err(|e| Error::io(&self.path.join(name), e))
    }

    /// Moves the staged files into place: the stage itself when the folder is new, else file
    /// by file with the old manifest removed first and the new one (the last name) moved last.
    fn publish(mut self, names: &[String]) -> Result<()> {
        let stage = self.stage.take().expect("a whole run has a stage");
        let result = self.move_into_place(&stage, names);
        let _ = std::fs::remove_dir_all(&stage);
        stage_ended(&stage);
        result
    }

    fn move_into_place(&self, stage: &Path, names: &[String]) -> Result<()> {
        let io = |p: &Path, e| Error::io(p, e);
        if !self.path.exists() {
            return std::fs::rename(stage, &self.path).map_err(|e| io(&self.path, e));
        }
        let m = self.path.join(MANIFEST);
        if m.exists() {
            std::fs::remove_file(&m).map_err(|e| io(&m, e))?;
        }
        for name in names {
            let to = self.path.join(name);
            std::fs::rename(stage.join(name), &to).map_err(|e| io(&to, e))?;
        }
        if names.last().is_some_and(|n| n == MANIFEST) {
            for stale in RESULT_FILES {
                let p = self.path.join(stale);
                if !names.iter().any(|n| n == stale) && p.exists() {
                    std::fs::remove_file(&p).map_err(|e| io(&p, e))?;
                }
            }
        }
        // A killed run's temporary files; shards' own are theirs to clear (they may be live).
        remove_own_temps(&self.path, |n| !n.starts_with(".partial-"));
        Ok(())
    }

    /// Writes a shard's partial result (its per-battle rows, if any, already committed).
    pub fn write_partial(&mut self, partial: &Partial) -> Result<PathBuf> {
        let path = self
            .path
            .join(format!("{}.json", partial.shard.file_stem()));
        let mut json = serde_json::to_vec(partial).expect("a partial result serialises");
        json.push(b'\n');
        write_atomic(&path, &json)?;
        self.done = true;
        Ok(path)
    }
}

impl Drop for OutDir {
    /// A run that did not finish leaves nothing: its stage goes, and a shard's folder it made.
    fn drop(&mut self) {
        if let Some(stage) = self.stage.take() {
            let _ = std::fs::remove_dir_all(&stage);
            stage_ended(&stage);
        }
        drop(self.lock.take());
        if self.created && !self.done {
            let _ = std::fs::remove_dir(&self.path);
        }
    }
}

/// Removes the program's own temporary files in `dir` whose names pass `mine`.
fn remove_own_temps(dir: &Path, mine: impl Fn(&str) -> bool) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if is_own_temp(&name) && mine(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// "seed 1 there, 2 here" from a difference of (this run, the folder's run).
fn there_here((what, here, there): (&str, String, String)) -> String {
    format!("{what} {there} there, {here} here")
}

/// The `partial-K-of-M.json` files in a folder, sorted by name, with their shards.
pub fn partial_files(dir: &Path) -> Result<Vec<(PathBuf, Shard)>> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json")
            && let Some(s) = Shard::from_file_name(&name)
        {
            out.push((entry.path(), s));
        }
    }
    out.sort();
    Ok(out)
}

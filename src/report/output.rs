//! The output folder: checked before a run starts (writable; not holding another run's
//! results unless `--force`), written only once the run has finished, manifest last.

use std::path::{Path, PathBuf};

use super::battles::BattlesFile;
use super::manifest::{Manifest, Partial, RunIdentity, read_manifest};
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::runner::Shard;

/// Every file name a finished run may write, manifest last.
pub const RESULT_FILES: [&str; 7] = [
    "outcomes.csv",
    "cv_losses.csv",
    "pursuits.csv",
    "commanders.csv",
    "ratings.csv",
    "battles.csv",
    "manifest.json",
];

pub const MANIFEST: &str = "manifest.json";

/// A folder ready to take a run's results.
#[derive(Debug)]
pub struct OutDir {
    pub path: PathBuf,
    /// This run made the folder (so it removes it again if the run fails).
    created: bool,
}

impl OutDir {
    /// Checks `path` can take the results of `run` (of `shard`, or the whole run): creates it if
    /// needed and checks it is writable; refuses, unless `force`, a folder holding the results
    /// or partial results of a different run, results of unknown origin, or partials of a
    /// different split of this run. Writes nothing else.
    pub fn prepare(
        path: &Path,
        run: &RunIdentity,
        shard: Option<Shard>,
        force: bool,
    ) -> Result<OutDir> {
        if path.exists() && !path.is_dir() {
            return Err(Error::Usage(format!(
                "output folder {} is a file, not a folder",
                path.display()
            )));
        }
        let created = !path.exists();
        std::fs::create_dir_all(path).map_err(|e| {
            Error::Usage(format!(
                "cannot create output folder {}: {e}",
                path.display()
            ))
        })?;
        let dir = OutDir {
            path: path.to_path_buf(),
            created,
        };
        let probe = path.join(format!(".ecw-sim-write-test-{}", std::process::id()));
        if let Err(e) = std::fs::write(&probe, b"") {
            dir.abandon();
            return Err(Error::Usage(format!(
                "cannot write to output folder {}: {e}",
                path.display()
            )));
        }
        let _ = std::fs::remove_file(&probe);
        if !force && let Err(e) = dir.check_existing(run, shard) {
            dir.abandon();
            return Err(e);
        }
        Ok(dir)
    }

    fn check_existing(&self, run: &RunIdentity, shard: Option<Shard>) -> Result<()> {
        let refuse = |why: String| {
            Error::Usage(format!(
                "output folder {} {why}; choose another --out, or pass --force to overwrite",
                self.path.display()
            ))
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

    /// Removes the folder if this run created it and nothing is in it (after a failure).
    pub fn abandon(&self) {
        if self.created {
            let _ = std::fs::remove_dir(&self.path);
        }
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Writes a finished run's files: the old manifest (if any) goes first, so the folder
    /// never claims a mix of two runs complete; then every file atomically (and the finished
    /// per-battle file renamed into place); the manifest last; then result files an earlier
    /// run left that this one does not write.
    pub fn write_results(
        &self,
        files: &[(String, Vec<u8>)],
        manifest: &Manifest,
        battles: Option<BattlesFile>,
    ) -> Result<()> {
        let m = self.file(MANIFEST);
        if m.exists() {
            std::fs::remove_file(&m).map_err(|e| Error::io(&m, e))?;
        }
        for (name, bytes) in files {
            write_atomic(&self.file(name), bytes)?;
        }
        if let Some(b) = battles {
            b.commit()?;
        }
        let mut json = serde_json::to_vec_pretty(manifest).expect("a manifest serialises");
        json.push(b'\n');
        write_atomic(&m, &json)?;
        for stale in RESULT_FILES {
            if !manifest.files.iter().any(|f| f == stale) {
                let p = self.file(stale);
                if p.exists() {
                    std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
                }
            }
        }
        Ok(())
    }

    /// Writes a shard's partial result.
    pub fn write_partial(&self, partial: &Partial) -> Result<PathBuf> {
        let path = self.file(&format!("{}.json", partial.shard.file_stem()));
        let mut json = serde_json::to_vec(partial).expect("a partial result serialises");
        json.push(b'\n');
        write_atomic(&path, &json)?;
        Ok(path)
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

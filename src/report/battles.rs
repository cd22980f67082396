//! `battles.csv` (with `--per-battle`): one row per battle, streamed in battle order to a
//! hidden file beside its final name and renamed into place only when the run succeeds.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::army::Side;
use crate::error::{Error, Result};
use crate::events::Outcome;
use crate::stats::BattleRow;

pub const HEADER: [&str; 14] = [
    "battle",
    "seed",
    "winner",
    "turns",
    "cv_start_parliament",
    "cv_start_royalist",
    "cv_lost_parliament",
    "cv_lost_royalist",
    "pursuits_parliament",
    "pursuits_royalist",
    "general_casualties_parliament",
    "general_casualties_royalist",
    "dice_rolled",
    "margin_cv",
];

/// The winner's name, or `draw`.
pub fn winner(o: Outcome) -> &'static str {
    match o {
        Outcome::Won(s) => s.name(),
        Outcome::Draw => "draw",
    }
}

fn record(r: &BattleRow) -> [String; 14] {
    let (p, q) = (Side::Parliament.index(), Side::Royalist.index());
    let margin = match r.outcome {
        Outcome::Won(w) => {
            (i64::from(r.cv_lost[w.other().index()]) - i64::from(r.cv_lost[w.index()])).to_string()
        }
        Outcome::Draw => String::new(),
    };
    [
        r.index.to_string(),
        r.seed.to_string(),
        winner(r.outcome).to_string(),
        r.turns.to_string(),
        r.cv_start[p].to_string(),
        r.cv_start[q].to_string(),
        r.cv_lost[p].to_string(),
        r.cv_lost[q].to_string(),
        r.pursuits[p].to_string(),
        r.pursuits[q].to_string(),
        r.general_casualties[p].to_string(),
        r.general_casualties[q].to_string(),
        r.dice_rolled.to_string(),
        margin,
    ]
}

/// A per-battle file being written. Dropped without [`BattlesFile::commit`], it removes its
/// hidden temporary file, leaving nothing behind.
pub struct BattlesFile {
    path: PathBuf,
    tmp: PathBuf,
    /// Every field is a number or a plain word, so rows need no CSV quoting.
    w: Option<BufWriter<File>>,
    rows: u64,
}

impl BattlesFile {
    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> Result<BattlesFile> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let mut w = BufWriter::new(f);
        writeln!(w, "{}", HEADER.join(",")).map_err(|e| Error::io(&tmp, e))?;
        Ok(BattlesFile {
            path: path.to_path_buf(),
            tmp,
            w: Some(w),
            rows: 0,
        })
    }

    /// Appends rows (in battle order).
    pub fn write(&mut self, rows: &[BattleRow]) -> Result<()> {
        let w = self.w.as_mut().expect("not yet committed");
        for r in rows {
            writeln!(w, "{}", record(r).join(",")).map_err(|e| Error::io(&self.tmp, e))?;
        }
        self.rows += rows.len() as u64;
        Ok(())
    }

    /// Appends the rows of another per-battle file (a shard's), checking its header and that it
    /// holds `expect` rows.
    pub fn append_file(&mut self, from: &Path, expect: u64) -> Result<()> {
        let f = File::open(from).map_err(|e| Error::io(from, e))?;
        let mut lines = BufReader::new(f).lines();
        let header = lines.next().transpose().map_err(|e| Error::io(from, e))?;
        if header.as_deref() != Some(HEADER.join(",").as_str()) {
            return Err(Error::Usage(format!(
                "{}: not a per-battle file of this ecw-sim (header differs)",
                from.display()
            )));
        }
        let w = self.w.as_mut().expect("not yet committed");
        let mut n = 0u64;
        for line in lines {
            let line = line.map_err(|e| Error::io(from, e))?;
            writeln!(w, "{line}").map_err(|e| Error::io(&self.tmp, e))?;
            n += 1;
        }
        if n != expect {
            return Err(Error::Usage(format!(
                "{}: {n} rows, but its shard fought {expect} battles",
                from.display()
            )));
        }
        self.rows += n;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let mut w = self.w.take().expect("committed once");
        w.flush().map_err(|e| Error::io(&self.tmp, e))?;
        drop(w);
        std::fs::rename(&self.tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        Ok(())
    }
}

impl Drop for BattlesFile {
    fn drop(&mut self) {
        if self.w.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

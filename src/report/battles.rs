//! `battles.csv` (with `--per-battle`): one row per battle, streamed in battle order to a
//! hidden file beside its final name and renamed into place only when the run succeeds.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::army::Side;
use crate::error::{Error, Result};
use crate::events::Outcome;
use crate::stats::BattleRow;

use super::manifest::Fnv;

/// How many columns a row has.
pub const COLUMNS: usize = 14;

/// The columns, with the losses in the ruleset's currency (`cv_start_parliament`,
/// `casualties_lost_royalist`, `margin_figures`).
pub fn header(currency: &str) -> [String; COLUMNS] {
    let c = currency;
    [
        "battle".into(),
        "seed".into(),
        "winner".into(),
        "turns".into(),
        format!("{c}_start_parliament"),
        format!("{c}_start_royalist"),
        format!("{c}_lost_parliament"),
        format!("{c}_lost_royalist"),
        "pursuits_parliament".into(),
        "pursuits_royalist".into(),
        "general_casualties_parliament".into(),
        "general_casualties_royalist".into(),
        "dice_rolled".into(),
        format!("margin_{c}"),
    ]
}

/// The winner's name, or `draw`.
pub fn winner(o: Outcome) -> &'static str {
    match o {
        Outcome::Won(s) => s.name(),
        Outcome::Draw => "draw",
    }
}

fn record(r: &BattleRow) -> [String; COLUMNS] {
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
    /// The header line, in the run's currency.
    header: String,
    rows: u64,
    /// FNV-1a 64 of the bytes written so far.
    hash: Fnv,
}

/// The longest row a per-battle file can hold (14 numbers and a word): a bound on what a
/// damaged file can make `merge` read.
const MAX_ROW_BYTES: u64 = 512;

impl BattlesFile {
    /// Starts writing what will become `path`, its losses counted in `currency`.
    pub fn create(path: &Path, currency: &str) -> Result<BattlesFile> {
        let tmp = crate::io::temp_name(path);
        let f = File::create(&tmp).map_err(|e| Error::io(path, e))?;
        crate::runner::stage_begun(tmp.clone());
        let mut file = BattlesFile {
            path: path.to_path_buf(),
            tmp,
            w: Some(BufWriter::new(f)),
            header: header(currency).join(","),
            rows: 0,
            hash: Fnv::default(),
        };
        file.line(&file.header.clone())?;
        Ok(file)
    }

    fn line(&mut self, text: &str) -> Result<()> {
        let w = self.w.as_mut().expect("not yet committed");
        self.hash.update(text.as_bytes());
        self.hash.update(b"\n");
        writeln!(w, "{text}").map_err(|e| Error::io(&self.path, e))
    }

    /// Appends rows (in battle order).
    pub fn write(&mut self, rows: &[BattleRow]) -> Result<()> {
        for r in rows {
            self.line(&record(r).join(","))?;
        }
        self.rows += rows.len() as u64;
        Ok(())
    }

    /// FNV-1a 64 of the file's bytes so far (what a shard's partial result records).
    pub fn checksum(&self) -> String {
        self.hash.hex()
    }

    /// Appends the rows of another per-battle file (a shard's), checking its header, that its
    /// rows are the battles `battles` in order, each with every column, and that its bytes
    /// match `checksum`.
    pub fn append_file(
        &mut self,
        from: &Path,
        battles: std::ops::Range<u64>,
        checksum: &str,
    ) -> Result<()> {
        let refuse = |why: String| Error::Refused(format!("{}: {why}", from.display()));
        let f = File::open(from).map_err(|e| Error::io(from, e))?;
        let limit = (battles.end - battles.start + 1).saturating_mul(MAX_ROW_BYTES);
        let mut lines = BufReader::new(f.take(limit)).lines();
        let header = lines.next().transpose().map_err(|e| Error::io(from, e))?;
        if header.as_deref() != Some(self.header.as_str()) {
            return Err(refuse(
                "not a per-battle file of this ecw-sim (header differs)".into(),
            ));
        }
        let mut hash = Fnv::default();
        hash.update(header.unwrap_or_default().as_bytes());
        hash.update(b"\n");
        let mut next = battles.start;
        for (i, line) in lines.enumerate() {
            let line = line.map_err(|e| Error::io(from, e))?;
            let fields: Vec<&str> = line.split(',').collect();
            let index = fields.first().and_then(|f| f.parse::<u64>().ok());
            if fields.len() != COLUMNS || index != Some(next) || next >= battles.end {
                return Err(refuse(format!(
                    "line {}: expected the row of battle {next} (battles {}..{}), found `{}`",
                    i + 2,
                    battles.start,
                    battles.end,
                    crate::io::printable(&line.chars().take(80).collect::<String>())
                )));
            }
            hash.update(line.as_bytes());
            hash.update(b"\n");
            self.line(&line)?;
            next += 1;
        }
        if next != battles.end {
            return Err(refuse(format!(
                "{} rows, but its shard fought {} battles",
                next - battles.start,
                battles.end - battles.start
            )));
        }
        if hash.hex() != checksum {
            return Err(refuse(format!(
                "checksum {} does not match its partial result's {checksum}: the file was changed or damaged",
                hash.hex()
            )));
        }
        self.rows += next - battles.start;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let mut w = self.w.take().expect("committed once");
        w.flush().map_err(|e| Error::io(&self.path, e))?;
        drop(w);
        std::fs::rename(&self.tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        crate::runner::stage_ended(&self.tmp);
        Ok(())
    }
}

impl Drop for BattlesFile {
    fn drop(&mut self) {
        if self.w.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
            crate::runner::stage_ended(&self.tmp);
        }
    }
}

//! Errors that name the file, the key and the line, so bad input is never a mystery.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in an input file a problem sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub key: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        Ok(())
    }
}

/// Every error the library reports. The binary prints it and exits with [`Error::exit_code`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem in an input file (or an override of it), placed by file, line and key.
    #[error("{at}: {message}")]
    Input { at: Location, message: String },
    /// Reading or writing failed. The OS error is part of the message (not a separate cause),
    /// so it is printed once.
    #[error("{path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// An input (a partial result, a scenario with several problems) was read and refused.
    #[error("{0}")]
    Refused(String),
    #[error("interrupted: {0}")]
    Interrupted(String),
}

/// Exit codes, as `--help` and the README list them.
pub mod exit {
    /// The command line is wrong (an unknown option, a value out of range, a clash of options).
    pub const USAGE: i32 = 2;
    /// An input file or value was refused (a scenario, ruleset or partial result).
    pub const INPUT: i32 = 3;
    /// Reading or writing failed (a missing file, a full disk, no permission).
    pub const IO: i32 = 4;
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP; nothing was written.
    pub const INTERRUPTED: i32 = 130;
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The process exit code for this error (see [`exit`]).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => exit::USAGE,
            Error::Input { .. } | Error::Refused(_) => exit::INPUT,
            Error::Io { .. } => exit::IO,
            Error::Interrupted(_) => exit::INTERRUPTED,
        }
    }

    /// The same error told within `context` (what asked for the input), with the same exit
    /// code: an input refused stays refused (3), a wrong command line wrong (2).
    pub fn within(self, context: &str) -> Self {
        match self {
            Error::Usage(m) => Error::Usage(format!("{context}: {m}")),
            e @ (Error::Input { .. } | Error::Refused(_)) => {
                Error::Refused(format!("{context}: {e}"))
            }
            e => e,
        }
    }

    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            err: source,
        }
    }

    /// An error at a dotted key of a TOML document, with its line found in the text.
    pub fn at_key(file: &Path, text: &str, key: &str, message: impl Into<String>) -> Self {
        let (line, column) = match locate_key(text, key) {
            Some((l, c)) => (Some(l), Some(c)),
            None => (None, None),
        };
        Error::Input {
            at: Location {
                file: file.to_path_buf(),
                key: key.to_string(),
                line,
                column,
            },
            message: message.into(),
        }
    }

    /// A TOML parse or schema error from the `toml` crate, with its span turned into line:column.
    pub fn from_toml(file: &Path, text: &str, err: &toml::de::Error) -> Self {
        let (line, column) = match err.span() {
            Some(span) => {
                let (l, c) = line_col(text, span.start);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        let key = key_at_span(text, err.span().map(|s| s.start).unwrap_or(0));
        Error::Input {
            at: Location {
                file: file.to_path_buf(),
                key,
                line,
                column,
            },
            message: err.message().to_string(),
        }
    }
}

/// A number as an error message shows it: huge ones in scientific notation (`1e300`), never
/// as 300 digits.
pub fn number(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e9 {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// The dotted key path of the table header (and key) in force at a byte offset: good enough to
/// name where a parse error sits.
fn key_at_span(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let mut header = String::new();
    let mut key = String::new();
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = text[offset..]
        .find('\n')
        .map(|i| offset + i)
        .unwrap_or(text.len());
    // The whole lines before the offset's, then its own line whole (a header the offset
    // points into is named in full).
    for line in text[..line_start]
        .lines()
        .chain([&text[line_start..line_end]])
    {
        let t = line.trim();
        if t.starts_with('[') {
            header = t.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            key.clear();
        } else if let Some((k, _)) = t.split_once('=')
            && !t.starts_with('#')
        {
            key = k.trim().to_string();
        }
    }
    match (header.is_empty(), key.is_empty()) {
        (true, _) => key,
        (false, true) => header,
        (false, false) => format!("{header}.{key}"),
    }
}

/// Finds the line and column of a dotted key such as `fire.ranges.light.long`, `ratings.3.side`
/// (array-of-tables index) or `movement.artillery.heavy` (inline table member) in TOML text.
/// Returns the position of the deepest part found, so an error always points somewhere useful.
pub fn locate_key(text: &str, key: &str) -> Option<(usize, usize)> {
    let parts: Vec<&str> = key.split('.').collect();
    let mut best: Option<(usize, usize)> = None;
    // Walk the lines tracking the current header and array-of-tables indices.
    let mut header: Vec<String> = Vec::new();
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let indent = line.len() - line.trim_start().len();
        if let Some(inner) = t.strip_prefix("[[").and_then(|s| s.split("]]").next()) {
            let name = inner.trim().to_string();
            let n = counts.entry(name.clone()).or_insert(0);
            header = name.split('.').map(|s| s.trim().to_string()).collect();
            header.push(n.to_string());
            *n += 1;
        } else if let Some(inner) = t.strip_prefix('[').and_then(|s| s.split(']').next()) {
            header = inner.split('.').map(|s| s.trim().to_string()).collect();
        } else if let Some((k, rest)) = t.split_once('=')
            && !t.starts_with('#')
        {
            let mut path = header.clone();
            path.extend(
                k.trim()
                    .trim_matches('"')
                    .split('.')
                    .map(|s| s.trim().to_string()),
            );
            let depth = matching_prefix(&path, &parts);
            if depth == path.len() {
                let (l, c) = line_col(text, offset + indent);
                // Look inside an inline table for deeper parts.
                if parts.len() > depth {
                    let eq = line.len() - rest.len() - usize::from(line.ends_with('\n'));
                    let eq = line[..eq.min(line.len())].rfind('=').unwrap_or(0);
                    let tail = &line[eq..];
                    if let Some(pos) = tail
                        .find(&format!("{} ", parts[depth]))
                        .or_else(|| tail.find(&format!("{}=", parts[depth])))
                    {
                        return Some(line_col(text, offset + eq + pos));
                    }
                }
                if depth == parts.len() {
                    return Some((l, c));
                }
                best = Some((l, c));
            }
        }
        if !t.starts_with('#')
            && best.is_none()
            && t.starts_with('[')
            && matching_prefix(&header, &parts) == header.len()
            && !header.is_empty()
        {
            best = Some(line_col(text, offset + indent));
        }
        offset += line.len();
    }
    best
}

fn matching_prefix(path: &[String], parts: &[&str]) -> usize {
    path.iter()
        .zip(parts)
        .take_while(|(a, b)| a.as_str() == **b)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_keys() {
        let text = "a = 1\n[fire]\nx = 2\n[fire.ranges]\nlight = { short = 4.0, long = 12.0 }\n[[ratings]]\nside = \"p\"\n[[ratings]]\nside = \"r\"\n";
        assert_eq!(locate_key(text, "a"), Some((1, 1)));
        assert_eq!(locate_key(text, "fire.x"), Some((3, 1)));
        assert_eq!(locate_key(text, "fire.ranges.light.long"), Some((5, 24)));
        assert_eq!(locate_key(text, "ratings.1.side"), Some((9, 1)));
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 3), (2, 1));
        assert_eq!(line_col("ab\ncd", 1), (1, 2));
    }
}

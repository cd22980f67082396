//! Shards: a run split into M contiguous ranges of battle indices, one per machine or job.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Shard `index` of `count` (1-based, as `--shard K/M` is written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Parses `K/M` with 1 <= K <= M.
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = |why: &str| {
            Error::Usage(format!(
                "--shard {text}: {why} (write K/M, shard K of M, with 1 <= K <= M, e.g. 2/8)"
            ))
        };
        let (k, m) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let k: u32 = k
            .trim()
            .parse()
            .map_err(|_| bad("K is not a whole number"))?;
        let m: u32 = m
            .trim()
            .parse()
            .map_err(|_| bad("M is not a whole number"))?;
        if m == 0 {
            return Err(bad("M must be at least 1"));
        }
        if k == 0 {
            return Err(bad("shards are numbered from 1"));
        }
        if k > m {
            return Err(bad(&format!("there is no shard {k} of {m}")));
        }
        Ok(Shard { index: k, count: m })
    }

    /// The battle indices of this shard of a run of `battles`: shard K of M covers
    /// `floor(N (K-1) / M) .. floor(N K / M)`, so the shards tile `0..N` exactly.
    pub fn range(self, battles: u64) -> Range<u64> {
        let at = |k: u32| (u128::from(battles) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// `partial-K-of-M`: the stem of this shard's result files.
    pub fn file_stem(self) -> String {
        format!("partial-{}-of-{}", self.index, self.count)
    }

    /// Reads a shard back from a `partial-K-of-M...` file name.
    pub fn from_file_name(name: &str) -> Option<Shard> {
        let rest = name.strip_prefix("partial-")?;
        let (k, rest) = rest.split_once("-of-")?;
        let m: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let s = Shard {
            index: k.parse().ok()?,
            count: m.parse().ok()?,
        };
        (s.index >= 1 && s.index <= s.count).then_some(s)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
        assert_eq!(
            Shard::parse(" 1 / 1 ").unwrap(),
            Shard { index: 1, count: 1 }
        );
        for bad in ["4/3", "0/3", "3/0", "1", "a/3", "1/b", "-1/3", ""] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("--shard {bad}")), "{bad}: {e}");
        }
        assert!(
            Shard::parse("4/3")
                .unwrap_err()
                .to_string()
                .contains("no shard 4 of 3")
        );
    }

    #[test]
    fn shards_tile_the_run() {
        for n in [1u64, 2, 7, 256, 1000, 10_001] {
            for m in 1..=9u32 {
                let mut next = 0;
                for k in 1..=m {
                    let r = Shard { index: k, count: m }.range(n);
                    assert_eq!(r.start, next, "{k}/{m} of {n}");
                    assert!(r.end >= r.start);
                    next = r.end;
                }
                assert_eq!(next, n);
            }
        }
        assert_eq!(Shard { index: 2, count: 3 }.range(10), 3..6);
    }

    #[test]
    fn file_names_round_trip() {
        let s = Shard {
            index: 12,
            count: 40,
        };
        assert_eq!(s.file_stem(), "partial-12-of-40");
        assert_eq!(Shard::from_file_name("partial-12-of-40.json"), Some(s));
        assert_eq!(
            Shard::from_file_name("partial-12-of-40.battles.csv"),
            Some(s)
        );
        assert_eq!(Shard::from_file_name("partial-5-of-4.json"), None);
        assert_eq!(Shard::from_file_name("outcomes.csv"), None);
    }
}

//! The scenario's TOML tree with every key's position kept: `--set` overrides are applied to it
//! before serde reads it (so the file's own lines still show in errors), and problems found later
//! are located in it by key path.

use std::borrow::Cow;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

use super::schema::{
    AreaSpec, CampSpec, CommandSpec, CommanderTable, LineSpec, ObstacleSpec, ScenarioFile,
    SecondLineSpec, SideSpec, TableSpec, TerrainSpec, UnitSpec, fields_of,
};

/// One `--set PATH=VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub path: String,
    pub value: String,
}

impl Override {
    pub fn parse(arg: &str) -> Result<Override, String> {
        let Some((path, value)) = arg.split_once('=') else {
            return Err(format!(
                "--set `{arg}`: expected PATH=VALUE, e.g. turn_limit=20"
            ));
        };
        let path = path.trim();
        if path.is_empty() || path.split('.').any(|p| p.trim().is_empty()) {
            return Err(format!(
                "--set `{arg}`: `{path}` is not a key path (keys joined by dots, e.g. royalist.captain_general)"
            ));
        }
        Ok(Override {
            path: path.split('.').map(str::trim).collect::<Vec<_>>().join("."),
            value: value.trim().to_string(),
        })
    }

    /// True when `key` is this override's path or lies inside it.
    pub fn covers(&self, key: &str) -> bool {
        key == self.path
            || key
                .strip_prefix(self.path.as_str())
                .is_some_and(|rest| rest.starts_with('.'))
    }
}

impl std::fmt::Display for Override {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--set {}={}", self.path, self.value)
    }
}

/// Where a key sits in the file format, for the list of keys an override may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Root,
    History,
    Table,
    Terrain,
    Areas,
    Area,
    Obstacles,
    Obstacle,
    Camps,
    Camp,
    Side,
    Commands,
    Command,
    Lines,
    Line,
    SecondLine,
    Units,
    Unit,
    Commander,
    Arrives,
    Reserve,
    /// Inside `rules`: a part of a ruleset file, any key, checked when the ruleset is read.
    Rules,
    Value,
}

impl Node {
    /// The keys the format allows here (whether or not the file gives them).
    fn keys(self) -> &'static [&'static str] {
        match self {
            Node::Root => fields_of::<ScenarioFile>(),
            Node::Table => fields_of::<TableSpec>(),
            Node::History => fields_of::<super::schema::HistorySpec>(),
            Node::Terrain => fields_of::<TerrainSpec>(),
            Node::Area => fields_of::<AreaSpec>(),
            Node::Obstacle => fields_of::<ObstacleSpec>(),
            Node::Camp => fields_of::<CampSpec>(),
            Node::Side => fields_of::<SideSpec>(),
            Node::Command => fields_of::<CommandSpec>(),
            Node::Line => fields_of::<LineSpec>(),
            Node::SecondLine => fields_of::<SecondLineSpec>(),
            Node::Unit => fields_of::<UnitSpec>(),
            Node::Commander => fields_of::<CommanderTable>(),
            Node::Arrives => fields_of::<super::schema::ArrivesSpec>(),
            Node::Reserve => fields_of::<super::schema::ReserveSpec>(),
            _ => &[],
        }
    }

    fn child(self, key: &str) -> Node {
        match (self, key) {
            (Node::Root, "table") => Node::Table,
            (Node::Root, "history") => Node::History,
            (Node::Root, "terrain") => Node::Terrain,
            (Node::Root, "parliament" | "royalist") => Node::Side,
            (Node::Root, "rules" | "black_powder_rules" | "dickenson_rules") | (Node::Rules, _) => {
                Node::Rules
            }
            (Node::Terrain, "areas") => Node::Areas,
            (Node::Terrain, "obstacles") => Node::Obstacles,
            (Node::Terrain, "camps") => Node::Camps,
            (Node::Side, "captain_general") | (Node::Command, "commander") => Node::Commander,
            (Node::Side, "commands") => Node::Commands,
            (Node::Commands, _) => Node::Command,
            (Node::Command | Node::Line | Node::SecondLine, "units") => Node::Units,
            (Node::Command, "lines") => Node::Lines,
            (Node::Line, "second_line") => Node::SecondLine,
            (Node::Command | Node::Unit, "arrives") => Node::Arrives,
            (Node::Command, "reserve_until") => Node::Reserve,
            _ => Node::Value,
        }
    }

    fn element(self) -> Node {
        match self {
            Node::Areas => Node::Area,
            Node::Obstacles => Node::Obstacle,
            Node::Camps => Node::Camp,
            Node::Lines => Node::Line,
            Node::Units => Node::Unit,
            Node::Rules => Node::Rules,
            _ => Node::Value,
        }
    }

    /// A table that an override may create when the file leaves it out (`table.width=80`).
    fn may_create(self) -> bool {
        matches!(
            self,
            Node::Table
                | Node::Terrain
                | Node::SecondLine
                | Node::Rules
                | Node::Arrives
                | Node::Reserve
        )
    }
}

/// Applies one override to the tree. Its value takes `span` (past the end of the file) so a
/// serde error about it can be told apart from one about the file.
pub(crate) fn apply<'i>(
    root: &mut DeTable<'i>,
    ov: &'i Override,
    span: Range<usize>,
) -> Result<(), String> {
    let parts: Vec<&'i str> = ov.path.split('.').collect();
    let value = parse_value(&ov.value, &span);
    set_in_table(root, Node::Root, &parts, 0, value, &span)
}

/// A TOML value when the text is one (`6`, `true`, `[1, 2]`, `{ roll = true }`), else a string
/// (`cromwell`).
fn parse_value<'i>(text: &'i str, span: &Range<usize>) -> Spanned<DeValue<'i>> {
    match DeValue::parse(text) {
        Ok(v) => respan(v, span),
        Err(_) => Spanned::new(span.clone(), DeValue::String(Cow::Borrowed(text))),
    }
}

fn respan<'i>(v: Spanned<DeValue<'i>>, span: &Range<usize>) -> Spanned<DeValue<'i>> {
    let inner = match v.into_inner() {
        DeValue::Array(a) => DeValue::Array(
            a.into_iter()
                .map(|x| respan(x, span))
                .collect::<DeArray<'i>>(),
        ),
        DeValue::Table(t) => {
            let mut out = DeTable::new();
            for (k, x) in t {
                out.insert(Spanned::new(span.clone(), k.into_inner()), respan(x, span));
            }
            DeValue::Table(out)
        }
        other => other,
    };
    Spanned::new(span.clone(), inner)
}

fn set_in_table<'i>(
    t: &mut DeTable<'i>,
    node: Node,
    parts: &[&'i str],
    depth: usize,
    value: Spanned<DeValue<'i>>,
    span: &Range<usize>,
) -> Result<(), String> {
    let key = parts[depth];
    let last = depth + 1 == parts.len();
    if !t.contains_key(key) {
        if node != Node::Rules && !node.keys().contains(&key) {
            let existing: Vec<&str> = t.keys().map(|k| k.get_ref().as_ref()).collect();
            return Err(unknown_key(&parts[..depth], key, &existing, node.keys()));
        }
        if !last {
            let child = node.child(key);
            if !child.may_create() {
                return Err(format!(
                    "`{}` is not in the file: set the whole of it",
                    parts[..=depth].join(".")
                ));
            }
            t.insert(
                Spanned::new(span.clone(), Cow::Borrowed(key)),
                Spanned::new(span.clone(), DeValue::Table(DeTable::new())),
            );
        }
    }
    if last {
        t.insert(Spanned::new(span.clone(), Cow::Borrowed(key)), value);
        return Ok(());
    }
    let child = node.child(key);
    let v = t.get_mut(key).expect("present or just inserted");
    set_in_value(v, child, parts, depth + 1, value, span)
}

fn set_in_value<'i>(
    v: &mut Spanned<DeValue<'i>>,
    node: Node,
    parts: &[&'i str],
    depth: usize,
    value: Spanned<DeValue<'i>>,
    span: &Range<usize>,
) -> Result<(), String> {
    let here = parts[..depth].join(".");
    match v.get_mut() {
        DeValue::Table(t) => set_in_table(t, node, parts, depth, value, span),
        DeValue::Array(a) => {
            let n = a.len();
            let key = parts[depth];
            let Ok(i) = key.parse::<usize>() else {
                return Err(format!(
                    "`{here}` is a list of {n}: the next part must be an index from 0, not `{key}`"
                ));
            };
            if i >= n {
                return Err(format!(
                    "`{here}` has {n} entries (indices 0 to {}); there is no entry {i}",
                    n.saturating_sub(1)
                ));
            }
            if depth + 1 == parts.len() {
                a.as_mut()[i] = value;
                Ok(())
            } else {
                set_in_value(
                    &mut a.as_mut()[i],
                    node.element(),
                    parts,
                    depth + 1,
                    value,
                    span,
                )
            }
        }
        other => Err(format!(
            "`{here}` is a {}, not a table: set `{here}` itself",
            other.type_str()
        )),
    }
}

/// "unknown key `cvv` in `...units.2`; did you mean `...units.2.cv`?" with the keys allowed there.
fn unknown_key(at: &[&str], key: &str, existing: &[&str], schema: &[&str]) -> String {
    let mut candidates: Vec<&str> = existing.iter().chain(schema).copied().collect();
    candidates.sort_unstable();
    candidates.dedup();
    let prefix = if at.is_empty() {
        String::new()
    } else {
        format!("{}.", at.join("."))
    };
    let where_ = if at.is_empty() {
        "at the top level".to_string()
    } else {
        format!("in `{}`", at.join("."))
    };
    let near = nearest(key, &candidates, 3);
    let mut msg = format!("unknown key `{key}` {where_}");
    if !near.is_empty() {
        let list: Vec<String> = near.iter().map(|k| format!("`{prefix}{k}`")).collect();
        msg.push_str(&format!("; did you mean {}?", list.join(" or ")));
    }
    if candidates.is_empty() {
        msg.push_str(" (nothing can be set here)");
    } else {
        msg.push_str(&format!(" (valid here: {})", candidates.join(", ")));
    }
    msg
}

/// "did you mean A or B? " for the two candidates nearest `word` (nothing when none is
/// near), to lead the list of what may be given.
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    let near = nearest(word, candidates, 2);
    if near.is_empty() {
        String::new()
    } else {
        format!("did you mean {}? ", near.join(" or "))
    }
}

/// Up to `n` candidates close to `word` by edit distance, nearest first.
pub(crate) fn nearest<'a>(word: &str, candidates: &[&'a str], n: usize) -> Vec<&'a str> {
    let limit = 2.max(word.chars().count() / 3);
    let mut scored: Vec<(usize, &str)> = candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|(_, c)| c).collect()
}

/// Levenshtein distance over characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb)).min(row[j] + 1).min(up + 1);
            diag = up;
        }
    }
    row[b.len()]
}

/// The dotted path of the most specific key or value at `span` (exactly that span if one has it,
/// else the smallest holding it): names where a serde error sits.
pub(crate) fn path_at(root: &DeTable<'_>, span: &Range<usize>) -> String {
    let mut best: Option<(bool, usize, String)> = None;
    let mut path = Vec::new();
    visit_table(root, &mut path, &mut |p, s| {
        let exact = s == *span;
        // A node holds the error when it holds the whole of its span (an empty span: its start).
        let holds = s.start <= span.start && span.end.max(span.start + 1) <= s.end.max(s.start + 1);
        if exact || holds {
            let cand = (!exact, s.end - s.start, p.join("."));
            if best.as_ref().is_none_or(|b| (cand.0, cand.1) < (b.0, b.1)) {
                best = Some(cand);
            }
        }
    });
    best.map(|b| b.2).unwrap_or_default()
}

fn visit_table(
    t: &DeTable<'_>,
    path: &mut Vec<String>,
    f: &mut dyn FnMut(&[String], Range<usize>),
) {
    for (k, v) in t.iter() {
        path.push(k.get_ref().to_string());
        f(path, k.span());
        visit_value(v, path, f);
        path.pop();
    }
}

fn visit_value(
    v: &Spanned<DeValue<'_>>,
    path: &mut Vec<String>,
    f: &mut dyn FnMut(&[String], Range<usize>),
) {
    f(path, v.span());
    match v.get_ref() {
        DeValue::Table(t) => visit_table(t, path, f),
        DeValue::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                visit_value(x, path, f);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The span of a dotted key (a table key's own span; an array entry's value), or of the deepest
/// part of it that exists.
pub(crate) fn span_of(root: &DeTable<'_>, key: &str) -> Option<Range<usize>> {
    let mut found = None;
    let mut table = Some(root);
    let mut value: Option<&Spanned<DeValue<'_>>> = None;
    for part in key.split('.').filter(|p| !p.is_empty()) {
        if let Some(t) = table.take() {
            let Some((k, v)) = t.get_key_value(part) else {
                break;
            };
            found = Some(k.span());
            value = Some(v);
        } else if let Some(DeValue::Array(a)) = value.map(Spanned::get_ref) {
            let Some(v) = part.parse::<usize>().ok().and_then(|i| a.get(i)) else {
                break;
            };
            found = Some(v.span());
            value = Some(v);
        } else {
            break;
        }
        if let Some(DeValue::Table(t)) = value.map(Spanned::get_ref) {
            table = Some(t);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("cv", "cvv"), 1);
        assert_eq!(edit_distance("turn_limt", "turn_limit"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(
            nearest("comander", &["commander", "commands", "x"], 3),
            vec!["commander"]
        );
        assert_eq!(
            nearest("left_hors", &["right_horse", "left_horse", "foot"], 3),
            vec!["left_horse"]
        );
    }

    #[test]
    fn overrides_parse() {
        assert_eq!(
            Override::parse("a.b = 3").unwrap(),
            Override {
                path: "a.b".into(),
                value: "3".into()
            }
        );
        assert!(Override::parse("nothing").is_err());
        assert!(Override::parse("a..b=1").is_err());
        let o = Override::parse("royalist.captain_general=cromwell").unwrap();
        assert!(
            o.covers("royalist.captain_general")
                && o.covers("royalist.captain_general.name")
                && !o.covers("royalist.captain_generals")
        );
    }

    #[test]
    fn spans_locate_keys() {
        let text =
            "a = 1\n[p.commands.foot]\nunits = [ { name = \"x\" },\n  { name = \"y\", cv = 9 } ]\n";
        let t = DeTable::parse(text).unwrap();
        let s = span_of(t.get_ref(), "p.commands.foot.units.1.cv").unwrap();
        assert_eq!(&text[s.clone()], "cv");
        assert_eq!(
            path_at(t.get_ref(), &(s.start..s.start + 1)),
            "p.commands.foot.units.1.cv"
        );
    }
}

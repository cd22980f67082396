//! The command-line words of the what-if tools: `--variant NAME:PATH=VALUE[,PATH=VALUE...]`,
//! `--param PATH=V1,V2,...`, and the grid of a sweep (every combination of the values).
//!
//! Values are TOML or plain words, as with `--set`, so a comma inside brackets, braces or quotes
//! (`[1, 2]`, `{ roll = true, name = "Sir John" }`) belongs to the value, not the list.

use crate::error::{Error, Result};

/// Splits `text` at each `sep` that is outside brackets, braces and quotes.
pub fn split_top_level(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0usize);
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A version of the battle asked for on the command line: its name and its `--set` overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSpec {
    pub name: String,
    pub overrides: Vec<String>,
}

/// A name for a version: letters, digits, `_`, `-` and `.`.
fn check_name(name: &str, what: &str) -> Result<()> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(Error::Usage(format!(
            "{what}: `{name}` is not a name (letters, digits, `_`, `-` and `.`)"
        )));
    }
    Ok(())
}

impl VariantSpec {
    /// `NAME:PATH=VALUE[,PATH=VALUE...]`.
    pub fn parse(arg: &str) -> Result<VariantSpec> {
        let usage = || {
            Error::Usage(format!(
                "--variant `{arg}`: expected NAME:PATH=VALUE[,PATH=VALUE...], e.g. rupert_cg:royalist.captain_general=rupert"
            ))
        };
        let (name, rest) = arg.split_once(':').ok_or_else(usage)?;
        let name = name.trim();
        if name.contains('=') {
            return Err(usage());
        }
        check_name(name, &format!("--variant `{arg}`"))?;
        let mut overrides = Vec::new();
        for part in split_top_level(rest, ',') {
            let part = part.trim();
            match part.split_once('=') {
                Some((path, _)) if !path.trim().is_empty() => overrides.push(part.to_string()),
                _ => {
                    return Err(Error::Usage(format!(
                        "--variant `{arg}`: `{part}` is not PATH=VALUE"
                    )));
                }
            }
        }
        Ok(VariantSpec {
            name: name.to_string(),
            overrides,
        })
    }
}

/// One swept parameter: a scenario path and the values it takes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub path: String,
    pub values: Vec<String>,
}

impl Param {
    /// `PATH=V1,V2,...`.
    pub fn parse(arg: &str) -> Result<Param> {
        let Some((path, values)) = arg.split_once('=') else {
            return Err(Error::Usage(format!(
                "--param `{arg}`: expected PATH=V1,V2,..., e.g. turn_limit=8,12,16"
            )));
        };
        let path = path.trim();
        if path.is_empty() || path.split('.').any(|p| p.trim().is_empty()) {
            return Err(Error::Usage(format!(
                "--param `{arg}`: `{path}` is not a key path (keys joined by dots)"
            )));
        }
        let values: Vec<String> = split_top_level(values, ',')
            .into_iter()
            .map(|v| v.trim().to_string())
            .collect();
        if values.iter().any(String::is_empty) {
            return Err(Error::Usage(format!(
                "--param `{arg}`: an empty value (values are separated by commas)"
            )));
        }
        Ok(Param {
            path: path.to_string(),
            values,
        })
    }
}

/// Every combination of the parameters' values, the first parameter changing slowest: each
/// point a value per parameter, in the parameters' order.
pub fn grid(params: &[Param]) -> Result<Vec<Vec<String>>> {
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.path == p.path) {
            return Err(Error::Usage(format!(
                "--param {}: the same path twice; give all its values in one --param",
                p.path
            )));
        }
    }
    let mut points: Vec<Vec<String>> = vec![Vec::new()];
    for p in params {
        points = points
            .into_iter()
            .flat_map(|point| {
                p.values.iter().map(move |v| {
                    let mut next = point.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    Ok(points)
}

/// A grid point as `--set` overrides: `PATH=VALUE` per parameter.
pub fn point_overrides(params: &[Param], point: &[String]) -> Vec<String> {
    params
        .iter()
        .zip(point)
        .map(|(p, v)| format!("{}={v}", p.path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_inside_values_stay() {
        assert_eq!(
            split_top_level(r#"a=1,b={ roll = true, name = "x, y" },c=[1, 2]"#, ','),
            vec!["a=1", r#"b={ roll = true, name = "x, y" }"#, "c=[1, 2]"]
        );
        assert_eq!(split_top_level("", ','), vec![""]);
        assert_eq!(
            split_top_level(r#""a\",b",c"#, ','),
            vec![r#""a\",b""#, "c"]
        );
    }

    #[test]
    fn variants_parse() {
        let v = VariantSpec::parse(
            "no_cromwell:parliament.commands.left_horse.commander={ roll = true, name = \"Colonel X\" },turn_limit=20",
        )
        .unwrap();
        assert_eq!(v.name, "no_cromwell");
        assert_eq!(
            v.overrides,
            vec![
                "parliament.commands.left_horse.commander={ roll = true, name = \"Colonel X\" }",
                "turn_limit=20"
            ]
        );
        for bad in [
            "royalist.captain_general=rupert",
            "x=y:royalist.captain_general=rupert",
            ":turn_limit=3",
            "a b:turn_limit=3",
            "v:turn_limit",
            "v:",
            "v:turn_limit=3,",
        ] {
            assert!(VariantSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn params_and_grids() {
        let a = Param::parse("turn_limit=8,12").unwrap();
        let b = Param::parse("royalist.captain_general=rupert,{ roll = true }").unwrap();
        assert_eq!(b.values, vec!["rupert", "{ roll = true }"]);
        let params = [a.clone(), b];
        let g = grid(&params).unwrap();
        assert_eq!(
            g,
            vec![
                vec!["8", "rupert"],
                vec!["8", "{ roll = true }"],
                vec!["12", "rupert"],
                vec!["12", "{ roll = true }"],
            ]
        );
        assert_eq!(
            point_overrides(&params, &g[1]),
            vec!["turn_limit=8", "royalist.captain_general={ roll = true }"]
        );
        assert_eq!(grid(&[]).unwrap(), vec![Vec::<String>::new()]);
        assert!(grid(&[a.clone(), a]).is_err());
        for bad in ["turn_limit", "=3", "turn_limit=3,,4", "a..b=1"] {
            assert!(Param::parse(bad).is_err(), "{bad}");
        }
    }
}

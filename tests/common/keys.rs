//! The leaves of a ruleset file, each with a changed value: what the every-key-matters tests
//! set one at a time.

/// Every leaf of the TOML `text` as (dotted key, a changed value in TOML syntax).
pub fn leaves(text: &str) -> Vec<(String, String)> {
    let table: toml::Table = text.parse().unwrap();
    let mut out = Vec::new();
    walk(&mut out, "", &toml::Value::Table(table));
    out
}

fn walk(out: &mut Vec<(String, String)>, key: &str, v: &toml::Value) {
    let join = |k: &str| {
        if key.is_empty() {
            k.to_string()
        } else {
            format!("{key}.{k}")
        }
    };
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                walk(out, &join(k), v);
            }
        }
        toml::Value::Array(a) if a.iter().all(|x| x.is_table()) => {
            for (i, v) in a.iter().enumerate() {
                walk(out, &join(&i.to_string()), v);
            }
        }
        other => {
            if let Some(changed) = changed(key, other) {
                out.push((key.to_string(), changed));
            }
        }
    }
}

/// A different value of the same type that a valid ruleset may hold.
fn changed(key: &str, v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::Integer(i) => {
            // Limits and counts move by one, the way that stays in range.
            let j = if key.ends_with("die_always_misses") || key.ends_with("cv_max") {
                i - 1
            } else if *i == 0 {
                1
            } else if *i > 0 {
                i + 1
            } else {
                i - 1
            };
            j.to_string()
        }
        // (An early hedgehog inside the 8" at which it is forced changes nothing.)
        toml::Value::Float(_) if key.ends_with("hedgehog_early_range") => "12.0".into(),
        toml::Value::Float(f) => {
            let g = if *f == 0.0 { 1.0 } else { f * 1.5 };
            format!("{g:?}")
        }
        toml::Value::Boolean(b) => (!b).to_string(),
        toml::Value::String(s) => match (key, s.as_str()) {
            (k, "horse_and_rider") if k.ends_with("casualty_table") => "\"easy\"".into(),
            (k, "easy") if k.ends_with("independent_lps") => "\"table\"".into(),
            _ => return None, // names and labels
        },
        toml::Value::Array(a) => {
            // A list of numbers: change the first.
            let mut a = a.clone();
            match a.first()? {
                toml::Value::Integer(i) => a[0] = toml::Value::Integer(i + 1),
                toml::Value::Float(f) => a[0] = toml::Value::Float(f + 1.0),
                _ => return None,
            }
            toml::Value::Array(a).to_string()
        }
        _ => return None,
    })
}

/// Whether `key` is on a known-inert list: by name, or under a group ending in '.' (or '_').
pub fn listed(entry: &str, key: &str) -> bool {
    if entry.ends_with('.') || entry.ends_with('_') {
        key.starts_with(entry)
    } else {
        key == entry
    }
}

/// The grids of the exact tables `ids`, each built by `build` (None if one is unknown).
pub fn grids(
    ids: &[&str],
    build: impl Fn(&str) -> Option<ecw_sim::tables::Table>,
) -> Option<String> {
    ids.iter()
        .map(|id| Some(format!("{:?}\n", build(id)?.grids)))
        .collect()
}

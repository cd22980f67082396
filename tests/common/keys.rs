//! The leaves of a ruleset file, each with a changed value: what the every-key-matters tests
//! set one at a time, and the checks they share.

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

/// What changing each key did: how many keys were tried, those that changed nothing and are
/// not on the known-inert list, those listed by name that now matter, and the overrides
/// validation refused.
pub struct Inert {
    pub tried: usize,
    pub inert: Vec<String>,
    pub now_read: Vec<String>,
    pub refused: Vec<String>,
}

/// Each leaf of the ruleset `text` changed in turn as `PREFIX.KEY=VALUE` and asked of
/// `outcome` (None: refused), against its answer with no change; `known` is the known-inert
/// list. The keys' battles are fought on two threads.
pub fn inert_keys(
    text: &str,
    prefix: &str,
    known: &[(&str, &str)],
    outcome: impl Fn(&[String]) -> Option<String> + Sync,
) -> Inert {
    let base = outcome(&[]).unwrap();
    let leaves = leaves(text);
    let sets: Vec<String> = (leaves.iter())
        .map(|(key, value)| format!("{prefix}.{key}={value}"))
        .collect();
    let changes: Vec<Option<bool>> = std::thread::scope(|s| {
        let halves: Vec<_> = sets
            .chunks(sets.len().div_ceil(2))
            .map(|part| {
                let (outcome, base) = (&outcome, &base);
                s.spawn(move || {
                    (part.iter())
                        .map(|set| outcome(std::slice::from_ref(set)).map(|o| o != *base))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut found = Inert {
        tried: leaves.len(),
        inert: Vec::new(),
        now_read: Vec::new(),
        refused: Vec::new(),
    };
    for (((key, _), set), changed) in leaves.iter().zip(sets).zip(changes) {
        let on_list = known.iter().any(|&(k, _)| listed(k, key));
        let by_name = known.iter().any(|&(k, _)| k == key);
        match changed {
            None => found.refused.push(set),
            Some(false) if !on_list => found.inert.push(key.clone()),
            Some(true) if by_name => found.now_read.push(key.clone()),
            _ => {} // changed, or listed
        }
    }
    found
}

/// Fails on a key of `ruleset` that changed nothing unlisted, or one listed by name that now
/// matters (it must come off the list); names the refused overrides (tested by validation).
pub fn check(ruleset: &str, found: Inert) {
    let Inert {
        tried,
        inert,
        now_read,
        refused,
    } = found;
    eprintln!("{ruleset}: refused (out of range, so tested by validation instead): {refused:?}");
    // A scenario that refuses the overrides themselves (one of another ruleset) would refuse
    // every key, and the test would try none.
    assert!(
        refused.len() * 4 < tried,
        "{ruleset}: {} of {tried} keys refused: does a scenario refuse the overrides?",
        refused.len()
    );
    assert!(
        inert.is_empty(),
        "{ruleset} rule keys that change no battle and no table: {inert:#?}"
    );
    assert!(
        now_read.is_empty(),
        "{ruleset} keys listed as inert now matter: take them off the list: {now_read:?}"
    );
}

/// Fails on a key of the known-inert `lists` that changes nothing because its rule is not
/// applied ("defect:"): a defect is to fix, not to list.
pub fn no_defects(lists: &[&[(&str, &str)]]) {
    let defects: Vec<&str> = (lists.iter().flat_map(|l| l.iter()))
        .filter(|(_, why)| why.starts_with("defect:"))
        .map(|&(k, _)| k)
        .collect();
    assert!(
        defects.is_empty(),
        "rule keys listed as defects: {defects:?}"
    );
}

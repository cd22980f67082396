//! Every kind of page ecw-sim writes, opened in headless Chromium through the DevTools
//! protocol (a WebSocket client speaking CDP): each loads with no console error, no exception
//! and no request beyond the page itself; every visible chart has a size and the number of
//! marks it says; the switches work (a table sorts, a table's chart turns to "at least", the
//! replay's slider moves units); and a screenshot of each page is written for the record
//! (to `target/screenshots/`, or to `$ECW_SHOTS_DIR`: `docs/REPORTS.md` makes `docs/img/` so).
//!
//! Without Chromium the test fails under CI (`CI=true`) and is skipped elsewhere, saying why.

mod common;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::cli::{ok, s, scratch};
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

fn find_chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome", "chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// A headless Chromium and one page target, driven over CDP.
struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    events: Vec<Value>,
    _profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch(exe: &Path) -> Browser {
        let profile = scratch("chromium-profile");
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().expect("stderr piped");
        let mut url = None;
        for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
            if let Some(rest) = line.split("DevTools listening on ").nth(1) {
                url = Some(rest.trim().to_string());
                break;
            }
        }
        let url = url.expect("chromium prints its DevTools address");
        let hostport = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let stream = TcpStream::connect(&hostport).expect("DevTools port");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let (ws, _) = tungstenite::client(url.as_str(), stream).expect("WebSocket handshake");
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next_id: 0,
            events: Vec::new(),
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page", "Runtime", "Log", "Network"] {
            b.call(&format!("{domain}.enable"), json!({}));
        }
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1000, "height": 1300, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a DevTools message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("DevTools closed the connection"),
                _ => {}
            }
        }
    }

    /// Sends a command (to the page once attached) and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let m = self.read();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method}: {}", m["error"]);
                return m["result"].clone();
            }
            self.events.push(m);
        }
    }

    fn wait_event(&mut self, name: &str) {
        let start = Instant::now();
        while !self.events.iter().any(|e| e["method"] == name) {
            assert!(start.elapsed() < Duration::from_secs(60), "no {name}");
            let m = self.read();
            self.events.push(m);
        }
    }

    /// Opens `file`; returns the milliseconds from navigation to the load event.
    fn open(&mut self, file: &Path) -> f64 {
        self.events.clear();
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        self.call("Page.navigate", json!({"url": url}));
        self.wait_event("Page.loadEventFired");
        self.eval("performance.getEntriesByType('navigation')[0].loadEventEnd")
            .as_f64()
            .unwrap()
    }

    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": js, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{js}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// What the page complained about or fetched, beyond the page itself.
    fn trouble(&mut self, page: &Path) -> Vec<String> {
        let own = format!("file://{}", page.canonicalize().unwrap().display());
        let mut out = Vec::new();
        for e in &self.events {
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.exceptionThrown" => {
                    out.push(format!("exception: {}", p["exceptionDetails"]))
                }
                "Runtime.consoleAPICalled" if p["type"] == "error" || p["type"] == "warning" => out
                    .push(format!(
                        "console {}: {}",
                        p["type"].as_str().unwrap_or(""),
                        p["args"]
                    )),
                "Log.entryAdded" if p["entry"]["level"] == "error" => {
                    out.push(format!("log: {}", p["entry"]["text"]))
                }
                "Network.requestWillBeSent" if p["request"]["url"] != json!(own) => {
                    out.push(format!("request: {}", p["request"]["url"]))
                }
                _ => {}
            }
        }
        out
    }

    fn screenshot(&mut self, name: &str) {
        let dir = std::env::var_os("ECW_SHOTS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"));
        std::fs::create_dir_all(&dir).unwrap();
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(shot["data"].as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "{name}: a PNG");
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|c| *c != b'=').map(value).collect();
    bytes
        .chunks(4)
        .flat_map(|q| {
            let n = q
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, v)| n | (u32::from(*v) << (18 - 6 * i)));
            let take = q.len().saturating_sub(1);
            (0..take).map(move |i| (n >> (16 - 8 * i)) as u8)
        })
        .collect()
}

/// The visible charts: each one's size, its marks and the marks it says it has.
const CHARTS: &str = "JSON.stringify(Array.from(document.querySelectorAll('figure.chart')).filter(function(f){return f.offsetParent!==null;}).map(function(f){var r=f.querySelector('svg').getBoundingClientRect();return [r.width,r.height,f.querySelectorAll('svg .mark').length,+f.dataset.marks];}))";

/// Checks every visible chart; returns how many there are.
fn check_charts(b: &mut Browser, page: &str) -> usize {
    let charts: Vec<[f64; 4]> = serde_json::from_str(b.eval(CHARTS).as_str().unwrap()).unwrap();
    for (i, [w, h, marks, said]) in charts.iter().enumerate() {
        assert!(*w > 100.0 && *h > 50.0, "{page} chart {i}: {w}x{h}");
        assert!(
            *marks > 0.0 && marks == said,
            "{page} chart {i}: {marks} marks, says {said}"
        );
    }
    charts.len()
}

fn open_clean(b: &mut Browser, page: &Path, name: &str) -> f64 {
    let ms = b.open(page);
    let trouble = b.trouble(page);
    assert!(trouble.is_empty(), "{name}: {trouble:#?}");
    ms
}

#[test]
fn every_page_works_in_a_real_browser() {
    let Some(exe) = find_chromium() else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "CI: Chromium is required (apt-get install chromium)");
        println!("SKIPPED browser: no chromium on PATH (set CHROMIUM=/path/to/chrome)");
        return;
    };
    let dir = scratch("pages");
    let d = |name: &str| dir.join(name);
    ok(&[
        "run",
        "--battles",
        "300",
        "--out",
        s(&d("run")),
        "--quiet",
        "--report",
    ]);
    ok(&[
        "compare",
        "small_action",
        "--variant",
        "fire:rules.options.no_reaction_from_fire_at_cv=4",
        "--variant",
        "short:turn_limit=6",
        "--battles",
        "300",
        "--out",
        s(&d("compare")),
        "--quiet",
    ]);
    ok(&[
        "balance",
        "--side-a",
        "parliament:1642,1644",
        "--side-b",
        "royalist:1642,1644",
        "--battles",
        "100",
        "--out",
        s(&d("balance")),
        "--quiet",
    ]);
    ok(&[
        "sweep",
        "small_action",
        "--param",
        "rules.options.no_reaction_from_fire_at_cv=0,4",
        "--param",
        "turn_limit=6,16",
        "--battles",
        "100",
        "--out",
        s(&d("sweep")),
        "--quiet",
    ]);
    ok(&[
        "run",
        "naseby",
        "--ruleset",
        "black_powder",
        "--battles",
        "300",
        "--out",
        s(&d("bp")),
        "--quiet",
        "--report",
    ]);
    let tables = common::cli::run_ok(&["tables", "--format", "html"]);
    std::fs::write(d("tables.html"), tables).unwrap();
    ok(&["replay", "--html", s(&d("replay.html"))]);

    let mut b = Browser::launch(&exe);

    // The checks can fail: a page that logs an error, throws and asks for an image is caught.
    let bad = d("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/x.png\"><script>console.error('boom');null.x;</script></body></html>",
    )
    .unwrap();
    b.open(&bad);
    let trouble = b.trouble(&bad).join("\n");
    for kind in [
        "console error",
        "exception",
        "request: \"http://127.0.0.1:9/x.png\"",
    ] {
        assert!(trouble.contains(kind), "{kind} not caught in: {trouble}");
    }

    // The run report: every chart drawn, the unit table sorts, it opens in well under a second.
    let report = d("run").join("report.html");
    let ms = open_clean(&mut b, &report, "report");
    assert!(ms < 1000.0, "report loaded in {ms} ms");
    let n = check_charts(&mut b, "report");
    assert!(n >= 10, "report: {n} charts");
    b.eval("document.querySelectorAll('table.sortable th')[3].click()");
    let sorted: Vec<f64> = serde_json::from_str(
        b.eval("JSON.stringify(Array.from(document.querySelectorAll('table.sortable tbody tr')).map(function(r){return +r.cells[3].dataset.v;}))")
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert!(
        sorted.len() > 20 && sorted.windows(2).all(|w| w[0] <= w[1]),
        "sorted {sorted:?}"
    );
    assert!(sorted.first() < sorted.last(), "P(destroyed) varies");
    b.eval("window.scrollTo(0,0)");
    b.screenshot("run-report");
    // A big run's report, when given (docs/REPORTS.md: a million battles of Marston Moor).
    if let Some(big) = std::env::var_os("ECW_BIG_REPORT") {
        let big = PathBuf::from(big);
        let ms = open_clean(&mut b, &big, "big report");
        let n = check_charts(&mut b, "big report");
        println!("{}: {n} charts, loaded in {ms:.0} ms", big.display());
        assert!(ms < 1000.0, "{}: loaded in {ms} ms", big.display());
    }

    // A Black Powder report: its own measures' table and forests drawn too.
    let page = d("bp").join("report.html");
    open_clean(&mut b, &page, "black powder report");
    let n = check_charts(&mut b, "black powder report");
    assert!(n >= 15, "black powder report: {n} charts");
    let rows = b.eval("document.querySelectorAll('#measures + div table tbody tr').length");
    assert!(rows.as_f64().unwrap() > 15.0, "measures table: {rows}");
    b.eval("document.getElementById('measures').scrollIntoView()");
    b.screenshot("black-powder-report-measures");

    for (name, page, least) in [
        ("compare", d("compare").join("compare.html"), 6),
        ("balance", d("balance").join("balance.html"), 2),
        ("sweep", d("sweep").join("sweep.html"), 4),
    ] {
        open_clean(&mut b, &page, name);
        let n = check_charts(&mut b, name);
        assert!(n >= least, "{name}: {n} charts");
        b.screenshot(&format!("{name}-report"));
    }

    // Tables: one chart showing per table; "at least" swaps it for the cumulative one.
    let page = d("tables.html");
    open_clean(&mut b, &page, "tables");
    let n = check_charts(&mut b, "tables");
    assert_eq!(
        n,
        ecw_sim::tables::TABLE_IDS.len(),
        "one visible chart per table"
    );
    let mode = b.eval("(function(){var blk=Array.from(document.querySelectorAll('.tchart')).find(function(x){return x.querySelector('button');});blk.querySelector('button[data-m=\"at least\"]').click();var v=Array.from(blk.querySelectorAll('figure')).filter(function(f){return f.offsetParent!==null;});return v.length+' '+v[0].dataset.m;})()");
    assert_eq!(mode, json!("1 at least"));
    check_charts(&mut b, "tables, at least");
    b.screenshot("tables");

    // The replay: stepping the slider moves units and highlights the step's line.
    let page = d("replay.html");
    open_clean(&mut b, &page, "replay");
    let units = "JSON.stringify(Array.from(document.querySelectorAll('polygon.unit, polygon[class^=unit]')).map(function(p){return p.getAttribute('points');}))";
    let before = b.eval(units);
    let steps = b.eval("D.steps.length").as_f64().unwrap() as usize;
    let at = b.eval("(function(){for(var i=0;i<D.steps.length;i++){if(D.steps[i].t===3&&D.steps[i].s)return i;}return D.steps.length-1;})()");
    b.eval(&format!(
        "(function(){{var s=document.getElementById('step');s.value={at};s.dispatchEvent(new Event('input'));}})()"
    ));
    let after = b.eval(units);
    let (before, after): (Vec<String>, Vec<String>) = (
        serde_json::from_str(before.as_str().unwrap()).unwrap(),
        serde_json::from_str(after.as_str().unwrap()).unwrap(),
    );
    assert!(
        before.len() > 50 && before.len() == after.len(),
        "{} units",
        before.len()
    );
    let moved = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert!(moved > 10, "{moved} units moved by turn 3 of {steps} steps");
    assert_eq!(
        b.eval("document.querySelector('#story li.on').dataset.i"),
        json!(at.to_string())
    );
    assert!(
        b.eval("document.getElementById('now').textContent")
            .as_str()
            .unwrap()
            .starts_with("Turn 3")
    );
    b.screenshot("replay");
    let trouble = b.trouble(&page);
    assert!(trouble.is_empty(), "replay after stepping: {trouble:#?}");
}

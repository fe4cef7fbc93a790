//! `sessionkit report --out FILE`: one self-contained HTML file whose
//! sections are all there, whose figures equal `cost`'s, whose charts
//! hold a bar segment per figure, and (in a real browser, headless
//! Chromium, when installed) whose first session's tree opens.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

fn corpus_env() -> Env {
    Env::with_fixtures(&[
        "claude/projects",
        "claude-2.1.332/projects",
        "codex-0.171/sessions",
    ])
}

/// Writes the report and returns its text.
fn report(env: &Env, args: &[&str]) -> String {
    let out = env.path("report.html");
    let (code, _, err) = env.run(&[&["report", "--out", out.to_str().unwrap()], args].concat());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote "), "{err}");
    std::fs::read_to_string(out).unwrap()
}

/// The figures the report embeds.
fn data(html: &str) -> Value {
    let start = html
        .find("<script type=\"application/json\" id=\"sessionkit-report\">")
        .expect("the report embeds its figures");
    let rest = &html[start..];
    let body = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    serde_json::from_str(&body.replace("<\\/", "</")).unwrap()
}

#[test]
fn every_section_is_there_and_the_figures_are_cost_s() {
    let env = corpus_env();
    let html = report(&env, &[]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for id in [
        "summary",
        "cost-by-model",
        "cost-by-harness",
        "tokens",
        "top",
        "sessions",
        "limits",
        "memory",
    ] {
        assert!(
            html.contains(&format!("<section id=\"{id}\">")),
            "no section {id}"
        );
    }
    // Self-contained: nothing fetched, nothing run.
    for outside in [
        "http://",
        "https://",
        "<script src",
        "<link",
        "<img",
        "@import",
    ] {
        assert!(!html.contains(outside), "the report refers to {outside}");
    }
    assert_eq!(html.matches("<script").count(), 1, "only the JSON block");
    let d = data(&html);
    let cost = env.json(&["cost"]);
    let total = &cost["totals"];
    for f in [
        "messages",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_5m_tokens",
        "cache_write_1h_tokens",
        "total_tokens",
        "cost_nanousd",
    ] {
        assert_eq!(d["total"][f], total[f], "{f}");
    }
    let by_model = env.json(&["cost", "--by", "model"]);
    let rows = by_model["rows"].as_array().unwrap();
    assert_eq!(d["by_model"].as_object().unwrap().len(), rows.len());
    for r in rows {
        let m = r["model"].as_str().unwrap();
        assert_eq!(d["by_model"][m]["cost_nanousd"], r["cost_nanousd"], "{m}");
        assert_eq!(d["by_model"][m]["total_tokens"], r["total_tokens"], "{m}");
    }
    let by_harness = env.json(&["cost", "--by", "harness"]);
    for r in by_harness["rows"].as_array().unwrap() {
        let h = r["harness"].as_str().unwrap();
        assert_eq!(d["by_harness"][h]["cost_nanousd"], r["cost_nanousd"], "{h}");
    }
    // The fixtures span January to December: drawn by week, every week.
    assert_eq!(d["bucket"], "week");
    let sessions = env.json(&["sessions"]);
    assert_eq!(
        d["sessions"].as_u64(),
        Some(sessions.as_array().unwrap().len() as u64)
    );
    // Each session drawn has its section and its tree; the one with a
    // subagent can be opened.
    for s in d["sessions_drawn"].as_array().unwrap() {
        assert!(html.contains(&format!("id=\"session-{}\"", s.as_str().unwrap())));
    }
    assert!(html.contains(
        "<details class=\"agent\" data-agent=\"4b497318-ae10-42a1-9483-4cfcf6c508ac\"><summary>"
    ));
    assert_eq!(
        expected_bars(&env),
        html.matches("<rect class=\"bar").count()
    );
}

/// Bar segments the charts should hold: one per week and model with a
/// cost, per week and agent with a cost, per week and token kind with
/// tokens (none for limits or briefings here: none were recorded).
fn expected_bars(env: &Env) -> usize {
    let count = |by: &str, nonzero: &dyn Fn(&Value) -> usize| -> usize {
        env.json(&["cost", "--by", &format!("week,{by}")])["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(nonzero)
            .sum()
    };
    let priced = |r: &Value| usize::from(r["cost_nanousd"].as_i64().unwrap() > 0);
    let kinds = env.json(&["cost", "--by", "week"])["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let w = r["cache_write_5m_tokens"].as_u64().unwrap()
                + r["cache_write_1h_tokens"].as_u64().unwrap();
            [
                r["cache_read_tokens"].as_u64().unwrap(),
                w,
                r["input_tokens"].as_u64().unwrap(),
                r["output_tokens"].as_u64().unwrap(),
            ]
            .iter()
            .filter(|n| **n > 0)
            .count()
        })
        .sum::<usize>();
    count("model", &priced) + count("harness", &priced) + kinds
}

#[test]
fn a_period_and_a_project_narrow_it() {
    let env = corpus_env();
    let d = data(&report(
        &env,
        &[
            "--project",
            "beta",
            "--since",
            "2026-01-01",
            "--until",
            "2026-02-01",
        ],
    ));
    let cost = env.json(&[
        "cost",
        "--project",
        "beta",
        "--since",
        "2026-01-01",
        "--until",
        "2026-02-01",
    ]);
    assert_eq!(d["total"]["cost_nanousd"], cost["totals"]["cost_nanousd"]);
    assert_eq!(d["project"], "beta");
    assert_eq!(d["bucket"], "day");
    assert_eq!(d["sessions"], 2);
}

/// `--harness` keeps one client's sessions (by any of its names), as
/// `cost --harness` does; the page says which.
#[test]
fn a_harness_narrows_it() {
    let env = corpus_env();
    for name in ["codex", "claude"] {
        let html = report(&env, &["--harness", name, "--since", "2020-01-01"]);
        let d = data(&html);
        let cost = env.json(&["cost", "--harness", name, "--since", "2020-01-01"]);
        assert_eq!(
            d["total"]["cost_nanousd"], cost["totals"]["cost_nanousd"],
            "{name}"
        );
        let harness = if name == "claude" {
            "claude-code"
        } else {
            name
        };
        assert_eq!(d["harness"], harness);
        let by: Vec<&String> = d["by_harness"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| !k.is_empty())
            .collect();
        assert!(by.iter().all(|k| k.ends_with(harness)), "{by:?}");
        let drawn = d["sessions_drawn"].as_array().unwrap().len() as u64;
        let sessions = env
            .json(&["sessions", "--harness", name])
            .as_array()
            .unwrap()
            .len() as u64;
        assert_eq!(d["sessions"].as_u64(), Some(sessions), "{name}");
        assert!(drawn >= 1 && drawn <= sessions);
    }
    let html = report(&env, &["--harness", "codex"]);
    assert!(
        html.contains(" · Codex · generated"),
        "the page says which client"
    );
    // A session whose client states its own cost carries that figure,
    // marked as the client's.
    let html = report(&env, &["--harness", "claude", "--since", "2020-01-01"]);
    let reported = env.json(&["show", "4b497318"])["harness_reported"]["cost_usd"]
        .as_f64()
        .unwrap();
    assert!(reported > 0.0);
    let want = format!(" · ${reported:.2} by claude-code's own prices");
    assert!(html.contains(&want), "{want} not in the page");
}

#[test]
fn bad_input_writes_nothing() {
    let env = corpus_env();
    let out = env.path("r.html");
    let (code, _, err) = env.run(&[
        "report",
        "--out",
        out.to_str().unwrap(),
        "--tz",
        "Mars/Olympus",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not a known time zone"), "{err}");
    assert!(!out.exists());
    let (code, _, err) = env.run(&[
        "report",
        "--out",
        env.path("no/such/dir/r.html").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a directory"), "{err}");
    // An empty period is a report that says so.
    let html = report(&env, &["--since", "2030-01-01"]);
    assert!(html.contains("No messages in this period."));
    assert_eq!(data(&html)["total"]["messages"], 0);
}

/// Debian's Chromium, when installed.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = std::process::Command::new(name)
                .arg("--version")
                .output()
                .ok()?;
            out.status.success().then(|| PathBuf::from(name))
        })
}

/// Screenshots go where CI keeps artefacts.
fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/report-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn headless(browser: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(browser)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--virtual-time-budget=2000",
        ])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_real_browser_draws_the_bars_and_opens_the_tree() {
    let Some(browser) = chromium() else {
        crate::support::skip("Chromium is not installed (Debian: apt-get install chromium)");
        return;
    };
    let env = corpus_env();
    let html = report(&env, &[]);
    let page = env.path("report.html");
    let shots = artefacts();
    for (w, h) in [(1280, 900), (390, 844)] {
        let shot = shots.join(format!("report-{w}x{h}.png"));
        let _ = std::fs::remove_file(&shot);
        let out = headless(
            &browser,
            &[
                &format!("--screenshot={}", shot.display()),
                &format!("--window-size={w},{h}"),
                &format!("file://{}", page.display()),
            ],
        );
        assert!(
            shot.is_file(),
            "no screenshot: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A copy of the page with a probe: it clicks the first tree's summary
    // as a person would and writes what the page then shows.
    let probe = r#"<pre id="probe"></pre><script>
      const d = document.querySelector('#sessions details.agent');
      const before = d.open;
      d.querySelector('summary').click();
      const kids = d.querySelector('.children').getBoundingClientRect();
      document.getElementById('probe').textContent = JSON.stringify({
        bars: document.querySelectorAll('svg.chart rect.bar').length,
        charts: document.querySelectorAll('svg.chart').length,
        before, after: d.open, children_height: kids.height,
        width: document.querySelector('svg.chart').getBoundingClientRect().width
      });
    </script></body>"#;
    let probed = env.path("probed.html");
    std::fs::write(&probed, html.replacen("</body>", probe, 1)).unwrap();
    let out = headless(
        &browser,
        &[
            "--window-size=1280,900",
            "--dump-dom",
            &format!("file://{}", probed.display()),
        ],
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("no probe in the DOM: {dom:.400}"));
    let text = &dom[start + "<pre id=\"probe\">".len()..];
    let found: Value = serde_json::from_str(&text[..text.find("</pre>").unwrap()]).unwrap();
    assert_eq!(
        found["bars"].as_u64(),
        Some(expected_bars(&env) as u64),
        "{found}"
    );
    assert_eq!(found["charts"], 3, "{found}");
    assert_eq!(
        (found["before"].as_bool(), found["after"].as_bool()),
        (Some(false), Some(true)),
        "{found}"
    );
    assert!(found["children_height"].as_f64().unwrap() > 0.0, "{found}");
    assert!(found["width"].as_f64().unwrap() > 600.0, "{found}");
}

/// Recorded limits are drawn as points over time, five-hour and weekly.
#[test]
fn recorded_limits_are_drawn() {
    let env = corpus_env();
    for (now, pct) in [
        ("2026-02-01T10:00:00Z", 20.0),
        ("2026-02-01T11:00:00Z", 35.5),
    ] {
        let payload = serde_json::json!({
            "session_id": "4b497318-ae10-42a1-9483-4cfcf6c508ac",
            "model": {"id": "claude-opus-5-5", "display_name": "Opus 5.5"},
            "rate_limits": {
                "five_hour": {"used_percentage": pct, "resets_at": 1769950800},
                "seven_day": {"used_percentage": 41.2, "resets_at": 1770127200}
            }
        });
        let mut child = env
            .std_cmd()
            .env("SESSIONKIT_NOW", now)
            .arg("statusline")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::io::Write::write_all(
            child.stdin.as_mut().unwrap(),
            payload.to_string().as_bytes(),
        )
        .unwrap();
        assert!(child.wait().unwrap().success());
    }
    let html = report(&env, &[]);
    assert_eq!(data(&html)["limit_snapshots"], 2);
    let limits = &html[html.find("<section id=\"limits\">").unwrap()
        ..html.find("<section id=\"memory\">").unwrap()];
    assert_eq!(limits.matches("<circle class=\"point\"").count(), 4);
    assert!(
        limits.contains("<title>2026-02-01 11:00 · five-hour: 35.5%</title>"),
        "{limits}"
    );
}

/// The memory loop: open commitments by age, resolves by who made them.
#[test]
fn the_memory_loop_is_reported() {
    let env = corpus_env();
    let mut ids = Vec::new();
    for topic in ["ship the parser", "write the docs", "fix the flaky test"] {
        let (code, out, err) = env.run(&[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            topic,
            "--content",
            topic,
            "--project",
            "shop",
        ]);
        assert_eq!(code, 0, "{err}");
        ids.push(out.trim().to_string());
    }
    let (code, _, err) = env.run(&["resolve", &ids[0]]);
    assert_eq!(code, 0, "{err}");
    let html = report(&env, &[]);
    let memory = &html[html.find("<section id=\"memory\">").unwrap()..];
    // Two open, made just now; one resolve by a person (no agent's run).
    assert!(
        memory.contains("<tr><td>under a day</td><td>2</td></tr>"),
        "{memory}"
    );
    assert!(
        memory.contains("<tr><td>over 30 days</td><td>0</td></tr>"),
        "{memory}"
    );
    assert!(
        memory.contains("<tr><td>user</td><td>1</td></tr>"),
        "{memory}"
    );
    assert!(
        memory.contains("No briefing delivered in this period."),
        "{memory}"
    );
}

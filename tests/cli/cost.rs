//! `sessionkit cost`: exact dollars by period and key, time zones.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn by(env: &Env, args: &[&str]) -> Vec<Value> {
    env.cost_rows(args)
}

#[test]
fn cost_by_day_and_model_is_exact() {
    let env = Env::new();
    env.ingest(&fixtures());
    let days = by(&env, &["--tz", "UTC"]);
    let got: Vec<(&str, i64)> = days
        .iter()
        .map(|d| {
            (
                d["day"].as_str().unwrap(),
                d["cost_nanousd"].as_i64().unwrap(),
            )
        })
        .collect();
    // 2026-01-11 is session B alone: 5,863,100 (see reports.rs for the arithmetic).
    assert_eq!(got[1], ("2026-01-11", 5_863_100));
    assert_eq!(got.len(), 4);
    let total: i64 = got.iter().map(|(_, c)| c).sum();
    let sessions: i64 = env
        .json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["cost_nanousd"].as_i64().unwrap())
        .sum();
    assert_eq!(
        total, sessions,
        "every grouping sums to the same exact total"
    );
    let models = by(&env, &["--by", "model", "--tz", "UTC"]);
    assert_eq!(models[0]["model"], "<synthetic>");
    assert_eq!(
        models[0]["cost_nanousd"], 0,
        "synthetic messages are free, not unpriced"
    );
    let months = by(&env, &["--by", "month,project", "--tz", "UTC"]);
    assert_eq!(months.len(), 2);
    assert_eq!(
        (months[0]["month"].as_str(), months[0]["project"].as_str()),
        (Some("2026-01"), Some("alpha"))
    );
    // CSV has the JSON rows' fields and no totals row (a spreadsheet summing
    // a column would count it twice); `--totals` adds one, marked.
    let (_, csv, _) = env.run(&["cost", "--by", "project", "--tz", "UTC", "--format", "csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "project,messages,input_tokens,output_tokens,cache_write_5m_tokens,cache_write_1h_tokens,cache_read_tokens,reasoning_tokens,total_tokens,cost_usd,cost_nanousd,unpriced_tokens"
    );
    assert_eq!(lines.len(), 3, "{csv}");
    let json = by(&env, &["--by", "project", "--tz", "UTC"]);
    for (line, row) in lines[1..].iter().zip(json.iter()) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[8], row["total_tokens"].to_string(), "{line}");
        assert_eq!(cells[10], row["cost_nanousd"].to_string(), "{line}");
    }
    let (_, csv, _) = env.run(&[
        "cost", "--by", "project", "--tz", "UTC", "--format", "csv", "--totals",
    ]);
    let last = csv.lines().last().unwrap();
    assert!(
        last.starts_with("total,12,48,431,1860,630,23561,0,26530,0.02365,23650100,0"),
        "{csv}"
    );
}

#[test]
fn rollup_and_exact_paths_agree() {
    let env = Env::new();
    env.ingest(&fixtures());
    // Whole hours answer from the hourly rollup; a bound inside an hour reads
    // every message. Both give the same rows.
    let fast = by(&env, &["--by", "day,session", "--tz", "UTC"]);
    let exact = by(
        &env,
        &[
            "--by",
            "day,session",
            "--tz",
            "UTC",
            "--since",
            "1970-01-01T00:00:01Z",
        ],
    );
    assert_eq!(fast, exact);
    // A zone with a part-hour offset (India, +05:30) also reads every message.
    let kolkata = by(&env, &["--by", "day", "--tz", "Asia/Kolkata"]);
    let n: u64 = kolkata
        .iter()
        .map(|d| d["messages"].as_u64().unwrap())
        .sum();
    assert_eq!(n, 12);
    let berlin_fast = by(&env, &["--by", "day", "--tz", "Europe/Berlin"]);
    let berlin_exact = by(
        &env,
        &[
            "--by",
            "day",
            "--tz",
            "Europe/Berlin",
            "--since",
            "1970-01-01T00:00:01Z",
        ],
    );
    assert_eq!(berlin_fast, berlin_exact);
    // A bound inside a day reads messages exactly: only D's message on the 13th at 07:00:04.
    let late = by(&env, &["--since", "2026-01-13T07:00:01Z", "--tz", "UTC"]);
    assert_eq!(late.len(), 1);
    assert_eq!(late[0]["messages"], 1);
    assert_eq!(late[0]["output_tokens"], 66);
}

#[test]
fn days_follow_the_time_zone_across_dst() {
    let env = Env::new();
    let root = env.path("p");
    let sid = "dddddddd-0000-4000-8000-000000000001";
    // Berlin leaves CET for CEST at 2026-03-29T01:00Z.
    let lines: Vec<String> = [("m1", "2026-03-28T22:30:00Z"), ("m2", "2026-03-28T23:30:00Z"), ("m3", "2026-03-29T22:30:00Z")]
        .iter()
        .map(|(id, ts)| {
            format!(
                r#"{{"type":"assistant","sessionId":"{sid}","timestamp":"{ts}","message":{{"id":"{id}","model":"claude-haiku-4-5-20251001","usage":{{"input_tokens":1,"output_tokens":1}}}}}}"#
            )
        })
        .collect();
    std::fs::create_dir_all(root.join("-w")).unwrap();
    std::fs::write(
        root.join(format!("-w/{sid}.jsonl")),
        lines.join("\n") + "\n",
    )
    .unwrap();
    env.ingest(&root);
    let days = |tz: &str| -> Vec<(String, u64)> {
        by(&env, &["--tz", tz])
            .iter()
            .map(|d| {
                (
                    d["day"].as_str().unwrap().to_string(),
                    d["messages"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // UTC: 22:30 and 23:30 on the 28th, 22:30 on the 29th.
    assert_eq!(
        days("UTC"),
        vec![("2026-03-28".into(), 2), ("2026-03-29".into(), 1)]
    );
    // Berlin: 23:30 CET (28th), 00:30 CET (29th), 00:30 CEST (30th).
    assert_eq!(
        days("Europe/Berlin"),
        vec![
            ("2026-03-28".into(), 1),
            ("2026-03-29".into(), 1),
            ("2026-03-30".into(), 1)
        ]
    );
    let (code, _, err) = env.run(&["cost", "--tz", "Mars/Olympus"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a known time zone"), "{err}");
}

#[test]
fn pricing_set_and_import_reprice_in_one_step() {
    let env = Env::new();
    env.ingest(&fixtures());
    let list = env.json(&["pricing", "list", "--model", "haiku-4-5-2025"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(
        (
            list[0]["input"].as_str(),
            list[0]["cache_write_1h"].as_str(),
            list[0]["source"].as_str()
        ),
        (Some("1"), Some("2"), Some("embedded"))
    );
    // Sonnet 4.5 at 6 / 30 (cache rates default to the input rate): B's msg_B1
    // becomes 7×6 + 70×30 + 700×6 + 7000×6 = 48,342 → 48,342,000 nano-dollars.
    let r = env.json(&[
        "pricing",
        "set",
        "claude-sonnet-4-5-20250929",
        "--input",
        "6",
        "--output",
        "30",
    ]);
    assert_eq!(
        r["rows_repriced"], 5,
        "the five counted Sonnet 4.5 messages"
    );
    // New minus old per message ($/MTok·tokens): A1 855, A2 3,195, B1 42,546,
    // D1 4,563, N1 19,314 → 70,473 → 70,473,000 nano-dollars.
    assert_eq!(r["cost_delta_nanousd"], 70_473_000);
    assert_eq!(env.json(&["show", B])["cost_nanousd"], 48_342_000 + 67_100);
    assert_eq!(
        env.json(&["pricing", "list", "--model", "sonnet-4-5-2025"])[0]["source"],
        "custom"
    );
    // Bad input is refused and changes nothing.
    let (code, _, err) = env.run(&[
        "pricing",
        "set",
        "claude-sonnet-4-5-20250929",
        "--input",
        "cheap",
        "--output",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is not a price in dollars per million tokens"),
        "{err}"
    );
    assert_eq!(env.json(&["show", B])["cost_nanousd"], 48_342_000 + 67_100);
    // A LiteLLM price map: per-token dollars, converted exactly.
    let file = env.path("prices.json");
    std::fs::write(
        &file,
        r#"{"sample_spec": {"input_cost_per_token": 1},
            "claude-sonnet-4-5-20250929": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05,
              "cache_read_input_token_cost": 3e-07, "cache_creation_input_token_cost": 3.75e-06,
              "cache_creation_input_token_cost_above_1hr": 6e-06}}"#,
    )
    .unwrap();
    let r = env.json(&["pricing", "import", file.to_str().unwrap()]);
    assert_eq!(r["models"], 1);
    assert_eq!(r["cost_delta_nanousd"], -70_473_000);
    assert_eq!(
        env.json(&["show", B])["cost_nanousd"],
        5_863_100,
        "back to the list price"
    );
    let (code, _, err) = env.run(&["pricing", "import", "/no/such.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("reading /no/such.json"), "{err}");
}

#[test]
fn segments_split_at_compactions_and_sum_to_the_session() {
    let env = Env::new();
    env.ingest(&fixtures());
    // Session A compacts at 10:01:00: msg_A1, S1, S2 before; msg_A2 and the
    // synthetic message after.
    let segs = env.json(&["cost", "--session", "1111", "--segments"]);
    let segs = segs.as_array().unwrap();
    assert_eq!(segs.len(), 2);
    assert_eq!(
        (segs[0]["messages"].as_u64(), segs[1]["messages"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(segs[1]["trigger"], "auto");
    assert_eq!(segs[1]["pre_tokens"], 160000);
    assert_eq!(segs[1]["starts_at"], "2026-01-10T10:01:00.000Z");
    let sum: i64 = segs
        .iter()
        .map(|s| s["cost_nanousd"].as_i64().unwrap())
        .sum();
    assert_eq!(
        sum,
        env.json(&["show", A])["cost_nanousd"].as_i64().unwrap()
    );
    let (code, _, err) = env.run(&["cost", "--segments"]);
    assert_eq!(code, 2, "--segments needs --session: {err}");
}

/// The embedded price table is what `scripts/prices.py` makes of the
/// pinned LiteLLM maps and `src/domain/pricing/overrides.tsv`: regenerated, it is
/// byte for byte the checked-in one. (Needs python3 and the pinned maps
/// beside the repository.)
#[test]
fn the_price_table_is_generated_from_its_sources() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let current = repo.join("../shared/reference/data/litellm-1.110.2-model-prices.json");
    let legacy =
        repo.join("../shared/pricing/litellm-1.80.17-model_prices_and_context_window.json");
    if !current.exists() || !legacy.exists() {
        crate::support::skip("the pinned LiteLLM price maps are not beside the repository");
        return;
    }
    let Ok(out) = std::process::Command::new("python3")
        .arg(repo.join("scripts/prices.py"))
        .args([
            &current,
            &legacy,
            &repo.join("src/domain/pricing/overrides.tsv"),
        ])
        .output()
    else {
        crate::support::skip("python3 is not available");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let checked_in = std::fs::read(repo.join("src/domain/pricing/models.tsv")).unwrap();
    assert!(
        out.stdout == checked_in,
        "src/domain/pricing/models.tsv is not what scripts/prices.py makes: regenerate it"
    );
}

/// Every model the fixtures and the captured real runs name is priced:
/// ingested together, `check` names no unpriced model but the fake ones
/// the test servers answer as (`fake-model`, `gpt-fake`: nobody is billed
/// for them).
#[test]
fn every_model_of_the_fixtures_and_captured_runs_is_priced() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let env = Env::new();
    let mut roots: Vec<std::path::PathBuf> = [
        "claude/projects",
        "claude-2.1.332/projects",
        "claude-tree/projects",
        "codex-0.171/sessions",
        "gemini-0.61/tmp",
        "pi-0.73/sessions",
        "qwen-0.24/projects",
        "qwen-0.24-subagent/projects",
        "copilot-1.0/session-state",
        "copilot-1.0-subagent/session-state",
    ]
    .iter()
    .map(|r| repo.join("fixtures").join(r))
    .collect();
    let opencode = env.path("opencode");
    std::fs::create_dir_all(&opencode).unwrap();
    rusqlite::Connection::open(opencode.join("opencode.db"))
        .unwrap()
        .execute_batch(
            &std::fs::read_to_string(repo.join("fixtures/opencode-1.18/opencode.sql")).unwrap(),
        )
        .unwrap();
    roots.push(opencode);
    let captured = repo.join("../shared/corpus/captured");
    let more = [
        "claude-code-2.1.197/projects",
        "claude-code-2.1.332/projects",
        "codex-0.171.0/sessions",
        "gemini-cli-0.61.0/tmp",
        "pi-0.73.1/home/.pi/agent/sessions",
        "qwen-code-0.24.4/home/.qwen/projects",
        "copilot-1.0.102/home/.copilot/session-state",
        "opencode-1.18.33/home/.local/share/opencode",
    ];
    if captured.is_dir() {
        roots.extend(more.iter().map(|r| captured.join(r)).filter(|r| r.is_dir()));
    } else {
        crate::support::skip("the captured corpus is not beside the repository (fixtures only)");
    }
    let mut args = vec!["ingest".to_string()];
    for r in &roots {
        assert!(r.is_dir(), "{}", r.display());
        args.extend(["--root".to_string(), r.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = env.run(&args);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = env.run(&["check", "--no-recount", "--json"]);
    let findings: Value = serde_json::from_str(&out).unwrap();
    let unpriced: Vec<&str> = findings
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "unpriced-model")
        .map(|f| f["detail"].as_str().unwrap())
        .filter(|d| !d.split(':').next().unwrap_or("").contains("fake"))
        .collect();
    assert!(unpriced.is_empty(), "{unpriced:?}");
    assert!(env.scalar("SELECT COUNT(DISTINCT model) FROM usage_observations") > 8);
}

/// Reasoning tokens are their own figure where the transcript states them
/// (Codex `reasoning_output_tokens`, Gemini CLI `thoughts`, Qwen Code
/// `thoughtsTokenCount`, Copilot CLI `reasoningTokens`), part of the output
/// already: in `sessions`, `show` and `cost` JSON, never added to a total.
#[test]
fn reasoning_is_its_own_figure_inside_the_output() {
    let env = Env::new();
    let fx = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for root in [
        "codex-0.171/sessions",
        "gemini-0.61/tmp",
        "pi-0.73/sessions",
        "qwen-0.24/projects",
        "copilot-1.0/session-state",
    ] {
        env.ingest(&fx.join(root));
    }
    // harness: (reasoning, output, total) per session.
    let want = [
        ("codex", (8, 20, 420)),         // 4 responses × 2 (fixtures/README.md)
        ("copilot", (4, 170, 14170)),    // 4 own calls × 1; another session's not
        ("gemini", (12, 30, 36030)),     // 3 messages × 4 thoughts
        ("pi", (0, 100, 8150)),          // pi does not say
        ("qwen-code", (15, 200, 18200)), // 5 + 0 + 10
    ];
    let sessions = env.json(&["sessions"]);
    for (harness, (reasoning, output, total)) in want {
        let s = sessions
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["harness"] == harness)
            .unwrap();
        assert_eq!(
            (
                s["reasoning_tokens"].as_u64(),
                s["output_tokens"].as_u64(),
                s["total_tokens"].as_u64()
            ),
            (Some(reasoning), Some(output), Some(total)),
            "{harness}"
        );
        let show = env.json(&["show", s["session_id"].as_str().unwrap()]);
        assert_eq!(
            show["reasoning_tokens"].as_u64(),
            Some(reasoning),
            "{harness}"
        );
        let by_model: u64 = show["by_model"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["reasoning_tokens"].as_u64().unwrap())
            .sum();
        assert_eq!(by_model, reasoning, "{harness}");
    }
    let doc = env.json(&["cost", "--by", "harness"]);
    assert_eq!(doc["totals"]["reasoning_tokens"].as_u64(), Some(39));
    let rows = env.cost_rows(&["--by", "harness"]);
    let codex = rows.iter().find(|r| r["harness"] == "codex").unwrap();
    assert_eq!(codex["reasoning_tokens"].as_u64(), Some(8));
    // The exact path (a bound inside an hour) says the same.
    let exact = env.cost_rows(&["--by", "harness", "--since", "2020-01-01T00:30:00Z"]);
    let codex = exact.iter().find(|r| r["harness"] == "codex").unwrap();
    assert_eq!(codex["reasoning_tokens"].as_u64(), Some(8));
}

/// `cost --harness` narrows to one client's sessions (by its name or an
/// alias), and each client's totals are its row of `cost --by harness`.
#[test]
fn cost_narrows_to_one_client() {
    let env = Env::new();
    let fx = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for root in [
        "claude/projects",
        "codex-0.171/sessions",
        "pi-0.73/sessions",
    ] {
        env.ingest(&fx.join(root));
    }
    let by = env.json(&["cost", "--by", "harness", "--tz", "UTC"]);
    let rows = by["rows"].as_array().unwrap_or_else(|| panic!("{by}"));
    assert_eq!(rows.len(), 3, "{by}");
    for row in rows {
        let h = row["harness"].as_str().unwrap();
        let one = env.json(&["cost", "--harness", h, "--tz", "UTC"]);
        assert_eq!(one["totals"]["total_tokens"], row["total_tokens"], "{h}");
        assert_eq!(one["totals"]["cost_nanousd"], row["cost_nanousd"], "{h}");
    }
    assert_eq!(
        env.json(&["cost", "--harness", "claude"])["totals"],
        env.json(&["cost", "--harness", "claude-code"])["totals"]
    );
    let (code, _, err) = env.run(&["cost", "--harness", "nosuch"]);
    assert_eq!(code, 2, "{err}");
}

/// A pi session whose assistant messages carry pi's own cost: two of a
/// model with no price here ($0.0125 on one day, $0.0375 the next), one of
/// a priced model ($0.5 by pi, priced by our table instead).
fn pi_session_with_its_own_costs(env: &Env, extra: &[(&str, &str, f64)]) -> std::path::PathBuf {
    let dir = env.path("pi/sessions/--home-dev-shop--");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("2026-12-04T10-00-00-000Z_01a24232-e13b-774b-bf98-00000000c057.jsonl");
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"01a24232-e13b-774b-bf98-00000000c057","timestamp":"2026-12-04T10:00:00.000Z","cwd":"/home/dev/shop"}"#.to_string(),
    ];
    let answers = [
        ("a1", "2026-12-04T10:00:02.000Z", "acme-coder-1", 0.0125),
        ("a2", "2026-12-05T10:00:02.000Z", "acme-coder-1", 0.0375),
        ("a3", "2026-12-05T11:00:02.000Z", "claude-sonnet-4-5", 0.5),
    ];
    for (id, at, model, usd) in answers
        .iter()
        .copied()
        .chain(extra.iter().map(|(i, a, u)| (*i, *a, "acme-coder-1", *u)))
    {
        lines.push(serde_json::json!({
            "type": "message", "id": id, "parentId": null, "timestamp": at,
            "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}],
                "provider": "p", "model": model,
                "usage": {"input": 1000, "output": 100, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1100,
                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": usd}},
                "stopReason": "stop", "timestamp": 0}
        }).to_string());
    }
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    env.path("pi/sessions")
}

/// A model with no price here is shown at the client's own figure, per
/// period, marked as the client's and never added to our dollars; a
/// priced model's client figure is not used; appending keeps it exact.
#[test]
fn the_client_s_own_cost_stands_for_a_model_with_no_price() {
    let env = Env::new();
    let root = pi_session_with_its_own_costs(&env, &[]);
    env.ingest(&root);
    let doc = env.json(&["cost", "--by", "day,model", "--tz", "UTC"]);
    let rows: Vec<(String, String, Value, Value)> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["day"].as_str().unwrap().to_string(),
                r["model"].as_str().unwrap().to_string(),
                r["cost_usd"].clone(),
                r.get("harness_reported_usd")
                    .cloned()
                    .unwrap_or(Value::Null),
            )
        })
        .collect();
    // 1,000 input at $3/M and 100 output at $15/M.
    let sonnet = 0.0045;
    assert_eq!(
        rows,
        [
            (
                "2026-12-04".into(),
                "acme-coder-1".into(),
                Value::Null,
                serde_json::json!(0.0125)
            ),
            (
                "2026-12-05".into(),
                "acme-coder-1".into(),
                Value::Null,
                serde_json::json!(0.0375)
            ),
            (
                "2026-12-05".into(),
                "claude-sonnet-4-5".into(),
                serde_json::json!(sonnet),
                Value::Null
            ),
        ]
    );
    assert_eq!(doc["totals"]["harness_reported_usd"], 0.05);
    assert_eq!(doc["totals"]["cost_usd"], serde_json::json!(sonnet));
    assert_eq!(doc["totals"]["unpriced_tokens"], 2200);
    // A table shows it beside our cost, under its own heading.
    let (code, out, err) = env.run(&["cost", "--by", "model", "--format", "table", "--wide"]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    assert!(
        head.contains("COST") && head.contains("CLIENT'S COST"),
        "{out}"
    );
    let acme = out.lines().find(|l| l.starts_with("acme-coder-1")).unwrap();
    assert!(acme.contains("$0.05"), "{out}");
    // Read on after an append: the new response's figure is added once.
    pi_session_with_its_own_costs(&env, &[("a4", "2026-12-05T12:00:02.000Z", 0.25)]);
    env.ingest(&root);
    env.ingest(&root);
    let doc = env.json(&["cost", "--by", "model"]);
    assert_eq!(doc["totals"]["harness_reported_usd"], 0.3);
    // Priced later, the model's messages are ours again, the client's figure gone.
    let (code, _, err) = env.run(&[
        "pricing",
        "set",
        "acme-coder-1",
        "--input",
        "1",
        "--output",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = env.json(&["cost", "--by", "model"]);
    assert!(doc["totals"].get("harness_reported_usd").is_none(), "{doc}");
}

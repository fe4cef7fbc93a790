//! Current Claude Code (2.1.3xx) transcripts, from a fixture cut from the
//! captured corpus (`fixtures/claude-2.1.332/`, see fixtures/README.md):
//! background agents, complete pricing, the harness's own cost-state, and a
//! count no request can have.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const S: &str = "4b497318-ae10-42a1-9483-4cfcf6c508ac";
const F: &str = "5c000000-0000-4000-8000-000000000332";
const BG: &str = "afc970604cdfc094d";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-2.1.332/projects")
}

fn at(env: &Env, now: &str, args: &[&str]) -> Value {
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", now)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every message of the captured session is `inference_geo: "us"`: at the
/// 1.1 multiplier it costs what Claude Code itself says, $0.0406736 (was
/// $0.036976), and check finds no difference with its cost-state.
#[test]
fn us_only_inference_costs_what_claude_code_says() {
    let env = Env::new();
    env.ingest(&corpus());
    let show = env.json(&["show", S]);
    assert_eq!(show["cost_nanousd"], 40_673_600);
    assert_eq!(show["harness_reported"]["cost_nanousd"], 40_673_600);
    assert_eq!(
        [
            &show["harness_reported"]["input_tokens"],
            &show["harness_reported"]["output_tokens"],
            &show["harness_reported"]["cache_write_5m_tokens"],
            &show["harness_reported"]["cache_write_1h_tokens"],
            &show["harness_reported"]["cache_read_tokens"],
        ],
        [
            &show["input_tokens"],
            &show["output_tokens"],
            &show["cache_write_5m_tokens"],
            &show["cache_write_1h_tokens"],
            &show["cache_read_tokens"]
        ]
    );
    let (code, out, _) = env.run(&[
        "check",
        "--root",
        corpus().to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    let kinds: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        (code, kinds),
        (1, vec!["degraded-line".to_string()]),
        "{out}"
    );
    // The captured session itself, where it is.
    let captured = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/claude-code-2.1.332/projects");
    if captured.is_dir() {
        let env = Env::new();
        env.ingest(&captured);
        assert_eq!(env.json(&["show", S])["cost_nanousd"], 40_673_600);
    } else {
        skip("the captured Claude Code 2.1.332 corpus is absent");
    }
}

/// A fast request bills at the model's fast rates (claude-opus-5-5: 2×),
/// web searches at $0.01 each; a count past i64::MAX is a degraded line,
/// and no total wraps.
#[test]
fn fast_speed_web_searches_and_an_impossible_count() {
    let env = Env::new();
    env.ingest(&corpus());
    let show = env.json(&["show", F]);
    // Each message: 11 in × $4 + 7 out × $20 + 300 reads × $0.2 + 200 5m
    // writes × $5 + 1,000 1h writes × $8 = $0.009244 a million tokens each.
    assert_eq!(show["cost_nanousd"], 2 * 9_244_000 + 9_244_000 + 20_000_000);
    assert_eq!(show["input_tokens"], 22);
    assert_eq!(show["degraded"][0]["line"], 3);
    assert_eq!(
        show["degraded"][0]["reason"],
        "token count 9223372036854775808 is over 1000000000 (no request carries that many); line not counted"
    );
    let rows = env.cost_rows(&["--by", "session"]);
    assert!(
        rows.iter()
            .all(|r| r["cost_nanousd"].as_i64().unwrap() >= 0),
        "{rows:?}"
    );
}

/// Claude Code 2.1.332 launched the Agent call in the background: its
/// tool_result says async_launched. The agent completed at its
/// <task-notification>, not at launch, and not never. The main agent,
/// whose last record ends its turn, is waiting just after it and completed
/// once the watchdog window has passed, in sessions, show and tree alike.
#[test]
fn a_background_agent_completes_at_its_notification() {
    let env = Env::new();
    env.ingest(&corpus());
    let soon = "2026-12-03T07:06:00Z";
    let later = "2026-12-03T09:00:00Z";
    let tree = at(&env, soon, &["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(
        (
            child["agent_id"].as_str(),
            child["status"].as_str(),
            child["ended_at"].as_str(),
            child["join_path"].as_str()
        ),
        (
            Some(BG),
            Some("completed"),
            Some("2026-12-03T07:05:33.369Z"),
            Some("tool_use")
        )
    );
    // The main transcript ends with an answer (`end_turn`): waiting on the
    // user, then, past the watchdog window, completed.
    for (now, want) in [(soon, "waiting"), (later, "completed")] {
        let tree = at(&env, now, &["tree", S]);
        assert_eq!(tree["roots"][0]["status"], want, "tree at {now}");
        let show = at(&env, now, &["show", S]);
        assert_eq!(show["status"], want, "show at {now}");
        assert_eq!(show["by_agent"][0]["status"], want);
        let list = at(&env, now, &["sessions"]);
        let row = list
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["session_id"] == S)
            .unwrap();
        assert_eq!(row["status"], want, "sessions at {now}");
    }
}

/// When the harness's own totals count tokens the transcript never recorded
/// (a compaction call, say), check names the session, both figures and that
/// reason, and exits 1; the reported figure is never added to the totals.
#[test]
fn check_explains_a_harness_cost_it_does_not_share() {
    let env = Env::new();
    let root = env.path("projects");
    copy_tree(&corpus(), &root);
    std::fs::remove_file(root.join(format!("-home-dev-work-proj/{F}.jsonl"))).unwrap();
    let main = root.join(format!("-home-dev-work-proj/{S}.jsonl"));
    let text = std::fs::read_to_string(&main).unwrap();
    // Claude Code says it spent 1,000 more input tokens and $0.004 more.
    let text = text
        .replace("\"inputTokens\":44,", "\"inputTokens\":1044,")
        .replace(
            "\"totalCostUSD\":0.040673600000000004",
            "\"totalCostUSD\":0.0446736",
        );
    std::fs::write(&main, text).unwrap();
    env.ingest(&root);
    assert_eq!(
        env.json(&["show", S])["cost_nanousd"],
        40_673_600,
        "never added"
    );
    let (code, out, _) = env.run(&["check", "--format", "jsonl"]);
    assert_eq!(code, 1);
    let f: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(f["kind"], "harness-cost-mismatch");
    assert_eq!(f["session_id"], S);
    assert_eq!(
        f["detail"],
        "harness reported $0.044674, sessionkit $0.040674: the harness counted 1000 tokens the transcript never recorded (requests it makes itself, such as compaction)"
    );
}

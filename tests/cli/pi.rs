//! pi sessions, from a fixture in pi 0.73's format (one file per session
//! under `--<cwd>--/`, a tree of entries, usage on each assistant message):
//! exact tokens, a branch's response counted (it was paid for), the models
//! a `--continue` switched to, the project from the header's `cwd`, the
//! default root; and a real pi 0.73.1 run from the captured corpus (when it is
//! beside the repository), whose totals
//! equal what the fake server served.

use std::path::{Path, PathBuf};

use crate::common::*;

const SESSION: &str = "01a24232-e13b-774b-bf98-007af842d15e";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions")
}

#[test]
fn a_pi_session_counts_every_response_once() {
    let env = Env::new();
    let show = env.ingest_one(&fixture(), SESSION);
    assert_eq!(show["project"], "shop");
    assert_eq!(show["started_at"], "2026-12-04T10:00:00.000Z");
    assert_eq!(show["last_activity_at"], "2026-12-05T09:00:05.000Z");
    // 900+1800+1700 (the branch)+2000 input; 10+20+30+40 output; 50 cache
    // write; 100+200+300+1000 cache read.
    assert_eq!(db_by_session(&env)[SESSION], [6400, 100, 50, 0, 1600]);
    let by_model = db_by_model(&env);
    assert_eq!(by_model["claude-sonnet-4-5"], [4400, 60, 50, 0, 600]);
    assert_eq!(by_model["gpt-5"], [2000, 40, 0, 0, 1000]);
    // Priced at the table's rates: 0.0144675 for the Claude model, 0.003025 for gpt-5.
    assert_eq!(show["cost_usd"], 0.017493);
    assert_eq!(
        env.text(
            "SELECT harness FROM sessions WHERE session_id = ?1",
            SESSION
        ),
        "pi"
    );
}

#[test]
fn pi_sessions_are_a_default_root() {
    Env::assert_default_root(
        &fixture(),
        ".pi/agent/sessions",
        ("PI_CODING_AGENT_DIR", "pa", "sessions"),
    );
}

/// The real pi 0.73.1 run: two responses whose usage the fake server
/// served (prompt 3,014 with 300 cached, completion 36).
#[test]
fn the_captured_pi_run_equals_what_was_served() {
    assert_captured_run_equals_served("pi-0.73.1/home/.pi/agent/sessions");
}

/// `ingest --harness NAME` reads only that agent's sessions from roots
/// that hold several; a later plain ingest reads the rest.
#[test]
fn ingest_reads_one_harness_when_asked() {
    let env = Env::new();
    let root = env.path("mixed");
    copy_tree(&fixture(), &root);
    copy_tree(&crate::common::fixtures(), &root);
    let s = env.json(&[
        "ingest",
        "--root",
        root.to_str().unwrap(),
        "--harness",
        "pi",
    ]);
    assert_eq!(s["sessions_new"], 1, "{s}");
    assert_eq!(db_by_session(&env).keys().collect::<Vec<_>>(), [SESSION]);
    let s = env.ingest(&root);
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_unchanged"].as_u64()),
        (Some(4), Some(1)),
        "{s}"
    );
    let (code, _, err) = env.run(&[
        "ingest",
        "--root",
        root.to_str().unwrap(),
        "--harness",
        "cursor",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("possible values: claude-code, codex, gemini, copilot, qwen-code, pi"),
        "{err}"
    );
}

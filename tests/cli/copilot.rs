//! Copilot CLI sessions, from a fixture in Copilot CLI 1.0's format
//! (`session-state/<uuid>/events.jsonl`, one `session.usage_record` per API
//! response): exact tokens with the cached part taken out of the input, a
//! subagent's response counted, a resumed run appended, another session's
//! record and the cumulative shutdown totals not counted, the default
//! root; and a real Copilot CLI 1.0.102 run from the captured corpus, when it
//! is beside the repository.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const SESSION: &str = "3c1e5a7b-9d2f-4b6a-8c0e-1f3a5b7c9d2e";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/copilot-1.0/session-state")
}

#[test]
fn a_copilot_session_counts_every_response_once() {
    let env = Env::new();
    let show = env.ingest_one(&fixture(), SESSION);
    assert_eq!(show["project"], "shop");
    assert_eq!(show["started_at"], "2026-12-04T10:00:00.000Z");
    assert_eq!(show["last_activity_at"], "2026-12-05T09:00:03.000Z");
    // Inputs 4,000 + 3,000 + 5,000 + 2,000 with 1,000 + 2,000 + 3,000 +
    // 1,500 cached; outputs 50 + 30 + 70 + 20.
    assert_eq!(db_by_session(&env)[SESSION], [6500, 170, 0, 0, 7500]);
    // gpt-5 at $1.25 input, $10 output, $0.125 cached per million.
    assert_eq!(show["cost_usd"], 0.010763);
    assert_eq!(
        env.text(
            "SELECT harness FROM sessions WHERE session_id = ?1",
            SESSION
        ),
        "copilot"
    );
}

#[test]
fn copilot_sessions_are_a_default_root() {
    Env::assert_home_root(&fixture(), ".copilot/session-state");
}

/// The real Copilot CLI 1.0.102 run: two responses the fake server served
/// (prompt 3,014 with 300 cached, completion 36).
#[test]
fn the_captured_copilot_run_equals_what_was_served() {
    assert_captured_run_equals_served("copilot-1.0.102/home/.copilot/session-state");
}

/// A real Copilot CLI 1.0.102 session that started a subagent: the
/// subagent's events are in the session's file, tagged with its `agentId`;
/// its usage record (whose accounting names the subagent's own session)
/// counts for it, once, and it hangs under the `task` call its
/// `subagent.started` names, finished at `subagent.completed`.
#[test]
fn a_copilot_subagent_counts_under_its_call() {
    const S: &str = "ad513e3b-613c-4417-968a-c6db9535f056";
    let env = Env::new();
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/copilot-1.0-subagent/session-state");
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_new"].as_u64(),
            s["agents"].as_u64(),
            s["messages_read"].as_u64()
        ),
        (Some(1), Some(2), Some(3)),
        "{s}"
    );
    // Prompts less cached: 907 + 1,807 + 2,707; cached 100 + 200 + 300;
    // completions 13 + 23 + 33.
    assert_eq!(db_by_session(&env)[S], [5421, 69, 0, 0, 600]);
    let tree: Value = env.json(&["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(
        (
            child["agent_id"].as_str(),
            child["layout"].as_str(),
            child["join_path"].as_str(),
            child["tool_use_id"].as_str(),
            child["agent_type"].as_str(),
            child["description"].as_str(),
            child["status"].as_str(),
            child["input_tokens"].as_u64()
        ),
        (
            Some("2bcf0bb1-cdd1-4919-b335-65d7225e349d"),
            Some("tagged"),
            Some("tool_use"),
            Some("call_rig00019bd1c6b2"),
            Some("explore"),
            Some("probe agent"),
            Some("completed"),
            Some(1807)
        )
    );
}

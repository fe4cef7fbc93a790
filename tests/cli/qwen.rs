//! Qwen Code sessions, from a fixture in Qwen Code 0.24's format (a Gemini
//! CLI layout, `<project>/chats/<session id>.jsonl`, with Claude-Code-like
//! lines): exact tokens with each response counted once although its
//! numbers are written twice (the assistant line and a telemetry line), the
//! cached part taken out of the prompt, the default root; and the real
//! Qwen Code 0.24.4 run from the captured corpus (when it is beside the
//! repository), equal to what was served.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const SESSION: &str = "5a1f0c2e-7b3d-4e8f-9a6b-2c4d6e8f0a1b";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qwen-0.24/projects")
}

#[test]
fn a_qwen_session_counts_every_response_once() {
    let env = Env::new();
    let show = env.ingest_one(&fixture(), SESSION);
    assert_eq!(show["project"], "shop");
    assert_eq!(show["started_at"], "2026-12-04T10:00:00.000Z");
    assert_eq!(show["last_activity_at"], "2026-12-05T09:00:01.100Z");
    // Prompts 5,000 + 6,000 + 7,000 with 1,000 + 4,000 + 6,500 cached;
    // candidates 40 + 60 + 100.
    assert_eq!(db_by_session(&env)[SESSION], [6500, 200, 0, 0, 11500]);
    assert_eq!(
        env.text(
            "SELECT harness FROM sessions WHERE session_id = ?1",
            SESSION
        ),
        "qwen-code"
    );
}

#[test]
fn qwen_projects_are_a_default_root() {
    Env::assert_home_root(&fixture(), ".qwen/projects");
}

/// The real Qwen Code 0.24.4 run: two responses the fake server served
/// (prompt 3,014 with 300 cached, completion 36).
#[test]
fn the_captured_qwen_run_equals_what_was_served() {
    assert_captured_run_equals_served("qwen-code-0.24.4/home/.qwen/projects");
}

/// A real Qwen Code 0.24.4 session that started a subagent: the subagent's
/// own file (`subagents/<session>/agent-<id>.jsonl`) is read with its
/// `.meta.json`, its response counted once with the model the sidecar
/// names (its lines name none), and it hangs under the `agent` call that
/// started it, finished as its sidecar says. Every served response is counted, exactly.
#[test]
fn a_qwen_subagent_counts_under_its_call() {
    const S: &str = "56143677-cf0c-4929-b562-b4723a0f4342";
    const CALL: &str = "call_rig000184090bbc";
    let env = Env::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qwen-0.24-subagent/projects");
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_new"].as_u64(),
            s["agents"].as_u64(),
            s["messages_read"].as_u64(),
            s["skipped_paths"].as_array().map(Vec::len)
        ),
        (Some(1), Some(2), Some(5), Some(0)),
        "{s}"
    );
    // Prompts less cached: 907 + 1,807 + 2,707 + 3,607 + 4,507; cached
    // 100..500; completions 13 + 23 + 33 + 43 + 53.
    assert_eq!(db_by_session(&env)[S], [13535, 165, 0, 0, 1500]);
    assert_eq!(db_by_model(&env)["fake-model"], [13535, 165, 0, 0, 1500]);
    let tree: Value = env.json(&["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(
        (
            child["agent_id"].as_str(),
            child["join_path"].as_str(),
            child["tool_use_id"].as_str(),
            child["agent_type"].as_str(),
            child["description"].as_str(),
            child["input_tokens"].as_u64()
        ),
        (
            Some("general-purpose-call_rig000184090bbc"),
            Some("tool_use"),
            Some(CALL),
            Some("general-purpose"),
            Some("probe agent"),
            Some(2707)
        )
    );
    // Its sidecar's `status: completed` settles it, at its last record,
    // however long ago.
    assert_eq!(
        (child["status"].as_str(), child["ended_at"].as_str()),
        (Some("completed"), Some("2026-12-05T00:32:22.493Z"))
    );
}

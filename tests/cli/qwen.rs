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
    let s = env.ingest(&fixture());
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_degraded"].as_u64()),
        (Some(1), Some(0)),
        "{s}"
    );
    let show: Value = env.json(&["show", SESSION]);
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

//! `sessionkit sources`: the agents found in their default folders, their
//! sessions, how many the database holds, and what is not read and why.

use std::path::Path;

use serde_json::Value;

use crate::common::*;

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

#[test]
fn sources_lists_each_agent_found_and_what_is_ingested() {
    let env = Env::new();
    copy_tree(
        &fixture("pi-0.73/sessions"),
        &env.path("home/.pi/agent/sessions"),
    );
    copy_tree(
        &fixture("qwen-0.24/projects"),
        &env.path("home/.qwen/projects"),
    );
    copy_tree(
        &fixture("copilot-1.0/session-state"),
        &env.path("home/.copilot/session-state"),
    );
    copy_tree(
        &fixture("claude/projects"),
        &env.path("home/.claude/projects"),
    );
    std::fs::write(env.path("home/.claude/projects/notes.txt"), "x").unwrap();
    let rows = |env: &Env| -> Vec<(String, u64, Value, Value)> {
        let (code, out, err) = env.run(&["sources", "--format", "jsonl"]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|r| {
                (
                    r["harness"].as_str().unwrap().to_string(),
                    r["sessions"].as_u64().unwrap(),
                    r["ingested"].clone(),
                    r["skipped"].clone(),
                )
            })
            .collect()
    };
    // No database yet: nothing ingested is known, and none is created.
    assert_eq!(
        rows(&env),
        [
            (
                "claude-code".into(),
                4,
                Value::Null,
                serde_json::json!({"non-artifact": 1})
            ),
            ("copilot".into(), 1, Value::Null, serde_json::json!({})),
            ("qwen-code".into(), 1, Value::Null, serde_json::json!({})),
            ("pi".into(), 1, Value::Null, serde_json::json!({})),
        ]
    );
    assert!(!env.db().exists());
    env.ingest_defaults(&[]);
    let after: Vec<Value> = rows(&env).into_iter().map(|r| r.2).collect();
    assert_eq!(after, [4, 1, 1, 1]);
}

#[test]
fn sources_with_nothing_found_says_so() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("home")).unwrap();
    let (code, out, err) = env.run(&["sources"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no agent's transcripts found"), "{err}");
}

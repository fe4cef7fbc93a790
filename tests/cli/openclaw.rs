//! OpenClaw: a real run's agent database (the captured corpus beside the
//! repository, when there) is read exactly as the fake server served it,
//! each response once from its transcript events (the trajectory's sums of
//! the same tokens never read); a subagent's session is an agent of its
//! parent's; a request the model's API refused ends its session in an
//! error; a new event is read at the next run; its state folder is a
//! default root, moved by its variable.

use std::path::{Path, PathBuf};

use crate::common::*;

const S: &str = "c2846bd9-41d6-47b1-b0e5-75a741dd6033";
const CHILD: &str = "5b1d7c2e-8a4f-4e6b-9c3d-2f1e0a9b8c7d";
const FAILED: &str = "9d8c7b6a-5f4e-4d3c-8b2a-1a0f9e8d7c6b";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/openclaw/corpus/.openclaw")
}

/// Input, cache reads, output, reasoning and messages of session `sid`.
fn tokens(env: &Env, sid: &str) -> [u64; 5] {
    env.show_counts(sid, TOKENS_AND_MESSAGES)
}

#[test]
fn a_real_openclaw_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/openclaw-2026.9.6/home/.openclaw");
    if !root.is_dir() {
        return skip("the captured OpenClaw run beside the repository is absent");
    }
    let env = Env::new();
    let show = env.ingest_one(&root, S);
    // Served: prompt 3,014 with 300 cached, completion 36 with 3 of
    // reasoning, in 2 responses.
    assert_eq!(tokens(&env, S), [2714, 300, 36, 3, 2]);
    assert_eq!(show["harness"], "openclaw");
    assert_eq!(show["cwd"], "/home/dev/work/proj");
    assert_eq!(show["models"], serde_json::json!(["fake-model"]));
    let again = env.ingest(&root);
    assert_eq!(again["sessions_unchanged"].as_u64(), Some(1), "{again}");
}

#[test]
fn a_subagent_an_error_and_a_new_event() {
    let env = Env::new();
    let root = env.path("state");
    copy_tree(&fixture(), &root);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(2), "{s}");
    assert_eq!(tokens(&env, S), [2714 + 2707, 600, 69, 6, 3]);
    let tree = env.json(&["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["input_tokens"].as_u64(), Some(2707));
    // Its last answer ended its turn: it did its task.
    assert_eq!(child["status"], "completed");
    assert_eq!(env.json(&["show", FAILED])["status"], "error");
    // The next response of the main session, as OpenClaw appends it.
    let db = root.join("agents/main/agent/openclaw-agent.sqlite");
    let c = rusqlite::Connection::open(&db).unwrap();
    let next = r#"{"type":"message","id":"a9","parentId":null,"timestamp":"2026-12-05T19:05:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"more"}],"model":"fake-model","usage":{"input":100,"output":5,"cacheRead":10,"cacheWrite":0,"reasoningTokens":0,"totalTokens":115},"stopReason":"stop","responseId":"chatcmpl-later"}}"#;
    c.execute(
        "INSERT INTO transcript_events(session_id, seq, event_json, created_at)
         VALUES (?1, (SELECT MAX(seq) + 1 FROM transcript_events WHERE session_id = ?1), ?2, 1796497500000)",
        rusqlite::params![S, next],
    )
    .unwrap();
    drop(c);
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_unchanged"].as_u64()
        ),
        (Some(1), Some(1)),
        "{s}"
    );
    assert_eq!(tokens(&env, S), [2714 + 2707 + 100, 610, 74, 6, 4]);
}

#[test]
fn openclaw_s_state_folder_is_a_default_root() {
    let env = Env::new();
    copy_tree(&fixture(), &env.path("home/.openclaw"));
    let other = Env::new();
    copy_tree(&fixture(), &other.path("claw"));
    for s in [
        env.ingest_defaults(&[]),
        other.ingest_defaults(&[("OPENCLAW_STATE_DIR", other.path("claw"))]),
    ] {
        assert_eq!(
            (s["roots"].as_u64(), s["sessions_new"].as_u64()),
            (Some(1), Some(2)),
            "{s}"
        );
    }
}

//! Kimi CLI: a real run's wire (the captured corpus beside the repository,
//! when there) is read exactly as the fake server served it; the fixture's
//! subagent, repeated in its parent's wire, is counted once, under the call
//! that started it; the work folder's path comes from `kimi.json`.

use std::path::Path;

use crate::common::*;

const S: &str = "71db871f-1743-4c09-b333-697b531f3d64";

#[test]
fn a_real_kimi_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/kimi-cli-1.52.0/home/.kimi/sessions");
    if !root.is_dir() {
        return skip("the captured Kimi CLI run beside the repository is absent");
    }
    let env = Env::new();
    env.ingest(&root);
    let s = &env.json(&["sessions"])[0];
    // Served: prompt 3,014 with 300 cached, completion 36.
    assert_eq!(
        (
            s["input_tokens"].as_u64(),
            s["cache_read_tokens"].as_u64(),
            s["output_tokens"].as_u64()
        ),
        (Some(2714), Some(300), Some(36))
    );
    assert_eq!(s["harness"], "kimi");
    assert_eq!(s["cwd"], "/home/dev/work/proj");
    // Its turn ended (TurnEnd): waiting for the user, as of the tests' clock.
    assert_eq!(s["status"], "waiting");
}

#[test]
fn a_subagent_repeated_in_its_parent_s_wire_counts_once_under_its_call() {
    let env = Env::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/kimi/corpus/sessions");
    env.ingest(&root);
    let s = &env.json(&["sessions"])[0];
    assert_eq!(
        (
            s["input_tokens"].as_u64(),
            s["cache_read_tokens"].as_u64(),
            s["output_tokens"].as_u64(),
            s["messages"].as_u64(),
            s["agents"].as_u64()
        ),
        (Some(2814), Some(320), Some(43), Some(3), Some(2))
    );
    assert_eq!(s["project"], "proj");
    let tree = env.json(&["tree", S]);
    let main = &tree["roots"][0];
    assert_eq!(main["agent_id"], S);
    let child = &main["children"][0];
    assert_eq!(
        (
            child["agent_id"].as_str(),
            child["agent_type"].as_str(),
            child["join_path"].as_str(),
            child["input_tokens"].as_u64()
        ),
        (Some("a7c1e2"), Some("coder"), Some("tool_use"), Some(100))
    );
    // Appended: only the new response is read, and it counts once.
    let wire = env.path("k/sessions");
    copy_tree(&root, &wire);
    let env = Env::new();
    env.ingest(&wire);
    let main_wire = std::fs::read_dir(&wire)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join(S)
        .join("wire.jsonl");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&main_wire)
        .unwrap();
    use std::io::Write;
    writeln!(
        f,
        r#"{{"timestamp": 1796497100.0, "message": {{"type": "StatusUpdate", "payload": {{"token_usage": {{"input_other": 5, "output": 1, "input_cache_read": 0, "input_cache_creation": 0}}, "message_id": "chatcmpl-later"}}}}}}"#
    )
    .unwrap();
    drop(f);
    let summary = env.ingest(&wire);
    assert_eq!(summary["sessions_updated"].as_u64(), Some(1), "{summary}");
    let s = &env.json(&["sessions"])[0];
    assert_eq!(s["input_tokens"].as_u64(), Some(2819));
    assert_eq!(s["messages"].as_u64(), Some(4));
}

//! Mistral Vibe: a real run's session store (the captured corpus beside
//! the repository, when there) is read exactly as the fake server served
//! it, each call once from its journal record; a session whose older
//! journal segments Vibe deleted is counted from its running totals, the
//! missing calls said; a subagent's session is an agent of its parent's;
//! a snapshot that deletes a segment already read counts nothing twice;
//! its store is a default root, moved by its variable.

use std::path::{Path, PathBuf};

use crate::common::*;

const S: &str = "4fc3e851-e21d-c458-bb09-772c2c646b50";
const PRUNED: &str = "7c1e2a90-3b4d-4c5e-8f6a-0b1c2d3e4f50";
const CHILD: &str = "child-0123456789abcdef01234567";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/vibe/corpus/unified")
}

/// Input, cache reads, output, reasoning and messages of session `sid`.
fn tokens(env: &Env, sid: &str) -> [u64; 5] {
    env.show_counts(sid, TOKENS_AND_MESSAGES)
}

#[test]
fn a_real_vibe_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/mistral-vibe-3.0.3/home/.vibe/logs/session/unified");
    if !root.is_dir() {
        return skip("the captured Mistral Vibe run beside the repository is absent");
    }
    let env = Env::new();
    let show = env.ingest_one(&root, S);
    // Served: prompt 3,014 with 300 cached, completion 36 with 3 of
    // reasoning, in 2 responses, both still in the journal.
    assert_eq!(tokens(&env, S), [2714, 300, 36, 3, 2]);
    assert_eq!(show["harness"], "vibe");
    assert_eq!(show["cwd"], "/home/dev/work/proj");
    assert_eq!(show["models"], serde_json::json!(["fake-model"]));
    assert_eq!(show["compactions"], serde_json::json!([]));
    let again = env.ingest(&root);
    assert_eq!(again["sessions_unchanged"].as_u64(), Some(1), "{again}");
}

#[test]
fn a_pruned_journal_is_counted_from_the_totals_and_said() {
    let env = Env::new();
    let root = env.path("unified");
    copy_tree(&fixture(), &root);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(2), "{s}");
    // The parent's totals (one call's record survives) and its subagent's.
    assert_eq!(tokens(&env, PRUNED), [2714 + 500, 300 + 50, 36 + 8, 2, 3]);
    let tree = env.json(&["tree", PRUNED]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["input_tokens"].as_u64(), Some(500));
    // Its last completion ended its turn: it did its task.
    assert_eq!(child["status"], "completed");
    let (code, out, err) = env.run(&["show", PRUNED, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let show: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pruned: Vec<&serde_json::Value> = show["compactions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["trigger"] == "journal-pruned")
        .collect();
    assert_eq!(pruned.len(), 1, "{show}");
    assert_eq!(pruned[0]["uncounted"], false);
    assert!(
        err.contains("1 call(s) are missing from the session's journal"),
        "{err}"
    );
}

#[test]
fn a_snapshot_that_deletes_a_read_segment_counts_nothing_twice() {
    let env = Env::new();
    let root = env.path("unified");
    copy_tree(&fixture().join(S), &root.join(S));
    env.ingest(&root);
    assert_eq!(tokens(&env, S), [2714, 300, 36, 3, 2]);
    // A continuation: one more call, then a snapshot deletes the segment
    // that held the first two.
    let dir = root.join(S);
    std::fs::remove_file(dir.join("journal/0000000000000001.jsonl")).unwrap();
    let call = r#"{"payload":{"action_id":"c3","result":{"action_id":"c3","result":{"finish_reason":"stop","usage":{"cache_write_tokens":0,"cached_input_tokens":300,"input_tokens":3007,"output_tokens":33,"reasoning_tokens":3,"total_tokens":3040}},"type":"completion_succeeded"}},"sequence":30,"type":"action_result"}"#;
    std::fs::write(
        dir.join("journal/0000000000000030.jsonl"),
        format!("{call}\n"),
    )
    .unwrap();
    let state = dir.join("generations/0000000000000021/projection-state.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    v["snapshot"]["session"]["tokenUsage"] = serde_json::json!({
        "inputTokens": 6021, "cachedInputTokens": 600, "outputTokens": 69, "totalTokens": 6090});
    std::fs::write(&state, v.to_string()).unwrap();
    let runtime = dir.join("generations/0000000000000021/runtime-state.json");
    let mut r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&runtime).unwrap()).unwrap();
    let first = r["actions"][0].clone();
    r["actions"].as_array_mut().unwrap().push(first);
    std::fs::write(&runtime, r.to_string()).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_updated"].as_u64(), Some(1), "{s}");
    // Served in all: prompt 6,021 with 600 cached, completion 69.
    let t = tokens(&env, S);
    assert_eq!(t[..3], [6021 - 600, 600, 69]);
    let cost = env.json(&["cost", "--by", "session"]);
    assert_eq!(
        cost["totals"]["input_tokens"].as_u64(),
        Some(5421),
        "{cost}"
    );
}

#[test]
fn vibe_s_store_is_a_default_root() {
    let env = Env::new();
    copy_tree(&fixture(), &env.path("home/.vibe/logs/session/unified"));
    let other = Env::new();
    copy_tree(&fixture(), &other.path("vh/logs/session/unified"));
    for s in [
        env.ingest_defaults(&[]),
        other.ingest_defaults(&[("VIBE_HOME", other.path("vh"))]),
    ] {
        assert_eq!(
            (s["roots"].as_u64(), s["sessions_new"].as_u64()),
            (Some(1), Some(2)),
            "{s}"
        );
    }
}

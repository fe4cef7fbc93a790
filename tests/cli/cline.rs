//! Cline: a real run's documents (the captured corpus beside the
//! repository, when there) are read exactly as the fake server served
//! them; the fixture's subagent document counts under its session; a
//! document rewritten with one more response is read whole again and each
//! response still counts once.

use std::path::Path;

use crate::common::*;

const S: &str = "1796497512091_9ed0q";

fn tokens(env: &Env) -> (Option<u64>, Option<u64>, Option<u64>, Option<u64>) {
    let s = &env.json(&["sessions"])[0];
    (
        s["input_tokens"].as_u64(),
        s["cache_read_tokens"].as_u64(),
        s["output_tokens"].as_u64(),
        s["messages"].as_u64(),
    )
}

#[test]
fn a_real_cline_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/cline-3.0.65/home/.cline/data/sessions");
    if !root.is_dir() {
        return skip("the captured Cline run beside the repository is absent");
    }
    let env = Env::new();
    env.ingest(&root);
    // Served: prompt 3,014 with 300 cached, completion 36, in 2 responses.
    assert_eq!(tokens(&env), (Some(2714), Some(300), Some(36), Some(2)));
    let s = &env.json(&["sessions"])[0];
    assert_eq!(s["harness"], "cline");
    assert_eq!(s["cwd"], "/home/dev/work/proj");
    assert_eq!(s["models"], serde_json::json!(["fake-model"]));
}

#[test]
fn a_subagent_counts_and_a_rewritten_document_is_read_again_once() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/cline/corpus/sessions");
    let root = {
        let env = Env::new();
        let r = env.path("sessions");
        copy_tree(&fixture, &r);
        (env, r)
    };
    let (env, root) = root;
    env.ingest(&root);
    assert_eq!(tokens(&env), (Some(2814), Some(320), Some(41), Some(3)));
    let tree = env.json(&["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(child["agent_id"], "a1b2");
    assert_eq!(child["input_tokens"].as_u64(), Some(100));
    // Cline rewrites the whole document: one more response.
    let doc = root.join(S).join(format!("{S}.messages.json"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&doc).unwrap()).unwrap();
    v["messages"].as_array_mut().unwrap().push(serde_json::json!({
        "id": "msg_later", "role": "assistant", "content": [{"type": "text", "text": "again"}],
        "metrics": {"inputTokens": 50, "outputTokens": 2, "cacheReadTokens": 10, "cacheWriteTokens": 0},
        "modelInfo": {"id": "fake-model"}, "ts": 1796497600000i64
    }));
    std::fs::write(&doc, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let summary = env.ingest(&root);
    assert_eq!(summary["sessions_updated"].as_u64(), Some(1), "{summary}");
    assert_eq!(tokens(&env), (Some(2854), Some(330), Some(43), Some(4)));
}

//! Hermes Agent: a real run's database (the captured corpus beside the
//! repository, when there) is read exactly as the fake server served it,
//! from each session's running totals; a subagent's row is an agent of
//! its parent's session; a session whose totals grow is read again and
//! its totals replace the older, never add to them; a `state.db` that is
//! not Hermes's is not read as one; its home is a default root.

use std::path::{Path, PathBuf};

use crate::common::*;

const S: &str = "20261205_185643_9c3bf7";
const CHILD: &str = "20261205_185644_a1b2c3";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/hermes/corpus/.hermes")
}

/// Input, cache reads, output and reasoning of session `sid`.
fn tokens(env: &Env, sid: &str) -> [u64; 4] {
    env.show_counts(sid, TOKENS)
}

#[test]
fn a_real_hermes_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/hermes-agent-0.19.0/home/.hermes");
    if !root.is_dir() {
        return skip("the captured Hermes Agent run beside the repository is absent");
    }
    let env = Env::new();
    let show = env.ingest_one(&root, S);
    // Served: prompt 3,014 with 300 cached, completion 36 with 3 of
    // reasoning, in 2 responses; `session_model_usage` repeats them.
    assert_eq!(tokens(&env, S), [2714, 300, 36, 3]);
    assert_eq!(show["harness"], "hermes");
    assert_eq!(show["cwd"], "/home/dev/work/proj");
    assert_eq!(show["models"], serde_json::json!(["fake-model"]));
    let again = env.ingest(&root);
    assert_eq!(again["sessions_unchanged"].as_u64(), Some(1), "{again}");
}

#[test]
fn a_subagent_is_its_parent_s_agent_and_growing_totals_replace_the_older() {
    let env = Env::new();
    let root = env.path("home/.hermes");
    copy_tree(&fixture(), &root);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(2), "{s}");
    // The parent's own and its subagent's row.
    assert_eq!(tokens(&env, S), [3714, 400, 49, 4]);
    let tree = env.json(&["tree", S]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["input_tokens"].as_u64(), Some(1000));
    // Its row was closed: it did its task.
    assert_eq!(child["status"], "completed");
    // Resumed: Hermes adds the new response to the same row.
    let c = rusqlite::Connection::open(root.join("state.db")).unwrap();
    c.execute(
        "UPDATE sessions SET input_tokens = input_tokens + 3007, output_tokens = output_tokens + 33,
           cache_read_tokens = cache_read_tokens + 300, reasoning_tokens = reasoning_tokens + 3,
           api_call_count = api_call_count + 1 WHERE id = ?1",
        [S],
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
    assert_eq!(tokens(&env, S), [6721, 700, 82, 7]);
    let cost = env.json(&["cost", "--by", "session"]);
    assert_eq!(
        cost["totals"]["input_tokens"].as_u64(),
        Some(6721),
        "{cost}"
    );
    // Its home is a default root.
    let other = Env::new();
    copy_tree(&fixture(), &other.path("home/.hermes"));
    let s = other.ingest_defaults(&[]);
    assert_eq!(
        (s["roots"].as_u64(), s["sessions_new"].as_u64()),
        (Some(1), Some(2)),
        "{s}"
    );
}

#[test]
fn a_state_db_that_is_not_hermes_s_is_not_read_as_one() {
    let env = Env::new();
    let root = env.path("elsewhere");
    std::fs::create_dir_all(&root).unwrap();
    let c = rusqlite::Connection::open(root.join("state.db")).unwrap();
    c.execute_batch("CREATE TABLE sessions(id TEXT, started_at REAL)")
        .unwrap();
    drop(c);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(0), "{s}");
    assert_eq!(s["skipped"]["non-artifact"].as_u64(), Some(1), "{s}");
}

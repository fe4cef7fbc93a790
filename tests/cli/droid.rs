//! Factory Droid: a real run (the captured corpus beside the repository,
//! when there) is read exactly as the fake server served it, from the
//! settings document's totals; the previous save (`.bak`) is never read;
//! a session that goes on is read on from where the last run stopped and
//! its larger totals replace the older; a rejected request ends it in an
//! error; its folder is Droid's, not Claude Code's, though its paths have
//! Claude Code's shape.

use std::path::{Path, PathBuf};

use crate::common::*;

const S: &str = "ca7773c4-b8ea-47f1-827c-bb830a274bb0";
const FAILED: &str = "0b6a6f3e-2c55-4d0e-9a3e-5f1c2d7e8a90";
/// A real run that spawned a subagent (its own pair of files).
const SPAWNED: &str = "ad96ffb2-22b6-4a78-87c1-3e9d3cfd8b5a";
const CHILD: &str = "bcd28795-c1ff-4c15-8980-abcef25331c7";
const SLUG: &str = "-home-dev-work-proj";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/droid/corpus/sessions")
}

/// Input, cache reads, output and reasoning of session `sid`.
fn tokens(env: &Env, sid: &str) -> [u64; 4] {
    env.show_counts(sid, TOKENS)
}

#[test]
fn a_real_droid_run_is_read_as_served() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/droid-0.225.2/home/.factory/sessions");
    if !root.is_dir() {
        return skip("the captured Droid run beside the repository is absent");
    }
    let env = Env::new();
    let show = env.ingest_one(&root, S);
    // Served: prompt 3,014 with 300 cached, completion 36 (3 of it
    // reasoning, which Droid does not keep).
    assert_eq!(tokens(&env, S), [2714, 300, 36, 0]);
    assert_eq!(show["harness"], "droid");
    assert_eq!(show["cwd"], "/home/dev/work/proj");
    assert_eq!(show["models"], serde_json::json!(["fake-model-0"]));
}

#[test]
fn the_totals_are_read_once_and_a_session_that_goes_on_replaces_them() {
    let env = Env::new();
    let root = env.path("sessions");
    copy_tree(&fixture(), &root);
    let dir = root.join(SLUG);
    // The previous save beside it holds other numbers: never read.
    let bak = dir.join(format!("{S}.settings.json.bak"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bak).unwrap()).unwrap();
    v["tokenUsage"]["inputTokens"] = 999_999.into();
    std::fs::write(&bak, v.to_string()).unwrap();
    // A long session: its first prompt's context padded to 100 KB.
    let transcript = dir.join(format!("{S}.jsonl"));
    let padded = std::fs::read_to_string(&transcript)
        .unwrap()
        .replace("(cut)", &"x".repeat(100_000));
    std::fs::write(&transcript, padded).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(3), "{s}");
    assert_eq!(s["skipped"]["non-artifact"].as_u64(), Some(0), "{s}");
    assert_eq!(tokens(&env, S), [2714, 300, 36, 0]);
    assert_eq!(env.json(&["show", FAILED])["status"], "error");
    assert_eq!(
        env.json(&["show", FAILED])["input_tokens"].as_u64(),
        Some(0)
    );

    // A continuation: one more answer in the transcript, the totals
    // rewritten larger.
    let before = std::fs::metadata(&transcript).unwrap().len();
    let mut t = std::fs::read_to_string(&transcript).unwrap();
    t.push_str(r#"{"type":"message","id":"m3","timestamp":"2026-12-05T19:10:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"again"}]},"modelId":"custom:fake-model-0"}"#);
    t.push('\n');
    std::fs::write(&transcript, &t).unwrap();
    let settings = dir.join(format!("{S}.settings.json"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    v["tokenUsage"] = serde_json::json!({"inputTokens": 5000, "outputTokens": 50,
        "cacheCreationTokens": 0, "cacheReadTokens": 700, "thinkingTokens": 4});
    std::fs::write(&settings, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_unchanged"].as_u64()
        ),
        (Some(1), Some(2)),
        "{s}"
    );
    // Read on from where it stopped: the new line and the settings, and
    // the 4 KiB at each end of what was read before (checked unchanged,
    // then marked again), never the 100 KB before them.
    let read = s["bytes_read"].as_u64().unwrap();
    assert!(read < 20_000 && before > 100_000, "{read} of {before}: {s}");
    assert_eq!(tokens(&env, S), [5000, 700, 50, 4]);
    let cost = env.json(&["cost", "--by", "session"]);
    let row = cost["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["session_id"] == S)
        .unwrap_or_else(|| panic!("{cost}"));
    assert_eq!(row["input_tokens"].as_u64(), Some(5000), "{cost}");
    // Nothing changed: nothing read.
    let s = env.ingest(&root);
    assert_eq!(s["sessions_unchanged"].as_u64(), Some(3), "{s}");
}

#[test]
fn a_droid_folder_is_known_before_its_first_settings_are_saved() {
    let env = Env::new();
    let root = env.path("sessions");
    let dir = root.join(SLUG);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixture().join(SLUG).join(format!("{S}.jsonl")),
        dir.join(format!("{S}.jsonl")),
    )
    .unwrap();
    env.ingest(&root);
    let show = env.json(&["show", S]);
    assert_eq!(show["harness"], "droid");
    assert_eq!(show["input_tokens"].as_u64(), Some(0));
    // Claude Code's own folders are still Claude Code's.
    let claude = Env::with_fixtures(&["claude/projects"]);
    let sessions = claude.json(&["sessions", "--harness", "droid"]);
    assert_eq!(sessions.as_array().map(Vec::len), Some(0));
}

#[test]
fn droid_s_home_is_a_default_root() {
    let env = Env::new();
    copy_tree(&fixture(), &env.path("home/.factory/sessions"));
    let s = env.ingest_defaults(&[]);
    assert_eq!(
        (s["roots"].as_u64(), s["sessions_new"].as_u64()),
        (Some(1), Some(3)),
        "{s}"
    );
}

/// Served: prompts of 1,007, 2,007 and 3,007 with 100, 200 and 300
/// cached, completions of 13, 23 and 33; the second was the subagent's.
/// Each session's own `tokenUsage` counts once (the parent's inclusive
/// totals, which repeat the child's, are not read), and the child hangs
/// under the `Task` call that started it.
#[test]
fn a_subagent_is_an_agent_of_the_session_that_called_it() {
    let env = Env::with_fixtures(&["golden/droid/corpus/sessions"]);
    assert_eq!(tokens(&env, SPAWNED), [5421, 600, 69, 0]);
    let tree = env.json(&["tree", SPAWNED]);
    let root = &tree["roots"][0];
    assert_eq!(root["input_tokens"].as_u64(), Some(3614));
    let child = &root["children"][0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["input_tokens"].as_u64(), Some(1807));
    assert_eq!(child["tool_use_id"], "call_rig00010b53d73c");
    assert_eq!(child["status"], "completed");
    // The child is no session of its own.
    let (code, _, _) = env.run(&["show", CHILD]);
    assert_ne!(code, 0);
}

/// A transcript whose first line is not written whole yet cannot say
/// whose it is (a subagent's names its caller there): it waits for the next
/// run, and then counts under the session that called it, once.
#[test]
fn a_subagent_whose_first_line_is_unfinished_waits() {
    let env = Env::new();
    let root = env.path("sessions");
    let dir = root.join(SLUG);
    std::fs::create_dir_all(&dir).unwrap();
    let from = fixture().join(SLUG);
    for name in [
        format!("{SPAWNED}.jsonl"),
        format!("{SPAWNED}.settings.json"),
        format!("{CHILD}.settings.json"),
    ] {
        std::fs::copy(from.join(&name), dir.join(&name)).unwrap();
    }
    let child = std::fs::read(from.join(format!("{CHILD}.jsonl"))).unwrap();
    std::fs::write(dir.join(format!("{CHILD}.jsonl")), &child[..40]).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(1), "{s}");
    assert_eq!(tokens(&env, SPAWNED), [3614, 400, 46, 0]);
    std::fs::write(dir.join(format!("{CHILD}.jsonl")), &child).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_updated"].as_u64(), Some(1), "{s}");
    assert_eq!(tokens(&env, SPAWNED), [5421, 600, 69, 0]);
    assert_eq!(env.json(&["sessions"]).as_array().map(Vec::len), Some(1));
}

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
const SLUG: &str = "-home-dev-work-proj";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden/droid/corpus/sessions")
}

/// Input, cache reads, output and reasoning of session `sid`.
fn tokens(env: &Env, sid: &str) -> [u64; 4] {
    let s = env.json(&["show", sid]);
    [
        "input_tokens",
        "cache_read_tokens",
        "output_tokens",
        "reasoning_tokens",
    ]
    .map(|k| s[k].as_u64().unwrap_or_else(|| panic!("{k}: {s}")))
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
    assert_eq!(s["sessions_new"].as_u64(), Some(2), "{s}");
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
        (Some(1), Some(1)),
        "{s}"
    );
    // Read on from where it stopped: the new line and the settings, and
    // the 4 KiB at each end of what was read before (checked unchanged,
    // then marked again), never the 100 KB before them.
    let read = s["bytes_read"].as_u64().unwrap();
    assert!(read < 20_000 && before > 100_000, "{read} of {before}: {s}");
    assert_eq!(tokens(&env, S), [5000, 700, 50, 4]);
    let cost = env.json(&["cost", "--by", "session"]);
    assert_eq!(
        cost["totals"]["input_tokens"].as_u64(),
        Some(5000),
        "{cost}"
    );
    // Nothing changed: nothing read.
    let s = env.ingest(&root);
    assert_eq!(s["sessions_unchanged"].as_u64(), Some(2), "{s}");
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
        (Some(1), Some(2)),
        "{s}"
    );
}

//! Gemini CLI chats, from a fixture cut
//! from a real Gemini CLI 0.61 run through ../shared/harness-rig (`spawn`:
//! `invoke_agent` starts a subagent that calls `complete_task`; see
//! fixtures/README.md): the project folder, the session from its header,
//! exact tokens, the subagent by its folder, the working directory from
//! `.project_root`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const MAIN: &str = "53bd2587-d6e8-4f3a-908a-59c20606aa28";
const CHILD: &str = "18234f79-5a62-4f03-9090-97dcd1742485";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gemini-0.61/tmp")
}

/// Three responses of 12,000 prompt tokens (3,000 cached), 6 output and 4
/// thought tokens: two of the session, one of the subagent. Gemini's prompt
/// count includes the cached part: the rest is input; thoughts are billed
/// as output; the buckets add up to the stated total, 12,010 a response.
/// The message the CLI appended twice (before and after its tool call)
/// counts once.
#[test]
fn a_gemini_session_ingests_with_its_subagent_and_exact_tokens() {
    let env = Env::new();
    let sum = env.ingest(&fixture());
    assert_eq!(sum["sessions_new"], 1, "{sum}");
    assert_eq!(sum["token_rows"], 3, "{sum}");
    assert_eq!(sum["skipped_paths"], Value::Array(vec![]), "{sum}");
    let all = env.json(&["sessions"]);
    let s = &all[0];
    assert_eq!(all.as_array().unwrap().len(), 1);
    assert_eq!(s["session_id"], MAIN);
    assert_eq!(s["harness"], "gemini");
    assert_eq!(s["cwd"], "/home/dev/work/gmproj");
    assert_eq!(s["project"], "gmproj");
    assert_eq!(s["models"], serde_json::json!(["gemini-2.5-flash"]));
    assert_eq!(
        (
            s["messages"].as_u64(),
            s["input_tokens"].as_u64(),
            s["cache_read_tokens"].as_u64(),
            s["output_tokens"].as_u64(),
            s["total_tokens"].as_u64(),
        ),
        (Some(3), Some(27_000), Some(9_000), Some(30), Some(36_030))
    );
    // Priced at gemini-2.5-flash's $0.30 input, $2.50 output, $0.03 cached
    // per million: 0.0081 + 0.000075 + 0.00027.
    assert_eq!(s["cost_usd"], 0.008445);
    assert_eq!(s["unpriced_messages"], Value::Null);
    let tree = env.json(&["tree", MAIN]);
    let root = &tree["roots"][0];
    assert_eq!(root["messages"], 2);
    let child = &root["children"][0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["layout"], "chat");
    assert_eq!(child["join_path"], "directory");
    assert_eq!(child["status"], "completed");
    assert_eq!(child["messages"], 1);
    assert_eq!(root["subtree"]["messages"], 3);
}

/// A subagent's folder without its session's chat is an orphan, named; a
/// whole-file `.json` chat (older versions) is named as not read.
#[test]
fn a_subagent_without_its_session_and_a_legacy_chat_are_named() {
    let env = Env::new();
    let root = env.path("tmp");
    copy_tree(&fixture(), &root);
    let chats = root.join("gmproj/chats");
    std::fs::remove_file(chats.join("session-2026-12-03T20-01-53bd2587.jsonl")).unwrap();
    std::fs::write(chats.join("session-2026-01-01T00-00-aaaaaaaa.json"), "{}").unwrap();
    let sum = env.ingest(&root);
    assert_eq!(sum["sessions_new"], 0, "{sum}");
    assert_eq!(sum["skipped"]["orphan-agent"], 1, "{sum}");
    assert_eq!(sum["skipped"]["non-artifact"], 1, "{sum}");
    let paths = sum["skipped_paths"].to_string();
    assert!(
        paths.contains(&format!("gmproj/chats/{MAIN}/{CHILD}.jsonl")),
        "{paths}"
    );
    assert!(
        paths.contains("gmproj/chats/session-2026-01-01T00-00-aaaaaaaa.json"),
        "{paths}"
    );
}

/// A chat that grew is read from where the last run stopped, and equals a
/// cold ingest.
#[test]
fn a_grown_chat_is_read_from_where_the_last_run_stopped() {
    let env = Env::new();
    let root = env.path("tmp");
    copy_tree(&fixture(), &root);
    let main = root.join("gmproj/chats/session-2026-12-03T20-01-53bd2587.jsonl");
    let whole = std::fs::read_to_string(&main).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    let head = lines[..5].join("\n") + "\n";
    std::fs::write(&main, &head).unwrap();
    env.ingest(&root);
    std::fs::write(&main, &whole).unwrap();
    let two = env.ingest(&root);
    assert_eq!(two["sessions_updated"], 1, "{two}");
    // The appended bytes, plus the checks of a file under 4 KiB: its bytes
    // hashed twice before reading on, and twice after (the new mark).
    let (appended, before, after) = (whole.len() - head.len(), head.len(), whole.len());
    assert!(after < 4096);
    assert_eq!(
        two["bytes_read"].as_u64(),
        Some((appended + 2 * before + 2 * after) as u64),
        "{two}"
    );
    let cold = Env::new();
    cold.ingest(&root);
    let (a, b) = (env.json(&["sessions"]), cold.json(&["sessions"]));
    for k in [
        "messages",
        "input_tokens",
        "cache_read_tokens",
        "output_tokens",
        "agents",
    ] {
        assert_eq!(a[0][k], b[0][k], "{k}");
    }
    assert_eq!(a[0]["messages"], 3);
}

/// With no `--root`, `$GEMINI_CLI_HOME/.gemini/tmp`, else `~/.gemini/tmp`.
#[test]
fn gemini_chats_are_a_default_root() {
    Env::assert_default_root(
        &fixture(),
        ".gemini/tmp",
        ("GEMINI_CLI_HOME", "gh", ".gemini/tmp"),
    );
}

const LEGACY: &str = "efc9280f-da8b-46f0-be63-e686b059c503";
const LEGACY_HASH: &str = "1fef0e1173dbdaee9ead723dbdb93e59c9b40a6ef9e02add2c1572e8fad31ce3";

fn legacy_chat(root: &Path) -> PathBuf {
    root.join(LEGACY_HASH)
        .join("chats/session-2026-12-05T03-12-efc9280f.json")
}

/// An older Gemini CLI's whole-file chat (0.20: one JSON document under the
/// project's hash; see fixtures/README.md): its two responses of 12,000
/// prompt tokens (3,000 cached), 6 output and 4 thought tokens, exactly.
/// Written whole again with a third message, it is read again whole (no
/// message twice); converted to `.jsonl` beside it (as a newer Gemini CLI
/// does on resume), the conversion is the session and the document a
/// duplicate.
#[test]
fn an_older_whole_file_chat_is_read_and_read_again_whole() {
    let env = Env::new();
    let root = env.path("tmp");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gemini-0.20/tmp"),
        &root,
    );
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(1), "{s}");
    let row = &env.json(&["sessions"])[0];
    assert_eq!(row["session_id"], LEGACY);
    assert_eq!(row["harness"], "gemini");
    assert_eq!(row["messages"], 2);
    assert_eq!(db_by_session(&env)[LEGACY], [18_000, 20, 0, 0, 6_000]);
    assert_eq!(row["reasoning_tokens"], 8);
    assert_eq!(row["started_at"], "2026-12-05T03:12:45.637Z");

    // Written whole again, one message longer.
    let path = legacy_chat(&root);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut third = doc["messages"][1].clone();
    third["id"] = "0b0b0b0b-1025-4207-ba37-24dfd7035617".into();
    third["timestamp"] = "2026-12-05T03:13:30.000Z".into();
    doc["messages"].as_array_mut().unwrap().push(third);
    doc["lastUpdated"] = "2026-12-05T03:13:30.000Z".into();
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_updated"].as_u64(), Some(1), "{s}");
    assert_eq!(env.json(&["sessions"])[0]["messages"], 3);
    assert_eq!(db_by_session(&env)[LEGACY], [27_000, 30, 0, 0, 9_000]);

    // Converted beside it, as Gemini CLI converts on resume: the header
    // line, each message a line, then the resume's `$set` of the same id;
    // then a fourth message.
    let mut lines = vec![serde_json::json!({
        "sessionId": LEGACY, "projectHash": LEGACY_HASH,
        "startTime": doc["startTime"], "lastUpdated": doc["lastUpdated"],
    })];
    lines.extend(doc["messages"].as_array().unwrap().iter().cloned());
    lines.push(serde_json::json!({"$set": {"sessionId": LEGACY}}));
    let mut fourth = doc["messages"][1].clone();
    fourth["id"] = "0c0c0c0c-1025-4207-ba37-24dfd7035617".into();
    lines.push(fourth);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let jsonl = path.with_extension("jsonl");
    std::fs::write(&jsonl, text).unwrap();
    let s = env.ingest(&root);
    let skipped: Vec<&Value> = s["skipped_paths"].as_array().unwrap().iter().collect();
    assert!(
        skipped.iter().any(|p| p["reason"] == "duplicate-session"
            && p["path"].as_str().unwrap().ends_with(".json")),
        "{s}"
    );
    assert_eq!(env.json(&["sessions"]).as_array().unwrap().len(), 1);
    assert_eq!(db_by_session(&env)[LEGACY], [36_000, 40, 0, 0, 12_000]);
}

/// A compressed chat (the real Gemini CLI 0.61 `compact` run of
/// fixtures/README.md): the server answered four requests, two of them the
/// compression's `generateContent` calls, which Gemini CLI records in no
/// chat and fires no hook for. The two replies count, exactly; the
/// compression is a compaction marked uncounted, and `show` and `cost` say
/// that its calls are not in their figures.
#[test]
fn a_compression_is_shown_and_its_unrecorded_calls_named() {
    let env = Env::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gemini-0.61-compress/tmp");
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(1), "{s}");
    let sid = "8e3e77f6-0686-4c38-b0a1-11fb09540dd6";
    assert_eq!(db_by_session(&env)[sid], [18_000, 20, 0, 0, 6_000]);
    let (code, out, err) = env.run(&["show", sid, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let show: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        show["compactions"],
        serde_json::json!([{
            "agent_id": sid,
            "at": "2026-12-05T03:27:20.448Z",
            "pre_tokens": null,
            "trigger": "compress",
            "uncounted": true
        }])
    );
    assert!(
        err.contains("1 compression(s) of the chat: the model calls that wrote the summary are in no transcript and no hook"),
        "{err}"
    );
    let (_, _, err) = env.run(&["cost", "--format", "json"]);
    assert!(
        err.contains("1 compression(s) of a Gemini CLI chat in this selection"),
        "{err}"
    );
    // Read again (the `$set` lists repeat the summary): still one.
    env.ingest(&root);
    let show = env.json(&["show", sid]);
    assert_eq!(show["compactions"].as_array().unwrap().len(), 1);
}

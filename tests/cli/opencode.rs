//! OpenCode sessions, read from its database: a fixture built from
//! OpenCode 1.18's own tables (`fixtures/opencode-1.18/opencode.sql`: the
//! rows of a real run, and a session with a subagent session in the same
//! format) and the captured real OpenCode 1.18.33 run when it is beside the
//! repository. Exact tokens (output with reasoning), the subagent under its
//! parent by the row's `parent_id`, a changed tree read again and an
//! unchanged one not, the database never written, the default root.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const REAL: &str = "ses_dbdcc67d8ffeiqr4t4b18VOVTa";
const PARENT: &str = "ses_e1000000000aParentSession";
const CHILD: &str = "ses_e1000000000bChildSession0";

/// OpenCode's data folder at `dir`, its database built from the fixture.
fn data_folder(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let sql = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opencode-1.18/opencode.sql"),
    )
    .unwrap();
    let db = dir.join("opencode.db");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&sql)
        .unwrap();
    dir.to_path_buf()
}

fn bytes_of(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("opencode.db")).unwrap()
}

#[test]
fn opencode_session_trees_count_every_response_once() {
    let env = Env::new();
    let root = data_folder(&env.path("opencode"));
    let before = bytes_of(&root);
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_new"].as_u64(),
            s["sessions_degraded"].as_u64(),
            s["agents"].as_u64(),
            s["messages_read"].as_u64()
        ),
        (Some(2), Some(1), Some(3), Some(4)),
        "{s}"
    );
    let by = db_by_session(&env);
    // The real run: 1807+2707 input, 300+200 cached, 21+2 and 30+3 output
    // with reasoning.
    assert_eq!(by[REAL], [4514, 56, 0, 0, 500]);
    // The parent's one response and its subagent's (10 output + 4
    // reasoning); the cut message is a degraded line, not a response.
    assert_eq!(by[PARENT], [1500, 34, 0, 0, 100]);
    let show: Value = env.json(&["show", PARENT]);
    assert_eq!(show["harness"], "opencode");
    assert_eq!(show["harness_version"], "1.18.33");
    assert_eq!(show["project"], "shop");
    assert_eq!(show["degraded_lines"], 1);
    let tree: Value = env.json(&["tree", PARENT]);
    let root_agent = &tree["roots"][0];
    assert_eq!(root_agent["agent_id"], PARENT);
    let child = &root_agent["children"][0];
    assert_eq!(
        (
            child["agent_id"].as_str(),
            child["layout"].as_str(),
            child["join_path"].as_str(),
            child["agent_type"].as_str(),
            child["input_tokens"].as_u64()
        ),
        (
            Some(CHILD),
            Some("child"),
            Some("parent_record"),
            Some("general"),
            Some(500)
        )
    );
    assert_eq!(root_agent["subtree"]["output_tokens"], 34);
    // Read-only: the database is byte for byte as it was.
    assert_eq!(bytes_of(&root), before);
    // Nothing changed: nothing read.
    let again = env.ingest(&root);
    assert_eq!(
        (
            again["sessions_unchanged"].as_u64(),
            again["bytes_read"].as_u64()
        ),
        (Some(2), Some(0)),
        "{again}"
    );
    // OpenCode answers again in the subagent session: that tree alone is
    // read again, and the new response counts once.
    let c = rusqlite::Connection::open(root.join("opencode.db")).unwrap();
    c.execute_batch(&format!(
        "INSERT INTO message VALUES('msg_e100000002dAsst000000003','{CHILD}',1796500007000,1796500007000,
           '{{\"role\":\"assistant\",\"modelID\":\"claude-sonnet-4-5\",\"tokens\":{{\"input\":70,\"output\":7,\"reasoning\":0,\"cache\":{{\"write\":3,\"read\":0}}}}}}');
         UPDATE session SET time_updated = 1796500007001, tokens_input = 570 WHERE id = '{CHILD}';"
    ))
    .unwrap();
    let third = env.ingest(&root);
    assert_eq!(
        (
            third["sessions_updated"].as_u64(),
            third["sessions_unchanged"].as_u64()
        ),
        (Some(1), Some(1)),
        "{third}"
    );
    assert_eq!(db_by_session(&env)[PARENT], [1570, 41, 3, 0, 100]);
    // `--harness` picks it; another harness skips it.
    let fresh = Env::new();
    let only = fresh.json(&[
        "ingest",
        "--root",
        root.to_str().unwrap(),
        "--harness",
        "codex",
    ]);
    assert_eq!(only["sessions_new"], 0, "{only}");
    let only = fresh.json(&[
        "ingest",
        "--root",
        root.to_str().unwrap(),
        "--harness",
        "opencode",
    ]);
    assert_eq!(only["sessions_new"], 2, "{only}");
}

/// `~/.local/share/opencode` and `$XDG_DATA_HOME/opencode` are default
/// roots when a database is there; `sources` lists the database's trees.
#[test]
fn opencode_is_a_default_root_and_a_source() {
    let env = Env::new();
    data_folder(&env.path("home/.local/share/opencode"));
    let s = env.ingest_defaults(&[]);
    assert_eq!(
        (s["roots"].as_u64(), s["sessions_new"].as_u64()),
        (Some(1), Some(2)),
        "{s}"
    );
    let sources: Value = env.json(&["sources"]);
    let row = &sources[0];
    assert_eq!(
        (
            row["harness"].as_str(),
            row["sessions"].as_u64(),
            row["ingested"].as_u64()
        ),
        (Some("opencode"), Some(2), Some(2)),
        "{sources}"
    );
    let other = Env::new();
    data_folder(&other.path("data/opencode"));
    let s = other.ingest_defaults(&[("XDG_DATA_HOME", other.path("data"))]);
    assert_eq!(s["sessions_new"], 2, "{s}");
}

/// The real OpenCode 1.18.33 run: three responses served, the first (the
/// session's title) recorded nowhere; the other two exactly as served:
/// prompt 2,007 + 3,007 of which 200 + 300 cached, completion 23 + 33
/// (reasoning 2 + 3 inside).
#[test]
fn the_captured_opencode_run_equals_what_was_served() {
    let captured = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/opencode-1.18.33/home/.local/share/opencode");
    if !captured.join("opencode.db").exists() {
        crate::support::skip("the captured OpenCode 1.18.33 run is not beside the repository");
        return;
    }
    let env = Env::new();
    let root = env.path("opencode");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::copy(captured.join("opencode.db"), root.join("opencode.db")).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"], 1, "{s}");
    assert_eq!(s["sessions_degraded"], 0, "{s}");
    assert_eq!(db_by_session(&env)[REAL], [4514, 56, 0, 0, 500]);
}

/// `check` recounts OpenCode's trees as it recounts files: a tree not yet
/// ingested, one ingested and unchanged (recounted, equal), one changed
/// since.
#[test]
fn check_recounts_opencode_trees() {
    let env = Env::new();
    let root = data_folder(&env.path("opencode"));
    let findings = |env: &Env| -> Vec<(String, String)> {
        let (_, out, _) = env.run(&["check", "--root", root.to_str().unwrap(), "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .filter(|f| !matches!(f["kind"].as_str(), Some("unpriced-model" | "degraded-line")))
            .map(|f| {
                (
                    f["kind"].as_str().unwrap().to_string(),
                    f["session_id"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        findings(&env),
        [
            ("not-ingested".to_string(), REAL.to_string()),
            ("not-ingested".to_string(), PARENT.to_string())
        ]
    );
    env.ingest(&root);
    assert_eq!(findings(&env), []);
    rusqlite::Connection::open(root.join("opencode.db"))
        .unwrap()
        .execute(
            "UPDATE session SET time_updated = time_updated + 1 WHERE id = ?1",
            [CHILD],
        )
        .unwrap();
    assert_eq!(findings(&env), [("stale".to_string(), PARENT.to_string())]);
    // A message's tokens rewritten behind its session row's back: the
    // recount reads them and they differ from what was stored.
    rusqlite::Connection::open(root.join("opencode.db"))
        .unwrap()
        .execute(
            "UPDATE message SET data = replace(data, '\"input\":1807', '\"input\":1808') WHERE session_id = ?1",
            [REAL],
        )
        .unwrap();
    assert_eq!(
        findings(&env),
        [
            ("recount-mismatch".to_string(), REAL.to_string()),
            ("stale".to_string(), PARENT.to_string())
        ]
    );
}

const OLD: &str = "ses_dbbca8929ffeCMc7gT3QMEhQUu";
const OLD_CHILD: &str = "ses_dbbca8839ffe6KzHrqChxKCbxA";

/// OpenCode's data folder as OpenCode 1.1 left it (the real run of
/// fixtures/README.md: `storage/session/`, `storage/message/`), at `dir`.
fn storage_folder(dir: &Path) -> PathBuf {
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opencode-1.1"),
        dir,
    );
    dir.to_path_buf()
}

/// OpenCode 1.1's JSON files: the five responses it recorded of the eleven
/// the fake server answered (four title requests are never recorded, two
/// were refused), each counted once with its reasoning inside the output
/// (1.1 writes `output` with it: the message's `total` says so); the
/// subagent session under its parent; an unchanged folder read no more, a
/// changed message read again.
#[test]
fn an_older_opencode_storage_folder_is_read() {
    let env = Env::new();
    let root = storage_folder(&env.path("opencode"));
    let s = env.ingest(&root);
    assert_eq!(
        (s["sessions_new"].as_u64(), s["agents"].as_u64()),
        (Some(1), Some(2)),
        "{s}"
    );
    // Served: 3007/300/33 (3 reasoning), 5007/500/53 (5), 6007/600/63 (6),
    // 7007/700/73 (7), 9007/900/93 (9): input without the cached part.
    assert_eq!(db_by_session(&env)[OLD], [27_035, 315, 0, 0, 3_000]);
    let row = &env.json(&["sessions"])[0];
    assert_eq!(
        (
            row["harness"].as_str(),
            row["harness_version"].as_str(),
            row["cwd"].as_str(),
            row["reasoning_tokens"].as_u64()
        ),
        (
            Some("opencode"),
            Some("1.1.65"),
            Some("/home/dev/work/ocproj"),
            Some(30)
        )
    );
    let tree = env.json(&["tree", OLD]);
    let child = &tree["roots"][0]["children"][0];
    assert_eq!(child["agent_id"], OLD_CHILD);
    assert_eq!(child["input_tokens"], 4_507);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_unchanged"].as_u64(), Some(1), "{s}");
    // OpenCode rewrites a message file as a response completes.
    let dir = root.join("storage/message").join(OLD);
    let first = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .min()
        .unwrap();
    let text = std::fs::read_to_string(&first).unwrap();
    std::fs::write(&first, format!("{text}\n")).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_updated"].as_u64(), Some(1), "{s}");
    assert_eq!(db_by_session(&env)[OLD], [27_035, 315, 0, 0, 3_000]);
}

/// Both stores in one data folder (an upgrade moves `storage/` into the
/// database): each session read once; one in both is read from the
/// database and named a duplicate in `storage/`.
#[test]
fn storage_beside_the_database_reads_each_session_once() {
    let env = Env::new();
    let root = data_folder(&env.path("opencode"));
    storage_folder(&root);
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(3), "{s}");
    let by = db_by_session(&env);
    assert_eq!(by.len(), 3);
    assert_eq!(by[OLD], [27_035, 315, 0, 0, 3_000]);
    // The old session moved into the database (its row and messages).
    let c = rusqlite::Connection::open(root.join("opencode.db")).unwrap();
    c.execute_batch(&format!(
        "CREATE TEMP TABLE t AS SELECT * FROM session WHERE id = '{REAL}';
         UPDATE t SET id = '{OLD}', parent_id = NULL;
         INSERT INTO session SELECT * FROM t;"
    ))
    .unwrap();
    drop(c);
    let s = env.ingest(&root);
    let dup: Vec<&Value> = s["skipped_paths"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["reason"] == "duplicate-session")
        .collect();
    assert_eq!(dup.len(), 1, "{s}");
    assert_eq!(dup[0]["path"], format!("storage#{OLD}"));
}

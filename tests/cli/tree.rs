//! The agent tree: every join path, statuses from the transcript,
//! the four drawings, hierarchy accuracy and the rebuild after an outage.

use std::path::PathBuf;

use crate::common::*;
use serde_json::{Value, json};

const G: &str = "55555555-5555-4555-8555-555555555555";

fn tree_corpus() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-tree/projects")
}

/// Every label file of the golden directories (the Claude Code fixtures'
/// and the tree corpus's), gathered in one folder of `env`.
fn labels(env: &Env) -> PathBuf {
    let dir = env.path("labels");
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden");
    for g in ["claude", "claude-tree"] {
        crate::common::copy_tree(&golden.join(g).join("labels"), &dir);
    }
    dir
}

/// (agent, parent, join path, tool_use id, status, ended_at) in drawing order.
type Row = (
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    Option<String>,
);

fn flatten(v: &Value, out: &mut Vec<Row>) {
    let s = |k: &str| v[k].as_str().map(str::to_string);
    out.push((
        s("agent_id").unwrap(),
        s("parent_id"),
        s("join_path"),
        s("tool_use_id"),
        s("status").unwrap(),
        s("ended_at"),
    ));
    for c in v["children"].as_array().unwrap() {
        flatten(c, out);
    }
}

fn rows(env: &Env, session: &str) -> Vec<Row> {
    let doc = env.json(&["tree", session]);
    let mut out = Vec::new();
    for r in doc["roots"].as_array().unwrap() {
        flatten(r, &mut out);
    }
    out
}

fn row(
    a: &str,
    p: Option<&str>,
    j: Option<&str>,
    t: Option<&str>,
    s: &str,
    e: Option<&str>,
) -> Row {
    let o = |x: Option<&str>| x.map(str::to_string);
    (a.to_string(), o(p), o(j), o(t), s.to_string(), o(e))
}

#[test]
fn every_join_path_resolves_and_never_guesses() {
    let env = Env::new();
    env.ingest(&tree_corpus());
    // fixtures/golden/claude-tree/labels/5555….json explains each agent's evidence.
    assert_eq!(
        rows(&env, G),
        vec![
            row(G, None, None, None, "unknown", None),
            row(
                "e1",
                Some(G),
                Some("tool_use"),
                Some("toolu_E1"),
                "completed",
                Some("2026-01-20T10:09:00.000Z")
            ),
            row(
                "e6",
                Some("e1"),
                Some("task_notification"),
                Some("toolu_E6"),
                "unknown",
                None
            ),
            row(
                "e9",
                Some("e1"),
                Some("directory"),
                Some("toolu_W"),
                "unknown",
                None
            ),
            row(
                "e2",
                Some("e1"),
                Some("tool_use"),
                Some("toolu_E2"),
                "error",
                Some("2026-01-20T10:02:00.000Z")
            ),
            // An async launch result is not the child's end.
            row(
                "e3",
                Some(G),
                Some("tool_use"),
                Some("toolu_E3"),
                "unknown",
                None
            ),
            row(
                "e4",
                Some(G),
                Some("queue_operation"),
                Some("toolu_E4"),
                "unknown",
                None
            ),
            row("e7", Some(G), Some("legacy_explore"), None, "unknown", None),
            // The call was evicted by compaction: main, keeping the anchor.
            row(
                "e5",
                Some(G),
                Some("task_notification"),
                Some("toolu_GONE"),
                "unknown",
                None
            ),
            // Mentioned in prose only: an orphan, listed with its tokens.
            row("e8", None, Some("orphan"), None, "unknown", None),
        ]
    );
    let doc = env.json(&["tree", G]);
    let main = &doc["roots"][0];
    assert_eq!(
        main["subtree"]["output_tokens"], 130,
        "main 30, e1 30, seven more of 10"
    );
    assert_eq!(main["output_tokens"], 30);
    // A child with no transcript: its parent's report, apart from the totals.
    let rep = &main["reported_by_parent"][0];
    assert_eq!(
        (rep["tool_use_id"].as_str(), rep["total_tokens"].as_u64()),
        (Some("toolu_R"), Some(999))
    );
    assert_eq!(
        (rep["input_tokens"].as_u64(), rep["output_tokens"].as_u64()),
        (Some(5), Some(7))
    );
    // The session adds the orphan e8 (10); the reported 7 is never added.
    assert_eq!(env.json(&["show", G])["output_tokens"], 140);
}

#[test]
fn inline_flat_nested_and_workflow_fixtures_link_as_labelled() {
    let env = Env::new();
    env.ingest(&fixtures());
    assert_eq!(
        rows(&env, A),
        vec![
            row(A, None, None, None, "unknown", None),
            row(
                "side-root-1",
                Some(A),
                Some("prompt_match"),
                Some("toolu_A_task"),
                "completed",
                Some("2026-01-10T10:00:10.000Z")
            ),
        ]
    );
    assert_eq!(
        rows(&env, B)[1],
        row(
            "a1b2c3d",
            Some(B),
            Some("prompt_match"),
            Some("toolu_B_task"),
            "completed",
            Some("2026-01-11T09:01:00.000Z")
        )
    );
    assert_eq!(
        rows(&env, D).len(),
        1,
        "the resumed session's copied call is not its own"
    );
}

#[test]
fn text_dot_and_mermaid_drawings() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, out, _) = env.run(&["tree", "3333", "--ascii", "--why", "--format", "text"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "33333333 (main)  unknown  2026-01-12T08:00:00.000Z  5m02s  in 6 out 66 cache w 400/0 r 6200  $0.0073  (subtree in 14 out 154 cache w 950/330 r 15000 $0.01)  [root]\n\
         |-- abc123  Explore  \"Scan the repo\"  completed  2026-01-12T08:00:03.000Z  4m57s  in 3 out 33 cache w 0/330 r 3300  $0.0035  [tool_use toolu_C_agent]\n\
         `-- def456  general-purpose  unknown  2026-01-12T08:02:00.000Z  1m00s  in 5 out 55 cache w 550/0 r 5500  $0.0015  [directory]\n"
    );
    // At COLUMNS=80 each line goes on under itself at its fields' gaps,
    // the drawing's bars kept: no line is wider than 80.
    let o = env
        .cmd()
        .env("COLUMNS", "80")
        .args(["tree", "3333", "--why", "--format", "text"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    assert_eq!(
        out,
        [
            "33333333 (main)  unknown  2026-01-12T08:00:00.000Z  5m02s",
            "│   in 6 out 66 cache w 400/0 r 6200  $0.0073",
            "│   (subtree in 14 out 154 cache w 950/330 r 15000 $0.01)  [root]",
            "├── abc123  Explore  \"Scan the repo\"  completed  2026-01-12T08:00:03.000Z  4m57s",
            "│       in 3 out 33 cache w 0/330 r 3300  $0.0035  [tool_use toolu_C_agent]",
            "└── def456  general-purpose  unknown  2026-01-12T08:02:00.000Z  1m00s",
            "        in 5 out 55 cache w 550/0 r 5500  $0.0015  [directory]",
            "",
        ]
        .join("\n")
    );
    let (_, boxed, _) = env.run(&["tree", "3333", "--format", "text"]);
    assert!(
        boxed.contains("├── abc123")
            && boxed.contains("└── def456")
            && !boxed.contains("[tool_use")
    );
    let (_, dot, _) = env.run(&["tree", "1111", "--format", "dot"]);
    assert_eq!(
        dot,
        format!(
            "digraph \"{A}\" {{\n  rankdir=TB;\n  node [shape=box];\n  \"{A}\" [label=\"main  (unknown)\"];\n  \"side-root-1\" [label=\"side-root-1 general-purpose (completed)\"];\n  \"{A}\" -> \"side-root-1\" [label=\"prompt_match\"];\n}}\n"
        )
    );
    let (_, mermaid, _) = env.run(&["tree", "1111", "--format", "mermaid"]);
    assert_eq!(
        mermaid,
        "graph TD\n  n0[\"main  (unknown)\"]\n  n1[\"side-root-1 general-purpose (completed)\"]\n  n0 -->|prompt_match| n1\n"
    );
    let (code, _, err) = env.run(&["tree", "1111", "--format", "csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'csv'"), "{err}");
    let (code, _, err) = env.run(&["--format", "csv", "tree", "1111"]);
    assert_eq!(code, 2);
    assert!(err.contains("a tree cannot be printed as csv"), "{err}");
    let (code, _, err) = env.run(&["sessions", "--format", "dot"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'dot'"), "{err}");
    let (code, _, err) = env.run_with_env(&["sessions"], &[("SESSIONKIT_FORMAT", "dot")]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be printed as dot"), "{err}");
    let (_, all, _) = env.run(&[
        "tree",
        "--all",
        "--since",
        "2026-01-12",
        "--format",
        "jsonl",
    ]);
    let ids: Vec<String> = all
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["session_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, vec![C.to_string(), D.to_string()], "oldest first");
}

#[test]
fn hierarchy_accuracy_against_labels() {
    let env = Env::new();
    let labels = labels(&env);
    let labels = || labels.clone();
    let (f, t) = (fixtures(), tree_corpus());
    env.json(&[
        "ingest",
        "--root",
        f.to_str().unwrap(),
        "--root",
        t.to_str().unwrap(),
    ]);
    let (code, out, err) = env.run(&[
        "check",
        "--no-recount",
        "--labels",
        labels().to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains("hierarchy accuracy: 18/18 parents correct (100.0%"),
        "{err}"
    );
    // A wrong parent is listed; the threshold decides the exit status.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute(
        "UPDATE agents SET parent_agent_id = NULL WHERE agent_id = 'e2'",
        [],
    )
    .unwrap();
    drop(c);
    let (code, out, err) = env.run(&[
        "check",
        "--no-recount",
        "--labels",
        labels().to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 1, "17/18 = 94.4% is below 95%");
    assert!(err.contains("17/18 parents correct (94.4%"), "{err}");
    let f: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(f["kind"], "label-mismatch");
    assert_eq!(f["detail"], "agent e2: labelled parent e1, found no parent");
    let (code, _, _) = env.run(&[
        "check",
        "--no-recount",
        "--labels",
        labels().to_str().unwrap(),
        "--min-accuracy",
        "0.9",
    ]);
    assert_eq!(
        code, 0,
        "above a lower threshold the mismatch is listed, not failed"
    );
}

#[test]
fn rebuild_after_an_outage_equals_a_clean_ingest() {
    let env = Env::new();
    let root = env.path("corpus");
    copy_tree(&tree_corpus(), &root);
    copy_tree(&fixtures(), &root);
    // Outage: e1's transcript cut mid-line after its first record, and
    // session 3333 not on disk yet.
    let e1 = root.join(format!("-home-dev-gamma/{G}/subagents/agent-e1.jsonl"));
    let full = std::fs::read_to_string(&e1).unwrap();
    let first_nl = full.find('\n').unwrap();
    std::fs::write(&e1, &full[..first_nl + 40]).unwrap();
    let c3 = root.join("-home-dev-beta");
    let hidden = env.path("hidden-beta");
    std::fs::rename(&c3, &hidden).unwrap();
    env.ingest(&root);
    let early = rows(&env, G);
    assert_eq!(early[0].0, G, "{early:?}");
    // Without e1's spawn blocks, e2's sidecar anchor is unknown: main, as evidence says.
    assert!(early.contains(&row(
        "e2",
        Some(G),
        Some("task_notification"),
        Some("toolu_E2"),
        "unknown",
        None
    )));
    // Everything arrives.
    std::fs::write(&e1, &full).unwrap();
    std::fs::rename(&hidden, &c3).unwrap();
    env.ingest(&root);
    let clean = Env::new();
    clean.ingest(&root);
    let tables = |e: &Env| -> String {
        e.dump()
            .split("## ")
            .filter(|t| {
                ["agents", "orchestration_edges", "spawn_calls"]
                    .iter()
                    .any(|n| t.starts_with(&format!("{n}\n")))
            })
            .collect::<Vec<_>>()
            .join("## ")
    };
    assert_eq!(tables(&env), tables(&clean));
    assert!(
        tables(&env).contains("\"e2\"|\"e1\"|"),
        "e2's parent is e1 again"
    );
}

#[test]
fn public_transcript_tree_follows_its_task_calls() {
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/public/claude-code-viewer");
    if !shared.is_dir() {
        skip("the reference corpora beside the repository are absent");
        return;
    }
    let env = Env::new();
    let root = env.path("projects/-path-to-Demo");
    std::fs::create_dir_all(&root).unwrap();
    for f in [
        "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
        "agent-test-hash-123.jsonl",
    ] {
        std::fs::copy(shared.join(f), root.join(f)).unwrap();
    }
    env.ingest(&env.path("projects"));
    let s = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7";
    let r = rows(&env, s);
    // Record 12's Task spawned 6340ddef…
    // (result at record 22), record 24's spawned 83e2917c… (result at record 40);
    // record 11's Task had an empty prompt and never ran.
    // The flat agent file's prompt matches no Task call: its records name
    // the session, so it hangs under the main agent with no call.
    let warm = r.iter().find(|x| x.0 == "test-hash-123").unwrap();
    assert_eq!(
        (warm.1.as_deref(), warm.2.as_deref(), warm.3.as_deref()),
        (Some(s), Some("session_only"), None),
    );
    let of = |id: &str| {
        let x = r.iter().find(|x| x.0 == id).unwrap();
        (x.2.clone(), x.3.clone(), x.4.clone())
    };
    let spawned = |t: &str| {
        (
            Some("prompt_match".to_string()),
            Some(t.to_string()),
            "completed".to_string(),
        )
    };
    assert_eq!(
        of("6340ddef-f656-4b72-a065-82390f637678"),
        spawned("toolu_014YF9TXhDRR7BnpasNJ7gjC")
    );
    assert_eq!(
        of("83e2917c-8940-4df6-a5a5-f2514f0d08c5"),
        spawned("toolu_01LKfUwrsnof18CpWZQcJH44")
    );
    assert_eq!(r.len(), 4, "main, two spawned, the warm-up agent");
}

/// An old flat-layout (2.0.x) agent file whose first prompt matches no
/// Task call (the warm-up agents 2.0.x started itself) hangs under its
/// session's main agent (`session_only`, no call); the one its Task call
/// spawned still joins by the prompt.
#[test]
fn a_flat_warm_up_agent_hangs_under_its_session() {
    let env = Env::new();
    let dir = env.path("projects/-home-dev-alpha");
    std::fs::create_dir_all(&dir).unwrap();
    let from = fixtures().join("-home-dev-alpha");
    let sid = "22222222-2222-4222-8222-222222222222";
    for f in [format!("{sid}.jsonl"), "agent-a1b2c3d.jsonl".to_string()] {
        std::fs::copy(from.join(&f), dir.join(&f)).unwrap();
    }
    let warm = [
        json!({"parentUuid": null, "isSidechain": true, "userType": "external", "cwd": "/home/dev/alpha",
               "sessionId": sid, "version": "2.0.55", "agentId": "w4rm", "type": "user",
               "message": {"role": "user", "content": "Warmup"}, "uuid": "w-u1",
               "timestamp": "2026-01-11T09:00:01.000Z"}),
        json!({"parentUuid": "w-u1", "isSidechain": true, "userType": "external", "cwd": "/home/dev/alpha",
               "sessionId": sid, "version": "2.0.55", "agentId": "w4rm", "type": "assistant",
               "message": {"id": "msg_W1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
                           "content": [{"type": "text", "text": "ready"}],
                           "usage": {"input_tokens": 3, "output_tokens": 2}},
               "uuid": "w-a1", "timestamp": "2026-01-11T09:00:02.000Z"}),
    ];
    let text: String = warm.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("agent-w4rm.jsonl"), text).unwrap();
    env.ingest(&env.path("projects"));
    let r = rows(&env, sid);
    let of = |id: &str| {
        let x = r.iter().find(|x| x.0 == id).unwrap();
        (x.1.clone(), x.2.clone(), x.3.is_some())
    };
    assert_eq!(
        of("w4rm"),
        (
            Some(sid.to_string()),
            Some("session_only".to_string()),
            false
        )
    );
    assert_eq!(
        of("a1b2c3d"),
        (
            Some(sid.to_string()),
            Some("prompt_match".to_string()),
            true
        )
    );
    // Its tokens are the session's: under the main agent's subtree.
    let doc = env.json(&["tree", sid]);
    assert_eq!(
        doc["roots"].as_array().unwrap().len(),
        1,
        "one tree, no orphan root"
    );
}

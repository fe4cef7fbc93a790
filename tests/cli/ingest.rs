//! Ingest of the layout fixtures: exact totals, idempotence, replay, order.

use crate::common::*;
use serde_json::{Value, json};

#[test]
fn fixture_totals_are_exact_per_session() {
    let env = Env::new();
    let s = env.ingest(&fixtures());
    assert_eq!(s["sessions_new"], 4);
    assert_eq!(s["agents"], 8);
    assert_eq!(s["messages_read"], 13, "D holds a copy of C's msg_C1");
    assert_eq!(s["token_rows"], 12, "the copy is counted once");
    let got = db_by_session(&env);
    // Hand-computed from the fixture records (see fixtures/README.md).
    assert_eq!(got[A], [20, 130, 150, 300, 850]);
    assert_eq!(got[B], [8, 81, 700, 0, 7111]);
    assert_eq!(got[C], [14, 154, 950, 330, 15000]);
    assert_eq!(got[D], [6, 66, 60, 0, 600]);
}

#[test]
fn fixture_totals_equal_the_independent_reader() {
    let env = Env::new();
    env.ingest(&fixtures());
    let r = Reader::read(&fixtures());
    assert_eq!(db_by_session(&env), r.by_session());
    assert_eq!(db_by_model(&env), r.by_model());
}

#[test]
fn every_layout_becomes_an_agent_with_its_own_tokens() {
    let env = Env::new();
    env.ingest(&fixtures());
    let agents = |sid: &str| -> Vec<(String, String, Tok)> {
        env.json(&["show", sid])["by_agent"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["agent_id"].as_str().unwrap().to_string(),
                    a["layout"].as_str().unwrap().to_string(),
                    tok(a),
                )
            })
            .collect()
    };
    assert_eq!(
        agents(A),
        vec![
            (A.to_string(), "main".into(), [15, 100, 100, 300, 400]),
            ("side-root-1".into(), "inline".into(), [5, 30, 50, 0, 450]),
        ]
    );
    assert_eq!(
        agents(B),
        vec![
            (B.to_string(), "main".into(), [7, 70, 700, 0, 7000]),
            ("a1b2c3d".into(), "flat".into(), [1, 11, 0, 0, 111]),
        ]
    );
    assert_eq!(
        agents(C),
        vec![
            (C.to_string(), "main".into(), [6, 66, 400, 0, 6200]),
            ("abc123".into(), "nested".into(), [3, 33, 0, 330, 3300]),
            ("def456".into(), "workflow".into(), [5, 55, 550, 0, 5500]),
        ]
    );
    let show = env.json(&["show", "3333"]);
    let nested = &show["by_agent"][1];
    assert_eq!(nested["agent_type"], "Explore");
    assert_eq!(nested["description"], "Scan the repo");
    assert_eq!(
        nested["transcript_path"],
        format!("-home-dev-beta/{C}/subagents/agent-abc123.jsonl")
    );
}

#[test]
fn session_fields_follow_the_contract() {
    let env = Env::new();
    env.ingest(&fixtures());
    let s = env.json(&["show", A]);
    assert_eq!(s["session_id"], A);
    assert_eq!(s["harness"], "claude-code");
    assert_eq!(
        s["project"], "alpha",
        "no such directory here: its base name"
    );
    assert_eq!(s["project_slug"], "-home-dev-alpha");
    assert_eq!(s["cwd"], "/home/dev/alpha");
    assert_eq!(s["git_branch"], "main");
    assert_eq!(s["harness_version"], "1.0.108");
    // `12:01:05+02:00` is 10:01:05Z, and last activity is a max, not file order.
    assert_eq!(s["started_at"], "2026-01-10T10:00:00.000Z");
    assert_eq!(s["last_activity_at"], "2026-01-10T10:02:00.000Z");
    assert_eq!(s["agents"], 2);
    assert_eq!(
        s["models"],
        serde_json::json!([
            "<synthetic>",
            "claude-haiku-4-5-20251001",
            "claude-sonnet-4-5-20250929"
        ])
    );
    assert_eq!(s["synthetic_messages"], 1);
    assert_eq!(s["degraded_lines"], 0);
    assert_eq!(s["compactions"][0]["trigger"], "auto");
    assert_eq!(s["compactions"][0]["pre_tokens"], 160000);
    assert_eq!(s["compactions"][0]["at"], "2026-01-10T10:01:00.000Z");
    // The streamed partial carried a transient model; the largest output settles it.
    let models: Vec<&str> = s["by_model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["model"].as_str().unwrap())
        .collect();
    assert!(!models.contains(&"claude-fable-5"));
    // D: the copied records do not move its start, and an unknown record type is counted.
    let d = env.json(&["show", D]);
    assert_eq!(d["started_at"], "2026-01-13T07:00:00.000Z");
    assert_eq!(d["unknown_records"], 1);
    assert_eq!(d["harness_version"], "2.1.92");
}

#[test]
fn second_ingest_reads_nothing_and_changes_nothing() {
    let env = Env::new();
    env.ingest(&fixtures());
    let before = env.dump();
    let s = env.ingest(&fixtures());
    assert_eq!(s["sessions_unchanged"], 4);
    assert_eq!(s["sessions_new"], 0);
    assert_eq!(s["bytes_read"], 0, "fingerprints are lstat-only");
    assert_eq!(env.dump(), before);
}

#[test]
fn two_fresh_ingests_are_identical_and_replay_equals_ingest() {
    let (a, b) = (Env::new(), Env::new());
    a.ingest(&fixtures());
    b.ingest(&fixtures());
    assert_eq!(a.dump(), b.dump());
    let r = a.json(&["replay", "--root", fixtures().to_str().unwrap()]);
    assert_eq!(r["sessions_updated"], 4);
    assert_eq!(a.dump(), b.dump());
}

/// Two fresh ingests of a corpus whose sessions finish out of key order
/// (the largest sessions have the smallest ids) store every table in the
/// same order (`sqlite3 .dump` prints the same), and ingest's own rows sit
/// in key order whichever thread finished first.
#[test]
fn two_fresh_ingests_store_every_row_in_the_same_order() {
    let corpus = tempfile::tempdir().unwrap();
    let project = corpus.path().join("-home-dev-many");
    std::fs::create_dir_all(&project).unwrap();
    let mut ids = Vec::new();
    for i in 0..24u32 {
        let sid = format!("{i:08x}-0000-4000-8000-000000000000");
        let mut text = String::new();
        // Session 0 is the largest, 23 the smallest.
        for m in 0..(24 - i) * 150 {
            text.push_str(&json!({"type": "assistant", "sessionId": sid, "uuid": format!("u{i}-{m}"),
                "timestamp": format!("2026-02-01T10:{:02}:{:02}.000Z", (m / 60) % 60, m % 60),
                "message": {"id": format!("msg_{i}_{m}"), "role": "assistant", "model": "claude-sonnet-4-5",
                            "content": [{"type": "text", "text": "x".repeat(200)}],
                            "usage": {"input_tokens": m + 1, "output_tokens": i + 1}}}).to_string());
            text.push('\n');
        }
        std::fs::write(project.join(format!("{sid}.jsonl")), text).unwrap();
        ids.push(sid);
    }
    let (a, b) = (Env::new(), Env::new());
    a.ingest(corpus.path());
    b.ingest(corpus.path());
    assert_eq!(a.storage_dump(), b.storage_dump());
    let c = rusqlite::Connection::open(a.db()).unwrap();
    let stored: Vec<String> = c
        .prepare("SELECT session_id FROM ingest_resume")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored, ids);
}

/// Ingesting one session at a time, in two orders, gives the same token rows.
#[test]
fn order_of_sessions_does_not_change_token_rows() {
    let split = |env: &Env| -> Vec<std::path::PathBuf> {
        // One root per session, each with its own slug folder.
        let mut roots = Vec::new();
        for (slug, sid) in [
            ("-home-dev-beta", C),
            ("-home-dev-beta", D),
            ("-home-dev-alpha", A),
            ("-home-dev-alpha", B),
        ] {
            let root = env.path(&format!("roots/{sid}"));
            let dst = root.join(slug);
            std::fs::create_dir_all(&dst).unwrap();
            let src = fixtures().join(slug);
            std::fs::copy(
                src.join(format!("{sid}.jsonl")),
                dst.join(format!("{sid}.jsonl")),
            )
            .unwrap();
            if sid == C {
                copy_tree(&src.join(C), &dst.join(C));
            }
            if sid == B {
                std::fs::copy(
                    src.join("agent-a1b2c3d.jsonl"),
                    dst.join("agent-a1b2c3d.jsonl"),
                )
                .unwrap();
            }
            roots.push(root);
        }
        roots
    };
    let token_rows = |env: &Env| env.rows("SELECT * FROM token_usage ORDER BY message_id");
    let fwd = Env::new();
    for r in split(&fwd) {
        fwd.ingest(&r);
    }
    let rev = Env::new();
    for r in split(&rev).iter().rev() {
        rev.ingest(r);
    }
    let all = Env::new();
    all.ingest(&fixtures());
    assert_eq!(token_rows(&fwd).len(), 12);
    assert_eq!(token_rows(&fwd), token_rows(&rev));
    assert_eq!(token_rows(&fwd), token_rows(&all));
    // D first: while C is unknown, its copy of msg_C1 counts for D; then C claims it.
    let early = Env::new();
    let roots = split(&early);
    early.ingest(&roots[1]);
    assert_eq!(db_by_session(&early)[D], [10, 110, 460, 0, 4600]);
    early.ingest(&roots[0]);
    assert_eq!(db_by_session(&early)[D], [6, 66, 60, 0, 600]);
}

#[test]
fn appending_to_one_session_reparses_only_it() {
    let env = Env::new();
    let root = env.path("corpus");
    copy_tree(&fixtures(), &root);
    env.ingest(&root);
    let main = root.join(format!("-home-dev-alpha/{B}.jsonl"));
    let line = format!(
        r#"{{"type":"assistant","sessionId":"{B}","timestamp":"2026-01-11T10:00:00.000Z","message":{{"id":"msg_B2","model":"claude-sonnet-4-5-20250929","usage":{{"input_tokens":1,"output_tokens":2}}}}}}"#
    );
    let mut text = std::fs::read_to_string(&main).unwrap();
    text.push_str(&line);
    text.push('\n');
    std::fs::write(&main, text).unwrap();
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_unchanged"].as_u64()
        ),
        (Some(1), Some(3))
    );
    assert_eq!(db_by_session(&env)[B], [9, 83, 700, 0, 7111]);
    assert_eq!(
        env.json(&["show", B])["last_activity_at"],
        "2026-01-11T10:00:00.000Z"
    );
}

/// A file of NULs, or one whose only line has no newline, is a degraded
/// session in `ingest` and `check`, not a session that quietly holds
/// nothing; once the line ends it is read, counted, and the finding goes.
#[test]
fn a_file_without_a_newline_is_a_degraded_session_until_its_line_ends() {
    let env = Env::new();
    let root = env.path("corpus");
    let dir = root.join("-home-dev-tail");
    std::fs::create_dir_all(&dir).unwrap();
    let nul = "aaaaaaaa-1111-4222-8333-444444444444";
    let cut = "bbbbbbbb-1111-4222-8333-444444444444";
    std::fs::write(dir.join(format!("{nul}.jsonl")), vec![0u8; 5000]).unwrap();
    let line = format!(
        r#"{{"type":"assistant","sessionId":"{cut}","uuid":"a1","timestamp":"2026-01-11T10:00:00.000Z","message":{{"id":"msg_T1","model":"claude-sonnet-4-5-20250929","usage":{{"input_tokens":3,"output_tokens":4}}}}}}"#
    );
    let cut_file = dir.join(format!("{cut}.jsonl"));
    std::fs::write(&cut_file, &line).unwrap();
    let s = env.ingest(&root);
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_degraded"].as_u64()),
        (Some(2), Some(2))
    );
    let (code, out, _) = env.run(&[
        "check",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 1);
    let found: Vec<(String, String, u64, String)> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| {
            (
                v["kind"].as_str().unwrap().to_string(),
                v["session_id"].as_str().unwrap().to_string(),
                v["line"].as_u64().unwrap(),
                v["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let reason =
        |n: usize| format!("the last {n} bytes have no newline: not read until the line ends");
    assert_eq!(
        found,
        [
            (
                "degraded-line".to_string(),
                nul.to_string(),
                0,
                reason(5000)
            ),
            (
                "degraded-line".to_string(),
                cut.to_string(),
                0,
                reason(line.len())
            ),
        ]
    );
    assert_eq!(env.json(&["show", cut])["degraded_lines"], 1);
    // The client writes the newline: the line is read and counted.
    std::fs::write(&cut_file, format!("{line}\n")).unwrap();
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_degraded"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(db_by_session(&env)[cut], [3, 4, 0, 0, 0]);
    assert_eq!(env.json(&["show", cut])["degraded_lines"], 0);
    let (_, out, _) = env.run(&[
        "check",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains(nul));
}

#[test]
fn check_on_the_golden_corpus_finds_nothing() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, out, err) = env.run(&[
        "check",
        "--root",
        fixtures().to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("check: nothing found"));
}

#[test]
fn check_finds_stale_and_tampered_rows() {
    let env = Env::new();
    let root = env.path("corpus");
    copy_tree(&fixtures(), &root);
    env.ingest(&root);
    // Tamper with the database: the recount must notice.
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    conn.execute(
        "UPDATE usage_observations SET output_tokens = 1 WHERE message_id = 'msg_C2'",
        [],
    )
    .unwrap();
    drop(conn);
    // And let a file change behind the database's back.
    let f = root.join(format!("-home-dev-alpha/{A}.jsonl"));
    let mut text = std::fs::read_to_string(&f).unwrap();
    text.push_str("{\"type\":\"user\"}\n");
    std::fs::write(&f, text).unwrap();
    let (code, out, _) = env.run(&[
        "check",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let kinds: Vec<(&str, &str)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["session_id"].as_str().unwrap(),
            )
        })
        .collect();
    // The tampered row also leaves the report rollup out of step with it.
    assert_eq!(
        kinds,
        vec![
            ("recount-mismatch", C),
            ("rollup-mismatch", C),
            ("stale", A)
        ]
    );
}

/// A bulk run (message index rebuilt at the end, shared messages settled
/// last) leaves exactly what the per-message path leaves.
#[test]
fn bulk_mode_equals_the_per_message_path() {
    let plain = Env::new();
    plain.ingest(&fixtures());
    let bulk = Env::new();
    let out = bulk
        .cmd()
        .env("SESSIONKIT_BULK_BYTES", "1")
        .args(["ingest", "--json", "--root", fixtures().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(bulk.dump(), plain.dump());
    assert_eq!(db_by_session(&bulk)[D], [6, 66, 60, 0, 600]);
    // Replaying in bulk mode changes nothing either.
    let out = bulk
        .cmd()
        .env("SESSIONKIT_BULK_BYTES", "1")
        .args(["replay", "--json", "--root", fixtures().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(bulk.dump(), plain.dump());
}

/// A bulk run killed after some sessions committed leaves its deferred work
/// recorded; the next run (of any size) finishes it.
#[test]
fn deferred_settles_survive_a_kill() {
    let env = Env::new();
    env.ingest(&fixtures());
    // Simulate what a killed bulk run leaves: no index, a message waiting.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute_batch(
        "DROP INDEX usage_observations_message;
         UPDATE usage_observations SET counted = 1, t_model = NULL, t_occurred_at = NULL, t_input_tokens = NULL,
           t_output_tokens = NULL, t_cache_write_5m_tokens = NULL, t_cache_write_1h_tokens = NULL,
           t_cache_read_tokens = NULL WHERE message_id = 'msg_C1';
         INSERT INTO pending_settle(message_id) VALUES ('msg_C1');",
    )
    .unwrap();
    drop(c);
    let s = env.ingest(&fixtures());
    assert_eq!(s["sessions_unchanged"], 4);
    let fresh = Env::new();
    fresh.ingest(&fixtures());
    assert_eq!(env.dump(), fresh.dump());
    let n =
        env.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'usage_observations_message'");
    assert_eq!(n, 1);
}

/// `check` and `replay` without `--root` read the roots the
/// database was ingested from. Before, `check` said "nothing found" for an
/// edited transcript and `replay` called every session retained.
#[test]
fn check_and_replay_without_root_use_the_ingested_roots() {
    let env = Env::new();
    let root = env.path("projects");
    copy_tree(&fixtures(), &root);
    env.ingest(&root);
    let (code, out, err) = env.run(&["check", "--format", "jsonl"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    // An edit after the ingest: stale until ingested again.
    let main = root.join(format!("-home-dev-alpha/{A}.jsonl"));
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replacen("\"output_tokens\":", "\"output_tokens\":1", 1),
    )
    .unwrap();
    let (code, out, _) = env.run(&["check", "--format", "jsonl"]);
    assert_eq!(code, 1);
    let found: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(
        (found[0]["kind"].as_str(), found[0]["session_id"].as_str()),
        (Some("stale"), Some(A))
    );
    let s = env.json(&["replay"]);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_retained"].as_u64()
        ),
        (Some(4), Some(0))
    );
    assert_eq!(env.run(&["check"]).0, 0);
}

/// `check` exits 1 while a session file is skipped (a symlinked
/// transcript, a session folder under a bad name) or was never ingested,
/// and names each.
#[test]
fn check_fails_while_a_session_is_skipped_or_never_ingested() {
    let env = Env::new();
    let root = env.path("projects");
    copy_tree(&fixtures(), &root);
    env.ingest(&root);
    let outside = env.path("outside.jsonl");
    std::fs::copy(root.join(format!("-home-dev-alpha/{A}.jsonl")), &outside).unwrap();
    let linked = "aaaaaaaa-0000-4000-8000-00000000000c";
    std::os::unix::fs::symlink(
        &outside,
        root.join(format!("-home-dev-alpha/{linked}.jsonl")),
    )
    .unwrap();
    let late = "aaaaaaaa-0000-4000-8000-00000000000d";
    std::fs::write(
        root.join(format!("-home-dev-alpha/{late}.jsonl")),
        format!(
            "{{\"type\":\"user\",\"sessionId\":\"{late}\",\"timestamp\":\"2026-01-20T00:00:00Z\"}}\n"
        ),
    )
    .unwrap();
    let (code, out, _) = env.run(&["check", "--format", "jsonl"]);
    assert_eq!(code, 1);
    let found: Vec<(String, String)> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["file"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "not-ingested".to_string(),
                format!("-home-dev-alpha/{late}.jsonl")
            ),
            (
                "skipped".to_string(),
                format!("-home-dev-alpha/{linked}.jsonl")
            ),
        ]
    );
    std::fs::remove_file(root.join(format!("-home-dev-alpha/{linked}.jsonl"))).unwrap();
    env.ingest(&root);
    assert_eq!(env.run(&["check"]).0, 0);
}

//! The closer in `sweep` (issue 19; reference/study-3ngram-continuity.md h
//! "Closer"; DESIGN.md Decision 13): the evidence judge resolves a finished
//! run's briefed commitments only on a sentence of its own words, as actor
//! `closer`, reversibly, never twice, never on a run that came back.

use serde_json::{Value, json};

use crate::common::*;

fn at(env: &Env, now: &str, args: &[&str]) -> (i32, String, String) {
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", now)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(env: &Env, now: &str, args: &[&str]) -> String {
    let (code, out, err) = at(env, now, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn commitment(env: &Env, topic: &str) -> String {
    let out = ok(
        env,
        "2026-03-01T09:00:00Z",
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            topic,
            "--content",
            topic,
            "--project",
            "shop",
            "--format",
            "json",
        ],
    );
    serde_json::from_str::<Value>(&out).unwrap()["memory_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A run briefed `ids`, whose last message is `last`, closed.
fn finished_run(env: &Env, sid: &str, briefed: &[(&str, &str)], last: &str) -> String {
    let list: Vec<Value> = briefed
        .iter()
        .map(|(id, topic)| json!({"id": id, "topic": topic, "status": "open"}))
        .collect();
    let list = Value::Array(list).to_string();
    let out = ok(
        env,
        "2026-03-01T10:00:00Z",
        &[
            "session",
            "open",
            "--agent",
            "codex",
            "--session-id",
            sid,
            "--source",
            "startup",
            "--project",
            "shop",
            "--briefed",
            &list,
            "--format",
            "json",
        ],
    );
    let run = serde_json::from_str::<Value>(&out).unwrap()["run_id"]
        .as_str()
        .unwrap()
        .to_string();
    ok(
        env,
        "2026-03-01T10:30:00Z",
        &[
            "session",
            "heartbeat",
            "--agent",
            "codex",
            "--session-id",
            sid,
            "--excerpt",
            last,
        ],
    );
    ok(
        env,
        "2026-03-01T10:31:00Z",
        &["session", "close", "--agent", "codex", "--session-id", sid],
    );
    run
}

fn status_of(env: &Env, id: &str) -> String {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row(
        "SELECT status FROM commitments WHERE memory_id = ?1",
        [id],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn the_closer_resolves_only_what_a_finished_run_says_it_finished() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    let docs = commitment(&env, "Migration docs");
    let run = finished_run(
        &env,
        "c1",
        &[(&parser, "Transcript parser"), (&docs, "Migration docs")],
        "Summary. The transcript parser is done and merged. I did not get to the migration docs.",
    );
    // Off by default: a note, nothing changed.
    let (code, out, err) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("the closer is off (closer.enabled)"), "{err}");
    assert_eq!(status_of(&env, &parser), "open");
    ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["config", "set", "closer.enabled", "on"],
    );
    // A dry run says what it would do and does nothing (exit 1: something would change).
    let (code, dry, _) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--dry-run", "--format", "jsonl"],
    );
    assert_eq!(code, 1);
    assert_eq!(dry.lines().count(), 1, "{dry}");
    assert_eq!(status_of(&env, &parser), "open");
    let out = ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1, "{out}");
    let r = &rows[0];
    assert_eq!(
        (
            r["action"].as_str(),
            r["memory_id"].as_str(),
            r["run_id"].as_str(),
            r["evidence"].as_str()
        ),
        (
            Some("resolve"),
            Some(parser.as_str()),
            Some(run.as_str()),
            Some("The transcript parser is done and merged")
        )
    );
    assert_eq!(status_of(&env, &parser), "resolved");
    assert_eq!(
        status_of(&env, &docs),
        "open",
        "a negated sentence resolves nothing"
    );
    // The audit event: actor closer, the run, the evidence.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let (actor, event_run, reason): (String, String, String) = c
        .query_row(
            "SELECT actor, session_run_id, reason FROM memory_events WHERE memory_id = ?1 AND kind = 'resolve'",
            [&parser],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (actor.as_str(), event_run.as_str()),
        ("closer", run.as_str())
    );
    assert_eq!(
        reason,
        "closer evidence: The transcript parser is done and merged"
    );
    // The run: completed, never resurrected, excerpt cleared, its events stamped.
    let (triage, closed, excerpt, epoch): (String, Option<i64>, Option<String>, i64) = c
        .query_row(
            "SELECT triage_status, closed_at, last_message_excerpt, activation_epoch FROM agent_sessions WHERE run_id = ?1",
            [&run],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        (triage.as_str(), closed.is_some(), excerpt, epoch),
        ("completed", true, None, 1)
    );
    // Never twice: the next pass finds nothing to do.
    assert_eq!(
        ok(
            &env,
            "2026-03-01T11:20:00Z",
            &["sweep", "--format", "jsonl"]
        ),
        ""
    );
    // Reversible: unresolve reopens it, and the closer leaves it alone after.
    ok(&env, "2026-03-01T11:30:00Z", &["unresolve", &parser]);
    assert_eq!(status_of(&env, &parser), "open");
    assert_eq!(
        ok(
            &env,
            "2026-03-01T11:40:00Z",
            &["sweep", "--format", "jsonl"]
        ),
        ""
    );
    assert_eq!(status_of(&env, &parser), "open");
}

#[test]
fn a_run_that_came_back_to_life_is_not_closed_out() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    finished_run(
        &env,
        "c2",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["config", "set", "closer.enabled", "on"],
    );
    // A heartbeat resurrects it (epoch 2): no longer closed, not a candidate.
    ok(
        &env,
        "2026-03-01T10:50:00Z",
        &[
            "session",
            "heartbeat",
            "--agent",
            "codex",
            "--session-id",
            "c2",
        ],
    );
    assert_eq!(
        ok(
            &env,
            "2026-03-01T11:00:00Z",
            &["sweep", "--format", "jsonl"]
        ),
        ""
    );
    assert_eq!(status_of(&env, &parser), "open");
}

/// Two sweeps at once: the second exits at once, saying so, changing nothing.
#[test]
fn a_second_concurrent_sweep_exits_at_once() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    finished_run(
        &env,
        "c3",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["config", "set", "closer.enabled", "on"],
    );
    let mut lock = env.db().into_os_string();
    lock.push(".sweep.lock");
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .unwrap();
    held.try_lock().unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "at once"
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("another sweep is running on this database"),
        "{err}"
    );
    assert_eq!(status_of(&env, &parser), "open");
    drop(held);
    assert_eq!(
        ok(
            &env,
            "2026-03-01T11:01:00Z",
            &["sweep", "--format", "jsonl"]
        )
        .lines()
        .count(),
        1
    );
    assert_eq!(status_of(&env, &parser), "resolved");
}

/// `eval closer` on the shipped cases (fixtures/eval/closer): the evidence
/// judge never resolves what a run did not complete, on any case; its
/// recall is what it is, reported exactly.
#[test]
fn the_evidence_judge_on_every_labeled_case() {
    let env = Env::new();
    let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/eval/closer");
    let dir = cases.to_str().unwrap();
    let (code, out, err) = at(
        &env,
        NOW,
        &[
            "eval",
            "closer",
            "--cases",
            dir,
            "--max-spurious",
            "0",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 33, "32 cases and the total");
    for r in &rows {
        assert_eq!(r["spurious"], 0, "{r}");
    }
    let total = rows.last().unwrap();
    assert_eq!(
        (
            total["case"].as_str(),
            total["expected"].as_u64(),
            total["resolved"].as_u64(),
            total["right"].as_u64()
        ),
        (Some("(total)"), Some(17), Some(11), Some(11))
    );
    assert_eq!(
        (total["recall"].as_f64(), total["precision"].as_f64()),
        (Some(0.647), Some(1.0))
    );
    crate::schema::holds_contract(&env, "eval", "EvalRecord", "sessionkit.eval/1", &rows);
    assert!(!env.db().exists(), "the user's database is never opened");
    // Below a threshold: exit 1.
    let (code, _, _) = at(
        &env,
        NOW,
        &["eval", "closer", "--cases", dir, "--min-recall", "0.9"],
    );
    assert_eq!(code, 1);
    // A case that is not one: a clear error naming the file, nothing replayed.
    let bad = env.path("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("x.json"), r#"{"name": "x"}"#).unwrap();
    let (code, out, err) = at(
        &env,
        NOW,
        &["eval", "closer", "--cases", bad.to_str().unwrap()],
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("x.json: not a closer case"), "{err}");
}

/// With the run's transcript ingested, the closer reads its last assistant
/// words too: the final excerpt says nothing, the transcript says it.
#[test]
fn the_closer_reads_the_tail_of_an_ingested_transcript() {
    let env = Env::new();
    let sid = "55555555-5555-4555-8555-555555555555";
    let root = env.path("projects");
    std::fs::create_dir_all(root.join("-w-shop")).unwrap();
    let line = |uuid: &str, kind: &str, content: Value| {
        json!({"parentUuid": null, "isSidechain": false, "cwd": "/w/shop", "sessionId": sid, "type": kind,
               "uuid": uuid, "timestamp": "2026-03-01T10:05:00.000Z",
               "message": {"id": format!("m-{uuid}"), "role": kind, "model": "claude-sonnet-4-5", "content": content,
                           "usage": {"input_tokens": 1, "output_tokens": 1}}})
        .to_string()
    };
    let text = [
        line("u1", "user", json!("please finish the parser")),
        line(
            "a1",
            "assistant",
            json!([{"type": "text", "text": "Working on it."}]),
        ),
        line(
            "a2",
            "assistant",
            json!([{"type": "text", "text": "The transcript parser is done; all tests pass."}]),
        ),
    ]
    .join("\n")
        + "\n";
    std::fs::write(root.join(format!("-w-shop/{sid}.jsonl")), text).unwrap();
    env.ingest(&root);
    let parser = commitment(&env, "Transcript parser");
    let list = json!([{"id": parser, "topic": "Transcript parser", "status": "open"}]).to_string();
    ok(
        &env,
        "2026-03-01T10:00:00Z",
        &[
            "session",
            "open",
            "--agent",
            "claude-code",
            "--session-id",
            sid,
            "--source",
            "startup",
            "--project",
            "shop",
            "--briefed",
            &list,
        ],
    );
    ok(
        &env,
        "2026-03-01T10:30:00Z",
        &[
            "session",
            "close",
            "--agent",
            "claude-code",
            "--session-id",
            sid,
        ],
    );
    ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["config", "set", "closer.enabled", "on"],
    );
    let out = ok(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let resolves: Vec<&Value> = rows.iter().filter(|r| r["action"] == "resolve").collect();
    assert_eq!(resolves.len(), 1, "{out}");
    assert_eq!(
        resolves[0]["evidence"], "The transcript parser is done",
        "{out}"
    );
    assert_eq!(status_of(&env, &parser), "resolved");
}

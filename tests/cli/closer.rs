//! The closer in `sweep`: the evidence judge resolves a finished
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

/// One `sweep` at `now`, its JSON Lines.
fn sweep(env: &Env, now: &str) -> String {
    ok(env, now, &["sweep", "--format", "jsonl"])
}

/// Turns the closer on.
fn closer_on(env: &Env) {
    ok(
        env,
        "2026-03-01T11:00:00Z",
        &["config", "set", "closer.enabled", "on"],
    );
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
    env.text("SELECT status FROM commitments WHERE memory_id = ?1", id)
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
    closer_on(&env);
    // A dry run says what it would do and does nothing (exit 1: something would change).
    let (code, dry, _) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--dry-run", "--format", "jsonl"],
    );
    assert_eq!(code, 1);
    assert_eq!(dry.lines().count(), 1, "{dry}");
    assert_eq!(status_of(&env, &parser), "open");
    let out = sweep(&env, "2026-03-01T11:00:00Z");
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
            r["evidence"].as_str(),
            r["rule"].as_str()
        ),
        (
            Some("resolve"),
            Some(parser.as_str()),
            Some(run.as_str()),
            Some("The transcript parser is done and merged"),
            Some("topic+done-word")
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
        "closer evidence (topic+done-word): The transcript parser is done and merged"
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
    assert_eq!(sweep(&env, "2026-03-01T11:20:00Z"), "");
    // Reversible: unresolve reopens it, and the closer leaves it alone after.
    ok(&env, "2026-03-01T11:30:00Z", &["unresolve", &parser]);
    assert_eq!(status_of(&env, &parser), "open");
    assert_eq!(sweep(&env, "2026-03-01T11:40:00Z"), "");
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
    closer_on(&env);
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
    assert_eq!(sweep(&env, "2026-03-01T11:00:00Z"), "");
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
    closer_on(&env);
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
    assert_eq!(sweep(&env, "2026-03-01T11:01:00Z").lines().count(), 1);
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
    let cases_run = rows.iter().filter(|r| r["case"] != "(total)").count();
    assert_eq!(cases_run, 147, "101 dev cases and 46 test cases");
    for r in &rows {
        assert_eq!(r["spurious"], 0, "{r}");
    }
    let total = |split: &str, category: &str| {
        let r = rows
            .iter()
            .find(|r| r["case"] == "(total)" && r["split"] == split && r["category"] == category)
            .unwrap_or_else(|| panic!("no total for {split}/{category}"));
        (
            r["expected"].as_u64().unwrap(),
            r["right"].as_u64().unwrap(),
            r["recall"].as_f64(),
            r["precision"].as_f64(),
        )
    };
    // The split the rules are tuned on, the one they never are, and all.
    assert_eq!(total("dev", "-"), (63, 58, Some(0.921), Some(1.0)));
    assert_eq!(total("test", "-"), (26, 20, Some(0.769), Some(1.0)));
    assert_eq!(total("-", "-"), (89, 78, Some(0.876), Some(1.0)));
    assert_eq!(total("test", "inflection"), (5, 5, Some(1.0), Some(1.0)));
    assert_eq!(total("dev", "negation"), (0, 0, None, None));
    assert_eq!(rows.last().unwrap()["split"], "-");
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

/// A case without a category takes its file name's (`<category>-<n>`),
/// totalled so; `--explain` says on stderr which clause resolved what and
/// whether its label agrees.
#[test]
fn cases_are_totalled_by_their_file_s_category_and_explained() {
    let env = Env::new();
    let dir = env.path("named");
    std::fs::create_dir_all(&dir).unwrap();
    let case = |name: &str, last: &str, done: &[&str]| {
        json!({"name": name,
               "commitments": [{"id": "c1", "topic": "rotate the staging keys", "content": "rotate keys.pem on staging"}],
               "transcript_tail": [], "final_message": last, "resolved_by_agent": [],
               "expected_completed": done})
        .to_string()
    };
    std::fs::write(
        dir.join("plain-1.json"),
        case("plain-1", "Rotated the staging keys.", &["c1"]),
    )
    .unwrap();
    std::fs::write(
        dir.join("hedge-1.json"),
        case("hedge-1", "The staging keys are probably rotated.", &[]),
    )
    .unwrap();
    // A label that disagrees with the judge: its resolve counts as spurious.
    std::fs::write(
        dir.join("mislabelled-1.json"),
        case("mislabelled-1", "Rotated the staging keys.", &[]),
    )
    .unwrap();
    let (code, out, err) = at(
        &env,
        NOW,
        &[
            "eval",
            "closer",
            "--cases",
            dir.to_str().unwrap(),
            "--explain",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by: Vec<(String, String, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["case"].as_str().unwrap().to_string(),
                r["category"].as_str().unwrap().to_string(),
                r["resolved"].as_u64().unwrap(),
            )
        })
        .collect();
    let row = |c: &str, k: &str, n: u64| (c.to_string(), k.to_string(), n);
    assert_eq!(
        by,
        [
            row("hedge-1", "hedge", 0),
            row("mislabelled-1", "mislabelled", 1),
            row("plain-1", "plain", 1),
            row("(total)", "hedge", 0),
            row("(total)", "mislabelled", 1),
            row("(total)", "plain", 1),
            row("(total)", "-", 2),
        ]
    );
    assert!(
        err.contains("plain-1: c1 resolved (right) by topic+past-tense: Rotated the staging keys"),
        "{err}"
    );
    assert!(
        err.contains("mislabelled-1: c1 resolved (SPURIOUS) by topic+past-tense"),
        "{err}"
    );
    // The confusion table: each rule's right and spurious resolves.
    assert!(
        err.contains(
            "sessionkit: RULE              RIGHT  SPURIOUS\nsessionkit: topic+past-tense      1         1\n"
        ),
        "{err}"
    );
    assert!(!err.contains("hedge-1:"), "{err}");
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
    closer_on(&env);
    let out = sweep(&env, "2026-03-01T11:00:00Z");
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

/// A test of the commitment's own passing in the run's transcript stands
/// for "done" when the run's words name the commitment without saying so.
#[test]
fn a_passing_test_in_the_transcript_is_evidence() {
    let env = Env::new();
    let sid = "66666666-6666-4666-8666-666666666666";
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
        line("u1", "user", json!("fix the roundtrip test")),
        line(
            "a1",
            "assistant",
            json!([{"type": "tool_use", "id": "tu1", "name": "Bash",
                    "input": {"command": "cargo test parser_roundtrip"}}]),
        ),
        line(
            "u2",
            "user",
            json!([{"type": "tool_result", "tool_use_id": "tu1", "is_error": false,
                    "content": "running 1 test\ntest parser_roundtrip ... ok\ntest result: ok. 1 passed; 0 failed"}]),
        ),
        line(
            "a2",
            "assistant",
            json!([{"type": "text", "text": "The parser_roundtrip fix reads the cut line first."}]),
        ),
    ]
    .join("\n")
        + "\n";
    std::fs::write(root.join(format!("-w-shop/{sid}.jsonl")), text).unwrap();
    env.ingest(&root);
    let out = ok(
        &env,
        "2026-03-01T09:00:00Z",
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "Roundtrip test",
            "--content",
            "parser_roundtrip fails on a cut first line",
            "--project",
            "shop",
            "--format",
            "json",
        ],
    );
    let id = serde_json::from_str::<Value>(&out).unwrap()["memory_id"]
        .as_str()
        .unwrap()
        .to_string();
    let list = json!([{"id": id, "topic": "Roundtrip test", "status": "open"}]).to_string();
    for args in [
        vec![
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
        vec![
            "session",
            "close",
            "--agent",
            "claude-code",
            "--session-id",
            sid,
        ],
    ] {
        ok(&env, "2026-03-01T10:00:00Z", &args);
    }
    closer_on(&env);
    let out = sweep(&env, "2026-03-01T11:00:00Z");
    let resolves: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["action"] == "resolve")
        .collect();
    assert_eq!(resolves.len(), 1, "{out}");
    assert_eq!(
        resolves[0]["evidence"],
        "The parser_roundtrip fix reads the cut line first (and `cargo test parser_roundtrip` passed in this run)"
    );
    assert_eq!(status_of(&env, &id), "resolved");
}

/// A loopback stub of a chat endpoint: answers each request with the next
/// (status, body, delay), records what it was sent.
struct Stub {
    url: String,
    seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

fn stub(answers: Vec<(u16, String, u64)>) -> Stub {
    let answers = std::sync::Mutex::new(answers.into_iter());
    serve(move |_| {
        answers
            .lock()
            .unwrap()
            .next()
            .unwrap_or((500, "{}".into(), 0))
    })
}

/// A loopback HTTP server answering each request's body with `answer`'s
/// (status, body, delay in ms); it records each request (head and body).
fn serve(answer: impl Fn(&[u8]) -> (u16, String, u64) + Send + 'static) -> Stub {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { return };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut head = String::new();
            let mut len = 0;
            loop {
                let mut l = String::new();
                if reader.read_line(&mut l).unwrap_or(0) == 0 || l == "\r\n" {
                    break;
                }
                if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&l);
            }
            let mut body = vec![0; len];
            let _ = reader.read_exact(&mut body);
            log.lock()
                .unwrap()
                .push(format!("{head}\n{}", String::from_utf8_lossy(&body)));
            let (status, reply, delay) = answer(&body);
            std::thread::sleep(std::time::Duration::from_millis(delay));
            let _ = write!(
                conn,
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    Stub { url, seen }
}

fn openai(text: &str) -> String {
    json!({"choices": [{"message": {"content": text}}], "usage": {"prompt_tokens": 1000, "completion_tokens": 20}}).to_string()
}

/// Settings for the endpoint judge at `url`, the closer on.
fn endpoint_judge(env: &Env, url: &str) {
    for (k, v) in [
        ("closer.enabled", "on"),
        ("closer.judge", "endpoint"),
        ("closer.endpoint", url),
        ("closer.model", "claude-sonnet-4-5"),
        ("closer.timeout_seconds", "1"),
    ] {
        ok(env, NOW, &["config", "set", k, v]);
    }
}

fn backoff(env: &Env, sid: &str) -> (i64, Option<i64>) {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row(
        "SELECT closer_failure_count, closer_next_attempt_at FROM agent_sessions WHERE session_id = ?1",
        [sid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

#[test]
fn the_endpoint_judge_resolves_what_the_model_names_within_the_briefed_set() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    let docs = commitment(&env, "Migration docs");
    let run = finished_run(
        &env,
        "e1",
        &[(&parser, "Transcript parser"), (&docs, "Migration docs")],
        "Wrapped up the parser work.",
    );
    let reply = json!({"completed": [{"id": parser, "evidence": "Wrapped up the parser work with PASSWORD=hunter2hunter2"},
                                     {"id": "01990000-not-briefed", "evidence": "x"}]})
    .to_string();
    let s = stub(vec![(200, openai(&format!("```json\n{reply}\n```")), 0)]);
    endpoint_judge(&env, &s.url);
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", "2026-03-01T11:00:00Z")
        .env("SESSIONKIT_CLOSER_API_KEY", "sk-test-key-0123456789")
        .args(["sweep", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0]["memory_id"].as_str(), rows[0]["evidence"].as_str()),
        (
            Some(parser.as_str()),
            Some("Wrapped up the parser work with PASSWORD=[redacted:password:~16]")
        )
    );
    assert_eq!(
        (
            status_of(&env, &parser).as_str(),
            status_of(&env, &docs).as_str()
        ),
        ("resolved", "open")
    );
    // One call, to the chat route, with the key as a bearer token and the
    // briefed commitments and last words as fenced data.
    let seen = s.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0].starts_with("POST /v1/chat/completions "),
        "{}",
        seen[0]
    );
    assert!(
        seen[0]
            .to_ascii_lowercase()
            .contains("authorization: bearer sk-test-key-0123456789")
    );
    assert!(seen[0].contains(&docs) && seen[0].contains("Wrapped up the parser work"));
    assert!(seen[0].contains("Write kinds recorded for this run: none"));
    // Tokens and cost recorded ($3 and $15 per million: 1,000 in, 20 out).
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let spend: (i64, i64, i64, i64) = c
        .query_row(
            "SELECT calls, input_tokens, output_tokens, cost_nanousd FROM closer_spend",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(spend, (1, 1000, 20, 3_300_000));
    // The key never reaches the file.
    drop(c);
    let mut bytes = std::fs::read(env.db()).unwrap();
    let mut wal = env.db().into_os_string();
    wal.push("-wal");
    bytes.extend(std::fs::read(wal).unwrap_or_default());
    assert!(!bytes.windows(22).any(|w| w == b"sk-test-key-0123456789"));
    // Nor does a secret the model quoted back.
    assert!(!bytes.windows(14).any(|w| w == b"hunter2hunter2"));
    let _ = run;
}

#[test]
fn a_bad_or_slow_endpoint_backs_the_run_off_and_resolves_nothing() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    finished_run(
        &env,
        "e2",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    // Prose instead of JSON.
    let s = stub(vec![(200, openai("Sure! The parser is done."), 0)]);
    endpoint_judge(&env, &s.url);
    let (code, out, err) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("the closer could not judge 1 runs"), "{err}");
    assert_eq!(status_of(&env, &parser), "open");
    let t0 = 1_772_362_800_000; // 2026-03-01T11:00:00Z
    assert_eq!(backoff(&env, "e2"), (1, Some(t0 + 20 * 60_000)));
    // Backed off: the next pass inside 20 minutes makes no call.
    at(
        &env,
        "2026-03-01T11:10:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert_eq!(s.seen.lock().unwrap().len(), 1);
    // A slow endpoint: three tries past the 1 s timeout, then backed off again (40 min).
    let slow = stub(vec![
        (200, openai("{}"), 1500),
        (200, openai("{}"), 1500),
        (200, openai("{}"), 1500),
    ]);
    ok(&env, NOW, &["config", "set", "closer.endpoint", &slow.url]);
    let (code, _, _) = at(
        &env,
        "2026-03-01T11:21:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert_eq!(code, 0);
    assert_eq!(
        slow.seen.lock().unwrap().len(),
        3,
        "the call and two retries"
    );
    assert_eq!(
        backoff(&env, "e2"),
        (2, Some(t0 + 21 * 60_000 + 40 * 60_000))
    );
    assert_eq!(status_of(&env, &parser), "open");
}

#[test]
fn the_daily_cap_is_checked_before_every_call() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    finished_run(
        &env,
        "e3",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    let s = stub(vec![(200, openai(r#"{"completed":[]}"#), 0)]);
    endpoint_judge(&env, &s.url);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute(
        "INSERT INTO closer_spend VALUES ('2026-03-01', 40, 1, 1, 1000000000)",
        [],
    )
    .unwrap();
    drop(c);
    let (code, out, err) = at(
        &env,
        "2026-03-01T11:00:00Z",
        &["sweep", "--format", "jsonl"],
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("daily spend cap (closer.max_daily_usd) is reached"),
        "{err}"
    );
    assert_eq!(s.seen.lock().unwrap().len(), 0, "no call past the cap");
    assert_eq!(
        backoff(&env, "e3"),
        (0, None),
        "the cap is not the run's failure"
    );
}

/// A run that comes back to life while its judge is thinking: the claim
/// was fenced at its epoch, so nothing it says lands.
#[test]
fn a_run_resurrected_during_a_slow_reply_gets_no_resolve() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    finished_run(
        &env,
        "e4",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    let reply = json!({"completed": [{"id": parser, "evidence": "done"}]}).to_string();
    let s = stub(vec![(200, openai(&reply), 800)]);
    endpoint_judge(&env, &s.url);
    let sweep = env
        .std_cmd()
        .env("SESSIONKIT_NOW", "2026-03-01T11:00:00Z")
        .args(["sweep", "--format", "jsonl"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the call, then heartbeat the run (a new activation).
    let started = std::time::Instant::now();
    while s.seen.lock().unwrap().is_empty()
        && started.elapsed() < std::time::Duration::from_secs(10)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    ok(
        &env,
        "2026-03-01T11:00:00Z",
        &[
            "session",
            "heartbeat",
            "--agent",
            "codex",
            "--session-id",
            "e4",
        ],
    );
    let out = sweep.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    assert_eq!(status_of(&env, &parser), "open");
}

/// `eval closer --judge endpoint` against a loopback model that always
/// names the first briefed id: the plumbing (the same batch, the prompt's
/// ids, tokens counted), and a spurious resolve counted as one.
#[test]
fn eval_with_the_endpoint_judge_counts_tokens_and_spurious_resolves() {
    let env = Env::new();
    let model = serve(|body| {
        let req: Value = serde_json::from_slice(body).unwrap();
        let prompt = req["messages"][0]["content"].as_str().unwrap().to_string();
        let start = prompt.find("\"id\": \"").unwrap() + 7;
        let id = &prompt[start..start + prompt[start..].find('"').unwrap()];
        let reply = json!({"completed": [{"id": id, "evidence": "it says so"}]}).to_string();
        (200, openai(&reply), 0)
    });
    let url = model.url.clone();
    let dir = env.path("cases");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, expected) in [("a-done", json!(["c1"])), ("b-not-done", json!([]))] {
        let case = json!({"name": name, "commitments": [{"id": "c1", "topic": "Parser", "content": "Parser"}],
                          "final_message": "Stopped.", "expected_completed": expected});
        std::fs::write(dir.join(format!("{name}.json")), case.to_string()).unwrap();
    }
    let out = env
        .cmd()
        .env("SESSIONKIT_CLOSER_ENDPOINT", &url)
        .env("SESSIONKIT_CLOSER_MODEL", "claude-sonnet-4-5")
        .args([
            "eval",
            "closer",
            "--cases",
            dir.to_str().unwrap(),
            "--judge",
            "endpoint",
            "--max-spurious",
            "0",
            "--format",
            "jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "one spurious resolve is past --max-spurious 0"
    );
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    fn pick(r: &Value) -> (Option<u64>, Option<u64>, Option<u64>, Option<&str>) {
        (
            r["right"].as_u64(),
            r["spurious"].as_u64(),
            r["tokens"].as_u64(),
            r["judge"].as_str(),
        )
    }
    assert_eq!(
        pick(&rows[0]),
        (Some(1), Some(0), Some(1020), Some("endpoint"))
    );
    assert_eq!(
        pick(&rows[1]),
        (Some(0), Some(1), Some(1020), Some("endpoint"))
    );
    assert_eq!(
        pick(&rows[2]),
        (Some(1), Some(1), Some(2040), Some("endpoint"))
    );
}

/// A pass that died after its claim, or after a resolve and before its
/// finish, leaves rows the next pass completes: every step is its own
/// transaction, and the claim compares the token it read.
#[test]
fn a_pass_that_died_midway_is_completed_by_the_next() {
    let env = Env::new();
    let parser = commitment(&env, "Transcript parser");
    let run = finished_run(
        &env,
        "k1",
        &[(&parser, "Transcript parser")],
        "The transcript parser is done.",
    );
    ok(&env, NOW, &["config", "set", "closer.enabled", "on"]);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    // Died after the claim: its token on the run, nothing else.
    c.execute(
        "UPDATE agent_sessions SET triage_attempt_id = 'dead-claim' WHERE run_id = ?1",
        [&run],
    )
    .unwrap();
    // ...and after resolving, before finishing (the resolve landed, the run not finished).
    c.execute(
        "UPDATE commitments SET status = 'resolved', resolved_at = 1 WHERE memory_id = ?1",
        [&parser],
    )
    .unwrap();
    drop(c);
    let out = sweep(&env, "2026-03-01T11:00:00Z");
    assert_eq!(out, "", "the resolve that landed is not made twice");
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let (status, token): (String, String) = c
        .query_row(
            "SELECT triage_status, triage_attempt_id FROM agent_sessions WHERE run_id = ?1",
            [&run],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(status, "completed", "the next pass finished the run");
    assert_ne!(token, "dead-claim", "under a claim of its own");
    assert_eq!(status_of(&env, &parser), "resolved");
    assert_eq!(sweep(&env, "2026-03-01T11:20:00Z"), "");
}

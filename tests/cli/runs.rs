//! Agent runs: every cell of the run state machine, the explicit/implicit
//! close rule, the lease floor, event paging and concurrency.

use serde_json::{Value, json};

use crate::common::Env;

const T0: &str = "2026-03-01T00:00:00Z";
const KEY: [&str; 4] = ["--agent", "claude-code", "--session-id", "s-1"];

fn at(env: &Env, now: &str, args: &[&str]) -> (i32, Value, String) {
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", now)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let v = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap(),
        v,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn open(env: &Env, now: &str, source: &str, project: &str) -> (i32, Value, String) {
    at(
        env,
        now,
        &[
            &["session", "open"],
            &KEY[..],
            &["--source", source, "--project", project],
        ]
        .concat(),
    )
}

fn show(env: &Env, now: &str) -> Option<Value> {
    let (code, v, _) = at(env, now, &[&["session", "show"], &KEY[..]].concat());
    (code == 0).then_some(v)
}

/// Events of memories written by the test, with their run.
fn runs_of_events(env: &Env) -> Vec<Option<String>> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut stmt = c
        .prepare("SELECT session_run_id FROM memory_events ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Puts a fresh database's run into `state`; returns the time to act at.
fn reach(env: &Env, state: &str) -> &'static str {
    if state == "absent" {
        return "2026-03-01T01:00:00Z";
    }
    let (code, _, err) = open(env, T0, "startup", "shop");
    assert_eq!(code, 0, "{err}");
    match state {
        "live" => "2026-03-01T01:00:00Z",
        // Past the 24 h lease, within the 1 h grace: stale, not swept.
        "stale" => "2026-03-02T00:10:00Z",
        "closed-implicit" => {
            let (code, _, _) = at(env, "2026-03-02T02:00:00Z", &["sweep"]);
            assert_eq!(code, 0);
            "2026-03-02T02:10:00Z"
        }
        "closed-explicit" => {
            let (code, _, _) = at(
                env,
                "2026-03-01T01:00:00Z",
                &[&["session", "close"], &KEY[..]].concat(),
            );
            assert_eq!(code, 0);
            "2026-03-01T02:00:00Z"
        }
        _ => unreachable!(),
    }
}

const STATES: [&str; 5] = [
    "absent",
    "live",
    "stale",
    "closed-implicit",
    "closed-explicit",
];

/// What a cell must show: exit code, outcome (when it succeeds), epoch and
/// state after (None: no row).
type Want = (i32, Option<&'static str>, Option<(i64, &'static str)>);

/// Runs `act` (which returns its exit code and outcome) against each state.
fn check(event: &str, wants: [Want; 5], act: impl Fn(&Env, &str, &str) -> (i32, Option<String>)) {
    for (state, want) in STATES.iter().zip(wants) {
        let env = Env::new();
        let now = reach(&env, state);
        let before = show(&env, now);
        let (code, outcome) = act(&env, now, state);
        assert_eq!(code, want.0, "{event} on {state}: exit code");
        if let Some(o) = want.1 {
            assert_eq!(outcome.as_deref(), Some(o), "{event} on {state}: outcome");
        }
        let after = show(&env, now);
        let got_row = after.as_ref().map(|r| {
            (
                r["activation_epoch"].as_i64().unwrap(),
                r["state"].as_str().unwrap().to_string(),
            )
        });
        let want_row = want.2.map(|(e, s)| (e, s.to_string()));
        assert_eq!(got_row, want_row, "{event} on {state}");
        if want.1.is_none() && before.is_some() && want.0 != 0 {
            assert_eq!(after, before, "{event} on {state} must change nothing");
        }
    }
}

#[test]
fn open_startup_with_the_same_parameters() {
    check(
        "open startup",
        [
            (0, Some("inserted"), Some((1, "live"))),
            (0, Some("heartbeat"), Some((1, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
        ],
        |env, now, state| {
            let (code, v, err) = open(env, now, "startup", "shop");
            assert_eq!(code, 0, "{state}: {err}");
            let want = match state {
                "absent" => "inserted",
                "live" => "heartbeat",
                _ => "reopened",
            };
            assert_eq!(v["outcome"], json!(want), "{state}");
            assert_eq!(
                v["last_seen_at"].as_str().unwrap()[..19],
                now[..19],
                "{state}: the lease moved"
            );
            assert!(v["closed_at"].is_null());
            (code, v["outcome"].as_str().map(String::from))
        },
    );
}

#[test]
fn open_startup_with_other_parameters_is_a_conflict() {
    check(
        "open startup, other project",
        [
            (0, Some("inserted"), Some((1, "live"))),
            (2, None, Some((1, "live"))),
            (2, None, Some((1, "stale"))),
            (2, None, Some((1, "closed-implicit"))),
            (2, None, Some((1, "closed-explicit"))),
        ],
        |env, now, state| {
            let (code, v, err) = open(env, now, "startup", "other");
            if state != "absent" {
                assert!(err.contains("params-conflict"), "{err}");
            }
            (code, v["outcome"].as_str().map(String::from))
        },
    );
}

#[test]
fn open_resume() {
    check(
        "open resume",
        [
            (0, Some("inserted"), Some((1, "live"))),
            (0, Some("resumed"), Some((2, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
            (0, Some("reopened"), Some((2, "live"))),
        ],
        |env, now, state| {
            // A resume never compares parameters.
            let (code, v, err) = open(env, now, "resume", "elsewhere");
            assert_eq!(code, 0, "{state}: {err}");
            let source = if state == "absent" {
                "resume"
            } else {
                "startup"
            };
            assert_eq!(
                v["source"],
                json!(source),
                "the source the row was inserted with"
            );
            (code, v["outcome"].as_str().map(String::from))
        },
    );
}

#[test]
fn heartbeat() {
    check(
        "heartbeat",
        [
            (2, None, None),
            (0, Some("heartbeat"), Some((1, "live"))),
            (0, Some("resurrected"), Some((2, "live"))),
            (0, Some("resurrected"), Some((2, "live"))),
            (0, Some("resurrected"), Some((2, "live"))),
        ],
        |env, now, state| {
            let (code, v, err) = at(
                env,
                now,
                &[
                    &["session", "heartbeat"],
                    &KEY[..],
                    &["--excerpt", "  done; PASSWORD=hunter2  "],
                ]
                .concat(),
            );
            if state == "absent" {
                assert!(err.contains("not found"), "{err}");
            } else {
                // An excerpt loses its secrets before it is kept.
                assert_eq!(
                    v["last_message_excerpt"],
                    json!("done; PASSWORD=[redacted:password:~8]")
                );
            }
            (code, v["outcome"].as_str().map(String::from))
        },
    );
}

#[test]
fn close() {
    check(
        "close",
        [
            (2, None, None),
            (0, Some("closed"), Some((1, "closed-explicit"))),
            // Closing a run already past its lease: closed_at > last_seen + lease.
            (0, Some("closed"), Some((1, "closed-implicit"))),
            (0, Some("already_closed"), Some((1, "closed-implicit"))),
            (0, Some("already_closed"), Some((1, "closed-explicit"))),
        ],
        |env, now, state| {
            let before = show(env, now);
            let (code, v, _) = at(env, now, &[&["session", "close"], &KEY[..]].concat());
            let outcome = v["outcome"].as_str().map(String::from);
            let Some(b) = before else {
                return (code, outcome);
            };
            assert_eq!(
                v["last_seen_at"], b["last_seen_at"],
                "a close never moves last_seen"
            );
            if state.starts_with("closed") {
                assert_eq!(
                    v["closed_at"], b["closed_at"],
                    "the first closed_at is kept"
                );
            }
            (code, outcome)
        },
    );
}

fn remember(env: &Env, now: &str, run: Option<&str>, n: usize) -> (i32, String) {
    let content = format!("written in a run, number {n}");
    let mut args = vec![
        "remember",
        "--kind",
        "note",
        "--topic",
        "t",
        "--content",
        &content,
        "--project",
        "shop",
        "--force",
    ];
    if let Some(r) = run {
        args.extend(["--session-run-id", r]);
    }
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", now)
        .args(&args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_write_naming_its_run() {
    check(
        "write with a run id",
        [
            (2, None, None),
            (0, None, Some((1, "live"))),
            (0, None, Some((2, "live"))),
            (0, None, Some((2, "live"))),
            (0, None, Some((1, "closed-explicit"))),
        ],
        |env, now, state| {
            let run = show(env, now).map(|r| r["run_id"].as_str().unwrap().to_string());
            let id = run
                .clone()
                .unwrap_or_else(|| "019c0000-0000-7000-8000-000000000000".into());
            let (code, err) = remember(env, now, Some(&id), 1);
            if state == "absent" {
                assert!(err.contains("not found: no run"), "{err}");
                assert!(
                    !env.db().exists() || runs_of_events(env).is_empty(),
                    "nothing written"
                );
                return (code, None);
            }
            assert_eq!(code, 0, "{err}");
            let attributed = if state == "closed-explicit" {
                None
            } else {
                run.clone()
            };
            assert_eq!(runs_of_events(env), vec![attributed], "{state}");
            if state != "closed-explicit" {
                assert_eq!(
                    show(env, now).unwrap()["last_seen_at"].as_str().unwrap()[..19],
                    now[..19]
                );
            }
            (code, None)
        },
    );
}

#[test]
fn a_write_without_a_run_id_joins_the_only_live_run() {
    check(
        "write without a run id",
        [
            (0, None, None),
            (0, None, Some((1, "live"))),
            (0, None, Some((1, "stale"))),
            (0, None, Some((1, "closed-implicit"))),
            (0, None, Some((1, "closed-explicit"))),
        ],
        |env, now, state| {
            let run = show(env, now).map(|r| r["run_id"].as_str().unwrap().to_string());
            let (code, err) = remember(env, now, None, 1);
            assert_eq!(code, 0, "{err}");
            let want = if state == "live" { run } else { None };
            assert_eq!(runs_of_events(env), vec![want], "{state}");
            (code, None)
        },
    );
    // Two live runs of the project: nobody is "the only one".
    let env = Env::new();
    open(&env, T0, "startup", "shop");
    at(
        &env,
        T0,
        &[
            "session",
            "open",
            "--agent",
            "codex",
            "--session-id",
            "x",
            "--source",
            "startup",
            "--project",
            "shop",
        ],
    );
    remember(&env, "2026-03-01T01:00:00Z", None, 1);
    // Another project's run does not count.
    let other = Env::new();
    open(&other, T0, "startup", "billing");
    remember(&other, "2026-03-01T01:00:00Z", None, 1);
    assert_eq!(runs_of_events(&env), vec![None]);
    assert_eq!(runs_of_events(&other), vec![None]);
}

#[test]
fn an_attributed_write_re_arms_a_completed_triage() {
    let env = Env::new();
    let (_, v, _) = open(&env, T0, "startup", "shop");
    let run = v["run_id"].as_str().unwrap().to_string();
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute("UPDATE agent_sessions SET triage_status = 'completed'", [])
        .unwrap();
    remember(&env, "2026-03-01T01:00:00Z", Some(&run), 1);
    let r = show(&env, "2026-03-01T01:00:00Z").unwrap();
    assert_eq!(
        (r["triage_status"].clone(), r["needs_look"].clone()),
        (json!("idle"), json!(true))
    );
}

#[test]
fn the_sweep_waits_out_the_grace_and_a_late_sweep_keeps_an_explicit_close() {
    let env = Env::new();
    open(&env, T0, "startup", "shop");
    let sweep = |now: &str| -> Vec<Value> {
        let out = env
            .cmd()
            .env("SESSIONKIT_NOW", now)
            .args(["sweep", "--format", "jsonl"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    assert!(
        sweep("2026-03-02T01:00:00Z").is_empty(),
        "exactly lease + grace: not yet"
    );
    let closed = sweep("2026-03-02T01:00:00.001Z");
    assert_eq!(closed.len(), 1);
    assert_eq!(
        (closed[0]["action"].clone(), closed[0]["to"].clone()),
        (json!("lease"), json!("closed-implicit"))
    );
    assert!(sweep("2026-03-09T00:00:00Z").is_empty(), "idempotent");
    // An explicit close stays explicit however late the sweep runs.
    let env2 = Env::new();
    open(&env2, T0, "startup", "shop");
    at(
        &env2,
        "2026-03-01T05:00:00Z",
        &[&["session", "close"], &KEY[..]].concat(),
    );
    let out = env2
        .cmd()
        .env("SESSIONKIT_NOW", "2026-04-01T00:00:00Z")
        .args(["sweep", "--format", "jsonl"])
        .output()
        .unwrap();
    assert!(out.stdout.is_empty());
    assert_eq!(
        show(&env2, "2026-04-01T00:00:00Z").unwrap()["state"],
        json!("closed-explicit")
    );
    // A heartbeat with an older clock never shortens the lease.
    let env3 = Env::new();
    open(&env3, "2026-03-01T05:00:00Z", "startup", "shop");
    at(
        &env3,
        "2026-03-01T02:00:00Z",
        &[&["session", "heartbeat"], &KEY[..]].concat(),
    );
    assert_eq!(
        show(&env3, T0).unwrap()["last_seen_at"],
        json!("2026-03-01T05:00:00.000Z")
    );
}

#[test]
fn events_are_paged_up_to_the_ceiling() {
    let env = Env::new();
    let (_, v, _) = open(&env, T0, "startup", "shop");
    let run = v["run_id"].as_str().unwrap().to_string();
    remember(&env, T0, Some(&run), 0);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let memory: String = c
        .query_row("SELECT memory_id FROM memories", [], |r| r.get(0))
        .unwrap();
    // 519 more events of the run (direct inserts: the log accepts INSERT only).
    for i in 1..520 {
        c.execute(
            "INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, created_at) VALUES (?1, ?2, 'revise', 'cli', ?3, 0)",
            rusqlite::params![format!("019ca000-0000-7000-8000-{i:012}"), memory, run],
        )
        .unwrap();
    }
    let mut seen: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut args = vec![
            "session".to_string(),
            "events".into(),
            run.clone(),
            "--limit".into(),
            "100".into(),
        ];
        if let Some(c) = &cursor {
            args.extend(["--cursor".into(), c.clone()]);
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, page, err) = at(&env, T0, &a);
        assert_eq!(code, 0, "{err}");
        assert_eq!(page["truncated"], json!(true));
        pages += 1;
        seen.extend(
            page["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["event_id"].as_str().unwrap().to_string()),
        );
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!((pages, seen.len()), (5, 500));
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, seen, "in id order, no repeats");
    // The default page is 50; an unknown run is an error, not an empty page.
    let (_, first, _) = at(&env, T0, &["session", "events", &run]);
    assert_eq!(first["events"].as_array().unwrap().len(), 50);
    let (code, _, err) = at(
        &env,
        T0,
        &["session", "events", "019c0000-0000-7000-8000-00000000beef"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("not found: no run"), "{err}");
    let (code, _, _) = at(&env, T0, &["session", "events", &run, "--limit", "101"]);
    assert_eq!(code, 2);
    // A table lists the page's events (it printed none), and the
    // cursor to the next page is a note on stderr.
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", T0)
        .args(["session", "events", &run, "--limit", "3", "--format", "csv"])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "event_id,memory_id,kind,actor,session_run_id,created_at"
    );
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[1..].iter().all(|l| l.contains(&run)), "{csv}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "more events: sessionkit session events {run} --cursor "
        )),
        "{err}"
    );
}

#[test]
fn concurrent_opens_make_one_row_and_concurrent_writes_all_attach() {
    let env = Env::new();
    open(&env, T0, "startup", "warm");
    for k in 0..4 {
        let sid = format!("race-{k}");
        let kids: Vec<_> = (0..2)
            .map(|_| {
                env.std_cmd()
                    .env("SESSIONKIT_NOW", T0)
                    .args([
                        "session",
                        "open",
                        "--agent",
                        "codex",
                        "--session-id",
                        &sid,
                        "--source",
                        "startup",
                        "--project",
                        "shop",
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for kid in kids {
            let o = kid.wait_with_output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    let n = env.scalar("SELECT COUNT(*) FROM agent_sessions WHERE agent = 'codex'");
    assert_eq!(n, 4);
    // Exactly one live run of project "solo": twenty concurrent writers all attach to it.
    let (_, v, _) = at(
        &env,
        T0,
        &[
            "session",
            "open",
            "--agent",
            "gemini",
            "--session-id",
            "g",
            "--source",
            "startup",
            "--project",
            "solo",
        ],
    );
    let run = v["run_id"].as_str().unwrap().to_string();
    let kids: Vec<_> = (0..20)
        .map(|i| {
            let content = format!("concurrent note {i}");
            env.std_cmd()
                .env("SESSIONKIT_NOW", "2026-03-01T01:00:00Z")
                .args([
                    "remember",
                    "--kind",
                    "note",
                    "--topic",
                    "t",
                    "--content",
                    &content,
                    "--project",
                    "solo",
                    "--force",
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for kid in kids {
        let o = kid.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let runs = runs_of_events(&env);
    assert_eq!(runs.len(), 20);
    assert!(
        runs.iter().all(|r| r.as_deref() == Some(run.as_str())),
        "{runs:?}"
    );
}

#[test]
fn a_briefing_is_stamped_when_an_open_carries_it() {
    let env = Env::new();
    let briefed = r#"[{"id":"m1","topic":"Database","status":"active"}]"#;
    let with = |now: &str, source: &str| {
        at(
            &env,
            now,
            &[
                &["session", "open"],
                &KEY[..],
                &[
                    "--source",
                    source,
                    "--project",
                    "shop",
                    "--briefed",
                    briefed,
                ],
            ]
            .concat(),
        )
    };
    let (_, v, _) = with(T0, "startup");
    assert_eq!(
        v["briefing_delivered_at"],
        json!("2026-03-01T00:00:00.000Z")
    );
    assert_eq!(
        v["briefed_memories"],
        json!([{"id": "m1", "topic": "Database", "status": "active"}])
    );
    // A repeated startup open of a live run is a heartbeat: not restamped; nor is a resume.
    let (_, v, _) = with("2026-03-01T01:00:00Z", "startup");
    assert_eq!(
        (v["outcome"].clone(), v["briefing_delivered_at"].clone()),
        (json!("heartbeat"), json!("2026-03-01T00:00:00.000Z"))
    );
    let (_, v, _) = with("2026-03-01T02:00:00Z", "resume");
    assert_eq!(
        (v["outcome"].clone(), v["briefing_delivered_at"].clone()),
        (json!("resumed"), json!("2026-03-01T00:00:00.000Z"))
    );
    // A reopen carrying a briefing restamps it; one without leaves it as it was.
    at(
        &env,
        "2026-03-01T03:00:00Z",
        &[&["session", "close"], &KEY[..]].concat(),
    );
    let (_, v, _) = with("2026-03-01T04:00:00Z", "startup");
    assert_eq!(
        (v["outcome"].clone(), v["briefing_delivered_at"].clone()),
        (json!("reopened"), json!("2026-03-01T04:00:00.000Z"))
    );
    at(
        &env,
        "2026-03-01T05:00:00Z",
        &[&["session", "close"], &KEY[..]].concat(),
    );
    let (_, v, _) = open(&env, "2026-03-01T06:00:00Z", "startup", "shop");
    assert_eq!(
        (v["outcome"].clone(), v["briefing_delivered_at"].clone()),
        (json!("reopened"), json!("2026-03-01T04:00:00.000Z"))
    );
    // Bad input changes nothing.
    let before = env.dump();
    for (args, msg) in [
        (
            vec!["--source", "compact"],
            "--source must be startup or resume",
        ),
        (
            vec!["--source", "startup", "--briefed", "[1]"],
            "each entry needs \"id\"",
        ),
        (
            vec!["--source", "startup", "--selector", "nope"],
            "--selector is not JSON",
        ),
    ] {
        let (code, _, err) = at(
            &env,
            "2026-03-01T07:00:00Z",
            &[&["session", "open"], &KEY[..], &args[..]].concat(),
        );
        assert_eq!(code, 2);
        assert!(err.contains(msg), "{err}");
    }
    let (code, _, err) = at(
        &env,
        T0,
        &[
            "session",
            "open",
            "--agent",
            "Bad Name",
            "--session-id",
            "x",
            "--source",
            "startup",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("is not a harness name"), "{err}");
    assert_eq!(env.dump(), before);
}

/// A run id as a table shows it (its shortest unique prefix) pastes back
/// into every command that takes a run id; a prefix two runs share is an
/// error naming both; the client's name is shown whole, never cut.
#[test]
fn run_ids_shown_in_tables_paste_back() {
    let env = Env::new();
    let (code, first, err) = open(&env, T0, "startup", "p");
    assert_eq!(code, 0, "{err}");
    let (code, second, err) = at(
        &env,
        T0,
        &[
            "session",
            "open",
            "--agent",
            "codex",
            "--session-id",
            "s-2",
            "--source",
            "startup",
            "--project",
            "p",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let list = |columns: &str| -> String {
        let out = env
            .cmd()
            .env("SESSIONKIT_NOW", T0)
            .env("COLUMNS", columns)
            .env("NO_COLOR", "1")
            .args(["session", "list", "--format", "table"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let table = list("120");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    let mut agents: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    agents.sort_unstable();
    assert_eq!(agents, ["claude-code", "codex"], "{table}");
    // At 80 columns, colour off, it still fits and keeps the names whole.
    let narrow = list("80");
    assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
    assert!(narrow.contains(" claude-code "), "{narrow}");
    for row in &rows {
        let shown = row[0];
        let full = [&first, &second]
            .iter()
            .map(|r| r["run_id"].as_str().unwrap())
            .find(|id| id.starts_with(shown))
            .unwrap();
        assert!(shown.len() < full.len(), "{table}");
        let (code, v, err) = at(&env, T0, &["session", "show", shown]);
        assert_eq!((code, v["run_id"].as_str()), (0, Some(full)), "{err}");
        let (code, v, err) = at(&env, T0, &["session", "events", shown]);
        assert_eq!((code, v["run_id"].as_str()), (0, Some(full)), "{err}");
    }
    // A memory written with the shown prefix records the whole run id.
    let shown = rows.iter().find(|r| r[1] == "codex").unwrap()[0];
    let (code, _, err) = at(
        &env,
        T0,
        &[
            "remember",
            "--kind",
            "decision",
            "--project",
            "p",
            "--topic",
            "t",
            "--content",
            "c",
            "--session-run-id",
            shown,
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        runs_of_events(&env).last().unwrap().as_deref(),
        second["run_id"].as_str()
    );
    // Both runs were opened in one millisecond's id space: their first
    // eight characters are shared.
    let (code, _, err) = at(&env, T0, &["session", "show", &shown[..8]]);
    assert_eq!(code, 2);
    assert!(err.contains("matches 2 runs"), "{err}");
}

//! `hook event`: storing, deduplicating, redacting, refusing bad input, and
//! many processes at once.

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{C, Env};

/// Runs `hook event` with `stdin` at instant `now`; returns (code, stdout, stderr).
pub fn hook(env: &Env, now: &str, stdin: &[u8], args: &[&str]) -> (i32, String, String) {
    hook_with(env.std_cmd(), now, stdin, args)
}

/// `hook` with a command the caller prepared (extra environment).
pub fn hook_with(
    mut c: std::process::Command,
    now: &str,
    stdin: &[u8],
    args: &[&str],
) -> (i32, String, String) {
    c.env("SESSIONKIT_NOW", now)
        .args(["hook", "event"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `hook event` and insists on the hook contract: exit 0, no stdout, no stderr.
pub fn hook_ok(env: &Env, now: &str, payload: &Value, args: &[&str]) {
    let (code, out, err) = hook(env, now, payload.to_string().as_bytes(), args);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{payload}");
}

/// A stored event: (harness, event, session_id, agent_id, payload).
pub type Stored = (String, String, Option<String>, Option<String>, String);

/// Stored events, oldest first.
pub fn events(env: &Env) -> Vec<Stored> {
    if !env.db().exists() {
        return Vec::new();
    }
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut stmt = c
        .prepare("SELECT harness, event, session_id, agent_id, payload FROM events_raw ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

const T0: &str = "2026-03-01T10:00:00.000Z";

fn stop(session: &str) -> Value {
    json!({"session_id": session, "hook_event_name": "Stop", "transcript_path": "/p/x.jsonl",
           "cwd": "/w", "stop_hook_active": false, "last_assistant_message": "done"})
}

#[test]
fn a_delivery_id_stores_a_delivery_once() {
    let env = Env::new();
    let p = stop("s1");
    hook_ok(&env, T0, &p, &["--delivery-id", "d-1"]);
    hook_ok(&env, "2026-03-01T11:00:00Z", &p, &["--delivery-id", "d-1"]);
    assert_eq!(events(&env).len(), 1);
    hook_ok(&env, T0, &p, &["--delivery-id", "d-2"]);
    assert_eq!(events(&env).len(), 2);
    // The environment variable is the same id.
    let (code, _, _) = {
        let mut c = env.cmd();
        c.env("SESSIONKIT_NOW", T0)
            .env("SESSIONKIT_DELIVERY_ID", "d-2")
            .args(["hook", "event"])
            .write_stdin(p.to_string());
        let o = c.output().unwrap();
        (o.status.code().unwrap(), o.stdout, o.stderr)
    };
    assert_eq!(code, 0);
    assert_eq!(events(&env).len(), 2);
}

#[test]
fn an_identical_payload_within_five_seconds_is_one_delivery() {
    let env = Env::new();
    let p = stop("s1");
    hook_ok(&env, "2026-03-01T10:00:00.000Z", &p, &[]);
    hook_ok(&env, "2026-03-01T10:00:04.999Z", &p, &[]);
    assert_eq!(events(&env).len(), 1, "within 5 s: a duplicate delivery");
    hook_ok(&env, "2026-03-01T10:00:05.000Z", &p, &[]);
    assert_eq!(events(&env).len(), 2, "5 s later: a new turn");
    // Another event or another session is never a duplicate.
    hook_ok(&env, "2026-03-01T10:00:05.001Z", &stop("s2"), &[]);
    let mut sub = p.clone();
    sub["hook_event_name"] = json!("UserPromptSubmit");
    hook_ok(&env, "2026-03-01T10:00:05.001Z", &sub, &[]);
    assert_eq!(events(&env).len(), 4);
    // Key order and whitespace do not make a payload different.
    let reordered = br#"{ "last_assistant_message":"done","stop_hook_active":false,"cwd":"/w",
        "transcript_path":"/p/x.jsonl","hook_event_name":"Stop","session_id":"s1" }"#;
    let (code, out, err) = hook(&env, "2026-03-01T10:00:06Z", reordered, &[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(events(&env).len(), 4);
}

/// A duplicate is one client delivering twice: two registrations of the
/// same hook fire in one client process (through its shell or not) and
/// store one event; two client processes sending byte-identical payloads
/// within the window (a session resumed twice, two `codex exec resume`
/// runs) are two events.
#[test]
fn an_identical_payload_from_two_clients_is_two_deliveries() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        crate::support::skip("no /proc: a hook's client is unknown here");
        return;
    }
    if std::process::Command::new("python3")
        .arg("-V")
        .output()
        .is_err()
    {
        crate::support::skip("python3 is not available to play a second client");
        return;
    }
    let env = Env::new();
    let resume = json!({"session_id": "s1", "hook_event_name": "SessionStart", "source": "resume",
                        "cwd": "/w", "transcript_path": "/p/x.jsonl"});
    // Same client (this test process), once directly and once through its
    // shell, as a client runs a registration: one event.
    hook_ok(&env, T0, &resume, &[]);
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg("\"$0\" \"$@\"; s=$?; exit $s")
        .arg(env!("CARGO_BIN_EXE_sessionkit"))
        .env("SESSIONKIT_DB", env.db());
    let (code, out, err) = hook_with(
        sh,
        "2026-03-01T10:00:01Z",
        resume.to_string().as_bytes(),
        &[],
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(events(&env).len(), 1, "one client: a duplicate");
    // Two other clients (each its own process, which runs the hook and
    // waits for it): two more events, however close in time.
    for at in ["2026-03-01T10:00:02Z", "2026-03-01T10:00:02.5Z"] {
        let mut c = std::process::Command::new("python3");
        c.args([
            "-c",
            "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)",
        ])
        .arg(env!("CARGO_BIN_EXE_sessionkit"))
        .env("SESSIONKIT_DB", env.db());
        let (code, out, err) = hook_with(c, at, resume.to_string().as_bytes(), &[]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    }
    let stored = events(&env);
    assert_eq!(stored.len(), 3, "two more clients: two more events");
    assert!(stored.iter().all(|e| e.1 == "SessionStart"));
}

#[test]
fn secrets_are_redacted_before_storing_and_token_counts_survive() {
    let env = Env::new();
    let p = json!({
        "session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "curl -H 'Authorization: Bearer abcdef123456' https://x", "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghij", "API_KEY": "k"}},
        "tool_response": {"stdout": "key=sk-ant-api03-secretsecret aws AKIAIOSFODNN7EXAMPLE jwt eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl slack xoxb-1234-abcdefgh"},
        "password": 1234, "cookie": ["a", "b"], "client_secret": {"nested": "x"},
        "usage": {"input_tokens": 5, "output_tokens": 6, "cache_creation": {"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 8}, "total_tokens": 26},
        "token_count": 3, "max_tokens": 4096
    });
    hook_ok(&env, T0, &p, &[]);
    let stored: Value = serde_json::from_str(&events(&env)[0].4).unwrap();
    let want = json!({
        "session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "curl -H 'Authorization: Bearer [redacted:bearer:~16]' https://x", "env": {"GITHUB_TOKEN": "[redacted:by-key:~32]", "API_KEY": "[redacted:by-key:~1]"}},
        "tool_response": {"stdout": "key=[redacted:api-key:~32] aws [redacted:aws-access-key:~32] jwt [redacted:jwt:~32] slack [redacted:slack:~32]"},
        "password": "[redacted:by-key:~4]", "cookie": "[redacted:by-key:~16]", "client_secret": "[redacted:by-key:~16]",
        "usage": {"input_tokens": 5, "output_tokens": 6, "cache_creation": {"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 8}, "total_tokens": 26},
        "token_count": 3, "max_tokens": 4096
    });
    assert_eq!(stored, want);
    // Nothing secret reached the file at all (the WAL included).
    drop(stored);
    let mut bytes = std::fs::read(env.db()).unwrap();
    if let Ok(wal) = std::fs::read(env.path("sk.db-wal")) {
        bytes.extend(wal);
    }
    for secret in [
        "abcdef123456",
        "ghp_0123456789",
        "sk-ant-api03",
        "AKIAIOSFODNN7",
        "eyJhbGciOi",
        "xoxb-1234",
    ] {
        assert!(
            memchr::memmem::find(&bytes, secret.as_bytes()).is_none(),
            "{secret} stored"
        );
    }
}

#[test]
fn the_payload_is_normalized_for_every_harness() {
    let env = Env::new();
    let cases = [
        (
            json!({"session_id": "c1", "hook_event_name": "SubagentStop", "agent_id": "a9", "agent_type": "Explore", "agent_transcript_path": "/p/c1/subagents/agent-a9.jsonl"}),
            vec![],
            "claude-code",
            "SubagentStop",
            Some("c1"),
            Some("a9"),
        ),
        (
            json!({"session_id": "c2", "hook_event_name": "SubagentStop", "agent_transcript_path": "/p/c2/subagents/agent-b7.jsonl"}),
            vec![],
            "claude-code",
            "SubagentStop",
            Some("c2"),
            Some("b7"),
        ),
        (
            json!({"session_id": "x1", "turn_id": "t", "hook_event_name": "Stop", "model": "gpt-5.2-codex"}),
            vec![],
            "codex",
            "Stop",
            Some("x1"),
            None,
        ),
        (
            json!({"conversation_id": "u1", "generation_id": "g", "hook_event_name": "stop", "workspace_roots": ["/r"]}),
            vec![],
            "cursor",
            "stop",
            Some("u1"),
            None,
        ),
        (
            json!({"sessionId": "p1", "hookEventName": "agentStop", "timestamp": 1}),
            vec![],
            "copilot",
            "agentStop",
            Some("p1"),
            None,
        ),
        (
            json!({"session_id": "g1", "hook_event_name": "AfterAgent", "timestamp": "2026-01-01T00:00:00Z", "prompt_response": "ok"}),
            vec![],
            "gemini",
            "AfterAgent",
            Some("g1"),
            None,
        ),
        (
            json!({"session_id": "f1", "hook_event_name": "Stop"}),
            vec!["--harness", "claude"],
            "claude-code",
            "Stop",
            Some("f1"),
            None,
        ),
        (
            json!({"session_id": "f2", "hook_event_name": "Stop"}),
            vec!["--harness", "codex"],
            "codex",
            "Stop",
            Some("f2"),
            None,
        ),
        (
            json!({"session_id": "n1", "hook_event_name": "SomethingNew", "x": [1]}),
            vec![],
            "claude-code",
            "SomethingNew",
            Some("n1"),
            None,
        ),
    ];
    for (p, args, ..) in &cases {
        hook_ok(&env, T0, p, args);
    }
    let got: Vec<(String, String, Option<String>, Option<String>)> = events(&env)
        .into_iter()
        .map(|(h, e, s, a, _)| (h, e, s, a))
        .collect();
    let want: Vec<(String, String, Option<String>, Option<String>)> = cases
        .iter()
        .map(|(_, _, h, e, s, a)| {
            (
                h.to_string(),
                e.to_string(),
                s.map(String::from),
                a.map(String::from),
            )
        })
        .collect();
    assert_eq!(got, want);
    // A UTF-8 BOM and surrounding whitespace are tolerated.
    let (code, out, err) = hook(
        &env,
        T0,
        b"\xEF\xBB\xBF\n {\"session_id\":\"bom\",\"hook_event_name\":\"Stop\"} \n",
        &[],
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(events(&env).last().unwrap().2.as_deref(), Some("bom"));
}

#[test]
fn bad_input_stores_nothing_and_says_one_line() {
    let env = Env::new();
    let garbage: Vec<u8> = (0..10 << 20).map(|i| b"x{[\"\\\x00\xff"[i % 7]).collect();
    let huge_object = format!(
        "{{\"session_id\":\"s\",\"pad\":\"{}\"}}",
        "a".repeat(5 << 20)
    );
    let cases: [(&[u8], &str); 5] = [
        (b"not json at all", "hook input is not JSON"),
        (
            b"[{\"session_id\":\"s\"}]",
            "hook input is a JSON array, not an object",
        ),
        (
            b"\"a string\"",
            "hook input is a JSON string, not an object",
        ),
        (&garbage, "hook input is over 4194304 bytes"),
        (huge_object.as_bytes(), "hook input is over 4194304 bytes"),
    ];
    for (input, want) in cases {
        let (code, out, err) = hook(&env, T0, input, &[]);
        assert_eq!(code, 0);
        assert_eq!(out, "");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("sessionkit hook: {want}")),
            "{err}"
        );
    }
    assert!(events(&env).is_empty());
    assert!(
        !env.db().exists(),
        "bad input does not even create the database"
    );
    // Empty input is a no-op: silent.
    for empty in [&b""[..], b"  \n", b"\xEF\xBB\xBF"] {
        assert_eq!(
            hook(&env, T0, empty, &[]),
            (0, String::new(), String::new())
        );
    }
    assert!(!env.db().exists());
}

#[test]
fn a_failure_never_breaks_the_agent() {
    let env = Env::new();
    let p = stop("s1").to_string();
    // A database that cannot be opened, a bad clock, a bad flag, an unknown harness.
    std::fs::create_dir_all(env.path("dir.db")).unwrap();
    std::fs::write(env.path("plain"), "").unwrap();
    let under_a_file = env.path("plain/x.db");
    let a_dir = env.path("dir.db");
    type Run<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>);
    let runs: Vec<Run> = vec![
        (
            vec!["--db", a_dir.to_str().unwrap(), "hook", "event"],
            vec![],
        ),
        (vec!["hook", "event"], vec![("SESSIONKIT_NOW", "yesterday")]),
        (vec!["hook", "event", "--no-such-flag"], vec![]),
        (vec!["hook"], vec![]),
        (vec!["--db", "x.db", "hook", "evnt"], vec![]),
        (
            vec!["--db", under_a_file.to_str().unwrap(), "hook", "event"],
            vec![],
        ),
    ];
    for (args, vars) in runs {
        let mut c = env.cmd();
        c.args(&args).write_stdin(p.clone());
        for (k, v) in vars {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("sessionkit hook: "), "{err}");
        let dir = env.dir.path().to_str().unwrap();
        assert!(!err.contains(dir), "absolute paths stay out of logs: {err}");
    }
    let (code, out, err) = hook(&env, T0, p.as_bytes(), &["--harness", "vim"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(
        err,
        "sessionkit hook: unknown harness \"vim\": detecting it from the payload\n"
    );
    assert_eq!(events(&env).len(), 1, "still recorded");
}

#[test]
fn events_raw_is_append_only() {
    let env = Env::new();
    hook_ok(&env, T0, &stop("s1"), &[]);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    for sql in [
        "UPDATE events_raw SET event = 'x'",
        "DELETE FROM events_raw",
    ] {
        let e = c.execute(sql, []).unwrap_err();
        assert!(e.to_string().contains("events_raw is append-only"), "{e}");
    }
    assert_eq!(events(&env).len(), 1);
}

#[test]
fn thirty_two_processes_at_once_lose_nothing() {
    let env = Env::new();
    // The database exists before the storm, as it does for a registered hook.
    hook_ok(&env, T0, &stop("warm-up"), &[]);
    let procs = 32;
    let calls = 50;
    let threads: Vec<_> = (0..procs)
        .map(|p| {
            let mut base = env.std_cmd();
            base.env("SESSIONKIT_NOW", T0);
            let program = base.get_program().to_owned();
            let envs: Vec<(std::ffi::OsString, Option<std::ffi::OsString>)> = base
                .get_envs()
                .map(|(k, v)| (k.to_owned(), v.map(std::borrow::ToOwned::to_owned)))
                .collect();
            let dir = env.dir.path().to_owned();
            std::thread::spawn(move || {
                let mut failures = Vec::new();
                for i in 0..calls {
                    let mut c = std::process::Command::new(&program);
                    c.env_clear().current_dir(&dir);
                    for (k, v) in &envs {
                        if let Some(v) = v {
                            c.env(k, v);
                        }
                    }
                    // Identical payloads: only the delivery id tells them apart.
                    let payload =
                        format!("{{\"session_id\":\"{C}\",\"hook_event_name\":\"Stop\"}}");
                    let mut child = c
                        .args(["hook", "event", "--delivery-id", &format!("{p}-{i}")])
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .spawn()
                        .unwrap();
                    child
                        .stdin
                        .take()
                        .unwrap()
                        .write_all(payload.as_bytes())
                        .unwrap();
                    let o = child.wait_with_output().unwrap();
                    if o.status.code() != Some(0) || !o.stdout.is_empty() || !o.stderr.is_empty() {
                        failures.push(String::from_utf8_lossy(&o.stderr).into_owned());
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    let stored = events(&env);
    assert_eq!(stored.len(), 1 + procs * calls);
    assert_eq!(
        stored.iter().filter(|e| e.2.as_deref() == Some(C)).count(),
        1_600
    );
}

#[test]
fn the_first_calls_may_race_to_create_the_database() {
    // Switching a new file to WAL takes its lock without waiting,
    // so 1 or 2 of 40 such races lost an event ("database is locked").
    for round in 0..10 {
        let env = Env::new();
        let children: Vec<_> = (0..16)
            .map(|i| {
                let mut c = env.std_cmd();
                c.env("SESSIONKIT_NOW", T0)
                    .args(["hook", "event"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                let mut child = c.spawn().unwrap();
                let payload = stop(&format!("s{i}")).to_string();
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(payload.as_bytes())
                    .unwrap();
                child
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert_eq!(o.status.code(), Some(0));
            assert!(
                o.stdout.is_empty() && o.stderr.is_empty(),
                "round {round}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        assert_eq!(events(&env).len(), 16, "round {round}");
    }
}

/// While a reader holds a transaction, a bulk ingest ends without
/// waiting for it (its last checkpoint was a TRUNCATE, which holds the write
/// lock until every reader is done: hooks waited their whole busy timeout
/// and failed). Hooks fired all through the ingest are all stored.
#[test]
fn a_reader_holding_a_transaction_does_not_make_hooks_fail_at_the_end_of_an_ingest() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let reader = rusqlite::Connection::open(env.db()).unwrap();
    reader
        .execute_batch("BEGIN; SELECT COUNT(*) FROM sessions;")
        .unwrap();
    let root = env.path("projects");
    crate::common::copy_tree(&crate::common::fixtures(), &root);
    let mut ingest = env
        .std_cmd()
        .env("SESSIONKIT_BULK_BYTES", "1")
        .args(["ingest", "--root", root.to_str().unwrap(), "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sent = 0;
    loop {
        let done = ingest.try_wait().unwrap().is_some();
        let (code, out, err) = hook(
            &env,
            T0,
            stop(&format!("r{sent}")).to_string().as_bytes(),
            &[],
        );
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, "", ""),
            "hook {sent}"
        );
        sent += 1;
        if done {
            break;
        }
    }
    assert_eq!(ingest.wait().unwrap().code(), Some(0));
    reader.execute_batch("COMMIT").unwrap();
    assert_eq!(events(&env).len(), sent);
}

/// Every captured payload of the real clients (../shared/corpus/captured),
/// sent without `--harness`, is stored under its own client: Claude Code by
/// the CLAUDECODE=1 it sets for hooks, Gemini by its GEMINI_* variables,
/// Codex by its payloads alone (its SessionStart's permission mode, its
/// rollout path) — so one Codex session is never split across two names
///.
#[test]
fn each_real_clients_payloads_are_stored_under_its_name() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/hook-payloads");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return crate::common::skip(&format!("no captured payloads at {}", dir.display()));
    };
    let mut files: Vec<std::path::PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    let env = Env::new();
    let mut checked = 0;
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x == "json"))
    {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let (harness, var) = match name.split('-').next().unwrap() {
            "cc" | "cc2_332" => ("claude-code", Some(("CLAUDECODE", "1"))),
            "gm" => ("gemini", Some(("GEMINI_SESSION_ID", "g"))),
            "cx" => ("codex", None),
            _ => continue,
        };
        let payload = std::fs::read(f).unwrap();
        let mut cmd = env.cmd();
        cmd.args(["hook", "event"]).write_stdin(payload);
        if let Some((k, v)) = var {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let stored: String = rusqlite::Connection::open(env.db())
            .unwrap()
            .query_row(
                "SELECT harness FROM events_raw ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, harness, "{name}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} payloads");
}

/// A client shutting down signals its hooks (Claude Code 2.1.332 sends its
/// StopFailure hook one about 10 ms after starting it): the hook stores
/// the event it was handed anyway, and exits 0.
#[test]
fn a_hook_signalled_mid_delivery_still_stores_its_event() {
    let env = Env::new();
    for (i, signal) in ["TERM", "INT", "HUP"].into_iter().enumerate() {
        let mut child = env
            .std_cmd()
            .env("SESSIONKIT_NOW", T0)
            .args(["hook", "stop", "--harness", "claude-code"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Started and waiting for its payload when the signal comes.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let killed = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let failure = json!({"session_id": format!("f{i}"), "hook_event_name": "StopFailure",
                             "cwd": "/w", "error": "unknown", "last_assistant_message": "API Error: 400"});
        let mut input = child.stdin.take().unwrap();
        // A hook killed by the signal has closed its end: the write fails.
        let _ = input.write_all(failure.to_string().as_bytes());
        drop(input);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "SIG{signal}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "SIG{signal}");
    }
    let stored = events(&env);
    let got: Vec<(&str, Option<&str>)> = stored
        .iter()
        .map(|e| (e.1.as_str(), e.2.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("StopFailure", Some("f0")),
            ("StopFailure", Some("f1")),
            ("StopFailure", Some("f2"))
        ]
    );
}

//! `sessionkit push` into a real PostgreSQL server the test starts on a
//! loopback port (skipped, with the reason, where the server's programs are
//! not installed): exactly once from two machines, again, and after a push
//! that died before marking what it sent; dry runs; wrong passwords and
//! unreachable servers.

use std::path::Path;

use crate::common::*;
use crate::postgres_server::Postgres;

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// The team database's totals: messages and each bucket, summed.
fn remote_totals(pg: &Postgres) -> [i64; 7] {
    let row = pg
        .client()
        .query_one(
            "SELECT count(*), sum(input_tokens)::bigint, sum(output_tokens)::bigint,
                    sum(cache_write_5m_tokens)::bigint, sum(cache_write_1h_tokens)::bigint,
                    sum(cache_read_tokens)::bigint, sum(reasoning_tokens)::bigint
             FROM sessionkit_messages",
            &[],
        )
        .unwrap();
    [0, 1, 2, 3, 4, 5, 6].map(|i| row.get::<_, Option<i64>>(i).unwrap_or(0))
}

/// The local store's totals in the same order.
fn local_totals(env: &Env) -> [i64; 7] {
    let doc = env.json(&["cost", "--by", "harness"]);
    let t = &doc["totals"];
    [
        "messages",
        "input_tokens",
        "output_tokens",
        "cache_write_5m_tokens",
        "cache_write_1h_tokens",
        "cache_read_tokens",
        "reasoning_tokens",
    ]
    .map(|k| t[k].as_i64().unwrap())
}

/// Drops the local marks of what was pushed (as a push that died before
/// writing them leaves it).
fn forget_pushes(env: &Env) {
    rusqlite::Connection::open(env.db())
        .unwrap()
        .execute("DELETE FROM push_marks", [])
        .unwrap();
}

fn push(env: &Env, args: &[&str]) -> (i32, serde_json::Value, String) {
    let (code, out, err) = env.run_with_env(
        &[&["push"][..], args, &["--format", "json"]].concat(),
        &[("PGPASSWORD", Postgres::PASSWORD)],
    );
    let v = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (code, v, err)
}

#[test]
fn two_machines_push_the_union_exactly_once() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let url = pg.url();
    // Machine a: Claude Code and Codex sessions; machine b: the same Codex
    // sessions (a resumed session read on both) and Gemini CLI's.
    let a = Env::new();
    a.ingest(&fixture("claude/projects"));
    a.ingest(&fixture("codex-0.171/sessions"));
    let b = Env::new();
    b.ingest(&fixture("codex-0.171/sessions"));
    b.ingest(&fixture("gemini-0.61/tmp"));
    let union = Env::new();
    for r in ["claude/projects", "codex-0.171/sessions", "gemini-0.61/tmp"] {
        union.ingest(&fixture(r));
    }

    // Machine a's messages carry a person's label.
    let (code, _, err) = a.run(&["config", "set", "push.user", "ana"]);
    assert_eq!(code, 0, "{err}");
    // A dry run reaches nothing and says what it would send.
    let (code, v, err) = push(&a, &[&url, "--machine", "a", "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        (v["sessions"].as_u64(), v["dry_run"].as_bool()),
        (Some(5), Some(true)),
        "{v}"
    );

    let dry = v.clone();
    let (code, v, err) = push(&a, &[&url, "--machine", "a"]);
    assert_eq!(code, 0, "{err}");
    crate::schema::holds_contract(
        &a,
        "push",
        "PushRecord",
        "sessionkit.push/1",
        &[dry, v.clone()],
    );
    assert_eq!(
        (
            v["sessions"].as_u64(),
            v["messages"].as_u64(),
            v["schema_version"].as_i64()
        ),
        (Some(5), Some(local_totals(&a)[0] as u64), Some(5)),
        "{v}"
    );
    assert_eq!(v["target"], url, "no password in the URL, none printed");
    assert_eq!(remote_totals(&pg), local_totals(&a));
    let (code, _, err) = push(&b, &[&url, "--machine", "b"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        remote_totals(&pg),
        local_totals(&union),
        "the union, counted once"
    );

    // Again: nothing changed, nothing sent, the same totals.
    let (code, v, _) = push(&a, &[&url, "--machine", "a"]);
    assert_eq!(code, 0);
    assert_eq!(
        (v["sessions"].as_u64(), v["unchanged"].as_u64()),
        (Some(0), Some(5)),
        "{v}"
    );
    // A push that died after the team database committed and before the
    // marks were written: everything is sent again, and nothing changes.
    forget_pushes(&a);
    let (code, v, _) = push(&a, &[&url, "--machine", "a"]);
    assert_eq!((code, v["sessions"].as_u64()), (0, Some(5)));
    assert_eq!(remote_totals(&pg), local_totals(&union));

    // The same reports from the team database: the union's totals, and
    // each machine's share.
    let (code, out, err) = union.run_with_env(
        &[
            "cost", "--from", &url, "--by", "harness", "--format", "json",
        ],
        &[("PGPASSWORD", Postgres::PASSWORD)],
    );
    assert_eq!(code, 0, "{err}");
    let team: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        team["totals"],
        union.json(&["cost", "--by", "harness"])["totals"]
    );
    let (code, out, err) = union.run_with_env(
        &[
            "cost",
            "--from",
            &url,
            "--by",
            "machine,harness",
            "--format",
            "json",
        ],
        &[("PGPASSWORD", Postgres::PASSWORD)],
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<(String, String, u64)> = serde_json::from_str::<serde_json::Value>(&out).unwrap()
        ["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["machine"].as_str().unwrap().to_string(),
                r["harness"].as_str().unwrap().to_string(),
                r["messages"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("a".to_string(), "claude-code".to_string(), 12),
            ("a".to_string(), "codex".to_string(), 4),
            ("b".to_string(), "gemini".to_string(), 3),
        ]
    );

    let (code, out, err) = union.run_with_env(
        &["cost", "--from", &url, "--by", "user", "--format", "json"],
        &[("PGPASSWORD", Postgres::PASSWORD)],
    );
    assert_eq!(code, 0, "{err}");
    let users: Vec<(String, u64)> =
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["user"].as_str().unwrap().to_string(),
                    r["messages"].as_u64().unwrap(),
                )
            })
            .collect();
    assert_eq!(users, [("-".to_string(), 3), ("ana".to_string(), 16)]);

    // The tree keeps its edges; the machines are named.
    let c = &mut pg.client();
    let parent: Option<String> = c
        .query_one(
            "SELECT parent_agent_id FROM sessionkit_agents WHERE agent_id = $1",
            &[&"01a23d7f-18e2-7242-b120-ff42ee4c16ee"],
        )
        .unwrap()
        .get(0);
    assert_eq!(
        parent.as_deref(),
        Some("01a23d7f-1853-7c10-87f6-12c6d9670f77")
    );
    let machines: Vec<String> = c
        .query("SELECT machine FROM sessionkit_machines ORDER BY 1", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(machines, ["a", "b"]);
    // The projects, and the prices the costs were computed with.
    let projects: Vec<String> = c
        .query("SELECT project FROM sessionkit_projects ORDER BY 1", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(projects, ["alpha", "beta", "cxproj", "gmproj"]);
    let gpt: (i64, i64, i64) = c
        .query_one(
            "SELECT input_per_mtok, output_per_mtok, cache_read_per_mtok FROM sessionkit_prices
             WHERE model = 'gpt-4.1'",
            &[],
        )
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .unwrap();
    assert_eq!(
        gpt,
        (2_000_000, 8_000_000, 500_000),
        "gpt-4.1: $2 / $8 / $0.50 a million"
    );
    // A message both pushed is one row, kept under the smaller machine label.
    let shared: Vec<String> = c
        .query(
            "SELECT DISTINCT machine FROM sessionkit_messages WHERE harness = 'codex'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(shared, ["a"]);
}

#[test]
fn a_refused_or_unreachable_database_changes_nothing() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let env = Env::new();
    env.ingest(&fixture("codex-0.171/sessions"));
    let marks = || -> i64 {
        rusqlite::Connection::open(env.db())
            .unwrap()
            .query_row("SELECT count(*) FROM push_marks", [], |r| r.get(0))
            .unwrap()
    };
    // A wrong password, given in the URL: named without it.
    let wrong = format!("postgres://sk:not-it@127.0.0.1:{}/postgres", pg.port);
    let (code, out, err) = env.run(&["push", &wrong]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("cannot reach postgres://sk:***@127.0.0.1"),
        "{err}"
    );
    assert!(!err.contains("not-it"), "{err}");
    assert_eq!(marks(), 0);
    // Nothing listening.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (code, _, err) = env.run(&["push", &format!("postgres://sk@127.0.0.1:{port}/postgres")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    assert_eq!(marks(), 0);
    // No target at all, and a setting that would store a password.
    let (code, _, err) = env.run(&["push"]);
    assert_eq!(code, 2);
    assert!(err.contains("no team database"), "{err}");
    let (code, _, err) = env.run(&["config", "set", "push.url", &wrong]);
    assert_eq!(code, 2);
    assert!(err.contains("carries a password"), "{err}");
    assert!(!err.contains("not-it"), "{err}");
    // The setting without one, the password from PGPASSWORD.
    let (code, _, err) = env.run(&["config", "set", "push.url", &pg.url()]);
    assert_eq!(code, 0, "{err}");
    let (code, v, err) = push(&env, &["--machine", "m"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["sessions"].as_u64(), Some(1), "{v}");
    assert_eq!(marks(), 1);
    // `sweep` pushes what changed when push.url is set: here, nothing.
    let (code, _, err) = env.run_with_env(&["sweep"], &[("PGPASSWORD", Postgres::PASSWORD)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("push (push.url) failed"), "{err}");
    // A session gone from the database since: sweep sends it again.
    pg.client()
        .execute("DELETE FROM sessionkit_messages", &[])
        .unwrap();
    forget_pushes(&env);
    let (code, _, err) = env.run_with_env(&["sweep"], &[("PGPASSWORD", Postgres::PASSWORD)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pushed 1 session(s), 4 message(s)"), "{err}");
    assert_eq!(remote_totals(&pg), local_totals(&env));
    // Without the password, sweep says why and pushes nothing.
    forget_pushes(&env);
    let (code, _, err) = env.run(&["sweep"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("push (push.url) failed, the next sweep tries again"),
        "{err}"
    );
    assert_eq!(marks(), 0);
}

/// A push killed at any moment (here: SIGKILL a little after it starts, on
/// a store of many sessions) and run again leaves the team database exact:
/// the sessions it committed are there once, the rest are sent by the rerun.
#[test]
fn a_push_killed_midway_and_run_again_is_exact() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let env = Env::new();
    let out = env.path("gen");
    let status = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench/agentgen.py"))
        .args([
            "pi",
            out.to_str().unwrap(),
            "--sessions",
            "60",
            "--responses",
            "200",
        ])
        .stdout(std::process::Stdio::null())
        .status();
    if !status.is_ok_and(|s| s.success()) {
        crate::support::skip("python3 could not generate the sessions to push");
        return;
    }
    env.ingest(&out.join("sessions"));
    let url = pg.url();
    for delay_ms in [30u64, 120] {
        let mut child = env
            .std_cmd()
            .env("PGPASSWORD", Postgres::PASSWORD)
            .args(["push", &url, "--machine", "k"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let (code, _, err) = push(&env, &[&url, "--machine", "k"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            remote_totals(&pg),
            local_totals(&env),
            "killed after {delay_ms} ms"
        );
        forget_pushes(&env);
    }
}

/// Memories stay home unless asked for; `--with-memory` sends them (as
/// stored: redacted) and their commitments, and then only what changed.
/// A team database at the first version of sessionkit's tables is brought
/// up to the current one with every row kept.
#[test]
fn memories_only_when_asked_and_an_older_schema_keeps_its_rows() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let env = Env::new();
    env.ingest(&fixture("codex-0.171/sessions"));
    let memories = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/memories.jsonl");
    let (code, _, err) = env.run(&["import", memories.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = env.run(&[
        "session",
        "open",
        "--agent",
        "claude-code",
        "--session-id",
        "s-1",
        "--source",
        "startup",
        "--project",
        "shop",
    ]);
    assert_eq!(code, 0, "{err}");
    let url = pg.url();
    let (code, v, err) = push(&env, &[&url, "--machine", "m"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["memories"], serde_json::Value::Null, "{v}");
    assert_eq!(v["runs"], serde_json::Value::Null, "{v}");
    let count = |table: &str| -> i64 {
        pg.client()
            .query_one(&format!("SELECT count(*) FROM {table}"), &[])
            .unwrap()
            .get(0)
    };
    assert_eq!(count("sessionkit_memories"), 0);
    let (code, v, err) = push(&env, &[&url, "--machine", "m", "--with-memory"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (v["memories"].as_u64(), v["sessions"].as_u64()),
        (Some(2), Some(0)),
        "{v}"
    );
    assert_eq!(v["runs"].as_u64(), Some(1), "{v}");
    assert_eq!(count("sessionkit_runs"), 1);
    assert_eq!(count("sessionkit_memories"), 2);
    assert_eq!(count("sessionkit_commitments"), 1);
    let (_, v, _) = push(&env, &[&url, "--machine", "m", "--with-memory"]);
    assert_eq!(
        (v["memories"].as_u64(), v["runs"].as_u64()),
        (Some(0), Some(0)),
        "nothing changed: {v}"
    );

    // Back to the first version (as a database an older sessionkit made):
    // the next push brings it up, keeping every message.
    let before = count("sessionkit_messages");
    pg.client()
        .batch_execute(
            "DROP TABLE sessionkit_commitments; DROP TABLE sessionkit_memories;
             ALTER TABLE sessionkit_messages DROP COLUMN user_label;
             DROP TABLE sessionkit_prices; DROP TABLE sessionkit_projects;
             DROP TABLE sessionkit_runs;
             UPDATE sessionkit_meta SET value = '1' WHERE key = 'schema_version';",
        )
        .unwrap();
    rusqlite::Connection::open(env.db())
        .unwrap()
        .execute(
            "DELETE FROM push_marks WHERE session_id IN ('#memories', '#runs')",
            [],
        )
        .unwrap();
    let (code, v, err) = push(&env, &[&url, "--machine", "m", "--with-memory"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["schema_version"].as_i64(), Some(5), "{v}");
    assert_eq!(count("sessionkit_messages"), before);
    assert_eq!(count("sessionkit_memories"), 2);
    // A database newer than this sessionkit is refused, untouched.
    pg.client()
        .execute(
            "UPDATE sessionkit_meta SET value = '99' WHERE key = 'schema_version'",
            &[],
        )
        .unwrap();
    let (code, _, err) = push(&env, &[&url, "--machine", "m"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("newer than this sessionkit knows"), "{err}");
}

/// A server that demands TLS (`sslmode=require`): reached with its CA's
/// certificate in PGSSLROOTCERT; refused, exit 2 and nothing marked, when
/// the certificate cannot be verified.
#[test]
fn tls_verifies_the_server() {
    let Some(pg) = Postgres::start_tls() else {
        return;
    };
    let env = Env::new();
    env.ingest(&fixture("codex-0.171/sessions"));
    let url = format!("{}?sslmode=require", pg.url());
    let (code, _, err) = env.run_with_env(&["push", &url], &[("PGPASSWORD", Postgres::PASSWORD)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    let ca = pg.ca();
    let (code, out, err) = env.run_with_env(
        &["push", &url, "--format", "json"],
        &[
            ("PGPASSWORD", Postgres::PASSWORD),
            ("PGSSLROOTCERT", ca.to_str().unwrap()),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sessions"].as_u64(), Some(1), "{v}");
}

/// A server that takes connections and answers nothing (stopped with
/// SIGSTOP) fails a push within `push.wait_seconds` and a sweep within
/// `sweep.push_seconds`, with nothing marked sent; another sweep meanwhile
/// still does its work; once the server answers again, a push sends
/// everything exactly once.
#[test]
fn a_stalled_server_never_holds_a_push_or_a_sweep() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let env = Env::new();
    env.ingest(&fixture("claude/projects"));
    let url = pg.url();
    let (code, _, err) = env.run(&["config", "set", "push.url", &url]);
    assert_eq!(code, 0, "{err}");
    let marks = || env.scalar("SELECT COUNT(*) FROM push_marks");
    /// Lets the server go on however the test ends.
    struct Resume<'a>(&'a Postgres);
    impl Drop for Resume<'_> {
        fn drop(&mut self) {
            self.0.signal("CONT");
        }
    }
    pg.signal("STOP");
    let resume = Resume(&pg);
    let started = std::time::Instant::now();
    let (code, _, err) = env.run_with_env(
        &["push", "--machine", "m"],
        &[
            ("PGPASSWORD", Postgres::PASSWORD),
            ("SESSIONKIT_PUSH_WAIT_SECONDS", "2"),
        ],
    );
    let took = started.elapsed();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did not answer for 2 s"), "{err}");
    assert!(took < std::time::Duration::from_secs(15), "{took:?}");
    assert_eq!(marks(), 0);
    // A sweep gives up its push at sweep.push_seconds (the step's wait
    // is longer), and the next sweep is not kept waiting.
    for _ in 0..2 {
        let started = std::time::Instant::now();
        let (code, _, err) = env.run_with_env(
            &["sweep"],
            &[
                ("PGPASSWORD", Postgres::PASSWORD),
                ("SESSIONKIT_SWEEP_PUSH_SECONDS", "2"),
            ],
        );
        let took = started.elapsed();
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("push (push.url) failed, the next sweep tries again"),
            "{err}"
        );
        assert!(
            err.contains("still busy when the push's time ran out"),
            "{err}"
        );
        assert!(took < std::time::Duration::from_secs(15), "{took:?}");
    }
    assert_eq!(marks(), 0);
    drop(resume);
    let (code, _, err) = push(&env, &["--machine", "m"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(remote_totals(&pg), local_totals(&env));
}

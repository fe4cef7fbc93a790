//! Curated memory: the commitment table, revise chains, duplicate
//! rules, limits, search, redaction, demand, export/import and bad input.

use serde_json::{Value, json};

use crate::common::Env;

/// Runs with the clock at `now`; returns (code, stdout, stderr).
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

fn ok(env: &Env, args: &[&str]) -> String {
    let (code, out, err) = env.run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn remember(env: &Env, kind: &str, topic: &str, content: &str) -> String {
    ok(
        env,
        &[
            "remember",
            "--kind",
            kind,
            "--topic",
            topic,
            "--content",
            content,
            "--project",
            "shop",
        ],
    )
    .trim()
    .to_string()
}

fn show(env: &Env, id: &str) -> Value {
    env.json(&["memory", "show", id])
}

fn events(env: &Env, id: &str) -> Vec<String> {
    show(env, id)["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

/// The rows of `memories` as (kind, state, topic).
fn listed(env: &Env, args: &[&str]) -> Vec<(String, String, String)> {
    env.json(&[&["memories"], args].concat())
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap().to_string(),
                m["state"].as_str().unwrap().to_string(),
                m["topic"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn fails(env: &Env, args: &[&str], message: &str) {
    let before = env.db().exists().then(|| env.dump());
    let (code, out, err) = env.run(args);
    assert_eq!(code, 2, "{args:?} should fail: {out}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert_eq!(
        env.db().exists().then(|| env.dump()),
        before,
        "{args:?} changed the database"
    );
}

/// A resulting commitment status and the event written; None: illegal.
type Cell<'a> = Option<(&'a str, Option<&'a str>)>;

#[test]
fn every_cell_of_the_commitment_table() {
    // Each cell: (from, verb, resulting status, event written).
    let env = Env::new();
    let reach: [(&str, &[&[&str]]); 4] = [
        ("open", &[]),
        ("waiting", &[&["revise", "ID", "--status", "waiting"]]),
        ("resolved", &[&["resolve", "ID"]]),
        ("expired", &[&["archive", "ID"]]),
    ];
    let verbs: [&[&str]; 5] = [
        &["resolve", "ID"],
        &["unresolve", "ID"],
        &["archive", "ID"],
        &["revise", "ID", "--status", "waiting"],
        &["revise", "ID", "--status", "open"],
    ];
    // Expected per from-state, per verb: Some((status, event)) or None (illegal).
    let table: [[Cell; 5]; 4] = [
        [
            Some(("resolved", Some("resolve"))),
            Some(("open", None)),
            Some(("expired", Some("archive"))),
            Some(("waiting", Some("revise"))),
            Some(("open", None)),
        ],
        [
            Some(("resolved", Some("resolve"))),
            Some(("open", Some("unresolve"))),
            Some(("expired", Some("archive"))),
            Some(("waiting", None)),
            Some(("open", Some("unresolve"))),
        ],
        [
            Some(("resolved", None)),
            Some(("open", Some("unresolve"))),
            None,
            None,
            Some(("open", Some("unresolve"))),
        ],
        [
            None,
            Some(("open", Some("unresolve"))),
            Some(("expired", None)),
            None,
            Some(("open", Some("unresolve"))),
        ],
    ];
    for (i, (from, steps)) in reach.iter().enumerate() {
        for (j, verb) in verbs.iter().enumerate() {
            let id = remember(
                &env,
                "commitment",
                &format!("c{i}{j}"),
                &format!("promise number {i} {j}"),
            );
            for step in *steps {
                let args: Vec<&str> = step
                    .iter()
                    .map(|a| if *a == "ID" { id.as_str() } else { a })
                    .collect();
                ok(&env, &args);
            }
            assert_eq!(show(&env, &id)["commitment"]["status"], json!(from));
            let before = events(&env, &id);
            let args: Vec<&str> = verb
                .iter()
                .map(|a| if *a == "ID" { id.as_str() } else { a })
                .collect();
            let (code, _, err) = env.run(&args);
            match table[i][j] {
                None => {
                    assert_eq!(code, 2, "{from} {verb:?}");
                    assert!(
                        err.contains(&format!("a commitment cannot go from {from}")),
                        "{err}"
                    );
                    assert_eq!(show(&env, &id)["commitment"]["status"], json!(from));
                    assert_eq!(events(&env, &id), before);
                }
                Some((status, event)) => {
                    assert_eq!(code, 0, "{from} {verb:?}: {err}");
                    let after = show(&env, &id);
                    assert_eq!(
                        after["commitment"]["status"],
                        json!(status),
                        "{from} {verb:?}"
                    );
                    let mut want = before.clone();
                    want.extend(event.map(String::from));
                    assert_eq!(
                        events(&env, &id),
                        want,
                        "{from} {verb:?}: a no-op writes nothing"
                    );
                    assert_eq!(
                        after["commitment"]["resolved_at"].is_null(),
                        status != "resolved"
                    );
                }
            }
        }
    }
}

#[test]
fn resolve_and_archive_on_other_kinds() {
    let env = Env::new();
    let blocker = remember(&env, "blocker", "CI red", "the CI is red on main");
    ok(&env, &["resolve", &blocker]);
    assert_eq!(show(&env, &blocker)["status"], json!("archived"));
    assert_eq!(events(&env, &blocker), ["create", "archive"]);
    let note = remember(&env, "note", "n", "a plain note");
    fails(
        &env,
        &["resolve", &note],
        "resolve applies to commitments and blockers, not a note",
    );
    fails(
        &env,
        &["unresolve", &note],
        "unresolve applies to commitments, not a note",
    );
    ok(&env, &["archive", &note]);
    ok(&env, &["archive", &note]);
    assert_eq!(events(&env, &note), ["create", "archive"]);
    assert_eq!(listed(&env, &[]), vec![]);
    assert_eq!(listed(&env, &["--status", "archived"]).len(), 2);
}

#[test]
fn a_revise_chain_of_three_keeps_its_history() {
    let env = Env::new();
    let a = remember(&env, "decision", "Database", "Use PostgreSQL 15");
    let b = ok(&env, &["revise", &a, "--content", "Use PostgreSQL 16"])
        .trim()
        .to_string();
    let c = ok(
        &env,
        &[
            "revise",
            &b,
            "--content",
            "Use PostgreSQL 17",
            "--tag",
            "db",
        ],
    )
    .trim()
    .to_string();
    for id in [&a, &b, &c] {
        assert_eq!(show(&env, id)["chain"], json!([a, b, c]));
    }
    assert_eq!(events(&env, &a), ["create", "supersede"]);
    assert_eq!(events(&env, &b), ["create", "supersede"]);
    assert_eq!(events(&env, &c), ["create"]);
    let sc = show(&env, &c);
    assert_eq!(
        (
            sc["supersedes"].clone(),
            sc["tags"].clone(),
            sc["valid_to"].clone()
        ),
        (json!(b), json!(["db"]), Value::Null)
    );
    assert!(!show(&env, &a)["valid_to"].is_null());
    assert_eq!(
        listed(&env, &[]),
        vec![("decision".into(), "active".into(), "Database".into())]
    );
    assert_eq!(listed(&env, &["--all"]).len(), 3);
    fails(
        &env,
        &["revise", &a, "--content", "Use PostgreSQL 18"],
        &format!("was superseded by {b}"),
    );
    fails(&env, &["revise", &c], "nothing to revise");
    // A commitment carries its state to its successor.
    let p = remember(&env, "commitment", "Ship", "Ship v2 by Friday");
    ok(&env, &["revise", &p, "--status", "waiting"]);
    let q = ok(
        &env,
        &["revise", &p, "--topic", "Ship v2", "--due", "2026-02-06"],
    )
    .trim()
    .to_string();
    let sq = show(&env, &q);
    assert_eq!(sq["commitment"]["status"], json!("waiting"));
    assert_eq!(
        sq["commitment"]["due_at"],
        json!("2026-02-06T00:00:00.000Z")
    );
    assert_eq!(events(&env, &q), ["create"]);
    assert_eq!(events(&env, &p), ["create", "revise", "supersede"]);
}

#[test]
fn duplicate_rules() {
    let env = Env::new();
    let a = remember(
        &env,
        "decision",
        "Database",
        "Use PostgreSQL 16 for the orders service database",
    );
    // Exact: the same id, nothing written.
    let before = env.dump();
    let (code, out, err) = env.run(&[
        "remember",
        "--kind",
        "decision",
        "--topic",
        "Other words",
        "--content",
        "  Use PostgreSQL 16 for the orders service database ",
        "--project",
        "shop",
    ]);
    assert_eq!((code, out.trim()), (0, a.as_str()));
    assert_eq!(
        err,
        format!("sessionkit: an identical memory is live: {a} (nothing written)\n")
    );
    assert_eq!(env.dump(), before);
    // Likely: the same topic, or at least 80% of the same words (Jaccard).
    let hint = format!("supersede it with `sessionkit revise {a}`, or pass --force");
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "database",
            "--content",
            "Something else",
            "--project",
            "shop",
        ],
        &hint,
    );
    // The same topic (case aside): refused.
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "Database",
            "--content",
            "Use PostgreSQL 16 for the orders service database now",
            "--project",
            "shop",
            "--tag",
            "x",
        ],
        "likely a duplicate",
    );
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "DB engine",
            "--content",
            "use postgresql 16 for the orders service database",
            "--project",
            "shop",
        ],
        "(80% of the same words)",
    );
    // 6 of 11 words (55%): a different memory.
    let b = remember(
        &env,
        "decision",
        "DB engine",
        "use postgresql 16 for the billing service",
    );
    assert_ne!(a, b);
    // Another kind or project is never a duplicate; --force writes anyway.
    remember(
        &env,
        "fact",
        "Database",
        "Use PostgreSQL 16 for the orders service database",
    );
    ok(
        &env,
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "Database",
            "--content",
            "Use PostgreSQL 16 for the orders service database",
            "--project",
            "billing",
        ],
    );
    ok(
        &env,
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "database",
            "--content",
            "Something else",
            "--project",
            "shop",
            "--force",
        ],
    );
    assert_eq!(
        listed(&env, &["--project", "shop", "--kind", "decision"]).len(),
        3
    );
}

#[test]
fn every_limit_at_the_boundary_and_one_past() {
    let env = Env::new();
    let mut n = 0;
    let mut try_one = |field: &str, value: String, extra: &[&str]| -> (i32, String) {
        n += 1;
        let topic = format!("topic {n}");
        let content = format!("content number {n}");
        let mut args: Vec<String> = vec![
            "remember".into(),
            "--kind".into(),
            "note".into(),
            "--project".into(),
            "p".into(),
        ];
        if field != "--topic" {
            args.extend(["--topic".into(), topic]);
        }
        if field != "--content" {
            args.extend(["--content".into(), content]);
        }
        args.extend([field.to_string(), value]);
        args.extend(extra.iter().map(std::string::ToString::to_string));
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = env.run(&a);
        (code, err)
    };
    for (field, max, what) in [
        ("--topic", 256, "the topic"),
        ("--description", 160, "the description"),
        ("--content", 2000, "the content"),
        ("--tag", 64, "a tag"),
    ] {
        let (code, err) = try_one(field, "é".repeat(max), &[]);
        assert_eq!(code, 0, "{field} at {max}: {err}");
        let (code, err) = try_one(field, "é".repeat(max + 1), &[]);
        assert_eq!(code, 2, "{field} past {max}");
        assert!(
            err.contains(&format!(
                "{what} is {} characters; the limit is {max}",
                max + 1
            )),
            "{err}"
        );
    }
    let tags = |k: usize| -> Vec<String> {
        (0..k)
            .flat_map(|i| ["--tag".to_string(), format!("t{i}")])
            .collect()
    };
    let t32 = tags(32);
    let (code, err) = try_one(
        "--tag",
        "t0".into(),
        &t32.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    let t33 = tags(33);
    let (code, err) = try_one(
        "--tag",
        "t0".into(),
        &t33.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("33 tags; the limit is 32"), "{err}");
    // Through stdin too, and never split or truncated.
    let long = "x".repeat(2001);
    let before = env.dump();
    let out = env
        .cmd()
        .args([
            "remember",
            "--kind",
            "note",
            "--topic",
            "long",
            "--content",
            "-",
            "--project",
            "p",
        ])
        .write_stdin(long)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the content is 2001 characters; the limit is 2000")
    );
    assert_eq!(env.dump(), before);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let env = Env::new();
    let id = remember(&env, "commitment", "c", "a promise");
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "wish",
            "--topic",
            "t",
            "--content",
            "c",
            "--project",
            "p",
        ],
        "unknown kind \"wish\"; kinds: constraint, convention, decision, commitment",
    );
    // Without --project too: the directory's project is not even looked up.
    let long_topic = "t".repeat(257);
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "note",
            "--topic",
            &long_topic,
            "--content",
            "c",
        ],
        "the topic is 257 characters",
    );
    fails(
        &env,
        &["resolve", "ffffffff-0000"],
        "no memory matches \"ffffffff-0000\"",
    );
    fails(
        &env,
        &["memory", "show", "abc"],
        "give at least 4 characters of a memory id",
    );
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "t",
            "--content",
            "c2",
            "--project",
            "p",
            "--due",
            "next tuesday",
        ],
        "\"next tuesday\" is not a due date",
    );
    fails(
        &env,
        &["revise", &id, "--due", "2026-13-45"],
        "is not a due date",
    );
    // A multi-byte last character panicked (exit 101).
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "t",
            "--content",
            "c3",
            "--project",
            "p",
            "--due",
            "3é",
        ],
        "\"3é\" is not a due date",
    );
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "note",
            "--topic",
            "t",
            "--content",
            "c3",
            "--project",
            "p",
            "--due",
            "3d",
        ],
        "--due and --owner apply to commitments only",
    );
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "note",
            "--topic",
            "t",
            "--content",
            "c4",
            "--project",
            "unknown",
        ],
        "\"unknown\" is not a project name",
    );
    fails(
        &env,
        &[
            "remember",
            "--kind",
            "note",
            "--topic",
            "t",
            "--content",
            "c5",
            "--project",
            "p",
            "--scope",
            "My Scope",
        ],
        "is not kebab-case",
    );
    fails(
        &env,
        &["memories", "--status", "done"],
        "unknown status \"done\"",
    );
    fails(&env, &["recall", "!!!"], "has no words to search for");
    for args in [
        vec![
            "remember",
            "--kind",
            "note",
            "--topic",
            "t",
            "--content",
            "-",
            "--project",
            "p",
        ],
        vec!["import", "-"],
    ] {
        let before = env.dump();
        let out = env
            .cmd()
            .args(&args)
            .write_stdin(b"ok \xff\xfe bad".to_vec())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is not UTF-8 (invalid byte at offset 3)"),
            "{err}"
        );
        assert_eq!(env.dump(), before);
    }
}

#[test]
fn memory_events_are_append_only() {
    let env = Env::new();
    remember(&env, "note", "n", "a note");
    let c = rusqlite::Connection::open(env.db()).unwrap();
    for sql in [
        "UPDATE memory_events SET actor = 'hook'",
        "DELETE FROM memory_events",
    ] {
        let e = c.execute(sql, []).unwrap_err();
        assert!(
            e.to_string().contains("memory_events is append-only"),
            "{e}"
        );
    }
}

#[test]
fn recall_ranks_by_bm25_then_recency_and_follows_every_change() {
    let env = Env::new();
    let days = [
        "2026-01-01T00:00:00Z",
        "2026-01-02T00:00:00Z",
        "2026-01-03T00:00:00Z",
        "2026-01-04T00:00:00Z",
    ];
    let mk = |now: &str, kind: &str, topic: &str, content: &str| -> String {
        let (code, out, err) = at(
            &env,
            now,
            &[
                "remember",
                "--kind",
                kind,
                "--topic",
                topic,
                "--content",
                content,
                "--project",
                "shop",
            ],
        );
        assert_eq!(code, 0, "{err}");
        out.trim().to_string()
    };
    let content_hit = mk(
        days[0],
        "note",
        "Deploys",
        "We deploy the cache layer on Fridays",
    );
    let topic_hit = mk(
        days[1],
        "decision",
        "Cache layer",
        "Redis, because it is already in production",
    );
    let twin_old = mk(days[2], "fact", "Queue", "the cache warms at nine");
    let twin_new = mk(days[3], "finding", "Queue", "the cache warms at nine");
    let none = mk(days[3], "note", "Lunch", "tacos on Tuesday");
    let ids = |q: &str, extra: &[&str]| -> Vec<String> {
        env.json(&[&["recall", q], extra].concat())
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["memory_id"].as_str().unwrap().to_string())
            .collect()
    };
    // A topic match weighs four times a content match; equal scores: newest first.
    assert_eq!(
        ids("cache", &[]),
        [
            topic_hit.clone(),
            twin_new.clone(),
            twin_old.clone(),
            content_hit.clone()
        ]
    );
    assert!(!ids("cache", &[]).contains(&none));
    assert_eq!(
        ids("cache", &["--kind", "fact"]),
        std::slice::from_ref(&twin_old)
    );
    assert_eq!(
        ids("cache", &["--limit", "2"]),
        [topic_hit.clone(), twin_new.clone()]
    );
    // Any of the words: each memory holding one is a hit (a small store keeps every word).
    let mut any = ids("redis nine", &[]);
    any.sort();
    let mut want = vec![topic_hit.clone(), twin_old.clone(), twin_new.clone()];
    want.sort();
    assert_eq!(any, want);
    let hit = &env.json(&["recall", "redis"])[0];
    assert_eq!(
        hit["snippet"],
        json!("**Redis**, because it is already in production")
    );
    // A revision is found by its new words; the old version only with --all.
    let rev = ok(
        &env,
        &[
            "revise",
            &topic_hit,
            "--content",
            "Valkey, since the Redis licence changed",
        ],
    )
    .trim()
    .to_string();
    assert_eq!(ids("valkey", &[]), std::slice::from_ref(&rev));
    assert_eq!(ids("production", &[]), Vec::<String>::new());
    assert_eq!(
        ids("production", &["--all"]),
        std::slice::from_ref(&topic_hit)
    );
    // An archived memory leaves live search.
    ok(&env, &["archive", &twin_old]);
    assert_eq!(ids("nine", &[]), std::slice::from_ref(&twin_new));
    // A redacted one is not found by what it said, even with --all.
    ok(
        &env,
        &["memory", "redact", &twin_new, "--reason", "pasted a token"],
    );
    assert_eq!(ids("nine", &["--all"]), std::slice::from_ref(&twin_old));
    let s = show(&env, &twin_new);
    assert_eq!(
        (s["content"].clone(), s["redacted"].clone()),
        (json!("[redacted]"), json!(true))
    );
    let redact = &s["events"].as_array().unwrap()[1];
    assert_eq!(
        (redact["kind"].clone(), redact["reason"].clone()),
        (json!("redact"), json!("pasted a token"))
    );
}

#[test]
fn redaction_leaves_no_trace_in_the_file() {
    let env = Env::new();
    for i in 0..30 {
        remember(
            &env,
            "note",
            &format!("note {i}"),
            &format!("ordinary text {i}"),
        );
    }
    let secret = "sk-live-QWERTYUIOPASDFGHJKL0987";
    let id = remember(
        &env,
        "note",
        "oops",
        &format!("the deploy key is {secret}, keep it safe"),
    );
    ok(&env, &["memory", "redact", &id]);
    let mut bytes = std::fs::read(env.db()).unwrap();
    for ext in ["-wal", "-shm"] {
        if let Ok(b) = std::fs::read(format!("{}{ext}", env.db().display())) {
            bytes.extend(b);
        }
    }
    assert!(memchr::memmem::find(&bytes, secret.as_bytes()).is_none());
    assert!(memchr::memmem::find(&bytes, b"QWERTYUIOPASDFGHJKL0987").is_none());
}

#[test]
fn demand_is_counted_once_per_day_and_decays() {
    let env = Env::new();
    let id = remember(&env, "decision", "Cache", "Use Redis for the cache");
    let utility = |now: &str, args: &[&str]| -> (f64, f64) {
        let (code, out, err) = at(&env, now, &[args, &["--format", "json"]].concat());
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let v = if v.is_array() { v[0].clone() } else { v };
        (
            v["demand"].as_f64().unwrap_or(-1.0),
            v["utility"].as_f64().unwrap_or(-1.0),
        )
    };
    let d1 = "2026-03-01T10:00:00Z";
    // An explicit read weighs 3 (utility 3 / 7); the same read again that day adds nothing.
    assert_eq!(utility(d1, &["memory", "show", &id]), (3.0, 0.429));
    assert_eq!(utility(d1, &["memory", "show", &id]), (3.0, 0.429));
    // A recall hit adds 1.5 (4.5 / 8.5).
    at(&env, d1, &["recall", "redis"]);
    assert_eq!(utility(d1, &["memory", "show", &id]), (4.5, 0.529));
    // Fourteen days later half is left, and a new day's read adds 3 (5.25 / 9.25).
    assert_eq!(
        utility("2026-03-15T10:00:00Z", &["memory", "show", &id]),
        (5.25, 0.568)
    );
}

#[test]
fn export_import_export_is_byte_identical_and_import_is_idempotent() {
    let env = Env::new();
    let a = remember(&env, "decision", "Database", "Use PostgreSQL 16");
    ok(
        &env,
        &[
            "revise",
            &a,
            "--content",
            "Use PostgreSQL 17",
            "--description",
            "the orders database",
            "--tag",
            "db",
            "--tag",
            "infra",
        ],
    );
    let c = ok(
        &env,
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "Ship",
            "--content",
            "Ship v2",
            "--project",
            "shop",
            "--due",
            "2026-02-06",
            "--owner",
            "alice",
            "--pin",
        ],
    )
    .trim()
    .to_string();
    ok(&env, &["resolve", &c]);
    let b = remember(&env, "blocker", "CI", "CI is red");
    ok(&env, &["resolve", &b]);
    let s = remember(&env, "note", "secret", "token ghp_abcdefghijklmnop1234");
    ok(&env, &["memory", "redact", &s]);
    remember(
        &env,
        "constraint",
        "Üñïçødé \"quotes\"",
        "line one\nline two\ttab",
    );
    let first = ok(&env, &["export"]);
    assert_eq!(
        first.lines().count(),
        6 + 1 + 10,
        "memories, the commitment, every event"
    );
    assert!(!first.contains("ghp_abcdefghijklmnop1234"));
    let file = env.path("memories.jsonl");
    std::fs::write(&file, &first).unwrap();
    let fresh = Env::new();
    let report = fresh.json(&["import", file.to_str().unwrap()]);
    let results: Vec<&str> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap())
        .collect();
    // Every line is reported, the commitment's too (with its memory's fate).
    assert_eq!(results, vec!["created"; 17]);
    let reported: Vec<u64> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(reported, (1..=17).collect::<Vec<u64>>());
    assert_eq!(
        report
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["type"] == "commitment")
            .count(),
        1
    );
    let second = {
        let (code, out, err) = fresh.run(&["export"]);
        assert_eq!(code, 0, "{err}");
        out
    };
    assert_eq!(second, first);
    // Again: everything is already present, nothing changes.
    let before = fresh.dump();
    let again = fresh.json(&["import", file.to_str().unwrap()]);
    assert!(
        again
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["result"] == json!("present"))
    );
    assert_eq!(fresh.dump(), before);
    // By project.
    let only = ok(&env, &["export", "--project", "nope"]);
    assert_eq!(only, "");
}

#[test]
fn import_rejects_what_it_cannot_take_and_says_why() {
    let env = Env::new();
    let id = "01a00000-0000-7000-8000-000000000001";
    let m = json!({"type": "memory", "memory_id": id, "kind": "note", "topic": "t", "description": null, "content": "c",
        "project": "p", "scope": "project", "tags": [], "status": "active", "pinned": false, "redacted": false,
        "supersedes": null, "valid_from": "2026-01-01T00:00:00.000Z", "valid_to": null,
        "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"});
    let mut bad_kind = m.clone();
    bad_kind["memory_id"] = json!("01a00000-0000-7000-8000-000000000002");
    bad_kind["kind"] = json!("wish");
    let ev = |eid: &str, run: Value, mem: &str| json!({"type": "event", "event_id": eid, "memory_id": mem, "kind": "create", "actor": "cli", "session_run_id": run, "reason": null, "created_at": "2026-01-01T00:00:00.000Z"});
    let lines = [
        m.to_string(),
        bad_kind.to_string(),
        "{not json".to_string(),
        ev("01a00000-0000-7000-8000-0000000000e1", Value::Null, id).to_string(),
        ev(
            "01a00000-0000-7000-8000-0000000000e2",
            json!("01a00000-run"),
            id,
        )
        .to_string(),
        ev(
            "01a00000-0000-7000-8000-0000000000e3",
            Value::Null,
            "01a00000-0000-7000-8000-00000000dead",
        )
        .to_string(),
        json!({"type": "gadget"}).to_string(),
    ];
    let out = env
        .cmd()
        .args(["import", "-", "--format", "jsonl"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "some records were rejected");
    // All or nothing: the good records are not written either.
    let rows: Vec<(u64, String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["line"].as_u64().unwrap(),
                v["result"].as_str().unwrap().to_string(),
                v["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let summary: Vec<(u64, &str)> = rows.iter().map(|(l, r, _)| (*l, r.as_str())).collect();
    assert_eq!(
        summary,
        vec![
            (1, "not-imported"),
            (2, "rejected"),
            (3, "rejected"),
            (4, "not-imported"),
            (5, "rejected"),
            (6, "rejected"),
            (7, "rejected")
        ]
    );
    assert!(rows[1].2.contains("unknown kind \"wish\""));
    assert!(rows[2].2.starts_with("not JSON"));
    assert_eq!(
        rows[4].2,
        "session_run_id \"01a00000-run\" is not an id (a lowercase hyphenated UUID)"
    );
    assert!(rows[5].2.contains("neither stored nor imported"));
    assert_eq!(rows[6].2, "unknown record type \"gadget\"");
    assert_eq!(
        rows[0].2,
        "another record of the file was rejected: nothing was written"
    );
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memories"), 0);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memory_events"), 0);
    // Without the bad lines, the same file imports.
    let good = [lines[0].clone(), lines[3].clone()].join("\n");
    let out = env
        .cmd()
        .args(["import", "-", "--format", "jsonl"])
        .write_stdin(good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(events(&env, id), ["create"]);
}

#[test]
fn remember_prints_the_bare_id_or_the_record() {
    let env = Env::new();
    let id = remember(&env, "note", "n", "a note");
    assert_eq!(id.len(), 36);
    assert!(uuid_v7(&id));
    let rec = env.json(&[
        "remember",
        "--kind",
        "note",
        "--topic",
        "m",
        "--content",
        "another note",
        "--project",
        "shop",
        "--tag",
        "b",
        "--tag",
        "a",
    ]);
    assert_eq!(
        (
            rec["kind"].clone(),
            rec["tags"].clone(),
            rec["scope"].clone(),
            rec["project"].clone()
        ),
        (
            json!("note"),
            json!(["a", "b"]),
            json!("project"),
            json!("shop")
        )
    );
    // The project comes from the directory when not given.
    let dir = env.path("work/my-repo");
    std::fs::create_dir_all(&dir).unwrap();
    let out = env
        .cmd()
        .current_dir(&dir)
        .args([
            "remember",
            "--kind",
            "note",
            "--topic",
            "here",
            "--content",
            "from the directory",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["project"], json!("my-repo"));
}

fn uuid_v7(id: &str) -> bool {
    id.as_bytes()[14] == b'7' && matches!(id.as_bytes()[19], b'8' | b'9' | b'a' | b'b')
}

/// `memories --kind K` (the listing index's case): live memories of that kind
/// only, newest first, `--since` cutting by creation; `--all` adds the
/// superseded and archived ones; a project filter gives the same rows.
#[test]
fn a_kind_listing_is_live_newest_first_and_since_cuts_it() {
    let env = Env::new();
    let ok_at = |now: &str, args: &[&str]| -> String {
        let (code, out, err) = at(&env, now, args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out.trim().to_string()
    };
    let note = |now: &str, topic: &str| {
        ok_at(
            now,
            &[
                "remember",
                "--kind",
                "note",
                "--topic",
                topic,
                "--content",
                topic,
                "--project",
                "shop",
            ],
        )
    };
    note("2026-01-01T00:00:00Z", "oldest words");
    let archived = note("2026-01-02T00:00:00Z", "archived words");
    let revised = note("2026-01-03T00:00:00Z", "revised words");
    note("2026-01-04T00:00:00Z", "newest words");
    ok_at(
        "2026-01-05T00:00:00Z",
        &[
            "remember",
            "--kind",
            "decision",
            "--topic",
            "a decision",
            "--content",
            "x",
            "--project",
            "shop",
        ],
    );
    ok_at("2026-01-06T00:00:00Z", &["archive", &archived]);
    ok_at(
        "2026-01-07T00:00:00Z",
        &["revise", &revised, "--content", "revised words, again"],
    );
    let topics = |args: &[&str]| -> Vec<String> {
        listed(&env, args).into_iter().map(|(_, _, t)| t).collect()
    };
    assert_eq!(
        topics(&["--kind", "note"]),
        ["revised words", "newest words", "oldest words"]
    );
    assert_eq!(
        topics(&["--kind", "note", "--since", "2026-01-03"]),
        ["revised words", "newest words"]
    );
    assert_eq!(
        topics(&["--kind", "note", "--project", "shop"]),
        topics(&["--kind", "note"])
    );
    let all = listed(&env, &["--kind", "note", "--all"]);
    assert_eq!(
        all.iter()
            .map(|(_, s, t)| (s.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
        [
            ("active", "revised words"),
            ("active", "newest words"),
            ("superseded", "revised words"),
            ("archived", "archived words"),
            ("active", "oldest words"),
        ]
    );
}

/// JSON Lines rows are written without serde (`Listed::write_json`); each is
/// byte for byte the compact form of the same row in `--format json`, for
/// text that needs every kind of escape.
#[test]
fn json_lines_rows_are_the_json_rows_byte_for_byte() {
    let env = Env::new();
    let texts = [
        "plain words",
        "a \"quoted\" back\\slash",
        "tab\there, bell\u{7}, nul-free \u{1f}",
        "line one\nline two\r\n",
        "accents é ü, a wide 😀 and U+2028 \u{2028}",
    ];
    for (i, t) in texts.iter().enumerate() {
        let mut args = vec![
            "remember",
            "--kind",
            if i % 2 == 0 { "commitment" } else { "note" },
            "--topic",
            t,
            "--description",
            texts[(i + 1) % texts.len()],
            "--content",
            texts[(i + 2) % texts.len()],
            "--project",
            "shop",
            "--tag",
            t,
            "--tag",
            "x,y \"z\"",
        ];
        if i % 2 == 0 {
            args.extend([
                "--due",
                "2026-02-01",
                "--owner",
                texts[(i + 3) % texts.len()],
            ]);
        }
        ok(&env, &args);
    }
    let first = env.json(&["memories", "--kind", "note"]);
    let id = first[0]["memory_id"].as_str().unwrap().to_string();
    ok(&env, &["revise", &id, "--content", "revised \"text\"\n"]);
    for extra in [
        &[][..],
        &["--full"],
        &["--kind", "commitment"],
        &["--kind", "note"],
    ] {
        let args = [&["memories", "--all"][..], extra].concat();
        let rows = env.json(&args);
        let rows = rows.as_array().unwrap();
        assert_eq!(
            rows.len(),
            match extra {
                [_, "commitment"] => 3,
                [_, "note"] => 3,
                _ => 6,
            },
            "{extra:?}"
        );
        let lines = ok(&env, &[&args[..], &["--format", "jsonl"]].concat());
        let want: String = rows
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect();
        assert_eq!(lines, want, "{extra:?}");
        assert_eq!(
            rows.iter().any(|r| r.get("content").is_some()),
            extra == ["--full"],
            "{extra:?}"
        );
    }
}

/// When every query word is in over a tenth of the memories (and over
/// 2,000), recall ranks only the 2,000 newest matches and says so; a rarer
/// word, or a filter that needs more, ranks them all.
#[test]
fn a_query_of_only_common_words_ranks_the_newest_matches_and_says_so() {
    let env = Env::new();
    let memory = |i: usize| {
        // The 100 oldest are "common" four times in the topic (the best
        // bm25 matches), number 2050 three times (the best of the newest);
        // number 5 is in another project.
        let topic = match i {
            0..100 => "common common common common".to_string(),
            2050 => format!("common common common {i}"),
            _ => format!("note {i}"),
        };
        let at = format!(
            "2026-01-01T{:02}:{:02}:{:02}.000Z",
            i / 3600,
            i / 60 % 60,
            i % 60
        );
        json!({"type": "memory", "memory_id": format!("01a00000-0000-7000-8000-{i:012x}"), "kind": "note",
            "topic": topic,
            "description": null, "content": format!("a common word, number {i}"),
            "project": if i == 5 { "other" } else { "shop" }, "scope": "project", "tags": [], "status": "active",
            "pinned": false, "redacted": false, "supersedes": null, "valid_from": at, "valid_to": null,
            "created_at": at, "updated_at": at})
        .to_string()
    };
    let file = env.path("many.jsonl");
    let lines: Vec<String> = (0..2100).map(memory).collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    ok(&env, &["import", file.to_str().unwrap()]);
    // A bulk import leaves the search index in one segment (FTS5 keeps a
    // segment's pages at rowids with the segment id from bit 37 up:
    // FTS5_SEGMENT_ROWID in fts5Int.h); 2,100 rows loaded left ten before.
    let segments =
        env.scalar("SELECT COUNT(DISTINCT id >> 37) FROM memories_fts_data WHERE id > 10");
    assert_eq!(segments, 1);
    let topics = |args: &[&str]| -> (Vec<String>, String) {
        let (code, out, err) = env.run(&[&["recall"], args, &["--format", "json"]].concat());
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let t = v
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["topic"].as_str().unwrap().to_string())
            .collect();
        (t, err)
    };
    let note = "sessionkit: every word of \"common\" is in over a tenth of the memories: ranked the 2000 newest that match; add a rarer word to rank them all\n";
    // The 2,000 newest are numbers 100 to 2099: of them, 2050 ranks first.
    let (hits, err) = topics(&["common", "--limit", "2"]);
    assert_eq!(hits[0], "common common common 2050");
    assert_eq!(hits.len(), 2);
    assert_eq!(err, note);
    // A repeated word is one word.
    assert_eq!(
        topics(&["common common", "--limit", "1"]).0,
        ["common common common 2050"]
    );
    // --quiet silences the note, not the hits.
    let (code, out, err) = env.run(&["recall", "common", "--limit", "1", "--quiet"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("common common common 2050"), "{out}");
    // A rarer word: only it is searched, among every memory.
    let (hits, err) = topics(&["common 2077"]);
    assert_eq!((hits, err.as_str()), (vec!["note 2077".to_string()], ""));
    // A filter the pool cannot fill widens it to every match (number 5 is
    // among the oldest).
    let (hits, err) = topics(&["common", "--project", "other"]);
    assert_eq!(
        (hits, err.as_str()),
        (vec!["common common common common".to_string()], "")
    );
    // Ranking them all, the oldest win: what the pool leaves out.
    let (hits, _) = topics(&["common", "--project", "shop", "--limit", "2050"]);
    assert_eq!(hits[..2], ["common common common common"; 2]);
    assert_eq!(hits[99], "common common common 2050");
}

/// A listing whose reader goes away exits 0 and says nothing, whichever
/// way its rows are written (directly, or through serde).
#[test]
fn a_listing_into_a_closed_pipe_exits_0_quietly() {
    let env = Env::new();
    let lines: Vec<String> = (0..400)
        .map(|i| {
            let at = format!("2026-01-01T00:{:02}:{:02}.000Z", i / 60, i % 60);
            json!({"type": "memory", "memory_id": format!("01a00000-0000-7000-8000-{i:012x}"), "kind": "note",
                "topic": format!("note {i}"), "description": null, "content": format!("{} {i}", "words ".repeat(50)),
                "project": "shop", "scope": "project", "tags": [], "status": "active", "pinned": false,
                "redacted": false, "supersedes": null, "valid_from": at, "valid_to": null,
                "created_at": at, "updated_at": at})
            .to_string()
        })
        .collect();
    let file = env.path("notes.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    ok(&env, &["import", file.to_str().unwrap()]);
    for format in ["jsonl", "json", "csv"] {
        let (code, err) = env.run_into_closed_pipe(&["memories", "--full", "--format", format]);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{format}");
    }
}

/// A memory's topic, content and tags lose their secrets before
/// they are written (the setting memory.redaction turns it off), and
/// `memory redact` also scrubs the topic and the tags.
#[test]
fn memories_are_redacted_on_write_and_redact_scrubs_topic_and_tags() {
    let env = Env::new();
    let key = "sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789";
    let id = ok(
        &env,
        &[
            "remember",
            "--kind",
            "note",
            "--topic",
            &format!("key {key}"),
            "--content",
            "db at postgres://app:Xk29fj3LmQ@db:5432/app",
            "--tag",
            "PASSWORD=hunter2",
            "--project",
            "p",
        ],
    );
    let s = show(&env, id.trim());
    assert_eq!(s["topic"], json!("key [redacted:api-key:~64]"));
    assert_eq!(
        s["content"],
        json!("db at postgres://app:[redacted:url-password:~16]@db:5432/app")
    );
    assert_eq!(s["tags"], json!(["PASSWORD=[redacted:password:~8]"]));
    let bytes = std::fs::read(env.db()).unwrap();
    assert!(memchr::memmem::find(&bytes, key.as_bytes()).is_none());
    // Off: written as given.
    let out = env
        .cmd()
        .env("SESSIONKIT_MEMORY_REDACTION", "off")
        .args([
            "remember",
            "--kind",
            "note",
            "--topic",
            "plain",
            "--content",
            "PASSWORD=hunter2",
            "--project",
            "p",
        ])
        .output()
        .unwrap();
    let plain = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        show(&env, plain.trim())["content"],
        json!("PASSWORD=hunter2")
    );
    ok(&env, &["memory", "redact", plain.trim()]);
    let r = show(&env, plain.trim());
    assert_eq!(
        (r["topic"].clone(), r["content"].clone(), r["tags"].clone()),
        (json!("[redacted]"), json!("[redacted]"), json!([]))
    );
}

/// An export with a byte-order mark imports whole (the first
/// memory and its commitment were rejected), and a malformed id is
/// rejected with its line.
#[test]
fn import_takes_a_bom_and_refuses_malformed_ids() {
    let env = Env::new();
    ok(
        &env,
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "Ship",
            "--content",
            "Ship v2",
            "--project",
            "p",
            "--due",
            "2026-03-01",
        ],
    );
    let export = ok(&env, &["export"]);
    let fresh = Env::new();
    let file = fresh.path("with-bom.jsonl");
    std::fs::write(&file, format!("\u{feff}{export}")).unwrap();
    let out = ok(
        &fresh,
        &["import", file.to_str().unwrap(), "--format", "jsonl"],
    );
    assert!(!out.contains("rejected"), "{out}");
    assert_eq!(ok(&fresh, &["export"]), export);
    let bad = export.replacen("\"memory_id\":\"", "\"memory_id\":\"X", 1);
    let file = fresh.path("bad-id.jsonl");
    std::fs::write(&file, bad).unwrap();
    let third = Env::new();
    let (_, out, _) = third.run(&["import", file.to_str().unwrap(), "--format", "jsonl"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 1);
    assert_eq!(first["result"], "rejected");
    assert!(
        first["reason"].as_str().unwrap().contains("is not an id"),
        "{first}"
    );
}

/// A memory written inside a run exports its events with the run
/// id; a restore into a fresh database keeps them (the run id is provenance
/// from the database they came from), and the round trip stays
/// byte-identical. An event naming a run of the importing database is
/// still refused: an import never joins a run.
#[test]
fn run_attributed_memories_survive_export_and_import() {
    let env = Env::new();
    let opened = env.json(&[
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
    let run = opened["run_id"].as_str().unwrap().to_string();
    let id = ok(
        &env,
        &[
            "remember",
            "--kind",
            "commitment",
            "--topic",
            "Ship",
            "--content",
            "Ship v2",
            "--project",
            "shop",
            "--session-run-id",
            &run,
        ],
    )
    .trim()
    .to_string();
    ok(&env, &["resolve", &id, "--session-run-id", &run]);
    let first = ok(&env, &["export"]);
    assert_eq!(first.matches(&run).count(), 2, "{first}");
    let file = env.path("memories.jsonl");
    std::fs::write(&file, &first).unwrap();

    let fresh = Env::new();
    let (code, out, err) = fresh.run(&["import", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("imported: 4 created, 0 already present"),
        "{err}"
    );
    assert_eq!(ok(&fresh, &["export"]), first);
    assert_eq!(
        fresh.scalar(&format!(
            "SELECT COUNT(*) FROM memory_events WHERE session_run_id = '{run}'"
        )),
        2
    );
    // The fresh database has no such run: nothing can attach to it.
    assert_eq!(fresh.scalar("SELECT COUNT(*) FROM agent_sessions"), 0);
    // Back into the database it came from: all present.
    let (code, _, err) = env.run(&["import", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("imported: 0 created, 4 already present"),
        "{err}"
    );
    // A new event naming a run of the importing database is refused, and
    // so nothing of the file is written.
    let forged = first.replace(
        &first
            .lines()
            .last()
            .unwrap()
            .split("\"event_id\":\"")
            .nth(1)
            .unwrap()[..36],
        "01a00000-0000-7000-8000-0000000000f0",
    );
    let before = env.dump();
    std::fs::write(&file, &forged).unwrap();
    let (code, out, _) = env.run(&["import", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let rows: Value = serde_json::from_str(&out).unwrap();
    let refused: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"] == "rejected")
        .collect();
    assert_eq!(refused.len(), 1);
    assert_eq!(
        refused[0]["reason"],
        format!("names run {run} of this database: an import never joins a run")
    );
    assert_eq!(env.dump(), before);
}

/// Supersession cycles are refused, with nothing written.
#[test]
fn import_refuses_supersession_cycles_and_double_successors() {
    let env = Env::new();
    let mem = |n: u32, supersedes: Option<u32>, live: bool| {
        let id = |n: u32| format!("01a00000-0000-7000-8000-{n:012}");
        json!({"type": "memory", "memory_id": id(n), "kind": "note", "topic": format!("t{n}"),
            "description": null, "content": format!("c{n}"), "project": "p", "scope": "project",
            "tags": [], "status": "active", "pinned": false, "redacted": false,
            "supersedes": supersedes.map(id),
            "valid_from": "2026-01-01T00:00:00.000Z",
            "valid_to": if live { Value::Null } else { json!("2026-01-02T00:00:00.000Z") },
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"})
        .to_string()
    };
    let import = |lines: &[String]| -> (i32, Vec<(String, String)>) {
        let out = env
            .cmd()
            .args(["import", "-", "--json"])
            .write_stdin(lines.join("\n"))
            .output()
            .unwrap();
        let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            out.status.code().unwrap(),
            rows.as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r["result"].as_str().unwrap().to_string(),
                        r["reason"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect(),
        )
    };
    // 1 -> 2 -> 3 -> 1, and 4 beside them.
    let (code, rows) = import(&[
        mem(1, Some(3), false),
        mem(2, Some(1), false),
        mem(3, Some(2), true),
        mem(4, None, true),
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        rows[0].1,
        "supersession cycle: 01a00000-0000-7000-8000-000000000001 -> 01a00000-0000-7000-8000-000000000003 -> 01a00000-0000-7000-8000-000000000002 -> 01a00000-0000-7000-8000-000000000001"
    );
    assert_eq!(
        rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        ["rejected", "rejected", "rejected", "not-imported"]
    );
    let (_, rows) = import(&[mem(5, Some(5), true)]);
    assert_eq!(
        rows[0].1,
        "supersession cycle: the memory supersedes itself"
    );
    // Two successors of one memory.
    let (_, rows) = import(&[
        mem(6, None, false),
        mem(7, Some(6), true),
        mem(8, Some(6), true),
    ]);
    assert_eq!(
        rows[2].1,
        "01a00000-0000-7000-8000-000000000006 is superseded twice (also by 01a00000-0000-7000-8000-000000000007, earlier in the file)"
    );
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memories"), 0);
    // A chain without a cycle imports.
    let (code, rows) = import(&[mem(6, None, false), mem(7, Some(6), true)]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memories"), 2);
}

/// A memory's text carrying terminal escapes comes out of a CSV
/// listing escaped, and out of JSON as JSON escapes (never raw).
/// An export in any order imports: an event and a commitment before
/// their memory, a `type` spelled with an escape, rows reported in line
/// order. A bulk load (more new memories than are stored) builds each
/// index once at the end: afterwards the database has exactly a fresh
/// one's indexes, passes its integrity check, finds by search and keeps a
/// live duplicate out.
#[test]
fn an_export_in_any_order_imports_and_a_bulk_load_keeps_every_index() {
    let env = Env::new();
    env.run(&["status"]);
    let schema = "SELECT name || ' ' || sql FROM sqlite_master WHERE type = 'index' ORDER BY name";
    let fresh = env.rows(schema);
    assert!(fresh.len() > 10, "{fresh:?}");
    let id = |i: u32| format!("01a00000-0000-7000-8000-{i:012}");
    let at = "2026-01-01T00:00:00.000Z";
    let memory = |i: u32, kind: &str| {
        json!({"type": "memory", "memory_id": id(i), "kind": kind, "topic": format!("loader {i}"),
            "description": null, "content": format!("the cache loader warms shard {i}"),
            "project": "shop", "scope": "project", "tags": ["cache"], "status": "active",
            "pinned": false, "redacted": false, "supersedes": null, "valid_from": at,
            "valid_to": null, "created_at": at, "updated_at": at})
        .to_string()
    };
    let event = |i: u32| {
        json!({"type": "event", "event_id": id(900_000 + i), "memory_id": id(i), "kind": "create",
            "actor": "cli", "session_run_id": null, "reason": null, "created_at": at})
        .to_string()
    };
    // An event and a commitment (its type escaped) before their memories.
    let mut lines = vec![
        event(7),
        r#"{"type":"\u0063ommitment","memory_id":"ID","status":"open","due_at":null,"owner":null,"resolved_at":null,"updated_at":"2026-01-01T00:00:00.000Z"}"#
            .replace("ID", &id(3)),
    ];
    for i in 0..1200 {
        lines.push(memory(i, if i == 3 { "commitment" } else { "note" }));
        if i != 7 {
            lines.push(event(i));
        }
    }
    let file = env.path("shuffled.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (code, out, err) = env.run(&["import", file.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2401);
    let numbers: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=2401).collect::<Vec<u64>>());
    assert_eq!(
        (rows[0]["type"].as_str(), rows[0]["result"].as_str()),
        (Some("event"), Some("created"))
    );
    assert_eq!(
        (rows[1]["type"].as_str(), rows[1]["id"].as_str()),
        (Some("commitment"), Some(id(3).as_str()))
    );
    assert!(rows.iter().all(|r| r["result"] == "created"), "{out}");
    assert!(
        err.contains("imported: 2401 created, 0 already present"),
        "{err}"
    );
    assert_eq!(env.scalar("SELECT count(*) FROM memories"), 1200);
    assert_eq!(env.scalar("SELECT count(*) FROM memory_events"), 1200);
    assert_eq!(
        env.scalar("SELECT count(*) FROM commitments WHERE status = 'open'"),
        1
    );
    assert_eq!(env.rows(schema), fresh);
    assert_eq!(
        env.rows("PRAGMA integrity_check"),
        ["Text([111, 107])"],
        "ok"
    );
    let found = env.json(&["recall", "shard 1117"]);
    assert_eq!(found[0]["memory_id"], json!(id(1117)), "{found}");
    let (_, _, err) = env.run(&[
        "remember",
        "--kind",
        "note",
        "--topic",
        "again",
        "--content",
        "the cache loader warms shard 42",
        "--project",
        "shop",
    ]);
    assert!(
        err.contains(&format!("an identical memory is live: {}", id(42))),
        "{err}"
    );
    assert_eq!(env.scalar("SELECT count(*) FROM memories"), 1200);
    // Again: every record present, nothing written.
    let before = env.dump();
    let (code, _, err) = env.run(&["import", file.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("imported: 0 created, 2401 already present"),
        "{err}"
    );
    assert_eq!(env.dump(), before);
}

#[test]
fn csv_listings_escape_control_characters() {
    let env = Env::new();
    remember(&env, "note", "red \u{1b}[31malert\u{7}", "body");
    let (code, csv, _) = env.run(&["memories", "--format", "csv"]);
    assert_eq!(code, 0);
    assert!(!csv.contains('\u{1b}') && !csv.contains('\u{7}'), "{csv:?}");
    assert!(csv.contains("red \\u{1b}[31malert\\u{7}"), "{csv}");
    let (_, json, _) = env.run(&["memories", "--json"]);
    assert!(!json.contains('\u{1b}'), "{json:?}");
    assert!(json.contains("red \\u001b[31malert\\u0007"), "{json}");
}

/// Every command that takes a project decides it one way
/// (`project::chosen`): remember, brief and session open, run in the same
/// directory without --project, name the same project.
#[test]
fn remember_brief_and_session_open_name_the_same_project_for_a_directory() {
    let env = Env::new();
    let dir = env.path("work/shopdir");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = env.cmd().current_dir(&dir).args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let m = run(&[
        "remember",
        "--kind",
        "constraint",
        "--topic",
        "t",
        "--content",
        "c",
        "--json",
    ]);
    assert_eq!(m["project"], "shopdir");
    let s = run(&[
        "session",
        "open",
        "--agent",
        "claude-code",
        "--session-id",
        "s-9",
        "--source",
        "startup",
        "--json",
    ]);
    assert_eq!(s["project"], "shopdir");
    let b = run(&["brief", "--json"]);
    assert_eq!(b["project"], "shopdir", "{b}");
}

/// An import file comes from outside, so a memory's text is
/// redacted as `remember` redacts it (unless memory.redaction is off).
#[test]
fn imported_memories_lose_their_secrets_unless_redaction_is_off() {
    let key = "ghp_0123456789abcdefABCDEFGHIJKLmnopqrst";
    let line = json!({"type": "memory", "memory_id": "01a00000-0000-7000-8000-0000000000a1",
        "kind": "note", "topic": format!("token {key}"), "description": null,
        "content": "db at postgres://app:Xk29fj3LmQ@db:5432/app", "project": "p",
        "scope": "project", "tags": ["PASSWORD=hunter2"], "status": "active", "pinned": false,
        "redacted": false, "supersedes": null, "valid_from": "2026-01-01T00:00:00.000Z",
        "valid_to": null, "created_at": "2026-01-01T00:00:00.000Z",
        "updated_at": "2026-01-01T00:00:00.000Z"})
    .to_string();
    let import = |env: &Env| {
        let out = env
            .cmd()
            .args(["import", "-"])
            .write_stdin(line.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let m = show(env, "01a00000-0000-7000-8000-0000000000a1");
        (
            m["topic"].as_str().unwrap().to_string(),
            m["content"].as_str().unwrap().to_string(),
            m["tags"][0].as_str().unwrap().to_string(),
        )
    };
    let env = Env::new();
    let (topic, content, tag) = import(&env);
    assert_eq!(topic, "token [redacted:github:~64]");
    assert_eq!(
        content,
        "db at postgres://app:[redacted:url-password:~16]@db:5432/app"
    );
    assert!(tag.starts_with("PASSWORD=[redacted:"), "{tag}");
    assert!(!env.dump().contains(key));
    // Its export imports again unchanged.
    let exported = ok(&env, &["export"]);
    let again = Env::new();
    let file = again.path("e.jsonl");
    std::fs::write(&file, &exported).unwrap();
    ok(&again, &["import", file.to_str().unwrap()]);
    assert_eq!(ok(&again, &["export"]), exported);
    // Off: stored as given.
    let off = Env::new();
    ok(&off, &["config", "set", "memory.redaction", "off"]);
    assert_eq!(import(&off).0, format!("token {key}"));
}

/// Migration 0017: the index holds each memory's project as one
/// token; recall for a project ranks only its memories, names with any
/// characters work, and the index stays in step through edits.
/// Recall finds the memory however the query words are inflected or
/// abbreviated, and never another project's; a miss says so on stderr.
#[test]
fn recall_matches_stems_prefixes_and_aliases_within_the_project() {
    let env = Env::new();
    let add = |project: &str, topic: &str, content: &str| {
        let (code, _, err) = at(
            &env,
            crate::common::NOW,
            &[
                "remember",
                "--kind",
                "note",
                "--project",
                project,
                "--topic",
                topic,
                "--content",
                content,
            ],
        );
        assert_eq!(code, 0, "{err}");
    };
    add(
        "shop",
        "Analytics store",
        "Use PostgreSQL for the analytics store",
    );
    add("shop", "API rollout", "We deploy the API every Tuesday");
    add(
        "shop",
        "Pipeline",
        "The deployment pipeline takes 12 minutes",
    );
    add(
        "shop",
        "Runbook",
        "The documentation for on-call lives in the wiki",
    );
    add(
        "other",
        "Other shop",
        "postgres deployment for another team; kubernetes docs",
    );
    let topics = |query: &str| -> Vec<String> {
        let mut t: Vec<String> = env
            .json(&["recall", query, "--project", "shop"])
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["topic"].as_str().unwrap().to_string())
            .collect();
        t.sort();
        t
    };
    assert_eq!(topics("postgres"), ["Analytics store"]);
    assert_eq!(topics("deploy"), ["API rollout", "Pipeline"]);
    assert_eq!(topics("deployed"), ["API rollout", "Pipeline"]);
    assert_eq!(topics("deployments"), ["API rollout", "Pipeline"]);
    assert_eq!(topics("docs"), ["Runbook"]);
    assert_eq!(topics("analyt"), ["Analytics store"]);
    // Words only another project's memory holds find nothing here.
    let (code, out, err) = at(
        &env,
        crate::common::NOW,
        &[
            "recall",
            "kubernetes",
            "--project",
            "shop",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no memories match \"kubernetes\""), "{err}");
    assert_eq!(
        env.json(&["recall", "kubernetes", "--project", "other"])[0]["topic"],
        "Other shop"
    );
}

#[test]
fn recall_by_project_uses_the_index_token_and_the_index_stays_whole() {
    let env = Env::new();
    let shop = remember(
        &env,
        "decision",
        "ledger format",
        "the ledger is CSV with a header",
    );
    for (project, topic) in [
        ("shop-2", "ledger rows"),
        ("Ünïcode proj/x", "ledger pages"),
        ("", "ledger none"),
    ] {
        let mut args = vec![
            "remember",
            "--kind",
            "note",
            "--topic",
            topic,
            "--content",
            "a ledger note",
        ];
        if !project.is_empty() {
            args.extend(["--project", project]);
        }
        at(&env, crate::common::NOW, &args);
    }
    let ids = |project: &str| -> Vec<String> {
        let v = env.json(&["recall", "ledger", "--project", project]);
        v.as_array()
            .unwrap()
            .iter()
            .map(|h| h["topic"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("shop"), ["ledger format"]);
    assert_eq!(ids("shop-2"), ["ledger rows"]);
    assert_eq!(ids("Ünïcode proj/x"), ["ledger pages"]);
    // A prefix of a project's token is not that project.
    assert_eq!(ids("sho"), Vec::<String>::new());
    // Edits keep the index and its source in step.
    let revised = ok(
        &env,
        &["revise", &shop, "--content", "the ledger is Parquet now"],
    );
    ok(&env, &["archive", revised.trim()]);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute_batch("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")
        .unwrap();
}

/// Memories made in the same minute share the first characters of their
/// UUIDv7 ids: the ids `memories` and `recall` show in a fitted table each
/// name one memory, and `memory show` takes them as shown.
#[test]
fn memory_ids_shown_in_tables_paste_back() {
    let env = Env::new();
    let mut made = Vec::new();
    for n in 0..6 {
        let (code, out, err) = env.run(&[
            "remember",
            "--kind",
            "decision",
            "--topic",
            &format!("billing {n}"),
            "--content",
            &format!("we chose ledger option {n}"),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        made.push(out);
    }
    for args in [
        vec!["memories", "--format", "table"],
        vec!["recall", "ledger", "--format", "table"],
    ] {
        let o = env.cmd().env("COLUMNS", "80").args(&args).output().unwrap();
        let table = String::from_utf8(o.stdout).unwrap();
        // A row's first column; a snippet wrapped onto the next line
        // leaves that line's id column blank.
        let ids: Vec<&str> = table
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with(char::is_whitespace))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.chars().all(|c| c.is_ascii_hexdigit() || c == '-'))
            .collect();
        assert_eq!(ids.len(), 6, "{args:?}: {table}");
        for id in ids {
            assert!(!id.ends_with('…'));
            let (code, out, err) = env.run(&["memory", "show", id, "--format", "json"]);
            assert_eq!(code, 0, "{args:?} {id}: {err}");
            assert!(out.contains(id), "{out}");
        }
    }
}

/// `export` writes JSON Lines; `--json` (one document) is refused with
/// the formats it writes, and nothing to export says so on stderr.
#[test]
fn export_refuses_one_document_and_says_when_it_has_nothing() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("nothing")).unwrap();
    env.ingest(&env.path("nothing"));
    let (code, out, err) = env.run(&["export", "--json"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("export writes JSON Lines (--format jsonl, the default) or OpenTelemetry"),
        "{err}"
    );
    let (code, out, err) = env.run(&["export"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no memories to export"), "{err}");
    remember(&env, "decision", "Database", "Use PostgreSQL 16");
    let (code, out, err) = env.run(&["export"]);
    assert_eq!((code, out.lines().count()), (0, 2), "{err}");
    assert!(!err.contains("no memories"), "{err}");
}

//! The soak: 16 hook processes firing without pause while an
//! ingest, an import, a `sweep` and a reader holding read transactions run
//! in loops beside them. Every event sent must be in `events_raw` exactly
//! once at the end (directly, or through the spool), and every process must
//! behave: hooks exit 0 with nothing on stdout, the others exit 0.
//!
//! A locker holds the write lock past the hooks' budget every few seconds,
//! so that part of the events take the spool. It runs for
//! `SESSIONKIT_SOAK_SECS` seconds (default 60).

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{Env, copy_tree, fixtures};

const HOOKS: usize = 16;

fn seconds() -> u64 {
    std::env::var("SESSIONKIT_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60)
}

/// A command's environment without the fixed clock: the soak runs in real time.
fn live(env: &Env) -> Command {
    let mut c = env.std_cmd();
    c.env_remove("SESSIONKIT_NOW");
    c
}

/// An export file of `n` new memories (ids unique to `batch`).
fn export_file(batch: u32, n: u32) -> String {
    let mut out = String::new();
    for i in 0..n {
        let id = format!("01b{batch:05x}-0000-7000-8000-{i:012}");
        let line = json!({"type": "memory", "memory_id": id, "kind": "note",
            "topic": format!("soak {batch} {i}"), "description": null,
            "content": format!("soak memory {batch} {i}: the quick brown fox {}", i * 7919),
            "project": "soak", "scope": "project", "tags": ["soak"], "status": "active",
            "pinned": false, "redacted": false, "supersedes": null,
            "valid_from": "2026-01-01T00:00:00.000Z", "valid_to": null,
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// Runs `c` to the end; its exit code and stderr.
fn finish(mut c: Command) -> (Option<i32>, String) {
    let out = c
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn soak_no_event_is_lost_or_stored_twice_under_contention() {
    let env = Arc::new(Env::new());
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let root = env.path("projects");
    copy_tree(&fixtures(), &root);
    let stop = Arc::new(AtomicBool::new(false));
    let until = Instant::now() + Duration::from_secs(seconds());
    let mut loops = Vec::new();

    // Each side loop returns (runs, failures).
    let side = |name: &'static str, body: Box<dyn Fn(u32) -> Option<String> + Send>| {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut runs = 0u32;
            let mut failures = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                if let Some(f) = body(runs) {
                    failures.push(format!("{name} #{runs}: {f}"));
                }
                runs += 1;
            }
            (name, runs, failures)
        })
    };
    {
        let env = env.clone();
        let root = root.clone();
        loops.push(side(
            "ingest",
            Box::new(move |i| {
                // Grow a transcript so each ingest has something to write,
                // and replay now and then (every session rewritten).
                let grow = root.join("-w-soak/55555555-5555-4555-8555-555555555555.jsonl");
                std::fs::create_dir_all(grow.parent().unwrap()).unwrap();
                let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&grow).unwrap();
                writeln!(f, "{}", json!({"type": "assistant", "sessionId": "55555555-5555-4555-8555-555555555555",
                    "uuid": format!("u{i}"), "timestamp": "2026-01-02T00:00:00Z",
                    "message": {"id": format!("msg_{i}"), "model": "claude-sonnet-4-5", "role": "assistant",
                        "content": [{"type": "text", "text": "x"}],
                        "usage": {"input_tokens": 3, "output_tokens": 5}}})).unwrap();
                let verb = if i % 5 == 4 { "replay" } else { "ingest" };
                let mut c = live(&env);
                c.env("SESSIONKIT_BULK_BYTES", "1")
                    .args([verb, "--root", root.to_str().unwrap(), "--quiet"]);
                let (code, err) = finish(c);
                (code != Some(0)).then(|| format!("exit {code:?}: {err}"))
            }),
        ));
    }
    {
        let env = env.clone();
        loops.push(side(
            "import",
            Box::new(move |i| {
                let file = env.path(&format!("import-{i}.jsonl"));
                std::fs::write(&file, export_file(i, 2000)).unwrap();
                let mut c = live(&env);
                c.args(["import", file.to_str().unwrap()]);
                let (code, err) = finish(c);
                (code != Some(0)).then(|| format!("exit {code:?}: {err}"))
            }),
        ));
    }
    {
        let env = env.clone();
        loops.push(side(
            "sweep",
            Box::new(move |_| {
                let mut c = live(&env);
                c.args(["sweep"]);
                let (code, err) = finish(c);
                (code != Some(0)).then(|| format!("exit {code:?}: {err}"))
            }),
        ));
    }
    {
        let db = env.db();
        loops.push(side(
            "reader",
            Box::new(move |_| {
                let c = rusqlite::Connection::open(&db).unwrap();
                c.busy_timeout(Duration::from_secs(5)).unwrap();
                let r = c.execute_batch(
                    "BEGIN; SELECT COUNT(*) FROM events_raw; SELECT COUNT(*) FROM memories;",
                );
                std::thread::sleep(Duration::from_millis(300));
                let r = r.and_then(|()| c.execute_batch("COMMIT"));
                std::thread::sleep(Duration::from_millis(10));
                r.err().map(|e| e.to_string())
            }),
        ));
    }

    {
        // Now and then a writer holds the lock past the hooks' budget (300
        // ms here), as a stuck process would: those events go through the
        // spool, and the next writer drains it while hooks keep writing.
        let db = env.db();
        loops.push(side(
            "locker",
            Box::new(move |_| {
                std::thread::sleep(Duration::from_millis(2000));
                let c = rusqlite::Connection::open(&db).unwrap();
                c.busy_timeout(Duration::from_secs(5)).unwrap();
                let r = c.execute_batch("BEGIN IMMEDIATE; UPDATE settings SET key = key WHERE 0;");
                std::thread::sleep(Duration::from_millis(700));
                let r = r.and_then(|()| c.execute_batch("COMMIT"));
                r.err().map(|e| e.to_string())
            }),
        ));
    }

    let hooks: Vec<_> = (0..HOOKS)
        .map(|p| {
            let env = env.clone();
            std::thread::spawn(move || {
                let mut sent = Vec::new();
                let mut spooled = 0u32;
                let mut failures = Vec::new();
                let mut i = 0u32;
                while Instant::now() < until {
                    let marker = format!("soak-{p}-{i}");
                    // Half with a delivery id; the others are told apart by
                    // their payload alone.
                    let mut c = live(&env);
                    c.env("SESSIONKIT_HOOK_BUDGET_MS", "300").args(["hook", "event"]);
                    if i.is_multiple_of(2) {
                        c.args(["--delivery-id", &marker]);
                    }
                    let session = ["11111111-1111-4111-8111-111111111111", "66666666-6666-4666-8666-666666666666"][i as usize % 2];
                    let event = ["Stop", "UserPromptSubmit", "PostToolUse"][i as usize % 3];
                    let payload = json!({"session_id": session, "hook_event_name": event, "cwd": "/tmp", "marker": marker});
                    let mut child = c
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .spawn()
                        .unwrap();
                    child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
                    let o = child.wait_with_output().unwrap();
                    let err = String::from_utf8_lossy(&o.stderr).into_owned();
                    if err.starts_with("sessionkit hook: the database is busy") && err.lines().count() == 1 {
                        spooled += 1;
                    } else if !err.is_empty() {
                        failures.push(format!("{marker}: {err}"));
                    }
                    if o.status.code() != Some(0) || !o.stdout.is_empty() {
                        failures.push(format!("{marker}: exit {:?}, stdout {:?}", o.status.code(), o.stdout));
                    }
                    sent.push(marker);
                    i += 1;
                }
                (sent, spooled, failures)
            })
        })
        .collect();

    let mut sent = Vec::new();
    let mut spooled = 0;
    let mut failures = Vec::new();
    for h in hooks {
        let (s, sp, f) = h.join().unwrap();
        sent.extend(s);
        spooled += sp;
        failures.extend(f);
    }
    stop.store(true, Ordering::Relaxed);
    let mut runs = BTreeMap::new();
    for l in loops {
        let (name, n, f) = l.join().unwrap();
        runs.insert(name, n);
        failures.extend(f);
    }
    // The last writer drains what is left in the spool.
    let (code, err) = finish({
        let mut c = live(&env);
        c.args(["sweep"]);
        c
    });
    assert_eq!(code, Some(0), "{err}");
    eprintln!(
        "soak: {} s, {} hook events ({spooled} through the spool), runs {runs:?}",
        seconds(),
        sent.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    for (name, n) in &runs {
        assert!(*n > 0, "{name} never ran");
    }
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut stored: BTreeMap<String, u32> = BTreeMap::new();
    let mut stmt = c
        .prepare("SELECT json_extract(payload, '$.marker') FROM events_raw WHERE json_extract(payload, '$.marker') IS NOT NULL")
        .unwrap();
    for m in stmt.query_map([], |r| r.get::<_, String>(0)).unwrap() {
        *stored.entry(m.unwrap()).or_default() += 1;
    }
    let missing: Vec<&String> = sent.iter().filter(|m| !stored.contains_key(*m)).collect();
    let twice: Vec<(&String, &u32)> = stored.iter().filter(|(_, n)| **n != 1).collect();
    assert!(
        missing.is_empty(),
        "{} of {} events lost: {:?}",
        missing.len(),
        sent.len(),
        &missing[..missing.len().min(10)]
    );
    assert!(twice.is_empty(), "stored more than once: {twice:?}");
    assert_eq!(stored.len(), sent.len());
    let spool = crate::common::spool_waiting(&env);
    assert_eq!(spool, 0, "the spool is drained");
}

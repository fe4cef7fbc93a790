//! The hook spool: a hook that cannot get the write lock within
//! its budget leaves its event in `<db>.spool` and exits 0; the next writer
//! drains it, in order, exactly once; `status` and `check` report it.

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{C, Env};
use crate::hooks::{events, hook};

const T0: &str = "2026-02-01T00:00:00Z";

fn spool(env: &Env) -> std::path::PathBuf {
    let mut p = env.db().into_os_string();
    p.push(".spool");
    p.into()
}

/// Another process holding the write lock, as a long import would.
fn hold_write_lock(env: &Env) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute_batch("BEGIN IMMEDIATE; UPDATE settings SET key = key WHERE 0;")
        .unwrap();
    c
}

fn stop_payload(session: &str) -> Vec<u8> {
    json!({"session_id": session, "hook_event_name": "Stop", "cwd": "/tmp"})
        .to_string()
        .into_bytes()
}

fn budget_hook(env: &Env, payload: &[u8], args: &[&str]) -> (i32, String, String, Duration) {
    let start = Instant::now();
    let mut c = env.std_cmd();
    c.env("SESSIONKIT_HOOK_BUDGET_MS", "300");
    let out = crate::hooks::hook_with(c, T0, payload, args);
    (out.0, out.1, out.2, start.elapsed())
}

#[test]
fn a_hook_that_cannot_get_the_lock_spools_its_event_and_the_next_writer_drains_it() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let lock = hold_write_lock(&env);
    let (code, out, err, took) = budget_hook(&env, &stop_payload(C), &["--delivery-id", "d1"]);
    // Exit 0, nothing on stdout, one line on stderr, within the budget (300
    // ms) plus process start and the spool's fsync.
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.starts_with("sessionkit hook: the database is busy"),
        "{err}"
    );
    assert!(err.contains("waits in the spool"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    let text = std::fs::read_to_string(spool(&env)).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("\"event\":\"Stop\""), "{text}");
    let mode = std::fs::metadata(spool(&env)).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // A second event spools after the first, in order.
    let (code, _, _, _) = budget_hook(&env, &stop_payload("other"), &["--delivery-id", "d2"]);
    assert_eq!(code, 0);
    let both = std::fs::read_to_string(spool(&env)).unwrap();
    assert_eq!(both.lines().count(), 2);
    drop(lock);

    // status and check say so (check exits 1 while anything waits).
    let (code, _, err) = env.run(&["status"]);
    assert_eq!(code, 0);
    assert!(err.contains("2 hook event(s) wait in the spool"), "{err}");
    let (code, out, _) = env.run(&["check", "--json", "--no-recount"]);
    assert_eq!(code, 1, "{out}");
    let findings: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(findings[0]["kind"], "spooled-events");
    assert!(
        findings[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("2 hook event(s)")
    );

    // The harness delivers d1 again, directly: the hook drains the spool
    // first, so the retry is the duplicate and d1 is stored once.
    let (code, out, err) = hook(&env, T0, &stop_payload(C), &["--delivery-id", "d1"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(events(&env).len(), 2);
    assert_eq!(std::fs::metadata(spool(&env)).unwrap().len(), 0);
    // As if that drain had been cut after its commit: both lines are back.
    std::fs::write(spool(&env), &both).unwrap();

    // The next writer (here sweep) drains the spool again: nothing twice,
    // the order kept, the spool emptied.
    assert_eq!(env.run(&["sweep"]).0, 0);
    let stored = events(&env);
    assert_eq!(
        stored
            .iter()
            .map(|e| e.2.clone().unwrap())
            .collect::<Vec<_>>(),
        vec![C.to_string(), "other".to_string()]
    );
    assert_eq!(std::fs::metadata(spool(&env)).unwrap().len(), 0);
    let (code, _, _) = env.run(&["check", "--no-recount"]);
    assert_eq!(code, 0);

    // A drain that was cut after its commit (the spool not yet emptied) is
    // repeated by the next writer without storing anything twice.
    std::fs::write(spool(&env), &text).unwrap();
    let (code, out, err) = hook(&env, T0, &stop_payload("third"), &[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let stored = events(&env);
    assert_eq!(stored.len(), 3);
    assert_eq!(stored[2].2.as_deref(), Some("third"));
    assert_eq!(std::fs::metadata(spool(&env)).unwrap().len(), 0);
}

#[test]
fn a_spooled_event_without_a_delivery_id_is_not_stored_twice_by_a_repeated_drain() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let lock = hold_write_lock(&env);
    assert_eq!(budget_hook(&env, &stop_payload(C), &[]).0, 0);
    drop(lock);
    let line = std::fs::read_to_string(spool(&env)).unwrap();
    assert_eq!(env.run(&["sweep"]).0, 0);
    std::fs::write(spool(&env), &line).unwrap();
    assert_eq!(env.run(&["sweep"]).0, 0);
    assert_eq!(events(&env).len(), 1);
    // The stored status is the spooled event's: the main agent waits.
    assert_eq!(
        env.scalar(&format!(
            "SELECT COUNT(*) FROM events_raw WHERE session_id = '{C}' AND received_at = 1769904000000"
        )),
        1
    );
}

#[test]
fn a_spooled_line_cut_by_a_crash_is_set_aside_and_reported_not_dropped() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let lock = hold_write_lock(&env);
    assert_eq!(
        budget_hook(&env, &stop_payload(C), &["--delivery-id", "x"]).0,
        0
    );
    drop(lock);
    let mut text = std::fs::read(spool(&env)).unwrap();
    text.extend_from_slice(b"{\"v\":1,\"key\":\"ab");
    std::fs::write(spool(&env), &text).unwrap();
    assert_eq!(env.run(&["sweep"]).0, 0);
    assert_eq!(events(&env).len(), 1);
    let mut rejected = env.db().into_os_string();
    rejected.push(".spool.rejected");
    assert_eq!(
        std::fs::read_to_string(&rejected).unwrap(),
        "{\"v\":1,\"key\":\"ab\n"
    );
    let (code, out, _) = env.run(&["check", "--json", "--no-recount"]);
    assert_eq!(code, 1);
    let findings: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(findings[0]["kind"], "spool-rejected");
}

/// An import into a database holding more memories than it brings writes
/// in short batches back to back. SQLite's own busy timeout sleeps up to
/// 100 ms between tries and kept missing the gaps (beside a 100,000-memory
/// import a hook waited its whole budget and spooled); with short polls and
/// the writer's pauses, hooks fired all through an import are stored
/// directly, none spooled. (A bulk load into a smaller database is one
/// transaction, and hooks spool meanwhile.)
#[test]
fn hooks_beside_a_long_import_are_stored_directly() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let memories = |ids: std::ops::Range<u32>| {
        let lines: Vec<String> = ids
            .map(|i| {
                json!({"type": "memory", "memory_id": format!("01b00000-0000-7000-8000-{i:012}"),
                    "kind": "note", "topic": format!("t {i}"), "description": null,
                    "content": format!("stored {i}"), "project": "big", "scope": "project",
                    "tags": [], "status": "active", "pinned": false, "redacted": false,
                    "supersedes": null, "valid_from": "2026-01-01T00:00:00.000Z",
                    "valid_to": null, "created_at": "2026-01-01T00:00:00.000Z",
                    "updated_at": "2026-01-01T00:00:00.000Z"})
                .to_string()
            })
            .collect();
        lines.join("\n") + "\n"
    };
    let stored = env.path("stored.jsonl");
    std::fs::write(&stored, memories(10_000..16_000)).unwrap();
    assert_eq!(
        env.run(&["import", stored.to_str().unwrap(), "--quiet"]).0,
        0
    );
    let mut file = String::new();
    for i in 0..4000 {
        file.push_str(
            &json!({"type": "memory", "memory_id": format!("01b00000-0000-7000-8000-{i:012}"),
                "kind": "note", "topic": format!("t {i}"), "description": null,
                "content": format!("content {i} lorem ipsum {}", i * 7919), "project": "big",
                "scope": "project", "tags": [], "status": "active", "pinned": false,
                "redacted": false, "supersedes": null, "valid_from": "2026-01-01T00:00:00.000Z",
                "valid_to": null, "created_at": "2026-01-01T00:00:00.000Z",
                "updated_at": "2026-01-01T00:00:00.000Z"})
            .to_string(),
        );
        file.push('\n');
    }
    let path = env.path("big.jsonl");
    std::fs::write(&path, file).unwrap();
    let mut import = env
        .std_cmd()
        .args(["import", path.to_str().unwrap(), "--quiet"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut sent = 0;
    let mut slowest = Duration::ZERO;
    while import.try_wait().unwrap().is_none() {
        let start = Instant::now();
        // A budget well under the default 2 s: a starved hook spools (and
        // says so on stderr); the old busy wait starved hooks for over 1 s.
        let mut c = env.std_cmd();
        c.env("SESSIONKIT_HOOK_BUDGET_MS", "700");
        let (code, out, err) =
            crate::hooks::hook_with(c, T0, &stop_payload(&format!("i{sent}")), &[]);
        slowest = slowest.max(start.elapsed());
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, "", ""),
            "hook {sent}"
        );
        sent += 1;
    }
    assert_eq!(import.wait().unwrap().code(), Some(0));
    assert!(
        sent >= 5,
        "the import ended before the hooks began ({sent})"
    );
    assert_eq!(events(&env).len(), sent);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memories"), 10_000);
    eprintln!("{sent} hooks beside the import; slowest {slowest:?}");
}

/// A bulk load (into a database smaller than the file) holds the write
/// lock to its end: hooks fired meanwhile exit 0 with nothing on stdout,
/// each event stored or spooled, and once the import is over the next
/// writer drains the spool: every event is stored, none lost.
#[test]
fn hooks_beside_a_bulk_import_lose_nothing() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let lines: Vec<String> = (0..30_000)
        .map(|i| {
            json!({"type": "memory", "memory_id": format!("01c00000-0000-7000-8000-{i:012}"),
                "kind": "note", "topic": format!("t {i}"), "description": null,
                "content": format!("bulk {i} lorem ipsum {}", i * 7919), "project": "big",
                "scope": "project", "tags": [], "status": "active", "pinned": false,
                "redacted": false, "supersedes": null, "valid_from": "2026-01-01T00:00:00.000Z",
                "valid_to": null, "created_at": "2026-01-01T00:00:00.000Z",
                "updated_at": "2026-01-01T00:00:00.000Z"})
            .to_string()
        })
        .collect();
    let path = env.path("bulk.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let mut import = env
        .std_cmd()
        .args(["import", path.to_str().unwrap(), "--quiet"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut sent = 0;
    while import.try_wait().unwrap().is_none() {
        let mut c = env.std_cmd();
        c.env("SESSIONKIT_HOOK_BUDGET_MS", "150");
        let (code, out, _) =
            crate::hooks::hook_with(c, T0, &stop_payload(&format!("b{sent}")), &[]);
        assert_eq!((code, out.as_str()), (0, ""), "hook {sent}");
        sent += 1;
    }
    assert_eq!(import.wait().unwrap().code(), Some(0));
    assert!(sent >= 1, "the import ended before a hook began");
    let (code, out, _) = hook(&env, T0, &stop_payload("after"), &[]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(events(&env).len(), sent + 1);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM memories"), 30_000);
    eprintln!("{sent} hooks beside the bulk import");
}

/// `check`'s findings as (kind, detail); it exits 1 when there are any.
fn check_findings(env: &Env) -> Vec<(String, String)> {
    let (code, out, _) = env.run(&["check", "--json", "--no-recount"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap_or_default().to_string(),
                f["detail"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Whatever stands where the spool goes — a FIFO, a folder, a link to one
/// of the user's files — is never read through, never blocks `status` or
/// `check`, and never keeps a hook's event from a database that takes it:
/// it is reported with its fix, and the linked file keeps its bytes.
#[test]
fn a_spool_that_is_not_a_file_is_reported_and_never_used() {
    let mine = "my notes, not a spool\n";
    for kind in ["fifo", "directory", "symlink"] {
        let env = Env::new();
        assert_eq!(env.run(&["config", "list"]).0, 0);
        let target = env.path("notes.txt");
        std::fs::write(&target, mine).unwrap();
        match kind {
            "fifo" => {
                let made = std::process::Command::new("mkfifo")
                    .arg(spool(&env))
                    .status()
                    .unwrap();
                assert!(made.success());
            }
            "directory" => std::fs::create_dir(spool(&env)).unwrap(),
            _ => std::os::unix::fs::symlink(&target, spool(&env)).unwrap(),
        }
        let (code, out, _) = hook(&env, T0, &stop_payload(C), &[]);
        assert_eq!((code, out.as_str()), (0, ""), "{kind}");
        assert_eq!(events(&env).len(), 1, "{kind}: the database took the event");
        let started = Instant::now();
        let (code, _, err) = env.run(&["status"]);
        assert_eq!(code, 0, "{kind}");
        let fix = match kind {
            "fifo" => "is a FIFO or socket, not a file: remove it",
            "directory" => "is a directory, not a file: remove it",
            _ => "is a symbolic link, which sessionkit does not follow: remove it",
        };
        assert!(err.contains(fix), "{kind}: {err}");
        let findings = check_findings(&env);
        assert!(
            findings
                .iter()
                .any(|(k, detail)| k == "spool-unusable" && detail.contains(fix)),
            "{kind}: {findings:?}"
        );
        // A writer's drain leaves it alone and goes on.
        let (code, _, err) = env.run(&["sweep"]);
        assert_eq!(code, 0, "{kind}: {err}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{kind}: nothing blocked"
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), mine, "{kind}");
        let mut rejected = env.db().into_os_string();
        rejected.push(".spool.rejected");
        assert!(!std::path::Path::new(&rejected).exists(), "{kind}");
    }
}

/// The spool is capped (`spool.max_bytes`): past it an event is dropped,
/// counted beside the database (without its payload), and reported by
/// `status` and `check`; the events before the cap are drained as usual.
#[test]
fn a_full_spool_drops_and_counts() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let lock = hold_write_lock(&env);
    let mut spooled = 0;
    for i in 0..6 {
        let mut c = env.std_cmd();
        c.env("SESSIONKIT_HOOK_BUDGET_MS", "100")
            .env("SESSIONKIT_SPOOL_MAX_BYTES", "1200");
        let (code, out, err) = crate::hooks::hook_with(
            c,
            T0,
            &stop_payload(&format!("s{i}")),
            &["--delivery-id", &format!("d{i}")],
        );
        assert_eq!((code, out.as_str()), (0, ""));
        if err.contains("waits in the spool") {
            spooled += 1;
        } else {
            assert!(
                err.contains("is full") && err.contains("dropped and counted"),
                "{err}"
            );
        }
    }
    assert!(
        (1..6).contains(&spooled),
        "{spooled} of 6 fit in 1,200 bytes"
    );
    assert!(std::fs::metadata(spool(&env)).unwrap().len() <= 1200);
    drop(lock);
    let (_, _, err) = env.run(&["status"]);
    assert!(
        err.contains(&format!(
            "{} hook event(s) were dropped because the spool was full",
            6 - spooled
        )),
        "{err}"
    );
    let mut dropped = env.db().into_os_string();
    dropped.push(".spool.dropped");
    let text = std::fs::read_to_string(&dropped).unwrap();
    assert_eq!(text.lines().count(), 6 - spooled);
    assert!(!text.contains("/tmp"), "no payload in the count: {text}");
    let findings = check_findings(&env);
    assert!(
        findings.iter().any(|(k, _)| k == "spool-dropped"),
        "{findings:?}"
    );
    // The writer drains what was spooled.
    env.run(&["sweep"]);
    assert_eq!(events(&env).len(), spooled);
}

/// A spool that belongs to another user than the database's is not used:
/// an event it holds could have been planted.
#[test]
fn a_spool_of_another_user_is_not_drained() {
    let env = Env::new();
    assert_eq!(env.run(&["config", "list"]).0, 0);
    let line = "{\"planted\":true}\n";
    std::fs::write(spool(&env), line).unwrap();
    let chowned = std::process::Command::new("chown")
        .args(["nobody"])
        .arg(spool(&env))
        .status()
        .is_ok_and(|s| s.success());
    if !chowned {
        crate::common::skip("cannot give a file to another user here (not root)");
        return;
    }
    let (code, _, err) = env.run(&["sweep"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("belongs to user"), "{err}");
    assert_eq!(
        std::fs::read_to_string(spool(&env)).unwrap(),
        line,
        "left as it was"
    );
    let (code, _, _) = hook(&env, T0, &stop_payload(C), &[]);
    assert_eq!(code, 0);
    assert_eq!(events(&env).len(), 1);
}

/// On a full disk (a small tmpfs in a mount namespace of its own) a hook
/// can write neither the database nor the spool: it still exits 0, and
/// every lost event is counted where `status` and `check` report it.
#[test]
fn events_lost_on_a_full_disk_are_counted_and_reported() {
    let env = Env::new();
    let disk = env.path("disk");
    std::fs::create_dir(&disk).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sessionkit");
    let payload = env.path("payload.json");
    std::fs::write(&payload, stop_payload(C)).unwrap();
    let script = format!(
        "mount -t tmpfs -o size=4m none '{d}' || exit 99
         export SESSIONKIT_DB='{d}/sk.db' SESSIONKIT_HOOK_BUDGET_MS=500
         '{bin}' hook event --delivery-id first < '{p}' || exit 98
         dd if=/dev/zero of='{d}/fill' bs=4096 2>/dev/null
         for i in 1 2 3 4 5 6 7 8 9 10; do
           '{bin}' hook event --delivery-id lost-$i < '{p}' 2>>'{e}/hooks.err'; echo \"rc=$?\" >> '{e}/codes'
         done
         rm '{d}/fill'
         '{bin}' status >/dev/null 2>'{e}/status.err'
         '{bin}' check --no-recount --format jsonl >'{e}/check.out' 2>/dev/null
         exit 0",
        d = disk.display(),
        bin = bin.display(),
        p = payload.display(),
        e = env.dir.path().display(),
    );
    let out = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .env("HOME", env.path("home"))
        .env("SESSIONKIT_NOW", T0)
        .output();
    let Some(out) = out.ok().filter(|o| o.status.code() == Some(0)) else {
        return crate::common::skip(
            "no mount namespace here (unshare -rm): the full-disk hook is not tried",
        );
    };
    let _ = out;
    let read = |f: &str| std::fs::read_to_string(env.path(f)).unwrap_or_default();
    assert_eq!(read("codes"), "rc=0\n".repeat(10));
    let hooks = read("hooks.err");
    assert!(hooks.contains("the event is lost, counted in"), "{hooks}");
    let status = read("status.err");
    assert!(
        status.contains(
            "10 hook event(s) were lost: neither the database nor the spool could be written"
        ),
        "{status}"
    );
    let check = read("check.out");
    assert!(check.contains("\"kind\":\"events-lost\""), "{check}");
    assert!(check.contains("10 hook event(s) were lost"), "{check}");
}

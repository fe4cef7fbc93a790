//! The negative catalogue: each bad input has an exact outcome and
//! leaves the database consistent.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;

const S1: &str = "aaaaaaaa-0000-4000-8000-000000000001";
const S2: &str = "aaaaaaaa-0000-4000-8000-000000000002";

fn rec(sid: &str, mid: &str, ts: &str, out: u64) -> String {
    format!(
        r#"{{"type":"assistant","sessionId":"{sid}","timestamp":"{ts}","cwd":"/w/proj","message":{{"id":"{mid}","model":"claude-sonnet-4-5-20250929","usage":{{"input_tokens":1,"output_tokens":{out}}}}}}}"#
    )
}

/// `ingest --root ROOT --max-line-size CAP`, its JSON summary.
fn ingest_capped(env: &Env, root: &Path, cap: usize) -> serde_json::Value {
    env.json(&[
        "ingest",
        "--root",
        root.to_str().unwrap(),
        "--max-line-size",
        &cap.to_string(),
    ])
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The line numbers of the degraded lines `show` lists.
fn degraded_lines(show: &Value) -> Vec<u64> {
    show["degraded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].as_u64().unwrap())
        .collect()
}

/// A corpus root with one good session `S1` under `slug`.
fn corpus(env: &Env) -> PathBuf {
    let root = env.path("projects");
    write(
        &root.join(format!("-w-proj/{S1}.jsonl")),
        &format!("{}\n", rec(S1, "m1", "2026-01-01T00:00:00Z", 5)),
    );
    root
}

fn skipped(s: &Value, reason: &str) -> u64 {
    s["skipped"][reason].as_u64().unwrap()
}

/// Checks the database a killed run left; false when it has no schema yet.
fn consistent(env: &Env) -> bool {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let ok: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let fk: i64 = c
        .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(fk, 0);
    // Killed before its migrations committed: an empty file, not a half schema.
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    if version == 0 {
        let tables: i64 = c
            .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0);
        return false;
    }
    let orphans: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM token_usage t WHERE NOT EXISTS
               (SELECT 1 FROM usage_observations o WHERE o.message_id = t.message_id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);
    true
}

#[test]
fn malformed_middle_line_degrades_only_its_session() {
    let env = Env::new();
    let root = corpus(&env);
    let text = format!(
        "{}\n{{\"type\":\"assistant\",broken\n{}\n",
        rec(S2, "m2", "2026-01-02T00:00:00Z", 7),
        rec(S2, "m3", "2026-01-02T00:01:00Z", 9)
    );
    write(&root.join(format!("-w-proj/{S2}.jsonl")), &text);
    let s = env.ingest(&root);
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_degraded"].as_u64()),
        (Some(2), Some(1))
    );
    let show = env.json(&["show", S2]);
    assert_eq!(show["degraded_lines"], 1);
    assert_eq!(
        show["output_tokens"], 16,
        "the good lines around it still count"
    );
    assert_eq!(show["degraded"][0]["file"], format!("-w-proj/{S2}.jsonl"));
    assert_eq!(show["degraded"][0]["line"], 2);
    assert!(
        show["degraded"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON: ")
    );
    let listed = env.json(&["sessions", "--degraded"]);
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["session_id"], S2);
    let (code, out, _) = env.run(&["check", "--no-recount", "--format", "jsonl"]);
    assert_eq!(code, 1);
    let f: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        (f["kind"].as_str(), f["line"].as_i64()),
        (Some("degraded-line"), Some(2))
    );
    assert!(consistent(&env));
}

#[test]
fn strict_fails_the_session_and_exits_1() {
    let env = Env::new();
    let root = corpus(&env);
    write(
        &root.join(format!("-w-proj/{S2}.jsonl")),
        &format!(
            "not json at all\n{}\n",
            rec(S2, "m2", "2026-01-02T00:00:00Z", 7)
        ),
    );
    let (code, out, err) = env.run(&[
        "ingest",
        "--strict",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(s["failures"][0]["session_id"], S2);
    assert_eq!(s["failures"][0]["attempt"], 1);
    assert!(
        s["failures"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with(&format!("--strict: -w-proj/{S2}.jsonl:1: invalid JSON")),
        "{}",
        s["failures"][0]["reason"]
    );
    assert!(
        err.contains(&format!("session {S2} failed (attempt 1, will retry)")),
        "{err}"
    );
    // Retried next run; quarantined at the third failure; skipped after that.
    for (attempt, failed, quarantined) in [(2, 1, 0), (3, 0, 1)] {
        let (_, out, _) = env.run(&[
            "ingest",
            "--strict",
            "--root",
            root.to_str().unwrap(),
            "--format",
            "json",
        ]);
        let s: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(s["failures"][0]["attempt"], attempt);
        assert_eq!(
            (
                s["sessions_failed"].as_u64(),
                s["sessions_quarantined"].as_u64()
            ),
            (Some(failed), Some(quarantined))
        );
    }
    let (code, out, _) = env.run(&[
        "ingest",
        "--strict",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(code, 0, "a quarantined session is not re-read");
    assert_eq!(
        (s["sessions_quarantined"].as_u64(), s["bytes_read"].as_u64()),
        (Some(1), Some(0))
    );
    // Without --strict the session's files have not changed: still quarantined.
    let s = env.ingest(&root);
    assert_eq!(s["sessions_quarantined"], 1);
    // Changing its files re-admits it.
    let f = root.join(format!("-w-proj/{S2}.jsonl"));
    write(
        &f,
        &format!("{}\n", rec(S2, "m2", "2026-01-02T00:00:00Z", 7)),
    );
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_new"].as_u64(),
            s["sessions_quarantined"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert!(consistent(&env));
}

/// Not read until it ends, and said so meanwhile: its file is degraded.
#[test]
fn truncated_final_line_is_a_write_in_progress() {
    let env = Env::new();
    let root = corpus(&env);
    let f = root.join(format!("-w-proj/{S2}.jsonl"));
    let full = rec(S2, "m2", "2026-01-02T00:01:00Z", 9);
    let first = rec(S2, "m1b", "2026-01-02T00:00:00Z", 7);
    write(&f, &format!("{first}\n{}", &full[..40]));
    let s = env.ingest(&root);
    assert_eq!(s["sessions_degraded"], 1);
    assert_eq!(env.json(&["show", S2])["output_tokens"], 7);
    assert_eq!(env.json(&["show", S2])["degraded_lines"], 1);
    write(&f, &format!("{first}\n{full}\n"));
    let s = env.ingest(&root);
    assert_eq!(
        (
            s["sessions_updated"].as_u64(),
            s["sessions_degraded"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(env.json(&["show", S2])["output_tokens"], 16);
    assert_eq!(env.json(&["show", S2])["degraded_lines"], 0);
}

#[test]
fn symlinked_file_and_directory_are_skipped() {
    let env = Env::new();
    let root = corpus(&env);
    let outside = env.path("outside");
    write(
        &outside.join(format!("{S2}.jsonl")),
        &format!("{}\n", rec(S2, "m2", "2026-01-02T00:00:00Z", 7)),
    );
    std::os::unix::fs::symlink(
        outside.join(format!("{S2}.jsonl")),
        root.join(format!("-w-proj/{S2}.jsonl")),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, root.join("-linked-slug")).unwrap();
    let s = env.ingest(&root);
    assert_eq!(skipped(&s, "symlink"), 2);
    assert_eq!(s["sessions_new"], 1);
    assert_eq!(db_by_session(&env).len(), 1);
}

/// A file has no size cap; a line over the line cap is one
/// degraded line (file, line number, reason) of a session that is still
/// ingested, with the lines around it. Every skipped path is named in the
/// summary with its reason.
#[test]
fn long_line_degrades_its_session_and_fifo_empty_backslash_and_stray_files_are_named() {
    let env = Env::new();
    let root = corpus(&env);
    let big = "x".repeat(400);
    write(
        &root.join(format!("-w-proj/{S2}.jsonl")),
        &format!(
            "{}\n{big}\n{}\n",
            rec(S2, "m2", "2026-01-02T00:00:00Z", 7),
            rec(S2, "m3", "2026-01-02T00:01:00Z", 9)
        ),
    );
    let fifo = root.join("-w-proj/aaaaaaaa-0000-4000-8000-000000000003.jsonl");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
    #[allow(unsafe_code)]
    let made = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(made, 0);
    write(
        &root.join("-w-proj/aaaaaaaa-0000-4000-8000-000000000004.jsonl"),
        "",
    );
    write(&root.join("-w-proj/back\\slash.jsonl"), "{}\n");
    write(&root.join("-w-proj/notes.txt"), "hello\n");
    let s = ingest_capped(&env, &root, 300);
    assert_eq!(skipped(&s, "oversize"), 0);
    assert_eq!(skipped(&s, "not-regular-file"), 1);
    assert_eq!(skipped(&s, "empty"), 1);
    assert_eq!(skipped(&s, "bad-name"), 1);
    assert_eq!(skipped(&s, "non-artifact"), 1);
    assert_eq!(
        s["skipped_paths"],
        serde_json::json!([
            {"path": "-w-proj/aaaaaaaa-0000-4000-8000-000000000003.jsonl", "reason": "not-regular-file"},
            {"path": "-w-proj/back\\slash.jsonl", "reason": "bad-name"},
            {"path": "-w-proj/aaaaaaaa-0000-4000-8000-000000000004.jsonl", "reason": "empty"},
            {"path": "-w-proj/notes.txt", "reason": "non-artifact"},
        ])
    );
    assert_eq!(
        s["sessions_new"], 2,
        "the long line does not lose its session"
    );
    assert_eq!(s["sessions_degraded"], 1);
    let show = env.json(&["show", S2]);
    assert_eq!(show["output_tokens"], 16, "the lines around it count");
    assert_eq!(show["degraded"][0]["file"], format!("-w-proj/{S2}.jsonl"));
    assert_eq!(show["degraded"][0]["line"], 2);
    assert_eq!(
        show["degraded"][0]["reason"],
        "line of 401 bytes is over the 300-byte line cap (ingest.max_line_size); not read"
    );
    assert!(consistent(&env));
}

/// A session larger than several read blocks (8 MiB), alone in
/// its run so a spare core scans part of each block: every message counts,
/// and the degraded lines have the numbers one thread gives them (a plain
/// split on newlines), wherever they fall among the blocks and their splits.
#[test]
fn a_session_of_many_blocks_read_on_two_threads_counts_every_line() {
    let env = Env::new();
    let root = env.path("projects");
    let pad = "p".repeat(3_000);
    let mut text = String::new();
    let mut output = 0u64;
    let mut bad = Vec::new();
    for i in 1..=9_000u64 {
        if i % 997 == 0 {
            text.push_str(&format!(
                "{{\"type\":\"user\",\"pad\":\"{}\"}}\n",
                "x".repeat(4_000)
            ));
            bad.push(i);
        } else if i % 101 == 0 {
            text.push_str("{\"type\":\"user\",broken}\n");
            bad.push(i);
        } else {
            let line = rec(S2, &format!("m{i}"), "2026-01-02T00:00:00Z", i);
            // Long lines: ~27 MB in all, over three read blocks.
            text.push_str(&line[..line.len() - 1]);
            text.push_str(&format!(",\"pad\":\"{pad}\"}}\n"));
            output += i;
        }
    }
    assert!(text.len() > 3 * (8 << 20), "{}", text.len());
    write(&root.join(format!("-w-proj/{S2}.jsonl")), &text);
    let s = ingest_capped(&env, &root, 3600);
    assert_eq!(s["sessions_new"], 1);
    assert_eq!(s["sessions_degraded"], 1);
    let show = env.json(&["show", S2]);
    assert_eq!(show["output_tokens"], output);
    assert_eq!(degraded_lines(&show), bad);
    assert!(consistent(&env));
}

/// Migration 0018: a session's later parts write their rows to
/// new bands of 16,384 rows, appended after the session's earlier rows,
/// not spread over its whole key range. Read in 1 MiB parts, in bulk and
/// not, then grown by a tail that repeats messages of every band with a
/// larger output, a session of 40,000 messages holds what one whole read
/// gives: one row per message, the larger output of the two.
#[test]
fn a_session_read_in_parts_spans_bands_and_equals_one_read() {
    let id = |i: u64| format!("msg_{:016x}", i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    // Padded to three read blocks (8 MiB), the unit a part is cut in.
    let pad = "p".repeat(400);
    let line = |i: u64, out: u64| {
        let r = rec(S2, &id(i), "2026-01-02T00:00:00Z", out);
        format!("{},\"pad\":\"{pad}\"}}\n", &r[..r.len() - 1])
    };
    let mut head = String::new();
    let mut output = 0u64;
    for i in 1..=40_000u64 {
        let out = if i % 1000 == 1 { 5 } else { i % 1000 + 1 };
        head.push_str(&line(i, out));
        output += out;
    }
    let mut tail = String::new();
    for i in (1..=40_000u64).step_by(1000) {
        tail.push_str(&line(i, 5_000));
        output += 5_000 - 5;
    }
    for i in 40_001..=40_100u64 {
        tail.push_str(&line(i, 7));
        output += 7;
    }
    assert!(head.len() > 3 * (8 << 20), "{}", head.len());
    let rel = format!("-w-proj/{S2}.jsonl");
    let whole = Env::new();
    write(&whole.path("projects").join(&rel), &format!("{head}{tail}"));
    whole.ingest(&whole.path("projects"));
    const USAGE: &str = "SELECT * FROM token_usage ORDER BY message_id";
    const ROLLUP: &str = "SELECT * FROM usage_rollup ORDER BY 1, 2, 3, 4";
    assert_eq!(whole.rows(USAGE).len(), 40_100);
    for bulk in ["1", "18446744073709551615"] {
        let env = Env::new();
        let root = env.path("projects");
        write(&root.join(&rel), &head);
        let ingest = |env: &Env| {
            env.cmd()
                .env("SESSIONKIT_PART_BYTES", "1048576")
                .env("SESSIONKIT_BULK_BYTES", bulk)
                .args(["ingest", "--root", root.to_str().unwrap(), "--quiet"])
                .assert()
                .success();
        };
        ingest(&env);
        assert_eq!(env.scalar("SELECT MAX(band) FROM usage_observations"), 2);
        std::fs::OpenOptions::new()
            .append(true)
            .open(root.join(&rel))
            .unwrap()
            .write_all(tail.as_bytes())
            .unwrap();
        ingest(&env);
        let show = env.json(&["show", S2]);
        assert_eq!(show["output_tokens"], output, "bulk {bulk}");
        assert_eq!(
            env.scalar(
                "SELECT COUNT(*) FROM (SELECT 1 FROM usage_observations
                 GROUP BY session_id, message_id HAVING COUNT(*) > 1)"
            ),
            0,
            "bulk {bulk}: a message held twice"
        );
        assert_eq!(env.rows(USAGE), whole.rows(USAGE), "bulk {bulk}");
        assert_eq!(env.rows(ROLLUP), whole.rows(ROLLUP), "bulk {bulk}");
        assert!(consistent(&env));
    }
    assert_eq!(whole.json(&["show", S2])["output_tokens"], output);
}

/// A session alone in its run has its next block read, and the
/// block's later lines scanned, on another thread while it parses the
/// last. Lines that cross block boundaries (of 8 MiB) join as when read in
/// turn: one of 3 MiB, one over the line cap that spans a whole block
/// (skipped to its newline as one degraded line, numbered as a plain split
/// numbers it), and the ordinary lines around them.
#[test]
fn lines_across_blocks_read_ahead_join_as_read_in_turn() {
    const MIB: usize = 1 << 20;
    let env = Env::new();
    let root = env.path("projects");
    let padded = |i: u64, out: u64, pad: usize| {
        let r = rec(S2, &format!("m{i}"), "2026-01-02T00:00:00Z", out);
        format!("{},\"pad\":\"{}\"}}\n", &r[..r.len() - 1], "p".repeat(pad))
    };
    let mut text = String::new();
    let mut output = 0u64;
    let mut bad = Vec::new();
    let mut i = 0u64;
    // Ordinary lines up to `to` bytes.
    let fill = |text: &mut String, output: &mut u64, i: &mut u64, to: usize| {
        while text.len() < to {
            *i += 1;
            text.push_str(&padded(*i, *i, 900));
            *output += *i;
        }
    };
    fill(&mut text, &mut output, &mut i, 6 * MIB);
    // 3 MiB from 6 MiB on, across the first boundary.
    i += 1;
    text.push_str(&padded(i, 1_000_000, 3 * MIB));
    output += 1_000_000;
    fill(&mut text, &mut output, &mut i, 15 * MIB);
    // 20 MiB, over the 4 MiB cap, from before the second boundary to past
    // the fourth: a whole block read while skipping it.
    i += 1;
    let long = padded(i, 2_000_000, 20 * MIB);
    text.push_str(&long);
    bad.push(i);
    fill(&mut text, &mut output, &mut i, 40 * MIB);
    let lines = i;
    write(&root.join(format!("-w-proj/{S2}.jsonl")), &text);
    let s = ingest_capped(&env, &root, 4 * MIB);
    assert_eq!(s["sessions_new"], 1);
    assert_eq!(s["messages_read"], lines - 1);
    let show = env.json(&["show", S2]);
    assert_eq!(show["output_tokens"], output);
    assert_eq!(degraded_lines(&show), bad);
    assert_eq!(
        show["degraded"][0]["reason"],
        format!(
            "line of {} bytes is over the {}-byte line cap (ingest.max_line_size); not read",
            long.len(),
            4 * MIB
        )
    );
    assert!(consistent(&env));
}

/// Found by src/services/ingest/ahead_tests.rs: a session read in turn (not
/// alone in its run) whose overlong line ran into the file's last block
/// lost the lines after that line: they were read while skipping it, and
/// the run ended there. A second run found the file unchanged, so they
/// stayed lost. They count now, and the cursor is at the end of the file.
#[test]
fn regression_lines_after_an_overlong_line_in_the_last_block_are_read() {
    const MIB: usize = 1 << 20;
    let env = Env::new();
    let root = env.path("projects");
    let mut text = format!("{}\n", rec(S2, "m0", "2026-01-02T00:00:00Z", 5));
    // 8.5 MiB: over the 64 KiB cap, from the first 8 MiB block into the last.
    let r = rec(S2, "long", "2026-01-02T00:00:01Z", 1_000);
    let long = format!(
        "{},\"pad\":\"{}\"}}\n",
        &r[..r.len() - 1],
        "p".repeat(8 * MIB + MIB / 2)
    );
    text.push_str(&long);
    for (i, out) in [(1, 100), (2, 20_000), (3, 300_000)] {
        text.push_str(&format!(
            "{}\n",
            rec(S2, &format!("after{i}"), "2026-01-02T00:00:02Z", out)
        ));
    }
    write(&root.join(format!("-w-proj/{S2}.jsonl")), &text);
    // A second session, so that on two cores neither is read ahead.
    let other: String = (0..2_000)
        .map(|i| format!("{}\n", rec(S1, &format!("o{i}"), "2026-01-02T00:00:00Z", 1)))
        .collect();
    write(&root.join(format!("-w-proj/{S1}.jsonl")), &other);
    let s = ingest_capped(&env, &root, 64 << 10);
    assert_eq!(s["sessions_new"], 2);
    assert_eq!(s["messages_read"], 2_004);
    let show = env.json(&["show", S2]);
    assert_eq!(show["output_tokens"], 5 + 100 + 20_000 + 300_000);
    assert_eq!(degraded_lines(&show), vec![2]);
    let again = ingest_capped(&env, &root, 64 << 10);
    assert_eq!(again["sessions_unchanged"], 2);
    assert_eq!(again["messages_read"], 0);
    assert!(consistent(&env));
}

#[test]
fn unreadable_file_is_skipped_and_retried() {
    // SAFETY: geteuid has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    let euid = unsafe { libc::geteuid() };
    if euid == 0 {
        skip("root reads any file (the reader's unreadable path has a unit test)");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let root = corpus(&env);
    let f = root.join(format!("-w-proj/{S2}.jsonl"));
    write(
        &f,
        &format!("{}\n", rec(S2, "m2", "2026-01-02T00:00:00Z", 7)),
    );
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o000)).unwrap();
    let s = env.ingest(&root);
    assert_eq!(skipped(&s, "unreadable"), 1);
    assert_eq!(s["sessions_failed"], 1);
    assert_eq!(
        s["failures"][0]["reason"],
        "main transcript unreadable: permission denied"
    );
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"], 1);
}

#[test]
fn same_session_under_two_slugs_keeps_the_smallest_slug() {
    let env = Env::new();
    let root = corpus(&env);
    write(
        &root.join(format!("-a-first/{S1}.jsonl")),
        &format!("{}\n", rec(S1, "m1", "2026-01-01T00:00:00Z", 5)),
    );
    let s = env.ingest(&root);
    assert_eq!(skipped(&s, "duplicate-session"), 1);
    assert_eq!(env.json(&["show", S1])["project_slug"], "-a-first");
}

#[test]
fn message_repeated_across_two_sessions_is_counted_once() {
    let env = Env::new();
    let root = corpus(&env);
    // S2 natively claims the same message id with a larger output.
    write(
        &root.join(format!("-w-proj/{S2}.jsonl")),
        &format!("{}\n", rec(S2, "m1", "2026-01-02T00:00:00Z", 8)),
    );
    let s = env.ingest(&root);
    assert_eq!(s["token_rows"], 1);
    let by = db_by_session(&env);
    assert_eq!(
        by[S1],
        [1, 8, 0, 0, 0],
        "smallest session id owns it, with the per-bucket max"
    );
    assert_eq!(by[S2], [0, 0, 0, 0, 0]);
}

#[test]
fn flat_agent_without_its_session_is_an_orphan() {
    let env = Env::new();
    let root = corpus(&env);
    write(
        &root.join("-w-proj/agent-0a1b.jsonl"),
        &format!("{}\n", rec(S2, "m9", "2026-01-02T00:00:00Z", 3)),
    );
    let s = env.ingest(&root);
    assert_eq!(skipped(&s, "orphan-agent"), 1);
    // Its owner was learned once: the next run reads no byte.
    let s = env.ingest(&root);
    assert_eq!(s["bytes_read"], 0);
}

#[test]
fn kill_mid_run_then_rerun_completes_the_work() {
    kill_then_rerun("67108864");
}

#[test]
fn kill_mid_bulk_run_then_rerun_completes_the_work() {
    kill_then_rerun("1");
}

fn kill_then_rerun(bulk_bytes: &str) {
    let env = Env::new();
    let root = env.path("projects");
    for i in 0..300 {
        let sid = format!("bbbbbbbb-0000-4000-8000-{i:012}");
        let mut text = String::new();
        for j in 0..40 {
            text.push_str(&rec(&sid, &format!("m{i}-{j}"), "2026-01-02T00:00:00Z", j));
            text.push('\n');
        }
        write(&root.join(format!("-w-p{}/{sid}.jsonl", i % 7)), &text);
    }
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sessionkit"))
        .args(["ingest", "--root", root.to_str().unwrap(), "--quiet"])
        .env("SESSIONKIT_DB", env.db())
        .env("SESSIONKIT_NOW", NOW)
        .env("SESSIONKIT_BULK_BYTES", bulk_bytes)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(60));
    let _ = child.kill();
    let _ = child.wait();
    if env.db().exists() && consistent(&env) {
        let bad = env.scalar("SELECT COUNT(*) FROM ingest_checkpoints k WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = k.session_id)");
        assert_eq!(bad, 0, "a checkpoint commits with its session");
    }
    env.ingest(&root);
    let fresh = Env::new();
    fresh.ingest(&root);
    assert_eq!(env.dump(), fresh.dump());
}

/// A read command given a `--db` that is not there says so, names it and
/// creates nothing (a mistyped path is not an empty database); a writer
/// still makes it.
#[test]
fn a_read_command_on_a_missing_db_is_an_error_and_creates_nothing() {
    let env = Env::new();
    let typo = env.path("sessionkti.db");
    for args in [
        &["sessions"][..],
        &["cost"],
        &["status"],
        &["search", "billing"],
        &["tree", "--all"],
    ] {
        let (code, out, err) = env.run(&[&["--db", typo.to_str().unwrap()][..], args].concat());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "there is no database at {} (--db)",
                typo.display()
            )),
            "{args:?}: {err}"
        );
        assert!(
            std::fs::symlink_metadata(&typo).is_err(),
            "{args:?} created it"
        );
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude/projects");
    let (code, _, err) = env.run(&[
        "--db",
        typo.to_str().unwrap(),
        "ingest",
        "--root",
        root.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = env.run(&[
        "--db",
        typo.to_str().unwrap(),
        "sessions",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("11111111-1111-4111-8111-111111111111"));
}

/// A URL with a password is never stored as a setting: the closer's
/// endpoint is refused, masked, as push.url is.
#[test]
fn a_setting_never_stores_a_url_password() {
    let env = Env::new();
    for key in ["closer.endpoint", "push.url"] {
        let url = if key == "push.url" {
            "postgres://sk:pa55w0rd@db/app"
        } else {
            "https://sk:pa55w0rd@llm.example"
        };
        let (code, _, err) = env.run(&["config", "set", key, url]);
        assert_eq!(code, 2, "{key}: {err}");
        assert!(err.contains("carries a password"), "{err}");
        assert!(
            err.contains("sk:***@") && !err.contains("pa55w0rd"),
            "{err}"
        );
    }
    assert!(!env.dump().contains("pa55w0rd"));
}

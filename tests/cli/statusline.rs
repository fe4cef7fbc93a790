//! `sessionkit statusline`: Claude Code's status line command. Payloads are
//! built from Claude Code's documented statusLine schema (session_id,
//! transcript_path, model, cost, context_window, rate_limits with
//! used_percentage and resets_at in Unix seconds).

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::Env;

const SID: &str = "5a000000-0000-4000-8000-00000000000a";

/// Writes a Claude Code transcript of session `sid` in `home/.claude`:
/// one claude-sonnet-4-5 message ($3 / $15 per million input / output
/// tokens) per (id, time, input, output).
fn write_transcript(
    env: &Env,
    sid: &str,
    messages: &[(&str, &str, u64, u64)],
) -> std::path::PathBuf {
    let dir = env.path("home/.claude/projects/-w-shop");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for (id, at, input, output) in messages {
        let line = json!({
            "type": "assistant", "sessionId": sid, "uuid": format!("u-{id}"),
            "timestamp": at, "cwd": "/w/shop",
            "message": {"id": id, "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "ok"}],
                "usage": {"input_tokens": input, "output_tokens": output,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
        });
        text.push_str(&format!("{line}\n"));
    }
    let path = dir.join(format!("{sid}.jsonl"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Two priced messages. Yesterday (UTC) 150,000 in and 10,000 out: $0.45 +
/// $0.15 = $0.60; today 100,000 in and 40,000 out: $0.30 + $0.60 = $0.90.
/// The session: $1.50.
fn transcript(env: &Env) -> std::path::PathBuf {
    write_transcript(
        env,
        SID,
        &[
            ("msg_1", "2026-01-31T23:50:00.000Z", 150_000, 10_000),
            ("msg_2", "2026-02-01T09:30:00.000Z", 100_000, 40_000),
        ],
    )
}

/// Unix seconds of an RFC 3339 instant.
fn secs(at: &str) -> i64 {
    at.parse::<jiff::Timestamp>().unwrap().as_second()
}

fn payload(env: &Env, five_hour_pct: f64) -> Value {
    json!({
        "session_id": SID,
        "transcript_path": transcript(env),
        "cwd": "/w/shop",
        "model": {"id": "claude-sonnet-4-5", "display_name": "Sonnet 4.5"},
        "version": "2.1.332",
        "cost": {"total_cost_usd": 2.1, "total_duration_ms": 600000},
        "context_window": {"used_percentage": 42.4, "context_window_size": 200000},
        "rate_limits": {
            "five_hour": {"used_percentage": five_hour_pct, "resets_at": secs("2026-02-01T13:00:00Z")},
            "seven_day": {"used_percentage": 41.2, "resets_at": secs("2026-02-03T14:00:00Z")}
        }
    })
}

/// Runs the status line at `now` with `stdin`; (exit code, stdout, stderr).
fn statusline(env: &Env, now: &str, stdin: &[u8], args: &[&str]) -> (i32, String, String) {
    let mut child = env
        .std_cmd()
        .env("SESSIONKIT_NOW", now)
        .env("TZ", "UTC")
        .arg("statusline")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn bytes(v: &Value) -> Vec<u8> {
    v.to_string().into_bytes()
}

/// The session's cost is exact, from its transcript (caught up by this
/// call); today's is since midnight; the five-hour window is 30 % used two
/// hours in (15 points an hour), 75 % at its reset three hours on.
#[test]
fn the_line_has_exact_costs_the_limits_and_their_pace() {
    let env = Env::new();
    let (code, out, err) = statusline(
        &env,
        "2026-02-01T10:00:00Z",
        &bytes(&payload(&env, 30.0)),
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Sonnet 4.5 | $1.50 session | $0.90 today | 5h 30% (3h00m) | 7d 41% (2d4h) | 15.0%/h → 75% at reset\n"
    );
    assert_eq!(err, "");
    // The transcript was read by tail resume: the session is in the store.
    assert_eq!(env.scalar("SELECT COUNT(*) FROM sessions"), 1);
}

/// One snapshot per change: the same state again stores nothing; a new
/// share is stored, and the pace is then read from the window's first
/// snapshot (30 % at 10:00 to 40 % at 11:00: 10 an hour, 60 % at 13:00).
#[test]
fn a_snapshot_is_kept_per_change_and_the_pace_follows_them() {
    let env = Env::new();
    let p30 = bytes(&payload(&env, 30.0));
    statusline(&env, "2026-02-01T10:00:00Z", &p30, &[]);
    statusline(&env, "2026-02-01T10:30:00Z", &p30, &[]);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM rate_limit_snapshots"), 1);
    let (code, out, _) = statusline(
        &env,
        "2026-02-01T11:00:00Z",
        &bytes(&payload(&env, 40.0)),
        &[],
    );
    assert_eq!(code, 0);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM rate_limit_snapshots"), 2);
    assert!(
        out.ends_with("| 5h 40% (2h00m) | 7d 41% (2d3h) | 10.0%/h → 60% at reset\n"),
        "{out}"
    );
    assert_eq!(
        env.rows(
            "SELECT observed_at, five_hour_pct, five_hour_resets_at, seven_day_pct, context_pct, stated_cost_nanousd FROM rate_limit_snapshots ORDER BY snapshot_id"
        ),
        vec![
            "Integer(1769940000000)|Real(30.0)|Integer(1769950800000)|Real(41.2)|Real(42.4)|Integer(2100000000)".to_string(),
            "Integer(1769943600000)|Real(40.0)|Integer(1769950800000)|Real(41.2)|Real(42.4)|Integer(2100000000)".to_string(),
        ]
    );
}

/// Without rate limits (an API key, or before the first response) the line
/// has the costs only; without a transcript, the session's cost is Claude
/// Code's own figure.
#[test]
fn what_was_not_stated_is_left_out() {
    let env = Env::new();
    let mut p = payload(&env, 30.0);
    p.as_object_mut().unwrap().remove("rate_limits");
    p.as_object_mut().unwrap().remove("transcript_path");
    let (code, out, _) = statusline(&env, "2026-02-01T10:00:00Z", &bytes(&p), &[]);
    assert_eq!(code, 0);
    assert_eq!(out, "Sonnet 4.5 | $2.10 session | $0.00 today\n");
}

/// A template picks the fields; colour only when asked (the five-hour
/// share is judged by where it ends up: 75 % at the reset is yellow).
#[test]
fn a_template_and_colour_on_request() {
    let env = Env::new();
    let p = bytes(&payload(&env, 30.0));
    let at = "2026-02-01T10:00:00Z";
    let (_, out, _) = statusline(
        &env,
        at,
        &p,
        &[
            "--template",
            "{model}: ctx {context}, 5h {five_hour} {{left {five_hour_reset}}}",
        ],
    );
    assert_eq!(out, "Sonnet 4.5: ctx 42%, 5h 30% {left 3h00m}\n");
    let (_, out, _) = statusline(
        &env,
        at,
        &p,
        &["--color", "always", "--template", "{five_hour} {seven_day}"],
    );
    assert_eq!(out, "\x1b[33m30%\x1b[0m \x1b[32m41%\x1b[0m\n");
}

/// The status line never fails: bad input, a bad template, a database that
/// cannot open, a bad flag all print a minimal line and exit 0.
#[test]
fn it_never_fails_the_status_line() {
    let env = Env::new();
    let (code, out, err) = statusline(&env, "2026-02-01T10:00:00Z", b"{not json", &[]);
    assert_eq!((code, out.as_str()), (0, "sessionkit\n"));
    assert!(
        err.starts_with("sessionkit statusline: the status line's input is not JSON"),
        "{err}"
    );
    let p = bytes(&payload(&env, 30.0));
    let (code, out, err) = statusline(&env, "2026-02-01T10:00:00Z", &p, &["--template", "{nope}"]);
    assert_eq!((code, out.as_str()), (0, "Sonnet 4.5\n"));
    assert!(
        err.contains("no field {nope}; the fields: burn, context, five_hour"),
        "{err}"
    );
    std::fs::create_dir_all(env.path("a-directory")).unwrap();
    let db = env.path("a-directory");
    let (code, out, _) = statusline(
        &env,
        "2026-02-01T10:00:00Z",
        &p,
        &["--db", db.to_str().unwrap()],
    );
    assert_eq!((code, out.as_str()), (0, "Sonnet 4.5\n"));
    let (code, out, err) = statusline(&env, "2026-02-01T10:00:00Z", &p, &["--bogus"]);
    assert_eq!((code, out.as_str()), (0, "sessionkit\n"));
    assert!(err.contains("--bogus"), "{err}");
}

/// Five-hour blocks from message times, hand-computed: 09:17 opens a block
/// at 09:00 (to 14:00) holding 10:05 too; 14:16 opens one at 14:00 holding
/// 18:59; 19:30 opens one at 19:00. Each message is 100,000 input tokens
/// ($0.30). The same from the hourly rollup and from every message (a
/// bound inside an hour).
#[test]
fn cost_by_block_follows_the_five_hour_rule() {
    let env = Env::new();
    let at = |t: &str| format!("2026-02-01T{t}:00.000Z");
    let times = ["09:17", "10:05", "14:16", "18:59", "19:30"];
    let msgs: Vec<(String, String)> = times
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("m{i}"), at(t)))
        .collect();
    let msgs: Vec<(&str, &str, u64, u64)> = msgs
        .iter()
        .map(|(i, t)| (i.as_str(), t.as_str(), 100_000, 0))
        .collect();
    write_transcript(&env, SID, &msgs);
    env.ingest(&env.path("home/.claude/projects"));
    for extra in [&[][..], &["--since", "2026-02-01T09:10:00Z"][..]] {
        let rows = env.cost_rows(&[&["--by", "block"][..], extra].concat());
        let got: Vec<(String, u64, String)> = rows
            .iter()
            .map(|r| {
                (
                    r["block"].as_str().unwrap().to_string(),
                    r["messages"].as_u64().unwrap(),
                    r["cost_usd"].to_string(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("2026-02-01T09:00:00.000Z".to_string(), 2, "0.6".to_string()),
                ("2026-02-01T14:00:00.000Z".to_string(), 2, "0.6".to_string()),
                ("2026-02-01T19:00:00.000Z".to_string(), 1, "0.3".to_string()),
            ],
            "{extra:?}"
        );
        assert_eq!(rows[0]["block_ends_at"], "2026-02-01T14:00:00.000Z");
    }
    // A table shows a block's start and end in the zone asked for, short
    // enough to fit 80 columns.
    let (code, out, err) = env.run_with_env(
        &[
            "cost",
            "--by",
            "block",
            "--format",
            "table",
            "--tz",
            "Asia/Tokyo",
        ],
        &[("COLUMNS", "80"), ("NO_COLOR", "1")],
    );
    assert_eq!(code, 0, "{err}");
    let first = out.lines().nth(1).unwrap();
    assert!(first.starts_with("2026-02-01 18:00  23:00 "), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
}

/// `--since today` and the other calendar words are spans in `--tz`.
#[test]
fn cost_takes_calendar_words() {
    let env = Env::new();
    transcript(&env);
    env.ingest(&env.path("home/.claude/projects"));
    let total = |args: &[&str]| -> String {
        let (code, out, err) = env.run_at(
            "2026-02-01T10:00:00Z",
            &[
                &["cost", "--by", "day", "--tz", "UTC", "--format", "json"][..],
                args,
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        v["totals"]["cost_usd"].to_string()
    };
    assert_eq!(total(&["--since", "today"]), "0.9");
    assert_eq!(
        total(&["--since", "yesterday", "--until", "yesterday"]),
        "0.6"
    );
    assert_eq!(total(&["--since", "this-week"]), "1.5");
    assert_eq!(
        total(&["--since", "last-month", "--until", "last-month"]),
        "0.6"
    );
}

/// The recorded history, hand-computed: the stated five-hour window (08:00
/// to 13:00; 30 % at 10:00, 40 % at 11:00: 10 points an hour; $0.90 spent
/// in it by 11:00), the week (resetting 3 February 14:00; both messages,
/// $1.50), and the block yesterday's 23:50 message opens (23:00 to 04:00,
/// estimated: nothing was stated then). Today's 09:30 message is in the
/// stated window, so its block is not listed.
#[test]
fn limits_lists_stated_windows_and_estimated_blocks() {
    let env = Env::new();
    statusline(
        &env,
        "2026-02-01T10:00:00Z",
        &bytes(&payload(&env, 30.0)),
        &[],
    );
    statusline(
        &env,
        "2026-02-01T11:00:00Z",
        &bytes(&payload(&env, 40.0)),
        &[],
    );
    let (code, out, err) = env.run_at("2026-02-01T11:00:00Z", &["limits", "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {} {} {}",
                r["window"].as_str().unwrap(),
                r["starts_at"].as_str().unwrap(),
                r["resets_at"].as_str().unwrap(),
                r["first_pct"],
                r["last_pct"],
                r["snapshots"],
                r["pace_pct_per_hour"],
                r["cost_usd"],
                r["estimated"]
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            "7d 2026-01-27T14:00:00.000Z 2026-02-03T14:00:00.000Z 41.2 41.2 2 0.0 1.5 false",
            "block 2026-01-31T23:00:00.000Z 2026-02-01T04:00:00.000Z null null 0 null 0.6 true",
            "5h 2026-02-01T08:00:00.000Z 2026-02-01T13:00:00.000Z 30.0 40.0 2 10.0 0.9 false",
        ]
    );
    // At 11:00 the week and the five-hour window are active: time left,
    // and what they will cost at their pace so far ($0.90 in 3 of 5 hours:
    // $1.50; $1.50 in 117 of 168 hours: $2.153846).
    let active: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["window"], r["active"], r["minutes_left"], r["projected_cost_usd"]
            )
        })
        .collect();
    assert_eq!(
        active,
        [
            "\"7d\" true 3060 2.153846",
            "\"block\" false null null",
            "\"5h\" true 120 1.5"
        ]
    );
    let (_, _, err) = env.run_at("2026-02-01T11:00:00Z", &["limits", "--format", "table"]);
    assert!(
        err.contains("the five-hour window resets in 2h 00m; at this pace it will have cost $1.50"),
        "{err}"
    );
    // A table shows the times in --tz; JSON keeps UTC.
    let (_, tokyo, _) = env.run_with_env(
        &["limits", "--format", "table", "--tz", "Asia/Tokyo"],
        &[
            ("SESSIONKIT_NOW", "2026-02-01T11:00:00Z"),
            ("COLUMNS", "200"),
        ],
    );
    assert!(
        tokyo.contains("2026-02-01 17:00  2026-02-01 22:00"),
        "{tokyo}"
    );
    crate::schema::holds_contract(&env, "limits", "LimitRecord", "sessionkit.limits/1", &rows);
    // A window's bounds keep their hours in a table that fits a width,
    // although its rows span days.
    let (_, fitted, _) = env.run_with_env(
        &["limits", "--format", "table", "--tz", "UTC"],
        &[
            ("SESSIONKIT_NOW", "2026-02-01T11:00:00Z"),
            ("COLUMNS", "200"),
        ],
    );
    assert!(
        fitted.contains("2026-01-31 23:00  2026-02-01 04:00"),
        "{fitted}"
    );
    let (_, table, _) = env.run_at(
        "2026-02-01T11:00:00Z",
        &["limits", "--format", "table", "--chart"],
    );
    assert!(
        table.ends_with("7d    2026-01-27T14:00  ████████████████                         41%\n5h    2026-02-01T08:00  ████████████████                         40%\n"),
        "{table}"
    );
}

/// An empty history says so on stderr.
#[test]
fn limits_with_nothing_says_so() {
    let env = Env::new();
    env.run(&["config", "list"]);
    let (code, out, err) = env.run(&["limits"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("register `sessionkit statusline`"), "{err}");
    // The chart with nothing stated says why it draws nothing.
    let (code, out, err) = env.run(&["limits", "--format", "table", "--chart"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("nothing to chart"), "{err}");
}

/// `limits --snapshots`: each recorded change, as it was seen.
#[test]
fn limits_lists_each_recorded_change() {
    let env = Env::new();
    statusline(
        &env,
        "2026-02-01T10:00:00Z",
        &bytes(&payload(&env, 30.0)),
        &[],
    );
    statusline(
        &env,
        "2026-02-01T10:30:00Z",
        &bytes(&payload(&env, 30.0)),
        &[],
    );
    statusline(
        &env,
        "2026-02-01T11:00:00Z",
        &bytes(&payload(&env, 40.0)),
        &[],
    );
    let (code, out, err) = env.run(&["limits", "--snapshots", "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[1],
        json!({
            "schema": "sessionkit.limit-snapshot/1",
            "observed_at": "2026-02-01T11:00:00.000Z",
            "session_id": SID,
            "model": "claude-sonnet-4-5",
            "five_hour_pct": 40.0,
            "five_hour_resets_at": "2026-02-01T13:00:00.000Z",
            "seven_day_pct": 41.2,
            "seven_day_resets_at": "2026-02-03T14:00:00.000Z",
            "context_pct": 42.4,
            "stated_cost_usd": 2.1
        })
    );
    crate::schema::holds_contract(
        &env,
        "limits-snapshots",
        "LimitSnapshotRecord",
        "sessionkit.limit-snapshot/1",
        &rows,
    );
    // Since 10:30: only the 11:00 change (10:30 repeated 10:00's state).
    let (_, out, err) = env.run(&[
        "limits",
        "--snapshots",
        "--since",
        "2026-02-01T10:30:00Z",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.lines().count(), 1, "{out}{err}");
}

/// What the status line keeps or shows has lost its secrets first (as a
/// hook's payload does); the ids, paths and figures stay.
#[test]
fn a_secret_in_the_payload_is_neither_kept_nor_shown() {
    let env = Env::new();
    let mut p = payload(&env, 30.0);
    let token = "ghp_0123456789abcdefABCDEF0123456789abcd";
    p["model"]["id"] = json!(format!("claude-sonnet-4-5 {token}"));
    p["model"]["display_name"] = json!(format!("Sonnet {token}"));
    let (code, out, err) = statusline(&env, "2026-02-01T10:00:00Z", &bytes(&p), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains(token), "{out}");
    assert!(out.starts_with("Sonnet [redacted:"), "{out}");
    assert!(out.ends_with("| $1.50 session | $0.90 today | 5h 30% (3h00m) | 7d 41% (2d4h) | 15.0%/h → 75% at reset\n"), "{out}");
    let stored = env.text("SELECT model FROM rate_limit_snapshots WHERE ?1 = ?1", "-");
    assert!(
        stored.starts_with("claude-sonnet-4-5 [redacted:"),
        "{stored}"
    );
    assert!(!stored.contains("ghp_"), "{stored}");
}

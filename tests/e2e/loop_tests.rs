//! The loop as the real clients run it: resumes, crashes, API errors and
//! the nudge (see `live` for how each client is driven).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::live::{Live, minutes_from_now, uuid};

/// Each recorded Anthropic response carries the fake server's usage:
/// input, output, cache writes (5m + 1h), cache reads.
const ANTHROPIC: [u64; 4] = [11, 7, 1_200, 300];

/// (input, output, cache writes, cache reads) of the one session listed.
fn tokens(s: &Value) -> [u64; 4] {
    let t = |k: &str| s[k].as_u64().unwrap();
    [
        t("input_tokens"),
        t("output_tokens"),
        t("cache_write_5m_tokens") + t("cache_write_1h_tokens"),
        t("cache_read_tokens"),
    ]
}

/// The distinct assistant message ids with usage in a Claude Code home's
/// transcripts (what the fake server's responses became).
fn recorded_responses(home: &Path) -> u64 {
    let mut ids = std::collections::BTreeSet::new();
    let mut stack = vec![home.join(".claude/projects")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                for line in std::fs::read_to_string(&p).unwrap_or_default().lines() {
                    let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
                    if v["type"] == "assistant" && v["message"]["usage"].is_object() {
                        ids.insert(v["message"]["id"].as_str().unwrap_or("").to_string());
                    }
                }
            }
        }
    }
    ids.len() as u64
}

/// A Claude Code session resumed twice within seconds: the two resumes
/// come from two client processes with the same SessionStart payload, and
/// both are stored; it stays one session; with the nudge on, no resumed
/// turn is blocked (each model request is a turn of the user's).
#[test]
fn a_session_resumed_twice_within_seconds_keeps_every_start() {
    let work = tempfile::tempdir().unwrap();
    for client in ["claude-2.1.197", "claude-2.1.332"] {
        let Some(l) = Live::new(work.path(), client, client, &["--with-nudge"], None) else {
            continue;
        };
        let sid = uuid();
        let (code, out) = l.step(&["--session-id", &sid, "-p", "hello from the rig"]);
        assert_eq!(code, 0, "{client}: {out}");
        let started = Instant::now();
        for _ in 0..2 {
            let (code, out) = l.step(&["--resume", &sid, "-p", "and once more"]);
            assert_eq!(code, 0, "{client}: {out}");
        }
        assert!(started.elapsed() < Duration::from_secs(30));
        let starts = l.rows(
            "SELECT json_extract(payload, '$.source') FROM events_raw WHERE event = 'SessionStart' ORDER BY id",
        );
        assert_eq!(starts, ["startup", "resume", "resume"], "{client}");
        let stops = l.rows("SELECT COUNT(*) FROM events_raw WHERE event = 'Stop'");
        assert_eq!(stops, ["3"], "{client}");
        assert_eq!(
            l.requests(),
            ["reply", "reply", "reply"],
            "{client}: no debrief turn"
        );
        assert_eq!(
            l.rows("SELECT triage_attempt_count FROM agent_sessions"),
            ["0"],
            "{client}"
        );
        let sessions = l.json(&["sessions"], &[]);
        assert_eq!(
            sessions.as_array().unwrap().len(),
            1,
            "{client}: {sessions}"
        );
        assert_eq!(sessions[0]["session_id"], sid.as_str());
    }
}

/// Two `codex exec resume` runs of one session send the same SessionEnd
/// payload from two processes: each is stored, and the session ends
/// completed, not working, when the last client exits.
#[test]
fn two_codex_exec_resume_runs_each_end_the_session() {
    let work = tempfile::tempdir().unwrap();
    let Some(l) = Live::new(work.path(), "codex", "codex", &[], None) else {
        return;
    };
    assert_eq!(l.step(&["hello from the rig"]).0, 0);
    for _ in 0..2 {
        let (code, out) = l.step(&["resume", "--last", "and once more"]);
        assert_eq!(code, 0, "{out}");
    }
    let ends = l.rows("SELECT payload FROM events_raw WHERE event = 'SessionEnd' ORDER BY id");
    assert_eq!(ends.len(), 3, "{ends:?}");
    let starts = l.rows(
        "SELECT json_extract(payload, '$.source') FROM events_raw WHERE event = 'SessionStart' ORDER BY id",
    );
    assert_eq!(starts, ["startup", "resume", "resume"]);
    let sessions = l.json(&["sessions"], &[]);
    assert_eq!(sessions.as_array().unwrap().len(), 1, "{sessions}");
    assert_eq!(sessions[0]["status"], "completed", "{sessions}");
    assert_eq!(sessions[0]["messages"], 3, "one response a turn");
}

/// A Claude Code client killed (SIGKILL) mid-turn, while its subagent
/// waits on the model: the session is listed at once from its hook events
/// and, its client gone, ended at once (`unknown`, not working; no sweep,
/// inside the watchdog's window); `sweep` reads its transcript (the
/// tokens exact) and writes its end.
#[test]
fn a_client_killed_mid_turn_is_listed_and_ended_at_once() {
    const HANG: &str = r#"
import os, time
_choose = fake.choose
def choose(req):
    kind, blocks = _choose(req)
    if kind in ("subagent", "after-tool"):
        open(os.path.join(os.environ.get("RIG_HANG_DIR", "."), "hung"), "w").close()
        time.sleep(300)
    return kind, blocks
fake.choose = choose
"#;
    let work = tempfile::tempdir().unwrap();
    for client in ["claude-2.1.197", "claude-2.1.332"] {
        let patch = HANG.replace(
            "os.environ.get(\"RIG_HANG_DIR\", \".\")",
            &format!(
                "{:?}",
                work.path()
                    .join(client)
                    .join("home/rig")
                    .display()
                    .to_string()
            ),
        );
        let Some(l) = Live::new(work.path(), client, client, &[], Some(&patch)) else {
            continue;
        };
        let sid = uuid();
        let mut child = l.spawn(&["--session-id", &sid, "-p", "please SPAWN a helper"]);
        let hung = l.home.join("rig/hung");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !hung.exists() {
            assert!(
                Instant::now() < deadline,
                "{client}: the turn never reached the model twice"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        child.kill().unwrap();
        child.wait().unwrap();
        let ended = l.rows("SELECT COUNT(*) FROM events_raw WHERE event IN ('Stop', 'SessionEnd')");
        assert_eq!(ended, ["0"], "{client}: killed, it fired no end");
        // Listed at once, from the hook events.
        let sessions = l.json(&["sessions"], &[]);
        assert_eq!(
            sessions.as_array().unwrap().len(),
            1,
            "{client}: {sessions}"
        );
        assert_eq!(sessions[0]["session_id"], sid.as_str());
        // Its client is gone: never working, with no sweep and inside the
        // watchdog's window.
        assert_eq!(sessions[0]["status"], "unknown", "{client}");
        assert_eq!(tokens(&sessions[0]), [0; 4], "{client}");
        let status = l.json(&["status", "--all"], &[]);
        assert_eq!(status[0]["session_id"], sid.as_str(), "{client}: {status}");
        assert_eq!(status[0]["status"], "unknown");
        assert_eq!(status[0]["evidence"], "client_gone");
        // sweep reads the transcript: the tokens it records, exactly.
        let (code, _, err) = l.sk(&["sweep"], &[]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("caught up 1 open session transcript(s)"),
            "{client}: {err}"
        );
        let n = recorded_responses(&l.home);
        assert!(n >= 1, "{client}: the spawning response is recorded");
        let sessions = l.json(&["sessions"], &[]);
        assert_eq!(
            tokens(&sessions[0]),
            ANTHROPIC.map(|x| x * n),
            "{client}: {sessions}"
        );
        // The sweep wrote its end: unknown, its client gone.
        assert_eq!(sessions[0]["status"], "unknown", "{client}");
        let later = minutes_from_now(60);
        let sessions = l.json(&["sessions"], &[("SESSIONKIT_NOW", &later)]);
        assert_eq!(sessions[0]["status"], "unknown", "{client}");
    }
}

/// An API error (the fake server answers 400) per client: the session ends
/// `error` where the client says so — Claude Code's StopFailure (or, when
/// 2.1.332's exit cuts that fire-and-forget hook off, its transcript's API
/// error record), Codex's
/// task_complete with an error (it fires no Stop) — and Gemini CLI, which
/// fires no end event and writes no error, is listed at once and ends
/// `unknown` as soon as its process is gone.
#[test]
fn an_api_error_ends_as_the_client_says() {
    let work = tempfile::tempdir().unwrap();
    for client in ["claude-2.1.197", "claude-2.1.332", "codex", "gemini"] {
        let Some(l) = Live::new(work.path(), client, client, &[], None) else {
            continue;
        };
        let prompt = "please FAIL400 now";
        let sid = uuid();
        let (code, _) = if client == "codex" {
            l.step(&[prompt])
        } else {
            l.step(&["--session-id", &sid, "-p", prompt])
        };
        assert_ne!(code, 0, "{client}: the client fails");
        let sessions = l.json(&["sessions"], &[]);
        assert_eq!(
            sessions.as_array().unwrap().len(),
            1,
            "{client}: {sessions}"
        );
        let status = sessions[0]["status"].as_str().unwrap();
        match l.harness() {
            "claude-code" => {
                // StopFailure is fire-and-forget: the client exits without
                // waiting for the hook, and under load the hook can be cut
                // off before it stores the event. The transcript's API error
                // record says the same, read by the SessionEnd hook's
                // catch-up (or, were that cut off too, the next ingest):
                // the session ends `error` either way, the event stored
                // at most once.
                let status = || l.json(&["sessions"], &[])[0]["status"].clone();
                let t0 = Instant::now();
                while status() != "error" && t0.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(100));
                }
                if status() != "error" {
                    let (code, _, err) = l.sk(&["ingest"], &[]);
                    assert_eq!(code, 0, "{err}");
                }
                assert_eq!(status(), "error", "{client}");
                let events = l.rows("SELECT COUNT(*) FROM events_raw WHERE event = 'StopFailure'");
                assert!(events == ["1"] || events == ["0"], "{client}: {events:?}");
            }
            "codex" => assert_eq!(status, "error", "{client}"),
            _ => {
                // Its client exited with no end event: ended at once,
                // unknown, without a sweep.
                assert_eq!(status, "unknown", "{client}: {sessions}");
                assert_eq!(l.json(&["status"], &[]), serde_json::json!([]), "{client}");
                let later = minutes_from_now(60);
                let (code, _, err) = l.sk(&["sweep"], &[("SESSIONKIT_NOW", &later)]);
                assert_eq!(code, 0, "{err}");
                let sessions = l.json(&["sessions"], &[("SESSIONKIT_NOW", &later)]);
                assert_eq!(sessions[0]["status"], "unknown", "{client}");
            }
        }
    }
}

/// `hooks install --with-nudge` turns the nudge on for real: a Claude Code
/// turn that ends with something to debrief (a memory its run wrote) is
/// blocked once with the debrief prompt, the client carries on with it
/// (a second model request), and the continuation's Stop is let through.
#[test]
fn the_nudge_install_turns_on_blocks_once_and_the_client_continues() {
    let work = tempfile::tempdir().unwrap();
    for client in ["claude-2.1.197", "claude-2.1.332"] {
        let Some(l) = Live::new(work.path(), client, client, &["--with-nudge"], None) else {
            continue;
        };
        let sid = uuid();
        let run = l.json(
            &[
                "session",
                "open",
                "--agent",
                "claude-code",
                "--session-id",
                &sid,
                "--source",
                "startup",
                "--project",
                "project",
            ],
            &[],
        );
        let run_id = run["run_id"].as_str().unwrap().to_string();
        let (code, _, err) = l.sk(
            &[
                "remember",
                "--kind",
                "decision",
                "--project",
                "project",
                "--topic",
                "Rig decision",
                "--content",
                "Keep the rig green",
                "--session-run-id",
                &run_id,
            ],
            &[],
        );
        assert_eq!(code, 0, "{err}");
        let (code, out) = l.step(&["--session-id", &sid, "-p", "hello from the rig"]);
        assert_eq!(code, 0, "{client}: {out}");
        let stops = l.rows(
            "SELECT json_extract(payload, '$.stop_hook_active') FROM events_raw WHERE event = 'Stop' ORDER BY id",
        );
        assert_eq!(
            stops,
            ["0", "1"],
            "{client}: a Stop, then the continuation's"
        );
        assert_eq!(
            l.requests(),
            ["reply", "reply"],
            "{client}: the turn and its debrief"
        );
        assert_eq!(
            l.rows("SELECT triage_attempt_count FROM agent_sessions"),
            ["1"],
            "{client}"
        );
    }
}

/// `hooks install --with-mcp` registers `sessionkit mcp` where Claude Code
/// takes MCP servers: `claude mcp list` finds it connected, and a session's
/// init record lists its seven tools and the server connected; uninstall
/// takes it out again.
#[test]
fn claude_code_lists_sessionkit_s_tools_after_install_with_mcp() {
    let work = tempfile::tempdir().unwrap();
    let Some(live) = Live::new(work.path(), "mcp", "claude", &[], None) else {
        return;
    };
    // Claude Code keeps its MCP servers in `.claude.json` in its config
    // folder (the rig's CLAUDE_CONFIG_DIR).
    let config = live.home.join(".claude");
    let config_dir = config.display().to_string();
    let (code, out, err) = live.sk(
        &["hooks", "install", "--harness", "claude-code", "--with-mcp"],
        &[("CLAUDE_CONFIG_DIR", &config_dir)],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(config.join(".claude.json").exists());
    let out = live.command(false).args(["mcp", "list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    let line = listed
        .lines()
        .find(|l| l.starts_with("sessionkit: "))
        .unwrap_or_else(|| panic!("{listed}{}", String::from_utf8_lossy(&out.stderr)));
    assert!(line.ends_with(" mcp - ✔ Connected"), "{line}");
    let out = live
        .command(false)
        .args([
            "-p",
            "hello",
            "--output-format",
            "stream-json",
            "--verbose",
            "--max-turns",
            "2",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let init: Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "system" && v["subtype"] == "init")
        .unwrap_or_else(|| panic!("no init record: {stdout}"));
    let mut tools: Vec<&str> = init["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|t| t.starts_with("mcp__sessionkit__"))
        .collect();
    tools.sort_unstable();
    assert_eq!(
        tools,
        [
            "mcp__sessionkit__brief",
            "mcp__sessionkit__cost",
            "mcp__sessionkit__memories",
            "mcp__sessionkit__recall",
            "mcp__sessionkit__search",
            "mcp__sessionkit__sessions",
            "mcp__sessionkit__show",
        ],
        "{init}"
    );
    assert!(
        init["mcp_servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "sessionkit" && s["status"] == "connected"),
        "{init}"
    );
    let (code, _, err) = live.sk(
        &["hooks", "uninstall", "--harness", "claude-code"],
        &[("CLAUDE_CONFIG_DIR", &config_dir)],
    );
    assert_eq!(code, 0, "{err}");
    let left = std::fs::read_to_string(config.join(".claude.json")).unwrap_or_default();
    assert!(!left.contains("\"sessionkit\""), "{left}");
}

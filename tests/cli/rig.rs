//! End to end with the real clients: Claude Code, Codex and
//! Gemini CLI, installed from npm by `../shared/harness-rig/install.sh`, run
//! against the rig's loopback fake model servers with sessionkit's hooks
//! registered and the nudge on. Each must accept the Stop block and continue
//! exactly once: two model requests, the second carrying the debrief
//! prompt, the continuation's Stop marked as such, one attempt finalized.
//!
//! Needs the clients (`RIG_PREFIX`, where install.sh put them, else
//! `~/.cache/harness-rig`), node and python3;
//! skips, saying which is missing, without them. Installing is not done
//! here: tests use no network beyond loopback.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{rig, skip};

/// Hook settings registering sessionkit for `harness`: the briefing (and,
/// in the same command so it lands on the run, one memory written before
/// the first turn: the signal that arms the nudge at the first Stop), the
/// Stop with the nudge on, the end; the rig's capture hook on the Stop.
fn settings(harness: &str, sk: &Path) -> Value {
    let sk = sk.display();
    let start = format!(
        "export SESSIONKIT_DB=$HOME/sk.db; {sk} hook session-start --harness {harness} && {sk} remember --kind decision --topic 'rig decision' --content 'made before the first turn' >/dev/null"
    );
    let stop = format!(
        "SESSIONKIT_DB=$HOME/sk.db SESSIONKIT_STOP_NUDGE=1 {sk} hook stop --harness {harness}"
    );
    let end = format!("SESSIONKIT_DB=$HOME/sk.db {sk} hook session-end --harness {harness}");
    // No --harness: detection must name each client from its own payload
    // and environment.
    let prompt = format!("SESSIONKIT_DB=$HOME/sk.db {sk} hook user-prompt-submit");
    let capture = "\"$RIG_DIR/capture-hook.sh\"";
    if harness == "gemini" {
        // Gemini: named handlers, timeouts in milliseconds, AfterAgent for Stop.
        let h = |name: &str, cmd: &str, ms: u64| json!({"name": name, "type": "command", "command": cmd, "timeout": ms});
        json!({"hooks": {
            "SessionStart": [{"matcher": "*", "hooks": [h("sessionkit-start", &start, 10_000)]}],
            "BeforeAgent": [{"matcher": "*", "hooks": [h("sessionkit-prompt", &prompt, 10_000)]}],
            "AfterAgent": [{"matcher": "*", "hooks": [h("sessionkit-stop", &stop, 10_000), h("rig-capture", capture, 10_000)]}],
            "SessionEnd": [{"matcher": "*", "hooks": [h("sessionkit-end", &end, 3_000)]}],
        }})
    } else {
        let h = |cmd: &str, s: u64| json!({"type": "command", "command": cmd, "timeout": s});
        json!({"hooks": {
            "SessionStart": [{"hooks": [h(&start, 10)]}],
            "UserPromptSubmit": [{"hooks": [h(&prompt, 10)]}],
            "Stop": [{"hooks": [h(&stop, 10), h(capture, 10)]}],
            "SessionEnd": [{"hooks": [h(&end, 3)]}],
        }})
    }
}

#[test]
fn real_clients_accept_the_nudge_and_continue_exactly_once() {
    let (dir, prefix) = match rig() {
        Ok(r) => r,
        Err(why) => return skip(&why),
    };
    let sk = assert_cmd::cargo::cargo_bin("sessionkit");
    let work = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for (client, harness) in [
        ("claude-2.1.332", "claude-code"),
        ("claude-2.1.197", "claude-code"),
        ("codex", "codex"),
        ("gemini", "gemini"),
    ] {
        if !prefix.join("bin").join(client).exists() {
            skip(&format!(
                "{client} is not installed under {}",
                prefix.display()
            ));
            continue;
        }
        let home = work.path().join(client);
        let file = work.path().join(format!("{client}.json"));
        std::fs::write(&file, settings(harness, &sk).to_string()).unwrap();
        let out = std::process::Command::new(dir.join("run.sh"))
            .args([client, "plain"])
            .arg(&home)
            .arg("--settings")
            .arg(&file)
            .env("RIG_PREFIX", &prefix)
            .env("RIG_DUMP", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{client}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // The client's Stop payloads, in order: the first a plain Stop, the
        // second the continuation the block caused.
        let mut captures: Vec<PathBuf> = std::fs::read_dir(home.join("captures"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        captures.sort();
        let active: Vec<Option<bool>> = captures
            .iter()
            .map(|p| {
                let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
                v["stop_hook_active"].as_bool()
            })
            .collect();
        assert_eq!(
            active,
            [Some(false), Some(true)],
            "{client}: one block, one continuation"
        );
        // Two model requests: the turn, and the continuation carrying the prompt.
        let requests = std::fs::read_to_string(home.join("rig/requests.jsonl")).unwrap();
        assert_eq!(requests.lines().count(), 2, "{client}: {requests}");
        let body = |n: &str| {
            std::fs::read_to_string(home.join(format!("rig/requests/{n}-reply.json"))).unwrap()
        };
        assert!(
            !body("0001").contains("Before you finish, debrief"),
            "{client}"
        );
        // The prompt's recall reached the model with the turn: the memory
        // written at the start matches the prompt's word "rig".
        assert!(
            body("0001").contains("sessionkit recalled these memories for this prompt")
                && body("0001").contains("rig decision"),
            "{client}: the recall reached the model"
        );
        assert!(
            body("0002").contains("Before you finish, debrief"),
            "{client}: the prompt reached the model"
        );
        // One attempt, armed by the first Stop and finalized by the second
        // (expired: the fake model wrote nothing).
        let c = rusqlite::Connection::open(home.join("sk.db")).unwrap();
        let (status, count, log, turns): (String, i64, String, i64) = c
            .query_row(
                "SELECT triage_status, triage_attempt_count, triage_attempt_log, stop_turns FROM agent_sessions WHERE agent = ?1",
                [harness],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        let log: Value = serde_json::from_str(&log).unwrap();
        assert_eq!(
            (status.as_str(), count, turns),
            ("expired", 1, 2),
            "{client}: {log}"
        );
        assert_eq!(log[0]["outcome"], "expired", "{client}");
        assert!(
            !home.join("sk.db.hook-errors.log").exists(),
            "{client}: no hook failed"
        );
        // Detected without --harness: stored under the client's own name.
        let prompt_harness: String = c
            .query_row(
                "SELECT harness FROM events_raw WHERE event IN ('UserPromptSubmit', 'BeforeAgent')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(prompt_harness, harness, "{client}");
        ran += 1;
    }
    if ran == 0 {
        skip("no harness client is installed under RIG_PREFIX");
    }
}

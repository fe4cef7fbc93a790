//! `hooks install|uninstall|status|doctor` on real files in a
//! sandboxed HOME: merged, never clobbered, refused when unreadable, atomic
//! with a backup, idempotent, undone exactly; Codex trust as Codex 0.171
//! computes it; doctor judging each
//! hook by its client's output rules; SessionEnd's catch-up ingest.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::Env;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hooks")
        .join(name)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn put(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Files in `dir` whose name contains `.sessionkit-` and ends in `.bak`.
fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        n.contains(".sessionkit-") && n.ends_with(".bak")
    });
    v
}

/// A main transcript of the fixture corpus, and its session id.
fn fixture_session() -> (PathBuf, String) {
    let session = std::fs::read_dir(crate::common::fixtures())
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "jsonl")
                && p.file_stem().unwrap().to_string_lossy().contains('-')
        })
        .unwrap();
    let sid = session.file_stem().unwrap().to_string_lossy().to_string();
    (session, sid)
}

#[test]
fn cursor_and_copilot_settings_match_their_golden_files_and_uninstall_undoes_them() {
    let env = Env::new();
    let cursor = env.path("home/.cursor/hooks.json");
    let copilot = env.path("home/.copilot/hooks/sessionkit.json");
    put(&cursor, &read(&fixture("cursor.before.json")));
    put(&copilot, &read(&fixture("copilot.before.json")));
    let args = [
        "hooks",
        "install",
        "--harness",
        "cursor",
        "--harness",
        "copilot",
        "--program",
        "sessionkit",
    ];
    let (code, out, err) = env.run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&cursor), read(&fixture("cursor.after.json")));
    assert_eq!(read(&copilot), read(&fixture("copilot.after.json")));
    let rows = lines(&out);
    assert_eq!(
        rows[0]["added"],
        serde_json::json!(["sessionStart", "beforeSubmitPrompt", "stop", "sessionEnd"])
    );
    // The hand-written `sessionkit hook event` on agentStop became the stop hook.
    assert_eq!(rows[1]["adopted"], serde_json::json!(["agentStop"]));
    assert!(err.contains("sweep --quiet"), "{err}");
    // The old files are kept, byte for byte.
    let b = backups(&env.path("home/.cursor"));
    assert_eq!(b.len(), 1);
    assert_eq!(read(&b[0]), read(&fixture("cursor.before.json")));

    // Again: nothing to do, nothing written, no new backup.
    let (code, out, _) = env.run(&args);
    assert_eq!(code, 0);
    assert!(lines(&out).iter().all(|r| r["changed"] == false));
    assert_eq!(backups(&env.path("home/.cursor")).len(), 1);

    let (code, out, err) = env.run(&[
        "hooks",
        "uninstall",
        "--harness",
        "cursor",
        "--harness",
        "copilot",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out)[0]["removed"].as_array().unwrap().len(), 4);
    assert_eq!(read(&cursor), read(&fixture("cursor.before.json")));
    // The adopted entry went with the rest; the user's lint hook stays.
    let left: Value = serde_json::from_str(&read(&copilot)).unwrap();
    assert_eq!(
        left,
        serde_json::json!({"version": 1, "hooks": {"agentStop": [
            {"type": "command", "bash": "./scripts/lint.sh", "cwd": ".", "timeoutSec": 60}]}})
    );
}

#[test]
fn claude_settings_keep_everything_else_and_a_file_claude_cannot_use_is_refused() {
    let env = Env::new();
    let file = env.path("home/.claude/settings.json");
    let before = "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]}\n}\n";
    put(&file, before);
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(doc["permissions"]["allow"][0], "Bash(ls)");
    let stop = doc["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2);
    assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
    let sk = assert_cmd::cargo::cargo_bin("sessionkit")
        .display()
        .to_string();
    assert_eq!(
        stop[1]["hooks"][0],
        serde_json::json!({"type": "command", "command": format!("{sk} hook stop --harness claude-code"), "timeout": 10})
    );
    let events: Vec<&String> = doc["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "PostCompact",
            "PreCompact",
            "SessionEnd",
            "SessionStart",
            "Stop",
            "StopFailure",
            "SubagentStart",
            "SubagentStop",
            "UserPromptSubmit"
        ]
    );
    assert_eq!(
        doc["hooks"]["SessionStart"][0]["matcher"],
        "startup|resume|clear|compact|fork"
    );
    assert_eq!(doc["hooks"]["PreCompact"][0]["matcher"], "manual|auto");
    // --db given: every command names that database.
    let (code, _, _) = env.run(&[
        "--db",
        "/tmp/elsewhere.db",
        "hooks",
        "install",
        "--harness",
        "claude",
    ]);
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(
        doc["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        format!("{sk} --db /tmp/elsewhere.db hook session-end --harness claude-code")
    );

    // JSON with a comment: Claude Code cannot read it, neither do we.
    let bad = "{\n  // mine\n  \"hooks\": {}\n}\n";
    put(&file, bad);
    let n = backups(&env.path("home/.claude")).len();
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 2);
    assert!(err.contains("settings.json is not valid JSON"), "{err}");
    assert!(
        err.contains("sessionkit changes nothing in a file it cannot read"),
        "{err}"
    );
    assert_eq!(read(&file), bad);
    assert_eq!(backups(&env.path("home/.claude")).len(), n);
    // One malformed handler makes Claude Code ignore the whole file.
    let broken = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command"}]}]}}"#;
    put(&file, broken);
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("hooks.Stop[0].hooks[0].command missing or empty (Claude Code), so it ignores this whole file today"),
        "{err}"
    );
    assert_eq!(read(&file), broken);
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let env = Env::new();
    let file = env.path("home/.gemini/settings.json");
    let (code, out, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "gemini",
        "--dry-run",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(code, 1, "a change to make");
    // It says what it would do, never that it did.
    assert!(err.contains(": would add "), "{err}");
    assert!(!err.contains(": added "), "{err}");
    assert!(
        out.starts_with(&format!(
            "--- /dev/null\n+++ {}\n@@ -0,0 +1,",
            file.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("+            \"name\": \"sessionkit-AfterAgent\",\n"),
        "{out}"
    );
    assert!(
        out.contains("+            \"timeout\": 10000\n"),
        "Gemini's milliseconds: {out}"
    );
    assert!(!file.exists());
    assert!(!env.path("home/.gemini").exists());
    env.run(&[
        "hooks",
        "install",
        "--harness",
        "gemini",
        "--program",
        "sessionkit",
    ]);
    let (code, out, _) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "gemini",
        "--dry-run",
        "--program",
        "sessionkit",
    ]);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn codex_gets_the_trust_entries_codex_computes_and_uninstall_takes_them_back() {
    let env = Env::new();
    let home = env.path("codex-home");
    let config = home.join("config.toml");
    let mine = "# my settings\nmodel = \"o3\"\n\n[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\nenabled = false\n";
    put(&config, mine);
    let run = |args: &[&str]| {
        let out = env
            .cmd()
            .env("CODEX_HOME", &home)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let (code, out) = run(&[
        "hooks",
        "install",
        "--harness",
        "codex",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(code, 0);
    assert_eq!(lines(&out)[0]["trust_file"], config.display().to_string());
    let text = read(&config);
    assert!(text.starts_with(mine), "{text}");
    let hooks = home.join("hooks.json").display().to_string();
    // The hash Codex 0.171's app-server reports (`hooks/list`) for this
    // handler: {type command, command "sessionkit hook stop --harness
    // codex", timeout 10}.
    assert!(
        text.contains(&format!(
            "[hooks.state.\"{hooks}:stop:2:0\"]\ntrusted_hash = \"sha256:18f15c8535582f682b2f669e2f2e15b8d29258efd73587095b5fdf9320e56a7b\"\n"
        )) || text.contains(&format!(
            "[hooks.state.\"{hooks}:stop:0:0\"]\ntrusted_hash = \"sha256:18f15c8535582f682b2f669e2f2e15b8d29258efd73587095b5fdf9320e56a7b\"\n"
        )),
        "{text}"
    );
    assert_eq!(text.matches("trusted_hash").count(), 9);
    let doc: Value = serde_json::from_str(&read(&home.join("hooks.json"))).unwrap();
    assert_eq!(
        doc["hooks"]["SessionStart"][0]["hooks"][0]["additionalContextLimit"],
        10_000
    );
    assert_eq!(doc["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);
    let (_, status) = run(&["hooks", "status", "--harness", "codex", "--scope", "user"]);
    let states: Vec<Value> = lines(&status).iter().map(|r| r["state"].clone()).collect();
    assert_eq!(states, vec![Value::from("registered"); 9]);
    // A trust entry that no longer matches is reported.
    put(&config, &text.replace("sha256:18f15c85", "sha256:00000000"));
    let (_, status) = run(&["hooks", "status", "--harness", "codex", "--scope", "user"]);
    let stop = lines(&status)
        .into_iter()
        .find(|r| r["event"] == "Stop")
        .unwrap();
    assert_eq!(stop["state"], "stale-trust");
    // Doctor says so, by the client's own name.
    let (_, doctor) = run(&["hooks", "doctor", "--harness", "codex", "--scope", "user"]);
    let trust = lines(&doctor)
        .into_iter()
        .find(|r| r["check"] == "trust" && r["event"] == "Stop")
        .unwrap();
    assert_eq!(
        trust["detail"],
        "Codex has no matching trust for Stop: it skips the hook unattended"
    );
    put(&config, &text);
    let (code, _) = run(&["hooks", "uninstall", "--harness", "codex"]);
    assert_eq!(code, 0);
    assert_eq!(read(&config), mine);
    assert!(
        !home.join("hooks.json").exists(),
        "install made it; uninstall takes it"
    );
}

#[test]
fn status_and_doctor_judge_what_is_registered() {
    let env = Env::new();
    env.run(&["ingest", "--root", env.path("none").to_str().unwrap()]);
    let (code, _, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--with-nudge",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, v, _) = env.run(&["config", "get", "nudge.enabled"]);
    assert_eq!(v.trim(), "on", "stored in its canonical word");
    let (code, out, err) = env.run(&[
        "hooks",
        "doctor",
        "--harness",
        "claude-code",
        "--harness",
        "codex",
        "--scope",
        "user",
    ]);
    let rows = lines(&out);
    assert_eq!(code, 0, "{out}{err}");
    let outputs: Vec<&Value> = rows.iter().filter(|r| r["check"] == "output").collect();
    assert_eq!(outputs.len(), 18, "9 events each");
    assert!(
        outputs
            .iter()
            .all(|r| r["ok"] == true && r["ms"].as_u64().is_some())
    );
    // The briefing went out, in an envelope each client accepts.
    let start = outputs
        .iter()
        .find(|r| r["harness"] == "codex" && r["event"] == "SessionStart")
        .unwrap();
    assert!(
        start["detail"].as_str().unwrap().contains("bytes accepted"),
        "{start}"
    );
    assert!(
        rows.iter()
            .any(|r| r["check"] == "database" && r["ok"] == true)
    );
    let nudge = rows.iter().find(|r| r["check"] == "nudge").unwrap();
    assert_eq!(nudge["ok"], true);
    assert!(
        nudge["detail"]
            .as_str()
            .unwrap()
            .starts_with("the debrief nudge is on (nudge.enabled of "),
        "{nudge}"
    );

    // Take one registration out by hand: status and doctor say so.
    let file = env.path("home/.claude/settings.json");
    let mut doc: Value = serde_json::from_str(&read(&file)).unwrap();
    doc["hooks"].as_object_mut().unwrap().remove("Stop");
    put(&file, &doc.to_string());
    let (_, out, _) = env.run(&[
        "hooks",
        "status",
        "--harness",
        "claude-code",
        "--scope",
        "user",
    ]);
    let stop = lines(&out)
        .into_iter()
        .find(|r| r["event"] == "Stop")
        .unwrap();
    assert_eq!(stop["state"], "missing");
    let (code, out, _) = env.run(&[
        "hooks",
        "doctor",
        "--harness",
        "claude-code",
        "--scope",
        "user",
    ]);
    assert_eq!(code, 1);
    let bad: Vec<Value> = lines(&out)
        .into_iter()
        .filter(|r| r["ok"] == false)
        .collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0]["event"], "Stop");
    assert_eq!(
        bad[0]["fix"],
        "sessionkit hooks install --harness claude-code --scope user"
    );

    // A hook that failed is reported by the doctor (and stays exit 0 itself).
    let out = env
        .cmd()
        .args(["hook", "stop", "--harness", "claude-code"])
        .write_stdin("{not json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    env.run(&["hooks", "install", "--harness", "claude-code"]);
    let (code, out, _) = env.run(&[
        "hooks",
        "doctor",
        "--harness",
        "claude-code",
        "--scope",
        "user",
    ]);
    assert_eq!(code, 1);
    let failures = lines(&out)
        .into_iter()
        .find(|r| r["check"] == "failures")
        .unwrap();
    assert!(
        failures["detail"]
            .as_str()
            .unwrap()
            .contains("1 hook failures this week; the last"),
        "{failures}"
    );
    assert!(
        failures["detail"]
            .as_str()
            .unwrap()
            .contains("hook input is not JSON"),
        "{failures}"
    );
}

#[test]
fn without_harness_every_harness_found_on_the_machine() {
    let env = Env::new();
    let empty = env.path("bin");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |args: &[&str]| {
        let out = env.cmd().env("PATH", &empty).args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, _, err) = run(&["hooks", "install"]);
    assert_eq!(code, 2);
    assert!(err.contains("no harness found on this machine"), "{err}");
    std::fs::create_dir_all(env.path("home/.gemini")).unwrap();
    let (code, out, _) = run(&["hooks", "install", "--program", "sessionkit"]);
    assert_eq!(code, 0);
    let rows = lines(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["harness"], "gemini");
}

#[test]
fn session_end_ingests_its_transcript_and_a_large_one_waits_for_ingest() {
    let env = Env::new();
    let root = env.path("projects");
    let (session, sid) = fixture_session();
    let dest = root.join("-proj").join(format!("{sid}.jsonl"));
    put(&dest, &read(&session));
    let end = |path: &Path| {
        let payload = serde_json::json!({"session_id": sid, "transcript_path": path, "cwd": "/proj",
            "hook_event_name": "SessionEnd", "reason": "other"});
        let out = env
            .cmd()
            .args(["hook", "session-end", "--harness", "claude-code"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    };
    end(&dest);
    let (_, by_hook, _) = env.run(&["sessions", "--json"]);
    // What a cold ingest of the same file says, to the token.
    let cold = Env::new();
    cold.run(&["ingest", "--root", root.to_str().unwrap()]);
    let (_, by_ingest, _) = cold.run(&["sessions", "--json"]);
    let strip = |s: &str| {
        let mut v: Value = serde_json::from_str(s).unwrap();
        for r in v.as_array_mut().unwrap() {
            r.as_object_mut()
                .unwrap()
                .retain(|k, _| k.contains("token") || k == "session_id" || k.contains("cost"));
        }
        v
    };
    assert_eq!(strip(&by_hook), strip(&by_ingest));
    assert_eq!(strip(&by_hook).as_array().unwrap().len(), 1);

    // Over the budget: left for ingest, and status says so.
    env.run(&["config", "set", "ingest.hook_max_bytes", "10"]);
    let mut text = read(&dest);
    text.push_str(&read(&session));
    put(&dest, &text);
    end(&dest);
    let (_, _, note) = env.run(&["status"]);
    assert!(
        note.contains(&format!(
            "{} was too large for the SessionEnd hook to catch up",
            dest.display()
        )),
        "{note}"
    );
    env.run(&["ingest", "--root", root.to_str().unwrap()]);
    let (_, _, note) = env.run(&["status"]);
    assert!(!note.contains("too large"), "{note}");
}

#[test]
fn project_scope_writes_under_the_git_work_tree_and_codex_trusts_it() {
    let env = Env::new();
    let repo = env.path("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    let codex_home = env.path("codex-home");
    let out = env
        .cmd()
        .current_dir(repo.join("src/deep"))
        .env("CODEX_HOME", &codex_home)
        .args([
            "hooks",
            "install",
            "--scope",
            "project",
            "--harness",
            "claude-code",
            "--harness",
            "codex",
            "--program",
            "sessionkit",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        rows[0]["file"],
        repo.join(".claude/settings.json").display().to_string()
    );
    assert_eq!(rows[0]["scope"], "project");
    assert_eq!(
        rows[1]["file"],
        repo.join(".codex/hooks.json").display().to_string()
    );
    // Trust lives in the user's config.toml, keyed by the project file.
    let config = read(&codex_home.join("config.toml"));
    assert!(
        config.contains(&format!(
            "[hooks.state.\"{}:stop:0:0\"]\ntrusted_hash = \"sha256:18f15c8535582f682b2f669e2f2e15b8d29258efd73587095b5fdf9320e56a7b\"",
            repo.join(".codex/hooks.json").display()
        )),
        "{config}"
    );
    // The user's own files are untouched.
    assert!(!env.path("home/.claude").exists());
}

#[test]
fn stop_catches_up_a_turn_within_its_budget_and_leaves_more_to_session_end() {
    let env = Env::new();
    let root = env.path("projects");
    let (session, sid) = fixture_session();
    let text = read(&session);
    let dest = root.join("-proj").join(format!("{sid}.jsonl"));
    // Another session in the same root: a Stop reads only its own.
    put(
        &root.join("-other/55555555-5555-4555-8555-555555555555.jsonl"),
        &text.replace(&sid, "55555555-5555-4555-8555-555555555555"),
    );
    let half = text.lines().count() / 2;
    let first: String = text.lines().take(half).map(|l| format!("{l}\n")).collect();
    put(&dest, &first);
    let stop = || {
        let payload = serde_json::json!({"session_id": sid, "transcript_path": dest, "cwd": "/proj",
            "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "done"});
        let out = env
            .cmd()
            .args(["hook", "stop", "--harness", "claude-code"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    };
    let sessions = || -> Vec<Value> {
        let (_, out, _) = env.run(&["sessions", "--json"]);
        serde_json::from_str(&out).unwrap()
    };
    stop();
    assert_eq!(sessions().len(), 1, "its own session only");
    let records_half = sessions()[0]["records"].clone();
    // The rest of the turn arrives: the next Stop reads just that.
    put(&dest, &text);
    stop();
    let cold = Env::new();
    put(&cold.path("p/-proj").join(format!("{sid}.jsonl")), &text);
    cold.run(&["ingest", "--root", cold.path("p").to_str().unwrap()]);
    let (_, want, _) = cold.run(&["sessions", "--json"]);
    let want: Vec<Value> = serde_json::from_str(&want).unwrap();
    for k in [
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_5m_tokens",
        "cache_write_1h_tokens",
        "cost_nanousd",
        "records",
    ] {
        assert_eq!(sessions()[0][k], want[0][k], "{k}");
    }
    assert_ne!(records_half, want[0]["records"]);
    // Over the Stop's budget: nothing read, nothing noted (SessionEnd will).
    env.run(&["config", "set", "ingest.stop_max_bytes", "10"]);
    let mut more = text.clone();
    more.push_str(&text);
    put(&dest, &more);
    stop();
    assert_eq!(sessions()[0]["records"], want[0]["records"]);
    let (_, _, note) = env.run(&["status"]);
    assert!(!note.contains("too large"), "{note}");
}

#[test]
fn doctor_passes_every_client_s_rules_after_install() {
    // The scratch database doctor seeds holds `<angle>` brackets: Gemini's
    // briefing must come out without them.
    let env = Env::new();
    let (code, _, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "claude",
        "--harness",
        "codex",
        "--harness",
        "gemini",
        "--harness",
        "cursor",
        "--harness",
        "copilot",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = env.run(&["hooks", "doctor", "--scope", "user"]);
    let rows = lines(&out);
    let bad: Vec<&Value> = rows.iter().filter(|r| r["ok"] == false).collect();
    assert_eq!((code, bad.len()), (0, 0), "{bad:?}{err}");
    let outputs = rows.iter().filter(|r| r["check"] == "output").count();
    assert_eq!(outputs, 9 + 9 + 4 + 4 + 7);
    let gemini = rows
        .iter()
        .find(|r| r["harness"] == "gemini" && r["event"] == "SessionStart")
        .unwrap();
    assert!(
        gemini["detail"]
            .as_str()
            .unwrap()
            .contains("bytes accepted"),
        "{gemini}"
    );
}

#[test]
fn doctor_checks_the_database_the_hooks_name_and_runs_hand_written_entries() {
    let env = Env::new();
    let other = env.path("other.db");
    let (code, _, err) = env.run(&[
        "--db",
        other.to_str().unwrap(),
        "hooks",
        "install",
        "--harness",
        "cursor",
    ]);
    assert_eq!(code, 0, "{err}");
    // A hand-written entry for an event beside them.
    let file = env.path("home/.cursor/hooks.json");
    let mut doc: Value = serde_json::from_str(&read(&file)).unwrap();
    let sk = assert_cmd::cargo::cargo_bin("sessionkit")
        .display()
        .to_string();
    doc["hooks"]["stop"] = serde_json::json!([{"command": format!("{sk} hook stop")}]);
    put(&file, &doc.to_string());
    let (code, out, _) = env.run(&["hooks", "doctor", "--harness", "cursor", "--scope", "user"]);
    assert_eq!(code, 1, "the hand-written entry is a problem with a fix");
    let rows = lines(&out);
    let stop: Vec<&Value> = rows.iter().filter(|r| r["event"] == "stop").collect();
    assert_eq!(stop.len(), 2, "{stop:?}");
    assert_eq!(stop[0]["ok"], false);
    assert_eq!(
        stop[0]["fix"],
        "sessionkit hooks install --harness cursor --scope user (adopts it)"
    );
    assert_eq!(stop[1]["check"], "output");
    assert_eq!(stop[1]["ok"], true, "{}", stop[1]);
    let dbs: Vec<&str> = rows
        .iter()
        .filter(|r| r["check"] == "database")
        .map(|r| r["detail"].as_str().unwrap())
        .collect();
    assert_eq!(dbs.len(), 2, "{dbs:?}");
    assert!(
        dbs[0].starts_with(&format!("{} takes writes", other.display())),
        "{dbs:?}"
    );
    assert!(
        dbs[1].starts_with(&format!("{} takes writes", env.db().display())),
        "{dbs:?}"
    );
}

#[test]
fn doctor_flags_an_event_that_would_run_sessionkit_twice() {
    let env = Env::new();
    let repo = env.path("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let codex_home = env.path("codex-home");
    put(
        &codex_home.join("config.toml"),
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"sessionkit hook stop\"\n",
    );
    let run = |args: &[&str]| {
        let out = env
            .cmd()
            .current_dir(&repo)
            .env("CODEX_HOME", &codex_home)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let out = env
        .cmd()
        .current_dir(&repo)
        .env("CODEX_HOME", &codex_home)
        .args([
            "hooks",
            "install",
            "--harness",
            "codex",
            "--harness",
            "claude",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Install says so at once.
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("codex: Stop runs sessionkit 2 times ("),
        "{err}"
    );
    // The same commands in the project's Claude settings: Claude Code runs
    // identical handlers once, so that is fine.
    assert_eq!(
        run(&[
            "hooks",
            "install",
            "--harness",
            "claude",
            "--scope",
            "project"
        ])
        .0,
        0
    );
    let (code, out) = run(&[
        "hooks",
        "doctor",
        "--harness",
        "codex",
        "--harness",
        "claude",
    ]);
    assert_eq!(code, 1);
    let twice: Vec<Value> = lines(&out)
        .into_iter()
        .filter(|r| r["ok"] == false && r["detail"].as_str().unwrap().contains("runs sessionkit"))
        .collect();
    assert_eq!(twice.len(), 1, "{twice:?}");
    assert_eq!(
        (twice[0]["harness"].as_str(), twice[0]["event"].as_str()),
        (Some("codex"), Some("Stop"))
    );
    assert!(
        twice[0]["detail"].as_str().unwrap().contains("config.toml"),
        "{}",
        twice[0]
    );
    // A project registration with another database does run twice.
    let other = env.path("other.db");
    assert_eq!(
        run(&[
            "--db",
            other.to_str().unwrap(),
            "hooks",
            "install",
            "--harness",
            "claude",
            "--scope",
            "project"
        ])
        .0,
        0
    );
    let (_, out) = run(&["hooks", "doctor", "--harness", "claude"]);
    let claude_twice = lines(&out)
        .into_iter()
        .filter(|r| {
            r["ok"] == false
                && r["detail"]
                    .as_str()
                    .unwrap()
                    .contains("runs sessionkit 2 times")
        })
        .count();
    assert_eq!(claude_twice, 9, "each of Claude Code's events");
}

#[test]
fn a_symlinked_settings_file_stays_a_symlink() {
    // Dotfile managers link ~/.claude/settings.json into a checkout.
    let env = Env::new();
    let target = env.path("dotfiles/claude-settings.json");
    put(&target, "{ \"model\" :\t\"opus\" }\n");
    let link = env.path("home/.claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, out, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let doc: Value = serde_json::from_str(&read(&target)).unwrap();
    assert_eq!(doc["model"], "opus");
    assert_eq!(doc["hooks"].as_object().unwrap().len(), 9);
    let backup = lines(&out)[0]["backups"][0].as_str().unwrap().to_string();
    assert!(
        backup.starts_with(&format!("{}.sessionkit-", target.display())),
        "{backup}"
    );
    assert_eq!(read(Path::new(&backup)), "{ \"model\" :\t\"opus\" }\n");
    // Uninstalled through the link: the target's own bytes again (its
    // spacing kept), and still a link.
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "claude-code"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&target), "{ \"model\" :\t\"opus\" }\n");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn status_names_an_unreadable_file_and_goes_on_and_uninstall_without_files_is_a_no_op() {
    let env = Env::new();
    put(&env.path("home/.claude/settings.json"), "{ not json");
    env.run(&[
        "hooks",
        "install",
        "--harness",
        "cursor",
        "--program",
        "sessionkit",
    ]);
    let (code, out, err) = env.run(&["hooks", "status", "--scope", "user"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("settings.json is not valid JSON"), "{err}");
    let rows = lines(&out);
    let claude: Vec<&Value> = rows
        .iter()
        .filter(|r| r["harness"] == "claude-code")
        .collect();
    assert_eq!(claude.len(), 1);
    assert_eq!(claude[0]["state"], "unreadable");
    assert_eq!(
        rows.iter()
            .filter(|r| r["harness"] == "cursor" && r["state"] == "registered")
            .count(),
        4
    );
    // Nothing installed for Gemini: uninstall changes nothing, creates nothing.
    let (code, out, _) = env.run(&["hooks", "uninstall", "--harness", "gemini"]);
    assert_eq!(code, 0);
    assert_eq!(lines(&out)[0]["changed"], false);
    assert!(!env.path("home/.gemini").exists());
}

#[test]
fn doctor_measures_each_hook_against_its_own_timeout() {
    let env = Env::new();
    env.run(&["hooks", "install", "--harness", "gemini"]);
    let file = env.path("home/.gemini/settings.json");
    let mut doc: Value = serde_json::from_str(&read(&file)).unwrap();
    // Someone set 1 ms (Gemini counts milliseconds): no hook runs in half
    // of it (10 ms was flaky: a warm machine runs a hook in 5).
    doc["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"] = 1.into();
    put(&file, &doc.to_string());
    let (code, out, _) = env.run(&["hooks", "doctor", "--harness", "gemini", "--scope", "user"]);
    assert_eq!(code, 1);
    let bad: Vec<Value> = lines(&out)
        .into_iter()
        .filter(|r| r["ok"] == false)
        .collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0]["event"], "AfterAgent");
    let detail = bad[0]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("took ") && detail.ends_with(" ms of its 1 ms timeout"),
        "{detail}"
    );
}

#[test]
fn a_relative_program_is_registered_by_its_absolute_path() {
    let env = Env::new();
    let (code, _, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "cursor",
        "--program",
        "bin/sessionkit",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&read(&env.path("home/.cursor/hooks.json"))).unwrap();
    assert_eq!(
        doc["hooks"]["stop"][0]["command"],
        format!(
            "{} hook stop --harness cursor",
            env.path("bin/sessionkit").display()
        )
    );
}

/// The user's file as it was before sessionkit first touched it is kept
/// forever (`settings.json.sessionkit-orig`), never overwritten by later
/// runs; every change's backup has a name of its own, even within one
/// second; an uninstall of a file unchanged since install gives back the
/// original's bytes (spacing, escapes, key order), and one the user edited
/// meanwhile keeps their edit.
#[test]
fn the_original_file_is_kept_and_given_back_byte_for_byte() {
    let env = Env::new();
    let file = env.path("home/.claude/settings.json");
    let original = "{\n\t\"model\":   \"opus\",\n\t\"name\": \"caf\\u00e9\",\n\t\"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n";
    put(&file, original);
    let orig = env.path("home/.claude/settings.json.sessionkit-orig");
    let install = [
        "hooks",
        "install",
        "--harness",
        "claude-code",
        "--program",
        "sessionkit",
    ];
    let uninstall = ["hooks", "uninstall", "--harness", "claude-code"];
    for round in 0..2 {
        let (code, _, err) = env.run(&install);
        assert_eq!(code, 0, "{err}");
        assert_ne!(read(&file), original);
        assert_eq!(
            read(&orig),
            original,
            "round {round}: the original is kept as it was"
        );
        let (code, _, err) = env.run(&uninstall);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            read(&file),
            original,
            "round {round}: given back byte for byte"
        );
    }
    // Four changes within a few seconds: four backups, each of its own.
    let b = backups(&env.path("home/.claude"));
    assert_eq!(b.len(), 4, "{b:?}");
    // Installed, then edited by the user in their own style: uninstall
    // takes out sessionkit's entries and keeps every other byte.
    env.run(&install);
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    let hooks = serde_json::to_string(&doc["hooks"]).unwrap();
    put(
        &file,
        &format!(
            "{{\n\t\"model\":   \"opus\",\n\t\"hooks\": {hooks},\n\t\"name\": \"caf\\u00e9\",\n\t\"theme\" : \"dark\"\n}}\n"
        ),
    );
    let (code, _, err) = env.run(&uninstall);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        read(&file),
        "{\n\t\"model\":   \"opus\",\n\t\"name\": \"caf\\u00e9\",\n\t\"theme\" : \"dark\"\n}\n"
    );
    assert_eq!(read(&orig), original);
}

/// A settings file its owner made read-only is refused, unchanged, with
/// its fix; `--force` changes it anyway.
#[test]
fn a_read_only_settings_file_is_refused_unless_forced() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let file = env.path("home/.claude/settings.json");
    put(&file, "{}\n");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let install = [
        "hooks",
        "install",
        "--harness",
        "claude-code",
        "--program",
        "sessionkit",
    ];
    let (code, _, err) = env.run(&install);
    assert_eq!(code, 2);
    assert!(
        err.contains("is read-only (mode 444)") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(read(&file), "{}\n");
    let (code, _, err) = env.run(&[&install[..], &["--force"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(read(&file).contains("sessionkit hook"));
}

/// `--statusline` registers `sessionkit statusline` as Claude Code's status
/// line beside the hooks (its database named when `--db` is); a second
/// install changes nothing; a status line of the user's own is left as it
/// is (and said); uninstall takes out only sessionkit's, leaving the file
/// as it was.
#[test]
fn install_registers_the_status_line_only_where_it_is_free() {
    let env = Env::new();
    let file = env.path("home/.claude/settings.json");
    let before = "{\n  \"model\": \"opus\"\n}\n";
    put(&file, before);
    let db = env.db().display().to_string();
    let args = [
        "hooks",
        "install",
        "--harness",
        "claude-code",
        "--statusline",
        "--program",
        "sessionkit",
        "--db",
        &db,
    ];
    let (code, _, err) = env.run(&args);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(
        doc["statusLine"],
        serde_json::json!({"type": "command", "command": format!("sessionkit --db {db} statusline")})
    );
    assert_eq!(doc["model"], "opus");
    let (code, out, _) = env.run(&[&args[..], &["--format", "jsonl"]].concat());
    assert_eq!(code, 0);
    let rows = lines(&out);
    assert_eq!(rows[0]["added"], serde_json::json!([]), "{out}");
    assert_eq!(rows[0]["updated"], serde_json::json!([]), "{out}");
    // Uninstall: the file as it was.
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "claude-code"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&file), before);
    // A status line of the user's own stays, and the install says so.
    let own = "{\n  \"statusLine\": {\"type\": \"command\", \"command\": \"~/bin/my-line\"}\n}\n";
    put(&file, own);
    let (code, _, err) = env.run(&args);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(doc["statusLine"]["command"], "~/bin/my-line");
    assert!(
        err.contains("a status line of your own is set (~/bin/my-line): left as it is"),
        "{err}"
    );
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "claude-code"]);
    assert_eq!(code, 0);
    // (The same document: the bytes sessionkit first saw were the other file.)
    let after: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(after, serde_json::from_str::<Value>(own).unwrap());
}

/// A settings file that is a FIFO (or links to a device) is refused at
/// once, never waited on or read without end; nothing is written.
#[test]
fn a_settings_file_that_is_a_fifo_or_a_device_is_refused() {
    let env = Env::new();
    let dir = env.path("home/.claude");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&settings)
            .status()
            .unwrap()
            .success()
    );
    let started = std::time::Instant::now();
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a regular file"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    std::fs::remove_file(&settings).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &settings).unwrap();
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "claude-code"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a regular file"), "{err}");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["settings.json"]);
}

/// Qwen Code's hooks go in its own settings file in Claude Code's layout
/// and event names (not Gemini CLI's, which it skips), beside the keys the
/// user has; uninstall gives the file's bytes back.
#[test]
fn qwen_code_gets_claude_code_s_layout_in_its_own_settings() {
    let env = Env::new();
    let file = env.path("home/.qwen/settings.json");
    let original = "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"openai\"\n    }\n  },\n  \"$version\": 4\n}\n";
    put(&file, original);
    let (code, out, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "qwen",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[0]["added"],
        serde_json::json!([
            "SessionStart",
            "UserPromptSubmit",
            "Stop",
            "SubagentStart",
            "SubagentStop",
            "PreCompact",
            "PostCompact",
            "SessionEnd"
        ])
    );
    let doc: Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(doc["security"]["auth"]["selectedType"], "openai");
    assert_eq!(
        doc["hooks"]["Stop"][0]["hooks"][0],
        serde_json::json!({"type": "command", "command": "sessionkit hook stop --harness qwen-code", "timeout": 10})
    );
    assert!(doc["hooks"].get("AfterAgent").is_none());
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "qwen-code"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&file), original);
}

/// An install over every harness found also names the clients found on
/// the machine that take no hooks (their sessions are read by ingest).
#[test]
fn install_names_the_found_clients_that_take_no_hooks() {
    let env = Env::new();
    let home = env.path("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    crate::common::copy_tree(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/golden/vibe/corpus/unified"),
        &home.join(".vibe/logs/session/unified"),
    );
    let (code, _, err) = env.run(&["hooks", "install", "--dry-run", "--program", "sessionkit"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "also found Mistral Vibe, with no hooks to register: `sessionkit ingest` reads their sessions"
        ),
        "{err}"
    );
    // Named harnesses: only what was asked.
    let (_, _, err) = env.run(&[
        "hooks",
        "install",
        "--dry-run",
        "--harness",
        "claude-code",
        "--program",
        "sessionkit",
    ]);
    assert!(!err.contains("also found"), "{err}");
}

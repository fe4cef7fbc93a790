//! `hooks install|uninstall|status|doctor` for the clients whose handlers
//! are not a JSON file: Kimi CLI's block of TOML, Cline's programs, the
//! OpenCode, Kilo and pi scripts. Written whole, read back, refused where
//! the file is not one the client reads or not sessionkit's, undone to the
//! byte; the scripts load and never throw nor wait past their budget.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::Env;

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn put(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The one text column `sql` selects, row by row.
fn texts(env: &Env, sql: &str) -> Vec<String> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut stmt = c.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn kimi_cli_gets_a_block_of_toml_and_uninstall_gives_the_bytes_back() {
    let env = Env::new();
    let file = env.path("home/.kimi/config.toml");
    // No newline at the end: the block starts on a line of its own.
    let original = "default_model = \"fake\"\n[providers.fake]\ntype = \"openai_legacy\"";
    put(&file, original);
    let (code, out, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "kimi",
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
            "StopFailure",
            "SubagentStart",
            "SubagentStop",
            "PreCompact",
            "SessionEnd"
        ])
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with(&format!("{original}\n# >>> sessionkit hooks")));
    assert!(text.ends_with("# <<< sessionkit hooks <<<\n"));
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    assert_eq!(
        doc["providers"]["fake"]["type"].as_str(),
        Some("openai_legacy")
    );
    let hooks = doc["hooks"].as_array_of_tables().unwrap();
    assert_eq!(hooks.len(), 8);
    let stop = hooks
        .iter()
        .find(|t| t["event"].as_str() == Some("Stop"))
        .unwrap();
    assert_eq!(
        (stop["command"].as_str(), stop["timeout"].as_integer()),
        (Some("sessionkit hook stop --harness kimi"), Some(10))
    );
    // Read back: every event registered; a second install changes nothing.
    let (_, out, _) = env.run(&["hooks", "status", "--harness", "kimi"]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r["state"] == "registered"), "{rows:?}");
    let (_, out, _) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "kimi",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(lines(&out)[0]["changed"], false);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "kimi"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    // A file sessionkit created is removed whole.
    std::fs::remove_file(&file).unwrap();
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "kimi"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "kimi"]);
    assert_eq!(code, 0, "{err}");
    assert!(!file.exists());
}

#[test]
fn kimi_cli_s_edits_outside_the_block_survive_and_a_file_it_cannot_read_is_refused() {
    let env = Env::new();
    let file = env.path("home/.kimi/config.toml");
    put(&file, "default_model = \"fake\"\n");
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "kimi"]);
    assert_eq!(code, 0, "{err}");
    // The user adds a table of their own after the block.
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("[[hooks]]\nevent = \"Stop\"\ncommand = \"notify-send done\"\n");
    std::fs::write(&file, &text).unwrap();
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "kimi"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "default_model = \"fake\"\n[[hooks]]\nevent = \"Stop\"\ncommand = \"notify-send done\"\n"
    );
    // Not TOML, or a `hooks` the block cannot join: refused, unchanged.
    for bad in ["default_model = \n", "hooks = []\n"] {
        put(&file, bad);
        let (code, _, err) = env.run(&["hooks", "install", "--harness", "kimi"]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("config.toml"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), bad);
    }
    // A block whose end line is gone is not guessed at.
    put(&file, "");
    env.run(&["hooks", "install", "--harness", "kimi"]);
    let cut: String = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("<<< sessionkit hooks"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, &cut).unwrap();
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "kimi"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no end line"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), cut);
    // Kimi reads no project hooks.
    let (code, _, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "kimi",
        "--scope",
        "project",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("user settings only"), "{err}");
}

#[test]
fn cline_gets_a_program_per_event_and_a_file_of_its_user_s_is_never_replaced() {
    let env = Env::new();
    let dir = env.path("home/.cline/hooks");
    let (code, out, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "cline",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out)[0]["file"], dir.display().to_string());
    assert_eq!(
        names(&dir),
        [
            "SessionShutdown.sh",
            "TaskCancel.sh",
            "TaskComplete.sh",
            "TaskError.sh",
            "TaskResume.sh",
            "TaskStart.sh",
            "UserPromptSubmit.sh"
        ]
    );
    let start = dir.join("TaskStart.sh");
    assert_eq!(
        std::fs::metadata(&start).unwrap().permissions().mode() & 0o777,
        0o755
    );
    let text = std::fs::read_to_string(&start).unwrap();
    assert!(text.starts_with("#!/bin/sh\n# sessionkit-hooks "), "{text}");
    assert!(
        text.ends_with("\nexec sessionkit hook session-start --harness cline\n"),
        "{text}"
    );
    // A payload as Cline sends it, through the program it runs.
    let payload = r#"{"clineVersion":"","taskId":"conv_1","sessionContext":{"rootSessionId":"1796497570399_s6ztu"},"workspaceRoots":["/w/proj"],"agent_id":"agent_1","parent_agent_id":null,"hookName":"agent_start","taskStart":{"taskMetadata":{}}}"#;
    let program = std::fs::read_to_string(&start).unwrap().replace(
        "exec sessionkit",
        &format!(
            "exec {}",
            assert_cmd::cargo::cargo_bin("sessionkit").display()
        ),
    );
    let run = env.path("TaskStart.sh");
    std::fs::write(&run, program).unwrap();
    let mut child = std::process::Command::new("/bin/sh")
        .arg(&run)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.path("home"))
        .env("SESSIONKIT_DB", env.db())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(
        texts(
            &env,
            "SELECT harness || ' ' || event || ' ' || session_id FROM events_raw"
        ),
        ["cline agent_start 1796497570399_s6ztu"]
    );
    // The user's own program for an event: install stops, writes nothing.
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "cline"]);
    assert_eq!(code, 0);
    assert!(
        names(&dir).is_empty(),
        "no backups of sessionkit's own files"
    );
    put(&dir.join("TaskError.sh"), "#!/bin/sh\nlogger failed\n");
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "cline"]);
    assert_eq!(code, 2);
    assert!(err.contains("TaskError.sh is not sessionkit's"), "{err}");
    assert_eq!(names(&dir), ["TaskError.sh"]);
    // Uninstall leaves it alone.
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "cline"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("TaskError.sh")).unwrap(),
        "#!/bin/sh\nlogger failed\n"
    );
}

/// Runs `script` (an installed plugin or extension) in Node with `driver`
/// appended; its stdout. `None` where Node is not installed.
fn node(env: &Env, script: &Path, driver: &str) -> Option<String> {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skip: node is not installed, the generated scripts are not run");
        return None;
    }
    let text = std::fs::read_to_string(script).unwrap();
    let module = env.path("driver.mjs");
    std::fs::write(&module, format!("{text}\n{driver}\n")).unwrap();
    // The environment the client would give it: the test's home and
    // database, nothing of the user's.
    let out = std::process::Command::new("node")
        .arg(&module)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.path("home"))
        .env("SESSIONKIT_DB", env.db())
        .current_dir(env.path(""))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_opencode_plugin_briefs_continues_once_and_never_throws_nor_waits_past_its_budget() {
    let env = Env::new();
    let (code, _, err) = env.run(&[
        "remember",
        "--kind",
        "decision",
        "--project",
        "proj",
        "--topic",
        "Plugin decision",
        "--content",
        "Keep the plugin green",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "opencode", "--with-nudge"]);
    assert_eq!(code, 0, "{err}");
    let plugin = env.path("home/.config/opencode/plugin/sessionkit.js");
    let proj = env.path("proj");
    std::fs::create_dir_all(&proj).unwrap();
    // A session as OpenCode drives the plugin: created, a request's
    // system prompt, its text complete twice (the second a continuation).
    let driver = format!(
        r#"
const prompts = []
const client = {{ session: {{ prompt: async (x) => {{ prompts.push(x.parts[0].text.slice(0, 40)) }} }} }}
const h = await Sessionkit({{ client, directory: {proj:?} }})
await h.event({{ event: {{ type: "session.created", properties: {{ sessionID: "ses_1", info: {{ id: "ses_1" }} }} }} }})
const system = []
await h["experimental.chat.system.transform"]({{ sessionID: "ses_1" }}, {{ system }})
await h["experimental.chat.system.transform"]({{ sessionID: "title-ses_1" }}, {{ system: [] }})
await h["experimental.text.complete"]({{ sessionID: "ses_1" }}, {{ text: "done" }})
console.log(JSON.stringify({{ briefed: system.some((s) => s.includes("Keep the plugin green")), prompts }}))
"#
    );
    let Some(out) = node(&env, &plugin, &driver) else {
        return;
    };
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["briefed"], true, "{out}");
    assert_eq!(
        texts(
            &env,
            "SELECT event || ' ' || session_id FROM events_raw ORDER BY id"
        ),
        ["SessionStart ses_1", "Stop ses_1"]
    );
    // No run wrote a memory: nothing to debrief, nothing continued.
    assert_eq!(v["prompts"], serde_json::json!([]));
    // A command that hangs is killed at its budget; one that fails or is
    // missing is no error of the client's.
    let hang = env.path("hang.sh");
    put(&hang, "#!/bin/sh\nsleep 60\n");
    std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    let text = std::fs::read_to_string(&plugin).unwrap();
    let cmd = assert_cmd::cargo::cargo_bin("sessionkit")
        .display()
        .to_string();
    let broken = env.path("broken.js");
    let patched = text
        .replace(
            &format!("\"{cmd} hook session-start"),
            &format!("\"{} hook session-start", hang.display()),
        )
        .replace(&cmd, "/nonexistent/sessionkit");
    assert!(patched.contains("hang.sh hook session-start"));
    std::fs::write(&broken, patched).unwrap();
    let started = Instant::now();
    let driver = r#"
const h = await Sessionkit({ directory: "/nonexistent" })
const system = []
await h.event({ event: { type: "session.created", properties: { sessionID: "ses_2", info: { id: "ses_2" } } } })
await h["experimental.chat.system.transform"]({ sessionID: "ses_2" }, { system })
await h["chat.message"]({ sessionID: "ses_2" }, { parts: [{ type: "text", text: "hi" }] })
await h["experimental.text.complete"]({ sessionID: "ses_2" }, null)
await h.event(null)
await h["chat.message"](undefined, undefined)
console.log(JSON.stringify(system))
"#;
    let out = node(&env, &broken, driver).unwrap();
    let took = started.elapsed();
    assert_eq!(out.trim(), "[]");
    // The hung SessionStart's budget is 10 s; the rest fail at once.
    assert!(
        took >= Duration::from_secs(10) && took < Duration::from_secs(20),
        "{took:?}"
    );
}

/// A continued turn: the plugin hands the debrief to the client and
/// returns only once the client has stored it (the turn's loop, waiting
/// on the hook, then finds it); a client without `promptAsync` gets the
/// plain prompt, not awaited.
#[test]
fn the_opencode_plugin_returns_once_the_debrief_is_stored() {
    let env = Env::new();
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "opencode", "--with-nudge"]);
    assert_eq!(code, 0, "{err}");
    let plugin = env.path("home/.config/opencode/plugin/sessionkit.js");
    let block = env.path("block.sh");
    put(
        &block,
        "#!/bin/sh\ncat >/dev/null\necho '{\"decision\":\"block\",\"reason\":\"debrief now\"}'\n",
    );
    std::fs::set_permissions(&block, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cmd = assert_cmd::cargo::cargo_bin("sessionkit")
        .display()
        .to_string();
    let text = std::fs::read_to_string(&plugin).unwrap();
    let stop = format!("\"{cmd} hook stop");
    assert!(text.contains(&stop), "{text}");
    let patched = env.path("patched.js");
    std::fs::write(
        &patched,
        text.replace(&stop, &format!("\"{} hook stop", block.display())),
    )
    .unwrap();
    // The message lands 300 ms after the request is taken.
    let driver = r#"
const stored = []
const log = []
const session = {
  promptAsync: async (x) => {
    log.push("queued")
    setTimeout(() => stored.push({ info: { role: "user" }, parts: x.parts }), 300)
  },
  messages: async () => ({ data: stored.slice() }),
}
const h = await Sessionkit({ client: { session }, directory: "/tmp" })
await h.event({ event: { type: "session.created", properties: { sessionID: "s", info: { id: "s" } } } })
await h["experimental.text.complete"]({ sessionID: "s" }, { text: "done" })
log.push("returned with " + stored.length)
await h["experimental.text.complete"]({ sessionID: "s" }, { text: "debriefed" })
log.push("second turn end: " + stored.length)
const old = []
const h2 = await Sessionkit({ client: { session: { prompt: async (x) => old.push(x.parts[0].text) } } })
await h2.event({ event: { type: "session.created", properties: { sessionID: "t", info: { id: "t" } } } })
await h2["experimental.text.complete"]({ sessionID: "t" }, { text: "done" })
log.push("older client: " + old.join())
console.log(log.join("; "))
"#;
    let Some(out) = node(&env, &patched, driver) else {
        return;
    };
    assert_eq!(
        out.trim(),
        "queued; returned with 1; second turn end: 1; older client: debrief now"
    );
}

#[test]
fn the_pi_extension_and_the_kilo_plugin_load_and_are_removed_whole() {
    let env = Env::new();
    for (harness, file) in [
        ("pi", "home/.pi/agent/extensions/sessionkit.ts"),
        ("kilo", "home/.config/kilo/plugin/sessionkit.js"),
    ] {
        let (code, out, err) = env.run(&["hooks", "install", "--harness", harness]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(lines(&out)[0]["changed"], true);
        let path = env.path(file);
        let (_, out, _) = env.run(&["hooks", "status", "--harness", harness, "--scope", "user"]);
        assert!(
            lines(&out).iter().all(|r| r["state"] == "registered"),
            "{out}"
        );
        let driver = if harness == "pi" {
            "const on = []\nsessionkit({ on: (e) => on.push(e), sendUserMessage: () => {} })\nconsole.log(on.join(' '))"
        } else {
            "const h = await Sessionkit({})\nconsole.log(Object.keys(h).join(' '))"
        };
        if let Some(out) = node(&env, &path, driver) {
            let want = if harness == "pi" {
                "session_start before_agent_start turn_end session_before_compact session_shutdown"
            } else {
                "event chat.message experimental.chat.system.transform experimental.text.complete experimental.session.compacting"
            };
            assert_eq!(out.trim(), want, "{harness}");
        }
        let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", harness]);
        assert_eq!(code, 0, "{err}");
        assert!(!path.exists(), "{harness}");
        assert!(names(path.parent().unwrap()).is_empty(), "{harness}");
    }
}

#[test]
fn hermes_gets_a_hooks_block_and_its_consent_and_uninstall_takes_both_back() {
    let env = Env::new();
    let file = env.path("home/.hermes/config.yaml");
    let allow = env.path("home/.hermes/shell-hooks-allowlist.json");
    let original = "model:\n  default: fake-model\nhooks: {}\n";
    put(&file, original);
    // The user approved a hook of their own before.
    let theirs = "{\n  \"approvals\": [\n    {\n      \"approved_at\": \"2026-12-01T00:00:00Z\",\n      \"command\": \"notify-send\",\n      \"event\": \"pre_tool_call\",\n      \"script_mtime_at_approval\": null\n    }\n  ]\n}";
    put(&allow, theirs);
    let (code, out, err) = env.run(&[
        "hooks",
        "install",
        "--harness",
        "hermes",
        "--program",
        "sessionkit",
    ]);
    assert_eq!(code, 0, "{err}");
    let row = &lines(&out)[0];
    assert_eq!(row["trust_file"], allow.display().to_string());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with(original), "{text}");
    assert!(text.contains(
        "hooks:\n  on_session_start:\n    - command: \"sessionkit hook event --harness hermes\"\n      timeout: 5\n  pre_llm_call:\n    - command: \"sessionkit hook session-start --harness hermes\"\n"
    ), "{text}");
    let approvals: Value = serde_json::from_str(&std::fs::read_to_string(&allow).unwrap()).unwrap();
    let pairs: Vec<String> = approvals["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            format!(
                "{} {}",
                a["event"].as_str().unwrap(),
                a["command"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            "pre_tool_call notify-send",
            "on_session_start sessionkit hook event --harness hermes",
            "pre_llm_call sessionkit hook session-start --harness hermes",
            "on_session_end sessionkit hook stop --harness hermes",
            "subagent_start sessionkit hook event --harness hermes",
            "subagent_stop sessionkit hook event --harness hermes",
            "on_session_finalize sessionkit hook session-end --harness hermes",
        ]
    );
    // Consent taken back in Hermes for one event: status and doctor say so.
    let mut revoked = approvals.clone();
    revoked["approvals"]
        .as_array_mut()
        .unwrap()
        .retain(|a| a["event"] != "on_session_end");
    std::fs::write(&allow, revoked.to_string()).unwrap();
    let (_, out, _) = env.run(&["hooks", "status", "--harness", "hermes"]);
    let states: Vec<String> = lines(&out)
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["event"].as_str().unwrap(),
                r["state"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        states.contains(&"on_session_end untrusted".to_string()),
        "{states:?}"
    );
    assert_eq!(
        states.iter().filter(|s| s.ends_with(" registered")).count(),
        5,
        "{states:?}"
    );
    let (code, out, _) = env.run(&["hooks", "doctor", "--harness", "hermes"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("Hermes Agent has no consent to on_session_end on record"),
        "{out}"
    );
    std::fs::write(&allow, serde_json::to_string_pretty(&approvals).unwrap()).unwrap();
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "hermes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert_eq!(std::fs::read_to_string(&allow).unwrap(), theirs);
    // Hooks of the user's own in the file: sessionkit's cannot be a second
    // `hooks:`; refused, nothing written.
    let mine = "hooks:\n  pre_tool_call:\n    - command: notify-send\n";
    put(&file, mine);
    let (code, _, err) = env.run(&["hooks", "install", "--harness", "hermes"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("hooks of its own (`hooks:` at line 1)"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), mine);
    assert_eq!(std::fs::read_to_string(&allow).unwrap(), theirs);
}

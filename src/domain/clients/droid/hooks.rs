//! Factory Droid's hooks: Claude Code's layout and event names in
//! `~/.factory/settings.json` (a project's `.factory/settings.json`),
//! grouped handlers with timeouts in seconds; a SessionStart hook's
//! output reaches the model. In `exec` no UserPromptSubmit fires for the
//! prompt itself. Its hooks carry no variable of its own: known by the
//! command's `--harness`, or by its transcript's folder.

use serde_json::{Map, Value, json};

use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Output, Registration as R, Settings, as_read,
    decision_keys, no_env, no_env_sign, specific_output, str_of,
};

pub static HOOKS: Hooks = Hooks {
    name: "droid",
    aliases: &["factory-droid"],
    label: "Factory Droid",
    handle: "fd",
    detect: Detect {
        env: no_env_sign,
        payload,
        rank: 2,
    },
    names_events: true,
    normalize: as_read,
    settings: Settings {
        user_dir: |home, _: Env<'_>| home.join(".factory"),
        user_file: "settings.json",
        project_file: ".factory/settings.json",
        project_also: &[],
        programs: &["droid"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        // `droid mcp add`.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, _| home.join(".factory/mcp.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"type": "stdio", "command": command, "args": args, "disabled": false}),
        }),
        form: crate::domain::harness::Form::Json,
    },
    // Claude Code's names.
    kinds: super::super::claude_code::hooks::KINDS,
    registrations: &[
        R::new("SessionStart", "session-start", 10),
        R::new("UserPromptSubmit", "user-prompt-submit", 5),
        R::new("Stop", "stop", 10),
        R::new("SubagentStop", "event", 5),
        R::new("PreCompact", "pre-compact", 5),
        R::new("SessionEnd", "session-end", 5),
    ],
    handlers: Handlers::grouped(&["command"], 60_000),
    answers: Answers {
        start: |c| Some(specific_output("SessionStart", c)),
        prompt: |c| Some(specific_output("UserPromptSubmit", c)),
        stop: |prompt| json!({"decision": "block", "reason": prompt}).to_string(),
        replays_start_context: false,
        catch_up: true,
        shows_stderr: false,
        escapes_angles: false,
        own_ceiling: false,
        max_bytes: None,
        max_bytes_why: "",
    },
    sample,
    output: Output {
        plain_text: &["SessionStart", "UserPromptSubmit"],
        keys: decision_keys,
        decisions: &["approve", "block"],
        strict_specific: false,
        context_units: None,
    },
};

/// A payload of Droid's: its transcript in `~/.factory/sessions`, or the
/// `CLAUDE_ENV_FILE` its SessionStart names under `~/.factory`.
fn payload(_: Env<'_>, p: &Map<String, Value>) -> bool {
    str_of(p, &["transcript_path", "CLAUDE_ENV_FILE"]).is_some_and(|t| t.contains("/.factory/"))
}

/// Its payload for `event`: Claude Code's common fields and the event's
/// own, as Droid 0.225 sends them.
fn sample(event: &str, cwd: &str) -> Value {
    let sid = crate::domain::harness::DOCTOR_SESSION;
    let mut p = json!({"session_id": sid,
        "transcript_path": format!("{cwd}/.factory/sessions/doctor/{sid}.jsonl"),
        "cwd": cwd, "permission_mode": "auto-high", "hook_event_name": event});
    let message = "d0c70000-0000-4000-8000-000000000001";
    let own = match event {
        "SessionStart" => json!({"source": "startup",
            "CLAUDE_ENV_FILE": format!("{cwd}/.factory/temp/env/droid-env-{sid}.sh")}),
        "UserPromptSubmit" => {
            json!({"message_id": message, "prompt": "doctor check", "has_images": false})
        }
        "Stop" => json!({"message_id": message, "stop_hook_active": false,
            "tool_execution_count": 0, "elapsed_time": 110}),
        "SubagentStop" => json!({"task_name": "probe agent", "task_result": "sub done",
            "stop_hook_active": false}),
        "PreCompact" => json!({"trigger": "manual", "custom_instructions": Value::Null}),
        "SessionEnd" => json!({"message_id": message, "reason": "other",
            "session_duration_ms": 368.5, "message_count": 9}),
        _ => json!({}),
    };
    crate::domain::harness::extend(&mut p, own);
    p
}

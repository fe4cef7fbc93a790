//! Gemini CLI's hooks: `settings.json` under `~/.gemini` (or
//! `$GEMINI_CLI_HOME/.gemini`) or a project's `.gemini/`, grouped handlers
//! with timeouts in milliseconds; context back as
//! `hookSpecificOutput.additionalContext`, its angle brackets escaped; a
//! hook's stderr shown to the user.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::super::claude_code::hooks::common;
use crate::domain::harness::extend;
use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Kind, Output, Registration as R, Settings, set,
    specific_output, str_of,
};

/// Gemini CLI 0.61's hook events; any other key is skipped with a warning.
const EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "Notification",
    "AfterAgent",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
];

pub static HOOKS: Hooks = Hooks {
    name: "gemini",
    aliases: &["gemini-cli"],
    label: "Gemini CLI",
    handle: "gm",
    detect: Detect {
        env: |env| set(env, "GEMINI_PROJECT_DIR") || set(env, "GEMINI_SESSION_ID"),
        payload,
        rank: 3,
    },
    names_events: true,
    normalize: crate::domain::harness::as_read,
    settings: Settings {
        user_dir,
        user_file: "settings.json",
        project_file: ".gemini/settings.json",
        project_also: &[],
        programs: &["gemini"],
        hook_env: |project| {
            vec![
                ("GEMINI_PROJECT_DIR", project.to_string()),
                ("GEMINI_CWD", project.to_string()),
                (
                    "GEMINI_SESSION_ID",
                    crate::domain::harness::DOCTOR_SESSION.into(),
                ),
            ]
        },
        project_note: Some(
            "a project's .gemini/settings.json is read in trusted folders only; Gemini CLI warns about new project hooks once, then runs them",
        ),
        trust: false,
        status_line: false,
        // `gemini mcp add --scope user`: the same settings file.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| user_dir(home, env).join("settings.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"command": command, "args": args}),
        }),
        form: crate::domain::harness::Form::Json,
    },
    // PreCompress is not registered: Gemini fires it before every turn, so
    // it is no evidence of compaction.
    kinds: &[
        ("AfterAgent", Kind::Stop),
        ("BeforeAgent", Kind::PromptSubmit),
        ("BeforeTool", Kind::Tool),
        ("AfterTool", Kind::Tool),
        ("SessionStart", Kind::SessionStart),
        ("SessionEnd", Kind::SessionEnd),
        ("PreCompress", Kind::PreCompact),
    ],
    registrations: &[
        R::new("SessionStart", "session-start", 10_000).matching("*"),
        R::new("BeforeAgent", "user-prompt-submit", 5_000).matching("*"),
        R::new("AfterAgent", "stop", 10_000).matching("*"),
        R::new("SessionEnd", "session-end", 5_000).matching("*"),
    ],
    handlers: Handlers {
        named: true,
        timeout_unit_ms: 1,
        events: Some(EVENTS),
        ..Handlers::grouped(&["command", "plugin", "runtime"], 60_000)
    },
    answers: Answers {
        start: |c| Some(specific_output("SessionStart", c)),
        prompt: |c| Some(specific_output("BeforeAgent", c)),
        stop: |prompt| json!({"decision": "deny", "reason": prompt}).to_string(),
        // It sends only the latest SessionStart's.
        replays_start_context: false,
        catch_up: true,
        shows_stderr: true,
        escapes_angles: true,
        own_ceiling: true,
        max_bytes: None,
        max_bytes_why: "",
    },
    sample,
    output: Output {
        plain_text: &[],
        keys: |_| {
            &[
                "continue",
                "stopReason",
                "suppressOutput",
                "systemMessage",
                "decision",
                "reason",
                "hookSpecificOutput",
            ]
        },
        decisions: &["allow", "deny", "block"],
        strict_specific: false,
        context_units: None,
    },
};

fn user_dir(home: &Path, env: Env<'_>) -> PathBuf {
    env("GEMINI_CLI_HOME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| home.to_path_buf(), PathBuf::from)
        .join(".gemini")
}

/// A payload of Gemini CLI's: one of its own events, or its string
/// timestamp beside a turn's `prompt_response`.
fn payload(_: Env<'_>, p: &Map<String, Value>) -> bool {
    let event = str_of(p, &["hook_event_name"]).unwrap_or_default();
    [
        "AfterAgent",
        "BeforeAgent",
        "PreCompress",
        "BeforeTool",
        "AfterTool",
    ]
    .contains(&event)
        || (p.get("timestamp").is_some_and(Value::is_string) && p.contains_key("prompt_response"))
}

/// Its payload for `event`: Claude Code's shape, its timestamp a string.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = common(event, cwd);
    p["timestamp"] = "2026-12-03T00:00:00.000Z".into();
    extend(
        &mut p,
        match event {
            "SessionStart" => json!({"source": "startup"}),
            "BeforeAgent" => json!({"prompt": "doctor check"}),
            "AfterAgent" => json!({"prompt": "doctor check", "prompt_response": "done",
                "stop_hook_active": false}),
            "SessionEnd" => json!({"reason": "exit"}),
            _ => json!({}),
        },
    );
    p
}

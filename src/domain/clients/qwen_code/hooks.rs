//! Qwen Code's hooks: Claude Code's layout and event names in
//! `~/.qwen/settings.json` (a project's `.qwen/settings.json`), grouped
//! handlers with timeouts in seconds; context back as
//! `hookSpecificOutput.additionalContext`, its angle brackets escaped. It
//! sets `GEMINI_PROJECT_DIR` for its hooks too: its own variables are
//! tried before Gemini CLI's.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::claude_code::hooks::{common, extra};
use crate::domain::harness::extend;
use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Output, Registration as R, Settings, as_read,
    decision_keys, set, specific_output,
};

pub static HOOKS: Hooks = Hooks {
    name: "qwen-code",
    aliases: &["qwen"],
    label: "Qwen Code",
    handle: "qw",
    detect: Detect {
        env: |env| set(env, "QWEN_CODE_SESSION_ID") || set(env, "QWEN_PROJECT_DIR"),
        // Its payloads have Claude Code's shape: known by its variables.
        payload: |_, _| false,
        rank: 2,
    },
    names_events: true,
    normalize: as_read,
    settings: Settings {
        user_dir,
        user_file: "settings.json",
        project_file: ".qwen/settings.json",
        project_also: &[],
        programs: &["qwen"],
        hook_env: |project| {
            vec![
                ("QWEN_PROJECT_DIR", project.to_string()),
                (
                    "QWEN_CODE_SESSION_ID",
                    crate::domain::harness::DOCTOR_SESSION.into(),
                ),
                ("GEMINI_PROJECT_DIR", project.to_string()),
                ("CLAUDE_PROJECT_DIR", project.to_string()),
            ]
        },
        project_note: None,
        trust: false,
        status_line: false,
        // `qwen mcp add --scope user`: the same settings file.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| user_dir(home, env).join("settings.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"command": command, "args": args}),
        }),
        form: crate::domain::harness::Form::Json,
    },
    // Claude Code's names.
    kinds: super::super::claude_code::hooks::KINDS,
    // Timeouts in seconds (it reads 1,000 and more as milliseconds).
    // SessionEnd comes only when an interactive session exits.
    registrations: &[
        R::new("SessionStart", "session-start", 10),
        R::new("UserPromptSubmit", "user-prompt-submit", 5),
        R::new("Stop", "stop", 10),
        R::new("SubagentStart", "event", 5),
        R::new("SubagentStop", "event", 5),
        R::new("PreCompact", "pre-compact", 5),
        R::new("PostCompact", "event", 5),
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
        escapes_angles: true,
        own_ceiling: false,
        max_bytes: None,
        max_bytes_why: "",
    },
    sample,
    output: Output {
        plain_text: &[],
        keys: decision_keys,
        decisions: &["approve", "block", "deny"],
        strict_specific: false,
        context_units: None,
    },
};

fn user_dir(home: &Path, _: Env<'_>) -> PathBuf {
    home.join(".qwen")
}

/// Its payload for `event`: Claude Code's shape, with its string
/// timestamp, permission mode and model.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = common(event, cwd);
    p["timestamp"] = "2026-12-05T18:56:19.309Z".into();
    p["permission_mode"] = "yolo".into();
    extend(&mut p, extra(event));
    // Qwen Code's own fields, as 0.24 sends them.
    let prompt_id = "d0c70000-0001";
    match event {
        "SessionStart" => p["model"] = "fake-model".into(),
        "UserPromptSubmit" => {
            p["prompt_id"] = prompt_id.into();
            p["submitted_prompt"] = "doctor check".into();
        }
        "Stop" => extend(
            &mut p,
            json!({"prompt_id": prompt_id, "background_tasks": [], "crons": [],
                "context_limit": 128_000, "context_usage": 0.02, "input_tokens": 2007}),
        ),
        "SubagentStop" => extend(
            &mut p,
            json!({"prompt_id": prompt_id, "background_tasks": [], "crons": []}),
        ),
        "SubagentStart" | "PreCompact" | "PostCompact" => p["prompt_id"] = prompt_id.into(),
        _ => {}
    }
    p
}

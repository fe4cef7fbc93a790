//! Cursor: hooks only (sessionkit reads none of its transcripts).
//! `hooks.json` under `~/.cursor` or a project's `.cursor/`, flat handlers
//! with no timeout written (its unit is unverified); it takes a stop
//! hook's `followup_message` and no context.

use serde_json::{Map, Value, json};

use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Kind, Layout, Output, Registration as R, Settings,
    no_env, no_env_sign, takes_none,
};

pub static HOOKS: Hooks = Hooks {
    name: "cursor",
    aliases: &[],
    label: "Cursor",
    handle: "cu",
    detect: Detect {
        env: no_env_sign,
        payload,
        rank: 0,
    },
    names_events: true,
    normalize: crate::domain::harness::as_read,
    settings: Settings {
        user_dir: |home, _| home.join(".cursor"),
        user_file: "hooks.json",
        project_file: ".cursor/hooks.json",
        project_also: &[],
        programs: &["cursor-agent", "cursor"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        mcp: None,
        form: crate::domain::harness::Form::Json,
    },
    kinds: &[
        ("stop", Kind::Stop),
        ("beforeSubmitPrompt", Kind::PromptSubmit),
        ("preToolUse", Kind::Tool),
        ("postToolUse", Kind::Tool),
        ("sessionStart", Kind::SessionStart),
        ("sessionEnd", Kind::SessionEnd),
        ("preCompact", Kind::PreCompact),
    ],
    registrations: &[
        R::new("sessionStart", "session-start", 0).no_timeout(),
        R::new("beforeSubmitPrompt", "user-prompt-submit", 0).no_timeout(),
        R::new("stop", "stop", 0).no_timeout(),
        R::new("sessionEnd", "session-end", 0).no_timeout(),
    ],
    handlers: Handlers {
        layout: Layout::Flat,
        named: false,
        types: &[],
        command_keys: &["command"],
        timeout_key: "timeout",
        timeout_unit_ms: 1000,
        default_timeout_ms: 60_000,
        // The nudge continues a turn at most once; Cursor enforces it too.
        loop_limit: true,
        events: None,
        whole_file: false,
        runs_identical_once: false,
    },
    answers: Answers::plain(takes_none, takes_none, |prompt| {
        json!({"followup_message": prompt}).to_string()
    }),
    sample,
    output: Output {
        plain_text: &[],
        keys: |event| match event {
            "stop" => &["followup_message"],
            _ => &[],
        },
        decisions: &["approve", "block"],
        strict_specific: false,
        context_units: None,
    },
};

/// A payload of Cursor's: a conversation with a generation or workspace
/// roots.
fn payload(_: Env<'_>, p: &Map<String, Value>) -> bool {
    p.contains_key("conversation_id")
        && (p.contains_key("generation_id") || p.contains_key("workspace_roots"))
}

/// Its payload for `event`.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hook_event_name": event, "conversation_id": crate::domain::harness::DOCTOR_SESSION,
        "generation_id": "doctor-gen-1", "workspace_roots": [cwd]});
    match event {
        "stop" => {
            p["status"] = "completed".into();
            p["loop_count"] = 0.into();
        }
        "beforeSubmitPrompt" => p["prompt"] = "doctor check".into(),
        "sessionEnd" => p["reason"] = "completed".into(),
        _ => {}
    }
    p
}

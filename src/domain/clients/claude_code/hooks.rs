//! Claude Code's hooks: `settings.json` (the user's under `~/.claude` or
//! `$CLAUDE_CONFIG_DIR`, a project's `.claude/settings.json`), grouped
//! handlers with timeouts in seconds; context back as
//! `hookSpecificOutput.additionalContext`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Kind, Output, Registration as R, Settings, extend,
    specific_output,
};

/// What its events mean (its forks and peers that keep its names read
/// theirs by it).
pub const KINDS: &[(&str, Kind)] = &[
    ("Stop", Kind::Stop),
    ("SubagentStop", Kind::SubagentStop),
    ("StopFailure", Kind::StopFailure),
    ("UserPromptSubmit", Kind::PromptSubmit),
    ("PreToolUse", Kind::Tool),
    ("PostToolUse", Kind::Tool),
    ("PostToolUseFailure", Kind::Tool),
    ("SubagentStart", Kind::SubagentStart),
    ("SessionStart", Kind::SessionStart),
    ("SessionEnd", Kind::SessionEnd),
    ("PreCompact", Kind::PreCompact),
];

pub static HOOKS: Hooks = Hooks {
    name: "claude-code",
    aliases: &["claude"],
    label: "Claude Code",
    handle: "cc",
    detect: Detect {
        env: |env| {
            env("CLAUDECODE").as_deref() == Some("1")
                || env("CLAUDE_CODE_CHILD_SESSION").as_deref() == Some("1")
        },
        // The shape every other harness's test leaves: tried last.
        payload: |_, _| true,
        rank: u8::MAX,
    },
    names_events: true,
    normalize: crate::domain::harness::as_read,
    settings: Settings {
        user_dir,
        user_file: "settings.json",
        project_file: ".claude/settings.json",
        project_also: &[".claude/settings.local.json"],
        programs: &["claude"],
        hook_env: |project| {
            vec![
                ("CLAUDECODE", "1".into()),
                ("CLAUDE_CODE_CHILD_SESSION", "1".into()),
                ("CLAUDE_PROJECT_DIR", project.to_string()),
            ]
        },
        project_note: None,
        trust: false,
        status_line: true,
        // Its user-scoped MCP servers are in `.claude.json` beside its
        // settings folder (in `$CLAUDE_CONFIG_DIR` when set), as `claude mcp
        // add --scope user` writes them.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| {
                env("CLAUDE_CONFIG_DIR")
                    .filter(|v| !v.is_empty())
                    .map_or_else(|| home.to_path_buf(), PathBuf::from)
                    .join(".claude.json")
            },
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"type": "stdio", "command": command, "args": args, "env": {}}),
        }),
        form: crate::domain::harness::Form::Json,
    },
    // SessionStart's matcher lists every source (`fork` since 2.1.214);
    // SessionEnd gets 5 s so its catch-up ingest fits (Claude's own budget
    // is 1.5 s unless a hook asks for more).
    kinds: KINDS,
    registrations: &[
        R::new("SessionStart", "session-start", 10).matching("startup|resume|clear|compact|fork"),
        R::new("UserPromptSubmit", "user-prompt-submit", 5),
        R::new("Stop", "stop", 10),
        R::new("StopFailure", "stop", 5),
        R::new("SubagentStart", "event", 5),
        R::new("SubagentStop", "event", 5),
        R::new("PreCompact", "pre-compact", 5).matching("manual|auto"),
        R::new("PostCompact", "event", 5),
        R::new("SessionEnd", "session-end", 5),
    ],
    handlers: Handlers {
        // It ignores the whole settings file (permissions included) when
        // one handler is malformed.
        whole_file: true,
        runs_identical_once: true,
        ..Handlers::grouped(&["command", "http", "mcp_tool", "prompt", "agent"], 600_000)
    },
    answers: Answers {
        start: |c| Some(specific_output("SessionStart", c)),
        prompt: |c| Some(specific_output("UserPromptSubmit", c)),
        stop: |prompt| {
            json!({
                "decision": "block",
                "reason": prompt,
                "systemMessage": "sessionkit: debrief nudge (nudge.enabled)",
            })
            .to_string()
        },
        replays_start_context: true,
        catch_up: true,
        shows_stderr: false,
        escapes_angles: false,
        own_ceiling: true,
        // Past 10,000 characters it saves the context to a file and shows
        // the model a 2,000-character preview; 9,800 UTF-8 bytes are never
        // more than 9,800 characters.
        max_bytes: Some(9_800),
        max_bytes_why: "it spills past 10,000 characters to a file",
    },
    sample,
    output: Output {
        plain_text: &["SessionStart", "UserPromptSubmit", "SubagentStart"],
        keys,
        decisions: &["approve", "block"],
        strict_specific: false,
        context_units: Some(10_000),
    },
};

fn user_dir(home: &Path, env: Env<'_>) -> PathBuf {
    env("CLAUDE_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map_or_else(|| home.join(".claude"), PathBuf::from)
}

/// The top-level keys its output schema has for `event`.
fn keys(event: &str) -> &'static [&'static str] {
    const ALL: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "reason",
        "systemMessage",
        "terminalSequence",
        "hookSpecificOutput",
    ];
    match event {
        // PreCompact's stdout becomes compaction instructions.
        "PreCompact" => &[],
        // These fail on hookSpecificOutput.
        "SessionEnd" | "PostCompact" | "StopFailure" => &ALL[..7],
        _ => ALL,
    }
}

/// Its payload for `event` (the shape Codex and Gemini CLI share).
pub fn sample(event: &str, cwd: &str) -> Value {
    let mut p = common(event, cwd);
    extend(&mut p, extra(event));
    // Claude Code 2.1.332's own: the prompt every event after the start
    // belongs to, and a finished turn's effort and background work.
    if event != "SessionStart" {
        p["prompt_id"] = "d0c70000-0000-4000-8000-0000000000bb".into();
    }
    if matches!(event, "Stop" | "SubagentStop") {
        extend(
            &mut p,
            json!({"permission_mode": "default", "effort": {"level": "medium"},
                "background_tasks": [], "session_crons": []}),
        );
    }
    p
}

/// The fields every Claude Code-shaped payload has.
pub fn common(event: &str, cwd: &str) -> Value {
    json!({"session_id": crate::domain::harness::DOCTOR_SESSION,
        "transcript_path": format!("{cwd}/doctor-transcript.jsonl"),
        "cwd": cwd, "hook_event_name": event})
}

/// The fields an event of Claude Code's carries besides the common ones
/// (Codex's, where it has no others of its own).
pub fn extra(event: &str) -> Value {
    match event {
        "SessionStart" => json!({"source": "startup"}),
        "SessionEnd" => json!({"reason": "other"}),
        "UserPromptSubmit" => json!({"permission_mode": "default", "prompt": "doctor check"}),
        "Stop" => json!({"permission_mode": "default", "stop_hook_active": false,
            "last_assistant_message": "done"}),
        "StopFailure" => json!({"error": "unknown", "last_assistant_message": "API Error: doctor"}),
        "SubagentStart" => json!({"agent_id": "a0d0c70000000001", "agent_type": "general-purpose"}),
        "SubagentStop" => json!({"agent_id": "a0d0c70000000001",
            "agent_type": "general-purpose", "stop_hook_active": false,
            "agent_transcript_path": Value::Null, "last_assistant_message": "sub done"}),
        "PreCompact" => json!({"trigger": "manual", "custom_instructions": Value::Null}),
        "PostCompact" => json!({"trigger": "manual", "compact_summary": "summary"}),
        _ => json!({}),
    }
}

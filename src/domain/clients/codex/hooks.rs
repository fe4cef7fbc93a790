//! Codex's hooks: `hooks.json` in its home (`~/.codex`, or `$CODEX_HOME`)
//! or a project's `.codex/`, grouped handlers with timeouts in seconds,
//! each run only once its hash is trusted in `config.toml`; context back
//! as `hookSpecificOutput.additionalContext`, nothing else in it.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::super::claude_code::hooks::{common, extra};
use crate::domain::harness::extend;
use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Kind, Output, Registration as R, Settings, no_env,
    no_env_sign, set, specific_output, str_of,
};

/// Codex truncates a hook's additionalContext past about 2,500 tokens
/// unless the handler lifts it. 10,000 tokens holds the 9,600-byte
/// briefing even at one token per byte (CJK text).
const CONTEXT_TOKENS: u64 = 10_000;

pub static HOOKS: Hooks = Hooks {
    name: "codex",
    aliases: &[],
    label: "Codex",
    handle: "cx",
    detect: Detect {
        env: no_env_sign,
        payload,
        rank: 4,
    },
    names_events: true,
    normalize: crate::domain::harness::as_read,
    settings: Settings {
        user_dir,
        user_file: "hooks.json",
        project_file: ".codex/hooks.json",
        project_also: &[],
        programs: &["codex"],
        hook_env: no_env,
        project_note: Some(
            "hooks in a project's .codex/ load only once that project is trusted in Codex (its trust prompt, or `[projects.\"<path>\"] trust_level = \"trusted\"` in its config.toml)",
        ),
        trust: true,
        status_line: false,
        // `codex mcp add`: a table of its config.toml.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| user_dir(home, env).join("config.toml"),
            key: "mcp_servers",
            entry: |command, args| serde_json::json!({"command": command, "args": args}),
            form: crate::domain::harness::McpForm::Toml,
        }),
        form: crate::domain::harness::Form::Json,
    },
    // It clamps SessionEnd and Interrupt to 3 s. No matchers: trust hashes
    // then depend on the command alone. It has no StopFailure.
    kinds: &[
        ("Stop", Kind::Stop),
        ("SubagentStop", Kind::SubagentStop),
        ("Interrupt", Kind::Interrupt),
        ("UserPromptSubmit", Kind::PromptSubmit),
        ("PreToolUse", Kind::Tool),
        ("PostToolUse", Kind::Tool),
        ("SubagentStart", Kind::SubagentStart),
        ("SessionStart", Kind::SessionStart),
        ("SessionEnd", Kind::SessionEnd),
        ("PreCompact", Kind::PreCompact),
    ],
    registrations: &[
        R::new("SessionStart", "session-start", 10).context_limit(CONTEXT_TOKENS),
        R::new("UserPromptSubmit", "user-prompt-submit", 5).context_limit(CONTEXT_TOKENS),
        R::new("Stop", "stop", 10),
        R::new("SubagentStart", "event", 5),
        R::new("SubagentStop", "event", 5),
        R::new("PreCompact", "pre-compact", 5),
        R::new("PostCompact", "event", 5),
        R::new("Interrupt", "event", 3),
        R::new("SessionEnd", "session-end", 3),
    ],
    handlers: Handlers::grouped(&["command", "prompt", "agent"], 600_000),
    answers: Answers {
        start: |c| Some(specific_output("SessionStart", c)),
        prompt: |c| Some(specific_output("UserPromptSubmit", c)),
        // Its schema rejects any key beyond its own.
        stop: |prompt| json!({"decision": "block", "reason": prompt}).to_string(),
        replays_start_context: true,
        catch_up: true,
        shows_stderr: false,
        escapes_angles: false,
        own_ceiling: true,
        // It caps every model-visible hook context at about 2,400 tokens.
        max_bytes: Some(9_600),
        max_bytes_why: "about 2,400 tokens",
    },
    sample,
    output: Output {
        plain_text: &["SessionStart", "UserPromptSubmit"],
        keys,
        decisions: &["approve", "block"],
        strict_specific: true,
        context_units: None,
    },
};

fn user_dir(home: &Path, env: Env<'_>) -> PathBuf {
    env("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| home.join(".codex"), PathBuf::from)
}

/// A payload of Codex's: a turn id, a model outside SessionStart, a
/// rollout's path (wherever `CODEX_HOME` puts it:
/// `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`), or the permission
/// mode at SessionStart (Claude Code never sends it there); or `CODEX_HOME`
/// set where Claude Code's own variable is not.
fn payload(env: Env<'_>, p: &Map<String, Value>) -> bool {
    let has = |k: &str| p.contains_key(k);
    let event = str_of(p, &["hook_event_name"]).unwrap_or_default();
    let rollout = str_of(p, &["transcript_path"]).is_some_and(|t| {
        let name = t.rsplit('/').next().unwrap_or(t);
        t.contains("/.codex/sessions/")
            || (t.contains("/sessions/")
                && name.starts_with("rollout-")
                && name.ends_with(".jsonl"))
    });
    let start = event == "SessionStart" && has("permission_mode");
    has("turn_id")
        || (has("model") && event != "SessionStart")
        || rollout
        || start
        || set(env, "CODEX_HOME")
}

/// The top-level keys its output schema has for `event`.
fn keys(event: &str) -> &'static [&'static str] {
    match event {
        "SessionStart" | "SubagentStart" => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        "UserPromptSubmit" => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        "Stop" | "SubagentStop" => &[
            "continue",
            "decision",
            "reason",
            "stopReason",
            "suppressOutput",
            "systemMessage",
        ],
        "PreCompact" | "PostCompact" => {
            &["continue", "stopReason", "suppressOutput", "systemMessage"]
        }
        "Interrupt" => &["systemMessage"],
        _ => &[],
    }
}

/// Its payload for `event`: Claude Code's shape, with its own fields.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = common(event, cwd);
    extend(
        &mut p,
        match event {
            "SessionStart" => {
                json!({"model": "gpt-5", "permission_mode": "default", "source": "startup"})
            }
            "SessionEnd" => json!({"reason": "other"}),
            // Codex 0.171 sends no instructions nor summary around a
            // compaction.
            "PreCompact" | "PostCompact" => json!({"trigger": "auto"}),
            "SubagentStart" | "SubagentStop" | "Interrupt" => {
                let mut e = extra(event);
                e["permission_mode"] = "default".into();
                e
            }
            _ => extra(event),
        },
    );
    if event != "SessionStart" && event != "SessionEnd" {
        extend(
            &mut p,
            json!({"turn_id": "00000000-d0c7-4000-8000-0000000000aa", "model": "gpt-5"}),
        );
    }
    p
}

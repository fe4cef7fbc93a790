//! Copilot CLI's hooks: every `*.json` in `~/.copilot/hooks/` (or a
//! project's `.github/hooks/`), flat handlers with `timeoutSec`, each run
//! under bash (or PowerShell); camelCase payloads that name no event (the
//! command names it); context back as a flat `additionalContext` at
//! session start and at a prompt (its `hookSpecificOutput` is ignored).

use serde_json::{Map, Value, json};

use crate::domain::harness::{
    Answers, Detect, Env, Handlers, HookEvent, Hooks, Kind, Layout, Output, Registration as R,
    Settings, no_env, str_of,
};

pub static HOOKS: Hooks = Hooks {
    name: "copilot",
    aliases: &["copilot-cli"],
    label: "Copilot CLI",
    handle: "cp",
    detect: Detect {
        env: |env| env("COPILOT_CLI").as_deref() == Some("1"),
        payload,
        rank: 1,
    },
    names_events: false,
    normalize,
    settings: Settings {
        user_dir: |home, _| home.join(".copilot"),
        // It reads every *.json in its hooks folder: sessionkit's own file.
        user_file: "hooks/sessionkit.json",
        project_file: ".github/hooks/sessionkit.json",
        project_also: &[],
        programs: &["copilot"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        // `copilot mcp add`: every tool of a local server.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, _| home.join(".copilot/mcp-config.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"tools": ["*"], "type": "local", "command": command, "args": args}),
        }),
        form: crate::domain::harness::Form::Json,
    },
    kinds: &[
        ("agentStop", Kind::Stop),
        ("subagentStop", Kind::SubagentStop),
        ("userPromptSubmitted", Kind::PromptSubmit),
        ("preToolUse", Kind::Tool),
        ("postToolUse", Kind::Tool),
        ("subagentStart", Kind::SubagentStart),
        ("sessionStart", Kind::SessionStart),
        ("sessionEnd", Kind::SessionEnd),
        ("preCompact", Kind::PreCompact),
    ],
    registrations: &[
        R::new("sessionStart", "session-start", 10),
        R::new("userPromptSubmitted", "user-prompt-submit", 5),
        R::new("agentStop", "stop", 10),
        R::new("subagentStop", "event", 5),
        R::new("preCompact", "pre-compact", 5),
        R::new("errorOccurred", "event", 5),
        R::new("sessionEnd", "session-end", 5),
    ],
    handlers: Handlers {
        layout: Layout::Flat,
        named: false,
        types: &["command", "prompt"],
        // The same words run under PowerShell: sessionkit's quoting writes
        // single quotes only, which it reads the same way.
        command_keys: &["bash", "powershell"],
        timeout_key: "timeoutSec",
        timeout_unit_ms: 1000,
        default_timeout_ms: 30_000,
        loop_limit: false,
        events: None,
        whole_file: false,
        runs_identical_once: false,
    },
    answers: Answers::plain(flat_context, flat_context, |prompt| {
        json!({"decision": "block", "reason": prompt}).to_string()
    }),
    sample,
    output: Output {
        plain_text: &[],
        keys: |event| match event {
            "sessionStart" | "userPromptSubmitted" => &["additionalContext"],
            "agentStop" | "subagentStop" => &["decision", "reason"],
            _ => &[],
        },
        decisions: &["approve", "block"],
        strict_specific: false,
        context_units: None,
    },
};

/// A payload of Copilot CLI's: camelCase keys, a numeric timestamp, or an
/// event named in lower camel case.
fn payload(_: Env<'_>, p: &Map<String, Value>) -> bool {
    let camel = ["sessionId", "transcriptPath", "hookEventName"]
        .iter()
        .any(|k| p.contains_key(*k))
        || p.get("timestamp").is_some_and(Value::is_number);
    let event = str_of(p, &["hook_event_name"]).unwrap_or_default();
    camel || event.starts_with(|c: char| c.is_ascii_lowercase())
}

/// The context it takes, as it takes it: `{"additionalContext": …}`.
fn flat_context(context: &str) -> Option<String> {
    Some(json!({ "additionalContext": context }).to_string())
}

/// A subagent's own prompt and stop hooks arrive with the subagent's id as
/// `sessionId` and its parent's as `parentAgentId`: they are the
/// subagent's events in its parent's session.
fn normalize(ev: &mut HookEvent) {
    let parent = ev
        .payload
        .get("parentAgentId")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty());
    if let Some(parent) = parent
        && ev.agent_id.is_some()
        && ev.session_id == ev.agent_id
    {
        ev.session_id = Some(parent.to_string());
    }
}

/// Its payload for `event`, as the real client sends it: no event name
/// (the registered command names it), camelCase keys, a numeric
/// timestamp.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = json!({"sessionId": crate::domain::harness::DOCTOR_SESSION,
        "timestamp": 1_796_300_000_000_i64, "cwd": cwd});
    match event {
        "sessionStart" => {
            p["source"] = "new".into();
            p["initialPrompt"] = "doctor check".into();
        }
        "userPromptSubmitted" => p["prompt"] = "doctor check".into(),
        "agentStop" | "subagentStop" => {
            p["transcriptPath"] = Value::Null;
            p["stopReason"] = "end_turn".into();
            p["stop_hook_active"] = false.into();
        }
        "sessionEnd" => p["reason"] = "complete".into(),
        _ => {}
    }
    match event {
        "subagentStop" => {
            p["agentId"] = "a0d0c700-0000-4000-8000-000000000001".into();
            p["agentType"] = "explore".into();
            p["agentName"] = "explore".into();
            p["response"] = "sub done".into();
            p["parentAgentId"] = crate::domain::harness::DOCTOR_SESSION.into();
        }
        "preCompact" => {
            p["transcriptPath"] = Value::Null;
            p["trigger"] = "manual".into();
            p["customInstructions"] = "".into();
        }
        "errorOccurred" => {
            p["errorContext"] = "model_call".into();
            p["recoverable"] = true.into();
            p["error"] = json!({"message": "doctor", "name": "Error", "stack": "Error: doctor"});
        }
        _ => {}
    }
    p
}

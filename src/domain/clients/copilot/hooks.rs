//! Copilot CLI's hooks: every `*.json` in `~/.copilot/hooks/` (or a
//! project's `.github/hooks/`), flat handlers with `timeoutSec`, each run
//! under bash (or PowerShell); camelCase payloads; it takes no context
//! back from a hook that sessionkit gives it yet.

use serde_json::{Map, Value, json};

use crate::domain::harness::{
    Answers, Detect, Env, Handlers, Hooks, Kind, Layout, Output, Registration as R, Settings,
    no_env, no_env_sign, str_of, takes_none,
};

pub static HOOKS: Hooks = Hooks {
    name: "copilot",
    aliases: &["copilot-cli"],
    label: "Copilot CLI",
    handle: "cp",
    detect: Detect {
        env: no_env_sign,
        payload,
        rank: 1,
    },
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
    answers: Answers {
        start: takes_none,
        prompt: takes_none,
        stop: |prompt| json!({"decision": "block", "reason": prompt}).to_string(),
        replays_start_context: false,
        catch_up: false,
        shows_stderr: false,
        escapes_angles: false,
        own_ceiling: false,
        max_bytes: None,
    },
    sample,
    output: Output {
        plain_text: &[],
        keys: |event| match event {
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

/// Its payload for `event`.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hookEventName": event, "sessionId": crate::domain::harness::DOCTOR_SESSION,
        "cwd": cwd, "timestamp": 1_796_300_000_000_i64, "transcriptPath": Value::Null});
    match event {
        "sessionStart" => p["source"] = "new".into(),
        "userPromptSubmitted" => p["prompt"] = "doctor check".into(),
        _ => {}
    }
    p
}

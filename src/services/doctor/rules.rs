//! What each client accepts from a hook, per event: its stdout (an
//! envelope's keys) and its stderr.

use crate::domain::harness::Harness;
use crate::services::install::{self};
use anyhow::Result;
use serde_json::Value;

/// Whether `h` takes a hook's stdout (and stderr) for `event`; why not.
pub fn accepts(h: Harness, event: &str, out: &str, err: &str) -> Result<(), String> {
    let text = out.trim();
    if h == Harness::Gemini && !err.trim().is_empty() {
        return Err(format!(
            "printed on stderr, which Gemini CLI shows the user: {}",
            err.trim()
        ));
    }
    if !err.trim().is_empty() {
        return Err(format!("reported a failure: {}", err.trim()));
    }
    if text.is_empty() {
        return Ok(());
    }
    let plain_ok = matches!(
        (h, event),
        (
            Harness::ClaudeCode,
            "SessionStart" | "UserPromptSubmit" | "SubagentStart"
        ) | (Harness::Codex, "SessionStart" | "UserPromptSubmit")
    );
    if !text.starts_with('{') {
        return if plain_ok {
            Ok(())
        } else {
            Err(format!(
                "plain text on stdout, which {} does not take for {event}",
                install::client_name(h)
            ))
        };
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("stdout is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("stdout is JSON but not an object")?;
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    let allowed: &[&str] = allowed_keys(h, event);
    if allowed.is_empty() {
        return Err(format!(
            "printed output, which {} does not take for {event}",
            install::client_name(h)
        ));
    }
    if let Some(k) = keys.iter().find(|k| !allowed.contains(k)) {
        return Err(format!(
            "key {k:?} is not in what {} accepts for {event}",
            install::client_name(h)
        ));
    }
    if let Some(d) = obj.get("decision").and_then(Value::as_str) {
        let ok = match h {
            Harness::Gemini => ["allow", "deny", "block"].contains(&d),
            _ => ["approve", "block"].contains(&d),
        };
        if !ok {
            return Err(format!(
                "decision {d:?} is not one {} knows",
                install::client_name(h)
            ));
        }
    }
    match obj.get("hookSpecificOutput") {
        Some(hso) => specific_output(h, event, hso),
        None => Ok(()),
    }
}

/// A `hookSpecificOutput` as the client checks it: its event's name, the
/// keys Codex allows, the context Gemini CLI escapes and Claude Code cuts.
fn specific_output(h: Harness, event: &str, hso: &Value) -> Result<(), String> {
    let name = hso.get("hookEventName").and_then(Value::as_str);
    if name != Some(event) {
        return Err(format!(
            "hookSpecificOutput.hookEventName is {name:?}, not {event:?}"
        ));
    }
    if h == Harness::Codex
        && let Some(k) = hso.as_object().and_then(|o| {
            o.keys()
                .find(|k| *k != "hookEventName" && *k != "additionalContext")
        })
    {
        return Err(format!(
            "hookSpecificOutput.{k} is an extra key Codex rejects"
        ));
    }
    if let Some(c) = hso.get("additionalContext").and_then(Value::as_str) {
        if h == Harness::Gemini && (c.contains('<') || c.contains('>')) {
            return Err("additionalContext has angle brackets, which Gemini CLI escapes".into());
        }
        let units = c.encode_utf16().count();
        if h == Harness::ClaudeCode && units > 10_000 {
            return Err(format!(
                "additionalContext is {units} characters: Claude Code saves it to a file and shows a 2,000-character preview"
            ));
        }
    }
    Ok(())
}

/// The top-level keys each client's output schema has for `event`.
pub(super) fn allowed_keys(h: Harness, event: &str) -> &'static [&'static str] {
    const CLAUDE: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "reason",
        "systemMessage",
        "terminalSequence",
        "hookSpecificOutput",
    ];
    const CLAUDE_BARE: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "reason",
        "systemMessage",
        "terminalSequence",
    ];
    match (h, event) {
        // Claude Code fails these on hookSpecificOutput; PreCompact's
        // stdout becomes compaction instructions.
        (Harness::ClaudeCode, "PreCompact") => &[],
        (Harness::ClaudeCode, "SessionEnd" | "PostCompact" | "StopFailure") => CLAUDE_BARE,
        (Harness::ClaudeCode, _) => CLAUDE,
        (Harness::Codex, "SessionStart" | "SubagentStart") => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        (Harness::Codex, "UserPromptSubmit") => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        (Harness::Codex, "Stop" | "SubagentStop") => &[
            "continue",
            "decision",
            "reason",
            "stopReason",
            "suppressOutput",
            "systemMessage",
        ],
        (Harness::Codex, "PreCompact" | "PostCompact") => {
            &["continue", "stopReason", "suppressOutput", "systemMessage"]
        }
        (Harness::Codex, "Interrupt") => &["systemMessage"],
        (Harness::Codex, _) => &[],
        (Harness::Gemini, _) => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        (Harness::Cursor, "stop") => &["followup_message"],
        (Harness::Cursor, _) => &[],
        (Harness::Copilot, "agentStop" | "subagentStop") => &["decision", "reason"],
        (Harness::Copilot, _) => &[],
    }
}

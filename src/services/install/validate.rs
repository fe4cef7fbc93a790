//! The clients' rules for their hook settings, as far as they decide
//! whether a file is used at all. Claude Code ignores the whole settings
//! file — permissions included — when one handler is malformed
//!, so a merged file is checked before it
//! replaces the old one.

use crate::domain::harness::Harness;

use super::json::Json;
use super::plan::{self, Layout};

/// One reason a client would reject (part of) a settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where, as `hooks.Stop[0].hooks[1]`.
    pub at: String,
    pub what: String,
    /// Whether the client drops the whole file for it (Claude Code) rather
    /// than skipping the one entry.
    pub whole_file: bool,
}

/// Gemini CLI 0.61's hook events (chunk-5FZXKDXH.js:337797); any other key
/// is skipped with a warning.
const GEMINI_EVENTS: &[&str] = &[
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

/// Every problem `h` would find in `doc`'s hook settings.
pub fn check(doc: &Json, h: Harness) -> Vec<Problem> {
    let mut out = Vec::new();
    let whole = h == Harness::ClaudeCode;
    let mut bad = |at: String, what: &str| {
        out.push(Problem {
            at,
            what: what.to_string(),
            whole_file: whole,
        });
    };
    if doc.members().is_none() {
        bad(String::new(), "the top level is not an object");
        return out;
    }
    if plan::layout(h) == Layout::Flat && !matches!(doc.get("version"), Some(Json::Number(_))) {
        bad("version".into(), "missing or not a number (must be 1)");
    }
    let Some(hooks) = doc.get("hooks") else {
        return out;
    };
    let Some(events) = hooks.members() else {
        bad("hooks".into(), "not an object");
        return out;
    };
    for (event, arr) in events {
        let at = format!("hooks.{event}");
        if h == Harness::Gemini && !GEMINI_EVENTS.contains(&event.as_str()) {
            bad(at.clone(), "not a Gemini CLI hook event (it is skipped)");
        }
        let Some(items) = arr.as_array() else {
            bad(at, "not an array");
            continue;
        };
        for (g, item) in items.iter().enumerate() {
            let at = format!("{at}[{g}]");
            match plan::layout(h) {
                Layout::Flat => handler(item, h, &at, &mut bad),
                Layout::Grouped => {
                    if item.members().is_none() {
                        bad(at, "not an object");
                        continue;
                    }
                    if let Some(m) = item.get("matcher")
                        && !matches!(m, Json::String(_))
                    {
                        bad(format!("{at}.matcher"), "not a string");
                    }
                    let Some(handlers) = item.get("hooks").and_then(Json::as_array) else {
                        bad(format!("{at}.hooks"), "missing or not an array");
                        continue;
                    };
                    for (i, x) in handlers.iter().enumerate() {
                        handler(x, h, &format!("{at}.hooks[{i}]"), &mut bad);
                    }
                }
            }
        }
    }
    out
}

/// One handler object against `h`'s schema.
fn handler(x: &Json, h: Harness, at: &str, bad: &mut impl FnMut(String, &str)) {
    if x.members().is_none() {
        bad(at.to_string(), "not an object");
        return;
    }
    let text = |k: &str| {
        x.get(k)
            .and_then(Json::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    let ty = x.get("type").and_then(Json::as_str);
    let types: &[&str] = match h {
        Harness::ClaudeCode => &["command", "http", "mcp_tool", "prompt", "agent"],
        Harness::Codex => &["command", "prompt", "agent"],
        Harness::Gemini => &["command", "plugin", "runtime"],
        Harness::Copilot => &["command", "prompt"],
        Harness::Cursor => &[],
    };
    if h != Harness::Cursor {
        match ty {
            None => bad(format!("{at}.type"), "missing"),
            Some(t) if !types.contains(&t) => bad(format!("{at}.type"), "not a known handler type"),
            _ => {}
        }
    }
    let needs_command = h == Harness::Cursor || ty == Some("command");
    if needs_command {
        let ok = match h {
            Harness::Copilot => text("bash").is_some() || text("powershell").is_some(),
            _ => text("command").is_some(),
        };
        if !ok {
            let key = if h == Harness::Copilot {
                "bash"
            } else {
                "command"
            };
            bad(format!("{at}.{key}"), "missing or empty");
        }
    }
    let timeout_key = if h == Harness::Copilot {
        "timeoutSec"
    } else {
        "timeout"
    };
    if let Some(t) = x.get(timeout_key) {
        let positive = matches!(t, Json::Number(n) if n.as_f64().is_some_and(|v| v > 0.0));
        if !positive {
            bad(format!("{at}.{timeout_key}"), "not a positive number");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handler_without_its_command_is_caught_where_it_is() {
        // The case verified against the real client: Claude Code then ignored
        // a valid SessionStart hook in the same file.
        let doc = Json::parse(
            r#"{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"x"}]}],"Stop":[{"hooks":[{"type":"command"}]}]}}"#,
        )
        .unwrap();
        let p = check(&doc, Harness::ClaudeCode);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].at, "hooks.Stop[0].hooks[0].command");
        assert!(p[0].whole_file);
    }

    #[test]
    fn each_client_s_own_rules() {
        let bad_timeout = Json::parse(
            r#"{"hooks":{"Stop":[{"matcher":3,"hooks":[{"type":"command","command":"x","timeout":"10"}]}]}}"#,
        )
        .unwrap();
        let at: Vec<String> = check(&bad_timeout, Harness::Codex)
            .into_iter()
            .map(|p| p.at)
            .collect();
        assert_eq!(
            at,
            ["hooks.Stop[0].matcher", "hooks.Stop[0].hooks[0].timeout"]
        );
        let gemini =
            Json::parse(r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}"#)
                .unwrap();
        assert_eq!(check(&gemini, Harness::Gemini)[0].at, "hooks.Stop");
        let copilot = Json::parse(r#"{"hooks":{"agentStop":[{"type":"command"}]}}"#).unwrap();
        let at: Vec<String> = check(&copilot, Harness::Copilot)
            .into_iter()
            .map(|p| p.at)
            .collect();
        assert_eq!(at, ["version", "hooks.agentStop[0].bash"]);
        let cursor = Json::parse(r#"{"version":1,"hooks":{"stop":[{"command":"x"}]}}"#).unwrap();
        assert!(check(&cursor, Harness::Cursor).is_empty());
    }
}

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

/// Every problem `h` would find in `doc`'s hook settings.
pub fn check(doc: &Json, h: Harness) -> Vec<Problem> {
    let mut out = Vec::new();
    let whole = h.handlers.whole_file;
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
        if let Some(events) = h.handlers.events
            && !events.contains(&event.as_str())
        {
            bad(
                at.clone(),
                &format!("not a {} hook event (it is skipped)", h.label),
            );
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
    let types = h.handlers.types;
    if !types.is_empty() {
        match ty {
            None => bad(format!("{at}.type"), "missing"),
            Some(t) if !types.contains(&t) => bad(format!("{at}.type"), "not a known handler type"),
            _ => {}
        }
    }
    let needs_command = types.is_empty() || ty == Some("command");
    let keys = h.handlers.command_keys;
    if needs_command && !keys.iter().any(|k| text(k).is_some()) {
        bad(format!("{at}.{}", keys[0]), "missing or empty");
    }
    let timeout_key = h.handlers.timeout_key;
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
        let p = check(&doc, Harness::named("claude-code").unwrap());
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
        let at: Vec<String> = check(&bad_timeout, Harness::named("codex").unwrap())
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
        assert_eq!(
            check(&gemini, Harness::named("gemini").unwrap())[0].at,
            "hooks.Stop"
        );
        let copilot = Json::parse(r#"{"hooks":{"agentStop":[{"type":"command"}]}}"#).unwrap();
        let at: Vec<String> = check(&copilot, Harness::named("copilot").unwrap())
            .into_iter()
            .map(|p| p.at)
            .collect();
        assert_eq!(at, ["version", "hooks.agentStop[0].bash"]);
        let cursor = Json::parse(r#"{"version":1,"hooks":{"stop":[{"command":"x"}]}}"#).unwrap();
        assert!(check(&cursor, Harness::named("cursor").unwrap()).is_empty());
    }
}

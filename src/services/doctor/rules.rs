//! What each client accepts from a hook, per event: its stdout (an
//! envelope's keys) and its stderr.

use crate::domain::harness::Harness;
use anyhow::Result;
use serde_json::Value;

/// Whether `h` takes a hook's stdout (and stderr) for `event`; why not.
pub fn accepts(h: Harness, event: &str, out: &str, err: &str) -> Result<(), String> {
    let text = out.trim();
    if h.answers.shows_stderr && !err.trim().is_empty() {
        return Err(format!(
            "printed on stderr, which {} shows the user: {}",
            h.label,
            err.trim()
        ));
    }
    if !err.trim().is_empty() {
        return Err(format!("reported a failure: {}", err.trim()));
    }
    if text.is_empty() {
        return Ok(());
    }
    let plain_ok = h.output.plain_text.contains(&event);
    if !text.starts_with('{') {
        return if plain_ok {
            Ok(())
        } else {
            Err(format!(
                "plain text on stdout, which {} does not take for {event}",
                h.label
            ))
        };
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("stdout is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("stdout is JSON but not an object")?;
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    let allowed: &[&str] = (h.output.keys)(event);
    if allowed.is_empty() {
        return Err(format!(
            "printed output, which {} does not take for {event}",
            h.label
        ));
    }
    if let Some(k) = keys.iter().find(|k| !allowed.contains(k)) {
        return Err(format!(
            "key {k:?} is not in what {} accepts for {event}",
            h.label
        ));
    }
    if let Some(d) = obj.get("decision").and_then(Value::as_str) {
        let ok = h.output.decisions.contains(&d);
        if !ok {
            return Err(format!("decision {d:?} is not one {} knows", h.label));
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
    if h.output.strict_specific
        && let Some(k) = hso.as_object().and_then(|o| {
            o.keys()
                .find(|k| *k != "hookEventName" && *k != "additionalContext")
        })
    {
        return Err(format!(
            "hookSpecificOutput.{k} is an extra key {} rejects",
            h.label
        ));
    }
    if let Some(c) = hso.get("additionalContext").and_then(Value::as_str) {
        if h.answers.escapes_angles && (c.contains('<') || c.contains('>')) {
            return Err(format!(
                "additionalContext has angle brackets, which {} escapes",
                h.label
            ));
        }
        let units = c.encode_utf16().count();
        if h.output.context_units.is_some_and(|max| units > max) {
            return Err(format!(
                "additionalContext is {units} characters: {} saves it to a file and shows a 2,000-character preview",
                h.label
            ));
        }
    }
    Ok(())
}

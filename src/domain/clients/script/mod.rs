//! A hook script that runs inside a client (an OpenCode or Kilo plugin,
//! a pi extension): its template with the hook commands and the runner
//! they share filled in, under the marker line that lists the handlers.

use serde_json::{Value, json};

use crate::domain::harness::{Answers, Handler, Output, OwnedFile, marker};

/// `template` for `label`'s client, written as `name`, running `handlers`.
pub fn script(name: &str, label: &str, template: &str, handlers: &[Handler<'_>]) -> OwnedFile {
    let table: serde_json::Map<String, Value> = handlers
        .iter()
        .map(|(r, command)| {
            (
                r.event.to_string(),
                json!({"command": command, "timeout": r.timeout}),
            )
        })
        .collect();
    let runner = include_str!("runner.js").replace(
        "__HANDLERS__",
        &serde_json::to_string_pretty(&table).unwrap_or_default(),
    );
    let body = template
        .replace("__CLIENT__", label)
        .replace("__RUNNER__", &runner);
    OwnedFile {
        name: name.to_string(),
        text: format!(
            "{}\n// Written by `sessionkit hooks install`; `sessionkit hooks uninstall` removes it.\n{body}",
            marker("//", handlers)
        ),
        program: false,
    }
}

/// What a script takes back from a hook: context as `additionalContext`
/// (the script adds it to the model's system prompt), a continued turn as
/// Claude Code's `decision: block` with its `reason`.
pub const ANSWERS: Answers = Answers::plain(
    |c| Some(json!({"additionalContext": c}).to_string()),
    |c| Some(json!({"additionalContext": c}).to_string()),
    |prompt| json!({"decision": "block", "reason": prompt}).to_string(),
);

/// The keys a script reads of a hook's output.
pub const OUTPUT: Output = Output {
    plain_text: &[],
    keys: |_| &["additionalContext", "decision", "reason"],
    decisions: &["block"],
    strict_specific: false,
    context_units: None,
};

//! What Mistral Vibe's sessions say, for search: the entries each
//! journal's `projection_delta` records append or replace
//! (`append_entry`, `replace_entry`): a message of the person or the model
//! (content parts), and an effect that ran a tool (`detail.toolName`,
//! `detail.input`, and its output once `state.status` is `completed`). An
//! entry replaced later says what it says last. What the deleted journal
//! segments said is gone (the snapshots keep no history).

use std::collections::HashMap;

use serde_json::Value;

use super::read::SessionFiles;
use crate::domain::transcript::said::{
    Piece, Role, Said, SaidOptions, blocks, push_call, push_output,
};

/// What the surviving journals of a tree's sessions say, each entry under
/// its id, each session's as its agent's.
pub fn said_of_journals(files: &[SessionFiles], opts: SaidOptions) -> Vec<Said> {
    let mut out: Vec<Said> = Vec::new();
    for f in files {
        let mut place: HashMap<String, usize> = HashMap::new();
        let lines = f.journal.iter().flat_map(|(_, b)| b.split(|c| *c == b'\n'));
        for line in lines {
            if memchr::memmem::find(line, b"\"projection_delta\"").is_none() {
                continue;
            }
            let Ok(v) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            if v["type"] != "projection_delta" {
                continue;
            }
            for d in v["payload"]["delta"].as_array().into_iter().flatten() {
                let e = &d["entry"];
                let (Some("append_entry" | "replace_entry"), Some(id)) =
                    (d["op"].as_str(), e["id"].as_str())
                else {
                    continue;
                };
                let said = Said {
                    agent_id: f.id.clone(),
                    record: id.to_string(),
                    at: e["createdAt"].as_i64(),
                    pieces: entry_said(e, opts),
                };
                if let Some(&i) = place.get(id) {
                    out[i] = said;
                } else {
                    place.insert(id.to_string(), out.len());
                    out.push(said);
                }
            }
        }
    }
    out.retain(|s| !s.pieces.is_empty());
    out
}

/// What one entry says.
fn entry_said(e: &Value, opts: SaidOptions) -> Vec<Piece> {
    let mut out = Vec::new();
    match e["type"].as_str() {
        Some("message") => {
            let role = match e["role"].as_str() {
                Some("user") => Role::User,
                Some("assistant") => Role::Assistant,
                _ => return out,
            };
            blocks(&e["content"], role, opts, &mut out);
        }
        Some("effect") if e["detail"]["kind"] == "tool" => {
            let name = e["detail"]["toolName"].as_str().unwrap_or("tool");
            push_call(&mut out, name, &e["detail"]["input"]);
            let state = &e["state"];
            if state["status"] == "completed" {
                push_output(&mut out, opts, Some(name), output_of(state));
            }
        }
        _ => {}
    }
    out
}

/// A settled effect's output: its text when it kept one, else its content
/// parts, else its structured result (a command's `stdout`, `stderr`).
fn output_of(state: &Value) -> &Value {
    let o = &state["output"];
    let full = |v: &Value| match v {
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Null => false,
        _ => true,
    };
    [
        &state["outputText"],
        &o["content"],
        &o["structured_content"],
    ]
    .into_iter()
    .find(|v| full(v))
    .unwrap_or(&Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::said::{row, rows};

    /// A message is said once; an effect's call as it starts, and with its
    /// output once a later record settles it; a session's entries are its
    /// agent's.
    #[test]
    fn entries_say_messages_and_settled_tool_runs() {
        let delta = |op: &str, entry: &str| {
            format!(
                r#"{{"payload":{{"delta":[{{"op":"{op}","entry":{entry}}},{{"op":"set_envelope","state":{{}}}}]}},"sequence":1,"type":"projection_delta"}}"#
            )
        };
        let effect = |status: &str, out: &str| {
            format!(
                r#"{{"createdAt":1796497007266,"detail":{{"input":{{"command":"cargo test"}},"kind":"tool","toolName":"file_system.bash"}},"id":"effect-1","state":{{"status":"{status}","outputText":"","output":{{"content":[],"structured_content":{{"stdout":"{out}","stderr":""}}}}}},"type":"effect"}}"#
            )
        };
        let journal = [
            delta("append_entry", r#"{"content":[{"text":"run the tests","type":"text"}],"createdAt":1796497006433,"id":"user-1","role":"user","type":"message"}"#),
            r#"{"payload":{"action_id":"a"},"sequence":2,"type":"action_intent"}"#.to_string(),
            delta("append_entry", &effect("running", "")),
            delta("replace_entry", &effect("completed", "12 passed")),
            delta("append_entry", r#"{"content":[{"text":"All 12 pass.","type":"text"}],"createdAt":1796497007423,"id":"assistant-1","role":"assistant","type":"message"}"#),
        ]
        .join("\n");
        let files = [SessionFiles {
            id: "s1".into(),
            journal: vec![("unified#s1".into(), journal.into_bytes())],
            ..SessionFiles::default()
        }];
        let at = |ms: i64| Some(1_796_497_000_000 + ms);
        let bash = Some("file_system.bash");
        assert_eq!(
            rows(said_of_journals(&files, SaidOptions { outputs: true })),
            [
                row(("s1", "user-1", at(6433)), "user", None, "run the tests"),
                row(("s1", "effect-1", at(7266)), "tool", bash, "cargo test"),
                row(("s1", "effect-1", at(7266)), "tool", bash, "12 passed"),
                row(
                    ("s1", "assistant-1", at(7423)),
                    "assistant",
                    None,
                    "All 12 pass."
                ),
            ]
        );
    }
}

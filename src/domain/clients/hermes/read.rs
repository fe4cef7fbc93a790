//! Hermes Agent's sessions, from the running totals its `sessions` rows
//! keep (see `find`): a tree of rows is one session, each row an
//! agent (a subagent's parent the row its `parent_session_id` names), and
//! each row's totals one observation of its agent, keyed by the row's id,
//! dated at its start: a later, larger total replaces it, never adds to
//! it. Input is without the cached part, output with the reasoning in it,
//! reasoning also kept apart, as Hermes records them.

use serde_json::Value;

use crate::domain::clock::Millis;
use crate::domain::transcript::SessionRow;
use crate::domain::transcript::said::{
    Role, Said, SaidOptions, push_function_call, push_output, push_text,
};
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};
use crate::domain::transcript::{Ending, ParsedSession};

/// Hermes's database: its sessions' paths are `state.db#<session id>`.
pub const DATABASE: &str = "state.db";

/// Whether a stored transcript path names a Hermes session.
pub fn is_session(rel_path: &str) -> bool {
    crate::domain::transcript::names_stored_session(rel_path, DATABASE)
}

/// One `sessions` row's running totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionTotals {
    pub id: String,
    pub model: String,
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub reasoning: u64,
    /// API calls the totals cover.
    pub calls: u64,
    pub messages: u64,
    /// Whether the session was closed (`ended_at` set).
    pub ended: bool,
    pub end_reason: Option<String>,
}

/// One `messages` row: a person's prompt, an answer (its text and its
/// tool calls in Chat Completions' shape, as JSON), or a tool's output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageRow {
    pub id: i64,
    pub session_id: String,
    pub role: String,
    pub content: Option<String>,
    pub tool_calls: Option<String>,
    pub tool_name: Option<String>,
    pub at: Option<Millis>,
}

/// What a tree's messages say, each row under `row:<id>` of its session
/// (the session's agent).
pub fn said_of_messages(rows: &[MessageRow], opts: SaidOptions) -> Vec<Said> {
    let mut out = Vec::new();
    for m in rows {
        let mut pieces = Vec::new();
        let text = m.content.as_deref().unwrap_or("");
        match m.role.as_str() {
            "user" => push_text(&mut pieces, Role::User, None, false, text),
            "assistant" => {
                push_text(&mut pieces, Role::Assistant, None, false, text);
                let calls: Value = m
                    .tool_calls
                    .as_deref()
                    .and_then(|c| serde_json::from_str(c).ok())
                    .unwrap_or_default();
                for c in calls.as_array().into_iter().flatten() {
                    push_function_call(&mut pieces, c);
                }
            }
            "tool" => {
                // Its output is JSON when the tool answered with a record.
                let output = serde_json::from_str::<Value>(text)
                    .ok()
                    .filter(Value::is_object)
                    .unwrap_or_else(|| Value::String(text.to_string()));
                push_output(&mut pieces, opts, m.tool_name.as_deref(), &output);
            }
            _ => {}
        }
        if !pieces.is_empty() {
            out.push(Said {
                agent_id: m.session_id.clone(),
                record: format!("row:{}", m.id),
                at: m.at,
                pieces,
            });
        }
    }
    out
}

/// The tree of `sessions` (the top one first) with their `totals`.
pub fn parse_tree(
    db_rel: &str,
    sessions: &[SessionRow],
    totals: &[SessionTotals],
) -> ParsedSession {
    let root = &sessions[0];
    let mut out = ParsedSession {
        session_id: root.id.clone(),
        cwd: Some(root.directory.clone()).filter(|d| !d.is_empty()),
        started_at: Some(root.time_created),
        ..ParsedSession::default()
    };
    for (i, s) in sessions.iter().enumerate() {
        let mut a = s.agent(db_rel, i);
        let t = totals.iter().find(|t| t.id == s.id);
        a.records = t.map_or(0, |t| t.messages);
        out.records += a.records;
        // A session Hermes closed ended its turn; a subagent's, its task.
        a.ending = t
            .filter(|t| t.ended)
            .map(|_| (Ending::TurnEnd, Some(s.time_updated)));
        a.finished = i > 0 && a.ending.is_some();
        out.agents.push(a);
        out.last_activity_at = out.last_activity_at.max(Some(s.time_updated));
        let Some(t) = t.filter(|t| t.input + t.output + t.cache_read + t.cache_write > 0) else {
            continue;
        };
        out.usage.push(UsageObservation {
            message_id: format!("{}#totals", s.id),
            agent_id: s.id.clone(),
            record_session_id: root.id.clone(),
            model: t.model.clone(),
            at: Some(s.time_created),
            buckets: Buckets {
                input: t.input,
                output: t.output,
                cache_write_5m: t.cache_write,
                cache_write_1h: 0,
                cache_read: t.cache_read,
                reasoning: t.reasoning,
            },
            billing: Billing::default(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::said::{row as piece, rows};

    fn row(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow::for_test(id, parent)
    }

    /// A prompt, an answer's text and calls, a tool's output (a JSON
    /// record's `output`), each under its row; a system row says nothing.
    #[test]
    fn messages_say_prompts_answers_calls_and_outputs() {
        let m = |id: i64, role: &str, content: &str, calls: Option<&str>, tool: Option<&str>| {
            MessageRow {
                id,
                session_id: if id < 5 { "p".into() } else { "c".into() },
                role: role.into(),
                content: Some(content.into()),
                tool_calls: calls.map(str::to_string),
                tool_name: tool.map(str::to_string),
                at: Some(1_796_497_007_000 + id),
            }
        };
        let rows_in = [
            m(1, "system", "you are Hermes", None, None),
            m(2, "user", "tidy the release notes", None, None),
            m(
                3,
                "assistant",
                "Reading them.",
                Some(
                    r#"[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\": \"NOTES.md\"}"}}]"#,
                ),
                None,
            ),
            m(
                4,
                "tool",
                r#"{"output": "v2 notes", "exit_code": 0}"#,
                None,
                Some("read_file"),
            ),
            m(5, "user", "check the links", None, None),
        ];
        let at = |id: i64| Some(1_796_497_007_000 + id);
        assert_eq!(
            rows(said_of_messages(&rows_in, SaidOptions { outputs: true })),
            [
                piece(
                    ("p", "row:2", at(2)),
                    "user",
                    None,
                    "tidy the release notes"
                ),
                piece(("p", "row:3", at(3)), "assistant", None, "Reading them."),
                piece(("p", "row:3", at(3)), "tool", Some("read_file"), "NOTES.md"),
                piece(("p", "row:4", at(4)), "tool", Some("read_file"), "v2 notes"),
                piece(("c", "row:5", at(5)), "user", None, "check the links"),
            ]
        );
    }

    fn totals(id: &str, input: u64) -> SessionTotals {
        SessionTotals {
            id: id.into(),
            model: "fake-model".into(),
            input,
            output: 36,
            cache_read: 300,
            reasoning: 3,
            calls: 2,
            messages: 4,
            ended: true,
            ..SessionTotals::default()
        }
    }

    #[test]
    fn each_row_s_totals_are_its_agent_s_one_observation() {
        let sessions = [row("p", None), row("c", Some("p"))];
        let out = parse_tree("state.db", &sessions, &[totals("p", 2714), totals("c", 0)]);
        assert_eq!(out.session_id, "p");
        assert_eq!(out.agents.len(), 2);
        assert_eq!(out.agents[1].parent_id.as_deref(), Some("p"));
        // The child's row holds output but no input: still its own.
        assert_eq!(out.usage.len(), 2);
        let p = &out.usage[0];
        assert_eq!(p.message_id, "p#totals");
        assert_eq!(
            [
                p.buckets.input,
                p.buckets.cache_read,
                p.buckets.output,
                p.buckets.reasoning
            ],
            [2714, 300, 36, 3]
        );
        assert_eq!(out.usage[1].agent_id, "c");
        assert_eq!(out.records, 8);
        assert!(is_session("state.db#p") && !is_session("opencode.db#p"));
    }
}

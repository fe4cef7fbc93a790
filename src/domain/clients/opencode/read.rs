//! OpenCode sessions. OpenCode keeps no transcript files: everything is in
//! its SQLite database, `~/.local/share/opencode/opencode.db` (tables
//! `session`, `message`, `part`, `event`). This module turns the rows of
//! one session tree — a top-level session and the subagent sessions under
//! it (`session.parent_id`) — into a parsed session; reading the database
//! is `find`'s.
//!
//! What is read (OpenCode 1.18):
//! - each assistant `message.data`'s `tokens`: one message per API response,
//!   `input` already without the cached part, `cache.read` and
//!   `cache.write`, `output` **without** the reasoning tokens, which are
//!   `reasoning` beside it. Output here includes reasoning (as every other
//!   harness's), so it is `output + reasoning`. (OpenCode 1.1, whose
//!   sessions are JSON files under `storage/`, kept the reasoning inside
//!   `output`; the message's `total` says which way it was written.)
//! - nothing else that repeats them: a `step-finish` part holds the same
//!   tokens again, each `message.updated` event the message as it stood,
//!   and the `session` row the sum over its own messages.
//! - the session row's `directory` (where it ran), `version` (OpenCode's),
//!   `agent` and `title`; a subagent session's `parent_id`.
//!
//! OpenCode does not record the request that titles a new session: it is
//! billed by the provider and appears nowhere in the database.

use crate::domain::transcript::said::{Piece, Role, push_call, push_output};
use serde::Deserialize;

use crate::domain::transcript::said::{Said, SaidOptions};

use crate::domain::clock::Millis;
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};
use crate::domain::transcript::{BadLine, Ending, ParsedSession, SessionRow, session_path};

/// What an OpenCode session's path in reports looks like:
/// `opencode.db#<session id>`.
pub const DATABASE: &str = "opencode.db";

/// The same for older versions' JSON files: `storage#<session id>`.
pub const STORAGE: &str = "storage";

/// Whether a stored transcript path names an OpenCode session.
pub fn is_session(rel_path: &str) -> bool {
    [DATABASE, STORAGE]
        .iter()
        .any(|store| crate::domain::transcript::names_stored_session(rel_path, store))
}

/// One `message` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRow {
    pub id: String,
    pub session_id: String,
    pub time_created: Millis,
    pub data: String,
}

/// A part of a message (text, a tool call with its state, a step): the
/// `part` table's row, or a file of `storage/part/<message>/`.
#[derive(Debug, Clone)]
pub struct PartRow {
    pub id: String,
    pub message_id: String,
    pub session_id: String,
    pub time_created: Millis,
    pub data: String,
}

/// Whether a session's title is the one OpenCode (and Kilo) give a new
/// session before any is made (`New session - <ISO time>`): no title.
pub fn default_title(title: &str) -> bool {
    title.starts_with("New session - ") || title.starts_with("Child session - ")
}

/// What a tree's parts say: each part's pieces (`part_said`),
/// the part's role its message's; the part's own id is its record.
pub fn said_of_parts(messages: &[MessageRow], parts: &[PartRow], opts: SaidOptions) -> Vec<Said> {
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Role {
        role: Option<String>,
    }
    let assistant: std::collections::HashMap<&str, bool> = messages
        .iter()
        .map(|m| {
            let r: Role = serde_json::from_str(&m.data).unwrap_or_default();
            (m.id.as_str(), r.role.as_deref() == Some("assistant"))
        })
        .collect();
    let mut out = Vec::new();
    for p in parts {
        let Ok(data) = serde_json::from_str::<serde_json::Value>(&p.data) else {
            continue;
        };
        let by_model = assistant
            .get(p.message_id.as_str())
            .copied()
            .unwrap_or(false);
        let pieces = part_said(&data, by_model, opts);
        if !pieces.is_empty() {
            out.push(Said {
                agent_id: p.session_id.clone(),
                record: p.id.clone(),
                at: Some(p.time_created),
                pieces,
            });
        }
    }
    out
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Data {
    role: Option<String>,
    #[serde(rename = "modelID")]
    model_id: Option<String>,
    tokens: Option<Tokens>,
    /// Why the response stopped: `stop` (the answer), `tool-calls`, ...
    finish: Option<String>,
    /// Why the response failed: `APIError` (the model's API refused or
    /// failed it), `MessageAbortedError` (the user stopped it), ...
    error: Option<MessageError>,
    /// What OpenCode itself says the response cost, in dollars (0 for a
    /// model it has no price for).
    cost: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct MessageError {
    name: String,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Tokens {
    total: Option<u64>,
    input: u64,
    output: u64,
    reasoning: u64,
    cache: Cache,
}

impl Tokens {
    /// The output with its reasoning. OpenCode 1.18 keeps `output` without
    /// the reasoning (its `total` adds both); 1.1 kept it inside `output`
    /// (its `total` adds `output` alone): the `total` tells which.
    fn output_with_reasoning(self) -> u64 {
        let rest = self
            .input
            .saturating_add(self.cache.read)
            .saturating_add(self.cache.write);
        match self.total {
            Some(t) if t == rest.saturating_add(self.output) => self.output,
            _ => self.output.saturating_add(self.reasoning),
        }
    }
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Cache {
    read: u64,
    write: u64,
}

/// The parsed session of a tree: `sessions` holds its root (no parent in
/// the tree) first, then its subagent sessions; `messages` theirs, in
/// each session's order. `db_rel` is the database's path in reports.
pub fn parse_tree(db_rel: &str, sessions: &[SessionRow], messages: &[MessageRow]) -> ParsedSession {
    let root = &sessions[0];
    let mut out = ParsedSession {
        session_id: root.id.clone(),
        cwd: Some(root.directory.clone()).filter(|d| !d.is_empty()),
        harness_version: root.version.clone(),
        started_at: Some(root.time_created),
        ..ParsedSession::default()
    };
    for (i, s) in sessions.iter().enumerate() {
        let mut a = s.agent(db_rel, i);
        // The placeholder title describes nothing.
        if a.description.as_deref().is_some_and(default_title) {
            a.description = None;
        }
        a.agent_type = s.agent.clone();
        out.agents.push(a);
        out.last_activity_at = out.last_activity_at.max(Some(s.time_updated));
    }
    let mut line_of: std::collections::HashMap<&str, u64> = std::collections::HashMap::new();
    for m in messages {
        let line = line_of.entry(m.session_id.as_str()).or_insert(0);
        *line += 1;
        out.records += 1;
        out.bytes += m.data.len() as u64;
        if let Some(a) = out.agents.iter_mut().find(|a| a.agent_id == m.session_id) {
            a.records += 1;
            a.last_seen = a.last_seen.max(Some(m.time_created));
        }
        let data: Data = match serde_json::from_str(&m.data) {
            Ok(d) => d,
            Err(e) => {
                out.bad_lines.push(BadLine {
                    file: session_path(db_rel, &m.session_id),
                    line: *line,
                    reason: format!("message {} is not JSON: {e}", m.id),
                });
                out.bad_lines_total += 1;
                continue;
            }
        };
        // The session's latest message says how its turn stands.
        if let Some(a) = out.agents.iter_mut().find(|a| a.agent_id == m.session_id) {
            a.ending = ending_of(&data).map(|e| (e, Some(m.time_created)));
        }
        answer(&mut out, m, data, &root.id);
    }
    // A subagent session whose last answer ended its turn finished its task.
    for a in out.agents.iter_mut().skip(1) {
        a.finished = a.ending.is_some_and(|(e, _)| e == Ending::TurnEnd);
    }
    out
}

/// An answer's usage under its message id and, when OpenCode priced it,
/// its cost as the figure the client reported; a prompt says nothing.
fn answer(out: &mut ParsedSession, m: &MessageRow, data: Data, root: &str) {
    let (Some("assistant"), Some(t)) = (data.role.as_deref(), data.tokens) else {
        return;
    };
    let buckets = Buckets {
        input: t.input,
        output: t.output_with_reasoning(),
        cache_write_5m: t.cache.write,
        cache_write_1h: 0,
        cache_read: t.cache.read,
        reasoning: t.reasoning,
    };
    let model = data.model_id.unwrap_or_default();
    if let Some(usd) = data.cost.filter(|u| *u > 0.0) {
        out.harness_cost
            .get_or_insert_with(Default::default)
            .add_response(&m.id, &model, Some(m.time_created), buckets, usd);
    }
    out.usage.push(UsageObservation {
        message_id: m.id.clone(),
        agent_id: m.session_id.clone(),
        record_session_id: root.to_string(),
        model,
        at: Some(m.time_created),
        buckets,
        billing: Billing::default(),
    });
}

/// How a session whose latest message is `data` stands: an answer that
/// stopped ended its turn, one kept with an error failed (`APIError`, the
/// model's API) or was stopped (`MessageAbortedError`, by the user); a
/// prompt or a call of tools goes on.
fn ending_of(data: &Data) -> Option<Ending> {
    if data.role.as_deref() != Some("assistant") {
        return None;
    }
    match &data.error {
        Some(e) if e.name == "MessageAbortedError" => Some(Ending::Interrupt),
        Some(_) => Some(Ending::ApiError),
        None => (data.finish.as_deref() == Some("stop")).then_some(Ending::TurnEnd),
    }
}

/// An OpenCode part (`part.data`): a text part of the user's or the
/// model's message, a tool part (its name and input; its output when kept).
fn part_said(data: &serde_json::Value, assistant: bool, opts: SaidOptions) -> Vec<Piece> {
    let mut out = Vec::new();
    let role = if assistant {
        Role::Assistant
    } else {
        Role::User
    };
    match data.get("type").and_then(serde_json::Value::as_str) {
        Some("text") if data.get("synthetic") != Some(&serde_json::Value::Bool(true)) => {
            if let Some(t) = data.get("text").and_then(serde_json::Value::as_str) {
                crate::domain::transcript::said::push_text(&mut out, role, None, false, t);
            }
        }
        Some("tool") => {
            let name = data
                .get("tool")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("tool");
            let state = &data["state"];
            push_call(
                &mut out,
                name,
                state.get("input").unwrap_or(&serde_json::Value::Null),
            );
            if let Some(o) = state.get("output") {
                push_output(&mut out, opts, Some(name), o);
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow {
            id: id.into(),
            parent_id: parent.map(str::to_string),
            directory: "/home/dev/work/proj".into(),
            title: Some(format!("title of {id}")),
            version: Some("1.18.33".into()),
            agent: Some("build".into()),
            time_created: 1_000,
            time_updated: 2_000,
        }
    }

    fn message(id: &str, session: &str, data: &str) -> MessageRow {
        MessageRow {
            id: id.into(),
            session_id: session.into(),
            time_created: 1_500,
            data: data.into(),
        }
    }

    /// Tokens per assistant message, output with its reasoning; a user
    /// message has none; a subagent session is an agent whose parent is
    /// the session its row names; a message that is not JSON is a bad
    /// line of its session, counted and shown where it is.
    #[test]
    fn a_tree_of_sessions_is_one_session_with_its_agents() {
        let mut leaky = session("ses_c", Some("ses_b"));
        leaky.title = Some("deploy with PASSWORD=hunter2hunter2".into());
        let sessions = [
            session("ses_a", None),
            session("ses_b", Some("ses_a")),
            leaky,
        ];
        let assistant = r#"{"role":"assistant","modelID":"m1","tokens":{"total":2030,"input":1807,"output":21,"reasoning":2,"cache":{"write":4,"read":200}}}"#;
        let messages = [
            message("msg_1", "ses_a", r#"{"role":"user"}"#),
            message("msg_2", "ses_a", assistant),
            message("msg_3", "ses_b", assistant),
            message("msg_4", "ses_c", "{cut"),
        ];
        let p = parse_tree("opencode.db", &sessions, &messages);
        assert_eq!(p.session_id, "ses_a");
        assert_eq!(p.cwd.as_deref(), Some("/home/dev/work/proj"));
        assert_eq!(p.harness_version.as_deref(), Some("1.18.33"));
        let ids: Vec<(&str, &str, Option<&str>)> = p
            .agents
            .iter()
            .map(|a| {
                (
                    a.agent_id.as_str(),
                    a.layout.as_str(),
                    a.parent_id.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            ids,
            [
                ("ses_a", "main", None),
                ("ses_b", "child", Some("ses_a")),
                ("ses_c", "child", Some("ses_b"))
            ]
        );
        assert_eq!(p.agents[1].transcript_path, "opencode.db#ses_b");
        // A title is redacted as any kept transcript text.
        let title = p.agents[2].description.as_deref().unwrap();
        assert!(
            title.starts_with("deploy with PASSWORD=[redacted:"),
            "{title}"
        );
        let rows: Vec<(&str, &str, Buckets)> = p
            .usage
            .iter()
            .map(|u| (u.message_id.as_str(), u.agent_id.as_str(), u.buckets))
            .collect();
        let b = Buckets {
            input: 1807,
            output: 23,
            cache_write_5m: 4,
            cache_write_1h: 0,
            cache_read: 200,
            reasoning: 2,
        };
        assert_eq!(rows, [("msg_2", "ses_a", b), ("msg_3", "ses_b", b)]);
        assert_eq!(p.bad_lines.len(), 1);
        assert_eq!(p.bad_lines[0].file, "opencode.db#ses_c");
        assert_eq!(p.bad_lines[0].line, 1);
        let edges = crate::domain::transcript::resolve(&p);
        let parents: Vec<(&str, Option<&str>, &str)> = edges
            .iter()
            .map(|e| (e.child.as_str(), e.parent.as_deref(), e.join_path.as_str()))
            .collect();
        assert_eq!(
            parents,
            [
                ("ses_b", Some("ses_a"), "parent_record"),
                ("ses_c", Some("ses_b"), "parent_record")
            ]
        );
        assert!(is_session("opencode.db#ses_a") && !is_session("opencode.db"));
        assert_eq!(
            crate::domain::transcript::Format::of_file("opencode.db#ses_a"),
            crate::domain::transcript::Format::OpenCode
        );
    }

    /// An answer OpenCode kept with an `error` failed (`APIError`), or was
    /// stopped by the user (`MessageAbortedError`).
    #[test]
    fn an_answer_with_an_error_ends_its_turn_so() {
        use crate::domain::transcript::Ending;
        let ending = |error: &str| {
            let data = format!(
                r#"{{"role":"assistant","modelID":"m","tokens":{{"input":0,"output":0,"reasoning":0,"cache":{{"read":0,"write":0}}}},"error":{{"name":"{error}","data":{{"statusCode":400}}}}}}"#
            );
            let out = parse_tree(
                DATABASE,
                &[session("ses_a", None)],
                &[message("msg_1", "ses_a", &data)],
            );
            out.agents[0].ending.map(|e| e.0)
        };
        assert_eq!(ending("APIError"), Some(Ending::ApiError));
        assert_eq!(ending("MessageAbortedError"), Some(Ending::Interrupt));
    }

    /// OpenCode's own cost of each answer adds up, by model, as the figure
    /// the client reported; a zero (its word for "no price") is no figure.
    #[test]
    fn the_client_s_own_costs_add_up_by_model() {
        let answer = |model: &str, cost: f64| {
            format!(
                r#"{{"role":"assistant","modelID":"{model}","cost":{cost},"tokens":{{"input":100,"output":10,"reasoning":0,"cache":{{"read":5,"write":0}}}}}}"#
            )
        };
        let out = parse_tree(
            DATABASE,
            &[session("ses_a", None)],
            &[
                message("msg_1", "ses_a", &answer("m1", 0.0015)),
                message("msg_2", "ses_a", &answer("m1", 0.0005)),
                message("msg_3", "ses_a", &answer("m2", 0.0)),
            ],
        );
        let own = out.harness_cost.expect("OpenCode priced m1");
        assert_eq!(own.cost_nanousd, 2_000_000);
        let by: Vec<(String, i64, u64)> = own
            .models
            .iter()
            .map(|m| (m.model.clone(), m.cost_nanousd, m.tokens.input))
            .collect();
        assert_eq!(by, [("m1".to_string(), 2_000_000, 200)]);
        let none = parse_tree(
            DATABASE,
            &[session("ses_a", None)],
            &[message("msg_3", "ses_a", &answer("m2", 0.0))],
        );
        assert_eq!(none.harness_cost, None);
    }
}

//! Copilot CLI sessions, one block at a time:
//! `~/.copilot/session-state/<session uuid>/events.jsonl`. Each line is an
//! event `{type, data, id, timestamp, parentId, [agentId]}`.
//!
//! What is read (Copilot CLI 1.0):
//! - `session.usage_record`: one API response's usage (`data.usage`),
//!   keyed by its `apiCallId` (else its accounting `usageId`, else the
//!   event id). `inputTokens` includes the cached part: input is the rest,
//!   cache reads `cacheReadTokens`, cache writes `cacheWriteTokens`;
//!   `outputTokens` already includes the reasoning tokens. A subagent's
//!   records are tagged with its `agentId` (their accounting names the
//!   subagent's own session) and count for it; an untagged record whose
//!   accounting names another session (`sourceSessionId`) is that
//!   session's and is not counted here. The per-run totals in
//!   `session.shutdown` are cumulative across `--continue` and are not read.
//! - `subagent.started` (tagged with the subagent's `agentId`): a subagent,
//!   its `agentName` and `agentDescription`, started by the call
//!   `toolCallId`; `subagent.completed`: it finished.
//! - `session.start`: `startTime` and `context.cwd`.

use crate::domain::transcript::said::{Piece, Role, SaidOptions, blocks, push_call, push_output};
use serde::Deserialize;

use crate::domain::clock::parse_instant;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, typed_records, uuid_like};
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};

/// Whether a transcript path is a Copilot CLI session: `<uuid>/events.jsonl`.
pub fn is_session(rel_path: &str) -> bool {
    rel_path
        .strip_suffix("/events.jsonl")
        .is_some_and(|dir| !dir.contains('/') && uuid_like(dir))
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Event {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    timestamp: Option<String>,
    #[serde(rename = "agentId")]
    agent_id: Option<String>,
    data: Data,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Data {
    #[serde(rename = "startTime")]
    start_time: Option<String>,
    context: Context,
    usage: Option<Usage>,
    #[serde(rename = "toolCallId")]
    tool_call_id: Option<String>,
    #[serde(rename = "agentName")]
    agent_name: Option<String>,
    #[serde(rename = "agentDescription")]
    agent_description: Option<String>,
    /// A `session.error`'s kind (`query`: the model's API) and the HTTP
    /// status it got.
    #[serde(rename = "errorType")]
    error_type: Option<String>,
    #[serde(rename = "statusCode")]
    status_code: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Context {
    cwd: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Usage {
    model: Option<String>,
    #[serde(rename = "inputTokens")]
    input: u64,
    #[serde(rename = "outputTokens")]
    output: u64,
    #[serde(rename = "cacheReadTokens")]
    cache_read: u64,
    #[serde(rename = "cacheWriteTokens")]
    cache_write: u64,
    /// Of the output.
    #[serde(rename = "reasoningTokens")]
    reasoning: u64,
    #[serde(rename = "apiCallId")]
    api_call_id: Option<String>,
    accounting: Accounting,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Accounting {
    #[serde(rename = "sourceSessionId")]
    source_session_id: Option<String>,
    #[serde(rename = "usageId")]
    usage_id: Option<String>,
}

/// Reads a block's complete lines of a Copilot CLI session into the
/// parser; returns the bytes read (through the last newline).
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    typed_records::<Event>(b, file, bytes, read_event)
}

fn read_event(b: &mut SessionParser, rec: Event, owner: &mut Owner<'_>) {
    let at = rec.timestamp.as_deref().and_then(parse_instant);
    let tagged = rec.agent_id.filter(|a| !a.is_empty() && *a != owner.agent);
    match &tagged {
        Some(agent) => b.span(agent).see(at),
        None => owner.span.see(at),
    }
    if let Some(at) = at {
        b.out.last_activity_at = b.out.last_activity_at.max(Some(at));
    }
    match rec.kind.as_deref() {
        // The client shut the session down; a later prompt (a resume) goes
        // on. A turn that failed stays failed.
        Some("session.shutdown") if tagged.is_none() && !b.has_failed(owner.agent) => {
            b.turn(owner.agent, true, at);
        }
        // The model's API refused or failed the turn's request.
        Some("session.error")
            if tagged.is_none()
                && (rec.data.status_code.is_some()
                    || rec.data.error_type.as_deref() == Some("query")) =>
        {
            b.failed(owner.agent, at);
        }
        Some("user.message") if tagged.is_none() => b.turn(owner.agent, false, at),
        Some("subagent.started") => {
            if let Some(agent) = &tagged {
                started(b, owner.agent, agent, rec.data, at);
            }
        }
        Some("subagent.completed") => {
            if let Some(a) = b
                .out
                .agents
                .iter_mut()
                .find(|a| Some(&a.agent_id) == tagged.as_ref())
            {
                a.finished = true;
            }
        }
        Some("session.start") if owner.main => {
            let started = rec
                .data
                .start_time
                .as_deref()
                .and_then(parse_instant)
                .or(at);
            if b.out.started_at.is_none() {
                b.out.started_at = started;
            }
            b.hint_cwd(rec.data.context.cwd.as_deref());
        }
        Some("session.usage_record") => {
            if let Some(u) = rec.data.usage {
                let untagged = tagged.is_none();
                let agent = tagged.unwrap_or_else(|| owner.agent.to_string());
                usage_record(b, u, rec.id, (agent, untagged), at);
            }
        }
        _ => {}
    }
}

/// One API call's usage (`session.usage_record`), as `agent`'s; a record
/// of the main file (`untagged`) that another session's accounting names
/// is that session's, not read here. Its id: the API call's, else the
/// accounting's, else the event's.
fn usage_record(
    b: &mut SessionParser,
    u: Usage,
    event_id: Option<String>,
    (agent, untagged): (String, bool),
    at: Option<crate::domain::clock::Millis>,
) {
    let sid = b.out.session_id.clone();
    if untagged
        && u.accounting
            .source_session_id
            .as_deref()
            .is_some_and(|s| s != sid)
    {
        return;
    }
    let id = u
        .api_call_id
        .filter(|i| !i.is_empty())
        .or(u.accounting.usage_id.filter(|i| !i.is_empty()))
        .or(event_id.filter(|i| !i.is_empty()));
    let Some(id) = id else {
        return;
    };
    b.add_usage(UsageObservation {
        message_id: id,
        agent_id: agent,
        record_session_id: sid,
        model: u.model.unwrap_or_default(),
        at,
        buckets: Buckets {
            input: u.input.saturating_sub(u.cache_read),
            output: u.output,
            cache_write_5m: u.cache_write,
            cache_write_1h: 0,
            cache_read: u.cache_read,
            reasoning: u.reasoning,
        },
        billing: Billing::default(),
    });
}

/// A subagent the session's file announces: an agent of the session,
/// under the call that started it (made by `parent`, the file's agent).
fn started(
    b: &mut SessionParser,
    parent: &str,
    agent: &str,
    data: Data,
    at: Option<crate::domain::clock::Millis>,
) {
    if b.out.agents.iter().any(|a| a.agent_id == agent) {
        return;
    }
    let path = b
        .out
        .agents
        .first()
        .map(|a| a.transcript_path.clone())
        .unwrap_or_default();
    let mut a = crate::domain::transcript::kit::new_agent(
        agent,
        crate::domain::transcript::AgentLayout::Tagged,
        &path,
        None,
    );
    a.agent_type = data.agent_name.filter(|n| !n.is_empty());
    a.description = data
        .agent_description
        .filter(|d| !d.is_empty())
        .map(|d| crate::domain::redact::redact_text(&d).into_owned());
    if let Some(call) = data.tool_call_id.filter(|c| !c.is_empty()) {
        if !b.out.spawns.iter().any(|s| s.tool_use_id == call) {
            b.out.spawns.push(crate::domain::transcript::Spawn {
                tool_use_id: call.clone(),
                owner: parent.to_string(),
                tool: "task".to_string(),
                prompt: None,
                subagent_type: a.agent_type.clone(),
                description: a.description.clone(),
                workflow_id: None,
                at,
                result: None,
            });
        }
        a.sidecar_tool_use_id = Some(call);
    }
    b.out.agents.push(a);
}

/// What a line of a session's events says: a prompt, an answer with its
/// tool requests, a tool's result.
pub(super) fn said(
    v: &serde_json::Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<crate::domain::clock::Millis>, Vec<Piece>)> {
    crate::domain::transcript::said::one_record(v, line, opts, |v, opts| {
        let kind = v.get("type").and_then(serde_json::Value::as_str)?;
        if !matches!(
            kind,
            "user.message" | "assistant.message" | "tool.execution_complete"
        ) {
            return None;
        }
        let mut pieces = Vec::new();
        event_said(kind, &v["data"], opts, &mut pieces);
        (!pieces.is_empty()).then(|| (crate::domain::transcript::said::id_of(v, "id"), pieces))
    })
}

/// A Copilot CLI event: a prompt, an answer with its tool requests, a
/// tool's result.
fn event_said(kind: &str, d: &serde_json::Value, opts: SaidOptions, out: &mut Vec<Piece>) {
    match kind {
        "user.message" => blocks(
            d.get("content").unwrap_or(&serde_json::Value::Null),
            Role::User,
            opts,
            out,
        ),
        "assistant.message" => {
            blocks(
                d.get("content").unwrap_or(&serde_json::Value::Null),
                Role::Assistant,
                opts,
                out,
            );
            for r in d
                .get("toolRequests")
                .and_then(serde_json::Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = r
                    .get("name")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("tool");
                push_call(
                    out,
                    name,
                    r.get("arguments").unwrap_or(&serde_json::Value::Null),
                );
            }
        }
        _ => push_output(
            out,
            opts,
            d.get("toolName").and_then(serde_json::Value::as_str),
            &d["result"],
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "88d2dd4f-57fa-403c-b256-813c017cdf23";
    const OTHER: &str = "99d2dd4f-57fa-403c-b256-813c017cdf24";

    #[test]
    fn usage_records_count_once_each() {
        let usage = |i: u64, o: u64, r: u64, call: &str, source: &str| {
            format!(
                r#"{{"type":"session.usage_record","id":"e-{call}","timestamp":"2026-12-04T17:59:42.213Z","data":{{"usage":{{"model":"gpt-5","inputTokens":{i},"outputTokens":{o},"cacheReadTokens":{r},"cacheWriteTokens":0,"reasoningTokens":1,"apiCallId":"{call}","accounting":{{"sourceSessionId":"{source}","usageId":"{call}"}}}}}}}}"#
            )
        };
        let text = [
            format!(r#"{{"type":"session.start","id":"e0","timestamp":"2026-12-04T17:59:41.717Z","data":{{"sessionId":"{S}","startTime":"2026-12-04T17:59:41.687Z","context":{{"cwd":"/w/proj"}}}}}}"#),
            usage(1007, 13, 100, "c1", S),
            usage(2007, 23, 200, "c2", S),
            // Written again (a resumed run's replay): the same call counts once.
            usage(2007, 23, 200, "c2", S),
            // Another session's record: not this one's.
            usage(5000, 50, 0, "c9", OTHER),
            r#"{"type":"session.shutdown","id":"e9","timestamp":"2026-12-04T17:59:42.420Z","data":{"accountingSnapshot":{"modelMetrics":{"gpt-5":{"usage":{"inputTokens":3014}}}}}}"#.to_string(),
        ]
        .join("\n")
            + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("{S}/events.jsonl"));
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        let out = p.finish();
        let ids: Vec<&str> = out.usage.iter().map(|u| u.message_id.as_str()).collect();
        assert_eq!(ids, ["c1", "c2"]);
        assert_eq!(
            crate::domain::transcript::kit::input_cached_output(&out),
            (2714, 300, 36)
        );
        assert_eq!(out.cwd.as_deref(), Some("/w/proj"));
        assert_eq!(
            out.started_at,
            crate::domain::clock::parse_instant("2026-12-04T17:59:41.687Z")
        );
    }

    #[test]
    fn copilot_paths() {
        assert!(super::is_session(&format!("{S}/events.jsonl")));
        assert!(!super::is_session("x/events.jsonl"));
        assert!(!super::is_session(&format!("a/{S}/events.jsonl")));
    }

    /// A request the model's API refused is a `session.error` with its
    /// status: the turn failed, and the shutdown after it keeps it so.
    #[test]
    fn a_refused_request_fails_the_turn() {
        let text = [
            r#"{"type":"user.message","id":"e1","timestamp":"2026-12-06T02:26:05.821Z","data":{"content":"go"}}"#,
            r#"{"type":"session.error","id":"e2","timestamp":"2026-12-06T02:26:06.000Z","data":{"errorType":"query","message":"400 fake bad request","statusCode":400}}"#,
            r#"{"type":"session.shutdown","id":"e3","timestamp":"2026-12-06T02:26:06.100Z","data":{"shutdownType":"routine"}}"#,
        ]
        .join("\n")
            + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("{S}/events.jsonl"));
        p.block(f, text.as_bytes()).unwrap();
        let out = p.finish();
        assert_eq!(
            out.agents[0].ending.map(|e| e.0),
            Some(crate::domain::transcript::Ending::ApiError)
        );
    }
}

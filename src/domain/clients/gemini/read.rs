//! Gemini CLI chats, one block at a time: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, a
//! subagent's in `chats/<session>/<agent>.jsonl`. The first line is a
//! header (`sessionId`, `startTime`, `kind`); `{"$set": {…}}` lines update
//! metadata, sometimes the whole `messages` list; every other line is a
//! message (`id`, `timestamp`, `type`, `tokens`, `model`, `toolCalls`), and
//! a message appended again with the same `id` replaces the earlier one.
//!
//! What is read:
//! - a message's `tokens` (`input`, `output`, `cached`, `thoughts`,
//!   `tool`): one usage observation per message id, repeated copies (and
//!   copies inside a `$set` list) combined by the counting rule, which keeps
//!   the largest count. Gemini's `input` (`promptTokenCount`) includes the
//!   cached part: input is the rest plus the tool-use prompt tokens, cache
//!   reads the cached, output the candidates plus the thoughts (billed as
//!   output), so the buckets add up to the message's `total`.
//! - the header's `startTime`; a subagent's `complete_task` call: its end.
//! - a `$set` of `sessionId`: written at every resume, naming the same
//!   session; nothing to read.
//!
//! Versions before the `.jsonl` chats (0.20 and earlier) wrote
//! `chats/session-<time>-<id8>.json`, one document (`sessionId`,
//! `startTime`, `messages`) written whole at every change: its messages are
//! read as lines would be, and a changed document is read again whole.

use crate::domain::transcript::said::{Piece, Role, SaidOptions, blocks, push_call, push_output};
use serde::Deserialize;

use crate::domain::clock::{Millis, parse_instant};
use crate::domain::transcript::BadLine;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, json_records};
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};

/// Whether a transcript path is a Gemini CLI chat (`…/chats/….jsonl`, or an
/// older version's whole-file `…/chats/session-….json`).
pub fn is_chat(rel_path: &str) -> bool {
    let in_chats = rel_path.starts_with("chats/") || rel_path.contains("/chats/");
    in_chats && (rel_path.ends_with(".jsonl") || is_legacy(rel_path))
}

/// Whether a chat is an older version's whole-file JSON document (written
/// whole at every change: never read on from where a read stopped).
pub fn is_legacy(rel_path: &str) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.starts_with("session-") && name.ends_with(".json")
}

/// An older version's chat: one JSON document (`sessionId`, `startTime`,
/// `messages`), written whole at every change.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Document {
    #[serde(rename = "startTime")]
    start_time: Option<String>,
    messages: Vec<Line>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    id: Option<String>,
    /// `user`, `gemini` (the model), `info`, `error`, ...
    #[serde(rename = "type")]
    kind: Option<String>,
    /// Only a `$set` list's messages' is looked at (a compression's
    /// summary), so it is kept unparsed.
    content: Option<Box<serde_json::value::RawValue>>,
    timestamp: Option<String>,
    model: Option<String>,
    tokens: Option<Tokens>,
    #[serde(rename = "toolCalls")]
    tool_calls: Option<Vec<ToolCall>>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
    #[serde(rename = "startTime")]
    start_time: Option<String>,
    #[serde(rename = "$set")]
    set: Option<Set>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Set {
    messages: Option<Vec<Line>>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Tokens {
    input: u64,
    output: u64,
    cached: u64,
    thoughts: u64,
    tool: u64,
}

impl Tokens {
    fn buckets(self) -> Buckets {
        Buckets {
            input: self
                .input
                .saturating_sub(self.cached)
                .saturating_add(self.tool),
            output: self.output.saturating_add(self.thoughts),
            cache_write_5m: 0,
            cache_write_1h: 0,
            cache_read: self.cached,
            reasoning: self.thoughts,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolCall {
    name: Option<String>,
}

/// Reads a block's complete lines of a chat into the parser; returns the
/// bytes read (through the last newline).
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    if is_legacy(&b.out.files[file].rel_path) {
        return legacy_document(b, file, bytes);
    }
    let rel = b.out.files[file].rel_path.clone();
    json_records(b, file, bytes, |b, line, n, owner| {
        let rec: Line = serde_json::from_slice(line)?;
        if let Some(set) = &rec.set {
            compression(b, owner.agent, &rel, n, set);
        }
        read_line(b, rec, owner);
        Ok(())
    })
}

/// The summary Gemini CLI puts in place of a chat's history when it
/// compresses it: a user message starting with this tag, in the message
/// list a `$set` writes after the compression.
const SNAPSHOT: &str = "<state_snapshot>";

use crate::domain::transcript::UNRECORDED_COMPACTION as UNRECORDED;

/// A `$set` of the messages whose list starts again from a compression's
/// summary: the chat was compressed (once per summary message). The model
/// calls that wrote the summary are in no chat and no hook: the compaction
/// is stored so reports can say so.
fn compression(b: &mut SessionParser, agent: &str, rel: &str, line: u64, set: &Set) {
    let Some(summary) = set.messages.iter().flatten().find(|m| {
        m.kind.as_deref() == Some("user")
            && m.content.as_ref().is_some_and(|c| {
                serde_json::from_str(c.get())
                    .is_ok_and(|v| text_of(&v).trim_start().starts_with(SNAPSHOT))
            })
    }) else {
        return;
    };
    let at = summary.timestamp.as_deref().and_then(parse_instant);
    if b.out
        .compactions
        .iter()
        .any(|c| c.agent_id == agent && c.at == at && c.trigger.as_deref() == Some(UNRECORDED))
    {
        return;
    }
    b.out
        .compactions
        .push(crate::domain::transcript::Compaction {
            agent_id: agent.to_string(),
            file: rel.to_string(),
            line,
            at,
            trigger: Some(UNRECORDED.to_string()),
            pre_tokens: None,
        });
}

/// A message's text: a string, or the `text` of its parts.
fn text_of(content: &serde_json::Value) -> String {
    match content {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(serde_json::Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// Reads an older version's whole-file chat (`lines::whole_document`):
/// every message as a line of the current format would be read.
fn legacy_document(b: &mut SessionParser, file: usize, bytes: &[u8]) -> Result<u64, BadLine> {
    crate::domain::transcript::kit::whole_document(
        b,
        file,
        bytes,
        |b, doc: Document, owner, body| {
            if let Some(at) = doc.start_time.as_deref().and_then(parse_instant) {
                owner.span.see(Some(at));
                if owner.main && b.out.started_at.is_none() {
                    b.out.started_at = Some(at);
                }
            }
            for m in doc.messages {
                b.out.records += 1;
                read_line(b, m, owner);
            }
            if let Some(opts) = b.said {
                // What the messages say, read again as values (rare: old chats).
                let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
                let list = serde_json::json!({ "$set": { "messages": v.get("messages") } });
                for (record, at, pieces) in said(&list, 1, opts) {
                    b.keep_said(owner.agent, record, at, pieces);
                }
            }
        },
    )
}

fn read_line(b: &mut SessionParser, rec: Line, owner: &mut Owner<'_>) {
    let (agent, main, span) = (owner.agent, owner.main, &mut *owner.span);
    if let Some(set) = rec.set {
        // A `$set` of the messages lists copies: their tokens (if any)
        // combine with the lines' by the counting rule.
        for m in set.messages.unwrap_or_default() {
            let at = m.timestamp.as_deref().and_then(parse_instant);
            message(b, agent, m, at);
        }
        return;
    }
    if rec.session_id.is_some() && rec.id.is_none() {
        // A header (written again on resume).
        let at = rec.start_time.as_deref().and_then(parse_instant);
        span.see(at);
        if main && b.out.started_at.is_none() {
            b.out.started_at = at;
        }
        return;
    }
    let at = rec.timestamp.as_deref().and_then(parse_instant);
    span.see(at);
    if let Some(at) = at {
        b.out.last_activity_at = b.out.last_activity_at.max(Some(at));
    }
    let done = rec
        .tool_calls
        .as_deref()
        .unwrap_or_default()
        .iter()
        .any(|c| c.name.as_deref() == Some("complete_task"));
    if done
        && !main
        && let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent)
    {
        a.finished = true;
    }
    // The model's answer with no tool to run ends the turn; a prompt or a
    // tool call goes on with it.
    match rec.kind.as_deref() {
        Some("gemini") => {
            let calls = rec.tool_calls.as_deref().is_some_and(|c| !c.is_empty());
            b.turn(agent, !calls, at);
        }
        Some("user") => b.turn(agent, false, at),
        _ => {}
    }
    message(b, agent, rec, at);
}

fn message(b: &mut SessionParser, agent: &str, m: Line, at: Option<Millis>) {
    let (Some(id), Some(tokens)) = (m.id.filter(|i| !i.is_empty()), m.tokens) else {
        return;
    };
    let sid = b.out.session_id.clone();
    b.add_usage(UsageObservation {
        message_id: id,
        agent_id: agent.to_string(),
        record_session_id: sid,
        model: m.model.unwrap_or_default(),
        at,
        buckets: tokens.buckets(),
        billing: Billing::default(),
    });
}

/// What a line of a chat says: a message, or each of a `$set` list's.
pub(super) fn said(
    v: &serde_json::Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<crate::domain::clock::Millis>, Vec<Piece>)> {
    use crate::domain::transcript::said::{at_of, id_of};
    let key = |m: &serde_json::Value| {
        id_of(m, "id").map_or_else(|| format!("line:{line}"), str::to_string)
    };
    // Gemini CLI rewrites its list of messages with a `$set`.
    let list = v
        .get("$set")
        .and_then(|s| s.get("messages"))
        .and_then(serde_json::Value::as_array);
    let messages: Vec<&serde_json::Value> = match list {
        Some(list) => list.iter().collect(),
        None => vec![v],
    };
    messages
        .into_iter()
        .filter_map(|m| {
            let pieces = message_said(m, opts);
            (!pieces.is_empty()).then(|| (key(m), at_of(m), pieces))
        })
        .collect()
}

/// A Gemini CLI message: a user's or the model's content, and the model's
/// tool calls (with their results, when outputs are kept).
fn message_said(m: &serde_json::Value, opts: SaidOptions) -> Vec<Piece> {
    let mut out = Vec::new();
    let role = match m.get("type").and_then(serde_json::Value::as_str) {
        Some("user") => Role::User,
        Some("gemini") => Role::Assistant,
        _ => return out,
    };
    blocks(
        m.get("content").unwrap_or(&serde_json::Value::Null),
        role,
        opts,
        &mut out,
    );
    for c in m
        .get("toolCalls")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = c
            .get("name")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("tool");
        push_call(
            &mut out,
            name,
            c.get("args").unwrap_or(&serde_json::Value::Null),
        );
        if let Some(r) = c.get("result") {
            push_output(&mut out, opts, Some(name), r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "53bd2587-d6e8-4f3a-908a-59c20606aa28";

    /// Tokens map so the buckets add up to `total`; a message appended
    /// again and a `$set` copy count once; a header written again on resume
    /// is not a message; a broken line is a degraded line.
    #[test]
    fn messages_count_once_with_their_tokens() {
        let tokens =
            r#"{"input":12000,"output":6,"cached":3000,"thoughts":4,"tool":7,"total":12017}"#;
        let text = [
            format!(r#"{{"sessionId":"{S}","startTime":"2026-12-03T20:01:17.036Z","kind":"main"}}"#),
            format!(r#"{{"id":"m1","timestamp":"2026-12-03T20:01:17.199Z","type":"gemini","tokens":{tokens},"model":"gemini-2.5-flash"}}"#),
            format!(r#"{{"id":"m1","timestamp":"2026-12-03T20:01:17.199Z","type":"gemini","tokens":{tokens},"model":"gemini-2.5-flash","toolCalls":[{{"name":"invoke_agent"}}]}}"#),
            format!(r#"{{"$set":{{"messages":[{{"id":"u1","type":"user"}},{{"id":"m1","type":"gemini","tokens":{tokens},"model":"gemini-2.5-flash"}}]}}}}"#),
            format!(r#"{{"sessionId":"{S}","startTime":"2026-12-03T21:00:00.000Z","kind":"main"}}"#),
            "{broken".to_string(),
        ]
        .join("\n")
            + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!(
            "gmproj/chats/session-2026-12-03T20-01-{}.jsonl",
            &S[..8]
        ));
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        let out = p.finish();
        assert_eq!(out.usage.len(), 1);
        let u = &out.usage[0];
        assert_eq!(
            (u.message_id.as_str(), u.model.as_str()),
            ("m1", "gemini-2.5-flash")
        );
        let b = u.buckets;
        assert_eq!((b.input, b.cache_read, b.output), (9_007, 3_000, 10));
        assert_eq!(b.input + b.cache_read + b.output, 12_017);
        assert_eq!(out.bad_lines.len(), 1);
        assert_eq!(out.bad_lines[0].line, 6);
        assert_eq!(
            out.started_at,
            crate::domain::clock::parse_instant("2026-12-03T20:01:17.036Z")
        );
    }
}

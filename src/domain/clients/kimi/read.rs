//! Kimi CLI's wire (`wire.jsonl`): one record a line, `{"timestamp": <epoch
//! seconds>, "message": {"type", "payload"}}` after a `metadata` line. A
//! response's usage is its `StatusUpdate`'s `token_usage` (`input_other`
//! without the cached part, `input_cache_read`, `input_cache_creation`,
//! `output`; reasoning is not recorded) under the response's `message_id`,
//! once. A subagent writes a wire of its own (`subagents/<id>/wire.jsonl`)
//! and its parent's wire repeats each of its records as a `SubagentEvent`:
//! both are read as the subagent's, and the message id counts each
//! response once. A turn ends at `TurnEnd`; `StepInterrupted` (a step that
//! failed with an error) ends it in an error. The wire names no model.

use serde::Deserialize;
use serde_json::Value;

use crate::domain::clock::Millis;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, saw, typed_records, uuid_like};
use crate::domain::transcript::said::{
    Piece, Role, SaidOptions, blocks, push_function_call, push_output, push_text,
};
use crate::domain::transcript::usage::Buckets;

/// Whether a transcript path is a Kimi CLI wire: `<work dir>/<session
/// uuid>/wire.jsonl`, or a subagent's `…/subagents/<id>/wire.jsonl`.
pub fn is_wire(rel_path: &str) -> bool {
    let Some(dir) = rel_path.strip_suffix("/wire.jsonl") else {
        return false;
    };
    let mut parts = dir.rsplit('/');
    match (parts.next(), parts.next()) {
        (Some(_), Some("subagents")) => true,
        (Some(session), Some(_)) => uuid_like(session),
        _ => false,
    }
}

/// The model a Kimi CLI response is stored under: the wire names none
/// (its configuration names the model of the moment, not of the session).
pub const UNRECORDED_MODEL: &str = "kimi-model-not-recorded";

#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    timestamp: Option<f64>,
    message: Option<Message>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    payload: Value,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct TokenUsage {
    input_other: u64,
    output: u64,
    input_cache_read: u64,
    input_cache_creation: u64,
}

/// Reads a block's complete lines of a Kimi wire into the parser; returns
/// the bytes read (through the last newline).
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    typed_records::<Line>(b, file, bytes, read_line)
}

fn read_line(b: &mut SessionParser, rec: Line, owner: &mut Owner<'_>) {
    let at = seconds(rec.timestamp);
    let Some(m) = rec.message else {
        // The `metadata` line.
        return;
    };
    saw(b, owner, at);
    let agent = owner.agent.to_string();
    event(b, &agent, &m.kind, &m.payload, at);
}

/// One wire event of `agent`; a `SubagentEvent` is its subagent's event.
fn event(b: &mut SessionParser, agent: &str, kind: &str, payload: &Value, at: Option<Millis>) {
    match kind {
        "TurnBegin" | "StepBegin" => b.task_turn(agent, false, at),
        // A turn whose step failed stays failed.
        "TurnEnd" if !b.has_failed(agent) => b.task_turn(agent, true, at),
        // Sent when a step failed with an exception (an API error among
        // them), before the StopFailure hook.
        "StepInterrupted" => b.failed(agent, at),
        "StatusUpdate" => usage(b, agent, payload, at),
        "SubagentEvent" => {
            let (Some(id), Some(inner)) = (
                payload["agent_id"].as_str().filter(|i| !i.is_empty()),
                payload.get("event"),
            ) else {
                return;
            };
            spawned(b, agent, id, payload, at);
            let kind = inner["type"].as_str().unwrap_or("");
            // Only its usage is taken from the repeat: its own wire says
            // when its turns end.
            if kind == "StatusUpdate" {
                usage(b, id, &inner["payload"], at);
            }
        }
        _ => {}
    }
}

/// What a line of a wire says: the prompt a turn began with
/// (`TurnBegin.user_input`, a string or content parts), the answer's text
/// (`ContentPart` of type `text`; `think` is reasoning), a tool call
/// (`ToolCall`, Chat Completions' shape) and its result (`ToolResult`'s
/// `return_value.output`). A `SubagentEvent` repeats what the subagent's
/// own wire says, and is not read again. Lines have no ids: a record is
/// its line.
pub(super) fn said(
    v: &Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<Millis>, Vec<Piece>)> {
    let m = &v["message"];
    let p = &m["payload"];
    let mut out = Vec::new();
    match m["type"].as_str() {
        Some("TurnBegin") => blocks(&p["user_input"], Role::User, opts, &mut out),
        Some("ContentPart") if p["type"] == "text" => {
            push_text(
                &mut out,
                Role::Assistant,
                None,
                false,
                p["text"].as_str().unwrap_or(""),
            );
        }
        Some("ToolCall") => push_function_call(&mut out, p),
        Some("ToolResult") => push_output(&mut out, opts, None, &p["return_value"]["output"]),
        _ => {}
    }
    if out.is_empty() {
        return Vec::new();
    }
    vec![(
        format!("line:{line}"),
        seconds(v["timestamp"].as_f64()),
        out,
    )]
}

/// A wire time (epoch seconds, with a fraction) in milliseconds.
fn seconds(t: Option<f64>) -> Option<Millis> {
    t.filter(|t| t.is_finite() && *t > 0.0)
        .map(|t| (t * 1000.0).round() as Millis)
}

/// The subagent `child` a `SubagentEvent` of `parent` names: the call that
/// started it (`parent_tool_call_id`, `parent`'s) is its spawn, and the
/// child hangs under it.
fn spawned(b: &mut SessionParser, parent: &str, child: &str, payload: &Value, at: Option<Millis>) {
    let Some(call) = payload["parent_tool_call_id"]
        .as_str()
        .filter(|c| !c.is_empty())
    else {
        return;
    };
    let kind = payload["subagent_type"]
        .as_str()
        .filter(|k| !k.is_empty())
        .map(str::to_string);
    if !b.out.spawns.iter().any(|s| s.tool_use_id == call) {
        b.out.spawns.push(crate::domain::transcript::Spawn {
            tool_use_id: call.to_string(),
            owner: parent.to_string(),
            tool: "Agent".to_string(),
            prompt: None,
            subagent_type: kind.clone(),
            description: None,
            workflow_id: None,
            at,
            // Names its child (its file may be read before or after this
            // one); says nothing of the child's end.
            result: Some(crate::domain::transcript::SpawnResult {
                at,
                is_error: false,
                child_agent_id: Some(child.to_string()),
                reported: None,
                launched_only: true,
            }),
        });
    }
    if let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == child)
        && a.agent_type.is_none()
    {
        a.agent_type = kind;
    }
}

fn usage(b: &mut SessionParser, agent: &str, payload: &Value, at: Option<Millis>) {
    let (Some(tokens), Some(id)) = (
        payload
            .get("token_usage")
            .and_then(|t| TokenUsage::deserialize(t).ok()),
        payload["message_id"].as_str().filter(|i| !i.is_empty()),
    ) else {
        return;
    };
    b.add_response(
        agent,
        id.to_string(),
        UNRECORDED_MODEL.to_string(),
        at,
        Buckets {
            input: tokens.input_other,
            output: tokens.output,
            cache_write_5m: tokens.input_cache_creation,
            cache_write_1h: 0,
            cache_read: tokens.input_cache_read,
            reasoning: 0,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::kit::SessionParser;
    use crate::domain::transcript::said::{row, rows};

    const S: &str = "71db871f-1743-4c09-b333-697b531f3d64";

    fn status(id: &str, other: u64, read: u64, out: u64) -> String {
        format!(
            r#"{{"type": "StatusUpdate", "payload": {{"token_usage": {{"input_other": {other}, "output": {out}, "input_cache_read": {read}, "input_cache_creation": 0}}, "message_id": "{id}"}}}}"#
        )
    }

    #[test]
    fn each_response_counts_once_and_a_subagent_s_repeat_is_its_own() {
        assert!(is_wire(&format!("abc/{S}/wire.jsonl")));
        assert!(is_wire(&format!("abc/{S}/subagents/a1/wire.jsonl")));
        assert!(!is_wire("abc/notes/wire.jsonl") && !is_wire(&format!("abc/{S}/context.jsonl")));
        let lines = [
            r#"{"type": "metadata", "protocol_version": "1.10"}"#.to_string(),
            r#"{"timestamp": 1796496998.8312995, "message": {"type": "TurnBegin", "payload": {"user_input": "hi"}}}"#.to_string(),
            format!(r#"{{"timestamp": 1796497000.98, "message": {}}}"#, status("c1", 907, 100, 13)),
            format!(
                r#"{{"timestamp": 1796497001.0, "message": {{"type": "SubagentEvent", "payload": {{"parent_tool_call_id": "t1", "agent_id": "a1", "subagent_type": "coder", "event": {}}}}}}}"#,
                status("c9", 50, 0, 5)
            ),
            format!(r#"{{"timestamp": 1796497001.01, "message": {}}}"#, status("c2", 1807, 200, 23)),
            r#"{"timestamp": 1796497001.03, "message": {"type": "TurnEnd", "payload": {}}}"#.to_string(),
        ];
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("abc/{S}/wire.jsonl"));
        let text = lines.join("\n") + "\n";
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        let out = p.finish();
        let mut got: Vec<(String, String, u64, u64, u64)> = out
            .usage
            .iter()
            .map(|u| {
                (
                    u.message_id.clone(),
                    u.agent_id.clone(),
                    u.buckets.input,
                    u.buckets.cache_read,
                    u.buckets.output,
                )
            })
            .collect();
        got.sort();
        assert_eq!(
            got,
            [
                ("c1".into(), S.into(), 907, 100, 13),
                ("c2".into(), S.into(), 1807, 200, 23),
                ("c9".into(), "a1".into(), 50, 0, 5),
            ]
        );
        assert_eq!(out.started_at, Some(1_796_496_998_831));
    }

    /// A wire's prompt, answer and tool call are said, each under its
    /// line; a subagent's lines under its own name; reasoning, usage and
    /// the parent's repeat of the subagent's events are not.
    #[test]
    fn a_wire_says_its_prompts_answers_and_calls() {
        use crate::domain::transcript::{AgentLayout, FileRole};
        let main = [
            r#"{"type": "metadata", "protocol_version": "1.10"}"#,
            r#"{"timestamp": 1796496998.5, "message": {"type": "TurnBegin", "payload": {"user_input": [{"type": "text", "text": "rotate the staging keys"}]}}}"#,
            r#"{"timestamp": 1796496999.0, "message": {"type": "ContentPart", "payload": {"type": "think", "think": "secret plan"}}}"#,
            r#"{"timestamp": 1796497000.0, "message": {"type": "ToolCall", "payload": {"type": "function", "id": "c1", "function": {"name": "Shell", "arguments": "{\"command\": \"kubectl rollout\"}"}}}}"#,
            r#"{"timestamp": 1796497000.5, "message": {"type": "SubagentEvent", "payload": {"agent_id": "a1", "parent_tool_call_id": "c1", "event": {"type": "ContentPart", "payload": {"type": "text", "text": "repeat"}}}}}"#,
            r#"{"timestamp": 1796497001.0, "message": {"type": "ToolResult", "payload": {"tool_call_id": "c1", "return_value": {"is_error": false, "output": "rolled out\n"}}}}"#,
            r#"{"timestamp": 1796497001.25, "message": {"type": "ContentPart", "payload": {"type": "text", "text": "Keys rotated."}}}"#,
        ];
        let sub = [
            r#"{"type": "metadata", "protocol_version": "1.10"}"#,
            r#"{"timestamp": 1796497000.2, "message": {"type": "TurnBegin", "payload": {"user_input": "check the pods"}}}"#,
        ];
        let mut p = SessionParser::new(S, false);
        p.said = Some(SaidOptions { outputs: true });
        let f = p.begin_main(&format!("abc/{S}/wire.jsonl"));
        p.block(f, (main.join("\n") + "\n").as_bytes()).unwrap();
        let role = FileRole::Agent {
            agent_id: "a1".into(),
            layout: AgentLayout::Child,
            workflow_id: None,
        };
        let g = p
            .begin_agent(&format!("abc/{S}/subagents/a1/wire.jsonl"), &role, None)
            .unwrap();
        p.block(g, (sub.join("\n") + "\n").as_bytes()).unwrap();
        let at = |ms: i64| Some(1_796_496_000_000 + ms);
        assert_eq!(
            rows(p.finish().said),
            [
                row(
                    (S, "line:2", at(998_500)),
                    "user",
                    None,
                    "rotate the staging keys"
                ),
                row(
                    (S, "line:4", at(1_000_000)),
                    "tool",
                    Some("Shell"),
                    "kubectl rollout"
                ),
                row((S, "line:6", at(1_001_000)), "tool", None, "rolled out\n"),
                row(
                    (S, "line:7", at(1_001_250)),
                    "assistant",
                    None,
                    "Keys rotated."
                ),
                row(
                    ("a1", "a1/line:2", at(1_000_200)),
                    "user",
                    None,
                    "check the pods"
                ),
            ]
        );
    }

    /// A step the API refused is `StepInterrupted`; the turn's `TurnEnd`
    /// after it keeps the failure; the next turn goes on.
    #[test]
    fn a_refused_step_fails_its_turn() {
        let ending = |kinds: &[&str]| {
            let text: String = std::iter::once(r#"{"type": "metadata", "protocol_version": "1.10"}"#.to_string())
                .chain(kinds.iter().map(|k| {
                    format!(r#"{{"timestamp": 1796523971.4, "message": {{"type": "{k}", "payload": {{}}}}}}"#)
                }))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
            let mut p = SessionParser::new(S, false);
            let f = p.begin_main(&format!("abc/{S}/wire.jsonl"));
            p.block(f, text.as_bytes()).unwrap();
            p.finish().agents[0].ending.map(|e| e.0)
        };
        use crate::domain::transcript::Ending;
        let failed = ["TurnBegin", "StepBegin", "StepInterrupted", "TurnEnd"];
        assert_eq!(ending(&failed), Some(Ending::ApiError));
        let again = [
            "TurnBegin",
            "StepInterrupted",
            "TurnEnd",
            "TurnBegin",
            "TurnEnd",
        ];
        assert_eq!(ending(&again), Some(Ending::TurnEnd));
    }
}

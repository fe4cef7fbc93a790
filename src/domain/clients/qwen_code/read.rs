//! Qwen Code sessions, one block at a time:
//! `~/.qwen/projects/<cwd with / as ->/chats/<session uuid>.jsonl`. Qwen
//! Code forked Gemini CLI but writes its own lines, Claude-Code-like: each
//! with `uuid`, `parentUuid`, `sessionId`, `timestamp`, `type` (`user`,
//! `assistant`, `tool_result`, `system`), `cwd` and `version`.
//!
//! What is read (Qwen Code 0.24):
//! - an assistant line's `usageMetadata`: one observation per API response,
//!   keyed by the line's `uuid`. The same response's numbers appear again in
//!   a `system` line (`ui_telemetry`), which is not read, so nothing counts
//!   twice. `promptTokenCount` includes the cached part: input is the rest,
//!   cache reads the cached; `candidatesTokenCount` already includes the
//!   reasoning tokens (unlike Gemini CLI's), so it is the output as it
//!   stands, and the buckets add up to `totalTokenCount`.
//! - the first line's `timestamp` and `cwd`: when and where it started.
//! - an assistant line's `functionCall` of the `agent` tool: the call that
//!   starts a subagent, whose own lines are in
//!   `subagents/<session>/agent-<id>.jsonl` and whose `.meta.json` names
//!   the call (`toolUseId`), so the subagent hangs under its caller.

use serde::Deserialize;

use crate::domain::clock::parse_instant;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, typed_records, uuid_like};
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};

/// Whether a transcript path is a Qwen Code session: `…/chats/<uuid>.jsonl`
/// (a Gemini CLI chat is `chats/session-….jsonl`, its subagent's one
/// folder further down).
pub fn is_session(rel_path: &str) -> bool {
    let mut parts = rel_path.rsplit('/');
    let (Some(name), Some(dir)) = (parts.next(), parts.next()) else {
        return false;
    };
    dir == "chats" && name.strip_suffix(".jsonl").is_some_and(uuid_like)
}

/// Whether a transcript path is a Qwen Code subagent's:
/// `…/subagents/<session uuid>/agent-<id>.jsonl` (Claude Code nests its
/// the other way round: `<session>/subagents/agent-<id>.jsonl`).
pub fn is_agent(rel_path: &str) -> bool {
    let mut parts = rel_path.rsplit('/');
    let (Some(name), Some(session), Some(dir)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    dir == "subagents"
        && uuid_like(session)
        && name.starts_with("agent-")
        && name.ends_with(".jsonl")
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    #[serde(rename = "type")]
    kind: Option<String>,
    uuid: Option<String>,
    timestamp: Option<String>,
    cwd: Option<String>,
    model: Option<String>,
    #[serde(rename = "usageMetadata")]
    usage: Option<Usage>,
    message: Option<Message>,
    subtype: Option<String>,
    #[serde(rename = "systemPayload")]
    system: Option<SystemPayload>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SystemPayload {
    #[serde(rename = "uiEvent")]
    ui_event: Option<UiEvent>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct UiEvent {
    #[serde(rename = "event.name")]
    name: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    parts: Vec<Part>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Part {
    #[serde(rename = "functionCall")]
    call: Option<Call>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Call {
    id: Option<String>,
    name: Option<String>,
    args: Option<CallArgs>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CallArgs {
    prompt: Option<String>,
    description: Option<String>,
    subagent_type: Option<String>,
}

/// The tool that starts a subagent.
const AGENT_TOOL: &str = "agent";

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Usage {
    #[serde(rename = "promptTokenCount")]
    prompt: u64,
    #[serde(rename = "candidatesTokenCount")]
    candidates: u64,
    #[serde(rename = "cachedContentTokenCount")]
    cached: u64,
    /// Of the candidates.
    #[serde(rename = "thoughtsTokenCount")]
    thoughts: u64,
}

/// Reads a block's complete lines of a Qwen Code session into the parser;
/// returns the bytes read (through the last newline).
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    typed_records::<Line>(b, file, bytes, read_line)
}

/// The agent calls among an answer's function calls, each once.
fn see_spawns(
    b: &mut SessionParser,
    calls: Vec<Call>,
    agent: &str,
    at: Option<crate::domain::clock::Millis>,
) {
    let calls = calls.into_iter();
    for call in calls.filter(|c| c.name.as_deref() == Some(AGENT_TOOL)) {
        let Some(id) = call.id.filter(|i| !i.is_empty()) else {
            continue;
        };
        if b.out.spawns.iter().any(|s| s.tool_use_id == id) {
            continue;
        }
        let args = call.args.unwrap_or_default();
        b.out.spawns.push(crate::domain::transcript::Spawn {
            tool_use_id: id,
            owner: agent.to_string(),
            tool: AGENT_TOOL.to_string(),
            prompt: args
                .prompt
                .as_deref()
                .map(crate::domain::transcript::spawns::prompt_hash),
            subagent_type: args.subagent_type,
            // Kept text from a transcript: secrets out.
            description: args
                .description
                .map(|d| crate::domain::redact::redact_text(&d).into_owned()),
            workflow_id: None,
            at,
            result: None,
        });
    }
}

fn read_line(b: &mut SessionParser, rec: Line, owner: &mut Owner<'_>) {
    let at = rec.timestamp.as_deref().and_then(parse_instant);
    crate::domain::transcript::kit::saw(b, owner, at);
    if owner.main {
        b.hint_cwd(rec.cwd.as_deref());
    }
    match rec.kind.as_deref() {
        Some("assistant") => {}
        Some("user" | "tool_result") => {
            b.turn(owner.agent, false, at);
            return;
        }
        // Its telemetry of a request the model's API refused or failed
        // (its numbers, when a response came, are never read).
        Some("system")
            if rec.subtype.as_deref() == Some("ui_telemetry")
                && rec
                    .system
                    .and_then(|s| s.ui_event)
                    .and_then(|e| e.name)
                    .is_some_and(|n| n.ends_with(".api_error")) =>
        {
            b.failed(owner.agent, at);
            return;
        }
        _ => return,
    }
    let calls: Vec<_> = rec
        .message
        .into_iter()
        .flat_map(|m| m.parts)
        .filter_map(|p| p.call)
        .collect();
    // An answer that calls no function ends the turn.
    b.turn(owner.agent, calls.is_empty(), at);
    see_spawns(b, calls, owner.agent, at);
    let (Some(usage), Some(id)) = (rec.usage, rec.uuid.filter(|u| !u.is_empty())) else {
        return;
    };
    let sid = b.out.session_id.clone();
    b.add_usage(UsageObservation {
        message_id: id,
        agent_id: owner.agent.to_string(),
        record_session_id: sid,
        // A subagent's lines name no model; its sidecar does.
        model: rec
            .model
            .or_else(|| b.sidecar_model(owner.agent).map(str::to_string))
            .unwrap_or_default(),
        at,
        buckets: Buckets {
            input: usage.prompt.saturating_sub(usage.cached),
            output: usage.candidates,
            cache_write_5m: 0,
            cache_write_1h: 0,
            cache_read: usage.cached,
            reasoning: usage.thoughts,
        },
        billing: Billing::default(),
    });
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "86204f09-ade4-4530-8743-66bfb7de362c";

    /// The assistant lines' usage counts once each (the telemetry copy is
    /// not read); cached is taken out of the prompt; candidates are output.
    #[test]
    fn assistant_usage_counts_once() {
        let line = |uuid: &str, kind: &str, extra: &str| {
            format!(
                r#"{{"uuid":"{uuid}","parentUuid":null,"sessionId":"{S}","timestamp":"2026-12-04T17:58:2{}.000Z","type":"{kind}","cwd":"/w/proj","version":"0.24.4"{extra}}}"#,
                uuid.len() % 10
            )
        };
        let usage = |p: u64, c: u64, t: u64, k: u64| {
            format!(
                r#","model":"qwen3-coder-plus","usageMetadata":{{"promptTokenCount":{p},"candidatesTokenCount":{c},"thoughtsTokenCount":{t},"totalTokenCount":{},"cachedContentTokenCount":{k}}}"#,
                p + c
            )
        };
        let telemetry = r#","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response","input_token_count":1007,"output_token_count":13,"cached_content_token_count":100}}"#;
        let text = [
            line(
                "u1",
                "user",
                r#","message":{"role":"user","parts":[{"text":"hi"}]}"#,
            ),
            line("s1", "system", telemetry),
            line("a1", "assistant", &usage(1007, 13, 1, 100)),
            line("t1", "tool_result", ""),
            line("a2", "assistant", &usage(2007, 23, 2, 200)),
        ]
        .join("\n")
            + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("-w-proj/chats/{S}.jsonl"));
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        let out = p.finish();
        let ids: Vec<&str> = out.usage.iter().map(|u| u.message_id.as_str()).collect();
        assert_eq!(ids, ["a1", "a2"]);
        assert_eq!(
            crate::domain::transcript::kit::input_cached_output(&out),
            (2714, 300, 36)
        );
        assert_eq!(out.cwd.as_deref(), Some("/w/proj"));
    }

    /// An `agent` call is the spawn a subagent hangs under; its
    /// description is kept, redacted.
    #[test]
    fn agent_calls_are_spawns_with_redacted_descriptions() {
        let text = format!(
            r#"{{"uuid":"a1","sessionId":"{S}","timestamp":"2026-12-04T17:58:21.000Z","type":"assistant","message":{{"role":"model","parts":[{{"functionCall":{{"id":"call_1","name":"agent","args":{{"description":"use PASSWORD=hunter2hunter2","prompt":"SUBTASK","subagent_type":"general-purpose"}}}}}}]}}}}"#
        ) + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("-w-proj/chats/{S}.jsonl"));
        p.block(f, text.as_bytes()).unwrap();
        let out = p.finish();
        assert_eq!(out.spawns.len(), 1);
        let s = &out.spawns[0];
        assert_eq!(
            (s.tool_use_id.as_str(), s.owner.as_str(), s.tool.as_str()),
            ("call_1", S, "agent")
        );
        assert_eq!(s.subagent_type.as_deref(), Some("general-purpose"));
        let d = s.description.as_deref().unwrap();
        assert!(d.starts_with("use PASSWORD=[redacted:"), "{d}");
    }

    #[test]
    fn qwen_paths() {
        assert!(super::is_session(&format!("-w-proj/chats/{S}.jsonl")));
        assert!(!super::is_session(
            "gmproj/chats/session-2026-12-03T20-01-53bd2587.jsonl"
        ));
        assert!(!super::is_session(&format!("gmproj/chats/{S}/{S}.jsonl")));
        assert!(super::is_agent(&format!(
            "-w-proj/subagents/{S}/agent-general-purpose-call_1.jsonl"
        )));
        assert!(!super::is_agent(&format!(
            "-w-proj/{S}/subagents/agent-a1.jsonl"
        )));
    }

    /// Qwen Code says a refused request only in its telemetry line
    /// (`qwen-code.api_error`): the turn failed; a later answer goes on.
    #[test]
    fn its_api_error_telemetry_fails_the_turn() {
        let line = |uuid: &str, kind: &str, extra: &str| {
            format!(
                r#"{{"uuid":"{uuid}","sessionId":"{S}","timestamp":"2026-12-06T02:26:03.000Z","type":"{kind}"{extra}}}"#
            )
        };
        let usage = |p: u64, c: u64, t: u64, k: u64| {
            format!(
                r#","model":"m","usageMetadata":{{"promptTokenCount":{p},"candidatesTokenCount":{c},"thoughtsTokenCount":{t},"cachedContentTokenCount":{k}}}"#
            )
        };
        let error = r#","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_error","error_message":"400 fake bad request"}}"#;
        let ending = |lines: &[String]| {
            let text = lines.join("\n") + "\n";
            let mut p = SessionParser::new(S, false);
            let f = p.begin_main(&format!("-w-proj/chats/{S}.jsonl"));
            p.block(f, text.as_bytes()).unwrap();
            p.finish().agents[0].ending.map(|e| e.0)
        };
        let failed = [line("u1", "user", ""), line("s1", "system", error)];
        assert_eq!(
            ending(&failed),
            Some(crate::domain::transcript::Ending::ApiError)
        );
        let retried = [
            line("u1", "user", ""),
            line("s1", "system", error),
            line("a1", "assistant", &usage(1007, 13, 1, 100)),
        ];
        assert_eq!(
            ending(&retried),
            Some(crate::domain::transcript::Ending::TurnEnd)
        );
    }
}

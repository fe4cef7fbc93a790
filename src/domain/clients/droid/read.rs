//! Factory Droid sessions: `<cwd slug>/<uuid>.jsonl` (the transcript) and
//! `<uuid>.settings.json` beside it (the session's settings and its token
//! counters). The transcript holds no usage at all: one assistant
//! `message` per API response, `session_start` (its `cwd`), and an
//! `agent_turn_outcome` closing each turn (`reason` `completed`, or
//! `model_request_rejected` when the model's API refused it).
//!
//! The usage is the settings document's `tokenUsage`: this session's own
//! calls, as running totals the client rewrites after each call and keeps
//! across continuations (`inclusiveTokenUsage` adds its subagents', which
//! are their own sessions, and is not read; the `.settings.json.bak` beside
//! it is the previous save and is never read). Its `inputTokens` excludes
//! the cached part (`cacheReadTokens`), `outputTokens` includes the
//! reasoning, kept apart as `thinkingTokens`. The totals are one
//! observation of the session, keyed by its id, dated at its first record
//! (so the same whoever reads it when): a later, larger total replaces it,
//! never adds to it.

use serde::Deserialize;

use crate::domain::clock::parse_instant;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::Ending;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, saw, typed_records};
use crate::domain::transcript::usage::Buckets;

/// The prefix Droid gives a model the user brought (`custom:<name>-<n>`).
const CUSTOM: &str = "custom:";

#[derive(Deserialize, Default)]
#[serde(default)]
struct Record {
    #[serde(rename = "type")]
    kind: String,
    cwd: Option<String>,
    #[serde(rename = "callingSessionId")]
    calling: Option<String>,
    #[serde(rename = "callingToolUseId")]
    calling_tool: Option<String>,
    timestamp: Option<String>,
    message: Option<Message>,
    reason: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    role: String,
    content: Vec<Block>,
    /// Set on the message Droid writes when it ran a hook.
    #[serde(rename = "hookEventName")]
    hook_event: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
}

/// Reads a block of a Droid transcript's complete lines; returns the
/// bytes read.
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    typed_records::<Record>(b, file, bytes, read_record)
}

fn read_record(b: &mut SessionParser, rec: Record, owner: &mut Owner<'_>) {
    let at = rec.timestamp.as_deref().and_then(parse_instant);
    saw(b, owner, at);
    let agent = owner.agent.to_string();
    match rec.kind.as_str() {
        // A subagent's: the session and the call that started it.
        "session_start" if !owner.main => called(b, &agent, rec.calling, rec.calling_tool),
        "session_start" if b.out.cwd.is_none() => {
            b.out.cwd = rec.cwd.filter(|c| !c.is_empty());
        }
        "message" => {
            let Some(m) = rec.message else { return };
            // Droid's note that it ran a hook (an empty message to the
            // user alone, after the turn, even after SessionEnd's) is no
            // turn of the conversation.
            if m.hook_event.is_some() {
                return;
            }
            // An answer that calls no tool ends its turn; a prompt or a
            // tool's result goes on with it.
            let ended = m.role == "assistant" && !m.content.iter().any(|c| c.kind == "tool_use");
            b.turn(&agent, ended, at);
        }
        "agent_turn_outcome" => match rec.reason.as_deref() {
            Some("completed") => {
                b.turn(&agent, true, at);
                // A subagent's turn is its whole task: it is finished.
                if !owner.main
                    && let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent)
                {
                    a.finished = true;
                }
            }
            Some(r) if r.contains("reject") || r.contains("error") || r.contains("fail") => {
                b.endings.insert(agent, (Ending::ApiError, at));
            }
            Some(r) if r.contains("cancel") || r.contains("interrupt") || r.contains("abort") => {
                b.endings.insert(agent, (Ending::Interrupt, at));
            }
            _ => {}
        },
        _ => {}
    }
}

/// A subagent's first record names its caller: its parent, and the
/// `Task` call that started it (a spawn whose result names the child).
fn called(b: &mut SessionParser, agent: &str, calling: Option<String>, tool: Option<String>) {
    if let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent) {
        a.parent_id = calling.clone().filter(|c| !c.is_empty());
    }
    let (Some(owner), Some(call)) = (calling, tool.filter(|t| !t.is_empty())) else {
        return;
    };
    if b.out.spawns.iter().any(|s| s.tool_use_id == call) {
        return;
    }
    b.out.spawns.push(crate::domain::transcript::Spawn {
        tool_use_id: call,
        owner,
        tool: "Task".to_string(),
        prompt: None,
        subagent_type: None,
        description: None,
        workflow_id: None,
        at: None,
        result: Some(crate::domain::transcript::SpawnResult {
            at: None,
            is_error: false,
            child_agent_id: Some(agent.to_string()),
            reported: None,
            launched_only: true,
        }),
    });
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Settings {
    model: Option<String>,
    #[serde(rename = "tokenUsage")]
    token_usage: Option<Totals>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Totals {
    #[serde(rename = "inputTokens")]
    input: u64,
    #[serde(rename = "outputTokens")]
    output: u64,
    #[serde(rename = "cacheCreationTokens")]
    cache_write: u64,
    #[serde(rename = "cacheReadTokens")]
    cache_read: u64,
    #[serde(rename = "thinkingTokens")]
    thinking: u64,
}

/// Reads a session's settings document (`rel`), after its transcript:
/// its `tokenUsage` is the session's one observation.
pub(super) fn read_settings(
    b: &mut SessionParser,
    file: usize,
    rel: &str,
    bytes: &[u8],
) -> Result<(), BadLine> {
    let body = bytes
        .strip_prefix(crate::domain::transcript::kit::BOM)
        .unwrap_or(bytes);
    let settings: Settings = match serde_json::from_slice(body) {
        Ok(s) => s,
        // Being rewritten: read at the next run.
        Err(e) if e.is_eof() => return Ok(()),
        Err(e) => return b.bad(rel, 1, format!("invalid JSON: {e}")),
    };
    let Some(t) = settings.token_usage else {
        return Ok(());
    };
    if t.input + t.output + t.cache_write + t.cache_read == 0 {
        return Ok(());
    }
    let model = settings.model.unwrap_or_default();
    let model = model.strip_prefix(CUSTOM).unwrap_or(&model).to_string();
    // The file's own session: the main one, or a subagent's.
    let agent = b.out.files[file].agent_id.clone();
    let id = format!("{agent}#tokenUsage");
    let at = if b.out.files[file].main {
        b.out.started_at
    } else {
        b.span(&agent).first
    };
    b.add_response(
        &agent,
        id,
        model,
        at,
        Buckets {
            input: t.input,
            output: t.output,
            cache_write_5m: t.cache_write,
            cache_write_1h: 0,
            cache_read: t.cache_read,
            reasoning: t.thinking,
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::Ending;
    use crate::domain::transcript::Format;
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "ca7773c4-b8ea-47f1-827c-bb830a274bb0";

    fn lines(outcome: &str) -> String {
        [
            format!(r#"{{"type":"session_start","id":"{S}","title":"t","version":2,"cwd":"/w/proj"}}"#),
            r#"{"type":"message","id":"u1","timestamp":"2026-12-05T18:57:36.283Z","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}"#.into(),
            r#"{"type":"message","id":"a1","timestamp":"2026-12-05T18:57:36.564Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"Execute","input":{}}]},"modelId":"custom:m-0"}"#.into(),
            r#"{"type":"message","id":"a2","timestamp":"2026-12-05T18:57:36.914Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}]},"modelId":"custom:m-0"}"#.into(),
            format!(r#"{{"type":"agent_turn_outcome","turnId":"u1","reason":"{outcome}"}}"#),
        ]
        .join("\n")
            + "\n"
    }

    fn settings(input: u64) -> String {
        format!(
            r#"{{"model":"custom:m-0","tokenUsage":{{"inputTokens":{input},"outputTokens":36,"cacheCreationTokens":0,"cacheReadTokens":300,"thinkingTokens":0}},"inclusiveTokenUsage":{{"inputTokens":99999,"outputTokens":99999,"cacheReadTokens":99999}},"lastCallTokenUsage":{{"inputTokens":1807,"outputTokens":23,"cacheReadTokens":200}}}}"#
        )
    }

    #[test]
    fn the_settings_totals_are_the_session_s_one_observation() {
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("-w-proj/{S}.jsonl"));
        p.read_as(f, Format::Droid);
        let text = lines("completed");
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        p.totals_document(
            f,
            &format!("-w-proj/{S}.settings.json"),
            settings(2714).as_bytes(),
        )
        .unwrap();
        // Rewritten after a further call: the larger total stands alone.
        p.totals_document(
            f,
            &format!("-w-proj/{S}.settings.json"),
            settings(4000).as_bytes(),
        )
        .unwrap();
        let out = p.finish();
        assert_eq!(out.usage.len(), 1);
        let u = &out.usage[0];
        assert_eq!(u.message_id, format!("{S}#tokenUsage"));
        assert_eq!(u.model, "m-0");
        assert_eq!(
            [
                u.buckets.input,
                u.buckets.cache_read,
                u.buckets.output,
                u.buckets.reasoning
            ],
            [4000, 300, 36, 0]
        );
        assert_eq!(u.at, out.started_at);
        assert_eq!(out.cwd.as_deref(), Some("/w/proj"));
        assert_eq!(out.agents[0].ending.map(|e| e.0), Some(Ending::TurnEnd));
        assert_eq!(out.files[0].format(), Format::Droid);
    }

    /// The messages Droid writes when it runs a hook (at the turn's end
    /// and after SessionEnd's) leave the turn ended.
    #[test]
    fn a_hook_s_note_is_no_turn() {
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("-w-proj/{S}.jsonl"));
        p.read_as(f, Format::Droid);
        let text = lines("completed")
            + r#"{"type":"message","id":"h1","parentId":"a2","timestamp":"2026-12-05T18:57:37.000Z","message":{"role":"user","content":[],"visibility":"user_only","hookEventName":"SessionEnd","hookCommands":[]}}"#
            + "\n";
        p.block(f, text.as_bytes()).unwrap();
        let out = p.finish();
        assert_eq!(out.agents[0].ending.map(|e| e.0), Some(Ending::TurnEnd));
    }

    #[test]
    fn a_rejected_request_ends_in_an_error() {
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("-w-proj/{S}.jsonl"));
        p.read_as(f, Format::Droid);
        p.block(f, lines("model_request_rejected").as_bytes())
            .unwrap();
        let out = p.finish();
        assert_eq!(out.agents[0].ending.map(|e| e.0), Some(Ending::ApiError));
        assert!(out.usage.is_empty());
    }
}

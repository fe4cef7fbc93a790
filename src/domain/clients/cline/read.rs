//! Cline's session documents: `<id>/<id>.messages.json` (the lead agent)
//! and `<id>/agent_<agent id>.messages.json` (each subagent), each one JSON
//! document rewritten whole at every change, so read whole again when it
//! changed. Its `messages` are Anthropic-style; each assistant message is
//! one API response with its own `metrics` (`inputTokens` counts the
//! cached part too, `cacheReadTokens`, `cacheWriteTokens`, `outputTokens`
//! with reasoning in it; reasoning itself is not recorded) and
//! `modelInfo.id`, never repeated. The manifest's running totals are not
//! read (they would count twice). An error is a message whose id is
//! `error_<uuid>`.

use serde::Deserialize;

use crate::domain::clock::Millis;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, saw, whole_document};
use crate::domain::transcript::usage::Buckets;

/// Whether a transcript path is a Cline session document: the lead's
/// `<id>/<id>.messages.json` or a subagent's `<id>/agent_<a>.messages.json`.
pub fn is_document(rel_path: &str) -> bool {
    let mut parts = rel_path.rsplit('/');
    let (Some(name), Some(dir)) = (parts.next(), parts.next()) else {
        return false;
    };
    let Some(stem) = name.strip_suffix(".messages.json") else {
        return false;
    };
    is_session_id(dir) && (stem == dir || stem.starts_with("agent_"))
}

/// A Cline session id: `<epoch ms>_<five letters or digits>`.
pub fn is_session_id(s: &str) -> bool {
    s.split_once('_').is_some_and(|(ms, tail)| {
        ms.len() >= 10
            && ms.bytes().all(|b| b.is_ascii_digit())
            && tail.len() == 5
            && tail.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Document {
    messages: Vec<Message>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    id: String,
    role: String,
    content: Vec<Block>,
    metrics: Option<Metrics>,
    #[serde(rename = "modelInfo")]
    model_info: Option<ModelInfo>,
    ts: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Metrics {
    #[serde(rename = "inputTokens")]
    input: u64,
    #[serde(rename = "outputTokens")]
    output: u64,
    #[serde(rename = "cacheReadTokens")]
    cache_read: u64,
    #[serde(rename = "cacheWriteTokens")]
    cache_write: u64,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ModelInfo {
    id: String,
}

/// Reads a whole Cline document (`lines::whole_document`); returns the
/// bytes read.
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    whole_document(b, file, bytes, |b, doc: Document, owner, _| {
        for m in doc.messages {
            b.out.records += 1;
            message(b, m, owner);
        }
    })
}

fn message(b: &mut SessionParser, m: Message, owner: &mut Owner<'_>) {
    let at: Option<Millis> = m.ts.filter(|t| *t > 0);
    saw(b, owner, at);
    let agent = owner.agent.to_string();
    if m.id.starts_with("error_") {
        b.failed(&agent, at);
        return;
    }
    if m.role != "assistant" {
        // A prompt or a tool's result: the turn goes on.
        b.task_turn(&agent, false, at);
        return;
    }
    // An answer that calls no tool ends its turn (a subagent's, its task).
    let calls = m.content.iter().any(|c| c.kind == "tool_use");
    b.task_turn(&agent, !calls, at);
    let (Some(t), false) = (m.metrics, m.id.is_empty()) else {
        return;
    };
    let model = m.model_info.map(|i| i.id).unwrap_or_default();
    b.add_response(
        &agent,
        m.id,
        model,
        at,
        Buckets {
            input: t.input.saturating_sub(t.cache_read),
            output: t.output,
            cache_write_5m: t.cache_write,
            cache_write_1h: 0,
            cache_read: t.cache_read,
            reasoning: 0,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "1796497512091_9ed0q";

    #[test]
    fn each_response_counts_once_without_its_cached_input() {
        assert!(is_document(&format!("{S}/{S}.messages.json")));
        assert!(is_document(&format!("{S}/agent_a1.messages.json")));
        assert!(!is_document(&format!("{S}/{S}.json")) && !is_document("x/x.messages.json"));
        let doc = format!(
            r#"{{"version":1,"sessionId":"{S}","messages":[
            {{"id":"u1","role":"user","content":[{{"type":"text","text":"hi"}}],"ts":1796497512774}},
            {{"id":"m1","role":"assistant","content":[{{"type":"tool_use","id":"c1","name":"run_commands","input":{{}}}}],"metrics":{{"inputTokens":1007,"outputTokens":13,"cacheReadTokens":100,"cacheWriteTokens":0}},"modelInfo":{{"id":"fake-model"}},"ts":1796497513312}},
            {{"id":"m2","role":"assistant","content":[{{"type":"text","text":"done"}}],"metrics":{{"inputTokens":2007,"outputTokens":23,"cacheReadTokens":200,"cacheWriteTokens":0}},"modelInfo":{{"id":"fake-model"}},"ts":1796497513617}}]}}"#
        );
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("{S}/{S}.messages.json"));
        assert_eq!(p.block(f, doc.as_bytes()).unwrap(), doc.len() as u64);
        let out = p.finish();
        let got: Vec<(String, u64, u64, u64, String)> = out
            .usage
            .iter()
            .map(|u| {
                (
                    u.message_id.clone(),
                    u.buckets.input,
                    u.buckets.cache_read,
                    u.buckets.output,
                    u.model.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("m1".into(), 907, 100, 13, "fake-model".into()),
                ("m2".into(), 1807, 200, 23, "fake-model".into())
            ]
        );
        assert_eq!(out.started_at, Some(1_796_497_512_774));
    }
}

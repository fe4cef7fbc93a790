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
use crate::domain::transcript::said::{Piece, Role, SaidOptions, blocks};
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
    whole_document(b, file, bytes, |b, doc: Document, owner, body| {
        for m in doc.messages {
            b.out.records += 1;
            message(b, m, owner);
        }
        let title = owner.main && b.wants_prompt_title();
        if b.said.is_some() || title {
            // What the messages say, read again as values (or, for the
            // title alone, up to the first prompt).
            let opts = b.said.unwrap_or_default();
            let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
            for (i, m) in v["messages"].as_array().into_iter().flatten().enumerate() {
                let (record, pieces) = said(m, opts);
                if b.said.is_none() {
                    b.offer_prompt(&pieces);
                    if !b.wants_prompt_title() {
                        break;
                    }
                    continue;
                }
                let record = record.unwrap_or_else(|| format!("{}/message:{i}", owner.agent));
                b.keep_said(
                    owner.agent,
                    record,
                    m["ts"].as_i64().filter(|t| *t > 0),
                    pieces,
                );
            }
        }
    })
}

/// What a message says (Anthropic content blocks: text, tool calls, tool
/// results), under its id. The person's prompt comes wrapped in
/// `<user_input mode="…">`: its inside is what they typed.
fn said(m: &serde_json::Value, opts: SaidOptions) -> (Option<String>, Vec<Piece>) {
    let mut content = m["content"].clone();
    let role = match m["role"].as_str() {
        Some("assistant") => Role::Assistant,
        _ => Role::User,
    };
    if role == Role::User {
        for b in content.as_array_mut().into_iter().flatten() {
            if let Some(inner) = b["text"].as_str().and_then(typed) {
                b["text"] = inner.to_string().into();
            }
        }
    }
    let mut out = Vec::new();
    blocks(&content, role, opts, &mut out);
    let id = m["id"]
        .as_str()
        .filter(|i| !i.is_empty())
        .map(str::to_string);
    (id, out)
}

/// The text a person typed, inside Cline's `<user_input …>` wrapper.
fn typed(text: &str) -> Option<&str> {
    let rest = text.trim().strip_prefix("<user_input")?;
    let (_, inner) = rest.split_once('>')?;
    inner.strip_suffix("</user_input>")
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
    use crate::domain::transcript::said::{row, rows};

    const S: &str = "1796497512091_9ed0q";

    /// What the person typed is said without Cline's wrapper; what Cline
    /// adds to the prompt (its environment details) is not; an answer's
    /// calls and a tool's output are.
    #[test]
    fn a_document_says_the_typed_prompt_and_the_answers() {
        let doc = r#"{"version":1,"messages":[
            {"id":"u1","role":"user","content":[{"type":"text","text":"<user_input mode=\"act\">fix the flaky login test</user_input>"},{"type":"text","text":"<environment_details>cwd /w</environment_details>"}],"ts":1796497512774},
            {"id":"m1","role":"assistant","content":[{"type":"text","text":"Running it."},{"type":"tool_use","id":"c1","name":"run_commands","input":{"commands":["npm test -- login"]}}],"ts":1796497513312},
            {"id":"u2","role":"user","content":[{"type":"tool_result","tool_use_id":"c1","name":"run_commands","content":[{"query":"npm test","result":"1 passing"}]}],"ts":1796497513439},
            {"role":"assistant","content":[{"type":"text","text":"Fixed."}],"ts":1796497513617}]}"#;
        let mut p = SessionParser::new(S, false);
        p.said = Some(SaidOptions { outputs: true });
        let f = p.begin_main(&format!("{S}/{S}.messages.json"));
        p.block(f, doc.as_bytes()).unwrap();
        let at = |ms: i64| Some(1_796_497_512_000 + ms);
        let fourth = format!("{S}/message:3");
        assert_eq!(
            rows(p.finish().said),
            [
                row((S, "u1", at(774)), "user", None, "fix the flaky login test"),
                row((S, "m1", at(1312)), "assistant", None, "Running it."),
                row(
                    (S, "m1", at(1312)),
                    "tool",
                    Some("run_commands"),
                    "npm test -- login"
                ),
                row(
                    (S, "u2", at(1439)),
                    "tool",
                    Some("run_commands"),
                    "1 passing"
                ),
                row((S, &fourth, at(1617)), "assistant", None, "Fixed."),
            ]
        );
    }

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

//! pi (the coding agent) sessions, one block at a time:
//! `~/.pi/agent/sessions/--<cwd with / as ->--/<time>_<session uuid>.jsonl`.
//! The first line is a header (`type: session`, `id`, `timestamp`, `cwd`);
//! every other line is an entry of a tree (`id`, `parentId`): model and
//! thinking-level changes and `message` entries whose `message.role` is
//! `user`, `assistant` or `toolResult`. `--continue` appends to the file.
//!
//! What is read (pi 0.73):
//! - an assistant message's `usage` (`input`, `output`, `cacheRead`,
//!   `cacheWrite`): one observation per API response, never repeated, on
//!   every branch of the tree (an abandoned branch was still paid for).
//!   `input` is the prompt's uncached part already (pi subtracts the
//!   cached tokens), so the buckets are its numbers as they stand; the
//!   message is keyed by its `responseId` (else its entry id).
//! - the header's `timestamp` and `cwd`: when and where the session started.
//! - an assistant message's `stopReason`: `stop` ends the turn, `error`
//!   (the model's API failed it) ends it in an error, `aborted` in an
//!   interrupt.
//!
//! OpenClaw keeps the same entries (version 4) as rows of its database
//! (`transcript_events`), read by this reader; its usage adds
//! `reasoningTokens` (of the output), kept apart.

use serde::Deserialize;

use crate::domain::clock::parse_instant;
use crate::domain::transcript::BadLine;
use crate::domain::transcript::Ending;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::{Owner, typed_records, uuid_like};
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};

/// Whether a transcript path is a pi session: `--<cwd>--/<time>_<uuid>.jsonl`.
pub fn is_session(rel_path: &str) -> bool {
    let Some((dir, name)) = rel_path.rsplit_once('/') else {
        return false;
    };
    let dir = dir.rsplit('/').next().unwrap_or(dir);
    dir.len() >= 4
        && dir.starts_with("--")
        && dir.ends_with("--")
        && session_of_name(name).is_some()
}

/// The session id a pi file name carries: `<time>_<uuid>.jsonl`.
pub fn session_of_name(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".jsonl")?;
    let (_, id) = stem.rsplit_once('_')?;
    uuid_like(id).then_some(id)
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    timestamp: Option<String>,
    cwd: Option<String>,
    message: Option<Message>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    role: Option<String>,
    model: Option<String>,
    usage: Option<Usage>,
    #[serde(rename = "responseId")]
    response_id: Option<String>,
    /// `stop` (the answer), `toolUse`, `error`, `aborted`.
    #[serde(rename = "stopReason")]
    stop_reason: Option<String>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Usage {
    input: u64,
    output: u64,
    #[serde(rename = "cacheRead")]
    cache_read: u64,
    #[serde(rename = "cacheWrite")]
    cache_write: u64,
    /// Of the output (OpenClaw writes it; pi does not).
    #[serde(rename = "reasoningTokens")]
    reasoning: u64,
    /// What pi itself says the response cost (`total`, in dollars).
    cost: Cost,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Cost {
    total: Option<f64>,
}

/// Reads a block's complete lines of a pi session into the parser; returns
/// the bytes read (through the last newline).
pub(crate) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    typed_records::<Line>(b, file, bytes, read_line)
}

fn read_line(b: &mut SessionParser, rec: Line, owner: &mut Owner<'_>) {
    let at = rec.timestamp.as_deref().and_then(parse_instant);
    owner.span.see(at);
    if rec.kind.as_deref() == Some("session") {
        if owner.main && b.out.started_at.is_none() {
            b.out.started_at = at;
        }
        if owner.main {
            b.hint_cwd(rec.cwd.as_deref());
        }
        return;
    }
    if let Some(at) = at {
        b.out.last_activity_at = b.out.last_activity_at.max(Some(at));
    }
    let Some(m) = rec.message else {
        return;
    };
    if m.role.as_deref() != Some("assistant") {
        // A prompt or a tool's result: the turn goes on.
        b.turn(owner.agent, false, at);
        return;
    }
    match m.stop_reason.as_deref() {
        // The model's API failed the request: the turn ends in an error.
        Some("error") => {
            b.endings
                .insert(owner.agent.to_string(), (Ending::ApiError, at));
        }
        Some("aborted") => {
            b.endings
                .insert(owner.agent.to_string(), (Ending::Interrupt, at));
        }
        stop => b.turn(owner.agent, stop == Some("stop"), at),
    }
    let (Some(usage), Some(id)) = (
        m.usage,
        m.response_id
            .filter(|r| !r.is_empty())
            .or(rec.id.filter(|i| !i.is_empty())),
    ) else {
        return;
    };
    usage_of(b, owner.agent, id, m.model.unwrap_or_default(), usage, at);
}

/// A response's usage (keyed by `id`) and, when pi priced it, its cost as
/// the figure the client reported.
fn usage_of(
    b: &mut SessionParser,
    agent: &str,
    id: String,
    model: String,
    usage: Usage,
    at: Option<crate::domain::clock::Millis>,
) {
    let sid = b.out.session_id.clone();
    let buckets = Buckets {
        input: usage.input,
        output: usage.output,
        cache_write_5m: usage.cache_write,
        cache_write_1h: 0,
        cache_read: usage.cache_read,
        reasoning: usage.reasoning,
    };
    if let Some(usd) = usage.cost.total.filter(|u| *u > 0.0)
        && !b.knows_message(&id)
    {
        b.out
            .harness_cost
            .get_or_insert_with(Default::default)
            .add_response(&id, &model, at, buckets, usd);
    }
    b.add_usage(UsageObservation {
        message_id: id,
        agent_id: agent.to_string(),
        record_session_id: sid,
        model,
        at,
        buckets,
        billing: Billing::default(),
    });
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::kit::SessionParser;

    const S: &str = "01a24232-e13b-774b-bf98-007af842d15e";

    /// Each assistant message's usage counts once, as it stands; user and
    /// tool-result entries carry none; the header starts the session.
    #[test]
    fn assistant_usage_counts_once_per_response() {
        let usage = |i: u64, o: u64, r: u64| {
            format!(
                r#"{{"input":{i},"output":{o},"cacheRead":{r},"cacheWrite":0,"totalTokens":{},"cost":{{"total":0.001}}}}"#,
                i + o + r
            )
        };
        let text = [
            format!(r#"{{"type":"session","version":3,"id":"{S}","timestamp":"2026-12-04T17:56:00.444Z","cwd":"/w/proj"}}"#),
            r#"{"type":"model_change","id":"2ca66bba","parentId":null,"timestamp":"2026-12-04T17:56:00.476Z","provider":"fake","modelId":"m1"}"#.to_string(),
            r#"{"type":"message","id":"4ce336a8","parentId":"2ca66bba","timestamp":"2026-12-04T17:56:00.533Z","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}"#.to_string(),
            format!(r#"{{"type":"message","id":"870846ed","parentId":"4ce336a8","timestamp":"2026-12-04T17:56:00.683Z","message":{{"role":"assistant","model":"m1","usage":{},"responseId":"r1"}}}}"#, usage(907, 13, 100)),
            r#"{"type":"message","id":"6cf2729b","parentId":"870846ed","timestamp":"2026-12-04T17:56:00.789Z","message":{"role":"toolResult","toolName":"bash","isError":false}}"#.to_string(),
            format!(r#"{{"type":"message","id":"0d585527","parentId":"6cf2729b","timestamp":"2026-12-04T17:56:00.821Z","message":{{"role":"assistant","model":"m1","usage":{},"responseId":"r2"}}}}"#, usage(1807, 23, 200)),
        ]
        .join("\n")
            + "\n";
        let mut p = SessionParser::new(S, false);
        let f = p.begin_main(&format!("--w-proj--/2026-12-04T17-56-00-444Z_{S}.jsonl"));
        assert_eq!(p.block(f, text.as_bytes()).unwrap(), text.len() as u64);
        let out = p.finish();
        let ids: Vec<&str> = out.usage.iter().map(|u| u.message_id.as_str()).collect();
        assert_eq!(ids, ["r1", "r2"]);
        assert_eq!(
            crate::domain::transcript::kit::input_cached_output(&out),
            (2714, 300, 36)
        );
        assert_eq!(out.usage[0].model, "m1");
        // pi's own figure for the two responses, beside the tokens it covers.
        let own = out.harness_cost.as_ref().expect("pi priced its responses");
        assert_eq!(own.cost_nanousd, 2_000_000);
        assert_eq!(own.models.len(), 1);
        assert_eq!(own.models[0].model, "m1");
        assert_eq!(
            own.models[0].tokens.input + own.models[0].tokens.output,
            2714 + 36
        );
        assert_eq!(own.at, out.last_activity_at);
        assert_eq!(out.cwd.as_deref(), Some("/w/proj"));
        assert_eq!(
            out.started_at,
            crate::domain::clock::parse_instant("2026-12-04T17:56:00.444Z")
        );
        assert_eq!(
            out.last_activity_at,
            crate::domain::clock::parse_instant("2026-12-04T17:56:00.821Z")
        );
    }

    #[test]
    fn pi_paths() {
        assert!(super::is_session(&format!(
            "--home-dev-proj--/2026-12-04T17-56-00-444Z_{S}.jsonl"
        )));
        assert!(!super::is_session(&format!("-home-dev-proj/{S}.jsonl")));
        assert!(!super::is_session("--home--/notes.jsonl"));
        assert_eq!(
            super::session_of_name(&format!("2026-12-04T17-56-00-444Z_{S}.jsonl")),
            Some(S)
        );
    }
}

//! Codex rollouts, one block at a time:
//! `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`, each
//! line `{timestamp, ordinal, type, payload}`. A session is its root
//! thread's rollout plus one rollout per subagent thread (`session_meta`
//! names the root session and the parent thread).
//!
//! What is read:
//! - `token_usage_record`: one per model response (`response_id`), the
//!   response's own usage. It is the message: `event_msg/token_count`
//!   repeats the same numbers as running totals and is not counted again.
//! - `event_msg/token_count`, in a rollout that has shown no
//!   `token_usage_record` (Codex versions before it wrote one): its
//!   `last_token_usage` is the last response's usage (else the growth of
//!   `total_token_usage`, the running total), named by that running total,
//!   so a row written again unchanged counts once; one without `info`
//!   (rate limits only) says nothing.
//!   OpenAI counts cached input inside `input_tokens` (Responses API
//!   `usage.input_tokens_details.cached_tokens`), and Codex writes
//!   `cached_input_tokens` and `cache_write_input_tokens` beside it: the
//!   input bucket is what is left, so the buckets add up to what the
//!   transcript states and cached input is priced as cached. Reasoning
//!   tokens are part of `output_tokens` and stay there.
//! - A `session_meta` after the first line: a copied history. Codex
//!   versions that fork by copying (`codex fork`, a subagent started with
//!   its parent's context) write the parent's items into the new rollout
//!   as they were, its `session_meta` first; the `token_count` events that
//!   follow are named by that thread, so the copy and the parent's own
//!   rollout are one message each. Codex 0.171 points at the parent's
//!   history (`history_base`) instead and copies nothing.
//!   A fork of the older kind can replay its parent's turns at its start
//!   (written within seconds, each `task_started` keeping its turn's start
//!   of long before): what a replayed turn used is the parent's history,
//!   never the fork's usage, and is not read, with or without the
//!   parent's own rollout; a turn of the fork's own (started as it is
//!   written) reads on.
//! - `turn_context.model`: the model of the responses that follow.
//! - `session_meta`: working directory, version, start; for a subagent
//!   thread its role and nickname.
//! - `response_item` `function_call` `spawn_agent` and its
//!   `function_call_output` (`agent_id`): the spawn evidence a subagent's
//!   parent is resolved by; a spawn's output only says the child started.
//! - `event_msg` `task_complete` (a subagent's thread is finished),
//!   `turn_aborted` (interrupted) and `error` (stopped on an API error).

use crate::domain::transcript::said::{Piece, Role, SaidOptions, blocks, push_call, push_output};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::clock::parse_instant;
use crate::domain::transcript::Ending;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::kit::json_records;
use crate::domain::transcript::spawns::SpawnResult;
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};
use crate::domain::transcript::{BadLine, Spawn};

/// The name every Codex rollout file has.
pub fn is_rollout(rel_path: &str) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.starts_with("rollout-") && name.ends_with(".jsonl")
}

#[derive(Deserialize)]
struct Line<'a> {
    timestamp: Option<&'a str>,
    #[serde(rename = "type")]
    kind: Option<&'a str>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Meta {
    id: Option<String>,
    cwd: Option<String>,
    cli_version: Option<String>,
    git: Option<Git>,
    agent_nickname: Option<String>,
    agent_role: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Git {
    branch: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnContext {
    model: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TokenCount {
    info: Option<TokenCountInfo>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TokenCountInfo {
    total_token_usage: Option<TokenUsage>,
    last_token_usage: Option<TokenUsage>,
    model: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct UsageRecord {
    session_id: Option<String>,
    response_id: Option<String>,
    model: Option<String>,
    usage: Option<TokenUsage>,
}

/// Codex's `TokenUsage`.
#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct TokenUsage {
    input_tokens: u64,
    cached_input_tokens: u64,
    cache_write_input_tokens: u64,
    output_tokens: u64,
    reasoning_output_tokens: u64,
}

impl TokenUsage {
    fn buckets(self) -> Buckets {
        Buckets {
            input: self
                .input_tokens
                .saturating_sub(self.cached_input_tokens)
                .saturating_sub(self.cache_write_input_tokens),
            output: self.output_tokens,
            cache_write_5m: self.cache_write_input_tokens,
            cache_write_1h: 0,
            cache_read: self.cached_input_tokens,
            reasoning: self.reasoning_output_tokens,
        }
    }
}

/// A `response_item` or `event_msg` payload: its kind, and for a function
/// call or its output the name, call id and (unparsed: a tool's output can
/// be large, and only a spawn's is read) the output.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Item<'a> {
    #[serde(rename = "type")]
    kind: Option<&'a str>,
    name: Option<&'a str>,
    call_id: Option<&'a str>,
    #[serde(borrow)]
    output: Option<&'a RawValue>,
    /// `task_complete`'s error, when the turn ended on one (`null` else).
    #[serde(borrow)]
    error: Option<&'a RawValue>,
    /// `task_started`'s start, in seconds since the epoch.
    started_at: Option<f64>,
}

/// How long before the line that writes it a turn may have started and
/// still be the file's own: a live `task_started` is written as its turn
/// starts; one replayed into a fork's rollout keeps its start of hours or
/// days before.
const REPLAY_LAG_MS: f64 = 60_000.0;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Spawned {
    agent_id: Option<String>,
}

/// What a rollout file carries between blocks: the model of the responses
/// to come (kept in the file's cursor, so a resumed read knows it too).
fn model_slot(b: &mut SessionParser, file: usize) -> &mut Option<String> {
    &mut b.out.files[file].model
}

/// Reads a block's complete lines of a rollout into the parser; returns the
/// bytes read (through the last newline).
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    json_records(b, file, bytes, |b, line, n, owner| {
        let rec: Line<'_> = serde_json::from_slice(line)?;
        let at = rec.timestamp.and_then(parse_instant);
        owner.span.see(at);
        if let Some(at) = at {
            b.out.last_activity_at = b.out.last_activity_at.max(Some(at));
        }
        let payload = rec.payload.map_or("null", RawValue::get);
        let place = Place {
            file,
            line: n,
            at,
            main: owner.main,
        };
        read_record(b, owner.agent, rec.kind.unwrap_or(""), payload, &place);
        Ok(())
    })
}

/// Where a record is: its file (handle), line, time, and whether the file is
/// the root thread's.
struct Place {
    file: usize,
    line: u64,
    at: Option<crate::domain::clock::Millis>,
    main: bool,
}

fn read_record(b: &mut SessionParser, agent: &str, kind: &str, payload: &str, place: &Place) {
    let Place {
        file,
        line,
        at,
        main,
    } = *place;
    match kind {
        "session_meta" => {
            let Ok(m) = serde_json::from_str::<Meta>(payload) else {
                return;
            };
            // A rollout's own `session_meta` is its first line; another one
            // further on is the thread whose history the file copies next
            // (a fork writes its parent's items, metadata first, into its
            // own rollout; each copied fork in the chain brings its own).
            let cursor = &mut b.out.files[file];
            if line > 1 {
                let own = m.id.as_deref().is_some_and(|id| id == agent);
                cursor.history_of = if own { None } else { m.id.clone() };
                // The copy's metadata is not the file's.
                return;
            }
            if main {
                crate::domain::transcript::kit::set_first(&mut b.out.cwd, m.cwd.as_deref());
                crate::domain::transcript::kit::set_first(
                    &mut b.out.harness_version,
                    m.cli_version.as_deref(),
                );
                let branch = m.git.and_then(|g| g.branch);
                crate::domain::transcript::kit::set_first(&mut b.out.git_branch, branch.as_deref());
                if b.out.started_at.is_none() {
                    b.out.started_at = at;
                }
            } else if let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent) {
                if a.agent_type.is_none() {
                    a.agent_type = m.agent_role.filter(|r| !r.is_empty());
                }
                if a.description.is_none() {
                    a.description = m
                        .agent_nickname
                        .filter(|n| !n.is_empty())
                        .map(|n| crate::domain::redact::redact_text(&n).into_owned());
                }
            }
        }
        "turn_context" => {
            if let Ok(t) = serde_json::from_str::<TurnContext>(payload)
                && let Some(model) = t.model.filter(|m| !m.is_empty())
            {
                *model_slot(b, file) = Some(model);
            }
        }
        "token_usage_record" => {
            let Ok(r) = serde_json::from_str::<UsageRecord>(payload) else {
                return;
            };
            b.out.files[file].usage_records = true;
            if b.out.files[file].replayed_turn {
                return;
            }
            let Some(usage) = r.usage else {
                return;
            };
            let message_id = r
                .response_id
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| format!("{agent}:{line}"));
            let model = r
                .model
                .or_else(|| model_slot(b, file).clone())
                .unwrap_or_default();
            let sid = b.out.session_id.clone();
            b.add_usage(UsageObservation {
                message_id,
                agent_id: agent.to_string(),
                record_session_id: r.session_id.unwrap_or(sid),
                model,
                at,
                buckets: usage.buckets(),
                billing: Billing::default(),
            });
        }
        "response_item" => read_item(b, agent, payload, at),
        "event_msg" => {
            let item = serde_json::from_str::<Item<'_>>(payload).unwrap_or_default();
            match item.kind.unwrap_or_default() {
                // A turn starts: the file's own, or one of another thread's
                // history replayed into it (a fork of the older kind).
                "task_started" => {
                    let replayed = match (item.started_at, at) {
                        (Some(started), Some(at)) => at as f64 - started * 1000.0 > REPLAY_LAG_MS,
                        _ => false,
                    };
                    let cursor = &mut b.out.files[file];
                    cursor.replayed_turn = replayed;
                    if !replayed && item.started_at.is_some() {
                        // A turn of the file's own: what follows is its thread's.
                        cursor.history_of = None;
                    }
                }
                _ if b.out.files[file].replayed_turn => {}
                "token_count" if !b.out.files[file].usage_records => {
                    token_count(b, agent, file, payload, at);
                }
                // Codex 0.171 ends a turn the API refused with a
                // `task_complete` that carries the error (and fires no Stop).
                "task_complete" if item.error.is_some_and(|e| e.get() != "null") => {
                    b.endings.insert(agent.to_string(), (Ending::ApiError, at));
                    if !main && let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent)
                    {
                        a.finished = true;
                    }
                }
                "task_complete" => {
                    if main {
                        b.endings.insert(agent.to_string(), (Ending::TurnEnd, at));
                    } else {
                        b.endings.remove(agent);
                    }
                    if !main && let Some(a) = b.out.agents.iter_mut().find(|a| a.agent_id == agent)
                    {
                        a.finished = true;
                    }
                }
                "turn_aborted" => {
                    b.endings.insert(agent.to_string(), (Ending::Interrupt, at));
                }
                "error" => {
                    b.endings.insert(agent.to_string(), (Ending::ApiError, at));
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// A `token_count` event of a rollout without usage records: the last
/// response's usage, once per running total.
fn token_count(
    b: &mut SessionParser,
    agent: &str,
    file: usize,
    payload: &str,
    at: Option<crate::domain::clock::Millis>,
) {
    let Some(info) = serde_json::from_str::<TokenCount>(payload)
        .ok()
        .and_then(|t| t.info)
    else {
        return;
    };
    let Some(total) = info.total_token_usage else {
        return;
    };
    let key = [
        total.input_tokens,
        total.cached_input_tokens,
        total.output_tokens,
    ];
    let before = b.out.files[file].running_total.replace(key);
    if before == Some(key) {
        // The same running total again: no new response.
        return;
    }
    let last = info.last_token_usage.unwrap_or_else(|| {
        let [i, c, o] = before.unwrap_or_default();
        TokenUsage {
            input_tokens: total.input_tokens.saturating_sub(i),
            cached_input_tokens: total.cached_input_tokens.saturating_sub(c),
            cache_write_input_tokens: 0,
            output_tokens: total.output_tokens.saturating_sub(o),
            reasoning_output_tokens: 0,
        }
    });
    let model = info
        .model
        .filter(|m| !m.is_empty())
        .or_else(|| model_slot(b, file).clone())
        .unwrap_or_default();
    let sid = b.out.session_id.clone();
    // Named by the thread whose history this is: a fork's copy of its
    // parent's events is the parent's messages again, and counts once.
    let thread = b.out.files[file].history_of.as_deref().unwrap_or(agent);
    b.add_usage(UsageObservation {
        message_id: format!("{thread}:total:{}:{}:{}", key[0], key[1], key[2]),
        agent_id: agent.to_string(),
        record_session_id: sid,
        model,
        at,
        buckets: last.buckets(),
        billing: Billing::default(),
    });
}

/// `spawn_agent` calls and their outputs: the evidence of who started a
/// subagent thread.
fn read_item(
    b: &mut SessionParser,
    agent: &str,
    payload: &str,
    at: Option<crate::domain::clock::Millis>,
) {
    let Ok(item) = serde_json::from_str::<Item<'_>>(payload) else {
        return;
    };
    let Some(call_id) = item.call_id.filter(|c| !c.is_empty()) else {
        return;
    };
    match item.kind {
        Some("function_call") if item.name == Some("spawn_agent") => {
            if b.out.spawns.iter().any(|s| s.tool_use_id == call_id) {
                return;
            }
            b.out.spawns.push(Spawn {
                tool_use_id: call_id.to_string(),
                owner: agent.to_string(),
                tool: "spawn_agent".to_string(),
                prompt: None,
                subagent_type: None,
                description: None,
                workflow_id: None,
                at,
                result: None,
            });
        }
        Some("function_call_output") => {
            let Some(spawn) = b
                .out
                .spawns
                .iter_mut()
                .find(|s| s.tool_use_id == call_id && s.owner == agent && s.result.is_none())
            else {
                return;
            };
            // The output is a JSON text (`{"agent_id": …, "nickname": …}`).
            let child = item
                .output
                .and_then(|raw| match serde_json::from_str::<String>(raw.get()) {
                    Ok(text) => serde_json::from_str::<Spawned>(&text).ok(),
                    Err(_) => serde_json::from_str::<Spawned>(raw.get()).ok(),
                })
                .and_then(|s| s.agent_id)
                .filter(|id| !id.is_empty());
            spawn.result = Some(SpawnResult {
                at,
                is_error: child.is_none(),
                child_agent_id: child,
                reported: None,
                launched_only: true,
            });
        }
        _ => {}
    }
}

/// What a line of a rollout says: a response item's message, call or
/// output.
pub(super) fn said(
    v: &serde_json::Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<crate::domain::clock::Millis>, Vec<Piece>)> {
    crate::domain::transcript::said::one_record(v, line, opts, |v, opts| {
        if v.get("type").and_then(serde_json::Value::as_str) != Some("response_item") {
            return None;
        }
        let p = &v["payload"];
        let mut pieces = Vec::new();
        item_said(p, opts, &mut pieces);
        let id = |k| crate::domain::transcript::said::id_of(p, k);
        (!pieces.is_empty()).then(|| (id("id").or_else(|| id("call_id")), pieces))
    })
}

/// A Codex response item: a user's or the assistant's message (never the
/// developer's or system's), a tool call, a tool's output.
fn item_said(p: &serde_json::Value, opts: SaidOptions, out: &mut Vec<Piece>) {
    let name = p.get("name").and_then(serde_json::Value::as_str);
    match p.get("type").and_then(serde_json::Value::as_str) {
        Some("message") => {
            let role = match p.get("role").and_then(serde_json::Value::as_str) {
                Some("user") => Role::User,
                Some("assistant") => Role::Assistant,
                _ => return,
            };
            blocks(
                p.get("content").unwrap_or(&serde_json::Value::Null),
                role,
                opts,
                out,
            );
        }
        Some("function_call") => {
            push_call(
                out,
                name.unwrap_or("tool"),
                p.get("arguments").unwrap_or(&serde_json::Value::Null),
            );
        }
        Some("custom_tool_call") => {
            push_call(
                out,
                name.unwrap_or("tool"),
                p.get("input").unwrap_or(&serde_json::Value::Null),
            );
        }
        Some("local_shell_call") => {
            let cmd = &p["action"]["command"];
            push_call(out, "shell", cmd);
        }
        Some("web_search_call") => {
            push_call(out, "web_search", &p["action"]);
        }
        Some("function_call_output" | "custom_tool_call_output") => {
            push_output(
                out,
                opts,
                None,
                p.get("output").unwrap_or(&serde_json::Value::Null),
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;

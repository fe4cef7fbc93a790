//! Mistral Vibe's sessions, from the files of its session store (read by
//! `find`): each session's journal records and its latest
//! snapshot's totals.
//!
//! A completion's usage is an `action_result` record of the journal
//! (`completion_succeeded`, `result.usage`: `input_tokens` with the cached
//! part in it, `cached_input_tokens`, `output_tokens` with the reasoning in
//! it, `reasoning_tokens`), keyed by its `action_id`, dated by the last
//! `core_input` time before it. But Vibe deletes the older journal segments
//! at every snapshot: what survives is read, and the session's running
//! totals (the latest snapshot's `tokenUsage`, over the session's whole
//! life) supply the rest as one observation of what the deleted records
//! held, dated at the session's start. The calls whose records are gone are
//! said, as a `journal-pruned` compaction (`show` lists it), with how many
//! there were when the snapshot counts its completions.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::clock::Millis;
use crate::domain::transcript::SessionRow;
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};
use crate::domain::transcript::{BadLine, Compaction, Ending, ParsedSession};

/// The store's name in reports: a session's path is `unified#<id>`.
pub const STORE: &str = "unified";

use crate::domain::transcript::PRUNED_CALLS as PRUNED;

/// Whether a stored transcript path names a Vibe session.
pub fn is_session(rel_path: &str) -> bool {
    crate::domain::transcript::names_stored_session(rel_path, STORE)
}

/// A session's running totals, as its latest snapshot states them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Totals {
    /// The cached part included.
    #[serde(rename = "inputTokens")]
    pub input: u64,
    #[serde(rename = "cachedInputTokens")]
    pub cached: u64,
    #[serde(rename = "outputTokens")]
    pub output: u64,
}

/// What a session's folder holds that its reading needs.
#[derive(Debug, Clone, Default)]
pub struct SessionFiles {
    pub id: String,
    /// The model its configuration names (`meta.json`; a subagent's is its
    /// root's).
    pub model: Option<String>,
    pub cwd: Option<String>,
    pub totals: Option<Totals>,
    /// Completions the latest snapshot knows of (`runtime-state.json`).
    pub completions: Option<u64>,
    /// The journal's surviving segments, in order, each with its path.
    pub journal: Vec<(String, Vec<u8>)>,
    /// Files that could not be read, and why.
    pub problems: Vec<BadLine>,
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CoreInput {
    input: Input,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Input {
    determinism: Determinism,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Determinism {
    time_unix_ms: Option<Millis>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ActionResult {
    action_id: Option<String>,
    result: Outcome,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Outcome {
    #[serde(rename = "type")]
    kind: String,
    result: Completion,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Completion {
    finish_reason: Option<String>,
    usage: Option<Usage>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Usage {
    input_tokens: u64,
    cached_input_tokens: u64,
    cache_write_tokens: u64,
    output_tokens: u64,
    reasoning_tokens: u64,
}

/// The tree of `sessions` (the top one first), each with its `files`.
pub fn parse_tree(db_rel: &str, sessions: &[SessionRow], files: &[SessionFiles]) -> ParsedSession {
    let root = &sessions[0];
    let root_files = files.iter().find(|f| f.id == root.id);
    let mut out = ParsedSession {
        session_id: root.id.clone(),
        cwd: root_files.and_then(|f| f.cwd.clone()),
        started_at: Some(root.time_created),
        ..ParsedSession::default()
    };
    let root_model = root_files.and_then(|f| f.model.clone()).unwrap_or_default();
    for (i, s) in sessions.iter().enumerate() {
        let mut a = s.agent(db_rel, i);
        out.last_activity_at = out.last_activity_at.max(Some(s.time_updated));
        let Some(f) = files.iter().find(|f| f.id == s.id) else {
            out.agents.push(a);
            continue;
        };
        let model = f.model.clone().unwrap_or_else(|| root_model.clone());
        let read = read_journal(&mut out, f, (&s.id, s.time_created), &model);
        a.records = read.records;
        a.ending = read.ending;
        // A subagent whose last completion ended its turn did its task.
        a.finished = i > 0 && a.ending.is_some_and(|(e, _)| e == Ending::TurnEnd);
        out.records += read.records;
        out.file_problems.extend(f.problems.iter().cloned());
        pruned(&mut out, f, s, &root.id, &model, &read);
        out.agents.push(a);
    }
    out
}

/// What a session's journal lost, from its totals: the usage past what
/// survives, as one observation, and the calls whose records are gone, as
/// a `journal-pruned` compaction.
fn pruned(
    out: &mut ParsedSession,
    f: &SessionFiles,
    s: &SessionRow,
    root: &str,
    model: &str,
    read: &Read,
) {
    let path = format!("{}#{}", STORE, s.id);
    if let Some(t) = f.totals {
        let rest = Buckets {
            input: (t.input.saturating_sub(t.cached)).saturating_sub(read.sum.input),
            cache_read: t.cached.saturating_sub(read.sum.cache_read),
            output: t.output.saturating_sub(read.sum.output),
            ..Buckets::default()
        };
        if rest.input + rest.cache_read + rest.output > 0 {
            out.usage.push(UsageObservation {
                message_id: format!("{}#unjournaled", s.id),
                agent_id: s.id.clone(),
                record_session_id: root.to_string(),
                model: model.to_string(),
                at: Some(s.time_created),
                buckets: rest,
                billing: Billing::default(),
            });
        }
    }
    let missing = f.completions.map(|n| n.saturating_sub(read.calls));
    let lost = f.totals.is_some_and(|t| {
        t.input + t.output > read.sum.input + read.sum.cache_read + read.sum.output
    });
    // One per call whose record is gone (one when the snapshot does not
    // count its calls).
    let calls = match missing {
        Some(n) if n > 0 => n,
        _ => u64::from(lost),
    };
    for i in 1..=calls {
        out.compactions.push(Compaction {
            agent_id: s.id.clone(),
            file: path.clone(),
            line: i,
            at: Some(s.time_created),
            trigger: Some(PRUNED.to_string()),
            pre_tokens: None,
        });
    }
}

/// What a session's journal gave.
#[derive(Default)]
struct Read {
    records: u64,
    calls: u64,
    sum: Buckets,
    ending: Option<(Ending, Option<Millis>)>,
}

/// Reads a session's journal (`agent` its id, `start` its start): a
/// result before any time the surviving records state is dated at the
/// session's start.
fn read_journal(
    out: &mut ParsedSession,
    f: &SessionFiles,
    (agent, start): (&str, Millis),
    model: &str,
) -> Read {
    let mut read = Read::default();
    let mut now: Option<Millis> = Some(start);
    for (rel, bytes) in &f.journal {
        out.bytes += bytes.len() as u64;
        for (n, line) in bytes.split(|&c| c == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            read.records += 1;
            let rec: Record<'_> = match serde_json::from_slice(line) {
                Ok(r) => r,
                Err(e) => {
                    out.bad_lines.push(BadLine {
                        file: rel.clone(),
                        line: n as u64 + 1,
                        reason: format!("invalid JSON: {e}"),
                    });
                    out.bad_lines_total += 1;
                    continue;
                }
            };
            let Some(payload) = rec.payload else { continue };
            match rec.kind {
                "core_input" => {
                    if let Ok(c) = serde_json::from_str::<CoreInput>(payload.get())
                        && let Some(t) = c.input.determinism.time_unix_ms
                    {
                        now = Some(t);
                    }
                }
                "action_result" => {
                    if let Ok(r) = serde_json::from_str::<ActionResult>(payload.get()) {
                        result(out, &mut read, r, agent, model, now);
                    }
                }
                _ => {}
            }
        }
    }
    read
}

/// An action's result: a completion's usage and how its turn stands.
fn result(
    out: &mut ParsedSession,
    read: &mut Read,
    r: ActionResult,
    agent: &str,
    model: &str,
    now: Option<Millis>,
) {
    match r.result.kind.as_str() {
        "completion_failed" => read.ending = Some((Ending::ApiError, now)),
        "completion_succeeded" => {
            read.calls += 1;
            let ended = r.result.result.finish_reason.as_deref() == Some("stop");
            read.ending = ended.then_some((Ending::TurnEnd, now));
            let (Some(u), Some(id)) = (r.result.result.usage, r.action_id) else {
                return;
            };
            let b = Buckets {
                input: u.input_tokens.saturating_sub(u.cached_input_tokens),
                output: u.output_tokens,
                cache_write_5m: u.cache_write_tokens,
                cache_write_1h: 0,
                cache_read: u.cached_input_tokens,
                reasoning: u.reasoning_tokens,
            };
            read.sum.input += b.input;
            read.sum.output += b.output;
            read.sum.cache_read += b.cache_read;
            out.usage.push(UsageObservation {
                // An action's id is its session's: named by it.
                message_id: format!("{agent}:{id}"),
                agent_id: agent.to_string(),
                record_session_id: out.session_id.clone(),
                model: model.to_string(),
                at: now,
                buckets: b,
                billing: Billing::default(),
            });
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow::for_test(id, parent)
    }

    fn result(action: &str, input: u64, cached: u64, output: u64, stop: &str) -> String {
        format!(
            r#"{{"payload":{{"action_id":"{action}","result":{{"action_id":"{action}","result":{{"finish_reason":"{stop}","usage":{{"cache_write_tokens":0,"cached_input_tokens":{cached},"input_tokens":{input},"output_tokens":{output},"reasoning_tokens":1}}}},"type":"completion_succeeded"}}}},"sequence":5,"type":"action_result"}}"#
        )
    }

    fn files(
        id: &str,
        journal: &str,
        totals: Option<Totals>,
        completions: Option<u64>,
    ) -> SessionFiles {
        SessionFiles {
            id: id.into(),
            model: Some("fake-model".into()),
            cwd: Some("/w/proj".into()),
            totals,
            completions,
            journal: vec![(format!("{id}/journal/1.jsonl"), journal.as_bytes().to_vec())],
            problems: Vec::new(),
        }
    }

    /// What survives of the journal counts per call; the totals supply
    /// what its deleted segments held, once, and the pruning is said.
    #[test]
    fn surviving_calls_count_and_the_totals_supply_the_rest() {
        let core = r#"{"payload":{"input":{"determinism":{"time_unix_ms":1500}}},"sequence":4,"type":"core_input"}"#;
        let journal = format!("{core}\n{}\n", result("a2", 2007, 200, 23, "stop"));
        let totals = Totals {
            input: 3014,
            cached: 300,
            output: 36,
        };
        let out = parse_tree(
            STORE,
            &[row("s", None)],
            &[files("s", &journal, Some(totals), Some(2))],
        );
        assert_eq!(out.usage.len(), 2);
        let call = &out.usage[0];
        assert_eq!(call.message_id, "s:a2");
        assert_eq!(call.at, Some(1500));
        assert_eq!(
            [
                call.buckets.input,
                call.buckets.cache_read,
                call.buckets.output,
                call.buckets.reasoning
            ],
            [1807, 200, 23, 1]
        );
        let rest = &out.usage[1];
        assert_eq!(rest.message_id, "s#unjournaled");
        assert_eq!(
            [
                rest.buckets.input,
                rest.buckets.cache_read,
                rest.buckets.output
            ],
            [907, 100, 13]
        );
        assert_eq!(out.compactions.len(), 1);
        assert_eq!(out.compactions[0].trigger.as_deref(), Some(PRUNED));
        assert_eq!(out.compactions[0].pre_tokens, None);
        assert_eq!(out.agents[0].ending.map(|e| e.0), Some(Ending::TurnEnd));
        // Everything survived: nothing more, nothing said.
        let whole = format!(
            "{}\n{}\n",
            result("a1", 1007, 100, 13, "tool_call"),
            result("a2", 2007, 200, 23, "stop")
        );
        let out = parse_tree(
            STORE,
            &[row("s", None)],
            &[files("s", &whole, Some(totals), Some(2))],
        );
        assert_eq!(out.usage.len(), 2);
        assert!(out.compactions.is_empty());
        assert!(is_session("unified#s") && !is_session("state.db#s"));
    }

    #[test]
    fn a_failed_completion_ends_in_an_error_and_a_child_is_an_agent() {
        let failed = r#"{"payload":{"action_id":"x","result":{"type":"completion_failed"}},"sequence":3,"type":"action_result"}"#;
        let out = parse_tree(
            STORE,
            &[row("s", None), row("child-1", Some("s"))],
            &[
                files("s", &format!("{failed}\n"), None, None),
                files("child-1", "", None, None),
            ],
        );
        assert_eq!(out.agents[0].ending.map(|e| e.0), Some(Ending::ApiError));
        assert_eq!(out.agents[1].parent_id.as_deref(), Some("s"));
    }
}

//! Spawn evidence: the calls that start subagents, their results, and the
//! other records that name a child (queue operations, progress, task
//! notifications). Ids are read only from their structural position — a
//! block's `id`, a result's `tool_use_id`, a tag's contents — never from prose.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::usage::Buckets;
use super::wire::{Block, SpawnResultWire};
use crate::clock::Millis;

/// The tools whose calls spawn a subagent.
pub const SPAWN_TOOLS: &[&str] = &["Task", "Agent", "Workflow"];

/// A call that spawns a subagent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    pub tool_use_id: String,
    /// The agent whose transcript holds the call.
    pub owner: String,
    pub tool: String,
    pub prompt: Option<u64>,
    pub subagent_type: Option<String>,
    pub description: Option<String>,
    pub workflow_id: Option<String>,
    pub at: Option<Millis>,
    pub result: Option<SpawnResult>,
}

/// The `tool_result` of a spawn call, in its owner's transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnResult {
    pub at: Option<Millis>,
    pub is_error: bool,
    /// `toolUseResult.agentId`: the child the call started (async spawns).
    pub child_agent_id: Option<String>,
    /// What the parent was told the child spent (`totalTokens`, `usage`).
    pub reported: Option<ReportedUsage>,
    /// The result only says the child was launched (`status: async_launched`):
    /// it is not the child's end.
    pub launched_only: bool,
}

/// Usage a parent's `toolUseResult` reports for its child. Never added to
/// totals: it describes messages counted in the child, or absent from disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportedUsage {
    pub total_tokens: Option<u64>,
    pub buckets: Option<Buckets>,
}

/// A `queue-operation` record's `<tool-use-id>` and `<task-id>` tags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueOp {
    pub owner: String,
    pub tool_use_id: Option<String>,
    pub task_id: Option<String>,
}

/// A `progress` record naming another agent by its top-level `agentId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressRef {
    pub owner: String,
    pub agent_id: String,
}

/// FNV-1a of a prompt: stable across runs and builds.
pub fn prompt_hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The text between `<tag>` and `</tag>`, the first time it occurs.
pub(crate) fn tag<'s>(s: &'s str, tag: &str) -> Option<&'s str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = s.find(&open)? + open.len();
    let len = s[start..].find(&close)?;
    Some(s[start..start + len].trim()).filter(|v| !v.is_empty())
}

/// Whether raw content may hold a spawn call (a cheap byte search first).
pub(crate) fn may_spawn(raw: &RawValue) -> bool {
    const NAMES: [&[u8]; 3] = [b"\"Task\"", b"\"Agent\"", b"\"Workflow\""];
    let b = raw.get().as_bytes();
    NAMES.iter().any(|n| memchr::memmem::find(b, n).is_some())
        && memchr::memmem::find(b, b"\"tool_use\"").is_some()
}

/// Whether raw user content may hold the result of one of `pending` calls.
pub(crate) fn may_answer<'p>(
    raw: &RawValue,
    mut pending: impl Iterator<Item = &'p String>,
) -> bool {
    let b = raw.get().as_bytes();
    pending.any(|id| memchr::memmem::find(b, id.as_bytes()).is_some())
}

/// The spawn calls in an assistant record's content.
pub(crate) fn spawn_calls(raw: &RawValue, owner: &str, at: Option<Millis>) -> Vec<Spawn> {
    let Ok(blocks) = serde_json::from_str::<Vec<Block>>(raw.get()) else {
        return Vec::new();
    };
    blocks
        .into_iter()
        .filter(|b| b.kind.as_deref() == Some("tool_use"))
        .filter_map(|b| {
            let tool = b.name.filter(|n| SPAWN_TOOLS.contains(&n.as_str()))?;
            let input = b.input.unwrap_or_default();
            Some(Spawn {
                tool_use_id: b.id.filter(|i| !i.is_empty())?,
                owner: owner.to_string(),
                tool,
                prompt: input.prompt.as_deref().map(prompt_hash),
                subagent_type: input.subagent_type.filter(|s| !s.is_empty()),
                description: input.description.filter(|s| !s.is_empty()),
                workflow_id: input.workflow_id.filter(|s| !s.is_empty()),
                at,
                result: None,
            })
        })
        .collect()
}

/// `(tool_use_id, is_error)` of every `tool_result` block in user content.
pub(crate) fn tool_results(raw: &RawValue) -> Vec<(String, bool)> {
    if memchr::memmem::find(raw.get().as_bytes(), b"\"tool_result\"").is_none() {
        return Vec::new();
    }
    let Ok(blocks) = serde_json::from_str::<Vec<Block>>(raw.get()) else {
        return Vec::new();
    };
    blocks
        .into_iter()
        .filter(|b| b.kind.as_deref() == Some("tool_result"))
        .filter_map(|b| Some((b.tool_use_id?, b.is_error.unwrap_or(false))))
        .collect()
}

/// What a spawn's `toolUseResult` says: its child and the usage it reports.
pub(crate) fn spawn_result(
    raw: Option<&RawValue>,
) -> (Option<String>, Option<ReportedUsage>, bool) {
    let Some(w) = raw.and_then(|r| serde_json::from_str::<SpawnResultWire>(r.get()).ok()) else {
        return (None, None, false);
    };
    let launched_only = w.status.as_deref().is_some_and(|s| s.starts_with("async"));
    let buckets = w.usage.as_ref().map(super::usage::buckets_of);
    let reported = (w.total_tokens.is_some() || buckets.is_some()).then_some(ReportedUsage {
        total_tokens: w.total_tokens,
        buckets,
    });
    (
        w.agent_id.filter(|a| !a.is_empty()),
        reported,
        launched_only,
    )
}

/// A first user message given as a plain string: its prompt hash and any
/// `<task-notification>`'s `<tool-use-id>`.
pub(crate) fn first_message(raw: &RawValue) -> (Option<u64>, Option<String>) {
    let Ok(text) = serde_json::from_str::<String>(raw.get()) else {
        return (None, None);
    };
    let note = text
        .contains("<task-notification>")
        .then(|| tag(&text, "tool-use-id").map(str::to_string))
        .flatten();
    (Some(prompt_hash(&text)), note)
}

/// A queue operation's tags.
pub(crate) fn queue_op(raw: Option<&RawValue>, owner: &str) -> Option<QueueOp> {
    let text: String = serde_json::from_str(raw?.get()).ok()?;
    let op = QueueOp {
        owner: owner.to_string(),
        tool_use_id: tag(&text, "tool-use-id").map(str::to_string),
        task_id: tag(&text, "task-id").map(str::to_string),
    };
    (op.tool_use_id.is_some() || op.task_id.is_some()).then_some(op)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    #[test]
    fn spawn_calls_are_read_from_blocks_not_prose() {
        let c = raw(
            r#"[{"type":"text","text":"I will call toolu_DECOY with Task"},
            {"type":"tool_use","id":"toolu_1","name":"Task","input":{"prompt":"p","subagent_type":"x","description":"d"}},
            {"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/a"}}]"#,
        );
        assert!(may_spawn(&c));
        let s = spawn_calls(&c, "main", Some(5));
        assert_eq!(s.len(), 1);
        assert_eq!(
            (s[0].tool_use_id.as_str(), s[0].tool.as_str()),
            ("toolu_1", "Task")
        );
        assert_eq!(s[0].prompt, Some(prompt_hash("p")));
        assert!(!may_spawn(&raw(r#"[{"type":"text","text":"Agent"}]"#)));
    }

    #[test]
    fn tags_and_notifications() {
        let (h, note) = first_message(&raw(
            r#""<task-notification><task-id>ab</task-id><tool-use-id>toolu_9</tool-use-id></task-notification>""#,
        ));
        assert!(h.is_some());
        assert_eq!(note.as_deref(), Some("toolu_9"));
        let q = queue_op(
            Some(&raw(
                r#""<task-id>c1</task-id><tool-use-id>toolu_Q</tool-use-id>""#,
            )),
            "m",
        )
        .unwrap();
        assert_eq!(
            (q.task_id.as_deref(), q.tool_use_id.as_deref()),
            (Some("c1"), Some("toolu_Q"))
        );
        assert_eq!(tag("<a></a>", "a"), None);
    }

    #[test]
    fn spawn_result_reads_child_and_reported_usage() {
        let (child, rep, launched) = spawn_result(Some(&raw(
            r#"{"agentId":"abc","totalTokens":585,"usage":{"input_tokens":2,"output_tokens":10}}"#,
        )));
        assert!(!launched);
        assert_eq!(child.as_deref(), Some("abc"));
        let rep = rep.unwrap();
        assert_eq!(rep.total_tokens, Some(585));
        assert_eq!(rep.buckets.unwrap().output, 10);
        assert_eq!(
            spawn_result(Some(&raw(r#""a plain error string""#))),
            (None, None, false)
        );
        assert!(spawn_result(Some(&raw(r#"{"agentId":"x","status":"async_launched"}"#))).2);
    }
}

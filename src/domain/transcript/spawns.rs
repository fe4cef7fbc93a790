//! Spawn evidence: the calls that start subagents, their results, and the
//! other records that name a child (queue operations, progress, task
//! notifications). Ids are read only from their structural position — a
//! block's `id`, a result's `tool_use_id`, a tag's contents — never from prose.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::usage::Buckets;
use super::wire::{Block, SpawnResultWire};
use crate::domain::clock::Millis;

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

/// A `queue-operation` record's `<tool-use-id>` and `<task-id>` tags; for
/// a background agent's `<task-notification>` (Claude Code 2.1.3xx), its
/// `<status>` and the record's time: that is when the agent finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueOp {
    pub owner: String,
    pub tool_use_id: Option<String>,
    pub task_id: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub at: Option<Millis>,
}

/// A `progress` record naming another agent by its top-level `agentId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressRef {
    pub owner: String,
    pub agent_id: String,
}

/// How a background agent (its spawn result said `async_launched`) ended,
/// by the evidence Claude Code 2.1.3xx writes: the last `<task-notification>`
/// for its call or agent id in its parent's transcript (a resumed agent
/// notifies again), else its sidecar's `finished: true` at its last record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackgroundEnd {
    Completed(Option<Millis>),
    Failed(Option<Millis>),
    /// The sidecar says finished; the time is the agent's last record.
    Finished(Option<Millis>),
}

/// The end of a background agent, or `None` while nothing says it ended.
pub fn background_end(
    agent_id: &str,
    call: &Spawn,
    queue_ops: &[QueueOp],
    sidecar_finished: bool,
    last_seen: Option<Millis>,
) -> Option<BackgroundEnd> {
    let note = queue_ops
        .iter()
        .filter(|q| {
            q.tool_use_id.as_deref() == Some(call.tool_use_id.as_str())
                || q.task_id.as_deref() == Some(agent_id)
        })
        .filter_map(|q| Some((q.status.as_deref()?, q.at)))
        .max_by_key(|(_, at)| *at);
    match note {
        Some(("failed" | "error", at)) => Some(BackgroundEnd::Failed(at)),
        // Completed, or stopped by the user: it ended either way.
        Some(("completed" | "killed" | "stopped" | "cancelled", at)) => {
            Some(BackgroundEnd::Completed(at))
        }
        _ if sidecar_finished => Some(BackgroundEnd::Finished(last_seen)),
        _ => None,
    }
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
                // Kept text from a transcript: secrets out (crate::domain::redact).
                description: input
                    .description
                    .filter(|s| !s.is_empty())
                    .map(|d| crate::domain::redact::redact_text(&d).into_owned()),
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
pub(crate) fn queue_op(raw: Option<&RawValue>, owner: &str, at: Option<Millis>) -> Option<QueueOp> {
    let text: String = serde_json::from_str(raw?.get()).ok()?;
    let note = text.contains("<task-notification>");
    let op = QueueOp {
        owner: owner.to_string(),
        tool_use_id: tag(&text, "tool-use-id").map(str::to_string),
        task_id: tag(&text, "task-id").map(str::to_string),
        status: note
            .then(|| tag(&text, "status").map(str::to_string))
            .flatten(),
        at,
    };
    (op.tool_use_id.is_some() || op.task_id.is_some()).then_some(op)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    /// the description a spawn call carries is kept, so it loses
    /// its secrets first.
    #[test]
    fn kept_descriptions_lose_their_secrets() {
        let c = raw(
            r#"[{"type":"tool_use","id":"toolu_1","name":"Agent","input":{"prompt":"p","description":"deploy with PASSWORD=hunter2"}}]"#,
        );
        let s = spawn_calls(&c, "main", None);
        assert_eq!(
            s[0].description.as_deref(),
            Some("deploy with PASSWORD=[redacted:password:~8]")
        );
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
            None,
        )
        .unwrap();
        assert_eq!(q.status, None);
        // Claude Code 2.1.332's notification of a background agent.
        let n = queue_op(
            Some(&raw(
                r#""<task-notification>\n<task-id>afc970604cdfc094d</task-id>\n<tool-use-id>toolu_f2efe81a660b4ab08e2e</tool-use-id>\n<status>completed</status>\n<summary>Agent \"probe agent\" finished</summary>\n</task-notification>""#,
            )),
            "m",
            Some(7),
        )
        .unwrap();
        assert_eq!(
            (n.task_id.as_deref(), n.status.as_deref(), n.at),
            (Some("afc970604cdfc094d"), Some("completed"), Some(7))
        );
        assert_eq!(
            (q.task_id.as_deref(), q.tool_use_id.as_deref()),
            (Some("c1"), Some("toolu_Q"))
        );
        assert_eq!(tag("<a></a>", "a"), None);
    }

    /// The last notification decides; a sidecar's `finished` stands in
    /// when there is none; launched-and-silent is no end.
    #[test]
    fn background_agents_end_at_their_notification() {
        let call = Spawn {
            tool_use_id: "toolu_1".into(),
            owner: "main".into(),
            tool: "Agent".into(),
            prompt: None,
            subagent_type: None,
            description: None,
            workflow_id: None,
            at: Some(1),
            result: None,
        };
        let note = |id: Option<&str>, task: Option<&str>, status: &str, at| QueueOp {
            owner: "main".into(),
            tool_use_id: id.map(str::to_string),
            task_id: task.map(str::to_string),
            status: Some(status.into()),
            at: Some(at),
        };
        assert_eq!(background_end("a1", &call, &[], false, Some(9)), None);
        assert_eq!(
            background_end("a1", &call, &[], true, Some(9)),
            Some(BackgroundEnd::Finished(Some(9)))
        );
        let ops = [
            note(Some("toolu_1"), None, "failed", 5),
            note(None, Some("a1"), "completed", 7),
            note(Some("toolu_other"), Some("a2"), "failed", 8),
        ];
        assert_eq!(
            background_end("a1", &call, &ops, true, Some(9)),
            Some(BackgroundEnd::Completed(Some(7)))
        );
        assert_eq!(
            background_end("a1", &call, &ops[..1], false, None),
            Some(BackgroundEnd::Failed(Some(5)))
        );
        let plain = QueueOp {
            status: None,
            ..note(Some("toolu_1"), None, "", 3)
        };
        assert_eq!(background_end("a1", &call, &[plain], false, None), None);
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

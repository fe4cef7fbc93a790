//! A run's records, as `session open|heartbeat|close|show|list` and
//! `session events` print them (contracts `sessionkit.run/1`,
//! `sessionkit.run-events/1`).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::domain::clock::{Millis, Rfc3339};
use crate::output::memory::EventRecord;
use crate::store::runs::{EventPage, Run};

/// The name and version of a run record's contract.
pub const RUN_SCHEMA: &str = "sessionkit.run/1";

/// The name and version of `session events`' contract.
pub const RUN_EVENTS_SCHEMA: &str = "sessionkit.run-events/1";

/// One run (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunRecord<'a> {
    /// Its lease generation: bumped when a run is reopened.
    pub activation_epoch: i64,
    /// The agent slot (`main`, or a subagent's name).
    pub agent: &'a str,
    /// The memories its briefing showed (as `session open --briefed` gave them).
    pub briefed_memories: Vec<BriefedMemory>,
    pub briefing_delivered_at: Option<Rfc3339>,
    pub closed_at: Option<Rfc3339>,
    /// Times the closer failed on it.
    pub closer_failure_count: i64,
    pub closer_next_attempt_at: Option<Rfc3339>,
    /// The last assistant message (redacted), cut to its excerpt length.
    pub last_message_excerpt: Option<&'a str>,
    pub last_seen_at: Rfc3339,
    /// It asked for a human to look (triage).
    pub needs_look: bool,
    pub opened_at: Rfc3339,
    /// What this call did (open, heartbeat and close only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["inserted", "heartbeat", "resumed", "reopened", "resurrected", "closed", "already_closed"]))]
    pub outcome: Option<&'a str>,
    pub project: Option<&'a str>,
    pub run_id: &'a str,
    /// The contract and its version: `sessionkit.run/1`.
    pub schema: &'static str,
    pub scope: Option<&'a str>,
    /// The selector it was opened with (JSON), or null.
    pub selector: Value,
    pub session_id: &'a str,
    /// startup or resume.
    pub source: &'a str,
    /// live, stale (silent past its lease), closed-explicit or closed-implicit.
    #[schemars(extend("enum" = ["live", "stale", "closed-explicit", "closed-implicit"]))]
    pub state: &'static str,
    pub triage_status: &'a str,
}

impl<'a> RunRecord<'a> {
    pub fn of(r: &'a Run, now: Millis, lease_ms: i64, outcome: Option<&'a str>) -> RunRecord<'a> {
        RunRecord {
            activation_epoch: r.activation_epoch,
            agent: &r.agent,
            briefed_memories: serde_json::from_str(&r.briefed_memories).unwrap_or_default(),
            briefing_delivered_at: r.briefing_delivered_at.map(Rfc3339),
            closed_at: r.closed_at.map(Rfc3339),
            closer_failure_count: r.closer_failure_count,
            closer_next_attempt_at: r.closer_next_attempt_at.map(Rfc3339),
            last_message_excerpt: r.last_message_excerpt.as_deref(),
            last_seen_at: Rfc3339(r.last_seen_at),
            needs_look: r.needs_look,
            opened_at: Rfc3339(r.opened_at),
            outcome,
            project: r.project.as_deref(),
            run_id: &r.run_id,
            schema: RUN_SCHEMA,
            scope: r.scope.as_deref(),
            selector: serde_json::from_str(&r.selector).unwrap_or(Value::Null),
            session_id: &r.session_id,
            source: &r.source,
            state: r.state(now, lease_ms).as_str(),
            triage_status: &r.triage_status,
        }
    }
}

/// A memory a run's briefing showed.
#[derive(Debug, Serialize, serde::Deserialize, JsonSchema)]
pub struct BriefedMemory {
    pub id: String,
    /// Its state when briefed.
    pub status: String,
    pub topic: String,
}

/// A page of a run's memory events (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunEventsRecord<'a> {
    /// Oldest first.
    pub events: Vec<EventRecord<'a>>,
    /// Pass as --cursor for the next page; null on the last.
    pub next_cursor: Option<&'a str>,
    pub run_id: &'a str,
    /// The contract and its version: `sessionkit.run-events/1`.
    pub schema: &'static str,
    /// The run has more events than are ever listed.
    pub truncated: bool,
}

impl<'a> RunEventsRecord<'a> {
    pub fn of(run_id: &'a str, page: &'a EventPage) -> RunEventsRecord<'a> {
        RunEventsRecord {
            events: page.events.iter().map(EventRecord::of).collect(),
            next_cursor: page.next_cursor.as_deref(),
            run_id,
            schema: RUN_EVENTS_SCHEMA,
            truncated: page.truncated,
        }
    }
}

/// The name and version of `triage begin|complete`'s contract.
pub const TRIAGE_SCHEMA: &str = "sessionkit.triage/1";

/// What `triage begin` or `triage complete` did (fields in name order;
/// begin's and complete's own fields appear only on theirs).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TriageRecord<'a> {
    /// begin: whether an attempt armed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armed: Option<bool>,
    /// begin: the armed attempt, or the pending one a `pending` decline
    /// names (complete it with `triage complete --attempt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<&'a str>,
    /// complete: the run's events visible now (at most 500).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_count: Option<usize>,
    /// begin: why it did not arm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::domain::triage::Decline>,
    pub run_id: &'a str,
    /// The contract and its version: `sessionkit.triage/1`.
    pub schema: &'static str,
    /// complete: the events that arrived since the begin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since_begin_count: Option<usize>,
    /// The run's triage status now.
    pub triage_status: crate::domain::triage::TriageStatus,
    /// complete: the run has more events than the ceiling (it overflowed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
}

impl<'a> TriageRecord<'a> {
    pub fn begun(b: &'a crate::store::triage::Begun) -> TriageRecord<'a> {
        TriageRecord {
            armed: Some(b.armed),
            attempt_id: b.attempt_id.as_deref(),
            event_count: None,
            reason: b.reason,
            run_id: &b.run_id,
            schema: TRIAGE_SCHEMA,
            since_begin_count: None,
            triage_status: b.status,
            truncated: None,
        }
    }

    pub fn completed(c: &'a crate::store::triage::Completed) -> TriageRecord<'a> {
        TriageRecord {
            armed: None,
            attempt_id: None,
            event_count: Some(c.event_count),
            reason: None,
            run_id: &c.run_id,
            schema: TRIAGE_SCHEMA,
            since_begin_count: Some(c.since_begin_count),
            triage_status: c.status,
            truncated: Some(c.truncated),
        }
    }
}

/// The name and version of `prompt debrief --json`'s contract.
pub const PROMPT_SCHEMA: &str = "sessionkit.prompt/1";

/// A rendered prompt.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PromptRecord<'a> {
    /// Its size in bytes.
    pub bytes: usize,
    /// Which prompt: `debrief`.
    pub name: &'static str,
    /// The prompt text, exactly as the Stop hook injects it.
    pub prompt: &'a str,
    /// The run it is for, when one was named.
    pub run_id: Option<&'a str>,
    /// The contract and its version: `sessionkit.prompt/1`.
    pub schema: &'static str,
}

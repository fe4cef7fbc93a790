//! Records of `status` (each agent's live status) and `check` (a finding).

use crate::domain::clock::{Millis, format_instant};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The name and version of `status --json`'s contract.
pub const STATUS_SCHEMA: &str = "sessionkit.status/1";

/// One agent as `status` shows it (fields in name order).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentStatusRecord {
    /// How long ago the evidence behind the status was seen (45s, 3m12s, 5h03m, 12d04h).
    pub age: Option<String>,
    /// The same, in milliseconds.
    pub age_ms: Option<i64>,
    /// `main` for the main agent, else the agent id.
    pub agent: String,
    pub agent_id: String,
    pub agent_type: Option<String>,
    /// Cost in dollars, rounded to 6 decimals.
    pub cost_usd: f64,
    /// What set the status.
    pub evidence: crate::domain::status::Cause,
    pub last_activity_at: Option<String>,
    pub parent_agent_id: Option<String>,
    pub project: Option<String>,
    /// The contract and its version: `sessionkit.status/1`.
    pub schema: String,
    pub session_id: String,
    /// The status in force (older than the watchdog window: unknown).
    pub status: crate::domain::status::Status,
    pub status_at: Option<String>,
    pub total_tokens: u64,
}

/// An agent's status record at `now`.
pub fn agent_status_record(r: &crate::store::events::LiveRow, now: Millis) -> AgentStatusRecord {
    let evidence_at = crate::domain::status::last_evidence(r.status.at, r.last_activity_at);
    let main = r.agent_id == r.session_id;
    AgentStatusRecord {
        age: evidence_at.map(|t| age(now - t)),
        age_ms: evidence_at.map(|t| now - t),
        agent: if main {
            "main".to_string()
        } else {
            r.agent_id.clone()
        },
        agent_id: r.agent_id.clone(),
        agent_type: r.agent_type.clone(),
        cost_usd: crate::domain::pricing::usd(r.totals.cost_nanousd),
        evidence: r.status.cause,
        last_activity_at: r.last_activity_at.map(format_instant),
        parent_agent_id: r.parent_agent_id.clone(),
        project: r.project.clone(),
        schema: STATUS_SCHEMA.to_string(),
        session_id: r.session_id.clone(),
        status: r.status.status,
        status_at: r.status.at.map(format_instant),
        total_tokens: r.totals.tokens.total(),
    }
}

/// A span of milliseconds as people read it: 45s, 3m12s, 5h03m, 12d04h.
pub fn age(ms: Millis) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86_400 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

/// The name and version of `check --json`'s contract.
pub const CHECK_SCHEMA: &str = "sessionkit.check/1";

/// One thing `check` found (fields in name order).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindingRecord {
    /// What was found, in words.
    pub detail: String,
    /// The file it is about, when it is about one.
    pub file: Option<String>,
    pub kind: crate::domain::integrity::FindingKind,
    /// The line (1-based), when it is about one.
    pub line: Option<i64>,
    /// The contract and its version: `sessionkit.check/1`.
    pub schema: String,
    /// The session it is about; empty when it is about no session.
    pub session_id: String,
}

/// A finding's record.
pub fn finding_record(f: &crate::domain::integrity::Finding) -> FindingRecord {
    FindingRecord {
        detail: f.detail.clone(),
        file: f.file.clone(),
        kind: f.kind,
        line: f.line,
        schema: CHECK_SCHEMA.to_string(),
        session_id: f.session_id.clone(),
    }
}

/// The name and version of `check --golden`'s contract.
pub const GOLDEN_SCHEMA: &str = "sessionkit.golden-check/1";

/// One check of `check --golden`: the corpus read twice, the recount, the
/// records against `expected/`, the labels.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoldenCheckRecord {
    /// The contract and its version: `sessionkit.golden-check/1`.
    pub schema: String,
    /// deterministic, recount, records or labels.
    pub check: String,
    pub pass: bool,
    /// What was compared, with counts.
    pub detail: String,
    /// Each file (or finding) that differs, with its unified diff
    /// (expected, then got).
    pub diffs: Vec<GoldenDiff>,
}

/// A difference `check --golden` found.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoldenDiff {
    pub file: String,
    pub diff: String,
}

//! Records of the usage reports: `sessions`, `show`, `cost` (and its
//! segments), and the token fields they share.

use crate::domain::clock::format_instant;
use crate::store::reports::{SessionRow, Totals};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Adds the token fields every report uses (`TotalsFields`) to a JSON
/// object (a table's total row, which is no record of its own).
pub fn put_totals(o: &mut Map<String, Value>, t: &Totals) {
    if let Value::Object(m) = serde_json::to_value(totals_fields(t)).expect("a record is JSON") {
        o.extend(m);
    }
}

/// The name and version of `sessions --json`'s contract.
pub const SESSION_SCHEMA: &str = "sessionkit.session/1";

/// One session as `sessions` prints it (fields in name order).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionRecord {
    /// Agents in the session (the main agent included).
    pub agents: i64,
    /// The working directory the transcript names.
    pub cwd: Option<String>,
    /// Lines that could not be read (and were skipped).
    pub degraded_lines: i64,
    pub git_branch: Option<String>,
    /// The harness that wrote it (claude-code).
    pub harness: String,
    pub harness_version: Option<String>,
    pub last_activity_at: Option<String>,
    /// The models its messages used, sorted.
    pub models: Vec<String>,
    /// The project (the git repository's name, or the directory's).
    pub project: Option<String>,
    /// Claude Code's folder name for the project.
    pub project_slug: String,
    /// Transcript records read.
    pub records: i64,
    /// The contract and its version: `sessionkit.session/1`.
    pub schema: String,
    pub session_id: String,
    pub started_at: Option<String>,
    /// The main agent's status: working, waiting, completed, error or unknown.
    pub status: String,
    /// When that status was observed.
    pub status_at: Option<String>,
    /// Messages the harness made up (model `<synthetic>`), not billed.
    pub synthetic_messages: i64,
    /// The name the person gave the session, else the title its client
    /// made, else the first prompt the person typed: one line, redacted,
    /// at most 80 characters.
    pub title: Option<String>,
    /// Records of kinds sessionkit does not know (counted, skipped).
    pub unknown_records: i64,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// A session's record.
pub fn session_record(s: &SessionRow) -> SessionRecord {
    SessionRecord {
        agents: s.agents,
        cwd: s.cwd.clone(),
        degraded_lines: s.degraded_lines,
        git_branch: s.git_branch.clone(),
        harness: s.harness.clone(),
        harness_version: s.harness_version.clone(),
        last_activity_at: s.last_activity_at.map(format_instant),
        models: s.models.clone(),
        project: s.project.clone(),
        project_slug: s.project_slug.clone(),
        records: s.records,
        schema: SESSION_SCHEMA.to_string(),
        session_id: s.session_id.clone(),
        started_at: s.started_at.map(format_instant),
        status: s.status.clone(),
        status_at: s.status_at.map(format_instant),
        synthetic_messages: s.synthetic_messages,
        title: s.title.clone(),
        unknown_records: s.unknown_records,
        totals: totals_fields(&s.totals),
    }
}

/// Token totals and cost, as every report row carries them (`put_totals`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TotalsFields {
    pub cache_read_tokens: u64,
    pub cache_write_1h_tokens: u64,
    pub cache_write_5m_tokens: u64,
    /// Cost in billionths of a dollar (exact); null when nothing in the row is priced.
    pub cost_nanousd: Option<i64>,
    /// Cost in dollars, rounded to 6 decimals; null when nothing in the row is priced.
    pub cost_usd: Option<f64>,
    pub input_tokens: u64,
    /// Messages (each API message counted once).
    pub messages: u64,
    pub output_tokens: u64,
    /// Of the output tokens, those the model spent reasoning, where the
    /// transcript says (already inside `output_tokens` and `total_tokens`).
    pub reasoning_tokens: u64,
    pub total_tokens: u64,
    /// Tokens of messages that have no price.
    pub unpriced_tokens: u64,
}

/// (cost_nanousd, cost_usd): both null when nothing in the row is priced
///, else the exact integer and the dollars rounded to 6 decimals.
pub fn cost_fields(t: &Totals) -> (Option<i64>, Option<f64>) {
    if t.priced_messages == 0 && t.messages > 0 {
        (None, None)
    } else {
        (
            Some(t.cost_nanousd),
            Some(crate::domain::pricing::usd(t.cost_nanousd)),
        )
    }
}

/// A row's totals fields.
pub fn totals_fields(t: &Totals) -> TotalsFields {
    let b = t.tokens;
    let (cost_nanousd, cost_usd) = cost_fields(t);
    TotalsFields {
        cache_read_tokens: b.cache_read,
        cache_write_1h_tokens: b.cache_write_1h,
        cache_write_5m_tokens: b.cache_write_5m,
        cost_nanousd,
        cost_usd,
        input_tokens: b.input,
        messages: t.messages,
        output_tokens: b.output,
        reasoning_tokens: b.reasoning,
        total_tokens: b.total(),
        unpriced_tokens: t.unpriced_tokens,
    }
}

/// The name and version of `cost --json`'s contract.
pub const COST_SCHEMA: &str = "sessionkit.cost/1";

/// One group of `cost`: the keys it was grouped by (only those `--by`
/// named), then its totals.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CostRecord {
    /// `--by agent`: the agent's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// `--by agent-type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// `--by block`: the start of the five-hour block (RFC 3339 UTC); a
    /// block starts at the first message after the previous one ended,
    /// floored to the hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// `--by block`: when the block ends, five hours after it starts
    /// (RFC 3339 UTC; a table shows both in `--tz`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_ends_at: Option<String>,
    /// `--by day`: YYYY-MM-DD in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// `--by harness`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    /// What the clients said the group's messages with no price here cost,
    /// by their own price tables (pi, OpenCode and their formats write it
    /// per response), in dollars rounded to 6 decimals; absent when none
    /// did. Never part of `cost_usd`, which is this price table's alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_reported_usd: Option<f64>,
    /// `--by session`: the session's last activity (RFC 3339 UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_activity_at: Option<String>,
    /// `--by machine`: the machine that pushed it (`--from`), else this
    /// one's label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// `--by model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `--by month`: YYYY-MM in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<String>,
    /// `--by project`; with `--by session`, the session's project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The contract and its version: `sessionkit.cost/1`.
    pub schema: String,
    /// `--by session`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `--by session`: the session's title (see `sessionkit.session/1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `--by user`: the person's label it was pushed with (`-`: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// `--by week`: the ISO week in the zone (`2026-W49`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub week: Option<String>,
    /// JSON Lines with `--totals`: the last line, every group summed (it
    /// has no keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<bool>,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// The name and version of `show --json`'s contract.
pub const SHOW_SCHEMA: &str = "sessionkit.show/1";

/// One session in full (`show`): the session's fields (as `sessions`
/// prints them), then its agents, models, degraded lines and compactions.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShowRecord {
    #[serde(flatten)]
    pub session: SessionRecord,
    pub by_agent: Vec<AgentDetail>,
    pub by_model: Vec<ModelTotals>,
    pub compactions: Vec<CompactionRecord>,
    /// Lines that could not be read, and why.
    pub degraded: Vec<DegradedLine>,
    /// The harness's own running totals (Claude Code 2.1.3xx cost-state), when it wrote them: never added to totals (`check` reports a difference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_reported: Option<HarnessReported>,
}

/// One agent of a session, with its totals.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentDetail {
    pub agent_id: String,
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub first_seen_at: Option<String>,
    pub last_seen_at: Option<String>,
    /// Where its records were: main, inline, flat, nested or workflow.
    pub layout: String,
    pub models: Vec<String>,
    pub parent_agent_id: Option<String>,
    /// Transcript records read for it.
    pub records: i64,
    /// The status in force (older than the watchdog window: unknown).
    pub status: String,
    pub transcript_path: String,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// A model's totals within a session.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelTotals {
    pub model: String,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// A compaction boundary.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompactionRecord {
    pub agent_id: String,
    pub at: Option<String>,
    /// The context size before it, as the harness reported.
    pub pre_tokens: Option<i64>,
    /// manual or auto (Claude Code); compress (Gemini CLI).
    pub trigger: Option<String>,
    /// The harness records none of the model calls that made it (Gemini
    /// CLI's compression): their tokens are in no total here.
    pub uncounted: bool,
}

/// A line that could not be read.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DegradedLine {
    pub file: String,
    pub line: i64,
    pub reason: String,
}

/// What the harness itself reported for a session.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HarnessReported {
    pub at: Option<String>,
    pub cache_read_tokens: u64,
    pub cache_write_1h_tokens: u64,
    pub cache_write_5m_tokens: u64,
    pub cost_nanousd: i64,
    pub cost_usd: f64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub web_searches: u64,
}

/// The name and version of `cost --segments`' rows.
pub const SEGMENT_SCHEMA: &str = "sessionkit.cost-segment/1";

/// One compaction segment of a session and its totals (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SegmentRecord {
    /// The tokens in context when the compaction that opens it began.
    pub pre_tokens: Option<i64>,
    /// The contract and its version: `sessionkit.cost-segment/1`.
    pub schema: &'static str,
    /// 0 for the session's start, then one per compaction.
    pub segment: usize,
    /// When the compaction that opens it happened (null for segment 0).
    pub starts_at: Option<String>,
    /// What started that compaction: auto or manual.
    pub trigger: Option<String>,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// The name and version of `limits --json`'s contract.
pub const LIMITS_SCHEMA: &str = "sessionkit.limits/1";

/// One usage-limit window (`limits`): a five-hour or seven-day window as
/// Claude Code's status line stated it, or a five-hour block derived from
/// message times where nothing was stated.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitRecord {
    /// The contract and its version: `sessionkit.limits/1`.
    pub schema: String,
    /// `5h` or `7d` (stated by the client), or `block` (derived from
    /// message times: a block starts at the first message after the last
    /// one ended, floored to the hour, and lasts five hours).
    #[schemars(extend("enum" = ["5h", "7d", "block"]))]
    pub window: String,
    /// When the window began (RFC 3339 UTC).
    pub starts_at: String,
    /// When it resets (ends).
    pub resets_at: String,
    /// The used share (0 to 100) the first snapshot of the window saw;
    /// null for a derived block.
    pub first_pct: Option<f64>,
    /// The used share the last snapshot saw.
    pub last_pct: Option<f64>,
    /// Snapshots of the window.
    pub snapshots: usize,
    /// Percentage points an hour from the first snapshot to the last (null
    /// with one, or for a block).
    pub pace_pct_per_hour: Option<f64>,
    /// True for a block derived from message times, not stated.
    pub estimated: bool,
    /// True for the window that holds now.
    pub active: bool,
    /// Minutes until the active window resets (null for the others).
    pub minutes_left: Option<i64>,
    /// What the active window will have cost when it resets, spending on
    /// at its pace so far (null for the others, and in its first minute).
    pub projected_cost_usd: Option<f64>,
    /// What the messages in the window (up to now) used and cost.
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// The name and version of `limits --snapshots`' contract.
pub const LIMIT_SNAPSHOT_SCHEMA: &str = "sessionkit.limit-snapshot/1";

/// One recorded change of the stated limits (`limits --snapshots`): what
/// Claude Code's status line said, when it said it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitSnapshotRecord {
    /// The contract and its version: `sessionkit.limit-snapshot/1`.
    pub schema: String,
    /// When the status line call saw it (RFC 3339 UTC).
    pub observed_at: String,
    pub session_id: Option<String>,
    pub model: Option<String>,
    /// The five-hour window's used share (0 to 100) and its reset.
    pub five_hour_pct: Option<f64>,
    pub five_hour_resets_at: Option<String>,
    /// The seven-day window's used share and its reset.
    pub seven_day_pct: Option<f64>,
    pub seven_day_resets_at: Option<String>,
    /// The context window's used share.
    pub context_pct: Option<f64>,
    /// The session's cost as Claude Code stated it, in dollars.
    pub stated_cost_usd: Option<f64>,
}

//! The JSON shapes commands print, field by field: the documented
//! contracts. Commands build their records here (or from these pieces);
//! the renderers in this module's siblings only lay them out.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::clock::{Millis, format_instant};
use crate::store::reports::{SessionRow, Totals};

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
        unknown_records: s.unknown_records,
        totals: totals_fields(&s.totals),
    }
}

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
    /// `--by day`: YYYY-MM-DD in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// `--by harness`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
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
    /// `--by project`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The contract and its version: `sessionkit.cost/1`.
    pub schema: String,
    /// `--by session`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `--by user`: the person's label it was pushed with (`-`: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// `--by week`: the ISO week's Monday, YYYY-MM-DD, in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub week: Option<String>,
    /// JSON Lines with `--totals`: the last line, every group summed (it
    /// has no keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<bool>,
    #[serde(flatten)]
    pub totals: TotalsFields,
}

/// The name and version of `sweep --json`'s contract.
pub const SWEEP_SCHEMA: &str = "sessionkit.sweep/1";

/// One change a sweep made (or, with `--dry-run`, would make).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum SweepChange {
    /// An agent whose last evidence is older than the watchdog window becomes unknown.
    Watchdog {
        agent_id: String,
        dry_run: bool,
        /// When the evidence behind its old status was seen.
        evidence_at: Option<String>,
        from: crate::domain::status::Status,
        /// The contract and its version: `sessionkit.sweep/1`.
        schema: String,
        session_id: String,
        to: crate::domain::status::Status,
    },
    /// A run silent past its lease and the grace period is closed.
    Lease {
        /// The harness of the run.
        agent: String,
        dry_run: bool,
        /// The run's last heartbeat.
        evidence_at: Option<String>,
        /// Always `stale`.
        from: String,
        run_id: String,
        /// The contract and its version: `sessionkit.sweep/1`.
        schema: String,
        session_id: String,
        /// Always `closed-implicit`.
        to: String,
    },
    /// The closer resolved a commitment a finished run completed.
    Resolve {
        /// The harness of the run.
        agent: String,
        dry_run: bool,
        /// The sentence of the run's own words that states it done.
        evidence: String,
        /// The commitment (`sessionkit unresolve ID` undoes it).
        memory_id: String,
        run_id: String,
        /// The contract and its version: `sessionkit.sweep/1`.
        schema: String,
        session_id: String,
    },
}

/// The name and version of `prune --json`'s contract.
pub const PRUNE_SCHEMA: &str = "sessionkit.prune/1";

/// What `prune` removed (or, with `--dry-run`, would remove).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PruneRecord {
    pub agents: u64,
    /// Sessions last active before this were removed.
    pub before: String,
    pub degraded_lines: u64,
    pub dry_run: bool,
    /// `--project`, when given.
    pub project: Option<String>,
    /// The contract and its version: `sessionkit.prune/1`.
    pub schema: String,
    pub sessions: u64,
    pub token_rows: u64,
}

/// The name and version of `config list --json`'s contract (and `config get`'s).
pub const CONFIG_SCHEMA: &str = "sessionkit.config/1";

/// One setting, as `config list` shows it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingRecord {
    /// Its value when nothing sets it.
    pub default: String,
    pub description: String,
    /// The environment variable that overrides it.
    pub env: String,
    pub key: String,
    /// The contract and its version: `sessionkit.config/1`.
    pub schema: String,
    /// Where the value in force comes from.
    #[schemars(extend("enum" = ["environment", "database", "default"]))]
    pub source: String,
    /// The value in force.
    pub value: String,
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

/// The name and version of `brief --json`'s contract.
pub const BRIEF_SCHEMA: &str = "sessionkit.brief/1";

/// `brief --format json`: the briefing as injected, with every candidate
/// by section (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BriefRecord<'a> {
    /// The token budget of the competing sections.
    pub budget_tokens: usize,
    /// The text's size in bytes.
    pub bytes: usize,
    /// The hard ceiling in bytes.
    pub max_bytes: usize,
    pub project: &'a str,
    /// The memories that rendered (in full or by name), in text order.
    pub rendered_ids: Vec<&'a str>,
    /// The contract and its version: `sessionkit.brief/1`.
    pub schema: &'static str,
    /// Every candidate, by section; a section without one is left out.
    pub sections: BriefSections<'a>,
    /// The briefing exactly as a hook injects it.
    pub text: &'a str,
    /// The text's size in tokens (estimated as the packer counts them).
    pub tokens: usize,
    /// Whether demand ranked the index (setting briefing.utility).
    pub utility_ranking: bool,
}

/// A briefing's candidates by section (names as `continuity::briefing::Section` has them).
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct BriefSections<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commitments: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overdue: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferences: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<BriefItem<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<BriefItem<'a>>,
}

impl<'a> BriefSections<'a> {
    /// The list a section's items go to.
    pub fn of(&mut self, s: crate::domain::briefing::Section) -> &mut Vec<BriefItem<'a>> {
        use crate::domain::briefing::Section as S;
        match s {
            S::Blockers => &mut self.blockers,
            S::Commitments => &mut self.commitments,
            S::Constraints => &mut self.constraints,
            S::Decisions => &mut self.decisions,
            S::Findings => &mut self.findings,
            S::Index => &mut self.index,
            S::Overdue => &mut self.overdue,
            S::Preferences => &mut self.preferences,
            S::Stages => &mut self.stages,
            S::Stale => &mut self.stale,
        }
    }
}

/// One candidate of a briefing and what became of it (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BriefItem<'a> {
    /// Its line's size in bytes.
    pub bytes: usize,
    /// Its full line, without the leading "- ".
    pub line: &'a str,
    pub memory_id: &'a str,
    /// full, named (on a names-only line), or "dropped: <why>".
    pub outcome: &'static str,
    pub rendered: bool,
    /// Its ranking score (higher first).
    pub score: f64,
    pub topic: &'a str,
}

/// The record of a built briefing.
pub fn brief_record<'a>(
    project: &'a str,
    b: &'a crate::domain::briefing::Briefing,
    candidates: &'a [crate::domain::briefing::Candidate],
    limits: &crate::domain::briefing::Limits,
    utility_ranking: bool,
) -> BriefRecord<'a> {
    let mut sections = BriefSections::default();
    for p in &b.placements {
        let c = &candidates[p.candidate];
        sections.of(p.section).push(BriefItem {
            bytes: p.bytes,
            line: &c.line,
            memory_id: &c.memory_id,
            outcome: p.outcome,
            rendered: p.rendered(),
            score: p.score,
            topic: &c.topic,
        });
    }
    BriefRecord {
        budget_tokens: limits.budget_tokens,
        bytes: b.bytes,
        max_bytes: limits.max_bytes,
        project,
        rendered_ids: b.rendered_ids(candidates),
        schema: BRIEF_SCHEMA,
        sections,
        text: &b.text,
        tokens: b.tokens,
        utility_ranking,
    }
}

/// The name and version of `pricing list`'s rows.
pub const PRICE_SCHEMA: &str = "sessionkit.price/1";

/// One model's price in force, in dollars per million tokens as exact
/// decimal strings (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct PriceRecord<'a> {
    pub cache_read: String,
    pub cache_write_1h: String,
    pub cache_write_5m: String,
    pub input: String,
    pub model: &'a str,
    pub output: String,
    /// The contract and its version: `sessionkit.price/1`.
    pub schema: &'static str,
    /// Where the price came from.
    #[schemars(extend("enum" = ["embedded", "custom", "import"]))]
    pub source: &'a str,
    /// Long-context tiers: `>THRESHOLD: INPUT/OUTPUT`.
    pub tiers: Vec<String>,
}

/// The name and version of `pricing set|import`'s record.
pub const PRICE_CHANGE_SCHEMA: &str = "sessionkit.price-change/1";

/// What `pricing set` or `pricing import` changed (fields in name order).
#[derive(Debug, Serialize, JsonSchema)]
pub struct PriceChangeRecord {
    /// How stored cost moved, in nano-dollars (exact).
    pub cost_delta_nanousd: i64,
    /// The same in dollars, rounded to 6 decimals.
    pub cost_delta_usd: f64,
    /// Models whose price was set.
    pub models: usize,
    /// Stored messages priced again.
    pub rows_repriced: u64,
    /// The contract and its version: `sessionkit.price-change/1`.
    pub schema: &'static str,
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

/// The name and version of `eval closer`'s contract.
pub const EVAL_SCHEMA: &str = "sessionkit.eval/1";

/// One labeled case replayed through the closer, or (`case` `(total)`) all
/// of them summed.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalRecord {
    /// The case's name, or `(total)`.
    pub case: String,
    /// The case's kind of phrasing (`inflection`, `negation`, ...), or the
    /// category a total row sums; `-` for none.
    pub category: String,
    /// The part of the set the case is in: the folder below the cases
    /// folder (`dev`: rules tuned on it; `test`: never), `-` at its top.
    pub split: String,
    /// The judge failed on it (for the total: on any case).
    pub failed: bool,
    /// Commitments the run completed and left to the closer.
    pub expected: usize,
    /// The judge that ran: `evidence`.
    pub judge: String,
    /// Milliseconds the replay took.
    pub ms: u64,
    /// Resolves the labels call right, over all resolves; null when none.
    pub precision: Option<f64>,
    /// Right resolves over `expected`; null when nothing was expected.
    pub recall: Option<f64>,
    /// Commitments the closer resolved.
    pub resolved: usize,
    /// Right resolves.
    pub right: usize,
    /// The contract and its version: `sessionkit.eval/1`.
    pub schema: String,
    /// Resolves of commitments the run did not complete.
    pub spurious: usize,
    /// Model tokens spent (0 for the evidence judge).
    pub tokens: u64,
}

pub const HOOKS_SCHEMA: &str = "sessionkit.hooks/1";

/// What `hooks install` or `hooks uninstall` did to one harness's settings.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HooksChangeRecord {
    #[schemars(extend("enum" = ["install", "uninstall"]))]
    pub action: String,
    /// Events that got a sessionkit handler.
    pub added: Vec<String>,
    /// Events whose hand-written `sessionkit hook` handler became the registered one.
    pub adopted: Vec<String>,
    /// Copies of the files as they were before the change.
    pub backups: Vec<String>,
    /// Whether a file changed (or, with --dry-run, would change).
    pub changed: bool,
    /// The unified diff of the change (only when there is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    pub dry_run: bool,
    /// The settings file.
    pub file: String,
    pub harness: String,
    /// Events a sessionkit handler was taken from.
    pub removed: Vec<String>,
    /// The contract and its version: `sessionkit.hooks/1`.
    pub schema: String,
    #[schemars(extend("enum" = ["user", "project"]))]
    pub scope: String,
    /// Codex: the config.toml whose hook trust entries changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trust_file: Option<String>,
    /// Events whose sessionkit handler was rewritten.
    pub updated: Vec<String>,
}

pub const HOOKS_STATUS_SCHEMA: &str = "sessionkit.hooks-status/1";

/// One event of one harness's settings, as `hooks status` shows it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookStandingRecord {
    /// The registered command line.
    pub command: Option<String>,
    /// The client's event name (`*` for a file with no sessionkit handler).
    pub event: String,
    pub file: String,
    pub harness: String,
    /// The contract and its version: `sessionkit.hooks-status/1`.
    pub schema: String,
    #[schemars(extend("enum" = ["user", "project"]))]
    pub scope: String,
    #[schemars(extend("enum" = ["registered", "missing", "hand-written", "extra", "untrusted", "stale-trust", "not installed", "unreadable"]))]
    pub state: String,
}

pub const HOOKS_DOCTOR_SCHEMA: &str = "sessionkit.hooks-doctor/1";

/// One check `hooks doctor` made.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookCheckRecord {
    /// What was checked (`settings`, `output`, `latency`, `trust`, `database`, `failures`).
    pub check: String,
    pub detail: String,
    /// The event, for a per-event check.
    pub event: Option<String>,
    /// How to fix it (a problem only).
    pub fix: Option<String>,
    pub harness: String,
    /// The hook's run time in milliseconds (output checks).
    pub ms: Option<u64>,
    pub ok: bool,
    /// The contract and its version: `sessionkit.hooks-doctor/1`.
    pub schema: String,
    pub scope: Option<String>,
}

/// The name and version of `sources`' contract.
pub const SOURCE_SCHEMA: &str = "sessionkit.source/1";

/// One agent found under one root (`sources`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceRecord {
    /// The root folder, as given or found.
    pub root: String,
    /// The agent whose sessions these are (`claude-code`, `codex`, `gemini`,
    /// `copilot`, `qwen-code`, `pi`), or `-` for a root where none was found.
    pub harness: String,
    /// Sessions found.
    pub sessions: u64,
    /// Of them, sessions the database holds (null without a database).
    pub ingested: Option<u64>,
    /// Bytes of their transcript files.
    pub bytes: u64,
    /// When the newest of their files last changed (RFC 3339, UTC).
    pub last_modified: Option<String>,
    /// Files under the root that are not read, by reason (the root's first row only).
    pub skipped: std::collections::BTreeMap<String, u64>,
    /// The contract and its version: `sessionkit.source/1`.
    pub schema: String,
}

/// The name and version of `push --json`'s contract.
pub const PUSH_SCHEMA: &str = "sessionkit.push/1";

/// What a push sent to a team database.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PushRecord {
    /// With --dry-run: what would be sent; nothing was.
    pub dry_run: bool,
    /// The label this machine's rows carry there.
    pub machine: String,
    /// Memories sent (only with --with-memory; null without it).
    pub memories: Option<u64>,
    /// Counted messages of the sessions sent.
    pub messages: u64,
    /// The contract and its version: `sessionkit.push/1`.
    pub schema: String,
    /// The version of sessionkit's tables in the team database (null with
    /// --dry-run: it was not reached).
    pub schema_version: Option<i32>,
    /// Agent runs sent (only with --with-memory; null without it).
    pub runs: Option<u64>,
    /// Sessions sent (changed since the last push to this database).
    pub sessions: u64,
    /// The database, its password masked.
    pub target: String,
    /// Sessions already there as they are.
    pub unchanged: u64,
}

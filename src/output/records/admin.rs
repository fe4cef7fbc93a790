//! Records of the keeping verbs: `sweep`, `prune`, `config`, `pricing`,
//! `sources`, `push`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
        /// How the judge read it: how the sentence names the commitment
        /// and how it says it is done (`topic+done-word`,
        /// `identifier+test-run`), or `endpoint` for the model's verdict.
        rule: String,
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

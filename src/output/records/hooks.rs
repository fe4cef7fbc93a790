//! Records of `hooks install`/`uninstall`, `hooks status` and `hooks doctor`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// The client's own file of MCP servers, when sessionkit's server in
    /// it changed (`--with-mcp`, and uninstall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_file: Option<String>,
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
    /// The client's event name (`*` for a file with no sessionkit handler;
    /// `mcp` for sessionkit's MCP server, where it is registered).
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

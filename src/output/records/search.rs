//! `search` and `show --at`: what was said, where.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The name and version of `search`'s contract.
pub const SEARCH_SCHEMA: &str = "sessionkit.search-hit/1";

/// One text a search found, where it was said last (within the filters).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchHitRecord {
    /// The contract and its version: `sessionkit.search-hit/1`.
    pub schema: String,
    pub session_id: String,
    /// The agent that said it: the session's id for the main agent.
    pub agent_id: String,
    /// The record's id in its transcript (what `show --at` takes).
    pub record: String,
    /// When it was said (RFC 3339 UTC), when the transcript says.
    pub at: Option<String>,
    /// user, assistant or tool.
    pub role: String,
    /// The tool's name, for a tool call or a tool's output.
    pub tool: Option<String>,
    /// A tool's output (indexed only with `search.tool_outputs` on).
    pub output: bool,
    pub harness: String,
    pub project: Option<String>,
    /// The session's title (see `sessionkit.session/1`).
    pub title: Option<String>,
    /// The text around the match, matched words between `**`.
    pub snippet: String,
    /// How many places said this very text (within the filters); the hit
    /// names the newest.
    pub places: u64,
    /// bm25 relevance, lower is better; 0 with `--newest`.
    pub score: f64,
    /// Further calls of the same tool by the same agent in the session that
    /// matched too, folded into this hit (a todo list sent every turn).
    pub similar: u64,
    /// The command that shows it in its conversation.
    pub open: String,
}

/// The name and version of `show --at`'s contract.
pub const SAID_SCHEMA: &str = "sessionkit.said/1";

/// One piece of a session's conversation (`show --at`): a prompt, an
/// answer, a tool call or output, as the search index holds it
/// (redacted).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaidRecord {
    /// The contract and its version: `sessionkit.said/1`.
    pub schema: String,
    pub session_id: String,
    pub agent_id: String,
    pub record: String,
    /// The piece's place in its record.
    pub piece: u32,
    pub at: Option<String>,
    pub role: String,
    pub tool: Option<String>,
    pub output: bool,
    pub text: String,
    /// This is the record `--at` named.
    pub focus: bool,
}

/// The name and version of `prune --index`'s contract.
pub const PRUNE_INDEX_SCHEMA: &str = "sessionkit.prune-index/1";

/// What `prune --index` dropped (or, with `--dry-run`, would drop).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PruneIndexRecord {
    /// The contract and its version: `sessionkit.prune-index/1`.
    pub schema: String,
    pub dry_run: bool,
    /// Places something was said.
    pub places: u64,
    /// Distinct texts, and the bytes they are stored in (deflated).
    pub texts: u64,
    pub text_bytes: u64,
    /// The database file's size before and after (the space is given back).
    pub file_bytes_before: u64,
    pub file_bytes_after: u64,
}

//! Wire types: what a Claude Code transcript line holds, as serde reads it.
//!
//! Only the fields sessionkit uses are named; everything else is skipped by
//! serde without being materialised. Strings borrow from the line when they
//! hold no escapes. These types never leave `transcript/`: `parse.rs` reduces
//! them to the domain values in `mod.rs`.

use std::borrow::Cow;

use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Record<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Option<Cow<'a, str>>,
    #[serde(rename = "sessionId", borrow)]
    pub session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub uuid: Option<Cow<'a, str>>,
    #[serde(rename = "parentUuid", borrow)]
    pub parent_uuid: Option<Cow<'a, str>>,
    #[serde(rename = "isSidechain")]
    pub is_sidechain: Option<bool>,
    #[serde(borrow)]
    pub cwd: Option<Cow<'a, str>>,
    #[serde(rename = "gitBranch", borrow)]
    pub git_branch: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub version: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub subtype: Option<Cow<'a, str>>,
    #[serde(rename = "compactMetadata")]
    pub compact_metadata: Option<CompactMetadata<'a>>,
    #[serde(borrow)]
    pub message: Option<Message<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Message<'a> {
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub model: Option<Cow<'a, str>>,
    pub usage: Option<Usage>,
}

/// Token counts as the API reported them. A missing count is 0; a negative or
/// fractional count makes the line malformed (serde refuses it as `u64`).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cache_creation_input_tokens: Option<u64>,
    pub cache_read_input_tokens: Option<u64>,
    pub cache_creation: Option<CacheCreation>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct CacheCreation {
    pub ephemeral_5m_input_tokens: Option<u64>,
    pub ephemeral_1h_input_tokens: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct CompactMetadata<'a> {
    #[serde(borrow)]
    pub trigger: Option<Cow<'a, str>>,
    #[serde(rename = "preTokens")]
    pub pre_tokens: Option<serde_json::Number>,
}

/// `agent-<id>.meta.json`: the sidecar Claude Code 2.1+ writes beside a subagent.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Sidecar {
    #[serde(rename = "agentType")]
    pub agent_type: Option<String>,
    pub description: Option<String>,
    #[serde(rename = "toolUseId")]
    pub tool_use_id: Option<String>,
    #[serde(rename = "spawnDepth")]
    pub spawn_depth: Option<i64>,
}

/// The record types Claude Code writes; any other `type` is skipped and counted.
pub(crate) const KNOWN_TYPES: &[&str] = &[
    "user",
    "assistant",
    "system",
    "summary",
    "progress",
    "queue-operation",
    "file-history-snapshot",
    "attachment",
    "custom-title",
    "agent-name",
    "tag",
];

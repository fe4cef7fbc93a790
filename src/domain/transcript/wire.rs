//! Wire types: what a Claude Code transcript line holds, as serde reads it
//! (and as `scan.rs` fills them for the lines it reads itself).
//!
//! Only the fields sessionkit uses are named; everything else is skipped by
//! serde without being materialised. Strings borrow from the line when they
//! hold no escapes. These types never leave `transcript/`: `parse.rs` reduces
//! them to the domain values in `mod.rs`.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde_json::value::RawValue;

/// A JSON string borrowed from the line when it has no escapes, owned when it
/// has. (serde borrows a bare `Cow<str>` field but not an `Option<Cow<str>>`,
/// which would allocate for every field of every line.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Text<'a>(pub Cow<'a, str>);

impl Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

#[derive(Default, Debug, PartialEq)]
pub(crate) struct Record<'a> {
    pub kind: Option<Text<'a>>,
    pub session_id: Option<Text<'a>>,
    pub timestamp: Option<Text<'a>>,
    pub uuid: Option<Text<'a>>,
    pub parent_uuid: Option<Text<'a>>,
    pub is_sidechain: Option<bool>,
    pub cwd: Option<Text<'a>>,
    pub git_branch: Option<Text<'a>>,
    pub version: Option<Text<'a>>,
    pub subtype: Option<Text<'a>>,
    pub compact_metadata: Option<CompactMetadata<'a>>,
    pub message: Option<Message<'a>>,
    /// Top-level `agentId` (progress records name a child here).
    pub agent_id: Option<Text<'a>>,
    /// Top-level `content` (a queue-operation's tagged text), unparsed.
    pub content: Lazy<'a>,
    /// `toolUseResult`, unparsed: read only for the result of a spawn.
    pub tool_use_result: Lazy<'a>,
}

#[derive(Default, Debug, PartialEq)]
pub(crate) struct Message<'a> {
    pub id: Option<Text<'a>>,
    pub model: Option<Text<'a>>,
    pub usage: Option<Usage>,
    /// The content blocks, unparsed: kept only when the record may hold a
    /// spawn call or a spawn's result (most bytes of a transcript are content
    /// that counting never needs).
    pub content: Lazy<'a>,
}

/// Token counts as the API reported them. A missing count is 0; a negative or
/// fractional count makes the line malformed (serde refuses it as `u64`).
#[derive(Default, Debug, PartialEq)]
pub(crate) struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cache_creation_input_tokens: Option<u64>,
    pub cache_read_input_tokens: Option<u64>,
    pub cache_creation: Option<CacheCreation>,
    /// `speed`: "fast" requests bill at the model's fast rates.
    pub speed: Option<Fast>,
    /// `inference_geo`: "us" (US-only inference) bills at a multiplier.
    pub inference_geo: Option<UsOnly>,
    pub server_tool_use: Option<ServerToolUse>,
}

/// `usage.server_tool_use`: server-side tools billed per request.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct ServerToolUse {
    pub web_search_requests: Option<u64>,
}

/// Strings that matter only as whether they equal one word, read without
/// keeping them.
macro_rules! word_flag {
    ($ty:ident, $word:literal) => {
        #[derive(Default, Debug, PartialEq, Clone, Copy)]
        pub(crate) struct $ty(pub bool);

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$ty, E> {
                        Ok($ty(v == $word))
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

word_flag!(Fast, "fast");
word_flag!(UsOnly, "us");

#[derive(Default, Debug, PartialEq)]
pub(crate) struct CacheCreation {
    pub ephemeral_5m_input_tokens: Option<u64>,
    pub ephemeral_1h_input_tokens: Option<u64>,
}

#[derive(Default, Debug, PartialEq)]
pub(crate) struct CompactMetadata<'a> {
    pub trigger: Option<Text<'a>>,
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
    /// Claude Code 2.1.3xx marks a background agent's sidecar when it ends.
    pub finished: Option<bool>,
    /// Qwen Code writes its agent's state (`running`, `completed`, …)
    /// into its sidecar as it goes.
    pub status: Option<String>,
    /// The model the agent ran on (Qwen Code's sidecars).
    pub model: Option<String>,
}

/// One content block, as far as the tree needs it: `tool_use` blocks (spawn
/// calls) and `tool_result` blocks (their results). Read only on the rare
/// records whose content is kept, so plain owned strings are fine.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Block {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub input: Option<SpawnInput>,
    pub tool_use_id: Option<String>,
    pub is_error: Option<bool>,
}

/// The input of a `Task`, `Agent` or `Workflow` call.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct SpawnInput {
    pub prompt: Option<String>,
    pub subagent_type: Option<String>,
    pub description: Option<String>,
    pub workflow_id: Option<String>,
}

/// A spawn's `toolUseResult`: the child it started and what it reported.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct SpawnResultWire {
    #[serde(rename = "agentId")]
    pub agent_id: Option<String>,
    #[serde(rename = "totalTokens")]
    pub total_tokens: Option<u64>,
    pub usage: Option<Usage>,
    pub status: Option<String>,
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
    "ai-title",
    "agent-name",
    "tag",
];

/// A value kept as its raw JSON text when the line is read with `capture`
/// (`read`); otherwise skipped like any unknown field.
#[derive(Default, Clone, Copy, Debug)]
pub(crate) struct Lazy<'a>(pub Option<&'a RawValue>);

/// Two lazy values are equal when they kept the same raw text.
impl PartialEq for Lazy<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.map(RawValue::get) == other.0.map(RawValue::get)
    }
}

/// Reads a `Lazy`: its raw text when `capture`, else skipped unread.
#[derive(Clone, Copy)]
struct LazySeed {
    capture: bool,
}

impl<'de> DeserializeSeed<'de> for LazySeed {
    type Value = Lazy<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Lazy<'de>, D::Error> {
        if self.capture {
            Ok(Lazy(Some(<&RawValue>::deserialize(d)?)))
        } else {
            de::IgnoredAny::deserialize(d)?;
            Ok(Lazy(None))
        }
    }
}

/// A map key as raw bytes: matched without UTF-8 validation (serde_json reads
/// a key asked for as bytes without checking it, which a derived field
/// identifier does for every key of every line).
struct Key<'a>(Cow<'a, [u8]>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Key<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v.to_vec())))
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Borrowed(v.as_bytes())))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v.as_bytes().to_vec())))
            }
        }
        d.deserialize_bytes(V(std::marker::PhantomData))
    }
}

/// The body of a wire struct's `visit_map`: named keys fill fields, any other
/// key's value is skipped unread.
macro_rules! wire_fields {
    ($ty:ident, $map:ident, { $($key:literal => $field:ident),* }) => {{
        let mut map = $map;
        let mut out = $ty::default();
        while let Some(k) = map.next_key::<Key<'_>>()? {
            match &*k.0 {
                $($key => out.$field = map.next_value()?,)*
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }};
}

/// Implements `Deserialize` for a wire struct: named keys fill fields, any
/// other key's value is skipped unread, a missing key leaves the default.
macro_rules! wire_struct {
    ($ty:ident<$lt:lifetime> { $($key:literal => $field:ident),* $(,)? }) => {
        impl<'de: $lt, $lt> Deserialize<'de> for $ty<$lt> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V<$lt>(std::marker::PhantomData<&$lt ()>);
                impl<'de: $lt, $lt> Visitor<'de> for V<$lt> {
                    type Value = $ty<$lt>;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a ", stringify!($ty), " object"))
                    }
                    fn visit_map<M: de::MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
                        wire_fields!($ty, map, { $($key => $field),* })
                    }
                }
                d.deserialize_map(V(std::marker::PhantomData))
            }
        }
    };
    ($ty:ident { $($key:literal => $field:ident),* $(,)? }) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a ", stringify!($ty), " object"))
                    }
                    fn visit_map<M: de::MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
                        wire_fields!($ty, map, { $($key => $field),* })
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

/// Reads one transcript line. With `capture`, the `Lazy` fields keep their
/// raw text; without, they are skipped unread (and unvalidated): the parser
/// reads most lines without and only the few whose content matters with.
pub(crate) fn read(line: &[u8], capture: bool) -> serde_json::Result<Record<'_>> {
    let mut d = serde_json::Deserializer::from_slice(line);
    let r = RecordSeed { capture }.deserialize(&mut d)?;
    d.end()?;
    Ok(r)
}

/// Reads a `Record`, its lazy fields as `capture` says.
struct RecordSeed {
    capture: bool,
}

impl<'de> DeserializeSeed<'de> for RecordSeed {
    type Value = Record<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Record<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RecordSeed {
    type Value = Record<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Record object")
    }
    fn visit_map<M: de::MapAccess<'de>>(self, mut map: M) -> Result<Record<'de>, M::Error> {
        let lazy = LazySeed {
            capture: self.capture,
        };
        let mut out = Record::default();
        while let Some(k) = map.next_key::<Key<'_>>()? {
            match &*k.0 {
                b"type" => out.kind = map.next_value()?,
                b"sessionId" => out.session_id = map.next_value()?,
                b"timestamp" => out.timestamp = map.next_value()?,
                b"uuid" => out.uuid = map.next_value()?,
                b"parentUuid" => out.parent_uuid = map.next_value()?,
                b"isSidechain" => out.is_sidechain = map.next_value()?,
                b"cwd" => out.cwd = map.next_value()?,
                b"gitBranch" => out.git_branch = map.next_value()?,
                b"version" => out.version = map.next_value()?,
                b"subtype" => out.subtype = map.next_value()?,
                b"compactMetadata" => out.compact_metadata = map.next_value()?,
                b"message" => out.message = map.next_value_seed(MessageSeed(lazy))?,
                b"agentId" => out.agent_id = map.next_value()?,
                b"content" => out.content = map.next_value_seed(lazy)?,
                b"toolUseResult" => out.tool_use_result = map.next_value_seed(lazy)?,
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

/// Reads an optional `Message` (null is none), its content as `LazySeed` says.
struct MessageSeed(LazySeed);

impl<'de> DeserializeSeed<'de> for MessageSeed {
    type Value = Option<Message<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for MessageSeed {
    type Value = Option<Message<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Message object")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self).map(Some).map(Option::flatten)
    }
    fn visit_map<M: de::MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut out = Message::default();
        while let Some(k) = map.next_key::<Key<'_>>()? {
            match &*k.0 {
                b"content" => out.content = map.next_value_seed(self.0)?,
                b"id" => out.id = map.next_value()?,
                b"model" => out.model = map.next_value()?,
                b"usage" => out.usage = map.next_value()?,
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

wire_struct!(Usage {
    b"input_tokens" => input_tokens,
    b"output_tokens" => output_tokens,
    b"cache_creation_input_tokens" => cache_creation_input_tokens,
    b"cache_read_input_tokens" => cache_read_input_tokens,
    b"cache_creation" => cache_creation,
    b"speed" => speed,
    b"inference_geo" => inference_geo,
    b"server_tool_use" => server_tool_use,
});

wire_struct!(ServerToolUse {
    b"web_search_requests" => web_search_requests,
});

wire_struct!(CacheCreation {
    b"ephemeral_5m_input_tokens" => ephemeral_5m_input_tokens,
    b"ephemeral_1h_input_tokens" => ephemeral_1h_input_tokens,
});

wire_struct!(CompactMetadata<'a> {
    b"trigger" => trigger,
    b"preTokens" => pre_tokens,
});

/// A `cost-state` record (Claude Code 2.1.3xx): the harness's own totals.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct CostState {
    #[serde(rename = "totalCostUSD")]
    pub total_cost_usd: Option<f64>,
    #[serde(rename = "modelUsage")]
    pub model_usage: std::collections::BTreeMap<String, ModelUsage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct ModelUsage {
    #[serde(rename = "inputTokens")]
    pub input_tokens: u64,
    #[serde(rename = "outputTokens")]
    pub output_tokens: u64,
    #[serde(rename = "cacheReadInputTokens")]
    pub cache_read_input_tokens: u64,
    #[serde(rename = "cacheCreationInputTokens")]
    pub cache_creation_input_tokens: u64,
    #[serde(rename = "cacheCreationEphemeral5mInputTokens")]
    pub cache_creation_5m: Option<u64>,
    #[serde(rename = "cacheCreationEphemeral1hInputTokens")]
    pub cache_creation_1h: Option<u64>,
    #[serde(rename = "webSearchRequests")]
    pub web_search_requests: u64,
    #[serde(rename = "costUSD")]
    pub cost_usd: f64,
}

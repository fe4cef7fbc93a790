//! Harness adapters: a hook's stdin JSON → one normalized event → the status
//! evidence it carries. Pure: the caller reads stdin, the environment and the
//! clock, and stores what this returns.

mod declared;
pub mod redact;
pub mod sender;

pub use declared::{
    Answers, Block, Consent, Detect, Env, Form, Handler, Handlers, Hooks, Layout, Listed, MARK,
    McpForm, McpServers, Output, Owned, OwnedFile, Registration, Settings, as_read, decision_keys,
    extend, listed, marker, no_env, no_env_sign, set, specific_output, str_of, takes_none,
};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::domain::clock::Millis;
use crate::domain::status::{Cause, Evidence, Status};

/// A harness sessionkit speaks to: a client's hooks, as its declaration
/// has them (`Hooks`).
#[derive(Clone, Copy)]
pub struct Harness(&'static Hooks);

impl Harness {
    /// Its name (`--harness`, stored events and runs).
    pub fn as_str(self) -> &'static str {
        self.0.name
    }

    /// Its declaration.
    pub fn hooks(self) -> &'static Hooks {
        self.0
    }

    /// The harness named `name` (its name or an alias, any case).
    pub fn named(name: &str) -> Option<Harness> {
        let name = name.to_ascii_lowercase();
        all().find(|h| h.0.name == name || h.0.aliases.contains(&name.as_str()))
    }
}

impl std::ops::Deref for Harness {
    type Target = Hooks;
    fn deref(&self) -> &Hooks {
        self.0
    }
}

impl PartialEq for Harness {
    fn eq(&self, other: &Harness) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Harness {}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

/// Every harness, in the order commands list them: each client's that has
/// hooks, then those with hooks only.
pub fn all() -> impl Iterator<Item = Harness> {
    crate::domain::clients::harnesses().map(Harness)
}

/// The variables harnesses set for their hooks to name the project's root
/// (those of each one's `hook_env` that carry the root), in `all()`'s order.
pub fn project_dir_vars() -> Vec<&'static str> {
    const ROOT: &str = "/project root/";
    let mut vars: Vec<&'static str> = Vec::new();
    for (k, v) in all().flat_map(|h| (h.settings.hook_env)(ROOT)) {
        if v == ROOT && !vars.contains(&k) {
            vars.push(k);
        }
    }
    vars
}

/// The harness names and aliases, as `--harness` takes them where hooks
/// are meant: an alias is read as its harness.
pub fn harness_arg() -> impl clap::builder::TypedValueParser<Value = Harness> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(all().map(|h| {
        clap::builder::PossibleValue::new(h.0.name)
            .aliases(h.0.aliases.iter().copied())
            .help(h.0.label)
    }))
    .map(|given| Harness::named(&given).expect("a possible value names a harness"))
}

/// The session id `hooks doctor`'s sample payloads carry.
pub const DOCTOR_SESSION: &str = "00000000-d0c7-4000-8000-000000000001";

/// Why a hook's input was not an event (nothing is stored).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    #[error("hook input is not JSON ({0})")]
    NotJson(String),
    #[error("hook input is a JSON {0}, not an object")]
    NotObject(&'static str),
    #[error("hook input is over {limit} bytes")]
    TooLarge { limit: usize },
}

/// The largest hook input accepted (a `Stop` with a long final message is
/// tens of kilobytes).
pub const MAX_INPUT: usize = 4 << 20;

/// Parses hook input: a UTF-8 BOM and surrounding whitespace are ignored.
/// `Ok(None)` for empty input (a no-op).
pub fn parse_input(bytes: &[u8]) -> Result<Option<Map<String, Value>>, InputError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = bytes.trim_ascii();
    if bytes.is_empty() {
        return Ok(None);
    }
    // A lone surrogate escape is replaced and the payload stored, flagged
    // (`sessionkit_lossy`), rather than refused and lost.
    let parsed = match serde_json::from_slice::<Value>(bytes) {
        Err(e) => match replace_lone_surrogates(bytes) {
            Some(fixed) => serde_json::from_slice::<Value>(&fixed).map(|v| match v {
                Value::Object(mut m) => {
                    m.insert(
                        "sessionkit_lossy".into(),
                        Value::String("lone surrogate escapes replaced by U+FFFD".into()),
                    );
                    Value::Object(m)
                }
                other => other,
            }),
            None => Err(e),
        },
        ok => ok,
    };
    match parsed {
        Ok(Value::Object(m)) => Ok(Some(m)),
        Ok(other) => Err(InputError::NotObject(match other {
            Value::Array(_) => "array",
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            _ => "null",
        })),
        Err(e) => Err(InputError::NotJson(format!(
            "line {} column {}",
            e.line(),
            e.column()
        ))),
    }
}

/// `bytes` with every lone UTF-16 surrogate escape (`\ud800` with no low
/// half after it, a low half with no high one before it) replaced by
/// `\ufffd`; `None` when there is none. Claude Code and other clients can
/// cut a string inside a surrogate pair; serde_json refuses the payload,
/// which would lose the event.
fn replace_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    let hex = |at: usize| -> Option<u16> {
        let h = bytes.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u16> {
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match escape_at(i) {
            Some(0xD800..=0xDBFF) => {
                if matches!(escape_at(i + 6), Some(0xDC00..=0xDFFF)) {
                    out.extend_from_slice(&bytes[i..i + 12]);
                    i += 12;
                } else {
                    out.extend_from_slice(b"\\ufffd");
                    changed = true;
                    i += 6;
                }
            }
            Some(0xDC00..=0xDFFF) => {
                out.extend_from_slice(b"\\ufffd");
                changed = true;
                i += 6;
            }
            _ => {
                // Any other escape: copy it whole (an escaped backslash
                // must not start an escape of its own).
                let n = if bytes.get(i + 1).is_some() { 2 } else { 1 };
                out.extend_from_slice(&bytes[i..i + n]);
                i += n;
            }
        }
    }
    changed.then_some(out)
}

/// Which harness sent the payload: the flag, then the environment (each
/// harness's own variables), then the payload's shape (each harness's test,
/// in the order of its rank).
pub fn detect(
    flag: Option<Harness>,
    env: impl Fn(&str) -> Option<String>,
    p: &Map<String, Value>,
) -> Harness {
    if let Some(h) = flag {
        return h;
    }
    let env: Env<'_> = &env;
    let mut ranked: Vec<Harness> = all().collect();
    ranked.sort_by_key(|h| h.0.detect.rank);
    if let Some(h) = ranked.iter().copied().find(|h| (h.0.detect.env)(env)) {
        return h;
    }
    ranked
        .iter()
        .copied()
        .find(|h| (h.0.detect.payload)(env, p))
        .or_else(|| ranked.last().copied())
        .expect("a harness is declared")
}

/// What an event means for status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Stop,
    SubagentStop,
    StopFailure,
    Interrupt,
    PromptSubmit,
    Tool,
    SubagentStart,
    SessionStart,
    SessionEnd,
    PreCompact,
    Other,
}

impl Kind {
    /// What an event means, by its name as its harness sends it (each
    /// harness declares its own names, `Hooks::kinds`); `Other` for a name
    /// no harness declares.
    pub fn of(event: &str) -> Kind {
        all()
            .find_map(|h| h.0.kinds.iter().find(|(name, _)| *name == event))
            .map_or(Kind::Other, |(_, kind)| *kind)
    }
}

/// One hook delivery, normalized.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEvent {
    pub harness: Harness,
    /// The event name as the harness sent it ("unknown" when it sent none).
    pub event: String,
    pub kind: Kind,
    pub session_id: Option<String>,
    /// The agent the event names: the payload's, else the id in the file
    /// name of `agent_transcript_path` (`agent-<id>.jsonl`).
    pub agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub transcript_path: Option<String>,
    pub agent_transcript_path: Option<String>,
    pub cwd: Option<String>,
    /// `SessionStart`'s source (`startup`, `resume`, `compact`...).
    pub source: Option<String>,
    /// The payload with secrets redacted: what is stored and hashed.
    pub payload: Value,
}

/// Normalizes a parsed payload. `fallback_event` names the event when the
/// payload does not (the `hook <event>` command's own).
pub fn normalize(
    harness: Harness,
    raw: &Map<String, Value>,
    fallback_event: Option<&str>,
) -> HookEvent {
    let payload = redact::redact(&Value::Object(raw.clone()));
    let p = payload.as_object().expect("an object stays an object");
    let get = |keys: &[&str]| str_of(p, keys).map(str::to_string);
    let event = get(&["hook_event_name", "hookEventName", "hookName"])
        .or(fallback_event.map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string());
    let agent_transcript_path = get(&["agent_transcript_path", "agentTranscriptPath"]);
    let transcript_path = get(&["transcript_path", "transcriptPath"]);
    let agent_id = get(&["agent_id", "agentId"]).or_else(|| {
        [&agent_transcript_path, &transcript_path]
            .into_iter()
            .flatten()
            .find_map(|t| agent_of_path(t))
    });
    let cwd = get(&["cwd"]).or_else(|| {
        p.get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let mut ev = HookEvent {
        harness,
        kind: Kind::of(&event),
        event,
        session_id: get(&["session_id", "sessionId", "conversation_id"]),
        agent_id,
        // An empty agent_type is kept: it marks `/compact`'s forks.
        agent_type: ["agent_type", "agentType"]
            .iter()
            .find_map(|k| p.get(*k).and_then(Value::as_str))
            .map(str::to_string),
        transcript_path,
        agent_transcript_path,
        cwd,
        source: get(&["source"]),
        payload,
    };
    (harness.0.normalize)(&mut ev);
    ev
}

/// `.../agent-<id>.jsonl` → `<id>`.
fn agent_of_path(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next()?;
    let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
    (!id.is_empty()).then(|| id.to_string())
}

/// Whose status an event speaks to, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// No status change (the event is only recorded).
    None,
    /// A `SubagentStop` that names the main agent, or no agent: refused.
    Refused,
    /// The agent `agent_id` of the event's session (the main agent's id is
    /// the session id).
    Agent {
        agent_id: String,
        evidence: Evidence,
    },
}

impl HookEvent {
    /// The status evidence this event carries, received at `at`.
    pub fn target(&self, at: Millis) -> Target {
        target_of(
            self.kind,
            self.session_id.as_deref(),
            self.agent_id.as_deref(),
            self.agent_type.as_deref(),
            self.source.as_deref(),
            at,
        )
    }
}

/// [`HookEvent::target`] from stored columns (applying events at ingest).
pub fn target_of(
    kind: Kind,
    session_id: Option<&str>,
    agent_id: Option<&str>,
    agent_type: Option<&str>,
    source: Option<&str>,
    at: Millis,
) -> Target {
    let Some(sid) = session_id else {
        return Target::None;
    };
    let main = |status, cause| Target::Agent {
        agent_id: sid.to_string(),
        evidence: Evidence::new(status, Some(at), cause),
    };
    // Tool and start events of a subagent speak for it; others for the main agent.
    let own = |status, cause| match agent_id {
        Some(a) => Target::Agent {
            agent_id: a.to_string(),
            evidence: Evidence::new(status, Some(at), cause),
        },
        None => main(status, cause),
    };
    match kind {
        Kind::Stop => main(Status::Waiting, Cause::StopHook),
        Kind::StopFailure => main(Status::Error, Cause::StopFailure),
        Kind::Interrupt => main(Status::Waiting, Cause::UserInterrupt),
        Kind::PromptSubmit => main(Status::Working, Cause::PromptSubmit),
        Kind::SessionEnd => main(Status::Completed, Cause::SessionEnd),
        Kind::SessionStart => match source {
            Some("compact") => main(Status::Working, Cause::SessionStart),
            _ => main(Status::Waiting, Cause::SessionStart),
        },
        Kind::Tool => own(Status::Working, Cause::ToolHook),
        Kind::SubagentStart => match agent_id {
            Some(a) if a != sid => own(Status::Working, Cause::ToolHook),
            _ => Target::None,
        },
        // `/compact` forks summarizers that fire SubagentStop with an empty
        // agent_type and a transcript that is never written: not subagents
        //. Recorded, nothing more.
        Kind::SubagentStop if agent_type == Some("") => Target::None,
        Kind::SubagentStop => match agent_id {
            Some(a) if a != sid => own(Status::Completed, Cause::SubagentStop),
            _ => Target::Refused,
        },
        Kind::PreCompact | Kind::Other => Target::None,
    }
}

/// The idempotency key: sha256 over the canonical JSON (sorted keys, no
/// whitespace) of the redacted payload, event name, session id and delivery
/// id, or without a delivery id the client process that sent it
/// (`sender::client`); what is absent is left out, not null.
pub fn event_key(ev: &HookEvent, delivery_id: Option<&str>, client: Option<&str>) -> [u8; 32] {
    let mut material = Map::new();
    material.insert("event".into(), Value::String(ev.event.clone()));
    if let Some(s) = &ev.session_id {
        material.insert("session_id".into(), Value::String(s.clone()));
    }
    if let Some(d) = delivery_id {
        material.insert("delivery_id".into(), Value::String(d.to_string()));
    } else if let Some(c) = client {
        material.insert("client".into(), Value::String(c.to_string()));
    }
    material.insert("payload".into(), ev.payload.clone());
    Sha256::digest(canonical(&Value::Object(material)).as_bytes()).into()
}

/// Canonical JSON: object keys sorted (serde_json's map is ordered by key),
/// no whitespace.
pub fn canonical(v: &Value) -> String {
    serde_json::to_string(v).expect("a JSON value serializes")
}

#[cfg(test)]
mod tests;

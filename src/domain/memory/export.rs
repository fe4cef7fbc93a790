//! The export file (`sessionkit export`, `sessionkit import`): JSON Lines,
//! one memory, commitment or event per line, keys sorted, every line
//! carrying the contract `sessionkit.export/1` (a file written before the
//! field existed reads the same). Writing and reading are both here, so the
//! two cannot drift; the store checks what it would change.

use anyhow::{Context, Result, bail};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::{
    Commitment, CommitmentStatus, EventKind, Kind, Memory, MemoryEvent, MemoryStatus, content_hash,
};
use crate::domain::clock::{Rfc3339, parse_instant};

/// The name and version of an export line's contract.
pub const EXPORT_SCHEMA: &str = "sessionkit.export/1";

/// One line of an export, told apart by `type`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ExportLine<'a> {
    Memory(ExportMemory<'a>),
    Commitment(ExportCommitment<'a>),
    Event(ExportEvent<'a>),
}

/// A memory as exported: everything stored but what is derived (state,
/// due date: the commitment line has it).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportMemory<'a> {
    pub content: &'a str,
    pub created_at: Rfc3339,
    pub description: Option<&'a str>,
    pub kind: Kind,
    pub memory_id: &'a str,
    pub pinned: bool,
    pub project: &'a str,
    pub redacted: bool,
    /// `sessionkit.export/1`.
    pub schema: &'static str,
    pub scope: &'a str,
    pub status: MemoryStatus,
    pub supersedes: Option<&'a str>,
    pub tags: &'a [String],
    pub topic: &'a str,
    pub updated_at: Rfc3339,
    pub valid_from: Rfc3339,
    pub valid_to: Option<Rfc3339>,
}

/// A commitment, after every memory line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportCommitment<'a> {
    pub due_at: Option<Rfc3339>,
    pub memory_id: &'a str,
    pub owner: Option<&'a str>,
    pub resolved_at: Option<Rfc3339>,
    /// `sessionkit.export/1`.
    pub schema: &'static str,
    pub status: CommitmentStatus,
    pub updated_at: Rfc3339,
}

/// An audit event, after every commitment line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportEvent<'a> {
    pub actor: &'a str,
    pub created_at: Rfc3339,
    pub event_id: &'a str,
    pub kind: EventKind,
    pub memory_id: &'a str,
    pub reason: Option<&'a str>,
    /// `sessionkit.export/1`.
    pub schema: &'static str,
    pub session_run_id: Option<&'a str>,
}

/// The lines of an export, in file order: memories, their commitments,
/// then events.
pub fn export_lines<'a>(
    memories: &'a [Memory],
    events: &'a [MemoryEvent],
) -> impl Iterator<Item = ExportLine<'a>> {
    let memory = memories.iter().map(|m| {
        ExportLine::Memory(ExportMemory {
            content: &m.content,
            created_at: Rfc3339(m.created_at),
            description: m.description.as_deref(),
            kind: m.kind,
            memory_id: &m.memory_id,
            pinned: m.pinned,
            project: &m.project,
            redacted: m.content_hash.is_none(),
            schema: EXPORT_SCHEMA,
            scope: &m.scope,
            status: m.status,
            supersedes: m.supersedes.as_deref(),
            tags: &m.tags,
            topic: &m.topic,
            updated_at: Rfc3339(m.updated_at),
            valid_from: Rfc3339(m.valid_from),
            valid_to: m.valid_to.map(Rfc3339),
        })
    });
    let commitment = memories.iter().filter_map(|m| {
        let c = m.commitment.as_ref()?;
        Some(ExportLine::Commitment(ExportCommitment {
            due_at: c.due_at.map(Rfc3339),
            memory_id: &m.memory_id,
            owner: c.owner.as_deref(),
            resolved_at: c.resolved_at.map(Rfc3339),
            schema: EXPORT_SCHEMA,
            status: c.status,
            updated_at: Rfc3339(c.updated_at),
        }))
    });
    let event = events.iter().map(|e| {
        ExportLine::Event(ExportEvent {
            actor: &e.actor,
            created_at: Rfc3339(e.created_at),
            event_id: &e.event_id,
            kind: e.kind,
            memory_id: &e.memory_id,
            reason: e.reason.as_deref(),
            schema: EXPORT_SCHEMA,
            session_run_id: e.session_run_id.as_deref(),
        })
    });
    memory.chain(commitment).chain(event)
}

/// A line an import cannot take, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub line: usize,
    /// The line's `type` (`?` when it has none).
    pub kind: String,
    /// Its memory or event id, when it names one.
    pub id: String,
    pub reason: String,
}

/// One line of an export file, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Memory(Memory),
    /// A commitment and the id of the memory it belongs to.
    Commitment(String, Commitment),
    Event(MemoryEvent),
}

/// Reads one line of an export (`line` is its number, for a rejection):
/// its record, or why it cannot be taken. A blank line is `Ok(None)`.
pub fn read_line(line: usize, l: &str) -> Result<Option<Record>, Rejected> {
    if l.trim().is_empty() {
        return Ok(None);
    }
    let reject = |kind: &str, id: String, reason: String| Rejected {
        line,
        kind: kind.to_string(),
        id,
        reason,
    };
    let v: Value = serde_json::from_str(l)
        .map_err(|e| reject("?", String::new(), format!("not JSON: {e}")))?;
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("?");
    let parsed = version(&v).and_then(|()| match kind {
        "memory" => memory_of(&v).map(Record::Memory),
        "commitment" => {
            commitment_of(&v).and_then(|c| Ok(Record::Commitment(id(&v, "memory_id")?, c)))
        }
        "event" => event_of(&v).map(Record::Event),
        other => Err(anyhow::anyhow!("unknown record type {other:?}")),
    });
    parsed.map(Some).map_err(|e| {
        let id = ["memory_id", "event_id"]
            .iter()
            .find_map(|k| opt_text(&v, k))
            .unwrap_or_default();
        reject(kind, id, format!("{e:#}"))
    })
}

/// Whether a line may be a commitment record, without reading it as a
/// whole: its `type` alone, read only where the word (or an escape that
/// could spell it) is in the line.
pub fn may_be_commitment(l: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Type<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    (l.contains("commitment") || l.contains("\\u"))
        && serde_json::from_str::<Type<'_>>(l)
            .map_or(true, |t| t.kind.as_deref() == Some("commitment"))
}

/// A line names this contract, or none (written before lines named it).
fn version(v: &Value) -> Result<()> {
    match v.get("schema") {
        None => Ok(()),
        Some(Value::String(s)) if s == EXPORT_SCHEMA => Ok(()),
        Some(other) => {
            bail!("schema {other} is not {EXPORT_SCHEMA:?} (a newer sessionkit wrote it?)")
        }
    }
}

fn text<'a>(v: &'a Value, k: &str) -> Result<&'a str> {
    v.get(k)
        .and_then(Value::as_str)
        .with_context(|| format!("no {k:?} string"))
}

fn opt_text(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn instant(v: &Value, k: &str) -> Result<Option<crate::domain::clock::Millis>> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse_instant(s)
            .map(Some)
            .with_context(|| format!("{k} {s:?} is not an RFC 3339 instant")),
        Some(other) => bail!("{k} is {other}, not a time"),
    }
}

fn required_instant(v: &Value, k: &str) -> Result<crate::domain::clock::Millis> {
    instant(v, k)?.with_context(|| format!("no {k:?}"))
}

fn memory_of(v: &Value) -> Result<Memory> {
    let content = text(v, "content")?.to_string();
    let redacted = v.get("redacted").and_then(Value::as_bool).unwrap_or(false);
    let tags = match v.get("tags") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|t| {
                t.as_str()
                    .map(str::to_string)
                    .context("a tag is not a string")
            })
            .collect::<Result<Vec<_>>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => bail!("tags is not an array"),
    };
    Ok(Memory {
        memory_id: id(v, "memory_id")?,
        kind: Kind::parse(text(v, "kind")?)?,
        topic: text(v, "topic")?.to_string(),
        description: opt_text(v, "description"),
        content_hash: (!redacted).then(|| content_hash(&content)),
        content,
        project: text(v, "project")?.to_string(),
        scope: text(v, "scope")?.to_string(),
        tags,
        status: MemoryStatus::parse(text(v, "status")?)?,
        pinned: v.get("pinned").and_then(Value::as_bool).unwrap_or(false),
        supersedes: opt_text(v, "supersedes")
            .map(|s| checked_id("supersedes", s))
            .transpose()?,
        valid_from: required_instant(v, "valid_from")?,
        valid_to: instant(v, "valid_to")?,
        created_at: required_instant(v, "created_at")?,
        updated_at: required_instant(v, "updated_at")?,
        commitment: None,
    })
}

/// An id as sessionkit writes them: a UUID in its hyphenated lowercase form.
fn checked_id(field: &str, s: String) -> Result<String> {
    match uuid::Uuid::try_parse(&s) {
        Ok(u) if u.hyphenated().to_string() == s => Ok(s),
        _ => bail!("{field} {s:?} is not an id (a lowercase hyphenated UUID)"),
    }
}

fn id(v: &Value, field: &str) -> Result<String> {
    checked_id(field, text(v, field)?.to_string())
}

fn commitment_of(v: &Value) -> Result<Commitment> {
    Ok(Commitment {
        status: CommitmentStatus::parse(text(v, "status")?)?,
        due_at: instant(v, "due_at")?,
        owner: opt_text(v, "owner"),
        resolved_at: instant(v, "resolved_at")?,
        updated_at: required_instant(v, "updated_at")?,
    })
}

fn event_of(v: &Value) -> Result<MemoryEvent> {
    Ok(MemoryEvent {
        event_id: id(v, "event_id")?,
        memory_id: id(v, "memory_id")?,
        kind: EventKind::parse(text(v, "kind")?)?,
        actor: text(v, "actor")?.to_string(),
        session_run_id: opt_text(v, "session_run_id")
            .map(|s| checked_id("session_run_id", s))
            .transpose()?,
        reason: opt_text(v, "reason"),
        created_at: required_instant(v, "created_at")?,
    })
}

/// Secrets out of an imported memory's text, as `remember` takes them out
/// of a new one (an export file comes from outside); its content hash
/// follows its content. An export of sessionkit's own is already redacted
/// (redacting again changes nothing), so its round trip stays identical.
/// Returns whether anything was taken out.
pub fn redact_imported(m: &mut Memory) -> bool {
    // Whether redacting `s` changed it (without copying the text first).
    let r = |s: &mut String| -> bool {
        match crate::domain::redact::redact_text(s) {
            std::borrow::Cow::Owned(v) if v != *s => {
                *s = v;
                true
            }
            _ => false,
        }
    };
    let content = r(&mut m.content);
    let mut changed = content | r(&mut m.topic);
    if let Some(d) = m.description.as_mut() {
        changed |= r(d);
    }
    for t in &mut m.tags {
        changed |= r(t);
    }
    if let Some(o) = m.commitment.as_mut().and_then(|c| c.owner.as_mut()) {
        changed |= r(o);
    }
    if content && m.content_hash.is_some() {
        m.content_hash = Some(content_hash(&m.content));
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line names the contract, keys sorted; the file reads back to
    /// the same records; a line naming another contract is refused.
    #[test]
    fn lines_round_trip_and_carry_their_contract() {
        let m = Memory {
            memory_id: "01990000-0000-7000-8000-000000000001".into(),
            kind: Kind::Commitment,
            topic: "ship".into(),
            description: None,
            content: "ship it".into(),
            project: "shop".into(),
            scope: "project".into(),
            tags: vec!["a".into()],
            status: MemoryStatus::Active,
            pinned: false,
            content_hash: Some(content_hash("ship it")),
            supersedes: None,
            valid_from: 1_767_225_600_000,
            valid_to: None,
            created_at: 1_767_225_600_000,
            updated_at: 1_767_225_600_001,
            commitment: Some(Commitment {
                status: CommitmentStatus::Waiting,
                due_at: Some(1_767_312_000_000),
                owner: Some("ana".into()),
                resolved_at: None,
                updated_at: 1_767_225_600_001,
            }),
        };
        let e = MemoryEvent {
            event_id: "01990000-0000-7000-8000-000000000002".into(),
            memory_id: m.memory_id.clone(),
            kind: EventKind::Create,
            actor: "cli".into(),
            session_run_id: None,
            reason: None,
            created_at: 1_767_225_600_000,
        };
        let text: String = export_lines(std::slice::from_ref(&m), std::slice::from_ref(&e))
            .map(|l| serde_json::to_value(l).unwrap().to_string() + "\n")
            .collect();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            r#"{"due_at":"2026-01-02T00:00:00.000Z","memory_id":"01990000-0000-7000-8000-000000000001","owner":"ana","resolved_at":null,"schema":"sessionkit.export/1","status":"waiting","type":"commitment","updated_at":"2026-01-01T00:00:00.001Z"}"#
        );
        let read = |text: &str| -> Vec<Result<Option<Record>, Rejected>> {
            text.lines()
                .enumerate()
                .map(|(i, l)| read_line(i + 1, l))
                .collect()
        };
        let mut with = m.clone();
        with.commitment = None;
        let back = read(&text);
        assert_eq!(
            back,
            vec![
                Ok(Some(Record::Memory(with))),
                Ok(Some(Record::Commitment(
                    m.memory_id.clone(),
                    m.commitment.clone().unwrap()
                ))),
                Ok(Some(Record::Event(e)))
            ]
        );
        assert!(may_be_commitment(lines[1]) && !may_be_commitment(lines[2]));
        // Without the field (an older export): the same.
        let old = text.replace(r#""schema":"sessionkit.export/1","#, "");
        assert_eq!(read(&old), back);
        let newer = text.replace("sessionkit.export/1", "sessionkit.export/2");
        let r = read(&newer);
        let reasons: Vec<String> = r.into_iter().map(|r| r.unwrap_err().reason).collect();
        assert_eq!(reasons.len(), 3);
        assert_eq!(
            reasons[0],
            "schema \"sessionkit.export/2\" is not \"sessionkit.export/1\" (a newer sessionkit wrote it?)"
        );
    }
}

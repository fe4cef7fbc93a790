//! The export file (`sessionkit export`, `sessionkit import`): JSON Lines,
//! one memory, commitment or event per line, keys sorted, every line
//! carrying the contract `sessionkit.export/1` (a file written before the
//! field existed reads the same). Writing and reading are both here, so the
//! two cannot drift; the store checks what it would change.

use std::collections::HashMap;

use anyhow::{Context, Result, bail};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::{
    Commitment, CommitmentStatus, EventKind, Kind, Memory, MemoryEvent, MemoryStatus, content_hash,
};
use crate::clock::{Rfc3339, parse_instant};

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

/// An export file read back: its records with their line numbers, and the
/// lines it could not take.
#[derive(Debug, Default)]
pub struct ExportFile {
    pub rejected: Vec<Rejected>,
    pub memories: Vec<(usize, Memory)>,
    pub events: Vec<(usize, MemoryEvent)>,
    /// The commitment lines joined to their memories: (line, memory id).
    pub commitments: Vec<(usize, String)>,
}

/// Reads an export's text (no database): each line a memory, commitment or
/// event record; a commitment joins its memory.
pub fn read_export(text_in: &str) -> ExportFile {
    // A byte-order mark is not part of the first record (it made the first
    // memory, and so its commitment, rejected).
    let text_in = text_in.strip_prefix('\u{feff}').unwrap_or(text_in);
    let mut file = ExportFile::default();
    let mut commitments: Vec<(usize, String, Commitment)> = Vec::new();
    let reject = |file: &mut ExportFile, line: usize, kind: &str, id: &str, reason: String| {
        file.rejected.push(Rejected {
            line,
            kind: kind.to_string(),
            id: id.to_string(),
            reason,
        });
    };
    for (i, l) in text_in.lines().enumerate() {
        let line = i + 1;
        if l.trim().is_empty() {
            continue;
        }
        let v: Value = match serde_json::from_str(l) {
            Ok(v) => v,
            Err(e) => {
                reject(&mut file, line, "?", "", format!("not JSON: {e}"));
                continue;
            }
        };
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let parsed = version(&v).and_then(|()| match kind.as_str() {
            "memory" => memory_of(&v).map(|m| file.memories.push((line, m))),
            "commitment" => commitment_of(&v).and_then(|c| {
                commitments.push((line, text(&v, "memory_id")?.to_string(), c));
                Ok(())
            }),
            "event" => event_of(&v).map(|e| file.events.push((line, e))),
            other => Err(anyhow::anyhow!("unknown record type {other:?}")),
        });
        if let Err(e) = parsed {
            let id = ["memory_id", "event_id"]
                .iter()
                .find_map(|k| opt_text(&v, k))
                .unwrap_or_default();
            reject(&mut file, line, &kind, &id, format!("{e:#}"));
        }
    }
    // A commitment travels with its memory.
    let at: HashMap<String, usize> = file
        .memories
        .iter()
        .enumerate()
        .map(|(i, (_, m))| (m.memory_id.clone(), i))
        .collect();
    for (line, id, c) in commitments {
        match at.get(&id) {
            Some(&i) if file.memories[i].1.commitment.is_some() => reject(
                &mut file,
                line,
                "commitment",
                &id,
                "a second commitment record for this memory".into(),
            ),
            Some(&i) => {
                file.memories[i].1.commitment = Some(c);
                file.commitments.push((line, id));
            }
            None => reject(
                &mut file,
                line,
                "commitment",
                &id,
                "its memory is not in the file".into(),
            ),
        }
    }
    file
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

fn instant(v: &Value, k: &str) -> Result<Option<crate::clock::Millis>> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse_instant(s)
            .map(Some)
            .with_context(|| format!("{k} {s:?} is not an RFC 3339 instant")),
        Some(other) => bail!("{k} is {other}, not a time"),
    }
}

fn required_instant(v: &Value, k: &str) -> Result<crate::clock::Millis> {
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
pub fn redact_imported(m: &mut Memory) {
    let r = |s: &mut String| {
        if let std::borrow::Cow::Owned(v) = crate::redact::redact_text(s) {
            *s = v;
        }
    };
    let before = m.content.clone();
    r(&mut m.topic);
    r(&mut m.content);
    if let Some(d) = m.description.as_mut() {
        r(d);
    }
    m.tags.iter_mut().for_each(r);
    if let Some(o) = m.commitment.as_mut().and_then(|c| c.owner.as_mut()) {
        r(o);
    }
    if m.content != before && m.content_hash.is_some() {
        m.content_hash = Some(content_hash(&m.content));
    }
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
        let back = read_export(&text);
        assert!(back.rejected.is_empty(), "{:?}", back.rejected);
        assert_eq!(back.memories, vec![(1, m)]);
        assert_eq!(back.events, vec![(3, e)]);
        // Without the field (an older export): the same.
        let old = text.replace(r#""schema":"sessionkit.export/1","#, "");
        assert_eq!(read_export(&old).memories, back.memories);
        let newer = text.replace("sessionkit.export/1", "sessionkit.export/2");
        let r = read_export(&newer);
        assert_eq!(r.rejected.len(), 3);
        assert_eq!(
            r.rejected[0].reason,
            "schema \"sessionkit.export/2\" is not \"sessionkit.export/1\" (a newer sessionkit wrote it?)"
        );
    }
}

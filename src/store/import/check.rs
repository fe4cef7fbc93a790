//! Checking an import's records against the database and the file: a
//! memory or event already there, a predecessor or supersession cycle.
use super::super::memories::{get_memory, live_with_hash, successor_of};
use super::{FileState, id_of, key};
use crate::domain::memory;
use crate::domain::memory::{Memory, MemoryEvent};
use anyhow::{Result, bail};
use rusqlite::{Connection, OptionalExtension};
use std::collections::HashSet;

/// The checks a memory must pass (and `Ok(false)` when it is stored as is).
pub(super) fn check_memory(conn: &Connection, m: &Memory, file: &FileState) -> Result<bool> {
    if file.memories.contains_key(&key(&m.memory_id)) {
        bail!("the file has this memory id twice");
    }
    if let Some(stored) = get_memory(conn, &m.memory_id)? {
        if stored == *m {
            return Ok(false);
        }
        bail!("a different memory with this id is stored");
    }
    memory::check_text("the topic", &m.topic, memory::MAX_TOPIC)?;
    memory::check_text("the content", &m.content, memory::MAX_CONTENT)?;
    if let Some(d) = &m.description {
        memory::check_text("the description", d, memory::MAX_DESCRIPTION)?;
    }
    memory::check_tags(&m.tags)?;
    if (m.kind == memory::Kind::Commitment) != m.commitment.is_some() {
        bail!("a commitment memory needs its commitment record, and only it has one");
    }
    if let (Some(hash), true) = (&m.content_hash, m.is_live()) {
        if let Some(other) = live_with_hash(conn, m.kind, &m.project, hash)? {
            bail!("the same content is live as {other}");
        }
        if file.has_hash(m.kind, &m.project, hash) {
            bail!("the same content is live in an earlier record of the file");
        }
    }
    if let Some(p) = &m.supersedes {
        if p == &m.memory_id {
            bail!("supersession cycle: the memory supersedes itself");
        }
        // A memory has at most one successor.
        if let Some(&other) = file.superseded.get(&key(p)) {
            let other = id_of(other);
            bail!("{p} is superseded twice (also by {other}, earlier in the file)");
        }
        if let Some(other) = successor_of(conn, p)? {
            bail!("{p} is already superseded by {other}");
        }
    }
    Ok(true)
}

/// The predecessor of `id`: in the file, else stored.
pub(super) fn predecessor(conn: &Connection, id: &str, file: &FileState) -> Result<Option<String>> {
    Ok(match file.memories.get(&key(id)) {
        Some((_, supersedes)) => supersedes.map(id_of),
        None => get_memory(conn, id)?.and_then(|m| m.supersedes),
    })
}

/// The supersession chain from `id` back to itself, as `a -> b -> a`, when
/// following predecessors comes round to it.
pub(super) fn cycle_through(
    conn: &Connection,
    id: &str,
    file: &FileState,
) -> Result<Option<String>> {
    let mut chain = vec![id.to_string()];
    let mut seen: HashSet<String> = HashSet::from([id.to_string()]);
    let mut at = id.to_string();
    while let Some(p) = predecessor(conn, &at, file)? {
        chain.push(p.clone());
        if p == id {
            return Ok(Some(chain.join(" -> ")));
        }
        if !seen.insert(p.clone()) {
            // A loop that does not pass through `id`: reported from its own members.
            return Ok(None);
        }
        at = p;
    }
    Ok(None)
}

/// The checks an audit event must pass (and `Ok(false)` when stored as is).
pub(super) fn check_event(
    conn: &Connection,
    e: &MemoryEvent,
    file: &FileState,
) -> Result<Option<bool>> {
    if file.events.contains(&key(&e.event_id)) {
        bail!("the file has this event id twice");
    }
    let stored: Option<(String, Option<String>)> = conn
        .prepare_cached("SELECT memory_id, session_run_id FROM memory_events WHERE event_id = ?1")?
        .query_row([&e.event_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((m, run)) = stored {
        if m == e.memory_id && run == e.session_run_id {
            return Ok(Some(false));
        }
        bail!("a different event with this id is stored");
    }
    if let Some(run) = &e.session_run_id {
        // Provenance from the database it was exported from. A run of this
        // database is another matter: an import never joins a run here.
        let here: bool = conn
            .prepare_cached("SELECT 1 FROM agent_sessions WHERE run_id = ?1")?
            .exists([run])?;
        if here {
            bail!("names run {run} of this database: an import never joins a run");
        }
    }
    if !file.memories.contains_key(&key(&e.memory_id)) && get_memory(conn, &e.memory_id)?.is_none()
    {
        return Ok(None);
    }
    Ok(Some(true))
}

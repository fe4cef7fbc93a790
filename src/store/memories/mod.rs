//! Memories, commitments, their audit log, search and demand. Every
//! write is one `BEGIN IMMEDIATE` transaction that writes its audit events
//! with it; a refused write changes nothing.

use anyhow::{Result, bail};
use rusqlite::{OptionalExtension, Row, Transaction, params};

mod demand;
mod read;
pub use read::Search;
mod write;

use super::Store;
use super::runs::{attach, check_run};
use crate::domain::clock::Millis;
use crate::domain::memory::{
    Actor, Commitment, CommitmentStatus, CommitmentView, EventKind, Kind, Memory, MemoryError,
    MemoryEvent, MemoryView, Tags, Transition, commitment_transition,
};

/// The run a transaction's events carry, found when the first event is
/// written (a write that turns out a no-op touches no run).
struct Provenance<'a> {
    project: &'a str,
    run: Option<Option<String>>,
}

impl<'a> Provenance<'a> {
    /// Refuses an unknown explicit run before anything else happens.
    fn start(tx: &Transaction<'_>, who: &Actor<'_>, project: &'a str) -> Result<Provenance<'a>> {
        check_run(tx, who.run)?;
        Ok(Provenance { project, run: None })
    }

    fn run(&mut self, tx: &Transaction<'_>, who: &Actor<'_>) -> Result<Option<String>> {
        if self.run.is_none() {
            self.run = Some(attach(tx, who.run, self.project, who.now, who.lease_ms)?);
        }
        Ok(self.run.clone().flatten())
    }
}

const MEMORY_COLUMNS: &str = "m.memory_id, m.kind, m.topic, m.description, m.content, m.project, m.scope, m.tags,
     m.status, m.pinned, m.content_hash, m.supersedes, m.valid_from, m.valid_to, m.created_at, m.updated_at,
     c.status, c.due_at, c.owner, c.resolved_at, c.updated_at";

pub(crate) fn memory_from(r: &Row<'_>) -> rusqlite::Result<Memory> {
    Ok(memory_view(r)?.to_memory())
}

/// The row of `MEMORY_COLUMNS`, borrowed.
fn memory_view<'r>(r: &'r Row<'_>) -> rusqlite::Result<MemoryView<'r>> {
    let text = |i: usize| -> rusqlite::Result<&'r str> {
        r.get_ref(i)?.as_str().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    let text_or_null = |i: usize| -> rusqlite::Result<Option<&'r str>> {
        r.get_ref(i)?.as_str_or_null().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    let commitment = match r.get::<_, Option<CommitmentStatus>>(16)? {
        Some(status) => Some(CommitmentView {
            status,
            due_at: r.get(17)?,
            owner: text_or_null(18)?,
            resolved_at: r.get(19)?,
            updated_at: r.get(20)?,
        }),
        None => None,
    };
    Ok(MemoryView {
        memory_id: text(0)?,
        kind: r.get(1)?,
        topic: text(2)?,
        description: text_or_null(3)?,
        content: text(4)?,
        project: text(5)?,
        scope: text(6)?,
        tags: Tags::Json(text(7)?),
        status: r.get(8)?,
        pinned: r.get(9)?,
        content_hash: text_or_null(10)?,
        supersedes: text_or_null(11)?,
        valid_from: r.get(12)?,
        valid_to: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
        commitment,
    })
}

pub(super) fn get_memory(tx: &rusqlite::Connection, id: &str) -> Result<Option<Memory>> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m LEFT JOIN commitments c USING (memory_id) WHERE m.memory_id = ?1"
        ))?
        .query_row([id], memory_from)
        .optional()?)
}

/// The live memory of this kind and project with this content hash: an
/// exact duplicate (the `memories_live_hash` index).
pub(super) fn live_with_hash(
    tx: &rusqlite::Connection,
    kind: Kind,
    project: &str,
    hash: &str,
) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached(
            "SELECT memory_id FROM memories WHERE kind = ?1 AND project = ?2 AND content_hash = ?3
               AND valid_to IS NULL AND status = 'active'",
        )?
        .query_row(params![kind, project, hash], |r| r.get(0))
        .optional()?)
}

/// The successor of a superseded memory.
pub(super) fn successor_of(tx: &rusqlite::Connection, id: &str) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached("SELECT memory_id FROM memories WHERE supersedes = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// A UUIDv7 at `now`; ids made in one process increase even within a
/// millisecond, so a transaction's events keep their order.
pub fn new_id(now: Millis) -> String {
    thread_local! {
        static CONTEXT: uuid::ContextV7 = const { uuid::ContextV7::new() };
    }
    CONTEXT.with(|ctx| {
        let ts = uuid::Timestamp::from_unix(
            ctx,
            u64::try_from(now.div_euclid(1000)).unwrap_or(0),
            (now.rem_euclid(1000) * 1_000_000) as u32,
        );
        uuid::Uuid::new_v7(ts).to_string()
    })
}

fn add_event(
    tx: &Transaction<'_>,
    prov: &mut Provenance<'_>,
    memory_id: &str,
    kind: EventKind,
    who: &Actor<'_>,
    reason: Option<&str>,
) -> Result<()> {
    let run = prov.run(tx, who)?;
    tx.prepare_cached(
        "INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, reason, created_at)
         VALUES (?1,?2,?3,?4,?5,?6,?7)",
    )?
    .execute(params![new_id(who.now), memory_id, kind, who.actor, run, reason, who.now])?;
    Ok(())
}

pub(super) fn insert_memory(tx: &rusqlite::Connection, m: &Memory) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO memories(memory_id, kind, topic, description, content, project, scope, tags, status, pinned,
           content_hash, supersedes, valid_from, valid_to, created_at, updated_at)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
    )?
    .execute(params![
        m.memory_id,
        m.kind,
        m.topic,
        m.description,
        m.content,
        m.project,
        m.scope,
        serde_json::to_string(&m.tags)?,
        m.status,
        m.pinned,
        m.content_hash,
        m.supersedes,
        m.valid_from,
        m.valid_to,
        m.created_at,
        m.updated_at
    ])?;
    if let Some(c) = &m.commitment {
        write_commitment(tx, &m.memory_id, c)?;
    }
    Ok(())
}

fn write_commitment(tx: &rusqlite::Connection, memory_id: &str, c: &Commitment) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO commitments(memory_id, status, due_at, owner, resolved_at, updated_at) VALUES (?1,?2,?3,?4,?5,?6)
         ON CONFLICT(memory_id) DO UPDATE SET status = excluded.status, due_at = excluded.due_at,
           owner = excluded.owner, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at",
    )?
    .execute(params![memory_id, c.status, c.due_at, c.owner, c.resolved_at, c.updated_at])?;
    Ok(())
}

impl Store {
    /// A memory id from a unique prefix (at least 4 characters).
    pub fn resolve_memory(&self, prefix: &str) -> Result<String> {
        let prefix = prefix.trim();
        if prefix.len() < 4 {
            bail!("give at least 4 characters of a memory id, not {prefix:?}");
        }
        match self.match_prefix("memories", "memory_id", prefix)? {
            super::PrefixMatch::None => Err(MemoryError::NotFound(prefix.to_string()).into()),
            super::PrefixMatch::One(id) => Ok(id),
            super::PrefixMatch::Many { count, .. } => Err(MemoryError::Ambiguous {
                prefix: prefix.to_string(),
                count,
            }
            .into()),
        }
    }

    /// The shortest prefix of `id` (at least `min` characters) that no
    /// other memory's id shares: what a briefing shows, so `resolve` can
    /// take it. Two index probes: the ids just before and after it.
    pub fn short_id(&self, id: &str, min: usize) -> Result<String> {
        let near = |sql: &str| -> Result<Option<String>> {
            Ok(self
                .conn
                .prepare_cached(sql)?
                .query_row([id], |r| r.get(0))
                .optional()?)
        };
        let before = near(
            "SELECT memory_id FROM memories WHERE memory_id < ?1 ORDER BY memory_id DESC LIMIT 1",
        )?;
        let after =
            near("SELECT memory_id FROM memories WHERE memory_id > ?1 ORDER BY memory_id LIMIT 1")?;
        let shared = |other: Option<String>| {
            other.map_or(0, |o| {
                o.bytes()
                    .zip(id.bytes())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
        };
        let len = (shared(before).max(shared(after)) + 1)
            .max(min)
            .min(id.len());
        Ok(id[..len].to_string())
    }

    pub fn memory(&self, id: &str) -> Result<Memory> {
        get_memory(&self.conn, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()).into())
    }

    /// The supersession chain through `id`, oldest first.
    pub fn chain(&self, id: &str) -> Result<Vec<String>> {
        let mut back = vec![id.to_string()];
        while let Some(prev) =
            get_memory(&self.conn, back.last().unwrap())?.and_then(|m| m.supersedes)
        {
            if back.contains(&prev) {
                break;
            }
            back.push(prev);
        }
        back.reverse();
        let mut cur = id.to_string();
        while let Some(next) = successor_of(&self.conn, &cur)? {
            if back.contains(&next) {
                break;
            }
            back.push(next.clone());
            cur = next;
        }
        Ok(back)
    }

    pub fn memory_events(&self, memory_id: Option<&str>) -> Result<Vec<MemoryEvent>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT event_id, memory_id, kind, actor, session_run_id, reason, created_at FROM memory_events
             WHERE ?1 IS NULL OR memory_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([memory_id], |r| {
            Ok(MemoryEvent {
                event_id: r.get(0)?,
                memory_id: r.get(1)?,
                kind: r.get(2)?,
                actor: r.get(3)?,
                session_run_id: r.get(4)?,
                reason: r.get(5)?,
                created_at: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// The live memory `id`, or why not.
fn live(tx: &Transaction<'_>, id: &str) -> Result<Memory> {
    let m = get_memory(tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
    if m.valid_to.is_some() {
        let by = successor_of(tx, id)?.unwrap_or_default();
        return Err(MemoryError::Superseded {
            id: id.to_string(),
            by,
        }
        .into());
    }
    Ok(m)
}

/// Moves a commitment along its state machine; true when something was written.
fn move_commitment(
    tx: &Transaction<'_>,
    prov: &mut Provenance<'_>,
    id: &str,
    to: CommitmentStatus,
    who: &Actor<'_>,
) -> Result<bool> {
    let m = get_memory(tx, id)?.ok_or_else(|| MemoryError::NotFound(id.to_string()))?;
    let Some(mut c) = m.commitment else {
        bail!("{id} is a {}, not a commitment", m.kind);
    };
    match commitment_transition(c.status, to)? {
        Transition::NoOp => Ok(false),
        Transition::Event(event) => {
            c.status = to;
            c.resolved_at = (to == CommitmentStatus::Resolved).then_some(who.now);
            c.updated_at = who.now;
            write_commitment(tx, id, &c)?;
            add_event(tx, prov, id, event, who, None)?;
            Ok(true)
        }
    }
}

//! `memory import`: an export written back verbatim, all or nothing. Every
//! record is checked first, against the database (in a read transaction,
//! which takes no lock) and against the rest of the file; only when none is
//! rejected is anything written, in transactions of at most
//! `BATCH_TIME` each so that hooks never wait on a long import (issue 16).

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::Store;
use super::memories::{get_memory, insert_memory, live_with_hash, successor_of};
use crate::continuity::memory;
use crate::continuity::memory::{Memory, MemoryEvent};

/// What became of one imported record: to be created (`Ok(true)`), already
/// present (`Ok(false)`), or rejected, with why.
#[derive(Debug, Clone)]
pub struct Imported {
    pub kind: &'static str,
    pub id: String,
    pub outcome: Result<bool, String>,
}

/// The longest a write transaction of an import runs before it commits.
const BATCH_TIME: Duration = Duration::from_millis(50);

/// Why an import stopped part way: another process changed the database
/// between the check and the write.
#[derive(Debug, thiserror::Error)]
#[error(
    "the database changed while importing ({why}): {written} record(s) were written before it; run the import again to finish (records already written count as present)"
)]
pub struct Interrupted {
    pub written: usize,
    pub why: String,
}

/// What the file itself contributes while it is checked.
#[derive(Default)]
struct FileState<'a> {
    memories: HashMap<&'a str, &'a Memory>,
    /// Live content hashes of memories the file creates: (kind, project, hash).
    hashes: HashSet<(memory::Kind, &'a str, &'a str)>,
    /// Predecessors the file gives a successor.
    superseded: HashMap<&'a str, &'a str>,
    events: HashSet<&'a str>,
}

impl Store {
    /// Checks every record without writing: each is new, already present,
    /// or rejected with a reason. The import may write only when none is
    /// rejected.
    pub fn check_import(
        &self,
        memories: &[Memory],
        events: &[MemoryEvent],
    ) -> Result<Vec<Imported>> {
        let snapshot = self.read_snapshot()?;
        let conn = &self.conn;
        let mut file = FileState::default();
        let mut out = Vec::with_capacity(memories.len() + events.len());
        for m in memories {
            let outcome = check_memory(conn, m, &file).map_err(|e| format!("{e:#}"));
            if outcome.is_ok() {
                file.memories.insert(&m.memory_id, m);
                if let Some(p) = &m.supersedes {
                    file.superseded.insert(p, &m.memory_id);
                }
                if let (Some(h), true) = (&m.content_hash, m.is_live()) {
                    file.hashes.insert((m.kind, &m.project, h));
                }
            }
            out.push(Imported {
                kind: "memory",
                id: m.memory_id.clone(),
                outcome,
            });
        }
        // Cycles are a property of the whole file: checked once all of it is known.
        for (m, o) in memories.iter().zip(out.iter_mut()) {
            if o.outcome == Ok(true)
                && let Some(cycle) = cycle_through(conn, &m.memory_id, &file)?
            {
                o.outcome = Err(format!("supersession cycle: {cycle}"));
            }
        }
        for e in events {
            let outcome = check_event(conn, e, &file).map_err(|e| format!("{e:#}"));
            if outcome.is_ok() {
                file.events.insert(&e.event_id);
            }
            out.push(Imported {
                kind: "event",
                id: e.event_id.clone(),
                outcome,
            });
        }
        snapshot.finish()?;
        Ok(out)
    }

    /// Writes the records `check_import` found new, in order, committing at
    /// least every `BATCH_TIME`. Each record is checked again as it is
    /// written; one that no longer passes stops the import with
    /// `Interrupted` (what was committed stays: running the import again
    /// finishes it). Returns how many records were written.
    pub fn write_import(&mut self, memories: &[Memory], events: &[MemoryEvent]) -> Result<usize> {
        let records: Vec<Rec<'_>> = memories
            .iter()
            .map(Rec::Memory)
            .chain(events.iter().map(Rec::Event))
            .collect();
        // A checkpoint after each small commit rewrote the same index pages
        // over and over: a thread copies the WAL meanwhile instead (passive,
        // as in a bulk ingest), and the defaults come back at the end.
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -32768;")?;
        let ckpt = super::Checkpointer::spawn(&self.path)?;
        let done = self.write_batches(&records, &ckpt);
        let background = ckpt.finish();
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -2000;")?;
        let written = done?;
        background?;
        Ok(written)
    }

    /// `write_import`'s loop: transactions of at most `BATCH_TIME`.
    fn write_batches(&mut self, records: &[Rec<'_>], ckpt: &super::Checkpointer) -> Result<usize> {
        let mut written = 0;
        let mut next = 0;
        let mut pacer = super::Pacer::new();
        while next < records.len() {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let started = Instant::now();
            let (first, mut in_batch) = (next, 0);
            while next < records.len() && (next == first || started.elapsed() < BATCH_TIME) {
                let done = match records[next] {
                    Rec::Memory(m) => import_memory(&tx, m),
                    Rec::Event(e) => import_event(&tx, e),
                };
                match done {
                    Ok(new) => in_batch += usize::from(new),
                    Err(e) => {
                        drop(tx);
                        return Err(Interrupted {
                            written,
                            why: format!("{e:#}"),
                        }
                        .into());
                    }
                }
                next += 1;
            }
            tx.commit()?;
            ckpt.nudge();
            pacer.committed();
            written += in_batch;
        }
        Ok(written)
    }
}

/// A record to write, in file order (memories first).
enum Rec<'a> {
    Memory(&'a Memory),
    Event(&'a MemoryEvent),
}

/// The checks a memory must pass (and `Ok(false)` when it is stored as is).
fn check_memory(conn: &Connection, m: &Memory, file: &FileState<'_>) -> Result<bool> {
    if file.memories.contains_key(m.memory_id.as_str()) {
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
        if file
            .hashes
            .contains(&(m.kind, m.project.as_str(), hash.as_str()))
        {
            bail!("the same content is live in an earlier record of the file");
        }
    }
    if let Some(p) = &m.supersedes {
        if p == &m.memory_id {
            bail!("supersession cycle: the memory supersedes itself");
        }
        // A memory has at most one successor.
        if let Some(other) = file.superseded.get(p.as_str()) {
            bail!("{p} is superseded twice (also by {other}, earlier in the file)");
        }
        if let Some(other) = successor_of(conn, p)? {
            bail!("{p} is already superseded by {other}");
        }
    }
    Ok(true)
}

/// The predecessor of `id`: in the file, else stored.
fn predecessor(conn: &Connection, id: &str, file: &FileState<'_>) -> Result<Option<String>> {
    Ok(match file.memories.get(id) {
        Some(m) => m.supersedes.clone(),
        None => get_memory(conn, id)?.and_then(|m| m.supersedes),
    })
}

/// The supersession chain from `id` back to itself, as `a -> b -> a`, when
/// following predecessors comes round to it.
fn cycle_through(conn: &Connection, id: &str, file: &FileState<'_>) -> Result<Option<String>> {
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
fn check_event(conn: &Connection, e: &MemoryEvent, file: &FileState<'_>) -> Result<bool> {
    if file.events.contains(e.event_id.as_str()) {
        bail!("the file has this event id twice");
    }
    let stored: Option<(String, Option<String>)> = conn
        .prepare_cached("SELECT memory_id, session_run_id FROM memory_events WHERE event_id = ?1")?
        .query_row([&e.event_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((m, run)) = stored {
        if m == e.memory_id && run == e.session_run_id {
            return Ok(false);
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
    if !file.memories.contains_key(e.memory_id.as_str())
        && get_memory(conn, &e.memory_id)?.is_none()
    {
        bail!(
            "names memory {} that is neither stored nor imported",
            e.memory_id
        );
    }
    Ok(true)
}

/// Writes one checked memory (again refusing one that no longer passes).
fn import_memory(tx: &Transaction<'_>, m: &Memory) -> Result<bool> {
    if !check_memory(tx, m, &FileState::default())? {
        return Ok(false);
    }
    insert_memory(tx, m).context("storing the memory")?;
    Ok(true)
}

/// Writes one checked event verbatim: its run id, when it has one, is the
/// provenance it was exported with.
fn import_event(tx: &Transaction<'_>, e: &MemoryEvent) -> Result<bool> {
    if !check_event(tx, e, &FileState::default())? {
        return Ok(false);
    }
    tx.prepare_cached(
        "INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, reason, created_at)
         VALUES (?1,?2,?3,?4,?5,?6,?7)",
    )?
    .execute(params![
        e.event_id,
        e.memory_id,
        e.kind,
        e.actor,
        e.session_run_id,
        e.reason,
        e.created_at
    ])
    .context("storing the event")?;
    Ok(true)
}

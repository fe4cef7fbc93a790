//! `memory import`: an export written back verbatim, all or nothing, in
//! two passes over the file so that its text is never held whole. The
//! first pass checks every record, against the database (in a read
//! transaction, which takes no lock) and against what the file said
//! before it, keeping only ids and keys; only when none is rejected does
//! the second pass write. A bulk load (more new memories than are stored)
//! is one transaction with the memory indexes built once at the end;
//! otherwise transactions of at most `BATCH_TIME` each, so that hooks never
//! wait on a long import, checking their records again only when another
//! connection committed since the check (`PRAGMA data_version`).

mod check;
mod write;

use check::{check_event, check_memory, cycle_through};
use write::Writer;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use anyhow::Result;
use rusqlite::Connection;
use rusqlite::config::DbConfig;

use super::{Snapshot, Store};
use crate::domain::memory;
use crate::domain::memory::{Memory, MemoryEvent};

/// What became of one imported record: to be created (`Ok(true)`), already
/// present (`Ok(false)`), or rejected, with why.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The record's line in the file.
    pub line: usize,
    pub kind: &'static str,
    pub id: String,
    pub outcome: Result<bool, String>,
    /// A digest of the line's bytes: the write pass takes only the line
    /// the check read.
    digest: u64,
}

/// A record of the file as the import reads it, with its line's number
/// and the digest of its bytes.
pub struct Read {
    pub line: usize,
    pub digest: u64,
    pub record: Rec,
}

/// A record to check or write.
pub enum Rec {
    Memory(Memory),
    Event(MemoryEvent),
}

/// The longest a write transaction of an import runs before it commits: a
/// hook waits at most this long for the lock. Each commit writes every page
/// its batch touched (the memory indexes are spread over their keys), so
/// shorter batches rewrite the same pages more often: 50 ms took 1.5 times
/// as long as one transaction, 100 ms about 1.2 times.
const BATCH_TIME: Duration = Duration::from_millis(100);

/// Why an import stopped part way: another process changed the database,
/// or the file changed, between the check and the write.
#[derive(Debug, thiserror::Error)]
#[error(
    "the {what} changed while importing ({why}): {written} record(s) were written before it; run the import again to finish (records already written count as present)"
)]
pub struct Interrupted {
    pub written: usize,
    pub what: &'static str,
    pub why: String,
}

/// The outcome of the check: one entry per record in file order, the
/// database's data version the check saw, and the line of each memory
/// the file holds.
pub struct Checked {
    pub records: Vec<Imported>,
    version: i64,
    lines: HashMap<u128, usize>,
}

/// What the file said before the record being checked: keys only, ids as
/// the 128-bit numbers they are, so that a file of a million records is
/// checked in a few dozen megabytes.
#[derive(Default)]
struct FileState {
    /// Memories that passed: id -> (line, predecessor).
    memories: HashMap<u128, (usize, Option<u128>)>,
    /// Live content hashes of memories the file creates: (kind, project,
    /// the hash's first 128 bits).
    hashes: HashSet<(memory::Kind, u32, u128)>,
    projects: HashMap<String, u32>,
    /// Predecessors the file gives a successor.
    superseded: HashMap<u128, u128>,
    events: HashSet<u128>,
}

/// An id's number. Ids are checked UUIDs when read; anything else (never
/// stored) gets a number from its digest.
fn key(id: &str) -> u128 {
    uuid::Uuid::try_parse(id).map_or_else(
        |_| {
            let mut h = std::hash::DefaultHasher::new();
            std::hash::Hasher::write(&mut h, id.as_bytes());
            u128::from(std::hash::Hasher::finish(&h))
        },
        |u| u.as_u128(),
    )
}

/// An id from its number, as sessionkit writes ids.
fn id_of(key: u128) -> String {
    uuid::Uuid::from_u128(key).hyphenated().to_string()
}

impl FileState {
    /// The (kind, project, hash) key of a live content hash.
    fn hash_key(
        &mut self,
        kind: memory::Kind,
        project: &str,
        hash: &str,
    ) -> (memory::Kind, u32, u128) {
        let next = self.projects.len() as u32;
        let p = match self.projects.get(project) {
            Some(&p) => p,
            None => *self.projects.entry(project.to_string()).or_insert(next),
        };
        (kind, p, hash_bits(hash))
    }

    fn has_hash(&self, kind: memory::Kind, project: &str, hash: &str) -> bool {
        self.projects
            .get(project)
            .is_some_and(|&p| self.hashes.contains(&(kind, p, hash_bits(hash))))
    }
}

/// A content hash's first 128 bits (it is SHA-256 in hex); another text
/// by its digest.
fn hash_bits(hash: &str) -> u128 {
    hash.get(..32)
        .and_then(|h| u128::from_str_radix(h, 16).ok())
        .unwrap_or_else(|| key(hash))
}

/// The first pass: fed each record in file order, then `finish`ed.
pub struct Checker<'s> {
    conn: &'s Connection,
    snapshot: Snapshot<'s>,
    version: i64,
    file: FileState,
    records: Vec<Imported>,
    /// Events whose memory was neither stored nor earlier in the file:
    /// decided once the whole file is known.
    waiting: Vec<(usize, String)>,
}

impl Store {
    /// Starts checking an import (see `Checker`): nothing is written.
    pub fn check_import(&self) -> Result<Checker<'_>> {
        // Read before the snapshot begins: a commit between the two shows
        // as a change, and the write checks again.
        let version = self.data_version()?;
        self.steady_plans(true)?;
        Ok(Checker {
            conn: &self.conn,
            snapshot: self.read_snapshot()?,
            version,
            file: FileState::default(),
            records: Vec::new(),
            waiting: Vec::new(),
        })
    }

    /// Query plans that do not depend on bound values, while `on`. Off,
    /// SQLite prepares a statement again whenever a value bound to it
    /// changes, when the value could choose a partial index (the memory
    /// indexes are partial): an import ran each of its statements once per
    /// record, and preparing them was most of its checks' time.
    fn steady_plans(&self, on: bool) -> Result<()> {
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, on)?;
        Ok(())
    }

    /// `PRAGMA data_version`: changes when another connection commits.
    fn data_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// The second pass: writes the records the check found new, read
    /// again from the file (`records`, in the order the check saw them;
    /// a line that differs from the one checked stops the import). An
    /// event whose memory comes later in the file waits for it. Returns
    /// how many records were written.
    pub fn write_import(
        &mut self,
        checked: &Checked,
        records: impl Iterator<Item = Result<Read>>,
    ) -> Result<usize> {
        // The writer checkpoints after each commit itself (below); the
        // default comes back at the end. Temporary storage stays on disk: a
        // bulk load's index builds sort through it.
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -32768;")?;
        self.steady_plans(true)?;
        // The search index is filled a batch at a time (`index_batch`), not
        // by the insert trigger: FTS5 writes its pending terms out at every
        // statement's savepoint, so a row at a time made one tiny segment
        // per memory and merged them again and again (a third of the
        // import's time). The import's statements fire no other trigger.
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
        let mut w = Writer {
            conn: &self.conn,
            version: checked.version,
            bulk: None,
            open: None,
            written: 0,
            pending: 0,
            pacer: super::Pacer::new(),
        };
        let done = w.write_all(checked, records);
        if w.open.is_some() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, true)?;
        self.steady_plans(false)?;
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -2000;")?;
        done
    }
}

impl Checker<'_> {
    /// Checks the next record of the file.
    pub fn check(&mut self, read: &Read) -> Result<()> {
        let (kind, id, outcome) = match &read.record {
            Rec::Memory(m) => ("memory", &m.memory_id, self.memory(read.line, m)),
            Rec::Event(e) => ("event", &e.event_id, self.event(e)),
        };
        let outcome = match outcome {
            Ok(o) => o,
            Err(e) if e.is::<rusqlite::Error>() => return Err(e),
            Err(e) => Err(format!("{e:#}")),
        };
        if outcome == Ok(None)
            && let Rec::Event(e) = &read.record
        {
            self.waiting.push((self.records.len(), e.memory_id.clone()));
        }
        self.records.push(Imported {
            line: read.line,
            kind,
            id: id.clone(),
            outcome: outcome.map(|o| o.unwrap_or(true)),
            digest: read.digest,
        });
        Ok(())
    }

    /// A memory's checks, and what the file then holds.
    fn memory(&mut self, line: usize, m: &Memory) -> Result<Result<Option<bool>, String>> {
        let outcome = match check_memory(self.conn, m, &self.file) {
            Ok(new) => new,
            Err(e) if e.is::<rusqlite::Error>() => return Err(e),
            Err(e) => return Ok(Err(format!("{e:#}"))),
        };
        let f = &mut self.file;
        let (id, supersedes) = (key(&m.memory_id), m.supersedes.as_deref().map(key));
        f.memories.insert(id, (line, supersedes));
        if let Some(p) = supersedes {
            f.superseded.insert(p, id);
        }
        if let (Some(h), true) = (&m.content_hash, m.is_live()) {
            let k = f.hash_key(m.kind, &m.project, h);
            f.hashes.insert(k);
        }
        Ok(Ok(Some(outcome)))
    }

    /// An event's checks: `Ok(None)` when its memory is neither stored nor
    /// earlier in the file (decided at the end).
    fn event(&mut self, e: &MemoryEvent) -> Result<Result<Option<bool>, String>> {
        let outcome = match check_event(self.conn, e, &self.file) {
            Ok(o) => o,
            Err(e) if e.is::<rusqlite::Error>() => return Err(e),
            Err(e) => return Ok(Err(format!("{e:#}"))),
        };
        self.file.events.insert(key(&e.event_id));
        Ok(Ok(outcome))
    }

    /// The checks that need the whole file: supersession cycles, and
    /// events naming a memory later in the file.
    pub fn finish(mut self) -> Result<Checked> {
        for r in self.records.iter_mut() {
            if r.kind == "memory"
                && r.outcome == Ok(true)
                && let Some(cycle) = cycle_through(self.conn, &r.id, &self.file)?
            {
                r.outcome = Err(format!("supersession cycle: {cycle}"));
            }
        }
        for (i, memory_id) in std::mem::take(&mut self.waiting) {
            if !self.file.memories.contains_key(&key(&memory_id)) {
                self.records[i].outcome = Err(format!(
                    "names memory {memory_id} that is neither stored nor imported"
                ));
            }
        }
        self.snapshot.finish()?;
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, false)?;
        let lines = self
            .file
            .memories
            .into_iter()
            .map(|(id, (line, _))| (id, line))
            .collect();
        Ok(Checked {
            records: self.records,
            version: self.version,
            lines,
        })
    }
}

#[cfg(test)]
mod tests;

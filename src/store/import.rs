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

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};

use super::memories::{get_memory, insert_memory, live_with_hash, successor_of};
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

/// The second pass's state: the open transaction, if any, and whether
/// this is a bulk load (with the indexes to build at its end).
struct Writer<'c> {
    conn: &'c Connection,
    version: i64,
    /// A bulk load: the indexes dropped, to be created again at the end.
    bulk: Option<Vec<String>>,
    /// The open transaction: when it began, whether the check still
    /// holds, and the last memory rowid indexed for search.
    open: Option<(Instant, bool, i64)>,
    /// Records written: committed, and in the open transaction.
    written: usize,
    pending: usize,
    pacer: super::Pacer,
}

impl Writer<'_> {
    fn write_all(
        &mut self,
        checked: &Checked,
        records: impl Iterator<Item = Result<Read>>,
    ) -> Result<usize> {
        let new_memories = checked
            .records
            .iter()
            .filter(|r| r.kind == "memory" && r.outcome == Ok(true))
            .count();
        self.begin_first(new_memories)?;
        let mut expected = checked.records.iter();
        let mut later: Vec<MemoryEvent> = Vec::new();
        for read in records {
            let read = read?;
            let (id, line) = match &read.record {
                Rec::Memory(m) => (&m.memory_id, read.line),
                Rec::Event(e) => (&e.event_id, read.line),
            };
            let Some(want) = expected.next() else {
                return self.file_changed(format!("line {line} was not there when it was checked"));
            };
            if want.line != line || &want.id != id || want.digest != read.digest {
                return self.file_changed(format!("line {} is not the line checked", want.line));
            }
            if want.outcome != Ok(true) {
                continue;
            }
            match read.record {
                Rec::Memory(m) => self.write(&Rec::Memory(m))?,
                // Its memory is written first.
                Rec::Event(e)
                    if checked
                        .lines
                        .get(&key(&e.memory_id))
                        .is_some_and(|&l| l > line) =>
                {
                    later.push(e);
                }
                Rec::Event(e) => self.write(&Rec::Event(e))?,
            }
        }
        if let Some(want) = expected.next() {
            return self.file_changed(format!("line {} is gone", want.line));
        }
        for e in later {
            self.write(&Rec::Event(e))?;
        }
        if self.open.is_some() {
            self.commit()?;
        }
        Ok(self.written)
    }

    /// Begins the first transaction: a bulk load when the file creates
    /// more memories than are stored (at least `BULK_AFTER`), and no other
    /// connection committed since the check.
    fn begin_first(&mut self, new_memories: usize) -> Result<()> {
        self.begin()?;
        let stored: i64 = self
            .conn
            .query_row("SELECT count(*) FROM memories", [], |r| r.get(0))?;
        let still = self.open.is_some_and(|(_, still, _)| still);
        if still && new_memories >= BULK_AFTER && new_memories as i64 >= stored {
            // Each index is built once, sorted, at the end, instead of
            // taking a row at a time at a random place: its pages are
            // written once. The unique indexes that keys are checked
            // through (`memory_id`, `event_id`) are kept.
            let indexes: Vec<(String, String)> = self
                .conn
                .prepare(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                       AND tbl_name IN ('memories', 'commitments', 'memory_events')",
                )?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (name, _) in &indexes {
                self.conn.execute_batch(&format!("DROP INDEX \"{name}\""))?;
            }
            self.bulk = Some(indexes.into_iter().map(|(_, sql)| sql).collect());
        }
        Ok(())
    }

    /// Begins a write transaction.
    fn begin(&mut self) -> Result<()> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let version: i64 = self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let indexed: i64 =
            self.conn
                .query_row("SELECT coalesce(max(rowid), 0) FROM memories", [], |r| {
                    r.get(0)
                })?;
        self.open = Some((Instant::now(), version == self.version, indexed));
        Ok(())
    }

    /// Writes one record, committing first when the batch's time is up.
    fn write(&mut self, rec: &Rec) -> Result<()> {
        if self
            .open
            .is_some_and(|(started, ..)| self.bulk.is_none() && started.elapsed() >= BATCH_TIME)
        {
            self.commit()?;
        }
        if self.open.is_none() {
            self.begin()?;
        }
        let still = self.open.is_some_and(|(_, still, _)| still);
        let done = match rec {
            Rec::Memory(m) => import_memory(self.conn, m, still),
            Rec::Event(e) => import_event(self.conn, e, still),
        };
        match done {
            // Counted once committed.
            Ok(new) => {
                self.pending += usize::from(new);
                Ok(())
            }
            Err(e) => {
                self.conn.execute_batch("ROLLBACK")?;
                self.open = None;
                Err(Interrupted {
                    written: self.written,
                    what: "database",
                    why: format!("{e:#}"),
                }
                .into())
            }
        }
    }

    /// Commits the open transaction: its memories indexed for search (and
    /// a bulk load's indexes built), then the WAL copied back.
    fn commit(&mut self) -> Result<()> {
        let Some((_, _, indexed)) = self.open else {
            return Ok(());
        };
        if let Some(indexes) = self.bulk.take() {
            for sql in indexes {
                self.conn.execute_batch(&sql)?;
            }
        }
        index_batch(self.conn, indexed)?;
        self.conn.execute_batch("COMMIT")?;
        self.open = None;
        self.written += std::mem::take(&mut self.pending);
        // Copied at once, outside the write lock: the next batch then
        // starts the WAL over. A checkpoint thread kept behind the
        // writer, so the WAL never restarted and grew to 1 GB for a
        // 220 MB database, every frame appended to a new part of the file.
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        self.pacer.committed();
        Ok(())
    }

    /// Stops the import because the file is not what was checked: the
    /// open transaction is rolled back.
    fn file_changed(&mut self, why: String) -> Result<usize> {
        if self.open.take().is_some() {
            self.conn.execute_batch("ROLLBACK")?;
        }
        Err(Interrupted {
            written: self.written,
            what: "file",
            why,
        }
        .into())
    }
}

/// An import creating at least this many memories, more than are stored,
/// is a bulk load.
const BULK_AFTER: usize = 1000;

/// Adds the memories written after rowid `indexed` to the search index, in
/// one statement: what the insert trigger does a row at a time.
fn index_batch(tx: &Connection, indexed: i64) -> Result<()> {
    tx.execute(
        "INSERT INTO memories_fts(rowid, topic, description, content, tags, project_key)
         SELECT rid, topic, description, content, tags, project_key
         FROM memories_fts_source WHERE rid > ?1",
        [indexed],
    )?;
    Ok(())
}

/// The checks a memory must pass (and `Ok(false)` when it is stored as is).
fn check_memory(conn: &Connection, m: &Memory, file: &FileState) -> Result<bool> {
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
fn predecessor(conn: &Connection, id: &str, file: &FileState) -> Result<Option<String>> {
    Ok(match file.memories.get(&key(id)) {
        Some((_, supersedes)) => supersedes.map(id_of),
        None => get_memory(conn, id)?.and_then(|m| m.supersedes),
    })
}

/// The supersession chain from `id` back to itself, as `a -> b -> a`, when
/// following predecessors comes round to it.
fn cycle_through(conn: &Connection, id: &str, file: &FileState) -> Result<Option<String>> {
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
fn check_event(conn: &Connection, e: &MemoryEvent, file: &FileState) -> Result<Option<bool>> {
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

/// Writes one memory the import's check found new: checked again, and
/// refused when it no longer passes, unless the check `still` holds.
fn import_memory(tx: &Connection, m: &Memory, still: bool) -> Result<bool> {
    if !still && !check_memory(tx, m, &FileState::default())? {
        return Ok(false);
    }
    insert_memory(tx, m).context("storing the memory")?;
    Ok(true)
}

/// Writes one event the import's check found new, verbatim (checked again
/// unless the check `still` holds): its run id, when it has one, is the
/// provenance it was exported with.
fn import_event(tx: &Connection, e: &MemoryEvent, still: bool) -> Result<bool> {
    if !still {
        match check_event(tx, e, &FileState::default())? {
            Some(true) => {}
            Some(false) => return Ok(false),
            None => bail!(
                "names memory {} that is neither stored nor imported",
                e.memory_id
            ),
        }
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

#[cfg(test)]
mod tests;

//! `memory import`: an export written back verbatim, all or nothing. Every
//! record is checked first, against the database (in a read transaction,
//! which takes no lock) and against the rest of the file; only when none is
//! rejected is anything written, in transactions of at most
//! `BATCH_TIME` each so that hooks never wait on a long import. A batch
//! checks its records again only when another connection committed since
//! the check (`PRAGMA data_version`): otherwise the check still holds.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rusqlite::config::DbConfig;
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

/// The longest a write transaction of an import runs before it commits: a
/// hook waits at most this long for the lock. Each commit writes every page
/// its batch touched (the memory indexes are spread over their keys), so
/// shorter batches rewrite the same pages more often: 50 ms took 1.5 times
/// as long as one transaction, 100 ms about 1.2 times.
const BATCH_TIME: Duration = Duration::from_millis(100);

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

/// The outcome of `check_import`: one entry per record, memories first,
/// and the database's data version the check saw.
pub struct Checked {
    pub records: Vec<Imported>,
    version: i64,
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
    pub fn check_import(&self, memories: &[Memory], events: &[MemoryEvent]) -> Result<Checked> {
        // Read before the snapshot begins: a commit between the two shows
        // as a change, and the write checks again.
        let version = self.data_version()?;
        self.steady_plans(true)?;
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
        self.steady_plans(false)?;
        Ok(Checked {
            records: out,
            version,
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

    /// Writes the records `check_import` found new, in order, committing at
    /// least every `BATCH_TIME`. When another connection committed since
    /// the check, each record of a batch is checked again as it is written;
    /// one that no longer passes stops the import with `Interrupted` (what
    /// was committed stays: running the import again finishes it). Returns
    /// how many records were written.
    pub fn write_import(
        &mut self,
        memories: &[Memory],
        events: &[MemoryEvent],
        checked: &Checked,
    ) -> Result<usize> {
        let new = checked.records.iter().map(|r| r.outcome == Ok(true));
        let records: Vec<Rec<'_>> = memories
            .iter()
            .map(Rec::Memory)
            .chain(events.iter().map(Rec::Event))
            .zip(new)
            .filter_map(|(rec, new)| new.then_some(rec))
            .collect();
        // The writer checkpoints after each commit itself (below), and
        // statement journals stay in memory, as in a bulk ingest; the
        // defaults come back at the end.
        self.conn.execute_batch(
            "PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY;",
        )?;
        self.steady_plans(true)?;
        // The search index is filled a batch at a time (`index_batch`), not
        // by the insert trigger: FTS5 writes its pending terms out at every
        // statement's savepoint, so a row at a time made one tiny segment
        // per memory and merged them again and again (a third of the
        // import's time). The import's statements fire no other trigger.
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
        let done = self.write_batches(&records, checked.version);
        self.conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, true)?;
        self.steady_plans(false)?;
        self.conn.execute_batch(
            "PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT;",
        )?;
        done
    }

    /// `write_import`'s loop: transactions of at most `BATCH_TIME`.
    fn write_batches(&mut self, records: &[Rec<'_>], version: i64) -> Result<usize> {
        let mut written = 0;
        let mut next = 0;
        let mut pacer = super::Pacer::new();
        while next < records.len() {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let started = Instant::now();
            let still = tx.query_row("PRAGMA data_version", [], |r| r.get::<_, i64>(0))? == version;
            let indexed: i64 =
                tx.query_row("SELECT coalesce(max(rowid), 0) FROM memories", [], |r| {
                    r.get(0)
                })?;
            let (first, mut in_batch) = (next, 0);
            while next < records.len() && (next == first || started.elapsed() < BATCH_TIME) {
                let done = match records[next] {
                    Rec::Memory(m) => import_memory(&tx, m, still),
                    Rec::Event(e) => import_event(&tx, e, still),
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
            index_batch(&tx, indexed)?;
            tx.commit()?;
            // Copied at once, outside the write lock: the next batch then
            // starts the WAL over. A checkpoint thread kept behind the
            // writer, so the WAL never restarted and grew to 1 GB for a
            // 220 MB database, every frame appended to a new part of the file.
            self.conn
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
            pacer.committed();
            written += in_batch;
        }
        Ok(written)
    }
}

/// Adds the memories written after rowid `indexed` to the search index, in
/// one statement: what the insert trigger does a row at a time.
fn index_batch(tx: &Transaction<'_>, indexed: i64) -> Result<()> {
    tx.execute(
        "INSERT INTO memories_fts(rowid, topic, description, content, tags, project_key)
         SELECT rid, topic, description, content, tags, project_key
         FROM memories_fts_source WHERE rid > ?1",
        [indexed],
    )?;
    Ok(())
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

/// Writes one memory the import's check found new: checked again, and
/// refused when it no longer passes, unless the check `still` holds.
fn import_memory(tx: &Transaction<'_>, m: &Memory, still: bool) -> Result<bool> {
    if !still && !check_memory(tx, m, &FileState::default())? {
        return Ok(false);
    }
    insert_memory(tx, m).context("storing the memory")?;
    Ok(true)
}

/// Writes one event the import's check found new, verbatim (checked again
/// unless the check `still` holds): its run id, when it has one, is the
/// provenance it was exported with.
fn import_event(tx: &Transaction<'_>, e: &MemoryEvent, still: bool) -> Result<bool> {
    if !still && !check_event(tx, e, &FileState::default())? {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::continuity::memory::{Actor, Kind, NewMemory};

    fn store(dir: &std::path::Path, name: &str) -> Store {
        Store::open(&dir.join(name)).unwrap()
    }

    /// `n` memories remembered in a scratch store, exported: what an
    /// import reads.
    fn exported(dir: &std::path::Path, n: usize) -> (Vec<Memory>, Vec<MemoryEvent>) {
        let mut from = store(dir, "from.db");
        let who = Actor {
            actor: "cli",
            run: None,
            now: 1_700_000_000_000,
            lease_ms: 3_600_000,
        };
        for i in 0..n {
            let m = NewMemory {
                kind: Kind::Fact,
                topic: format!("loader {i}"),
                description: None,
                content: format!("the cache loader warms shard {i} before serving"),
                project: "shop".into(),
                scope: "project".into(),
                tags: vec![],
                pinned: false,
                due_at: None,
                owner: None,
            };
            from.remember(&m, true, &who).unwrap();
        }
        from.export_rows(None).unwrap()
    }

    fn count(s: &Store, sql: &str) -> i64 {
        s.conn.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// The import fills the search index a batch at a time, with the insert
    /// trigger off: afterwards every memory is found, and the index is
    /// consistent with its table; the trigger works again after.
    #[test]
    fn imported_memories_are_searchable_and_the_trigger_is_back() {
        let dir = tempfile::tempdir().unwrap();
        let (ms, es) = exported(dir.path(), 30);
        let mut to = store(dir.path(), "to.db");
        let checked = to.check_import(&ms, &es).unwrap();
        assert_eq!(to.write_import(&ms, &es, &checked).unwrap(), 60);
        assert_eq!(
            count(
                &to,
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'shard'"
            ),
            30
        );
        assert_eq!(
            count(
                &to,
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH '\"shard 17\"'"
            ),
            1
        );
        to.conn
            .execute(
                "INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)",
                [],
            )
            .unwrap();
        let tx = to.conn.transaction().unwrap();
        let mut m = ms[0].clone();
        m.memory_id = "0190aaaa-0000-7000-8000-000000000001".into();
        m.content = "a lighthouse keeper".into();
        m.content_hash = None;
        super::super::memories::insert_memory(&tx, &m).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            count(
                &to,
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'lighthouse'"
            ),
            1
        );
    }

    /// The import writes with triggers off and indexes the search itself:
    /// that is sound only while the search index's insert trigger is the
    /// one trigger its statements would fire. A new trigger on these
    /// tables must be weighed here.
    #[test]
    fn the_search_trigger_is_the_only_one_an_import_skips() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), "t.db");
        let names: Vec<String> = s
            .conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'
                   AND tbl_name IN ('memories', 'commitments', 'memory_events')
                   AND (sql LIKE '%INSERT ON%' OR (tbl_name = 'commitments' AND sql LIKE '%UPDATE%'))
                 ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(names, ["memories_fts_insert"]);
    }

    /// A commit by another connection between the check and the write
    /// makes the write check again: a memory that became a duplicate stops
    /// the import, and nothing of its batch is written.
    #[test]
    fn a_commit_between_check_and_write_is_checked_again() {
        let dir = tempfile::tempdir().unwrap();
        let (ms, es) = exported(dir.path(), 3);
        let mut to = store(dir.path(), "to.db");
        let checked = to.check_import(&ms, &es).unwrap();
        assert!(checked.records.iter().all(|r| r.outcome == Ok(true)));
        // Another process stores the second memory's content as a live memory.
        let other = store(dir.path(), "to.db");
        let tx = other.conn.unchecked_transaction().unwrap();
        let mut dup = ms[1].clone();
        dup.memory_id = "0190aaaa-0000-7000-8000-000000000002".into();
        super::super::memories::insert_memory(&tx, &dup).unwrap();
        tx.commit().unwrap();
        let err = to.write_import(&ms, &es, &checked).unwrap_err();
        let interrupted = err.downcast_ref::<Interrupted>().unwrap();
        assert_eq!(interrupted.written, 0);
        assert!(
            interrupted
                .why
                .contains("the same content is live as 0190aaaa"),
            "{}",
            interrupted.why
        );
        assert_eq!(count(&to, "SELECT count(*) FROM memories"), 1);
        assert_eq!(
            count(
                &to,
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'shard'"
            ),
            1
        );
    }
}

//! Writing an import: batches of at most 100 ms in their own
//! transactions (the search index built once at the end of a large one),
//! each batch re-checking that the database did not change under it.
use super::super::memories::insert_memory;
use super::check::{check_event, check_memory};
use super::{BATCH_TIME, Checked, FileState, Interrupted, Read, Rec, key};
use crate::domain::memory::{Memory, MemoryEvent};
use anyhow::{Context, Result, bail};
use rusqlite::{Connection, params};
use std::time::Instant;

/// The second pass's state: the open transaction, if any, and whether
/// this is a bulk load (with the indexes to build at its end).
pub(super) struct Writer<'c> {
    pub(super) conn: &'c Connection,
    pub(super) version: i64,
    /// A bulk load: the indexes dropped, to be created again at the end.
    pub(super) bulk: Option<Vec<String>>,
    /// The open transaction: when it began, whether the check still
    /// holds, and the last memory rowid indexed for search.
    pub(super) open: Option<(Instant, bool, i64)>,
    /// Records written: committed, and in the open transaction.
    pub(super) written: usize,
    pub(super) pending: usize,
    pub(super) pacer: crate::store::Pacer,
}

impl Writer<'_> {
    pub(super) fn write_all(
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
    pub(super) fn begin_first(&mut self, new_memories: usize) -> Result<()> {
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
    pub(super) fn begin(&mut self) -> Result<()> {
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
    pub(super) fn write(&mut self, rec: &Rec) -> Result<()> {
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
    pub(super) fn commit(&mut self) -> Result<()> {
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
    pub(super) fn file_changed(&mut self, why: String) -> Result<usize> {
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
pub(super) const BULK_AFTER: usize = 1000;

/// Adds the memories written after rowid `indexed` to the search index, in
/// one statement: what the insert trigger does a row at a time.
pub(super) fn index_batch(tx: &Connection, indexed: i64) -> Result<()> {
    tx.execute(
        "INSERT INTO memories_fts(rowid, topic, description, content, tags, project_key)
         SELECT rid, topic, description, content, tags, project_key
         FROM memories_fts_source WHERE rid > ?1",
        [indexed],
    )?;
    Ok(())
}

/// Writes one memory the import's check found new: checked again, and
/// refused when it no longer passes, unless the check `still` holds.
pub(super) fn import_memory(tx: &Connection, m: &Memory, still: bool) -> Result<bool> {
    if !still && !check_memory(tx, m, &FileState::default())? {
        return Ok(false);
    }
    insert_memory(tx, m).context("storing the memory")?;
    Ok(true)
}

/// Writes one event the import's check found new, verbatim (checked again
/// unless the check `still` holds): its run id, when it has one, is the
/// provenance it was exported with.
pub(super) fn import_event(tx: &Connection, e: &MemoryEvent, still: bool) -> Result<bool> {
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

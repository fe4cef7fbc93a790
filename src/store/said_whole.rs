//! Which sessions the search index holds whole (`said_sessions`), the
//! lease of the one process building it (`said_build`), the index's size
//! and dropping it. A session is whole
//! when every part read since it was last read from its start wrote what
//! it said: ingest keeps it so while it reads words, and drops the mark
//! when a part is read without them; a build reads the rest.

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::Store;
use crate::domain::clock::Millis;
use crate::domain::transcript::ParsedSession;

/// Marks a session whole (`whole`) or not.
pub(super) fn mark(tx: &rusqlite::Connection, session_id: &str, whole: bool) -> Result<()> {
    let sql = if whole {
        "INSERT INTO said_sessions(session_id) VALUES (?1) ON CONFLICT DO NOTHING"
    } else {
        "DELETE FROM said_sessions WHERE session_id = ?1"
    };
    tx.prepare_cached(sql)?.execute([session_id])?;
    Ok(())
}

/// Whether a session is whole in the index.
pub(super) fn is_whole(tx: &rusqlite::Connection, session_id: &str) -> Result<bool> {
    Ok(tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM said_sessions WHERE session_id = ?1)")?
        .query_row([session_id], |r| r.get(0))?)
}

/// Segments of one level the full-text index merges (FTS5's default).
const AUTOMERGE: i64 = 4;

fn set_automerge(conn: &rusqlite::Connection, n: i64) -> Result<()> {
    conn.prepare_cached("INSERT INTO said_fts(said_fts, rank) VALUES ('automerge', ?1)")?
        .execute([n])?;
    Ok(())
}

/// The stamp of what ingest last wrote of a session (its resume state and
/// checkpoint), by which a build knows that no ingest wrote the session
/// while it read it.
fn stamp_in(conn: &rusqlite::Connection, session_id: &str) -> Result<u64> {
    let row: Option<(Option<String>, Option<String>)> = conn
        .prepare_cached(
            "SELECT (SELECT state FROM ingest_resume WHERE session_id = ?1),
                    (SELECT fingerprint FROM ingest_checkpoints WHERE session_id = ?1)",
        )?
        .query_row([session_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    if let Some((state, fingerprint)) = row {
        h.update(state.unwrap_or_default().as_bytes());
        h.update(&[0]);
        h.update(fingerprint.unwrap_or_default().as_bytes());
    }
    Ok(h.digest())
}

/// Who holds the build lease, when another live process does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Building {
    pub started_at: Millis,
}

impl Store {
    /// The sessions the index holds whole.
    pub fn whole_sessions(&self) -> Result<BTreeSet<String>> {
        let mut stmt = self.conn.prepare("SELECT session_id FROM said_sessions")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sessions stored whose words the index does not hold whole.
    pub fn sessions_not_indexed(&self) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM sessions x
             WHERE NOT EXISTS (SELECT 1 FROM said_sessions w WHERE w.session_id = x.session_id)",
            [],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// Whether the index is in use: a build has begun (some session is
    /// whole), so ingest keeps it current.
    pub fn index_in_use(&self) -> Result<bool> {
        Ok(self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM said_sessions)", [], |r| {
                r.get(0)
            })?)
    }

    /// Marks sessions whole in an index that holds nothing of them (their
    /// transcripts are gone).
    pub fn hold_as_silent(&mut self, sessions: &[&String]) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for sid in sessions {
            mark(&tx, sid, true)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The shortest prefix of `record`, at least `min` characters, that no
    /// other record of the session said in the index starts with.
    pub fn record_prefix(&self, session_id: &str, record: &str, min: usize) -> Result<String> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT COUNT(DISTINCT record) FROM said
             WHERE session = (SELECT n FROM said_names WHERE name = ?1)
               AND substr(record, 1, ?3) = ?2",
        )?;
        let mut n = min;
        while n < record.len() {
            let Some(prefix) = record.get(..n) else {
                break;
            };
            let count: i64 = stmt.query_row(params![session_id, prefix, n as i64], |r| r.get(0))?;
            if count == 1 {
                return Ok(prefix.to_string());
            }
            n += 4;
        }
        Ok(record.to_string())
    }

    /// The records of a session said in the index that start with `prefix`.
    pub fn records_starting(&self, session_id: &str, prefix: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT record FROM said
             WHERE session = (SELECT n FROM said_names WHERE name = ?1)
               AND substr(record, 1, ?3) = ?2 LIMIT 3",
        )?;
        let rows = stmt.query_map(params![session_id, prefix, prefix.len() as i64], |r| {
            r.get(0)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// `stamp_in` of a session.
    pub fn said_stamp(&self, session_id: &str) -> Result<u64> {
        stamp_in(&self.conn, session_id)
    }

    /// Takes the build lease for `holder` unless another live process
    /// holds it (then who, since when). A holder whose process is gone,
    /// or that this machine cannot check, has left it.
    pub fn take_build(&mut self, holder: &str, now: Millis) -> Result<Option<Building>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let held: Option<(String, Millis)> = tx
            .query_row("SELECT holder, started_at FROM said_build", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        if let Some((other, started_at)) = held
            && other != holder
            && crate::domain::harness::sender::gone(&other) == Some(false)
        {
            return Ok(Some(Building { started_at }));
        }
        tx.execute(
            "INSERT INTO said_build(one, holder, started_at) VALUES (1, ?1, ?2)
             ON CONFLICT(one) DO UPDATE SET holder = excluded.holder, started_at = excluded.started_at",
            params![holder, now],
        )?;
        tx.commit()?;
        Ok(None)
    }

    /// Gives the build lease back.
    pub fn release_build(&mut self, holder: &str) -> Result<()> {
        self.conn
            .execute("DELETE FROM said_build WHERE holder = ?1", [holder])?;
        Ok(())
    }

    /// Writes what a part of a session read for the index alone says (its
    /// texts packed where it was read, `pre`, or not): the first part in
    /// place of what the session said before. With `stamp`
    /// (the last part), the session is marked whole if ingest wrote
    /// nothing of it since the build planned it (else a later build reads
    /// it again). Parts are written in one transaction until one is
    /// written with `commit` (`commit_said` ends it too): a build commits
    /// a batch of parts at a time, so the full-text index writes one
    /// segment per batch rather than per part.
    pub fn write_said_only(
        &mut self,
        p: &ParsedSession,
        pre: Option<&super::said::Prepacked>,
        first: bool,
        stamp: Option<u64>,
        commit: bool,
    ) -> Result<()> {
        let written = (|| -> Result<()> {
            if self.conn.is_autocommit() {
                self.conn.execute_batch("BEGIN IMMEDIATE")?;
                self.said_known.begin(&self.conn)?;
            }
            // Its terms wait for the batch's commit (`commit_said`).
            let batch = (&mut self.said_terms, &mut self.said_known);
            super::said::write_said_into(&self.conn, (p, pre), first, batch)?;
            if let Some(stamp) = stamp
                && stamp_in(&self.conn, &p.session_id)? == stamp
            {
                mark(&self.conn, &p.session_id, true)?;
            }
            Ok(())
        })();
        if let Err(e) = written {
            self.abandon_said();
            return Err(e);
        }
        if commit {
            self.commit_said()?;
        }
        Ok(())
    }

    /// Commits the parts `write_said_only` wrote and did not commit.
    pub fn commit_said(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.said_terms.flush(&self.conn)?;
            self.conn.execute_batch("COMMIT")?;
            self.pacer.committed();
        }
        Ok(())
    }

    /// Before a build's batches: the full-text index merges none of the
    /// segments its batches write until the build ends (each batch's
    /// commit writes one; merging them as they come rewrote the postings
    /// two or three times over); on an empty index, the texts' hash index
    /// waits for the end too (`said::KnownTexts`).
    pub fn begin_said_batches(&mut self) -> Result<()> {
        self.said_known.start(&self.conn)?;
        set_automerge(&self.conn, 0)
    }

    /// After a build's batches (committed or not): the texts they wrote are
    /// forgotten (`said::KnownTexts`), the texts' hash index is there, and
    /// the full-text index merges its segments again, a little at each
    /// later write (FTS5's `automerge`).
    pub fn end_said_batches(&mut self) -> Result<()> {
        self.said_known.end(&self.conn)?;
        set_automerge(&self.conn, AUTOMERGE)
    }

    /// Rolls back the parts `write_said_only` wrote and did not commit
    /// (a build that failed: those sessions are read again next time).
    pub fn abandon_said(&mut self) {
        self.said_terms.clear();
        self.said_known.clear();
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

impl Store {
    /// What the index holds: places, distinct texts, their bytes, the
    /// bytes of the sessions it covers, and its size on disk (when SQLite
    /// can say: the `dbstat` table).
    pub fn index_stats(&self) -> Result<IndexStats> {
        let (places, sessions): (i64, i64) = self.conn.query_row(
            "SELECT COUNT(*), COUNT(DISTINCT session) FROM said",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let (texts, text_bytes): (i64, i64) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(len), 0) FROM said_texts",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let covered: i64 = self.conn.query_row(
            "SELECT COALESCE(SUM(bytes), 0) FROM sessions
             WHERE session_id IN (SELECT name FROM said_names
                                  WHERE n IN (SELECT DISTINCT session FROM said))",
            [],
            |r| r.get(0),
        )?;
        let disk: Option<i64> = self
            .conn
            .query_row(
                "SELECT SUM(pgsize) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema
                   WHERE tbl_name IN ('said', 'said_texts', 'said_blocks', 'said_names')
                      OR tbl_name LIKE 'said\\_fts%' ESCAPE '\\')",
                [],
                |r| r.get(0),
            )
            .optional()
            .ok()
            .flatten();
        Ok(IndexStats {
            places: places as u64,
            sessions: sessions as u64,
            texts: texts as u64,
            text_bytes: text_bytes as u64,
            covered_bytes: covered as u64,
            disk_bytes: disk.map(|d| d as u64),
        })
    }

    /// Drops the whole search index (`replay` rebuilds it) and gives its
    /// space back (`VACUUM`); with `dry_run`, only says what it holds.
    pub fn drop_index(&mut self, dry_run: bool) -> Result<Dropped> {
        let stats = self.index_stats()?;
        let file_bytes = |c: &rusqlite::Connection| -> Result<u64> {
            let n: i64 = c.query_row(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                [],
                |r| r.get(0),
            )?;
            Ok(n as u64)
        };
        let before = file_bytes(&self.conn)?;
        if dry_run {
            return Ok(Dropped {
                stats,
                file_bytes_before: before,
                file_bytes_after: before,
            });
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute("DELETE FROM said", [])?;
        tx.execute("DELETE FROM said_texts", [])?;
        tx.execute("DELETE FROM said_blocks", [])?;
        tx.execute("DELETE FROM said_names", [])?;
        tx.execute("DELETE FROM said_sessions", [])?;
        tx.execute("INSERT INTO said_fts(said_fts) VALUES ('delete-all')", [])?;
        tx.commit()?;
        self.conn.execute_batch("VACUUM")?;
        Ok(Dropped {
            stats,
            file_bytes_before: before,
            file_bytes_after: file_bytes(&self.conn)?,
        })
    }
}

/// The search index's size (`index_stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IndexStats {
    pub places: u64,
    pub sessions: u64,
    pub texts: u64,
    pub text_bytes: u64,
    /// Bytes of the transcripts of the sessions the index holds.
    pub covered_bytes: u64,
    /// Pages the index's tables and indexes take, when `dbstat` says.
    pub disk_bytes: Option<u64>,
}

/// What `drop_index` dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dropped {
    pub stats: IndexStats,
    pub file_bytes_before: u64,
    pub file_bytes_after: u64,
}

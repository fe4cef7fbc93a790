//! The hooks' own health: failures they recorded, and transcripts they left
//! for the next `ingest` (migration 0016).

use anyhow::Result;
use rusqlite::params;

use super::Store;
use crate::domain::clock::Millis;

/// How many failures are kept (the newest).
const KEEP_FAILURES: i64 = 200;

/// One recorded hook failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookFailure {
    pub at: Millis,
    pub harness: String,
    pub event: String,
    pub message: String,
}

/// A transcript a hook left for the next ingest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backlog {
    pub path: String,
    pub session_id: Option<String>,
    pub bytes_behind: i64,
    pub at: Millis,
    pub reason: String,
}

impl Store {
    /// Whether this connection can take the write lock (taken and released,
    /// nothing written).
    pub fn probe_write(&self) -> Result<()> {
        self.conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;")?;
        Ok(())
    }

    /// Records a hook failure (`message` already sanitized and redacted),
    /// keeping the newest `KEEP_FAILURES`.
    pub fn record_hook_failure(
        &self,
        harness: &str,
        event: &str,
        message: &str,
        now: Millis,
    ) -> Result<()> {
        self.conn.execute(
            "INSERT INTO hook_failures(at, harness, event, message) VALUES (?1, ?2, ?3, ?4)",
            params![now, harness, event, message],
        )?;
        self.conn.execute(
            "DELETE FROM hook_failures WHERE id <= (SELECT max(id) FROM hook_failures) - ?1",
            [KEEP_FAILURES],
        )?;
        Ok(())
    }

    /// Failures recorded at or after `since`, oldest first.
    pub fn hook_failures_since(&self, since: Millis) -> Result<Vec<HookFailure>> {
        let mut st = self.conn.prepare_cached(
            "SELECT at, harness, event, message FROM hook_failures WHERE at >= ?1 ORDER BY id",
        )?;
        let rows = st.query_map([since], |r| {
            Ok(HookFailure {
                at: r.get(0)?,
                harness: r.get(1)?,
                event: r.get(2)?,
                message: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Notes that `path` was left behind by a hook (replacing an older note).
    pub fn note_backlog(&self, b: &Backlog) -> Result<()> {
        self.conn.execute(
            "INSERT INTO ingest_backlog(path, session_id, bytes_behind, at, reason)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(path) DO UPDATE SET session_id = excluded.session_id,
               bytes_behind = excluded.bytes_behind, at = excluded.at, reason = excluded.reason",
            params![b.path, b.session_id, b.bytes_behind, b.at, b.reason],
        )?;
        Ok(())
    }

    /// Clears the note for `path` (it was read); whether there was one.
    pub fn clear_backlog(&self, path: &str) -> Result<bool> {
        Ok(self
            .conn
            .execute("DELETE FROM ingest_backlog WHERE path = ?1", [path])?
            > 0)
    }

    /// Every transcript left for the next ingest, oldest note first.
    pub fn backlog(&self) -> Result<Vec<Backlog>> {
        let mut st = self.conn.prepare_cached(
            "SELECT path, session_id, bytes_behind, at, reason FROM ingest_backlog ORDER BY at, path",
        )?;
        let rows = st.query_map([], |r| {
            Ok(Backlog {
                path: r.get(0)?,
                session_id: r.get(1)?,
                bytes_behind: r.get(2)?,
                at: r.get(3)?,
                reason: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

//! Writes of the transcript projection: one transaction per session
//! (Reliability rules), checkpoints, failures, remembered facts.

use std::collections::{BTreeSet, HashMap};

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

mod agents;
mod observations;
mod prune;
mod rollup_rows;

pub use observations::MessageCounts;
pub(crate) use observations::settle_pending;
pub(super) use observations::{ObsRow, insert_observations, observation_from, settle_messages};
pub(super) use rollup_rows::{put_rollup_row, refresh_rollup, rollup_row};

use agents::replace_agents;
use observations::write_observations;
use rollup_rows::write_rollup;

use super::Store;
use super::delta::merge_observations;
use crate::domain::clock::Millis;
use crate::domain::transcript::{PARSER_REVISION, ParsedSession};

/// Failures before a session is quarantined until its files change.
pub const MAX_ATTEMPTS: i64 = 3;

/// How one part of a session is written.
pub struct Projection<'a> {
    pub meta: &'a SessionMeta<'a>,
    pub now: Millis,
    /// The state to resume from after this part (JSON).
    pub state: &'a str,
    /// The session's last part: its checkpoint is written, and agents its
    /// files no longer show are removed.
    pub last: bool,
    /// The part was read with its words (`search.index`): what it said is
    /// written and the session stays whole in the index; read without, the
    /// session is no longer whole.
    pub said: bool,
}

/// Stores the harness's own figure, the last one its files state, and
/// the responses it priced in this read (`whole`: the session read from its
/// start, so those it priced before are replaced).
fn write_harness_cost(tx: &Transaction<'_>, p: &ParsedSession, whole: bool) -> Result<()> {
    let sid = p.session_id.as_str();
    if whole {
        tx.prepare_cached("DELETE FROM harness_message_costs WHERE session_id = ?1")?
            .execute([sid])?;
    }
    if let Some(c) = &p.harness_cost {
        let mut stmt = tx.prepare_cached(
            "INSERT OR REPLACE INTO harness_message_costs(session_id, message_id, cost_nanousd)
             VALUES (?1, ?2, ?3)",
        )?;
        for (id, nano) in &c.responses {
            stmt.execute(params![sid, id, nano])?;
        }
    }
    let Some(c) = &p.harness_cost else {
        tx.execute("DELETE FROM harness_costs WHERE session_id = ?1", [sid])?;
        return Ok(());
    };
    let models: Vec<serde_json::Value> = c
        .models
        .iter()
        .map(|m| {
            serde_json::json!({
                "model": m.model, "input": m.tokens.input, "output": m.tokens.output,
                "cache_write_5m": m.tokens.cache_write_5m, "cache_write_1h": m.tokens.cache_write_1h,
                "cache_read": m.tokens.cache_read, "web_searches": m.web_searches,
                "cost_nanousd": m.cost_nanousd,
            })
        })
        .collect();
    tx.execute(
        "INSERT INTO harness_costs(session_id, reported_at, cost_nanousd, models) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(session_id) DO UPDATE SET reported_at = excluded.reported_at,
           cost_nanousd = excluded.cost_nanousd, models = excluded.models",
        params![sid, c.at, c.cost_nanousd, serde_json::Value::Array(models).to_string()],
    )?;
    Ok(())
}

/// Stores the resume state and, after the last part, the checkpoint.
fn finish_part(tx: &Transaction<'_>, sid: &str, w: &Projection<'_>) -> Result<()> {
    tx.execute(
        "INSERT INTO ingest_resume(session_id, revision, state) VALUES (?1, ?2, ?3)
         ON CONFLICT(session_id) DO UPDATE SET revision = excluded.revision, state = excluded.state",
        params![sid, PARSER_REVISION, w.state],
    )?;
    if w.last {
        tx.execute(
            "INSERT INTO ingest_checkpoints(session_id, scope, fingerprint, revision, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(session_id) DO UPDATE SET scope = excluded.scope, fingerprint = excluded.fingerprint,
               revision = excluded.revision, recorded_at = excluded.recorded_at",
            params![sid, w.meta.scope, w.meta.fingerprint, PARSER_REVISION, w.now],
        )?;
    }
    tx.execute("DELETE FROM ingest_failures WHERE session_id = ?1", [sid])?;
    Ok(())
}

/// What is known about a session besides its parsed content.
pub struct SessionMeta<'a> {
    pub harness: &'a str,
    pub slug: &'a str,
    pub project: Option<&'a str>,
    pub scope: &'a str,
    pub fingerprint: &'a str,
}

/// The retry state of a session that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureState {
    pub fingerprint: String,
    pub attempts: i64,
    pub quarantined: bool,
    pub reason: String,
}

impl Store {
    /// Fingerprints of projected sessions at the current parser revision. A
    /// pruned session keeps its checkpoint, so unchanged files stay out.
    pub fn checkpoints(&self) -> Result<HashMap<String, String>> {
        let mut stmt = self.conn.prepare(
            "SELECT session_id, fingerprint FROM ingest_checkpoints WHERE revision = ?1",
        )?;
        let rows = stmt.query_map([PARSER_REVISION], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn failures(&self) -> Result<HashMap<String, FailureState>> {
        let mut stmt = self.conn.prepare(
            "SELECT session_id, fingerprint, attempts, quarantined, reason FROM ingest_failures",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                FailureState {
                    fingerprint: r.get(1)?,
                    attempts: r.get(2)?,
                    quarantined: r.get::<_, i64>(3)? != 0,
                    reason: r.get(4)?,
                },
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn session_ids(&self) -> Result<BTreeSet<String>> {
        let mut stmt = self.conn.prepare("SELECT session_id FROM sessions")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Remembered owners of flat agent files under one root (`None`: the file
    /// names no session).
    pub fn flat_owners(&self, scope: &str) -> Result<HashMap<String, Option<String>>> {
        let mut stmt = self
            .conn
            .prepare("SELECT rel_path, session_id FROM flat_agent_owners WHERE scope = ?1")?;
        let rows = stmt.query_map([scope], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn remember_flat_owners(
        &mut self,
        scope: &str,
        owners: &[(String, Option<String>)],
    ) -> Result<()> {
        if owners.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare(
                "INSERT INTO flat_agent_owners(scope, rel_path, session_id) VALUES (?1, ?2, ?3)
                 ON CONFLICT(scope, rel_path) DO UPDATE SET session_id = excluded.session_id",
            )?;
            for (rel, owner) in owners {
                stmt.execute(params![scope, rel, owner])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Remembers the roots a run read (their canonical paths).
    pub fn remember_roots(&self, roots: &[&str], now: Millis) -> Result<()> {
        let mut stmt = self.conn.prepare(
            "INSERT INTO ingest_roots(path, last_ingested_at) VALUES (?1, ?2)
             ON CONFLICT(path) DO UPDATE SET last_ingested_at = excluded.last_ingested_at",
        )?;
        for r in roots {
            stmt.execute(params![r, now])?;
        }
        Ok(())
    }

    /// The roots ingest has read from, most recent first.
    pub fn ingested_roots(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT path FROM ingest_roots ORDER BY last_ingested_at DESC, path")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn project_of_cwd(&self, cwd: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT project FROM projects WHERE cwd = ?1", [cwd], |r| {
                r.get(0)
            })
            .optional()?)
    }

    pub fn remember_project(&self, cwd: &str, project: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO projects(cwd, project) VALUES (?1, ?2) ON CONFLICT(cwd) DO NOTHING",
            params![cwd, project],
        )?;
        Ok(())
    }

    /// The state the last ingest of a session left to resume from (JSON),
    /// when it was left at this parser revision.
    pub fn resume_state(&self, session_id: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT state FROM ingest_resume WHERE session_id = ?1 AND revision = ?2",
                params![session_id, PARSER_REVISION],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Writes one part of a session: the first part of a session read from
    /// its start replaces what was projected from it; a later part, or one
    /// read on from where the last run stopped, adds to it.
    pub fn project_part(
        &mut self,
        p: &ParsedSession,
        w: &Projection<'_>,
        counts: Option<&mut MessageCounts>,
    ) -> Result<()> {
        if p.delta {
            self.project_delta(p, w, counts)?;
        } else {
            self.project_session(p, w, counts)?;
        }
        self.pacer.committed();
        Ok(())
    }

    /// Replaces everything projected from one session, settles the token rows
    /// of every message it holds or held, and commits its checkpoint — all in
    /// one transaction.
    fn project_session(
        &mut self,
        p: &ParsedSession,
        w: &Projection<'_>,
        counts: Option<&mut MessageCounts>,
    ) -> Result<()> {
        let prices = super::pricing::loaded(&self.prices, &self.conn)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let sid = p.session_id.as_str();
        upsert_session(&tx, p, w.meta, p.synthetic_messages)?;
        replace_agents(&tx, p, w.last)?;
        let (touched, own) = write_observations(&tx, p, counts, prices)?;
        if touched.is_empty() {
            // Nothing shared moved: the session's counted rows are the ones it
            // just wrote alone, summed in memory (no query over the view).
            write_rollup(&tx, sid, &own)?;
        } else {
            let mut affected = settle_messages(&tx, &touched, prices)?;
            affected.insert(sid.to_string());
            refresh_rollup(&tx, &affected)?;
        }
        replace_lines(&tx, p)?;
        super::said::write_said(&tx, p, true)?;
        super::said_whole::mark(&tx, sid, w.said)?;
        write_harness_cost(&tx, p, true)?;
        finish_part(&tx, sid, w)?;
        tx.commit()?;
        Ok(())
    }

    /// Adds a part to what is projected from a session: its messages merge
    /// with the session's stored ones by the counting rule, its compactions
    /// and bad lines are appended, its agents and edges are rebuilt from the
    /// session-wide facts the part carries. The report rollup moves by the
    /// difference the part made, not by a recount of the session.
    fn project_delta(
        &mut self,
        p: &ParsedSession,
        w: &Projection<'_>,
        counts: Option<&mut MessageCounts>,
    ) -> Result<()> {
        let prices = super::pricing::loaded(&self.prices, &self.conn)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let sid = p.session_id.as_str();
        let prior: i64 = tx
            .query_row(
                "SELECT synthetic_messages FROM sessions WHERE session_id = ?1",
                [sid],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(0);
        upsert_session(&tx, p, w.meta, prior as u64)?;
        replace_agents(&tx, p, w.last)?;
        let synthetic = merge_observations(&tx, p, counts, prices)?;
        if synthetic > 0 {
            tx.execute(
                "UPDATE sessions SET synthetic_messages = synthetic_messages + ?2 WHERE session_id = ?1",
                params![sid, synthetic as i64],
            )?;
        }
        append_lines(&tx, p)?;
        // Words read on from a session the index does not hold whole would
        // leave it holding a part: they wait for the build to read it all.
        if w.said && super::said_whole::is_whole(&tx, sid)? {
            super::said::write_said(&tx, p, false)?;
        } else {
            super::said_whole::mark(&tx, sid, false)?;
        }
        write_harness_cost(&tx, p, false)?;
        finish_part(&tx, sid, w)?;
        tx.commit()?;
        Ok(())
    }

    /// Counts a failed attempt; the third consecutive failure on the same
    /// files quarantines the session.
    pub fn record_failure(
        &mut self,
        session_id: &str,
        meta: &SessionMeta<'_>,
        reason: &str,
        now: Millis,
    ) -> Result<FailureState> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let prior: Option<(String, i64)> = tx
            .query_row(
                "SELECT fingerprint, attempts FROM ingest_failures WHERE session_id = ?1",
                [session_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let attempts = match prior {
            Some((fp, n)) if fp == meta.fingerprint => n + 1,
            _ => 1,
        };
        let quarantined = attempts >= MAX_ATTEMPTS;
        tx.execute(
            "INSERT INTO ingest_failures(session_id, scope, project_slug, fingerprint, attempts, quarantined,
               reason, last_attempt_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)
             ON CONFLICT(session_id) DO UPDATE SET scope = excluded.scope, project_slug = excluded.project_slug,
               fingerprint = excluded.fingerprint, attempts = excluded.attempts,
               quarantined = excluded.quarantined, reason = excluded.reason,
               last_attempt_at = excluded.last_attempt_at",
            params![session_id, meta.scope, meta.slug, meta.fingerprint, attempts, quarantined, reason, now],
        )?;
        tx.commit()?;
        Ok(FailureState {
            fingerprint: meta.fingerprint.to_string(),
            attempts,
            quarantined,
            reason: reason.to_string(),
        })
    }
}

fn upsert_session(
    tx: &Transaction<'_>,
    p: &ParsedSession,
    meta: &SessionMeta<'_>,
    synthetic: u64,
) -> Result<()> {
    tx.execute(
        "INSERT INTO sessions(session_id, harness, project_slug, cwd, project, git_branch, harness_version,
           started_at, last_activity_at, status, status_at, records, unknown_records, synthetic_messages,
           bytes, degraded_lines, title)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,'working',?9,?10,?11,?12,?13,?14,?15)
         ON CONFLICT(session_id) DO UPDATE SET harness = excluded.harness,
           project_slug = excluded.project_slug, cwd = excluded.cwd, project = excluded.project,
           git_branch = excluded.git_branch, harness_version = excluded.harness_version,
           started_at = excluded.started_at, last_activity_at = excluded.last_activity_at,
           records = excluded.records, unknown_records = excluded.unknown_records,
           synthetic_messages = excluded.synthetic_messages, bytes = excluded.bytes,
           degraded_lines = excluded.degraded_lines,
           title = COALESCE(excluded.title, sessions.title)",
        params![
            p.session_id,
            meta.harness,
            meta.slug,
            p.cwd,
            meta.project,
            p.git_branch,
            p.harness_version,
            p.started_at,
            p.last_activity_at,
            p.records as i64,
            p.unknown_records as i64,
            synthetic as i64,
            p.bytes as i64,
            p.degraded() as i64,
            p.title
        ],
    )?;
    Ok(())
}

fn replace_lines(tx: &Transaction<'_>, p: &ParsedSession) -> Result<()> {
    let sid = p.session_id.as_str();
    tx.execute("DELETE FROM compactions WHERE session_id = ?1", [sid])?;
    tx.execute("DELETE FROM degraded_lines WHERE session_id = ?1", [sid])?;
    append_lines(tx, p)
}

/// Adds a part's compactions and bad lines.
fn append_lines(tx: &Transaction<'_>, p: &ParsedSession) -> Result<()> {
    let sid = p.session_id.as_str();
    let mut stmt = tx.prepare_cached(
        "INSERT INTO compactions(session_id, file, line, agent_id, occurred_at, trigger, pre_tokens)
         VALUES (?1,?2,?3,?4,?5,?6,?7) ON CONFLICT(session_id, file, line) DO NOTHING",
    )?;
    for c in &p.compactions {
        stmt.execute(params![
            sid,
            c.file,
            c.line as i64,
            c.agent_id,
            c.at,
            c.trigger,
            c.pre_tokens
        ])?;
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO degraded_lines(session_id, file, line, reason) VALUES (?1,?2,?3,?4)
         ON CONFLICT(session_id, file, line) DO NOTHING",
    )?;
    for b in &p.bad_lines {
        stmt.execute(params![sid, b.file, b.line as i64, b.reason])?;
    }
    // Whole files that could not be read are the state as of now.
    tx.execute(
        "DELETE FROM degraded_lines WHERE session_id = ?1 AND line = 0",
        [sid],
    )?;
    for b in &p.file_problems {
        stmt.execute(params![sid, b.file, 0, b.reason])?;
    }
    Ok(())
}

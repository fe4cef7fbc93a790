//! Writes of the transcript projection: one transaction per session
//! (Reliability rules), checkpoints, failures, remembered facts.

use std::collections::{BTreeSet, HashMap};

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::Store;
use super::delta::merge_observations;
use super::events::{evidence_of, mirror_main, pending_for};
use crate::clock::Millis;
use crate::pricing::PriceTable;
use crate::rollup::{self, Counted, Key, Rollup, Sums};
use crate::status::{self, Evidence};
use crate::transcript::usage::settle;
use crate::transcript::{
    Billing, Buckets, Edge, PARSER_REVISION, ParsedSession, UsageObservation, place, resolve,
};

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
}

/// Stores the harness's own figure, the last one its files state.
fn write_harness_cost(tx: &Transaction<'_>, p: &ParsedSession) -> Result<()> {
    let sid = p.session_id.as_str();
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
        write_harness_cost(&tx, p)?;
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
        write_harness_cost(&tx, p)?;
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

/// What `prune` removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneReport {
    pub sessions: u64,
    pub agents: u64,
    pub token_rows: u64,
    pub degraded_lines: u64,
}

impl Store {
    /// Removes the projection of sessions whose last activity is before
    /// `before` (optionally of one project). Memories and runs are never
    /// touched. A dry run does the work and rolls it back, so its numbers are exact.
    pub fn prune(
        &mut self,
        before: Millis,
        project: Option<&str>,
        dry_run: bool,
    ) -> Result<PruneReport> {
        let prices = super::pricing::loaded(&self.prices, &self.conn)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids: Vec<String> = tx
            .prepare(
                "SELECT session_id FROM sessions WHERE last_activity_at < ?1
                 AND (?2 IS NULL OR project = ?2 OR project_slug = ?2) ORDER BY session_id",
            )?
            .query_map(params![before, project], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let count = |sql: &str| -> Result<u64> {
            Ok(tx.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
        };
        let tokens_before = count("SELECT COUNT(*) FROM token_usage")?;
        let mut report = PruneReport::default();
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for id in &ids {
            let one = |sql: &str| -> Result<u64> {
                Ok(tx.query_row(sql, [id], |r| r.get::<_, i64>(0))? as u64)
            };
            report.agents += one("SELECT COUNT(*) FROM agents WHERE session_id = ?1")?;
            report.degraded_lines +=
                one("SELECT COUNT(*) FROM degraded_lines WHERE session_id = ?1")?;
            let mut stmt = tx.prepare_cached(
                "SELECT message_id FROM usage_observations WHERE session_id = ?1",
            )?;
            for m in stmt.query_map([id], |r| r.get::<_, String>(0))? {
                touched.insert(m?);
            }
            tx.execute("DELETE FROM sessions WHERE session_id = ?1", [id])?;
            tx.execute("DELETE FROM ingest_failures WHERE session_id = ?1", [id])?;
        }
        let affected = settle_messages(&tx, &touched, prices)?;
        refresh_rollup(&tx, &affected)?;
        report.sessions = ids.len() as u64;
        report.token_rows = tokens_before - count("SELECT COUNT(*) FROM token_usage")?;
        if dry_run {
            tx.rollback()?;
        } else {
            tx.commit()?;
        }
        Ok(report)
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
           bytes, degraded_lines)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,'working',?9,?10,?11,?12,?13,?14)
         ON CONFLICT(session_id) DO UPDATE SET harness = excluded.harness,
           project_slug = excluded.project_slug, cwd = excluded.cwd, project = excluded.project,
           git_branch = excluded.git_branch, harness_version = excluded.harness_version,
           started_at = excluded.started_at, last_activity_at = excluded.last_activity_at,
           records = excluded.records, unknown_records = excluded.unknown_records,
           synthetic_messages = excluded.synthetic_messages, bytes = excluded.bytes,
           degraded_lines = excluded.degraded_lines",
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
            p.degraded() as i64
        ],
    )?;
    Ok(())
}

/// Upserts the session's agents and, after its last part (`remove_absent`),
/// removes the ones its files no longer show. Each agent's status is the transcript's evidence unless what is
/// stored wins over it (Decision 7, `crate::status`); an agent created now
/// also takes the hook events stored for it before it existed. The session's
/// status mirrors its main agent.
fn replace_agents(tx: &Transaction<'_>, p: &ParsedSession, remove_absent: bool) -> Result<()> {
    let sid = p.session_id.as_str();
    let edges = resolve(p);
    let stored: HashMap<String, Evidence> = tx
        .prepare(
            "SELECT agent_id, status, status_at, outcome_cause FROM agents WHERE session_id = ?1",
        )?
        .query_map([sid], |r| {
            Ok((
                r.get::<_, String>(0)?,
                evidence_of(
                    &r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get::<_, Option<String>>(3)?.as_deref(),
                ),
            ))
        })?
        .collect::<Result<_, _>>()?;
    let created: Vec<&str> = p
        .agents
        .iter()
        .map(|a| a.agent_id.as_str())
        .filter(|id| !stored.contains_key(*id))
        .collect();
    let pending = pending_for(tx, sid, &created)?;
    let mut stmt = tx.prepare(
        "INSERT INTO agents(session_id, agent_id, parent_agent_id, layout, agent_type, description, spawn_depth,
           sidecar_tool_use_id, workflow_id, transcript_path, first_seen_at, last_seen_at, status, status_at,
           outcome_cause, records, join_path, spawn_tool_use_id)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)
         ON CONFLICT(session_id, agent_id) DO UPDATE SET parent_agent_id = excluded.parent_agent_id,
           layout = excluded.layout, agent_type = excluded.agent_type, description = excluded.description,
           spawn_depth = excluded.spawn_depth, sidecar_tool_use_id = excluded.sidecar_tool_use_id,
           workflow_id = excluded.workflow_id, transcript_path = excluded.transcript_path,
           first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at,
           status = excluded.status, status_at = excluded.status_at, outcome_cause = excluded.outcome_cause,
           records = excluded.records, join_path = excluded.join_path,
           spawn_tool_use_id = excluded.spawn_tool_use_id",
    )?;
    for placed in place(p, &edges) {
        let a = placed.agent;
        let edge = placed.edge;
        let later = pending.get(&a.agent_id).map_or(&[][..], Vec::as_slice);
        let status = status::settle(placed.evidence, stored.get(&a.agent_id), later);
        stmt.execute(params![
            sid,
            a.agent_id,
            edge.and_then(|e| e.parent.as_deref()),
            a.layout.as_str(),
            placed.agent_type,
            placed.description,
            a.spawn_depth,
            a.sidecar_tool_use_id,
            a.workflow_id,
            a.transcript_path,
            a.first_seen,
            a.last_seen,
            status.status.as_str(),
            status.at,
            status.cause.as_str(),
            a.records as i64,
            edge.map(|e| e.join_path.as_str()),
            edge.and_then(|e| e.tool_use_id.as_deref())
        ])?;
    }
    let keep: BTreeSet<&str> = p.agents.iter().map(|a| a.agent_id.as_str()).collect();
    let absent = stored
        .keys()
        .filter(|id| remove_absent && !keep.contains(id.as_str()));
    for id in absent {
        tx.execute(
            "DELETE FROM agents WHERE session_id = ?1 AND agent_id = ?2",
            params![sid, id],
        )?;
    }
    mirror_main(tx, sid)?;
    replace_edges(tx, p, &edges)
}

/// Decision 5: a session's edges and spawn calls are replaced, not accumulated.
fn replace_edges(tx: &Transaction<'_>, p: &ParsedSession, edges: &[Edge]) -> Result<()> {
    let sid = p.session_id.as_str();
    tx.execute(
        "DELETE FROM orchestration_edges WHERE session_id = ?1",
        [sid],
    )?;
    tx.execute("DELETE FROM spawn_calls WHERE session_id = ?1", [sid])?;
    let mut edge = tx.prepare(
        "INSERT INTO orchestration_edges(session_id, child_agent_id, parent_agent_id, join_path, tool_use_id)
         VALUES (?1,?2,?3,?4,?5)",
    )?;
    let mut child_of_call: HashMap<&str, &str> = HashMap::new();
    for e in edges {
        if let Some(call) = e.tool_use_id.as_deref() {
            child_of_call.insert(call, e.child.as_str());
        }
        // An orphan has no parent and no edge.
        if let Some(parent) = e.parent.as_deref() {
            edge.execute(params![
                sid,
                e.child,
                parent,
                e.join_path.as_str(),
                e.tool_use_id
            ])?;
        }
    }
    let mut call = tx.prepare(
        "INSERT OR IGNORE INTO spawn_calls(session_id, tool_use_id, owner_agent_id, tool, subagent_type,
           description, called_at, result_at, is_error, child_agent_id, reported_total_tokens,
           reported_input_tokens, reported_output_tokens, reported_cache_write_5m_tokens,
           reported_cache_write_1h_tokens, reported_cache_read_tokens)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
    )?;
    for s in &p.spawns {
        let r = s.result.as_ref();
        let rep = r.and_then(|r| r.reported);
        let b = rep.and_then(|x| x.buckets);
        let n = |f: fn(&Buckets) -> u64| b.as_ref().map(|b| f(b) as i64);
        call.execute(params![
            sid,
            s.tool_use_id,
            s.owner,
            s.tool,
            s.subagent_type,
            s.description,
            s.at,
            r.and_then(|r| r.at),
            r.map(|r| r.is_error),
            child_of_call.get(s.tool_use_id.as_str()),
            rep.and_then(|x| x.total_tokens).map(|t| t as i64),
            n(|b| b.input),
            n(|b| b.output),
            n(|b| b.cache_write_5m),
            n(|b| b.cache_write_1h),
            n(|b| b.cache_read)
        ])?;
    }
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

/// How many sessions hold each message id, kept in memory for a large run so
/// that writing a message needs no index lookup to know whether it is shared.
#[derive(Debug, Default)]
pub struct MessageCounts(HashMap<String, u32>);

impl MessageCounts {
    /// Counts one more session holding `id`; whether it is the only one.
    pub(super) fn add(&mut self, id: &str) -> bool {
        if let Some(n) = self.0.get_mut(id) {
            *n += 1;
            *n == 1
        } else {
            self.0.insert(id.to_string(), 1);
            true
        }
    }
}

impl Store {
    /// Loads the count of observing sessions of every message id.
    pub fn message_counts(&self) -> Result<MessageCounts> {
        let mut stmt = self
            .conn
            .prepare("SELECT message_id, COUNT(*) FROM usage_observations GROUP BY message_id")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))?;
        Ok(MessageCounts(rows.collect::<Result<_, _>>()?))
    }
}

/// Replaces the session's observations. A message no other session holds
/// (the common case) is written already counted; the ids returned — held by
/// another session too, or held before and gone now — need `settle_messages`.
fn write_observations(
    tx: &Transaction<'_>,
    p: &ParsedSession,
    mut counts: Option<&mut MessageCounts>,
    prices: &PriceTable,
) -> Result<(BTreeSet<String>, Rollup)> {
    let sid = p.session_id.as_str();
    let mut old: BTreeSet<String> = BTreeSet::new();
    {
        let mut stmt =
            tx.prepare("SELECT message_id FROM usage_observations WHERE session_id = ?1")?;
        for id in stmt.query_map([sid], |r| r.get::<_, String>(0))? {
            old.insert(id?);
        }
    }
    if !old.is_empty() {
        tx.execute(
            "DELETE FROM usage_observations WHERE session_id = ?1",
            [sid],
        )?;
        if let Some(c) = counts.as_deref_mut() {
            for id in &old {
                if let Some(n) = c.0.get_mut(id) {
                    *n = n.saturating_sub(1);
                }
            }
        }
    }
    let mut shared =
        tx.prepare_cached("SELECT 1 FROM usage_observations WHERE message_id = ?1 LIMIT 1")?;
    let mut touched: BTreeSet<String> = BTreeSet::new();
    // In key order: the session's rows append to the table, and neighbouring
    // index entries land on the same pages.
    let mut usage: Vec<&crate::transcript::UsageObservation> = p.usage.iter().collect();
    usage.sort_unstable_by(|a, b| a.message_id.cmp(&b.message_id));
    let mut rows: Vec<ObsRow<'_>> = Vec::with_capacity(usage.len());
    for u in usage {
        old.remove(&u.message_id);
        let alone = match counts.as_deref_mut() {
            Some(c) => c.add(&u.message_id),
            None => !shared.exists([&u.message_id])?,
        };
        if !alone {
            touched.insert(u.message_id.clone());
        }
        rows.push(ObsRow::of(sid, u, alone, prices));
    }
    insert_observations(tx, &rows)?;
    touched.extend(old);
    if counts.is_some() {
        // Bulk mode: no message index now; settle these at the end of the run.
        let mut pend =
            tx.prepare_cached("INSERT OR IGNORE INTO pending_settle(message_id) VALUES (?1)")?;
        for id in &touched {
            pend.execute([id])?;
        }
        touched.clear();
    }
    let own = rollup::sum(rows.iter().filter(|r| r.counted).map(|r| Counted {
        agent: r.agent_id.unwrap_or(sid),
        model: r.model,
        at: r.at,
        tokens: r.tokens,
        cost: r.cost,
    }));
    Ok((touched, own))
}

/// Replaces a session's rollup with rows summed in memory.
pub(super) fn write_rollup(tx: &Transaction<'_>, sid: &str, own: &Rollup) -> Result<()> {
    tx.execute("DELETE FROM usage_rollup WHERE session_id = ?1", [sid])?;
    for (key, sums) in own {
        put_rollup_row(tx, sid, key, sums)?;
    }
    Ok(())
}

/// Writes one rollup row as it now stands (none when it holds no message).
pub(super) fn put_rollup_row(
    tx: &Transaction<'_>,
    sid: &str,
    (agent, model, hour): &Key,
    e: &Sums,
) -> Result<()> {
    if e.messages == 0 {
        tx.prepare_cached(
            "DELETE FROM usage_rollup WHERE session_id = ?1 AND agent_id = ?2 AND model = ?3 AND hour = ?4",
        )?
        .execute(params![sid, agent, model, hour])?;
        return Ok(());
    }
    let t = &e.tokens;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO usage_rollup(session_id, agent_id, model, hour, messages, input_tokens,
           output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, first_at,
           last_at, priced_messages, cost_nanousd, unpriced_tokens)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)",
    )?
    .execute(params![
        sid, agent, model, hour, e.messages, t[0], t[1], t[2], t[3], t[4], e.first, e.last,
        e.priced, e.cost, e.unpriced
    ])?;
    Ok(())
}

/// One stored rollup row.
pub(super) fn rollup_row(
    tx: &Transaction<'_>,
    sid: &str,
    (agent, model, hour): &Key,
) -> Result<Option<Sums>> {
    Ok(tx
        .prepare_cached(
            "SELECT messages, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
               cache_read_tokens, first_at, last_at, priced_messages, cost_nanousd, unpriced_tokens
             FROM usage_rollup WHERE session_id = ?1 AND agent_id = ?2 AND model = ?3 AND hour = ?4",
        )?
        .query_row(params![sid, agent, model, hour], |r| {
            Ok(Sums {
                messages: r.get(0)?,
                tokens: [r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?],
                first: r.get(6)?,
                last: r.get(7)?,
                priced: r.get(8)?,
                cost: r.get(9)?,
                unpriced: r.get(10)?,
            })
        })
        .optional()?)
}

/// One observation row as bound to the INSERT.
pub(super) struct ObsRow<'a> {
    pub session_id: &'a str,
    pub message_id: &'a str,
    pub agent_id: Option<&'a str>,
    pub record_session_id: Option<&'a str>,
    pub model: &'a str,
    pub at: Option<i64>,
    pub tokens: [i64; 5],
    pub counted: bool,
    pub cost: Option<i64>,
    pub billing: Billing,
}

impl<'a> ObsRow<'a> {
    /// A session's observation as written: counted (and priced) when it is
    /// the only one of its message; the common values as NULL (narrower
    /// rows, fewer pages).
    pub(super) fn of(
        sid: &'a str,
        u: &'a UsageObservation,
        alone: bool,
        prices: &PriceTable,
    ) -> ObsRow<'a> {
        let b = u.buckets;
        ObsRow {
            session_id: sid,
            message_id: &u.message_id,
            agent_id: (u.agent_id != sid).then_some(u.agent_id.as_str()),
            record_session_id: (u.record_session_id != sid).then_some(u.record_session_id.as_str()),
            model: &u.model,
            at: u.at,
            tokens: [
                b.input,
                b.output,
                b.cache_write_5m,
                b.cache_write_1h,
                b.cache_read,
            ]
            .map(|v| v as i64),
            counted: alone,
            cost: if alone {
                prices.message_cost(&u.model, &u.buckets, u.billing)
            } else {
                None
            },
            billing: u.billing,
        }
    }
}

/// Rows per multi-row INSERT (15 parameters each, under SQLite's limit).
const INSERT_BATCH: usize = 64;

/// The parameters of a run of rows, in column order.
/// Binds a chunk's rows to a statement of `chunk.len()` value tuples, each
/// value by its own type (no list of trait objects per chunk).
fn bind(stmt: &mut rusqlite::CachedStatement<'_>, chunk: &[ObsRow<'_>]) -> rusqlite::Result<()> {
    const COLUMNS: usize = 15;
    for (i, r) in chunk.iter().enumerate() {
        let at = i * COLUMNS;
        stmt.raw_bind_parameter(at + 1, r.session_id)?;
        stmt.raw_bind_parameter(at + 2, r.message_id)?;
        stmt.raw_bind_parameter(at + 3, r.agent_id)?;
        stmt.raw_bind_parameter(at + 4, r.record_session_id)?;
        stmt.raw_bind_parameter(at + 5, r.model)?;
        stmt.raw_bind_parameter(at + 6, r.at)?;
        for (k, t) in r.tokens.iter().enumerate() {
            stmt.raw_bind_parameter(at + 7 + k, t)?;
        }
        stmt.raw_bind_parameter(at + 12, r.counted)?;
        stmt.raw_bind_parameter(at + 13, r.cost)?;
        stmt.raw_bind_parameter(at + 14, r.billing.flags())?;
        stmt.raw_bind_parameter(
            at + 15,
            (r.billing.web_searches > 0).then_some(r.billing.web_searches as i64),
        )?;
    }
    Ok(())
}

/// Inserts observation rows, `INSERT_BATCH` per statement.
pub(super) fn insert_observations(tx: &Transaction<'_>, rows: &[ObsRow<'_>]) -> Result<()> {
    const COLS: &str = "INSERT INTO usage_observations(session_id, message_id, agent_id, record_session_id, model,
        occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
        counted, cost_nanousd, billing, web_searches) VALUES ";
    let values = |n: usize| -> String {
        let one = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        format!("{COLS}{}", vec![one; n].join(","))
    };
    let mut chunks = rows.chunks_exact(INSERT_BATCH);
    if rows.len() >= INSERT_BATCH {
        let mut stmt = tx.prepare_cached(&values(INSERT_BATCH))?;
        for chunk in &mut chunks {
            bind(&mut stmt, chunk)?;
            stmt.raw_execute()?;
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut stmt = tx.prepare_cached(&values(1))?;
        for r in rest {
            bind(&mut stmt, std::slice::from_ref(r))?;
            stmt.raw_execute()?;
        }
    }
    Ok(())
}

/// Settles every message a bulk run deferred, in one transaction.
pub(crate) fn settle_pending(conn: &mut rusqlite::Connection, prices: &PriceTable) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let ids: BTreeSet<String> = tx
        .prepare("SELECT message_id FROM pending_settle")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if !ids.is_empty() {
        let affected = settle_messages(&tx, &ids, prices)?;
        refresh_rollup(&tx, &affected)?;
        tx.execute("DELETE FROM pending_settle", [])?;
    }
    tx.commit()?;
    Ok(())
}

/// An observation from a row holding, from column `at`, its agent, record
/// session, model, time and five token counts, and from `billing_at` its
/// billing flags and web searches.
pub(super) fn observation_from(
    r: &rusqlite::Row<'_>,
    id: &str,
    at: usize,
    billing_at: usize,
) -> rusqlite::Result<UsageObservation> {
    let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(at + i)? as u64) };
    Ok(UsageObservation {
        message_id: id.to_string(),
        agent_id: r.get(at)?,
        record_session_id: r.get(at + 1)?,
        model: r.get(at + 2)?,
        at: r.get(at + 3)?,
        buckets: Buckets {
            input: n(4)?,
            output: n(5)?,
            cache_write_5m: n(6)?,
            cache_write_1h: n(7)?,
            cache_read: n(8)?,
        },
        billing: Billing::from_columns(r.get(billing_at)?, r.get(billing_at + 1)?),
    })
}

/// The settled state of one observation: counted, model, time, buckets.
type Settled = (
    bool,
    Option<String>,
    Option<i64>,
    [Option<i64>; 5],
    Option<i64>,
);

/// Recomputes which observation of each message is counted, and its settled
/// values, from every session's observation (`transcript::usage::settle`).
/// Rows already in the right state are not written. Returns the sessions
/// whose counted rows changed.
pub(crate) fn settle_messages(
    tx: &Transaction<'_>,
    ids: &BTreeSet<String>,
    prices: &PriceTable,
) -> Result<BTreeSet<String>> {
    let mut affected: BTreeSet<String> = BTreeSet::new();
    let mut select = tx.prepare_cached(
        "SELECT session_id, COALESCE(agent_id, session_id), COALESCE(record_session_id, session_id), model,
           occurred_at, input_tokens, output_tokens,
           cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, counted, t_model, t_occurred_at,
           t_input_tokens, t_output_tokens, t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens,
           cost_nanousd, billing, web_searches
         FROM usage_observations WHERE message_id = ?1 ORDER BY session_id",
    )?;
    let mut set = tx.prepare_cached(
        "UPDATE usage_observations SET counted = ?3, t_model = ?4, t_occurred_at = ?5, t_input_tokens = ?6,
           t_output_tokens = ?7, t_cache_write_5m_tokens = ?8, t_cache_write_1h_tokens = ?9,
           t_cache_read_tokens = ?10, cost_nanousd = ?11
         WHERE session_id = ?1 AND message_id = ?2",
    )?;
    let mut obs: Vec<(String, UsageObservation)> = Vec::new();
    let mut state: Vec<Settled> = Vec::new();
    for id in ids {
        obs.clear();
        state.clear();
        let mut rows = select.query([id])?;
        while let Some(r) = rows.next()? {
            obs.push((r.get::<_, String>(0)?, observation_from(r, id, 1, 19)?));
            state.push((
                r.get::<_, i64>(10)? != 0,
                r.get(11)?,
                r.get(12)?,
                [r.get(13)?, r.get(14)?, r.get(15)?, r.get(16)?, r.get(17)?],
                r.get(18)?,
            ));
        }
        drop(rows);
        let Some((owner, m)) = settle(&obs) else {
            continue;
        };
        let uncounted: Settled = (false, None, None, [None; 5], None);
        let cost = prices.message_cost(&m.model, &m.buckets, m.billing);
        for ((session, own), now) in obs.iter().zip(&state) {
            let want = if session != owner {
                uncounted.clone()
            } else if own.model == m.model && own.at == m.at && own.buckets == m.buckets {
                (true, None, None, [None; 5], cost)
            } else {
                let b = m.buckets;
                (
                    true,
                    Some(m.model.clone()),
                    m.at,
                    [
                        b.input,
                        b.output,
                        b.cache_write_5m,
                        b.cache_write_1h,
                        b.cache_read,
                    ]
                    .map(|v| Some(v as i64)),
                    cost,
                )
            };
            if *now != want {
                set.execute(params![
                    session, id, want.0, want.1, want.2, want.3[0], want.3[1], want.3[2],
                    want.3[3], want.3[4], want.4
                ])?;
                affected.insert(session.clone());
            }
        }
    }
    Ok(affected)
}

/// Recomputes the rollup rows of these sessions from their counted rows,
/// summed by the one rule (`rollup::sum`).
pub(crate) fn refresh_rollup(tx: &Transaction<'_>, sessions: &BTreeSet<String>) -> Result<()> {
    let mut rows = tx.prepare_cached(
        "SELECT agent_id, model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens,
           cache_write_1h_tokens, cache_read_tokens, cost_nanousd
         FROM token_usage WHERE session_id = ?1",
    )?;
    for s in sessions {
        let mut sums = Rollup::new();
        let mut q = rows.query([s])?;
        while let Some(r) = q.next()? {
            let (agent, model): (String, String) = (r.get(0)?, r.get(1)?);
            rollup::add(
                &mut sums,
                Counted {
                    agent: &agent,
                    model: &model,
                    at: r.get(2)?,
                    tokens: [r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
                    cost: r.get(8)?,
                },
            );
        }
        write_rollup(tx, s, &sums)?;
    }
    Ok(())
}

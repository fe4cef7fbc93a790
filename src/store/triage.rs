//! The triage handshake's rows: `begin` arms at most one
//! attempt, `complete` finalizes it, each one `BEGIN IMMEDIATE`
//! transaction. The rules are `continuity::triage`'s; this reads and writes.

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::Store;
use super::memories::new_id;
use super::runs::RunError;
use crate::domain::clock::Millis;
use crate::domain::debrief::{BriefedCommitment, Facets};
use crate::domain::runs::{MAX_RUN_EVENTS, State, state};
use crate::domain::triage::{
    self, Attempt, Decline, EntryInput, TriageStatus, log_armed, log_finalized,
};

/// What a begin did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Begun {
    pub run_id: String,
    pub armed: bool,
    /// The armed attempt, or the pending one a `pending` decline names
    /// (so the caller can finalize it); none for `pending-fresh`.
    pub attempt_id: Option<String>,
    pub status: TriageStatus,
    pub reason: Option<Decline>,
}

/// What a complete did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completed {
    pub run_id: String,
    pub status: TriageStatus,
    /// The run's events visible now (at most the ceiling).
    pub event_count: usize,
    /// Of those, the ones not in the watermark the begin stamped.
    pub since_begin_count: usize,
    pub truncated: bool,
}

/// How a complete ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    Completed(Completed),
    /// The run has no pending attempt by that id (another Stop finalized it
    /// first, or it was never armed): nothing was written.
    NotPending {
        run_id: String,
        status: TriageStatus,
    },
}

impl Completion {
    /// The completion, or the conflict as a command reports it.
    pub fn or_conflict(self, attempt: &str) -> Result<Completed, RunError> {
        match self {
            Completion::Completed(c) => Ok(c),
            Completion::NotPending { run_id, status } => Err(RunError::TriageConflict {
                run_id,
                attempt: attempt.to_string(),
                status: status.as_str().to_string(),
            }),
        }
    }
}

/// A run's triage columns.
struct Row {
    run_id: String,
    opened_at: Millis,
    closed_at: Option<Millis>,
    last_seen_at: Millis,
    status: TriageStatus,
    attempt_id: Option<String>,
    armed_at: Option<Millis>,
    log: String,
    watermark: String,
    turns: i64,
}

fn row(tx: &Transaction<'_>, agent: &str, session_id: &str) -> Result<Option<Row>> {
    Ok(tx
        .prepare_cached(
            "SELECT run_id, opened_at, closed_at, last_seen_at, triage_status, triage_attempt_id,
               triage_armed_at, triage_attempt_log, last_triaged_event_ids, stop_turns
             FROM agent_sessions WHERE agent = ?1 AND session_id = ?2",
        )?
        .query_row([agent, session_id], |r| {
            Ok(Row {
                run_id: r.get(0)?,
                opened_at: r.get(1)?,
                closed_at: r.get(2)?,
                last_seen_at: r.get(3)?,
                status: r.get(4)?,
                attempt_id: r.get(5)?,
                armed_at: r.get(6)?,
                log: r.get(7)?,
                watermark: r.get(8)?,
                turns: r.get(9)?,
            })
        })
        .optional()?)
}

/// Arms a new attempt on run `r`: its watermark becomes `ids` (every
/// event visible now), its log gains the attempt.
fn arm(tx: &Transaction<'_>, r: &Row, ids: &[String], now: Millis) -> Result<Begun> {
    let attempt = new_id(now);
    let log = log_armed(
        log_of(&r.log),
        Attempt {
            attempt_id: attempt.clone(),
            armed_at: now,
            finalized_at: None,
            outcome: None,
        },
    );
    tx.prepare_cached(
        "UPDATE agent_sessions SET triage_status = 'pending', triage_attempt_id = ?2,
           last_triaged_event_ids = ?3, triage_armed_at = ?4, triage_attempt_log = ?5,
           triage_attempt_count = triage_attempt_count + 1
         WHERE run_id = ?1",
    )?
    .execute(params![
        r.run_id,
        attempt,
        serde_json::to_string(ids)?,
        now,
        serde_json::to_string(&log)?
    ])?;
    Ok(Begun {
        run_id: r.run_id.clone(),
        armed: true,
        attempt_id: Some(attempt),
        status: TriageStatus::Pending,
        reason: None,
    })
}

/// Whether the run has an event outside `watermark` (a JSON array of ids):
/// the one predicate behind re-arming and the closer.
pub(crate) fn untriaged(tx: &rusqlite::Connection, run_id: &str, watermark: &str) -> Result<bool> {
    Ok(tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM memory_events WHERE session_run_id = ?1
               AND event_id NOT IN (SELECT value FROM json_each(?2)))",
        )?
        .query_row(params![run_id, watermark], |r| r.get(0))?)
}

/// After every watermark stamp (a triage complete, a closer
/// finish), `needs_look` is recomputed as "an untriaged event exists".
pub(crate) fn settle_needs_look(tx: &Transaction<'_>, run_id: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE agent_sessions SET needs_look = EXISTS (SELECT 1 FROM memory_events
           WHERE session_run_id = ?1 AND event_id NOT IN (SELECT value FROM json_each(last_triaged_event_ids)))
         WHERE run_id = ?1",
    )?
    .execute([run_id])?;
    Ok(())
}

/// The run's visible event ids (its first `MAX_RUN_EVENTS` by id) and
/// whether it has more.
pub(crate) fn visible(tx: &rusqlite::Connection, run_id: &str) -> Result<(Vec<String>, bool)> {
    let mut ids: Vec<String> = tx
        .prepare_cached(
            "SELECT event_id FROM memory_events WHERE session_run_id = ?1 ORDER BY event_id LIMIT ?2",
        )?
        .query_map(params![run_id, MAX_RUN_EVENTS as i64 + 1], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let truncated = ids.len() > MAX_RUN_EVENTS;
    ids.truncate(MAX_RUN_EVENTS);
    Ok((ids, truncated))
}

fn log_of(json: &str) -> Vec<Attempt> {
    serde_json::from_str(json).unwrap_or_default()
}

impl Store {
    /// Begins a triage attempt for the run of (agent, session): arms one when
    /// the entry rule says so (watermark = every visible event id), declines
    /// otherwise with its reason. Never creates or resurrects a run, never
    /// touches the lease; cheap checks first, the listing only to arm.
    pub fn triage_begin(
        &mut self,
        agent: &str,
        session_id: &str,
        stop_hook_active: bool,
        now: Millis,
        lease_ms: i64,
    ) -> Result<Option<Begun>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(r) = row(&tx, agent, session_id)? else {
            return Ok(None);
        };
        let input = EntryInput {
            live: state(r.closed_at, r.last_seen_at, now, lease_ms) == State::Live,
            status: r.status,
            untriaged: untriaged(&tx, &r.run_id, &r.watermark)?,
            turns: r.turns,
            elapsed_ms: now - r.opened_at,
            armed_age_ms: r.armed_at.map(|a| now - a),
            stop_hook_active,
        };
        let declined = |reason: Decline, status: TriageStatus, attempt_id: Option<String>| Begun {
            run_id: r.run_id.clone(),
            armed: false,
            attempt_id,
            status,
            reason: Some(reason),
        };
        let begun = match triage::entry(input) {
            Err(Decline::Pending) => declined(Decline::Pending, r.status, r.attempt_id.clone()),
            Err(reason) => declined(reason, r.status, None),
            Ok(()) => {
                let (ids, truncated) = visible(&tx, &r.run_id)?;
                if truncated {
                    tx.prepare_cached(
                        "UPDATE agent_sessions SET triage_status = 'overflowed' WHERE run_id = ?1",
                    )?
                    .execute([&r.run_id])?;
                    declined(Decline::Overflowed, TriageStatus::Overflowed, None)
                } else {
                    arm(&tx, &r, &ids, now)?
                }
            }
        };
        tx.commit()?;
        Ok(Some(begun))
    }

    /// Completes attempt `attempt` of the run of (agent, session): fenced on
    /// the attempt and the pending status, not on liveness. The
    /// watermark becomes every visible id; the closer's backoff resets; the
    /// excerpt and the lease are left alone.
    pub fn triage_complete(
        &mut self,
        agent: &str,
        session_id: &str,
        attempt: &str,
        now: Millis,
    ) -> Result<Option<Completion>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(r) = row(&tx, agent, session_id)? else {
            return Ok(None);
        };
        let conflict = |r: &Row| {
            Ok(Some(Completion::NotPending {
                run_id: r.run_id.clone(),
                status: r.status,
            }))
        };
        if r.status != TriageStatus::Pending || r.attempt_id.as_deref() != Some(attempt) {
            return conflict(&r);
        }
        let (ids, truncated) = visible(&tx, &r.run_id)?;
        let before: BTreeSet<String> = serde_json::from_str(&r.watermark).unwrap_or_default();
        let since_begin = ids.iter().filter(|id| !before.contains(*id)).count();
        let status = triage::completed_status(since_begin, truncated);
        let log = log_finalized(log_of(&r.log), attempt, now, status);
        let changed = tx
            .prepare_cached(
                "UPDATE agent_sessions SET triage_status = ?3, last_triaged_event_ids = ?4,
                   triage_attempt_log = ?5, closer_failure_count = 0, closer_next_attempt_at = NULL
                 WHERE run_id = ?1 AND triage_attempt_id = ?2 AND triage_status = 'pending'",
            )?
            .execute(params![
                r.run_id,
                attempt,
                status.as_str(),
                serde_json::to_string(&ids)?,
                serde_json::to_string(&log)?
            ])?;
        if changed == 0 {
            return conflict(&r);
        }
        settle_needs_look(&tx, &r.run_id)?;
        tx.commit()?;
        Ok(Some(Completion::Completed(Completed {
            run_id: r.run_id,
            status,
            event_count: ids.len(),
            since_begin_count: since_begin,
            truncated,
        })))
    }
}

impl Store {
    /// The debrief prompt's facets for the run of (agent, session): its
    /// project and scope (from the run, not the hook's
    /// environment), its id, and the commitments its briefing showed that
    /// are still open or waiting, with their status now.
    pub fn debrief_facets(&self, agent: &str, session_id: &str) -> Result<Facets> {
        let (run_id, project, scope, briefed): (String, Option<String>, Option<String>, String) =
            self.conn
                .prepare_cached(
                    "SELECT run_id, project, scope, briefed_memories FROM agent_sessions
                 WHERE agent = ?1 AND session_id = ?2",
                )?
                .query_row([agent, session_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .optional()?
                .ok_or_else(|| RunError::NotFound {
                    agent: agent.to_string(),
                    session_id: session_id.to_string(),
                })?;
        let items: Vec<serde_json::Value> = serde_json::from_str(&briefed).unwrap_or_default();
        let mut status = self.conn.prepare_cached(
            "SELECT c.status FROM commitments c JOIN memories m ON m.memory_id = c.memory_id
             WHERE c.memory_id = ?1 AND m.valid_to IS NULL AND c.status IN ('open', 'waiting')",
        )?;
        let mut commitments = Vec::new();
        for it in &items {
            let (Some(id), Some(topic)) = (it["id"].as_str(), it["topic"].as_str()) else {
                continue;
            };
            if let Some(s) = status
                .query_row([id], |r| r.get::<_, String>(0))
                .optional()?
            {
                commitments.push(BriefedCommitment {
                    id: id.to_string(),
                    topic: topic.to_string(),
                    status: s,
                });
            }
        }
        Ok(Facets {
            scope,
            project,
            briefed: Some(commitments),
            run_id: Some(run_id),
        })
    }
}

impl Store {
    /// The source of the SessionStart the session's latest turn followed,
    /// when no other turn ended since it: read back from the session's hook
    /// events, newest first, past the Stop just recorded.
    pub fn turn_start_source(&self, session_id: &str) -> Result<Option<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT event, json_extract(payload, '$.source') FROM events_raw
             WHERE session_id = ?1 ORDER BY id DESC LIMIT 500",
        )?;
        let mut rows = stmt.query([session_id])?;
        let mut newest = true;
        while let Some(r) = rows.next()? {
            let kind = crate::domain::harness::Kind::of(&r.get::<_, String>(0)?);
            if std::mem::take(&mut newest) && kind == crate::domain::harness::Kind::Stop {
                continue;
            }
            match kind {
                crate::domain::harness::Kind::SessionStart => return Ok(r.get(1).ok().flatten()),
                crate::domain::harness::Kind::Stop => return Ok(None),
                _ => {}
            }
        }
        Ok(None)
    }
}

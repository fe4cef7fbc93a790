//! Agent runs (`agent_sessions`): open, heartbeat, close, the lease sweep,
//! and attaching memory writes to a run. Every command is
//! one `BEGIN IMMEDIATE` transaction, so two processes opening the same
//! natural key make one row, and "the only live run" is decided and used in
//! the same transaction as the write it attributes.

use anyhow::Result;
use rusqlite::{OptionalExtension, Row, Transaction, TransactionBehavior, params};

use super::Store;
use super::memories::new_id;
use crate::domain::clock::Millis;
use crate::domain::memory::MemoryEvent;
use crate::domain::runs::{self, MAX_RUN_EVENTS, Outcome, Source, State, state};

/// Conditions a caller may branch on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(
        "not found: no run for agent {agent:?} and session {session_id:?} (open one with `sessionkit session open`)"
    )]
    NotFound { agent: String, session_id: String },
    #[error("not found: no run {0:?}")]
    UnknownRun(String),
    #[error(
        "conflict: run {run_id} has no pending triage attempt {attempt:?} (its triage status is {status})"
    )]
    TriageConflict {
        run_id: String,
        attempt: String,
        status: String,
    },
    #[error("params-conflict: run {run_id} was opened with {stored}; this open asks for {asked}")]
    ParamsConflict {
        run_id: String,
        stored: String,
        asked: String,
    },
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub source: String,
    pub project: Option<String>,
    pub scope: Option<String>,
    pub selector: String,
    pub opened_at: Millis,
    pub closed_at: Option<Millis>,
    pub last_seen_at: Millis,
    pub activation_epoch: i64,
    pub triage_status: String,
    pub briefing_delivered_at: Option<Millis>,
    pub briefed_memories: String,
    pub last_message_excerpt: Option<String>,
    pub needs_look: bool,
    pub closer_failure_count: i64,
    pub closer_next_attempt_at: Option<Millis>,
}

impl Run {
    /// The ids of the memories its briefing showed (none when the stamp is
    /// unreadable).
    pub fn briefed_ids(&self) -> Vec<String> {
        serde_json::from_str::<Vec<serde_json::Value>>(&self.briefed_memories)
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v["id"].as_str().map(str::to_string))
            .collect()
    }
}

impl Run {
    pub fn state(&self, now: Millis, lease_ms: i64) -> State {
        state(self.closed_at, self.last_seen_at, now, lease_ms)
    }
}

const RUN_COLUMNS: &str = "run_id, agent, session_id, source, project, scope, selector, opened_at, closed_at,
    last_seen_at, activation_epoch, triage_status, briefing_delivered_at, briefed_memories, last_message_excerpt,
    needs_look, closer_failure_count, closer_next_attempt_at";

fn run_from(r: &Row<'_>) -> rusqlite::Result<Run> {
    Ok(Run {
        run_id: r.get(0)?,
        agent: r.get(1)?,
        session_id: r.get(2)?,
        source: r.get(3)?,
        project: r.get(4)?,
        scope: r.get(5)?,
        selector: r.get(6)?,
        opened_at: r.get(7)?,
        closed_at: r.get(8)?,
        last_seen_at: r.get(9)?,
        activation_epoch: r.get(10)?,
        triage_status: r.get(11)?,
        briefing_delivered_at: r.get(12)?,
        briefed_memories: r.get(13)?,
        last_message_excerpt: r.get(14)?,
        needs_look: r.get(15)?,
        closer_failure_count: r.get(16)?,
        closer_next_attempt_at: r.get(17)?,
    })
}

fn by_key(tx: &rusqlite::Connection, agent: &str, session_id: &str) -> Result<Option<Run>> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM agent_sessions WHERE agent = ?1 AND session_id = ?2"
        ))?
        .query_row([agent, session_id], run_from)
        .optional()?)
}

impl RunError {
    /// "No run for this key", as a command reports it.
    pub fn not_found(agent: &str, session_id: &str) -> RunError {
        RunError::NotFound {
            agent: agent.to_string(),
            session_id: session_id.to_string(),
        }
    }
}

fn by_id(tx: &rusqlite::Connection, run_id: &str) -> Result<Option<Run>> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM agent_sessions WHERE run_id = ?1"
        ))?
        .query_row([run_id], run_from)
        .optional()?)
}

/// What `session open` asks for.
#[derive(Debug, Clone)]
pub struct OpenRequest {
    pub agent: String,
    pub session_id: String,
    pub source: Source,
    pub project: Option<String>,
    pub scope: Option<String>,
    /// Canonical JSON.
    pub selector: String,
    /// Canonical JSON of the briefed memories, when this open carries them.
    pub briefed: Option<String>,
}

/// `Store::heartbeat_run` inside the caller's write transaction (`hook
/// stop` records its event and heartbeats in one); `None` when the key has
/// no run.
pub(crate) fn heartbeat_in(
    tx: &Transaction<'_>,
    agent: &str,
    session_id: &str,
    excerpt: Option<&str>,
    turn: bool,
    now: Millis,
    lease_ms: i64,
) -> Result<Option<(Run, Outcome)>> {
    let Some(run) = by_key(tx, agent, session_id)? else {
        return Ok(None);
    };
    let outcome = runs::heartbeat_outcome(run.state(now, lease_ms));
    match outcome {
        Outcome::Heartbeat => touch(tx, &run.run_id, now)?,
        _ => revive(tx, &run.run_id, now)?,
    }
    if turn {
        tx.prepare_cached(
            "UPDATE agent_sessions SET stop_turns = stop_turns + 1 WHERE run_id = ?1",
        )?
        .execute([&run.run_id])?;
    }
    if let Some(e) = excerpt {
        tx.prepare_cached("UPDATE agent_sessions SET last_message_excerpt = ?2 WHERE run_id = ?1")?
            .execute(params![run.run_id, e])?;
    }
    let run = by_id(tx, &run.run_id)?.expect("read above");
    Ok(Some((run, outcome)))
}

/// The lease floor: last_seen_at only moves forward.
fn touch(tx: &Transaction<'_>, run_id: &str, now: Millis) -> Result<()> {
    tx.prepare_cached(
        "UPDATE agent_sessions SET last_seen_at = max(last_seen_at, ?2) WHERE run_id = ?1",
    )?
    .execute(params![run_id, now])?;
    Ok(())
}

/// Opens a closed or stale run again: epoch + 1, closer backoff reset.
fn revive(tx: &Transaction<'_>, run_id: &str, now: Millis) -> Result<()> {
    tx.prepare_cached(
        "UPDATE agent_sessions SET closed_at = NULL, activation_epoch = activation_epoch + 1,
           closer_failure_count = 0, closer_next_attempt_at = NULL, last_seen_at = max(last_seen_at, ?2)
         WHERE run_id = ?1",
    )?
    .execute(params![run_id, now])?;
    Ok(())
}

fn stamp_briefing(
    tx: &Transaction<'_>,
    run_id: &str,
    briefed: Option<&str>,
    now: Millis,
) -> Result<()> {
    if let Some(b) = briefed {
        tx.prepare_cached(
            "UPDATE agent_sessions SET briefing_delivered_at = ?2, briefed_memories = ?3 WHERE run_id = ?1",
        )?
        .execute(params![run_id, now, b])?;
    }
    Ok(())
}

/// The run a memory write is attributed to, with the run's side effects
/// done in the caller's transaction:
/// - an explicit id that is unknown fails the write;
/// - live: the lease moves, and a `completed` triage goes back to `idle`
///   with `needs_look`;
/// - stale or closed by the sweep: resurrected (epoch + 1), then as live;
/// - closed explicitly: the write stands, unattributed;
/// - no id: attached only when exactly one live run has the memory's project.
pub(crate) fn attach(
    tx: &Transaction<'_>,
    explicit: Option<&str>,
    project: &str,
    now: Millis,
    lease_ms: i64,
) -> Result<Option<String>> {
    let run = if let Some(id) = explicit {
        by_id(tx, id)?.ok_or_else(|| RunError::UnknownRun(id.to_string()))?
    } else {
        let live: Vec<String> = tx
            .prepare_cached(
                "SELECT run_id FROM agent_sessions WHERE closed_at IS NULL AND project IS ?1
                   AND last_seen_at > ?2 LIMIT 2",
            )?
            .query_map(params![project, now - lease_ms], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        match live.as_slice() {
            [only] => by_id(tx, only)?.expect("just read"),
            _ => return Ok(None),
        }
    };
    match run.state(now, lease_ms) {
        State::ClosedExplicit => return Ok(None),
        State::Live => touch(tx, &run.run_id, now)?,
        State::Stale | State::ClosedImplicit => revive(tx, &run.run_id, now)?,
    }
    tx.prepare_cached(
        "UPDATE agent_sessions SET triage_status = 'idle', needs_look = 1
         WHERE run_id = ?1 AND triage_status = 'completed'",
    )?
    .execute([&run.run_id])?;
    Ok(Some(run.run_id))
}

/// Checks that an explicit run id exists (a no-op write still refuses an
/// unknown one).
pub(crate) fn check_run(tx: &Transaction<'_>, explicit: Option<&str>) -> Result<()> {
    if let Some(id) = explicit
        && by_id(tx, id)?.is_none()
    {
        return Err(RunError::UnknownRun(id.to_string()).into());
    }
    Ok(())
}

/// A page of a run's memory events.
#[derive(Debug, Clone)]
pub struct EventPage {
    pub events: Vec<MemoryEvent>,
    pub next_cursor: Option<String>,
    /// The run has more than `MAX_RUN_EVENTS` events; the rest are not listed.
    pub truncated: bool,
}

/// A run the lease sweep closed.
#[derive(Debug, Clone)]
pub struct LeaseClose {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub last_seen_at: Millis,
}

impl Store {
    pub fn open_run(
        &mut self,
        req: &OpenRequest,
        now: Millis,
        lease_ms: i64,
    ) -> Result<(Run, Outcome)> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stored = by_key(&tx, &req.agent, &req.session_id)?;
        if let Some(run) = &stored
            && runs::open_checks_params(req.source)
        {
            let stored = (&run.project, &run.scope, &run.selector);
            if stored != (&req.project, &req.scope, &req.selector) {
                return Err(RunError::ParamsConflict {
                    run_id: run.run_id.clone(),
                    stored: params_text(
                        run.project.as_deref(),
                        run.scope.as_deref(),
                        &run.selector,
                    ),
                    asked: params_text(req.project.as_deref(), req.scope.as_deref(), &req.selector),
                }
                .into());
            }
        }
        let outcome =
            runs::open_outcome(stored.as_ref().map(|r| r.state(now, lease_ms)), req.source);
        match (&stored, outcome) {
            (None, _) => {
                let id = new_id(now);
                tx.prepare_cached(
                    "INSERT INTO agent_sessions(run_id, agent, session_id, source, project, scope, selector,
                       opened_at, last_seen_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?8)",
                )?
                .execute(params![id, req.agent, req.session_id, req.source.as_str(), req.project, req.scope, req.selector, now])?;
                stamp_briefing(&tx, &id, req.briefed.as_deref(), now)?;
            }
            (Some(run), Outcome::Heartbeat) => touch(&tx, &run.run_id, now)?,
            (Some(run), Outcome::Resumed) => {
                touch(&tx, &run.run_id, now)?;
                tx.prepare_cached(
                    "UPDATE agent_sessions SET activation_epoch = activation_epoch + 1 WHERE run_id = ?1",
                )?
                .execute([&run.run_id])?;
            }
            (Some(run), _) => {
                revive(&tx, &run.run_id, now)?;
                stamp_briefing(&tx, &run.run_id, req.briefed.as_deref(), now)?;
            }
        }
        let run = by_key(&tx, &req.agent, &req.session_id)?.expect("written above");
        tx.commit()?;
        Ok((run, outcome))
    }

    /// Moves the lease (or resurrects the run), sets the excerpt when one
    /// is given, and with `turn` counts one more Stop (the triage debounce).
    /// `None` when the key has no run (a heartbeat never opens one).
    pub fn heartbeat_run(
        &mut self,
        agent: &str,
        session_id: &str,
        excerpt: Option<&str>,
        turn: bool,
        now: Millis,
        lease_ms: i64,
    ) -> Result<Option<(Run, Outcome)>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let done = heartbeat_in(&tx, agent, session_id, excerpt, turn, now, lease_ms)?;
        tx.commit()?;
        Ok(done)
    }

    /// An explicit close; never moves last_seen_at; a second close reports
    /// the first one's time. `None` when the key has no run.
    pub fn close_run(
        &mut self,
        agent: &str,
        session_id: &str,
        now: Millis,
    ) -> Result<Option<(Run, Outcome)>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(run) = by_key(&tx, agent, session_id)? else {
            return Ok(None);
        };
        if run.closed_at.is_some() {
            return Ok(Some((run, Outcome::AlreadyClosed)));
        }
        tx.prepare_cached("UPDATE agent_sessions SET closed_at = ?2 WHERE run_id = ?1")?
            .execute(params![run.run_id, now])?;
        let run = by_id(&tx, &run.run_id)?.expect("read above");
        tx.commit()?;
        Ok(Some((run, Outcome::Closed)))
    }

    /// A run's id from the id or a prefix that names it alone (what a
    /// table shows); an unknown or shared prefix is an error that says so.
    pub fn resolve_run(&self, prefix: &str) -> Result<String> {
        let prefix = prefix.trim();
        if by_id(&self.conn, prefix)?.is_some() {
            return Ok(prefix.to_string());
        }
        if prefix.len() < 4 {
            anyhow::bail!("give at least 4 characters of a run id, not {prefix:?}");
        }
        match self.match_prefix("agent_sessions", "run_id", prefix)? {
            super::PrefixMatch::None => Err(RunError::UnknownRun(prefix.to_string()).into()),
            super::PrefixMatch::One(id) => Ok(id),
            super::PrefixMatch::Many { count, examples } => anyhow::bail!(
                "{prefix:?} matches {count} runs ({}...): give more characters",
                examples.join(", ")
            ),
        }
    }

    pub fn run(&self, run_id: &str) -> Result<Run> {
        by_id(&self.conn, run_id)?.ok_or_else(|| RunError::UnknownRun(run_id.to_string()).into())
    }

    /// The run of a natural key, `None` when it has none.
    pub fn run_by_key(&self, agent: &str, session_id: &str) -> Result<Option<Run>> {
        by_key(&self.conn, agent, session_id)
    }

    /// Runs, newest first; `live_only` keeps the live ones.
    pub fn runs(
        &self,
        live_only: bool,
        project: Option<&str>,
        now: Millis,
        lease_ms: i64,
    ) -> Result<Vec<Run>> {
        // Only the conditions asked for, so the partial indexes serve them.
        let floor = now - lease_ms;
        let mut cond: Vec<&str> = Vec::new();
        let mut args: Vec<&dyn rusqlite::ToSql> = Vec::new();
        if let Some(p) = &project {
            cond.push("project = ?");
            args.push(p);
        }
        if live_only {
            cond.push("closed_at IS NULL AND last_seen_at > ?");
            args.push(&floor);
        }
        let filter = if cond.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", cond.join(" AND "))
        };
        let sql = format!(
            "SELECT {RUN_COLUMNS} FROM agent_sessions {filter} ORDER BY last_seen_at DESC, run_id DESC"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(args.as_slice(), run_from)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The memory events a run produced, by event id, `limit` per page after
    /// `cursor`, never past the run's first `MAX_RUN_EVENTS`. An unknown run is an error, not an empty page.
    pub fn run_events(&self, run_id: &str, cursor: Option<&str>, limit: u64) -> Result<EventPage> {
        if by_id(&self.conn, run_id)?.is_none() {
            return Err(RunError::UnknownRun(run_id.to_string()).into());
        }
        let boundary: Option<String> = self
            .conn
            .prepare_cached(
                "SELECT event_id FROM memory_events WHERE session_run_id = ?1 ORDER BY event_id LIMIT 1 OFFSET ?2",
            )?
            .query_row(params![run_id, MAX_RUN_EVENTS as i64], |r| r.get(0))
            .optional()?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT event_id, memory_id, kind, actor, session_run_id, reason, created_at FROM memory_events
             WHERE session_run_id = ?1 AND event_id > ?2 AND (?3 IS NULL OR event_id < ?3)
             ORDER BY event_id LIMIT ?4",
        )?;
        let mut events: Vec<MemoryEvent> = stmt
            .query_map(
                params![run_id, cursor.unwrap_or(""), boundary, limit as i64 + 1],
                |r| {
                    Ok(MemoryEvent {
                        event_id: r.get(0)?,
                        memory_id: r.get(1)?,
                        kind: r.get(2)?,
                        actor: r.get(3)?,
                        session_run_id: r.get(4)?,
                        reason: r.get(5)?,
                        created_at: r.get(6)?,
                    })
                },
            )?
            .collect::<Result<_, _>>()?;
        let more = events.len() as u64 > limit;
        events.truncate(limit as usize);
        Ok(EventPage {
            next_cursor: if more {
                events.last().map(|e| e.event_id.clone())
            } else {
                None
            },
            events,
            truncated: boundary.is_some(),
        })
    }

    /// The lease sweep: runs silent past lease + grace get `closed_at = now`
    /// (an implicit close, still resurrectable), oldest first; each UPDATE
    /// re-checks both conditions, and the whole sweep is one write
    /// transaction, so a heartbeat or close lands before or after it.
    pub fn sweep_leases(
        &mut self,
        now: Millis,
        lease_ms: i64,
        grace_ms: i64,
        dry_run: bool,
    ) -> Result<Vec<LeaseClose>> {
        let floor = now - lease_ms - grace_ms;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out: Vec<LeaseClose> = tx
            .prepare_cached(
                "SELECT run_id, agent, session_id, last_seen_at FROM agent_sessions
                 WHERE closed_at IS NULL AND last_seen_at < ?1 ORDER BY last_seen_at, run_id",
            )?
            .query_map([floor], |r| {
                Ok(LeaseClose {
                    run_id: r.get(0)?,
                    agent: r.get(1)?,
                    session_id: r.get(2)?,
                    last_seen_at: r.get(3)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        if !dry_run {
            let mut close = tx.prepare_cached(
                "UPDATE agent_sessions SET closed_at = ?2 WHERE run_id = ?1 AND closed_at IS NULL AND last_seen_at < ?3",
            )?;
            for c in &out {
                close.execute(params![c.run_id, now, floor])?;
            }
        }
        if dry_run {
            tx.rollback()?;
        } else {
            tx.commit()?;
        }
        Ok(out)
    }
}

fn params_text(project: Option<&str>, scope: Option<&str>, selector: &str) -> String {
    format!(
        "project {}, scope {}, selector {selector}",
        project.unwrap_or("(none)"),
        scope.unwrap_or("(none)")
    )
}

//! The closer's rows: candidates, the
//! claim (a compare-and-set on the attempt token fenced at the activation
//! epoch), the resolves (each fenced again, written with the run id
//! directly so they never resurrect it), the finish and the backoff. Each
//! step is one `BEGIN IMMEDIATE` transaction; the rules are
//! `continuity::closer`'s.

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::Store;
use super::memories::new_id;
use super::triage::{settle_needs_look, untriaged, visible};
use crate::domain::clock::Millis;
use crate::domain::closer;
use crate::domain::triage::TriageStatus;

/// A finished run the closer may look at.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub epoch: i64,
    /// The attempt token it was read with (the claim's compare).
    pub attempt_id: Option<String>,
    pub status: TriageStatus,
    /// The briefed memories (JSON `[{id, topic, status}]`).
    pub briefed: String,
    pub excerpt: Option<String>,
}

/// What one resolve did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolve {
    Resolved,
    /// Not an open or waiting live commitment any more (re-read).
    Skipped,
    /// The run came back to life, or another closer claimed it.
    Fenced,
}

/// Whether the run is still as claimed: same epoch, same token, closed.
fn fenced(tx: &Transaction<'_>, run_id: &str, epoch: i64, token: &str) -> Result<bool> {
    let ok: Option<i64> = tx
        .prepare_cached(
            "SELECT 1 FROM agent_sessions WHERE run_id = ?1 AND activation_epoch = ?2
               AND triage_attempt_id = ?3 AND closed_at IS NOT NULL",
        )?
        .query_row(params![run_id, epoch, token], |r| r.get(0))
        .optional()?;
    Ok(ok.is_none())
}

impl Store {
    /// Closed runs, oldest closed first, that the closer may look at
    /// (`closer::eligible`) and
    /// whose backoff is due; at most `limit`.
    pub fn closer_candidates(&self, now: Millis, limit: usize) -> Result<Vec<Candidate>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT run_id, agent, session_id, activation_epoch, triage_attempt_id, triage_status,
               briefed_memories, last_message_excerpt, needs_look, last_triaged_event_ids
             FROM agent_sessions
             WHERE closed_at IS NOT NULL AND triage_status <> 'overflowed'
               AND (triage_status <> 'completed' OR needs_look)
               AND (closer_next_attempt_at IS NULL OR closer_next_attempt_at <= ?1)
             ORDER BY closed_at, run_id",
        )?;
        let mut rows = stmt.query([now])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let c = Candidate {
                run_id: r.get(0)?,
                agent: r.get(1)?,
                session_id: r.get(2)?,
                epoch: r.get(3)?,
                attempt_id: r.get(4)?,
                status: r.get(5)?,
                briefed: r.get(6)?,
                excerpt: r.get(7)?,
            };
            let needs_look: bool = r.get(8)?;
            let watermark: String = r.get(9)?;
            let fresh = c.status != TriageStatus::Completed
                || untriaged(&self.conn, &c.run_id, &watermark)?;
            if closer::eligible(c.status, needs_look, fresh) {
                out.push(c);
                if out.len() == limit {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Claims `c` with a new token: compare-and-set on the token it was read
    /// with, fenced at its epoch; a pending interactive attempt retires to
    /// `expired` in the claim. `None` when another writer got there first.
    pub fn closer_claim(&mut self, c: &Candidate, now: Millis) -> Result<Option<String>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let token = new_id(now);
        let changed = tx
            .prepare_cached(
                "UPDATE agent_sessions SET triage_attempt_id = ?4,
                   triage_status = CASE triage_status WHEN 'pending' THEN 'expired' ELSE triage_status END
                 WHERE run_id = ?1 AND activation_epoch = ?2 AND triage_attempt_id IS ?3
                   AND closed_at IS NOT NULL
                   AND triage_status IN ('idle', 'pending', 'expired', 'completed')",
            )?
            .execute(params![c.run_id, c.epoch, c.attempt_id, token])?;
        tx.commit()?;
        Ok((changed == 1).then_some(token))
    }

    /// Resolves one commitment for a claimed run, with `evidence` in its
    /// audit event (actor `closer`, the run id stamped directly: never the
    /// attach path, which would resurrect the run). Fenced on the claim; a
    /// live re-read first.
    pub fn closer_resolve(
        &mut self,
        c: &Candidate,
        token: &str,
        verdict: &crate::domain::closer::Verdict,
        now: Millis,
    ) -> Result<Resolve> {
        let memory_id = verdict.id.as_str();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if fenced(&tx, &c.run_id, c.epoch, token)? {
            return Ok(Resolve::Fenced);
        }
        let open: Option<i64> = tx
            .prepare_cached(
                "SELECT 1 FROM commitments c JOIN memories m ON m.memory_id = c.memory_id
                 WHERE c.memory_id = ?1 AND m.valid_to IS NULL AND c.status IN ('open', 'waiting')",
            )?
            .query_row([memory_id], |r| r.get(0))
            .optional()?;
        if open.is_none() {
            return Ok(Resolve::Skipped);
        }
        tx.prepare_cached(
            "UPDATE commitments SET status = 'resolved', resolved_at = ?2, updated_at = ?2 WHERE memory_id = ?1",
        )?
        .execute(params![memory_id, now])?;
        // Why it closed, kept with the resolve: the rule, then the words.
        let reason: String = verdict.evidence.chars().take(500).collect();
        tx.prepare_cached(
            "INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, reason, created_at)
             VALUES (?1, ?2, 'resolve', 'closer', ?3, ?4, ?5)",
        )?
        .execute(params![new_id(now), memory_id, c.run_id, format!("closer evidence ({}): {reason}", verdict.rule), now])?;
        tx.commit()?;
        Ok(Resolve::Resolved)
    }

    /// Finishes a claimed run (fenced): completed, or overflowed past the
    /// event ceiling; the watermark becomes every visible id; the excerpt is
    /// cleared unless overflowed; the backoff resets; needs_look is
    /// recomputed. False when fenced.
    pub fn closer_finish(&mut self, c: &Candidate, token: &str) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if fenced(&tx, &c.run_id, c.epoch, token)? {
            return Ok(false);
        }
        let (ids, truncated) = visible(&tx, &c.run_id)?;
        let status = if truncated {
            TriageStatus::Overflowed
        } else {
            TriageStatus::Completed
        };
        tx.prepare_cached(
            "UPDATE agent_sessions SET triage_status = ?2, last_triaged_event_ids = ?3,
               last_message_excerpt = CASE WHEN ?4 THEN last_message_excerpt END,
               closer_failure_count = 0, closer_next_attempt_at = NULL
             WHERE run_id = ?1",
        )?
        .execute(params![
            c.run_id,
            status.as_str(),
            serde_json::to_string(&ids)?,
            truncated
        ])?;
        settle_needs_look(&tx, &c.run_id)?;
        tx.commit()?;
        Ok(true)
    }

    /// A failed pass: the failure counted, the next attempt backed off.
    pub fn closer_failed(&mut self, run_id: &str, now: Millis) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let n: i64 = tx.query_row(
            "SELECT closer_failure_count + 1 FROM agent_sessions WHERE run_id = ?1",
            [run_id],
            |r| r.get(0),
        )?;
        tx.execute(
            "UPDATE agent_sessions SET closer_failure_count = ?2, closer_next_attempt_at = ?3 WHERE run_id = ?1",
            params![run_id, n, now + closer::backoff_ms(n)],
        )?;
        tx.commit()?;
        Ok(())
    }
}

impl Store {
    /// The file of a session's main transcript, when ingest read it: the
    /// ingested root whose scope the session's checkpoint names, joined with
    /// the main agent's path under it.
    pub fn main_transcript(&self, session_id: &str) -> Result<Option<std::path::PathBuf>> {
        let row: Option<(String, String)> = self
            .conn
            .prepare_cached(
                "SELECT k.scope, a.transcript_path FROM ingest_checkpoints k
                 JOIN agents a ON a.session_id = k.session_id AND a.agent_id = k.session_id
                 WHERE k.session_id = ?1",
            )?
            .query_row([session_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let Some((scope, rel)) = row else {
            return Ok(None);
        };
        Ok(self
            .ingested_roots()?
            .into_iter()
            .map(std::path::PathBuf::from)
            .find(|root| crate::domain::corpus::scope_of(root) == scope)
            .map(|root| root.join(rel)))
    }
}

impl Store {
    /// Nano-dollars the endpoint judge spent on UTC day `day` (YYYY-MM-DD).
    pub fn closer_spent(&self, day: &str) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT cost_nanousd FROM closer_spend WHERE day = ?1")?
            .query_row([day], |r| r.get(0))
            .optional()?
            .unwrap_or(0))
    }

    /// The distinct kinds of the memory events a run wrote (its first
    /// `MAX_RUN_EVENTS`, the ceiling every listing honours), sorted.
    pub fn run_event_kinds(&self, run_id: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT kind FROM (SELECT kind FROM memory_events WHERE session_run_id = ?1
               ORDER BY event_id LIMIT ?2) ORDER BY kind",
        )?;
        let kinds = stmt
            .query_map(
                params![run_id, crate::domain::runs::MAX_RUN_EVENTS as i64],
                |r| r.get(0),
            )?
            .collect::<Result<_, _>>()?;
        Ok(kinds)
    }

    /// Every token the endpoint judge spent, all days.
    pub fn closer_tokens(&self) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT COALESCE(SUM(input_tokens + output_tokens), 0) FROM closer_spend",
            [],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(n)?)
    }

    /// Adds one endpoint call's tokens and cost to its day.
    pub fn closer_record_spend(
        &mut self,
        day: &str,
        input_tokens: u64,
        output_tokens: u64,
        cost_nanousd: i64,
    ) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO closer_spend(day, calls, input_tokens, output_tokens, cost_nanousd)
                 VALUES (?1, 1, ?2, ?3, ?4)
                 ON CONFLICT(day) DO UPDATE SET calls = calls + 1,
                   input_tokens = input_tokens + excluded.input_tokens,
                   output_tokens = output_tokens + excluded.output_tokens,
                   cost_nanousd = cost_nanousd + excluded.cost_nanousd",
            )?
            .execute(params![
                day,
                i64::try_from(input_tokens)?,
                i64::try_from(output_tokens)?,
                cost_nanousd
            ])?;
        Ok(())
    }
}

//! Hook deliveries (`events_raw`, append-only) and the agent status they,
//! ingest and the watchdog set.

use std::collections::HashMap;

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::Store;
use crate::domain::clock::Millis;
use crate::domain::harness::{Kind, Target, target_of};
use crate::domain::status::{Cause, Evidence, Status, client_gone, replaces, watchdog};

/// An identical payload for the same event and session within this many
/// milliseconds of a stored one is a duplicate delivery.
pub const DUPLICATE_WINDOW_MS: i64 = 5_000;

/// A hook delivery to store.
#[derive(Debug)]
pub struct NewEvent<'a> {
    pub key: [u8; 32],
    pub has_delivery_id: bool,
    pub harness: &'a str,
    pub event: &'a str,
    pub session_id: Option<&'a str>,
    pub agent_id: Option<&'a str>,
    pub received_at: Millis,
    /// The redacted payload as canonical JSON.
    pub payload: &'a str,
    pub target: Target,
    /// The client process that sent it (`sender::sender`), when known.
    pub sender: Option<&'a str>,
}

/// A status an agent moved from, to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub session_id: String,
    pub agent_id: String,
    pub from: Status,
    pub to: Status,
    /// The time of the evidence that set `to`.
    pub at: Option<Millis>,
}

/// What storing a delivery did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Stored; the status change it made, if any.
    Stored(Option<Transition>),
    /// The same delivery (same delivery id, or an identical payload within
    /// the window) is already stored: nothing was written.
    Duplicate,
}

/// An agent's stored status.
pub(crate) fn stored_evidence(
    tx: &Transaction<'_>,
    session_id: &str,
    agent_id: &str,
) -> Result<Option<Evidence>> {
    Ok(tx
        .prepare_cached(
            "SELECT status, status_at, outcome_cause FROM agents WHERE session_id = ?1 AND agent_id = ?2",
        )?
        .query_row(params![session_id, agent_id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?, r.get::<_, Option<String>>(2)?))
        })
        .optional()?
        .map(|(s, at, cause)| evidence_of(&s, at, cause.as_deref())))
}

pub(crate) fn evidence_of(status: &str, at: Option<Millis>, cause: Option<&str>) -> Evidence {
    Evidence::new(
        Status::parse(status).unwrap_or(Status::Unknown),
        at,
        Cause::parse(cause),
    )
}

/// Writes an agent's status, and the session's when it is the main agent
/// (a session's status mirrors its main agent).
pub(crate) fn write_status(
    tx: &Transaction<'_>,
    session_id: &str,
    agent_id: &str,
    ev: &Evidence,
) -> Result<()> {
    tx.prepare_cached(
        "UPDATE agents SET status = ?3, status_at = ?4, outcome_cause = ?5
         WHERE session_id = ?1 AND agent_id = ?2",
    )?
    .execute(params![
        session_id,
        agent_id,
        ev.status.as_str(),
        ev.at,
        ev.cause.as_str()
    ])?;
    if agent_id == session_id {
        tx.prepare_cached("UPDATE sessions SET status = ?2, status_at = ?3 WHERE session_id = ?1")?
            .execute(params![session_id, ev.status.as_str(), ev.at])?;
    }
    Ok(())
}

/// Copies the main agent's status onto its session.
pub(crate) fn mirror_main(tx: &Transaction<'_>, session_id: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE sessions SET (status, status_at) =
           (SELECT status, status_at FROM agents WHERE session_id = ?1 AND agent_id = ?1)
         WHERE session_id = ?1 AND EXISTS (SELECT 1 FROM agents WHERE session_id = ?1 AND agent_id = ?1)",
    )?
    .execute([session_id])?;
    Ok(())
}

/// Applies evidence to an agent that exists; returns the transition when the
/// status or its time changed.
fn apply(
    tx: &Transaction<'_>,
    session_id: &str,
    agent_id: &str,
    new: &Evidence,
) -> Result<Option<Transition>> {
    let Some(cur) = stored_evidence(tx, session_id, agent_id)? else {
        return Ok(None);
    };
    if !replaces(Some(&cur), new) || cur == *new {
        return Ok(None);
    }
    write_status(tx, session_id, agent_id, new)?;
    Ok(Some(Transition {
        session_id: session_id.to_string(),
        agent_id: agent_id.to_string(),
        from: cur.status,
        to: new.status,
        at: new.at,
    }))
}

/// The evidence hook events already stored for `session_id` carry for the
/// agents in `agents` (which ingest has just created), oldest first.
pub(crate) fn pending_for(
    tx: &Transaction<'_>,
    session_id: &str,
    agents: &[&str],
) -> Result<HashMap<String, Vec<Evidence>>> {
    let mut out: HashMap<String, Vec<Evidence>> = HashMap::new();
    if agents.is_empty() {
        return Ok(out);
    }
    let mut stmt = tx.prepare_cached(
        "SELECT event, agent_id, received_at,
                CASE WHEN event IN ('SessionStart', 'sessionStart') THEN json_extract(payload, '$.source') END,
                CASE WHEN event = 'SubagentStop' THEN json_extract(payload, '$.agent_type') END
         FROM events_raw WHERE session_id = ?1 ORDER BY id",
    )?;
    let mut rows = stmt.query([session_id])?;
    while let Some(r) = rows.next()? {
        let event: String = r.get(0)?;
        let agent: Option<String> = r.get(1)?;
        let at: i64 = r.get(2)?;
        let source: Option<String> = r.get(3).ok().flatten();
        let agent_type: Option<String> = r.get(4).ok().flatten();
        if let Target::Agent { agent_id, evidence } = target_of(
            Kind::of(&event),
            Some(session_id),
            agent.as_deref(),
            agent_type.as_deref(),
            source.as_deref(),
            at,
        ) && agents.contains(&agent_id.as_str())
        {
            out.entry(agent_id).or_default().push(evidence);
        }
    }
    Ok(out)
}

/// Stores one delivery inside the caller's write transaction (a hook's own,
/// or a spool drain's), unless it is a duplicate, and applies its status.
pub(crate) fn record_in(tx: &Transaction<'_>, ev: &NewEvent<'_>) -> Result<Recorded> {
    let duplicate = if ev.has_delivery_id {
        tx.prepare_cached("SELECT 1 FROM events_raw WHERE event_key = ?1 AND has_delivery_id = 1")?
            .exists([&ev.key[..]])?
    } else {
        tx.prepare_cached(
            "SELECT 1 FROM events_raw WHERE event_key = ?1 AND has_delivery_id = 0
               AND received_at > ?2 - ?3 AND received_at < ?2 + ?3",
        )?
        .exists(params![&ev.key[..], ev.received_at, DUPLICATE_WINDOW_MS])?
    };
    if duplicate {
        return Ok(Recorded::Duplicate);
    }
    tx.prepare_cached(
        "INSERT INTO events_raw(event_key, has_delivery_id, harness, event, session_id, agent_id, received_at, payload, sender)
         VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    )?
    .execute(params![
        &ev.key[..],
        ev.has_delivery_id,
        ev.harness,
        ev.event,
        ev.session_id,
        ev.agent_id,
        ev.received_at,
        ev.payload,
        ev.sender
    ])?;
    let change = match (&ev.target, ev.session_id) {
        (Target::Agent { agent_id, evidence }, Some(sid)) => apply(tx, sid, agent_id, evidence)?,
        _ => None,
    };
    Ok(Recorded::Stored(change))
}

impl Store {
    /// Stores one hook delivery and applies its status, in one `BEGIN
    /// IMMEDIATE` transaction, so concurrent hook processes serialize and the
    /// duplicate check sees every committed delivery.
    /// `record_event`, then `then` in the same transaction (what a hook
    /// writes besides its event: `hook stop`'s heartbeat), so a hook costs
    /// one write transaction.
    pub fn record_event_then(
        &mut self,
        ev: &NewEvent<'_>,
        then: impl FnOnce(&Transaction<'_>) -> Result<()>,
    ) -> Result<Recorded> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let recorded = record_in(&tx, ev)?;
        then(&tx)?;
        tx.commit()?;
        Ok(recorded)
    }

    /// The sessions, live or recently heard of, whose client process the
    /// hooks named and `gone` says is gone (on this machine).
    pub fn gone_sessions(
        &self,
        gone: impl Fn(&str) -> Option<bool>,
    ) -> Result<std::collections::HashSet<String>> {
        let mut stmt = self.conn.prepare(
            "WITH live AS (
                SELECT session_id FROM agents WHERE status IN ('working', 'waiting')
                UNION
                SELECT session_id FROM (SELECT session_id FROM events_raw ORDER BY id DESC LIMIT ?1)
                WHERE session_id IS NOT NULL
             )
             SELECT l.session_id,
                    (SELECT e.sender FROM events_raw e
                     WHERE e.session_id = l.session_id AND e.sender IS NOT NULL
                     ORDER BY e.id DESC LIMIT 1)
             FROM live l",
        )?;
        let rows = stmt.query_map([super::heard::RECENT_EVENTS], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        let mut out = std::collections::HashSet::new();
        for row in rows {
            let (sid, sender) = row?;
            if sender.as_deref().and_then(&gone) == Some(true) {
                out.insert(sid);
            }
        }
        Ok(out)
    }

    /// The watchdog: every working or waiting agent whose last evidence is
    /// older than `window_ms` before `now` becomes `unknown` (or, waiting,
    /// `completed`), and at once every one of a session in `gone` (its
    /// client is gone: `client_gone`). With `dry_run` nothing is written.
    /// Returns the transitions, ordered by session and agent.
    pub fn watchdog(
        &mut self,
        now: Millis,
        window_ms: i64,
        gone: &std::collections::HashSet<String>,
        dry_run: bool,
    ) -> Result<Vec<Transition>> {
        // A first sweep after importing history moves every agent: keep its
        // pages in memory instead of spilling them to the WAL mid-transaction.
        self.conn.execute_batch("PRAGMA cache_size = -65536")?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let cutoff = now.saturating_sub(window_ms);
        let candidates: Vec<(String, String, Evidence, Option<i64>)> = tx
            .prepare(
                "SELECT session_id, agent_id, status, status_at, outcome_cause, last_seen_at FROM agents
                 WHERE status IN ('working', 'waiting')
                   AND (status_at IS NULL OR status_at < ?1 OR session_id IN (SELECT value FROM json_each(?2)))
                 ORDER BY session_id, agent_id",
            )?
            .query_map(params![cutoff, serde_json::to_string(gone)?], |r| {
                let cur = evidence_of(&r.get::<_, String>(2)?, r.get(3)?, r.get::<_, Option<String>>(4)?.as_deref());
                Ok((r.get(0)?, r.get(1)?, cur, r.get(5)?))
            })?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::new();
        for (sid, aid, cur, last_seen) in candidates {
            let settled = if gone.contains(&sid) {
                client_gone(&cur, last_seen)
            } else {
                watchdog(&cur, last_seen, now, window_ms)
            };
            if let Some(new) = settled {
                if !dry_run {
                    write_status(&tx, &sid, &aid, &new)?;
                }
                out.push(Transition {
                    session_id: sid,
                    agent_id: aid,
                    from: cur.status,
                    to: new.status,
                    at: new.at,
                });
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

/// One agent as `status` shows it.
#[derive(Debug, Clone)]
pub struct LiveRow {
    pub session_id: String,
    pub agent_id: String,
    pub parent_agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub project: Option<String>,
    /// The status in force: the stored one, or `unknown` when the watchdog's
    /// rule already holds (a sweep has not run since).
    pub status: Evidence,
    pub last_activity_at: Option<Millis>,
    pub totals: super::reports::Totals,
}

impl Store {
    /// Agents for `status`: live ones (working, waiting) or, with `all`,
    /// every one; newest session first, main agent first. Also how many
    /// sessions (shown or not) are known from hook events alone.
    pub fn live(
        &self,
        all: bool,
        project: Option<&str>,
        (now, window_ms): (Millis, i64),
        gone: &std::collections::HashSet<String>,
    ) -> Result<(Vec<LiveRow>, usize)> {
        use super::reports::{TOTALS, totals_at};
        let sql = "SELECT a.session_id, a.agent_id, a.parent_agent_id, a.agent_type, COALESCE(s.project, s.project_slug),
                    a.status, a.status_at, a.outcome_cause, a.last_seen_at, s.last_activity_at
             FROM agents a JOIN sessions s USING (session_id)
             WHERE (?1 OR a.status IN ('working', 'waiting'))
               AND (?2 IS NULL OR s.project = ?2 OR s.project_slug = ?2)
             ORDER BY s.last_activity_at DESC, a.session_id, a.agent_id = a.session_id DESC, a.first_seen_at, a.agent_id";
        let mut stmt = self.conn.prepare(sql)?;
        let mut totals = self.conn.prepare(&format!(
            "SELECT {TOTALS} FROM usage_rollup WHERE session_id = ?1 AND agent_id = ?2"
        ))?;
        // Each row with its session's last activity, the order's key.
        let rows = stmt.query_map(params![all, project], |r| {
            let stored = evidence_of(
                &r.get::<_, String>(5)?,
                r.get(6)?,
                r.get::<_, Option<String>>(7)?.as_deref(),
            );
            let last_seen: Option<i64> = r.get(8)?;
            let sid: String = r.get(0)?;
            let verdict = if gone.contains(&sid) {
                client_gone(&stored, last_seen)
            } else {
                watchdog(&stored, last_seen, now, window_ms)
            };
            let row = LiveRow {
                session_id: sid,
                agent_id: r.get(1)?,
                parent_agent_id: r.get(2)?,
                agent_type: r.get(3)?,
                project: r.get(4)?,
                status: verdict.unwrap_or(stored),
                last_activity_at: last_seen,
                totals: Default::default(),
            };
            Ok((r.get::<_, Option<i64>>(9)?, row))
        })?;
        let mut keyed: Vec<(Option<Millis>, LiveRow)> = rows.collect::<Result<_, _>>()?;
        let heard_count = self.place_heard(&mut keyed, project, (now, window_ms), gone)?;
        let mut out: Vec<LiveRow> = keyed.into_iter().map(|(_, r)| r).collect();
        if !all {
            out.retain(|r| r.status.status.is_live());
        }
        for r in &mut out {
            r.totals =
                totals.query_row(params![r.session_id, r.agent_id], |row| totals_at(row, 0))?;
        }
        Ok((out, heard_count))
    }

    /// Places the sessions only the hooks have heard of (by their events'
    /// evidence) among `keyed` by their last event; how many there were.
    fn place_heard(
        &self,
        keyed: &mut Vec<(Option<Millis>, LiveRow)>,
        project: Option<&str>,
        (now, window_ms): (Millis, i64),
        gone: &std::collections::HashSet<String>,
    ) -> Result<usize> {
        let heard = self.heard_only(super::heard::RECENT_EVENTS)?;
        let heard_count = heard.len();
        for h in heard {
            if project.is_some() && h.project.as_deref() != project {
                continue;
            }
            let settled = if gone.contains(&h.session_id) {
                client_gone(&h.evidence, Some(h.last_at))
            } else {
                watchdog(&h.evidence, Some(h.last_at), now, window_ms)
            };
            let status = settled.unwrap_or(h.evidence);
            let at = keyed.partition_point(|(t, r)| {
                t.unwrap_or(i64::MIN) > h.last_at
                    || (t.unwrap_or(i64::MIN) == h.last_at && r.session_id < h.session_id)
            });
            let row = LiveRow {
                agent_id: h.session_id.clone(),
                session_id: h.session_id,
                parent_agent_id: None,
                agent_type: None,
                project: h.project,
                status,
                last_activity_at: Some(h.last_at),
                totals: Default::default(),
            };
            keyed.insert(at, (Some(h.last_at), row));
        }
        Ok(heard_count)
    }
}

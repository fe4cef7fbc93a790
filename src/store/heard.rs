//! Sessions the hooks have heard of and ingest has not read yet (a client
//! killed mid-turn, an API error that fired no end event): what their
//! stored events say, so `sessions` and `status` list them at once, and the
//! transcripts `sweep` catches up.

use anyhow::Result;
use rusqlite::params;

use super::Store;
use super::events::pending_for;
use crate::clock::Millis;
use crate::status::{Cause, Evidence, Status, replaces};

/// How many of the latest hook deliveries are looked through for sessions
/// ingest has not read: bounds the cost of a report on a database of
/// millions of events (older ones are read by `ingest` or `sweep`).
pub const RECENT_EVENTS: i64 = 10_000;

/// A session known only from its hook events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heard {
    pub session_id: String,
    pub harness: String,
    pub cwd: Option<String>,
    /// The project remembered for `cwd`, when one was.
    pub project: Option<String>,
    /// The main transcript the latest event named.
    pub transcript_path: Option<String>,
    pub first_at: Millis,
    pub last_at: Millis,
    /// The main agent's status by the events' evidence, in arrival order
    /// (`unknown` at the last event when none carries a status).
    pub evidence: Evidence,
}

/// A session with a transcript to catch up: its harness and the path its
/// latest main-agent event named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTranscript {
    pub session_id: String,
    pub harness: String,
    pub transcript_path: String,
}

impl Store {
    /// Sessions named by the latest `recent` hook deliveries that have no
    /// transcript in the database, oldest first.
    pub fn heard_only(&self, recent: i64) -> Result<Vec<Heard>> {
        let ids: Vec<String> = self
            .conn
            .prepare_cached(
                "SELECT e.session_id FROM events_raw e
                 WHERE e.id > (SELECT COALESCE(MAX(id), 0) FROM events_raw) - ?1
                   AND e.session_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = e.session_id)
                 GROUP BY e.session_id ORDER BY MIN(e.id)",
            )?
            .query_map([recent], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut facts = self.conn.prepare_cached(
            "SELECT MIN(harness), MIN(received_at), MAX(received_at),
                    (SELECT json_extract(payload, '$.cwd') FROM events_raw c
                      WHERE c.session_id = ?1 AND json_type(payload, '$.cwd') = 'text'
                      ORDER BY c.id DESC LIMIT 1),
                    (SELECT json_extract(payload, '$.transcript_path') FROM events_raw t
                      WHERE t.session_id = ?1 AND t.agent_id IS NULL
                        AND json_type(payload, '$.transcript_path') = 'text'
                      ORDER BY t.id DESC LIMIT 1)
             FROM events_raw WHERE session_id = ?1",
        )?;
        let mut project = self
            .conn
            .prepare_cached("SELECT project FROM projects WHERE cwd = ?1")?;
        let mut out = Vec::with_capacity(ids.len());
        for sid in ids {
            let (harness, first_at, last_at, cwd, transcript_path): (
                String,
                Millis,
                Millis,
                Option<String>,
                Option<String>,
            ) = facts.query_row([&sid], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?;
            let mut evidence: Option<Evidence> = None;
            for e in pending_for(&self.conn, &sid, &[sid.as_str()])?
                .remove(&sid)
                .unwrap_or_default()
            {
                if replaces(evidence.as_ref(), &e) {
                    evidence = Some(e);
                }
            }
            let project = match &cwd {
                Some(c) => {
                    use rusqlite::OptionalExtension;
                    project.query_row([c], |r| r.get(0)).optional()?
                }
                None => None,
            };
            out.push(Heard {
                evidence: evidence.unwrap_or(Evidence::new(
                    Status::Unknown,
                    Some(last_at),
                    Cause::Watchdog,
                )),
                session_id: sid,
                harness,
                cwd,
                project,
                transcript_path,
                first_at,
                last_at,
            });
        }
        Ok(out)
    }

    /// The main transcripts of sessions whose runs are open, and of
    /// sessions only the hooks have heard of, for `harnesses`: what `sweep`
    /// catches up. Most recently active first.
    pub fn open_transcripts(&self, harnesses: &[&str]) -> Result<Vec<OpenTranscript>> {
        let mut rows: Vec<(Millis, OpenTranscript)> = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.session_id, r.agent, r.last_seen_at,
                    (SELECT json_extract(e.payload, '$.transcript_path') FROM events_raw e
                      WHERE e.session_id = r.session_id AND e.harness = r.agent AND e.agent_id IS NULL
                        AND json_type(e.payload, '$.transcript_path') = 'text'
                      ORDER BY e.id DESC LIMIT 1)
             FROM agent_sessions r WHERE r.closed_at IS NULL",
        )?;
        let open = stmt.query_map(params![], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Millis>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?;
        for row in open {
            let (session_id, harness, at, path) = row?;
            if let Some(transcript_path) = path {
                rows.push((
                    at,
                    OpenTranscript {
                        session_id,
                        harness,
                        transcript_path,
                    },
                ));
            }
        }
        for h in self.heard_only(RECENT_EVENTS)? {
            if let Some(transcript_path) = h.transcript_path {
                rows.push((
                    h.last_at,
                    OpenTranscript {
                        session_id: h.session_id,
                        harness: h.harness,
                        transcript_path,
                    },
                ));
            }
        }
        rows.retain(|(_, t)| harnesses.contains(&t.harness.as_str()));
        rows.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.session_id.cmp(&b.1.session_id))
        });
        let mut out: Vec<OpenTranscript> = Vec::with_capacity(rows.len());
        for (_, t) in rows {
            if !out.iter().any(|o| o.transcript_path == t.transcript_path) {
                out.push(t);
            }
        }
        Ok(out)
    }
}

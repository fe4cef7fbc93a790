//! What the OpenTelemetry export reads (each counted message with its
//! session's harness and version) and what it has sent to each endpoint.

use anyhow::Result;
use rusqlite::params;

use super::Store;
use crate::domain::clock::Millis;
use crate::domain::transcript::Buckets;

/// The message id under which a session's `claude_code.session.count`
/// is recorded sent (no message id begins with `#`).
pub const SESSION_COUNTED: &str = "#session.count";

/// A session not yet counted at an endpoint.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub session_id: String,
    pub started_at: Option<Millis>,
    pub harness: String,
    pub version: Option<String>,
}

/// One counted message, as the export reads it.
#[derive(Debug, Clone)]
pub struct MessageRow {
    pub session_id: String,
    pub message_id: String,
    pub model: String,
    pub at: Option<Millis>,
    pub tokens: Buckets,
    pub cost_nanousd: Option<i64>,
    pub harness: String,
    pub version: Option<String>,
}

impl Store {
    /// Every counted message since `since` (all with `None`); with
    /// `unsent_to`, only those not yet sent to that endpoint. In session
    /// and time order.
    pub fn otlp_messages(
        &self,
        since: Option<Millis>,
        unsent_to: Option<&str>,
        mut visit: impl FnMut(MessageRow),
    ) -> Result<()> {
        let mut stmt = self.conn.prepare(
            "SELECT t.session_id, t.message_id, t.model, t.occurred_at, t.input_tokens, t.output_tokens,
                    t.cache_write_5m_tokens, t.cache_write_1h_tokens, t.cache_read_tokens, t.cost_nanousd,
                    s.harness, s.harness_version, t.reasoning_tokens
             FROM token_usage t JOIN sessions s ON s.session_id = t.session_id
             WHERE (?1 IS NULL OR t.occurred_at >= ?1)
               AND (?2 IS NULL OR NOT EXISTS (SELECT 1 FROM otlp_sent_messages o
                    WHERE o.endpoint = ?2 AND o.session_id = t.session_id AND o.message_id = t.message_id))
             ORDER BY t.session_id, t.occurred_at, t.message_id",
        )?;
        let mut rows = stmt.query(params![since, unsent_to])?;
        while let Some(r) = rows.next()? {
            let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(i)? as u64) };
            visit(MessageRow {
                session_id: r.get(0)?,
                message_id: r.get(1)?,
                model: r.get(2)?,
                at: r.get(3)?,
                tokens: Buckets {
                    input: n(4)?,
                    output: n(5)?,
                    cache_write_5m: n(6)?,
                    cache_write_1h: n(7)?,
                    cache_read: n(8)?,
                    reasoning: n(12)?,
                },
                cost_nanousd: r.get(9)?,
                harness: r.get(10)?,
                version: r.get(11)?,
            });
        }
        Ok(())
    }

    /// Sessions active since `since` not yet counted at `endpoint` (every
    /// one without an endpoint): each with its start, harness and version.
    /// A session's count is recorded as the message `SESSION_COUNTED`.
    pub fn otlp_uncounted_sessions(
        &self,
        since: Option<Millis>,
        endpoint: Option<&str>,
    ) -> Result<Vec<NewSession>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.session_id, s.started_at, s.harness, s.harness_version FROM sessions s
             WHERE (?1 IS NULL OR s.last_activity_at >= ?1)
               AND (?2 IS NULL OR NOT EXISTS (SELECT 1 FROM otlp_sent_messages o
                    WHERE o.endpoint = ?2 AND o.session_id = s.session_id AND o.message_id = ?3))
             ORDER BY s.session_id",
        )?;
        let rows = stmt.query_map(params![since, endpoint, SESSION_COUNTED], |r| {
            Ok(NewSession {
                session_id: r.get(0)?,
                started_at: r.get(1)?,
                harness: r.get(2)?,
                version: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sessions active since `since` whose spans `endpoint` has not seen as
    /// they stand (all of them without an endpoint), with their last
    /// activity.
    pub fn otlp_sessions(
        &self,
        since: Option<Millis>,
        endpoint: Option<&str>,
    ) -> Result<Vec<(String, Option<Millis>)>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.session_id, s.last_activity_at FROM sessions s
             WHERE (?1 IS NULL OR s.last_activity_at >= ?1)
               AND (?2 IS NULL OR NOT EXISTS (SELECT 1 FROM otlp_sent_sessions o
                    WHERE o.endpoint = ?2 AND o.session_id = s.session_id
                      AND o.last_activity_at IS s.last_activity_at))
             ORDER BY s.session_id",
        )?;
        let rows = stmt.query_map(params![since, endpoint], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records what one request sent to `endpoint`: its messages and its
    /// sessions' spans as of their last activity.
    pub fn otlp_sent(
        &mut self,
        endpoint: &str,
        messages: &[(String, String)],
        sessions: &[(String, Option<Millis>)],
    ) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut m = tx.prepare_cached(
                "INSERT OR IGNORE INTO otlp_sent_messages(endpoint, session_id, message_id) VALUES (?1, ?2, ?3)",
            )?;
            for (sid, mid) in messages {
                m.execute(params![endpoint, sid, mid])?;
            }
            let mut s = tx.prepare_cached(
                "INSERT INTO otlp_sent_sessions(endpoint, session_id, last_activity_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(endpoint, session_id) DO UPDATE SET last_activity_at = excluded.last_activity_at",
            )?;
            for (sid, at) in sessions {
                s.execute(params![endpoint, sid, at])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

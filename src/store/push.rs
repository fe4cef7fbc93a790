//! What `push` reads of the local store, and its marks of what was sent.

use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Store;

/// A session's mark: what it is now (its files' fingerprint, status, last
/// activity, usage sums), and whether that differs from what was last sent
/// to the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushMark {
    pub session_id: String,
    pub mark: String,
    pub changed: bool,
}

/// A session as pushed.
#[derive(Debug, Clone)]
pub struct SessionPush {
    pub session: SessionFields,
    pub agents: Vec<AgentFields>,
    pub messages: Vec<MessageFields>,
}

#[derive(Debug, Clone)]
pub struct SessionFields {
    pub session_id: String,
    pub harness: String,
    pub project: Option<String>,
    pub project_slug: String,
    pub harness_version: Option<String>,
    pub started_at: Option<i64>,
    pub last_activity_at: Option<i64>,
    pub status: String,
}

#[derive(Debug, Clone)]
pub struct AgentFields {
    pub agent_id: String,
    pub parent_agent_id: Option<String>,
    pub layout: String,
    pub agent_type: Option<String>,
    pub join_path: Option<String>,
    pub status: String,
    pub first_seen_at: Option<i64>,
    pub last_seen_at: Option<i64>,
}

/// A counted message: its buckets in the store's column order (input,
/// output, 5-minute write, 1-hour write, cache read, reasoning).
#[derive(Debug, Clone)]
pub struct MessageFields {
    pub message_id: String,
    pub agent_id: String,
    pub model: String,
    pub at: Option<i64>,
    pub tokens: [i64; 6],
    pub cost: Option<i64>,
}

impl Store {
    /// Every session (active at or after `since`, when given) with its mark
    /// and whether `target` last got a different one.
    pub fn push_candidates(&self, target: &str, since: Option<i64>) -> Result<Vec<PushMark>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.session_id,
                    COALESCE(c.fingerprint, '') || '|' || s.status || '|' || COALESCE(s.status_at, '')
                    || '|' || COALESCE(s.last_activity_at, '') || '|' ||
                    (SELECT COALESCE(SUM(messages), 0) || ':' || COALESCE(SUM(cost_nanousd), 0) || ':'
                            || COALESCE(SUM(input_tokens + output_tokens + cache_write_5m_tokens
                                            + cache_write_1h_tokens + cache_read_tokens), 0)
                     FROM usage_rollup r WHERE r.session_id = s.session_id),
                    p.mark
             FROM sessions s
             LEFT JOIN ingest_checkpoints c ON c.session_id = s.session_id
             LEFT JOIN push_marks p ON p.target = ?1 AND p.session_id = s.session_id
             WHERE ?2 IS NULL OR s.last_activity_at >= ?2
             ORDER BY s.session_id",
        )?;
        let rows = stmt.query_map(params![target, since], |r| {
            let mark: String = r.get(1)?;
            let sent: Option<String> = r.get(2)?;
            Ok(PushMark {
                session_id: r.get(0)?,
                changed: sent.as_deref() != Some(mark.as_str()),
                mark,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A session's row, agents and counted messages, as pushed.
    pub fn session_push(&self, session: &str) -> Result<SessionPush> {
        let s = self.conn.query_row(
            "SELECT session_id, harness, project, project_slug, harness_version, started_at,
                    last_activity_at, status
             FROM sessions WHERE session_id = ?1",
            [session],
            |r| {
                Ok(SessionFields {
                    session_id: r.get(0)?,
                    harness: r.get(1)?,
                    project: r.get(2)?,
                    project_slug: r.get(3)?,
                    harness_version: r.get(4)?,
                    started_at: r.get(5)?,
                    last_activity_at: r.get(6)?,
                    status: r.get(7)?,
                })
            },
        )?;
        let mut stmt = self.conn.prepare(
            "SELECT agent_id, parent_agent_id, layout, agent_type, join_path, status,
                    first_seen_at, last_seen_at
             FROM agents WHERE session_id = ?1 ORDER BY agent_id",
        )?;
        let agents = stmt
            .query_map([session], |r| {
                Ok(AgentFields {
                    agent_id: r.get(0)?,
                    parent_agent_id: r.get(1)?,
                    layout: r.get(2)?,
                    agent_type: r.get(3)?,
                    join_path: r.get(4)?,
                    status: r.get(5)?,
                    first_seen_at: r.get(6)?,
                    last_seen_at: r.get(7)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let mut stmt = self.conn.prepare(
            "SELECT message_id, agent_id, model, occurred_at, input_tokens, output_tokens,
                    cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
                    reasoning_tokens, cost_nanousd
             FROM token_usage WHERE session_id = ?1 ORDER BY message_id",
        )?;
        let messages = stmt
            .query_map([session], |r| {
                Ok(MessageFields {
                    message_id: r.get(0)?,
                    agent_id: r.get(1)?,
                    model: r.get(2)?,
                    at: r.get(3)?,
                    tokens: [
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        r.get(8)?,
                        r.get(9)?,
                    ],
                    cost: r.get(10)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(SessionPush {
            session: s,
            agents,
            messages,
        })
    }

    /// Marks a session sent to `target` as it was (after the target
    /// committed it).
    pub fn mark_pushed(&mut self, target: &str, session: &str, mark: &str, now: i64) -> Result<()> {
        self.conn.execute(
            "INSERT INTO push_marks (target, session_id, mark, pushed_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (target, session_id) DO UPDATE SET mark = excluded.mark,
                pushed_at = excluded.pushed_at",
            params![target, session, mark, now],
        )?;
        Ok(())
    }

    /// Memories (with their commitment) changed since `after` (their own or
    /// their commitment's `updated_at`), oldest first.
    pub fn memories_to_push(&self, after: i64) -> Result<Vec<MemoryFields>> {
        let mut stmt = self.conn.prepare(
            "SELECT m.memory_id, m.kind, m.topic, m.description, m.content, m.project, m.scope,
                    m.tags, m.status, m.pinned, m.supersedes, m.valid_from, m.valid_to,
                    m.created_at, m.updated_at,
                    c.status, c.due_at, c.owner, c.resolved_at, c.updated_at
             FROM memories m LEFT JOIN commitments c ON c.memory_id = m.memory_id
             WHERE max(m.updated_at, COALESCE(c.updated_at, 0)) > ?1
             ORDER BY max(m.updated_at, COALESCE(c.updated_at, 0)), m.memory_id",
        )?;
        let rows = stmt.query_map([after], |r| {
            let c_status: Option<String> = r.get(15)?;
            Ok(MemoryFields {
                memory_id: r.get(0)?,
                kind: r.get(1)?,
                topic: r.get(2)?,
                description: r.get(3)?,
                content: r.get(4)?,
                project: r.get(5)?,
                scope: r.get(6)?,
                tags: r.get(7)?,
                status: r.get(8)?,
                pinned: r.get::<_, i64>(9)? != 0,
                supersedes: r.get(10)?,
                valid_from: r.get(11)?,
                valid_to: r.get(12)?,
                created_at: r.get(13)?,
                updated_at: r.get(14)?,
                commitment: match c_status {
                    Some(status) => Some(CommitmentFields {
                        status,
                        due_at: r.get(16)?,
                        owner: r.get(17)?,
                        resolved_at: r.get(18)?,
                        updated_at: r.get(19)?,
                    }),
                    None => None,
                },
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The mark of what `target` last got of the memories (`MEMORIES`) or
    /// runs (`RUNS`): the latest change it holds.
    pub fn change_mark(&self, target: &str, what: &str) -> Result<i64> {
        let mark: Option<String> = self
            .conn
            .query_row(
                "SELECT mark FROM push_marks WHERE target = ?1 AND session_id = ?2",
                params![target, what],
                |r| r.get(0),
            )
            .optional()?;
        Ok(mark.and_then(|m| m.parse().ok()).unwrap_or(0))
    }

    /// Runs seen or closed since `after`, oldest change first.
    pub fn runs_to_push(&self, after: i64) -> Result<Vec<RunFields>> {
        let mut stmt = self.conn.prepare(
            "SELECT run_id, agent, session_id, source, project, opened_at, closed_at,
                    last_seen_at, triage_status
             FROM agent_sessions
             WHERE max(last_seen_at, COALESCE(closed_at, 0)) > ?1
             ORDER BY max(last_seen_at, COALESCE(closed_at, 0)), run_id",
        )?;
        let rows = stmt.query_map([after], |r| {
            Ok(RunFields {
                run_id: r.get(0)?,
                agent: r.get(1)?,
                session_id: r.get(2)?,
                source: r.get(3)?,
                project: r.get(4)?,
                opened_at: r.get(5)?,
                closed_at: r.get(6)?,
                last_seen_at: r.get(7)?,
                triage_status: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// The keys memories' and runs' marks are kept under in `push_marks` (no
/// session id looks like them).
pub const MEMORIES: &str = "#memories";
pub const RUNS: &str = "#runs";

/// An agent run as pushed (`--with-memory`): no message text.
#[derive(Debug, Clone)]
pub struct RunFields {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub source: String,
    pub project: Option<String>,
    pub opened_at: i64,
    pub closed_at: Option<i64>,
    pub last_seen_at: i64,
    pub triage_status: String,
}

/// A memory as pushed (`--with-memory`).
#[derive(Debug, Clone)]
pub struct MemoryFields {
    pub memory_id: String,
    pub kind: String,
    pub topic: String,
    pub description: Option<String>,
    pub content: String,
    pub project: String,
    pub scope: String,
    pub tags: String,
    pub status: String,
    pub pinned: bool,
    pub supersedes: Option<String>,
    pub valid_from: i64,
    pub valid_to: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub commitment: Option<CommitmentFields>,
}

#[derive(Debug, Clone)]
pub struct CommitmentFields {
    pub status: String,
    pub due_at: Option<i64>,
    pub owner: Option<String>,
    pub resolved_at: Option<i64>,
    pub updated_at: i64,
}
